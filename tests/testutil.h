/*
 * testutil.h — the tiny test harness every C test binary uses.
 *
 * Owns: CHECK/CHECK_EQ macros that count failures instead of aborting, a
 * TEST() registry-free convention (each test is a plain function called from
 * main), and the closing line "N passed, N failed, N skipped" that
 * tests/run.sh adds up. A test "passes" when it ran at least one CHECK and
 * none failed; TU_SKIP("reason") skips it, printing the reason; a test that
 * returns without running a CHECK or TU_SKIP (an early return) fails.
 * Random tests take their seed from tu_seed(), which prints it and reads
 * ROCKLAKE_TEST_SEED to reproduce a run.
 */
#ifndef ROCKLAKE_TESTUTIL_H
#define ROCKLAKE_TESTUTIL_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int tu_passed, tu_failed, tu_skipped, tu_cur_failed, tu_cur_checks;
static const char *tu_cur_name;
static const char *tu_cur_skip; /* the reason, once the current test skipped */

#define CHECK(cond)                                                          \
    do {                                                                     \
        tu_cur_checks++;                                                     \
        if (!(cond)) {                                                       \
            fprintf(stderr, "  FAIL %s:%d in %s: %s\n", __FILE__, __LINE__,  \
                    tu_cur_name, #cond);                                     \
            tu_cur_failed++;                                                 \
        }                                                                    \
    } while (0)

#define CHECK_EQ_INT(a, b)                                                   \
    do {                                                                     \
        long long tu_a = (long long)(a), tu_b = (long long)(b);              \
        tu_cur_checks++;                                                     \
        if (tu_a != tu_b) {                                                  \
            fprintf(stderr, "  FAIL %s:%d in %s: %s == %s (%lld != %lld)\n", \
                    __FILE__, __LINE__, tu_cur_name, #a, #b, tu_a, tu_b);    \
            tu_cur_failed++;                                                 \
        }                                                                    \
    } while (0)

#define CHECK_EQ_STR(a, b)                                                   \
    do {                                                                     \
        const char *tu_a = (a), *tu_b = (b);                                 \
        tu_cur_checks++;                                                     \
        if (!tu_a || !tu_b || strcmp(tu_a, tu_b) != 0) {                     \
            fprintf(stderr, "  FAIL %s:%d in %s: %s == %s (\"%s\" != \"%s\")\n", \
                    __FILE__, __LINE__, tu_cur_name, #a, #b,                 \
                    tu_a ? tu_a : "(null)", tu_b ? tu_b : "(null)");         \
            tu_cur_failed++;                                                 \
        }                                                                    \
    } while (0)

#define CHECK_MEM(a, alen, b, blen)                                          \
    CHECK((size_t)(alen) == (size_t)(blen) && memcmp((a), (b), (alen)) == 0)

/* Skip the current test (return from it), saying why: "skip - name: why". */
#define TU_SKIP(reason)                                                      \
    do {                                                                     \
        tu_cur_skip = (reason);                                              \
        return;                                                              \
    } while (0)

/* Run one test function and record its verdict: failed (a failed CHECK),
 * skipped (TU_SKIP), failed (no CHECK ran: it returned early without
 * declaring a skip) or passed. */
#define RUN(fn)                                                              \
    do {                                                                     \
        tu_cur_name = #fn;                                                   \
        tu_cur_failed = 0;                                                   \
        tu_cur_checks = 0;                                                   \
        tu_cur_skip = NULL;                                                  \
        fn();                                                                \
        if (tu_cur_failed) {                                                 \
            tu_failed++;                                                     \
            fprintf(stderr, "not ok - %s\n", #fn);                           \
        } else if (tu_cur_skip) {                                            \
            tu_skipped++;                                                    \
            fprintf(stderr, "skip - %s: %s\n", #fn, tu_cur_skip);            \
        } else if (!tu_cur_checks) {                                         \
            tu_failed++;                                                     \
            fprintf(stderr, "not ok - %s (returned without running a CHECK: " \
                            "an early return? TU_SKIP(\"reason\") skips)\n",  \
                    #fn);                                                    \
        } else {                                                             \
            tu_passed++;                                                     \
            fprintf(stderr, "ok - %s\n", #fn);                               \
        }                                                                    \
    } while (0)

/* Print the closing line and return the process exit status. */
static inline int tu_finish(void)
{
    (void)tu_cur_skip; /* used by RUN and CHECK, which some tests do not use */
    (void)tu_cur_checks;
    printf("%d passed, %d failed, %d skipped\n", tu_passed, tu_failed, tu_skipped);
    return tu_failed ? 1 : 0;
}

/* The seed of a random test: ROCKLAKE_TEST_SEED when set (to replay a run),
 * else `dflt` (so a plain run is reproducible too); printed either way. */
static inline uint64_t tu_seed(const char *what, uint64_t dflt)
{
    const char *env = getenv("ROCKLAKE_TEST_SEED");
    uint64_t seed = env && *env ? strtoull(env, NULL, 0) : dflt;
    fprintf(stderr, "# %s: seed 0x%" PRIx64 " (ROCKLAKE_TEST_SEED=0x%" PRIx64 " replays)\n",
            what, seed, seed);
    return seed;
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
