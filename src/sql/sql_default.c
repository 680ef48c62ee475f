/*
 * sql_default.c — column DEFAULTs of the catalog's tables: their DDL, their
 * values in the rows the SQL layer writes, and what they follow.
 *
 * Owns: CREATE TABLE's `DEFAULT expr`, ALTER TABLE's ALTER COLUMN SET /
 * DROP DEFAULT and ADD COLUMN's default (analysed as PostgreSQL's
 * cookDefault analyses it, printed as pg_get_expr prints it: sql_deparse.c;
 * the catalog keeps both texts under 0x80 0B), the session's cache of the
 * parsed defaults (keyed by the catalog registry's stamp, so rebuilt
 * whenever the definitions may have changed), their evaluation for a
 * column an INSERT leaves out or names with DEFAULT, and a table's defaults
 * following its DDL; the values a FOREIGN KEY's actions write through the
 * catalog's hooks (SET DEFAULT's default, ON UPDATE CASCADE's new key of
 * another type), assigned to the column.
 *
 * Invariants: the catalog stores the plain text of pg_get_expr, which is
 * what is evaluated; the caller assigns the value to the column (its
 * typmod: `varchar(3) DEFAULT 'abcdef'` is kept, and an INSERT that uses it
 * fails with 22001, as in PostgreSQL). A NULL default is never stored
 * (PostgreSQL keeps none). A stored dynamic table's defaults are the
 * catalog's; a temporary table's live in the session with the table (no
 * catalog view lists either); a DuckLake table's shape is its format's,
 * so it has none. A lake without defaults pays
 * one registry call per INSERT (one integer comparison in the catalog).
 */
#include <stdlib.h>
#include <string.h>

#include "sql/sql_cast.h"
#include "sql/sql_check.h"
#include "sql/sql_default.h"
#include "sql/sql_parse.h"
#include "sql/sql_scan.h"
#include "sql/sql_seq.h"

static bool has_defaults(const rl_relation *rel)
{
    return rel->kind == RL_REL_STORED && rl_desc_is_dynamic(rel->desc);
}

static void temp_default_free(rl_temp_default *d)
{
    rl_parsed_release(d->parsed);
    free(d->text);
    free(d->pretty);
    free(d);
}

void rl_default_free_temp(rl_temp_table *t)
{
    while (t->defaults) {
        rl_temp_default *d = t->defaults;
        t->defaults = d->next;
        temp_default_free(d);
    }
}

int rl_default_copy_temp(rl_temp_table *dst, const rl_temp_table *src)
{
    rl_temp_default **tail = &dst->defaults;
    for (const rl_temp_default *d = src->defaults; d; d = d->next) {
        rl_temp_default *c = calloc(1, sizeof *c);
        char *text = c ? strdup(d->text) : NULL;
        char *pretty = text && d->pretty ? strdup(d->pretty) : NULL;
        if (!text || (d->pretty && !pretty)) {
            free(text);
            free(c);
            return -1;
        }
        rl_str_copy(c->column, sizeof c->column, d->column);
        c->text = text; /* parsed again at its first use */
        c->pretty = pretty;
        c->identity = d->identity;
        *tail = c;
        tail = &c->next;
    }
    return 0;
}

void rl_default_follow_temp(rl_temp_table *t, const char *old_name, const char *new_name)
{
    for (rl_temp_default **pp = &t->defaults; *pp; pp = &(*pp)->next) {
        rl_temp_default *d = *pp;
        if (strcmp(d->column, old_name) != 0)
            continue;
        if (new_name) {
            rl_str_copy(d->column, sizeof d->column, new_name);
        } else {
            *pp = d->next;
            temp_default_free(d);
        }
        return;
    }
}

