#!/usr/bin/env python3
"""gen_pg15_catalog.py — dump PostgreSQL 15's system relations into a C include.

RockLake's pg_catalog views (src/sql/sql_pgcatalog.c) must answer DuckDB's
catalog-discovery queries exactly as PostgreSQL 15 does, and PostgreSQL lists
every relation of pg_catalog and information_schema there (their columns,
their row types, the types those columns use, their primary keys / unique
constraints and indexes). This script starts a throw-away PostgreSQL 15 with
tests/pg/pg_env.sh (database `lakecat` owned by role `lake`, like the corpus),
reads exactly those rows as role `lake`, stops the server and writes
src/sql/pg15_catalog.inc: one string table plus static arrays of the structs
declared in src/sql/sql_pgcatalog.c (field order must match them).

    python3 tools/gen_pg15_catalog.py [--port 55511] [--out src/sql/pg15_catalog.inc]
        [--settings-out src/sql/pg15_settings.inc]

It also writes src/sql/pg15_settings.inc: every configuration parameter of
PostgreSQL 15 (pg_settings as a superuser sees it; which of them role `lake`
may read; each user-settable enum's hidden spellings, probed with set_config)
with the value a fresh PostgreSQL 15 shows (the settings tests/pg/pg_env.sh
adds to postgresql.conf, and the port it passes, back at their boot values);
sql_settings.c serves SHOW, SET and pg_settings from it.

Deterministic: every query has an ORDER BY, strings are numbered in first-use
order, and nothing time- or install-dependent (relpages, reltuples,
relfrozenxid, ...) is read. Uses psycopg 3 when installed, else `psql -At`.
"""
import argparse
import re
from pathlib import Path
import os
import shutil
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
PG_ENV = os.path.join(ROOT, "tests", "pg", "pg_env.sh")
NSPS = "(11, 13207)"  # pg_catalog, information_schema
RELKINDS = "('r', 'v', 'm', 'f', 'p', 'c')"

# Types the engine gives the lake's columns and query results: they must be
# in pg_type even if no system column uses them (sql_pgcatalog.c's one list
# of built-in types).
ENGINE_TYPES = [16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 114, 199, 700, 701, 705,
                1000, 1001, 1005, 1007, 1009, 1014, 1015, 1016, 1021, 1022, 1028, 1042,
                1043, 1082, 1083, 1114, 1115, 1182, 1183, 1184, 1185, 1186, 1187, 1231,
                1266, 1270, 1700, 2205, 2210, 2249, 2276, 2277, 2278, 2281, 2283, 2776, 2950, 2951, 3802, 3807, 4089,
                5069, 5077, 5078]

NULL = None

# Catalogs captured whole, as a fresh database has them (rows in heap order,
# every column from pg_attribute): psql's \\dx, \\dL, \\dC, \\dc, \\dF,
# \\ddp, \\dy, \\dl, \\des, \\dew, \\drds, \\dconfig+, \\dd, \\dA[cfop], \\det,
# \\deu read them. sql_pgcatalog.c serves each as a relation of its own
# (fixed_captured).
CAPTURED = ["pg_extension", "pg_language", "pg_cast", "pg_conversion", "pg_default_acl",
            "pg_event_trigger", "pg_largeobject_metadata", "pg_foreign_server",
            "pg_foreign_data_wrapper", "pg_db_role_setting", "pg_ts_config",
            "pg_ts_dict", "pg_ts_parser", "pg_ts_template", "pg_transform", "pg_trigger",
            "pg_ts_config_map", "pg_parameter_acl", "pg_opfamily", "pg_amop", "pg_amproc",
            "pg_foreign_table", "pg_user_mappings"]
# the oid columns of captured catalogs that name a function
FUNCTION_OID_COLUMNS = {"pg_cast": ("castfunc",),
                        "pg_language": ("lanplcallfoid", "laninline", "lanvalidator")}
# the column types a captured catalog may have (how sql_pgcatalog.c puts
# each: bool, integers and oids, regproc as its oid, floats, "char", the
# rest as text)
CAPTURED_TYPES = {16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 30, 194, 700, 701, 1002, 1009,
                  1028, 1034}

# The aggregate and window functions the engine computes (sql_expr.c's
# is_aggregate_name, sql_window.c): pg_proc lists their overloads whose
# argument types are the engine's (prokind 'a' / 'w'), as it lists the
# function table's scalar functions.
# avg(interval), sum(interval), array_agg(anyarray): not computed
AGGREGATES_NOT_COMPUTED = [2106, 2113, 4053]
ENGINE_AGGREGATES = [
    "count", "max", "min", "sum", "avg", "bool_or", "bool_and", "every", "string_agg",
    "array_agg", "json_agg", "jsonb_agg", "json_object_agg", "jsonb_object_agg", "bit_and",
    "bit_or", "bit_xor", "var_pop", "var_samp", "variance", "stddev", "stddev_pop", "stddev_samp",
    "corr", "covar_pop", "covar_samp", "regr_avgx", "regr_avgy", "regr_count", "regr_intercept",
    "regr_r2", "regr_slope", "regr_sxx", "regr_sxy", "regr_syy", "percentile_cont",
    "percentile_disc", "mode", "row_number", "rank", "dense_rank", "percent_rank", "cume_dist",
    "ntile", "lag", "lead", "first_value", "last_value", "nth_value"]

