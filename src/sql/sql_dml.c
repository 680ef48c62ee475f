/*
 * sql_dml.c — INSERT, UPDATE (incl. FROM <relation | CTE>, WITH ... VALUES)
 * and DELETE (incl. USING and PostgreSQL ctid lists) on stored and
 * temporary tables.
 *
 * Owns: turning a DML parse tree into catalog writes (rl_txn_insert /
 * update / delete) or temp-table edits, and the command tags
 * "INSERT 0 n" / "UPDATE n" / "DELETE n". A temporary table's rows carry
 * their ctids as a heap numbers line pointers (temp_add): an UPDATE puts
 * the new versions last, once the statement has met every row.
 *
 * Invariants:
 *  - The target is materialized (rl_relation_scan) BEFORE any write, so a
 *    row that an UPDATE moves to another key is never seen twice; each
 *    target row is updated/deleted at most once per statement.
 *  - Values written are coerced to the column's type first
 *    (rl_value_coerce, assignment rules), so datums are in the stored form.
 *  - Catalog errors (23505 with PostgreSQL's exact text, 40001, 25006) pass
 *    through unchanged: DuckLake retries on the exact 23505 text.
 *  - ctid predicates on the target (`t.ctid = x::tid`, `ctid IN ('(0,1)')`)
 *    are decided here against the row's scan ctid rather than through the
 *    expression evaluator, so they work whatever form the tid value takes
 *    (tid, or text "'(p,o)'" with PostgreSQL-tolerated quotes).
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sql/sql_cast.h"
#include "sql/sql_check.h"
#include "sql/sql_ctid.h"
#include "sql/sql_default.h"
#include "sql/sql_exec.h"
#include "sql/sql_expr.h"
#include "sql/sql_parse.h"
#include "sql/sql_relation.h"
#include "sql/sql_scan.h"
#include "sql/sql_select.h"
#include "sql/sql_stmt.h"
#include "sql/sql_value.h"

/* ------------------------------------------------------------- helpers */

static int oom(rl_exec *x)
{
    return rl_exec_error(x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
}

/* Columns that belong to the table (everything before the hidden ctid). */
static size_t table_ncols(const rl_rowset *rs)
{
    size_t n = rs->ncols;
    while (n > 0 && rs->cols[n - 1].attnum == RL_CTID_ATTNUM)
        n--;
    return n;
}

static int col_index(const rl_rowset *rs, size_t ntab, const char *name)
{
    for (size_t i = 0; i < ntab; i++)
        if (strcmp(rs->cols[i].name, name) == 0)
            return (int)i;
    return -1;
}

/* ------------------------------------------------------------ RETURNING
 *
 * The rows a statement wrote (INSERT, UPDATE: the new values; DELETE: the
 * old), each followed by the rows of its FROM / USING items it matched,
 * are gathered here and the list is evaluated over them once the last
 * write succeeded (rl_select_returning): as PostgreSQL, a statement that
 * fails sends none of its rows. The list is typed over no rows before the
 * first write, so its errors (42703, 42803, ...) come before any write's. */
typedef struct returning {
    PgQuery__Node **list; /* NULL: the statement has no RETURNING */
    size_t n;
    rl_rowset *rows;       /* target's columns (relation `alias`), then FROM's */
    size_t ntarget;        /* of which the target's, its ctid included */
    rl_value *scratch;     /* one row of rows->ncols */
} returning;

static void returning_free(returning *r)
{
    rl_rowset_free(r->rows);
    free(r->scratch);
    memset(r, 0, sizeof *r);
}

/* The result of the list over the rows gathered so far. */
static rl_rowset *returning_result(rl_exec *x, returning *r)
{
    return rl_select_returning(x, r->list, r->n, r->rows);
}

static int returning_open(rl_exec *x, returning *r, PgQuery__Node **list, size_t n,
                          const rl_rowset *target, const char *alias, rl_rowset *const *from,
                          size_t nfrom)
{
    memset(r, 0, sizeof *r);
    if (!n)
        return 0;
    size_t ncols = target->ncols;
    for (size_t k = 0; k < nfrom; k++)
        ncols += from[k]->ncols;
    r->list = list;
    r->n = n;
    r->ntarget = target->ncols;
    r->rows = rl_rowset_new(ncols);
    r->scratch = calloc(ncols + 1, sizeof *r->scratch);
    if (!r->rows || !r->scratch) {
        returning_free(r);
        return oom(x);
    }
    memcpy(r->rows->cols, target->cols, target->ncols * sizeof *target->cols);
    for (size_t i = 0; i < target->ncols; i++)
        rl_str_copy(r->rows->cols[i].rel, sizeof r->rows->cols[i].rel, alias);
    size_t at = target->ncols;
    for (size_t k = 0; k < nfrom; k++) {
        memcpy(r->rows->cols + at, from[k]->cols, from[k]->ncols * sizeof *from[k]->cols);
        at += from[k]->ncols;
    }
    rl_rowset *typed = returning_result(x, r);
    if (!typed) {
        returning_free(r);
        return -1;
    }
    rl_rowset_free(typed);
    return 0;
}

/* Gather one written row: its `ntab` table columns (the target's hidden
 * columns read NULL) and, for UPDATE ... FROM / DELETE ... USING, the FROM
 * rows it matched: b is the innermost binding of job_run's chain (the
 * last FROM item's), whose outer links lead back to the target. */
static int returning_add(rl_exec *x, returning *r, const rl_value *row, size_t ntab,
                         const rl_binding *b, size_t nfrom)
{
    if (!r->list)
        return 0;
    rl_value *v = r->scratch;
    for (size_t i = 0; i < r->ntarget; i++) {
        if (i < ntab) {
            v[i] = row[i];
            continue;
        }
        memset(&v[i], 0, sizeof v[i]);
        v[i].oid = r->rows->cols[i].oid;
        v[i].typmod = r->rows->cols[i].typmod;
        v[i].d.isnull = true;
    }
    size_t end = r->rows->ncols;
    for (size_t k = nfrom; k > 0; k--, b = b->outer) {
        assert(b && b->rs);
        end -= b->rs->ncols;
        memcpy(&v[end], rl_rowset_row(b->rs, b->row), b->rs->ncols * sizeof *v);
    }
    assert(end == r->ntarget);
    return rl_rowset_add(r->rows, v, NULL, x->err);
}

/* CommandComplete `tag`, after the RETURNING rows if there is a list. */
static int returning_complete(rl_exec *x, returning *r, const char *tag);

/* A statement's end: when it succeeded (rc 0), its tag "<verb> <count>"
 * after its RETURNING rows; r freed either way. */
static int returning_finish(rl_exec *x, returning *r, int rc, const char *verb, uint64_t count)
{
    /* NO ACTION's FOREIGN KEY checks, as PostgreSQL runs them: when the
     * statement's writes are all done */
    if (rc == 0 && x->s->txn && rl_txn_fkey_statement_end(x->s->txn, x->err) < 0)
        rc = -1;
    if (rc == 0) {
        char tag[48];
        snprintf(tag, sizeof tag, "%s %llu", verb, (unsigned long long)count);
        rc = returning_complete(x, r, tag);
    }
    returning_free(r);
    return rc < 0 ? -1 : 0;
}

static int returning_complete(rl_exec *x, returning *r, const char *tag)
{
    if (!r->list)
        return rl_send_complete(x, tag);
    rl_rowset *res = returning_result(x, r);
    if (!res)
        return -1;
    if (x->hold) { /* the portal sends them (rl_returning_hold) */
        x->hold->rows = res;
        rl_str_copy(x->hold->tag, sizeof x->hold->tag, tag);
        return 0;
    }
    int rc = rl_select_send_rows(x, res, tag);
    rl_rowset_free(res);
    return rc;
}

/* The statement's transaction, its FOREIGN KEYs' SET DEFAULT actions
 * taking the columns' defaults, and ON UPDATE CASCADE its new keys
 * assigned to the columns, through this statement (sql_default.c);
 * dml_done takes that away when the statement ends. */
static rl_txn *dml_txn(rl_exec *x)
{
    rl_txn *txn = rl_exec_txn(x);
    if (txn)
        rl_txn_set_default_fn(txn, rl_default_for_fkey, rl_cascade_for_fkey, x);
    return txn;
}

static int dml_done(rl_exec *x, int rc)
{
    if (x->s->txn)
        rl_txn_set_default_fn(x->s->txn, NULL, NULL, NULL);
    return rc;
}

/* ---------------------------------------------------------- insert row */

/* A stored table's row as the catalog takes it: the columns of the shape
 * the transaction sees. */
static void row_datums(rl_txn *txn, const rl_relation *rel, const rl_value *row, rl_datum *d)
{
    size_t n = rl_txn_table_ncols(txn, rel->desc);
    for (size_t i = 0; i < n && i < RL_MAX_COLUMNS; i++)
        d[i] = row[i].d;
}

/* A new row version at the end of temporary table t, with the next ctid
 * (its heap's next line pointer: deleted and updated rows leave holes). */
static int temp_add(rl_exec *x, rl_temp_table *t, const rl_value *row)
{
    rl_rowsrc src = {.ctid = rl_ctid_of_index(t->lines)};
    if (rl_rowset_add(t->rows, row, &src, x->err) < 0)
        return -1;
    t->lines++;
    return 0;
}

/* Temporary table t's keys against a row it is about to take (skip, more:
 * rl_index_temp_check_row's). PostgreSQL puts the row in its heap before
 * its index finds the duplicate: the failure takes a line pointer (the
 * rollback keeps it, temps_keep_lines). 0 or -1. */
static int temp_keys_take(rl_exec *x, rl_temp_table *t, const rl_value *row, const bool *skip,
                          rl_rowset *more)
{
    if (rl_index_temp_check_row(x, t, row, skip, more) == 0)
        return 0;
    t->lines++;
    return -1;
}

int rl_dml_insert_row(rl_exec *x, const rl_relation *rel, const rl_value *row)
{
    if (rel->kind == RL_REL_TEMP) /* its NOT NULLs, then its keys, as a stored table's */
        return rl_ddl_temps_touch_append(x, rel->temp) < 0 ||
                       rl_check_row(x, rel, row, rel->temp->rows->ncols) < 0 ||
                       temp_keys_take(x, rel->temp, row, NULL, NULL) < 0
                   ? -1
                   : temp_add(x, rel->temp, row);
    if (rel->kind != RL_REL_STORED)
        return rl_exec_error(x, RL_SQLSTATE_WRONG_OBJECT_TYPE, -1, "cannot change relation \"%s\"",
                             rel->name);
    rl_txn *txn = dml_txn(x);
    if (!txn)
        return -1;
    rl_datum d[RL_MAX_COLUMNS];
    row_datums(txn, rel, row, d);
    if (rl_check_row(x, rel, row, rl_txn_table_ncols(txn, rel->desc)) < 0)
        return -1;
    return rl_txn_insert(txn, rel->desc, d, x->err);
}

/* --------------------------------------------------------------- INSERT */

/* Store v in row's column c as an assignment: its type must be one
 * PostgreSQL assigns to the column's (42804, assignable), then coerced
 * (store). */
static int assign(rl_expr_ctx *ec, const rl_rowset *shape, size_t c, const rl_value *v,
                  rl_value *row, int location);
static int assignable(rl_expr_ctx *ec, const rl_rowset *shape, size_t c, const rl_value *v,
                      int location);
static int store(rl_expr_ctx *ec, const rl_rowset *shape, size_t c, const rl_value *v,
                 rl_value *row, int location);
/* Column c of row gets its DEFAULT (d NULL or none: NULL), stored as an
 * assignment. 0 or -1. */
static int put_default(rl_expr_ctx *ec, const rl_defaults *d, const rl_rowset *shape, size_t c,
                       rl_value *row);

/* The sub-SELECT of `SET (a, b) = (SELECT ...)`, or NULL. */
static const PgQuery__SubLink *multi_select(const PgQuery__ResTarget *rt)
{
    if (!rt->val || rt->val->node_case != PG_QUERY__NODE__NODE_MULTI_ASSIGN_REF)
        return NULL;
    const PgQuery__Node *src = rt->val->multi_assign_ref->source;
    return src && src->node_case == PG_QUERY__NODE__NODE_SUB_LINK &&
                   src->sub_link->subselect &&
                   src->sub_link->subselect->node_case == PG_QUERY__NODE__NODE_SELECT_STMT
               ? src->sub_link
               : NULL;
}

/* What SET target rt assigns: its expression, or for one column of
 * `SET (a, b) = (x, y)` (a MultiAssignRef) that column's element of the
 * row (of a sub-SELECT: the MultiAssignRef itself, apply_set runs it).
 * NULL with x's error: another source (0A000, transformMultiAssignRef's),
 * or a row of another length than the column list (42601, as PostgreSQL). */
static const PgQuery__Node *set_source(rl_exec *x, const PgQuery__ResTarget *rt)
{
    if (!rt->val || rt->val->node_case != PG_QUERY__NODE__NODE_MULTI_ASSIGN_REF)
        return rt->val;
    const PgQuery__MultiAssignRef *m = rt->val->multi_assign_ref;
    const PgQuery__Node *src = m->source;
    if (multi_select(rt))
        return rt->val;
    if (!src || src->node_case != PG_QUERY__NODE__NODE_ROW_EXPR) {
        rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED,
                      src ? rl_node_location(src) : rt->location,
                      "source for a multiple-column UPDATE item must be a sub-SELECT or ROW() "
                      "expression");
        return NULL;
    }
    const PgQuery__RowExpr *r = src->row_expr;
    if (r->n_args != (size_t)m->ncolumns) {
        rl_exec_error(x, RL_SQLSTATE_SYNTAX_ERROR, r->location,
                      "number of columns does not match number of values");
        return NULL;
    }
    return m->colno >= 1 && (size_t)m->colno <= r->n_args ? r->args[m->colno - 1] : NULL;
}

