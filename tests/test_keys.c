/*
 * test_keys.c — tests of the key layout (keys.c) and the descriptor table
 * (desc.c).
 *
 * Owns: the promises docs/key-layout.md makes to users and contributors:
 *  - golden bytes for every key shape (the seeds' examples where the layout
 *    keeps them), so a change to the on-disk layout cannot slip in silently;
 *  - the three layout properties for every table, on random rows: round
 *    trip, byte order = field order, parent prefix = exactly its children;
 *  - rejection of keys that cannot be stored (NULL, negative) and of bytes
 *    that are not a key (decode/describe never crash, never misread);
 *  - the descriptor table against DuckLake's schema (reference/schema.md §3
 *    and format-1.1.md), transcribed here independently: DuckLake inserts
 *    without column lists, so names, order and types are the contract.
 *
 * Links only keys.c, desc.c and buf.c (no codec.c: the value codec is not
 * under test here; rl_datum from codec.h is just the row representation).
 * Random tests are seeded, so a failure reproduces.
 */
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>

#include "keys/desc.h"
#include "keys/keys.h"
#include "keys/tags.h"
#include "testutil.h"

/* ---- helpers ------------------------------------------------------------- */

/* "04 0000000000000003 | 00" -> bytes; spaces and '|' are for readability. */
static size_t parse_hex(const char *hex, uint8_t *out, size_t cap)
{
    size_t n = 0;
    int hi = -1;
    for (const char *p = hex; *p; p++) {
        int v;
        if (*p >= '0' && *p <= '9')
            v = *p - '0';
        else if (*p >= 'a' && *p <= 'f')
            v = *p - 'a' + 10;
        else if (*p >= 'A' && *p <= 'F')
            v = *p - 'A' + 10;
        else
            continue;
        if (hi < 0) {
            hi = v;
        } else {
            if (n < cap)
                out[n] = (uint8_t)(hi << 4 | v);
            n++;
            hi = -1;
        }
    }
    return n;
}

/* Key equals the hex; on mismatch print both so the failure is readable. */
static bool key_is(const uint8_t *key, size_t klen, const char *hex)
{
    uint8_t want[512];
    size_t n = parse_hex(hex, want, sizeof want);
    if (n == klen && memcmp(key, want, n) == 0)
        return true;
    rl_buf h;
    rl_buf_init(&h, 0);
    rl_key_hex(&h, key, klen);
    fprintf(stderr, "    got  %.*s\n    want %s\n", (int)h.len, (const char *)h.data, hex);
    rl_buf_free(&h);
    return false;
}

static bool describe_is(const uint8_t *key, size_t klen, const char *want)
{
    rl_buf b;
    rl_buf_init(&b, 0);
    rl_key_describe(&b, key, klen);
    bool ok = b.len == strlen(want) && memcmp(b.data, want, b.len) == 0;
    if (!ok)
        fprintf(stderr, "    got  \"%.*s\"\n    want \"%s\"\n", (int)b.len, (const char *)b.data,
                want);
    rl_buf_free(&b);
    return ok;
}

static rl_datum dint(int64_t v)
{
    rl_datum d;
    memset(&d, 0, sizeof d);
    d.v.i = v;
    return d;
}

static rl_datum dstr(const void *p, size_t len)
{
    rl_datum d;
    memset(&d, 0, sizeof d);
    d.v.s.p = p;
    d.v.s.len = len;
    return d;
}

static bool is_str_type(rl_type t) { return t == RL_T_VARCHAR || t == RL_T_TEXT; }

/* Every column non-NULL with a value that is never a key value in these
 * tests (0x7777, "junk"): a non-key column leaking into a key shows up. */
static void fill_junk(const rl_table_desc *d, rl_datum *row)
{
    memset(row, 0, sizeof(rl_datum) * RL_MAX_COLUMNS);
    for (int c = 0; c < d->ncols_max; c++) {
        if (is_str_type(d->cols[c].type))
            row[c] = dstr("junk", 4);
        else
            row[c] = dint(0x7777);
    }
}

/* Signed three-way results normalised to -1/0/1. */
static int sign(int v) { return (v > 0) - (v < 0); }
static int cmp_u64(uint64_t a, uint64_t b) { return (a > b) - (a < b); }

/* SlateDB's key order: bytewise, a proper prefix first. Also the order we
 * promise for string fields. */
static int cmp_bytes(const uint8_t *a, size_t an, const uint8_t *b, size_t bn)
{
    size_t n = an < bn ? an : bn;
    int c = n ? memcmp(a, b, n) : 0;
    return c ? sign(c) : cmp_u64(an, bn);
}

static bool starts_with(const uint8_t *k, size_t kl, const uint8_t *p, size_t pl)
{
    return kl >= pl && (pl == 0 || memcmp(k, p, pl) == 0);
}

/* ---- random rows --------------------------------------------------------- */

/* A row plus the storage its string key fields point into. Never copied
 * (the datums point into `str`). */
typedef struct krow {
    rl_datum row[RL_MAX_COLUMNS];
    uint64_t seq;
    uint8_t str[RL_MAX_KEY_FIELDS][8];
} krow;

#define P2(n) (INT64_C(1) << (n))
/* Edge values for int8 key columns: byte and word boundaries and the max. */
static const int64_t edge_i8[] = {0, 1, 255, 256, P2(32), INT64_MAX};
/* Row sequences are raw u64, so the full range applies. */
static const uint64_t edge_u64[] = {0, 1, 255, 256, UINT64_C(1) << 32, UINT64_C(1) << 63,
                                    UINT64_MAX};

/* `narrow` draws from a tiny domain so that random pairs often share
 * leading fields — the case where order and prefix bugs hide. */
static int64_t rand_i8(uint64_t *rng, bool narrow)
{
    uint64_t r = tu_rand(rng);
    size_t ne = sizeof edge_i8 / sizeof edge_i8[0];
    if (narrow)
        return r % 4 == 0 ? edge_i8[(r >> 8) % ne] : (int64_t)((r >> 8) % 3);
    switch (r % 4) {
    case 0: return edge_i8[(r >> 8) % ne];
    case 1: return (int64_t)((r >> 8) % 300); /* small ids, as DuckLake issues them */
    default: return (int64_t)(tu_rand(rng) >> (1 + (r >> 8) % 63)); /* any size >= 0 */
    }
}

static uint64_t rand_seq(uint64_t *rng, bool narrow)
{
    uint64_t r = tu_rand(rng);
    size_t ne = sizeof edge_u64 / sizeof edge_u64[0];
    if (narrow)
        return r % 4 == 0 ? edge_u64[(r >> 8) % ne] : (r >> 8) % 3;
    return r % 3 == 0 ? edge_u64[(r >> 8) % ne] : tu_rand(rng) >> ((r >> 8) % 64);
}

/* Strings made of the bytes the escape treats specially (00, 01, FF) plus
 * ordinary ones, including the empty string. */
static size_t rand_str(uint64_t *rng, bool narrow, uint8_t *out)
{
    static const uint8_t alphabet[] = {0x00, 0x01, 0xFF, 'a', 'b', 0x7F, 0xFE, 0x02};
    size_t len = tu_rand(rng) % (narrow ? 4 : 8);
    for (size_t i = 0; i < len; i++) {
        uint64_t r = tu_rand(rng);
        out[i] = narrow ? alphabet[r % 4] : (r % 3 ? alphabet[(r >> 8) % 8] : (uint8_t)(r >> 16));
    }
    return len;
}

/* Randomise key field i of r. */
static void rand_field(uint64_t *rng, const rl_table_desc *d, int i, krow *r, bool narrow)
{
    int col = d->key[i];
    if (col == RL_KEY_SEQ)
        r->seq = rand_seq(rng, narrow);
    else if (is_str_type(d->cols[col].type))
        r->row[col] = dstr(r->str[i], rand_str(rng, narrow, r->str[i]));
    else
        r->row[col] = dint(rand_i8(rng, narrow));
}

static void rand_row(uint64_t *rng, const rl_table_desc *d, krow *r, bool narrow)
{
    fill_junk(d, r->row);
    r->seq = 0;
    for (int i = 0; i < d->nkey; i++)
        rand_field(rng, d, i, r, narrow);
}

/* Copy key field i from src to dst (strings are copied into dst's storage). */
static void copy_field(const rl_table_desc *d, int i, krow *dst, const krow *src)
{
    int col = d->key[i];
    if (col == RL_KEY_SEQ) {
        dst->seq = src->seq;
    } else if (is_str_type(d->cols[col].type)) {
        memcpy(dst->str[i], src->row[col].v.s.p, src->row[col].v.s.len);
        dst->row[col] = dstr(dst->str[i], src->row[col].v.s.len);
    } else {
        dst->row[col] = src->row[col];
    }
}

/* Field order: the first `n` key fields compared left to right, integers
 * numerically, strings bytewise with a proper prefix first. */
static int cmp_fields(const rl_table_desc *d, const krow *a, const krow *b, int n)
{
    for (int i = 0; i < n; i++) {
        int col = d->key[i], c;
        if (col == RL_KEY_SEQ)
            c = cmp_u64(a->seq, b->seq);
        else if (is_str_type(d->cols[col].type))
            c = cmp_bytes(a->row[col].v.s.p, a->row[col].v.s.len, b->row[col].v.s.p,
                          b->row[col].v.s.len);
        else
            c = cmp_u64((uint64_t)a->row[col].v.i, (uint64_t)b->row[col].v.i);
        if (c)
            return c;
    }
    return 0;
}

/* Values of the first n key fields, as rl_key_encode_prefix takes them. */
static void prefix_fields(const rl_table_desc *d, const krow *r, int n, rl_datum *fields)
{
    for (int i = 0; i < n; i++)
        fields[i] = d->key[i] == RL_KEY_SEQ ? dint((int64_t)r->seq) : r->row[d->key[i]];
}

static bool encode(rl_buf *b, const rl_table_desc *d, const krow *r)
{
    rl_buf_reset(b);
    return rl_key_encode_row(b, d, r->row, r->seq, NULL) == RL_KEY_OK && !b->failed;
}

/* A dynamic table (0xFD): rows keyed dyn id | seq. Real ones are built at
 * runtime from 0x82 definitions; this one stands in for them. */
static const rl_column_desc dyn_cols[] = {{"a", RL_T_INT8, false, RL_FMT_1_0, 0},
                                          {"b", RL_T_VARCHAR, false, RL_FMT_1_0, 0}};
static const rl_table_desc dyn_desc = {
    .tag = RL_TAG_DYNAMIC_ROW, .name = "ducklake_inlined_data_5_3", .since = RL_FMT_1_0,
    .ncols_max = 2, .cols = dyn_cols, .nkey = 1, .key = {RL_KEY_SEQ}, .begin_col = -1,
    .end_col = -1, .pk_col = -1, .counter_col = -1, .internal = true, .dyn_id = 7};

/* Every descriptor keys are encoded for: the protocol tables, the internal
 * audit and dynamic-table tables, and a dynamic row table. */
static size_t all_descs(const rl_table_desc **out)
{
    size_t n = 0;
    for (size_t i = 0; i < rl_ntables; i++)
        out[n++] = &rl_tables[i];
    out[n++] = &rl_desc_audit;
    out[n++] = &rl_desc_dynamic_table;
    out[n++] = &dyn_desc;
    return n;
}

/* ---- golden bytes ---------------------------------------------------------- */

/* One key field given by column name (so the golden does not reuse the
 * descriptor's own key mapping: a mis-ordered key would pass otherwise). */