# pg_operator lists the operators RockLake evaluates (as pg_proc lists its
# functions): comparisons of two values of one scalar type the engine
# stores (and of xid8, pg_current_xact_id's), arithmetic of one numeric
# type, unary minus, text concatenation and the LIKE / regular-expression
# matches of text.
OPERATOR_FILTER = (
    "(oprname IN ('=', '<>', '<', '>', '<=', '>=') AND oprleft = oprright AND oprleft IN "
    "(16, 17, 18, 19, 20, 21, 23, 25, 26, 700, 701, 1043, 1082, 1083, 1114, 1184, 1186, 1266, "
    "1700, 2950, 5069))"
    " OR (oprname IN ('+', '-', '*', '/', '%') AND oprleft = oprright AND oprleft IN "
    "(20, 21, 23, 700, 701, 1700))"
    " OR (oprkind = 'l' AND oprname = '-' AND oprright IN (20, 21, 23, 700, 701, 1700))"
    " OR (oprname IN ('||', '~~', '!~~', '~~*', '!~~*', '~', '!~', '~*', '!~*') AND oprleft = 25 "
    "AND oprright = 25)")

# information_schema.columns and .schemata, every column in the view's
# order (sql_pgcatalog.c's is_columns_cols / is_schemata_cols follow it)
IS_COLUMNS = ["table_catalog", "table_schema", "table_name", "column_name", "ordinal_position",
              "column_default", "is_nullable", "data_type", "character_maximum_length",
              "character_octet_length", "numeric_precision", "numeric_precision_radix",
              "numeric_scale", "datetime_precision", "interval_type", "interval_precision",
              "character_set_catalog", "character_set_schema", "character_set_name",
              "collation_catalog", "collation_schema", "collation_name", "domain_catalog",
              "domain_schema", "domain_name", "udt_catalog", "udt_schema", "udt_name",
              "scope_catalog", "scope_schema", "scope_name", "maximum_cardinality",
              "dtd_identifier", "is_self_referencing", "is_identity", "identity_generation",
              "identity_start", "identity_increment", "identity_maximum", "identity_minimum",
              "identity_cycle", "is_generated", "generation_expression", "is_updatable"]
IS_SCHEMATA = ["catalog_name", "schema_name", "schema_owner", "default_character_set_catalog",
               "default_character_set_schema", "default_character_set_name", "sql_path"]


class Db:
    """Text-format rows (str or None) from psycopg 3 or psql."""

    def __init__(self, host, port, user="lake"):
        self.host, self.port, self.user = host, port, user
        try:
            import psycopg  # noqa: F401
            self.conn = psycopg.connect(host=host, port=port, user=user, dbname="lakecat",
                                        autocommit=True)
        except ImportError:
            self.conn = None

    def rows(self, sql):
        # every column is cast to text in SQL, so both paths agree
        if self.conn is not None:
            with self.conn.cursor() as cur:
                cur.execute(sql)
                return [tuple(v for v in r) for r in cur.fetchall()]
        out = subprocess.run(
            ["psql", "-X", "-q", "-At", "-h", self.host, "-p", str(self.port), "-U", self.user,
             "-d", "lakecat", "-v", "ON_ERROR_STOP=1", "-F", "\x1f", "-R", "\x1e",
             "-P", "null=\x1d", "-c", sql],
            check=True, capture_output=True, text=True).stdout
        recs = [r for r in out.rstrip("\n").split("\x1e") if r != ""]
        return [tuple(None if f == "\x1d" else f for f in r.split("\x1f")) for r in recs]

    def close(self):
        if self.conn is not None:
            self.conn.close()


def t(cols):
    """SELECT list casting every column to text."""
    return ", ".join("(%s)::text" % c for c in cols)


def q(name):
    """A column name quoted for SQL."""
    return '"%s"' % name.replace('"', '""')


