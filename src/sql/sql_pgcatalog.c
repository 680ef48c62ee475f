/*
 * sql_pgcatalog.c — pg_catalog and information_schema relations: PostgreSQL
 * 15's own system rows (generated, src/sql/pg15_catalog.inc) followed by rows
 * generated from the table descriptors and the catalog's name registry, and
 * then the session's temporary tables.
 *
 * Owns: the virtual relations DuckDB's postgres extension reads during
 * catalog discovery (pg_namespace, pg_class, pg_attribute, pg_type,
 * pg_constraint, pg_description, pg_enum, pg_indexes, pg_settings, pg_tables,
 * information_schema.tables), with PostgreSQL 15's column names and types,
 * and the pseudo-oids that tie them together.
 *
 * Invariants:
 *  - a discovery query without a schema filter sees what PostgreSQL 15 shows
 *    for a fresh database: every relation of pg_catalog and
 *    information_schema with its columns, row type, column types,
 *    constraints and indexes, with PostgreSQL's real oids. Those rows come
 *    from pg15_catalog.inc (tools/gen_pg15_catalog.py), the ONE source of
 *    system data here, built type list included; they are turned into
 *    values once per process (pthread_once) and copied into each answer;
 *  - the lake's rows follow, reflecting the catalog as the current
 *    transaction sees it (a table created a moment ago in the same
 *    transaction is listed);
 *  - oids of the lake's objects are pure functions of names, so they agree
 *    between pg_class, pg_attribute, pg_constraint, pg_type, RowDescription
 *    and to_regclass, and across restarts. Ranges never overlap each other
 *    or PostgreSQL's system oids (< 16384): namespaces in [16384, 1016384),
 *    relations in [2,000,000, 1,002,000,000) <= row types < 2,002,000,000 <=
 *    constraints;
 *  - relpages is 0 for every table (system relations included), so clients
 *    never plan parallel ctid-range scans (a lake table's primary-key
 *    index has PostgreSQL's 1, RELPAGES);
 *  - a session's temporary tables, their keys, indexes and sequences are
 *    listed after the lake's rows to that session only, in its pg_temp_N
 *    (section "the session's temporary tables"), with oids that are
 *    functions of their names in pg_temp: the oids regclass and their row
 *    types already had.
 */
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <pthread.h>
#include <stdatomic.h>

#include "sql/sql_advisory.h"
#include "sql/sql_ctid.h"
#include "sql/sql_exec.h"
#include "sql/sql_func.h"
#include "sql/sql_lakes.h"
#include "sql/sql_pgcatalog.h"
#include "sql/sql_relation.h"
#include "sql/sql_settings.h"
#include "sql/sql_parse.h"
#include "sql/sql_value.h"

#define PUBLIC_NAMESPACE_OID 2200u /* "public" in every PostgreSQL database */
#define OWNER_OID 10u         /* the bootstrap superuser, as in a fresh database */
#define HEAP_AM_OID 2u
#define PG_CLASS_OID 1259u
#define REL_OID_BASE RL_REL_OID_BASE /* sql_value.h: the row types' oids too */
#define REL_OID_SPAN RL_REL_OID_SPAN
#define ROWTYPE_OID_OFFSET RL_ROWTYPE_OID_OFFSET
#define CONSTRAINT_OID_OFFSET 2000000000u
#define INDEX_OID_OFFSET 3000000000u
/* A lake table's row type's array type: the last range left (the ones
 * above end at 4,002,000,000), a function of the table's oid as well. */
#define ARRAYTYPE_OID_BASE RL_ARRAYTYPE_OID_BASE /* sql_value.h */
#define ARRAYTYPE_OID_SPAN RL_ARRAYTYPE_OID_SPAN
#define BTREE_AM_OID 403u
#define HASH_AM_OID 405u
#define BRIN_AM_OID 3580u
#define SPGIST_AM_OID 4000u
#define PG_CATALOG_NAMESPACE_OID 11u
#define TEXT_ARRAY_OID 1009u
#define OID_ARRAY_OID 1028u
#define ACLITEM_ARRAY_OID 1034u
#define XID_OID 28u   /* xid: always NULL here (RockLake has no such type) */
#define INET_OID 869u /* inet: pg_stat_activity.client_addr, as its text */
#define CHAR_ARRAY_OID 1002u
#define PG_LSN_OID 3220u /* a type of PostgreSQL's that values never have here */

/* ============================================================ definitions */

/* Row structs of pg15_catalog.inc, field for field in the generator's order
 * (tools/gen_pg15_catalog.py). Strings are offsets into pg15_str. */
#define PG15_NONE UINT32_MAX

typedef struct pg15_namespace {
    uint32_t oid, name, owner;
} pg15_namespace;

typedef struct pg15_class {
    uint32_t oid, name, nsoid, reltype, reloftype, relowner, relam, relfilenode,
        reltablespace, reltoastrelid;
    bool relhasindex, relisshared;
    char relpersistence, relkind;
    int16_t relnatts, relchecks;
    bool relhasrules, relhastriggers, relhassubclass, relrowsecurity, relforcerowsecurity,
        relispopulated;
    char relreplident;
    bool relispartition;
    uint16_t att_first, att_count; /* its columns in pg15_attributes */
} pg15_class;

typedef struct pg15_attribute {
    uint32_t name, atttypid;
    int32_t atttypmod;
    int16_t attlen, attnum;
    int32_t attndims;
    bool attbyval;
    char attalign, attstorage, attcompression;
    bool attnotnull, atthasdef, atthasmissing;
    char attidentity, attgenerated;
    bool attislocal;
    int32_t attinhcount;
    uint32_t attcollation;
} pg15_attribute;

typedef struct pg15_type {
    uint32_t oid, name, nsoid, owner;
    int16_t typlen;
    bool typbyval;
    char typtype, typcategory;
    bool typispreferred, typisdefined;
    char typdelim;
    uint32_t typrelid, typelem, typarray;
    char typalign, typstorage;
    bool typnotnull;
    uint32_t typbasetype;
    int32_t typtypmod, typndims;
    uint32_t typcollation;
    /* regproc: the type's subscripting and I/O functions (0: none) */
    uint32_t typsubscript, typinput, typoutput, typreceive, typsend, typmodin, typmodout,
        typanalyze;
    uint32_t typdefault, typdefaultbin; /* pg15_str offsets; PG15_NONE: NULL */
} pg15_type;

/* A function a captured row names (a regproc column, pg_cast.castfunc,
 * pg_language's handlers), whether PostgreSQL has more than one function
 * of that name, and its regprocedure text (pg15_str offsets). */
typedef struct pg15_procname {
    uint32_t oid, name;
    bool overloaded;
    uint32_t signature;
} pg15_procname;

typedef struct pg15_constraint {
    uint32_t oid, name, nsoid;
    char contype;
    bool condeferrable, condeferred, convalidated;
    uint32_t conrelid, contypid, conindid, conparentid, confrelid;
    bool conislocal;
    int32_t coninhcount;
    bool connoinherit;
    uint32_t conkey;
    /* pg_get_constraintdef's text, plain and pretty (pg15_str offsets) */
    uint32_t condef, condef_pretty;
} pg15_constraint;

typedef struct pg15_index {
    uint32_t schema, table, name, tablespace, indexdef;
} pg15_index;

typedef struct pg15_description {
    uint32_t objoid, classoid;
    int32_t objsubid;
    uint32_t description;
} pg15_description;

typedef struct pg15_operator {
    uint32_t oid, name, namespace, owner;
    char kind;
    bool canmerge, canhash;
    uint32_t left, right, result, com, negate, code, rest, join;
} pg15_operator;

/* A pg_proc row captured from PostgreSQL 15: an aggregate or window
 * function the engine computes (pg15_aggprocs: prokind 'a' / 'w'), or a
 * function pg_cast names that the function table has not (pg15_castprocs:
 * prokind 'f'); argtypes and prosrc are pg15_str offsets. */
typedef struct pg15_proc {
    uint32_t oid, name;
    char kind;
    bool strict;
    char volatility, parallel;
    int16_t nargs;
    uint32_t rettype, argtypes, prosrc, variadic;
} pg15_proc;

/* One token type of a text search parser, as ts_token_type(parser)
 * lists it; alias and description are pg15_str offsets. */
typedef struct pg15_token_type {
    uint32_t parser;
    int32_t tokid;
    uint32_t alias, description;
} pg15_token_type;

/* pg_get_functiondef's and pg_get_function_sqlbody's texts (pg15_str
 * offsets; PG15_NONE: no SQL-standard body) of a function pg_proc lists, by
 * oid (sorted): every one but the aggregates. */
typedef struct pg15_functiondef {
    uint32_t oid, def, sqlbody;
} pg15_functiondef;

typedef struct pg15_opclass {
    uint32_t oid, method, name, namespace, owner, family, intype;
    bool isdefault;
    uint32_t keytype;
} pg15_opclass;

typedef struct pg15_table {
    uint32_t schema, name, owner, tablespace;
    bool hasindexes, hasrules, hastriggers, rowsecurity;
} pg15_table;

typedef struct pg15_is_table {
    uint32_t schema, name, type, insertable, typed;
} pg15_is_table;

/* information_schema.columns / .schemata rows, every column as text in the
 * view's order (is_columns_cols, is_schemata_cols). */
#define IS_COLUMNS_NCOLS 44
typedef struct pg15_is_column {
    uint32_t f[IS_COLUMNS_NCOLS];
} pg15_is_column;

#define IS_SCHEMATA_NCOLS 7
typedef struct pg15_is_schema {
    uint32_t f[IS_SCHEMATA_NCOLS];
} pg15_is_schema;

/* Where a column's value comes from when a row is emitted from a row
 * struct (emit_row): a field of the struct (its C type), a string argument,
 * a constant, or (F_CALLER, and every column of a relation not emitted
 * that way) put by the caller. */
enum { F_CALLER, F_U32, F_I16, F_I32, F_BOOL, F_CHAR, F_STR, F_INT, F_FLOAT, F_FALSE, F_NULL,
       F_KCHAR, F_PG15STR, F_RELPAGES, F_RELTUPLES };

typedef struct vfield {
    uint8_t kind;
    uint16_t off; /* F_U32 .. F_CHAR: the field's offset; F_STR: the argument's index */
    int32_t k;    /* F_INT, F_FLOAT: the constant */
} vfield;

/* A field of row struct T, its kind from its C type. */
#define FLD(T, f)                                                                                 \
    {_Generic(((T *)0)->f, uint32_t: F_U32, int16_t: F_I16, int32_t: F_I32, bool: F_BOOL,         \
              char: F_CHAR),                                                                      \
     offsetof(T, f), 0}
#define ARG(i) {F_STR, (i), 0}
/* a uint32_t field of T holding a pg15_str offset (PG15_NONE: NULL) */
#define PG15STR(T, f) {F_PG15STR, offsetof(T, f), 0}
#define KINT(v) {F_INT, 0, (v)}
#define KFLOAT(v) {F_FLOAT, 0, (v)}
#define KFALSE {F_FALSE, 0, 0}
#define KNULL {F_NULL, 0, 0}
#define KCHAR(c) {F_KCHAR, 0, (c)}
/* pg_class.relpages / reltuples of a pg15_class row: 0 and -1 ("never
 * analyzed"; no pages, so clients never plan ctid-range scans of a
 * table), but 1 and 0 for the index of a lake table's primary key, as
 * PostgreSQL's btree build leaves an index made on an empty table (its
 * metapage, no tuples) until a VACUUM or ANALYZE */
#define RELPAGES {F_RELPAGES, 0, 0}
#define RELTUPLES {F_RELTUPLES, 0, 0}
#define CALLER {F_CALLER, 0, 0}

typedef struct vcol {
    const char *name;
    uint32_t oid;
    vfield from; /* for emit_row */
} vcol;

/* The most columns a virtual relation has (information_schema.columns). */
#define VREL_MAX_COLS 48

/* A column its relation's generator puts itself. */
#define COL(name, oid) {(name), (oid), CALLER}
/* information_schema's yes_or_no: varchar(3), typmod 3 + 4 (yes_no_typmod) */
#define YN(name) COL(name, RL_OID_VARCHAR)

typedef struct gen_ctx gen_ctx;

/* A relation's rows are fixed ones (PostgreSQL's system objects: built once
 * per process) followed by the ones gen makes per query. */
typedef struct vrel {
    const char *schema;
    const char *name;
    const vcol *cols;
    size_t ncols;
    int (*fixed)(gen_ctx *g); /* NULL: none */
    int (*gen)(gen_ctx *g);   /* NULL: none */
    /* Columns whose value names the lake table a generated row is about:
     * oid_cols hold its oid (or row type / constraint oid), name_col its
     * name (-1 none). A key set on one lets the rows of only those tables
     * be generated (load_tables). */
    int8_t oid_cols[2];
    int8_t name_col;
    /* Its rows depend on the session (settings, user, database name), not
     * only on the lake's schemas and tables: see rl_pgcatalog_pure. */
    bool per_session;
} vrel;

#define N(a) (sizeof(a) / sizeof((a)[0]))

static const vcol namespace_cols[] = {COL("oid", RL_OID_OID), COL("nspname", RL_OID_NAME),
                                      COL("nspowner", RL_OID_OID),
                                      COL("nspacl", ACLITEM_ARRAY_OID)};

static const vcol class_cols[] = {
    {"oid", RL_OID_OID, FLD(pg15_class, oid)},
    {"relname", RL_OID_NAME, ARG(0)},
    {"relnamespace", RL_OID_OID, FLD(pg15_class, nsoid)},
    {"reltype", RL_OID_OID, FLD(pg15_class, reltype)},
    {"reloftype", RL_OID_OID, FLD(pg15_class, reloftype)},
    {"relowner", RL_OID_OID, FLD(pg15_class, relowner)},
    {"relam", RL_OID_OID, FLD(pg15_class, relam)},
    {"relfilenode", RL_OID_OID, FLD(pg15_class, relfilenode)},
    {"reltablespace", RL_OID_OID, FLD(pg15_class, reltablespace)},
    {"relpages", RL_OID_INT4, RELPAGES},
    {"reltuples", RL_OID_FLOAT4, RELTUPLES},
    {"relallvisible", RL_OID_INT4, KINT(0)},
    {"reltoastrelid", RL_OID_OID, FLD(pg15_class, reltoastrelid)},
    {"relhasindex", RL_OID_BOOL, FLD(pg15_class, relhasindex)},
    {"relisshared", RL_OID_BOOL, FLD(pg15_class, relisshared)},
    {"relpersistence", RL_OID_CHAR, FLD(pg15_class, relpersistence)},
    {"relkind", RL_OID_CHAR, FLD(pg15_class, relkind)},
    {"relnatts", RL_OID_INT2, FLD(pg15_class, relnatts)},
    {"relchecks", RL_OID_INT2, FLD(pg15_class, relchecks)},
    {"relhasrules", RL_OID_BOOL, FLD(pg15_class, relhasrules)},
    {"relhastriggers", RL_OID_BOOL, FLD(pg15_class, relhastriggers)},
    {"relhassubclass", RL_OID_BOOL, FLD(pg15_class, relhassubclass)},
    {"relrowsecurity", RL_OID_BOOL, FLD(pg15_class, relrowsecurity)},
    {"relforcerowsecurity", RL_OID_BOOL, FLD(pg15_class, relforcerowsecurity)},
    {"relispopulated", RL_OID_BOOL, FLD(pg15_class, relispopulated)},
    {"relreplident", RL_OID_CHAR, FLD(pg15_class, relreplident)},
    {"relispartition", RL_OID_BOOL, FLD(pg15_class, relispartition)},
    /* relrewrite, relfrozenxid, relminmxid (xid) are not here; no
     * privileges, options or partition bounds */
    {"relacl", ACLITEM_ARRAY_OID, KNULL},
    {"reloptions", TEXT_ARRAY_OID, KNULL},
    {"relpartbound", RL_OID_PG_NODE_TREE, KNULL}};

static const vcol attribute_cols[] = {
    COL("attrelid", RL_OID_OID),
    {"attname", RL_OID_NAME, ARG(0)},
    {"atttypid", RL_OID_OID, FLD(pg15_attribute, atttypid)},
    {"attstattarget", RL_OID_INT4, KINT(-1)},
    {"attlen", RL_OID_INT2, FLD(pg15_attribute, attlen)},
    {"attnum", RL_OID_INT2, FLD(pg15_attribute, attnum)},
    {"attndims", RL_OID_INT4, FLD(pg15_attribute, attndims)},
    {"attcacheoff", RL_OID_INT4, KINT(-1)},
    {"atttypmod", RL_OID_INT4, FLD(pg15_attribute, atttypmod)},
    {"attbyval", RL_OID_BOOL, FLD(pg15_attribute, attbyval)},
    {"attalign", RL_OID_CHAR, FLD(pg15_attribute, attalign)},
    {"attstorage", RL_OID_CHAR, FLD(pg15_attribute, attstorage)},
    {"attcompression", RL_OID_CHAR, FLD(pg15_attribute, attcompression)},
    {"attnotnull", RL_OID_BOOL, FLD(pg15_attribute, attnotnull)},
    {"atthasdef", RL_OID_BOOL, FLD(pg15_attribute, atthasdef)},
    {"atthasmissing", RL_OID_BOOL, FLD(pg15_attribute, atthasmissing)},
    {"attidentity", RL_OID_CHAR, FLD(pg15_attribute, attidentity)},
    {"attgenerated", RL_OID_CHAR, FLD(pg15_attribute, attgenerated)},
    {"attisdropped", RL_OID_BOOL, KFALSE},
    {"attislocal", RL_OID_BOOL, FLD(pg15_attribute, attislocal)},
    {"attinhcount", RL_OID_INT4, FLD(pg15_attribute, attinhcount)},
    {"attcollation", RL_OID_OID, FLD(pg15_attribute, attcollation)},
    /* no column grants or options (psql's \\dp reads attacl) */
    {"attacl", ACLITEM_ARRAY_OID, KNULL},
    {"attoptions", TEXT_ARRAY_OID, KNULL},
    {"attfdwoptions", TEXT_ARRAY_OID, KNULL}};

static const vcol type_cols[] = {
    {"oid", RL_OID_OID, FLD(pg15_type, oid)},
    {"typname", RL_OID_NAME, ARG(0)},
    {"typnamespace", RL_OID_OID, FLD(pg15_type, nsoid)},
    {"typowner", RL_OID_OID, FLD(pg15_type, owner)},
    {"typlen", RL_OID_INT2, FLD(pg15_type, typlen)},
    {"typbyval", RL_OID_BOOL, FLD(pg15_type, typbyval)},
    {"typtype", RL_OID_CHAR, FLD(pg15_type, typtype)},
    {"typcategory", RL_OID_CHAR, FLD(pg15_type, typcategory)},
    {"typispreferred", RL_OID_BOOL, FLD(pg15_type, typispreferred)},
    {"typisdefined", RL_OID_BOOL, FLD(pg15_type, typisdefined)},
    {"typdelim", RL_OID_CHAR, FLD(pg15_type, typdelim)},
    {"typrelid", RL_OID_OID, FLD(pg15_type, typrelid)},
    {"typsubscript", RL_OID_REGPROC, FLD(pg15_type, typsubscript)},
    {"typelem", RL_OID_OID, FLD(pg15_type, typelem)},
    {"typarray", RL_OID_OID, FLD(pg15_type, typarray)},
    {"typinput", RL_OID_REGPROC, FLD(pg15_type, typinput)},
    {"typoutput", RL_OID_REGPROC, FLD(pg15_type, typoutput)},
    {"typreceive", RL_OID_REGPROC, FLD(pg15_type, typreceive)},
    {"typsend", RL_OID_REGPROC, FLD(pg15_type, typsend)},
    {"typmodin", RL_OID_REGPROC, FLD(pg15_type, typmodin)},
    {"typmodout", RL_OID_REGPROC, FLD(pg15_type, typmodout)},
    {"typanalyze", RL_OID_REGPROC, FLD(pg15_type, typanalyze)},
    {"typalign", RL_OID_CHAR, FLD(pg15_type, typalign)},
    {"typstorage", RL_OID_CHAR, FLD(pg15_type, typstorage)},
    {"typnotnull", RL_OID_BOOL, FLD(pg15_type, typnotnull)},
    {"typbasetype", RL_OID_OID, FLD(pg15_type, typbasetype)},
    {"typtypmod", RL_OID_INT4, FLD(pg15_type, typtypmod)},
    {"typndims", RL_OID_INT4, FLD(pg15_type, typndims)},
    {"typcollation", RL_OID_OID, FLD(pg15_type, typcollation)},
    /* a default belongs to a domain, and a type's ACL to CREATE TYPE: the
     * built-in types RockLake has carry neither (NULL on PostgreSQL) */
    /* a domain's default (information_schema.time_stamp's); no type has
     * an ACL of its own (CREATE TYPE ... GRANT) */
    {"typdefaultbin", RL_OID_PG_NODE_TREE, PG15STR(pg15_type, typdefaultbin)},
    {"typdefault", RL_OID_TEXT, PG15STR(pg15_type, typdefault)},
    {"typacl", ACLITEM_ARRAY_OID, KNULL}};

static const vcol constraint_cols[] = {
    {"oid", RL_OID_OID, FLD(pg15_constraint, oid)},
    {"conname", RL_OID_NAME, ARG(0)},
    {"connamespace", RL_OID_OID, FLD(pg15_constraint, nsoid)},
    {"contype", RL_OID_CHAR, FLD(pg15_constraint, contype)},
    {"condeferrable", RL_OID_BOOL, FLD(pg15_constraint, condeferrable)},
    {"condeferred", RL_OID_BOOL, FLD(pg15_constraint, condeferred)},
    {"convalidated", RL_OID_BOOL, FLD(pg15_constraint, convalidated)},
    {"conrelid", RL_OID_OID, FLD(pg15_constraint, conrelid)},
    {"contypid", RL_OID_OID, FLD(pg15_constraint, contypid)},
    {"conindid", RL_OID_OID, FLD(pg15_constraint, conindid)},
    {"conparentid", RL_OID_OID, FLD(pg15_constraint, conparentid)},
    {"confrelid", RL_OID_OID, FLD(pg15_constraint, confrelid)},
    /* a FOREIGN KEY's; ' ' and NULL for the other kinds, as PostgreSQL's */
    {"confupdtype", RL_OID_CHAR, ARG(2)},
    {"confdeltype", RL_OID_CHAR, ARG(3)},
    {"confmatchtype", RL_OID_CHAR, ARG(4)},
    {"conislocal", RL_OID_BOOL, FLD(pg15_constraint, conislocal)},
    {"coninhcount", RL_OID_INT4, FLD(pg15_constraint, coninhcount)},
    {"connoinherit", RL_OID_BOOL, FLD(pg15_constraint, connoinherit)},
    {"conkey", RL_OID_INT2_ARRAY, ARG(1)},
    {"confkey", RL_OID_INT2_ARRAY, ARG(5)},
    {"conpfeqop", 1028, ARG(6)},
    {"conppeqop", 1028, ARG(7)},
    {"conffeqop", 1028, ARG(8)},
    {"confdelsetcols", RL_OID_INT2_ARRAY, KNULL},
    {"conexclop", 1028, KNULL},
    {"conbin", RL_OID_PG_NODE_TREE, KNULL}};

static const vcol description_cols[] = {COL("objoid", RL_OID_OID),
                                        COL("classoid", RL_OID_OID),
                                        COL("objsubid", RL_OID_INT4),
                                        COL("description", RL_OID_TEXT)};

static const vcol enum_cols[] = {COL("oid", RL_OID_OID),
                                 COL("enumtypid", RL_OID_OID),
                                 COL("enumsortorder", RL_OID_FLOAT4),
                                 COL("enumlabel", RL_OID_NAME)};

static const vcol indexes_cols[] = {COL("schemaname", RL_OID_NAME),
                                    COL("tablename", RL_OID_NAME),
                                    COL("indexname", RL_OID_NAME),
                                    COL("tablespace", RL_OID_NAME),
                                    COL("indexdef", RL_OID_TEXT)};

static const vcol settings_cols[] = {
    COL("name", RL_OID_TEXT),       COL("setting", RL_OID_TEXT),    COL("unit", RL_OID_TEXT),
    COL("category", RL_OID_TEXT),   COL("short_desc", RL_OID_TEXT), COL("extra_desc", RL_OID_TEXT),
    COL("context", RL_OID_TEXT),    COL("vartype", RL_OID_TEXT),    COL("source", RL_OID_TEXT),
    COL("min_val", RL_OID_TEXT),    COL("max_val", RL_OID_TEXT),    COL("enumvals", TEXT_ARRAY_OID),
    COL("boot_val", RL_OID_TEXT),   COL("reset_val", RL_OID_TEXT),  COL("sourcefile", RL_OID_TEXT),
    COL("sourceline", RL_OID_INT4), COL("pending_restart", RL_OID_BOOL)};

static const vcol tables_view_cols[] = {
    COL("schemaname", RL_OID_NAME), COL("tablename", RL_OID_NAME),  COL("tableowner", RL_OID_NAME),
    COL("tablespace", RL_OID_NAME), COL("hasindexes", RL_OID_BOOL), COL("hasrules", RL_OID_BOOL),
    COL("hastriggers", RL_OID_BOOL), COL("rowsecurity", RL_OID_BOOL)};

/* information_schema's domains (sql_identifier over name, character_data
 * and yes_or_no over varchar) are reported as their base types. */
static const vcol is_tables_cols[] = {
    COL("table_catalog", RL_OID_NAME), COL("table_schema", RL_OID_NAME),
    COL("table_name", RL_OID_NAME),    COL("table_type", RL_OID_VARCHAR),
    COL("self_referencing_column_name", RL_OID_NAME), COL("reference_generation", RL_OID_VARCHAR),
    COL("user_defined_type_catalog", RL_OID_NAME), COL("user_defined_type_schema", RL_OID_NAME),
    COL("user_defined_type_name", RL_OID_NAME), YN("is_insertable_into"),
    YN("is_typed"),   COL("commit_action", RL_OID_VARCHAR)};

static const vcol is_sequences_cols[] = {
    COL("sequence_catalog", RL_OID_NAME), COL("sequence_schema", RL_OID_NAME),
    COL("sequence_name", RL_OID_NAME),    COL("data_type", RL_OID_VARCHAR),
    COL("numeric_precision", RL_OID_INT4), COL("numeric_precision_radix", RL_OID_INT4),
    COL("numeric_scale", RL_OID_INT4),    COL("start_value", RL_OID_VARCHAR),
    COL("minimum_value", RL_OID_VARCHAR), COL("maximum_value", RL_OID_VARCHAR),
    COL("increment", RL_OID_VARCHAR),     YN("cycle_option")};

/* information_schema.columns: sql_identifier (name), cardinal_number
 * (integer), character_data and yes_or_no (varchar), as RowDescription
 * reports the domains. */
#define ISN RL_OID_NAME
#define ISI RL_OID_INT4
#define ISV RL_OID_VARCHAR
static const vcol is_columns_cols[IS_COLUMNS_NCOLS] = {
    COL("table_catalog", ISN), COL("table_schema", ISN), COL("table_name", ISN),
    COL("column_name", ISN), COL("ordinal_position", ISI), COL("column_default", ISV),
    YN("is_nullable"), COL("data_type", ISV), COL("character_maximum_length", ISI),
    COL("character_octet_length", ISI), COL("numeric_precision", ISI),
    COL("numeric_precision_radix", ISI), COL("numeric_scale", ISI),
    COL("datetime_precision", ISI), COL("interval_type", ISV), COL("interval_precision", ISI),
    COL("character_set_catalog", ISN), COL("character_set_schema", ISN),
    COL("character_set_name", ISN), COL("collation_catalog", ISN), COL("collation_schema", ISN),
    COL("collation_name", ISN), COL("domain_catalog", ISN), COL("domain_schema", ISN),
    COL("domain_name", ISN), COL("udt_catalog", ISN), COL("udt_schema", ISN),
    COL("udt_name", ISN), COL("scope_catalog", ISN), COL("scope_schema", ISN),
    COL("scope_name", ISN), COL("maximum_cardinality", ISI), COL("dtd_identifier", ISN),
    YN("is_self_referencing"), YN("is_identity"), COL("identity_generation", ISV),
    COL("identity_start", ISV), COL("identity_increment", ISV), COL("identity_maximum", ISV),
    COL("identity_minimum", ISV), YN("identity_cycle"), COL("is_generated", ISV),
    COL("generation_expression", ISV), YN("is_updatable")};

static const vcol is_schemata_cols[IS_SCHEMATA_NCOLS] = {
    COL("catalog_name", ISN), COL("schema_name", ISN), COL("schema_owner", ISN),
    COL("default_character_set_catalog", ISN), COL("default_character_set_schema", ISN),
    COL("default_character_set_name", ISN), COL("sql_path", ISV)};

/* information_schema.table_constraints, .key_column_usage,
 * .referential_constraints and .views (PostgreSQL 15's columns; the
 * domains as RowDescription reports them). */
static const vcol is_table_constraints_cols[] = {
    COL("constraint_catalog", ISN), COL("constraint_schema", ISN), COL("constraint_name", ISN),
    COL("table_catalog", ISN),      COL("table_schema", ISN),      COL("table_name", ISN),
    COL("constraint_type", ISV),    YN("is_deferrable"),           YN("initially_deferred"),
    YN("enforced"),                 YN("nulls_distinct")};
static const vcol is_check_constraints_cols[] = {
    COL("constraint_catalog", ISN), COL("constraint_schema", ISN), COL("constraint_name", ISN),
    COL("check_clause", ISV)};
static const vcol is_key_column_usage_cols[] = {
    COL("constraint_catalog", ISN), COL("constraint_schema", ISN), COL("constraint_name", ISN),
    COL("table_catalog", ISN),      COL("table_schema", ISN),      COL("table_name", ISN),
    COL("column_name", ISN),        COL("ordinal_position", ISI),
    COL("position_in_unique_constraint", ISI)};
static const vcol is_referential_constraints_cols[] = {
    COL("constraint_catalog", ISN),        COL("constraint_schema", ISN),
    COL("constraint_name", ISN),           COL("unique_constraint_catalog", ISN),
    COL("unique_constraint_schema", ISN),  COL("unique_constraint_name", ISN),
    COL("match_option", ISV),              COL("update_rule", ISV),
    COL("delete_rule", ISV)};
static const vcol is_views_cols[] = {
    COL("table_catalog", ISN),    COL("table_schema", ISN),      COL("table_name", ISN),
    COL("view_definition", ISV),  COL("check_option", ISV),      YN("is_updatable"),
    YN("is_insertable_into"),     YN("is_trigger_updatable"),    YN("is_trigger_deletable"),
    YN("is_trigger_insertable_into")};

/* pg_database without datfrozenxid / datminmxid (xid, a type RockLake
 * does not have); datacl (aclitem[]) is always NULL: no privileges. */
static const vcol database_cols[] = {
    COL("oid", RL_OID_OID),           COL("datname", RL_OID_NAME),
    COL("datdba", RL_OID_OID),        COL("encoding", RL_OID_INT4),
    COL("datlocprovider", RL_OID_CHAR), COL("datistemplate", RL_OID_BOOL),
    COL("datallowconn", RL_OID_BOOL), COL("datconnlimit", RL_OID_INT4),
    COL("dattablespace", RL_OID_OID), COL("datcollate", RL_OID_TEXT),
    COL("datctype", RL_OID_TEXT),     COL("daticulocale", RL_OID_TEXT),
    COL("datcollversion", RL_OID_TEXT), COL("datacl", ACLITEM_ARRAY_OID)};

static const vcol roles_cols[] = {
    COL("rolname", RL_OID_NAME),        COL("rolsuper", RL_OID_BOOL),
    COL("rolinherit", RL_OID_BOOL),     COL("rolcreaterole", RL_OID_BOOL),
    COL("rolcreatedb", RL_OID_BOOL),    COL("rolcanlogin", RL_OID_BOOL),
    COL("rolreplication", RL_OID_BOOL), COL("rolconnlimit", RL_OID_INT4),
    COL("rolpassword", RL_OID_TEXT),    COL("rolvaliduntil", RL_OID_TIMESTAMPTZ),
    COL("rolbypassrls", RL_OID_BOOL),   COL("rolconfig", TEXT_ARRAY_OID),
    COL("oid", RL_OID_OID)};

static const vcol stat_activity_cols[] = {
    COL("datid", RL_OID_OID),                 COL("datname", RL_OID_NAME),
    COL("pid", RL_OID_INT4),                  COL("leader_pid", RL_OID_INT4),
    COL("usesysid", RL_OID_OID),              COL("usename", RL_OID_NAME),
    COL("application_name", RL_OID_TEXT),     COL("client_addr", INET_OID),
    COL("client_hostname", RL_OID_TEXT),      COL("client_port", RL_OID_INT4),
    COL("backend_start", RL_OID_TIMESTAMPTZ), COL("xact_start", RL_OID_TIMESTAMPTZ),
    COL("query_start", RL_OID_TIMESTAMPTZ),   COL("state_change", RL_OID_TIMESTAMPTZ),
    COL("wait_event_type", RL_OID_TEXT),      COL("wait_event", RL_OID_TEXT),
    COL("state", RL_OID_TEXT),                COL("backend_xid", XID_OID),
    COL("backend_xmin", XID_OID),             COL("query_id", RL_OID_INT8),
    COL("query", RL_OID_TEXT),                COL("backend_type", RL_OID_TEXT)};

static const vcol locks_cols[] = {
    COL("locktype", RL_OID_TEXT),       COL("database", RL_OID_OID),
    COL("relation", RL_OID_OID),        COL("page", RL_OID_INT4),
    COL("tuple", RL_OID_INT2),          COL("virtualxid", RL_OID_TEXT),
    COL("transactionid", XID_OID),      COL("classid", RL_OID_OID),
    COL("objid", RL_OID_OID),           COL("objsubid", RL_OID_INT2),
    COL("virtualtransaction", RL_OID_TEXT), COL("pid", RL_OID_INT4),
    COL("mode", RL_OID_TEXT),           COL("granted", RL_OID_BOOL),
    COL("fastpath", RL_OID_BOOL),       COL("waitstart", RL_OID_TIMESTAMPTZ)};
static const vcol cursors_cols[] = {
    COL("name", RL_OID_TEXT),          COL("statement", RL_OID_TEXT),
    COL("is_holdable", RL_OID_BOOL),   COL("is_binary", RL_OID_BOOL),
    COL("is_scrollable", RL_OID_BOOL), COL("creation_time", RL_OID_TIMESTAMPTZ)};

static const vcol auth_members_cols[] = {COL("roleid", RL_OID_OID), COL("member", RL_OID_OID),
                                         COL("grantor", RL_OID_OID),
                                         COL("admin_option", RL_OID_BOOL)};

static const vcol am_cols[] = {COL("oid", RL_OID_OID), COL("amname", RL_OID_NAME),
                               COL("amhandler", RL_OID_REGPROC), COL("amtype", RL_OID_CHAR)};

static const vcol proc_cols[] = {
    COL("oid", RL_OID_OID),             COL("proname", RL_OID_NAME),
    COL("pronamespace", RL_OID_OID),    COL("proowner", RL_OID_OID),
    COL("prolang", RL_OID_OID),         COL("procost", RL_OID_FLOAT4),
    COL("prorows", RL_OID_FLOAT4),      COL("provariadic", RL_OID_OID),
    COL("prosupport", RL_OID_REGPROC),  COL("prokind", RL_OID_CHAR),
    COL("prosecdef", RL_OID_BOOL),      COL("proleakproof", RL_OID_BOOL),
    COL("proisstrict", RL_OID_BOOL),    COL("proretset", RL_OID_BOOL),
    COL("provolatile", RL_OID_CHAR),    COL("proparallel", RL_OID_CHAR),
    COL("pronargs", RL_OID_INT2),       COL("pronargdefaults", RL_OID_INT2),
    COL("prorettype", RL_OID_OID),      COL("proargtypes", RL_OID_OIDVECTOR),
    COL("prosrc", RL_OID_TEXT),         COL("probin", RL_OID_TEXT),
    COL("proconfig", TEXT_ARRAY_OID),  COL("proacl", ACLITEM_ARRAY_OID)};

static const vcol index_cols[] = {
    COL("indexrelid", RL_OID_OID),        COL("indrelid", RL_OID_OID),
    COL("indnatts", RL_OID_INT2),         COL("indnkeyatts", RL_OID_INT2),
    COL("indisunique", RL_OID_BOOL),      COL("indnullsnotdistinct", RL_OID_BOOL),
    COL("indisprimary", RL_OID_BOOL),     COL("indisexclusion", RL_OID_BOOL),
    COL("indimmediate", RL_OID_BOOL),     COL("indisclustered", RL_OID_BOOL),
    COL("indisvalid", RL_OID_BOOL),       COL("indcheckxmin", RL_OID_BOOL),
    COL("indisready", RL_OID_BOOL),       COL("indislive", RL_OID_BOOL),
    COL("indisreplident", RL_OID_BOOL),   COL("indkey", RL_OID_INT2VECTOR),
    COL("indcollation", RL_OID_OIDVECTOR),   COL("indclass", RL_OID_OIDVECTOR),
    COL("indoption", RL_OID_INT2VECTOR),  COL("indexprs", RL_OID_PG_NODE_TREE),
    COL("indpred", RL_OID_PG_NODE_TREE)};