/* A temporary table's defaults for the columns of shape. 0 or -1. */
static int temp_defaults_of(rl_exec *x, rl_temp_table *t, const rl_rowset *shape, size_t ntab,
                            rl_defaults *out)
{
    for (rl_temp_default *d = t->defaults; d; d = d->next) {
        for (size_t col = 0; col < ntab && col < RL_MAX_COLUMNS; col++) {
            if (strcmp(shape->cols[col].name, d->column) != 0)
                continue;
            if (!d->parsed && rl_check_parse_text(x, d->text, &d->parsed, &d->expr) < 0)
                return -1;
            out->parsed[col] = d->parsed;
            out->expr[col] = d->expr;
            out->identity[col] = d->identity;
            out->any = true;
        }
    }
    return 0;
}

/* --------------------------------------------------------- evaluation */

int rl_defaults_of(rl_exec *x, const rl_relation *rel, const rl_rowset *shape, size_t ntab,
                   rl_defaults *out)
{
    memset(out, 0, sizeof *out);
    if (rel->kind == RL_REL_TEMP)
        return temp_defaults_of(x, rel->temp, shape, ntab, out);
    if (!has_defaults(rel))
        return 0;
    out->stored = true;
    rl_txn *txn = rl_exec_txn(x);
    if (!txn)
        return -1;
    const rl_check_con *c;
    size_t n;
    uint64_t stamp;
    if (rl_txn_defaults(txn, &c, &n, &stamp, x->err) < 0)
        return -1;
    for (size_t i = 0; i < n; i++) {
        if (strcmp(c[i].def.table, rel->name) != 0 || strcmp(c[i].schema, rel->schema) != 0)
            continue;
        for (size_t col = 0; col < ntab && col < RL_MAX_COLUMNS; col++) {
            if (strcmp(shape->cols[col].name, c[i].name) != 0)
                continue;
            rl_parsed *p;
            if (rl_expr_cache_get(x, &x->s->defaults, stamp, n, i, c[i].def.expr, &p,
                                  &out->expr[col]) < 0)
                return -1;
            out->parsed[col] = p;
            out->identity[col] = c[i].def.identity;
            out->any = true;
        }
    }
    return 0;
}

int rl_default_eval(rl_expr_ctx *ec, const rl_defaults *d, size_t c, rl_value *out)
{
    if (c >= RL_MAX_COLUMNS || !d->expr[c])
        return 0;
    const rl_parsed *prev = rl_parsed_activate(d->parsed[c]);
    rl_expr_ctx dc = {.x = ec->x, .arena = ec->arena}; /* no row: a default sees none */
    bool past = ec->x->past_temp;
    ec->x->past_temp = d->stored;
    int rc = rl_expr_eval(&dc, d->expr[c], out);
    ec->x->past_temp = past;
    rl_parsed_activate(prev);
    if (rc < 0) {
        ec->x->err->position = 0; /* a place in the default's text, not the statement's */
        return -1;
    }
    return 1;
}

/* The catalog's table d (schema.table) as the statement sees it: its
 * relation and shape (the caller frees it), NULL on error. */
static rl_rowset *fkey_table(rl_exec *x, const char *schema, const rl_table_desc *d,
                             rl_relation *rel)
{
    return rl_relation_lookup(x, schema, d->name, rel) < 0 ? NULL
                                                           : rl_relation_shape(x, rel, rel->name);
}

/* v assigned to column col of shape (its type and typmod, as an UPDATE
 * assigns), its bytes in the arena: the datum into *out. 0 or -1. */
static int assign_to_column(rl_expr_ctx *ec, const rl_rowset *shape, size_t col,
                            const rl_value *v, rl_datum *out)
{
    rl_value stored;
    if (rl_value_coerce(ec, v, shape->cols[col].oid, shape->cols[col].typmod, false, &stored,
                        -1) < 0 ||
        rl_value_own(ec->arena, &stored) < 0)
        return -1;
    *out = stored.d;
    return 0;
}

