/*
 * sequence.c — commit sequencing: the rebase planner (sequence.h).
 *
 * Owns: the rules of docs/design/commit-sequencing.md §4-§6 for one losing
 * DuckLake commit: is it a standard claim (§4.1), do its writes only append
 * (§4.2), do DuckLake's conflict rules and RockLake's stricter ones hold for
 * the commits since its base (§4.3, §4.4), and the rebased writes (§5 id
 * remapping, §6 statistics merge).
 *
 * Invariants (asserted where cheap):
 *  - the planner never writes: it reads `base` and `latest` and fills a plan;
 *  - a plan's ids sit directly above the latest state: snapshot L.sid + 1,
 *    data files from L's next_file_id, row ids of T from L's next_row_id(T);
 *  - anything not recognised falls back (an allow-list, never a deny-list),
 *    so a batch shape a future DuckLake sends keeps today's 23505.
 */
#include "catalog/sequence.h"

#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "keys/keys.h"
#include "keys/tags.h"

static const char *const reason_names[RL_SEQ_NREASONS] = {
    [RL_SEQ_OK] = "",
    [RL_SEQ_NOT_STANDARD_CLAIM] = "not_standard_claim",
    [RL_SEQ_NOT_APPEND] = "not_append",
    [RL_SEQ_STATS_INCONSISTENT] = "stats_inconsistent",
    [RL_SEQ_CONFLICT] = "conflict",
    [RL_SEQ_HISTORY_NOT_APPEND] = "history_not_append",
    [RL_SEQ_HISTORY_GAP] = "history_gap",
    [RL_SEQ_FOREIGN_COMMIT] = "foreign_commit",
    [RL_SEQ_LOG_WINDOW] = "log_window",
    [RL_SEQ_TOO_FAR] = "too_far",
    [RL_SEQ_TABLE_CHANGED] = "table_changed",
    [RL_SEQ_STATS_SHAPE] = "stats_shape",
    [RL_SEQ_STATS_MERGE] = "stats_merge",
    [RL_SEQ_ERROR] = "error",
};

const char *rl_seq_reason_name(rl_seq_reason r)
{
    return r >= 0 && r < RL_SEQ_NREASONS ? reason_names[r] : "unknown";
}

/* ------------------------------------------------------------ key rule R4 */

bool rl_seq_append_key(const uint8_t *key, size_t klen)
{
    if (klen == 0)
        return false;
    switch (key[0]) {
    case RL_TAG_SNAPSHOT:
    case RL_TAG_SNAPSHOT_CHANGES:
    case RL_TAG_DATA_FILE:
    case RL_TAG_FILE_COLUMN_STATS:
    case RL_TAG_FILE_PARTITION_VALUE:
    case RL_TAG_FILE_VARIANT_STATS:
    case RL_TAG_TABLE_STATS:
    case RL_TAG_TABLE_COLUMN_STATS:
    case RL_TAG_DYNAMIC_ROW:
        return true;
    case RL_TAG_INDEX: /* the live and PK index entries that follow those rows, and the
                        * entries of UNIQUE indexes (a row key of another table
                        * beside them still makes the commit no append) */
        return (klen >= 3 && (key[1] == RL_INDEX_LIVE || key[1] == RL_INDEX_PK) &&
                key[2] == RL_TAG_DATA_FILE) ||
               (klen > RL_KEY_UNIQUE_PREFIX_LEN && key[1] == RL_INDEX_UNIQUE);
    default:
        return false;
    }
}

/* ------------------------------------------------- statistics comparison */

/* A number as DuckDB prints integers, decimals and plain floats: optional
 * '-', digits, optional '.' digits. Anything else (exponents, inf, nan) is
 * not exactly comparable here. */
typedef struct decimal_text {
    bool neg;
    const uint8_t *ip; /* integer digits without leading zeros */
    size_t il;
    const uint8_t *fp; /* fraction digits without trailing zeros */
    size_t fl;
} decimal_text;

static bool parse_decimal(const uint8_t *s, size_t n, decimal_text *out)
{
    size_t i = 0;
    out->neg = false;
    if (i < n && (s[i] == '-' || s[i] == '+'))
        out->neg = s[i++] == '-';
    size_t istart = i;
    while (i < n && s[i] >= '0' && s[i] <= '9')
        i++;
    size_t iend = i;
    size_t fstart = i, fend = i;
    if (i < n && s[i] == '.') {
        fstart = ++i;
        while (i < n && s[i] >= '0' && s[i] <= '9')
            i++;
        fend = i;
    }
    if (i != n || (iend == istart && fend == fstart))
        return false;
    while (istart < iend && s[istart] == '0')
        istart++;
    while (fend > fstart && s[fend - 1] == '0')
        fend--;
    out->ip = s + istart;
    out->il = iend - istart;
    out->fp = s + fstart;
    out->fl = fend - fstart;
    if (out->il == 0 && out->fl == 0)
        out->neg = false; /* -0 = 0 */
    return true;
}

static int sign_of(int c) { return c < 0 ? -1 : c > 0 ? 1 : 0; }

static int compare_magnitude(const decimal_text *a, const decimal_text *b)
{
    if (a->il != b->il)
        return a->il < b->il ? -1 : 1;
    int c = memcmp(a->ip, b->ip, a->il);
    if (c)
        return sign_of(c);
    size_t m = a->fl < b->fl ? a->fl : b->fl;
    c = memcmp(a->fp, b->fp, m);
    if (c)
        return sign_of(c);
    return a->fl == b->fl ? 0 : a->fl < b->fl ? -1 : 1;
}

static int compare_decimal(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen)
{
    decimal_text x, y;
    if (!parse_decimal(a, alen, &x) || !parse_decimal(b, blen, &y))
        return 2;
    if (x.neg != y.neg)
        return x.neg ? -1 : 1;
    int c = compare_magnitude(&x, &y);
    return x.neg ? -c : c;
}

