/*
 * seqobj.c — sequences (CREATE SEQUENCE): their definitions and their
 * states. (Not commit sequencing: that is sequence.c.)
 *
 * Owns: the definitions (0x80 0C schema name -> rl_seq_def, whose byte form
 * is tabledef.c's, written through the transaction's overlay like any DDL),
 * and the states (0x80 0D
 * id -> last value, is_called), which are NOT transactional: nextval and
 * setval change the state in memory under cat->seq_lock and write it in a
 * batch of their own, as PostgreSQL's sequences escape their transaction.
 * nextval's arithmetic itself (rl_seq_state_advance) is pure, on a state
 * value: the SQL layer runs it on a session's temporary sequences too.
 *
 * Invariants:
 *  - a value nextval returned is never returned again: the state in memory
 *    is the truth on the one writer; before nextval returns a value beyond
 *    what the store holds, it writes the state RL_SEQ_LOG_VALS values ahead
 *    (PostgreSQL's SEQ_LOG_VALS) and waits until that write is durable,
 *    holding seq_lock, so no session returns a value of a range not yet
 *    durable; a crash then skips values, never repeats one;
 *  - a state key is only written for an id the counter next-sequence-id
 *    has passed, and the counter goes into that same batch, so an id whose
 *    creating transaction never committed is never handed out again after
 *    a restart (its stray state would be read as the new sequence's);
 *  - lock order: seq_lock, then cat->lock (for the counter).
 */
#include "catalog/catalog_int.h"

#include <assert.h>

#include "keys/keys.h"
#include "keys/tags.h"

typedef struct cat_seq_state {
    uint64_t id;
    rl_seq_state s;
} cat_seq_state;

/* --------------------------------------------------------- definitions */

static int corrupt(rl_error *err)
{
    return rl_error_set(err, RL_SQLSTATE_DATA_CORRUPTED,
                        "a sequence's definition (0x80 0C) does not decode");
}

/* The definition at k in the view: 1 with *out (and its bytes in *raw when
 * raw != NULL, malloc'd), 0 absent, -1 error. */
static int def_get(rl_txn *t, const rl_buf *k, rl_seq_def *out, uint8_t **raw, size_t *rawlen,
                   rl_error *err)
{
    uint8_t *v = NULL;
    size_t vl = 0;
    int rc = cat_view_get(t, k->data, k->len, &v, &vl, err);
    if (rc == 1 && !rl_seq_def_decode(v, vl, out))
        rc = corrupt(err);
    if (rc == 1 && raw) {
        *raw = v;
        *rawlen = vl;
        v = NULL;
    }
    free(v);
    return rc;
}

int rl_txn_get_sequence(rl_txn *t, const char *schema, const char *name, rl_seq_def *out,
                        rl_error *err)
{
    rl_buf k;
    rl_buf_init(&k, 0);
    rl_key_sequence(&k, schema, name);
    int rc = k.failed ? oom(err) : def_get(t, &k, out, NULL, NULL, err);
    rl_buf_free(&k);
    return rc;
}

int rl_txn_sequence_exists(rl_txn *t, const char *schema, const char *name, rl_error *err)
{
    rl_seq_def d;
    return rl_txn_get_sequence(t, schema, name, &d, err);
}

/* Write def at schema.name, a name cat_relation_name_free found free. */
static int def_put_new(rl_txn *t, const char *schema, const char *name, const rl_seq_def *def,
                       rl_error *err)
{
    rl_buf k, v;
    rl_buf_init(&k, 0);
    rl_buf_init(&v, 0);
    rl_key_sequence(&k, schema, name);
    rl_seq_def_encode(&v, def);
    int rc = k.failed || v.failed ? oom(err) : cat_ov_set(t, k.data, k.len, v.data, v.len, err);
    rl_buf_free(&k);
    rl_buf_free(&v);
    return rc;
}

/* A fresh id; the counter is written with the transaction (and with the
 * first state write, seq_state_write). */
static int new_id(rl_txn *t, uint64_t *id, rl_error *err)
{
    if (cat_txn_alloc_seq(t, RL_COUNTER_NEXT_SEQUENCE_ID, id, err) < 0)
        return -1;
    return cat_touch_counter(t, RL_COUNTER_NEXT_SEQUENCE_ID, *id + 1, err);
}

