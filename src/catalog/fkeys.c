/*
 * fkeys.c — FOREIGN KEY constraints: their definitions, the entries of
 * referencing rows, and the checks and actions row writes make.
 *
 * Owns: the definitions (0x80 08 schema table name -> rl_fkey_def,
 * tabledef.c codes them) and their DDL (create with validation, replace,
 * drop, list); the transaction's registry of FOREIGN KEYs (each resolved
 * to its referencing table and to the UNIQUE index it references, from
 * uniques.c's registry, so a lake without UNIQUE indexes has none without
 * a scan); an entry per referencing row (0x80 09 id | key values | row key,
 * the key values as a UNIQUE entry's equality bytes); for rows.c: the
 * referenced key a new row names must be there (23503 "is not present"),
 * and what a referenced row's DELETE or key UPDATE does to the rows that
 * reference it (RESTRICT 23503 at once, NO ACTION at the statement's end,
 * CASCADE, SET NULL, SET DEFAULT: through the SQL layer's defaults); a
 * DEFERRABLE key's checks (the referencing row's key, NO ACTION's) left
 * for COMMIT or SET CONSTRAINTS ... IMMEDIATE while it is DEFERRED, and
 * run then in the order left.
 *
 * Invariants: an entry exists exactly for each row of the referencing
 * table whose key columns are all non-NULL (rows.c writes and deletes them
 * beside the row; create and replace fill them from the rows); every check
 * that passes leaves an expectation, so that a concurrent commit that
 * removes the referenced key, or adds a referencing row, fails the later
 * of the two with the same 23503 at COMMIT; a FOREIGN KEY's referenced
 * columns are exactly the key of a UNIQUE index (the SQL layer chooses it),
 * so "is the key there" is one lookup of that index's entry. Reads go
 * through the transaction's view (scan.c, txn.c). A check left for later
 * reads the rows as they are when it runs, so it needs no undoing when a
 * savepoint rolls back; COMMIT (and a sequenced commit's replay) runs
 * every check left before validating, so none is skipped.
 */
#include "catalog/catalog_int.h"

#include <assert.h>
#include <stdio.h>

#include "keys/keys.h"
#include "keys/tags.h"
#include "pgtype/pgtype.h"

/* Cascades nest (a referencing row deleted is itself referenced): past this
 * depth the chain is refused as PostgreSQL's stack limit would. */
#define FKEY_MAX_DEPTH 256

/* ------------------------------------------------------------ registry */

static bool registry_current(const rl_txn *t)
{
    return t->fk_built && t->fk_rel_version == t->rel_version && t->fk_gen == t->unique_gen;
}

static int add_fkey(rl_txn *t, const cat_unique *u, size_t nu, const uint8_t *k, size_t kl,
                    const uint8_t *v, size_t vl, rl_error *err)
{
    cat_fkey f;
    memset(&f, 0, sizeof f);
    rl_reader r;
    rl_buf s[3];
    for (int i = 0; i < 3; i++)
        rl_buf_init(&s[i], 0);
    rl_reader_init(&r, k + RL_KEY_INDEX_PREFIX_LEN, kl - RL_KEY_INDEX_PREFIX_LEN);
    bool ok = rl_key_get_str(&r, &s[0]) && rl_key_get_str(&r, &s[1]) &&
              rl_key_get_str(&r, &s[2]) && !rl_reader_left(&r);
    for (int i = 0; i < 3 && ok; i++)
        ok = s[i].len > 0 && s[i].len < RL_INDEX_NAME_MAX;
    int rc = 0;
    if (!ok || !rl_fkey_def_decode(v, vl, &f.def)) {
        rc = rl_error_set(err, RL_SQLSTATE_DATA_CORRUPTED,
                          "a FOREIGN KEY definition (0x80 08) does not decode");
        goto out;
    }
    memcpy(f.schema, s[0].data, s[0].len);
    memcpy(f.table, s[1].data, s[1].len);
    memcpy(f.name, s[2].data, s[2].len);
    rc = cat_table_ident(t, f.schema, f.table, &f.tag, &f.dyn_id, err);
    if (rc <= 0)
        goto out; /* 0: the table is gone in this view, and its constraints with it */
    size_t i = 0;
    while (i < nu && u[i].def.id != f.def.ref_index_id)
        i++;
    if (i == nu) {
        /* its referenced table is gone in this view: a rebuild (ALTER
         * TABLE of a dynamic table) between its drop and its new shape;
         * `rocklake check` finds one that stays dangling */
        rc = 0;
        goto out;
    }
    f.ref = u[i];
    cat_fkey *grown = rl_array_reserve(t->fk, t->nfk, &t->capfk, sizeof *grown, 4);
    if (!grown) {
        rc = oom(err);
        goto out;
    }
    t->fk = grown;
    t->fk[t->nfk++] = f;
    rc = 0;
out:
    for (int j = 0; j < 3; j++)
        rl_buf_free(&s[j]);
    return rc < 0 ? -1 : 0;
}

/* Creation order (the ids come from a counter): PostgreSQL fires a
 * table's RI triggers in name order, RI_ConstraintTrigger_<kind>_<oid>,
 * so the first constraint made is checked first and names the violation. */
static int by_creation(const void *a, const void *b)
{
    uint64_t x = ((const cat_fkey *)a)->def.id, y = ((const cat_fkey *)b)->def.id;
    return (x > y) - (x < y);
}

static int build_registry(rl_txn *t, rl_error *err)
{
    t->nfk = 0;
    t->fk_built = false;
    const cat_unique *u;
    size_t nu;
    if (cat_uniques(t, &u, &nu, err) < 0)
        return -1;
    if (nu > 0) { /* a FOREIGN KEY references a UNIQUE index: none without one */
        uint8_t prefix[RL_KEY_INDEX_PREFIX_LEN];
        rl_scan s;
        if (cat_raw_scan_open(t, &s, prefix, rl_key_index_prefix(prefix, RL_INDEX_FKEY), err) < 0)
            return -1;
        const uint8_t *k, *v;
        size_t kl, vl;
        int rc;
        while ((rc = cat_scan_merged_next(&s, &k, &kl, &v, &vl, err)) == 1)
            if (add_fkey(t, u, nu, k, kl, v, vl, err) < 0) {
                rc = -1;
                break;
            }
        kv_iter_free(s.it);
        if (rc < 0)
            return -1;
        if (t->nfk > 1)
            qsort(t->fk, t->nfk, sizeof *t->fk, by_creation);
    }
    t->fk_built = true;
    t->fk_rel_version = t->rel_version;
    t->fk_gen = t->unique_gen;
    return 0;
}

