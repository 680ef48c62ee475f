/*
 * server.h — `rocklake serve`: the PostgreSQL wire server.
 *
 * Owns: the configuration, the listening sockets and accept loop (one
 * detached thread per connection and per metrics request, and the count of
 * connection slots), TLS and authentication setup, the startup banner, and
 * the SIGTERM drain. It holds the state of the server's other concerns,
 * each in a file of its own: the lakes registry and database directories
 * (lakes.h), the backends registry with cancels and statement timeouts
 * (backends.h), Prometheus metrics (metrics.h), log lines (log.h).
 *
 * Invariants:
 *  - every lake is closed only after every connection thread has ended
 *    (rl_server_free);
 *  - rl_server_stop is async-signal-safe (it writes one byte to a pipe).
 *
 * The server wires its parts together and does nothing else with them:
 * each part is handed what it needs (its own options, the logger, the
 * metrics, a registry) and none calls back into server.c. Only server.c
 * and the command that starts the server (src/cli/main.c) include this
 * header. The connection itself (protocol state machine) is in client.c.
 */
#ifndef ROCKLAKE_SERVER_H
#define ROCKLAKE_SERVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"

typedef struct rl_server_config {
    const char *store;          /* store root URL; default ./rocklake-data */
    const char *listen;         /* ADDR:PORT; default 127.0.0.1:5433 (port 0 = any free port) */
    const char *metrics_listen; /* ADDR:PORT of the metrics endpoint; NULL = off */
    bool read_only;             /* open lakes as followers */
    bool takeover;              /* become the writer even if another server is */
    bool standby;               /* with read_only: promote by itself once the writer
                                   followed is gone (lakes.h, srv_lakes_start_standby) */
    uint64_t lease_ms;          /* writer lease period; 0 = RL_LEASE_DEFAULT_MS (lease.h) */
    uint32_t store_timeout_ms;  /* rl_store_options.store_timeout_ms; 0 = the kv default (30 s) */
    uint32_t heal_max_ms;       /* the cap of the backoff between reopens of a lake whose store
                                   failed (srv_lakes_options.heal_max_ms); 0 = 5000 */
    bool sequence_commits;      /* rl_catalog_options.sequence_commits for every lake */
    int auto_create;            /* create unknown databases on first use: 1/0; -1 = default
                                   (on only when store is the embedded default) */
    uint64_t max_auto_create;   /* databases auto-create may create during this run;
                                   0 = SRV_DEFAULT_MAX_AUTO_CREATE (lakes.h); past it
                                   unknown databases get FATAL 53400 */
    const char *tls_cert, *tls_key;
    const char *users_file, *hba_file;
    size_t max_message_bytes;   /* 0 = 64 MiB */
    uint64_t statement_timeout_ms;             /* 0 = none */
    uint64_t idle_in_transaction_timeout_ms;   /* 0 = none */
    int max_connections;        /* 0 = 500; sockets still in startup count too */
    uint64_t authentication_timeout_ms; /* startup + authentication; 0 = 60 s */
    int64_t log_min_duration_ms; /* log statements at least this slow; -1 = off */
    bool log_error_statement;    /* --log-min-error-statement: a failed statement's text
                                    in its statement_error line */
    uint64_t cache_bytes;        /* block cache per lake; 0 = the kv default (256 MiB) */
    bool journal_off;            /* local stores: wait for SlateDB's WAL, no journal */
    bool journal_salvage;        /* rl_store_options.journal_salvage: lakes open read-only */
    bool rebuild_digest;         /* rl_store_options.digest_rebuild */
    bool load_in_open;           /* --load-in-open: no rl_store_options.load_background */
    int64_t follower_poll_max_ms; /* followers on an object store: the longest wait between
                                    polls once idle (rl_store_options.follower_poll_max_ms);
                                    0 = default (1000), -1 = no backoff */
    int64_t busy_poll_us;        /* spin this long for a session's next message before
                                    sleeping; -1 = default (100), 0 = never */
    int64_t mirror_bytes;        /* memory for one lake's in-memory copy; 0 = kv default
                                    (4 GiB); -1 = never (rl_store_options.mirror_max_bytes) */
    int64_t result_cache_bytes;  /* kept discovery answers (resultcache.h); 0 = default
                                    (64 MiB), -1 = off */
    bool log_json;
    const char *server_version; /* ParameterStatus server_version; default RL_SERVER_VERSION */
    const char *port_file;      /* write the bound port here once listening (tests) */
} rl_server_config;

#define RL_SERVER_VERSION "15.18 (RockLake 0.1)"
#define RL_DEFAULT_BUSY_POLL_US 100
#define RL_DEFAULT_RESULT_CACHE_BYTES (64ull << 20)
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

#endif
