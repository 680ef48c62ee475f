/*
 * sql_check.c — CHECK constraints on the catalog's tables: their DDL, their
 * enforcement on every row the SQL layer writes, and what pg_constraint
 * and pg_get_constraintdef show of them.
 *
 * Owns: CREATE TABLE's column and table CHECKs, ALTER TABLE ADD [NOT
 * VALID] / VALIDATE / DROP / RENAME CONSTRAINT of a CHECK, PostgreSQL's
 * generated names (<table>_<column>_check, <table>_check, numbered on a
 * collision), the 23514 of ALTER's validation and of a written row, the
 * session's cache of parsed expressions (keyed by the catalog registry's
 * stamp, so rebuilt whenever the definitions may have changed), and a
 * table's CHECKs following its DDL. A temporary table's CHECKs are the
 * same texts kept with it in the session (rl_temp_check, in name order,
 * each parsed at its first use), as are its NOT NULLs, checked here too.
 *
 * Invariants: the catalog stores the plain text of pg_get_constraintdef
 * (sql_deparse.c), which is what is evaluated: a NULL result passes, as in
 * PostgreSQL. A lake without CHECKs pays one registry call per row write
 * (one integer comparison in the catalog). A table's CHECKs are checked in
 * name order (PostgreSQL's), so the same one names a violation.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/utf8.h"
#include "sql/sql_cast.h"
#include "sql/sql_check.h"
#include "sql/sql_expr.h"
#include "sql/sql_parse.h"
#include "sql/sql_scan.h"

struct rl_expr_cache {
    uint64_t stamp;
    size_t n;
    rl_parsed **parsed; /* n, aligned with the registry; NULL until first used */
};