int cat_fkeys(rl_txn *t, const cat_fkey **out, size_t *n, rl_error *err)
{
    if (!registry_current(t) && build_registry(t, err) < 0)
        return -1;
    *out = t->fk;
    *n = t->nfk;
    return 0;
}

static bool on_table(uint8_t tag, uint64_t dyn_id, const rl_table_desc *d)
{
    return rl_desc_is_dynamic(d) ? tag == RL_TAG_DYNAMIC_ROW && dyn_id == d->dyn_id : tag == d->tag;
}

/* Does f's check wait for COMMIT now: a DEFERRABLE key, DEFERRED by SET
 * CONSTRAINTS (its name's last, else ALL's) or by its INITIALLY DEFERRED?
 * Never while the waiting checks run. */
static bool deferred_now(const rl_txn *t, const cat_fkey *f)
{
    if (!f->def.deferrable || t->fk_checking)
        return false;
    for (size_t i = t->nfkmode; i-- > 0;)
        if (t->fkmode[i].id == f->def.id)
            return t->fkmode[i].deferred;
    if (t->fk_all_mode != FK_MODE_DECLARED)
        return t->fk_all_mode == FK_MODE_DEFERRED;
    return f->def.initially_deferred;
}

/* A new check left for later: zeroed, in the list's order. */
static fkey_deferred *new_deferred(rl_txn *t, const cat_fkey *f, rl_error *err)
{
    fkey_deferred *grown = rl_array_reserve(t->fkd, t->nfkd, &t->capfkd, sizeof *grown, 4);
    if (!grown)
        return oom(err), NULL;
    t->fkd = grown;
    fkey_deferred *q = &t->fkd[t->nfkd];
    memset(q, 0, sizeof *q);
    q->id = f->def.id;
    q->at_commit = deferred_now(t, f);
    return q;
}

/* ----------------------------------------------------------- entry keys */

/* One key value's bytes as a UNIQUE entry holds them: 01, uvarint length,
 * the equality bytes. Column j of f, a value of `type` from either side:
 * a text or varchar value of a column referencing a character(n) one is
 * keyed as bpchar (its trailing blanks dropped), as the referenced side's
 * bpchar values are, since PostgreSQL compares the two with bpchar's =. */
static void put_value(rl_buf *key, rl_buf *scratch, const cat_fkey *f, size_t j, rl_type type,
                      const rl_datum *v)
{
    assert(j < f->def.ncols);
    if ((f->def.bpchar_cols >> j & 1) && (type == RL_T_TEXT || type == RL_T_VARCHAR))
        type = RL_T_BPCHAR;
    rl_buf_reset(scratch);
    rl_datum_equality_key(scratch, type, v);
    rl_buf_put_u8(key, 1);
    rl_buf_put_uvarint(key, scratch->len);
    rl_buf_put(key, scratch->data, scratch->len);
}

/* The referencing row's key values: 1 all non-NULL, 0 all NULL (or, MATCH
 * SIMPLE, any), -2 MATCH FULL with some NULL and some not, -3 a column the
 * table lacks (a rebuild in another shape: it is refilled afterwards). */
static int referencing_nulls(rl_txn *t, const cat_fkey *f, const rl_table_desc *d,
                             const rl_datum *row, int *cols)
{
    size_t nulls = 0;
    for (size_t j = 0; j < f->def.ncols; j++) {
        cols[j] = rl_desc_column_index(d, f->def.cols[j], t->fmt);
        if (cols[j] < 0)
            return -3;
        nulls += row[cols[j]].isnull;
    }
    if (nulls == 0)
        return 1;
    return f->def.match_full && nulls < f->def.ncols ? -2 : 0;
}

/* The entry prefix 0x80 09 id | values of `row` (a row of the referencing
 * table d, cols from referencing_nulls) into key. */
static int entry_prefix(const cat_fkey *f, const rl_table_desc *d, const int *cols,
                        const rl_datum *row, rl_buf *key, rl_error *err)
{
    rl_buf scratch;
    rl_buf_init(&scratch, 0);
    rl_buf_reset(key);
    rl_key_fkey_entries(key, f->def.id);
    for (size_t j = 0; j < f->def.ncols; j++)
        put_value(key, &scratch, f, j, d->cols[cols[j]].type, &row[cols[j]]);
    bool failed = key->failed || scratch.failed;
    rl_buf_free(&scratch);
    return failed ? oom(err) : 0;
}

/* The referenced UNIQUE index's entry key for the values of the
 * referencing row (index column i holds the FOREIGN KEY's column j with
 * ref_pos[j] == i). */
static int referenced_key(const cat_fkey *f, const rl_table_desc *d, const int *cols,
                          const rl_datum *row, rl_buf *key, rl_error *err)
{
    rl_buf scratch;
    rl_buf_init(&scratch, 0);
    rl_buf_reset(key);
    rl_key_unique_index(key, f->ref.def.id);
    for (size_t i = 0; i < f->ref.def.ncols; i++)
        for (size_t j = 0; j < f->def.ncols; j++)
            if (f->def.ref_pos[j] == i)
                put_value(key, &scratch, f, j, d->cols[cols[j]].type, &row[cols[j]]);
    bool failed = key->failed || scratch.failed;
    rl_buf_free(&scratch);
    return failed ? oom(err) : 0;
}

/* The referenced table's columns (in d, the referenced table) of each
 * FOREIGN KEY column: -1 for one d lacks (a rebuild in another shape). */
