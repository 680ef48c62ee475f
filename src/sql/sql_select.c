/*
 * sql_select.c — SELECT: FROM (tables, derived tables, WITH [RECURSIVE]
 * queries, VALUES, functions, joins of every kind, NATURAL and LATERAL),
 * WHERE, GROUP BY (with grouping sets) and aggregates, HAVING, window calls
 * (through sql_window.c), the target list, DISTINCT [ON], ORDER BY,
 * LIMIT/OFFSET/FETCH and UNION / INTERSECT / EXCEPT, all over materialized
 * row sets.
 *
 * Invariants:
 *  - Row sets are materialized: every stage reads the previous stage's row
 *    set and writes a new one, so values (and the strings they borrow) stay
 *    valid while a stage runs; each stage frees what it no longer needs.
 *  - Output column types are found by evaluating every target once on an
 *    all-NULL "typing" row (see sql_expr.c), so an empty result still has
 *    PostgreSQL's RowDescription; row values are converted to those types.
 *  - Unknown-typed output columns (a bare 'abc' or NULL) stay unknown inside
 *    a UNION (so the other branch decides) and become text at the end of
 *    rl_select_run, as in PostgreSQL 15.
 *  - Pushdown: a single-table query hands its WHERE to rl_relation_scan for
 *    key-prefix selection; uncorrelated scalar subqueries in that WHERE are
 *    computed first and replaced by a literal (so `snapshot_id = (SELECT
 *    MAX(snapshot_id) ...)` is a point read, and the subquery runs once).
 *    `SELECT MAX(first key column) FROM t` asks rl_relation_max_key.
 *  - Base relations are scanned in PostgreSQL's heap order when they are
 *    read whole (rl_relation_scan with RL_SCAN_HEAP); rl_select_stream then
 *    holds the consumer's output in a spool and sends it at the end, in
 *    that order, and otherwise sends it in pieces as rows come.
 *  - Kinds of rows are told apart by one comparison (compare_group_keys:
 *    all columns, NULLs equal), shared by GROUP BY, DISTINCT, set
 *    operations and the rounds of a recursive WITH.
 * The parse tree is never modified: rewritten nodes are fresh copies.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sql/sql_array.h"
#include "sql/sql_cast.h"
#include "sql/sql_datetime.h"
#include "sql/sql_exec.h"
#include "sql/sql_expr.h"
#include "sql/sql_func.h"
#include "sql/sql_parse.h"
#include "sql/sql_pgcatalog.h"
#include "sql/sql_relation.h"
#include "sql/sql_resultkey.h"
#include "sql/sql_scan.h"
#include "sql/sql_json.h"
#include "sql/sql_numeric.h"
#include "sql/sql_select.h"
#include "sql/sql_value.h"
#include "sql/sql_window.h"

typedef struct rl_cte_env {
    const char *name;
    rl_rowset *rs;
    const struct rl_cte_env *next;
    bool keep_rels; /* RETURNING's rows: each column keeps its relation name */
} cte_env;

/* The name RETURNING's rows go by in the FROM of the query that evaluates
 * its list (rl_select_returning): no statement can spell it, so a
 * subquery in RETURNING that names the target table reads the table. */
#define RETURNING_REL "\x01returning"


/* Column names a SELECT can reference (projection pushdown, see
 * need_collect): NULL in sel = keep every column. */
typedef struct name_set {
    const char **names;
    size_t n, cap;
    bool all;        /* `*`, or a node the walk cannot read: prune nothing */
} name_set;

/* What one SELECT execution shares across its stages. */
typedef struct sel {
    rl_exec *x;
    const rl_binding *outer;
    const cte_env *ctes;
    rl_arena arena; /* evaluation strings and rewritten nodes */
    const name_set *need; /* joins: columns worth carrying (NULL = all) */
    const PgQuery__Node *join_where; /* joins: the WHERE, for pushed_for */
    bool nullable;   /* the relation being read is a LEFT JOIN's inner side */
    const struct probe_src *probe; /* from_join -> from_rangevar of a right input */
    /* the FROM clause's join: the columns worth keeping in its output (NULL
     * = all), read by the root from_join only */
    const name_set *out_need;
    struct pushed_log *pushed; /* conjuncts of join_where applied by scans */
    bool type_only;       /* rl_select_type: result columns only, no rows */
    const rl_window_values *win; /* the target list's window values, once computed */
    const rl_grouping *grouping; /* the grouping set being projected (GROUPING SETS) */
} sel;

static rl_rowset *run_raw(rl_exec *x, const PgQuery__SelectStmt *st, const rl_binding *outer,
                          const cte_env *ctes);
static rl_rowset *run_raw_mode(rl_exec *x, const PgQuery__SelectStmt *st,
                               const rl_binding *outer, const cte_env *ctes, bool type_only);

static rl_rowset *fail_oom(rl_exec *x)
{
    rl_exec_error(x, RL_SQLSTATE_INTERNAL_ERROR, -1, "out of memory");
    return NULL;
}

static rl_expr_ctx make_ctx(sel *S, const rl_binding *b, rl_agg_ctx *agg)
{
    rl_expr_ctx c = {.x = S->x, .b = b, .agg = agg, .arena = &S->arena, .ctes = S->ctes,
                     .win = S->win, .grouping = agg ? S->grouping : NULL};
    return c;
}

static void null_value(rl_value *v, uint32_t oid)
{
    memset(v, 0, sizeof *v);
    v->oid = oid;
    v->typmod = -1;
    v->d.isnull = true;
}

/* A row set with the same columns (relation alias replaced if given). */
static rl_rowset *rowset_like(const rl_rowset *rs, const char *alias)
{
    rl_rowset *out = rl_rowset_new(rs->ncols);
    if (!out)
        return NULL;
    memcpy(out->cols, rs->cols, rs->ncols * sizeof *rs->cols);
    if (alias)
        for (size_t i = 0; i < out->ncols; i++)
            snprintf(out->cols[i].rel, sizeof out->cols[i].rel, "%s", alias);
    return out;
}

static rl_rowset *rowset_clone(rl_exec *x, rl_rowset *rs, const char *alias)
{
    rl_rowset *out = rowset_like(rs, alias);
    if (!out)
        return fail_oom(x);
    for (size_t i = 0; i < rs->nrows; i++)
        if (rl_rowset_add(out, rl_rowset_row(rs, i), rs->src ? &rs->src[i] : NULL, x->err) < 0) {
            rl_rowset_free(out);
            return NULL;
        }
    return out;
}

/* Column j of rs becomes text if it is still unknown. */
static void resolve_unknown_column(rl_rowset *rs, size_t j)
{
    if (rs->cols[j].oid != RL_OID_UNKNOWN)
        return;
    rs->cols[j].oid = RL_OID_TEXT;
    for (size_t i = 0; i < rs->nrows; i++)
        rl_rowset_row(rs, i)[j].oid = RL_OID_TEXT;
}

/* Unknown output columns become text (PostgreSQL 10+). */
static void resolve_unknown(rl_rowset *rs)
{
    for (size_t j = 0; j < rs->ncols; j++)
        resolve_unknown_column(rs, j);
}

/* The target an ORDER BY / GROUP BY position names (1-based), or -1. */
static int position_of(const PgQuery__Node *n, size_t nt)
{
    if (n && n->node_case == PG_QUERY__NODE__NODE_SORT_BY)
        n = n->sort_by->node;
    if (!n || n->node_case != PG_QUERY__NODE__NODE_A_CONST ||
        rl_const(n->a_const)->val_case != PG_QUERY__A__CONST__VAL_IVAL)
        return -1;
    int pos = rl_const(n->a_const)->ival->ival;
    return pos >= 1 && (size_t)pos <= nt ? pos - 1 : -1;
}

/* Are a and b the same untyped literal (NULL, or the same string)? What
 * PostgreSQL's equal() finds when a window's key is a target. */
static bool same_untyped_literal(const PgQuery__Node *a, const PgQuery__Node *b)
{
    if (a && a->node_case == PG_QUERY__NODE__NODE_SORT_BY)
        a = a->sort_by->node;
    if (!a || !b || a->node_case != PG_QUERY__NODE__NODE_A_CONST ||
        b->node_case != PG_QUERY__NODE__NODE_A_CONST)
        return false;
    const PgQuery__AConst *x = rl_const(a->a_const), *y = rl_const(b->a_const);
    if (x->isnull || y->isnull)
        return x->isnull && y->isnull;
    return x->val_case == PG_QUERY__A__CONST__VAL_SVAL &&
           y->val_case == PG_QUERY__A__CONST__VAL_SVAL && strcmp(x->sval->sval, y->sval->sval) == 0;
}

/* Target j's expression, or NULL. */
static const PgQuery__Node *target_expr(const PgQuery__SelectStmt *st, size_t j)
{
    const PgQuery__Node *t = st->target_list[j];
    return t->node_case == PG_QUERY__NODE__NODE_RES_TARGET ? t->res_target->val : NULL;
}

/* Keys of window `w` that are the untyped literal of a target: that target. */
static void window_keys_resolve(const PgQuery__WindowDef *w, const PgQuery__SelectStmt *st,
                                rl_rowset *rs)
{
    for (size_t j = 0; w && j < rs->ncols && j < st->n_target_list; j++) {
        const PgQuery__Node *e = target_expr(st, j);
        for (size_t i = 0; i < w->n_partition_clause; i++)
            if (same_untyped_literal(w->partition_clause[i], e))
                resolve_unknown_column(rs, j);
        for (size_t i = 0; i < w->n_order_clause; i++)
            if (same_untyped_literal(w->order_clause[i], e))
                resolve_unknown_column(rs, j);
    }
}

/* An untyped literal target that a sort or grouping key names becomes
 * text, as PostgreSQL's addTargetToSortList / addTargetToGroupList coerce
 * it: every target under DISTINCT (it compares them), by position in ORDER
 * BY and GROUP BY (a constant there is 42601), by being equal to a
 * window's PARTITION BY / ORDER BY key (SQL99 matching).
 * Seen where the column stays unknown otherwise: a UNION's branch
 * (diffuzz seed 3 q2665: text vs bigint is 42804 there). */
static void resolve_keyed_unknowns(const PgQuery__SelectStmt *st, rl_rowset *rs)
{
    if (st->n_distinct_clause)
        resolve_unknown(rs);
    for (size_t i = 0; i < st->n_sort_clause; i++) {
        int j = position_of(st->sort_clause[i], rs->ncols);
        if (j >= 0)
            resolve_unknown_column(rs, (size_t)j);
    }
    for (size_t i = 0; i < st->n_group_clause; i++) {
        int j = position_of(st->group_clause[i], rs->ncols);
        if (j >= 0)
            resolve_unknown_column(rs, (size_t)j);
    }
    for (size_t i = 0; i < st->n_window_clause; i++)
        if (st->window_clause[i]->node_case == PG_QUERY__NODE__NODE_WINDOW_DEF)
            window_keys_resolve(st->window_clause[i]->window_def, st, rs);
    for (size_t j = 0; j < st->n_target_list; j++) {
        const PgQuery__Node *e = target_expr(st, j);
        if (e && e->node_case == PG_QUERY__NODE__NODE_FUNC_CALL && e->func_call->over)
            window_keys_resolve(e->func_call->over, st, rs);
    }
}

/* PostgreSQL's MaxTupleAttributeNumber: a result has at most this many
 * columns (RowDescription's count is 16 bits; PostgreSQL stops far below). */
#define MAX_TARGET_COLUMNS 1664

static int too_many_targets(rl_exec *x)
{
    return rl_exec_error(x, RL_SQLSTATE_TOO_MANY_COLUMNS, -1,
                         "target lists can have at most %d entries", MAX_TARGET_COLUMNS);
}

/* ------------------------------------------------------------ VALUES */

rl_rowset *rl_values_run(rl_exec *x, const PgQuery__SelectStmt *st, const char *alias,
                         char **colnames, size_t ncolnames)
{
    size_t nrows = st->n_values_lists, ncols = 0;
    for (size_t i = 0; i < nrows; i++) {
        const PgQuery__Node *l = st->values_lists[i];
        if (l->node_case != PG_QUERY__NODE__NODE_LIST)
            return rl_exec_error(x, RL_SQLSTATE_SYNTAX_ERROR, -1, "malformed VALUES list"), NULL;
        if (i == 0 && l->list->n_items > MAX_TARGET_COLUMNS)
            return too_many_targets(x), NULL;
        if (i == 0)
            ncols = l->list->n_items;
        else if (l->list->n_items != ncols)
            return rl_exec_error(x, RL_SQLSTATE_SYNTAX_ERROR, -1,
                                 "VALUES lists must all be the same length"), NULL;
    }
    if (ncolnames > ncols)
        return rl_exec_error(x, RL_SQLSTATE_INVALID_COLUMN_REFERENCE, -1,
                             "VALUES list has %zu columns available but %zu columns specified",
                             ncols, ncolnames),
               NULL;
    sel S = {.x = x};
    rl_rowset *out = rl_rowset_new(ncols);
    rl_value *vals = calloc(nrows * ncols + 1, sizeof *vals);
    if (!out || !vals)
        goto oom;
    rl_expr_ctx c = make_ctx(&S, NULL, NULL);
    for (size_t i = 0; i < nrows; i++)
        for (size_t j = 0; j < ncols; j++)
            if (rl_expr_eval(&c, st->values_lists[i]->list->items[j], &vals[i * ncols + j]) < 0)
                goto fail;
    for (size_t j = 0; j < ncols; j++) {
        rl_colmeta *m = &out->cols[j];
        if (j < ncolnames && colnames[j])
            snprintf(m->name, sizeof m->name, "%s", colnames[j]);
        else
            snprintf(m->name, sizeof m->name, "column%zu", j + 1);
        snprintf(m->rel, sizeof m->rel, "%s", alias ? alias : "*VALUES*");
        uint32_t t = RL_OID_UNKNOWN;
        for (size_t i = 0; i < nrows; i++)
            if (rl_common_type_of(&c, t, vals[i * ncols + j].oid, "VALUES",
                                  rl_node_location(st->values_lists[i]->list->items[j]), &t) < 0)
                goto fail;
        m->oid = t == RL_OID_UNKNOWN ? RL_OID_TEXT : t;
        m->typmod = -1;
        for (size_t i = 0; i < nrows; i++) {
            rl_value *v = &vals[i * ncols + j];
            if (rl_value_coerce(&c, v, m->oid, -1, false, v, -1) < 0)
                goto fail;
        }
    }
    for (size_t i = 0; i < nrows; i++)
        if (rl_rowset_add(out, &vals[i * ncols], NULL, x->err) < 0)
            goto fail;
    free(vals);
    rl_arena_free(&S.arena);
    return out;
oom:
    fail_oom(x);
fail:
    free(vals);
    rl_rowset_free(out);
    rl_arena_free(&S.arena);
    return NULL;
}

/* ------------------------------------------------------------ FROM */

static rl_rowset *from_item(sel *S, const PgQuery__Node *item, const PgQuery__Node *where);

static const cte_env *find_cte(const cte_env *e, const char *name)
{
    for (; e; e = e->next)
        if (strcmp(e->name, name) == 0)
            return e;
    return NULL;
}

/* ------------------------------------------------ projection pushdown
 *
 * A join materializes every column of both inputs for every matching pair;
 * catalog-discovery queries join relations of 20-30 columns and read a
 * handful. Before a FROM item of a join is joined, columns whose name no
 * ColumnRef (or USING) anywhere in the SELECT's tree mentions are dropped.
 * Names, not qualifiers, decide, so every column a reference could resolve
 * to is kept and ambiguity errors stay exactly as they were; the first
 * column is always kept so a qualified reference to a relation still finds
 * the relation ("column t.x does not exist", not "missing FROM-clause
 * entry"). Any `*` (or a node the walk cannot read) turns pruning off. */

static void need_add(name_set *w, const char *name)
{
    if (!name) {
        w->all = true;
        return;
    }
    for (size_t i = 0; i < w->n; i++)
        if (strcmp(w->names[i], name) == 0)
            return;
    const char **grown = rl_array_reserve(w->names, w->n, &w->cap, sizeof *grown, 32);
    if (!grown) {
        w->all = true;
        return;
    }
    w->names = grown;
    w->names[w->n++] = name;
}

/* rl_tree_walk visitor collecting the names of S->need: a ColumnRef's last
 * field (its subtree holds nothing more), a JOIN's USING names; `*`, a
 * NATURAL join or a tree too deep to walk means every column. */
static int need_visit(void *ctx, const ProtobufCMessage *m)
{
    name_set *w = ctx;
    if (m->descriptor == &pg_query__column_ref__descriptor) {
        const PgQuery__ColumnRef *cr = (const PgQuery__ColumnRef *)m;
        if (cr->n_fields == 0 ||
            cr->fields[cr->n_fields - 1]->node_case == PG_QUERY__NODE__NODE_A_STAR)
            w->all = true;
        else
            need_add(w, rl_node_string(cr->fields[cr->n_fields - 1]));
        return w->all ? -1 : 1;
    }
    if (m->descriptor == &pg_query__a__indirection__descriptor) { /* (s).* */
        const PgQuery__AIndirection *ind = (const PgQuery__AIndirection *)m;
        for (size_t i = 0; i < ind->n_indirection; i++)
            if (ind->indirection[i]->node_case == PG_QUERY__NODE__NODE_A_STAR)
                w->all = true;
        if (w->all)
            return -1;
    }
    if (m->descriptor == &pg_query__join_expr__descriptor) {
        const PgQuery__JoinExpr *j = (const PgQuery__JoinExpr *)m;
        if (j->is_natural)
            w->all = true;
        for (size_t i = 0; i < j->n_using_clause; i++)
            need_add(w, rl_node_string(j->using_clause[i]));
    }
    return w->all ? -1 : 0;
}

static void need_walk(const ProtobufCMessage *m, name_set *w)
{
    if (rl_tree_walk(m, need_visit, w) == -2)
        w->all = true;
}

/* The names the statement reads from its FROM clause's rows, the join
 * conditions aside (they are done by then): the select list, WHERE, GROUP
 * BY, HAVING, ORDER BY. False when that is every column (`*`, ...). */
static bool need_after_from(const PgQuery__SelectStmt *st, name_set *w)
{
    for (size_t i = 0; i < st->n_target_list; i++)
        need_walk(&st->target_list[i]->base, w);
    for (size_t i = 0; i < st->n_group_clause; i++)
        need_walk(&st->group_clause[i]->base, w);
    for (size_t i = 0; i < st->n_sort_clause; i++)
        need_walk(&st->sort_clause[i]->base, w);
    if (st->where_clause)
        need_walk(&st->where_clause->base, w);
    if (st->having_clause)
        need_walk(&st->having_clause->base, w);
    return !w->all;
}

static bool from_has_join(const PgQuery__SelectStmt *st)
{
    return st->n_from_clause > 1 ||
           (st->n_from_clause == 1 &&
            st->from_clause[0]->node_case == PG_QUERY__NODE__NODE_JOIN_EXPR);
}

static bool name_in(const name_set *w, const char *name)
{
    for (size_t i = 0; i < w->n; i++)
        if (strcmp(w->names[i], name) == 0)
            return true;
    return false;
}

/* Drop the columns of a FROM item that S->need says nothing can reference. */
static int prune_columns(sel *S, rl_rowset *rs)
{
    if (!S->need || !rs || rs->ncols < 2)
        return 0;
    const name_set *w = S->need;
    size_t *keep = malloc(rs->ncols * sizeof *keep), m = 0;
    if (!keep)
        return fail_oom(S->x), -1;
    for (size_t i = 0; i < rs->ncols; i++) {
        /* a name of the item itself is a whole-row reference (SELECT s,
         * row_to_json(s), (s).f): every column of it */
        bool k = i == 0 || (rs->cols[i].attnum == RL_CTID_ATTNUM && name_in(w, "tableoid"));
        for (size_t j = 0; !k && j < w->n; j++)
            k = strcmp(rs->cols[i].name, w->names[j]) == 0 ||
                strcmp(rs->cols[i].rel, w->names[j]) == 0;
        if (k)
            keep[m++] = i;
    }
    if (m == rs->ncols) {
        free(keep);
        return 0;
    }
    rl_colmeta *cols = malloc(m * sizeof *cols);
    rl_value *vals = rs->nrows ? malloc(rs->nrows * m * sizeof *vals) : NULL;
    if (!cols || (rs->nrows && !vals)) {
        free(keep);
        free(cols);
        free(vals);
        return fail_oom(S->x), -1;
    }
    for (size_t c = 0; c < m; c++)
        cols[c] = rs->cols[keep[c]];
    for (size_t r = 0; r < rs->nrows; r++) {
        const rl_value *src = &rs->vals[r * rs->ncols];
        rl_value *dst = &vals[r * m];
        for (size_t c = 0; c < m; c++)
            dst[c] = src[keep[c]];
    }
    free(keep);
    free(rs->cols);
    free(rs->vals);
    rs->cols = cols;
    rs->vals = vals;
    rs->ncols = m;
    rs->caprows = rs->nrows;
    rl_rowset_cols_changed(rs);
    return 0;
}

/* A node that keeps a condition from being evaluated on one relation's
 * rows: a subquery, an aggregate or window call, `*`, or a column that does
 * not resolve in that relation (rl_tree_walk visitor; ctx = the row set). */
static int nonlocal_node(void *ctx, const ProtobufCMessage *m)
{
    if (m->descriptor == &pg_query__sub_link__descriptor ||
        m->descriptor == &pg_query__a__star__descriptor)
        return -1;
    if (m->descriptor == &pg_query__func_call__descriptor) {
        const PgQuery__FuncCall *f = (const PgQuery__FuncCall *)m;
        return f->agg_star || f->over || f->n_agg_order || f->agg_filter ? -1 : 0;
    }
    if (m->descriptor != &pg_query__column_ref__descriptor)
        return 0;
    PgQuery__Node n = PG_QUERY__NODE__INIT;
    n.node_case = PG_QUERY__NODE__NODE_COLUMN_REF;
    n.column_ref = (PgQuery__ColumnRef *)m;
    rl_binding b = {ctx, 0, NULL, NULL};
    return rl_expr_column(&b, &n) ? 1 : -1;
}

/* Can `m` be evaluated on the rows of `rs` alone? Every column it names
 * must resolve in rs (qualified or not); no subqueries, aggregates or `*`. */
static bool local_to(const ProtobufCMessage *m, const rl_rowset *rs)
{
    return rl_tree_walk(m, nonlocal_node, (void *)rs) == 0;
}

/* Predicate pushdown into a join: each AND-ed conjunct of the WHERE that
 * only reads this relation's columns filters the relation as it is read,
 * before it is joined (the WHERE still runs on the joined rows, so this only
 * saves work, and conjuncts past MAX_PUSHED are simply not pushed). Not on a
 * LEFT JOIN's inner side, where a filter would turn removed rows into
 * NULL-extended ones. pg_catalog's discovery joins of pg_class,
 * pg_attribute, pg_type ... filtered by relname shrink to a few rows before
 * the first join this way, and `attnum > 0` keeps pg_attribute's system
 * columns from ever being held. */
#define MAX_PUSHED 32
typedef struct pushed_filter {
    sel *S;
    const PgQuery__Node *conds[MAX_PUSHED];
    size_t n;
    size_t calls; /* rows tested: a cancel check every 256 */
} pushed_filter;

/* The conjuncts the FROM clause's scans applied: the WHERE need not test
 * them again (residual_where). Past its capacity a conjunct is simply
 * tested twice. */
#define PUSHED_LOG 64
typedef struct pushed_log {
    const PgQuery__Node *conds[PUSHED_LOG];
    size_t n;
} pushed_log;

static void collect_pushed(pushed_filter *pf, const rl_rowset *rs, const PgQuery__Node *cond)
{
    if (!cond)
        return;
    if (cond->node_case == PG_QUERY__NODE__NODE_BOOL_EXPR &&
        cond->bool_expr->boolop == PG_QUERY__BOOL_EXPR_TYPE__AND_EXPR) {
        for (size_t i = 0; i < cond->bool_expr->n_args; i++)
            collect_pushed(pf, rs, cond->bool_expr->args[i]);
        return;
    }
    if (pf->n < MAX_PUSHED && local_to((const ProtobufCMessage *)cond, rs))
        pf->conds[pf->n++] = cond;
}

/* rl_row_filter: does row i of rs pass every pushed conjunct? */
static int keep_pushed(void *ctx, rl_rowset *rs, size_t i)
{
    pushed_filter *pf = ctx;
    sel *S = pf->S;
    if ((pf->calls++ & 255) == 0 && rl_exec_check_cancel(S->x) < 0)
        return -1;
    rl_binding b = {rs, i, S->outer, NULL};
    rl_expr_ctx c = make_ctx(S, &b, NULL);
    for (size_t k = 0; k < pf->n; k++) {
        int t = rl_expr_truth(&c, pf->conds[k]);
        if (t <= 0)
            return t;
    }
    return 1;
}

/* The filter a scan of rs applies for the statement's WHERE (NULL: none;
 * pf holds it). */
static const rl_row_filter *pushed_for(sel *S, const rl_rowset *rs, pushed_filter *pf,
                                       rl_row_filter *filter)
{
    memset(pf, 0, sizeof *pf);
    pf->S = S;
    if (S->nullable || !S->join_where)
        return NULL;
    collect_pushed(pf, rs, S->join_where);
    if (pf->n == 0)
        return NULL;
    for (size_t i = 0; S->pushed && i < pf->n && S->pushed->n < PUSHED_LOG; i++)
        S->pushed->conds[S->pushed->n++] = pf->conds[i];
    *filter = (rl_row_filter){keep_pushed, pf};
    return filter;
}

static bool was_pushed(const pushed_log *log, const PgQuery__Node *cond)
{
    for (size_t i = 0; log && i < log->n; i++)
        if (log->conds[i] == cond)
            return true;
    return false;
}

/* The conjuncts of where that the joined rows `in` still have to pass: all
 * but those a scan applied whose columns are, in `in`, that scan's (they
 * resolve unambiguously: an ambiguous name must still fail here, 42702).
 * Returns the number put in out (at most max; where itself when nothing
 * was applied or there are too many). */
static size_t residual_where(const pushed_log *log, const rl_rowset *in,
                             const PgQuery__Node *where, const PgQuery__Node **out, size_t max)
{
    bool is_and = where->node_case == PG_QUERY__NODE__NODE_BOOL_EXPR &&
                  where->bool_expr->boolop == PG_QUERY__BOOL_EXPR_TYPE__AND_EXPR;
    size_t n = is_and ? where->bool_expr->n_args : 1;
    if (!log || log->n == 0 || n > max) {
        out[0] = where;
        return 1;
    }
    size_t k = 0;
    for (size_t i = 0; i < n; i++) {
        const PgQuery__Node *c = is_and ? where->bool_expr->args[i] : where;
        if (!(was_pushed(log, c) && local_to((const ProtobufCMessage *)c, in)))
            out[k++] = c;
    }
    return k;
}

/* ------------------------------------------------------ scan key sets
 *
 * Conditions that name few values of a pg_catalog relation's column become
 * key sets of its scan (sql_value.h), so the generator builds those rows
 * only: `col = constant` and `col IN (constants)` conjuncts of the WHERE
 * (with the same rule as pushed_for: not on a LEFT JOIN's inner side),
 * and for the right side of a join the values the left rows carry in an
 * `l.col = r.col` conjunct of ON (valid for LEFT joins too: a right row
 * whose value no left row has matches no left row). Every condition is
 * still evaluated on what the scan returns. */

static long colref_in(const PgQuery__Node *n, const rl_rowset *rs);
struct probe_src;
static bool equi_pair(const PgQuery__Node *q, const rl_rowset *l, const rl_rowset *r, long *lc,
                      long *rc);

/* An integer or string constant as a value (strings borrowed from the
 * parse tree, through rl_const: a cached tree's literals are this
 * execution's); false for anything else. */
static bool const_value(const PgQuery__Node *n, rl_value *v)
{
    if (!n || n->node_case != PG_QUERY__NODE__NODE_A_CONST)
        return false;
    const PgQuery__AConst *c = rl_const(n->a_const);
    if (!c || c->isnull)
        return false;
    memset(v, 0, sizeof *v);
    v->typmod = -1;
    if (c->val_case == PG_QUERY__A__CONST__VAL_IVAL) {
        v->oid = RL_OID_INT8;
        v->d.v.i = c->ival ? c->ival->ival : 0;
        return true;
    }
    if (c->val_case == PG_QUERY__A__CONST__VAL_SVAL && c->sval && c->sval->sval) {
        v->oid = RL_OID_TEXT;
        v->d.v.s.p = (const uint8_t *)c->sval->sval;
        v->d.v.s.len = strlen(c->sval->sval);
        return true;
    }
    return false;
}

static bool same_family(uint32_t a, uint32_t b)
{
    return (rl_oid_is_intlike(a) && rl_oid_is_intlike(b)) ||
           (rl_oid_is_stringlike(a) && rl_oid_is_stringlike(b));
}

/* A new key set on column col of shape, or NULL (no room, or out of
 * memory: the scan then simply has one key set fewer). */
static rl_keyset *keys_new(rl_scan_keys *keys, const rl_rowset *shape, long col)
{
    if (keys->n == RL_SCAN_KEYSETS)
        return NULL;
    rl_keyset *k = &keys->sets[keys->n];
    if (rl_keyset_init(k, (size_t)col, rl_oid_is_stringlike(shape->cols[col].oid)) < 0)
        return NULL;
    keys->n++;
    return k;
}

static void keys_drop_last(rl_scan_keys *keys)
{
    rl_keyset_free(&keys->sets[--keys->n]);
}

/* `col = const`, `const = col` or `col IN (consts)` on a column of shape. */
static void keys_from_conjunct(rl_scan_keys *keys, const rl_rowset *shape, const PgQuery__Node *q)
{
    if (q->node_case != PG_QUERY__NODE__NODE_A_EXPR)
        return;
    const PgQuery__AExpr *e = q->a_expr;
    const char *op = e->n_name == 1 ? rl_node_string(e->name[0]) : NULL;
    if (!op || strcmp(op, "=") != 0)
        return;
    rl_value v;
    if (e->kind == PG_QUERY__A__EXPR__KIND__AEXPR_OP) {
        long col = colref_in(e->lexpr, shape);
        const PgQuery__Node *c = e->rexpr;
        if (col < 0)
            col = colref_in(e->rexpr, shape), c = e->lexpr;
        if (col < 0 || !const_value(c, &v) || !same_family(shape->cols[col].oid, v.oid))
            return;
        rl_keyset *k = keys_new(keys, shape, col);
        if (k && rl_keyset_add(k, &v) < 0)
            keys_drop_last(keys);
        return;
    }
    if (e->kind != PG_QUERY__A__EXPR__KIND__AEXPR_IN || !e->rexpr ||
        e->rexpr->node_case != PG_QUERY__NODE__NODE_LIST)
        return;
    long col = colref_in(e->lexpr, shape);
    const PgQuery__List *l = e->rexpr->list;
    if (col < 0 || l->n_items == 0)
        return;
    for (size_t i = 0; i < l->n_items; i++) /* all constants of the column's family */
        if (!const_value(l->items[i], &v) || !same_family(shape->cols[col].oid, v.oid))
            return;
    rl_keyset *k = keys_new(keys, shape, col);
    for (size_t i = 0; k && i < l->n_items; i++) {
        const_value(l->items[i], &v);
        if (rl_keyset_add(k, &v) < 0) {
            keys_drop_last(keys);
            return;
        }
    }
}

static void keys_from_where(rl_scan_keys *keys, const rl_rowset *shape, const PgQuery__Node *q)
{
    if (!q)
        return;
    if (q->node_case == PG_QUERY__NODE__NODE_BOOL_EXPR &&
        q->bool_expr->boolop == PG_QUERY__BOOL_EXPR_TYPE__AND_EXPR) {
        for (size_t i = 0; i < q->bool_expr->n_args; i++)
            keys_from_where(keys, shape, q->bool_expr->args[i]);
        return;
    }
    keys_from_conjunct(keys, shape, q);
}

/* What a join's right input may be probed with: its ON, and the inputs
 * before it in the join pipeline, whose columns side by side are the
 * layout of the rows it joins (from_join). */
typedef struct probe_src {
    const PgQuery__Node *on;
    const rl_rowset *layout; /* columns only */
    rl_rowset *const *inputs;
    const size_t *at;        /* inputs[m]'s first column in layout */
    size_t n;
} probe_src;

/* The first `l.col = r.col` conjunct of ON whose r.col is a column of shape:
 * the values of l.col in the input that holds it (every joined row's value
 * is one of them). */
