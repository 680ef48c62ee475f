/*
 * rows.c — row writes with PostgreSQL's constraint errors: INSERT, UPDATE
 * and DELETE of one row, their index entries, and uniqueness.
 *
 * Owns: NOT NULL (23502) and key (22003) checks, PRIMARY KEY and storage
 * key uniqueness (23505, with PostgreSQL's detail), the entries of UNIQUE
 * indexes (0x80 07, their keys uniques.c's) and of FOREIGN KEYs (0x80 09,
 * their checks and actions fkeys.c's), the expectations they
 * leave for commit, duplicate rows of tables without a PRIMARY KEY (at
 * their key plus a discriminator), the live-row and PK index entries of a
 * row, heap order on UPDATE (a dynamic table's row moves to a new row
 * sequence, the last, as PostgreSQL's heap puts the new version at the end;
 * a statement holding the old key of a row a FOREIGN KEY action moved finds
 * it through t->fwd), and, with commit sequencing on, each row write kept
 * as a logical write (rl_seq_write) for a rebase.
 *
 * Invariants: every write of a row also writes or deletes its index
 * entries (UNIQUE indexes' included) in the same overlay; a uniqueness
 * probe is always followed by an expectation, so a race lost after the
 * probe still fails at COMMIT; a check that fails writes nothing (sequence
 * numbers are taken after validation; UNIQUE entries are probed before the
 * row or any entry is written: unique_probe).
 */
#include "catalog/catalog_int.h"

#include <assert.h>
#include <stdio.h>

#include "keys/keys.h"
#include "keys/tags.h"
#include "pgtype/pgtype.h"


/* Does the key exist for a uniqueness check: our overlay decides if it has
 * the key; otherwise the snapshot or anything committed since counts.
 * With commit sequencing on, only the transaction's own view counts: a key
 * a concurrent commit took is decided at COMMIT, where a DuckLake append
 * that lost the race is rebased instead of failed (sequence.h; the
 * expectation each probe is followed by still fails any other such race
 * there with the same 23505). */
static int unique_key_taken(rl_txn *t, const uint8_t *k, size_t kl, rl_error *err)
{
    pending *p = cat_ov_find(t, k, kl);
    if (p)
        return p->val != NULL;
    kv_error ke;
    int rc = kv_get(t->cat->kv, t->snap, k, kl, NULL, NULL, &ke);
    if (rc == 0 && t->snap && !t->seq)
        rc = kv_get(t->cat->kv, NULL, k, kl, NULL, NULL, &ke);
    return rc < 0 ? cat_kv_fail(err, &ke, "checking uniqueness") : rc;
}

/* Same for "any key under this prefix", against overlay + latest state. */
static int unique_prefix_taken(rl_txn *t, const uint8_t *prefix, size_t plen, rl_error *err)
{
    for (size_t i = cat_ov_lower_bound(t, prefix, plen); i < t->nov; i++) {
        if (t->ov[i].klen < plen || memcmp(t->ov[i].key, prefix, plen) != 0)
            break;
        if (t->ov[i].val)
            return 1;
    }
    kv_error ke;
    kv_iter *it = kv_scan_prefix(t->cat->kv, t->seq ? t->snap : NULL, prefix, plen, &ke);
    if (!it)
        return cat_kv_fail(err, &ke, "checking uniqueness");
    int found = 0;
    const uint8_t *k, *v;
    size_t kl, vl;
    int rc;
    while ((rc = kv_iter_next(it, &k, &kl, &v, &vl, &ke)) == 1) {
        pending *p = cat_ov_find(t, k, kl);
        if (!p || p->val) {
            found = 1;
            break;
        }
    }
    kv_iter_free(it);
    if (rc < 0)
        return cat_kv_fail(err, &ke, "checking uniqueness");
    return found;
}

/* PostgreSQL's detail "Key (a, b)=(1, x) <what>" of the columns `cols` of
 * row in d (what carries its own full stop). */
void cat_key_text(const rl_table_desc *d, const int *cols, size_t n, const rl_datum *row,
                  const char *what, char *out, size_t outn)
{
    rl_buf names, vals;
    rl_buf_init(&names, 0);
    rl_buf_init(&vals, 0);
    for (size_t j = 0; j < n; j++) {
        assert(cols[j] >= 0 && cols[j] < d->ncols_max);
        rl_buf_printf(&names, "%s%s", j ? ", " : "", d->cols[cols[j]].name);
        if (j)
            rl_buf_put_str(&vals, ", ");
        if (row[cols[j]].isnull)
            rl_buf_put_str(&vals, "null");
        else
            rl_datum_to_text(&vals, d->cols[cols[j]].type, &row[cols[j]]);
    }
    snprintf(out, outn, "Key (%.*s)=(%.*s) %s", (int)names.len,
             names.data ? (const char *)names.data : "", (int)vals.len,
             vals.data ? (const char *)vals.data : "", what);
    rl_buf_free(&names);
    rl_buf_free(&vals);
}

/* "Key (snapshot_id)=(5) already exists." of the PRIMARY KEY (or, without
 * one, the storage key columns), as PostgreSQL's detail. */
static void key_detail(const rl_table_desc *d, const rl_datum *row, char *out, size_t n)
{
    int cols[RL_MAX_KEY_FIELDS];
    size_t ncols = 0;
    if (d->pk_col >= 0)
        cols[ncols++] = d->pk_col;
    else
        for (int i = 0; i < d->nkey; i++)
            if (d->key[i] >= 0) /* not the row sequence (RL_KEY_SEQ) */
                cols[ncols++] = d->key[i];
    cat_key_text(d, cols, ncols, row, "already exists.", out, n);
}

static int duplicate_error(const rl_table_desc *d, const rl_datum *row, rl_error *err)
{
    char cname[160], detail[256];
    rl_desc_constraint_name(d, cname, sizeof cname);
    key_detail(d, row, detail, sizeof detail);
    rl_error_set(err, RL_SQLSTATE_UNIQUE_VIOLATION,
                 "duplicate key value violates unique constraint \"%s\"", cname);
    rl_error_detail(err, "%s", detail);
    return -1;
}

