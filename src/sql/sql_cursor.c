/*
 * sql_cursor.c — SQL-level cursors as PostgreSQL 15 has them: DECLARE,
 * FETCH / MOVE in every direction, CLOSE, and their life across the
 * transaction (psycopg's named cursors, SQLAlchemy's stream_results and
 * psql's FETCH_COUNT send exactly these).
 *
 * A cursor's query runs once, at DECLARE, into a row set the cursor owns:
 * RockLake reads one snapshot per statement, so those are the rows
 * PostgreSQL's cursor would read with the snapshot DECLARE took (later
 * writes of the transaction are not seen, as there). The rows of all the
 * session's cursors together are bounded by the engine's result budget: a
 * DECLARE whose rows would pass it fails with 54000, naming what the open
 * cursors hold. FETCH and MOVE then walk the rows as PostgreSQL's portal
 * code walks a tuplestore (pquery.c's DoPortalRunFetch / PortalRunSelect,
 * re-expressed): the same rows, counts, end positions and NO SCROLL
 * errors for every direction and count.
 *
 * Invariants: 0 <= at <= nrows + 1 for every cursor; at_start means at ==
 * 0 or (no rows and a forward read was tried); at_end means at == nrows +
 * 1 and pos == nrows, else pos == at (PostgreSQL's portalPos is the
 * position but past the end); a cursor not `held` belongs to the running
 * transaction and never outlives it.
 */
#include "sql/sql_cursor.h"

#include <assert.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "sql/sql_func.h"
#include "sql/sql_select.h"
#include "sql/sql_value.h"

/* PostgreSQL's cursorOptions bits (parsenodes.h), as libpg_query keeps them. */
enum {
    OPT_BINARY = 0x0001,
    OPT_SCROLL = 0x0002,
    OPT_NO_SCROLL = 0x0004,
    OPT_INSENSITIVE = 0x0008,
    OPT_ASENSITIVE = 0x0010,
    OPT_HOLD = 0x0020
};

#define FETCH_ALL INT64_MAX /* PostgreSQL's FETCH_ALL (LONG_MAX): every row */

rl_cursor *rl_cursor_find(rl_session *s, const char *name)
{
    for (rl_cursor *c = s->cursors; c; c = c->next)
        if (strcmp(c->name, name) == 0)
            return c;
    return NULL;
}

static void cursor_free(rl_cursor *c)
{
    rl_rowset_free(c->rows);
    free(c->statement);
    free(c);
}

/* Close the cursors `drop` picks. */
static void close_where(rl_session *s, bool (*drop)(const rl_cursor *c, uint64_t arg),
                        uint64_t arg)
{
    rl_cursor **cp = &s->cursors;
    while (*cp) {
        rl_cursor *c = *cp;
        if (drop(c, arg)) {
            *cp = c->next;
            cursor_free(c);
        } else {
            cp = &c->next;
        }
    }
}

static bool any_cursor(const rl_cursor *c, uint64_t arg)
{
    (void)c, (void)arg;
    return true;
}

static bool of_transaction(const rl_cursor *c, uint64_t arg)
{
    (void)arg;
    return !c->held;
}

static bool since_savepoint(const rl_cursor *c, uint64_t savepoint)
{
    return !c->held && c->savepoint >= savepoint;
}

void rl_cursor_close_all(rl_session *s) { close_where(s, any_cursor, 0); }

void rl_cursor_rollback_to(rl_session *s, uint64_t savepoint)
{
    close_where(s, since_savepoint, savepoint);
}

void rl_cursor_txn_end(rl_session *s, bool committed)
{
    if (committed) /* WITH HOLD ones stay, their rows already materialized */
        for (rl_cursor *c = s->cursors; c; c = c->next)
            c->held |= c->holdable;
    close_where(s, of_transaction, 0);
}

/* ------------------------------------------------------------- DECLARE */

static bool is_aggregate_call(const PgQuery__Node *n)
{
    static const char *const aggs[] = {"count", "sum", "avg", "min", "max", "array_agg",
                                       "string_agg", "bool_and", "bool_or", "every",
                                       "json_agg", "jsonb_agg", "json_object_agg",
                                       "jsonb_object_agg", "bit_and", "bit_or", "bit_xor",
                                       "stddev", "variance"};
    if (!n || n->node_case != PG_QUERY__NODE__NODE_FUNC_CALL)
        return false;
    const PgQuery__FuncCall *f = n->func_call;
    if (f->agg_star || f->n_agg_order || f->agg_filter || f->over)
        return true;
    const PgQuery__Node *last = f->n_funcname ? f->funcname[f->n_funcname - 1] : NULL;
    if (!last || last->node_case != PG_QUERY__NODE__NODE_STRING)
        return false;
    for (size_t i = 0; i < sizeof aggs / sizeof aggs[0]; i++)
        if (strcmp(last->string->sval, aggs[i]) == 0)
            return true;
    return false;
}

