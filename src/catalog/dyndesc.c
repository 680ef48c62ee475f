/*
 * dyndesc.c — dynamic tables' definitions: the byte form of their column
 * lists, their descriptors, and the catalog's cache of them.
 *
 * Owns: rl_dynamic_desc_decode / _free, the descriptor cache (dyns and its
 * open-addressing index dyn_slots, under cat->lock), loading a definition
 * through a transaction's view.
 *
 * Invariants: a cached descriptor lives as long as the catalog (freed by
 * rl_catalog_close) and is never replaced: the first one cached for an id
 * wins; dyn_nslots is 0 or a power of two at least twice ndyns.
 */
#include "catalog/catalog_int.h"

#include <assert.h>
#include <inttypes.h>
#include <stdio.h>

#include "keys/keys.h"
#include "keys/tags.h"

/* --------------------------------------------------------- dynamic tables */

/* Column list of a dynamic table as stored in its definition row:
 * uvarint n, then per column uvarint name length, name, u8 type, u8 flags
 * (bit 0 NOT NULL, bit 1 a zigzag-varint typmod follows). */
#define DYN_COL_NOT_NULL 0x01
#define DYN_COL_TYPMOD 0x02

void cat_encode_dyn_columns(rl_buf *b, size_t ncols, const rl_column_desc *cols)
{
    rl_buf_put_uvarint(b, ncols);
    for (size_t i = 0; i < ncols; i++) {
        rl_buf_put_uvarint(b, strlen(cols[i].name));
        rl_buf_put_str(b, cols[i].name);
        rl_buf_put_u8(b, (uint8_t)cols[i].type);
        uint8_t flags = (cols[i].not_null ? DYN_COL_NOT_NULL : 0) |
                        (cols[i].typmod > 0 ? DYN_COL_TYPMOD : 0);
        rl_buf_put_u8(b, flags);
        if (flags & DYN_COL_TYPMOD)
            rl_buf_put_svarint(b, cols[i].typmod);
    }
}

void rl_dynamic_desc_free(rl_table_desc *d)
{
    if (!d)
        return;
    for (size_t i = 0; i < d->ncols_max; i++)
        free((char *)d->cols[i].name);
    free((rl_column_desc *)d->cols);
    free((char *)d->name);
    free(d);
}

rl_table_desc *cat_dyn_desc_new(uint64_t id, const char *name, size_t ncols)
{
    if (ncols > RL_MAX_COLUMNS)
        return NULL;
    rl_table_desc *d = calloc(1, sizeof *d);
    rl_column_desc *cols = calloc(ncols ? ncols : 1, sizeof *cols);
    char *nm = strdup(name);
    if (!d || !cols || !nm) {
        free(d);
        free(cols);
        free(nm);
        return NULL;
    }
    d->tag = RL_TAG_DYNAMIC_ROW;
    d->name = nm;
    d->since = RL_FMT_1_0;
    d->ncols_max = (uint8_t)ncols;
    d->cols = cols;
    d->nkey = 1;
    d->key[0] = RL_KEY_SEQ;
    d->begin_col = d->end_col = d->pk_col = -1;
    d->counter_col = -1;
    d->dyn_id = id;
    return d;
}

rl_table_desc *rl_dynamic_desc_decode(uint64_t dyn_id, const uint8_t *val, size_t vlen,
                                      char *schema_out, size_t schema_n)
{
    rl_type types[RL_MAX_COLUMNS];
    rl_datum vals[RL_MAX_COLUMNS];
    size_t n = rl_desc_value_columns(&rl_desc_dynamic_table, RL_FMT_LATEST, types, NULL);
    if (rl_row_decode(val, vlen, RL_TAG_DYNAMIC_TABLE, n, types, NULL, vals, NULL, 0) !=
        RL_CODEC_OK)
        return NULL;
    /* value columns: schema_name, table_name, columns */
    if (vals[0].isnull || vals[1].isnull || vals[2].isnull)
        return NULL;
    if (schema_out)
        snprintf(schema_out, schema_n, "%.*s", (int)vals[0].v.s.len, (const char *)vals[0].v.s.p);
    char name[256];
    snprintf(name, sizeof name, "%.*s", (int)vals[1].v.s.len, (const char *)vals[1].v.s.p);
    rl_reader r;
    rl_reader_init(&r, vals[2].v.s.p, vals[2].v.s.len);
    uint64_t ncols;
    if (!rl_reader_uvarint(&r, &ncols) || ncols > RL_MAX_COLUMNS)
        return NULL;
    rl_table_desc *d = cat_dyn_desc_new(dyn_id, name, (size_t)ncols);
    if (!d)
        return NULL;
    rl_column_desc *cols = (rl_column_desc *)d->cols;
    for (size_t i = 0; i < ncols; i++) {
        uint64_t len;
        const uint8_t *p;
        uint8_t type, nn;
        if (!rl_reader_uvarint(&r, &len) || len > 1024 || !rl_reader_bytes(&r, len, &p) ||
            !rl_reader_u8(&r, &type) || !rl_reader_u8(&r, &nn) || type == 0 ||
            type >= RL_T_MAX_ || !(cols[i].name = strndup((const char *)p, len))) {
            d->ncols_max = (uint8_t)i; /* free only what was filled */
            rl_dynamic_desc_free(d);
            return NULL;
        }
        int64_t typmod = 0;
        if (nn & ~(DYN_COL_NOT_NULL | DYN_COL_TYPMOD) ||
            ((nn & DYN_COL_TYPMOD) &&
             (!rl_reader_svarint(&r, &typmod) || typmod <= 0 || typmod > INT32_MAX))) {
            d->ncols_max = (uint8_t)(i + 1);
            rl_dynamic_desc_free(d);
            return NULL;
        }
        cols[i].type = (rl_type)type;
        cols[i].not_null = (nn & DYN_COL_NOT_NULL) != 0;
        cols[i].since = RL_FMT_1_0;
        cols[i].typmod = (int32_t)typmod;
    }
    return d;
}

