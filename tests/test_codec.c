/*
 * test_codec.c — behaviour of the value codec (src/keys/codec.c): row round trips
 * for every type, reading older rows with defaults, rejecting corrupt and
 * foreign values, PostgreSQL 15 text formats (golden strings checked against
 * a real PostgreSQL 15 with DateStyle ISO, TimeZone UTC), and ordering.
 *
 * Needs only codec.c and buf.c; every helper is static so the file links
 * against the whole library too.
 */
#include "base/utf8.h"
#include "keys/codec.h"
#include "pgtype/pgtype.h"
#include "testutil.h"

#include <float.h>
#include <math.h>

#define TAG 7

static const rl_type all_types[] = {
    RL_T_INT8,   RL_T_INT4,   RL_T_INT2, RL_T_FLOAT4, RL_T_FLOAT8,    RL_T_NUMERIC,
    RL_T_VARCHAR, RL_T_TEXT,  RL_T_BYTEA, RL_T_BOOL,  RL_T_UUID,      RL_T_DATE,
    RL_T_TIME,   RL_T_TIMETZ, RL_T_TIMESTAMP, RL_T_TIMESTAMPTZ, RL_T_INTERVAL, RL_T_BPCHAR,
};
#define NTYPES (sizeof all_types / sizeof all_types[0])

/* ---- helpers ---- */

static rl_datum null_datum(void)
{
    rl_datum d;
    memset(&d, 0, sizeof d);
    d.isnull = true;
    return d;
}

static rl_datum int_datum(int64_t v)
{
    rl_datum d = null_datum();
    d.isnull = false;
    d.v.i = v;
    return d;
}

static rl_datum str_datum(const void *p, size_t len)
{
    rl_datum d = null_datum();
    d.isnull = false;
    d.v.s.p = p;
    d.v.s.len = len;
    return d;
}

/* Same value: floats by bits (so NaN payloads and -0 count), strings by
 * bytes, everything else by field. */
static bool datum_same(rl_type t, const rl_datum *a, const rl_datum *b)
{
    if (a->isnull || b->isnull)
        return a->isnull == b->isnull;
    switch (t) {
    case RL_T_FLOAT4: {
        float fa = (float)a->v.f, fb = (float)b->v.f;
        return memcmp(&fa, &fb, 4) == 0;
    }
    case RL_T_FLOAT8: return memcmp(&a->v.f, &b->v.f, 8) == 0;
    case RL_T_BOOL: return a->v.b == b->v.b;
    case RL_T_UUID: return memcmp(a->v.uuid, b->v.uuid, 16) == 0;
    case RL_T_TIMETZ:
        return a->v.timetz.us == b->v.timetz.us && a->v.timetz.zone == b->v.timetz.zone;
    case RL_T_INTERVAL:
        return a->v.interval.months == b->v.interval.months &&
               a->v.interval.days == b->v.interval.days && a->v.interval.us == b->v.interval.us;
    case RL_T_VARCHAR:
    case RL_T_BPCHAR:
    case RL_T_TEXT:
    case RL_T_BYTEA:
    case RL_T_NUMERIC:
        return a->v.s.len == b->v.s.len &&
               (a->v.s.len == 0 || memcmp(a->v.s.p, b->v.s.p, a->v.s.len) == 0);
    default: return a->v.i == b->v.i;
    }
}

/* Encodes, decodes with the same shape, and checks every datum. */
static bool round_trips(size_t n, const rl_type *types, const rl_datum *vals)
{
    rl_buf b;
    rl_buf_init(&b, 0);
    bool ok = rl_row_encode(&b, TAG, n, types, vals) == RL_CODEC_OK && !b.failed;
    rl_datum *out = calloc(n ? n : 1, sizeof *out);
    char err[200] = "";
    if (ok)
        ok = rl_row_decode(b.data, b.len, TAG, n, types, NULL, out, err, sizeof err) ==
             RL_CODEC_OK;
    for (size_t i = 0; ok && i < n; i++)
        ok = datum_same(types[i], &vals[i], &out[i]);
    if (!ok)
        fprintf(stderr, "  round trip failed: %s\n", err);
    free(out);
    rl_buf_free(&b);
    return ok;
}

/* Random float with a fair share of special values. */
static double random_double(uint64_t *rng)
{
    static const double specials[] = {0.0, -0.0, 1.0, -1.0, 1.5, 1e20, 1e-300, 5e-324, DBL_MAX};
    uint64_t r = tu_rand(rng);
    if (r % 8 == 0)
        return specials[(r >> 8) % (sizeof specials / sizeof specials[0])];
    if (r % 8 == 1)
        return (r & 256) ? INFINITY : ((r & 512) ? -INFINITY : NAN);
    uint64_t bits = tu_rand(rng);
    double d;
    memcpy(&d, &bits, 8);
    return d;
}

static int64_t random_int(uint64_t *rng)
{
    static const int64_t edges[] = {INT64_MIN, INT64_MAX, 0, -1, 1, 255, 256, 1LL << 32,
                                    INT32_MIN, INT32_MAX, 127, 128, -129};
    uint64_t r = tu_rand(rng);
    if (r % 4 == 0)
        return edges[(r >> 8) % (sizeof edges / sizeof edges[0])];
    return (int64_t)tu_rand(rng) >> (r % 64);
}

static int64_t clamp_i64(int64_t v, int64_t lo, int64_t hi)
{
    if (v < lo)
        return lo;
    return v > hi ? hi : v;
}

/* A random valid datum of type t; string bytes go to `pool` (which must
 * not move: callers size it up front). */
static rl_datum random_datum(rl_type t, uint64_t *rng, uint8_t *pool, size_t pool_len)
{
    rl_datum d = null_datum();
    if (tu_rand(rng) % 10 == 0)
        return d;
    d.isnull = false;
    switch (t) {
    case RL_T_INT2: d.v.i = clamp_i64(random_int(rng), INT16_MIN, INT16_MAX); break;
    case RL_T_INT4:
    case RL_T_DATE: d.v.i = clamp_i64(random_int(rng), INT32_MIN, INT32_MAX); break;
    case RL_T_TIME: d.v.i = (int64_t)(tu_rand(rng) % (86400000000ULL + 1)); break;
    case RL_T_FLOAT4: {
        uint32_t bits = (uint32_t)tu_rand(rng);
        float f;
        memcpy(&f, &bits, 4);
        d.v.f = tu_rand(rng) % 4 ? (double)f : random_double(rng);
        if (isfinite(d.v.f) && fabs(d.v.f) > FLT_MAX)
            d.v.f = FLT_MAX;
        if (isnan(d.v.f))
            d.v.f = (double)NAN; /* payload of a double NaN does not fit a float */
        break;
    }
    case RL_T_FLOAT8: d.v.f = random_double(rng); break;
    case RL_T_BOOL: d.v.b = tu_rand(rng) & 1; break;
    case RL_T_UUID:
        for (int i = 0; i < 16; i++)
            d.v.uuid[i] = (uint8_t)tu_rand(rng);
        break;
    case RL_T_TIMETZ:
        d.v.timetz.us = (int64_t)(tu_rand(rng) % 86400000001ULL);
        d.v.timetz.zone = (int32_t)((int64_t)(tu_rand(rng) % 115199) - 57599);
        break;
    case RL_T_INTERVAL:
        d.v.interval.months = (int32_t)random_int(rng);
        d.v.interval.days = (int32_t)random_int(rng);
        d.v.interval.us = random_int(rng);
        break;
    case RL_T_NUMERIC: {
        static const char *nums[] = {"0", "-1.50", "123456789012345678901234567890.000001",
                                     "NaN", "Infinity", "-Infinity", "0.000"};
        const char *s = nums[tu_rand(rng) % 7];
        d.v.s.p = (const uint8_t *)s;
        d.v.s.len = strlen(s);
        break;
    }
    case RL_T_VARCHAR:
    case RL_T_BPCHAR:
    case RL_T_TEXT:
    case RL_T_BYTEA: {
        size_t len = tu_rand(rng) % 3 == 0 ? 0 : tu_rand(rng) % 300;
        size_t off = tu_rand(rng) % (pool_len - 300);
        d.v.s.p = pool + off; /* pool holds NULs and every byte value */
        d.v.s.len = len;
        break;
    }
    default: d.v.i = random_int(rng); break;
    }
    return d;
}