static int oom(rl_exec *x)
{
    return rl_exec_error(x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
}

void rl_expr_cache_free(rl_expr_cache **cache)
{
    rl_expr_cache *c = *cache;
    if (!c)
        return;
    for (size_t i = 0; i < c->n; i++)
        rl_parsed_release(c->parsed[i]);
    free(c->parsed);
    free(c);
    *cache = NULL;
}

/* --------------------------------------------------------- evaluation */

int rl_check_eval(rl_exec *x, const rl_parsed *p, const PgQuery__Node *expr,
                  const rl_rowset *shape, size_t ncols, const rl_value *row, rl_arena *arena,
                  uint32_t oid, int32_t typmod, rl_value *out)
{
    rl_rowset *rs = rl_rowset_new(ncols);
    if (!rs)
        return oom(x);
    memcpy(rs->cols, shape->cols, ncols * sizeof *rs->cols);
    /* the row by reference: a result may be one of its values (coalesce(s,
     * t)), which must outlive this row set (the caller's row does) */
    int rc = rl_rowset_add_ref(rs, row, x->err);
    rl_binding b = {.rs = rs, .row = 0};
    rl_expr_ctx ec = {.x = x, .b = &b, .arena = arena};
    rl_value v;
    const rl_parsed *prev = rl_parsed_activate(p);
    if (rc == 0)
        rc = rl_expr_eval(&ec, expr, &v);
    if (rc == 0 && oid && v.oid != oid) {
        rl_value in = v;
        rc = rl_value_coerce(&ec, &in, oid, typmod, true, &v, -1);
    }
    rl_parsed_activate(prev);
    if (rc < 0)
        x->err->position = 0; /* a place in the stored text, not the statement's */
    else
        *out = v;
    rl_rowset_free(rs);
    return rc < 0 ? -1 : 0;
}

/* expr on one row of the table (shape's columns): 1 passes (true or
 * NULL), 0 fails, -1 error. */
static int holds(rl_exec *x, const rl_parsed *p, const PgQuery__Node *expr, const rl_rowset *shape,
                 size_t ncols, const rl_value *row)
{
    rl_arena arena;
    memset(&arena, 0, sizeof arena);
    rl_value v;
    int rc = rl_check_eval(x, p, expr, shape, ncols, row, &arena, 0, -1, &v);
    int out = rc < 0 ? -1 : v.d.isnull || (v.oid == RL_OID_BOOL && v.d.v.b) ? 1 : 0;
    rl_arena_free(&arena);
    return out;
}

int rl_expr_cache_get(rl_exec *x, rl_expr_cache **cache, uint64_t stamp, size_t n, size_t i,
                      const char *text, rl_parsed **p, const PgQuery__Node **expr)
{
    rl_expr_cache *cc = *cache;
    if (!cc || cc->stamp != stamp || cc->n != n) {
        rl_expr_cache_free(cache);
        cc = calloc(1, sizeof *cc);
        rl_parsed **a = cc ? calloc(n ? n : 1, sizeof *a) : NULL;
        if (!a) {
            free(cc);
            return oom(x);
        }
        cc->stamp = stamp;
        cc->n = n;
        cc->parsed = a;
        *cache = cc;
    }
    if (!cc->parsed[i] && rl_check_parse_text(x, text, &cc->parsed[i], expr) < 0)
        return -1;
    *p = cc->parsed[i];
    const PgQuery__ParseResult *t = rl_parsed_tree(*p);
    *expr = t->stmts[0]->stmt->select_stmt->target_list[0]->res_target->val;
    return 0;
}

/* PostgreSQL's DETAIL "Failing row contains (1, x, null)." (a value longer
 * than 64 bytes cut there, "..." after it). */
static void failing_row(rl_exec *x, const rl_value *row, size_t ncols)
{
    rl_buf b, val;
    rl_buf_init(&b, 0);
    rl_buf_init(&val, 0);
    rl_buf_put_str(&b, "Failing row contains (");
    for (size_t i = 0; i < ncols; i++) {
        if (i)
            rl_buf_put_str(&b, ", ");
        if (row[i].d.isnull) {
            rl_buf_put_str(&b, "null");
            continue;
        }
        rl_buf_reset(&val);
        rl_value_to_text(&val, &row[i]);
        size_t len = val.len;
        rl_buf_put_u8(&val, 0); /* rl_utf8_clip reads a C string */
        if (val.failed)
            break;
        bool cut = len > 64; /* ExecBuildSlotValueDescription's maxfieldlen */
        if (cut)
            len = rl_utf8_clip((const char *)val.data, 64);
        rl_buf_put(&b, val.data, len);
        if (cut)
            rl_buf_put_str(&b, "...");
    }
    rl_buf_put_str(&b, ").");
    rl_buf_put_u8(&b, 0);
    if (!b.failed && !val.failed)
        rl_error_detail(x->err, "%s", (const char *)b.data);
    rl_buf_free(&val);
    rl_buf_free(&b);
}

/* The outcome `ok` of CHECK `name` on row (holds): 0 passed, -1 failed
 * (23514 with the failing row) or an error. */
static int check_outcome(rl_exec *x, const rl_relation *rel, const char *name, int ok,
                         const rl_value *row, size_t ncols)
{
    if (ok > 0)
        return 0;
    if (ok == 0) {
        rl_exec_error(x, RL_SQLSTATE_CHECK_VIOLATION, -1,
                      "new row for relation \"%s\" violates check constraint \"%s\"", rel->name,
                      name);
        failing_row(x, row, ncols);
    }
    return -1;
}

/* A temporary table's CHECKs (in name order) on row. 0 or -1. */
static int temp_checks_hold(rl_exec *x, const rl_relation *rel, const rl_value *row,
                            size_t ncols)
{
    rl_rowset *shape = NULL;
    size_t tcols = 0;
    int rc = 0;
    for (rl_temp_check *c = rel->temp->checks; rc == 0 && c; c = c->next) {
        if (!shape && !(shape = rl_check_table_shape(x, rel, &tcols)))
            return -1;
        if (!c->parsed && rl_check_parse_text(x, c->text, &c->parsed, &c->expr) < 0) {
            rc = -1;
            break;
        }
        size_t n = tcols < ncols ? tcols : ncols;
        rc = check_outcome(x, rel, c->name, holds(x, c->parsed, c->expr, shape, n, row), row, n);
    }
    rl_rowset_free(shape);
    return rc;
}

int rl_check_row(rl_exec *x, const rl_relation *rel, const rl_value *row, size_t ncols)
{
    /* ExecConstraints: NOT NULL before the CHECKs, the row in its DETAIL
     * (the catalog refuses such a row too, without the row's text) */
    bool temp = rel->kind == RL_REL_TEMP;
    for (size_t i = 0; i < ncols; i++) {
        if (!(temp ? rel->temp->not_null[i] : rel->desc->cols[i].not_null) || !row[i].d.isnull)
            continue;
        rl_exec_error(x, RL_SQLSTATE_NOT_NULL_VIOLATION, -1,
                      "null value in column \"%s\" of relation \"%s\" violates not-null "
                      "constraint",
                      temp ? rel->temp->rows->cols[i].name : rel->desc->cols[i].name, rel->name);
        failing_row(x, row, ncols);
        return -1;
    }
    if (temp) /* its CHECKs are kept with it */
        return temp_checks_hold(x, rel, row, ncols);
    rl_txn *txn = rl_exec_txn(x);
    if (!txn)
        return -1;
    const rl_check_con *c;
    size_t n;
    uint64_t stamp;
    if (rl_txn_checks(txn, &c, &n, &stamp, x->err) < 0)
        return -1;
    rl_rowset *shape = NULL;
    size_t tcols = 0;
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        if (strcmp(c[i].def.table, rel->name) != 0 || strcmp(c[i].schema, rel->schema) != 0)
            continue;
        rl_parsed *p = NULL;
        const PgQuery__Node *expr = NULL;
        if (!shape && !(shape = rl_check_table_shape(x, rel, &tcols)))
            return -1;
        if (rl_expr_cache_get(x, &x->s->checks, stamp, n, i, c[i].def.expr, &p, &expr) < 0) {
            rc = -1;
            break;
        }
        size_t nc = tcols < ncols ? tcols : ncols;
        rc = check_outcome(x, rel, c[i].name, holds(x, p, expr, shape, nc, row), row, nc);
    }
    rl_rowset_free(shape);
    return rc;
}