/* The slot of dyn_id in cat's index: where it is, or the empty slot where
 * it would go (under cat->lock; dyn_nslots > 0). Listing a 10,000-table
 * catalog resolves every table's descriptor, so this is a hash lookup and
 * not a walk of the cache. */
static size_t dyn_slot(const rl_catalog *cat, uint64_t id)
{
    CAT_ASSERT_LOCKED((rl_catalog *)cat);
    size_t mask = cat->dyn_nslots - 1;
    size_t s = (size_t)((id * 0x9E3779B97F4A7C15ull) >> 17) & mask;
    while (cat->dyn_slots[s] && cat->dyns[cat->dyn_slots[s] - 1].desc->dyn_id != id)
        s = (s + 1) & mask;
    return s;
}

static const rl_table_desc *dyn_find(const rl_catalog *cat, uint64_t id)
{
    CAT_ASSERT_LOCKED((rl_catalog *)cat);
    if (cat->dyn_nslots == 0)
        return NULL;
    uint32_t at = cat->dyn_slots[dyn_slot(cat, id)];
    return at ? cat->dyns[at - 1].desc : NULL;
}

/* Index dyns[i] (under cat->lock), growing the index to keep it half
 * empty. false when out of memory (the entry is then unindexed: callers
 * undo the append). */
static bool dyn_index(rl_catalog *cat, size_t i)
{
    CAT_ASSERT_LOCKED(cat);
    if (2 * (cat->ndyns + 1) > cat->dyn_nslots) {
        size_t n = cat->dyn_nslots ? cat->dyn_nslots * 2 : 64;
        uint32_t *slots = calloc(n, sizeof *slots);
        if (!slots)
            return false;
        free(cat->dyn_slots);
        cat->dyn_slots = slots;
        cat->dyn_nslots = n;
        for (size_t j = 0; j < i; j++)
            cat->dyn_slots[dyn_slot(cat, cat->dyns[j].desc->dyn_id)] = (uint32_t)(j + 1);
    }
    cat->dyn_slots[dyn_slot(cat, cat->dyns[i].desc->dyn_id)] = (uint32_t)(i + 1);
    return true;
}

/* Cache a descriptor in the catalog (which owns it from then on). */
const rl_table_desc *cat_dyn_cache_put(rl_catalog *cat, rl_table_desc *d, const char *schema)
{
    pthread_mutex_lock(&cat->lock);
    const rl_table_desc *have = dyn_find(cat, d->dyn_id);
    if (have) {
        pthread_mutex_unlock(&cat->lock);
        rl_dynamic_desc_free(d);
        return have;
    }
    dyn_entry *grown = cat->ndyns < UINT32_MAX - 1
                           ? rl_array_reserve(cat->dyns, cat->ndyns, &cat->capdyns, sizeof *grown, 16)
                           : NULL;
    if (!grown) {
        pthread_mutex_unlock(&cat->lock);
        rl_dynamic_desc_free(d);
        return NULL;
    }
    cat->dyns = grown;
    cat->dyns[cat->ndyns].desc = d;
    snprintf(cat->dyns[cat->ndyns].schema, sizeof cat->dyns[0].schema, "%s", schema);
    if (!dyn_index(cat, cat->ndyns)) {
        pthread_mutex_unlock(&cat->lock);
        rl_dynamic_desc_free(d);
        return NULL;
    }
    cat->ndyns++;
    assert(dyn_find(cat, d->dyn_id) == d);
    pthread_mutex_unlock(&cat->lock);
    return d;
}

const rl_table_desc *cat_dyn_load(rl_txn *t, uint64_t id, rl_error *err)
{
    pthread_mutex_lock(&t->cat->lock);
    const rl_table_desc *cached = dyn_find(t->cat, id);
    pthread_mutex_unlock(&t->cat->lock);
    if (cached)
        return cached;
    rl_buf k;
    rl_buf_init(&k, 0);
    rl_key_dynamic_table(&k, id);
    uint8_t *v = NULL;
    size_t vlen = 0;
    int rc = cat_view_get(t, k.data, k.len, &v, &vlen, err);
    rl_buf_free(&k);
    if (rc <= 0) {
        if (rc == 0)
            rl_error_set(err, RL_SQLSTATE_DATA_CORRUPTED,
                         "dynamic table %" PRIu64 " is indexed but has no definition", id);
        return NULL;
    }
    char schema[128];
    rl_table_desc *d = rl_dynamic_desc_decode(id, v, vlen, schema, sizeof schema);
    free(v);
    if (!d) {
        rl_error_set(err, RL_SQLSTATE_DATA_CORRUPTED,
                     "definition of dynamic table %" PRIu64 " does not decode", id);
        return NULL;
    }
    return cat_dyn_cache_put(t->cat, d, schema);
}