int rl_txn_create_sequence(rl_txn *t, const char *schema, const char *name, rl_seq_def *def,
                           bool if_not_exists, bool *created, rl_error *err)
{
    cat_relations_changed(t);
    *created = false;
    if (!cat_is_write_allowed(t, err))
        return -1;
    rl_error probe;
    memset(&probe, 0, sizeof probe);
    int rc = cat_relation_name_free(t, schema, name, &probe);
    if (rc < 0) {
        if (if_not_exists && strcmp(probe.sqlstate, RL_SQLSTATE_DUPLICATE_TABLE) == 0)
            return 0;
        if (err)
            *err = probe;
        return -1;
    }
    if (new_id(t, &def->id, err) < 0 || def_put_new(t, schema, name, def, err) < 0)
        return -1;
    *created = true;
    return 0;
}

/* The definition at schema.name read for a change: its key and bytes,
 * expected unchanged at COMMIT. 1, 0 absent, -1. */
static int def_take(rl_txn *t, const char *schema, const char *name, rl_buf *k, rl_seq_def *d,
                    rl_error *err)
{
    rl_key_sequence(k, schema, name);
    if (k->failed)
        return oom(err);
    uint8_t *raw = NULL;
    size_t rawlen = 0;
    int rc = def_get(t, k, d, &raw, &rawlen, err);
    if (rc == 1 &&
        cat_add_expectation(t, EXPECT_VALUE, k->data, k->len, raw, rawlen, NULL, NULL, err) < 0)
        rc = -1;
    free(raw);
    return rc;
}

/* The state key of id tombstoned with the transaction. */
static int state_drop(rl_txn *t, uint64_t id, rl_error *err)
{
    rl_buf k;
    rl_buf_init(&k, 0);
    rl_key_sequence_state(&k, id);
    int rc = k.failed ? oom(err) : cat_ov_set(t, k.data, k.len, NULL, 0, err);
    rl_buf_free(&k);
    return rc;
}

static int missing(const char *name, rl_error *err)
{
    return rl_error_set(err, RL_SQLSTATE_UNDEFINED_TABLE, "relation \"%s\" does not exist", name);
}

/* The existing sequence schema.name for a change (DROP, RENAME): its key
 * and definition, expected unchanged at COMMIT; 0, or -1 (42P01 absent). */
static int take_existing(rl_txn *t, const char *schema, const char *name, rl_buf *k,
                         rl_seq_def *d, rl_error *err)
{
    cat_relations_changed(t);
    if (!cat_is_write_allowed(t, err))
        return -1;
    int rc = def_take(t, schema, name, k, d, err);
    return rc == 0 ? missing(name, err) : rc < 0 ? -1 : 0;
}

int rl_txn_drop_sequence(rl_txn *t, const char *schema, const char *name, rl_error *err)
{
    rl_buf k;
    rl_buf_init(&k, 0);
    rl_seq_def d;
    int rc = take_existing(t, schema, name, &k, &d, err);
    if (rc == 0)
        rc = cat_ov_set(t, k.data, k.len, NULL, 0, err);
    if (rc == 0)
        rc = state_drop(t, d.id, err);
    rl_buf_free(&k);
    return rc;
}

int rl_txn_rename_sequence(rl_txn *t, const char *schema, const char *name, const char *new_name,
                           rl_error *err)
{
    rl_buf k;
    rl_buf_init(&k, 0);
    rl_seq_def d;
    int rc = take_existing(t, schema, name, &k, &d, err);
    if (rc == 0)
        rc = cat_relation_name_free(t, schema, new_name, err);
    if (rc == 0)
        rc = cat_ov_set(t, k.data, k.len, NULL, 0, err);
    if (rc == 0)
        rc = def_put_new(t, schema, new_name, &d, err);
    rl_buf_free(&k);
    return rc < 0 ? -1 : 0;
}

