/*
 * test_catalog.c — the catalog layer against real SlateDB (memory:// and
 * file://, or only s3:// when ROCKLAKE_S3_URL is set): create/reopen, format
 * checks, writer epochs and fencing, PostgreSQL constraint errors, the
 * snapshot-id race, serialization failures, MVCC visibility, the live-row
 * index, counters, audit entries and dynamic tables.
 */
#include <dirent.h>
#include <inttypes.h>
#include <sys/wait.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "catalog/catalog.h"
#include "cli/check.h"
#include "keys/keys.h"
#include "catalog/lease.h"
#include "catalog/sequence.h"
#include "keys/tags.h"
#include "testutil.h"

static char base_url[512];
static int store_counter;

static void next_url(char *out, size_t n)
{
    snprintf(out, n, "%s/cat-%d-%d", base_url, (int)getpid(), store_counter++);
}

static rl_datum I8(int64_t v)
{
    rl_datum d;
    memset(&d, 0, sizeof d);
    d.v.i = v;
    return d;
}

static rl_datum STR(const char *s)
{
    rl_datum d;
    memset(&d, 0, sizeof d);
    d.v.s.p = (const uint8_t *)s;
    d.v.s.len = strlen(s);
    return d;
}

static rl_datum NUL(void)
{
    rl_datum d;
    memset(&d, 0, sizeof d);
    d.isnull = true;
    return d;
}

static rl_datum BOOLV(bool b)
{
    rl_datum d;
    memset(&d, 0, sizeof d);
    d.v.b = b;
    return d;
}

static rl_catalog *open_cat(const char *url, bool create)
{
    rl_catalog_options o = {.create_if_missing = create};
    rl_error e;
    rl_catalog *c = rl_catalog_open(url, &o, &e);
    if (!c)
        fprintf(stderr, "  open %s: %s %s\n", url, e.sqlstate, e.message);
    return c;
}

static int insert_snapshot(rl_txn *t, int64_t id, rl_error *e)
{
    rl_datum row[5] = {I8(id), I8(1000 * id), I8(id), I8(id + 1), I8(0)};
    return rl_txn_insert(t, rl_desc_by_tag(RL_TAG_SNAPSHOT), row, e);
}

static int insert_table_version(rl_txn *t, int64_t table_id, int64_t begin, const char *name,
                                rl_error *e)
{
    rl_datum row[8];
    row[0] = I8(table_id);
    row[1] = NUL();
    memset(row[1].v.uuid, 0x11, 16);
    row[1].isnull = false;
    row[2] = I8(begin);
    row[3] = NUL();
    row[4] = I8(0);
    row[5] = STR(name);
    row[6] = STR("t/");
    row[7] = BOOLV(true);
    return rl_txn_insert(t, rl_desc_by_tag(RL_TAG_TABLE), row, e);
}

/* Count rows of d under key-field prefix (nfields of fields). */
static int count_rows(rl_catalog *c, const rl_table_desc *d, const rl_datum *fields,
                      size_t nfields, bool live)
{
    rl_error e;
    rl_txn *t = rl_txn_begin(c, &e);
    if (!t)
        return -1;
    rl_scan *s = live ? rl_txn_scan_live(t, d, fields, nfields, &e)
                      : rl_txn_scan(t, d, fields, nfields, &e);
    int n = 0;
    const rl_row *r;
    while (s && rl_scan_next(s, &r, &e) == 1)
        n++;
    rl_scan_free(s);
    rl_txn_free(t);
    return n;
}

static void test_create_reopen_and_format(void)
{
    char url[600];
    next_url(url, sizeof url);
    rl_error e;
    rl_catalog_options no_create = {0};
    CHECK(rl_catalog_open(url, &no_create, &e) == NULL);
    CHECK_EQ_STR(e.sqlstate, "55000");
    CHECK(strstr(e.hint, "rocklake create") != NULL);

    rl_catalog *c = open_cat(url, true);
    CHECK(c != NULL);
    if (!c)
        return;
    CHECK_EQ_INT(rl_catalog_format(c), RL_FMT_1_0);
    CHECK_EQ_INT(rl_catalog_writer_epoch(c), 1);
    rl_txn *t = rl_txn_begin(c, &e);
    CHECK(insert_snapshot(t, 0, &e) == 0);
    CHECK(rl_txn_commit(t, &e) == 0);
    rl_txn_free(t);
    CHECK(rl_catalog_close(c, &e) == 0);

    c = open_cat(url, false);
    CHECK(c != NULL);
    if (!c)
        return;
    CHECK_EQ_INT(rl_catalog_writer_epoch(c), 2); /* bumped per writer open */
    CHECK_EQ_INT(count_rows(c, rl_desc_by_tag(RL_TAG_SNAPSHOT), NULL, 0, false), 1);
    CHECK_EQ_INT(rl_catalog_counter(c, RL_COUNTER_NEXT_SNAPSHOT_ID), 1);

    /* a newer layout version is refused with a clear message */
    kv_batch *b = kv_batch_new();
    rl_buf k;
    rl_buf_init(&k, 0);
    rl_key_system(&k, RL_SYS_FORMAT_VERSION);
    uint8_t v[8];
    rl_store_be64(v, RL_STORAGE_FORMAT_VERSION + 1);
    kv_batch_put(b, k.data, k.len, v, 8);
    CHECK(kv_write(rl_catalog_kv(c), b, NULL) == 0);
    kv_batch_free(b);
    rl_buf_free(&k);
    rl_catalog_close(c, NULL);
    CHECK(rl_catalog_open(url, &no_create, &e) == NULL);
    CHECK_EQ_STR(e.sqlstate, "55000");
    CHECK(strstr(e.message, "newer than this RockLake supports") != NULL);

    /* format 1 (values framed with a magic and a version byte) is refused
     * too, not misread: its values would not decode */
    kv_options ko = {0};
    kv_error ke;
    kv_db *kv = kv_open_writer(url, &ko, &ke);
    CHECK(kv != NULL);
    if (!kv)
        return;
    b = kv_batch_new();
    rl_buf_init(&k, 0);
    rl_key_system(&k, RL_SYS_FORMAT_VERSION);
    rl_store_be64(v, 1);
    kv_batch_put(b, k.data, k.len, v, 8);
    CHECK(kv_write(kv, b, NULL) == 0);
    kv_batch_free(b);
    rl_buf_free(&k);
    CHECK(kv_close(kv, NULL) == 0);
    CHECK(rl_catalog_open(url, &no_create, &e) == NULL);
    CHECK_EQ_STR(e.sqlstate, "55000");
    CHECK(strstr(e.message, "written by a development build") != NULL);
}

static void test_format_1_1_shape(void)
{
    char url[600];
    next_url(url, sizeof url);
    rl_catalog_options o = {.create_if_missing = true, .format = RL_FMT_1_1};
    rl_error e;
    rl_catalog *c = rl_catalog_open(url, &o, &e);
    CHECK(c != NULL);
    if (!c)
        return;
    CHECK_EQ_INT(rl_catalog_format(c), RL_FMT_1_1);
    const rl_table_desc *df = rl_desc_by_tag(RL_TAG_DATA_FILE);
    CHECK_EQ_INT(rl_desc_ncols(df, RL_FMT_1_1), 17);
    CHECK_EQ_INT(rl_desc_ncols(df, RL_FMT_1_0), 16);
    rl_catalog_close(c, NULL);
    c = open_cat(url, false);
    CHECK(c && rl_catalog_format(c) == RL_FMT_1_1);
    rl_catalog_close(c, NULL);
}

static void test_duplicate_snapshot_is_23505_with_pg_text(void)
{
    char url[600];
    next_url(url, sizeof url);
    rl_catalog *c = open_cat(url, true);
    if (!c)
        return;
    rl_error e;
    rl_txn *t = rl_txn_begin(c, &e);
    CHECK(insert_snapshot(t, 5, &e) == 0);
    CHECK(insert_snapshot(t, 5, &e) < 0);
    CHECK_EQ_STR(e.sqlstate, "23505");
    CHECK_EQ_STR(e.message,
                 "duplicate key value violates unique constraint \"ducklake_snapshot_pkey\"");
    CHECK_EQ_STR(e.detail, "Key (snapshot_id)=(5) already exists.");
    CHECK(rl_txn_commit(t, &e) == 0);
    rl_txn_free(t);

    /* committed: a later transaction sees the duplicate at insert time */
    t = rl_txn_begin(c, &e);
    CHECK(insert_snapshot(t, 5, &e) < 0);
    CHECK_EQ_STR(e.sqlstate, "23505");
    rl_txn_free(t);
    rl_catalog_close(c, NULL);
}

static void test_snapshot_race_later_committer_loses(void)
{
    char url[600];
    next_url(url, sizeof url);
    rl_catalog *c = open_cat(url, true);
    if (!c)
        return;
    rl_error e;
    rl_txn *a = rl_txn_begin(c, &e);
    rl_txn *b = rl_txn_begin(c, &e);
    CHECK(insert_snapshot(a, 7, &e) == 0);
    CHECK(insert_snapshot(b, 7, &e) == 0); /* neither sees the other yet */
    rl_datum tbl_changes[5] = {I8(7), STR("created_table:\"main\".\"b\""), NUL(), NUL(), NUL()};
    CHECK(rl_txn_insert(b, rl_desc_by_tag(RL_TAG_SNAPSHOT_CHANGES), tbl_changes, &e) == 0);
    CHECK(rl_txn_commit(a, &e) == 0);
    CHECK(rl_txn_commit(b, &e) < 0);
    CHECK_EQ_STR(e.sqlstate, "23505");
    CHECK_EQ_STR(e.message,
                 "duplicate key value violates unique constraint \"ducklake_snapshot_pkey\"");
    rl_txn_free(a);
    rl_txn_free(b);
    /* nothing of b landed: its snapshot_changes row is absent */
    CHECK_EQ_INT(count_rows(c, rl_desc_by_tag(RL_TAG_SNAPSHOT_CHANGES), NULL, 0, false), 0);
    CHECK_EQ_INT(count_rows(c, rl_desc_by_tag(RL_TAG_SNAPSHOT), NULL, 0, false), 1);
    rl_catalog_close(c, NULL);
}

/* Commit one ducklake_table_stats row (tid, n, n, 10 n) on its own. */
static void commit_stats_row(rl_catalog *c, int64_t tid, int64_t n)
{
    rl_error e;
    rl_txn *t = rl_txn_begin(c, &e);
    rl_datum row[4] = {I8(tid), I8(n), I8(n), I8(10 * n)};
    CHECK(rl_txn_insert(t, rl_desc_by_tag(RL_TAG_TABLE_STATS), row, &e) == 0);
    CHECK(rl_txn_commit(t, &e) == 0);
    rl_txn_free(t);
}

/* Two transactions begun together change the row of d at key k: `a`
 * UPDATEs it to va, `b` to vb (vb NULL: DELETEs it); the one committing
 * second (b unless b_first) fails with 40001. */
static void race_on_row(rl_catalog *c, const rl_table_desc *d, const uint8_t *k, size_t kl,
                        const rl_datum *va, const rl_datum *vb, bool b_first)
{
    rl_error e;
    rl_txn *a = rl_txn_begin(c, &e), *b = rl_txn_begin(c, &e);
    CHECK(rl_txn_update(a, d, k, kl, va, &e) == 0);
    CHECK((vb ? rl_txn_update(b, d, k, kl, vb, &e) : rl_txn_delete(b, d, k, kl, &e)) == 0);
    CHECK(rl_txn_commit(b_first ? b : a, &e) == 0);
    CHECK(rl_txn_commit(b_first ? a : b, &e) < 0);
    CHECK_EQ_STR(e.sqlstate, "40001");
    rl_txn_free(a);
    rl_txn_free(b);
}

static void test_concurrent_update_is_40001(void)
{
    char url[600];
    next_url(url, sizeof url);
    rl_catalog *c = open_cat(url, true);
    if (!c)
        return;
    rl_error e;
    const rl_table_desc *ts = rl_desc_by_tag(RL_TAG_TABLE_STATS);
    commit_stats_row(c, 3, 10);
    rl_txn *t;

    rl_datum key[1] = {I8(3)};
    const rl_row *r;
    t = rl_txn_begin(c, &e);
    CHECK(rl_txn_get(t, ts, key, &r, &e) == 1);
    uint8_t ka[64];
    size_t kal = r->klen;
    memcpy(ka, r->key, kal);
    rl_txn_free(t);
    rl_datum upd_a[4] = {I8(3), I8(20), I8(20), I8(200)};
    rl_datum upd_b[4] = {I8(3), I8(30), I8(30), I8(300)};
    race_on_row(c, ts, ka, kal, upd_a, upd_b, true);
    t = rl_txn_begin(c, &e);
    CHECK(rl_txn_get(t, ts, key, &r, &e) == 1 && r->vals[1].v.i == 30);
    rl_txn_free(t);
    rl_catalog_close(c, NULL);
}

/* Regression (no-op UPDATEs write nothing): an UPDATE to the values a row
 * already has adds no version to the store, yet still conflicts with a
 * concurrent change of that row; and validation that skips store reads for
 * keys no later commit wrote (the commit log) still sees a change made
 * many commits after the snapshot. */
static void test_noop_update_writes_nothing_but_still_conflicts(void)
{
    char url[600];
    next_url(url, sizeof url);
    rl_catalog *c = open_cat(url, true);
    if (!c)
        return;
    rl_error e;
    const rl_table_desc *ts = rl_desc_by_tag(RL_TAG_TABLE_STATS);
    commit_stats_row(c, 4, 10);
    rl_datum row[4] = {I8(4), I8(10), I8(10), I8(100)};
    rl_txn *t;
    rl_datum key[1] = {I8(4)};
    const rl_row *r;
    uint8_t k4[64];
    size_t k4l;

    /* the same values: nothing is written (no batch reaches the store) */
    kv_counters before, after;
    kv_counters_get(&before);
    t = rl_txn_begin(c, &e);
    CHECK(rl_txn_get(t, ts, key, &r, &e) == 1);
    k4l = r->klen;
    memcpy(k4, r->key, k4l);
    CHECK(rl_txn_update(t, ts, k4, k4l, row, &e) == 0);
    CHECK(rl_txn_commit(t, &e) == 0);
    rl_txn_free(t);
    kv_counters_get(&after);
    CHECK_EQ_INT(after.batches_written, before.batches_written);

    /* a no-op update of a row another transaction changed meanwhile: 40001,
     * with other commits in between (validated from the commit log) */
    rl_txn *a = rl_txn_begin(c, &e);
    CHECK(rl_txn_get(a, ts, key, &r, &e) == 1);
    rl_txn *b = rl_txn_begin(c, &e);
    rl_datum changed[4] = {I8(4), I8(11), I8(11), I8(101)};
    CHECK(rl_txn_update(b, ts, k4, k4l, changed, &e) == 0);
    CHECK(rl_txn_commit(b, &e) == 0);
    rl_txn_free(b);
    for (int i = 0; i < 5; i++)
        commit_stats_row(c, 100 + i, 1);
    CHECK(rl_txn_update(a, ts, k4, k4l, row, &e) == 0); /* what a saw: no change */
    CHECK(rl_txn_commit(a, &e) < 0);
    CHECK_EQ_STR(e.sqlstate, "40001");
    rl_txn_free(a);

    /* and a key no later commit touched validates without a conflict */
    a = rl_txn_begin(c, &e);
    rl_datum fresh[4] = {I8(50), I8(1), I8(1), I8(1)};
    CHECK(rl_txn_insert(a, ts, fresh, &e) == 0);
    for (int i = 0; i < 3; i++)
        commit_stats_row(c, 200 + i, 1);
    CHECK(rl_txn_commit(a, &e) == 0);
    rl_txn_free(a);
    /* while the same primary key racing a committed one is still 23505,
     * after commits in between too */
    a = rl_txn_begin(c, &e);
    b = rl_txn_begin(c, &e);
    CHECK(insert_snapshot(a, 60, &e) == 0);
    CHECK(insert_snapshot(b, 60, &e) == 0);
    CHECK(rl_txn_commit(b, &e) == 0);
    for (int i = 0; i < 3; i++)
        commit_stats_row(c, 300 + i, 1);
    CHECK(rl_txn_commit(a, &e) < 0);
    CHECK_EQ_STR(e.sqlstate, "23505");
    rl_txn_free(a);
    rl_txn_free(b);
    rl_catalog_close(c, NULL);
}

static void test_snapshot_isolation_and_rollback(void)
{
    char url[600];
    next_url(url, sizeof url);
    rl_catalog *c = open_cat(url, true);
    if (!c)
        return;
    rl_error e;
    const rl_table_desc *snap = rl_desc_by_tag(RL_TAG_SNAPSHOT);
    rl_txn *reader = rl_txn_begin(c, &e);
    rl_txn *w = rl_txn_begin(c, &e);
    CHECK(insert_snapshot(w, 1, &e) == 0);
    /* read-your-writes inside the writer, not visible to the reader */
    rl_scan *s = rl_txn_scan(w, snap, NULL, 0, &e);
    const rl_row *r;
    CHECK(rl_scan_next(s, &r, &e) == 1 && r->vals[0].v.i == 1);
    rl_scan_free(s);
    CHECK(rl_txn_commit(w, &e) == 0);
    rl_txn_free(w);
    s = rl_txn_scan(reader, snap, NULL, 0, &e);
    CHECK(rl_scan_next(s, &r, &e) == 0); /* reader's snapshot predates the commit */
    rl_scan_free(s);
    rl_txn_free(reader);
    CHECK_EQ_INT(count_rows(c, snap, NULL, 0, false), 1);

    /* a rolled-back transaction leaves nothing, dynamic tables included */
    rl_txn *rb = rl_txn_begin(c, &e);
    CHECK(insert_snapshot(rb, 2, &e) == 0);
    rl_column_desc cols[2] = {{"row_id", RL_T_INT8, false, RL_FMT_1_0, 0},
                              {"a", RL_T_INT4, false, RL_FMT_1_0, 0}};
    CHECK(rl_txn_create_dynamic(rb, "public", "ducklake_inlined_data_1_1", 2, cols, false, &e));
    rl_txn_free(rb);
    CHECK_EQ_INT(count_rows(c, snap, NULL, 0, false), 1);
    rl_txn *t = rl_txn_begin(c, &e);
    CHECK(rl_txn_find_dynamic(t, "public", "ducklake_inlined_data_1_1", &e) == NULL);
    CHECK_EQ_STR(e.sqlstate, "42P01");
    rl_txn_free(t);
    rl_catalog_close(c, NULL);
}

/* A sequence (seqobj.c): nextval is not undone with its transaction; a
 * sequence created by a transaction that rolled back leaves a state whose
 * id is never handed out again, also after a reopen (the counter travels
 * with every state write), so a new sequence starts at its own START. */
static rl_seq_def plain_seq(void)
{
    rl_seq_def d;
    memset(&d, 0, sizeof d);
    d.type_bytes = 8;
    d.start = d.initial = d.min = d.increment = d.cache = 1;
    d.max = INT64_MAX;
    return d;
}

static int64_t next_of(rl_catalog *c, const char *name, rl_error *e)
{
    rl_txn *t = rl_txn_begin(c, e);
    rl_seq_def d;
    int64_t first = -1, last;
    if (t && rl_txn_get_sequence(t, "public", name, &d, e) == 1 &&
        rl_txn_sequence_next(t, name, &d, &first, &last, e) == 0)
        CHECK(first == last);
    rl_txn_free(t); /* rolled back: the value stays taken */
    return first;
}

static void test_sequence_state_outside_transactions(void)
{
    char url[600];
    next_url(url, sizeof url);
    rl_catalog *c = open_cat(url, true);
    if (!c)
        return;
    rl_error e;
    bool created;
    rl_seq_def gone = plain_seq(), kept = plain_seq(), later = plain_seq();
    rl_txn *t = rl_txn_begin(c, &e);
    CHECK(rl_txn_create_sequence(t, "public", "gone", &gone, false, &created, &e) == 0 && created);
    int64_t first, last;
    CHECK(rl_txn_sequence_next(t, "gone", &gone, &first, &last, &e) == 0 && first == 1);
    rl_txn_free(t);
    /* nothing committed: only the state write carried the id counter on */
    rl_catalog_close(c, NULL);
    c = open_cat(url, false);
    if (!c)
        return;
    t = rl_txn_begin(c, &e);
    CHECK(rl_txn_sequence_exists(t, "public", "gone", &e) == 0);
    CHECK(rl_txn_create_sequence(t, "public", "kept", &kept, false, &created, &e) == 0);
    CHECK(rl_txn_create_sequence(t, "public", "kept", &kept, false, &created, &e) < 0);
    CHECK_EQ_STR(e.sqlstate, "42P07");
    CHECK(rl_txn_commit(t, &e) == 0);
    rl_txn_free(t);
    CHECK(kept.id > gone.id);
    CHECK(next_of(c, "kept", &e) == 1);
    CHECK(next_of(c, "kept", &e) == 2); /* the rollback gave nothing back */
    rl_catalog_close(c, NULL);
    c = open_cat(url, false);
    if (!c)
        return;
    CHECK(next_of(c, "kept", &e) == 3); /* a clean close kept the state exactly */
    t = rl_txn_begin(c, &e);
    CHECK(rl_txn_create_sequence(t, "public", "later", &later, false, &created, &e) == 0);
    CHECK(later.id > kept.id && later.id != gone.id);
    CHECK(rl_txn_commit(t, &e) == 0);
    rl_txn_free(t);
    CHECK(next_of(c, "later", &e) == 1);
    rl_seq_state st;
    t = rl_txn_begin(c, &e);
    CHECK(rl_txn_sequence_state(t, &kept, &st, &e) == 0);
    CHECK(st.last_value == 3 && st.is_called && st.log_cnt == RL_SEQ_LOG_VALS);
    CHECK(rl_txn_sequence_set(t, &kept, 10, false, &e) == 0);
    rl_txn_free(t);
    CHECK(next_of(c, "kept", &e) == 10);
    /* a table and a sequence of one name created at once: the later commit
     * loses, whichever kind it makes */
    rl_column_desc cols[1] = {{"a", RL_T_INT4, false, RL_FMT_1_0, 0}};
    for (int seq_first = 0; seq_first < 2; seq_first++) {
        const char *name = seq_first ? "clash2" : "clash1";
        rl_seq_def d = plain_seq();
        rl_txn *a = rl_txn_begin(c, &e), *b = rl_txn_begin(c, &e);
        CHECK(rl_txn_create_dynamic(a, "public", name, 1, cols, false, &e) != NULL);
        CHECK(rl_txn_create_sequence(b, "public", name, &d, false, &created, &e) == 0);
        CHECK(rl_txn_commit(seq_first ? b : a, &e) == 0);
        CHECK(rl_txn_commit(seq_first ? a : b, &e) < 0);
        rl_txn_free(a);
        rl_txn_free(b);
    }
    rl_catalog_close(c, NULL);
}

