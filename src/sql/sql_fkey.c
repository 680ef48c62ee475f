/*
 * sql_fkey.c — FOREIGN KEY constraints as PostgreSQL 15 makes, names,
 * drops and follows them.
 *
 * Owns: REFERENCES / FOREIGN KEY of CREATE TABLE and ALTER TABLE ADD
 * checked as PostgreSQL checks them (the referenced table's primary key
 * when no columns are named, 42830 when no UNIQUE index has exactly the
 * referenced columns, 42804 for key columns of incompatible types, 42710
 * a name the table's constraints hold), the name PostgreSQL chooses
 * (<table>_<columns>_fkey, fkey1, fkey2 ... while a constraint of the
 * schema holds it), and the definition handed to the catalog
 * (rl_txn_create_fkey, which enforces it); DROP / RENAME CONSTRAINT of
 * one; DEFERRABLE [INITIALLY DEFERRED] kept with it, ALTER CONSTRAINT of
 * it, SET CONSTRAINTS (its names found as PostgreSQL finds them: 42704,
 * 42809 for a key that is not DEFERRABLE, the 25P01 warning outside a
 * transaction block); what a table's DDL does to the FOREIGN KEYs on it and to those
 * that reference it (DROP TABLE 2BP01 or CASCADE's notice, renames
 * followed, a dropped column's constraints dropped).
 *
 * Invariants: a definition's referenced index is a UNIQUE index over
 * exactly the referenced columns (in any order, as PostgreSQL's
 * transformFkeyCheckAttrs); key columns pair up by position with the
 * referenced ones and are of one type family (integers, character
 * strings, or one type), so that the catalog's equality bytes of the two
 * sides compare as PostgreSQL's cross-type equality operators do (a text
 * or varchar column of a character(n) key keyed as bpchar: bpchar_cols).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sql/sql_exec.h"
#include "sql/sql_parse.h"
#include "sql/sql_pgcatalog.h"
#include "sql/sql_relation.h"
#include "sql/sql_scan.h"
#include "sql/sql_stmt.h"

#define NAMEDATALEN RL_INDEX_NAME_MAX

static int notice(rl_exec *x, const char *fmt, const char *a, const char *b)
{
    rl_error n;
    memset(&n, 0, sizeof n);
    rl_error_set(&n, RL_SQLSTATE_SUCCESSFUL_COMPLETION, fmt, a, b);
    if (x->sink && x->sink->notice)
        x->sink->notice(x->sink->ctx, &n);
    return 0;
}

/* ----------------------------------------------------------- columns */

/* The type of schema.table's column `name` (its rowset shape): the oid,
 * or 0 if there is no such column. */
static uint32_t column_type(const rl_rowset *shape, const char *name)
{
    for (size_t c = 0; c < shape->ncols; c++)
        if (shape->cols[c].attnum > 0 && strcmp(shape->cols[c].name, name) == 0)
            return shape->cols[c].oid;
    return 0;
}

/* Integers compare with integers, text with varchar: the catalog's
 * equality bytes of both are the same (rl_datum_equality_key). */
static uint32_t type_family(uint32_t oid)
{
    switch (oid) {
    case RL_OID_INT2:
    case RL_OID_INT4:
    case RL_OID_INT8: return RL_OID_INT8;
    case RL_OID_VARCHAR:
    case RL_OID_TEXT: return RL_OID_TEXT;
    default: return oid;
    }
}

/* A text or varchar child column of a character(n) key: rl_fkey_def's
 * bpchar_cols. */
static bool text_keyed_as_bpchar(uint32_t ct, uint32_t pt)
{
    return type_family(ct) == RL_OID_TEXT && pt == RL_OID_BPCHAR;
}

static bool string_category(uint32_t oid)
{
    return oid == RL_OID_TEXT || oid == RL_OID_VARCHAR || oid == RL_OID_BPCHAR;
}

/* Whether a child's column of type ct may reference its parent's of type
 * pt, compared as PostgreSQL's equality would compare them: one family; a
 * character(n) child of a text or varchar key (its equality bytes lose the
 * padding as its cast to text does); a text or varchar child of a
 * character(n) key (PostgreSQL casts it to bpchar and compares with
 * bpchar's =, blind to trailing blanks: its bytes are keyed as bpchar's,
 * text_keyed_as_bpchar). */
static bool key_types_match(uint32_t ct, uint32_t pt)
{
    return type_family(ct) == type_family(pt) ||
           (ct == RL_OID_BPCHAR && type_family(pt) == RL_OID_TEXT) ||
           text_keyed_as_bpchar(ct, pt);
}

static bool numeric_category(uint32_t oid)
{
    return oid == RL_OID_INT2 || oid == RL_OID_INT4 || oid == RL_OID_INT8 ||
           oid == RL_OID_NUMERIC || oid == RL_OID_FLOAT4 || oid == RL_OID_FLOAT8;
}