int rl_default_for_fkey(void *ctx, const char *schema, const rl_table_desc *d, size_t col,
                        rl_arena *arena, rl_datum *out, rl_error *err)
{
    rl_exec *x = ctx;
    rl_relation rel;
    memset(out, 0, sizeof *out);
    out->isnull = true;
    rl_rowset *shape = fkey_table(x, schema, d, &rel);
    int rc = shape ? 0 : -1;
    rl_defaults defs;
    if (rc == 0 && col < shape->ncols)
        rc = rl_defaults_of(x, &rel, shape, shape->ncols, &defs);
    rl_expr_ctx ec = {.x = x, .arena = arena};
    rl_value v;
    int got = rc == 0 && col < shape->ncols ? rl_default_eval(&ec, &defs, col, &v) : 0;
    if (got > 0)
        rc = assign_to_column(&ec, shape, col, &v, out);
    if (got < 0)
        rc = -1;
    rl_rowset_free(shape);
    if (rc < 0 && err != x->err)
        *err = *x->err;
    return rc;
}

int rl_cascade_for_fkey(void *ctx, const char *schema, const rl_table_desc *d, size_t col,
                        rl_type from, const rl_datum *in, rl_arena *arena, rl_datum *out,
                        rl_error *err)
{
    rl_exec *x = ctx;
    rl_relation rel;
    *out = *in;
    rl_rowset *shape = fkey_table(x, schema, d, &rel);
    rl_expr_ctx ec = {.x = x, .arena = arena};
    rl_value v = {.oid = rl_type_oid(from), .typmod = -1, .d = *in};
    int rc = !shape ? -1 : col < shape->ncols ? assign_to_column(&ec, shape, col, &v, out) : 0;
    rl_rowset_free(shape);
    if (rc < 0 && err != x->err)
        *err = *x->err;
    return rc;
}

int rl_default_kind(rl_exec *x, const char *schema, const char *table, const char *column)
{
    if (strcmp(schema, "pg_temp") == 0) { /* a temporary table's, in the session */
        for (const rl_temp_table *t = x->s->temps; t; t = t->next)
            for (const rl_temp_default *d = strcmp(t->name, table) ? NULL : t->defaults; d;
                 d = d->next)
                if (strcmp(d->column, column) == 0)
                    return d->identity ? d->identity : 'n';
        return 0;
    }
    rl_txn *txn = rl_exec_txn(x);
    const rl_check_con *c;
    size_t n;
    if (!txn || rl_txn_defaults(txn, &c, &n, NULL, x->err) < 0)
        return -1;
    for (size_t i = 0; i < n; i++)
        if (!strcmp(c[i].name, column) && !strcmp(c[i].def.table, table) &&
            !strcmp(c[i].schema, schema))
            return c[i].def.identity ? c[i].def.identity : 'n';
    return 0;
}

/* ---------------------------------------------------------------- DDL */

/* expr analysed as column's DEFAULT: 1 with its texts in *tx, 0 a NULL
 * default (nothing to keep), -1 error. */
static int analyse(rl_exec *x, const char *column, uint32_t oid, const PgQuery__Node *expr,
                   rl_check_text *tx)
{
    bool is_null;
    if (rl_default_deparse(x, expr, column, oid, tx, &is_null) < 0)
        return -1;
    if (is_null)
        return 0;
    /* the stored text must read back as itself: pg_get_expr shows it, and
     * the re-analysis of a later check must not change it */
    rl_parsed *p = NULL;
    const PgQuery__Node *again;
    rl_check_text tx2;
    bool null2;
    int rc = rl_check_parse_text(x, (const char *)tx->plain.data, &p, &again);
    if (rc == 0) {
        const rl_parsed *prev = rl_parsed_activate(p);
        rc = rl_default_deparse(x, again, column, oid, &tx2, &null2);
        rl_parsed_activate(prev);
    }
    rl_parsed_release(p);
    if (rc == 0) {
        bool same = !null2 && strcmp((const char *)tx2.plain.data,
                                     (const char *)tx->plain.data) == 0;
        rl_check_text_free(&tx2);
        if (!same)
            rc = rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, rl_node_location(expr),
                               "this DEFAULT expression is not supported by RockLake (its "
                               "printed form would not read back as itself)");
    }
    if (rc < 0) {
        rl_check_text_free(tx);
        return -1;
    }
    return 1;
}