static void keys_from_join(rl_scan_keys *keys, const rl_rowset *shape, const probe_src *p)
{
    long lc, rc;
    if (!equi_pair(p->on, p->layout, shape, &lc, &rc))
        return;
    size_t m = p->n - 1;
    while (m > 0 && p->at[m] > (size_t)lc)
        m--;
    const rl_rowset *in = p->inputs[m];
    size_t c = (size_t)lc - p->at[m];
    assert(c < in->ncols);
    rl_keyset *k = keys_new(keys, shape, rc);
    for (size_t i = 0; k && i < in->nrows; i++) {
        if (rl_keyset_add(k, &in->vals[i * in->ncols + c]) < 0) {
            keys_drop_last(keys);
            return;
        }
    }
}

/* Key sets for a scan of rel (only pg_catalog relations use them) whose
 * columns are shape's; where: the WHERE of a query whose FROM is this one
 * relation, else NULL. */
static void scan_keys(sel *S, const rl_relation *rel, const rl_rowset *shape,
                      const PgQuery__Node *where, rl_scan_keys *keys)
{
    const probe_src *probe = S->probe;
    S->probe = NULL;
    keys->n = 0;
    const PgQuery__Node *cond = S->nullable ? NULL : S->join_where ? S->join_where : where;
    if (rel->kind != RL_REL_VIRTUAL)
        return;
    if (cond)
        keys_from_where(keys, shape, cond);
    if (probe)
        keys_from_join(keys, shape, probe);
}

/* FROM item `t AS a(c1, c2, ...)`: the listed columns take those names. */
static void rename_columns(const PgQuery__RangeVar *rv, rl_rowset *rs)
{
    if (!rv->alias || !rv->alias->n_colnames)
        return;
    for (size_t i = 0; i < rv->alias->n_colnames && i < rs->ncols; i++) {
        const char *n = rl_node_string(rv->alias->colnames[i]);
        if (n)
            snprintf(rs->cols[i].name, sizeof rs->cols[i].name, "%s", n);
    }
    rl_rowset_cols_changed(rs);
}

/* The alias's column names, then only the columns the statement can use
 * (rs taken over: returned, or freed and NULL). */
static rl_rowset *rename_and_prune(sel *S, const PgQuery__RangeVar *rv, rl_rowset *rs)
{
    if (!rs)
        return NULL;
    rename_columns(rv, rs);
    if (prune_columns(S, rs) < 0) {
        rl_rowset_free(rs);
        return NULL;
    }
    return rs;
}

static rl_rowset *from_rangevar(sel *S, const PgQuery__RangeVar *rv, const PgQuery__Node *where)
{
    const char *alias = rl_range_var_alias(rv);
    const cte_env *cte = (!rv->schemaname || !rv->schemaname[0]) ? find_cte(S->ctes, rv->relname)
                                                                  : NULL;
    pushed_filter pf;
    rl_row_filter filter;
    if (cte) {
        rl_rowset *rs = rowset_clone(S->x, cte->rs, cte->keep_rels ? NULL : alias);
        const rl_row_filter *f = rs ? pushed_for(S, rs, &pf, &filter) : NULL;
        if (rs && f && rl_rowset_filter(rs, f) < 0) {
            rl_rowset_free(rs);
            return NULL;
        }
        return rename_and_prune(S, rv, rs);
    }
    rl_relation rel;
    rl_scan_keys keys;
    rl_rowset *rs;
    if (rl_relation_resolve(S->x, rv, &rel) < 0 || !(rs = rl_relation_shape(S->x, &rel, alias)))
        return NULL;
    /* A pg_catalog relation is narrowed before it is generated: renamed
     * first, since the key sets, the filter and the pruning go by the names
     * the statement uses. A stored scan needs the relation's full layout. */
    bool narrow_first = rel.kind == RL_REL_VIRTUAL;
    if (narrow_first)
        rename_columns(rv, rs);
    scan_keys(S, &rel, rs, where, &keys);
    if (narrow_first && prune_columns(S, rs) < 0) {
        rl_scan_keys_free(&keys);
        rl_rowset_free(rs);
        return NULL;
    }
    const rl_row_filter *f = pushed_for(S, rs, &pf, &filter);
    if (!S->type_only) /* a typing run needs the columns only */
        rs = rl_relation_fill(S->x, &rel, alias, where, RL_SCAN_HEAP, &keys, f, rs);
    rl_scan_keys_free(&keys);
    return narrow_first ? rs : rename_and_prune(S, rv, rs);
}

static rl_rowset *from_subselect(sel *S, const PgQuery__RangeSubselect *rs_node)
{
    if (!rs_node->subquery || rs_node->subquery->node_case != PG_QUERY__NODE__NODE_SELECT_STMT)
        return rl_exec_error(S->x, RL_SQLSTATE_SYNTAX_ERROR, -1,
                             "malformed subquery in FROM"), NULL;
    if (!rs_node->alias || !rs_node->alias->aliasname)
        return rl_exec_error(S->x, RL_SQLSTATE_SYNTAX_ERROR, -1,
                             "subquery in FROM must have an alias"), NULL;
    /* a typing run needs the subquery's columns only, so its subqueries too */
    rl_rowset *rs =
        run_raw_mode(S->x, rs_node->subquery->select_stmt, S->outer, S->ctes, S->type_only);
    if (!rs)
        return NULL;
    resolve_unknown(rs);
    const PgQuery__Alias *a = rs_node->alias;
    for (size_t i = 0; i < rs->ncols; i++) {
        snprintf(rs->cols[i].rel, sizeof rs->cols[i].rel, "%s", a->aliasname);
        rs->cols[i].using_dup = false;
        const char *n = i < a->n_colnames ? rl_node_string(a->colnames[i]) : NULL;
        if (n)
            snprintf(rs->cols[i].name, sizeof rs->cols[i].name, "%s", n);
    }
    rl_rowset_cols_changed(rs);
    if (prune_columns(S, rs) < 0) {
        rl_rowset_free(rs);
        return NULL;
    }
    return rs;
}

/* Output column i of a join: side 0 = left, 1 = right, and its index. */
typedef struct join_map {
    int side;
    size_t col;
} join_map;

static long find_unqualified(const rl_rowset *rs, const char *name)
{
    long found = -1;
    for (size_t i = 0; i < rs->ncols; i++)
        if (!rs->cols[i].using_dup && strcmp(rs->cols[i].name, name) == 0) {
            if (found >= 0)
                return -2;
            found = (long)i;
        }
    return found;
}

/* USING: left's columns first, then the rest of left, the rest of right,
 * then right's USING copies (only reachable qualified). */
static int join_layout(sel *S, const char *const *names, const rl_rowset *l,
                       const rl_rowset *r, join_map *map, long *lu, long *ru, size_t nu,
                       bool left_copies)
{
    for (size_t k = 0; k < nu; k++) {
        const char *name = names[k];
        lu[k] = name ? find_unqualified(l, name) : -1;
        ru[k] = name ? find_unqualified(r, name) : -1;
        const char *side = lu[k] < 0 ? "left" : "right";
        long bad = lu[k] < 0 ? lu[k] : ru[k];
        if (bad == -2)
            return rl_exec_error(S->x, RL_SQLSTATE_AMBIGUOUS_COLUMN, -1,
                                 "common column name \"%s\" appears more than once in %s table",
                                 name, side);
        if (bad < 0)
            return rl_exec_error(S->x, RL_SQLSTATE_UNDEFINED_COLUMN, -1,
                                 "column \"%s\" specified in USING clause does not exist in %s "
                                 "table",
                                 name ? name : "", side);
    }
    size_t o = 0;
    for (size_t k = 0; k < nu; k++)
        map[o++] = (join_map){0, (size_t)lu[k]};
    for (size_t i = 0; i < l->ncols; i++) {
        bool used = false;
        for (size_t k = 0; k < nu; k++)
            used |= (long)i == lu[k];
        if (!used || left_copies)
            map[o++] = (join_map){0, i};
    }
    for (size_t i = 0; i < r->ncols; i++) {
        bool used = false;
        for (size_t k = 0; k < nu; k++)
            used |= (long)i == ru[k];
        if (!used)
            map[o++] = (join_map){1, i};
    }
    for (size_t k = 0; k < nu; k++)
        map[o++] = (join_map){1, (size_t)ru[k]};
    return 0;
}

/* ------------------------------------------------------------ hash join
 *
 * Catalog-discovery queries join pg_class, pg_attribute and pg_type over
 * thousands of rows; a nested loop evaluates ON for every pair. When ON has
 * a top-level conjunct `a = b` with a a column of one side and b of the
 * other, the right side is bucketed by b's value and each left row only
 * visits its bucket. The full ON (and USING) is still evaluated for every
 * candidate, and buckets keep the right side's order, so the result is the
 * same rows in the same order as the nested loop. */

/* Column index of a ColumnRef in `rs`, or -1 (absent or ambiguous). */
static long colref_in(const PgQuery__Node *n, const rl_rowset *rs)
{
    if (!n || n->node_case != PG_QUERY__NODE__NODE_COLUMN_REF)
        return -1;
    const PgQuery__ColumnRef *c = n->column_ref;
    const char *rel = c->n_fields == 2 ? rl_node_string(c->fields[0]) : NULL;
    const char *name = rl_node_string(c->fields[c->n_fields - 1]);
    if (!name || c->n_fields > 2 || (c->n_fields == 2 && !rel))
        return -1;
    long found = -1;
    for (size_t i = 0; i < rs->ncols; i++) {
        if (rs->cols[i].using_dup || strcmp(rs->cols[i].name, name) != 0)
            continue;
        if (rel && strcmp(rs->cols[i].rel, rel) != 0)
            continue;
        if (found >= 0)
            return -1;
        found = (long)i;
    }
    return found;
}

/* Find a conjunct `lcol = rcol` of ON; the two column indexes, or false. */
static bool equi_pair(const PgQuery__Node *q, const rl_rowset *l, const rl_rowset *r, long *lc,
                      long *rc)
{
    if (!q)
        return false;
    if (q->node_case == PG_QUERY__NODE__NODE_BOOL_EXPR &&
        q->bool_expr->boolop == PG_QUERY__BOOL_EXPR_TYPE__AND_EXPR) {
        for (size_t i = 0; i < q->bool_expr->n_args; i++)
            if (equi_pair(q->bool_expr->args[i], l, r, lc, rc))
                return true;
        return false;
    }
    if (q->node_case != PG_QUERY__NODE__NODE_A_EXPR)
        return false;
    const PgQuery__AExpr *e = q->a_expr;
    const char *op = e->n_name == 1 ? rl_node_string(e->name[0]) : NULL;
    if (e->kind != PG_QUERY__A__EXPR__KIND__AEXPR_OP || !op || strcmp(op, "=") != 0)
        return false;
    long a_l = colref_in(e->lexpr, l), a_r = colref_in(e->lexpr, r);
    long b_l = colref_in(e->rexpr, l), b_r = colref_in(e->rexpr, r);
    /* each side must name exactly one column of exactly one input */
    if (a_l >= 0 && a_r < 0 && b_r >= 0 && b_l < 0) {
        *lc = a_l, *rc = b_r;
    } else if (a_r >= 0 && a_l < 0 && b_l >= 0 && b_r < 0) {
        *lc = b_l, *rc = a_r;
    } else {
        return false;
    }
    /* hash equality must imply SQL equality: same family of types */
    return same_family(l->cols[*lc].oid, r->cols[*rc].oid);
}

typedef struct bucket_index {
    size_t nbuckets;
    size_t *head;   /* per bucket: first right row + 1, 0 = empty */
    size_t *next;   /* per right row: next row in its bucket + 1 */
    uint64_t *hash; /* per right row */
} bucket_index;

static void bucket_free(bucket_index *b)
{
    free(b->head);
    free(b->next);
    free(b->hash);
}

/* Bucket the right rows by column rc, keeping each bucket in row order. */
static bool bucket_build(bucket_index *b, rl_rowset *r, long rc)
{
    b->nbuckets = 1;
    while (b->nbuckets < r->nrows * 2)
        b->nbuckets <<= 1;
    b->head = calloc(b->nbuckets, sizeof *b->head);
    b->next = calloc(r->nrows + 1, sizeof *b->next);
    b->hash = calloc(r->nrows + 1, sizeof *b->hash);
    size_t *tail = calloc(b->nbuckets, sizeof *tail);
    if (!b->head || !b->next || !b->hash || !tail) {
        free(tail);
        bucket_free(b);
        return false;
    }
    for (size_t ri = 0; ri < r->nrows; ri++) {
        rl_value_key k = rl_value_key_of(&rl_rowset_row(r, ri)[rc]);
        if (!k.ok)
            continue; /* NULL never equals anything */
        b->hash[ri] = k.h;
        size_t slot = k.h & (b->nbuckets - 1);
        if (tail[slot])
            b->next[tail[slot] - 1] = ri + 1;
        else
            b->head[slot] = ri + 1;
        tail[slot] = ri + 1;
    }
    free(tail);
    return true;
}

/* ------------------------------------------------------------ join pipeline
 *
 * A left-deep chain of joins ((L0 JOIN R1 ON ...) JOIN R2 ON ...) ... Rk
 * runs as one pipeline: the inputs are read first (each right input with
 * key sets from the inputs before it), then each L0 row is extended through
 * the levels depth first, and only complete rows are kept. Those are the
 * rows, in the order, that joining level by level gives (each level visits
 * its candidates in the right input's order), without holding the k - 1
 * intermediate results: DuckDB's discovery join of pg_class, pg_namespace,
 * pg_attribute, pg_type and two pg_description made five of them, 60,000
 * rows each, on a lake of 10,000 tables.
 *
 * The joined row is the inputs' columns side by side. Only the chain's top
 * join may have USING: its output then takes join_layout's column order
 * (lower levels' ON name columns by the side-by-side layout, which USING
 * would change). */

typedef struct join_level {
    const PgQuery__JoinExpr *j;
    rl_rowset *r;
    size_t at;        /* r's first column in the joined row */
    rl_rowset view;   /* the joined row's first at + r->ncols columns, for ON */
    bool left;        /* LEFT / FULL JOIN: a row without a match gets NULLs for r */
    bool right;       /* RIGHT / FULL JOIN: an r row no row matched is joined
                         to NULLs for everything before it (after the rows) */
    bool *rmatched;   /* right: which r rows matched */
    const PgQuery__Node *lateral; /* LATERAL (subquery) or a function naming
                         earlier FROM items: r is its columns only; its rows
                         are made per joined row */
    bool hashed;      /* candidates from r's buckets on column rc */
    bool only_equi;   /* ON is just joined[lc] = r[rc] */
    long lc, rc;
    bucket_index bi;
    size_t nu;        /* USING (top level only): joined[lu[k]] = r[ru[k]] */
    long *lu, *ru;
} join_level;

typedef struct join_pipe {
    sel *S;
    rl_rowset *l0;
    join_level *lv;
    size_t k;
    size_t width;      /* columns of the joined row */
    rl_colmeta *cols;  /* width */
    rl_value *row;     /* width: the row being joined */
    const name_set *keep; /* output columns worth keeping (NULL: all) */
    join_map *map;     /* USING: output column -> side/column */
    size_t nmap;       /* its length: the joined row's width, plus the USING
                          columns' left copies when they are kept (merge) */
    long *alt;         /* merge: output column -> the right column a NULL
                          takes the value of (COALESCE), or -1 */
    size_t *src;       /* output column -> joined row column (NULL: as joined) */
    rl_value *outrow;  /* output width, with src */
    rl_rowset *out;
    bool copy_rows;    /* a LATERAL level's rows live only while their joined
                          row is made: the output keeps copies of its values */
} join_pipe;

static int pipe_emit(join_pipe *P)
{
    const rl_value *row = P->row;
    if (P->src) {
        for (size_t i = 0; i < P->out->ncols; i++) {
            P->outrow[i] = P->row[P->src[i]];
            if (P->alt && P->alt[i] >= 0 && P->outrow[i].d.isnull)
                P->outrow[i] = P->row[P->alt[i]];
        }
        row = P->outrow;
    }
    return P->copy_rows ? rl_rowset_add(P->out, row, NULL, P->S->x->err)
                        : rl_rowset_add_ref(P->out, row, P->S->x->err);
}


/* Is map entry i a left copy of a USING column (kept only for a merge)? */
static bool left_using_copy(const join_pipe *P, const join_level *top, size_t i)
{
    if (!P->alt || i < top->nu || P->map[i].side != 0)
        return false;
    for (size_t k = 0; k < top->nu; k++)
        if ((long)P->map[i].col == top->lu[k])
            return true;
    return false;
}

/* The output columns: join_layout's order for a USING top level, else as
 * joined; only those P->keep names (and the first, as prune_columns). A
 * RIGHT / FULL JOIN ... USING merges: each USING column is COALESCE(left,
 * right), a column of no relation, and both sides' copies stay reachable
 * qualified (t.x is t's value, NULL where t had no row), as in PostgreSQL. */
static int pipe_output(join_pipe *P)
{
    join_level *top = &P->lv[P->k - 1];
    size_t n = P->map ? P->nmap : P->width, nu = top->nu, m = 0;
    bool merge = P->map && top->right;
    P->src = calloc(n + 1, sizeof *P->src);
    P->outrow = calloc(n + 1, sizeof *P->outrow);
    P->alt = merge ? calloc(n + 1, sizeof *P->alt) : NULL;
    size_t *from = calloc(n + 1, sizeof *from); /* output column -> map entry */
    if (!P->src || !P->outrow || !from || (merge && !P->alt)) {
        free(from);
        return fail_oom(P->S->x), -1;
    }
    bool reordered = false;
    for (size_t i = 0; i < n; i++) {
        size_t c = !P->map ? i : P->map[i].side ? top->at + P->map[i].col : P->map[i].col;
        reordered |= c != m;
        if (i == 0 || !P->keep || name_in(P->keep, P->cols[c].name) ||
            name_in(P->keep, P->cols[c].rel) || /* a whole-row reference's item */
            (P->cols[c].attnum == RL_CTID_ATTNUM && name_in(P->keep, "tableoid"))) {
            from[m] = i;
            P->src[m++] = c;
        }
    }
    if (!(P->out = rl_rowset_new(m))) {
        free(from);
        return fail_oom(P->S->x), -1;
    }
    for (size_t o = 0; o < m; o++) {
        size_t i = from[o];
        rl_colmeta *col = &P->out->cols[o];
        *col = P->cols[P->src[o]];
        if (!P->map)
            continue;
        /* a USING join's copies are reachable only qualified */
        col->using_dup |= (P->map[i].side == 1 && i >= n - nu) || left_using_copy(P, top, i);
        if (merge) {
            P->alt[o] = i < nu ? (long)(top->at + (size_t)top->ru[i]) : -1;
            if (i < nu) { /* the merged column belongs to no relation */
                col->rel[0] = 0;
                col->table_oid = 0;
                col->attnum = 0;
            }
        }
    }
    free(from);
    if (!reordered && m == n && !merge) { /* as joined: emit the row itself */
        free(P->src);
        P->src = NULL;
    }
    return 0;
}

/* Does the joined row (through level L) satisfy L's USING and ON? 1/0/-1. */
static int level_match(join_pipe *P, join_level *L)
{
    rl_binding b = {&L->view, 0, P->S->outer, NULL};
    rl_expr_ctx c = make_ctx(P->S, &b, NULL);
    for (size_t k = 0; k < L->nu; k++) {
        const rl_value *a = &P->row[L->lu[k]], *bb = &P->row[L->at + (size_t)L->ru[k]];
        if (a->d.isnull || bb->d.isnull)
            return 0;
        int r;
        if (rl_value_cmp(&c, a, bb, &r, -1) < 0)
            return -1;
        if (r != 0)
            return 0;
    }
    return L->j->quals ? rl_expr_truth(&c, L->j->quals) : 1;
}

static int pipe_candidates(join_pipe *P, join_level *L, size_t i, rl_rowset *r);

static rl_rowset *lateral_item(sel *S, const PgQuery__Node *item);

/* LATERAL (subquery) or function at level L: its rows for the joined row
 * so far, whose columns it may name. */
static rl_rowset *lateral_rows(join_pipe *P, join_level *L)
{
    rl_rowset left = {.ncols = L->at, .cols = P->cols, .nrows = 1, .caprows = 1, .vals = P->row};
    rl_binding b = {&left, 0, P->S->outer, NULL};
    const rl_binding *was = P->S->outer;
    bool was_type_only = P->S->type_only;
    P->S->outer = &b;
    P->S->type_only = false;
    rl_rowset *r = lateral_item(P->S, L->lateral);
    P->S->outer = was;
    P->S->type_only = was_type_only;
    return r;
}

/* Extend the joined row (levels before i filled) through levels i..k-1. */
static int pipe_level(join_pipe *P, size_t i)
{
    if (i == P->k)
        return pipe_emit(P);
    if (i % 64 == 63 && rl_exec_check_stack(P->S->x) < 0) /* a level is a frame */
        return -1;
    join_level *L = &P->lv[i];
    rl_rowset *r = L->lateral ? lateral_rows(P, L) : L->r;
    if (!r)
        return -1;
    int rc = pipe_candidates(P, L, i, r);
    if (L->lateral)
        rl_rowset_free(r);
    return rc;
}

/* Level i's candidates from r (its right input, or this joined row's
 * LATERAL rows) joined to the row so far, through the levels after it. */
static int pipe_candidates(join_pipe *P, join_level *L, size_t i, rl_rowset *r)
{
    rl_value *slot = &P->row[L->at];
    bool matched = false;
    rl_value_key lk = L->hashed ? rl_value_key_of(&P->row[L->lc]) : (rl_value_key){0};
    if (L->hashed && !lk.ok)
        goto unmatched; /* NULL equals nothing */
    size_t ri = L->hashed ? L->bi.head[lk.h & (L->bi.nbuckets - 1)] : 1;
    for (; L->hashed ? ri != 0 : ri <= r->nrows; ri = L->hashed ? L->bi.next[ri - 1] : ri + 1) {
        const rl_value *cand = rl_rowset_row(r, ri - 1);
        if (L->hashed && L->bi.hash[ri - 1] != lk.h)
            continue;
        if (L->only_equi && !rl_value_key_equal(&P->row[L->lc], &cand[L->rc]))
            continue;
        memcpy(slot, cand, r->ncols * sizeof *slot);
        int m = L->only_equi ? 1 : level_match(P, L);
        if (m < 0 || (m && pipe_level(P, i + 1) < 0))
            return -1;
        matched |= m;
        if (m && L->right)
            L->rmatched[ri - 1] = true;
    }
unmatched:
    if (!L->left || matched)
        return 0;
    for (size_t c = 0; c < r->ncols; c++)
        null_value(&slot[c], r->cols[c].oid);
    return pipe_level(P, i + 1);
}

/* RIGHT / FULL JOIN at level i: each r row that no row matched, with NULLs
 * for every column before it, through the levels after i. */
static int pipe_unmatched_right(join_pipe *P, size_t i)
{
    join_level *L = &P->lv[i];
    for (size_t c = 0; c < L->at; c++)
        null_value(&P->row[c], P->cols[c].oid);
    for (size_t ri = 0; ri < L->r->nrows; ri++) {
        if (L->rmatched[ri])
            continue;
        if ((ri & 1023) == 0 && rl_exec_check_cancel(P->S->x) < 0)
            return -1;
        memcpy(&P->row[L->at], rl_rowset_row(L->r, ri), L->r->ncols * sizeof *P->row);
        if (pipe_level(P, i + 1) < 0)
            return -1;
    }
    return 0;
}

static bool joinable_column(const rl_colmeta *m)
{
    return m->attnum != RL_CTID_ATTNUM && !m->using_dup;
}

/* The columns a USING list names, or for a NATURAL join the names both
 * sides have (in the left side's order): *names (the caller frees it),
 * their number; SIZE_MAX when out of memory. */
static size_t using_names(const PgQuery__JoinExpr *j, const rl_rowset *l, const rl_rowset *r,
                          const char ***names)
{
    size_t cap = j->is_natural ? l->ncols : j->n_using_clause, n = 0;
    if (cap == 0)
        return 0;
    if (!(*names = calloc(cap, sizeof **names)))
        return SIZE_MAX;
    for (size_t k = 0; !j->is_natural && k < cap; k++)
        (*names)[n++] = rl_node_string(j->using_clause[k]);
    for (size_t c = 0; j->is_natural && c < l->ncols; c++) {
        if (!joinable_column(&l->cols[c]))
            continue;
        bool in_right = false, seen = false;
        for (size_t d = 0; d < r->ncols && !in_right; d++)
            in_right = joinable_column(&r->cols[d]) && strcmp(r->cols[d].name, l->cols[c].name) == 0;
        for (size_t k = 0; k < n && !seen; k++)
            seen = strcmp((*names)[k], l->cols[c].name) == 0;
        if (in_right && !seen)
            (*names)[n++] = l->cols[c].name;
    }
    return n;
}

/* What PostgreSQL finds wrong with a JOIN's ON while planning, so also when
 * no pair of rows is ever compared (a name that is not in the join's
 * scope, 42P01 / 42703; a condition that is not boolean, 42804): the
 * condition on an all-NULL row of the columns it sees. */
static int check_on(sel *S, const rl_rowset *view, const PgQuery__Node *on)
{
    rl_rowset *typ = rl_rowset_typing(view, S->x->err);
    if (!typ)
        return -1;
    rl_binding b = {typ, 0, S->outer, NULL};
    rl_expr_ctx c = make_ctx(S, &b, NULL);
    c.clause = "JOIN/ON";
    int rc = rl_expr_check_where(&c, on);
    rl_rowset_free(typ);
    return rc;
}

/* Column layouts, USING columns and buckets of every level. */
static int pipe_prepare(join_pipe *P)
{
    sel *S = P->S;
    size_t w = P->l0->ncols;
    for (size_t i = 0; i < P->k; i++)
        w += P->lv[i].r->ncols;
    P->width = w;
    P->cols = calloc(w + 1, sizeof *P->cols);
    P->row = calloc(w + 1, sizeof *P->row);
    if (!P->cols || !P->row)
        return fail_oom(S->x), -1;
    memcpy(P->cols, P->l0->cols, P->l0->ncols * sizeof *P->cols);
    size_t at = P->l0->ncols;
    bool reserve = false;
    for (size_t i = 0; i < P->k; i++) {
        join_level *L = &P->lv[i];
        L->at = at;
        P->copy_rows |= L->lateral != NULL;
        L->left = L->j->jointype == PG_QUERY__JOIN_TYPE__JOIN_LEFT ||
                  L->j->jointype == PG_QUERY__JOIN_TYPE__JOIN_FULL;
        L->right = L->j->jointype == PG_QUERY__JOIN_TYPE__JOIN_RIGHT ||
                   L->j->jointype == PG_QUERY__JOIN_TYPE__JOIN_FULL;
        if (L->right && !(L->rmatched = calloc(L->r->nrows + 1, sizeof *L->rmatched)))
            return fail_oom(S->x), -1;
        memcpy(&P->cols[at], L->r->cols, L->r->ncols * sizeof *P->cols);
        rl_rowset before = {.ncols = at, .cols = P->cols};
        L->view = (rl_rowset){.ncols = at + L->r->ncols, .cols = P->cols, .nrows = 1,
                              .caprows = 1, .vals = P->row};
        L->hashed = L->r->nrows > 8 && equi_pair(L->j->quals, &before, L->r, &L->lc, &L->rc) &&
                    bucket_build(&L->bi, L->r, L->rc);
        /* ON is that one equality: a candidate matches iff the two values
         * are equal, which needs no evaluation of ON (equi_pair chose
         * columns of one type family, where rl_value_key_equal is SQL's =) */
        L->only_equi = L->hashed && L->j->n_using_clause == 0 && !L->j->is_natural &&
                       L->j->quals->node_case == PG_QUERY__NODE__NODE_A_EXPR;
        /* an ON that is one equality of two columns equi_pair found is
         * sound; any other is checked now, as PostgreSQL plans it */
        if (L->j->quals && !L->only_equi && check_on(S, &L->view, L->j->quals) < 0)
            return -1;
        reserve |= L->hashed;
        at += L->r->ncols;
    }
    join_level *top = &P->lv[P->k - 1];
    rl_rowset before = {.ncols = top->at, .cols = P->cols};
    const char **names = NULL;
    size_t nu = using_names(top->j, &before, top->r, &names);
    if (nu == SIZE_MAX)
        return fail_oom(S->x), -1;
    if (!nu)
        free(names); /* a NATURAL join of sides with no column in common */
    if (nu) {
        P->nmap = w + (top->right ? nu : 0);
        P->map = calloc(P->nmap + 1, sizeof *P->map);
        top->lu = calloc(nu, sizeof *top->lu);
        top->ru = calloc(nu, sizeof *top->ru);
        int rc = !P->map || !top->lu || !top->ru ? (fail_oom(S->x), -1)
                 : join_layout(S, names, &before, top->r, P->map, top->lu, top->ru, nu, top->right);
        free(names);
        if (rc < 0)
            return -1;
        top->nu = nu;
    }
    if (pipe_output(P) < 0)
        return -1;
    /* joins of catalogs are mostly 1:1 */
    if (reserve && rl_rowset_reserve(P->out, P->l0->nrows) < 0)
        return fail_oom(S->x), -1;
    return 0;
}

static void pipe_free(join_pipe *P)
{
    for (size_t i = 0; i < P->k; i++) {
        if (P->lv[i].hashed)
            bucket_free(&P->lv[i].bi);
        free(P->lv[i].lu);
        free(P->lv[i].ru);
        free(P->lv[i].rmatched);
    }
    free(P->cols);
    free(P->row);
    free(P->map);
    free(P->alt);
    free(P->src);
    free(P->outrow);
}

/* Join l0 with the k levels' right inputs (all taken over and freed),
 * keeping the columns `keep` names (NULL: all); the joined rows, or NULL
 * with the error set. */
static rl_rowset *pipe_run(sel *S, rl_rowset *l0, join_level *lv, size_t k, const name_set *keep)
{
    join_pipe P = {.S = S, .l0 = l0, .lv = lv, .k = k, .keep = keep};
    int rc = pipe_prepare(&P);
    for (size_t li = 0; rc == 0 && li < l0->nrows; li++) {
        if ((rc = rl_exec_check_cancel(S->x)) < 0)
            break;
        memcpy(P.row, rl_rowset_row(l0, li), l0->ncols * sizeof *P.row);
        rc = pipe_level(&P, 0);
    }
    for (size_t i = 0; rc == 0 && i < k; i++)
        if (lv[i].right)
            rc = pipe_unmatched_right(&P, i);
    rl_rowset *out = P.out;
    if (rc < 0 || !out) {
        rl_rowset_free(out);
        out = NULL;
    } else { /* the output rows borrow the inputs' strings: keep them with out */
        rl_arena_adopt(&out->arena, &l0->arena);
        for (size_t i = 0; i < k; i++)
            rl_arena_adopt(&out->arena, &lv[i].r->arena);
    }
    pipe_free(&P);
    rl_rowset_free(l0);
    for (size_t i = 0; i < k; i++)
        rl_rowset_free(lv[i].r);
    return out;
}

static bool join_supported(sel *S, const PgQuery__JoinExpr *j)
{
    if (j->jointype != PG_QUERY__JOIN_TYPE__JOIN_INNER &&
        j->jointype != PG_QUERY__JOIN_TYPE__JOIN_LEFT &&
        j->jointype != PG_QUERY__JOIN_TYPE__JOIN_RIGHT &&
        j->jointype != PG_QUERY__JOIN_TYPE__JOIN_FULL)
        return rl_exec_error(S->x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                             "this join type is not supported"),
               false;
    if (j->alias || j->join_using_alias)
        return rl_exec_error(S->x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                             "join aliases are not supported"),
               false;
    return true;
}

/* The chain of joins under top: top itself, then down its left inputs while
 * they are joins without USING (those keep the side-by-side layout). */
static size_t chain_length(const PgQuery__JoinExpr *top)
{
    size_t k = 1;
    for (const PgQuery__Node *n = top->larg;
         n->node_case == PG_QUERY__NODE__NODE_JOIN_EXPR && n->join_expr->n_using_clause == 0 &&
         !n->join_expr->is_natural;
         n = n->join_expr->larg)
        k++;
    return k;
}

static int names_a_column(void *ctx, const ProtobufCMessage *m)
{
    (void)ctx;
    return m->descriptor == &pg_query__column_ref__descriptor ? -1 : 0;
}

/* The FROM item if it is LATERAL: a LATERAL subquery, or a function call
 * that says LATERAL or names a column (PostgreSQL takes a function in FROM
 * as LATERAL: unnest(t.a), regexp_split_to_table(v.x, ',')); else NULL. */