/* A String list's names into out (at most RL_INDEX_MAX_KEYS): the count,
 * or -1 with 54011. */
static int name_list(rl_exec *x, PgQuery__Node **items, size_t n, const char **out)
{
    if (n > RL_INDEX_MAX_KEYS)
        return rl_exec_error(x, RL_SQLSTATE_TOO_MANY_COLUMNS, -1,
                             "cannot have more than %d keys in a foreign key",
                             RL_INDEX_MAX_KEYS);
    for (size_t i = 0; i < n; i++)
        out[i] = items[i]->node_case == PG_QUERY__NODE__NODE_STRING ? items[i]->string->sval : "";
    return (int)n;
}

/* ------------------------------------------------------------- naming */

/* What a search of the schema's constraint names finds. */
typedef struct name_search {
    const char *schema, *table, *name;
    bool table_only; /* only the constraints of schema.table */
    bool hit;
} name_search;

static int fkey_named(void *ctx, const char *schema, const char *table, const char *name,
                      const rl_fkey_def *d)
{
    name_search *s = ctx;
    (void)d;
    if (strcmp(schema, s->schema) == 0 && strcmp(name, s->name) == 0 &&
        (!s->table_only || strcmp(table, s->table) == 0))
        s->hit = true;
    return s->hit;
}

static int index_named(void *ctx, const char *schema, const char *name, const rl_index_def *d)
{
    name_search *s = ctx;
    if (d->constraint && strcmp(schema, s->schema) == 0 && strcmp(name, s->name) == 0 &&
        (!s->table_only || strcmp(d->table, s->table) == 0))
        s->hit = true;
    return s->hit;
}

/* Does a constraint (a FOREIGN KEY, or a UNIQUE / PRIMARY KEY index) hold
 * `name` in the schema (table NULL) or on schema.table? 1, 0, -1. */
static int constraint_name_used(rl_exec *x, rl_txn *txn, const char *schema, const char *table,
                                const char *name)
{
    name_search s = {schema, table, name, table != NULL, false};
    if (rl_txn_list_fkeys(txn, schema, NULL, fkey_named, &s, x->err) < 0 ||
        (!s.hit && rl_txn_list_indexes(txn, index_named, &s, x->err) < 0))
        return -1;
    return s.hit;
}

/* ChooseConstraintName(table, <columns joined by '_'>, "fkey"): the first
 * of ..._fkey, ..._fkey1, ... that no constraint of the schema holds. */
static int choose_name(rl_exec *x, rl_txn *txn, const char *schema, const char *table,
                       const char *const *cols, size_t n, char *out)
{
    char joined[NAMEDATALEN] = "";
    size_t len = 0;
    for (size_t i = 0; i < n && len < NAMEDATALEN - 1; i++) {
        if (len)
            joined[len++] = '_';
        size_t l = strlen(cols[i]);
        if (l > NAMEDATALEN - 1 - len)
            l = NAMEDATALEN - 1 - len;
        memcpy(joined + len, cols[i], l);
        len += l;
        joined[len] = '\0';
    }
    for (int pass = 0;; pass++) {
        char label[16];
        snprintf(label, sizeof label, pass ? "fkey%d" : "fkey", pass);
        rl_object_name(table, joined, label, out);
        int used = constraint_name_used(x, txn, schema, NULL, out);
        if (used <= 0)
            return used;
    }
}

/* ------------------------------------------------ the referenced index */

/* What a search for the referenced UNIQUE index finds. */
typedef struct ref_search {
    const char *schema, *table;
    const char *const *cols; /* NULL: the primary key */
    size_t ncols;
    bool hit;
    rl_index_def def;
} ref_search;

static int ref_candidate(void *ctx, const char *schema, const char *name, const rl_index_def *d)
{
    ref_search *s = ctx;
    (void)name;
    if (!d->unique || strcmp(schema, s->schema) != 0 || strcmp(d->table, s->table) != 0 ||
        rl_index_def_computed(d)) /* transformFkeyCheckAttrs: no expressions, no predicate */
        return 0;
    if (!s->cols) {
        if (!d->primary)
            return 0;
    } else {
        if (d->ncols != s->ncols)
            return 0;
        for (size_t i = 0; i < s->ncols; i++) { /* the same set, in any order */
            size_t j = 0;
            while (j < d->ncols && strcmp(d->cols[j], s->cols[i]) != 0)
                j++;
            if (j == d->ncols)
                return 0;
        }
    }
    /* the first in creation order (PostgreSQL's: its index list by oid) */
    if (!s->hit || d->id < s->def.id)
        s->def = *d;
    s->hit = true;
    return 0;
}

/* ------------------------------------------------------------- adding */

static char action_of(const char *a)
{
    return a && a[0] ? a[0] : RL_FKEY_NO_ACTION;
}

