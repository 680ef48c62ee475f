/*
 * dyndesc.c — the catalog's caches of table descriptors: dynamic tables'
 * and extended fixed tables'.
 *
 * Owns: the descriptor cache of dynamic tables (dyns and its open-addressing
 * index dyn_slots, under cat->lock), loading a definition through a
 * transaction's view; the cache of DuckLake fixed tables extended with a
 * client's own trailing columns (exts, keyed by the name index value that
 * declares them). Their byte forms are tabledef.c's.
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

const rl_table_desc *cat_fixed_ext_load(rl_catalog *cat, const rl_table_desc *base,
                                        const uint8_t *val, size_t vlen)
{
    pthread_mutex_lock(&cat->lock);
    for (size_t i = 0; i < cat->nexts; i++)
        if (cat->exts[i].len == vlen && memcmp(cat->exts[i].val, val, vlen) == 0) {
            const rl_table_desc *d = cat->exts[i].desc;
            pthread_mutex_unlock(&cat->lock);
            return d;
        }
    pthread_mutex_unlock(&cat->lock);
    rl_name_entry e;
    if (!rl_name_entry_decode(val, vlen, &e) || !e.ext)
        return NULL;
    rl_table_desc *d = rl_fixed_desc_extend(base, e.ext_fmt, e.ext, e.ext_len);
    uint8_t *copy = d ? malloc(vlen) : NULL;
    if (!copy) {
        rl_dynamic_desc_free(d);
        return NULL;
    }
    memcpy(copy, val, vlen);
    pthread_mutex_lock(&cat->lock);
    ext_entry *grown = rl_array_reserve(cat->exts, cat->nexts, &cat->capexts, sizeof *grown, 4);
    if (!grown) {
        pthread_mutex_unlock(&cat->lock);
        free(copy);
        rl_dynamic_desc_free(d);
        return NULL;
    }
    cat->exts = grown;
    cat->exts[cat->nexts++] = (ext_entry){copy, vlen, d};
    pthread_mutex_unlock(&cat->lock);
    return d; /* a racing load of the same entry keeps its own: both live as long as cat */
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
