/*
 * checks.c — the catalog's definitions kept as expression texts: CHECK
 * constraints (0x80 0A schema table name -> version, flags, the
 * expression's plain and pretty texts, the attnums it uses) and column
 * DEFAULTs (0x80 0B schema table column -> the same value, flags and
 * attnums empty), and the registries of those a transaction sees.
 *
 * Owns: rl_check_def's byte form; rl_txn_put_check / rl_txn_drop_check /
 * rl_txn_put_default (a definition written or tombstoned, the UNIQUE generation moved so that
 * writers whose rows were checked under the older definitions fail their
 * COMMIT, and for a validated one the table's rows expected unchanged until
 * COMMIT); the transaction's registries (rl_txn_checks, rl_txn_defaults)
 * and the catalog's note that a generation of committed definitions has
 * none of a kind (expr_none_gen).
 *
 * The catalog keeps the expression as text and never reads it: the SQL
 * layer wrote it (PostgreSQL's deparsed form), evaluates it on each row it
 * writes and answers the catalogs (pg_constraint, pg_get_constraintdef)
 * from the stored texts. Rows written below the SQL layer (commit sequencing's rebase
 * of a DuckLake append) must not reach a table with CHECKs: rows.c asks
 * cat_table_has_checks and then does not sequence the commit.
 *
 * Invariants: a registry is that of the view at (its rel_version,
 * unique_gen), in key order, and is dropped by any write of a name, an
 * index, a check or a default definition (cat_ov_set);
 * cat->expr_none_gen[kind] is 1 + a generation whose committed definitions
 * hold none of that kind, set only from a view of that generation without
 * DDL of its own; every entry of a registry owns its texts (one block at
 * def.expr).
 */
#include "catalog/catalog_int.h"

#include <assert.h>
#include <stdio.h>

#include "keys/keys.h"
#include "keys/tags.h"

/* Stamps of registries: unique in the process, so the SQL layer's cache
 * never mistakes one transaction's list for another's. */
static _Atomic uint64_t check_stamps;

/* A copy of c's two texts in one block (expr, then pretty), owned by the
 * copy: NULL when out of memory. */
static bool own_texts(rl_check_con *c)
{
    size_t a = strlen(c->def.expr) + 1, b = strlen(c->def.pretty) + 1;
    char *t = malloc(a + b);
    if (!t)
        return false;
    memcpy(t, c->def.expr, a);
    memcpy(t + a, c->def.pretty, b);
    c->def.expr = t;
    c->def.pretty = t + a;
    return true;
}

/* ------------------------------------------------------------ registry */

/* The index kind each registry lists. */
static const uint8_t expr_index[CAT_EXPR_KINDS] = {RL_INDEX_CHECK, RL_INDEX_DEFAULT};
static const char *const expr_what[CAT_EXPR_KINDS] = {"a CHECK constraint's definition (0x80 0A)",
                                                      "a column DEFAULT's definition (0x80 0B)"};

static bool registry_current(const rl_txn *t, const cat_expr_registry *r)
{
    return r->built && r->rel_version == t->rel_version && r->gen == t->unique_gen;
}

/* An entry under 0x80 0A / 0B decoded into *c (its texts in texts[]). */
static int decode_entry(cat_expr_kind kind, const uint8_t *k, size_t kl, const uint8_t *v,
                        size_t vl, char *texts, rl_check_con *c, rl_error *err)
{
    rl_reader r;
    rl_buf s[3];
    for (int i = 0; i < 3; i++)
        rl_buf_init(&s[i], 0);
    rl_reader_init(&r, k + RL_KEY_INDEX_PREFIX_LEN, kl - RL_KEY_INDEX_PREFIX_LEN);
    bool ok = kl >= RL_KEY_INDEX_PREFIX_LEN && k[1] == expr_index[kind];
    for (int i = 0; i < 3 && ok; i++)
        ok = rl_key_get_str(&r, &s[i]) && s[i].len > 0 && s[i].len < RL_INDEX_NAME_MAX &&
             !memchr(s[i].data, 0, s[i].len);
    ok = ok && !rl_reader_left(&r);
    memset(c, 0, sizeof *c);
    if (ok) {
        memcpy(c->schema, s[0].data, s[0].len);
        memcpy(c->def.table, s[1].data, s[1].len);
        memcpy(c->name, s[2].data, s[2].len);
        ok = rl_check_def_decode(v, vl, &c->def, texts, RL_CHECK_TEXT_MAX);
        /* a DEFAULT is an expression and nothing else */
        ok = ok && (kind == CAT_EXPR_CHECK
                        ? !c->def.identity
                        : !c->def.not_valid && !c->def.no_inherit && c->def.nconkey == 0);
    }
    for (int i = 0; i < 3; i++)
        rl_buf_free(&s[i]);
    if (!ok)
        return rl_error_set(err, RL_SQLSTATE_DATA_CORRUPTED, "%s does not decode",
                            expr_what[kind]);
    return 0;
}