def dump(db):
    d = {}
    d["version"] = db.rows("SELECT current_setting('server_version')")[0][0]
    d["namespaces"] = db.rows(
        "SELECT %s FROM pg_namespace n ORDER BY n.oid" % t(["oid", "nspname", "nspowner"]))
    rel_filter = "relnamespace IN %s AND relkind IN %s" % (NSPS, RELKINDS)
    d["classes"] = db.rows(
        "SELECT %s FROM pg_class c WHERE %s ORDER BY c.oid" % (t([
            "oid", "relname", "relnamespace", "reltype", "reloftype", "relowner", "relam",
            "relfilenode", "reltablespace", "reltoastrelid", "relhasindex", "relisshared",
            "relpersistence", "relkind", "relnatts", "relchecks", "relhasrules",
            "relhastriggers", "relhassubclass", "relrowsecurity", "relforcerowsecurity",
            "relispopulated", "relreplident", "relispartition"]), rel_filter))
    rels = "(SELECT oid FROM pg_class WHERE %s)" % rel_filter
    d["attributes"] = db.rows(
        "SELECT %s FROM pg_attribute a WHERE attrelid IN %s AND attnum > 0 AND NOT attisdropped "
        "ORDER BY a.attrelid, a.attnum" % (t([
            "attrelid", "attname", "atttypid", "atttypmod", "attlen", "attnum", "attndims",
            "attbyval", "attalign", "attstorage", "attcompression", "attnotnull", "atthasdef",
            "atthasmissing", "attidentity", "attgenerated", "attislocal", "attinhcount",
            "attcollation"]), rels))
    # types: the engine's, those the columns use, the relations' row types,
    # closed over element and base types so every join finds its row
    want = set(ENGINE_TYPES) | {int(a[2]) for a in d["attributes"]}
    want |= {int(c[3]) for c in d["classes"]}
    # every type that is no relation's row type (or is a free-standing
    # composite), as JDBC's getTypeInfo and psql's \dT list them
    want |= {int(r[0]) for r in db.rows(
        "SELECT t.oid::text FROM pg_type t WHERE t.typrelid = 0 OR (SELECT c.relkind = 'c' "
        "FROM pg_class c WHERE c.oid = t.typrelid)")}
    while True:
        more = db.rows("SELECT typelem::text, typbasetype::text FROM pg_type WHERE oid IN (%s)"
                       % ",".join(map(str, sorted(want))))
        new = {int(v) for r in more for v in r if v != "0"} - want
        if not new:
            break
        want |= new
    d["types"] = db.rows(
        "SELECT %s FROM pg_type y WHERE oid IN (%s) ORDER BY y.oid" % (t([
            "oid", "typname", "typnamespace", "typowner", "typlen", "typbyval", "typtype",
            "typcategory", "typispreferred", "typisdefined", "typdelim", "typrelid", "typelem",
            "typarray", "typalign", "typstorage", "typnotnull", "typbasetype", "typtypmod",
            "typndims", "typcollation", "typsubscript::oid", "typinput::oid", "typoutput::oid",
            "typreceive::oid", "typsend::oid", "typmodin::oid", "typmodout::oid",
            "typanalyze::oid", "typdefault", "typdefaultbin"]), ",".join(map(str, sorted(want)))))
    # the system catalogs' keys and the CHECKs of the domains captured above
    # (information_schema's), with their text as pg_get_constraintdef gives it
    d["constraints"] = db.rows(
        "SELECT %s FROM pg_constraint k WHERE conrelid IN %s OR contypid IN (%s) "
        "ORDER BY k.oid" % (t([
            "oid", "conname", "connamespace", "contype", "condeferrable", "condeferred",
            "convalidated", "conrelid", "contypid", "conindid", "conparentid", "confrelid",
            "conislocal", "coninhcount", "connoinherit", "conkey",
            "pg_get_constraintdef(oid, false)", "pg_get_constraintdef(oid, true)"]), rels,
            ",".join(map(str, sorted(want)))))
    d["indexes"] = db.rows(
        "SELECT %s FROM pg_indexes i WHERE schemaname IN ('pg_catalog', 'information_schema') "
        "ORDER BY i.schemaname, i.tablename, i.indexname" % t(
            ["schemaname", "tablename", "indexname", "tablespace", "indexdef"]))
    d["operators"] = db.rows(
        "SELECT %s FROM pg_operator o WHERE %s ORDER BY o.oid" % (t([
            "oid", "oprname", "oprnamespace", "oprowner", "oprkind", "oprcanmerge", "oprcanhash",
            "oprleft", "oprright", "oprresult", "oprcom", "oprnegate", "oprcode::oid",
            "oprrest::oid", "oprjoin::oid"]), OPERATOR_FILTER))
    # the engine's aggregates and window functions (ENGINE_AGGREGATES) over
    # the engine's types: the rows psql's \\df and JDBC's getFunctions show
    d["aggprocs"] = db.rows(
        "SELECT %s FROM pg_proc p WHERE prokind IN ('a', 'w') AND proname IN (%s) AND "
        "proargtypes::oid[] <@ ARRAY[%s]::oid[] AND prorettype = ANY (ARRAY[%s]::oid[]) "
        # not the hypothetical-set aggregates (rank(...) WITHIN GROUP), nor the
        # overloads over the engine's types it does not compute: sum(interval),
        # avg(interval), array_agg(anyarray) (found by sqlsmith, which calls
        # what pg_proc lists, and by calling every listed overload)
        "AND NOT (prokind = 'a' AND proname IN ('rank', 'dense_rank', 'percent_rank', "
        "'cume_dist')) AND p.oid NOT IN (%s) ORDER BY p.oid" % (t([
            "oid", "proname", "prokind", "proisstrict", "provolatile", "proparallel", "pronargs",
            "prorettype", "proargtypes::text", "prosrc", "provariadic"]),
            ",".join("'%s'" % n for n in ENGINE_AGGREGATES),
            ",".join(map(str, ENGINE_TYPES)), ",".join(map(str, ENGINE_TYPES)),
            ",".join(map(str, AGGREGATES_NOT_COMPUTED))))
    # the functions pg_cast names (castfunc) that the function table does
    # not already list: pg_proc lists them so psql's \\dC names them (its
    # LEFT JOIN to pg_proc), and a one-argument call of one is the cast
    # (sql_expr.c); the typmod coercions (bpchar(bpchar, int4, bool), ...)
    # and the casts to types RockLake has not are listed, not callable
    d["castprocs"] = db.rows(
        # by name (C collation), then oid: sql_pgcatalog.c's binary search
        "SELECT %s FROM pg_proc p WHERE p.oid IN (SELECT castfunc FROM pg_cast) "
        "AND p.oid NOT IN (%s) ORDER BY p.proname COLLATE \"C\", p.oid" % (t([
            "oid", "proname", "prokind", "proisstrict", "provolatile", "proparallel", "pronargs",
            "prorettype", "proargtypes::text", "prosrc", "provariadic"]),
            ",".join(map(str, sorted(functab_oids())))))
    d["captured"] = []
    for rel in CAPTURED:
        cols = db.rows("SELECT %s FROM pg_attribute a WHERE attrelid = 'pg_catalog.%s'::regclass "
                       "AND attnum > 0 AND NOT attisdropped ORDER BY attnum"
                       % (t(["attname", "atttypid"]), rel))
        bad = [c for c in cols if int(c[1]) not in CAPTURED_TYPES]
        assert not bad, "%s: column types sql_pgcatalog.c does not put: %s" % (rel, bad)
        sel = ", ".join("%s::oid::text" % q(c[0]) if c[1] == "24" else "%s::text" % q(c[0])
                        for c in cols)
        d["captured"].append((rel, cols, db.rows("SELECT %s FROM pg_catalog.%s" % (sel, rel))))
    # the functions the captured rows name in regproc columns (a type's I/O,
    # an operator's code and estimators, a cast's function): their names, so
    # that regproc prints and reads them although pg_proc lists RockLake's
    # functions only
    refs = set()
    for y in d["types"]:
        refs |= {int(v) for v in y[21:29] if v and v != "0"}
    for o in d["operators"]:
        refs |= {int(v) for v in o[12:15] if v and v != "0"}
    refs |= {2290, 2291, 2402, 2403, 750}  # record I/O of a lake table's row type; array_in
    # the captured catalogs' regproc columns (pg_ts_parser.prsstart, ...)
    # and their oid columns naming functions (pg_cast.castfunc, the
    # language handlers psql's \\dL+ prints as regprocedure)
    for rel, cols, rows in d["captured"]:
        for at, c in enumerate(cols):
            if c[1] == "24" or c[0] in FUNCTION_OID_COLUMNS.get(rel, ()):
                refs |= {int(r[at]) for r in rows if r[at] and r[at] != "0"}
    # each with its regprocedure text (name(argument types))
    d["procnames"] = db.rows(
        "SELECT %s FROM pg_proc p WHERE oid IN (%s) ORDER BY p.oid" % (t([
            "oid", "proname",
            "(SELECT count(*) FROM pg_proc q WHERE q.proname = p.proname) > 1",
            "p.oid::regprocedure"]),
            ",".join(map(str, sorted(refs)))))
    # comments on the relations or their columns (the discovery query's
    # col_desc / tbl_desc; PostgreSQL 15 has none, but stay faithful), on
    # the schemas (psql's \dn+: "standard public schema") and on the
    # functions pg_proc lists (the function table's and the aggregates
    # above: psql's \da, \df+)
    # (and on the functions the captured rows name: \\dFp+ shows the
    # parser's "(internal)")
    procs = functab_oids() | {int(a[0]) for a in d["aggprocs"] + d["castprocs"]}
    procs |= {int(p[0]) for p in d["procnames"]}
    d["descriptions"] = db.rows(
        "SELECT %s FROM pg_description x WHERE (classoid = 'pg_class'::regclass AND objoid IN %s) "
        "OR classoid IN ('pg_namespace'::regclass, 'pg_extension'::regclass, "
        "'pg_am'::regclass, 'pg_language'::regclass, 'pg_ts_config'::regclass, "
        "'pg_ts_dict'::regclass, 'pg_ts_parser'::regclass, 'pg_ts_template'::regclass, "
        "'pg_cast'::regclass, 'pg_conversion'::regclass) "
        "OR (classoid = 'pg_proc'::regclass AND "
        "objoid IN (%s)) ORDER BY x.objoid, x.objsubid" % (
            t(["objoid", "classoid", "objsubid", "description"]), rels,
            ",".join(map(str, sorted(procs)))))
    # ts_token_type(parser): each text search parser's token types (psql's
    # \\dF+ and \\dFp+)
    d["token_types"] = db.rows(
        "SELECT %s FROM pg_ts_parser p, ts_token_type(p.oid) t ORDER BY p.oid, t.tokid" % t(
            ["p.oid", "t.tokid", "t.alias", "t.description"]))
    # pg_get_functiondef's text of every function pg_proc lists but the
    # aggregates (the function table's, the window functions, the cast
    # functions), and pg_get_function_sqlbody's (SQL-standard bodies):
    # psql's \\sf and \\ef print the one, \\df+ the other
    listed = functab_oids() | {int(a[0]) for a in d["aggprocs"] + d["castprocs"]}
    d["functiondefs"] = db.rows(
        "SELECT %s FROM pg_proc p WHERE p.prokind <> 'a' AND p.oid IN (%s) ORDER BY p.oid" % (
            t(["oid", "pg_get_functiondef(p.oid)", "pg_get_function_sqlbody(p.oid)"]), ",".join(map(str, sorted(listed)))))
    d["opclasses"] = db.rows(
        "SELECT %s FROM pg_opclass o ORDER BY o.ctid" % t([
            "oid", "opcmethod", "opcname", "opcnamespace", "opcowner", "opcfamily", "opcintype",
            "opcdefault", "opckeytype"]))
    d["pg_tables"] = db.rows(
        "SELECT %s FROM pg_tables p WHERE schemaname IN ('pg_catalog', 'information_schema') "
        "ORDER BY p.schemaname, p.tablename" % t([
            "schemaname", "tablename", "tableowner", "tablespace", "hasindexes", "hasrules",
            "hastriggers", "rowsecurity"]))
    # as role lake: information_schema.tables lists only what it may use
    d["is_tables"] = db.rows(
        "SELECT %s FROM information_schema.tables x WHERE table_schema IN "
        "('pg_catalog', 'information_schema') ORDER BY x.table_schema, x.table_name" % t([
            "table_schema", "table_name", "table_type", "is_insertable_into", "is_typed"]))
    # as role lake: the columns of what it may use, and the schemas it may
    # use (the catalog columns hold this database's name: written at output)
    d["is_columns"] = db.rows(
        "SELECT %s FROM information_schema.columns x WHERE table_schema IN "
        "('pg_catalog', 'information_schema') ORDER BY x.table_schema, x.table_name, "
        "x.ordinal_position" % t(IS_COLUMNS))
    d["is_schemata"] = db.rows(
        "SELECT %s FROM information_schema.schemata x WHERE schema_name IN "
        "('pg_catalog', 'information_schema', 'pg_toast') ORDER BY x.schema_name" %
        t(IS_SCHEMATA))
    return d


