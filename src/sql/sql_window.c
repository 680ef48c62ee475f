/*
 * sql_window.c — window functions of one query level: every `f(...) OVER
 * (...)` call of a SELECT's target list and ORDER BY, computed over its
 * filtered rows before the projection, which then reads each row's value
 * (rl_window_values, sql_cast.h; sql_expr.c looks calls up by node).
 *
 * Owns: finding the calls and their windows (inline or named in WINDOW,
 * PostgreSQL's rules for copying a named window), partitions and their
 * order, peer groups, frames (ROWS / RANGE / GROUPS with UNBOUNDED,
 * CURRENT ROW and, for ROWS and GROUPS, offsets), the ranking and value
 * functions, and aggregates over a frame (sql_expr.c's, through
 * rl_expr_eval_aggregate).
 *
 * Invariants:
 *  - Values are computed for the rows `rows[0 .. n)` of `rs` and stored
 *    by row index of rs: the projection binds the same rows.
 *  - Partitions are sorted stably, so rows that tie on every key keep
 *    their input order, as PostgreSQL's sort of a heap scan does.
 *  - A frame aggregate is evaluated once per distinct frame (a whole
 *    partition once, a default RANGE frame once per peer group); frames
 *    that move with every row cost their size per row, bounded by
 *    RL_WINDOW_WORK_MAX (54000 past it) and checked for cancel.
 *  - Every failure is a PostgreSQL-style error; nothing aborts.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "sql/sql_expr.h"
#include "sql/sql_func.h"
#include "sql/sql_parse.h"
#include "sql/sql_window.h"

/* PostgreSQL's frameOptions bits (parsenodes.h), as libpg_query gives them. */
enum {
    FRAME_RANGE = 0x2,
    FRAME_ROWS = 0x4,
    FRAME_GROUPS = 0x8,
    FRAME_START_UNBOUNDED_PRECEDING = 0x20,
    FRAME_END_UNBOUNDED_FOLLOWING = 0x100,
    FRAME_START_CURRENT_ROW = 0x200,
    FRAME_END_CURRENT_ROW = 0x400,
    FRAME_START_OFFSET_PRECEDING = 0x800,
    FRAME_END_OFFSET_PRECEDING = 0x1000,
    FRAME_START_OFFSET_FOLLOWING = 0x2000,
    FRAME_END_OFFSET_FOLLOWING = 0x4000,
    FRAME_START_OFFSET = FRAME_START_OFFSET_PRECEDING | FRAME_START_OFFSET_FOLLOWING,
    FRAME_END_OFFSET = FRAME_END_OFFSET_PRECEDING | FRAME_END_OFFSET_FOLLOWING,
    FRAME_EXCLUDE = 0x8000 | 0x10000 | 0x20000
};

/* Rows a statement's frame aggregates may visit in all (a frame that moves
 * with every row over a large partition costs its size per row). */
#define RL_WINDOW_WORK_MAX ((uint64_t)200 * 1000 * 1000)

typedef enum win_kind {
    WIN_ROW_NUMBER, WIN_RANK, WIN_DENSE_RANK, WIN_PERCENT_RANK, WIN_CUME_DIST, WIN_NTILE,
    WIN_LAG, WIN_LEAD, WIN_FIRST_VALUE, WIN_LAST_VALUE, WIN_NTH_VALUE,
    WIN_AGGREGATE
} win_kind;

/* The window functions proper, in one table: name, kind, arguments. */
static const struct win_func {
    const char *name;
    win_kind kind;
    unsigned min_args, max_args;
} win_funcs[] = {
    {"row_number", WIN_ROW_NUMBER, 0, 0},   {"rank", WIN_RANK, 0, 0},
    {"dense_rank", WIN_DENSE_RANK, 0, 0},   {"percent_rank", WIN_PERCENT_RANK, 0, 0},
    {"cume_dist", WIN_CUME_DIST, 0, 0},     {"ntile", WIN_NTILE, 1, 1},
    {"lag", WIN_LAG, 1, 3},                 {"lead", WIN_LEAD, 1, 3},
    {"first_value", WIN_FIRST_VALUE, 1, 1}, {"last_value", WIN_LAST_VALUE, 1, 1},
    {"nth_value", WIN_NTH_VALUE, 2, 2},
};

/* One call being computed: its window, resolved. */
typedef struct win_call {
    const PgQuery__FuncCall *f;
    win_kind kind;
    PgQuery__Node *const *partition;
    size_t npartition;
    PgQuery__Node *const *order;
    size_t norder;
    int frame;                    /* frameOptions */
    const PgQuery__Node *start_offset, *end_offset;
    uint32_t oid;                 /* lag / lead: the type of their values (lag_type) */
} win_call;

