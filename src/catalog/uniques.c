/*
 * uniques.c — the UNIQUE indexes a transaction sees, and their entries'
 * keys.
 *
 * Owns: the transaction's registry of UNIQUE indexes (every 0x80 05
 * definition with the unique flag, with the table it is on resolved
 * through the name index 0x80 03 to a fixed tag or a dynamic id), rebuilt
 * when the transaction's DDL or snapshot changes it; the catalog's note
 * that a generation of committed definitions has none (so that a lake
 * without UNIQUE indexes pays no scan per transaction); an entry's key
 * (0x80 07 id | per key column 00 for NULL or 01, uvarint length and the
 * value's equality bytes, rl_datum_equality_key) and the 23505 texts,
 * the key values of an index over expressions or with a predicate asked
 * of the SQL layer (the transaction's rl_index_fn; none: 0A000);
 * clearing an index's entries.
 *
 * Invariants: the registry is that of the transaction's view at
 * (rel_version, unique_gen) and is dropped by any write of a name or an
 * index definition (cat_ov_set); cat->unique_none_gen is 1 + a generation
 * whose committed definitions hold no UNIQUE index, and is only set from a
 * view of that generation without DDL of its own. Reads go through scan.c
 * only (rows.c writes the entries, relations.c the definitions).
 */
#include "catalog/catalog_int.h"

#include <assert.h>
#include <stdio.h>

#include "keys/keys.h"
#include "keys/tags.h"
#include "pgtype/pgtype.h"

static bool registry_current(const rl_txn *t)
{
    return t->uniq_built && t->uniq_rel_version == t->rel_version &&
           t->uniq_gen == t->unique_gen;
}

/* One definition under 0x80 05 into the registry when it is UNIQUE and its
 * table exists in the view. */
static int add_definition(rl_txn *t, const uint8_t *k, size_t kl, const uint8_t *v, size_t vl,
                          rl_error *err)
{
    rl_index_def def;
    if (!rl_index_def_decode(v, vl, &def))
        return rl_error_set(err, RL_SQLSTATE_DATA_CORRUPTED,
                            "an index definition (0x80 05) does not decode");
    if (!def.unique)
        return 0;
    rl_reader r;
    rl_buf schema, name;
    rl_buf_init(&schema, 0);
    rl_buf_init(&name, 0);
    rl_reader_init(&r, k + RL_KEY_INDEX_PREFIX_LEN, kl - RL_KEY_INDEX_PREFIX_LEN);
    bool ok = rl_key_get_str(&r, &schema) && rl_key_get_str(&r, &name) && !rl_reader_left(&r) &&
              schema.len < RL_INDEX_NAME_MAX && name.len < RL_INDEX_NAME_MAX;
    int rc = 0;
    if (!ok) {
        rc = rl_error_set(err, RL_SQLSTATE_DATA_CORRUPTED, "malformed index definition key");
        goto out;
    }
    cat_unique u;
    memset(&u, 0, sizeof u);
    memcpy(u.schema, schema.data, schema.len);
    memcpy(u.name, name.data, name.len);
    u.def = def;
    rc = cat_table_ident(t, u.schema, def.table, &u.tag, &u.dyn_id, err);
    if (rc != 1)
        goto out; /* 0: the table is gone in this view, its index with it */
    cat_unique *grown = rl_array_reserve(t->uniq, t->nuniq, &t->capuniq, sizeof *grown, 4);
    if (!grown) {
        rc = oom(err);
        goto out;
    }
    t->uniq = grown;
    t->uniq[t->nuniq++] = u;
    rc = 0;
out:
    rl_buf_free(&schema);
    rl_buf_free(&name);
    return rc;
}

int cat_table_ident(rl_txn *t, const char *schema, const char *table, uint8_t *tag,
                    uint64_t *dyn_id, rl_error *err)
{
    rl_buf nk;
    rl_buf_init(&nk, 0);
    rl_key_dynamic_name(&nk, schema, table);
    uint8_t *nv = NULL;
    size_t nvl = 0;
    int rc = nk.failed ? oom(err) : cat_view_get(t, nk.data, nk.len, &nv, &nvl, err);
    rl_buf_free(&nk);
    rl_name_entry e;
    if (rc == 1 && !rl_name_entry_decode(nv, nvl, &e))
        rc = rl_error_set(err, RL_SQLSTATE_DATA_CORRUPTED,
                          "name index entry of \"%s.%s\" is malformed", schema, table);
    free(nv);
    if (rc != 1)
        return rc;
    *tag = e.tag ? e.tag : RL_TAG_DYNAMIC_ROW;
    *dyn_id = e.tag ? 0 : e.dyn_id;
    return 1;
}