static void test_mvcc_versions_and_live_index(void)
{
    char url[600];
    next_url(url, sizeof url);
    rl_catalog *c = open_cat(url, true);
    if (!c)
        return;
    rl_error e;
    const rl_table_desc *tbl = rl_desc_by_tag(RL_TAG_TABLE);
    /* table 42: created at 1, renamed at 10 and 20 (the seed's example) */
    rl_txn *t = rl_txn_begin(c, &e);
    CHECK(insert_table_version(t, 42, 1, "orders", &e) == 0);
    CHECK(rl_txn_commit(t, &e) == 0);
    rl_txn_free(t);
    const char *names[] = {"transactions", "payments"};
    int64_t at[] = {10, 20};
    for (int i = 0; i < 2; i++) {
        t = rl_txn_begin(c, &e);
        rl_datum f[1] = {I8(42)};
        rl_scan *s = rl_txn_scan_live(t, tbl, f, 1, &e);
        const rl_row *r;
        CHECK(rl_scan_next(s, &r, &e) == 1);
        rl_datum upd[8];
        memcpy(upd, r->vals, sizeof upd);
        upd[3] = I8(at[i]);
        uint8_t key[64];
        size_t kl = r->klen;
        memcpy(key, r->key, kl);
        /* the borrowed strings of r stay valid until the next call on s */
        CHECK(rl_txn_update(t, tbl, key, kl, upd, &e) == 0);
        rl_scan_free(s);
        CHECK(insert_table_version(t, 42, at[i], names[i], &e) == 0);
        CHECK(rl_txn_commit(t, &e) == 0);
        rl_txn_free(t);
    }
    /* a second table that stays live */
    t = rl_txn_begin(c, &e);
    CHECK(insert_table_version(t, 43, 5, "other", &e) == 0);
    CHECK(rl_txn_commit(t, &e) == 0);
    rl_txn_free(t);

    rl_datum f42[1] = {I8(42)};
    CHECK_EQ_INT(count_rows(c, tbl, f42, 1, false), 3); /* every version */
    CHECK_EQ_INT(count_rows(c, tbl, f42, 1, true), 1);  /* only the open one */
    CHECK_EQ_INT(count_rows(c, tbl, NULL, 0, true), 2);

    /* the seed's question: what was table 42 called at snapshot 15? */
    t = rl_txn_begin(c, &e);
    rl_scan *s = rl_txn_scan(t, tbl, f42, 1, &e);
    const rl_row *r;
    int visible = 0;
    char name[64] = "";
    while (rl_scan_next(s, &r, &e) == 1) {
        if (rl_row_visible_at(r, 15)) {
            visible++;
            snprintf(name, sizeof name, "%.*s", (int)r->vals[5].v.s.len,
                     (const char *)r->vals[5].v.s.p);
        }
    }
    rl_scan_free(s);
    CHECK_EQ_INT(visible, 1);
    CHECK_EQ_STR(name, "transactions");

    /* the live scan reads only live entries, not history */
    s = rl_txn_scan_live(t, tbl, NULL, 0, &e);
    int n = 0;
    while (rl_scan_next(s, &r, &e) == 1) {
        CHECK(r->vals[3].isnull);
        n++;
    }
    CHECK_EQ_INT(n, 2);
    CHECK_EQ_INT(rl_scan_keys_read(s), 4); /* 2 index entries + 2 rows */
    rl_scan_free(s);
    rl_txn_free(t);
    rl_catalog_close(c, NULL);
}

static void test_live_load_cost_follows_live_rows(void)
{
    char url[600];
    next_url(url, sizeof url);
    rl_catalog *c = open_cat(url, true);
    if (!c)
        return;
    rl_error e;
    const rl_table_desc *col = rl_desc_by_tag(RL_TAG_COLUMN);
    /* 20 columns of table 1, each with 10 closed versions and one open */
    rl_txn *t = rl_txn_begin(c, &e);
    for (int cid = 0; cid < 20; cid++) {
        for (int v = 0; v <= 10; v++) {
            rl_datum row[13] = {I8(cid),  I8(v),         v < 10 ? I8(v + 1) : NUL(),
                                I8(1),    I8(cid),       STR("c"),
                                STR("int64"), NUL(),     STR("NULL"),
                                BOOLV(true), NUL(),      STR("literal"),
                                STR("duckdb")};
            CHECK(rl_txn_insert(t, col, row, &e) == 0);
        }
    }
    CHECK(rl_txn_commit(t, &e) == 0);
    rl_txn_free(t);
    t = rl_txn_begin(c, &e);
    rl_datum f[1] = {I8(1)};
    rl_scan *all = rl_txn_scan(t, col, f, 1, &e);
    rl_scan *live = rl_txn_scan_live(t, col, f, 1, &e);
    const rl_row *r;
    int nall = 0, nlive = 0;
    while (rl_scan_next(all, &r, &e) == 1)
        nall++;
    while (rl_scan_next(live, &r, &e) == 1)
        nlive++;
    CHECK_EQ_INT(nall, 220);
    CHECK_EQ_INT(nlive, 20);
    CHECK_EQ_INT(rl_scan_keys_read(all), 220);
    CHECK_EQ_INT(rl_scan_keys_read(live), 40);
    rl_scan_free(all);
    rl_scan_free(live);
    rl_txn_free(t);
    rl_catalog_close(c, NULL);
}

static void test_data_file_pk_via_index_and_delete(void)
{
    char url[600];
    next_url(url, sizeof url);
    rl_catalog *c = open_cat(url, true);
    if (!c)
        return;
    rl_error e;
    const rl_table_desc *df = rl_desc_by_tag(RL_TAG_DATA_FILE);
    rl_datum row[16];
    for (int i = 0; i < 16; i++)
        row[i] = NUL();
    row[0] = I8(100); /* data_file_id */
    row[1] = I8(5);   /* table_id */
    row[2] = I8(3);
    row[5] = STR("a.parquet");
    rl_txn *t = rl_txn_begin(c, &e);
    CHECK(rl_txn_insert(t, df, row, &e) == 0);
    row[1] = I8(6); /* same data_file_id in another table: still a PK violation */
    CHECK(rl_txn_insert(t, df, row, &e) < 0);
    CHECK_EQ_STR(e.sqlstate, "23505");
    CHECK_EQ_STR(e.message,
                 "duplicate key value violates unique constraint \"ducklake_data_file_pkey\"");
    CHECK_EQ_STR(e.detail, "Key (data_file_id)=(100) already exists.");
    CHECK(rl_txn_commit(t, &e) == 0);
    rl_txn_free(t);
    CHECK_EQ_INT(rl_catalog_counter(c, RL_COUNTER_NEXT_FILE_ID), 101);

    /* delete it: the id becomes free again, the live index entry goes too */
    t = rl_txn_begin(c, &e);
    rl_datum f[2] = {I8(5), I8(100)};
    const rl_row *r;
    CHECK(rl_txn_get(t, df, f, &r, &e) == 1);
    uint8_t key[64];
    size_t kl = r->klen;
    memcpy(key, r->key, kl);
    CHECK(rl_txn_delete(t, df, key, kl, &e) == 0);
    CHECK(rl_txn_insert(t, df, row, &e) == 0); /* table 6 now */
    CHECK(rl_txn_commit(t, &e) == 0);
    rl_txn_free(t);
    rl_datum t5[1] = {I8(5)}, t6[1] = {I8(6)};
    CHECK_EQ_INT(count_rows(c, df, t5, 1, true), 0);
    CHECK_EQ_INT(count_rows(c, df, t6, 1, true), 1);
    rl_catalog_close(c, NULL);
}

static void test_key_column_rules(void)
{
    char url[600];
    next_url(url, sizeof url);
    rl_catalog *c = open_cat(url, true);
    if (!c)
        return;
    rl_error e;
    rl_txn *t = rl_txn_begin(c, &e);
    rl_datum bad[5] = {NUL(), NUL(), NUL(), NUL(), NUL()};
    CHECK(rl_txn_insert(t, rl_desc_by_tag(RL_TAG_SNAPSHOT), bad, &e) < 0);
    CHECK_EQ_STR(e.sqlstate, "23502");
    CHECK(strstr(e.message, "\"snapshot_id\"") != NULL);
    bad[0] = I8(-1);
    CHECK(rl_txn_insert(t, rl_desc_by_tag(RL_TAG_SNAPSHOT), bad, &e) < 0);
    CHECK_EQ_STR(e.sqlstate, "22003");
    /* ducklake_metadata: NOT NULL key/value, rows keyed by sequence: duplicates allowed */
    const rl_table_desc *md = rl_desc_by_tag(RL_TAG_METADATA);
    rl_datum m[4] = {STR("version"), NUL(), NUL(), NUL()};
    CHECK(rl_txn_insert(t, md, m, &e) < 0);
    CHECK_EQ_STR(e.sqlstate, "23502");
    CHECK(strstr(e.message, "\"value\"") != NULL);
    m[1] = STR("1.0");
    CHECK(rl_txn_insert(t, md, m, &e) == 0);
    CHECK(rl_txn_insert(t, md, m, &e) == 0);
    /* tables without a PK keep a row with the same key fields, as PostgreSQL
     * does (test_no_pk_tables_keep_duplicates has the details) */
    const rl_table_desc *ts = rl_desc_by_tag(RL_TAG_TABLE_STATS);
    rl_datum s[4] = {I8(1), I8(0), I8(0), I8(0)};
    CHECK(rl_txn_insert(t, ts, s, &e) == 0);
    CHECK(rl_txn_insert(t, ts, s, &e) == 0);
    CHECK(rl_txn_commit(t, &e) == 0);
    rl_txn_free(t);
    CHECK_EQ_INT(count_rows(c, ts, NULL, 0, false), 2);
    CHECK_EQ_INT(count_rows(c, md, NULL, 0, false), 2);
    CHECK_EQ_INT(rl_catalog_counter(c, "next-row-seq:01"), 2);
    rl_catalog_close(c, NULL);
}

static void test_audit_entry_per_commit(void)
{
    char url[600];
    next_url(url, sizeof url);
    rl_catalog *c = open_cat(url, true);
    if (!c)
        return;
    rl_error e;
    for (int i = 0; i < 3; i++) {
        rl_txn *t = rl_txn_begin(c, &e);
        rl_txn_set_audit(t, "alice", "duckdb", "127.0.0.1:5000");
        rl_txn_count_statement(t);
        rl_txn_count_statement(t);
        CHECK(insert_snapshot(t, 10 + i, &e) == 0);
        CHECK(rl_txn_commit(t, &e) == 0);
        rl_txn_free(t);
    }
    rl_txn *t = rl_txn_begin(c, &e);
    rl_scan *s = rl_txn_scan(t, &rl_desc_audit, NULL, 0, &e);
    const rl_row *r;
    int n = 0;
    while (rl_scan_next(s, &r, &e) == 1) {
        CHECK_EQ_INT(r->vals[RL_AUDIT_SNAPSHOT_ID].v.i, 10 + n);
        CHECK_EQ_INT(r->vals[RL_AUDIT_SEQ].v.i, n);
        CHECK_EQ_INT(r->vals[RL_AUDIT_STATEMENTS].v.i, 2);
        CHECK(r->vals[RL_AUDIT_USER].v.s.len == 5 &&
              memcmp(r->vals[RL_AUDIT_USER].v.s.p, "alice", 5) == 0);
        CHECK(r->vals[RL_AUDIT_CLIENT].v.s.len == 14);
        n++;
    }
    CHECK_EQ_INT(n, 3);
    rl_scan_free(s);
    rl_txn_free(t);
    rl_catalog_close(c, NULL);
}

static void test_two_writers_older_is_fenced(void)
{
    char url[600];
    next_url(url, sizeof url);
    rl_catalog *a = open_cat(url, true);
    if (!a)
        return;
    rl_error e;
    rl_txn *t = rl_txn_begin(a, &e);
    CHECK(insert_snapshot(t, 1, &e) == 0);
    CHECK(rl_txn_commit(t, &e) == 0);
    rl_txn_free(t);
    /* a second writer finds a's live lease and stays out, naming a; a
     * keeps committing: reading the lease fenced nothing */
    rl_catalog_options o = {0};
    CHECK(rl_catalog_open(url, &o, &e) == NULL);
    CHECK_EQ_STR(e.sqlstate, "55000");
    char pid[32];
    snprintf(pid, sizeof pid, "pid %d ", (int)getpid());
    CHECK(strstr(e.message, "has a running writer") && strstr(e.message, pid));
    CHECK(strstr(e.hint, "--takeover") != NULL);
    t = rl_txn_begin(a, &e);
    CHECK(t && insert_snapshot(t, 3, &e) == 0);
    CHECK(t && rl_txn_commit(t, &e) == 0);
    rl_txn_free(t);
    /* with takeover it opens and fences a */
    o.takeover = true;
    rl_catalog *b = rl_catalog_open(url, &o, &e);
    CHECK(b != NULL);
    if (!b) {
        rl_catalog_close(a, NULL);
        return;
    }
    CHECK(rl_catalog_writer_epoch(b) > rl_catalog_writer_epoch(a));
    t = rl_txn_begin(a, &e);
    if (t) {
        CHECK(insert_snapshot(t, 2, &e) == 0);
        CHECK(rl_txn_commit(t, &e) < 0);
        CHECK_EQ_STR(e.sqlstate, "25006");
        CHECK(strstr(e.message, "fenced") != NULL);
        /* the server acts on the cause, not on the words (writer_fenced) */
        CHECK_EQ_INT(e.cause, RL_CAUSE_WRITER_FENCED);
        rl_txn_free(t);
    }
    /* the newer writer works and sees nothing of the fenced commit */
    t = rl_txn_begin(b, &e);
    rl_datum k2[1] = {I8(2)};
    const rl_row *r;
    CHECK(rl_txn_get(t, rl_desc_by_tag(RL_TAG_SNAPSHOT), k2, &r, &e) == 0);
    CHECK(insert_snapshot(t, 2, &e) == 0);
    CHECK(rl_txn_commit(t, &e) == 0);
    rl_txn_free(t);
    rl_catalog_close(a, NULL);
    rl_catalog_close(b, NULL);
}

/* Put a writer-lease value into the store directly, as another process's
 * writer would have left it (with `extra` appended: proc-start / boot-id),
 * then close that handle. */
static void plant_lease_extra(const char *url, const char *host, long pid, int64_t heartbeat_ms,
                              int lease_ms, const char *extra)
{
    kv_db *kv = kv_open_writer(url, NULL, NULL);
    CHECK(kv != NULL);
    if (!kv)
        return;
    char v[512];
    snprintf(v, sizeof v,
             "epoch=99 host=%s pid=%ld listen=10.0.0.9:5433 started=%" PRId64
             " heartbeat=%" PRId64 " lease-ms=%d%s",
             host, pid, heartbeat_ms - 5000, heartbeat_ms, lease_ms, extra);
    uint8_t k[64];
    k[0] = RL_TAG_SYSTEM;
    memcpy(k + 1, RL_SYS_WRITER_LEASE, strlen(RL_SYS_WRITER_LEASE));
    kv_batch *b = kv_batch_new();
    kv_batch_put(b, k, 1 + strlen(RL_SYS_WRITER_LEASE), (const uint8_t *)v, strlen(v));
    CHECK_EQ_INT(kv_write(kv, b, NULL), 0);
    kv_batch_free(b);
    kv_close(kv, NULL);
}

static void plant_lease(const char *url, const char *host, long pid, int64_t heartbeat_ms,
                        int lease_ms)
{
    plant_lease_extra(url, host, pid, heartbeat_ms, lease_ms, "");
}

/* A lease whose pid was reused (issue #37): the pid is alive but is not the
 * writer's process (another start time), or the host booted since (another
 * boot id): dead at once, with the reason; the same pid with the writer's
 * own start time and boot id is alive. Here the "reused" pid is this test
 * process itself, whose start time is known. */
static void test_writer_lease_pid_reuse(void)
{
    char url[600];
    next_url(url, sizeof url);
    rl_catalog *c = open_cat(url, true);
    if (!c)
        return;
    rl_catalog_close(c, NULL);
    char host[128] = "";
    gethostname(host, sizeof host);
    rl_lease_owner self;
    memset(&self, 0, sizeof self);
    rl_lease_identify_self(&self);
    CHECK(self.proc_start > 0 && self.boot_id[0]);
    char extra[160];
    rl_catalog_options o = {0};
    rl_error e;
    /* our own pid, recorded with our start time and boot id: a live writer */
    snprintf(extra, sizeof extra, " proc-start=%" PRIu64 " boot-id=%s", self.proc_start,
             self.boot_id);
    plant_lease_extra(url, host, (long)getpid(), rl_lease_now_ms(), 60000, extra);
    CHECK(rl_catalog_open(url, &o, &e) == NULL);
    CHECK(strstr(e.message, "has a running writer") != NULL);
    /* the pid now names another process (this one started later) */
    snprintf(extra, sizeof extra, " proc-start=%" PRIu64 " boot-id=%s", self.proc_start - 1,
             self.boot_id);
    plant_lease_extra(url, host, (long)getpid(), rl_lease_now_ms(), 60000, extra);
    rl_lease_owner held;
    CHECK_EQ_INT(rl_lease_read(url, NULL, &held, &e), 1);
    char why[256];
    CHECK(!rl_lease_check(&held, rl_lease_now_ms(), NULL, why, sizeof why));
    CHECK(strstr(why, "is now another process") != NULL);
    c = rl_catalog_open(url, &o, &e);
    CHECK(c != NULL);
    rl_catalog_close(c, NULL);
    /* the host booted since the lease was written */
    snprintf(extra, sizeof extra, " proc-start=%" PRIu64 " boot-id=00000000-dead-beef",
             self.proc_start);
    plant_lease_extra(url, host, (long)getpid(), rl_lease_now_ms(), 60000, extra);
    CHECK_EQ_INT(rl_lease_read(url, NULL, &held, &e), 1);
    CHECK(!rl_lease_check(&held, rl_lease_now_ms(), NULL, why, sizeof why));
    CHECK(strstr(why, "booted") != NULL);
    /* a lease of an older version (no identity): the live pid holds it */
    plant_lease(url, host, (long)getpid(), rl_lease_now_ms(), 60000);
    CHECK(rl_catalog_open(url, &o, &e) == NULL);
    /* a writer records its own identity */
    plant_lease(url, host, 1, rl_lease_now_ms() - 120000, 60000); /* expired */
    c = rl_catalog_open(url, &o, &e);
    CHECK(c != NULL);
    CHECK_EQ_INT(rl_lease_read(url, NULL, &held, &e), 1);
    CHECK(held.proc_start == self.proc_start && strcmp(held.boot_id, self.boot_id) == 0);
    rl_catalog_close(c, NULL);
}

/* The writer lease: a holder's lease refuses other writers while it is
 * renewed within its period, stops refusing once the period has passed
 * without a renewal, or at once when the holder was a process of this host
 * that no longer exists. A writer records itself and releases at close. */
static void test_writer_lease(void)
{
    char url[600];
    next_url(url, sizeof url);
    rl_catalog *c = open_cat(url, true);
    if (!c)
        return;
    rl_lease_owner held;
    rl_error e;
    CHECK_EQ_INT(rl_lease_read(url, NULL, &held, &e), 1);
    CHECK_EQ_INT(held.pid, getpid());
    CHECK_EQ_INT(held.lease_ms, RL_LEASE_DEFAULT_MS);
    CHECK(held.epoch == rl_catalog_writer_epoch(c));
    CHECK(rl_lease_live(&held, rl_lease_now_ms(), NULL));
    rl_catalog_close(c, NULL);
    CHECK_EQ_INT(rl_lease_read(url, NULL, &held, &e), 0); /* released */

    /* another host's writer, renewed just now, 4 s period: room for the
     * planting writer's open, write and close and the check's read on an
     * object store under a loaded machine (with 1.5 s, planting alone took
     * longer once, and the lease had expired before the check) */
    int64_t planted = rl_lease_now_ms();
    plant_lease(url, "elsewhere.example", 4242, planted, 4000);
    rl_catalog_options o = {0};
    CHECK(rl_catalog_open(url, &o, &e) == NULL);
    CHECK(strstr(e.message, "pid 4242 on host elsewhere.example, listening on 10.0.0.9:5433"));
    CHECK(strstr(e.hint, "4000 ms") != NULL);
    int64_t left = planted + 4100 - rl_lease_now_ms();
    if (left > 0)
        usleep((useconds_t)left * 1000);
    c = rl_catalog_open(url, &o, &e); /* expired */
    CHECK(c != NULL);
    if (!c)
        fprintf(stderr, "  %s\n", e.message);
    rl_catalog_close(c, NULL);

    /* this host, a pid that does not exist: dead at once */
    char host[128] = "";
    gethostname(host, sizeof host);
    pid_t dead = fork();
    if (dead == 0)
        _exit(0);
    waitpid(dead, NULL, 0);
    plant_lease(url, host, (long)dead, rl_lease_now_ms(), 60000);
    c = rl_catalog_open(url, &o, &e);
    CHECK(c != NULL);
    if (!c)
        fprintf(stderr, "  %s\n", e.message);
    rl_catalog_close(c, NULL);

    /* a short period of our own is renewed in time: it outlives two and a
     * half periods. The period leaves an object store's round trips under
     * ASan room (a renewal every period / 5; 300 ms failed there once). */
    o.lease_ms = 1200;
    c = rl_catalog_open(url, &o, &e);
    CHECK(c != NULL);
    usleep(3000 * 1000);
    rl_catalog_options o2 = {0};
    rl_catalog *second = rl_catalog_open(url, &o2, &e);
    CHECK(second == NULL);
    if (second)
        rl_catalog_close(second, NULL);
    else
        CHECK(strstr(e.message, "has a running writer") != NULL);
    rl_catalog_close(c, NULL);
}

/* The copy-incomplete marker: written durably, it makes every open
 * without allow_incomplete_copy fail with 55000 and a hint that says to
 * delete the lake and import again, and check reports it; rl_check_copy
 * does not; once cleared, the lake opens as any other. */