static int refused(rl_exec *x, const char *what)
{
    return rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                         "RockLake does not support %s in a FOREIGN KEY", what);
}

/* The options RockLake does not keep: 0A000. */
static int supported_options(rl_exec *x, const PgQuery__Constraint *c)
{
    if (c->fk_matchtype && c->fk_matchtype[0] == 'p')
        return rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                             "MATCH PARTIAL not yet implemented");
    if (c->n_fk_del_set_cols)
        return refused(x, "a column list for SET NULL / SET DEFAULT");
    return 0;
}

/* The referencing columns (42703 for one the table lacks) paired with the
 * referenced ones (42830 when the counts differ), their types matched. */
static int pair_columns(rl_exec *x, const char *conname, const rl_rowset *child,
                        const rl_rowset *parent, const char *const *fk, size_t nfk,
                        const rl_index_def *ref, const char *const *pk, rl_fkey_def *out)
{
    for (size_t i = 0; i < nfk; i++)
        if (!column_type(child, fk[i]))
            return rl_exec_error(x, RL_SQLSTATE_UNDEFINED_COLUMN, -1,
                                 "column \"%s\" referenced in foreign key constraint does not "
                                 "exist",
                                 fk[i]);
    if (nfk != ref->ncols)
        return rl_exec_error(x, RL_SQLSTATE_INVALID_FOREIGN_KEY, -1,
                             "number of referencing and referenced columns for foreign key "
                             "disagree");
    out->ncols = nfk;
    for (size_t j = 0; j < nfk; j++) {
        const char *pcol = pk ? pk[j] : ref->cols[j];
        size_t pos = 0;
        while (pos < ref->ncols && strcmp(ref->cols[pos], pcol) != 0)
            pos++;
        uint32_t ct = column_type(child, fk[j]), pt = column_type(parent, pcol);
        if (!key_types_match(ct, pt)) {
            if ((numeric_category(ct) && numeric_category(pt)) ||
                (string_category(ct) && string_category(pt)))
                return rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                                     "RockLake compares foreign key columns of one type family "
                                     "only (integers, or text, varchar and character(n))");
            char a[128], b[128];
            rl_pgcatalog_format_type(x, ct, -1, a, sizeof a);
            rl_pgcatalog_format_type(x, pt, -1, b, sizeof b);
            rl_exec_error(x, RL_SQLSTATE_DATATYPE_MISMATCH, -1,
                          "foreign key constraint \"%s\" cannot be implemented", conname);
            rl_error_detail(x->err,
                            "Key columns \"%s\" and \"%s\" are of incompatible types: %s and %s.",
                            fk[j], pcol, a, b);
            return -1;
        }
        rl_str_copy(out->cols[j], sizeof out->cols[j], fk[j]);
        out->ref_pos[j] = (uint8_t)pos;
        if (text_keyed_as_bpchar(ct, pt))
            out->bpchar_cols |= 1u << j;
    }
    return 0;
}

/* The referenced table: a stored table (42809 otherwise; a temporary one
 * PostgreSQL's 42P16). 0, or -1. */
static int referenced_table(rl_exec *x, const PgQuery__RangeVar *rv, rl_relation *rel)
{
    if (rl_relation_resolve(x, rv, rel) < 0) {
        x->err->position = 0; /* PostgreSQL points at no REFERENCES target */
        return -1;
    }
    if (rel->kind == RL_REL_TEMP)
        return rl_exec_error(x, RL_SQLSTATE_INVALID_TABLE_DEFINITION, -1,
                             "constraints on permanent tables may reference only permanent "
                             "tables");
    if (rel->kind != RL_REL_STORED)
        return rl_exec_error(x, RL_SQLSTATE_WRONG_OBJECT_TYPE, -1,
                             "referenced relation \"%s\" is not a table", rel->name);
    return 0;
}

/* An action that rewrites the referencing rows (CASCADE on UPDATE, SET
 * NULL / SET DEFAULT): the catalog writes them below the SQL layer, which
 * evaluates CHECK constraints, so such an action and a CHECK on the
 * referencing table are not kept together (0A000) rather than let a row
 * past its CHECK. */
static bool rewrites_rows(char on_update, char on_delete)
{
    return on_update == RL_FKEY_CASCADE || on_update == RL_FKEY_SET_NULL ||
           on_update == RL_FKEY_SET_DEFAULT || on_delete == RL_FKEY_SET_NULL ||
           on_delete == RL_FKEY_SET_DEFAULT;
}

static int count_check(void *ctx, const rl_check_con *c)
{
    (void)c;
    (*(size_t *)ctx)++;
    return 0;
}

static int rewriting_fkey(void *ctx, const char *schema, const char *table, const char *name,
                          const rl_fkey_def *d)
{
    (void)schema, (void)table, (void)name;
    return rewrites_rows(d->on_update, d->on_delete) ? (*(bool *)ctx = true, 1) : 0;
}