typedef struct gfield {
    const char *col;
    int64_t i;
    const char *s; /* non-NULL: a string field of length slen */
    size_t slen;
} gfield;
#define N(c, v) {c, v, NULL, 0}
#define S(c, lit) {c, 0, lit, sizeof(lit) - 1}

typedef struct golden {
    uint8_t tag;
    gfield f[5];
    uint64_t seq;
    const char *hex;
    const char *describe;
} golden;

static const golden goldens[] = {
    /* seq: ducklake_metadata has no natural unique key (see docs). */
    {0x01, {{0}}, 3, "01 0000000000000003", "ducklake_metadata seq=3"},
    {0x02, {N("snapshot_id", 7)}, 0, "02 0000000000000007", "ducklake_snapshot snapshot_id=7"},
    {0x03, {N("snapshot_id", 7)}, 0, "03 0000000000000007",
     "ducklake_snapshot_changes snapshot_id=7"},
    /* Seed "Key Layout": schema 3 created at snapshot 7. */
    {0x04, {N("schema_id", 3), N("begin_snapshot", 7)}, 0, "04 00000000 00000003 00000000 00000007",
     "ducklake_schema schema_id=3 begin_snapshot=7"},
    /* Seed "Tag Allocation" hex-dump guide: table 42 at snapshot 200. */
    {0x05, {N("table_id", 42), N("begin_snapshot", 200), N("schema_id", 1)}, 0,
     "05 000000000000002A 00000000000000C8", "ducklake_table table_id=42 begin_snapshot=200"},
    /* Hex-dump guide: column 3 of table 5 at snapshot 100 (parent first). */
    {0x06, {N("table_id", 5), N("column_id", 3), N("begin_snapshot", 100)}, 0,
     "06 0000000000000005 0000000000000003 0000000000000064",
     "ducklake_column table_id=5 column_id=3 begin_snapshot=100"},
    /* begin_snapshot is set but must NOT be in the key (rewrite updates it). */
    {0x07, {N("table_id", 5), N("data_file_id", 9), N("begin_snapshot", 11)}, 0,
     "07 0000000000000005 0000000000000009", "ducklake_data_file table_id=5 data_file_id=9"},
    {0x08, {N("table_id", 5), N("delete_file_id", 10), N("data_file_id", 9)}, 0,
     "08 0000000000000005 000000000000000A", "ducklake_delete_file table_id=5 delete_file_id=10"},
    {0x09, {N("table_id", 5), N("data_file_id", 9), N("column_id", 3)}, 0,
     "09 0000000000000005 0000000000000009 0000000000000003",
     "ducklake_file_column_stats table_id=5 data_file_id=9 column_id=3"},
    {0x0A, {N("table_id", 5)}, 0, "0A 0000000000000005", "ducklake_table_stats table_id=5"},
    {0x0B, {N("view_id", 12), N("begin_snapshot", 20)}, 0, "0B 000000000000000C 0000000000000014",
     "ducklake_view view_id=12 begin_snapshot=20"},
    {0x0C, {N("schema_id", 1), N("macro_id", 13), N("begin_snapshot", 21)}, 0,
     "0C 000000000000000D 0000000000000015", "ducklake_macro macro_id=13 begin_snapshot=21"},
    /* String fields: bytes then 00 01. */
    {0x0D, {N("object_id", 5), S("key", "comment"), N("begin_snapshot", 22)}, 0,
     "0D 0000000000000005 636F6D6D656E74 0001 0000000000000016",
     "ducklake_tag object_id=5 key='comment' begin_snapshot=22"},
    {0x0E, {N("table_id", 5), N("column_id", 3), S("key", "comment"), N("begin_snapshot", 23)}, 0,
     "0E 0000000000000005 0000000000000003 636F6D6D656E74 0001 0000000000000017",
     "ducklake_column_tag table_id=5 column_id=3 key='comment' begin_snapshot=23"},
    {0x0F, {N("table_id", 5), N("data_file_id", 9), N("column_id", 3), S("variant_path", "a.b")}, 0,
     "0F 0000000000000005 0000000000000009 0000000000000003 612E62 0001",
     "ducklake_file_variant_stats table_id=5 data_file_id=9 column_id=3 variant_path='a.b'"},
    {0x10, {N("table_id", 5), N("column_id", 3)}, 0, "10 0000000000000005 0000000000000003",
     "ducklake_table_column_stats table_id=5 column_id=3"},
    {0x11, {N("table_id", 5), N("partition_id", 2), N("begin_snapshot", 24)}, 0,
     "11 0000000000000005 0000000000000002 0000000000000018",
     "ducklake_partition_info table_id=5 partition_id=2 begin_snapshot=24"},
    {0x12, {N("table_id", 5), N("partition_id", 2), N("partition_key_index", 0), N("column_id", 3)}, 0,
     "12 0000000000000005 0000000000000002 0000000000000000",
     "ducklake_partition_column table_id=5 partition_id=2 partition_key_index=0"},
    {0x13, {N("table_id", 5), N("data_file_id", 9), N("partition_key_index", 1)}, 0,
     "13 0000000000000005 0000000000000009 0000000000000001",
     "ducklake_file_partition_value table_id=5 data_file_id=9 partition_key_index=1"},
    {0x14, {N("data_file_id", 9)}, 0, "14 0000000000000009",
     "ducklake_files_scheduled_for_deletion data_file_id=9"},
    {0x15, {N("table_id", 5), N("schema_version", 3)}, 0, "15 0000000000000005 0000000000000003",
     "ducklake_inlined_data_tables table_id=5 schema_version=3"},
    {0x16, {N("mapping_id", 4), N("table_id", 5)}, 0, "16 0000000000000004",
     "ducklake_column_mapping mapping_id=4"},
    {0x17, {N("mapping_id", 4), N("column_id", 3)}, 0, "17 0000000000000004 0000000000000003",
     "ducklake_name_mapping mapping_id=4 column_id=3"},
    /* begin_snapshot is a plain column here (no end_snapshot, not versioned). */
    {0x18, {N("table_id", 5), N("schema_version", 3), N("begin_snapshot", 7)}, 0,
     "18 0000000000000005 0000000000000003", "ducklake_schema_versions table_id=5 schema_version=3"},
    {0x19, {N("macro_id", 13), N("impl_id", 0)}, 0, "19 000000000000000D 0000000000000000",
     "ducklake_macro_impl macro_id=13 impl_id=0"},
    {0x1A, {N("macro_id", 13), N("impl_id", 0), N("column_id", 1)}, 0,
     "1A 000000000000000D 0000000000000000 0000000000000001",
     "ducklake_macro_parameters macro_id=13 impl_id=0 column_id=1"},
    {0x1B, {N("table_id", 5), N("sort_id", 6), N("begin_snapshot", 25)}, 0,
     "1B 0000000000000005 0000000000000006 0000000000000019",
     "ducklake_sort_info table_id=5 sort_id=6 begin_snapshot=25"},
    {0x1C, {N("table_id", 5), N("sort_id", 6), N("sort_key_index", 0)}, 0,
     "1C 0000000000000005 0000000000000006 0000000000000000",
     "ducklake_sort_expression table_id=5 sort_id=6 sort_key_index=0"},
    {0x1D, {N("view_id", 12), S("column_name", "c"), S("key", "comment"), N("begin_snapshot", 26)}, 0,
     "1D 000000000000000C 63 0001 636F6D6D656E74 0001 000000000000001A",
     "ducklake_view_column_tag view_id=12 column_name='c' key='comment' begin_snapshot=26"},
    {0x81, {N("snapshot_id", 7), N("commit_seq", 2)}, 0, "81 0000000000000007 0000000000000002",
     "rocklake_audit snapshot_id=7 commit_seq=2"},
    {0x82, {N("dyn_id", 1)}, 0, "82 0000000000000001", "rocklake_dynamic_table dyn_id=1"},
};

/* One golden per tag 0x01..0x1D, 0x81 and 0x82, built by column name. */
static void test_golden_table_keys(void)
{
    bool seen[256] = {false};
    for (size_t g = 0; g < sizeof goldens / sizeof goldens[0]; g++) {
        const golden *gd = &goldens[g];
        const rl_table_desc *d = rl_desc_by_tag(gd->tag);
        CHECK(d != NULL);
        if (!d)
            continue;
        seen[gd->tag] = true;
        rl_datum row[RL_MAX_COLUMNS];
        fill_junk(d, row);
        for (int i = 0; i < 5 && gd->f[i].col; i++) {
            int col = rl_desc_column_index(d, gd->f[i].col, RL_FMT_LATEST);
            CHECK(col >= 0);
            if (col >= 0)
                row[col] = gd->f[i].s ? dstr(gd->f[i].s, gd->f[i].slen) : dint(gd->f[i].i);
        }
        rl_buf b;
        rl_buf_init(&b, 0);
        CHECK_EQ_INT(rl_key_encode_row(&b, d, row, gd->seq, NULL), RL_KEY_OK);
        if (!key_is(b.data, b.len, gd->hex)) {
            fprintf(stderr, "    (%s)\n", d->name);
            CHECK(false);
        }
        CHECK(describe_is(b.data, b.len, gd->describe));
        rl_buf_free(&b);
    }
    for (int t = 0x01; t <= 0x1D; t++)
        CHECK(seen[t]);
}

/* The seed's rename example: a new version is a new key after the old one,
 * and the schema's prefix covers both. */
static void test_golden_seed_rename(void)
{
    const rl_table_desc *d = rl_desc_by_tag(RL_TAG_SCHEMA);
    rl_datum row[RL_MAX_COLUMNS];
    fill_junk(d, row);
    row[0] = dint(3);  /* schema_id */
    row[2] = dint(7);  /* begin_snapshot */
    row[3].isnull = true; /* end_snapshot NULL: the live version */
    rl_buf v7, v15, pre;
    rl_buf_init(&v7, 0);
    rl_buf_init(&v15, 0);
    rl_buf_init(&pre, 0);
    CHECK_EQ_INT(rl_key_encode_row(&v7, d, row, 0, NULL), RL_KEY_OK);
    row[2] = dint(15);
    CHECK_EQ_INT(rl_key_encode_row(&v15, d, row, 0, NULL), RL_KEY_OK);
    CHECK(key_is(v7.data, v7.len, "04 00000000 00000003 00000000 00000007"));
    CHECK(key_is(v15.data, v15.len, "04 00000000 00000003 00000000 0000000F"));
    CHECK(cmp_bytes(v7.data, v7.len, v15.data, v15.len) < 0);
    rl_datum f = dint(3);
    CHECK_EQ_INT(rl_key_encode_prefix(&pre, d, &f, 1), RL_KEY_OK);
    CHECK(key_is(pre.data, pre.len, "04 00000000 00000003"));
    CHECK(starts_with(v7.data, v7.len, pre.data, pre.len));
    CHECK(starts_with(v15.data, v15.len, pre.data, pre.len));
    uint8_t end[32];
    size_t endlen = 0;
    CHECK((endlen = rl_bytes_prefix_end(pre.data, pre.len, end)) > 0);
    CHECK(key_is(end, endlen, "04 00000000 00000004"));
    rl_buf_free(&v7);
    rl_buf_free(&v15);
    rl_buf_free(&pre);
}