/* ---- row encoding ---- */

static void test_edge_values_round_trip(void)
{
    const int64_t ints[] = {INT64_MIN, INT64_MAX, 0, -1, 255, 256, 1LL << 32, INT32_MIN, INT32_MAX};
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++) {
        rl_type t = RL_T_INT8;
        rl_datum d = int_datum(ints[i]);
        CHECK(round_trips(1, &t, &d));
        t = RL_T_TIMESTAMPTZ;
        CHECK(round_trips(1, &t, &d));
    }
    const double floats[] = {NAN, -NAN, INFINITY, -INFINITY, -0.0, 5e-324, DBL_MAX};
    for (size_t i = 0; i < sizeof floats / sizeof floats[0]; i++) {
        rl_type t = RL_T_FLOAT8;
        rl_datum d = null_datum();
        d.isnull = false;
        d.v.f = floats[i];
        CHECK(round_trips(1, &t, &d));
    }
    rl_type t = RL_T_TEXT;
    rl_datum empty = str_datum("", 0), with_nul = str_datum("a\0b\0", 4);
    CHECK(round_trips(1, &t, &empty));
    CHECK(round_trips(1, &t, &with_nul));
    /* 0 columns */
    CHECK(round_trips(0, NULL, NULL));
}

static void test_random_rows_round_trip(void)
{
    uint64_t rng = tu_seed("random rows", 0x5eed);
    size_t pool_len = 4096;
    uint8_t *pool = malloc(pool_len);
    for (size_t i = 0; i < pool_len; i++)
        pool[i] = (uint8_t)tu_rand(&rng);
    pool[10] = pool[20] = 0;
    rl_type types[40];
    rl_datum vals[40];
    int failures = 0;
    for (int iter = 0; iter < 5000; iter++) {
        size_t n = tu_rand(&rng) % 40;
        for (size_t i = 0; i < n; i++) {
            types[i] = all_types[tu_rand(&rng) % NTYPES];
            vals[i] = random_datum(types[i], &rng, pool, pool_len);
        }
        if (!round_trips(n, types, vals) && ++failures < 5)
            fprintf(stderr, "  iteration %d failed\n", iter);
    }
    CHECK_EQ_INT(failures, 0);
    free(pool);
}

static void test_all_null_and_wide_rows(void)
{
    /* 200 columns: the NULL bitmap spans 25 bytes; every 3rd column NULL. */
    rl_type types[200];
    rl_datum vals[200];
    for (int i = 0; i < 200; i++) {
        types[i] = RL_T_INT4;
        vals[i] = i % 3 ? int_datum(i * 1000 - 7) : null_datum();
    }
    CHECK(round_trips(200, types, vals));
    for (int i = 0; i < 200; i++)
        vals[i] = null_datum();
    CHECK(round_trips(200, types, vals));
    /* an all-NULL row is just the header and the bitmap */
    rl_buf b;
    rl_buf_init(&b, 0);
    CHECK_EQ_INT(rl_row_encode(&b, TAG, 200, types, vals), RL_CODEC_OK);
    CHECK_EQ_INT(b.len, 1 + 2 + 25); /* tag, uvarint 200, bitmap */
    rl_buf_free(&b);
}

static void test_field_size_limits(void)
{
    uint8_t *big = calloc(1, RL_MAX_FIELD_BYTES + 1);
    rl_type t = RL_T_BYTEA;
    rl_datum d = str_datum(big, RL_MAX_FIELD_BYTES);
    CHECK(round_trips(1, &t, &d)); /* exactly the limit works */
    rl_buf b;
    rl_buf_init(&b, 0);
    d.v.s.len = RL_MAX_FIELD_BYTES + 1;
    CHECK_EQ_INT(rl_row_encode(&b, TAG, 1, &t, &d), RL_CODEC_ERR_TOO_LARGE);
    CHECK_EQ_INT(b.len, 0); /* nothing appended on error */
    /* five fields at the limit exceed the value limit */
    rl_type types[5] = {RL_T_TEXT, RL_T_TEXT, RL_T_TEXT, RL_T_TEXT, RL_T_TEXT};
    rl_datum vals[5];
    for (int i = 0; i < 5; i++)
        vals[i] = str_datum(big, RL_MAX_FIELD_BYTES);
    CHECK_EQ_INT(rl_row_encode(&b, TAG, 5, types, vals), RL_CODEC_ERR_TOO_LARGE);
    /* a decoder also refuses a declared field length over the limit */
    uint8_t hdr[] = {TAG, 1, 0, 0x81, 0x80, 0x80, 0x08};
    rl_datum out;
    char err[200];
    CHECK_EQ_INT(rl_row_decode(hdr, sizeof hdr, TAG, 1, &t, NULL, &out, err, sizeof err),
                 RL_CODEC_ERR_TOO_LARGE);
    CHECK(strstr(err, "column 0") != NULL);
    rl_buf_free(&b);
    free(big);
}

static void test_encoder_rejects_bad_datums(void)
{
    rl_buf b;
    rl_buf_init(&b, 0);
    rl_type t = (rl_type)99;
    rl_datum d = int_datum(1);
    CHECK_EQ_INT(rl_row_encode(&b, TAG, 1, &t, &d), RL_CODEC_ERR_INVALID);
    t = RL_T_INT2;
    d = int_datum(40000);
    CHECK_EQ_INT(rl_row_encode(&b, TAG, 1, &t, &d), RL_CODEC_ERR_INVALID);
    t = RL_T_INT4;
    d = int_datum(1LL << 31);
    CHECK_EQ_INT(rl_row_encode(&b, TAG, 1, &t, &d), RL_CODEC_ERR_INVALID);
    t = RL_T_NUMERIC;
    d = str_datum("01.5", 4);
    CHECK_EQ_INT(rl_row_encode(&b, TAG, 1, &t, &d), RL_CODEC_ERR_INVALID);
    CHECK_EQ_INT(b.len, 0);
    rl_buf_free(&b);
}

/* ---- older rows, other tables, corruption ---- */

static void encode_three(rl_buf *b)
{
    rl_type types[3] = {RL_T_INT8, RL_T_TEXT, RL_T_BOOL};
    rl_datum vals[3] = {int_datum(42), str_datum("hi", 2), null_datum()};
    vals[2].isnull = false;
    vals[2].v.b = true;
    rl_buf_init(b, 0);
    CHECK_EQ_INT(rl_row_encode(b, TAG, 3, types, vals), RL_CODEC_OK);
}

