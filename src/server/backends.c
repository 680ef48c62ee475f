/*
 * backends.c — backend keys, cancel requests, statement timeouts and the
 * activity pg_stat_activity shows (see backends.h).
 *
 * The watchdog wakes every 20 ms and cancels, under the registry mutex,
 * each running statement past its deadline; srv_stmt_disarm reports
 * whether it did, so the 57014 says "statement timeout".
 */
#include "server/backends.h"

#include <assert.h>
#include <openssl/rand.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

#include "base/buf.h"
#include "base/utf8.h"

static int64_t unix_us(void)
{
    struct timeval tv;
    gettimeofday(&tv, NULL);
    return (int64_t)tv.tv_sec * 1000000 + tv.tv_usec;
}

static rl_backend_activity *list_source(void *ctx, size_t *n);
static bool signal_source(void *ctx, int32_t pid, bool terminate);

void srv_backends_init(srv_backends *b, int max_slots, srv_metrics *metrics, srv_logger *log)
{
    pthread_mutex_init(&b->mu, NULL);
    b->max_slots = max_slots;
    b->metrics = metrics;
    b->log = log;
    RAND_bytes((unsigned char *)&b->next_pid, sizeof b->next_pid);
    b->next_pid = 1000 + (int32_t)((uint32_t)b->next_pid % 100000);
    b->source = (rl_activity_source){.ctx = b, .list = list_source, .signal = signal_source,
                                     .server_start = unix_us()};
}

void srv_backends_destroy(srv_backends *b) { pthread_mutex_destroy(&b->mu); }

int srv_register(srv_backends *b, srv_backend *slot, rl_session *sess)
{
    int32_t s = 0;
    RAND_bytes((unsigned char *)&s, sizeof s);
    pthread_mutex_lock(&b->mu);
    if (b->nslots >= b->max_slots) {
        pthread_mutex_unlock(&b->mu);
        return -1;
    }
    if (b->next_pid <= 0 || b->next_pid > 4000000)
        b->next_pid = 1000;
    slot->sess = sess;
    slot->pid = b->next_pid++;
    slot->secret = s;
    slot->running = slot->timed_out = false;
    slot->deadline_ns = 0;
    atomic_store(&slot->terminate, false);
    slot->act.pid = slot->pid;
    slot->act.backend_start = slot->act.state_change = unix_us();
    slot->act.xact_start = slot->act.query_start = 0;
    slot->act.state[0] = slot->act.query[0] = '\0';
    slot->next = b->slots;
    b->slots = slot;
    b->nslots++;
    pthread_mutex_unlock(&b->mu);
    srv_count(b->metrics, M_CONNECTIONS_ACTIVE, 1);
    return 0;
}

void srv_unregister(srv_backends *b, srv_backend *slot)
{
    pthread_mutex_lock(&b->mu);
    for (srv_backend **pp = &b->slots; *pp; pp = &(*pp)->next)
        if (*pp == slot) {
            *pp = slot->next;
            b->nslots--;
            break;
        }
    pthread_mutex_unlock(&b->mu);
    srv_count(b->metrics, M_CONNECTIONS_ACTIVE, -1);
}

/* A cancel or terminate sent (counted) or aimed at no backend: logged. */
static void note_signal(srv_backends *b, bool found, int32_t pid, const char *event)
{
    char p[16];
    snprintf(p, sizeof p, "%d", pid);
    if (found)
        srv_count(b->metrics, M_CANCELS, 1);
    srv_log(b->log, "info", event, "pid", p, NULL);
}

void srv_cancel(srv_backends *b, int32_t pid, int32_t secret)
{
    bool found = false;
    pthread_mutex_lock(&b->mu);
    for (srv_backend *r = b->slots; r; r = r->next) {
        if (r->pid == pid && r->secret == secret) {
            /* like PostgreSQL, a cancel only hits a running statement; a
             * cancel flag left on an idle session would kill the next one */
            if (r->running)
                rl_session_cancel(r->sess);
            found = true;
            break;
        }
    }
    pthread_mutex_unlock(&b->mu);
    note_signal(b, found, pid, found ? "cancel_request" : "cancel_request_unknown");
}

/* The statement's text as pg_stat_activity keeps it: cut to
 * track_activity_query_size at a character boundary. */