typedef struct win_run {
    rl_exec *x;
    rl_rowset *rs;                /* the rows' row set */
    const size_t *rows;           /* the rows, n of them */
    size_t n;
    const rl_binding *outer;
    rl_arena *arena;
    rl_expr_ctx base;             /* evaluation context of the level */
    uint64_t work;                /* frame rows visited so far */
    bool grouped;                 /* the rows are groups (GROUP BY / aggregates) ... */
    const rl_agg_ctx *groups;     /* ... position p's group is groups[p] */
} win_run;

/* The evaluation context of position p (a row, or a group's first row with
 * the group for its aggregates); b is filled and must outlive it. */
static rl_expr_ctx ctx_at(const win_run *R, size_t p, rl_binding *b)
{
    *b = (rl_binding){R->rs, R->rows[p], R->outer, NULL};
    rl_expr_ctx c = R->base;
    c.b = b;
    c.agg = R->groups ? (rl_agg_ctx *)&R->groups[p] : NULL;
    return c;
}

/* ------------------------------------------------------- finding calls */

typedef struct call_list {
    const PgQuery__FuncCall **f;
    size_t n, cap;
    bool oom;
} call_list;

static int collect_visit(void *ctx, const ProtobufCMessage *m)
{
    call_list *l = ctx;
    if (m->descriptor == &pg_query__select_stmt__descriptor)
        return 1; /* a subquery's windows are its own */
    if (m->descriptor != &pg_query__func_call__descriptor)
        return 0;
    const PgQuery__FuncCall *f = (const PgQuery__FuncCall *)m;
    if (!f->over)
        return 0;
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 8;
        const PgQuery__FuncCall **g = realloc(l->f, cap * sizeof *g);
        if (!g) {
            l->oom = true;
            return -1;
        }
        l->f = g;
        l->cap = cap;
    }
    l->f[l->n++] = f;
    return 1; /* a window call inside a window call's arguments is an error PostgreSQL reports */
}

bool rl_window_present(const PgQuery__SelectStmt *st)
{
    call_list l = {0};
    for (size_t i = 0; i < st->n_target_list && l.n == 0; i++)
        rl_tree_walk(&st->target_list[i]->base, collect_visit, &l);
    for (size_t i = 0; i < st->n_sort_clause && l.n == 0; i++)
        rl_tree_walk(&st->sort_clause[i]->base, collect_visit, &l);
    free(l.f);
    return l.n > 0;
}

/* ------------------------------------------------------------- windows */

static const PgQuery__WindowDef *named_window(const PgQuery__SelectStmt *st, const char *name)
{
    for (size_t i = 0; i < st->n_window_clause; i++) {
        const PgQuery__Node *n = st->window_clause[i];
        if (n->node_case == PG_QUERY__NODE__NODE_WINDOW_DEF && n->window_def->name &&
            strcmp(n->window_def->name, name) == 0)
            return n->window_def;
    }
    return NULL;
}

/* The call's window with a named one it copies (OVER w, OVER (w ORDER BY
 * ...)) merged in by PostgreSQL's rules: the copy takes the base's
 * PARTITION BY, may add an ORDER BY only where the base has none, and
 * cannot copy a window that has a frame clause. */
static int resolve_window(win_run *R, const PgQuery__SelectStmt *st, win_call *w)
{
    const PgQuery__WindowDef *def = w->f->over;
    const char *ref = def->name && *def->name ? def->name : def->refname;
    w->partition = def->partition_clause;
    w->npartition = def->n_partition_clause;
    w->order = def->order_clause;
    w->norder = def->n_order_clause;
    w->frame = def->frame_options;
    w->start_offset = def->start_offset;
    w->end_offset = def->end_offset;
    if (!ref || !*ref)
        return 0;
    const PgQuery__WindowDef *base = named_window(st, ref);
    if (!base)
        return rl_exec_error(R->x, RL_SQLSTATE_UNDEFINED_OBJECT, def->location,
                             "window \"%s\" does not exist", ref);
    bool whole = def->name && *def->name; /* OVER w: the named window as it is */
    if (!whole && def->n_partition_clause)
        return rl_exec_error(R->x, RL_SQLSTATE_WINDOWING_ERROR, def->location,
                             "cannot override PARTITION BY clause of window \"%s\"", ref);
    if (!whole && def->n_order_clause && base->n_order_clause)
        return rl_exec_error(R->x, RL_SQLSTATE_WINDOWING_ERROR, def->location,
                             "cannot override ORDER BY clause of window \"%s\"", ref);
    if (!whole && (base->frame_options & 1))
        return rl_exec_error(R->x, RL_SQLSTATE_WINDOWING_ERROR, def->location,
                             "cannot copy window \"%s\" because it has a frame clause", ref);
    w->partition = base->partition_clause;
    w->npartition = base->n_partition_clause;
    if (whole || !def->n_order_clause) {
        w->order = base->order_clause;
        w->norder = base->n_order_clause;
    }
    if (whole) {
        w->frame = base->frame_options;
        w->start_offset = base->start_offset;
        w->end_offset = base->end_offset;
    }
    return 0;
}

