/*
 * sql_func.c — the one table of built-in scalar functions: every overload
 * with its PostgreSQL 15 oid, argument and result types, volatility,
 * strictness, C symbol (prosrc) and implementation. Calls are dispatched
 * through it (sql_expr.c), pg_proc lists its rows (sql_pgcatalog.c), and
 * the result cache reads volatility from it (sql_resultkey.c). Also the
 * regular-expression match of ~ ~* !~ !~* and the regexp_* functions
 * (PCRE2), and the set-returning text functions (regexp_matches,
 * regexp_split_to_table, string_to_table) that sql_select.c expands.
 *
 * Invariants:
 *  - one row per overload; (name, nargs) picks at most one row;
 *  - a strict function answers NULL of its result type when an argument is
 *    NULL, without running its implementation (as PostgreSQL: the typing
 *    row of sql_select.c relies on it too);
 *  - unknown literals are coerced to the declared argument types before the
 *    implementation runs (anyarray arguments take text arrays as they are);
 *  - compiled patterns live for one statement (rl_exec.id) in the session,
 *    at most REGEX_CACHE of them; none outlives the session.
 *
 * Regular expressions: PostgreSQL implements its own ARE (Henry Spencer's
 * engine); RockLake uses PCRE2 with UTF, DOTALL (ARE's '.' and [^...] match
 * newlines unless told otherwise) and DOLLAR_ENDONLY ('$' is the end of the
 * string only). Differences left: ARE's \m \M \y \Y word-boundary escapes,
 * [[:<:]] / [[:>:]], (?n)-style embedded options ARE has and PCRE2 does not
 * (or spells differently); PCRE2's own extensions (lookbehind, possessive
 * quantifiers, \K) are accepted where PostgreSQL rejects them; and a bad
 * pattern's message text (SQLSTATE 2201B is the same) is PCRE2's. The
 * flags n / m / p / w map to PCRE2's MULTILINE and DOTALL (ARE's
 * newline-sensitive [^a] also refuses a newline; PCRE2's does not); b and e
 * (BRE / ERE) are 0A000. A subject's UTF-8 is checked once per call, not
 * at every match (a loop over the matches stays linear).
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

#include <assert.h>
#include <ctype.h>
#include <pthread.h>
#include <stdatomic.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/time.h>
#include <time.h>
#include <math.h>

#include "base/buf.h"
#include "pgtype/pgtype.h"
#include "sql/sql_advisory.h"
#include "sql/sql_array.h"
#include "sql/sql_exec.h"
#include "sql/sql_func.h"
#include "sql/sql_pgcatalog.h"
#include "sql/sql_seq.h"
#include "sql/sql_bytea.h"
#include "sql/sql_cast.h"
#include "sql/sql_datetime.h"
#include "sql/sql_json.h"
#include "sql/sql_mathfunc.h"
#include "sql/sql_strfunc.h"
#include "sql/sql_value.h"

#define NAME_MAX_BYTES 64

/* ----------------------------------------------------------- helpers */

/* "integer, text": the argument types as PostgreSQL's errors list them. */
static void arg_types(rl_exec *x, size_t nargs, const rl_value *args, char *types, size_t cap)
{
    size_t off = 0;
    types[0] = '\0';
    for (size_t i = 0; i < nargs && off < cap; i++)
        off += (size_t)snprintf(types + off, cap - off, "%s%s", i ? ", " : "",
                                rl_type_name_in(x, args[i].oid));
}

/* "function name(types) <what>" with `sqlstate` and PostgreSQL's hint. */
static int call_error(rl_expr_ctx *c, const char *sqlstate, const char *what, const char *hint,
                      const char *name, size_t nargs, const rl_value *args, int loc)
{
    char types[512];
    arg_types(c->x, nargs, args, types, sizeof types);
    rl_exec_error(c->x, sqlstate, loc, "function %s%s(%s) %s",
                  c->x->call_qualified && !strchr(name, '.') ? "pg_catalog." : "", name, types,
                  what);
    rl_error_hint(c->x->err, "%s", hint);
    return -1;
}

/* func_get_detail's function-style cast when no function takes the
 * argument: `int4(x)` of a type named so in pg_catalog is the cast when x
 * is of that type already (a relabeling) or goes through text on one side
 * (an I/O coercion: int4('12'::text), text(5); not a record into a
 * string). 1 done, 0 not such a call, -1 error. */
static int function_style_coercion(rl_expr_ctx *c, const char *name, const rl_value *args,
                                   rl_value *out)
{
    uint32_t to = rl_type_oid_by_name(name), from = args[0].oid;
    if (!to || !rl_pgcatalog_type_named(name))
        return 0;
    bool relabel = from == to;
    bool io = (rl_oid_is_textual(from) || rl_oid_is_textual(to)) && !rl_oid_is_composite(from);
    if (!relabel && !io)
        return 0;
    return rl_value_coerce(c, &args[0], to, -1, true, out, -1) < 0 ? -1 : 1;
}

int rl_func_cast_call(rl_expr_ctx *c, const char *name, size_t nargs, const rl_value *args,
                      rl_value *out, int loc)
{
    uint32_t to = 0;
    if (nargs != 1)
        return 0;
    bool literal = args[0].oid == RL_OID_UNKNOWN;
    if (!literal && rl_pgcatalog_castproc(name, args[0].oid, &to) != 1)
        return function_style_coercion(c, name, args, out);
    /* the engine's type of that name: bpchar(...) gives bpchar, as
     * ::bpchar; a castproc's is its result (castproc_callable) */
    uint32_t engine = rl_type_oid_by_name(name);
    if (literal && (!engine || !rl_pgcatalog_type_named(name)))
        return 0; /* no type (int4's alias "integer" is none), or not the engine's */
    assert(engine);
    /* a literal's error points at it; a function's has no position */
    return rl_value_coerce(c, &args[0], engine, -1, true, out, literal ? loc : -1) < 0 ? -1 : 1;
}

int rl_func_no_function(rl_expr_ctx *c, const char *name, size_t nargs, const rl_value *args,
                        int loc)
{
    return call_error(c, RL_SQLSTATE_UNDEFINED_FUNCTION, "does not exist",
                      "No function matches the given name and argument types. You might need to "
                      "add explicit type casts.",
                      name, nargs, args, loc);
}

int rl_func_unnest_refusal(rl_expr_ctx *c, size_t nargs, const rl_value *args, int loc)
{
    for (size_t i = 0; i < nargs; i++)
        if (args[i].oid == RL_OID_ANYARRAY)
            return rl_exec_error(c->x, RL_SQLSTATE_DATATYPE_MISMATCH, -1,
                                 "cannot determine element type of \"anyarray\" argument");
    return rl_func_no_function(c, "unnest", nargs, args, loc);
}

int rl_func_not_unique(rl_expr_ctx *c, const char *name, size_t nargs, const rl_value *args,
                       int loc)
{
    return call_error(c, RL_SQLSTATE_AMBIGUOUS_FUNCTION, "is not unique",
                      "Could not choose a best candidate function. You might need to add explicit "
                      "type casts.",
                      name, nargs, args, loc);
}

static bool is_series_point(uint32_t oid)
{
    return oid == RL_OID_DATE || oid == RL_OID_TIMESTAMP || oid == RL_OID_TIMESTAMPTZ;
}

/* generate_series over date/time values: PostgreSQL's candidates
 * (timestamp, timestamp, interval) when the bounds are timestamps or
 * unknown literals, else (timestamptz, timestamptz, interval), the
 * preferred type of the two (two unknown literals, a date or a
 * timestamptz). */
static int series_datetime_type(rl_expr_ctx *c, size_t n, const rl_value *a, uint32_t *t, int loc)
{
    bool bounds_ok = n == 3, all_ts = true, any_ts = false;
    for (size_t i = 0; i < 2; i++) {
        bounds_ok &= is_series_point(a[i].oid) || a[i].oid == RL_OID_UNKNOWN;
        all_ts &= a[i].oid == RL_OID_TIMESTAMP || a[i].oid == RL_OID_UNKNOWN;
        any_ts |= a[i].oid == RL_OID_TIMESTAMP;
    }
    if (!bounds_ok || (a[2].oid != RL_OID_INTERVAL && a[2].oid != RL_OID_UNKNOWN))
        return rl_func_no_function(c, "generate_series", n, a, loc);
    *t = all_ts && any_ts ? RL_OID_TIMESTAMP : RL_OID_TIMESTAMPTZ;
    return 0;
}

/* generate_series over numbers: numeric when an argument is, int8 when
 * one is, else int4; unknown literals follow the others. */
static int series_number_type(rl_expr_ctx *c, size_t n, const rl_value *a, uint32_t *t, int loc)
{
    bool numeric = false, int8 = false, int4 = false;
    for (size_t i = 0; i < n; i++) {
        uint32_t o = a[i].oid;
        if (o == RL_OID_UNKNOWN)
            continue;
        if (o != RL_OID_NUMERIC && (!rl_oid_is_intlike(o) || rl_oid_is_reg(o) || o == RL_OID_OID))
            return rl_func_no_function(c, "generate_series", n, a, loc);
        numeric |= o == RL_OID_NUMERIC;
        int8 |= o == RL_OID_INT8;
        int4 |= o == RL_OID_INT4;
    }
    /* only unknown literals and smallints: int4, int8 and numeric fit alike */
    if (!numeric && !int8 && !int4)
        return rl_func_not_unique(c, "generate_series", n, a, loc);
    *t = numeric ? RL_OID_NUMERIC : int8 ? RL_OID_INT8 : RL_OID_INT4;
    return 0;
}

int rl_func_series_type(rl_expr_ctx *c, size_t n, const rl_value *a, uint32_t *t, int loc)
{
    assert(n == 2 || n == 3);
    for (size_t i = 0; i < n; i++)
        if (is_series_point(a[i].oid) || a[i].oid == RL_OID_INTERVAL)
            return series_datetime_type(c, n, a, t, loc);
    return series_number_type(c, n, a, t, loc);
}

static int64_t now_us(void)
{
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return (int64_t)tv.tv_sec * 1000000 + tv.tv_usec - PG_EPOCH_UNIX_US;
}

int64_t rl_func_txn_start(rl_expr_ctx *c)
{
    rl_session *s = c->x->s;
    if (!s)
        return now_us();
    if (!s->txn_start_us)
        s->txn_start_us = now_us();
    return s->txn_start_us;
}

static int put_text(rl_expr_ctx *c, rl_value *out, uint32_t oid, const char *s)
{
    return rl_val_str_copy(c, out, oid, s, strlen(s));
}

static uint32_t oid_arg(const rl_value *v) { return (uint32_t)v->d.v.i; }

/* ------------------------------------------------- time, session, text */

static int fn_now(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    rl_val_int(out, RL_OID_TIMESTAMPTZ, rl_func_txn_start(c));
    return 0;
}

static int fn_clock(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    rl_val_int(out, RL_OID_TIMESTAMPTZ, now_us());
    return 0;
}

static int fn_version(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    const char *v = c->x->s ? c->x->s->eng->version : "";
    rl_val_str(out, RL_OID_TEXT, v, strlen(v));
    return 0;
}

static int fn_current_database(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    const char *db = c->x->s ? c->x->s->eng->database : "";
    rl_val_str(out, RL_OID_NAME, db, strlen(db));
    return 0;
}

static int fn_current_schema(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    rl_val_str(out, RL_OID_NAME, "public", 6);
    return 0;
}

static int fn_backend_pid(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    rl_val_int(out, RL_OID_INT4, c->x->s->backend_pid);
    return 0;
}

/* txid_current() (bigint) and pg_current_xact_id() (xid8: the result
 * type `out` comes as): the transaction's number, taken at its first call
 * by either: the writer's epoch (one more at every open of the lake as its
 * writer) above a counter of the process, so numbers only grow, as
 * PostgreSQL's epoch-extended xids do. A follower assigns none (25006, as
 * a standby). The _if_assigned twins: that number, NULL before it. */
static _Atomic uint64_t txids_assigned; /* the low half of the last number given */

/* What became of the transactions numbered in this process (pg_xact_status):
 * a ring of the last TXID_RING, each slot the number that owns it (0 free)
 * and its status; a number whose slot another holds is too old to know. */
#define TXID_RING 4096
typedef enum { TXID_IN_PROGRESS = 1, TXID_COMMITTED, TXID_ABORTED } txid_status;
static struct {
    pthread_mutex_t mu;
    int64_t txid[TXID_RING];
    uint8_t status[TXID_RING];
} txid_ring = {.mu = PTHREAD_MUTEX_INITIALIZER};

static void txid_note(int64_t txid, txid_status st)
{
    size_t slot = (uint64_t)txid % TXID_RING;
    pthread_mutex_lock(&txid_ring.mu);
    if (st == TXID_IN_PROGRESS || txid_ring.txid[slot] == txid) {
        txid_ring.txid[slot] = txid;
        txid_ring.status[slot] = (uint8_t)st;
    }
    pthread_mutex_unlock(&txid_ring.mu);
}

void rl_func_txid_end(int64_t txid, bool committed)
{
    if (txid)
        txid_note(txid, committed ? TXID_COMMITTED : TXID_ABORTED);
}

static int fn_txid_current(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    rl_session *s = c->x->s;
    assert(out->oid == RL_OID_INT8 || out->oid == RL_OID_XID8);
    if (rl_catalog_read_only(s->eng->cat))
        return rl_exec_error(c->x, RL_SQLSTATE_READ_ONLY_SQL_TRANSACTION, loc,
                             "cannot assign TransactionIds during recovery");
    if (!s->txid) {
        uint64_t k = (atomic_fetch_add(&txids_assigned, 1) + 1) & 0xffffffffu;
        s->txid = (int64_t)((rl_catalog_writer_epoch(s->eng->cat) << 32) | k);
        txid_note(s->txid, TXID_IN_PROGRESS);
    }
    rl_val_int(out, out->oid, s->txid);
    return 0;
}

static int fn_txid_current_if_assigned(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out,
                                       int loc)
{
    assert(out->oid == RL_OID_INT8 || out->oid == RL_OID_XID8);
    if (c->x->s->txid)
        rl_val_int(out, out->oid, c->x->s->txid);
    return 0; /* else out stays the NULL it came as */
}

/* pg_xact_status(xid8) / txid_status(bigint): "committed", "aborted" or
 * "in progress" for a number this process gave and still remembers; 1 and
 * 2 (PostgreSQL's bootstrap and frozen ids) committed; NULL for another
 * (older, or a previous writer's: unknown, as PostgreSQL's answer for an id
 * its commit log no longer holds); 22023 past the last number given. */
static int fn_xact_status(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    uint64_t x = (uint64_t)a[0].d.v.i;
    rl_val_null(out, RL_OID_TEXT);
    if (x == 1 || x == 2) {
        rl_val_str(out, RL_OID_TEXT, "committed", 9);
        return 0;
    }
    rl_session *s = c->x->s;
    uint64_t last = (rl_catalog_writer_epoch(s->eng->cat) << 32) |
                    (atomic_load(&txids_assigned) & 0xffffffffu);
    if (x > last)
        return rl_exec_error(c->x, RL_SQLSTATE_INVALID_PARAMETER_VALUE, -1,
                             "transaction ID %" PRIu64 " is in the future", x);
    size_t slot = x % TXID_RING;
    pthread_mutex_lock(&txid_ring.mu);
    uint8_t st = (uint64_t)txid_ring.txid[slot] == x ? txid_ring.status[slot] : 0;
    pthread_mutex_unlock(&txid_ring.mu);
    static const char *const names[] = {NULL, "in progress", "committed", "aborted"};
    if (st)
        rl_val_str(out, RL_OID_TEXT, names[st], strlen(names[st]));
    return 0;
}

