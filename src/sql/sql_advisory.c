/*
 * sql_advisory.c — PostgreSQL's advisory locks: pg_advisory_lock and its
 * family (session- or transaction-level, exclusive or shared, waiting or
 * trying), pg_advisory_unlock[_shared], pg_advisory_unlock_all, and their
 * release at transaction end, DISCARD ALL and session end.
 *
 * Owns: the process's table of advisory locks, per database (a lock is
 * the database's name, the key space — 1: one bigint, 2: two integers, as
 * PostgreSQL's objsubid, so pg_advisory_lock(1) and pg_advisory_lock(0, 1)
 * are different locks — and the 64-bit key), who holds each in which mode
 * how many times at session and at transaction level, and who waits for
 * one, in arrival order.
 *
 * Invariants (under `mu`): a session's holds of one lock in one mode are
 * one entry with nsession + nxact > 0; an exclusive hold and any other
 * session's hold of the same lock never coexist; a request waits while
 * another session holds the lock in a conflicting mode, or (when it holds
 * nothing of that lock) a conflicting request arrived before it, as
 * PostgreSQL's lock queue; every release broadcasts `freed`. A waiter
 * checks its cancel, statement_timeout (both through rl_exec_check_cancel),
 * lock_timeout (55P03) and, once after deadlock_timeout, whether it waits
 * in a cycle (40P01) every 10 ms, as pg_sleep does. Locks of a session
 * that ends are all released (rl_advisory_session_end), even on a lost
 * connection, as in PostgreSQL. Not kept: ROLLBACK TO does not release
 * the transaction-level locks taken since the savepoint (PostgreSQL
 * does). pg_locks lists the table (rl_advisory_list, sql_pgcatalog.c).
 */
#include "sql/sql_advisory.h"

#include <assert.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "base/buf.h"
#include "sql/sql_exec.h"
#include "sql/sql_settings.h"
#include "sql/sql_value.h"

typedef struct adv_lock {
    char db[64];
    uint32_t dboid; /* the database's pg_database.oid (for pg_locks and the detail) */
    uint8_t space;  /* 1: pg_advisory_lock(bigint), 2: (integer, integer) */
    uint64_t key;
} adv_lock;

typedef struct adv_hold {
    adv_lock lock;
    const rl_session *owner;
    int32_t pid;
    bool shared;
    uint32_t nsession, nxact;
    struct adv_hold *next;
} adv_hold;

typedef struct adv_wait {
    adv_lock lock;
    const rl_session *owner;
    int32_t pid;
    bool shared;
    int64_t since_unix_us;
    struct adv_wait *next;
} adv_wait;

static pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t freed = PTHREAD_COND_INITIALIZER;
static adv_hold *holds;
static adv_wait *waits; /* in arrival order */

#define WAIT_SLICE_NS 10000000u
#define DEFAULT_DEADLOCK_TIMEOUT_MS 1000

static bool same_lock(const adv_lock *a, const adv_lock *b)
{
    return a->space == b->space && a->key == b->key && strcmp(a->db, b->db) == 0;
}

static bool modes_conflict(bool a_shared, bool b_shared) { return !a_shared || !b_shared; }

static bool holds_any(const rl_session *owner, const adv_lock *l)
{
    for (const adv_hold *h = holds; h; h = h->next)
        if (h->owner == owner && same_lock(&h->lock, l))
            return true;
    return false;
}

/* Must a request of `owner` for l wait? `me` is its own queue entry (the
 * requests before it count), NULL for a new request (all of them do). */
static bool must_wait(const rl_session *owner, const adv_lock *l, bool shared,
                      const adv_wait *me)
{
    for (const adv_hold *h = holds; h; h = h->next)
        if (h->owner != owner && same_lock(&h->lock, l) && modes_conflict(shared, h->shared))
            return true;
    if (holds_any(owner, l))
        return false;
    for (const adv_wait *w = waits; w && w != me; w = w->next)
        if (w->owner != owner && same_lock(&w->lock, l) && modes_conflict(shared, w->shared))
            return true;
    return false;
}

