/*
 * counters.c — the catalog's counters and the audit row of each commit.
 *
 * Owns: the writer's counters in memory (loaded once, one writer per store,
 * so memory is the truth), taking row sequence numbers and discriminators,
 * the counters a transaction touched (written in its batch at the larger
 * of memory and what it needs), and the one audit row every commit writes.
 *
 * Invariants: every *_locked function runs under cat->lock (asserted); a
 * counter in memory never goes down; a counter is written in the same
 * batch as the rows it numbers.
 */
#include "catalog/catalog_int.h"

#include <assert.h>

#include "keys/keys.h"
#include "keys/tags.h"

/* Find or load a counter; caller holds cat->lock. NULL on store error. */
counter *cat_counter_locked(rl_catalog *cat, const char *name, rl_error *err)
{
    CAT_ASSERT_LOCKED(cat);
    for (size_t i = 0; i < cat->ncounters; i++)
        if (strcmp(cat->counters[i].name, name) == 0)
            return &cat->counters[i];
    rl_buf k;
    rl_buf_init(&k, 0);
    rl_key_counter(&k, name);
    uint8_t *v = NULL;
    size_t vlen = 0;
    int rc = cat_store_get(cat->kv, NULL, &k, &v, &vlen, "reading counter", err);
    if (rc < 0)
        return NULL;
    uint64_t value = rc == 1 && vlen == 8 ? rl_load_be64(v) : 0;
    free(v);
    counter *grown = rl_array_reserve(cat->counters, cat->ncounters, &cat->capcounters,
                                      sizeof *grown, 16);
    if (!grown) {
        rl_error_set(err, RL_SQLSTATE_INTERNAL, "out of memory");
        return NULL;
    }
    cat->counters = grown;
    counter *c = &cat->counters[cat->ncounters++];
    rl_str_copy(c->name, sizeof c->name, name);
    c->value = value;
    return c;
}

uint64_t rl_catalog_counter(rl_catalog *cat, const char *name)
{
    if (cat->read_only) {
        /* the writer moves a follower's counters: never cache them */
        rl_buf k;
        rl_buf_init(&k, 0);
        rl_key_counter(&k, name);
        uint8_t *v = NULL;
        size_t vlen = 0;
        int rc = kv_get(cat->kv, NULL, k.data, k.len, &v, &vlen, NULL);
        rl_buf_free(&k);
        uint64_t value = rc == 1 && vlen == 8 ? rl_load_be64(v) : 0;
        free(v);
        return value;
    }
    pthread_mutex_lock(&cat->lock);
    counter *c = cat_counter_locked(cat, name, NULL);
    uint64_t v = c ? c->value : 0;
    pthread_mutex_unlock(&cat->lock);
    return v;
}

uint64_t rl_catalog_next_snapshot_id(rl_catalog *cat)
{
    return rl_catalog_counter(cat, RL_COUNTER_NEXT_SNAPSHOT_ID);
}

/* Take the next number from counter `name`; caller holds cat->lock. */
int cat_alloc_seq_locked(rl_catalog *cat, const char *name, uint64_t *out, rl_error *err)
{
    CAT_ASSERT_LOCKED(cat);
    counter *c = cat_counter_locked(cat, name, err);
    if (c)
        *out = c->value++;
    return c ? 0 : -1;
}

/* Take the next row sequence number from counter `name`. */
int cat_alloc_seq(rl_catalog *cat, const char *name, uint64_t *out, rl_error *err)
{
    pthread_mutex_lock(&cat->lock);
    int rc = cat_alloc_seq_locked(cat, name, out, err);
    pthread_mutex_unlock(&cat->lock);
    return rc;
}

int cat_txn_alloc_seq(rl_txn *t, const char *name, uint64_t *out, rl_error *err)
{
    return t->locked ? cat_alloc_seq_locked(t->cat, name, out, err)
                     : cat_alloc_seq(t->cat, name, out, err);
}

int cat_touch_counter(rl_txn *t, const char *name, uint64_t at_least, rl_error *err)
{
    for (size_t i = 0; i < t->ntc; i++) {
        if (strcmp(t->tc[i].name, name) == 0) {
            if (at_least > t->tc[i].at_least)
                t->tc[i].at_least = at_least;
            return 0;
        }
    }
    touched_counter *grown = rl_array_reserve(t->tc, t->ntc, &t->captc, sizeof *grown, 8);
    if (!grown)
        return oom(err);
    t->tc = grown;
    rl_str_copy(t->tc[t->ntc].name, sizeof t->tc[t->ntc].name, name);
    t->tc[t->ntc].at_least = at_least;
    t->ntc++;
    return 0;
}

