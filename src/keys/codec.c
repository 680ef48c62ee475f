/*
 * codec.c — RockLake's storage value codec (see codec.h for the byte format).
 *
 * Owns: type names, the validation of a datum against its type, and the
 * framed row encoding/decoding. PostgreSQL's text forms, the calendar and
 * value ordering are pgtype.c's: nothing here parses or prints a value.
 *
 * Invariants:
 *  - The decoder accepts exactly what the encoder can produce (modulo varint
 *    spelling): both run validate_datum(), so a value that decodes re-encodes
 *    and decodes again to the same datums.
 *  - Decoding never reads outside the input (all reads go through rl_reader)
 *    and never allocates; string datums borrow from the input.
 */
#include "keys/codec.h"

#include <float.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"

/* The time and zone ranges a stored value must respect (PostgreSQL's, see
 * datatype/timestamp.h; pgtype.c has the rest of the calendar). */
#define USECS_PER_DAY (INT64_C(86400) * 1000000)
/* A timetz zone must be strictly within +-16 hours (PG's TZDISP_LIMIT). */
#define TZDISP_LIMIT (16 * 3600)

/* ------------------------------------------------------------------ */
/* type names                                                          */
/* ------------------------------------------------------------------ */

static const char *const pg_type_names[RL_T_MAX_] = {
    [RL_T_INVALID] = "invalid",   [RL_T_INT8] = "int8",
    [RL_T_INT4] = "int4",         [RL_T_INT2] = "int2",
    [RL_T_FLOAT4] = "float4",     [RL_T_FLOAT8] = "float8",
    [RL_T_NUMERIC] = "numeric",   [RL_T_VARCHAR] = "varchar",
    [RL_T_TEXT] = "text",         [RL_T_BYTEA] = "bytea",
    [RL_T_BOOL] = "bool",         [RL_T_UUID] = "uuid",
    [RL_T_DATE] = "date",         [RL_T_TIME] = "time",
    [RL_T_TIMETZ] = "timetz",     [RL_T_TIMESTAMP] = "timestamp",
    [RL_T_TIMESTAMPTZ] = "timestamptz", [RL_T_INTERVAL] = "interval",
    [RL_T_BPCHAR] = "bpchar",
};

static bool type_is_known(rl_type t) { return t > RL_T_INVALID && t < RL_T_MAX_; }

const char *rl_type_name(rl_type t)
{
    return (t >= RL_T_INVALID && t < RL_T_MAX_) ? pg_type_names[t] : "invalid";
}

/* Spellings after normalisation (lower case, single spaces, typmods removed). */
static const struct { const char *name; rl_type type; bool takes_typmod; } type_aliases[] = {
    {"int8", RL_T_INT8, false},          {"bigint", RL_T_INT8, false},
    {"int4", RL_T_INT4, false},          {"integer", RL_T_INT4, false},
    {"int", RL_T_INT4, false},           {"int2", RL_T_INT2, false},
    {"smallint", RL_T_INT2, false},      {"float4", RL_T_FLOAT4, false},
    {"real", RL_T_FLOAT4, false},        {"float8", RL_T_FLOAT8, false},
    {"double precision", RL_T_FLOAT8, false}, {"double", RL_T_FLOAT8, false},
    {"numeric", RL_T_NUMERIC, true},     {"decimal", RL_T_NUMERIC, true},
    {"varchar", RL_T_VARCHAR, true},     {"character varying", RL_T_VARCHAR, true},
    {"text", RL_T_TEXT, false},          {"bytea", RL_T_BYTEA, false},
    {"bool", RL_T_BOOL, false},          {"boolean", RL_T_BOOL, false},
    {"uuid", RL_T_UUID, false},          {"date", RL_T_DATE, false},
    {"time", RL_T_TIME, true},           {"time without time zone", RL_T_TIME, true},
    {"timetz", RL_T_TIMETZ, true},       {"time with time zone", RL_T_TIMETZ, true},
    {"timestamp", RL_T_TIMESTAMP, true}, {"timestamp without time zone", RL_T_TIMESTAMP, true},
    {"timestamptz", RL_T_TIMESTAMPTZ, true}, {"timestamp with time zone", RL_T_TIMESTAMPTZ, true},
    {"interval", RL_T_INTERVAL, true},
    {"bpchar", RL_T_BPCHAR, true},       {"character", RL_T_BPCHAR, true},
    {"char", RL_T_BPCHAR, true},
};

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}
static bool is_digit(char c) { return c >= '0' && c <= '9'; }
static char to_lower(char c) { return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c; }