int rl_txn_alter_sequence(rl_txn *t, const char *schema, const char *name, rl_seq_def *def,
                          bool fresh, rl_error *err)
{
    rl_buf k, v;
    rl_buf_init(&k, 0);
    rl_buf_init(&v, 0);
    rl_seq_def old;
    int rc = take_existing(t, schema, name, &k, &old, err);
    if (rc == 0 && fresh)
        rc = state_drop(t, old.id, err) < 0 || new_id(t, &def->id, err) < 0 ? -1 : 0;
    else if (rc == 0)
        def->id = old.id;
    if (rc == 0) {
        rl_seq_def_encode(&v, def);
        rc = v.failed ? oom(err) : cat_ov_set(t, k.data, k.len, v.data, v.len, err);
    }
    rl_buf_free(&k);
    rl_buf_free(&v);
    return rc < 0 ? -1 : 0;
}

int rl_txn_list_sequences(rl_txn *t, const char *schema, rl_seq_visitor visit, void *ctx,
                          rl_error *err)
{
    rl_buf p;
    rl_buf_init(&p, 0);
    rl_key_sequence(&p, schema, NULL);
    rl_scan s;
    if (p.failed || cat_raw_scan_open(t, &s, p.data, p.len, err) < 0) {
        int rc = p.failed ? oom(err) : -1;
        rl_buf_free(&p);
        return rc;
    }
    const uint8_t *k, *v;
    size_t kl, vl;
    rl_buf names[2];
    rl_buf_init(&names[0], 0);
    rl_buf_init(&names[1], 0);
    int rc;
    while ((rc = cat_scan_merged_next(&s, &k, &kl, &v, &vl, err)) == 1) {
        rl_reader r;
        rl_reader_init(&r, k + RL_KEY_INDEX_PREFIX_LEN, kl - RL_KEY_INDEX_PREFIX_LEN);
        bool ok = true;
        for (int i = 0; i < 2 && ok; i++) {
            rl_buf_reset(&names[i]);
            ok = rl_key_get_str(&r, &names[i]) && names[i].len > 0 &&
                 names[i].len < RL_INDEX_NAME_MAX && !memchr(names[i].data, 0, names[i].len);
            rl_buf_put_u8(&names[i], 0);
            ok = ok && !names[i].failed;
        }
        rl_seq_def d;
        if (!ok || rl_reader_left(&r) || !rl_seq_def_decode(v, vl, &d)) {
            rc = corrupt(err);
            break;
        }
        if ((rc = visit(ctx, (const char *)names[0].data, (const char *)names[1].data, &d)) != 0)
            break;
    }
    kv_iter_free(s.it);
    rl_buf_free(&names[0]);
    rl_buf_free(&names[1]);
    rl_buf_free(&p);
    return rc;
}

/* -------------------------------------------------------------- states */

/* The state of def in memory, loaded from the store at first use (absent:
 * the definition's initial state); NULL with err. Under seq_lock. */
static cat_seq_state *state_locked(rl_catalog *cat, const rl_seq_def *def, rl_error *err)
{
    for (size_t i = 0; i < cat->nseqs; i++)
        if (cat->seqs[i].id == def->id)
            return &cat->seqs[i];
    rl_buf k;
    rl_buf_init(&k, 0);
    rl_key_sequence_state(&k, def->id);
    uint8_t *v = NULL;
    size_t vl = 0;
    int rc = cat_store_get(cat->kv, NULL, &k, &v, &vl, "reading a sequence", err); /* frees k */
    if (rc < 0)
        return NULL;
    rl_seq_state s = {def->initial, 0, def->initial_called};
    if (rc == 1) {
        if (vl != 9 || v[8] > 1) {
            free(v);
            rl_error_set(err, RL_SQLSTATE_DATA_CORRUPTED,
                         "a sequence's state (0x80 0D) does not decode");
            return NULL;
        }
        s = (rl_seq_state){(int64_t)rl_load_be64(v), 0, v[8] == 1};
    }
    free(v);
    if (cat->read_only) { /* the writer moves it: never cached */
        static _Thread_local cat_seq_state once;
        once = (cat_seq_state){def->id, s};
        return &once;
    }
    cat_seq_state *grown = rl_array_reserve(cat->seqs, cat->nseqs, &cat->capseqs, sizeof *grown, 8);
    if (!grown) {
        oom(err);
        return NULL;
    }
    cat->seqs = grown;
    cat->seqs[cat->nseqs] = (cat_seq_state){def->id, s};
    return &cat->seqs[cat->nseqs++];
}

