/*
 * sql_index.c — CREATE INDEX, DROP INDEX and ALTER INDEX ... RENAME on the
 * catalog's tables, and the indexes following their table's DDL.
 *
 * Owns: the UNIQUE and PRIMARY KEY constraints of CREATE TABLE and ALTER
 * TABLE ADD / DROP CONSTRAINT as the UNIQUE indexes they own (named
 * <table>_pkey, <table>_<columns>_key; DROP INDEX of one is 2BP01);
 * checking an index statement as PostgreSQL 15 checks it (its errors
 * and notices, the name it chooses when none is given: ChooseRelationName's
 * <table>_<columns>_idx, truncated to 63 bytes, idx1, idx2 ... on a clash)
 * and recording its definition in the catalog (rl_txn_create_index); what
 * happens to a table's indexes when the table is dropped, renamed, or a
 * column it indexes is renamed or dropped (rl_index_table_changed).
 *
 * Why definitions only: RockLake answers every read from its own key order
 * and scans, so an index would change no answer and no plan; what a client
 * or a person sees of one is PostgreSQL's catalogs (pg_class, pg_index,
 * pg_indexes, pg_get_indexdef, psql's \d), which sql_pgcatalog.c builds from
 * the definitions. A UNIQUE index (btree, NULLS [NOT] DISTINCT) is also a
 * constraint: the catalog keeps its entries and checks every row write
 * against them (rows.c). Expression, partial and INCLUDE indexes keep
 * pg_get_indexdef's texts of each expression and of the predicate
 * (analysed and printed by sql_deparse.c, an expression column wrapped in
 * parentheses unless it prints as a call; "(col)" is the column itself;
 * WHERE true is no predicate), rewritten when a column is renamed; a UNIQUE
 * one's entries are keyed by the SQL layer's evaluation of its texts on
 * every row the catalog writes (sql_indexeval.c). ON CONFLICT's arbiters
 * are inferred as PostgreSQL's infer_arbiter_indexes does: the plain
 * columns as a set, each expression by its printed text, a partial
 * index's predicate implied by the WHERE when each of its AND-ed terms is
 * one of the WHERE's (PostgreSQL proves more implications: a predicate it
 * would find implied otherwise is 42P10 here).
 * btree, hash, brin and spgist are kept; gist and gin have no operator
 * class for a lake column's type, 42704 as on PostgreSQL.
 * A temporary table's UNIQUE / PRIMARY KEY constraints are the same
 * definitions kept with the table in the session (rl_temp_key, named
 * among the temporary relations); the rows a statement writes there are
 * checked here against the table's rows (rl_index_temp_check_row), and
 * ON CONFLICT's arbiters found among them.
 *
 * Invariants: an index names 1..RL_INDEX_MAX_KEYS key and INCLUDE columns
 * of its table, by name (an expression's by its index column's name), in
 * the table's schema; a stored text reads back as itself; a schema's index and table names never
 * overlap (the catalog checks both at create and rename); tags are "CREATE
 * INDEX", "DROP INDEX", "ALTER INDEX".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/utf8.h"
#include "pgtype/pgtype.h"
#include "sql/sql_cast.h"
#include "sql/sql_check.h"
#include "sql/sql_exec.h"
#include "sql/sql_expr.h"
#include "sql/sql_parse.h"
#include "sql/sql_pgcatalog.h"
#include "sql/sql_relation.h"
#include "sql/sql_scan.h"
#include "sql/sql_stmt.h"

#define NAMEDATALEN RL_INDEX_NAME_MAX

/* 1 if a table, an index or a sequence holds schema.name, 0 if none, -1 error. */
/* Does a temporary relation of the session hold `name` (a table, a
 * sequence, a temporary table's key constraint index)? */
static bool temp_name_taken(const rl_session *s, const char *name)
{
    if (rl_temp_seq_find(s, name))
        return true;
    for (const rl_temp_table *t = s->temps; t; t = t->next) {
        if (strcmp(t->name, name) == 0)
            return true;
        for (const rl_temp_key *k = t->keys; k; k = k->next)
            if (strcmp(k->name, name) == 0)
                return true;
    }
    return false;
}

int rl_index_name_taken(rl_exec *x, rl_txn *txn, const char *schema, const char *name)
{
    if (strcmp(schema, "pg_temp") == 0)
        return temp_name_taken(x->s, name);
    rl_error probe;
    memset(&probe, 0, sizeof probe);
    if (rl_txn_find_table(txn, schema, name, &probe))
        return 1;
    if (strcmp(probe.sqlstate, RL_SQLSTATE_UNDEFINED_TABLE) != 0) {
        *x->err = probe;
        return -1;
    }
    rl_index_def d;
    int rc = rl_txn_find_index(txn, schema, name, &d, x->err);
    return rc == 0 ? rl_txn_sequence_exists(txn, schema, name, x->err) : rc;
}

/* ------------------------------------------------------ choosing a name */

/* makeObjectName without a second name: name1_label. */
static void object_name2(const char *name1, const char *label, char *out)
{
    size_t avail = NAMEDATALEN - 1 - 1 - strlen(label);
    size_t n1 = rl_utf8_clip(name1, strlen(name1) < avail ? strlen(name1) : avail);
    snprintf(out, NAMEDATALEN, "%.*s_%s", (int)n1, name1, label);
}

/* ChooseRelationName(table, <columns joined by '_'>, label): the first of
 * ..._<label>, ..._<label>1, ... that no relation of the schema holds; a
 * primary key's is <table>_pkey (no columns). */
static int choose_name(rl_exec *x, rl_txn *txn, const char *schema, const rl_index_def *d,
                       const char *label0, char *out)
{
    char names[RL_INDEX_MAX_KEYS][NAMEDATALEN], cols[NAMEDATALEN] = "";
    rl_index_column_names(d, names);
    size_t len = 0;
    for (size_t i = 0; i < d->ncols + d->ninclude && len < NAMEDATALEN - 1; i++) {
        if (len)
            cols[len++] = '_';
        size_t n = strlen(names[i]);
        if (n > NAMEDATALEN - 1 - len)
            n = NAMEDATALEN - 1 - len;
        memcpy(cols + len, names[i], n);
        len += n;
        cols[len] = '\0';
    }
    for (int pass = 0;; pass++) {
        char label[16];
        snprintf(label, sizeof label, pass ? "%s%d" : "%s", label0, pass);
        if (d->primary)
            object_name2(d->table, label, out);
        else
            rl_object_name(d->table, cols, label, out);
        int taken = rl_index_name_taken(x, txn, schema, out);
        if (taken <= 0)
            return taken;
    }
}

/* --------------------------------------------------------- CREATE INDEX */

/* An access method by name: RockLake's number for it (rl_index_method),
 * and whether it orders its keys (ASC/DESC, NULLS FIRST/LAST); gist and
 * gin have no operator class for any type a lake column has. */
typedef struct access_method {
    const char *name;
    int method; /* -1: gist, gin (no operator class: 42704 per column) */
    bool orders, multicolumn;
} access_method;

static const access_method methods[] = {
    {"btree", RL_INDEX_BTREE, true, true}, {"hash", RL_INDEX_HASH, false, false},
    {"brin", RL_INDEX_BRIN, false, true},  {"spgist", RL_INDEX_SPGIST, false, false},
    {"gist", -1, false, true},             {"gin", -1, false, true}};

/* Expression `expr` of an index on rel (an expression column's or the
 * predicate's) analysed and printed as pg_get_indexdef prints it; a
 * column renamed from rename_from (NULL: none) is found by its new name.
 * 0 with *tx set (free it), or -1. */
static int index_expr(rl_exec *x, const rl_relation *rel, const PgQuery__Node *expr,
                      rl_deparse_kind kind, const char *rename_from, const char *rename_to,
                      rl_check_text *tx)
{
    size_t ncols;
    rl_rowset *shape = rl_check_table_shape(x, rel, &ncols);
    if (!shape)
        return -1;
    int rc = rl_deparse_expr(x, expr, shape, ncols, rel->name, rename_from, rename_to, kind, tx);
    if (rc == 0 && rl_deparse_reads_back(x, tx, shape, ncols, rel->name, kind) < 0) {
        rl_check_text_free(tx);
        rc = -1;
    }
    rl_rowset_free(shape);
    return rc;
}

/* tx's texts into d: an expression column's in parentheses unless it
 * prints as a call (pg_get_indexdef's rule), the predicate's as they are. */
static int keep_texts(rl_exec *x, rl_index_def *d, const rl_check_text *tx, bool column)
{
    const char *plain = (const char *)tx->plain.data, *pretty = (const char *)tx->pretty.data;
    bool wrap = column && !tx->function_like;
    size_t lp = strlen(plain) + 3, lq = strlen(pretty) + 3;
    char *p = malloc(lp), *q = malloc(lq);
    bool ok = p && q;
    if (ok) {
        snprintf(p, lp, wrap ? "(%s)" : "%s", plain);
        snprintf(q, lq, wrap ? "(%s)" : "%s", pretty);
        ok = rl_index_def_add_text(d, p, q);
    }
    free(p);
    free(q);
    if (!p || !q)
        return rl_exec_error(x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    if (!ok)
        return rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                             "RockLake keeps at most %d bytes of an index's expressions and "
                             "predicate",
                             RL_INDEX_TEXT_MAX / 2);
    return 0;
}