int rl_fkey_check_conflict(rl_exec *x, rl_txn *txn, const char *schema, const char *table)
{
    bool found = false;
    if (rl_txn_list_fkeys(txn, schema, table, rewriting_fkey, &found, x->err) < 0)
        return -1;
    if (!found)
        return 0;
    return rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                         "RockLake does not keep CHECK constraints on table \"%s\", whose "
                         "foreign keys rewrite its rows (ON UPDATE CASCADE, SET NULL, SET "
                         "DEFAULT)",
                         table);
}

int rl_fkey_on_temp(rl_exec *x, const PgQuery__Constraint *c)
{
    rl_relation rel;
    if (rl_relation_resolve(x, c->pktable, &rel) < 0) {
        x->err->position = 0; /* as referenced_table's */
        return -1;
    }
    if (rel.kind == RL_REL_STORED)
        return rl_exec_error(x, RL_SQLSTATE_INVALID_TABLE_DEFINITION, -1,
                             "constraints on temporary tables may reference only temporary "
                             "tables");
    if (rel.kind != RL_REL_TEMP)
        return rl_exec_error(x, RL_SQLSTATE_WRONG_OBJECT_TYPE, -1,
                             "referenced relation \"%s\" is not a table", rel.name);
    return rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                         "RockLake does not keep foreign keys between temporary tables");
}

int rl_fkey_add(rl_exec *x, rl_txn *txn, const char *schema, const char *table,
                const PgQuery__Constraint *c, const char *column)
{
    if (rewrites_rows(action_of(c->fk_upd_action), action_of(c->fk_del_action))) {
        size_t nchecks = 0;
        if (rl_txn_table_checks(txn, schema, table, count_check, &nchecks, x->err) < 0)
            return -1;
        if (nchecks)
            return rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                                 "RockLake does not keep a foreign key that rewrites the rows of "
                                 "table \"%s\" (ON UPDATE CASCADE, SET NULL, SET DEFAULT) beside "
                                 "its CHECK constraints",
                                 table);
    }
    if (supported_options(x, c) < 0)
        return -1;
    const char *fk[RL_INDEX_MAX_KEYS], *pk[RL_INDEX_MAX_KEYS];
    int nfk = column ? 1 : name_list(x, c->fk_attrs, c->n_fk_attrs, fk);
    int npk = name_list(x, c->pk_attrs, c->n_pk_attrs, pk);
    if (nfk < 0 || npk < 0)
        return -1;
    if (column)
        fk[0] = column;
    rl_relation parent;
    if (!c->pktable || referenced_table(x, c->pktable, &parent) < 0)
        return -1;
    char name[NAMEDATALEN];
    if (c->conname && c->conname[0]) {
        rl_str_copy(name, sizeof name, c->conname);
        int used = constraint_name_used(x, txn, schema, table, name);
        if (used != 0)
            return used < 0 ? -1
                            : rl_exec_error(x, RL_SQLSTATE_DUPLICATE_OBJECT, -1,
                                            "constraint \"%s\" for relation \"%s\" already exists",
                                            name, table);
    } else if (choose_name(x, txn, schema, table, fk, (size_t)nfk, name) < 0) {
        return -1;
    }
    rl_rowset *pshape = rl_relation_shape(x, &parent, parent.name);
    if (!pshape)
        return -1;
    for (int i = 0; i < npk; i++)
        if (!column_type(pshape, pk[i])) {
            rl_rowset_free(pshape);
            return rl_exec_error(x, RL_SQLSTATE_UNDEFINED_COLUMN, -1,
                                 "column \"%s\" referenced in foreign key constraint does not "
                                 "exist",
                                 pk[i]);
        }
    rl_rowset_free(pshape);
    ref_search s = {.schema = parent.schema, .table = parent.name, .cols = npk ? pk : NULL,
                    .ncols = (size_t)npk};
    if (rl_txn_list_indexes(txn, ref_candidate, &s, x->err) < 0)
        return -1;
    if (!s.hit && parent.desc->pk_check != RL_PK_NONE && parent.desc->pk_col >= 0 &&
        (npk == 0 || (npk == 1 && strcmp(pk[0], parent.desc->cols[parent.desc->pk_col].name) == 0)))
        return rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                             "RockLake does not keep foreign keys that reference DuckLake's own "
                             "primary key of table \"%s\"",
                             parent.name);
    if (!s.hit && npk == 0)
        return rl_exec_error(x, RL_SQLSTATE_UNDEFINED_OBJECT, -1,
                             "there is no primary key for referenced table \"%s\"", parent.name);
    if (!s.hit)
        return rl_exec_error(x, RL_SQLSTATE_INVALID_FOREIGN_KEY, -1,
                             "there is no unique constraint matching given keys for referenced "
                             "table \"%s\"",
                             parent.name);
    rl_relation child;
    if (rl_relation_lookup(x, schema, table, &child) < 0)
        return -1;
    rl_rowset *cs = rl_relation_shape(x, &child, child.name);
    rl_rowset *ps = cs ? rl_relation_shape(x, &parent, parent.name) : NULL;
    rl_fkey_def *def = ps ? calloc(1, sizeof *def) : NULL;
    int rc = def ? pair_columns(x, name, cs, ps, fk, (size_t)nfk, &s.def, npk ? pk : NULL, def)
                 : -1;
    if (!def && ps)
        rc = rl_exec_error(x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    if (rc == 0) {
        def->ref_index_id = s.def.id;
        def->on_update = action_of(c->fk_upd_action);
        def->on_delete = action_of(c->fk_del_action);
        def->match_full = c->fk_matchtype && c->fk_matchtype[0] == 'f';
        def->not_valid = c->skip_validation;
        def->deferrable = c->deferrable || c->initdeferred;
        def->initially_deferred = c->initdeferred;
        rc = rl_txn_create_fkey(txn, schema, table, name, def, x->err);
    }
    free(def);
    rl_rowset_free(cs);
    rl_rowset_free(ps);
    return rc;
}

