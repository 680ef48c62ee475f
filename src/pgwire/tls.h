/*
 * tls.h — TLS for the wire protocol: the server's context, and a
 * connection's byte stream with or without a TLS session on it.
 *
 * Owns: every OpenSSL call of the server (the context from --tls-cert and
 * --tls-key, the handshake, encrypted reads and writes, the close), and the
 * answer to an SSLRequest. No other file includes an OpenSSL header for TLS.
 *
 * Interface: a connection holds one rl_stream (its socket, plus a TLS
 * session once rl_stream_start_tls succeeded) and does all its socket I/O
 * through it, so the protocol state machine (client.c) never asks whether
 * TLS is on to read or write.
 *
 * Ownership: rl_tls_ctx belongs to the server (rl_tls_ctx_free at the end,
 * after every connection is gone); an rl_stream belongs to its connection,
 * which ends it with rl_stream_close (that closes the socket too).
 *
 * Invariants: a stream is plaintext until rl_stream_start_tls returns
 * true, and encrypted from then to its close (never back); a failed
 * handshake leaves the stream plaintext, and the caller closes it. Threads:
 * a context is shared read-only by every connection; a stream is used by
 * its connection's thread only.
 */
#ifndef ROCKLAKE_TLS_H
#define ROCKLAKE_TLS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "base/error.h"

typedef struct rl_tls_ctx rl_tls_ctx;
typedef struct rl_tls_session rl_tls_session;

/* The server's TLS context from a PEM certificate chain and key, TLS 1.2 at
 * least. Both NULL: 0 with *out NULL (no TLS). One of them missing or a file
 * unusable: -1 with *err (22023). */
int rl_tls_ctx_load(const char *cert, const char *key, rl_tls_ctx **out, rl_error *err);
void rl_tls_ctx_free(rl_tls_ctx *ctx);

/* One connection's byte stream. */
typedef struct rl_stream {
    int fd;
    rl_tls_session *tls; /* NULL: plaintext */
} rl_stream;

typedef enum rl_stream_rc {
    RL_STREAM_OK,    /* *done bytes were written (at least one) */
    RL_STREAM_AGAIN, /* nothing could be written before the socket's send timeout */
    RL_STREAM_GONE   /* the connection is broken */
} rl_stream_rc;

void rl_stream_init(rl_stream *s, int fd);
static inline bool rl_stream_is_tls(const rl_stream *s) { return s->tls != NULL; }

/* Read up to n bytes: > 0 the count, 0 end of stream, -1 error or the
 * socket's receive timeout. Retries EINTR. */
ssize_t rl_stream_read(rl_stream *s, uint8_t *p, size_t n);
/* Write some of p[0..n). A retry after RL_STREAM_AGAIN may pass the same
 * bytes from another address (the buffer may have moved and grown). */
rl_stream_rc rl_stream_write(rl_stream *s, const uint8_t *p, size_t n, size_t *done);
/* Decrypted bytes already buffered, which poll() on the socket cannot see. */
bool rl_stream_pending(const rl_stream *s);

/* The answer byte to an SSLRequest: 'S' when the server has a context and
 * the stream is not encrypted yet and no SSLRequest was answered before,
 * else 'N'. After 'S' is sent, rl_stream_start_tls follows. */
char rl_tls_request_answer(const rl_stream *s, const rl_tls_ctx *ctx, bool answered_before);

typedef enum rl_tls_start_rc {
    RL_TLS_STARTED,          /* the stream is encrypted from now on */
    RL_TLS_SETUP_FAILED,     /* no session could be made (out of memory) */
    RL_TLS_HANDSHAKE_FAILED  /* the client's handshake failed or timed out */
} rl_tls_start_rc;

/* Server side of the TLS handshake on the stream's socket. The socket's
 * receive timeout (SO_RCVTIMEO, set by the caller) bounds it. */
rl_tls_start_rc rl_stream_start_tls(rl_stream *s, rl_tls_ctx *ctx);

/* End the TLS session (with close_notify unless `broken`) and close the
 * socket. */
void rl_stream_close(rl_stream *s, bool broken);

#endif