/* The state (last_value, is_called) of id made durable, with the id
 * counter past id. Under seq_lock: waits for the write. */
static int state_write_locked(rl_catalog *cat, uint64_t id, int64_t last_value, bool is_called,
                              rl_error *err)
{
    if (rl_catalog_failed(cat))
        return cat_store_failed_error(cat, err);
    rl_buf k, v, ck;
    rl_buf_init(&k, 0);
    rl_buf_init(&v, 0);
    rl_buf_init(&ck, 0);
    rl_key_sequence_state(&k, id);
    rl_buf_put_be64(&v, (uint64_t)last_value);
    rl_buf_put_u8(&v, is_called ? 1 : 0);
    rl_key_counter(&ck, RL_COUNTER_NEXT_SEQUENCE_ID);
    uint8_t cv[8];
    kv_batch *b = kv_batch_new();
    kv_pending *in_flight = NULL;
    kv_error ke;
    int rc = -1;
    if (!b || k.failed || v.failed || ck.failed) {
        oom(err);
        goto out;
    }
    kv_batch_put(b, k.data, k.len, v.data, v.len);
    pthread_mutex_lock(&cat->lock);
    counter *c = cat_counter_locked(cat, RL_COUNTER_NEXT_SEQUENCE_ID, err);
    if (c) {
        if (c->value <= id)
            c->value = id + 1;
        rl_store_be64(cv, c->value);
        kv_batch_put(b, ck.data, ck.len, cv, sizeof cv);
        if (kv_write_begin(cat->kv, b, &in_flight, &ke) < 0) {
            cat_note_store_failure(cat, &ke);
            cat_kv_fail(err, &ke, "writing a sequence");
            cat_hint_store_failed(cat, err);
        } else {
            rc = 0;
        }
    }
    pthread_mutex_unlock(&cat->lock);
    if (in_flight && cat_write_wait(cat, in_flight, "writing a sequence", err) < 0)
        rc = -1;
out:
    kv_batch_free(b);
    rl_buf_free(&k);
    rl_buf_free(&v);
    rl_buf_free(&ck);
    return rc;
}

static int refuse_follower(rl_catalog *cat, const char *fn, rl_error *err)
{
    if (!cat->read_only)
        return 0;
    rl_error_set(err, RL_SQLSTATE_READ_ONLY_SQL_TRANSACTION,
                 "cannot execute %s() in a read-only transaction", fn);
    rl_error_hint(err, "send writes to the writer server of this store");
    return -1;
}

/* One step of nextval from *next: 1 stepped, 0 at the end (no CYCLE
 * wraps it: *next wrapped when cycle). PostgreSQL's overflow-safe tests. */
static int step(const rl_seq_def *d, int64_t *next)
{
    int64_t inc = d->increment, n = *next;
    bool end = inc > 0 ? (d->max >= 0 && n > d->max - inc) || (d->max < 0 && n + inc > d->max)
                       : (d->min < 0 && n < d->min - inc) || (d->min >= 0 && n + inc < d->min);
    if (!end) {
        *next = n + inc;
        return 1;
    }
    if (!d->cycle)
        return 0;
    *next = inc > 0 ? d->min : d->max;
    return 1;
}

int rl_seq_state_advance(const rl_seq_def *d, const char *name, bool unlogged,
                         rl_seq_state *s, int64_t *first, int64_t *last_out, bool *logit,
                         int64_t *log_value, rl_error *err)
{
    /* PostgreSQL's nextval_internal: take `cache` values, and log
     * RL_SEQ_LOG_VALS more ahead when the logged ones run out */
    int64_t next = s->last_value, last = next, result = next;
    int64_t fetch = d->cache, log = s->log_cnt, rescnt = 0;
    *logit = false;
    if (!s->is_called) {
        rescnt++;
        fetch--;
    }
    if (log < fetch || !s->is_called || unlogged) {
        fetch = log = fetch + RL_SEQ_LOG_VALS;
        *logit = true;
    }
    while (fetch) {
        if (!step(d, &next)) {
            if (rescnt > 0)
                break;
            rl_error_set(err, RL_SQLSTATE_SEQUENCE_GENERATOR_LIMIT_EXCEEDED,
                         "nextval: reached %s value of sequence \"%s\" (%lld)",
                         d->increment > 0 ? "maximum" : "minimum", name,
                         (long long)(d->increment > 0 ? d->max : d->min));
            return -1;
        }
        fetch--;
        if (rescnt < d->cache) {
            log--;
            rescnt++;
            last = next;
            if (rescnt == 1)
                result = next;
        }
    }
    log -= fetch;
    assert(log >= 0);
    *log_value = next;
    *s = (rl_seq_state){last, log, true};
    *first = result;
    *last_out = last;
    return 0;
}