static int key_error(const rl_table_desc *d, rl_key_status st, int col, rl_error *err)
{
    const char *cname = col >= 0 ? d->cols[col].name : "?";
    if (st == RL_KEY_ERR_NULL)
        return rl_error_set(err, RL_SQLSTATE_NOT_NULL_VIOLATION,
                            "null value in column \"%s\" of relation \"%s\" violates not-null "
                            "constraint",
                            cname, d->name);
    if (st == RL_KEY_ERR_NEGATIVE)
        return rl_error_set(err, RL_SQLSTATE_NUMERIC_OUT_OF_RANGE,
                            "value of column \"%s\" of relation \"%s\" is negative; RockLake "
                            "stores it in the key and requires ids >= 0",
                            cname, d->name);
    return rl_error_set(err, RL_SQLSTATE_INTERNAL, "cannot encode key of relation \"%s\"",
                        d->name);
}

static int check_not_null(const rl_table_desc *d, size_t ncols, const rl_datum *row,
                          rl_error *err)
{
    for (size_t i = 0; i < ncols; i++)
        if (d->cols[i].not_null && row[i].isnull)
            return key_error(d, RL_KEY_ERR_NULL, (int)i, err);
    return 0;
}

/* Index entries that follow a row: live index, pk index. */
static int put_row_indexes(rl_txn *t, const rl_table_desc *d, const rl_datum *row,
                           const uint8_t *key, size_t klen, rl_error *err)
{
    rl_buf k;
    rl_buf_init(&k, 0);
    int rc = 0;
    if (d->live_index) {
        rl_key_live_index(&k, d->tag, key, klen);
        bool live = row[d->end_col].isnull;
        rc = cat_ov_set(t, k.data, k.len, live ? (const uint8_t *)"" : NULL, 0, err);
    }
    if (rc == 0 && d->pk_check == RL_PK_INDEX) {
        rl_buf_reset(&k);
        rl_key_pk_index(&k, d->tag, (uint64_t)row[d->pk_col].v.i);
        size_t klen_index = k.len;
        if (rl_key_pk_index_value(&k, d, row) != RL_KEY_OK)
            rc = rl_error_set(err, RL_SQLSTATE_INTERNAL, "cannot index the key of a %s row",
                              d->name);
        else if (k.failed)
            rc = oom(err);
        else
            rc = cat_ov_set(t, k.data, klen_index, k.data + klen_index, k.len - klen_index, err);
    }
    rl_buf_free(&k);
    return rc;
}

static int delete_row_indexes(rl_txn *t, const rl_table_desc *d, const rl_datum *row,
                              const uint8_t *key, size_t klen, rl_error *err)
{
    rl_buf k;
    rl_buf_init(&k, 0);
    int rc = 0;
    if (d->live_index) {
        rl_key_live_index(&k, d->tag, key, klen);
        rc = cat_ov_set(t, k.data, k.len, NULL, 0, err);
    }
    if (rc == 0 && d->pk_check == RL_PK_INDEX && !row[d->pk_col].isnull) {
        rl_buf_reset(&k);
        rl_key_pk_index(&k, d->tag, (uint64_t)row[d->pk_col].v.i);
        rc = cat_ov_set(t, k.data, k.len, NULL, 0, err);
    }
    rl_buf_free(&k);
    return rc;
}

/* The key a table's own primary key is probed at: its pk index entry
 * (RL_PK_INDEX: that key exactly) or, RL_PK_KEY, the first key field's
 * prefix (any key under it holds the value): *prefix says which. */
static rl_key_status primary_key_probe(const rl_table_desc *d, const rl_datum *row, rl_buf *k,
                                       bool *prefix)
{
    *prefix = d->pk_check == RL_PK_KEY;
    if (*prefix)
        return rl_key_encode_prefix(k, d, &row[d->key[0]], 1);
    rl_key_pk_index(k, d->tag, (uint64_t)row[d->pk_col].v.i);
    return RL_KEY_OK;
}

/* PRIMARY KEY checks beyond the storage key itself. */
static int check_primary_key(rl_txn *t, const rl_table_desc *d, const rl_datum *row,
                             const uint8_t *key, size_t klen, rl_error *err)
{
    if (d->pk_check == RL_PK_NONE || (d->pk_check == RL_PK_KEY && d->nkey == 1))
        return 0; /* the storage key check covers it */
    rl_buf k;
    rl_buf_init(&k, 0);
    bool prefix;
    primary_key_probe(d, row, &k, &prefix);
    expect_kind kind = prefix ? EXPECT_PREFIX_ABSENT : EXPECT_KEY_ABSENT;
    int taken = prefix ? unique_prefix_taken(t, k.data, k.len, err)
                       : unique_key_taken(t, k.data, k.len, err);
    (void)key;
    (void)klen;
    int rc = taken;
    if (taken == 1) {
        rc = duplicate_error(d, row, err);
    } else if (taken == 0) {
        char cname[160], detail[256];
        rl_desc_constraint_name(d, cname, sizeof cname);
        key_detail(d, row, detail, sizeof detail);
        rc = kind == EXPECT_KEY_ABSENT
                 ? cat_expect_unique(t, k.data, k.len, cname, detail, err)
                 : cat_add_expectation(t, kind, k.data, k.len, NULL, 0, cname, detail, err);
    }
    rl_buf_free(&k);
    return rc;
}

/* Record that `key` must still be free at commit (`kind` EXPECT_KEY_ABSENT,
 * or EXPECT_SLOT_FREE for a row that may move to a duplicate key instead).
 * If this transaction deleted a row that the snapshot had at this key
 * (delete, then insert the same key), the requirement is instead that the
 * deleted row is still the one we saw: another commit changing it is a
 * conflict, its presence is not. */