/* Does text match a pattern of '9' (a digit) and literal characters, then an
 * optional fraction ".d+"? DuckDB prints dates, times and timestamps of years
 * 0001-9999 that way, and for those byte order is time order. */
static bool fixed_datetime(const uint8_t *s, size_t n, const char *pattern)
{
    size_t p = strlen(pattern);
    if (n < p)
        return false;
    for (size_t i = 0; i < p; i++) {
        if (pattern[i] == '9' ? !(s[i] >= '0' && s[i] <= '9') : s[i] != (uint8_t)pattern[i])
            return false;
    }
    if (n == p)
        return true;
    if (s[p] != '.' || n == p + 1)
        return false;
    for (size_t i = p + 1; i < n; i++)
        if (!(s[i] >= '0' && s[i] <= '9'))
            return false;
    return true;
}

static int compare_bytes(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen)
{
    size_t m = alen < blen ? alen : blen;
    int c = m ? memcmp(a, b, m) : 0;
    if (c)
        return sign_of(c);
    return alen == blen ? 0 : alen < blen ? -1 : 1;
}

static bool starts_with(const char *s, const char *prefix)
{
    return strncmp(s, prefix, strlen(prefix)) == 0;
}

int rl_seq_stat_compare(const char *type, const uint8_t *a, size_t alen, const uint8_t *b,
                        size_t blen)
{
    if (starts_with(type, "timestamptz") || starts_with(type, "timetz") ||
        starts_with(type, "interval") || starts_with(type, "timestamp with"))
        return 2; /* text depends on the session's zone and normalisation */
    if (starts_with(type, "int") || starts_with(type, "uint") || starts_with(type, "decimal") ||
        starts_with(type, "float") || starts_with(type, "double"))
        return compare_decimal(a, alen, b, blen);
    if (strcmp(type, "boolean") == 0 || strcmp(type, "bool") == 0) {
        int x = alen == 4 && memcmp(a, "true", 4) == 0   ? 1
                : alen == 5 && memcmp(a, "false", 5) == 0 ? 0
                                                          : -1;
        int y = blen == 4 && memcmp(b, "true", 4) == 0   ? 1
                : blen == 5 && memcmp(b, "false", 5) == 0 ? 0
                                                          : -1;
        return x < 0 || y < 0 ? 2 : sign_of(x - y);
    }
    const char *pattern = NULL;
    if (strcmp(type, "date") == 0)
        pattern = "9999-99-99";
    else if (strcmp(type, "time") == 0)
        pattern = "99:99:99";
    else if (starts_with(type, "timestamp"))
        pattern = "9999-99-99 99:99:99";
    if (pattern) {
        if (!fixed_datetime(a, alen, pattern) || !fixed_datetime(b, blen, pattern))
            return 2;
        return compare_bytes(a, alen, b, blen);
    }
    /* DuckLake compares every other type (varchar, blob, uuid, ...) as bytes */
    return compare_bytes(a, alen, b, blen);
}

/* ------------------------------------------------------------- planning */

typedef struct table_change {
    int64_t table_id;
    bool inserted, inlined;      /* named by inserted_into_table / inlined_insert */
    /* base and client stats */
    bool base_has_stats;
    int64_t nb, base_count, base_size; /* next_row_id, record_count, file_size_bytes at b */
    int stats_write;             /* index into w of the table_stats write, -1 none */
    int64_t nc, new_count, new_size;
    /* latest */
    bool latest_has_stats;
    int64_t nl, latest_count, latest_size;
    int64_t row_shift;           /* Δr */
    /* rows appended, for the id range check */
    int64_t appended_rows, appended_bytes;
} table_change;

typedef struct range {
    int64_t table_id, start, count;
} range;

typedef struct planner {
    rl_txn *base, *latest;
    const rl_seq_write *w;
    size_t n;
    rl_seq_plan *plan;
    rl_error *err;
    int64_t now_us;
    int snap_w, changes_w;
    int64_t c_sid, c_V, c_C, c_F;
    int64_t b_sid, b_V, b_C, b_F;
    int64_t l_sid, l_V, l_C, l_F, l_time;
    table_change tables[64];
    size_t ntables;
    range *ranges;
    size_t nranges, capranges;
} planner;

static int col_of(const rl_table_desc *d, const char *name)
{
    int c = rl_desc_column_index(d, name, RL_FMT_LATEST);
    assert(c >= 0 && "sequence.c names a column the descriptor table lacks");
    return c;
}

static bool is_null(const rl_datum *row, int c) { return c < 0 || row[c].isnull; }
static int64_t int_of(const rl_datum *row, int c) { return row[c].v.i; }

static table_change *table_of(planner *p, int64_t id, bool add)
{
    for (size_t i = 0; i < p->ntables; i++)
        if (p->tables[i].table_id == id)
            return &p->tables[i];
    if (!add || p->ntables == sizeof p->tables / sizeof p->tables[0])
        return NULL;
    table_change *t = &p->tables[p->ntables++];
    memset(t, 0, sizeof *t);
    t->table_id = id;
    t->stats_write = -1;
    return t;
}

/* Parse "inserted_into_table:3,inlined_insert:4". Calls `each` per entry
 * with the kind and the id (or -1 when the value is no plain id). false when
 * the text is empty or malformed. */
typedef bool (*change_fn)(planner *p, const char *kind, size_t klen, int64_t id, void *ctx);