/* Lower-cases `name`, removes parenthesised type modifiers (which must hold
 * only digits, commas and spaces) and collapses whitespace. Returns the
 * number of modifiers seen, or -1 if malformed; the first modifier's first
 * number goes to *first_mod (needed for float(p)). */
static int normalize_type_name(const char *name, char *out, size_t outlen, long *first_mod)
{
    size_t o = 0;
    int mods = 0;
    bool pending_space = false;
    *first_mod = -1;
    for (const char *p = name; *p; p++) {
        if (*p == '(') {
            const char *close = strchr(p, ')');
            if (!close)
                return -1;
            for (const char *q = p + 1; q < close; q++)
                if (!is_digit(*q) && *q != ',' && !is_space(*q))
                    return -1;
            if (mods++ == 0)
                *first_mod = strtol(p + 1, NULL, 10);
            p = close;
            pending_space = true; /* "timestamp(3)with" is not valid, but be lenient */
            continue;
        }
        if (is_space(*p)) {
            pending_space = true;
            continue;
        }
        if (pending_space && o > 0) {
            if (o + 1 >= outlen)
                return -1;
            out[o++] = ' ';
        }
        pending_space = false;
        if (o + 1 >= outlen)
            return -1;
        out[o++] = to_lower(*p);
    }
    out[o] = '\0';
    return mods;
}

rl_type rl_type_from_name(const char *name)
{
    char norm[64];
    long first_mod;
    if (!name)
        return RL_T_INVALID;
    int mods = normalize_type_name(name, norm, sizeof norm, &first_mod);
    if (mods < 0 || mods > 1)
        return RL_T_INVALID;
    /* float(p): PostgreSQL maps precision 1..24 to real, 25..53 to double. */
    if (strcmp(norm, "float") == 0) {
        if (mods == 0)
            return RL_T_FLOAT8;
        if (first_mod >= 1 && first_mod <= 24)
            return RL_T_FLOAT4;
        if (first_mod >= 25 && first_mod <= 53)
            return RL_T_FLOAT8;
        return RL_T_INVALID;
    }
    for (size_t i = 0; i < sizeof type_aliases / sizeof type_aliases[0]; i++) {
        if (strcmp(norm, type_aliases[i].name) != 0)
            continue;
        if (mods && !type_aliases[i].takes_typmod)
            return RL_T_INVALID;
        return type_aliases[i].type;
    }
    return RL_T_INVALID;
}

/* ------------------------------------------------------------------ */
/* datum validation shared by encoder and decoder                      */
/* ------------------------------------------------------------------ */

static bool bytes_equal_str(const uint8_t *p, size_t len, const char *s)
{
    return len == strlen(s) && (len == 0 || memcmp(p, s, len) == 0);
}

/* Canonical numeric text as numeric_out prints it: "NaN", "Infinity",
 * "-Infinity", or -?(0|[1-9][0-9]*)(\.[0-9]+)? with no "-" on zero. */
static bool numeric_text_is_canonical(const uint8_t *p, size_t len)
{
    if (bytes_equal_str(p, len, "NaN") || bytes_equal_str(p, len, "Infinity") ||
        bytes_equal_str(p, len, "-Infinity"))
        return true;
    size_t i = 0;
    bool negative = false, nonzero = false;
    if (i < len && p[i] == '-') {
        negative = true;
        i++;
    }
    size_t int_start = i;
    while (i < len && is_digit((char)p[i]))
        nonzero |= p[i++] != '0';
    size_t int_len = i - int_start;
    if (int_len == 0 || (int_len > 1 && p[int_start] == '0'))
        return false;
    if (i < len && p[i] == '.') {
        size_t frac_start = ++i;
        while (i < len && is_digit((char)p[i]))
            nonzero |= p[i++] != '0';
        if (i == frac_start)
            return false;
    }
    return i == len && (nonzero || !negative);
}

typedef enum { DATUM_OK, DATUM_BAD, DATUM_TOO_LARGE } datum_check;

