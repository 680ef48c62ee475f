/*
 * client.c — one connection's protocol state machine (see client.h).
 *
 * The connection runs on its own thread with blocking I/O. Waiting for
 * input polls in short slices so the thread notices the SIGTERM drain and
 * the idle-in-transaction timeout without signals.
 *
 * Output is batched in one pktbuf and written when the engine hands
 * control back (ReadyForQuery, CopyInResponse, Flush) or when it grows past
 * FLUSH_BYTES, so a large result streams instead of piling up in memory.
 *
 * Backpressure: a client that does not read its results stops the session
 * thread in the write, not the buffer's growth; the wire buffer holds at
 * most FLUSH_BYTES plus one message (and, after a cancel, an ErrorResponse
 * and ReadyForQuery). Sockets send with SO_SNDTIMEO = POLL_SLICE_MS, so a
 * blocked write wakes every slice: the SIGTERM drain then ends the
 * connection (nothing more can be delivered), and inside a statement a
 * cancel request or the statement timeout ends the statement (57014) while
 * the bytes not yet sent stay queued in order (out_sent), so a client that
 * reads later gets the rows, then the error, then ReadyForQuery. A client
 * that disconnects makes the write fail: the statement fails with 08006 and
 * client_free rolls the session's transaction back.
 *
 * Not here: the bytes on the socket, plain or TLS, are tls.c's (every read
 * and write goes through c->stream, and only start_tls asks for the
 * handshake); authentication is auth.c's (authenticate hands it the peer's
 * names and the four rl_auth_io callbacks below, nothing of the struct).
 */
#include "server/client.h"

#include <assert.h>
#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>

#include "pgwire/auth.h"
#include "server/backends.h"
#include "base/buf.h"
#include "server/lakes.h"
#include "server/log.h"
#include "server/metrics.h"
#include "pgwire/pktbuf.h"
#include "pgwire/proto.h"
#include "server/resultcache.h"
#include "pgwire/tls.h"
#include "base/utf8.h"

enum {
    FLUSH_BYTES = 64 * 1024,
    POLL_SLICE_MS = 200,
    DEFAULT_AUTH_TIMEOUT_MS = 60 * 1000, /* PostgreSQL's authentication_timeout */
    NAME_MAX_LEN = 64
};

typedef struct client client;

struct client {
    const client_env *env;       /* the server's parts and settings (client.h) */
    rl_stream stream;            /* the socket, and its TLS session once started */
    struct sockaddr_storage sa;
    char addr[64];
    uint8_t *in;
    size_t in_off, in_len, in_cap, max_msg;
    pktbuf out;
    size_t out_sent;             /* bytes at the head of `out` already written */
    bool broken;                 /* a write failed: stop talking */
    uint64_t startup_deadline_ns; /* startup + authentication must end by then */
    char user[NAME_MAX_LEN], database[NAME_MAX_LEN], appname[NAME_MAX_LEN];
    char options[1024];          /* startup `options`, applied after authentication */
    /* the startup packet's other parameters ("name\0value\0" each), applied
     * after `options` as PostgreSQL applies them: as SET */
    char gucs[2048];
    size_t gucs_len;
    /* the values of the reported settings the client was last sent
     * (ParameterStatus), so that a change is reported before ReadyForQuery */
    char reported[4][256];
    srv_lake *lake;
    rl_engine *eng;
    rl_session *sess;
    srv_backend slot;            /* in env->backends while registered */
    bool registered;
    /* query state */
    bool skip_till_sync;         /* extended protocol: an error skips to Sync */
    bool executing;              /* in Execute: no RowDescription, portal formats */
    const char *portal;
    bool sink_failed;            /* the sink raised its own error */
    int copy_format;             /* COPY TO STDOUT in progress: 0 text, 1 binary */
    bool copy_header_pending;    /* binary: the header still rides with the next row */
    rl_error sink_err;
    /* per Query message, for the commit log and metrics */
    uint64_t commits_seen;       /* rl_commit_info.commits already counted */
    uint64_t trip_t0;            /* when the round trip being answered began; 0: none */
    size_t ncomplete;
    /* a pure SELECT's answer being kept for the result cache: every byte
     * of its messages from RowDescription to CommandComplete */
    bool keeping;
    uint8_t keep_digest[RC_DIGEST_LEN];
    rl_buf kept;
};



/* ------------------------------------------------------------------ I/O */

typedef enum write_rc {
    WRITE_DONE,     /* everything buffered is on the wire; the buffer is empty */
    WRITE_GONE,     /* the connection is over (c->broken) */
    WRITE_CANCELED  /* the statement was canceled while waiting; the rest is kept */
} write_rc;

/* Write what `out` holds past out_sent. A write that cannot proceed
 * returns EAGAIN after POLL_SLICE_MS (SO_SNDTIMEO): then the drain gives up
 * on the connection, and `in_statement`, a pending cancel or statement
 * timeout stops the wait (the caller fails the statement). */
static write_rc write_pending(client *c, bool in_statement)
{
    if (pktbuf_failed(&c->out))
        c->broken = true; /* out of memory building a reply: nothing sane to send */
    while (!c->broken && c->out_sent < pktbuf_len(&c->out)) {
        const uint8_t *p = pktbuf_data(&c->out) + c->out_sent;
        size_t n = pktbuf_len(&c->out) - c->out_sent, w;
        rl_stream_rc rc = rl_stream_write(&c->stream, p, n, &w);
        if (rc == RL_STREAM_OK) {
            c->out_sent += w;
            continue;
        }
        if (rc == RL_STREAM_GONE) {
            c->broken = true;
            break;
        }
        if (atomic_load(c->env->stopping)) {
            srv_log(c->env->log, "info", "client_not_reading", "client", c->addr, "user", c->user,
                    "message", "closing the connection for the shutdown", NULL);
            c->broken = true;
            break;
        }
        if (in_statement && c->sess && rl_session_cancel_pending(c->sess))
            return WRITE_CANCELED;
    }
    if (c->broken) {
        pktbuf_reset(&c->out);
        c->out_sent = 0;
        return WRITE_GONE;
    }
    pktbuf_reset(&c->out);
    c->out_sent = 0;
    return WRITE_DONE;
}

/* Send everything buffered. False if the connection is gone. */
static bool flush_out(client *c)
{
    return write_pending(c, false) == WRITE_DONE;
}

/* From the sink, inside a statement: write once the buffer passes
 * FLUSH_BYTES. -1 stops the statement: the connection is gone (the engine
 * reports 08006), or a cancel / the statement timeout came while the client
 * was not reading (sink_err says 57014). */
static int maybe_flush(client *c)
{
    if (pktbuf_len(&c->out) < FLUSH_BYTES)
        return 0;
    switch (write_pending(c, true)) {
    case WRITE_DONE: return 0;
    case WRITE_CANCELED:
        c->sink_failed = true;
        rl_error_set(&c->sink_err, RL_SQLSTATE_QUERY_CANCELED, "canceling statement due to user request");
        return -1;
    default: return -1;
    }
}

/* ------------------------------------------------------------ messages */

static const char *severity_of(const char *sqlstate, const char *dflt)
{
    if (strncmp(sqlstate, "00", 2) == 0)
        return "NOTICE";
    /* 01: warnings; 25: a transaction command out of place (BEGIN inside
     * one, COMMIT / SET TRANSACTION / SET CONSTRAINTS outside), PostgreSQL's
     * WARNINGs too */
    if (strncmp(sqlstate, "01", 2) == 0 || strncmp(sqlstate, "25", 2) == 0)
        return "WARNING";
    return dflt;
}

/* ErrorResponse ('E') or NoticeResponse ('N') with fields S V C M D H P. */
static void put_error(client *c, char type, const char *severity, const rl_error *e)
{
    pktbuf *b = &c->out;
    pktbuf_begin(b, type);
    pktbuf_put_u8(b, 'S');
    pktbuf_put_string(b, severity);
    pktbuf_put_u8(b, 'V');
    pktbuf_put_string(b, severity);
    pktbuf_put_u8(b, 'C');
    pktbuf_put_string(b, e->sqlstate[0] ? e->sqlstate : RL_SQLSTATE_INTERNAL_ERROR);
    pktbuf_put_u8(b, 'M');
    pktbuf_put_string(b, e->message);
    if (e->detail[0]) {
        pktbuf_put_u8(b, 'D');
        pktbuf_put_string(b, e->detail);
    }
    if (e->hint[0]) {
        pktbuf_put_u8(b, 'H');
        pktbuf_put_string(b, e->hint);
    }
    if (e->position > 0) {
        char pos[16];
        snprintf(pos, sizeof pos, "%d", e->position);
        pktbuf_put_u8(b, 'P');
        pktbuf_put_string(b, pos);
    }
    pktbuf_put_u8(b, 0);
    pktbuf_end(b);
}