static int grant(rl_exec *x, const adv_lock *l, bool shared, bool xact)
{
    adv_hold *h = holds;
    while (h && !(h->owner == x->s && h->shared == shared && same_lock(&h->lock, l)))
        h = h->next;
    if (!h) {
        if (!(h = calloc(1, sizeof *h)))
            return rl_exec_error(x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
        h->lock = *l;
        h->owner = x->s;
        h->pid = x->s->backend_pid;
        h->shared = shared;
        h->next = holds;
        holds = h;
    }
    if (xact)
        h->nxact++;
    else
        h->nsession++;
    return 0;
}

static void waiter_remove(adv_wait *me)
{
    for (adv_wait **p = &waits; *p; p = &(*p)->next)
        if (*p == me) {
            *p = me->next;
            break;
        }
    pthread_cond_broadcast(&freed); /* requests queued behind it may go now */
}

/* Drop the holds that count nothing; wake the waiters if any went. */
static void sweep(void)
{
    bool any = false;
    for (adv_hold **p = &holds; *p;) {
        adv_hold *h = *p;
        if (h->nsession || h->nxact) {
            p = &h->next;
            continue;
        }
        *p = h->next;
        free(h);
        any = true;
    }
    if (any)
        pthread_cond_broadcast(&freed);
}

/* ------------------------------------------------------------ deadlocks */

/* The request `owner` waits for, or NULL. */
static const adv_wait *waiting_of(const rl_session *owner)
{
    for (const adv_wait *w = waits; w; w = w->next)
        if (w->owner == owner)
            return w;
    return NULL;
}

/* One step of a cycle: who blocks w (a holder in a conflicting mode). */
typedef struct cycle {
    const adv_wait *steps[64];
    int32_t blockers[64];
    size_t n;
} cycle;

/* Does a chain of waits from `at` lead back to `me`? The chain found in c. */
static bool leads_to(const rl_session *me, const adv_wait *at, cycle *c, size_t depth)
{
    if (depth >= sizeof c->steps / sizeof c->steps[0])
        return false;
    for (const adv_hold *h = holds; h; h = h->next) {
        if (h->owner == at->owner || !same_lock(&h->lock, &at->lock) ||
            !modes_conflict(at->shared, h->shared))
            continue;
        c->steps[depth] = at;
        c->blockers[depth] = h->pid;
        c->n = depth + 1;
        if (h->owner == me)
            return true;
        const adv_wait *next = waiting_of(h->owner);
        if (next && leads_to(me, next, c, depth + 1))
            return true;
    }
    return false;
}

static const char *mode_name(bool shared) { return shared ? "ShareLock" : "ExclusiveLock"; }

static int deadlock_error(rl_exec *x, const cycle *c)
{
    rl_exec_error(x, RL_SQLSTATE_DEADLOCK_DETECTED, -1, "deadlock detected");
    char detail[2048] = "";
    size_t used = 0;
    for (size_t i = 0; i < c->n && used < sizeof detail; i++) {
        const adv_wait *w = c->steps[i];
        uint32_t hi = (uint32_t)(w->lock.key >> 32), lo = (uint32_t)w->lock.key;
        used += (size_t)snprintf(detail + used, sizeof detail - used,
                                 "%sProcess %d waits for %s on advisory lock [%u,%u,%u,%u]; "
                                 "blocked by process %d.",
                                 i ? "\n" : "", (int)w->pid, mode_name(w->shared), w->lock.dboid, hi,
                                 lo,
                                 (unsigned)w->lock.space, (int)c->blockers[i]);
    }
    rl_error_detail(x->err, "%s", detail);
    rl_error_hint(x->err, "See server log for query details.");
    return -1;
}

/* ------------------------------------------------------------- acquiring */

static int64_t timeout_ms(const rl_session *s, const char *name, int64_t none)
{
    int64_t ms = rl_setting_ms(s, name);
    return ms < 0 ? none : ms;
}

/* Wait (mu held, returned held) until the request `me` may go: 0, or -1
 * with the error of a cancel, a timeout or a deadlock (me dequeued). */
static int wait_turn(rl_exec *x, adv_wait *me)
{
    uint64_t start = rl_monotonic_ns();
    int64_t lock_ms = timeout_ms(x->s, "lock_timeout", 0);
    int64_t deadlock_ms = timeout_ms(x->s, "deadlock_timeout", DEFAULT_DEADLOCK_TIMEOUT_MS);
    bool checked = false;
    while (must_wait(me->owner, &me->lock, me->shared, me)) {
        struct timespec until;
        clock_gettime(CLOCK_REALTIME, &until);
        uint64_t ns = (uint64_t)until.tv_nsec + WAIT_SLICE_NS;
        until.tv_sec += (time_t)(ns / 1000000000u);
        until.tv_nsec = (long)(ns % 1000000000u);
        pthread_cond_timedwait(&freed, &mu, &until);
        if (!must_wait(me->owner, &me->lock, me->shared, me))
            break;
        uint64_t waited_ms = (rl_monotonic_ns() - start) / 1000000u;
        int rc = 0;
        cycle c = {.n = 0};
        if (!checked && waited_ms >= (uint64_t)deadlock_ms) {
            checked = true;
            if (leads_to(me->owner, me, &c, 0))
                rc = deadlock_error(x, &c);
        }
        if (rc == 0 && lock_ms > 0 && waited_ms >= (uint64_t)lock_ms)
            rc = rl_exec_error(x, RL_SQLSTATE_LOCK_NOT_AVAILABLE, -1,
                               "canceling statement due to lock timeout");
        if (rc == 0) {
            pthread_mutex_unlock(&mu);
            rc = rl_exec_check_cancel(x);
            pthread_mutex_lock(&mu);
        }
        if (rc < 0) {
            waiter_remove(me);
            return -1;
        }
    }
    waiter_remove(me);
    return 0;
}

/* Take l: 1 taken, 0 not free (try), -1 error. */
static int acquire(rl_exec *x, const adv_lock *l, bool shared, bool xact, bool wait)
{
    pthread_mutex_lock(&mu);
    int rc = 1;
    if (must_wait(x->s, l, shared, NULL)) {
        if (!wait) {
            pthread_mutex_unlock(&mu);
            return 0;
        }
        adv_wait *me = calloc(1, sizeof *me);
        if (!me) {
            pthread_mutex_unlock(&mu);
            return rl_exec_error(x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
        }
        struct timespec now;
        clock_gettime(CLOCK_REALTIME, &now);
        *me = (adv_wait){.lock = *l, .owner = x->s, .pid = x->s->backend_pid, .shared = shared,
                         .since_unix_us = (int64_t)now.tv_sec * 1000000 + now.tv_nsec / 1000};
        adv_wait **tail = &waits;
        while (*tail)
            tail = &(*tail)->next;
        *tail = me;
        rc = wait_turn(x, me) < 0 ? -1 : 1;
        free(me);
    }
    if (rc == 1 && grant(x, l, shared, xact) < 0)
        rc = -1;
    pthread_mutex_unlock(&mu);
    return rc;
}

/* Release one session-level hold of l in the mode: true, or PostgreSQL's
 * WARNING and false when the session holds none. */
static bool release(rl_exec *x, const adv_lock *l, bool shared)
{
    pthread_mutex_lock(&mu);
    adv_hold *h = holds;
    while (h && !(h->owner == x->s && h->shared == shared && h->nsession &&
                  same_lock(&h->lock, l)))
        h = h->next;
    bool held = h != NULL;
    if (held) {
        h->nsession--;
        sweep(); /* h may be gone */
    }
    pthread_mutex_unlock(&mu);
    if (!held)
        rl_exec_notice(x, RL_SQLSTATE_WARNING, "you don't own a lock of type %s",
                       mode_name(shared));
    return held;
}

/* ------------------------------------------------------- the functions */

/* The lock an SQL call names: one bigint, or two integers. */
static void lock_of(rl_expr_ctx *c, size_t n, const rl_value *a, adv_lock *l)
{
    memset(l, 0, sizeof *l);
    const rl_session *s = c->x->s;
    snprintf(l->db, sizeof l->db, "%s", s->lakes[0].eng->database);
    l->dboid = s->lakes[0].eng->database_oid;
    if (n == 1) {
        l->space = 1;
        l->key = (uint64_t)a[0].d.v.i;
    } else {
        assert(n == 2);
        l->space = 2;
        l->key = ((uint64_t)(uint32_t)a[0].d.v.i << 32) | (uint32_t)a[1].d.v.i;
    }
}

/* The flavours, as PostgreSQL's names say them. */
enum { ADV_SHARED = 1, ADV_XACT = 2, ADV_TRY = 4 };

static int lock_call(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int how)
{
    bool try = how & ADV_TRY;
    if (try)
        rl_val_bool(out, false);
    else
        rl_val_str(out, RL_OID_VOID, "", 0);
    adv_lock l;
    lock_of(c, n, a, &l);
    int got = acquire(c->x, &l, how & ADV_SHARED, how & ADV_XACT, !try);
    if (got < 0)
        return -1;
    if (try)
        rl_val_bool(out, got == 1);
    return 0;
}

int rl_fn_advisory_lock(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return lock_call(c, n, a, out, 0);
}

int rl_fn_advisory_lock_shared(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return lock_call(c, n, a, out, ADV_SHARED);
}

int rl_fn_advisory_xact_lock(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return lock_call(c, n, a, out, ADV_XACT);
}

int rl_fn_advisory_xact_lock_shared(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return lock_call(c, n, a, out, ADV_XACT | ADV_SHARED);
}

int rl_fn_try_advisory_lock(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return lock_call(c, n, a, out, ADV_TRY);
}

int rl_fn_try_advisory_lock_shared(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return lock_call(c, n, a, out, ADV_TRY | ADV_SHARED);
}

int rl_fn_try_advisory_xact_lock(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return lock_call(c, n, a, out, ADV_TRY | ADV_XACT);
}

int rl_fn_try_advisory_xact_lock_shared(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out,
                                        int loc)
{
    return lock_call(c, n, a, out, ADV_TRY | ADV_XACT | ADV_SHARED);
}

static int unlock_call(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, bool shared)
{
    adv_lock l;
    lock_of(c, n, a, &l);
    rl_val_bool(out, release(c->x, &l, shared));
    return 0;
}

int rl_fn_advisory_unlock(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return unlock_call(c, n, a, out, false);
}

int rl_fn_advisory_unlock_shared(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return unlock_call(c, n, a, out, true);
}

int rl_fn_advisory_unlock_all(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    rl_val_str(out, RL_OID_VOID, "", 0);
    rl_advisory_unlock_all(c->x->s);
    return 0;
}

/* ---------------------------------------------------------------- pg_locks */

static bool put_row(rl_advisory_row **rows, size_t *n, size_t *cap, const adv_lock *l,
                    int32_t pid, bool shared, bool granted, int64_t since)
{
    rl_advisory_row *grown = rl_array_reserve(*rows, *n, cap, sizeof *grown, 16);
    if (!grown)
        return false;
    *rows = grown;
    (*rows)[(*n)++] = (rl_advisory_row){.dboid = l->dboid, .space = l->space, .key = l->key,
                                        .pid = pid, .shared = shared, .granted = granted,
                                        .wait_start_unix_us = since};
    return true;
}

rl_advisory_row *rl_advisory_list(size_t *n)
{
    size_t cap = 0;
    rl_advisory_row *rows = NULL;
    *n = 0;
    pthread_mutex_lock(&mu);
    bool ok = true;
    for (const adv_hold *h = holds; h && ok; h = h->next)
        ok = put_row(&rows, n, &cap, &h->lock, h->pid, h->shared, true, 0);
    for (const adv_wait *w = waits; w && ok; w = w->next)
        ok = put_row(&rows, n, &cap, &w->lock, w->pid, w->shared, false, w->since_unix_us);
    pthread_mutex_unlock(&mu);
    if (!ok || !rows) {
        free(rows);
        *n = 0;
        return ok ? calloc(1, sizeof *rows) : NULL;
    }
    return rows;
}

/* ------------------------------------------------------------- releases */

/* Drop s's holds at session level, at transaction level, or both. */
static void release_levels(const rl_session *s, bool session, bool xact)
{
    pthread_mutex_lock(&mu);
    for (adv_hold *h = holds; h; h = h->next) {
        if (h->owner != s)
            continue;
        if (session)
            h->nsession = 0;
        if (xact)
            h->nxact = 0;
    }
    sweep();
    /* a session waits only inside one of its statements */
    assert(!(session && xact) || !waiting_of(s));
    pthread_mutex_unlock(&mu);
}

void rl_advisory_unlock_all(const rl_session *s) { release_levels(s, true, false); }

void rl_advisory_xact_end(const rl_session *s) { release_levels(s, false, true); }

void rl_advisory_session_end(const rl_session *s) { release_levels(s, true, true); }