/* Is `d` a value of type `t` that the format can carry? */
static datum_check validate_datum(rl_type t, const rl_datum *d, char *why, size_t whylen)
{
    switch (t) {
    case RL_T_INT2:
        if (d->v.i < INT16_MIN || d->v.i > INT16_MAX) {
            rl_errmsg_set(why, whylen, "value %" PRId64 " out of range for int2", d->v.i);
            return DATUM_BAD;
        }
        return DATUM_OK;
    case RL_T_INT4:
    case RL_T_DATE:
        if (d->v.i < INT32_MIN || d->v.i > INT32_MAX) {
            rl_errmsg_set(why, whylen, "value %" PRId64 " out of range for %s", d->v.i,
                    rl_type_name(t));
            return DATUM_BAD;
        }
        return DATUM_OK;
    case RL_T_TIME:
        if (d->v.i < 0 || d->v.i > USECS_PER_DAY) {
            rl_errmsg_set(why, whylen, "time %" PRId64 " us outside 00:00..24:00", d->v.i);
            return DATUM_BAD;
        }
        return DATUM_OK;
    case RL_T_TIMETZ:
        if (d->v.timetz.us < 0 || d->v.timetz.us > USECS_PER_DAY ||
            d->v.timetz.zone <= -TZDISP_LIMIT || d->v.timetz.zone >= TZDISP_LIMIT) {
            rl_errmsg_set(why, whylen, "timetz time or zone out of range");
            return DATUM_BAD;
        }
        return DATUM_OK;
    case RL_T_FLOAT4:
        if (isfinite(d->v.f) && fabs(d->v.f) > FLT_MAX) {
            rl_errmsg_set(why, whylen, "value %g out of range for float4", d->v.f);
            return DATUM_BAD;
        }
        return DATUM_OK;
    case RL_T_VARCHAR:
    case RL_T_BPCHAR:
    case RL_T_TEXT:
    case RL_T_BYTEA:
    case RL_T_NUMERIC:
        if (d->v.s.len > RL_MAX_FIELD_BYTES) {
            rl_errmsg_set(why, whylen, "field of %zu bytes exceeds the %u byte limit", d->v.s.len,
                    RL_MAX_FIELD_BYTES);
            return DATUM_TOO_LARGE;
        }
        if (d->v.s.len > 0 && !d->v.s.p) {
            rl_errmsg_set(why, whylen, "NULL pointer with length %zu", d->v.s.len);
            return DATUM_BAD;
        }
        if (t == RL_T_NUMERIC && !numeric_text_is_canonical(d->v.s.p, d->v.s.len)) {
            rl_errmsg_set(why, whylen, "numeric is not canonical text");
            return DATUM_BAD;
        }
        return DATUM_OK;
    default:
        return DATUM_OK;
    }
}

/* ------------------------------------------------------------------ */
/* encoding                                                            */
/* ------------------------------------------------------------------ */

static size_t uvarint_len(uint64_t v)
{
    size_t n = 1;
    while (v >= 0x80) {
        v >>= 7;
        n++;
    }
    return n;
}

static uint64_t zigzag(int64_t v) { return ((uint64_t)v << 1) ^ (uint64_t)(v >> 63); }

static size_t bitmap_bytes(size_t ncols) { return ncols / 8 + (ncols % 8 != 0); }

/* Bytes the non-NULL datum occupies on the wire. */
static size_t field_size(rl_type t, const rl_datum *d)
{
    switch (t) {
    case RL_T_FLOAT4: return 4;
    case RL_T_FLOAT8: return 8;
    case RL_T_BOOL: return 1;
    case RL_T_UUID: return 16;
    case RL_T_TIMETZ:
        return uvarint_len(zigzag(d->v.timetz.us)) + uvarint_len(zigzag(d->v.timetz.zone));
    case RL_T_INTERVAL:
        return uvarint_len(zigzag(d->v.interval.months)) +
               uvarint_len(zigzag(d->v.interval.days)) + uvarint_len(zigzag(d->v.interval.us));
    case RL_T_VARCHAR:
    case RL_T_BPCHAR:
    case RL_T_TEXT:
    case RL_T_BYTEA:
    case RL_T_NUMERIC:
        return uvarint_len(d->v.s.len) + d->v.s.len;
    default: /* integer-like */
        return uvarint_len(zigzag(d->v.i));
    }
}

