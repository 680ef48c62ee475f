// fuzz-sources: src/pgtype/numfmt.c src/base/buf.c
/*
 * fuzz_numfmt.c — libFuzzer target for the numeric format patterns
 * (src/pgtype/numfmt.c): the input is a pattern, optionally followed by a
 * NUL byte and text for to_number.
 *
 * Properties checked (abort on violation):
 *  - parsing, laying out and reading never crash or read out of bounds
 *    (ASan); a refused pattern says why with a SQLSTATE;
 *  - to_char's text of int4, int8, float and numeric digits stays linear in
 *    the pattern (at most 16 bytes a pattern byte, plus a constant);
 *  - to_number's reading is a sign slot then only digits and at most one
 *    point, never more digits than the text held.
 */
#include "pgtype/numfmt.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fail(const char *what)
{
    fprintf(stderr, "fuzz_numfmt: %s\n", what);
    abort();
}

static const int64_t ints[] = {0, 1, -1, 7, 485, -485, 3999, 4000, 2147483647, -2147483648LL,
                               INT64_MAX, INT64_MIN};
static const double floats[] = {0.0, 1.5, -0.1, 2.5, 1e300, -1e-300, 123456.789};
static const char *const numerics[] = {"0", "12.345", "-0.001", "NaN", "Infinity", "-Infinity",
                                       "99999999999999999999.5"};

/* Parse afresh (the layout changes the description), lay out one value. */
static void render_one(const char *fmt, size_t len, int kind, size_t i)
{
    rl_numfmt f;
    rl_numfmt_error err;
    rl_numfmt_digits d = {0};
    if (rl_numfmt_parse(fmt, len, &f, &err) < 0) {
        if (!err.sqlstate || strlen(err.sqlstate) != 5 || !err.msg[0])
            fail("a refusal without its SQLSTATE or message");
        rl_numfmt_free(&f);
        return;
    }
    int rc;
    if (kind == 0)
        rc = rl_numfmt_digits_int4(&f, (int32_t)ints[i % 10], &d, &err);
    else if (kind == 1)
        rc = rl_numfmt_digits_int8(&f, ints[i], &d, &err);
    else if (kind == 2)
        rc = rl_numfmt_digits_float(&f, floats[i], i % 2 == 0, &d, &err);
    else
        rc = rl_numfmt_digits_numeric(&f, numerics[i], strlen(numerics[i]), (int32_t)i, &d, &err);
    if (rc == 0) {
        rl_buf out;
        rl_buf_init(&out, 0);
        if (rl_numfmt_render(&f, &d, &out, &err) == 0 && !out.failed &&
            out.len > 16 * len + 400)
            fail("to_char's text grew faster than its pattern");
        rl_buf_free(&out);
    }
    rl_numfmt_digits_free(&d);
    rl_numfmt_free(&f);
}

static void read_one(const char *fmt, size_t len, const char *in, size_t ilen)
{
    rl_numfmt f;
    rl_numfmt_error err;
    if (rl_numfmt_parse(fmt, len, &f, &err) == 0) {
        rl_buf out;
        rl_buf_init(&out, 0);
        if (rl_numfmt_read(&f, in, ilen, &out, &err) == 0 && !out.failed) {
            if (out.len < 1 || out.len > ilen + 1)
                fail("to_number read more than its text");
            if (!strchr(" +-", out.data[0]))
                fail("to_number's sign slot holds no sign");
            int dots = 0;
            for (size_t k = 1; k < out.len; k++) {
                if (out.data[k] == '.')
                    dots++;
                else if (out.data[k] < '0' || out.data[k] > '9')
                    fail("to_number read a byte that is no digit");
            }
            if (dots > 1)
                fail("to_number read two points");
        }
        rl_buf_free(&out);
    }
    rl_numfmt_free(&f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096)
        return 0;
    const char *s = (const char *)data;
    const char *nul = memchr(s, '\0', size);
    size_t flen = nul ? (size_t)(nul - s) : size;
    for (size_t i = 0; i < sizeof ints / sizeof ints[0]; i++)
        render_one(s, flen, 1, i);
    for (size_t i = 0; i < 10; i++)
        render_one(s, flen, 0, i);
    for (size_t i = 0; i < sizeof floats / sizeof floats[0]; i++)
        render_one(s, flen, 2, i);
    for (size_t i = 0; i < sizeof numerics / sizeof numerics[0]; i++)
        render_one(s, flen, 3, i);
    if (nul)
        read_one(s, flen, nul + 1, size - flen - 1);
    return 0;
}