static int classify(win_run *R, win_call *w)
{
    const PgQuery__FuncCall *f = w->f;
    const char *name = f->n_funcname ? rl_node_string(f->funcname[f->n_funcname - 1]) : NULL;
    if (!name)
        return rl_exec_error(R->x, RL_SQLSTATE_SYNTAX_ERROR, f->location, "malformed function call");
    for (size_t i = 0; i < sizeof win_funcs / sizeof win_funcs[0]; i++) {
        if (strcmp(win_funcs[i].name, name) != 0)
            continue;
        w->kind = win_funcs[i].kind;
        if (f->n_args < win_funcs[i].min_args || f->n_args > win_funcs[i].max_args ||
            f->agg_star || f->agg_distinct)
            return rl_exec_error(R->x, RL_SQLSTATE_UNDEFINED_FUNCTION, f->location,
                                 "function %s with %zu argument(s) does not exist", name,
                                 f->n_args);
        return 0;
    }
    PgQuery__Node probe = PG_QUERY__NODE__INIT;
    PgQuery__FuncCall plain = *f;
    plain.over = NULL;
    probe.node_case = PG_QUERY__NODE__NODE_FUNC_CALL;
    probe.func_call = &plain;
    if (!rl_expr_is_aggregate(&probe))
        return rl_exec_error(R->x, RL_SQLSTATE_WRONG_OBJECT_TYPE, f->location,
                             "OVER specified, but %s is not a window function nor an aggregate "
                             "function",
                             name);
    if (f->agg_distinct)
        return rl_exec_error(R->x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, f->location,
                             "DISTINCT is not implemented for window functions");
    w->kind = WIN_AGGREGATE;
    return 0;
}

static int check_frame(win_run *R, const win_call *w)
{
    int loc = w->f->over->location;
    if (w->frame & FRAME_EXCLUDE)
        return rl_exec_error(R->x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, loc,
                             "frame EXCLUDE options are not supported");
    if ((w->frame & FRAME_RANGE) && (w->frame & (FRAME_START_OFFSET | FRAME_END_OFFSET)))
        return rl_exec_error(R->x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, loc,
                             "RANGE with offset PRECEDING/FOLLOWING is not supported");
    if ((w->frame & FRAME_GROUPS) && w->norder == 0)
        return rl_exec_error(R->x, RL_SQLSTATE_WINDOWING_ERROR, loc,
                             "GROUPS mode requires an ORDER BY clause");
    return 0;
}

/* ------------------------------------------------------------- sorting */

typedef struct keyed {
    win_run *R;
    const win_call *w;
    const rl_value *keys; /* n * (npartition + norder), by position in R->rows */
    size_t nk;
    bool failed;
} keyed;

static int compare_key(keyed *K, size_t a, size_t b, size_t i)
{
    const rl_value *va = &K->keys[a * K->nk + i], *vb = &K->keys[b * K->nk + i];
    bool desc = false, nulls_first = false;
    if (i >= K->w->npartition) {
        const PgQuery__SortBy *sb = K->w->order[i - K->w->npartition]->sort_by;
        desc = sb->sortby_dir == PG_QUERY__SORT_BY_DIR__SORTBY_DESC;
        nulls_first = sb->sortby_nulls == PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_FIRST ||
                      (sb->sortby_nulls != PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_LAST && desc);
    }
    if (va->d.isnull || vb->d.isnull) {
        if (va->d.isnull == vb->d.isnull)
            return 0;
        return va->d.isnull == nulls_first ? -1 : 1;
    }
    int r = 0;
    rl_expr_ctx c = K->R->base;
    if (!K->failed && rl_value_cmp(&c, va, vb, &r, -1) < 0)
        K->failed = true;
    return desc ? -r : r;
}

static int compare_positions(const void *pa, const void *pb, void *arg)
{
    keyed *K = arg;
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    for (size_t i = 0; i < K->nk; i++) {
        int r = compare_key(K, a, b, i);
        if (r)
            return r;
    }
    return a < b ? -1 : a > b;
}

