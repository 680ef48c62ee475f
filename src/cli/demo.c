/*
 * demo.c — the demo / benchmark catalog builder (see demo.h).
 *
 * Owns: generating DuckLake-shaped rows and committing them the way DuckLake
 * does: snapshot 0 with schema "main", one commit per CREATE TABLE, commits
 * of data files with their column statistics, renames that close one version
 * and open the next, and one "extras" commit that touches every remaining
 * DuckLake table (tags, view, macro, partitioning, sorting, inlined data and
 * deletes, delete file, variant stats, compaction + scheduled deletion,
 * column/name mapping).
 *
 * Invariants: rows are built by column NAME through the descriptor (so a
 * column-order change in desc.c cannot silently shift values); every value
 * is deterministic (uuids and sizes come from a counter, only timestamps use
 * the clock); ids are taken from this builder's mirror of next_catalog_id /
 * next_file_id, which it also writes into each ducklake_snapshot row.
 */
#include "cli/demo.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "keys/keys.h"
#include "keys/tags.h"

/* ------------------------------------------------------------- row builder */

/* One row under construction: datums by column index plus a string pool the
 * datums point into (the row is inserted before the pool is reused). */
typedef struct demo_row {
    const rl_table_desc *d;
    rl_format fmt;
    rl_datum v[RL_MAX_COLUMNS];
    char pool[4096];
    size_t used;
    const char *bad; /* first unknown column / overflow, for the error */
} demo_row;

static void row_begin(demo_row *r, const rl_table_desc *d, rl_format fmt)
{
    r->d = d;
    r->fmt = fmt;
    r->used = 0;
    r->bad = NULL;
    for (size_t i = 0; i < RL_MAX_COLUMNS; i++)
        r->v[i].isnull = true;
}

/* Column slot by name; NULL (and r->bad set) when the table has no such
 * column in this format — a 1.0-only column name used under 1.1 is a bug. */
static rl_datum *slot(demo_row *r, const char *name)
{
    int i = rl_desc_column_index(r->d, name, r->fmt);
    if (i < 0) {
        if (!r->bad)
            r->bad = name;
        return NULL;
    }
    r->v[i].isnull = false;
    return &r->v[i];
}

static void set_i(demo_row *r, const char *name, int64_t v)
{
    rl_datum *d = slot(r, name);
    if (d)
        d->v.i = v;
}

static void set_b(demo_row *r, const char *name, bool v)
{
    rl_datum *d = slot(r, name);
    if (d)
        d->v.b = v;
}