/* FATAL error, flushed: the caller then closes the connection. */
static void send_fatal(client *c, const char *sqlstate, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void send_fatal(client *c, const char *sqlstate, const char *fmt, ...)
{
    rl_error e;
    rl_error_clear(&e);
    snprintf(e.sqlstate, sizeof e.sqlstate, "%s", sqlstate);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e.message, sizeof e.message, fmt, ap);
    va_end(ap);
    put_error(c, 'E', "FATAL", &e);
    flush_out(c);
}

static void send_fatal_err(client *c, const rl_error *e)
{
    put_error(c, 'E', "FATAL", e);
    flush_out(c);
}

static void report_settings(client *c, bool all);

static void send_ready(client *c)
{
    char st = c->sess ? rl_session_status(c->sess) : 'I';
    if (c->registered)
        srv_activity_ready(c->env->backends, &c->slot, st);
    report_settings(c, false);
    pktbuf_write(&c->out, 'Z', "c", st);
    srv_count(c->env->metrics, M_READY_FOR_QUERY, 1); /* before the client can see it */
    if (c->trip_t0) {
        srv_observe_round_trip(c->env->metrics, (double)(rl_monotonic_ns() - c->trip_t0) / 1e9);
        c->trip_t0 = 0;
    }
    flush_out(c);
}

/* ------------------------------------------------------------- reading */

typedef enum wait_kind {
    WAIT_STARTUP,   /* before the session exists: bounded by --authentication-timeout */
    WAIT_IDLE,      /* between messages: drain + idle-in-transaction timeout apply */
    WAIT_COPY       /* inside a COPY FROM STDIN */
} wait_kind;

/* Sessions busy-polling right now; at most one fewer than the CPUs, so a
 * spinner never takes the last CPU from work that is runnable. */
static _Atomic int spinners;

/* Between two messages of a session, check the socket without sleeping for
 * up to --busy-poll-us before blocking in poll(). Why: DuckLake sends its
 * catalog queries one round trip at a time, the next one a few tens of
 * microseconds after each answer, and on a virtual machine waking an idle
 * CPU costs about as much again; a session that is still on the CPU when
 * the message arrives answers sooner (docs/benchmarks.md, round 4). The
 * loop yields the CPU on each turn, so runnable threads go first. Returns
 * true when input arrived. */
static bool busy_poll_input(client *c)
{
    static _Atomic long cpus;
    int64_t us = c->env->busy_poll_us;
    if (us <= 0)
        return false;
    long limit = atomic_load(&cpus);
    if (limit == 0) {
        limit = sysconf(_SC_NPROCESSORS_ONLN);
        atomic_store(&cpus, limit);
    }
    if (atomic_fetch_add(&spinners, 1) >= limit - 1) {
        atomic_fetch_sub(&spinners, 1);
        return false;
    }
    uint64_t end = rl_monotonic_ns() + (uint64_t)us * 1000u;
    bool ready = false;
    while (!ready && rl_monotonic_ns() < end) {
        struct pollfd pfd = {.fd = c->stream.fd, .events = POLLIN};
        ready = poll(&pfd, 1, 0) > 0;
        if (!ready)
            sched_yield();
    }
    atomic_fetch_sub(&spinners, 1);
    srv_count(c->env->metrics, ready ? M_BUSY_POLL_HITS : M_BUSY_POLL_MISSES, 1);
    return ready;
}

/* A timeout in ms: the session's SET value, else the server's option. */
static uint64_t session_timeout_ms(client *c, const char *setting, uint64_t server_default)
{
    int64_t ms = c->sess ? rl_session_timeout_ms(c->sess, setting) : -1;
    return ms < 0 ? server_default : (uint64_t)ms;
}

static uint64_t statement_timeout_ms(client *c)
{
    return session_timeout_ms(c, "statement_timeout", c->env->statement_timeout_ms);
}

/* pg_terminate_backend ended this session: PostgreSQL's FATAL, then the
 * connection closes. */
static void send_terminated(client *c)
{
    send_fatal(c, RL_SQLSTATE_ADMIN_SHUTDOWN, "terminating connection due to administrator command");
    srv_log(c->env->log, "info", "terminated", "client", c->addr, "user", c->user, NULL);
    c->broken = true;
}

/* Wait until the socket is readable. 1 readable, 0 give up (drain, timeout
 * or startup deadline; a FATAL has been sent where PostgreSQL sends one). */
static int wait_readable(client *c, wait_kind kind, bool at_boundary)
{
    if (rl_stream_pending(&c->stream))
        return 1;
    if (kind == WAIT_IDLE && busy_poll_input(c))
        return 1;
    uint64_t start = rl_monotonic_ns();
    for (;;) {
        /* as PostgreSQL, the connection just closes: nothing is sent to a
         * client that has not authenticated. Checked before polling too: a
         * client trickling bytes never lets the poll time out. */
        if (kind == WAIT_STARTUP && rl_monotonic_ns() > c->startup_deadline_ns)
            return 0;
        struct pollfd pfd = {.fd = c->stream.fd, .events = POLLIN};
        int r = poll(&pfd, 1, POLL_SLICE_MS);
        if (r > 0)
            return 1;
        if (r < 0 && errno != EINTR)
            return 0;
        uint64_t waited_ms = (rl_monotonic_ns() - start) / 1000000u;
        if (c->registered && srv_terminating(&c->slot)) {
            send_terminated(c);
            return 0;
        }
        if (atomic_load(c->env->stopping)) {
            if (kind != WAIT_STARTUP)
                send_fatal(c, RL_SQLSTATE_ADMIN_SHUTDOWN,
                           "terminating connection due to administrator command");
            return 0;
        }
        char st = c->sess ? rl_session_status(c->sess) : 'I';
        uint64_t idle_ms = session_timeout_ms(c, "idle_in_transaction_session_timeout",
                                              c->env->idle_in_transaction_timeout_ms);
        if (kind != WAIT_STARTUP && at_boundary && st != 'I' && idle_ms && waited_ms > idle_ms) {
            send_fatal(c, RL_SQLSTATE_IDLE_IN_TXN_TIMEOUT,
                       "terminating connection due to idle-in-transaction timeout");
            srv_log(c->env->log, "info", "idle_in_transaction_timeout", "client", c->addr, "user",
                    c->user, NULL);
            return 0;
        }
    }
}

/* Make room for at least `need` more unread bytes (bounded by the maximum
 * message size, which proto_frame enforces before we get here). */
static bool make_room(client *c, size_t need)
{
    if (c->in_off > 0) {
        memmove(c->in, c->in + c->in_off, c->in_len - c->in_off);
        c->in_len -= c->in_off;
        c->in_off = 0;
    }
    if (c->in_cap - c->in_len >= need)
        return true;
    size_t cap = c->in_cap ? c->in_cap : 8192;
    while (cap - c->in_len < need)
        cap *= 2;
    uint8_t *p = realloc(c->in, cap);
    if (!p)
        return false;
    c->in = p;
    c->in_cap = cap;
    return true;
}

/* Bytes still missing for the message at the head of the buffer. */
static size_t missing_bytes(const client *c, bool startup)
{
    size_t have = c->in_len - c->in_off, hdr = startup ? 4 : 5;
    if (have < hdr)
        return hdr - have;
    size_t total = hdr + rl_load_be32(c->in + c->in_off + hdr - 4) - 4;
    return total > have ? total - have : 1;
}

/* Next message. 1 = *m (valid until the next call), 0 = connection over
 * (EOF, drain, timeout; nothing more to send), -1 = protocol violation
 * (a FATAL 08P01 has been sent). */