static int expect_free(rl_txn *t, expect_kind kind, const uint8_t *k, size_t kl,
                       const char *constraint, const char *detail, rl_error *err)
{
    if (cat_ov_find(t, k, kl)) {
        uint8_t *v = NULL;
        size_t vl = 0;
        kv_error ke;
        int rc = kv_get(t->cat->kv, t->snap, k, kl, &v, &vl, &ke);
        if (rc < 0)
            return cat_kv_fail(err, &ke, "checking uniqueness");
        if (rc == 1) {
            rc = cat_add_expectation(t, EXPECT_VALUE, k, kl, v, vl, NULL, NULL, err);
            free(v);
            return rc;
        }
    }
    return cat_add_expectation(t, kind, k, kl, NULL, 0, constraint, detail, err);
}

int cat_expect_unique(rl_txn *t, const uint8_t *k, size_t kl, const char *constraint,
                         const char *detail, rl_error *err)
{
    return expect_free(t, EXPECT_KEY_ABSENT, k, kl, constraint, detail, err);
}

/* Key `key` of a table whose rows are unique: refuse it if taken (23505,
 * naming the PK, or for RockLake's internal tables their storage key), and
 * expect it, and the PK, to be free at commit. */
static int place_unique(rl_txn *t, const rl_table_desc *d, const rl_datum *row,
                        const rl_buf *key, rl_error *err)
{
    int taken = unique_key_taken(t, key->data, key->len, err);
    if (taken < 0)
        return -1;
    if (taken)
        return duplicate_error(d, row, err);
    if (check_primary_key(t, d, row, key->data, key->len, err) < 0)
        return -1;
    char cname[160], detail[256];
    rl_desc_constraint_name(d, cname, sizeof cname);
    key_detail(d, row, detail, sizeof detail);
    return cat_expect_unique(t, key->data, key->len, cname, detail, err);
}

/* Give a duplicate row its own key: the natural key in `key` plus a fresh
 * discriminator, which no other row has (the counter only grows, and is
 * written in the batch that writes the row). */
static int add_discriminator(rl_txn *t, rl_buf *key, rl_error *err)
{
    uint64_t dup;
    if (cat_txn_alloc_seq(t, RL_COUNTER_NEXT_DUP, &dup, err) < 0 ||
        cat_touch_counter(t, RL_COUNTER_NEXT_DUP, dup + 1, err) < 0)
        return -1;
    rl_key_put_dup(key, dup);
    return key->failed ? oom(err) : 0;
}

/* A table without a PRIMARY KEY keeps every row, as PostgreSQL does
 * (docs/key-layout.md decision (i)). The row goes to its natural key K when
 * K is free in this transaction's view and in the latest commit, so a table
 * without duplicates has the keys it always had; otherwise to K | dup.
 * At K, a concurrent commit may still take K before ours: the expectation
 * then moves the row to K | dup at commit (move_to_dup_locked), because
 * PostgreSQL would commit both. */
static int place_keeping_duplicates(rl_txn *t, rl_buf *key, rl_error *err)
{
    int taken = unique_key_taken(t, key->data, key->len, err);
    if (taken < 0)
        return -1;
    if (taken)
        return add_discriminator(t, key, err);
    return expect_free(t, EXPECT_SLOT_FREE, key->data, key->len, NULL, NULL, err);
}

/* ------------------------------------------------ UNIQUE index entries */

/* The UNIQUE indexes a row write keeps, noting the generation of
 * definitions the transaction's rows are checked at: rows written under
 * another one (a READ COMMITTED statement after a new index committed)
 * would lack its entries, and so would a commit after one (commit.c). */
static int uniques_for_rows(rl_txn *t, const cat_unique **u, size_t *n, rl_error *err)
{
    if (t->rows_checked && t->rows_unique_gen != t->unique_gen)
        return cat_serialization_failure(err, "a concurrent change of a table's constraints "
                                              "(UNIQUE, FOREIGN KEY or CHECK)");
    if (cat_uniques(t, u, n, err) < 0)
        return -1;
    t->rows_checked = true;
    t->rows_unique_gen = t->unique_gen;
    return 0;
}

static int unique_violation(rl_txn *t, const cat_unique *u, const rl_table_desc *d,
                            const rl_datum *row, rl_error *err)
{
    char detail[256];
    cat_unique_key_text(t, u, d, row, "already exists", detail, sizeof detail);
    rl_error_set(err, RL_SQLSTATE_UNIQUE_VIOLATION,
                 "duplicate key value violates unique constraint \"%s\"", u->name);
    rl_error_detail(err, "%s", detail);
    return -1;
}

/* 23505 if another row holds one of `row`'s entries in the UNIQUE indexes on
 * d; the row's own entry (`own`: its key, before an UPDATE) is no conflict.
 * Writes nothing, so a write it refuses leaves the transaction as it was. */
static int unique_probe(rl_txn *t, const rl_table_desc *d, const rl_datum *row,
                        const uint8_t *own, size_t ownl, rl_error *err)
{
    const cat_unique *u;
    size_t n;
    if (uniques_for_rows(t, &u, &n, err) < 0)
        return -1;
    rl_buf k;
    rl_buf_init(&k, 0);
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        if (!cat_unique_on(&u[i], d))
            continue;
        int has = cat_unique_entry_key(t, &u[i], d, row, &k, err);
        int taken = has == 1 ? unique_key_taken(t, k.data, k.len, err) : has;
        if (taken == 1 && own) { /* held by this row itself? */
            uint8_t *v = NULL;
            size_t vl = 0;
            int got = cat_view_get(t, k.data, k.len, &v, &vl, err);
            taken = got < 0 ? -1 : got == 1 && rl_bytes_cmp(v, vl, own, ownl) == 0 ? 0 : 1;
            free(v);
        }
        rc = taken < 0 ? -1 : taken ? unique_violation(t, &u[i], d, row, err) : 0;
    }
    rl_buf_free(&k);
    return rc;
}

/* u's entry for `row` (at row key rk), which unique_probe found free
 * before anything was written: expected free at commit, and written. */