/* 42704 unless type `oid` has an operator class of the method. */
static int has_opclass(rl_exec *x, uint32_t oid, const access_method *am)
{
    if (rl_pgcatalog_opclass(oid, am->method))
        return 0;
    char type[128];
    rl_pgcatalog_format_type(x, oid, -1, type, sizeof type);
    rl_exec_error(x, RL_SQLSTATE_UNDEFINED_OBJECT, -1,
                  "data type %s has no default operator class for access method \"%s\"", type,
                  am->name);
    rl_error_hint(x->err, "You must specify an operator class for the index or define a "
                          "default operator class for the data type.");
    return -1;
}

/* A column of the table by name (attnum > 0), or NULL. */
static const rl_colmeta *table_column(const rl_rowset *shape, const char *name)
{
    for (size_t c = 0; c < shape->ncols; c++)
        if (shape->cols[c].attnum > 0 && strcmp(shape->cols[c].name, name) == 0)
            return &shape->cols[c];
    return NULL;
}

/* An index's expressions analysed before anything else is checked, as
 * transformIndexStmt does (the predicate first, then each key expression):
 * their errors come first. */
typedef struct index_exprs {
    rl_check_text pred, col[RL_INDEX_MAX_KEYS];
    bool has_pred, has[RL_INDEX_MAX_KEYS];
} index_exprs;

static void index_exprs_free(index_exprs *ix)
{
    if (!ix)
        return;
    if (ix->has_pred)
        rl_check_text_free(&ix->pred);
    for (size_t i = 0; i < RL_INDEX_MAX_KEYS; i++)
        if (ix->has[i])
            rl_check_text_free(&ix->col[i]);
    free(ix);
}

/* The 42P17 of an index's expression or predicate that is not IMMUTABLE. */
static int not_immutable(rl_exec *x, const char *what)
{
    return rl_exec_error(x, RL_SQLSTATE_INVALID_OBJECT_DEFINITION, -1,
                         "functions in index %s must be marked IMMUTABLE", what);
}

static int analyse_exprs(rl_exec *x, const PgQuery__IndexStmt *st, const rl_relation *rel,
                         index_exprs *ix)
{
    if (st->where_clause) {
        if (index_expr(x, rel, st->where_clause, RL_DEPARSE_INDEX_PRED, NULL, NULL, &ix->pred) < 0)
            return -1;
        ix->has_pred = true;
    }
    for (size_t i = 0; i < st->n_index_params && i < RL_INDEX_MAX_KEYS; i++) {
        const PgQuery__IndexElem *e = st->index_params[i]->index_elem;
        if (!e || !e->expr)
            continue;
        if (index_expr(x, rel, e->expr, RL_DEPARSE_INDEX_EXPR, NULL, NULL, &ix->col[i]) < 0)
            return -1;
        ix->has[i] = true;
    }
    return 0;
}

/* Key column from index element e (tx: its analysed expression, or NULL)
 * into d: an expression (one that is a bare column, "(col)", is that
 * column, as in PostgreSQL), or a column of the table; either with the
 * method's operator class. */
static int key_column(rl_exec *x, const PgQuery__IndexElem *e, const rl_check_text *tx,
                      const rl_rowset *shape, const access_method *am, rl_index_def *d)
{
    const char *name = e->name;
    uint8_t expr = 0;
    uint32_t oid = 0;
    if (tx && tx->var) {
        name = tx->column;
    } else if (tx) {
        expr = RL_INDEX_COL_EXPR;
        oid = tx->type;
        char fig[NAMEDATALEN];
        rl_expr_default_name(e->expr, fig, sizeof fig);
        snprintf(d->cols[d->ncols], NAMEDATALEN, "%s", strcmp(fig, "?column?") == 0 ? "expr" : fig);
        if (tx->mutable_)
            return not_immutable(x, "expression");
    }
    if (!expr) {
        const rl_colmeta *m = table_column(shape, name);
        if (!m)
            return rl_exec_error(x, RL_SQLSTATE_UNDEFINED_COLUMN, -1,
                                 "column \"%s\" does not exist", name);
        oid = m->oid;
        snprintf(d->cols[d->ncols], NAMEDATALEN, "%s", name);
    }
    if (has_opclass(x, oid, am) < 0)
        return -1;
    if (expr) {
        d->expr_type[d->ncols] = oid;
        d->expr_typmod[d->ncols] = tx->typmod;
        if (keep_texts(x, d, tx, true) < 0)
            return -1;
    }
    bool desc = e->ordering == PG_QUERY__SORT_BY_DIR__SORTBY_DESC;
    bool nulls_set = e->nulls_ordering != PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_DEFAULT;
    if (!am->orders && (e->ordering != PG_QUERY__SORT_BY_DIR__SORTBY_DEFAULT || nulls_set))
        return rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                             nulls_set ? "access method \"%s\" does not support NULLS "
                                         "FIRST/LAST options"
                                       : "access method \"%s\" does not support ASC/DESC "
                                         "options",
                             am->name);
    bool nulls_first = nulls_set ? e->nulls_ordering == PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_FIRST
                                 : desc; /* DESC puts NULLs first by default */
    d->opts[d->ncols++] = (uint8_t)(expr | (desc ? RL_INDEX_COL_DESC : 0) |
                                    (nulls_first ? RL_INDEX_COL_NULLS_FIRST : 0));
    return 0;
}

/* INCLUDE column e into d (after the key columns): a plain column of the
 * table, without ordering, collation or operator class (ComputeIndexAttrs'
 * 0A000s). */
static int include_column(rl_exec *x, const PgQuery__IndexElem *e, const rl_rowset *shape,
                          rl_index_def *d)
{
    const char *no = !e ? "expressions are not supported in included columns"
                     : e->expr ? "expressions are not supported in included columns"
                     : e->n_collation ? "including column does not support a collation"
                     : e->n_opclass ? "including column does not support an operator class"
                     : e->ordering != PG_QUERY__SORT_BY_DIR__SORTBY_DEFAULT
                         ? "including column does not support ASC/DESC options"
                     : e->nulls_ordering != PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_DEFAULT
                         ? "including column does not support NULLS FIRST/LAST options"
                         : NULL;
    if (no) /* an expression is 0A000, the options 42P17 */
        return rl_exec_error(x,
                             !e || e->expr ? RL_SQLSTATE_FEATURE_NOT_SUPPORTED
                                           : RL_SQLSTATE_INVALID_OBJECT_DEFINITION,
                             -1, "%s", no);
    if (!table_column(shape, e->name))
        return rl_exec_error(x, RL_SQLSTATE_UNDEFINED_COLUMN, -1, "column \"%s\" does not exist",
                             e->name);
    snprintf(d->cols[d->ncols + d->ninclude++], NAMEDATALEN, "%s", e->name);
    return 0;
}

/* The index's key columns from the statement into d, then its INCLUDE
 * columns. */
static int key_columns(rl_exec *x, const PgQuery__IndexStmt *st, const rl_relation *rel,
                       const access_method *am, const index_exprs *ix, rl_index_def *d)
{
    rl_rowset *shape = rl_relation_shape(x, rel, rel->name);
    if (!shape)
        return -1;
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < st->n_index_params; i++) {
        const PgQuery__IndexElem *e = st->index_params[i]->index_elem;
        if (!e || (!e->name && !e->expr) || e->n_collation || e->n_opclass || e->n_opclassopts)
            rc = rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                               "RockLake does not support collations or operator classes in "
                               "an index");
        else
            rc = key_column(x, e, ix->has[i] ? &ix->col[i] : NULL, shape, am, d);
    }
    for (size_t i = 0; rc == 0 && i < st->n_index_including_params; i++)
        rc = include_column(x, st->index_including_params[i]->index_elem, shape, d);
    rl_rowset_free(shape);
    return rc;
}

/* The index's table: a stored or temporary table (a system catalog is
 * 42501 as on PostgreSQL for a role that does not own it, a sequence
 * 42809). */
static int index_table(rl_exec *x, const PgQuery__IndexStmt *st, rl_relation *rel)
{
    PgQuery__RangeVar rv = *st->relation;
    rv.location = -1; /* DefineIndex's lookup has no statement text: no position */
    if (rl_relation_resolve(x, &rv, rel) < 0)
        return -1;
    if (rel->kind == RL_REL_VIRTUAL)
        return rl_exec_error(x, RL_SQLSTATE_INSUFFICIENT_PRIVILEGE, -1,
                             "must be owner of table %s", rel->name);
    if (rel->kind == RL_REL_TEMP) /* temp_index (the caller kept the tables: a ROLLBACK) */
        return 0;
    if (rel->kind != RL_REL_STORED) { /* a sequence */
        rl_exec_error(x, RL_SQLSTATE_WRONG_OBJECT_TYPE, -1, "cannot create index on relation \"%s\"",
                      rel->name);
        rl_error_detail(x->err, "This operation is not supported for sequences.");
        return -1;
    }
    return 0;
}

/* The statement's access method (btree by default); 42704 for one
 * PostgreSQL does not have. NULL with x's error set. */