static bool each_change(planner *p, const uint8_t *s, size_t n, change_fn each, void *ctx)
{
    if (n == 0)
        return false;
    size_t i = 0;
    while (i < n) {
        size_t start = i;
        bool quoted = false;
        while (i < n && (quoted || s[i] != ',')) {
            if (s[i] == '"')
                quoted = !quoted;
            i++;
        }
        const uint8_t *e = s + start;
        size_t elen = i - start;
        const uint8_t *colon = memchr(e, ':', elen);
        if (!colon)
            return false;
        size_t klen = (size_t)(colon - e);
        int64_t id = -1;
        const uint8_t *v = colon + 1;
        size_t vlen = elen - klen - 1;
        if (vlen > 0 && vlen < 19) {
            id = 0;
            for (size_t j = 0; j < vlen; j++) {
                if (v[j] < '0' || v[j] > '9') {
                    id = -1;
                    break;
                }
                id = id * 10 + (v[j] - '0');
            }
        }
        if (!each(p, (const char *)e, klen, id, ctx))
            return false;
        if (i < n)
            i++; /* the comma */
    }
    return true;
}

static bool kind_is(const char *kind, size_t klen, const char *name)
{
    return strlen(name) == klen && memcmp(kind, name, klen) == 0;
}

/* The transaction's own changes: only appends, which name the tables. */
static bool note_own_change(planner *p, const char *kind, size_t klen, int64_t id, void *ctx)
{
    (void)ctx;
    bool ins = kind_is(kind, klen, "inserted_into_table");
    bool inl = kind_is(kind, klen, "inlined_insert");
    if ((!ins && !inl) || id < 0)
        return false;
    table_change *t = table_of(p, id, true);
    if (!t)
        return false;
    t->inserted |= ins;
    t->inlined |= inl;
    return true;
}

/* A change of a commit since the base: DuckLake's rules make dropped_table,
 * altered_table, deleted_from_table and inlined_delete on one of our tables
 * a conflict; RockLake also falls back on anything but another append. */
static bool note_history_change(planner *p, const char *kind, size_t klen, int64_t id, void *ctx)
{
    rl_seq_reason *reason = ctx;
    if ((kind_is(kind, klen, "inserted_into_table") || kind_is(kind, klen, "inlined_insert")) &&
        id >= 0)
        return true;
    bool conflicting = kind_is(kind, klen, "dropped_table") ||
                       kind_is(kind, klen, "altered_table") ||
                       kind_is(kind, klen, "deleted_from_table") ||
                       kind_is(kind, klen, "inlined_delete");
    *reason = conflicting && id >= 0 && table_of(p, id, false) ? RL_SEQ_CONFLICT
                                                                : RL_SEQ_HISTORY_NOT_APPEND;
    return false;
}

/* The ducklake_snapshot row `sid` in reader r: 1 found (fields filled). */
static int get_snapshot(planner *p, rl_txn *r, int64_t sid, int64_t *V, int64_t *C, int64_t *F,
                        int64_t *time)
{
    const rl_table_desc *d = rl_desc_by_tag(RL_TAG_SNAPSHOT);
    rl_datum k = {.v.i = sid};
    const rl_row *row;
    int rc = rl_txn_get(r, d, &k, &row, p->err);
    if (rc <= 0)
        return rc;
    *V = int_of(row->vals, col_of(d, "schema_version"));
    *C = int_of(row->vals, col_of(d, "next_catalog_id"));
    *F = int_of(row->vals, col_of(d, "next_file_id"));
    if (time)
        *time = int_of(row->vals, col_of(d, "snapshot_time"));
    return 1;
}

/* The largest snapshot id >= from in reader r (-1 when none). */
static int last_snapshot_from(planner *p, rl_txn *r, int64_t from, int64_t *out)
{
    const rl_table_desc *d = rl_desc_by_tag(RL_TAG_SNAPSHOT);
    rl_scan *s = rl_txn_scan(r, d, NULL, 0, p->err);
    if (!s)
        return -1;
    rl_datum k = {.v.i = from};
    int rc = rl_scan_seek(s, &k, 1, p->err);
    const rl_row *row;
    *out = -1;
    size_t seen = 0;
    while (rc >= 0 && (rc = rl_scan_next(s, &row, p->err)) == 1) {
        *out = row->vals[0].v.i;
        if (++seen > RL_SEQ_MAX_DISTANCE + 1)
            break; /* too far anyway: the caller says so */
    }
    rl_scan_free(s);
    if (rc < 0)
        return -1;
    if (seen > RL_SEQ_MAX_DISTANCE + 1)
        *out = INT64_MAX;
    return 0;
}

/* Rows of `d` (keyed by table_id first) for table T in reader r: count,
 * and the first one's values copied into out (when out != NULL). */
static int rows_of_table(planner *p, rl_txn *r, const rl_table_desc *d, int64_t table_id,
                         size_t *count)
{
    rl_datum k = {.v.i = table_id};
    rl_scan *s = rl_txn_scan(r, d, &k, 1, p->err);
    if (!s)
        return -1;
    const rl_row *row;
    int rc;
    *count = 0;
    while ((rc = rl_scan_next(s, &row, p->err)) == 1)
        (*count)++;
    rl_scan_free(s);
    return rc < 0 ? -1 : 0;
}

/* A write of an append: an INSERT into a table an append writes (the tag
 * list of rl_seq_append_key), or, for the two stats tables, an UPDATE of a
 * row the base had. */
static bool writes_allowed_table(const rl_seq_write *w)
{
    if (!rl_seq_append_key(&w->d->tag, 1))
        return false;
    bool stats = w->d->tag == RL_TAG_TABLE_STATS || w->d->tag == RL_TAG_TABLE_COLUMN_STATS;
    return w->op == RL_SEQ_INSERT || (stats && w->op == RL_SEQ_UPDATE && !w->old_own);
}