static void test_import_marker(void)
{
    char url[600];
    next_url(url, sizeof url);
    rl_catalog_options allow = {.create_if_missing = true, .allow_incomplete_copy = true};
    rl_error e;
    rl_catalog *c = rl_catalog_open(url, &allow, &e);
    CHECK(c != NULL);
    if (!c)
        return;
    char text[64] = "x";
    CHECK_EQ_INT(rl_catalog_copy_marker_get(c, text, sizeof text, &e), 0);
    CHECK(rl_catalog_copy_marker_set(c, "import from test", &e) == 0);
    CHECK_EQ_INT(rl_catalog_copy_marker_get(c, text, sizeof text, &e), 1);
    CHECK_EQ_STR(text, "import from test");
    CHECK(rl_catalog_close(c, &e) == 0);

    CHECK(open_cat(url, false) == NULL);
    rl_catalog_options plain = {0};
    CHECK(rl_catalog_open(url, &plain, &e) == NULL);
    CHECK_EQ_STR(e.sqlstate, "55000");
    CHECK(strstr(e.message, "unfinished import from test") != NULL);
    CHECK(strstr(e.hint, "rocklake import") != NULL);
    rl_catalog_options reader = {.read_only = true};
    CHECK(rl_catalog_open(url, &reader, &e) == NULL);

    reader.allow_incomplete_copy = true;
    c = rl_catalog_open(url, &reader, &e);
    CHECK(c != NULL);
    if (!c)
        return;
    FILE *devnull = fopen("/dev/null", "w");
    CHECK_EQ_INT(rl_check(c, devnull, NULL, &e), 1);
    CHECK_EQ_INT(rl_check_copy(c, devnull, NULL, &e), 0);
    fclose(devnull);
    CHECK(rl_catalog_copy_marker_clear(c, &e) < 0); /* a reader writes nothing */
    CHECK(rl_catalog_close(c, &e) == 0);

    allow.create_if_missing = false;
    c = rl_catalog_open(url, &allow, &e);
    CHECK(c != NULL && rl_catalog_copy_marker_clear(c, &e) == 0);
    CHECK(rl_catalog_close(c, &e) == 0);
    c = open_cat(url, false);
    CHECK(c != NULL);
    CHECK(rl_catalog_close(c, &e) == 0);

    /* created with the marker in its first batch: refused from the start */
    next_url(url, sizeof url);
    rl_catalog_options born = {.create_if_missing = true, .allow_incomplete_copy = true,
                               .create_copy_marker = "import from birth"};
    c = rl_catalog_open(url, &born, &e);
    CHECK(c != NULL);
    CHECK(rl_catalog_close(c, &e) == 0);
    CHECK(rl_catalog_open(url, &plain, &e) == NULL);
    CHECK(strstr(e.message, "unfinished import from birth") != NULL);
}

static void test_dynamic_tables(void)
{
    char url[600];
    next_url(url, sizeof url);
    rl_catalog *c = open_cat(url, true);
    if (!c)
        return;
    rl_error e;
    rl_column_desc cols[4] = {{"row_id", RL_T_INT8, false, RL_FMT_1_0, 0},
                              {"begin_snapshot", RL_T_INT8, false, RL_FMT_1_0, 0},
                              {"end_snapshot", RL_T_INT8, false, RL_FMT_1_0, 0},
                              {"payload", RL_T_BYTEA, false, RL_FMT_1_0, 0}};
    rl_txn *t = rl_txn_begin(c, &e);
    const rl_table_desc *d =
        rl_txn_create_dynamic(t, "public", "ducklake_inlined_data_5_3", 4, cols, false, &e);
    CHECK(d != NULL);
    if (!d) {
        rl_txn_free(t);
        rl_catalog_close(c, NULL);
        return;
    }
    CHECK(rl_txn_create_dynamic(t, "public", "ducklake_inlined_data_5_3", 4, cols, true, &e) == d);
    CHECK(rl_txn_create_dynamic(t, "public", "ducklake_inlined_data_5_3", 4, cols, false, &e) ==
          NULL);
    CHECK_EQ_STR(e.sqlstate, "42P07");
    for (int i = 0; i < 3; i++) {
        rl_datum row[4] = {I8(i), I8(7), NUL(), STR("hi")};
        CHECK(rl_txn_insert(t, d, row, &e) == 0);
    }
    CHECK(rl_txn_commit(t, &e) == 0);
    rl_txn_free(t);
    rl_catalog_close(c, NULL);

    /* after reopen the definition comes back from the store */
    c = open_cat(url, false);
    if (!c)
        return;
    t = rl_txn_begin(c, &e);
    d = rl_txn_find_dynamic(t, "public", "ducklake_inlined_data_5_3", &e);
    CHECK(d != NULL);
    if (d) {
        CHECK_EQ_INT(d->ncols_max, 4);
        CHECK_EQ_STR(d->cols[3].name, "payload");
        CHECK_EQ_INT(d->cols[3].type, RL_T_BYTEA);
        rl_scan *s = rl_txn_scan(t, d, NULL, 0, &e);
        const rl_row *r;
        int n = 0;
        while (rl_scan_next(s, &r, &e) == 1) {
            CHECK_EQ_INT(r->vals[0].v.i, n);
            CHECK(r->vals[2].isnull);
            CHECK(r->vals[3].v.s.len == 2);
            n++;
        }
        CHECK_EQ_INT(n, 3);
        rl_scan_free(s);
        CHECK(rl_txn_drop_dynamic(t, d, &e) == 0);
        CHECK(rl_txn_commit(t, &e) == 0);
    }
    rl_txn_free(t);
    t = rl_txn_begin(c, &e);
    CHECK(rl_txn_find_dynamic(t, "public", "ducklake_inlined_data_5_3", &e) == NULL);
    rl_txn_free(t);
    rl_catalog_close(c, NULL);
}

static void test_read_only_follower(void)
{
    char url[600];
    next_url(url, sizeof url);
    rl_catalog *w = open_cat(url, true);
    if (!w)
        return;
    rl_error e;
    rl_txn *t = rl_txn_begin(w, &e);
    CHECK(insert_snapshot(t, 1, &e) == 0);
    CHECK(rl_txn_commit(t, &e) == 0);
    rl_txn_free(t);
    rl_catalog_options ro = {.read_only = true};
    rl_catalog *r = rl_catalog_open(url, &ro, &e);
    CHECK(r != NULL);
    if (r) {
        /* A follower sees a commit once SlateDB's WAL has it: on a local
         * store that follows the writer's journal by a flush interval. */
        long rows = 0;
        for (int i = 0; i < 250 && (rows = count_rows(r, rl_desc_by_tag(RL_TAG_SNAPSHOT), NULL,
                                                      0, false)) != 1; i++)
            usleep(20000);
        CHECK_EQ_INT(rows, 1);
        t = rl_txn_begin(r, &e);
        CHECK(insert_snapshot(t, 2, &e) < 0);
        CHECK_EQ_STR(e.sqlstate, "25006");
        CHECK_EQ_INT(e.cause, RL_CAUSE_NONE); /* a follower's refusal is no fencing */
        rl_txn_free(t);
        rl_catalog_close(r, NULL);
    }
    rl_catalog_close(w, NULL);
}


typedef struct racer {
    rl_catalog *cat;
    int commits;
    int retries;
    int failures;
} racer;

/* DuckLake's commit loop: take the next snapshot id, insert it, commit;
 * on 23505 someone else got that id first, so retry with the next one. */
static void *race_commits(void *arg)
{
    racer *r = arg;
    for (int done = 0; done < r->commits;) {
        rl_error e;
        rl_txn *t = rl_txn_begin(r->cat, &e);
        if (!t) {
            r->failures++;
            return NULL;
        }
        int64_t id = (int64_t)rl_catalog_counter(r->cat, RL_COUNTER_NEXT_SNAPSHOT_ID);
        int rc = insert_snapshot(t, id, &e);
        if (rc == 0)
            rc = rl_txn_commit(t, &e);
        rl_txn_free(t);
        if (rc == 0) {
            done++;
        } else if (strcmp(e.sqlstate, "23505") == 0) {
            r->retries++;
        } else {
            r->failures++;
            return NULL;
        }
    }
    return NULL;
}

/* `threads` racers of `each` commits on c, run to the end; checks that
 * none failed. Returns the retries of all of them. */
static int race_to_the_end(rl_catalog *c, int threads, int each)
{
    enum { MAX_RACERS = 16 };
    racer r[MAX_RACERS];
    pthread_t th[MAX_RACERS];
    CHECK(threads <= MAX_RACERS);
    if (threads > MAX_RACERS)
        threads = MAX_RACERS;
    for (int i = 0; i < threads; i++) {
        r[i] = (racer){.cat = c, .commits = each};
        pthread_create(&th[i], NULL, race_commits, &r[i]);
    }
    int retries = 0;
    for (int i = 0; i < threads; i++) {
        pthread_join(th[i], NULL);
        CHECK_EQ_INT(r[i].failures, 0);
        retries += r[i].retries;
    }
    return retries;
}

typedef struct durable_reader {
    rl_catalog *cat;
    _Atomic int *stop;
    _Atomic int begins;
    int undurable, failures;
} durable_reader;

/* Begin transactions while others commit: each snapshot must hold durable
 * commits only (a commit is in the memtable before its flush). */
static void *read_while_committing(void *arg)
{
    durable_reader *d = arg;
    while (!atomic_load(d->stop)) {
        rl_error e;
        rl_txn *t = rl_txn_begin(d->cat, &e);
        if (!t) {
            d->failures++;
            return NULL;
        }
        if (rl_catalog_durable_seq(d->cat) < rl_txn_snapshot_seq(t))
            d->undurable++;
        d->begins++;
        rl_txn_free(t);
    }
    return NULL;
}

static void test_reads_see_only_durable_commits(void)
{
    char url[600];
    next_url(url, sizeof url);
    rl_catalog *c = open_cat(url, true);
    if (!c)
        return;
    enum { WRITERS = 3, EACH = 60 };
    _Atomic int stop = 0;
    pthread_t rd;
    durable_reader d = {.cat = c, .stop = &stop};
    pthread_create(&rd, NULL, read_while_committing, &d);
    /* the reader is under way before the writers start: on a loaded
     * machine it was not scheduled once before they were done */
    while (atomic_load(&d.begins) == 0 && d.failures == 0)
        sched_yield();
    race_to_the_end(c, WRITERS, EACH);
    atomic_store(&stop, 1);
    pthread_join(rd, NULL);
    fprintf(stderr, "  %d snapshots taken during %d commits\n", atomic_load(&d.begins),
            WRITERS * EACH);
    CHECK_EQ_INT(d.failures, 0);
    CHECK(atomic_load(&d.begins) > 0);
    CHECK_EQ_INT(d.undurable, 0);
    rl_catalog_close(c, NULL);
}

static void test_concurrent_commits_race_like_ducklake(void)
{
    char url[600];
    next_url(url, sizeof url);
    rl_catalog *c = open_cat(url, true);
    if (!c)
        return;
    enum { THREADS = 4, EACH = 25 };
    race_to_the_end(c, THREADS, EACH);
    /* every commit landed exactly once: ids 0..N-1, no gaps, no duplicates */
    rl_error e;
    rl_txn *t = rl_txn_begin(c, &e);
    rl_scan *s = rl_txn_scan(t, rl_desc_by_tag(RL_TAG_SNAPSHOT), NULL, 0, &e);
    const rl_row *row;
    int64_t expect = 0;
    while (rl_scan_next(s, &row, &e) == 1) {
        CHECK_EQ_INT(row->vals[0].v.i, expect);
        expect++;
    }
    CHECK_EQ_INT(expect, THREADS * EACH);
    rl_scan_free(s);
    /* one audit entry per successful commit */
    s = rl_txn_scan(t, &rl_desc_audit, NULL, 0, &e);
    int audits = 0;
    while (rl_scan_next(s, &row, &e) == 1)
        audits++;
    CHECK_EQ_INT(audits, THREADS * EACH);
    rl_scan_free(s);
    rl_txn_free(t);
    rl_catalog_close(c, NULL);
}


typedef struct name_list {
    char names[8][300];
    int n;
} name_list;

static int collect_table(void *ctx, const char *schema, const char *name, const rl_table_desc *d)
{
    name_list *l = ctx;
    (void)d;
    if (l->n < 8)
        snprintf(l->names[l->n++], sizeof l->names[0], "%s.%s", schema, name);
    return 0;
}

static int collect_schema(void *ctx, const char *schema)
{
    name_list *l = ctx;
    if (l->n < 8)
        snprintf(l->names[l->n++], sizeof l->names[0], "%s", schema);
    return 0;
}

/* Names are cached across transactions by name generation: a transaction
 * whose snapshot predates a CREATE or DROP keeps seeing the names of its
 * snapshot, later ones see the change, and a transaction's own DDL is seen
 * by itself. */
static int collect_index(void *ctx, const char *schema, const char *name, const rl_index_def *d)
{
    name_list *l = ctx;
    if (l->n < 8)
        snprintf(l->names[l->n++], sizeof l->names[0], "%s.%s on %s(%s)", schema, name, d->table,
                 d->cols[0]);
    return 0;
}

/* Index definitions (0x80 05): created, listed, dropped, durable; a
 * schema's table and index names never overlap, also between concurrent
 * transactions; rocklake check accepts them and reports one that does not
 * decode, which a listing refuses loudly (XX001). */
/* A row of dynamic table d: (a int4, b text) with b NULL when b is. */
/* The tables (a int4, b text) the UNIQUE, FOREIGN KEY and CHECK tests use. */
static const rl_column_desc ab_cols[2] = {{"a", RL_T_INT4, false, RL_FMT_1_0, 0},
                                          {"b", RL_T_TEXT, false, RL_FMT_1_0, 0}};

/* A new catalog at a fresh URL (url: RL_TEST_URL_MAX bytes), or NULL. */
static rl_catalog *fresh_cat(char *url, size_t n)
{
    next_url(url, n);
    return open_cat(url, true);
}

static int insert_ab(rl_txn *t, const rl_table_desc *d, int a, const char *b, rl_error *e)
{
    rl_datum row[2] = {{.v.i = a}, {.isnull = b == NULL}};
    if (b) {
        row[1].v.s.p = (const uint8_t *)b;
        row[1].v.s.len = strlen(b);
    }
    return rl_txn_insert(t, d, row, e);
}

/* The rows of d in key order: a then b of each ("1x,2y"). */
static void rows_text(rl_txn *t, const rl_table_desc *d, char *out, size_t n)
{
    rl_error e;
    size_t at = 0;
    out[0] = 0;
    rl_scan *s = rl_txn_scan(t, d, NULL, 0, &e);
    const rl_row *r;
    while (s && rl_scan_next(s, &r, &e) == 1 && at + 32 < n)
        at += (size_t)snprintf(out + at, n - at, "%s%d%.*s", at ? "," : "", (int)r->vals[0].v.i,
                               r->vals[1].isnull ? 0 : (int)r->vals[1].v.s.len,
                               r->vals[1].isnull ? "" : (const char *)r->vals[1].v.s.p);
    rl_scan_free(s);
}

/* A dynamic table's UPDATE moves the row to a new row sequence, the last
 * (PostgreSQL's heap order and ctids), also when no value changes; its
 * UNIQUE entry names the new key (a duplicate is still refused, the old
 * value is free again); a concurrent UPDATE or DELETE of the row is still
 * 40001 at COMMIT; `rocklake check` finds every entry naming its row. */
static void test_update_moves_dynamic_row(void)
{
    char url[600], got[256];
    rl_error e;
    rl_catalog *c = fresh_cat(url, sizeof url);
    if (!c)
        return;
    rl_index_def ub = {.table = "m", .method = RL_INDEX_BTREE, .ncols = 1, .cols = {"b"},
                       .unique = true};
    rl_txn *t = rl_txn_begin(c, &e);
    const rl_table_desc *d = rl_txn_create_dynamic(t, "public", "m", 2, ab_cols, false, &e);
    CHECK(d != NULL);
    if (!d) {
        rl_txn_free(t);
        rl_catalog_close(c, NULL);
        return;
    }
    CHECK(rl_txn_create_index(t, "public", "m_b", &ub, &e) == 0);
    CHECK(insert_ab(t, d, 1, "x", &e) == 0);
    CHECK(insert_ab(t, d, 2, "y", &e) == 0);
    CHECK(insert_ab(t, d, 3, "z", &e) == 0);
    CHECK(rl_txn_commit(t, &e) == 0);
    rl_txn_free(t);

    t = rl_txn_begin(c, &e);
    rl_datum f = {.v.i = 0}; /* row sequence 0: (1, x) */
    const rl_row *r;
    CHECK(rl_txn_get(t, d, &f, &r, &e) == 1);
    uint8_t k1[64];
    size_t k1l = r->klen;
    memcpy(k1, r->key, k1l);
    uint64_t seq = 99;
    CHECK(rl_row_key_seq(d, k1, k1l, &seq) && seq == 0);
    rl_datum same[2] = {{.v.i = 1}, {.v.s = {(const uint8_t *)"x", 1}}};
    rl_buf nk;
    rl_buf_init(&nk, 0);
    CHECK(rl_txn_update_to(t, d, k1, k1l, same, &nk, &e) == 0); /* no change: still moves */
    CHECK(rl_row_key_seq(d, nk.data, nk.len, &seq) && seq == 3);
    CHECK_EQ_INT(rl_txn_row_exists(t, d, k1, k1l, &e), 0);
    rows_text(t, d, got, sizeof got);
    CHECK_EQ_STR(got, "2y,3z,1x");
    CHECK(insert_ab(t, d, 4, "x", &e) < 0); /* the moved row still holds x */
    CHECK_EQ_STR(e.sqlstate, "23505");
    rl_datum nw[2] = {{.v.i = 1}, {.v.s = {(const uint8_t *)"w", 1}}};
    uint8_t k2[64];
    size_t k2l = nk.len;
    memcpy(k2, nk.data, k2l);
    CHECK(rl_txn_update_to(t, d, k2, k2l, nw, &nk, &e) == 0);
    CHECK(rl_row_key_seq(d, nk.data, nk.len, &seq) && seq == 5); /* 4: the refused insert's */
    CHECK(insert_ab(t, d, 5, "x", &e) == 0); /* x is free again */
    CHECK(rl_txn_commit(t, &e) == 0);
    rl_txn_free(t);
    t = rl_txn_begin(c, &e);
    rows_text(t, d, got, sizeof got);
    CHECK_EQ_STR(got, "2y,3z,1w,5x");
    rl_txn_free(t);

    /* concurrent changes of a row one of them moves: the later committer
     * loses, to an UPDATE (2, y) and to a DELETE (3, z) */
    for (int del = 0; del < 2; del++) {
        t = rl_txn_begin(c, &e);
        f.v.i = 1 + del; /* row sequences 1 and 2 */
        CHECK(rl_txn_get(t, d, &f, &r, &e) == 1);
        uint8_t k[64];
        size_t kl = r->klen;
        memcpy(k, r->key, kl);
        int av = (int)r->vals[0].v.i;
        rl_txn_free(t);
        rl_datum va[2] = {{.v.i = av}, {.v.s = {(const uint8_t *)(del ? "C" : "A"), 1}}};
        rl_datum vb[2] = {{.v.i = av}, {.v.s = {(const uint8_t *)"B", 1}}};
        race_on_row(c, d, k, kl, va, del ? NULL : vb, false);
    }
    t = rl_txn_begin(c, &e);
    rows_text(t, d, got, sizeof got);
    CHECK_EQ_STR(got, "1w,5x,2A,3C");
    rl_txn_free(t);
    rl_buf_free(&nk);
    uint64_t keys = 0;
    CHECK_EQ_INT(rl_check(c, stderr, &keys, &e), 0);
    rl_catalog_close(c, NULL);
}

/* UNIQUE indexes are enforced across transactions: the second of two
 * commits of one value fails (23505, the index's name); a CREATE UNIQUE
 * INDEX and a concurrent write to its table cannot both commit (40001);
 * rows written at one generation of unique definitions cannot commit after
 * another (40001); `rocklake check` knows the entries. */
static void test_unique_indexes(void)
{
    char url[600];
    next_url(url, sizeof url);
    rl_catalog *c = open_cat(url, true);
    if (!c)
        return;
    rl_error e;
    rl_index_def ua = {.table = "u", .method = RL_INDEX_BTREE, .ncols = 1, .cols = {"a"},
                       .unique = true};
    rl_txn *t = rl_txn_begin(c, &e);
    const rl_table_desc *d = rl_txn_create_dynamic(t, "public", "u", 2, ab_cols, false, &e);
    CHECK(d != NULL);
    CHECK(insert_ab(t, d, 1, "x", &e) == 0);
    CHECK(rl_txn_create_index(t, "public", "u_a", &ua, &e) == 0);
    CHECK(insert_ab(t, d, 1, "y", &e) < 0);
    CHECK_EQ_STR(e.sqlstate, "23505");
    CHECK(strstr(e.message, "\"u_a\"") != NULL);
    CHECK(rl_txn_commit(t, &e) == 0);
    rl_txn_free(t);

    /* the same value from two transactions: the second commit fails */
    rl_txn *a = rl_txn_begin(c, &e), *b = rl_txn_begin(c, &e);
    d = rl_txn_find_table(a, "public", "u", &e);
    CHECK(d != NULL);
    CHECK(insert_ab(a, d, 2, NULL, &e) == 0);
    CHECK(insert_ab(b, d, 2, NULL, &e) == 0); /* a's row is not b's to see */
    CHECK(rl_txn_commit(a, &e) == 0);
    CHECK(rl_txn_commit(b, &e) < 0);
    CHECK_EQ_STR(e.sqlstate, "23505");
    CHECK_EQ_STR(e.detail, "Key (a)=(2) already exists.");
    rl_txn_free(a);
    rl_txn_free(b);

    /* a new unique index and a concurrent write to its table: the second
     * to commit fails, either way round */
    rl_index_def ub = {.table = "u", .method = RL_INDEX_BTREE, .ncols = 1, .cols = {"b"},
                       .unique = true};
    for (int order = 0; order < 2; order++) {
        a = rl_txn_begin(c, &e);
        b = rl_txn_begin(c, &e);
        CHECK(rl_txn_create_index(a, "public", order ? "u_b2" : "u_b1", &ub, &e) == 0);
        /* order 1: a duplicate of (1, 'x'), which a's index never saw */
        CHECK(insert_ab(b, d, 10 + order, order ? "x" : "q", &e) == 0);
        rl_txn *first = order ? b : a, *second = order ? a : b;
        CHECK(rl_txn_commit(first, &e) == 0);
        CHECK(rl_txn_commit(second, &e) < 0);
        CHECK_EQ_STR(e.sqlstate, "40001");
        rl_txn_free(a);
        rl_txn_free(b);
        if (order == 0) { /* b's rows were checked before u_b1 came: it lost */
            t = rl_txn_begin(c, &e);
            CHECK(rl_txn_drop_index(t, "public", "u_b1", &e) == 0);
            CHECK(rl_txn_commit(t, &e) == 0);
            rl_txn_free(t);
        }
    }
    /* order 1 committed the row (b = 'x' twice now): the index cannot be made */
    t = rl_txn_begin(c, &e);
    CHECK(rl_txn_create_index(t, "public", "u_b3", &ub, &e) < 0);
    CHECK_EQ_STR(e.sqlstate, "23505");
    CHECK_EQ_STR(e.detail, "Key (b)=(x) is duplicated.");
    rl_txn_free(t);

    /* every row has its entries and no entry stands alone: the refused
     * (1, 'y') above left nothing behind although its transaction went on
     * to commit (it left its row, without an entry, before the entries
     * were probed first) */
    uint64_t keys = 0;
    CHECK_EQ_INT(rl_check(c, stderr, &keys, &e), 0);
    rl_catalog_close(c, NULL);
    c = open_cat(url, false); /* durable: the entries of u_a still hold */
    if (!c)
        return;
    t = rl_txn_begin(c, &e);
    d = rl_txn_find_table(t, "public", "u", &e);
    CHECK(d != NULL);
    CHECK(insert_ab(t, d, 1, "z", &e) < 0);
    CHECK_EQ_STR(e.sqlstate, "23505");
    CHECK(insert_ab(t, d, 3, "x", &e) == 0); /* no index on b is left */
    CHECK(rl_txn_commit(t, &e) == 0);
    rl_txn_free(t);
    /* a refused UPDATE leaves the row and its entry alone */
    t = rl_txn_begin(c, &e);
    rl_scan *sc = rl_txn_scan(t, d, NULL, 0, &e);
    const rl_row *row;
    uint8_t key1[64];
    size_t key1len = 0;
    while (sc && rl_scan_next(sc, &row, &e) == 1)
        if (row->vals[0].v.i == 3 && row->klen <= sizeof key1) {
            memcpy(key1, row->key, row->klen);
            key1len = row->klen;
        }
    rl_scan_free(sc);
    CHECK(key1len > 0);
    rl_datum to1[2] = {{.v.i = 1}, {.isnull = true}};
    CHECK(rl_txn_update(t, d, key1, key1len, to1, &e) < 0);
    CHECK_EQ_STR(e.sqlstate, "23505");
    CHECK(rl_txn_commit(t, &e) == 0);
    rl_txn_free(t);
    CHECK_EQ_INT(rl_check(c, stderr, &keys, &e), 0);
    /* what check finds when entries and rows disagree: a row without its
     * entry, and an entry of no row */
    kv_batch *kb = kv_batch_new();
    rl_buf k;
    rl_buf_init(&k, 0);
    rl_key_unique_index(&k, 1);
    rl_buf_put(&k, (const uint8_t[]){1, 8, 0, 0, 0, 0, 0, 0, 0, 3}, 10); /* a = 3 */
    kv_batch_delete(kb, k.data, k.len);
    rl_buf_reset(&k);
    rl_key_unique_index(&k, 1);
    rl_buf_put(&k, (const uint8_t[]){1, 8, 0, 0, 0, 0, 0, 0, 0, 77}, 10); /* a = 77 */
    kv_batch_put(kb, k.data, k.len, key1, key1len);
    CHECK(kv_write(rl_catalog_kv(c), kb, NULL) == 0);
    kv_batch_free(kb);
    rl_buf_free(&k);
    CHECK_EQ_INT(rl_check(c, stderr, &keys, &e), 2);
    rl_catalog_close(c, NULL);
}