static bool referenced_cols(rl_txn *t, const cat_fkey *f, const rl_table_desc *d, int *cols)
{
    for (size_t j = 0; j < f->def.ncols; j++) {
        cols[j] = rl_desc_column_index(d, f->ref.def.cols[f->def.ref_pos[j]], t->fmt);
        if (cols[j] < 0)
            return false;
    }
    return true;
}

/* --------------------------------------------- a referencing row's write */

static int match_full_violation(const cat_fkey *f, const char *table, rl_error *err)
{
    rl_error_set(err, RL_SQLSTATE_FOREIGN_KEY_VIOLATION,
                 "insert or update on table \"%s\" violates foreign key constraint \"%s\"", table,
                 f->name);
    rl_error_detail(err, "MATCH FULL does not allow mixing of null and nonnull key values.");
    return -1;
}

/* An expectation of f at COMMIT (commit.c words its 23503 with the tables). */
static int fkey_expect(rl_txn *t, expect_kind kind, const rl_buf *key, const cat_fkey *f,
                       const char *detail, const char *table, const char *other, rl_error *err)
{
    if (cat_add_expectation(t, kind, key->data, key->len, NULL, 0, f->name, detail, err) < 0)
        return -1;
    expectation *e = &t->ex[t->nex - 1];
    rl_str_copy(e->table, sizeof e->table, table);
    rl_str_copy(e->other, sizeof e->other, other ? other : "");
    return 0;
}

/* Is the key the referencing row of d names held by that same row (a table
 * that references itself: a row may name its own key)? */
static bool names_itself(rl_txn *t, const cat_fkey *f, const rl_table_desc *d, const int *cols,
                         const rl_datum *row)
{
    if (!on_table(f->ref.tag, f->ref.dyn_id, d))
        return false;
    for (size_t j = 0; j < f->def.ncols; j++) {
        int rc = rl_desc_column_index(d, f->ref.def.cols[f->def.ref_pos[j]], t->fmt);
        if (rc < 0 || row[rc].isnull ||
            rl_datum_compare(d->cols[rc].type, &row[rc], &row[cols[j]]) != 0)
            return false;
    }
    return true;
}

/* The referenced key of one FOREIGN KEY must be there (or be the row's own). */
static int check_one(rl_txn *t, const cat_fkey *f, const rl_table_desc *d, const rl_datum *row,
                     rl_buf *key, rl_error *err)
{
    int cols[RL_INDEX_MAX_KEYS];
    int has = referencing_nulls(t, f, d, row, cols);
    bool later = (has == 1 || has == -2) && !t->fk_checks_off && deferred_now(t, f);
    if (has == -2 && !later)
        return match_full_violation(f, d->name, err);
    if (has != 1 && !later)
        return 0;
    if (t->fk_checks_off)
        return 0;
    if (later) { /* checked at COMMIT: its row key follows (cat_fkey_entries) */
        fkey_deferred *q = new_deferred(t, f, err);
        if (!q)
            return -1;
        q->referencing = true;
        q->d = d;
        t->nfkd++;
        return 0;
    }
    if (referenced_key(f, d, cols, row, key, err) < 0)
        return -1;
    pending *p = cat_ov_find(t, key->data, key->len);
    int found = p ? p->val != NULL : cat_view_get(t, key->data, key->len, NULL, NULL, err);
    if (found < 0)
        return -1;
    if (found == 0 && names_itself(t, f, d, cols, row))
        return 0;
    char detail[256];
    char what[RL_INDEX_NAME_MAX + 40];
    snprintf(what, sizeof what, "is not present in table \"%s\".", f->ref.def.table);
    cat_key_text(d, cols, f->def.ncols, row, what, detail, sizeof detail);
    if (found == 0) {
        rl_error_set(err, RL_SQLSTATE_FOREIGN_KEY_VIOLATION,
                     "insert or update on table \"%s\" violates foreign key constraint \"%s\"",
                     d->name, f->name);
        rl_error_detail(err, "%s", detail);
        return -1;
    }
    if (p)
        return 0; /* our own referenced row: its removal is checked where it happens */
    return fkey_expect(t, EXPECT_FKEY_PRESENT, key, f, detail, d->name, NULL, err);
}

int cat_fkey_check_row(rl_txn *t, const rl_table_desc *d, const rl_datum *row,
                       const rl_datum *old, rl_error *err)
{
    const cat_fkey *f;
    size_t n;
    if (cat_fkeys(t, &f, &n, err) < 0)
        return -1;
    rl_buf key;
    rl_buf_init(&key, 0);
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        if (!on_table(f[i].tag, f[i].dyn_id, d))
            continue;
        if (old) { /* an UPDATE that leaves the key columns alone checks nothing */
            int cols[RL_INDEX_MAX_KEYS];
            if (referencing_nulls(t, &f[i], d, row, cols) == -3)
                continue;
            size_t j = 0;
            while (j < f[i].def.ncols && old[cols[j]].isnull == row[cols[j]].isnull &&
                   (row[cols[j]].isnull ||
                    rl_datum_compare(d->cols[cols[j]].type, &old[cols[j]], &row[cols[j]]) == 0))
                j++;
            if (j == f[i].def.ncols)
                continue;
        }
        rc = check_one(t, &f[i], d, row, &key, err);
    }
    rl_buf_free(&key);
    return rc;
}

/* The row key of the check check_one left for a DEFERRED key of the row
 * now written (the last one of that key still without one). */
static int deferred_row_key(rl_txn *t, uint64_t id, const uint8_t *rk, size_t rkl, rl_error *err)
{
    for (size_t i = t->nfkd; i-- > 0;) {
        fkey_deferred *q = &t->fkd[i];
        if (q->id != id || !q->referencing)
            continue;
        if (q->prefix)
            return 0;
        if (!(q->prefix = dup_bytes(rk, rkl)))
            return oom(err);
        q->plen = rkl;
        return 0;
    }
    return 0;
}