static const PgQuery__Node *lateral_subquery(const PgQuery__Node *item)
{
    if (item->node_case == PG_QUERY__NODE__NODE_RANGE_SUBSELECT)
        return item->range_subselect->lateral ? item : NULL;
    if (item->node_case != PG_QUERY__NODE__NODE_RANGE_FUNCTION)
        return NULL;
    const PgQuery__RangeFunction *rf = item->range_function;
    if (rf->lateral)
        return item;
    for (size_t i = 0; i < rf->n_functions; i++)
        if (rl_tree_walk(&rf->functions[i]->base, names_a_column, NULL) != 0)
            return item;
    return NULL;
}

static rl_rowset *from_function(sel *S, const PgQuery__RangeFunction *rf);

/* The rows of a LATERAL item, S->outer binding the row it is joined to. */
static rl_rowset *lateral_item(sel *S, const PgQuery__Node *item)
{
    return item->node_case == PG_QUERY__NODE__NODE_RANGE_SUBSELECT
               ? from_subselect(S, item->range_subselect)
               : from_function(S, item->range_function);
}

/* The columns of a LATERAL subquery joined to rows of layout `left`
 * (typed against an all-NULL row of it): its rows are made per joined row
 * (lateral_rows). Only INNER and LEFT joins may feed it, as in PostgreSQL. */
typedef struct left_ref {
    const rl_rowset *left;
    bool bare;       /* this pass looks at bare names (else qualified ones) */
    const char *rel; /* the relation of the first reference found */
    int location;
} left_ref;

/* rl_tree_walk: the first column reference (rel.col, or on the bare pass
 * a bare col) that names a column of ref->left. */
static int find_left_ref(void *ctx, const ProtobufCMessage *m)
{
    left_ref *ref = ctx;
    if (m->descriptor != &pg_query__column_ref__descriptor)
        return 0;
    const PgQuery__ColumnRef *cr = (const PgQuery__ColumnRef *)m;
    const char *first = cr->n_fields ? rl_node_string(cr->fields[0]) : NULL;
    for (size_t k = 0; first && k < ref->left->ncols; k++) {
        const rl_colmeta *col = &ref->left->cols[k];
        if ((!ref->bare && cr->n_fields >= 2 && strcmp(col->rel, first) == 0) ||
            (ref->bare && cr->n_fields == 1 && strcmp(col->name, first) == 0)) {
            ref->rel = col->rel;
            ref->location = cr->location;
            return -1;
        }
    }
    return 0;
}

static rl_rowset *lateral_shape(sel *S, const PgQuery__Node *sub, const rl_rowset *left,
                                PgQuery__JoinType type)
{
    if (type != PG_QUERY__JOIN_TYPE__JOIN_INNER && type != PG_QUERY__JOIN_TYPE__JOIN_LEFT) {
        /* PostgreSQL names the entry the item refers to, at the reference
         * (a qualified one first: a bare name may be the item's own) */
        left_ref ref = {left, false, NULL, -1};
        rl_tree_walk(&sub->base, find_left_ref, &ref);
        ref.bare = true;
        if (!ref.rel)
            rl_tree_walk(&sub->base, find_left_ref, &ref);
        if (ref.rel)
            rl_exec_error(S->x, RL_SQLSTATE_INVALID_COLUMN_REFERENCE, ref.location,
                          "invalid reference to FROM-clause entry for table \"%s\"", ref.rel);
        else
            rl_exec_error(S->x, RL_SQLSTATE_INVALID_COLUMN_REFERENCE, -1,
                          "invalid reference to FROM-clause entry");
        rl_error_detail(S->x->err, "The combining JOIN type must be INNER or LEFT for a LATERAL "
                                   "reference.");
        return NULL;
    }
    rl_rowset *typ = rl_rowset_typing(left, S->x->err);
    if (!typ)
        return NULL;
    rl_binding b = {typ, 0, S->outer, NULL};
    const rl_binding *was = S->outer;
    bool was_type_only = S->type_only;
    S->outer = &b;
    S->type_only = true;
    rl_rowset *r = lateral_item(S, sub);
    S->outer = was;
    S->type_only = was_type_only;
    rl_rowset_free(typ);
    if (r) /* columns only: a typing run of a VALUES list still makes its rows */
        r->nrows = 0;
    return r;
}

/* The joined rows' layout grows by rs's columns (false: out of memory). */
static bool layout_append(sel *S, rl_colmeta **layout, size_t *width, const rl_rowset *rs)
{
    rl_colmeta *grown = realloc(*layout, (*width + rs->ncols + 1) * sizeof *grown);
    if (!grown)
        return fail_oom(S->x), false;
    memcpy(&grown[*width], rs->cols, rs->ncols * sizeof *grown);
    *layout = grown;
    *width += rs->ncols;
    return true;
}

static rl_rowset *from_join(sel *S, const PgQuery__JoinExpr *top)
{
    const name_set *keep = S->out_need; /* for this, the root join, only */
    S->out_need = NULL;
    size_t k = chain_length(top);
    join_level *lv = calloc(k, sizeof *lv);
    rl_rowset **inputs = calloc(k + 1, sizeof *inputs);
    size_t *at = calloc(k + 1, sizeof *at);
    rl_colmeta *layout = NULL;
    if (!lv || !inputs || !at) {
        free(lv), free(inputs), free(at);
        return fail_oom(S->x);
    }
    const PgQuery__JoinExpr *j = top;
    for (size_t i = k; i-- > 0; j = i ? j->larg->join_expr : j)
        lv[i].j = j;
    rl_rowset *l0 = NULL;
    size_t width = 0;
    bool ok = true;
    bool any_right = false;
    for (size_t i = 0; ok && i < k; i++) {
        ok = join_supported(S, lv[i].j);
        any_right |= lv[i].j->jointype == PG_QUERY__JOIN_TYPE__JOIN_RIGHT ||
                     lv[i].j->jointype == PG_QUERY__JOIN_TYPE__JOIN_FULL;
    }
    /* under a RIGHT / FULL join every input may be NULL-extended: no WHERE
     * conjunct goes into a scan (and no join keys, below) */
    bool was_nullable = S->nullable;
    S->nullable = was_nullable || any_right;
    if (ok && (l0 = from_item(S, lv[0].j->larg, NULL)))
        inputs[0] = l0;
    ok = ok && l0 && layout_append(S, &layout, &width, l0);
    /* each right input in turn, probed by the inputs before it */
    for (size_t done = 0; ok && done < k; done++) {
        join_level *L = &lv[done];
        rl_rowset shape = {.ncols = width, .cols = layout};
        probe_src probe = {L->j->quals, &shape, inputs, at, done + 1};
        S->nullable = was_nullable || any_right || L->j->jointype == PG_QUERY__JOIN_TYPE__JOIN_LEFT;
        if (L->j->rarg->node_case == PG_QUERY__NODE__NODE_RANGE_VAR && L->j->quals && !any_right)
            S->probe = &probe;
        L->lateral = lateral_subquery(L->j->rarg);
        L->r = L->lateral ? lateral_shape(S, L->lateral, &shape, L->j->jointype)
                          : from_item(S, L->j->rarg, NULL);
        S->probe = NULL;
        S->nullable = was_nullable;
        if (!(ok = L->r != NULL))
            break;
        inputs[done + 1] = L->r;
        at[done + 1] = width;
        ok = layout_append(S, &layout, &width, L->r);
    }
    S->nullable = was_nullable;
    free(layout);
    free(inputs);
    free(at);
    rl_rowset *out = NULL;
    if (ok) {
        out = pipe_run(S, l0, lv, k, keep);
    } else { /* the levels not reached have no input yet (NULL) */
        rl_rowset_free(l0);
        for (size_t i = 0; i < k; i++)
            rl_rowset_free(lv[i].r);
    }
    free(lv);
    return out;
}

/* The one column of a function in FROM: named by the alias's column list,
 * else the alias, else the function. */
static rl_rowset *function_rowset(sel *S, const PgQuery__Alias *al, const char *fname,
                                  uint32_t type)
{
    rl_rowset *rs = rl_rowset_new(1);
    if (!rs)
        return fail_oom(S->x);
    const char *alias = al && al->aliasname ? al->aliasname : NULL;
    const char *col = alias && al->n_colnames ? rl_node_string(al->colnames[0]) : alias;
    snprintf(rs->cols[0].name, sizeof rs->cols[0].name, "%s", col ? col : fname);
    snprintf(rs->cols[0].rel, sizeof rs->cols[0].rel, "%s", alias ? alias : fname);
    rs->cols[0].oid = type;
    rs->cols[0].typmod = -1;
    rl_rowset_cols_changed(rs);
    return rs;
}

/* The one argument of a function of records in FROM (ts_token_type,
 * pg_options_to_table, pg_partition_tree), evaluated: 0, or -1 with the
 * error (42883 naming the call when `takes` refuses its type). */
static int record_srf_arg(rl_expr_ctx *c, const PgQuery__FuncCall *f, bool (*takes)(uint32_t),
                          rl_value *a)
{
    if (rl_expr_eval(c, f->args[0], a) < 0)
        return -1;
    if (!takes(a->oid))
        return rl_func_no_function(c, rl_node_string(f->funcname[f->n_funcname - 1]), 1, a,
                                   f->location);
    return 0;
}

/* ts_token_type's parser: by name (text or an untyped literal) or oid. */
static bool takes_parser(uint32_t oid)
{
    return oid == RL_OID_UNKNOWN || rl_oid_is_stringlike(oid) || rl_oid_is_intlike(oid);
}

static bool takes_options(uint32_t oid)
{
    return oid == RL_OID_TEXT_ARRAY || oid == RL_OID_UNKNOWN;
}

static bool takes_regclass(uint32_t oid)
{
    return oid == RL_OID_UNKNOWN || oid == RL_OID_REGCLASS || rl_oid_is_intlike(oid);
}

/* Adds a row to *rs; on failure (S's error set) frees it: false. */
static bool add_or_free(sel *S, rl_rowset **rs, const rl_value *row)
{
    if (rl_rowset_add(*rs, row, NULL, S->x->err) == 0)
        return true;
    rl_rowset_free(*rs);
    *rs = NULL;
    return false;
}

/* The row set of a function in FROM whose rows are records of n columns
 * (its OUT parameters `names`, of `types`), named by `al` if given. */
static rl_rowset *record_rowset(sel *S, const PgQuery__Alias *al, const char *fname, size_t n,
                                const char *const *names, const uint32_t *types)
{
    rl_rowset *rs = rl_rowset_new(n);
    if (!rs)
        return fail_oom(S->x);
    const char *alias = al && al->aliasname ? al->aliasname : NULL;
    for (size_t i = 0; i < n; i++) {
        const char *col = alias && i < al->n_colnames ? rl_node_string(al->colnames[i]) : names[i];
        snprintf(rs->cols[i].name, sizeof rs->cols[i].name, "%s", col);
        snprintf(rs->cols[i].rel, sizeof rs->cols[i].rel, "%s", alias ? alias : fname);
        rs->cols[i].oid = types[i];
        rs->cols[i].typmod = -1;
    }
    rl_rowset_cols_changed(rs);
    return rs;
}

/* FROM generate_subscripts(array, dim [, reverse]): the subscripts of
 * dimension dim, lowest first (reverse: highest first); a vector's start at
 * 0, an array's at 1; no rows for an empty array or another dimension. */
static rl_rowset *from_subscripts(sel *S, rl_expr_ctx *c, const PgQuery__FuncCall *f,
                                  const PgQuery__Alias *al)
{
    rl_value a[3];
    for (size_t i = 0; i < f->n_args; i++)
        if (rl_expr_eval(c, f->args[i], &a[i]) < 0)
            return NULL;
    if (!rl_elem_oid_of(a[0].oid) || !(rl_oid_is_intlike(a[1].oid) || a[1].oid == RL_OID_UNKNOWN) ||
        (f->n_args == 3 && a[2].oid != RL_OID_BOOL && a[2].oid != RL_OID_UNKNOWN)) {
        rl_func_no_function(c, "generate_subscripts", f->n_args, a, f->location);
        return NULL;
    }
    for (size_t i = 1; i < f->n_args; i++)
        if (a[i].oid == RL_OID_UNKNOWN &&
            rl_value_coerce(c, &a[i], i == 1 ? RL_OID_INT4 : RL_OID_BOOL, -1, false, &a[i],
                            f->location) < 0)
            return NULL;
    rl_rowset *rs = function_rowset(S, al, "generate_subscripts", RL_OID_INT4);
    if (!rs || S->type_only || a[0].d.isnull || a[1].d.isnull ||
        (f->n_args == 3 && a[2].d.isnull) || a[1].d.v.i != 1)
        return rs;
    bool vector = a[0].oid == RL_OID_INT2VECTOR || a[0].oid == RL_OID_OIDVECTOR;
    bool reverse = f->n_args == 3 && a[2].d.v.b;
    int64_t count = 0;
    rl_buf el;
    rl_buf_init(&el, 0);
    size_t pos = 0;
    bool isnull;
    while (rl_elem_next(&a[0], &pos, &el, &isnull))
        count++;
    rl_buf_free(&el);
    int64_t low = vector ? 0 : 1;
    for (int64_t k = 0; k < count; k++) {
        rl_value v;
        rl_val_int(&v, RL_OID_INT4, reverse ? low + count - 1 - k : low + k);
        if (rl_rowset_add(rs, &v, NULL, S->x->err) < 0) {
            rl_rowset_free(rs);
            return NULL;
        }
    }
    return rs;
}

/* A FROM function's rows of a table's row type `type` (one column of
 * records, rs) as PostgreSQL's FROM shows a composite result: a column per
 * field, named as the table's columns (or by the alias's column list: 42P10
 * for more names than the fields and the ordinality column), a NULL record
 * a row of NULLs. Frees rs; NULL on error. */
static rl_rowset *expand_rowtype_items(sel *S, rl_expr_ctx *c, rl_rowset *rs, uint32_t type,
                                       const PgQuery__Alias *al, bool ordinality)
{
    rl_relation rel;
    int r = rl_relation_of_rowtype(S->x, type, &rel);
    size_t n = r == 1 ? rl_relation_ncols(S->x, &rel) : 0;
    if (r == 1 && al && al->n_colnames > n + ordinality) {
        rl_rowset_free(rs);
        return rl_exec_error(S->x, RL_SQLSTATE_INVALID_COLUMN_REFERENCE, -1,
                             "table \"%s\" has %zu columns available but %zu columns specified",
                             al->aliasname, n + ordinality, al->n_colnames),
               NULL;
    }
    rl_rowset *out = r == 1 ? rl_rowset_new(n) : NULL;
    if (!out) {
        rl_rowset_free(rs);
        return r < 0 ? NULL : fail_oom(S->x);
    }
    for (size_t i = 0; i < n; i++) {
        rl_colmeta *m = &out->cols[i];
        const char *name;
        rl_relation_col(&rel, i, &name, &m->oid, &m->typmod);
        if (al && i < al->n_colnames && rl_node_string(al->colnames[i]))
            name = rl_node_string(al->colnames[i]);
        snprintf(m->name, sizeof m->name, "%s", name);
        snprintf(m->rel, sizeof m->rel, "%s", rs->cols[0].rel);
    }
    rl_rowset_cols_changed(out);
    rl_value *row = calloc(n + 1, sizeof *row);
    rl_buf text;
    rl_buf_init(&text, 0);
    int rc = row ? 0 : (fail_oom(S->x), -1);
    for (size_t k = 0; rc == 0 && k < rs->nrows; k++) {
        const rl_value *rec = rl_rowset_row(rs, k);
        rl_record_pos pos = {0, 0};
        for (size_t i = 0; rc == 0 && i < n; i++) {
            const char *fname;
            size_t flen;
            uint32_t oid = out->cols[i].oid;
            bool isnull = true;
            if (!rec->d.isnull)
                rl_record_next(rec, &pos, &fname, &flen, &oid, &text, &isnull);
            rl_val_null(&row[i], oid);
            if (!isnull)
                rc = rl_text_to_value(c, text.len ? (const char *)text.data : "", text.len, oid,
                                      -1, false, &row[i], -1);
            if (rc == 0 && rl_value_own(c->arena, &row[i]) < 0)
                rc = (fail_oom(S->x), -1);
        }
        if (rc == 0)
            rc = rl_rowset_add(out, row, NULL, S->x->err);
    }
    rl_buf_free(&text);
    free(row);
    rl_rowset_free(rs);
    if (rc < 0) {
        rl_rowset_free(out);
        return NULL;
    }
    return out;
}

/* FROM unnest(array): one row per element, in order (NULL elements too);
 * with records, information_schema._pg_expandarray(array) in a target
 * list: the record (x, n) of each element, n counting from 1 (a vector's
 * too). */
static rl_rowset *from_elements(sel *S, rl_expr_ctx *c, const PgQuery__FuncCall *f,
                                const PgQuery__Alias *al, bool records)
{
    const char *fname = records ? "information_schema._pg_expandarray" : "unnest";
    rl_value arr;
    if (rl_expr_eval(c, f->args[0], &arr) < 0)
        return NULL;
    uint32_t elem = rl_elem_oid_of(arr.oid);
    if (!elem) {
        if (records)
            rl_func_no_function(c, fname, 1, &arr, f->location);
        else
            rl_func_unnest_refusal(c, 1, &arr, f->location);
        return NULL;
    }
    rl_rowset *rs = records ? function_rowset(S, NULL, "_pg_expandarray", RL_OID_RECORD)
                            : function_rowset(S, al, "unnest", elem);
    if (!rs || arr.d.isnull || S->type_only)
        return rs;
    rl_buf el;
    rl_buf_init(&el, 0);
    size_t pos = 0;
    bool isnull;
    int rc = 0;
    for (int32_t n = 1; rc == 0 && rl_elem_next(&arr, &pos, &el, &isnull); n++) {
        rl_value v;
        if (isnull)
            rl_val_null(&v, elem);
        else
            rc = rl_text_to_value(c, el.len ? (const char *)el.data : "", el.len, elem, -1, false,
                                  &v, f->location);
        if (rc == 0 && records)
            rc = rl_expr_expandarray_row(c, &v, n, &v);
        if (rc == 0)
            rc = rl_rowset_add(rs, &v, NULL, S->x->err);
    }
    rl_buf_free(&el);
    if (rc < 0) {
        rl_rowset_free(rs);
        return NULL;
    }
    return rs;
}

/* FROM json_each(j) and the other json set-returning functions: their
 * columns (key, value or one), named by the alias's column list. */
static rl_rowset *from_json(sel *S, rl_expr_ctx *c, const PgQuery__FuncCall *f,
                            const PgQuery__Alias *al)
{
    const char *fname = rl_node_string(f->funcname[f->n_funcname - 1]);
    rl_value j;
    if (rl_expr_eval(c, f->args[0], &j) < 0 || rl_json_srf_arg(c, fname, &j, f->location) < 0)
        return NULL;
    const char *names[2];
    uint32_t types[2];
    size_t k = rl_json_srf_shape(fname, names, types);
    rl_rowset *rs = rl_rowset_new(k);
    if (!rs)
        return fail_oom(S->x);
    const char *alias = al && al->aliasname ? al->aliasname : NULL;
    for (size_t i = 0; i < k; i++) {
        const char *col = alias && i < al->n_colnames ? rl_node_string(al->colnames[i])
                          : alias && k == 1 && strcmp(names[0], fname) == 0 ? alias
                                                                 : names[i];
        snprintf(rs->cols[i].name, sizeof rs->cols[i].name, "%s", col);
        snprintf(rs->cols[i].rel, sizeof rs->cols[i].rel, "%s", alias ? alias : fname);
        rs->cols[i].oid = types[i];
        rs->cols[i].typmod = -1;
    }
    rl_rowset_cols_changed(rs);
    if (S->type_only || rl_json_srf_rows(c, fname, &j, rs) == 0)
        return rs;
    rl_rowset_free(rs);
    return NULL;
}

/* generate_series(start, stop, step) over timestamps (t) or timestamptz:
 * start, then the value before plus the step while within stop. Strict:
 * no rows when an argument is NULL. */
static rl_rowset *datetime_series(sel *S, rl_expr_ctx *c, const PgQuery__Alias *al, rl_value *a,
                                  uint32_t t, int loc)
{
    int dir;
    if (rl_series_datetime_prepare(c, a, t, &dir, loc) < 0)
        return NULL;
    rl_rowset *rs = function_rowset(S, al, "generate_series", t);
    if (!rs || S->type_only || a[0].d.isnull || a[1].d.isnull || a[2].d.isnull)
        return rs;
    rl_value cur = a[0];
    for (size_t n = 0; rl_series_datetime_within(&cur, &a[1], dir); n++) {
        if (rl_rowset_add(rs, &cur, NULL, S->x->err) < 0 ||
            ((n & 4095) == 0 && rl_exec_check_cancel(S->x) < 0) ||
            rl_series_datetime_next(c, &cur, &a[2], loc) < 0) {
            rl_rowset_free(rs);
            return NULL;
        }
    }
    return rs;
}

/* generate_series(start, stop [, step]) of numerics: start (its own
 * scale), then the value before plus the step while within stop. */
static rl_rowset *numeric_series(sel *S, rl_expr_ctx *c, const PgQuery__Alias *al, rl_value *a,
                                 size_t n, int loc)
{
    int dir;
    if (rl_numeric_series_prepare(c, a, n, &dir, loc) < 0)
        return NULL;
    rl_rowset *rs = function_rowset(S, al, "generate_series", RL_OID_NUMERIC);
    if (!rs || S->type_only || a[0].d.isnull || a[1].d.isnull || a[2].d.isnull)
        return rs;
    rl_value cur = a[0];
    for (size_t i = 0;; i++) {
        int cmp;
        if (rl_value_cmp(c, &cur, &a[1], &cmp, loc) < 0)
            goto fail;
        if (dir > 0 ? cmp > 0 : cmp < 0)
            return rs;
        rl_value next;
        if (rl_rowset_add(rs, &cur, NULL, S->x->err) < 0 ||
            ((i & 4095) == 0 && rl_exec_check_cancel(S->x) < 0) ||
            rl_numeric_arith(c, '+', &cur, &a[2], &next, loc) < 0)
            goto fail;
        cur = next;
    }
fail:
    rl_rowset_free(rs);
    return NULL;
}

/* FROM unnest(a1, a2, ...) [AS t (c1, c2, ...)]: one column per array, as
 * many rows as the longest has elements, the shorter ones' columns NULL
 * past their end (a NULL array has none); columns named by the alias's
 * list, else "unnest". An argument that is not an array: 42883. */
static rl_rowset *from_unnest_many(sel *S, rl_expr_ctx *c, const PgQuery__FuncCall *f,
                                   const PgQuery__Alias *al)
{
    size_t n = f->n_args;
    rl_value *a = rl_arena_alloc(c->arena, n * sizeof *a);
    rl_value **elems = rl_arena_alloc(c->arena, n * sizeof *elems);
    size_t *counts = rl_arena_alloc(c->arena, n * sizeof *counts);
    if (!a || !elems || !counts)
        return fail_oom(S->x);
    for (size_t i = 0; i < n; i++)
        if (rl_expr_eval(c, f->args[i], &a[i]) < 0)
            return NULL;
    for (size_t i = 0; i < n; i++)
        if (!rl_elem_oid_of(a[i].oid)) {
            rl_func_unnest_refusal(c, n, a, f->location);
            return NULL;
        }
    rl_rowset *rs = rl_rowset_new(n);
    if (!rs)
        return fail_oom(S->x);
    const char *alias = al && al->aliasname ? al->aliasname : NULL;
    for (size_t i = 0; i < n; i++) {
        const char *col = alias && i < al->n_colnames ? rl_node_string(al->colnames[i]) : "unnest";
        snprintf(rs->cols[i].name, sizeof rs->cols[i].name, "%s", col);
        snprintf(rs->cols[i].rel, sizeof rs->cols[i].rel, "%s", alias ? alias : "unnest");
        rs->cols[i].oid = rl_elem_oid_of(a[i].oid);
        rs->cols[i].typmod = -1;
    }
    rl_rowset_cols_changed(rs);
    if (S->type_only)
        return rs;
    size_t rows = 0;
    for (size_t i = 0; i < n; i++) {
        counts[i] = 0;
        if (!a[i].d.isnull && rl_array_decode(c, &a[i], &elems[i], &counts[i], f->location) < 0) {
            rl_rowset_free(rs);
            return NULL;
        }
        rows = counts[i] > rows ? counts[i] : rows;
    }
    rl_value *row = rl_arena_alloc(c->arena, n * sizeof *row);
    if (!row) {
        rl_rowset_free(rs);
        return fail_oom(S->x);
    }
    for (size_t r = 0; r < rows; r++) {
        for (size_t i = 0; i < n; i++) {
            if (r < counts[i])
                row[i] = elems[i][r];
            else
                rl_val_null(&row[i], rs->cols[i].oid);
        }
        if (!add_or_free(S, &rs, row))
            return NULL;
    }
    return rs;
}

/* FROM ts_token_type(parser): the parser's token types (tokid, alias,
 * description), as PostgreSQL 15 lists them (captured, sql_pgcatalog.c);
 * the parser by oid, or by name (text or an untyped literal, as
 * PostgreSQL's ts_token_type(text) takes it). */
static rl_rowset *from_token_types(sel *S, rl_expr_ctx *c, const PgQuery__FuncCall *f,
                                   const PgQuery__Alias *al)
{
    rl_value a;
    if (record_srf_arg(c, f, takes_parser, &a) < 0)
        return NULL;
    bool by_name = a.oid == RL_OID_UNKNOWN || rl_oid_is_stringlike(a.oid);
    static const char *const names[] = {"tokid", "alias", "description"};
    static const uint32_t types[] = {RL_OID_INT4, RL_OID_TEXT, RL_OID_TEXT};
    rl_rowset *rs = record_rowset(S, al, "ts_token_type", 3, names, types);
    if (!rs)
        return NULL;
    if (S->type_only || a.d.isnull) /* strict: no rows */
        return rs;
    uint32_t parser;
    if (by_name) {
        char name[128];
        snprintf(name, sizeof name, "%.*s", (int)a.d.v.s.len, (const char *)a.d.v.s.p);
        const char *bare = strncmp(name, "pg_catalog.", 11) == 0 ? name + 11 : name;
        parser = rl_pgcatalog_ts_parser_oid(bare);
        if (!parser) {
            rl_rowset_free(rs);
            return rl_exec_error(S->x, RL_SQLSTATE_UNDEFINED_OBJECT, -1,
                                 "text search parser \"%s\" does not exist", name),
                   NULL;
        }
    } else {
        parser = (uint32_t)a.d.v.i;
        if (a.d.v.i < 0 || a.d.v.i > UINT32_MAX || !rl_pgcatalog_ts_parser_exists(parser)) {
            rl_rowset_free(rs); /* PostgreSQL's syscache miss */
            return rl_exec_error(S->x, RL_SQLSTATE_INTERNAL_ERROR, -1,
                                 "cache lookup failed for text search parser %u", parser),
                   NULL;
        }
    }
    int32_t tokid;
    const char *talias, *desc;
    for (size_t i = 0; rl_pgcatalog_token_type(parser, i, &tokid, &talias, &desc); i++) {
        rl_value row[3];
        rl_val_int(&row[0], RL_OID_INT4, tokid);
        rl_val_str(&row[1], RL_OID_TEXT, talias, strlen(talias));
        rl_val_str(&row[2], RL_OID_TEXT, desc, strlen(desc));
        if (!add_or_free(S, &rs, row))
            return NULL;
    }
    return rs;
}

/* FROM pg_options_to_table(options): each "name=value" element of a text[]
 * of options (a catalog's srvoptions, ftoptions, ...) as (option_name,
 * option_value), split at the first '=' (none: a NULL value); psql's
 * \des+, \det+, \deu+ and \dew+ call it. */
static rl_rowset *from_options(sel *S, rl_expr_ctx *c, const PgQuery__FuncCall *f,
                               const PgQuery__Alias *al)
{
    rl_value a;
    if (record_srf_arg(c, f, takes_options, &a) < 0)
        return NULL;
    if (a.oid == RL_OID_UNKNOWN && !a.d.isnull &&
        rl_value_coerce(c, &a, RL_OID_TEXT_ARRAY, -1, false, &a, f->location) < 0)
        return NULL;
    static const char *const names[] = {"option_name", "option_value"};
    static const uint32_t types[] = {RL_OID_TEXT, RL_OID_TEXT};
    rl_rowset *rs = record_rowset(S, al, "pg_options_to_table", 2, names, types);
    if (!rs)
        return NULL;
    if (S->type_only || a.d.isnull) /* strict: no rows */
        return rs;
    rl_value *elems = NULL;
    size_t n = 0;
    if (rl_array_elements(c, &a, -1, false, NULL, 0, &elems, &n, f->location) < 0) {
        rl_rowset_free(rs);
        return NULL;
    }
    for (size_t i = 0; i < n; i++) {
        if (elems[i].d.isnull) /* (no catalog holds one) */
            continue;
        const char *s = (const char *)elems[i].d.v.s.p;
        size_t len = elems[i].d.v.s.len;
        const char *eq = memchr(s, '=', len);
        rl_value row[2];
        rl_val_str(&row[0], RL_OID_TEXT, s, eq ? (size_t)(eq - s) : len);
        if (eq)
            rl_val_str(&row[1], RL_OID_TEXT, eq + 1, len - (size_t)(eq - s) - 1);
        else
            rl_val_null(&row[1], RL_OID_TEXT);
        if (!add_or_free(S, &rs, row))
            return NULL;
    }
    return rs;
}

/* FROM pg_partition_tree(regclass): a partitioned table's or index's
 * tree; no rows for any other relation (nor an oid that is none), and the
 * lake has no partitioned relations (psql's \dP+ asks it). The argument
 * is still a regclass (42P01 for an unknown name). */
static rl_rowset *from_partition_tree(sel *S, rl_expr_ctx *c, const PgQuery__FuncCall *f,
                                      const PgQuery__Alias *al)
{
    rl_value a;
    if (record_srf_arg(c, f, takes_regclass, &a) < 0)
        return NULL;
    int at = rl_node_location(f->args[0]); /* an unknown name's 42P01 points at it */
    if (!S->type_only && !a.d.isnull &&
        rl_value_coerce(c, &a, RL_OID_REGCLASS, -1, false, &a, at) < 0)
        return NULL;
    static const char *const names[] = {"relid", "parentrelid", "isleaf", "level"};
    static const uint32_t types[] = {RL_OID_REGCLASS, RL_OID_REGCLASS, RL_OID_BOOL, RL_OID_INT4};
    return record_rowset(S, al, "pg_partition_tree", 4, names, types);
}

/* FROM regexp_matches / regexp_split_to_table / string_to_table: the
 * values of the set-returning function (sql_func.c), one column. */
static rl_rowset *from_setfn(sel *S, rl_expr_ctx *c, const PgQuery__FuncCall *f,
                             const PgQuery__Alias *al)
{
    const char *fname = rl_node_string(f->funcname[f->n_funcname - 1]);
    rl_value a[3];
    int locs[3];
    size_t n;
    rl_value *vals = NULL;
    size_t count = 0;
    if (rl_expr_setfn_args(c, f, a, locs, &n) < 0 ||
        rl_func_setfn_rows(c, fname, n, a, S->type_only, &vals, &count, f->location, locs) < 0)
        return NULL;
    /* pg_partition_ancestors' column is its OUT parameter, relid */
    bool out_named = strcmp(fname, "pg_partition_ancestors") == 0;
    rl_rowset *rs = function_rowset(S, al, fname, rl_func_setfn_type(fname, a));
    if (rs && out_named && !(al && al->n_colnames))
        snprintf(rs->cols[0].name, sizeof rs->cols[0].name, "%s", "relid");
    for (size_t i = 0; rs && i < count; i++)
        if (rl_rowset_add(rs, &vals[i], NULL, S->x->err) < 0) {
            rl_rowset_free(rs);
            return NULL;
        }
    return rs;
}

/* The rows of a set-returning call, generate_series(start, stop [, step])
 * (integers, int4 unless an argument is int8) or unnest(array), as a
 * one-column row set named after `al` (or the function); only typed when
 * the statement is (S->type_only). Its rows are charged to the statement's
 * result budget like any row set's. */
