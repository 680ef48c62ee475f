/*
 * scan.c — reads in a transaction: point gets, prefix scans that merge the
 * overlay over the snapshot, scans through the live-row index, and MVCC
 * visibility of a row.
 *
 * Owns: struct rl_scan's life, rl_txn_get, rl_txn_scan / _scan_live,
 * rl_scan_seek/next/free, rl_row_visible_at, raw scans of index keys.
 *
 * Invariants: reads only (never writes the overlay or calls commit or
 * sequencing), so commit sequencing (sequence.c) reads through this file
 * without a circle; the overlay shadows the store key for key, and a
 * tombstone hides the stored row; a live scan walks index order, which is
 * primary key order, so its row iterator only seeks forward.
 */
#include "catalog/catalog_int.h"


#include "keys/keys.h"
#include "keys/tags.h"

/* Live scans read each row through one forward iterator over the primary
 * key range, seeking from live key to live key: index order equals primary
 * key order, so the seeks only move forward and neighbouring rows share
 * blocks, which is far cheaper than a point read per row. */
static int live_fetch(rl_scan *s, const uint8_t *pk, size_t pkl, const uint8_t **v, size_t *vl,
                      rl_error *err)
{
    pending *p = cat_ov_find(s->txn, pk, pkl);
    if (p) {
        *v = p->val;
        *vl = p->vlen;
        return p->val != NULL;
    }
    kv_error ke;
    if (!s->rows) {
        /* index prefix 80 01 <tag> <fields> -> primary prefix <tag> <fields> */
        s->rows = kv_scan_prefix(s->txn->cat->kv, s->txn->snap, s->prefix + 2, s->plen - 2, &ke);
        if (!s->rows)
            return cat_kv_fail(err, &ke, "scanning");
    }
    if (kv_iter_seek(s->rows, pk, pkl, &ke) < 0)
        return cat_kv_fail(err, &ke, "scanning");
    const uint8_t *k;
    size_t kl;
    int rc = kv_iter_next(s->rows, &k, &kl, v, vl, &ke);
    if (rc < 0)
        return cat_kv_fail(err, &ke, "scanning");
    return rc == 1 && rl_bytes_cmp(k, kl, pk, pkl) == 0;
}

static int scan_advance_store(rl_scan *s, rl_error *err)
{
    if (s->it_done)
        return 0;
    kv_error ke;
    int rc = kv_iter_next(s->it, &s->ik, &s->ikl, &s->iv, &s->ivl, &ke);
    if (rc < 0)
        return cat_kv_fail(err, &ke, "scanning");
    if (rc == 0) {
        s->it_done = true;
        s->it_have = false;
        return 0;
    }
    s->keys_read++;
    s->it_have = true;
    return 0;
}

static bool ov_in_prefix(const rl_scan *s, size_t i)
{
    const pending *p = &s->txn->ov[i];
    return i < s->txn->nov && p->klen >= s->plen && memcmp(p->key, s->prefix, s->plen) == 0;
}

/* Next merged (overlay over store) pair under the prefix; tombstones are
 * skipped. 1 = pair, 0 = end, -1 = error. */
int cat_scan_merged_next(rl_scan *s, const uint8_t **k, size_t *kl, const uint8_t **v,
                            size_t *vl, rl_error *err)
{
    for (;;) {
        bool have_ov = s->ovi < s->txn->nov && ov_in_prefix(s, s->ovi);
        if (!s->it_have && !s->it_done && scan_advance_store(s, err) < 0)
            return -1;
        if (!have_ov && !s->it_have)
            return 0;
        int c = !have_ov ? -1
                : !s->it_have
                    ? 1
                    : rl_bytes_cmp(s->ik, s->ikl, s->txn->ov[s->ovi].key, s->txn->ov[s->ovi].klen);
        if (c < 0) { /* store only */
            *k = s->ik, *kl = s->ikl, *v = s->iv, *vl = s->ivl;
            s->it_have = false;
            return 1;
        }
        const pending *p = &s->txn->ov[s->ovi++];
        if (c == 0)
            s->it_have = false; /* the overlay shadows the store */
        if (!p->val)
            continue;
        *k = p->key, *kl = p->klen, *v = p->val, *vl = p->vlen;
        return 1;
    }
}

