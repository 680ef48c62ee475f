/*
 * sql_ctid.c — ctids: the tid value (block, offset), the numbering of rows
 * by position (temp tables, pg_catalog, a stored table's first full scan),
 * a dynamic table's ctids from its rows' sequence numbers, the per-session
 * map (table, primary key) <-> ctid, and tid text input.
 *
 * Invariants: a dynamic table's row (a table made by CREATE TABLE) has the
 * ctid of its row sequence n, the (n+1)-th line pointer of the table's heap
 * ((0,1) for n = 0, RL_CTIDS_PER_BLOCK per block), which is stored: the
 * same in every session, with the holes of deleted rows and a new one for
 * an UPDATEd row (rows.c moves it to a new sequence number), as
 * PostgreSQL's heap numbers tuples; such rows never enter the map. Other
 * tables' rows are numbered per table in first-seen order ((0,1), (0,2),
 * ... the same packing, offsets from 1, as a heap page would hold them) and
 * a row keeps its ctid until the transaction ends (rl_ctid_reset). Calls
 * nothing else of the SQL engine.
 */
#include <stdlib.h>
#include <string.h>

#include "sql/sql_ctid.h"
#include "sql/sql_exec.h"

/* ctids: PostgreSQL heap tids are (block, offset) with offsets from 1. We
 * pack RL_CTIDS_PER_BLOCK rows per block, like a heap page would. */
#define RL_CTIDS_PER_BLOCK 1000

rl_value rl_tid_value(uint64_t ctid)
{
    rl_value v;
    memset(&v, 0, sizeof v);
    v.oid = RL_OID_TID;
    v.typmod = -1;
    v.d.v.i = (int64_t)ctid;
    return v;
}

uint64_t rl_ctid_of_index(size_t i)
{
    return ((uint64_t)(i / RL_CTIDS_PER_BLOCK) << 16) | (i % RL_CTIDS_PER_BLOCK + 1);
}

rl_value rl_row_index_ctid(size_t i) { return rl_tid_value(rl_ctid_of_index(i)); }

/* ------------------------------------------------------- the session map */

/* ctids are numbered per table, like heap tids: the first row of a table
 * this transaction sees gets (0,1), the next (0,2), ... A row keeps its
 * ctid until the transaction ends, however often it is read again. */
typedef struct ctid_entry {
    uint8_t *key;
    size_t klen;
    uint64_t hash;
    uint32_t table; /* index into rl_ctid_map.t */
    uint32_t index; /* position within its table: ctid rl_ctid_of_index(index) */
} ctid_entry;

typedef struct ctid_table {
    const rl_table_desc *d;
    uint32_t *entries; /* entry numbers in first-seen order */
    size_t n, cap;
} ctid_table;

/* All entries plus an open-addressing hash on (table, key) (slot = entry
 * number + 1, 0 = empty) and, per table, the entries by position. */
struct rl_ctid_map {
    ctid_entry *e;
    size_t n, cap;
    uint32_t *slots;
    size_t nslots; /* power of two, at most half full */
    ctid_table *t;
    size_t nt, capt;
};

/* A descriptor is identified by tag + dynamic id (dynamic descriptors are
 * cached by the catalog, but identity by value does not depend on that). */
static uint64_t entry_hash(const rl_table_desc *d, const uint8_t *key, size_t klen)
{
    uint64_t h = rl_hash_bytes(RL_HASH_SEED, &d->tag, 1);
    h = rl_hash_bytes(h, &d->dyn_id, sizeof d->dyn_id);
    return rl_hash_bytes(h, key, klen);
}

static bool same_desc(const rl_table_desc *a, const rl_table_desc *b)
{
    return a == b || (a->tag == b->tag && a->dyn_id == b->dyn_id);
}

static int ctid_rehash(rl_ctid_map *m)
{
    size_t ns = m->nslots ? m->nslots * 2 : 1024;
    uint32_t *slots = calloc(ns, sizeof *slots);
    if (!slots)
        return -1;
    for (size_t i = 0; i < m->n; i++) {
        size_t s = m->e[i].hash & (ns - 1);
        while (slots[s])
            s = (s + 1) & (ns - 1);
        slots[s] = (uint32_t)(i + 1);
    }
    free(m->slots);
    m->slots = slots;
    m->nslots = ns;
    return 0;
}

/* The table's slot in the map; -1 if absent (and not created). */
static long ctid_table_find(const rl_ctid_map *m, const rl_table_desc *d)
{
    /* a transaction touches few tables: a linear search is enough */
    for (size_t i = 0; i < m->nt; i++)
        if (same_desc(m->t[i].d, d))
            return (long)i;
    return -1;
}

static long ctid_table_add(rl_ctid_map *m, const rl_table_desc *d)
{
    ctid_table *grown = rl_array_reserve(m->t, m->nt, &m->capt, sizeof *grown, 8);
    if (!grown)
        return -1;
    m->t = grown;
    m->t[m->nt] = (ctid_table){.d = d};
    return (long)m->nt++;
}