/* ducklake_inlined_data_<table>_<version>: the table id, or -1. */
static int64_t inlined_table_id(const rl_table_desc *d)
{
    const char *prefix = "ducklake_inlined_data_";
    if (!starts_with(d->name, prefix))
        return -1;
    const char *s = d->name + strlen(prefix);
    char *end;
    long long id = strtoll(s, &end, 10);
    if (end == s || *end != '_' || id < 0)
        return -1;
    return id;
}

static bool inlined_row_shape(const rl_table_desc *d)
{
    return d->ncols_max >= 3 && strcmp(d->cols[0].name, "row_id") == 0 &&
           strcmp(d->cols[1].name, "begin_snapshot") == 0 &&
           strcmp(d->cols[2].name, "end_snapshot") == 0;
}

static int add_range(planner *p, int64_t table_id, int64_t start, int64_t count)
{
    range *grown = p->ranges;
    if (p->nranges == p->capranges) {
        size_t cap = p->capranges ? p->capranges * 2 : 64;
        grown = realloc(p->ranges, cap * sizeof *grown);
        if (!grown)
            return rl_error_set(p->err, RL_SQLSTATE_INTERNAL, "out of memory");
        p->ranges = grown;
        p->capranges = cap;
    }
    p->ranges[p->nranges++] = (range){table_id, start, count};
    return 0;
}

static int range_cmp(const void *a, const void *b)
{
    const range *x = a, *y = b;
    if (x->table_id != y->table_id)
        return x->table_id < y->table_id ? -1 : 1;
    return x->start < y->start ? -1 : x->start > y->start;
}

/* §4.1 and the shape of §4.2: classify every write. */
static rl_seq_reason classify(planner *p)
{
    p->snap_w = p->changes_w = -1;
    for (size_t i = 0; i < p->n; i++) {
        const rl_seq_write *w = &p->w[i];
        if (!writes_allowed_table(w))
            return RL_SEQ_NOT_APPEND;
        if (w->d->tag == RL_TAG_SNAPSHOT) {
            if (p->snap_w >= 0)
                return RL_SEQ_NOT_APPEND;
            p->snap_w = (int)i;
        } else if (w->d->tag == RL_TAG_SNAPSHOT_CHANGES) {
            if (p->changes_w >= 0)
                return RL_SEQ_NOT_APPEND;
            p->changes_w = (int)i;
        }
    }
    if (p->snap_w < 0 || p->changes_w < 0)
        return RL_SEQ_NOT_APPEND;
    const rl_table_desc *sd = rl_desc_by_tag(RL_TAG_SNAPSHOT);
    const rl_datum *s = p->w[p->snap_w].row;
    for (size_t c = 0; c < 5; c++)
        if (s[c].isnull)
            return RL_SEQ_NOT_STANDARD_CLAIM;
    p->c_sid = int_of(s, col_of(sd, "snapshot_id"));
    p->c_V = int_of(s, col_of(sd, "schema_version"));
    p->c_C = int_of(s, col_of(sd, "next_catalog_id"));
    p->c_F = int_of(s, col_of(sd, "next_file_id"));
    const rl_table_desc *cd = rl_desc_by_tag(RL_TAG_SNAPSHOT_CHANGES);
    const rl_datum *ch = p->w[p->changes_w].row;
    int cm = col_of(cd, "changes_made");
    if (int_of(ch, col_of(cd, "snapshot_id")) != p->c_sid || is_null(ch, cm))
        return RL_SEQ_NOT_APPEND;
    if (!each_change(p, ch[cm].v.s.p, ch[cm].v.s.len, note_own_change, NULL))
        return RL_SEQ_NOT_APPEND;
    return RL_SEQ_OK;
}

/* §4.1 against the base: the claim is base + 1 with nothing else changed. */
static int check_claim(planner *p, rl_seq_reason *reason)
{
    p->b_sid = p->c_sid - 1;
    int rc = get_snapshot(p, p->base, p->b_sid, &p->b_V, &p->b_C, &p->b_F, NULL);
    if (rc < 0)
        return -1;
    if (rc == 0) {
        *reason = RL_SEQ_NOT_STANDARD_CLAIM;
        return 0;
    }
    int64_t after;
    if (last_snapshot_from(p, p->base, p->c_sid, &after) < 0)
        return -1;
    if (after >= 0 || p->c_V != p->b_V || p->c_C != p->b_C || p->c_F <= p->b_F)
        *reason = RL_SEQ_NOT_STANDARD_CLAIM;
    return 0;
}

/* §4.3 R3, R5 and the history's changes, against the latest state. */
static int check_history(planner *p, rl_seq_reason *reason)
{
    if (last_snapshot_from(p, p->latest, p->c_sid, &p->l_sid) < 0)
        return -1;
    if (p->l_sid < p->c_sid) { /* nobody took our id: not a race after all */
        *reason = RL_SEQ_NOT_STANDARD_CLAIM;
        return 0;
    }
    if (p->l_sid - p->b_sid > RL_SEQ_MAX_DISTANCE) {
        *reason = RL_SEQ_TOO_FAR;
        return 0;
    }
    const rl_table_desc *cd = rl_desc_by_tag(RL_TAG_SNAPSHOT_CHANGES);
    int cm = col_of(cd, "changes_made");
    for (int64_t sid = p->b_sid + 1; sid <= p->l_sid; sid++) {
        int64_t V, C, F, time;
        int rc = get_snapshot(p, p->latest, sid, &V, &C, &F, &time);
        if (rc < 0)
            return -1;
        if (rc == 0) {
            *reason = RL_SEQ_HISTORY_GAP;
            return 0;
        }
        if (sid == p->l_sid) {
            p->l_V = V, p->l_C = C, p->l_F = F, p->l_time = time;
        }
        rl_datum k = {.v.i = sid};
        const rl_row *row;
        rc = rl_txn_get(p->latest, cd, &k, &row, p->err);
        if (rc < 0)
            return -1;
        if (rc == 0 || row->vals[cm].isnull) {
            *reason = RL_SEQ_HISTORY_GAP;
            return 0;
        }
        rl_seq_reason r = RL_SEQ_HISTORY_NOT_APPEND;
        if (!each_change(p, row->vals[cm].v.s.p, row->vals[cm].v.s.len, note_history_change,
                         &r)) {
            *reason = r;
            return 0;
        }
    }
    /* appends change no schema and allocate no catalog id */
    if (p->l_V != p->b_V || p->l_C != p->b_C || p->l_F < p->b_F)
        *reason = RL_SEQ_HISTORY_NOT_APPEND;
    return 0;
}