/* A follower (a reader of another server's lake) is PostgreSQL's hot
 * standby: in recovery. */
static int fn_is_in_recovery(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    rl_val_bool(out, rl_catalog_read_only(c->x->s->eng->cat));
    return 0;
}

/* pg_promote(wait, wait_seconds): a follower (--read-only) becomes the
 * writer of its lakes (src/server/lakes.c, srv_lakes_promote), fencing the
 * old writer. The promotion is done when it returns, whatever `wait`
 * says (it takes well under wait_seconds). PostgreSQL lets superusers
 * alone call it; here a session that may write (not access=read-only). */
static int fn_promote(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    rl_session *s = c->x->s;
    /* the privilege first: PostgreSQL checks EXECUTE before the call */
    if (s->read_only_role)
        return rl_exec_error(c->x, RL_SQLSTATE_INSUFFICIENT_PRIVILEGE, -1,
                             "permission denied for function pg_promote");
    /* then recovery, then the argument, in PostgreSQL's order */
    if (!s->promote || !rl_catalog_read_only(s->eng->cat)) {
        rl_exec_error(c->x, RL_SQLSTATE_OBJECT_STATE, -1, "recovery is not in progress");
        rl_error_hint(c->x->err,
                      "Recovery control functions can only be executed during recovery.");
        return -1;
    }
    if (a[1].d.v.i <= 0)
        return rl_exec_error(c->x, RL_SQLSTATE_INVALID_PARAMETER_VALUE, -1,
                             "\"wait_seconds\" must not be negative or zero");
    if (s->promote(s->promote_ctx, c->x->err) < 0)
        return -1;
    rl_val_bool(out, true);
    return 0;
}

/* Backend pid of the server, copied into *out: 1, 0 when there is none,
 * -1 with 53200 when out of memory. */
static int find_backend(rl_exec *x, const rl_activity_source *src, int32_t pid,
                        rl_backend_activity *out)
{
    size_t n = 0;
    rl_backend_activity *all = src ? src->list(src->ctx, &n) : NULL;
    if (src && !all)
        return rl_exec_error(x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    int found = 0;
    for (size_t i = 0; i < n && !found; i++)
        if (all[i].pid == pid) {
            *out = all[i];
            found = 1;
        }
    free(all);
    return found;
}

/* pg_terminate_backend(pid, timeout > 0): wait until the backend is gone,
 * at most timeout ms; else PostgreSQL's WARNING and false. */
static int wait_for_end(rl_expr_ctx *c, int32_t pid, int64_t timeout_ms, rl_value *out)
{
    const rl_activity_source *src = c->x->s->activity;
    rl_backend_activity seen;
    uint64_t end = rl_monotonic_ns() + (uint64_t)timeout_ms * 1000000u;
    for (;;) {
        int listed = find_backend(c->x, src, pid, &seen);
        if (listed < 0)
            return -1;
        if (!listed) {
            rl_val_bool(out, true);
            return 0;
        }
        if (rl_exec_check_cancel(c->x) < 0)
            return -1;
        if (rl_monotonic_ns() >= end) {
            rl_exec_notice(c->x, RL_SQLSTATE_WARNING,
                           "backend with PID %d did not terminate within %" PRId64 " milliseconds",
                           pid, timeout_ms);
            rl_val_bool(out, false);
            return 0;
        }
        struct timespec d = {.tv_sec = 0, .tv_nsec = 5000000L};
        nanosleep(&d, NULL);
    }
}

/* pg_cancel_backend / pg_terminate_backend: signal a backend of the server
 * (rl_session_info.activity) as pg_signal_backend decides: a pid that is
 * no backend is a WARNING and false; a role that may only read the lake
 * signals its own user's backends alone (a role that may write is a
 * superuser of it, pg_roles). Ending this session itself is allowed: the
 * statement is cancelled and the server sends the FATAL. */
static int signal_backend(rl_expr_ctx *c, const rl_value *a, bool terminate, rl_value *out)
{
    rl_session *s = c->x->s;
    int32_t pid = (int32_t)a[0].d.v.i;
    if (terminate && a[1].d.v.i < 0)
        return rl_exec_error(c->x, RL_SQLSTATE_NUMERIC_VALUE_OUT_OF_RANGE, -1,
                             "\"timeout\" must not be negative");
    const rl_activity_source *src = s ? s->activity : NULL;
    rl_backend_activity target;
    int found = find_backend(c->x, src, pid, &target);
    if (found < 0)
        return -1;
    if (!found) {
        rl_exec_notice(c->x, RL_SQLSTATE_WARNING, "PID %d is not a PostgreSQL backend process", pid);
        rl_val_bool(out, false);
        return 0;
    }
    if (s->read_only_role && target.superuser)
        return rl_exec_error(c->x, RL_SQLSTATE_INSUFFICIENT_PRIVILEGE, -1,
                             terminate ? "must be a superuser to terminate superuser process"
                                       : "must be a superuser to cancel superuser query");
    if (s->read_only_role && strcmp(target.usename, s->user) != 0)
        return rl_exec_error(c->x, RL_SQLSTATE_INSUFFICIENT_PRIVILEGE, -1,
                             terminate ? "must be a member of the role whose process is being "
                                         "terminated or member of pg_signal_backend"
                                       : "must be a member of the role whose query is being "
                                         "canceled or member of pg_signal_backend");
    bool sent = src->signal(src->ctx, pid, terminate);
    int64_t timeout_ms = terminate ? a[1].d.v.i : 0;
    if (sent && timeout_ms > 0 && pid != s->backend_pid)
        return wait_for_end(c, pid, timeout_ms, out);
    rl_val_bool(out, sent);
    return 0;
}

static int fn_cancel_backend(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return signal_backend(c, a, false, out);
}

static int fn_terminate_backend(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return signal_backend(c, a, true, out);
}

/* pg_sleep(seconds): in slices of at most 10 ms, so that a cancel, the
 * statement timeout or pg_terminate_backend stops it at once (PostgreSQL
 * waits on its latch the same way). Not run on a typing row. */
static int fn_sleep(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    rl_val_str(out, RL_OID_VOID, "", 0);
    double secs = a[0].d.v.f;
    if (!(secs > 0)) /* also NaN */
        return 0;
    uint64_t end = rl_monotonic_ns() + (uint64_t)(fmin(secs, 1e9) * 1e9);
    for (;;) {
        if (rl_exec_check_cancel(c->x) < 0)
            return -1;
        uint64_t now = rl_monotonic_ns();
        if (now >= end)
            return 0;
        uint64_t ns = end - now < 10000000u ? end - now : 10000000u;
        struct timespec d = {.tv_sec = 0, .tv_nsec = (long)ns};
        nanosleep(&d, NULL);
    }
}

/* The server's start (the statement's start in a process that serves
 * none). */
static int fn_postmaster_start_time(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    const rl_activity_source *src = c->x->s ? c->x->s->activity : NULL;
    rl_val_int(out, RL_OID_TIMESTAMPTZ, src ? src->server_start - PG_EPOCH_UNIX_US : now_us());
    return 0;
}

static int fn_client_encoding(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    rl_val_str(out, RL_OID_NAME, "UTF8", 4);
    return 0;
}

/* current_schemas(include_implicit): the search path that exists,
 * pg_catalog first when implicit schemas are asked for. */
static int fn_current_schemas(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    const char *s = a[0].d.v.b ? "{pg_catalog,public}" : "{public}";
    return rl_val_str_copy(c, out, rl_array_oid_of(RL_OID_NAME), s, strlen(s));
}

/* pg_my_temp_schema(): the session's pg_temp_N, 0 while it has none. */
static int fn_my_temp_schema(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    rl_val_int(out, RL_OID_OID, rl_pgcatalog_temp_namespace(c->x));
    return 0;
}

/* The to_reg* functions: NULL for a missing object; a malformed name is
 * still an error, raised as a function's, without a position. */
static int fn_to_regclass(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return rl_regclass_from_text(c, (const char *)a[0].d.v.s.p, a[0].d.v.s.len, true, out, -1);
}

/* to_regtype / to_regnamespace / to_regrole / to_regproc / to_regprocedure:
 * the oid the name has, as that type's input reads it, or NULL where the input
 * would fail for a missing object, or (to_regproc) for a name of several
 * functions (psycopg's type lookup asks to_regtype('hstore')). */
static int to_reg(rl_expr_ctx *c, uint32_t oid, const rl_value *name, rl_value *out)
{
    uint32_t found = 0;
    int r = rl_pgcatalog_reg_oid(c->x, oid, (const char *)name->d.v.s.p, name->d.v.s.len, &found,
                                 -1);
    if (r == -3)
        return rl_exec_error(c->x, RL_SQLSTATE_INVALID_TEXT_REPRESENTATION, -1,
                             "expected a left parenthesis");
    if (r == -4)
        return rl_exec_error(c->x, RL_SQLSTATE_INVALID_NAME, -1, "invalid name syntax");
    if (r == -1)
        return -1;
    if (r == 1)
        rl_val_int(out, oid, found);
    else
        rl_val_null(out, oid);
    return 0;
}

static int fn_to_regtype(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return to_reg(c, RL_OID_REGTYPE, &a[0], out);
}

static int fn_to_regproc(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return to_reg(c, RL_OID_REGPROC, &a[0], out);
}

static int fn_to_regprocedure(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return to_reg(c, RL_OID_REGPROCEDURE, &a[0], out);
}

static int fn_to_regnamespace(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return to_reg(c, RL_OID_REGNAMESPACE, &a[0], out);
}

static int fn_to_regrole(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return to_reg(c, RL_OID_REGROLE, &a[0], out);
}

/* pg_database_size(name): the store's bytes for this session's database.
 * An engine serves one database and knows of no other, so any other name is
 * 3D000 as for a database that does not exist. */
static int fn_database_size(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    if (!c->x->s) {
        rl_val_null(out, RL_OID_INT8);
        return 0;
    }
    const char *db = c->x->s->eng->database;
    if (strlen(db) != a[0].d.v.s.len || memcmp(db, a[0].d.v.s.p, a[0].d.v.s.len) != 0)
        return rl_exec_error(c->x, RL_SQLSTATE_INVALID_CATALOG_NAME, loc,
                             "database \"%.*s\" does not exist",
                             (int)a[0].d.v.s.len, (const char *)a[0].d.v.s.p);
    rl_val_int(out, RL_OID_INT8, (int64_t)rl_catalog_size_bytes(c->x->s->eng->cat));
    return 0;
}

static int fn_split_part(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    int64_t field = a[2].d.v.i;
    if (field == 0)
        return rl_exec_error(c->x, RL_SQLSTATE_INVALID_PARAMETER_VALUE, -1,
                             "field position must not be zero");
    const uint8_t *s = a[0].d.v.s.p, *d = a[1].d.v.s.p;
    size_t sn = a[0].d.v.s.len, dn = a[1].d.v.s.len;
    /* split into fields; negative positions count from the end */
    size_t starts[256], ends[256], nf = 0, i = 0, st = 0;
    if (dn == 0) {
        starts[0] = 0;
        ends[0] = sn;
        nf = sn ? 1 : 0;
    } else {
        while (nf < 256) {
            if (i + dn <= sn && memcmp(s + i, d, dn) == 0) {
                starts[nf] = st;
                ends[nf++] = i;
                i += dn;
                st = i;
                continue;
            }
            if (i >= sn) {
                starts[nf] = st;
                ends[nf++] = sn;
                break;
            }
            i++;
        }
        if (sn == 0)
            nf = 0;
    }
    int64_t idx = field > 0 ? field - 1 : (int64_t)nf + field;
    if (idx < 0 || idx >= (int64_t)nf) {
        rl_val_str(out, RL_OID_TEXT, "", 0);
        return 0;
    }
    rl_val_str(out, RL_OID_TEXT, s + starts[idx], ends[idx] - starts[idx]);
    return 0;
}

static int fn_length(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    int64_t chars = 0;
    /* bpcharlen: the trailing blanks are not counted */
    size_t len = a[0].oid == RL_OID_BPCHAR ? rl_bpchar_trimmed_len(&a[0].d) : a[0].d.v.s.len;
    for (size_t i = 0; i < len; i++)
        chars += (a[0].d.v.s.p[i] & 0xC0) != 0x80;
    rl_val_int(out, RL_OID_INT4, chars);
    return 0;
}

/* chr(int): the character of a code point (UTF8); 0 and surrogates are
 * refused as in PostgreSQL. */
static int fn_chr(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    int64_t cp = a[0].d.v.i;
    if (cp == 0)
        return rl_exec_error(c->x, RL_SQLSTATE_PROGRAM_LIMIT_EXCEEDED, loc,
                             "null character not permitted");
    if (cp < 0)
        return rl_exec_error(c->x, RL_SQLSTATE_INVALID_PARAMETER_VALUE, loc,
                             "character number must be positive");
    if (cp > 0x10FFFF)
        return rl_exec_error(c->x, RL_SQLSTATE_PROGRAM_LIMIT_EXCEEDED, loc,
                             "requested character too large for encoding: %" PRId64, cp);
    if (cp >= 0xD800 && cp <= 0xDFFF)
        return rl_exec_error(c->x, RL_SQLSTATE_PROGRAM_LIMIT_EXCEEDED, loc,
                             "requested character not valid for encoding: %" PRId64, cp);
    uint8_t b[4];
    size_t len;
    if (cp < 0x80) {
        b[0] = (uint8_t)cp;
        len = 1;
    } else if (cp < 0x800) {
        b[0] = (uint8_t)(0xC0 | (cp >> 6));
        b[1] = (uint8_t)(0x80 | (cp & 0x3F));
        len = 2;
    } else if (cp < 0x10000) {
        b[0] = (uint8_t)(0xE0 | (cp >> 12));
        b[1] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F));
        b[2] = (uint8_t)(0x80 | (cp & 0x3F));
        len = 3;
    } else {
        b[0] = (uint8_t)(0xF0 | (cp >> 18));
        b[1] = (uint8_t)(0x80 | ((cp >> 12) & 0x3F));
        b[2] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F));
        b[3] = (uint8_t)(0x80 | (cp & 0x3F));
        len = 4;
    }
    return rl_val_str_copy(c, out, RL_OID_TEXT, b, len);
}

/* ----------------------------------------------------- catalog helpers */

static int visible_answer(rl_value *out, int r)
{
    if (r < 0)
        return -1;
    if (r == 2)
        rl_val_null(out, RL_OID_BOOL); /* no such object: NULL, as PostgreSQL */
    else
        rl_val_bool(out, r == 1);
    return 0;
}

/* ------------------------------------- has_*_privilege, pg_has_role (acl.c)
 *
 * Each takes an optional role first (a name, 42704 when no role has it, or
 * an oid), the object (a name, which must exist, or an oid, NULL when none
 * has it) and a privilege list: names separated by commas, any case,
 * spaces around them, each maybe WITH GRANT OPTION (22023 for another
 * word); true when the role holds any of them (rl_pgcatalog_privilege). */

typedef struct acl_word {
    const char *name;
    unsigned bit;
} acl_word;

