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
#include "server/client.h"
#include "server/log.h"
#include "server/metrics.h"

void srv_backends_init(srv_backends *b)
{
    pthread_mutex_init(&b->mu, NULL);
    RAND_bytes((unsigned char *)&b->next_pid, sizeof b->next_pid);
    b->next_pid = 1000 + (int32_t)((uint32_t)b->next_pid % 100000);
}

void srv_backends_destroy(srv_backends *b) { pthread_mutex_destroy(&b->mu); }

int srv_register(rl_server *srv, client *c, int32_t *pid, int32_t *secret)
{
    srv_backends *b = srv_backends_of(srv);
    int max = srv_max_connections(srv);
    int32_t s = 0;
    RAND_bytes((unsigned char *)&s, sizeof s);
    pthread_mutex_lock(&b->mu);
    if (b->nclients >= max) {
        pthread_mutex_unlock(&b->mu);
        return -1;
    }
    if (b->next_pid <= 0 || b->next_pid > 4000000)
        b->next_pid = 1000;
    client_reg *r = client_registry_entry(c);
    *pid = b->next_pid++;
    *secret = s;
    r->next = b->clients;
    b->clients = c;
    b->nclients++;
    pthread_mutex_unlock(&b->mu);
    srv_count(srv, M_CONNECTIONS_ACTIVE, 1);
    return 0;
}

void srv_unregister(rl_server *srv, client *c)
{
    srv_backends *b = srv_backends_of(srv);
    pthread_mutex_lock(&b->mu);
    for (client **pp = &b->clients; *pp; pp = &client_registry_entry(*pp)->next)
        if (*pp == c) {
            *pp = client_registry_entry(c)->next;
            b->nclients--;
            break;
        }
    pthread_mutex_unlock(&b->mu);
    srv_count(srv, M_CONNECTIONS_ACTIVE, -1);
}

void srv_cancel(rl_server *srv, int32_t pid, int32_t secret)
{
    srv_backends *b = srv_backends_of(srv);
    bool found = false;
    pthread_mutex_lock(&b->mu);
    for (client *c = b->clients; c; c = client_registry_entry(c)->next) {
        client_reg *r = client_registry_entry(c);
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
        srv_count(srv, M_CANCELS, 1);
    srv_log(srv, "info", found ? "cancel_request" : "cancel_request_unknown", "pid", p, NULL);
}

void srv_stmt_arm(rl_server *srv, client *c, uint64_t timeout_ms)
{
    srv_backends *b = srv_backends_of(srv);
    pthread_mutex_lock(&b->mu);
    client_reg *r = client_registry_entry(c);
    r->running = true;
    r->deadline_ns = timeout_ms ? rl_monotonic_ns() + timeout_ms * 1000000u : 0;
    r->timed_out = false;
    pthread_mutex_unlock(&b->mu);
}

bool srv_stmt_disarm(rl_server *srv, client *c)
{
    srv_backends *b = srv_backends_of(srv);
    pthread_mutex_lock(&b->mu);
    client_reg *r = client_registry_entry(c);
    bool fired = r->timed_out;
    r->running = false;
    r->deadline_ns = 0;
    r->timed_out = false;
    pthread_mutex_unlock(&b->mu);
    return fired;
}

static void *watchdog_main(void *arg)
{
    rl_server *srv = arg;
    srv_backends *b = srv_backends_of(srv);
    while (!atomic_load(&b->watchdog_quit)) {
        struct timespec d = {.tv_nsec = 20 * 1000000L};
        nanosleep(&d, NULL);
        uint64_t now = rl_monotonic_ns();
        pthread_mutex_lock(&b->mu);
        for (client *c = b->clients; c; c = client_registry_entry(c)->next) {
            client_reg *r = client_registry_entry(c);
            if (r->deadline_ns && now > r->deadline_ns && !r->timed_out) {
                r->timed_out = true;
                rl_session_cancel(r->sess);
            }
        }
        pthread_mutex_unlock(&b->mu);
    }
    return NULL;
}

void srv_watchdog_start(rl_server *srv)
{
    srv_backends *b = srv_backends_of(srv);
    b->watchdog_running = pthread_create(&b->watchdog, NULL, watchdog_main, srv) == 0;
}

void srv_watchdog_stop(rl_server *srv)
{
    srv_backends *b = srv_backends_of(srv);
    if (b->watchdog_running) {
        atomic_store(&b->watchdog_quit, true);
        pthread_join(b->watchdog, NULL);
        b->watchdog_running = false;
    }
}