int cat_fkey_entries(rl_txn *t, const rl_table_desc *d, const rl_datum *row, const uint8_t *rk,
                     size_t rkl, bool put, rl_error *err)
{
    const cat_fkey *f;
    size_t n;
    if (cat_fkeys(t, &f, &n, err) < 0)
        return -1;
    rl_buf key;
    rl_buf_init(&key, 0);
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        int cols[RL_INDEX_MAX_KEYS];
        if (!on_table(f[i].tag, f[i].dyn_id, d))
            continue;
        int has = referencing_nulls(t, &f[i], d, row, cols);
        if (has == -2 && put) /* MATCH FULL's partly NULL key: no entry, a check left */
            rc = deferred_row_key(t, f[i].def.id, rk, rkl, err);
        if (has != 1)
            continue;
        if (entry_prefix(&f[i], d, cols, row, &key, err) < 0) {
            rc = -1;
            break;
        }
        rl_buf_put(&key, rk, rkl);
        rc = key.failed ? oom(err) : cat_ov_set(t, key.data, key.len, put ? (const uint8_t *)"" : NULL, 0, err);
        if (rc == 0 && put)
            rc = deferred_row_key(t, f[i].def.id, rk, rkl, err);
    }
    rl_buf_free(&key);
    return rc;
}

/* ------------------------------------- a referenced row's DELETE / UPDATE */

typedef struct held_key {
    uint8_t *k;
    size_t kl;
} held_key;

static void held_free(held_key *h, size_t n)
{
    for (size_t i = 0; i < n; i++)
        free(h[i].k);
    free(h);
}

/* The row keys of the entries under `prefix` in the view (the referencing
 * rows), but `self` (the referenced row itself, in a table that references
 * itself): collected first, as acting on them changes the entries. */
static int referencing_rows(rl_txn *t, const rl_buf *prefix, const uint8_t *self, size_t selfl,
                            held_key **out, size_t *n, rl_error *err)
{
    *out = NULL;
    *n = 0;
    uint8_t *p = dup_bytes(prefix->data, prefix->len);
    if (!p)
        return oom(err);
    rl_scan s;
    if (cat_raw_scan_open(t, &s, p, prefix->len, err) < 0) {
        free(p);
        return -1;
    }
    size_t cap = 0;
    const uint8_t *k, *v;
    size_t kl, vl;
    int rc;
    while ((rc = cat_scan_merged_next(&s, &k, &kl, &v, &vl, err)) == 1) {
        const uint8_t *rk = k + prefix->len;
        size_t rkl = kl - prefix->len;
        if (self && rl_bytes_cmp(rk, rkl, self, selfl) == 0)
            continue;
        held_key *grown = rl_array_reserve(*out, *n, &cap, sizeof *grown, 8);
        uint8_t *c = grown ? dup_bytes(rk, rkl) : NULL;
        if (grown)
            *out = grown;
        if (!c) {
            rc = oom(err);
            break;
        }
        (*out)[(*n)++] = (held_key){c, rkl};
    }
    kv_iter_free(s.it);
    free(p);
    if (rc < 0) {
        held_free(*out, *n);
        *out = NULL;
        *n = 0;
        return -1;
    }
    return 0;
}

static int still_referenced(const cat_fkey *f, const char *detail, rl_error *err)
{
    rl_error_set(err, RL_SQLSTATE_FOREIGN_KEY_VIOLATION,
                 "update or delete on table \"%s\" violates foreign key constraint \"%s\" on "
                 "table \"%s\"",
                 f->ref.def.table, f->name, f->table);
    rl_error_detail(err, "%s", detail);
    return -1;
}

static int expect_unreferenced(rl_txn *t, const cat_fkey *f, const rl_buf *prefix,
                               const char *detail, rl_error *err)
{
    return fkey_expect(t, EXPECT_FKEY_UNREFERENCED, prefix, f, detail, f->ref.def.table, f->table,
                       err);
}

void rl_txn_set_default_fn(rl_txn *t, rl_default_fn fn, rl_assign_fn assign, void *ctx)
{
    t->default_fn = fn;
    t->assign_fn = assign;
    t->default_ctx = ctx;
}

/* One referencing row (key rk of table cd) after its referenced key went:
 * deleted (CASCADE), or its key columns set to NULL, to their defaults
 * (SET DEFAULT, through the SQL layer's default_fn) or (CASCADE on UPDATE)
 * to the new key `nw` (columns rcols of referenced table pd; a value of
 * another type or typmod assigned to the column through its assign_fn). */
static int act_on_row(rl_txn *t, const cat_fkey *f, const rl_table_desc *cd, const uint8_t *rk,
                      size_t rkl, char action, const rl_table_desc *pd, const int *rcols,
                      const rl_datum *nw, rl_error *err)
{
    if (action == RL_FKEY_CASCADE && !nw)
        return rl_txn_delete(t, cd, rk, rkl, err);
    uint8_t *val = NULL;
    size_t vl = 0;
    rl_buf arena;
    rl_buf_init(&arena, 0);
    rl_arena defaults;
    memset(&defaults, 0, sizeof defaults);
    rl_row *row = malloc(sizeof *row);
    cat_follow_moves(t, &rk, &rkl); /* an action before this one may have moved it */
    int rc = row ? cat_view_get(t, rk, rkl, &val, &vl, err) : oom(err);
    if (rc == 1)
        rc = cat_decode_row(t, cd, rk, rkl, val, vl, row, &arena, err) < 0 ? -1 : 1;
    if (rc == 1) {
        rl_datum nr[RL_MAX_COLUMNS];
        memcpy(nr, row->vals, sizeof nr);
        for (size_t j = 0; j < f->def.ncols; j++) {
            int c = rl_desc_column_index(cd, f->def.cols[j], t->fmt);
            assert(c >= 0);
            if (action == RL_FKEY_CASCADE) {
                /* the key as the column's type takes it (PostgreSQL's
                 * UPDATE ... SET col = the new key assigns it) */
                const rl_column_desc *to = &cd->cols[c], *from = &pd->cols[rcols[j]];
                nr[c] = nw[rcols[j]];
                if (rc == 1 && !nr[c].isnull && t->assign_fn &&
                    (to->type != from->type || to->typmod != from->typmod))
                    rc = t->assign_fn(t->default_ctx, f->schema, cd, (size_t)c, from->type,
                                      &nw[rcols[j]], &defaults, &nr[c], err) < 0 ? -1 : rc;
                else if ((f->def.bpchar_cols >> j & 1) && !nr[c].isnull)
                    nr[c].v.s.len = rl_bpchar_trimmed_len(&nr[c]); /* bpchar's cast to text */
            }
            else if (action == RL_FKEY_SET_DEFAULT && t->default_fn)
                rc = t->default_fn(t->default_ctx, f->schema, cd, (size_t)c, &defaults, &nr[c],
                                   err) < 0 ? -1 : rc;
            else
                nr[c].isnull = true;
        }
        if (rc == 1)
            rc = rl_txn_update(t, cd, rk, rkl, nr, err);
    }
    rl_arena_free(&defaults);
    free(val);
    free(row);
    rl_buf_free(&arena);
    return rc < 0 ? -1 : 0;
}