/* Equal keys [from, to) of positions a and b? */
static bool same_keys(keyed *K, size_t a, size_t b, size_t from, size_t to)
{
    for (size_t i = from; i < to; i++)
        if (compare_key(K, a, b, i) != 0)
            return false;
    return true;
}

static int eval_keys(win_run *R, const win_call *w, rl_value *keys, size_t nk)
{
    for (size_t p = 0; p < R->n; p++) {
        rl_binding b;
        rl_expr_ctx c = ctx_at(R, p, &b);
        for (size_t i = 0; i < nk; i++) {
            const PgQuery__Node *e = i < w->npartition ? w->partition[i]
                                                       : w->order[i - w->npartition]->sort_by->node;
            if (rl_expr_eval(&c, e, &keys[p * nk + i]) < 0 ||
                rl_value_own(R->arena, &keys[p * nk + i]) < 0)
                return -1;
        }
        if ((p & 1023) == 0 && rl_exec_check_cancel(R->x) < 0)
            return -1;
    }
    return 0;
}

/* ---------------------------------------------------------- evaluation */

/* Evaluate arg i of the call on the row at sorted position `pos`. */
static int arg_at(win_run *R, const win_call *w, const size_t *order, size_t pos, size_t i,
                  rl_value *out)
{
    rl_binding b;
    rl_expr_ctx c = ctx_at(R, order[pos], &b);
    return rl_expr_eval(&c, w->f->args[i], out);
}

/* An aggregate over a frame of groups: its argument's value per group
 * (count(*): the groups), aggregated (rl_expr_aggregate_values). */
static int frame_of_groups(win_run *R, const win_call *w, const size_t *order, size_t pos,
                           size_t fs, size_t fe, rl_value *out)
{
    rl_value proto = {.oid = RL_OID_UNKNOWN};
    bool star = w->f->agg_star || w->f->n_args == 0;
    size_t na = star ? 1 : w->f->n_args == 2 ? 2 : 1; /* (y, x) pairs interleaved */
    rl_value *vals = rl_arena_alloc(R->arena, (fe - fs + 1) * na * sizeof *vals);
    if (!vals)
        return rl_exec_error(R->x, RL_SQLSTATE_INTERNAL_ERROR, -1, "out of memory");
    if (!star && arg_at(R, w, order, pos, 0, &proto) < 0)
        return -1;
    for (size_t i = fs; !star && i < fe; i++)
        for (size_t k = 0; k < na; k++)
            if (arg_at(R, w, order, i, k, &vals[(i - fs) * na + k]) < 0)
                return -1;
    rl_binding b;
    rl_expr_ctx c = ctx_at(R, order[pos], &b);
    return rl_expr_aggregate_values(&c, w->f, vals, fe - fs, proto.oid, out);
}

static int offset_value(win_run *R, const win_call *w, const PgQuery__Node *n, bool start,
                        int64_t *out)
{
    rl_expr_ctx c = R->base;
    c.b = R->outer;
    rl_value v;
    if (rl_expr_eval(&c, n, &v) < 0 || rl_value_coerce(&c, &v, RL_OID_INT8, -1, false, &v, -1) < 0)
        return -1;
    if (v.d.isnull)
        return rl_exec_error(R->x, RL_SQLSTATE_NULL_VALUE_NOT_ALLOWED, -1,
                             "frame %s offset must not be null", start ? "starting" : "ending");
    if (v.d.v.i < 0)
        return rl_exec_error(R->x, RL_SQLSTATE_INVALID_PRECEDING_OR_FOLLOWING_SIZE, -1,
                             "frame %s offset must not be negative", start ? "starting" : "ending");
    *out = v.d.v.i;
    return 0;
}

/* The partition [ps, pe) of sorted positions, its peer groups as
 * group[pos] = index of the peer group, gstart[g] its first position. */
typedef struct part {
    size_t ps, pe;
    const size_t *group, *gstart;
    size_t ngroups;
} part;

static size_t clamp(int64_t v, size_t lo, size_t hi)
{
    return v < (int64_t)lo ? lo : v > (int64_t)hi ? hi : (size_t)v;
}

/* The first position of peer group idx of the partition (its start
 * before the first group, its end after the last). */
static int64_t group_start(const part *P, int64_t idx)
{
    if (idx < 0)
        return (int64_t)P->ps;
    return (size_t)idx < P->ngroups ? (int64_t)P->gstart[idx] : (int64_t)P->pe;
}