static const acl_word table_privs[] = {
    {"SELECT", RL_ACL_SELECT}, {"INSERT", RL_ACL_INSERT}, {"UPDATE", RL_ACL_UPDATE},
    {"DELETE", RL_ACL_DELETE}, {"TRUNCATE", RL_ACL_TRUNCATE}, {"REFERENCES", RL_ACL_REFERENCES},
    {"TRIGGER", RL_ACL_TRIGGER}, {NULL, 0}};
static const acl_word schema_privs[] = {{"CREATE", RL_ACL_CREATE}, {"USAGE", RL_ACL_USAGE},
                                        {NULL, 0}};
static const acl_word database_privs[] = {{"CREATE", RL_ACL_CREATE}, {"CONNECT", RL_ACL_CONNECT},
                                          {"TEMPORARY", RL_ACL_TEMPORARY},
                                          {"TEMP", RL_ACL_TEMPORARY}, {NULL, 0}};
static const acl_word role_privs[] = {{"MEMBER", 1}, {"USAGE", 1}, {NULL, 0}};

static int acl_privs(rl_expr_ctx *c, const rl_value *v, const acl_word *words, bool admin_option,
                     unsigned *out)
{
    const char *p = (const char *)v->d.v.s.p;
    size_t len = v->d.v.s.len;
    *out = 0;
    for (size_t i = 0; i <= len;) {
        size_t j = i;
        while (j < len && p[j] != ',')
            j++;
        size_t b = i, e = j;
        while (b < e && isspace((unsigned char)p[b]))
            b++;
        while (e > b && isspace((unsigned char)p[e - 1]))
            e--;
        char word[64];
        size_t wl = e - b < sizeof word - 1 ? e - b : sizeof word - 1;
        memcpy(word, p + b, wl);
        word[wl] = 0;
        unsigned bit = 0;
        for (size_t k = 0; words[k].name && !bit; k++) {
            size_t nl = strlen(words[k].name);
            if (strncasecmp(word, words[k].name, nl) != 0)
                continue;
            if (word[nl] == 0)
                bit = words[k].bit;
            else if (strcasecmp(word + nl, " WITH GRANT OPTION") == 0 ||
                     (admin_option && strcasecmp(word + nl, " WITH ADMIN OPTION") == 0))
                bit = words[k].bit | RL_ACL_GRANT_OPTION;
        }
        if (!bit || e - b >= sizeof word)
            return rl_exec_error(c->x, RL_SQLSTATE_INVALID_PARAMETER_VALUE, -1,
                                 "unrecognized privilege type: \"%.*s\"", (int)(e - b), p + b);
        *out |= bit;
        i = j + 1;
    }
    return 0;
}

/* The role argument: by name (42704 when none) or by oid. */
static int acl_role(rl_expr_ctx *c, const rl_value *v, uint32_t *role)
{
    if (v->oid != RL_OID_NAME && v->oid != RL_OID_TEXT) {
        *role = (uint32_t)v->d.v.i;
        return 0;
    }
    char name[128];
    snprintf(name, sizeof name, "%.*s", (int)v->d.v.s.len, (const char *)v->d.v.s.p);
    if (rl_pgcatalog_role_oid(c->x, name, role) == 1)
        return 0;
    return rl_exec_error(c->x, RL_SQLSTATE_UNDEFINED_OBJECT, -1, "role \"%s\" does not exist",
                         name);
}

static bool by_name(const rl_value *v) { return v->oid == RL_OID_TEXT || v->oid == RL_OID_NAME; }

/* The role (the session's when the call names none) and the object's
 * argument of a has_*_privilege call. */
static int acl_target(rl_expr_ctx *c, size_t n, rl_value *a, uint32_t *role, rl_value **obj)
{
    *role = rl_pgcatalog_current_role(c->x);
    *obj = &a[n - 2];
    return n == 3 ? acl_role(c, &a[0], role) : 0;
}

static int acl_answer(rl_value *out, int r)
{
    if (r < 0)
        return -1;
    if (r == 2)
        rl_val_null(out, RL_OID_BOOL);
    else
        rl_val_bool(out, r == 1);
    return 0;
}

static int fn_has_table_privilege(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    uint32_t role;
    rl_value *obj, rel;
    unsigned privs;
    if (acl_target(c, n, a, &role, &obj) < 0)
        return -1;
    uint32_t oid = (uint32_t)obj->d.v.i;
    if (by_name(obj)) {
        /* PostgreSQL's error here has no position: the name is a value */
        if (rl_regclass_from_text(c, (const char *)obj->d.v.s.p, obj->d.v.s.len, false, &rel,
                                  -1) < 0)
            return -1;
        oid = (uint32_t)rel.d.v.i;
    }
    if (acl_privs(c, &a[n - 1], table_privs, false, &privs) < 0)
        return -1;
    return acl_answer(out, rl_pgcatalog_privilege(c->x, role, RL_ACL_TABLE, oid, privs));
}

static int fn_has_schema_privilege(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    uint32_t role;
    rl_value *obj;
    unsigned privs;
    if (acl_target(c, n, a, &role, &obj) < 0)
        return -1;
    uint32_t oid = (uint32_t)obj->d.v.i;
    if (by_name(obj)) {
        char name[128];
        snprintf(name, sizeof name, "%.*s", (int)obj->d.v.s.len, (const char *)obj->d.v.s.p);
        int ex = rl_pgcatalog_schema_exists(c->x, name);
        if (ex < 0)
            return -1;
        if (ex == 0)
            return rl_exec_error(c->x, RL_SQLSTATE_INVALID_SCHEMA_NAME, -1,
                                 "schema \"%s\" does not exist", name);
        oid = rl_pgcatalog_namespace_oid(name);
    } else {
        char buf[128];
        int r = rl_pgcatalog_reg_name(c->x, RL_OID_REGNAMESPACE, oid, buf, sizeof buf);
        if (r <= 0)
            return r < 0 ? -1 : acl_answer(out, 2);
    }
    if (acl_privs(c, &a[n - 1], schema_privs, false, &privs) < 0)
        return -1;
    return acl_answer(out, rl_pgcatalog_privilege(c->x, role, RL_ACL_SCHEMA, oid, privs));
}

static int fn_has_database_privilege(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out,
                                     int loc)
{
    uint32_t role;
    rl_value *obj;
    unsigned privs;
    if (acl_target(c, n, a, &role, &obj) < 0)
        return -1;
    const char *db = c->x->s->eng->database;
    uint32_t oid = rl_pgcatalog_database_oid(c->x);
    if (by_name(obj)) {
        if (obj->d.v.s.len != strlen(db) || memcmp(obj->d.v.s.p, db, obj->d.v.s.len) != 0)
            return rl_exec_error(c->x, RL_SQLSTATE_INVALID_CATALOG_NAME, -1,
                                 "database \"%.*s\" does not exist", (int)obj->d.v.s.len,
                                 (const char *)obj->d.v.s.p);
    } else if ((uint32_t)obj->d.v.i != oid) {
        return acl_answer(out, 2);
    }
    if (acl_privs(c, &a[n - 1], database_privs, false, &privs) < 0)
        return -1;
    return acl_answer(out, rl_pgcatalog_privilege(c->x, role, RL_ACL_DATABASE, oid, privs));
}

/* pg_has_role([member,] role, 'MEMBER' | 'USAGE' [WITH ADMIN | GRANT OPTION]):
 * superusers are members of every role and may administer it. */
static int fn_pg_has_role(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    uint32_t member = rl_pgcatalog_current_role(c->x), role;
    unsigned privs;
    if ((n == 3 && acl_role(c, &a[0], &member) < 0) || acl_role(c, &a[n - 2], &role) < 0 ||
        acl_privs(c, &a[n - 1], role_privs, true, &privs) < 0)
        return -1;
    bool in = rl_pgcatalog_role_member(c->x, member, role);
    if (privs & RL_ACL_GRANT_OPTION) /* only a superuser administers a role here */
        in = in && rl_pgcatalog_role_super(c->x, member);
    rl_val_bool(out, in);
    return 0;
}

static int fn_table_is_visible(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return visible_answer(out, rl_pgcatalog_rel_visible(c->x, oid_arg(&a[0])));
}

static int fn_type_is_visible(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return visible_answer(out, rl_pgcatalog_type_visible(c->x, oid_arg(&a[0])));
}

static int fn_collation_is_visible(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out,
                                   int loc)
{
    return visible_answer(out, rl_pgcatalog_collation_visible(oid_arg(&a[0])));
}

/* pg_operator_is_visible, pg_opclass_is_visible, pg_conversion_is_visible
 * and the text search ones: the object's catalog by the function's name. */
#define OBJECT_VISIBLE(fn, catalog)                                                               \
    static int fn(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)                 \
    {                                                                                             \
        return visible_answer(out, rl_pgcatalog_object_visible(catalog, oid_arg(&a[0])));        \
    }
OBJECT_VISIBLE(fn_operator_is_visible, "pg_operator")
OBJECT_VISIBLE(fn_opclass_is_visible, "pg_opclass")
OBJECT_VISIBLE(fn_conversion_is_visible, "pg_conversion")
OBJECT_VISIBLE(fn_opfamily_is_visible, "pg_opfamily")
OBJECT_VISIBLE(fn_ts_config_is_visible, "pg_ts_config")
OBJECT_VISIBLE(fn_ts_dict_is_visible, "pg_ts_dict")
OBJECT_VISIBLE(fn_ts_parser_is_visible, "pg_ts_parser")
OBJECT_VISIBLE(fn_ts_template_is_visible, "pg_ts_template")
OBJECT_VISIBLE(fn_statistics_obj_is_visible, "pg_statistic_ext")

/* getdatabaseencoding(): the one encoding RockLake speaks. */
static int fn_database_encoding(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return put_text(c, out, RL_OID_NAME, "UTF8");
}

/* pg_tablespace_location(oid): '' for the default tablespaces (in the data
 * directory), which are the only ones. */
static int fn_tablespace_location(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return put_text(c, out, RL_OID_TEXT, "");
}

/* Every function of the table is in pg_catalog, which is always searched. */
static int fn_function_is_visible(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    uint32_t oid = oid_arg(&a[0]);
    size_t nf;
    const rl_func *all = rl_func_all(&nf);
    uint32_t ret, args[8];
    size_t nargs;
    bool ordered;
    bool found = rl_pgcatalog_captured_proc(oid, &ret, args, &nargs, &ordered) == 1;
    for (size_t i = 0; i < nf && !found; i++)
        found = all[i].oid == oid;
    if (found) /* every built-in is in pg_catalog, always searched */
        rl_val_bool(out, true);
    else
        rl_val_null(out, RL_OID_BOOL);
    return 0;
}

/* pg_get_functiondef: PostgreSQL 15's text of a function pg_proc lists,
 * NULL for no function, 42809 for an aggregate (as ruleutils.c). */
static int fn_get_functiondef(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    const char *text = NULL;
    switch (rl_pgcatalog_functiondef(oid_arg(&a[0]), &text)) {
    case 1:
        return put_text(c, out, RL_OID_TEXT, text);
    case 2:
        return rl_exec_error(c->x, RL_SQLSTATE_WRONG_OBJECT_TYPE, -1,
                             "\"%s\" is an aggregate function", text);
    default:
        rl_val_null(out, RL_OID_TEXT);
        return 0;
    }
}

static int fn_function_sqlbody(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    const char *body = rl_pgcatalog_function_sqlbody(oid_arg(&a[0]));
    if (body)
        return put_text(c, out, RL_OID_TEXT, body);
    rl_val_null(out, RL_OID_TEXT);
    return 0;
}

/* shobj_description: no shared object (database, role, tablespace) has a
 * comment here (COMMENT ON DATABASE / ROLE is not kept). */
static int fn_shobj_description(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    rl_val_null(out, RL_OID_TEXT);
    return 0;
}

/* pg_get_userbyid: a role's name, "unknown (OID=n)" for none. */
static int fn_get_userbyid(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    const char *name = rl_pgcatalog_role_name(c->x, oid_arg(&a[0]));
    char buf[64];
    if (!name) {
        snprintf(buf, sizeof buf, "unknown (OID=%" PRIu32 ")", oid_arg(&a[0]));
        name = buf;
    }
    return put_text(c, out, RL_OID_NAME, name);
}

/* format_type(type, typmod): SQL's spelling with the modifier; NULL type
 * is NULL (not strict: a NULL typmod means "none"). */
static int fn_format_type(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    if (a[0].d.isnull) {
        rl_val_null(out, RL_OID_TEXT);
        return 0;
    }
    char buf[256];
    int32_t typmod = a[1].d.isnull ? -1 : (int32_t)a[1].d.v.i;
    if (a[1].d.isnull)
        rl_pgcatalog_format_type(c->x, oid_arg(&a[0]), typmod, buf, sizeof buf);
    else
        rl_pgcatalog_format_type_typmod(c->x, oid_arg(&a[0]), typmod, buf, sizeof buf);
    return put_text(c, out, RL_OID_TEXT, buf);
}

/* The server encoding is always UTF8 (6); PostgreSQL answers "" for an
 * encoding number it does not know. (KOI8R / KOI8U are split literals only
 * so that scripts/check-sqlstates.py does not take them for SQLSTATEs.) */
/* PostgreSQL's encodings by number (pg_enc), and the other names its
 * pg_char_to_encoding knows them by (lower case, letters and digits only:
 * 'ISO-8859-1' is 'iso88591'). */
static const char *const encoding_names[] = {
    "SQL_ASCII", "EUC_JP", "EUC_CN", "EUC_KR", "EUC_TW", "EUC_JIS_2004", "UTF8",
    "MULE_INTERNAL", "LATIN1", "LATIN2", "LATIN3", "LATIN4", "LATIN5", "LATIN6",
    "LATIN7", "LATIN8", "LATIN9", "LATIN10", "WIN1256", "WIN1258", "WIN866", "WIN874",
    "KOI8" "R", "WIN1251", "WIN1252", "ISO_8859_5", "ISO_8859_6", "ISO_8859_7",
    "ISO_8859_8", "WIN1250", "WIN1253", "WIN1254", "WIN1255", "WIN1257", "KOI8" "U",
    "SJIS", "BIG5", "GBK", "UHC", "GB18030", "JOHAB", "SHIFT_JIS_2004"};
static const struct {
    const char *alias, *name;
} encoding_aliases[] = {
    {"abc", "WIN1258"},       {"alt", "WIN866"},         {"iso88591", "LATIN1"},
    {"iso885910", "LATIN6"},  {"iso885913", "LATIN7"},   {"iso885914", "LATIN8"},
    {"iso885915", "LATIN9"},  {"iso885916", "LATIN10"},  {"iso88592", "LATIN2"},
    {"iso88593", "LATIN3"},   {"iso88594", "LATIN4"},    {"iso88599", "LATIN5"},
    {"koi8", "KOI8" "R"},     {"mskanji", "SJIS"},       {"shiftjis", "SJIS"},
    {"tcvn", "WIN1258"},      {"tcvn5712", "WIN1258"},   {"unicode", "UTF8"},
    {"vscii", "WIN1258"},     {"win", "WIN1251"},        {"win932", "SJIS"},
    {"win936", "GBK"},        {"win949", "UHC"},         {"win950", "BIG5"},
    {"windows1250", "WIN1250"}, {"windows1251", "WIN1251"}, {"windows1252", "WIN1252"},
    {"windows1253", "WIN1253"}, {"windows1254", "WIN1254"}, {"windows1255", "WIN1255"},
    {"windows1256", "WIN1256"}, {"windows1257", "WIN1257"}, {"windows1258", "WIN1258"},
    {"windows866", "WIN866"}, {"windows874", "WIN874"},  {"windows932", "SJIS"},
    {"windows936", "GBK"},    {"windows949", "UHC"},     {"windows950", "BIG5"}};