/* One entry into the registry when its table exists. */
static int add_definition(rl_txn *t, cat_expr_kind kind, const uint8_t *k, size_t kl,
                          const uint8_t *v, size_t vl, char *texts, rl_error *err)
{
    cat_expr_registry *r = &t->exprs[kind];
    rl_check_con c;
    if (decode_entry(kind, k, kl, v, vl, texts, &c, err) < 0)
        return -1;
    uint8_t tag = 0;
    uint64_t dyn = 0;
    int rc = cat_table_ident(t, c.schema, c.def.table, &tag, &dyn, err);
    if (rc <= 0)
        return rc;
    if (r->n == r->cap) {
        size_t cap = r->cap ? r->cap * 2 : 8;
        rl_check_con *a = realloc(r->ent, cap * sizeof *a);
        if (a)
            r->ent = a;
        uint8_t *b = a ? realloc(r->tag, cap) : NULL;
        if (b)
            r->tag = b;
        uint64_t *d = b ? realloc(r->dyn, cap * sizeof *d) : NULL;
        if (!d)
            return oom(err);
        r->dyn = d;
        r->cap = cap;
    }
    if (!own_texts(&c))
        return oom(err);
    r->tag[r->n] = tag;
    r->dyn[r->n] = dyn;
    r->ent[r->n++] = c;
    return 0;
}

static int build_registry(rl_txn *t, cat_expr_kind kind, rl_error *err)
{
    cat_expr_registry *r = &t->exprs[kind];
    cat_expr_registry_clear(r);
    bool own = t->wrote_names; /* DDL of ours: the committed generation does not say */
    _Atomic uint64_t *none_gen = &t->cat->expr_none_gen[kind];
    if (own || atomic_load(none_gen) != t->unique_gen + 1) {
        uint8_t prefix[RL_KEY_INDEX_PREFIX_LEN];
        char *texts = malloc(RL_CHECK_TEXT_MAX);
        rl_scan s;
        if (!texts)
            return oom(err);
        if (cat_raw_scan_open(t, &s, prefix, rl_key_index_prefix(prefix, expr_index[kind]),
                              err) < 0) {
            free(texts);
            return -1;
        }
        const uint8_t *k, *v;
        size_t kl, vl;
        int rc;
        while ((rc = cat_scan_merged_next(&s, &k, &kl, &v, &vl, err)) == 1)
            if (add_definition(t, kind, k, kl, v, vl, texts, err) < 0) {
                rc = -1;
                break;
            }
        kv_iter_free(s.it);
        free(texts);
        if (rc < 0)
            return -1;
        if (!own && r->n == 0 && !t->cat->read_only)
            atomic_store(none_gen, t->unique_gen + 1);
    }
    r->built = true;
    r->rel_version = t->rel_version;
    r->gen = t->unique_gen;
    r->stamp = atomic_fetch_add(&check_stamps, 1) + 1;
    return 0;
}

static int registry(rl_txn *t, cat_expr_kind kind, const rl_check_con **out, size_t *n,
                    uint64_t *stamp, rl_error *err)
{
    cat_expr_registry *r = &t->exprs[kind];
    if (!registry_current(t, r) && build_registry(t, kind, err) < 0)
        return -1;
    *out = r->ent;
    *n = r->n;
    if (stamp)
        *stamp = r->stamp;
    return 0;
}

int rl_txn_checks(rl_txn *t, const rl_check_con **out, size_t *n, uint64_t *stamp, rl_error *err)
{
    return registry(t, CAT_EXPR_CHECK, out, n, stamp, err);
}

int rl_txn_defaults(rl_txn *t, const rl_check_con **out, size_t *n, uint64_t *stamp,
                    rl_error *err)
{
    return registry(t, CAT_EXPR_DEFAULT, out, n, stamp, err);
}

int cat_table_has_checks(rl_txn *t, const rl_table_desc *d, rl_error *err)
{
    const rl_check_con *c;
    size_t n;
    if (rl_txn_checks(t, &c, &n, NULL, err) < 0)
        return -1;
    const cat_expr_registry *r = &t->exprs[CAT_EXPR_CHECK];
    for (size_t i = 0; i < n; i++)
        if (rl_desc_is_dynamic(d) ? r->tag[i] == RL_TAG_DYNAMIC_ROW && r->dyn[i] == d->dyn_id
                                  : r->tag[i] == d->tag)
            return 1;
    return 0;
}

/* ---------------------------------------------------------- definitions */