/* The frame [*fs, *fe) of sorted position pos: ROWS counts rows, GROUPS
 * and RANGE (whose offsets are refused) count peer groups. */
static void frame_of(const win_call *w, const part *P, size_t pos, int64_t so, int64_t eo,
                     size_t *fs, size_t *fe)
{
    int f = w->frame;
    int64_t g = (int64_t)P->group[pos], at = (int64_t)pos;
    bool rows = f & FRAME_ROWS;
    int64_t s = (int64_t)P->ps, e = (int64_t)P->pe;
    if (f & FRAME_START_CURRENT_ROW)
        s = rows ? at : group_start(P, g);
    else if (f & FRAME_START_OFFSET_PRECEDING)
        s = rows ? at - so : group_start(P, g - so);
    else if (f & FRAME_START_OFFSET_FOLLOWING)
        s = rows ? at + so : group_start(P, g + so);
    if (f & FRAME_END_CURRENT_ROW)
        e = rows ? at + 1 : group_start(P, g + 1);
    else if (f & FRAME_END_OFFSET_PRECEDING)
        e = rows ? at - eo + 1 : group_start(P, g - eo + 1);
    else if (f & FRAME_END_OFFSET_FOLLOWING)
        e = rows ? at + eo + 1 : group_start(P, g + eo + 1);
    *fs = clamp(s, P->ps, P->pe);
    *fe = clamp(e, P->ps, P->pe);
    if (*fe < *fs)
        *fe = *fs;
}

/* The value of a ranking / offset / frame function at position pos. */
/* lag / lead at position pos: the value `offset` rows before / after, or
 * the default (NULL without one) past the partition's end, not yet in the
 * call's type. */
static int lag_value(win_run *R, const win_call *w, const size_t *order, const part *P,
                     size_t pos, rl_value *out)
{
    rl_value v, off = {0};
    rl_expr_ctx c = R->base;
    if (arg_at(R, w, order, pos, 0, &v) < 0) /* its type, also when out of range */
        return -1;
    int64_t k = 1;
    if (w->f->n_args > 1) {
        if (arg_at(R, w, order, pos, 1, &off) < 0 ||
            rl_value_coerce(&c, &off, RL_OID_INT4, -1, false, &off, -1) < 0)
            return -1;
        if (off.d.isnull) {
            rl_val_null(out, v.oid);
            return 0;
        }
        k = off.d.v.i;
    }
    int64_t at = (int64_t)pos + (w->kind == WIN_LAG ? -k : k);
    if (at >= (int64_t)P->ps && at < (int64_t)P->pe)
        return arg_at(R, w, order, (size_t)at, 0, out);
    if (w->f->n_args > 2)
        return arg_at(R, w, order, pos, 2, out);
    rl_val_null(out, v.oid);
    return 0;
}