static void test_golden_internal_keys(void)
{
    rl_buf b;
    rl_buf_init(&b, 0);

    /* Counters and system keys by name (hex-dump guide). */
    rl_key_counter(&b, RL_COUNTER_NEXT_SNAPSHOT_ID);
    CHECK(key_is(b.data, b.len, "FE 6E 65 78 74 2D 73 6E 61 70 73 68 6F 74 2D 69 64"));
    CHECK(describe_is(b.data, b.len, "counter next-snapshot-id"));
    rl_buf_reset(&b);
    rl_key_system(&b, RL_SYS_WRITER_EPOCH);
    CHECK(key_is(b.data, b.len, "FF 77 72 69 74 65 72 2D 65 70 6F 63 68"));
    CHECK(describe_is(b.data, b.len, "system writer-epoch"));
    rl_buf_reset(&b);

    /* Live index: 80 01, the tag, then the primary key without its tag. */
    static const uint8_t tkey[] = {0x05, 0, 0, 0, 0, 0, 0, 0, 0x2A, 0, 0, 0, 0, 0, 0, 0, 0xC8};
    rl_key_live_index(&b, RL_TAG_TABLE, tkey, sizeof tkey);
    CHECK(key_is(b.data, b.len, "80 01 05 000000000000002A 00000000000000C8"));
    CHECK(describe_is(b.data, b.len, "index live ducklake_table table_id=42 begin_snapshot=200"));
    rl_buf_reset(&b);

    /* PK index: 80 02, the tag, the id. */
    rl_key_pk_index(&b, RL_TAG_DATA_FILE, 9);
    CHECK(key_is(b.data, b.len, "80 02 07 0000000000000009"));
    CHECK(describe_is(b.data, b.len, "index pk ducklake_data_file data_file_id=9"));
    rl_buf_reset(&b);

    /* Dynamic table name index: two escaped strings. */
    rl_key_dynamic_name(&b, "main", "ducklake_inlined_data_5_3");
    CHECK(key_is(b.data, b.len,
                 "80 03 6D61696E 0001 "
                 "6475636B6C616B655F696E6C696E65645F646174615F355F33 0001"));
    CHECK(describe_is(b.data, b.len,
                      "index table-name schema='main' name='ducklake_inlined_data_5_3'"));
    rl_buf_reset(&b);

    /* Dynamic row: FD | dyn id | seq. */
    rl_datum row[RL_MAX_COLUMNS];
    fill_junk(&dyn_desc, row);
    CHECK_EQ_INT(rl_key_encode_row(&b, &dyn_desc, row, 300, NULL), RL_KEY_OK);
    CHECK(key_is(b.data, b.len, "FD 0000000000000007 000000000000012C"));
    CHECK(describe_is(b.data, b.len, "dynamic row dyn_id=7 seq=300"));
    rl_buf_reset(&b);

    /* Hex rendering used by inspect. */
    rl_key_hex(&b, tkey, 3);
    CHECK(b.len == 8 && memcmp(b.data, "05 00 00", 8) == 0);
    rl_buf_free(&b);
}

/* ---- primitives ---------------------------------------------------------- */

/* u64: big-endian, fixed 8 bytes, full u64 range, order preserved. */
static void test_u64_primitive(void)
{
    static const char *hex[] = {"0000000000000000", "00000000000000FF", "0000000000000100",
                                "0000000100000000", "8000000000000000", "FFFFFFFFFFFFFFFF"};
    static const uint64_t vals[] = {0, 255, 256, UINT64_C(1) << 32, UINT64_C(1) << 63, UINT64_MAX};
    rl_buf prev;
    rl_buf_init(&prev, 0);
    for (size_t i = 0; i < 6; i++) {
        rl_buf b;
        rl_buf_init(&b, 0);
        rl_key_put_u64(&b, vals[i]);
        CHECK(key_is(b.data, b.len, hex[i]));
        rl_reader r;
        rl_reader_init(&r, b.data, b.len);
        uint64_t got = 1;
        CHECK(rl_key_get_u64(&r, &got));
        CHECK(got == vals[i]);
        CHECK_EQ_INT(rl_reader_left(&r), 0);
        if (i > 0)
            CHECK(cmp_bytes(prev.data, prev.len, b.data, b.len) < 0);
        rl_reader_init(&r, b.data, 7); /* truncated */
        CHECK(!rl_key_get_u64(&r, &got));
        rl_buf_reset(&prev);
        rl_buf_put(&prev, b.data, b.len);
        rl_buf_free(&b);
    }
    rl_buf_free(&prev);
}

/* Strings: 00 -> 00 FF, terminator 00 01, round trip, order kept. */
static void test_str_primitive(void)
{
    rl_buf b, out;
    rl_buf_init(&b, 0);
    rl_buf_init(&out, 0);
    rl_key_put_str(&b, (const uint8_t *)"a\0b", 3);
    CHECK(key_is(b.data, b.len, "61 00FF 62 0001"));
    rl_buf_reset(&b);
    rl_key_put_str(&b, (const uint8_t *)"", 0);
    CHECK(key_is(b.data, b.len, "0001"));
    rl_buf_reset(&b);
    rl_key_put_str(&b, (const uint8_t *)"\0\0", 2);
    CHECK(key_is(b.data, b.len, "00FF 00FF 0001"));
    rl_buf_reset(&b);
    rl_key_put_str(&b, (const uint8_t *)"\xff\x01", 2);
    CHECK(key_is(b.data, b.len, "FF 01 0001"));

    /* The ordering cases a length prefix would get wrong, and the ones an
     * unescaped 00 would get wrong: each row sorts before the next. */
    static const struct { const char *s; size_t n; } ordered[] = {
        {"", 0}, {"\0", 1}, {"\0\0", 2}, {"\0\x01", 2}, {"\x01", 1}, {"a", 1}, {"a\0", 2},
        {"a\0\0", 3}, {"a\x01", 2}, {"aa", 2}, {"b", 1}, {"\xfe", 1}, {"\xff", 1}, {"\xff\0", 2},
        {"\xff\xff", 2}};
    size_t n = sizeof ordered / sizeof ordered[0];
    for (size_t i = 0; i + 1 < n; i++) {
        rl_buf x, y;
        rl_buf_init(&x, 0);
        rl_buf_init(&y, 0);
        rl_key_put_str(&x, (const uint8_t *)ordered[i].s, ordered[i].n);
        rl_key_put_str(&y, (const uint8_t *)ordered[i + 1].s, ordered[i + 1].n);
        CHECK(cmp_bytes(x.data, x.len, y.data, y.len) < 0);
        rl_reader r;
        rl_reader_init(&r, x.data, x.len);
        rl_buf_reset(&out);
        CHECK(rl_key_get_str(&r, &out));
        CHECK(out.len == ordered[i].n &&
              (out.len == 0 || memcmp(out.data, ordered[i].s, out.len) == 0));
        CHECK_EQ_INT(rl_reader_left(&r), 0);
        rl_buf_free(&x);
        rl_buf_free(&y);
    }

    /* Bad escapes and missing terminators are errors, not strings. */
    static const char *bad[] = {"61", "61 00", "61 00 02", "61 00 00 01", "00 FE", ""};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        uint8_t raw[8];
        size_t rn = parse_hex(bad[i], raw, sizeof raw);
        rl_reader r;
        rl_reader_init(&r, raw, rn);
        rl_buf_reset(&out);
        CHECK(!rl_key_get_str(&r, &out));
    }
    rl_buf_free(&b);
    rl_buf_free(&out);
}

/* ---- properties, for every table ----------------------------------------- */

/* decode(encode(row)) == row's key fields; int-only keys are fixed width. */
static void test_prop_round_trip(void)
{
    const rl_table_desc *ds[64];
    size_t nd = all_descs(ds);
    uint64_t rng = 0x6b657973ULL;
    rl_buf b, arena;
    rl_buf_init(&b, 0);
    rl_buf_init(&arena, 0);
    static krow r;
    for (size_t t = 0; t < nd; t++) {
        const rl_table_desc *d = ds[t];
        bool has_str = false;
        for (int i = 0; i < d->nkey; i++)
            has_str |= d->key[i] != RL_KEY_SEQ && is_str_type(d->cols[d->key[i]].type);
        for (int it = 0; it < 2000; it++) {
            rand_row(&rng, d, &r, it % 2);
            if (!encode(&b, d, &r)) {
                fprintf(stderr, "    encode failed for %s\n", d->name);
                CHECK(false);
                continue;
            }
            if (!has_str)
                CHECK_EQ_INT(b.len, 1 + 8 * d->nkey + (d->tag == RL_TAG_DYNAMIC_ROW ? 8 : 0));
            CHECK_EQ_INT(b.data[0], d->tag);
            rl_datum out[RL_MAX_COLUMNS];
            for (int c = 0; c < RL_MAX_COLUMNS; c++)
                out[c].isnull = true;
            uint64_t seq = ~r.seq;
            rl_buf_reset(&arena);
            rl_key_status st = rl_key_decode_row(b.data, b.len, d, out, &seq, &arena);
            CHECK_EQ_INT(st, RL_KEY_OK);
            if (st != RL_KEY_OK)
                continue; /* fields are unset: comparing them would only crash */
            for (int i = 0; i < d->nkey; i++) {
                int col = d->key[i];
                if (col == RL_KEY_SEQ) {
                    CHECK(seq == r.seq);
                    continue;
                }
                CHECK(!out[col].isnull);
                if (is_str_type(d->cols[col].type))
                    CHECK_MEM(out[col].v.s.p, out[col].v.s.len, r.row[col].v.s.p,
                              r.row[col].v.s.len);
                else
                    CHECK(out[col].v.i == r.row[col].v.i);
            }
            /* Only key columns are decoded; the value holds the rest. */
            for (int c = 0; c < d->ncols_max; c++)
                if (!rl_desc_col_in_key(d, c))
                    CHECK(out[c].isnull);
        }
    }
    rl_buf_free(&b);
    rl_buf_free(&arena);
}

/* memcmp order of keys == lexicographic order of the key fields. */
static void test_prop_byte_order(void)
{
    const rl_table_desc *ds[64];
    size_t nd = all_descs(ds);
    uint64_t rng = 0x6f72646572ULL;
    rl_buf ka, kb;
    rl_buf_init(&ka, 0);
    rl_buf_init(&kb, 0);
    static krow a, b;
    for (size_t t = 0; t < nd; t++) {
        const rl_table_desc *d = ds[t];
        int bad = 0, ties = 0;
        for (int it = 0; it < 4000; it++) {
            bool narrow = it % 4 != 3;
            rand_row(&rng, d, &a, narrow);
            rand_row(&rng, d, &b, narrow);
            /* Share a random number of leading fields, so later fields decide. */
            int share = (int)(tu_rand(&rng) % (d->nkey + 1));
            for (int i = 0; i < share; i++)
                copy_field(d, i, &b, &a);
            if (!encode(&ka, d, &a) || !encode(&kb, d, &b)) {
                CHECK(false);
                continue;
            }
            int want = cmp_fields(d, &a, &b, d->nkey);
            int got = cmp_bytes(ka.data, ka.len, kb.data, kb.len);
            ties += want == 0;
            if (want != got && bad++ < 3) {
                fprintf(stderr, "    %s: field order %d, byte order %d\n", d->name, want, got);
                CHECK(false);
            }
        }
        CHECK(ties > 0); /* the equal case was exercised too */
    }
    rl_buf_free(&ka);
    rl_buf_free(&kb);
}

/* A parent's prefix holds exactly the keys whose first k fields are the
 * parent's: they start with it, and no other key falls in
 * [prefix, rl_bytes_prefix_end(prefix)). */