static int stats_row(planner *p, rl_txn *r, int64_t table_id, bool *has, int64_t *count,
                     int64_t *next, int64_t *size)
{
    const rl_table_desc *d = rl_desc_by_tag(RL_TAG_TABLE_STATS);
    size_t nrows;
    if (rows_of_table(p, r, d, table_id, &nrows) < 0)
        return -1;
    if (nrows > 1)
        return 1; /* duplicates: not one row to merge into */
    rl_datum k = {.v.i = table_id};
    const rl_row *row;
    int rc = rl_txn_get(r, d, &k, &row, p->err);
    if (rc < 0)
        return -1;
    *has = rc == 1;
    *count = *next = *size = 0;
    if (rc == 1) {
        int rcc = col_of(d, "record_count"), nri = col_of(d, "next_row_id"),
            fsb = col_of(d, "file_size_bytes");
        if (is_null(row->vals, rcc) || is_null(row->vals, nri) || is_null(row->vals, fsb))
            return 1;
        *count = int_of(row->vals, rcc);
        *next = int_of(row->vals, nri);
        *size = int_of(row->vals, fsb);
    }
    return 0;
}

/* §4.2 rows and ids, and the stats of each table at b and at L. */
static int check_appends(planner *p, rl_seq_reason *reason)
{
    const rl_table_desc *df = rl_desc_by_tag(RL_TAG_DATA_FILE);
    const rl_table_desc *ts = rl_desc_by_tag(RL_TAG_TABLE_STATS);
    int df_id = col_of(df, "data_file_id"), df_table = col_of(df, "table_id"),
        df_begin = col_of(df, "begin_snapshot"), df_end = col_of(df, "end_snapshot"),
        df_order = col_of(df, "file_order"), df_count = col_of(df, "record_count"),
        df_size = col_of(df, "file_size_bytes"), df_rid = col_of(df, "row_id_start"),
        df_map = col_of(df, "mapping_id"), df_pmax = col_of(df, "partial_max");
    for (size_t i = 0; i < p->ntables; i++) {
        table_change *t = &p->tables[i];
        int rc = stats_row(p, p->base, t->table_id, &t->base_has_stats, &t->base_count, &t->nb,
                           &t->base_size);
        if (rc == 0)
            rc = stats_row(p, p->latest, t->table_id, &t->latest_has_stats, &t->latest_count,
                           &t->nl, &t->latest_size);
        if (rc < 0)
            return -1;
        if (rc > 0 || (t->base_has_stats && !t->latest_has_stats)) {
            *reason = RL_SEQ_STATS_SHAPE;
            return 0;
        }
    }
    for (size_t i = 0; i < p->n; i++) {
        const rl_seq_write *w = &p->w[i];
        const rl_datum *r = w->row;
        switch (w->d->tag) {
        case RL_TAG_DATA_FILE: {
            table_change *t = table_of(p, int_of(r, df_table), false);
            int64_t id = int_of(r, df_id);
            if (!t || !t->inserted || id < p->b_F || id >= p->c_F ||
                is_null(r, df_begin) || int_of(r, df_begin) != p->c_sid || !is_null(r, df_end) ||
                !is_null(r, df_order) || !is_null(r, df_map) || !is_null(r, df_pmax) ||
                is_null(r, df_rid) || is_null(r, df_count) || is_null(r, df_size)) {
                *reason = RL_SEQ_NOT_APPEND;
                return 0;
            }
            if (add_range(p, t->table_id, int_of(r, df_rid), int_of(r, df_count)) < 0)
                return -1;
            t->appended_rows += int_of(r, df_count);
            t->appended_bytes += int_of(r, df_size);
            break;
        }
        case RL_TAG_FILE_COLUMN_STATS:
        case RL_TAG_FILE_PARTITION_VALUE:
        case RL_TAG_FILE_VARIANT_STATS: {
            int64_t id = int_of(r, col_of(w->d, "data_file_id"));
            table_change *t = table_of(p, int_of(r, col_of(w->d, "table_id")), false);
            if (!t || !t->inserted || id < p->b_F || id >= p->c_F) {
                *reason = RL_SEQ_NOT_APPEND;
                return 0;
            }
            break;
        }
        case RL_TAG_DYNAMIC_ROW: {
            table_change *t = table_of(p, inlined_table_id(w->d), false);
            if (!t || !t->inlined || !inlined_row_shape(w->d) || r[0].isnull ||
                r[1].isnull || r[1].v.i != p->c_sid || !r[2].isnull) {
                *reason = RL_SEQ_NOT_APPEND;
                return 0;
            }
            if (add_range(p, t->table_id, r[0].v.i, 1) < 0)
                return -1;
            t->appended_rows++;
            break;
        }
        case RL_TAG_TABLE_STATS: {
            table_change *t = table_of(p, int_of(r, col_of(ts, "table_id")), false);
            int rcc = col_of(ts, "record_count"), nri = col_of(ts, "next_row_id"),
                fsb = col_of(ts, "file_size_bytes");
            bool update = w->op == RL_SEQ_UPDATE;
            if (!t || t->stats_write >= 0 || update != t->base_has_stats || is_null(r, rcc) ||
                is_null(r, nri) || is_null(r, fsb)) {
                *reason = RL_SEQ_NOT_APPEND;
                return 0;
            }
            t->stats_write = (int)i;
            t->nc = int_of(r, nri);
            t->new_count = int_of(r, rcc);
            t->new_size = int_of(r, fsb);
            break;
        }
        default:
            break;
        }
    }
    /* row ids: every table's new rows are exactly [nb, nc) */
    qsort(p->ranges, p->nranges, sizeof *p->ranges, range_cmp);
    for (size_t i = 0; i < p->ntables; i++) {
        table_change *t = &p->tables[i];
        if (t->stats_write < 0 || t->nc - t->nb != t->appended_rows ||
            t->new_count - t->base_count != t->appended_rows ||
            t->new_size - t->base_size != t->appended_bytes) {
            *reason = RL_SEQ_STATS_INCONSISTENT;
            return 0;
        }
        int64_t next = t->nb;
        for (size_t j = 0; j < p->nranges; j++) {
            if (p->ranges[j].table_id != t->table_id || p->ranges[j].count == 0)
                continue;
            if (p->ranges[j].start != next) {
                *reason = RL_SEQ_STATS_INCONSISTENT;
                return 0;
            }
            next += p->ranges[j].count;
        }
        if (next != t->nc) {
            *reason = RL_SEQ_STATS_INCONSISTENT;
            return 0;
        }
        t->row_shift = t->nl - t->nb;
    }
    return 0;
}