/* Append a new entry for (table ti, key); its number, or -1. */
static long ctid_entry_add(rl_ctid_map *m, size_t ti, const uint8_t *key, size_t klen,
                           uint64_t h)
{
    ctid_table *t = &m->t[ti];
    if (m->n >= UINT32_MAX - 1 || t->n >= (size_t)UINT16_MAX * RL_CTIDS_PER_BLOCK)
        return -1;
    if ((m->n + 1) * 2 > m->nslots && ctid_rehash(m) < 0)
        return -1;
    ctid_entry *entries = rl_array_reserve(m->e, m->n, &m->cap, sizeof *entries, 256);
    if (!entries)
        return -1;
    m->e = entries;
    uint32_t *ids = rl_array_reserve(t->entries, t->n, &t->cap, sizeof *ids, 64);
    if (!ids)
        return -1;
    t->entries = ids;
    uint8_t *k = malloc(klen ? klen : 1);
    if (!k)
        return -1;
    memcpy(k, key, klen);
    size_t i = m->n++;
    m->e[i] = (ctid_entry){.key = k, .klen = klen, .hash = h, .table = (uint32_t)ti,
                           .index = (uint32_t)t->n};
    t->entries[t->n++] = (uint32_t)i;
    size_t sl = h & (m->nslots - 1);
    while (m->slots[sl])
        sl = (sl + 1) & (m->nslots - 1);
    m->slots[sl] = (uint32_t)(i + 1);
    return (long)i;
}

bool rl_ctid_seq(const rl_table_desc *d, uint64_t ctid, uint64_t *seq)
{
    uint64_t off = ctid & 0xFFFF, block = ctid >> 16;
    if (!rl_desc_is_dynamic(d))
        return false;
    /* a tid no row sequence has names no row: an offset past the block's */
    *seq = off >= 1 && off <= RL_CTIDS_PER_BLOCK ? block * RL_CTIDS_PER_BLOCK + (off - 1)
                                                  : UINT64_MAX;
    return true;
}

uint64_t rl_ctid_for_key(rl_session *s, const rl_table_desc *d, const uint8_t *key,
                         size_t klen)
{
    uint64_t seq;
    if (rl_desc_is_dynamic(d) && rl_row_key_seq(d, key, klen, &seq) &&
        seq / RL_CTIDS_PER_BLOCK <= UINT32_MAX)
        return rl_ctid_of_index((size_t)seq);
    rl_ctid_map *m = s->ctids;
    if (!m && !(m = s->ctids = calloc(1, sizeof *m)))
        return 0;
    uint64_t h = entry_hash(d, key, klen);
    long ti = ctid_table_find(m, d);
    if (ti >= 0 && m->nslots) {
        for (size_t sl = h & (m->nslots - 1); m->slots[sl]; sl = (sl + 1) & (m->nslots - 1)) {
            const ctid_entry *e = &m->e[m->slots[sl] - 1];
            if (e->hash == h && e->table == (uint32_t)ti && e->klen == klen &&
                memcmp(e->key, key, klen) == 0)
                return rl_ctid_of_index(e->index);
        }
    }
    if (ti < 0 && (ti = ctid_table_add(m, d)) < 0)
        return 0;
    long i = ctid_entry_add(m, (size_t)ti, key, klen, h);
    return i < 0 ? 0 : rl_ctid_of_index(m->e[i].index);
}

int rl_ctid_lookup(rl_session *s, const rl_table_desc *d, uint64_t ctid, const uint8_t **key,
                   size_t *klen)
{
    const rl_ctid_map *m = s->ctids;
    uint64_t off = ctid & 0xFFFF, block = ctid >> 16;
    if (!m || off < 1 || off > RL_CTIDS_PER_BLOCK)
        return 0;
    long ti = ctid_table_find(m, d);
    uint64_t i = block * RL_CTIDS_PER_BLOCK + (off - 1);
    if (ti < 0 || i >= m->t[ti].n)
        return 0;
    const ctid_entry *e = &m->e[m->t[ti].entries[i]];
    *key = e->key;
    *klen = e->klen;
    return 1;
}

void rl_ctid_reset(rl_session *s)
{
    rl_ctid_map *m = s->ctids;
    if (!m)
        return;
    for (size_t i = 0; i < m->n; i++)
        free(m->e[i].key);
    for (size_t i = 0; i < m->nt; i++)
        free(m->t[i].entries);
    free(m->t);
    free(m->e);
    free(m->slots);
    free(m);
    s->ctids = NULL;
}

/* Like PostgreSQL's tidin: "(block,offset)", where block is an unsigned
 * 32-bit and offset an unsigned 16-bit number. DuckDB writes tids as
 * '(p,o)' including the quotes, which tidin tolerates, so surrounding
 * spaces and one pair of single quotes are accepted; anything else fails. */
static bool parse_uint(const char **p, const char *end, uint64_t max, uint64_t *out)
{
    while (*p < end && **p == ' ')
        (*p)++;
    uint64_t v = 0;
    size_t digits = 0;
    for (; *p < end && **p >= '0' && **p <= '9'; (*p)++, digits++) {
        v = v * 10 + (uint64_t)(**p - '0');
        if (v > max)
            return false;
    }
    while (*p < end && **p == ' ')
        (*p)++;
    *out = v;
    return digits > 0;
}

bool rl_tid_parse(const char *text, size_t len, uint64_t *ctid)
{
    const char *p = text, *end = text + len;
    while (p < end && (*p == ' ' || *p == '\t'))
        p++;
    while (end > p && (end[-1] == ' ' || end[-1] == '\t'))
        end--;
    if (end - p >= 2 && *p == '\'' && end[-1] == '\'') {
        p++;
        end--;
    }
    uint64_t block, off;
    if (p >= end || *p++ != '(')
        return false;
    if (!parse_uint(&p, end, UINT32_MAX, &block) || p >= end || *p++ != ',')
        return false;
    if (!parse_uint(&p, end, UINT16_MAX, &off) || p >= end || *p++ != ')' || p != end)
        return false;
    *ctid = block << 16 | off;
    return true;
}
