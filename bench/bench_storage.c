/*
 * bench_storage.c — the storage benchmark of the seeds' reference catalog.
 *
 * Owns: building the reference catalog (50 tables, 500 columns, 10,000 data
 * files with per-column statistics, see rl_demo_reference) in a file:// store
 * and printing:
 *   - stored bytes (keys + values, as `rocklake stats` counts them) next to
 *     the seeds' ~6.5 MB figure, and the bytes SlateDB wrote to disk;
 *   - the time of the column-list prefix scan of one table (live-row index
 *     and full history), median and p99 over many runs;
 *   - the time to load every live row of the catalog.
 * Not a test: `make bench` runs it. Measurements are medians of repeated
 * runs after a reopen, so they read from SlateDB's files and cache, not from
 * the builder's memtable.
 *
 * Usage: bench_storage [STORE_DIR]   (default: a fresh directory under /tmp)
 */
#include <dirent.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "catalog/catalog.h"
#include "cli/demo.h"
#include "keys/tags.h"

#define SEED_REFERENCE_BYTES 6500000.0

static double now_seconds(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static int compare_doubles(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double percentile(double *v, size_t n, double p)
{
    qsort(v, n, sizeof *v, compare_doubles);
    size_t i = (size_t)(p * (double)(n - 1) + 0.5);
    return v[i < n ? i : n - 1];
}

/* Bytes of all regular files under `path` (what the store occupies on disk). */
static uint64_t disk_bytes(const char *path)
{
    DIR *d = opendir(path);
    if (!d)
        return 0;
    uint64_t total = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
            continue;
        char p[4096];
        snprintf(p, sizeof p, "%s/%s", path, e->d_name);
        struct stat st;
        if (lstat(p, &st) != 0)
            continue;
        if (S_ISDIR(st.st_mode))
            total += disk_bytes(p);
        else if (S_ISREG(st.st_mode))
            total += (uint64_t)st.st_size;
    }
    closedir(d);
    return total;
}

typedef struct tag_bytes {
    uint64_t keys, key_bytes, value_bytes;
} tag_bytes;

static int count_stored_bytes(rl_catalog *cat, tag_bytes per_tag[256])
{
    kv_error ke;
    uint8_t start = 0x00;
    kv_iter *it = kv_scan(rl_catalog_kv(cat), NULL, &start, 1, NULL, 0, &ke);
    if (!it) {
        fprintf(stderr, "bench: scan: %s\n", ke.message);
        return -1;
    }
    const uint8_t *k, *v;
    size_t kl, vl;
    int rc;
    while ((rc = kv_iter_next(it, &k, &kl, &v, &vl, &ke)) == 1) {
        tag_bytes *t = &per_tag[k[0]];
        t->keys++;
        t->key_bytes += kl;
        t->value_bytes += vl;
    }
    kv_iter_free(it);
    return rc;
}

/* Rows of table `table_id`'s column list: live (index) or every version. */
static int scan_columns(rl_catalog *cat, int64_t table_id, bool live)
{
    rl_error e;
    rl_txn *t = rl_txn_begin(cat, &e);
    if (!t)
        return -1;
    rl_datum f[1];
    memset(f, 0, sizeof f);
    f[0].v.i = table_id;
    const rl_table_desc *col = rl_desc_by_tag(RL_TAG_COLUMN);
    rl_scan *s = live ? rl_txn_scan_live(t, col, f, 1, &e) : rl_txn_scan(t, col, f, 1, &e);
    const rl_row *r;
    int n = 0;
    while (s && rl_scan_next(s, &r, &e) == 1)
        n++;
    rl_scan_free(s);
    rl_txn_free(t);
    return n;
}

/* Every row visible at the latest snapshot: live index for MVCC tables,
 * whole tag otherwise. */
static long load_live_rows(rl_catalog *cat)
{
    rl_error e;
    rl_txn *t = rl_txn_begin(cat, &e);
    if (!t)
        return -1;
    long n = 0;
    for (size_t i = 0; i < rl_ntables; i++) {
        const rl_table_desc *d = &rl_tables[i];
        if (!rl_desc_in_format(d, rl_catalog_format(cat)))
            continue;
        rl_scan *s = d->live_index ? rl_txn_scan_live(t, d, NULL, 0, &e)
                                   : rl_txn_scan(t, d, NULL, 0, &e);
        const rl_row *r;
        while (s && rl_scan_next(s, &r, &e) == 1)
            n++;
        rl_scan_free(s);
    }
    rl_txn_free(t);
    return n;
}

static int64_t first_user_table_id(rl_catalog *cat)
{
    rl_error e;
    rl_txn *t = rl_txn_begin(cat, &e);
    rl_scan *s = t ? rl_txn_scan_live(t, rl_desc_by_tag(RL_TAG_TABLE), NULL, 0, &e) : NULL;
    const rl_row *r;
    int64_t id = -1;
    if (s && rl_scan_next(s, &r, &e) == 1)
        id = r->vals[0].v.i;
    rl_scan_free(s);
    rl_txn_free(t);
    return id;
}

static void print_timing(const char *what, double *samples, size_t n, const char *extra)
{
    double med = percentile(samples, n, 0.5), p99 = percentile(samples, n, 0.99);
    printf("%-44s median %9.1f us   p99 %9.1f us   (%zu runs)%s\n", what, med * 1e6, p99 * 1e6,
           n, extra);
}

int main(int argc, char **argv)
{
    char dir[512];
    if (argc > 1)
        snprintf(dir, sizeof dir, "%s", argv[1]);
    else
        snprintf(dir, sizeof dir, "/tmp/rocklake-bench-%d", (int)getpid());
    printf("RockLake storage benchmark — the seeds' reference catalog\n");
    printf("store: %s\n\n", dir);

    rl_demo_params p;
    rl_demo_reference(&p);
    rl_catalog_options o = {.create_if_missing = true};
    rl_error e;
    rl_catalog *cat = rl_catalog_open(dir, &o, &e);
    if (!cat) {
        fprintf(stderr, "bench: %s\n", e.message);
        return 1;
    }
    double t0 = now_seconds();
    if (rl_demo_build(cat, &p, stderr, &e) < 0) {
        fprintf(stderr, "bench: building the catalog: %s\n", e.message);
        return 1;
    }
    double build_s = now_seconds() - t0;
    rl_catalog_close(cat, NULL);
    cat = rl_catalog_open(dir, &o, &e);
    if (!cat) {
        fprintf(stderr, "bench: reopen: %s\n", e.message);
        return 1;
    }
    printf("catalog: %d tables, %d columns, %d data files (%d per commit), stats on; built in "
           "%.2f s\n\n",
           p.tables, p.tables * p.columns_per_table, p.files, p.files_per_commit, build_s);

    static tag_bytes per_tag[256];
    if (count_stored_bytes(cat, per_tag) < 0)
        return 1;
    uint64_t keys = 0, total = 0;
    printf("%-6s %-36s %10s %12s %12s\n", "tag", "table", "keys", "key bytes", "value bytes");
    for (int tag = 0; tag < 256; tag++) {
        tag_bytes *tb = &per_tag[tag];
        if (!tb->keys)
            continue;
        const rl_table_desc *d = rl_desc_by_tag((uint8_t)tag);
        const char *name = d ? d->name
                           : tag == RL_TAG_INDEX       ? "(secondary indexes)"
                           : tag == RL_TAG_DYNAMIC_ROW ? "(dynamic table rows)"
                           : tag == RL_TAG_COUNTER     ? "(counters)"
                           : tag == RL_TAG_SYSTEM      ? "(system keys)"
                                                       : "?";
        printf("0x%02x   %-36s %10" PRIu64 " %12" PRIu64 " %12" PRIu64 "\n", tag, name, tb->keys,
               tb->key_bytes, tb->value_bytes);
        keys += tb->keys;
        total += tb->key_bytes + tb->value_bytes;
    }
    printf("\nstored bytes (keys + values): %" PRIu64 " in %" PRIu64
           " keys = %.2f MB; seeds' figure ~6.5 MB -> ratio %.2f\n",
           total, keys, (double)total / 1e6, (double)total / SEED_REFERENCE_BYTES);
    printf("on disk (SlateDB WAL + SSTs + manifests): %.2f MB\n\n", (double)disk_bytes(dir) / 1e6);

    int64_t tid = first_user_table_id(cat);
    enum { RUNS = 2000, LOAD_RUNS = 7 };
    static double samples[RUNS];
    char extra[64];
    int ncols = 0;
    for (int i = 0; i < RUNS; i++) {
        double s = now_seconds();
        ncols = scan_columns(cat, tid, true);
        samples[i] = now_seconds() - s;
    }
    snprintf(extra, sizeof extra, "  %d columns", ncols);
    print_timing("column list of one table (live index)", samples, RUNS, extra);
    for (int i = 0; i < RUNS; i++) {
        double s = now_seconds();
        ncols = scan_columns(cat, tid, false);
        samples[i] = now_seconds() - s;
    }
    snprintf(extra, sizeof extra, "  %d versions", ncols);
    print_timing("column list of one table (all versions)", samples, RUNS, extra);
    long rows = 0;
    for (int i = 0; i < LOAD_RUNS; i++) {
        double s = now_seconds();
        rows = load_live_rows(cat);
        samples[i] = now_seconds() - s;
    }
    snprintf(extra, sizeof extra, "  %ld rows", rows);
    print_timing("load every live row", samples, LOAD_RUNS, extra);
    rl_catalog_close(cat, NULL);
    return 0;
}