static void put_field(rl_buf *out, rl_type t, const rl_datum *d)
{
    switch (t) {
    case RL_T_FLOAT4: {
        float f = (float)d->v.f;
        uint32_t bits;
        memcpy(&bits, &f, 4);
        rl_buf_put_be32(out, bits);
        break;
    }
    case RL_T_FLOAT8: {
        uint64_t bits;
        memcpy(&bits, &d->v.f, 8);
        rl_buf_put_be64(out, bits);
        break;
    }
    case RL_T_BOOL: rl_buf_put_u8(out, d->v.b ? 1 : 0); break;
    case RL_T_UUID: rl_buf_put(out, d->v.uuid, 16); break;
    case RL_T_TIMETZ:
        rl_buf_put_svarint(out, d->v.timetz.us);
        rl_buf_put_svarint(out, d->v.timetz.zone);
        break;
    case RL_T_INTERVAL:
        rl_buf_put_svarint(out, d->v.interval.months);
        rl_buf_put_svarint(out, d->v.interval.days);
        rl_buf_put_svarint(out, d->v.interval.us);
        break;
    case RL_T_VARCHAR:
    case RL_T_BPCHAR:
    case RL_T_TEXT:
    case RL_T_BYTEA:
    case RL_T_NUMERIC:
        rl_buf_put_uvarint(out, d->v.s.len);
        rl_buf_put(out, d->v.s.p, d->v.s.len);
        break;
    default: rl_buf_put_svarint(out, d->v.i); break;
    }
}

/* First pass: validate every column and compute the exact encoded size, so
 * that an error leaves `out` untouched and nothing oversized is allocated. */
static rl_codec_status measure_row(size_t n, const rl_type *types, const rl_datum *vals,
                                   size_t *total)
{
    size_t size = 3 + uvarint_len(n) + bitmap_bytes(n);
    if (size > RL_MAX_VALUE_BYTES)
        return RL_CODEC_ERR_TOO_LARGE;
    for (size_t i = 0; i < n; i++) {
        if (!type_is_known(types[i]))
            return RL_CODEC_ERR_INVALID;
        if (vals[i].isnull)
            continue;
        datum_check c = validate_datum(types[i], &vals[i], NULL, 0);
        if (c == DATUM_TOO_LARGE)
            return RL_CODEC_ERR_TOO_LARGE;
        if (c == DATUM_BAD)
            return RL_CODEC_ERR_INVALID;
        size += field_size(types[i], &vals[i]); /* each <= 16 MiB + 10: no overflow */
        if (size > RL_MAX_VALUE_BYTES)
            return RL_CODEC_ERR_TOO_LARGE;
    }
    *total = size;
    return RL_CODEC_OK;
}

static void put_null_bitmap(rl_buf *out, size_t n, const rl_datum *vals)
{
    for (size_t byte = 0; byte < bitmap_bytes(n); byte++) {
        uint8_t bits = 0;
        for (size_t bit = 0; bit < 8 && byte * 8 + bit < n; bit++)
            if (vals[byte * 8 + bit].isnull)
                bits |= (uint8_t)(1u << bit);
        rl_buf_put_u8(out, bits);
    }
}

rl_codec_status rl_row_encode(rl_buf *out, uint8_t tag, size_t n, const rl_type *types,
                              const rl_datum *vals)
{
    if (!out || (n > 0 && (!types || !vals)))
        return RL_CODEC_ERR_INVALID;
    size_t total;
    rl_codec_status st = measure_row(n, types, vals, &total);
    if (st != RL_CODEC_OK)
        return st;
    rl_buf_reserve(out, total); /* a failure is sticky in out->failed */
    rl_buf_put_u8(out, tag);
    rl_buf_put_uvarint(out, n);
    put_null_bitmap(out, n, vals);
    for (size_t i = 0; i < n; i++)
        if (!vals[i].isnull)
            put_field(out, types[i], &vals[i]);
    return RL_CODEC_OK;
}

/* ------------------------------------------------------------------ */
/* decoding                                                            */
/* ------------------------------------------------------------------ */