/* A referenced key of pd went (old's; nw the row's new values on an UPDATE):
 * the FOREIGN KEY f's action on the rows that reference it. */
static int referenced_key_gone(rl_txn *t, const cat_fkey *f, const rl_table_desc *pd,
                               const rl_datum *old, const rl_datum *nw, const uint8_t *rk,
                               size_t rkl, rl_error *err)
{
    int rcols[RL_INDEX_MAX_KEYS];
    if (!referenced_cols(t, f, pd, rcols))
        return 0;
    for (size_t j = 0; j < f->def.ncols; j++)
        if (old[rcols[j]].isnull)
            return 0; /* no row references a key with a NULL in it */
    rl_buf prefix, np;
    rl_buf_init(&prefix, 0);
    rl_buf_init(&np, 0);
    int rc = entry_prefix(f, pd, rcols, old, &prefix, err);
    if (rc == 0 && nw) {
        bool nulls = false;
        for (size_t j = 0; j < f->def.ncols; j++)
            nulls |= nw[rcols[j]].isnull;
        if (!nulls && entry_prefix(f, pd, rcols, nw, &np, err) < 0)
            rc = -1;
        else if (!nulls && rl_bytes_cmp(prefix.data, prefix.len, np.data, np.len) == 0)
            goto out; /* the key is the same: nothing references another one */
    }
    char action = nw ? f->def.on_update : f->def.on_delete;
    char detail[256], what[RL_INDEX_NAME_MAX + 40];
    snprintf(what, sizeof what, "is still referenced from table \"%s\".", f->table);
    cat_key_text(pd, rcols, f->def.ncols, old, what, detail, sizeof detail);
    held_key *refs = NULL;
    size_t nrefs = 0;
    bool self = on_table(f->tag, f->dyn_id, pd);
    if (rc == 0)
        rc = referencing_rows(t, &prefix, self ? rk : NULL, rkl, &refs, &nrefs, err);
    if (rc == 0 && nrefs == 0)
        rc = expect_unreferenced(t, f, &prefix, detail, err);
    else if (rc == 0 && action == RL_FKEY_RESTRICT)
        rc = still_referenced(f, detail, err);
    else if (rc == 0 && action == RL_FKEY_NO_ACTION)
        rc = cat_fkey_defer(t, f, &prefix, pd, rcols, old, detail, err);
    else if (rc == 0) {
        const rl_table_desc *cd = rl_txn_find_table(t, f->schema, f->table, err);
        if (!cd)
            rc = -1;
        if (++t->fk_depth > FKEY_MAX_DEPTH)
            rc = rl_error_set(err, RL_SQLSTATE_STATEMENT_TOO_COMPLEX,
                              "foreign key actions nest deeper than %d rows", FKEY_MAX_DEPTH);
        for (size_t i = 0; rc == 0 && i < nrefs; i++)
            rc = act_on_row(t, f, cd, refs[i].k, refs[i].kl, action, pd, rcols, nw, err);
        t->fk_depth--;
    }
    held_free(refs, nrefs);
out:
    rl_buf_free(&prefix);
    rl_buf_free(&np);
    return rc < 0 ? -1 : 0;
}

int cat_fkey_referenced_change(rl_txn *t, const rl_table_desc *d, const rl_datum *old,
                               const rl_datum *nw, const uint8_t *rk, size_t rkl, rl_error *err)
{
    const cat_fkey *f;
    size_t n;
    /* checks off: every referencing table goes in the same statement
     * (TRUNCATE), so there is nothing to check or act on */
    if (t->fk_checks_off)
        return 0;
    if (cat_fkeys(t, &f, &n, err) < 0)
        return -1;
    if (n == 0)
        return 0;
    /* the actions write rows, which may rebuild the registry: a copy */
    cat_fkey *copy = malloc(n * sizeof *copy);
    if (!copy)
        return oom(err);
    memcpy(copy, f, n * sizeof *copy);
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++)
        if (on_table(copy[i].ref.tag, copy[i].ref.dyn_id, d))
            rc = referenced_key_gone(t, &copy[i], d, old, nw, rk, rkl, err);
    free(copy);
    return rc;
}

/* ---------------------------------------------- NO ACTION: statement end */

int cat_fkey_defer(rl_txn *t, const cat_fkey *f, const rl_buf *prefix, const rl_table_desc *pd,
                   const int *rcols, const rl_datum *old, const char *detail, rl_error *err)
{
    fkey_deferred *q = new_deferred(t, f, err);
    if (!q)
        return -1;
    rl_buf rkey;
    rl_buf_init(&rkey, 0);
    if (referenced_key(f, pd, rcols, old, &rkey, err) < 0)
        return -1;
    q->prefix = dup_bytes(prefix->data, prefix->len);
    q->plen = prefix->len;
    q->refkey = dup_bytes(rkey.data, rkey.len);
    q->rklen = rkey.len;
    rl_buf_free(&rkey);
    if (!q->prefix || !q->refkey) {
        free(q->prefix);
        free(q->refkey);
        return oom(err);
    }
    rl_str_copy(q->detail, sizeof q->detail, detail);
    t->nfkd++;
    return 0;
}