/* Every row of rel satisfies the expression `text` (ALTER's validation):
 * 0, or -1 with 23514 naming the constraint. */
static int validate_rows(rl_exec *x, const rl_relation *rel, const char *name, const char *text)
{
    rl_parsed *p;
    const PgQuery__Node *expr;
    if (rl_check_parse_text(x, text, &p, &expr) < 0)
        return -1;
    rl_rowset *rows = rl_relation_scan(x, rel, rel->name, NULL, RL_SCAN_KEY);
    size_t ncols = 0;
    rl_rowset *shape = rows ? rl_check_table_shape(x, rel, &ncols) : NULL;
    int rc = shape ? 0 : -1;
    for (size_t r = 0; rc == 0 && r < rows->nrows; r++) {
        int ok = holds(x, p, expr, shape, ncols, rl_rowset_row(rows, r));
        if (ok < 0)
            rc = -1;
        else if (ok == 0)
            rc = rl_exec_error(x, RL_SQLSTATE_CHECK_VIOLATION, -1,
                               "check constraint \"%s\" of relation \"%s\" is violated by some row",
                               name, rel->name);
    }
    rl_rowset_free(shape);
    rl_rowset_free(rows);
    rl_parsed_release(p);
    return rc;
}

/* ---------------------------------------------------------------- DDL */

/* The temporary table `table`'s CHECK `name`, or NULL. */
static rl_temp_check *temp_find(rl_exec *x, const char *table, const char *name)
{
    for (rl_temp_table *t = x->s->temps; t; t = t->next)
        for (rl_temp_check *c = strcmp(t->name, table) == 0 ? t->checks : NULL; c; c = c->next)
            if (strcmp(c->name, name) == 0)
                return c;
    return NULL;
}