/* A stored table's default that calls a temporary sequence (its text
 * names it bare, as regclass prints one pg_temp holds): 0A000. PostgreSQL
 * binds the default to the sequence's oid and drops it with the session;
 * RockLake keeps the name, which the next session would not find. */
static int no_temporary_sequence(rl_exec *x, const char *text)
{
    for (const rl_temp_seq *q = x->s->temp_seqs; q; q = q->next) {
        rl_buf lit;
        rl_buf_init(&lit, 0);
        rl_seq_regclass_literal(&lit, NULL, q->name);
        rl_buf_put_u8(&lit, 0);
        bool calls = !lit.failed && strstr(text, (const char *)lit.data) != NULL;
        rl_buf_free(&lit);
        if (calls)
            return rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                                 "a default of a stored table that calls temporary sequence "
                                 "\"%s\" is not supported by RockLake",
                                 q->name);
    }
    return 0;
}

int rl_default_set(rl_exec *x, const char *schema, const char *table, const char *column,
                   uint32_t oid, const PgQuery__Node *expr, char identity)
{
    rl_txn *txn = rl_exec_txn(x);
    if (!txn)
        return -1;
    rl_check_text tx;
    int got = expr ? analyse(x, column, oid, expr, &tx) : 0;
    if (got < 0)
        return -1;
    if (got == 0)
        return rl_txn_put_default(txn, schema, table, column, NULL, NULL, x->err);
    if (no_temporary_sequence(x, (const char *)tx.plain.data) < 0) {
        rl_check_text_free(&tx);
        return -1;
    }
    rl_check_def def = {.expr = (const char *)tx.plain.data,
                        .pretty = (const char *)tx.pretty.data, .identity = identity};
    rl_str_copy(def.table, sizeof def.table, table);
    int rc = rl_txn_put_default_def(txn, schema, column, &def, x->err);
    rl_check_text_free(&tx);
    return rc;
}