/* A cursor declared with neither SCROLL nor NO SCROLL scrolls in
 * PostgreSQL when its plan can run backward. RockLake's rows can always be
 * walked backward; this guesses PostgreSQL's plan from the query's shape
 * so that pg_cursors and backward FETCHes answer as there for the usual
 * queries: a sort on top, VALUES, or one table or function scanned
 * without grouping or aggregates scroll; joins, grouping, aggregates,
 * set operations and a FROM-less SELECT do not (docs/sql-support.md). */
static bool default_scrollable(const PgQuery__SelectStmt *sel)
{
    if (sel->n_sort_clause || sel->n_values_lists)
        return true;
    if (sel->op != PG_QUERY__SET_OPERATION__SETOP_NONE || sel->n_from_clause != 1 ||
        sel->n_group_clause || sel->having_clause || sel->n_distinct_clause ||
        sel->n_window_clause || sel->with_clause)
        return false;
    const PgQuery__Node *from = sel->from_clause[0];
    if (from->node_case != PG_QUERY__NODE__NODE_RANGE_VAR &&
        from->node_case != PG_QUERY__NODE__NODE_RANGE_FUNCTION)
        return false;
    for (size_t i = 0; i < sel->n_target_list; i++) {
        const PgQuery__Node *t = sel->target_list[i];
        if (t->node_case == PG_QUERY__NODE__NODE_RES_TARGET && is_aggregate_call(t->res_target->val))
            return false;
    }
    return true;
}

/* The locking clause as PostgreSQL's LCS_asString names it. */
static const char *locking_name(const PgQuery__SelectStmt *sel)
{
    const PgQuery__Node *l = sel->locking_clause[0];
    switch (l->node_case == PG_QUERY__NODE__NODE_LOCKING_CLAUSE ? l->locking_clause->strength
                                                                 : PG_QUERY__LOCK_CLAUSE_STRENGTH__LCS_FORUPDATE) {
    case PG_QUERY__LOCK_CLAUSE_STRENGTH__LCS_FORKEYSHARE: return "FOR KEY SHARE";
    case PG_QUERY__LOCK_CLAUSE_STRENGTH__LCS_FORSHARE: return "FOR SHARE";
    case PG_QUERY__LOCK_CLAUSE_STRENGTH__LCS_FORNOKEYUPDATE: return "FOR NO KEY UPDATE";
    default: return "FOR UPDATE";
    }
}

/* PostgreSQL's transformDeclareCursorStmt checks, in its order. */
static int check_declare(rl_exec *x, const PgQuery__DeclareCursorStmt *st,
                         const PgQuery__SelectStmt *sel)
{
    if ((st->options & OPT_SCROLL) && (st->options & OPT_NO_SCROLL))
        return rl_exec_error(x, RL_SQLSTATE_INVALID_CURSOR_DEFINITION, -1,
                             "cannot specify both SCROLL and NO SCROLL");
    if ((st->options & OPT_ASENSITIVE) && (st->options & OPT_INSENSITIVE))
        return rl_exec_error(x, RL_SQLSTATE_INVALID_CURSOR_DEFINITION, -1,
                             "cannot specify both ASENSITIVE and INSENSITIVE");
    if (sel->into_clause) /* at the INTO target, as transformSelectStmt's */
        return rl_exec_error(x, RL_SQLSTATE_SYNTAX_ERROR,
                             sel->into_clause->rel ? sel->into_clause->rel->location : -1,
                             "SELECT ... INTO is not allowed here");
    const PgQuery__WithClause *w = sel->with_clause;
    for (size_t i = 0; w && i < w->n_ctes; i++) {
        const PgQuery__Node *cte = w->ctes[i];
        const PgQuery__Node *q = cte->node_case == PG_QUERY__NODE__NODE_COMMON_TABLE_EXPR
                                     ? cte->common_table_expr->ctequery
                                     : NULL;
        if (q && q->node_case != PG_QUERY__NODE__NODE_SELECT_STMT)
            return rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                                 "DECLARE CURSOR must not contain data-modifying statements "
                                 "in WITH");
    }
    if (sel->n_locking_clause && (st->options & OPT_HOLD)) {
        rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                      "DECLARE CURSOR WITH HOLD ... %s is not supported", locking_name(sel));
        rl_error_detail(x->err, "Holdable cursors must be READ ONLY.");
        return -1;
    }
    if (sel->n_locking_clause && (st->options & OPT_SCROLL)) {
        rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                      "DECLARE SCROLL CURSOR ... %s is not supported", locking_name(sel));
        rl_error_detail(x->err, "Scrollable cursors must be READ ONLY.");
        return -1;
    }
    return 0;
}