static int read_message(client *c, bool startup, wait_kind kind, proto_msg *m)
{
    for (;;) {
        rl_error err;
        size_t used = 0;
        int rc = proto_frame(c->in + c->in_off, c->in_len - c->in_off, startup, c->max_msg, m,
                             &used, &err);
        if (rc == 1) {
            c->in_off += used;
            return 1;
        }
        if (rc < 0) {
            srv_count(c->env->metrics, M_PROTOCOL_ERRORS, 1);
            srv_log(c->env->log, "warning", "protocol_violation", "client", c->addr, "message",
                    err.message, NULL);
            if (!startup || strcmp(err.sqlstate, RL_SQLSTATE_PROTOCOL_VIOLATION) != 0 ||
                rl_stream_is_tls(&c->stream))
                send_fatal_err(c, &err);
            return -1;
        }
        size_t need = missing_bytes(c, startup);
        if (need < 4096)
            need = 4096;
        if (!make_room(c, need)) {
            send_fatal(c, RL_SQLSTATE_OUT_OF_MEMORY, "out of memory");
            return -1;
        }
        bool boundary = c->in_len == c->in_off;
        if (!wait_readable(c, kind, boundary))
            return 0;
        ssize_t n = rl_stream_read(&c->stream, c->in + c->in_len, c->in_cap - c->in_len);
        if (n <= 0)
            return 0;
        c->in_len += (size_t)n;
    }
}

/* ------------------------------------------------------ kept answers */

/* Stop keeping the current answer (it failed, or sent something that is
 * not part of a plain answer). */
static void keep_abandon(client *c)
{
    if (!c->keeping)
        return;
    c->keeping = false;
    rl_buf_free(&c->kept);
}

/* The message just built at out[start..] belongs to the answer being kept. */
static void keep_message(client *c, size_t start)
{
    if (!c->keeping)
        return;
    rl_buf_put(&c->kept, pktbuf_data(&c->out) + start, pktbuf_len(&c->out) - start);
    if (c->kept.failed) /* over rc_max_entry: this answer is not kept */
        keep_abandon(c);
}

/* The answer's CommandComplete is in: hand its bytes to the cache. */
static void keep_finish(client *c)
{
    if (!c->keeping)
        return;
    size_t len = 0;
    uint8_t *bytes = rl_buf_steal(&c->kept, &len);
    c->keeping = false;
    rl_buf_free(&c->kept);
    if (bytes)
        rc_store(c->env->results, c->keep_digest, bytes, len);
}

/* rl_sink.cached_result: send a kept answer, or start keeping this one. */
static int sink_cached_result(void *ctx, const uint8_t *key, size_t keylen)
{
    client *c = ctx;
    rc_cache *cache = c->env->results;
    keep_abandon(c);
    if (!cache || c->executing)
        return 0;
    uint8_t digest[RC_DIGEST_LEN];
    if (!rc_digest(key, keylen, digest))
        return 0; /* computed, not kept */
    rc_entry *e = rc_lookup(cache, digest);
    if (!e) {
        memcpy(c->keep_digest, digest, sizeof digest);
        rl_buf_init(&c->kept, (size_t)rc_max_entry(cache));
        c->keeping = true;
        return 0;
    }
    size_t len = 0;
    const uint8_t *p = rc_entry_bytes(e, &len);
    int rc = 0;
    /* in FLUSH_BYTES pieces, as a computed answer streams */
    for (size_t off = 0; rc == 0 && off < len; off += FLUSH_BYTES) {
        size_t n = len - off < FLUSH_BYTES ? len - off : FLUSH_BYTES;
        rl_buf_put(&c->out.buf, p + off, n);
        rc = maybe_flush(c);
    }
    rc_entry_release(e);
    if (rc < 0)
        return -1;
    c->ncomplete++; /* the kept bytes end with the answer's CommandComplete */
    srv_count(c->env->metrics, M_STATEMENTS, 1);
    return 1;
}

/* ---------------------------------------------------------------- sink */

static int sink_row_description(void *ctx, size_t ncols, const rl_col_info *cols)
{
    client *c = ctx;
    if (c->executing) /* Execute never sends RowDescription; Describe does */
        return 0;
    if (ncols > INT16_MAX) { /* the engine stops at 1664; the count is 16 bits */
        c->sink_failed = true;
        rl_error_set(&c->sink_err, RL_SQLSTATE_TOO_MANY_COLUMNS, "too many result columns");
        return -1;
    }
    pktbuf *b = &c->out;
    size_t start = pktbuf_len(b);
    pktbuf_begin(b, 'T');
    pktbuf_put_int16(b, (int16_t)ncols);
    for (size_t i = 0; i < ncols; i++) {
        pktbuf_put_string(b, cols[i].name);
        pktbuf_put_int32(b, (int32_t)cols[i].table_oid);
        pktbuf_put_int16(b, cols[i].attnum);
        pktbuf_put_int32(b, (int32_t)cols[i].type_oid);
        pktbuf_put_int16(b, cols[i].typlen);
        pktbuf_put_int32(b, cols[i].typmod);
        pktbuf_put_int16(b, rl_session_simple_format(c->sess)); /* BINARY cursor's FETCH */
    }
    pktbuf_end(b);
    keep_message(c, start);
    return maybe_flush(c);
}

static int sink_data_row(void *ctx, size_t ncols, const rl_value *vals)
{
    client *c = ctx;
    pktbuf *b = &c->out;
    size_t row_start = pktbuf_len(b);
    pktbuf_begin(b, 'D');
    pktbuf_put_int16(b, (int16_t)ncols);
    for (size_t i = 0; i < ncols; i++) {
        if (vals[i].d.isnull) {
            pktbuf_put_int32(b, -1);
            continue;
        }
        size_t at = pktbuf_len_placeholder(b);
        int16_t fmt = c->executing ? rl_session_portal_format(c->sess, c->portal, i)
                                   : rl_session_simple_format(c->sess);
        if (fmt == 1) {
            if (!rl_value_to_binary(&b->buf, &vals[i])) {
                pktbuf_end(b);
                b->buf.len = row_start; /* drop this row only: earlier ones may be half sent */
                c->sink_failed = true;
                rl_error_set(&c->sink_err, RL_SQLSTATE_UNDEFINED_FUNCTION,
                             "no binary output function available for type with OID %u",
                             vals[i].oid);
                return -1;
            }
        } else {
            rl_session_value_text(c->sess, &b->buf, &vals[i]);
        }
        pktbuf_patch_len(b, at);
    }
    pktbuf_end(b);
    keep_message(c, row_start);
    return maybe_flush(c);
}

static int sink_command_complete(void *ctx, const char *tag)
{
    client *c = ctx;
    c->ncomplete++;
    srv_count(c->env->metrics, M_STATEMENTS, 1);
    size_t start = pktbuf_len(&c->out);
    pktbuf_write(&c->out, 'C', "s", tag);
    keep_message(c, start);
    keep_finish(c);
    return maybe_flush(c);
}

static int sink_empty_query(void *ctx)
{
    client *c = ctx;
    pktbuf_write(&c->out, 'I', "");
    return 0;
}

static int sink_notice(void *ctx, const rl_error *notice)
{
    client *c = ctx;
    keep_abandon(c);
    put_error(c, 'N', severity_of(notice->sqlstate, "NOTICE"), notice);
    return maybe_flush(c);
}

/* CopyOutResponse / CopyInResponse: overall format + per-column formats. */
static void put_copy_response(client *c, char type, int format, size_t ncols)
{
    pktbuf *b = &c->out;
    pktbuf_begin(b, type);
    pktbuf_put_u8(b, (uint8_t)format);
    pktbuf_put_int16(b, (int16_t)ncols);
    for (size_t i = 0; i < ncols; i++)
        pktbuf_put_int16(b, (int16_t)format);
    pktbuf_end(b);
}

static int sink_copy_out_begin(void *ctx, int format, size_t ncols)
{
    client *c = ctx;
    c->copy_format = format;
    c->copy_header_pending = format == 1;
    put_copy_response(c, 'H', format, ncols);
    return maybe_flush(c);
}

/* Length of the binary COPY tuple (or trailer) at p, 0 if incomplete. */
static size_t binary_tuple_len(const uint8_t *p, size_t n)
{
    if (n < 2)
        return 0;
    int16_t nf = (int16_t)(uint16_t)(p[0] << 8 | p[1]);
    size_t at = 2;
    for (int16_t i = 0; i < nf; i++) {
        if (n - at < 4)
            return 0;
        int32_t fl = (int32_t)rl_load_be32(p + at);
        at += 4;
        if (fl > 0) {
            if (n - at < (size_t)fl)
                return 0;
            at += (size_t)fl;
        }
    }
    return at;
}