/* A DEFERRED key's check of a referencing row: the row as it is now (gone,
 * or written again with other values that left their own check: nothing
 * to check) must find its referenced key, as check_one checks it. */
static int referencing_check(rl_txn *t, const cat_fkey *f, const fkey_deferred *q, rl_error *err)
{
    if (!q->prefix)
        return 0; /* its row was never written (the statement failed) */
    cat_fkey fk = *f; /* the reads below may rebuild the registry */
    /* the table the row was written to, unless DDL made it another since */
    const rl_table_desc *d = on_table(fk.tag, fk.dyn_id, q->d)
                                 ? q->d
                                 : rl_txn_find_table(t, fk.schema, fk.table, err);
    if (!d)
        return -1;
    uint8_t *val = NULL;
    size_t vl = 0;
    rl_buf arena, key;
    rl_buf_init(&arena, 0);
    rl_buf_init(&key, 0);
    rl_row *row = malloc(sizeof *row);
    int rc = row ? cat_view_get(t, q->prefix, q->plen, &val, &vl, err) : oom(err);
    if (rc == 1)
        rc = cat_decode_row(t, d, q->prefix, q->plen, val, vl, row, &arena, err) < 0
                 ? -1
                 : check_one(t, &fk, d, row->vals, &key, err);
    free(val);
    free(row);
    rl_buf_free(&arena);
    rl_buf_free(&key);
    return rc < 0 ? -1 : 0;
}

/* One check left for later: a referencing row's (referencing_check), or a
 * referenced key's that went: a row holds the key again (an UPDATE that
 * swapped keys), or no row references it any more; else 23503. */
static int deferred_check(rl_txn *t, const fkey_deferred *q, rl_error *err)
{
    const cat_fkey *f;
    size_t n;
    if (cat_fkeys(t, &f, &n, err) < 0)
        return -1;
    size_t i = 0;
    while (i < n && f[i].def.id != q->id)
        i++;
    if (i == n)
        return 0; /* the constraint was dropped since */
    if (q->referencing)
        return referencing_check(t, &f[i], q, err);
    int held = cat_view_get(t, q->refkey, q->rklen, NULL, NULL, err);
    if (held != 0)
        return held < 0 ? -1 : 0;
    rl_buf prefix;
    rl_buf_init(&prefix, 0);
    rl_buf_put(&prefix, q->prefix, q->plen);
    held_key *refs = NULL;
    size_t nrefs = 0;
    int rc = prefix.failed ? oom(err) : referencing_rows(t, &prefix, NULL, 0, &refs, &nrefs, err);
    held_free(refs, nrefs);
    if (rc == 0)
        rc = nrefs ? still_referenced(&f[i], q->detail, err)
                   : expect_unreferenced(t, &f[i], &prefix, q->detail, err);
    rl_buf_free(&prefix);
    return rc;
}

/* Which of the checks left run now. */
typedef enum run_which {
    RUN_STATEMENT, /* the statement's end: those of keys checked IMMEDIATE then */
    RUN_IMMEDIATE, /* SET CONSTRAINTS ... IMMEDIATE: those whose keys are no longer deferred */
    RUN_ALL        /* COMMIT */
} run_which;

/* Is the key of a check left at_commit still deferred? (A dropped one is
 * not: its check finds nothing.) */
static int still_deferred(rl_txn *t, uint64_t id, rl_error *err)
{
    const cat_fkey *f;
    size_t n;
    if (cat_fkeys(t, &f, &n, err) < 0)
        return -1;
    for (size_t i = 0; i < n; i++)
        if (f[i].def.id == id)
            return deferred_now(t, &f[i]);
    return 0;
}

/* Run the checks `which` selects, in the order they were left, and drop
 * them (all of them on an error: the statement or the transaction fails);
 * the others stay, in order. */
static int run_deferred(rl_txn *t, run_which which, rl_error *err)
{
    bool checking = t->fk_checking;
    t->fk_checking = true; /* a check that writes nothing defers nothing */
    int rc = 0;
    size_t kept = 0;
    for (size_t i = 0; i < t->nfkd; i++) {
        fkey_deferred *q = &t->fkd[i];
        int run = which == RUN_ALL || !q->at_commit;
        if (!run && which == RUN_IMMEDIATE) {
            t->fk_checking = checking;
            int d = still_deferred(t, q->id, err);
            t->fk_checking = true;
            run = d < 0 ? -1 : !d;
        }
        if (run < 0 || rc < 0) {
            rc = -1;
        } else if (run) {
            rc = deferred_check(t, q, err);
        } else {
            t->fkd[kept++] = *q;
            continue;
        }
        free(q->prefix);
        free(q->refkey);
    }
    t->nfkd = rc < 0 ? 0 : kept;
    if (rc < 0)
        for (size_t i = 0; i < kept; i++) {
            free(t->fkd[i].prefix);
            free(t->fkd[i].refkey);
        }
    t->fk_checking = checking;
    return rc;
}

int rl_txn_fkey_statement_end(rl_txn *t, rl_error *err)
{
    return t->nfkd ? run_deferred(t, RUN_STATEMENT, err) : 0;
}

int rl_txn_fkey_pending_on(rl_txn *t, const rl_table_desc *d, rl_error *err)
{
    if (!t->nfkd)
        return 0;
    const cat_fkey *f;
    size_t n;
    if (cat_fkeys(t, &f, &n, err) < 0)
        return -1;
    for (size_t i = 0; i < t->nfkd; i++)
        for (size_t j = 0; j < n; j++) {
            const fkey_deferred *q = &t->fkd[i];
            if (f[j].def.id != q->id || (q->referencing && !q->prefix))
                continue;
            if (q->referencing ? on_table(f[j].tag, f[j].dyn_id, d)
                               : on_table(f[j].ref.tag, f[j].ref.dyn_id, d))
                return 1;
        }
    return 0;
}

int rl_txn_fkey_deferred_checks(rl_txn *t, rl_error *err)
{
    return t->nfkd ? run_deferred(t, RUN_ALL, err) : 0;
}