static size_t held_bytes(const rl_session *s)
{
    size_t n = 0;
    for (const rl_cursor *c = s->cursors; c; c = c->next)
        n += c->bytes;
    return n;
}

/* The query's rows under the engine's result budget, of which the
 * session's open cursors already hold their part. */
static rl_rowset *materialize(rl_exec *x, const PgQuery__SelectStmt *sel, size_t *bytes)
{
    size_t held = held_bytes(x->s);
    rl_result_budget budget;
    rl_result_budget_begin(&budget, x->s->eng->result_mem_limit);
    if (budget.active)
        budget.used = held;
    rl_rowset *rs = rl_select_run(x, sel, NULL);
    *bytes = rs && rs->budget == budget.id ? rs->charged : 0;
    rl_result_budget_end(&budget);
    if (!rs && held && strcmp(x->err->sqlstate, RL_SQLSTATE_PROGRAM_LIMIT_EXCEEDED) == 0)
        rl_error_hint(x->err, "The session's open cursors hold %zu MB of it; CLOSE the ones no "
                              "longer needed.",
                      (held + ((size_t)1 << 20) - 1) >> 20);
    return rs;
}

static int64_t now_pg_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000000 + ts.tv_nsec / 1000 - PG_EPOCH_UNIX_US;
}

int rl_cursor_declare(rl_exec *x, const PgQuery__DeclareCursorStmt *st, bool in_block)
{
    rl_session *s = x->s;
    const PgQuery__Node *q = st->query;
    if (!q || q->node_case != PG_QUERY__NODE__NODE_SELECT_STMT)
        return rl_exec_error(x, RL_SQLSTATE_SYNTAX_ERROR, -1, "DECLARE CURSOR must be a SELECT");
    const PgQuery__SelectStmt *sel = q->select_stmt;
    if (check_declare(x, st, sel) < 0)
        return -1;
    if (!(st->options & OPT_HOLD) && !in_block)
        return rl_exec_error(x, RL_SQLSTATE_NO_ACTIVE_SQL_TRANSACTION, -1,
                             "DECLARE CURSOR can only be used in transaction blocks");
    rl_cursor *c = calloc(1, sizeof *c);
    if (!c || !(c->statement = strdup(x->sql ? x->sql : ""))) {
        free(c);
        return rl_exec_error(x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    }
    c->rows = materialize(x, sel, &c->bytes);
    if (!c->rows) {
        cursor_free(c);
        return -1;
    }
    /* as PostgreSQL's CreatePortal, after the query is planned */
    if (rl_cursor_find(s, st->portalname)) {
        cursor_free(c);
        return rl_exec_error(x, RL_SQLSTATE_DUPLICATE_CURSOR, -1, "cursor \"%s\" already exists",
                             st->portalname);
    }
    snprintf(c->name, sizeof c->name, "%s", st->portalname);
    c->holdable = st->options & OPT_HOLD;
    c->binary = st->options & OPT_BINARY;
    c->scrollable = (st->options & OPT_SCROLL) ||
                    (!(st->options & OPT_NO_SCROLL) && !sel->n_locking_clause &&
                     default_scrollable(sel));
    c->savepoint = s->savepoints_begun;
    c->created = now_pg_us();
    c->at_start = true;
    c->next = s->cursors;
    s->cursors = c;
    return rl_send_complete(x, "DECLARE CURSOR");
}

/* ------------------------------------------------------- FETCH / MOVE */

/* One FETCH or MOVE on a cursor: rows go to the sink when `emit`. */
typedef struct fetch_run {
    rl_exec *x;
    rl_cursor *c;
    bool emit;
} fetch_run;

static int scan_forward_only(rl_exec *x)
{
    rl_exec_error(x, RL_SQLSTATE_OBJECT_NOT_IN_PREREQUISITE_STATE, -1,
                  "cursor can only scan forward");
    rl_error_hint(x->err, "Declare it with SCROLL option to enable backward scan.");
    return -1;
}

/* Row `at` (1-based) to the sink. */
static int emit_row(fetch_run *f, size_t n_done)
{
    rl_exec *x = f->x;
    if ((n_done & 255) == 255 && rl_exec_check_cancel(x) < 0)
        return -1;
    const rl_sink *k = x->sink;
    rl_rowset *rs = f->c->rows;
    assert(f->c->at >= 1 && f->c->at <= rs->nrows);
    if (k && k->data_row && k->data_row(k->ctx, rs->ncols, rl_rowset_row(rs, f->c->at - 1)) < 0)
        return rl_exec_error(x, RL_SQLSTATE_CONNECTION_FAILURE, -1,
                             "the client connection was lost");
    return 0;
}

/* Read up to count rows (0: all) in one direction, as a tuplestore reads:
 * past the last row the position is nrows + 1, before the first 0. */
static int read_rows(fetch_run *f, bool forward, uint64_t count, bool emit, uint64_t *done)
{
    rl_cursor *c = f->c;
    size_t n = c->rows->nrows;
    uint64_t got = 0;
    while (count == 0 || got < count) {
        if (forward ? c->at >= n : c->at <= 1) {
            c->at = forward ? n + 1 : 0;
            break;
        }
        c->at = forward ? c->at + 1 : c->at - 1;
        if (emit && emit_row(f, got) < 0)
            return -1;
        got++;
    }
    *done = got;
    return 0;
}

/* PostgreSQL's PortalRunSelect: count rows one way, FETCH_ALL for all. */
static int run_select(fetch_run *f, bool forward, int64_t count, bool emit, uint64_t *done)
{
    rl_cursor *c = f->c;
    *done = 0;
    if (!forward && !c->scrollable)
        return scan_forward_only(f->x);
    /* a FETCH's last read describes its rows, as the executor's start does */
    if (emit && f->emit && rl_select_send_description(f->x, c->rows) < 0)
        return -1;
    bool moves = forward ? !(c->at_end || count <= 0) : !(c->at_start || count <= 0);
    if (!moves)
        return 0;
    uint64_t want = count == FETCH_ALL ? 0 : (uint64_t)count;
    if (read_rows(f, forward, want, emit && f->emit, done) < 0)
        return -1;
    if (forward) {
        if (*done > 0)
            c->at_start = false;
        if (want == 0 || *done < want)
            c->at_end = true;
        c->pos += *done;
    } else {
        if (*done > 0 && c->at_end) {
            c->at_end = false;
            c->pos++;
        }
        if (want == 0 || *done < want) {
            c->at_start = true;
            c->pos = 0;
        } else {
            c->pos -= *done;
        }
    }
    return 0;
}

/* PostgreSQL's DoPortalRewind. */
static int rewind_cursor(fetch_run *f)
{
    rl_cursor *c = f->c;
    if (c->at_start && !c->at_end)
        return 0;
    if (!c->scrollable)
        return scan_forward_only(f->x);
    c->at = 0;
    c->at_start = true;
    c->at_end = false;
    c->pos = 0;
    return 0;
}

/* PostgreSQL's DoPortalRunFetch: how many rows the FETCH / MOVE gives
 * (MOVE: would give) in *done. */
static int run_fetch(fetch_run *f, PgQuery__FetchDirection dir, int64_t count, uint64_t *done)
{
    rl_cursor *c = f->c;
    uint64_t skipped;
    switch (dir) {
    case PG_QUERY__FETCH_DIRECTION__FETCH_FORWARD:
        if (count < 0) {
            dir = PG_QUERY__FETCH_DIRECTION__FETCH_BACKWARD;
            count = -count;
        }
        break;
    case PG_QUERY__FETCH_DIRECTION__FETCH_BACKWARD:
        if (count < 0) {
            dir = PG_QUERY__FETCH_DIRECTION__FETCH_FORWARD;
            count = -count;
        }
        break;
    case PG_QUERY__FETCH_DIRECTION__FETCH_ABSOLUTE:
        if (count > 0) {
            /* from the start, or from here when that is nearer */
            if ((uint64_t)(count - 1) <= c->pos / 2 || c->pos >= (uint64_t)INT64_MAX) {
                if (rewind_cursor(f) < 0)
                    return -1;
                if (count > 1 && run_select(f, true, count - 1, false, &skipped) < 0)
                    return -1;
            } else {
                int64_t pos = (int64_t)c->pos;
                if (c->at_end)
                    pos++;
                if (count <= pos) {
                    if (run_select(f, false, pos - count + 1, false, &skipped) < 0)
                        return -1;
                } else if (count > pos + 1) {
                    if (run_select(f, true, count - pos - 1, false, &skipped) < 0)
                        return -1;
                }
            }
            return run_select(f, true, 1, true, done);
        }
        if (count < 0) { /* from the end */
            if (run_select(f, true, FETCH_ALL, false, &skipped) < 0)
                return -1;
            if (count < -1 && run_select(f, false, -count - 1, false, &skipped) < 0)
                return -1;
            return run_select(f, false, 1, true, done);
        }
        if (rewind_cursor(f) < 0) /* ABSOLUTE 0: before the first row */
            return -1;
        return run_select(f, true, 0, true, done);
    case PG_QUERY__FETCH_DIRECTION__FETCH_RELATIVE:
        if (count > 0) {
            if (count > 1 && run_select(f, true, count - 1, false, &skipped) < 0)
                return -1;
            return run_select(f, true, 1, true, done);
        }
        if (count < 0) {
            if (count < -1 && run_select(f, false, -count - 1, false, &skipped) < 0)
                return -1;
            return run_select(f, false, 1, true, done);
        }
        dir = PG_QUERY__FETCH_DIRECTION__FETCH_FORWARD; /* RELATIVE 0: FORWARD 0 */
        break;
    default:
        return rl_exec_error(f->x, RL_SQLSTATE_INTERNAL_ERROR, -1, "bogus direction");
    }
    bool forward = dir == PG_QUERY__FETCH_DIRECTION__FETCH_FORWARD;
    if (count == 0) { /* the current row again, if the cursor is on one */
        bool on_row = !c->at_start && !c->at_end;
        if (!f->emit) {
            *done = on_row;
            return 0;
        }
        if (on_row) {
            if (run_select(f, false, 1, false, &skipped) < 0)
                return -1;
            count = 1;
            forward = true;
        }
    }
    if (!forward && count == FETCH_ALL && !f->emit) { /* MOVE BACKWARD ALL: a rewind */
        uint64_t n = c->pos;
        if (n > 0 && !c->at_end)
            n--;
        if (rewind_cursor(f) < 0)
            return -1;
        *done = n;
        return 0;
    }
    return run_select(f, forward, count, true, done);
}

int rl_cursor_fetch(rl_exec *x, const PgQuery__FetchStmt *st)
{
    rl_session *s = x->s;
    const char *name = st->portalname ? st->portalname : "";
    if (!name[0])
        return rl_exec_error(x, RL_SQLSTATE_INVALID_CURSOR_NAME, -1,
                             "invalid cursor name: must not be empty");
    rl_cursor *c = rl_cursor_find(s, name);
    if (!c)
        return rl_exec_error(x, RL_SQLSTATE_INVALID_CURSOR_NAME, -1,
                             "cursor \"%s\" does not exist", name);
    if (c->failed) /* a FETCH of it failed: PostgreSQL's portal is PORTAL_FAILED */
        return rl_exec_error(x, RL_SQLSTATE_OBJECT_NOT_IN_PREREQUISITE_STATE, -1,
                             "portal \"%s\" cannot be run", name);
    fetch_run f = {.x = x, .c = c, .emit = !st->ismove};
    uint64_t done = 0;
    s->binary_rows = f.emit && c->binary;
    int rc = run_fetch(&f, st->direction, st->how_many, &done);
    s->binary_rows = false;
    assert(c->at <= c->rows->nrows + 1);
    assert(!c->at_start || c->at == 0 || c->rows->nrows == 0);
    assert(c->at_end ? c->at == c->rows->nrows + 1 && c->pos == c->rows->nrows : c->at == c->pos);
    if (rc < 0) {
        c->failed = true; /* what a rollback leaves of it (a held cursor) cannot run */
        return -1;
    }
    char tag[48];
    snprintf(tag, sizeof tag, "%s %llu", st->ismove ? "MOVE" : "FETCH", (unsigned long long)done);
    return rl_send_complete(x, tag);
}

/* --------------------------------------------------------------- CLOSE */

int rl_cursor_close(rl_exec *x, const PgQuery__ClosePortalStmt *st)
{
    rl_session *s = x->s;
    if (!st->portalname || !st->portalname[0]) { /* CLOSE ALL */
        rl_cursor_close_all(s);
        return rl_send_complete(x, "CLOSE CURSOR ALL");
    }
    for (rl_cursor **cp = &s->cursors; *cp; cp = &(*cp)->next) {
        if (strcmp((*cp)->name, st->portalname) == 0) {
            rl_cursor *dead = *cp;
            *cp = dead->next;
            cursor_free(dead);
            return rl_send_complete(x, "CLOSE CURSOR");
        }
    }
    return rl_exec_error(x, RL_SQLSTATE_INVALID_CURSOR_NAME, -1, "cursor \"%s\" does not exist",
                         st->portalname);
}