static const access_method *find_method(rl_exec *x, const PgQuery__IndexStmt *st)
{
    const char *am = st->access_method && st->access_method[0] ? st->access_method : "btree";
    for (size_t i = 0; i < sizeof methods / sizeof methods[0]; i++) {
        if (strcmp(am, methods[i].name) != 0)
            continue;
        return &methods[i];
    }
    rl_exec_error(x, RL_SQLSTATE_UNDEFINED_OBJECT, -1, "access method \"%s\" does not exist", am);
    return NULL;
}

/* CREATE INDEX on temporary table t (d analysed): a btree over plain
 * columns is kept with its keys (a UNIQUE one checks its rows and every
 * row written after), any other 0A000. 0, 1 (IF NOT EXISTS over a name
 * taken: its notice sent) or -1. */
static int temp_key_holds(rl_exec *x, const rl_temp_table *t, const rl_index_def *d,
                          const char *name);
static int constraint_needs_index(rl_exec *x, const char *name, const char *table);

static int temp_index(rl_exec *x, const PgQuery__IndexStmt *st, rl_temp_table *t,
                      const rl_index_def *d, bool has_pred)
{
    bool plain = d->method == RL_INDEX_BTREE && !has_pred;
    for (size_t i = 0; plain && i < d->ncols; i++)
        plain = !(d->opts[i] & RL_INDEX_COL_EXPR);
    if (!plain)
        return rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                             "RockLake keeps only btree indexes over columns on temporary "
                             "tables");
    rl_temp_key *key = calloc(1, sizeof *key);
    if (!key)
        return rl_exec_error(x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    key->def = *d;
    int rc = 0;
    if (st->idxname && st->idxname[0]) {
        snprintf(key->name, sizeof key->name, "%.*s",
                 (int)rl_utf8_clip(st->idxname, NAMEDATALEN - 1), st->idxname);
        if (rl_index_name_taken(x, NULL, "pg_temp", key->name))
            rc = st->if_not_exists ? 1
                                   : rl_exec_error(x, RL_SQLSTATE_DUPLICATE_TABLE, -1,
                                                   "relation \"%s\" already exists", key->name);
    } else {
        rc = choose_name(x, NULL, "pg_temp", d, "idx", key->name);
    }
    if (rc == 0 && d->unique)
        rc = temp_key_holds(x, t, &key->def, key->name);
    if (rc == 1)
        rl_exec_notice(x, RL_SQLSTATE_DUPLICATE_TABLE, "relation \"%s\" already exists, skipping",
                       key->name);
    if (rc != 0) {
        free(key);
        return rc;
    }
    uint64_t id = 1;
    rl_temp_key **tail = &t->keys;
    for (; *tail; tail = &(*tail)->next)
        id = (*tail)->def.id >= id ? (*tail)->def.id + 1 : id;
    key->def.id = id;
    *tail = key;
    return 0;
}

/* DROP INDEX of a temporary table's index `name`: 1 dropped, 0 none of
 * that name, -1 (2BP01: a constraint's). */
static int drop_temp_index(rl_exec *x, const char *name)
{
    for (rl_temp_table *t = x->s->temps; t; t = t->next)
        for (rl_temp_key **pp = &t->keys; *pp; pp = &(*pp)->next) {
            rl_temp_key *k = *pp;
            if (strcmp(k->name, name) != 0)
                continue;
            if (k->def.constraint)
                return constraint_needs_index(x, name, t->name);
            *pp = k->next; /* rl_ddl_drop kept the tables for a ROLLBACK */
            rl_index_temp_key_free(k);
            return 1;
        }
    return 0;
}

int rl_ddl_create_index(rl_exec *x, const PgQuery__IndexStmt *st)
{
    if (st->concurrent && rl_exec_outside_block(x, "CREATE INDEX CONCURRENTLY") < 0)
        return -1;
    rl_relation rel;
    if (index_table(x, st, &rel) < 0)
        return -1;
    if (st->primary || st->isconstraint)
        return rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                             "RockLake does not support index-backed constraints here");
    if (st->table_space && st->table_space[0])
        return rl_exec_error(x, RL_SQLSTATE_UNDEFINED_OBJECT, -1,
                             "tablespace \"%s\" does not exist", st->table_space);
    rl_index_def *d = calloc(1, sizeof *d);
    index_exprs *ix = calloc(1, sizeof *ix);
    if (!d || !ix) {
        free(d);
        free(ix);
        return rl_exec_error(x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    }
    snprintf(d->table, sizeof d->table, "%s", rel.name);
    rl_txn *txn = NULL;
    int rc = analyse_exprs(x, st, &rel, ix);
    const access_method *am = rc == 0 ? find_method(x, st) : NULL;
    if (rc == 0 && !am)
        rc = -1;
    if (rc == 0 && st->n_index_params + st->n_index_including_params > RL_INDEX_MAX_KEYS)
        rc = rl_exec_error(x, RL_SQLSTATE_TOO_MANY_COLUMNS, -1,
                           "cannot use more than %d columns in an index", RL_INDEX_MAX_KEYS);
    /* as DefineIndex: the method's abilities before the columns */
    if (rc == 0 && st->unique && strcmp(am->name, "btree") != 0)
        rc = rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                           "access method \"%s\" does not support unique indexes", am->name);
    if (rc == 0 && !am->multicolumn && st->n_index_params > 1)
        rc = rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                           "access method \"%s\" does not support multicolumn indexes", am->name);
    /* hash and brin keep no INCLUDE columns (amcaninclude) */
    if (rc == 0 && st->n_index_including_params &&
        (am->method == RL_INDEX_HASH || am->method == RL_INDEX_BRIN))
        rc = rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                           "access method \"%s\" does not support included columns", am->name);
    /* WHERE true is no predicate (PostgreSQL keeps none) */
    bool has_pred = ix->has_pred && !ix->pred.true_const;
    if (rc == 0 && has_pred && ix->pred.mutable_)
        rc = not_immutable(x, "predicate");
    if (rc == 0)
        rc = key_columns(x, st, &rel, am, ix, d);
    if (rc == 0 && has_pred) {
        d->partial = true;
        rc = keep_texts(x, d, &ix->pred, false);
    }
    index_exprs_free(ix);
    for (size_t i = 0; rc == 0 && st->unique && i < d->ncols; i++)
        if (d->opts[i] & RL_INDEX_COL_EXPR && rl_oid_type(d->expr_type[i]) == RL_T_INVALID)
            rc = rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                               "RockLake cannot keep unique index values of type %s",
                               rl_oid_type_name(d->expr_type[i]));
    d->method = am && am->method >= 0 ? (rl_index_method)am->method : RL_INDEX_BTREE;
    d->unique = st->unique;
    d->nulls_not_distinct = st->unique && st->nulls_not_distinct;
    if (rc == 0 && rel.kind == RL_REL_TEMP) {
        rc = temp_index(x, st, rel.temp, d, has_pred);
        free(d);
        return rc < 0 ? -1 : rl_send_complete(x, "CREATE INDEX");
    }
    if (rc == 0 && !(txn = rl_exec_txn(x)))
        rc = -1;
    char name[NAMEDATALEN];
    if (rc == 0 && st->idxname && st->idxname[0]) {
        snprintf(name, sizeof name, "%.*s", (int)rl_utf8_clip(st->idxname, NAMEDATALEN - 1), st->idxname);
        int taken = rl_index_name_taken(x, txn, rel.schema, name);
        if (taken == 1 && st->if_not_exists)
            rc = 1; /* notice below */
        else if (taken == 1)
            rc = rl_exec_error(x, RL_SQLSTATE_DUPLICATE_TABLE, -1,
                               "relation \"%s\" already exists", name);
        else
            rc = taken;
    } else if (rc == 0) {
        rc = choose_name(x, txn, rel.schema, d, "idx", name);
    }
    if (rc == 0)
        rc = rl_txn_create_index(txn, rel.schema, name, d, x->err);
    free(d);
    if (rc == 1)
        rl_exec_notice(x, RL_SQLSTATE_DUPLICATE_TABLE, "relation \"%s\" already exists, skipping",
                       name);
    return rc < 0 ? -1 : rl_send_complete(x, "CREATE INDEX");
}

/* ----------------------------------------------------------- DROP INDEX */


/* What the tables' indexes find (rl_txn_list_indexes ctx): every index of
 * schema.table, by name, for the caller to act on after the scan. */
typedef struct table_index {
    char name[NAMEDATALEN];
    rl_index_def def;
} table_index;

typedef struct table_indexes {
    const char *schema, *table;
    table_index *ix;
    size_t n, cap;
} table_indexes;

static int collect_of_table(void *ctx, const char *schema, const char *name,
                            const rl_index_def *d)
{
    table_indexes *ti = ctx;
    if (strcmp(schema, ti->schema) != 0 || strcmp(d->table, ti->table) != 0)
        return 0;
    table_index *grown = rl_array_reserve(ti->ix, ti->n, &ti->cap, sizeof *grown, 4);
    if (!grown)
        return -1;
    ti->ix = grown;
    snprintf(ti->ix[ti->n].name, NAMEDATALEN, "%s", name);
    ti->ix[ti->n++].def = *d;
    return 0;
}

