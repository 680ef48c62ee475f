/*
 * auth.h — client authentication: which method a connection must use
 * (--hba), and the exchange of that method (trust, SCRAM-SHA-256, or a
 * cleartext password checked against the --users secret).
 *
 * Owns: the pg_hba-like decision and its FATAL 28000 messages, the
 * Authentication ('R') messages of each method in PostgreSQL's order, the
 * mock SCRAM exchange that hides whether a user exists, the fixed delay and
 * the FATAL 28P01 after a failure, and which refusal (auth_failed /
 * auth_rejected) the caller logs and counts.
 *
 * Interface: rl_auth_run sees the server only through rl_auth_config (the
 * rules, the users, the mock key) and the connection only through
 * rl_auth_peer (who is asking, from where, over what) and rl_auth_io (queue
 * an Authentication message, flush, read the next frontend message, send a
 * FATAL, report a refusal for the caller's log and counter). It never
 * touches the socket, the TLS session, the connection's buffers or the
 * running server: the protocol layer stays below it (src/LAYERS).
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

#include "base/error.h"
#include "pgwire/hba.h"
#include "pgwire/proto.h"

/* What the server configured; borrowed for the call. NULL rules: no --hba
 * (everyone is trusted); NULL users: no --users file. */
typedef struct rl_auth_config {
    const hba *rules;
    const hba_users *users;
    const uint8_t *mock_key; /* keys the mock secret of unknown users */
    size_t mock_key_len;
} rl_auth_config;

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
    /* The attempt is refused, before its FATAL: `event` is "auth_failed"
     * (a wrong password or unknown user) or "auth_rejected" (the --hba
     * rules), for the caller's log line and failure counter. */
    void (*refused)(void *ctx, const char *event);
} rl_auth_io;

/* Decide the method for `peer` and run it. True: AuthenticationOk is
 * queued (the caller flushes it with what follows). False: the connection
 * must close (a FATAL has been sent where PostgreSQL sends one). */
bool rl_auth_run(const rl_auth_config *cfg, const rl_auth_peer *peer, const rl_auth_io *io);

#endif
