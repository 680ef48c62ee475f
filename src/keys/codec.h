/*
 * codec.h — RockLake's value codec: one catalog row's non-key columns as bytes.
 *
 * Owns: the SQL value model (rl_type, rl_datum, the type names) and the
 * framed row encoding that is stored as a SlateDB value. Knows nothing of
 * DuckLake tables (callers pass column types, from desc.h) nor of
 * PostgreSQL's text and binary forms of a value (pgtype.h).
 *
 * Encoding of a row value (docs/key-layout.md, "Values"):
 *   byte 0      tag of the table the row belongs to (a wrong tag is an error)
 *   uvarint     n = number of encoded columns
 *   ceil(n/8)   NULL bitmap, bit i (LSB first) set = column i is NULL
 *   then each non-NULL column in order, by type:
 *     int2/int4/int8, date, time, timestamp, timestamptz: zigzag varint
 *     float4: 4 bytes big-endian IEEE;  float8: 8 bytes big-endian IEEE
 *     bool: 1 byte (0/1);  uuid: 16 bytes
 *     timetz: zigzag varint micros, zigzag varint zone (seconds west of UTC)
 *     interval: zigzag varint months, days, micros
 *     varchar/text/bytea/numeric: uvarint length + bytes (numeric as its
 *       canonical PostgreSQL text, e.g. "-12.340")
 * Values written with fewer columns than the reader's shape (a column was
 * added later) decode with the caller-supplied defaults for the missing
 * trailing columns. More columns than the shape is an error (a newer writer).
 *
 * There is no magic or version byte: the value format belongs to the store
 * format (system key catalog-format-version, RL_STORAGE_FORMAT_VERSION),
 * which every open checks. Two bytes on each of a catalog's ~100k rows are
 * ~4% of its size, and the seeds' size figure is a target.
 *
 * Invariants: decoders never read outside the given buffer; every malformed
 * input yields RL_CODEC_ERR_* and a message, never a crash. Every field is at
 * most RL_MAX_FIELD_BYTES and every value at most RL_MAX_VALUE_BYTES.
 */
#ifndef ROCKLAKE_CODEC_H
#define ROCKLAKE_CODEC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"

#define RL_MAX_FIELD_BYTES (16u * 1024 * 1024)
#define RL_MAX_VALUE_BYTES (64u * 1024 * 1024)

/* Stable numbers: they are stored in dynamic-table definitions. */
typedef enum rl_type {
    RL_T_INVALID = 0,
    RL_T_INT8 = 1,
    RL_T_INT4 = 2,
    RL_T_INT2 = 3,
    RL_T_FLOAT4 = 4,
    RL_T_FLOAT8 = 5,
    RL_T_NUMERIC = 6,
    RL_T_VARCHAR = 7,
    RL_T_TEXT = 8,
    RL_T_BYTEA = 9,
    RL_T_BOOL = 10,
    RL_T_UUID = 11,
    RL_T_DATE = 12,
    RL_T_TIME = 13,
    RL_T_TIMETZ = 14,
    RL_T_TIMESTAMP = 15,
    RL_T_TIMESTAMPTZ = 16,
    RL_T_INTERVAL = 17,
    RL_T_BPCHAR = 18, /* character(n): text padded with blanks to n (the typmod) */
    RL_T_MAX_ = 19
} rl_type;

/* One SQL value. Integer-like types live in v.i:
 *   int2/int4/int8  the number (range-checked against the type when parsed)
 *   date            days since 2000-01-01 (PostgreSQL's epoch); INT32_MAX /
 *                   INT32_MIN are 'infinity' / '-infinity'
 *   time            microseconds since midnight
 *   timestamp[tz]   microseconds since 2000-01-01 00:00:00 (UTC for tz);
 *                   INT64_MAX / INT64_MIN are 'infinity' / '-infinity'
 * String-like types (varchar, text, bytea, numeric) point at bytes in v.s; a
 * decoded datum BORROWS them from the buffer it was decoded from. */
typedef struct rl_datum {
    bool isnull;
    union {
        int64_t i;
        double f;
        bool b;
        uint8_t uuid[16];
        struct { int64_t us; int32_t zone; } timetz; /* zone: seconds west of UTC (PG) */
        struct { int32_t months; int32_t days; int64_t us; } interval;
        struct { const uint8_t *p; size_t len; } s;
    } v;
} rl_datum;

typedef enum rl_codec_status {
    RL_CODEC_OK = 0,
    RL_CODEC_ERR_CORRUPT = 1,   /* truncated, bad magic, bad varint, trailing bytes */
    RL_CODEC_ERR_WRONG_TAG = 2, /* value belongs to another table */
    RL_CODEC_ERR_VERSION = 3,   /* written by a newer codec / has more columns */
    RL_CODEC_ERR_TOO_LARGE = 4, /* a field or the whole value exceeds the limits */
    RL_CODEC_ERR_INVALID = 5    /* bad argument (unknown type, bad datum) */
} rl_codec_status;

/* Whether a datum of type t keeps its value as bytes in v.s (a decoded one
 * borrows them): varchar, text, bpchar, bytea, numeric. */
static inline bool rl_type_is_bytes(rl_type t)
{
    return t == RL_T_VARCHAR || t == RL_T_TEXT || t == RL_T_BPCHAR || t == RL_T_BYTEA ||
           t == RL_T_NUMERIC;
}

const char *rl_type_name(rl_type t);          /* PostgreSQL type name: "int8", "timestamptz", ... */
rl_type rl_type_from_name(const char *name);  /* accepts PG names and SQL spellings
                                                 ("bigint", "double precision",
                                                 "timestamp with time zone", "numeric(18,3)"...);
                                                 RL_T_INVALID if unknown */

/* Encode `n` columns (types[i], vals[i]) as a framed value into `out`
 * (appended; check out->failed). Returns RL_CODEC_OK or an error. */
rl_codec_status rl_row_encode(rl_buf *out, uint8_t tag, size_t n,
                              const rl_type *types, const rl_datum *vals);

/* Decode a framed value written for `tag` into vals[0..n). Columns the value
 * does not have are copied from defaults[i] (NULL `defaults` = SQL NULL).
 * String datums borrow from `value`. `err` (may be NULL) gets a message. */
rl_codec_status rl_row_decode(const uint8_t *value, size_t vlen, uint8_t tag,
                              size_t n, const rl_type *types,
                              const rl_datum *defaults, rl_datum *vals,
                              char *err, size_t errlen);

/* Read just the header: tag and encoded column count. */
rl_codec_status rl_row_peek(const uint8_t *value, size_t vlen, uint8_t *tag,
                            size_t *ncols);

#endif