/* §4.4: the inlined rows go to the table DuckLake would pick at L (the one
 * with the largest schema_version for T), and it is the same one as at b. */
static int current_inlined_table(planner *p, rl_txn *r, int64_t table_id, char *out, size_t n)
{
    const rl_table_desc *d = rl_desc_by_tag(RL_TAG_INLINED_DATA_TABLES);
    int name = col_of(d, "table_name"), ver = col_of(d, "schema_version");
    rl_datum k = {.v.i = table_id};
    rl_scan *s = rl_txn_scan(r, d, &k, 1, p->err);
    if (!s)
        return -1;
    const rl_row *row;
    int rc;
    int64_t best = -1;
    out[0] = '\0';
    while ((rc = rl_scan_next(s, &row, p->err)) == 1) {
        if (row->vals[name].isnull || row->vals[ver].isnull || row->vals[ver].v.i < best)
            continue;
        best = row->vals[ver].v.i;
        snprintf(out, n, "%.*s", (int)row->vals[name].v.s.len,
                 (const char *)row->vals[name].v.s.p);
    }
    rl_scan_free(s);
    return rc < 0 ? -1 : 0;
}

static int check_inlined_tables(planner *p, rl_seq_reason *reason)
{
    for (size_t i = 0; i < p->n; i++) {
        const rl_seq_write *w = &p->w[i];
        if (w->d->tag != RL_TAG_DYNAMIC_ROW)
            continue;
        bool seen_before = false;
        for (size_t j = 0; j < i; j++)
            seen_before |= p->w[j].d == w->d;
        if (seen_before)
            continue;
        char at_base[128], at_latest[128];
        int64_t id = inlined_table_id(w->d);
        if (current_inlined_table(p, p->base, id, at_base, sizeof at_base) < 0 ||
            current_inlined_table(p, p->latest, id, at_latest, sizeof at_latest) < 0)
            return -1;
        if (strcmp(at_base, w->d->name) != 0 || strcmp(at_latest, w->d->name) != 0) {
            *reason = RL_SEQ_TABLE_CHANGED;
            return 0;
        }
    }
    return 0;
}

/* ---------------------------------------------------- rebasing the rows */

/* A copy of `from` as the plan's next write, its row in the plan's arena
 * (the caller changes it); NULL with p->err when out of memory. */
static rl_seq_write *plan_add(planner *p, const rl_seq_write *from)
{
    size_t cap = rl_seq_row_cap(from->d, from->ncols);
    rl_datum *row = rl_arena_alloc(&p->plan->arena, cap * sizeof *row);
    if (!row) {
        rl_error_set(p->err, RL_SQLSTATE_INTERNAL, "out of memory");
        return NULL;
    }
    memcpy(row, from->row, cap * sizeof *row);
    rl_seq_write *w = &p->plan->w[p->plan->n++];
    *w = *from;
    w->row = row;
    w->old = NULL;
    return w;
}

/* Make a datum's string bytes the plan's own. */
static int own_string(planner *p, rl_datum *v)
{
    if (v->isnull || !v->v.s.p)
        return 0;
    uint8_t *copy = rl_arena_dup(&p->plan->arena, v->v.s.p, v->v.s.len ? v->v.s.len : 1);
    if (!copy)
        return rl_error_set(p->err, RL_SQLSTATE_INTERNAL, "out of memory");
    v->v.s.p = copy;
    return 0;
}

static int own_row(planner *p, const rl_table_desc *d, rl_datum *row, size_t ncols)
{
    for (size_t c = 0; c < ncols; c++)
        if (rl_type_is_bytes(d->cols[c].type) && own_string(p, &row[c]) < 0)
            return -1;
    return 0;
}

static bool same_datum(const rl_datum *a, const rl_datum *b, rl_type t)
{
    if (a->isnull || b->isnull)
        return a->isnull == b->isnull;
    if (rl_type_is_bytes(t))
        return a->v.s.len == b->v.s.len &&
               (a->v.s.len == 0 || memcmp(a->v.s.p, b->v.s.p, a->v.s.len) == 0);
    if (t == RL_T_BOOL)
        return a->v.b == b->v.b;
    return a->v.i == b->v.i;
}