static int find(rl_exec *x, const char *schema, const char *table, const char *name,
                rl_check_con *out)
{
    if (strcmp(schema, "pg_temp") == 0)
        return temp_find(x, table, name) != NULL;
    rl_txn *txn = rl_exec_txn(x);
    if (!txn)
        return -1;
    const rl_check_con *c;
    size_t n;
    if (rl_txn_checks(txn, &c, &n, NULL, x->err) < 0)
        return -1;
    for (size_t i = 0; i < n; i++)
        if (!strcmp(c[i].name, name) && !strcmp(c[i].def.table, table) &&
            !strcmp(c[i].schema, schema)) {
            if (out)
                *out = c[i];
            return 1;
        }
    return 0;
}

/* Is `name` a constraint name in schema already (ChooseConstraintName's
 * test), or one this statement chose? */
static int name_used(rl_exec *x, const char *schema, const char *name, char (*chosen)[64],
                     size_t nchosen)
{
    for (size_t i = 0; i < nchosen; i++)
        if (!strcmp(chosen[i], name))
            return 1;
    for (const rl_temp_table *t = strcmp(schema, "pg_temp") == 0 ? x->s->temps : NULL; t;
         t = t->next)
        for (const rl_temp_check *c = t->checks; c; c = c->next)
            if (!strcmp(c->name, name))
                return 1;
    if (strcmp(schema, "pg_temp") == 0)
        return rl_index_name_taken(x, NULL, schema, name);
    rl_txn *txn = rl_exec_txn(x);
    const rl_check_con *c;
    size_t n;
    if (!txn || rl_txn_checks(txn, &c, &n, NULL, x->err) < 0)
        return -1;
    for (size_t i = 0; i < n; i++)
        if (!strcmp(c[i].name, name) && !strcmp(c[i].schema, schema))
            return 1;
    return rl_index_name_taken(x, txn, schema, name);
}

/* makeObjectName + ChooseConstraintName: <table>[_<column>]_check, the
 * parts cut to fit 63 bytes, then numbered 1, 2, ... until free. */
static int choose_name(rl_exec *x, const char *schema, const char *table, const char *column,
                       char (*chosen)[64], size_t nchosen, char *out)
{
    for (int pass = 0;; pass++) {
        char label[32];
        snprintf(label, sizeof label, pass ? "check%d" : "check", pass);
        size_t t = strlen(table), c = column[0] ? strlen(column) : 0;
        size_t avail = 63 - strlen(label) - 1 - (c ? 1 : 0);
        while (t + c > avail) { /* cut the longer part first, as makeObjectName */
            if (t > c)
                t--;
            else
                c--;
        }
        t = rl_utf8_clip(table, t);
        c = c ? rl_utf8_clip(column, c) : 0;
        if (c)
            snprintf(out, 64, "%.*s_%.*s_%s", (int)t, table, (int)c, column, label);
        else
            snprintf(out, 64, "%.*s_%s", (int)t, table, label);
        int used = name_used(x, schema, out, chosen, nchosen);
        if (used <= 0)
            return used;
    }
}

/* One CHECK of table rel (shape given) stored under its name (chosen when
 * c has none). */
/* A new CHECK of temporary table t, in name order. 0 or -1. */
static int temp_put(rl_exec *x, rl_temp_table *t, const char *name, const rl_check_text *tx,
                    bool not_valid)
{
    rl_temp_check *c = calloc(1, sizeof *c);
    if (!c || !(c->text = strdup((const char *)tx->plain.data)) ||
        !(c->pretty = strdup((const char *)tx->pretty.data))) {
        if (c)
            free(c->text);
        free(c);
        return oom(x);
    }
    rl_str_copy(c->name, sizeof c->name, name);
    c->not_valid = not_valid;
    rl_temp_check **pp = &t->checks;
    while (*pp && strcmp((*pp)->name, name) < 0)
        pp = &(*pp)->next;
    c->next = *pp;
    *pp = c;
    return 0;
}

/* Is `name` one of temporary table t's keys? */
static bool temp_key_named(const rl_temp_table *t, const char *name)
{
    for (const rl_temp_key *k = t->keys; k; k = k->next)
        if (k->def.constraint && !strcmp(k->name, name))
            return true;
    return false;
}