/* An index and its comment gone. */
static int drop_index(rl_exec *x, rl_txn *txn, const char *schema, const char *name)
{
    const rl_table_change gone = {.dropped_table = true};
    if (rl_txn_drop_index(txn, schema, name, x->err) < 0)
        return -1;
    return rl_comment_table_changed(x, txn, schema, name, &gone);
}

/* One stored text of d (an expression column's, col < d->ncols, or the
 * predicate's) analysed again on table rel after ch, into nd: 1 kept, 0
 * it used the dropped column (the index goes, as in PostgreSQL), -1. */
static int redo_text(rl_exec *x, const rl_relation *rel, const rl_index_def *d, size_t col,
                     const rl_table_change *ch, rl_index_def *nd)
{
    bool column = col < d->ncols;
    const char *text = column ? rl_index_def_expr(d, col, false) : rl_index_def_pred(d, false);
    rl_parsed *p = NULL;
    const PgQuery__Node *expr;
    if (rl_check_parse_text(x, text, &p, &expr) < 0)
        return -1;
    rl_check_text tx;
    rl_error keep = *x->err;
    const rl_parsed *prev = rl_parsed_activate(p);
    int rc = index_expr(x, rel, expr, column ? RL_DEPARSE_INDEX_EXPR : RL_DEPARSE_INDEX_PRED,
                        ch->old_column, ch->new_column, &tx);
    rl_parsed_activate(prev);
    rl_parsed_release(p);
    if (rc < 0 && ch->dropped_column && !strcmp(x->err->sqlstate, RL_SQLSTATE_UNDEFINED_COLUMN)) {
        *x->err = keep;
        return 0;
    }
    if (rc < 0)
        return -1;
    rc = keep_texts(x, nd, &tx, column);
    rl_check_text_free(&tx);
    return rc < 0 ? -1 : 1;
}

/* d's expressions and predicate analysed again after ch (a column renamed
 * or dropped) on its table, now `table`: 1 d's texts rewritten, 0 one of
 * them used the dropped column, -1 error. */
static int redo_texts(rl_exec *x, const char *schema, const char *table, rl_index_def *d,
                      const rl_table_change *ch)
{
    if (d->text_len == 0 || (!ch->old_column && !ch->dropped_column))
        return 1;
    rl_relation rel;
    if (rl_relation_lookup(x, schema, table, &rel) < 0)
        return -1;
    rl_index_def *nd = malloc(sizeof *nd);
    if (!nd)
        return rl_exec_error(x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    *nd = *d;
    nd->text_len = 0;
    int rc = 1;
    for (size_t i = 0; rc == 1 && i < d->ncols; i++)
        if (d->opts[i] & RL_INDEX_COL_EXPR)
            rc = redo_text(x, &rel, d, i, ch, nd);
    if (rc == 1 && d->partial)
        rc = redo_text(x, &rel, d, d->ncols, ch, nd);
    if (rc == 1) {
        memcpy(d->text, nd->text, nd->text_len);
        d->text_len = nd->text_len;
    }
    free(nd);
    return rc;
}

int rl_index_table_changed(rl_exec *x, rl_txn *txn, const char *schema, const char *table,
                           const rl_table_change *ch)
{
    table_indexes ti = {.schema = schema, .table = table};
    int rc = rl_txn_list_indexes(txn, collect_of_table, &ti, x->err);
    if (rc != 0 && !x->err->sqlstate[0])
        rl_exec_error(x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    for (size_t i = 0; rc == 0 && i < ti.n; i++) {
        rl_index_def *d = &ti.ix[i].def;
        bool gone = ch->dropped_table ||
                    (ch->dropped_column && rl_index_def_names_column(d, ch->dropped_column));
        if (!gone) {
            int kept = redo_texts(x, schema, ch->new_table ? ch->new_table : table, d, ch);
            if (kept < 0) {
                rc = -1;
                break;
            }
            gone = kept == 0;
        }
        if (gone) {
            char what[NAMEDATALEN * 2 + 32];
            snprintf(what, sizeof what, "column %s of table %s", ch->dropped_column, table);
            if (ch->dropped_column && rl_fkey_index_dropping(x, txn, d, what, what, false) < 0)
                rc = -1;
            else
                rc = drop_index(x, txn, schema, ti.ix[i].name);
            continue;
        }
        if (ch->new_table)
            snprintf(d->table, sizeof d->table, "%s", ch->new_table);
        for (size_t c = 0; ch->old_column && c < d->ncols + d->ninclude; c++)
            if (!(c < d->ncols && (d->opts[c] & RL_INDEX_COL_EXPR)) &&
                strcmp(d->cols[c], ch->old_column) == 0)
                snprintf(d->cols[c], sizeof d->cols[c], "%s", ch->new_column);
        rc = rl_txn_replace_index(txn, schema, ti.ix[i].name, d, x->err);
    }
    free(ti.ix);
    return rc < 0 ? -1 : 0;
}

/* The schema an unqualified index name is found in: the first schema of
 * the search path (public) holding it. */
static const char *drop_schema_of(const PgQuery__Node *obj, const char **name)
{
    const PgQuery__List *l = obj->list;
    *name = l->items[l->n_items - 1]->string->sval;
    return l->n_items >= 2 ? l->items[l->n_items - 2]->string->sval : "public";
}

/* 2BP01: an index a constraint of the same name owns goes with the
 * constraint (ALTER TABLE ... DROP CONSTRAINT), not alone. */
static int constraint_needs_index(rl_exec *x, const char *name, const char *table)
{
    /* getObjectDescription: relation names quoted as identifiers, the
     * constraint's name as it is */
    char qname[140], qtable[140];
    rl_quote_ident(name, qname, sizeof qname);
    rl_quote_ident(table, qtable, sizeof qtable);
    rl_exec_error(x, RL_SQLSTATE_DEPENDENT_OBJECTS_STILL_EXIST, -1,
                  "cannot drop index %s because constraint %s on table %s requires it", qname,
                  name, qtable);
    char hint[320];
    snprintf(hint, sizeof hint, "You can drop constraint %s on table %s instead.", name, qtable);
    rl_error_hint(x->err, "%s", hint);
    return -1;
}

/* Why schema.name is no index to drop: 42809 for a table, 2BP01 for a
 * primary key's index, else 42704 (or, IF EXISTS, a notice: 0). */
static int not_an_index(rl_exec *x, rl_txn *txn, const char *schema, const char *name,
                        bool missing_ok)
{
    rl_error probe;
    memset(&probe, 0, sizeof probe);
    const rl_table_desc *t = rl_txn_find_table(txn, schema, name, &probe);
    if (t) {
        rl_exec_error(x, RL_SQLSTATE_WRONG_OBJECT_TYPE, -1, "\"%s\" is not an index", name);
        rl_error_hint(x->err, "Use DROP TABLE to remove a table.");
        return -1;
    }
    size_t len = strlen(name);
    char table[NAMEDATALEN];
    if (len > 5 && len - 5 < sizeof table && strcmp(name + len - 5, "_pkey") == 0) {
        snprintf(table, sizeof table, "%.*s", (int)(len - 5), name);
        memset(&probe, 0, sizeof probe);
        t = rl_txn_find_table(txn, schema, table, &probe);
        if (t && t->pk_check != RL_PK_NONE && t->pk_col >= 0)
            return constraint_needs_index(x, name, table);
    }
    if (missing_ok)
        return rl_exec_notice(x, RL_SQLSTATE_SUCCESSFUL_COMPLETION,
                      "index \"%s\" does not exist, skipping", name);
    return rl_exec_error(x, RL_SQLSTATE_UNDEFINED_OBJECT, -1, "index \"%s\" does not exist", name);
}

int rl_ddl_drop_index(rl_exec *x, const PgQuery__DropStmt *st)
{
    if (st->concurrent && st->n_objects > 1)
        return rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                             "DROP INDEX CONCURRENTLY does not support dropping multiple "
                             "objects");
    if (st->concurrent && rl_exec_outside_block(x, "DROP INDEX CONCURRENTLY") < 0)
        return -1;
    rl_txn *txn = rl_exec_txn(x);
    if (!txn)
        return -1;
    for (size_t i = 0; i < st->n_objects; i++) {
        const PgQuery__Node *obj = st->objects[i];
        if (obj->node_case != PG_QUERY__NODE__NODE_LIST || obj->list->n_items < 1 ||
            obj->list->n_items > 3)
            return rl_exec_error(x, RL_SQLSTATE_SYNTAX_ERROR, -1, "improper qualified name");
        const char *name, *schema = drop_schema_of(obj, &name);
        int temp = obj->list->n_items == 1 || strcmp(schema, "pg_temp") == 0
                       ? drop_temp_index(x, name)
                       : 0; /* pg_temp first on the search path */
        if (temp != 0) {
            if (temp < 0)
                return -1;
            continue;
        }
        if (strcmp(schema, "pg_temp") == 0) {
            if (not_an_index(x, txn, "public", name, st->missing_ok) < 0)
                return -1;
            continue;
        }
        if (!rl_txn_schema_exists(txn, schema)) {
            if (st->missing_ok) {
                rl_exec_notice(x, RL_SQLSTATE_SUCCESSFUL_COMPLETION,
                       "schema \"%s\" does not exist, skipping", schema);
                continue;
            }
            return rl_exec_error(x, RL_SQLSTATE_INVALID_SCHEMA_NAME, -1,
                                 "schema \"%s\" does not exist", schema);
        }
        rl_index_def d;
        int found = rl_txn_find_index(txn, schema, name, &d, x->err);
        if (found < 0)
            return -1;
        if (found == 0) {
            if (not_an_index(x, txn, schema, name, st->missing_ok) < 0)
                return -1;
            continue;
        }
        if (d.constraint)
            return constraint_needs_index(x, name, d.table);
        char what[NAMEDATALEN + 8];
        snprintf(what, sizeof what, "index %s", name);
        if (rl_fkey_index_dropping(x, txn, &d, what, name,
                                   st->behavior == PG_QUERY__DROP_BEHAVIOR__DROP_CASCADE) < 0 ||
            drop_index(x, txn, schema, name) < 0)
            return -1;
    }
    return rl_send_complete(x, "DROP INDEX");
}

/* --------------------------------------------------- ALTER INDEX RENAME */

int rl_ddl_rename_index(rl_exec *x, const PgQuery__RenameStmt *st, bool *handled)
{
    *handled = false;
    const PgQuery__RangeVar *rv = st->relation;
    if (!rv || (rv->relpersistence && rv->relpersistence[0] == 't'))
        return 0;
    rl_txn *txn = rl_exec_txn(x);
    if (!txn)
        return -1;
    const char *schema = rv->schemaname && rv->schemaname[0] ? rv->schemaname : "public";
    rl_index_def d;
    int found = rl_txn_schema_exists(txn, schema)
                    ? rl_txn_find_index(txn, schema, rv->relname, &d, x->err)
                    : 0;
    if (found <= 0)
        return found; /* not an index: the table statement goes on */
    *handled = true;
    if (strlen(st->newname) >= NAMEDATALEN)
        return rl_exec_error(x, RL_SQLSTATE_NAME_TOO_LONG, -1, "identifier \"%s\" is too long",
                             st->newname);
    int taken = rl_index_name_taken(x, txn, schema, st->newname);
    if (taken != 0)
        return taken < 0 ? -1
                         : rl_exec_error(x, RL_SQLSTATE_DUPLICATE_TABLE, -1,
                                         "relation \"%s\" already exists", st->newname);
    const rl_table_change renamed = {.new_table = st->newname};
    if (rl_txn_rename_index(txn, schema, rv->relname, st->newname, x->err) < 0 ||
        rl_comment_table_changed(x, txn, schema, rv->relname, &renamed) < 0)
        return -1;
    return rl_send_complete(x, st->rename_type == PG_QUERY__OBJECT_TYPE__OBJECT_INDEX
                                   ? "ALTER INDEX"
                                   : "ALTER TABLE");
}

/* ------------------------------------------- UNIQUE / PRIMARY KEY constraints */

int rl_key_constraint_from(rl_exec *x, const PgQuery__Constraint *c, const char *column,
                           rl_key_constraint *out)
{
    memset(out, 0, sizeof *out);
    bool pk = c->contype == PG_QUERY__CONSTR_TYPE__CONSTR_PRIMARY;
    if (!pk && c->contype != PG_QUERY__CONSTR_TYPE__CONSTR_UNIQUE)
        return 0;
    if (c->deferrable || c->initdeferred || (c->indexname && c->indexname[0]) ||
        (c->indexspace && c->indexspace[0]) || c->n_options || c->where_clause)
        return rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, c->location,
                             "RockLake does not support DEFERRABLE, USING INDEX or "
                             "storage options of a key constraint");
    out->name = c->conname && c->conname[0] ? c->conname : NULL;
    out->primary = pk;
    out->nulls_not_distinct = c->nulls_not_distinct;
    out->location = c->location;
    if (column) {
        out->cols[out->ncols++] = column;
        return 1;
    }
    if (c->n_keys + c->n_including > RL_INDEX_MAX_KEYS)
        return rl_exec_error(x, RL_SQLSTATE_TOO_MANY_COLUMNS, c->location,
                             "cannot use more than %d columns in an index", RL_INDEX_MAX_KEYS);
    for (size_t i = 0; i < c->n_keys; i++)
        out->cols[out->ncols++] = c->keys[i]->string->sval;
    for (size_t i = 0; i < c->n_including; i++)
        out->cols[out->ncols + out->ninclude++] = c->including[i]->string->sval;
    return 1;
}