/* One field of a table_column_stats row: §6 cases 1-5. `kind` 0 min, 1 max,
 * 2 a boolean OR (contains_*), 3 no merge (extra_stats). */
static bool merge_field(const char *type, int kind, const rl_datum *b, const rl_datum *c,
                        const rl_datum *l, rl_type t, rl_datum *out)
{
    if (same_datum(c, l, t)) {
        *out = *c;
        return true;
    }
    if (b && !b->isnull && same_datum(c, b, t)) {
        *out = *l;
        return true;
    }
    if (b && !b->isnull && same_datum(l, b, t)) {
        *out = *c;
        return true;
    }
    if (c->isnull || l->isnull || (b && b->isnull))
        return false;
    if (kind == 2) {
        *out = *l;
        out->v.b = l->v.b || c->v.b;
        return true;
    }
    if (kind == 3 || !type)
        return false;
    int cmp = rl_seq_stat_compare(type, c->v.s.p, c->v.s.len, l->v.s.p, l->v.s.len);
    if (cmp == 2)
        return false;
    *out = (kind == 0 ? cmp < 0 : cmp > 0) ? *c : *l; /* a tie keeps L's text */
    return true;
}

/* ducklake_column.column_type of (table, column) live at L, into out. */
static int column_type(planner *p, int64_t table_id, int64_t column_id, char *out, size_t n)
{
    const rl_table_desc *d = rl_desc_by_tag(RL_TAG_COLUMN);
    rl_datum k[2] = {{.v.i = table_id}, {.v.i = column_id}};
    rl_scan *s = rl_txn_scan_live(p->latest, d, k, 2, p->err);
    if (!s)
        return -1;
    const rl_row *row;
    int rc;
    int ty = col_of(d, "column_type");
    out[0] = '\0';
    while ((rc = rl_scan_next(s, &row, p->err)) == 1)
        if (!row->vals[ty].isnull)
            snprintf(out, n, "%.*s", (int)row->vals[ty].v.s.len,
                     (const char *)row->vals[ty].v.s.p);
    rl_scan_free(s);
    return rc < 0 ? -1 : 0;
}

/* The rebased write of one table_column_stats row: an UPDATE of L's row with
 * the merged values, or the client's INSERT when L has none. */
static int rebase_column_stats(planner *p, const rl_seq_write *w, rl_seq_reason *reason)
{
    const rl_table_desc *d = w->d;
    int tid = col_of(d, "table_id"), cid = col_of(d, "column_id");
    table_change *t = table_of(p, int_of(w->row, tid), false);
    if (!t) {
        *reason = RL_SEQ_NOT_APPEND;
        return 0;
    }
    rl_datum k[2] = {w->row[tid], w->row[cid]};
    const rl_row *lrow;
    int rc = rl_txn_get(p->latest, d, k, &lrow, p->err);
    if (rc < 0)
        return -1;
    bool update = w->op == RL_SEQ_UPDATE;
    if (update && rc == 0) { /* b had the row, L does not: not grown by appends */
        *reason = RL_SEQ_STATS_SHAPE;
        return 0;
    }
    rl_seq_write *out = plan_add(p, w);
    if (!out)
        return -1;
    if (rc == 0) /* a first insert that nobody raced */
        return own_row(p, d, out->row, out->ncols);
    char type[128];
    rl_datum latest[RL_MAX_COLUMNS];
    memcpy(latest, lrow->vals, sizeof latest);
    uint8_t *lkey = rl_arena_dup(&p->plan->arena, lrow->key, lrow->klen);
    size_t lklen = lrow->klen;
    if (!lkey)
        return rl_error_set(p->err, RL_SQLSTATE_INTERNAL, "out of memory");
    rl_datum latest_own[RL_MAX_COLUMNS];
    memcpy(latest_own, latest, sizeof latest_own);
    if (own_row(p, d, latest_own, w->ncols) < 0) /* lrow borrows until the next read */
        return -1;
    if (column_type(p, t->table_id, int_of(w->row, cid), type, sizeof type) < 0)
        return -1;
    static const struct { const char *col; int kind; } fields[] = {
        {"min_value", 0}, {"max_value", 1}, {"contains_null", 2}, {"contains_nan", 2},
        {"extra_stats", 3}};
    for (size_t f = 0; f < sizeof fields / sizeof fields[0]; f++) {
        int c = col_of(d, fields[f].col);
        const rl_datum *b = update ? &w->old[c] : NULL;
        if (!merge_field(type[0] ? type : NULL, fields[f].kind, b, &w->row[c], &latest_own[c],
                         d->cols[c].type, &out->row[c])) {
            *reason = RL_SEQ_STATS_MERGE;
            return 0;
        }
    }
    out->op = RL_SEQ_UPDATE;
    out->key = lkey;
    out->klen = lklen;
    return own_row(p, d, out->row, out->ncols);
}

/* The rebased table_stats write: L + (client − b), an UPDATE of L's row. */
static int rebase_table_stats(planner *p, const rl_seq_write *w)
{
    const rl_table_desc *d = w->d;
    table_change *t = table_of(p, int_of(w->row, col_of(d, "table_id")), false);
    assert(t && "check_appends saw this write");
    rl_seq_write *out = plan_add(p, w);
    if (!out)
        return -1;
    out->row[col_of(d, "record_count")].v.i = t->latest_count + (t->new_count - t->base_count);
    out->row[col_of(d, "next_row_id")].v.i = t->nl + (t->nc - t->nb);
    out->row[col_of(d, "file_size_bytes")].v.i = t->latest_size + (t->new_size - t->base_size);
    if (t->latest_has_stats) {
        rl_datum k = {.v.i = t->table_id};
        const rl_row *lrow;
        int rc = rl_txn_get(p->latest, d, &k, &lrow, p->err);
        if (rc <= 0)
            return rc < 0 ? -1 : rl_error_set(p->err, RL_SQLSTATE_INTERNAL,
                                              "table stats of table %" PRId64 " vanished",
                                              t->table_id);
        uint8_t *key = rl_arena_dup(&p->plan->arena, lrow->key, lrow->klen);
        if (!key)
            return rl_error_set(p->err, RL_SQLSTATE_INTERNAL, "out of memory");
        out->op = RL_SEQ_UPDATE;
        out->key = key;
        out->klen = lrow->klen;
    } else {
        out->op = RL_SEQ_INSERT;
        out->key = NULL;
        out->klen = 0;
    }
    return 0;
}