/* A stand-in for the SQL layer's rl_index_fn: lower(b), the row out of a
 * partial index when a < 0; counts its calls (ctx). */
static int lower_b_key(void *ctx, const char *schema, const rl_index_def *def,
                       const rl_table_desc *d, const rl_datum *row, rl_arena *arena,
                       rl_datum *vals, rl_type *types, rl_error *err)
{
    (void)schema;
    (void)d;
    (void)err;
    (*(int *)ctx)++;
    if (def->partial && !row[0].isnull && row[0].v.i < 0)
        return 0;
    types[0] = RL_T_TEXT;
    vals[0] = row[1];
    if (row[1].isnull)
        return 1;
    uint8_t *p = rl_arena_alloc(arena, row[1].v.s.len + 1);
    if (!p)
        return -1;
    for (size_t i = 0; i < row[1].v.s.len; i++)
        p[i] = (uint8_t)tolower(row[1].v.s.p[i]);
    vals[0].v.s.p = p;
    return 1;
}

/* A UNIQUE index over an expression or with a predicate: its key values
 * are the transaction's rl_index_fn's (the SQL layer's), so without one
 * a row write to its table, and building its entries over rows, are
 * refused (0A000), never done without the entries; with one, 23505 names
 * the expression, also at the COMMIT of the second of two transactions
 * writing one value; a partial index leaves out the rows the function says
 * are not in it; `rocklake check` accepts the entries (each names a row of
 * its table) and finds one that names no row. */
static void test_computed_unique_index(void)
{
    char url[600];
    rl_catalog *c = fresh_cat(url, sizeof url);
    if (!c)
        return;
    rl_error e;
    rl_index_def *ix = calloc(1, sizeof *ix);
    CHECK(ix != NULL);
    if (!ix)
        return;
    *ix = (rl_index_def){.table = "u", .method = RL_INDEX_BTREE, .ncols = 1,
                         .cols = {"lower"}, .opts = {RL_INDEX_COL_EXPR}, .unique = true,
                         .expr_type = {25}, .expr_typmod = {-1}};
    CHECK(rl_index_def_add_text(ix, "lower(b)", "lower(b)"));
    CHECK(rl_index_def_computed(ix));
    int calls = 0;
    rl_txn *t = rl_txn_begin(c, &e);
    const rl_table_desc *d = rl_txn_create_dynamic(t, "public", "u", 2, ab_cols, false, &e);
    CHECK(d != NULL);
    CHECK(insert_ab(t, d, 1, "Abc", &e) == 0);
    rl_txn_savepoint *sp = rl_txn_save(t, &e); /* as the SQL statement's */
    CHECK(sp != NULL);
    CHECK(rl_txn_create_index(t, "public", "u_lower", ix, &e) < 0); /* no one to evaluate */
    CHECK_EQ_STR(e.sqlstate, "0A000");
    CHECK(rl_txn_restore(t, sp, &e) == 0);
    rl_txn_savepoint_free(sp);
    rl_txn_set_index_fn(t, lower_b_key, &calls);
    CHECK(rl_txn_create_index(t, "public", "u_lower", ix, &e) == 0);
    CHECK(calls > 0);
    CHECK(insert_ab(t, d, 2, "aBC", &e) < 0);
    CHECK_EQ_STR(e.sqlstate, "23505");
    CHECK_EQ_STR(e.detail, "Key (lower(b))=(abc) already exists.");
    CHECK(insert_ab(t, d, 2, NULL, &e) == 0);
    CHECK(insert_ab(t, d, 3, NULL, &e) == 0); /* NULLs distinct */
    CHECK(rl_txn_commit(t, &e) == 0);
    rl_txn_free(t);

    /* one value from two transactions (X and x): the second COMMIT fails */
    rl_txn *a = rl_txn_begin(c, &e), *b = rl_txn_begin(c, &e);
    rl_txn_set_index_fn(a, lower_b_key, &calls);
    rl_txn_set_index_fn(b, lower_b_key, &calls);
    CHECK(insert_ab(a, d, 7, "X", &e) == 0);
    CHECK(insert_ab(b, d, 8, "x", &e) == 0);
    CHECK(rl_txn_commit(a, &e) == 0);
    CHECK(rl_txn_commit(b, &e) < 0);
    CHECK_EQ_STR(e.sqlstate, "23505");
    CHECK_EQ_STR(e.detail, "Key (lower(b))=(x) already exists.");
    rl_txn_free(a);
    rl_txn_free(b);

    /* below the SQL layer: refused, and nothing written */
    t = rl_txn_begin(c, &e);
    CHECK(insert_ab(t, d, 4, "new", &e) < 0);
    CHECK_EQ_STR(e.sqlstate, "0A000");
    CHECK(strstr(e.message, "u_lower") != NULL);
    rl_txn_set_index_fn(t, lower_b_key, &calls);
    CHECK(insert_ab(t, d, 4, "NEW", &e) == 0);
    /* a partial index: rows with a < 0 are not in it */
    ix->cols[0][0] = 'b';
    ix->cols[0][1] = '\0';
    ix->opts[0] = 0;
    ix->text_len = 0;
    ix->partial = true;
    CHECK(rl_index_def_add_text(ix, "(a < 0)", "a < 0"));
    CHECK(rl_txn_create_index(t, "public", "u_part", ix, &e) == 0);
    CHECK(insert_ab(t, d, -1, "new", &e) < 0); /* u_lower still holds "new" */
    CHECK(strstr(e.message, "u_lower") != NULL);
    CHECK(rl_txn_drop_index(t, "public", "u_lower", &e) == 0);
    CHECK(insert_ab(t, d, -1, "new", &e) == 0);
    CHECK(insert_ab(t, d, -2, "new", &e) == 0);
    CHECK(insert_ab(t, d, 5, "NEW", &e) < 0);
    CHECK_EQ_STR(e.detail, "Key (b)=(new) already exists.");
    CHECK(rl_txn_commit(t, &e) == 0);
    rl_txn_free(t);
    uint64_t keys = 0;
    CHECK_EQ_INT(rl_check(c, stderr, &keys, &e), 0);
    /* an entry of the index that names no row */
    kv_batch *kb = kv_batch_new();
    rl_buf k;
    rl_buf_init(&k, 0);
    rl_key_unique_index(&k, ix->id ? ix->id : 2);
    rl_buf_put(&k, (const uint8_t[]){1, 3, 'z', 'z', 'z'}, 5);
    kv_batch_put(kb, k.data, k.len, (const uint8_t *)"nowhere", 7);
    CHECK(kv_write(rl_catalog_kv(c), kb, NULL) == 0);
    kv_batch_free(kb);
    rl_buf_free(&k);
    CHECK_EQ_INT(rl_check(c, stderr, &keys, &e), 1);
    rl_catalog_close(c, NULL);
    free(ix);
}

/* The key of d's row whose first column is a (the last one, if several),
 * into key[64]: its length, 0 for none. */
static size_t row_key_of(rl_txn *t, const rl_table_desc *d, int a, uint8_t *key)
{
    rl_error e;
    rl_scan *sc = rl_txn_scan(t, d, NULL, 0, &e);
    const rl_row *row;
    size_t klen = 0;
    while (sc && rl_scan_next(sc, &row, &e) == 1)
        if (row->vals[0].v.i == a && row->klen <= 64) {
            memcpy(key, row->key, row->klen);
            klen = row->klen;
        }
    rl_scan_free(sc);
    return klen;
}

/* FOREIGN KEYs across transactions: a referencing row and a concurrent
 * DELETE of the row it references cannot both commit, either way round
 * (the later one fails with PostgreSQL's 23503), nor can a new FOREIGN
 * KEY and a concurrent write to its table (40001); a row written through
 * the API without its referenced key is refused and writes nothing;
 * `rocklake check` knows the definitions and entries. */
static void test_foreign_keys(void)
{
    char url[600];
    next_url(url, sizeof url);
    rl_catalog *c = open_cat(url, true);
    if (!c)
        return;
    rl_error e;
    rl_index_def pk = {.table = "p", .method = RL_INDEX_BTREE, .ncols = 1, .cols = {"a"},
                       .unique = true, .constraint = true, .primary = true};
    rl_txn *t = rl_txn_begin(c, &e);
    const rl_table_desc *p = rl_txn_create_dynamic(t, "public", "p", 2, ab_cols, false, &e);
    const rl_table_desc *ch = rl_txn_create_dynamic(t, "public", "ch", 2, ab_cols, false, &e);
    CHECK(p && ch);
    CHECK(rl_txn_create_index(t, "public", "p_pkey", &pk, &e) == 0);
    rl_index_def got;
    CHECK(rl_txn_find_index(t, "public", "p_pkey", &got, &e) == 1);
    rl_fkey_def fk = {.ncols = 1, .cols = {"a"}, .ref_pos = {0}, .ref_index_id = got.id,
                      .on_update = RL_FKEY_NO_ACTION, .on_delete = RL_FKEY_NO_ACTION};
    CHECK(rl_txn_create_fkey(t, "public", "ch", "ch_a_fkey", &fk, &e) == 0);
    CHECK(insert_ab(t, p, 1, "x", &e) == 0);
    CHECK(insert_ab(t, p, 2, "y", &e) == 0);
    CHECK(insert_ab(t, p, 5, "z", &e) == 0);
    CHECK(insert_ab(t, ch, 1, "c1", &e) == 0);
    CHECK(insert_ab(t, ch, 3, "c3", &e) < 0);
    CHECK_EQ_STR(e.sqlstate, "23503");
    CHECK_EQ_STR(e.message,
                 "insert or update on table \"ch\" violates foreign key constraint \"ch_a_fkey\"");
    CHECK_EQ_STR(e.detail, "Key (a)=(3) is not present in table \"p\".");
    CHECK(rl_txn_commit(t, &e) == 0); /* the refused row left nothing */
    rl_txn_free(t);

    /* a row referencing 2 (5) and a concurrent DELETE of it: the later fails */
    for (int order = 0; order < 2; order++) {
        int key_a = order ? 5 : 2;
        rl_txn *a = rl_txn_begin(c, &e), *b = rl_txn_begin(c, &e);
        CHECK(insert_ab(a, ch, key_a, order ? "late" : "early", &e) == 0);
        uint8_t key[64];
        size_t klen = row_key_of(b, p, key_a, key);
        CHECK(klen > 0);
        CHECK(rl_txn_delete(b, p, key, klen, &e) == 0);
        CHECK(rl_txn_fkey_statement_end(b, &e) == 0); /* b sees no row referencing it */
        rl_txn *first = order ? b : a, *second = order ? a : b;
        CHECK(rl_txn_commit(first, &e) == 0);
        CHECK(rl_txn_commit(second, &e) < 0);
        CHECK_EQ_STR(e.sqlstate, "23503");
        CHECK_EQ_STR(e.message, order ? "insert or update on table \"ch\" violates foreign key "
                                        "constraint \"ch_a_fkey\""
                                      : "update or delete on table \"p\" violates foreign key "
                                        "constraint \"ch_a_fkey\" on table \"ch\"");
        rl_txn_free(a);
        rl_txn_free(b);
    }

    /* a new FOREIGN KEY and a concurrent write to its table */
    rl_fkey_def fk2 = fk;
    rl_txn *a = rl_txn_begin(c, &e), *b = rl_txn_begin(c, &e);
    CHECK(rl_txn_create_fkey(a, "public", "ch", "ch_a_fkey2", &fk2, &e) == 0);
    CHECK(insert_ab(b, p, 9, "nine", &e) == 0);
    CHECK(rl_txn_commit(b, &e) == 0);
    CHECK(rl_txn_commit(a, &e) < 0);
    CHECK_EQ_STR(e.sqlstate, "40001");
    rl_txn_free(a);
    rl_txn_free(b);

    uint64_t keys = 0;
    CHECK_EQ_INT(rl_check(c, stderr, &keys, &e), 0);
    /* an entry of no definition is found */
    kv_batch *kb = kv_batch_new();
    rl_buf k;
    rl_buf_init(&k, 0);
    rl_key_fkey_entries(&k, 999);
    rl_buf_put(&k, (const uint8_t[]){1, 8, 0, 0, 0, 0, 0, 0, 0, 3, 0xfd}, 11);
    kv_batch_put(kb, k.data, k.len, (const uint8_t *)"", 0);
    CHECK(kv_write(rl_catalog_kv(c), kb, NULL) == 0);
    kv_batch_free(kb);
    rl_buf_free(&k);
    CHECK_EQ_INT(rl_check(c, stderr, &keys, &e), 1);
    rl_catalog_close(c, NULL);
}

/* A FOREIGN KEY definition's versions: 1 (as every lake before DEFERRABLE
 * wrote it, and still for a key that is not) decodes as NOT DEFERRABLE; a
 * DEFERRABLE key is version 2 with its flags; neither version takes the
 * other's flags; a key with a text column of a character(n) key is
 * version 3 (either's flags, then the mask of those columns). */
static void test_fkey_def_versions(void)
{
    /* version 1, flags MATCH FULL, actions a / c, index 7, id 9, one column "x" at 0 */
    const uint8_t v1[] = {1, 0x01, 'a', 'c', 0, 0, 0, 0, 0, 0, 0, 7,
                          0, 0, 0, 0, 0, 0, 0, 9, 1, 1, 'x', 0};
    rl_fkey_def d;
    CHECK(rl_fkey_def_decode(v1, sizeof v1, &d));
    CHECK(d.match_full && !d.deferrable && !d.initially_deferred && d.id == 9);
    rl_buf b;
    rl_buf_init(&b, 0);
    rl_fkey_def_encode(&b, &d);
    CHECK(b.len == sizeof v1 && memcmp(b.data, v1, sizeof v1) == 0);
    d.deferrable = d.initially_deferred = true;
    rl_buf_reset(&b);
    rl_fkey_def_encode(&b, &d);
    CHECK(b.len == sizeof v1 && b.data[0] == 2 && b.data[1] == (0x01 | 0x04 | 0x08));
    rl_fkey_def again;
    CHECK(rl_fkey_def_decode(b.data, b.len, &again));
    CHECK(again.deferrable && again.initially_deferred && again.match_full);
    uint8_t bad[sizeof v1];
    memcpy(bad, v1, sizeof v1);
    bad[1] = 0x04; /* version 1 with DEFERRABLE */
    CHECK(!rl_fkey_def_decode(bad, sizeof bad, &again));
    bad[0] = 2;
    bad[1] = 0x08; /* version 2: INITIALLY DEFERRED without DEFERRABLE */
    CHECK(!rl_fkey_def_decode(bad, sizeof bad, &again));
    bad[1] = 0x00;
    CHECK(!rl_fkey_def_decode(bad, sizeof bad, &again));
    bad[1] = 0x14; /* an unknown flag */
    CHECK(!rl_fkey_def_decode(bad, sizeof bad, &again));
    bad[0] = 3; /* version 3 without its bpchar mask */
    bad[1] = 0x04;
    CHECK(!rl_fkey_def_decode(bad, sizeof bad, &again));
    bad[0] = 4;
    CHECK(!rl_fkey_def_decode(bad, sizeof bad, &again));
    /* a text column of a character(n) key: version 3, its mask at the end,
     * with or without DEFERRABLE */
    d.bpchar_cols = 1;
    d.deferrable = d.initially_deferred = false;
    rl_buf_reset(&b);
    rl_fkey_def_encode(&b, &d);
    CHECK(b.len == sizeof v1 + 4 && b.data[0] == 3 && b.data[1] == 0x01);
    CHECK(memcmp(b.data + sizeof v1, (const uint8_t[]){0, 0, 0, 1}, 4) == 0);
    CHECK(rl_fkey_def_decode(b.data, b.len, &again));
    CHECK(again.bpchar_cols == 1 && !again.deferrable && again.match_full);
    d.deferrable = true;
    rl_buf_reset(&b);
    rl_fkey_def_encode(&b, &d);
    CHECK(b.data[0] == 3 && b.data[1] == (0x01 | 0x04));
    CHECK(rl_fkey_def_decode(b.data, b.len, &again));
    CHECK(again.bpchar_cols == 1 && again.deferrable && !again.initially_deferred);
    uint8_t bad3[sizeof v1 + 4];
    memcpy(bad3, b.data, sizeof bad3);
    bad3[sizeof bad3 - 1] = 0; /* an empty mask */
    CHECK(!rl_fkey_def_decode(bad3, sizeof bad3, &again));
    bad3[sizeof bad3 - 1] = 2; /* a column past the one there is */
    CHECK(!rl_fkey_def_decode(bad3, sizeof bad3, &again));
    bad3[sizeof bad3 - 1] = 1;
    bad3[1] = 0x08; /* INITIALLY DEFERRED without DEFERRABLE */
    CHECK(!rl_fkey_def_decode(bad3, sizeof bad3, &again));
    bad3[1] = 0x00;
    CHECK(rl_fkey_def_decode(bad3, sizeof bad3, &again));
    CHECK(!rl_fkey_def_decode(bad3, sizeof bad3 - 1, &again));
    rl_buf_free(&b);
}

/* p(a) referenced by ch(a) through a DEFERRABLE INITIALLY DEFERRED key,
 * p holding 1 and 5 (made in one transaction of catalog c): p's table,
 * ch's table. */
static void deferred_fkey_tables(rl_catalog *c, const rl_table_desc **p, const rl_table_desc **ch)
{
    rl_error e;
    rl_column_desc cols[2] = {{"a", RL_T_INT4, false, RL_FMT_1_0, 0},
                              {"b", RL_T_TEXT, false, RL_FMT_1_0, 0}};
    rl_index_def pk = {.table = "p", .method = RL_INDEX_BTREE, .ncols = 1, .cols = {"a"},
                       .unique = true, .constraint = true, .primary = true};
    rl_txn *t = rl_txn_begin(c, &e);
    *p = rl_txn_create_dynamic(t, "public", "p", 2, cols, false, &e);
    *ch = rl_txn_create_dynamic(t, "public", "ch", 2, cols, false, &e);
    CHECK(*p && *ch);
    CHECK(rl_txn_create_index(t, "public", "p_pkey", &pk, &e) == 0);
    rl_index_def got;
    CHECK(rl_txn_find_index(t, "public", "p_pkey", &got, &e) == 1);
    rl_fkey_def fk = {.ncols = 1, .cols = {"a"}, .ref_pos = {0}, .ref_index_id = got.id,
                      .on_update = RL_FKEY_NO_ACTION, .on_delete = RL_FKEY_NO_ACTION,
                      .deferrable = true, .initially_deferred = true};
    CHECK(rl_txn_create_fkey(t, "public", "ch", "ch_a_fkey", &fk, &e) == 0);
    CHECK(insert_ab(t, *p, 1, "x", &e) == 0);
    CHECK(insert_ab(t, *p, 5, "y", &e) == 0);
    CHECK(rl_txn_commit(t, &e) == 0);
    rl_txn_free(t);
    t = rl_txn_begin(c, &e);
    rl_fkey_def back;
    CHECK(rl_txn_find_fkey(t, "public", "ch", "ch_a_fkey", &back, &e) == 1);
    CHECK(back.deferrable && back.initially_deferred);
    rl_txn_free(t);
}

/* A DEFERRED FOREIGN KEY through the catalog's API: a referencing row may
 * come before its key and is checked at COMMIT (23503 there, the
 * transaction's writes gone); SET CONSTRAINTS ... IMMEDIATE checks what
 * waits at once; a concurrent DELETE of the referenced row that commits
 * first fails the later COMMIT (the check leaves its expectation). */