# ------------------------------------------------------------------ C output

class Strings:
    """One NUL-separated string table; an index is a byte offset."""

    def __init__(self):
        self.off, self.items, self.size = {}, [], 0

    def __call__(self, s):
        if s is None:
            return "PG15_NONE"
        if s not in self.off:
            self.off[s] = self.size
            self.items.append(s)
            self.size += len(s.encode()) + 1
        return str(self.off[s])

    def c_literal(self):
        lines, cur = [], ""
        for s in self.items:
            lit = '"%s\\0"' % "".join(
                c if 32 <= ord(c) < 127 and c not in '"\\?' else "\\%03o" % b
                for c in s for b in c.encode())
            if len(cur) + len(lit) + 1 > 96:
                lines.append(cur)
                cur = ""
            cur += (" " if cur else "") + lit
        if cur:
            lines.append(cur)
        return "\n    ".join(lines)


def functab_oids():
    """The oids of src/sql/sql_functab.inc's functions (RL_FUNC("name", oid, ...))."""
    text = (Path(__file__).resolve().parents[1] / "src" / "sql" / "sql_functab.inc").read_text()
    return {int(m) for m in re.findall(r'RL_FUNC\("[^"]*",\s*(\d+),', text)}


def b(v):
    return {"true": "1", "false": "0"}[v]