/* What CREATE TABLE's walk over its constraints adds the FOREIGN KEYs to. */
typedef struct create_fkeys {
    rl_exec *x;
    rl_txn *txn;
    const char *schema, *table;
} create_fkeys;

static int add_if_fkey(void *ctx, const PgQuery__Constraint *c, const char *column)
{
    create_fkeys *cf = ctx;
    if (c->contype != PG_QUERY__CONSTR_TYPE__CONSTR_FOREIGN)
        return 0;
    return rl_fkey_add(cf->x, cf->txn, cf->schema, cf->table, c, column) < 0 ? -1 : 0;
}

int rl_fkey_add_all(rl_exec *x, rl_txn *txn, const char *schema, const char *table,
                    const PgQuery__CreateStmt *st)
{
    create_fkeys cf = {x, txn, schema, table};
    return rl_create_constraints(st, add_if_fkey, &cf);
}

/* ------------------------------------------------- dropping, following */

int rl_fkey_find(rl_exec *x, rl_txn *txn, const char *schema, const char *table,
                 const char *name, rl_fkey_def *out)
{
    return rl_txn_find_fkey(txn, schema, table, name, out, x->err);
}

int rl_fkey_validate(rl_exec *x, rl_txn *txn, const char *schema, const char *table,
                     const char *name)
{
    rl_fkey_def def;
    int found = rl_txn_find_fkey(txn, schema, table, name, &def, x->err);
    if (found <= 0 || !def.not_valid)
        return found;
    def.not_valid = false;
    return rl_txn_replace_fkey(txn, schema, table, name, table, name, &def, x->err) < 0 ? -1 : 1;
}

/* ------------------------------------------------ DEFERRABLE, SET CONSTRAINTS */

int rl_fkey_alter(rl_exec *x, rl_txn *txn, const char *schema, const char *table,
                  const PgQuery__Constraint *c)
{
    rl_fkey_def def;
    int found = rl_txn_find_fkey(txn, schema, table, c->conname, &def, x->err);
    if (found <= 0)
        return found;
    /* the grammar's: INITIALLY DEFERRED implies DEFERRABLE, none of them
     * is NOT DEFERRABLE INITIALLY IMMEDIATE */
    bool deferrable = c->deferrable || c->initdeferred, deferred = c->initdeferred;
    if (def.deferrable == deferrable && def.initially_deferred == deferred)
        return 1;
    def.deferrable = deferrable;
    def.initially_deferred = deferred;
    return rl_txn_replace_fkey(txn, schema, table, c->conname, table, c->conname, &def, x->err) < 0
               ? -1
               : 1;
}

int rl_fkey_not_in_use(rl_exec *x, rl_txn *txn, const rl_table_desc *d, const char *what,
                       const char *table)
{
    int pending = rl_txn_fkey_pending_on(txn, d, x->err);
    if (pending <= 0)
        return pending;
    return rl_exec_error(x, RL_SQLSTATE_OBJECT_IN_USE, -1,
                         "cannot %s \"%s\" because it has pending trigger events", what, table);
}

/* The constraints SET CONSTRAINTS names: every constraint of that name in
 * its schema (PostgreSQL's names are per table, so one name may be
 * several FOREIGN KEYs), the DEFERRABLE ones' ids collected. */
typedef struct named_set {
    const char *name;
    bool found, not_deferrable;
    uint64_t *ids;
    size_t n, cap;
} named_set;