static void test_older_row_gets_defaults(void)
{
    rl_buf b;
    encode_three(&b);
    rl_type shape5[5] = {RL_T_INT8, RL_T_TEXT, RL_T_BOOL, RL_T_INT4, RL_T_VARCHAR};
    rl_datum defaults[5] = {null_datum(), null_datum(), null_datum(), int_datum(99),
                            str_datum("dflt", 4)};
    rl_datum out[5];
    char err[200];
    CHECK_EQ_INT(rl_row_decode(b.data, b.len, TAG, 5, shape5, defaults, out, err, sizeof err),
                 RL_CODEC_OK);
    CHECK_EQ_INT(out[0].v.i, 42);
    CHECK_MEM(out[1].v.s.p, out[1].v.s.len, "hi", 2);
    CHECK(out[2].v.b);
    CHECK(!out[3].isnull && out[3].v.i == 99);
    CHECK_MEM(out[4].v.s.p, out[4].v.s.len, "dflt", 4);
    /* no defaults: the added columns read as NULL */
    CHECK_EQ_INT(rl_row_decode(b.data, b.len, TAG, 5, shape5, NULL, out, err, sizeof err),
                 RL_CODEC_OK);
    CHECK(out[3].isnull && out[4].isnull);
    /* a reader that knows fewer columns than were written is too old */
    CHECK_EQ_INT(rl_row_decode(b.data, b.len, TAG, 2, shape5, NULL, out, err, sizeof err),
                 RL_CODEC_ERR_VERSION);
    size_t ncols = 0;
    uint8_t tag = 0;
    CHECK_EQ_INT(rl_row_peek(b.data, b.len, &tag, &ncols), RL_CODEC_OK);
    CHECK_EQ_INT(tag, TAG);
    CHECK_EQ_INT(ncols, 3);
    rl_buf_free(&b);
}

static void test_header_errors(void)
{
    rl_buf b;
    encode_three(&b);
    rl_type shape[3] = {RL_T_INT8, RL_T_TEXT, RL_T_BOOL};
    rl_datum out[3];
    char err[200];
    CHECK_EQ_INT(rl_row_decode(b.data, b.len, TAG + 1, 3, shape, NULL, out, err, sizeof err),
                 RL_CODEC_ERR_WRONG_TAG);
    CHECK(strstr(err, "tag") != NULL);
    /* the header is the tag, then the column count */
    CHECK_EQ_INT(b.data[0], TAG);
    CHECK_EQ_INT(b.data[1], 3);
    uint8_t empty[1];
    CHECK_EQ_INT(rl_row_decode(empty, 0, TAG, 3, shape, NULL, out, err, sizeof err),
                 RL_CODEC_ERR_CORRUPT);
    CHECK(strstr(err, "header") != NULL);
    rl_buf_put_u8(&b, 0); /* trailing byte */
    CHECK_EQ_INT(rl_row_decode(b.data, b.len, TAG, 3, shape, NULL, out, err, sizeof err),
                 RL_CODEC_ERR_CORRUPT);
    CHECK(strstr(err, "trailing") != NULL);
    rl_buf_free(&b);
}

static void test_bad_field_contents(void)
{
    char err[200];
    rl_datum out;
    rl_type t = RL_T_BOOL;
    uint8_t bad_bool[] = {TAG, 1, 0, 2};
    CHECK_EQ_INT(rl_row_decode(bad_bool, sizeof bad_bool, TAG, 1, &t, NULL, &out, err, sizeof err),
                 RL_CODEC_ERR_CORRUPT);
    CHECK(strstr(err, "column 0 (bool)") != NULL);
    /* int2 holding 40000 (zigzag 80000 = 0x80 0xf1 0x04) */
    t = RL_T_INT2;
    uint8_t big_int2[] = {TAG, 1, 0, 0x80, 0xf1, 0x04};
    CHECK_EQ_INT(rl_row_decode(big_int2, sizeof big_int2, TAG, 1, &t, NULL, &out, err, sizeof err),
                 RL_CODEC_ERR_CORRUPT);
    t = RL_T_DATE; /* 2^31 as a date: zigzag 2^32 */
    uint8_t big_date[] = {TAG, 1, 0, 0x80, 0x80, 0x80, 0x80, 0x10};
    CHECK_EQ_INT(rl_row_decode(big_date, sizeof big_date, TAG, 1, &t, NULL, &out, err, sizeof err),
                 RL_CODEC_ERR_CORRUPT);
    /* a string length past the end */
    t = RL_T_TEXT;
    uint8_t long_len[] = {TAG, 1, 0, 5, 'a', 'b'};
    CHECK_EQ_INT(rl_row_decode(long_len, sizeof long_len, TAG, 1, &t, NULL, &out, err, sizeof err),
                 RL_CODEC_ERR_CORRUPT);
}

static void test_every_truncation_fails(void)
{
    uint64_t rng = tu_seed("truncations", 77);
    uint8_t pool[1024];
    for (size_t i = 0; i < sizeof pool; i++)
        pool[i] = (uint8_t)tu_rand(&rng);
    rl_type types[NTYPES];
    rl_datum vals[NTYPES];
    for (size_t i = 0; i < NTYPES; i++) {
        types[i] = all_types[i];
        do
            vals[i] = random_datum(types[i], &rng, pool, sizeof pool);
        while (vals[i].isnull); /* every field present, so every cut lands in one */
    }
    rl_buf b;
    rl_buf_init(&b, 0);
    CHECK_EQ_INT(rl_row_encode(&b, TAG, NTYPES, types, vals), RL_CODEC_OK);
    int accepted = 0;
    for (size_t cut = 0; cut < b.len; cut++) {
        /* a fresh copy so ASan sees any read past the cut */
        uint8_t *copy = malloc(cut ? cut : 1);
        memcpy(copy, b.data, cut);
        rl_datum out[NTYPES];
        char err[200];
        if (rl_row_decode(copy, cut, TAG, NTYPES, types, NULL, out, err, sizeof err) ==
            RL_CODEC_OK)
            accepted++;
        free(copy);
    }
    CHECK_EQ_INT(accepted, 0);
    rl_buf_free(&b);
}

static void test_random_corruption_never_crashes(void)
{
    uint64_t rng = tu_seed("corruptions", 1234);
    uint8_t pool[1024];
    for (size_t i = 0; i < sizeof pool; i++)
        pool[i] = (uint8_t)tu_rand(&rng);
    rl_type types[NTYPES];
    rl_datum vals[NTYPES];
    for (size_t i = 0; i < NTYPES; i++) {
        types[i] = all_types[i];
        vals[i] = random_datum(types[i], &rng, pool, sizeof pool);
    }
    rl_buf b;
    rl_buf_init(&b, 0);
    CHECK_EQ_INT(rl_row_encode(&b, TAG, NTYPES, types, vals), RL_CODEC_OK);
    int decoded = 0, reencode_mismatch = 0;
    for (int iter = 0; iter < 20000; iter++) {
        uint8_t *copy = malloc(b.len);
        memcpy(copy, b.data, b.len);
        int flips = 1 + (int)(tu_rand(&rng) % 4);
        for (int f = 0; f < flips; f++)
            copy[tu_rand(&rng) % b.len] ^= (uint8_t)(1u << (tu_rand(&rng) % 8));
        rl_datum out[NTYPES];
        char err[200];
        if (rl_row_decode(copy, b.len, TAG, NTYPES, types, NULL, out, err, sizeof err) ==
            RL_CODEC_OK) {
            decoded++;
            /* whatever it decoded to must be a value the encoder accepts */
            rl_buf again;
            rl_buf_init(&again, 0);
            if (rl_row_encode(&again, TAG, NTYPES, types, out) != RL_CODEC_OK)
                reencode_mismatch++;
            rl_buf_free(&again);
        }
        free(copy);
    }
    CHECK_EQ_INT(reencode_mismatch, 0);
    CHECK(decoded < 20000); /* most flips are caught */
    rl_buf_free(&b);
}

/* ---- type names ---- */