/* The table columns a SET list assigns (UPDATE's, ON CONFLICT DO UPDATE's)
 * into cols: each a column of the table (42703), once (42601, without a
 * position, as PostgreSQL's), not subscripted (0A000). */
static int set_columns(rl_exec *x, PgQuery__Node *const *targets, size_t n,
                       const rl_rowset *shape, size_t ntab, const char *relname, int *cols)
{
    if (n > RL_MAX_COLUMNS)
        return rl_exec_error(x, RL_SQLSTATE_TOO_MANY_COLUMNS, -1, "too many SET targets");
    for (size_t i = 0; i < n; i++) {
        if (targets[i]->node_case != PG_QUERY__NODE__NODE_RES_TARGET)
            return rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                                 "this SET form is not supported");
        const PgQuery__ResTarget *rt = targets[i]->res_target;
        if (rt->n_indirection)
            return rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, rt->location,
                                 "subscripted SET is not supported");
        if (!set_source(x, rt))
            return -1;
        int c = col_index(shape, ntab, rt->name);
        if (c < 0)
            return rl_exec_error(x, RL_SQLSTATE_UNDEFINED_COLUMN, rt->location,
                                 "column \"%s\" of relation \"%s\" does not exist", rt->name,
                                 relname);
        for (size_t k = 0; k < i; k++)
            if (cols[k] == c)
                return rl_exec_error(x, RL_SQLSTATE_SYNTAX_ERROR, -1,
                                     "multiple assignments to same column \"%s\"", rt->name);
        cols[i] = c;
    }
    return 0;
}

/* `SET (a, b, ...) = (SELECT ...)` for one row: the sub-SELECT run once
 * (at its first column), its one row's values into vals (owned by ec's
 * arena; none: NULLs), as PostgreSQL's MULTIEXPR subplan: 42601 for
 * another number of columns, 21000 for more than one row. */