static int named_fkey(void *ctx, const char *schema, const char *table, const char *name,
                      const rl_fkey_def *d)
{
    named_set *ns = ctx;
    (void)schema, (void)table;
    if (strcmp(name, ns->name) != 0)
        return 0;
    ns->found = true;
    if (!d->deferrable) {
        ns->not_deferrable = true;
        return 0;
    }
    uint64_t *grown = rl_array_reserve(ns->ids, ns->n, &ns->cap, sizeof *grown, 4);
    if (!grown)
        return -1;
    ns->ids = grown;
    ns->ids[ns->n++] = d->id;
    return 0;
}

static int named_index(void *ctx, const char *schema, const char *name, const rl_index_def *d)
{
    named_set *ns = ctx;
    (void)schema;
    if (d->constraint && strcmp(name, ns->name) == 0)
        ns->found = ns->not_deferrable = true; /* RockLake keeps none DEFERRABLE */
    return 0;
}

/* One name of SET CONSTRAINTS: its deferrable ids appended to ns. */
static int set_constraint_name(rl_exec *x, rl_txn *txn, const PgQuery__RangeVar *rv, bool deferred,
                               named_set *ns)
{
    const char *schema = rv->schemaname && rv->schemaname[0] ? rv->schemaname : "public";
    if (!rl_txn_schema_exists(txn, schema))
        return rl_exec_error(x, RL_SQLSTATE_INVALID_SCHEMA_NAME, -1,
                             "schema \"%s\" does not exist", schema);
    ns->name = rv->relname;
    ns->found = ns->not_deferrable = false;
    if (rl_txn_list_fkeys(txn, schema, NULL, named_fkey, ns, x->err) != 0 ||
        rl_txn_list_indexes(txn, named_index, ns, x->err) != 0)
        return x->err->sqlstate[0] ? -1 : rl_exec_error(x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    const rl_check_con *chk;
    size_t nchk;
    uint64_t stamp;
    if (rl_txn_checks(txn, &chk, &nchk, &stamp, x->err) < 0)
        return -1;
    for (size_t i = 0; i < nchk; i++)
        if (strcmp(chk[i].schema, schema) == 0 && strcmp(chk[i].name, rv->relname) == 0)
            ns->found = ns->not_deferrable = true;
    /* a DuckLake table's own primary key: pg_constraint's <table>_pkey */
    size_t len = strlen(rv->relname);
    if (!ns->found && len > 5 && len < NAMEDATALEN && strcmp(rv->relname + len - 5, "_pkey") == 0) {
        char table[NAMEDATALEN];
        snprintf(table, sizeof table, "%.*s", (int)(len - 5), rv->relname);
        rl_error quiet;
        memset(&quiet, 0, sizeof quiet);
        const rl_table_desc *d = rl_txn_find_table(txn, schema, table, &quiet);
        if (d && !rl_desc_is_dynamic(d) && d->pk_check != RL_PK_NONE && d->pk_col >= 0)
            ns->found = ns->not_deferrable = true;
    }
    if (!ns->found)
        return rl_exec_error(x, RL_SQLSTATE_UNDEFINED_OBJECT, -1,
                             "constraint \"%s\" does not exist", rv->relname);
    if (ns->not_deferrable && deferred)
        return rl_exec_error(x, RL_SQLSTATE_WRONG_OBJECT_TYPE, -1,
                             "constraint \"%s\" is not deferrable", rv->relname);
    return 0;
}

int rl_fkey_set_constraints(rl_exec *x, const PgQuery__ConstraintsSetStmt *st)
{
    /* a simple query of several statements runs as one implicit block */
    const PgQuery__ParseResult *query = x->simple_query && x->s->pending
                                            ? rl_parsed_tree(x->s->pending) : NULL;
    if (!x->s->in_block && !(query && query->n_stmts > 1) && x->sink && x->sink->notice) {
        rl_error n;
        memset(&n, 0, sizeof n);
        rl_error_set(&n, RL_SQLSTATE_NO_ACTIVE_SQL_TRANSACTION,
                     "SET CONSTRAINTS can only be used in transaction blocks");
        x->sink->notice(x->sink->ctx, &n);
    }
    rl_txn *txn = rl_exec_txn(x);
    if (!txn)
        return -1;
    named_set ns = {0};
    int rc = 0;
    for (size_t i = 0; i < st->n_constraints && rc == 0; i++) {
        const PgQuery__Node *n = st->constraints[i];
        rc = n->node_case == PG_QUERY__NODE__NODE_RANGE_VAR
                 ? set_constraint_name(x, txn, n->range_var, st->deferred, &ns)
                 : rl_exec_error(x, RL_SQLSTATE_SYNTAX_ERROR, -1, "malformed SET CONSTRAINTS");
    }
    /* names of constraints that are not DEFERRABLE only (IMMEDIATE): nothing
     * to set (an empty list is not ALL) */
    bool nothing = st->n_constraints && ns.n == 0;
    if (rc == 0 && !nothing &&
        rl_txn_set_constraints(txn, st->n_constraints ? ns.ids : NULL, ns.n, st->deferred,
                               x->err) < 0)
        rc = -1;
    free(ns.ids);
    return rc < 0 ? -1 : rl_send_complete(x, "SET CONSTRAINTS");
}

/* One FOREIGN KEY that references an object being dropped. */
typedef struct dependent {
    char schema[NAMEDATALEN], table[NAMEDATALEN], name[NAMEDATALEN];
    uint64_t id;
} dependent;

static int by_id(const void *a, const void *b)
{
    uint64_t x = ((const dependent *)a)->id, y = ((const dependent *)b)->id;
    return (x > y) - (x < y);
}

typedef struct dependents {
    const rl_index_def *idx; /* referencing this index (by id) ... */
    const char *schema, *table; /* ... or any index of this table, but its own */
    uint64_t ids[64];
    size_t nids;
    dependent *d;
    size_t n, cap;
} dependents;

static int index_ids(void *ctx, const char *schema, const char *name, const rl_index_def *d)
{
    dependents *s = ctx;
    (void)name;
    if (d->unique && strcmp(schema, s->schema) == 0 && strcmp(d->table, s->table) == 0 &&
        s->nids < sizeof s->ids / sizeof s->ids[0])
        s->ids[s->nids++] = d->id;
    return 0;
}

static int collect_dependent(void *ctx, const char *schema, const char *table, const char *name,
                             const rl_fkey_def *d)
{
    dependents *s = ctx;
    bool hit = false;
    for (size_t i = 0; i < s->nids && !hit; i++)
        hit = d->ref_index_id == s->ids[i];
    if (!hit || (s->table && strcmp(schema, s->schema) == 0 && strcmp(table, s->table) == 0))
        return 0; /* a table's own references to itself go with it */
    dependent *grown = rl_array_reserve(s->d, s->n, &s->cap, sizeof *grown, 4);
    if (!grown)
        return -1;
    s->d = grown;
    rl_str_copy(s->d[s->n].schema, NAMEDATALEN, schema);
    rl_str_copy(s->d[s->n].table, NAMEDATALEN, table);
    rl_str_copy(s->d[s->n].name, NAMEDATALEN, name);
    s->d[s->n].id = d->id;
    s->n++;
    return 0;
}

/* PostgreSQL's one notice for several: "drop cascades to N other
 * objects", each in its detail. */
static void cascades_notice(rl_exec *x, const dependents *s)
{
    rl_error n;
    memset(&n, 0, sizeof n);
    rl_error_set(&n, RL_SQLSTATE_SUCCESSFUL_COMPLETION, "drop cascades to %zu other objects",
                 s->n);
    rl_buf detail;
    rl_buf_init(&detail, 0);
    for (size_t i = 0; i < s->n; i++)
        rl_buf_printf(&detail, "%sdrop cascades to constraint %s on table %s", i ? "\n" : "",
                      s->d[i].name, s->d[i].table);
    if (!detail.failed)
        rl_error_detail(&n, "%.*s", (int)detail.len, (const char *)detail.data);
    rl_buf_free(&detail);
    if (x->sink && x->sink->notice)
        x->sink->notice(x->sink->ctx, &n);
}

/* The dependents found: 2BP01 naming the first (`what` the object being
 * dropped, `on` what the constraint depends on), or with cascade each one
 * dropped with PostgreSQL's notice. */
static int drop_dependents(rl_exec *x, rl_txn *txn, dependents *s, bool cascade,
                           const char *what, const char *on)
{
    int rc = 0;
    if (s->n > 1) /* in creation order, as PostgreSQL's dependencies */
        qsort(s->d, s->n, sizeof *s->d, by_id);
    if (s->n && !cascade) {
        rl_exec_error(x, RL_SQLSTATE_DEPENDENT_OBJECTS_STILL_EXIST, -1,
                      "cannot drop %s because other objects depend on it", what);
        rl_buf detail;
        rl_buf_init(&detail, 0);
        for (size_t i = 0; i < s->n; i++)
            rl_buf_printf(&detail, "%sconstraint %s on table %s depends on %s", i ? "\n" : "",
                          s->d[i].name, s->d[i].table, on);
        if (!detail.failed)
            rl_error_detail(x->err, "%.*s", (int)detail.len, (const char *)detail.data);
        rl_buf_free(&detail);
        rl_error_hint(x->err, "Use DROP ... CASCADE to drop the dependent objects too.");
        rc = -1;
    }
    if (rc == 0 && s->n == 1)
        notice(x, "drop cascades to constraint %s on table %s", s->d[0].name, s->d[0].table);
    if (rc == 0 && s->n > 1)
        cascades_notice(x, s);
    for (size_t i = 0; rc == 0 && i < s->n; i++)
        rc = rl_txn_drop_fkey(txn, s->d[i].schema, s->d[i].table, s->d[i].name, x->err);
    free(s->d);
    return rc;
}

/* The FOREIGN KEYs of other tables that reference one of s's table's
 * UNIQUE indexes, into s (the caller frees s->d). 0 or -1. */
static int table_dependents(rl_exec *x, rl_txn *txn, dependents *s)
{
    if (rl_txn_list_indexes(txn, index_ids, s, x->err) < 0)
        return -1;
    if (s->nids == 0)
        return 0;
    if (rl_txn_list_fkeys(txn, NULL, NULL, collect_dependent, s, x->err) < 0)
        return x->err->sqlstate[0] ? -1 : rl_exec_error(x, RL_SQLSTATE_OUT_OF_MEMORY, -1,
                                                         "out of memory");
    return 0;
}

int rl_fkey_table_dropping(rl_exec *x, rl_txn *txn, const char *schema, const char *table,
                           bool cascade)
{
    dependents s = {.schema = schema, .table = table};
    if (table_dependents(x, txn, &s) < 0) {
        free(s.d);
        return -1;
    }
    if (s.nids == 0)
        return 0;
    char what[NAMEDATALEN + 8];
    snprintf(what, sizeof what, "table %s", table);
    return drop_dependents(x, txn, &s, cascade, what, what);
}

int rl_fkey_referencing(rl_exec *x, rl_txn *txn, const char *schema, const char *table,
                        rl_fkey_referrer_fn visit, void *ctx)
{
    dependents s = {.schema = schema, .table = table};
    if (table_dependents(x, txn, &s) < 0) {
        free(s.d);
        return -1;
    }
    if (s.n > 1) /* in creation order, as PostgreSQL finds them (by oid) */
        qsort(s.d, s.n, sizeof *s.d, by_id);
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < s.n; i++)
        rc = visit(ctx, s.d[i].schema, s.d[i].table);
    free(s.d);
    return rc < 0 ? -1 : 0;
}