int rl_default_set_temp(rl_exec *x, rl_temp_table *t, const char *column, uint32_t oid,
                        const PgQuery__Node *expr, char identity)
{
    rl_default_follow_temp(t, column, NULL); /* the one it had goes */
    rl_check_text tx;
    int got = expr ? analyse(x, column, oid, expr, &tx) : 0;
    if (got <= 0)
        return got;
    rl_temp_default *d = calloc(1, sizeof *d);
    char *text = d ? strdup((const char *)tx.plain.data) : NULL;
    char *pretty = text ? strdup((const char *)tx.pretty.data) : NULL;
    rl_check_text_free(&tx);
    if (!pretty) {
        free(text);
        free(d);
        return rl_exec_error(x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    }
    rl_str_copy(d->column, sizeof d->column, column);
    d->text = text;
    d->pretty = pretty;
    d->identity = identity;
    d->next = t->defaults;
    t->defaults = d;
    return 0;
}

int rl_default_fill_value(rl_exec *x, const char *column, uint32_t oid, const PgQuery__Node *expr,
                          rl_expr_ctx *ec, rl_value *out, bool *per_row)
{
    rl_check_text tx;
    int got = analyse(x, column, oid, expr, &tx);
    *per_row = got > 0 && tx.is_volatile;
    if (got <= 0) {
        rl_val_null(out, RL_OID_UNKNOWN);
        return got;
    }
    rl_parsed *p = NULL;
    const PgQuery__Node *e;
    int rc = rl_check_parse_text(x, (const char *)tx.plain.data, &p, &e);
    if (rc == 0) {
        rl_defaults d = {.any = true};
        d.parsed[0] = p;
        d.expr[0] = e;
        rc = rl_default_eval(ec, &d, 0, out) < 0 ? -1 : 0;
        /* its bytes may be the parse tree's (a literal): keep them */
        if (rc == 0 && rl_value_own(ec->arena, out) < 0)
            rc = rl_exec_error(x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    }
    rl_parsed_release(p);
    rl_check_text_free(&tx);
    return rc;
}

/* The DEFAULT of a CREATE TABLE column: its raw_default, or a DEFAULT
 * constraint's expression. */
static const PgQuery__Node *column_default(const PgQuery__ColumnDef *cd)
{
    const PgQuery__Node *def = cd->raw_default;
    for (size_t i = 0; i < cd->n_constraints; i++) {
        const PgQuery__Node *c = cd->constraints[i];
        if (c->node_case == PG_QUERY__NODE__NODE_CONSTRAINT &&
            c->constraint->contype == PG_QUERY__CONSTR_TYPE__CONSTR_DEFAULT)
            def = c->constraint->raw_expr;
    }
    return def;
}

int rl_default_create_table(rl_exec *x, const char *schema, const char *table,
                            const PgQuery__CreateStmt *st)
{
    rl_relation rel;
    if (rl_relation_lookup(x, schema, table, &rel) < 0)
        return -1;
    rl_rowset *shape = NULL;
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < st->n_table_elts; i++) {
        const PgQuery__Node *e = st->table_elts[i];
        const PgQuery__Node *def =
            e->node_case == PG_QUERY__NODE__NODE_COLUMN_DEF ? column_default(e->column_def) : NULL;
        if (!def)
            continue;
        if (!has_defaults(&rel)) {
            rc = rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, e->column_def->location,
                               "column defaults on DuckLake's own tables are not supported by "
                               "RockLake");
            break;
        }
        if (!shape && !(shape = rl_relation_shape(x, &rel, rel.name))) {
            rc = -1;
            break;
        }
        const char *name = e->column_def->colname;
        size_t c = 0;
        while (c < shape->ncols && strcmp(shape->cols[c].name, name) != 0)
            c++;
        if (c == shape->ncols)
            rc = rl_exec_error(x, RL_SQLSTATE_INTERNAL_ERROR, -1,
                               "column \"%s\" of the new table is not in it", name);
        else
            rc = rl_default_set(x, schema, table, name, shape->cols[c].oid, def, 0);
    }
    rl_rowset_free(shape);
    return rc;
}

/* ------------------------------------------------------ following DDL */

typedef struct follow_ctx {
    rl_exec *x;
    rl_txn *txn;
    const rl_table_change *ch;
} follow_ctx;

static int follow_one(void *ctx, const rl_check_con *c)
{
    follow_ctx *f = ctx;
    const rl_table_change *ch = f->ch;
    rl_error *err = f->x->err;
    bool dropped = ch->dropped_table ||
                   (ch->dropped_column && strcmp(ch->dropped_column, c->name) == 0);
    bool renamed = ch->old_column && strcmp(ch->old_column, c->name) == 0;
    if (!dropped && !renamed && !ch->new_table)
        return 0;
    if (rl_txn_put_default(f->txn, c->schema, c->def.table, c->name, NULL, NULL, err) < 0)
        return -1;
    if (dropped)
        return 0;
    rl_check_def def = c->def; /* its identity flag too */
    if (ch->new_table)
        rl_str_copy(def.table, sizeof def.table, ch->new_table);
    return rl_txn_put_default_def(f->txn, c->schema, renamed ? ch->new_column : c->name, &def,
                                  err);
}

int rl_default_table_changed(rl_exec *x, rl_txn *txn, const char *schema, const char *table,
                             const rl_table_change *ch)
{
    /* the stored definitions, not the registry: the table is gone under
     * its old name already (dropped, or rebuilt under the new one) */
    follow_ctx f = {x, txn, ch};
    return rl_txn_table_defaults(txn, schema, table, follow_one, &f, x->err);
}