static void test_prop_prefix_contiguity(void)
{
    const rl_table_desc *ds[64];
    size_t nd = all_descs(ds);
    uint64_t rng = 0x707265666978ULL;
    rl_buf pre, k;
    rl_buf_init(&pre, 0);
    rl_buf_init(&k, 0);
    static krow parent, child;
    for (size_t t = 0; t < nd; t++) {
        const rl_table_desc *d = ds[t];
        int bad = 0, inside = 0, outside = 0;
        for (int it = 0; it < 300; it++) {
            rand_row(&rng, d, &parent, it % 2);
            int nf = (int)(tu_rand(&rng) % (d->nkey + 1));
            rl_datum fields[RL_MAX_KEY_FIELDS];
            prefix_fields(d, &parent, nf, fields);
            rl_buf_reset(&pre);
            CHECK_EQ_INT(rl_key_encode_prefix(&pre, d, fields, (size_t)nf), RL_KEY_OK);
            uint8_t end[256];
            size_t endlen = 0;
            CHECK((endlen = rl_bytes_prefix_end(pre.data, pre.len, end)) > 0);
            for (int j = 0; j < 20; j++) {
                rand_row(&rng, d, &child, true);
                if (j % 2)
                    for (int i = 0; i < nf; i++)
                        copy_field(d, i, &child, &parent);
                if (!encode(&k, d, &child)) {
                    CHECK(false);
                    continue;
                }
                bool same = cmp_fields(d, &child, &parent, nf) == 0;
                bool sw = starts_with(k.data, k.len, pre.data, pre.len);
                bool in = cmp_bytes(k.data, k.len, pre.data, pre.len) >= 0 &&
                          cmp_bytes(k.data, k.len, end, endlen) < 0;
                same ? inside++ : outside++;
                if ((same != sw || same != in) && bad++ < 3) {
                    fprintf(stderr, "    %s k=%d: same=%d starts_with=%d in_range=%d\n", d->name,
                            nf, same, sw, in);
                    CHECK(false);
                }
            }
        }
        CHECK(inside > 0 && outside > 0);
    }
    rl_buf_free(&pre);
    rl_buf_free(&k);
}

/* rl_bytes_prefix_end on the edges: trailing FF bytes carry, all-FF has none. */
static void test_prefix_end_edges(void)
{
    uint8_t out[16];
    size_t n = 0;
    static const uint8_t p1[] = {0x05, 0x00, 0xFF, 0xFF};
    CHECK((n = rl_bytes_prefix_end(p1, sizeof p1, out)) > 0);
    CHECK(key_is(out, n, "05 01"));
    static const uint8_t p2[] = {0xFF, 0xFF};
    CHECK(rl_bytes_prefix_end(p2, sizeof p2, out) == 0);
    static const uint8_t p3[] = {0xFE};
    CHECK((n = rl_bytes_prefix_end(p3, 1, out)) > 0);
    CHECK(key_is(out, n, "FF"));
}

/* ---- rejections ---------------------------------------------------------- */

/* Key columns must be non-NULL and >= 0; the failing column is reported
 * (the SQL layer turns these into 23502 / 22003 naming the column). */
static void test_reject_null_and_negative(void)
{
    const rl_table_desc *ds[64];
    size_t nd = all_descs(ds);
    uint64_t rng = 0x72656a656374ULL;
    rl_buf b;
    rl_buf_init(&b, 0);
    static krow r;
    for (size_t t = 0; t < nd; t++) {
        const rl_table_desc *d = ds[t];
        rand_row(&rng, d, &r, false);
        /* NULL outside the key is fine: live rows have end_snapshot NULL. */
        for (int c = 0; c < d->ncols_max; c++)
            if (!rl_desc_col_in_key(d, c))
                r.row[c].isnull = true;
        CHECK(encode(&b, d, &r));
        for (int i = 0; i < d->nkey; i++) {
            int col = d->key[i];
            if (col == RL_KEY_SEQ)
                continue;
            rl_datum saved = r.row[col];
            int bad = -2;
            r.row[col].isnull = true;
            rl_buf_reset(&b);
            CHECK_EQ_INT(rl_key_encode_row(&b, d, r.row, r.seq, &bad), RL_KEY_ERR_NULL);
            CHECK_EQ_INT(bad, col);
            rl_datum fields[RL_MAX_KEY_FIELDS];
            prefix_fields(d, &r, i + 1, fields);
            rl_buf_reset(&b);
            CHECK_EQ_INT(rl_key_encode_prefix(&b, d, fields, (size_t)i + 1), RL_KEY_ERR_NULL);
            r.row[col] = saved;
            if (is_str_type(d->cols[col].type))
                continue;
            static const int64_t negs[] = {-1, INT64_MIN, -256};
            for (size_t k = 0; k < 3; k++) {
                r.row[col] = dint(negs[k]);
                bad = -2;
                rl_buf_reset(&b);
                CHECK_EQ_INT(rl_key_encode_row(&b, d, r.row, r.seq, &bad), RL_KEY_ERR_NEGATIVE);
                CHECK_EQ_INT(bad, col);
                prefix_fields(d, &r, i + 1, fields);
                rl_buf_reset(&b);
                CHECK_EQ_INT(rl_key_encode_prefix(&b, d, fields, (size_t)i + 1),
                             RL_KEY_ERR_NEGATIVE);
            }
            r.row[col] = saved;
        }
    }
    rl_buf_free(&b);
}

/* Decode is all-or-nothing: OK with the exact bytes of a key, else CORRUPT. */
static rl_key_status try_decode(const rl_table_desc *d, const uint8_t *k, size_t n)
{
    rl_datum out[RL_MAX_COLUMNS];
    memset(out, 0, sizeof out);
    uint64_t seq;
    rl_buf arena;
    rl_buf_init(&arena, 0);
    rl_key_status st = rl_key_decode_row(k, n, d, out, &seq, &arena);
    if (st == RL_KEY_OK) {
        /* Canonical: re-encoding the decoded fields (and a duplicate's
         * discriminator) gives back the input, so one row never has two
         * keys. */
        rl_buf again;
        rl_buf_init(&again, 0);
        size_t natural_len = 0;
        uint64_t dup = 0;
        int has_dup = rl_key_split_dup(k, n, d, &natural_len, &dup);
        CHECK(has_dup == 0 || has_dup == 1);
        bool same = rl_key_encode_row(&again, d, out, seq, NULL) == RL_KEY_OK &&
                    again.len == natural_len;
        if (has_dup == 1)
            rl_key_put_dup(&again, dup);
        same = same && again.len == n && memcmp(again.data, k, n) == 0;
        if (!same) {
            fprintf(stderr, "    %s: decoded key re-encodes differently\n", d->name);
            CHECK(false);
        }
        rl_buf_free(&again);
    }
    rl_buf_free(&arena);
    return st;
}

static void test_reject_corrupt_keys(void)
{
    const rl_table_desc *ds[64];
    size_t nd = all_descs(ds);
    uint64_t rng = 0x636f7272ULL;
    rl_buf b;
    rl_buf_init(&b, 0);
    static krow r;
    uint8_t tmp[512];
    for (size_t t = 0; t < nd; t++) {
        const rl_table_desc *d = ds[t];
        for (int it = 0; it < 40; it++) {
            rand_row(&rng, d, &r, it % 2);
            CHECK(encode(&b, d, &r));
            CHECK_EQ_INT(try_decode(d, b.data, b.len), RL_KEY_OK);
            /* Every truncation. */
            for (size_t n = 0; n < b.len; n++)
                CHECK_EQ_INT(try_decode(d, b.data, n), RL_KEY_ERR_CORRUPT);
            /* Trailing bytes. */
            memcpy(tmp, b.data, b.len);
            for (int x = 0; x < 3; x++) {
                tmp[b.len] = (uint8_t[]){0x00, 0x01, 0xFF}[x];
                CHECK_EQ_INT(try_decode(d, tmp, b.len + 1), RL_KEY_ERR_CORRUPT);
            }
            /* Wrong tag. */
            for (int tag = 0; tag < 256; tag++) {
                if (tag == d->tag)
                    continue;
                tmp[0] = (uint8_t)tag;
                CHECK_EQ_INT(try_decode(d, tmp, b.len), RL_KEY_ERR_CORRUPT);
            }
        }
    }

    /* An int8 field >= 2^63 was never written (ids are >= 0). */
    uint8_t big[17];
    size_t n = parse_hex("05 8000000000000000 0000000000000001", big, sizeof big);
    CHECK_EQ_INT(try_decode(rl_desc_by_tag(RL_TAG_TABLE), big, n), RL_KEY_ERR_CORRUPT);
    /* Dynamic rows of another dynamic table. */
    n = parse_hex("FD 0000000000000008 0000000000000001", big, sizeof big);
    CHECK_EQ_INT(try_decode(&dyn_desc, big, n), RL_KEY_ERR_CORRUPT);

    /* Bad string escapes inside a ducklake_tag key. */
    static const char *bad_tag_keys[] = {
        "0D 0000000000000005 61 0002 0000000000000001",   /* 00 then neither FF nor 01 */
        "0D 0000000000000005 61 00",                      /* 00 at the end */
        "0D 0000000000000005 61 62",                      /* no terminator */
        "0D 0000000000000005 61 0001",                    /* begin_snapshot missing */
        "0D 0000000000000005 61 0001 0000000000000001 00", /* trailing byte */
    };
    for (size_t i = 0; i < sizeof bad_tag_keys / sizeof bad_tag_keys[0]; i++) {
        n = parse_hex(bad_tag_keys[i], tmp, sizeof tmp);
        CHECK_EQ_INT(try_decode(rl_desc_by_tag(RL_TAG_TAG), tmp, n), RL_KEY_ERR_CORRUPT);
        CHECK(describe_is(tmp, n, "ducklake_tag (malformed key)"));
    }
    rl_buf_free(&b);
}

/* Random bytes and mutated keys through decode and describe, for every
 * table: decode says OK (canonical) or CORRUPT, describe always answers.
 * Run under ASan/UBSan this is the "never a crash" check. */
static void test_fuzz_decode_describe(void)
{
    const rl_table_desc *ds[64];
    size_t nd = all_descs(ds);
    uint64_t rng = 0x66757a7aULL;
    static const uint8_t lead[] = {0x80, 0xFD, 0xFE, 0xFF, 0x00, 0x1E, 0x7F, 0x81, 0x82};
    uint8_t k[64];
    rl_buf out, enc;
    rl_buf_init(&out, 0);
    rl_buf_init(&enc, 0);
    static krow r;
    int accepted = 0;
    for (int it = 0; it < 60000; it++) {
        const rl_table_desc *d = ds[tu_rand(&rng) % nd];
        size_t n;
        if (it % 3 == 0) {
            /* Mutate a valid key: flip, drop or insert a byte. */
            rand_row(&rng, d, &r, true);
            encode(&enc, d, &r);
            n = enc.len < sizeof k ? enc.len : sizeof k;
            memcpy(k, enc.data, n);
            uint64_t m = tu_rand(&rng);
            size_t at = n ? (size_t)(m >> 8) % n : 0;
            if (m % 3 == 0 && n)
                k[at] ^= (uint8_t)(1u << ((m >> 40) % 8));
            else if (m % 3 == 1 && n)
                memmove(k + at, k + at + 1, --n - at);
            else if (n < sizeof k) {
                memmove(k + at + 1, k + at, n - at);
                k[at] = (uint8_t)(m >> 48);
                n++;
            }
        } else {
            n = tu_rand(&rng) % 48;
            for (size_t i = 0; i < n; i++) {
                uint64_t x = tu_rand(&rng);
                k[i] = x % 4 == 0 ? 0x00 : x % 4 == 1 ? 0xFF : x % 8 == 2 ? 0x01 : (uint8_t)(x >> 8);
            }
            uint64_t x = tu_rand(&rng);
            if (n && x % 8 != 0)
                k[0] = d->tag;
            else if (n)
                k[0] = lead[(x >> 8) % sizeof lead];
            if (n >= 3 && k[0] == RL_TAG_INDEX) {
                k[1] = (uint8_t)(1 + (x >> 16) % 4); /* kinds 1..3 and one unknown */
                k[2] = (uint8_t)((x >> 24) % 0x20); /* mostly real tags */
            }
        }
        rl_key_status st = try_decode(d, k, n);
        CHECK(st == RL_KEY_OK || st == RL_KEY_ERR_CORRUPT);
        accepted += st == RL_KEY_OK;
        rl_buf_reset(&out);
        rl_key_describe(&out, k, n);
        CHECK(out.len > 0 && !out.failed);
        if (st == RL_KEY_OK && d->tag != RL_TAG_DYNAMIC_ROW)
            CHECK(out.len >= strlen(d->name) && memcmp(out.data, d->name, strlen(d->name)) == 0);
    }
    CHECK(accepted > 0);
    rl_buf_free(&out);
    rl_buf_free(&enc);
}