int rl_fkey_index_dropping(rl_exec *x, rl_txn *txn, const rl_index_def *d, const char *what,
                           const char *on, bool cascade)
{
    if (!d->unique)
        return 0;
    dependents s = {.idx = d, .ids = {d->id}, .nids = 1};
    if (rl_txn_list_fkeys(txn, NULL, NULL, collect_dependent, &s, x->err) < 0) {
        free(s.d);
        return -1;
    }
    char index[NAMEDATALEN * 2 + 32];
    if (strchr(on, ' '))
        rl_str_copy(index, sizeof index, on); /* "column c of table t" */
    else
        snprintf(index, sizeof index, "index %s", on);
    return drop_dependents(x, txn, &s, cascade, what, index);
}

/* The FOREIGN KEYs on one table, collected before any is replaced. */
typedef struct own_fkey {
    char name[NAMEDATALEN];
    rl_fkey_def def;
} own_fkey;

typedef struct own_list {
    own_fkey *k;
    size_t n, cap;
} own_list;

static int collect_own(void *ctx, const char *schema, const char *table, const char *name,
                       const rl_fkey_def *d)
{
    own_list *l = ctx;
    (void)schema, (void)table;
    own_fkey *grown = rl_array_reserve(l->k, l->n, &l->cap, sizeof *grown, 4);
    if (!grown)
        return -1;
    l->k = grown;
    rl_str_copy(l->k[l->n].name, NAMEDATALEN, name);
    l->k[l->n].def = *d;
    l->n++;
    return 0;
}

