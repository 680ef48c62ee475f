/*
 * buf.c — growable byte buffer with sticky failure, and a bounds-checked
 * reader. See buf.h. Invariant: when `failed` is set, `data[0..len)` is still
 * valid memory but no longer a meaningful result.
 * Asserted: len <= cap (and data non-NULL once cap > 0) after every
 * growth, len <= limit; a reader's position never passes its end.
 */
#include "base/buf.h"

#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

void rl_buf_init(rl_buf *b, size_t limit)
{
    memset(b, 0, sizeof *b);
    b->limit = limit ? limit : SIZE_MAX / 2;
}

void rl_buf_free(rl_buf *b)
{
    free(b->data);
    b->data = NULL;
    b->len = b->cap = 0;
}

void rl_buf_reset(rl_buf *b)
{
    b->len = 0;
    b->failed = false;
}

uint64_t rl_hash_bytes(uint64_t h, const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 1099511628211ULL;
    return h;
}

void *rl_array_reserve(void *p, size_t n, size_t *cap, size_t elem, size_t first)
{
    if (n < *cap)
        return p;
    size_t ncap = *cap ? *cap * 2 : first;
    if (ncap <= n || ncap > SIZE_MAX / 2 / (elem ? elem : 1))
        return NULL;
    void *np = realloc(p, ncap * elem);
    if (np)
        *cap = ncap;
    return np;
}

bool rl_buf_reserve(rl_buf *b, size_t extra)
{
    if (b->failed)
        return false;
    if (extra > b->limit - b->len || b->len + extra > b->limit) {
        b->failed = true;
        return false;
    }
    assert(b->len <= b->cap && b->len <= b->limit);
    size_t need = b->len + extra;
    if (need <= b->cap)
        return true;
    size_t cap = b->cap ? b->cap : 64;
    while (cap < need)
        cap = cap > SIZE_MAX / 4 ? need : cap * 2;
    uint8_t *p = realloc(b->data, cap);
    if (!p) {
        b->failed = true;
        return false;
    }
    b->data = p;
    b->cap = cap;
    assert(need <= b->cap);
    return true;
}

void rl_buf_put(rl_buf *b, const void *p, size_t n)
{
    if (n == 0 || !rl_buf_reserve(b, n))
        return;
    assert(b->data && b->len + n <= b->cap);
    memcpy(b->data + b->len, p, n);
    b->len += n;
}

void rl_buf_put_u8(rl_buf *b, uint8_t v) { rl_buf_put(b, &v, 1); }

/* Integers are most of the text DataRows and COPY carry; printf's format
 * parsing cost more than the digits. */
void rl_buf_put_i64(rl_buf *b, int64_t v)
{
    char tmp[24];
    char *p = tmp + sizeof tmp;
    uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
    do {
        *--p = (char)('0' + u % 10);
        u /= 10;
    } while (u);
    if (v < 0)
        *--p = '-';
    rl_buf_put(b, p, (size_t)(tmp + sizeof tmp - p));
}

void rl_buf_put_be16(rl_buf *b, uint16_t v)
{
    uint8_t t[2] = {(uint8_t)(v >> 8), (uint8_t)v};
    rl_buf_put(b, t, 2);
}

void rl_buf_put_be32(rl_buf *b, uint32_t v)
{
    uint8_t t[4] = {(uint8_t)(v >> 24), (uint8_t)(v >> 16), (uint8_t)(v >> 8), (uint8_t)v};
    rl_buf_put(b, t, 4);
}

void rl_buf_put_be64(rl_buf *b, uint64_t v)
{
    uint8_t t[8];
    rl_store_be64(t, v);
    rl_buf_put(b, t, 8);
}

void rl_buf_put_uvarint(rl_buf *b, uint64_t v)
{
    uint8_t t[10];
    size_t n = 0;
    while (v >= 0x80) {
        t[n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    t[n++] = (uint8_t)v;
    rl_buf_put(b, t, n);
}

void rl_buf_put_svarint(rl_buf *b, int64_t v)
{
    rl_buf_put_uvarint(b, ((uint64_t)v << 1) ^ (uint64_t)(v >> 63));
}

void rl_buf_put_str(rl_buf *b, const char *s) { rl_buf_put(b, s, strlen(s)); }

void rl_buf_printf(rl_buf *b, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int n = vsnprintf(NULL, 0, fmt, ap);
    va_end(ap);
    if (n < 0) {
        b->failed = true;
        return;
    }
    if (!rl_buf_reserve(b, (size_t)n + 1))
        return;
    va_start(ap, fmt);
    vsnprintf((char *)b->data + b->len, (size_t)n + 1, fmt, ap);
    va_end(ap);
    b->len += (size_t)n;
}

uint8_t *rl_buf_steal(rl_buf *b, size_t *len)
{
    if (b->failed) {
        rl_buf_free(b);
        return NULL;
    }
    uint8_t *p = b->data;
    if (!p)
        p = malloc(1); /* an empty result is still a valid allocation */
    if (len)
        *len = b->len;
    b->data = NULL;
    b->len = b->cap = 0;
    return p;
}

bool rl_reader_bytes(rl_reader *r, size_t n, const uint8_t **out)
{
    if (r->failed || n > rl_reader_left(r)) {
        r->failed = true;
        return false;
    }
    *out = r->p;
    r->p += n;
    assert(r->p <= r->end);
    return true;
}

bool rl_reader_u8(rl_reader *r, uint8_t *out)
{
    const uint8_t *p;
    if (!rl_reader_bytes(r, 1, &p))
        return false;
    *out = *p;
    return true;
}

bool rl_reader_be32(rl_reader *r, uint32_t *out)
{
    const uint8_t *p;
    if (!rl_reader_bytes(r, 4, &p))
        return false;
    *out = rl_load_be32(p);
    return true;
}

bool rl_reader_be64(rl_reader *r, uint64_t *out)
{
    const uint8_t *p;
    if (!rl_reader_bytes(r, 8, &p))
        return false;
    *out = rl_load_be64(p);
    return true;
}

bool rl_reader_uvarint(rl_reader *r, uint64_t *out)
{
    uint64_t v = 0;
    for (int shift = 0; shift < 64; shift += 7) {
        uint8_t byte;
        if (!rl_reader_u8(r, &byte))
            return false;
        /* the 10th byte may carry only the top bit of a u64 */
        if (shift == 63 && byte > 1) {
            r->failed = true;
            return false;
        }
        v |= (uint64_t)(byte & 0x7f) << shift;
        if (!(byte & 0x80)) {
            *out = v;
            return true;
        }
    }
    r->failed = true;
    return false;
}

bool rl_reader_svarint(rl_reader *r, int64_t *out)
{
    uint64_t u;
    if (!rl_reader_uvarint(r, &u))
        return false;
    *out = (int64_t)((u >> 1) ^ (~(u & 1) + 1));
    return true;
}

size_t rl_bytes_prefix_end(const uint8_t *prefix, size_t plen, uint8_t *out)
{
    while (plen > 0 && prefix[plen - 1] == 0xFF)
        plen--;
    if (plen == 0)
        return 0;
    memcpy(out, prefix, plen);
    out[plen - 1]++;
    return plen;
}

uint64_t rl_monotonic_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000000u + (uint64_t)ts.tv_nsec;
}