static int unique_put_one(rl_txn *t, const cat_unique *u, const rl_table_desc *d,
                          const rl_datum *row, const uint8_t *rk, size_t rkl, rl_buf *k,
                          rl_error *err)
{
    int has = cat_unique_entry_key(t, u, d, row, k, err);
    if (has <= 0)
        return has;
    char detail[256];
    cat_unique_key_text(t, u, d, row, "already exists", detail, sizeof detail);
    if (cat_expect_unique(t, k->data, k->len, u->name, detail, err) < 0)
        return -1;
    return cat_ov_set(t, k->data, k->len, rk, rkl, err);
}

/* The entries of `row` in the UNIQUE indexes on d: written (rk the row's
 * key; unique_probe found them free first) or, rk NULL, deleted. */
static int unique_entries(rl_txn *t, const rl_table_desc *d, const rl_datum *row,
                          const uint8_t *rk, size_t rkl, rl_error *err)
{
    const cat_unique *u;
    size_t n;
    if (uniques_for_rows(t, &u, &n, err) < 0)
        return -1;
    rl_buf k;
    rl_buf_init(&k, 0);
    int rc = 0;
    for (size_t i = 0; i < n && rc >= 0; i++) {
        if (!cat_unique_on(&u[i], d))
            continue;
        if (rk) {
            rc = unique_put_one(t, &u[i], d, row, rk, rkl, &k, err);
            continue;
        }
        rc = cat_unique_entry_key(t, &u[i], d, row, &k, err);
        if (rc == 1)
            rc = cat_ov_set(t, k.data, k.len, NULL, 0, err);
    }
    rl_buf_free(&k);
    return rc < 0 ? -1 : 0;
}

/* An UPDATE: each index whose key values changed moves its entry (the old
 * one first, so a row may take back its own); with `moved` (the row went
 * to the new key rk), an entry whose values stayed names rk instead. */
static int unique_update(rl_txn *t, const rl_table_desc *d, const rl_datum *old,
                         const rl_datum *nw, const uint8_t *rk, size_t rkl, bool moved,
                         rl_error *err)
{
    const cat_unique *u;
    size_t n;
    if (uniques_for_rows(t, &u, &n, err) < 0)
        return -1;
    rl_buf ko, kn;
    rl_buf_init(&ko, 0);
    rl_buf_init(&kn, 0);
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        if (!cat_unique_on(&u[i], d))
            continue;
        int ho = cat_unique_entry_key(t, &u[i], d, old, &ko, err);
        int hn = ho < 0 ? -1 : cat_unique_entry_key(t, &u[i], d, nw, &kn, err);
        if (hn < 0) {
            rc = -1;
            break;
        }
        if (ho == hn && (ho == 0 || rl_bytes_cmp(ko.data, ko.len, kn.data, kn.len) == 0)) {
            /* the row's own entry (the probe found no other): its key's
             * expectations stand from when the row was read */
            if (ho == 1 && moved && cat_ov_set(t, kn.data, kn.len, rk, rkl, err) < 0)
                rc = -1;
            continue;
        }
        if (ho == 1 && cat_ov_set(t, ko.data, ko.len, NULL, 0, err) < 0)
            rc = -1;
        else if (hn == 1)
            rc = unique_put_one(t, &u[i], d, nw, rk, rkl, &kn, err);
    }
    rl_buf_free(&ko);
    rl_buf_free(&kn);
    return rc < 0 ? -1 : 0;
}

/* ---------------------------------------- ON CONFLICT: would it collide */

/* The first live key under `prefix` in the transaction's view into out:
 * 1, 0 none, -1 error. */
static int first_key_under(rl_txn *t, const uint8_t *prefix, size_t plen, rl_buf *out,
                           rl_error *err)
{
    uint8_t *p = dup_bytes(prefix, plen);
    if (!p)
        return oom(err);
    rl_scan s;
    int rc = cat_raw_scan_open(t, &s, p, plen, err);
    const uint8_t *k, *v;
    size_t kl, vl;
    if (rc == 0)
        rc = cat_scan_merged_next(&s, &k, &kl, &v, &vl, err);
    if (rc == 1) {
        rl_buf_reset(out);
        rl_buf_put(out, k, kl);
        if (out->failed)
            rc = oom(err);
    }
    if (s.it)
        kv_iter_free(s.it);
    free(p);
    return rc;
}

/* Does the table's own primary key (a DuckLake table's) hold row's value?
 * 1 (the row's key into rowkey unless NULL), 0, -1. */
static int primary_key_taken(rl_txn *t, const rl_table_desc *d, const rl_datum *row,
                             rl_buf *rowkey, rl_error *err)
{
    if (d->pk_check == RL_PK_NONE || d->pk_col < 0 || row[d->pk_col].isnull)
        return 0;
    rl_buf k;
    rl_buf_init(&k, 0);
    bool prefix;
    int taken = primary_key_probe(d, row, &k, &prefix) != RL_KEY_OK ? 0
                : k.failed                                        ? oom(err)
                : prefix ? unique_prefix_taken(t, k.data, k.len, err)
                         : unique_key_taken(t, k.data, k.len, err);
    if (!prefix && taken == 1 && rowkey) { /* the index names the row's other key fields */
        uint64_t id = (uint64_t)row[d->pk_col].v.i;
        uint8_t *v = NULL;
        size_t vl = 0;
        int got = cat_view_get(t, k.data, k.len, &v, &vl, err);
        rl_buf_reset(rowkey);
        taken = got < 0 ? -1
                : got == 0 || rl_key_from_pk_index(rowkey, d, id, v, vl) != RL_KEY_OK
                    ? rl_error_set(err, RL_SQLSTATE_SERIALIZATION_FAILURE,
                                   "could not serialize access: the conflicting row of "
                                   "\"%s\" moved",
                                   d->name)
                    : 1;
        free(v);
    } else if (prefix && taken == 1 && rowkey &&
               first_key_under(t, k.data, k.len, rowkey, err) != 1) { /* any key under it */
        taken = err->sqlstate[0] ? -1
                                 : rl_error_set(err, RL_SQLSTATE_SERIALIZATION_FAILURE,
                                                "could not serialize access: the conflicting "
                                                "row of \"%s\" was committed after this "
                                                "transaction's snapshot",
                                                d->name);
    }
    rl_buf_free(&k);
    return taken;
}