static void test_deferred_foreign_keys(void)
{
    char url[600];
    next_url(url, sizeof url);
    rl_catalog *c = open_cat(url, true);
    if (!c)
        return;
    rl_error e;
    const rl_table_desc *p, *ch;
    deferred_fkey_tables(c, &p, &ch);
    rl_txn *t = rl_txn_begin(c, &e);
    CHECK(insert_ab(t, ch, 7, "early", &e) == 0); /* no p 7 yet */
    CHECK(rl_txn_fkey_statement_end(t, &e) == 0);
    CHECK(insert_ab(t, p, 7, "seven", &e) == 0);
    CHECK(rl_txn_commit(t, &e) == 0);
    rl_txn_free(t);
    t = rl_txn_begin(c, &e);
    CHECK(insert_ab(t, ch, 8, "never", &e) == 0);
    CHECK(rl_txn_fkey_statement_end(t, &e) == 0);
    CHECK(rl_txn_commit(t, &e) < 0);
    CHECK_EQ_STR(e.sqlstate, "23503");
    CHECK_EQ_STR(e.message,
                 "insert or update on table \"ch\" violates foreign key constraint \"ch_a_fkey\"");
    CHECK_EQ_STR(e.detail, "Key (a)=(8) is not present in table \"p\".");
    rl_txn_free(t);
    CHECK_EQ_INT(count_rows(c, ch, NULL, 0, false), 1);
    /* SET CONSTRAINTS ALL IMMEDIATE runs what waits */
    t = rl_txn_begin(c, &e);
    CHECK(insert_ab(t, ch, 9, "nine", &e) == 0);
    CHECK(rl_txn_set_constraints(t, NULL, 0, false, &e) < 0);
    CHECK_EQ_STR(e.detail, "Key (a)=(9) is not present in table \"p\".");
    rl_txn_free(t);
    /* ... and later rows are checked at once */
    t = rl_txn_begin(c, &e);
    CHECK(rl_txn_set_constraints(t, NULL, 0, false, &e) == 0);
    CHECK(insert_ab(t, ch, 9, "nine", &e) < 0);
    CHECK_EQ_STR(e.sqlstate, "23503");
    rl_txn_free(t);
    /* the referenced side: NO ACTION waits for COMMIT */
    t = rl_txn_begin(c, &e);
    uint8_t key[64];
    size_t klen = row_key_of(t, p, 7, key);
    CHECK(klen > 0);
    CHECK(rl_txn_delete(t, p, key, klen, &e) == 0);
    CHECK(rl_txn_fkey_statement_end(t, &e) == 0);
    CHECK(rl_txn_commit(t, &e) < 0);
    CHECK_EQ_STR(e.message, "update or delete on table \"p\" violates foreign key constraint "
                            "\"ch_a_fkey\" on table \"ch\"");
    rl_txn_free(t);
    /* a referencing row and a concurrent DELETE of its key: the later fails */
    rl_txn *a = rl_txn_begin(c, &e), *b = rl_txn_begin(c, &e);
    CHECK(insert_ab(a, ch, 1, "late", &e) == 0);
    klen = row_key_of(b, p, 1, key);
    CHECK(klen > 0);
    CHECK(rl_txn_delete(b, p, key, klen, &e) == 0);
    CHECK(rl_txn_commit(b, &e) == 0);
    CHECK(rl_txn_commit(a, &e) < 0);
    CHECK_EQ_STR(e.sqlstate, "23503");
    CHECK_EQ_STR(e.detail, "Key (a)=(1) is not present in table \"p\".");
    rl_txn_free(a);
    rl_txn_free(b);
    uint64_t keys = 0;
    CHECK_EQ_INT(rl_check(c, stderr, &keys, &e), 0);
    rl_catalog_close(c, NULL);
}

static int count_checks(void *ctx, const rl_check_con *c)
{
    (void)c;
    (*(size_t *)ctx)++;
    return 0;
}

/* A CHECK (u_a_check, "(a > 0)" on u(a, b)) as the SQL layer stores it. */
static int put_check_a(rl_txn *t, const char *name, const rl_table_desc *rows_read, rl_error *e)
{
    rl_check_def def = {.table = "u", .expr = "(a > 0)", .pretty = "a > 0", .nconkey = 1,
                        .conkey = {1}};
    return rl_txn_put_check(t, "public", name, &def, rows_read, e);
}

/* CHECK constraints: the catalog keeps and lists their definitions (the
 * registry in key order; a dropped table's still found by its name, so the
 * SQL layer can drop them with it); an ADD CHECK that read the table's rows
 * and a concurrent write to the table cannot both commit, either way round
 * (40001: the rows expected unchanged, the writer checked under an older
 * generation); `rocklake check` decodes them. */
static void test_check_constraints(void)
{
    char url[600];
    next_url(url, sizeof url);
    rl_catalog *c = open_cat(url, true);
    if (!c)
        return;
    rl_error e;
    rl_txn *t = rl_txn_begin(c, &e);
    const rl_check_con *cc;
    size_t n = 9;
    uint64_t stamp0 = 0, stamp1 = 0;
    CHECK(rl_txn_checks(t, &cc, &n, &stamp0, &e) == 0);
    CHECK_EQ_INT((int)n, 0);
    const rl_table_desc *d = rl_txn_create_dynamic(t, "public", "u", 2, ab_cols, false, &e);
    CHECK(d != NULL);
    CHECK(put_check_a(t, "u_a_check", NULL, &e) == 0);
    CHECK(rl_txn_checks(t, &cc, &n, &stamp1, &e) == 0); /* its own DDL shows */
    CHECK_EQ_INT((int)n, 1);
    CHECK(stamp1 != stamp0);
    CHECK_EQ_STR(cc[0].name, "u_a_check");
    CHECK_EQ_STR(cc[0].def.table, "u");
    CHECK_EQ_STR(cc[0].def.expr, "(a > 0)");
    CHECK_EQ_STR(cc[0].def.pretty, "a > 0");
    CHECK(cc[0].def.nconkey == 1 && cc[0].def.conkey[0] == 1 && !cc[0].def.not_valid);
    CHECK(rl_txn_commit(t, &e) == 0);
    rl_txn_free(t);

    /* ADD CHECK (rows read) and a concurrent insert: the second to commit
     * fails, either way round */
    for (int order = 0; order < 2; order++) {
        rl_txn *a = rl_txn_begin(c, &e), *b = rl_txn_begin(c, &e);
        d = rl_txn_find_table(a, "public", "u", &e);
        CHECK(d != NULL);
        CHECK(put_check_a(a, order ? "u_a_check2" : "u_a_check1", d, &e) == 0);
        CHECK(insert_ab(b, rl_txn_find_table(b, "public", "u", &e), 20 + order, "w", &e) == 0);
        rl_txn *first = order ? b : a, *second = order ? a : b;
        CHECK(rl_txn_commit(first, &e) == 0);
        CHECK(rl_txn_commit(second, &e) < 0);
        CHECK_EQ_STR(e.sqlstate, "40001");
        rl_txn_free(a);
        rl_txn_free(b);
    }
    /* a NOT VALID one (no rows read) still fails the writer that checked
     * its rows before it came */
    rl_txn *a = rl_txn_begin(c, &e), *b = rl_txn_begin(c, &e);
    CHECK(insert_ab(b, rl_txn_find_table(b, "public", "u", &e), 30, "v", &e) == 0);
    CHECK(put_check_a(a, "u_a_check3", NULL, &e) == 0);
    CHECK(rl_txn_commit(a, &e) == 0);
    CHECK(rl_txn_commit(b, &e) < 0);
    CHECK_EQ_STR(e.sqlstate, "40001");
    rl_txn_free(a);
    rl_txn_free(b);

    /* the table dropped: the registry no longer lists its CHECKs, the
     * table's own listing still does; dropping them empties both */
    t = rl_txn_begin(c, &e);
    CHECK(rl_txn_checks(t, &cc, &n, NULL, &e) == 0);
    CHECK_EQ_INT((int)n, 3); /* u_a_check, u_a_check1 (order 0's ADD won), u_a_check3 */
    CHECK(rl_txn_drop_table(t, "public", "u", &e) == 0);
    CHECK(rl_txn_checks(t, &cc, &n, NULL, &e) == 0);
    CHECK_EQ_INT((int)n, 0);
    size_t listed = 0;
    CHECK(rl_txn_table_checks(t, "public", "u", count_checks, &listed, &e) == 0);
    CHECK_EQ_INT((int)listed, 3);
    uint64_t keys = 0;
    CHECK(rl_txn_commit(t, &e) == 0);
    rl_txn_free(t);
    CHECK_EQ_INT(rl_check(c, stderr, &keys, &e), 0); /* they decode */
    t = rl_txn_begin(c, &e);
    const char *names[] = {"u_a_check", "u_a_check1", "u_a_check3"};
    for (size_t i = 0; i < 3; i++)
        CHECK(rl_txn_drop_check(t, "public", "u", names[i], &e) == 0);
    listed = 0;
    CHECK(rl_txn_table_checks(t, "public", "u", count_checks, &listed, &e) == 0);
    CHECK_EQ_INT((int)listed, 0);
    CHECK(rl_txn_commit(t, &e) == 0);
    rl_txn_free(t);
    rl_catalog_close(c, NULL);
}

/* Column DEFAULTs: kept and listed as CHECKs are (0x80 0B, the column's
 * name in the key), a lake first seen without any (the catalog's note that
 * a generation has none) sees one another transaction commits, a dropped
 * default is gone, the two kinds never mix, `rocklake check` decodes them
 * and refuses one with a CHECK's flags. */
static void test_column_defaults(void)
{
    char url[600];
    next_url(url, sizeof url);
    rl_catalog *c = open_cat(url, true);
    if (!c)
        return;
    rl_error e;
    rl_txn *t = rl_txn_begin(c, &e);
    CHECK(rl_txn_create_dynamic(t, "public", "u", 2, ab_cols, false, &e) != NULL);
    CHECK(rl_txn_commit(t, &e) == 0);
    rl_txn_free(t);
    const rl_check_con *dc;
    size_t n = 9;
    t = rl_txn_begin(c, &e); /* notes that this generation has no default */
    CHECK(rl_txn_defaults(t, &dc, &n, NULL, &e) == 0);
    CHECK_EQ_INT((int)n, 0);
    rl_txn_free(t);

    t = rl_txn_begin(c, &e);
    CHECK(rl_txn_put_default(t, "public", "u", "b", "'x'::text", "'x'::text", &e) == 0);
    CHECK(rl_txn_put_default(t, "public", "u", "a", "(2 + 3)", "(2 + 3)", &e) == 0);
    CHECK(rl_txn_defaults(t, &dc, &n, NULL, &e) == 0); /* its own DDL shows, in key order */
    CHECK_EQ_INT((int)n, 2);
    CHECK_EQ_STR(dc[0].name, "a");
    CHECK_EQ_STR(dc[0].def.expr, "(2 + 3)");
    CHECK_EQ_STR(dc[1].name, "b");
    CHECK_EQ_STR(dc[1].def.table, "u");
    const rl_check_con *cc;
    CHECK(rl_txn_checks(t, &cc, &n, NULL, &e) == 0); /* not a CHECK */
    CHECK_EQ_INT((int)n, 0);
    CHECK(rl_txn_commit(t, &e) == 0);
    rl_txn_free(t);

    t = rl_txn_begin(c, &e); /* the committed ones, past the note of none */
    CHECK(rl_txn_defaults(t, &dc, &n, NULL, &e) == 0);
    CHECK_EQ_INT((int)n, 2);
    CHECK(rl_txn_put_default(t, "public", "u", "a", NULL, NULL, &e) == 0);
    CHECK(rl_txn_defaults(t, &dc, &n, NULL, &e) == 0);
    CHECK_EQ_INT((int)n, 1);
    CHECK_EQ_STR(dc[0].name, "b");
    CHECK(rl_txn_commit(t, &e) == 0);
    rl_txn_free(t);
    uint64_t keys = 0;
    CHECK_EQ_INT(rl_check(c, stderr, &keys, &e), 0);

    /* a DEFAULT carrying a CHECK's flags or attnums is corrupt: refused */
    kv_batch *kb = kv_batch_new();
    rl_buf k, v;
    rl_buf_init(&k, 0);
    rl_buf_init(&v, 0);
    rl_key_default(&k, "public", "u", "a");
    rl_check_def bad = {.table = "u", .expr = "1", .pretty = "1", .not_valid = true};
    rl_check_def_encode(&v, &bad);
    kv_batch_put(kb, k.data, k.len, v.data, v.len);
    CHECK(kv_write(rl_catalog_kv(c), kb, NULL) == 0);
    kv_batch_free(kb);
    rl_buf_free(&k);
    rl_buf_free(&v);
    CHECK_EQ_INT(rl_check(c, stderr, &keys, &e), 1);
    t = rl_txn_begin(c, &e);
    CHECK(rl_txn_defaults(t, &dc, &n, NULL, &e) < 0);
    CHECK_EQ_STR(e.sqlstate, "XX001");
    rl_txn_free(t);
    rl_catalog_close(c, NULL);
}

/* A column DEFAULT's stored value (rl_check_def) keeps an identity
 * column's kind in its flags byte, bytes pinned: a plain default (as every
 * stored one before identity columns) is flags 0 and decodes as no
 * identity, GENERATED ALWAYS is bit 2, BY DEFAULT bit 3; both bits, or an
 * unknown one, are corrupt. */
static void test_default_identity_codec(void)
{
    /* version 1, flags, "1", "1", no attnums */
    const uint8_t plain[] = {1, 0x00, 1, '1', 1, '1', 0};
    rl_check_def d = {.table = "t"};
    char text[64];
    CHECK(rl_check_def_decode(plain, sizeof plain, &d, text, sizeof text));
    CHECK(d.identity == 0 && !d.not_valid && !d.no_inherit);
    CHECK_EQ_STR(d.table, "t");
    CHECK_EQ_STR(d.expr, "1");
    rl_buf b;
    rl_buf_init(&b, 0);
    rl_check_def_encode(&b, &d);
    CHECK(b.len == sizeof plain && memcmp(b.data, plain, sizeof plain) == 0);
    const char kinds[] = {'a', 'd'};
    const uint8_t bits[] = {0x04, 0x08};
    for (size_t i = 0; i < 2; i++) {
        d.identity = kinds[i];
        rl_buf_reset(&b);
        rl_check_def_encode(&b, &d);
        CHECK(b.len == sizeof plain && b.data[1] == bits[i]);
        rl_check_def again = {.table = "t"};
        CHECK(rl_check_def_decode(b.data, b.len, &again, text, sizeof text));
        CHECK(again.identity == kinds[i]);
    }
    uint8_t bad[sizeof plain];
    memcpy(bad, plain, sizeof plain);
    bad[1] = 0x04 | 0x08; /* ALWAYS and BY DEFAULT */
    CHECK(!rl_check_def_decode(bad, sizeof bad, &d, text, sizeof text));
    bad[1] = 0x10; /* an unknown flag */
    CHECK(!rl_check_def_decode(bad, sizeof bad, &d, text, sizeof text));
    rl_buf_free(&b);
}

/* Two transactions insert rows of one natural key into a DuckLake table
 * that keeps duplicates and has a UNIQUE index on another column: the
 * second to commit moves its row to key | dup, and its entry follows it
 * (check finds each entry naming its row). */
static void test_unique_entries_follow_a_moved_duplicate(void)
{
    char url[600];
    next_url(url, sizeof url);
    rl_catalog *c = open_cat(url, true);
    if (!c)
        return;
    rl_error e;
    const rl_table_desc *d = rl_desc_by_tag(RL_TAG_TABLE_STATS);
    rl_index_def ux = {.table = "ducklake_table_stats", .method = RL_INDEX_BTREE, .ncols = 1,
                       .cols = {"record_count"}, .unique = true};
    rl_txn *t = rl_txn_begin(c, &e);
    CHECK(rl_txn_register_fixed(t, "public", d, false, &e) == 0);
    CHECK(rl_txn_create_index(t, "public", "stats_count", &ux, &e) == 0);
    CHECK(rl_txn_commit(t, &e) == 0);
    rl_txn_free(t);
    rl_txn *a = rl_txn_begin(c, &e), *b = rl_txn_begin(c, &e);
    rl_datum ra[4] = {{.v.i = 1}, {.v.i = 10}, {.v.i = 10}, {.v.i = 100}};
    rl_datum rb[4] = {{.v.i = 1}, {.v.i = 20}, {.v.i = 20}, {.v.i = 200}};
    CHECK(rl_txn_insert(a, d, ra, &e) == 0);
    CHECK(rl_txn_insert(b, d, rb, &e) == 0);
    CHECK(rl_txn_commit(a, &e) == 0);
    CHECK(rl_txn_commit(b, &e) == 0); /* moved to key | dup: PostgreSQL keeps both */
    rl_txn_free(a);
    rl_txn_free(b);
    uint64_t keys = 0;
    CHECK_EQ_INT(rl_check(c, stderr, &keys, &e), 0);
    rl_catalog_close(c, NULL);
}

/* A version 2 definition on ducklake_snapshot: an expression column
 * (lower(snapshot_time::text)), a plain one, an INCLUDE column, a
 * predicate. */
static void expression_index(rl_index_def *d)
{
    *d = (rl_index_def){.table = "ducklake_snapshot", .method = RL_INDEX_BTREE, .ncols = 2,
                        .cols = {"lower", "snapshot_id", "schema_version"},
                        .opts = {RL_INDEX_COL_EXPR, RL_INDEX_COL_DESC | RL_INDEX_COL_NULLS_FIRST},
                        .expr_type = {25}, .expr_typmod = {-1}, .ninclude = 1,
                        .partial = true};
    CHECK(rl_index_def_add_text(d, "lower((snapshot_time)::text)", "lower(snapshot_time::text)"));
    CHECK(rl_index_def_add_text(d, "(snapshot_id > 0)", "snapshot_id > 0"));
}

static void test_index_definitions(void)
{
    char url[600];
    next_url(url, sizeof url);
    rl_catalog *c = open_cat(url, true);
    if (!c)
        return;
    rl_error e;
    rl_index_def d = {.table = "ducklake_snapshot", .method = RL_INDEX_BTREE, .ncols = 1,
                      .cols = {"snapshot_time"}, .opts = {RL_INDEX_COL_DESC}};
    rl_txn *t = rl_txn_begin(c, &e);
    CHECK(rl_txn_register_fixed(t, "public", rl_desc_by_tag(RL_TAG_SNAPSHOT), false, &e) == 0);
    CHECK(rl_txn_create_index(t, "public", "snap_time", &d, &e) == 0);
    rl_index_def *x = malloc(sizeof *x);
    CHECK(x != NULL);
    if (!x)
        return;
    expression_index(x); /* version 2: durable too */
    CHECK(rl_txn_create_index(t, "public", "snap_expr", x, &e) == 0);
    CHECK(rl_txn_create_index(t, "public", "snap_time", &d, &e) < 0);
    CHECK_EQ_STR(e.sqlstate, "42P07");
    CHECK(rl_txn_create_index(t, "public", "ducklake_snapshot", &d, &e) < 0); /* a table's */
    CHECK_EQ_STR(e.sqlstate, "42P07");
    rl_column_desc cols[1] = {{"a", RL_T_INT4, false, RL_FMT_1_0, 0}};
    CHECK(rl_txn_create_dynamic(t, "public", "snap_time", 1, cols, false, &e) == NULL);
    CHECK_EQ_STR(e.sqlstate, "42P07");
    CHECK(rl_txn_commit(t, &e) == 0);
    rl_txn_free(t);

    /* two transactions take one name: the second to commit loses */
    rl_txn *a = rl_txn_begin(c, &e), *b = rl_txn_begin(c, &e);
    CHECK(rl_txn_create_index(a, "public", "race", &d, &e) == 0);
    CHECK(rl_txn_create_dynamic(b, "public", "race", 1, cols, false, &e) != NULL);
    CHECK(rl_txn_commit(a, &e) == 0);
    CHECK(rl_txn_commit(b, &e) < 0);
    rl_txn_free(a);
    rl_txn_free(b);

    rl_catalog_close(c, NULL);
    c = open_cat(url, false); /* durable */
    if (!c)
        return;
    t = rl_txn_begin(c, &e);
    rl_index_def got;
    CHECK_EQ_INT(rl_txn_find_index(t, "public", "snap_time", &got, &e), 1);
    CHECK(memcmp(&got, &d, sizeof d) == 0);
    CHECK_EQ_INT(rl_txn_find_index(t, "public", "snap_expr", &got, &e), 1);
    CHECK(memcmp(&got, x, sizeof *x) == 0);
    free(x);
    CHECK_EQ_INT(rl_txn_find_index(t, "public", "nope", &got, &e), 0);
    name_list l = {0};
    CHECK(rl_txn_list_indexes(t, collect_index, &l, &e) == 0);
    CHECK_EQ_INT(l.n, 3);
    CHECK_EQ_STR(l.names[0], "public.race on ducklake_snapshot(snapshot_time)");
    CHECK_EQ_STR(l.names[1], "public.snap_expr on ducklake_snapshot(lower)");
    CHECK_EQ_STR(l.names[2], "public.snap_time on ducklake_snapshot(snapshot_time)");
    CHECK(rl_txn_drop_index(t, "public", "race", &e) == 0);
    CHECK(rl_txn_drop_index(t, "public", "race", &e) < 0);
    CHECK_EQ_STR(e.sqlstate, "42704");
    CHECK(rl_txn_commit(t, &e) == 0);
    rl_txn_free(t);
    uint64_t keys = 0;
    CHECK_EQ_INT(rl_check(c, stderr, &keys, &e), 0);

    /* a definition that does not decode: check reports it, reads refuse it */
    kv_batch *kb = kv_batch_new();
    rl_buf k;
    rl_buf_init(&k, 0);
    rl_key_sql_index(&k, "public", "broken");
    kv_batch_put(kb, k.data, k.len, (const uint8_t *)"\x01\x00", 2);
    CHECK(kv_write(rl_catalog_kv(c), kb, NULL) == 0);
    kv_batch_free(kb);
    rl_buf_free(&k);
    FILE *devnull = fopen("/dev/null", "w");
    CHECK_EQ_INT(rl_check(c, devnull, NULL, &e), 1);
    fclose(devnull);
    t = rl_txn_begin(c, &e);
    l.n = 0;
    CHECK(rl_txn_list_indexes(t, collect_index, &l, &e) < 0);
    CHECK_EQ_STR(e.sqlstate, "XX001");
    CHECK(rl_txn_find_index(t, "public", "broken", &got, &e) < 0);
    CHECK_EQ_STR(e.sqlstate, "XX001");
    rl_txn_free(t);
    rl_catalog_close(c, NULL);
}

/* Index definitions with expressions, a predicate and INCLUDE columns
 * (0x80 05 version 2): they round-trip (durable: test_index_definitions); one without them
 * is written as version 1, which still decodes; version 2 without any of
 * them, an expression option in version 1, a missing text or INCLUDE
 * columns past RL_INDEX_MAX_KEYS do not decode. */
static void test_index_definition_versions(void)
{
    rl_index_def d;
    expression_index(&d);
    CHECK_EQ_STR(rl_index_def_expr(&d, 0, false), "lower((snapshot_time)::text)");
    CHECK_EQ_STR(rl_index_def_expr(&d, 0, true), "lower(snapshot_time::text)");
    CHECK_EQ_STR(rl_index_def_pred(&d, false), "(snapshot_id > 0)");
    CHECK_EQ_STR(rl_index_def_pred(&d, true), "snapshot_id > 0");
    CHECK(rl_index_def_names_column(&d, "schema_version")); /* INCLUDE */
    CHECK(rl_index_def_names_column(&d, "snapshot_id"));
    CHECK(!rl_index_def_names_column(&d, "lower")); /* an expression's name */
    rl_buf b;
    rl_buf_init(&b, 0);
    rl_index_def_encode(&b, &d);
    CHECK_EQ_INT(b.data[0], 2);
    rl_index_def got;
    CHECK(rl_index_def_decode(b.data, b.len, &got));
    CHECK(memcmp(&got, &d, sizeof d) == 0);
    /* a text cut short, or trailing bytes: malformed */
    CHECK(!rl_index_def_decode(b.data, b.len - 1, &got));
    rl_buf_put_u8(&b, 0);
    CHECK(!rl_index_def_decode(b.data, b.len, &got));

    /* a plain index is written, and read, as version 1 */
    rl_index_def p = {.table = "t", .method = RL_INDEX_HASH, .ncols = 1, .cols = {"a"}};
    rl_buf_reset(&b);
    rl_index_def_encode(&b, &p);
    static const uint8_t v1[] = {1, 1, 't', 1, 0, 1, 1, 'a', 0};
    CHECK_EQ_INT(b.len, sizeof v1);
    CHECK(memcmp(b.data, v1, sizeof v1) == 0);
    CHECK(rl_index_def_decode(v1, sizeof v1, &got));
    CHECK(memcmp(&got, &p, sizeof p) == 0);
    /* version 2 holding nothing of version 2; version 1 with an expression */
    static const uint8_t bare2[] = {2, 1, 't', 1, 0, 1, 1, 'a', 0, 0};
    CHECK(!rl_index_def_decode(bare2, sizeof bare2, &got));
    static const uint8_t expr1[] = {1, 1, 't', 1, 0, 1, 1, 'a', RL_INDEX_COL_EXPR};
    CHECK(!rl_index_def_decode(expr1, sizeof expr1, &got));
    /* a partial index whose predicate is missing */
    static const uint8_t nopred[] = {2, 1, 't', 0, 0x10, 1, 1, 'a', 0, 0};
    CHECK(!rl_index_def_decode(nopred, sizeof nopred, &got));
    static const uint8_t inc[] = {2, 1, 't', 0, 0, 1, 1, 'a', 0, 1, 1, 'b'};
    CHECK(rl_index_def_decode(inc, sizeof inc, &got));
    CHECK_EQ_INT(got.ninclude, 1);
    CHECK_EQ_STR(got.cols[1], "b");
    static const uint8_t toomany[] = {2, 1, 't', 0, 0, 1, 1, 'a', 0, 32, 1, 'b'};
    CHECK(!rl_index_def_decode(toomany, sizeof toomany, &got));
    rl_buf_free(&b);

}