/* Counters go into the batch at the larger of memory and what the txn needs. */
int cat_add_counters_locked(rl_txn *t, kv_batch *b, uint64_t *values, rl_error *err)
{
    CAT_ASSERT_LOCKED(t->cat);
    rl_buf k;
    rl_buf_init(&k, 0);
    for (size_t i = 0; i < t->ntc; i++) {
        counter *c = cat_counter_locked(t->cat, t->tc[i].name, err);
        if (!c) {
            rl_buf_free(&k);
            return -1;
        }
        values[i] = c->value > t->tc[i].at_least ? c->value : t->tc[i].at_least;
        rl_buf_reset(&k);
        rl_key_counter(&k, t->tc[i].name);
        uint8_t v[8];
        rl_store_be64(v, values[i]);
        kv_batch_put(b, k.data, k.len, v, 8);
    }
    rl_buf_free(&k);
    return 0;
}

int cat_add_audit_locked(rl_txn *t, kv_batch *b, rl_error *err)
{
    CAT_ASSERT_LOCKED(t->cat);
    counter *seqc = cat_counter_locked(t->cat, RL_COUNTER_NEXT_COMMIT_SEQ, err);
    counter *snapc = cat_counter_locked(t->cat, RL_COUNTER_NEXT_SNAPSHOT_ID, err);
    if (!seqc || !snapc)
        return -1;
    uint64_t snap = t->inserted_snapshot ? t->max_snapshot_inserted
                    : snapc->value ? snapc->value - 1
                                   : 0;
    rl_datum row[RL_AUDIT_NCOLS];
    memset(row, 0, sizeof row);
    row[RL_AUDIT_SNAPSHOT_ID].v.i = (int64_t)snap;
    row[RL_AUDIT_SEQ].v.i = (int64_t)seqc->value;
    row[RL_AUDIT_TIME].v.i = cat_now_pg_micros();
    const char *texts[3] = {t->user, t->app, t->client};
    for (int i = 0; i < 3; i++) {
        row[RL_AUDIT_USER + i].v.s.p = (const uint8_t *)texts[i];
        row[RL_AUDIT_USER + i].v.s.len = strlen(texts[i]);
    }
    row[RL_AUDIT_STATEMENTS].v.i = (int64_t)t->statements;
    row[RL_AUDIT_CLAIMED_SNAPSHOT_ID].isnull = !t->rebased;
    row[RL_AUDIT_CLAIMED_SNAPSHOT_ID].v.i = (int64_t)t->claimed_sid;
    row[RL_AUDIT_BASE_SNAPSHOT_ID].isnull = !t->rebased;
    row[RL_AUDIT_BASE_SNAPSHOT_ID].v.i = (int64_t)t->base_sid;
    row[RL_AUDIT_ID_MAP].isnull = !t->rebased;
    row[RL_AUDIT_ID_MAP].v.s.p = (const uint8_t *)t->id_map;
    row[RL_AUDIT_ID_MAP].v.s.len = strlen(t->id_map);
    rl_buf k, v;
    rl_buf_init(&k, 0);
    rl_buf_init(&v, 0);
    rl_key_encode_row(&k, &rl_desc_audit, row, 0, NULL);
    rl_type types[RL_MAX_COLUMNS];
    int cols[RL_MAX_COLUMNS];
    rl_datum vals[RL_MAX_COLUMNS];
    size_t n = rl_desc_value_columns(&rl_desc_audit, RL_FMT_LATEST, types, cols);
    for (size_t i = 0; i < n; i++)
        vals[i] = row[cols[i]];
    rl_row_encode(&v, RL_TAG_AUDIT, n, types, vals);
    int rc = 0;
    if (k.failed || v.failed)
        rc = oom(err);
    else
        kv_batch_put(b, k.data, k.len, v.data, v.len);
    rl_buf_reset(&k);
    rl_key_counter(&k, RL_COUNTER_NEXT_COMMIT_SEQ);
    uint8_t next[8];
    rl_store_be64(next, seqc->value + 1);
    kv_batch_put(b, k.data, k.len, next, 8);
    rl_buf_free(&k);
    rl_buf_free(&v);
    return rc;
}