/* Regression: describing "80 02 <tag>" for a table without a primary key
 * read d->cols[-1] (pk_col is -1) — out of bounds, garbage name or crash.
 * Now only tables with a PK column are described as a PK index. */
/* The schema index (80 04) written by CREATE SCHEMA: golden bytes and
 * description, plus a malformed variant. */
static void test_schema_index_key(void)
{
    const uint8_t meta[] = {0x80, 0x04, 'm', 'e', 't', 'a', 0x00, 0x01};
    CHECK(describe_is(meta, sizeof meta, "index schema 'meta'"));
    const uint8_t truncated[] = {0x80, 0x04, 'm', 'e'};
    CHECK(describe_is(truncated, sizeof truncated, "index schema (malformed)"));
}

/* An index created by CREATE INDEX (80 05): golden bytes of the key
 * builder and its description, plus a malformed variant. */
static void test_sql_index_key(void)
{
    const uint8_t want[] = {0x80, 0x05, 'p', 'u', 'b', 'l', 'i', 'c', 0x00, 0x01,
                            'i', 'x', 0x00, 0x01};
    rl_buf k;
    rl_buf_init(&k, 0);
    rl_key_sql_index(&k, "public", "ix");
    CHECK(k.len == sizeof want && memcmp(k.data, want, sizeof want) == 0);
    rl_buf_free(&k);
    CHECK(describe_is(want, sizeof want, "index sql-index schema='public' name='ix'"));
    const uint8_t truncated[] = {0x80, 0x05, 'p', 'u', 0x00, 0x01, 'i'};
    CHECK(describe_is(truncated, sizeof truncated, "index sql-index (malformed)"));
}

/* A comment (80 06): schema, relation, column; a relation's own has
 * column "", a schema's relation "" too. */
static void test_comment_key(void)
{
    const uint8_t want[] = {0x80, 0x06, 'p', 0x00, 0x01, 't', 0x00, 0x01, 0x00, 0x01};
    rl_buf k;
    rl_buf_init(&k, 0);
    rl_key_comment(&k, "p", "t", "");
    CHECK(k.len == sizeof want && memcmp(k.data, want, sizeof want) == 0);
    rl_buf_reset(&k);
    rl_key_comment_prefix(&k, "p", "t");
    CHECK(k.len == sizeof want - 2 && memcmp(k.data, want, k.len) == 0);
    rl_buf_free(&k);
    CHECK(describe_is(want, sizeof want, "index comment schema='p' relation='t' column=''"));
    CHECK(describe_is(want, sizeof want - 2, "index comment (malformed)"));
}

/* A sequence's definition (80 0C): schema, name; the prefix of a schema's
 * and of all; its state (80 0D): the id, 8 bytes big-endian. */
static void test_sequence_keys(void)
{
    const uint8_t want[] = {0x80, 0x0C, 'p', 0x00, 0x01, 's', 0x00, 0x01};
    rl_buf k;
    rl_buf_init(&k, 0);
    rl_key_sequence(&k, "p", "s");
    CHECK(k.len == sizeof want && memcmp(k.data, want, sizeof want) == 0);
    rl_buf_reset(&k);
    rl_key_sequence(&k, "p", NULL);
    CHECK(k.len == sizeof want - 3 && memcmp(k.data, want, k.len) == 0);
    rl_buf_reset(&k);
    rl_key_sequence(&k, NULL, "ignored");
    CHECK(k.len == 2 && memcmp(k.data, want, 2) == 0);
    CHECK(describe_is(want, sizeof want, "index sequence schema='p' name='s'"));
    const uint8_t state[] = {0x80, 0x0D, 0, 0, 0, 0, 0, 0, 0x01, 0x02};
    rl_buf_reset(&k);
    rl_key_sequence_state(&k, 258);
    CHECK(k.len == sizeof state && memcmp(k.data, state, sizeof state) == 0);
    CHECK(describe_is(state, sizeof state, "sequence-state 258"));
    rl_buf_free(&k);
}

/* A CHECK constraint (80 0A): schema, table, name (constraint names are
 * per table); the prefix of a table's. */
static void test_check_key(void)
{
    const uint8_t want[] = {0x80, 0x0A, 'p', 0x00, 0x01, 't', 0x00, 0x01, 'c', 0x00, 0x01};
    rl_buf k;
    rl_buf_init(&k, 0);
    rl_key_check(&k, "p", "t", "c");
    CHECK(k.len == sizeof want && memcmp(k.data, want, sizeof want) == 0);
    rl_buf_reset(&k);
    rl_key_check_prefix(&k, "p", "t");
    CHECK(k.len == sizeof want - 3 && memcmp(k.data, want, k.len) == 0);
    rl_buf_reset(&k);
    rl_key_check_prefix(&k, "p", NULL);
    CHECK(k.len == 5 && memcmp(k.data, want, k.len) == 0);
    rl_buf_free(&k);
    CHECK(describe_is(want, sizeof want, "index check schema='p' table='t' name='c'"));
    CHECK(describe_is(want, sizeof want - 3, "index check (malformed)"));
}

static void test_describe_pk_index_every_tag(void)
{
    for (int tag = 0; tag < 256; tag++) {
        rl_buf k;
        rl_buf_init(&k, 0);
        rl_key_pk_index(&k, (uint8_t)tag, 42);
        const rl_table_desc *d = rl_desc_by_tag((uint8_t)tag);
        char want[160];
        if (d && d->pk_col >= 0)
            snprintf(want, sizeof want, "index pk %s %s=42", d->name, d->cols[d->pk_col].name);
        else
            snprintf(want, sizeof want, "index kind 0x02 (unknown or malformed)");
        CHECK(describe_is(k.data, k.len, want));
        rl_buf_free(&k);
    }
}

/* ---- describe ------------------------------------------------------------ */

static void test_describe(void)
{
    uint8_t k[64];
    size_t n;
    CHECK(describe_is(NULL, 0, "(empty key)"));
    n = parse_hex("20 0000000000000001", k, sizeof k);
    CHECK(describe_is(k, n, "unknown tag 0x20"));
    n = parse_hex("05 000000000000002A", k, sizeof k); /* begin_snapshot missing */
    CHECK(describe_is(k, n, "ducklake_table (malformed key)"));
    /* Non-printable string bytes are escaped, so output is one clean line. */
    n = parse_hex("0D 0000000000000005 61 00FF FF 27 0001 0000000000000001", k, sizeof k);
    CHECK(describe_is(k, n, "ducklake_tag object_id=5 key='a\\x00\\xff'' begin_snapshot=1"));
    n = parse_hex("FE 6E 65 78 74 0A", k, sizeof k);
    CHECK(describe_is(k, n, "counter next\\x0a"));
    n = parse_hex("80", k, sizeof k);
    CHECK(describe_is(k, n, "index (malformed)"));
    n = parse_hex("80 01 05 000000000000002A", k, sizeof k);
    CHECK(describe_is(k, n, "index live ducklake_table (malformed)"));
    n = parse_hex("80 01 1E 000000000000002A", k, sizeof k);
    CHECK(describe_is(k, n, "index kind 0x01 (unknown or malformed)"));
    n = parse_hex("80 03 6D61696E 0001", k, sizeof k);
    CHECK(describe_is(k, n, "index table-name (malformed)"));
    n = parse_hex("80 09", k, sizeof k);
    CHECK(describe_is(k, n, "index kind 0x09 (unknown or malformed)"));
    n = parse_hex("FD 0000000000000007", k, sizeof k);
    CHECK(describe_is(k, n, "dynamic row (malformed)"));
    n = parse_hex("01 FFFFFFFFFFFFFFFF", k, sizeof k); /* seq is a full u64 */
    CHECK(describe_is(k, n, "ducklake_metadata seq=18446744073709551615"));
    n = parse_hex("0A 7FFFFFFFFFFFFFFF", k, sizeof k);
    CHECK(describe_is(k, n, "ducklake_table_stats table_id=9223372036854775807"));
}

/* ---- duplicates (decision (i)) ----------------------------------------- */

/* Exactly DuckLake's tables without a PostgreSQL PRIMARY KEY keep
 * duplicates, except ducklake_metadata, whose rows are numbered (seq), and
 * RockLake's internal tables. */
static void test_desc_keeps_duplicates(void)
{
    int n = 0;
    for (size_t i = 0; i < rl_ntables; i++) {
        const rl_table_desc *d = &rl_tables[i];
        bool want = d->pk_check == RL_PK_NONE && d->tag != RL_TAG_METADATA;
        CHECK_EQ_INT(rl_desc_keeps_duplicates(d), want);
        n += want;
    }
    CHECK_EQ_INT(n, 29 - 5 - 1);
    CHECK(!rl_desc_keeps_duplicates(&rl_desc_audit));
    CHECK(!rl_desc_keeps_duplicates(&rl_desc_dynamic_table));
    CHECK(!rl_desc_keeps_duplicates(&dyn_desc));
}

/* Golden bytes of duplicates: the natural key, then 8 bytes BE. */
static void test_golden_duplicate_keys(void)
{
    uint8_t k[128];
    size_t n;
    /* the hive case: three partition values of file 9 at partition_key_index 2 */
    n = parse_hex("13 0000000000000005 0000000000000009 0000000000000002 0000000000000001", k,
                  sizeof k);
    CHECK_EQ_INT(n, 33);
    CHECK(describe_is(k, n, "ducklake_file_partition_value table_id=5 data_file_id=9 "
                            "partition_key_index=2 dup=1"));
    size_t natural_len = 0;
    uint64_t dup = 0;
    CHECK_EQ_INT(rl_key_split_dup(k, n, rl_desc_by_tag(RL_TAG_FILE_PARTITION_VALUE),
                                  &natural_len, &dup), 1);
    CHECK_EQ_INT(natural_len, 25);
    CHECK(dup == 1);
    CHECK_EQ_INT(rl_key_split_dup(k, 25, rl_desc_by_tag(RL_TAG_FILE_PARTITION_VALUE),
                                  &natural_len, &dup), 0);
    CHECK_EQ_INT(natural_len, 25);
    /* a string last: the discriminator follows the terminator */
    n = parse_hex("0F 0000000000000005 0000000000000009 0000000000000003 612E62 0001 "
                  "00000000000000FF", k, sizeof k);
    CHECK(describe_is(k, n, "ducklake_file_variant_stats table_id=5 data_file_id=9 column_id=3 "
                            "variant_path='a.b' dup=255"));
    /* the live index entry of a duplicate repeats it */
    n = parse_hex("80 01 05 000000000000002A 00000000000000C8 0000000000000003", k, sizeof k);
    CHECK(describe_is(k, n, "index live ducklake_table table_id=42 begin_snapshot=200 dup=3"));
    /* tables whose rows are unique have no duplicates: 8 more bytes are not a key */
    n = parse_hex("02 0000000000000007 0000000000000001", k, sizeof k);
    CHECK(describe_is(k, n, "ducklake_snapshot (malformed key)"));
    CHECK_EQ_INT(rl_key_split_dup(k, n, rl_desc_by_tag(RL_TAG_SNAPSHOT), &natural_len, &dup), -1);
    n = parse_hex("01 0000000000000003 0000000000000001", k, sizeof k);
    CHECK(describe_is(k, n, "ducklake_metadata (malformed key)"));
    n = parse_hex("80 01 04 0000000000000003 0000000000000007 0000000000000001", k, sizeof k);
    CHECK(describe_is(k, n, "index live ducklake_schema (malformed)"));
    /* the counter */
    rl_buf b;
    rl_buf_init(&b, 0);
    rl_key_counter(&b, RL_COUNTER_NEXT_DUP);
    CHECK(key_is(b.data, b.len, "FE 6E 65 78 74 2D 72 6F 77 2D 73 65 71 3A 64 75 70"));
    CHECK(describe_is(b.data, b.len, "counter next-row-seq:dup"));
    rl_buf_free(&b);
}