static const vcol operator_cols[] = {
    COL("oid", RL_OID_OID),         COL("oprname", RL_OID_NAME),     COL("oprnamespace", RL_OID_OID),
    COL("oprowner", RL_OID_OID),    COL("oprkind", RL_OID_CHAR),     COL("oprcanmerge", RL_OID_BOOL),
    COL("oprcanhash", RL_OID_BOOL), COL("oprleft", RL_OID_OID),      COL("oprright", RL_OID_OID),
    COL("oprresult", RL_OID_OID),   COL("oprcom", RL_OID_OID),       COL("oprnegate", RL_OID_OID),
    COL("oprcode", RL_OID_REGPROC), COL("oprrest", RL_OID_REGPROC), COL("oprjoin", RL_OID_REGPROC)};
static const vcol opclass_cols[] = {
    COL("oid", RL_OID_OID),          COL("opcmethod", RL_OID_OID),  COL("opcname", RL_OID_NAME),
    COL("opcnamespace", RL_OID_OID), COL("opcowner", RL_OID_OID),   COL("opcfamily", RL_OID_OID),
    COL("opcintype", RL_OID_OID),    COL("opcdefault", RL_OID_BOOL), COL("opckeytype", RL_OID_OID)};
static const vcol tablespace_cols[] = {
    COL("oid", RL_OID_OID), COL("spcname", RL_OID_NAME), COL("spcowner", RL_OID_OID),
    COL("spcacl", ACLITEM_ARRAY_OID), COL("spcoptions", RL_OID_TEXT_ARRAY)};
static const vcol sequence_cols[] = {
    COL("seqrelid", RL_OID_OID),     COL("seqtypid", RL_OID_OID), COL("seqstart", RL_OID_INT8),
    COL("seqincrement", RL_OID_INT8), COL("seqmax", RL_OID_INT8),  COL("seqmin", RL_OID_INT8),
    COL("seqcache", RL_OID_INT8),    COL("seqcycle", RL_OID_BOOL)};
static const vcol sequences_view_cols[] = {
    COL("schemaname", RL_OID_NAME),   COL("sequencename", RL_OID_NAME),
    COL("sequenceowner", RL_OID_NAME), COL("data_type", RL_OID_REGTYPE),
    COL("start_value", RL_OID_INT8),  COL("min_value", RL_OID_INT8),
    COL("max_value", RL_OID_INT8),    COL("increment_by", RL_OID_INT8),
    COL("cycle", RL_OID_BOOL),        COL("cache_size", RL_OID_INT8),
    COL("last_value", RL_OID_INT8)};
static const vcol depend_cols[] = {
    COL("classid", RL_OID_OID),    COL("objid", RL_OID_OID),      COL("objsubid", RL_OID_INT4),
    COL("refclassid", RL_OID_OID), COL("refobjid", RL_OID_OID),   COL("refobjsubid", RL_OID_INT4),
    COL("deptype", RL_OID_CHAR)};
static const vcol inherits_cols[] = {COL("inhrelid", RL_OID_OID), COL("inhparent", RL_OID_OID),
                                     COL("inhseqno", RL_OID_INT4),
                                     COL("inhdetachpending", RL_OID_BOOL)};

static const vcol attrdef_cols[] = {COL("oid", RL_OID_OID), COL("adrelid", RL_OID_OID),
                                    COL("adnum", RL_OID_INT2), COL("adbin", RL_OID_PG_NODE_TREE)};

static const vcol collation_cols[] = {
    COL("oid", RL_OID_OID),            COL("collname", RL_OID_NAME),
    COL("collnamespace", RL_OID_OID),  COL("collowner", RL_OID_OID),
    COL("collprovider", RL_OID_CHAR),  COL("collisdeterministic", RL_OID_BOOL),
    COL("collencoding", RL_OID_INT4),  COL("collcollate", RL_OID_TEXT),
    COL("collctype", RL_OID_TEXT),     COL("colliculocale", RL_OID_TEXT),
    COL("collversion", RL_OID_TEXT)};

/* Relations a lake has no rows in: no publications, row-level security
 * policies, extended statistics, rewrite rules or subscriptions
 * (PostgreSQL's own views' rules are not listed, as pg_index lists none of
 * its own indexes). */
static const vcol publication_cols[] = {
    COL("oid", RL_OID_OID),          COL("pubname", RL_OID_NAME),
    COL("pubowner", RL_OID_OID),     COL("puballtables", RL_OID_BOOL),
    COL("pubinsert", RL_OID_BOOL),   COL("pubupdate", RL_OID_BOOL),
    COL("pubdelete", RL_OID_BOOL),   COL("pubtruncate", RL_OID_BOOL),
    COL("pubviaroot", RL_OID_BOOL)};

static const vcol publication_namespace_cols[] = {
    COL("oid", RL_OID_OID), COL("pnpubid", RL_OID_OID), COL("pnnspid", RL_OID_OID)};

static const vcol publication_rel_cols[] = {
    COL("oid", RL_OID_OID), COL("prpubid", RL_OID_OID), COL("prrelid", RL_OID_OID),
    COL("prqual", RL_OID_PG_NODE_TREE), COL("prattrs", RL_OID_INT2VECTOR)};

static const vcol policy_cols[] = {
    COL("oid", RL_OID_OID),             COL("polname", RL_OID_NAME),
    COL("polrelid", RL_OID_OID),        COL("polcmd", RL_OID_CHAR),
    COL("polpermissive", RL_OID_BOOL),  COL("polroles", OID_ARRAY_OID),
    COL("polqual", RL_OID_PG_NODE_TREE), COL("polwithcheck", RL_OID_PG_NODE_TREE)};

static const vcol statistic_ext_cols[] = {
    COL("oid", RL_OID_OID),            COL("stxrelid", RL_OID_OID),
    COL("stxname", RL_OID_NAME),       COL("stxnamespace", RL_OID_OID),
    COL("stxowner", RL_OID_OID),       COL("stxstattarget", RL_OID_INT4),
    COL("stxkeys", RL_OID_INT2VECTOR), COL("stxkind", CHAR_ARRAY_OID),
    COL("stxexprs", RL_OID_PG_NODE_TREE)};

/* (its columns only: \dRs lists no subscriptions) */
static const vcol subscription_cols[] = {
    COL("oid", RL_OID_OID),                 COL("subdbid", RL_OID_OID),
    COL("subskiplsn", PG_LSN_OID),          COL("subname", RL_OID_NAME),
    COL("subowner", RL_OID_OID),            COL("subenabled", RL_OID_BOOL),
    COL("subbinary", RL_OID_BOOL),          COL("substream", RL_OID_BOOL),
    COL("subtwophasestate", RL_OID_CHAR),   COL("subdisableonerr", RL_OID_BOOL),
    COL("subconninfo", RL_OID_TEXT),        COL("subslotname", RL_OID_NAME),
    COL("subsynccommit", RL_OID_TEXT),      COL("subpublications", TEXT_ARRAY_OID)};

static const vcol rewrite_cols[] = {
    COL("oid", RL_OID_OID),           COL("rulename", RL_OID_NAME),
    COL("ev_class", RL_OID_OID),      COL("ev_type", RL_OID_CHAR),
    COL("ev_enabled", RL_OID_CHAR),   COL("is_instead", RL_OID_BOOL),
    COL("ev_qual", RL_OID_PG_NODE_TREE), COL("ev_action", RL_OID_PG_NODE_TREE)};

static int gen_namespace(gen_ctx *g);
static int fixed_class(gen_ctx *g);
static int gen_class(gen_ctx *g);
static int fixed_attribute(gen_ctx *g);
static int gen_attribute(gen_ctx *g);
static int gen_attrdef(gen_ctx *g);
static int fixed_type(gen_ctx *g);
static int gen_type(gen_ctx *g);
static int fixed_constraint(gen_ctx *g);
static int gen_constraint(gen_ctx *g);
static int fixed_description(gen_ctx *g);
static int gen_description(gen_ctx *g);
static int fixed_indexes(gen_ctx *g);
static int gen_indexes(gen_ctx *g);
static int gen_settings(gen_ctx *g);
static int fixed_tables_view(gen_ctx *g);
static int gen_tables_view(gen_ctx *g);
static int gen_is_tables(gen_ctx *g);
static int gen_is_columns(gen_ctx *g);
static int gen_is_schemata(gen_ctx *g);
static int gen_is_table_constraints(gen_ctx *g);
static int gen_is_key_column_usage(gen_ctx *g);
static int gen_is_referential_constraints(gen_ctx *g);
static int gen_is_check_constraints(gen_ctx *g);
static int gen_is_views(gen_ctx *g);
static int gen_database(gen_ctx *g);
static int gen_roles(gen_ctx *g);
static int gen_stat_activity(gen_ctx *g);
static int gen_locks(gen_ctx *g);
static int gen_cursors(gen_ctx *g);
static int fixed_auth_members(gen_ctx *g);
static int gen_auth_members(gen_ctx *g);
static int fixed_am(gen_ctx *g);
static int fixed_proc(gen_ctx *g);
static int gen_index(gen_ctx *g);
static int gen_sequence(gen_ctx *g);
static int gen_sequences_view(gen_ctx *g);
static int gen_depend(gen_ctx *g);
static int gen_is_sequences(gen_ctx *g);
static int fixed_collation(gen_ctx *g);
static int fixed_opclass(gen_ctx *g);
static int fixed_operator(gen_ctx *g);
static int fixed_tablespace(gen_ctx *g);

/* A catalog captured whole (tools/gen_pg15_catalog.py's CAPTURED): its
 * rows' cells, row-major in its columns' order, pg15_str offsets
 * (PG15_NONE: NULL). */
typedef struct pg15_captured {
    const char *name;
    const uint32_t *cells;
    size_t nrows;
} pg15_captured;

static int fixed_captured(gen_ctx *g);

#include "sql/pg15_catalog.inc"

static const vrel vrels[] = {
    {"pg_catalog", "pg_namespace", namespace_cols, N(namespace_cols), NULL, gen_namespace,
     {-1, -1}, -1, false},
    {"pg_catalog", "pg_class", class_cols, N(class_cols), fixed_class, gen_class, {0, -1}, 1,
     false},
    {"pg_catalog", "pg_attribute", attribute_cols, N(attribute_cols), fixed_attribute,
     gen_attribute, {0, -1}, -1, false},
    {"pg_catalog", "pg_type", type_cols, N(type_cols), fixed_type, gen_type, {0, 11}, -1, false},
    {"pg_catalog", "pg_constraint", constraint_cols, N(constraint_cols), fixed_constraint,
     gen_constraint, {0, 7}, -1, false},
    {"pg_catalog", "pg_description", description_cols, N(description_cols), fixed_description,
     gen_description,
     {-1, -1}, -1, false},
    /* a fresh PostgreSQL 15 database has no enum types */
    {"pg_catalog", "pg_enum", enum_cols, N(enum_cols), NULL, NULL, {-1, -1}, -1, false},
    {"pg_catalog", "pg_indexes", indexes_cols, N(indexes_cols), fixed_indexes, gen_indexes,
     {-1, -1}, 1, false},
    {"pg_catalog", "pg_settings", settings_cols, N(settings_cols), NULL, gen_settings,
     {-1, -1}, -1, true},
    {"pg_catalog", "pg_tables", tables_view_cols, N(tables_view_cols), fixed_tables_view,
     gen_tables_view, {-1, -1}, 1, true},
    /* per query only: table_catalog is the engine's database name */
    {"information_schema", "columns", is_columns_cols, N(is_columns_cols), NULL, gen_is_columns,
     {-1, -1}, 2, true},
    {"information_schema", "schemata", is_schemata_cols, N(is_schemata_cols), NULL,
     gen_is_schemata, {-1, -1}, -1, true},
    {"information_schema", "tables", is_tables_cols, N(is_tables_cols), NULL, gen_is_tables,
     {-1, -1}, 2, true},
    {"information_schema", "table_constraints", is_table_constraints_cols,
     N(is_table_constraints_cols), NULL, gen_is_table_constraints, {-1, -1}, 5, true},
    {"information_schema", "check_constraints", is_check_constraints_cols,
     N(is_check_constraints_cols), NULL, gen_is_check_constraints, {-1, -1}, -1, true},
    {"information_schema", "key_column_usage", is_key_column_usage_cols,
     N(is_key_column_usage_cols), NULL, gen_is_key_column_usage, {-1, -1}, 5, true},
    /* no foreign keys: RockLake keeps none, and role lake sees none of the
     * system catalogs' */
    {"information_schema", "referential_constraints", is_referential_constraints_cols,
     N(is_referential_constraints_cols), NULL, gen_is_referential_constraints, {-1, -1}, -1,
     true},
    {"information_schema", "views", is_views_cols, N(is_views_cols), NULL, gen_is_views,
     {-1, -1}, -1, true},
    /* the one database the engine serves (per session: its name) */
    {"pg_catalog", "pg_database", database_cols, N(database_cols), NULL, gen_database,
     {-1, -1}, -1, true},
    /* the owner, the login roles and the predefined roles (gen_roles) */
    {"pg_catalog", "pg_roles", roles_cols, N(roles_cols), NULL, gen_roles, {-1, -1}, -1, true},
    /* the server's client backends, of every database (gen_stat_activity) */
    {"pg_catalog", "pg_stat_activity", stat_activity_cols, N(stat_activity_cols), NULL,
     gen_stat_activity, {-1, -1}, -1, true},
    /* the server's advisory locks, held and waited for (sql_advisory.c) */
    {"pg_catalog", "pg_locks", locks_cols, N(locks_cols), NULL, gen_locks, {-1, -1}, -1, true},
    /* the session's open cursors (sql_cursor.c) */
    {"pg_catalog", "pg_cursors", cursors_cols, N(cursors_cols), NULL, gen_cursors, {-1, -1}, -1,
     true},
    {"pg_catalog", "pg_auth_members", auth_members_cols, N(auth_members_cols),
     fixed_auth_members, gen_auth_members, {-1, -1}, -1, true},
    {"pg_catalog", "pg_am", am_cols, N(am_cols), fixed_am, NULL, {-1, -1}, -1, false},
    /* the built-in functions of sql_func.c's table */
    {"pg_catalog", "pg_proc", proc_cols, N(proc_cols), fixed_proc, NULL, {-1, -1}, -1, false},
    /* the lake's primary keys (PostgreSQL's own indexes are not listed) */
    {"pg_catalog", "pg_index", index_cols, N(index_cols), NULL, gen_index, {0, 1}, -1, false},
    /* no inheritance */
    {"pg_catalog", "pg_inherits", inherits_cols, N(inherits_cols), NULL, NULL, {-1, -1}, -1,
     false},
    /* the lake's column defaults (sql_default.c) */
    {"pg_catalog", "pg_attrdef", attrdef_cols, N(attrdef_cols), NULL, gen_attrdef, {-1, -1}, -1,
     false},
    /* the operators the engine evaluates, as generated (as pg_proc: the
     * functions it has) */
    {"pg_catalog", "pg_operator", operator_cols, N(operator_cols), fixed_operator, NULL,
     {-1, -1}, -1, false},
    {"pg_catalog", "pg_opclass", opclass_cols, N(opclass_cols), fixed_opclass, NULL, {-1, -1},
     -1, false},
    {"pg_catalog", "pg_tablespace", tablespace_cols, N(tablespace_cols), fixed_tablespace, NULL,
     {-1, -1}, -1, false},
    /* the lake's sequences (CREATE SEQUENCE), and the dependencies of
     * those OWNED BY a column (PostgreSQL's others are not listed) */
    {"pg_catalog", "pg_sequence", sequence_cols, N(sequence_cols), NULL, gen_sequence,
     {-1, -1}, -1, true},
    {"pg_catalog", "pg_sequences", sequences_view_cols, N(sequences_view_cols), NULL,
     gen_sequences_view, {-1, -1}, -1, true},
    {"pg_catalog", "pg_depend", depend_cols, N(depend_cols), NULL, gen_depend, {-1, -1}, -1,
     true},
    {"information_schema", "sequences", is_sequences_cols, N(is_sequences_cols), NULL,
     gen_is_sequences, {-1, -1}, -1, true},
    {"pg_catalog", "pg_publication", publication_cols, N(publication_cols), NULL, NULL, {-1, -1},
     -1, false},
    {"pg_catalog", "pg_publication_namespace", publication_namespace_cols,
     N(publication_namespace_cols), NULL, NULL, {-1, -1}, -1, false},
    {"pg_catalog", "pg_publication_rel", publication_rel_cols, N(publication_rel_cols), NULL,
     NULL, {-1, -1}, -1, false},
    {"pg_catalog", "pg_policy", policy_cols, N(policy_cols), NULL, NULL, {-1, -1}, -1, false},
    {"pg_catalog", "pg_statistic_ext", statistic_ext_cols, N(statistic_ext_cols), NULL, NULL,
     {-1, -1}, -1, false},
    {"pg_catalog", "pg_rewrite", rewrite_cols, N(rewrite_cols), NULL, NULL, {-1, -1}, -1, false},
    {"pg_catalog", "pg_subscription", subscription_cols, N(subscription_cols), NULL, NULL,
     {-1, -1}, -1, false},
    {"pg_catalog", "pg_collation", collation_cols, N(collation_cols), fixed_collation, NULL,
     {-1, -1}, -1, false},
    /* pg_extension, pg_language, pg_cast, pg_conversion, text search, ...
     * as a fresh PostgreSQL 15 database has them */
    PG15_CAPTURED_VRELS
};

/* ====================================================== PostgreSQL's rows */

static const char *pg15_s(uint32_t off) { return off == PG15_NONE ? NULL : pg15_str + off; }

/* bsearch's order of rows whose first member is their uint32_t oid. */
static int leading_oid_cmp(const void *key, const void *row)
{
    uint32_t a = *(const uint32_t *)key, b;
    memcpy(&b, row, sizeof b);
    return a < b ? -1 : a > b;
}

/* pg15_types is sorted by oid (the generator's ORDER BY). */
static const pg15_type *pg15_type_by_oid(uint32_t oid)
{
    return bsearch(&oid, pg15_types, PG15_TYPES_COUNT, sizeof pg15_types[0], leading_oid_cmp);
}

static const pg15_namespace *pg15_namespace_by_name(const char *schema)
{
    for (size_t i = 0; i < PG15_NAMESPACES_COUNT; i++)
        if (strcmp(pg15_s(pg15_namespaces[i].name), schema) == 0)
            return &pg15_namespaces[i];
    return NULL;
}

/* A relation of pg_catalog / information_schema, or NULL. */
static const pg15_class *pg15_class_by_name(const char *schema, const char *name)
{
    const pg15_namespace *ns = pg15_namespace_by_name(schema);
    /* a fresh database's public schema holds no relation: the lake's
     * tables, thousands of them, need not look through PostgreSQL's */
    if (!ns || ns->oid == PUBLIC_NAMESPACE_OID)
        return NULL;
    for (size_t i = 0; i < PG15_CLASSES_COUNT; i++)
        if (pg15_classes[i].nsoid == ns->oid && strcmp(pg15_s(pg15_classes[i].name), name) == 0)
            return &pg15_classes[i];
    return NULL;
}

/* ==================================================================== oids */

static uint32_t fnv1a32(const char *a, const char *sep, const char *b)
{
    uint32_t h = 2166136261u;
    for (const char *parts[3] = {a, sep, b}, **p = parts; p < parts + 3; p++)
        for (const unsigned char *c = (const unsigned char *)(*p ? *p : ""); *c; c++) {
            h ^= *c;
            h *= 16777619u;
        }
    return h;
}

uint32_t rl_pgcatalog_namespace_oid(const char *schema)
{
    const pg15_namespace *ns = pg15_namespace_by_name(schema);
    if (ns)
        return ns->oid;
    return 16384u + fnv1a32(schema, "", "") % 1000000u;
}

/* information_schema's yes_or_no columns are varchar(3): RowDescription
 * carries the domain's typmod 7; every other column none. */
static int32_t yes_no_typmod(const vrel *v, size_t i)
{
    static const char *const yes_no[] = {"is_nullable",        "is_self_referencing",
                                         "is_identity",        "identity_cycle",
                                         "is_updatable",       "is_insertable_into",
                                         "is_typed",           "is_deferrable",
                                         "initially_deferred", "enforced",
                                         "nulls_distinct",     "is_trigger_updatable",
                                         "is_trigger_deletable",
                                         "is_trigger_insertable_into", "cycle_option"};
    if (strcmp(v->schema, "information_schema") != 0)
        return -1;
    for (size_t k = 0; k < sizeof yes_no / sizeof yes_no[0]; k++)
        if (strcmp(v->cols[i].name, yes_no[k]) == 0)
            return 7;
    return -1;
}

/* PostgreSQL's oid for its own relations (the virtual ones included). */
uint32_t rl_pgcatalog_rel_oid(const char *schema, const char *name)
{
    const pg15_class *c = pg15_class_by_name(schema, name);
    if (c)
        return c->oid;
    return REL_OID_BASE + fnv1a32(schema, ".", name) % REL_OID_SPAN;
}

static uint32_t rowtype_oid(uint32_t rel_oid) { return rl_rowtype_oid(rel_oid); }
static uint32_t constraint_oid(uint32_t rel_oid) { return rel_oid + CONSTRAINT_OID_OFFSET; }
static uint32_t index_oid(uint32_t rel_oid) { return rel_oid + INDEX_OID_OFFSET; }
static uint32_t arraytype_oid(uint32_t rel_oid)
{
    return rl_rowtype_array_oid(rowtype_oid(rel_oid));
}

/* ============================================================== lookups */

int rl_pgcatalog_find(const char *schema, const char *name)
{
    if (!schema || !name)
        return -1;
    for (size_t i = 0; i < N(vrels); i++)
        if (strcmp(vrels[i].schema, schema) == 0 && strcmp(vrels[i].name, name) == 0)
            return (int)i;
    return -1;
}

const char *rl_pgcatalog_schema(int id)
{
    return id >= 0 && (size_t)id < N(vrels) ? vrels[id].schema : "pg_catalog";
}

/* pg_class.oid of each virtual relation, looked up once per process. */
static uint32_t vrel_oids[N(vrels)];
static pthread_once_t vrel_oids_once = PTHREAD_ONCE_INIT;

static void find_vrel_oids(void)
{
    for (size_t i = 0; i < N(vrels); i++)
        vrel_oids[i] = rl_pgcatalog_rel_oid(vrels[i].schema, vrels[i].name);
}

static uint32_t vrel_oid(int id)
{
    pthread_once(&vrel_oids_once, find_vrel_oids);
    return vrel_oids[id];
}

rl_rowset *rl_pgcatalog_columns(int id)
{
    if (id < 0 || (size_t)id >= N(vrels))
        return NULL;
    const vrel *v = &vrels[id];
    rl_rowset *rs = rl_rowset_new(v->ncols);
    if (!rs)
        return NULL;
    uint32_t table_oid = vrel_oid(id);
    for (size_t i = 0; i < v->ncols; i++) {
        rl_colmeta *c = &rs->cols[i];
        rl_str_copy(c->name, sizeof c->name, v->cols[i].name);
        rl_str_copy(c->rel, sizeof c->rel, v->name);
        c->oid = v->cols[i].oid;
        c->typmod = yes_no_typmod(v, i);
        c->table_oid = table_oid;
        c->attnum = (int16_t)(i + 1);
    }
    return rs;
}

/* ============================================================ generation */

/* One SQL-visible table as this transaction sees it; its indexes (CREATE
 * INDEX) are indexes[first_index .. first_index + nindexes) of its list. */
typedef struct table_ent {
    char schema[64], name[64];
    const rl_table_desc *d;
    rl_txn *txn; /* its lake's transaction, for the statement that listed it */
    uint32_t oid, nsoid;
    size_t ncols;
    size_t first_index, nindexes;
} table_ent;

/* One comment (COMMENT ON) of the lake: its text at texts.data + text. */
typedef struct comment_ent {
    char schema[64], rel[64], col[64];
    size_t text;
} comment_ent;

/* One index created by CREATE INDEX on a listed table (tables[table]). */
typedef struct index_ent {
    char schema[64], name[64];
    uint32_t oid;
    size_t table;
    rl_index_def def;
} index_ent;

/* Where generated rows go (rl_pgcatalog_fill): dst's column j takes the
 * generated column map[j], or the row's ctid (MAP_CTID); rows the scan's
 * filter drops are taken back at once. */
#define MAP_CTID SIZE_MAX
typedef struct pgc_sink {
    rl_exec *x;
    rl_rowset *dst;
    size_t *map;      /* dst->ncols entries */
    rl_value *out;    /* dst->ncols: the row being put */
    const rl_row_filter *filter; /* NULL: none */
    size_t offered;   /* rows put so far: the next one's ctid index */
} pgc_sink;

struct gen_ctx {
    rl_exec *x;      /* NULL while building the fixed rows */
    rl_error *err;
    rl_rowset *rs;   /* the fixed rows being built (sink NULL) */
    pgc_sink *sink;  /* a query's rows: where emit puts them */
    table_ent *tables;
    size_t ntables, cap;
    index_ent *indexes; /* by table, then name (index_ents_link) */
    size_t nindexes, capindexes;
    comment_ent *comments; /* every comment of the lakes, texts in `texts` */
    size_t ncomments, capcomments;
    rl_buf texts;
    size_t lake_first; /* the first of g->tables of the lake being collected */
    rl_value row[VREL_MAX_COLS];
    char chars[VREL_MAX_COLS]; /* storage of "char" values of the row being built */
    rl_txn *txn;    /* transaction of the lake whose tables are being collected */
    const rl_scan_keys *keys; /* rows outside them may be left out; NULL: none */
    bool borrowed;  /* tables belongs to the session's list (load_tables) */
    int id;         /* the relation being generated */
    const rl_keyset *names; /* collect_named: the table names looked up */
    rl_txn *fk_none; /* a lake's transaction seen to have no FOREIGN KEY (has_fkeys) */
};

static int collect_table(void *ctx, const char *schema, const char *name,
                         const rl_table_desc *d)
{
    gen_ctx *g = ctx;
    if (d->internal)
        return 0;
    table_ent *grown = rl_array_reserve(g->tables, g->ntables, &g->cap, sizeof *grown, 64);
    if (!grown)
        return -1;
    g->tables = grown;
    table_ent *t = &g->tables[g->ntables++];
    rl_str_copy(t->schema, sizeof t->schema, schema);
    rl_str_copy(t->name, sizeof t->name, name);
    t->d = d;
    t->txn = g->txn;
    t->oid = rl_pgcatalog_rel_oid(schema, name);
    t->nsoid = rl_pgcatalog_namespace_oid(schema);
    t->ncols = rl_txn_table_ncols(g->txn, d);
    t->first_index = t->nindexes = 0;
    return 0;
}

/* This lake's listed table schema.name: its place in g->tables, or -1. */
static long lake_table_at(const gen_ctx *g, const char *schema, const char *name)
{
    for (size_t i = g->lake_first; i < g->ntables; i++)
        if (strcmp(g->tables[i].name, name) == 0 && strcmp(g->tables[i].schema, schema) == 0)
            return (long)i;
    return -1;
}

static bool names_hold(const rl_keyset *names, const char *s)
{
    for (size_t i = 0; names && i < names->n; i++)
        if (names->vals[i].d.v.s.len == strlen(s) &&
            memcmp(names->vals[i].d.v.s.p, s, names->vals[i].d.v.s.len) == 0)
            return true;
    return false;
}

/* An index of this lake (rl_index_visitor): kept when its table is listed;
 * a statement about some names lists the table of an index it names. Its
 * table's place is set by index_ents_link once every lake is collected. */
static int collect_index(void *ctx, const char *schema, const char *name, const rl_index_def *d)
{
    gen_ctx *g = ctx;
    long at = lake_table_at(g, schema, d->table);
    if (at < 0 && g->names && names_hold(g->names, name)) {
        rl_error probe;
        memset(&probe, 0, sizeof probe);
        const rl_table_desc *td = rl_txn_find_table(g->txn, schema, d->table, &probe);
        if (td && collect_table(g, schema, d->table, td) < 0)
            return -1;
        at = td ? (long)g->ntables - 1 : -1;
    }
    if (at < 0)
        return 0;
    index_ent *grown =
        rl_array_reserve(g->indexes, g->nindexes, &g->capindexes, sizeof *grown, 4);
    if (!grown)
        return -1;
    g->indexes = grown;
    index_ent *e = &g->indexes[g->nindexes++];
    rl_str_copy(e->schema, sizeof e->schema, schema);
    rl_str_copy(e->name, sizeof e->name, name);
    e->oid = rl_pgcatalog_rel_oid(schema, name);
    e->table = 0;
    e->def = *d;
    return 0;
}

/* A comment of this lake (rl_comment_visitor): every one is kept (a lake
 * has few); gen_description shows those whose object is listed. */
static int collect_comment(void *ctx, const char *schema, const char *rel, const char *col,
                           const char *text)
{
    gen_ctx *g = ctx;
    comment_ent *grown =
        rl_array_reserve(g->comments, g->ncomments, &g->capcomments, sizeof *grown, 8);
    if (!grown)
        return -1;
    g->comments = grown;
    if (!g->texts.limit) /* the first comment: g was zeroed */
        rl_buf_init(&g->texts, 0);
    comment_ent *e = &g->comments[g->ncomments++];
    rl_str_copy(e->schema, sizeof e->schema, schema);
    rl_str_copy(e->rel, sizeof e->rel, rel);
    rl_str_copy(e->col, sizeof e->col, col);
    e->text = g->texts.len;
    rl_buf_put_str(&g->texts, text);
    rl_buf_put_u8(&g->texts, 0);
    return g->texts.failed ? -1 : 0;
}

/* This lake's indexes and comments, after its tables. */
static int collect_dependents(gen_ctx *g, rl_txn *t)
{
    int rc = rl_txn_list_indexes(t, collect_index, g, g->err);
    return rc == 0 ? rl_txn_list_comments(t, NULL, NULL, collect_comment, g, g->err) : rc;
}

static int collect_lake_tables(void *ctx, rl_txn *t, rl_format fmt)
{
    gen_ctx *g = ctx;
    (void)fmt;
    g->txn = t;
    g->lake_first = g->ntables;
    int rc = rl_txn_list_tables(t, collect_table, g, g->err);
    return rc == 0 ? collect_dependents(g, t) : rc;
}

/* A session's list of the tables its current statement sees: a discovery
 * query reads pg_class, pg_attribute, pg_type and pg_constraint, and each
 * would list the catalog's tables again. Valid for one execution (x->id):
 * nothing changes the tables a SELECT sees while it runs. */
struct rl_pgc_tables {
    uint64_t exec;
    table_ent *tables;
    size_t n;
    index_ent *indexes;
    size_t nindexes;
    comment_ent *comments;
    size_t ncomments;
    rl_buf texts;
    bool complete; /* every table; else only those of some names */
    /* !complete: the names looked up, found or not (a name that is no
     * table has no rows, and a partial list knows that as well) */
    char (*looked)[64];
    size_t nlooked;
    /* lists this execution replaced: a generation of it may still borrow
     * one (a scan of pg_class whose filter calls pg_table_is_visible lists
     * the tables again), so they are freed only when another execution
     * replaces the list */
    struct rl_pgc_tables *retired;
};

/* A key set of the relation's table-name column with few names, or NULL. */
static const rl_keyset *name_keys(const gen_ctx *g)
{
    int col = vrels[g->id].name_col;
    for (size_t i = 0; col >= 0 && g->keys && i < g->keys->n; i++) {
        const rl_keyset *k = &g->keys->sets[i];
        if ((int)k->col == col && k->string && k->n <= 64)
            return k;
    }
    return NULL;
}

static bool list_has_name(const struct rl_pgc_tables *c, const rl_value *v)
{
    for (size_t i = 0; i < c->nlooked; i++)
        if (strlen(c->looked[i]) == v->d.v.s.len &&
            memcmp(c->looked[i], v->d.v.s.p, v->d.v.s.len) == 0)
            return true;
    return false;
}

static bool list_has_oid(const struct rl_pgc_tables *c, int64_t v)
{
    for (size_t i = 0; i < c->n; i++) {
        int64_t o = c->tables[i].oid;
        if (v == o || v == (int64_t)rowtype_oid((uint32_t)o) ||
            v == (int64_t)constraint_oid((uint32_t)o) || v == (int64_t)index_oid((uint32_t)o))
            return true;
    }
    for (size_t i = 0; i < c->nindexes; i++)
        if (v == (int64_t)c->indexes[i].oid)
            return true;
    return false;
}

/* Can a partial list serve this relation? Yes when one of its key sets
 * pins rows to tables the list has: names on its name column, or oids on
 * an oid column (oids below the lake's range are PostgreSQL's own objects,
 * whose rows are fixed ones, never generated). */
static bool partial_serves(const gen_ctx *g, const struct rl_pgc_tables *c)
{
    const vrel *v = &vrels[g->id];
    for (size_t i = 0; g->keys && i < g->keys->n; i++) {
        const rl_keyset *k = &g->keys->sets[i];
        bool ok = false;
        if (k->string && (int)k->col == v->name_col) {
            ok = true;
            for (size_t j = 0; ok && j < k->n; j++)
                ok = list_has_name(c, &k->vals[j]);
        } else if (!k->string && ((int)k->col == v->oid_cols[0] || (int)k->col == v->oid_cols[1])) {
            ok = k->n <= 256;
            for (size_t j = 0; ok && j < k->n; j++)
                ok = k->vals[j].d.v.i < (int64_t)REL_OID_BASE || list_has_oid(c, k->vals[j].d.v.i);
        }
        if (ok)
            return true;
    }
    return false;
}

/* A list of distinct schema names (rl_schema_visitor ctx). */
typedef struct schema_list {
    char (*names)[64];
    size_t n, cap;
    rl_error *err;
} schema_list;

static int schema_add(void *ctx, const char *schema)
{
    schema_list *l = ctx;
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->names[i], schema) == 0)
            return 0;
    char(*grown)[64] = rl_array_reserve(l->names, l->n, &l->cap, sizeof *grown, 8);
    if (!grown)
        return -1;
    l->names = grown;
    rl_str_copy(l->names[l->n++], 64, schema);
    return 0;
}

static int cmp_table_ent(const void *a, const void *b)
{
    const table_ent *x = a, *y = b;
    int c = strcmp(x->schema, y->schema);
    return c ? c : strcmp(x->name, y->name);
}

/* One lake's tables named in g->names, in any of its schemas, in the
 * (schema, name) order of a full listing: point lookups, not a walk of the
 * catalog's name index (a 10,000-table lake answers a relname query as
 * fast as a 10-table one). */
static int collect_named(void *ctx, rl_txn *t, rl_format fmt)
{
    gen_ctx *g = ctx;
    (void)fmt;
    g->txn = t;
    g->lake_first = g->ntables;
    schema_list sl = {0};
    int rc = schema_add(&sl, "public");
    if (rc == 0)
        rc = rl_txn_list_schemas(t, schema_add, &sl, g->err);
    size_t first = g->ntables;
    for (size_t i = 0; rc == 0 && i < sl.n; i++) {
        for (size_t j = 0; rc == 0 && j < g->names->n; j++) {
            const rl_value *v = &g->names->vals[j];
            char name[64];
            if (v->d.v.s.len >= sizeof name)
                continue; /* no table has a longer name */
            memcpy(name, v->d.v.s.p, v->d.v.s.len);
            name[v->d.v.s.len] = '\0';
            rl_error probe;
            memset(&probe, 0, sizeof probe);
            const rl_table_desc *d = rl_txn_find_table(t, sl.names[i], name, &probe);
            if (d)
                rc = collect_table(g, sl.names[i], name, d);
            else if (strcmp(probe.sqlstate, RL_SQLSTATE_UNDEFINED_TABLE) != 0) {
                if (g->err)
                    *g->err = probe;
                rc = -1;
            }
        }
    }
    free(sl.names);
    if (rc == 0)
        rc = collect_dependents(g, t);
    if (rc == 0 && g->ntables - first > 1)
        qsort(g->tables + first, g->ntables - first, sizeof *g->tables, cmp_table_ent);
    return rc;
}

static int cmp_index_ent(const void *a, const void *b)
{
    const index_ent *x = a, *y = b;
    return x->table != y->table ? (x->table < y->table ? -1 : 1) : strcmp(x->name, y->name);
}

/* Give each index its table's place and each table its run of indexes
 * (indexes sorted by table, then name). Every index's table is listed
 * (collect_index keeps no other). */
