/*
 * client.h — one client connection: the protocol 3.0 state machine.
 *
 * Owns: the connection's input buffer and output pktbuf, the startup
 * packets (SSLRequest, GSSENCRequest, CancelRequest, StartupMessage and its
 * parameters), and the mapping of frontend messages to engine calls (simple
 * query, COPY in/out, extended query with skip-until-Sync after an error),
 * plus the result sink that turns engine callbacks into backend messages.
 * Not its own: the bytes on the socket, plain or TLS (tls.h: client.c
 * reads and writes only through its rl_stream), and authentication (auth.h:
 * client.c hands rl_auth_run the peer's names and four I/O callbacks).
 *
 * Lifecycle: client_serve runs the whole connection on the calling thread
 * and closes the socket before returning. States, in order:
 *   STARTUP (SSLRequest / GSSENCRequest / CancelRequest / StartupMessage)
 *   -> AUTH (auth.c: trust, SCRAM-SHA-256 or cleartext password)
 *   -> READY (messages until Terminate, EOF, a fatal error or the drain)
 *
 * Interface: a connection sees the server only through client_env: the
 * parts it is lent (logger, metrics, backends registry, lakes registry,
 * result cache, TLS context, authentication rules) and its settings. It
 * calls those parts; none of them calls it.
 *
 * Invariants: a protocol violation (bad length, unknown type, malformed
 * message) ends only this connection, after a FATAL ErrorResponse 08P01;
 * every ReadyForQuery carries rl_session_status.
 */
#ifndef ROCKLAKE_CLIENT_H
#define ROCKLAKE_CLIENT_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "pgwire/auth.h"
#include "pgwire/tls.h"
#include "server/backends.h"
#include "server/lakes.h"
#include "server/log.h"
#include "server/metrics.h"
#include "server/resultcache.h"

/* What a connection needs of the server. The server owns every part and
 * keeps it alive until every connection has ended; settings are defaulted
 * by the server unless said otherwise. */
typedef struct client_env {
    srv_logger *log;
    srv_metrics *metrics;
    srv_backends *backends;        /* where the session takes its slot (cancel, timeout) */
    srv_lakes *lakes;              /* the engine of each database */
    rc_cache *results;             /* kept discovery answers; NULL: off */
    rl_tls_ctx *tls;               /* NULL without TLS */
    rl_auth_config auth;           /* --hba rules, --users, the mock SCRAM key */
    const atomic_bool *stopping;   /* set when the drain begins */
    const char *server_version;    /* ParameterStatus server_version */
    size_t max_message_bytes;      /* 0 = PROTO_DEFAULT_MAX_MESSAGE */
    uint64_t statement_timeout_ms;             /* 0 = none */
    uint64_t idle_in_transaction_timeout_ms;   /* 0 = none */
    uint64_t authentication_timeout_ms;        /* startup + authentication; 0 = 60 s */
    int64_t busy_poll_us;          /* spin for the next message; 0 = never */
    int port, max_connections;     /* SHOW port / max_connections */
} client_env;

/* Serve one accepted connection to its end (closes fd). */
void client_serve(const client_env *env, int fd, const struct sockaddr_storage *sa,
                  socklen_t salen);

#endif