def ch(v):
    """A "char" column: C char literal, 0 for the empty value."""
    if not v:
        return "0"
    return "'\\''" if v == "'" else "'%s'" % v.replace("\\", "\\\\")


def emit(d, cmd):
    S = Strings()
    out = []

    def array(ctype, name, rows):
        out.append("static const %s %s[] = {" % (ctype, name))
        for r in rows:
            out.append("    {%s}," % ", ".join(r))
        if not rows:  # C has no empty arrays; the count says 0
            out.append("    {0},")
        out.append("};")
        out.append("#define %s_COUNT %d" % (name.upper(), len(rows)))
        out.append("")

    array("pg15_namespace", "pg15_namespaces",
          [[n[0], S(n[1]), n[2]] for n in d["namespaces"]])

    atts_by_rel = {}
    for a in d["attributes"]:
        atts_by_rel.setdefault(a[0], []).append(a)
    classes, first = [], 0
    for c in d["classes"]:
        natt = len(atts_by_rel.get(c[0], []))
        classes.append([c[0], S(c[1])] + list(c[2:10]) + [b(c[10]), b(c[11]), ch(c[12]), ch(c[13]),
                       c[14], c[15]] + [b(v) for v in c[16:22]] + [ch(c[22]), b(c[23]),
                       str(first), str(natt)])
        first += natt
    array("pg15_class", "pg15_classes", classes)

    atts = []
    for c in d["classes"]:
        for a in atts_by_rel.get(c[0], []):
            atts.append([S(a[1]), a[2], a[3], a[4], a[5], a[6], b(a[7]), ch(a[8]), ch(a[9]),
                         ch(a[10]), b(a[11]), b(a[12]), b(a[13]), ch(a[14]), ch(a[15]),
                         b(a[16]), a[17], a[18]])
    array("pg15_attribute", "pg15_attributes", atts)

    array("pg15_type", "pg15_types", [
        [y[0], S(y[1]), y[2], y[3], y[4], b(y[5]), ch(y[6]), ch(y[7]), b(y[8]), b(y[9]),
         ch(y[10]), y[11], y[12], y[13], ch(y[14]), ch(y[15]), b(y[16]), y[17], y[18], y[19],
         y[20]] + list(y[21:29]) + [S(y[29]), S(y[30])] for y in d["types"]])

    array("pg15_procname", "pg15_procnames",
          [[p[0], S(p[1]), b(p[2]), S(p[3])] for p in d["procnames"]])

    array("pg15_constraint", "pg15_constraints", [
        [k[0], S(k[1]), k[2], ch(k[3]), b(k[4]), b(k[5]), b(k[6]), k[7], k[8], k[9], k[10],
         k[11], b(k[12]), k[13], b(k[14]), S(k[15]), S(k[16]), S(k[17])]
        for k in d["constraints"]])

    array("pg15_index", "pg15_indexes",
          [[S(i[0]), S(i[1]), S(i[2]), S(i[3]), S(i[4])] for i in d["indexes"]])

    array("pg15_description", "pg15_descriptions",
          [[x[0], x[1], x[2], S(x[3])] for x in d["descriptions"]])

    array("pg15_table", "pg15_tables",
          [[S(x[0]), S(x[1]), S(x[2]), S(x[3]), b(x[4]), b(x[5]), b(x[6]), b(x[7])]
           for x in d["pg_tables"]])

    array("pg15_is_table", "pg15_is_tables",
          [[S(x[0]), S(x[1]), S(x[2]), S(x[3]), S(x[4])] for x in d["is_tables"]])

    array("pg15_operator", "pg15_operators",
          [[o[0], S(o[1]), o[2], o[3], ch(o[4]), b(o[5]), b(o[6])] + list(o[7:15])
           for o in d["operators"]])

    for name in ("aggprocs", "castprocs"):
        array("pg15_proc", "pg15_" + name,
              [[a[0], S(a[1]), ch(a[2]), b(a[3]), ch(a[4]), ch(a[5]), a[6], a[7], S(a[8]),
                S(a[9]), a[10]] for a in d[name]])

    array("pg15_token_type", "pg15_token_types",
          [[x[0], x[1], S(x[2]), S(x[3])] for x in d["token_types"]])

    array("pg15_functiondef", "pg15_functiondefs",
          [[x[0], S(x[1]), S(x[2])] for x in d["functiondefs"]])

    array("pg15_opclass", "pg15_opclasses",
          [[o[0], o[1], S(o[2]), o[3], o[4], o[5], o[6], b(o[7]), o[8]] for o in d["opclasses"]])

    array("pg15_is_column", "pg15_is_columns",
          [["{" + ", ".join(S(v) for v in x) + "}"] for x in d["is_columns"]])

    array("pg15_is_schema", "pg15_is_schemata",
          [["{" + ", ".join(S(v) for v in x) + "}"] for x in d["is_schemata"]])

    vrels, caps = [], []
    for rel, cols, rows in d["captured"]:
        out.append("static const vcol pg15_cap_%s_cols[] = {" % rel)
        out.append("    " + ", ".join('{"%s", %s, CALLER}' % (c[0], c[1]) for c in cols) + "};")
        cells = [S(v) if v is not None else "PG15_NONE" for r in rows for v in r]
        out.append("static const uint32_t pg15_cap_%s_cells[] = {%s};" % (
            rel, ", ".join(cells) if cells else "0"))
        vrels.append('    {"pg_catalog", "%s", pg15_cap_%s_cols, N(pg15_cap_%s_cols), '
                     'fixed_captured, NULL, {-1, -1}, -1, false},' % (rel, rel, rel))
        caps.append('    {"%s", pg15_cap_%s_cells, %d},' % (rel, rel, len(rows)))
    out.append("")
    out.append("/* the captured catalogs' entries of vrels */")
    out.append("#define PG15_CAPTURED_VRELS \\")
    out.append(" \\\n".join(vrels))
    out.append("")
    out.append("static const pg15_captured pg15_captured_rels[] = {")
    out.extend(caps)
    out.append("};")
    out.append("#define PG15_CAPTURED_COUNT %d" % len(caps))
    out.append("")

    head = [
        "/*",
        " * pg15_catalog.inc — GENERATED, do not edit. PostgreSQL %s's system" % d["version"],
        " * relations (pg_catalog and information_schema), as a fresh database",
        " * `lakecat` owned by role `lake` shows them to role `lake`: namespaces,",
        " * relations, their columns, row types and column types, constraints,",
        " * indexes, comments, operators RockLake evaluates, operator classes, the",
        " * aggregates RockLake computes and the cast functions (pg_proc), the text",
        " * search parsers' token types, pg_tables and",
        " * information_schema.tables, .columns and .schemata rows.",
        " *",
        " * Regenerate with:  %s" % cmd,
        " *",
        " * Strings are byte offsets into pg15_str (PG15_NONE = NULL); the row",
        " * structs are declared in sql_pgcatalog.c, whose field order this file",
        " * follows. Attributes are grouped by relation in pg15_classes' order",
        " * (att_first, att_count).",
        " */",
        "",
        "#define PG15_VERSION \"%s\"" % d["version"],
        "",
        "static const char pg15_str[] =",
        "    " + S.c_literal() + ";",
        "",
    ]
    return "\n".join(head + out)


