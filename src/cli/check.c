/*
 * check.c — storage invariant checker (see check.h for the list).
 *
 * Owns: one pass over the keyspace in key order plus a few end-of-pass
 * checks. The pass relies on the tag order fixed in tags.h: parents
 * (schema 0x04 < table 0x05 < column 0x06 < data file 0x07 < delete file
 * 0x08 < file column stats 0x09) come before their children, every catalog
 * row (0x01-0x1F) comes before the index entries (0x80) that point at it,
 * definitions (0x82) before dynamic rows (0xFD), and counters (0xFE) after
 * every id they must exceed. So each reference is checked when it is met,
 * against sets built from keys already seen.
 *
 * After the pass, the store's integrity digest (kv_verify: a second read
 * of every key, straight from SlateDB) is compared per key group with the
 * keys found.
 *
 * Invariant: a problem is reported and the pass continues; only a store
 * read error stops it.
 */
#include "cli/check.h"

#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "base/utf8.h"
#include "cli/inspect.h"
#include "keys/keys.h"
#include "catalog/lease.h"
#include "keys/tags.h"

/* ------------------------------------------------------------ hash sets */

/* Set of u64 ids (open addressing; slot value id+1, 0 = empty). */
typedef struct idset {
    uint64_t *slots;
    size_t cap, n;
} idset;