int rl_txn_row_conflicts(rl_txn *t, const rl_table_desc *d, const rl_datum *row, bool pk,
                         const uint64_t *ids, size_t nids, rl_buf *rowkey, rl_error *err)
{
    int taken = pk ? primary_key_taken(t, d, row, rowkey, err) : 0;
    if (taken != 0)
        return taken;
    const cat_unique *u;
    size_t n;
    if (cat_uniques(t, &u, &n, err) < 0)
        return -1;
    rl_buf k;
    rl_buf_init(&k, 0);
    for (size_t i = 0; i < n && taken == 0; i++) {
        if (!cat_unique_on(&u[i], d))
            continue;
        bool arbiter = !ids;
        for (size_t j = 0; ids && j < nids && !arbiter; j++)
            arbiter = ids[j] == u[i].def.id;
        if (!arbiter)
            continue;
        taken = cat_unique_entry_key(t, &u[i], d, row, &k, err);
        if (taken == 1)
            taken = unique_key_taken(t, k.data, k.len, err);
        if (taken == 1 && rowkey) { /* the entry names its row */
            uint8_t *v = NULL;
            size_t vl = 0;
            int got = cat_view_get(t, k.data, k.len, &v, &vl, err);
            rl_buf_reset(rowkey);
            if (got == 1)
                rl_buf_put(rowkey, v, vl);
            taken = got < 0 ? -1
                    : got == 0 ? rl_error_set(err, RL_SQLSTATE_SERIALIZATION_FAILURE,
                                              "could not serialize access: the conflicting "
                                              "row of \"%s\" was committed after this "
                                              "transaction's snapshot",
                                              d->name)
                    : rowkey->failed ? oom(err)
                                     : 1;
            free(v);
        }
    }
    rl_buf_free(&k);
    return taken;
}

/* The key a write put its row at, for the caller: `key` copied into out. */
static int key_out(rl_buf *out, const rl_buf *key, rl_error *err)
{
    rl_buf_reset(out);
    rl_buf_put(out, key->data, key->len);
    return out->failed ? oom(err) : 0;
}

/* Write a row after the checks: at its key, or for a duplicate in a table
 * that keeps them, at the key plus a discriminator (into keyout, unless
 * NULL). */
static int add_row_at(rl_txn *t, const rl_table_desc *d, const rl_datum *row, uint64_t seq,
                      rl_buf *keyout, rl_error *err)
{
    size_t ncols = txn_ncols(t, d);
    if (check_not_null(d, ncols, row, err) < 0)
        return -1;
    rl_buf key, val;
    rl_buf_init(&key, 0);
    rl_buf_init(&val, RL_MAX_VALUE_BYTES);
    int bad = -1, rc = -1;
    rl_key_status ks = rl_key_encode_row(&key, d, row, seq, &bad);
    if (ks != RL_KEY_OK) {
        key_error(d, ks, bad, err);
        goto out;
    }
    if (cat_encode_value(t, d, row, &val, err) < 0)
        goto out;
    if (unique_probe(t, d, row, NULL, 0, err) < 0 || /* before anything is written */
        cat_fkey_check_row(t, d, row, NULL, err) < 0)
        goto out;
    if ((rl_desc_keeps_duplicates(d) ? place_keeping_duplicates(t, &key, err)
                                     : place_unique(t, d, row, &key, err)) < 0)
        goto out;
    if (cat_ov_set(t, key.data, key.len, val.data ? val.data : (const uint8_t *)"", val.len, err) < 0)
        goto out;
    if (put_row_indexes(t, d, row, key.data, key.len, err) < 0 ||
        unique_entries(t, d, row, key.data, key.len, err) < 0 ||
        cat_fkey_entries(t, d, row, key.data, key.len, true, err) < 0)
        goto out;
    if (d->counter && d->counter_col >= 0 && !row[d->counter_col].isnull &&
        cat_touch_counter(t, d->counter, (uint64_t)row[d->counter_col].v.i + 1, err) < 0)
        goto out;
    if (d->tag == RL_TAG_SNAPSHOT) {
        uint64_t id = (uint64_t)row[0].v.i;
        if (!t->inserted_snapshot || id > t->max_snapshot_inserted)
            t->max_snapshot_inserted = id;
        t->inserted_snapshot = true;
    }
    rc = keyout ? key_out(keyout, &key, err) : 0;
out:
    rl_buf_free(&key);
    rl_buf_free(&val);
    return rc;
}

int cat_add_row(rl_txn *t, const rl_table_desc *d, const rl_datum *row, uint64_t seq,
                rl_error *err)
{
    return add_row_at(t, d, row, seq, NULL, err);
}

/* ------------------------------------------------- logical writes (seq) */

/* The most row writes a transaction keeps for a rebase: a DuckLake append's
 * batch is a few rows per file and per column, plus its inlined rows. */
#define SEQ_MAX_WRITES 65536

/* Copy `n` datums of d into `to`, their strings into the transaction's arena. */
static int seq_copy_row(rl_txn *t, const rl_table_desc *d, size_t n, const rl_datum *from,
                        rl_datum *to, rl_error *err)
{
    for (size_t c = 0; c < n; c++) {
        to[c] = from[c];
        if (from[c].isnull || !rl_type_is_bytes(d->cols[c].type) || !from[c].v.s.p)
            continue;
        uint8_t *p = rl_arena_dup(&t->seq_arena, from[c].v.s.p, from[c].v.s.len ? from[c].v.s.len : 1);
        if (!p)
            return oom(err);
        to[c].v.s.p = p;
    }
    return 0;
}

/* A zeroed row of rl_seq_row_cap datums in the transaction's arena. */
static rl_datum *seq_new_row(rl_txn *t, const rl_table_desc *d, size_t ncols)
{
    size_t cap = rl_seq_row_cap(d, ncols);
    rl_datum *row = rl_arena_alloc(&t->seq_arena, cap * sizeof *row);
    if (row)
        memset(row, 0, cap * sizeof *row);
    return row;
}