static int add_one(rl_exec *x, const char *schema, const char *table, const rl_rowset *shape,
                   size_t ncols, const PgQuery__Constraint *c, bool in_create, char (*chosen)[64],
                   size_t *nchosen, const rl_relation *rel, rl_temp_table *temp)
{
    if (!c->raw_expr)
        return rl_exec_error(x, RL_SQLSTATE_SYNTAX_ERROR, c->location, "CHECK needs an expression");
    rl_check_text tx;
    if (rl_check_deparse(x, c->raw_expr, shape, ncols, table, NULL, NULL, &tx) < 0)
        return -1;
    char name[64];
    int rc = 0;
    if (tx.plain.len + tx.pretty.len > RL_CHECK_TEXT_MAX) /* both with their NULs */
        rc = rl_exec_error(x, RL_SQLSTATE_PROGRAM_LIMIT_EXCEEDED, c->location,
                           "CHECK expression of %zu bytes exceeds RockLake's maximum %d",
                           tx.plain.len + tx.pretty.len, RL_CHECK_TEXT_MAX);
    else if (rl_deparse_reads_back(x, &tx, shape, ncols, table, RL_DEPARSE_CHECK) < 0)
        rc = -1;
    else if (c->conname && c->conname[0]) {
        rl_str_copy(name, sizeof name, c->conname);
        int dup = 0;
        for (size_t i = 0; i < *nchosen && !dup; i++)
            dup = !strcmp(chosen[i], name);
        if (!dup)
            dup = find(x, schema, table, name, NULL);
        if (dup == 0 && rel && temp)
            dup = temp_key_named(temp, name);
        else if (dup == 0 && rel)
            dup = rl_index_find_constraint(x, rl_exec_txn(x), schema, table, name, NULL);
        if (dup > 0)
            rc = in_create ? rl_exec_error(x, RL_SQLSTATE_DUPLICATE_OBJECT, -1,
                                           "check constraint \"%s\" already exists", name)
                           : rl_exec_error(x, RL_SQLSTATE_DUPLICATE_OBJECT, -1,
                                           "constraint \"%s\" for relation \"%s\" already exists",
                                           name, table);
        else if (dup < 0)
            rc = -1;
    } else {
        rc = choose_name(x, schema, table, tx.column, chosen, *nchosen, name);
    }
    bool not_valid = !in_create && c->skip_validation;
    if (rc == 0 && rel && !not_valid)
        rc = validate_rows(x, rel, name, (const char *)tx.plain.data);
    if (rc == 0 && temp) {
        rc = temp_put(x, temp, name, &tx, not_valid);
    } else if (rc == 0) {
        rl_check_def def;
        memset(&def, 0, sizeof def);
        rl_str_copy(def.table, sizeof def.table, table);
        def.not_valid = not_valid;
        def.no_inherit = c->is_no_inherit;
        def.expr = (const char *)tx.plain.data;
        def.pretty = (const char *)tx.pretty.data;
        def.nconkey = tx.nconkey;
        memcpy(def.conkey, tx.conkey, tx.nconkey * sizeof *def.conkey);
        rl_txn *txn = rl_exec_txn(x);
        rc = txn ? rl_txn_put_check(txn, schema, name, &def, rel && !not_valid ? rel->desc : NULL,
                                    x->err)
                 : -1;
    }
    if (rc == 0 && *nchosen < RL_MAX_COLUMNS * 2)
        rl_str_copy(chosen[(*nchosen)++], 64, name);
    rl_check_text_free(&tx);
    return rc;
}

/* What CREATE TABLE's walk over its constraints adds the CHECKs with (the
 * table's shape read at the first one; the names chosen so far, which the
 * catalog does not hold yet). */
typedef struct create_checks {
    rl_exec *x;
    const char *schema, *table;
    rl_relation rel;
    rl_rowset *shape;
    size_t ncols;
    char (*chosen)[64];
    size_t nchosen;
} create_checks;