/* Length of the binary COPY header at p (signature, flags, extension). */
static size_t binary_header_len(const uint8_t *p, size_t n)
{
    if (n < 19)
        return 0;
    size_t ext = rl_load_be32(p + 15);
    return n - 19 >= ext ? 19 + ext : 0;
}

/* Length of the next row-sized piece: one text line, or one binary tuple
 * (the first with the header in front, as PostgreSQL sends it). */
static size_t copy_piece_len(client *c, const uint8_t *p, size_t n)
{
    if (c->copy_format != 1) {
        const uint8_t *nl = memchr(p, '\n', n);
        return nl ? (size_t)(nl - p) + 1 : n;
    }
    size_t hdr = 0;
    if (c->copy_header_pending) {
        hdr = binary_header_len(p, n);
        if (!hdr)
            return n;
        c->copy_header_pending = false;
    }
    size_t t = binary_tuple_len(p + hdr, n - hdr);
    return t ? hdr + t : n;
}

/* One CopyData per row, as PostgreSQL sends them: some clients (psycopg)
 * parse each CopyData message as exactly one row. */
static int sink_copy_out_data(void *ctx, const uint8_t *data, size_t len)
{
    client *c = ctx;
    while (len > 0) {
        size_t piece = copy_piece_len(c, data, len);
        pktbuf_write(&c->out, 'd', "b", data, piece);
        if (maybe_flush(c) < 0)
            return -1;
        data += piece;
        len -= piece;
    }
    return 0;
}

static int sink_copy_out_end(void *ctx)
{
    client *c = ctx;
    pktbuf_write(&c->out, 'c', "");
    return maybe_flush(c);
}

static int sink_copy_in_begin(void *ctx, int format, size_t ncols)
{
    client *c = ctx;
    put_copy_response(c, 'G', format, ncols);
    return flush_out(c) ? 0 : -1; /* the client waits for it before sending data */
}

static void sink_init(client *c, rl_sink *s)
{
    memset(s, 0, sizeof *s);
    s->ctx = c;
    s->row_description = sink_row_description;
    s->data_row = sink_data_row;
    s->command_complete = sink_command_complete;
    s->empty_query = sink_empty_query;
    s->notice = sink_notice;
    s->copy_out_begin = sink_copy_out_begin;
    s->copy_out_data = sink_copy_out_data;
    s->copy_out_end = sink_copy_out_end;
    s->copy_in_begin = sink_copy_in_begin;
}

/* -------------------------------------------------------- statement errors */

/* The longest statement text a log line carries: enough for every statement
 * shape DuckDB sends up to its literals (a profile groups by it), short
 * enough that a log line stays one small write. */
#define LOGGED_STATEMENT_BYTES 4096

/* sql's first LOGGED_STATEMENT_BYTES bytes (cut on a character boundary)
 * into text (LOGGED_STATEMENT_BYTES + 1 bytes). */
static void statement_text(const char *sql, char *text)
{
    size_t n = sql ? strlen(sql) : 0;
    if (n > LOGGED_STATEMENT_BYTES) {
        n = LOGGED_STATEMENT_BYTES;
        while (n > 0 && ((unsigned char)sql[n] & 0xC0) == 0x80)
            n--;
    }
    memcpy(text, sql ? sql : "", n);
    text[n] = '\0';
}

/* Report a failed statement: the sink's own error wins (it caused the
 * abort), a fired statement timeout renames 57014, a fencing is logged. */
static void statement_text(const char *sql, char *text);

static void report_error(client *c, rl_error *err, const char *sql)
{
    if (c->sink_failed) {
        *err = c->sink_err;
        c->sink_failed = false;
    }
    if (srv_stmt_disarm(c->env->backends, &c->slot) && strcmp(err->sqlstate, RL_SQLSTATE_QUERY_CANCELED) == 0)
        snprintf(err->message, sizeof err->message, "canceling statement due to statement timeout");
    if (c->registered && srv_terminating(&c->slot) &&
        strcmp(err->sqlstate, RL_SQLSTATE_QUERY_CANCELED) == 0) {
        send_terminated(c); /* the statement stopped because its session ends */
        return;
    }
    srv_count(c->env->metrics, M_ERRORS, 1);
    if (strcmp(err->sqlstate, RL_SQLSTATE_UNIQUE_VIOLATION) == 0 ||
        strcmp(err->sqlstate, RL_SQLSTATE_SERIALIZATION_FAILURE) == 0)
        srv_count(c->env->metrics, M_CONFLICTS, 1);
    if (err->cause == RL_CAUSE_WRITER_FENCED)
        srv_lake_fenced(c->lake);
    char pid[16];
    snprintf(pid, sizeof pid, "%d", c->slot.pid);
    if (c->env->log->error_statement && sql) { /* PostgreSQL's STATEMENT: line */
        char text[LOGGED_STATEMENT_BYTES + 1];
        statement_text(sql, text);
        srv_log(c->env->log, "info", "statement_error", "pid", pid, "user", c->user, "database",
                c->database, "sqlstate", err->sqlstate, "message", err->message, "statement",
                text, NULL);
    } else {
        srv_log(c->env->log, "info", "statement_error", "pid", pid, "user", c->user, "database",
                c->database, "sqlstate", err->sqlstate, "message", err->message, NULL);
    }
    if (!c->broken)
        put_error(c, 'E', "ERROR", err);
}


/* Time a finished statement; log it when --log-min-duration-statement asks. */
static void observe_statement(client *c, const char *kind, const char *sql, uint64_t t0)
{
    double secs = (double)(rl_monotonic_ns() - t0) / 1e9;
    srv_observe_statement(c->env->metrics, secs);
    if (!srv_statement_is_slow(c->env->log, secs))
        return;
    char ms[32], pid[16], text[LOGGED_STATEMENT_BYTES + 1];
    snprintf(ms, sizeof ms, "%.3f", secs * 1000);
    snprintf(pid, sizeof pid, "%d", c->slot.pid);
    statement_text(sql, text);
    srv_log(c->env->log, "info", "statement", "pid", pid, "database", c->database, "kind", kind,
            "duration_ms", ms, "sql", text, NULL);
}

/* After a Query message or Sync: count the write transactions the session
 * committed meanwhile (the engine reports them: rl_session_commits), before
 * ReadyForQuery so that metrics read after the answer include them. Returns
 * the latency in seconds, or a negative number when nothing committed; *ci
 * is the engine's report (the latest commit's own snapshot id). */
static double count_commit(client *c, uint64_t t0, rl_commit_info *ci)
{
    rl_session_commits(c->sess, ci);
    uint64_t n = ci->commits - c->commits_seen;
    c->commits_seen = ci->commits;
    if (n == 0)
        return -1;
    double secs = (double)(rl_monotonic_ns() - t0) / 1e9;
    srv_count(c->env->metrics, M_COMMITS, (int64_t)n);
    srv_observe_commit(c->env->metrics, secs);
    return secs;
}

/* The commit's log line, written after ReadyForQuery is sent: a log write
 * is a syscall the client need not wait for. snapshot_id is the snapshot
 * the transaction's own commit wrote ("none" for a commit that wrote no
 * DuckLake snapshot), never another session's. */
static void log_commit(client *c, double secs, const rl_commit_info *ci)
{
    if (secs < 0)
        return;
    char snap[24], stmts[24], ms[32], pid[16];
    if (ci->has_snapshot)
        snprintf(snap, sizeof snap, "%llu", (unsigned long long)ci->snapshot_id);
    else
        snprintf(snap, sizeof snap, "none");
    snprintf(stmts, sizeof stmts, "%zu", c->ncomplete);
    snprintf(ms, sizeof ms, "%.3f", secs * 1000);
    snprintf(pid, sizeof pid, "%d", c->slot.pid);
    srv_log(c->env->log, "info", "commit", "pid", pid, "database", c->database, "snapshot_id", snap,
            "statements", stmts, "latency_ms", ms, NULL);
}

static void begin_message(client *c)
{
    c->ncomplete = 0;
    c->sink_failed = false;
}

/* ------------------------------------------------------------- COPY IN */

/* Feed CopyData until CopyDone / CopyFail. Returns the final exec status
 * (another COPY_IN when the rest of the query holds one), or -2 when the
 * connection is gone. After a data error the rest of the stream is read
 * and dropped, then the error is reported, as PostgreSQL does. */