static uint64_t mix64(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static bool idset_grow(idset *s)
{
    size_t ncap = s->cap ? s->cap * 2 : 1024;
    uint64_t *ns = calloc(ncap, sizeof *ns);
    if (!ns)
        return false;
    for (size_t i = 0; i < s->cap; i++) {
        if (!s->slots[i])
            continue;
        size_t j = mix64(s->slots[i]) & (ncap - 1);
        while (ns[j])
            j = (j + 1) & (ncap - 1);
        ns[j] = s->slots[i];
    }
    free(s->slots);
    s->slots = ns;
    s->cap = ncap;
    return true;
}

static bool idset_add(idset *s, uint64_t id)
{
    if ((s->n + 1) * 2 > s->cap && !idset_grow(s))
        return false;
    size_t j = mix64(id + 1) & (s->cap - 1);
    while (s->slots[j] && s->slots[j] != id + 1)
        j = (j + 1) & (s->cap - 1);
    if (!s->slots[j]) {
        s->slots[j] = id + 1;
        s->n++;
    }
    return true;
}

static bool idset_has(const idset *s, uint64_t id)
{
    if (!s->cap)
        return false;
    size_t j = mix64(id + 1) & (s->cap - 1);
    while (s->slots[j]) {
        if (s->slots[j] == id + 1)
            return true;
        j = (j + 1) & (s->cap - 1);
    }
    return false;
}

/* Map of u64 ids to two u64s (open addressing like idset): a table's
 * snapshot range, or a data file's table. */
typedef struct idmap_slot {
    uint64_t id1; /* id + 1, 0 = empty */
    uint64_t a, b;
    bool flag;
} idmap_slot;

typedef struct idmap {
    idmap_slot *slots;
    size_t cap, n;
} idmap;

static idmap_slot *idmap_find(const idmap *m, uint64_t id)
{
    if (!m->cap)
        return NULL;
    size_t j = mix64(id + 1) & (m->cap - 1);
    while (m->slots[j].id1) {
        if (m->slots[j].id1 == id + 1)
            return &m->slots[j];
        j = (j + 1) & (m->cap - 1);
    }
    return NULL;
}

/* The slot of `id`, added (zeroed, *added true) if new; NULL when out of memory. */
static idmap_slot *idmap_get(idmap *m, uint64_t id, bool *added)
{
    *added = false;
    idmap_slot *s = idmap_find(m, id);
    if (s)
        return s;
    if ((m->n + 1) * 2 > m->cap) {
        size_t ncap = m->cap ? m->cap * 2 : 1024;
        idmap_slot *ns = calloc(ncap, sizeof *ns);
        if (!ns)
            return NULL;
        for (size_t i = 0; i < m->cap; i++) {
            if (!m->slots[i].id1)
                continue;
            size_t j = mix64(m->slots[i].id1) & (ncap - 1);
            while (ns[j].id1)
                j = (j + 1) & (ncap - 1);
            ns[j] = m->slots[i];
        }
        free(m->slots);
        m->slots = ns;
        m->cap = ncap;
    }
    size_t j = mix64(id + 1) & (m->cap - 1);
    while (m->slots[j].id1)
        j = (j + 1) & (m->cap - 1);
    m->slots[j] = (idmap_slot){.id1 = id + 1};
    m->n++;
    *added = true;
    return &m->slots[j];
}

/* Map of row keys (of tables with a live or pk index) to what was seen. */
enum { ROW_OPEN = 1, ROW_LIVE_SEEN = 2, ROW_PK_SEEN = 4 };

typedef struct keyslot {
    uint8_t *key; /* NULL = empty */
    uint32_t klen;
    uint8_t flags;
} keyslot;

typedef struct keymap {
    keyslot *slots;
    size_t cap, n;
} keymap;

static uint64_t hash_bytes(const uint8_t *p, size_t n)
{
    return mix64(rl_hash_bytes(RL_HASH_SEED, p, n));
}

static keyslot *keymap_slot(keyslot *slots, size_t cap, const uint8_t *k, size_t kl)
{
    size_t j = hash_bytes(k, kl) & (cap - 1);
    while (slots[j].key && !(slots[j].klen == kl && memcmp(slots[j].key, k, kl) == 0))
        j = (j + 1) & (cap - 1);
    return &slots[j];
}

static bool keymap_grow(keymap *m)
{
    size_t ncap = m->cap ? m->cap * 2 : 1024;
    keyslot *ns = calloc(ncap, sizeof *ns);
    if (!ns)
        return false;
    for (size_t i = 0; i < m->cap; i++)
        if (m->slots[i].key)
            *keymap_slot(ns, ncap, m->slots[i].key, m->slots[i].klen) = m->slots[i];
    free(m->slots);
    m->slots = ns;
    m->cap = ncap;
    return true;
}

static bool keymap_add(keymap *m, const uint8_t *k, size_t kl, uint8_t flags)
{
    if ((m->n + 1) * 2 > m->cap && !keymap_grow(m))
        return false;
    keyslot *s = keymap_slot(m->slots, m->cap, k, kl);
    if (!s->key) {
        if (!(s->key = malloc(kl ? kl : 1)))
            return false;
        memcpy(s->key, k, kl);
        s->klen = (uint32_t)kl;
        m->n++;
    }
    s->flags |= flags;
    return true;
}

static keyslot *keymap_find(keymap *m, const uint8_t *k, size_t kl)
{
    if (!m->cap)
        return NULL;
    keyslot *s = keymap_slot(m->slots, m->cap, k, kl);
    return s->key ? s : NULL;
}

static void keymap_free(keymap *m)
{
    for (size_t i = 0; i < m->cap; i++)
        free(m->slots[i].key);
    free(m->slots);
}

/* ---------------------------------------------------------- checker state */

/* Highest id seen that a counter must exceed. */
typedef struct need {
    char counter[64];
    uint64_t max;   /* highest id / seq in use */
    char what[96];  /* "snapshot_id", "data_file_id" ... for the message */
} need;

typedef struct counter_seen {
    char name[64];
    uint64_t value;
} counter_seen;

typedef struct name_entry {
    char schema[128], name[256];
    uint64_t id;
    uint8_t *key;
    size_t klen;
} name_entry;

/* A UNIQUE index definition and the table it is on (name index 0x80 03). */
typedef struct unique_def {
    rl_index_def def;
    uint8_t tag;
    uint64_t dyn_id;
} unique_def;

typedef struct checker {
    FILE *out;
    rl_format fmt;
    rl_dyn_defs defs;
    uint64_t keys;
    long problems;
    bool oom;
    rl_buf line;
    rl_decoded_row row;
    /* by tag: the ids of a parent table's rows (desc.h parents), under the
     * column its children name them by (parent_col) */
    idset parent_ids[256];
    const char *parent_col[256];
    /* table_id -> a: lowest begin_snapshot of its versions, b: highest
     * end_snapshot, flag: a version is open */
    idmap table_range;
    idmap file_table; /* data_file_id -> a: its table_id */
    uint64_t max_snapshot;
    bool have_snapshots;
    keymap rows;
    /* the versioned entity being grouped: key without begin_snapshot */
    rl_buf ent_prefix;
    rl_buf ent_last_key;
    int ent_open;
    need *needs;
    size_t nneeds, capneeds;
    counter_seen *counters;
    size_t ncounters, capcounters;
    name_entry *names;
    size_t nnames, capnames;
    idset unique_ids; /* ids of the UNIQUE index definitions seen (0x80 05 sort first) */
    idset computed_ids; /* those over expressions or with a predicate */
    idset fkey_ids;   /* ids of the FOREIGN KEY definitions seen (0x80 08, before 0x80 09) */
    /* the UNIQUE definitions, read before the pass (rows sort before them),
     * and the entries the rows want / the store has, by hash of the entry
     * key: a = hash of the row key, b = the index id */
    unique_def *udefs;
    size_t nudefs;
    idmap uwanted, uhave;
    /* a UNIQUE index over expressions or with a predicate (its entries
     * need the SQL layer's evaluation: check only that each names a row of
     * its table, at most once): the rows of such tables and the rows the
     * entries name, by hash of row key and index id */
    idmap crows, cnamed;
    bool have_format_version, have_ducklake_format, have_epoch;
    bool allow_copy_marker; /* rl_check_copy: the marker is expected */
} checker;

static void problem(checker *c, const uint8_t *k, size_t kl, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void problem(checker *c, const uint8_t *k, size_t kl, const char *fmt, ...)
{
    c->problems++;
    if (c->problems > RL_CHECK_MAX_REPORTED)
        return;
    rl_buf_reset(&c->line);
    if (kl)
        rl_buf_printf(&c->line, "problem: [0x%02x %s] key ", k[0], rl_tag_label(k[0]));
    else
        rl_buf_put_str(&c->line, "problem: ");
    rl_key_hex(&c->line, k, kl);
    rl_buf_put_str(&c->line, kl ? ": " : "(store): ");
    va_list ap;
    va_start(ap, fmt);
    char msg[600];
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    rl_buf_put_str(&c->line, msg);
    rl_buf_put_u8(&c->line, '\n');
    if (!c->line.failed)
        fwrite(c->line.data, 1, c->line.len, c->out);
}

/* Record that `counter` must exceed `id`. */
static void need_above(checker *c, const char *counter, uint64_t id, const char *what)
{
    for (size_t i = 0; i < c->nneeds; i++) {
        if (strcmp(c->needs[i].counter, counter) == 0) {
            if (id > c->needs[i].max) {
                c->needs[i].max = id;
                snprintf(c->needs[i].what, sizeof c->needs[i].what, "%s", what);
            }
            return;
        }
    }
    need *grown = rl_array_reserve(c->needs, c->nneeds, &c->capneeds, sizeof *grown, 16);
    if (!grown) {
        c->oom = true;
        return;
    }
    c->needs = grown;
    need *n = &c->needs[c->nneeds++];
    snprintf(n->counter, sizeof n->counter, "%s", counter);
    snprintf(n->what, sizeof n->what, "%s", what);
    n->max = id;
}

static int64_t col_i(const checker *c, const char *name)
{
    int i = rl_desc_column_index(c->row.d, name, c->fmt);
    return i >= 0 && !c->row.vals[i].isnull ? c->row.vals[i].v.i : -1;
}

/* ------------------------------------------------------- row-level checks */

static void check_not_null(checker *c, const uint8_t *k, size_t kl)
{
    for (size_t i = 0; i < c->row.ncols; i++)
        if (c->row.d->cols[i].not_null && c->row.vals[i].isnull)
            problem(c, k, kl, "column %s is NULL but declared NOT NULL", c->row.d->cols[i].name);
}

static void finish_entity(checker *c)
{
    if (c->ent_open > 1)
        problem(c, c->ent_last_key.data, c->ent_last_key.len,
                "%d open versions (end_snapshot NULL) of one entity; at most one may be open",
                c->ent_open);
    rl_buf_reset(&c->ent_prefix);
    c->ent_open = 0;
}

/* Versions of one entity share the key up to begin_snapshot (the last key
 * field), so they are adjacent in key order; a duplicate of a version sorts
 * right after it (K | dup) and belongs to the same entity. */
static void check_versions(checker *c, const uint8_t *k, size_t kl, bool open)
{
    const rl_table_desc *d = c->row.d;
    size_t natural_len;
    if (d->begin_col < 0 || d->key[d->nkey - 1] != d->begin_col ||
        rl_key_split_dup(k, kl, d, &natural_len, NULL) < 0 || natural_len < 9)
        return;
    size_t plen = natural_len - 8;
    if (c->ent_prefix.len != plen || memcmp(c->ent_prefix.data, k, plen) != 0) {
        finish_entity(c);
        rl_buf_put(&c->ent_prefix, k, plen);
    }
    if (open) {
        c->ent_open++;
        rl_buf_reset(&c->ent_last_key);
        rl_buf_put(&c->ent_last_key, k, kl);
    }
}

static void require(checker *c, const uint8_t *k, size_t kl, const idset *set, const char *col,
                    const char *parent)
{
    int64_t id = col_i(c, col);
    if (id >= 0 && !idset_has(set, (uint64_t)id))
        problem(c, k, kl, "%s=%" PRId64 " has no %s row", col, id, parent);
}

static void remember(checker *c, idset *set, const char *col)
{
    int64_t id = col_i(c, col);
    if (id >= 0 && !idset_add(set, (uint64_t)id))
        c->oom = true;
}

/* A table version: widen its table's snapshot range. */
static void remember_table_range(checker *c)
{
    int64_t id = col_i(c, "table_id"), begin = col_i(c, "begin_snapshot"),
            end = col_i(c, "end_snapshot");
    bool added;
    idmap_slot *s = id >= 0 ? idmap_get(&c->table_range, (uint64_t)id, &added) : NULL;
    if (id >= 0 && !s) {
        c->oom = true;
        return;
    }
    if (!s)
        return;
    if (begin >= 0 && (added || (uint64_t)begin < s->a))
        s->a = (uint64_t)begin;
    if (end < 0)
        s->flag = true;
    else if ((uint64_t)end > s->b)
        s->b = (uint64_t)end;
}

/* A row of a table's column or file (`what`): the table must have existed
 * when the row began, and still exist while the row is open (DuckLake
 * closes a table's columns and files in the commit that drops it). */
static void require_table_alive(checker *c, const uint8_t *k, size_t kl, const char *what)
{
    int64_t id = col_i(c, "table_id"), begin = col_i(c, "begin_snapshot"),
            end = col_i(c, "end_snapshot");
    const idmap_slot *s = id >= 0 ? idmap_find(&c->table_range, (uint64_t)id) : NULL;
    if (!s)
        return; /* no table at all: reported by require() */
    if (begin >= 0 && (uint64_t)begin < s->a)
        problem(c, k, kl, "%s begins at snapshot %" PRId64 ", before its table table_id=%" PRId64
                " existed (first version begins at %" PRIu64 ")", what, begin, id, s->a);
    if (end < 0 && !s->flag)
        problem(c, k, kl, "%s is live (end_snapshot NULL) but its table table_id=%" PRId64
                " was dropped at snapshot %" PRIu64, what, id, s->b);
}

/* The data file a file's child names must belong to the child's table. */
static void require_file_of_table(checker *c, const uint8_t *k, size_t kl, const char *what)
{
    int64_t file = col_i(c, "data_file_id"), table = col_i(c, "table_id");
    const idmap_slot *s = file >= 0 ? idmap_find(&c->file_table, (uint64_t)file) : NULL;
    if (s && table >= 0 && s->a != (uint64_t)table)
        problem(c, k, kl, "%s names data_file_id=%" PRId64 " of table_id=%" PRIu64
                ", not of its own table_id=%" PRId64, what, file, s->a, table);
}

/* No row can begin or end at a snapshot after the latest one: DuckLake
 * writes a snapshot's rows in the same commit as the snapshot. */
static void check_snapshot_bounds(checker *c, const uint8_t *k, size_t kl)
{
    const rl_table_desc *d = c->row.d;
    if (!c->have_snapshots)
        return;
    int cols[2] = {d->begin_col, d->end_col};
    for (int i = 0; i < 2; i++) {
        if (cols[i] < 0 || c->row.vals[cols[i]].isnull)
            continue;
        int64_t v = c->row.vals[cols[i]].v.i;
        if (v >= 0 && (uint64_t)v > c->max_snapshot)
            problem(c, k, kl, "%s=%" PRId64 " is after the latest snapshot (%" PRIu64 ")",
                    d->cols[cols[i]].name, v, c->max_snapshot);
    }
}

/* Which tables are parents, and by which column (desc.h parents). */
static void parents_init(checker *c)
{
    for (size_t i = 0; i < rl_ntables; i++)
        for (int j = 0; j < RL_MAX_PARENTS && rl_tables[i].parents[j].col; j++)
            c->parent_col[rl_tables[i].parents[j].tag] = rl_tables[i].parents[j].col;
}

/* Parent links (check.h; the descriptors name them): a parent's row
 * remembers its id, a child's must name a remembered one. Then the
 * cross-table rules beyond a link. */
static void check_parents(checker *c, const uint8_t *k, size_t kl)
{
    const rl_table_desc *d = c->row.d;
    check_snapshot_bounds(c, k, kl);
    if (c->parent_col[d->tag])
        remember(c, &c->parent_ids[d->tag], c->parent_col[d->tag]);
    for (int i = 0; i < RL_MAX_PARENTS && d->parents[i].col; i++) {
        const rl_table_desc *p = rl_desc_by_tag(d->parents[i].tag);
        require(c, k, kl, &c->parent_ids[d->parents[i].tag], d->parents[i].col,
                p ? p->name : "parent");
    }
    switch (d->tag) {
    case RL_TAG_SNAPSHOT: {
        int64_t id = col_i(c, "snapshot_id");
        if (id >= 0 && (!c->have_snapshots || (uint64_t)id > c->max_snapshot))
            c->max_snapshot = (uint64_t)id;
        c->have_snapshots = c->have_snapshots || id >= 0;
        break;
    }
    case RL_TAG_TABLE:
        remember_table_range(c);
        break;
    case RL_TAG_COLUMN:
        require_table_alive(c, k, kl, "column");
        break;
    case RL_TAG_DATA_FILE: {
        int64_t file = col_i(c, "data_file_id"), table = col_i(c, "table_id");
        bool added;
        idmap_slot *s = file >= 0 ? idmap_get(&c->file_table, (uint64_t)file, &added) : NULL;
        if (file >= 0 && !s)
            c->oom = true;
        else if (s)
            s->a = (uint64_t)table;
        require_table_alive(c, k, kl, "data file");
        break;
    }
    case RL_TAG_DELETE_FILE:
        require_file_of_table(c, k, kl, "delete file");
        require_table_alive(c, k, kl, "delete file");
        break;
    case RL_TAG_FILE_COLUMN_STATS:
        require_file_of_table(c, k, kl, "column statistics row");
        break;
    default:
        break;
    }
}

static void check_counters_needed(checker *c)
{
    const rl_table_desc *d = c->row.d;
    if (d->counter && d->counter_col >= 0 && !c->row.vals[d->counter_col].isnull) {
        char what[96];
        snprintf(what, sizeof what, "%s.%s", d->name, d->cols[d->counter_col].name);
        need_above(c, d->counter, (uint64_t)c->row.vals[d->counter_col].v.i, what);
    }
    if (rl_desc_has_seq(d)) {
        char name[RL_COUNTER_NAME_MAX], what[96];
        rl_counter_rowseq_name(d, name, sizeof name);
        snprintf(what, sizeof what, "row sequence of %s", d->name);
        need_above(c, name, c->row.seq, what);
    }
    if (d->tag == RL_TAG_AUDIT)
        need_above(c, RL_COUNTER_NEXT_COMMIT_SEQ, (uint64_t)c->row.vals[RL_AUDIT_SEQ].v.i,
                   "audit commit_seq");
}

/* A duplicate's discriminator must be below the counter that hands them out,
 * or a later duplicate of the same key fields would overwrite it. */
static void check_discriminator(checker *c, const uint8_t *k, size_t kl)
{
    size_t natural_len;
    uint64_t dup;
    if (rl_key_split_dup(k, kl, c->row.d, &natural_len, &dup) == 1)
        need_above(c, RL_COUNTER_NEXT_DUP, dup, "duplicate row discriminator");
}

/* A catalog row (or audit / dynamic row) that decoded. */
static void check_row(checker *c, const uint8_t *k, size_t kl)
{
    const rl_table_desc *d = c->row.d;
    check_not_null(c, k, kl);
    bool open = d->end_col >= 0 && c->row.vals[d->end_col].isnull;
    check_versions(c, k, kl, open);
    if ((d->live_index || d->pk_check == RL_PK_INDEX) &&
        !keymap_add(&c->rows, k, kl, open ? ROW_OPEN : 0))
        c->oom = true;
    check_parents(c, k, kl);
    check_counters_needed(c);
    check_discriminator(c, k, kl);
}

/* ------------------------------------------------- UNIQUE index entries */

/* A 64-bit digest of key bytes, kept below UINT64_MAX (idmap keys id + 1). */
static uint64_t key_digest(const uint8_t *k, size_t kl)
{
    return rl_hash_bytes(RL_HASH_SEED, k, kl) >> 1;
}

/* Note an entry (of index `id`, for the row whose key digests to `row`) in
 * m; false if it was there already. */
static bool note_entry(checker *c, idmap *m, uint64_t entry, uint64_t row, uint64_t id)
{
    bool added;
    idmap_slot *s = idmap_get(m, entry, &added);
    if (!s) {
        c->oom = true;
        return true;
    }
    if (added) {
        s->a = row;
        s->b = id;
    }
    return added;
}

/* The entries row `k` of d wants in its table's UNIQUE indexes. */
static void want_entries(checker *c, const rl_table_desc *d, const uint8_t *k, size_t kl)
{
    rl_buf e;
    rl_buf_init(&e, 0);
    for (size_t i = 0; i < c->nudefs; i++) {
        const unique_def *u = &c->udefs[i];
        if (rl_desc_is_dynamic(d) ? u->tag != RL_TAG_DYNAMIC_ROW || u->dyn_id != d->dyn_id
                                  : u->tag != d->tag)
            continue;
        if (rl_index_def_computed(&u->def)) {
            bool added;
            if (!idmap_get(&c->crows, key_digest(k, kl) ^ mix64(u->def.id), &added))
                c->oom = true;
            continue;
        }
        int has = rl_unique_entry_key(&e, &u->def, d, c->fmt, c->row.vals);
        if (has == -1)
            c->oom = true;
        if (has != 1)
            continue;
        if (!note_entry(c, &c->uwanted, key_digest(e.data, e.len), key_digest(k, kl), u->def.id))
            problem(c, k, kl, "row holds the value another row of unique index %" PRIu64 " holds",
                    u->def.id);
    }
    rl_buf_free(&e);
}

/* Every UNIQUE definition of the store with the table it is on, before the
 * pass: the rows come first in key order and want their entries. */
static int load_unique_defs(checker *c, kv_db *kv, rl_error *err)
{
    uint8_t prefix[RL_KEY_INDEX_PREFIX_LEN];
    kv_error ke;
    kv_iter *it = kv_scan_prefix(kv, NULL, prefix, rl_key_index_prefix(prefix, RL_INDEX_SQL_INDEX),
                                 &ke);
    if (!it)
        return rl_error_set(err, RL_SQLSTATE_IO_ERROR, "listing index definitions: %s",
                            ke.message);
    const uint8_t *k, *v;
    size_t kl, vl;
    int rc;
    rl_buf schema, nk;
    rl_buf_init(&schema, 0);
    rl_buf_init(&nk, 0);
    size_t cap = 0;
    while ((rc = kv_iter_next(it, &k, &kl, &v, &vl, &ke)) == 1) {
        unique_def u;
        memset(&u, 0, sizeof u);
        rl_reader r;
        rl_reader_init(&r, k + RL_KEY_INDEX_PREFIX_LEN, kl - RL_KEY_INDEX_PREFIX_LEN);
        rl_buf_reset(&schema);
        if (!rl_index_def_decode(v, vl, &u.def) || !u.def.unique ||
            !rl_key_get_str(&r, &schema))
            continue; /* the pass reports what does not decode */
        rl_buf_put_u8(&schema, 0);
        rl_buf_reset(&nk);
        rl_key_dynamic_name(&nk, (const char *)schema.data, u.def.table);
        uint8_t *nv = NULL;
        size_t nvl = 0;
        rl_name_entry e;
        kv_error ge;
        if (schema.failed || nk.failed ||
            kv_get(kv, NULL, nk.data, nk.len, &nv, &nvl, &ge) != 1 ||
            !rl_name_entry_decode(nv, nvl, &e)) {
            free(nv);
            continue; /* a definition of a table gone: its entries name no row */
        }
        free(nv);
        u.tag = e.tag ? e.tag : RL_TAG_DYNAMIC_ROW;
        u.dyn_id = e.tag ? 0 : e.dyn_id;
        unique_def *grown = rl_array_reserve(c->udefs, c->nudefs, &cap, sizeof *grown, 4);
        if (!grown) {
            c->oom = true;
            break;
        }
        c->udefs = grown;
        c->udefs[c->nudefs++] = u;
    }
    kv_iter_free(it);
    rl_buf_free(&schema);
    rl_buf_free(&nk);
    if (rc < 0)
        return rl_error_set(err, RL_SQLSTATE_IO_ERROR, "listing index definitions: %s",
                            ke.message);
    return 0;
}

/* After the pass: every entry a row wants is there, naming that row, and
 * every entry there is one a row wants. */
static void check_unique_entries(checker *c)
{
    size_t missing = 0, stray = 0, misnamed = 0;
    for (size_t i = 0; i < c->uwanted.cap; i++) {
        const idmap_slot *w = &c->uwanted.slots[i];
        if (!w->id1)
            continue;
        const idmap_slot *h = idmap_find(&c->uhave, w->id1 - 1);
        missing += !h;
        misnamed += h && h->a != w->a;
    }
    for (size_t i = 0; i < c->uhave.cap; i++)
        stray += c->uhave.slots[i].id1 && !idmap_find(&c->uwanted, c->uhave.slots[i].id1 - 1);
    size_t unnamed = 0;
    for (size_t i = 0; i < c->cnamed.cap; i++)
        unnamed += c->cnamed.slots[i].id1 && !idmap_find(&c->crows, c->cnamed.slots[i].id1 - 1);
    if (unnamed)
        problem(c, NULL, 0, "%zu entries of unique indexes over expressions or with a predicate "
                            "name no row of their table", unnamed);
    if (missing)
        problem(c, NULL, 0, "%zu rows lack their entry in a unique index (0x80 07)", missing);
    if (misnamed)
        problem(c, NULL, 0, "%zu unique index entries name another row than the one holding "
                            "their values", misnamed);
    if (stray)
        problem(c, NULL, 0, "%zu unique index entries stand for no row holding their values",
                stray);
}

static void check_table_key(checker *c, const rl_table_desc *d, const uint8_t *k, size_t kl,
                            const uint8_t *v, size_t vl)
{
    char why[300];
    if (rl_decode_stored_row(&c->row, d, c->fmt, k, kl, v, vl, why, sizeof why) < 0) {
        problem(c, k, kl, "%s", why);
        return;
    }
    check_row(c, k, kl);
    if (c->nudefs)
        want_entries(c, d, k, kl);
}

/* ------------------------------------------------------------ index keys */

static void check_live_entry(checker *c, const uint8_t *k, size_t kl, size_t vl)
{
    const rl_table_desc *d = kl >= 3 ? rl_desc_by_tag(k[2]) : NULL;
    if (!d || !d->live_index) {
        problem(c, k, kl, "live index entry for a table without a live index");
        return;
    }
    if (vl != 0)
        problem(c, k, kl, "live index entry has a %zu-byte value, expected none", vl);
    const uint8_t *pk = k + 2;
    size_t pkl = kl - 2;
    keyslot *s = keymap_find(&c->rows, pk, pkl);
    if (!s) {
        problem(c, k, kl, "live index entry points to a %s row that does not exist", d->name);
        return;
    }
    if (!(s->flags & ROW_OPEN))
        problem(c, k, kl, "live index entry points to a %s row whose end_snapshot is set",
                d->name);
    s->flags |= ROW_LIVE_SEEN;
}

static void check_pk_entry(checker *c, const uint8_t *k, size_t kl, const uint8_t *v, size_t vl)
{
    const rl_table_desc *d = kl == 11 ? rl_desc_by_tag(k[2]) : NULL;
    if (!d || d->pk_check != RL_PK_INDEX) {
        problem(c, k, kl, "malformed pk index key or table without a pk index");
        return;
    }
    uint64_t id = rl_load_be64(k + 3);
    rl_buf rowkey;
    rl_buf_init(&rowkey, 0);
    if (rl_key_from_pk_index(&rowkey, d, id, v, vl) != RL_KEY_OK || rowkey.failed) {
        problem(c, k, kl, "pk index entry %s=%" PRIu64 " has a malformed value",
                d->cols[d->pk_col].name, id);
        rl_buf_free(&rowkey);
        return;
    }
    v = rowkey.data;
    vl = rowkey.len;
    keyslot *s = keymap_find(&c->rows, v, vl);
    if (!s) {
        rl_buf_free(&rowkey);
        problem(c, k, kl, "pk index entry %s=%" PRIu64 " points to a row that does not exist",
                d->cols[d->pk_col].name, id);
        return;
    }
    rl_datum row[RL_MAX_COLUMNS];
    rl_buf arena;
    rl_buf_init(&arena, 0);
    memset(row, 0, sizeof row);
    if (rl_key_decode_row(v, vl, d, row, NULL, &arena) != RL_KEY_OK ||
        (uint64_t)row[d->pk_col].v.i != id)
        problem(c, k, kl, "pk index entry %s=%" PRIu64 " points to a row with another id",
                d->cols[d->pk_col].name, id);
    rl_buf_free(&arena);
    rl_buf_free(&rowkey);
    s->flags |= ROW_PK_SEEN;
}

static void check_name_entry(checker *c, const uint8_t *k, size_t kl, const uint8_t *v,
                             size_t vl)
{
    rl_reader r;
    rl_reader_init(&r, k + 2, kl - 2);
    rl_buf schema, name;
    rl_buf_init(&schema, 0);
    rl_buf_init(&name, 0);
    bool ok = rl_key_get_str(&r, &schema) && rl_key_get_str(&r, &name) && !rl_reader_left(&r);
    name_entry *grown;
    rl_name_entry ne;
    bool decoded = ok && rl_name_entry_decode(v, vl, &ne);
    if (decoded && ne.tag) {
        /* a DuckLake table registered by CREATE TABLE: must name a known
         * protocol table; its rows need no definition, extension columns
         * must decode (rl_dyn_defs_load counted those that do not) */
        const rl_table_desc *d = rl_desc_by_tag(ne.tag);
        if (!d || d->internal)
            problem(c, k, kl, "table name index entry points to unknown table tag 0x%02x", ne.tag);
        else if (ne.ext && (ne.tag >= 64 || !c->defs.fixed[ne.tag]))
            problem(c, k, kl, "the extension columns of %s do not decode", d->name);
    } else if (!decoded) {
        problem(c, k, kl, "malformed table name index entry");
    } else if (!(grown = rl_array_reserve(c->names, c->nnames, &c->capnames,
                                            sizeof *c->names, 16))) {
        c->oom = true; /* c->names stays valid (the old code lost it here) */
    } else {
        c->names = grown;
        name_entry *e = &c->names[c->nnames++];
        snprintf(e->schema, sizeof e->schema, "%.*s", (int)schema.len, (const char *)schema.data);
        snprintf(e->name, sizeof e->name, "%.*s", (int)name.len, (const char *)name.data);
        e->id = rl_load_be64(v);
        e->key = malloc(kl);
        e->klen = e->key ? kl : 0;
        if (e->key)
            memcpy(e->key, k, kl);
    }
    rl_buf_free(&schema);
    rl_buf_free(&name);
}

/* Does index key k hold exactly n strings after its 2-byte kind? */
static bool key_holds_strings(const uint8_t *k, size_t kl, size_t n)
{
    rl_reader r;
    rl_reader_init(&r, k + 2, kl - 2);
    rl_buf part;
    rl_buf_init(&part, 0);
    bool ok = true;
    for (size_t i = 0; i < n && ok; i++) {
        rl_buf_reset(&part);
        ok = rl_key_get_str(&r, &part);
    }
    rl_buf_free(&part);
    return ok && !rl_reader_left(&r);
}

static void check_schema_entry(checker *c, const uint8_t *k, size_t kl, size_t vl)
{
    if (!key_holds_strings(k, kl, 1) || vl != 0)
        problem(c, k, kl, "malformed schema index entry");
}

/* An index created by CREATE INDEX: its key holds schema and name, its
 * value a definition that decodes. (Its table is not required to exist:
 * the catalog drops a table's indexes with it, and a lake copied from one
 * where it did not is still readable; pg_catalog lists only indexes of
 * listed tables.) */
static void check_sql_index_entry(checker *c, const uint8_t *k, size_t kl, const uint8_t *v,
                                  size_t vl)
{
    rl_index_def d;
    if (!key_holds_strings(k, kl, 2))
        problem(c, k, kl, "malformed index definition key");
    else if (!rl_index_def_decode(v, vl, &d))
        problem(c, k, kl, "index definition does not decode");
    else if (d.unique && (!idset_add(&c->unique_ids, d.id) ||
                          (rl_index_def_computed(&d) && !idset_add(&c->computed_ids, d.id))))
        c->oom = true;
    else if (d.unique)
        need_above(c, RL_COUNTER_NEXT_INDEX_ID, d.id, "unique index id");
}

/* An entry of a UNIQUE index over expressions or with a predicate: its
 * key values are the SQL layer's to compute, so it must name a row of the
 * index's table (after the pass: rows may sort after the entries), and no
 * other entry of the index that row. */
static void check_computed_entry(checker *c, const uint8_t *k, size_t kl, const uint8_t *v,
                                 size_t vl, uint64_t id)
{
    bool added;
    idmap_slot *s = idmap_get(&c->cnamed, key_digest(v, vl) ^ mix64(id), &added);
    if (!s)
        c->oom = true;
    else if (!added)
        problem(c, k, kl, "a row holds two entries of unique index %" PRIu64, id);
    else
        s->a = id;
}

/* An entry of a UNIQUE index: the id of a definition seen, at least one
 * key column, and the key of the row it stands for as its value. */
static void check_unique_entry(checker *c, const uint8_t *k, size_t kl, const uint8_t *v,
                               size_t vl)
{
    if (kl <= RL_KEY_UNIQUE_PREFIX_LEN) {
        problem(c, k, kl, "unique index entry key is %zu bytes, expected more than %d", kl,
                RL_KEY_UNIQUE_PREFIX_LEN);
        return;
    }
    uint64_t id = rl_load_be64(k + 2);
    if (!idset_has(&c->unique_ids, id))
        problem(c, k, kl, "entry of unique index %" PRIu64 ", which has no definition", id);
    else if (vl == 0)
        problem(c, k, kl, "unique index entry names no row");
    else if (idset_has(&c->computed_ids, id))
        check_computed_entry(c, k, kl, v, vl, id);
    else
        note_entry(c, &c->uhave, key_digest(k, kl), key_digest(v, vl), id);
}

/* A FOREIGN KEY definition: schema, table and name in its key; it decodes
 * and references a UNIQUE index defined (0x80 05 sorts before 0x80 08). */
static void check_fkey_def(checker *c, const uint8_t *k, size_t kl, const uint8_t *v, size_t vl)
{
    rl_fkey_def d;
    if (!key_holds_strings(k, kl, 3))
        problem(c, k, kl, "malformed foreign key definition key");
    else if (!rl_fkey_def_decode(v, vl, &d))
        problem(c, k, kl, "foreign key definition does not decode");
    else if (!idset_has(&c->unique_ids, d.ref_index_id))
        problem(c, k, kl, "foreign key references unique index %" PRIu64 ", which has no "
                "definition", d.ref_index_id);
    else if (!idset_add(&c->fkey_ids, d.id))
        c->oom = true;
    else
        need_above(c, RL_COUNTER_NEXT_FKEY_ID, d.id, "foreign key id");
}

/* An entry of a referencing row: the id of a FOREIGN KEY defined, key
 * values and the row's key after it, an empty value. */
static void check_fkey_entry(checker *c, const uint8_t *k, size_t kl, size_t vl)
{
    if (kl <= RL_KEY_FKEY_PREFIX_LEN + 2) {
        problem(c, k, kl, "foreign key entry key is %zu bytes, expected more than %d", kl,
                RL_KEY_FKEY_PREFIX_LEN + 2);
        return;
    }
    uint64_t id = rl_load_be64(k + 2);
    if (!idset_has(&c->fkey_ids, id))
        problem(c, k, kl, "entry of foreign key %" PRIu64 ", which has no definition", id);
    else if (vl != 0)
        problem(c, k, kl, "foreign key entry has a value");
}

/* A comment: schema, relation and column in its key, text without NUL
 * (valid UTF-8: the SQL layer wrote it from a statement) in its value. */
static void check_comment_entry(checker *c, const uint8_t *k, size_t kl, const uint8_t *v,
                                size_t vl)
{
    if (!key_holds_strings(k, kl, 3))
        problem(c, k, kl, "malformed comment key");
    else if (vl == 0 || memchr(v, 0, vl) || rl_utf8_invalid_at(v, vl) != vl)
        problem(c, k, kl, "comment text is empty or not UTF-8");
}

/* A CHECK constraint: schema, table and name in its key, a definition
 * that decodes (flags, its two texts, the attnums it uses) in its value.
 * (Its expression is the SQL layer's to evaluate; its table, as an index's,
 * is not required to exist.) */
/* A CHECK constraint's or a column DEFAULT's definition (0x80 0A / 0B):
 * the same value, a DEFAULT's without flags or attnums. */
static void check_expr_entry(checker *c, const uint8_t *k, size_t kl, const uint8_t *v, size_t vl)
{
    bool is_default = k[1] == RL_INDEX_DEFAULT;
    const char *what = is_default ? "column DEFAULT" : "CHECK constraint";
    rl_check_def d;
    memset(&d, 0, sizeof d);
    d.table[0] = 'x'; /* the key's; decode keeps it */
    char *texts = malloc(RL_CHECK_TEXT_MAX);
    if (!texts)
        c->oom = true;
    else if (!key_holds_strings(k, kl, 3))
        problem(c, k, kl, "malformed %s key", what);
    else if (!rl_check_def_decode(v, vl, &d, texts, RL_CHECK_TEXT_MAX) ||
             rl_utf8_invalid_at((const uint8_t *)d.expr, strlen(d.expr)) != strlen(d.expr) ||
             rl_utf8_invalid_at((const uint8_t *)d.pretty, strlen(d.pretty)) != strlen(d.pretty) ||
             (is_default ? d.not_valid || d.no_inherit || d.nconkey : d.identity != 0))
        problem(c, k, kl, "%s definition does not decode", what);
    free(texts);
}

/* A sequence's definition: schema and name in its key, a definition that
 * decodes (catalog.h rl_seq_def: type, bounds, OWNED BY) in its value, its
 * state's id below the counter next-sequence-id. */
static void check_sequence_def(checker *c, const uint8_t *k, size_t kl, const uint8_t *v,
                               size_t vl)
{
    rl_seq_def d;
    if (!key_holds_strings(k, kl, 2))
        problem(c, k, kl, "malformed sequence key");
    else if (!rl_seq_def_decode(v, vl, &d))
        problem(c, k, kl, "sequence definition does not decode");
    else
        need_above(c, RL_COUNTER_NEXT_SEQUENCE_ID, d.id, "sequence id");
}

/* A sequence's state (written outside transactions): id in its key, the
 * last value (8 bytes) and is_called (0 or 1) in its value. A state whose
 * sequence is gone (a CREATE rolled back) is harmless: no id is reused. */
static void check_sequence_state(checker *c, const uint8_t *k, size_t kl, const uint8_t *v,
                                 size_t vl)
{
    if (kl != 10)
        problem(c, k, kl, "sequence state key is %zu bytes, expected 10", kl);
    else if (vl != 9 || v[8] > 1)
        problem(c, k, kl, "sequence state does not decode");
    else
        need_above(c, RL_COUNTER_NEXT_SEQUENCE_ID, rl_load_be64(k + 2), "sequence id");
}

static void check_index_key(checker *c, const uint8_t *k, size_t kl, const uint8_t *v,
                            size_t vl)
{
    uint8_t kind = kl >= 2 ? k[1] : 0;
    if (kind == RL_INDEX_LIVE && kl >= 3)
        check_live_entry(c, k, kl, vl);
    else if (kind == RL_INDEX_PK)
        check_pk_entry(c, k, kl, v, vl);
    else if (kind == RL_INDEX_DYNAMIC_NAME)
        check_name_entry(c, k, kl, v, vl);
    else if (kind == RL_INDEX_SCHEMA)
        check_schema_entry(c, k, kl, vl);
    else if (kind == RL_INDEX_SQL_INDEX)
        check_sql_index_entry(c, k, kl, v, vl);
    else if (kind == RL_INDEX_COMMENT)
        check_comment_entry(c, k, kl, v, vl);
    else if (kind == RL_INDEX_UNIQUE)
        check_unique_entry(c, k, kl, v, vl);
    else if (kind == RL_INDEX_FKEY)
        check_fkey_def(c, k, kl, v, vl);
    else if (kind == RL_INDEX_FKEY_ENTRY)
        check_fkey_entry(c, k, kl, vl);
    else if (kind == RL_INDEX_CHECK || kind == RL_INDEX_DEFAULT)
        check_expr_entry(c, k, kl, v, vl);
    else if (kind == RL_INDEX_SEQUENCE)
        check_sequence_def(c, k, kl, v, vl);
    else if (kind == RL_INDEX_SEQUENCE_STATE)
        check_sequence_state(c, k, kl, v, vl);
    else
        problem(c, k, kl, "unknown index kind 0x%02x", kind);
}

/* ------------------------------------------------- other key families */

static void check_definition(checker *c, const uint8_t *k, size_t kl, const uint8_t *v,
                             size_t vl)
{
    if (kl != 9) {
        problem(c, k, kl, "dynamic table definition key is %zu bytes, expected 9", kl);
        return;
    }
    uint64_t id = rl_load_be64(k + 1);
    if (!rl_dyn_defs_find(&c->defs, id)) {
        problem(c, k, kl, "dynamic table definition %" PRIu64 " does not decode", id);
        return;
    }
    need_above(c, RL_COUNTER_NEXT_DYNAMIC_ID, id, "dynamic table id");
    check_table_key(c, &rl_desc_dynamic_table, k, kl, v, vl);
}

static void check_dynamic_row(checker *c, const uint8_t *k, size_t kl, const uint8_t *v,
                              size_t vl)
{
    if (kl != 17) {
        problem(c, k, kl, "dynamic row key is %zu bytes, expected 17", kl);
        return;
    }
    const rl_dyn_def *def = rl_dyn_defs_find(&c->defs, rl_load_be64(k + 1));
    if (!def) {
        problem(c, k, kl, "row of dynamic table %" PRIu64 ", which has no definition",
                rl_load_be64(k + 1));
        return;
    }
    check_table_key(c, def->desc, k, kl, v, vl);
}

static void check_counter(checker *c, const uint8_t *k, size_t kl, size_t vl, const uint8_t *v)
{
    if (vl != 8) {
        problem(c, k, kl, "counter value is %zu bytes, expected 8", vl);
        return;
    }
    counter_seen *grown =
        rl_array_reserve(c->counters, c->ncounters, &c->capcounters, sizeof *grown, 32);
    if (!grown) {
        c->oom = true;
        return;
    }
    c->counters = grown;
    counter_seen *e = &c->counters[c->ncounters++];
    snprintf(e->name, sizeof e->name, "%.*s", (int)(kl - 1), (const char *)k + 1);
    e->value = rl_load_be64(v);
}

static bool name_is(const uint8_t *k, size_t kl, const char *name)
{
    return kl - 1 == strlen(name) && memcmp(k + 1, name, kl - 1) == 0;
}

static void check_system(checker *c, const uint8_t *k, size_t kl, const uint8_t *v, size_t vl)
{
    bool u64 = name_is(k, kl, RL_SYS_FORMAT_VERSION) || name_is(k, kl, RL_SYS_WRITER_EPOCH) ||
               name_is(k, kl, RL_SYS_RETAIN_FROM) || name_is(k, kl, RL_SYS_CREATED_AT);
    if (u64 && vl != 8) {
        problem(c, k, kl, "system key value is %zu bytes, expected 8", vl);
        return;
    }
    if (name_is(k, kl, RL_SYS_FORMAT_VERSION)) {
        c->have_format_version = true;
        if (rl_load_be64(v) != RL_STORAGE_FORMAT_VERSION)
            problem(c, k, kl, "catalog-format-version is %" PRIu64 ", this RockLake knows %d",
                    rl_load_be64(v), RL_STORAGE_FORMAT_VERSION);
    } else if (name_is(k, kl, RL_SYS_DUCKLAKE_FORMAT)) {
        char f[32];
        snprintf(f, sizeof f, "%.*s", (int)(vl < 31 ? vl : 31), (const char *)v);
        c->have_ducklake_format = true;
        if (!rl_format_parse(f))
            problem(c, k, kl, "unknown ducklake-format \"%s\"", f);
    } else if (name_is(k, kl, RL_SYS_WRITER_EPOCH)) {
        c->have_epoch = true;
    } else if (name_is(k, kl, RL_SYS_COPY_INCOMPLETE) && !c->allow_copy_marker) {
        problem(c, k, kl,
                "this lake is an unfinished %.*s: the copy did not finish; delete the lake and "
                "run that `rocklake import`, `backup` or `restore` again",
                (int)(vl < 300 ? vl : 300), (const char *)v);
    } else if (name_is(k, kl, RL_SYS_WRITER_LEASE)) {
        rl_lease_owner o;
        if (rl_lease_decode(v, vl, &o) < 0)
            problem(c, k, kl, "writer-lease value is not a lease (%zu bytes)", vl);
    }
}

static void check_key(checker *c, const uint8_t *k, size_t kl, const uint8_t *v, size_t vl)
{
    if (kl == 0) {
        problem(c, k, kl, "empty key");
        return;
    }
    switch (k[0]) {
    case RL_TAG_INDEX: check_index_key(c, k, kl, v, vl); return;
    case RL_TAG_DYNAMIC_TABLE: check_definition(c, k, kl, v, vl); return;
    case RL_TAG_DYNAMIC_ROW: check_dynamic_row(c, k, kl, v, vl); return;
    case RL_TAG_COUNTER: check_counter(c, k, kl, vl, v); return;
    case RL_TAG_SYSTEM: check_system(c, k, kl, v, vl); return;
    default: break;
    }
    const rl_table_desc *d = rl_defs_fixed_desc(&c->defs, k[0]);
    if (!d) {
        problem(c, k, kl, "unknown tag 0x%02x", k[0]);
        return;
    }
    check_table_key(c, d, k, kl, v, vl);
}

/* ------------------------------------------------------- end-of-pass checks */

static void check_rows_indexed(checker *c)
{
    for (size_t i = 0; i < c->rows.cap; i++) {
        keyslot *s = &c->rows.slots[i];
        if (!s->key)
            continue;
        const rl_table_desc *d = rl_desc_by_tag(s->key[0]);
        if (d->live_index && (s->flags & ROW_OPEN) && !(s->flags & ROW_LIVE_SEEN))
            problem(c, s->key, s->klen, "row has end_snapshot NULL but no live index entry");
        if (d->pk_check == RL_PK_INDEX && !(s->flags & ROW_PK_SEEN))
            problem(c, s->key, s->klen, "row has no pk index entry");
    }
}

static void check_counter_values(checker *c)
{
    for (size_t i = 0; i < c->nneeds; i++) {
        const need *n = &c->needs[i];
        uint64_t value = 0;
        bool found = false;
        for (size_t j = 0; j < c->ncounters; j++)
            if (strcmp(c->counters[j].name, n->counter) == 0) {
                value = c->counters[j].value;
                found = true;
            }
        rl_buf k;
        rl_buf_init(&k, 0);
        rl_key_counter(&k, n->counter);
        if (value <= n->max)
            problem(c, k.data, k.len,
                    "counter %s is %" PRIu64 "%s but %s %" PRIu64 " is in use; it must be above "
                    "every id",
                    n->counter, value, found ? "" : " (missing)", n->what, n->max);
        rl_buf_free(&k);
    }
}

static void check_system_present(checker *c)
{
    static const uint8_t none[1] = {RL_TAG_SYSTEM};
    if (!c->have_format_version)
        problem(c, none, 0, "system key catalog-format-version is missing");
    if (!c->have_ducklake_format)
        problem(c, none, 0, "system key ducklake-format is missing");
    if (!c->have_epoch)
        problem(c, none, 0, "system key writer-epoch is missing");
}

/* Definitions and name index entries must agree both ways. */
static void check_dynamic_names(checker *c)
{
    for (size_t i = 0; i < c->nnames; i++) {
        const name_entry *e = &c->names[i];
        const rl_dyn_def *def = rl_dyn_defs_find(&c->defs, e->id);
        if (!def)
            problem(c, e->key, e->klen, "name index %s.%s points to dynamic table %" PRIu64
                    ", which has no definition", e->schema, e->name, e->id);
        else if (strcmp(def->schema, e->schema) != 0 || strcmp(def->desc->name, e->name) != 0)
            problem(c, e->key, e->klen, "name index %s.%s points to dynamic table %" PRIu64
                    " defined as %s.%s", e->schema, e->name, e->id, def->schema, def->desc->name);
    }
    for (size_t i = 0; i < c->defs.n; i++) {
        const rl_dyn_def *def = &c->defs.defs[i];
        bool found = false;
        for (size_t j = 0; j < c->nnames && !found; j++)
            found = c->names[j].id == def->id;
        if (!found) {
            rl_buf k;
            rl_buf_init(&k, 0);
            rl_key_dynamic_table(&k, def->id);
            problem(c, k.data, k.len, "dynamic table %s.%s has no name index entry", def->schema,
                    def->desc->name);
            rl_buf_free(&k);
        }
    }
}

/* The store's integrity digest (kv.h, kv_verify): each key group must add
 * up to what the writer recorded. */
static int check_digest(checker *c, kv_db *kv, rl_error *err)
{
    kv_verify_report *r = malloc(sizeof *r);
    if (!r)
        return rl_error_set(err, RL_SQLSTATE_INTERNAL_ERROR, "out of memory while checking");
    kv_error ke;
    if (kv_verify(kv, r, &ke) < 0) {
        free(r);
        return rl_error_set(err, RL_SQLSTATE_IO_ERROR, "reading the store for its digest: %s (%s)",
                            ke.message, kv_error_kind_name(ke.kind));
    }
    if (!r->has_digest && r->keys)
        fprintf(c->out, "note: the store has no integrity digest yet; the next writer open "
                        "computes it\n");
    if (r->malformed) {
        static const uint8_t sys[1] = {RL_TAG_SYSTEM};
        problem(c, sys, 1, "%u integrity digest keys (kv-digest:) are malformed", r->malformed);
    }
    for (int t = 0; r->has_digest && t < 256; t++) {
        const kv_digest *f = &r->found[t], *x = &r->expected[t];
        if (f->count == x->count && f->key_sum == x->key_sum && f->pair_sum == x->pair_sum)
            continue;
        char what[300];
        kv_verify_describe(r, t, what, sizeof what);
        uint8_t tag[1] = {(uint8_t)t};
        problem(c, tag, 1, "%s; the store is damaged or lost a file: restore it from a backup "
                "or checkpoint (docs/operations.md)", what);
    }
    free(r);
    return 0;
}

/* ------------------------------------------------------------------ run */

static void checker_free(checker *c)
{
    rl_dyn_defs_free(&c->defs);
    rl_buf_free(&c->line);
    rl_buf_free(&c->ent_prefix);
    rl_buf_free(&c->ent_last_key);
    rl_decoded_row_free(&c->row);
    for (size_t i = 0; i < 256; i++)
        free(c->parent_ids[i].slots);
    free(c->table_range.slots);
    free(c->unique_ids.slots);
    free(c->fkey_ids.slots);
    free(c->udefs);
    free(c->uwanted.slots);
    free(c->uhave.slots);
    free(c->crows.slots);
    free(c->cnamed.slots);
    free(c->computed_ids.slots);
    free(c->file_table.slots);
    keymap_free(&c->rows);
    free(c->needs);
    free(c->counters);
    for (size_t i = 0; i < c->nnames; i++)
        free(c->names[i].key);
    free(c->names);
}

static int scan(checker *c, kv_db *kv, rl_error *err)
{
    kv_error ke;
    kv_iter *it = rl_scan_all(kv, NULL, 0, &ke);
    int rc = -1;
    if (it) {
        const uint8_t *k, *v;
        size_t kl, vl;
        while ((rc = kv_iter_next(it, &k, &kl, &v, &vl, &ke)) == 1 && !c->oom) {
            c->keys++;
            check_key(c, k, kl, v, vl);
        }
        kv_iter_free(it);
    }
    if (rc < 0)
        return rl_error_set(err, RL_SQLSTATE_IO_ERROR, "scanning the store: %s (%s)", ke.message,
                            kv_error_kind_name(ke.kind));
    if (c->oom)
        return rl_error_set(err, RL_SQLSTATE_INTERNAL_ERROR, "out of memory while checking");
    return 0;
}

static long check_run(rl_catalog *cat, bool allow_copy_marker, FILE *out, uint64_t *keys_out,
                      rl_error *err);

int rl_check_journal(const char *url, FILE *out, FILE *msgs, rl_error *err)
{
    uint64_t records = 0;
    kv_error ke;
    if (kv_journal_unapplied(url, &records, &ke) < 0)
        return rl_error_set(err, RL_SQLSTATE_IO, "reading the journal: %s", ke.message);
    if (records == 0)
        return 0;
    rl_lease_owner held;
    rl_error le;
    rl_error_clear(&le);
    int found = rl_lease_read(url, NULL, &held, &le);
    if (found < 0) {
        if (err)
            *err = le;
        return -1;
    }
    if (found == 1 && rl_lease_live(&held, rl_lease_now_ms(), NULL)) {
        fprintf(out, "note: the running writer's journal holds %" PRIu64 " records its SlateDB "
                     "WAL has not flushed yet; this check does not cover them\n", records);
        return 0;
    }
    fprintf(msgs, "rocklake check: the journal of \"%s\" holds %" PRIu64 " records the store "
                  "has not applied (its writer stopped before SlateDB's WAL followed, e.g. it "
                  "was killed); they may be acknowledged commits, which the check of the "
                  "store that follows does not cover: it fails\n"
                  "  hint: open the lake with `rocklake serve` once (its open replays the "
                  "journal), then check again\n",
            url, records);
    return 1;
}

long rl_check(rl_catalog *cat, FILE *out, uint64_t *keys_out, rl_error *err)
{
    return check_run(cat, false, out, keys_out, err);
}

long rl_check_copy(rl_catalog *cat, FILE *out, uint64_t *keys_out, rl_error *err)
{
    return check_run(cat, true, out, keys_out, err);
}

static long check_run(rl_catalog *cat, bool allow_copy_marker, FILE *out, uint64_t *keys_out,
                      rl_error *err)
{
    checker c;
    memset(&c, 0, sizeof c);
    c.allow_copy_marker = allow_copy_marker;
    c.out = out;
    c.fmt = rl_catalog_format(cat);
    rl_buf_init(&c.line, 0);
    rl_buf_init(&c.ent_prefix, 0);
    rl_buf_init(&c.ent_last_key, 0);
    rl_decoded_row_init(&c.row);
    parents_init(&c);
    long result = -1;
    if (rl_dyn_defs_load(rl_catalog_kv(cat), &c.defs, err) < 0 ||
        load_unique_defs(&c, rl_catalog_kv(cat), err) < 0 || scan(&c, rl_catalog_kv(cat), err) < 0)
        goto out;
    finish_entity(&c);
    check_unique_entries(&c);
    if (check_digest(&c, rl_catalog_kv(cat), err) < 0)
        goto out;
    check_rows_indexed(&c);
    check_counter_values(&c);
    check_system_present(&c);
    check_dynamic_names(&c);
    if (c.problems == 0)
        fprintf(out, "ok: %" PRIu64 " keys checked\n", c.keys);
    else {
        if (c.problems > RL_CHECK_MAX_REPORTED)
            fprintf(out, "... and %ld more problems not shown\n",
                    c.problems - RL_CHECK_MAX_REPORTED);
        fprintf(out, "check failed: %ld problem%s in %" PRIu64 " keys\n", c.problems,
                c.problems == 1 ? "" : "s", c.keys);
    }
    result = c.problems;
out:
    if (keys_out)
        *keys_out = c.keys;
    checker_free(&c);
    return result;
}