/* Keep a row write that succeeded as a logical write (t->seq). */
static int seq_record(rl_txn *t, rl_seq_op op, const rl_table_desc *d, const rl_datum *row,
                      const rl_datum *old, bool old_own, const uint8_t *key, size_t klen,
                      rl_error *err)
{
    assert(t->seq);
    /* A write no append makes (a catalog row, a delete) or a transaction
     * far larger than a commit batch can never be rebased: stop keeping
     * its writes, so DDL-heavy transactions cost no memory here. */
    /* A rebase writes rows with new ids below the SQL layer, which alone
     * evaluates CHECK constraints and the keys of UNIQUE indexes over
     * expressions or with a predicate: a table with one is never rebased
     * (the commit falls back to its plain validation). */
    int checked = t->seq_foreign ? 0 : cat_table_has_checks(t, d, err);
    if (checked == 0 && !t->seq_foreign) /* the same for computed UNIQUE keys */
        checked = cat_table_has_computed_unique(t, d, err);
    if (checked < 0)
        return -1;
    if (t->seq_foreign || checked || !rl_seq_append_key(&d->tag, 1) || op == RL_SEQ_DELETE ||
        t->nseqw >= SEQ_MAX_WRITES) {
        t->seq_foreign = true;
        return 0;
    }
    rl_seq_write *grown = rl_array_reserve(t->seqw, t->nseqw, &t->capseqw, sizeof *grown, 16);
    if (!grown)
        return oom(err);
    t->seqw = grown;
    rl_seq_write *w = &t->seqw[t->nseqw];
    memset(w, 0, sizeof *w);
    w->op = op;
    w->d = d;
    w->ncols = txn_ncols(t, d);
    w->old_own = old_own;
    if (row && !(w->row = seq_new_row(t, d, w->ncols)))
        return oom(err);
    if (row && seq_copy_row(t, d, w->ncols, row, w->row, err) < 0)
        return -1;
    if (old && !(w->old = seq_new_row(t, d, w->ncols)))
        return oom(err);
    if (old && seq_copy_row(t, d, w->ncols, old, w->old, err) < 0)
        return -1;
    if (key) {
        if (!(w->key = rl_arena_dup(&t->seq_arena, key, klen ? klen : 1)))
            return oom(err);
        w->klen = klen;
    }
    t->nseqw++;
    return 0;
}

static int insert_row(rl_txn *t, const rl_table_desc *d, const rl_datum *row, rl_error *err)
{
    uint64_t seq = 0;
    /* validate before taking a sequence number, so failures leave no gaps */
    if (check_not_null(d, txn_ncols(t, d), row, err) < 0)
        return -1;
    if (rl_desc_has_seq(d)) {
        char name[64];
        rl_counter_rowseq_name(d, name, sizeof name);
        if (cat_txn_alloc_seq(t, name, &seq, err) < 0 || cat_touch_counter(t, name, seq + 1, err) < 0)
            return -1;
    }
    return cat_add_row(t, d, row, seq, err);
}

int rl_txn_insert(rl_txn *t, const rl_table_desc *d, const rl_datum *row, rl_error *err)
{
    if (!cat_is_write_allowed(t, err))
        return -1;
    t->seq_depth++;
    int rc = insert_row(t, d, row, err);
    t->seq_depth--;
    if (rc == 0 && t->seq)
        rc = seq_record(t, RL_SEQ_INSERT, d, row, NULL, false, NULL, 0, err);
    return rc;
}

/* ------------------------------------------ UPDATE: heap order (moves) */

/* A dynamic table's rows are keyed by their insertion sequence, which is
 * their heap order and their ctid. PostgreSQL's heap puts an UPDATEd row's
 * new version at the end, under a new tid, whether the values changed or
 * not (a HOT update too): such a row moves to a fresh sequence number. */
static bool moves_on_update(const rl_table_desc *d)
{
    return rl_desc_is_dynamic(d);
}

/* The key a row the transaction read at `key` has now: `key` itself, or,
 * when the transaction deleted it there because a FOREIGN KEY action moved
 * the row (t->fwd), where the moves took it. Borrowed from t. */
void cat_follow_moves(rl_txn *t, const uint8_t **key, size_t *klen)
{
    for (size_t hops = 0; hops <= t->nfwd; hops++) {
        pending *p = cat_ov_find(t, *key, *klen);
        if (!p || p->val)
            return;
        size_t i = t->nfwd;
        while (i > 0 && rl_bytes_cmp(t->fwd[i - 1].key, t->fwd[i - 1].klen, *key, *klen) != 0)
            i--;
        if (i == 0)
            return;
        *key = t->fwd[i - 1].val;
        *klen = t->fwd[i - 1].vlen;
    }
}

static int note_move(rl_txn *t, const uint8_t *from, size_t fl, const uint8_t *to, size_t tl,
                     rl_error *err)
{
    pending *grown = rl_array_reserve(t->fwd, t->nfwd, &t->capfwd, sizeof *grown, 8);
    if (!grown)
        return oom(err);
    t->fwd = grown;
    pending m = {dup_bytes(from, fl), fl, dup_bytes(to, tl), tl};
    if (!m.key || !m.val) {
        free(m.key);
        free(m.val);
        return oom(err);
    }
    t->fwd[t->nfwd++] = m;
    return 0;
}

/* Old row for update/delete: read, decode, remember what we saw. */
static int load_for_change(rl_txn *t, const rl_table_desc *d, const uint8_t *key, size_t klen,
                           uint8_t **val, size_t *vlen, rl_row *row, rl_buf *arena, rl_error *err)
{
    pending *p = cat_ov_find(t, key, klen);
    int rc = cat_view_get(t, key, klen, val, vlen, err);
    if (rc < 0)
        return -1;
    if (rc == 0)
        return rl_error_set(err, RL_SQLSTATE_SERIALIZATION_FAILURE,
                            "could not serialize access: the row to change in \"%s\" no longer "
                            "exists",
                            d->name);
    if (cat_decode_row(t, d, key, klen, *val, *vlen, row, arena, err) < 0)
        return -1;
    /* A row we wrote ourselves needs no check; one from the snapshot must be
     * unchanged by others when we commit. */
    if (!p && cat_add_expectation(t, EXPECT_VALUE, key, klen, *val, *vlen, NULL, NULL, err) < 0)
        return -1;
    return 0;
}