static int add_if_check(void *ctx, const PgQuery__Constraint *c, const char *column)
{
    create_checks *cc = ctx;
    (void)column; /* a column CHECK may name any column, as a table one */
    if (c->contype != PG_QUERY__CONSTR_TYPE__CONSTR_CHECK)
        return 0;
    if (!cc->shape && !(cc->shape = rl_check_table_shape(cc->x, &cc->rel, &cc->ncols)))
        return -1;
    return add_one(cc->x, cc->schema, cc->table, cc->shape, cc->ncols, c, true, cc->chosen,
                   &cc->nchosen, NULL, cc->rel.kind == RL_REL_TEMP ? cc->rel.temp : NULL) < 0
               ? -1
               : 0;
}

int rl_check_create_table(rl_exec *x, const char *schema, const char *table,
                          const PgQuery__CreateStmt *st)
{
    create_checks cc = {.x = x, .schema = schema, .table = table};
    if (rl_relation_lookup(x, schema, table, &cc.rel) < 0)
        return -1;
    if (!(cc.chosen = calloc(RL_MAX_COLUMNS * 2, 64)))
        return oom(x);
    int rc = rl_create_constraints(st, add_if_check, &cc) != 0 ? -1 : 0;
    rl_rowset_free(cc.shape);
    free(cc.chosen);
    return rc;
}

int rl_check_add(rl_exec *x, const rl_relation *rel, const PgQuery__Constraint *c)
{
    size_t ncols;
    rl_rowset *shape = rl_check_table_shape(x, rel, &ncols);
    if (!shape)
        return -1;
    char chosen[1][64];
    size_t nchosen = 0;
    int rc = add_one(x, rel->schema, rel->name, shape, ncols, c, false, chosen, &nchosen, rel,
                     rel->kind == RL_REL_TEMP ? rel->temp : NULL);
    rl_rowset_free(shape);
    return rc;
}

int rl_check_drop(rl_exec *x, const rl_relation *rel, const char *name)
{
    for (rl_temp_check **pp = rel->kind == RL_REL_TEMP ? &rel->temp->checks : NULL; pp && *pp;
         pp = &(*pp)->next)
        if (strcmp((*pp)->name, name) == 0) {
            rl_temp_check *c = *pp;
            *pp = c->next;
            c->next = NULL;
            rl_check_free_temp(&c);
            return 1;
        }
    if (rel->kind == RL_REL_TEMP)
        return 0;
    int found = find(x, rel->schema, rel->name, name, NULL);
    if (found <= 0)
        return found;
    rl_txn *txn = rl_exec_txn(x);
    return rl_txn_drop_check(txn, rel->schema, rel->name, name, x->err) < 0 ? -1 : 1;
}

/* c with its own copy of the texts (the registry's are rebuilt by the
 * next write); free with free(c->def.expr). */
static int own_copy(rl_exec *x, rl_check_con *c)
{
    size_t a = strlen(c->def.expr) + 1, b = strlen(c->def.pretty) + 1;
    char *t = malloc(a + b);
    if (!t)
        return oom(x);
    memcpy(t, c->def.expr, a);
    memcpy(t + a, c->def.pretty, b);
    c->def.expr = t;
    c->def.pretty = t + a;
    return 0;
}

int rl_check_validate(rl_exec *x, const rl_relation *rel, const char *name)
{
    rl_temp_check *tc = rel->kind == RL_REL_TEMP ? temp_find(x, rel->name, name) : NULL;
    if (tc) {
        if (tc->not_valid && validate_rows(x, rel, name, tc->text) < 0)
            return -1;
        tc->not_valid = false;
        return 1;
    }
    if (rel->kind == RL_REL_TEMP)
        return 0;
    rl_check_con c;
    int found = find(x, rel->schema, rel->name, name, &c);
    if (found <= 0 || !c.def.not_valid)
        return found;
    if (own_copy(x, &c) < 0)
        return -1;
    int rc = validate_rows(x, rel, name, c.def.expr);
    c.def.not_valid = false;
    rl_txn *txn = rl_exec_txn(x);
    if (rc == 0)
        rc = rl_txn_put_check(txn, rel->schema, name, &c.def, rel->desc, x->err);
    free((char *)c.def.expr);
    return rc < 0 ? -1 : 1;
}