static int by_id(const void *a, const void *b)
{
    uint64_t x = ((const cat_unique *)a)->def.id, y = ((const cat_unique *)b)->def.id;
    return (x > y) - (x < y);
}

static int build_registry(rl_txn *t, rl_error *err)
{
    t->nuniq = 0;
    t->uniq_built = false;
    bool own = t->wrote_names; /* DDL of ours: the committed generation does not say */
    uint64_t none = atomic_load(&t->cat->unique_none_gen);
    if (own || none != t->unique_gen + 1) {
        uint8_t prefix[RL_KEY_INDEX_PREFIX_LEN];
        rl_scan s;
        if (cat_raw_scan_open(t, &s, prefix, rl_key_index_prefix(prefix, RL_INDEX_SQL_INDEX),
                              err) < 0)
            return -1;
        const uint8_t *k, *v;
        size_t kl, vl;
        int rc;
        while ((rc = cat_scan_merged_next(&s, &k, &kl, &v, &vl, err)) == 1)
            if (add_definition(t, k, kl, v, vl, err) < 0) {
                rc = -1;
                break;
            }
        kv_iter_free(s.it);
        if (rc < 0)
            return -1;
        /* in creation order, which is PostgreSQL's (an index's oid): the
         * first index a row violates is the one its 23505 names */
        if (t->nuniq > 1)
            qsort(t->uniq, t->nuniq, sizeof *t->uniq, by_id);
        if (!own && t->nuniq == 0 && !t->cat->read_only)
            atomic_store(&t->cat->unique_none_gen, t->unique_gen + 1);
    }
    t->uniq_built = true;
    t->uniq_rel_version = t->rel_version;
    t->uniq_gen = t->unique_gen;
    return 0;
}

int cat_uniques(rl_txn *t, const cat_unique **out, size_t *n, rl_error *err)
{
    if (!registry_current(t) && build_registry(t, err) < 0)
        return -1;
    *out = t->uniq;
    *n = t->nuniq;
    return 0;
}

bool cat_unique_on(const cat_unique *u, const rl_table_desc *d)
{
    return rl_desc_is_dynamic(d) ? u->tag == RL_TAG_DYNAMIC_ROW && u->dyn_id == d->dyn_id
                                 : u->tag == d->tag;
}

void rl_txn_set_index_fn(rl_txn *t, rl_index_fn fn, void *ctx)
{
    t->index_fn = fn;
    t->index_ctx = ctx;
}

/* u's key values for `row` of d into vals / types (strings in arena): 1 the
 * row is in the index, 0 not (a column d lacks: the table is being rebuilt
 * in a new shape, and the index's definition follows it afterwards,
 * dropped with its column or renamed and refilled: relations.c; a
 * predicate not true), -1 with err. An index over expressions or with a
 * predicate asks the SQL layer (rl_index_fn); without it the write is
 * refused, never done without the entry. */
static int key_values(rl_txn *t, const cat_unique *u, const rl_table_desc *d, const rl_datum *row,
                      rl_arena *arena, rl_datum *vals, rl_type *types, rl_error *err)
{
    if (rl_index_def_computed(&u->def)) {
        if (!t->index_fn)
            return rl_error_set(err, RL_SQLSTATE_FEATURE_NOT_SUPPORTED,
                                "unique index \"%s\" is over an expression or has a predicate: "
                                "RockLake keeps its entries for rows written through SQL only",
                                u->name);
        int rc = t->index_fn(t->index_ctx, u->schema, &u->def, d, row, arena, vals, types, err);
        assert(rc <= 0 || u->def.ncols <= RL_INDEX_MAX_KEYS);
        return rc;
    }
    for (size_t i = 0; i < u->def.ncols; i++) {
        int c = rl_desc_column_index(d, u->def.cols[i], t->fmt);
        if (c < 0)
            return 0;
        vals[i] = row[c];
        types[i] = d->cols[c].type;
    }
    return 1;
}

int cat_table_has_computed_unique(rl_txn *t, const rl_table_desc *d, rl_error *err)
{
    const cat_unique *u;
    size_t n;
    if (cat_uniques(t, &u, &n, err) < 0)
        return -1;
    for (size_t i = 0; i < n; i++)
        if (cat_unique_on(&u[i], d) && rl_index_def_computed(&u[i].def))
            return 1;
    return 0;
}

