/*
 * backends.c — backend keys, cancel requests, statement timeouts (see
 * backends.h).
 *
 * The watchdog wakes every 20 ms and cancels, under the registry mutex,
 * each running statement past its deadline; srv_stmt_disarm reports
 * whether it did, so the 57014 says "statement timeout".
 */
#include "server/backends.h"

#include <openssl/rand.h>
#include <stdio.h>
#include <time.h>

#include "base/buf.h"

void srv_backends_init(srv_backends *b, int max_slots, srv_metrics *metrics, srv_logger *log)
{
    pthread_mutex_init(&b->mu, NULL);
    b->max_slots = max_slots;
    b->metrics = metrics;
    b->log = log;
    RAND_bytes((unsigned char *)&b->next_pid, sizeof b->next_pid);
    b->next_pid = 1000 + (int32_t)((uint32_t)b->next_pid % 100000);
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
    char p[16];
    snprintf(p, sizeof p, "%d", pid);
    if (found)
        srv_count(b->metrics, M_CANCELS, 1);
    srv_log(b->log, "info", found ? "cancel_request" : "cancel_request_unknown", "pid", p, NULL);
}

void srv_stmt_arm(srv_backends *b, srv_backend *slot, uint64_t timeout_ms)
{
    pthread_mutex_lock(&b->mu);
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
