/*
 * checks.c — CHECK constraints: their definitions (0x80 0A schema table
 * name -> version, flags, the expression's plain and pretty texts, the
 * attnums it uses) and the registry of those a transaction sees.
 *
 * Owns: rl_check_def's byte form; rl_txn_put_check / rl_txn_drop_check
 * (a definition written or tombstoned, the UNIQUE generation moved so that
 * writers whose rows were checked under the older definitions fail their
 * COMMIT, and for a validated one the table's rows expected unchanged until
 * COMMIT); the transaction's registry (rl_txn_checks) and the catalog's note
 * that a generation of committed definitions has none (check_none_gen).
 *
 * The catalog keeps the expression as text and never reads it: the SQL
 * layer wrote it (PostgreSQL's deparsed form), evaluates it on each row it
 * writes and answers the catalogs (pg_constraint, pg_get_constraintdef)
 * from the stored texts. Rows written below the SQL layer (commit sequencing's rebase
 * of a DuckLake append) must not reach a table with CHECKs: rows.c asks
 * cat_table_has_checks and then does not sequence the commit.
 *
 * Invariants: the registry is that of the view at (chk_rel_version,
 * unique_gen), in key order, and is dropped by any write of a name, an
 * index or a check definition (cat_ov_set); cat->check_none_gen is 1 + a
 * generation whose committed definitions hold no CHECK, set only from a
 * view of that generation without DDL of its own; every entry of the
 * registry owns its texts (one block at def.expr).
 */
#include "catalog/catalog_int.h"

#include <assert.h>
#include <stdio.h>

#include "keys/keys.h"
#include "keys/tags.h"

#define CHECK_DEF_VERSION 1
#define CHECK_NOT_VALID 0x01
#define CHECK_NO_INHERIT 0x02

/* Stamps of registries: unique in the process, so the SQL layer's cache
 * never mistakes one transaction's list for another's. */
static _Atomic uint64_t check_stamps;

static void put_text(rl_buf *b, const char *t)
{
    rl_buf_put_uvarint(b, strlen(t));
    rl_buf_put_str(b, t);
}

void rl_check_def_encode(rl_buf *b, const rl_check_def *d)
{
    assert(d->expr && d->pretty && d->table[0] && d->nconkey <= RL_MAX_COLUMNS);
    rl_buf_put_u8(b, CHECK_DEF_VERSION);
    rl_buf_put_u8(b, (uint8_t)((d->not_valid ? CHECK_NOT_VALID : 0) |
                               (d->no_inherit ? CHECK_NO_INHERIT : 0)));
    put_text(b, d->expr);
    put_text(b, d->pretty);
    rl_buf_put_uvarint(b, d->nconkey);
    for (size_t i = 0; i < d->nconkey; i++)
        rl_buf_put_uvarint(b, (uint64_t)d->conkey[i]);
}

/* One text (not empty, no NUL) into buf[*at ..], NUL-ended. */
static const char *get_text(rl_reader *r, char *buf, size_t n, size_t *at)
{
    uint64_t len;
    const uint8_t *p;
    if (!rl_reader_uvarint(r, &len) || len == 0 || len >= n - *at ||
        !rl_reader_bytes(r, len, &p) || memchr(p, 0, len))
        return NULL;
    char *t = buf + *at;
    memcpy(t, p, len);
    t[len] = '\0';
    *at += len + 1;
    return t;
}

bool rl_check_def_decode(const uint8_t *v, size_t vl, rl_check_def *out, char *text_buf,
                         size_t text_n)
{
    char table[RL_INDEX_NAME_MAX];
    memcpy(table, out->table, sizeof table); /* the key's, set by the caller */
    memset(out, 0, sizeof *out);
    memcpy(out->table, table, sizeof table);
    rl_reader r;
    rl_reader_init(&r, v, vl);
    uint8_t version, flags;
    uint64_t n;
    size_t at = 0;
    if (!rl_reader_u8(&r, &version) || version != CHECK_DEF_VERSION ||
        !rl_reader_u8(&r, &flags) || flags & ~(CHECK_NOT_VALID | CHECK_NO_INHERIT) ||
        !(out->expr = get_text(&r, text_buf, text_n, &at)) ||
        !(out->pretty = get_text(&r, text_buf, text_n, &at)) || !rl_reader_uvarint(&r, &n) ||
        n > RL_MAX_COLUMNS)
        return false;
    out->nconkey = (size_t)n;
    for (size_t i = 0; i < out->nconkey; i++) {
        uint64_t a;
        if (!rl_reader_uvarint(&r, &a) || a == 0 || a > RL_MAX_COLUMNS)
            return false;
        out->conkey[i] = (int16_t)a;
    }
    out->not_valid = flags & CHECK_NOT_VALID;
    out->no_inherit = flags & CHECK_NO_INHERIT;
    return rl_reader_left(&r) == 0;
}

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

/* The registry's entries (their texts: each entry owns one block). txn.c
 * frees the arrays with the transaction (cat_checks_release). */
static void registry_clear(rl_txn *t)
{
    for (size_t i = 0; i < t->nchk; i++)
        free((char *)t->chk[i].def.expr);
    t->nchk = 0;
    t->chk_built = false;
}

static bool registry_current(const rl_txn *t)
{
    return t->chk_built && t->chk_rel_version == t->rel_version && t->chk_gen == t->unique_gen;
}