static int value_at(win_run *R, const win_call *w, const size_t *order, const part *P,
                    size_t pos, int64_t so, int64_t eo, const rl_value *prev, size_t *prev_fs,
                    size_t *prev_fe, rl_value *out)
{
    size_t n = P->pe - P->ps, g = P->group[pos];
    size_t gs = P->gstart[g], ge = g + 1 < P->ngroups ? P->gstart[g + 1] : P->pe;
    switch (w->kind) {
    case WIN_ROW_NUMBER: rl_val_int(out, RL_OID_INT8, (int64_t)(pos - P->ps + 1)); return 0;
    case WIN_RANK: rl_val_int(out, RL_OID_INT8, (int64_t)(gs - P->ps + 1)); return 0;
    case WIN_DENSE_RANK: {
        size_t first = P->group[P->ps];
        rl_val_int(out, RL_OID_INT8, (int64_t)(g - first + 1));
        return 0;
    }
    case WIN_PERCENT_RANK:
        rl_val_float(out, RL_OID_FLOAT8, n > 1 ? (double)(gs - P->ps) / (double)(n - 1) : 0.0);
        return 0;
    case WIN_CUME_DIST: rl_val_float(out, RL_OID_FLOAT8, (double)(ge - P->ps) / (double)n); return 0;
    case WIN_NTILE: {
        rl_value k;
        rl_expr_ctx c = R->base;
        if (arg_at(R, w, order, pos, 0, &k) < 0 ||
            rl_value_coerce(&c, &k, RL_OID_INT4, -1, false, &k, -1) < 0)
            return -1;
        if (k.d.isnull) {
            rl_val_null(out, RL_OID_INT4);
            return 0;
        }
        if (k.d.v.i <= 0)
            return rl_exec_error(R->x, RL_SQLSTATE_INVALID_ARGUMENT_FOR_NTILE, -1,
                                 "argument of ntile must be greater than zero");
        size_t buckets = (size_t)k.d.v.i, i = pos - P->ps;
        size_t per = n / buckets, extra = n % buckets; /* the first `extra` get one more */
        size_t big = extra * (per + 1);
        int64_t b = i < big ? (int64_t)(i / (per + 1)) : (int64_t)(extra + (i - big) / (per ? per : 1));
        rl_val_int(out, RL_OID_INT4, b + 1);
        return 0;
    }
    case WIN_LAG:
    case WIN_LEAD: { /* in the call's type: the default's may differ */
        rl_value v;
        if (lag_value(R, w, order, P, pos, &v) < 0)
            return -1;
        if (v.oid == w->oid)
            return *out = v, 0;
        rl_expr_ctx c = R->base;
        return rl_value_coerce(&c, &v, w->oid, -1, false, out, -1);
    }
    default: break;
    }
    size_t fs, fe;
    frame_of(w, P, pos, so, eo, &fs, &fe);
    if (fs == *prev_fs && fe == *prev_fe) { /* the frame of the row before */
        *out = *prev;
        return 0;
    }
    *prev_fs = fs;
    *prev_fe = fe;
    R->work += fe - fs;
    if (R->work > RL_WINDOW_WORK_MAX)
        return rl_exec_error(R->x, RL_SQLSTATE_PROGRAM_LIMIT_EXCEEDED, w->f->location,
                             "window frames of this statement cover more than %llu rows in all",
                             (unsigned long long)RL_WINDOW_WORK_MAX);
    if (w->kind == WIN_AGGREGATE && R->grouped)
        return frame_of_groups(R, w, order, pos, fs, fe, out);
    if (w->kind == WIN_AGGREGATE) {
        size_t *frows = rl_arena_alloc(R->arena, (fe - fs + 1) * sizeof *frows);
        if (!frows)
            return rl_exec_error(R->x, RL_SQLSTATE_INTERNAL_ERROR, -1, "out of memory");
        for (size_t i = fs; i < fe; i++)
            frows[i - fs] = R->rows[order[i]];
        rl_agg_ctx agg = {R->rs, frows, fe - fs, R->outer};
        rl_binding b = {R->rs, R->rows[order[pos]], R->outer, NULL};
        rl_expr_ctx c = R->base;
        c.b = &b;
        c.agg = &agg;
        return rl_expr_eval_aggregate(&c, w->f, out);
    }
    rl_value proto; /* the argument's type for an empty frame */
    if (arg_at(R, w, order, pos, 0, &proto) < 0)
        return -1;
    size_t at = fe; /* none */
    if (w->kind == WIN_FIRST_VALUE && fs < fe)
        at = fs;
    else if (w->kind == WIN_LAST_VALUE && fs < fe)
        at = fe - 1;
    else if (w->kind == WIN_NTH_VALUE) {
        rl_value k;
        rl_expr_ctx c = R->base;
        if (arg_at(R, w, order, pos, 1, &k) < 0 ||
            rl_value_coerce(&c, &k, RL_OID_INT4, -1, false, &k, -1) < 0)
            return -1;
        if (!k.d.isnull && k.d.v.i <= 0)
            return rl_exec_error(R->x, RL_SQLSTATE_INVALID_ARGUMENT_FOR_NTH_VALUE, -1,
                                 "argument of nth_value must be greater than zero");
        if (!k.d.isnull && (uint64_t)k.d.v.i <= fe - fs)
            at = fs + (size_t)k.d.v.i - 1;
    }
    if (at < fe)
        return arg_at(R, w, order, at, 0, out);
    rl_val_null(out, proto.oid);
    out->typmod = proto.typmod;
    return 0;
}