# ------------------------------------------------------------ settings

SETTING_COLS = ["name", "vartype", "context", "unit", "category", "short_desc", "extra_desc",
                "min_val", "max_val", "enumvals::text", "boot_val", "reset_val", "setting",
                "current_setting(name)", "source"]
# spellings tried on each user-settable enum: PostgreSQL accepts some it does
# not list in enumvals (synchronous_commit = true, client_min_messages =
# debug), each shown as the value it stands for
ENUM_PROBES = ["on", "off", "true", "false", "yes", "no", "1", "0", "debug", "info", "fatal",
               "panic", "log", "regress", "default", "none", "all"]
# settings SHOW knows that pg_settings does not list (GUC_NO_SHOW_ALL):
# name, vartype, context
NOSHOW = [("is_superuser", "bool", "internal")]
# pg_env.sh sets these in the postgresql.conf it writes, except those it sets
# as initdb does here (TimeZone Etc/UTC, DateStyle ISO, MDY): a fresh server
# has their boot values
PG_ENV_KEEP = {"timezone", "datestyle"}
# what initdb writes to a fresh postgresql.conf (source "configuration file")
INITDB_CONF = {"max_connections", "shared_buffers", "dynamic_shared_memory_type", "max_wal_size",
               "min_wal_size", "log_timezone", "datestyle", "timezone", "lc_messages",
               "lc_monetary", "lc_numeric", "lc_time", "default_text_search_config"}