/* An entry under 0x80 0A decoded into *c (its text in expr). */
static int decode_entry(const uint8_t *k, size_t kl, const uint8_t *v, size_t vl, char *texts,
                        rl_check_con *c, rl_error *err)
{
    rl_reader r;
    rl_buf s[3];
    for (int i = 0; i < 3; i++)
        rl_buf_init(&s[i], 0);
    rl_reader_init(&r, k + RL_KEY_INDEX_PREFIX_LEN, kl - RL_KEY_INDEX_PREFIX_LEN);
    bool ok = true;
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
    }
    for (int i = 0; i < 3; i++)
        rl_buf_free(&s[i]);
    if (!ok)
        return rl_error_set(err, RL_SQLSTATE_DATA_CORRUPTED,
                            "a CHECK constraint's definition (0x80 0A) does not decode");
    return 0;
}

/* One entry under 0x80 0A into the registry when its table exists. */
static int add_definition(rl_txn *t, const uint8_t *k, size_t kl, const uint8_t *v, size_t vl,
                          char *expr, rl_error *err)
{
    rl_check_con c;
    if (decode_entry(k, kl, v, vl, expr, &c, err) < 0)
        return -1;
    uint8_t tag = 0;
    uint64_t dyn = 0;
    int rc = cat_table_ident(t, c.schema, c.def.table, &tag, &dyn, err);
    if (rc <= 0)
        return rc;
    if (t->nchk == t->capchk) {
        size_t cap = t->capchk ? t->capchk * 2 : 8;
        rl_check_con *a = realloc(t->chk, cap * sizeof *a);
        if (a)
            t->chk = a;
        uint8_t *b = a ? realloc(t->chk_tag, cap) : NULL;
        if (b)
            t->chk_tag = b;
        uint64_t *d = b ? realloc(t->chk_dyn, cap * sizeof *d) : NULL;
        if (!d)
            return oom(err);
        t->chk_dyn = d;
        t->capchk = cap;
    }
    if (!own_texts(&c))
        return oom(err);
    t->chk_tag[t->nchk] = tag;
    t->chk_dyn[t->nchk] = dyn;
    t->chk[t->nchk++] = c;
    return 0;
}

static int build_registry(rl_txn *t, rl_error *err)
{
    registry_clear(t);
    bool own = t->wrote_names; /* DDL of ours: the committed generation does not say */
    uint64_t none = atomic_load(&t->cat->check_none_gen);
    if (own || none != t->unique_gen + 1) {
        uint8_t prefix[RL_KEY_INDEX_PREFIX_LEN];
        char *expr = malloc(RL_CHECK_TEXT_MAX);
        rl_scan s;
        if (!expr)
            return oom(err);
        if (cat_raw_scan_open(t, &s, prefix, rl_key_index_prefix(prefix, RL_INDEX_CHECK), err) <
            0) {
            free(expr);
            return -1;
        }
        const uint8_t *k, *v;
        size_t kl, vl;
        int rc;
        while ((rc = cat_scan_merged_next(&s, &k, &kl, &v, &vl, err)) == 1)
            if (add_definition(t, k, kl, v, vl, expr, err) < 0) {
                rc = -1;
                break;
            }
        kv_iter_free(s.it);
        free(expr);
        if (rc < 0)
            return -1;
        if (!own && t->nchk == 0 && !t->cat->read_only)
            atomic_store(&t->cat->check_none_gen, t->unique_gen + 1);
    }
    t->chk_built = true;
    t->chk_rel_version = t->rel_version;
    t->chk_gen = t->unique_gen;
    t->chk_stamp = atomic_fetch_add(&check_stamps, 1) + 1;
    return 0;
}

int rl_txn_checks(rl_txn *t, const rl_check_con **out, size_t *n, uint64_t *stamp, rl_error *err)
{
    if (!registry_current(t) && build_registry(t, err) < 0)
        return -1;
    *out = t->chk;
    *n = t->nchk;
    if (stamp)
        *stamp = t->chk_stamp;
    return 0;
}

int cat_table_has_checks(rl_txn *t, const rl_table_desc *d, rl_error *err)
{
    const rl_check_con *c;
    size_t n;
    if (rl_txn_checks(t, &c, &n, NULL, err) < 0)
        return -1;
    for (size_t i = 0; i < n; i++)
        if (rl_desc_is_dynamic(d) ? t->chk_tag[i] == RL_TAG_DYNAMIC_ROW && t->chk_dyn[i] == d->dyn_id
                                  : t->chk_tag[i] == d->tag)
            return 1;
    return 0;
}

/* ---------------------------------------------------------- definitions */


static int put_def(rl_txn *t, const char *schema, const char *table, const char *name,
                   const rl_check_def *def, rl_error *err)
{
    cat_relations_changed(t); /* before any early return: a failed try may have written */
    if (!cat_is_write_allowed(t, err))
        return -1;
    rl_buf k, v;
    rl_buf_init(&k, 0);
    rl_buf_init(&v, 0);
    rl_key_check(&k, schema, table, name);
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
    if (put_def(t, schema, def->table, name, def, err) < 0)
        return -1;
    return rows_read ? cat_expect_table_unchanged(t, rows_read, err) : 0;
}

int rl_txn_drop_check(rl_txn *t, const char *schema, const char *table, const char *name,
                      rl_error *err)
{
    return put_def(t, schema, table, name, NULL, err);
}

int rl_txn_table_checks(rl_txn *t, const char *schema, const char *table, rl_check_visitor visit,
                        void *ctx, rl_error *err)
{
    rl_buf p;
    rl_buf_init(&p, 0);
    rl_key_check_prefix(&p, schema, table);
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
        if (decode_entry(k, kl, v, vl, expr, &c, err) < 0) {
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