/* The call's value for every row, by row index of R->rs, and its type. */
static int compute_call(win_run *R, const win_call *w, rl_window_call *out)
{
    size_t nk = w->npartition + w->norder, n = R->n;
    rl_value *keys = rl_arena_alloc(R->arena, (n * nk + 1) * sizeof *keys);
    size_t *order = rl_arena_alloc(R->arena, (n + 1) * sizeof *order);
    size_t *group = rl_arena_alloc(R->arena, (n + 1) * sizeof *group);
    size_t *gstart = rl_arena_alloc(R->arena, (n + 1) * sizeof *gstart);
    if (!keys || !order || !group || !gstart)
        return rl_exec_error(R->x, RL_SQLSTATE_INTERNAL_ERROR, -1, "out of memory");
    if (eval_keys(R, w, keys, nk) < 0)
        return -1;
    keyed K = {R, w, keys, nk, false};
    for (size_t i = 0; i < n; i++)
        order[i] = i;
    qsort_r(order, n, sizeof *order, compare_positions, &K);
    if (K.failed)
        return -1;
    int64_t so = 0, eo = 0;
    if ((w->frame & FRAME_START_OFFSET) && offset_value(R, w, w->start_offset, true, &so) < 0)
        return -1;
    if ((w->frame & FRAME_END_OFFSET) && offset_value(R, w, w->end_offset, false, &eo) < 0)
        return -1;
    /* order[] holds positions into R->rows (R->rows[order[i]] is a row of rs) */
    for (size_t ps = 0; ps < n;) {
        size_t pe = ps + 1;
        while (pe < n && same_keys(&K, order[ps], order[pe], 0, w->npartition))
            pe++;
        size_t ng = 0;
        for (size_t i = ps; i < pe; i++) {
            if (i == ps || !same_keys(&K, order[i - 1], order[i], w->npartition, nk))
                gstart[ng++] = i;
            group[i] = ng - 1;
        }
        if (K.failed)
            return -1;
        part P = {ps, pe, group, gstart, ng};
        rl_value prev = {0};
        size_t prev_fs = SIZE_MAX, prev_fe = SIZE_MAX;
        for (size_t i = ps; i < pe; i++) {
            rl_value v;
            if (value_at(R, w, order, &P, i, so, eo, &prev, &prev_fs, &prev_fe, &v) < 0 ||
                rl_value_own(R->arena, &v) < 0)
                return -1;
            prev = v;
            out->vals[R->rows[order[i]]] = v;
            if ((i & 1023) == 0 && rl_exec_check_cancel(R->x) < 0)
                return -1;
        }
        ps = pe; /* group[] / gstart[] start again from 0 in the next partition */
    }
    return 0;
}

/* The result type of the call, from a typing row (no rows needed). */
static int polymorphic_unknown(rl_exec *x)
{
    return rl_exec_error(x, RL_SQLSTATE_DATATYPE_MISMATCH, -1,
                         "could not determine polymorphic type because input has type unknown");
}

static bool untyped_literal(const PgQuery__Node *n)
{
    if (n->node_case != PG_QUERY__NODE__NODE_A_CONST)
        return false;
    const PgQuery__AConst *k = rl_const(n->a_const);
    return !k->isnull && k->val_case == PG_QUERY__A__CONST__VAL_SVAL;
}

/* The type of lag / lead (value anycompatible [, offset integer [, default
 * anycompatible]]), as PostgreSQL resolves them: value and default in
 * their common type (both unknown: text; of different categories 42883
 * for the call; an untyped literal taken into it, its input error at the
 * literal), a value alone in its own (unknown: 42804, as anyelement). */
static int lag_type(rl_expr_ctx *c, win_call *w, rl_window_call *out)
{
    const PgQuery__FuncCall *f = w->f;
    rl_value v[3];
    for (size_t i = 0; i < f->n_args && i < 3; i++)
        if (rl_expr_eval(c, f->args[i], &v[i]) < 0)
            return -1;
    out->oid = w->oid = v[0].oid;
    out->typmod = -1; /* a window function's result: no typmod (exprTypmod) */
    if (f->n_args < 3)
        return v[0].oid == RL_OID_UNKNOWN ? polymorphic_unknown(c->x) : 0;
    char c0 = rl_oid_category(v[0].oid), c2 = rl_oid_category(v[2].oid);
    if (v[0].oid != RL_OID_UNKNOWN && v[2].oid != RL_OID_UNKNOWN && v[0].oid != v[2].oid &&
        (c0 != c2 || !c0))
        return rl_func_no_function(c, w->kind == WIN_LAG ? "lag" : "lead", 3, v, f->location);
    uint32_t type = rl_common_type(v[0].oid, v[2].oid);
    out->oid = w->oid = type == RL_OID_UNKNOWN ? RL_OID_TEXT : type;
    for (size_t i = 0; i < 3; i += 2)
        if (untyped_literal(f->args[i]) &&
            rl_value_coerce(c, &v[i], w->oid, -1, false, &v[i], rl_node_location(f->args[i])) < 0)
            return -1;
    return 0;
}

