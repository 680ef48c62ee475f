/*
 * server.h — `rocklake serve`: the PostgreSQL wire server.
 *
 * Owns: the configuration, the listening socket and accept loop (one thread
 * per connection), the registry of lakes (database name -> catalog +
 * engine, opened on first use and shared by all sessions), the registry of
 * backends (BackendKeyData pid/secret -> connection, for CancelRequest and
 * statement timeouts), TLS and authentication setup, structured logs,
 * Prometheus metrics, and the SIGTERM drain.
 *
 * Invariants:
 *  - a lake is opened at most once per process and closed only after every
 *    connection thread has ended (rl_server_free);
 *  - a connection is in the backend registry exactly while it owns a
 *    session, so a cancel never touches a freed session;
 *  - rl_server_stop is async-signal-safe (it writes one byte to a pipe).
 *
 * The connection itself (protocol state machine) is in client.c; this
 * header also carries the few server internals client.c uses (srv_*).
 */
#ifndef ROCKLAKE_SERVER_H
#define ROCKLAKE_SERVER_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "error.h"
#include "hba.h"
#include "sql.h"

typedef struct rl_server_config {
    const char *store;          /* store root URL; default ./rocklake-data */
    const char *listen;         /* ADDR:PORT; default 127.0.0.1:5433 (port 0 = any free port) */
    const char *metrics_listen; /* ADDR:PORT of the metrics endpoint; NULL = off */
    bool read_only;             /* open lakes as followers */
    bool takeover;              /* become the writer even if another server is */
    uint64_t lease_ms;          /* writer lease period; 0 = RL_LEASE_DEFAULT_MS (lease.h) */
    uint32_t store_timeout_ms;  /* kv_options.store_timeout_ms; 0 = the kv default (30 s) */
    bool sequence_commits;      /* rl_catalog_options.sequence_commits for every lake */
    int auto_create;            /* create unknown databases on first use: 1/0; -1 = default
                                   (on only when store is the embedded default) */
    uint64_t max_auto_create;   /* databases auto-create may create during this run;
                                   0 = 64; past it unknown databases get FATAL 53400 */
    const char *tls_cert, *tls_key;
    const char *users_file, *hba_file;
    size_t max_message_bytes;   /* 0 = 64 MiB */
    uint64_t statement_timeout_ms;             /* 0 = none */
    uint64_t idle_in_transaction_timeout_ms;   /* 0 = none */
    int max_connections;        /* 0 = 500; sockets still in startup count too */
    uint64_t authentication_timeout_ms; /* startup + authentication; 0 = 60 s */
    int64_t log_min_duration_ms; /* log statements at least this slow; -1 = off */
    uint64_t cache_bytes;        /* block cache per lake; 0 = the kv default (256 MiB) */
    bool journal_off;            /* local stores: wait for SlateDB's WAL, no journal */
    bool journal_salvage;        /* kv_options.journal_salvage: lakes open read-only */
    bool rebuild_digest;         /* kv_options.digest_rebuild */
    int64_t busy_poll_us;        /* spin this long for a session's next message before
                                    sleeping; -1 = default (100), 0 = never */
    int64_t mirror_bytes;        /* memory for one lake's in-memory copy; 0 = kv default
                                    (4 GiB); -1 = never (kv_options.mirror_max_bytes) */
    bool log_json;
    const char *server_version; /* ParameterStatus server_version; default RL_SERVER_VERSION */
    const char *port_file;      /* write the bound port here once listening (tests) */
} rl_server_config;

#define RL_SERVER_VERSION "15.18 (RockLake 0.1)"
#define RL_DEFAULT_BUSY_POLL_US 100
#define SRV_DEFAULT_MAX_AUTO_CREATE 64
#define RL_DEFAULT_STORE "./rocklake-data"
#define RL_DEFAULT_LISTEN "127.0.0.1:5433"

typedef struct rl_server rl_server;

/* Load the auth files, set up TLS, bind the listener(s). NULL + *err on failure. */
rl_server *rl_server_new(const rl_server_config *cfg, rl_error *err);
int rl_server_port(const rl_server *srv);
/* Accept connections until rl_server_stop; then drain: stop accepting, end
 * every session at its next message (open transactions roll back), wait for
 * the connection threads. Returns 0. */
int rl_server_run(rl_server *srv);
void rl_server_stop(rl_server *srv);
/* Close every lake (flushing the stores) and free the server. Returns 0, or
 * -1 if a store failed to close cleanly. */
int rl_server_free(rl_server *srv);

/* ------------------------------------------------ databases (CLI `db`) */

/* URL of database `name` under store root `root` into out; false if the
 * name is not a valid database name. */
bool rl_db_url(const char *root, const char *name, char *out, size_t n);
/* Local roots only (plain path or file://): names of databases, one per
 * callback. Returns the count or -1. */
int rl_db_list(const char *root, void (*cb)(const char *name, void *ctx), void *ctx,
               rl_error *err);
int rl_db_drop(const char *root, const char *name, rl_error *err);

/* ------------------------------------------- internals used by client.c */

struct client;

typedef struct srv_lake srv_lake;

const rl_server_config *srv_config(const rl_server *srv);
const hba *srv_hba(const rl_server *srv);
const hba_users *srv_users(const rl_server *srv);
void *srv_ssl_ctx(rl_server *srv);  /* SSL_CTX *, NULL without TLS */
bool srv_stopping(const rl_server *srv);
/* A per-process secret for mock SCRAM salts of unknown users. */
const uint8_t *srv_mock_key(const rl_server *srv, size_t *len);

/* The engine of database `name`, opening the lake on first use; NULL +
 * 3D000 if it does not exist (and is not to be created). */
rl_engine *srv_lake_engine(rl_server *srv, const char *name, srv_lake **lake, rl_error *err);
/* A statement failed with 25006 "fenced": log it once per lake. */
void srv_lake_fenced(rl_server *srv, srv_lake *lake);

/* Backend registry. srv_register assigns pid and secret; the session must be
 * set before and stay alive until srv_unregister. */
int srv_register(rl_server *srv, struct client *c, int32_t *pid, int32_t *secret);
void srv_unregister(rl_server *srv, struct client *c);
void srv_cancel(rl_server *srv, int32_t pid, int32_t secret);
/* Statement timeout: arm before running a statement (timeout_ms 0 = none),
 * disarm after. Returns true from disarm if the timeout fired (the 57014
 * is then a timeout). */
void srv_stmt_arm(rl_server *srv, struct client *c, uint64_t timeout_ms);
bool srv_stmt_disarm(rl_server *srv, struct client *c);

/* Metrics. */
typedef enum srv_counter {
    M_CONNECTIONS_TOTAL,
    M_CONNECTIONS_ACTIVE,
    M_AUTH_FAILURES,
    M_STATEMENTS,
    M_ERRORS,
    M_COMMITS,
    M_CONFLICTS,
    M_CANCELS,
    M_PROTOCOL_ERRORS,
    M_BUSY_POLL_HITS,
    M_BUSY_POLL_MISSES,
    M__COUNT
} srv_counter;
void srv_count(rl_server *srv, srv_counter which, int64_t delta);
void srv_observe_commit(rl_server *srv, double seconds);
void srv_observe_statement(rl_server *srv, double seconds);

/* Structured log line: text "event key=value ..." or one JSON object.
 * Pairs are (key, value) const char * pointers ending with NULL. */
void srv_log(rl_server *srv, const char *level, const char *event, ...);
/* --log-min-duration-statement: should a statement this long be logged? */
bool srv_statement_is_slow(rl_server *srv, double seconds);

#endif