static int fn_encoding_to_char(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    int64_t e = a[0].d.v.i;
    const char *s = e >= 0 && e < (int64_t)(sizeof encoding_names / sizeof encoding_names[0])
                        ? encoding_names[e]
                        : "";
    return put_text(c, out, RL_OID_NAME, s);
}

/* name with only its letters and digits, lower-cased, into out (n > 0). */
static void encoding_key(const uint8_t *p, size_t len, char *out, size_t n)
{
    size_t o = 0;
    for (size_t i = 0; i < len && o + 1 < n; i++)
        if (isalnum(p[i]))
            out[o++] = (char)tolower(p[i]);
    out[o] = '\0';
}

/* pg_char_to_encoding(name): the encoding's number, -1 if none. */
static int fn_char_to_encoding(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    char key[64], canon[64];
    encoding_key(a[0].d.v.s.p, a[0].d.v.s.len, key, sizeof key);
    for (size_t i = 0; i < sizeof encoding_aliases / sizeof encoding_aliases[0]; i++)
        if (strcmp(key, encoding_aliases[i].alias) == 0) {
            const char *name = encoding_aliases[i].name;
            encoding_key((const uint8_t *)name, strlen(name), key, sizeof key);
            break;
        }
    int64_t found = -1;
    for (size_t i = 0; found < 0 && i < sizeof encoding_names / sizeof encoding_names[0]; i++) {
        encoding_key((const uint8_t *)encoding_names[i], strlen(encoding_names[i]), canon,
                     sizeof canon);
        if (strcmp(key, canon) == 0)
            found = (int64_t)i;
    }
    rl_val_int(out, RL_OID_INT4, found);
    return 0;
}

/* array_to_string(array, delimiter [, null string]): the elements of an
 * array's text form ({a,"b c",NULL}) joined, NULL elements left out or
 * written as the null string. The 3-argument form is not strict: a NULL
 * array or delimiter is NULL, a NULL null string leaves NULLs out. */
static int fn_array_to_string(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    if (a[0].d.isnull || a[1].d.isnull)
        return 0; /* out is a NULL of text */
    const rl_value *nulls = n == 3 && !a[2].d.isnull ? &a[2] : NULL;
    rl_buf b, el;
    rl_buf_init(&b, 0);
    rl_buf_init(&el, 0);
    size_t pos = 0;
    bool first = true, isnull;
    while (rl_elem_next(&a[0], &pos, &el, &isnull)) {
        if (isnull && !nulls)
            continue;
        if (!first)
            rl_buf_put(&b, a[1].d.v.s.p, a[1].d.v.s.len);
        if (isnull)
            rl_buf_put(&b, nulls->d.v.s.p, nulls->d.v.s.len);
        else
            rl_buf_put(&b, el.data, el.len);
        first = false;
    }
    rl_buf_free(&el);
    return rl_val_buf_copy(c, out, RL_OID_TEXT, &b); /* frees b */
}

static bool is_vector(const rl_value *v)
{
    return v->oid == RL_OID_INT2VECTOR || v->oid == RL_OID_OIDVECTOR;
}

/* The bounds of a one-dimensional array or vector: its element count and
 * lower bound (1 for an array; 0 for int2vector and oidvector, as
 * PostgreSQL stores them). An empty array has no dimension; an empty
 * vector has one, of no elements ([0:-1]). RockLake has no
 * multidimensional arrays. */
static size_t elem_count(const rl_value *arr, int *lower)
{
    *lower = is_vector(arr) ? 0 : 1;
    rl_buf el;
    rl_buf_init(&el, 0);
    size_t pos = 0, count = 0;
    bool isnull;
    while (rl_elem_next(arr, &pos, &el, &isnull))
        count++;
    rl_buf_free(&el);
    return count;
}

/* array_length / array_lower / array_upper (a[1]: the dimension): NULL for
 * an empty array or a dimension it does not have. */
static int array_bound(rl_value *a, rl_value *out, int which)
{
    int lower;
    size_t count = elem_count(&a[0], &lower);
    if ((count == 0 && !is_vector(&a[0])) || a[1].d.v.i != 1) {
        rl_val_null(out, RL_OID_INT4);
        return 0;
    }
    int64_t v = which == 0 ? (int64_t)count : which < 0 ? lower : lower + (int64_t)count - 1;
    rl_val_int(out, RL_OID_INT4, v);
    return 0;
}

static int fn_array_length(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return array_bound(a, out, 0);
}

static int fn_array_lower(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return array_bound(a, out, -1);
}

static int fn_array_upper(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return array_bound(a, out, 1);
}

/* cardinality: every element (0 for an empty array, never NULL). */
static int fn_cardinality(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    int lower;
    rl_val_int(out, RL_OID_INT4, (int64_t)elem_count(&a[0], &lower));
    return 0;
}

/* array_ndims: 1, NULL for an empty array (not vector). */
static int fn_array_ndims(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    int lower;
    if (elem_count(&a[0], &lower) == 0 && !is_vector(&a[0]))
        rl_val_null(out, RL_OID_INT4);
    else
        rl_val_int(out, RL_OID_INT4, 1);
    return 0;
}

/* array_dims: "[lower:upper]", NULL for an empty array (not vector). */
static int fn_array_dims(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    int lower;
    size_t count = elem_count(&a[0], &lower);
    if (count == 0 && !is_vector(&a[0])) {
        rl_val_null(out, RL_OID_TEXT);
        return 0;
    }
    char buf[48];
    snprintf(buf, sizeof buf, "[%d:%lld]", lower, (long long)lower + (long long)count - 1);
    return rl_val_str_copy(c, out, RL_OID_TEXT, buf, strlen(buf));
}

/* obj_description(oid [, catalog name]) and col_description(oid, attnum):
 * a system object's comment from pg_description's fixed rows (PostgreSQL
 * 15's fresh database has none on the objects \d shows), a lake object's
 * from its COMMENT ON (sql_comment.c). */
static int fn_description(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    bool column = n == 2 && a[1].oid == RL_OID_INT4;
    uint32_t oid = oid_arg(&a[0]), classoid = 0;
    if (n == 2 && !column) { /* the catalog by name, as regclass would read it */
        const char *cat = (const char *)a[1].d.v.s.p;
        size_t len = a[1].d.v.s.len;
        classoid = len == 8 && memcmp(cat, "pg_class", 8) == 0          ? 1259
                   : len == 12 && memcmp(cat, "pg_namespace", 12) == 0 ? 2615
                   : len == 7 && memcmp(cat, "pg_proc", 7) == 0        ? 1255
                   : len == 12 && memcmp(cat, "pg_extension", 12) == 0 ? 3079
                   : len == 5 && memcmp(cat, "pg_am", 5) == 0          ? 2601
                   : len == 11 && memcmp(cat, "pg_language", 11) == 0  ? 2612
                   : len == 12 && memcmp(cat, "pg_ts_config", 12) == 0 ? 3602
                   : len == 10 && memcmp(cat, "pg_ts_dict", 10) == 0   ? 3600
                   : len == 12 && memcmp(cat, "pg_ts_parser", 12) == 0 ? 3601
                   : len == 14 && memcmp(cat, "pg_ts_template", 14) == 0 ? 3764
                   : len == 7 && memcmp(cat, "pg_cast", 7) == 0        ? 2605
                   : len == 13 && memcmp(cat, "pg_conversion", 13) == 0 ? 2607
                                                                       : UINT32_MAX;
    }
    const char *d = column || classoid == UINT32_MAX ? NULL : rl_pgcatalog_description(oid, classoid);
    if (d)
        return put_text(c, out, RL_OID_TEXT, d);
    char *lake = NULL;
    int r = classoid == UINT32_MAX
                ? 0
                : rl_pgcatalog_lake_description(c->x, oid, classoid,
                                                column ? (int32_t)a[1].d.v.i : 0, &lake);
    if (r < 0)
        return -1;
    if (r == 0) {
        rl_val_null(out, RL_OID_TEXT);
        return 0;
    }
    int rc = put_text(c, out, RL_OID_TEXT, lake);
    free(lake);
    return rc;
}

/* pg_get_expr: the lake keeps one kind of expression, column defaults,
 * whose adbin holds pg_get_expr's plain text (pg_attrdef); every other
 * pg_node_tree column is NULL (strict). Any other value came from a
 * literal, which PostgreSQL's pg_node_tree input refuses (0A000). */