static int build_plan(planner *p, rl_seq_reason *reason)
{
    rl_seq_plan *plan = p->plan;
    plan->w = calloc(p->n ? p->n : 1, sizeof *plan->w);
    if (!plan->w)
        return rl_error_set(p->err, RL_SQLSTATE_INTERNAL, "out of memory");
    int64_t ds = p->l_sid + 1 - p->c_sid;
    int64_t df = p->l_F - p->b_F;
    assert(ds >= 1);
    plan->claimed_sid = (uint64_t)p->c_sid;
    plan->base_sid = (uint64_t)p->b_sid;
    plan->assigned_sid = (uint64_t)(p->l_sid + 1);
    plan->file_shift = df;
    for (size_t i = 0; i < p->n && *reason == RL_SEQ_OK; i++) {
        const rl_seq_write *w = &p->w[i];
        const rl_table_desc *d = w->d;
        rl_seq_write *out;
        switch (d->tag) {
        case RL_TAG_SNAPSHOT: {
            if (!(out = plan_add(p, w)))
                return -1;
            out->row[col_of(d, "snapshot_id")].v.i += ds;
            /* placed now, and never before the commit it is placed on:
             * AT (TIMESTAMP => ...) needs times monotone in id */
            int tcol = col_of(d, "snapshot_time");
            out->row[tcol].isnull = false;
            out->row[tcol].v.i = p->now_us > p->l_time ? p->now_us : p->l_time;
            out->row[col_of(d, "next_file_id")].v.i += df;
            break;
        }
        case RL_TAG_SNAPSHOT_CHANGES:
            if (!(out = plan_add(p, w)))
                return -1;
            out->row[col_of(d, "snapshot_id")].v.i += ds;
            break;
        case RL_TAG_DATA_FILE: {
            if (!(out = plan_add(p, w)))
                return -1;
            table_change *t = table_of(p, int_of(w->row, col_of(d, "table_id")), false);
            out->row[col_of(d, "data_file_id")].v.i += df;
            out->row[col_of(d, "begin_snapshot")].v.i += ds;
            out->row[col_of(d, "row_id_start")].v.i += t->row_shift;
            break;
        }
        case RL_TAG_FILE_COLUMN_STATS:
        case RL_TAG_FILE_PARTITION_VALUE:
        case RL_TAG_FILE_VARIANT_STATS:
            if (!(out = plan_add(p, w)))
                return -1;
            out->row[col_of(d, "data_file_id")].v.i += df;
            break;
        case RL_TAG_DYNAMIC_ROW: {
            if (!(out = plan_add(p, w)))
                return -1;
            table_change *t = table_of(p, inlined_table_id(d), false);
            out->row[0].v.i += t->row_shift;
            out->row[1].v.i += ds;
            break;
        }
        case RL_TAG_TABLE_STATS:
            if (rebase_table_stats(p, w) < 0)
                return -1;
            continue;
        case RL_TAG_TABLE_COLUMN_STATS:
            if (rebase_column_stats(p, w, reason) < 0)
                return -1;
            continue;
        default:
            *reason = RL_SEQ_NOT_APPEND;
            return 0;
        }
        if (own_row(p, d, out->row, out->ncols) < 0)
            return -1;
    }
    /* the audit's record of what moved */
    size_t off = (size_t)snprintf(plan->id_map, sizeof plan->id_map, "file_id:%+" PRId64 ";row_id:",
                                  df);
    for (size_t i = 0; i < p->ntables && off < sizeof plan->id_map; i++)
        off += (size_t)snprintf(plan->id_map + off, sizeof plan->id_map - off,
                                "%s%" PRId64 "=%+" PRId64, i ? "," : "", p->tables[i].table_id,
                                p->tables[i].row_shift);
    return 0;
}

int rl_seq_plan_rebase(rl_txn *base, rl_txn *latest, const rl_seq_write *w, size_t n,
                       int64_t now_us, rl_seq_plan *plan, rl_seq_reason *reason, rl_error *err)
{
    memset(plan, 0, sizeof *plan);
    planner p = {.base = base, .latest = latest, .w = w, .n = n, .plan = plan, .err = err,
                 .now_us = now_us};
    *reason = classify(&p);
    int rc = 0;
    if (*reason == RL_SEQ_OK)
        rc = check_claim(&p, reason);
    if (rc == 0 && *reason == RL_SEQ_OK)
        rc = check_history(&p, reason);
    if (rc == 0 && *reason == RL_SEQ_OK)
        rc = check_appends(&p, reason);
    if (rc == 0 && *reason == RL_SEQ_OK)
        rc = check_inlined_tables(&p, reason);
    if (rc == 0 && *reason == RL_SEQ_OK)
        rc = build_plan(&p, reason);
    free(p.ranges);
    if (rc < 0 || *reason != RL_SEQ_OK)
        rl_seq_plan_free(plan);
    if (rc < 0)
        *reason = RL_SEQ_ERROR;
    return rc;
}

void rl_seq_plan_free(rl_seq_plan *plan)
{
    free(plan->w);
    rl_arena_free(&plan->arena);
    memset(plan, 0, sizeof *plan);
}