static rl_rowset *srf_rows(sel *S, rl_expr_ctx *c, const PgQuery__FuncCall *f,
                           const PgQuery__Alias *al)
{
    if (rl_expr_is_expandarray(f))
        return from_elements(S, c, f, al, true);
    if (rl_json_is_srf(rl_node_string(f->funcname[f->n_funcname - 1])))
        return from_json(S, c, f, al);
    if (rl_func_is_setfn(rl_node_string(f->funcname[f->n_funcname - 1]), f->n_args))
        return from_setfn(S, c, f, al);
    if (strcmp(rl_node_string(f->funcname[f->n_funcname - 1]), "ts_token_type") == 0)
        return from_token_types(S, c, f, al);
    if (strcmp(rl_node_string(f->funcname[f->n_funcname - 1]), "pg_options_to_table") == 0)
        return from_options(S, c, f, al);
    if (strcmp(rl_node_string(f->funcname[f->n_funcname - 1]), "pg_partition_tree") == 0)
        return from_partition_tree(S, c, f, al);
    if (f->n_args == 1)
        return from_elements(S, c, f, al, false);
    if (strcmp(rl_node_string(f->funcname[f->n_funcname - 1]), "generate_subscripts") == 0)
        return from_subscripts(S, c, f, al);
    rl_value a[3];
    uint32_t t = RL_OID_INT4;
    for (size_t i = 0; i < f->n_args; i++)
        if (rl_expr_eval(c, f->args[i], &a[i]) < 0)
            return NULL;
    if (rl_func_series_type(c, f->n_args, a, &t, f->location) < 0)
        return NULL;
    if (t == RL_OID_TIMESTAMP || t == RL_OID_TIMESTAMPTZ)
        return datetime_series(S, c, al, a, t, f->location);
    if (t == RL_OID_NUMERIC)
        return numeric_series(S, c, al, a, f->n_args, f->location);
    for (size_t i = 0; i < f->n_args; i++) {
        if (a[i].oid == RL_OID_UNKNOWN &&
            rl_value_coerce(c, &a[i], RL_OID_INT4, -1, false, &a[i],
                            rl_node_location(f->args[i])) < 0)
            return NULL;
        assert(rl_oid_is_intlike(a[i].oid) && !rl_oid_is_reg(a[i].oid) &&
               a[i].oid != RL_OID_OID); /* rl_func_series_type */
        if (a[i].oid == RL_OID_INT8)
            t = RL_OID_INT8;
    }
    rl_rowset *rs = function_rowset(S, al, "generate_series", t);
    if (!rs)
        return NULL;
    bool any_null = a[0].d.isnull || a[1].d.isnull || (f->n_args == 3 && a[2].d.isnull);
    if (any_null || S->type_only) /* strict: no rows */
        return rs;
    int64_t from = a[0].d.v.i, to = a[1].d.v.i, step = f->n_args == 3 ? a[2].d.v.i : 1;
    if (step == 0) {
        rl_rowset_free(rs);
        return rl_exec_error(S->x, RL_SQLSTATE_INVALID_PARAMETER_VALUE, -1,
                             "step size cannot equal zero"),
               NULL;
    }
    rl_value v;
    for (int64_t i = from, n = 0; step > 0 ? i <= to : i >= to; n++) {
        rl_val_int(&v, t, i);
        if (rl_rowset_add(rs, &v, NULL, S->x->err) < 0 ||
            ((n & 4095) == 0 && rl_exec_check_cancel(S->x) < 0)) {
            rl_rowset_free(rs);
            return NULL;
        }
        if (__builtin_add_overflow(i, step, &i))
            break; /* the next value is past the type's range: done */
    }
    return rs;
}

/* WITH ORDINALITY: rs (consumed) with one more column, bigint, numbering
 * its rows from 1, named by the alias's next column name or "ordinality". */
static rl_rowset *with_ordinality(sel *S, rl_rowset *rs, const PgQuery__Alias *al)
{
    size_t n = rs->ncols;
    rl_rowset *out = rl_rowset_new(n + 1);
    rl_value *row = calloc(n + 1, sizeof *row);
    if (!out || !row) {
        rl_rowset_free(out);
        rl_rowset_free(rs);
        free(row);
        return fail_oom(S->x);
    }
    memcpy(out->cols, rs->cols, n * sizeof *rs->cols);
    rl_colmeta *ord = &out->cols[n];
    const char *name = al && (size_t)al->n_colnames > n ? rl_node_string(al->colnames[n]) : NULL;
    snprintf(ord->name, sizeof ord->name, "%s", name ? name : "ordinality");
    snprintf(ord->rel, sizeof ord->rel, "%s", rs->cols[0].rel);
    ord->oid = RL_OID_INT8;
    ord->typmod = -1;
    rl_rowset_cols_changed(out);
    for (size_t i = 0; i < rs->nrows; i++) {
        memcpy(row, rl_rowset_row(rs, i), n * sizeof *row);
        rl_val_int(&row[n], RL_OID_INT8, (int64_t)i + 1);
        if (rl_rowset_add(out, row, NULL, S->x->err) < 0) {
            rl_rowset_free(out);
            out = NULL;
            break;
        }
    }
    free(row);
    rl_rowset_free(rs);
    return out;
}

/* FROM f(...) of a function that returns one value (lower('X'), now(),
 * extract(epoch FROM ts)): one row of one column, named by the alias's
 * column list, else by the alias, else by the function, as PostgreSQL
 * names it. */
static rl_rowset *from_scalar_function(sel *S, const PgQuery__Node *call,
                                       const PgQuery__RangeFunction *rf)
{
    const PgQuery__FuncCall *f = call->func_call;
    const PgQuery__Alias *al = rf->alias;
    if (rl_expr_is_aggregate(call))
        return rl_exec_error(S->x, RL_SQLSTATE_GROUPING_ERROR, f->location,
                             "aggregate functions are not allowed in functions in FROM"),
               NULL;
    rl_expr_ctx c = make_ctx(S, S->outer, NULL);
    c.typing = S->type_only; /* a typing run: the type, without running it */
    rl_value v;
    if (rl_expr_eval(&c, call, &v) < 0)
        return NULL;
    const char *fname = rl_node_string(f->funcname[f->n_funcname - 1]);
    const char *name = al && al->n_colnames ? rl_node_string(al->colnames[0])
                       : al                 ? al->aliasname
                                            : fname;
    if (v.oid == RL_OID_RECORD) /* json_populate_record(ROW(...), j): its fields unknown */
        return rl_exec_error(S->x, RL_SQLSTATE_SYNTAX_ERROR, f->location,
                             "a column definition list is required for functions returning "
                             "\"record\""),
               NULL;
    if (al && al->n_colnames > 1 && !rl_oid_is_rowtype(v.oid)) /* a row: a column per field */
        return rl_exec_error(S->x, RL_SQLSTATE_INVALID_COLUMN_REFERENCE, -1,
                             "table \"%s\" has 1 columns available but %zu columns specified",
                             al->aliasname, al->n_colnames),
               NULL;
    rl_rowset *rs = rl_rowset_new(1);
    if (!rs)
        return fail_oom(S->x);
    rl_colmeta *m = &rs->cols[0];
    rl_str_copy(m->name, sizeof m->name, name ? name : "?column?");
    rl_str_copy(m->rel, sizeof m->rel, al ? al->aliasname : fname);
    m->oid = v.oid == RL_OID_UNKNOWN ? RL_OID_TEXT : v.oid;
    m->typmod = v.typmod;
    v.oid = m->oid;
    if (!S->type_only && rl_rowset_add(rs, &v, NULL, S->x->err) < 0) {
        rl_rowset_free(rs);
        return NULL;
    }
    return rs;
}

/* The empty row set of a FROM function's column definition list: its
 * columns named and typed, of the alias (else the function fname). */
static rl_rowset *coldef_rowset(sel *S, const PgQuery__RangeFunction *rf, const char *fname)
{
    rl_rowset *rs = rl_rowset_new(rf->n_coldeflist);
    if (!rs)
        return fail_oom(S->x);
    const char *alias = rf->alias && rf->alias->aliasname ? rf->alias->aliasname : fname;
    for (size_t i = 0; i < rf->n_coldeflist; i++) {
        const PgQuery__Node *nd = rf->coldeflist[i];
        const PgQuery__ColumnDef *cd =
            nd->node_case == PG_QUERY__NODE__NODE_COLUMN_DEF ? nd->column_def : NULL;
        if (!cd || !cd->type_name ||
            rl_type_from_typename(S->x, cd->type_name, &rs->cols[i].oid, &rs->cols[i].typmod) < 0) {
            rl_rowset_free(rs);
            return NULL;
        }
        snprintf(rs->cols[i].name, sizeof rs->cols[i].name, "%s", cd->colname);
        snprintf(rs->cols[i].rel, sizeof rs->cols[i].rel, "%s", alias);
    }
    rl_rowset_cols_changed(rs);
    return rs;
}

/* FROM json_to_record(j) AS x(a int, b text) and the other record
 * functions: the columns the definition list names and types. */
static rl_rowset *from_json_record(sel *S, const PgQuery__RangeFunction *rf,
                                   const PgQuery__FuncCall *f)
{
    const char *fname = rl_node_string(f->funcname[f->n_funcname - 1]);
    if (rf->n_coldeflist == 0)
        return rl_exec_error(S->x, RL_SQLSTATE_SYNTAX_ERROR, f->location,
                             "a column definition list is required for functions returning "
                             "\"record\""),
               NULL;
    if (rf->ordinality)
        return rl_exec_error(S->x, RL_SQLSTATE_SYNTAX_ERROR, rf->coldeflist[0]->column_def ?
                                 rf->coldeflist[0]->column_def->location : -1,
                             "WITH ORDINALITY cannot be used with a column definition list"),
               NULL;
    rl_expr_ctx c = make_ctx(S, S->outer, NULL);
    rl_value j;
    if (rl_expr_eval(&c, f->args[0], &j) < 0 ||
        rl_json_record_arg(&c, fname, &j,
                           j.oid == RL_OID_UNKNOWN ? rl_node_location(f->args[0]) : f->location) < 0)
        return NULL;
    rl_rowset *rs = coldef_rowset(S, rf, fname);
    /* the rows' errors are the executor's: no position */
    if (rs && !S->type_only && rl_json_record_rows(&c, fname, &j, rs, -1) < 0) {
        rl_rowset_free(rs);
        return NULL;
    }
    return rs;
}

/* FROM generate_series(...) / unnest(array) [AS a [(col)]]: the arguments
 * may name the outer query's columns (psql's \d sends one inside a
 * correlated subquery). */
static rl_rowset *from_function_item(sel *S, const PgQuery__RangeFunction *rf);

/* json(b)_populate_record(set)? */
static bool is_populate_call(const PgQuery__FuncCall *f)
{
    const char *name = rl_node_string(f->funcname[f->n_funcname - 1]);
    return name && strncmp(name, "json", 4) == 0 && strstr(name, "_populate_record") != NULL;
}

/* FROM json_populate_record(base, j) AS x(a int, ...) and the recordset
 * twins: an anonymous record's base (NULL::record, ROW(...)) takes the
 * list (sql_json.c); a table's row type already names and types the
 * columns, and another type is no record (42601 at the list, as
 * PostgreSQL's parse analysis). */
static rl_rowset *populate_coldeflist(sel *S, const PgQuery__RangeFunction *rf,
                                      const PgQuery__FuncCall *f)
{
    const char *fname = rl_node_string(f->funcname[f->n_funcname - 1]);
    rl_expr_ctx c = make_ctx(S, S->outer, NULL);
    rl_value a[3];
    int locs[3];
    size_t n;
    if (f->n_args > 3)
        return rl_func_no_function(&c, fname, 0, a, f->location), NULL;
    rl_expr_ctx tc = c;
    tc.typing = true; /* the base's type first, as parse analysis has it */
    if (rl_expr_setfn_args(&tc, f, a, locs, &n) < 0)
        return NULL;
    const PgQuery__Node *nd = rf->coldeflist[0];
    int loc = nd->node_case == PG_QUERY__NODE__NODE_COLUMN_DEF ? nd->column_def->location : -1;
    if (rl_func_populate_args(&tc, fname, n, a, f->location, locs) < 0)
        return NULL;
    if (rl_oid_is_rowtype(a[0].oid))
        return rl_exec_error(S->x, RL_SQLSTATE_SYNTAX_ERROR, loc,
                             "a column definition list is redundant for a function returning a "
                             "named composite type"),
               NULL;
    if (a[0].oid != RL_OID_RECORD)
        return rl_exec_error(S->x, RL_SQLSTATE_SYNTAX_ERROR, loc,
                             "a column definition list is only allowed for functions returning "
                             "\"record\""),
               NULL;
    if (rf->ordinality) {
        rl_exec_error(S->x, RL_SQLSTATE_SYNTAX_ERROR, loc,
                      "WITH ORDINALITY cannot be used with a column definition list");
        rl_error_hint(S->x->err, "Put the column definition list inside ROWS FROM().");
        return NULL;
    }
    rl_rowset *rs = coldef_rowset(S, rf, fname);
    if (!rs || S->type_only)
        return rs;
    if (rl_expr_setfn_args(&c, f, a, locs, &n) < 0 ||
        rl_func_populate_args(&c, fname, n, a, f->location, locs) < 0 ||
        rl_json_populate_rows(&c, fname, &a[0], &a[1], rs) < 0) {
        rl_rowset_free(rs);
        return NULL;
    }
    return rs;
}

/* A function in FROM; its 42883 / 42725 name it as written (pg_catalog.f). */
static rl_rowset *from_function(sel *S, const PgQuery__RangeFunction *rf)
{
    const PgQuery__Node *first = rf->n_functions == 1 &&
                                         rf->functions[0]->node_case == PG_QUERY__NODE__NODE_LIST &&
                                         rf->functions[0]->list->n_items >= 1
                                     ? rf->functions[0]->list->items[0]
                                     : NULL;
    bool was = S->x->call_qualified;
    S->x->call_qualified = first && first->node_case == PG_QUERY__NODE__NODE_FUNC_CALL &&
                           first->func_call->n_funcname > 1;
    rl_rowset *rs = from_function_item(S, rf);
    S->x->call_qualified = was;
    return rs;
}

static rl_rowset *from_function_item(sel *S, const PgQuery__RangeFunction *rf)
{
    const PgQuery__FuncCall *f = NULL;
    if (rf->n_functions == 1 && rf->functions[0]->node_case == PG_QUERY__NODE__NODE_LIST &&
        rf->functions[0]->list->n_items >= 1 &&
        rf->functions[0]->list->items[0]->node_case == PG_QUERY__NODE__NODE_FUNC_CALL)
        f = rf->functions[0]->list->items[0]->func_call;
    const char *schema = f && f->n_funcname > 1 ? rl_node_string(f->funcname[f->n_funcname - 2])
                                                 : "pg_catalog";
    bool unnest_many = f && f->n_funcname == 1 && f->n_args > 1 && !f->agg_star &&
                       strcmp(rl_node_string(f->funcname[0]), "unnest") == 0;
    if (f && f->n_args == 1 && !rf->is_rowsfrom && schema && strcmp(schema, "pg_catalog") == 0 &&
        rl_json_is_record_fn(rl_node_string(f->funcname[f->n_funcname - 1])))
        return from_json_record(S, rf, f);
    if (f && !rl_expr_is_srf(f) && !unnest_many && schema && strcmp(schema, "pg_catalog") == 0 &&
        !rf->is_rowsfrom && !rf->n_coldeflist) {
        rl_rowset *rs = from_scalar_function(S, rf->functions[0]->list->items[0], rf);
        rl_expr_ctx c = make_ctx(S, S->outer, NULL);
        if (rs && rs->ncols == 1 && rl_oid_is_rowtype(rs->cols[0].oid)) /* json_populate_record */
            rs = expand_rowtype_items(S, &c, rs, rs->cols[0].oid, rf->alias, rf->ordinality);
        return rs && rf->ordinality ? with_ordinality(S, rs, rf->alias) : rs;
    }
    if (f && rf->n_coldeflist && !rf->is_rowsfrom && schema && strcmp(schema, "pg_catalog") == 0 &&
        is_populate_call(f))
        return populate_coldeflist(S, rf, f);
    if (!f || !(rl_expr_is_srf(f) || unnest_many) || !schema || strcmp(schema, "pg_catalog") != 0 ||
        rf->is_rowsfrom || rf->n_coldeflist)
        return rl_exec_error(S->x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, f ? f->location : -1,
                             "only generate_series, generate_subscripts, unnest, string_to_table, "
                             "regexp_matches, regexp_split_to_table, ts_token_type and the json "
                             "set-returning functions are supported as functions in FROM, without "
                             "ROWS FROM or a "
                             "column definition list"),
               NULL;
    rl_expr_ctx c = make_ctx(S, S->outer, NULL);
    c.typing = S->type_only; /* a LATERAL item typed on a row of made-up NULLs */
    rl_rowset *rs = unnest_many ? from_unnest_many(S, &c, f, rf->alias) : srf_rows(S, &c, f, rf->alias);
    if (rs && rs->ncols == 1 && rs->cols[0].oid == RL_OID_RECORD && is_populate_call(f)) {
        rl_rowset_free(rs); /* json_populate_recordset(ROW(...), j): fields unknown */
        return rl_exec_error(S->x, RL_SQLSTATE_SYNTAX_ERROR, f->location,
                             "a column definition list is required for functions returning "
                             "\"record\""),
               NULL;
    }
    if (rs && rs->ncols == 1 && rl_oid_is_rowtype(rs->cols[0].oid)) /* unnest(array_agg(t)) */
        rs = expand_rowtype_items(S, &c, rs, rs->cols[0].oid, rf->alias, rf->ordinality);
    return rs && rf->ordinality ? with_ordinality(S, rs, rf->alias) : rs;
}

/* TABLESAMPLE's sampler: each row kept with probability percent/100, drawn
 * from a splitmix64 stream (seeded by REPEATABLE, else by random()). */
typedef struct sampler {
    uint64_t state;
    double percent;
} sampler;

static int sample_keep(void *ctx, rl_rowset *rs, size_t row)
{
    sampler *sm = ctx;
    uint64_t z = (sm->state += 0x9E3779B97F4A7C15u);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9u;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBu;
    z ^= z >> 31;
    return (double)(z >> 11) / 9007199254740992.0 * 100.0 < sm->percent;
}

/* A TABLESAMPLE argument (real) or REPEATABLE seed (double precision):
 * NULL is `null_state` with `null_msg`. */
static int sample_arg(sel *S, const PgQuery__Node *n, uint32_t type, const char *null_state,
                      const char *null_msg, double *out)
{
    rl_expr_ctx c = make_ctx(S, S->outer, NULL);
    rl_value v;
    if (rl_expr_eval(&c, n, &v) < 0 ||
        rl_value_coerce(&c, &v, type, -1, false, &v, rl_node_location(n)) < 0)
        return -1;
    if (v.d.isnull)
        return rl_exec_error(S->x, null_state, -1, "%s", null_msg);
    *out = v.d.v.f;
    return 0;
}

/* FROM t TABLESAMPLE BERNOULLI (p) | SYSTEM (p) [REPEATABLE (seed)]: each
 * row of t kept with probability p/100. SYSTEM samples PostgreSQL's pages,
 * which a lake's rows do not have: it samples rows as BERNOULLI does. The
 * sample is PostgreSQL's in distribution, not in which rows it picks. */
static rl_rowset *from_tablesample(sel *S, const PgQuery__RangeTableSample *ts)
{
    const char *method = ts->n_method ? rl_node_string(ts->method[ts->n_method - 1]) : NULL;
    if (!method || (strcmp(method, "bernoulli") != 0 && strcmp(method, "system") != 0))
        return rl_exec_error(S->x, RL_SQLSTATE_UNDEFINED_OBJECT, ts->location,
                             "tablesample method %s does not exist", method ? method : "?"),
               NULL;
    if (ts->n_args != 1)
        return rl_exec_error(S->x, RL_SQLSTATE_INVALID_TABLESAMPLE_ARGUMENT, ts->location,
                             "tablesample method %s requires 1 argument, not %zu", method,
                             ts->n_args),
               NULL;
    if (!ts->relation || ts->relation->node_case != PG_QUERY__NODE__NODE_RANGE_VAR)
        return rl_exec_error(S->x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, ts->location,
                             "TABLESAMPLE clause can only be applied to tables"),
               NULL;
    sampler sm = {0, 0};
    double seed = 0;
    if (sample_arg(S, ts->args[0], RL_OID_FLOAT4, RL_SQLSTATE_INVALID_TABLESAMPLE_ARGUMENT,
                   "TABLESAMPLE parameter cannot be null", &sm.percent) < 0 ||
        (ts->repeatable &&
         sample_arg(S, ts->repeatable, RL_OID_FLOAT8, RL_SQLSTATE_INVALID_TABLESAMPLE_REPEAT,
                    "TABLESAMPLE REPEATABLE parameter cannot be null", &seed) < 0))
        return NULL;
    if (!(sm.percent >= 0 && sm.percent <= 100)) /* NaN too */
        return rl_exec_error(S->x, RL_SQLSTATE_INVALID_TABLESAMPLE_ARGUMENT, -1,
                             "sample percentage must be between 0 and 100"),
               NULL;
    if (ts->repeatable)
        memcpy(&sm.state, &seed, sizeof sm.state);
    else
        sm.state = (uint64_t)random() << 32 ^ (uint64_t)random();
    rl_rowset *rs = from_rangevar(S, ts->relation->range_var, NULL);
    if (!rs || S->type_only)
        return rs;
    rl_row_filter f = {sample_keep, &sm};
    if (rl_rowset_filter(rs, &f) < 0) {
        rl_rowset_free(rs);
        return NULL;
    }
    return rs;
}

static rl_rowset *from_item(sel *S, const PgQuery__Node *item, const PgQuery__Node *where)
{
    if (rl_exec_check_stack(S->x) < 0) /* JOIN chains nest from_join in here */
        return NULL;
    switch (item->node_case) {
    case PG_QUERY__NODE__NODE_RANGE_VAR: return from_rangevar(S, item->range_var, where);
    case PG_QUERY__NODE__NODE_RANGE_SUBSELECT: return from_subselect(S, item->range_subselect);
    case PG_QUERY__NODE__NODE_JOIN_EXPR: return from_join(S, item->join_expr);
    case PG_QUERY__NODE__NODE_RANGE_FUNCTION: return from_function(S, item->range_function);
    case PG_QUERY__NODE__NODE_RANGE_TABLE_SAMPLE:
        return from_tablesample(S, item->range_table_sample);
    default:
        return rl_exec_error(S->x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                             "this kind of FROM item (functions, ...) is not supported"),
               NULL;
    }
}

/* FROM a, b, c WHERE ...: each step of the fold joins on the WHERE's
 * conjuncts that its two sides can already evaluate, so an equality
 * between them hashes the join and the cross product never builds (a
 * FROM list of nine catalogs joined by equalities in WHERE, as JDBC's
 * getImportedKeys sends, would pass the result budget). Only plain
 * conjuncts move: columns, constants, parameters, operators, casts, CASE
 * and the like; no function call (it may be volatile), no subquery, no
 * column of a later item or of an outer query. WHERE still filters the
 * result as a whole afterwards, so moving one changes no answer. */
typedef struct pushable {
    const rl_rowset *l, *r;
    bool ok;
} pushable;

static int visit_pushable(void *ctx, const ProtobufCMessage *m)
{
    pushable *p = ctx;
    if (m->descriptor != &pg_query__node__descriptor)
        return 0;
    const PgQuery__Node *n = (const PgQuery__Node *)m;
    switch (n->node_case) {
    case PG_QUERY__NODE__NODE_COLUMN_REF: {
        rl_binding bl = {(rl_rowset *)p->l, 0, NULL, NULL}, br = {(rl_rowset *)p->r, 0, NULL, NULL};
        if (!rl_expr_column(&bl, n) && !rl_expr_column(&br, n))
            p->ok = false;
        return p->ok ? 1 : -1;
    }
    case PG_QUERY__NODE__NODE_A_EXPR:
    case PG_QUERY__NODE__NODE_BOOL_EXPR:
    case PG_QUERY__NODE__NODE_NULL_TEST:
    case PG_QUERY__NODE__NODE_BOOLEAN_TEST:
    case PG_QUERY__NODE__NODE_TYPE_CAST:
    case PG_QUERY__NODE__NODE_TYPE_NAME:
    case PG_QUERY__NODE__NODE_A_CONST:
    case PG_QUERY__NODE__NODE_PARAM_REF:
    case PG_QUERY__NODE__NODE_A_INDIRECTION:
    case PG_QUERY__NODE__NODE_A_INDICES:
    case PG_QUERY__NODE__NODE_CASE_EXPR:
    case PG_QUERY__NODE__NODE_CASE_WHEN:
    case PG_QUERY__NODE__NODE_COALESCE_EXPR:
    case PG_QUERY__NODE__NODE_COLLATE_CLAUSE:
    case PG_QUERY__NODE__NODE_LIST:
    case PG_QUERY__NODE__NODE_STRING:
    case PG_QUERY__NODE__NODE_INTEGER:
        return 0;
    default:
        p->ok = false;
        return -1;
    }
}

/* The AND of where's conjuncts that l and r can evaluate (NULL: none). */
static PgQuery__Node *step_quals(sel *S, const PgQuery__Node *where, const rl_rowset *l,
                                 const rl_rowset *r)
{
    if (!where)
        return NULL;
    bool conj = where->node_case == PG_QUERY__NODE__NODE_BOOL_EXPR &&
                where->bool_expr->boolop == PG_QUERY__BOOL_EXPR_TYPE__AND_EXPR;
    PgQuery__Node *const *items = conj ? where->bool_expr->args : (PgQuery__Node *const *)&where;
    size_t n = conj ? where->bool_expr->n_args : 1, k = 0;
    PgQuery__Node **args = rl_arena_alloc(&S->arena, (n ? n : 1) * sizeof *args);
    if (!args)
        return NULL;
    for (size_t i = 0; i < n; i++) {
        pushable p = {l, r, true};
        if (rl_tree_walk(&items[i]->base, visit_pushable, &p) == 0 && p.ok)
            args[k++] = items[i];
    }
    if (k <= 1)
        return k ? args[0] : NULL;
    return rl_and_node(&S->arena, args, k);
}

/* FROM a, b, c: a cross join, folded left to right, each step joined on
 * the WHERE conjuncts it can evaluate (step_quals). */
static rl_rowset *from_clause(sel *S, const PgQuery__SelectStmt *st, const PgQuery__Node *where)
{
    if (st->n_from_clause == 0) { /* SELECT without FROM: one empty row */
        rl_rowset *rs = rl_rowset_new(0);
        if (!rs || rl_rowset_add(rs, NULL, NULL, S->x->err) < 0) {
            rl_rowset_free(rs);
            return rs ? NULL : fail_oom(S->x);
        }
        return rs;
    }
    bool single = st->n_from_clause == 1;
    rl_rowset *acc = from_item(S, st->from_clause[0], single ? where : NULL);
    for (size_t i = 1; acc && i < st->n_from_clause; i++) {
        const PgQuery__Node *lat = lateral_subquery(st->from_clause[i]);
        rl_rowset *r = lat ? lateral_shape(S, lat, acc, PG_QUERY__JOIN_TYPE__JOIN_INNER)
                           : from_item(S, st->from_clause[i], NULL);
        if (!r) {
            rl_rowset_free(acc);
            return NULL;
        }
        PgQuery__JoinExpr cross = PG_QUERY__JOIN_EXPR__INIT;
        cross.jointype = PG_QUERY__JOIN_TYPE__JOIN_INNER;
        if (!lat && !S->type_only)
            cross.quals = step_quals(S, where, acc, r);
        join_level level = {.j = &cross, .r = r, .lateral = lat};
        acc = pipe_run(S, acc, &level, 1, NULL);
    }
    return acc;
}

/* ------------------------------------------------- subquery pre-evaluation */

/* Run an uncorrelated scalar subquery now; returns 1 and a literal node
 * standing for its value, 0 if correlated (leave it), -1 on error. */
static int presolve_sublink(sel *S, const PgQuery__SubLink *sl, PgQuery__Node **lit)
{
    if (sl->sub_link_type != PG_QUERY__SUB_LINK_TYPE__EXPR_SUBLINK || !sl->subselect ||
        sl->subselect->node_case != PG_QUERY__NODE__NODE_SELECT_STMT)
        return 0;
    bool correlated = false;
    rl_binding boundary = {NULL, 0, S->outer, &correlated};
    rl_rowset *rs = run_raw(S->x, sl->subselect->select_stmt, &boundary, S->ctes);
    if (rs)
        resolve_unknown(rs);
    if (!rs) {
        /* e.g. it names columns of this query's own FROM (not bound yet):
         * leave it to the per-row evaluation, which reports real errors */
        rl_error_clear(S->x->err);
        return 0;
    }
    int rc = 0;
    if (correlated || rs->ncols != 1 || rs->nrows > 1) {
        rc = 0; /* evaluated per row (which also raises 21000) */
    } else if (rs->cols[0].oid == RL_OID_INT8 || rs->cols[0].oid == RL_OID_INT4 ||
               rs->cols[0].oid == RL_OID_INT2) {
        /* an int result as an unknown literal: coerced back to the compared
         * column's type exactly (the pushdown understands quoted literals) */
        PgQuery__Node *n = rl_arena_alloc(&S->arena, sizeof *n);
        PgQuery__AConst *k = rl_arena_alloc(&S->arena, sizeof *k);
        PgQuery__String *str = rl_arena_alloc(&S->arena, sizeof *str);
        char *text = rl_arena_alloc(&S->arena, 24);
        if (!n || !k || !str || !text) {
            rl_rowset_free(rs);
            fail_oom(S->x);
            return -1;
        }
        *n = (PgQuery__Node)PG_QUERY__NODE__INIT;
        *k = (PgQuery__AConst)PG_QUERY__A__CONST__INIT;
        *str = (PgQuery__String)PG_QUERY__STRING__INIT;
        k->location = sl->location;
        if (rs->nrows == 0 || rs->vals[0].d.isnull) {
            k->isnull = true;
        } else {
            snprintf(text, 24, "%lld", (long long)rs->vals[0].d.v.i);
            str->sval = text;
            k->val_case = PG_QUERY__A__CONST__VAL_SVAL;
            k->sval = str;
        }
        n->node_case = PG_QUERY__NODE__NODE_A_CONST;
        n->a_const = k;
        *lit = n;
        rc = 1;
    }
    rl_rowset_free(rs);
    return rc;
}

/* A copy of `where` with uncorrelated scalar subqueries compared to a
 * column (at the top level or inside a top-level AND) replaced by literals. */
static int presolve_where(sel *S, const PgQuery__Node *where, const PgQuery__Node **out)
{
    *out = where;
    if (!where)
        return 0;
    if (where->node_case == PG_QUERY__NODE__NODE_BOOL_EXPR &&
        where->bool_expr->boolop == PG_QUERY__BOOL_EXPR_TYPE__AND_EXPR) {
        const PgQuery__BoolExpr *be = where->bool_expr;
        PgQuery__Node **args = rl_arena_alloc(&S->arena, (be->n_args + 1) * sizeof *args);
        PgQuery__BoolExpr *nb = rl_arena_alloc(&S->arena, sizeof *nb);
        PgQuery__Node *nn = rl_arena_alloc(&S->arena, sizeof *nn);
        if (!args || !nb || !nn)
            return fail_oom(S->x), -1;
        bool changed = false;
        for (size_t i = 0; i < be->n_args; i++) {
            const PgQuery__Node *a;
            if (presolve_where(S, be->args[i], &a) < 0)
                return -1;
            changed |= a != be->args[i];
            args[i] = (PgQuery__Node *)a;
        }
        if (!changed)
            return 0;
        *nb = *be;
        nb->args = args;
        *nn = *where;
        nn->bool_expr = nb;
        *out = nn;
        return 0;
    }
    if (where->node_case != PG_QUERY__NODE__NODE_A_EXPR ||
        where->a_expr->kind != PG_QUERY__A__EXPR__KIND__AEXPR_OP)
        return 0;
    const PgQuery__AExpr *e = where->a_expr;
    bool l_sub = e->lexpr && e->lexpr->node_case == PG_QUERY__NODE__NODE_SUB_LINK;
    bool r_sub = e->rexpr && e->rexpr->node_case == PG_QUERY__NODE__NODE_SUB_LINK;
    const PgQuery__Node *other = l_sub ? e->rexpr : e->lexpr;
    if (l_sub == r_sub || !other || other->node_case != PG_QUERY__NODE__NODE_COLUMN_REF)
        return 0;
    PgQuery__Node *lit = NULL;
    int rc = presolve_sublink(S, (l_sub ? e->lexpr : e->rexpr)->sub_link, &lit);
    if (rc <= 0)
        return rc;
    PgQuery__AExpr *ne = rl_arena_alloc(&S->arena, sizeof *ne);
    PgQuery__Node *nn = rl_arena_alloc(&S->arena, sizeof *nn);
    if (!ne || !nn)
        return fail_oom(S->x), -1;
    *ne = *e;
    if (l_sub)
        ne->lexpr = lit;
    else
        ne->rexpr = lit;
    *nn = *where;
    nn->a_expr = ne;
    *out = nn;
    return 0;
}