MEM_UNITS = [("TB", 1 << 40), ("GB", 1 << 30), ("MB", 1 << 20), ("kB", 1 << 10), ("B", 1)]
TIME_UNITS = [("d", 86400000000), ("h", 3600000000), ("min", 60000000), ("s", 1000000),
              ("ms", 1000), ("us", 1)]


def unit_table(unit):
    """[(unit, multiplier in base units)] largest first, as PostgreSQL converts."""
    mem = {"B": 1, "kB": 1024, "8kB": 8192, "MB": 1 << 20}
    if unit in mem:
        return [(u, b / mem[unit]) for u, b in MEM_UNITS]
    base = {"ms": 1000, "s": 1000000, "min": 60000000}[unit]
    return [(u, us / base) for u, us in TIME_UNITS]


def shown(vartype, unit, setting):
    """SHOW's text of a setting (pg_settings.setting): a positive integer in
    the largest unit it divides exactly, a real in the largest unit it comes
    within 1e-8 of an integer in."""
    if unit is None or vartype not in ("integer", "real"):
        return setting
    v = float(setting)
    if v <= 0:
        return setting
    if vartype == "integer":
        for u, m in unit_table(unit):
            if m <= 1 or int(setting) % int(m) == 0:
                return "%d%s" % (round(int(setting) / m), u)
    for u, m in unit_table(unit):
        x = v / m
        if abs(round(x) / x - 1.0) <= 1e-8:
            break
    return "%s%s" % (("%g" % x), u)


def pg_env_conf():
    """The settings tests/pg/pg_env.sh writes into postgresql.conf (lower case)."""
    text = Path(PG_ENV).read_text()
    block = text.split("<<CONF", 1)[1].split("\nCONF", 1)[0]
    return {m.lower() for m in re.findall(r"^([a-z_]+)\s*=", block, re.M)}


# where a fresh Debian PostgreSQL 15 keeps its data: the throw-away
# server's directory is written as this (data_directory, config_file, ...)
FRESH_DATA_DIR = "/var/lib/postgresql/15/main"


def dump_settings(db, su, tmp):
    rows = su.rows("SELECT %s FROM pg_settings ORDER BY lower(name) COLLATE \"C\"" %
                   t(SETTING_COLS))
    seen = {r[0] for r in db.rows("SELECT name FROM pg_settings")}
    reset = pg_env_conf() - PG_ENV_KEEP
    out = []
    for r in rows:
        r = dict(zip([c.split("::")[0].split("(")[0] if "(" not in c else "shown" for c in
                      SETTING_COLS], r))
        if r["source"] in ("configuration file", "command line") and (
                r["name"].lower() in reset or r["source"] == "command line"):
            r["setting"] = r["reset_val"] = r["boot_val"]
            r["shown"] = shown(r["vartype"], r["unit"], r["boot_val"])
            r["source"] = "configuration file" if r["name"].lower() in INITDB_CONF else "default"
        else:
            # the show hooks (file modes in octal) aside, SHOW is the setting
            # in its unit: sql_settings.c formats a SET value the same way
            want = shown(r["vartype"], r["unit"], r["setting"])
            assert want == r["shown"] or r["name"].endswith("_mode") or \
                r["name"] == "unix_socket_permissions", (r["name"], want, r["shown"])
        for k in ("setting", "reset_val", "boot_val", "shown"):
            if r[k] and r[k].startswith(os.path.join(tmp, "data")):
                r[k] = FRESH_DATA_DIR + r[k][len(os.path.join(tmp, "data")):]
        r["visible"] = r["name"] in seen
        # whether SET takes a list (GUC_LIST_INPUT): PostgreSQL refuses two
        # values for any other setting before it looks at anything else
        try:
            db.rows('SET LOCAL "%s" = rl_probe_a, rl_probe_b' % r["name"])
            r["list"] = 1
        except Exception as e:  # noqa: BLE001 - the refusal says which
            r["list"] = 0 if "takes only one argument" in str(e) else 1
        # and whether it quotes each name as an identifier (GUC_LIST_QUOTE:
        # search_path = "My Schema"), where a session may SET it
        if r["list"] and r["context"] == "user" and db.conn is not None:
            try:
                with db.conn.transaction():
                    with db.conn.cursor() as cur:
                        cur.execute('SET LOCAL "%s" = "Rl Probe"' % r["name"])
                        cur.execute("SELECT current_setting('%s')" % r["name"])
                        if cur.fetchone()[0].startswith('"'):
                            r["list"] = 2
            except Exception:  # noqa: BLE001 - not a name it takes (DateStyle)
                pass
        r["hidden_enum"] = []
        if r["vartype"] == "enum" and r["context"] == "user" and r["visible"]:
            listed = set(r["enumvals"].strip("{}").replace('"', "").split(","))
            for p in ENUM_PROBES:
                if p in listed:
                    continue
                try:
                    v = db.rows("SELECT set_config('%s', '%s', true)" % (r["name"], p))[0][0]
                except Exception:  # noqa: BLE001 - refused: not a spelling of it
                    continue
                r["hidden_enum"].append((p, v))
        out.append(r)
    # the text search configurations default_text_search_config may name
    ts_configs = [r[0] for r in db.rows(
        "SELECT cfgname::text FROM pg_ts_config ORDER BY cfgname COLLATE \"C\"")]
    for name, vartype, context in NOSHOW:
        v = db.rows("SELECT current_setting('%s')" % name)[0][0]
        out.append({"name": name, "vartype": vartype, "context": context, "unit": None,
                    "category": None, "short_desc": None, "extra_desc": None, "min_val": None,
                    "max_val": None, "enumvals": None, "boot_val": v, "reset_val": v,
                    "setting": v, "shown": v, "source": "default", "visible": None,
                    "list": 0, "hidden_enum": []})
    return out, ts_configs


