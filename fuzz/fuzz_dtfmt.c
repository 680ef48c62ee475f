// fuzz-sources: src/pgtype/dtfmt.c src/pgtype/pgtype.c src/pgtype/tzif.c src/keys/codec.c src/base/buf.c src/base/error.c
/*
 * fuzz_dtfmt.c — libFuzzer target for the date/time template patterns
 * (src/pgtype/dtfmt.c): the input is a pattern, optionally followed by a
 * NUL byte and text for to_timestamp.
 *
 * Properties checked (abort on violation):
 *  - parsing, to_char and the reading never crash or read out of bounds
 *    (ASan);
 *  - to_char's text of times across the calendar (BC, leap days, ISO year
 *    ends, far future) stays linear in the pattern (16 bytes a pattern byte);
 *  - a reading that succeeds gives a month 1..12, a day 1..31, a time of day
 *    within the day and a zone within ±16 h; one that fails has a SQLSTATE.
 */
#include "pgtype/dtfmt.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fail(const char *what)
{
    fprintf(stderr, "fuzz_dtfmt: %s\n", what);
    abort();
}

static const rl_dtfmt_tm times[] = {
    {2024, 2, 29, 23, 59, 59, 4, 60, 999999, 19800, "IST"},
    {-43, 3, 15, 0, 0, 0, 5, 74, 0, 0, NULL},
    {0, 1, 1, 12, 0, 0, 6, 1, 1, -36000, "-10"},
    {2020, 12, 31, 1, 2, 3, 4, 366, 5, 0, "UTC"},
    {294276, 12, 31, 11, 11, 11, 0, 366, 123456, -16200, ""},
};

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 4096)
        return 0;
    const char *s = (const char *)data;
    const char *nul = memchr(s, '\0', size);
    size_t flen = nul ? (size_t)(nul - s) : size;
    rl_dtfmt f;
    if (rl_dtfmt_parse(s, flen, &f) < 0)
        return 0;
    for (size_t i = 0; i < sizeof times / sizeof times[0]; i++) {
        rl_buf out;
        rl_buf_init(&out, 0);
        if (rl_dtfmt_to_char(&f, &times[i], &out) == 0 && out.len > 16 * flen + 64)
            fail("to_char's text grew faster than its pattern");
        rl_buf_free(&out);
    }
    if (nul) {
        rl_dtfmt_result r;
        rl_dtfmt_error err;
        if (rl_dtfmt_from_char(&f, nul + 1, size - flen - 1, &r, &err) == 0) {
            if (r.mon < 1 || r.mon > 12 || r.mday < 1 || r.mday > 31)
                fail("a date read past its calendar");
            if (r.hour < 0 || r.hour > 23 || r.min < 0 || r.min > 59 || r.sec < 0 || r.sec > 59 ||
                r.fsec < 0 || r.fsec > 999999)
                fail("a time read past its day");
            if (r.has_tz && (r.tz_east > 16 * 3600 || r.tz_east < -16 * 3600))
                fail("a zone read past 16 hours");
        } else if (!err.sqlstate || strlen(err.sqlstate) != 5) {
            fail("a refusal without its SQLSTATE");
        }
    }
    rl_dtfmt_free(&f);
    return 0;
}