static rl_codec_status read_header(rl_reader *r, uint8_t *tag, uint64_t *ncols, char *err,
                                   size_t errlen)
{
    if (!rl_reader_u8(r, tag)) {
        rl_errmsg_set(err, errlen, "value truncated in its header");
        return RL_CODEC_ERR_CORRUPT;
    }
    if (!rl_reader_uvarint(r, ncols)) {
        rl_errmsg_set(err, errlen, "bad column count varint");
        return RL_CODEC_ERR_CORRUPT;
    }
    return RL_CODEC_OK;
}

rl_codec_status rl_row_peek(const uint8_t *value, size_t vlen, uint8_t *tag, size_t *ncols)
{
    if (!value && vlen)
        return RL_CODEC_ERR_INVALID;
    rl_reader r;
    rl_reader_init(&r, value, vlen);
    uint8_t t = 0;
    uint64_t n = 0;
    rl_codec_status st = read_header(&r, &t, &n, NULL, 0);
    if (st != RL_CODEC_OK)
        return st;
    if (n > SIZE_MAX)
        return RL_CODEC_ERR_CORRUPT;
    if (tag)
        *tag = t;
    if (ncols)
        *ncols = (size_t)n;
    return RL_CODEC_OK;
}

static bool read_svarint_i32(rl_reader *r, int32_t *out)
{
    int64_t v;
    if (!rl_reader_svarint(r, &v))
        return false;
    if (v < INT32_MIN || v > INT32_MAX) {
        r->failed = true;
        return false;
    }
    *out = (int32_t)v;
    return true;
}

/* Reads the bytes of one non-NULL field into `d` (string datums borrow). */
static rl_codec_status read_field(rl_reader *r, rl_type t, rl_datum *d, char *why, size_t whylen)
{
    switch (t) {
    case RL_T_FLOAT4: {
        uint32_t bits;
        float f;
        if (!rl_reader_be32(r, &bits))
            break;
        memcpy(&f, &bits, 4);
        d->v.f = f;
        return RL_CODEC_OK;
    }
    case RL_T_FLOAT8: {
        uint64_t bits;
        if (!rl_reader_be64(r, &bits))
            break;
        memcpy(&d->v.f, &bits, 8);
        return RL_CODEC_OK;
    }
    case RL_T_BOOL: {
        uint8_t b;
        if (!rl_reader_u8(r, &b))
            break;
        if (b > 1) {
            rl_errmsg_set(why, whylen, "bool byte is %u, not 0 or 1", b);
            return RL_CODEC_ERR_CORRUPT;
        }
        d->v.b = b == 1;
        return RL_CODEC_OK;
    }
    case RL_T_UUID: {
        const uint8_t *p;
        if (!rl_reader_bytes(r, 16, &p))
            break;
        memcpy(d->v.uuid, p, 16);
        return RL_CODEC_OK;
    }
    case RL_T_TIMETZ: {
        if (!rl_reader_svarint(r, &d->v.timetz.us) || !read_svarint_i32(r, &d->v.timetz.zone))
            break;
        return RL_CODEC_OK;
    }
    case RL_T_INTERVAL:
        if (!read_svarint_i32(r, &d->v.interval.months) ||
            !read_svarint_i32(r, &d->v.interval.days) ||
            !rl_reader_svarint(r, &d->v.interval.us))
            break;
        return RL_CODEC_OK;
    case RL_T_VARCHAR:
    case RL_T_BPCHAR:
    case RL_T_TEXT:
    case RL_T_BYTEA:
    case RL_T_NUMERIC: {
        uint64_t len;
        if (!rl_reader_uvarint(r, &len))
            break;
        if (len > RL_MAX_FIELD_BYTES) {
            rl_errmsg_set(why, whylen, "field length %" PRIu64 " exceeds the %u byte limit", len,
                    RL_MAX_FIELD_BYTES);
            return RL_CODEC_ERR_TOO_LARGE;
        }
        if (!rl_reader_bytes(r, (size_t)len, &d->v.s.p)) {
            rl_errmsg_set(why, whylen, "field length %" PRIu64 " exceeds the %zu bytes left", len,
                    rl_reader_left(r));
            return RL_CODEC_ERR_CORRUPT;
        }
        d->v.s.len = (size_t)len;
        return RL_CODEC_OK;
    }
    default:
        if (!rl_reader_svarint(r, &d->v.i))
            break;
        return RL_CODEC_OK;
    }
    rl_errmsg_set(why, whylen, "truncated or bad varint");
    return RL_CODEC_ERR_CORRUPT;
}