/* What a constraint index search finds (rl_txn_list_indexes ctx). */
typedef struct constraint_find {
    const char *schema, *table, *name; /* name NULL: the primary key */
    char found[NAMEDATALEN];
    rl_index_def def;
    int hit;
} constraint_find;

static int find_constraint(void *ctx, const char *schema, const char *name,
                           const rl_index_def *d)
{
    constraint_find *f = ctx;
    if (!d->constraint || strcmp(schema, f->schema) != 0 || strcmp(d->table, f->table) != 0)
        return 0;
    if (f->name ? strcmp(name, f->name) != 0 : !d->primary)
        return 0;
    snprintf(f->found, sizeof f->found, "%s", name);
    f->def = *d;
    f->hit = 1;
    return 1;
}

static int constraint_search(rl_exec *x, rl_txn *txn, constraint_find *f)
{
    int rc = rl_txn_list_indexes(txn, find_constraint, f, x->err);
    return rc < 0 ? -1 : f->hit;
}

int rl_index_find_constraint(rl_exec *x, rl_txn *txn, const char *schema, const char *table,
                             const char *name, rl_index_def *def)
{
    constraint_find f = {.schema = schema, .table = table, .name = name};
    int rc = constraint_search(x, txn, &f);
    if (rc == 1 && def)
        *def = f.def;
    return rc;
}

int rl_index_primary_key(rl_exec *x, rl_txn *txn, const char *schema, const char *table,
                         char *name, rl_index_def *def)
{
    constraint_find f = {.schema = schema, .table = table};
    int rc = constraint_search(x, txn, &f);
    if (rc == 1) {
        snprintf(name, NAMEDATALEN, "%s", f.found);
        *def = f.def;
    }
    return rc;
}

/* The constraint's columns into d: columns of the table (42703), each with
 * a btree operator class for its type (42704, as for CREATE INDEX). */
static int constraint_columns(rl_exec *x, const rl_relation *rel, const rl_key_constraint *k,
                              rl_index_def *d)
{
    rl_rowset *shape = rl_relation_shape(x, rel, rel->name);
    if (!shape)
        return -1;
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < k->ncols + k->ninclude; i++) {
        const rl_colmeta *m = table_column(shape, k->cols[i]);
        if (!m) {
            rc = rl_exec_error(x, RL_SQLSTATE_UNDEFINED_COLUMN, k->location,
                               "column \"%s\" named in key does not exist", k->cols[i]);
            break;
        }
        if (i >= k->ncols) { /* INCLUDE: no operator class */
            snprintf(d->cols[d->ncols + d->ninclude++], NAMEDATALEN, "%s", k->cols[i]);
            continue;
        }
        if (!rl_pgcatalog_opclass(m->oid, RL_INDEX_BTREE)) {
            char type[128];
            rl_pgcatalog_format_type(x, m->oid, -1, type, sizeof type);
            rc = rl_exec_error(x, RL_SQLSTATE_UNDEFINED_OBJECT, -1,
                               "data type %s has no default operator class for access method "
                               "\"btree\"",
                               type);
            rl_error_hint(x->err, "You must specify an operator class for the index or define a "
                                  "default operator class for the data type.");
            break;
        }
        snprintf(d->cols[d->ncols], NAMEDATALEN, "%s", k->cols[i]);
        d->opts[d->ncols++] = 0;
    }
    rl_rowset_free(shape);
    return rc;
}

/* k's index on rel into *d, named into `name` (k's name, or chosen as
 * PostgreSQL chooses it): 0, or -1 (42703, 42704, 42P07 a name taken). */
static int key_constraint_def(rl_exec *x, rl_txn *txn, const char *schema,
                              const rl_relation *rel, const rl_key_constraint *k, rl_index_def *d,
                              char *name)
{
    snprintf(d->table, sizeof d->table, "%s", rel->name);
    d->method = RL_INDEX_BTREE;
    d->unique = d->constraint = true;
    d->primary = k->primary;
    d->nulls_not_distinct = k->nulls_not_distinct;
    int rc = constraint_columns(x, rel, k, d);
    if (rc == 0 && k->name) {
        snprintf(name, NAMEDATALEN, "%.*s", (int)rl_utf8_clip(k->name, NAMEDATALEN - 1), k->name);
        int taken = rl_index_name_taken(x, txn, schema, name);
        rc = taken == 1 ? rl_exec_error(x, RL_SQLSTATE_DUPLICATE_TABLE, -1,
                                        "relation \"%s\" already exists", name)
                        : taken;
    } else if (rc == 0) {
        rc = choose_name(x, txn, schema, d, k->primary ? "pkey" : "key", name);
    }
    return rc;
}