int cat_unique_entry_key(rl_txn *t, const cat_unique *u, const rl_table_desc *d,
                         const rl_datum *row, rl_buf *key, rl_error *err)
{
    rl_datum vals[RL_INDEX_MAX_KEYS];
    rl_type types[RL_INDEX_MAX_KEYS];
    rl_arena arena;
    memset(&arena, 0, sizeof arena);
    int rc = key_values(t, u, d, row, &arena, vals, types, err);
    if (rc == 1)
        rc = rl_unique_entry_key_of(key, &u->def, types, vals);
    else if (rc < 0)
        rc = -3; /* err says why */
    rl_arena_free(&arena);
    if (rc == -3)
        return -1;
    if (rc == -1)
        return oom(err);
    if (rc == -2)
        return rl_error_set(err, RL_SQLSTATE_PROGRAM_LIMIT_EXCEEDED,
                            "index row size %zu exceeds RockLake's maximum %d for index \"%s\"",
                            key->len, RL_UNIQUE_ENTRY_MAX, u->name);
    return rc;
}

void cat_unique_key_text(rl_txn *t, const cat_unique *u, const rl_table_desc *d,
                         const rl_datum *row, const char *what, char *out, size_t n)
{
    rl_datum vals[RL_INDEX_MAX_KEYS];
    rl_type types[RL_INDEX_MAX_KEYS];
    rl_arena arena;
    memset(&arena, 0, sizeof arena);
    rl_error e;
    rl_error_clear(&e);
    /* the values were made a moment ago for the entry: not in the index
     * or an error now (it cannot be) prints NULLs rather than nothing */
    bool have = key_values(t, u, d, row, &arena, vals, types, &e) == 1;
    rl_buf names, text;
    rl_buf_init(&names, 0);
    rl_buf_init(&text, 0);
    for (size_t i = 0; i < u->def.ncols; i++) {
        /* an expression as pg_get_indexdef_columns prints it: pretty */
        bool expr = u->def.opts[i] & RL_INDEX_COL_EXPR;
        rl_buf_printf(&names, "%s%s", i ? ", " : "",
                      expr ? rl_index_def_expr(&u->def, i, true) : u->def.cols[i]);
        if (i)
            rl_buf_put_str(&text, ", ");
        if (!have || vals[i].isnull)
            rl_buf_put_str(&text, "null");
        else
            rl_datum_to_text(&text, types[i], &vals[i]);
    }
    snprintf(out, n, "Key (%.*s)=(%.*s) %s.", (int)names.len,
             names.data ? (const char *)names.data : "", (int)text.len,
             text.data ? (const char *)text.data : "", what);
    rl_buf_free(&names);
    rl_buf_free(&text);
    rl_arena_free(&arena);
}

typedef struct held_key {
    uint8_t *k;
    size_t kl;
} held_key;

int cat_unique_clear(rl_txn *t, uint64_t id, rl_error *err)
{
    rl_buf p;
    rl_buf_init(&p, 0);
    rl_key_unique_index(&p, id);
    if (p.failed)
        return oom(err);
    /* collect first: the scan reads the overlay the tombstones go to */
    rl_scan s;
    int rc = cat_raw_scan_open(t, &s, p.data, p.len, err);
    if (rc < 0) {
        rl_buf_free(&p);
        return -1;
    }
    held_key *keys = NULL;
    size_t nkeys = 0, cap = 0;
    const uint8_t *k, *v;
    size_t kl, vl;
    while ((rc = cat_scan_merged_next(&s, &k, &kl, &v, &vl, err)) == 1) {
        held_key *grown = rl_array_reserve(keys, nkeys, &cap, sizeof *grown, 16);
        uint8_t *kd = grown ? malloc(kl) : NULL;
        if (grown)
            keys = grown;
        if (!kd) {
            rc = oom(err);
            break;
        }
        memcpy(kd, k, kl);
        keys[nkeys++] = (held_key){kd, kl};
    }
    kv_iter_free(s.it);
    rl_buf_free(&p);
    for (size_t i = 0; i < nkeys; i++) {
        if (rc == 0)
            rc = cat_ov_set(t, keys[i].k, keys[i].kl, NULL, 0, err);
        free(keys[i].k);
    }
    free(keys);
    return rc < 0 ? -1 : 0;
}