static void index_ents_link(gen_ctx *g)
{
    for (size_t i = 0; i < g->nindexes; i++) {
        index_ent *e = &g->indexes[i];
        for (size_t t = 0; t < g->ntables; t++)
            if (strcmp(g->tables[t].name, e->def.table) == 0 &&
                strcmp(g->tables[t].schema, e->schema) == 0) {
                e->table = t;
                break;
            }
    }
    if (g->nindexes > 1)
        qsort(g->indexes, g->nindexes, sizeof *g->indexes, cmp_index_ent);
    for (size_t i = 0; i < g->nindexes; i++) {
        table_ent *t = &g->tables[g->indexes[i].table];
        if (t->nindexes++ == 0)
            t->first_index = i;
    }
}

static int load_listing(gen_ctx *g, rl_exec *x, const char *relation);

/* Free what load_tables collected unless it is the session's list. */
static void gen_release(gen_ctx *g)
{
    if (g->borrowed)
        return;
    free(g->tables);
    free(g->indexes);
    free(g->comments);
    rl_buf_free(&g->texts);
}

void rl_pgcatalog_cache_free(struct rl_pgc_tables *c)
{
    while (c) {
        struct rl_pgc_tables *next = c->retired;
        free(c->tables);
        free(c->indexes);
        free(c->comments);
        rl_buf_free(&c->texts);
        free(c->looked);
        free(c);
        c = next;
    }
}

/* Let go of c's lists before new ones replace them: kept among the
 * retired ones while this execution may borrow them, freed (with those
 * retired before) otherwise. false: out of memory, nothing changed. */
static bool pgc_retire(struct rl_pgc_tables *c, uint64_t exec)
{
    if (c->exec != exec) {
        rl_pgcatalog_cache_free(c->retired);
        c->retired = NULL;
        free(c->tables);
        free(c->indexes);
        free(c->comments);
        rl_buf_free(&c->texts);
        return true;
    }
    struct rl_pgc_tables *old = malloc(sizeof *old);
    if (!old)
        return false;
    *old = *c; /* its lists, and those retired before */
    old->looked = NULL; /* c keeps (and replaces) its names */
    c->retired = old;
    return true;
}

/* Keep the names a partial list was made for (list_has_name). Out of
 * memory, the list is kept as if it named nothing (it then serves no
 * other relation). */
static void keep_looked(struct rl_pgc_tables *c, const rl_keyset *names)
{
    free(c->looked);
    c->looked = NULL;
    c->nlooked = 0;
    if (!names || names->n == 0 || !(c->looked = calloc(names->n, sizeof *c->looked)))
        return;
    for (size_t i = 0; i < names->n; i++) {
        const rl_value *v = &names->vals[i];
        if (v->d.v.s.len >= sizeof c->looked[0])
            continue; /* no table has a longer name: collect_named skipped it */
        memcpy(c->looked[c->nlooked], v->d.v.s.p, v->d.v.s.len);
        c->looked[c->nlooked++][v->d.v.s.len] = '\0';
    }
}

/* The tables of every lake of the database (further DuckLake metadata
 * schemas live in stores of their own, sql_lakes.c), this statement's
 * first. g->tables is then borrowed from the session's list. */
static int load_tables(gen_ctx *g)
{
    rl_session *s = g->x->s;
    if (!g->x->id)
        g->x->id = ++s->exec_seq;
    struct rl_pgc_tables *c = s->pgc_tables;
    bool current = c && c->exec == g->x->id;
    if (current && (c->complete || partial_serves(g, c))) {
        g->tables = c->tables;
        g->ntables = c->n;
        g->indexes = c->indexes;
        g->nindexes = c->nindexes;
        g->comments = c->comments;
        g->ncomments = c->ncomments;
        g->texts = c->texts;
        g->borrowed = true;
        return 0;
    }
    rl_txn *t = rl_exec_txn(g->x);
    if (!t)
        return -1;
    /* the statement's first look at the tables may name them */
    g->names = current ? NULL : name_keys(g);
    int (*collect)(void *, rl_txn *, rl_format) = g->names ? collect_named : collect_lake_tables;
    int rc = collect(g, t, rl_txn_format(t));
    if (rc == 0)
        rc = rl_lakes_each_other(g->x, collect, g);
    if (rc != 0) {
        if (g->err && !g->err->sqlstate[0])
            rl_exec_error(g->x, RL_SQLSTATE_INTERNAL_ERROR, -1, "out of memory");
        return -1;
    }
    index_ents_link(g);
    if (!c && !(c = s->pgc_tables = calloc(1, sizeof *c)))
        return 0; /* no list kept: g->tables stays g's own */
    if (!pgc_retire(c, g->x->id))
        return 0; /* the same */
    c->exec = g->x->id;
    c->tables = g->tables;
    c->n = g->ntables;
    c->indexes = g->indexes;
    c->nindexes = g->nindexes;
    c->comments = g->comments;
    c->ncomments = g->ncomments;
    c->texts = g->texts;
    c->complete = g->names == NULL;
    keep_looked(c, g->names);
    g->borrowed = true;
    return 0;
}

/* Value constructors for the row being built: g->row[i]. */
static void put_null(gen_ctx *g, size_t i)
{
    memset(&g->row[i], 0, sizeof g->row[i]);
    g->row[i].oid = vrels[g->id].cols[i].oid;
    g->row[i].typmod = -1;
    g->row[i].d.isnull = true;
}

static void put_int(gen_ctx *g, size_t i, int64_t v)
{
    put_null(g, i);
    g->row[i].d.isnull = false;
    g->row[i].d.v.i = v;
}

static void put_bool(gen_ctx *g, size_t i, bool b)
{
    put_null(g, i);
    g->row[i].d.isnull = false;
    g->row[i].d.v.b = b;
}

static void put_float(gen_ctx *g, size_t i, double f)
{
    put_null(g, i);
    g->row[i].d.isnull = false;
    g->row[i].d.v.f = f;
}

/* name, text, varchar, int2[] (as text) and "char": bytes are copied into
 * the row set's arena by rl_rowset_add, so `s` may be temporary. */
static void put_str(gen_ctx *g, size_t i, const char *s)
{
    put_null(g, i);
    g->row[i].d.isnull = false;
    g->row[i].d.v.s.p = (const uint8_t *)s;
    g->row[i].d.v.s.len = strlen(s);
}

/* A "char" value; '\0' is the empty string, as PostgreSQL prints it. */
static void put_char(gen_ctx *g, size_t i, char c)
{
    g->chars[i] = c;
    put_str(g, i, "");
    g->row[i].d.v.s.p = (const uint8_t *)&g->chars[i];
    g->row[i].d.v.s.len = c ? 1 : 0;
}

/* Put one generated row (all the relation's columns) into the sink's row
 * set: its columns as the map says, strings copied unless `borrowed` (the
 * fixed rows' strings live as long as the process); then the filter. */
static int sink_put(pgc_sink *k, const rl_value *row, bool borrowed)
{
    rl_rowset *dst = k->dst;
    for (size_t j = 0; j < dst->ncols; j++)
        k->out[j] = k->map[j] == MAP_CTID ? rl_row_index_ctid(k->offered) : row[k->map[j]];
    k->offered++;
    int rc = borrowed ? rl_rowset_add_ref(dst, k->out, k->x->err)
                      : rl_rowset_add(dst, k->out, NULL, k->x->err);
    if (rc < 0 || !k->filter)
        return rc;
    int keep = k->filter->keep(k->filter->ctx, dst, dst->nrows - 1);
    if (keep < 0)
        return -1;
    if (keep == 0)
        dst->nrows--; /* its copied strings stay in the arena until dst goes */
    return 0;
}

/* Columns first.. of the row from n strings, NULL as SQL NULL. */
static void put_strs(gen_ctx *g, size_t first, const char *const *vals, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (vals[i])
            put_str(g, first + i, vals[i]);
        else
            put_null(g, first + i);
    }
}

/* Add the row being built, unless the scan's key sets rule it out. */
static int emit(gen_ctx *g)
{
    if (!rl_scan_keys_admit(g->keys, g->row))
        return 0;
    if (g->sink)
        return sink_put(g->sink, g->row, false);
    return rl_rowset_add(g->rs, g->row, NULL, g->err);
}

/* The session's temporary tables (their section below gen_index). */
static bool temp_ns_exists(const rl_exec *x);
static void temp_ns_name(const rl_exec *x, bool toast, char *buf, size_t n);
static int temp_ns_by_oid(const rl_exec *x, uint32_t oid, char *buf, size_t n);
static bool is_temp_ns(const rl_exec *x, const char *schema);
static bool temp_hides(const rl_exec *x, const char *name);
static uint32_t temp_oid(const char *name);
static int each_temp(gen_ctx *g,
                     int (*rows)(gen_ctx *g, const rl_temp_table *tt, const table_ent *t));
static int temp_namespace_rows(gen_ctx *g);
static int temp_class_rows(gen_ctx *g, const rl_temp_table *tt, const table_ent *t);
static int temp_attribute_rows(gen_ctx *g, const rl_temp_table *tt, const table_ent *t);
static int temp_attrdef_rows(gen_ctx *g, const rl_temp_table *tt, const table_ent *t);
static int temp_default_expr(rl_exec *x, uint32_t relid, const char *plain, bool pretty,
                             const char **out);
static int temp_constraint_rows(gen_ctx *g, const rl_temp_table *tt, const table_ent *t);
static int temp_index_rows(gen_ctx *g, const rl_temp_table *tt, const table_ent *t);
static int temp_type_rows(gen_ctx *g, const rl_temp_table *tt, const table_ent *t);
static int temp_is_table_row(gen_ctx *g, const rl_temp_table *tt, const table_ent *t);
static int temp_is_column_rows(gen_ctx *g, const rl_temp_table *tt, const table_ent *t);
static int temp_is_table_constraint_rows(gen_ctx *g, const rl_temp_table *tt,
                                         const table_ent *t);
static int temp_is_key_column_rows(gen_ctx *g, const rl_temp_table *tt, const table_ent *t);
static int temp_is_check_rows(gen_ctx *g, const rl_temp_table *tt, const table_ent *t);
static int find_temp(rl_exec *x, uint32_t oid, bool constraint, table_ent *t,
                     const rl_temp_table **tt, const rl_temp_key **key);
static int temp_constraintdef(rl_exec *x, uint32_t oid, bool pretty, char *buf, size_t n);
static int temp_indexdef(rl_exec *x, uint32_t oid, int col, bool pretty, char *buf, size_t n);
static void key_constraint_def(const index_ent *e, char *buf, size_t n);
typedef struct seq_ent seq_ent;
static int temp_depend_row(gen_ctx *g, const seq_ent *e);
static bool temp_identity_seq(const rl_exec *x, const seq_ent *e);

/* ------------------------------------------------------------ namespaces */

/* The lake's schemas that PostgreSQL's own rows do not list already. */
static int ns_add(void *ctx, const char *schema)
{
    if (pg15_namespace_by_name(schema))
        return 0; /* listed from PostgreSQL's rows */
    return schema_add(ctx, schema);
}

static int lake_schemas(void *ctx, rl_txn *t, rl_format fmt)
{
    (void)fmt;
    schema_list *l = ctx;
    return rl_txn_list_schemas(t, ns_add, l, l->err);
}

static int cmp_ns(const void *a, const void *b)
{
    uint32_t x = rl_pgcatalog_namespace_oid(a), y = rl_pgcatalog_namespace_oid(b);
    return x < y ? -1 : x > y;
}

/* The schemas of every lake of the database that PostgreSQL's own rows do
 * not list, in oid order, into l (free l->names). 0, or -1 with l->err set
 * when the catalog says why (else out of memory). */
static int created_schemas(rl_exec *x, schema_list *l)
{
    rl_txn *t = rl_exec_txn(x);
    if (!t || rl_txn_list_schemas(t, ns_add, l, l->err) != 0 ||
        rl_lakes_each_other(x, lake_schemas, l) != 0)
        return -1;
    if (l->n > 1) /* qsort(NULL, 0) is undefined */
        qsort(l->names, l->n, sizeof *l->names, cmp_ns);
    return 0;
}

/* A schema's row. nspacl: public's grants as a fresh PostgreSQL 15
 * database has them (its owner pg_database_owner: USAGE and CREATE; PUBLIC:
 * USAGE), which psql's \dn+ shows; NULL (the default) for the others: a
 * created schema's, and pg_catalog's and information_schema's, whose
 * grants name the bootstrap superuser, a name that differs by session
 * here (the rows stay the same for every session). */
static int emit_namespace(gen_ctx *g, uint32_t oid, const char *name, uint32_t owner)
{
    put_int(g, 0, oid);
    put_str(g, 1, name);
    put_int(g, 2, owner);
    if (oid == PUBLIC_NAMESPACE_OID)
        put_str(g, 3, "{pg_database_owner=UC/pg_database_owner,=U/pg_database_owner}");
    else
        put_null(g, 3);
    return emit(g);
}

/* In oid order, as PostgreSQL's heap has them: the fresh database's
 * namespaces (oids < 16384), then created ones (pseudo-oids >= 16384). */
static int gen_namespace(gen_ctx *g)
{
    for (size_t i = 0; i < PG15_NAMESPACES_COUNT; i++) {
        const pg15_namespace *n = &pg15_namespaces[i];
        if (emit_namespace(g, n->oid, pg15_s(n->name), n->owner) < 0)
            return -1;
    }
    schema_list l = {.err = g->err};
    int rc = created_schemas(g->x, &l) < 0 ? -2 : 0;
    for (size_t i = 0; i < l.n && rc == 0; i++)
        rc = emit_namespace(g, rl_pgcatalog_namespace_oid(l.names[i]), l.names[i], OWNER_OID);
    free(l.names);
    if (rc == 0)
        rc = temp_namespace_rows(g) < 0 ? -1 : 0;
    if (rc == -2 && g->err && !g->err->sqlstate[0])
        rl_exec_error(g->x, RL_SQLSTATE_INTERNAL_ERROR, -1, "out of memory");
    return rc < 0 ? -1 : 0;
}

/* ------------------------------------------------------------- pg_class */

static bool has_pk(const table_ent *t) { return t->d->pk_check != RL_PK_NONE && t->d->pk_col >= 0; }

/* The indexes CREATE INDEX made on t, in name order. */
static const index_ent *indexes_of(const gen_ctx *g, const table_ent *t)
{
    return t->nindexes ? &g->indexes[t->first_index] : NULL;
}

/* The table column (0-based) an index's key or INCLUDE column `i` is, -2
 * for an expression (attnum 0), or -1 (a column the table no longer has:
 * not listed). */
static int index_column(const table_ent *t, const index_ent *e, size_t i)
{
    if (i < e->def.ncols && (e->def.opts[i] & RL_INDEX_COL_EXPR))
        return -2;
    for (size_t c = 0; c < t->ncols; c++)
        if (strcmp(t->d->cols[c].name, e->def.cols[i]) == 0)
            return (int)c;
    return -1;
}

static uint32_t index_am(const index_ent *e)
{
    static const uint32_t am[] = {BTREE_AM_OID, HASH_AM_OID, BRIN_AM_OID, SPGIST_AM_OID};
    return am[e->def.method];
}

/* The rows `rows` makes for each lake table the query is about (see
 * load_tables): 0, or -1 at the first failure. */
static int each_table(gen_ctx *g, int (*rows)(gen_ctx *g, const table_ent *t))
{
    if (load_tables(g) < 0)
        return -1;
    for (size_t i = 0; i < g->ntables; i++)
        if (rows(g, &g->tables[i]) < 0)
            return -1;
    return 0;
}

/* The integer a column takes: the field at `at` (F_U32, F_I16, F_I32) or
 * the constant (F_INT). */
static int64_t field_int(const vfield *f, const char *at)
{
    switch (f->kind) {
    case F_U32:
        return *(const uint32_t *)at;
    case F_I16:
        return *(const int16_t *)at;
    case F_I32:
        return *(const int32_t *)at;
    default:
        return f->k;
    }
}

/* A row of relation cols[0..n-1] from row struct `rec` as the columns'
 * vfields say (string argument i from strs[i], NULL as SQL NULL; a
 * F_CALLER column is left as the caller put it), and the row emitted. */
static int emit_row(gen_ctx *g, const vcol *cols, size_t n, const void *rec,
                    const char *const *strs)
{
    for (size_t i = 0; i < n; i++) {
        const vfield *f = &cols[i].from;
        const char *at = (const char *)rec + f->off;
        if (f->kind == F_CALLER)
            continue;
        if (f->kind == F_NULL)
            put_null(g, i);
        else if (f->kind == F_STR)
            put_strs(g, i, &strs[f->off], 1);
        else if (f->kind == F_PG15STR) {
            const char *v = pg15_s(*(const uint32_t *)at);
            put_strs(g, i, &v, 1);
        }
        else if (f->kind == F_BOOL || f->kind == F_FALSE)
            put_bool(g, i, f->kind == F_BOOL && *(const bool *)at);
        else if (f->kind == F_CHAR)
            put_char(g, i, *at);
        else if (f->kind == F_KCHAR)
            put_char(g, i, (char)f->k);
        else if (f->kind == F_FLOAT)
            put_float(g, i, f->k);
        else if (f->kind == F_RELPAGES || f->kind == F_RELTUPLES) {
            const pg15_class *c = rec;
            bool lake_index = c->relkind == 'i' && c->oid >= 16384;
            if (f->kind == F_RELPAGES)
                put_int(g, i, lake_index);
            else
                put_float(g, i, lake_index ? 0 : -1);
        }
        else
            put_int(g, i, field_int(f, at));
    }
    return emit(g);
}

/* PostgreSQL's own rows of a relation: each of the n row structs at
 * `rows` (`size` bytes apart, their name a pg15_str offset at name_off)
 * emitted by emit_row. */
static int emit_fixed(gen_ctx *g, const vcol *cols, size_t ncols, const void *rows, size_t n,
                      size_t size, size_t name_off)
{
    const char *p = rows;
    for (size_t i = 0; i < n; i++, p += size) {
        const char *name = pg15_s(*(const uint32_t *)(p + name_off));
        if (emit_row(g, cols, ncols, p, &name) < 0)
            return -1;
    }
    return 0;
}

/* emit_fixed over the n row structs of type T at `rows`. */
#define EMIT_FIXED(g, cols, T, rows, n)                                                           \
    emit_fixed((g), (cols), N(cols), (rows), (n), sizeof(T), offsetof(T, name))

/* relpages 0 and reltuples -1 ("never analyzed") for every relation (see
 * RELPAGES), so clients never plan ctid-range scans. */
static int fixed_class(gen_ctx *g)
{
    return EMIT_FIXED(g, class_cols, pg15_class, pg15_classes, PG15_CLASSES_COUNT);
}

/* How many CHECK constraints table t has (pg_class.relchecks: psql's \d
 * asks for them only when it is not 0); -1 error. */
static int table_checks(gen_ctx *g, const table_ent *t)
{
    rl_txn *txn = g->x ? rl_exec_txn(g->x) : NULL;
    const rl_check_con *c;
    size_t n;
    if (!txn)
        return 0;
    if (rl_txn_checks(txn, &c, &n, NULL, g->x->err) < 0)
        return -1;
    int k = 0;
    for (size_t i = 0; i < n; i++)
        k += !strcmp(c[i].def.table, t->name) && !strcmp(c[i].schema, t->schema);
    return k;
}

/* A lake table is an ordinary, permanent heap relation owned by the
 * bootstrap superuser, with its composite row type. */
/* What a search for a table's FOREIGN KEYs, either side, is after. */
typedef struct fkey_any {
    const table_ent *t;
    bool hit;
} fkey_any;

static int fkey_touches(void *ctx, const char *schema, const char *table, const char *name,
                        const rl_fkey_def *d)
{
    fkey_any *a = ctx;
    (void)name;
    if (strcmp(schema, a->t->schema) == 0 && strcmp(table, a->t->name) == 0)
        return a->hit = true;
    char rs[RL_INDEX_NAME_MAX], rn[RL_INDEX_NAME_MAX];
    rl_index_def *ref = malloc(sizeof *ref);
    rl_error probe;
    memset(&probe, 0, sizeof probe);
    if (ref && rl_txn_unique_index_by_id(a->t->txn, d->ref_index_id, rs, rn, ref, &probe) == 1 &&
        strcmp(rs, a->t->schema) == 0 && strcmp(ref->table, a->t->name) == 0)
        a->hit = true;
    free(ref);
    return a->hit;
}

/* relhastriggers: PostgreSQL's FOREIGN KEYs are triggers on both tables
 * (psql shows a table's foreign keys and "Referenced by" only then). */
static int any_fkey(void *ctx, const char *schema, const char *table, const char *name,
                    const rl_fkey_def *d)
{
    (void)schema, (void)table, (void)name, (void)d;
    return *(bool *)ctx = true;
}

/* A lake with no FOREIGN KEY (the usual one) is found so once per
 * listing, not once per table. */
static bool has_fkeys(gen_ctx *g, const table_ent *t)
{
    if (!t->txn || t->txn == g->fk_none)
        return false;
    rl_error probe;
    memset(&probe, 0, sizeof probe);
    bool any = false;
    rl_txn_list_fkeys(t->txn, NULL, NULL, any_fkey, &any, &probe);
    if (!any) {
        g->fk_none = t->txn;
        return false;
    }
    fkey_any a = {t, false};
    rl_txn_list_fkeys(t->txn, NULL, NULL, fkey_touches, &a, &probe);
    return a.hit;
}

static int class_row(gen_ctx *g, const table_ent *t)
{
    int checks = table_checks(g, t);
    if (checks < 0)
        return -1;
    const pg15_class c = {
        .relchecks = (int16_t)checks,
        .oid = t->oid, .nsoid = t->nsoid, .reltype = rowtype_oid(t->oid),
        .relowner = OWNER_OID, .relam = HEAP_AM_OID, .relfilenode = t->oid,
        .relhasindex = has_pk(t) || t->nindexes, .relhastriggers = has_fkeys(g, t),
        .relpersistence = 'p', .relkind = 'r',
        .relnatts = (int16_t)t->ncols, /* <= RL_MAX_COLUMNS */
        .relispopulated = true, .relreplident = 'd'};
    const char *name = t->name;
    if (emit_row(g, class_cols, N(class_cols), &c, &name) < 0)
        return -1;
    const index_ent *ix = indexes_of(g, t);
    for (size_t k = 0; k < t->nindexes; k++) {
        const pg15_class i = {
            .oid = ix[k].oid, .nsoid = t->nsoid, .relowner = OWNER_OID, .relam = index_am(&ix[k]),
            .relfilenode = ix[k].oid, .relpersistence = 'p', .relkind = 'i',
            .relnatts = (int16_t)(ix[k].def.ncols + ix[k].def.ninclude), .relispopulated = true, .relreplident = 'n'};
        name = ix[k].name;
        if (emit_row(g, class_cols, N(class_cols), &i, &name) < 0)
            return -1;
    }
    if (!has_pk(t))
        return 0;
    /* its primary key's unique btree index <table>_pkey */
    char idx[160];
    snprintf(idx, sizeof idx, "%s_pkey", t->name);
    const pg15_class i = {
        .oid = index_oid(t->oid), .nsoid = t->nsoid, .relowner = OWNER_OID,
        .relam = BTREE_AM_OID, .relfilenode = index_oid(t->oid), .relpersistence = 'p',
        .relkind = 'i', .relnatts = 1, .relispopulated = true, .relreplident = 'n'};
    name = idx;
    return emit_row(g, class_cols, N(class_cols), &i, &name);
}

/* ------------------------------------------------------------ sequences */

/* One sequence of a lake, as this statement's transaction sees it. */
struct seq_ent {
    char schema[64], name[64];
    rl_seq_def def;
    uint32_t oid, nsoid;
    rl_txn *txn; /* its lake's transaction; NULL: the session's temporary one */
};

typedef struct seq_list {
    seq_ent *v;
    size_t n, cap;
    rl_txn *txn; /* the lake being listed */
} seq_list;

static int seq_collect(void *ctx, const char *schema, const char *name, const rl_seq_def *def)
{
    seq_list *l = ctx;
    seq_ent *grown = rl_array_reserve(l->v, l->n, &l->cap, sizeof *grown, 8);
    if (!grown)
        return -1;
    l->v = grown;
    seq_ent *e = &l->v[l->n++];
    rl_str_copy(e->schema, sizeof e->schema, schema);
    rl_str_copy(e->name, sizeof e->name, name);
    e->def = *def;
    e->oid = rl_pgcatalog_rel_oid(schema, name);
    e->nsoid = rl_pgcatalog_namespace_oid(schema);
    e->txn = l->txn;
    return 0;
}

static int seq_list_lake(void *ctx, rl_txn *t, rl_format fmt)
{
    (void)fmt;
    seq_list *l = ctx;
    l->txn = t;
    rl_error e;
    memset(&e, 0, sizeof e);
    return rl_txn_list_sequences(t, NULL, seq_collect, l, &e) == 0 ? 0 : -1;
}

/* The session's temporary sequences after the lakes' (txn NULL), in its
 * pg_temp_N, with the oids sql_seq.c gives them: 0, -1 out of memory. */
static int temp_sequences(rl_exec *x, seq_list *l)
{
    char ns[64];
    temp_ns_name(x, false, ns, sizeof ns);
    l->txn = NULL;
    for (const rl_temp_seq *q = x->s ? x->s->temp_seqs : NULL; q; q = q->next) {
        if (seq_collect(l, ns, q->name, &q->def) < 0)
            return -1;
        l->v[l->n - 1].oid = rl_pgcatalog_rel_oid("pg_temp", q->name);
    }
    return 0;
}

/* Creation order (a lake's ids grow), as PostgreSQL's heap lists pg_class. */
static int seq_cmp(const void *a, const void *b)
{
    const seq_ent *x = a, *y = b;
    uintptr_t tx = (uintptr_t)x->txn, ty = (uintptr_t)y->txn; /* lakes apart */
    if (tx != ty)
        return tx < ty ? -1 : 1;
    return x->def.id < y->def.id ? -1 : x->def.id > y->def.id;
}

/* The sequences of every lake of the database into *l (free l->v), this
 * statement's lake first: 0, or -1 with x's error. */