def emit_settings(rows, ts_configs, version, cmd):
    S = Strings()

    def c_str(v):  # a pointer into the string table (as pg15_catalog.inc's)
        return "NULL" if v is None else "pg15_settings_str + %s" % S(v)

    hidden, table = [], []
    for r in rows:
        h = "NULL"
        if r["hidden_enum"]:
            h = "pg15_hidden_%s" % r["name"]
            hidden.append("static const char *const %s[] = {%s, NULL};" % (
                h, ", ".join("%s, %s" % (c_str(a), c_str(b)) for a, b in r["hidden_enum"])))
        vis = {True: "1", False: "0", None: "-1"}[r["visible"]]
        table.append("    {%s}," % ", ".join(
            [c_str(r[k]) for k in ("name", "vartype", "context", "unit", "category",
                                   "short_desc", "extra_desc", "min_val", "max_val", "enumvals",
                                   "boot_val", "reset_val", "setting", "shown", "source")] +
            [vis, str(r["list"]), h]))
    head = [
        "/*",
        " * pg15_settings.inc — GENERATED, do not edit. PostgreSQL %s's" % version,
        " * configuration parameters as a fresh server shows them to role `lake`",
        " * (pg_settings as a superuser reads it: visible 0 for the rows `lake` may",
        " * not read, -1 for those SHOW knows and pg_settings does not list), with",
        " * each user-settable enum's accepted spellings enumvals does not list",
        " * (hidden: spelling, value, ..., NULL); list 1 for those SET takes a",
        " * list of values for (GUC_LIST_INPUT), 2 for those of them that quote",
        " * each as an identifier (GUC_LIST_QUOTE). Sorted by name case-blind.",
        " *",
        " * Regenerate with:  %s" % cmd,
        " *",
        " * Strings point into pg15_settings_str (NULL: SQL NULL).",
        " */",
        "",
        "static const char pg15_settings_str[] =",
        "    " + S.c_literal() + ";",
        "",
    ]
    ts = ["/* pg_ts_config's names (default_text_search_config's check) */",
          "static const char *const pg15_ts_configs[] = {%s, NULL};" % ", ".join(
              '"%s"' % n for n in ts_configs)]
    return "\n".join(head + hidden + [""] + ["static const pg15_setting pg15_settings[] = {"] +
                     table + ["};", "#define PG15_SETTINGS_COUNT %d" % len(rows), ""] + ts)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--port", type=int, default=55511)
    ap.add_argument("--out", default=os.path.join(ROOT, "src", "sql", "pg15_catalog.inc"))
    ap.add_argument("--settings-out",
                    default=os.path.join(ROOT, "src", "sql", "pg15_settings.inc"))
    args = ap.parse_args()
    tmp = tempfile.mkdtemp(prefix="rl_pg15_catalog_")
    os.chmod(tmp, 0o755)
    try:
        subprocess.run([PG_ENV, "start", str(args.port), tmp], check=True)
        db = Db(tmp, args.port)
        try:
            data = dump(db)
            su = Db(tmp, args.port, user="postgres")
            try:
                settings = dump_settings(db, su, tmp)
            finally:
                su.close()
        finally:
            db.close()
    finally:
        subprocess.run([PG_ENV, "stop", tmp], check=False)
        shutil.rmtree(tmp, ignore_errors=True)
    text = emit(data, "python3 tools/gen_pg15_catalog.py --out src/sql/pg15_catalog.inc")
    with open(args.out, "w") as f:
        f.write(text + "\n")
    with open(args.settings_out, "w") as f:
        f.write(emit_settings(settings[0], settings[1], data["version"],
                              "python3 tools/gen_pg15_catalog.py --out src/sql/pg15_catalog.inc")
                + "\n")
    print("wrote %s (%d bytes): %d relations, %d attributes, %d types, %d constraints, "
          "%d indexes" % (args.out, len(text) + 1, len(data["classes"]),
                          len(data["attributes"]), len(data["types"]),
                          len(data["constraints"]), len(data["indexes"])), file=sys.stderr)


if __name__ == "__main__":
    main()