static int run_multi_select(rl_expr_ctx *ec, const PgQuery__ResTarget *rt, rl_value *vals)
{
    const PgQuery__SubLink *sl = multi_select(rt);
    int ncols = rt->val->multi_assign_ref->ncolumns;
    rl_rowset *rs = rl_select_subquery(ec, sl->subselect->select_stmt, false);
    if (!rs)
        return -1;
    int rc = 0;
    if (rs->ncols != (size_t)ncols)
        rc = rl_exec_error(ec->x, RL_SQLSTATE_SYNTAX_ERROR, sl->location,
                           "number of columns does not match number of values");
    else if (rs->nrows > 1)
        rc = rl_exec_error(ec->x, RL_SQLSTATE_CARDINALITY_VIOLATION, -1,
                           "more than one row returned by a subquery used as an expression");
    for (size_t i = 0; rc == 0 && i < rs->ncols; i++) {
        if (rs->nrows == 0) {
            rl_val_null(&vals[i], rs->cols[i].oid == RL_OID_UNKNOWN ? RL_OID_TEXT
                                                                   : rs->cols[i].oid);
            continue;
        }
        vals[i] = rl_rowset_row(rs, 0)[i];
        if (vals[i].oid == RL_OID_UNKNOWN) /* a sub-SELECT's output: text, as PostgreSQL's */
            vals[i].oid = RL_OID_TEXT;
        if (rl_value_own(ec->arena, &vals[i]) < 0)
            rc = rl_exec_error(ec->x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    }
    rl_rowset_free(rs);
    return rc;
}

/* Where PostgreSQL points for the assignment of `SET (a, b) = (SELECT x,
 * y ...)`'s column colno: that item of the sub-SELECT's list (a set
 * operation's: the target). */
static int multi_item_location(const PgQuery__ResTarget *rt, int colno)
{
    const PgQuery__SelectStmt *sel = multi_select(rt)->subselect->select_stmt;
    if (colno < 1 || (size_t)colno > sel->n_target_list ||
        sel->target_list[colno - 1]->node_case != PG_QUERY__NODE__NODE_RES_TARGET)
        return rt->location;
    return rl_node_location(sel->target_list[colno - 1]->res_target->val);
}

/* `SET (a, b) = (SELECT ...)`: its sub-SELECT typed once (at its first
 * target, targets[0]), each column assignable to its target's column
 * cols[k] of shape (42804 at the sub-SELECT's item otherwise; 42601 for
 * another number of columns), as PostgreSQL checks while parsing, whether
 * any row is updated or not. The targets of one such SET are consecutive. */
static int multi_select_assignable(rl_expr_ctx *ec, const rl_rowset *shape, const int *cols,
                                   PgQuery__Node *const *targets)
{
    const PgQuery__ResTarget *rt = targets[0]->res_target;
    const PgQuery__SubLink *sl = multi_select(rt);
    size_t ncols = (size_t)rt->val->multi_assign_ref->ncolumns;
    assert(rt->val->multi_assign_ref->colno == 1);
    rl_rowset *rs = rl_select_subquery(ec, sl->subselect->select_stmt, true);
    if (!rs)
        return -1;
    int rc = 0;
    if (rs->ncols != ncols)
        rc = rl_exec_error(ec->x, RL_SQLSTATE_SYNTAX_ERROR, sl->location,
                           "number of columns does not match number of values");
    for (size_t k = 0; rc == 0 && k < ncols; k++) {
        rl_value v;
        uint32_t oid = rs->cols[k].oid;
        rl_val_null(&v, oid == RL_OID_UNKNOWN ? RL_OID_TEXT : oid); /* a sub-SELECT's: text */
        rc = assignable(ec, shape, (size_t)cols[k], &v,
                        multi_item_location(targets[k]->res_target, (int)k + 1));
    }
    rl_rowset_free(rs);
    return rc;
}

/* The SET list (columns from set_columns) applied to row, every expression
 * seeing ec's rows (the old row, and for ON CONFLICT the proposed one). */
static int apply_set(rl_expr_ctx *ec, PgQuery__Node *const *targets, size_t n, const int *cols,
                     const rl_rowset *shape, const rl_defaults *defs, rl_value *row)
{
    rl_value multi[RL_MAX_COLUMNS];
    for (size_t i = 0; i < n; i++) {
        const PgQuery__ResTarget *rt = targets[i]->res_target;
        const PgQuery__Node *src = set_source(ec->x, rt);
        size_t c = (size_t)cols[i];
        rl_value v;
        if (multi_select(rt)) {
            int colno = rt->val->multi_assign_ref->colno;
            if (colno == 1 && run_multi_select(ec, rt, multi) < 0)
                return -1;
            if (colno < 1 || colno > RL_MAX_COLUMNS ||
                assign(ec, shape, c, &multi[colno - 1], row, multi_item_location(rt, colno)) < 0)
                return -1;
            continue;
        }
        if (src->node_case == PG_QUERY__NODE__NODE_SET_TO_DEFAULT) {
            if (put_default(ec, defs, shape, c, row) < 0)
                return -1;
            continue;
        }
        if (rl_expr_eval(ec, src, &v) < 0 ||
            assign(ec, shape, c, &v, row, rl_node_location(src)) < 0)
            return -1;
    }
    return 0;
}

/* INSERT ... ON CONFLICT: the arbiters, and for DO UPDATE its SET targets,
 * the target's name in SET / WHERE, and the keys of the rows this
 * statement inserted or updated (a row is affected at most once: 21000). */
typedef struct conflict {
    const PgQuery__OnConflictClause *oc;
    rl_arbiters arb;
    bool update;
    int cols[RL_MAX_COLUMNS];
    const char *alias;
    const rl_defaults *defs; /* the table's, for SET c = DEFAULT */
    rl_buf key;              /* scratch: a conflicting row's key */
    uint64_t *seen;          /* hashes of the keys affected, open addressing (0 = empty) */
    size_t nseen, capseen;
} conflict;

static void conflict_free(conflict *cf)
{
    rl_buf_free(&cf->key);
    free(cf->seen);
}

/* Note a key this statement affected: 1 new, 0 affected before (by hash:
 * a collision of 64-bit hashes would call a row affected twice), -1. */
static int affect_once(rl_exec *x, conflict *cf, const uint8_t *k, size_t kl)
{
    uint64_t h = rl_hash_bytes(RL_HASH_SEED, k, kl) | 1;
    if ((cf->nseen + 1) * 2 > cf->capseen) {
        size_t cap = cf->capseen ? cf->capseen * 2 : 64;
        uint64_t *t = calloc(cap, sizeof *t);
        if (!t)
            return oom(x);
        for (size_t i = 0; i < cf->capseen; i++)
            if (cf->seen[i]) {
                size_t j = cf->seen[i] & (cap - 1);
                while (t[j])
                    j = (j + 1) & (cap - 1);
                t[j] = cf->seen[i];
            }
        free(cf->seen);
        cf->seen = t;
        cf->capseen = cap;
    }
    size_t j = h & (cf->capseen - 1);
    while (cf->seen[j]) {
        if (cf->seen[j] == h)
            return 0;
        j = (j + 1) & (cf->capseen - 1);
    }
    cf->seen[j] = h;
    cf->nseen++;
    return 1;
}

static int affected_twice(rl_exec *x)
{
    rl_exec_error(x, RL_SQLSTATE_CARDINALITY_VIOLATION, -1,
                  "ON CONFLICT DO UPDATE command cannot affect row a second time");
    rl_error_hint(x->err, "Ensure that no rows proposed for insertion within the same command "
                          "have duplicate constrained values.");
    return -1;
}

/* The conflicting row (at cf->key) and the proposed one side by side, for
 * SET and WHERE: the target's columns under its name, then EXCLUDED's. */
static rl_rowset *conflict_pair(rl_exec *x, const conflict *cf, const rl_rowset *shape,
                                size_t ntab, const rl_value *old, const rl_value *proposed)
{
    rl_rowset *pair = rl_rowset_new(2 * ntab);
    if (!pair) {
        oom(x);
        return NULL;
    }
    rl_value vals[2 * RL_MAX_COLUMNS];
    for (size_t i = 0; i < ntab; i++) {
        pair->cols[i] = shape->cols[i];
        pair->cols[ntab + i] = shape->cols[i];
        rl_str_copy(pair->cols[i].rel, sizeof pair->cols[i].rel, cf->alias);
        rl_str_copy(pair->cols[ntab + i].rel, sizeof pair->cols[ntab + i].rel, "excluded");
        vals[i] = old[i];
        vals[ntab + i] = proposed[i];
    }
    if (rl_rowset_add(pair, vals, NULL, x->err) < 0) {
        rl_rowset_free(pair);
        return NULL;
    }
    return pair;
}

static int conflict_set(rl_exec *x, const rl_rowset *shape, size_t ntab, conflict *cf,
                        const rl_value *old, const rl_value *proposed, rl_value *out,
                        rl_arena *arena);

/* DO UPDATE of the row at cf->key with the proposed row: 0 updated (into
 * out), 1 left alone (its WHERE), -1 error. */
static int conflict_update(rl_exec *x, const rl_relation *rel, const rl_rowset *shape,
                           size_t ntab, conflict *cf, const rl_value *proposed, rl_value *out,
                           rl_arena *arena)
{
    rl_txn *txn = dml_txn(x);
    if (!txn)
        return -1;
    int once = affect_once(x, cf, cf->key.data, cf->key.len);
    if (once <= 0)
        return once < 0 ? -1 : affected_twice(x);
    const rl_row *r;
    int got = rl_txn_get_key(txn, rel->desc, cf->key.data, cf->key.len, &r, x->err);
    if (got <= 0)
        return got < 0 ? -1
                       : rl_exec_error(x, RL_SQLSTATE_SERIALIZATION_FAILURE, -1,
                                       "could not serialize access due to concurrent update");
    rl_value old[RL_MAX_COLUMNS];
    for (size_t c = 0; c < ntab; c++) {
        old[c] = (rl_value){.oid = shape->cols[c].oid, .typmod = shape->cols[c].typmod,
                            .d = r->vals[c]};
        if (rl_value_own(arena, &old[c]) < 0) /* the row read lives until the next read */
            return oom(x);
    }
    int rc = conflict_set(x, shape, ntab, cf, old, proposed, out, arena);
    if (rc == 0) {
        rl_datum d[RL_MAX_COLUMNS];
        for (size_t c = 0; c < ntab; c++)
            d[c] = out[c].d;
        rc = rl_check_row(x, rel, out, ntab);
        /* the row may move (a dynamic table's, to the end: heap order):
         * a later proposal meets it at its new key, affected too */
        rl_buf moved;
        rl_buf_init(&moved, 0);
        if (rc == 0)
            rc = rl_txn_update_to(txn, rel->desc, cf->key.data, cf->key.len, d, &moved, x->err);
        if (rc == 0 && affect_once(x, cf, moved.data, moved.len) < 0)
            rc = -1;
        rl_buf_free(&moved);
    }
    return rc;
}

/* DO UPDATE's new row for the conflicting one `old` and the proposed row:
 * 0 (into out, its strings owned by arena), 1 left alone (its WHERE), -1
 * error. */
static int conflict_set(rl_exec *x, const rl_rowset *shape, size_t ntab, conflict *cf,
                        const rl_value *old, const rl_value *proposed, rl_value *out,
                        rl_arena *arena)
{
    rl_rowset *pair = conflict_pair(x, cf, shape, ntab, old, proposed);
    if (!pair)
        return -1;
    rl_binding b = {.rs = pair, .row = 0};
    rl_expr_ctx ec = {.x = x, .b = &b, .arena = arena};
    int rc = 0;
    const PgQuery__OnConflictClause *oc = cf->oc;
    if (oc->where_clause) {
        rl_value w;
        rc = rl_expr_eval(&ec, oc->where_clause, &w);
        if (rc == 0 && w.oid != RL_OID_BOOL && !w.d.isnull)
            rc = rl_exec_error(x, RL_SQLSTATE_DATATYPE_MISMATCH, -1,
                               "argument of WHERE must be type boolean, not type %s",
                               rl_oid_type_name(w.oid));
        if (rc == 0 && (w.d.isnull || !w.d.v.b))
            rc = 1;
    }
    memcpy(out, old, ntab * sizeof *out);
    if (rc == 0)
        rc = apply_set(&ec, oc->target_list, oc->n_target_list, cf->cols, shape, cf->defs, out);
    /* RETURNING reads out after the pair is gone: SET may have copied a
     * string of EXCLUDED's (in the pair's arena) into it */
    for (size_t c = 0; rc == 0 && c < ntab; c++)
        if (rl_value_own(arena, &out[c]) < 0)
            rc = oom(x);
    rl_rowset_free(pair);
    return rc;
}

static void temp_compact(rl_temp_table *t, const bool *gone);

/* Note that the statement affected temporary table t's row r (by its
 * ctid): 1 first time, 0 affected before, -1. */
static int temp_affect_once(rl_exec *x, conflict *cf, const rl_temp_table *t, size_t r)
{
    uint8_t ctid[8];
    uint64_t v = t->rows->src[r].ctid;
    for (int i = 0; i < 8; i++)
        ctid[i] = (uint8_t)(v >> (8 * i));
    return affect_once(x, cf, ctid, sizeof ctid);
}

/* insert_resolving on a temporary table: the conflicting row is one of its
 * rows (rl_index_temp_conflict); DO UPDATE's new version goes last, as
 * an UPDATE's. */
static int temp_insert_resolving(rl_exec *x, const rl_relation *rel, const rl_rowset *shape,
                                 size_t ntab, const rl_value *row, conflict *cf, rl_value *upd,
                                 const rl_value **ret_row, rl_arena *arena)
{
    rl_temp_table *t = rel->temp;
    long hit = rl_index_temp_conflict(t, row, &cf->arb);
    if (hit < 0) {
        if (rl_dml_insert_row(x, rel, row) < 0)
            return -1;
        /* the row just inserted may not be updated by a later proposal */
        return cf->update && temp_affect_once(x, cf, t, t->rows->nrows - 1) < 0 ? -1 : 0;
    }
    if (!cf->update)
        return 1;
    *ret_row = upd;
    int once = temp_affect_once(x, cf, t, (size_t)hit);
    if (once <= 0)
        return once < 0 ? -1 : affected_twice(x);
    rl_value old[RL_MAX_COLUMNS];
    memcpy(old, rl_rowset_row(t->rows, (size_t)hit), ntab * sizeof *old);
    for (size_t c = 0; c < ntab; c++) /* the row goes from the table below */
        if (rl_value_own(arena, &old[c]) < 0)
            return oom(x);
    int rc = conflict_set(x, shape, ntab, cf, old, row, upd, arena);
    if (rc != 0)
        return rc;
    bool *gone = calloc(t->rows->nrows + 1, sizeof *gone);
    if (!gone)
        return oom(x);
    gone[hit] = true;
    rc = rl_ddl_temps_touch(x) < 0 || rl_check_row(x, rel, upd, ntab) < 0 ||
                 temp_keys_take(x, t, upd, gone, NULL) < 0
             ? -1
             : 0;
    if (rc == 0) {
        temp_compact(t, gone);
        rc = temp_add(x, t, upd);
    }
    free(gone);
    return rc < 0 || temp_affect_once(x, cf, t, t->rows->nrows - 1) < 0 ? -1 : 0;
}

/* Insert `row`; with ON CONFLICT (cf) leave it out (DO NOTHING) or update
 * the row it collides with (DO UPDATE, the new row into *ret_row): 0
 * inserted or updated, 1 left out, -1 error. *ret_row is what RETURNING
 * shows. */
static int insert_resolving(rl_exec *x, const rl_relation *rel, const rl_rowset *shape,
                            size_t ntab, const rl_value *row, conflict *cf, rl_value *upd,
                            const rl_value **ret_row, rl_arena *arena)
{
    *ret_row = row;
    if (cf && rel->kind == RL_REL_TEMP)
        return temp_insert_resolving(x, rel, shape, ntab, row, cf, upd, ret_row, arena);
    if (!cf || rel->kind != RL_REL_STORED)
        return rl_dml_insert_row(x, rel, row);
    rl_txn *txn = dml_txn(x);
    if (!txn)
        return -1;
    rl_datum d[RL_MAX_COLUMNS];
    row_datums(txn, rel, row, d);
    const uint64_t *ids = cf->arb.all ? NULL : cf->arb.ids;
    rl_buf *key = cf->update ? &cf->key : NULL;
    int hit = rl_txn_row_conflicts(txn, rel->desc, d, cf->arb.pk, ids, cf->arb.nids, key,
                                   x->err);
    if (hit < 0)
        return -1;
    if (hit == 1 && !cf->update)
        return 1;
    if (hit == 1) {
        *ret_row = upd;
        return conflict_update(x, rel, shape, ntab, cf, row, upd, arena);
    }
    if (rl_dml_insert_row(x, rel, row) < 0)
        return -1;
    if (!cf->update)
        return 0;
    /* the row just inserted may not be updated by a later proposal */
    hit = rl_txn_row_conflicts(txn, rel->desc, d, cf->arb.pk, ids, cf->arb.nids, key, x->err);
    return hit < 0 ? -1 : hit == 0 || affect_once(x, cf, key->data, key->len) >= 0 ? 0 : -1;
}

/* Target columns of an INSERT: the listed ones, or all in order. */
static int insert_targets(rl_exec *x, const PgQuery__InsertStmt *st, const rl_rowset *shape,
                          size_t ntab, int *tcols, size_t *ntarget)
{
    if (!st->n_cols) {
        for (size_t i = 0; i < ntab; i++)
            tcols[i] = (int)i;
        *ntarget = ntab;
        return 0;
    }
    if (st->n_cols > ntab + 1)
        return rl_exec_error(x, RL_SQLSTATE_SYNTAX_ERROR, -1,
                             "INSERT has more target columns than the table");
    for (size_t i = 0; i < st->n_cols; i++) {
        const PgQuery__ResTarget *rt = st->cols[i]->res_target;
        if (rt->n_indirection)
            return rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, rt->location,
                                 "INSERT into a subscripted or field column is not supported");
        int c = col_index(shape, ntab, rt->name);
        if (c < 0)
            return rl_exec_error(x, RL_SQLSTATE_UNDEFINED_COLUMN, rt->location,
                                 "column \"%s\" of relation \"%s\" does not exist", rt->name,
                                 st->relation->relname);
        for (size_t j = 0; j < i; j++)
            if (tcols[j] == c)
                return rl_exec_error(x, RL_SQLSTATE_DUPLICATE_COLUMN, rt->location,
                                     "column \"%s\" specified more than once", rt->name);
        tcols[i] = c;
    }
    *ntarget = st->n_cols;
    return 0;
}

static void null_row(const rl_rowset *shape, size_t ntab, rl_value *row)
{
    for (size_t c = 0; c < ntab; c++) {
        memset(&row[c], 0, sizeof row[c]);
        row[c].oid = shape->cols[c].oid;
        row[c].typmod = shape->cols[c].typmod;
        row[c].d.isnull = true;
    }
}

/* Coerce `v` into column c of the row (assignment rules). */
static int assign(rl_expr_ctx *ec, const rl_rowset *shape, size_t c, const rl_value *v,
                  rl_value *row, int location)
{
    if (assignable(ec, shape, c, v, location) < 0) /* NULL too: it is typed */
        return -1;
    return store(ec, shape, c, v, row, location);
}

static int assignable(rl_expr_ctx *ec, const rl_rowset *shape, size_t c, const rl_value *v,
                      int location)
{
    if (rl_assignable(v->oid, shape->cols[c].oid))
        return 0;
    rl_exec_error(ec->x, RL_SQLSTATE_DATATYPE_MISMATCH, location,
                  "column \"%s\" is of type %s but expression is of type %s",
                  shape->cols[c].name, rl_oid_type_name(shape->cols[c].oid),
                  rl_oid_type_name(v->oid));
    rl_error_hint(ec->x->err, "You will need to rewrite or cast the expression.");
    return -1;
}

static int store(rl_expr_ctx *ec, const rl_rowset *shape, size_t c, const rl_value *v,
                 rl_value *row, int location)
{
    if (v->d.isnull) {
        row[c].d.isnull = true;
        return 0;
    }
    return rl_value_coerce(ec, v, shape->cols[c].oid, shape->cols[c].typmod, false, &row[c],
                           location);
}

