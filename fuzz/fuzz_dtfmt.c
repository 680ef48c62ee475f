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
 *    ends, far future, intervals of either sign) stays linear in the pattern
 *    (24 bytes a pattern byte);
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
    {.year = 2024, .mon = 2, .mday = 29, .hour = 23, .min = 59, .sec = 59, .wday = 4, .yday = 60,
     .fsec = 999999, .gmtoff = 19800, .tzn = "IST"},
    {.year = -43, .mon = 3, .mday = 15, .wday = 5, .yday = 74},
    {.year = 0, .mon = 1, .mday = 1, .hour = 12, .wday = 6, .yday = 1, .gmtoff = -36000,
     .tzn = "-10"},
    {.year = 2020, .mon = 12, .mday = 31, .hour = 1, .min = 2, .sec = 3, .wday = 4, .yday = 366,
     .fsec = 5, .tzn = "UTC"},
    {.year = 294276, .mon = 12, .mday = 31, .hour = 11, .min = 11, .sec = 11, .yday = 366,
     .fsec = 123456, .gmtoff = -16200, .tzn = ""},
    /* intervals: any sign, hours past a day, months 0 */
    {.year = -178000000, .mon = -11, .mday = -2147483647, .hour = -2562047788, .min = -59,
     .sec = -59, .fsec = -999999, .yday = -2147483647, .is_interval = true},
    {.year = 3, .mon = 0, .mday = 40, .hour = 100, .min = 5, .sec = 6, .fsec = 7, .yday = 1120,
     .is_interval = true},
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
        rl_dtfmt_error err;
        if (rl_dtfmt_to_char(&f, &times[i], &out, &err) == 0 && out.len > 24 * flen + 64)
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
