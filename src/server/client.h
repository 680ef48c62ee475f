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
 * Invariants: a protocol violation (bad length, unknown type, malformed
 * message) ends only this connection, after a FATAL ErrorResponse 08P01;
 * every ReadyForQuery carries rl_session_status.
 */
#ifndef ROCKLAKE_CLIENT_H
#define ROCKLAKE_CLIENT_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/socket.h>

#include "server/server.h"

typedef struct client client;

/* Serve one accepted connection to its end (closes fd). */
void client_serve(rl_server *srv, int fd, const struct sockaddr_storage *sa, socklen_t salen);

/* Registry fields backends.c reads and writes under its registry lock. */
typedef struct client_reg {
    rl_session *sess;
    int32_t pid, secret;
    bool running;           /* a statement is executing: cancels apply */
    uint64_t deadline_ns;   /* statement timeout deadline (0 = none armed) */
    bool timed_out;
    client *next;
} client_reg;
client_reg *client_registry_entry(client *c);

#endif
