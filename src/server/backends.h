/*
 * backends.h — the registry of backends of `rocklake serve`: cancel
 * requests, the statement timeout, and what pg_stat_activity shows.
 *
 * Owns: the slots of the sessions (srv_backend: BackendKeyData (pid,
 * secret), the session a cancel reaches, the running / deadline state of
 * its statement, its activity: who, since when, what it runs), the lookup
 * a CancelRequest makes, the watchdog thread that cancels a statement past
 * its statement_timeout, and the rl_activity_source the SQL layer reads
 * (pg_stat_activity) and signals through (pg_cancel_backend,
 * pg_terminate_backend).
 *
 * Interface: a connection embeds one srv_backend and hands it to
 * srv_register with its session; from then on it reaches its slot only
 * through the calls below. The registry never calls the connection: it
 * counts (metrics.h) and logs (log.h) through the parts it was handed.
 *
 * Invariants:
 *  - a slot is in the registry exactly while its connection owns a
 *    session, so a cancel never touches a freed session;
 *  - like PostgreSQL, a cancel (or a timeout) only hits a running
 *    statement: a flag left on an idle session would kill the next one;
 *  - the registry mutex is the only lock held around rl_session_cancel,
 *    which the engine allows from any thread;
 *  - pg_stat_activity reads copies of the slots' activity taken under the
 *    mutex: it never reads a session, so a session ending meanwhile is
 *    simply not listed;
 *  - a terminated slot stays terminated: its connection sends FATAL 57P01
 *    at its next statement end or idle wait and closes.
 */
#ifndef ROCKLAKE_BACKENDS_H
#define ROCKLAKE_BACKENDS_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "server/log.h"
#include "server/metrics.h"
#include "sql/sql.h"

/* One session's slot. Its connection owns the memory; the fields are the
 * registry's, read and written under its mutex, except pid and secret,
 * which srv_register sets and which stay the same until srv_unregister
 * (the connection reads them without the lock). */
typedef struct srv_backend {
    rl_session *sess;
    int32_t pid, secret;
    bool running;           /* a statement is executing: cancels apply */
    uint64_t deadline_ns;   /* statement timeout deadline (0 = none armed) */
    bool timed_out;
    atomic_bool terminate;  /* pg_terminate_backend: end the session */
    /* pg_stat_activity: the identity the connection sets before
     * srv_register, the rest under the mutex (srv_stmt_arm, srv_activity_ready) */
    rl_backend_activity act;
    struct srv_backend *next;
} srv_backend;

/* The server's registry (a field of rl_server). */
typedef struct srv_backends {
    pthread_mutex_t mu;
    srv_backend *slots;
    int nslots, max_slots;
    int32_t next_pid;
    srv_metrics *metrics;   /* lent by the server: cancels, active connections */
    srv_logger *log;        /* lent by the server: cancel requests */
    rl_activity_source source; /* lent to every session (rl_session_info.activity) */
    pthread_t watchdog;
    bool watchdog_running;
    atomic_bool watchdog_quit;
} srv_backends;

/* max_slots: --max-connections, defaulted; metrics and log outlive b. */
void srv_backends_init(srv_backends *b, int max_slots, srv_metrics *metrics, srv_logger *log);
void srv_backends_destroy(srv_backends *b);
/* The statement-timeout watchdog: started by rl_server_run, stopped after
 * the drain. */
void srv_watchdog_start(srv_backends *b);
void srv_watchdog_stop(srv_backends *b);

/* Put slot in the registry for sess, which must stay alive until
 * srv_unregister; assigns slot->pid and slot->secret. -1 past
 * max_slots (the slot is then not registered). The caller has set the
 * identity of slot->act (datname, usename, application_name, client_addr,
 * client_port, superuser). */
int srv_register(srv_backends *b, srv_backend *slot, rl_session *sess);
void srv_unregister(srv_backends *b, srv_backend *slot);
void srv_cancel(srv_backends *b, int32_t pid, int32_t secret);
/* Statement timeout: arm before running a statement (timeout_ms 0 = none),
 * disarm after. Returns true from disarm if the timeout fired (the 57014
 * is then a timeout). Arming also makes the slot "active" running `sql`
 * (NULL: the text it ran last) for pg_stat_activity. */
void srv_stmt_arm(srv_backends *b, srv_backend *slot, uint64_t timeout_ms, const char *sql);
bool srv_stmt_disarm(srv_backends *b, srv_backend *slot);
/* The session is waiting for its client (ReadyForQuery's status: 'I'
 * idle, 'T' idle in transaction, 'E' idle in transaction (aborted)). */
void srv_activity_ready(srv_backends *b, srv_backend *slot, char status);
/* Has pg_terminate_backend asked this slot's session to end? */
bool srv_terminating(srv_backend *slot);

#endif
