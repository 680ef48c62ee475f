/*
 * sql_exec.c — the execution context of one statement (rl_exec): its
 * transaction and DuckLake format, its errors with positions, cancel and
 * stack checks, and its CommandComplete.
 *
 * Sits below every statement file (select, dml, ddl, copy, scan, lakes,
 * pgcatalog) and above only sql_parse.c, whose running statement maps an
 * error's tree location into the client's text (rl_parsed_location).
 *
 * Invariants: the catalog transaction of a statement begins on first use
 * (rl_exec_txn), as REPEATABLE READ's snapshot does, and records the
 * session's audit names and the transaction's now(); an error helper fills
 * x->err (when there is one) and returns -1.
 */
#include <stdarg.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "base/stack.h"
#include "sql/sql_exec.h"
#include "sql/sql_parse.h"

/* ----------------------------------------------------------- transaction */

static int64_t now_pg_us(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return ((int64_t)ts.tv_sec - 946684800LL) * 1000000LL + ts.tv_nsec / 1000;
}

rl_txn *rl_exec_txn(rl_exec *x)
{
    rl_session *s = x->s;
    if (s->txn)
        return s->txn;
    rl_txn *t = rl_txn_begin(s->eng->cat, x->err);
    if (!t)
        return NULL;
    rl_txn_set_audit(t, s->user, s->application, s->client);
    rl_txn_set_index_fn(t, s->index_fn, s); /* computed UNIQUE keys (sql_indexeval.c) */
    s->txn = t;
    if (!s->in_block)
        s->implicit = true;
    if (!s->txn_start_us)
        s->txn_start_us = now_pg_us();
    return t;
}

int64_t rl_exec_txn_start(rl_exec *x)
{
    rl_session *s = x->s;
    if (!s)
        return now_pg_us();
    if (!s->txn_start_us)
        s->txn_start_us = now_pg_us();
    return s->txn_start_us;
}

rl_format rl_exec_format(rl_exec *x)
{
    rl_txn *t = rl_exec_txn(x);
    return t ? rl_txn_format(t) : rl_catalog_format(x->s->eng->cat);
}

/* ------------------------------------------------ errors, checks, tags */

/* 1-based character position of a 0-based byte offset in UTF-8 text. */
static int char_position(const char *sql, int location)
{
    if (!sql || location < 0)
        return 0;
    int pos = 0;
    for (int i = 0; i < location && sql[i]; i++)
        if (((unsigned char)sql[i] & 0xC0) != 0x80)
            pos++;
    return pos + 1;
}

int rl_exec_position(rl_exec *x, int location)
{
    return char_position(x->sql, rl_parsed_location(location));
}

int rl_exec_error(rl_exec *x, const char *sqlstate, int location, const char *fmt, ...)
{
    rl_error *e = x->err;
    if (!e)
        return -1;
    va_list ap;
    va_start(ap, fmt);
    rl_error_setv(e, sqlstate, fmt, ap);
    va_end(ap);
    e->position = char_position(x->sql, rl_parsed_location(location));
    return -1;
}

int rl_exec_notice(rl_exec *x, const char *sqlstate, const char *fmt, ...)
{
    rl_error n;
    memset(&n, 0, sizeof n);
    va_list ap;
    va_start(ap, fmt);
    rl_error_setv(&n, sqlstate, fmt, ap);
    va_end(ap);
    if (x->sink && x->sink->notice)
        x->sink->notice(x->sink->ctx, &n);
    return 0;
}

bool rl_exec_in_block(rl_exec *x)
{
    /* a multi-statement query string is an implicit transaction block (the
     * pending parse is the running simple query's: cleared when it ends) */
    const PgQuery__ParseResult *query =
        x->simple_query && x->s->pending ? rl_parsed_tree(x->s->pending) : NULL;
    return x->s->in_block || (query && query->n_stmts > 1);
}

int rl_exec_outside_block(rl_exec *x, const char *what)
{
    if (rl_exec_in_block(x))
        return rl_exec_error(x, RL_SQLSTATE_ACTIVE_SQL_TRANSACTION, -1,
                             "%s cannot run inside a transaction block", what);
    return 0;
}

int rl_exec_check_cancel(rl_exec *x)
{
    if (atomic_load(&x->s->cancel)) {
        atomic_store(&x->s->cancel, false);
        return rl_exec_error(x, RL_SQLSTATE_QUERY_CANCELED, -1,
                             "canceling statement due to user request");
    }
    return 0;
}

int rl_exec_check_stack(rl_exec *x)
{
    return rl_stack_exhausted() ? rl_stack_depth_error(x->err) : 0;
}

/* A tag of a statement the executor runs row by row (expressions, and so
 * pg_cancel_backend, evaluated). Not COPY: PostgreSQL's COPY (query) TO
 * completes though its query cancelled itself; not COMMIT, VACUUM, ...:
 * their completion comes after work no error may undo. */
static bool executor_tag(const char *tag)
{
    static const char *const kinds[] = {"SELECT ", "INSERT ", "UPDATE ", "DELETE ", "EXPLAIN"};
    for (size_t i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
        if (strncmp(tag, kinds[i], strlen(kinds[i])) == 0)
            return true;
    return false;
}

int rl_send_complete(rl_exec *x, const char *tag)
{
    if (x->s && executor_tag(tag) && rl_exec_check_cancel(x) < 0)
        return -1;
    if (x->s && x->s->hold_complete) { /* sent once the query's commit holds */
        snprintf(x->s->held_complete, sizeof x->s->held_complete, "%s", tag);
        x->s->has_held_complete = true;
        return 0;
    }
    return rl_send_held_complete(x, tag);
}

int rl_send_held_complete(rl_exec *x, const char *tag)
{
    if (x->sink && x->sink->command_complete && x->sink->command_complete(x->sink->ctx, tag) < 0)
        return rl_exec_error(x, RL_SQLSTATE_CONNECTION_FAILURE, -1,
                             "the client connection was lost");
    return 0;
}