/* A random discriminator, edge values first. */
static uint64_t rand_dup(uint64_t *rng)
{
    uint64_t r = tu_rand(rng);
    size_t ne = sizeof edge_u64 / sizeof edge_u64[0];
    return r % 2 ? edge_u64[(r >> 8) % ne] : (r >> 8) % 4;
}

/* A key of d for row r: natural, or with discriminator `dup` if has_dup. */
static bool encode_dup(rl_buf *b, const rl_table_desc *d, const krow *r, bool has_dup,
                       uint64_t dup)
{
    if (!encode(b, d, r))
        return false;
    if (has_dup)
        rl_key_put_dup(b, dup);
    return !b->failed;
}

/* (fields, no discriminator first, discriminator) order. */
static int cmp_dup(const rl_table_desc *d, const krow *a, bool ah, uint64_t ad, const krow *b,
                   bool bh, uint64_t bd)
{
    int c = cmp_fields(d, a, b, d->nkey);
    if (c)
        return c;
    if (ah != bh)
        return ah ? 1 : -1;
    return ah ? cmp_u64(ad, bd) : 0;
}

/* The three invariants with (key fields, discriminator) in place of the key
 * fields, for every table that keeps duplicates; every other table refuses
 * a discriminator. */
static void test_prop_duplicates(void)
{
    const rl_table_desc *ds[64];
    size_t nd = all_descs(ds);
    uint64_t rng = 0x64757073ULL;
    rl_buf ka, kb, pre, arena;
    rl_buf_init(&ka, 0);
    rl_buf_init(&kb, 0);
    rl_buf_init(&pre, 0);
    rl_buf_init(&arena, 0);
    static krow a, b;
    int tables = 0;
    for (size_t t = 0; t < nd; t++) {
        const rl_table_desc *d = ds[t];
        bool keeps = rl_desc_keeps_duplicates(d);
        tables += keeps;
        int bad = 0;
        for (int it = 0; it < 2000; it++) {
            rand_row(&rng, d, &a, true);
            uint64_t da = rand_dup(&rng);
            bool ha = it % 3 != 0;
            if (!encode_dup(&ka, d, &a, ha, da)) {
                CHECK(false);
                continue;
            }
            /* round trip: the fields decode unchanged, split finds the discriminator */
            rl_datum out[RL_MAX_COLUMNS];
            memset(out, 0, sizeof out);
            uint64_t seq = 0, got = ~da;
            size_t natural_len = 0;
            rl_buf_reset(&arena);
            rl_key_status st = rl_key_decode_row(ka.data, ka.len, d, out, &seq, &arena);
            int split = rl_key_split_dup(ka.data, ka.len, d, &natural_len, &got);
            if (!keeps && ha) {
                CHECK_EQ_INT(st, RL_KEY_ERR_CORRUPT);
                CHECK_EQ_INT(split, -1);
                continue;
            }
            CHECK_EQ_INT(st, RL_KEY_OK);
            CHECK_EQ_INT(split, ha);
            CHECK_EQ_INT(natural_len, ka.len - (ha ? RL_KEY_DUP_LEN : 0));
            if (ha)
                CHECK(got == da);
            CHECK_EQ_INT(try_decode(d, ka.data, ka.len), RL_KEY_OK);
            if (!keeps)
                continue;
            /* Truncated inside the discriminator, or one byte too many: not a key. */
            if (ha) {
                for (size_t cut = natural_len + 1; cut < ka.len; cut++)
                    CHECK_EQ_INT(try_decode(d, ka.data, cut), RL_KEY_ERR_CORRUPT);
                rl_buf_put_u8(&ka, 0x00);
                CHECK_EQ_INT(try_decode(d, ka.data, ka.len), RL_KEY_ERR_CORRUPT);
                ka.len--;
            }
            /* byte order = (fields, discriminator) order */
            rand_row(&rng, d, &b, true);
            int share = (int)(tu_rand(&rng) % (d->nkey + 2));
            for (int i = 0; i < share && i < d->nkey; i++)
                copy_field(d, i, &b, &a);
            bool hb = tu_rand(&rng) % 3 != 0;
            uint64_t db = share > d->nkey && tu_rand(&rng) % 2 ? da : rand_dup(&rng);
            if (!encode_dup(&kb, d, &b, hb, db)) {
                CHECK(false);
                continue;
            }
            int want = cmp_dup(d, &a, ha, da, &b, hb, db);
            int order = cmp_bytes(ka.data, ka.len, kb.data, kb.len);
            if (want != order && bad++ < 3) {
                fprintf(stderr, "    %s: (fields, dup) order %d, byte order %d\n", d->name,
                        want, order);
                CHECK(false);
            }
            /* prefix contiguity: a duplicate is under every prefix of its fields,
             * the natural key itself included, and under no other */
            int nf = (int)(tu_rand(&rng) % (d->nkey + 1));
            rl_datum fields[RL_MAX_KEY_FIELDS];
            prefix_fields(d, &b, nf, fields);
            rl_buf_reset(&pre);
            CHECK_EQ_INT(rl_key_encode_prefix(&pre, d, fields, (size_t)nf), RL_KEY_OK);
            uint8_t end[256];
            size_t endlen = rl_bytes_prefix_end(pre.data, pre.len, end);
            CHECK(endlen > 0);
            bool same = cmp_fields(d, &a, &b, nf) == 0;
            bool in = cmp_bytes(ka.data, ka.len, pre.data, pre.len) >= 0 &&
                      cmp_bytes(ka.data, ka.len, end, endlen) < 0;
            if ((same != in || same != starts_with(ka.data, ka.len, pre.data, pre.len)) &&
                bad++ < 3) {
                fprintf(stderr, "    %s k=%d: same=%d in_range=%d\n", d->name, nf, same, in);
                CHECK(false);
            }
        }
    }
    CHECK_EQ_INT(tables, 23);
    rl_buf_free(&ka);
    rl_buf_free(&kb);
    rl_buf_free(&pre);
    rl_buf_free(&arena);
}

/* ---- descriptor table ---------------------------------------------------- */

/* Tag map (tags.h, docs/key-layout.md): dense 0x01..0x1D in DuckLake's
 * schema order after the seeds' kept tags. */
static const char *const tag_names[] = {
    NULL,
    "ducklake_metadata", "ducklake_snapshot", "ducklake_snapshot_changes", "ducklake_schema",
    "ducklake_table", "ducklake_column", "ducklake_data_file", "ducklake_delete_file",
    "ducklake_file_column_stats", "ducklake_table_stats", "ducklake_view", "ducklake_macro",
    "ducklake_tag", "ducklake_column_tag", "ducklake_file_variant_stats",
    "ducklake_table_column_stats", "ducklake_partition_info", "ducklake_partition_column",
    "ducklake_file_partition_value", "ducklake_files_scheduled_for_deletion",
    "ducklake_inlined_data_tables", "ducklake_column_mapping", "ducklake_name_mapping",
    "ducklake_schema_versions", "ducklake_macro_impl", "ducklake_macro_parameters",
    "ducklake_sort_info", "ducklake_sort_expression", "ducklake_view_column_tag"};

static void test_desc_tags(void)
{
    CHECK_EQ_INT(rl_ntables, 29);
    for (size_t i = 0; i < rl_ntables; i++) {
        const rl_table_desc *d = &rl_tables[i];
        CHECK_EQ_INT(d->tag, i + 1);
        CHECK_EQ_STR(d->name, tag_names[i + 1]);
        CHECK(rl_desc_by_tag(d->tag) == d);
        CHECK(rl_desc_by_name(d->name, RL_FMT_LATEST) == d);
        CHECK(!d->internal);
        for (size_t j = 0; j < i; j++)
            CHECK(rl_tables[j].tag != d->tag && strcmp(rl_tables[j].name, d->name) != 0);
    }
    CHECK(rl_desc_by_tag(RL_TAG_AUDIT) == &rl_desc_audit);
    CHECK(rl_desc_by_tag(RL_TAG_DYNAMIC_TABLE) == &rl_desc_dynamic_table);
    CHECK(rl_desc_audit.internal && rl_desc_dynamic_table.internal);
    static const uint8_t none[] = {0x00, 0x1E, 0x1F, 0x20, 0x7F, 0x80, 0x83, 0xFC, 0xFD, 0xFE, 0xFF};
    for (size_t i = 0; i < sizeof none; i++)
        CHECK(rl_desc_by_tag(none[i]) == NULL);
    CHECK(rl_desc_by_name("ducklake_catalog", RL_FMT_LATEST) == NULL);
    CHECK(rl_desc_by_name("rocklake_audit", RL_FMT_LATEST) == NULL); /* not SQL-visible */
    /* Internal tags: high bit set; counters and system keys last. */
    CHECK(RL_TAG_INDEX == 0x80 && RL_TAG_AUDIT == 0x81 && RL_TAG_DYNAMIC_TABLE == 0x82);
    CHECK(RL_TAG_DYNAMIC_ROW == 0xFD && RL_TAG_COUNTER == 0xFE && RL_TAG_SYSTEM == 0xFF);
    CHECK(RL_INDEX_LIVE == 1 && RL_INDEX_PK == 2 && RL_INDEX_DYNAMIC_NAME == 3);
}

/* Key fields: int8 or varchar columns, distinct, in range; a row sequence
 * only last; begin_snapshot last for versioned tables except the two file
 * tables, whose begin_snapshot is updated in place. */