int rl_check_rename(rl_exec *x, const rl_relation *rel, const char *name, const char *newname)
{
    if (rel->kind == RL_REL_TEMP) { /* out of its place in name order and back */
        rl_temp_check **pp = &rel->temp->checks;
        while (*pp && strcmp((*pp)->name, name) != 0)
            pp = &(*pp)->next;
        if (!*pp)
            return 0;
        if (temp_find(x, rel->name, newname) || temp_key_named(rel->temp, newname))
            return rl_exec_error(x, RL_SQLSTATE_DUPLICATE_OBJECT, -1,
                                 "constraint \"%s\" for relation \"%s\" already exists", newname,
                                 rel->name);
        rl_temp_check *c = *pp;
        *pp = c->next;
        rl_str_copy(c->name, sizeof c->name, newname);
        for (pp = &rel->temp->checks; *pp && strcmp((*pp)->name, newname) < 0;)
            pp = &(*pp)->next;
        c->next = *pp;
        *pp = c;
        return 1;
    }
    rl_check_con c;
    int found = find(x, rel->schema, rel->name, name, &c);
    if (found <= 0)
        return found;
    int dup = find(x, rel->schema, rel->name, newname, NULL);
    if (dup == 0)
        dup = rl_index_find_constraint(x, rl_exec_txn(x), rel->schema, rel->name, newname, NULL);
    if (dup != 0)
        return dup < 0 ? -1
                       : rl_exec_error(x, RL_SQLSTATE_DUPLICATE_OBJECT, -1,
                                       "constraint \"%s\" for relation \"%s\" already exists",
                                       newname, rel->name);
    if (own_copy(x, &c) < 0)
        return -1;
    rl_txn *txn = rl_exec_txn(x);
    int rc = rl_txn_drop_check(txn, rel->schema, rel->name, name, x->err);
    if (rc == 0)
        rc = rl_txn_put_check(txn, rel->schema, newname, &c.def, NULL, x->err);
    free((char *)c.def.expr);
    return rc < 0 ? -1 : 1;
}

/* One CHECK of a changed table: dropped with it or with a column it uses,
 * moved to its new name, its text rewritten for a renamed column. */
static int follow_one(rl_exec *x, rl_txn *txn, const rl_check_con *c, const rl_table_change *ch)
{
    if (ch->dropped_table)
        return rl_txn_drop_check(txn, c->schema, c->def.table, c->name, x->err);
    const char *table = ch->new_table ? ch->new_table : c->def.table;
    rl_relation rel;
    if (rl_relation_lookup(x, c->schema, table, &rel) < 0)
        return -1;
    size_t ncols;
    rl_rowset *shape = rl_check_table_shape(x, &rel, &ncols);
    rl_parsed *p = NULL;
    const PgQuery__Node *expr;
    if (!shape || rl_check_parse_text(x, c->def.expr, &p, &expr) < 0) {
        rl_rowset_free(shape);
        return -1;
    }
    rl_check_text tx;
    const rl_parsed *prev = rl_parsed_activate(p);
    rl_error keep = *x->err;
    int rc = rl_check_deparse(x, expr, shape, ncols, table, ch->old_column, ch->new_column, &tx);
    rl_parsed_activate(prev);
    rl_parsed_release(p);
    rl_rowset_free(shape);
    if (rc < 0 && ch->dropped_column && !strcmp(x->err->sqlstate, RL_SQLSTATE_UNDEFINED_COLUMN)) {
        *x->err = keep; /* it used the dropped column: it goes, as in PostgreSQL */
        return rl_txn_drop_check(txn, c->schema, c->def.table, c->name, x->err);
    }
    if (rc < 0)
        return -1;
    rl_check_def def = c->def;
    def.expr = (const char *)tx.plain.data;
    def.pretty = (const char *)tx.pretty.data;
    def.nconkey = tx.nconkey;
    memcpy(def.conkey, tx.conkey, tx.nconkey * sizeof *def.conkey);
    rl_str_copy(def.table, sizeof def.table, table);
    if (ch->new_table)
        rc = rl_txn_drop_check(txn, c->schema, c->def.table, c->name, x->err);
    if (rc == 0)
        rc = rl_txn_put_check(txn, c->schema, c->name, &def, NULL, x->err);
    rl_check_text_free(&tx);
    return rc;
}