static int put_def(rl_txn *t, cat_expr_kind kind, const char *schema, const char *table,
                   const char *name, const rl_check_def *def, rl_error *err)
{
    cat_relations_changed(t); /* before any early return: a failed try may have written */
    if (!cat_is_write_allowed(t, err))
        return -1;
    rl_buf k, v;
    rl_buf_init(&k, 0);
    rl_buf_init(&v, 0);
    if (kind == CAT_EXPR_CHECK)
        rl_key_check(&k, schema, table, name);
    else
        rl_key_default(&k, schema, table, name);
    if (def)
        rl_check_def_encode(&v, def);
    /* writers whose rows were checked under the older definitions fail
     * their COMMIT (rows.c, commit.c): the UNIQUE generation counts these too */
    t->unique_changed = true;
    int rc = k.failed || v.failed ? oom(err)
                                  : cat_ov_set(t, k.data, k.len, def ? v.data : NULL,
                                               def ? v.len : 0, err);
    rl_buf_free(&k);
    rl_buf_free(&v);
    return rc;
}

int rl_txn_put_check(rl_txn *t, const char *schema, const char *name, const rl_check_def *def,
                     const rl_table_desc *rows_read, rl_error *err)
{
    assert(def && strlen(def->expr) + strlen(def->pretty) + 2 <= RL_CHECK_TEXT_MAX);
    if (put_def(t, CAT_EXPR_CHECK, schema, def->table, name, def, err) < 0)
        return -1;
    return rows_read ? cat_expect_table_unchanged(t, rows_read, err) : 0;
}

int rl_txn_drop_check(rl_txn *t, const char *schema, const char *table, const char *name,
                      rl_error *err)
{
    return put_def(t, CAT_EXPR_CHECK, schema, table, name, NULL, err);
}

int rl_txn_put_default(rl_txn *t, const char *schema, const char *table, const char *column,
                       const char *expr, const char *pretty, rl_error *err)
{
    if (!expr)
        return put_def(t, CAT_EXPR_DEFAULT, schema, table, column, NULL, err);
    rl_check_def def = {.expr = expr, .pretty = pretty};
    rl_str_copy(def.table, sizeof def.table, table);
    return rl_txn_put_default_def(t, schema, column, &def, err);
}

int rl_txn_put_default_def(rl_txn *t, const char *schema, const char *column,
                           const rl_check_def *def, rl_error *err)
{
    assert(strlen(def->expr) + strlen(def->pretty) + 2 <= RL_CHECK_TEXT_MAX);
    assert(!def->not_valid && !def->no_inherit && !def->nconkey);
    return put_def(t, CAT_EXPR_DEFAULT, schema, def->table, column, def, err);
}

static int table_exprs(rl_txn *t, cat_expr_kind kind, const char *schema, const char *table,
                       rl_check_visitor visit, void *ctx, rl_error *err)
{
    rl_buf p;
    rl_buf_init(&p, 0);
    if (kind == CAT_EXPR_CHECK)
        rl_key_check_prefix(&p, schema, table);
    else
        rl_key_default_prefix(&p, schema, table);
    char *expr = malloc(RL_CHECK_TEXT_MAX);
    rl_scan s;
    int rc = p.failed || !expr ? oom(err) : cat_raw_scan_open(t, &s, p.data, p.len, err);
    if (rc < 0) {
        free(expr);
        rl_buf_free(&p);
        return -1;
    }
    /* collect first: the visitor may write definitions under this prefix */
    rl_check_con *all = NULL;
    size_t n = 0;
    const uint8_t *k, *v;
    size_t kl, vl;
    while ((rc = cat_scan_merged_next(&s, &k, &kl, &v, &vl, err)) == 1) {
        rl_check_con c;
        rl_check_con *grown = realloc(all, (n + 1) * sizeof *grown);
        if (!grown) {
            rc = oom(err);
            break;
        }
        all = grown;
        if (decode_entry(kind, k, kl, v, vl, expr, &c, err) < 0) {
            rc = -1;
            break;
        }
        if (!own_texts(&c)) {
            rc = oom(err);
            break;
        }
        all[n++] = c;
    }
    kv_iter_free(s.it);
    for (size_t i = 0; i < n; i++) {
        if (rc == 0)
            rc = visit(ctx, &all[i]);
        free((char *)all[i].def.expr);
    }
    free(all);
    free(expr);
    rl_buf_free(&p);
    return rc;
}

int rl_txn_table_checks(rl_txn *t, const char *schema, const char *table, rl_check_visitor visit,
                        void *ctx, rl_error *err)
{
    return table_exprs(t, CAT_EXPR_CHECK, schema, table, visit, ctx, err);
}

int rl_txn_table_defaults(rl_txn *t, const char *schema, const char *table,
                          rl_check_visitor visit, void *ctx, rl_error *err)
{
    return table_exprs(t, CAT_EXPR_DEFAULT, schema, table, visit, ctx, err);
}
