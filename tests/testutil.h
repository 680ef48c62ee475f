/*
 * testutil.h — the tiny test harness every C test binary uses.
 *
 * Owns: CHECK/CHECK_EQ macros that count failures instead of aborting, a
 * TEST() registry-free convention (each test is a plain function called from
 * main), and the closing line "N passed, N failed" that tests/run.sh adds up.
 * A test "passes" when it ran without a failed CHECK.
 */
#ifndef ROCKLAKE_TESTUTIL_H
#define ROCKLAKE_TESTUTIL_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int tu_passed, tu_failed, tu_cur_failed;
static const char *tu_cur_name;

#define CHECK(cond)                                                          \
    do {                                                                     \
        if (!(cond)) {                                                       \
            fprintf(stderr, "  FAIL %s:%d in %s: %s\n", __FILE__, __LINE__,  \
                    tu_cur_name, #cond);                                     \
            tu_cur_failed++;                                                 \
        }                                                                    \
    } while (0)

#define CHECK_EQ_INT(a, b)                                                   \
    do {                                                                     \
        long long tu_a = (long long)(a), tu_b = (long long)(b);              \
        if (tu_a != tu_b) {                                                  \
            fprintf(stderr, "  FAIL %s:%d in %s: %s == %s (%lld != %lld)\n", \
                    __FILE__, __LINE__, tu_cur_name, #a, #b, tu_a, tu_b);    \
            tu_cur_failed++;                                                 \
        }                                                                    \
    } while (0)

#define CHECK_EQ_STR(a, b)                                                   \
    do {                                                                     \
        const char *tu_a = (a), *tu_b = (b);                                 \
        if (!tu_a || !tu_b || strcmp(tu_a, tu_b) != 0) {                     \
            fprintf(stderr, "  FAIL %s:%d in %s: %s == %s (\"%s\" != \"%s\")\n", \
                    __FILE__, __LINE__, tu_cur_name, #a, #b,                 \
                    tu_a ? tu_a : "(null)", tu_b ? tu_b : "(null)");         \
            tu_cur_failed++;                                                 \
        }                                                                    \
    } while (0)

#define CHECK_MEM(a, alen, b, blen)                                          \
    CHECK((size_t)(alen) == (size_t)(blen) && memcmp((a), (b), (alen)) == 0)

/* Run one test function and record its verdict. */
#define RUN(fn)                                                              \
    do {                                                                     \
        tu_cur_name = #fn;                                                   \
        tu_cur_failed = 0;                                                   \
        fn();                                                                \
        if (tu_cur_failed) {                                                 \
            tu_failed++;                                                     \
            fprintf(stderr, "not ok - %s\n", #fn);                           \
        } else {                                                             \
            tu_passed++;                                                     \
            fprintf(stderr, "ok - %s\n", #fn);                               \
        }                                                                    \
    } while (0)

/* Print the closing line and return the process exit status. */
static inline int tu_finish(void)
{
    printf("%d passed, %d failed\n", tu_passed, tu_failed);
    return tu_failed ? 1 : 0;
}

/* Deterministic PRNG (splitmix64) so property tests reproduce from a seed. */
static inline uint64_t tu_rand(uint64_t *state)
{
    uint64_t z = (*state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

#endif
