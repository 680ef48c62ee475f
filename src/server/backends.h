/*
 * backends.h — the registry of backends of `rocklake serve`: cancel
 * requests and the statement timeout.
 *
 * Owns: BackendKeyData (pid, secret) of every session, the lookup a
 * CancelRequest makes, the running / deadline state of each session's
 * statement, and the watchdog thread that cancels a statement past its
 * statement_timeout.
 *
 * Invariants:
 *  - a connection is in the registry exactly while it owns a session, so a
 *    cancel never touches a freed session;
 *  - like PostgreSQL, a cancel (or a timeout) only hits a running
 *    statement: a flag left on an idle session would kill the next one;
 *  - the registry mutex is the only lock held around rl_session_cancel,
 *    which the engine allows from any thread.
 */
#ifndef ROCKLAKE_BACKENDS_H
#define ROCKLAKE_BACKENDS_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "server/server.h"

struct client;

/* The server's registry (a field of rl_server). */
typedef struct srv_backends {
    pthread_mutex_t mu;
    struct client *clients;
    int nclients;
    int32_t next_pid;
    pthread_t watchdog;
    bool watchdog_running;
    atomic_bool watchdog_quit;
} srv_backends;

void srv_backends_init(srv_backends *b);
void srv_backends_destroy(srv_backends *b);
/* The statement-timeout watchdog: started by rl_server_run, stopped after
 * the drain. */
void srv_watchdog_start(rl_server *srv);
void srv_watchdog_stop(rl_server *srv);

/* srv_register assigns pid and secret (-1 past --max-connections); the
 * session must be set before and stay alive until srv_unregister. */
int srv_register(rl_server *srv, struct client *c, int32_t *pid, int32_t *secret);
void srv_unregister(rl_server *srv, struct client *c);
void srv_cancel(rl_server *srv, int32_t pid, int32_t secret);
/* Statement timeout: arm before running a statement (timeout_ms 0 = none),
 * disarm after. Returns true from disarm if the timeout fired (the 57014
 * is then a timeout). */
void srv_stmt_arm(rl_server *srv, struct client *c, uint64_t timeout_ms);
bool srv_stmt_disarm(rl_server *srv, struct client *c);

#endif
