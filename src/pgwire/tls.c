/*
 * tls.c — the server's TLS context and a connection's byte stream (tls.h).
 *
 * Owns: OpenSSL's context, sessions, handshake, reads and writes for the
 * wire protocol. An rl_tls_ctx is an SSL_CTX and an rl_tls_session an SSL
 * under their own names, so no header above this file needs OpenSSL.
 *
 * Invariants: the OpenSSL error queue is cleared before each write and
 * after a failed handshake, so a stale error never decides the next call;
 * a session is made with SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER and
 * SSL_MODE_ENABLE_PARTIAL_WRITE, because a write that timed out is retried
 * with a buffer that may have moved and grown (tls.h, rl_stream_write).
 */
#include "pgwire/tls.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <sys/socket.h>

#include <openssl/err.h>
#include <openssl/ssl.h>

static SSL_CTX *ssl_ctx_of(rl_tls_ctx *ctx) { return (SSL_CTX *)ctx; }
static SSL *ssl_of(const rl_stream *s) { return (SSL *)s->tls; }

/* ------------------------------------------------------------- context */

int rl_tls_ctx_load(const char *cert, const char *key, rl_tls_ctx **out, rl_error *err)
{
    *out = NULL;
    if (!cert && !key)
        return 0;
    if (!cert || !key)
        return rl_error_set(err, RL_SQLSTATE_INVALID_PARAMETER,
                            "TLS needs both --tls-cert and --tls-key");
    SSL_CTX *ctx = SSL_CTX_new(TLS_server_method());
    if (!ctx)
        return rl_error_set(err, RL_SQLSTATE_INTERNAL, "cannot create a TLS context");
    *out = (rl_tls_ctx *)ctx; /* the caller frees it, loaded or not */
    SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
    if (SSL_CTX_use_certificate_chain_file(ctx, cert) != 1 ||
        SSL_CTX_use_PrivateKey_file(ctx, key, SSL_FILETYPE_PEM) != 1 ||
        SSL_CTX_check_private_key(ctx) != 1) {
        char why[256];
        ERR_error_string_n(ERR_get_error(), why, sizeof why);
        return rl_error_set(err, RL_SQLSTATE_INVALID_PARAMETER,
                            "cannot load TLS certificate \"%s\" / key \"%s\": %s", cert, key,
                            why);
    }
    return 0;
}

void rl_tls_ctx_free(rl_tls_ctx *ctx) { SSL_CTX_free(ssl_ctx_of(ctx)); }

/* -------------------------------------------------------------- stream */

void rl_stream_init(rl_stream *s, int fd)
{
    s->fd = fd;
    s->tls = NULL;
}

ssize_t rl_stream_read(rl_stream *s, uint8_t *p, size_t n)
{
    if (s->tls) {
        int r = SSL_read(ssl_of(s), p, (int)(n > INT32_MAX ? INT32_MAX : n));
        return r > 0 ? r : -1;
    }
    for (;;) {
        ssize_t r = recv(s->fd, p, n, 0);
        if (r < 0 && errno == EINTR)
            continue;
        return r;
    }
}

static rl_stream_rc tls_write(rl_stream *s, const uint8_t *p, size_t n, size_t *done)
{
    ERR_clear_error();
    int r = SSL_write(ssl_of(s), p, (int)(n > INT32_MAX ? INT32_MAX : n));
    if (r > 0) {
        *done = (size_t)r;
        return RL_STREAM_OK;
    }
    int e = SSL_get_error(ssl_of(s), r);
    bool again = e == SSL_ERROR_WANT_WRITE ||
                 (e == SSL_ERROR_SYSCALL && (errno == EAGAIN || errno == EWOULDBLOCK));
    return again ? RL_STREAM_AGAIN : RL_STREAM_GONE;
}

static rl_stream_rc plain_write(rl_stream *s, const uint8_t *p, size_t n, size_t *done)
{
    for (;;) {
        ssize_t w = send(s->fd, p, n, MSG_NOSIGNAL);
        if (w > 0) {
            *done = (size_t)w;
            return RL_STREAM_OK;
        }
        if (w < 0 && errno == EINTR)
            continue;
        return w < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) ? RL_STREAM_AGAIN
                                                                   : RL_STREAM_GONE;
    }
}

rl_stream_rc rl_stream_write(rl_stream *s, const uint8_t *p, size_t n, size_t *done)
{
    *done = 0;
    return s->tls ? tls_write(s, p, n, done) : plain_write(s, p, n, done);
}

bool rl_stream_pending(const rl_stream *s) { return s->tls && SSL_pending(ssl_of(s)) > 0; }

char rl_tls_request_answer(const rl_stream *s, const rl_tls_ctx *ctx, bool answered_before)
{
    return ctx && !answered_before && !s->tls ? 'S' : 'N';
}

rl_tls_start_rc rl_stream_start_tls(rl_stream *s, rl_tls_ctx *ctx)
{
    SSL *ssl = SSL_new(ssl_ctx_of(ctx));
    if (!ssl)
        return RL_TLS_SETUP_FAILED;
    SSL_set_mode(ssl, SSL_MODE_ACCEPT_MOVING_WRITE_BUFFER | SSL_MODE_ENABLE_PARTIAL_WRITE);
    if (SSL_set_fd(ssl, s->fd) != 1) {
        SSL_free(ssl);
        return RL_TLS_SETUP_FAILED;
    }
    if (SSL_accept(ssl) != 1) {
        ERR_clear_error();
        SSL_free(ssl);
        return RL_TLS_HANDSHAKE_FAILED;
    }
    s->tls = (rl_tls_session *)ssl;
    return RL_TLS_STARTED;
}

void rl_stream_close(rl_stream *s, bool broken)
{
    if (s->tls) {
        if (!broken)
            SSL_shutdown(ssl_of(s));
        SSL_free(ssl_of(s));
        s->tls = NULL;
    }
    close(s->fd);
    s->fd = -1;
}