int rl_txn_sequence_next(rl_txn *t, const char *name, const rl_seq_def *d, int64_t *first,
                         int64_t *last_out, rl_error *err)
{
    rl_catalog *cat = t->cat;
    if (refuse_follower(cat, "nextval", err) < 0)
        return -1;
    pthread_mutex_lock(&cat->seq_lock);
    int rc = -1;
    cat_seq_state *st = state_locked(cat, d, err);
    rl_seq_state s = st ? st->s : (rl_seq_state){0, 0, false};
    bool logit;
    int64_t logged;
    if (!st || rl_seq_state_advance(d, name, false, &s, first, last_out, &logit, &logged, err) < 0)
        goto out;
    if (logit && state_write_locked(cat, d->id, logged, true, err) < 0)
        goto out;
    st->s = s;
    rc = 0;
out:
    pthread_mutex_unlock(&cat->seq_lock);
    return rc;
}

int rl_txn_sequence_set(rl_txn *t, const rl_seq_def *d, int64_t value, bool is_called,
                        rl_error *err)
{
    rl_catalog *cat = t->cat;
    if (refuse_follower(cat, "setval", err) < 0)
        return -1;
    assert(value >= d->min && value <= d->max);
    pthread_mutex_lock(&cat->seq_lock);
    cat_seq_state *st = state_locked(cat, d, err);
    int rc = st ? state_write_locked(cat, d->id, value, is_called, err) : -1;
    if (rc == 0)
        st->s = (rl_seq_state){value, 0, is_called};
    pthread_mutex_unlock(&cat->seq_lock);
    return rc;
}

int rl_txn_sequence_log_reset(rl_txn *t, const rl_seq_def *d, rl_error *err)
{
    rl_catalog *cat = t->cat;
    pthread_mutex_lock(&cat->seq_lock);
    cat_seq_state *st = state_locked(cat, d, err);
    int rc = st ? 0 : -1;
    /* the last value handed out (a session's cached ones included) made
     * the stored one: no value is given twice after a crash */
    if (st && st->s.log_cnt > 0) {
        rc = state_write_locked(cat, d->id, st->s.last_value, st->s.is_called, err);
        if (rc == 0)
            st->s.log_cnt = 0;
    }
    pthread_mutex_unlock(&cat->seq_lock);
    return rc;
}

int rl_txn_sequence_state(rl_txn *t, const rl_seq_def *d, rl_seq_state *out, rl_error *err)
{
    rl_catalog *cat = t->cat;
    pthread_mutex_lock(&cat->seq_lock);
    cat_seq_state *st = state_locked(cat, d, err);
    if (st)
        *out = st->s;
    pthread_mutex_unlock(&cat->seq_lock);
    return st ? 0 : -1;
}

void cat_seq_write_back(rl_catalog *cat)
{
    pthread_mutex_lock(&cat->seq_lock);
    for (size_t i = 0; i < cat->nseqs; i++) {
        rl_seq_state *s = &cat->seqs[i].s;
        if (s->log_cnt == 0) /* the store holds it already (or logged ahead of it) */
            continue;
        s->log_cnt = 0;
        rl_error e;
        memset(&e, 0, sizeof e);
        if (state_write_locked(cat, cat->seqs[i].id, s->last_value, s->is_called, &e) < 0)
            break; /* the logged state stays: values skipped, none repeated */
    }
    pthread_mutex_unlock(&cat->seq_lock);
}
