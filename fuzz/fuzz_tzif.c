// fuzz-sources: src/pgtype/tzif.c
/*
 * fuzz_tzif.c — libFuzzer target for the TZif reader and the POSIX TZ
 * parser (src/pgtype/tzif.c): the bytes of a zone file (a damaged or
 * hostile /usr/share/zoneinfo) and a TZ spec a client sends in
 * SET TimeZone.
 *
 * Properties checked (abort on violation):
 *  - parsing never crashes or reads out of bounds (ASan); a refused file
 *    says why;
 *  - an accepted zone answers, at instants across PostgreSQL's range, an
 *    offset within a week and an abbreviation shorter than 32 bytes;
 *  - a wall-clock time's offset is one of the zone's (the offset in force a
 *    day before or after it), so converting there and back moves a time by
 *    at most the difference of two offsets: two weeks (a damaged file may
 *    switch between +13:45 and -7 days: the round trip of a wall-clock time
 *    near such a switch lands in the other offset; real zones differ by
 *    hours);
 *  - the same for the input read as a POSIX TZ spec.
 */
#include "pgtype/tzif.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define WEEK (7 * 24 * 3600)

static void fail(const char *what)
{
    fprintf(stderr, "fuzz_tzif: %s\n", what);
    abort();
}

/* Instants from 4713 BC to 294276 AD (unix seconds), and some near 1970,
 * 2038 and the transitions a small file may hold. */
static const int64_t instants[] = {
    INT64_C(-210866803200), INT64_C(-62135596800), -2208988800, -1, 0, 1, 1711846800,
    2147483647,             2147483648,            4102444800,  INT64_C(16725225600),
    INT64_C(9224318015999),
};

static void check_zone(const rl_tz *tz)
{
    for (size_t i = 0; i < sizeof instants / sizeof instants[0]; i++) {
        int64_t t = instants[i];
        bool dst;
        const char *abbrev = NULL;
        int32_t east = rl_tz_offset_at(tz, t, &dst, &abbrev);
        if (east > WEEK || east < -WEEK)
            fail("an offset past a week");
        if (!abbrev || strnlen(abbrev, 32) == 32)
            fail("an abbreviation without its end");
        int32_t back = rl_tz_offset_of_local(tz, t + east, NULL);
        if (back > WEEK || back < -WEEK)
            fail("a wall-clock time's offset past a week");
        int64_t us = (t - INT64_C(946684800)) * 1000000;
        int64_t local = rl_tz_utc_to_local_us(tz, us, NULL);
        int64_t again = rl_tz_local_to_utc_us(tz, local, NULL);
        if (again - us > 2 * (int64_t)WEEK * 1000000 || us - again > 2 * (int64_t)WEEK * 1000000)
            fail("a round trip moved by more than two offsets apart");
    }
    if (!rl_tz_name(tz))
        fail("a zone without a name");
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char err[128] = "";
    rl_tz *tz = rl_tz_parse(data, size, "fuzz", err, sizeof err);
    if (tz) {
        check_zone(tz);
        rl_tz_free(tz);
    } else if (!err[0]) {
        fail("a refused file without a reason");
    }
    if (size < 256) {
        char spec[256];
        memcpy(spec, data, size);
        spec[size] = '\0';
        rl_tz *p = rl_tz_from_posix(spec, NULL);
        if (p) {
            check_zone(p);
            rl_tz_free(p);
        }
    }
    return 0;
}