int rl_index_add_key_constraint(rl_exec *x, rl_txn *txn, const char *schema, const char *table,
                                const rl_key_constraint *k)
{
    rl_relation rel;
    if (rl_relation_lookup(x, schema, table, &rel) < 0)
        return -1;
    if (k->primary) {
        char pk[NAMEDATALEN];
        rl_index_def old;
        int has = rl_index_primary_key(x, txn, schema, table, pk, &old);
        if (has < 0)
            return -1;
        if (has || (rel.desc && rel.desc->pk_check != RL_PK_NONE && rel.desc->pk_col >= 0))
            return rl_exec_error(x, RL_SQLSTATE_INVALID_TABLE_DEFINITION, -1,
                                 "multiple primary keys for table \"%s\" are not allowed", table);
    }
    rl_index_def *d = calloc(1, sizeof *d);
    if (!d)
        return rl_exec_error(x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    char name[NAMEDATALEN];
    int rc = key_constraint_def(x, txn, schema, &rel, k, d, name);
    if (rc == 0)
        rc = rl_txn_create_index(txn, schema, name, d, x->err);
    free(d);
    return rc < 0 ? -1 : 0;
}

/* ------------------------------------------ a temporary table's keys */

/* The place of key column i of d among t's columns (-1: none). */
static int temp_key_col(const rl_temp_table *t, const rl_index_def *d, size_t i)
{
    for (size_t c = 0; c < t->rows->ncols; c++)
        if (strcmp(t->rows->cols[c].name, d->cols[i]) == 0)
            return (int)c;
    return -1;
}

/* Two non-NULL values of one column equal as the catalog's unique entries
 * find them (rl_datum_compare); a type the catalog does not store compares
 * by its text. */
static bool temp_values_equal(const rl_value *a, const rl_value *b)
{
    rl_type ty = rl_oid_type(a->oid);
    if (ty != RL_T_INVALID && a->oid == b->oid)
        return rl_datum_compare(ty, &a->d, &b->d) == 0;
    rl_buf ta, tb;
    rl_buf_init(&ta, 0);
    rl_buf_init(&tb, 0);
    rl_value_to_text(&ta, a);
    rl_value_to_text(&tb, b);
    bool eq = ta.len == tb.len && (!ta.len || memcmp(ta.data, tb.data, ta.len) == 0);
    rl_buf_free(&ta);
    rl_buf_free(&tb);
    return eq;
}

/* Do rows a and b (a temporary table's columns, its key columns at cols)
 * hold the same entry of key d? A NULL key column holds no entry, unless
 * NULLS NOT DISTINCT. */
static bool temp_same_entry(const rl_index_def *d, const int *cols, const rl_value *a,
                            const rl_value *b)
{
    for (size_t i = 0; i < d->ncols; i++) {
        const rl_value *va = &a[cols[i]], *vb = &b[cols[i]];
        if (va->d.isnull || vb->d.isnull) {
            if (!d->nulls_not_distinct || !va->d.isnull || !vb->d.isnull)
                return false;
            continue;
        }
        if (!temp_values_equal(va, vb))
            return false;
    }
    return true;
}

/* PostgreSQL's "Key (b, c)=(1, x) <what>." of row's entry in d. */
static void temp_key_detail(rl_exec *x, const rl_index_def *d, const int *cols,
                            const rl_value *row, const char *what)
{
    rl_buf b;
    rl_buf_init(&b, 0);
    rl_buf_put_str(&b, "Key (");
    for (size_t i = 0; i < d->ncols; i++)
        rl_buf_printf(&b, "%s%s", i ? ", " : "", d->cols[i]);
    rl_buf_put_str(&b, ")=(");
    for (size_t i = 0; i < d->ncols; i++) {
        if (i)
            rl_buf_put_str(&b, ", ");
        if (row[cols[i]].d.isnull)
            rl_buf_put_str(&b, "null");
        else
            rl_value_to_text(&b, &row[cols[i]]);
    }
    rl_buf_printf(&b, ") %s.", what);
    rl_buf_put_u8(&b, 0);
    if (!b.failed)
        rl_error_detail(x->err, "%s", (const char *)b.data);
    rl_buf_free(&b);
}

/* The places of d's key columns in t (false: one is gone). */
static bool temp_key_cols(const rl_temp_table *t, const rl_index_def *d, int *cols)
{
    for (size_t i = 0; i < d->ncols; i++)
        if ((cols[i] = temp_key_col(t, d, i)) < 0)
            return false;
    return true;
}

/* A key's hash of its table's rows' entries: open addressing over the
 * entries' hashes (rl_datum_equality_key's bytes, so equal entries hash
 * alike), each slot a row number + 1 (0 empty). It covers rows [0, nrows)
 * of `rows` while the table's `edits` is `edits`; an append adds to it,
 * any other change rebuilds it. */
struct rl_temp_key_hash {
    const rl_rowset *rows;
    uint64_t edits;
    size_t nrows, cap, used;
    uint64_t *hashes;
    size_t *slots;
    struct rl_temp_key_hash *more; /* the same over an UPDATE's new versions */
};

static void temp_hash_free(rl_temp_key_hash *kh)
{
    if (!kh)
        return;
    temp_hash_free(kh->more);
    free(kh->hashes);
    free(kh->slots);
    free(kh);
}

void rl_index_temp_key_free(rl_temp_key *k)
{
    temp_hash_free(k->hash);
    free(k);
}

/* The hash of row's entry in d; false when a NULL leaves it out. */
static bool temp_entry_hash(const rl_index_def *d, const int *cols, const rl_value *row,
                            rl_buf *scratch, uint64_t *h)
{
    *h = RL_HASH_SEED;
    for (size_t i = 0; i < d->ncols; i++) {
        const rl_value *v = &row[cols[i]];
        if (v->d.isnull && !d->nulls_not_distinct)
            return false;
        rl_buf_reset(scratch);
        rl_buf_put_u8(scratch, v->d.isnull ? 0 : 1);
        rl_type ty = rl_oid_type(v->oid);
        if (!v->d.isnull && ty != RL_T_INVALID)
            rl_datum_equality_key(scratch, ty, &v->d);
        else if (!v->d.isnull)
            rl_value_to_text(scratch, v);
        *h = rl_hash_bytes(*h, scratch->data, scratch->len);
        *h = rl_hash_bytes(*h, &i, sizeof i); /* the column boundary */
    }
    return !scratch->failed;
}

static bool temp_hash_put(rl_temp_key_hash *kh, uint64_t h, size_t r)
{
    if ((kh->used + 1) * 2 > kh->cap) {
        size_t cap = kh->cap ? kh->cap * 2 : 64;
        uint64_t *hs = calloc(cap, sizeof *hs);
        size_t *ss = calloc(cap, sizeof *ss);
        if (!hs || !ss) {
            free(hs);
            free(ss);
            return false;
        }
        for (size_t i = 0; i < kh->cap; i++) {
            if (!kh->slots[i])
                continue;
            size_t j = kh->hashes[i] & (cap - 1);
            while (ss[j])
                j = (j + 1) & (cap - 1);
            hs[j] = kh->hashes[i];
            ss[j] = kh->slots[i];
        }
        free(kh->hashes);
        free(kh->slots);
        kh->hashes = hs;
        kh->slots = ss;
        kh->cap = cap;
    }
    size_t j = h & (kh->cap - 1);
    while (kh->slots[j])
        j = (j + 1) & (kh->cap - 1);
    kh->hashes[j] = h;
    kh->slots[j] = r + 1;
    kh->used++;
    return true;
}

/* *slot (a hash of key d's entries) brought up to `rows` at `edits`: NULL
 * out of memory (the caller scans). */
static rl_temp_key_hash *temp_key_hash(rl_temp_key_hash **slot, rl_rowset *rows, uint64_t edits,
                                       const rl_index_def *d, const int *cols, rl_buf *scratch)
{
    rl_temp_key_hash *kh = *slot;
    if (kh && (kh->rows != rows || kh->edits != edits || kh->nrows > rows->nrows)) {
        kh->nrows = kh->used = 0; /* rebuilt */
        if (kh->cap)
            memset(kh->slots, 0, kh->cap * sizeof *kh->slots);
    }
    if (!kh && !(kh = *slot = calloc(1, sizeof *kh)))
        return NULL;
    kh->rows = rows;
    kh->edits = edits;
    for (; kh->nrows < rows->nrows; kh->nrows++) {
        uint64_t h;
        if (temp_entry_hash(d, cols, rl_rowset_row(rows, kh->nrows), scratch, &h) &&
            !temp_hash_put(kh, h, kh->nrows))
            return NULL;
        if (scratch->failed)
            return NULL;
    }
    return kh;
}

/* The first row (by number) of kh's rows, but those skip marks, that holds
 * row's entry of hash h in d: its number, or -1. */
static long temp_hash_find(const rl_temp_key_hash *kh, const rl_index_def *d, const int *cols,
                           const rl_value *row, uint64_t h, const bool *skip)
{
    long found = -1;
    for (size_t j = kh->cap ? h & (kh->cap - 1) : 0; kh->cap && kh->slots[j];
         j = (j + 1) & (kh->cap - 1)) {
        size_t r = kh->slots[j] - 1;
        if (kh->hashes[j] == h && !(skip && skip[r]) &&
            temp_same_entry(d, cols, row, rl_rowset_row((rl_rowset *)kh->rows, r)) &&
            (found < 0 || (long)r < found))
            found = (long)r;
    }
    return found;
}

/* The first row of t (but those skip marks), then of `more` (numbered
 * after t's), holding row's entry in key k: its number, or -1. t's rows
 * are found through k's hash (a scan if there is no memory for it). */
static long temp_key_holder(rl_temp_table *t, rl_temp_key *k, const int *cols,
                            const rl_value *row, const bool *skip, rl_rowset *more)
{
    rl_buf scratch;
    rl_buf_init(&scratch, 0);
    uint64_t h;
    bool entry = temp_entry_hash(&k->def, cols, row, &scratch, &h);
    bool no_memory = scratch.failed;
    rl_temp_key_hash *kh =
        entry ? temp_key_hash(&k->hash, t->rows, t->edits, &k->def, cols, &scratch) : NULL;
    rl_temp_key_hash *mh = kh && more ? temp_key_hash(&kh->more, more, 0, &k->def, cols, &scratch)
                                      : NULL;
    rl_buf_free(&scratch);
    if (!entry && !no_memory)
        return -1; /* a NULL: no entry, no duplicate */
    long found = kh ? temp_hash_find(kh, &k->def, cols, row, h, skip) : -1;
    if (found >= 0)
        return found;
    for (size_t r = 0; !kh && r < t->rows->nrows; r++)
        if (!(skip && skip[r]) && temp_same_entry(&k->def, cols, row, rl_rowset_row(t->rows, r)))
            return (long)r;
    found = mh ? temp_hash_find(mh, &k->def, cols, row, h, NULL) : -1;
    if (found >= 0)
        return (long)t->rows->nrows + found;
    for (size_t r = 0; !mh && more && r < more->nrows; r++)
        if (temp_same_entry(&k->def, cols, row, rl_rowset_row(more, r)))
            return (long)(t->rows->nrows + r);
    return -1;
}

long rl_index_temp_conflict(rl_temp_table *t, const rl_value *row, const rl_arbiters *arb)
{
    for (rl_temp_key *k = t->keys; k; k = k->next) {
        bool arbiter = arb->all && k->def.unique;
        for (size_t i = 0; !arbiter && i < arb->nids; i++)
            arbiter = arb->ids[i] == k->def.id;
        int cols[RL_INDEX_MAX_KEYS];
        long r = arbiter && temp_key_cols(t, &k->def, cols)
                     ? temp_key_holder(t, k, cols, row, NULL, NULL)
                     : -1;
        if (r >= 0)
            return r;
    }
    return -1;
}

int rl_index_temp_check_row(rl_exec *x, rl_temp_table *t, const rl_value *row,
                            const bool *skip, rl_rowset *more)
{
    for (rl_temp_key *k = t->keys; k; k = k->next) {
        int cols[RL_INDEX_MAX_KEYS];
        if (!k->def.unique || !temp_key_cols(t, &k->def, cols) ||
            temp_key_holder(t, k, cols, row, skip, more) < 0)
            continue;
        rl_exec_error(x, RL_SQLSTATE_UNIQUE_VIOLATION, -1,
                      "duplicate key value violates unique constraint \"%s\"", k->name);
        temp_key_detail(x, &k->def, cols, row, "already exists");
        return -1;
    }
    return 0;
}

/* The rows t holds already against a new key d (ALTER TABLE ADD, CREATE
 * UNIQUE INDEX): 0, or 23505 "could not create unique index" naming the
 * first duplicate. */
static int temp_key_holds(rl_exec *x, const rl_temp_table *t, const rl_index_def *d,
                          const char *name)
{
    int cols[RL_INDEX_MAX_KEYS];
    if (!temp_key_cols(t, d, cols))
        return 0;
    /* each row against the ones before it, through a hash of theirs */
    rl_temp_key_hash *kh = calloc(1, sizeof *kh);
    rl_buf scratch;
    rl_buf_init(&scratch, 0);
    int rc = kh ? 0 : rl_exec_error(x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    if (kh)
        kh->rows = t->rows;
    for (size_t r = 0; rc == 0 && r < t->rows->nrows; r++) {
        const rl_value *row = rl_rowset_row(t->rows, r);
        uint64_t h;
        if (!temp_entry_hash(d, cols, row, &scratch, &h)) {
            if (scratch.failed)
                rc = rl_exec_error(x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
            continue; /* a NULL: no entry */
        }
        if (temp_hash_find(kh, d, cols, row, h, NULL) >= 0) {
            rc = rl_exec_error(x, RL_SQLSTATE_UNIQUE_VIOLATION, -1,
                               "could not create unique index \"%s\"", name);
            temp_key_detail(x, d, cols, row, "is duplicated");
        } else if (!temp_hash_put(kh, h, r)) {
            rc = rl_exec_error(x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
        }
    }
    rl_buf_free(&scratch);
    temp_hash_free(kh);
    return rc;
}

/* k as a key of t (defined, named, t's rows checked), or NULL with the
 * error. */
static rl_temp_key *temp_key_new(rl_exec *x, rl_temp_table *t, const rl_key_constraint *k)
{
    rl_relation rel = {.kind = RL_REL_TEMP, .temp = t};
    rl_str_copy(rel.schema, sizeof rel.schema, "pg_temp");
    rl_str_copy(rel.name, sizeof rel.name, t->name);
    rl_temp_key *key = calloc(1, sizeof *key);
    if (!key) {
        rl_exec_error(x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
        return NULL;
    }
    if (key_constraint_def(x, NULL, "pg_temp", &rel, k, &key->def, key->name) < 0 ||
        temp_key_holds(x, t, &key->def, key->name) < 0) {
        free(key);
        return NULL;
    }
    return key;
}

int rl_index_temp_key_holds(rl_exec *x, rl_temp_table *t, const rl_key_constraint *k)
{
    for (size_t i = 0; i < k->ncols + k->ninclude; i++) {
        size_t c = 0;
        while (c < t->rows->ncols && strcmp(t->rows->cols[c].name, k->cols[i]) != 0)
            c++;
        if (c == t->rows->ncols)
            return 0; /* a column the statement adds: no rows to hold */
    }
    rl_temp_key *key = temp_key_new(x, t, k);
    free(key);
    return key ? 0 : -1;
}

int rl_index_add_temp_key(rl_exec *x, rl_temp_table *t, const rl_key_constraint *k)
{
    rl_temp_key **tail = &t->keys;
    uint64_t id = 1; /* ON CONFLICT's arbiters name it by its id, as a stored one's */
    for (; *tail; tail = &(*tail)->next)
        id = (*tail)->def.id >= id ? (*tail)->def.id + 1 : id;
    for (const rl_temp_key *o = t->keys; o; o = o->next)
        if (k->primary && o->def.primary)
            return rl_exec_error(x, RL_SQLSTATE_INVALID_TABLE_DEFINITION, -1,
                                 "multiple primary keys for table \"%s\" are not allowed",
                                 t->name);
    rl_temp_key *key = temp_key_new(x, t, k);
    if (!key)
        return -1;
    key->def.id = id;
    if (k->primary) { /* the primary key first, as PostgreSQL lists it */
        key->next = t->keys;
        t->keys = key;
    } else {
        *tail = key;
    }
    return 0;
}

int rl_index_drop_constraint(rl_exec *x, rl_txn *txn, const char *schema, const char *name)
{
    return drop_index(x, txn, schema, name);
}


/* ---------------------------------------------- ON CONFLICT arbiters */

/* An inference clause analysed: its plain columns (an expression that is
 * a bare column is that column), its expressions' texts as an index keeps
 * them (keep_texts' parentheses), the AND-ed terms of its WHERE. More
 * than an index can hold (`over`) matches no index. */
#define INFER_MAX (RL_INDEX_MAX_KEYS * 2)
typedef struct infer_spec {
    size_t ncols, nexprs, nwhere;
    const char *cols[INFER_MAX];
    char *exprs[INFER_MAX], *where[INFER_MAX];
    bool over;
    rl_rowset *shape; /* the table's columns (cols point into it) */
} infer_spec;

static void infer_spec_free(infer_spec *f)
{
    for (size_t i = 0; i < f->nexprs; i++)
        free(f->exprs[i]);
    for (size_t i = 0; i < f->nwhere; i++)
        free(f->where[i]);
}

/* tx's plain text as a string of its own (an expression column's in
 * parentheses unless it prints as a call); NULL out of memory. */
static char *text_of(const rl_check_text *tx, bool column)
{
    const char *plain = (const char *)tx->plain.data;
    size_t n = strlen(plain) + 3;
    char *t = malloc(n);
    if (t)
        snprintf(t, n, column && !tx->function_like ? "(%s)" : "%s", plain);
    return t;
}

static int add_text(rl_exec *x, char **list, size_t *n, bool *over, char *t)
{
    if (!t)
        return rl_exec_error(x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    for (size_t i = 0; i < *n; i++)
        if (strcmp(list[i], t) == 0) {
            free(t);
            return 0;
        }
    if (*n == INFER_MAX) {
        free(t);
        *over = true;
        return 0;
    }
    list[(*n)++] = t;
    return 0;
}

/* The AND-ed terms of predicate `expr` (a node of the running statement
 * or of the active parsed text), each analysed and printed, into list. */
static int predicate_terms(rl_exec *x, const rl_relation *rel, const PgQuery__Node *expr,
                           char **list, size_t *n, bool *over)
{
    if (expr->node_case == PG_QUERY__NODE__NODE_BOOL_EXPR &&
        expr->bool_expr->boolop == PG_QUERY__BOOL_EXPR_TYPE__AND_EXPR) {
        for (size_t i = 0; i < expr->bool_expr->n_args; i++)
            if (predicate_terms(x, rel, expr->bool_expr->args[i], list, n, over) < 0)
                return -1;
        return 0;
    }
    rl_check_text tx;
    if (index_expr(x, rel, expr, RL_DEPARSE_INDEX_PRED, NULL, NULL, &tx) < 0)
        return -1;
    int rc = tx.true_const ? 0 : add_text(x, list, n, over, text_of(&tx, false));
    rl_check_text_free(&tx);
    return rc;
}

static int infer_analyse(rl_exec *x, const rl_relation *rel, const PgQuery__InferClause *infer,
                         infer_spec *f)
{
    size_t ncols;
    rl_rowset *shape = rl_check_table_shape(x, rel, &ncols);
    if (!shape)
        return -1;
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < infer->n_index_elems; i++) {
        const PgQuery__IndexElem *e = infer->index_elems[i]->index_elem;
        const char *col = e && e->name && e->name[0] ? e->name : NULL;
        rl_check_text tx;
        bool analysed = false;
        if (!e || (!col && !e->expr) || e->n_collation || e->n_opclass) {
            rc = rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, infer->location,
                               "RockLake does not support collations or operator classes in "
                               "ON CONFLICT");
            break;
        }
        if (!col) {
            if (index_expr(x, rel, e->expr, RL_DEPARSE_INDEX_EXPR, NULL, NULL, &tx) < 0) {
                rc = -1;
                break;
            }
            analysed = true;
            if (tx.var)
                col = table_column(shape, tx.column) ? table_column(shape, tx.column)->name : NULL;
        }
        if (col) {
            const rl_colmeta *m = table_column(shape, col);
            if (!m)
                rc = rl_exec_error(x, RL_SQLSTATE_UNDEFINED_COLUMN, infer->location,
                                   "column \"%s\" does not exist", col);
            size_t j = 0;
            while (rc == 0 && j < f->ncols && strcmp(f->cols[j], m->name) != 0)
                j++;
            if (rc == 0 && j == f->ncols && f->ncols < INFER_MAX)
                f->cols[f->ncols++] = m->name;
            else if (rc == 0 && j == f->ncols)
                f->over = true;
        } else {
            rc = add_text(x, f->exprs, &f->nexprs, &f->over, text_of(&tx, true));
        }
        if (analysed)
            rl_check_text_free(&tx);
    }
    if (rc == 0 && infer->where_clause)
        rc = predicate_terms(x, rel, infer->where_clause, f->where, &f->nwhere, &f->over);
    /* the column names point into shape: kept until the match is done */
    f->shape = shape;
    return rc;
}

/* Is partial index d's predicate implied by the inference's WHERE? Each
 * of its AND-ed terms is one of the WHERE's (predicate_implied_by proves
 * more: this is its plainest case). 1, 0, -1. */
static int predicate_implied(rl_exec *x, const rl_relation *rel, const rl_index_def *d,
                             const infer_spec *f)
{
    rl_parsed *p = NULL;
    const PgQuery__Node *expr;
    if (rl_check_parse_text(x, rl_index_def_pred(d, false), &p, &expr) < 0)
        return -1;
    char *terms[INFER_MAX];
    size_t n = 0;
    bool over = false;
    const rl_parsed *prev = rl_parsed_activate(p);
    int rc = predicate_terms(x, rel, expr, terms, &n, &over);
    rl_parsed_activate(prev);
    rl_parsed_release(p);
    for (size_t i = 0; i < n; i++) {
        bool in = false;
        for (size_t j = 0; j < f->nwhere && !in; j++)
            in = strcmp(terms[i], f->where[j]) == 0;
        if (!in && rc == 0)
            rc = 1; /* one term not implied */
        free(terms[i]);
    }
    return rc < 0 ? -1 : rc == 0 && !over;
}

/* infer_arbiter_indexes' test of one UNIQUE index d: its plain key columns
 * are the inference's as a set, each of its expressions is one of the
 * inference's and each of those one of its, and a partial index's
 * predicate is implied by the WHERE. 1, 0, -1. */
static int index_matches(rl_exec *x, const rl_relation *rel, const rl_index_def *d,
                         const infer_spec *f)
{
    if (f->over)
        return 0;
    size_t plain = 0, exprs = 0;
    for (size_t c = 0; c < d->ncols; c++) {
        bool expr = d->opts[c] & RL_INDEX_COL_EXPR;
        bool in = false;
        for (size_t i = 0; !expr && i < f->ncols && !in; i++)
            in = strcmp(d->cols[c], f->cols[i]) == 0;
        for (size_t i = 0; expr && i < f->nexprs && !in; i++)
            in = strcmp(rl_index_def_expr(d, c, false), f->exprs[i]) == 0;
        if (!in)
            return 0;
    }
    for (size_t i = 0; i < f->ncols; i++) { /* every inferred one is the index's */
        bool in = false;
        for (size_t c = 0; c < d->ncols && !in; c++)
            in = !(d->opts[c] & RL_INDEX_COL_EXPR) && strcmp(d->cols[c], f->cols[i]) == 0;
        plain += in;
    }
    for (size_t i = 0; i < f->nexprs; i++) {
        bool in = false;
        for (size_t c = 0; c < d->ncols && !in; c++)
            in = d->opts[c] & RL_INDEX_COL_EXPR &&
                 strcmp(rl_index_def_expr(d, c, false), f->exprs[i]) == 0;
        exprs += in;
    }
    if (plain != f->ncols || exprs != f->nexprs)
        return 0;
    return d->partial ? predicate_implied(x, rel, d, f) : 1;
}

typedef struct arbiter_find {
    rl_exec *x;
    const rl_relation *rel;
    const infer_spec *spec;
    rl_arbiters *out;
} arbiter_find;

static int add_arbiter(void *ctx, const char *schema, const char *name, const rl_index_def *d)
{
    arbiter_find *f = ctx;
    (void)name;
    if (!d->unique || strcmp(schema, f->rel->schema) != 0 ||
        strcmp(d->table, f->rel->name) != 0 || f->out->nids == RL_MAX_ARBITERS)
        return 0;
    int m = index_matches(f->x, f->rel, d, f->spec);
    if (m == 1)
        f->out->ids[f->out->nids++] = d->id;
    return m < 0 ? -1 : 0;
}

int rl_index_arbiters(rl_exec *x, rl_txn *txn, const rl_relation *rel,
                      const PgQuery__InferClause *infer, rl_arbiters *out)
{
    memset(out, 0, sizeof *out);
    if (!infer) {
        out->all = out->pk = true;
        return 0;
    }
    const rl_table_desc *d = rel->kind == RL_REL_STORED ? rel->desc : NULL;
    bool has_pk = d && d->pk_check != RL_PK_NONE && d->pk_col >= 0;
    const rl_temp_key *temps = rel->kind == RL_REL_TEMP ? rel->temp->keys : NULL;
    for (const rl_temp_key *k = temps; k && infer->conname && infer->conname[0]; k = k->next)
        if (k->def.constraint && strcmp(k->name, infer->conname) == 0) {
            out->ids[out->nids++] = k->def.id;
            return 0;
        }
    if (infer->conname && infer->conname[0]) {
        char pkey[NAMEDATALEN + 8];
        snprintf(pkey, sizeof pkey, "%s_pkey", rel->name);
        rl_index_def def;
        int found = txn ? rl_index_find_constraint(x, txn, rel->schema, rel->name,
                                                   infer->conname, &def)
                        : 0;
        if (found < 0)
            return -1;
        if (found) {
            out->ids[out->nids++] = def.id;
            return 0;
        }
        if (has_pk && strcmp(infer->conname, pkey) == 0) {
            out->pk = true;
            return 0;
        }
        return rl_exec_error(x, RL_SQLSTATE_UNDEFINED_OBJECT, -1,
                             "constraint \"%s\" for table \"%s\" does not exist",
                             infer->conname, rel->name);
    }
    infer_spec *spec = calloc(1, sizeof *spec);
    if (!spec)
        return rl_exec_error(x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    int rc = infer_analyse(x, rel, infer, spec);
    if (rc == 0 && has_pk && !spec->over && spec->ncols == 1 && spec->nexprs == 0 &&
        strcmp(spec->cols[0], d->cols[d->pk_col].name) == 0)
        out->pk = true;
    arbiter_find f = {x, rel, spec, out};
    if (rc == 0 && txn && rl_txn_list_indexes(txn, add_arbiter, &f, x->err) < 0)
        rc = -1;
    for (const rl_temp_key *k = temps; rc == 0 && k; k = k->next)
        rc = add_arbiter(&f, rel->schema, k->name, &k->def);
    infer_spec_free(spec);
    rl_rowset_free(spec->shape);
    free(spec);
    if (rc < 0)
        return -1;
    if (!out->pk && out->nids == 0)
        return rl_exec_error(x, RL_SQLSTATE_INVALID_COLUMN_REFERENCE, -1,
                             "there is no unique or exclusion constraint matching the ON "
                             "CONFLICT specification");
    return 0;
}