/* COPY FROM STDIN's messages until CopyDone / CopyFail. A row that fails
 * ends the COPY at once, as PostgreSQL's: its ErrorResponse goes out now
 * (a client such as psql stops sending), and the CopyData / CopyDone that
 * still come are ignored at the top level. */
static int copy_in(client *c, const rl_sink *sink, rl_error *err)
{
    for (;;) {
        proto_msg m;
        int rc = read_message(c, false, WAIT_COPY, &m);
        if (rc <= 0)
            return -2;
        switch (m.type) {
        case 'd':
            if (rl_session_copy_data(c->sess, m.data, m.len, err) < 0) {
                rl_error ignore;
                rl_session_copy_fail(c->sess, err->message, NULL, &ignore);
                return RL_EXEC_ERROR;
            }
            break;
        case 'c':
            return rl_session_copy_done(c->sess, sink, err);
        case 'f': {
            const char *msg = "";
            rl_error perr;
            if (proto_parse_string_msg(&m, &msg, &perr) < 0)
                msg = "";
            return rl_session_copy_fail(c->sess, msg, sink, err);
        }
        case 'H':
        case 'S':
            break; /* PostgreSQL ignores Flush and Sync during COPY IN */
        default: {
            char what[96];
            snprintf(what, sizeof what, "unexpected message type 0x%02X during COPY from stdin",
                     (unsigned char)m.type);
            rl_error ignore;
            rl_session_copy_fail(c->sess, what, NULL, &ignore);
            rl_error_set(err, RL_SQLSTATE_PROTOCOL_VIOLATION, "%s", what);
            return RL_EXEC_ERROR;
        }
        }
    }
}

/* ------------------------------------------------------------ messages */

static void handle_query(client *c, const proto_msg *m)
{
    rl_error err;
    rl_error_clear(&err);
    const char *sql0;
    if (proto_parse_string_msg(m, &sql0, &err) < 0) {
        send_fatal_err(c, &err);
        c->broken = true;
        return;
    }
    /* the engine may keep reading the query after a COPY FROM STDIN, while
     * the input buffer moves: give it a stable copy */
    char *sql = strdup(sql0);
    if (!sql) {
        send_fatal(c, RL_SQLSTATE_OUT_OF_MEMORY, "out of memory");
        c->broken = true;
        return;
    }
    rl_sink sink;
    sink_init(c, &sink);
    if (c->env->results)
        sink.cached_result = sink_cached_result;
    begin_message(c);
    uint64_t t0 = rl_monotonic_ns();
    c->executing = false;
    srv_stmt_arm(c->env->backends, &c->slot, statement_timeout_ms(c), sql);
    int rc = rl_session_simple_query(c->sess, sql, &sink, &err);
    while (rc == RL_EXEC_COPY_IN)
        rc = copy_in(c, &sink, &err);
    keep_abandon(c); /* a statement that failed before its CommandComplete */
    observe_statement(c, "query", sql, t0);
    if (rc == -2) {
        free(sql);
        srv_stmt_disarm(c->env->backends, &c->slot);
        c->broken = true;
        return;
    }
    if (rc == RL_EXEC_ERROR)
        report_error(c, &err, sql);
    else
        srv_stmt_disarm(c->env->backends, &c->slot);
    free(sql);
    if (!c->broken && srv_terminating(&c->slot)) { /* pg_terminate_backend of itself */
        send_terminated(c);
        return;
    }
    rl_commit_info ci;
    double commit_secs = count_commit(c, t0, &ci);
    send_ready(c);
    log_commit(c, commit_secs, &ci);
}

static void ext_error(client *c, rl_error *err, const char *sql)
{
    report_error(c, err, sql);
    c->skip_till_sync = true;
}

static void handle_parse(client *c, const proto_msg *m)
{
    rl_error err;
    rl_error_clear(&err);
    proto_parse p;
    if (proto_parse_parse(m, &p, &err) < 0) {
        send_fatal_err(c, &err);
        c->broken = true;
        return;
    }
    uint32_t *oids = calloc(p.nparams + 1, sizeof *oids);
    if (!oids) {
        rl_error_set(&err, RL_SQLSTATE_OUT_OF_MEMORY, "out of memory");
        ext_error(c, &err, p.sql);
        return;
    }
    for (size_t i = 0; i < p.nparams; i++)
        oids[i] = proto_parse_param_oid(&p, i);
    if (rl_session_parse(c->sess, p.stmt, p.sql, p.nparams, oids, &err) < 0)
        ext_error(c, &err, p.sql);
    else
        pktbuf_write(&c->out, '1', "");
    free(oids);
}

static void handle_bind(client *c, const proto_msg *m)
{
    rl_error err;
    rl_error_clear(&err);
    proto_bind b;
    if (proto_parse_bind(m, &b, &err) < 0) {
        send_fatal_err(c, &err);
        c->broken = true;
        return;
    }
    if (rl_session_bind(c->sess, b.portal, b.stmt, b.nparams, b.formats, b.nformats,
                        b.values, b.lengths, b.nresult_formats, b.result_formats, &err) < 0)
        ext_error(c, &err, rl_session_statement_sql(c->sess, b.stmt));
    else
        pktbuf_write(&c->out, '2', "");
    proto_bind_free(&b);
}

static void put_param_description(client *c, const rl_describe *d)
{
    pktbuf_begin(&c->out, 't');
    pktbuf_put_int16(&c->out, (int16_t)d->nparams);
    for (size_t i = 0; i < d->nparams; i++)
        pktbuf_put_int32(&c->out, (int32_t)d->param_oids[i]);
    pktbuf_end(&c->out);
}

/* RowDescription of a Describe, or NoData. Portal columns carry the
 * formats chosen at Bind. */
static void put_row_description(client *c, const rl_describe *d, const char *portal)
{
    if (!d->has_rows) {
        pktbuf_write(&c->out, 'n', "");
        return;
    }
    pktbuf *b = &c->out;
    pktbuf_begin(b, 'T');
    pktbuf_put_int16(b, (int16_t)d->ncols);
    for (size_t i = 0; i < d->ncols; i++) {
        const rl_col_info *col = &d->cols[i];
        pktbuf_put_string(b, col->name);
        pktbuf_put_int32(b, (int32_t)col->table_oid);
        pktbuf_put_int16(b, col->attnum);
        pktbuf_put_int32(b, (int32_t)col->type_oid);
        pktbuf_put_int16(b, col->typlen);
        pktbuf_put_int32(b, col->typmod);
        pktbuf_put_int16(b, portal ? rl_session_portal_format(c->sess, portal, i) : 0);
    }
    pktbuf_end(b);
}

static void handle_describe(client *c, const proto_msg *m)
{
    rl_error err;
    rl_error_clear(&err);
    proto_target t;
    if (proto_parse_target(m, &t, &err) < 0) {
        send_fatal_err(c, &err);
        c->broken = true;
        return;
    }
    rl_describe d;
    memset(&d, 0, sizeof d);
    if (t.kind == 'S') {
        if (rl_session_describe_statement(c->sess, t.name, &d, &err) < 0) {
            ext_error(c, &err, rl_session_statement_sql(c->sess, t.name));
            return;
        }
        put_param_description(c, &d);
        put_row_description(c, &d, NULL);
    } else {
        if (rl_session_describe_portal(c->sess, t.name, &d, &err) < 0) {
            ext_error(c, &err, rl_session_portal_sql(c->sess, t.name));
            return;
        }
        put_row_description(c, &d, t.name);
    }
}

static void handle_execute(client *c, const proto_msg *m)
{
    rl_error err;
    rl_error_clear(&err);
    proto_execute e;
    if (proto_parse_execute(m, &e, &err) < 0) {
        send_fatal_err(c, &err);
        c->broken = true;
        return;
    }
    /* the portal name lives in the input buffer, which a COPY IN refills */
    char portal[NAME_MAX_LEN * 4];
    snprintf(portal, sizeof portal, "%s", e.portal);
    rl_sink sink;
    sink_init(c, &sink);
    c->executing = true;
    c->portal = portal;
    c->sink_failed = false;
    srv_stmt_arm(c->env->backends, &c->slot, statement_timeout_ms(c),
                 rl_session_portal_sql(c->sess, portal));
    uint64_t t0 = rl_monotonic_ns();
    int rc = rl_session_execute(c->sess, portal, (uint64_t)e.max_rows, &sink, &err);
    while (rc == RL_EXEC_COPY_IN)
        rc = copy_in(c, &sink, &err);
    observe_statement(c, "execute", rl_session_portal_sql(c->sess, portal), t0);
    c->executing = false;
    c->portal = NULL;
    if (rc == -2) {
        srv_stmt_disarm(c->env->backends, &c->slot);
        c->broken = true;
        return;
    }
    if (rc == RL_EXEC_ERROR) {
        ext_error(c, &err, rl_session_portal_sql(c->sess, portal));
        return;
    }
    srv_stmt_disarm(c->env->backends, &c->slot);
    if (rc == RL_EXEC_SUSPENDED)
        pktbuf_write(&c->out, 's', "");
}