int rl_txn_delete(rl_txn *t, const rl_table_desc *d, const uint8_t *key, size_t klen,
                  rl_error *err)
{
    if (!cat_is_write_allowed(t, err))
        return -1;
    uint8_t *val = NULL;
    size_t vlen = 0;
    rl_buf arena;
    rl_buf_init(&arena, 0);
    rl_row *row = malloc(sizeof *row);
    cat_follow_moves(t, &key, &klen);
    uint8_t *kcopy = dup_bytes(key, klen); /* key may point into the overlay */
    int rc = -1;
    if (!row || !kcopy) {
        oom(err);
        goto out;
    }
    bool own = cat_ov_find(t, kcopy, klen) != NULL;
    t->seq_depth++;
    /* the row goes first, then what references it: a cascade that comes
     * back to it (a cycle of references) finds it gone */
    if (load_for_change(t, d, kcopy, klen, &val, &vlen, row, &arena, err) == 0 &&
        delete_row_indexes(t, d, row->vals, kcopy, klen, err) == 0 &&
        unique_entries(t, d, row->vals, NULL, 0, err) == 0 &&
        cat_fkey_entries(t, d, row->vals, kcopy, klen, false, err) == 0 &&
        cat_ov_set(t, kcopy, klen, NULL, 0, err) == 0)
        rc = cat_fkey_referenced_change(t, d, row->vals, NULL, kcopy, klen, err);
    t->seq_depth--;
    if (rc == 0 && t->seq)
        rc = seq_record(t, RL_SEQ_DELETE, d, NULL, row->vals, own, kcopy, klen, err);
out:
    free(val);
    free(row);
    free(kcopy);
    rl_buf_free(&arena);
    return rc;
}

/* A duplicate whose key fields an UPDATE leaves alone keeps its key,
 * discriminator included: `nkey` (the new row's natural key) gets the old
 * key's discriminator when their natural keys are equal. */
static int keep_discriminator(const rl_table_desc *d, const uint8_t *oldkey, size_t oldklen,
                              rl_buf *nkey)
{
    size_t natural_len;
    uint64_t dup;
    if (!rl_desc_keeps_duplicates(d) ||
        rl_key_split_dup(oldkey, oldklen, d, &natural_len, &dup) != 1 ||
        rl_bytes_cmp(oldkey, natural_len, nkey->data, nkey->len) != 0)
        return 0;
    rl_key_put_dup(nkey, dup);
    return nkey->failed ? -1 : 0;
}

bool rl_row_key_seq(const rl_table_desc *d, const uint8_t *key, size_t klen, uint64_t *seq)
{
    /* the sequence is a table's last key field (rl_desc_has_seq), 8 bytes,
     * and such a table keeps no duplicates (no discriminator after it) */
    if (!rl_desc_has_seq(d) || klen < 1 + RL_KEY_DUP_LEN || key[0] != d->tag)
        return false;
    assert(!rl_desc_keeps_duplicates(d));
    *seq = rl_load_be64(key + klen - 8);
    return true;
}

int rl_txn_row_exists(rl_txn *t, const rl_table_desc *d, const uint8_t *key, size_t klen,
                      rl_error *err)
{
    size_t natural_len;
    if (rl_key_split_dup(key, klen, d, &natural_len, NULL) < 0)
        return 0; /* not a key of d: names no row */
    return cat_view_get(t, key, klen, NULL, NULL, err);
}

/* The row sequence number a moving row's new version takes. It is taken
 * where PostgreSQL's heap takes the new version's line pointer: after the
 * NOT NULL checks (and the SQL layer's CHECKs), before the UNIQUE and
 * FOREIGN KEY checks, whose failures leave it unused, as a dead tuple. */
static int new_version_seq(rl_txn *t, const rl_table_desc *d, uint64_t *seq, rl_error *err)
{
    char name[64];
    rl_counter_rowseq_name(d, name, sizeof name);
    if (cat_txn_alloc_seq(t, name, seq, err) < 0)
        return -1;
    return cat_touch_counter(t, name, *seq + 1, err);
}

/* Move the row `old` at key ok to the new sequence number seq with the
 * values nw (checked: unique_probe, the FOREIGN KEY checks), its index
 * entries along; the new key into nkey. */
static int move_row(rl_txn *t, const rl_table_desc *d, const rl_datum *old, const uint8_t *ok,
                    size_t okl, const rl_datum *nw, uint64_t seq, rl_buf *nkey, rl_error *err)
{
    assert(rl_desc_has_seq(d));
    rl_buf val;
    rl_buf_init(&val, RL_MAX_VALUE_BYTES);
    int rc = -1;
    if (cat_encode_value(t, d, nw, &val, err) < 0)
        goto out;
    rl_buf_reset(nkey);
    if (rl_key_encode_row(nkey, d, nw, seq, NULL) != RL_KEY_OK || nkey->failed) {
        rc = oom(err);
        goto out;
    }
    /* the new number is fresh (the counter only grows): no other row, in
     * this transaction or a concurrent one, can hold it; a concurrent
     * change of the old row fails the commit on the old key's expectation */
    if (delete_row_indexes(t, d, old, ok, okl, err) < 0 ||
        cat_fkey_entries(t, d, old, ok, okl, false, err) < 0 ||
        cat_ov_set(t, ok, okl, NULL, 0, err) < 0 ||
        cat_ov_set(t, nkey->data, nkey->len, val.data ? val.data : (const uint8_t *)"", val.len,
                   err) < 0 ||
        put_row_indexes(t, d, nw, nkey->data, nkey->len, err) < 0 ||
        unique_update(t, d, old, nw, nkey->data, nkey->len, true, err) < 0 ||
        cat_fkey_entries(t, d, nw, nkey->data, nkey->len, true, err) < 0)
        goto out;
    /* an action's move: the statement that set it off may hold the old key */
    if (t->fk_depth > 0 && note_move(t, ok, okl, nkey->data, nkey->len, err) < 0)
        goto out;
    rc = cat_fkey_referenced_change(t, d, old, nw, nkey->data, nkey->len, err);
out:
    rl_buf_free(&val);
    return rc;
}