static void test_type_names(void)
{
    CHECK_EQ_STR(rl_type_name(RL_T_TIMESTAMPTZ), "timestamptz");
    CHECK_EQ_STR(rl_type_name(RL_T_INT8), "int8");
    static const struct { const char *name; rl_type t; } cases[] = {
        {"BIGINT", RL_T_INT8},
        {"VARCHAR", RL_T_VARCHAR},
        {"BOOLEAN", RL_T_BOOL},
        {"UUID", RL_T_UUID},
        {"TIMESTAMP WITH TIME ZONE", RL_T_TIMESTAMPTZ},
        {"timestamp  with time   zone", RL_T_TIMESTAMPTZ},
        {"timestamp(3) with time zone", RL_T_TIMESTAMPTZ},
        {"timestamp without time zone", RL_T_TIMESTAMP},
        {"INTEGER", RL_T_INT4},
        {"int", RL_T_INT4},
        {"SMALLINT", RL_T_INT2},
        {"REAL", RL_T_FLOAT4},
        {"DOUBLE PRECISION", RL_T_FLOAT8},
        {"float8", RL_T_FLOAT8},
        {"DECIMAL(18,3)", RL_T_NUMERIC},
        {"numeric", RL_T_NUMERIC},
        {"numeric(10)", RL_T_NUMERIC},
        {"character varying", RL_T_VARCHAR},
        {"varchar(255)", RL_T_VARCHAR},
        {"BYTEA", RL_T_BYTEA},
        {"TIME", RL_T_TIME},
        {"time without time zone", RL_T_TIME},
        {"TIME WITH TIME ZONE", RL_T_TIMETZ},
        {"timetz", RL_T_TIMETZ},
        {"INTERVAL", RL_T_INTERVAL},
        {"DATE", RL_T_DATE},
        {"text", RL_T_TEXT},
        {"float(24)", RL_T_FLOAT4},
        {"float(25)", RL_T_FLOAT8},
        {"hugeint", RL_T_INVALID},
        {"int(11)", RL_T_INVALID},
        {"varchar(x)", RL_T_INVALID},
        {"", RL_T_INVALID},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rl_type got = rl_type_from_name(cases[i].name);
        if (got != cases[i].t)
            fprintf(stderr, "  type name \"%s\" -> %d, want %d\n", cases[i].name, got, cases[i].t);
        CHECK_EQ_INT(got, cases[i].t);
    }
    for (size_t i = 0; i < NTYPES; i++)
        CHECK_EQ_INT(rl_type_from_name(rl_type_name(all_types[i])), all_types[i]);
}

/* ---- text ---- */

/* from_text then to_text; returns the output or "ERROR: <message>". */
static const char *text_via(rl_type t, const char *in)
{
    static char result[512];
    rl_buf arena, out;
    rl_buf_init(&arena, 0);
    rl_buf_init(&out, 0);
    rl_datum d;
    char err[400];
    if (rl_datum_from_text(t, in, strlen(in), &d, &arena, err, sizeof err) != RL_CODEC_OK) {
        snprintf(result, sizeof result, "ERROR: %s", err);
    } else {
        rl_datum_to_text(&out, t, &d);
        snprintf(result, sizeof result, "%.*s", (int)out.len, out.data ? (char *)out.data : "");
    }
    rl_buf_free(&arena);
    rl_buf_free(&out);
    return result;
}