static void handle_close(client *c, const proto_msg *m)
{
    rl_error err;
    proto_target t;
    if (proto_parse_target(m, &t, &err) < 0) {
        send_fatal_err(c, &err);
        c->broken = true;
        return;
    }
    rl_session_close(c->sess, t.kind, t.name); /* closing a missing name is not an error */
    pktbuf_write(&c->out, '3', "");
}

static void handle_sync(client *c, uint64_t t0)
{
    assert(t0 != 0); /* the round trip's start: serve_queries set it */
    rl_error err;
    rl_error_clear(&err);
    c->skip_till_sync = false;
    if (rl_session_sync(c->sess, &err) < 0)
        report_error(c, &err, NULL);
    rl_commit_info ci;
    double commit_secs = count_commit(c, t0, &ci);
    send_ready(c);
    log_commit(c, commit_secs, &ci);
}

/* ParameterStatus in_hot_standby of a session on `eng`: on while its lake
 * is served by a follower (PostgreSQL's hot standby), off on the writer.
 * libpq's target_session_attrs (read-write, primary, standby) reads it. */
static bool in_hot_standby(rl_engine *eng)
{
    return rl_catalog_read_only(rl_engine_catalog(eng));
}

/* Before a statement: when the session's lake was replaced (its store
 * failed and the server reopened it, or a follower was promoted to its
 * writer) and the session is between
 * transactions, move it to the new lake, so that a client retrying its
 * statement succeeds on the same connection; settings, prepared statements
 * and temporary tables stay. Inside a transaction it stays on the failed
 * lake (58030) until the transaction ends: its snapshot was of that one. */
static void follow_reopened_lake(client *c)
{
    srv_lake *next;
    rl_engine *eng = srv_lake_successor(c->env->lakes, c->lake, &next);
    if (!eng)
        return;
    if (!rl_session_rebind(c->sess, eng)) {
        srv_lake_release(c->env->lakes, next);
        return;
    }
    bool was_standby = in_hot_standby(c->eng);
    srv_lake_release(c->env->lakes, c->lake);
    c->lake = next;
    c->eng = eng;
    /* a promoted follower: PostgreSQL reports the end of recovery to the
     * sessions of a promoted standby the same way */
    if (was_standby != in_hot_standby(eng))
        pktbuf_write(&c->out, 'S', "ss", "in_hot_standby", in_hot_standby(eng) ? "on" : "off");
}

/* The READY loop. Returns when the connection should close. */
static void serve_queries(client *c)
{
    /* inside an extended-protocol sequence (Parse .. Sync); its commit
     * latency, like its round-trip time, counts from c->trip_t0 */
    bool ext_started = false;
    while (!c->broken) {
        proto_msg m;
        if (read_message(c, false, WAIT_IDLE, &m) <= 0)
            return;
        if (m.type == 'X')
            return;
        if (!c->trip_t0)
            c->trip_t0 = rl_monotonic_ns();
        if (c->skip_till_sync && m.type != 'S')
            continue;
        if (strchr("QPBDE", m.type))
            follow_reopened_lake(c);
        bool ext = strchr("PBDECH", m.type) != NULL;
        if (ext && !ext_started) {
            begin_message(c);
            ext_started = true;
        }
        switch (m.type) {
        case 'Q': handle_query(c, &m); break;
        case 'P': handle_parse(c, &m); break;
        case 'B': handle_bind(c, &m); break;
        case 'D': handle_describe(c, &m); break;
        case 'E': handle_execute(c, &m); break;
        case 'C': handle_close(c, &m); break;
        case 'H': flush_out(c); break;
        case 'S':
            if (!ext_started)
                begin_message(c);
            handle_sync(c, c->trip_t0);
            ext_started = false;
            break;
        case 'd':
        case 'c':
        case 'f':
            break; /* stray COPY messages after an aborted COPY: ignored, as in PostgreSQL */
        case 'F': {
            rl_error err;
            rl_error_set(&err, RL_SQLSTATE_FEATURE_NOT_SUPPORTED,
                         "the fastpath function call protocol is not supported");
            report_error(c, &err, NULL);
            send_ready(c);
            break;
        }
        default:
            send_fatal(c, RL_SQLSTATE_PROTOCOL_VIOLATION, "unexpected message type \"%c\"", m.type);
            return;
        }
        if (pktbuf_len(&c->out) >= FLUSH_BYTES)
            flush_out(c);
    }
}

/* ------------------------------------------------------- startup + auth */

/* Blocking reads give up after `ms` (0: never). During startup a client
 * trickling bytes, or a partial TLS record, must not hold the thread past
 * the authentication deadline. */