static void test_desc_keys(void)
{
    const rl_table_desc *ds[64];
    size_t nd = all_descs(ds);
    for (size_t t = 0; t < nd; t++) {
        const rl_table_desc *d = ds[t];
        CHECK(d->nkey >= 1 && d->nkey <= RL_MAX_KEY_FIELDS);
        CHECK(d->ncols_max <= RL_MAX_COLUMNS);
        for (int i = 0; i < d->nkey; i++) {
            int col = d->key[i];
            if (col == RL_KEY_SEQ) {
                CHECK(i == d->nkey - 1);
                continue;
            }
            CHECK(col >= 0 && col < d->ncols_max);
            if (col < 0 || col >= d->ncols_max)
                continue;
            CHECK(d->cols[col].type == RL_T_INT8 || d->cols[col].type == RL_T_VARCHAR);
            CHECK(d->cols[col].since == RL_FMT_1_0 || d->cols[col].since == d->since);
            for (int j = 0; j < i; j++)
                CHECK(d->key[j] != col);
        }
    }
    for (size_t i = 0; i < rl_ntables; i++) {
        const rl_table_desc *d = &rl_tables[i];
        CHECK_EQ_INT(rl_desc_has_seq(d), d->tag == RL_TAG_METADATA);
        /* MVCC columns are the ones named so, and only tables with both. */
        int b = rl_desc_column_index(d, "begin_snapshot", RL_FMT_LATEST);
        int e = rl_desc_column_index(d, "end_snapshot", RL_FMT_LATEST);
        CHECK_EQ_INT(d->end_col, e);
        CHECK_EQ_INT(d->begin_col, e >= 0 ? b : -1);
        /* The live index exists exactly for tables with end_snapshot. */
        CHECK_EQ_INT(d->live_index, e >= 0);
        if (d->begin_col < 0)
            continue;
        bool begin_last = d->key[d->nkey - 1] == d->begin_col;
        bool file_table = d->tag == RL_TAG_DATA_FILE || d->tag == RL_TAG_DELETE_FILE;
        if (begin_last == file_table)
            fprintf(stderr, "    %s: begin_snapshot last in key = %d\n", d->name, begin_last);
        CHECK(begin_last != file_table);
        if (file_table)
            CHECK(!rl_desc_col_in_key(d, d->begin_col));
    }
}

/* Property: for every table with a 0x80 02 index, the entry's value (the
 * other key fields as varints) plus the id rebuild exactly the row key, and
 * stays small; a truncated or padded value is refused, never misread. */
static void test_prop_pk_index_value(void)
{
    uint64_t rng = 0x5eed0002;
    size_t tables = 0;
    for (size_t ti = 0; ti < rl_ntables; ti++) {
        const rl_table_desc *d = &rl_tables[ti];
        if (d->pk_check != RL_PK_INDEX)
            continue;
        tables++;
        for (int iter = 0; iter < 2000; iter++) {
            krow r;
            rand_row(&rng, d, &r, iter % 2 == 0);
            rl_buf key, val, rebuilt;
            rl_buf_init(&key, 0);
            rl_buf_init(&val, 0);
            rl_buf_init(&rebuilt, 0);
            CHECK_EQ_INT(rl_key_encode_row(&key, d, r.row, r.seq, NULL), RL_KEY_OK);
            CHECK_EQ_INT(rl_key_pk_index_value(&val, d, r.row), RL_KEY_OK);
            CHECK(val.len <= 10 * (size_t)(d->nkey - 1));
            uint64_t id = (uint64_t)r.row[d->pk_col].v.i;
            CHECK_EQ_INT(rl_key_from_pk_index(&rebuilt, d, id, val.data, val.len), RL_KEY_OK);
            CHECK(rebuilt.len == key.len && memcmp(rebuilt.data, key.data, key.len) == 0);
            rl_buf_reset(&rebuilt);
            if (val.len > 0)
                CHECK_EQ_INT(rl_key_from_pk_index(&rebuilt, d, id, val.data, val.len - 1),
                             RL_KEY_ERR_CORRUPT);
            rl_buf_put_u8(&val, 0);
            rl_buf_reset(&rebuilt);
            CHECK_EQ_INT(rl_key_from_pk_index(&rebuilt, d, id, val.data, val.len),
                         RL_KEY_ERR_CORRUPT);
            rl_buf_free(&key);
            rl_buf_free(&val);
            rl_buf_free(&rebuilt);
        }
    }
    CHECK_EQ_INT(tables, 2); /* data files and delete files */
    /* the reference shape: table 5's data file 9 is indexed by one byte */
    const rl_table_desc *df = rl_desc_by_tag(RL_TAG_DATA_FILE);
    rl_datum row[RL_MAX_COLUMNS];
    memset(row, 0, sizeof row);
    row[0] = dint(9);
    row[1] = dint(5);
    rl_buf v;
    rl_buf_init(&v, 0);
    CHECK_EQ_INT(rl_key_pk_index_value(&v, df, row), RL_KEY_OK);
    CHECK(key_is(v.data, v.len, "0A")); /* zigzag 5 */
    rl_buf_free(&v);
}

/* PRIMARY KEYs are exactly PostgreSQL's five (schema.md §3); the check is
 * by the key when the PK column leads it, else by the 0x80 02 index. */
static void test_desc_primary_keys(void)
{
    static const struct { uint8_t tag; const char *col; } pks[] = {
        {RL_TAG_SNAPSHOT, "snapshot_id"}, {RL_TAG_SNAPSHOT_CHANGES, "snapshot_id"},
        {RL_TAG_SCHEMA, "schema_id"}, {RL_TAG_DATA_FILE, "data_file_id"},
        {RL_TAG_DELETE_FILE, "delete_file_id"}};
    char name[128];
    for (size_t i = 0; i < rl_ntables; i++) {
        const rl_table_desc *d = &rl_tables[i];
        const char *want = NULL;
        for (size_t p = 0; p < sizeof pks / sizeof pks[0]; p++)
            if (pks[p].tag == d->tag)
                want = pks[p].col;
        if (!want) {
            CHECK_EQ_INT(d->pk_col, -1);
            CHECK_EQ_INT(d->pk_check, RL_PK_NONE);
            snprintf(name, sizeof name, "%s_rocklake_key", d->name);
            CHECK_EQ_STR(rl_desc_constraint_name(d, name + 64, 64), name);
            continue;
        }
        CHECK_EQ_INT(d->pk_col, rl_desc_column_index(d, want, RL_FMT_1_0));
        CHECK_EQ_INT(d->pk_check, d->key[0] == d->pk_col ? RL_PK_KEY : RL_PK_INDEX);
        snprintf(name, sizeof name, "%s_pkey", d->name);
        CHECK_EQ_STR(rl_desc_constraint_name(d, name + 64, 64), name);
    }
    CHECK_EQ_INT(rl_desc_by_tag(RL_TAG_DATA_FILE)->pk_check, RL_PK_INDEX);
    CHECK_EQ_INT(rl_desc_by_tag(RL_TAG_SNAPSHOT)->pk_check, RL_PK_KEY);
}

static const char *type_code(rl_type t)
{
    switch (t) {
    case RL_T_INT8: return "int8";
    case RL_T_VARCHAR: return "varchar";
    case RL_T_BOOL: return "bool";
    case RL_T_UUID: return "uuid";
    case RL_T_TIMESTAMPTZ: return "timestamptz";
    default: return "?";
    }
}

/* Columns in DuckLake's order with PG types, transcribed from
 * reference/schema.md §3 (1.0) and format-1.1.md (1.1 additions). */
static const struct {
    const char *table;
    const char *cols_1_0; /* NULL: table absent in 1.0 */
    const char *add_1_1;  /* columns appended in 1.1 */
} schema_md[] = {
    {"ducklake_metadata", "key:varchar value:varchar scope:varchar scope_id:int8", ""},
    {"ducklake_snapshot",
     "snapshot_id:int8 snapshot_time:timestamptz schema_version:int8 next_catalog_id:int8 "
     "next_file_id:int8", ""},
    {"ducklake_snapshot_changes",
     "snapshot_id:int8 changes_made:varchar author:varchar commit_message:varchar "
     "commit_extra_info:varchar", ""},
    {"ducklake_schema",
     "schema_id:int8 schema_uuid:uuid begin_snapshot:int8 end_snapshot:int8 schema_name:varchar "
     "path:varchar path_is_relative:bool", ""},
    {"ducklake_table",
     "table_id:int8 table_uuid:uuid begin_snapshot:int8 end_snapshot:int8 schema_id:int8 "
     "table_name:varchar path:varchar path_is_relative:bool", ""},
    {"ducklake_view",
     "view_id:int8 view_uuid:uuid begin_snapshot:int8 end_snapshot:int8 schema_id:int8 "
     "view_name:varchar dialect:varchar sql:varchar column_aliases:varchar", ""},
    {"ducklake_tag",
     "object_id:int8 begin_snapshot:int8 end_snapshot:int8 key:varchar value:varchar", ""},
    {"ducklake_column_tag",
     "table_id:int8 column_id:int8 begin_snapshot:int8 end_snapshot:int8 key:varchar "
     "value:varchar", ""},
    {"ducklake_data_file",
     "data_file_id:int8 table_id:int8 begin_snapshot:int8 end_snapshot:int8 file_order:int8 "
     "path:varchar path_is_relative:bool file_format:varchar record_count:int8 "
     "file_size_bytes:int8 footer_size:int8 row_id_start:int8 partition_id:int8 "
     "encryption_key:varchar mapping_id:int8 partial_max:int8", "row_group_count:int8"},
    {"ducklake_file_column_stats",
     "data_file_id:int8 table_id:int8 column_id:int8 column_size_bytes:int8 value_count:int8 "
     "null_count:int8 min_value:varchar max_value:varchar contains_nan:bool extra_stats:varchar",
     ""},
    {"ducklake_file_variant_stats",
     "data_file_id:int8 table_id:int8 column_id:int8 variant_path:varchar shredded_type:varchar "
     "column_size_bytes:int8 value_count:int8 null_count:int8 min_value:varchar "
     "max_value:varchar contains_nan:bool extra_stats:varchar", ""},
    {"ducklake_delete_file",
     "delete_file_id:int8 table_id:int8 begin_snapshot:int8 end_snapshot:int8 data_file_id:int8 "
     "path:varchar path_is_relative:bool format:varchar delete_count:int8 file_size_bytes:int8 "
     "footer_size:int8 encryption_key:varchar partial_max:int8", "row_group_count:int8"},
    {"ducklake_column",
     "column_id:int8 begin_snapshot:int8 end_snapshot:int8 table_id:int8 column_order:int8 "
     "column_name:varchar column_type:varchar initial_default:varchar default_value:varchar "
     "nulls_allowed:bool parent_column:int8 default_value_type:varchar "
     "default_value_dialect:varchar", ""},
    {"ducklake_table_stats",
     "table_id:int8 record_count:int8 next_row_id:int8 file_size_bytes:int8", ""},
    {"ducklake_table_column_stats",
     "table_id:int8 column_id:int8 contains_null:bool contains_nan:bool min_value:varchar "
     "max_value:varchar extra_stats:varchar", ""},
    {"ducklake_partition_info",
     "partition_id:int8 table_id:int8 begin_snapshot:int8 end_snapshot:int8", ""},
    {"ducklake_partition_column",
     "partition_id:int8 table_id:int8 partition_key_index:int8 column_id:int8 transform:varchar",
     ""},
    {"ducklake_file_partition_value",
     "data_file_id:int8 table_id:int8 partition_key_index:int8 partition_value:varchar", ""},
    {"ducklake_files_scheduled_for_deletion",
     "data_file_id:int8 path:varchar path_is_relative:bool schedule_start:timestamptz", ""},
    {"ducklake_inlined_data_tables", "table_id:int8 table_name:varchar schema_version:int8", ""},
    {"ducklake_column_mapping", "mapping_id:int8 table_id:int8 type:varchar", ""},
    {"ducklake_name_mapping",
     "mapping_id:int8 column_id:int8 source_name:varchar target_field_id:int8 "
     "parent_column:int8 is_partition:bool", ""},
    {"ducklake_schema_versions", "begin_snapshot:int8 schema_version:int8 table_id:int8", ""},
    {"ducklake_macro",
     "schema_id:int8 macro_id:int8 macro_name:varchar begin_snapshot:int8 end_snapshot:int8", ""},
    {"ducklake_macro_impl", "macro_id:int8 impl_id:int8 dialect:varchar sql:varchar type:varchar",
     ""},
    {"ducklake_macro_parameters",
     "macro_id:int8 impl_id:int8 column_id:int8 parameter_name:varchar parameter_type:varchar "
     "default_value:varchar default_value_type:varchar", ""},
    {"ducklake_sort_info", "sort_id:int8 table_id:int8 begin_snapshot:int8 end_snapshot:int8", ""},
    {"ducklake_sort_expression",
     "sort_id:int8 table_id:int8 sort_key_index:int8 expression:varchar dialect:varchar "
     "sort_direction:varchar null_order:varchar", ""},
    {"ducklake_view_column_tag", NULL,
     "view_id:int8 column_name:varchar begin_snapshot:int8 end_snapshot:int8 key:varchar "
     "value:varchar"},
};

