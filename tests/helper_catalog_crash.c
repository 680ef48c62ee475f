/*
 * helper_catalog_crash.c — child process for test_crash: a stream of
 * DuckLake-shaped commits that the parent kills with SIGKILL.
 *
 * Usage: helper_catalog_crash URL START COUNT
 * Commit i inserts ducklake_snapshot i, ducklake_snapshot_changes i and 20
 * ducklake_file_column_stats rows for data file i, and closes the previous
 * commit's ducklake_table version while opening a new one (an UPDATE plus an
 * INSERT). After rl_txn_commit returns (durable) it prints "ack <i>". It
 * stops by itself after COUNT commits or 60 s, so nothing hangs.
 * ROCKLAKE_TEST_WAL_FLUSH_MS sets SlateDB's WAL flush interval: a long one
 * leaves a local store's acknowledged commits in its journal only.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "catalog/catalog.h"
#include "keys/tags.h"

#define STATS_PER_COMMIT 20

static rl_datum int_datum(int64_t v)
{
    rl_datum d;
    memset(&d, 0, sizeof d);
    d.v.i = v;
    return d;
}

static rl_datum text_datum(const char *s)
{
    rl_datum d;
    memset(&d, 0, sizeof d);
    d.v.s.p = (const uint8_t *)s;
    d.v.s.len = strlen(s);
    return d;
}

static rl_datum null_datum(void)
{
    rl_datum d;
    memset(&d, 0, sizeof d);
    d.isnull = true;
    return d;
}

/* Close the open version of table 1 (if any) at snapshot i, open a new one. */
static int roll_table_version(rl_txn *t, int64_t i, rl_error *e)
{
    const rl_table_desc *tbl = rl_desc_by_tag(RL_TAG_TABLE);
    rl_datum f[1] = {int_datum(1)};
    rl_scan *s = rl_txn_scan_live(t, tbl, f, 1, e);
    if (!s)
        return -1;
    const rl_row *r;
    int rc = rl_scan_next(s, &r, e);
    if (rc == 1) {
        rl_datum upd[8];
        memcpy(upd, r->vals, sizeof upd);
        upd[3] = int_datum(i);
        uint8_t key[64];
        size_t kl = r->klen;
        memcpy(key, r->key, kl);
        rc = rl_txn_update(t, tbl, key, kl, upd, e);
    }
    rl_scan_free(s);
    if (rc < 0)
        return -1;
    rl_datum row[8] = {int_datum(1), null_datum(), int_datum(i), null_datum(),
                       int_datum(0), text_datum("t"), text_datum("t/"), null_datum()};
    return rl_txn_insert(t, tbl, row, e);
}

static int one_commit(rl_catalog *cat, int64_t i, rl_error *e)
{
    rl_txn *t = rl_txn_begin(cat, e);
    if (!t)
        return -1;
    rl_datum snap[5] = {int_datum(i), int_datum(i), int_datum(i), int_datum(i + 1),
                        int_datum(i + 1)};
    rl_datum changes[5] = {int_datum(i), text_datum("inserted_into_table:1"), null_datum(),
                           null_datum(), null_datum()};
    int rc = rl_txn_insert(t, rl_desc_by_tag(RL_TAG_SNAPSHOT), snap, e);
    if (rc == 0)
        rc = rl_txn_insert(t, rl_desc_by_tag(RL_TAG_SNAPSHOT_CHANGES), changes, e);
    for (int c = 0; rc == 0 && c < STATS_PER_COMMIT; c++) {
        rl_datum st[10] = {int_datum(i),        int_datum(1),       int_datum(c),
                           int_datum(100),      int_datum(10),      int_datum(0),
                           text_datum("1"),     text_datum("9"),    null_datum(),
                           null_datum()};
        rc = rl_txn_insert(t, rl_desc_by_tag(RL_TAG_FILE_COLUMN_STATS), st, e);
    }
    if (rc == 0)
        rc = roll_table_version(t, i, e);
    if (rc == 0)
        rc = rl_txn_commit(t, e);
    rl_txn_free(t);
    return rc;
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: helper_catalog_crash URL START COUNT\n");
        return 2;
    }
    long start = atol(argv[2]), count = atol(argv[3]);
    rl_catalog_options o = {.create_if_missing = true};
    const char *flush_ms = getenv("ROCKLAKE_TEST_WAL_FLUSH_MS");
    if (flush_ms && *flush_ms)
        o.store.flush_interval_ms = strtoull(flush_ms, NULL, 10);
    rl_error e;
    rl_catalog *cat = rl_catalog_open(argv[1], &o, &e);
    if (!cat) {
        fprintf(stderr, "helper: open: %s\n", e.message);
        return 1;
    }
    time_t deadline = time(NULL) + 60;
    for (long i = start; i < start + count && time(NULL) < deadline; i++) {
        if (one_commit(cat, i, &e) < 0) {
            fprintf(stderr, "helper: commit %ld: %s %s\n", i, e.sqlstate, e.message);
            rl_catalog_close(cat, NULL);
            return 1;
        }
        printf("ack %ld\n", i);
        fflush(stdout);
    }
    rl_catalog_close(cat, NULL);
    return 0;
}