static void set_recv_timeout(client *c, uint64_t ms)
{
    struct timeval tv = {.tv_sec = (time_t)(ms / 1000), .tv_usec = (suseconds_t)(ms % 1000) * 1000};
    setsockopt(c->stream.fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
}

/* Milliseconds left until the startup deadline (at least 1). */
static uint64_t startup_ms_left(const client *c)
{
    uint64_t now = rl_monotonic_ns();
    return now >= c->startup_deadline_ns ? 1 : (c->startup_deadline_ns - now) / 1000000u + 1;
}

/* After answering 'S' to an SSLRequest: the handshake, bounded by the
 * startup deadline (a silent client must not pin the thread). */
static bool start_tls(client *c)
{
    set_recv_timeout(c, startup_ms_left(c));
    rl_tls_start_rc rc = rl_stream_start_tls(&c->stream, c->env->tls);
    if (rc == RL_TLS_HANDSHAKE_FAILED)
        srv_log(c->env->log, "warning", "tls_handshake_failed", "client", c->addr, NULL);
    return rc == RL_TLS_STARTED;
}

/* A startup name, truncated as PostgreSQL truncates identifiers: never in
 * the middle of a UTF-8 character. */
static void copy_name(char *dst, const char *src)
{
    src = src ? src : "";
    size_t n = strnlen(src, NAME_MAX_LEN);
    if (n == NAME_MAX_LEN) {
        n = NAME_MAX_LEN - 1;
        while (n > 0 && ((unsigned char)src[n] & 0xC0) == 0x80)
            n--;
    }
    memcpy(dst, src, n);
    dst[n] = '\0';
}

/* PostgreSQL 15's pg_clean_ascii for application_name: it ends up in logs
 * and the commit audit, so every byte outside printable ASCII becomes '?'. */
static void clean_ascii(char *s)
{
    for (; *s; s++)
        if ((unsigned char)*s < 32 || (unsigned char)*s > 126)
            *s = '?';
}

/* The startup parameters that are settings (all but the connection's own:
 * user, database, options, replication, application_name, and protocol
 * options "_pq_.*"), kept for open_session to apply. A list that does not
 * fit is cut at a whole parameter. */
static void keep_startup_gucs(client *c, const proto_startup *st)
{
    static const char *const own[] = {"user", "database", "options", "replication",
                                      "application_name"};
    c->gucs_len = 0;
    for (size_t i = 0; i < st->nparams; i++) {
        const char *name = st->names[i], *value = st->values[i];
        bool skip = strncmp(name, "_pq_.", 5) == 0;
        for (size_t k = 0; k < sizeof own / sizeof own[0]; k++)
            skip |= strcmp(name, own[k]) == 0;
        size_t need = strlen(name) + strlen(value) + 2;
        if (skip || need > sizeof c->gucs - c->gucs_len)
            continue;
        memcpy(c->gucs + c->gucs_len, name, strlen(name) + 1);
        memcpy(c->gucs + c->gucs_len + strlen(name) + 1, value, strlen(value) + 1);
        c->gucs_len += need;
    }
}

/* Read the startup packet(s). Returns 1 with user/database set, 0 to close. */
static int read_startup(client *c, proto_startup *st)
{
    bool ssl_done = false, gss_done = false;
    for (;;) {
        proto_msg m;
        rl_error err;
        if (read_message(c, true, WAIT_STARTUP, &m) <= 0)
            return 0;
        if (proto_parse_startup(&m, st, &err) < 0) {
            srv_count(c->env->metrics, M_PROTOCOL_ERRORS, 1);
            send_fatal_err(c, &err);
            return 0;
        }
        switch (st->kind) {
        case PROTO_CANCEL_REQUEST:
            srv_cancel(c->env->backends, st->cancel_pid, st->cancel_secret);
            return 0;
        case PROTO_SSL_REQUEST: {
            char answer = rl_tls_request_answer(&c->stream, c->env->tls, ssl_done);
            bool tls = answer == 'S';
            ssl_done = true;
            pktbuf_put_raw_byte(&c->out, answer);
            if (!flush_out(c))
                return 0;
            /* bytes sent before the handshake would be a plaintext injection */
            if (tls && (c->in_len != c->in_off || !start_tls(c)))
                return 0;
            continue;
        }
        case PROTO_GSSENC_REQUEST:
            if (gss_done)
                return 0;
            gss_done = true;
            pktbuf_put_raw_byte(&c->out, 'N');
            if (!flush_out(c))
                return 0;
            continue;
        case PROTO_STARTUP:
            break;
        }
        const char *user = proto_startup_param(st, "user");
        if (!user || !user[0]) {
            send_fatal(c, RL_SQLSTATE_INVALID_AUTHORIZATION_SPECIFICATION, "no PostgreSQL user name specified in startup packet");
            return 0;
        }
        const char *db = proto_startup_param(st, "database");
        if (rl_utf8_check(&err, (const uint8_t *)user, strlen(user)) < 0 ||
            (db && rl_utf8_check(&err, (const uint8_t *)db, strlen(db)) < 0)) {
            send_fatal_err(c, &err);
            return 0;
        }
        copy_name(c->user, user);
        copy_name(c->database, db && db[0] ? db : user);
        copy_name(c->appname, proto_startup_param(st, "application_name"));
        clean_ascii(c->appname);
        /* later reads move the input buffer that `st` points into */
        const char *options = proto_startup_param(st, "options");
        snprintf(c->options, sizeof c->options, "%s", options ? options : "");
        keep_startup_gucs(c, st);
        return 1;
    }
}

/* rl_auth_io for this connection: the exchange reads and writes through
 * the connection's buffers, bounded by the startup deadline. */
static void auth_io_put(void *ctx, int32_t code, const void *data, size_t len)
{
    client *c = ctx;
    pktbuf_write(&c->out, 'R', "ib", code, data, len);
}

static bool auth_io_flush(void *ctx) { return flush_out(ctx); }

static int auth_io_read(void *ctx, proto_msg *m)
{
    return read_message(ctx, false, WAIT_STARTUP, m);
}

static void auth_io_fatal(void *ctx, const rl_error *e) { send_fatal_err(ctx, e); }

static void auth_io_refused(void *ctx, const char *event)
{
    client *c = ctx;
    srv_count(c->env->metrics, M_AUTH_FAILURES, 1);
    srv_log(c->env->log, "warning", event, "client", c->addr, "user", c->user, "database",
            c->database, NULL);
}

static bool authenticate(client *c)
{
    const rl_auth_peer peer = {.sa = (const struct sockaddr *)&c->sa, .addr = c->addr,
                               .user = c->user, .database = c->database,
                               .tls = rl_stream_is_tls(&c->stream)};
    const rl_auth_io io = {.ctx = c, .put_auth = auth_io_put, .flush = auth_io_flush,
                           .read = auth_io_read, .fatal = auth_io_fatal,
                           .refused = auth_io_refused};
    return rl_auth_run(&c->env->auth, &peer, &io);
}

/* SET name TO 'value' on the new session; false after its FATAL. */
static bool apply_setting(client *c, const char *name, const char *value)
{
    char sql[2400];
    rl_buf q;
    rl_buf_init(&q, 0);
    for (const char *v = value; *v; v++) { /* quote the value */
        if (*v == '\'')
            rl_buf_put_u8(&q, '\'');
        rl_buf_put_u8(&q, (uint8_t)*v);
    }
    rl_buf_put_u8(&q, 0);
    int len = snprintf(sql, sizeof sql, "SET \"%s\" TO '%s'", name,
                       q.failed ? "" : (const char *)q.data);
    rl_buf_free(&q);
    rl_error err;
    rl_error_clear(&err);
    if (len < 0 || (size_t)len >= sizeof sql || strchr(name, '"')) {
        send_fatal(c, RL_SQLSTATE_INVALID_PARAMETER_VALUE,
                   "invalid value for parameter \"%s\": \"%s\"", name, value);
        return false;
    }
    rl_sink none = {0};
    if (rl_session_simple_query(c->sess, sql, &none, &err) == RL_EXEC_ERROR) {
        send_fatal_err(c, &err);
        return false;
    }
    return true;
}

/* "-c name=value" / "--name=value" pairs of the startup `options`, applied
 * as SET. Returns false after a FATAL. */
static bool apply_options(client *c, const char *options)
{
    char buf[1024];
    snprintf(buf, sizeof buf, "%s", options);
    char *save = NULL;
    for (char *t = strtok_r(buf, " \t", &save); t; t = strtok_r(NULL, " \t", &save)) {
        if (strcmp(t, "-c") == 0) {
            t = strtok_r(NULL, " \t", &save);
            if (!t)
                break;
        } else if (strncmp(t, "--", 2) == 0) {
            t += 2;
        } else if (strncmp(t, "-c", 2) == 0) {
            t += 2;
        } else {
            send_fatal(c, RL_SQLSTATE_SYNTAX_ERROR, "invalid command-line argument for server process: %s", t);
            return false;
        }
        char *eq = strchr(t, '=');
        if (!eq) {
            send_fatal(c, RL_SQLSTATE_SYNTAX_ERROR, "-c %s requires a value", t);
            return false;
        }
        *eq = '\0';
        if (!apply_setting(c, t, eq + 1))
            return false;
    }
    return true;
}

/* The startup packet's settings, after `options` (so they win, as in
 * PostgreSQL). One RockLake does not know, or one a session may not SET
 * (lc_messages, a superuser's; the server's), is passed over, as before
 * (clients send PostgreSQL settings RockLake has no use for); a value the
 * SET refuses is its FATAL, as PostgreSQL's 22023 for a bad one. */
static bool apply_startup_gucs(client *c)
{
    char buf[256];
    for (size_t off = 0; off < c->gucs_len;) {
        const char *name = c->gucs + off, *value = name + strlen(name) + 1;
        off += strlen(name) + strlen(value) + 2;
        if (rl_session_setting(c->sess, name, buf, sizeof buf) &&
            rl_session_setting_user_settable(c->sess, name) && !apply_setting(c, name, value))
            return false;
    }
    return true;
}

/* The reported settings a session can change (PostgreSQL's GUC_REPORT
 * ones), sent at the start and again before ReadyForQuery when changed. */
static const char *const reported_settings[] = {"application_name", "DateStyle",
                                                "default_transaction_read_only", "TimeZone"};

/* A reported setting's value as the client is told it: the session's,
 * but default_transaction_read_only is on at a writer a newer one fenced
 * (it takes no commit), so that libpq's target_session_attrs=read-write
 * passes it by for the new writer. */
static const char *reported_value(client *c, const char *name, char *buf, size_t n)
{
    if (strcmp(name, "default_transaction_read_only") == 0 && srv_lake_is_fenced(c->lake))
        return "on";
    return rl_session_setting(c->sess, name, buf, n);
}

/* ParameterStatus of each reported setting whose value differs from the
 * one the client has. */
static void report_settings(client *c, bool all)
{
    if (!c->sess)
        return;
    for (size_t i = 0; i < sizeof reported_settings / sizeof reported_settings[0]; i++) {
        char buf[256];
        const char *v = reported_value(c, reported_settings[i], buf, sizeof buf);
        if (!v || (!all && strcmp(v, c->reported[i]) == 0))
            continue;
        snprintf(c->reported[i], sizeof c->reported[i], "%s", v);
        pktbuf_write(&c->out, 'S', "ss", reported_settings[i], c->reported[i]);
    }
}

/* The start's ParameterStatus, in PostgreSQL's order; the settings a
 * session changes (the startup packet's TimeZone, ...) as it has them. */
static void send_parameter_status(client *c)
{
    const char *const params[][2] = {
        {"application_name", NULL},
        {"client_encoding", "UTF8"},
        {"DateStyle", NULL},
        {"default_transaction_read_only", NULL},
        /* a follower is the closest thing to a hot standby */
        {"in_hot_standby", in_hot_standby(c->eng) ? "on" : "off"},
        {"integer_datetimes", "on"},
        {"IntervalStyle", "postgres"},
        {"is_superuser", "off"},
        {"server_encoding", "UTF8"},
        {"server_version", c->env->server_version},
        {"session_authorization", c->user},
        {"standard_conforming_strings", "on"},
        {"TimeZone", NULL},
    };
    for (size_t i = 0; i < sizeof params / sizeof params[0]; i++) {
        const char *v = params[i][1];
        for (size_t k = 0; !v && k < sizeof reported_settings / sizeof reported_settings[0]; k++) {
            if (strcmp(params[i][0], reported_settings[k]) != 0)
                continue;
            char buf[256];
            v = reported_value(c, reported_settings[k], buf, sizeof buf);
            snprintf(c->reported[k], sizeof c->reported[k], "%s", v ? v : "");
            v = c->reported[k];
        }
        pktbuf_write(&c->out, 'S', "ss", params[i][0], v ? v : "");
    }
}

/* What the session may do (the access= of the hba rule that admitted it)
 * and the login roles pg_roles shows it (the users file's, each with its
 * access to this database). info->roles is malloc'd (the caller frees it
 * once the session has copied it); false: out of memory. */
static bool session_roles(client *c, rl_session_info *info)
{
    const rl_auth_config *a = &c->env->auth;
    const hba_rule *r = hba_match_rule(a->rules, (const struct sockaddr *)&c->sa, c->database,
                                       c->user, rl_stream_is_tls(&c->stream));
    info->read_only_role = r && r->read_only;
    size_t n = a->users ? a->users->n : 0;
    if (!n)
        return true;
    rl_role *roles = calloc(n, sizeof *roles);
    if (!roles)
        return false;
    for (size_t i = 0; i < n; i++) {
        roles[i].name = a->users->users[i].name;
        roles[i].read_only = hba_read_only_for(a->rules, c->database, roles[i].name);
    }
    info->roles = roles;
    info->nroles = n;
    return true;
}

/* pg_promote() of a session: the server's promotion (lakes.c). */
static int promote_server(void *ctx, rl_error *err)
{
    client *c = ctx;
    char why[256];
    snprintf(why, sizeof why, "pg_promote() by user %s from %s", c->user, c->addr);
    return srv_lakes_promote(c->env->lakes, why, err);
}

/* Who the session is, as pg_stat_activity shows it (set before the slot
 * is registered, so without the registry's lock). */
static void activity_identity(client *c, bool superuser)
{
    rl_backend_activity *a = &c->slot.act;
    snprintf(a->datname, sizeof a->datname, "%s", c->database);
    snprintf(a->usename, sizeof a->usename, "%s", c->user);
    snprintf(a->application_name, sizeof a->application_name, "%s", c->appname);
    a->superuser = superuser;
    a->client_addr[0] = '\0';
    a->client_port = -1;
    if (c->sa.ss_family == AF_INET) {
        snprintf(a->client_addr, sizeof a->client_addr, "%s", c->addr);
        a->client_port = ntohs(((struct sockaddr_in *)&c->sa)->sin_port);
    } else if (c->sa.ss_family == AF_INET6) {
        snprintf(a->client_addr, sizeof a->client_addr, "%s", c->addr);
        a->client_port = ntohs(((struct sockaddr_in6 *)&c->sa)->sin6_port);
    }
}

/* Open the session and say hello. False after a FATAL. */
static bool open_session(client *c)
{
    rl_error err;
    rl_error_clear(&err);
    rl_session_info info = {.user = c->user, .application_name = c->appname,
                            .client_addr = c->addr, .promote = promote_server,
                            .promote_ctx = c, .port = c->env->port,
                            .max_connections = c->env->max_connections,
                            .server_version = c->env->server_version,
                            .activity = &c->env->backends->source};
    if (!session_roles(c, &info)) {
        send_fatal(c, RL_SQLSTATE_OUT_OF_MEMORY, "out of memory");
        return false;
    }
    if (info.read_only_role && srv_lake_exists_for_reader(c->env->lakes, c->database, &err) < 0) {
        free((void *)info.roles);
        send_fatal_err(c, &err);
        return false;
    }
    rl_engine *eng = srv_lake_engine(c->env->lakes, c->database, &c->lake, &err);
    if (!eng) {
        free((void *)info.roles);
        send_fatal_err(c, &err);
        return false;
    }
    c->sess = rl_session_new(eng, &info);
    free((void *)info.roles);
    if (!c->sess) {
        send_fatal(c, RL_SQLSTATE_OUT_OF_MEMORY, "out of memory");
        return false;
    }
    c->eng = eng;
    activity_identity(c, !info.read_only_role);
    if (srv_register(c->env->backends, &c->slot, c->sess) < 0) {
        send_fatal(c, RL_SQLSTATE_TOO_MANY_CONNECTIONS, "sorry, too many clients already");
        return false;
    }
    c->registered = true;
    rl_session_set_backend_pid(c->sess, c->slot.pid);
    if (c->options[0] && !apply_options(c, c->options))
        return false;
    if (!apply_startup_gucs(c))
        return false;
    rl_session_settings_from_client(c->sess);
    send_parameter_status(c);
    pktbuf_write(&c->out, 'K', "ii", c->slot.pid, c->slot.secret);
    return true;
}

static void format_addr(client *c)
{
    char host[INET6_ADDRSTRLEN] = "?";
    if (c->sa.ss_family == AF_INET)
        inet_ntop(AF_INET, &((struct sockaddr_in *)&c->sa)->sin_addr, host, sizeof host);
    else if (c->sa.ss_family == AF_INET6)
        inet_ntop(AF_INET6, &((struct sockaddr_in6 *)&c->sa)->sin6_addr, host, sizeof host);
    snprintf(c->addr, sizeof c->addr, "%s", host);
}

static void client_free(client *c)
{
    if (c->registered)
        srv_unregister(c->env->backends, &c->slot);
    if (c->sess)
        rl_session_free(c->sess); /* rolls back an open transaction */
    srv_lake_release(c->env->lakes, c->lake); /* after the session: it used the lake's engine */
    rl_stream_close(&c->stream, c->broken);
    pktbuf_free(&c->out);
    keep_abandon(c);
    free(c->in);
    free(c);
}

void client_serve(const client_env *env, int fd, const struct sockaddr_storage *sa,
                  socklen_t salen)
{
    client *c = calloc(1, sizeof *c);
    if (!c) {
        close(fd);
        return;
    }
    c->env = env;
    rl_stream_init(&c->stream, fd);
    memcpy(&c->sa, sa, salen < sizeof c->sa ? salen : sizeof c->sa);
    c->max_msg = env->max_message_bytes ? env->max_message_bytes : PROTO_DEFAULT_MAX_MESSAGE;
    pktbuf_init(&c->out, 0);
    format_addr(c);
    int one = 1;
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    /* a write to a client that does not read wakes every slice (write_pending) */
    struct timeval snd = {.tv_sec = 0, .tv_usec = POLL_SLICE_MS * 1000};
    setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &snd, sizeof snd);
    uint64_t auth_ms = env->authentication_timeout_ms ? env->authentication_timeout_ms
                                                      : DEFAULT_AUTH_TIMEOUT_MS;
    c->startup_deadline_ns = rl_monotonic_ns() + auth_ms * 1000000u;
    set_recv_timeout(c, auth_ms);
    proto_startup st;
    bool authed = read_startup(c, &st) && authenticate(c);
    set_recv_timeout(c, 0); /* sessions wait in poll(), for the drain and idle timeouts */
    if (authed) {
        if (open_session(c)) {
            srv_log(env->log, "info", "connection_authorized", "client", c->addr, "user", c->user,
                    "database", c->database, "application_name", c->appname, "tls",
                    rl_stream_is_tls(&c->stream) ? "on" : "off", NULL);
            send_ready(c);
            serve_queries(c);
            srv_log(env->log, "info", "disconnection", "client", c->addr, "user", c->user, NULL);
        }
    }
    flush_out(c);
    client_free(c);
}
