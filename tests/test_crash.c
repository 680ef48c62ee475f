/*
 * test_crash.c — a catalog commit is all or nothing when the writer process
 * is killed with SIGKILL in the middle of a stream of commits.
 *
 * Runs build/tests/helper_catalog_crash against a file:// store (or the
 * S3 store of ROCKLAKE_S3_URL), kills it at a random moment after a few
 * acknowledged commits, several rounds on the same store, then reopens and
 * checks: every acknowledged commit is whole (on odd rounds SlateDB's WAL
 * flush is pushed out, so a local store recovers them from its journal);
 * every commit present is whole
 * (snapshot, changes, 20 stats rows, table version); exactly one open version
 * of table 1; counters above every id.
 */
#include <errno.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "catalog/catalog.h"
#include "keys/tags.h"
#include "testutil.h"

static char helper_path[PATH_MAX];
static char store_url[600];

/* Run the helper from `start`; kill it after `kill_after` acks (or let it
 * finish). Returns the highest acked commit, or start-1. */
static long run_round(long start, long kill_after, long *acked_max)
{
    int fds[2];
    if (pipe(fds) != 0)
        return -1;
    pid_t pid = fork();
    if (pid == 0) {
        dup2(fds[1], 1);
        close(fds[0]);
        char s[32], n[32];
        snprintf(s, sizeof s, "%ld", start);
        snprintf(n, sizeof n, "%ld", 100000L);
        execl(helper_path, helper_path, store_url, s, n, (char *)NULL);
        _exit(127);
    }
    close(fds[1]);
    FILE *in = fdopen(fds[0], "r");
    char line[128];
    long acks = 0;
    *acked_max = start - 1;
    time_t deadline = time(NULL) + 90;
    while (time(NULL) < deadline && fgets(line, sizeof line, in)) {
        long i;
        if (sscanf(line, "ack %ld", &i) == 1) {
            *acked_max = i;
            if (++acks >= kill_after)
                break;
        }
    }
    /* a little more time so the kill lands in the middle of a commit */
    usleep((useconds_t)(rand() % 20000));
    kill(pid, SIGKILL);
    int status;
    waitpid(pid, &status, 0);
    /* acks already in the pipe were durable too */
    while (fgets(line, sizeof line, in)) {
        long i;
        if (sscanf(line, "ack %ld", &i) == 1)
            *acked_max = i;
    }
    fclose(in);
    return acks;
}

static int count_stats(rl_txn *t, int64_t file)
{
    rl_error e;
    rl_datum f[2];
    memset(f, 0, sizeof f);
    f[0].v.i = 1;
    f[1].v.i = file;
    rl_scan *s = rl_txn_scan(t, rl_desc_by_tag(RL_TAG_FILE_COLUMN_STATS), f, 2, &e);
    const rl_row *r;
    int n = 0;
    while (s && rl_scan_next(s, &r, &e) == 1)
        n++;
    rl_scan_free(s);
    return n;
}

static void verify_store(long acked_max)
{
    rl_catalog_options o = {0};
    rl_error e;
    rl_catalog *cat = rl_catalog_open(store_url, &o, &e);
    CHECK(cat != NULL);
    if (!cat)
        return;
    rl_txn *t = rl_txn_begin(cat, &e);
    rl_datum key[1];
    memset(key, 0, sizeof key);
    long present_max = -1;
    for (long i = 0; i <= acked_max + 5; i++) {
        key[0].v.i = i;
        const rl_row *r;
        int snap = rl_txn_get(t, rl_desc_by_tag(RL_TAG_SNAPSHOT), key, &r, &e);
        int changes = rl_txn_get(t, rl_desc_by_tag(RL_TAG_SNAPSHOT_CHANGES), key, &r, &e);
        int stats = count_stats(t, i);
        if (i <= acked_max)
            CHECK(snap == 1); /* acknowledged means durable */
        if (snap == 1) {
            present_max = i;
            CHECK(changes == 1);
            CHECK_EQ_INT(stats, 20);
        } else {
            CHECK(changes == 0);
            CHECK_EQ_INT(stats, 0);
        }
    }
    /* exactly one open version of table 1, begun at the last commit present */
    rl_datum f[1];
    memset(f, 0, sizeof f);
    f[0].v.i = 1;
    rl_scan *s = rl_txn_scan(t, rl_desc_by_tag(RL_TAG_TABLE), f, 1, &e);
    const rl_row *r;
    int open_versions = 0, versions = 0;
    while (s && rl_scan_next(s, &r, &e) == 1) {
        versions++;
        if (r->vals[3].isnull) {
            open_versions++;
            CHECK_EQ_INT(r->vals[2].v.i, present_max);
        }
    }
    rl_scan_free(s);
    CHECK_EQ_INT(open_versions, 1);
    CHECK_EQ_INT(versions, present_max + 1);
    CHECK(rl_catalog_counter(cat, RL_COUNTER_NEXT_SNAPSHOT_ID) == (uint64_t)present_max + 1);
    rl_txn_free(t);
    rl_catalog_close(cat, NULL);
}

static void test_kill_during_commit_stream(void)
{
    long next = 0, acked = -1;
    for (int round = 0; round < 4; round++) {
        long round_acked = -1;
        /* odd rounds: SlateDB's WAL would flush only after 10 minutes, so
         * on a local store the journal alone holds the acknowledged commits */
        setenv("ROCKLAKE_TEST_WAL_FLUSH_MS", round % 2 ? "600000" : "", 1);
        long acks = run_round(next, 10 + rand() % 15, &round_acked);
        CHECK(acks > 0);
        if (round_acked > acked)
            acked = round_acked;
        /* the next round continues after whatever is actually in the store */
        rl_catalog_options o = {0};
        rl_error e;
        rl_catalog *cat = rl_catalog_open(store_url, &o, &e);
        CHECK(cat != NULL);
        if (!cat)
            return;
        next = (long)rl_catalog_counter(cat, RL_COUNTER_NEXT_SNAPSHOT_ID);
        rl_catalog_close(cat, NULL);
        CHECK(next > acked);
    }
    verify_store(acked);
}

int main(void)
{
    char self[PATH_MAX];
    ssize_t n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0)
        return 1;
    self[n] = 0;
    snprintf(helper_path, sizeof helper_path, "%s/helper_catalog_crash", dirname(self));
    srand((unsigned)tu_seed("kill moments", (uint64_t)time(NULL)));
    const char *s3 = getenv("ROCKLAKE_S3_URL");
    const char *tmp = getenv("ROCKLAKE_TEST_TMP");
    if (s3 && *s3)
        snprintf(store_url, sizeof store_url, "%s/crash-%d", s3, (int)getpid());
    else
        snprintf(store_url, sizeof store_url, "%s/crash-%d", tmp && *tmp ? tmp : "/tmp",
                 (int)getpid());
    fprintf(stderr, "# store: %s\n", store_url);
    RUN(test_kill_during_commit_stream);
    return tu_finish();
}