static int collect_comment(void *ctx, const char *schema, const char *rel, const char *col,
                           const char *text)
{
    name_list *l = ctx;
    if (l->n < 8)
        snprintf(l->names[l->n++], sizeof l->names[0], "%s.%s.%s=%s", schema, rel, col, text);
    return 0;
}

/* Comments (0x80 06): set, replaced, removed by an empty text, listed by
 * relation or all, durable; rocklake check accepts them and reports an
 * empty one. */
static void test_comments(void)
{
    char url[600];
    next_url(url, sizeof url);
    rl_catalog *c = open_cat(url, true);
    if (!c)
        return;
    rl_error e;
    rl_txn *t = rl_txn_begin(c, &e);
    CHECK(rl_txn_set_comment(t, "public", "t", "", "a table", &e) == 0);
    CHECK(rl_txn_set_comment(t, "public", "t", "a", "col a", &e) == 0);
    CHECK(rl_txn_set_comment(t, "public", "t", "b", "col b", &e) == 0);
    CHECK(rl_txn_set_comment(t, "public", "tt", "", "not t's", &e) == 0);
    CHECK(rl_txn_set_comment(t, "s", "", "", "a schema", &e) == 0);
    CHECK(rl_txn_set_comment(t, "public", "t", "b", "", &e) == 0); /* removed */
    CHECK(rl_txn_set_comment(t, "public", "t", "", "the table", &e) == 0); /* replaced */
    CHECK(rl_txn_commit(t, &e) == 0);
    rl_txn_free(t);
    rl_catalog_close(c, NULL);
    c = open_cat(url, false);
    if (!c)
        return;
    t = rl_txn_begin(c, &e);
    name_list l = {0};
    CHECK(rl_txn_list_comments(t, "public", "t", collect_comment, &l, &e) == 0);
    CHECK_EQ_INT(l.n, 2);
    CHECK_EQ_STR(l.names[0], "public.t.=the table");
    CHECK_EQ_STR(l.names[1], "public.t.a=col a");
    l.n = 0;
    CHECK(rl_txn_list_comments(t, NULL, NULL, collect_comment, &l, &e) == 0);
    CHECK_EQ_INT(l.n, 4);
    CHECK_EQ_STR(l.names[3], "s..=a schema");
    rl_txn_free(t);
    uint64_t keys = 0;
    CHECK_EQ_INT(rl_check(c, stderr, &keys, &e), 0);
    kv_batch *kb = kv_batch_new();
    rl_buf k;
    rl_buf_init(&k, 0);
    rl_key_comment(&k, "public", "t", "z");
    kv_batch_put(kb, k.data, k.len, (const uint8_t *)"", 0);
    CHECK(kv_write(rl_catalog_kv(c), kb, NULL) == 0);
    kv_batch_free(kb);
    rl_buf_free(&k);
    FILE *devnull = fopen("/dev/null", "w");
    CHECK_EQ_INT(rl_check(c, devnull, NULL, &e), 1);
    fclose(devnull);
    rl_catalog_close(c, NULL);
}

static void test_name_cache_follows_snapshots(void)
{
    char url[600];
    next_url(url, sizeof url);
    rl_catalog *c = open_cat(url, true);
    if (!c)
        return;
    rl_error e;
    rl_column_desc cols[1] = {{"a", RL_T_INT4, false, RL_FMT_1_0, 0}};
    rl_txn *old = rl_txn_begin(c, &e);
    CHECK(rl_txn_find_table(old, "public", "t_cached", &e) == NULL); /* cached: absent */
    rl_txn *w = rl_txn_begin(c, &e);
    CHECK(rl_txn_create_dynamic(w, "public", "t_cached", 1, cols, false, &e) != NULL);
    CHECK(rl_txn_find_table(w, "public", "t_cached", &e) != NULL); /* own write */
    CHECK(rl_txn_commit(w, &e) == 0);
    rl_txn_free(w);
    CHECK(rl_txn_find_table(old, "public", "t_cached", &e) == NULL); /* its snapshot */
    CHECK_EQ_STR(e.sqlstate, "42P01");
    for (int i = 0; i < 2; i++) { /* a miss, then the cached entry */
        rl_txn *n = rl_txn_begin(c, &e);
        CHECK(rl_txn_find_table(n, "public", "t_cached", &e) != NULL);
        rl_txn_free(n);
    }
    rl_txn *d = rl_txn_begin(c, &e);
    CHECK(rl_txn_drop_table(d, "public", "t_cached", &e) == 0);
    CHECK(rl_txn_find_table(d, "public", "t_cached", &e) == NULL);
    CHECK(rl_txn_commit(d, &e) == 0);
    rl_txn_free(d);
    rl_txn *n = rl_txn_begin(c, &e);
    CHECK(rl_txn_find_table(n, "public", "t_cached", &e) == NULL);
    CHECK_EQ_STR(e.sqlstate, "42P01");
    rl_txn_free(n);
    rl_txn_free(old);
    rl_catalog_close(c, NULL);
}

static void test_table_and_schema_registry(void)
{
    char url[600];
    next_url(url, sizeof url);
    rl_catalog *c = open_cat(url, true);
    if (!c)
        return;
    rl_error e;
    const rl_table_desc *snap = rl_desc_by_tag(RL_TAG_SNAPSHOT);
    rl_txn *t = rl_txn_begin(c, &e);
    CHECK(rl_txn_find_table(t, "public", "ducklake_snapshot", &e) == NULL);
    CHECK_EQ_STR(e.sqlstate, "42P01");
    CHECK(rl_txn_register_fixed(t, "public", snap, false, &e) == 0);
    CHECK(rl_txn_find_table(t, "public", "ducklake_snapshot", &e) == snap); /* own write */
    CHECK(rl_txn_register_fixed(t, "public", snap, false, &e) < 0);
    CHECK_EQ_STR(e.sqlstate, "42P07");
    CHECK(rl_txn_register_fixed(t, "public", snap, true, &e) == 0);
    /* one DuckLake metadata schema per catalog */
    CHECK(rl_txn_register_fixed(t, "other", rl_desc_by_tag(RL_TAG_SCHEMA), false, &e) < 0);
    CHECK_EQ_STR(e.sqlstate, "0A000");
    CHECK(rl_txn_create_schema(t, "s1", false, &e) == 0);
    CHECK(rl_txn_create_schema(t, "s1", false, &e) < 0);
    CHECK_EQ_STR(e.sqlstate, "42P06");
    CHECK(rl_txn_schema_exists(t, "public"));
    CHECK(insert_snapshot(t, 0, &e) == 0);
    rl_column_desc cols[1] = {{"a", RL_T_INT4, false, RL_FMT_1_0, 0}};
    CHECK(rl_txn_create_dynamic(t, "public", "ducklake_inlined_delete_1", 1, cols, false, &e));
    /* a dynamic table may not take a fixed table's name */
    CHECK(rl_txn_create_dynamic(t, "public", "ducklake_snapshot", 1, cols, true, &e) == NULL);
    CHECK_EQ_STR(e.sqlstate, "42P07");
    CHECK(rl_txn_commit(t, &e) == 0);
    rl_txn_free(t);

    t = rl_txn_begin(c, &e);
    name_list tables = {0}, schemas = {0};
    CHECK(rl_txn_list_tables(t, collect_table, &tables, &e) == 0);
    CHECK_EQ_INT(tables.n, 2);
    CHECK_EQ_STR(tables.names[0], "public.ducklake_inlined_delete_1");
    CHECK_EQ_STR(tables.names[1], "public.ducklake_snapshot");
    CHECK(rl_txn_list_schemas(t, collect_schema, &schemas, &e) == 0);
    CHECK_EQ_INT(schemas.n, 1);
    CHECK_EQ_STR(schemas.names[0], "s1");
    rl_txn_free(t);

    /* rocklake check accepts fixed registrations and schema entries */
    uint64_t keys = 0;
    CHECK_EQ_INT(rl_check(c, stderr, &keys, &e), 0);

    /* dropping a fixed table removes its rows and its name */
    t = rl_txn_begin(c, &e);
    CHECK(rl_txn_drop_table(t, "public", "ducklake_snapshot", &e) == 0);
    CHECK(rl_txn_commit(t, &e) == 0);
    rl_txn_free(t);
    CHECK_EQ_INT(count_rows(c, snap, NULL, 0, false), 0);
    t = rl_txn_begin(c, &e);
    CHECK(rl_txn_find_table(t, "public", "ducklake_snapshot", &e) == NULL);
    rl_txn_free(t);
    rl_catalog_close(c, NULL);
}


/* Files in the store's WAL directory: one per durable WAL flush. */
static int count_wal_files(const char *store_dir)
{
    char path[700];
    snprintf(path, sizeof path, "%s/wal", store_dir);
    DIR *d = opendir(path);
    if (!d)
        return -1;
    int n = 0;
    struct dirent *e;
    while ((e = readdir(d)))
        if (e->d_name[0] != '.')
            n++;
    closedir(d);
    return n;
}

/* Group commit: concurrent commits that do not conflict share durable WAL
 * flushes, so there are fewer WAL files than commits — and every commit was
 * acknowledged only once durable (reopen sees them all). */
static void test_group_commit_shares_flushes(void)
{
    if (strncmp(base_url, "memory://", 9) == 0 || strncmp(base_url, "s3://", 5) == 0)
        TU_SKIP("WAL files are only countable on a local store");
    char url[600];
    next_url(url, sizeof url);
    rl_catalog *c = open_cat(url, true);
    if (!c)
        return;
    int before = count_wal_files(url);
    enum { THREADS = 8, EACH = 25 };
    int retries = race_to_the_end(c, THREADS, EACH);
    int flushes = count_wal_files(url) - before;
    fprintf(stderr, "  %d commits (+%d retried) in %d WAL flushes\n", THREADS * EACH, retries,
            flushes);
    CHECK(flushes > 0);
    CHECK(flushes < THREADS * EACH);
    rl_catalog_close(c, NULL);
    c = open_cat(url, false);
    if (c) {
        CHECK_EQ_INT(count_rows(c, rl_desc_by_tag(RL_TAG_SNAPSHOT), NULL, 0, false),
                     THREADS * EACH);
        rl_catalog_close(c, NULL);
    }
}

/* ---------------------------------------------- tables without a PK */

/* A ducklake_file_partition_value row of table 5, file 9: the table DuckLake
 * itself gives duplicates (ducklake_add_data_files with hive partitioning
 * on year/month/day writes partition_key_index 2 three times). */
static int insert_partition_value(rl_txn *t, int64_t pki, const char *value, rl_error *e)
{
    rl_datum row[4] = {I8(9), I8(5), I8(pki), STR(value)};
    return rl_txn_insert(t, rl_desc_by_tag(RL_TAG_FILE_PARTITION_VALUE), row, e);
}

/* partition_value of every row of file 9 at partition_key_index pki (all
 * key fields given), in key order, joined by ","; or of the whole file when
 * pki < 0. Returns the row count. */
static int partition_values(rl_txn *t, int64_t pki, char *out, size_t n)
{
    rl_error e;
    rl_datum f[3] = {I8(5), I8(9), I8(pki)};
    rl_scan *s = rl_txn_scan(t, rl_desc_by_tag(RL_TAG_FILE_PARTITION_VALUE), f,
                             pki < 0 ? 2 : 3, &e);
    const rl_row *r;
    int rows = 0;
    size_t at = 0;
    out[0] = '\0';
    while (s && rl_scan_next(s, &r, &e) == 1 && at < n) {
        at += (size_t)snprintf(out + at, n - at, "%s%.*s", rows ? "," : "",
                               (int)r->vals[3].v.s.len, (const char *)r->vals[3].v.s.p);
        rows++;
    }
    CHECK(s != NULL);
    rl_scan_free(s);
    return rows;
}

static int committed_partition_values(rl_catalog *c, int64_t pki, char *out, size_t n)
{
    rl_error e;
    rl_txn *t = rl_txn_begin(c, &e);
    int rows = t ? partition_values(t, pki, out, n) : -1;
    rl_txn_free(t);
    return rows;
}

/* Key of the row of file 9, index pki, whose partition_value is `value`. */
static size_t partition_value_key(rl_txn *t, int64_t pki, const char *value, uint8_t *key)
{
    rl_error e;
    rl_datum f[3] = {I8(5), I8(9), I8(pki)};
    rl_scan *s = rl_txn_scan(t, rl_desc_by_tag(RL_TAG_FILE_PARTITION_VALUE), f, 3, &e);
    const rl_row *r;
    size_t kl = 0;
    while (s && kl == 0 && rl_scan_next(s, &r, &e) == 1)
        if (r->vals[3].v.s.len == strlen(value) && memcmp(r->vals[3].v.s.p, value,
                                                          r->vals[3].v.s.len) == 0) {
            kl = r->klen;
            memcpy(key, r->key, kl);
        }
    rl_scan_free(s);
    CHECK(kl > 0);
    return kl;
}

/* Schema 0, the parent check wants for the ducklake_table rows these tests write. */
static void commit_schema_0(rl_catalog *c)
{
    rl_error e;
    rl_txn *t = rl_txn_begin(c, &e);
    rl_datum row[7] = {I8(0), NUL(), I8(0), NUL(), STR("main"), STR("main/"), BOOLV(true)};
    CHECK(rl_txn_insert(t, rl_desc_by_tag(RL_TAG_SCHEMA), row, &e) == 0);
    CHECK(rl_txn_commit(t, &e) == 0);
    rl_txn_free(t);
}

static long check_store(rl_catalog *c)
{
    rl_error e;
    uint64_t keys = 0;
    return rl_check(c, stderr, &keys, &e);
}

/* Regression (hive partitioning through ducklake_add_data_files retried
 * until "Exceeded the maximum retry count"): a table without a PostgreSQL
 * PRIMARY KEY took a second row with the same key fields as 23505
 * "<table>_rocklake_key". PostgreSQL keeps both; so must RockLake, and each
 * duplicate is a row of its own for scans, UPDATE and DELETE. */
static void test_no_pk_tables_keep_duplicates(void)
{
    char url[600];
    next_url(url, sizeof url);
    rl_catalog *c = open_cat(url, true);
    if (!c)
        return;
    commit_schema_0(c);
    rl_error e;
    const rl_table_desc *pv = rl_desc_by_tag(RL_TAG_FILE_PARTITION_VALUE);
    char vals[256];
    rl_txn *t = rl_txn_begin(c, &e);
    CHECK(insert_partition_value(t, 2, "2024", &e) == 0);
    CHECK(insert_partition_value(t, 2, "1", &e) == 0);
    CHECK(insert_partition_value(t, 2, "5", &e) == 0);
    CHECK(insert_partition_value(t, 0, "x", &e) == 0);
    /* read-your-writes: one scan of all key fields returns the three */
    CHECK_EQ_INT(partition_values(t, 2, vals, sizeof vals), 3);
    CHECK_EQ_STR(vals, "2024,1,5");
    CHECK(rl_txn_commit(t, &e) == 0);
    rl_txn_free(t);
    CHECK_EQ_INT(committed_partition_values(c, 2, vals, sizeof vals), 3);
    CHECK_EQ_STR(vals, "2024,1,5"); /* natural key first, then in discriminator order */
    CHECK_EQ_INT(count_rows(c, pv, NULL, 0, false), 4);
    CHECK_EQ_INT(rl_catalog_counter(c, RL_COUNTER_NEXT_DUP), 2);

    /* the first keeps its natural key; the others carry a discriminator */
    t = rl_txn_begin(c, &e);
    uint8_t k2024[64], k1[64], k5[64];
    size_t k2024l = partition_value_key(t, 2, "2024", k2024);
    size_t k1l = partition_value_key(t, 2, "1", k1);
    size_t k5l = partition_value_key(t, 2, "5", k5);
    CHECK_EQ_INT(k2024l, 25);
    CHECK_EQ_INT(k1l, 25 + RL_KEY_DUP_LEN);
    CHECK_EQ_INT(k5l, 25 + RL_KEY_DUP_LEN);
    CHECK(memcmp(k1, k2024, 25) == 0 && memcmp(k5, k2024, 25) == 0);
    rl_buf desc;
    rl_buf_init(&desc, 0);
    rl_key_describe(&desc, k5, k5l);
    rl_buf_put_u8(&desc, 0);
    CHECK_EQ_STR((const char *)desc.data, "ducklake_file_partition_value table_id=5 "
                                          "data_file_id=9 partition_key_index=2 dup=1");
    rl_buf_free(&desc);

    /* UPDATE of one duplicate changes that row only, and keeps its key */
    rl_datum upd[4] = {I8(9), I8(5), I8(2), STR("01")};
    CHECK(rl_txn_update(t, pv, k1, k1l, upd, &e) == 0);
    CHECK_EQ_INT(partition_values(t, 2, vals, sizeof vals), 3);
    CHECK_EQ_STR(vals, "2024,01,5");
    /* DELETE of one duplicate deletes that row only */
    CHECK(rl_txn_delete(t, pv, k2024, k2024l, &e) == 0);
    CHECK_EQ_INT(rl_txn_row_exists(t, pv, k2024, k2024l, &e), 0);
    CHECK_EQ_INT(rl_txn_row_exists(t, pv, k1, k1l, &e), 1);
    CHECK_EQ_INT(rl_txn_row_exists(t, pv, k5, k5l, &e), 1);
    CHECK(rl_txn_commit(t, &e) == 0);
    rl_txn_free(t);
    CHECK_EQ_INT(committed_partition_values(c, 2, vals, sizeof vals), 2);
    CHECK_EQ_STR(vals, "01,5");

    /* the natural key is free again while duplicates remain: a new row takes it */
    t = rl_txn_begin(c, &e);
    CHECK(insert_partition_value(t, 2, "again", &e) == 0);
    CHECK(rl_txn_commit(t, &e) == 0);
    rl_txn_free(t);
    CHECK_EQ_INT(committed_partition_values(c, 2, vals, sizeof vals), 3);
    CHECK_EQ_STR(vals, "again,01,5");
    CHECK_EQ_INT(rl_catalog_counter(c, RL_COUNTER_NEXT_DUP), 2);

    /* an UPDATE of key fields moves a duplicate to its new natural key */
    t = rl_txn_begin(c, &e);
    k5l = partition_value_key(t, 2, "5", k5);
    rl_datum moved[4] = {I8(9), I8(5), I8(3), STR("5")};
    CHECK(rl_txn_update(t, pv, k5, k5l, moved, &e) == 0);
    CHECK(rl_txn_commit(t, &e) == 0);
    rl_txn_free(t);
    CHECK_EQ_INT(committed_partition_values(c, 2, vals, sizeof vals), 2);
    CHECK_EQ_STR(vals, "again,01");
    CHECK_EQ_INT(committed_partition_values(c, -1, vals, sizeof vals), 4);
    CHECK_EQ_STR(vals, "x,again,01,5");
    t = rl_txn_begin(c, &e);
    CHECK_EQ_INT(partition_value_key(t, 3, "5", k5), 25);
    rl_txn_free(t);

    /* a versioned table: each open duplicate has its own live-index entry */
    const rl_table_desc *tbl = rl_desc_by_tag(RL_TAG_TABLE);
    rl_datum f42[1] = {I8(42)};
    t = rl_txn_begin(c, &e);
    CHECK(insert_table_version(t, 42, 1, "a", &e) == 0);
    CHECK(insert_table_version(t, 42, 1, "a", &e) == 0);
    CHECK(rl_txn_commit(t, &e) == 0);
    rl_txn_free(t);
    CHECK_EQ_INT(count_rows(c, tbl, f42, 1, false), 2);
    CHECK_EQ_INT(count_rows(c, tbl, f42, 1, true), 2);
    /* close the duplicate (the second in key order) */
    t = rl_txn_begin(c, &e);
    rl_scan *s = rl_txn_scan_live(t, tbl, f42, 1, &e);
    const rl_row *r;
    CHECK(rl_scan_next(s, &r, &e) == 1);
    CHECK(rl_scan_next(s, &r, &e) == 1);
    CHECK_EQ_INT(r->klen, 17 + RL_KEY_DUP_LEN);
    rl_datum closed[8];
    memcpy(closed, r->vals, sizeof closed);
    closed[3] = I8(2);
    uint8_t key[64];
    size_t kl = r->klen;
    memcpy(key, r->key, kl);
    CHECK(rl_txn_update(t, tbl, key, kl, closed, &e) == 0);
    rl_scan_free(s);
    CHECK(rl_txn_commit(t, &e) == 0);
    rl_txn_free(t);
    CHECK_EQ_INT(count_rows(c, tbl, f42, 1, false), 2);
    CHECK_EQ_INT(count_rows(c, tbl, f42, 1, true), 1);

    /* the store is consistent: keys decode, live entries match, counter above */
    CHECK_EQ_INT(check_store(c), 0);
    rl_catalog_close(c, NULL);
}

/* Commit `n` unrelated transactions. */
static void commit_others(rl_catalog *c, int64_t from, int n)
{
    for (int i = 0; i < n; i++)
        commit_stats_row(c, from + i, 1);
}

/* PostgreSQL commits both of two concurrent transactions that insert rows
 * with the same key fields into a table without a PRIMARY KEY; the one that
 * commits second had put its row at the natural key the first one took,
 * and it moves to a discriminator at commit. Also with the validation that
 * reads the store (more commits in between than the commit log holds), and
 * with the row deleted or closed again before the commit, where nothing of
 * the first transaction may be lost. */