static int put_default(rl_expr_ctx *ec, const rl_defaults *d, const rl_rowset *shape, size_t c,
                       rl_value *row)
{
    rl_value v;
    int got = d && d->any ? rl_default_eval(ec, d, c, &v) : 0;
    if (got <= 0) {
        row[c].d.isnull = true;
        return got;
    }
    return store(ec, shape, c, &v, row, -1);
}

/* The columns `given` does not mark get their DEFAULTs, in column order. */
static int fill_defaults(rl_expr_ctx *ec, const rl_defaults *d, const rl_rowset *shape,
                         size_t ntab, const bool *given, rl_value *row)
{
    for (size_t c = 0; d && d->any && c < ntab; c++)
        if (!given[c] && put_default(ec, d, shape, c, row) < 0)
            return -1;
    return 0;
}

int rl_dml_defaults_fill(rl_exec *x, const rl_relation *rel, const rl_rowset *shape, size_t ntab,
                         const bool *given, rl_value *row, rl_arena *arena)
{
    rl_defaults d;
    if (rl_defaults_of(x, rel, shape, ntab, &d) < 0)
        return -1;
    rl_expr_ctx ec = {.x = x, .arena = arena};
    return fill_defaults(&ec, &d, shape, ntab, given, row);
}

/* VALUES item i into its column (DEFAULT: the column's default). */
static int values_item(rl_expr_ctx *ec, const rl_defaults *defs, const rl_rowset *shape,
                       const int *tcols, const PgQuery__List *items, size_t i, rl_value *row)
{
    const PgQuery__Node *e = items->items[i];
    size_t c = (size_t)tcols[i];
    if (e->node_case == PG_QUERY__NODE__NODE_SET_TO_DEFAULT || defs->user_value_ignored[c])
        return put_default(ec, defs, shape, c, row);
    rl_value v;
    if (rl_expr_eval(ec, e, &v) < 0)
        return -1;
    return assign(ec, shape, c, &v, row, rl_node_location(e));
}

/* One VALUES row inserted (0), left out by ON CONFLICT DO NOTHING (1), or
 * -1. Its values in PostgreSQL's order: a single row's target list is in
 * column order, defaults among the items; the rows of a multi-row VALUES
 * are evaluated first, the defaults of the columns they leave out after. */
static int insert_values_row(rl_exec *x, const rl_relation *rel, const rl_rowset *shape,
                             size_t ntab, const int *tcols, size_t ntarget, bool listed,
                             const PgQuery__List *items, bool single, const rl_defaults *defs,
                             returning *ret, conflict *cf)
{
    if (items->n_items > ntarget)
        return rl_exec_error(x, RL_SQLSTATE_SYNTAX_ERROR, rl_node_location(items->items[ntarget]),
                             "INSERT has more expressions than target columns");
    if (listed && items->n_items < ntarget)
        return rl_exec_error(x, RL_SQLSTATE_SYNTAX_ERROR, -1,
                             "INSERT has more target columns than expressions");
    rl_value row[RL_MAX_COLUMNS + 1];
    null_row(shape, ntab, row);
    rl_arena arena = {0};
    rl_expr_ctx ec = {.x = x, .arena = &arena};
    int rc = 0;
    int item_of[RL_MAX_COLUMNS + 1];
    bool given[RL_MAX_COLUMNS + 1] = {false};
    for (size_t c = 0; c < ntab; c++)
        item_of[c] = -1;
    for (size_t i = 0; i < items->n_items; i++) {
        item_of[tcols[i]] = (int)i;
        given[tcols[i]] = true;
    }
    if (single && defs->any) {
        for (size_t c = 0; rc == 0 && c < ntab; c++)
            rc = item_of[c] >= 0
                     ? values_item(&ec, defs, shape, tcols, items, (size_t)item_of[c], row)
                     : put_default(&ec, defs, shape, c, row);
    } else {
        for (size_t i = 0; rc == 0 && i < items->n_items; i++)
            rc = values_item(&ec, defs, shape, tcols, items, i, row);
        if (rc == 0)
            rc = fill_defaults(&ec, defs, shape, ntab, given, row);
    }
    rl_value upd[RL_MAX_COLUMNS + 1];
    const rl_value *shown = row;
    if (rc == 0)
        rc = insert_resolving(x, rel, shape, ntab, row, cf, upd, &shown, &arena);
    if (rc == 0)
        rc = returning_add(x, ret, shown, ntab, NULL, 0);
    rl_arena_free(&arena);
    return rc;
}

/* The expression of a plain SELECT's i-th target, or NULL (VALUES, a set
 * operation, `*`). */
static const PgQuery__Node *select_target(const PgQuery__SelectStmt *sel, size_t i)
{
    if (sel->op != PG_QUERY__SET_OPERATION__SETOP_NONE || sel->n_values_lists ||
        i >= sel->n_target_list || sel->target_list[i]->node_case != PG_QUERY__NODE__NODE_RES_TARGET)
        return NULL;
    const PgQuery__Node *v = sel->target_list[i]->res_target->val;
    return v;
}

/* A string literal or NULL without a cast: unknown-typed, which INSERT
 * ... SELECT gives the target column's type (PostgreSQL 10 and later). */
static bool untyped_literal(const PgQuery__Node *e)
{
    return e->node_case == PG_QUERY__NODE__NODE_A_CONST &&
           (e->a_const->isnull || e->a_const->val_case == PG_QUERY__A__CONST__VAL_SVAL);
}

/* INSERT ... SELECT: run the query, then coerce and insert each row. */
static int insert_select(rl_exec *x, const rl_relation *rel, const rl_rowset *shape,
                         size_t ntab, const int *tcols, size_t ntarget,
                         const PgQuery__SelectStmt *sel, const rl_defaults *defs, uint64_t *count,
                         returning *ret, conflict *cf)
{
    rl_rowset *rs = rl_select_run(x, sel, NULL);
    if (!rs)
        return -1;
    int rc = 0;
    if (rs->ncols > ntarget)
        rc = rl_exec_error(x, RL_SQLSTATE_SYNTAX_ERROR, -1,
                           "INSERT has more expressions than target columns");
    rl_expr_ctx tc = {.x = x};
    for (size_t i = 0; rc == 0 && i < rs->ncols; i++) { /* before any row, as PostgreSQL */
        const PgQuery__Node *e = select_target(sel, i);
        if (e && untyped_literal(e))
            continue; /* an unknown literal takes the column's type */
        rl_value typed;
        rl_val_null(&typed, rs->cols[i].oid);
        rc = assignable(&tc, shape, (size_t)tcols[i], &typed, e ? rl_node_location(e) : -1);
    }
    for (size_t r = 0; rc == 0 && r < rs->nrows; r++) {
        rl_value row[RL_MAX_COLUMNS + 1];
        null_row(shape, ntab, row);
        rl_arena arena = {0};
        rl_expr_ctx ec = {.x = x, .arena = &arena};
        const rl_value *src = rl_rowset_row(rs, r);
        bool given[RL_MAX_COLUMNS + 1] = {false};
        for (size_t i = 0; rc == 0 && i < rs->ncols; i++) {
            given[tcols[i]] = !defs->user_value_ignored[tcols[i]];
            if (given[tcols[i]])
                rc = store(&ec, shape, (size_t)tcols[i], &src[i], row, -1);
        }
        if (rc == 0)
            rc = fill_defaults(&ec, defs, shape, ntab, given, row);
        rl_value upd[RL_MAX_COLUMNS + 1];
        const rl_value *shown = row;
        int ins = rc == 0 ? insert_resolving(x, rel, shape, ntab, row, cf, upd, &shown, &arena)
                          : -1;
        if (ins == 0 && (rc = returning_add(x, ret, shown, ntab, NULL, 0)) == 0)
            (*count)++;
        else if (ins < 0)
            rc = -1;
        rl_arena_free(&arena);
    }
    rl_rowset_free(rs);
    return rc;
}

/* ON CONFLICT's arbiters into cf, and DO UPDATE's SET targets (columns of
 * the table, each once: 42703, 42601). */
static int conflict_open(rl_exec *x, const PgQuery__InsertStmt *st, const rl_relation *rel,
                         const rl_rowset *shape, size_t ntab, conflict *cf)
{
    const PgQuery__OnConflictClause *oc = st->on_conflict_clause;
    cf->oc = oc;
    cf->update = oc->action == PG_QUERY__ON_CONFLICT_ACTION__ONCONFLICT_UPDATE;
    cf->alias = rl_range_var_alias(st->relation);
    rl_buf_init(&cf->key, 0);
    if (cf->update && !oc->infer) {
        rl_exec_error(x, RL_SQLSTATE_SYNTAX_ERROR, oc->location,
                      "ON CONFLICT DO UPDATE requires inference specification or constraint "
                      "name");
        rl_error_hint(x->err, "For example, ON CONFLICT (column_name).");
        return -1;
    }
    rl_txn *txn = rel->kind == RL_REL_STORED ? dml_txn(x) : NULL;
    if (rel->kind == RL_REL_STORED && !txn)
        return -1;
    if (rl_index_arbiters(x, txn, rel, oc->infer, &cf->arb) < 0)
        return -1;
    return set_columns(x, oc->target_list, oc->n_target_list, shape, ntab, rel->name, cf->cols);
}

/* Does every VALUES row give column position i the DEFAULT keyword (or
 * no item)? */
static bool values_default_at(const PgQuery__SelectStmt *sel, size_t i)
{
    for (size_t r = 0; r < sel->n_values_lists; r++) {
        const PgQuery__List *l = sel->values_lists[r]->list;
        if (i < l->n_items && l->items[i]->node_case != PG_QUERY__NODE__NODE_SET_TO_DEFAULT)
            return false;
    }
    return true;
}

/* A GENERATED ALWAYS identity column can only be updated to DEFAULT
 * (428C9, before any row, as PostgreSQL's rewriter): UPDATE's SET and ON
 * CONFLICT DO UPDATE's, `SET (a, b) = (DEFAULT, ...)` each column by its
 * element. 0 or -1. */
static int identity_updates(rl_exec *x, PgQuery__Node *const *targets, size_t n, const int *cols,
                            const rl_rowset *shape, const rl_defaults *defs)
{
    for (size_t i = 0; i < n; i++) {
        size_t c = (size_t)cols[i];
        if (defs->identity[c] != 'a')
            continue;
        const PgQuery__Node *v = set_source(x, targets[i]->res_target);
        if (!v)
            return -1;
        if (v->node_case == PG_QUERY__NODE__NODE_SET_TO_DEFAULT)
            continue;
        rl_exec_error(x, RL_SQLSTATE_GENERATED_ALWAYS, -1,
                      "column \"%s\" can only be updated to DEFAULT", shape->cols[c].name);
        rl_error_detail(x->err, "Column \"%s\" is an identity column defined as GENERATED ALWAYS.",
                        shape->cols[c].name);
        return -1;
    }
    return 0;
}

/* rewriteTargetListIU's identity rules for an INSERT's targets: a value
 * for a GENERATED ALWAYS column is 428C9 unless OVERRIDING SYSTEM VALUE;
 * OVERRIDING USER VALUE gives every identity column its default whatever
 * the statement says (defs->user_value_ignored). 0 or -1. */
static int identity_targets(rl_exec *x, const PgQuery__InsertStmt *st, const int *tcols,
                            size_t ntarget, const rl_rowset *shape, rl_defaults *defs)
{
    const PgQuery__SelectStmt *sel =
        st->select_stmt && st->select_stmt->node_case == PG_QUERY__NODE__NODE_SELECT_STMT
            ? st->select_stmt->select_stmt
            : NULL;
    for (size_t i = 0; sel && i < ntarget; i++) {
        size_t c = (size_t)tcols[i];
        if (!defs->identity[c])
            continue;
        if (st->override == PG_QUERY__OVERRIDING_KIND__OVERRIDING_USER_VALUE) {
            defs->user_value_ignored[c] = true;
            continue;
        }
        if (defs->identity[c] != 'a' ||
            st->override == PG_QUERY__OVERRIDING_KIND__OVERRIDING_SYSTEM_VALUE ||
            (sel->n_values_lists && values_default_at(sel, i)))
            continue;
        rl_exec_error(x, RL_SQLSTATE_GENERATED_ALWAYS, -1,
                      "cannot insert a non-DEFAULT value into column \"%s\"", shape->cols[c].name);
        rl_error_detail(x->err, "Column \"%s\" is an identity column defined as GENERATED ALWAYS.",
                        shape->cols[c].name);
        rl_error_hint(x->err, "Use OVERRIDING SYSTEM VALUE to override.");
        return -1;
    }
    return 0;
}

