/*
 * pktbuf.h — builder for backend protocol messages (PostgreSQL protocol 3.0).
 *
 * Owns: turning message layouts into bytes. In the spirit of pgbouncer's
 * pktbuf, a whole message is written with one call and a short format string
 * describing its fields:
 *
 *     pktbuf_write(b, 'S', "ss", "TimeZone", "Etc/UTC");       ParameterStatus
 *     pktbuf_write(b, 'K', "ii", pid, secret);                   BackendKeyData
 *
 * Format characters: 'c' Byte1 (int), 'h' Int16 (int), 'i' Int32 (int32_t/
 * uint32_t), 's' NUL-terminated string (const char *), 'b' raw bytes
 * (const void *, size_t), 'B' Int32 length + bytes (const void *, int32_t;
 * a negative length writes -1 = NULL and no bytes).
 *
 * Messages with a variable number of fields (RowDescription, DataRow) are
 * built incrementally: pktbuf_begin, pktbuf_put_*, pktbuf_end patches the
 * length word.
 *
 * Invariants: like rl_buf, any failure (out of memory, growing past the
 * limit, a malformed format string) sets the sticky `failed` flag, and every
 * later write is a no-op — one check before sending covers a whole batch of
 * messages. Only one message can be open at a time.
 */
#ifndef ROCKLAKE_PKTBUF_H
#define ROCKLAKE_PKTBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"

typedef struct pktbuf {
    rl_buf buf;
    size_t msg_start; /* offset of the open message's type byte */
    bool open;
} pktbuf;

void pktbuf_init(pktbuf *b, size_t limit);
void pktbuf_free(pktbuf *b);
/* Drop everything written (after it was sent); clears `failed`. */
void pktbuf_reset(pktbuf *b);
static inline bool pktbuf_failed(const pktbuf *b) { return b->buf.failed; }
static inline size_t pktbuf_len(const pktbuf *b) { return b->buf.len; }
static inline const uint8_t *pktbuf_data(const pktbuf *b) { return b->buf.data; }

/* One whole message, fields described by `fmt` (see above). */
void pktbuf_write(pktbuf *b, char type, const char *fmt, ...);

/* Incremental messages. */
void pktbuf_begin(pktbuf *b, char type);
void pktbuf_put_u8(pktbuf *b, uint8_t v);
void pktbuf_put_int16(pktbuf *b, int16_t v);
void pktbuf_put_int32(pktbuf *b, int32_t v);
void pktbuf_put_string(pktbuf *b, const char *s);
void pktbuf_put_bytes(pktbuf *b, const void *p, size_t n);
/* Int32 length placeholder; pktbuf_patch_len fills it with the bytes
 * written after it (for DataRow values produced straight into the buffer). */
size_t pktbuf_len_placeholder(pktbuf *b);
void pktbuf_patch_len(pktbuf *b, size_t at);
void pktbuf_end(pktbuf *b);

/* The one untyped backend byte: the answer to SSLRequest/GSSENCRequest. */
void pktbuf_put_raw_byte(pktbuf *b, char c);

#endif