static void set_s(demo_row *r, const char *name, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void set_s(demo_row *r, const char *name, const char *fmt, ...)
{
    rl_datum *d = slot(r, name);
    if (!d)
        return;
    va_list ap;
    va_start(ap, fmt);
    size_t room = sizeof r->pool - r->used;
    int n = vsnprintf(r->pool + r->used, room, fmt, ap);
    va_end(ap);
    if (n < 0 || (size_t)n >= room) {
        r->bad = name;
        return;
    }
    d->v.s.p = (const uint8_t *)r->pool + r->used;
    d->v.s.len = (size_t)n;
    r->used += (size_t)n + 1;
}

/* Deterministic version-4 uuid: two splitmix64 outputs of `seed`. */
static void make_uuid(uint64_t seed, uint8_t out[16])
{
    for (int half = 0; half < 2; half++) {
        uint64_t z = seed * 2 + (uint64_t)half + 0x9e3779b97f4a7c15ULL;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
        z ^= z >> 31;
        rl_store_be64(out + 8 * half, z);
    }
    out[6] = (uint8_t)((out[6] & 0x0f) | 0x40);
    out[8] = (uint8_t)((out[8] & 0x3f) | 0x80);
}

static void set_uuid(demo_row *r, const char *name, uint64_t seed)
{
    rl_datum *d = slot(r, name);
    if (d)
        make_uuid(seed, d->v.uuid);
}

static void uuid_text(uint64_t seed, char out[37])
{
    uint8_t u[16];
    make_uuid(seed, u);
    char *p = out;
    for (int i = 0; i < 16; i++) {
        if (i == 4 || i == 6 || i == 8 || i == 10)
            *p++ = '-';
        p += sprintf(p, "%02x", u[i]);
    }
}

/* ------------------------------------------------------------ builder state */

typedef struct demo_table {
    int64_t id;
    int64_t begin;          /* begin_snapshot of the open ducklake_table version */
    char name[64];
    int64_t record_count, next_row_id, file_size;
    int64_t first_file;     /* data_file_id of its first file, -1 if none */
    int index;              /* 0-based position: names are t_<index+1>[_v<n>] */
    bool touched;           /* stats changed in the current commit */
} demo_table;

typedef struct demo {
    rl_catalog *cat;
    const rl_demo_params *p;
    rl_format fmt;
    rl_error *err;
    rl_txn *txn;
    int64_t snap;           /* snapshot of the commit being built */
    int64_t next_snapshot, next_catalog_id, next_file_id, schema_version;
    uint64_t uuid_seq;
    demo_table *tables;
    rl_buf changes;         /* ducklake_snapshot_changes.changes_made */
    int64_t last_file_id, last_file_table;
} demo;

static int64_t now_pg_micros(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return ((int64_t)ts.tv_sec - 946684800LL) * 1000000LL + ts.tv_nsec / 1000;
}

static const rl_table_desc *desc(demo *st, uint8_t tag)
{
    (void)st;
    return rl_desc_by_tag(tag);
}

/* Insert a finished row in the current transaction. */
static int put(demo *st, demo_row *r)
{
    if (r->bad)
        return rl_error_set(st->err, RL_SQLSTATE_INTERNAL_ERROR,
                            "demo: cannot set column \"%s\" of %s", r->bad, r->d->name);
    rl_txn_count_statement(st->txn); /* DuckLake sends one INSERT per row */
    return rl_txn_insert(st->txn, r->d, r->v, st->err);
}

/* Replace the row with the same key (key columns unchanged). */
static int replace(demo *st, demo_row *r)
{
    if (r->bad)
        return put(st, r);
    rl_buf key;
    rl_buf_init(&key, 0);
    rl_key_encode_row(&key, r->d, r->v, 0, NULL);
    int rc = key.failed ? rl_error_set(st->err, RL_SQLSTATE_INTERNAL_ERROR, "out of memory")
                        : rl_txn_update(st->txn, r->d, key.data, key.len, r->v, st->err);
    rl_buf_free(&key);
    return rc;
}

static void add_change(demo *st, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void add_change(demo *st, const char *fmt, ...)
{
    char tok[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(tok, sizeof tok, fmt, ap);
    va_end(ap);
    /* DuckLake lists each change once per commit */
    size_t n = strlen(tok);
    for (size_t at = 0; at + n <= st->changes.len;) {
        if (memcmp(st->changes.data + at, tok, n) == 0 &&
            (at + n == st->changes.len || st->changes.data[at + n] == ','))
            return;
        uint8_t *comma = memchr(st->changes.data + at, ',', st->changes.len - at);
        if (!comma)
            break;
        at = (size_t)(comma - st->changes.data) + 1;
    }
    if (st->changes.len)
        rl_buf_put_u8(&st->changes, ',');
    rl_buf_put(&st->changes, tok, n);
}

static int begin_commit(demo *st)
{
    st->txn = rl_txn_begin(st->cat, st->err);
    if (!st->txn)
        return -1;
    rl_txn_set_audit(st->txn, "rocklake-demo", "rocklake demo", "local");
    st->snap = st->next_snapshot++;
    rl_buf_reset(&st->changes);
    return 0;
}

/* The snapshot row carries the counters as of the end of this commit, as
 * DuckLake's does, so it is written last. */
static int end_commit(demo *st)
{
    demo_row r;
    row_begin(&r, desc(st, RL_TAG_SNAPSHOT), st->fmt);
    set_i(&r, "snapshot_id", st->snap);
    set_i(&r, "snapshot_time", now_pg_micros());
    set_i(&r, "schema_version", st->schema_version);
    set_i(&r, "next_catalog_id", st->next_catalog_id);
    set_i(&r, "next_file_id", st->next_file_id);
    int rc = put(st, &r);
    if (rc == 0) {
        row_begin(&r, desc(st, RL_TAG_SNAPSHOT_CHANGES), st->fmt);
        set_i(&r, "snapshot_id", st->snap);
        set_s(&r, "changes_made", "%.*s", (int)st->changes.len,
              st->changes.data ? (const char *)st->changes.data : "");
        rc = put(st, &r);
    }
    if (rc == 0)
        rc = rl_txn_commit(st->txn, st->err);
    rl_txn_free(st->txn);
    st->txn = NULL;
    return rc;
}

/* --------------------------------------------------------- column values */

static const char *const column_types[] = {"int64",   "varchar", "timestamptz", "float64",
                                           "boolean", "date",    "decimal(18,3)", "int32"};
#define NTYPES (sizeof column_types / sizeof column_types[0])

static const char *col_type(int column_id) { return column_types[(column_id - 1) % NTYPES]; }

/* Text of row number n of a column, as DuckLake stores min/max: increasing in
 * n for every type, so min = value(first row) and max = value(last row). */
static void col_value(int column_id, int64_t n, bool max, char *out, size_t len)
{
    const char *t = col_type(column_id);
    time_t secs = (time_t)(1704067200LL + n); /* 2024-01-01 + n seconds */
    struct tm tm;
    if (strcmp(t, "varchar") == 0) {
        snprintf(out, len, "value_%010" PRId64, n);
    } else if (strcmp(t, "timestamptz") == 0) {
        gmtime_r(&secs, &tm);
        strftime(out, len, "%Y-%m-%d %H:%M:%S+00", &tm);
    } else if (strcmp(t, "float64") == 0) {
        snprintf(out, len, "%" PRId64 ".5", n);
    } else if (strcmp(t, "boolean") == 0) {
        snprintf(out, len, "%s", max ? "true" : "false");
    } else if (strcmp(t, "date") == 0) {
        secs = (time_t)(1704067200LL + (n / 1000) * 86400);
        gmtime_r(&secs, &tm);
        strftime(out, len, "%Y-%m-%d", &tm);
    } else if (strcmp(t, "decimal(18,3)") == 0) {
        snprintf(out, len, "%" PRId64 ".250", n);
    } else {
        snprintf(out, len, "%" PRId64, n);
    }
}

/* ------------------------------------------------------------ commits */

static int put_metadata(demo *st, const char *key, const char *value)
{
    demo_row r;
    row_begin(&r, desc(st, RL_TAG_METADATA), st->fmt);
    set_s(&r, "key", "%s", key);
    set_s(&r, "value", "%s", value);
    return put(st, &r);
}

/* Snapshot 0: what DuckLake's InitializeDuckLake writes. */
static int commit_init(demo *st)
{
    if (begin_commit(st) < 0)
        return -1;
    add_change(st, "created_schema:\"main\"");
    int rc = put_metadata(st, "version", rl_format_name(st->fmt));
    if (rc == 0)
        rc = put_metadata(st, "created_by", "DuckDB rocklake-demo");
    if (rc == 0)
        rc = put_metadata(st, "data_path", "data/");
    if (rc == 0)
        rc = put_metadata(st, "encrypted", "false");
    if (rc == 0) {
        demo_row r;
        row_begin(&r, desc(st, RL_TAG_SCHEMA), st->fmt);
        set_i(&r, "schema_id", st->next_catalog_id++);
        set_uuid(&r, "schema_uuid", st->uuid_seq++);
        set_i(&r, "begin_snapshot", st->snap);
        set_s(&r, "schema_name", "main");
        set_s(&r, "path", "main/");
        set_b(&r, "path_is_relative", true);
        rc = put(st, &r);
    }
    if (rc < 0) {
        rl_txn_free(st->txn);
        return -1;
    }
    return end_commit(st);
}

/* The open version of table t, optionally closed at `end` (-1 = open). */
static void table_row(demo *st, demo_row *r, const demo_table *t, int64_t end)
{
    row_begin(r, desc(st, RL_TAG_TABLE), st->fmt);
    set_i(r, "table_id", t->id);
    set_uuid(r, "table_uuid", 1000000 + (uint64_t)t->id); /* stable across versions */
    set_i(r, "begin_snapshot", t->begin);
    if (end >= 0)
        set_i(r, "end_snapshot", end);
    set_i(r, "schema_id", 0);
    set_s(r, "table_name", "%s", t->name);
    set_s(r, "path", "t_%" PRId64 "/", t->id);
    set_b(r, "path_is_relative", true);
}

static int put_column(demo *st, const demo_table *t, int column_id)
{
    demo_row r;
    row_begin(&r, desc(st, RL_TAG_COLUMN), st->fmt);
    set_i(&r, "column_id", column_id);
    set_i(&r, "begin_snapshot", st->snap);
    set_i(&r, "table_id", t->id);
    set_i(&r, "column_order", column_id);
    set_s(&r, "column_name", "c_%d", column_id);
    set_s(&r, "column_type", "%s", col_type(column_id));
    set_s(&r, "default_value", "NULL");
    set_b(&r, "nulls_allowed", true);
    set_s(&r, "default_value_type", "literal");
    set_s(&r, "default_value_dialect", "duckdb");
    return put(st, &r);
}

static int put_schema_version(demo *st, int64_t table_id)
{
    demo_row r;
    row_begin(&r, desc(st, RL_TAG_SCHEMA_VERSIONS), st->fmt);
    set_i(&r, "begin_snapshot", st->snap);
    set_i(&r, "schema_version", st->schema_version);
    set_i(&r, "table_id", table_id);
    return put(st, &r);
}

static void table_stats_row(demo *st, demo_row *r, const demo_table *t)
{
    row_begin(r, desc(st, RL_TAG_TABLE_STATS), st->fmt);
    set_i(r, "table_id", t->id);
    set_i(r, "record_count", t->record_count);
    set_i(r, "next_row_id", t->next_row_id);
    set_i(r, "file_size_bytes", t->file_size);
}

/* Table-wide column stats: NULL min/max until the table has rows. */
static void column_stats_row(demo *st, demo_row *r, const demo_table *t, int column_id)
{
    row_begin(r, desc(st, RL_TAG_TABLE_COLUMN_STATS), st->fmt);
    set_i(r, "table_id", t->id);
    set_i(r, "column_id", column_id);
    set_b(r, "contains_null", false);
    if (strcmp(col_type(column_id), "float64") == 0)
        set_b(r, "contains_nan", false);
    if (t->next_row_id > 0) {
        char lo[64], hi[64];
        col_value(column_id, 0, false, lo, sizeof lo);
        col_value(column_id, t->next_row_id - 1, true, hi, sizeof hi);
        set_s(r, "min_value", "%s", lo);
        set_s(r, "max_value", "%s", hi);
    }
}

/* CREATE TABLE main.t_i: one commit, one snapshot. */
static int commit_create_table(demo *st, demo_table *t, int index)
{
    if (begin_commit(st) < 0)
        return -1;
    t->id = st->next_catalog_id++;
    t->begin = st->snap;
    t->first_file = -1;
    t->index = index;
    snprintf(t->name, sizeof t->name, "t_%d", index + 1);
    st->schema_version++;
    add_change(st, "created_table:\"main\".\"%s\"", t->name);
    demo_row r;
    table_row(st, &r, t, -1);
    int rc = put(st, &r);
    for (int c = 1; rc == 0 && c <= st->p->columns_per_table; c++)
        rc = put_column(st, t, c);
    if (rc == 0)
        rc = put_schema_version(st, t->id);
    if (rc == 0) {
        table_stats_row(st, &r, t);
        rc = put(st, &r);
    }
    for (int c = 1; rc == 0 && st->p->column_stats && c <= st->p->columns_per_table; c++) {
        column_stats_row(st, &r, t, c);
        rc = put(st, &r);
    }
    if (rc < 0) {
        rl_txn_free(st->txn);
        return -1;
    }
    return end_commit(st);
}

static int put_file_column_stats(demo *st, const demo_table *t, int64_t file_id,
                                 int64_t row_start, int64_t records)
{
    demo_row r;
    int rc = 0;
    for (int c = 1; rc == 0 && c <= st->p->columns_per_table; c++) {
        char lo[64], hi[64];
        col_value(c, row_start, false, lo, sizeof lo);
        col_value(c, row_start + records - 1, true, hi, sizeof hi);
        row_begin(&r, desc(st, RL_TAG_FILE_COLUMN_STATS), st->fmt);
        set_i(&r, "data_file_id", file_id);
        set_i(&r, "table_id", t->id);
        set_i(&r, "column_id", c);
        set_i(&r, "column_size_bytes", records * 8 + 64);
        set_i(&r, "value_count", records);
        set_i(&r, "null_count", 0);
        set_s(&r, "min_value", "%s", lo);
        set_s(&r, "max_value", "%s", hi);
        if (strcmp(col_type(c), "float64") == 0)
            set_b(&r, "contains_nan", false);
        rc = put(st, &r);
    }
    return rc;
}

/* One Parquet file appended to table t (the n-th data file overall). */
static int put_data_file(demo *st, demo_table *t, int64_t n)
{
    int64_t id = st->next_file_id++;
    int64_t records = 1000 + (n * 37) % 500;
    int64_t size = records * 8 * st->p->columns_per_table + 1024;
    char uuid[37];
    uuid_text(st->uuid_seq++, uuid);
    demo_row r;
    row_begin(&r, desc(st, RL_TAG_DATA_FILE), st->fmt);
    set_i(&r, "data_file_id", id);
    set_i(&r, "table_id", t->id);
    set_i(&r, "begin_snapshot", st->snap);
    set_s(&r, "path", "ducklake-%s.parquet", uuid);
    set_b(&r, "path_is_relative", true);
    set_s(&r, "file_format", "parquet");
    set_i(&r, "record_count", records);
    set_i(&r, "file_size_bytes", size);
    set_i(&r, "footer_size", 200 + 40 * st->p->columns_per_table);
    set_i(&r, "row_id_start", t->next_row_id);
    int rc = put(st, &r);
    if (rc == 0 && st->p->column_stats)
        rc = put_file_column_stats(st, t, id, t->next_row_id, records);
    if (t->first_file < 0)
        t->first_file = id;
    t->next_row_id += records;
    t->record_count += records;
    t->file_size += size;
    t->touched = true;
    st->last_file_id = id;
    st->last_file_table = t->id;
    add_change(st, "inserted_into_table:%" PRId64, t->id);
    return rc;
}

/* Rewrite table-level stats of the tables this commit touched. */
static int flush_touched_stats(demo *st)
{
    int rc = 0;
    for (int i = 0; rc == 0 && i < st->p->tables; i++) {
        demo_table *t = &st->tables[i];
        if (!t->touched)
            continue;
        t->touched = false;
        demo_row r;
        table_stats_row(st, &r, t);
        rc = replace(st, &r);
        for (int c = 1; rc == 0 && st->p->column_stats && c <= st->p->columns_per_table; c++) {
            column_stats_row(st, &r, t, c);
            rc = replace(st, &r);
        }
    }
    return rc;
}

static int commit_files(demo *st, int64_t first, int64_t count)
{
    if (begin_commit(st) < 0)
        return -1;
    int rc = 0;
    for (int64_t n = first; rc == 0 && n < first + count; n++)
        rc = put_data_file(st, &st->tables[n % st->p->tables], n);
    if (rc == 0)
        rc = flush_touched_stats(st);
    if (rc < 0) {
        rl_txn_free(st->txn);
        return -1;
    }
    return end_commit(st);
}

/* ALTER TABLE ... RENAME: close the open version, open a new one. */
static int commit_rename(demo *st, demo_table *t, int version)
{
    if (begin_commit(st) < 0)
        return -1;
    st->schema_version++;
    add_change(st, "altered_table:%" PRId64, t->id);
    demo_row r;
    table_row(st, &r, t, st->snap);
    int rc = replace(st, &r);
    if (rc == 0) {
        t->begin = st->snap;
        snprintf(t->name, sizeof t->name, "t_%d_v%d", t->index + 1, version);
        table_row(st, &r, t, -1);
        rc = put(st, &r);
    }
    if (rc == 0)
        rc = put_schema_version(st, t->id);
    if (rc < 0) {
        rl_txn_free(st->txn);
        return -1;
    }
    return end_commit(st);
}

/* ---------------------------------------------------------------- extras */

static int extras_tags(demo *st, const demo_table *t)
{
    demo_row r;
    row_begin(&r, desc(st, RL_TAG_TAG), st->fmt);
    set_i(&r, "object_id", t->id);
    set_i(&r, "begin_snapshot", st->snap);
    set_s(&r, "key", "comment");
    set_s(&r, "value", "demo table %s", t->name);
    int rc = put(st, &r);
    if (rc == 0) {
        row_begin(&r, desc(st, RL_TAG_COLUMN_TAG), st->fmt);
        set_i(&r, "table_id", t->id);
        set_i(&r, "column_id", 1);
        set_i(&r, "begin_snapshot", st->snap);
        set_s(&r, "key", "comment");
        set_s(&r, "value", "first column");
        rc = put(st, &r);
    }
    return rc;
}

static int extras_view(demo *st, const demo_table *t)
{
    int64_t view_id = st->next_catalog_id++;
    add_change(st, "created_view:\"main\".\"v_demo\"");
    demo_row r;
    row_begin(&r, desc(st, RL_TAG_VIEW), st->fmt);
    set_i(&r, "view_id", view_id);
    set_uuid(&r, "view_uuid", st->uuid_seq++);
    set_i(&r, "begin_snapshot", st->snap);
    set_i(&r, "schema_id", 0);
    set_s(&r, "view_name", "v_demo");
    set_s(&r, "dialect", "duckdb");
    set_s(&r, "sql", "SELECT * FROM main.%s", t->name);
    int rc = put(st, &r);
    if (rc == 0 && st->fmt >= RL_FMT_1_1) {
        row_begin(&r, desc(st, RL_TAG_VIEW_COLUMN_TAG), st->fmt);
        set_i(&r, "view_id", view_id);
        set_s(&r, "column_name", "c_1");
        set_i(&r, "begin_snapshot", st->snap);
        set_s(&r, "key", "comment");
        set_s(&r, "value", "view column");
        rc = put(st, &r);
    }
    return rc;
}

static int extras_macro(demo *st)
{
    int64_t macro_id = st->next_catalog_id++;
    add_change(st, "created_scalar_macro:\"main\".\"m_add\"");
    demo_row r;
    row_begin(&r, desc(st, RL_TAG_MACRO), st->fmt);
    set_i(&r, "schema_id", 0);
    set_i(&r, "macro_id", macro_id);
    set_s(&r, "macro_name", "m_add");
    set_i(&r, "begin_snapshot", st->snap);
    int rc = put(st, &r);
    if (rc == 0) {
        row_begin(&r, desc(st, RL_TAG_MACRO_IMPL), st->fmt);
        set_i(&r, "macro_id", macro_id);
        set_i(&r, "impl_id", 0);
        set_s(&r, "dialect", "duckdb");
        set_s(&r, "sql", "a + b");
        set_s(&r, "type", "scalar");
        rc = put(st, &r);
    }
    for (int i = 0; rc == 0 && i < 2; i++) {
        row_begin(&r, desc(st, RL_TAG_MACRO_PARAMETERS), st->fmt);
        set_i(&r, "macro_id", macro_id);
        set_i(&r, "impl_id", 0);
        set_i(&r, "column_id", i);
        set_s(&r, "parameter_name", "%s", i == 0 ? "a" : "b");
        set_s(&r, "parameter_type", "unknown");
        rc = put(st, &r);
    }
    return rc;
}

/* PARTITION BY (c_1) and SORT BY c_1 on table t. */
static int extras_layout(demo *st, const demo_table *t)
{
    int64_t partition_id = st->next_catalog_id++;
    demo_row r;
    row_begin(&r, desc(st, RL_TAG_PARTITION_INFO), st->fmt);
    set_i(&r, "partition_id", partition_id);
    set_i(&r, "table_id", t->id);
    set_i(&r, "begin_snapshot", st->snap);
    int rc = put(st, &r);
    if (rc == 0) {
        row_begin(&r, desc(st, RL_TAG_PARTITION_COLUMN), st->fmt);
        set_i(&r, "partition_id", partition_id);
        set_i(&r, "table_id", t->id);
        set_i(&r, "partition_key_index", 0);
        set_i(&r, "column_id", 1);
        set_s(&r, "transform", "identity");
        rc = put(st, &r);
    }
    if (rc == 0 && t->first_file >= 0) {
        row_begin(&r, desc(st, RL_TAG_FILE_PARTITION_VALUE), st->fmt);
        set_i(&r, "data_file_id", t->first_file);
        set_i(&r, "table_id", t->id);
        set_i(&r, "partition_key_index", 0);
        set_s(&r, "partition_value", "0");
        rc = put(st, &r);
    }
    int64_t sort_id = st->next_catalog_id++;
    if (rc == 0) {
        row_begin(&r, desc(st, RL_TAG_SORT_INFO), st->fmt);
        set_i(&r, "sort_id", sort_id);
        set_i(&r, "table_id", t->id);
        set_i(&r, "begin_snapshot", st->snap);
        rc = put(st, &r);
    }
    if (rc == 0) {
        row_begin(&r, desc(st, RL_TAG_SORT_EXPRESSION), st->fmt);
        set_i(&r, "sort_id", sort_id);
        set_i(&r, "table_id", t->id);
        set_i(&r, "sort_key_index", 0);
        set_s(&r, "expression", "c_1");
        set_s(&r, "dialect", "duckdb");
        set_s(&r, "sort_direction", "ASC");
        set_s(&r, "null_order", "NULLS_LAST");
        rc = put(st, &r);
    }
    add_change(st, "altered_table:%" PRId64, t->id);
    return rc;
}

/* Data inlining: the registry row, the dynamic table and three rows. */
static int extras_inlined_data(demo *st, demo_table *t)
{
    char name[96];
    st->schema_version++;
    snprintf(name, sizeof name, "ducklake_inlined_data_%" PRId64 "_%" PRId64, t->id,
             st->schema_version);
    demo_row r;
    row_begin(&r, desc(st, RL_TAG_INLINED_DATA_TABLES), st->fmt);
    set_i(&r, "table_id", t->id);
    set_s(&r, "table_name", "%s", name);
    set_i(&r, "schema_version", st->schema_version);
    int rc = put(st, &r);
    if (rc == 0)
        rc = put_schema_version(st, t->id);
    static const rl_column_desc cols[] = {
        {"row_id", RL_T_INT8, false, RL_FMT_1_0, 0},
        {"begin_snapshot", RL_T_INT8, false, RL_FMT_1_0, 0},
        {"end_snapshot", RL_T_INT8, false, RL_FMT_1_0, 0},
        {"c_1", RL_T_INT4, false, RL_FMT_1_0, 0},
        {"c_2", RL_T_BYTEA, false, RL_FMT_1_0, 0},
    };
    const rl_table_desc *dyn =
        rc == 0 ? rl_txn_create_dynamic(st->txn, "public", name, 5, cols, false, st->err) : NULL;
    if (!dyn)
        return -1;
    for (int i = 0; rc == 0 && i < 3; i++) {
        rl_datum row[5];
        char bytes[16];
        int n = snprintf(bytes, sizeof bytes, "row %d", i);
        memset(row, 0, sizeof row);
        row[0].v.i = t->next_row_id++;
        row[1].v.i = st->snap;
        row[2].isnull = true;
        row[3].v.i = i * 10;
        row[4].v.s.p = (const uint8_t *)bytes;
        row[4].v.s.len = (size_t)n;
        t->record_count++;
        rc = rl_txn_insert(st->txn, dyn, row, st->err);
    }
    t->touched = true;
    add_change(st, "inlined_insert:%" PRId64, t->id);
    return rc;
}

/* Deletes against t's first file: an inlined delete and a delete file. */
static int extras_deletes(demo *st, const demo_table *t)
{
    char name[96];
    snprintf(name, sizeof name, "ducklake_inlined_delete_%" PRId64, t->id);
    static const rl_column_desc cols[] = {
        {"file_id", RL_T_INT8, false, RL_FMT_1_0, 0},
        {"row_id", RL_T_INT8, false, RL_FMT_1_0, 0},
        {"begin_snapshot", RL_T_INT8, false, RL_FMT_1_0, 0},
    };
    const rl_table_desc *dyn =
        rl_txn_create_dynamic(st->txn, "public", name, 3, cols, false, st->err);
    if (!dyn)
        return -1;
    rl_datum row[3];
    memset(row, 0, sizeof row);
    row[0].v.i = t->first_file;
    row[1].v.i = 0;
    row[2].v.i = st->snap;
    int rc = rl_txn_insert(st->txn, dyn, row, st->err);
    char uuid[37];
    uuid_text(st->uuid_seq++, uuid);
    demo_row r;
    if (rc == 0) {
        row_begin(&r, desc(st, RL_TAG_DELETE_FILE), st->fmt);
        set_i(&r, "delete_file_id", st->next_file_id++);
        set_i(&r, "table_id", t->id);
        set_i(&r, "begin_snapshot", st->snap);
        set_i(&r, "data_file_id", t->first_file);
        set_s(&r, "path", "ducklake-%s-delete.parquet", uuid);
        set_b(&r, "path_is_relative", true);
        set_s(&r, "format", "parquet");
        set_i(&r, "delete_count", 1);
        set_i(&r, "file_size_bytes", 512);
        set_i(&r, "footer_size", 100);
        rc = put(st, &r);
    }
    if (rc == 0) {
        row_begin(&r, desc(st, RL_TAG_FILE_VARIANT_STATS), st->fmt);
        set_i(&r, "data_file_id", t->first_file);
        set_i(&r, "table_id", t->id);
        set_i(&r, "column_id", 1);
        set_s(&r, "variant_path", "payload.id");
        set_s(&r, "shredded_type", "int64");
        set_i(&r, "column_size_bytes", 120);
        set_i(&r, "value_count", 10);
        set_i(&r, "null_count", 0);
        set_s(&r, "min_value", "1");
        set_s(&r, "max_value", "10");
        rc = put(st, &r);
    }
    add_change(st, "deleted_from_table:%" PRId64, t->id);
    return rc;
}

/* Compaction: the newest data file ends here and is scheduled for deletion. */
static int extras_compaction(demo *st)
{
    const rl_table_desc *d = desc(st, RL_TAG_DATA_FILE);
    rl_datum f[2];
    memset(f, 0, sizeof f);
    f[0].v.i = st->last_file_table;
    f[1].v.i = st->last_file_id;
    const rl_row *old;
    int rc = rl_txn_get(st->txn, d, f, &old, st->err);
    if (rc <= 0)
        return rc < 0 ? -1
                      : rl_error_set(st->err, RL_SQLSTATE_INTERNAL_ERROR,
                                     "demo: data file %" PRId64 " not found", st->last_file_id);
    /* copy before the next read on this txn reuses the borrowed row */
    demo_row r;
    row_begin(&r, d, st->fmt);
    memcpy(r.v, old->vals, old->ncols * sizeof old->vals[0]);
    int path_col = rl_desc_column_index(d, "path", st->fmt);
    snprintf(r.pool, sizeof r.pool, "%.*s", (int)old->vals[path_col].v.s.len,
             (const char *)old->vals[path_col].v.s.p);
    r.v[path_col].v.s.p = (const uint8_t *)r.pool;
    set_i(&r, "end_snapshot", st->snap);
    rc = rl_txn_update(st->txn, d, old->key, old->klen, r.v, st->err);
    if (rc == 0) {
        demo_row s;
        row_begin(&s, desc(st, RL_TAG_FILES_SCHEDULED_FOR_DELETION), st->fmt);
        set_i(&s, "data_file_id", st->last_file_id);
        set_s(&s, "path", "%s", r.pool);
        set_b(&s, "path_is_relative", true);
        set_i(&s, "schedule_start", now_pg_micros());
        rc = put(st, &s);
    }
    add_change(st, "merge_adjacent:%" PRId64, st->last_file_table);
    return rc;
}

static int extras_mapping(demo *st, const demo_table *t)
{
    demo_row r;
    row_begin(&r, desc(st, RL_TAG_COLUMN_MAPPING), st->fmt);
    set_i(&r, "mapping_id", 0);
    set_i(&r, "table_id", t->id);
    set_s(&r, "type", "map_by_name");
    int rc = put(st, &r);
    if (rc == 0) {
        row_begin(&r, desc(st, RL_TAG_NAME_MAPPING), st->fmt);
        set_i(&r, "mapping_id", 0);
        set_i(&r, "column_id", 1);
        set_s(&r, "source_name", "c_1");
        set_i(&r, "target_field_id", 1);
        set_b(&r, "is_partition", false);
        rc = put(st, &r);
    }
    return rc;
}

static int commit_extras(demo *st)
{
    demo_table *t = &st->tables[0];
    if (begin_commit(st) < 0)
        return -1;
    int rc = extras_tags(st, t);
    if (rc == 0)
        rc = extras_view(st, t);
    if (rc == 0)
        rc = extras_macro(st);
    if (rc == 0)
        rc = extras_layout(st, t);
    if (rc == 0)
        rc = extras_inlined_data(st, t);
    if (rc == 0 && t->first_file >= 0)
        rc = extras_deletes(st, t);
    if (rc == 0 && st->last_file_id >= 0 && st->last_file_id != t->first_file)
        rc = extras_compaction(st);
    if (rc == 0)
        rc = extras_mapping(st, t);
    if (rc == 0)
        rc = flush_touched_stats(st);
    if (rc < 0) {
        rl_txn_free(st->txn);
        return -1;
    }
    return end_commit(st);
}

/* ------------------------------------------------------------------ API */

void rl_demo_defaults(rl_demo_params *p)
{
    *p = (rl_demo_params){.tables = 5, .columns_per_table = 4, .files = 20, .history = 2,
                          .files_per_commit = 1, .column_stats = true, .extras = true};
}

void rl_demo_reference(rl_demo_params *p)
{
    *p = (rl_demo_params){.tables = 50, .columns_per_table = 10, .files = 10000, .history = 2,
                          .files_per_commit = 100, .column_stats = true, .extras = true};
}

static int check_params(const rl_demo_params *p, rl_error *err)
{
    if (p->tables < 1 || p->columns_per_table < 1 || p->columns_per_table > 60 ||
        p->files < 0 || p->history < 0 || p->files_per_commit < 1)
        return rl_error_set(err, RL_SQLSTATE_INVALID_PARAMETER_VALUE,
                            "demo: need tables >= 1, 1 <= columns-per-table <= 60, files >= 0, "
                            "history >= 0, files-per-commit >= 1");
    return 0;
}

/* A demo needs an empty catalog: its ids start at 0 like DuckLake's. */
static int check_empty(rl_catalog *cat, rl_error *err)
{
    if (rl_catalog_counter(cat, RL_COUNTER_NEXT_SNAPSHOT_ID) == 0)
        return 0;
    rl_error_set(err, RL_SQLSTATE_OBJECT_NOT_IN_PREREQUISITE_STATE,
                 "the catalog already has snapshots; a demo is only built into an empty "
                 "catalog");
    rl_error_hint(err, "use a new store path");
    return -1;
}

static int build(demo *st, FILE *progress)
{
    const rl_demo_params *p = st->p;
    if (commit_init(st) < 0)
        return -1;
    for (int i = 0; i < p->tables; i++)
        if (commit_create_table(st, &st->tables[i], i) < 0)
            return -1;
    for (int64_t done = 0; done < p->files;) {
        int64_t n = p->files - done < p->files_per_commit ? p->files - done : p->files_per_commit;
        if (commit_files(st, done, n) < 0)
            return -1;
        int64_t before = done;
        done += n;
        if (progress && p->files >= 1000 && (done / 1000 != before / 1000 || done == p->files))
            fprintf(progress, "demo: %" PRId64 "/%d data files\n", done, p->files);
    }
    for (int v = 1; v <= p->history; v++)
        for (int i = 0; i < p->tables; i++)
            if (commit_rename(st, &st->tables[i], v) < 0)
                return -1;
    if (p->extras && commit_extras(st) < 0)
        return -1;
    return 0;
}

/* Register DuckLake's tables under "public", as DuckDB's CREATE TABLEs do
 * for a new lake, so the demo catalog is also a working SQL catalog when
 * `rocklake serve` opens it. */
static int register_tables(rl_catalog *cat, rl_error *err)
{
    rl_txn *t = rl_txn_begin(cat, err);
    if (!t)
        return -1;
    int rc = 0;
    rl_format fmt = rl_catalog_format(cat);
    for (size_t i = 0; i < rl_ntables && rc == 0; i++)
        if (rl_desc_in_format(&rl_tables[i], fmt))
            rc = rl_txn_register_fixed(t, "public", &rl_tables[i], true, err);
    if (rc == 0)
        rc = rl_txn_commit(t, err);
    rl_txn_free(t);
    return rc;
}

int rl_demo_build(rl_catalog *cat, const rl_demo_params *p, FILE *progress, rl_error *err)
{
    if (check_params(p, err) < 0 || check_empty(cat, err) < 0 || register_tables(cat, err) < 0)
        return -1;
    demo st = {.cat = cat, .p = p, .fmt = rl_catalog_format(cat), .err = err,
               .last_file_id = -1, .last_file_table = -1, .uuid_seq = 1};
    st.tables = calloc((size_t)p->tables, sizeof *st.tables);
    if (!st.tables)
        return rl_error_set(err, RL_SQLSTATE_INTERNAL_ERROR, "out of memory");
    rl_buf_init(&st.changes, 0);
    int rc = build(&st, progress);
    rl_buf_free(&st.changes);
    free(st.tables);
    return rc;
}