/* ------------------------------------------------------------ targets */

typedef struct tcol {
    const PgQuery__Node *expr; /* NULL: input column `src` (from `*`) */
    size_t src;
    int location;
} tcol;

static bool visible_in_star(const rl_colmeta *m)
{
    return m->attnum >= 0 && !m->using_dup;
}

/* Expand the target list (`*`, `t.*`) into output columns with names. */
/* The target list being built: every `*` adds its columns. */
typedef struct target_list {
    tcol *t;
    rl_colmeta *m;
    size_t n, cap;
} target_list;

/* A free slot at the end (grown as needed), or NULL with 54011 / oom. */
static size_t target_add(sel *S, target_list *tl)
{
    if (tl->n == MAX_TARGET_COLUMNS)
        return too_many_targets(S->x), SIZE_MAX;
    if (tl->n == tl->cap) {
        size_t cap = tl->cap ? tl->cap * 2 : 16;
        tcol *t = realloc(tl->t, cap * sizeof *t);
        if (t)
            tl->t = t;
        rl_colmeta *m = t ? realloc(tl->m, cap * sizeof *m) : NULL;
        if (!m)
            return fail_oom(S->x), SIZE_MAX;
        tl->m = m;
        tl->cap = cap;
    }
    memset(&tl->m[tl->n], 0, sizeof tl->m[tl->n]);
    return tl->n++;
}

/* `*` or `rel.*`: the input columns it stands for. */
static int target_star(sel *S, const PgQuery__SelectStmt *st, const rl_rowset *in,
                       const char *rel, int cr_location, int location, target_list *tl)
{
    size_t before = tl->n;
    for (size_t c = 0; c < in->ncols; c++) {
        const rl_colmeta *im = &in->cols[c];
        if (rel ? (strcmp(im->rel, rel) != 0 || im->attnum < 0) : !visible_in_star(im))
            continue;
        size_t k = target_add(S, tl);
        if (k == SIZE_MAX)
            return -1;
        tl->t[k] = (tcol){NULL, c, location};
        tl->m[k] = *im;
        tl->m[k].using_dup = false;
    }
    if (rel && tl->n == before && !in->ncols)
        return rl_exec_error(S->x, RL_SQLSTATE_UNDEFINED_TABLE, cr_location,
                             "missing FROM-clause entry for table \"%s\"", rel);
    if (!rel && st->n_from_clause == 0)
        return rl_exec_error(S->x, RL_SQLSTATE_SYNTAX_ERROR, cr_location,
                             "SELECT * with no tables specified is not valid");
    return 0;
}

/* `(name).*` where name is a FROM item and no column: its whole row taken
 * apart, which is `name.*` (PostgreSQL looks for a column first). The
 * relation's name, or NULL when v is not that. */
static const char *whole_row_star(const rl_rowset *in, const PgQuery__Node *v)
{
    if (!v || v->node_case != PG_QUERY__NODE__NODE_A_INDIRECTION)
        return NULL;
    const PgQuery__AIndirection *ind = v->a_indirection;
    if (ind->n_indirection != 1 ||
        ind->indirection[0]->node_case != PG_QUERY__NODE__NODE_A_STAR || !ind->arg ||
        ind->arg->node_case != PG_QUERY__NODE__NODE_COLUMN_REF ||
        ind->arg->column_ref->n_fields != 1)
        return NULL;
    const char *name = rl_node_string(ind->arg->column_ref->fields[0]);
    bool rel = false;
    for (size_t c = 0; name && c < in->ncols; c++) {
        if (in->cols[c].attnum >= 0 && strcmp(in->cols[c].name, name) == 0)
            return NULL; /* a column of that name */
        rel |= strcmp(in->cols[c].rel, name) == 0;
    }
    return rel ? name : NULL;
}

static int plan_targets(sel *S, const PgQuery__SelectStmt *st, const rl_rowset *in, tcol **out,
                        rl_colmeta **meta, size_t *n)
{
    target_list tl = {0};
    int rc = 0;
    for (size_t i = 0; i < st->n_target_list && rc == 0; i++) {
        const PgQuery__Node *tn = st->target_list[i];
        if (tn->node_case != PG_QUERY__NODE__NODE_RES_TARGET)
            continue;
        const PgQuery__ResTarget *rt = tn->res_target;
        const PgQuery__Node *v = rt->val;
        const PgQuery__ColumnRef *cr =
            v && v->node_case == PG_QUERY__NODE__NODE_COLUMN_REF ? v->column_ref : NULL;
        if (cr && cr->n_fields &&
            cr->fields[cr->n_fields - 1]->node_case == PG_QUERY__NODE__NODE_A_STAR) {
            const char *rel =
                cr->n_fields >= 2 ? rl_node_string(cr->fields[cr->n_fields - 2]) : NULL;
            rc = target_star(S, st, in, rel, cr->location, rt->location, &tl);
            continue;
        }
        const char *whole = whole_row_star(in, v);
        if (whole) {
            rc = target_star(S, st, in, whole, v->a_indirection->arg->column_ref->location,
                             rt->location, &tl);
            continue;
        }
        size_t k = target_add(S, &tl);
        if (k == SIZE_MAX) {
            rc = -1;
            break;
        }
        tl.t[k] = (tcol){v, 0, rt->location};
        if (rt->name && rt->name[0])
            snprintf(tl.m[k].name, sizeof tl.m[k].name, "%s", rt->name);
        else
            rl_expr_default_name(v, tl.m[k].name, sizeof tl.m[k].name);
    }
    if (rc == 0 && !tl.t) { /* no targets: still arrays, as callers free them */
        tl.t = calloc(1, sizeof *tl.t);
        tl.m = calloc(1, sizeof *tl.m);
        if (!tl.t || !tl.m)
            rc = (fail_oom(S->x), -1);
    }
    if (rc < 0) {
        free(tl.t);
        free(tl.m);
        return -1;
    }
    *out = tl.t;
    *meta = tl.m;
    *n = tl.n;
    return 0;
}

/* ------------------------------------------------------------ ORDER BY */

typedef struct skey {
    long outcol;                /* >= 0: sort by this output column */
    const PgQuery__Node *expr;  /* else: evaluate on the input row */
    bool desc, nulls_first;
} skey;

/* A constant in GROUP BY or ORDER BY must be a position of the select list
 * (PostgreSQL's findTargetlistEntrySQL92): 42601 for any other constant,
 * 42P10 past the list. */
static int check_position(sel *S, const PgQuery__Node *n, size_t ntargets, const char *clause)
{
    if (n->node_case != PG_QUERY__NODE__NODE_A_CONST)
        return 0;
    const PgQuery__AConst *k = rl_const(n->a_const);
    if (k->val_case != PG_QUERY__A__CONST__VAL_IVAL)
        return rl_exec_error(S->x, RL_SQLSTATE_SYNTAX_ERROR, n->a_const->location,
                             "non-integer constant in %s", clause);
    if (k->ival->ival < 1 || (size_t)k->ival->ival > ntargets)
        return rl_exec_error(S->x, RL_SQLSTATE_INVALID_COLUMN_REFERENCE, n->a_const->location,
                             "%s position %d is not in select list", clause, k->ival->ival);
    return 0;
}

/* Do output columns a and b compute the same (findTargetlistEntrySQL92's
 * equal(): the same input column, or equal expressions)? */
static bool same_target(const tcol *t, const rl_colmeta *meta, size_t a, size_t b)
{
    if (!t[a].expr && !t[b].expr)
        return t[a].src == t[b].src;
    if (!t[a].expr || !t[b].expr) { /* a `*` column and a plain reference to it */
        const PgQuery__Node *e = t[a].expr ? t[a].expr : t[b].expr;
        const PgQuery__ColumnRef *cr =
            e->node_case == PG_QUERY__NODE__NODE_COLUMN_REF ? e->column_ref : NULL;
        const char *last = cr && cr->n_fields ? rl_node_string(cr->fields[cr->n_fields - 1]) : NULL;
        return last && strcmp(last, meta[t[a].expr ? b : a].name) == 0;
    }
    return rl_node_equal(&t[a].expr->base, &t[b].expr->base);
}

static int plan_sort(sel *S, const PgQuery__SelectStmt *st, const rl_colmeta *meta, size_t nout,
                     const tcol *targets, bool setop, skey **out)
{
    size_t n = st->n_sort_clause;
    skey *k = calloc(n + 1, sizeof *k);
    if (!k)
        return fail_oom(S->x), -1;
    for (size_t i = 0; i < n; i++) {
        const PgQuery__Node *sn = st->sort_clause[i];
        if (sn->node_case != PG_QUERY__NODE__NODE_SORT_BY) {
            free(k);
            return rl_exec_error(S->x, RL_SQLSTATE_SYNTAX_ERROR, -1, "malformed ORDER BY");
        }
        const PgQuery__SortBy *sb = sn->sort_by;
        if (sb->sortby_dir == PG_QUERY__SORT_BY_DIR__SORTBY_USING) {
            free(k);
            return rl_exec_error(S->x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, sb->location,
                                 "ORDER BY ... USING is not supported");
        }
        k[i].desc = sb->sortby_dir == PG_QUERY__SORT_BY_DIR__SORTBY_DESC;
        k[i].nulls_first = sb->sortby_nulls == PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_FIRST ||
                           (sb->sortby_nulls != PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_LAST &&
                            k[i].desc);
        k[i].outcol = -1;
        const PgQuery__Node *e = sb->node;
        if (check_position(S, e, nout, "ORDER BY") < 0) {
            free(k);
            return -1;
        }
        if (e->node_case == PG_QUERY__NODE__NODE_A_CONST) {
            k[i].outcol = rl_const(e->a_const)->ival->ival - 1;
            continue;
        }
        if (e->node_case == PG_QUERY__NODE__NODE_COLUMN_REF && e->column_ref->n_fields == 1) {
            const char *name = rl_node_string(e->column_ref->fields[0]);
            for (size_t c = 0; name && c < nout; c++) {
                if (strcmp(meta[c].name, name) != 0)
                    continue;
                /* two output columns of that name that differ: 42702 */
                if (k[i].outcol >= 0 && targets && !same_target(targets, meta, (size_t)k[i].outcol, c)) {
                    free(k);
                    return rl_exec_error(S->x, RL_SQLSTATE_AMBIGUOUS_COLUMN,
                                         e->column_ref->location, "ORDER BY \"%s\" is ambiguous",
                                         name);
                }
                if (k[i].outcol < 0)
                    k[i].outcol = (long)c;
                if (!targets)
                    break;
            }
        }
        if (k[i].outcol < 0 && setop) {
            /* a set operation's ORDER BY sees only its output columns */
            free(k);
            if (e->node_case == PG_QUERY__NODE__NODE_COLUMN_REF)
                return rl_exec_error(S->x, RL_SQLSTATE_UNDEFINED_COLUMN, e->column_ref->location,
                                     "column \"%s\" does not exist",
                                     rl_node_string(e->column_ref->fields[e->column_ref->n_fields - 1])
                                         ? rl_node_string(e->column_ref
                                                        ->fields[e->column_ref->n_fields - 1])
                                         : "?");
            return rl_exec_error(S->x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, sb->location,
                                 "invalid UNION/INTERSECT/EXCEPT ORDER BY clause");
        }
        if (k[i].outcol < 0)
            k[i].expr = e;
    }
    *out = k;
    return 0;
}

typedef struct sort_ctx {
    sel *S;
    rl_rowset *rows;      /* output rows */
    rl_rowset *keys;      /* evaluated expression keys, parallel to rows */
    const skey *k;
    size_t nk;
    bool failed;
} sort_ctx;

static const rl_value *key_value(const sort_ctx *sc, size_t row, size_t i)
{
    if (sc->k[i].outcol >= 0)
        return &rl_rowset_row(sc->rows, row)[sc->k[i].outcol];
    return &rl_rowset_row(sc->keys, row)[i];
}

static int compare_rows(const void *pa, const void *pb, void *arg)
{
    sort_ctx *sc = arg;
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    rl_expr_ctx c = make_ctx(sc->S, NULL, NULL);
    for (size_t i = 0; i < sc->nk; i++) {
        const rl_value *va = key_value(sc, a, i), *vb = key_value(sc, b, i);
        int r;
        if (va->d.isnull || vb->d.isnull) {
            if (va->d.isnull && vb->d.isnull)
                continue;
            r = va->d.isnull ? 1 : -1; /* NULL sorts as larger ... */
            if (sc->k[i].nulls_first != sc->k[i].desc)
                r = -r; /* ... unless placed first (for ASC) / last (for DESC) */
            if (sc->k[i].desc)
                r = -r;
            return r;
        }
        if (sc->failed || rl_value_cmp(&c, va, vb, &r, -1) < 0) {
            sc->failed = true;
            return 0;
        }
        if (r)
            return sc->k[i].desc ? -r : r;
    }
    return a < b ? -1 : a > b; /* stable */
}

/* ------------------------------------------------------------ projection */

typedef struct proj {
    sel *S;
    const PgQuery__SelectStmt *st;
    rl_rowset *in;
    tcol *t;
    size_t nt;
    skey *k;
    size_t nk;
    rl_rowset *out;   /* output columns */
    rl_rowset *keys;  /* ORDER BY expression values */
    rl_value *row, *krow;
    rl_window_values *win; /* the level's window calls (NULL: none) */
    const PgQuery__FuncCall **srf; /* set-returning calls of the targets and keys */
    size_t nsrf, capsrf;
    /* type_level: the first target whose constant folding failed
     * (folding_error), reported only if no later clause fails analysis */
    bool defer_folding;
    bool folded_failed;
    rl_error folded;
} proj;

/* Evaluate targets and sort keys in context c into one output row. */
static int project_row(proj *p, rl_expr_ctx *c, const rl_binding *b, const rl_rowsrc *src)
{
    for (size_t i = 0; i < p->nt; i++) {
        rl_value v;
        if (!p->t[i].expr)
            v = rl_rowset_row(b->rs, b->row)[p->t[i].src];
        else if (rl_expr_eval(c, p->t[i].expr, &v) < 0)
            return -1;
        uint32_t want = p->out->cols[i].oid;
        if (!v.d.isnull && v.oid != want && want != RL_OID_UNKNOWN &&
            rl_value_coerce(c, &v, want, -1, false, &v, p->t[i].location) < 0)
            return -1;
        if (v.d.isnull)
            v.oid = want;
        p->row[i] = v;
    }
    for (size_t i = 0; i < p->nk; i++) {
        null_value(&p->krow[i], RL_OID_UNKNOWN);
        if (p->k[i].expr && rl_expr_eval(c, p->k[i].expr, &p->krow[i]) < 0)
            return -1;
    }
    if (rl_rowset_add(p->out, p->row, src, p->S->x->err) < 0 ||
        (p->nk && rl_rowset_add(p->keys, p->krow, NULL, p->S->x->err) < 0))
        return -1;
    return 0;
}

/* Row k of a two-column set-returning call as one record value. */
static int srf_record(rl_expr_ctx *c, rl_rowset *rs, size_t k, rl_value *out)
{
    const char *names[2] = {rs->cols[0].name, rs->cols[1].name};
    rl_buf b;
    rl_buf_init(&b, 0);
    rl_record_build(&b, 2, names, rl_rowset_row(rs, k));
    return rl_val_buf_copy(c, out, RL_OID_RECORD, &b);
}

/* One input row (or group) through a target list with set-returning calls,
 * as PostgreSQL 10's ProjectSet: the calls run in lockstep, the row gives
 * as many output rows as the longest call (the shorter ones NULL after
 * their end), none when every call returns no rows. */
static int project_set(proj *p, rl_expr_ctx *c, const rl_binding *b)
{
    rl_rowset **sets = calloc(p->nsrf, sizeof *sets);
    rl_value *cur = calloc(p->nsrf, sizeof *cur);
    int rc = sets && cur ? 0 : (fail_oom(p->S->x), -1);
    size_t rows = 0;
    for (size_t j = 0; rc == 0 && j < p->nsrf; j++) {
        if (!(sets[j] = srf_rows(p->S, c, p->srf[j], NULL)))
            rc = -1;
        else if (sets[j]->nrows > rows)
            rows = sets[j]->nrows;
    }
    rl_srf_row now = {p->nsrf, (const void *const *)p->srf, cur};
    rl_expr_ctx sc = *c;
    sc.srf = &now;
    for (size_t k = 0; rc == 0 && k < rows; k++) {
        for (size_t j = 0; rc == 0 && j < p->nsrf; j++) {
            if (sets[j]->ncols == 2) /* json_each's (key, value) as a record */
                rc = k < sets[j]->nrows ? srf_record(c, sets[j], k, &cur[j])
                                        : (null_value(&cur[j], RL_OID_RECORD), 0);
            else if (k < sets[j]->nrows)
                cur[j] = rl_rowset_row(sets[j], k)[0];
            else
                null_value(&cur[j], sets[j]->cols[0].oid);
        }
        if (rc == 0)
            rc = project_row(p, &sc, b, NULL);
    }
    for (size_t j = 0; sets && j < p->nsrf; j++)
        rl_rowset_free(sets[j]);
    free(sets);
    free(cur);
    return rc;
}

/* Evaluate targets and sort keys for one input row (or group). */
static int project_one(proj *p, const rl_binding *b, rl_agg_ctx *agg, const rl_rowsrc *src)
{
    rl_expr_ctx c = make_ctx(p->S, b, agg);
    if (p->nsrf)
        return project_set(p, &c, b);
    return project_row(p, &c, b, src);
}

/* Collect the set-returning calls of an expression (not inside its
 * subqueries, which are queries of their own). */
static int collect_srf(void *ctx, const ProtobufCMessage *m)
{
    proj *p = ctx;
    if (m->descriptor == &pg_query__sub_link__descriptor)
        return 1;
    if (m->descriptor != &pg_query__func_call__descriptor ||
        !rl_expr_is_srf((const PgQuery__FuncCall *)m))
        return 0;
    if (p->nsrf == p->capsrf) {
        size_t cap = p->capsrf ? 2 * p->capsrf : 4;
        const PgQuery__FuncCall **n = realloc(p->srf, cap * sizeof *n);
        if (!n)
            return -1;
        p->srf = n;
        p->capsrf = cap;
    }
    p->srf[p->nsrf++] = (const PgQuery__FuncCall *)m;
    return 1; /* a call in its arguments would be a nested set: not taken */
}

static int plan_srfs(proj *p)
{
    for (size_t i = 0; i < p->nt + p->nk; i++) {
        const PgQuery__Node *e = i < p->nt ? p->t[i].expr : p->k[i - p->nt].expr;
        if (e && rl_tree_walk(&e->base, collect_srf, p) == -1)
            return fail_oom(p->S->x), -1;
    }
    return 0;
}

static bool contains_aggregate(const PgQuery__Node *n);

static bool any_aggregate(PgQuery__Node *const *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (contains_aggregate(v[i]))
            return true;
    return false;
}

/* Aggregate calls at this query level (not inside subqueries). */
static bool contains_aggregate(const PgQuery__Node *n)
{
    if (!n)
        return false;
    if (rl_expr_is_aggregate(n))
        return true;
    switch (n->node_case) {
    case PG_QUERY__NODE__NODE_RES_TARGET: return contains_aggregate(n->res_target->val);
    case PG_QUERY__NODE__NODE_SORT_BY: return contains_aggregate(n->sort_by->node);
    case PG_QUERY__NODE__NODE_A_EXPR:
        return contains_aggregate(n->a_expr->lexpr) || contains_aggregate(n->a_expr->rexpr);
    case PG_QUERY__NODE__NODE_BOOL_EXPR:
        return any_aggregate(n->bool_expr->args, n->bool_expr->n_args);
    case PG_QUERY__NODE__NODE_FUNC_CALL:
        return any_aggregate(n->func_call->args, n->func_call->n_args);
    case PG_QUERY__NODE__NODE_TYPE_CAST: return contains_aggregate(n->type_cast->arg);
    case PG_QUERY__NODE__NODE_COLLATE_CLAUSE: return contains_aggregate(n->collate_clause->arg);
    case PG_QUERY__NODE__NODE_NULL_TEST: return contains_aggregate(n->null_test->arg);
    case PG_QUERY__NODE__NODE_COALESCE_EXPR:
        return any_aggregate(n->coalesce_expr->args, n->coalesce_expr->n_args);
    case PG_QUERY__NODE__NODE_CASE_EXPR:
        return contains_aggregate(n->case_expr->arg) ||
               any_aggregate(n->case_expr->args, n->case_expr->n_args) ||
               contains_aggregate(n->case_expr->defresult);
    case PG_QUERY__NODE__NODE_CASE_WHEN:
        return contains_aggregate(n->case_when->expr) || contains_aggregate(n->case_when->result);
    case PG_QUERY__NODE__NODE_LIST: return any_aggregate(n->list->items, n->list->n_items);
    case PG_QUERY__NODE__NODE_A_INDIRECTION: /* (array_agg(t))[1], (array_agg(t))[1].a */
        return contains_aggregate(n->a_indirection->arg) ||
               any_aggregate(n->a_indirection->indirection, n->a_indirection->n_indirection);
    case PG_QUERY__NODE__NODE_A_INDICES:
        return contains_aggregate(n->a_indices->lidx) || contains_aggregate(n->a_indices->uidx);
    case PG_QUERY__NODE__NODE_ROW_EXPR:
        return any_aggregate(n->row_expr->args, n->row_expr->n_args);
    default: return false;
    }
}

/* Output types: every target evaluated on the typing row. */
/* An error PostgreSQL's planner raises when it folds a constant call (1/0,
 * ln(0), power(0, -1)): after the whole statement was analyzed, so any
 * clause's analysis error (42703 in WHERE) comes first. Literal input
 * errors (22P02, 22003 of '9e99'::int) are the parser's and keep their
 * place, which is why the out-of-range class is not deferred. */
static bool folding_error(const rl_error *e)
{
    return strcmp(e->sqlstate, RL_SQLSTATE_DIVISION_BY_ZERO) == 0 ||
           strcmp(e->sqlstate, RL_SQLSTATE_INVALID_ARGUMENT_FOR_LOG) == 0 ||
           strcmp(e->sqlstate, RL_SQLSTATE_INVALID_ARGUMENT_FOR_POWER) == 0;
}

static int type_targets(proj *p, rl_rowset *typ, bool aggregated)
{
    rl_binding b = {typ, 0, p->S->outer, NULL};
    rl_agg_ctx none = {p->in, NULL, 0, p->S->outer};
    rl_expr_ctx c = make_ctx(p->S, &b, aggregated ? &none : NULL);
    c.typing = true;
    for (size_t i = 0; i < p->nt; i++) {
        rl_colmeta *m = &p->out->cols[i];
        if (!p->t[i].expr)
            continue; /* `*` columns keep their input meta */
        rl_value v;
        if (rl_expr_eval(&c, p->t[i].expr, &v) < 0) {
            if (!p->defer_folding || !folding_error(p->S->x->err))
                return -1;
            if (!p->folded_failed)
                p->folded = *p->S->x->err;
            p->folded_failed = true;
            rl_error_clear(p->S->x->err);
            continue;
        }
        m->oid = v.oid;
        uint32_t elem = rl_array_elem_oid(v.oid); /* an array's typmod is its elements' */
        m->typmod = v.oid == RL_OID_VARCHAR || v.oid == RL_OID_BPCHAR || v.oid == RL_OID_NUMERIC ||
                            rl_oid_is_composite(v.oid) || elem == RL_OID_VARCHAR ||
                            elem == RL_OID_BPCHAR || elem == RL_OID_NUMERIC
                        ? v.typmod
                        : -1;
        const rl_colmeta *src = aggregated ? NULL : rl_expr_column(&b, p->t[i].expr);
        if (!src && aggregated && p->t[i].expr->node_case == PG_QUERY__NODE__NODE_COLUMN_REF)
            src = rl_expr_column(&b, p->t[i].expr);
        if (src) {
            m->table_oid = src->table_oid;
            m->attnum = src->attnum;
            m->typmod = src->typmod;
        }
    }
    return 0;
}

static const PgQuery__Node *group_expr(proj *p, const PgQuery__Node *g);

/* PostgreSQL's check_ungrouped_columns, kept on the safe side: in an
 * aggregated query, a column of this level outside every aggregate and
 * every GROUP BY expression is 42803, unless its table's whole primary key
 * is grouped (PostgreSQL's functional dependency). Subqueries are not
 * looked into, and a column seen through a derived table that keeps its
 * table's identity is judged by that table: a query PostgreSQL accepts is
 * never refused. */
typedef struct ungrouped {
    proj *p;
    rl_binding b;
    const PgQuery__Node **g;
    size_t ng;
    bool in_sort;               /* ORDER BY: a bare name may be an output column */
    const PgQuery__Node *bad;   /* the first ungrouped column */
    bool bad_in_subquery;       /* ... named from inside a subquery */
    const PgQuery__Node *outer_agg; /* an aggregate of only this level's columns in a subquery */
} ungrouped;

static bool is_grouped(const ungrouped *u, const PgQuery__Node *n)
{
    const rl_colmeta *col = rl_expr_column(&u->b, n);
    for (size_t i = 0; i < u->ng; i++)
        if (n == u->g[i] || rl_node_equal(&n->base, &u->g[i]->base) ||
            (col && col == rl_expr_column(&u->b, u->g[i])))
            return true;
    return false;
}

/* Is column attnum of col's relation (same alias, same table) grouped? */
static bool grouped_attnum(const ungrouped *u, const rl_colmeta *col, int16_t attnum)
{
    for (size_t i = 0; i < u->ng; i++) {
        const rl_colmeta *g = rl_expr_column(&u->b, u->g[i]);
        if (g && g->table_oid == col->table_oid && strcmp(g->rel, col->rel) == 0 &&
            g->attnum == attnum)
            return true;
    }
    return false;
}

/* Does col depend on grouped columns: its table's whole primary key is
 * grouped (PostgreSQL's functional dependency)? Unsure (a failed catalog
 * read): yes, on the safe side. */
static bool may_depend(const ungrouped *u, const rl_colmeta *col)
{
    if (!col->table_oid)
        return false; /* a derived table or a function: no keys */
    int16_t pk[16];
    int n = rl_pgcatalog_primary_key(u->p->S->x, col->table_oid, pk, 16);
    if (n < 0) {
        rl_error_clear(u->p->S->x->err);
        return true;
    }
    for (int i = 0; i < n; i++)
        if (!grouped_attnum(u, col, pk[i]))
            return false;
    return n > 0;
}

static bool names_output(const ungrouped *u, const PgQuery__ColumnRef *cr)
{
    const char *name = cr->n_fields == 1 ? rl_node_string(cr->fields[0]) : NULL;
    for (size_t i = 0; name && i < u->p->nt; i++)
        if (strcmp(u->p->out->cols[i].name, name) == 0)
            return true;
    return false;
}

/* ------------------------------------- this level's columns in a subquery
 *
 * PostgreSQL checks the columns a subquery of a grouped query names from
 * it like the query's own (42803 "subquery uses ungrouped column"), and
 * takes an aggregate in the subquery whose arguments name only the outer
 * query's columns as an aggregate of the outer query. RockLake evaluates
 * such an aggregate in the subquery, over one row: it refuses it (0A000)
 * rather than answer otherwise. Nested subqueries are not looked into. */
typedef struct sub_scope {
    ungrouped *u;
    rl_binding inner;   /* the subquery's FROM columns */
    int refs;           /* in an aggregate's arguments: 1 outer seen, 2 inner seen */
} sub_scope;

/* 0 inner (or another level's), 1 this level's and grouped, 2 this
 * level's and not grouped. */
static int outer_ref(sub_scope *sc, const PgQuery__Node *n)
{
    if (rl_expr_column(&sc->inner, n))
        return 0;
    const rl_colmeta *col = rl_expr_column(&sc->u->b, n);
    if (!col)
        return 0;
    return is_grouped(sc->u, n) || may_depend(sc->u, col) ? 1 : 2;
}

static int visit_agg_args(void *ctx, const ProtobufCMessage *m)
{
    sub_scope *sc = ctx;
    if (m->descriptor != &pg_query__node__descriptor)
        return 0;
    const PgQuery__Node *n = (const PgQuery__Node *)m;
    if (n->node_case == PG_QUERY__NODE__NODE_SUB_LINK)
        return 1;
    if (n->node_case == PG_QUERY__NODE__NODE_COLUMN_REF)
        sc->refs |= outer_ref(sc, n) ? 1 : 2;
    return 0;
}

static int visit_subquery(void *ctx, const ProtobufCMessage *m)
{
    sub_scope *sc = ctx;
    if (m->descriptor != &pg_query__node__descriptor)
        return 0;
    const PgQuery__Node *n = (const PgQuery__Node *)m;
    if (n->node_case == PG_QUERY__NODE__NODE_SUB_LINK)
        return 1;
    if (rl_expr_is_aggregate(n)) {
        const PgQuery__FuncCall *f = n->func_call;
        sc->refs = 0;
        for (size_t i = 0; i < f->n_args; i++)
            if (rl_tree_walk(&f->args[i]->base, visit_agg_args, sc) < 0)
                return 1;
        if (sc->refs == 1) {
            sc->u->outer_agg = n;
            return -1;
        }
        return 1;
    }
    if (n->node_case == PG_QUERY__NODE__NODE_COLUMN_REF && outer_ref(sc, n) == 2) {
        sc->u->bad = n;
        sc->u->bad_in_subquery = true;
        return -1;
    }
    return 0;
}

/* A subquery of the grouped level: its expressions' references to this
 * level (0, or -1 with u->bad / u->outer_agg set). Its FROM is typed
 * on its own; when that fails the subquery's run reports it. */
static int check_subquery(ungrouped *u, const PgQuery__SubLink *sl)
{
    if (!sl->subselect || sl->subselect->node_case != PG_QUERY__NODE__NODE_SELECT_STMT)
        return 0;
    const PgQuery__SelectStmt *st = sl->subselect->select_stmt;
    if (st->op != PG_QUERY__SET_OPERATION__SETOP_NONE || st->with_clause)
        return 0;
    sel *S = u->p->S;
    sel T = {.x = S->x, .outer = &u->b, .ctes = S->ctes, .type_only = true};
    rl_rowset *in = st->n_from_clause ? from_clause(&T, st, NULL) : rl_rowset_new(0);
    rl_arena_free(&T.arena);
    if (!in) {
        rl_error_clear(S->x->err);
        return 0;
    }
    sub_scope sc = {.u = u, .inner = {in, 0, NULL, NULL}};
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < st->n_target_list; i++)
        rc = rl_tree_walk(&st->target_list[i]->base, visit_subquery, &sc);
    const PgQuery__Node *clauses[2] = {st->where_clause, st->having_clause};
    for (size_t i = 0; rc == 0 && i < 2; i++)
        if (clauses[i])
            rc = rl_tree_walk(&clauses[i]->base, visit_subquery, &sc);
    rl_rowset_free(in);
    return rc == -1 ? -1 : 0;
}

static int visit_ungrouped(void *ctx, const ProtobufCMessage *m)
{
    ungrouped *u = ctx;
    if (m->descriptor != &pg_query__node__descriptor)
        return 0;
    const PgQuery__Node *n = (const PgQuery__Node *)m;
    if (is_grouped(u, n) || rl_expr_is_aggregate(n))
        return 1;
    switch (n->node_case) {
    case PG_QUERY__NODE__NODE_SUB_LINK: return check_subquery(u, n->sub_link) < 0 ? -1 : 1;
    /* GROUPING()'s arguments are checked as grouping expressions by its
     * evaluation (42803 arguments to GROUPING must be ...) */
    case PG_QUERY__NODE__NODE_GROUPING_FUNC: return 1;
    case PG_QUERY__NODE__NODE_COLUMN_REF: {
        const rl_colmeta *col = rl_expr_column(&u->b, n);
        if (!col || may_depend(u, col) || (u->in_sort && names_output(u, n->column_ref)))
            return 1; /* another level's, an output column's, or maybe dependent */
        u->bad = n;
        return -1;
    }
    default: return 0;
    }
}

/* GROUP BY's expressions, sets flattened (ROLLUP (a, (b, c)) gives a, b, c):
 * 0, 1 when a constant makes the check moot, -1 out of memory. */