int rl_dml_insert(rl_exec *x, const PgQuery__InsertStmt *st)
{
    if (st->with_clause)
        return rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, st->with_clause->location,
                             "WITH ... INSERT is not supported by RockLake");
    rl_relation rel;
    if (rl_relation_resolve(x, st->relation, &rel) < 0)
        return -1;
    if (rel.kind == RL_REL_VIRTUAL || rel.kind == RL_REL_SEQUENCE)
        return rl_exec_error(x, RL_SQLSTATE_INSUFFICIENT_PRIVILEGE,
                             rel.kind == RL_REL_SEQUENCE ? -1 : st->relation->location,
                             "permission denied for %s %s",
                             rel.kind == RL_REL_SEQUENCE ? "sequence" : "table", rel.name);
    rl_rowset *shape = rl_relation_shape(x, &rel, rel.name);
    if (!shape)
        return -1;
    size_t ntab = table_ncols(shape), ntarget = 0;
    int tcols[RL_MAX_COLUMNS + 1];
    uint64_t count = 0;
    int rc = ntab > RL_MAX_COLUMNS ? rl_exec_error(x, RL_SQLSTATE_TOO_MANY_COLUMNS, -1,
                                                   "too many columns") : 0;
    conflict cfs = {0}, *cf = NULL;
    if (rc == 0 && st->on_conflict_clause) {
        cf = &cfs;
        rc = conflict_open(x, st, &rel, shape, ntab, cf);
    }
    if (rc == 0)
        rc = insert_targets(x, st, shape, ntab, tcols, &ntarget);
    returning ret = {0};
    if (rc == 0)
        rc = returning_open(x, &ret, st->returning_list, st->n_returning_list, shape,
                            rl_range_var_alias(st->relation), NULL, 0);
    rl_defaults defs;
    if (rc == 0)
        rc = rl_defaults_of(x, &rel, shape, ntab, &defs);
    cfs.defs = &defs;
    if (rc == 0 && defs.any)
        rc = identity_targets(x, st, tcols, st->n_cols ? st->n_cols : ntarget, shape, &defs);
    if (rc == 0 && defs.any && cf && cf->update)
        rc = identity_updates(x, cf->oc->target_list, cf->oc->n_target_list, cf->cols, shape,
                              &defs);
    const PgQuery__SelectStmt *sel =
        st->select_stmt && st->select_stmt->node_case == PG_QUERY__NODE__NODE_SELECT_STMT
            ? st->select_stmt->select_stmt
            : NULL;
    if (rc == 0 && !sel) { /* DEFAULT VALUES: one row of defaults */
        static const PgQuery__List none = PG_QUERY__LIST__INIT;
        rc = insert_values_row(x, &rel, shape, ntab, tcols, ntarget, false, &none, true, &defs,
                               &ret, cf);
        if (rc == 0)
            count++;
        else if (rc == 1)
            rc = 0;
    } else if (rc == 0 && sel->n_values_lists) {
        for (size_t r = 0; rc == 0 && r < sel->n_values_lists; r++) {
            if ((r & 255) == 0 && rl_exec_check_cancel(x) < 0)
                rc = -1;
            else if ((rc = insert_values_row(x, &rel, shape, ntab, tcols, ntarget, st->n_cols != 0,
                                              sel->values_lists[r]->list,
                                              sel->n_values_lists == 1, &defs, &ret, cf)) == 0)
                count++;
            else if (rc == 1)
                rc = 0; /* left out: ON CONFLICT DO NOTHING */
        }
    } else if (rc == 0) {
        rc = insert_select(x, &rel, shape, ntab, tcols, ntarget, sel, &defs, &count, &ret, cf);
    }
    conflict_free(&cfs);
    rl_rowset_free(shape);
    return dml_done(x, returning_finish(x, &ret, rc, "INSERT 0", count));
}

/* ------------------------------------------ UPDATE / DELETE: the join */

/* What an UPDATE/DELETE works on: the target rows, the FROM/USING row sets
 * and the WHERE split into AND-ed conjuncts. */
typedef struct dml_job {
    rl_exec *x;
    rl_relation rel;
    const char *alias;
    rl_rowset *target;      /* scanned rows (or a view of the temp table) */
    bool target_is_view;    /* cols owned by us, rows borrowed from the temp table */
    size_t ntab;
    const PgQuery__WithClause *with;
    rl_rowset *from[16];
    size_t nfrom;
    const PgQuery__Node *conj[64];
    bool conj_ctid[64];
    size_t nconj;
    rl_arena arena;         /* evaluation strings; reset per target row */
    /* an UPDATE's SET list, its types checked against the columns' before
     * any row as PostgreSQL's parser does (job_check_where) */
    PgQuery__Node *const *set;
    size_t nset;
    const int *set_cols;
    rl_buf ctid_key;        /* ctid_key's answer for a dynamic table */
} dml_job;

static void job_free(dml_job *j)
{
    if (j->target_is_view && j->target) {
        free(j->target->cols);
        free(j->target);
    } else {
        rl_rowset_free(j->target);
    }
    for (size_t i = 0; i < j->nfrom; i++)
        rl_rowset_free(j->from[i]);
    rl_arena_free(&j->arena);
    rl_buf_free(&j->ctid_key);
}

/* Is `n` a reference to the target's ctid (ctid or <alias>.ctid)? */
static bool is_target_ctid(const dml_job *j, const PgQuery__Node *n)
{
    if (!n || n->node_case != PG_QUERY__NODE__NODE_COLUMN_REF)
        return false;
    const PgQuery__ColumnRef *cr = n->column_ref;
    if (cr->n_fields < 1 || cr->n_fields > 2)
        return false;
    const PgQuery__Node *last = cr->fields[cr->n_fields - 1];
    if (last->node_case != PG_QUERY__NODE__NODE_STRING || strcmp(last->string->sval, "ctid") != 0)
        return false;
    if (cr->n_fields == 1)
        return true;
    const PgQuery__Node *q = cr->fields[0];
    return q->node_case == PG_QUERY__NODE__NODE_STRING && strcmp(q->string->sval, j->alias) == 0;
}

static bool is_op(const PgQuery__AExpr *e, const char *op)
{
    return e->n_name == 1 && e->name[0]->node_case == PG_QUERY__NODE__NODE_STRING &&
           strcmp(e->name[0]->string->sval, op) == 0;
}

/* A conjunct we decide by ctid: `ctid = expr`, `expr = ctid`, `ctid IN (...)`. */
static bool conj_is_ctid(const dml_job *j, const PgQuery__Node *n)
{
    if (n->node_case != PG_QUERY__NODE__NODE_A_EXPR)
        return false;
    const PgQuery__AExpr *e = n->a_expr;
    if (e->kind == PG_QUERY__A__EXPR__KIND__AEXPR_OP && is_op(e, "="))
        return is_target_ctid(j, e->lexpr) || is_target_ctid(j, e->rexpr);
    if (e->kind == PG_QUERY__A__EXPR__KIND__AEXPR_IN && is_op(e, "="))
        return is_target_ctid(j, e->lexpr) && e->rexpr &&
               e->rexpr->node_case == PG_QUERY__NODE__NODE_LIST;
    return false;
}

static int split_where(dml_job *j, const PgQuery__Node *w)
{
    if (!w)
        return 0;
    if (w->node_case == PG_QUERY__NODE__NODE_BOOL_EXPR &&
        w->bool_expr->boolop == PG_QUERY__BOOL_EXPR_TYPE__AND_EXPR) {
        for (size_t i = 0; i < w->bool_expr->n_args; i++)
            if (split_where(j, w->bool_expr->args[i]) < 0)
                return -1;
        return 0;
    }
    if (j->nconj == sizeof j->conj / sizeof j->conj[0])
        return rl_exec_error(j->x, RL_SQLSTATE_STATEMENT_TOO_COMPLEX, -1,
                             "WHERE has too many AND-ed conditions");
    j->conj_ctid[j->nconj] = conj_is_ctid(j, w);
    j->conj[j->nconj++] = w;
    return 0;
}

/* The tid an expression denotes: a tid value, or text "(p,o)" / "'(p,o)'".
 * A `::tid` cast is looked through so the text form is parsed here. */
static int eval_tid(rl_expr_ctx *ec, const PgQuery__Node *n, uint64_t *tid, bool *isnull)
{
    if (n->node_case == PG_QUERY__NODE__NODE_TYPE_CAST && n->type_cast->type_name &&
        n->type_cast->type_name->n_names >= 1) {
        const PgQuery__TypeName *tn = n->type_cast->type_name;
        const PgQuery__Node *last = tn->names[tn->n_names - 1];
        if (last->node_case == PG_QUERY__NODE__NODE_STRING &&
            strcasecmp(last->string->sval, "tid") == 0)
            n = n->type_cast->arg;
    }
    rl_value v;
    if (rl_expr_eval(ec, n, &v) < 0)
        return -1;
    *isnull = v.d.isnull;
    if (v.d.isnull)
        return 0;
    if (v.oid == RL_OID_TID) {
        *tid = (uint64_t)v.d.v.i;
        return 0;
    }
    rl_type t = rl_oid_type(v.oid);
    if (v.oid != RL_OID_UNKNOWN && t != RL_T_VARCHAR && t != RL_T_TEXT && v.oid != RL_OID_NAME)
        return rl_exec_error(ec->x, RL_SQLSTATE_UNDEFINED_FUNCTION, rl_node_location(n),
                             "operator does not exist: tid = %s", rl_oid_type_name(v.oid));
    if (!rl_tid_parse((const char *)v.d.v.s.p, v.d.v.s.len, tid))
        return rl_exec_error(ec->x, RL_SQLSTATE_INVALID_TEXT_REPRESENTATION, rl_node_location(n),
                             "invalid input syntax for type tid: \"%.*s\"", (int)v.d.v.s.len,
                             (const char *)v.d.v.s.p);
    return 0;
}

static uint64_t target_ctid(const dml_job *j, size_t row)
{
    return j->target->src ? j->target->src[row].ctid : rl_ctid_of_index(row);
}

/* 1 if the ctid conjunct holds for target row `row`, 0 if not, -1 error. */
static int ctid_truth(const dml_job *j, rl_expr_ctx *ec, const PgQuery__Node *n, size_t row)
{
    const PgQuery__AExpr *e = n->a_expr;
    uint64_t have = target_ctid(j, row), want;
    bool isnull;
    if (e->kind == PG_QUERY__A__EXPR__KIND__AEXPR_IN) {
        const PgQuery__List *l = e->rexpr->list;
        for (size_t i = 0; i < l->n_items; i++) {
            if (eval_tid(ec, l->items[i], &want, &isnull) < 0)
                return -1;
            if (!isnull && want == have)
                return 1;
        }
        return 0;
    }
    const PgQuery__Node *other = is_target_ctid(j, e->lexpr) ? e->rexpr : e->lexpr;
    if (eval_tid(ec, other, &want, &isnull) < 0)
        return -1;
    return !isnull && want == have;
}

static int where_holds(dml_job *j, rl_expr_ctx *ec, size_t row)
{
    /* ctid conjuncts first: they are cheap and usually decisive */
    for (int pass = 0; pass < 2; pass++)
        for (size_t i = 0; i < j->nconj; i++) {
            if (j->conj_ctid[i] != (pass == 0))
                continue;
            int t = pass == 0 ? ctid_truth(j, ec, j->conj[i], row) : rl_expr_truth(ec, j->conj[i]);
            if (t <= 0)
                return t;
        }
    return 1;
}

/* A CTE's rows under `alias`: VALUES through rl_values_run, other queries
 * through rl_select_run with the CTE's column names applied. */