static int fn_get_expr(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    if (a[0].oid == RL_OID_PG_NODE_TREE && a[0].d.v.s.len >= 17 &&
        !memcmp(a[0].d.v.s.p, "{ROCKLAKE_INDPRED", 17)) { /* a lake index's indpred */
        char *tree = strndup((const char *)a[0].d.v.s.p, a[0].d.v.s.len);
        char *buf = tree ? malloc(RL_INDEXDEF_MAX) : NULL;
        int r = buf ? rl_pgcatalog_index_expr(c->x, tree, n == 3 && a[2].d.v.b, buf,
                                              RL_INDEXDEF_MAX)
                    : rl_exec_error(c->x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
        if (r == 0)
            rl_val_null(out, RL_OID_TEXT);
        if (r == 1)
            r = put_text(c, out, RL_OID_TEXT, buf) < 0 ? -1 : 0;
        free(tree);
        free(buf);
        return r;
    }
    bool pretty = n == 3 && a[2].d.v.b;
    size_t len = a[0].d.v.s.len;
    char *plain = malloc(len + 1);
    if (!plain)
        return rl_exec_error(c->x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    memcpy(plain, a[0].d.v.s.p, len);
    plain[len] = '\0';
    const char *text;
    int rc = rl_pgcatalog_default_expr(c->x, oid_arg(&a[1]), plain, pretty, &text);
    if (rc == 0) /* not an adbin: a literal, which pg_node_tree's input refuses */
        rc = rl_exec_error(c->x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, loc,
                           "cannot accept a value of type pg_node_tree");
    else if (rc > 0)
        rc = put_text(c, out, RL_OID_TEXT, text);
    free(plain);
    return rc < 0 ? -1 : 0;
}

/* The lake has no triggers (pg_trigger is empty; a FOREIGN KEY's checks
 * are the catalog's own, not triggers): NULL, as for an unknown oid. */
static int fn_get_triggerdef(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    rl_val_null(out, RL_OID_TEXT);
    return 0;
}

static int fn_get_indexdef(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    char *buf = malloc(RL_INDEXDEF_MAX);
    if (!buf)
        return rl_exec_error(c->x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    bool pretty = n == 3 && a[2].d.v.b;
    int col = n == 3 ? (int)a[1].d.v.i : 0;
    int r = rl_pgcatalog_indexdef(c->x, oid_arg(&a[0]), col, pretty, buf, RL_INDEXDEF_MAX);
    if (r == 0)
        rl_val_null(out, RL_OID_TEXT);
    if (r == 1)
        r = put_text(c, out, RL_OID_TEXT, buf) < 0 ? -1 : 0;
    free(buf);
    return r < 0 ? -1 : 0;
}

static int fn_get_constraintdef(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    /* a CHECK's texts are up to RL_CHECK_TEXT_MAX */
    char *buf = malloc(RL_CHECK_TEXT_MAX + 64);
    if (!buf)
        return rl_exec_error(c->x, RL_SQLSTATE_OUT_OF_MEMORY, loc, "out of memory");
    /* pretty (the 2-argument form): PostgreSQL drops the parentheses a
     * CHECK's expression needs only when printed alone */
    bool pretty = n > 1 && a[1].d.v.b;
    int r = rl_pgcatalog_constraintdef(c->x, oid_arg(&a[0]), pretty, buf, RL_CHECK_TEXT_MAX + 64);
    if (r == 0)
        r = rl_exec_error(c->x, RL_SQLSTATE_INTERNAL_ERROR, loc,
                          "cache lookup failed for constraint %" PRIu32, oid_arg(&a[0]));
    if (r == 1)
        r = put_text(c, out, RL_OID_TEXT, buf);
    free(buf);
    return r < 0 ? -1 : 0;
}

/* A lake has no extended statistics objects (pg_statistic_ext is empty):
 * NULL for every oid, as PostgreSQL answers for one that is none. */
static int fn_statisticsobjdef_columns(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out,
                                       int loc)
{
    rl_val_null(out, RL_OID_TEXT);
    return 0;
}

/* A function's result and argument types as \df prints them. */
static const rl_func *func_by_oid(uint32_t oid)
{
    size_t nf;
    const rl_func *all = rl_func_all(&nf);
    for (size_t i = 0; i < nf; i++)
        if (all[i].oid == oid)
            return &all[i];
    return NULL;
}

/* pg_get_function_result / _arguments of a captured pg_proc row (an
 * aggregate, a window function or a cast function): an ordered-set aggregate's last
 * argument is the aggregated one, "ORDER BY" before it. 1 done, 0 none. */
static int aggproc_text(rl_expr_ctx *c, uint32_t oid, bool result, rl_value *out)
{
    uint32_t ret, args[8];
    size_t nargs;
    bool ordered;
    if (!rl_pgcatalog_captured_proc(oid, &ret, args, &nargs, &ordered))
        return 0;
    char buf[512] = "";
    if (result) {
        rl_pgcatalog_format_type(c->x, ret, -1, buf, sizeof buf);
        return put_text(c, out, RL_OID_TEXT, buf) < 0 ? -1 : 1;
    }
    size_t off = 0;
    for (size_t i = 0; i < nargs && off < sizeof buf; i++) {
        char t[128];
        rl_pgcatalog_format_type(c->x, args[i], -1, t, sizeof t);
        const char *sep = ordered && i == nargs - 1 ? (i ? " ORDER BY " : "ORDER BY ")
                          : i                       ? ", "
                                                    : "";
        off += (size_t)snprintf(buf + off, sizeof buf - off, "%s%s", sep, t);
    }
    return put_text(c, out, RL_OID_TEXT, buf) < 0 ? -1 : 1;
}

static int fn_function_result(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    const rl_func *f = func_by_oid(oid_arg(&a[0]));
    if (!f) {
        int r = aggproc_text(c, oid_arg(&a[0]), true, out);
        if (r == 0)
            rl_val_null(out, RL_OID_TEXT);
        return r < 0 ? -1 : 0;
    }
    char buf[128];
    bool set = rl_func_oid_retset(f->oid);
    if (set)
        memcpy(buf, "SETOF ", 7);
    rl_pgcatalog_format_type(c->x, f->rettype, -1, buf + (set ? 6 : 0),
                             sizeof buf - (set ? 6 : 0));
    return put_text(c, out, RL_OID_TEXT, buf);
}

static int fn_function_arguments(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    const rl_func *f = func_by_oid(oid_arg(&a[0]));
    if (!f) {
        int r = aggproc_text(c, oid_arg(&a[0]), false, out);
        if (r == 0)
            rl_val_null(out, RL_OID_TEXT);
        return r < 0 ? -1 : 0;
    }
    const rl_func_default *d = NULL; /* the row's argument names and defaults */
    for (size_t k = 0; k < sizeof rl_func_defaults / sizeof rl_func_defaults[0]; k++)
        if (strcmp(rl_func_defaults[k].name, f->name) == 0 && rl_func_defaults[k].nargs == f->nargs)
            d = &rl_func_defaults[k];
    char buf[512] = "";
    size_t off = 0;
    for (size_t i = 0; i < f->nargs && off < sizeof buf; i++) {
        char t[128];
        if (f->argtypes[i] == RL_OID_VARIADIC_ANY)
            snprintf(t, sizeof t, "VARIADIC \"any\"");
        else
            rl_pgcatalog_format_type(c->x, f->argtypes[i], -1, t, sizeof t);
        size_t first = d ? (size_t)(d->nargs - d->ndefaults) : f->nargs;
        off += (size_t)snprintf(buf + off, sizeof buf - off, "%s%s%s%s%s%s", i ? ", " : "",
                                d && d->argnames[0] ? d->argnames[i] : "",
                                d && d->argnames[0] ? " " : "", t, i >= first ? " DEFAULT " : "",
                                i >= first ? d->defaults[i - first] : "");
    }
    return put_text(c, out, RL_OID_TEXT, buf);
}

/* pg_total_relation_size, pg_relation_size, pg_table_size,
 * pg_indexes_size: a lake table has no local storage of its own (its rows
 * are keys of the store, the whole store's bytes are pg_database_size), so
 * every relation's size is 0 like an empty table's (no pages), as relpages
 * is. PostgreSQL's own relations too. NULL for no such relation. */
static int fn_total_relation_size(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    int r = rl_pgcatalog_rel_visible(c->x, oid_arg(&a[0]));
    if (r < 0)
        return -1;
    if (r == 2)
        rl_val_null(out, RL_OID_INT8);
    else
        rl_val_int(out, RL_OID_INT8, 0);
    return 0;
}

/* Nothing is published: the lake has no publications (pg_publication is
 * empty), but an ordinary table could be. */
static int fn_relation_is_publishable(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out,
                                      int loc)
{
    int r = rl_pgcatalog_rel_visible(c->x, oid_arg(&a[0]));
    if (r < 0)
        return -1;
    if (r == 2)
        rl_val_null(out, RL_OID_BOOL);
    else
        rl_val_bool(out, oid_arg(&a[0]) >= 16384);
    return 0;
}

/* pg_typeof("any"): the argument's type, also of a NULL. */
static int fn_typeof(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    rl_val_int(out, RL_OID_REGTYPE, a[0].oid);
    return 0;
}

static int fn_textregexeq(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    bool m;
    if (rl_regex_match(c, &a[0], &a[1], false, &m, loc) < 0)
        return -1;
    rl_val_bool(out, m);
    return 0;
}

/* ------------------------------------------------------------ the table */

static int fn_regexp_replace(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
static int fn_regexp_like(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
static int fn_regexp_match(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
static int fn_regexp_split_to_array(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
static int fn_regexp_count(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
static int fn_regexp_instr(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
static int fn_regexp_substr(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
static int fn_regex_substring(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);

/* The row of a set-returning function the table lists for pg_proc (its
 * calls are rl_func_is_setfn's, taken before the table): a call that
 * reaches it anyway is refused as PostgreSQL refuses a set where a value
 * is wanted. */
static int fn_set_in_scalar(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return rl_exec_error(c->x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, loc,
                         "set-valued function called in context that cannot accept a set");
}

#define RL_FUNC(name, oid, nargs, ret, vol, strict, src, impl, ...)                           \
    {name, oid, nargs, {__VA_ARGS__}, ret, vol, strict, src, impl},
static const rl_func funcs[] = {
#include "sql/sql_functab.inc"
};
#undef RL_FUNC

const rl_func *rl_func_all(size_t *n)
{
    *n = sizeof funcs / sizeof funcs[0];
    return funcs;
}

static bool is_variadic(const rl_func *f)
{
    return f->nargs > 0 && f->argtypes[f->nargs - 1] == RL_OID_VARIADIC_ANY;
}

/* Fill args[from..d->nargs) with d's defaults; false when one of them has
 * none (an argument without a default is missing). */
static int fill_defaults(rl_expr_ctx *c, const rl_func_default *d, rl_value *args,
                         const bool *given, int loc, bool *ok)
{
    const rl_func *f = rl_func_find(d->name, d->nargs);
    assert(f);
    *ok = true;
    for (size_t a = 0; a < d->nargs && *ok; a++) {
        if (given[a])
            continue;
        size_t first = (size_t)(d->nargs - d->ndefaults);
        if (a < first) {
            *ok = false;
            break;
        }
        const char *text = d->defaults[a - first];
        assert(text);
        if (rl_text_to_value(c, text, strlen(text), f->argtypes[a], -1, false, &args[a], loc) < 0)
            return -1;
    }
    return 0;
}

/* 42883 for named arguments that fit no row, PostgreSQL's way of writing
 * the call: "function make_interval(foo => integer) does not exist". */
int rl_func_no_named_function(rl_expr_ctx *c, const char *name, const rl_value *args,
                              const char *const *names, size_t n, int loc)
{
    char types[512] = "";
    size_t off = 0;
    for (size_t i = 0; i < n && off < sizeof types; i++)
        off += (size_t)snprintf(types + off, sizeof types - off, "%s%s%s%s", i ? ", " : "",
                                names[i] ? names[i] : "", names[i] ? " => " : "",
                                rl_oid_type_name(args[i].oid));
    rl_exec_error(c->x, RL_SQLSTATE_UNDEFINED_FUNCTION, loc, "function %s(%s) does not exist",
                  name, types);
    rl_error_hint(c->x->err, "No function matches the given name and argument types. You "
                             "might need to add explicit type casts.");
    return -1;
}

int rl_func_arrange(rl_expr_ctx *c, const char *name, rl_value *args, const char *const *names,
                    size_t *n, size_t cap, int loc)
{
    size_t positional = *n;
    for (size_t i = 0; i < *n; i++)
        if (names[i]) {
            positional = i;
            break;
        }
    bool named = positional < *n;
    if (!named && rl_func_find(name, *n))
        return 0; /* a row takes them as they are */
    for (size_t k = 0; k < sizeof rl_func_defaults / sizeof rl_func_defaults[0]; k++) {
        const rl_func_default *d = &rl_func_defaults[k];
        if (strcmp(d->name, name) != 0 || d->nargs > cap || *n > d->nargs ||
            (named && !d->argnames[0]) || (!named && *n < (size_t)(d->nargs - d->ndefaults)))
            continue;
        rl_value placed[RL_FUNC_MAX_ARGS];
        bool given[RL_FUNC_MAX_ARGS] = {false};
        bool fits = true;
        for (size_t i = 0; i < *n && fits; i++) {
            size_t at = i;
            if (names[i]) {
                for (at = 0; at < d->nargs && strcmp(d->argnames[at], names[i]) != 0; at++)
                    ;
                fits = at < d->nargs && !given[at];
            }
            if (fits) {
                placed[at] = args[i];
                given[at] = true;
            }
        }
        if (!fits)
            continue;
        if (fill_defaults(c, d, placed, given, loc, &fits) < 0)
            return -1;
        if (!fits)
            continue;
        memcpy(args, placed, d->nargs * sizeof *args);
        *n = d->nargs;
        return 0;
    }
    return named ? rl_func_no_named_function(c, name, args, names, *n, loc) : 0;
}

/* The row taking exactly n arguments, else a VARIADIC one that takes n. */
const rl_func *rl_func_find(const char *name, size_t n)
{
    const rl_func *variadic = NULL;
    for (size_t i = 0; i < sizeof funcs / sizeof funcs[0]; i++) {
        const rl_func *f = &funcs[i];
        if (strcmp(f->name, name) != 0)
            continue;
        if (f->nargs == n && !is_variadic(f))
            return f;
        if (is_variadic(f) && n >= f->nargs && !variadic)
            variadic = f;
    }
    return variadic;
}

char rl_func_volatility(const char *name, size_t n)
{
    char worst = 0;
    for (size_t i = 0; i < sizeof funcs / sizeof funcs[0]; i++) {
        const rl_func *f = &funcs[i];
        if (strcmp(f->name, name) != 0 ||
            !(f->nargs == n || (is_variadic(f) && n >= f->nargs)))
            continue;
        char v = f->volatility;
        if (!worst || v == 'v' || (v == 's' && worst == 'i'))
            worst = v;
    }
    return worst;
}

bool rl_func_known(const char *name)
{
    for (size_t i = 0; i < sizeof funcs / sizeof funcs[0]; i++)
        if (strcmp(funcs[i].name, name) == 0)
            return true;
    return false;
}

/* ---------------------------------------------------- overload resolution
 *
 * PostgreSQL's func_select_candidate over the table's rows of one name and
 * argument count: keep the rows every argument can reach (the same type,
 * an unknown literal, an implicit cast); then those with the most exact
 * matches; then those taking their category's preferred type where a cast
 * is needed; then, for unknown literals, the string category if a row
 * takes it there, else the one category all rows take, preferring its
 * preferred type; then, when all known arguments have one type, the rows
 * that take it at the unknown positions. One left: chosen; none: 42883;
 * more: 42725. */

#define MAX_CANDIDATES 16

static uint32_t declared(const rl_func *f, size_t i)
{
    return i < f->nargs ? f->argtypes[i] : RL_OID_VARIADIC_ANY;
}

static bool polymorphic(uint32_t t)
{
    return t == RL_OID_ANY || t == RL_OID_VARIADIC_ANY || t == RL_OID_ANYARRAY ||
           t == RL_OID_ANYELEMENT || t == RL_OID_PG_NODE_TREE || t == RL_OID_ANYCOMPATIBLE ||
           t == RL_OID_ANYCOMPATIBLEARRAY;
}

/* Can argument type `have` reach declared type `want` implicitly? */
/* PostgreSQL's implicit casts text / varchar -> regclass (text_regclass):
 * nextval(pg_get_serial_sequence('t', 'id')), Django's sequence reset.
 * Only a function's argument takes them here. */
static bool text_to_regclass(uint32_t have, uint32_t want)
{
    return want == RL_OID_REGCLASS && (have == RL_OID_TEXT || have == RL_OID_VARCHAR);
}

static bool reachable(uint32_t have, uint32_t want)
{
    if (have == RL_OID_UNKNOWN || have == want || want == RL_OID_ANY ||
        want == RL_OID_VARIADIC_ANY || want == RL_OID_ANYELEMENT || want == RL_OID_ANYCOMPATIBLE)
        return true;
    if (want == RL_OID_ANYARRAY || want == RL_OID_ANYCOMPATIBLEARRAY)
        return rl_array_elem_oid(have) != 0 || have == RL_OID_INT2VECTOR ||
               have == RL_OID_OIDVECTOR;
    if (want == RL_OID_PG_NODE_TREE)
        return false;
    return rl_oid_implicit_cast(have, want) || text_to_regclass(have, want);
}

/* An argument whose type is itself a polymorphic pseudo-type (a NULL cast
 * to anyarray) reaches, as check_generic_type_consistency lets it, "any"
 * and the element pseudo-types, and anyarray only from anyarray (no
 * pseudo-type is an array of anything, so never anycompatiblearray),
 * whether or not it is NULL. */
static bool pseudo_reaches(uint32_t have, uint32_t want)
{
    if (want == RL_OID_ANY || want == RL_OID_VARIADIC_ANY || want == RL_OID_ANYELEMENT ||
        want == RL_OID_ANYCOMPATIBLE)
        return true;
    return want == RL_OID_ANYARRAY && have == RL_OID_ANYARRAY;
}

static bool is_pseudo(uint32_t t)
{
    return t == RL_OID_ANY || t == RL_OID_ANYARRAY || t == RL_OID_ANYELEMENT ||
           t == RL_OID_ANYNONARRAY || t == RL_OID_ANYCOMPATIBLE ||
           t == RL_OID_ANYCOMPATIBLEARRAY || t == RL_OID_ANYCOMPATIBLENONARRAY;
}

/* Keep the candidates whose score is the highest; true when it narrowed. */
static size_t keep_best(const rl_func **cand, size_t n, const int *score)
{
    int best = score[0];
    for (size_t i = 1; i < n; i++)
        if (score[i] > best)
            best = score[i];
    size_t k = 0;
    for (size_t i = 0; i < n; i++)
        if (score[i] == best)
            cand[k++] = cand[i];
    return k;
}

static int not_unique(rl_expr_ctx *c, const char *name, size_t n, const rl_value *args, int loc)
{
    char types[512] = "";
    size_t off = 0;
    for (size_t i = 0; i < n && off < sizeof types; i++)
        off += (size_t)snprintf(types + off, sizeof types - off, "%s%s", i ? ", " : "",
                                rl_oid_type_name(args[i].oid));
    rl_exec_error(c->x, RL_SQLSTATE_AMBIGUOUS_FUNCTION, loc, "function %s(%s) is not unique", name,
                  types);
    rl_error_hint(c->x->err, "Could not choose a best candidate function. You might need to add "
                             "explicit type casts.");
    return -1;
}

/* The unknown-literal steps: at each unknown position, the category the
 * remaining rows agree on (strings win), preferring its preferred type. */
static size_t resolve_unknowns(const rl_func **cand, size_t nc, size_t n, const rl_value *args)
{
    for (size_t i = 0; i < n && nc > 1; i++) {
        if (args[i].oid != RL_OID_UNKNOWN)
            continue;
        char cat = 0;
        bool string = false, conflict = false;
        for (size_t k = 0; k < nc; k++) {
            uint32_t t = declared(cand[k], i);
            char ck = rl_oid_category(t);
            string |= ck == 'S';
            if (k == 0)
                cat = ck;
            else if (ck != cat)
                conflict = true;
        }
        if (string)
            cat = 'S';
        else if (conflict)
            continue; /* no decision at this position */
        int score[MAX_CANDIDATES];
        bool any_preferred = false;
        for (size_t k = 0; k < nc; k++)
            any_preferred |= rl_oid_category(declared(cand[k], i)) == cat &&
                             rl_oid_preferred(declared(cand[k], i));
        for (size_t k = 0; k < nc; k++) {
            uint32_t t = declared(cand[k], i);
            score[k] = rl_oid_category(t) != cat ? 0 : (!any_preferred || rl_oid_preferred(t)) ? 2 : 1;
        }
        nc = keep_best(cand, nc, score);
    }
    return nc;
}

int rl_func_resolve(rl_expr_ctx *c, const char *name, size_t n, const rl_value *args,
                    const rl_func **out, int loc)
{
    const rl_func *cand[MAX_CANDIDATES];
    size_t nc = 0;
    for (size_t i = 0; i < sizeof funcs / sizeof funcs[0] && nc < MAX_CANDIDATES; i++) {
        const rl_func *f = &funcs[i];
        if (strcmp(f->name, name) != 0 ||
            !(f->nargs == n || (is_variadic(f) && n >= f->nargs)))
            continue;
        bool ok = true;
        for (size_t a = 0; a < n && ok; a++)
            /* a NULL of a type RockLake does not model (aclitem[]) still
             * passes where any array or any value is taken */
            ok = is_pseudo(args[a].oid) ? pseudo_reaches(args[a].oid, declared(f, a))
                 : args[a].d.isnull && (args[a].oid == RL_OID_UNKNOWN || polymorphic(declared(f, a)))
                     ? true
                     : reachable(args[a].oid, declared(f, a));
        if (ok)
            cand[nc++] = f;
    }
    if (nc == 0)
        return rl_func_no_function(c, name, n, args, loc);
    int score[MAX_CANDIDATES];
    if (nc > 1) { /* the most exact matches */
        for (size_t k = 0; k < nc; k++) {
            score[k] = 0;
            for (size_t a = 0; a < n; a++)
                score[k] += args[a].oid != RL_OID_UNKNOWN && args[a].oid == declared(cand[k], a);
        }
        nc = keep_best(cand, nc, score);
    }
    if (nc > 1) { /* preferred types where a cast is needed */
        for (size_t k = 0; k < nc; k++) {
            score[k] = 0;
            for (size_t a = 0; a < n; a++) {
                uint32_t t = declared(cand[k], a);
                score[k] += args[a].oid != RL_OID_UNKNOWN && args[a].oid != t &&
                            !polymorphic(t) && rl_oid_preferred(t);
            }
        }
        nc = keep_best(cand, nc, score);
    }
    if (nc > 1)
        nc = resolve_unknowns(cand, nc, n, args);
    if (nc > 1) { /* unknowns taken as the one type of the known arguments */
        uint32_t known = 0;
        bool same = true;
        for (size_t a = 0; a < n; a++) {
            if (args[a].oid == RL_OID_UNKNOWN)
                continue;
            same &= !known || known == args[a].oid;
            known = args[a].oid;
        }
        if (known && same) {
            for (size_t k = 0; k < nc; k++) {
                score[k] = 1;
                for (size_t a = 0; a < n; a++)
                    if (args[a].oid == RL_OID_UNKNOWN && !reachable(known, declared(cand[k], a)))
                        score[k] = 0;
            }
            nc = keep_best(cand, nc, score);
        }
    }
    if (nc > 1)
        return not_unique(c, name, n, args, loc);
    *out = cand[0];
    return 0;
}

/* Does a value of type `have` pass as declared type `want`? Text-like types
 * pass as text (implicit casts: varchar, name, "char" -> text), integers
 * and reg* as oid, int2 as int4, int2/int4 as int8, any array as anyarray. */
static bool arg_fits(uint32_t have, uint32_t want)
{
    if (have == want || want == RL_OID_ANY || want == RL_OID_VARIADIC_ANY ||
        want == RL_OID_ANYELEMENT || want == RL_OID_ANYCOMPATIBLE)
        return true;
    switch (want) {
    case RL_OID_ANYCOMPATIBLEARRAY: return rl_oid_is_textual(have);
    case RL_OID_TEXT:
    case RL_OID_NAME: /* bpchar's cast to text takes its padding off */
        return rl_oid_is_textual(have) && have != RL_OID_BPCHAR;
    case RL_OID_OID:
    case RL_OID_REGCLASS: return rl_oid_is_intlike(have);
    case RL_OID_INT4: return have == RL_OID_INT2;
    case RL_OID_INT8: return have == RL_OID_INT2 || have == RL_OID_INT4;
    case RL_OID_ANYARRAY:
        return rl_array_elem_oid(have) != 0 || have == RL_OID_INT2VECTOR ||
               have == RL_OID_OIDVECTOR;
    case RL_OID_PG_NODE_TREE: return have == RL_OID_UNKNOWN; /* a literal: refused on call */
    case RL_OID_RECORD: return rl_oid_is_composite(have); /* a table's row type too */
    }
    return false;
}

/* The common element type of f's anycompatible and anycompatiblearray
 * arguments (text when all are unknown literals), as
 * resolve_polymorphic_argtypes finds it: 0 with *elem, or -1 with 42883
 * when their types are of different categories or have no array type. */
static int anycompatible_type(rl_expr_ctx *c, const rl_func *f, size_t n, const rl_value *args,
                              uint32_t *elem, int loc)
{
    uint32_t t = 0;
    for (size_t i = 0; i < n && i < f->nargs; i++) {
        uint32_t have = args[i].oid;
        if (have == RL_OID_UNKNOWN)
            continue;
        if (f->argtypes[i] == RL_OID_ANYCOMPATIBLEARRAY)
            have = rl_elem_oid_of(have);
        else if (f->argtypes[i] != RL_OID_ANYCOMPATIBLE)
            continue;
        if (!have || (t && rl_oid_category(t) != rl_oid_category(have)))
            return rl_func_no_function(c, f->name, n, args, loc);
        /* the wider of the two: the one the other casts to implicitly
         * and not back, or the category's preferred type */
        if (!t || (t != have && rl_oid_implicit_cast(t, have) &&
                   (!rl_oid_implicit_cast(have, t) || rl_oid_preferred(have))))
            t = have;
    }
    *elem = t ? t : RL_OID_TEXT;
    if (*elem == RL_OID_INT2VECTOR || !rl_array_oid_of(*elem))
        return rl_func_no_function(c, f->name, n, args, loc);
    return 0;
}

/* The result type of a call of f whose arguments are resolved: the
 * declared one, or what the polymorphic arguments make it. */
static uint32_t result_type(const rl_func *f, size_t n, const rl_value *args, uint32_t compat)
{
    if (f->rettype == RL_OID_ANYCOMPATIBLEARRAY)
        return rl_array_oid_of(compat);
    if (f->rettype == RL_OID_ANYELEMENT) /* json_populate_record: its base's type */
        for (size_t i = 0; i < n && i < f->nargs; i++)
            if (f->argtypes[i] == RL_OID_ANYELEMENT)
                return args[i].oid;
    if (f->rettype != RL_OID_ANYARRAY)
        return f->rettype;
    for (size_t i = 0; i < n && i < f->nargs; i++) {
        if (f->argtypes[i] == RL_OID_ANYARRAY)
            return args[i].oid;
        if (f->argtypes[i] == RL_OID_ANYELEMENT)
            return rl_array_oid_of(args[i].oid);
    }
    return f->rettype;
}

uint32_t rl_func_arg_type(rl_exec *x, const char *name, size_t n, const uint32_t *oids,
                          size_t which)
{
    if (n > RL_FUNC_MAX_ARGS || which >= n)
        return 0;
    rl_value args[RL_FUNC_MAX_ARGS];
    for (size_t i = 0; i < n; i++) {
        rl_val_null(&args[i], oids[i] ? oids[i] : RL_OID_UNKNOWN);
        args[i].d.isnull = oids[i] == RL_OID_UNKNOWN || !oids[i];
    }
    rl_error scratch, *keep = x->err;
    x->err = &scratch;
    memset(&scratch, 0, sizeof scratch);
    rl_expr_ctx c = {.x = x};
    const rl_func *f = NULL;
    int rc = rl_func_resolve(&c, name, n, args, &f, -1);
    /* a row whose last arguments default (json_populate_record(base, $1)):
     * those as NULLs of their declared types */
    for (size_t k = 0; rc < 0 && k < sizeof rl_func_defaults / sizeof rl_func_defaults[0]; k++) {
        const rl_func_default *d = &rl_func_defaults[k];
        const rl_func *row = rl_func_find(name, d->nargs);
        if (strcmp(d->name, name) != 0 || !row || d->nargs <= n ||
            n < (size_t)(d->nargs - d->ndefaults))
            continue;
        for (size_t i = n; i < d->nargs; i++)
            rl_val_null(&args[i], row->argtypes[i]);
        memset(&scratch, 0, sizeof scratch);
        rc = rl_func_resolve(&c, name, d->nargs, args, &f, -1);
    }
    uint32_t t = rc == 0 ? declared(f, which) : 0;
    if (t == RL_OID_ANYCOMPATIBLE || t == RL_OID_ANYCOMPATIBLEARRAY) {
        uint32_t elem = 0;
        bool known = false;
        for (size_t i = 0; i < n; i++)
            known |= args[i].oid != RL_OID_UNKNOWN;
        if (!known || anycompatible_type(&c, f, n, args, &elem, -1) < 0)
            t = 0;
        else
            t = t == RL_OID_ANYCOMPATIBLE ? elem : rl_array_oid_of(elem);
    } else if (t && polymorphic(t)) {
        t = 0; /* anyelement / anyarray / any: left to the other contexts */
    }
    x->err = keep;
    return t;
}

/* Where argument i's literal is (its input error points there), else the call. */
static int arg_location(const int *arglocs, size_t i, int loc)
{
    return arglocs && arglocs[i] >= 0 ? arglocs[i] : loc;
}

int rl_func_call(rl_expr_ctx *c, const rl_func *f, size_t n, rl_value *args, rl_value *out,
                 int loc, const int *arglocs)
{
    assert(n == f->nargs || (is_variadic(f) && n >= f->nargs));
    bool any_null = false;
    int impl_loc = loc;
    /* the call's own types for the 42883 message (unknown stays unknown) */
    for (size_t i = 0; i < n; i++) {
        uint32_t want = i < f->nargs ? f->argtypes[i] : RL_OID_VARIADIC_ANY;
        if (!args[i].d.isnull && args[i].oid != RL_OID_UNKNOWN && !reachable(args[i].oid, want))
            return rl_func_no_function(c, f->name, n, args, loc);
    }
    uint32_t compat = 0;
    bool has_compat = false;
    for (size_t i = 0; i < n && i < f->nargs; i++)
        has_compat |= f->argtypes[i] == RL_OID_ANYCOMPATIBLE ||
                      f->argtypes[i] == RL_OID_ANYCOMPATIBLEARRAY;
    if (has_compat && anycompatible_type(c, f, n, args, &compat, loc) < 0)
        return -1;
    for (size_t i = 0; i < n; i++) {
        uint32_t want = i < f->nargs ? f->argtypes[i] : RL_OID_VARIADIC_ANY;
        if (want == RL_OID_ANYCOMPATIBLE || want == RL_OID_ANYCOMPATIBLEARRAY) {
            /* every one to the common type, unknown literals too */
            uint32_t to = want == RL_OID_ANYCOMPATIBLE ? compat : rl_array_oid_of(compat);
            if (args[i].oid != to &&
                rl_value_coerce(c, &args[i], to, -1, false, &args[i], arg_location(arglocs, i, loc)) < 0)
                return -1;
            args[i].oid = to;
            any_null |= args[i].d.isnull;
            continue;
        }
        /* an implicit cast the chosen row needs (int4 into float8, numeric
         * into float8, date into timestamp, ...): applied here */
        if (args[i].oid != RL_OID_UNKNOWN && args[i].oid != want && !polymorphic(want) &&
            !arg_fits(args[i].oid, want) &&
            (rl_oid_implicit_cast(args[i].oid, want) || text_to_regclass(args[i].oid, want)) &&
            rl_value_coerce(c, &args[i], want, -1, false, &args[i], loc) < 0)
            return -1;
        /* the table's polymorphic rows take one anyelement or anyarray
         * each: an unknown one leaves the type undetermined (also a
         * literal array, '{1,2}') */
        if (args[i].oid == RL_OID_UNKNOWN && (want == RL_OID_ANYELEMENT || want == RL_OID_ANYARRAY))
            return rl_exec_error(c->x, RL_SQLSTATE_DATATYPE_MISMATCH, -1,
                                 "could not determine polymorphic type because input has type "
                                 "unknown");
        /* a pg_node_tree literal: the implementation refuses it, an input
         * error PostgreSQL reports at the literal */
        if (args[i].oid == RL_OID_UNKNOWN && want == RL_OID_PG_NODE_TREE)
            impl_loc = arg_location(arglocs, i, loc);
        if (args[i].oid == RL_OID_UNKNOWN && want != RL_OID_ANYARRAY && want != RL_OID_ANY &&
            want != RL_OID_VARIADIC_ANY &&
            want != RL_OID_PG_NODE_TREE &&
            rl_value_coerce(c, &args[i], want, -1, false, &args[i], arg_location(arglocs, i, loc)) < 0)
            return -1;
        if (!args[i].d.isnull && !arg_fits(args[i].oid, want))
            return rl_func_no_function(c, f->name, n, args, loc);
        /* a value of the same representation takes the declared type (int4
         * as int8, varchar as text): what the implementation reads */
        if (!polymorphic(want) && want != RL_OID_UNKNOWN)
            args[i].oid = want;
        any_null |= args[i].d.isnull;
    }
    /* a typing row only asks for the type, which the table declares. Its
     * column values are made-up NULLs: a function is not run on them
     * (json_build_object would refuse a NULL key a real row never has) nor
     * run for its side effects (set_config would set). An immutable call
     * whose arguments are all known is run, as PostgreSQL folds it while
     * planning: make_date(40, 72, 73) fails even where no row reaches it.
     * Nor is a volatile one run while a statement is only described (Parse /
     * Describe types a SELECT without FROM by evaluating it): a driver's
     * Describe of set_config, pg_sleep, pg_terminate_backend or pg_promote
     * must not set, sleep, end a session or promote. */
    uint32_t ret = result_type(f, n, args, compat);
    if ((f->strict && any_null) || (c->typing && (any_null || f->volatility != 'i')) ||
        (c->x->describing && f->volatility == 'v')) {
        rl_val_null(out, ret);
        return 0;
    }
    rl_val_null(out, ret);
    if (f->impl(c, n, args, out, impl_loc) == 0)
        return 0;
    if (strncmp(c->x->err->sqlstate, "42", 2) != 0 && impl_loc == loc) /* the executor's error */
        c->x->err->position = 0;
    return -1;
}

/* ------------------------------------------------- regular expressions */

#define REGEX_CACHE 16

typedef struct regex_ent {
    char *pattern; /* NUL-terminated copy */
    size_t len;
    uint32_t opts; /* PCRE2 compile options */
    pcre2_code *code;
} regex_ent;

struct rl_regex_cache {
    uint64_t exec; /* the statement the entries belong to */
    regex_ent ents[REGEX_CACHE];
    size_t n;
    pcre2_match_data *md;
    pcre2_match_context *mctx;
};

static void regex_clear(struct rl_regex_cache *rc)
{
    for (size_t i = 0; i < rc->n; i++) {
        free(rc->ents[i].pattern);
        pcre2_code_free(rc->ents[i].code);
    }
    rc->n = 0;
}

void rl_regex_cache_free(rl_session *s)
{
    struct rl_regex_cache *rc = s->regex;
    if (!rc)
        return;
    regex_clear(rc);
    pcre2_match_data_free(rc->md);
    pcre2_match_context_free(rc->mctx);
    free(rc);
    s->regex = NULL;
}

/* The session's cache, emptied when a new statement uses it. */
static struct rl_regex_cache *regex_cache(rl_exec *x)
{
    rl_session *s = x->s;
    if (!s)
        return NULL;
    if (!x->id)
        x->id = ++s->exec_seq;
    if (!s->regex) {
        struct rl_regex_cache *rc = calloc(1, sizeof *rc);
        if (!rc)
            return NULL;
        rc->md = pcre2_match_data_create(1, NULL);
        rc->mctx = pcre2_match_context_create(NULL);
        if (!rc->md || !rc->mctx) {
            pcre2_match_data_free(rc->md);
            pcre2_match_context_free(rc->mctx);
            free(rc);
            return NULL;
        }
        /* catastrophic backtracking ends in an error, not a hang */
        pcre2_set_match_limit(rc->mctx, 10000000);
        pcre2_set_depth_limit(rc->mctx, 100000);
        s->regex = rc;
    }
    if (s->regex->exec != x->id) {
        regex_clear(s->regex);
        s->regex->exec = x->id;
    }
    return s->regex;
}

/* ARE's defaults: '.' and [^...] match newlines, '$' is the end only. */
#define RE_DEFAULT (PCRE2_UTF | PCRE2_DOTALL | PCRE2_DOLLAR_ENDONLY)

/* PostgreSQL's (Spencer's regerror) text for a PCRE2 compile error of the
 * same kind, NULL for one with no counterpart (PCRE2's own text then). */
static const char *regex_pg_message(int err)
{
    switch (err) {
    case PCRE2_ERROR_MISSING_CLOSING_PARENTHESIS:
    case PCRE2_ERROR_UNMATCHED_CLOSING_PARENTHESIS: return "parentheses () not balanced";
    case PCRE2_ERROR_MISSING_SQUARE_BRACKET: return "brackets [] not balanced";
    case PCRE2_ERROR_QUANTIFIER_INVALID: return "quantifier operand invalid";
    case PCRE2_ERROR_QUANTIFIER_OUT_OF_ORDER:
    case PCRE2_ERROR_QUANTIFIER_TOO_BIG: return "invalid repetition count(s)";
    case PCRE2_ERROR_CLASS_RANGE_ORDER: return "invalid character range";
    case PCRE2_ERROR_UNKNOWN_POSIX_CLASS: return "invalid character class";
    case PCRE2_ERROR_END_BACKSLASH:
    case PCRE2_ERROR_UNKNOWN_ESCAPE: return "invalid escape \\ sequence";
    default: return NULL;
    }
}

/* A pattern that does not compile: 2201B, which PostgreSQL raises while
 * running (no position). */
static pcre2_code *regex_compile(rl_expr_ctx *c, const rl_value *pattern, uint32_t opts)
{
    int err;
    PCRE2_SIZE off;
    pcre2_code *code =
        pcre2_compile(pattern->d.v.s.p, pattern->d.v.s.len, opts, &err, &off, NULL);
    if (!code) {
        PCRE2_UCHAR msg[256];
        const char *pg = regex_pg_message(err);
        if (!pg)
            pcre2_get_error_message(err, msg, sizeof msg);
        rl_exec_error(c->x, RL_SQLSTATE_INVALID_REGULAR_EXPRESSION, -1,
                      "invalid regular expression: %s", pg ? pg : (const char *)msg);
    }
    return code;
}

/* The compiled pattern, from the statement's cache or compiled now (NULL
 * with the error set). */
static pcre2_code *regex_get(rl_expr_ctx *c, const rl_value *pattern, uint32_t opts, int loc)
{
    struct rl_regex_cache *rc = regex_cache(c->x);
    if (!rc) {
        rl_expr_oom(c);
        return NULL;
    }
    pcre2_code *code = NULL;
    for (size_t i = 0; i < rc->n && !code; i++) {
        regex_ent *e = &rc->ents[i];
        if (e->opts == opts && e->len == pattern->d.v.s.len &&
            memcmp(e->pattern, pattern->d.v.s.p, e->len) == 0)
            code = e->code;
    }
    if (!code) {
        if (!(code = regex_compile(c, pattern, opts)))
            return NULL;
        if (rc->n == REGEX_CACHE) { /* full: the oldest goes */
            free(rc->ents[0].pattern);
            pcre2_code_free(rc->ents[0].code);
            memmove(&rc->ents[0], &rc->ents[1], (REGEX_CACHE - 1) * sizeof rc->ents[0]);
            rc->n--;
        }
        regex_ent *e = &rc->ents[rc->n];
        if (!(e->pattern = malloc(pattern->d.v.s.len + 1))) {
            pcre2_code_free(code);
            rl_expr_oom(c);
            return NULL;
        }
        memcpy(e->pattern, pattern->d.v.s.p, pattern->d.v.s.len);
        e->pattern[pattern->d.v.s.len] = '\0';
        e->len = pattern->d.v.s.len;
        e->opts = opts;
        e->code = code;
        rc->n++;
    }
    return code;
}

/* A pcre2_match error other than no match: PostgreSQL's errors. */
static int regex_failed(rl_expr_ctx *c, int r, int loc)
{
    if (r == PCRE2_ERROR_BADUTFOFFSET || (r <= PCRE2_ERROR_UTF8_ERR1 && r >= PCRE2_ERROR_UTF8_ERR21))
        return rl_exec_error(c->x, RL_SQLSTATE_CHARACTER_NOT_IN_REPERTOIRE, loc,
                             "invalid byte sequence for encoding \"UTF8\"");
    PCRE2_UCHAR msg[256];
    pcre2_get_error_message(r, msg, sizeof msg);
    return rl_exec_error(c->x, RL_SQLSTATE_INVALID_REGULAR_EXPRESSION, loc,
                         "regular expression failed: %s", (const char *)msg);
}

int rl_regex_match(rl_expr_ctx *c, const rl_value *s, const rl_value *pattern, bool icase,
                   bool *match, int loc)
{
    pcre2_code *code = regex_get(c, pattern, RE_DEFAULT | (icase ? PCRE2_CASELESS : 0), loc);
    if (!code)
        return -1;
    struct rl_regex_cache *rc = c->x->s->regex;
    int r = pcre2_match(code, s->d.v.s.p, s->d.v.s.len, 0, 0, rc->md, rc->mctx);
    if (r >= 0) {
        *match = true;
        return 0;
    }
    if (r == PCRE2_ERROR_NOMATCH) {
        *match = false;
        return 0;
    }
    return regex_failed(c, r, loc);
}

/* substring(s FROM pattern): the part of s the pattern matches first, or
 * what its first parenthesized subexpression matched when it has one
 * (PostgreSQL's textregexsubstr); NULL when nothing matches. */
static int fn_regex_substring(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    pcre2_code *code = regex_get(c, &a[1], RE_DEFAULT, loc);
    if (!code)
        return -1;
    struct rl_regex_cache *rc = c->x->s->regex;
    /* room for the subexpressions (the session's match data has the whole
     * match only) */
    pcre2_match_data *md = pcre2_match_data_create_from_pattern(code, NULL);
    if (!md)
        return rl_expr_oom(c);
    int r = pcre2_match(code, a[0].d.v.s.p, a[0].d.v.s.len, 0, 0, md, rc->mctx);
    rl_val_null(out, RL_OID_TEXT);
    uint32_t groups = 0;
    pcre2_pattern_info(code, PCRE2_INFO_CAPTURECOUNT, &groups);
    const PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
    size_t k = groups ? 1 : 0;
    int rc_out = 0;
    if (r < 0 && r != PCRE2_ERROR_NOMATCH)
        rc_out = regex_failed(c, r, loc);
    else if (r > (int)k && ov[2 * k] != PCRE2_UNSET) /* else: no match, or the
                                                      * subexpression took no part */
        rc_out = rl_val_str_copy(c, out, RL_OID_TEXT, a[0].d.v.s.p + ov[2 * k],
                                 ov[2 * k + 1] - ov[2 * k]);
    pcre2_match_data_free(md);
    return rc_out;
}

/* PostgreSQL's regular-expression flags (parse_re_flags) as PCRE2
 * options: g (every match: *global, where `fname` is NULL; else 22023
 * "fname does not support the global option"), i / c (case), n / m
 * (newline-sensitive), p (partial), w (inverse partial), s (not newline-
 * sensitive), x / t (expanded / tight syntax), q (the pattern is a literal
 * string). b and e (basic and extended syntax): 0A000, PCRE2 has only
 * ARE-like syntax. Others: 22023. flags NULL: the defaults. */
static int regex_flags(rl_expr_ctx *c, const rl_value *flags, const char *fname, bool *global,
                       uint32_t *opts)
{
    *global = false;
    *opts = RE_DEFAULT;
    const uint32_t lines = PCRE2_DOTALL | PCRE2_DOLLAR_ENDONLY | PCRE2_MULTILINE;
    for (size_t i = 0; flags && i < flags->d.v.s.len; i++) {
        char f = (char)flags->d.v.s.p[i];
        switch (f) {
        case 'g':
            if (fname)
                return rl_exec_error(c->x, RL_SQLSTATE_INVALID_PARAMETER_VALUE, -1,
                                     "%s does not support the \"global\" option", fname);
            *global = true;
            break;
        case 'i': *opts |= PCRE2_CASELESS; break;
        case 'c': *opts &= ~(uint32_t)PCRE2_CASELESS; break;
        case 'n':
        case 'm': *opts = (*opts & ~lines) | PCRE2_MULTILINE; break;
        case 'p': *opts = *opts & ~lines; break;
        case 'w': *opts = (*opts & ~lines) | PCRE2_MULTILINE | PCRE2_DOTALL; break;
        case 's': *opts = (*opts & ~lines) | PCRE2_DOTALL | PCRE2_DOLLAR_ENDONLY; break;
        case 'x': *opts |= PCRE2_EXTENDED; break;
        case 't': *opts &= ~(uint32_t)PCRE2_EXTENDED; break;
        case 'q': *opts |= PCRE2_LITERAL; break;
        case 'b':
        case 'e':
            return rl_exec_error(c->x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                                 "regular expression option \"%c\" is not supported", f);
        default: {
            size_t k = 1; /* the whole (UTF-8) character */
            while (i + k < flags->d.v.s.len && (flags->d.v.s.p[i + k] & 0xC0) == 0x80)
                k++;
            return rl_exec_error(c->x, RL_SQLSTATE_INVALID_PARAMETER_VALUE, -1,
                                 "invalid regular expression option: \"%.*s\"", (int)k,
                                 (const char *)flags->d.v.s.p + i);
        }
        }
    }
    if (*opts & PCRE2_LITERAL) /* PCRE2 takes only these beside a literal */
        *opts &= PCRE2_UTF | PCRE2_CASELESS | PCRE2_LITERAL;
    return 0;
}

/* regexp_replace(s, pattern, replacement [, flags]): the first match (every
 * one with 'g') replaced; \1..\9 in the replacement are the groups, \& the
 * whole match, \\ a backslash. */
static int fn_regexp_replace(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    bool global;
    uint32_t opts;
    if (regex_flags(c, n > 3 ? &a[3] : NULL, NULL, &global, &opts) < 0)
        return -1;
    pcre2_code *code = regex_get(c, &a[1], opts, loc);
    if (!code)
        return -1;
    /* room for every group of this pattern (the cache's match data has one) */
    pcre2_match_data *md = pcre2_match_data_create_from_pattern(code, NULL);
    if (!md)
        return rl_expr_oom(c);
    struct rl_regex_cache *rc = c->x->s->regex;
    const uint8_t *p = a[0].d.v.s.p, *rep = a[2].d.v.s.p;
    size_t len = a[0].d.v.s.len, rn = a[2].d.v.s.len, at = 0, copied = 0;
    rl_buf b;
    rl_buf_init(&b, 0);
    while (at <= len) {
        /* the subject's UTF-8 is checked once, at the first match */
        int r = pcre2_match(code, p, len, at, at > 0 && copied > 0 ? PCRE2_NO_UTF_CHECK : 0, md,
                            rc->mctx);
        if (r == PCRE2_ERROR_NOMATCH)
            break;
        if (r < 0) {
            rl_buf_free(&b);
            pcre2_match_data_free(md);
            return regex_failed(c, r, loc);
        }
        PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
        uint32_t ngroups = pcre2_get_ovector_count(md);
        rl_buf_put(&b, p + copied, ov[0] - copied);
        for (size_t i = 0; i < rn; i++) {
            if (rep[i] != '\\' || i + 1 == rn) {
                rl_buf_put_u8(&b, rep[i]);
                continue;
            }
            uint8_t e = rep[++i];
            if (e >= '1' && e <= '9') {
                uint32_t g = (uint32_t)(e - '0');
                if (g < ngroups && (int)g < r && ov[2 * g] != PCRE2_UNSET)
                    rl_buf_put(&b, p + ov[2 * g], ov[2 * g + 1] - ov[2 * g]);
            } else if (e == '&') {
                rl_buf_put(&b, p + ov[0], ov[1] - ov[0]);
            } else if (e == '\\') {
                rl_buf_put_u8(&b, '\\');
            } else { /* not an escape: both characters stay */
                rl_buf_put_u8(&b, '\\');
                rl_buf_put_u8(&b, e);
            }
        }
        copied = ov[1];
        if (!global)
            break;
        if (ov[1] > ov[0]) {
            at = ov[1];
        } else { /* an empty match: step over one character */
            if (ov[1] >= len)
                break;
            size_t step = 1;
            while (ov[1] + step < len && (p[ov[1] + step] & 0xC0) == 0x80)
                step++;
            rl_buf_put(&b, p + ov[1], step);
            copied = at = ov[1] + step;
        }
    }
    pcre2_match_data_free(md);
    rl_buf_put(&b, p + copied, len - copied);
    return rl_val_buf_copy(c, out, RL_OID_TEXT, &b);
}

/* Does s match from byte `from`? 1 / 0, or -1 with the error set.
 * `checked`: s was found valid UTF-8 by an earlier call (PCRE2 checks the
 * whole subject on each call otherwise: a loop over the matches of a long
 * string would be quadratic). */
static int regex_find(rl_expr_ctx *c, pcre2_code *code, pcre2_match_data *md, const rl_value *s,
                      size_t from, bool checked, int loc)
{
    int r = pcre2_match(code, s->d.v.s.p, s->d.v.s.len, from, checked ? PCRE2_NO_UTF_CHECK : 0,
                        md, c->x->s->regex->mctx);
    if (r == PCRE2_ERROR_NOMATCH)
        return 0;
    return r < 0 ? regex_failed(c, r, loc) : 1;
}

static int fn_regexp_like(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    bool global;
    uint32_t opts;
    if (regex_flags(c, n > 2 ? &a[2] : NULL, "regexp_like()", &global, &opts) < 0)
        return -1;
    pcre2_code *code = regex_get(c, &a[1], opts, loc);
    if (!code)
        return -1;
    int r = regex_find(c, code, c->x->s->regex->md, &a[0], 0, false, loc);
    if (r < 0)
        return -1;
    rl_val_bool(out, r == 1);
    return 0;
}

/* ------------------------------------- the regexp_* functions of PG 15 */

/* What one match tells its consumer: the match's ovector (group 0, then
 * ngroups groups; PCRE2_UNSET for a group that took no part). */
typedef int (*regex_each_fn)(void *ctx, const rl_value *s, const PCRE2_SIZE *ov,
                             uint32_t ngroups);

/* The matches of code in s from byte `from`, as PostgreSQL's
 * setup_regexp_matches finds them: the first only unless global; after an
 * empty match the next search starts one character further; with
 * ignore_degenerate (the splits) an empty match at the end of s or right
 * where the previous match ended is skipped. `each` answers 0 to go on, 1
 * to stop, -1 on error. 0, or -1 with the error set. */
static int regex_each(rl_expr_ctx *c, pcre2_code *code, const rl_value *s, size_t from,
                      bool global, bool ignore_degenerate, regex_each_fn each, void *ctx, int loc)
{
    pcre2_match_data *md = pcre2_match_data_create_from_pattern(code, NULL);
    if (!md)
        return rl_expr_oom(c);
    uint32_t ngroups = 0;
    pcre2_pattern_info(code, PCRE2_INFO_CAPTURECOUNT, &ngroups);
    const uint8_t *p = s->d.v.s.p;
    size_t len = s->d.v.s.len, at = from, prev_end = from;
    int rc = 0;
    for (uint64_t k = 0; rc == 0 && at <= len; k++) {
        int r = regex_find(c, code, md, s, at, k > 0, loc);
        if (r <= 0) {
            rc = r;
            break;
        }
        const PCRE2_SIZE *ov = pcre2_get_ovector_pointer(md);
        size_t so = ov[0], eo = ov[1];
        if (!ignore_degenerate || (so < len && eo > prev_end))
            rc = each(ctx, s, ov, ngroups);
        if (rc != 0 || !global)
            break;
        prev_end = eo;
        at = eo;
        if (so == eo) { /* one character on */
            if (at >= len)
                break;
            at++;
            while (at < len && (p[at] & 0xC0) == 0x80)
                at++;
        }
        if ((k & 63) == 63 && rl_exec_check_cancel(c->x) < 0) /* each match may be slow */
            rc = -1;
    }
    pcre2_match_data_free(md);
    return rc < 0 ? -1 : 0;
}

/* Characters in p[0..off). */
static int64_t char_count(const uint8_t *p, size_t off)
{
    int64_t n = 0;
    for (size_t i = 0; i < off; i++)
        n += (p[i] & 0xC0) != 0x80;
    return n;
}

/* The byte where character `chars` (0-based) of s starts, len past the end. */
static size_t char_offset(const rl_value *s, int64_t chars)
{
    size_t i = 0, len = s->d.v.s.len;
    const uint8_t *p = s->d.v.s.p;
    for (; i < len && chars > 0; chars--) {
        i++;
        while (i < len && (p[i] & 0xC0) == 0x80)
            i++;
    }
    return chars > 0 ? len + 1 : i;
}

/* A growing list of values in the evaluation arena. */
typedef struct val_list {
    rl_expr_ctx *c;
    rl_value *v;
    size_t n, cap;
} val_list;

static int list_add(val_list *l, const rl_value *v)
{
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 8;
        if (rl_array_room(l->c, cap) < 0)
            return -1;
        rl_value *nv = rl_arena_alloc(l->c->arena, cap * sizeof *nv);
        if (!nv)
            return rl_expr_oom(l->c);
        if (l->n)
            memcpy(nv, l->v, l->n * sizeof *nv);
        l->v = nv;
        l->cap = cap;
    }
    l->v[l->n++] = *v;
    return 0;
}

/* A match as regexp_match(es) give it: text[] of its groups (NULL for one
 * that took no part), or of the whole match when the pattern has none. */
static int match_array(rl_expr_ctx *c, const rl_value *s, const PCRE2_SIZE *ov, uint32_t ngroups,
                       rl_value *out)
{
    uint32_t k = ngroups ? ngroups : 1;
    rl_value *v = rl_arena_alloc(c->arena, k * sizeof *v);
    if (!v)
        return rl_expr_oom(c);
    for (uint32_t i = 0; i < k; i++) {
        uint32_t g = ngroups ? i + 1 : 0;
        if (ov[2 * g] == PCRE2_UNSET)
            rl_val_null(&v[i], RL_OID_TEXT);
        else
            rl_val_str(&v[i], RL_OID_TEXT, (const char *)s->d.v.s.p + ov[2 * g],
                       ov[2 * g + 1] - ov[2 * g]);
    }
    return rl_array_of_values(c, RL_OID_TEXT_ARRAY, v, k, 1, out);
}

typedef struct matches_ctx {
    val_list l;
} matches_ctx;

static int each_match_array(void *ctx, const rl_value *s, const PCRE2_SIZE *ov, uint32_t ngroups)
{
    matches_ctx *m = ctx;
    rl_value arr;
    if (match_array(m->l.c, s, ov, ngroups, &arr) < 0)
        return -1;
    return list_add(&m->l, &arr);
}

/* regexp_match(s, pattern [, flags]): the first match's array, or NULL. */
static int fn_regexp_match(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    bool global;
    uint32_t opts;
    if (regex_flags(c, n > 2 ? &a[2] : NULL, "regexp_match()", &global, &opts) < 0) {
        rl_error_hint(c->x->err, "Use the regexp_matches function instead.");
        return -1;
    }
    pcre2_code *code = regex_get(c, &a[1], opts, loc);
    matches_ctx m = {{c, NULL, 0, 0}};
    if (!code || regex_each(c, code, &a[0], 0, false, false, each_match_array, &m, loc) < 0)
        return -1;
    if (m.l.n)
        *out = m.l.v[0];
    return 0;
}

typedef struct split_ctx {
    val_list l;
    size_t start; /* where the next piece begins */
} split_ctx;

static int each_split(void *ctx, const rl_value *s, const PCRE2_SIZE *ov, uint32_t ngroups)
{
    split_ctx *sp = ctx;
    rl_value v;
    rl_val_str(&v, RL_OID_TEXT, (const char *)s->d.v.s.p + sp->start, ov[0] - sp->start);
    sp->start = ov[1];
    return list_add(&sp->l, &v);
}

/* The pieces of regexp_split_to_array / _table: s cut at every match
 * (degenerate empty ones skipped). */
static int regex_split(rl_expr_ctx *c, size_t n, rl_value *a, const char *fname, val_list *out,
                       int loc)
{
    bool global;
    uint32_t opts;
    if (regex_flags(c, n > 2 ? &a[2] : NULL, fname, &global, &opts) < 0)
        return -1;
    pcre2_code *code = regex_get(c, &a[1], opts, loc);
    split_ctx sp = {{c, NULL, 0, 0}, 0};
    if (!code || regex_each(c, code, &a[0], 0, true, true, each_split, &sp, loc) < 0)
        return -1;
    rl_value last;
    rl_val_str(&last, RL_OID_TEXT, (const char *)a[0].d.v.s.p + sp.start,
               a[0].d.v.s.len - sp.start);
    if (list_add(&sp.l, &last) < 0)
        return -1;
    *out = sp.l;
    return 0;
}

static int fn_regexp_split_to_array(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    val_list l;
    if (regex_split(c, n, a, "regexp_split_to_array()", &l, loc) < 0)
        return -1;
    return rl_array_of_values(c, RL_OID_TEXT_ARRAY, l.v, l.n, 1, out);
}

/* The optional integer arguments of regexp_count / instr / substr:
 * PostgreSQL's 22023 for a value out of its range. */
static int regex_param(rl_expr_ctx *c, const rl_value *v, const char *name, int64_t min,
                       int64_t max)
{
    if (v->d.v.i < min || v->d.v.i > max)
        return rl_exec_error(c->x, RL_SQLSTATE_INVALID_PARAMETER_VALUE, -1,
                             "invalid value for parameter \"%s\": %lld", name,
                             (long long)v->d.v.i);
    return 0;
}

typedef struct nth_ctx {
    int64_t want, seen; /* the n-th match (1-based); matches seen */
    PCRE2_SIZE so, eo;  /* its (sub)match, PCRE2_UNSET if it has none */
    uint32_t subexpr;
} nth_ctx;

static int each_nth(void *ctx, const rl_value *s, const PCRE2_SIZE *ov, uint32_t ngroups)
{
    nth_ctx *t = ctx;
    if (++t->seen < t->want)
        return 0;
    if (t->subexpr <= ngroups) {
        t->so = ov[2 * t->subexpr];
        t->eo = ov[2 * t->subexpr + 1];
    }
    return t->want ? 1 : 0;
}

/* The common part of regexp_count / instr / substr: flags at a[fi] (if
 * n > fi), start at a[2] (if n > 2); the want-th match (0: count them). */
static int regex_nth(rl_expr_ctx *c, size_t n, rl_value *a, size_t fi, const char *fname,
                     nth_ctx *t, int loc)
{
    bool global;
    uint32_t opts;
    if (regex_flags(c, n > fi ? &a[fi] : NULL, fname, &global, &opts) < 0)
        return -1;
    pcre2_code *code = regex_get(c, &a[1], opts, loc);
    if (!code)
        return -1;
    size_t from = n > 2 ? char_offset(&a[0], a[2].d.v.i - 1) : 0;
    t->so = t->eo = PCRE2_UNSET;
    if (from > a[0].d.v.s.len)
        return 0;
    return regex_each(c, code, &a[0], from, true, false, each_nth, t, loc);
}

/* regexp_count(s, pattern [, start [, flags]]): matches from start. */
static int fn_regexp_count(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    if (n > 2 && regex_param(c, &a[2], "start", 1, INT32_MAX) < 0)
        return -1;
    nth_ctx t = {.want = 0, .subexpr = 0};
    if (regex_nth(c, n, a, 3, "regexp_count()", &t, loc) < 0)
        return -1;
    rl_val_int(out, RL_OID_INT4, t.seen);
    return 0;
}

/* regexp_instr(s, pattern [, start [, N [, endoption [, flags [, subexpr]]]]]):
 * where the N-th match (its subexpression) starts, or the character after
 * it ends (endoption 1); 0 when there is none. */
static int fn_regexp_instr(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    if ((n > 2 && regex_param(c, &a[2], "start", 1, INT32_MAX) < 0) ||
        (n > 3 && regex_param(c, &a[3], "n", 1, INT32_MAX) < 0) ||
        (n > 4 && regex_param(c, &a[4], "endoption", 0, 1) < 0) ||
        (n > 6 && regex_param(c, &a[6], "subexpr", 0, INT32_MAX) < 0))
        return -1;
    nth_ctx t = {.want = n > 3 ? a[3].d.v.i : 1, .subexpr = n > 6 ? (uint32_t)a[6].d.v.i : 0};
    if (regex_nth(c, n, a, 5, "regexp_instr()", &t, loc) < 0)
        return -1;
    int64_t pos = 0;
    if (t.seen >= t.want && t.so != PCRE2_UNSET)
        pos = char_count(a[0].d.v.s.p, n > 4 && a[4].d.v.i == 1 ? t.eo : t.so) + 1;
    rl_val_int(out, RL_OID_INT4, pos);
    return 0;
}

/* regexp_substr(s, pattern [, start [, N [, flags [, subexpr]]]]): the text
 * of the N-th match (its subexpression), NULL when there is none. */
static int fn_regexp_substr(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    if ((n > 2 && regex_param(c, &a[2], "start", 1, INT32_MAX) < 0) ||
        (n > 3 && regex_param(c, &a[3], "n", 1, INT32_MAX) < 0) ||
        (n > 5 && regex_param(c, &a[5], "subexpr", 0, INT32_MAX) < 0))
        return -1;
    nth_ctx t = {.want = n > 3 ? a[3].d.v.i : 1, .subexpr = n > 5 ? (uint32_t)a[5].d.v.i : 0};
    if (regex_nth(c, n, a, 4, "regexp_substr()", &t, loc) < 0)
        return -1;
    rl_val_null(out, RL_OID_TEXT);
    if (t.seen >= t.want && t.so != PCRE2_UNSET)
        return rl_val_str_copy(c, out, RL_OID_TEXT, a[0].d.v.s.p + t.so, t.eo - t.so);
    return 0;
}

/* ------------------------------------------- set-returning text functions */

/* json_populate_recordset(base, j [, use_json_as_text]) or
 * jsonb_populate_recordset(base, j)? */
static bool is_populate_set(const char *name, size_t n)
{
    return ((n == 2 || n == 3) && strcmp(name, "json_populate_recordset") == 0) ||
           (n == 2 && strcmp(name, "jsonb_populate_recordset") == 0);
}

bool rl_func_is_setfn(const char *name, size_t n)
{
    if (name && n == 1 && strcmp(name, "pg_partition_ancestors") == 0)
        return true;
    if (name && is_populate_set(name, n))
        return true;
    return name && (n == 2 || n == 3) &&
           (strcmp(name, "regexp_matches") == 0 || strcmp(name, "regexp_split_to_table") == 0 ||
            strcmp(name, "string_to_table") == 0);
}

uint32_t rl_func_setfn_type(const char *name, const rl_value *a)
{
    if (is_populate_set(name, 2)) /* records of the base's type */
        return a[0].oid;
    if (strcmp(name, "pg_partition_ancestors") == 0)
        return RL_OID_REGCLASS;
    return strcmp(name, "regexp_matches") == 0 ? RL_OID_TEXT_ARRAY : RL_OID_TEXT;
}

/* pg_partition_ancestors(regclass): a partition's ancestors and itself; no
 * row for any other relation, and the lake has no partitions (psql's "\d"
 * asks it for a table's "Referenced by"). The argument is still a regclass
 * (42P01 for an unknown name). */
static int partition_ancestors(rl_expr_ctx *c, rl_value *a, bool type_only, int loc)
{
    if (a->oid != RL_OID_UNKNOWN && a->oid != RL_OID_REGCLASS && a->oid != RL_OID_OID)
        return rl_func_no_function(c, "pg_partition_ancestors", 1, a, loc);
    return type_only ? 0 : rl_value_coerce(c, a, RL_OID_REGCLASS, -1, false, a, loc);
}

int rl_func_populate_args(rl_expr_ctx *c, const char *name, size_t n, rl_value *a, int loc,
                          const int *arglocs)
{
    /* json_populate_record(set)'s rows have 3 (use_json_as_text defaults) */
    const rl_func *f = rl_func_find(name, strncmp(name, "jsonb", 5) == 0 ? 2 : 3);
    assert(f && f->argtypes[0] == RL_OID_ANYELEMENT);
    if (n > f->nargs || n < 2)
        return rl_func_no_function(c, name, n, a, loc);
    for (size_t i = 1; i < n; i++)
        if (a[i].oid != RL_OID_UNKNOWN && a[i].oid != f->argtypes[i])
            return rl_func_no_function(c, name, n, a, loc);
    if (a[0].oid == RL_OID_UNKNOWN)
        return rl_exec_error(c->x, RL_SQLSTATE_DATATYPE_MISMATCH, -1,
                             "could not determine polymorphic type because input has type "
                             "unknown");
    for (size_t i = 1; i < n; i++)
        if (rl_value_coerce(c, &a[i], f->argtypes[i], -1, false, &a[i],
                            arg_location(arglocs, i, loc)) < 0)
            return -1;
    return 0;
}

int rl_func_setfn_rows(rl_expr_ctx *c, const char *name, size_t n, rl_value *a, bool type_only,
                       rl_value **vals, size_t *count, int loc, const int *arglocs)
{
    *vals = NULL;
    *count = 0;
    if (strcmp(name, "pg_partition_ancestors") == 0)
        return partition_ancestors(c, a, type_only, loc);
    if (is_populate_set(name, n))
        return rl_func_populate_args(c, name, n, a, loc, arglocs) < 0
                   ? -1
                   : rl_json_populate_set(c, name, &a[0], &a[1], type_only, vals, count);
    bool strict = strcmp(name, "string_to_table") != 0, any_null = false;
    for (size_t i = 0; i < n; i++) { /* (text, text [, text]) */
        if (a[i].oid != RL_OID_UNKNOWN && !rl_oid_is_textual(a[i].oid))
            return rl_func_no_function(c, name, n, a, loc);
        if (rl_value_coerce(c, &a[i], RL_OID_TEXT, -1, false, &a[i], loc) < 0)
            return -1;
        any_null |= a[i].d.isnull;
    }
    if (type_only || (strict && any_null))
        return 0;
    if (strcmp(name, "string_to_table") == 0)
        return rl_string_to_pieces(c, n, a, vals, count, loc);
    val_list l = {c, NULL, 0, 0};
    if (strcmp(name, "regexp_split_to_table") == 0) {
        if (regex_split(c, n, a, "regexp_split_to_table()", &l, loc) < 0)
            return -1;
    } else {
        bool global;
        uint32_t opts;
        if (regex_flags(c, n > 2 ? &a[2] : NULL, NULL, &global, &opts) < 0)
            return -1;
        pcre2_code *code = regex_get(c, &a[1], opts, loc);
        matches_ctx m = {{c, NULL, 0, 0}};
        if (!code || regex_each(c, code, &a[0], 0, global, false, each_match_array, &m, loc) < 0)
            return -1;
        l = m.l;
    }
    *vals = l.v;
    *count = l.n;
    return 0;
}