static void test_concurrent_duplicate_inserts_both_commit(void)
{
    char url[600];
    next_url(url, sizeof url);
    rl_catalog *c = open_cat(url, true);
    if (!c)
        return;
    commit_schema_0(c);
    rl_error e;
    char vals[256];
    const rl_table_desc *pv = rl_desc_by_tag(RL_TAG_FILE_PARTITION_VALUE);
    for (int gap = 0; gap < 2; gap++) {
        /* both insert the same natural key (a also a duplicate of its own) */
        rl_txn *a = rl_txn_begin(c, &e);
        rl_txn *b = rl_txn_begin(c, &e);
        CHECK(insert_partition_value(a, 2, "a", &e) == 0);
        CHECK(insert_partition_value(a, 2, "a2", &e) == 0);
        CHECK(insert_partition_value(b, 2, "b", &e) == 0);
        CHECK(rl_txn_commit(b, &e) == 0);
        if (gap)
            commit_others(c, 1000, 130); /* past the commit log: validated by store reads */
        CHECK(rl_txn_commit(a, &e) == 0);
        rl_txn_free(a);
        rl_txn_free(b);
        CHECK_EQ_INT(committed_partition_values(c, 2, vals, sizeof vals), 3);
        CHECK_EQ_STR(vals, "b,a2,a"); /* b has the natural key; a2's discriminator is older */

        /* a inserts, then deletes its row; b's row at the same key survives a's commit */
        a = rl_txn_begin(c, &e);
        b = rl_txn_begin(c, &e);
        CHECK(insert_partition_value(a, 7, "gone", &e) == 0);
        uint8_t key[64];
        size_t kl = partition_value_key(a, 7, "gone", key);
        CHECK(rl_txn_delete(a, pv, key, kl, &e) == 0);
        CHECK(insert_partition_value(b, 7, "kept", &e) == 0);
        CHECK(rl_txn_commit(b, &e) == 0);
        if (gap)
            commit_others(c, 2000, 130);
        CHECK(rl_txn_commit(a, &e) == 0);
        rl_txn_free(a);
        rl_txn_free(b);
        CHECK_EQ_INT(committed_partition_values(c, 7, vals, sizeof vals), 1);
        CHECK_EQ_STR(vals, "kept");

        /* a versioned table: a's row moves with its live-index entry, and a
         * row a closed again does not take b's live entry with it */
        const rl_table_desc *tbl = rl_desc_by_tag(RL_TAG_TABLE);
        int64_t tid = 50 + gap;
        rl_datum ft[1] = {I8(tid)};
        a = rl_txn_begin(c, &e);
        b = rl_txn_begin(c, &e);
        CHECK(insert_table_version(a, tid, 1, "a", &e) == 0);
        CHECK(insert_table_version(b, tid, 1, "b", &e) == 0);
        CHECK(rl_txn_commit(b, &e) == 0);
        CHECK(rl_txn_commit(a, &e) == 0);
        rl_txn_free(a);
        rl_txn_free(b);
        CHECK_EQ_INT(count_rows(c, tbl, ft, 1, false), 2);
        CHECK_EQ_INT(count_rows(c, tbl, ft, 1, true), 2);
        rl_datum ft2[1] = {I8(tid + 10)};
        a = rl_txn_begin(c, &e);
        b = rl_txn_begin(c, &e);
        CHECK(insert_table_version(a, tid + 10, 1, "closed", &e) == 0);
        rl_scan *s = rl_txn_scan_live(a, tbl, ft2, 1, &e);
        const rl_row *r;
        CHECK(rl_scan_next(s, &r, &e) == 1);
        rl_datum closed[8];
        memcpy(closed, r->vals, sizeof closed);
        closed[3] = I8(2);
        kl = r->klen;
        memcpy(key, r->key, kl);
        CHECK(rl_txn_update(a, tbl, key, kl, closed, &e) == 0);
        rl_scan_free(s);
        CHECK(insert_table_version(b, tid + 10, 1, "open", &e) == 0);
        CHECK(rl_txn_commit(b, &e) == 0);
        if (gap)
            commit_others(c, 3000, 130);
        CHECK(rl_txn_commit(a, &e) == 0);
        rl_txn_free(a);
        rl_txn_free(b);
        CHECK_EQ_INT(count_rows(c, tbl, ft2, 1, false), 2);
        CHECK_EQ_INT(count_rows(c, tbl, ft2, 1, true), 1);
        /* close one of the two open rows of tid so that check's one-open-version rule holds */
        a = rl_txn_begin(c, &e);
        s = rl_txn_scan_live(a, tbl, ft, 1, &e);
        CHECK(rl_scan_next(s, &r, &e) == 1);
        memcpy(closed, r->vals, sizeof closed);
        closed[3] = I8(2);
        kl = r->klen;
        memcpy(key, r->key, kl);
        CHECK(rl_txn_update(a, tbl, key, kl, closed, &e) == 0);
        rl_scan_free(s);
        CHECK(rl_txn_commit(a, &e) == 0);
        rl_txn_free(a);
        CHECK_EQ_INT(count_rows(c, tbl, ft, 1, true), 1);
        /* clear file 9's rows for the next round */
        a = rl_txn_begin(c, &e);
        s = rl_txn_scan(a, pv, NULL, 0, &e);
        while (s && rl_scan_next(s, &r, &e) == 1) {
            kl = r->klen;
            memcpy(key, r->key, kl);
            CHECK(rl_txn_delete(a, pv, key, kl, &e) == 0);
        }
        rl_scan_free(s);
        CHECK(rl_txn_commit(a, &e) == 0);
        rl_txn_free(a);
    }
    CHECK_EQ_INT(check_store(c), 0);
    rl_catalog_close(c, NULL);
}

/* A row of d with every column NULL but its key fields, ids[i] for key field i. */
static void key_row(const rl_table_desc *d, const int64_t *ids, rl_datum *row)
{
    for (int i = 0; i < RL_MAX_COLUMNS; i++)
        row[i] = NUL();
    for (int i = 0; i < d->nkey; i++)
        row[d->key[i]] = I8(ids[i]);
}

/* The five PRIMARY KEYs PostgreSQL declares still refuse a duplicate with
 * 23505 "<table>_pkey", in one transaction and between two, also when only
 * the PK column is equal (schema: another begin_snapshot; data and delete
 * files: another table). */
static void test_primary_keys_still_refuse_duplicates(void)
{
    char url[600];
    next_url(url, sizeof url);
    rl_catalog *c = open_cat(url, true);
    if (!c)
        return;
    static const uint8_t tags[] = {RL_TAG_SNAPSHOT, RL_TAG_SNAPSHOT_CHANGES, RL_TAG_SCHEMA,
                                   RL_TAG_DATA_FILE, RL_TAG_DELETE_FILE};
    for (size_t i = 0; i < sizeof tags; i++) {
        const rl_table_desc *d = rl_desc_by_tag(tags[i]);
        CHECK(!rl_desc_keeps_duplicates(d));
        char want[200];
        snprintf(want, sizeof want, "duplicate key value violates unique constraint \"%s_pkey\"",
                 d->name);
        int64_t ids[RL_MAX_KEY_FIELDS], other[RL_MAX_KEY_FIELDS];
        for (int k = 0; k < d->nkey; k++) {
            ids[k] = 10 + k;
            other[k] = d->key[k] == d->pk_col ? ids[k] : ids[k] + 1; /* same PK only */
        }
        rl_datum row[RL_MAX_COLUMNS], row2[RL_MAX_COLUMNS];
        key_row(d, ids, row);
        key_row(d, other, row2);
        rl_error e;
        rl_txn *t = rl_txn_begin(c, &e);
        CHECK(rl_txn_insert(t, d, row, &e) == 0);
        CHECK(rl_txn_insert(t, d, row, &e) < 0);
        CHECK_EQ_STR(e.sqlstate, "23505");
        CHECK_EQ_STR(e.message, want);
        CHECK(rl_txn_insert(t, d, row2, &e) < 0);
        CHECK_EQ_STR(e.message, want);
        rl_txn_free(t);
        /* two transactions: the second to commit loses */
        rl_txn *a = rl_txn_begin(c, &e);
        rl_txn *b = rl_txn_begin(c, &e);
        CHECK(rl_txn_insert(a, d, row, &e) == 0);
        CHECK(rl_txn_insert(b, d, row2, &e) == 0);
        CHECK(rl_txn_commit(b, &e) == 0);
        CHECK(rl_txn_commit(a, &e) < 0);
        CHECK_EQ_STR(e.sqlstate, "23505");
        CHECK_EQ_STR(e.message, want);
        rl_txn_free(a);
        rl_txn_free(b);
        CHECK_EQ_INT(count_rows(c, d, NULL, 0, false), 1);
    }
    rl_catalog_close(c, NULL);
}

/* Commit sequencing merges table statistics by DuckLake's order: numbers by
 * value (integers, decimals, plain floats), dates and timestamps by time,
 * booleans false < true, everything else by bytes; what it cannot compare
 * exactly (exponents, infinities, zoned types, malformed text) is 2 so the
 * commit falls back instead of storing a wrong bound. Property: for random
 * values, the text comparison equals the value comparison. */
static int cmp_text(const char *type, const char *a, const char *b)
{
    return rl_seq_stat_compare(type, (const uint8_t *)a, strlen(a), (const uint8_t *)b,
                               strlen(b));
}

static void test_sequence_stat_order(void)
{
    uint64_t seed = 0x5eed0001;
    const char *env = getenv("ROCKLAKE_TEST_SEED");
    if (env && *env)
        seed = strtoull(env, NULL, 0);
    fprintf(stderr, "# seed 0x%" PRIx64 " (ROCKLAKE_TEST_SEED replays)\n", seed);
    uint64_t st = seed;
    for (int k = 0; k < 20000; k++) {
        int64_t x = (int64_t)(tu_rand(&st) % 2000001) - 1000000;
        int64_t y = (int64_t)(tu_rand(&st) % 2000001) - 1000000;
        if (k % 3 == 0)
            y = x;
        char a[64], b[64];
        /* integers, then decimals with 3 places printed with trailing zeros cut */
        snprintf(a, sizeof a, "%" PRId64, x);
        snprintf(b, sizeof b, "%" PRId64, y);
        int want = x < y ? -1 : x > y;
        CHECK_EQ_INT(cmp_text("int64", a, b), want);
        snprintf(a, sizeof a, "%s%" PRId64 ".%03" PRId64, x < 0 ? "-" : "", (int64_t)(llabs(x) / 1000),
                 (int64_t)(llabs(x) % 1000));
        snprintf(b, sizeof b, "%s%" PRId64 ".%03" PRId64, y < 0 ? "-" : "", (int64_t)(llabs(y) / 1000),
                 (int64_t)(llabs(y) % 1000));
        CHECK_EQ_INT(cmp_text("decimal(18,3)", a, b), want);
        CHECK_EQ_INT(cmp_text("float64", a, b), want);
        /* timestamps: seconds since 2000 printed as DuckDB does */
        time_t tx = 946684800 + (time_t)llabs(x) * 997, ty = 946684800 + (time_t)llabs(y) * 997;
        struct tm gx, gy;
        gmtime_r(&tx, &gx);
        gmtime_r(&ty, &gy);
        strftime(a, sizeof a, "%Y-%m-%d %H:%M:%S", &gx);
        strftime(b, sizeof b, "%Y-%m-%d %H:%M:%S", &gy);
        CHECK_EQ_INT(cmp_text("timestamp", a, b), tx < ty ? -1 : tx > ty);
        strftime(a, sizeof a, "%Y-%m-%d", &gx);
        strftime(b, sizeof b, "%Y-%m-%d", &gy);
        CHECK_EQ_INT(cmp_text("date", a, b), strcmp(a, b) < 0 ? -1 : strcmp(a, b) > 0);
    }
    CHECK_EQ_INT(cmp_text("int32", "9", "10"), -1);        /* not byte order */
    CHECK_EQ_INT(cmp_text("int32", "-9", "-10"), 1);
    CHECK_EQ_INT(cmp_text("float64", "1.0", "1"), 0);
    CHECK_EQ_INT(cmp_text("float64", "-0.0", "0"), 0);
    CHECK_EQ_INT(cmp_text("float64", "1e-05", "1"), 2);    /* exponent: fall back */
    CHECK_EQ_INT(cmp_text("float64", "inf", "1"), 2);
    CHECK_EQ_INT(cmp_text("float64", "nan", "1"), 2);
    CHECK_EQ_INT(cmp_text("timestamp", "2024-01-01 00:00:00", "2024-01-01 00:00:00.5"), -1);
    CHECK_EQ_INT(cmp_text("timestamp", "2024-01-01 00:00:00.25", "2024-01-01 00:00:00.5"), -1);
    CHECK_EQ_INT(cmp_text("timestamp", "infinity", "2024-01-01 00:00:00"), 2);
    CHECK_EQ_INT(cmp_text("timestamp", "0044-03-15 00:00:00 (BC)", "2024-01-01 00:00:00"), 2);
    CHECK_EQ_INT(cmp_text("timestamptz", "2024-01-01 00:00:00+00", "2024-01-01 00:00:01+00"), 2);
    CHECK_EQ_INT(cmp_text("interval", "1 day", "2 days"), 2);
    CHECK_EQ_INT(cmp_text("boolean", "false", "true"), -1);
    CHECK_EQ_INT(cmp_text("boolean", "true", "yes"), 2);
    CHECK_EQ_INT(cmp_text("varchar", "b", "ab"), 1);       /* bytes, as DuckLake */
    CHECK_EQ_INT(cmp_text("varchar", "a", "ab"), -1);
    CHECK_EQ_INT(cmp_text("varchar", "w10", "w9"), -1);
}

/* ------------------------------------------------ commit sequencing (#19) */

/* A DuckLake append batch of table 1, built as DuckDB 1.5.5 sends it (corpus
 * phases 06, 07, 18): snapshot, table stats (INSERT when the table had none),
 * column stats, then a Parquet file with its column stats or inlined rows,
 * and snapshot_changes last. Values are the client's: computed from the
 * transaction's own snapshot. */
typedef struct append_batch {
    int64_t sid, F;          /* the claimed snapshot id, the base's next_file_id */
    bool inlined;            /* inlined rows instead of a Parquet file */
    int64_t first_id, n;     /* the rows: id = first_id .. first_id+n-1 */
    const char *min_name, *max_name;
    const char *at_min;      /* timestamptz column stats, NULL = none */
    const rl_table_desc *inl; /* the inlined-data table */
} append_batch;

static const rl_table_desc *seq_d(uint8_t tag) { return rl_desc_by_tag(tag); }

static int stats_upsert(rl_txn *t, const rl_table_desc *d, const rl_datum *key, rl_datum *row,
                        rl_error *e)
{
    const rl_row *old;
    int rc = rl_txn_get(t, d, key, &old, e);
    if (rc < 0)
        return -1;
    return rc == 0 ? rl_txn_insert(t, d, row, e)
                   : rl_txn_update(t, d, old->key, old->klen, row, e);
}

static int append_rows(rl_txn *t, const append_batch *b, rl_error *e)
{
    /* what the client read: its snapshot's stats of table 1 */
    int64_t nb = 0, count = 0, size = 0;
    rl_datum tid = I8(1);
    const rl_row *st;
    int have = rl_txn_get(t, seq_d(RL_TAG_TABLE_STATS), &tid, &st, e);
    if (have < 0)
        return -1;
    if (have) {
        count = st->vals[1].v.i;
        nb = st->vals[2].v.i;
        size = st->vals[3].v.i;
    }
    int64_t fsize = b->inlined ? 0 : 100 * b->n;
    /* schema version, catalog and file ids from the snapshot the claim
     * follows, as DuckLake reads them (b->F when the client skips an id) */
    int64_t V = 1, C = 2, F = b->F;
    rl_datum prev = I8(b->sid - 1);
    const rl_row *ps;
    int found = rl_txn_get(t, seq_d(RL_TAG_SNAPSHOT), &prev, &ps, e);
    if (found < 0)
        return -1;
    if (found) {
        V = ps->vals[2].v.i;
        C = ps->vals[3].v.i;
        F = ps->vals[4].v.i;
    }
    rl_datum snap[5] = {I8(b->sid), I8(1000 * b->sid), I8(V), I8(C), I8(F + 1)};
    rl_datum stats[4] = {I8(1), I8(count + b->n), I8(nb + b->n), I8(size + fsize)};
    if (rl_txn_insert(t, seq_d(RL_TAG_SNAPSHOT), snap, e) < 0 ||
        stats_upsert(t, seq_d(RL_TAG_TABLE_STATS), &tid, stats, e) < 0)
        return -1;
    char lo[32], hi[32];
    snprintf(lo, sizeof lo, "%" PRId64, b->first_id);
    snprintf(hi, sizeof hi, "%" PRId64, b->first_id + b->n - 1);
    for (int64_t cid = 1; cid <= 3; cid++) {
        /* the client's merge of its snapshot's stats with its own rows */
        rl_datum key[2] = {I8(1), I8(cid)};
        const rl_row *old;
        if (rl_txn_get(t, seq_d(RL_TAG_TABLE_COLUMN_STATS), key, &old, e) < 0)
            return -1;
        char mn[32], mx[32];
        const char *own_min = cid == 1 ? lo : cid == 2 ? b->min_name : b->at_min;
        const char *own_max = cid == 1 ? hi : cid == 2 ? b->max_name : b->at_min;
        snprintf(mn, sizeof mn, "%s", own_min ? own_min : "");
        snprintf(mx, sizeof mx, "%s", own_max ? own_max : "");
        if (have && !old->vals[4].isnull && own_min) {
            char cur[32];
            snprintf(cur, sizeof cur, "%.*s", (int)old->vals[4].v.s.len,
                     (const char *)old->vals[4].v.s.p);
            if (rl_seq_stat_compare(cid == 1 ? "int64" : "varchar", (const uint8_t *)cur,
                                    strlen(cur), (const uint8_t *)mn, strlen(mn)) < 0)
                snprintf(mn, sizeof mn, "%s", cur);
            snprintf(cur, sizeof cur, "%.*s", (int)old->vals[5].v.s.len,
                     (const char *)old->vals[5].v.s.p);
            if (rl_seq_stat_compare(cid == 1 ? "int64" : "varchar", (const uint8_t *)cur,
                                    strlen(cur), (const uint8_t *)mx, strlen(mx)) > 0)
                snprintf(mx, sizeof mx, "%s", cur);
        }
        rl_datum cs[7] = {I8(1), I8(cid), BOOLV(false), NUL(), own_min ? STR(mn) : NUL(),
                          own_max ? STR(mx) : NUL(), NUL()};
        if (stats_upsert(t, seq_d(RL_TAG_TABLE_COLUMN_STATS), key, cs, e) < 0)
            return -1;
    }
    if (b->inlined) {
        for (int64_t k = 0; k < b->n; k++) {
            rl_datum row[5] = {I8(nb + k), I8(b->sid), NUL(), I8(b->first_id + k),
                               STR(k ? b->max_name : b->min_name)};
            if (rl_txn_insert(t, b->inl, row, e) < 0)
                return -1;
        }
    } else {
        rl_datum df[16] = {I8(F), I8(1), I8(b->sid), NUL(), NUL(), STR("ducklake-x.parquet"),
                           BOOLV(true), STR("parquet"), I8(b->n), I8(fsize), I8(10), I8(nb),
                           NUL(), NUL(), NUL(), NUL()};
        rl_datum fcs[10] = {I8(F), I8(1), I8(1), I8(8 * b->n), I8(b->n), I8(0), STR(lo),
                            STR(hi), NUL(), NUL()};
        if (rl_txn_insert(t, seq_d(RL_TAG_DATA_FILE), df, e) < 0 ||
            rl_txn_insert(t, seq_d(RL_TAG_FILE_COLUMN_STATS), fcs, e) < 0)
            return -1;
    }
    rl_datum ch[5] = {I8(b->sid), STR(b->inlined ? "inlined_insert:1" : "inserted_into_table:1"),
                      STR("me"), NUL(), NUL()};
    return rl_txn_insert(t, seq_d(RL_TAG_SNAPSHOT_CHANGES), ch, e);
}

/* Snapshot 1: table 1 with columns id int64, name varchar, at timestamptz,
 * and its inlined-data table. */
static const rl_table_desc *seq_setup(rl_catalog *c)
{
    rl_error e;
    rl_txn *t = rl_txn_begin(c, &e);
    rl_datum snap[5] = {I8(1), I8(1000), I8(1), I8(2), I8(0)};
    CHECK(rl_txn_insert(t, seq_d(RL_TAG_SNAPSHOT), snap, &e) == 0);
    rl_datum schema[7] = {I8(0), NUL(), I8(1), NUL(), STR("main"), STR("main/"), BOOLV(true)};
    memset(schema[1].v.uuid, 0x22, 16);
    schema[1].isnull = false;
    CHECK(rl_txn_insert(t, seq_d(RL_TAG_SCHEMA), schema, &e) == 0);
    CHECK(insert_table_version(t, 1, 1, "t", &e) == 0);
    const char *names[3] = {"id", "name", "at"}, *types[3] = {"int64", "varchar", "timestamptz"};
    for (int i = 0; i < 3; i++) {
        rl_datum col[13] = {I8(i + 1), I8(1), NUL(), I8(1), I8(i), STR(names[i]), STR(types[i]),
                            NUL(), NUL(), BOOLV(true), NUL(), NUL(), NUL()};
        CHECK(rl_txn_insert(t, seq_d(RL_TAG_COLUMN), col, &e) == 0);
    }
    rl_datum it[3] = {I8(1), STR("ducklake_inlined_data_1_1"), I8(1)};
    CHECK(rl_txn_insert(t, seq_d(RL_TAG_INLINED_DATA_TABLES), it, &e) == 0);
    rl_column_desc cols[5] = {{"row_id", RL_T_INT8, false, RL_FMT_1_0, 0},
                              {"begin_snapshot", RL_T_INT8, false, RL_FMT_1_0, 0},
                              {"end_snapshot", RL_T_INT8, false, RL_FMT_1_0, 0},
                              {"id", RL_T_INT8, false, RL_FMT_1_0, 0},
                              {"name", RL_T_VARCHAR, false, RL_FMT_1_0, 0}};
    const rl_table_desc *inl =
        rl_txn_create_dynamic(t, "public", "ducklake_inlined_data_1_1", 5, cols, false, &e);
    CHECK(inl != NULL);
    rl_datum ch[5] = {I8(1), STR("created_table:\"main\".\"t\""), NUL(), NUL(), NUL()};
    CHECK(rl_txn_insert(t, seq_d(RL_TAG_SNAPSHOT_CHANGES), ch, &e) == 0);
    CHECK(rl_txn_commit(t, &e) == 0);
    rl_txn_free(t);
    return inl;
}

static rl_catalog *open_sequencing(const char *url)
{
    rl_catalog_options o = {.create_if_missing = true, .sequence_commits = true};
    rl_error e;
    rl_catalog *c = rl_catalog_open(url, &o, &e);
    if (!c)
        fprintf(stderr, "  open %s: %s %s\n", url, e.sqlstate, e.message);
    return c;
}

/* A new sequencing catalog at a fresh URL, or NULL. */
static rl_catalog *fresh_sequencing(char *url, size_t n)
{
    next_url(url, n);
    return open_sequencing(url);
}