/* "name:type name:type ..." of d's columns in format fmt. */
static void shape_of(const rl_table_desc *d, rl_format fmt, char *out, size_t n)
{
    size_t at = 0;
    out[0] = '\0';
    size_t nc = rl_desc_ncols(d, fmt);
    for (size_t c = 0; c < nc && at < n; c++)
        at += (size_t)snprintf(out + at, n - at, "%s%s:%s", c ? " " : "", d->cols[c].name,
                               type_code(d->cols[c].type));
}

static void test_desc_columns_match_schema(void)
{
    size_t n = sizeof schema_md / sizeof schema_md[0];
    CHECK_EQ_INT(n, 29);
    size_t in10 = 0, in11 = 0;
    for (size_t i = 0; i < n; i++) {
        const rl_table_desc *d = rl_desc_by_name(schema_md[i].table, RL_FMT_1_1);
        CHECK(d != NULL);
        if (!d)
            continue;
        char got[1024], want[1024];
        shape_of(d, RL_FMT_1_0, got, sizeof got);
        CHECK_EQ_STR(got, schema_md[i].cols_1_0 ? schema_md[i].cols_1_0 : "");
        CHECK(rl_desc_in_format(d, RL_FMT_1_0) == (schema_md[i].cols_1_0 != NULL));
        CHECK((rl_desc_by_name(d->name, RL_FMT_1_0) != NULL) == (schema_md[i].cols_1_0 != NULL));
        snprintf(want, sizeof want, "%s%s%s", schema_md[i].cols_1_0 ? schema_md[i].cols_1_0 : "",
                 schema_md[i].cols_1_0 && schema_md[i].add_1_1[0] ? " " : "", schema_md[i].add_1_1);
        shape_of(d, RL_FMT_1_1, got, sizeof got);
        CHECK_EQ_STR(got, want);
        CHECK_EQ_INT(d->ncols_max, rl_desc_ncols(d, RL_FMT_1_1));
        in10 += rl_desc_in_format(d, RL_FMT_1_0);
        in11 += rl_desc_in_format(d, RL_FMT_1_1);
        /* The only NOT NULLs are ducklake_metadata's key and value. */
        for (int c = 0; c < d->ncols_max; c++)
            CHECK_EQ_INT(d->cols[c].not_null, d->tag == RL_TAG_METADATA && c < 2);
    }
    CHECK_EQ_INT(in10, 28);
    CHECK_EQ_INT(in11, 29);

    /* 1.0 vs 1.1 shapes that users meet: positional INSERTs of 16/17 and
     * 13/14 values, and the 29th table. */
    const rl_table_desc *df = rl_desc_by_tag(RL_TAG_DATA_FILE);
    const rl_table_desc *del = rl_desc_by_tag(RL_TAG_DELETE_FILE);
    const rl_table_desc *vct = rl_desc_by_tag(RL_TAG_VIEW_COLUMN_TAG);
    CHECK_EQ_INT(rl_desc_ncols(df, RL_FMT_1_0), 16);
    CHECK_EQ_INT(rl_desc_ncols(df, RL_FMT_1_1), 17);
    CHECK_EQ_INT(rl_desc_ncols(del, RL_FMT_1_0), 13);
    CHECK_EQ_INT(rl_desc_ncols(del, RL_FMT_1_1), 14);
    CHECK_EQ_INT(rl_desc_ncols(vct, RL_FMT_1_0), 0);
    CHECK_EQ_INT(rl_desc_column_index(df, "row_group_count", RL_FMT_1_0), -1);
    CHECK_EQ_INT(rl_desc_column_index(df, "row_group_count", RL_FMT_1_1), 16);
    CHECK(rl_desc_by_name("ducklake_view_column_tag", RL_FMT_1_0) == NULL);

    CHECK_EQ_INT(rl_format_parse("1.0"), RL_FMT_1_0);
    CHECK_EQ_INT(rl_format_parse("1.1"), RL_FMT_1_1);
    CHECK_EQ_INT(rl_format_parse("1.1-dev1"), RL_FMT_1_1);
    CHECK_EQ_INT(rl_format_parse("0.4"), 0);
    CHECK_EQ_INT(rl_format_parse(NULL), 0);
    CHECK_EQ_STR(rl_format_name(RL_FMT_1_0), "1.0");
    CHECK_EQ_STR(rl_format_name(RL_FMT_1_1), "1.1");
}

/* The value holds exactly the non-key columns, in column order. */
static void test_desc_value_columns(void)
{
    const rl_table_desc *ds[64];
    size_t nd = all_descs(ds);
    static const rl_format fmts[] = {RL_FMT_1_0, RL_FMT_1_1};
    for (size_t t = 0; t < nd; t++) {
        const rl_table_desc *d = ds[t];
        for (size_t f = 0; f < 2; f++) {
            rl_type types[RL_MAX_COLUMNS];
            int cols[RL_MAX_COLUMNS];
            size_t nv = rl_desc_value_columns(d, fmts[f], types, cols);
            size_t nc = rl_desc_ncols(d, fmts[f]);
            size_t nkeycols = 0;
            for (size_t c = 0; c < nc; c++)
                nkeycols += rl_desc_col_in_key(d, (int)c);
            CHECK_EQ_INT(nv, nc - nkeycols);
            for (size_t v = 0; v < nv; v++) {
                CHECK(!rl_desc_col_in_key(d, cols[v]));
                CHECK(v == 0 || cols[v] > cols[v - 1]);
                CHECK(types[v] == d->cols[cols[v]].type);
            }
            CHECK_EQ_INT(rl_desc_value_columns(d, fmts[f], NULL, NULL), nv);
        }
    }
    /* ducklake_table: table_id and begin_snapshot live in the key. */
    int cols[RL_MAX_COLUMNS];
    size_t nv = rl_desc_value_columns(rl_desc_by_tag(RL_TAG_TABLE), RL_FMT_1_0, NULL, cols);
    CHECK_EQ_INT(nv, 6);
    CHECK(nv == 6 && cols[0] == 1 && cols[1] == 3 && cols[5] == 7);
}

/* The descriptors' parent links (desc.h, what `rocklake check` verifies):
 * each names a column the child has, a parent table with a column of that
 * name, and a parent that sorts before its child. The six links check.h
 * lists are all there. */
static void test_parent_links(void)
{
    int links = 0;
    for (size_t i = 0; i < rl_ntables; i++) {
        const rl_table_desc *d = &rl_tables[i];
        for (int j = 0; j < RL_MAX_PARENTS && d->parents[j].col; j++) {
            const rl_parent_ref *r = &d->parents[j];
            const rl_table_desc *p = rl_desc_by_tag(r->tag);
            CHECK(p != NULL);
            if (!p)
                continue;
            CHECK(rl_desc_column_index(d, r->col, RL_FMT_LATEST) >= 0);
            CHECK(rl_desc_column_index(p, r->col, RL_FMT_LATEST) >= 0);
            CHECK(p->tag < d->tag);
            links++;
        }
    }
    CHECK_EQ_INT(links, 7);
    const rl_table_desc *del = rl_desc_by_tag(RL_TAG_DELETE_FILE);
    CHECK_EQ_STR(del->parents[0].col, "table_id");
    CHECK_EQ_INT(del->parents[1].tag, RL_TAG_DATA_FILE);
}

/* Key builders outside the row layout: the bytes of each (keys.c owns them
 * all; nothing else spells a tag into a key). */
static void test_other_key_builders(void)
{
    rl_buf b;
    rl_buf_init(&b, 0);
    rl_key_dynamic_table(&b, 0x0102);
    static const uint8_t dyn[] = {0x82, 0, 0, 0, 0, 0, 0, 0x01, 0x02};
    CHECK(b.len == sizeof dyn && memcmp(b.data, dyn, sizeof dyn) == 0);
    rl_buf_reset(&b);
    rl_key_schema(&b, "s");
    static const uint8_t sch[] = {0x80, 0x04, 's', 0x00, 0x01};
    CHECK(b.len == sizeof sch && memcmp(b.data, sch, sizeof sch) == 0);
    uint8_t p[RL_KEY_INDEX_PREFIX_LEN];
    CHECK_EQ_INT(rl_key_index_prefix(p, RL_INDEX_DYNAMIC_NAME), 2);
    CHECK(p[0] == 0x80 && p[1] == 0x03);
    uint8_t sys[32];
    size_t n = rl_key_system_to(sys, sizeof sys, RL_SYS_WRITER_EPOCH);
    CHECK_EQ_INT(n, 1 + strlen(RL_SYS_WRITER_EPOCH));
    CHECK(rl_key_is_system(sys, n, RL_SYS_WRITER_EPOCH));
    CHECK(!rl_key_is_system(sys, n, RL_SYS_RETAIN_FROM));
    CHECK_EQ_INT(rl_key_system_to(sys, 4, RL_SYS_WRITER_EPOCH), 0);
    rl_buf_reset(&b);
    rl_key_system(&b, RL_SYS_WRITER_EPOCH);
    CHECK(b.len == n && memcmp(b.data, sys, n) == 0);
    char name[RL_COUNTER_NAME_MAX];
    rl_counter_rowseq_name(rl_desc_by_tag(RL_TAG_AUDIT), name, sizeof name);
    CHECK_EQ_STR(name, RL_COUNTER_ROWSEQ_PREFIX "81");
    rl_table_desc dynd = *rl_desc_by_tag(RL_TAG_AUDIT);
    dynd.tag = RL_TAG_DYNAMIC_ROW;
    dynd.dyn_id = 42;
    rl_counter_rowseq_name(&dynd, name, sizeof name);
    CHECK_EQ_STR(name, RL_COUNTER_ROWSEQ_PREFIX "fd:42");
    rl_buf_free(&b);
}

int main(void)
{
    RUN(test_parent_links);
    RUN(test_other_key_builders);
    RUN(test_golden_table_keys);
    RUN(test_golden_seed_rename);
    RUN(test_golden_internal_keys);
    RUN(test_u64_primitive);
    RUN(test_str_primitive);
    RUN(test_prop_round_trip);
    RUN(test_prop_byte_order);
    RUN(test_prop_prefix_contiguity);
    RUN(test_prefix_end_edges);
    RUN(test_reject_null_and_negative);
    RUN(test_reject_corrupt_keys);
    RUN(test_fuzz_decode_describe);
    RUN(test_describe_pk_index_every_tag);
    RUN(test_prop_pk_index_value);
    RUN(test_schema_index_key);
    RUN(test_sql_index_key);
    RUN(test_comment_key);
    RUN(test_check_key);
    RUN(test_sequence_keys);
    RUN(test_describe);
    RUN(test_desc_tags);
    RUN(test_desc_keys);
    RUN(test_desc_primary_keys);
    RUN(test_desc_columns_match_schema);
    RUN(test_desc_value_columns);
    RUN(test_desc_keeps_duplicates);
    RUN(test_golden_duplicate_keys);
    RUN(test_prop_duplicates);
    return tu_finish();
}