static int collect_groups(ungrouped *u, const PgQuery__Node *g)
{
    if (g->node_case == PG_QUERY__NODE__NODE_GROUPING_SET) {
        for (size_t i = 0; i < g->grouping_set->n_content; i++) {
            int rc = collect_groups(u, g->grouping_set->content[i]);
            if (rc != 0)
                return rc;
        }
        return 0;
    }
    if (g->node_case == PG_QUERY__NODE__NODE_ROW_EXPR) {
        for (size_t i = 0; i < g->row_expr->n_args; i++) {
            int rc = collect_groups(u, g->row_expr->args[i]);
            if (rc != 0)
                return rc;
        }
        return 0;
    }
    if (g->node_case == PG_QUERY__NODE__NODE_LIST) {
        for (size_t i = 0; i < g->list->n_items; i++) {
            int rc = collect_groups(u, g->list->items[i]);
            if (rc != 0)
                return rc;
        }
        return 0;
    }
    const PgQuery__Node *e = group_expr(u->p, g);
    if (e->node_case == PG_QUERY__NODE__NODE_A_CONST)
        return 1; /* a position out of range or a constant: grouping reports it (42P10, 42601) */
    const PgQuery__Node **ng = realloc(u->g, (u->ng + 1) * sizeof *ng);
    if (!ng)
        return -1;
    u->g = ng;
    u->g[u->ng++] = e;
    return 0;
}

static int check_ungrouped(proj *p, rl_rowset *typ)
{
    const PgQuery__SelectStmt *st = p->st;
    ungrouped u = {.p = p, .b = {typ, 0, p->S->outer, NULL}};
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < st->n_group_clause; i++)
        rc = collect_groups(&u, st->group_clause[i]);
    if (rc != 0) {
        free(u.g);
        return rc > 0 ? 0 : (fail_oom(p->S->x), -1);
    }
    for (size_t i = 0; rc == 0 && i < p->nt; i++)
        if (p->t[i].expr)
            rc = rl_tree_walk(&p->t[i].expr->base, visit_ungrouped, &u);
    if (rc == 0 && st->having_clause)
        rc = rl_tree_walk(&st->having_clause->base, visit_ungrouped, &u);
    u.in_sort = true;
    for (size_t i = 0; rc == 0 && i < st->n_sort_clause; i++)
        rc = rl_tree_walk(&st->sort_clause[i]->base, visit_ungrouped, &u);
    free(u.g);
    if (rc == -2)
        return 0; /* too deep to look at: the evaluation reports it */
    if (u.outer_agg)
        return rl_exec_error(p->S->x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED,
                             u.outer_agg->func_call->location,
                             "an aggregate of the outer query inside a subquery is not supported "
                             "by RockLake");
    if (!u.bad)
        return 0;
    const rl_colmeta *col = rl_expr_column(&u.b, u.bad);
    if (u.bad_in_subquery)
        return rl_exec_error(p->S->x, RL_SQLSTATE_GROUPING_ERROR, u.bad->column_ref->location,
                             "subquery uses ungrouped column \"%s%s%s\" from outer query",
                             col->rel, col->rel[0] ? "." : "", col->name);
    return rl_exec_error(p->S->x, RL_SQLSTATE_GROUPING_ERROR, u.bad->column_ref->location,
                         "column \"%s%s%s\" must appear in the GROUP BY clause or be used in an "
                         "aggregate function",
                         col->rel, col->rel[0] ? "." : "", col->name);
}

/* GROUP BY key expressions: positions and output names mean targets. */
static const PgQuery__Node *group_expr(proj *p, const PgQuery__Node *g)
{
    if (g->node_case == PG_QUERY__NODE__NODE_A_CONST &&
        rl_const(g->a_const)->val_case == PG_QUERY__A__CONST__VAL_IVAL) {
        int pos = rl_const(g->a_const)->ival->ival;
        if (pos >= 1 && (size_t)pos <= p->nt && p->t[pos - 1].expr)
            return p->t[pos - 1].expr;
    }
    if (g->node_case == PG_QUERY__NODE__NODE_COLUMN_REF && g->column_ref->n_fields == 1) {
        const char *name = rl_node_string(g->column_ref->fields[0]);
        bool is_input = false;
        for (size_t c = 0; name && c < p->in->ncols; c++)
            is_input |= strcmp(p->in->cols[c].name, name) == 0;
        for (size_t i = 0; name && !is_input && i < p->nt; i++)
            if (p->t[i].expr && strcmp(p->out->cols[i].name, name) == 0)
                return p->t[i].expr;
    }
    return g;
}

typedef struct group_sort {
    sel *S;
    const rl_value *keys; /* nrows * ng */
    size_t ng;
    bool failed;
} group_sort;

/* Rows a and b's keys compared, NULLs equal to each other and after every
 * value (a failed comparison sets g->failed and says equal). */
static int compare_group_keys(group_sort *g, size_t a, size_t b)
{
    rl_expr_ctx c = make_ctx(g->S, NULL, NULL);
    for (size_t i = 0; i < g->ng; i++) {
        const rl_value *va = &g->keys[a * g->ng + i], *vb = &g->keys[b * g->ng + i];
        if (va->d.isnull || vb->d.isnull) {
            if (va->d.isnull != vb->d.isnull)
                return va->d.isnull ? 1 : -1;
            continue;
        }
        int r;
        if (g->failed || rl_value_cmp(&c, va, vb, &r, -1) < 0) {
            g->failed = true;
            return 0;
        }
        if (r)
            return r;
    }
    return 0;
}

static int compare_group_rows(const void *pa, const void *pb, void *arg)
{
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    int r = compare_group_keys(arg, a, b);
    return r ? r : a < b ? -1 : a > b; /* stable */
}

/* The binding of group g: its first row (the typing row for the one group
 * of an aggregate over no rows). */
static rl_binding group_binding(const proj *p, rl_rowset *typ, const rl_agg_ctx *g)
{
    return (rl_binding){g->nrows ? p->in : typ, g->nrows ? g->rows[0] : 0, p->S->outer, NULL};
}

/* Groups HAVING keeps (compacted in place; *n their number), then the
 * window calls over them (if any), then each group's output row. */
static int project_groups(proj *p, rl_rowset *typ, rl_agg_ctx *groups, size_t *n)
{
    size_t kept = 0;
    for (size_t i = 0; i < *n; i++) {
        rl_binding b = group_binding(p, typ, &groups[i]);
        rl_expr_ctx c = make_ctx(p->S, &b, &groups[i]);
        int t = p->st->having_clause ? rl_expr_truth(&c, p->st->having_clause) : 1;
        if (t < 0)
            return -1;
        if (t)
            groups[kept++] = groups[i];
    }
    *n = kept;
    if (p->win && p->win->ncalls) { /* rows of the groups: their first rows */
        size_t *reps = rl_arena_alloc(&p->S->arena, (kept + 1) * sizeof *reps);
        if (!reps)
            return fail_oom(p->S->x), -1;
        size_t m = 0;
        for (size_t i = 0; i < kept; i++)
            if (groups[i].nrows)
                reps[m++] = groups[i].rows[0];
        rl_expr_ctx base = make_ctx(p->S, p->S->outer, NULL);
        base.win = NULL;
        if (rl_window_compute(p->S->x, p->st, p->in, typ, reps, m, groups, true, p->S->outer,
                              &p->S->arena, &base, p->win) < 0)
            return -1;
    }
    for (size_t i = 0; i < kept; i++) {
        rl_binding b = group_binding(p, typ, &groups[i]);
        if (project_one(p, &b, &groups[i], NULL) < 0)
            return -1;
    }
    return 0;
}

/* The groups of the rows `keep` by the n expressions `by` (none: one group
 * of them all, even when there are none), projected (project_groups). */
static int group_and_project(proj *p, rl_rowset *typ, const size_t *keep, size_t nkeep,
                             PgQuery__Node *const *by, size_t ng)
{
    if (ng == 0) {
        rl_agg_ctx one = {p->in, keep, nkeep, p->S->outer};
        size_t n = 1;
        return project_groups(p, typ, &one, &n);
    }
    size_t ngroups = 0;
    rl_value *keys = calloc(p->in->nrows * ng + 1, sizeof *keys);
    size_t *order = calloc(nkeep + 1, sizeof *order);
    rl_agg_ctx *groups = calloc(nkeep + 1, sizeof *groups);
    int rc = -1;
    if (!keys || !order || !groups) {
        fail_oom(p->S->x);
        goto done;
    }
    for (size_t i = 0; i < nkeep; i++) {
        rl_binding b = {p->in, keep[i], p->S->outer, NULL};
        rl_expr_ctx c = make_ctx(p->S, &b, NULL);
        order[i] = keep[i];
        for (size_t g = 0; g < ng; g++)
            if (rl_expr_eval(&c, group_expr(p, by[g]), &keys[keep[i] * ng + g]) < 0)
                goto done;
    }
    group_sort gs = {p->S, keys, ng, false};
    qsort_r(order, nkeep, sizeof *order, compare_group_rows, &gs);
    if (gs.failed)
        goto done;
    for (size_t i = 0; i < nkeep;) {
        size_t j = i + 1; /* same group: equal keys, NULLs equal */
        while (j < nkeep && compare_group_keys(&gs, order[i], order[j]) == 0 && !gs.failed)
            j++;
        if (gs.failed)
            goto done;
        groups[ngroups++] = (rl_agg_ctx){p->in, &order[i], j - i, p->S->outer};
        i = j;
    }
    rc = project_groups(p, typ, groups, &ngroups);
done:
    free(keys);
    free(order);
    free(groups);
    return rc;
}

/* ------------------------------------------------------- grouping sets */

/* PostgreSQL's cap on the grouping sets one GROUP BY expands to. */
#define RL_GROUPING_SETS_MAX 4096

/* A list of grouping sets, each a list of expressions. */
typedef struct gset {
    const PgQuery__Node **e;
    size_t n;
} gset;
typedef struct gset_list {
    gset *s;
    size_t n;
} gset_list;

static void gsets_free(gset_list *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->s[i].e);
    free(l->s);
    l->s = NULL;
    l->n = 0;
}

static bool gset_push(gset_list *l, const PgQuery__Node *const *a, size_t na,
                      const PgQuery__Node *const *b, size_t nb)
{
    gset *grown = realloc(l->s, (l->n + 1) * sizeof *grown);
    if (!grown)
        return false;
    l->s = grown;
    gset *g = &l->s[l->n];
    if (!(g->e = malloc((na + nb + 1) * sizeof *g->e)))
        return false;
    if (na) /* a and b may be NULL when empty */
        memcpy(g->e, a, na * sizeof *a);
    if (nb)
        memcpy(g->e + na, b, nb * sizeof *b);
    g->n = na + nb;
    l->n++;
    return true;
}

/* The expressions of the grouping element *item: a (a, b) list's (the
 * grammar makes it an implicit ROW), or itself; *e points at them, their
 * number is returned. */
static size_t element_exprs(const PgQuery__Node *const *item, const PgQuery__Node *const **e)
{
    const PgQuery__Node *n = *item;
    if (n->node_case == PG_QUERY__NODE__NODE_GROUPING_SET &&
        n->grouping_set->kind == PG_QUERY__GROUPING_SET_KIND__GROUPING_SET_SIMPLE) {
        *e = (const PgQuery__Node *const *)n->grouping_set->content;
        return n->grouping_set->n_content;
    }
    if (n->node_case == PG_QUERY__NODE__NODE_ROW_EXPR &&
        n->row_expr->row_format == PG_QUERY__COERCION_FORM__COERCE_IMPLICIT_CAST) {
        *e = (const PgQuery__Node *const *)n->row_expr->args;
        return n->row_expr->n_args;
    }
    *e = item;
    return 1;
}

/* The sets of one GROUP BY item: an expression, (), (a, b), ROLLUP, CUBE,
 * GROUPING SETS (...). */
static int expand_item(sel *S, const PgQuery__Node *item, gset_list *out)
{
    if (item->node_case != PG_QUERY__NODE__NODE_GROUPING_SET) {
        const PgQuery__Node *const *e;
        size_t ne = element_exprs(&item, &e);
        return gset_push(out, e, ne, NULL, 0) ? 0 : (fail_oom(S->x), -1);
    }
    const PgQuery__GroupingSet *gs = item->grouping_set;
    const PgQuery__Node *const *c = (const PgQuery__Node *const *)gs->content;
    size_t n = gs->n_content;
    switch (gs->kind) {
    case PG_QUERY__GROUPING_SET_KIND__GROUPING_SET_EMPTY:
        return gset_push(out, NULL, 0, NULL, 0) ? 0 : (fail_oom(S->x), -1);
    case PG_QUERY__GROUPING_SET_KIND__GROUPING_SET_SIMPLE:
        return gset_push(out, c, n, NULL, 0) ? 0 : (fail_oom(S->x), -1);
    case PG_QUERY__GROUPING_SET_KIND__GROUPING_SET_SETS:
        for (size_t i = 0; i < n; i++)
            if (expand_item(S, c[i], out) < 0)
                return -1;
        return 0;
    case PG_QUERY__GROUPING_SET_KIND__GROUPING_SET_ROLLUP:
    case PG_QUERY__GROUPING_SET_KIND__GROUPING_SET_CUBE: {
        bool cube = gs->kind == PG_QUERY__GROUPING_SET_KIND__GROUPING_SET_CUBE;
        if (cube && n > 12)
            return rl_exec_error(S->x, RL_SQLSTATE_STATEMENT_TOO_COMPLEX, gs->location,
                                 "CUBE is limited to 12 elements");
        size_t nsets = cube ? (size_t)1 << n : n + 1;
        for (size_t k = 0; k < nsets; k++) {
            /* ROLLUP: the first n - k elements; CUBE: the elements whose bit
             * is clear in k (k = 0: all of them) */
            gset_list one = {0};
            if (!gset_push(&one, NULL, 0, NULL, 0))
                return gsets_free(&one), fail_oom(S->x), -1;
            for (size_t i = 0; i < n; i++) {
                bool in = cube ? !(k >> (n - 1 - i) & 1) : i < n - k;
                if (!in)
                    continue;
                const PgQuery__Node *const *e;
                size_t ne = element_exprs(&c[i], &e);
                gset *g = &one.s[0];
                const PgQuery__Node **grown = realloc(g->e, (g->n + ne + 1) * sizeof *grown);
                if (!grown)
                    return gsets_free(&one), fail_oom(S->x), -1;
                if (ne)
                    memcpy(grown + g->n, e, ne * sizeof *e);
                g->e = grown;
                g->n += ne;
            }
            bool ok = gset_push(out, one.s[0].e, one.s[0].n, NULL, 0);
            gsets_free(&one);
            if (!ok)
                return fail_oom(S->x), -1;
        }
        return 0;
    }
    default:
        return rl_exec_error(S->x, RL_SQLSTATE_SYNTAX_ERROR, gs->location, "malformed GROUP BY");
    }
}

/* GROUP BY's items expanded to the sets they stand for: the cross product
 * of each item's sets (an expression is a set of one), as PostgreSQL's
 * expand_grouping_sets. */
static int expand_grouping_sets(sel *S, const PgQuery__SelectStmt *st, gset_list *out)
{
    gset_list acc = {0};
    if (!gset_push(&acc, NULL, 0, NULL, 0))
        return fail_oom(S->x), -1;
    for (size_t i = 0; i < st->n_group_clause; i++) {
        gset_list item = {0}, next = {0};
        int rc = expand_item(S, st->group_clause[i], &item);
        for (size_t a = 0; rc == 0 && a < acc.n; a++)
            for (size_t b = 0; rc == 0 && b < item.n; b++)
                if (next.n >= RL_GROUPING_SETS_MAX)
                    rc = rl_exec_error(S->x, RL_SQLSTATE_STATEMENT_TOO_COMPLEX, -1,
                                       "too many grouping sets present (maximum %d)",
                                       RL_GROUPING_SETS_MAX);
                else if (!gset_push(&next, acc.s[a].e, acc.s[a].n, item.s[b].e, item.s[b].n))
                    rc = (fail_oom(S->x), -1);
        gsets_free(&item);
        gsets_free(&acc);
        acc = next;
        if (rc < 0) {
            gsets_free(&acc);
            return -1;
        }
    }
    *out = acc;
    return 0;
}

static bool has_grouping_sets(const PgQuery__SelectStmt *st)
{
    for (size_t i = 0; i < st->n_group_clause; i++)
        if (st->group_clause[i]->node_case == PG_QUERY__NODE__NODE_GROUPING_SET)
            return true;
    return false;
}

/* Two grouping expressions the same? A constant only as the same node (a
 * position's target), never by value (a `1` elsewhere is not grouped). */
static bool same_grouping(const PgQuery__Node *a, const PgQuery__Node *b)
{
    if (a == b)
        return true;
    return a->node_case != PG_QUERY__NODE__NODE_A_CONST && rl_node_equal(&a->base, &b->base);
}

/* GROUP BY GROUPING SETS / ROLLUP / CUBE: each set's groups in turn, the
 * grouping expressions it leaves out reading as NULL (S->grouping). */
static int project_grouping_sets(proj *p, rl_rowset *typ, const size_t *keep, size_t nkeep)
{
    sel *S = p->S;
    if (p->win && p->win->ncalls)
        return rl_exec_error(S->x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                             "window functions with grouping sets are not supported");
    gset_list sets = {0};
    if (expand_grouping_sets(S, p->st, &sets) < 0)
        return -1;
    size_t nall = 0, cap = 1;
    for (size_t i = 0; i < sets.n; i++)
        cap += sets.s[i].n;
    const PgQuery__Node **all = calloc(cap, sizeof *all);
    bool *absent = calloc(cap, sizeof *absent);
    int rc = all && absent ? 0 : (fail_oom(S->x), -1);
    for (size_t i = 0; rc == 0 && i < sets.n; i++) /* every grouping expression, once */
        for (size_t j = 0; rc == 0 && j < sets.s[i].n; j++) {
            if ((rc = check_position(S, sets.s[i].e[j], p->nt, "GROUP BY")) < 0)
                break;
            const PgQuery__Node *e = group_expr(p, sets.s[i].e[j]); /* positions: targets */
            bool seen = false;
            for (size_t k = 0; k < nall && !seen; k++)
                seen = same_grouping(all[k], e);
            if (!seen)
                all[nall++] = e;
        }
    rl_grouping g = {all, nall, absent, false};
    for (size_t i = 0; rc == 0 && i < sets.n; i++) {
        g.any_absent = false;
        for (size_t k = 0; k < nall; k++) {
            absent[k] = true;
            for (size_t j = 0; j < sets.s[i].n && absent[k]; j++)
                absent[k] = !same_grouping(all[k], group_expr(p, sets.s[i].e[j]));
            g.any_absent |= absent[k];
        }
        S->grouping = &g;
        rc = group_and_project(p, typ, keep, nkeep, (PgQuery__Node *const *)sets.s[i].e,
                               sets.s[i].n);
        S->grouping = NULL;
    }
    free(all);
    free(absent);
    gsets_free(&sets);
    return rc;
}

static int project_grouped(proj *p, rl_rowset *typ, const size_t *keep, size_t nkeep)
{
    const PgQuery__SelectStmt *st = p->st;
    if (has_grouping_sets(st))
        return project_grouping_sets(p, typ, keep, nkeep);
    for (size_t g = 0; g < st->n_group_clause; g++)
        if (check_position(p->S, st->group_clause[g], p->nt, "GROUP BY") < 0)
            return -1;
    /* GROUPING() checks its arguments against these and reads 0 */
    bool *none = calloc(st->n_group_clause + 1, sizeof *none);
    if (!none)
        return fail_oom(p->S->x), -1;
    rl_grouping g = {(const PgQuery__Node *const *)st->group_clause, st->n_group_clause, none,
                     false};
    p->S->grouping = &g;
    int rc = group_and_project(p, typ, keep, nkeep, st->group_clause, st->n_group_clause);
    p->S->grouping = NULL;
    free(none);
    return rc;
}

/* ------------------------------------------------------------ DISTINCT */

/* Plain SELECT DISTINCT (libpg_query's list holds one empty node), as
 * opposed to DISTINCT ON (expressions). */
static bool plain_distinct(const PgQuery__SelectStmt *st)
{
    return st->n_distinct_clause == 1 &&
           st->distinct_clause[0]->node_case == PG_QUERY__NODE__NODE__NOT_SET;
}

/* Is ORDER BY expression e output column i's value: the same expression,
 * or a reference to the same input column? */
static bool sorts_by_target(const proj *p, const rl_rowset *typ, const PgQuery__Node *e, size_t i)
{
    if (p->t[i].expr && rl_node_equal(&e->base, &p->t[i].expr->base))
        return true;
    rl_binding b = {(rl_rowset *)typ, 0, p->S->outer, NULL};
    const rl_colmeta *m = rl_expr_column(&b, e);
    if (!m)
        return false;
    return m == (p->t[i].expr ? rl_expr_column(&b, p->t[i].expr) : &typ->cols[p->t[i].src]);
}

/* SELECT DISTINCT sorts only by output columns: each ORDER BY expression
 * becomes the output column it repeats, or it is PostgreSQL's 42P10 (raised
 * while planning, so also when no row is read). */
static int distinct_sort_keys(proj *p, const rl_rowset *typ)
{
    for (size_t k = 0; k < p->nk; k++) {
        if (p->k[k].outcol >= 0)
            continue;
        for (size_t i = 0; i < p->nt && p->k[k].outcol < 0; i++)
            if (sorts_by_target(p, typ, p->k[k].expr, i))
                p->k[k].outcol = (long)i;
        if (p->k[k].outcol < 0)
            return rl_exec_error(p->S->x, RL_SQLSTATE_INVALID_COLUMN_REFERENCE,
                                 rl_node_location(p->k[k].expr),
                                 "for SELECT DISTINCT, ORDER BY expressions must appear in "
                                 "select list");
        p->k[k].expr = NULL;
    }
    return 0;
}

/* The output column a DISTINCT ON item names: a position, an output
 * column's name, or an expression some output column repeats; -1 when it
 * is an expression of its own (-2 with x->err set: a bad position). */
static long distinct_on_column(proj *p, const rl_rowset *typ, const PgQuery__Node *e)
{
    if (e->node_case == PG_QUERY__NODE__NODE_A_CONST &&
        rl_const(e->a_const)->val_case != PG_QUERY__A__CONST__VAL_IVAL) /* SQL92's rule */
        return rl_exec_error(p->S->x, RL_SQLSTATE_SYNTAX_ERROR, e->a_const->location,
                             "non-integer constant in DISTINCT ON"),
               -2;
    if (e->node_case == PG_QUERY__NODE__NODE_A_CONST &&
        rl_const(e->a_const)->val_case == PG_QUERY__A__CONST__VAL_IVAL) {
        int pos = rl_const(e->a_const)->ival->ival;
        if (pos < 1 || (size_t)pos > p->nt)
            return rl_exec_error(p->S->x, RL_SQLSTATE_INVALID_COLUMN_REFERENCE,
                                 e->a_const->location,
                                 "DISTINCT ON position %d is not in select list", pos),
                   -2;
        return pos - 1;
    }
    if (e->node_case == PG_QUERY__NODE__NODE_COLUMN_REF && e->column_ref->n_fields == 1) {
        const char *name = rl_node_string(e->column_ref->fields[0]);
        for (size_t i = 0; name && i < p->nt; i++)
            if (strcmp(p->out->cols[i].name, name) == 0)
                return (long)i;
    }
    for (size_t i = 0; i < p->nt; i++)
        if (sorts_by_target(p, typ, e, i))
            return (long)i;
    return -1;
}

static int distinct_on_mismatch(proj *p, const PgQuery__Node *e)
{
    return rl_exec_error(p->S->x, RL_SQLSTATE_INVALID_COLUMN_REFERENCE, rl_node_location(e),
                         "SELECT DISTINCT ON expressions must match initial ORDER BY expressions");
}

/* Do sort key a and DISTINCT ON key b name the same value? */
static bool same_key(proj *p, const rl_rowset *typ, const skey *a, const skey *b)
{
    if (a->outcol >= 0 && b->outcol >= 0)
        return a->outcol == b->outcol;
    if (a->outcol < 0 && b->outcol < 0)
        return rl_node_equal(&a->expr->base, &b->expr->base);
    const skey *e = a->outcol < 0 ? a : b;
    return sorts_by_target(p, typ, e->expr, (size_t)(a->outcol < 0 ? b->outcol : a->outcol));
}

/* SELECT DISTINCT ON (exprs): its keys go after the ORDER BY keys in p->k
 * (p->nk counts both), evaluated per row as they are. As PostgreSQL
 * checks while planning, the ORDER BY must begin with the DISTINCT ON
 * expressions (in any order), else 42P10 at the first that breaks it. */
static int plan_distinct_on(proj *p, const rl_rowset *typ)
{
    const PgQuery__SelectStmt *st = p->st;
    size_t nd = st->n_distinct_clause, ns = p->nk;
    skey *k = realloc(p->k, (ns + nd + 1) * sizeof *k);
    if (!k)
        return fail_oom(p->S->x), -1;
    p->k = k;
    for (size_t j = 0; j < nd; j++) {
        const PgQuery__Node *e = st->distinct_clause[j];
        long col = distinct_on_column(p, typ, e);
        if (col < -1)
            return -1;
        k[ns + j] = (skey){.outcol = col, .expr = col < 0 ? e : NULL};
    }
    bool skipped = false;
    for (size_t i = 0; i < ns; i++) {
        long which = -1;
        for (size_t j = 0; j < nd && which < 0; j++)
            if (same_key(p, typ, &k[i], &k[ns + j]))
                which = (long)j;
        if (which < 0) {
            skipped = true;
            continue;
        }
        if (skipped)
            return distinct_on_mismatch(p, st->distinct_clause[which]);
    }
    for (size_t j = 0; j < nd && skipped; j++) {
        bool in_order_by = false;
        for (size_t i = 0; i < ns && !in_order_by; i++)
            in_order_by = same_key(p, typ, &k[i], &k[ns + j]);
        if (!in_order_by)
            return distinct_on_mismatch(p, st->distinct_clause[j]);
    }
    p->nk = ns + nd;
    return 0;
}

/* Which rows of rs are the first of their kind (all columns equal, NULLs
 * equal): keep[i] set for those. -1 on a failed comparison or no memory. */
static int first_of_each(sel *S, const rl_rowset *rs, bool *keep)
{
    size_t n = rs->nrows;
    size_t *order = calloc(n + 1, sizeof *order);
    if (!order)
        return fail_oom(S->x), -1;
    for (size_t i = 0; i < n; i++)
        order[i] = i;
    group_sort gs = {S, rs->vals, rs->ncols, false};
    qsort_r(order, n, sizeof *order, compare_group_rows, &gs);
    for (size_t i = 0; i < n && !gs.failed; i++) /* a run's first is its lowest row */
        keep[order[i]] = i == 0 || compare_group_keys(&gs, order[i - 1], order[i]) != 0;
    free(order);
    return gs.failed ? -1 : 0;
}

/* The rows of rs with keep[i] set, in their order, into a fresh row set
 * (rs freed); NULL with x->err set, rs left to the caller. */
static rl_rowset *rows_kept(sel *S, rl_rowset *rs, const bool *keep)
{
    rl_rowset *out = rowset_like(rs, NULL);
    if (!out)
        return fail_oom(S->x);
    for (size_t i = 0; i < rs->nrows; i++)
        if (keep[i] && rl_rowset_add(out, rl_rowset_row(rs, i), rs->src ? &rs->src[i] : NULL,
                                     S->x->err) < 0) {
            rl_rowset_free(out);
            return NULL;
        }
    rl_rowset_free(rs);
    return out;
}

/* SELECT DISTINCT: one row of each kind, the first met. */
static rl_rowset *distinct_rows(sel *S, rl_rowset *rs, const tcol *t, size_t nt)
{
    for (size_t c = 0; c < rs->ncols; c++)
        if (rs->cols[c].oid == RL_OID_JSON) /* json values have no equality */
            return rl_exec_error(S->x, RL_SQLSTATE_UNDEFINED_FUNCTION,
                                 c >= nt ? -1 : t[c].expr ? rl_node_location(t[c].expr)
                                                          : t[c].location,
                                 "could not identify an equality operator for type json"),
                   NULL;
    bool *keep = calloc(rs->nrows + 1, sizeof *keep);
    if (!keep)
        return fail_oom(S->x);
    rl_rowset *out = first_of_each(S, rs, keep) == 0 ? rows_kept(S, rs, keep) : NULL;
    free(keep);
    return out;
}

/* ------------------------------------------------------ LIMIT / OFFSET */

static int eval_count(sel *S, const PgQuery__Node *n, const char *what, const char *state,
                      int64_t *out)
{
    *out = -1; /* none */
    if (!n)
        return 0;
    rl_expr_ctx c = make_ctx(S, S->outer, NULL);
    rl_value v;
    if (rl_expr_eval(&c, n, &v) < 0 ||
        rl_value_coerce(&c, &v, RL_OID_INT8, -1, false, &v, rl_node_location(n)) < 0)
        return -1;
    if (v.d.isnull)
        return 0;
    if (v.d.v.i < 0)
        return rl_exec_error(S->x, state, -1, "%s must not be negative", what);
    *out = v.d.v.i;
    return 0;
}

/* Is row perm[i] a repeat of the row kept before it, by the DISTINCT ON
 * keys k[nk .. nk+nd) (NULLs equal)? */
static bool repeats_distinct_on(sort_ctx *sc, size_t kept, size_t row, size_t nd)
{
    rl_expr_ctx c = make_ctx(sc->S, NULL, NULL);
    for (size_t j = 0; j < nd; j++) {
        const rl_value *a = key_value(sc, kept, sc->nk + j), *b = key_value(sc, row, sc->nk + j);
        if (a->d.isnull || b->d.isnull) {
            if (a->d.isnull != b->d.isnull)
                return false;
            continue;
        }
        int r;
        if (rl_value_cmp(&c, a, b, &r, -1) < 0) {
            sc->failed = true;
            return false;
        }
        if (r)
            return false;
    }
    return true;
}

/* Do rows a and b sort alike by the ORDER BY keys (NULLs alike)? */
static bool same_sort_keys(sort_ctx *sc, size_t a, size_t b)
{
    rl_expr_ctx c = make_ctx(sc->S, NULL, NULL);
    for (size_t i = 0; i < sc->nk; i++) {
        const rl_value *va = key_value(sc, a, i), *vb = key_value(sc, b, i);
        int r = 0;
        if (va->d.isnull || vb->d.isnull)
            r = va->d.isnull != vb->d.isnull;
        else if (rl_value_cmp(&c, va, vb, &r, -1) < 0)
            sc->failed = true;
        if (r || sc->failed)
            return false;
    }
    return true;
}

/* Sort by k[0 .. nk) and then the DISTINCT ON keys k[nk .. nk+nd), keep the first row of each run of equal DISTINCT ON keys k[nk .. nk+nd)
 * (none: every row), then OFFSET/LIMIT, into a fresh row set. */
static rl_rowset *finish_rows(sel *S, const PgQuery__SelectStmt *st, rl_rowset *rows,
                              rl_rowset *keys, const skey *k, size_t nk, size_t nd)
{
    int64_t limit, offset;
    if (eval_count(S, st->limit_count, "LIMIT", RL_SQLSTATE_INVALID_ROW_COUNT_IN_LIMIT_CLAUSE,
                   &limit) < 0 ||
        eval_count(S, st->limit_offset, "OFFSET",
                   RL_SQLSTATE_INVALID_ROW_COUNT_IN_RESULT_OFFSET_CLAUSE, &offset) < 0)
        return NULL;
    if (st->limit_option == PG_QUERY__LIMIT_OPTION__LIMIT_OPTION_WITH_TIES && st->limit_count &&
        limit < 0)
        return rl_exec_error(S->x, RL_SQLSTATE_INVALID_ROW_COUNT_IN_LIMIT_CLAUSE, -1,
                             "row count cannot be null in FETCH FIRST ... WITH TIES clause"),
               NULL;
    if (nk == 0 && nd == 0 && limit < 0 && offset <= 0)
        return rows; /* nothing to do: hand the same row set back */
    size_t n = rows->nrows;
    size_t *perm = calloc(n + 1, sizeof *perm);
    if (!perm)
        return fail_oom(S->x);
    for (size_t i = 0; i < n; i++)
        perm[i] = i;
    /* DISTINCT ON keys the ORDER BY leaves out sort after it, as PostgreSQL
     * appends them (the ones it names sort as it says, first) */
    sort_ctx sc = {S, rows, keys, k, nk + nd, false};
    if (sc.nk)
        qsort_r(perm, n, sizeof *perm, compare_rows, &sc);
    sc.nk = nk; /* the DISTINCT ON keys follow the sort keys */
    rl_rowset *out = sc.failed ? NULL : rowset_like(rows, NULL);
    if (!out) {
        free(perm);
        return sc.failed ? NULL : fail_oom(S->x);
    }
    size_t from = offset > 0 ? (size_t)offset : 0, seen = 0, kept = 0;
    bool ties = st->limit_option == PG_QUERY__LIMIT_OPTION__LIMIT_OPTION_WITH_TIES;
    for (size_t i = 0; i < n; i++) {
        if (limit >= 0 && seen >= from + (size_t)limit &&
            !(ties && seen > from && same_sort_keys(&sc, kept, perm[i])))
            break; /* WITH TIES: the rows that sort as the last one go too */
        if (nd && i > 0 && repeats_distinct_on(&sc, kept, perm[i], nd))
            continue;
        if (sc.failed)
            goto fail;
        kept = perm[i];
        if (seen++ < from)
            continue;
        if (rl_rowset_add(out, rl_rowset_row(rows, perm[i]), rows->src ? &rows->src[perm[i]] : NULL,
                          S->x->err) < 0)
            goto fail;
    }
    if (sc.failed)
        goto fail;
    free(perm);
    rl_rowset_free(rows);
    return out;
fail:
    free(perm);
    rl_rowset_free(out);
    return NULL;
}