static bool uses_column(const rl_fkey_def *d, const char *col)
{
    for (size_t i = 0; i < d->ncols; i++)
        if (strcmp(d->cols[i], col) == 0)
            return true;
    return false;
}

int rl_fkey_table_changed(rl_exec *x, rl_txn *txn, const char *schema, const char *table,
                          const rl_table_change *ch)
{
    own_list l = {0};
    if (rl_txn_list_fkeys(txn, schema, table, collect_own, &l, x->err) < 0) {
        free(l.k);
        return -1;
    }
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < l.n; i++) {
        own_fkey *k = &l.k[i];
        if (ch->dropped_table ||
            (ch->dropped_column && uses_column(&k->def, ch->dropped_column))) {
            rc = rl_txn_drop_fkey(txn, schema, table, k->name, x->err);
            continue;
        }
        for (size_t j = 0; ch->old_column && j < k->def.ncols; j++)
            if (strcmp(k->def.cols[j], ch->old_column) == 0)
                rl_str_copy(k->def.cols[j], NAMEDATALEN, ch->new_column);
        if (ch->new_table || ch->old_column)
            rc = rl_txn_replace_fkey(txn, schema, table, k->name,
                                     ch->new_table ? ch->new_table : table, k->name, &k->def,
                                     x->err);
    }
    free(l.k);
    return rc;
}
