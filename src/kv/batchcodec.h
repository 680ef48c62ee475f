/*
 * batchcodec.h — the byte form of a kv_batch in a journal record.
 *
 * Owns: encoding a batch's operations, in order, into a journal payload and
 * decoding one back. Layout, per operation: u8 kind (1 put, 0 delete),
 * uvarint key length, key, and for a put uvarint value length, value. An
 * empty payload is an empty batch.
 *
 * Invariants: encoding is canonical (minimal uvarints), so encode(decode(p))
 * == p for every payload encode produced; decode never reads outside
 * [p, p + n) and rejects a trailing partial operation, an unknown kind or an
 * over-long length with NULL.
 *
 * Ownership: rl_batch_decode returns a batch freed by kv_batch_free.
 */
#ifndef ROCKLAKE_BATCHCODEC_H
#define ROCKLAKE_BATCHCODEC_H

#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "kv/kv.h"

/* Append b's operations to out. 0, or -1 when out ran out of memory. */
int rl_batch_encode(const kv_batch *b, rl_buf *out);

/* The batch encoded in p[0..n), or NULL when p is not one. */
kv_batch *rl_batch_decode(const uint8_t *p, size_t n);

#endif /* ROCKLAKE_BATCHCODEC_H */