/* ------------------------------------------------------ MAX fast path */

/* SELECT MAX(k) FROM t, k the first key column of stored table t:
 * 1 answered (*out), 0 not applicable, -1 error. */
static int try_max_fast(sel *S, const PgQuery__SelectStmt *st, rl_rowset **out)
{
    if (st->n_from_clause != 1 || st->where_clause || st->n_group_clause || st->having_clause ||
        st->n_sort_clause || st->limit_count || st->limit_offset || st->n_distinct_clause ||
        st->with_clause || st->n_target_list != 1 || st->n_locking_clause ||
        st->from_clause[0]->node_case != PG_QUERY__NODE__NODE_RANGE_VAR ||
        st->target_list[0]->node_case != PG_QUERY__NODE__NODE_RES_TARGET)
        return 0;
    const PgQuery__ResTarget *rt = st->target_list[0]->res_target;
    const PgQuery__Node *v = rt->val;
    if (!v || v->node_case != PG_QUERY__NODE__NODE_FUNC_CALL)
        return 0;
    const PgQuery__FuncCall *f = v->func_call;
    const char *fname = f->n_funcname ? rl_node_string(f->funcname[f->n_funcname - 1]) : NULL;
    if (!fname || strcmp(fname, "max") != 0 || f->n_args != 1 || f->agg_star ||
        f->agg_distinct || f->agg_filter || f->over || f->n_agg_order ||
        (f->n_funcname == 2 && strcmp(rl_node_string(f->funcname[0]) ? rl_node_string(f->funcname[0]) : "",
                                      "pg_catalog") != 0) ||
        f->args[0]->node_case != PG_QUERY__NODE__NODE_COLUMN_REF)
        return 0;
    const PgQuery__ColumnRef *cr = f->args[0]->column_ref;
    const PgQuery__RangeVar *rv = st->from_clause[0]->range_var;
    const char *alias = rl_range_var_alias(rv);
    if (cr->n_fields < 1 || cr->n_fields > 2 || (rv->alias && rv->alias->n_colnames))
        return 0;
    const char *col = rl_node_string(cr->fields[cr->n_fields - 1]);
    const char *rel = cr->n_fields == 2 ? rl_node_string(cr->fields[0]) : alias;
    if (!col || !rel || strcmp(rel, alias) != 0)
        return 0;
    if ((!rv->schemaname || !rv->schemaname[0]) && find_cte(S->ctes, rv->relname))
        return 0;
    rl_relation relation;
    if (rl_relation_resolve(S->x, rv, &relation) < 0)
        return -1;
    const rl_table_desc *d = relation.desc;
    if (relation.kind != RL_REL_STORED || !d || d->nkey == 0 || d->key[0] < 0)
        return 0;
    rl_format fmt = rl_exec_format(S->x);
    int ci = rl_desc_column_index(d, col, fmt);
    if (ci < 0 || ci != d->key[0])
        return 0;
    rl_value mx;
    int rc = rl_relation_max_key(S->x, &relation, &mx);
    if (rc <= 0)
        return rc;
    rl_rowset *rs = rl_rowset_new(1);
    if (!rs)
        return fail_oom(S->x), -1;
    rl_colmeta *m = &rs->cols[0];
    snprintf(m->name, sizeof m->name, "%s", rt->name && rt->name[0] ? rt->name : "max");
    m->oid = rl_type_oid(d->cols[ci].type);
    m->typmod = -1;
    if (mx.d.isnull)
        mx.oid = m->oid;
    if (rl_rowset_add(rs, &mx, NULL, S->x->err) < 0) {
        rl_rowset_free(rs);
        return -1;
    }
    *out = rs;
    return 1;
}

/* ------------------------------------------------------ FOR UPDATE */

/* FOR UPDATE / NO KEY UPDATE / SHARE / KEY SHARE: PostgreSQL's checks
 * (CheckSelectLocking, the OF list, read-only transactions), after which
 * the lock itself is a no-op here: RockLake's commit-time validation
 * (first committer wins, 40001 for the loser) covers the write conflicts
 * DuckLake cares about, and DuckLake never sends FOR UPDATE. */
static const char *lock_name(const PgQuery__SelectStmt *st)
{
    const PgQuery__Node *n = st->locking_clause[0];
    PgQuery__LockClauseStrength s = n->node_case == PG_QUERY__NODE__NODE_LOCKING_CLAUSE
                                        ? n->locking_clause->strength
                                        : PG_QUERY__LOCK_CLAUSE_STRENGTH__LCS_FORUPDATE;
    switch (s) {
    case PG_QUERY__LOCK_CLAUSE_STRENGTH__LCS_FORKEYSHARE: return "FOR KEY SHARE";
    case PG_QUERY__LOCK_CLAUSE_STRENGTH__LCS_FORSHARE: return "FOR SHARE";
    case PG_QUERY__LOCK_CLAUSE_STRENGTH__LCS_FORNOKEYUPDATE: return "FOR NO KEY UPDATE";
    default: return "FOR UPDATE";
    }
}

/* Is `name` the alias of a FROM item (tables, subqueries, joins' sides)? */
static bool from_has_alias(const PgQuery__Node *n, const char *name)
{
    if (!n)
        return false;
    switch (n->node_case) {
    case PG_QUERY__NODE__NODE_RANGE_VAR: {
        const PgQuery__RangeVar *rv = n->range_var;
        const char *a = rl_range_var_alias(rv);
        return strcmp(a, name) == 0;
    }
    case PG_QUERY__NODE__NODE_RANGE_SUBSELECT:
        return n->range_subselect->alias && strcmp(n->range_subselect->alias->aliasname, name) == 0;
    case PG_QUERY__NODE__NODE_JOIN_EXPR:
        return from_has_alias(n->join_expr->larg, name) || from_has_alias(n->join_expr->rarg, name);
    default:
        return false;
    }
}

static int check_locking(sel *S, const PgQuery__SelectStmt *st, bool aggregated)
{
    if (!st->n_locking_clause)
        return 0;
    const char *what = lock_name(st), *why = NULL;
    if (st->n_distinct_clause)
        why = "DISTINCT clause";
    else if (st->n_group_clause)
        why = "GROUP BY clause";
    else if (st->having_clause)
        why = "HAVING clause";
    else if (aggregated)
        why = "aggregate functions";
    if (why)
        return rl_exec_error(S->x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                             "%s is not allowed with %s",
                             what, why);
    for (size_t i = 0; i < st->n_locking_clause; i++) {
        const PgQuery__Node *n = st->locking_clause[i];
        if (n->node_case != PG_QUERY__NODE__NODE_LOCKING_CLAUSE)
            continue;
        const PgQuery__LockingClause *lc = n->locking_clause;
        for (size_t r = 0; r < lc->n_locked_rels; r++) {
            const PgQuery__Node *rn = lc->locked_rels[r];
            if (rn->node_case != PG_QUERY__NODE__NODE_RANGE_VAR)
                continue;
            bool found = false;
            for (size_t f = 0; f < st->n_from_clause && !found; f++)
                found = from_has_alias(st->from_clause[f], rn->range_var->relname);
            if (!found)
                return rl_exec_error(S->x, RL_SQLSTATE_UNDEFINED_TABLE, rn->range_var->location,
                                     "relation \"%s\" in %s clause not found in FROM clause",
                                     rn->range_var->relname, what);
        }
    }
    if (S->x->s->read_only_txn)
        return rl_exec_error(S->x, RL_SQLSTATE_READ_ONLY_SQL_TRANSACTION, -1,
                             "cannot execute SELECT %s in a read-only transaction",
                             what);
    return 0;
}

/* ------------------------------------------------------ simple SELECT */

/* rl_expr_check_where on `typ`, the typing row of the relation WHERE
 * filters. */
static int check_where(sel *S, rl_rowset *typ, const PgQuery__Node *where)
{
    rl_binding b = {typ, 0, S->outer, NULL};
    rl_expr_ctx c = make_ctx(S, &b, NULL);
    c.clause = "WHERE";
    return rl_expr_check_where(&c, where);
}

/* A WHERE that joins evaluate on real rows (a FROM list's step_quals, a
 * pushed-down join condition) is typed first, on the FROM's shape alone,
 * as PostgreSQL analyzes WHERE before it runs anything: its type errors
 * come before any row's, and COALESCE(NULL, NULL) is text there too. */
static int type_where_first(sel *S, const PgQuery__SelectStmt *st, const PgQuery__Node *where)
{
    if (!where || S->type_only)
        return 0;
    S->type_only = true;
    rl_rowset *shape = from_clause(S, st, where);
    S->type_only = false;
    rl_rowset *typ = shape ? rl_rowset_typing(shape, S->x->err) : NULL;
    int rc = typ ? check_where(S, typ, where) : -1;
    rl_rowset_free(typ);
    rl_rowset_free(shape);
    return rc;
}

static int filter_rows(sel *S, rl_rowset *in, const PgQuery__Node *where, size_t **keep,
                       size_t *nkeep)
{
    const PgQuery__Node *conds[MAX_PUSHED];
    size_t nconds = where ? residual_where(S->pushed, in, where, conds, MAX_PUSHED) : 0;
    size_t *k = calloc(in->nrows + 1, sizeof *k), n = 0;
    if (!k)
        return fail_oom(S->x), -1;
    for (size_t i = 0; i < in->nrows; i++) {
        if ((i & 255) == 0 && nconds && rl_exec_check_cancel(S->x) < 0) {
            free(k);
            return -1;
        }
        rl_binding b = {in, i, S->outer, NULL};
        rl_expr_ctx c = make_ctx(S, &b, NULL);
        int t = 1;
        for (size_t q = 0; q < nconds && t > 0; q++)
            t = rl_expr_truth(&c, conds[q]);
        if (t < 0) {
            free(k);
            return -1;
        }
        if (t)
            k[n++] = i;
    }
    *keep = k;
    *nkeep = n;
    return 0;
}

/* The window calls of the target list and ORDER BY, computed over the
 * rows WHERE kept (none on a typing run: their types only; over grouped
 * rows, project_groups computes them); from here on the level's
 * expressions read them (S->win). */
static int window_values(sel *S, const PgQuery__SelectStmt *st, proj *p, rl_rowset *typ,
                         bool aggregated, const size_t *keep, size_t nkeep, rl_window_values *win)
{
    rl_expr_ctx base = make_ctx(S, S->outer, NULL);
    /* over grouped rows: their types now, their values once the groups are
     * made (project_groups) */
    size_t n = S->type_only || aggregated ? 0 : nkeep;
    if (rl_window_compute(S->x, st, p->in, typ, keep, n, NULL, aggregated, S->outer, &S->arena,
                          &base, win) < 0)
        return -1;
    S->win = win;
    p->win = win;
    return 0;
}

/* Window specifications (PARTITION BY / ORDER BY of an OVER or a WINDOW
 * clause) are PostgreSQL's transformWindowDefinitions, after WHERE; the
 * window functions' arguments are part of the target list, before it. */
typedef struct spec_walk {
    rl_expr_ctx *c;
    bool failed;
} spec_walk;

static int spec_exprs(spec_walk *w, const PgQuery__WindowDef *d)
{
    rl_value v;
    for (size_t k = 0; !w->failed && k < d->n_partition_clause; k++)
        w->failed = rl_expr_eval(w->c, d->partition_clause[k], &v) < 0;
    for (size_t k = 0; !w->failed && k < d->n_order_clause; k++) {
        const PgQuery__Node *o = d->order_clause[k];
        if (o->node_case == PG_QUERY__NODE__NODE_SORT_BY)
            o = o->sort_by->node;
        w->failed = rl_expr_eval(w->c, o, &v) < 0;
    }
    return w->failed ? -1 : 0;
}

static int visit_specs(void *ctx, const ProtobufCMessage *m)
{
    spec_walk *w = ctx;
    if (m->descriptor != &pg_query__node__descriptor)
        return 0;
    const PgQuery__Node *n = (const PgQuery__Node *)m;
    if (n->node_case == PG_QUERY__NODE__NODE_SUB_LINK)
        return 1;
    if (n->node_case == PG_QUERY__NODE__NODE_FUNC_CALL && n->func_call->over)
        return spec_exprs(w, n->func_call->over) < 0 ? -1 : 0;
    return 0;
}

/* window_values failed: when the error is in a window specification (it
 * fails again evaluated alone) and WHERE has an analysis error of its own,
 * WHERE's is the one PostgreSQL reports. x's error is left as it should be. */
static void window_spec_order(sel *S, const PgQuery__SelectStmt *st, rl_rowset *in,
                              rl_rowset *typ, bool aggregated)
{
    if (!st->where_clause)
        return;
    rl_error first = *S->x->err;
    rl_binding b = {typ, 0, S->outer, NULL};
    rl_agg_ctx agg = {in, NULL, 0, S->outer};
    rl_expr_ctx c = make_ctx(S, &b, aggregated ? &agg : NULL);
    c.typing = true;
    spec_walk w = {&c, false};
    rl_error_clear(S->x->err);
    for (size_t i = 0; !w.failed && i < st->n_target_list; i++)
        rl_tree_walk(&st->target_list[i]->base, visit_specs, &w);
    for (size_t i = 0; !w.failed && i < st->n_window_clause; i++)
        if (st->window_clause[i]->node_case == PG_QUERY__NODE__NODE_WINDOW_DEF)
            spec_exprs(&w, st->window_clause[i]->window_def);
    rl_error_clear(S->x->err);
    if (w.failed && check_where(S, typ, st->where_clause) < 0)
        return; /* WHERE's error stands */
    *S->x->err = first;
}

/* The clauses after WHERE, typed on the typing row in the order
 * PostgreSQL's transformSelectStmt transforms them: HAVING, ORDER BY,
 * GROUP BY, DISTINCT [ON], OFFSET, LIMIT. Grouping sets are left to the
 * run (their GROUPING() needs the sets). */
static int check_clauses(proj *p, rl_rowset *typ, bool aggregated)
{
    sel *S = p->S;
    const PgQuery__SelectStmt *st = p->st;
    bool sets = has_grouping_sets(st);
    bool *none = calloc(st->n_group_clause + 1, sizeof *none);
    if (!none)
        return fail_oom(S->x), -1;
    rl_grouping g = {(const PgQuery__Node *const *)st->group_clause, st->n_group_clause, none,
                     false};
    S->grouping = sets ? NULL : &g;
    rl_binding b = {typ, 0, S->outer, NULL};
    rl_agg_ctx agg = {p->in, NULL, 0, S->outer};
    rl_expr_ctx c = make_ctx(S, &b, aggregated ? &agg : NULL), row = make_ctx(S, &b, NULL);
    c.typing = row.typing = true;
    rl_value v;
    c.clause = "HAVING";
    int rc = sets ? 0 : rl_expr_check_where(&c, st->having_clause);
    c.clause = NULL;
    if (rc == 0)
        rc = plan_sort(S, st, p->out->cols, p->nt, p->t, false, &p->k);
    p->nk = p->k ? st->n_sort_clause : 0;
    for (size_t i = 0; rc == 0 && !sets && i < p->nk; i++) {
        const PgQuery__Node *key = st->sort_clause[i]->sort_by->node;
        if (p->k[i].expr)
            rc = rl_expr_eval(&c, p->k[i].expr, &v);
        uint32_t oid = p->k[i].expr ? v.oid : p->out->cols[p->k[i].outcol].oid;
        if (rc == 0)
            rc = rl_sortable_type(S->x, oid, true, rl_node_location(key));
    }
    for (size_t i = 0; rc == 0 && !sets && i < st->n_group_clause; i++) {
        rc = check_position(S, st->group_clause[i], p->nt, "GROUP BY");
        const PgQuery__Node *key = group_expr(p, st->group_clause[i]);
        if (rc == 0)
            rc = rl_expr_eval(&row, key, &v);
        if (rc == 0)
            rc = rl_sortable_type(S->x, v.oid, false, rl_node_location(key));
    }
    for (size_t i = 0; rc == 0 && !plain_distinct(st) && i < st->n_distinct_clause; i++) {
        const PgQuery__Node *key = st->distinct_clause[i];
        long col = distinct_on_column(p, typ, key);
        if (col == -2)
            continue; /* plan_distinct_on below reports it */
        if (col == -1)
            rc = rl_expr_eval(&c, key, &v);
        if (rc == 0)
            rc = rl_sortable_type(S->x, col >= 0 ? p->out->cols[col].oid : v.oid, false,
                                  rl_node_location(key));
    }
    if (rc == 0 && st->n_distinct_clause)
        rc = plain_distinct(st) ? distinct_sort_keys(p, typ) : plan_distinct_on(p, typ);
    S->grouping = NULL;
    free(none);
    const PgQuery__Node *counts[2] = {st->limit_offset, st->limit_count};
    for (size_t i = 0; rc == 0 && i < 2; i++)
        if (counts[i] && (rl_expr_eval(&row, counts[i], &v) < 0 ||
                          rl_value_coerce(&row, &v, RL_OID_INT8, -1, false, &v,
                                          rl_node_location(counts[i])) < 0))
            rc = -1;
    /* the WINDOW clause, used or not (transformWindowDefinitions) */
    for (size_t i = 0; rc == 0 && i < st->n_window_clause; i++) {
        const PgQuery__Node *n = st->window_clause[i];
        if (n->node_case != PG_QUERY__NODE__NODE_WINDOW_DEF)
            continue;
        const PgQuery__WindowDef *w = n->window_def;
        for (size_t k = 0; rc == 0 && k < w->n_partition_clause; k++)
            rc = rl_expr_eval(&c, w->partition_clause[k], &v);
        for (size_t k = 0; rc == 0 && k < w->n_order_clause; k++) {
            const PgQuery__Node *o = w->order_clause[k];
            if (o->node_case == PG_QUERY__NODE__NODE_SORT_BY)
                o = o->sort_by->node;
            rc = rl_expr_eval(&c, o, &v);
        }
    }
    return rc;
}

/* A typing run of one level (S->type_only): its result columns, with the
 * checks PostgreSQL's analyzer makes, in its order: FROM, the target list,
 * WHERE, check_clauses, then the locking clause and grouping (42803). A
 * statement's errors are the ones it would report, whichever clauses hold
 * them. */
static rl_rowset *type_level(sel *S, const PgQuery__SelectStmt *st)
{
    proj p = {.S = S, .st = st, .defer_folding = true};
    rl_rowset *typ = NULL, *result = NULL;
    rl_colmeta *meta = NULL;
    rl_window_values win;
    size_t nokeep = 0;
    bool aggregated = st->n_group_clause || st->having_clause ||
                      any_aggregate(st->target_list, st->n_target_list) ||
                      any_aggregate(st->sort_clause, st->n_sort_clause);
    p.in = from_clause(S, st, NULL); /* WHERE's literals are checked after the targets */
    if (!p.in)
        return NULL;
    if (!(typ = rl_rowset_typing(p.in, S->x->err)) ||
        plan_targets(S, st, p.in, &p.t, &meta, &p.nt) < 0)
        goto done;
    if (!(p.out = rl_rowset_new(p.nt))) {
        fail_oom(S->x);
        goto done;
    }
    memcpy(p.out->cols, meta, p.nt * sizeof *meta);
    if (rl_window_present(st) && window_values(S, st, &p, typ, aggregated, &nokeep, 0, &win) < 0) {
        window_spec_order(S, st, p.in, typ, aggregated);
        goto done;
    }
    if (type_targets(&p, typ, aggregated) < 0 || check_where(S, typ, st->where_clause) < 0 ||
        check_clauses(&p, typ, aggregated) < 0 || check_locking(S, st, aggregated) < 0 ||
        (aggregated && check_ungrouped(&p, typ) < 0))
        goto done;
    if (p.folded_failed) {
        *S->x->err = p.folded;
        goto done;
    }
    resolve_keyed_unknowns(st, p.out);
    result = p.out;
    p.out = NULL;
done:
    rl_rowset_free(p.out);
    rl_rowset_free(p.in);
    rl_rowset_free(typ);
    free(p.t);
    free(p.k);
    free(meta);
    return result;
}

/* Does analyzing st before running it change which error comes first?
 * Only when a clause after the first target is there to fail (a later
 * target's 42703 comes before an earlier one's 1/0, folding_error). */
static bool clauses_after_targets(const PgQuery__SelectStmt *st)
{
    return st->where_clause || st->having_clause || st->n_group_clause || st->n_sort_clause ||
           st->n_distinct_clause || st->limit_count || st->limit_offset || st->n_target_list > 1 ||
           st->n_window_clause;
}

/* PostgreSQL analyzes a statement whole before it runs any of it: a level
 * that no outer row binds is typed first (type_level), so an error in its
 * target list comes before one in its WHERE, and every analysis error
 * before any row's. A subquery with outer references was typed with the
 * statement around it. */
static int analyze_first(sel *S, const PgQuery__SelectStmt *st)
{
    if (S->type_only || S->outer || !clauses_after_targets(st))
        return 0;
    S->type_only = true;
    rl_rowset *t = type_level(S, st);
    S->type_only = false;
    rl_rowset_free(t);
    return t ? 0 : -1;
}

static rl_rowset *run_simple(sel *S, const PgQuery__SelectStmt *st)
{
    rl_rowset *fast = NULL;
    int fr = try_max_fast(S, st, &fast);
    if (fr != 0)
        return fr > 0 ? fast : NULL;
    if (st->into_clause)
        return rl_exec_error(S->x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                             "SELECT INTO is not supported"),
               NULL;
    if (S->type_only)
        return type_level(S, st);
    if (analyze_first(S, st) < 0)
        return NULL;
    const PgQuery__Node *where = st->where_clause;
    if (st->n_from_clause == 1 && st->from_clause[0]->node_case == PG_QUERY__NODE__NODE_RANGE_VAR &&
        presolve_where(S, st->where_clause, &where) < 0)
        return NULL;
    proj p = {.S = S, .st = st};
    rl_rowset *typ = NULL, *result = NULL;
    size_t *keep = NULL, nkeep = 0;
    rl_colmeta *meta = NULL;
    name_set need = {0}, out_need = {0};
    pushed_log pushed = {.n = 0};
    pushed_log *was_pushed_log = S->pushed;
    rl_window_values win;
    if (from_has_join(st)) {
        need_walk(&st->base, &need);
        if (!need.all)
            S->need = &need;
        if (st->n_from_clause == 1 && need_after_from(st, &out_need))
            S->out_need = &out_need;
    }
    int typed = 0;
    if (from_has_join(st) || st->n_from_clause > 1) {
        S->join_where = where;
        typed = type_where_first(S, st, where);
    }
    S->pushed = &pushed;
    p.in = typed < 0 ? NULL : from_clause(S, st, where);
    S->need = NULL;
    S->out_need = NULL;
    S->join_where = NULL;
    free(need.names);
    free(out_need.names);
    if (!p.in) {
        S->pushed = was_pushed_log;
        return NULL;
    }
    int fr_rc = (typ = rl_rowset_typing(p.in, S->x->err)) ? check_where(S, typ, where) : -1;
    if (fr_rc == 0)
        fr_rc = filter_rows(S, p.in, where, &keep, &nkeep);
    S->pushed = was_pushed_log;
    if (fr_rc < 0)
        goto done;
    if (plan_targets(S, st, p.in, &p.t, &meta, &p.nt) < 0)
        goto done;
    p.out = rl_rowset_new(p.nt);
    p.row = calloc(p.nt + 1, sizeof *p.row);
    if (!p.out || !p.row) {
        fail_oom(S->x);
        goto done;
    }
    memcpy(p.out->cols, meta, p.nt * sizeof *meta);
    bool aggregated = st->n_group_clause || st->having_clause ||
                      any_aggregate(st->target_list, st->n_target_list) ||
                      any_aggregate(st->sort_clause, st->n_sort_clause);
    if (rl_window_present(st) && window_values(S, st, &p, typ, aggregated, keep, nkeep, &win) < 0)
        goto done;
    if (type_targets(&p, typ, aggregated) < 0 || check_locking(S, st, aggregated) < 0 ||
        (aggregated && check_ungrouped(&p, typ) < 0))
        goto done;
    resolve_keyed_unknowns(st, p.out);
    if (plan_sort(S, st, p.out->cols, p.nt, p.t, false, &p.k) < 0)
        goto done;
    p.nk = st->n_sort_clause;
    if (plain_distinct(st) && distinct_sort_keys(&p, typ) < 0)
        goto done;
    if (st->n_distinct_clause && !plain_distinct(st) && plan_distinct_on(&p, typ) < 0)
        goto done;
    p.keys = rl_rowset_new(p.nk);
    p.krow = calloc(p.nk + 1, sizeof *p.krow);
    if (!p.keys || !p.krow) {
        fail_oom(S->x);
        goto done;
    }
    if (plan_srfs(&p) < 0)
        goto done;
    if (aggregated) {
        if (project_grouped(&p, typ, keep, nkeep) < 0)
            goto done;
    } else {
        for (size_t i = 0; i < nkeep; i++) {
            rl_binding b = {p.in, keep[i], S->outer, NULL};
            if (project_one(&p, &b, NULL, p.in->src ? &p.in->src[keep[i]] : NULL) < 0)
                goto done;
        }
    }
    if (plain_distinct(st)) { /* its sort keys are output columns now */
        rl_rowset *d = distinct_rows(S, p.out, p.t, p.nt);
        if (!d)
            goto done;
        p.out = d;
    }
    result = finish_rows(S, st, p.out, p.keys, p.k, st->n_sort_clause, p.nk - st->n_sort_clause);
    if (result)
        p.out = NULL; /* consumed (or returned as is) */
done:
    if (p.out != result)
        rl_rowset_free(p.out);
    rl_rowset_free(p.keys);
    rl_rowset_free(p.in);
    rl_rowset_free(typ);
    free(p.t);
    free(p.k);
    free(p.row);
    free(p.krow);
    free(p.srf);
    free(meta);
    free(keep);
    return result;
}

/* ------------------------------------------- UNION / INTERSECT / EXCEPT */

static int union_location(const PgQuery__SelectStmt *st)
{
    if (st->n_target_list && st->target_list[0]->node_case == PG_QUERY__NODE__NODE_RES_TARGET)
        return st->target_list[0]->res_target->location;
    return -1;
}

/* Where column j of a set operation's branch is written (its first
 * SELECT's j-th target, a VALUES' first row's j-th value), -1 if nowhere
 * (a *): what PostgreSQL's errors on the column point at. */
static int setop_column_location(const PgQuery__SelectStmt *st, size_t j)
{
    while (st->larg)
        st = st->larg;
    if (st->n_values_lists) {
        const PgQuery__Node *row = st->values_lists[0];
        if (row->node_case == PG_QUERY__NODE__NODE_LIST && j < row->list->n_items)
            return rl_node_location(row->list->items[j]);
        return -1;
    }
    if (j >= st->n_target_list || st->target_list[j]->node_case != PG_QUERY__NODE__NODE_RES_TARGET)
        return -1;
    return rl_node_location(st->target_list[j]->res_target->val);
}

static const char *setop_name(const PgQuery__SelectStmt *st)
{
    return st->op == PG_QUERY__SET_OPERATION__SETOP_UNION       ? "UNION"
           : st->op == PG_QUERY__SET_OPERATION__SETOP_INTERSECT ? "INTERSECT"
                                                                : "EXCEPT";
}

/* How many copies of a kind of row a set operation outputs, given how many
 * its left and right inputs hold (SQL's multiset rules). */
static size_t setop_copies(const PgQuery__SelectStmt *st, size_t left, size_t right)
{
    switch (st->op) {
    case PG_QUERY__SET_OPERATION__SETOP_UNION:
        return st->all ? left + right : left + right > 0;
    case PG_QUERY__SET_OPERATION__SETOP_INTERSECT:
        return st->all ? (left < right ? left : right) : left > 0 && right > 0;
    default: /* EXCEPT */
        return st->all ? (left > right ? left - right : 0) : left > 0 && right == 0;
    }
}

/* out holds the left input's nleft rows, then the right input's: keep
 * each kind of row as often as the operation says (the first rows of the
 * kind, in their order). UNION ALL keeps everything and does not come here. */
static rl_rowset *setop_rows(sel *S, const PgQuery__SelectStmt *st, rl_rowset *out, size_t nleft)
{
    size_t n = out->nrows;
    bool *keep = calloc(n + 1, sizeof *keep);
    size_t *order = calloc(n + 1, sizeof *order);
    rl_rowset *res = NULL;
    if (!keep || !order) {
        fail_oom(S->x);
        goto done;
    }
    for (size_t i = 0; i < n; i++)
        order[i] = i;
    group_sort gs = {S, out->vals, out->ncols, false};
    qsort_r(order, n, sizeof *order, compare_group_rows, &gs);
    for (size_t i = 0; i < n && !gs.failed;) {
        size_t j = i, left = 0;
        while (j < n && (j == i || compare_group_keys(&gs, order[i], order[j]) == 0)) {
            left += order[j] < nleft;
            j++;
        }
        size_t copies = setop_copies(st, left, (j - i) - left);
        for (size_t k = i; k < j && copies; k++, copies--) /* rows of a run in input order */
            keep[order[k]] = true;
        i = j;
    }
    if (!gs.failed)
        res = rows_kept(S, out, keep);
done:
    free(keep);
    free(order);
    return res;
}

static rl_rowset *run_union(sel *S, const PgQuery__SelectStmt *st)
{
    rl_rowset *l = run_raw(S->x, st->larg, S->outer, S->ctes);
    if (!l)
        return NULL;
    rl_rowset *r = run_raw(S->x, st->rarg, S->outer, S->ctes);
    if (!r) {
        rl_rowset_free(l);
        return NULL;
    }
    rl_rowset *out = NULL;
    skey *k = NULL;
    if (l->ncols != r->ncols) {
        const PgQuery__SelectStmt *rs = st->rarg;
        while (rs->larg)
            rs = rs->larg;
        rl_exec_error(S->x, RL_SQLSTATE_SYNTAX_ERROR, union_location(rs),
                      "each %s query must have the same number of columns", setop_name(st));
        goto done;
    }
    out = rowset_like(l, "");
    if (!out) {
        fail_oom(S->x);
        goto done;
    }
    rl_expr_ctx tc = make_ctx(S, NULL, NULL);
    for (size_t j = 0; j < out->ncols; j++) {
        if (rl_common_type_of(&tc, l->cols[j].oid, r->cols[j].oid, setop_name(st),
                              setop_column_location(st->rarg, j), &out->cols[j].oid) < 0)
            goto fail;
        if (l->cols[j].oid != r->cols[j].oid) { /* a computed column now */
            out->cols[j].table_oid = 0;
            out->cols[j].attnum = 0;
            out->cols[j].typmod = -1;
        }
    }
    /* all but UNION ALL compare the rows: every column needs equality */
    for (size_t j = 0; !(st->op == PG_QUERY__SET_OPERATION__SETOP_UNION && st->all) &&
                       j < out->ncols; j++)
        if (rl_sortable_type(S->x, out->cols[j].oid, false, setop_column_location(st->larg, j)) < 0)
            goto fail;
    rl_expr_ctx c = make_ctx(S, NULL, NULL);
    rl_rowset *parts[2] = {l, r};
    rl_value *row = calloc(out->ncols + 1, sizeof *row);
    if (!row) {
        fail_oom(S->x);
        goto fail;
    }
    for (int p = 0; p < 2; p++)
        for (size_t i = 0; i < parts[p]->nrows; i++) {
            for (size_t j = 0; j < out->ncols; j++) {
                const rl_value *v = &rl_rowset_row(parts[p], i)[j];
                int loc = setop_column_location(p ? st->rarg : st->larg, j);
                if (rl_value_coerce(&c, v, out->cols[j].oid, -1, false, &row[j], loc) < 0) {
                    free(row);
                    goto fail;
                }
            }
            if (rl_rowset_add(out, row, NULL, S->x->err) < 0) {
                free(row);
                goto fail;
            }
        }
    free(row);
    if (!(st->op == PG_QUERY__SET_OPERATION__SETOP_UNION && st->all)) {
        rl_rowset *kept = setop_rows(S, st, out, l->nrows);
        if (!kept)
            goto fail;
        out = kept;
    }
    if (plan_sort(S, st, out->cols, out->ncols, NULL, true, &k) < 0)
        goto fail;
    rl_rowset *fin = finish_rows(S, st, out, NULL, k, st->n_sort_clause, 0);
    if (!fin)
        goto fail;
    out = fin;
    goto done;
fail:
    rl_rowset_free(out);
    out = NULL;
done:
    free(k);
    rl_rowset_free(l);
    rl_rowset_free(r);
    return out;
}