static rl_rowset *cte_rows(rl_exec *x, const PgQuery__CommonTableExpr *cte, const char *alias)
{
    if (!cte->ctequery || cte->ctequery->node_case != PG_QUERY__NODE__NODE_SELECT_STMT) {
        rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, cte->location,
                      "WITH \"%s\": only SELECT/VALUES queries are supported", cte->ctename);
        return NULL;
    }
    const PgQuery__SelectStmt *sel = cte->ctequery->select_stmt;
    char *names[RL_MAX_COLUMNS];
    size_t nn = 0;
    for (size_t i = 0; i < cte->n_aliascolnames && nn < RL_MAX_COLUMNS; i++)
        if (cte->aliascolnames[i]->node_case == PG_QUERY__NODE__NODE_STRING)
            names[nn++] = cte->aliascolnames[i]->string->sval;
    if (sel->n_values_lists)
        return rl_values_run(x, sel, alias, names, nn);
    rl_rowset *rs = rl_select_run(x, sel, NULL);
    if (!rs)
        return NULL;
    if (nn > rs->ncols) {
        rl_exec_error(x, RL_SQLSTATE_INVALID_COLUMN_REFERENCE, cte->location,
                      "WITH query \"%s\" has %zu columns available but %zu columns specified",
                      cte->ctename, rs->ncols, nn);
        rl_rowset_free(rs);
        return NULL;
    }
    for (size_t i = 0; i < rs->ncols; i++) {
        if (i < nn)
            rl_str_copy(rs->cols[i].name, sizeof rs->cols[i].name, names[i]);
        rl_str_copy(rs->cols[i].rel, sizeof rs->cols[i].rel, alias);
    }
    rl_rowset_cols_changed(rs);
    return rs;
}

static const PgQuery__CommonTableExpr *find_cte(const PgQuery__WithClause *w, const char *name)
{
    for (size_t i = 0; w && i < w->n_ctes; i++) {
        const PgQuery__Node *n = w->ctes[i];
        if (n->node_case == PG_QUERY__NODE__NODE_COMMON_TABLE_EXPR &&
            strcmp(n->common_table_expr->ctename, name) == 0)
            return n->common_table_expr;
    }
    return NULL;
}

/* One FROM/USING item as a row set. */
static rl_rowset *from_item(dml_job *j, const PgQuery__Node *n)
{
    rl_exec *x = j->x;
    if (n->node_case == PG_QUERY__NODE__NODE_RANGE_VAR) {
        const PgQuery__RangeVar *rv = n->range_var;
        const PgQuery__CommonTableExpr *cte =
            rv->schemaname && rv->schemaname[0] ? NULL : find_cte(j->with, rv->relname);
        if (cte)
            return cte_rows(x, cte, rl_range_var_alias(rv));
        rl_relation r;
        if (rl_relation_resolve(x, rv, &r) < 0)
            return NULL;
        return rl_relation_scan(x, &r, rl_range_var_alias(rv), NULL, RL_SCAN_KEY);
    }
    if (n->node_case == PG_QUERY__NODE__NODE_RANGE_SUBSELECT) {
        const PgQuery__RangeSubselect *rs = n->range_subselect;
        if (!rs->alias || !rs->subquery ||
            rs->subquery->node_case != PG_QUERY__NODE__NODE_SELECT_STMT) {
            rl_exec_error(x, RL_SQLSTATE_SYNTAX_ERROR, -1, "subquery in FROM must have an alias");
            return NULL;
        }
        rl_rowset *out = rl_select_run(x, rs->subquery->select_stmt, NULL);
        if (!out)
            return NULL;
        const PgQuery__Alias *al = rs->alias;
        if (al->n_colnames > out->ncols) {
            rl_exec_error(x, RL_SQLSTATE_INVALID_COLUMN_REFERENCE, -1,
                          "table \"%s\" has %zu columns available but %zu columns specified",
                          al->aliasname, out->ncols, al->n_colnames);
            rl_rowset_free(out);
            return NULL;
        }
        for (size_t i = 0; i < out->ncols; i++) {
            rl_str_copy(out->cols[i].rel, sizeof out->cols[i].rel, al->aliasname);
            const PgQuery__Node *cn = i < al->n_colnames ? al->colnames[i] : NULL;
            if (cn && cn->node_case == PG_QUERY__NODE__NODE_STRING)
                rl_str_copy(out->cols[i].name, sizeof out->cols[i].name, cn->string->sval);
        }
        rl_rowset_cols_changed(out);
        return out;
    }
    rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, rl_node_location(n),
                  "this kind of FROM item is not supported in UPDATE/DELETE");
    return NULL;
}

/* The temp table's rows as a row set aliased `alias`, without copying:
 * edits then land in the table itself, row i = temp row i. */
static rl_rowset *temp_view(dml_job *j)
{
    rl_rowset *t = j->rel.temp->rows;
    rl_rowset *v = calloc(1, sizeof *v);
    rl_colmeta *cols = calloc(t->ncols ? t->ncols : 1, sizeof *cols);
    if (!v || !cols) {
        free(v);
        free(cols);
        oom(j->x);
        return NULL;
    }
    memcpy(cols, t->cols, t->ncols * sizeof *cols);
    for (size_t i = 0; i < t->ncols; i++)
        rl_str_copy(cols[i].rel, sizeof cols[i].rel, j->alias);
    v->ncols = t->ncols;
    v->cols = cols;
    v->nrows = t->nrows;
    v->caprows = t->nrows;
    v->vals = t->vals;
    v->src = t->src; /* the rows' ctids */
    return v;
}

/* ------------------------------------------ FROM values as key prefixes
 *
 * `UPDATE t SET ... FROM new_values WHERE table_id = tid AND column_id = cid`
 * (DuckLake's column-stats update) names no constant for t's key columns,
 * so the target would be read whole. The FROM rows are materialized first,
 * though: for every top-level conjunct `target_col = from_col` with from_col
 * an integer column of exactly one FROM item (and not a target column),
 * `target_col IN (from_col's distinct values)` is added to the WHERE the
 * target scan chooses key prefixes from. The scan only narrows with it
 * (rl_relation_scan never filters); the real WHERE still decides every
 * target row in job_run, so the rows updated are the same. */

#define HINT_MAX_VALUES 4096 /* = sql_scan.c's RL_MAX_PREFIXES */

static bool target_has_column(const dml_job *j, const char *name)
{
    const rl_table_desc *d = j->rel.desc;
    for (size_t i = 0; i < d->ncols_max; i++)
        if (strcmp(d->cols[i].name, name) == 0)
            return true;
    return strcmp(name, "ctid") == 0;
}

/* The FROM column a ColumnRef names: item index and column, or -1. */
static int from_column(const dml_job *j, const PgQuery__Node *n, long *col)
{
    if (!n || n->node_case != PG_QUERY__NODE__NODE_COLUMN_REF)
        return -1;
    int found = -1;
    for (size_t k = 0; k < j->nfrom; k++) {
        rl_binding b = {.rs = j->from[k]};
        const rl_colmeta *m = rl_expr_column(&b, n);
        if (!m)
            continue;
        if (found >= 0)
            return -1;
        found = (int)k;
        *col = m - j->from[k]->cols;
    }
    return found;
}

static int cmp_i64(const void *a, const void *b)
{
    int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;
    return x < y ? -1 : x > y;
}

static PgQuery__Node *hint_in_list(rl_arena *a, const PgQuery__Node *target_col,
                                   const rl_rowset *from, long col)
{
    uint32_t oid = from->cols[col].oid;
    if (oid != RL_OID_INT2 && oid != RL_OID_INT4 && oid != RL_OID_INT8)
        return NULL;
    if (from->nrows == 0 || from->nrows > HINT_MAX_VALUES)
        return NULL;
    int64_t *v = rl_arena_alloc(a, from->nrows * sizeof *v);
    if (!v)
        return NULL;
    size_t n = 0;
    for (size_t r = 0; r < from->nrows; r++) {
        const rl_value *x = &from->vals[r * from->ncols + col];
        if (!x->d.isnull)
            v[n++] = x->d.v.i;
    }
    if (n == 0)
        return NULL;
    qsort(v, n, sizeof *v, cmp_i64);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (m == 0 || v[m - 1] != v[i])
            v[m++] = v[i];
    PgQuery__Node **items = rl_arena_alloc(a, m * sizeof *items);
    PgQuery__Node *eq = rl_arena_alloc(a, sizeof *eq), *list = rl_arena_alloc(a, sizeof *list),
                  *in = rl_arena_alloc(a, sizeof *in);
    PgQuery__String *eqs = rl_arena_alloc(a, sizeof *eqs);
    PgQuery__List *l = rl_arena_alloc(a, sizeof *l);
    PgQuery__AExpr *e = rl_arena_alloc(a, sizeof *e);
    PgQuery__Node **names = rl_arena_alloc(a, sizeof *names);
    if (!items || !eq || !list || !in || !eqs || !l || !e || !names)
        return NULL;
    for (size_t i = 0; i < m; i++) {
        PgQuery__Node *nd = rl_arena_alloc(a, sizeof *nd);
        PgQuery__AConst *k = rl_arena_alloc(a, sizeof *k);
        if (!nd || !k)
            return NULL;
        *nd = (PgQuery__Node)PG_QUERY__NODE__INIT;
        *k = (PgQuery__AConst)PG_QUERY__A__CONST__INIT;
        k->location = -1;
        if (v[i] >= INT32_MIN && v[i] <= INT32_MAX) {
            PgQuery__Integer *iv = rl_arena_alloc(a, sizeof *iv);
            if (!iv)
                return NULL;
            *iv = (PgQuery__Integer)PG_QUERY__INTEGER__INIT;
            iv->ival = (int32_t)v[i];
            k->val_case = PG_QUERY__A__CONST__VAL_IVAL;
            k->ival = iv;
        } else {
            PgQuery__Float *fv = rl_arena_alloc(a, sizeof *fv);
            char *txt = rl_arena_alloc(a, 24);
            if (!fv || !txt)
                return NULL;
            snprintf(txt, 24, "%lld", (long long)v[i]);
            *fv = (PgQuery__Float)PG_QUERY__FLOAT__INIT;
            fv->fval = txt;
            k->val_case = PG_QUERY__A__CONST__VAL_FVAL;
            k->fval = fv;
        }
        nd->node_case = PG_QUERY__NODE__NODE_A_CONST;
        nd->a_const = k;
        items[i] = nd;
    }
    *l = (PgQuery__List)PG_QUERY__LIST__INIT;
    l->n_items = m;
    l->items = items;
    *list = (PgQuery__Node)PG_QUERY__NODE__INIT;
    list->node_case = PG_QUERY__NODE__NODE_LIST;
    list->list = l;
    *eqs = (PgQuery__String)PG_QUERY__STRING__INIT;
    eqs->sval = (char *)"=";
    *eq = (PgQuery__Node)PG_QUERY__NODE__INIT;
    eq->node_case = PG_QUERY__NODE__NODE_STRING;
    eq->string = eqs;
    names[0] = eq;
    *e = (PgQuery__AExpr)PG_QUERY__A__EXPR__INIT;
    e->kind = PG_QUERY__A__EXPR__KIND__AEXPR_IN;
    e->n_name = 1;
    e->name = names;
    e->lexpr = (PgQuery__Node *)target_col;
    e->rexpr = list;
    e->location = -1;
    *in = (PgQuery__Node)PG_QUERY__NODE__INIT;
    in->node_case = PG_QUERY__NODE__NODE_A_EXPR;
    in->a_expr = e;
    return in;
}

/* The WHERE for choosing the target's key prefixes: `where` itself, or an
 * AND of its conjuncts and the FROM-value IN lists (memory in `a`). */