static rl_codec_status decode_column(rl_reader *r, rl_type t, rl_datum *d, size_t col,
                                     char *err, size_t errlen)
{
    char why[160] = "";
    memset(d, 0, sizeof *d);
    rl_codec_status st = read_field(r, t, d, why, sizeof why);
    if (st == RL_CODEC_OK) {
        datum_check c = validate_datum(t, d, why, sizeof why);
        if (c == DATUM_BAD)
            st = RL_CODEC_ERR_CORRUPT;
        else if (c == DATUM_TOO_LARGE)
            st = RL_CODEC_ERR_TOO_LARGE;
    }
    if (st != RL_CODEC_OK)
        rl_errmsg_set(err, errlen, "column %zu (%s): %s", col, rl_type_name(t), why);
    return st;
}

/* Bits past the last column in the bitmap must be zero, so that every value
 * has one spelling and a flipped padding bit is caught as corruption. */
static bool bitmap_padding_is_zero(const uint8_t *bitmap, size_t ncols)
{
    if (ncols % 8 == 0)
        return true;
    return (bitmap[ncols / 8] >> (ncols % 8)) == 0;
}

rl_codec_status rl_row_decode(const uint8_t *value, size_t vlen, uint8_t tag, size_t n,
                              const rl_type *types, const rl_datum *defaults, rl_datum *vals,
                              char *err, size_t errlen)
{
    if ((n > 0 && (!types || !vals)) || (!value && vlen)) {
        rl_errmsg_set(err, errlen, "invalid arguments");
        return RL_CODEC_ERR_INVALID;
    }
    for (size_t i = 0; i < n; i++) {
        if (!type_is_known(types[i])) {
            rl_errmsg_set(err, errlen, "column %zu: unknown type %d", i, (int)types[i]);
            return RL_CODEC_ERR_INVALID;
        }
    }
    if (vlen > RL_MAX_VALUE_BYTES) {
        rl_errmsg_set(err, errlen, "value of %zu bytes exceeds the %u byte limit", vlen,
                RL_MAX_VALUE_BYTES);
        return RL_CODEC_ERR_TOO_LARGE;
    }
    rl_reader r;
    rl_reader_init(&r, value, vlen);
    uint8_t got_tag;
    uint64_t ncols;
    rl_codec_status st = read_header(&r, &got_tag, &ncols, err, errlen);
    if (st != RL_CODEC_OK)
        return st;
    if (got_tag != tag) {
        rl_errmsg_set(err, errlen, "value belongs to table tag %u, expected %u", got_tag, tag);
        return RL_CODEC_ERR_WRONG_TAG;
    }
    if (ncols > n) {
        rl_errmsg_set(err, errlen, "value has %" PRIu64 " columns, more than the %zu known", ncols, n);
        return RL_CODEC_ERR_VERSION;
    }
    const uint8_t *bitmap;
    if (!rl_reader_bytes(&r, bitmap_bytes((size_t)ncols), &bitmap)) {
        rl_errmsg_set(err, errlen, "value truncated in its NULL bitmap");
        return RL_CODEC_ERR_CORRUPT;
    }
    if (!bitmap_padding_is_zero(bitmap, (size_t)ncols)) {
        rl_errmsg_set(err, errlen, "NULL bitmap has bits set past column %" PRIu64, ncols);
        return RL_CODEC_ERR_CORRUPT;
    }
    for (size_t i = 0; i < (size_t)ncols; i++) {
        if (bitmap[i / 8] & (1u << (i % 8))) {
            memset(&vals[i], 0, sizeof vals[i]);
            vals[i].isnull = true;
            continue;
        }
        st = decode_column(&r, types[i], &vals[i], i, err, errlen);
        if (st != RL_CODEC_OK)
            return st;
    }
    if (rl_reader_left(&r) != 0) {
        rl_errmsg_set(err, errlen, "%zu trailing bytes after column %" PRIu64, rl_reader_left(&r),
                ncols);
        return RL_CODEC_ERR_CORRUPT;
    }
    for (size_t i = (size_t)ncols; i < n; i++) {
        if (defaults) {
            vals[i] = defaults[i];
        } else {
            memset(&vals[i], 0, sizeof vals[i]);
            vals[i].isnull = true;
        }
    }
    return RL_CODEC_OK;
}