typedef struct follow_ctx {
    rl_exec *x;
    rl_txn *txn;
    const rl_table_change *ch;
} follow_ctx;

static int follow_visit(void *ctx, const rl_check_con *c)
{
    follow_ctx *f = ctx;
    return follow_one(f->x, f->txn, c, f->ch);
}

int rl_check_table_changed(rl_exec *x, rl_txn *txn, const char *schema, const char *table,
                           const rl_table_change *ch)
{
    /* the stored definitions, not the registry: the table is gone under
     * its old name already (dropped, or rebuilt under the new one) */
    follow_ctx f = {x, txn, ch};
    return rl_txn_table_checks(txn, schema, table, follow_visit, &f, x->err);
}

/* ------------------------------------------ a temporary table's CHECKs */

void rl_check_free_temp(rl_temp_check **list)
{
    while (*list) {
        rl_temp_check *c = *list;
        *list = c->next;
        rl_parsed_release(c->parsed);
        free(c->text);
        free(c->pretty);
        free(c);
    }
}

int rl_check_copy_temp(rl_temp_check **dst, const rl_temp_check *src)
{
    for (; src; src = src->next) {
        rl_temp_check *c = calloc(1, sizeof *c);
        if (!c || !(c->text = strdup(src->text)) ||
            (src->pretty && !(c->pretty = strdup(src->pretty)))) {
            if (c)
                free(c->text);
            free(c);
            return -1;
        }
        rl_str_copy(c->name, sizeof c->name, src->name);
        c->not_valid = src->not_valid;
        *dst = c;
        dst = &c->next;
    }
    return 0;
}

int rl_check_temp_follow(rl_exec *x, rl_temp_table *t, const char *old_column,
                         const char *new_column)
{
    rl_relation rel = {.kind = RL_REL_TEMP, .temp = t};
    rl_str_copy(rel.schema, sizeof rel.schema, "pg_temp");
    rl_str_copy(rel.name, sizeof rel.name, t->name);
    size_t ncols;
    rl_rowset *shape = t->checks ? rl_check_table_shape(x, &rel, &ncols) : NULL;
    if (t->checks && !shape)
        return -1;
    int rc = 0;
    for (rl_temp_check **pp = &t->checks; rc == 0 && *pp;) {
        rl_temp_check *c = *pp;
        rl_parsed *p = NULL;
        const PgQuery__Node *expr;
        if (rl_check_parse_text(x, c->text, &p, &expr) < 0) {
            rc = -1;
            break;
        }
        rl_check_text tx;
        const rl_parsed *prev = rl_parsed_activate(p);
        rl_error keep = *x->err;
        int got = rl_check_deparse(x, expr, shape, ncols, t->name, old_column,
                                   new_column ? new_column : old_column, &tx);
        rl_parsed_activate(prev);
        rl_parsed_release(p);
        if (got < 0 && !new_column && !strcmp(x->err->sqlstate, RL_SQLSTATE_UNDEFINED_COLUMN)) {
            *x->err = keep; /* it used the dropped column: it goes, as in PostgreSQL */
            *pp = c->next;
            c->next = NULL;
            rl_check_free_temp(&c);
            continue;
        }
        if (got < 0) {
            rc = -1;
            break;
        }
        char *text = strdup((const char *)tx.plain.data);
        char *pretty = text ? strdup((const char *)tx.pretty.data) : NULL;
        rl_check_text_free(&tx);
        if (!pretty) {
            free(text);
            rc = oom(x);
            break;
        }
        free(c->text);
        c->text = text;
        free(c->pretty);
        c->pretty = pretty;
        rl_parsed_release(c->parsed);
        c->parsed = NULL;
        pp = &c->next;
    }
    rl_rowset_free(shape);
    return rc;
}