static const PgQuery__Node *scan_where(dml_job *j, const PgQuery__Node *where, rl_arena *a)
{
    if (j->nfrom == 0 || j->rel.kind != RL_REL_STORED || j->nconj == 0)
        return where;
    PgQuery__Node **args = rl_arena_alloc(a, 2 * j->nconj * sizeof *args);
    if (!args)
        return where;
    size_t n = 0, hints = 0;
    for (size_t i = 0; i < j->nconj; i++) {
        const PgQuery__Node *c = j->conj[i];
        args[n++] = (PgQuery__Node *)c;
        if (c->node_case != PG_QUERY__NODE__NODE_A_EXPR)
            continue;
        const PgQuery__AExpr *e = c->a_expr;
        if (e->kind != PG_QUERY__A__EXPR__KIND__AEXPR_OP || e->n_name != 1 ||
            e->name[0]->node_case != PG_QUERY__NODE__NODE_STRING ||
            strcmp(e->name[0]->string->sval, "=") != 0 || !e->lexpr || !e->rexpr ||
            e->lexpr->node_case != PG_QUERY__NODE__NODE_COLUMN_REF ||
            e->rexpr->node_case != PG_QUERY__NODE__NODE_COLUMN_REF)
            continue;
        for (int side = 0; side < 2; side++) {
            const PgQuery__Node *tc = side ? e->rexpr : e->lexpr;
            const PgQuery__Node *fc = side ? e->lexpr : e->rexpr;
            const PgQuery__ColumnRef *fr = fc->column_ref;
            const PgQuery__Node *last = fr->n_fields ? fr->fields[fr->n_fields - 1] : NULL;
            long col = -1, tcol = -1;
            int k = from_column(j, fc, &col);
            if (k < 0 || from_column(j, tc, &tcol) >= 0 || !last ||
                last->node_case != PG_QUERY__NODE__NODE_STRING ||
                (fr->n_fields == 1 && target_has_column(j, last->string->sval)))
                continue;
            PgQuery__Node *in = hint_in_list(a, tc, j->from[k], col);
            if (in) {
                args[n++] = in;
                hints++;
            }
            break;
        }
    }
    if (hints == 0)
        return where;
    PgQuery__Node *nd = rl_and_node(a, args, n);
    return nd ? nd : where;
}

static int job_open(dml_job *j, rl_exec *x, const PgQuery__RangeVar *rv,
                    const PgQuery__WithClause *with, PgQuery__Node **from, size_t nfrom,
                    const PgQuery__Node *where)
{
    memset(j, 0, sizeof *j);
    j->x = x;
    j->with = with;
    j->alias = rl_range_var_alias(rv);
    if (rl_relation_resolve(x, rv, &j->rel) < 0)
        return -1;
    if (j->rel.kind == RL_REL_VIRTUAL || j->rel.kind == RL_REL_SEQUENCE)
        return rl_exec_error(x, RL_SQLSTATE_INSUFFICIENT_PRIVILEGE,
                             j->rel.kind == RL_REL_SEQUENCE ? -1 : rv->location,
                             "permission denied for %s %s",
                             j->rel.kind == RL_REL_SEQUENCE ? "sequence" : "table", j->rel.name);
    if (nfrom > sizeof j->from / sizeof j->from[0])
        return rl_exec_error(x, RL_SQLSTATE_STATEMENT_TOO_COMPLEX, -1, "too many FROM items");
    if (split_where(j, where) < 0)
        return -1;
    for (size_t i = 0; i < nfrom; i++) {
        if (!(j->from[i] = from_item(j, from[i])))
            return -1;
        j->nfrom++;
    }
    if (j->rel.kind == RL_REL_TEMP) {
        j->target_is_view = true;
        j->target = temp_view(j);
    } else {
        /* With a ctid condition the whole table is read, so rows not
         * numbered yet get their ctids in key order (see ctid_key), not in
         * the order a key-prefix scan would meet them. */
        bool by_ctid = false;
        for (size_t i = 0; i < j->nconj; i++)
            by_ctid |= j->conj_ctid[i];
        rl_arena hint = {0};
        j->target = rl_relation_scan(x, &j->rel, j->alias,
                                     by_ctid ? NULL : scan_where(j, where, &hint), RL_SCAN_KEY);
        rl_arena_free(&hint);
    }
    if (!j->target)
        return -1;
    j->ntab = table_ncols(j->target);
    return 0;
}

typedef int (*row_action)(dml_job *j, rl_expr_ctx *ec, size_t row, void *ctx);

/* rl_expr_check_where of each conjunct on the typing rows of the target
 * and the FROM relations (ctid conjuncts are checked by eval_tid as they
 * are decided). */
static int job_check_where(dml_job *j)
{
    rl_rowset *typ[17] = {0};
    rl_binding b[17];
    int rc = 0;
    for (size_t k = 0; k <= j->nfrom && rc == 0; k++) {
        typ[k] = rl_rowset_typing(k ? j->from[k - 1] : j->target, j->x->err);
        if (!typ[k])
            rc = -1;
        else
            b[k] = (rl_binding){.rs = typ[k], .row = 0, .outer = k ? &b[k - 1] : NULL};
    }
    rl_expr_ctx ec = {.x = j->x, .b = &b[j->nfrom], .arena = &j->arena, .clause = "WHERE"};
    for (size_t i = 0; i < j->nconj && rc == 0; i++)
        if (!j->conj_ctid[i])
            rc = rl_expr_check_where(&ec, j->conj[i]);
    ec.clause = NULL;
    ec.typing = true; /* each SET expression's type, on the typing rows */
    for (size_t i = 0; i < j->nset && rc == 0; i++) {
        const PgQuery__ResTarget *rt = j->set[i]->res_target;
        const PgQuery__Node *src = set_source(j->x, rt);
        rl_value v;
        if (src && multi_select(rt)) { /* its sub-SELECT's columns' types, rows or none */
            if (rt->val->multi_assign_ref->colno == 1)
                rc = multi_select_assignable(&ec, j->target, &j->set_cols[i], &j->set[i]);
            continue;
        }
        if (!src || src->node_case == PG_QUERY__NODE__NODE_SET_TO_DEFAULT)
            continue;
        rc = rl_expr_eval(&ec, src, &v);
        if (rc == 0)
            rc = assignable(&ec, j->target, (size_t)j->set_cols[i], &v, rl_node_location(src));
    }
    for (size_t k = 0; k <= j->nfrom; k++)
        rl_rowset_free(typ[k]);
    rl_arena_free(&j->arena); /* the typing values are not kept */
    return rc;
}

/* For every target row, find the first FROM combination (cartesian, in
 * order) satisfying WHERE and apply `act` once. */
static int job_run(dml_job *j, row_action act, void *ctx)
{
    size_t nrows = j->target->nrows;
    if (job_check_where(j) < 0)
        return -1;
    for (size_t r = 0; r < nrows; r++) {
        if ((r & 1023) == 0 && rl_exec_check_cancel(j->x) < 0)
            return -1;
        rl_binding b[17];
        size_t idx[16] = {0};
        b[0] = (rl_binding){.rs = j->target, .row = r, .outer = NULL};
        bool empty = false;
        for (size_t k = 0; k < j->nfrom; k++) {
            b[k + 1] = (rl_binding){.rs = j->from[k], .row = 0, .outer = &b[k]};
            empty |= j->from[k]->nrows == 0;
        }
        if (empty)
            return 0;
        for (;;) {
            rl_arena_free(&j->arena);
            rl_expr_ctx ec = {.x = j->x, .b = &b[j->nfrom], .arena = &j->arena};
            int t = where_holds(j, &ec, r);
            if (t < 0)
                return -1;
            if (t > 0) {
                if (act(j, &ec, r, ctx) < 0)
                    return -1;
                break;
            }
            /* next combination (odometer, last FROM item fastest) */
            size_t k = j->nfrom;
            while (k > 0) {
                if (++idx[k - 1] < j->from[k - 1]->nrows) {
                    b[k].row = idx[k - 1];
                    break;
                }
                idx[k - 1] = 0;
                b[k].row = 0;
                k--;
            }
            if (k == 0)
                break;
        }
    }
    return 0;
}

/* Drop the rows of a temporary table marked gone, keeping the others'
 * order and ctids. */
static void temp_compact(rl_temp_table *t, const bool *gone)
{
    rl_rowset *rs = t->rows;
    t->edits++; /* the rows move: its keys' hashes are rebuilt */
    size_t w = 0;
    for (size_t r = 0; r < rs->nrows; r++) {
        if (gone[r])
            continue;
        if (w != r) {
            memcpy(rl_rowset_row(rs, w), rl_rowset_row(rs, r), rs->ncols * sizeof(rl_value));
            if (rs->src)
                rs->src[w] = rs->src[r];
        }
        w++;
    }
    rs->nrows = w;
}

/* --------------------------------------------------------------- UPDATE */

typedef struct upd_ctx {
    const PgQuery__UpdateStmt *st;
    int cols[RL_MAX_COLUMNS];
    rl_defaults defs; /* SET c = DEFAULT */
    uint64_t count;
    returning ret;
    /* a temporary table's: the rows updated (gone from where they were)
     * and their new versions, which go to the end once the statement has
     * read every row (heap order: PostgreSQL's new tuple is the last) */
    bool *gone;
    rl_rowset *moved;
} upd_ctx;

static int update_targets(dml_job *j, upd_ctx *u)
{
    j->set = u->st->target_list;
    j->nset = u->st->n_target_list;
    j->set_cols = u->cols;
    return set_columns(j->x, u->st->target_list, u->st->n_target_list, j->target, j->ntab,
                       j->rel.name, u->cols);
}

static int update_row(dml_job *j, rl_expr_ctx *ec, size_t r, void *ctx)
{
    upd_ctx *u = ctx;
    rl_value nrow[RL_MAX_COLUMNS + 1];
    memcpy(nrow, rl_rowset_row(j->target, r), j->ntab * sizeof *nrow);
    /* every SET expression sees the old row */
    if (apply_set(ec, u->st->target_list, u->st->n_target_list, u->cols, j->target, &u->defs,
                  nrow) < 0)
        return -1;
    if (j->rel.kind == RL_REL_TEMP) {
        /* checked as PostgreSQL checks a non-deferrable key, row by row:
         * against the rows not updated (yet) and the new versions so far */
        u->gone[r] = true;
        if (rl_check_row(j->x, &j->rel, nrow, j->ntab) < 0 ||
            temp_keys_take(j->x, j->rel.temp, nrow, u->gone, u->moved) < 0 ||
            rl_rowset_add(u->moved, nrow, NULL, j->x->err) < 0)
            return -1;
    } else {
        rl_txn *txn = dml_txn(j->x);
        if (!txn)
            return -1;
        rl_datum d[RL_MAX_COLUMNS];
        for (size_t c = 0; c < j->ntab; c++)
            d[c] = nrow[c].d;
        const rl_rowsrc *src = &j->target->src[r];
        if (rl_check_row(j->x, &j->rel, nrow, j->ntab) < 0 ||
            rl_txn_update(txn, j->rel.desc, src->key, src->klen, d, j->x->err) < 0)
            return -1;
    }
    u->count++;
    return returning_add(j->x, &u->ret, nrow, j->ntab, ec->b, j->nfrom);
}

int rl_dml_update(rl_exec *x, const PgQuery__UpdateStmt *st)
{
    dml_job j;
    upd_ctx u = {.st = st};
    rl_relation target; /* UPDATE of a sequence: its owner may, then 42809 */
    if (rl_relation_resolve(x, st->relation, &target) == 0 && target.kind == RL_REL_SEQUENCE)
        return rl_exec_error(x, RL_SQLSTATE_WRONG_OBJECT_TYPE, -1, "cannot change sequence \"%s\"",
                             target.name);
    int rc = job_open(&j, x, st->relation, st->with_clause, st->from_clause, st->n_from_clause,
                      st->where_clause);
    if (rc == 0)
        rc = update_targets(&j, &u);
    if (rc == 0)
        rc = rl_defaults_of(x, &j.rel, j.target, j.ntab, &u.defs);
    if (rc == 0 && u.defs.any)
        rc = identity_updates(x, st->target_list, st->n_target_list, u.cols, j.target, &u.defs);
    if (rc == 0)
        rc = returning_open(x, &u.ret, st->returning_list, st->n_returning_list, j.target,
                            j.alias, j.from, j.nfrom);
    if (rc == 0 && j.rel.kind == RL_REL_STORED && !j.target->src && j.target->nrows)
        rc = rl_exec_error(x, RL_SQLSTATE_INTERNAL_ERROR, -1, "scan of \"%s\" lost its row keys",
                           j.rel.name);
    if (rc == 0 && j.rel.kind == RL_REL_TEMP &&
        (!(u.gone = calloc(j.target->nrows + 1, sizeof *u.gone)) ||
         !(u.moved = rl_rowset_new(j.ntab))))
        rc = oom(x);
    if (rc == 0 && j.rel.kind == RL_REL_TEMP)
        rc = rl_ddl_temps_touch(x);
    if (rc == 0)
        rc = job_run(&j, update_row, &u);
    if (rc < 0 && u.moved) /* PostgreSQL's heap had the versions made before the failure */
        j.rel.temp->lines += u.moved->nrows;
    if (rc == 0 && u.gone) {
        temp_compact(j.rel.temp, u.gone);
        for (size_t r = 0; rc == 0 && r < u.moved->nrows; r++)
            rc = temp_add(x, j.rel.temp, rl_rowset_row(u.moved, r));
    }
    free(u.gone);
    rl_rowset_free(u.moved);
    job_free(&j);
    return dml_done(x, returning_finish(x, &u.ret, rc, "UPDATE", u.count));
}