/* The store key a scan of d reads from at fields[0..nfields): their
 * primary-key prefix, or for a live scan its live-index form, in *out.
 * Anything but RL_KEY_OK means the fields name no stored key. */
static rl_key_status scan_key(const rl_table_desc *d, bool live, const rl_datum *fields,
                              size_t nfields, rl_buf *out)
{
    if (!live)
        return rl_key_encode_prefix(out, d, fields, nfields);
    rl_buf pk;
    rl_buf_init(&pk, 0);
    rl_key_status ks = rl_key_encode_prefix(&pk, d, fields, nfields);
    if (ks == RL_KEY_OK)
        rl_key_live_index(out, d->tag, pk.data, pk.len);
    rl_buf_free(&pk);
    return ks;
}

static rl_scan *scan_open(rl_txn *t, const rl_table_desc *d, const rl_datum *fields,
                          size_t nfields, bool live, rl_error *err)
{
    if (live && !d->live_index) {
        rl_error_set(err, RL_SQLSTATE_INTERNAL, "relation \"%s\" has no live-row index", d->name);
        return NULL;
    }
    rl_scan *s = calloc(1, sizeof *s);
    if (!s) {
        oom(err);
        return NULL;
    }
    s->txn = t;
    s->d = d;
    s->live = live;
    rl_buf_init(&s->arena, 0);
    rl_buf_init(&s->fetched_key, 0);
    rl_buf p;
    rl_buf_init(&p, 0);
    rl_key_status ks = scan_key(d, live, fields, nfields, &p);
    if (ks != RL_KEY_OK) {
        rl_buf_free(&p);
        rl_scan_free(s);
        /* a NULL or negative id can match no stored key: an empty scan */
        s = calloc(1, sizeof *s);
        if (!s) {
            oom(err);
            return NULL;
        }
        s->txn = t;
        s->d = d;
        s->it_done = true;
        cat_ov_settle(t); /* past every buffered write */
        s->ovi = t->nov;
        rl_buf_init(&s->arena, 0);
        rl_buf_init(&s->fetched_key, 0);
        return s;
    }
    s->prefix = rl_buf_steal(&p, &s->plen);
    kv_error ke;
    s->it = s->prefix ? kv_scan_prefix(t->cat->kv, t->snap, s->prefix, s->plen, &ke) : NULL;
    if (!s->it) {
        if (s->prefix)
            cat_kv_fail(err, &ke, "starting a scan");
        else
            oom(err);
        rl_scan_free(s);
        return NULL;
    }
    s->ovi = cat_ov_lower_bound(t, s->prefix, s->plen);
    return s;
}

rl_scan *rl_txn_scan(rl_txn *t, const rl_table_desc *d, const rl_datum *fields, size_t nfields,
                     rl_error *err)
{
    return scan_open(t, d, fields, nfields, false, err);
}

rl_scan *rl_txn_scan_live(rl_txn *t, const rl_table_desc *d, const rl_datum *fields,
                          size_t nfields, rl_error *err)
{
    return scan_open(t, d, fields, nfields, true, err);
}

int rl_scan_seek(rl_scan *s, const rl_datum *fields, size_t nfields, rl_error *err)
{
    /* catalog.h: before the first rl_scan_next, with the bound as the last field */
    assert(!s->started && nfields >= 1);
    if (!s->it)
        return 0; /* an empty scan */
    rl_buf key;
    rl_buf_init(&key, 0);
    int rc = 0;
    if (scan_key(s->d, s->live, fields, nfields, &key) == RL_KEY_OK) {
        kv_error ke;
        if (key.failed)
            rc = oom(err);
        else if (kv_iter_seek(s->it, key.data, key.len, &ke) < 0)
            rc = cat_kv_fail(err, &ke, "seeking in a scan");
        else {
            s->it_have = false;
            size_t ovi = cat_ov_lower_bound(s->txn, key.data, key.len);
            if (ovi > s->ovi)
                s->ovi = ovi;
        }
    }
    rl_buf_free(&key);
    return rc;
}

