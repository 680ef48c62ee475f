/*
 * pktbuf.c — backend message builder (see pktbuf.h for the format string).
 *
 * Invariant: every message is type byte + Int32 length (counting itself) +
 * payload; the length is patched when the message ends, so incremental
 * writers never compute sizes up front.
 *
 * Asserted: one message is open at a time (begin never nests, end only
 * closes an open one); message fields are written only while one is open,
 * raw bytes only while none is; a patched length word lies inside the open
 * message. A build without assert() (NDEBUG) still fails the buffer on a
 * nested begin or a stray end, so nothing malformed is ever sent.
 */
#include "pgwire/pktbuf.h"

#include <assert.h>
#include <stdarg.h>
#include <string.h>

void pktbuf_init(pktbuf *b, size_t limit)
{
    rl_buf_init(&b->buf, limit);
    b->msg_start = 0;
    b->open = false;
}

void pktbuf_free(pktbuf *b)
{
    rl_buf_free(&b->buf);
    b->open = false;
}

void pktbuf_reset(pktbuf *b)
{
    rl_buf_reset(&b->buf);
    b->open = false;
}

void pktbuf_begin(pktbuf *b, char type)
{
    assert(!b->open && "pktbuf: a message is already open");
    if (b->open) { /* a builder bug: never nest messages */
        b->buf.failed = true;
        return;
    }
    b->msg_start = b->buf.len;
    b->open = true;
    rl_buf_put_u8(&b->buf, (uint8_t)type);
    rl_buf_put_be32(&b->buf, 0);
}

void pktbuf_end(pktbuf *b)
{
    assert(b->open && "pktbuf: no message is open");
    if (!b->open) {
        b->buf.failed = true;
        return;
    }
    b->open = false;
    if (b->buf.failed)
        return;
    assert(b->msg_start + 5 <= b->buf.len); /* type byte + length word */
    size_t len = b->buf.len - b->msg_start - 1;
    if (len > INT32_MAX) {
        b->buf.failed = true;
        return;
    }
    uint8_t *p = b->buf.data + b->msg_start + 1;
    p[0] = (uint8_t)(len >> 24);
    p[1] = (uint8_t)(len >> 16);
    p[2] = (uint8_t)(len >> 8);
    p[3] = (uint8_t)len;
}

void pktbuf_put_u8(pktbuf *b, uint8_t v)
{
    assert(b->open);
    rl_buf_put_u8(&b->buf, v);
}

void pktbuf_put_int16(pktbuf *b, int16_t v)
{
    assert(b->open);
    rl_buf_put_be16(&b->buf, (uint16_t)v);
}

void pktbuf_put_int32(pktbuf *b, int32_t v)
{
    assert(b->open);
    rl_buf_put_be32(&b->buf, (uint32_t)v);
}

void pktbuf_put_bytes(pktbuf *b, const void *p, size_t n)
{
    assert(b->open);
    rl_buf_put(&b->buf, p, n);
}

void pktbuf_put_string(pktbuf *b, const char *s)
{
    assert(b->open);
    rl_buf_put(&b->buf, s, strlen(s) + 1);
}

size_t pktbuf_len_placeholder(pktbuf *b)
{
    assert(b->open);
    size_t at = b->buf.len;
    rl_buf_put_be32(&b->buf, 0);
    return at;
}

void pktbuf_patch_len(pktbuf *b, size_t at)
{
    if (b->buf.failed)
        return;
    /* the word lies inside the open message, after its own length word */
    assert(b->open && at >= b->msg_start + 5 && at + 4 <= b->buf.len);
    size_t n = b->buf.len - at - 4;
    if (n > INT32_MAX) {
        b->buf.failed = true;
        return;
    }
    uint8_t *p = b->buf.data + at;
    p[0] = (uint8_t)(n >> 24);
    p[1] = (uint8_t)(n >> 16);
    p[2] = (uint8_t)(n >> 8);
    p[3] = (uint8_t)n;
}

void pktbuf_put_raw_byte(pktbuf *b, char c)
{
    assert(!b->open); /* outside any message (the SSLRequest answer) */
    rl_buf_put_u8(&b->buf, (uint8_t)c);
}

/* One field of pktbuf_write; false on an unknown format character. */
static bool put_field(pktbuf *b, char f, va_list *ap)
{
    switch (f) {
    case 'c': pktbuf_put_u8(b, (uint8_t)va_arg(*ap, int)); return true;
    case 'h': pktbuf_put_int16(b, (int16_t)va_arg(*ap, int)); return true;
    case 'i': pktbuf_put_int32(b, (int32_t)va_arg(*ap, int32_t)); return true;
    case 's': pktbuf_put_string(b, va_arg(*ap, const char *)); return true;
    case 'b': {
        const void *p = va_arg(*ap, const void *);
        size_t n = va_arg(*ap, size_t);
        pktbuf_put_bytes(b, p, n);
        return true;
    }
    case 'B': {
        const void *p = va_arg(*ap, const void *);
        int32_t n = va_arg(*ap, int32_t);
        pktbuf_put_int32(b, n < 0 ? -1 : n);
        if (n > 0)
            pktbuf_put_bytes(b, p, (size_t)n);
        return true;
    }
    default: return false;
    }
}

void pktbuf_write(pktbuf *b, char type, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    pktbuf_begin(b, type);
    for (const char *f = fmt; *f; f++)
        if (!put_field(b, *f, &ap)) {
            b->buf.failed = true;
            break;
        }
    va_end(ap);
    pktbuf_end(b);
}