/* Race two batches on one base: the first commits, the second's COMMIT
 * result is returned (e filled on failure). */
static int seq_race(rl_catalog *c, const append_batch *first, const append_batch *second,
                    rl_error *e)
{
    rl_txn *a = rl_txn_begin(c, e), *b = rl_txn_begin(c, e);
    CHECK(append_rows(a, first, e) == 0);
    CHECK(append_rows(b, second, e) == 0); /* its own view: no early 23505 */
    CHECK(rl_txn_commit(a, e) == 0);
    int rc = rl_txn_commit(b, e);
    rl_txn_free(a);
    rl_txn_free(b);
    return rc;
}

static int64_t get_i8(rl_catalog *c, uint8_t tag, const rl_datum *key, int col, bool *found)
{
    rl_error e;
    rl_txn *t = rl_txn_begin(c, &e);
    const rl_row *r;
    int rc = rl_txn_get(t, seq_d(tag), key, &r, &e);
    *found = rc == 1;
    int64_t v = rc == 1 && !r->vals[col].isnull ? r->vals[col].v.i : -1;
    rl_txn_free(t);
    return v;
}

static void get_text(rl_catalog *c, uint8_t tag, const rl_datum *key, int col, char *out,
                     size_t n)
{
    rl_error e;
    rl_txn *t = rl_txn_begin(c, &e);
    const rl_row *r;
    out[0] = '\0';
    if (rl_txn_get(t, seq_d(tag), key, &r, &e) == 1 && !r->vals[col].isnull)
        snprintf(out, n, "%.*s", (int)r->vals[col].v.s.len, (const char *)r->vals[col].v.s.p);
    rl_txn_free(t);
}

static size_t reason_index(const char *name)
{
    for (size_t i = 1; rl_sequence_reason_name(i); i++)
        if (strcmp(rl_sequence_reason_name(i), name) == 0)
            return i;
    return 0;
}

/* Commit sequencing and a DEFERRED FOREIGN KEY (on the inlined rows' id,
 * referencing p): a DuckLake append whose inlined row references p's 1
 * loses its snapshot id to an append (a Parquet file) that deletes p's 1
 * (a dynamic row's delete is an append key to sequencing); its rebase writes
 * the row again on the latest state and runs the deferred check there
 * (23503), so the row never commits without its key. A rebase whose key is
 * still there commits. */
static void test_sequence_keeps_deferred_fkey_checks(void)
{
    char url[600];
    next_url(url, sizeof url);
    rl_catalog *c = open_sequencing(url);
    if (!c)
        return;
    const rl_table_desc *inl = seq_setup(c);
    const rl_table_desc *p, *ch;
    deferred_fkey_tables(c, &p, &ch);
    rl_error e;
    rl_txn *t = rl_txn_begin(c, &e);
    rl_index_def got;
    CHECK(rl_txn_find_index(t, "public", "p_pkey", &got, &e) == 1);
    rl_fkey_def fk = {.ncols = 1, .cols = {"id"}, .ref_pos = {0}, .ref_index_id = got.id,
                      .on_update = RL_FKEY_NO_ACTION, .on_delete = RL_FKEY_NO_ACTION,
                      .deferrable = true, .initially_deferred = true};
    CHECK(rl_txn_create_fkey(t, "public", "ducklake_inlined_data_1_1", "inl_fk", &fk, &e) == 0);
    CHECK(rl_txn_commit(t, &e) == 0);
    rl_txn_free(t);
    for (int sid = 2; sid <= 3; sid++) {
        bool delete_key = sid == 2;
        append_batch mine = {.sid = sid, .F = 0, .inlined = true, .first_id = 1, .n = 1,
                             .min_name = "a", .max_name = "a", .inl = inl};
        /* a Parquet file: an append that writes no FOREIGN KEY entry (a
         * commit that does is no append, and nothing after it rebases) */
        append_batch theirs = {.sid = sid, .F = 0, .first_id = 100, .n = 5, .min_name = "b",
                               .max_name = "c"};
        if (!delete_key)
            mine.first_id = 5;
        rl_txn *a = rl_txn_begin(c, &e), *b = rl_txn_begin(c, &e);
        CHECK(append_rows(a, &theirs, &e) == 0);
        if (delete_key) {
            uint8_t key[64];
            size_t klen = row_key_of(a, p, 1, key);
            CHECK(klen > 0);
            CHECK(rl_txn_delete(a, p, key, klen, &e) == 0);
            CHECK(rl_txn_fkey_statement_end(a, &e) == 0);
        }
        CHECK(append_rows(b, &mine, &e) == 0);
        CHECK(rl_txn_commit(a, &e) == 0);
        rl_sequence_stats before, after;
        rl_catalog_sequence_stats(c, &before);
        int rc = rl_txn_commit(b, &e);
        rl_catalog_sequence_stats(c, &after);
        if (delete_key) {
            CHECK(rc < 0);
            CHECK_EQ_STR(e.sqlstate, "23503");
            CHECK_EQ_STR(e.detail, "Key (id)=(1) is not present in table \"p\".");
        } else {
            CHECK(rc == 0);
            CHECK_EQ_INT((int)(after.rebased - before.rebased), 1);
        }
        rl_txn_free(a);
        rl_txn_free(b);
    }
    CHECK_EQ_INT(count_rows(c, inl, NULL, 0, false), 1); /* the second of mine */
    uint64_t keys = 0;
    CHECK_EQ_INT(rl_check(c, stderr, &keys, &e), 0);
    rl_catalog_close(c, NULL);
}

/* The loser of a race between two Parquet appends on one base is placed on
 * the winner: snapshot, file id and row ids move up, table stats add up, the
 * first insert's stats INSERT becomes an UPDATE of the winner's row, column
 * stats merge by value order ('9' < '104' as numbers), the audit records
 * the claim, and the store checks clean. */
static void test_sequence_rebases_a_lost_parquet_append(void)
{
    char url[600];
    rl_catalog *c = fresh_sequencing(url, sizeof url);
    if (!c)
        return;
    const rl_table_desc *inl = seq_setup(c);
    rl_error e;
    append_batch a = {.sid = 2, .F = 0, .first_id = 0, .n = 10, .min_name = "a", .max_name = "c"};
    append_batch b = {.sid = 2, .F = 0, .first_id = 100, .n = 5, .min_name = "x", .max_name = "z"};
    CHECK(seq_race(c, &a, &b, &e) == 0);
    bool found;
    rl_datum s3 = I8(3), f1[2] = {I8(1), I8(1)}, tid = I8(1);
    CHECK_EQ_INT(get_i8(c, RL_TAG_SNAPSHOT, &s3, 4, &found), 2); /* next_file_id L.F + 1 */
    CHECK(found);
    rl_datum s2 = I8(2);
    /* placed at the rebase's time, after the snapshot it is placed on */
    CHECK(get_i8(c, RL_TAG_SNAPSHOT, &s3, 1, &found) > get_i8(c, RL_TAG_SNAPSHOT, &s2, 1, &found));
    CHECK_EQ_INT(get_i8(c, RL_TAG_DATA_FILE, f1, 2, &found), 3);  /* begin_snapshot */
    CHECK_EQ_INT(get_i8(c, RL_TAG_DATA_FILE, f1, 11, &found), 10); /* row_id_start */
    CHECK_EQ_INT(get_i8(c, RL_TAG_TABLE_STATS, &tid, 1, &found), 15);
    CHECK_EQ_INT(get_i8(c, RL_TAG_TABLE_STATS, &tid, 2, &found), 15);
    CHECK_EQ_INT(get_i8(c, RL_TAG_TABLE_STATS, &tid, 3, &found), 1500);
    CHECK_EQ_INT(count_rows(c, seq_d(RL_TAG_TABLE_STATS), &tid, 1, false), 1); /* no dup row */
    char v[64];
    rl_datum id_col[2] = {I8(1), I8(1)}, name_col[2] = {I8(1), I8(2)};
    get_text(c, RL_TAG_TABLE_COLUMN_STATS, id_col, 4, v, sizeof v);
    CHECK_EQ_STR(v, "0");
    get_text(c, RL_TAG_TABLE_COLUMN_STATS, id_col, 5, v, sizeof v);
    CHECK_EQ_STR(v, "104");
    get_text(c, RL_TAG_TABLE_COLUMN_STATS, name_col, 4, v, sizeof v);
    CHECK_EQ_STR(v, "a");
    get_text(c, RL_TAG_TABLE_COLUMN_STATS, name_col, 5, v, sizeof v);
    CHECK_EQ_STR(v, "z");
    rl_datum fcs_key[3] = {I8(1), I8(1), I8(1)};
    get_text(c, RL_TAG_FILE_COLUMN_STATS, fcs_key, 6, v, sizeof v);
    CHECK_EQ_STR(v, "100");
    get_text(c, RL_TAG_SNAPSHOT_CHANGES, &s3, 1, v, sizeof v);
    CHECK_EQ_STR(v, "inserted_into_table:1");
    /* the loser's inlined rows next: row ids above the winner's, begin moved */
    append_batch ia = {.sid = 4, .F = 2, .inlined = true, .first_id = 20, .n = 2,
                       .min_name = "b", .max_name = "b", .inl = inl};
    append_batch ib = {.sid = 4, .F = 2, .inlined = true, .first_id = 30, .n = 3,
                       .min_name = "d", .max_name = "e", .inl = inl};
    CHECK(seq_race(c, &ia, &ib, &e) == 0);
    CHECK_EQ_INT(get_i8(c, RL_TAG_TABLE_STATS, &tid, 2, &found), 20);
    rl_txn *t = rl_txn_begin(c, &e);
    rl_scan *sc = rl_txn_scan(t, inl, NULL, 0, &e);
    const rl_row *r;
    int rows = 0;
    int64_t ids_seen = 0;
    while (sc && rl_scan_next(sc, &r, &e) == 1) {
        int64_t want_begin = r->vals[3].v.i >= 30 ? 5 : 4;
        CHECK_EQ_INT(r->vals[1].v.i, want_begin);
        CHECK_EQ_INT(r->vals[0].v.i, 15 + rows); /* dense, in commit order */
        ids_seen += r->vals[3].v.i;
        rows++;
    }
    rl_scan_free(sc);
    rl_txn_free(t);
    CHECK_EQ_INT(rows, 5);
    CHECK_EQ_INT(ids_seen, 20 + 21 + 30 + 31 + 32);
    rl_sequence_stats st;
    rl_catalog_sequence_stats(c, &st);
    CHECK_EQ_INT((int)st.rebased, 2);
    for (size_t i = 1; rl_sequence_reason_name(i); i++)
        CHECK_EQ_INT((int)st.fallbacks[i], 0);
    /* the audit of the first rebased commit names claim and base */
    t = rl_txn_begin(c, &e);
    rl_datum ak = I8(3);
    sc = rl_txn_scan(t, &rl_desc_audit, &ak, 1, &e);
    int audits = 0;
    while (sc && rl_scan_next(sc, &r, &e) == 1) {
        audits++;
        CHECK_EQ_INT(r->vals[RL_AUDIT_CLAIMED_SNAPSHOT_ID].v.i, 2);
        CHECK_EQ_INT(r->vals[RL_AUDIT_BASE_SNAPSHOT_ID].v.i, 1);
        CHECK(!r->vals[RL_AUDIT_ID_MAP].isnull &&
              strncmp((const char *)r->vals[RL_AUDIT_ID_MAP].v.s.p, "file_id:+1;row_id:1=+10",
                      r->vals[RL_AUDIT_ID_MAP].v.s.len) == 0);
    }
    rl_scan_free(sc);
    rl_txn_free(t);
    CHECK_EQ_INT(audits, 1);
    uint64_t keys;
    CHECK_EQ_INT(rl_check(c, stderr, &keys, &e), 0);
    rl_catalog_close(c, NULL);
}

/* A partial UNIQUE index no row is in (the stand-in for the SQL layer's
 * evaluation of its predicate). */
static int never_in_index(void *ctx, const char *schema, const rl_index_def *def,
                          const rl_table_desc *d, const rl_datum *row, rl_arena *arena,
                          rl_datum *vals, rl_type *types, rl_error *err)
{
    (void)schema, (void)def, (void)d, (void)row, (void)arena, (void)vals, (void)types;
    (void)err;
    (*(int *)ctx)++;
    return 0;
}

/* A table with a UNIQUE index over expressions or with a predicate is
 * never rebased (the rebase writes rows below the SQL layer, which alone
 * evaluates it): a lost append to it fails with the same 23505 as without
 * sequencing, where an append race is otherwise placed. */
static void test_sequence_leaves_computed_unique_tables_alone(void)
{
    char url[600];
    rl_catalog *c = fresh_sequencing(url, sizeof url);
    if (!c)
        return;
    seq_setup(c);
    rl_error e;
    int calls = 0;
    rl_index_def *ix = calloc(1, sizeof *ix);
    CHECK(ix != NULL);
    if (!ix)
        return;
    *ix = (rl_index_def){.table = "ducklake_data_file", .method = RL_INDEX_BTREE, .ncols = 1,
                         .cols = {"path"}, .unique = true, .partial = true};
    CHECK(rl_index_def_add_text(ix, "false", "false"));
    rl_txn *t = rl_txn_begin(c, &e);
    CHECK(rl_txn_register_fixed(t, "public", seq_d(RL_TAG_DATA_FILE), false, &e) == 0);
    rl_txn_set_index_fn(t, never_in_index, &calls);
    CHECK(rl_txn_create_index(t, "public", "df_never", ix, &e) == 0);
    CHECK(rl_txn_commit(t, &e) == 0);
    rl_txn_free(t);
    free(ix);
    append_batch a = {.sid = 2, .F = 0, .first_id = 0, .n = 2, .min_name = "a", .max_name = "b"};
    append_batch b = {.sid = 2, .F = 0, .first_id = 100, .n = 1, .min_name = "x", .max_name = "y"};
    rl_txn *ta = rl_txn_begin(c, &e), *tb = rl_txn_begin(c, &e);
    rl_txn_set_index_fn(ta, never_in_index, &calls);
    rl_txn_set_index_fn(tb, never_in_index, &calls);
    CHECK(append_rows(ta, &a, &e) == 0);
    CHECK(append_rows(tb, &b, &e) == 0);
    CHECK(calls >= 2);
    CHECK(rl_txn_commit(ta, &e) == 0);
    CHECK(rl_txn_commit(tb, &e) < 0);
    CHECK_EQ_STR(e.sqlstate, "23505");
    CHECK_EQ_STR(e.detail, "Key (snapshot_id)=(2) already exists.");
    rl_txn_free(ta);
    rl_txn_free(tb);
    rl_sequence_stats st;
    rl_catalog_sequence_stats(c, &st);
    CHECK_EQ_INT((int)st.rebased, 0);
    CHECK_EQ_INT((int)st.fallbacks[reason_index("error")], 0);
    uint64_t keys;
    CHECK_EQ_INT(rl_check(c, stderr, &keys, &e), 0);
    rl_catalog_close(c, NULL);
}

/* Races sequencing must not place fail with the same 23505 as without it,
 * write nothing, and are counted under their reason. */
static void test_sequence_falls_back_by_reason(void)
{
    char url[600];
    rl_catalog *c = fresh_sequencing(url, sizeof url);
    if (!c)
        return;
    seq_setup(c);
    rl_error e;
    /* stats_merge: a timestamptz bound cannot be compared exactly */
    append_batch a = {.sid = 2, .F = 0, .first_id = 0, .n = 2, .min_name = "a", .max_name = "b",
                      .at_min = "2024-01-01 00:00:00+00"};
    append_batch b = a;
    b.at_min = "2023-01-01 00:00:00+00";
    CHECK(seq_race(c, &a, &b, &e) < 0);
    CHECK_EQ_STR(e.sqlstate, "23505");
    CHECK_EQ_STR(e.message,
                 "duplicate key value violates unique constraint \"ducklake_snapshot_pkey\"");
    CHECK_EQ_STR(e.detail, "Key (snapshot_id)=(2) already exists.");
    rl_datum tid = I8(1);
    bool found;
    CHECK_EQ_INT(get_i8(c, RL_TAG_TABLE_STATS, &tid, 1, &found), 2); /* only the winner's */
    /* conflict: a commit in between deleted from the appended table */
    rl_txn *d = rl_txn_begin(c, &e), *l = rl_txn_begin(c, &e);
    rl_datum del_snap[5] = {I8(3), I8(3000), I8(1), I8(2), I8(1)};
    CHECK(rl_txn_insert(d, seq_d(RL_TAG_SNAPSHOT), del_snap, &e) == 0);
    rl_datum ch[5] = {I8(3), STR("deleted_from_table:1"), NUL(), NUL(), NUL()};
    CHECK(rl_txn_insert(d, seq_d(RL_TAG_SNAPSHOT_CHANGES), ch, &e) == 0);
    append_batch la = {.sid = 3, .F = 0, .first_id = 50, .n = 1, .min_name = "q",
                       .max_name = "q"};
    CHECK(append_rows(l, &la, &e) == 0);
    CHECK(rl_txn_commit(d, &e) == 0);
    CHECK(rl_txn_commit(l, &e) < 0);
    CHECK_EQ_STR(e.sqlstate, "23505");
    rl_txn_free(d);
    rl_txn_free(l);
    /* foreign_commit: a commit in between wrote no snapshot (set_option) */
    rl_txn *m = rl_txn_begin(c, &e), *w = rl_txn_begin(c, &e);
    rl_datum meta[4] = {STR("k"), STR("v"), NUL(), NUL()};
    CHECK(rl_txn_insert(m, seq_d(RL_TAG_METADATA), meta, &e) == 0);
    append_batch wa = {.sid = 4, .F = 0, .first_id = 60, .n = 1, .min_name = "q",
                       .max_name = "q"};
    append_batch wb = wa;
    CHECK(append_rows(w, &wa, &e) == 0);
    CHECK(rl_txn_commit(m, &e) == 0);
    rl_txn *w2 = rl_txn_begin(c, &e);
    wb.first_id = 70;
    CHECK(append_rows(w2, &wb, &e) == 0);
    CHECK(rl_txn_commit(w2, &e) == 0);
    CHECK(rl_txn_commit(w, &e) < 0); /* its base is before m's commit */
    rl_txn_free(m);
    rl_txn_free(w);
    rl_txn_free(w2);
    /* not_standard_claim: a claim that skips an id */
    rl_txn *x = rl_txn_begin(c, &e), *y = rl_txn_begin(c, &e);
    append_batch xa = {.sid = 5, .F = 0, .first_id = 80, .n = 1, .min_name = "q", .max_name = "q"};
    append_batch xb = xa;
    xb.sid = 6; /* its base is 4: id 6 is not base + 1 */
    xb.F = 50;
    CHECK(append_rows(x, &xa, &e) == 0);
    CHECK(append_rows(y, &xb, &e) == 0);
    CHECK(rl_txn_commit(x, &e) == 0);
    rl_txn *z = rl_txn_begin(c, &e);
    append_batch za = {.sid = 6, .F = 0, .first_id = 90, .n = 1, .min_name = "q", .max_name = "q"};
    CHECK(append_rows(z, &za, &e) == 0);
    CHECK(rl_txn_commit(z, &e) == 0);
    CHECK(rl_txn_commit(y, &e) < 0);
    rl_txn_free(x);
    rl_txn_free(y);
    rl_txn_free(z);
    rl_sequence_stats st;
    rl_catalog_sequence_stats(c, &st);
    CHECK_EQ_INT((int)st.rebased, 0);
    CHECK_EQ_INT((int)st.fallbacks[reason_index("stats_merge")], 1);
    CHECK_EQ_INT((int)st.fallbacks[reason_index("conflict")], 1);
    CHECK_EQ_INT((int)st.fallbacks[reason_index("foreign_commit")], 1);
    CHECK_EQ_INT((int)st.fallbacks[reason_index("not_standard_claim")], 1);
    CHECK_EQ_INT((int)st.fallbacks[reason_index("error")], 0);
    uint64_t keys;
    CHECK_EQ_INT(rl_check(c, stderr, &keys, &e), 0);
    rl_catalog_close(c, NULL);
}

static void run_suite(void)
{
    RUN(test_create_reopen_and_format);
    RUN(test_sequence_stat_order);
    RUN(test_sequence_rebases_a_lost_parquet_append);
    RUN(test_sequence_keeps_deferred_fkey_checks);
    RUN(test_sequence_falls_back_by_reason);
    RUN(test_sequence_leaves_computed_unique_tables_alone);
    RUN(test_format_1_1_shape);
    RUN(test_duplicate_snapshot_is_23505_with_pg_text);
    RUN(test_snapshot_race_later_committer_loses);
    RUN(test_concurrent_update_is_40001);
    RUN(test_noop_update_writes_nothing_but_still_conflicts);
    RUN(test_snapshot_isolation_and_rollback);
    RUN(test_sequence_state_outside_transactions);
    RUN(test_mvcc_versions_and_live_index);
    RUN(test_live_load_cost_follows_live_rows);
    RUN(test_data_file_pk_via_index_and_delete);
    RUN(test_key_column_rules);
    RUN(test_no_pk_tables_keep_duplicates);
    RUN(test_concurrent_duplicate_inserts_both_commit);
    RUN(test_primary_keys_still_refuse_duplicates);
    RUN(test_audit_entry_per_commit);
    RUN(test_two_writers_older_is_fenced);
    RUN(test_writer_lease);
    RUN(test_writer_lease_pid_reuse);
    RUN(test_import_marker);
    RUN(test_dynamic_tables);
    RUN(test_read_only_follower);
    RUN(test_concurrent_commits_race_like_ducklake);
    RUN(test_table_and_schema_registry);
    RUN(test_index_definitions);
    RUN(test_index_definition_versions);
    RUN(test_unique_indexes);
    RUN(test_update_moves_dynamic_row);
    RUN(test_computed_unique_index);
    RUN(test_foreign_keys);
    RUN(test_deferred_foreign_keys);
    RUN(test_fkey_def_versions);
    RUN(test_check_constraints);
    RUN(test_column_defaults);
    RUN(test_default_identity_codec);
    RUN(test_unique_entries_follow_a_moved_duplicate);
    RUN(test_comments);
    RUN(test_name_cache_follows_snapshots);
    RUN(test_group_commit_shares_flushes);
    RUN(test_reads_see_only_durable_commits);
}

int main(void)
{
    const char *s3 = getenv("ROCKLAKE_S3_URL");
    if (s3 && *s3) {
        snprintf(base_url, sizeof base_url, "%s/catalog", s3);
        fprintf(stderr, "# store: %s\n", base_url);
        run_suite();
        return tu_finish();
    }
    snprintf(base_url, sizeof base_url, "memory://catalog");
    fprintf(stderr, "# store: memory://\n");
    run_suite();
    const char *tmp = getenv("ROCKLAKE_TEST_TMP");
    snprintf(base_url, sizeof base_url, "%s/catalog-stores", tmp && *tmp ? tmp : "/tmp");
    fprintf(stderr, "# store: %s\n", base_url);
    run_suite();
    return tu_finish();
}