int rl_scan_next(rl_scan *s, const rl_row **out, rl_error *err)
{
    s->started = true;
    for (;;) {
        const uint8_t *k, *v;
        size_t kl, vl;
        int rc = cat_scan_merged_next(s, &k, &kl, &v, &vl, err);
        if (rc <= 0)
            return rc;
        if (s->live) {
            /* index key 80 01 tag <rest> -> primary key tag <rest> */
            rl_buf_reset(&s->fetched_key);
            rl_buf_put(&s->fetched_key, k + 2, kl - 2);
            int g = live_fetch(s, s->fetched_key.data, s->fetched_key.len, &v, &vl, err);
            if (g < 0)
                return -1;
            s->keys_read++;
            if (g == 0)
                continue; /* index entry without row: check reports it */
            k = s->fetched_key.data, kl = s->fetched_key.len;
        }
        if (cat_decode_row(s->txn, s->d, k, kl, v, vl, &s->row, &s->arena, err) < 0)
            return -1;
        *out = &s->row;
        return 1;
    }
}

uint64_t rl_scan_keys_read(const rl_scan *s) { return s->keys_read; }

void rl_scan_free(rl_scan *s)
{
    if (!s)
        return;
    kv_iter_free(s->it);
    kv_iter_free(s->rows);
    free(s->prefix);
    rl_buf_free(&s->arena);
    rl_buf_free(&s->fetched_key);
    free(s);
}

/* The row of d at t->get_key, decoded into t->get_row: 1, 0 none, -1. */
static int get_at_get_key(rl_txn *t, const rl_table_desc *d, const rl_row **out, rl_error *err)
{
    free(t->get_val);
    t->get_val = NULL;
    size_t vlen = 0;
    int rc = cat_view_get(t, t->get_key.data, t->get_key.len, &t->get_val, &vlen, err);
    if (rc <= 0)
        return rc;
    if (cat_decode_row(t, d, t->get_key.data, t->get_key.len, t->get_val, vlen, &t->get_row,
                       &t->get_arena, err) < 0)
        return -1;
    *out = &t->get_row;
    return 1;
}

int rl_txn_get(rl_txn *t, const rl_table_desc *d, const rl_datum *fields, const rl_row **out,
               rl_error *err)
{
    rl_buf_reset(&t->get_key);
    if (rl_key_encode_prefix(&t->get_key, d, fields, d->nkey) != RL_KEY_OK)
        return 0;
    return get_at_get_key(t, d, out, err);
}

int rl_txn_get_key(rl_txn *t, const rl_table_desc *d, const uint8_t *key, size_t klen,
                   const rl_row **out, rl_error *err)
{
    rl_buf_reset(&t->get_key);
    rl_buf_put(&t->get_key, key, klen);
    return t->get_key.failed ? oom(err) : get_at_get_key(t, d, out, err);
}

bool rl_row_visible_at(const rl_row *row, uint64_t snapshot)
{
    const rl_table_desc *d = row->d;
    if (d->begin_col < 0)
        return true;
    const rl_datum *b = &row->vals[d->begin_col], *e = &row->vals[d->end_col];
    if (b->isnull || (uint64_t)b->v.i > snapshot)
        return false;
    return e->isnull || (uint64_t)e->v.i > snapshot;
}

/* A merged (overlay over store) scan of raw keys under `prefix`, which the
 * caller owns and keeps alive; read with cat_scan_merged_next, end with
 * kv_iter_free(s->it). */
int cat_raw_scan_open(rl_txn *t, rl_scan *s, uint8_t *prefix, size_t plen, rl_error *err)
{
    memset(s, 0, sizeof *s);
    s->txn = t;
    s->prefix = prefix;
    s->plen = plen;
    kv_error ke;
    s->it = kv_scan_prefix(t->cat->kv, t->snap, prefix, plen, &ke);
    if (!s->it)
        return cat_kv_fail(err, &ke, "listing names");
    s->ovi = cat_ov_lower_bound(t, prefix, plen);
    return 0;
}


bool rl_scan_start_hex(rl_buf *out, const rl_table_desc *d, const rl_datum *fields,
                       size_t nfields)
{
    rl_buf k;
    rl_buf_init(&k, 0);
    bool ok = rl_key_encode_prefix(&k, d, fields, nfields) == RL_KEY_OK && !k.failed;
    if (!k.failed)
        rl_key_hex(out, k.data, k.len);
    rl_buf_free(&k);
    return ok;
}