/* ------------------------------------------------------ entry points */

/* A WITH query's columns take its column list's names (42P10 when it lists
 * more than there are) and its name as their relation. */
static int name_cte_columns(rl_exec *x, const PgQuery__CommonTableExpr *cte, rl_rowset *rs)
{
    resolve_unknown(rs);
    if (cte->n_aliascolnames > rs->ncols)
        return rl_exec_error(x, RL_SQLSTATE_INVALID_COLUMN_REFERENCE, cte->location,
                             "WITH query \"%s\" has %zu columns available but %zu columns "
                             "specified",
                             cte->ctename, rs->ncols, cte->n_aliascolnames);
    for (size_t j = 0; j < rs->ncols; j++) {
        snprintf(rs->cols[j].rel, sizeof rs->cols[j].rel, "%s", cte->ctename);
        const char *cn = j < cte->n_aliascolnames ? rl_node_string(cte->aliascolnames[j]) : NULL;
        if (cn)
            snprintf(rs->cols[j].name, sizeof rs->cols[j].name, "%s", cn);
    }
    rl_rowset_cols_changed(rs);
    return 0;
}

typedef struct relation_ref {
    const char *name;
    int location; /* of the first reference found */
} relation_ref;

static int names_relation(void *ctx, const ProtobufCMessage *m)
{
    relation_ref *ref = ctx;
    if (m->descriptor != &pg_query__range_var__descriptor)
        return 0;
    const PgQuery__RangeVar *rv = (const PgQuery__RangeVar *)m;
    if ((rv->schemaname && rv->schemaname[0]) || strcmp(rv->relname, ref->name) != 0)
        return 0;
    ref->location = rv->location;
    return -1;
}

/* Where the tree reads a relation of this name (a WITH query naming
 * itself), -2 if it does not (-1: a reference without a location). */
static int relation_reference(const ProtobufCMessage *m, const char *name)
{
    relation_ref ref = {name, -2};
    rl_tree_walk(m, names_relation, &ref);
    return ref.location;
}

/* Does the tree read a relation of this name? */
static bool reads_relation(const ProtobufCMessage *m, const char *name)
{
    return relation_reference(m, name) != -2;
}

/* Rows of `next` (the recursive term's output) not yet in `all` nor
 * earlier in next (UNION without ALL), as a fresh row set; next freed. */
static rl_rowset *new_rows_only(sel *S, rl_rowset *all, rl_rowset *next)
{
    size_t na = all->nrows, n = na + next->nrows;
    rl_rowset *both = rowset_like(all, NULL);
    bool *keep = calloc(n + 1, sizeof *keep);
    rl_rowset *out = NULL;
    int rc = both && keep ? 0 : (fail_oom(S->x), -1);
    for (size_t i = 0; rc == 0 && i < n; i++)
        rc = rl_rowset_add(both, rl_rowset_row(i < na ? all : next, i < na ? i : i - na), NULL,
                           S->x->err);
    if (rc == 0)
        rc = first_of_each(S, both, keep);
    if (rc == 0 && (out = rowset_like(next, NULL)))
        for (size_t i = na; i < n && out; i++)
            if (keep[i] && rl_rowset_add(out, rl_rowset_row(both, i), NULL, S->x->err) < 0) {
                rl_rowset_free(out);
                out = NULL;
            }
    if (rc == 0 && !out)
        fail_oom(S->x);
    free(keep);
    rl_rowset_free(both);
    rl_rowset_free(next);
    return out;
}

/* The recursive term's output in the types of the non-recursive term's
 * columns: PostgreSQL's 42804 when a column's type differs. */
static int check_recursive_types(rl_exec *x, const PgQuery__CommonTableExpr *cte,
                                 const rl_rowset *all, const rl_rowset *next)
{
    if (next->ncols != all->ncols)
        return rl_exec_error(x, RL_SQLSTATE_SYNTAX_ERROR, -1,
                             "each UNION query must have the same number of columns");
    for (size_t j = 0; j < all->ncols; j++)
        if (next->cols[j].oid != all->cols[j].oid && next->cols[j].oid != RL_OID_UNKNOWN) {
            rl_exec_error(x, RL_SQLSTATE_DATATYPE_MISMATCH,
                          setop_column_location(cte->ctequery->select_stmt->larg, j),
                          "recursive query \"%s\" column %zu has type %s in non-recursive "
                          "term but type %s overall",
                          cte->ctename, j + 1, rl_oid_type_name(all->cols[j].oid),
                          rl_oid_type_name(next->cols[j].oid));
            rl_error_hint(x->err, "Cast the output of the non-recursive term to the correct type.");
            return -1;
        }
    return 0;
}

/* Rounds a recursive WITH query may take: a recursion without end (which
 * PostgreSQL runs only as far as an outer LIMIT reads) fails in seconds
 * with 54000 instead of running until its rows fill the result budget. */
#define RL_RECURSION_ROUNDS_MAX 1000000

/* WITH RECURSIVE name AS (non-recursive term UNION [ALL] recursive term):
 * the first term's rows, then the second's run on the rows the last round
 * added (the working table, bound to the name) until a round adds none.
 * Everything is held (the statement's result budget and
 * RL_RECURSION_ROUNDS_MAX bound it: a recursion without end fails with
 * 54000, where PostgreSQL would stop at an outer LIMIT). */
static rl_rowset *run_recursive_cte(rl_exec *x, const PgQuery__CommonTableExpr *cte,
                                    const rl_binding *outer, const cte_env *env, bool type_only)
{
    const PgQuery__SelectStmt *st = cte->ctequery->select_stmt;
    int self_loc = st->op == PG_QUERY__SET_OPERATION__SETOP_UNION && st->larg && st->rarg
                       ? relation_reference(&st->larg->base, cte->ctename)
                       : -2;
    if (self_loc != -2)
        return rl_exec_error(x, RL_SQLSTATE_INVALID_RECURSION, self_loc,
                             "recursive reference to query \"%s\" must not appear within its "
                             "non-recursive term",
                             cte->ctename),
               NULL;
    if (st->op != PG_QUERY__SET_OPERATION__SETOP_UNION || !st->larg || !st->rarg)
        return rl_exec_error(x, RL_SQLSTATE_INVALID_RECURSION, cte->location,
                             "recursive query \"%s\" does not have the form non-recursive-term "
                             "UNION [ALL] recursive-term",
                             cte->ctename),
               NULL;
    rl_rowset *all = run_raw_mode(x, st->larg, outer, env, type_only);
    if (!all || name_cte_columns(x, cte, all) < 0) {
        rl_rowset_free(all);
        return NULL;
    }
    if (type_only)
        return all;
    sel S = {.x = x, .outer = outer, .ctes = env};
    bool failed = false;
    rl_rowset *work = rowset_clone(x, all, cte->ctename);
    failed = !work;
    for (size_t round = 1; !failed && work->nrows > 0; round++) {
        if (round > RL_RECURSION_ROUNDS_MAX) {
            rl_exec_error(x, RL_SQLSTATE_PROGRAM_LIMIT_EXCEEDED, cte->location,
                          "recursive query \"%s\" did not end after %d rounds", cte->ctename,
                          RL_RECURSION_ROUNDS_MAX);
            rl_error_hint(x->err, "Give the recursive term a condition that ends it; RockLake "
                                  "does not stop a recursion at an outer LIMIT.");
            failed = true;
            break;
        }
        cte_env self = {cte->ctename, work, env, false};
        rl_rowset *next = rl_exec_check_cancel(x) < 0 ? NULL : run_raw(x, st->rarg, outer, &self);
        rl_rowset_free(work);
        work = NULL;
        failed = !next || check_recursive_types(x, cte, all, next) < 0;
        if (!failed && !st->all)
            failed = !(next = new_rows_only(&S, all, next));
        for (size_t i = 0; !failed && i < next->nrows; i++)
            failed = rl_rowset_add(all, rl_rowset_row(next, i), NULL, x->err) < 0;
        if (!failed) { /* the next round reads it by the WITH query's column names */
            for (size_t j = 0; j < next->ncols; j++)
                next->cols[j] = all->cols[j];
            rl_rowset_cols_changed(next);
        }
        if (failed)
            rl_rowset_free(next);
        else
            work = next;
    }
    rl_arena_free(&S.arena);
    rl_rowset_free(work);
    if (failed) {
        rl_rowset_free(all);
        return NULL;
    }
    return all;
}

/* type_only: a typing run, which needs the CTEs' columns, not their rows.
 * A WITH query that nothing in st names is only typed, as unreached code
 * (rl_exec.unreached): PostgreSQL checks it but never plans nor runs it. */
static int bind_ctes(rl_exec *x, const PgQuery__SelectStmt *st, const rl_binding *outer,
                     cte_env *envs, const cte_env *base, const cte_env **top, bool type_only)
{
    const PgQuery__WithClause *w = st->with_clause;
    const cte_env *env = base;
    for (size_t i = 0; i < w->n_ctes; i++) {
        const PgQuery__Node *n = w->ctes[i];
        if (n->node_case != PG_QUERY__NODE__NODE_COMMON_TABLE_EXPR)
            return rl_exec_error(x, RL_SQLSTATE_SYNTAX_ERROR, -1, "malformed WITH");
        const PgQuery__CommonTableExpr *cte = n->common_table_expr;
        if (!cte->ctequery || cte->ctequery->node_case != PG_QUERY__NODE__NODE_SELECT_STMT)
            return rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, cte->location,
                                 "WITH with data-modifying statements is not supported");
        rl_rowset *rs;
        if (w->recursive && reads_relation(&cte->ctequery->base, cte->ctename)) {
            if (!(rs = run_recursive_cte(x, cte, outer, env, type_only)))
                return -1;
        } else {
            bool unused = !reads_relation(&st->base, cte->ctename);
            x->unreached += unused;
            rs = run_raw_mode(x, cte->ctequery->select_stmt, outer, env, type_only || unused);
            x->unreached -= unused;
            if (!rs)
                return -1;
            if (name_cte_columns(x, cte, rs) < 0) {
                rl_rowset_free(rs);
                return -1;
            }
        }
        envs[i] = (cte_env){cte->ctename, rs, env, false};
        env = &envs[i];
    }
    *top = env;
    return 0;
}

static rl_rowset *run_raw(rl_exec *x, const PgQuery__SelectStmt *st, const rl_binding *outer,
                          const cte_env *ctes)
{
    return run_raw_mode(x, st, outer, ctes, false);
}

static rl_rowset *run_raw_mode(rl_exec *x, const PgQuery__SelectStmt *st,
                               const rl_binding *outer, const cte_env *ctes, bool type_only)
{
    if (!st)
        return rl_exec_error(x, RL_SQLSTATE_SYNTAX_ERROR, -1, "missing query"), NULL;
    if (rl_exec_check_stack(x) < 0)
        return NULL;
    sel S = {.x = x, .outer = outer, .ctes = ctes, .type_only = type_only};
    cte_env *envs = NULL;
    size_t nenv = 0;
    if (st->with_clause) {
        nenv = st->with_clause->n_ctes;
        envs = calloc(nenv + 1, sizeof *envs);
        if (!envs)
            return fail_oom(x);
        if (bind_ctes(x, st, outer, envs, ctes, &S.ctes, type_only) < 0) {
            for (size_t i = 0; i < nenv; i++)
                rl_rowset_free(envs[i].rs);
            free(envs);
            return NULL;
        }
    }
    rl_rowset *rs;
    bool setop = st->op == PG_QUERY__SET_OPERATION__SETOP_UNION ||
                 st->op == PG_QUERY__SET_OPERATION__SETOP_INTERSECT ||
                 st->op == PG_QUERY__SET_OPERATION__SETOP_EXCEPT;
    if (st->n_locking_clause && (setop || st->n_values_lists)) {
        rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                      setop ? "%s is not allowed with UNION/INTERSECT/EXCEPT"
                            : "%s cannot be applied to VALUES",
                      lock_name(st));
        rs = NULL;
    } else if (setop)
        rs = run_union(&S, st);
    else if (st->n_values_lists) {
        rs = rl_values_run(x, st, NULL, NULL, 0);
        if (rs && (st->n_sort_clause || st->limit_count || st->limit_offset)) {
            skey *k = NULL;
            if (plan_sort(&S, st, rs->cols, rs->ncols, NULL, true, &k) < 0) {
                rl_rowset_free(rs);
                rs = NULL;
            } else {
                rl_rowset *fin = finish_rows(&S, st, rs, NULL, k, st->n_sort_clause, 0);
                if (!fin)
                    rl_rowset_free(rs);
                rs = fin;
            }
            free(k);
        }
    } else
        rs = run_simple(&S, st);
    for (size_t i = 0; i < nenv; i++)
        rl_rowset_free(envs[i].rs);
    free(envs);
    rl_arena_free(&S.arena);
    return rs;
}

rl_rowset *rl_select_run(rl_exec *x, const PgQuery__SelectStmt *st, const rl_binding *outer)
{
    rl_rowset *rs = run_raw(x, st, outer, NULL);
    if (rs)
        resolve_unknown(rs);
    return rs;
}

/* Only plain SELECTs skip their rows; set operations and VALUES (whose
 * types come from their rows) run as rl_select_run would. */
rl_rowset *rl_select_type(rl_exec *x, const PgQuery__SelectStmt *st, const rl_binding *outer)
{
    rl_rowset *rs = run_raw_mode(x, st, outer, NULL, true);
    if (rs)
        resolve_unknown(rs);
    return rs;
}

rl_rowset *rl_select_subquery(rl_expr_ctx *c, const PgQuery__SelectStmt *st, bool type_only)
{
    rl_rowset *rs = run_raw_mode(c->x, st, c->b, c->ctes, type_only);
    if (rs)
        resolve_unknown(rs);
    return rs;
}

/* ------------------------------------------------------ streaming */

/* The target list is a bare `*`. */
static bool star_only(const PgQuery__SelectStmt *st)
{
    if (st->n_target_list != 1 || st->target_list[0]->node_case != PG_QUERY__NODE__NODE_RES_TARGET)
        return false;
    const PgQuery__ResTarget *t = st->target_list[0]->res_target;
    if (!t->val || t->val->node_case != PG_QUERY__NODE__NODE_COLUMN_REF)
        return false;
    const PgQuery__ColumnRef *cr = t->val->column_ref;
    return cr->n_fields == 1 && cr->fields[0]->node_case == PG_QUERY__NODE__NODE_A_STAR;
}

/* The shape rl_select_stream serves: one stored table (no CTE of that
 * name), every target a plain column (or a bare `*`), nothing that needs
 * all rows first. */
static bool streamable(const PgQuery__SelectStmt *st)
{
    if (st->op != PG_QUERY__SET_OPERATION__SETOP_NONE || st->larg || st->with_clause ||
        st->n_values_lists || st->n_distinct_clause || st->into_clause || st->n_group_clause ||
        st->having_clause || st->n_window_clause || st->n_sort_clause || st->limit_count ||
        st->limit_offset || st->n_locking_clause || st->n_from_clause != 1 ||
        st->n_target_list == 0 ||
        st->from_clause[0]->node_case != PG_QUERY__NODE__NODE_RANGE_VAR)
        return false;
    const PgQuery__RangeVar *rv = st->from_clause[0]->range_var;
    if (rv->alias && rv->alias->n_colnames)
        return false;
    if (star_only(st))
        return true;
    for (size_t i = 0; i < st->n_target_list; i++) {
        const PgQuery__Node *t = st->target_list[i];
        if (t->node_case != PG_QUERY__NODE__NODE_RES_TARGET || !t->res_target->val ||
            t->res_target->val->node_case != PG_QUERY__NODE__NODE_COLUMN_REF)
            return false;
        const PgQuery__ColumnRef *cr = t->res_target->val->column_ref;
        for (size_t f = 0; f < cr->n_fields; f++)
            if (!rl_node_string(cr->fields[f]))
                return false; /* `*` */
    }
    return true;
}

typedef struct stream_run {
    sel *S;
    rl_rowset *one; /* the current row, as a one-row set WHERE is evaluated on */
    const rl_table_desc *d;
    uint32_t oids[RL_MAX_COLUMNS];
    size_t nstored;
    const PgQuery__Node *where;
    const size_t *idx; /* target i is column idx[i] of `one` */
    rl_value *vals;
    size_t nt;
    const rl_colmeta *tcols; /* the targets' columns (names, types) */
    const rl_row_stream *out;
    bool begun;
    size_t nrows;
    rl_heap_spool *spool; /* the output is held and sent in heap order */
} stream_run;

/* The consumer starts at the first row that passes (or at the end): an
 * error in WHERE before then is reported before any output, as the row-set
 * path (and PostgreSQL's analysis) would. */
static int stream_begin(stream_run *r)
{
    if (r->begun)
        return 0;
    r->begun = true;
    return r->out->begin(r->out->ctx, r->nt, r->tcols);
}

/* Send what the consumer wrote so far (not spooled). */
static int stream_send(stream_run *r)
{
    rl_buf *o = r->out->out;
    int rc = o->len ? r->out->send(r->out->ctx, o->data, o->len) : 0;
    rl_buf_reset(o);
    return rc;
}

/* A spool holds at most the engine's heap_order_limit bytes (and no more
 * than the statement's result budget allows): past it, what it holds
 * goes out in key order, and so does the rest of the scan. */
static int stream_spill(stream_run *r)
{
    const rl_engine *e = r->S->x->s->eng;
    size_t budget = rl_result_budget_limit(e->result_mem_limit);
    size_t limit = e->heap_order_limit < budget ? e->heap_order_limit : budget;
    if (rl_heap_spool_bytes(r->spool) <= limit)
        return 0;
    int rc = rl_heap_spool_send(r->spool, r->out, true);
    rl_heap_spool_free(r->spool);
    r->spool = NULL;
    return rc;
}

static int stream_row(void *ctx, const rl_row *row)
{
    stream_run *r = ctx;
    rl_value *v = rl_rowset_row(r->one, 0);
    for (size_t i = 0; i < r->nstored; i++) {
        v[i].oid = r->oids[i];
        v[i].typmod = -1;
        v[i].d = row->vals[i];
    }
    if (r->where) {
        rl_binding b = {r->one, 0, NULL, NULL};
        rl_expr_ctx c = make_ctx(r->S, &b, NULL);
        int t = rl_expr_truth(&c, r->where);
        if (t <= 0)
            return t;
    }
    for (size_t i = 0; i < r->nt; i++)
        r->vals[i] = v[r->idx[i]];
    r->nrows++;
    if (stream_begin(r) < 0)
        return -1;
    size_t start = r->out->out->len;
    if (r->out->row(r->out->ctx, r->vals, r->nt) < 0)
        return -1;
    if (r->spool)
        return rl_heap_spool_add(r->spool, row, r->out->out, start) < 0 ? -1 : stream_spill(r);
    return r->out->out->len >= RL_STREAM_CHUNK ? stream_send(r) : 0;
}

/* An empty answer: is it a time-travel lookup of an expired snapshot?
 * idx[0..nt) are the stored columns the statement reads. */
static int check_retained(rl_exec *x, const rl_relation *rel, const char *alias,
                          const PgQuery__Node *where, const size_t *idx, size_t nt)
{
    bool reads[RL_MAX_COLUMNS] = {false};
    for (size_t i = 0; i < nt; i++)
        if (idx[i] < RL_MAX_COLUMNS)
            reads[idx[i]] = true;
    return rl_relation_check_retained(x, rel, alias, where, reads);
}

int rl_select_stream(rl_exec *x, const PgQuery__SelectStmt *st, const rl_row_stream *out,
                     size_t *nrows)
{
    *nrows = 0;
    if (!streamable(st) || rl_exec_uses_ctids(x))
        return 0;
    const PgQuery__RangeVar *rv = st->from_clause[0]->range_var;
    rl_relation rel;
    if (rl_relation_resolve(x, rv, &rel) < 0)
        return -1;
    if (rel.kind != RL_REL_STORED)
        return 0;
    const char *alias = rl_range_var_alias(rv);
    sel S = {.x = x};
    stream_run r = {.S = &S, .d = rel.desc, .out = out, .nt = st->n_target_list};
    bool star = star_only(st);
    { /* the typing row of the relation: its one row's slots are
       * overwritten by each stored row */
        rl_rowset *shape = rl_relation_shape(x, &rel, alias);
        r.one = shape ? rl_rowset_typing(shape, x->err) : NULL;
        rl_rowset_free(shape);
    }
    if (r.one && star)
        r.nt = r.one->ncols - 1;
    size_t *idx = calloc(r.nt + 1, sizeof *idx);
    r.vals = calloc(r.nt + 1, sizeof *r.vals);
    rl_colmeta *tcols = calloc(r.nt + 1, sizeof *tcols);
    int rc = -1;
    if (!r.one)
        goto done; /* the error is set */
    if (!idx || !r.vals || !tcols) {
        fail_oom(x);
        goto done;
    }
    r.idx = idx;
    r.tcols = tcols;
    r.nstored = r.one->ncols - 1; /* the shape ends with ctid */
    for (size_t i = 0; i < r.nstored && i < RL_MAX_COLUMNS; i++)
        r.oids[i] = rl_type_oid(rel.desc->cols[i].type);
    rl_binding b0 = {r.one, 0, NULL, NULL};
    for (size_t i = 0; i < r.nt; i++) {
        if (star) {
            idx[i] = i;
            tcols[i] = r.one->cols[i];
            continue;
        }
        const PgQuery__ResTarget *t = st->target_list[i]->res_target;
        const rl_colmeta *m = rl_expr_column(&b0, t->val);
        if (!m || (size_t)(m - r.one->cols) >= r.nstored) {
            rc = 0; /* unknown, ambiguous or ctid: let the general path say so */
            goto done;
        }
        idx[i] = (size_t)(m - r.one->cols);
        tcols[i] = *m;
        if (t->name && t->name[0])
            snprintf(tcols[i].name, sizeof tcols[i].name, "%s", t->name);
    }
    if (presolve_where(&S, st->where_clause, &r.where) < 0)
        goto done;
    if (check_where(&S, r.one, r.where) < 0) /* r.one is still the typing row */
        goto done;
    if (rl_relation_heap_ordered(x, &rel, alias, r.where) &&
        !(r.spool = rl_heap_spool_new(x, rel.desc)))
        goto done;
    if (rl_relation_scan_each(x, &rel, alias, r.where, stream_row, &r) < 0 ||
        (r.nrows == 0 && check_retained(x, &rel, alias, r.where, idx, r.nt) < 0) ||
        stream_begin(&r) < 0 || (r.spool && rl_heap_spool_send(r.spool, out, false) < 0))
        goto done;
    *nrows = r.nrows;
    rc = 1;
done:
    rl_heap_spool_free(r.spool);
    rl_rowset_free(r.one);
    free(tcols);
    free(idx);
    free(r.vals);
    rl_arena_free(&S.arena);
    return rc;
}

bool rl_select_streamable(const PgQuery__SelectStmt *st)
{
    return streamable(st);
}

/* rl_tree_walk: the first aggregate call at this query level (a subquery's
 * are its own); its location in *ctx. */
static int aggregate_call_at(void *ctx, const ProtobufCMessage *m)
{
    if (m->descriptor == &pg_query__sub_link__descriptor)
        return 1;
    if (m->descriptor != &pg_query__node__descriptor)
        return 0;
    const PgQuery__Node *n = (const PgQuery__Node *)m;
    if (n->node_case != PG_QUERY__NODE__NODE_FUNC_CALL || !rl_expr_is_aggregate(n))
        return 0;
    *(int *)ctx = n->func_call->location;
    return -1;
}

rl_rowset *rl_select_returning(rl_exec *x, PgQuery__Node **targets, size_t ntargets,
                               rl_rowset *rows)
{
    for (size_t i = 0; i < ntargets; i++)
        if (contains_aggregate(targets[i])) {
            int loc = -1;
            rl_tree_walk(&targets[i]->base, aggregate_call_at, &loc);
            rl_exec_error(x, RL_SQLSTATE_GROUPING_ERROR, loc,
                          "aggregate functions are not allowed in RETURNING");
            return NULL;
        }
    PgQuery__RangeVar rv = PG_QUERY__RANGE_VAR__INIT;
    rv.relname = (char *)RETURNING_REL;
    rv.inh = true;
    rv.location = -1;
    PgQuery__Node from = PG_QUERY__NODE__INIT;
    from.node_case = PG_QUERY__NODE__NODE_RANGE_VAR;
    from.range_var = &rv;
    PgQuery__Node *fromv[1] = {&from};
    PgQuery__SelectStmt q = PG_QUERY__SELECT_STMT__INIT;
    q.n_target_list = ntargets;
    q.target_list = targets;
    q.n_from_clause = 1;
    q.from_clause = fromv;
    q.op = PG_QUERY__SET_OPERATION__SETOP_NONE;
    q.limit_option = PG_QUERY__LIMIT_OPTION__LIMIT_OPTION_DEFAULT;
    cte_env env = {RETURNING_REL, rows, NULL, true};
    return run_raw(x, &q, NULL, &env);
}

rl_rowset *rl_select_describe(rl_exec *x, const PgQuery__SelectStmt *st)
{
    if (streamable(st) && !rl_exec_uses_ctids(x))
        return rl_select_type(x, st, NULL); /* plain columns: their types, no rows */
    rl_result_budget budget;
    rl_result_budget_begin(&budget, x->s->eng->result_mem_limit);
    rl_rowset *rs = rl_select_run(x, st, NULL);
    rl_result_budget_end(&budget);
    if (rs)
        rs->nrows = 0; /* only the shape is wanted */
    return rs;
}

static int sink_lost(rl_exec *x)
{
    return rl_exec_error(x, RL_SQLSTATE_CONNECTION_FAILURE, -1, "the client connection was lost");
}

static int send_row_description(rl_exec *x, size_t ncols, const rl_colmeta *meta)
{
    const rl_sink *sink = x->sink;
    if (!sink || !sink->row_description)
        return 0;
    rl_col_info *cols = calloc(ncols + 1, sizeof *cols);
    if (!cols)
        return rl_exec_error(x, RL_SQLSTATE_INTERNAL_ERROR, -1, "out of memory");
    for (size_t i = 0; i < ncols; i++) {
        const rl_colmeta *m = &meta[i];
        snprintf(cols[i].name, sizeof cols[i].name, "%s", m->name);
        cols[i].table_oid = m->table_oid;
        cols[i].attnum = m->table_oid ? m->attnum : 0;
        cols[i].type_oid = m->oid;
        cols[i].typlen = rl_oid_typlen(m->oid);
        cols[i].typmod = rl_oid_is_composite(m->oid) ? -1 : m->typmod; /* see sql.c */
    }
    int rc = sink->row_description(sink->ctx, ncols, cols) < 0 ? sink_lost(x) : 0;
    free(cols);
    return rc;
}

/* A streamed SELECT's rows in the stream's buffer (rl_row_stream), until
 * they go to the sink: each value as its rl_value followed by its string
 * bytes, so the heap-order spool can hold and reorder them as it does
 * COPY's text. */
typedef struct select_stream {
    rl_exec *x;
    rl_buf buf;
    rl_value *vals; /* a decoded row */
    size_t ncols, nsent;
    bool row_description;
} select_stream;

static int select_stream_begin(void *ctx, size_t ncols, const rl_colmeta *cols)
{
    select_stream *ss = ctx;
    ss->ncols = ncols;
    if (!(ss->vals = calloc(ncols + 1, sizeof *ss->vals)))
        return rl_exec_error(ss->x, RL_SQLSTATE_INTERNAL_ERROR, -1, "out of memory");
    return ss->row_description ? send_row_description(ss->x, ncols, cols) : 0;
}

static int select_stream_row(void *ctx, const rl_value *vals, size_t ncols)
{
    select_stream *ss = ctx;
    for (size_t i = 0; i < ncols; i++) {
        rl_buf_put(&ss->buf, &vals[i], sizeof vals[i]);
        if (rl_value_has_bytes(&vals[i]))
            rl_buf_put(&ss->buf, vals[i].d.v.s.p, vals[i].d.v.s.len);
    }
    return ss->buf.failed ? rl_exec_error(ss->x, RL_SQLSTATE_INTERNAL_ERROR, -1, "out of memory")
                          : 0;
}

/* Whole rows of the buffer, decoded and handed to the sink. */
static int select_stream_send(void *ctx, const uint8_t *data, size_t len)
{
    select_stream *ss = ctx;
    const rl_sink *sink = ss->x->sink;
    size_t off = 0;
    while (off < len) {
        for (size_t i = 0; i < ss->ncols; i++) {
            memcpy(&ss->vals[i], data + off, sizeof ss->vals[i]);
            off += sizeof ss->vals[i];
            if (rl_value_has_bytes(&ss->vals[i])) {
                ss->vals[i].d.v.s.p = data + off;
                off += ss->vals[i].d.v.s.len;
            }
        }
        if ((++ss->nsent & 255) == 0 && rl_exec_check_cancel(ss->x) < 0)
            return -1;
        if (sink && sink->data_row && sink->data_row(sink->ctx, ss->ncols, ss->vals) < 0)
            return sink_lost(ss->x);
    }
    return 0;
}

int rl_select_send_streamed(rl_exec *x, const PgQuery__SelectStmt *st, bool row_description)
{
    select_stream ss = {.x = x, .row_description = row_description};
    rl_buf_init(&ss.buf, 0);
    rl_row_stream rs = {.begin = select_stream_begin, .row = select_stream_row,
                        .send = select_stream_send, .out = &ss.buf, .ctx = &ss};
    rl_result_budget budget;
    rl_result_budget_begin(&budget, x->s->eng->result_mem_limit);
    size_t nrows = 0;
    int rc = rl_select_stream(x, st, &rs, &nrows);
    rl_result_budget_end(&budget);
    if (rc > 0 && ss.buf.len && select_stream_send(&ss, ss.buf.data, ss.buf.len) < 0)
        rc = -1;
    if (rc > 0) {
        char tag[64];
        snprintf(tag, sizeof tag, "SELECT %zu", nrows);
        if (rl_send_complete(x, tag) < 0)
            rc = -1;
    }
    rl_buf_free(&ss.buf);
    free(ss.vals);
    return rc;
}

int rl_select_send_description(rl_exec *x, const rl_rowset *rs)
{
    return send_row_description(x, rs->ncols, rs->cols);
}

int rl_select_send_rows(rl_exec *x, rl_rowset *rs, const char *tag)
{
    const rl_sink *sink = x->sink;
    int rc = send_row_description(x, rs->ncols, rs->cols);
    for (size_t i = 0; rc == 0 && i < rs->nrows; i++) {
        if ((i & 255) == 255 && rl_exec_check_cancel(x) < 0)
            rc = -1;
        else if (sink && sink->data_row &&
                 sink->data_row(sink->ctx, rs->ncols, rl_rowset_row(rs, i)) < 0)
            rc = sink_lost(x);
    }
    return rc == 0 ? rl_send_complete(x, tag) : rc;
}

int rl_select_send(rl_exec *x, const PgQuery__SelectStmt *st)
{
    int cached = rl_result_cache_probe(x, st);
    if (cached != 0)
        return cached < 0 ? -1 : 0;
    int streamed = rl_select_send_streamed(x, st, true);
    if (streamed != 0)
        return streamed < 0 ? -1 : 0;
    rl_result_budget budget;
    rl_result_budget_begin(&budget, x->s->eng->result_mem_limit);
    rl_rowset *rs = rl_select_run(x, st, NULL);
    rl_result_budget_end(&budget);
    if (!rs)
        return -1;
    char tag[64];
    snprintf(tag, sizeof tag, "SELECT %zu", rs->nrows);
    int rc = rl_select_send_rows(x, rs, tag);
    rl_rowset_free(rs);
    return rc;
}
