/*
 * buf.h — growable byte buffer with a sticky failure flag.
 *
 * Owns: building byte strings (keys, values, protocol messages) without a
 * check after every append. Like pgbouncer's pktbuf, any failed append (out of
 * memory, or growth past `limit`) sets `failed`; later appends do nothing, so a
 * chain of writes needs one check at the end.
 *
 * Ownership: the buffer owns `data` (malloc'd). rl_buf_free() releases it;
 * rl_buf_steal() hands it to the caller (who then frees it with free()).
 */
#ifndef ROCKLAKE_BUF_H
#define ROCKLAKE_BUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef struct rl_buf {
    uint8_t *data;
    size_t len;
    size_t cap;
    size_t limit;  /* 0 = no limit beyond SIZE_MAX/2 */
    bool failed;
} rl_buf;

void rl_buf_init(rl_buf *b, size_t limit);
void rl_buf_free(rl_buf *b);
void rl_buf_reset(rl_buf *b);              /* len = 0, failed = false; keeps memory */
bool rl_buf_reserve(rl_buf *b, size_t extra);
void rl_buf_put(rl_buf *b, const void *p, size_t n);
void rl_buf_put_u8(rl_buf *b, uint8_t v);
void rl_buf_put_be16(rl_buf *b, uint16_t v);
void rl_buf_put_be32(rl_buf *b, uint32_t v);
void rl_buf_put_be64(rl_buf *b, uint64_t v);
void rl_buf_put_uvarint(rl_buf *b, uint64_t v);   /* LEB128 */
void rl_buf_put_svarint(rl_buf *b, int64_t v);    /* zigzag + LEB128 */
void rl_buf_put_str(rl_buf *b, const char *s);    /* bytes of s, no NUL */
void rl_buf_put_i64(rl_buf *b, int64_t v);        /* decimal text, as printf's %lld */
void rl_buf_printf(rl_buf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
uint8_t *rl_buf_steal(rl_buf *b, size_t *len);    /* NULL if failed */

/* Copy NUL-terminated src into dst of size n (n > 0), cut to n - 1 bytes
 * and always terminated: snprintf(dst, n, "%s", src) without the format
 * machinery, for the column and relation names copied per statement. */
static inline void rl_str_copy(char *dst, size_t n, const char *src)
{
    /* memchr, not strnlen: libpg_query exports a byte-at-a-time strnlen of
     * its own, which the dynamic linker binds ahead of libc's (perf showed
     * it in every statement that names columns) */
    const char *nul = src ? memchr(src, '\0', n - 1) : NULL;
    size_t len = !src ? 0 : nul ? (size_t)(nul - src) : n - 1;
    if (len)
        memcpy(dst, src, len);
    dst[len] = '\0';
}

/* FNV-1a over n bytes, continuing from h (start with RL_HASH_SEED): the one
 * byte hash of RockLake's in-memory hash tables and caches (never stored). */
#define RL_HASH_SEED 14695981039346656037ULL
uint64_t rl_hash_bytes(uint64_t h, const void *p, size_t n);

/* Room for element `n` of a malloc'd array `p` of `elem`-byte elements that
 * has room for *cap: when n == *cap it is reallocated to twice as many
 * (`first` when empty). Returns the array to use from now on (p itself if
 * there was room), or NULL when out of memory — p then stays valid and *cap
 * unchanged. The one doubling growth of RockLake's lists. */
void *rl_array_reserve(void *p, size_t n, size_t *cap, size_t elem, size_t first);

/* memcmp order of byte strings, a proper prefix first: the order of keys in
 * the store and in every in-memory index of them. */
static inline int rl_bytes_cmp(const uint8_t *a, size_t al, const uint8_t *b, size_t bl)
{
    size_t n = al < bl ? al : bl;
    int c = n ? memcmp(a, b, n) : 0;
    if (c)
        return c;
    return al < bl ? -1 : al > bl;
}

/* Smallest byte string greater than every string starting with prefix:
 * trailing 0xFF bytes dropped, then the last byte plus one. Writes it to
 * out (plen bytes at most) and returns its length; 0 when there is none
 * (prefix all 0xFF: the range runs to the end of the keyspace). */
size_t rl_bytes_prefix_end(const uint8_t *prefix, size_t plen, uint8_t *out);

/* Value of one hex digit (either case), or -1. */
static inline int rl_hex_value(int c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    c |= 0x20;
    return c >= 'a' && c <= 'f' ? c - 'a' + 10 : -1;
}

/* CLOCK_MONOTONIC in nanoseconds, for durations and timeouts. */
uint64_t rl_monotonic_ns(void);

/* Big-endian readers over raw memory (caller guarantees the bytes exist). */
static inline uint64_t rl_load_be64(const uint8_t *p)
{
    return ((uint64_t)p[0] << 56) | ((uint64_t)p[1] << 48) | ((uint64_t)p[2] << 40) |
           ((uint64_t)p[3] << 32) | ((uint64_t)p[4] << 24) | ((uint64_t)p[5] << 16) |
           ((uint64_t)p[6] << 8) | (uint64_t)p[7];
}
static inline uint32_t rl_load_be32(const uint8_t *p)
{
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}
static inline void rl_store_be32(uint8_t *p, uint32_t v)
{
    p[0] = (uint8_t)(v >> 24);
    p[1] = (uint8_t)(v >> 16);
    p[2] = (uint8_t)(v >> 8);
    p[3] = (uint8_t)v;
}
static inline void rl_store_be64(uint8_t *p, uint64_t v)
{
    for (int i = 7; i >= 0; i--) { p[i] = (uint8_t)v; v >>= 8; }
}

/* Bounds-checked reader: every get fails (returns false, sets `failed`)
 * instead of reading past `end`. */
typedef struct rl_reader {
    const uint8_t *p;
    const uint8_t *end;
    bool failed;
} rl_reader;

static inline void rl_reader_init(rl_reader *r, const uint8_t *p, size_t n)
{
    /* an empty input may come as NULL (an empty rl_buf): NULL + 0 is UB */
    r->p = p; r->end = p ? p + n : p; r->failed = false;
}
static inline size_t rl_reader_left(const rl_reader *r) { return (size_t)(r->end - r->p); }
bool rl_reader_u8(rl_reader *r, uint8_t *out);
bool rl_reader_be32(rl_reader *r, uint32_t *out);
bool rl_reader_be64(rl_reader *r, uint64_t *out);
bool rl_reader_bytes(rl_reader *r, size_t n, const uint8_t **out);
bool rl_reader_uvarint(rl_reader *r, uint64_t *out);
bool rl_reader_svarint(rl_reader *r, int64_t *out);

#endif