int rl_txn_update(rl_txn *t, const rl_table_desc *d, const uint8_t *oldkey, size_t oldklen,
                  const rl_datum *newrow, rl_error *err)
{
    return rl_txn_update_to(t, d, oldkey, oldklen, newrow, NULL, err);
}

int rl_txn_update_to(rl_txn *t, const rl_table_desc *d, const uint8_t *oldkey, size_t oldklen,
                     const rl_datum *newrow, rl_buf *newkey, rl_error *err)
{
    if (!cat_is_write_allowed(t, err))
        return -1;
    uint8_t *val = NULL;
    size_t vlen = 0;
    rl_buf arena, nkey, nval;
    rl_buf_init(&arena, 0);
    rl_buf_init(&nkey, 0);
    rl_buf_init(&nval, RL_MAX_VALUE_BYTES);
    rl_row *old = malloc(sizeof *old);
    cat_follow_moves(t, &oldkey, &oldklen);
    uint8_t *kcopy = dup_bytes(oldkey, oldklen);
    int rc = -1, bad = -1;
    bool own = false, loaded = false;
    if (!old || !kcopy) {
        oom(err);
        goto out;
    }
    own = cat_ov_find(t, kcopy, oldklen) != NULL;
    t->seq_depth++;
    if (load_for_change(t, d, kcopy, oldklen, &val, &vlen, old, &arena, err) < 0)
        goto out;
    loaded = true;
    size_t ncols = txn_ncols(t, d);
    if (check_not_null(d, ncols, newrow, err) < 0)
        goto out;
    rl_key_status ks = rl_key_encode_row(&nkey, d, newrow, old->seq, &bad);
    if (ks != RL_KEY_OK) {
        key_error(d, ks, bad, err);
        goto out;
    }
    if (keep_discriminator(d, kcopy, oldklen, &nkey) < 0) {
        oom(err);
        goto out;
    }
    uint64_t seq = 0;
    if (moves_on_update(d) && new_version_seq(t, d, &seq, err) < 0)
        goto out;
    /* the new values' UNIQUE entries are free but for the row's own, before
     * any write: a refused UPDATE leaves the row and its entries alone */
    if (unique_probe(t, d, newrow, kcopy, oldklen, err) < 0 ||
        cat_fkey_check_row(t, d, newrow, old->vals, err) < 0)
        goto out;
    if (moves_on_update(d)) {
        rc = move_row(t, d, old->vals, kcopy, oldklen, newrow, seq, &nkey, err);
        goto out;
    }
    bool same_key = rl_bytes_cmp(nkey.data, nkey.len, kcopy, oldklen) == 0;
    bool same_pk = d->pk_col < 0 || old->vals[d->pk_col].isnull == newrow[d->pk_col].isnull;
    if (same_pk && d->pk_col >= 0 && !newrow[d->pk_col].isnull)
        same_pk = old->vals[d->pk_col].v.i == newrow[d->pk_col].v.i;
    if (same_key && same_pk) {
        /* The common case (e.g. closing a version): rewrite the value in place. */
        if (cat_encode_value(t, d, newrow, &nval, err) < 0)
            goto out;
        /* An UPDATE that changes nothing writes nothing: no new version for
         * the store to carry (DuckLake rewrites every column-stats row of a
         * table on each commit, most of them unchanged). The read above
         * still stands as an expectation, so a concurrent change of the row
         * is still a conflict at COMMIT. */
        if (nval.len == vlen && (vlen == 0 || memcmp(nval.data, val, vlen) == 0)) {
            rc = 0;
            goto out;
        }
        if (unique_update(t, d, old->vals, newrow, kcopy, oldklen, false, err) < 0 ||
            cat_ov_set(t, kcopy, oldklen, nval.data ? nval.data : (const uint8_t *)"", nval.len,
                   err) < 0 ||
            put_row_indexes(t, d, newrow, kcopy, oldklen, err) < 0 ||
            cat_fkey_entries(t, d, old->vals, kcopy, oldklen, false, err) < 0 ||
            cat_fkey_entries(t, d, newrow, kcopy, oldklen, true, err) < 0)
            goto out;
        rc = cat_fkey_referenced_change(t, d, old->vals, newrow, kcopy, oldklen, err);
        goto out;
    }
    /* Key or PK changed: remove the old row, then add the new one with all
     * uniqueness checks. */
    if (delete_row_indexes(t, d, old->vals, kcopy, oldklen, err) < 0 ||
        unique_entries(t, d, old->vals, NULL, 0, err) < 0 ||
        cat_fkey_entries(t, d, old->vals, kcopy, oldklen, false, err) < 0 ||
        cat_ov_set(t, kcopy, oldklen, NULL, 0, err) < 0)
        goto out;
    rc = add_row_at(t, d, newrow, old->seq, &nkey, err);
    if (rc == 0)
        rc = cat_fkey_referenced_change(t, d, old->vals, newrow, kcopy, oldklen, err);
out:
    if (rc == 0 && newkey)
        rc = key_out(newkey, &nkey, err);
    if (kcopy && old)
        t->seq_depth--;
    /* recorded while `old` still holds the row read (it borrows from val) */
    if (rc == 0 && loaded && t->seq)
        rc = seq_record(t, RL_SEQ_UPDATE, d, newrow, old->vals, own, kcopy, oldklen, err);
    free(val);
    free(old);
    free(kcopy);
    rl_buf_free(&arena);
    rl_buf_free(&nkey);
    rl_buf_free(&nval);
    return rc;
}