static void keep_query(rl_backend_activity *a, const char *sql)
{
    size_t n = strnlen(sql, sizeof a->query); /* a statement of megabytes is not measured whole */
    if (n >= sizeof a->query)
        n = rl_utf8_clip(sql, sizeof a->query - 1);
    memcpy(a->query, sql, n);
    a->query[n] = '\0';
}

void srv_stmt_arm(srv_backends *b, srv_backend *slot, uint64_t timeout_ms, const char *sql)
{
    int64_t now = unix_us();
    pthread_mutex_lock(&b->mu);
    if (sql)
        keep_query(&slot->act, sql);
    snprintf(slot->act.state, sizeof slot->act.state, "active");
    slot->act.query_start = slot->act.state_change = now;
    if (!slot->act.xact_start)
        slot->act.xact_start = now;
    slot->running = true;
    slot->deadline_ns = timeout_ms ? rl_monotonic_ns() + timeout_ms * 1000000u : 0;
    slot->timed_out = false;
    pthread_mutex_unlock(&b->mu);
}

bool srv_stmt_disarm(srv_backends *b, srv_backend *slot)
{
    pthread_mutex_lock(&b->mu);
    bool fired = slot->timed_out;
    slot->running = false;
    slot->deadline_ns = 0;
    slot->timed_out = false;
    pthread_mutex_unlock(&b->mu);
    return fired;
}

void srv_activity_ready(srv_backends *b, srv_backend *slot, char status)
{
    const char *state = status == 'T'   ? "idle in transaction"
                        : status == 'E' ? "idle in transaction (aborted)"
                                        : "idle";
    int64_t now = unix_us();
    pthread_mutex_lock(&b->mu);
    if (strcmp(slot->act.state, state) != 0) {
        snprintf(slot->act.state, sizeof slot->act.state, "%s", state);
        slot->act.state_change = now;
    }
    if (status == 'I')
        slot->act.xact_start = 0;
    pthread_mutex_unlock(&b->mu);
}

bool srv_terminating(srv_backend *slot) { return atomic_load(&slot->terminate); }

static rl_backend_activity *list_source(void *ctx, size_t *n)
{
    srv_backends *b = ctx;
    size_t k = 0;
    pthread_mutex_lock(&b->mu);
    rl_backend_activity *all = malloc(((size_t)b->nslots + 1) * sizeof *all);
    for (srv_backend *r = b->slots; r && all; r = r->next)
        all[k++] = r->act;
    assert(k <= (size_t)b->nslots); /* nslots counts the registry's list */
    pthread_mutex_unlock(&b->mu);
    *n = k;
    return all;
}

/* pg_cancel_backend as a CancelRequest without the key; pg_terminate_backend
 * marks the slot and stops a running statement so that its connection
 * notices at once. */
static bool signal_source(void *ctx, int32_t pid, bool terminate)
{
    srv_backends *b = ctx;
    bool found = false;
    pthread_mutex_lock(&b->mu);
    for (srv_backend *r = b->slots; r && !found; r = r->next) {
        if (r->pid != pid)
            continue;
        found = true;
        if (terminate)
            atomic_store(&r->terminate, true);
        if (r->running)
            rl_session_cancel(r->sess);
    }
    pthread_mutex_unlock(&b->mu);
    note_signal(b, found, pid, terminate ? "terminate_backend" : "cancel_backend");
    return found;
}

static void *watchdog_main(void *arg)
{
    srv_backends *b = arg;
    while (!atomic_load(&b->watchdog_quit)) {
        struct timespec d = {.tv_nsec = 20 * 1000000L};
        nanosleep(&d, NULL);
        uint64_t now = rl_monotonic_ns();
        pthread_mutex_lock(&b->mu);
        for (srv_backend *r = b->slots; r; r = r->next) {
            if (r->deadline_ns && now > r->deadline_ns && !r->timed_out) {
                r->timed_out = true;
                rl_session_cancel(r->sess);
            }
        }
        pthread_mutex_unlock(&b->mu);
    }
    return NULL;
}

void srv_watchdog_start(srv_backends *b)
{
    b->watchdog_running = pthread_create(&b->watchdog, NULL, watchdog_main, b) == 0;
}

void srv_watchdog_stop(srv_backends *b)
{
    if (b->watchdog_running) {
        atomic_store(&b->watchdog_quit, true);
        pthread_join(b->watchdog, NULL);
        b->watchdog_running = false;
    }
}