/* --------------------------------------------------------------- DELETE */

typedef struct del_ctx {
    bool *gone;       /* temp tables: rows to remove */
    uint64_t count;
    returning ret;
} del_ctx;

static int delete_row(dml_job *j, rl_expr_ctx *ec, size_t r, void *ctx)
{
    del_ctx *dc = ctx;
    if (j->rel.kind == RL_REL_TEMP) {
        dc->gone[r] = true;
    } else {
        rl_txn *txn = dml_txn(j->x);
        if (!txn)
            return -1;
        const rl_rowsrc *src = &j->target->src[r];
        if (rl_txn_delete(txn, j->rel.desc, src->key, src->klen, j->x->err) < 0)
            return -1;
    }
    dc->count++;
    return returning_add(j->x, &dc->ret, rl_rowset_row(j->target, r), j->ntab, ec->b, j->nfrom);
}


/* Number every row of the target that has no ctid yet: one full scan in
 * key order (rl_relation_scan hands out the ctids; the rows are dropped). */
static int number_target(dml_job *j)
{
    rl_rowset *rs = rl_relation_scan(j->x, &j->rel, j->alias, NULL, RL_SCAN_KEY);
    if (!rs)
        return -1;
    rl_rowset_free(rs);
    return 0;
}

/* The key of the target row with ctid `tid`: 1 found, 0 none, -1 error.
 * A ctid this transaction never handed out (DuckDB may DELETE by ctids it
 * read in an earlier transaction, or compute them) is resolved by numbering
 * the table once — which gives a table not read before PostgreSQL's tids
 * of freshly inserted rows, (0,1), (0,2), ... in key order — and looking
 * again. ctids already handed out keep their rows. */
static int ctid_key(dml_job *j, uint64_t tid, bool *numbered, const uint8_t **key, size_t *klen)
{
    uint64_t seq;
    if (rl_ctid_seq(j->rel.desc, tid, &seq)) { /* a dynamic table: the stored number */
        rl_txn *txn = dml_txn(j->x);
        const rl_row *r;
        rl_datum f = {.v.i = (int64_t)seq};
        int got = !txn ? -1 : seq > INT64_MAX ? 0 : rl_txn_get(txn, j->rel.desc, &f, &r, j->x->err);
        if (got == 1) {
            if (!j->ctid_key.data) /* the job was zeroed: a buffer of no limit */
                rl_buf_init(&j->ctid_key, 0);
            rl_buf_reset(&j->ctid_key);
            rl_buf_put(&j->ctid_key, r->key, r->klen);
            if (j->ctid_key.failed)
                return oom(j->x);
            *key = j->ctid_key.data;
            *klen = j->ctid_key.len;
        }
        return got;
    }
    int found = rl_ctid_lookup(j->x->s, j->rel.desc, tid, key, klen);
    if (found || *numbered)
        return found;
    *numbered = true;
    if (number_target(j) < 0)
        return -1;
    return rl_ctid_lookup(j->x->s, j->rel.desc, tid, key, klen);
}

/* DELETE FROM t WHERE ctid IN (...) / ctid = '...' on a stored table: the
 * ctids were usually handed out by an earlier scan of this transaction, so
 * they map straight to keys — no scan of the table (see ctid_key). */
static int delete_by_ctids(rl_exec *x, const PgQuery__DeleteStmt *st, dml_job *j,
                           uint64_t *count)
{
    const PgQuery__AExpr *e = j->conj[0]->a_expr;
    const PgQuery__Node *const *items;
    size_t nitems;
    const PgQuery__Node *one;
    if (e->kind == PG_QUERY__A__EXPR__KIND__AEXPR_IN) {
        items = (const PgQuery__Node *const *)e->rexpr->list->items;
        nitems = e->rexpr->list->n_items;
    } else {
        one = is_target_ctid(j, e->lexpr) ? e->rexpr : e->lexpr;
        items = &one;
        nitems = 1;
    }
    rl_txn *txn = dml_txn(x);
    if (!txn)
        return -1;
    uint64_t *done = calloc(nitems ? nitems : 1, sizeof *done);
    if (!done)
        return oom(x);
    size_t ndone = 0;
    bool numbered = false;
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < nitems; i++) {
        rl_arena_free(&j->arena);
        rl_expr_ctx ec = {.x = x, .arena = &j->arena};
        uint64_t tid;
        bool isnull, seen = false;
        if ((rc = eval_tid(&ec, items[i], &tid, &isnull)) < 0 || isnull)
            continue;
        for (size_t k = 0; k < ndone && !seen; k++)
            seen = done[k] == tid;
        const uint8_t *key;
        size_t klen;
        int found = seen ? 0 : ctid_key(j, tid, &numbered, &key, &klen);
        if (found < 0)
            rc = -1;
        if (found <= 0)
            continue;
        done[ndone++] = tid;
        /* a ctid may point at a row this transaction already deleted:
         * PostgreSQL counts 0 */
        int ex = rl_txn_row_exists(txn, j->rel.desc, key, klen, x->err);
        if (ex < 0)
            rc = -1;
        else if (ex == 1 && (rc = rl_txn_delete(txn, j->rel.desc, key, klen, x->err)) == 0)
            (*count)++;
    }
    free(done);
    (void)st;
    return rc;
}

/* The rows of st's target that its USING and WHERE select (every row
 * without them), deleted, their RETURNING rows into dc; j zeroed but for
 * x and alias, the caller frees it. */
static int delete_selected(dml_job *j, const PgQuery__DeleteStmt *st, del_ctx *dc)
{
    rl_exec *x = j->x;
    int rc = job_open(j, x, st->relation, st->with_clause, st->using_clause,
                      st->n_using_clause, st->where_clause);
    if (rc == 0)
        rc = returning_open(x, &dc->ret, st->returning_list, st->n_returning_list, j->target,
                            j->alias, j->from, j->nfrom);
    if (rc == 0 && j->rel.kind == RL_REL_STORED && !j->target->src && j->target->nrows)
        rc = rl_exec_error(x, RL_SQLSTATE_INTERNAL_ERROR, -1, "scan of \"%s\" lost its row keys",
                           j->rel.name);
    if (rc == 0 && j->rel.kind == RL_REL_TEMP &&
        !(dc->gone = calloc(j->target->nrows + 1, sizeof *dc->gone)))
        rc = oom(x);
    if (rc == 0 && j->rel.kind == RL_REL_TEMP)
        rc = rl_ddl_temps_touch(x);
    if (rc == 0)
        rc = job_run(j, delete_row, dc);
    if (rc == 0 && dc->gone)
        temp_compact(j->rel.temp, dc->gone);
    free(dc->gone);
    dc->gone = NULL;
    return rc;
}

int rl_dml_delete(rl_exec *x, const PgQuery__DeleteStmt *st)
{
    dml_job j;
    memset(&j, 0, sizeof j);
    j.x = x;
    j.alias = rl_range_var_alias(st->relation);
    del_ctx dc = {0};
    int rc;
    /* the fast path needs only the relation, not a scan */
    rl_relation rel;
    if (rl_relation_resolve(x, st->relation, &rel) < 0)
        return -1;
    if (split_where(&j, st->where_clause) < 0)
        return -1;
    if (rel.kind == RL_REL_STORED && !st->n_using_clause && j.nconj == 1 && j.conj_ctid[0] &&
        !st->n_returning_list) {
        j.rel = rel;
        rc = delete_by_ctids(x, st, &j, &dc.count);
        job_free(&j);
    } else {
        rc = delete_selected(&j, st, &dc);
        job_free(&j);
    }
    return dml_done(x, returning_finish(x, &dc.ret, rc, "DELETE", dc.count));
}

int rl_dml_delete_all(rl_exec *x, const PgQuery__RangeVar *rv, uint64_t *count)
{
    PgQuery__DeleteStmt st = PG_QUERY__DELETE_STMT__INIT;
    st.relation = (PgQuery__RangeVar *)rv;
    dml_job j;
    memset(&j, 0, sizeof j);
    j.x = x;
    j.alias = rl_range_var_alias(rv);
    del_ctx dc = {0};
    int rc = delete_selected(&j, &st, &dc);
    job_free(&j);
    returning_free(&dc.ret);
    *count = dc.count;
    return dml_done(x, rc);
}

/* ------------------------------------------------ RETURNING's Describe */

bool rl_dml_has_returning(const PgQuery__Node *n)
{
    if (!n)
        return false;
    switch (n->node_case) {
    case PG_QUERY__NODE__NODE_INSERT_STMT: return n->insert_stmt->n_returning_list > 0;
    case PG_QUERY__NODE__NODE_UPDATE_STMT: return n->update_stmt->n_returning_list > 0;
    case PG_QUERY__NODE__NODE_DELETE_STMT: return n->delete_stmt->n_returning_list > 0;
    default: return false;
    }
}

rl_rowset *rl_dml_returning_describe(rl_exec *x, const PgQuery__Node *n)
{
    assert(rl_dml_has_returning(n));
    const PgQuery__RangeVar *rv;
    PgQuery__Node **list, **from = NULL;
    size_t nlist, nfrom = 0;
    const PgQuery__WithClause *with = NULL;
    if (n->node_case == PG_QUERY__NODE__NODE_INSERT_STMT) {
        const PgQuery__InsertStmt *st = n->insert_stmt;
        rv = st->relation, list = st->returning_list, nlist = st->n_returning_list;
    } else if (n->node_case == PG_QUERY__NODE__NODE_UPDATE_STMT) {
        const PgQuery__UpdateStmt *st = n->update_stmt;
        rv = st->relation, list = st->returning_list, nlist = st->n_returning_list;
        from = st->from_clause, nfrom = st->n_from_clause, with = st->with_clause;
    } else {
        const PgQuery__DeleteStmt *st = n->delete_stmt;
        rv = st->relation, list = st->returning_list, nlist = st->n_returning_list;
        from = st->using_clause, nfrom = st->n_using_clause, with = st->with_clause;
    }
    dml_job j;
    memset(&j, 0, sizeof j);
    j.x = x;
    j.with = with;
    j.alias = rl_range_var_alias(rv);
    rl_rowset *shape = NULL, *res = NULL;
    returning r = {0};
    int rc = rl_relation_resolve(x, rv, &j.rel);
    if (rc == 0 && nfrom > sizeof j.from / sizeof j.from[0])
        rc = rl_exec_error(x, RL_SQLSTATE_STATEMENT_TOO_COMPLEX, -1, "too many FROM items");
    for (size_t i = 0; rc == 0 && i < nfrom; i++) {
        if (!(j.from[i] = from_item(&j, from[i])))
            rc = -1;
        else
            j.nfrom++;
    }
    if (rc == 0 && !(shape = rl_relation_shape(x, &j.rel, j.alias)))
        rc = -1;
    if (rc == 0)
        rc = returning_open(x, &r, list, nlist, shape, j.alias, j.from, j.nfrom);
    if (rc == 0)
        res = returning_result(x, &r);
    returning_free(&r);
    rl_rowset_free(shape);
    job_free(&j);
    return res;
}