static int type_call(win_run *R, win_call *w, rl_rowset *typ, rl_window_call *out)
{
    rl_binding b = {typ, 0, R->outer, NULL};
    rl_expr_ctx c = R->base;
    c.b = &b;
    c.typing = true;
    rl_agg_ctx empty = {typ, NULL, 0, R->outer};
    if (R->grouped) /* arguments may be aggregates of the group */
        c.agg = &empty;
    rl_value v;
    /* the window's keys are typed too, rows or none (NULL - NULL: 42725) */
    for (size_t i = 0; i < w->npartition + w->norder; i++) {
        const PgQuery__Node *k = i < w->npartition ? w->partition[i] : w->order[i - w->npartition];
        if (k->node_case == PG_QUERY__NODE__NODE_SORT_BY)
            k = k->sort_by->node;
        if (rl_expr_eval(&c, k, &v) < 0 ||
            rl_sortable_type(R->x, v.oid, i >= w->npartition, rl_node_location(k)) < 0)
            return -1;
    }
    switch (w->kind) {
    case WIN_ROW_NUMBER: case WIN_RANK: case WIN_DENSE_RANK:
        out->oid = RL_OID_INT8; out->typmod = -1; return 0;
    case WIN_PERCENT_RANK: case WIN_CUME_DIST:
        out->oid = RL_OID_FLOAT8; out->typmod = -1; return 0;
    case WIN_NTILE: out->oid = RL_OID_INT4; out->typmod = -1; return 0;
    case WIN_AGGREGATE: {
        if (R->grouped) {
            rl_value arg = {.oid = RL_OID_UNKNOWN};
            if (!w->f->agg_star && w->f->n_args && rl_expr_eval(&c, w->f->args[0], &arg) < 0)
                return -1;
            if (rl_expr_aggregate_values(&c, w->f, NULL, 0, arg.oid, &v) < 0)
                return -1;
            break;
        }
        c.agg = &empty;
        if (rl_expr_eval_aggregate(&c, w->f, &v) < 0)
            return -1;
        break;
    }
    case WIN_LAG: case WIN_LEAD: return lag_type(&c, w, out);
    default: /* first_value, last_value, nth_value (anyelement, ...) */
        if (rl_expr_eval(&c, w->f->args[0], &v) < 0)
            return -1;
        if (v.oid == RL_OID_UNKNOWN)
            return polymorphic_unknown(R->x);
        out->oid = v.oid;
        out->typmod = -1; /* as lag's */
        return 0;
    }
    out->oid = v.oid == RL_OID_UNKNOWN ? RL_OID_TEXT : v.oid;
    out->typmod = v.typmod;
    return 0;
}

int rl_window_compute(rl_exec *x, const PgQuery__SelectStmt *st, rl_rowset *rs, rl_rowset *typ,
                      const size_t *rows, size_t n, const rl_agg_ctx *groups, bool grouped,
                      const rl_binding *outer, rl_arena *arena, const rl_expr_ctx *base,
                      rl_window_values *out)
{
    memset(out, 0, sizeof *out);
    call_list l = {0};
    for (size_t i = 0; i < st->n_target_list; i++)
        rl_tree_walk(&st->target_list[i]->base, collect_visit, &l);
    for (size_t i = 0; i < st->n_sort_clause; i++)
        rl_tree_walk(&st->sort_clause[i]->base, collect_visit, &l);
    if (l.oom) {
        free(l.f);
        return rl_exec_error(x, RL_SQLSTATE_INTERNAL_ERROR, -1, "out of memory");
    }
    win_run R = {x, rs, rows, n, outer, arena, *base, 0, grouped, groups};
    R.base.win = NULL; /* a window call in a window's argument or key is an error */
    out->rs = rs;
    out->calls = l.n ? rl_arena_alloc(arena, l.n * sizeof *out->calls) : NULL;
    int rc = l.n && !out->calls ? rl_exec_error(x, RL_SQLSTATE_INTERNAL_ERROR, -1, "out of memory") : 0;
    for (size_t i = 0; rc == 0 && i < l.n; i++) {
        win_call w = {.f = l.f[i]};
        rl_window_call *wc = &out->calls[i];
        wc->f = l.f[i];
        wc->vals = rl_arena_alloc(arena, (rs->nrows + 1) * sizeof *wc->vals);
        if (!wc->vals) {
            rc = rl_exec_error(x, RL_SQLSTATE_INTERNAL_ERROR, -1, "out of memory");
            break;
        }
        memset(wc->vals, 0, (rs->nrows + 1) * sizeof *wc->vals);
        rc = resolve_window(&R, st, &w);
        if (rc == 0)
            rc = classify(&R, &w);
        if (rc == 0)
            rc = check_frame(&R, &w);
        if (rc == 0)
            rc = type_call(&R, &w, typ, wc);
        if (rc == 0)
            rc = compute_call(&R, &w, wc);
        out->ncalls = i + 1;
    }
    free(l.f);
    return rc;
}