/* Golden pairs: input and what PostgreSQL 15 prints for input::type. */
static const struct { rl_type t; const char *in, *want; } golden[] = {
    {RL_T_INT8, " -9223372036854775808 ", "-9223372036854775808"},
    {RL_T_INT8, "abc", "ERROR: invalid input syntax for type bigint: \"abc\""},
    {RL_T_INT4, "99999999999", "ERROR: value \"99999999999\" is out of range for type integer"},
    {RL_T_INT4, "+12", "12"},
    {RL_T_INT2, "-32768", "-32768"},
    {RL_T_INT2, "32768", "ERROR: value \"32768\" is out of range for type smallint"},
    {RL_T_INT2, "32768x", "ERROR: invalid input syntax for type smallint: \"32768x\""},
    {RL_T_FLOAT8, "1.5", "1.5"},
    {RL_T_FLOAT8, "1e20", "1e+20"},
    {RL_T_FLOAT8, "1e15", "1e+15"},
    {RL_T_FLOAT8, "1e14", "100000000000000"},
    {RL_T_FLOAT8, "0.0001", "0.0001"},
    {RL_T_FLOAT8, "0.00001", "1e-05"},
    {RL_T_FLOAT8, "1.5e-7", "1.5e-07"},
    {RL_T_FLOAT8, "-0", "-0"},
    {RL_T_FLOAT8, "nan", "NaN"},
    {RL_T_FLOAT8, "-inf", "-Infinity"},
    {RL_T_FLOAT8, "Infinity", "Infinity"},
    {RL_T_FLOAT8, "5e-324", "5e-324"},
    {RL_T_FLOAT8, "0.30000000000000004", "0.30000000000000004"},
    {RL_T_FLOAT8, "63722300397317984", "6.3722300397317984e+16"},
    {RL_T_FLOAT8, "1e400", "ERROR: \"1e400\" is out of range for type double precision"},
    {RL_T_FLOAT8, "x", "ERROR: invalid input syntax for type double precision: \"x\""},
    {RL_T_FLOAT4, "1e6", "1e+06"},
    {RL_T_FLOAT4, "123456", "123456"},
    {RL_T_FLOAT4, "0.1", "0.1"},
    {RL_T_FLOAT4, "3.4028235e38", "3.4028235e+38"},
    {RL_T_FLOAT4, "-208513408", "-2.0851341e+08"},
    {RL_T_FLOAT4, "1e40", "ERROR: \"1e40\" is out of range for type real"},
    {RL_T_NUMERIC, " -0.00 ", "0.00"},
    {RL_T_NUMERIC, "1.50e1", "15.0"},
    {RL_T_NUMERIC, "1.5e3", "1500"},
    {RL_T_NUMERIC, "+007.10", "7.10"},
    {RL_T_NUMERIC, ".5", "0.5"},
    {RL_T_NUMERIC, "5.", "5"},
    {RL_T_NUMERIC, "nan", "NaN"},
    {RL_T_NUMERIC, "-inf", "-Infinity"},
    {RL_T_NUMERIC, "1e-16384", "ERROR: value overflows numeric format"},
    {RL_T_NUMERIC, "x", "ERROR: invalid input syntax for type numeric: \"x\""},
    {RL_T_BOOL, "  TrU ", "t"},
    {RL_T_BOOL, "of", "f"},
    {RL_T_BOOL, "o", "ERROR: invalid input syntax for type boolean: \"o\""},
    {RL_T_BOOL, "1", "t"},
    {RL_T_UUID, "{A0EEBC99-9C0B4EF8-BB6D6BB9BD380A11}", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"},
    {RL_T_UUID, "a0eebc999c0b4ef8bb6d6bb9bd380a11", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"},
    {RL_T_UUID, "a0eeb-c999c0b4ef8bb6d6bb9bd380a11",
     "ERROR: invalid input syntax for type uuid: \"a0eeb-c999c0b4ef8bb6d6bb9bd380a11\""},
    {RL_T_BYTEA, "\\x ab CD", "\\xabcd"},
    {RL_T_BYTEA, "a\\\\b\\001\\377", "\\x615c6201ff"},
    {RL_T_BYTEA, "", "\\x"},
    {RL_T_BYTEA, "\\xabc", "ERROR: invalid hexadecimal data: odd number of digits"},
    {RL_T_BYTEA, "\\xzz", "ERROR: invalid hexadecimal digit: \"z\""},
    {RL_T_BYTEA, "\\400", "ERROR: invalid input syntax for type bytea"},
    {RL_T_DATE, "2024-01-02", "2024-01-02"},
    {RL_T_DATE, "0044-03-15 BC", "0044-03-15 BC"},
    {RL_T_DATE, "infinity", "infinity"},
    {RL_T_DATE, "1-2-24", "2024-01-02"},
    {RL_T_DATE, "2024-01-02 04:05:06", "2024-01-02"},
    {RL_T_DATE, "2024-02-30", "ERROR: date/time field value out of range: \"2024-02-30\""},
    {RL_T_DATE, "0000-01-01", "ERROR: date/time field value out of range: \"0000-01-01\""},
    {RL_T_DATE, "5874898-01-01", "ERROR: date out of range: \"5874898-01-01\""},
    {RL_T_DATE, "x", "ERROR: invalid input syntax for type date: \"x\""},
    {RL_T_TIME, "04:05:06.123450", "04:05:06.12345"},
    {RL_T_TIME, "23:59:59.9999999", "24:00:00"},
    {RL_T_TIME, "12:00:00.1234565", "12:00:00.123456"},
    {RL_T_TIME, "07:13.926", "00:07:13.926"},
    {RL_T_TIME, "2024-01-02 04:05:06+02", "04:05:06"},
    {RL_T_TIME, "24:00:01", "ERROR: date/time field value out of range: \"24:00:01\""},
    {RL_T_TIMETZ, "04:05:06+02", "04:05:06+02"},
    {RL_T_TIMETZ, "04:05:06-05:30:15", "04:05:06-05:30:15"},
    {RL_T_TIMETZ, "04:05:06", "04:05:06+00"},
    {RL_T_TIMETZ, "04:05+16", "ERROR: time zone displacement out of range: \"04:05+16\""},
    {RL_T_TIMESTAMP, "2024-01-02 03:04:05.5", "2024-01-02 03:04:05.5"},
    {RL_T_TIMESTAMP, "2024-01-02T03:04:05+02:30", "2024-01-02 03:04:05"},
    {RL_T_TIMESTAMP, "2024-01-02 24:00:00", "2024-01-03 00:00:00"},
    {RL_T_TIMESTAMP, "4714-11-24 00:00:00 BC", "4714-11-24 00:00:00 BC"},
    {RL_T_TIMESTAMP, "294276-12-31 23:59:59.999999", "294276-12-31 23:59:59.999999"},
    {RL_T_TIMESTAMP, "294277-01-01", "ERROR: timestamp out of range: \"294277-01-01\""},
    {RL_T_TIMESTAMP, "epoch", "1970-01-01 00:00:00"},
    {RL_T_TIMESTAMP, "-infinity", "-infinity"},
    {RL_T_TIMESTAMPTZ, "2024-01-02 03:04:05.5+02", "2024-01-02 01:04:05.5+00"},
    {RL_T_TIMESTAMPTZ, "2024-01-02T03:04:05Z", "2024-01-02 03:04:05+00"},
    {RL_T_TIMESTAMPTZ, "2024-01-02 03:04:05 -05", "2024-01-02 08:04:05+00"},
    {RL_T_TIMESTAMPTZ, "2024-01-02 03:04:05+0230", "2024-01-02 00:34:05+00"},
    {RL_T_TIMESTAMPTZ, "2000-06-18+05:30", "2000-06-17 18:30:00+00"},
    {RL_T_TIMESTAMPTZ, "0044-03-15 12:00 BC", "0044-03-15 12:00:00+00 BC"},
    {RL_T_TIMESTAMPTZ, "x",
     "ERROR: invalid input syntax for type timestamp with time zone: \"x\""},
    {RL_T_INTERVAL, "1 year 2 mons 3 days 04:05:06.5", "1 year 2 mons 3 days 04:05:06.5"},
    {RL_T_INTERVAL, "1 months 2 days 3 microseconds", "1 mon 2 days 00:00:00.000003"},
    {RL_T_INTERVAL, "-1 year -2 mons +3 days -04:05:06", "-1 years -2 mons +3 days -04:05:06"},
    {RL_T_INTERVAL, "-1 days", "-1 days"},
    {RL_T_INTERVAL, "0", "00:00:00"},
    {RL_T_INTERVAL, "5", "00:00:05"},
    {RL_T_INTERVAL, "04:05:06", "04:05:06"},
    {RL_T_INTERVAL, "1.5 days", "1 day 12:00:00"},
    {RL_T_INTERVAL, "1.5 months", "1 mon 15 days"},
    {RL_T_INTERVAL, "1.5 years", "1 year 6 mons"},
    {RL_T_INTERVAL, "0.5 weeks", "3 days 12:00:00"},
    {RL_T_INTERVAL, "1:30.5", "00:01:30.5"},
    {RL_T_INTERVAL, "1 day ago", "-1 days"},
    {RL_T_INTERVAL, "@ 1 hour", "01:00:00"},
    {RL_T_INTERVAL, "1 day -1 hours", "1 day -01:00:00"},
    {RL_T_INTERVAL, "1 centuries 1 decade 1 millennium", "1110 years"},
    {RL_T_INTERVAL, "-178956970 years -8 mons", "-178956970 years -8 mons"},
    {RL_T_INTERVAL, "2562047788:00:54.775807", "2562047788:00:54.775807"},
    {RL_T_INTERVAL, "1 year 1 year", "ERROR: invalid input syntax for type interval: \"1 year 1 year\""},
    {RL_T_INTERVAL, "2147483648 days",
     "ERROR: interval field value out of range: \"2147483648 days\""},
    {RL_T_INTERVAL, "x", "ERROR: invalid input syntax for type interval: \"x\""},
};

static void test_text_golden(void)
{
    for (size_t i = 0; i < sizeof golden / sizeof golden[0]; i++) {
        const char *got = text_via(golden[i].t, golden[i].in);
        if (strcmp(got, golden[i].want) != 0)
            fprintf(stderr, "  %s '%s': got \"%s\"\n", rl_type_name(golden[i].t), golden[i].in, got);
        CHECK_EQ_STR(got, golden[i].want);
    }
}

static void test_to_text_of_stored_values(void)
{
    rl_buf out;
    rl_buf_init(&out, 0);
    rl_datum d = null_datum();
    rl_datum_to_text(&out, RL_T_INT4, &d);
    CHECK_EQ_INT(out.len, 0); /* NULL prints nothing */
    d.isnull = false;
    d.v.timetz.us = 4 * 3600000000LL;
    d.v.timetz.zone = 19800; /* 5:30 west of UTC */
    rl_datum_to_text(&out, RL_T_TIMETZ, &d);
    CHECK_MEM(out.data, out.len, "04:00:00-05:30", 14);
    rl_buf_reset(&out);
    d.v.i = INT32_MIN;
    rl_datum_to_text(&out, RL_T_DATE, &d);
    CHECK_MEM(out.data, out.len, "-infinity", 9);
    rl_buf_reset(&out);
    d.v.interval.months = INT32_MIN;
    d.v.interval.days = 0;
    d.v.interval.us = INT64_MIN;
    rl_datum_to_text(&out, RL_T_INTERVAL, &d);
    const char *want = "-178956970 years -8 mons -2562047788:00:54.775808";
    CHECK_MEM(out.data, out.len, want, strlen(want));
    rl_buf_free(&out);
}

/* Property: integer text (rl_buf_put_i64, used for every int2/int4/int8/oid
 * in text results) is exactly printf's %lld, for edge values, powers of ten
 * and their neighbours, and random values of every magnitude. */
static void test_int_text_matches_printf(void)
{
    int64_t edge[] = {0, 1, -1, 9, 10, -10, INT64_MAX, INT64_MIN, INT64_MIN + 1, INT32_MAX,
                      INT32_MIN, 32767, -32768};
    uint64_t rng = tu_seed("integer text", 0x1234);
    rl_buf out;
    rl_buf_init(&out, 0);
    char want[32];
    for (int i = 0; i < 20000; i++) {
        int64_t v;
        if (i < (int)(sizeof edge / sizeof *edge)) {
            v = edge[i];
        } else if (i < 200) {
            int64_t p = 1;
            for (int k = 0; k < (i - 20) / 9 % 18; k++) p *= 10;
            v = (i % 3 - 1) + (i % 2 ? p : -p);
        } else {
            v = (int64_t)(tu_rand(&rng) >> (tu_rand(&rng) % 64));
            if (tu_rand(&rng) & 1) v = -v;
        }
        rl_buf_reset(&out);
        rl_buf_put_i64(&out, v);
        snprintf(want, sizeof want, "%lld", (long long)v);
        CHECK_MEM(out.data, out.len, want, strlen(want));
    }
    rl_buf_free(&out);
}

/* to_text(from_text(x)) read back gives the same datum, for random
 * datums of every type (so output is always valid input). */
static void test_text_round_trip(void)
{
    uint64_t rng = tu_seed("text round trip", 99);
    uint8_t pool[1024];
    for (size_t i = 0; i < sizeof pool; i++)
        pool[i] = (uint8_t)tu_rand(&rng);
    int failures = 0;
    for (int iter = 0; iter < 20000; iter++) {
        rl_type t = all_types[tu_rand(&rng) % NTYPES];
        if (t == RL_T_TEXT || t == RL_T_VARCHAR)
            continue; /* raw bytes; covered by the row tests */
        rl_datum d = random_datum(t, &rng, pool, sizeof pool);
        if (d.isnull)
            continue;
        /* keep dates and timestamps inside PostgreSQL's range, which is
         * all the text input accepts */
        if (t == RL_T_DATE && d.v.i != INT32_MAX && d.v.i != INT32_MIN)
            d.v.i = d.v.i % 2145031949;
        if (t == RL_T_DATE && d.v.i < -2451545)
            d.v.i = -2451545;
        if ((t == RL_T_TIMESTAMP || t == RL_T_TIMESTAMPTZ) && d.v.i != INT64_MAX &&
            d.v.i != INT64_MIN)
            d.v.i %= INT64_C(9223371331200000000); /* 294277-01-01 */
        if ((t == RL_T_TIMESTAMP || t == RL_T_TIMESTAMPTZ) && d.v.i < INT64_C(-211813488000000000) &&
            d.v.i != INT64_MIN)
            d.v.i = INT64_C(-211813488000000000);
        if (t == RL_T_INTERVAL && d.v.interval.us == INT64_MIN)
            d.v.interval.us++;
        rl_buf text, arena;
        rl_buf_init(&text, 0);
        rl_buf_init(&arena, 0);
        rl_datum_to_text(&text, t, &d);
        rl_datum back;
        char err[300];
        bool ok = rl_datum_from_text(t, (const char *)text.data, text.len, &back, &arena, err,
                                     sizeof err) == RL_CODEC_OK;
        if (ok && t == RL_T_FLOAT8 && isnan(d.v.f))
            ok = isnan(back.v.f); /* NaN payload is not textual */
        else if (ok && t == RL_T_FLOAT4 && isnan(d.v.f))
            ok = isnan(back.v.f);
        else if (ok)
            ok = datum_same(t, &d, &back);
        if (!ok && ++failures < 5)
            fprintf(stderr, "  %s: \"%.*s\" did not read back (%s)\n", rl_type_name(t),
                    (int)text.len, (char *)text.data, err);
        rl_buf_free(&text);
        rl_buf_free(&arena);
    }
    CHECK_EQ_INT(failures, 0);
}

static void test_string_input_keeps_bytes(void)
{
    rl_buf arena;
    rl_buf_init(&arena, 0);
    rl_datum d;
    char err[100];
    CHECK_EQ_INT(rl_datum_from_text(RL_T_TEXT, "a\0b", 3, &d, &arena, err, sizeof err), RL_CODEC_OK);
    CHECK_MEM(d.v.s.p, d.v.s.len, "a\0b", 3);
    CHECK_EQ_INT(rl_datum_from_text(RL_T_INT4, "1\0002", 3, &d, &arena, err, sizeof err),
                 RL_CODEC_ERR_INVALID);
    rl_buf_free(&arena);
}

/* ---- ordering ---- */

static int compare_text(rl_type t, const char *a, const char *b)
{
    rl_buf arena_a, arena_b;
    rl_buf_init(&arena_a, 0);
    rl_buf_init(&arena_b, 0);
    rl_datum da, db;
    char err[200];
    int r = 99;
    if (rl_datum_from_text(t, a, strlen(a), &da, &arena_a, err, sizeof err) == RL_CODEC_OK &&
        rl_datum_from_text(t, b, strlen(b), &db, &arena_b, err, sizeof err) == RL_CODEC_OK)
        r = rl_datum_compare(t, &da, &db);
    rl_buf_free(&arena_a);
    rl_buf_free(&arena_b);
    return r;
}

/* Property: rl_datum_equality_key (the bytes of a unique index entry) is
 * the same for two datums exactly when rl_datum_compare finds them equal:
 * hand-picked values that PostgreSQL's btree equates in another spelling,
 * and random ints, floats (NaN payloads, -0) and intervals. */
static bool equal_keys(rl_type t, const rl_datum *a, const rl_datum *b)
{
    rl_buf ka, kb;
    rl_buf_init(&ka, 0);
    rl_buf_init(&kb, 0);
    rl_datum_equality_key(&ka, t, a);
    rl_datum_equality_key(&kb, t, b);
    bool same = !ka.failed && !kb.failed && ka.len == kb.len &&
                (ka.len == 0 || memcmp(ka.data, kb.data, ka.len) == 0);
    rl_buf_free(&ka);
    rl_buf_free(&kb);
    return same;
}

static void test_equality_keys_follow_compare(void)
{
    static const struct { rl_type t; const char *v[8]; } pools[] = {
        {RL_T_NUMERIC, {"1", "1.0", "1.000", "-0.0", "0", "0.00", "10", "NaN"}},
        {RL_T_NUMERIC, {"-1.50", "-1.5", "Infinity", "-Infinity", "100", "1e2", "0.1", "0.10"}},
        {RL_T_FLOAT8, {"0", "-0", "NaN", "1", "1.0", "Infinity", "-Infinity", "1e-320"}},
        {RL_T_FLOAT4, {"0", "-0", "NaN", "1.5", "1.50", "3.4e38", "-1", "Infinity"}},
        {RL_T_INTERVAL, {"1 day", "24 hours", "1440 minutes", "1 mon", "30 days", "720 hours",
                         "-1 day", "1 day -1 microsecond"}},
        {RL_T_TIMETZ, {"12:00+01", "11:00+00", "12:00+01:00", "10:00-01", "11:00", "00:00+00",
                       "24:00+00", "00:00+14"}},
        {RL_T_TIMESTAMPTZ, {"2024-01-01 01:00+01", "2024-01-01 00:00+00", "2024-01-01 00:00:00.000001+00",
                            "infinity", "-infinity", "2023-12-31 23:00-01", "2024-01-01", "2000-01-01 00:00+00"}},
        {RL_T_TEXT, {"a", "a ", "A", "", "ab", "a\\x00", "\xc3\xa9", "e\xcc\x81"}},
        /* character(n): trailing blanks are no part of the value's key */
        {RL_T_BPCHAR, {"a", "a ", "a   ", "", "  ", " a", "a\x01", "a\x01 "}},
        {RL_T_BYTEA, {"\\x", "\\x00", "\\x0000", "\\x61", "a", "\\x41", "\\xff", "\\xfe"}},
        {RL_T_UUID, {"00000000-0000-0000-0000-000000000001", "{00000000-0000-0000-0000-000000000001}",
                     "00000000000000000000000000000001", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11",
                     "A0EEBC99-9C0B-4EF8-BB6D-6BB9BD380A11", NULL}},
        {RL_T_BOOL, {"t", "true", "yes", "f", "off", NULL}},
        {RL_T_DATE, {"2024-01-02", "2024-1-2", "infinity", "-infinity", "2024-01-03", NULL}},
    };
    int failures = 0;
    for (size_t p = 0; p < sizeof pools / sizeof pools[0]; p++) {
        rl_datum d[8];
        rl_buf arena[8];
        size_t n = 0;
        char err[200];
        for (size_t i = 0; i < 8 && pools[p].v[i]; i++) {
            rl_buf_init(&arena[n], 0);
            if (rl_datum_from_text(pools[p].t, pools[p].v[i], strlen(pools[p].v[i]), &d[n],
                                   &arena[n], err, sizeof err) != RL_CODEC_OK) {
                fprintf(stderr, "  %s: '%s' does not parse: %s\n", rl_type_name(pools[p].t),
                        pools[p].v[i], err);
                failures++;
            }
            n++;
        }
        for (size_t i = 0; i < n; i++)
            for (size_t j = 0; j < n; j++) {
                bool eq = rl_datum_compare(pools[p].t, &d[i], &d[j]) == 0;
                if (eq != equal_keys(pools[p].t, &d[i], &d[j])) {
                    fprintf(stderr, "  %s: '%s' vs '%s': compare %s, keys %s\n",
                            rl_type_name(pools[p].t), pools[p].v[i], pools[p].v[j],
                            eq ? "equal" : "differ", eq ? "differ" : "equal");
                    failures++;
                }
            }
        for (size_t i = 0; i < n; i++)
            rl_buf_free(&arena[i]);
    }
    uint64_t rng = tu_seed("equality keys", 0xe9);
    for (int i = 0; i < 20000; i++) {
        rl_datum a = {0}, b = {0};
        rl_type t = i % 3 == 0 ? RL_T_FLOAT8 : i % 3 == 1 ? RL_T_INTERVAL : RL_T_INT8;
        if (t == RL_T_FLOAT8) {
            a.v.f = random_double(&rng);
            b.v.f = i % 2 ? a.v.f : random_double(&rng);
            if (i % 5 == 0) { /* NaN payloads and signs, -0 */
                uint64_t bits;
                memcpy(&bits, &a.v.f, 8);
                bits ^= (i % 10 == 0) ? 0x8000000000000000ULL : 1;
                memcpy(&b.v.f, &bits, 8);
            }
        } else if (t == RL_T_INTERVAL) {
            a.v.interval.months = (int32_t)(tu_rand(&rng) % 5);
            a.v.interval.days = (int32_t)(tu_rand(&rng) % 70) - 10;
            a.v.interval.us = (int64_t)(tu_rand(&rng) % 5) * 86400000000LL;
            b.v.interval.months = (int32_t)(tu_rand(&rng) % 5);
            b.v.interval.days = (int32_t)(tu_rand(&rng) % 70) - 10;
            b.v.interval.us = (int64_t)(tu_rand(&rng) % 5) * 86400000000LL;
        } else {
            a.v.i = random_int(&rng);
            b.v.i = i % 2 ? a.v.i : random_int(&rng);
        }
        bool eq = rl_datum_compare(t, &a, &b) == 0;
        if (eq != equal_keys(t, &a, &b) && failures++ < 10)
            fprintf(stderr, "  random %s #%d: compare %s, keys disagree\n", rl_type_name(t), i,
                    eq ? "equal" : "differ");
    }
    CHECK_EQ_INT(failures, 0);
}

static void test_compare_like_postgres(void)
{
    /* each: a < b in PostgreSQL (checked with psql: select a < b) */
    static const struct { rl_type t; const char *a, *b; } less[] = {
        {RL_T_INT8, "-9223372036854775808", "-1"},
        {RL_T_INT2, "-1", "0"},
        {RL_T_FLOAT8, "-Infinity", "-1e308"},
        {RL_T_FLOAT8, "Infinity", "NaN"},
        {RL_T_FLOAT4, "1", "NaN"},
        {RL_T_NUMERIC, "-10", "-9.99"},
        {RL_T_NUMERIC, "9.99", "10"},
        {RL_T_NUMERIC, "0.001", "0.01"},
        {RL_T_NUMERIC, "-Infinity", "-1e100"},
        {RL_T_NUMERIC, "1e100", "Infinity"},
        {RL_T_NUMERIC, "Infinity", "NaN"},
        {RL_T_TEXT, "ab", "abc"},
        {RL_T_TEXT, "B", "a"},
        {RL_T_BPCHAR, "a   ", "a\x01"}, /* the blanks are stripped before comparing */
        {RL_T_BPCHAR, "", "\x01"},
        {RL_T_BYTEA, "\\x00", "\\x0000"},
        {RL_T_BYTEA, "\\x7f", "\\x80"},
        {RL_T_BOOL, "false", "true"},
        {RL_T_UUID, "00000000-0000-0000-0000-000000000001", "80000000-0000-0000-0000-000000000000"},
        {RL_T_DATE, "-infinity", "4714-11-24 BC"},
        {RL_T_DATE, "2024-01-02", "infinity"},
        {RL_T_TIME, "00:00", "24:00"},
        {RL_T_TIMETZ, "12:00+02", "11:00+00"},   /* 10:00 UTC < 11:00 UTC */
        {RL_T_TIMETZ, "12:00+01", "11:00+00"},   /* same instant: larger zone west first */
        {RL_T_TIMESTAMP, "0044-03-15 BC", "0001-01-01"},
        {RL_T_TIMESTAMPTZ, "2024-01-02 03:00+02", "2024-01-02 02:00+00"},
        {RL_T_INTERVAL, "1 day", "25 hours"},
        {RL_T_INTERVAL, "29 days", "1 mon"},
        {RL_T_INTERVAL, "-1 year", "0"},
    };
    for (size_t i = 0; i < sizeof less / sizeof less[0]; i++) {
        int ab = compare_text(less[i].t, less[i].a, less[i].b);
        int ba = compare_text(less[i].t, less[i].b, less[i].a);
        if (ab != -1 || ba != 1)
            fprintf(stderr, "  %s: '%s' vs '%s' gave %d/%d\n", rl_type_name(less[i].t), less[i].a,
                    less[i].b, ab, ba);
        CHECK(ab < 0 && ab != 99);
        CHECK(ba > 0 && ba != 99);
    }
    /* equal in PostgreSQL despite different spellings */
    CHECK_EQ_INT(compare_text(RL_T_NUMERIC, "1.50", "1.5"), 0);
    CHECK_EQ_INT(compare_text(RL_T_NUMERIC, "-0.00", "0"), 0);
    CHECK_EQ_INT(compare_text(RL_T_FLOAT8, "-0", "0"), 0);
    CHECK_EQ_INT(compare_text(RL_T_FLOAT8, "NaN", "nan"), 0);
    CHECK_EQ_INT(compare_text(RL_T_INTERVAL, "1 mon", "30 days"), 0);
    CHECK_EQ_INT(compare_text(RL_T_INTERVAL, "1 day", "24:00:00"), 0);
}

/* Each input error carries its SQLSTATE with its message (rl_datum_input):
 * the SQL layer forwards both and never reads the message. */
static void test_input_sqlstates(void)
{
    static const struct { rl_type t; const char *in, *state, *msg; } cases[] = {
        {RL_T_INT4, "abc", "22P02", "invalid input syntax for type integer: \"abc\""},
        {RL_T_INT2, "40000", "22003", "value \"40000\" is out of range for type smallint"},
        {RL_T_FLOAT8, "1e999", "22003", "\"1e999\" is out of range for type double precision"},
        {RL_T_BOOL, "maybe", "22P02", "invalid input syntax for type boolean: \"maybe\""},
        {RL_T_DATE, "nope", "22007", "invalid input syntax for type date: \"nope\""},
        {RL_T_DATE, "2024-02-30", "22008", "date/time field value out of range: \"2024-02-30\""},
        {RL_T_INTERVAL, "1 fortnight", "22007", "invalid input syntax for type interval: \"1 fortnight\""},
        {RL_T_TIMESTAMP, "x", "22007", "invalid input syntax for type timestamp: \"x\""},
        {RL_T_BYTEA, "\\xzz", "22P02", "invalid hexadecimal digit: \"z\""},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rl_buf arena;
        rl_buf_init(&arena, 0);
        rl_datum d;
        char err[256] = "";
        const char *state = "unset";
        rl_codec_status st = rl_datum_input(cases[i].t, cases[i].in, strlen(cases[i].in), &d,
                                            &arena, err, sizeof err, &state);
        CHECK(st != RL_CODEC_OK);
        CHECK(state != NULL);
        CHECK_EQ_STR(state ? state : "(null)", cases[i].state);
        CHECK_EQ_STR(err, cases[i].msg);
        rl_buf_free(&arena);
    }
    rl_datum d;
    const char *state = "unset";
    CHECK(rl_datum_input(RL_T_INT8, "42", 2, &d, NULL, NULL, 0, &state) == RL_CODEC_OK);
    CHECK(state == NULL);
    CHECK_EQ_INT(d.v.i, 42);
}

/* typsend then typreceive gives the datum back, for every type. */
static void test_binary_round_trip(void)
{
    uint64_t rng = 7;
    uint8_t pool[1024];
    for (size_t i = 0; i < sizeof pool; i++)
        pool[i] = (uint8_t)tu_rand(&rng);
    int failures = 0;
    for (int iter = 0; iter < 20000; iter++) {
        rl_type t = all_types[tu_rand(&rng) % NTYPES];
        rl_datum d = random_datum(t, &rng, pool, sizeof pool);
        if (d.isnull)
            continue;
        rl_buf bin, arena;
        rl_buf_init(&bin, 0);
        rl_buf_init(&arena, 0);
        bool ok = rl_datum_to_binary(&bin, t, &d) && !bin.failed;
        rl_datum back;
        char err[256] = "";
        if (ok)
            ok = rl_datum_from_binary(t, bin.data, bin.len, &back, &arena, err, sizeof err,
                                      NULL) == RL_CODEC_OK;
        if (ok && (t == RL_T_FLOAT4 || t == RL_T_FLOAT8) && isnan(d.v.f))
            ok = isnan(back.v.f);
        else if (ok)
            ok = datum_same(t, &d, &back);
        if (!ok && ++failures < 5)
            fprintf(stderr, "  %s: binary did not read back (%s)\n", rl_type_name(t), err);
        rl_buf_free(&bin);
        rl_buf_free(&arena);
    }
    CHECK_EQ_INT(failures, 0);
}

/* typreceive's errors: PostgreSQL's messages and SQLSTATEs. */
static void test_binary_input_errors(void)
{
    static const uint8_t three[3] = {0, 0, 1}, five[5] = {0, 0, 0, 0, 1};
    static const uint8_t bad_sign[8] = {0, 0, 0, 0, 0x12, 0x34, 0, 0};
    static const uint8_t late[8] = {0, 0x14, 0, 0, 0, 0, 0, 0}; /* past 24:00 */
    static const struct { rl_type t; const uint8_t *p; size_t n; const char *state, *msg; } cases[] = {
        {RL_T_INT4, three, 3, "08P01", "insufficient data left in message"},
        {RL_T_INT4, five, 5, "22P03", "incorrect binary data format"},
        {RL_T_BOOL, five, 2, "22P03", "incorrect binary data format"},
        {RL_T_NUMERIC, bad_sign, 8, "22P03", "invalid sign in external \"numeric\" value"},
        {RL_T_TIME, late, 8, "22008", "time out of range"},
    };
    for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
        rl_buf arena;
        rl_buf_init(&arena, 0);
        rl_datum d;
        char err[256] = "";
        const char *state = NULL;
        CHECK(rl_datum_from_binary(cases[i].t, cases[i].p, cases[i].n, &d, &arena, err,
                                   sizeof err, &state) != RL_CODEC_OK);
        CHECK_EQ_STR(state ? state : "(null)", cases[i].state);
        CHECK_EQ_STR(err, cases[i].msg);
        rl_buf_free(&arena);
    }
}

/* rl_utf8_clip (identifiers cut to 63 bytes, pg_stat_activity's query
 * text): n bytes cut back to a whole character, the whole string when it
 * is not longer, and never a read past byte n + 1 (the string below has no
 * terminator after the bytes it is asked about: ASan would see it). */
static void test_utf8_clip(void)
{
    static const char *const chars[] = {"a", "\xc3\xa9", "\xe2\x82\xac", "\xf0\x9f\x98\x80"};
    char s[64];
    for (int round = 0; round < 200; round++) {
        size_t len = 0, ends[64], nends = 0;
        ends[nends++] = 0;
        while (len < 40) {
            const char *c = chars[(unsigned)(round * 7 + len * 3) % 4];
            memcpy(s + len, c, strlen(c));
            len += strlen(c);
            ends[nends++] = len;
        }
        s[len] = '\0';
        for (size_t n = 0; n <= len + 2; n++) {
            size_t want = 0;
            for (size_t i = 0; i < nends; i++)
                if (ends[i] <= n)
                    want = ends[i];
            CHECK_EQ_INT(rl_utf8_clip(s, n), n >= len ? len : want);
        }
    }
    char *bare = malloc(8); /* "abcdefgh" with no NUL: clipping to 6 reads 7 at most */
    memcpy(bare, "abcdefgh", 8);
    CHECK_EQ_INT(rl_utf8_clip(bare, 6), 6);
    free(bare);
}

int main(void)
{
    RUN(test_utf8_clip);
    RUN(test_edge_values_round_trip);
    RUN(test_random_rows_round_trip);
    RUN(test_all_null_and_wide_rows);
    RUN(test_field_size_limits);
    RUN(test_encoder_rejects_bad_datums);
    RUN(test_older_row_gets_defaults);
    RUN(test_header_errors);
    RUN(test_bad_field_contents);
    RUN(test_every_truncation_fails);
    RUN(test_random_corruption_never_crashes);
    RUN(test_type_names);
    RUN(test_text_golden);
    RUN(test_to_text_of_stored_values);
    RUN(test_int_text_matches_printf);
    RUN(test_text_round_trip);
    RUN(test_string_input_keeps_bytes);
    RUN(test_compare_like_postgres);
    RUN(test_equality_keys_follow_compare);
    RUN(test_input_sqlstates);
    RUN(test_binary_round_trip);
    RUN(test_binary_input_errors);
    return tu_finish();
}
