/*
 * auth.h — client authentication: which method a connection must use
 * (--hba), and the exchange of that method (trust, SCRAM-SHA-256, or a
 * cleartext password checked against the --users secret).
 *
 * Owns: the pg_hba-like decision and its FATAL 28000 messages, the
 * Authentication ('R') messages of each method in PostgreSQL's order, the
 * mock SCRAM exchange that hides whether a user exists, the fixed delay and
 * the FATAL 28P01 after a failure, and the auth_failed / auth_rejected log
 * lines and counter.
 *
 * Interface: rl_auth_run sees the connection only through rl_auth_peer
 * (who is asking, from where, over what) and rl_auth_io (queue an
 * Authentication message, flush, read the next frontend message, send a
 * FATAL). It never touches the socket, the TLS session or the
 * connection's buffers.
 *
 * Invariants: AuthenticationOk is queued only when the method succeeded;
 * every failure has sent its FATAL (or the client is gone) before
 * rl_auth_run returns false; an unknown user fails exactly as a wrong
 * password does, after the same exchange and delay.
 */
#ifndef ROCKLAKE_AUTH_H
#define ROCKLAKE_AUTH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>

#include "error.h"
#include "proto.h"
#include "server.h"

/* Who is authenticating. Strings are the connection's and outlive the call. */
typedef struct rl_auth_peer {
    const struct sockaddr *sa; /* the client's address, for the --hba rules */
    const char *addr;          /* its text form, for messages and logs */
    const char *user, *database;
    bool tls;                  /* the connection is encrypted */
} rl_auth_peer;

/* How the exchange talks to the client; ctx is passed back to each call. */
typedef struct rl_auth_io {
    void *ctx;
    /* Queue an Authentication message ('R': the int32 `code`, then `data`);
     * not flushed. */
    void (*put_auth)(void *ctx, int32_t code, const void *data, size_t len);
    /* Send everything queued; false if the connection is gone. */
    bool (*flush)(void *ctx);
    /* The next frontend message: 1 = *m (valid until the next read), 0 =
     * the client left or the deadline passed, -1 = a protocol violation
     * (its FATAL has been sent). */
    int (*read)(void *ctx, proto_msg *m);
    /* Queue a FATAL ErrorResponse for *e and flush it. */
    void (*fatal)(void *ctx, const rl_error *e);
} rl_auth_io;

/* Decide the method for `peer` and run it. True: AuthenticationOk is
 * queued (the caller flushes it with what follows). False: the connection
 * must close (a FATAL has been sent where PostgreSQL sends one). */
bool rl_auth_run(rl_server *srv, const rl_auth_peer *peer, const rl_auth_io *io);

#endif