int rl_txn_set_constraints(rl_txn *t, const uint64_t *ids, size_t n, bool deferred,
                           rl_error *err)
{
    if (!ids) { /* ALL: the names set before are forgotten */
        t->fk_all_mode = deferred ? FK_MODE_DEFERRED : FK_MODE_IMMEDIATE;
        t->nfkmode = 0;
    }
    for (size_t i = 0; ids && i < n; i++) {
        fkey_mode *grown = rl_array_reserve(t->fkmode, t->nfkmode, &t->capfkmode, sizeof *grown, 4);
        if (!grown)
            return oom(err);
        t->fkmode = grown;
        t->fkmode[t->nfkmode++] = (fkey_mode){ids[i], deferred};
    }
    return deferred || !t->nfkd ? 0 : run_deferred(t, RUN_IMMEDIATE, err);
}

int rl_txn_unique_index_by_id(rl_txn *t, uint64_t id, char *schema, char *name,
                              rl_index_def *def, rl_error *err)
{
    const cat_unique *u;
    size_t n;
    if (cat_uniques(t, &u, &n, err) < 0)
        return -1;
    for (size_t i = 0; i < n; i++)
        if (u[i].def.id == id) {
            rl_str_copy(schema, RL_INDEX_NAME_MAX, u[i].schema);
            rl_str_copy(name, RL_INDEX_NAME_MAX, u[i].name);
            *def = u[i].def;
            return 1;
        }
    return 0;
}

void rl_txn_fkey_checks(rl_txn *t, bool on)
{
    t->fk_checks_off = !on;
}

/* ------------------------------------------------------------------ DDL */

int rl_txn_find_fkey(rl_txn *t, const char *schema, const char *table, const char *name,
                     rl_fkey_def *out, rl_error *err)
{
    rl_buf k;
    rl_buf_init(&k, 0);
    rl_key_fkey(&k, schema, table, name);
    uint8_t *v = NULL;
    size_t vl = 0;
    int rc = k.failed ? oom(err) : cat_view_get(t, k.data, k.len, &v, &vl, err);
    rl_buf_free(&k);
    if (rc == 1 && !rl_fkey_def_decode(v, vl, out))
        rc = rl_error_set(err, RL_SQLSTATE_DATA_CORRUPTED,
                          "the definition of constraint \"%s\" does not decode", name);
    free(v);
    return rc;
}

static int put_fkey(rl_txn *t, const char *schema, const char *table, const char *name,
                    const rl_fkey_def *d, rl_error *err)
{
    rl_buf k, v;
    rl_buf_init(&k, 0);
    rl_buf_init(&v, 0);
    rl_key_fkey(&k, schema, table, name);
    if (d)
        rl_fkey_def_encode(&v, d);
    t->unique_changed = true; /* writers checked under the old definitions conflict */
    int rc = k.failed || v.failed ? oom(err)
                                  : cat_ov_set(t, k.data, k.len, d ? v.data : NULL, v.len, err);
    rl_buf_free(&k);
    rl_buf_free(&v);
    return rc;
}

/* Tombstone every entry of FOREIGN KEY `id`. */
static int clear_entries(rl_txn *t, uint64_t id, rl_error *err)
{
    rl_buf p;
    rl_buf_init(&p, 0);
    rl_key_fkey_entries(&p, id);
    held_key *keys = NULL;
    size_t n = 0;
    int rc = p.failed ? oom(err) : referencing_rows(t, &p, NULL, 0, &keys, &n, err);
    rl_buf k;
    rl_buf_init(&k, 0);
    for (size_t i = 0; rc == 0 && i < n; i++) {
        rl_buf_reset(&k);
        rl_buf_put(&k, p.data, p.len);
        rl_buf_put(&k, keys[i].k, keys[i].kl);
        rc = k.failed ? oom(err) : cat_ov_set(t, k.data, k.len, NULL, 0, err);
    }
    held_free(keys, n);
    rl_buf_free(&k);
    rl_buf_free(&p);
    return rc;
}


/* The entries of FOREIGN KEY `id` (its definition written) from the rows
 * of its table, each one's referenced key checked unless `check` is off;
 * both tables must stay as read until COMMIT. */
static int fill_entries(rl_txn *t, uint64_t id, bool check, rl_error *err)
{
    cat_relations_changed(t); /* the registry is rebuilt with the definition */
    const cat_fkey *fs;
    size_t n;
    if (cat_fkeys(t, &fs, &n, err) < 0)
        return -1;
    size_t i = 0;
    while (i < n && fs[i].def.id != id)
        i++;
    if (i == n)
        return rl_error_set(err, RL_SQLSTATE_INTERNAL, "foreign key %llu is not registered",
                            (unsigned long long)id);
    cat_fkey f = fs[i];
    const rl_table_desc *d = rl_txn_find_table(t, f.schema, f.table, err);
    const rl_table_desc *pd = d ? rl_txn_find_table(t, f.ref.schema, f.ref.def.table, err) : NULL;
    if (!pd)
        return -1;
    rl_scan *s = rl_txn_scan(t, d, NULL, 0, err);
    if (!s)
        return -1;
    /* the scan reads the overlay the entries go to: collect, then write */
    held_key *keys = NULL;
    size_t nk = 0, cap = 0;
    rl_buf key, rkey;
    rl_buf_init(&key, 0);
    rl_buf_init(&rkey, 0);
    bool off = t->fk_checks_off, checking = t->fk_checking;
    t->fk_checks_off = !check;
    t->fk_checking = true; /* ADD / VALIDATE checks every row now, DEFERRABLE or not */
    const rl_row *row;
    int rc;
    while ((rc = rl_scan_next(s, &row, err)) == 1) {
        if (check_one(t, &f, d, row->vals, &rkey, err) < 0) {
            rc = -1;
            break;
        }
        int cols[RL_INDEX_MAX_KEYS];
        if (referencing_nulls(t, &f, d, row->vals, cols) != 1)
            continue;
        if (entry_prefix(&f, d, cols, row->vals, &key, err) < 0) {
            rc = -1;
            break;
        }
        rl_buf_put(&key, row->key, row->klen);
        held_key *grown = rl_array_reserve(keys, nk, &cap, sizeof *grown, 64);
        uint8_t *c = grown ? dup_bytes(key.data, key.len) : NULL;
        if (grown)
            keys = grown;
        if (!c || key.failed) {
            free(c);
            rc = oom(err);
            break;
        }
        keys[nk++] = (held_key){c, key.len};
    }
    t->fk_checks_off = off;
    t->fk_checking = checking;
    rl_scan_free(s);
    for (size_t j = 0; rc == 0 && j < nk; j++)
        rc = cat_ov_set(t, keys[j].k, keys[j].kl, (const uint8_t *)"", 0, err);
    held_free(keys, nk);
    rl_buf_free(&key);
    rl_buf_free(&rkey);
    if (rc < 0)
        return -1;
    if (cat_expect_table_unchanged(t, d, err) < 0)
        return -1;
    return pd == d ? 0 : cat_expect_table_unchanged(t, pd, err);
}