static int load_sequences(rl_exec *x, seq_list *l)
{
    memset(l, 0, sizeof *l);
    rl_txn *t = rl_exec_txn(x);
    if (!t)
        return -1;
    l->txn = t;
    int rc = rl_txn_list_sequences(t, NULL, seq_collect, l, x->err);
    size_t mine = l->n;
    if (rc == 0)
        rc = rl_lakes_each_other(x, seq_list_lake, l);
    if (rc != 0 && !x->err->sqlstate[0])
        rl_exec_error(x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    if (rc == 0 && mine > 1)
        qsort(l->v, mine, sizeof *l->v, seq_cmp);
    if (rc == 0 && l->n - mine > 1)
        qsort(l->v + mine, l->n - mine, sizeof *l->v, seq_cmp);
    if (rc == 0 && temp_sequences(x, l) < 0)
        rc = rl_exec_error(x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    return rc == 0 ? 0 : -1;
}

static uint32_t seq_type_oid(const rl_seq_def *d)
{
    return d->type_bytes == 2 ? RL_OID_INT2 : d->type_bytes == 4 ? RL_OID_INT4 : RL_OID_INT8;
}

/* Each sequence through rows(g, e); lookups by oid (find_sequence) too. */
static int each_sequence(gen_ctx *g, int (*rows)(gen_ctx *g, const seq_ent *e))
{
    seq_list l;
    if (load_sequences(g->x, &l) < 0)
        return -1;
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < l.n; i++)
        rc = rows(g, &l.v[i]);
    free(l.v);
    return rc;
}

/* The sequence whose pg_class oid is `oid`: 1 (into *out), 0, -1. */
static int find_sequence(rl_exec *x, uint32_t oid, seq_ent *out)
{
    if (oid < REL_OID_BASE || !x || !x->s)
        return 0;
    seq_list l;
    if (load_sequences(x, &l) < 0)
        return -1;
    int found = 0;
    for (size_t i = 0; !found && i < l.n; i++)
        if (l.v[i].oid == oid) {
            *out = l.v[i];
            found = 1;
        }
    free(l.v);
    return found;
}

static int class_seq_row(gen_ctx *g, const seq_ent *e)
{
    const pg15_class c = {
        .oid = e->oid, .nsoid = e->nsoid, .relowner = OWNER_OID, .relfilenode = e->oid,
        .relpersistence = e->txn ? 'p' : 't', .relkind = 'S', .relnatts = 3, .relispopulated = true,
        .relreplident = 'n'};
    const char *name = e->name;
    return emit_row(g, class_cols, N(class_cols), &c, &name);
}

static int gen_class(gen_ctx *g)
{
    if (each_table(g, class_row) < 0 || each_sequence(g, class_seq_row) < 0)
        return -1;
    return each_temp(g, temp_class_rows);
}

static int sequence_row(gen_ctx *g, const seq_ent *e)
{
    const int64_t v[] = {e->def.start, e->def.increment, e->def.max, e->def.min, e->def.cache};
    put_int(g, 0, e->oid);
    put_int(g, 1, seq_type_oid(&e->def));
    for (size_t i = 0; i < N(v); i++)
        put_int(g, 2 + i, v[i]);
    put_bool(g, 7, e->def.cycle);
    return emit(g);
}

static int gen_sequence(gen_ctx *g) { return each_sequence(g, sequence_row); }

/* pg_sequences: the owner is the bootstrap superuser's name; last_value
 * NULL until nextval or setval(.., true) called it (pg_sequence_last_value). */
static int sequences_view_row(gen_ctx *g, const seq_ent *e)
{
    if (!e->txn)
        return 0; /* a temporary one's state is sql_seq.c's, not listed */
    rl_seq_state st;
    if (rl_txn_sequence_state(e->txn, &e->def, &st, g->x->err) < 0)
        return -1;
    const char *owner = rl_pgcatalog_role_name(g->x, OWNER_OID);
    put_str(g, 0, e->schema);
    put_str(g, 1, e->name);
    if (owner)
        put_str(g, 2, owner);
    else
        put_null(g, 2);
    put_int(g, 3, seq_type_oid(&e->def));
    const int64_t v[] = {e->def.start, e->def.min, e->def.max, e->def.increment};
    for (size_t i = 0; i < N(v); i++)
        put_int(g, 4 + i, v[i]);
    put_bool(g, 8, e->def.cycle);
    put_int(g, 9, e->def.cache);
    if (st.is_called)
        put_int(g, 10, st.last_value);
    else
        put_null(g, 10);
    return emit(g);
}

static int gen_sequences_view(gen_ctx *g) { return each_sequence(g, sequences_view_row); }

/* An OWNED BY's automatic dependency on its column (psql's "Owned by:"). */
static int depend_row(gen_ctx *g, const seq_ent *e)
{
    if (!e->def.owned_table[0])
        return 0;
    if (!e->txn)
        return temp_depend_row(g, e);
    rl_txn *t = e->txn;
    rl_error probe;
    memset(&probe, 0, sizeof probe);
    const rl_table_desc *d = rl_txn_find_table(t, e->schema, e->def.owned_table, &probe);
    size_t nc = d ? rl_txn_table_ncols(t, d) : 0, attnum = 0;
    for (size_t i = 0; i < nc && !attnum; i++)
        if (strcmp(d->cols[i].name, e->def.owned_column) == 0)
            attnum = i + 1;
    if (!attnum)
        return 0;
    put_int(g, 0, PG_CLASS_OID);
    put_int(g, 1, e->oid);
    put_int(g, 2, 0);
    put_int(g, 3, PG_CLASS_OID);
    put_int(g, 4, rl_pgcatalog_rel_oid(e->schema, e->def.owned_table));
    put_int(g, 5, (int64_t)attnum);
    /* an identity column's sequence depends on it internally ('i': psql's
     * "Sequence for identity column:"), a serial's automatically */
    const rl_check_con *dc;
    size_t nd = 0;
    char deptype = 'a';
    if (rl_txn_defaults(t, &dc, &nd, NULL, g->x->err) < 0)
        return -1;
    for (size_t i = 0; i < nd; i++)
        if (dc[i].def.identity && !strcmp(dc[i].name, e->def.owned_column) &&
            !strcmp(dc[i].def.table, e->def.owned_table) && !strcmp(dc[i].schema, e->schema))
            deptype = 'i';
    put_char(g, 6, deptype);
    return emit(g);
}

static int gen_depend(gen_ctx *g) { return each_sequence(g, depend_row); }

static int is_sequence_row(gen_ctx *g, const seq_ent *e)
{
    if (!e->txn && temp_identity_seq(g->x, e))
        return 0; /* an identity column's is not listed, as PostgreSQL's view says */
    char nums[4][24];
    const int64_t v[] = {e->def.start, e->def.min, e->def.max, e->def.increment};
    for (size_t i = 0; i < N(v); i++)
        snprintf(nums[i], sizeof nums[i], "%lld", (long long)v[i]);
    put_str(g, 0, g->x->s->eng->database);
    put_str(g, 1, e->schema);
    put_str(g, 2, e->name);
    put_str(g, 3, e->def.type_bytes == 2   ? "smallint"
                  : e->def.type_bytes == 4 ? "integer"
                                           : "bigint");
    put_int(g, 4, e->def.type_bytes * 8);
    put_int(g, 5, 2);
    put_int(g, 6, 0);
    for (size_t i = 0; i < N(v); i++)
        put_str(g, 7 + i, nums[i]);
    put_str(g, 11, e->def.cycle ? "YES" : "NO");
    return emit(g);
}

static int gen_is_sequences(gen_ctx *g) { return each_sequence(g, is_sequence_row); }

/* --------------------------------------------------------- pg_attribute */

/* A pg_attribute row for column `a` of relation relid. */
static int emit_attribute(gen_ctx *g, uint32_t relid, const pg15_attribute *a, const char *name)
{
    put_int(g, 0, relid);
    return emit_row(g, attribute_cols, N(attribute_cols), a, &name);
}

static int fixed_attribute(gen_ctx *g)
{
    for (size_t i = 0; i < PG15_CLASSES_COUNT; i++) {
        const pg15_class *c = &pg15_classes[i];
        for (size_t k = c->att_first; k < (size_t)c->att_first + c->att_count; k++)
            if (emit_attribute(g, c->oid, &pg15_attributes[k], pg15_s(pg15_attributes[k].name)) < 0)
                return -1;
    }
    return 0;
}

/* Column attnum of index relid, on table column `col`, as PostgreSQL lists
 * an index's columns: of the type the index stores (a hash index stores
 * int4 hash codes; brin's text_minmax_ops keeps a varchar as text). */
static int index_attribute(gen_ctx *g, uint32_t relid, uint32_t toid, int32_t typmod,
                           int16_t attnum, const char *name, int method)
{
    if (method == RL_INDEX_HASH || (method == RL_INDEX_BRIN && toid == RL_OID_VARCHAR)) {
        toid = method == RL_INDEX_HASH ? RL_OID_INT4 : RL_OID_TEXT;
        typmod = -1;
    }
    const pg15_type *ty = pg15_type_by_oid(toid);
    const pg15_attribute k = {
        .atttypid = toid, .atttypmod = typmod,
        .attlen = ty ? ty->typlen : -1, .attnum = attnum, .attbyval = ty && ty->typbyval,
        .attalign = ty ? ty->typalign : 'i', .attstorage = ty ? ty->typstorage : 'x',
        .attislocal = true, .attcollation = ty ? ty->typcollation : 0};
    return emit_attribute(g, relid, &k, name);
}

/* The default of column `column` of t (sql_default.c keeps them): 1 with
 * *out, 0 none, -1 error. */
static int column_default(gen_ctx *g, const table_ent *t, const char *column,
                          const rl_check_con **out)
{
    const rl_check_con *c;
    size_t n;
    *out = NULL;
    if (!t->txn || !rl_desc_is_dynamic(t->d))
        return 0;
    if (rl_txn_defaults(t->txn, &c, &n, NULL, g->x->err) < 0)
        return -1;
    for (size_t i = 0; i < n; i++)
        if (!strcmp(c[i].name, column) && !strcmp(c[i].def.table, t->name) &&
            !strcmp(c[i].schema, t->schema)) {
            *out = &c[i];
            return 1;
        }
    return 0;
}

/* A column default's oid: from its table and column, in the range of
 * relations' (a hash, as theirs). */
static uint32_t attrdef_oid(const table_ent *t, const char *column)
{
    char key[RL_INDEX_NAME_MAX * 2 + 16];
    snprintf(key, sizeof key, "%s.%s:default", t->name, column);
    return rl_pgcatalog_rel_oid(t->schema, key);
}

/* A lake column takes its length, alignment, storage and collation from
 * its PostgreSQL type; a PRIMARY KEY column is NOT NULL, as in PostgreSQL. */
static int attribute_rows(gen_ctx *g, const table_ent *t)
{
    for (size_t c = 0; c < t->ncols; c++) {
        const rl_column_desc *col = &t->d->cols[c];
        const rl_check_con *def;
        if (column_default(g, t, col->name, &def) < 0)
            return -1;
        uint32_t toid = rl_type_oid(col->type);
        const pg15_type *ty = pg15_type_by_oid(toid);
        const pg15_attribute a = {
            .atttypid = toid, .atttypmod = col->typmod > 0 ? col->typmod : -1,
            .attlen = ty ? ty->typlen : -1, .attnum = (int16_t)(c + 1),
            .attbyval = ty && ty->typbyval, .attalign = ty ? ty->typalign : 'i',
            .attstorage = ty ? ty->typstorage : 'x',
            .attnotnull = col->not_null || (has_pk(t) && (size_t)t->d->pk_col == c),
            .atthasdef = def != NULL && !def->def.identity,
            .attidentity = def ? def->def.identity : 0,
            .attislocal = true, .attcollation = ty ? ty->typcollation : 0};
        if (emit_attribute(g, t->oid, &a, col->name) < 0)
            return -1;
    }
    const index_ent *ix = indexes_of(g, t);
    for (size_t k = 0; k < t->nindexes; k++) {
        char names[RL_INDEX_MAX_KEYS][RL_INDEX_NAME_MAX];
        rl_index_column_names(&ix[k].def, names);
        for (size_t i = 0; i < ix[k].def.ncols + ix[k].def.ninclude; i++) {
            int c = index_column(t, &ix[k], i);
            if (c == -1)
                continue;
            const rl_column_desc *col = c >= 0 ? &t->d->cols[c] : NULL;
            uint32_t toid = col ? rl_type_oid(col->type) : ix[k].def.expr_type[i];
            int32_t typmod = col ? (col->typmod > 0 ? col->typmod : -1) : ix[k].def.expr_typmod[i];
            if (index_attribute(g, ix[k].oid, toid, typmod, (int16_t)(i + 1), names[i],
                                (int)ix[k].def.method) < 0)
                return -1;
        }
    }
    if (!has_pk(t))
        return 0;
    /* the primary-key index's one column, as PostgreSQL lists an index's */
    const rl_column_desc *col = &t->d->cols[t->d->pk_col];
    return index_attribute(g, index_oid(t->oid), rl_type_oid(col->type),
                           col->typmod > 0 ? col->typmod : -1, 1, col->name, RL_INDEX_BTREE);
}

static int gen_attribute(gen_ctx *g)
{
    return each_table(g, attribute_rows) < 0 ? -1 : each_temp(g, temp_attribute_rows);
}

/* ------------------------------------------------------------ pg_attrdef */

/* adbin, a pg_node_tree, holds the default's plain pg_get_expr text
 * (PostgreSQL: the node tree; clients read it through pg_get_expr). */
static int attrdef_rows(gen_ctx *g, const table_ent *t)
{
    for (size_t c = 0; c < t->ncols; c++) {
        const rl_check_con *d;
        int has = column_default(g, t, t->d->cols[c].name, &d);
        if (has <= 0 || d->def.identity) { /* an identity column has no pg_attrdef row */
            if (has < 0)
                return -1;
            continue;
        }
        put_int(g, 0, attrdef_oid(t, d->name));
        put_int(g, 1, t->oid);
        put_int(g, 2, (int64_t)c + 1);
        put_str(g, 3, d->def.expr);
        if (emit(g) < 0)
            return -1;
    }
    return 0;
}

static int gen_attrdef(gen_ctx *g)
{
    return each_table(g, attrdef_rows) < 0 ? -1 : each_temp(g, temp_attrdef_rows);
}

int rl_pgcatalog_default_expr(rl_exec *x, uint32_t relid, const char *plain, bool pretty,
                              const char **out)
{
    rl_txn *txn = x && x->s ? rl_exec_txn(x) : NULL;
    const rl_check_con *c;
    size_t n;
    *out = NULL;
    if (temp_default_expr(x, relid, plain, pretty, out))
        return 1;
    if (!txn)
        return 0;
    if (rl_txn_defaults(txn, &c, &n, NULL, x->err) < 0)
        return -1;
    for (size_t i = 0; i < n; i++) { /* its own relation's first */
        if (strcmp(c[i].def.expr, plain) != 0)
            continue;
        bool own = rl_pgcatalog_rel_oid(c[i].schema, c[i].def.table) == relid;
        if (!*out || own)
            *out = pretty ? c[i].def.pretty : c[i].def.expr;
        if (own)
            break;
    }
    return *out ? 1 : 0;
}

/* -------------------------------------------------------------- pg_type */

static int fixed_type(gen_ctx *g)
{
    return EMIT_FIXED(g, type_cols, pg15_type, pg15_types, PG15_TYPES_COUNT);
}

/* Every table has a composite row type and its array type, as in
 * PostgreSQL (named _<table>, makeArrayTypeName's, cut to 63 bytes). */
static int type_row(gen_ctx *g, const table_ent *t)
{
    const pg15_type row = {
        .oid = rowtype_oid(t->oid), .nsoid = t->nsoid, .owner = OWNER_OID, .typlen = -1,
        .typtype = 'c', .typcategory = 'C', .typisdefined = true, .typdelim = ',',
        .typrelid = t->oid, .typarray = arraytype_oid(t->oid), .typalign = 'd',
        .typstorage = 'x', .typtypmod = -1, .typinput = 2290, .typoutput = 2291,
        .typreceive = 2402, .typsend = 2403, /* record_* */
        .typdefault = PG15_NONE, .typdefaultbin = PG15_NONE};
    const char *name = t->name;
    if (emit_row(g, type_cols, N(type_cols), &row, &name) < 0)
        return -1;
    const pg15_type arr = {
        .oid = arraytype_oid(t->oid), .nsoid = t->nsoid, .owner = OWNER_OID, .typlen = -1,
        .typtype = 'b', .typcategory = 'A', .typisdefined = true, .typdelim = ',',
        .typelem = rowtype_oid(t->oid), .typalign = 'd', .typstorage = 'x', .typtypmod = -1,
        .typsubscript = 6179, .typinput = 750, .typoutput = 751, .typreceive = 2400,
        .typsend = 2401, .typanalyze = 3816, /* array_* */
        .typdefault = PG15_NONE, .typdefaultbin = PG15_NONE};
    char aname[64];
    aname[0] = '_';
    rl_str_copy(aname + 1, sizeof aname - 1, t->name); /* cut to 63 bytes */
    name = aname;
    return emit_row(g, type_cols, N(type_cols), &arr, &name);
}

static int gen_type(gen_ctx *g)
{
    return each_table(g, type_row) < 0 ? -1 : each_temp(g, temp_type_rows);
}

/* -------------------------------------------------------- pg_constraint */

/* A pg_constraint row; conkey NULL: SQL NULL. */
static int emit_constraint(gen_ctx *g, const pg15_constraint *k, const char *name,
                           const char *conkey)
{
    const char *strs[] = {name, conkey, " ", " ", " ", NULL, NULL, NULL, NULL};
    return emit_row(g, constraint_cols, N(constraint_cols), k, strs);
}

/* PostgreSQL's equality operator of (left, right) among the types a
 * FOREIGN KEY pairs (sql_fkey.c: one family), or 0. */
static uint32_t equality_op(uint32_t l, uint32_t r)
{
    static const struct {
        uint32_t l, r, op;
    } ops[] = {{RL_OID_INT2, RL_OID_INT2, 94},  {RL_OID_INT4, RL_OID_INT4, 96},
               {RL_OID_INT8, RL_OID_INT8, 410}, {RL_OID_INT2, RL_OID_INT4, 532},
               {RL_OID_INT4, RL_OID_INT2, 533}, {RL_OID_INT2, RL_OID_INT8, 1862},
               {RL_OID_INT8, RL_OID_INT2, 1868}, {RL_OID_INT4, RL_OID_INT8, 15},
               {RL_OID_INT8, RL_OID_INT4, 416}, {RL_OID_TEXT, RL_OID_TEXT, 98},
               {RL_OID_BOOL, RL_OID_BOOL, 91},  {RL_OID_NUMERIC, RL_OID_NUMERIC, 1752},
               {RL_OID_FLOAT4, RL_OID_FLOAT4, 620}, {RL_OID_FLOAT8, RL_OID_FLOAT8, 670},
               {RL_OID_UUID, RL_OID_UUID, 2972}, {RL_OID_DATE, RL_OID_DATE, 1093},
               {RL_OID_TIMESTAMP, RL_OID_TIMESTAMP, 2060},
               {RL_OID_TIMESTAMPTZ, RL_OID_TIMESTAMPTZ, 1320},
               {RL_OID_BYTEA, RL_OID_BYTEA, 1955}, {RL_OID_BPCHAR, RL_OID_BPCHAR, 1054}};
    if (l == RL_OID_VARCHAR)
        l = RL_OID_TEXT; /* varchar compares with text's operators */
    if (r == RL_OID_VARCHAR)
        r = RL_OID_TEXT;
    for (size_t i = 0; i < N(ops); i++)
        if (ops[i].l == l && ops[i].r == r)
            return ops[i].op;
    return 0;
}

/* One FOREIGN KEY of a listed table, resolved for pg_constraint and
 * pg_get_constraintdef: its oid, the referenced table and index, and the
 * attnums and types of both sides. */
typedef struct fkey_view {
    char name[RL_INDEX_NAME_MAX];
    rl_fkey_def def;
    char ref_schema[RL_INDEX_NAME_MAX], ref_index[RL_INDEX_NAME_MAX];
    rl_index_def ref;
    uint32_t oid;
    int16_t key[RL_INDEX_MAX_KEYS], fkey[RL_INDEX_MAX_KEYS];
    uint32_t type[RL_INDEX_MAX_KEYS], ftype[RL_INDEX_MAX_KEYS];
} fkey_view;

static uint32_t fkey_oid(const char *schema, const char *table, const char *name)
{
    char both[RL_INDEX_NAME_MAX * 2 + 2];
    snprintf(both, sizeof both, "%s\x1f%s", table, name);
    return constraint_oid(rl_pgcatalog_rel_oid(schema, both));
}

/* What a walk over a table's FOREIGN KEYs hands each resolved one to. */
typedef struct fkey_walk {
    const table_ent *t;
    int (*each)(struct fkey_walk *w, const fkey_view *v);
    void *ctx;
    gen_ctx *g;
} fkey_walk;

static int attnum_in(const rl_table_desc *d, size_t ncols, const char *col, uint32_t *type)
{
    for (size_t c = 0; c < ncols; c++)
        if (strcmp(d->cols[c].name, col) == 0) {
            *type = rl_type_oid(d->cols[c].type);
            return (int)c + 1;
        }
    return 0;
}

static int fkey_visit(void *ctx, const char *schema, const char *table, const char *name,
                      const rl_fkey_def *d)
{
    fkey_walk *w = ctx;
    (void)table;
    fkey_view *v = calloc(1, sizeof *v);
    if (!v)
        return -1;
    rl_str_copy(v->name, sizeof v->name, name);
    v->def = *d;
    v->oid = fkey_oid(schema, w->t->name, name);
    rl_error probe;
    memset(&probe, 0, sizeof probe);
    const rl_table_desc *pd = NULL;
    int rc = rl_txn_unique_index_by_id(w->t->txn, d->ref_index_id, v->ref_schema, v->ref_index,
                                       &v->ref, &probe);
    if (rc == 1)
        pd = rl_txn_find_table(w->t->txn, v->ref_schema, v->ref.table, &probe);
    size_t pn = pd ? rl_txn_table_ncols(w->t->txn, pd) : 0;
    for (size_t j = 0; pd && j < d->ncols; j++) {
        v->key[j] = (int16_t)attnum_in(w->t->d, w->t->ncols, d->cols[j], &v->type[j]);
        v->fkey[j] = (int16_t)attnum_in(pd, pn, v->ref.cols[d->ref_pos[j]], &v->ftype[j]);
        if (!v->key[j] || !v->fkey[j])
            pd = NULL;
    }
    rc = pd ? w->each(w, v) : 0; /* one that does not resolve shows nothing */
    free(v);
    return rc;
}

/* Every FOREIGN KEY of t, resolved, to each(). */
static int each_fkey(gen_ctx *g, const table_ent *t, int (*each)(fkey_walk *w, const fkey_view *v),
                     void *ctx)
{
    if (!t->txn)
        return 0;
    fkey_walk w = {t, each, ctx, g};
    rl_error probe;
    memset(&probe, 0, sizeof probe);
    return rl_txn_list_fkeys(t->txn, t->schema, t->name, fkey_visit, &w,
                             g && g->err ? g->err : &probe);
}

/* "{a,b}" of n int16 or oid values. */
static void int_array(char *out, size_t n, const int64_t *vals, size_t count)
{
    size_t len = (size_t)snprintf(out, n, "{");
    for (size_t i = 0; i < count && len < n; i++)
        len += (size_t)snprintf(out + len, n - len, "%s%lld", i ? "," : "", (long long)vals[i]);
    if (len < n)
        snprintf(out + len, n - len, "}");
}

static int fkey_row(fkey_walk *w, const fkey_view *v)
{
    size_t n = v->def.ncols;
    int64_t key[RL_INDEX_MAX_KEYS], fkey[RL_INDEX_MAX_KEYS], pf[RL_INDEX_MAX_KEYS],
        pp[RL_INDEX_MAX_KEYS], ff[RL_INDEX_MAX_KEYS];
    for (size_t j = 0; j < n; j++) {
        key[j] = v->key[j];
        fkey[j] = v->fkey[j];
        /* no cross-type operator (text and character(n)): PostgreSQL casts
         * the referencing value and compares with the key's own = */
        pp[j] = equality_op(v->ftype[j], v->ftype[j]);
        pf[j] = equality_op(v->ftype[j], v->type[j]);
        ff[j] = pf[j] ? equality_op(v->type[j], v->type[j]) : pp[j];
        if (!pf[j])
            pf[j] = pp[j];
    }
    char conkey[RL_INDEX_MAX_KEYS * 7 + 3], confkey[RL_INDEX_MAX_KEYS * 7 + 3];
    char pfs[RL_INDEX_MAX_KEYS * 12 + 3], pps[RL_INDEX_MAX_KEYS * 12 + 3],
        ffs[RL_INDEX_MAX_KEYS * 12 + 3];
    int_array(conkey, sizeof conkey, key, n);
    int_array(confkey, sizeof confkey, fkey, n);
    int_array(pfs, sizeof pfs, pf, n);
    int_array(pps, sizeof pps, pp, n);
    int_array(ffs, sizeof ffs, ff, n);
    char upd[2] = {v->def.on_update, 0}, del[2] = {v->def.on_delete, 0};
    const char *strs[] = {v->name, conkey, upd, del, v->def.match_full ? "f" : "s",
                          confkey, pfs, pps, ffs};
    const pg15_constraint c = {.oid = v->oid, .nsoid = w->t->nsoid, .contype = 'f',
                               .convalidated = !v->def.not_valid, .conrelid = w->t->oid,
                               .condeferrable = v->def.deferrable,
                               .condeferred = v->def.initially_deferred,
                               .conindid = rl_pgcatalog_rel_oid(v->ref_schema, v->ref_index),
                               .confrelid = rl_pgcatalog_rel_oid(v->ref_schema, v->ref.table),
                               .conislocal = true, .connoinherit = true};
    return emit_row(w->g, constraint_cols, N(constraint_cols), &c, strs);
}

/* PostgreSQL 14+ declares the system catalogs' primary keys and unique
 * constraints. */
static int fixed_constraint(gen_ctx *g)
{
    for (size_t i = 0; i < PG15_CONSTRAINTS_COUNT; i++) {
        const pg15_constraint *k = &pg15_constraints[i];
        if (emit_constraint(g, k, pg15_s(k->name), pg15_s(k->conkey)) < 0)
            return -1;
    }
    return 0;
}

/* "{1,3}": the attnums of index e's key columns; false if one is gone. */
static bool index_conkey(const table_ent *t, const index_ent *e, char *out, size_t n)
{
    size_t len = (size_t)snprintf(out, n, "{");
    for (size_t i = 0; i < e->def.ncols && len < n; i++) {
        int c = index_column(t, e, i);
        if (c < 0)
            return false;
        len += (size_t)snprintf(out + len, n - len, "%s%d", i ? "," : "", c + 1);
    }
    if (len < n)
        snprintf(out + len, n - len, "}");
    return len < n;
}

/* The UNIQUE and PRIMARY KEY constraints made with a table or added to it:
 * their index's name, contype u / p, conindid the index. */
static int key_constraint_rows(gen_ctx *g, const table_ent *t)
{
    const index_ent *ix = indexes_of(g, t);
    for (size_t k = 0; k < t->nindexes; k++) {
        char conkey[RL_INDEX_MAX_KEYS * 7 + 3];
        if (!ix[k].def.constraint || !index_conkey(t, &ix[k], conkey, sizeof conkey))
            continue;
        const pg15_constraint c = {.oid = constraint_oid(ix[k].oid), .nsoid = t->nsoid,
                                   .contype = ix[k].def.primary ? 'p' : 'u',
                                   .convalidated = true, .conrelid = t->oid,
                                   .conindid = ix[k].oid, .conislocal = true,
                                   .connoinherit = true};
        if (emit_constraint(g, &c, ix[k].name, conkey) < 0)
            return -1;
    }
    return 0;
}

/* A lake table with a primary key has its <table>_pkey constraint. */
static int constraint_row(gen_ctx *g, const table_ent *t)
{
    if (key_constraint_rows(g, t) < 0 || each_fkey(g, t, fkey_row, NULL) < 0)
        return -1;
    if (!has_pk(t))
        return 0;
    char conname[160], conkey[16];
    snprintf(conname, sizeof conname, "%s_pkey", t->name);
    snprintf(conkey, sizeof conkey, "{%d}", t->d->pk_col + 1);
    const pg15_constraint k = {.oid = constraint_oid(t->oid), .nsoid = t->nsoid,
                               .contype = 'p', .convalidated = true, .conrelid = t->oid,
                               .conindid = index_oid(t->oid),
                               .conislocal = true, .connoinherit = true};
    return emit_constraint(g, &k, conname, conkey);
}

/* A CHECK constraint's oid: from its schema, table and name, in the range
 * of relations' (a hash, as theirs), never its table's own. */
static uint32_t check_oid(const rl_check_con *c)
{
    char key[RL_INDEX_NAME_MAX * 2 + 8];
    snprintf(key, sizeof key, "%s.%s", c->def.table, c->name);
    uint32_t o = rl_pgcatalog_rel_oid(c->schema, key);
    return o == rl_pgcatalog_rel_oid(c->schema, c->def.table) ? o + 1 : o;
}

/* "{1,3}": a CHECK's conkey. */
static void check_conkey(const rl_check_con *c, char *out, size_t n)
{
    size_t len = (size_t)snprintf(out, n, "{");
    for (size_t k = 0; k < c->def.nconkey && len < n; k++)
        len += (size_t)snprintf(out + len, n - len, "%s%d", k ? "," : "", c->def.conkey[k]);
    if (len < n)
        snprintf(out + len, n - len, "}");
}

/* The CHECK constraints of this statement's lake (sql_check.c writes them,
 * the catalog keeps their texts): contype c, conbin NULL as every
 * pg_node_tree column here. */
static int check_constraint_rows(gen_ctx *g)
{
    rl_txn *txn = g->x ? rl_exec_txn(g->x) : NULL;
    const rl_check_con *c;
    size_t n;
    if (!txn || rl_txn_checks(txn, &c, &n, NULL, g->x->err) < 0)
        return txn ? -1 : 0;
    for (size_t i = 0; i < n; i++) {
        char conkey[RL_MAX_COLUMNS * 4 + 3];
        check_conkey(&c[i], conkey, sizeof conkey); /* no column: NULL, as PostgreSQL's */
        const pg15_constraint k = {.oid = check_oid(&c[i]),
                                   .nsoid = rl_pgcatalog_namespace_oid(c[i].schema),
                                   .contype = 'c', .convalidated = !c[i].def.not_valid,
                                   .conrelid = rl_pgcatalog_rel_oid(c[i].schema, c[i].def.table),
                                   .conislocal = true, .connoinherit = c[i].def.no_inherit};
        if (emit_constraint(g, &k, c[i].name, c[i].def.nconkey ? conkey : NULL) < 0)
            return -1;
    }
    return 0;
}

/* pg_get_constraintdef of a CHECK into buf: "CHECK (<text>)", then
 * " NO INHERIT", then " NOT VALID", as ruleutils.c adds them. */
static void check_def(const rl_check_con *c, bool pretty, char *buf, size_t n)
{
    snprintf(buf, n, "CHECK (%s)%s%s", pretty ? c->def.pretty : c->def.expr,
             c->def.no_inherit ? " NO INHERIT" : "", c->def.not_valid ? " NOT VALID" : "");
}

/* The CHECK whose oid is `oid` into buf: 1, 0 none, -1 error. */
static int find_check_def(rl_exec *x, uint32_t oid, bool pretty, char *buf, size_t n)
{
    rl_txn *txn = x && x->s ? rl_exec_txn(x) : NULL;
    const rl_check_con *c;
    size_t nc;
    if (!txn || rl_txn_checks(txn, &c, &nc, NULL, x->err) < 0)
        return txn ? -1 : 0;
    for (size_t i = 0; i < nc; i++)
        if (check_oid(&c[i]) == oid) {
            check_def(&c[i], pretty, buf, n);
            return 1;
        }
    return 0;
}

static int gen_constraint(gen_ctx *g)
{
    if (each_table(g, constraint_row) < 0 || check_constraint_rows(g) < 0)
        return -1;
    return each_temp(g, temp_constraint_rows);
}

/* ------------------------------------------------------- pg_description */

/* Comments on PostgreSQL's relations (none in 15) and schemas. */
static int fixed_description(gen_ctx *g)
{
    const size_t n = PG15_DESCRIPTIONS_COUNT; /* may be 0: no -Wtype-limits */
    for (size_t i = 0; i < n; i++) {
        const pg15_description *d = &pg15_descriptions[i];
        put_int(g, 0, d->objoid);
        put_int(g, 1, d->classoid);
        put_int(g, 2, d->objsubid);
        put_str(g, 3, pg15_s(d->description));
        if (emit(g) < 0)
            return -1;
    }
    return 0;
}

#define PG_NAMESPACE_OID 2615u

/* The object comment c is on, as pg_description names it: 1 with its oid,
 * catalog and column (0: the object itself), 0 when it is not listed (or
 * no longer exists), -1 error. */
static int comment_object(gen_ctx *g, const comment_ent *c, uint32_t *objoid, uint32_t *classoid,
                          int32_t *subid)
{
    *subid = 0;
    *classoid = PG_CLASS_OID;
    if (!c->rel[0]) {
        *classoid = PG_NAMESPACE_OID;
        *objoid = rl_pgcatalog_namespace_oid(c->schema);
        return rl_pgcatalog_schema_exists(g->x, c->schema);
    }
    for (size_t i = 0; i < g->nindexes; i++)
        if (!c->col[0] && strcmp(g->indexes[i].name, c->rel) == 0 &&
            strcmp(g->indexes[i].schema, c->schema) == 0) {
            *objoid = g->indexes[i].oid;
            return 1;
        }
    for (size_t i = 0; i < g->ntables; i++) {
        const table_ent *t = &g->tables[i];
        if (strcmp(t->name, c->rel) != 0 || strcmp(t->schema, c->schema) != 0)
            continue;
        *objoid = t->oid;
        for (size_t k = 0; c->col[0] && k < t->ncols; k++)
            if (strcmp(t->d->cols[k].name, c->col) == 0)
                *subid = (int32_t)k + 1;
        return !c->col[0] || *subid > 0;
    }
    return 0;
}

/* The lake's comments on the objects this statement sees. */
static int gen_description(gen_ctx *g)
{
    if (load_tables(g) < 0)
        return -1;
    for (size_t i = 0; i < g->ncomments; i++) {
        uint32_t objoid, classoid;
        int32_t subid;
        int r = comment_object(g, &g->comments[i], &objoid, &classoid, &subid);
        if (r < 0)
            return -1;
        if (r == 0)
            continue;
        put_int(g, 0, objoid);
        put_int(g, 1, classoid);
        put_int(g, 2, subid);
        put_str(g, 3, (const char *)g->texts.data + g->comments[i].text);
        if (emit(g) < 0)
            return -1;
    }
    return 0;
}

int rl_pgcatalog_lake_description(rl_exec *x, uint32_t oid, uint32_t classoid, int32_t subid,
                                  char **out)
{
    *out = NULL;
    if (oid < 16384 || !x || !x->s)
        return 0;
    gen_ctx g;
    int found = load_listing(&g, x, "pg_description");
    for (size_t i = 0; found == 0 && i < g.ncomments; i++) {
        uint32_t o, k;
        int32_t sub;
        int r = comment_object(&g, &g.comments[i], &o, &k, &sub);
        if (r < 0)
            found = -1;
        else if (r == 1 && o == oid && sub == subid && (!classoid || k == classoid)) {
            *out = strdup((const char *)g.texts.data + g.comments[i].text);
            found = *out ? 1 : -1;
        }
    }
    gen_release(&g);
    return found;
}

/* ------------------------------------------------------ captured catalogs */

/* pg15_functiondefs is sorted by oid (the generator's ORDER BY). */
static const pg15_functiondef *functiondef_by_oid(uint32_t oid)
{
    return bsearch(&oid, pg15_functiondefs, PG15_FUNCTIONDEFS_COUNT, sizeof pg15_functiondefs[0],
                   leading_oid_cmp);
}

const char *rl_pgcatalog_function_sqlbody(uint32_t oid)
{
    const pg15_functiondef *f = functiondef_by_oid(oid);
    return f ? pg15_s(f->sqlbody) : NULL;
}

int rl_pgcatalog_functiondef(uint32_t oid, const char **text)
{
    const pg15_functiondef *f = functiondef_by_oid(oid);
    if (f) {
        *text = pg15_s(f->def);
        return 1;
    }
    for (size_t i = 0; i < PG15_AGGPROCS_COUNT; i++)
        if (pg15_aggprocs[i].oid == oid) {
            assert(pg15_aggprocs[i].kind == 'a'); /* window functions have their texts */
            *text = pg15_s(pg15_aggprocs[i].name);
            return 2;
        }
    return 0;
}

int rl_pgcatalog_object_visible(const char *catalog, uint32_t oid)
{
    if (strcmp(catalog, "pg_operator") == 0) {
        for (size_t i = 0; i < PG15_OPERATORS_COUNT; i++)
            if (pg15_operators[i].oid == oid)
                return 1; /* all in pg_catalog, always searched */
        return 2;
    }
    if (strcmp(catalog, "pg_opclass") == 0) {
        for (size_t i = 0; i < PG15_OPCLASSES_COUNT; i++)
            if (pg15_opclasses[i].oid == oid)
                return 1;
        return 2;
    }
    for (size_t i = 0; i < PG15_CAPTURED_COUNT; i++) {
        const pg15_captured *c = &pg15_captured_rels[i];
        if (strcmp(c->name, catalog) != 0)
            continue;
        int id = rl_pgcatalog_find("pg_catalog", catalog);
        size_t ncols = id >= 0 ? vrels[id].ncols : 0;
        for (size_t r = 0; ncols && r < c->nrows; r++) { /* each one's oid comes first */
            const char *cell = pg15_s(c->cells[r * ncols]);
            if (cell && strtoul(cell, NULL, 10) == oid)
                return 1;
        }
    }
    return 2;
}

/* A captured catalog's rows (vrels[g->id]), each cell put as its column's
 * type holds it: a regproc as its oid (it prints its name at output). */
static int fixed_captured(gen_ctx *g)
{
    const vrel *v = &vrels[g->id];
    const pg15_captured *c = NULL;
    for (size_t i = 0; i < PG15_CAPTURED_COUNT && !c; i++)
        if (strcmp(pg15_captured_rels[i].name, v->name) == 0)
            c = &pg15_captured_rels[i];
    assert(c); /* PG15_CAPTURED_VRELS and pg15_captured_rels are made together */
    for (size_t r = 0; r < c->nrows; r++) {
        for (size_t k = 0; k < v->ncols; k++) {
            const char *cell = pg15_s(c->cells[r * v->ncols + k]);
            if (!cell) {
                put_null(g, k);
                continue;
            }
            switch (v->cols[k].oid) {
            case RL_OID_BOOL: put_bool(g, k, cell[0] == 't'); break;
            case RL_OID_INT2:
            case RL_OID_INT4:
            case RL_OID_INT8:
            case RL_OID_OID:
            case RL_OID_REGPROC: put_int(g, k, strtoll(cell, NULL, 10)); break;
            case RL_OID_FLOAT4:
            case RL_OID_FLOAT8: put_float(g, k, strtod(cell, NULL)); break;
            case RL_OID_CHAR: put_char(g, k, cell[0]); break;
            default: put_str(g, k, cell); break;
            }
        }
        if (emit(g) < 0)
            return -1;
    }
    return 0;
}

/* -------------------------------------------------------- pg_tablespace */

/* PostgreSQL's two tablespaces; a lake's relations are in the default. */
static int fixed_tablespace(gen_ctx *g)
{
    static const struct { uint32_t oid; const char *name; } ts[] = {{1663, "pg_default"},
                                                                     {1664, "pg_global"}};
    for (size_t i = 0; i < N(ts); i++) {
        for (size_t c = 0; c < N(tablespace_cols); c++)
            put_null(g, c);
        put_int(g, 0, ts[i].oid);
        put_str(g, 1, ts[i].name);
        put_int(g, 2, OWNER_OID);
        if (emit(g) < 0)
            return -1;
    }
    return 0;
}

/* ---------------------------------------------------------- pg_operator */

static int fixed_operator(gen_ctx *g)
{
    for (size_t i = 0; i < PG15_OPERATORS_COUNT; i++) {
        const pg15_operator *o = &pg15_operators[i];
        const uint32_t ids[] = {o->left, o->right, o->result, o->com, o->negate,
                                o->code, o->rest, o->join};
        put_int(g, 0, o->oid);
        put_str(g, 1, pg15_s(o->name));
        put_int(g, 2, o->namespace);
        put_int(g, 3, o->owner);
        put_char(g, 4, o->kind);
        put_bool(g, 5, o->canmerge);
        put_bool(g, 6, o->canhash);
        for (size_t k = 0; k < N(ids); k++)
            put_int(g, 7 + k, ids[k]);
        if (emit(g) < 0)
            return -1;
    }
    return 0;
}

/* ----------------------------------------------------------- pg_opclass */

static int fixed_opclass(gen_ctx *g)
{
    for (size_t i = 0; i < PG15_OPCLASSES_COUNT; i++) {
        const pg15_opclass *o = &pg15_opclasses[i];
        put_int(g, 0, o->oid);
        put_int(g, 1, o->method);
        put_str(g, 2, pg15_s(o->name));
        put_int(g, 3, o->namespace);
        put_int(g, 4, o->owner);
        put_int(g, 5, o->family);
        put_int(g, 6, o->intype);
        put_bool(g, 7, o->isdefault);
        put_int(g, 8, o->keytype);
        if (emit(g) < 0)
            return -1;
    }
    return 0;
}

/* ----------------------------------------------------------- pg_indexes */

static int fixed_indexes(gen_ctx *g)
{
    for (size_t i = 0; i < PG15_INDEXES_COUNT; i++) {
        const pg15_index *x = &pg15_indexes[i];
        const char *row[] = {pg15_s(x->schema), pg15_s(x->table), pg15_s(x->name),
                             pg15_s(x->tablespace), pg15_s(x->indexdef)};
        put_strs(g, 0, row, N(row));
        if (emit(g) < 0)
            return -1;
    }
    return 0;
}

static void index_definition(rl_exec *x, const table_ent *t, const index_ent *e, int col,
                             bool pretty, char *buf, size_t n);

/* A lake table's indexes: those CREATE INDEX made, and with a primary key
 * its unique <table>_pkey index. */
static int index_row(gen_ctx *g, const table_ent *t)
{
    const index_ent *ix = indexes_of(g, t);
    for (size_t k = 0; k < t->nindexes; k++) {
        char *def = malloc(RL_INDEXDEF_MAX);
        if (!def)
            return rl_exec_error(g->x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
        index_definition(g->x, t, &ix[k], 0, false, def, RL_INDEXDEF_MAX);
        const char *row[] = {t->schema, t->name, ix[k].name, NULL, def};
        put_strs(g, 0, row, N(row));
        int rc = emit(g);
        free(def);
        if (rc < 0)
            return -1;
    }
    if (!has_pk(t))
        return 0;
    char idx[160], def[512];
    snprintf(idx, sizeof idx, "%s_pkey", t->name);
    snprintf(def, sizeof def, "CREATE UNIQUE INDEX %s ON %s.%s USING btree (%s)", idx,
             t->schema, t->name, t->d->cols[t->d->pk_col].name);
    const char *row[] = {t->schema, t->name, idx, NULL, def};
    put_strs(g, 0, row, N(row));
    return emit(g);
}

static int gen_indexes(gen_ctx *g) { return each_table(g, index_row); }

/* ---------------------------------------------------------- pg_settings */

/* Every setting pg_settings lists for a role that is not a superuser
 * (sql_settings.c's rows of PostgreSQL 15's parameters), as this session
 * has them; sourcefile and sourceline NULL, as such a role reads them. */
static int gen_settings(gen_ctx *g)
{
    for (size_t i = 0; i < rl_setting_count(); i++) {
        rl_setting_info r;
        char shown[64];
        if (!rl_setting_row(g->x->s, i, &r, shown, sizeof shown))
            continue;
        const char *row[] = {r.name,     r.setting, r.unit,    r.category, r.short_desc,
                             r.extra_desc, r.context, r.vartype, r.source,   r.min_val,
                             r.max_val,  r.enumvals, r.boot_val, r.reset_val};
        put_strs(g, 0, row, N(row));
        put_null(g, 14);
        put_null(g, 15);
        put_bool(g, 16, false);
        if (emit(g) < 0)
            return -1;
    }
    return 0;
}

/* ------------------------------------------------------------ pg_tables */

static int fixed_tables_view(gen_ctx *g)
{
    for (size_t i = 0; i < PG15_TABLES_COUNT; i++) {
        const pg15_table *t = &pg15_tables[i];
        const char *row[] = {pg15_s(t->schema), pg15_s(t->name), pg15_s(t->owner),
                             pg15_s(t->tablespace)};
        put_strs(g, 0, row, N(row));
        put_bool(g, 4, t->hasindexes);
        put_bool(g, 5, t->hasrules);
        put_bool(g, 6, t->hastriggers);
        put_bool(g, 7, t->rowsecurity);
        if (emit(g) < 0)
            return -1;
    }
    return 0;
}

/* A lake table is owned by the owner (OWNER_OID), in no tablespace. */
static int tables_view_row(gen_ctx *g, const table_ent *t)
{
    const char *row[] = {t->schema, t->name, rl_pgcatalog_role_name(g->x, OWNER_OID), NULL};
    put_strs(g, 0, row, N(row));
    put_bool(g, 4, has_pk(t));
    put_bool(g, 5, false);
    put_bool(g, 6, false);
    put_bool(g, 7, false);
    return emit(g);
}

static int gen_tables_view(gen_ctx *g) { return each_table(g, tables_view_row); }

/* ----------------------------------------------- information_schema.tables */

/* A lake table is an insertable, untyped base table of the database. */
static int is_table_row(gen_ctx *g, const table_ent *t)
{
    const char *row[] = {g->x->s->eng->database, t->schema, t->name, "BASE TABLE", NULL, NULL,
                         NULL, NULL, NULL, "YES", "NO", NULL};
    put_strs(g, 0, row, N(row));
    return emit(g);
}

/* PostgreSQL's relations as role `lake` sees them (the view lists only
 * relations the role may use), then the lake's tables. */
static int gen_is_tables(gen_ctx *g)
{
    const char *db = g->x->s->eng->database;
    for (size_t i = 0; i < PG15_IS_TABLES_COUNT; i++) {
        const pg15_is_table *t = &pg15_is_tables[i];
        const char *row[] = {db,   pg15_s(t->schema), pg15_s(t->name), pg15_s(t->type),
                             NULL, NULL, NULL, NULL, NULL, pg15_s(t->insertable),
                             pg15_s(t->typed), NULL};
        put_strs(g, 0, row, N(row));
        if (emit(g) < 0)
            return -1;
    }
    return each_table(g, is_table_row) < 0 ? -1 : each_temp(g, temp_is_table_row);
}

/* ---------------------------------------------- information_schema.columns */

/* The catalog columns of information_schema.columns (table_catalog and the
 * *_catalog of character sets, collations, domains, udts and scopes) hold
 * the database's name where they are not NULL. */
static bool is_catalog_column(size_t c)
{
    return c == 0 || c == 16 || c == 19 || c == 22 || c == 25 || c == 28;
}

static void put_text_as(gen_ctx *g, size_t c, const vcol *cols, const char *v, const char *db,
                        bool catalog)
{
    if (!v)
        put_null(g, c);
    else if (catalog)
        put_str(g, c, db);
    else if (cols[c].oid == RL_OID_INT4)
        put_int(g, c, strtoll(v, NULL, 10));
    else
        put_str(g, c, v);
}

/* An identity column's sequence: the one OWNED BY it. */
typedef struct owned_seq {
    const char *table, *column;
    rl_seq_def def;
    bool found;
} owned_seq;

static int find_owned(void *ctx, const char *schema, const char *name, const rl_seq_def *def)
{
    owned_seq *o = ctx;
    (void)schema;
    (void)name;
    if (o->found || strcmp(def->owned_table, o->table) || strcmp(def->owned_column, o->column))
        return 0;
    o->def = *def;
    o->found = true;
    return 0;
}

static size_t is_column_index(const char *name)
{
    size_t i = 0;
    while (strcmp(is_columns_cols[i].name, name) != 0)
        i++;
    return i;
}

/* information_schema.columns' identity columns of column `column` of t:
 * is_identity, identity_generation and its sequence's parameters (their
 * texts in nums, which must live until the row is emitted). */
static int identity_columns(gen_ctx *g, const table_ent *t, const char *column, char identity,
                            char (*nums)[24])
{
    owned_seq o = {.table = t->name, .column = column};
    if (rl_txn_list_sequences(t->txn, t->schema, find_owned, &o, g->x->err) < 0)
        return -1;
    put_str(g, is_column_index("is_identity"), "YES");
    put_str(g, is_column_index("identity_generation"), identity == 'a' ? "ALWAYS" : "BY DEFAULT");
    if (!o.found)
        return 0;
    const int64_t v[] = {o.def.start, o.def.increment, o.def.max, o.def.min};
    const char *names[] = {"identity_start", "identity_increment", "identity_maximum",
                           "identity_minimum"};
    for (size_t i = 0; i < 4; i++) {
        snprintf(nums[i], sizeof nums[i], "%lld", (long long)v[i]);
        put_str(g, is_column_index(names[i]), nums[i]);
    }
    put_str(g, is_column_index("identity_cycle"), o.def.cycle ? "YES" : "NO");
    return 0;
}

/* The texts an information_schema.columns row borrows until it is emitted. */
typedef struct is_column_texts {
    char data_type[128], pos[24];
} is_column_texts;

/* A column of table t as information_schema.columns describes a column of
 * that type (data_type, the type's precision figures, udt) into the row
 * being built (its texts in *b): its place i (from 0), name, type, typmod
 * (<= 0: none), NOT NULL and default text (NULL: none). */
static void is_column_put(gen_ctx *g, const table_ent *t, size_t i, const char *name,
                          uint32_t oid, int32_t typmod, bool not_null, const char *def,
                          is_column_texts *b)
{
    const char *db = g->x->s->eng->database;
    const pg15_type *ty = pg15_type_by_oid(oid);
    char *data_type = b->data_type;
    rl_pgcatalog_format_type(g->x, oid, -1, data_type, sizeof b->data_type);
    for (size_t c = 0; c < IS_COLUMNS_NCOLS; c++)
        put_null(g, c);
    put_str(g, 0, db);
    put_str(g, 1, t->schema);
    put_str(g, 2, t->name);
    put_str(g, 3, name);
    put_int(g, 4, (int64_t)i + 1);
    if (def)
        put_str(g, 5, def);
    put_str(g, 6, not_null ? "NO" : "YES");
    put_str(g, 7, data_type);
    switch (oid) {
    case RL_OID_VARCHAR:
    case RL_OID_BPCHAR:
    case RL_OID_TEXT:
        if (typmod > 4) {
            put_int(g, 8, typmod - 4);
            put_int(g, 9, (int64_t)(typmod - 4) * 4);
        } else {
            put_int(g, 9, 1073741824);
        }
        break;
    case RL_OID_INT2: put_int(g, 10, 16); put_int(g, 11, 2); put_int(g, 12, 0); break;
    case RL_OID_INT4: put_int(g, 10, 32); put_int(g, 11, 2); put_int(g, 12, 0); break;
    case RL_OID_INT8: put_int(g, 10, 64); put_int(g, 11, 2); put_int(g, 12, 0); break;
    case RL_OID_FLOAT4: put_int(g, 10, 24); put_int(g, 11, 2); break;
    case RL_OID_FLOAT8: put_int(g, 10, 53); put_int(g, 11, 2); break;
    case RL_OID_NUMERIC:
        put_int(g, 11, 10);
        if (typmod > 4) {
            put_int(g, 10, ((typmod - 4) >> 16) & 0xffff);
            put_int(g, 12, (typmod - 4) & 0xffff);
        }
        break;
    case RL_OID_DATE: put_int(g, 13, 0); break;
    case RL_OID_TIME:
    case RL_OID_TIMETZ:
    case RL_OID_TIMESTAMP:
    case RL_OID_TIMESTAMPTZ:
    case RL_OID_INTERVAL: put_int(g, 13, 6); break;
    default: break;
    }
    put_str(g, 25, db);
    put_str(g, 26, "pg_catalog");
    put_str(g, 27, ty ? pg15_s(ty->name) : data_type);
    snprintf(b->pos, sizeof b->pos, "%zu", i + 1);
    put_str(g, 32, b->pos);
    put_str(g, 33, "NO");
    put_str(g, 34, "NO");
    put_str(g, 40, "NO");
    put_str(g, 41, "NEVER");
    put_str(g, 43, "YES");
}

/* The columns of a lake table (is_column_put), with an identity column's
 * sequence. */
static int is_column_row(gen_ctx *g, const table_ent *t)
{
    for (size_t i = 0; i < t->ncols; i++) {
        const rl_column_desc *col = &t->d->cols[i];
        const rl_check_con *def;
        if (column_default(g, t, col->name, &def) < 0)
            return -1;
        bool not_null = col->not_null || (has_pk(t) && (size_t)t->d->pk_col == i);
        is_column_texts b;
        is_column_put(g, t, i, col->name, rl_type_oid(col->type), col->typmod, not_null,
                      def && !def->def.identity ? def->def.expr : NULL, &b);
        char nums[4][24];
        if (def && def->def.identity &&
            identity_columns(g, t, col->name, def->def.identity, nums) < 0)
            return -1;
        if (emit(g) < 0)
            return -1;
    }
    return 0;
}

/* PostgreSQL's own relations' columns as role `lake` sees them, then the
 * lake's tables' columns. */
static int gen_is_columns(gen_ctx *g)
{
    const char *db = g->x->s->eng->database;
    for (size_t i = 0; i < PG15_IS_COLUMNS_COUNT; i++) {
        const pg15_is_column *r = &pg15_is_columns[i];
        for (size_t c = 0; c < IS_COLUMNS_NCOLS; c++)
            put_text_as(g, c, is_columns_cols, pg15_s(r->f[c]), db, is_catalog_column(c));
        if (emit(g) < 0)
            return -1;
    }
    return each_table(g, is_column_row) < 0 ? -1 : each_temp(g, temp_is_column_rows);
}

/* The schemas role `lake` may use: pg_catalog and information_schema as
 * PostgreSQL lists them, public (owned by pg_database_owner), and the
 * lake's own metadata schemas. */
/* ------------------------------- information_schema constraints, views */

/* A key constraint's table_constraints row: its kind, and NULLS DISTINCT
 * for a UNIQUE one (NULL for a primary key). */
static int is_key_constraint_row(gen_ctx *g, const table_ent *t, const char *name, bool primary,
                                 bool nulls_not_distinct)
{
    const char *db = g->x->s->eng->database;
    const char *row[] = {db, t->schema, name, db, t->schema, t->name,
                         primary ? "PRIMARY KEY" : "UNIQUE", "NO", "NO", "YES",
                         primary ? NULL : nulls_not_distinct ? "NO" : "YES"};
    put_strs(g, 0, row, N(row));
    return emit(g);
}

/* A CHECK's row of table_constraints, or a NOT NULL column's
 * pseudo-constraint's. */
static int is_check_constraint_row(gen_ctx *g, const table_ent *t, const char *name)
{
    const char *db = g->x->s->eng->database;
    const char *row[] = {db, t->schema, name, db, t->schema, t->name, "CHECK", "NO", "NO",
                         "YES", NULL};
    put_strs(g, 0, row, N(row));
    return emit(g);
}

/* The name table_constraints gives NOT NULL column c (from 0) of t. */
static void not_null_name(const table_ent *t, size_t c, char *buf, size_t n)
{
    snprintf(buf, n, "%u_%u_%zu_not_null", t->nsoid, t->oid, c + 1);
}

/* A check_constraints row: constraint name and clause. */
static int is_check_clause_row(gen_ctx *g, const table_ent *t, const char *name,
                               const char *clause)
{
    const char *row[] = {g->x->s->eng->database, t->schema, name, clause};
    put_strs(g, 0, row, N(row));
    return emit(g);
}

/* The check_constraints row of NOT NULL column c (from 0) of t. */
static int is_not_null_clause_row(gen_ctx *g, const table_ent *t, size_t c, const char *column)
{
    char name[160], clause[160];
    not_null_name(t, c, name, sizeof name);
    snprintf(clause, sizeof clause, "%s IS NOT NULL", column);
    return is_check_clause_row(g, t, name, clause);
}

/* A table's constraints as role lake sees them on its own tables: the
 * primary key, the UNIQUE constraints, and a CHECK per NOT NULL column,
 * named <schema oid>_<table oid>_<attnum>_not_null (PostgreSQL's oids
 * are not RockLake's: the names differ by them). */
static int is_table_constraint_rows(gen_ctx *g, const table_ent *t)
{
    char name[160];
    if (has_pk(t)) {
        snprintf(name, sizeof name, "%s_pkey", t->name);
        if (is_key_constraint_row(g, t, name, true, false) < 0)
            return -1;
    }
    const index_ent *ix = indexes_of(g, t);
    for (size_t k = 0; k < t->nindexes; k++) {
        char conkey[RL_INDEX_MAX_KEYS * 7 + 3];
        if (ix[k].def.constraint && index_conkey(t, &ix[k], conkey, sizeof conkey) &&
            is_key_constraint_row(g, t, ix[k].name, ix[k].def.primary,
                                  ix[k].def.nulls_not_distinct) < 0)
            return -1;
    }
    rl_txn *txn = rl_exec_txn(g->x);
    const rl_check_con *chk;
    size_t nchk = 0;
    if (!txn || rl_txn_checks(txn, &chk, &nchk, NULL, g->x->err) < 0)
        return -1;
    for (size_t k = 0; k < nchk; k++) /* its CHECK constraints */
        if (!strcmp(chk[k].def.table, t->name) && !strcmp(chk[k].schema, t->schema) &&
            is_check_constraint_row(g, t, chk[k].name) < 0)
            return -1;
    for (size_t c = 0; c < t->ncols; c++) {
        if (!(t->d->cols[c].not_null || (has_pk(t) && (size_t)t->d->pk_col == c)))
            continue;
        not_null_name(t, c, name, sizeof name);
        if (is_check_constraint_row(g, t, name) < 0)
            return -1;
    }
    return 0;
}

/* A FOREIGN KEY's rows in table_constraints, key_column_usage (each
 * column, its place in the referenced key) and referential_constraints
 * (the referenced constraint, NULL for a plain UNIQUE index; MATCH FULL
 * or NONE; the rules), one walker for the three (w->ctx the relation). */
static const char *rule_text(char a)
{
    switch (a) {
    case RL_FKEY_RESTRICT: return "RESTRICT";
    case RL_FKEY_CASCADE: return "CASCADE";
    case RL_FKEY_SET_NULL: return "SET NULL";
    case RL_FKEY_SET_DEFAULT: return "SET DEFAULT";
    default: return "NO ACTION";
    }
}

static int is_fkey_rows(fkey_walk *w, const fkey_view *v)
{
    gen_ctx *g = w->g;
    const table_ent *t = w->t;
    const char *db = g->x->s->eng->database;
    const char *which = w->ctx;
    if (strcmp(which, "table_constraints") == 0) {
        const char *row[] = {db, t->schema, v->name, db, t->schema, t->name, "FOREIGN KEY",
                             v->def.deferrable ? "YES" : "NO",
                             v->def.initially_deferred ? "YES" : "NO", "YES", NULL};
        put_strs(g, 0, row, N(row));
        return emit(g);
    }
    if (strcmp(which, "key_column_usage") == 0) {
        for (size_t j = 0; j < v->def.ncols; j++) {
            const char *row[] = {db, t->schema, v->name, db, t->schema, t->name, v->def.cols[j]};
            put_strs(g, 0, row, N(row));
            put_int(g, 7, (int64_t)j + 1);
            put_int(g, 8, (int64_t)v->def.ref_pos[j] + 1);
            if (emit(g) < 0)
                return -1;
        }
        return 0;
    }
    bool named = v->ref.constraint;
    const char *row[] = {db, t->schema, v->name, named ? db : NULL,
                         named ? v->ref_schema : NULL, named ? v->ref_index : NULL,
                         v->def.match_full ? "FULL" : "NONE", rule_text(v->def.on_update),
                         rule_text(v->def.on_delete)};
    put_strs(g, 0, row, N(row));
    return emit(g);
}

static int is_table_fkey_rows(gen_ctx *g, const table_ent *t)
{
    return each_fkey(g, t, is_fkey_rows, (void *)"table_constraints");
}

static int gen_is_table_constraints(gen_ctx *g)
{
    if (each_table(g, is_table_constraint_rows) < 0 || each_table(g, is_table_fkey_rows) < 0)
        return -1;
    return each_temp(g, temp_is_table_constraint_rows);
}

static int is_referential_rows(gen_ctx *g, const table_ent *t)
{
    return each_fkey(g, t, is_fkey_rows, (void *)"referential_constraints");
}

static int gen_is_referential_constraints(gen_ctx *g)
{
    return each_table(g, is_referential_rows);
}

static int is_key_column_row(gen_ctx *g, const table_ent *t, const char *name, const char *col,
                             size_t pos)
{
    const char *db = g->x->s->eng->database;
    const char *row[] = {db, t->schema, name, db, t->schema, t->name, col};
    put_strs(g, 0, row, N(row));
    put_int(g, 7, (int64_t)pos);
    put_null(g, 8);
    return emit(g);
}

/* The columns of each primary key and UNIQUE constraint, in key order. */
static int is_key_column_rows(gen_ctx *g, const table_ent *t)
{
    if (has_pk(t)) {
        char name[160];
        snprintf(name, sizeof name, "%s_pkey", t->name);
        if (is_key_column_row(g, t, name, t->d->cols[t->d->pk_col].name, 1) < 0)
            return -1;
    }
    const index_ent *ix = indexes_of(g, t);
    for (size_t k = 0; k < t->nindexes; k++) {
        char conkey[RL_INDEX_MAX_KEYS * 7 + 3];
        if (!ix[k].def.constraint || !index_conkey(t, &ix[k], conkey, sizeof conkey))
            continue;
        for (size_t i = 0; i < ix[k].def.ncols; i++)
            if (is_key_column_row(g, t, ix[k].name, ix[k].def.cols[i], i + 1) < 0)
                return -1;
    }
    return 0;
}

static const char *pg15_namespace_name(uint32_t oid);
static const pg15_class *pg15_class_by_oid(uint32_t oid);

/* The system catalogs PUBLIC may not read (PostgreSQL 15 revokes SELECT
 * on them): the view does not list their keys to role lake. */
static bool public_readable(const pg15_class *c)
{
    static const char *const revoked[] = {"pg_authid", "pg_user_mapping", "pg_largeobject",
                                          "pg_statistic", "pg_statistic_ext_data"};
    for (size_t i = 0; i < N(revoked); i++)
        if (strcmp(pg15_s(c->name), revoked[i]) == 0)
            return false;
    return true;
}

/* The system catalogs' primary keys and unique constraints (role lake may
 * read their columns, so the view lists them), from the captured
 * pg_constraint rows and the catalogs' columns. */
static int is_system_key_columns(gen_ctx *g)
{
    const char *db = g->x->s->eng->database;
    for (size_t i = 0; i < PG15_CONSTRAINTS_COUNT; i++) {
        const pg15_constraint *k = &pg15_constraints[i];
        const pg15_class *c = k->conrelid ? pg15_class_by_oid(k->conrelid) : NULL;
        if (!c || (k->contype != 'p' && k->contype != 'u') || !public_readable(c))
            continue;
        const char *p = pg15_s(k->conkey);
        for (size_t pos = 1; p && *p; p++) {
            if (*p < '0' || *p > '9')
                continue;
            long attnum = strtol(p, (char **)&p, 10);
            p--;
            const char *col = NULL;
            for (size_t a = c->att_first; a < (size_t)c->att_first + c->att_count && !col; a++)
                if (pg15_attributes[a].attnum == attnum)
                    col = pg15_s(pg15_attributes[a].name);
            const char *ns = pg15_namespace_name(c->nsoid);
            const char *row[] = {db, pg15_namespace_name(k->nsoid), pg15_s(k->name), db, ns,
                                 pg15_s(c->name), col};
            put_strs(g, 0, row, N(row));
            put_int(g, 7, (int64_t)pos++);
            put_null(g, 8);
            if (emit(g) < 0)
                return -1;
        }
    }
    return 0;
}

static int is_fkey_column_rows(gen_ctx *g, const table_ent *t)
{
    return each_fkey(g, t, is_fkey_rows, (void *)"key_column_usage");
}

/* information_schema.check_constraints: each CHECK with its text after
 * "CHECK " (as the view takes pg_get_constraintdef's from character 7),
 * and the NOT NULL columns' pseudo-constraints, as table_constraints
 * names them. */
static int not_null_clause_rows(gen_ctx *g, const table_ent *t)
{
    for (size_t c = 0; c < t->ncols; c++) {
        if (!(t->d->cols[c].not_null || (has_pk(t) && (size_t)t->d->pk_col == c)))
            continue;
        if (is_not_null_clause_row(g, t, c, t->d->cols[c].name) < 0)
            return -1;
    }
    return 0;
}

static int gen_is_check_constraints(gen_ctx *g)
{
    if (each_table(g, not_null_clause_rows) < 0 || each_temp(g, temp_is_check_rows) < 0)
        return -1;
    rl_txn *txn = rl_exec_txn(g->x);
    const rl_check_con *c;
    size_t n;
    if (!txn || rl_txn_checks(txn, &c, &n, NULL, g->x->err) < 0)
        return -1;
    const char *db = g->x->s->eng->database;
    for (size_t i = 0; i < n; i++) {
        /* the view is a UNION: two tables' CHECKs of one name and text are
         * one row */
        bool seen = false;
        for (size_t j = 0; j < i && !seen; j++)
            seen = !strcmp(c[j].schema, c[i].schema) && !strcmp(c[j].name, c[i].name) &&
                   !strcmp(c[j].def.expr, c[i].def.expr) &&
                   c[j].def.not_valid == c[i].def.not_valid &&
                   c[j].def.no_inherit == c[i].def.no_inherit;
        if (seen)
            continue;
        char def[RL_CHECK_TEXT_MAX];
        check_def(&c[i], false, def, sizeof def);
        const char *row[] = {db, c[i].schema, c[i].name, def + 6}; /* after "CHECK " */
        put_strs(g, 0, row, N(row));
        if (emit(g) < 0)
            return -1;
    }
    return 0;
}

static int gen_is_key_column_usage(gen_ctx *g)
{
    if (is_system_key_columns(g) < 0 || each_table(g, is_key_column_rows) < 0 ||
        each_temp(g, temp_is_key_column_rows) < 0)
        return -1;
    return each_table(g, is_fkey_column_rows);
}

/* PostgreSQL's system views as role lake sees them (no definition: it
 * owns none); a lake has no views of its own. Updatable where they are
 * insertable (pg_group, pg_stat_database_conflicts in 15). */
static int gen_is_views(gen_ctx *g)
{
    const char *db = g->x->s->eng->database;
    for (size_t i = 0; i < PG15_IS_TABLES_COUNT; i++) {
        const pg15_is_table *t = &pg15_is_tables[i];
        if (strcmp(pg15_s(t->type), "VIEW") != 0)
            continue;
        const char *ins = pg15_s(t->insertable);
        const char *row[] = {db, pg15_s(t->schema), pg15_s(t->name), NULL, "NONE", ins, ins,
                             "NO", "NO", "NO"};
        put_strs(g, 0, row, N(row));
        if (emit(g) < 0)
            return -1;
    }
    return 0;
}

static int gen_is_schemata(gen_ctx *g)
{
    const char *db = g->x->s->eng->database;
    for (size_t i = 0; i < PG15_IS_SCHEMATA_COUNT; i++) {
        const pg15_is_schema *r = &pg15_is_schemata[i];
        for (size_t c = 0; c < IS_SCHEMATA_NCOLS; c++)
            put_text_as(g, c, is_schemata_cols, pg15_s(r->f[c]), db, c == 0);
        if (emit(g) < 0)
            return -1;
    }
    for (size_t i = 0; i < PG15_NAMESPACES_COUNT; i++) {
        const pg15_namespace *n = &pg15_namespaces[i];
        if (strcmp(pg15_s(n->name), "public") != 0)
            continue;
        const char *row[] = {db, "public", rl_pgcatalog_role_name(g->x, n->owner), NULL, NULL,
                             NULL, NULL};
        put_strs(g, 0, row, N(row));
        if (emit(g) < 0)
            return -1;
    }
    schema_list l = {.err = g->err};
    int rc = created_schemas(g->x, &l) < 0 ? -2 : 0;
    for (size_t i = 0; i < l.n && rc == 0; i++) {
        if (strcmp(l.names[i], "public") == 0)
            continue;
        const char *row[] = {db, l.names[i], rl_pgcatalog_role_name(g->x, OWNER_OID), NULL, NULL,
                             NULL, NULL};
        put_strs(g, 0, row, N(row));
        rc = emit(g);
    }
    free(l.names);
    if (rc == -2 && g->err && !g->err->sqlstate[0])
        rl_exec_error(g->x, RL_SQLSTATE_INTERNAL_ERROR, -1, "out of memory");
    return rc < 0 ? -1 : 0;
}

/* ---------------------------------------------------------- pg_database */

static uint32_t database_oid(const char *db) { return 16384u + fnv1a32("db:", db, "") % 1000000u; }

uint32_t rl_pgcatalog_database_oid(rl_exec *x) { return database_oid(x->s->eng->database); }

uint32_t rl_pgcatalog_database_oid_of(const char *name) { return database_oid(name); }

/* The session's database, owned by the bootstrap superuser, UTF8 with the
 * C collation (RockLake compares strings bytewise). */
static int gen_database(gen_ctx *g)
{
    const char *db = g->x->s->eng->database;
    for (size_t c = 0; c < N(database_cols); c++)
        put_null(g, c);
    put_int(g, 0, database_oid(db));
    put_str(g, 1, db);
    put_int(g, 2, OWNER_OID);
    put_int(g, 3, 6); /* UTF8 */
    put_char(g, 4, 'c');
    put_bool(g, 5, false);
    put_bool(g, 6, true);
    put_int(g, 7, -1);
    put_int(g, 8, 1663); /* pg_default */
    put_str(g, 9, "C");
    put_str(g, 10, "C");
    return emit(g);
}

/* ------------------------------------------------------------- pg_roles */

typedef struct role_row {
    uint32_t oid;
    const char *name;
} role_row;

/* PostgreSQL 15's predefined roles: no login, nothing but INHERIT. */
static const role_row predefined_roles[] = {
    {3373, "pg_monitor"},           {3374, "pg_read_all_settings"},
    {3375, "pg_read_all_stats"},    {3377, "pg_stat_scan_tables"},
    {4200, "pg_signal_backend"},    {4544, "pg_checkpoint"},
    {4569, "pg_read_server_files"}, {4570, "pg_write_server_files"},
    {4571, "pg_execute_server_program"}, {6171, "pg_database_owner"},
    {6181, "pg_read_all_data"},     {6182, "pg_write_all_data"}};

static const char *session_user_name(rl_exec *x)
{
    return x && x->s && x->s->user[0] ? x->s->user : "postgres";
}

/* Roles beside the owner and the predefined ones get oids from 16384 (the
 * first a PostgreSQL database hands out): the server's login roles in the
 * order of its users file, then the session's user when it is not one of
 * them (a user trusted by an hba rule without a users file line). */
#define LOGIN_ROLE_OID0 16384u

/* Who owns the lake's objects (OWNER_OID). A session that may write is
 * their owner and a superuser, as RockLake was before roles; a read-only
 * session sees them owned by the first login role that may write, else by
 * "rocklake". */
static const char *owner_name(rl_exec *x)
{
    if (!x || !x->s || !x->s->read_only_role)
        return session_user_name(x);
    for (size_t i = 0; i < x->s->nroles; i++)
        if (!x->s->roles[i].read_only)
            return x->s->roles[i].name;
    return "rocklake";
}

/* The login role with oid LOGIN_ROLE_OID0 + i, other than the owner: its
 * name and whether it may only read (false: no more such oids). */
static bool login_role(rl_exec *x, size_t i, const char **name, bool *read_only)
{
    if (!x || !x->s)
        return false;
    const rl_session *s = x->s;
    if (i < s->nroles) {
        *name = s->roles[i].name;
        *read_only = s->roles[i].read_only;
        return true;
    }
    if (i > s->nroles)
        return false;
    for (size_t k = 0; k < s->nroles; k++) /* the session's user, if not listed */
        if (strcmp(s->roles[k].name, s->user) == 0)
            return false;
    *name = s->user;
    *read_only = s->read_only_role;
    return s->read_only_role; /* a writer not listed is the owner */
}

const char *rl_pgcatalog_role_name(rl_exec *x, uint32_t oid)
{
    if (oid == OWNER_OID)
        return owner_name(x);
    for (size_t i = 0; i < N(predefined_roles); i++)
        if (predefined_roles[i].oid == oid)
            return predefined_roles[i].name;
    const char *name;
    bool read_only;
    if (oid >= LOGIN_ROLE_OID0 && login_role(x, oid - LOGIN_ROLE_OID0, &name, &read_only) &&
        strcmp(name, owner_name(x)) != 0)
        return name;
    return NULL;
}

static int emit_role(gen_ctx *g, uint32_t oid, const char *name, bool super, bool login)
{
    for (size_t c = 0; c < N(roles_cols); c++)
        put_null(g, c);
    put_str(g, 0, name);
    for (size_t c = 1; c <= 6; c++)
        put_bool(g, c, super || c == 2 || (c == 5 && login)); /* rolinherit for all */
    put_int(g, 7, -1);
    put_str(g, 8, "********");
    put_bool(g, 10, super);
    put_int(g, 12, oid);
    return emit(g);
}

/* The owner of everything (OWNER_OID), then the other login roles (a role
 * that may write this lake is a superuser of it; one that may only read is
 * a plain login role, a member of pg_read_all_data), then PostgreSQL's
 * predefined roles. */
static int gen_roles(gen_ctx *g)
{
    const char *owner = owner_name(g->x);
    if (emit_role(g, OWNER_OID, owner, true, true) < 0)
        return -1;
    const char *name;
    bool read_only;
    for (size_t i = 0; login_role(g->x, i, &name, &read_only); i++)
        if (strcmp(name, owner) != 0 &&
            emit_role(g, LOGIN_ROLE_OID0 + (uint32_t)i, name, !read_only, true) < 0)
            return -1;
    for (size_t i = 0; i < N(predefined_roles); i++)
        if (emit_role(g, predefined_roles[i].oid, predefined_roles[i].name, false, false) < 0)
            return -1;
    return 0;
}

/* The oid pg_roles gives the role `name` (0: none it lists). */
static uint32_t role_oid(rl_exec *x, const char *name)
{
    if (strcmp(name, owner_name(x)) == 0)
        return OWNER_OID;
    const char *n;
    bool read_only;
    for (size_t i = 0; login_role(x, i, &n, &read_only); i++)
        if (strcmp(n, name) == 0)
            return LOGIN_ROLE_OID0 + (uint32_t)i;
    return 0;
}

static void put_time_us(gen_ctx *g, size_t i, int64_t unix_us)
{
    if (unix_us)
        put_int(g, i, unix_us - PG_EPOCH_UNIX_US);
}

/* One client backend. A role that may only read sees of another user's
 * sessions who and where, not what they do (pg_stat_get_activity's
 * "<insufficient privilege>"); a role that may write is a superuser. */
static int emit_activity(gen_ctx *g, const rl_backend_activity *a)
{
    const rl_session *s = g->x->s;
    for (size_t c = 0; c < N(stat_activity_cols); c++)
        put_null(g, c);
    put_int(g, 0, database_oid(a->datname));
    put_str(g, 1, a->datname);
    put_int(g, 2, a->pid);
    uint32_t role = role_oid(g->x, a->usename);
    if (role)
        put_int(g, 4, role);
    put_str(g, 5, a->usename);
    put_str(g, 6, a->application_name);
    put_str(g, 21, "client backend");
    if (s->read_only_role && strcmp(a->usename, s->user) != 0) {
        put_str(g, 20, "<insufficient privilege>");
        return emit(g);
    }
    if (a->client_addr[0])
        put_str(g, 7, a->client_addr);
    put_int(g, 9, a->client_port);
    put_time_us(g, 10, a->backend_start);
    put_time_us(g, 11, a->xact_start);
    put_time_us(g, 12, a->query_start);
    put_time_us(g, 13, a->state_change);
    if (strcmp(a->state, "active") != 0 && a->state[0]) { /* waiting for its client */
        put_str(g, 14, "Client");
        put_str(g, 15, "ClientRead");
    }
    if (a->state[0])
        put_str(g, 16, a->state);
    put_str(g, 20, a->query);
    return emit(g);
}

/* pg_stat_activity: the client backends of the server, this one's as it
 * runs this statement; none when the session has no server (tests). */
static int gen_stat_activity(gen_ctx *g)
{
    const rl_activity_source *src = g->x->s ? g->x->s->activity : NULL;
    if (!src)
        return 0;
    size_t n = 0;
    rl_backend_activity *all = src->list(src->ctx, &n);
    if (!all)
        return rl_exec_error(g->x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++)
        rc = emit_activity(g, &all[i]);
    free(all);
    return rc < 0 ? -1 : 0;
}

/* pg_locks: the advisory locks of every database of the server, as
 * PostgreSQL lists them (classid / objid the key's halves, objsubid its
 * space); RockLake takes no other lock a session could see (its commits
 * are checked, not locked), and keeps no virtual transaction ids. */
static int gen_locks(gen_ctx *g)
{
    size_t n;
    rl_advisory_row *rows = rl_advisory_list(&n);
    if (!rows)
        return rl_exec_error(g->x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        const rl_advisory_row *r = &rows[i];
        for (size_t c = 0; c < N(locks_cols); c++)
            put_null(g, c);
        put_str(g, 0, "advisory");
        put_int(g, 1, r->dboid);
        put_int(g, 7, (uint32_t)(r->key >> 32));
        put_int(g, 8, (uint32_t)r->key);
        put_int(g, 9, r->space);
        put_int(g, 11, r->pid);
        put_str(g, 12, r->shared ? "ShareLock" : "ExclusiveLock");
        put_bool(g, 13, r->granted);
        put_bool(g, 14, false);
        if (!r->granted)
            put_time_us(g, 15, r->wait_start_unix_us);
        rc = emit(g);
    }
    free(rows);
    return rc < 0 ? -1 : 0;
}

/* pg_cursors: the cursors the session DECLAREd and has open. */
static int gen_cursors(gen_ctx *g)
{
    for (const rl_cursor *c = g->x->s ? g->x->s->cursors : NULL; c; c = c->next) {
        put_str(g, 0, c->name);
        put_str(g, 1, c->statement);
        put_bool(g, 2, c->holdable);
        put_bool(g, 3, c->binary);
        put_bool(g, 4, c->scrollable);
        put_int(g, 5, c->created);
        if (emit(g) < 0)
            return -1;
    }
    return 0;
}

/* Each read-only login role is a member of pg_read_all_data, granted by
 * the owner. */
static int gen_auth_members(gen_ctx *g)
{
    const char *owner = owner_name(g->x);
    const char *name;
    bool read_only;
    for (size_t i = 0; login_role(g->x, i, &name, &read_only); i++) {
        if (!read_only || strcmp(name, owner) == 0)
            continue;
        put_int(g, 0, 6181); /* pg_read_all_data */
        put_int(g, 1, LOGIN_ROLE_OID0 + (uint32_t)i);
        put_int(g, 2, OWNER_OID);
        put_bool(g, 3, false);
        if (emit(g) < 0)
            return -1;
    }
    return 0;
}

/* pg_monitor's members in a fresh PostgreSQL 15, granted by the bootstrap
 * superuser. */
static int fixed_auth_members(gen_ctx *g)
{
    static const uint32_t members[] = {3374, 3375, 3377};
    for (size_t i = 0; i < N(members); i++) {
        put_int(g, 0, members[i]);
        put_int(g, 1, 3373);
        put_int(g, 2, OWNER_OID);
        put_bool(g, 3, false);
        if (emit(g) < 0)
            return -1;
    }
    return 0;
}

/* ---------------------------------------------------------------- pg_am */

static int fixed_am(gen_ctx *g)
{
    static const struct { uint32_t oid; const char *name; uint32_t handler; char type; } ams[] = {
        {2, "heap", 3, 't'},       {403, "btree", 330, 'i'}, {405, "hash", 331, 'i'},
        {783, "gist", 332, 'i'},   {2742, "gin", 333, 'i'},  {3580, "brin", 335, 'i'},
        {4000, "spgist", 334, 'i'}};
    for (size_t i = 0; i < N(ams); i++) {
        put_int(g, 0, ams[i].oid);
        put_str(g, 1, ams[i].name);
        put_int(g, 2, ams[i].handler);
        put_char(g, 3, ams[i].type);
        if (emit(g) < 0)
            return -1;
    }
    return 0;
}

/* -------------------------------------------------------------- pg_proc */

/* sql_functab.inc's rows without their implementations (so the catalog
 * does not call into the functions it lists). */
typedef struct proc_def {
    const char *name;
    uint32_t oid;
    uint8_t nargs;
    uint32_t rettype;
    char volatility;
    bool strict;
    const char *prosrc;
    uint32_t argtypes[RL_FUNC_MAX_ARGS];
} proc_def;

#define RL_FUNC(name, oid, nargs, ret, vol, strict, src, impl, ...)                           \
    {name, oid, nargs, ret, vol, strict, src, {__VA_ARGS__}},
static const proc_def procs[] = {
#include "sql/sql_functab.inc"
};
#undef RL_FUNC

/* Whether a captured cast function is one a call reaches (pg_proc lists
 * exactly those, as it lists the function table): one argument, and both
 * its argument's type and its result (the type it is named after) are the
 * engine's. The length coercions (numeric(numeric, integer), ...) and the
 * casts from or to types RockLake has not (bit, money, inet, ...) are not. */
static bool castproc_callable(const pg15_proc *a)
{
    if (a->kind != 'f' || a->nargs != 1)
        return false;
    const pg15_type *arg = pg15_type_by_oid((uint32_t)strtoul(pg15_s(a->argtypes), NULL, 10));
    return arg && rl_type_oid_by_name(pg15_s(arg->name)) != 0 &&
           rl_type_oid_by_name(pg15_s(a->name)) != 0;
}

/* Captured pg_proc rows (pg15_proc), in pg_catalog, language internal:
 * the aggregates and window functions the engine computes, over its types
 * (tools/gen_pg15_catalog.py's ENGINE_AGGREGATES: psql's \\df and \\da,
 * JDBC's getFunctions), and the cast functions a call reaches (psql's
 * \\dC names them). */
static int fixed_captured_procs(gen_ctx *g, const pg15_proc *rows, size_t count)
{
    for (size_t i = 0; i < count; i++) {
        const pg15_proc *a = &rows[i];
        if (a->kind == 'f' && !castproc_callable(a))
            continue;
        for (size_t c = 0; c < N(proc_cols); c++)
            put_null(g, c);
        put_int(g, 0, a->oid);
        put_str(g, 1, pg15_s(a->name));
        put_int(g, 2, PG_CATALOG_NAMESPACE_OID);
        put_int(g, 3, OWNER_OID);
        put_int(g, 4, 12); /* internal */
        put_float(g, 5, 1);
        put_float(g, 6, 0);
        put_int(g, 7, a->variadic);
        put_int(g, 8, 0);
        put_char(g, 9, a->kind);
        put_bool(g, 10, false);
        put_bool(g, 11, false);
        put_bool(g, 12, a->strict);
        put_bool(g, 13, false);
        put_char(g, 14, a->volatility);
        put_char(g, 15, a->parallel);
        put_int(g, 16, a->nargs);
        put_int(g, 17, 0);
        put_int(g, 18, a->rettype);
        put_str(g, 19, pg15_s(a->argtypes));
        put_str(g, 20, pg15_s(a->prosrc));
        if (emit(g) < 0)
            return -1;
    }
    return 0;
}

static size_t captured_args(const pg15_proc *a, uint32_t *argtypes, size_t cap);

/* The captured pg_proc row of oid pg_proc lists, NULL for none. */
static const pg15_proc *captured_proc(uint32_t oid)
{
    for (size_t i = 0; i < PG15_AGGPROCS_COUNT; i++)
        if (pg15_aggprocs[i].oid == oid)
            return &pg15_aggprocs[i];
    for (size_t i = 0; i < PG15_CASTPROCS_COUNT; i++)
        if (pg15_castprocs[i].oid == oid && castproc_callable(&pg15_castprocs[i]))
            return &pg15_castprocs[i];
    return NULL;
}

int rl_pgcatalog_captured_proc(uint32_t oid, uint32_t *rettype, uint32_t *argtypes, size_t *nargs,
                               bool *ordered_set)
{
    const pg15_proc *a = captured_proc(oid);
    if (!a)
        return 0;
    *rettype = a->rettype;
    *nargs = captured_args(a, argtypes, 8);
    const char *name = pg15_s(a->name);
    *ordered_set = a->kind == 'a' && (strcmp(name, "percentile_cont") == 0 ||
                                      strcmp(name, "percentile_disc") == 0 ||
                                      strcmp(name, "mode") == 0);
    return 1;
}

bool rl_pgcatalog_type_named(const char *name)
{
    for (size_t i = 0; i < PG15_TYPES_COUNT; i++)
        if (pg15_types[i].nsoid == PG_CATALOG_NAMESPACE_OID &&
            strcmp(pg15_s(pg15_types[i].name), name) == 0)
            return true;
    return false;
}

/* pg15_castprocs is sorted by name (the generator's ORDER BY proname,
 * C collation): a call's lookup is a binary search (any one-argument call
 * asks, once per row). */
int rl_pgcatalog_castproc(const char *name, uint32_t argtype, uint32_t *rettype)
{
    size_t lo = 0, hi = PG15_CASTPROCS_COUNT;
    while (lo < hi) { /* the first of that name */
        size_t mid = lo + (hi - lo) / 2;
        if (strcmp(pg15_s(pg15_castprocs[mid].name), name) < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t i = lo; i < PG15_CASTPROCS_COUNT; i++) {
        const pg15_proc *a = &pg15_castprocs[i];
        if (strcmp(pg15_s(a->name), name) != 0)
            break;
        assert(i == 0 || strcmp(pg15_s(pg15_castprocs[i - 1].name), pg15_s(a->name)) <= 0);
        if (strtoul(pg15_s(a->argtypes), NULL, 10) != argtype || !castproc_callable(a))
            continue;
        *rettype = a->rettype;
        return 1;
    }
    return 0;
}

/* One row per overload of the function table, in pg_catalog, language
 * internal (12) or sql (14), as PostgreSQL 15 declares them. */
static int fixed_proc(gen_ctx *g)
{
    for (size_t i = 0; i < N(procs); i++) {
        const proc_def *f = &procs[i];
        char argtypes[RL_FUNC_MAX_ARGS * 11 + 1] = "";
        size_t off = 0;
        bool variadic = f->nargs && f->argtypes[f->nargs - 1] == RL_OID_VARIADIC_ANY;
        for (size_t a = 0; a < f->nargs; a++)
            off += (size_t)snprintf(argtypes + off, sizeof argtypes - off, "%s%u", a ? " " : "",
                                    f->argtypes[a] == RL_OID_VARIADIC_ANY ? RL_OID_ANY
                                                                          : f->argtypes[a]);
        for (size_t c = 0; c < N(proc_cols); c++)
            put_null(g, c);
        put_int(g, 0, f->oid);
        put_str(g, 1, f->name);
        put_int(g, 2, PG_CATALOG_NAMESPACE_OID);
        put_int(g, 3, OWNER_OID);
        put_int(g, 4, f->prosrc[0] ? 12 : 14);
        put_float(g, 5, f->prosrc[0] ? 1 : 100);
        put_float(g, 6, rl_func_oid_retset(f->oid) ? 100 : 0); /* prorows */
        put_int(g, 7, variadic ? RL_OID_ANY : 0);
        put_int(g, 8, 0);
        put_char(g, 9, 'f');
        put_bool(g, 10, false);
        put_bool(g, 11, false);
        put_bool(g, 12, f->strict);
        put_bool(g, 13, rl_func_oid_retset(f->oid));
        put_char(g, 14, f->volatility);
        put_char(g, 15, 's');
        put_int(g, 16, f->nargs);
        put_int(g, 17, rl_func_ndefaults(f->name, f->nargs));
        put_int(g, 18, f->rettype);
        put_str(g, 19, argtypes);
        put_str(g, 20, f->prosrc);
        if (emit(g) < 0)
            return -1;
    }
    if (fixed_captured_procs(g, pg15_aggprocs, PG15_AGGPROCS_COUNT) < 0)
        return -1;
    return fixed_captured_procs(g, pg15_castprocs, PG15_CASTPROCS_COUNT);
}

/* ------------------------------------------------------------- pg_index */

/* The default btree, hash, brin and spgist operator classes (pg_opclass.oid)
 * of the types a lake column may have, as PostgreSQL 15 numbers them (0:
 * none, as boolean has no brin class and only text an spgist one). */
static const struct {
    uint32_t type, oid[4]; /* by rl_index_method */
} opclasses[] = {
    {RL_OID_INT8, {3124, 10021, 10098, 0}},      {RL_OID_INT4, {1978, 10020, 10104, 0}},
    {RL_OID_INT2, {1979, 10019, 10101, 0}},      {RL_OID_FLOAT4, {10012, 10013, 10115, 0}},
    {RL_OID_FLOAT8, {3123, 10014, 10118, 0}},    {RL_OID_NUMERIC, {3125, 10030, 10153, 0}},
    {RL_OID_TEXT, {3126, 10037, 10107, 10086}},  {RL_OID_VARCHAR, {3126, 10037, 10107, 10086}},
    {RL_OID_BYTEA, {10006, 10049, 10092, 0}},    {RL_OID_BOOL, {10003, 10048, 0, 0}},
    {RL_OID_UUID, {10065, 10066, 10156, 0}},     {RL_OID_DATE, {3122, 10011, 10136, 0}},
    {RL_OID_TIME, {10038, 10039, 10133, 0}},     {RL_OID_TIMETZ, {10041, 10042, 10148, 0}},
    {RL_OID_TIMESTAMP, {3128, 10046, 10139, 0}}, {RL_OID_TIMESTAMPTZ, {3127, 10040, 10142, 0}},
    {RL_OID_INTERVAL, {10022, 10023, 10145, 0}}, {RL_OID_BPCHAR, {10004, 10005, 10131, 0}}};

uint32_t rl_pgcatalog_opclass(uint32_t type_oid, int method)
{
    for (size_t i = 0; i < N(opclasses); i++)
        if (opclasses[i].type == type_oid && method >= 0 && method < 4)
            return opclasses[i].oid[method];
    return 0;
}

/* What pg_index shows of one index: its columns (attnum 0 an expression
 * of type types[i]), the key ones first, and its kind. */
typedef struct index_shape {
    uint32_t oid;
    const int16_t *attnums;
    const uint32_t *types;
    const uint8_t *opts; /* NULL: all 0 */
    size_t nkey, natts;
    bool primary, unique, nulls_not_distinct, partial;
    int method;
} index_shape;

/* The pg_node_tree value of a lake index's predicate: RockLake keeps its
 * texts, not PostgreSQL's node tree, so this names the index, and
 * pg_get_expr prints the text from it. (indexprs stays NULL: psql and
 * SQLAlchemy read expressions through pg_get_indexdef per column.) */
#define NODE_TREE_PRED "{ROCKLAKE_INDPRED :indexrelid %u}"

/* pg_index's row of index ix on t: its flags, and per key column the
 * collation, operator class and options (indnkeyatts of them), per column
 * its attnum (indnatts). */
static int emit_index(gen_ctx *g, const table_ent *t, const index_shape *ix)
{
    char key[RL_INDEX_MAX_KEYS * 7 + 1] = "", coll[RL_INDEX_MAX_KEYS * 11 + 1] = "",
         cls[RL_INDEX_MAX_KEYS * 11 + 1] = "", opt[RL_INDEX_MAX_KEYS * 7 + 1] = "";
    size_t lk = 0, lc = 0, ls = 0, lo = 0;
    for (size_t i = 0; i < ix->natts; i++) {
        const char *sep = i ? " " : "";
        lk += (size_t)snprintf(key + lk, sizeof key - lk, "%s%d", sep, ix->attnums[i]);
        if (i >= ix->nkey)
            continue;
        uint32_t toid = ix->types[i];
        const pg15_type *ty = pg15_type_by_oid(toid);
        lc += (size_t)snprintf(coll + lc, sizeof coll - lc, "%s%u", sep, ty ? ty->typcollation : 0);
        ls += (size_t)snprintf(cls + ls, sizeof cls - ls, "%s%u", sep,
                               rl_pgcatalog_opclass(toid, ix->method));
        lo += (size_t)snprintf(opt + lo, sizeof opt - lo, "%s%d", sep,
                               ix->opts ? ix->opts[i] & (RL_INDEX_COL_DESC | RL_INDEX_COL_NULLS_FIRST)
                                        : 0);
    }
    for (size_t c = 0; c < N(index_cols); c++)
        put_null(g, c);
    put_int(g, 0, ix->oid);
    put_int(g, 1, t->oid);
    put_int(g, 2, (int64_t)ix->natts);
    put_int(g, 3, (int64_t)ix->nkey);
    /* indisunique .. indisreplident: a primary key's is unique */
    const bool flags[] = {ix->primary || ix->unique, ix->nulls_not_distinct, ix->primary, false,
                          true, false, true, false, true, true, false};
    for (size_t i = 0; i < N(flags); i++)
        put_bool(g, 4 + i, flags[i]);
    put_str(g, 15, key);
    put_str(g, 16, coll);
    put_str(g, 17, cls);
    put_str(g, 18, opt);
    char tree[64];
    if (ix->partial) {
        snprintf(tree, sizeof tree, NODE_TREE_PRED, ix->oid);
        put_str(g, 20, tree);
    }
    return emit(g);
}

static int index_rel_row(gen_ctx *g, const table_ent *t)
{
    const index_ent *ix = indexes_of(g, t);
    for (size_t k = 0; k < t->nindexes; k++) {
        const rl_index_def *d = &ix[k].def;
        int16_t attnums[RL_INDEX_MAX_KEYS];
        uint32_t types[RL_INDEX_MAX_KEYS];
        bool whole = true;
        for (size_t i = 0; i < d->ncols + d->ninclude && whole; i++) {
            int c = index_column(t, &ix[k], i);
            whole = c != -1;
            attnums[i] = (int16_t)(c >= 0 ? c + 1 : 0);
            types[i] = c >= 0 ? rl_type_oid(t->d->cols[c].type) : d->expr_type[i];
        }
        const index_shape sh = {.oid = ix[k].oid, .attnums = attnums, .types = types,
                                .opts = d->opts, .nkey = d->ncols,
                                .natts = d->ncols + d->ninclude, .primary = d->primary,
                                .unique = d->unique, .nulls_not_distinct = d->nulls_not_distinct,
                                .partial = d->partial, .method = (int)d->method};
        if (whole && emit_index(g, t, &sh) < 0)
            return -1;
    }
    if (!has_pk(t))
        return 0;
    const int16_t pk = (int16_t)(t->d->pk_col + 1);
    const uint32_t pktype = rl_type_oid(t->d->cols[t->d->pk_col].type);
    const index_shape sh = {.oid = index_oid(t->oid), .attnums = &pk, .types = &pktype,
                            .nkey = 1, .natts = 1, .primary = true, .unique = true,
                            .method = RL_INDEX_BTREE};
    return emit_index(g, t, &sh);
}

static int gen_index(gen_ctx *g) { return each_table(g, index_rel_row) < 0 ? -1 : each_temp(g, temp_index_rows); }

/* ============================================ the session's temporary tables
 *
 * A session's temporary tables are rows of the catalog views to that
 * session only (PostgreSQL shows another backend's pg_class rows as well,
 * which no client reads: psql, SQLAlchemy and JDBC ask for the session's
 * own), after the lake's rows, in the session's temporary schema pg_temp_N
 * (N: its backend process id, 1 without one), which exists while the
 * session has a temporary table or sequence, with its pg_toast_temp_N.
 * Oids: a table's is rl_pgcatalog_rel_oid("pg_temp", name), the oid its
 * regclass and row type already had (sql_resolve.c); an index's of its
 * name the same way, a key constraint's constraint_oid of its index's, a
 * CHECK's and a default's of "table.name" and "table.column:default" in
 * pg_temp: no stored schema is named pg_temp (42939), so they are
 * functions of names apart from the stored objects' as those are from
 * each other. */

static bool temp_ns_exists(const rl_exec *x)
{
    return x && x->s && (x->s->temps || x->s->temp_seqs || x->s->temp_ns_kept);
}

/* pg_temp_N, or (toast) pg_toast_temp_N. */
static void temp_ns_name(const rl_exec *x, bool toast, char *buf, size_t n)
{
    int32_t pid = x && x->s && x->s->backend_pid > 0 ? x->s->backend_pid : 1;
    snprintf(buf, n, "pg_%stemp_%d", toast ? "toast_" : "", (int)pid);
}

uint32_t rl_pgcatalog_temp_namespace(rl_exec *x)
{
    char name[64];
    if (!temp_ns_exists(x))
        return 0;
    temp_ns_name(x, false, name, sizeof name);
    return rl_pgcatalog_namespace_oid(name);
}

/* The name of the session's pg_temp_N or pg_toast_temp_N of oid into
 * buf: 1, 0 none. */
static int temp_ns_by_oid(const rl_exec *x, uint32_t oid, char *buf, size_t n)
{
    for (int toast = 0; temp_ns_exists(x) && toast < 2; toast++) {
        temp_ns_name(x, toast, buf, n);
        if (rl_pgcatalog_namespace_oid(buf) == oid)
            return 1;
    }
    return 0;
}

/* Is schema the session's temporary schema, by its pg_temp_N name? */
static bool is_temp_ns(const rl_exec *x, const char *schema)
{
    char name[64];
    if (!temp_ns_exists(x) || strncmp(schema, "pg_temp_", 8) != 0)
        return false;
    temp_ns_name(x, false, name, sizeof name);
    return strcmp(schema, name) == 0;
}

bool rl_pgcatalog_is_temp_schema(rl_exec *x, const char *schema)
{
    return strcmp(schema, "pg_temp") == 0 || is_temp_ns(x, schema);
}

static uint32_t temp_oid(const char *name) { return rl_pgcatalog_rel_oid("pg_temp", name); }

/* Does a temporary relation of the session (a table, sequence or index)
 * have this name, so that it hides any other relation of the name? */
static bool temp_hides(const rl_exec *x, const char *name)
{
    for (const rl_temp_table *t = x && x->s ? x->s->temps : NULL; t; t = t->next) {
        if (strcmp(t->name, name) == 0)
            return true;
        for (const rl_temp_key *k = t->keys; k; k = k->next)
            if (strcmp(k->name, name) == 0)
                return true;
    }
    for (const rl_temp_seq *q = x && x->s ? x->s->temp_seqs : NULL; q; q = q->next)
        if (strcmp(q->name, name) == 0)
            return true;
    return false;
}

/* The table_ent of temporary table tt: its schema pg_temp_N, no descriptor
 * (d NULL: only the functions that read names and oids take it). */
static void temp_ent(const rl_exec *x, const rl_temp_table *tt, table_ent *out)
{
    memset(out, 0, sizeof *out);
    temp_ns_name(x, false, out->schema, sizeof out->schema);
    rl_str_copy(out->name, sizeof out->name, tt->name);
    out->oid = temp_oid(tt->name);
    out->nsoid = rl_pgcatalog_namespace_oid(out->schema);
    out->ncols = tt->rows->ncols;
}

static void temp_index_ent(const table_ent *t, const rl_temp_key *k, index_ent *out)
{
    memset(out, 0, sizeof *out);
    rl_str_copy(out->schema, sizeof out->schema, t->schema);
    rl_str_copy(out->name, sizeof out->name, k->name);
    out->oid = temp_oid(k->name);
    out->def = k->def;
}

/* Column `name` of tt: its index from 0, or -1. */
static int temp_column(const rl_temp_table *tt, const char *name)
{
    for (size_t c = 0; c < tt->rows->ncols; c++)
        if (strcmp(tt->rows->cols[c].name, name) == 0)
            return (int)c;
    return -1;
}

static const rl_temp_default *temp_default(const rl_temp_table *tt, const char *column)
{
    for (const rl_temp_default *d = tt->defaults; d; d = d->next)
        if (strcmp(d->column, column) == 0)
            return d;
    return NULL;
}

static uint32_t temp_check_oid(const rl_temp_table *tt, const rl_temp_check *c)
{
    char key[RL_INDEX_NAME_MAX * 2 + 8];
    snprintf(key, sizeof key, "%s.%s", tt->name, c->name);
    uint32_t o = temp_oid(key);
    return o == temp_oid(tt->name) ? o + 1 : o;
}

static uint32_t temp_attrdef_oid(const rl_temp_table *tt, const char *column)
{
    char key[RL_INDEX_NAME_MAX * 2 + 16];
    snprintf(key, sizeof key, "%s.%s:default", tt->name, column);
    return temp_oid(key);
}

/* Each temporary table of the session through rows(g, tt, t). */
static int each_temp(gen_ctx *g,
                     int (*rows)(gen_ctx *g, const rl_temp_table *tt, const table_ent *t))
{
    for (const rl_temp_table *tt = g->x && g->x->s ? g->x->s->temps : NULL; tt; tt = tt->next) {
        table_ent t;
        temp_ent(g->x, tt, &t);
        if (rows(g, tt, &t) < 0)
            return -1;
    }
    return 0;
}

static int temp_namespace_rows(gen_ctx *g)
{
    char name[64];
    for (int toast = 0; temp_ns_exists(g->x) && toast < 2; toast++) {
        temp_ns_name(g->x, toast, name, sizeof name);
        if (emit_namespace(g, rl_pgcatalog_namespace_oid(name), name, OWNER_OID) < 0)
            return -1;
    }
    return 0;
}

static size_t temp_nchecks(const rl_temp_table *tt)
{
    size_t n = 0;
    for (const rl_temp_check *c = tt->checks; c; c = c->next)
        n++;
    return n;
}

/* A temporary table is an ordinary heap relation of persistence 't'; each
 * of its keys and indexes a btree index relation. */
static int temp_class_rows(gen_ctx *g, const rl_temp_table *tt, const table_ent *t)
{
    const pg15_class c = {
        .relchecks = (int16_t)temp_nchecks(tt), .oid = t->oid, .nsoid = t->nsoid,
        .reltype = rowtype_oid(t->oid), .relowner = OWNER_OID, .relam = HEAP_AM_OID,
        .relfilenode = t->oid, .relhasindex = tt->keys != NULL, .relpersistence = 't',
        .relkind = 'r', .relnatts = (int16_t)t->ncols, .relispopulated = true,
        .relreplident = 'd'};
    const char *name = t->name;
    if (emit_row(g, class_cols, N(class_cols), &c, &name) < 0)
        return -1;
    for (const rl_temp_key *k = tt->keys; k; k = k->next) {
        uint32_t oid = temp_oid(k->name);
        const pg15_class i = {
            .oid = oid, .nsoid = t->nsoid, .relowner = OWNER_OID, .relam = BTREE_AM_OID,
            .relfilenode = oid, .relpersistence = 't', .relkind = 'i',
            .relnatts = (int16_t)(k->def.ncols + k->def.ninclude), .relispopulated = true,
            .relreplident = 'n'};
        name = k->name;
        if (emit_row(g, class_cols, N(class_cols), &i, &name) < 0)
            return -1;
    }
    return 0;
}

/* Its columns, NOT NULL as the session keeps them, and its indexes'. */
static int temp_attribute_rows(gen_ctx *g, const rl_temp_table *tt, const table_ent *t)
{
    for (size_t c = 0; c < t->ncols; c++) {
        const rl_colmeta *col = &tt->rows->cols[c];
        const rl_temp_default *def = temp_default(tt, col->name);
        const pg15_type *ty = pg15_type_by_oid(col->oid);
        const pg15_attribute a = {
            .atttypid = col->oid, .atttypmod = col->typmod, .attlen = ty ? ty->typlen : -1,
            .attnum = (int16_t)(c + 1), .attbyval = ty && ty->typbyval,
            .attalign = ty ? ty->typalign : 'i', .attstorage = ty ? ty->typstorage : 'x',
            .attnotnull = c < RL_MAX_COLUMNS && tt->not_null[c],
            .atthasdef = def && !def->identity, .attidentity = def ? def->identity : 0,
            .attislocal = true, .attcollation = ty ? ty->typcollation : 0};
        if (emit_attribute(g, t->oid, &a, col->name) < 0)
            return -1;
    }
    for (const rl_temp_key *k = tt->keys; k; k = k->next) {
        char names[RL_INDEX_MAX_KEYS][RL_INDEX_NAME_MAX];
        rl_index_column_names(&k->def, names);
        for (size_t i = 0; i < k->def.ncols + k->def.ninclude; i++) {
            int c = temp_column(tt, k->def.cols[i]);
            if (c >= 0 && index_attribute(g, temp_oid(k->name), tt->rows->cols[c].oid,
                                          tt->rows->cols[c].typmod, (int16_t)(i + 1), names[i],
                                          RL_INDEX_BTREE) < 0)
                return -1;
        }
    }
    return 0;
}

static int temp_attrdef_rows(gen_ctx *g, const rl_temp_table *tt, const table_ent *t)
{
    for (size_t c = 0; c < t->ncols; c++) {
        const rl_temp_default *d = temp_default(tt, tt->rows->cols[c].name);
        if (!d || d->identity) /* an identity column has no pg_attrdef row */
            continue;
        put_int(g, 0, temp_attrdef_oid(tt, d->column));
        put_int(g, 1, t->oid);
        put_int(g, 2, (int64_t)c + 1);
        put_str(g, 3, d->text);
        if (emit(g) < 0)
            return -1;
    }
    return 0;
}

/* The default of temporary table relid whose adbin is `plain`: 1, 0. */
static int temp_default_expr(rl_exec *x, uint32_t relid, const char *plain, bool pretty,
                             const char **out)
{
    for (const rl_temp_table *tt = x && x->s ? x->s->temps : NULL; tt; tt = tt->next) {
        if (temp_oid(tt->name) != relid)
            continue;
        for (const rl_temp_default *d = tt->defaults; d; d = d->next)
            if (strcmp(d->text, plain) == 0) {
                *out = pretty && d->pretty ? d->pretty : d->text;
                return 1;
            }
    }
    return 0;
}

static int temp_constraint_rows(gen_ctx *g, const rl_temp_table *tt, const table_ent *t)
{
    for (const rl_temp_key *k = tt->keys; k; k = k->next) {
        char conkey[RL_INDEX_MAX_KEYS * 7 + 3];
        size_t len = (size_t)snprintf(conkey, sizeof conkey, "{");
        bool whole = true;
        for (size_t i = 0; i < k->def.ncols && whole; i++) {
            int c = temp_column(tt, k->def.cols[i]);
            whole = c >= 0;
            len += (size_t)snprintf(conkey + len, sizeof conkey - len, "%s%d", i ? "," : "",
                                    c + 1);
        }
        snprintf(conkey + len, sizeof conkey - len, "}");
        if (!k->def.constraint || !whole)
            continue;
        uint32_t ioid = temp_oid(k->name);
        const pg15_constraint c = {.oid = constraint_oid(ioid), .nsoid = t->nsoid,
                                   .contype = k->def.primary ? 'p' : 'u', .convalidated = true,
                                   .conrelid = t->oid, .conindid = ioid, .conislocal = true,
                                   .connoinherit = true};
        if (emit_constraint(g, &c, k->name, conkey) < 0)
            return -1;
    }
    for (const rl_temp_check *c = tt->checks; c; c = c->next) {
        const pg15_constraint k = {.oid = temp_check_oid(tt, c), .nsoid = t->nsoid,
                                   .contype = 'c', .convalidated = !c->not_valid,
                                   .conrelid = t->oid, .conislocal = true};
        if (emit_constraint(g, &k, c->name, NULL) < 0)
            return -1;
    }
    return 0;
}

static int temp_index_rows(gen_ctx *g, const rl_temp_table *tt, const table_ent *t)
{
    for (const rl_temp_key *k = tt->keys; k; k = k->next) {
        const rl_index_def *d = &k->def;
        int16_t attnums[RL_INDEX_MAX_KEYS];
        uint32_t types[RL_INDEX_MAX_KEYS];
        bool whole = true;
        for (size_t i = 0; i < d->ncols + d->ninclude && whole; i++) {
            int c = temp_column(tt, d->cols[i]);
            whole = c >= 0;
            attnums[i] = (int16_t)(c + 1);
            types[i] = whole ? tt->rows->cols[c].oid : 0;
        }
        const index_shape sh = {.oid = temp_oid(k->name), .attnums = attnums, .types = types,
                                .opts = d->opts, .nkey = d->ncols,
                                .natts = d->ncols + d->ninclude, .primary = d->primary,
                                .unique = d->unique, .nulls_not_distinct = d->nulls_not_distinct,
                                .method = RL_INDEX_BTREE};
        if (whole && emit_index(g, t, &sh) < 0)
            return -1;
    }
    return 0;
}

/* Its row type and that type's array type, as a stored table's. */
static int temp_type_rows(gen_ctx *g, const rl_temp_table *tt, const table_ent *t)
{
    (void)tt;
    return type_row(g, t);
}

static int temp_is_table_row(gen_ctx *g, const rl_temp_table *tt, const table_ent *t)
{
    (void)tt;
    const char *row[] = {g->x->s->eng->database, t->schema, t->name, "LOCAL TEMPORARY", NULL,
                         NULL, NULL, NULL, NULL, "YES", "NO", NULL};
    put_strs(g, 0, row, N(row));
    return emit(g);
}

static int temp_is_column_rows(gen_ctx *g, const rl_temp_table *tt, const table_ent *t)
{
    for (size_t i = 0; i < t->ncols; i++) {
        const rl_colmeta *col = &tt->rows->cols[i];
        const rl_temp_default *def = temp_default(tt, col->name);
        is_column_texts b;
        is_column_put(g, t, i, col->name, col->oid, col->typmod,
                      i < RL_MAX_COLUMNS && tt->not_null[i],
                      def && !def->identity ? def->text : NULL, &b);
        if (def && def->identity) {
            put_str(g, is_column_index("is_identity"), "YES");
            put_str(g, is_column_index("identity_generation"),
                    def->identity == 'a' ? "ALWAYS" : "BY DEFAULT");
        }
        if (emit(g) < 0)
            return -1;
    }
    return 0;
}

/* Its keys, CHECKs and NOT NULL columns as a stored table's
 * (is_table_constraint_rows). */
static int temp_is_table_constraint_rows(gen_ctx *g, const rl_temp_table *tt,
                                         const table_ent *t)
{
    for (const rl_temp_key *k = tt->keys; k; k = k->next)
        if (k->def.constraint &&
            is_key_constraint_row(g, t, k->name, k->def.primary, k->def.nulls_not_distinct) < 0)
            return -1;
    for (const rl_temp_check *c = tt->checks; c; c = c->next)
        if (is_check_constraint_row(g, t, c->name) < 0)
            return -1;
    for (size_t c = 0; c < t->ncols && c < RL_MAX_COLUMNS; c++) {
        char name[160];
        if (!tt->not_null[c])
            continue;
        not_null_name(t, c, name, sizeof name);
        if (is_check_constraint_row(g, t, name) < 0)
            return -1;
    }
    return 0;
}

static int temp_is_key_column_rows(gen_ctx *g, const rl_temp_table *tt, const table_ent *t)
{
    for (const rl_temp_key *k = tt->keys; k; k = k->next)
        for (size_t i = 0; k->def.constraint && i < k->def.ncols; i++)
            if (is_key_column_row(g, t, k->name, k->def.cols[i], i + 1) < 0)
                return -1;
    return 0;
}

/* information_schema.check_constraints: its NOT NULL columns' and CHECKs'
 * clauses, as a stored table's (gen_is_check_constraints). */
static int temp_is_check_rows(gen_ctx *g, const rl_temp_table *tt, const table_ent *t)
{
    for (size_t c = 0; c < t->ncols && c < RL_MAX_COLUMNS; c++) {
        if (!tt->not_null[c])
            continue;
        if (is_not_null_clause_row(g, t, c, tt->rows->cols[c].name) < 0)
            return -1;
    }
    for (const rl_temp_check *c = tt->checks; c; c = c->next) {
        char def[RL_CHECK_TEXT_MAX + 32];
        snprintf(def, sizeof def, "(%s)%s", c->text, c->not_valid ? " NOT VALID" : "");
        if (is_check_clause_row(g, t, c->name, def) < 0)
            return -1;
    }
    return 0;
}

/* The session's temporary table `name`, NULL none. */
static const rl_temp_table *temp_table_named(const rl_exec *x, const char *name)
{
    for (const rl_temp_table *t = x && x->s ? x->s->temps : NULL; t; t = t->next)
        if (strcmp(t->name, name) == 0)
            return t;
    return NULL;
}

/* Is temporary sequence e an identity column's? */
static bool temp_identity_seq(const rl_exec *x, const seq_ent *e)
{
    const rl_temp_table *t = temp_table_named(x, e->def.owned_table);
    const rl_temp_default *d = t ? temp_default(t, e->def.owned_column) : NULL;
    return d && d->identity;
}

/* A temporary sequence's OWNED BY dependency on its temporary table's
 * column (an identity column's 'i'). */
static int temp_depend_row(gen_ctx *g, const seq_ent *e)
{
    const rl_temp_table *t = temp_table_named(g->x, e->def.owned_table);
    int col = t ? temp_column(t, e->def.owned_column) : -1;
    if (col < 0)
        return 0;
    put_int(g, 0, PG_CLASS_OID);
    put_int(g, 1, e->oid);
    put_int(g, 2, 0);
    put_int(g, 3, PG_CLASS_OID);
    put_int(g, 4, temp_oid(t->name));
    put_int(g, 5, (int64_t)col + 1);
    put_char(g, 6, temp_identity_seq(g->x, e) ? 'i' : 'a');
    return emit(g);
}

/* The temporary table, key index or key constraint of oid: 1 with its
 * table (and *key, NULL for the table), 0 none. */
static int find_temp(rl_exec *x, uint32_t oid, bool constraint, table_ent *t,
                     const rl_temp_table **tt, const rl_temp_key **key)
{
    for (const rl_temp_table *p = x && x->s ? x->s->temps : NULL; p; p = p->next) {
        *key = NULL;
        if (!constraint && temp_oid(p->name) == oid) {
            *tt = p;
            temp_ent(x, p, t);
            return 1;
        }
        for (const rl_temp_key *k = p->keys; k; k = k->next)
            if (constraint ? k->def.constraint && constraint_oid(temp_oid(k->name)) == oid
                           : temp_oid(k->name) == oid) {
                *tt = p;
                *key = k;
                temp_ent(x, p, t);
                return 1;
            }
    }
    return 0;
}

/* pg_get_constraintdef of a temporary table's CHECK or key: 1, 0 none. */
static int temp_constraintdef(rl_exec *x, uint32_t oid, bool pretty, char *buf, size_t n)
{
    for (const rl_temp_table *p = x && x->s ? x->s->temps : NULL; p; p = p->next)
        for (const rl_temp_check *c = p->checks; c; c = c->next)
            if (temp_check_oid(p, c) == oid) {
                snprintf(buf, n, "CHECK (%s)%s", pretty && c->pretty ? c->pretty : c->text,
                         c->not_valid ? " NOT VALID" : "");
                return 1;
            }
    table_ent t;
    const rl_temp_table *tt;
    const rl_temp_key *k;
    if (!find_temp(x, oid, true, &t, &tt, &k))
        return 0;
    index_ent e;
    temp_index_ent(&t, k, &e);
    key_constraint_def(&e, buf, n);
    return 1;
}

/* pg_get_indexdef of a temporary table's key or index: 1, 0 none. */
static int temp_indexdef(rl_exec *x, uint32_t oid, int col, bool pretty, char *buf, size_t n)
{
    table_ent t;
    const rl_temp_table *tt;
    const rl_temp_key *k;
    if (!find_temp(x, oid, false, &t, &tt, &k) || !k)
        return 0;
    index_ent e;
    temp_index_ent(&t, k, &e);
    /* the table's schema as get_namespace_name_or_temp names it */
    rl_str_copy(t.schema, sizeof t.schema, "pg_temp");
    index_definition(x, &t, &e, col, pretty, buf, n);
    return 1;
}

/* --------------------------------------------------------- pg_collation */

/* The three collations every database has; RockLake compares bytewise, so
 * all three behave as C. (PostgreSQL lists the system's locales too.) */
/* PostgreSQL 15's collations of a C.UTF-8 database without ICU. */
static const struct {
    uint32_t oid;
    const char *name;
    char provider;
    const char *loc;
} collations[] = {{100, "default", 'd', NULL}, {950, "C", 'c', "C"}, {951, "POSIX", 'c', "POSIX"}};

static int fixed_collation(gen_ctx *g)
{
    const __typeof__(collations[0]) *cs = collations;
    for (size_t i = 0; i < N(collations); i++) {
        for (size_t c = 0; c < N(collation_cols); c++)
            put_null(g, c);
        put_int(g, 0, cs[i].oid);
        put_str(g, 1, cs[i].name);
        put_int(g, 2, PG_CATALOG_NAMESPACE_OID);
        put_int(g, 3, OWNER_OID);
        put_char(g, 4, cs[i].provider);
        put_bool(g, 5, true);
        put_int(g, 6, -1);
        if (cs[i].loc) {
            put_str(g, 7, cs[i].loc);
            put_str(g, 8, cs[i].loc);
        }
        if (emit(g) < 0)
            return -1;
    }
    return 0;
}

/* =================================================== catalog functions
 *
 * What the catalog functions of sql_func.c ask about objects by oid. */

int rl_pgcatalog_collation_visible(uint32_t oid)
{
    for (size_t i = 0; i < N(collations); i++)
        if (collations[i].oid == oid)
            return 1; /* all in pg_catalog, always searched */
    return 2;
}

/* The tables, indexes and comments this statement sees, into g (freed by
 * gen_release), as a query of pg_catalog.`relation` loads them: 0, or -1
 * with x's error. */
static int load_listing(gen_ctx *g, rl_exec *x, const char *relation)
{
    memset(g, 0, sizeof *g);
    g->x = x;
    g->err = x->err;
    g->id = rl_pgcatalog_find("pg_catalog", relation);
    return load_tables(g) < 0 ? -1 : 0;
}

/* The lake table whose relation, row type, index or constraint oid is
 * `oid`, as this statement sees the tables: 1 (into *out), 0 none, -1
 * error. */
static int find_lake_table(rl_exec *x, uint32_t oid, table_ent *out)
{
    if (oid < REL_OID_BASE || !x || !x->s)
        return 0;
    gen_ctx g;
    int found = load_listing(&g, x, "pg_class");
    for (size_t i = 0; found == 0 && i < g.ntables; i++) {
        uint32_t o = g.tables[i].oid;
        if (oid == o || oid == rowtype_oid(o) || oid == index_oid(o) || oid == constraint_oid(o) ||
            oid == arraytype_oid(o)) {
            *out = g.tables[i];
            found = 1;
        }
    }
    gen_release(&g);
    return found;
}

int rl_pgcatalog_rowtype_table(rl_exec *x, uint32_t oid, char *schema, char *name)
{
    table_ent t;
    int r = find_lake_table(x, oid, &t);
    if (r <= 0 || oid != rowtype_oid(t.oid))
        return r < 0 ? -1 : 0;
    rl_str_copy(schema, 64, t.schema);
    rl_str_copy(name, 64, t.name);
    return 1;
}

/* The index CREATE INDEX made whose oid is `oid`, and its table, as this
 * statement sees them: 1 (into *t and *out), 0 none, -1 error. */
static int find_lake_index(rl_exec *x, uint32_t oid, table_ent *t, index_ent *out)
{
    if (oid < REL_OID_BASE || !x || !x->s)
        return 0;
    gen_ctx g;
    int found = load_listing(&g, x, "pg_class");
    for (size_t i = 0; found == 0 && i < g.nindexes; i++)
        if (g.indexes[i].oid == oid) {
            *out = g.indexes[i];
            *t = g.tables[g.indexes[i].table];
            found = 1;
        }
    gen_release(&g);
    return found;
}

/* On the default search path ("$user", public; pg_catalog first)? */
static bool schema_on_path(rl_exec *x, const char *schema)
{
    return strcmp(schema, "public") == 0 || strcmp(schema, "pg_catalog") == 0 ||
           strcmp(schema, session_user_name(x)) == 0;
}

static const pg15_class *pg15_class_by_oid(uint32_t oid)
{
    for (size_t i = 0; i < PG15_CLASSES_COUNT; i++)
        if (pg15_classes[i].oid == oid)
            return &pg15_classes[i];
    return NULL;
}

int rl_pgcatalog_rel_visible(rl_exec *x, uint32_t oid)
{
    /* pg_temp is first on the search path: a temporary relation is
     * visible, and hides any other of its name */
    const pg15_class *c = pg15_class_by_oid(oid);
    if (c)
        return c->nsoid == PG_CATALOG_NAMESPACE_OID && !temp_hides(x, pg15_s(c->name));
    table_ent t;
    const rl_temp_table *tt;
    const rl_temp_key *tk;
    if (find_temp(x, oid, false, &t, &tt, &tk))
        return 1;
    index_ent ix;
    int r = find_lake_index(x, oid, &t, &ix);
    if (r != 0)
        return r < 0 ? -1 : schema_on_path(x, t.schema) && !temp_hides(x, ix.name);
    seq_ent se;
    r = find_sequence(x, oid, &se);
    if (r != 0 && r > 0 && !se.txn)
        return 1;
    if (r != 0)
        return r < 0 ? -1 : schema_on_path(x, se.schema) && !temp_hides(x, se.name);
    r = find_lake_table(x, oid, &t);
    if (r <= 0 || oid == rowtype_oid(t.oid) || oid == constraint_oid(t.oid) ||
        oid == arraytype_oid(t.oid))
        return r < 0 ? -1 : 2;
    if (oid == index_oid(t.oid) && !has_pk(&t))
        return 2;
    if (oid == index_oid(t.oid)) {
        char pkey[RL_INDEX_NAME_MAX + 8];
        snprintf(pkey, sizeof pkey, "%s_pkey", t.name);
        return schema_on_path(x, t.schema) && !temp_hides(x, pkey);
    }
    return schema_on_path(x, t.schema) && !temp_hides(x, t.name);
}

int rl_pgcatalog_type_visible(rl_exec *x, uint32_t oid)
{
    const pg15_type *ty = pg15_type_by_oid(oid);
    if (ty)
        return ty->nsoid == PG_CATALOG_NAMESPACE_OID;
    for (const rl_temp_table *tt = x && x->s ? x->s->temps : NULL; tt; tt = tt->next)
        if (oid == rowtype_oid(temp_oid(tt->name)) || oid == arraytype_oid(temp_oid(tt->name)))
            return 1; /* a temporary table's row type: pg_temp comes first */
    table_ent t;
    int r = find_lake_table(x, oid, &t);
    if (r <= 0 || (oid != rowtype_oid(t.oid) && oid != arraytype_oid(t.oid)))
        return r < 0 ? -1 : 2;
    return schema_on_path(x, t.schema);
}

/* ------------------------------------------------ privileges (acl.c)
 *
 * What has_*_privilege and pg_has_role answer, from the roles pg_roles
 * lists: the owner and every login role that may write are superusers (all
 * privileges, members of every role); a read-only login role is a member of
 * pg_read_all_data; pg_read_all_data reads every table and uses every
 * schema, pg_write_all_data writes them; everyone has PUBLIC's grants of a
 * fresh PostgreSQL 15 database: CONNECT and TEMPORARY on it, USAGE on
 * public, pg_catalog and information_schema, SELECT on the system
 * catalogs. Nobody holds a grant option but a superuser. */

typedef struct role_power {
    bool super, reads_all, writes_all;
} role_power;

/* 1 with *p set, 0 no such role. */
static int role_power_of(rl_exec *x, uint32_t oid, role_power *p)
{
    memset(p, 0, sizeof *p);
    if (oid == OWNER_OID) {
        p->super = true;
        return 1;
    }
    for (size_t i = 0; i < N(predefined_roles); i++)
        if (predefined_roles[i].oid == oid) {
            p->reads_all = oid == 6181;
            p->writes_all = oid == 6182;
            return 1;
        }
    const char *name;
    bool read_only;
    if (oid < LOGIN_ROLE_OID0 || !login_role(x, oid - LOGIN_ROLE_OID0, &name, &read_only) ||
        strcmp(name, owner_name(x)) == 0)
        return 0;
    p->super = !read_only;
    p->reads_all = read_only; /* through pg_read_all_data */
    return 1;
}

int rl_pgcatalog_role_oid(rl_exec *x, const char *name, uint32_t *oid)
{
    if (strcmp(name, owner_name(x)) == 0) {
        *oid = OWNER_OID;
        return 1;
    }
    for (size_t i = 0; i < N(predefined_roles); i++)
        if (strcmp(predefined_roles[i].name, name) == 0) {
            *oid = predefined_roles[i].oid;
            return 1;
        }
    const char *login;
    bool read_only;
    for (size_t i = 0; login_role(x, i, &login, &read_only); i++)
        if (strcmp(login, name) == 0) {
            *oid = LOGIN_ROLE_OID0 + (uint32_t)i;
            return 1;
        }
    return 0;
}

uint32_t rl_pgcatalog_current_role(rl_exec *x)
{
    uint32_t oid = OWNER_OID;
    if (x && x->s && x->s->read_only_role)
        rl_pgcatalog_role_oid(x, x->s->user, &oid);
    return oid;
}

int rl_pgcatalog_privilege(rl_exec *x, uint32_t role, rl_acl_object kind, uint32_t oid,
                           unsigned privs)
{
    role_power p;
    if (role_power_of(x, role, &p) == 0)
        return 0; /* an oid naming no role holds nothing */
    bool grant = privs & RL_ACL_GRANT_OPTION;
    privs &= ~RL_ACL_GRANT_OPTION;
    if (kind == RL_ACL_TABLE) {
        const pg15_class *c = pg15_class_by_oid(oid);
        table_ent t;
        int r = c ? 1 : find_lake_table(x, oid, &t);
        if (r < 0)
            return -1;
        if (r == 0 || (!c && oid != t.oid))
            return 2;
        if (p.super)
            return 1;
        if (grant)
            return 0;
        unsigned held = c ? RL_ACL_SELECT : 0;
        if (p.reads_all)
            held |= RL_ACL_SELECT;
        if (p.writes_all && !c)
            held |= RL_ACL_INSERT | RL_ACL_UPDATE | RL_ACL_DELETE;
        return (held & privs) != 0;
    }
    if (kind == RL_ACL_SCHEMA) {
        /* the caller resolved the schema's name: oid is known to exist */
        if (p.super)
            return 1;
        if (grant)
            return 0;
        bool usage = p.reads_all || p.writes_all || oid == PG_CATALOG_NAMESPACE_OID ||
                     oid == rl_pgcatalog_namespace_oid("public") ||
                     oid == rl_pgcatalog_namespace_oid("information_schema");
        return (privs & RL_ACL_USAGE) && usage;
    }
    /* the database: CONNECT and TEMPORARY are PUBLIC's */
    if (p.super)
        return 1;
    return !grant && (privs & (RL_ACL_CONNECT | RL_ACL_TEMPORARY)) != 0;
}

bool rl_pgcatalog_role_super(rl_exec *x, uint32_t role)
{
    role_power p;
    return role_power_of(x, role, &p) == 1 && p.super;
}

bool rl_pgcatalog_role_member(rl_exec *x, uint32_t member, uint32_t role)
{
    role_power p;
    if (role_power_of(x, member, &p) == 0)
        return false;
    if (p.super || member == role)
        return true;
    if (p.reads_all && role == 6181) /* a read-only login role's one grant */
        return true;
    /* pg_monitor's grants in a fresh PostgreSQL 15 (fixed_auth_members) */
    return member == 3373 && (role == 3374 || role == 3375 || role == 3377);
}

/* PostgreSQL's SQL-standard spellings of its built-in types. */
static void quote_ident(const char *s, char *buf, size_t n);

static const char *standard_type_name(uint32_t oid)
{
    switch (oid) {
    case RL_OID_BOOL: return "boolean";
    case RL_OID_CHAR: return "\"char\"";
    case RL_OID_INT2: return "smallint";
    case RL_OID_INT4: return "integer";
    case RL_OID_INT8: return "bigint";
    case RL_OID_FLOAT4: return "real";
    case RL_OID_FLOAT8: return "double precision";
    case RL_OID_BPCHAR: return "character";
    case RL_OID_VARCHAR: return "character varying";
    case RL_OID_TIME: return "time without time zone";
    case RL_OID_TIMETZ: return "time with time zone";
    case RL_OID_TIMESTAMP: return "timestamp without time zone";
    case RL_OID_TIMESTAMPTZ: return "timestamp with time zone";
    case 1560: return "bit";
    case 1562: return "bit varying";
    case RL_OID_NUMERIC: return "numeric";   /* keywords format_type spells bare */
    case RL_OID_INTERVAL: return "interval";
    default: return NULL;
    }
}

/* The type modifier as format_type prints it, into buf. */
static void format_typmod(uint32_t oid, int32_t typmod, char *buf, size_t n, const char *base)
{
    switch (oid) {
    case RL_OID_BPCHAR:
    case RL_OID_VARCHAR:
        snprintf(buf, n, "%s(%d)", base, typmod - 4);
        return;
    case RL_OID_NUMERIC:
        snprintf(buf, n, "numeric(%d,%d)", ((typmod - 4) >> 16) & 0xffff, (typmod - 4) & 0xffff);
        return;
    case RL_OID_TIME:
    case RL_OID_TIMETZ:
    case RL_OID_TIMESTAMP:
    case RL_OID_TIMESTAMPTZ: {
        const char *sp = strchr(base, ' ');
        snprintf(buf, n, "%.*s(%d)%s", (int)(sp - base), base, typmod, sp);
        return;
    }
    case 1560:
    case 1562:
    case RL_OID_CHAR: /* not one of format_type's own spellings: printtypmod's */
        snprintf(buf, n, "%s(%d)", base, typmod);
        return;
    default:
        snprintf(buf, n, "%s", base);
    }
}

/* The session's temporary table whose row type (or, *arr, that row
 * type's array type) is oid, by its pg_temp oid (sql_resolve.c): its name,
 * NULL for none. No catalog view lists them, but the search path finds
 * them first, so they print bare. */
static const char *temp_rowtype(rl_exec *x, uint32_t oid, bool *arr)
{
    for (const rl_temp_table *t = x && x->s ? x->s->temps : NULL; t; t = t->next) {
        uint32_t rel = rl_pgcatalog_rel_oid("pg_temp", t->name);
        *arr = oid == arraytype_oid(rel);
        if (oid == rowtype_oid(rel) || *arr)
            return t->name;
    }
    return NULL;
}

void rl_pgcatalog_format_type(rl_exec *x, uint32_t oid, int32_t typmod, char *buf, size_t n)
{
    assert(n > 0);
    if (oid == 0) { /* format_type_extended's InvalidOid */
        snprintf(buf, n, "-");
        return;
    }
    const pg15_type *ty = pg15_type_by_oid(oid);
    bool temp_arr;
    const char *temp = ty ? NULL : temp_rowtype(x, oid, &temp_arr);
    if (temp) {
        snprintf(buf, n, "%s%s", temp, temp_arr ? "[]" : "");
        return;
    }
    if (!ty) {
        table_ent t;
        if (find_lake_table(x, oid, &t) == 1 &&
            (oid == rowtype_oid(t.oid) || oid == arraytype_oid(t.oid))) {
            const char *arr = oid == arraytype_oid(t.oid) ? "[]" : "";
            if (schema_on_path(x, t.schema))
                snprintf(buf, n, "%s%s", t.name, arr);
            else
                snprintf(buf, n, "%s.%s%s", t.schema, t.name, arr);
        } else {
            snprintf(buf, n, "???");
        }
        return;
    }
    /* a true array type (IsTrueArrayType) not stored plain: int2vector and
     * oidvector print as themselves */
    if (ty->typelem && ty->typsubscript == 6179 && ty->typstorage != 'p') {
        char elem[128];
        rl_pgcatalog_format_type(x, ty->typelem, typmod, elem, sizeof elem);
        snprintf(buf, n, "%s[]", elem);
        return;
    }
    const char *std = standard_type_name(oid);
    char base[160];
    if (std)
        snprintf(base, sizeof base, "%s", std);
    else if (ty->nsoid == PG_CATALOG_NAMESPACE_OID) /* quoted as a keyword needs: "any" */
        quote_ident(pg15_s(ty->name), base, sizeof base);
    else
        snprintf(base, sizeof base, "information_schema.%s", pg15_s(ty->name));
    if (typmod >= 0 && (std || oid == RL_OID_NUMERIC))
        format_typmod(oid, typmod, buf, n, base);
    else if (typmod >= 0 && !ty->typmodout) /* printtypmod of a type without typmodout */
        snprintf(buf, n, "%s(%d)", base, typmod);
    else
        snprintf(buf, n, "%s", base);
}

void rl_pgcatalog_format_type_typmod(rl_exec *x, uint32_t oid, int32_t typmod, char *buf,
                                     size_t n)
{
    if (oid == RL_OID_BPCHAR && typmod < 0)
        snprintf(buf, n, "bpchar");
    else
        rl_pgcatalog_format_type(x, oid, typmod, buf, n);
}

const char *rl_pgcatalog_description(uint32_t oid, uint32_t classoid)
{
    const size_t n = PG15_DESCRIPTIONS_COUNT; /* may be 0: no -Wtype-limits */
    for (size_t i = 0; i < n; i++)
        if (pg15_descriptions[i].objoid == oid && pg15_descriptions[i].objsubid == 0 &&
            (!classoid || pg15_descriptions[i].classoid == classoid))
            return pg15_s(pg15_descriptions[i].description);
    return NULL;
}

static void qualified(rl_exec *x, const char *schema, const char *name, char *buf, size_t n);

/* pg_get_indexdef's text of index e on t: the whole CREATE INDEX (col 0:
 * the table qualified unless pretty and on the search path, each key
 * column with DESC and NULLS FIRST/LAST where they differ from the
 * default, the INCLUDE columns, NULLS NOT DISTINCT, the predicate), column
 * col's (1-based: a column's name, an expression's text), or "" past the
 * last. Expressions and the predicate print as stored (plain or pretty). */
static void index_definition(rl_exec *x, const table_ent *t, const index_ent *e, int col,
                             bool pretty, char *buf, size_t n)
{
    char q[RL_INDEX_NAME_MAX * 2 + 3];
    const rl_index_def *d = &e->def;
    if (col > 0) {
        size_t i = (size_t)col - 1;
        if (i >= d->ncols + d->ninclude)
            snprintf(buf, n, "%s", "");
        else if (i < d->ncols && (d->opts[i] & RL_INDEX_COL_EXPR))
            snprintf(buf, n, "%s", rl_index_def_expr(d, i, pretty));
        else
            quote_ident(d->cols[i], buf, n);
        return;
    }
    char name[RL_INDEX_NAME_MAX * 2 + 3], table[RL_INDEX_NAME_MAX * 4 + 8];
    quote_ident(e->name, name, sizeof name);
    if (pretty)
        qualified(x, t->schema, t->name, table, sizeof table);
    else {
        quote_ident(t->schema, q, sizeof q);
        size_t l = (size_t)snprintf(table, sizeof table, "%s.", q);
        quote_ident(t->name, table + l, sizeof table - l);
    }
    static const char *const am[] = {"btree", "hash", "brin", "spgist"};
    size_t len = (size_t)snprintf(buf, n, "CREATE %sINDEX %s ON %s USING %s (",
                                  d->unique ? "UNIQUE " : "", name, table, am[d->method]);
    for (size_t i = 0; i < d->ncols + d->ninclude && len < n; i++) {
        if (i == d->ncols)
            len += (size_t)snprintf(buf + len, n - len, ") INCLUDE (");
        if (len >= n)
            break;
        const char *sep = i && i != d->ncols ? ", " : "";
        if (i >= d->ncols) {
            quote_ident(d->cols[i], q, sizeof q);
            len += (size_t)snprintf(buf + len, n - len, "%s%s", sep, q);
            continue;
        }
        uint8_t o = d->opts[i];
        bool desc = o & RL_INDEX_COL_DESC, nulls_first = o & RL_INDEX_COL_NULLS_FIRST;
        if (!(o & RL_INDEX_COL_EXPR))
            quote_ident(d->cols[i], q, sizeof q);
        len += (size_t)snprintf(buf + len, n - len, "%s%s%s%s", sep,
                                o & RL_INDEX_COL_EXPR ? rl_index_def_expr(d, i, pretty) : q,
                                desc ? " DESC" : "",
                                desc && !nulls_first   ? " NULLS LAST"
                                : !desc && nulls_first ? " NULLS FIRST"
                                                       : "");
    }
    if (len < n)
        len += (size_t)snprintf(buf + len, n - len, ")%s",
                                d->nulls_not_distinct ? " NULLS NOT DISTINCT" : "");
    if (len < n && d->partial)
        snprintf(buf + len, n - len, " WHERE %s", rl_index_def_pred(d, pretty));
}

int rl_pgcatalog_index_expr(rl_exec *x, const char *tree, bool pretty, char *buf, size_t n)
{
    unsigned oid;
    if (sscanf(tree, NODE_TREE_PRED, &oid) != 1)
        return 0;
    table_ent t;
    index_ent ix;
    int found = find_lake_index(x, oid, &t, &ix);
    if (found <= 0)
        return found;
    if (!ix.def.partial)
        return 0;
    snprintf(buf, n, "%s", rl_index_def_pred(&ix.def, pretty));
    return 1;
}

int rl_pgcatalog_indexdef(rl_exec *x, uint32_t oid, int col, bool pretty, char *buf, size_t n)
{
    if (temp_indexdef(x, oid, col, pretty, buf, n))
        return 1;
    table_ent t;
    index_ent ix;
    int found = find_lake_index(x, oid, &t, &ix);
    if (found != 0) {
        if (found > 0)
            index_definition(x, &t, &ix, col, pretty, buf, n);
        return found;
    }
    int r = find_lake_table(x, oid, &t);
    if (r <= 0 || oid != index_oid(t.oid) || !has_pk(&t))
        return r < 0 ? -1 : 0;
    const char *key = t.d->cols[t.d->pk_col].name;
    if (col > 1)
        snprintf(buf, n, "%s", "");
    else if (col == 1)
        snprintf(buf, n, "%s", key);
    else if (pretty && schema_on_path(x, t.schema))
        snprintf(buf, n, "CREATE UNIQUE INDEX %s_pkey ON %s USING btree (%s)", t.name, t.name, key);
    else
        snprintf(buf, n, "CREATE UNIQUE INDEX %s_pkey ON %s.%s USING btree (%s)", t.name,
                 t.schema, t.name, key);
    return 1;
}

int rl_pgcatalog_primary_key(rl_exec *x, uint32_t reloid, int16_t *attnums, size_t cap)
{
    for (size_t i = 0; i < PG15_CONSTRAINTS_COUNT; i++) { /* a system catalog's */
        const pg15_constraint *k = &pg15_constraints[i];
        if (k->conrelid != reloid || k->contype != 'p')
            continue;
        size_t n = 0;
        for (const char *p = pg15_s(k->conkey); p && *p && n < cap; p++)
            if (*p >= '0' && *p <= '9') {
                attnums[n++] = (int16_t)strtol(p, (char **)&p, 10);
                p--;
            }
        return (int)n;
    }
    table_ent t;
    int r = find_lake_table(x, reloid, &t);
    if (r <= 0 || t.oid != reloid || cap == 0)
        return r < 0 ? -1 : 0;
    if (has_pk(&t)) {
        attnums[0] = (int16_t)(t.d->pk_col + 1);
        return 1;
    }
    gen_ctx g; /* a PRIMARY KEY constraint made with the table or added */
    int found = load_listing(&g, x, "pg_index");
    for (size_t i = 0; found == 0 && i < g.nindexes; i++) {
        const index_ent *e = &g.indexes[i];
        const table_ent *et = &g.tables[e->table];
        if (!e->def.primary || et->oid != reloid)
            continue;
        size_t n = 0;
        for (size_t c = 0; c < e->def.ncols && n < cap; c++) {
            int col = index_column(et, e, c);
            if (col >= 0)
                attnums[n++] = (int16_t)(col + 1);
        }
        found = (int)n;
    }
    gen_release(&g);
    return found;
}

/* pg_get_constraintdef of a key constraint: PRIMARY KEY (a, b), UNIQUE
 * [NULLS NOT DISTINCT] (a), then INCLUDE (c) with its INCLUDE columns. */
static void key_constraint_def(const index_ent *e, char *buf, size_t n)
{
    size_t len = (size_t)snprintf(buf, n, "%s (", e->def.primary ? "PRIMARY KEY"
                                                  : e->def.nulls_not_distinct
                                                      ? "UNIQUE NULLS NOT DISTINCT"
                                                      : "UNIQUE");
    for (size_t i = 0; i < e->def.ncols + e->def.ninclude && len < n; i++) {
        char q[RL_INDEX_NAME_MAX * 2 + 3];
        quote_ident(e->def.cols[i], q, sizeof q);
        len += (size_t)snprintf(buf + len, n - len, "%s%s",
                                i == e->def.ncols ? ") INCLUDE (" : i ? ", " : "", q);
    }
    if (len < n)
        snprintf(buf + len, n - len, ")");
}

/* The key constraint whose oid is `oid` (an index's constraint_oid): 1,
 * 0 none, -1 error. */
static int find_key_constraint(rl_exec *x, uint32_t oid, table_ent *t, index_ent *out)
{
    if (oid < REL_OID_BASE || !x || !x->s)
        return 0;
    gen_ctx g;
    int found = load_listing(&g, x, "pg_constraint");
    for (size_t i = 0; found == 0 && i < g.nindexes; i++)
        if (g.indexes[i].def.constraint && constraint_oid(g.indexes[i].oid) == oid) {
            *out = g.indexes[i];
            *t = g.tables[g.indexes[i].table];
            found = 1;
        }
    gen_release(&g);
    return found;
}

/* What a search for a FOREIGN KEY's definition text is after. */
typedef struct fkey_def_find {
    rl_exec *x;
    uint32_t oid;
    char *buf;
    size_t n;
    int found;
} fkey_def_find;

static const char *action_text(char a)
{
    switch (a) {
    case RL_FKEY_RESTRICT: return "RESTRICT";
    case RL_FKEY_CASCADE: return "CASCADE";
    case RL_FKEY_SET_NULL: return "SET NULL";
    case RL_FKEY_SET_DEFAULT: return "SET DEFAULT";
    default: return NULL;
    }
}

/* pg_get_constraintdef of a FOREIGN KEY: FOREIGN KEY (a) REFERENCES t(b)
 * [MATCH FULL] [ON UPDATE ..] [ON DELETE ..] [DEFERRABLE [INITIALLY DEFERRED]]
 * [NOT VALID], the table
 * qualified when off the search path. */
static int fkey_text(fkey_walk *w, const fkey_view *v)
{
    fkey_def_find *f = w->ctx;
    if (v->oid != f->oid)
        return 0;
    rl_buf b;
    rl_buf_init(&b, 0);
    char q[RL_INDEX_NAME_MAX * 2 + 3], table[RL_INDEX_NAME_MAX * 4 + 8];
    rl_buf_put_str(&b, "FOREIGN KEY (");
    for (size_t j = 0; j < v->def.ncols; j++) {
        quote_ident(v->def.cols[j], q, sizeof q);
        rl_buf_printf(&b, "%s%s", j ? ", " : "", q);
    }
    qualified(f->x, v->ref_schema, v->ref.table, table, sizeof table);
    rl_buf_printf(&b, ") REFERENCES %s(", table);
    for (size_t j = 0; j < v->def.ncols; j++) {
        quote_ident(v->ref.cols[v->def.ref_pos[j]], q, sizeof q);
        rl_buf_printf(&b, "%s%s", j ? ", " : "", q);
    }
    rl_buf_put_str(&b, ")");
    if (v->def.match_full)
        rl_buf_put_str(&b, " MATCH FULL");
    if (action_text(v->def.on_update))
        rl_buf_printf(&b, " ON UPDATE %s", action_text(v->def.on_update));
    if (action_text(v->def.on_delete))
        rl_buf_printf(&b, " ON DELETE %s", action_text(v->def.on_delete));
    if (v->def.deferrable)
        rl_buf_put_str(&b, " DEFERRABLE");
    if (v->def.initially_deferred)
        rl_buf_put_str(&b, " INITIALLY DEFERRED");
    if (v->def.not_valid)
        rl_buf_put_str(&b, " NOT VALID");
    snprintf(f->buf, f->n, "%.*s", (int)b.len, b.data ? (const char *)b.data : "");
    rl_buf_free(&b);
    f->found = 1;
    return 1;
}

static int fkey_constraintdef(rl_exec *x, uint32_t oid, char *buf, size_t n)
{
    if (oid < CONSTRAINT_OID_OFFSET || !x || !x->s)
        return 0;
    gen_ctx g;
    if (load_listing(&g, x, "pg_constraint") < 0)
        return -1;
    fkey_def_find f = {x, oid, buf, n, 0};
    int rc = 0;
    for (size_t i = 0; rc == 0 && !f.found && i < g.ntables; i++)
        rc = each_fkey(&g, &g.tables[i], fkey_text, &f);
    gen_release(&g);
    return rc < 0 ? -1 : f.found;
}

int rl_pgcatalog_constraintdef(rl_exec *x, uint32_t oid, bool pretty, char *buf, size_t n)
{
    for (size_t i = 0; i < PG15_CONSTRAINTS_COUNT; i++) { /* a system catalog's or domain's */
        const pg15_constraint *k = &pg15_constraints[i];
        if (k->oid != oid)
            continue;
        snprintf(buf, n, "%s", pg15_s(pretty ? k->condef_pretty : k->condef));
        return 1;
    }
    if (oid >= REL_OID_BASE && temp_constraintdef(x, oid, pretty, buf, n))
        return 1;
    if (oid >= REL_OID_BASE) {
        int c = find_check_def(x, oid, pretty, buf, n);
        if (c != 0)
            return c;
    }
    table_ent t;
    index_ent ix;
    int found = find_key_constraint(x, oid, &t, &ix);
    if (found != 0) {
        if (found > 0)
            key_constraint_def(&ix, buf, n);
        return found;
    }
    found = fkey_constraintdef(x, oid, buf, n);
    if (found != 0)
        return found;
    int r = find_lake_table(x, oid, &t);
    if (r <= 0 || oid != constraint_oid(t.oid) || !has_pk(&t))
        return r < 0 ? -1 : 0;
    snprintf(buf, n, "PRIMARY KEY (%s)", t.d->cols[t.d->pk_col].name);
    return 1;
}

/* ========================================================= reg* types
 *
 * regclass, regtype, regnamespace, regrole, regproc and regprocedure: an oid that
 * reads and prints as a name, looked up in this transaction's catalog. */

/* PostgreSQL's quote_ident (keywords included). */
static void quote_ident(const char *s, char *buf, size_t n) { rl_quote_ident(s, buf, n); }

/* schema.name as regclassout prints it: bare on the search path. */
static void qualified(rl_exec *x, const char *schema, const char *name, char *buf, size_t n)
{
    char q[140], qs[140];
    quote_ident(name, q, sizeof q);
    /* pg_temp comes first: a temporary relation of the name hides it */
    bool hidden = temp_hides(x, name);
    if (strcmp(schema, "pg_temp") == 0 || is_temp_ns(x, schema) ||
        (schema_on_path(x, schema) && !hidden)) {
        snprintf(buf, n, "%s", q);
        return;
    }
    quote_ident(schema, qs, sizeof qs);
    snprintf(buf, n, "%s.%s", qs, q);
}

static const char *pg15_namespace_name(uint32_t oid)
{
    for (size_t i = 0; i < PG15_NAMESPACES_COUNT; i++)
        if (pg15_namespaces[i].oid == oid)
            return pg15_s(pg15_namespaces[i].name);
    return NULL;
}

/* The lake schema whose oid is `oid` (not one of PostgreSQL's): 1 (into
 * buf), 0 none, -1 error. */
static int lake_schema_by_oid(rl_exec *x, uint32_t oid, char *buf, size_t n)
{
    if (oid < 16384 || !x || !x->s)
        return 0;
    schema_list l = {.err = x->err};
    if (created_schemas(x, &l) < 0) {
        free(l.names);
        if (!x->err->sqlstate[0])
            rl_exec_error(x, RL_SQLSTATE_INTERNAL_ERROR, -1, "out of memory");
        return -1;
    }
    int found = 0;
    for (size_t i = 0; i < l.n && !found; i++)
        if (rl_pgcatalog_namespace_oid(l.names[i]) == oid) {
            snprintf(buf, n, "%s", l.names[i]);
            found = 1;
        }
    free(l.names);
    return found;
}

/* Names PostgreSQL 15 declares more overloads of than the function table
 * has (lower(anyrange), length(bytea), ...): regproc qualifies them on
 * output and refuses them on input, as PostgreSQL does. */
static bool pg_overloaded(const char *name)
{
    static const char *const names[] = {"array_to_string", "char_length", "length", "lower",
                                        "pg_database_size", "pg_size_pretty", "upper"};
    size_t count = 0;
    for (size_t i = 0; i < N(names); i++)
        if (strcmp(names[i], name) == 0)
            return true;
    for (size_t i = 0; i < N(procs); i++)
        count += strcmp(procs[i].name, name) == 0;
    return count > 1;
}

static const proc_def *proc_by_oid(uint32_t oid)
{
    for (size_t i = 0; i < N(procs); i++)
        if (procs[i].oid == oid)
            return &procs[i];
    return NULL;
}

/* The arguments of a captured pg_proc row (its argtypes text) into
 * argtypes[cap]: how many. */
static size_t captured_args(const pg15_proc *a, uint32_t *argtypes, size_t cap)
{
    size_t nargs = 0;
    for (const char *p = pg15_s(a->argtypes); *p && nargs < cap;) {
        char *end;
        unsigned long v = strtoul(p, &end, 10);
        if (end == p)
            break;
        argtypes[nargs++] = (uint32_t)v;
        p = end;
    }
    return nargs;
}

/* Functions of that name pg_proc lists (the function table's and the
 * captured rows'). */
static size_t procs_named(const char *name)
{
    size_t count = 0;
    for (size_t i = 0; i < N(procs); i++)
        count += strcmp(procs[i].name, name) == 0;
    for (size_t i = 0; i < PG15_AGGPROCS_COUNT; i++)
        count += strcmp(pg15_s(pg15_aggprocs[i].name), name) == 0;
    for (size_t i = 0; i < PG15_CASTPROCS_COUNT; i++)
        count += castproc_callable(&pg15_castprocs[i]) &&
                 strcmp(pg15_s(pg15_castprocs[i].name), name) == 0;
    return count;
}

/* regproc / regprocedure output of a captured row (an aggregate, a window
 * function, a cast's function): 1, 0 when oid is none of them. */
static int captured_proc_name(rl_exec *x, uint32_t type, uint32_t oid, char *buf, size_t n)
{
    const pg15_proc *a = captured_proc(oid);
    if (!a)
        return 0;
    const char *name = pg15_s(a->name);
    if (type == RL_OID_REGPROC) {
        snprintf(buf, n, "%s%s", procs_named(name) > 1 ? "pg_catalog." : "", name);
        return 1;
    }
    uint32_t args[RL_FUNC_MAX_ARGS + 1];
    size_t nargs = captured_args(a, args, N(args));
    size_t off = (size_t)snprintf(buf, n, "%s(", name);
    for (size_t i = 0; i < nargs && off < n; i++) {
        char t[128];
        rl_pgcatalog_format_type(x, args[i], -1, t, sizeof t);
        off += (size_t)snprintf(buf + off, n - off, "%s%s", i ? "," : "", t);
    }
    if (off < n)
        snprintf(buf + off, n - off, ")");
    return 1;
}

int rl_pgcatalog_find_proc(const char *name, int nargs, const uint32_t *argtypes, uint32_t *oid,
                           char *prokind)
{
    int found = 0;
    for (size_t i = 0; i < N(procs); i++) {
        const proc_def *f = &procs[i];
        if (strcmp(f->name, name) != 0 ||
            (nargs >= 0 && (f->nargs != nargs ||
                            (nargs && memcmp(f->argtypes, argtypes,
                                             (size_t)nargs * sizeof *argtypes)))))
            continue;
        if (found++ == 0) {
            *oid = f->oid;
            *prokind = 'f';
        }
    }
    const struct { const pg15_proc *rows; size_t count; } captured[] = {
        {pg15_aggprocs, PG15_AGGPROCS_COUNT}, {pg15_castprocs, PG15_CASTPROCS_COUNT}};
    for (size_t k = 0; k < N(captured); k++) {
        for (size_t i = 0; i < captured[k].count; i++) {
            const pg15_proc *a = &captured[k].rows[i];
            if (strcmp(pg15_s(a->name), name) != 0 || (a->kind == 'f' && !castproc_callable(a)))
                continue;
            uint32_t args[RL_FUNC_MAX_ARGS + 1];
            size_t n = captured_args(a, args, N(args));
            if (nargs >= 0 && (n != (size_t)nargs || (n && memcmp(args, argtypes, n * sizeof *args))))
                continue;
            if (found++ == 0) {
                *oid = a->oid;
                *prokind = a->kind;
            }
        }
    }
    return found > 1 ? 2 : found;
}

char rl_pgcatalog_relkind(uint32_t oid)
{
    const pg15_class *c = pg15_class_by_oid(oid);
    return c ? c->relkind : 0;
}

/* A function the captured catalogs name that the function table has not
 * (array_in, int4eq, record_in, ...): known by name for regproc only. */
static const pg15_procname *procname_by_oid(uint32_t oid)
{
    for (size_t i = 0; i < PG15_PROCNAMES_COUNT; i++)
        if (pg15_procnames[i].oid == oid)
            return &pg15_procnames[i];
    return NULL;
}

static const pg15_procname *procname_by_name(const char *name)
{
    for (size_t i = 0; i < PG15_PROCNAMES_COUNT; i++)
        if (strcmp(pg15_s(pg15_procnames[i].name), name) == 0)
            return &pg15_procnames[i];
    return NULL;
}

/* regtypeout: format_type without a modifier; 0 for no such type. */
static int regtype_name(rl_exec *x, uint32_t oid, char *buf, size_t n)
{
    table_ent t;
    bool arr;
    if (!pg15_type_by_oid(oid) && !temp_rowtype(x, oid, &arr)) {
        int r = find_lake_table(x, oid, &t);
        if (r <= 0 || (oid != rowtype_oid(t.oid) && oid != arraytype_oid(t.oid)))
            return r < 0 ? -1 : 0;
    }
    rl_pgcatalog_format_type(x, oid, -1, buf, n);
    return 1;
}

static int regclass_name(rl_exec *x, uint32_t oid, char *buf, size_t n)
{
    const pg15_class *c = pg15_class_by_oid(oid);
    if (c) {
        const char *ns = pg15_namespace_name(c->nsoid);
        qualified(x, ns ? ns : "pg_catalog", pg15_s(c->name), buf, n);
        return 1;
    }
    /* one of the session's temporary tables or sequences (its pg_temp oid,
     * sql_resolve.c): the search path finds it first, so its bare name */
    table_ent te;
    const rl_temp_table *tt;
    const rl_temp_key *tk;
    if (find_temp(x, oid, false, &te, &tt, &tk)) {
        quote_ident(tk ? tk->name : tt->name, buf, n);
        return 1;
    }
    for (const rl_temp_seq *q = x->s ? x->s->temp_seqs : NULL; q; q = q->next)
        if (rl_pgcatalog_rel_oid("pg_temp", q->name) == oid) {
            quote_ident(q->name, buf, n);
            return 1;
        }
    table_ent t;
    index_ent ix;
    int r = find_lake_index(x, oid, &t, &ix);
    if (r != 0) {
        if (r > 0)
            qualified(x, t.schema, ix.name, buf, n);
        return r;
    }
    seq_ent se;
    r = find_sequence(x, oid, &se);
    if (r != 0) {
        if (r > 0)
            qualified(x, se.schema, se.name, buf, n);
        return r;
    }
    r = find_lake_table(x, oid, &t);
    if (r <= 0 || (oid != t.oid && !(oid == index_oid(t.oid) && has_pk(&t))))
        return r < 0 ? -1 : 0;
    char idx[160];
    snprintf(idx, sizeof idx, "%s_pkey", t.name);
    qualified(x, t.schema, oid == t.oid ? t.name : idx, buf, n);
    return 1;
}

/* The row of a captured catalog's cells (ncols a row) whose column `col`
 * reads `value` (an oid as its digits), NULL for none. */
static const uint32_t *captured_row(const uint32_t *cells, size_t ncells, size_t ncols,
                                    size_t col, const char *value)
{
    assert(col < ncols);
    for (size_t r = 0; (r + 1) * ncols <= ncells; r++) {
        const char *cell = pg15_s(cells[r * ncols + col]); /* NULL: a NULL cell */
        if (cell && strcmp(cell, value) == 0)
            return &cells[r * ncols];
    }
    return NULL;
}

#define TS_DICT_ROW(col, value)                                                               \
    captured_row(pg15_cap_pg_ts_dict_cells, N(pg15_cap_pg_ts_dict_cells),                    \
                 N(pg15_cap_pg_ts_dict_cols), col, value)
#define TS_PARSER_ROW(col, value)                                                             \
    captured_row(pg15_cap_pg_ts_parser_cells, N(pg15_cap_pg_ts_parser_cells),                \
                 N(pg15_cap_pg_ts_parser_cols), col, value)

/* pg_ts_dict's dictname of an oid (column 0 the oid, 1 the name), and back. */
static const char *ts_dict_name(uint32_t oid)
{
    char digits[16];
    snprintf(digits, sizeof digits, "%u", oid);
    const uint32_t *row = TS_DICT_ROW(0, digits);
    return row ? pg15_s(row[1]) : NULL;
}

static uint32_t ts_dict_oid(const char *name)
{
    const uint32_t *row = TS_DICT_ROW(1, name);
    return row ? (uint32_t)strtoul(pg15_s(row[0]), NULL, 10) : 0;
}

int rl_pgcatalog_token_type(uint32_t parser, size_t i, int32_t *tokid, const char **alias,
                            const char **description)
{
    size_t k = 0;
    for (size_t j = 0; j < PG15_TOKEN_TYPES_COUNT; j++) {
        const pg15_token_type *t = &pg15_token_types[j];
        if (t->parser != parser || k++ != i)
            continue;
        *tokid = t->tokid;
        *alias = pg15_s(t->alias);
        *description = pg15_s(t->description);
        return 1;
    }
    return 0;
}

uint32_t rl_pgcatalog_ts_parser_oid(const char *name)
{
    const uint32_t *row = TS_PARSER_ROW(1, name);
    return row ? (uint32_t)strtoul(pg15_s(row[0]), NULL, 10) : 0;
}

bool rl_pgcatalog_ts_parser_exists(uint32_t oid)
{
    char digits[16];
    snprintf(digits, sizeof digits, "%u", oid);
    return TS_PARSER_ROW(0, digits) != NULL;
}

int rl_pgcatalog_reg_name(rl_exec *x, uint32_t type, uint32_t oid, char *buf, size_t n)
{
    assert(n > 0);
    if (oid == 0) {
        snprintf(buf, n, "-");
        return 1;
    }
    switch (type) {
    case RL_OID_REGCLASS: return regclass_name(x, oid, buf, n);
    case RL_OID_REGTYPE: return regtype_name(x, oid, buf, n);
    case RL_OID_REGDICTIONARY: { /* the captured pg_ts_dict's (all in pg_catalog) */
        const char *name = ts_dict_name(oid);
        if (name)
            quote_ident(name, buf, n);
        return name != NULL;
    }
    case RL_OID_REGNAMESPACE: {
        const char *ns = pg15_namespace_name(oid);
        char lake[64];
        int r = ns ? 1 : temp_ns_by_oid(x, oid, lake, sizeof lake);
        if (r == 0)
            r = lake_schema_by_oid(x, oid, lake, sizeof lake);
        if (r > 0)
            quote_ident(ns ? ns : lake, buf, n);
        return r;
    }
    case RL_OID_REGROLE: { /* a role pg_roles lists */
        const char *role = rl_pgcatalog_role_name(x, oid);
        if (role)
            quote_ident(role, buf, n);
        return role != NULL;
    }
    case RL_OID_REGPROC:
    case RL_OID_REGPROCEDURE: {
        const proc_def *f = proc_by_oid(oid);
        const pg15_procname *pn = f ? NULL : procname_by_oid(oid);
        if (pn && type == RL_OID_REGPROC) {
            char q[160];
            quote_ident(pg15_s(pn->name), q, sizeof q);
            snprintf(buf, n, "%s%s", pn->overloaded ? "pg_catalog." : "", q);
            return 1;
        }
        if (pn) {
            snprintf(buf, n, "%s", pg15_s(pn->signature));
            return 1;
        }
        if (!f)
            return captured_proc_name(x, type, oid, buf, n);
        if (type == RL_OID_REGPROC) {
            snprintf(buf, n, "%s%s", pg_overloaded(f->name) ? "pg_catalog." : "", f->name);
            return 1;
        }
        size_t off = (size_t)snprintf(buf, n, "%s(", f->name);
        for (size_t i = 0; i < f->nargs && off < n; i++) {
            char t[128];
            rl_pgcatalog_format_type(x, f->argtypes[i], -1, t, sizeof t);
            off += (size_t)snprintf(buf + off, n - off, "%s%s", i ? "," : "", t);
        }
        if (off < n)
            snprintf(buf + off, n - off, ")");
        return 1;
    }
    default: return 0;
    }
}

/* The SQL spellings regtype input accepts besides pg_type.typname. */
static uint32_t type_alias(const char *name)
{
    static const struct { const char *name; uint32_t oid; } aliases[] = {
        {"int", RL_OID_INT4}, {"integer", RL_OID_INT4}, {"smallint", RL_OID_INT2},
        {"bigint", RL_OID_INT8}, {"real", RL_OID_FLOAT4}, {"float", RL_OID_FLOAT8},
        {"double precision", RL_OID_FLOAT8}, {"boolean", RL_OID_BOOL},
        {"character varying", RL_OID_VARCHAR}, {"varchar", RL_OID_VARCHAR},
        {"character", 1042}, {"char", 1042}, {"decimal", RL_OID_NUMERIC},
        {"dec", RL_OID_NUMERIC}, {"timestamp", RL_OID_TIMESTAMP},
        {"timestamp without time zone", RL_OID_TIMESTAMP},
        {"timestamp with time zone", RL_OID_TIMESTAMPTZ}, {"time", RL_OID_TIME},
        {"time without time zone", RL_OID_TIME}, {"time with time zone", RL_OID_TIMETZ},
        {"bit varying", 1562}};
    for (size_t i = 0; i < N(aliases); i++)
        if (strcmp(aliases[i].name, name) == 0)
            return aliases[i].oid;
    return 0;
}

/* A type name (lower-cased unless it was quoted, schema split off) to its
 * oid, 0 if none: PostgreSQL's own types by name or SQL spelling (not a
 * quoted name: '"char"' is the type named char, oid 18, where 'char' is
 * character), the lake's row types by table name. */
static int type_by_name(rl_exec *x, const char *schema, const char *name, bool quoted,
                        uint32_t *oid)
{
    size_t len = strlen(name);
    if (len > 2 && strcmp(name + len - 2, "[]") == 0) { /* elem[] */
        char elem[128];
        snprintf(elem, sizeof elem, "%.*s", (int)(len - 2), name);
        uint32_t e;
        int r = type_by_name(x, schema, elem, quoted, &e);
        if (r <= 0)
            return r;
        const pg15_type *et = pg15_type_by_oid(e);
        *oid = et ? et->typarray
                  : rl_oid_is_rowtype(e)
                      ? arraytype_oid(e - ROWTYPE_OID_OFFSET) /* a lake table's row type */
                      : 0;
        return *oid != 0;
    }
    uint32_t a = schema || quoted ? 0 : type_alias(name);
    if (a) {
        *oid = a;
        return 1;
    }
    for (size_t i = 0; i < PG15_TYPES_COUNT; i++) {
        const pg15_type *t = &pg15_types[i];
        if (strcmp(pg15_s(t->name), name) != 0)
            continue;
        const char *ns = pg15_namespace_name(t->nsoid);
        if (schema ? ns && strcmp(ns, schema) == 0 : t->nsoid == PG_CATALOG_NAMESPACE_OID) {
            *oid = t->oid;
            return 1;
        }
    }
    for (const rl_temp_table *t = x->s && (!schema || strcmp(schema, "pg_temp") == 0)
                                      ? x->s->temps
                                      : NULL;
         t; t = t->next) { /* a temporary table's: pg_temp comes first */
        uint32_t rel = rl_pgcatalog_rel_oid("pg_temp", t->name);
        if (strcmp(t->name, name) == 0 || (name[0] == '_' && strcmp(t->name, name + 1) == 0)) {
            *oid = name[0] == '_' && strcmp(t->name, name + 1) == 0 ? arraytype_oid(rel)
                                                                      : rowtype_oid(rel);
            return 1;
        }
    }
    gen_ctx g; /* a lake table's row type, by the search path without a schema */
    int found = x->s ? load_listing(&g, x, "pg_class") : (memset(&g, 0, sizeof g), 0);
    for (size_t i = 0; found == 0 && i < g.ntables; i++) {
        const table_ent *t = &g.tables[i];
        /* _<table> is its row type's array type */
        bool arr = name[0] == '_' && strcmp(t->name, name + 1) == 0;
        if ((arr || strcmp(t->name, name) == 0) &&
            (schema ? strcmp(t->schema, schema) == 0 : schema_on_path(x, t->schema))) {
            *oid = arr ? arraytype_oid(t->oid) : rowtype_oid(t->oid);
            found = 1;
        }
    }
    gen_release(&g);
    return found;
}

static bool scanner_isspace(char ch)
{
    return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\f';
}

/* Keeps name p[0..len) in out[64], cut to 63 bytes at a character's start
 * (truncate_identifier, silently as SplitIdentifierString does). */
static void keep_name_part(const char *p, size_t len, char out[64])
{
    if (len > 63) {
        len = 63;
        while (len > 0 && ((unsigned char)p[len] & 0xC0) == 0x80)
            len--; /* not inside a UTF-8 sequence */
    }
    memcpy(out, p, len);
    out[len] = '\0';
}

int rl_qualified_name_split(const char *p, size_t len, rl_qualified_name *q)
{
    const char *s = p, *end = p + len;
    char tmp[1024];
    q->n = 0;
    while (s < end && scanner_isspace(*s))
        s++;
    if (s == end)
        return 1; /* no names: the caller's "invalid name syntax" */
    for (;;) {
        size_t o = 0;
        if (*s == '"') {
            for (s++;; s++) {
                if (s == end)
                    return 0; /* unterminated */
                if (*s == '"') {
                    if (s + 1 < end && s[1] == '"')
                        s++; /* a doubled quote is one */
                    else
                        break;
                }
                if (o < sizeof tmp)
                    tmp[o++] = *s;
            }
            s++; /* "" is a name: '"".x'::regclass is schema "" */
        } else {
            const char *start = s;
            while (s < end && *s != '.' && !scanner_isspace(*s))
                s++;
            if (s == start)
                return 0;
            for (const char *c = start; c < s && o < sizeof tmp; c++)
                tmp[o++] = *c >= 'A' && *c <= 'Z' ? (char)(*c + 32) : *c;
        }
        if (q->n < RL_QNAME_MAX)
            keep_name_part(tmp, o, q->part[q->n]);
        q->n++;
        while (s < end && scanner_isspace(*s))
            s++;
        if (s == end)
            return 1;
        if (*s != '.')
            return 0;
        s++;
        while (s < end && scanner_isspace(*s))
            s++;
    }
}

void rl_qualified_name_text(const rl_qualified_name *q, char *buf, size_t n)
{
    size_t o = 0;
    buf[0] = '\0';
    for (int i = 0; i < q->n && i < RL_QNAME_MAX && o < n; i++)
        o += (size_t)snprintf(buf + o, n - o, "%s%s", i ? "." : "", q->part[i]);
}

/* Split a reg* input's name into schema and name (both lower-cased unless
 * quoted; the schema "" when none): 1; 0 malformed; -1 an error set (a
 * name of three parts naming another database, or of more). */
static int split_name(rl_exec *x, const char *p, size_t len, char schema[128], char name[128],
                      bool *has_schema, int loc)
{
    rl_qualified_name q;
    if (!rl_qualified_name_split(p, len, &q) || q.n == 0)
        return 0;
    if (q.n > 3) {
        char text[4 * 64 + 4];
        rl_qualified_name_text(&q, text, sizeof text);
        rl_exec_error(x, RL_SQLSTATE_SYNTAX_ERROR, loc,
                      "improper qualified name (too many dotted names): %s", text);
        return -1;
    }
    if (q.n == 3 && strcmp(q.part[0], x && x->s ? x->s->eng->database : "") != 0) {
        char text[3 * 64 + 3];
        rl_qualified_name_text(&q, text, sizeof text);
        rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, loc,
                      "cross-database references are not implemented: %s", text);
        return -1;
    }
    *has_schema = q.n >= 2;
    snprintf(schema, 128, "%s", q.n >= 2 ? q.part[q.n - 2] : "");
    snprintf(name, 128, "%s", q.part[q.n - 1]);
    return 1;
}

int rl_pgcatalog_schema_exists(rl_exec *x, const char *schema)
{
    if (pg15_namespace_by_name(schema))
        return 1;
    if (!x || !x->s)
        return 0;
    schema_list l = {.err = x->err};
    int rc = created_schemas(x, &l);
    int found = 0;
    for (size_t i = 0; rc == 0 && i < l.n && !found; i++)
        found = strcmp(l.names[i], schema) == 0;
    free(l.names);
    if (rc < 0 && !x->err->sqlstate[0])
        rl_exec_error(x, RL_SQLSTATE_INTERNAL_ERROR, -1, "out of memory");
    return rc < 0 ? -1 : found;
}

int rl_pgcatalog_index_oid(rl_exec *x, const char *schema, const char *name, uint32_t *oid)
{
    size_t len = strlen(name);
    if (!x || !x->s)
        return 0;
    for (const rl_temp_table *t =
             !schema || rl_pgcatalog_is_temp_schema(x, schema) ? x->s->temps : NULL;
         t; t = t->next) /* a temporary table's index: pg_temp comes first */
        for (const rl_temp_key *k = t->keys; k; k = k->next)
            if (strcmp(k->name, name) == 0) {
                *oid = temp_oid(k->name);
                return 1;
            }
    gen_ctx g;
    int found = load_listing(&g, x, "pg_class");
    for (size_t i = 0; found == 0 && i < g.nindexes; i++) {
        const index_ent *e = &g.indexes[i];
        if (strcmp(e->name, name) == 0 &&
            (schema ? strcmp(e->schema, schema) == 0 : schema_on_path(x, e->schema))) {
            *oid = e->oid;
            found = 1;
        }
    }
    if (len <= 5 || strcmp(name + len - 5, "_pkey") != 0) {
        gen_release(&g);
        return found;
    }
    for (size_t i = 0; found == 0 && i < g.ntables; i++) {
        const table_ent *t = &g.tables[i];
        if (has_pk(t) && strlen(t->name) == len - 5 && strncmp(t->name, name, len - 5) == 0 &&
            (schema ? strcmp(t->schema, schema) == 0 : schema_on_path(x, t->schema))) {
            *oid = index_oid(t->oid);
            found = 1;
        }
    }
    gen_release(&g);
    return found;
}

int rl_pgcatalog_reg_oid(rl_exec *x, uint32_t type, const char *p, size_t len, uint32_t *oid,
                         int loc)
{
    while (len && (*p == ' ' || *p == '\t' || *p == '\n')) /* surrounding blanks */
        p++, len--;
    while (len && (p[len - 1] == ' ' || p[len - 1] == '\t' || p[len - 1] == '\n'))
        len--;
    char schema[128], name[128];
    bool has_schema;
    const char *args = type == RL_OID_REGPROCEDURE ? memchr(p, '(', len) : NULL;
    size_t namelen = args ? (size_t)(args - p) : len;
    char low[128];
    if (type == RL_OID_REGTYPE) {
        /* a modifier is parsed and ignored: varchar(10) is varchar,
         * timestamp(3) with time zone is timestamptz */
        size_t o = 0;
        int depth = 0;
        for (size_t i = 0; i < len && o + 1 < sizeof low; i++) {
            if (p[i] == '(' || p[i] == ')') {
                depth += p[i] == '(' ? 1 : -1;
                continue;
            }
            if (depth == 0 && !(p[i] == ' ' && o && low[o - 1] == ' '))
                low[o++] = p[i];
        }
        while (o && low[o - 1] == ' ')
            o--;
        low[o] = '\0';
        p = low;
        len = namelen = o;
        /* SQL's multi-word names are single names here */
        for (size_t i = 0; i < o && !strchr(low, '"'); i++)
            low[i] = (char)(low[i] >= 'A' && low[i] <= 'Z' ? low[i] + 32 : low[i]);
        if (strchr(low, ' ') && !strchr(low, '"') && !strchr(low, '.')) {
            char base[128];
            snprintf(base, sizeof base, "%s", low);
            bool arr = o > 2 && strcmp(low + o - 2, "[]") == 0;
            if (arr)
                base[o - 2] = '\0';
            uint32_t a = type_alias(base);
            if (!a)
                return 0;
            if (!arr) {
                *oid = a;
                return 1;
            }
            const pg15_type *t = pg15_type_by_oid(a);
            *oid = t ? t->typarray : 0;
            return *oid != 0;
        }
    } else if (type == RL_OID_REGPROCEDURE && !args) {
        return -3; /* "expected a left parenthesis" */
    }
    if (namelen == 0 && type == RL_OID_REGTYPE) {
        rl_exec_error(x, RL_SQLSTATE_SYNTAX_ERROR, loc, "invalid type name \"\"");
        return -1;
    }
    int split;
    size_t bare = namelen; /* the name without an array's "[]" */
    if (type == RL_OID_REGNAMESPACE || type == RL_OID_REGROLE) { /* one name, never qualified */
        rl_qualified_name q;
        if (!rl_qualified_name_split(p, namelen, &q) || q.n != 1)
            return -4;
        has_schema = false;
        schema[0] = '\0';
        snprintf(name, 128, "%s", q.part[0]);
        split = 1;
    } else {
        /* an array's "[]" follows the name, quoted or not ('"Int"[]') */
        bool array = false;
        while (type == RL_OID_REGTYPE && bare >= 2 && p[bare - 1] == ']' && p[bare - 2] == '[')
            bare -= 2, array = true;
        split = split_name(x, p, bare, schema, name, &has_schema, loc);
        if (split > 0 && array && strlen(name) + 2 < 128)
            strcat(name, "[]");
    }
    if (split <= 0)
        return split == 0 ? -4 : -1;
    /* pg_temp: the session's temporary schema, once it has a table */
    bool temp = has_schema && strcmp(schema, "pg_temp") == 0 && x->s && x->s->temps;
    int known = has_schema && !temp ? rl_pgcatalog_schema_exists(x, schema) : 1;
    if (known <= 0) {
        if (known == 0)
            rl_exec_error(x, RL_SQLSTATE_INVALID_SCHEMA_NAME, loc, "schema \"%s\" does not exist",
                          schema);
        return -1;
    }
    switch (type) {
    case RL_OID_REGTYPE:
        return type_by_name(x, has_schema ? schema : NULL, name, p[bare - 1] == '"', oid);
    case RL_OID_REGDICTIONARY:
        if (has_schema && strcmp(schema, "pg_catalog") != 0)
            return 0;
        *oid = ts_dict_oid(name);
        return *oid != 0;
    case RL_OID_REGNAMESPACE: {
        if (has_schema)
            return -4;
        const pg15_namespace *ns = pg15_namespace_by_name(name);
        if (ns) {
            *oid = ns->oid;
            return 1;
        }
        char tname[64];
        for (int toast = 0; temp_ns_exists(x) && toast < 2; toast++) {
            temp_ns_name(x, toast, tname, sizeof tname);
            if (strcmp(tname, name) == 0) {
                *oid = rl_pgcatalog_namespace_oid(tname);
                return 1;
            }
        }
        schema_list l = {.err = x->err};
        int rc = created_schemas(x, &l);
        int found = 0;
        for (size_t i = 0; rc == 0 && i < l.n && !found; i++)
            found = strcmp(l.names[i], name) == 0;
        free(l.names);
        if (rc < 0)
            return -1;
        if (found)
            *oid = rl_pgcatalog_namespace_oid(name);
        return found;
    }
    case RL_OID_REGROLE:
        return rl_pgcatalog_role_oid(x, name, oid);
    case RL_OID_REGPROC:
    case RL_OID_REGPROCEDURE: {
        if (has_schema && strcmp(schema, "pg_catalog") != 0)
            return 0;
        if (type == RL_OID_REGPROC) {
            char kind;
            int hits = rl_pgcatalog_find_proc(name, -1, NULL, oid, &kind);
            bool hit = hits > 0;
            if (hits == 2 || (hit && pg_overloaded(name)))
                return -2;
            const pg15_procname *pn = hit ? NULL : procname_by_name(name);
            if (pn && pn->overloaded)
                return -2;
            if (pn)
                *oid = pn->oid;
            return hit || pn;
        }
        /* name(type, ...): each argument through regtype's input
         * (parseNameAndArgTypes: blanks around each, "()" none) */
        uint32_t want[RL_FUNC_MAX_ARGS];
        size_t nargs = 0;
        const char *q = args + 1, *end = p + len;
        if (end <= q || end[-1] != ')') {
            rl_exec_error(x, RL_SQLSTATE_INVALID_TEXT_REPRESENTATION, loc,
                          "expected a right parenthesis");
            return -1;
        }
        end--;
        for (bool had_comma = false;; had_comma = true) {
            while (q < end && scanner_isspace(*q))
                q++;
            if (q == end && !had_comma)
                break; /* "()" */
            if (q == end) {
                rl_exec_error(x, RL_SQLSTATE_INVALID_TEXT_REPRESENTATION, loc,
                              "expected a type name");
                return -1;
            }
            const char *comma = memchr(q, ',', (size_t)(end - q));
            const char *stop = comma ? comma : end;
            uint32_t t;
            if (nargs == RL_FUNC_MAX_ARGS)
                return 0;
            int r = rl_pgcatalog_reg_oid(x, RL_OID_REGTYPE, q, (size_t)(stop - q), &t, loc);
            if (r == 0) {
                while (q < stop && *q == ' ')
                    q++;
                rl_exec_error(x, RL_SQLSTATE_UNDEFINED_OBJECT, loc, "type \"%.*s\" does not exist",
                              (int)(stop - q), q);
                return -1;
            }
            if (r < 0)
                return r;
            want[nargs++] = t;
            if (!comma)
                break;
            q = comma + 1;
        }
        char kind;
        return rl_pgcatalog_find_proc(name, (int)nargs, want, oid, &kind) > 0;
    }
    default: return 0;
    }
}

/* ================================================================ rows */

/* The fixed rows of every relation, built once per process. Their strings
 * live in these row sets' arenas, which live as long as the process, so an
 * answer's values may point into them. */
static rl_rowset *fixed_rows[N(vrels)];
static bool fixed_failed;
static pthread_once_t fixed_once = PTHREAD_ONCE_INIT;

static void build_fixed_rows(void)
{
    for (size_t i = 0; i < PG15_CLASSES_COUNT; i++)
        assert(pg15_classes[i].nsoid != PUBLIC_NAMESPACE_OID); /* pg15_class_by_name */
    for (size_t id = 0; id < N(vrels) && !fixed_failed; id++) {
        if (!vrels[id].fixed)
            continue;
        rl_error err;
        memset(&err, 0, sizeof err);
        gen_ctx g;
        memset(&g, 0, sizeof g);
        g.err = &err;
        g.id = (int)id;
        g.rs = fixed_rows[id] = rl_pgcatalog_columns((int)id);
        if (!g.rs || vrels[id].fixed(&g) < 0)
            fixed_failed = true;
    }
}

/* ---------------------------------------------- fixed-row lookups
 *
 * A key set of a few integers (oids: attrelid, pg_type.oid, objoid ...)
 * finds its fixed rows through a sorted index of that column, built once
 * per process on first use, instead of testing every fixed row (2,000+ of
 * pg_attribute). Row order is kept: the found rows are copied in row order. */

typedef struct fixed_entry {
    int64_t v;
    uint32_t row;
} fixed_entry;

typedef struct fixed_index {
    _Atomic(fixed_entry *) entries; /* published once built; NULL before */
    size_t n;
} fixed_index;

#define FIXED_INDEX_COLS 8 /* key columns worth indexing are among the first */
static fixed_index fixed_row_indexes[N(vrels)][FIXED_INDEX_COLS];
static pthread_mutex_t fixed_index_mu = PTHREAD_MUTEX_INITIALIZER;

static int cmp_fixed_entry(const void *a, const void *b)
{
    const fixed_entry *x = a, *y = b;
    if (x->v != y->v)
        return x->v < y->v ? -1 : 1;
    return x->row < y->row ? -1 : x->row > y->row;
}

/* The index of column col of relation id's fixed rows, or NULL (out of
 * memory, or a column that is not int-like). */
static const fixed_index *fixed_index_of(int id, size_t col, const rl_rowset *f)
{
    if (col >= FIXED_INDEX_COLS || !rl_oid_is_intlike(f->cols[col].oid))
        return NULL;
    fixed_index *ix = &fixed_row_indexes[id][col];
    if (atomic_load(&ix->entries))
        return ix;
    pthread_mutex_lock(&fixed_index_mu);
    if (!atomic_load(&ix->entries)) {
        fixed_entry *e = malloc((f->nrows + 1) * sizeof *e);
        size_t n = 0;
        for (size_t r = 0; e && r < f->nrows; r++) {
            const rl_value *v = &f->vals[r * f->ncols + col];
            if (!v->d.isnull)
                e[n++] = (fixed_entry){v->d.v.i, (uint32_t)r};
        }
        if (e) {
            qsort(e, n, sizeof *e, cmp_fixed_entry);
            ix->n = n;
            atomic_store(&ix->entries, e);
        }
    }
    pthread_mutex_unlock(&fixed_index_mu);
    return atomic_load(&ix->entries) ? ix : NULL;
}

static int cmp_u32(const void *a, const void *b)
{
    uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
    return x < y ? -1 : x > y;
}

/* Rows of f whose column has one of k's values, in row order, through the
 * index; -1 when the index cannot serve (the caller tests every row). */
static int fixed_lookup(int id, const rl_rowset *f, const rl_keyset *k, pgc_sink *sink,
                        const rl_scan_keys *keys)
{
    if (k->string || k->n > 64)
        return -1;
    const fixed_index *ix = fixed_index_of(id, k->col, f);
    if (!ix)
        return -1;
    const fixed_entry *e = atomic_load(&ix->entries);
    uint32_t *rows = NULL;
    size_t nrows = 0, cap = 0;
    for (size_t i = 0; i < k->n; i++) {
        size_t lo = 0, hi = ix->n; /* first entry >= value */
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (e[mid].v < k->vals[i].d.v.i)
                lo = mid + 1;
            else
                hi = mid;
        }
        for (; lo < ix->n && e[lo].v == k->vals[i].d.v.i; lo++) {
            uint32_t *grown = rl_array_reserve(rows, nrows, &cap, sizeof *grown, 16);
            if (!grown) {
                free(rows);
                return -1;
            }
            rows = grown;
            rows[nrows++] = e[lo].row;
        }
    }
    if (nrows > 1)
        qsort(rows, nrows, sizeof *rows, cmp_u32);
    int rc = 0;
    for (size_t i = 0; i < nrows && rc == 0; i++) {
        const rl_value *row = &f->vals[(size_t)rows[i] * f->ncols];
        if (rl_scan_keys_admit(keys, row)) /* the other key sets */
            rc = sink_put(sink, row, true);
    }
    free(rows);
    return rc < 0 ? -2 : 0;
}

/* Put relation id's fixed rows that the key sets admit into the sink
 * (values only: their strings stay in the shared arenas). */
static int put_fixed_rows(rl_exec *x, int id, pgc_sink *sink, const rl_scan_keys *keys)
{
    if (!vrels[id].fixed)
        return 0;
    pthread_once(&fixed_once, build_fixed_rows);
    const rl_rowset *f = fixed_rows[id];
    if (fixed_failed || !f)
        return rl_exec_error(x, RL_SQLSTATE_INTERNAL_ERROR, -1, "out of memory");
    for (size_t i = 0; keys && i < keys->n; i++) {
        int rc = fixed_lookup(id, f, &keys->sets[i], sink, keys);
        if (rc != -1)
            return rc == 0 ? 0 : -1;
    }
    if ((!keys || keys->n == 0) && !sink->filter &&
        rl_rowset_reserve(sink->dst, f->nrows) < 0)
        return rl_exec_error(x, RL_SQLSTATE_INTERNAL_ERROR, -1, "out of memory");
    for (size_t r = 0; r < f->nrows; r++) {
        const rl_value *row = &f->vals[r * f->ncols];
        if (rl_scan_keys_admit(keys, row) && sink_put(sink, row, true) < 0)
            return -1;
    }
    return 0;
}

/* dst column j's source: the relation's column attnum - 1, or the ctid. */
static int sink_map(rl_exec *x, int id, const rl_rowset *dst, size_t *map)
{
    for (size_t j = 0; j < dst->ncols; j++) {
        int16_t a = dst->cols[j].attnum;
        if (a == RL_CTID_ATTNUM)
            map[j] = MAP_CTID;
        else if (a >= 1 && (size_t)a <= vrels[id].ncols)
            map[j] = (size_t)a - 1;
        else
            return rl_exec_error(x, RL_SQLSTATE_INTERNAL_ERROR, -1,
                                 "column %zu of a %s scan has no source (attnum %d)", j,
                                 vrels[id].name, a);
    }
    return 0;
}

int rl_pgcatalog_fill(rl_exec *x, int id, const rl_scan_keys *keys, const rl_row_filter *filter,
                      rl_rowset *dst)
{
    assert(id >= 0 && (size_t)id < N(vrels) && dst->nrows == 0);
    pgc_sink sink = {.x = x, .dst = dst, .filter = filter};
    sink.map = malloc((dst->ncols ? dst->ncols : 1) * sizeof *sink.map);
    sink.out = malloc((dst->ncols ? dst->ncols : 1) * sizeof *sink.out);
    int rc = sink.map && sink.out ? sink_map(x, id, dst, sink.map)
                                  : rl_exec_error(x, RL_SQLSTATE_INTERNAL_ERROR, -1,
                                                  "out of memory");
    gen_ctx g;
    memset(&g, 0, sizeof g);
    g.x = x;
    g.err = x->err;
    g.sink = &sink;
    g.keys = keys;
    g.id = id;
    if (rc == 0)
        rc = put_fixed_rows(x, id, &sink, keys);
    if (rc == 0 && vrels[id].gen)
        rc = vrels[id].gen(&g);
    gen_release(&g);
    free(sink.map);
    free(sink.out);
    return rc < 0 ? -1 : 0;
}

/* ======================================================= result keys */

bool rl_pgcatalog_pure(int id)
{
    assert(id >= 0 && (size_t)id < N(vrels));
    return !vrels[id].per_session;
}

/* A name with its terminator, so that ("ab","c") and ("a","bc") differ. */
static void put_name(rl_buf *out, const char *s)
{
    rl_buf_put_str(out, s);
    rl_buf_put_u8(out, 0);
}

/* The fingerprint of the session's current transactions, kept while they
 * last: DuckDB's discovery batch asks for it five times in one transaction,
 * and on a 10,000-table lake each listing takes some 10 ms. `versions`
 * holds rl_txn_relations_version of the home lake's transaction and then
 * of every other lake's (rl_lakes_each_other order); a DDL call in any of
 * them gives it a new version, so a kept fingerprint never outlives the
 * relations it describes. */
struct rl_pgc_memo {
    rl_buf versions, bytes;
};

void rl_pgcatalog_memo_free(rl_session *s)
{
    if (!s->pgc_memo)
        return;
    rl_buf_free(&s->pgc_memo->versions);
    rl_buf_free(&s->pgc_memo->bytes);
    free(s->pgc_memo);
    s->pgc_memo = NULL;
}

static int put_version(void *ctx, rl_txn *t, rl_format fmt)
{
    (void)fmt;
    rl_buf_put_be64(ctx, rl_txn_relations_version(t));
    return 0;
}

/* One table's part of the fingerprint. */
static void put_table(rl_buf *out, const table_ent *te)
{
    put_name(out, te->schema);
    put_name(out, te->name);
    rl_buf_put_svarint(out, has_pk(te) ? te->d->pk_col : -1);
    rl_buf_put_uvarint(out, te->ncols);
    for (size_t c = 0; c < te->ncols; c++) {
        const rl_column_desc *col = &te->d->cols[c];
        put_name(out, col->name);
        rl_buf_put_uvarint(out, (uint64_t)col->type);
        rl_buf_put_svarint(out, col->typmod);
        rl_buf_put_u8(out, col->not_null ? 1 : 0);
    }
}

/* Everything a pure relation's generated rows are made of (see the gen_*
 * functions above): the lake's schemas, and per table its schema, name,
 * primary key and the columns this transaction sees, with name, type,
 * typmod and NOT NULL; then every index CREATE INDEX made, with its table,
 * method and key columns. Fixed rows are PostgreSQL 15's, the same for every
 * lake, and oids are functions of names. The table list is this
 * statement's (load_tables), so the scans that follow reuse it. */
static int compute_fingerprint(rl_exec *x, rl_buf *out)
{
    gen_ctx g;
    memset(&g, 0, sizeof g);
    g.x = x;
    g.err = x->err;
    g.id = 1; /* pg_class; no keys: every table */
    if (load_tables(&g) < 0)
        return -1;
    schema_list l = {.err = x->err};
    int rc = created_schemas(x, &l);
    rl_buf_put_uvarint(out, l.n);
    for (size_t i = 0; rc == 0 && i < l.n; i++)
        put_name(out, l.names[i]);
    free(l.names);
    rl_buf_put_be64(out, g.ntables);
    for (size_t i = 0; rc == 0 && i < g.ntables; i++)
        put_table(out, &g.tables[i]);
    /* the comments, and the indexes CREATE INDEX made: a renamed or dropped
     * one changes rows */
    rl_buf_put_be64(out, g.ncomments);
    for (size_t i = 0; rc == 0 && i < g.ncomments; i++) {
        put_name(out, g.comments[i].schema);
        put_name(out, g.comments[i].rel);
        put_name(out, g.comments[i].col);
        put_name(out, (const char *)g.texts.data + g.comments[i].text);
    }
    rl_buf_put_be64(out, g.nindexes);
    for (size_t i = 0; rc == 0 && i < g.nindexes; i++) {
        const index_ent *e = &g.indexes[i];
        put_name(out, e->name);
        rl_buf_put_uvarint(out, e->table);
        rl_buf_put_u8(out, (uint8_t)e->def.method);
        rl_buf_put_uvarint(out, e->def.ncols);
        for (size_t c = 0; c < e->def.ncols; c++) {
            put_name(out, e->def.cols[c]);
            rl_buf_put_u8(out, e->def.opts[c]);
        }
    }
    /* the sequences: pg_class rows (relkind 'S') */
    seq_list sl;
    if (rc == 0 && load_sequences(x, &sl) == 0) {
        rl_buf_put_be64(out, sl.n);
        for (size_t i = 0; i < sl.n; i++) {
            put_name(out, sl.v[i].schema);
            put_name(out, sl.v[i].name);
        }
        free(sl.v);
    } else if (rc == 0) {
        rc = -1;
    }
    /* the CHECK constraints: pg_constraint and pg_class.relchecks show them */
    const rl_check_con *ck = NULL;
    size_t nck = 0;
    rl_txn *txn = rc == 0 ? rl_exec_txn(x) : NULL;
    if (rc == 0 && (!txn || rl_txn_checks(txn, &ck, &nck, NULL, x->err) < 0))
        rc = -1;
    rl_buf_put_be64(out, nck);
    for (size_t i = 0; rc == 0 && i < nck; i++) {
        put_name(out, ck[i].schema);
        put_name(out, ck[i].def.table);
        put_name(out, ck[i].name);
        rl_buf_put_u8(out, (uint8_t)(ck[i].def.not_valid | ck[i].def.no_inherit << 1));
        put_name(out, ck[i].def.expr);
        rl_buf_put_uvarint(out, ck[i].def.nconkey);
        for (size_t k = 0; k < ck[i].def.nconkey; k++)
            rl_buf_put_uvarint(out, (uint64_t)ck[i].def.conkey[k]);
    }
    gen_release(&g);
    return rc;
}

int rl_pgcatalog_fingerprint(rl_exec *x, rl_buf *out)
{
    rl_session *s = x->s;
    rl_txn *t = rl_exec_txn(x);
    if (!t)
        return -1;
    rl_buf versions;
    rl_buf_init(&versions, 0);
    put_version(&versions, t, RL_FMT_1_0);
    int rc = rl_lakes_each_other(x, put_version, &versions) != 0 ? -1 : 0;
    struct rl_pgc_memo *m = s->pgc_memo;
    if (rc == 0 && m && !versions.failed && m->versions.len == versions.len &&
        memcmp(m->versions.data, versions.data, versions.len) == 0) {
        rl_buf_put(out, m->bytes.data, m->bytes.len);
        rl_buf_free(&versions);
        return out->failed ? rl_exec_error(x, RL_SQLSTATE_INTERNAL_ERROR, -1, "out of memory")
                           : 0;
    }
    size_t start = out->len;
    if (rc == 0)
        rc = compute_fingerprint(x, out);
    if (rc == 0 && out->failed)
        rc = rl_exec_error(x, RL_SQLSTATE_INTERNAL_ERROR, -1, "out of memory");
    else if (rc < 0 && x->err && !x->err->sqlstate[0])
        rl_exec_error(x, RL_SQLSTATE_INTERNAL_ERROR, -1, "out of memory");
    rl_pgcatalog_memo_free(s);
    if (rc == 0 && !versions.failed && (m = calloc(1, sizeof *m))) {
        m->versions = versions; /* moved */
        rl_buf_init(&versions, 0);
        rl_buf_init(&m->bytes, 0);
        rl_buf_put(&m->bytes, out->data + start, out->len - start);
        if (m->bytes.failed) {
            rl_buf_free(&m->versions);
            rl_buf_free(&m->bytes);
            free(m);
        } else {
            s->pgc_memo = m;
        }
    }
    rl_buf_free(&versions);
    return rc;
}
