// fuzz-sources: src/keys/codec.c src/pgtype/pgtype.c src/pgtype/tzif.c src/base/buf.c src/base/error.c
/*
 * fuzz_codec.c — libFuzzer target for the value codec (src/keys/codec.c).
 *
 * Input layout: byte 0 = tag; byte 1 = flags (bit 0: prepend a valid
 * header so the fuzzer reaches column decoding quickly; bits 1..7 pick the
 * type for text input); byte 2 = column count n (mod 33); the next n bytes
 * = column types; the rest = the value bytes, also used as text input.
 *
 * Properties checked (abort on violation):
 *  - peek and decode never crash or read out of bounds (ASan);
 *  - a decoded row re-encodes, the re-encoding decodes to the same datums,
 *    and encoding is idempotent from there on (bytes equal);
 *  - text input that parses prints text that parses to the same text (but
 *    for a time with time zone whose zone PostgreSQL's input cannot write).
 */
#include "keys/codec.h"
#include "pgtype/pgtype.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_COLS 32

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static rl_type pick_type(uint8_t b) { return (rl_type)(1 + b % (RL_T_MAX_ - 1)); }

static void fail(const char *what)
{
    fprintf(stderr, "fuzz_codec: %s\n", what);
    abort();
}

static bool same_datum(rl_type t, const rl_datum *a, const rl_datum *b)
{
    if (a->isnull || b->isnull)
        return a->isnull == b->isnull;
    if (t == RL_T_FLOAT4 || t == RL_T_FLOAT8) /* by bits, after the float round trip */
        return memcmp(&a->v.f, &b->v.f, sizeof a->v.f) == 0 ||
               (isnan(a->v.f) && isnan(b->v.f));
    if (t == RL_T_BOOL)
        return a->v.b == b->v.b;
    /* string-like ones byte for byte: bpchar's compare is blind to its
     * trailing blanks */
    return rl_datum_compare(t, a, b) == 0 && (!rl_type_is_bytes(t) || a->v.s.len == b->v.s.len);
}

/* Decoded row -> encode -> decode -> encode: datums and bytes must agree. */
static void check_reencode(uint8_t tag, size_t n, const rl_type *types, const rl_datum *vals)
{
    rl_buf first, second;
    rl_buf_init(&first, 0);
    rl_buf_init(&second, 0);
    if (rl_row_encode(&first, tag, n, types, vals) != RL_CODEC_OK || first.failed)
        fail("a decoded row does not re-encode");
    rl_datum again[MAX_COLS];
    char err[256];
    if (rl_row_decode(first.data, first.len, tag, n, types, NULL, again, err, sizeof err) !=
        RL_CODEC_OK)
        fail("a re-encoded row does not decode");
    for (size_t i = 0; i < n; i++)
        if (!same_datum(types[i], &vals[i], &again[i]))
            fail("re-decoded datum differs");
    if (rl_row_encode(&second, tag, n, types, again) != RL_CODEC_OK)
        fail("second re-encode failed");
    if (first.len != second.len || (first.len && memcmp(first.data, second.data, first.len)))
        fail("encoding is not idempotent");
    rl_buf_free(&first);
    rl_buf_free(&second);
}

static void fuzz_rows(uint8_t tag, bool add_header, size_t n, const rl_type *types,
                      const uint8_t *value, size_t vlen)
{
    rl_buf framed;
    rl_buf_init(&framed, 0);
    if (add_header) {
        rl_buf_put_u8(&framed, tag);
    }
    rl_buf_put(&framed, value, vlen);
    /* an exact-size heap copy so ASan catches any over-read */
    size_t len = framed.len;
    uint8_t *copy = malloc(len ? len : 1);
    if (len)
        memcpy(copy, framed.data, len);
    rl_buf_free(&framed);

    uint8_t got_tag;
    size_t ncols;
    (void)rl_row_peek(copy, len, &got_tag, &ncols);
    rl_datum vals[MAX_COLS];
    char err[256];
    if (rl_row_decode(copy, len, tag, n, types, NULL, vals, err, sizeof err) == RL_CODEC_OK)
        check_reencode(tag, n, types, vals);
    free(copy);
}

/* A time with time zone in a zone of 16 hours or more from UTC (a POSIX
 * zone such as "Foo/110" takes up to 167): it prints as PostgreSQL prints
 * it ("05:00:00-110"), which time input, PostgreSQL's too, reads as another
 * offset or refuses, so its text does not round-trip there either. */
static bool beyond_timetz_input(rl_type t, const rl_datum *d)
{
    return t == RL_T_TIMETZ && (d->v.timetz.zone >= 16 * 3600 || d->v.timetz.zone <= -16 * 3600);
}

/* Text that parses must print as text that parses to the same print. */
static void fuzz_text(rl_type t, const uint8_t *text, size_t len)
{
    rl_buf arena, out, arena2, out2;
    rl_buf_init(&arena, 0);
    rl_buf_init(&out, 0);
    rl_buf_init(&arena2, 0);
    rl_buf_init(&out2, 0);
    rl_datum d, d2;
    char err[512];
    if (rl_datum_from_text(t, (const char *)text, len, &d, &arena, err, sizeof err) ==
            RL_CODEC_OK &&
        !beyond_timetz_input(t, &d)) {
        rl_datum_to_text(&out, t, &d);
        if (rl_datum_from_text(t, (const char *)out.data, out.len, &d2, &arena2, err,
                               sizeof err) != RL_CODEC_OK) {
            fprintf(stderr, "output \"%.*s\" rejected: %s\n", (int)out.len, (char *)out.data, err);
            fail("to_text output does not parse");
        }
        rl_datum_to_text(&out2, t, &d2);
        if (out.len != out2.len || (out.len && memcmp(out.data, out2.data, out.len)))
            fail("text round trip is not stable");
        if (rl_datum_compare(t, &d, &d2) != 0 && !(t == RL_T_FLOAT4 || t == RL_T_FLOAT8))
            fail("text round trip changed the value");
    }
    rl_buf_free(&arena);
    rl_buf_free(&out);
    rl_buf_free(&arena2);
    rl_buf_free(&out2);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 3)
        return 0;
    uint8_t tag = data[0];
    uint8_t flags = data[1];
    size_t n = data[2] % (MAX_COLS + 1);
    if (size < 3 + n)
        return 0;
    rl_type types[MAX_COLS];
    for (size_t i = 0; i < n; i++)
        types[i] = pick_type(data[3 + i]);
    const uint8_t *rest = data + 3 + n;
    size_t rest_len = size - 3 - n;
    fuzz_rows(tag, flags & 1, n, types, rest, rest_len);
    fuzz_text(pick_type(flags >> 1), rest, rest_len);
    return 0;
}