int rl_txn_create_fkey(rl_txn *t, const char *schema, const char *table, const char *name,
                       const rl_fkey_def *d, rl_error *err)
{
    cat_relations_changed(t);
    if (!cat_is_write_allowed(t, err))
        return -1;
    assert(d->ncols >= 1 && d->ncols <= RL_INDEX_MAX_KEYS);
    rl_fkey_def def = *d;
    if (cat_txn_alloc_seq(t, RL_COUNTER_NEXT_FKEY_ID, &def.id, err) < 0)
        return -1;
    if (def.id == 0 && cat_txn_alloc_seq(t, RL_COUNTER_NEXT_FKEY_ID, &def.id, err) < 0)
        return -1; /* 0 is "not allocated" */
    if (cat_touch_counter(t, RL_COUNTER_NEXT_FKEY_ID, def.id + 1, err) < 0)
        return -1;
    rl_buf k;
    rl_buf_init(&k, 0);
    rl_key_fkey(&k, schema, table, name);
    int rc = k.failed ? oom(err) : cat_expect_unique(t, k.data, k.len, name, "", err);
    rl_buf_free(&k);
    if (rc < 0 || put_fkey(t, schema, table, name, &def, err) < 0)
        return -1;
    return fill_entries(t, def.id, !def.not_valid, err);
}

int rl_txn_replace_fkey(rl_txn *t, const char *schema, const char *table, const char *name,
                        const char *newtable, const char *newname, const rl_fkey_def *d,
                        rl_error *err)
{
    cat_relations_changed(t);
    if (!cat_is_write_allowed(t, err))
        return -1;
    rl_fkey_def old;
    int rc = rl_txn_find_fkey(t, schema, table, name, &old, err);
    if (rc == 0)
        return rl_error_set(err, RL_SQLSTATE_UNDEFINED_OBJECT,
                            "constraint \"%s\" of relation \"%s\" does not exist", name, table);
    if (rc < 0 || clear_entries(t, old.id, err) < 0 || put_fkey(t, schema, table, name, NULL, err) < 0)
        return -1;
    if (!d)
        return 0;
    rl_fkey_def def = *d;
    def.id = old.id;
    if (put_fkey(t, schema, newtable, newname, &def, err) < 0)
        return -1;
    /* rows it has held are valid; a NOT VALID one made valid (VALIDATE
     * CONSTRAINT) has every row's key checked now */
    return fill_entries(t, def.id, old.not_valid && !def.not_valid, err);
}

int rl_txn_drop_fkey(rl_txn *t, const char *schema, const char *table, const char *name,
                     rl_error *err)
{
    return rl_txn_replace_fkey(t, schema, table, name, NULL, NULL, NULL, err);
}

int cat_fkey_clear_of(rl_txn *t, const rl_table_desc *d, rl_error *err)
{
    const cat_fkey *f;
    size_t n;
    if (cat_fkeys(t, &f, &n, err) < 0)
        return -1;
    /* clearing writes entries only, which leaves the registry as it is */
    for (size_t i = 0; i < n; i++)
        if (on_table(f[i].tag, f[i].dyn_id, d) && clear_entries(t, f[i].def.id, err) < 0)
            return -1;
    return 0;
}

int rl_txn_list_fkeys(rl_txn *t, const char *schema, const char *table, rl_fkey_visitor visit,
                      void *ctx, rl_error *err)
{
    rl_buf p;
    rl_buf_init(&p, 0);
    rl_key_fkey_prefix(&p, schema, table);
    if (p.failed)
        return oom(err);
    rl_scan s;
    if (cat_raw_scan_open(t, &s, p.data, p.len, err) < 0) {
        rl_buf_free(&p);
        return -1;
    }
    const uint8_t *k, *v;
    size_t kl, vl;
    rl_buf b[3];
    for (int i = 0; i < 3; i++)
        rl_buf_init(&b[i], 0);
    int rc;
    while ((rc = cat_scan_merged_next(&s, &k, &kl, &v, &vl, err)) == 1) {
        rl_reader r;
        rl_reader_init(&r, k + RL_KEY_INDEX_PREFIX_LEN, kl - RL_KEY_INDEX_PREFIX_LEN);
        bool ok = true;
        for (int i = 0; i < 3 && ok; i++) {
            rl_buf_reset(&b[i]);
            ok = rl_key_get_str(&r, &b[i]);
            rl_buf_put_u8(&b[i], 0);
            ok = ok && !b[i].failed;
        }
        rl_fkey_def d;
        if (!ok || rl_reader_left(&r) || !rl_fkey_def_decode(v, vl, &d)) {
            rc = rl_error_set(err, RL_SQLSTATE_DATA_CORRUPTED,
                              "a FOREIGN KEY definition (0x80 08) does not decode");
            break;
        }
        if ((rc = visit(ctx, (char *)b[0].data, (char *)b[1].data, (char *)b[2].data, &d)) != 0)
            break;
    }
    kv_iter_free(s.it);
    for (int i = 0; i < 3; i++)
        rl_buf_free(&b[i]);
    rl_buf_free(&p);
    return rc;
}
