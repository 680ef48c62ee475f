/*
 * relations.c — the relations of a lake: the name index and its cache,
 * schemas, registering DuckLake's fixed tables, creating and dropping
 * tables (fixed and dynamic), listing them.
 *
 * Owns: name -> table resolution (rl_txn_find_table), the name cache
 * (name_lock), rl_txn_create/drop_dynamic, rl_txn_register_fixed[_ext] and
 * rl_txn_extend_fixed (a DuckLake table with columns of the client's own),
 * rl_txn_drop_table, rl_txn_list_tables, schemas (rl_txn_*_schema), the
 * definitions of indexes created by CREATE INDEX (rl_txn_*_index), comments
 * (rl_txn_set_comment, rl_txn_list_comments), and
 * changes of the lake's format (rl_txn_set_format, which writes the
 * ducklake-format key and expects it unchanged, and refuses while an
 * extended table's shape would change; rl_txn_migrate_table, a migration
 * in progress with tables still lagging in the old shape).
 *
 * Invariants: a name cache entry serves only transactions at the name
 * generation it was filled at, never one that wrote names, never a
 * follower; a schema's table and index names never overlap; every DDL call changes the transaction's relations version
 * before it can fail; one schema per lake holds DuckLake's fixed tables.
 */
#include "catalog/catalog_int.h"

#include <assert.h>
#include <stdio.h>

#include "keys/keys.h"
#include "keys/tags.h"

/* Name index lookup: 1 with *out set, 0 absent, -1 error. */
static int name_lookup_store(rl_txn *t, const char *schema, const char *name,
                             const rl_table_desc **out, rl_error *err);

static uint64_t name_hash(const char *schema, const char *name)
{
    uint64_t h = rl_hash_bytes(RL_HASH_SEED, schema, strlen(schema) + 1); /* NUL separates */
    return rl_hash_bytes(h, name, strlen(name));
}

/* A cached answer for (schema, name) at the transaction's name generation. */
static bool name_cache_get(rl_txn *t, uint64_t h, const char *schema, const char *name,
                           int *rc, const rl_table_desc **d)
{
    rl_catalog *cat = t->cat;
    /* a follower does not see which commits change names */
    if (t->wrote_names || !t->snap || cat->read_only)
        return false;
    bool hit = false;
    pthread_mutex_lock(&cat->name_lock);
    const name_cache_entry *e = &cat->names[h % NAME_CACHE_SIZE];
    if (e->gen == t->name_gen && e->hash == h && strcmp(e->schema, schema) == 0 &&
        strcmp(e->name, name) == 0) {
        *rc = e->rc;
        *d = e->d;
        hit = true;
    }
    pthread_mutex_unlock(&cat->name_lock);
    return hit;
}

static void name_cache_put(rl_txn *t, uint64_t h, const char *schema, const char *name, int rc,
                           const rl_table_desc *d)
{
    rl_catalog *cat = t->cat;
    if (t->wrote_names || !t->snap || cat->read_only ||
        strlen(schema) >= sizeof cat->names[0].schema ||
        strlen(name) >= sizeof cat->names[0].name)
        return;
    pthread_mutex_lock(&cat->name_lock);
    name_cache_entry *e = &cat->names[h % NAME_CACHE_SIZE];
    e->gen = t->name_gen;
    e->hash = h;
    rl_str_copy(e->schema, sizeof e->schema, schema);
    rl_str_copy(e->name, sizeof e->name, name);
    e->rc = rc;
    e->d = d; /* descriptors live as long as the catalog */
    pthread_mutex_unlock(&cat->name_lock);
}

static int name_lookup(rl_txn *t, const char *schema, const char *name,
                       const rl_table_desc **out, rl_error *err)
{
    uint64_t h = name_hash(schema, name);
    int cached;
    if (name_cache_get(t, h, schema, name, &cached, out))
        return cached;
    int rc = name_lookup_store(t, schema, name, out, err);
    if (rc >= 0)
        name_cache_put(t, h, schema, name, rc, rc == 1 ? *out : NULL);
    return rc;
}

/* The table a name index value names: a fixed descriptor, the catalog's
 * extended copy of one, or a dynamic table's; NULL with err (corruption). */
static const rl_table_desc *entry_desc(rl_txn *t, const char *schema, const char *name,
                                       const uint8_t *v, size_t vl, rl_error *err)
{
    rl_name_entry e;
    if (!rl_name_entry_decode(v, vl, &e)) {
        rl_error_set(err, RL_SQLSTATE_DATA_CORRUPTED, "name index entry of \"%s.%s\" is malformed",
                     schema, name);
        return NULL;
    }
    if (!e.tag)
        return cat_dyn_load(t, e.dyn_id, err);
    const rl_table_desc *d = rl_desc_by_tag(e.tag);
    if (!d || d->internal || !rl_desc_in_format(d, t->fmt)) {
        rl_error_set(err, RL_SQLSTATE_DATA_CORRUPTED,
                     "\"%s.%s\" is registered as unknown table tag 0x%02x", schema, name, e.tag);
        return NULL;
    }
    if (!e.ext)
        return d;
    const rl_table_desc *x = cat_fixed_ext_load(t->cat, d, v, vl);
    if (!x)
        rl_error_set(err, RL_SQLSTATE_DATA_CORRUPTED,
                     "the extension columns of \"%s.%s\" do not decode", schema, name);
    return x;
}

static int name_lookup_store(rl_txn *t, const char *schema, const char *name,
                             const rl_table_desc **out, rl_error *err)
{
    rl_buf k;
    rl_buf_init(&k, 0);
    rl_key_dynamic_name(&k, schema, name);
    uint8_t *v = NULL;
    size_t vlen = 0;
    int rc = cat_view_get(t, k.data, k.len, &v, &vlen, err);
    rl_buf_free(&k);
    if (rc == 1 && !(*out = entry_desc(t, schema, name, v, vlen, err)))
        rc = -1;
    free(v);
    return rc;
}

const rl_table_desc *rl_txn_find_table(rl_txn *t, const char *schema, const char *name,
                                       rl_error *err)
{
    const rl_table_desc *d = NULL;
    int rc = name_lookup(t, schema, name, &d, err);
    if (rc < 0)
        return NULL;
    if (rc == 0) {
        rl_error_set(err, RL_SQLSTATE_UNDEFINED_TABLE, "relation \"%s.%s\" does not exist", schema,
                     name);
        return NULL;
    }
    return d;
}

const rl_table_desc *rl_txn_find_dynamic(rl_txn *t, const char *schema, const char *name,
                                         rl_error *err)
{
    const rl_table_desc *d = rl_txn_find_table(t, schema, name, err);
    if (d && d->tag != RL_TAG_DYNAMIC_ROW) {
        rl_error_set(err, RL_SQLSTATE_UNDEFINED_TABLE, "\"%s.%s\" is not a dynamic table",
                     schema, name);
        return NULL;
    }
    return d;
}

static int index_name_free(rl_txn *t, const char *schema, const char *name, rl_error *err);

/* Write the name index entry schema.name = v (a new one must be unique;
 * its caller has made sure no index holds the name: index_name_free). */
static int put_name_entry(rl_txn *t, const char *schema, const char *name, const rl_buf *v,
                          bool is_new, rl_error *err)
{
    rl_buf k;
    rl_buf_init(&k, 0);
    rl_key_dynamic_name(&k, schema, name);
    int rc = cat_ov_set(t, k.data, k.len, v->data, v->len, err);
    if (rc == 0 && is_new)
        rc = cat_expect_unique(t, k.data, k.len, name, "", err);
    rl_buf_free(&k);
    return rc;
}

const rl_table_desc *rl_txn_create_dynamic(rl_txn *t, const char *schema, const char *name,
                                           size_t ncols, const rl_column_desc *cols,
                                           bool if_not_exists, rl_error *err)
{
    cat_relations_changed(t); /* before any early return: a failed try may have written */
    if (!cat_is_write_allowed(t, err))
        return NULL;
    if (ncols > RL_MAX_COLUMNS) {
        rl_error_set(err, RL_SQLSTATE_TOO_MANY_COLUMNS, "tables can have at most %d columns in RockLake",
                     RL_MAX_COLUMNS);
        return NULL;
    }
    rl_error probe;
    const rl_table_desc *have = rl_txn_find_table(t, schema, name, &probe);
    if (have) {
        if (if_not_exists && have->tag == RL_TAG_DYNAMIC_ROW)
            return have;
        rl_error_set(err, RL_SQLSTATE_DUPLICATE_TABLE, "relation \"%s\" already exists", name);
        return NULL;
    }
    if (strcmp(probe.sqlstate, RL_SQLSTATE_UNDEFINED_TABLE) != 0) {
        if (err)
            *err = probe;
        return NULL;
    }
    /* tables and indexes share a schema's names: checked before any write */
    if (index_name_free(t, schema, name, err) < 0)
        return NULL;
    uint64_t id;
    if (cat_alloc_seq(t->cat, RL_COUNTER_NEXT_DYNAMIC_ID, &id, err) < 0 ||
        cat_touch_counter(t, RL_COUNTER_NEXT_DYNAMIC_ID, id + 1, err) < 0)
        return NULL;
    rl_table_desc *d = cat_dyn_desc_new(id, name, ncols);
    if (!d) {
        oom(err);
        return NULL;
    }
    rl_column_desc *dc = (rl_column_desc *)d->cols;
    for (size_t i = 0; i < ncols; i++) {
        dc[i] = cols[i];
        dc[i].since = RL_FMT_1_0;
        if (!(dc[i].name = strdup(cols[i].name))) {
            d->ncols_max = (uint8_t)i;
            rl_dynamic_desc_free(d);
            oom(err);
            return NULL;
        }
    }
    rl_buf colbytes, v;
    rl_buf_init(&colbytes, 0);
    rl_buf_init(&v, 0);
    cat_encode_dyn_columns(&colbytes, ncols, cols);
    rl_datum row[RL_DYN_NCOLS];
    memset(row, 0, sizeof row);
    row[RL_DYN_ID].v.i = (int64_t)id;
    row[RL_DYN_SCHEMA].v.s.p = (const uint8_t *)schema;
    row[RL_DYN_SCHEMA].v.s.len = strlen(schema);
    row[RL_DYN_NAME].v.s.p = (const uint8_t *)name;
    row[RL_DYN_NAME].v.s.len = strlen(name);
    row[RL_DYN_COLUMNS].v.s.p = colbytes.data;
    row[RL_DYN_COLUMNS].v.s.len = colbytes.len;
    cat_name_entry_dynamic(&v, id);
    int rc = colbytes.failed ? oom(err) : cat_add_row(t, &rl_desc_dynamic_table, row, 0, err);
    if (rc == 0) /* dropped and re-created in this txn is fine: see cat_expect_unique */
        rc = v.failed ? oom(err) : put_name_entry(t, schema, name, &v, true, err);
    rl_buf_free(&colbytes);
    rl_buf_free(&v);
    if (rc < 0) {
        rl_dynamic_desc_free(d);
        return NULL;
    }
    return cat_dyn_cache_put(t->cat, d, schema);
}

static int delete_rows_of(rl_txn *t, const rl_table_desc *d, rl_error *err);

/* A dynamic table's rows go without rl_txn_delete: the entries of its
 * UNIQUE indexes go here (their definitions follow the table's DDL in the
 * SQL layer; a rebuilt table writes its rows, and their entries, again). */
static int clear_uniques_of(rl_txn *t, const rl_table_desc *d, rl_error *err)
{
    const cat_unique *u;
    size_t n;
    if (cat_uniques(t, &u, &n, err) < 0)
        return -1;
    /* clearing writes entries only: the registry stays as it is (cat_ov_set
     * drops it for names and definitions) */
    for (size_t i = 0; i < n; i++)
        if (cat_unique_on(&u[i], d) && cat_unique_clear(t, u[i].def.id, err) < 0)
            return -1;
    return 0;
}

int rl_txn_drop_dynamic(rl_txn *t, const rl_table_desc *d, rl_error *err)
{
    cat_relations_changed(t); /* before any early return: a failed try may have written */
    if (!cat_is_write_allowed(t, err))
        return -1;
    if (clear_uniques_of(t, d, err) < 0 || cat_fkey_clear_of(t, d, err) < 0 ||
        delete_rows_of(t, d, err) < 0)
        return -1;
    int rc;
    /* then the definition and its name index */
    rl_buf k;
    rl_buf_init(&k, 0);
    rl_key_dynamic_table(&k, d->dyn_id);
    uint8_t *v = NULL;
    size_t vlen = 0;
    char schema[128] = "";
    rc = cat_view_get(t, k.data, k.len, &v, &vlen, err);
    if (rc == 1) {
        rl_table_desc *tmp = rl_dynamic_desc_decode(d->dyn_id, v, vlen, schema, sizeof schema);
        rl_dynamic_desc_free(tmp);
        rc = cat_ov_set(t, k.data, k.len, NULL, 0, err);
        if (rc == 0) {
            rl_buf_reset(&k);
            rl_key_dynamic_name(&k, schema, d->name);
            rc = cat_ov_set(t, k.data, k.len, NULL, 0, err);
        }
    } else if (rc == 0) {
        rc = rl_error_set(err, RL_SQLSTATE_UNDEFINED_TABLE, "relation \"%s\" does not exist",
                          d->name);
    }
    free(v);
    rl_buf_free(&k);
    return rc < 0 ? -1 : 0;
}

/* ------------------------------------------------- names, schemas, drops */

/* The schema that already holds DuckLake's fixed tables, if any. */
static int fixed_schema_in_use(rl_txn *t, char *out, size_t n, rl_error *err);

int rl_txn_register_fixed(rl_txn *t, const char *schema, const rl_table_desc *d,
                          bool if_not_exists, rl_error *err)
{
    return rl_txn_register_fixed_ext(t, schema, d, 0, NULL, if_not_exists, err);
}

/* The name index value of fixed table `d` (the static descriptor) with
 * `nextra` extension columns in format `fmt`; 0, or -1 with err. */
static int fixed_entry_value(rl_buf *v, const rl_table_desc *d, rl_format fmt, size_t nextra,
                             const rl_column_desc *extra, rl_error *err)
{
    if (nextra == 0) {
        cat_name_entry_fixed(v, d->tag, fmt, 0, NULL);
        return 0;
    }
    if (d->catalog_reads) {
        rl_error_set(err, RL_SQLSTATE_FEATURE_NOT_SUPPORTED,
                     "RockLake keeps table \"%s\" in DuckLake %s's shape: it cannot have column "
                     "\"%s\" of its own",
                     d->name, rl_format_name(fmt), extra[0].name);
        rl_error_hint(err, "RockLake reads and rewrites this table itself when it sequences "
                           "commits; create it with DuckLake's columns");
        return -1;
    }
    if (rl_desc_ncols(d, fmt) + nextra > RL_MAX_COLUMNS)
        return rl_error_set(err, RL_SQLSTATE_TOO_MANY_COLUMNS,
                            "tables can have at most %d columns in RockLake", RL_MAX_COLUMNS);
    for (size_t i = 0; i < nextra; i++)
        if (extra[i].not_null)
            return rl_error_set(err, RL_SQLSTATE_FEATURE_NOT_SUPPORTED,
                                "column \"%s\" of DuckLake table \"%s\" must allow NULL in "
                                "RockLake",
                                extra[i].name, d->name);
    cat_name_entry_fixed(v, d->tag, fmt, nextra, extra);
    return v->failed ? oom(err) : 0;
}

int rl_txn_register_fixed_ext(rl_txn *t, const char *schema, const rl_table_desc *d,
                              size_t nextra, const rl_column_desc *extra, bool if_not_exists,
                              rl_error *err)
{
    cat_relations_changed(t); /* before any early return: a failed try may have written */
    if (!cat_is_write_allowed(t, err))
        return -1;
    assert(d == rl_desc_by_tag(d->tag));
    const rl_table_desc *have;
    int rc = name_lookup(t, schema, d->name, &have, err);
    if (rc < 0)
        return -1;
    if (rc == 1) {
        if (if_not_exists)
            return 0;
        return rl_error_set(err, RL_SQLSTATE_DUPLICATE_TABLE, "relation \"%s\" already exists",
                            d->name);
    }
    char other[128] = "";
    if (fixed_schema_in_use(t, other, sizeof other, err) < 0)
        return -1;
    if (other[0] && strcmp(other, schema) != 0) {
        rl_error_set(err, RL_SQLSTATE_FEATURE_NOT_SUPPORTED,
                     "RockLake keeps one DuckLake metadata schema per database, and this database "
                     "already has it in schema \"%s\"",
                     other);
        rl_error_hint(err, "attach another database (lake) for a second DuckLake catalog, or use "
                           "METADATA_SCHEMA '%s'", other);
        return -1;
    }
    if (index_name_free(t, schema, d->name, err) < 0)
        return -1;
    rl_buf v;
    rl_buf_init(&v, 0);
    rc = fixed_entry_value(&v, d, table_format(t, d), nextra, extra, err);
    if (rc == 0)
        rc = put_name_entry(t, schema, d->name, &v, true, err);
    rl_buf_free(&v);
    return rc;
}

int rl_txn_extend_fixed(rl_txn *t, const char *schema, const rl_table_desc *d,
                        const rl_column_desc *col, rl_error *err)
{
    cat_relations_changed(t); /* before any early return: a failed try may have written */
    if (!cat_is_write_allowed(t, err))
        return -1;
    const rl_table_desc *base = rl_desc_by_tag(d->tag);
    assert(base && d->tag != RL_TAG_DYNAMIC_ROW);
    rl_format fmt = table_format(t, base);
    size_t n0 = rl_desc_ncols(base, fmt), n = rl_txn_table_ncols(t, d);
    assert(n >= n0);
    rl_column_desc extra[RL_MAX_COLUMNS];
    size_t nx = 0;
    for (size_t i = n0; i < n && nx < RL_MAX_COLUMNS - 1; i++)
        extra[nx++] = d->cols[i];
    extra[nx++] = *col;
    rl_buf v;
    rl_buf_init(&v, 0);
    int rc = fixed_entry_value(&v, base, fmt, nx, extra, err);
    if (rc == 0)
        rc = put_name_entry(t, schema, d->name, &v, false, err);
    rl_buf_free(&v);
    return rc;
}

/* What scan_index_keys hands on for each entry: the strings of its key
 * (NUL-terminated) and its value; 0 goes on, anything else ends the scan
 * with that result. */
typedef int (*index_entry_fn)(void *ctx, char *const *strs, const uint8_t *v, size_t vl,
                              rl_error *err);

#define INDEX_KEY_MAX_STRS 3

/* Every entry under `prefix` (of an index whose keys hold `nstr`, 1 to 3,
 * strings after its 2-byte kind prefix) handed to `each`; a key that does
 * not decode to exactly those strings is corruption ("malformed <what>
 * index key"). */
static int scan_prefix_keys(rl_txn *t, uint8_t *prefix, size_t plen, size_t nstr,
                            const char *what, index_entry_fn each, void *ctx, rl_error *err)
{
    assert(nstr >= 1 && nstr <= INDEX_KEY_MAX_STRS && plen >= RL_KEY_INDEX_PREFIX_LEN);
    rl_scan s;
    if (cat_raw_scan_open(t, &s, prefix, plen, err) < 0)
        return -1;
    const uint8_t *k, *v;
    size_t kl, vl;
    rl_buf b[INDEX_KEY_MAX_STRS];
    char *strs[INDEX_KEY_MAX_STRS] = {NULL, NULL, NULL};
    for (size_t i = 0; i < INDEX_KEY_MAX_STRS; i++)
        rl_buf_init(&b[i], 0);
    int rc;
    while ((rc = cat_scan_merged_next(&s, &k, &kl, &v, &vl, err)) == 1) {
        rl_reader r;
        rl_reader_init(&r, k + 2, kl - 2);
        bool ok = true;
        for (size_t i = 0; i < nstr && ok; i++) {
            rl_buf_reset(&b[i]);
            ok = rl_key_get_str(&r, &b[i]);
            rl_buf_put_u8(&b[i], 0);
            strs[i] = (char *)b[i].data;
            ok = ok && !b[i].failed;
        }
        if (!ok || (nstr == INDEX_KEY_MAX_STRS && rl_reader_left(&r))) {
            rc = rl_error_set(err, RL_SQLSTATE_DATA_CORRUPTED, "malformed %s index key", what);
            break;
        }
        if ((rc = each(ctx, strs, v, vl, err)) != 0)
            break;
    }
    kv_iter_free(s.it);
    for (size_t i = 0; i < INDEX_KEY_MAX_STRS; i++)
        rl_buf_free(&b[i]);
    return rc;
}

/* Every entry of index `kind` (scan_prefix_keys). */
static int scan_index_keys(rl_txn *t, uint8_t kind, size_t nstr, const char *what,
                           index_entry_fn each, void *ctx, rl_error *err)
{
    uint8_t prefix[RL_KEY_INDEX_PREFIX_LEN];
    return scan_prefix_keys(t, prefix, rl_key_index_prefix(prefix, kind), nstr, what, each, ctx,
                            err);
}

/* What visit_names' entries go to. */
typedef struct name_visit {
    rl_txn *t;
    rl_table_visitor visit;
    void *ctx;
    bool resolve; /* every table, its descriptor loaded; else only fixed ones */
} name_visit;

/* One name index entry (schema, name -> tag or dynamic id) resolved to its
 * table and visited; unresolved, an entry other than a fixed table's is
 * passed over. */
static int visit_name(void *ctx, char *const *strs, const uint8_t *v, size_t vl, rl_error *err)
{
    name_visit *nv = ctx;
    if (!nv->resolve && (vl == 0 || v[0] == 0))
        return 0; /* only fixed tables asked for */
    const rl_table_desc *d = entry_desc(nv->t, strs[0], strs[1], v, vl, err);
    if (!d) {
        if (!err || !err->sqlstate[0])
            rl_error_set(err, RL_SQLSTATE_DATA_CORRUPTED, "table \"%s\" does not resolve",
                         strs[1]);
        return -1;
    }
    return nv->visit(nv->ctx, strs[0], strs[1], d);
}

/* Visit name index entries, decoding each. */
static int visit_names(rl_txn *t, rl_table_visitor visit, void *ctx, bool resolve, rl_error *err)
{
    name_visit nv = {t, visit, ctx, resolve};
    return scan_index_keys(t, RL_INDEX_DYNAMIC_NAME, 2, "table name", visit_name, &nv, err);
}

int rl_txn_list_tables(rl_txn *t, rl_table_visitor visit, void *ctx, rl_error *err)
{
    return visit_names(t, visit, ctx, true, err);
}

/* What first_table looks for, and what it found. */
typedef struct table_probe {
    const char *schema; /* a table in this schema; NULL: in any */
    char *out;          /* NULL, or the found table's schema into out[n] */
    size_t n;
    bool found;
} table_probe;

/* A visit_names visitor that stops at the first table of the probe's
 * schema (any schema when it names none), noting it. */
static int first_table(void *ctx, const char *schema, const char *name, const rl_table_desc *d)
{
    table_probe *p = ctx;
    if (p->schema && strcmp(schema, p->schema) != 0)
        return 0;
    p->found = true;
    if (p->out)
        snprintf(p->out, p->n, "%s", schema);
    return 1; /* one is enough */
}

static int fixed_schema_in_use(rl_txn *t, char *out, size_t n, rl_error *err)
{
    table_probe p = {.out = out, .n = n};
    out[0] = 0;
    int rc = visit_names(t, first_table, &p, false, err);
    return rc < 0 ? -1 : 0;
}

int rl_txn_fixed_schema(rl_txn *t, char *out, size_t n, rl_error *err)
{
    return fixed_schema_in_use(t, out, n, err);
}

/* Delete every row under `prefix` (collect keys first: deleting changes the
 * overlay the scan walks). Index entries of the rows go too. */
static int delete_rows_of(rl_txn *t, const rl_table_desc *d, rl_error *err)
{
    rl_scan *s = rl_txn_scan(t, d, NULL, 0, err);
    if (!s)
        return -1;
    uint8_t **keys = NULL;
    size_t *lens = NULL, n = 0, cap = 0;
    const rl_row *row;
    int rc;
    while ((rc = rl_scan_next(s, &row, err)) == 1) {
        if (n == cap) {
            cap = cap ? cap * 2 : 64;
            uint8_t **nk = realloc(keys, cap * sizeof *nk);
            if (nk)
                keys = nk;
            size_t *nl = nk ? realloc(lens, cap * sizeof *nl) : NULL;
            if (!nk || !nl) {
                rc = oom(err);
                break;
            }
            lens = nl;
        }
        if (!(keys[n] = dup_bytes(row->key, row->klen))) {
            rc = oom(err);
            break;
        }
        lens[n++] = row->klen;
    }
    rl_scan_free(s);
    for (size_t i = 0; i < n; i++) {
        if (rc == 0)
            rc = d->tag == RL_TAG_DYNAMIC_ROW ? cat_ov_set(t, keys[i], lens[i], NULL, 0, err)
                                              : rl_txn_delete(t, d, keys[i], lens[i], err);
        free(keys[i]);
    }
    free(keys);
    free(lens);
    return rc < 0 ? -1 : 0;
}

int rl_txn_drop_table(rl_txn *t, const char *schema, const char *name, rl_error *err)
{
    cat_relations_changed(t); /* before any early return: a failed try may have written */
    if (!cat_is_write_allowed(t, err))
        return -1;
    const rl_table_desc *d = rl_txn_find_table(t, schema, name, err);
    if (!d)
        return -1;
    if (d->tag == RL_TAG_DYNAMIC_ROW)
        return rl_txn_drop_dynamic(t, d, err);
    if (delete_rows_of(t, d, err) < 0)
        return -1;
    rl_buf k;
    rl_buf_init(&k, 0);
    rl_key_dynamic_name(&k, schema, name);
    int rc = cat_ov_set(t, k.data, k.len, NULL, 0, err);
    rl_buf_free(&k);
    return rc;
}

static void schema_key(rl_buf *k, const char *schema)
{
    rl_key_schema(k, schema);
}

bool rl_txn_schema_exists(rl_txn *t, const char *schema)
{
    if (strcmp(schema, "public") == 0)
        return true;
    rl_buf k;
    rl_buf_init(&k, 0);
    schema_key(&k, schema);
    int rc = cat_view_get(t, k.data, k.len, NULL, NULL, NULL);
    rl_buf_free(&k);
    return rc == 1;
}

int rl_txn_create_schema(rl_txn *t, const char *schema, bool if_not_exists, rl_error *err)
{
    cat_relations_changed(t); /* before any early return: a failed try may have written */
    if (!cat_is_write_allowed(t, err))
        return -1;
    if (rl_txn_schema_exists(t, schema)) {
        if (if_not_exists)
            return 0;
        return rl_error_set(err, RL_SQLSTATE_DUPLICATE_SCHEMA, "schema \"%s\" already exists", schema);
    }
    rl_buf k;
    rl_buf_init(&k, 0);
    schema_key(&k, schema);
    int rc = cat_ov_set(t, k.data, k.len, (const uint8_t *)"", 0, err);
    if (rc == 0)
        rc = cat_expect_unique(t, k.data, k.len, schema, "", err);
    rl_buf_free(&k);
    return rc;
}

/* What list_schema hands each schema to. */
typedef struct schema_visit {
    rl_schema_visitor visit;
    void *ctx;
} schema_visit;

/* One schema index entry visited by its name. */
static int list_schema(void *ctx, char *const *strs, const uint8_t *v, size_t vl, rl_error *err)
{
    schema_visit *sv = ctx;
    return sv->visit(sv->ctx, strs[0]);
}

int rl_txn_list_schemas(rl_txn *t, rl_schema_visitor visit, void *ctx, rl_error *err)
{
    schema_visit sv = {visit, ctx};
    return scan_index_keys(t, RL_INDEX_SCHEMA, 1, "schema", list_schema, &sv, err);
}

/* 1 if schema holds a sequence (a key under 0x80 0C schema), 0, -1. */
static int schema_has_sequence(rl_txn *t, const char *schema, rl_error *err)
{
    rl_buf p;
    rl_buf_init(&p, 0);
    rl_key_sequence(&p, schema, NULL);
    rl_scan s;
    int rc = p.failed ? oom(err) : cat_raw_scan_open(t, &s, p.data, p.len, err);
    if (rc == 0) {
        const uint8_t *k, *v;
        size_t kl, vl;
        rc = cat_scan_merged_next(&s, &k, &kl, &v, &vl, err);
        kv_iter_free(s.it);
    }
    rl_buf_free(&p);
    return rc;
}

int rl_txn_drop_schema(rl_txn *t, const char *schema, rl_error *err)
{
    cat_relations_changed(t); /* before any early return: a failed try may have written */
    if (!cat_is_write_allowed(t, err))
        return -1;
    if (strcmp(schema, "public") == 0 || !rl_txn_schema_exists(t, schema))
        return rl_error_set(err, RL_SQLSTATE_INVALID_SCHEMA_NAME, "schema \"%s\" does not exist", schema);
    table_probe u = {.schema = schema};
    if (visit_names(t, first_table, &u, true, err) < 0)
        return -1;
    if (!u.found) { /* a sequence depends on its schema too */
        int any = schema_has_sequence(t, schema, err);
        if (any < 0)
            return -1;
        u.found = any == 1;
    }
    if (u.found) {
        rl_error_set(err, RL_SQLSTATE_DEPENDENT_OBJECTS_STILL_EXIST,
                     "cannot drop schema %s because other objects depend on it", schema);
        rl_error_hint(err, "drop the schema's tables and sequences first");
        return -1;
    }
    rl_buf k;
    rl_buf_init(&k, 0);
    schema_key(&k, schema);
    uint8_t *v = NULL;
    size_t vlen = 0;
    int rc = cat_view_get(t, k.data, k.len, &v, &vlen, err);
    if (rc == 1) {
        /* the schema must still be the one we saw when we commit */
        rc = cat_add_expectation(t, EXPECT_VALUE, k.data, k.len, v, vlen, NULL, NULL, err);
        if (rc == 0)
            rc = cat_ov_set(t, k.data, k.len, NULL, 0, err);
    }
    free(v);
    rl_buf_free(&k);
    return rc < 0 ? -1 : 0;
}

/* ------------------------------------------------------------- indexes */

/* 42P07 if an index or a sequence holds schema.name; else it must stay
 * free of indexes until the transaction commits (a concurrent CREATE INDEX
 * of the name loses). */
static int index_name_free(rl_txn *t, const char *schema, const char *name, rl_error *err)
{
    rl_buf k;
    rl_buf_init(&k, 0);
    rl_key_sql_index(&k, schema, name);
    int rc = cat_view_get(t, k.data, k.len, NULL, NULL, err);
    rl_buf sk; /* a sequence's definition (seqobj.c) holds the name too */
    rl_buf_init(&sk, 0);
    rl_key_sequence(&sk, schema, name);
    if (rc == 0)
        rc = sk.failed ? oom(err) : cat_view_get(t, sk.data, sk.len, NULL, NULL, err);
    if (rc == 0) /* a concurrent CREATE SEQUENCE of the name loses too */
        rc = cat_expect_unique(t, sk.data, sk.len, name, "", err);
    rl_buf_free(&sk);
    if (rc == 1)
        rc = rl_error_set(err, RL_SQLSTATE_DUPLICATE_TABLE, "relation \"%s\" already exists", name);
    else if (rc == 0)
        rc = cat_expect_unique(t, k.data, k.len, name, "", err);
    rl_buf_free(&k);
    return rc < 0 ? -1 : 0;
}

int rl_txn_find_index(rl_txn *t, const char *schema, const char *name, rl_index_def *out,
                      rl_error *err)
{
    rl_buf k;
    rl_buf_init(&k, 0);
    rl_key_sql_index(&k, schema, name);
    uint8_t *v = NULL;
    size_t vl = 0;
    int rc = cat_view_get(t, k.data, k.len, &v, &vl, err);
    rl_buf_free(&k);
    if (rc == 1 && !rl_index_def_decode(v, vl, out))
        rc = rl_error_set(err, RL_SQLSTATE_DATA_CORRUPTED,
                          "the definition of index \"%s\" does not decode", name);
    free(v);
    return rc;
}

/* Write schema.name's definition (or, d NULL, delete it). */
static int put_index(rl_txn *t, const char *schema, const char *name, const rl_index_def *d,
                     rl_error *err)
{
    rl_buf k, v;
    rl_buf_init(&k, 0);
    rl_buf_init(&v, 0);
    rl_key_sql_index(&k, schema, name);
    if (d)
        rl_index_def_encode(&v, d);
    int rc = k.failed || v.failed ? oom(err)
                                  : cat_ov_set(t, k.data, k.len, d ? v.data : NULL, v.len, err);
    rl_buf_free(&k);
    rl_buf_free(&v);
    return rc;
}

/* ------------------------------------------------------- UNIQUE indexes */

/* One row's entry of a UNIQUE index being built, held until the scan ends
 * (the scan reads the overlay the entries go to). */
typedef struct built_entry {
    uint8_t *key, *rowkey;
    size_t klen, rklen;
    char detail[256];
} built_entry;

typedef struct unique_build {
    built_entry *e;
    size_t n, cap;
} unique_build;

static void unique_build_free(unique_build *b)
{
    for (size_t i = 0; i < b->n; i++) {
        free(b->e[i].key);
        free(b->e[i].rowkey);
    }
    free(b->e);
}

/* Every row of the table (all versions: a row is a row to PostgreSQL) into
 * b: its entry key, its key and the duplicate's detail text. */
static int collect_entries(rl_txn *t, const cat_unique *u, const rl_table_desc *d,
                           unique_build *b, rl_error *err)
{
    rl_scan *s = rl_txn_scan(t, d, NULL, 0, err);
    if (!s)
        return -1;
    rl_buf k;
    rl_buf_init(&k, 0);
    const rl_row *row;
    int rc;
    while ((rc = rl_scan_next(s, &row, err)) == 1) {
        int has = cat_unique_entry_key(t, u, d, row->vals, &k, err);
        if (has < 0) {
            rc = -1;
            break;
        }
        if (has == 0)
            continue;
        built_entry *grown = rl_array_reserve(b->e, b->n, &b->cap, sizeof *grown, 64);
        if (!grown) {
            rc = oom(err);
            break;
        }
        b->e = grown;
        built_entry *e = &b->e[b->n];
        e->key = dup_bytes(k.data, k.len);
        e->rowkey = e->key ? dup_bytes(row->key, row->klen) : NULL;
        if (!e->rowkey) {
            free(e->key);
            rc = oom(err);
            break;
        }
        e->klen = k.len;
        e->rklen = row->klen;
        cat_unique_key_text(t, u, d, row->vals, "is duplicated", e->detail, sizeof e->detail);
        b->n++;
    }
    rl_buf_free(&k);
    rl_scan_free(s);
    return rc < 0 ? -1 : 0;
}

/* The entries of UNIQUE index u over its table's rows: 23505 "could not
 * create unique index" at the first duplicate; the table must then stay
 * as this transaction read it until COMMIT (a row another transaction
 * writes meanwhile would have no entry). */
static int build_entries(rl_txn *t, const cat_unique *u, const rl_table_desc *d, rl_error *err)
{
    unique_build b = {0};
    int rc = collect_entries(t, u, d, &b, err);
    for (size_t i = 0; rc == 0 && i < b.n; i++) {
        pending *p = cat_ov_find(t, b.e[i].key, b.e[i].klen);
        if (p && p->val) {
            rl_error_set(err, RL_SQLSTATE_UNIQUE_VIOLATION, "could not create unique index \"%s\"",
                         u->name);
            rl_error_detail(err, "%s", b.e[i].detail);
            rc = -1;
            break;
        }
        rc = cat_ov_set(t, b.e[i].key, b.e[i].klen, b.e[i].rowkey, b.e[i].rklen, err);
    }
    unique_build_free(&b);
    if (rc < 0)
        return -1;
    return cat_expect_table_unchanged(t, d, err);
}

/* The entries of UNIQUE index `id` (its definition written) from the rows
 * its table has now. */
static int fill_unique_index(rl_txn *t, uint64_t id, rl_error *err)
{
    cat_relations_changed(t); /* the registry is rebuilt with the definition */
    const cat_unique *u;
    size_t n;
    if (cat_uniques(t, &u, &n, err) < 0)
        return -1;
    for (size_t i = 0; i < n; i++) {
        if (u[i].def.id != id)
            continue;
        const rl_table_desc *d = rl_txn_find_table(t, u[i].schema, u[i].def.table, err);
        return d ? build_entries(t, &u[i], d, err) : -1;
    }
    return rl_error_set(err, RL_SQLSTATE_INTERNAL, "unique index %llu is not registered",
                        (unsigned long long)id);
}

/* CREATE UNIQUE INDEX: an id for its entries, its definition, and the
 * entries of the rows the table has. */
static int new_unique_index(rl_txn *t, const char *schema, const char *name, rl_index_def *def,
                            rl_error *err)
{
    const rl_table_desc *d = rl_txn_find_table(t, schema, def->table, err);
    if (!d)
        return -1;
    uint64_t id;
    if (cat_txn_alloc_seq(t, RL_COUNTER_NEXT_INDEX_ID, &id, err) < 0)
        return -1;
    if (id == 0 && cat_txn_alloc_seq(t, RL_COUNTER_NEXT_INDEX_ID, &id, err) < 0)
        return -1; /* 0 is "not allocated" */
    if (cat_touch_counter(t, RL_COUNTER_NEXT_INDEX_ID, id + 1, err) < 0)
        return -1;
    def->id = id;
    t->unique_changed = true;
    if (put_index(t, schema, name, def, err) < 0)
        return -1;
    return fill_unique_index(t, id, err);
}

int cat_relation_name_free(rl_txn *t, const char *schema, const char *name, rl_error *err)
{
    rl_error probe;
    memset(&probe, 0, sizeof probe);
    if (rl_txn_find_table(t, schema, name, &probe))
        return rl_error_set(err, RL_SQLSTATE_DUPLICATE_TABLE, "relation \"%s\" already exists",
                            name);
    if (strcmp(probe.sqlstate, RL_SQLSTATE_UNDEFINED_TABLE) != 0) {
        if (err)
            *err = probe;
        return -1;
    }
    /* the table name must stay free too (a concurrent CREATE TABLE loses) */
    rl_buf k;
    rl_buf_init(&k, 0);
    rl_key_dynamic_name(&k, schema, name);
    int rc = k.failed ? oom(err) : cat_expect_unique(t, k.data, k.len, name, "", err);
    rl_buf_free(&k);
    return rc < 0 ? -1 : index_name_free(t, schema, name, err);
}

int rl_txn_create_index(rl_txn *t, const char *schema, const char *name, const rl_index_def *d,
                        rl_error *err)
{
    cat_relations_changed(t); /* before any early return: a failed try may have written */
    if (!cat_is_write_allowed(t, err))
        return -1;
    assert(d->ncols >= 1 && d->ncols <= RL_INDEX_MAX_KEYS);
    if (cat_relation_name_free(t, schema, name, err) < 0)
        return -1;
    if (!d->unique)
        return put_index(t, schema, name, d, err);
    rl_index_def *def = malloc(sizeof *def);
    if (!def)
        return oom(err);
    *def = *d;
    int rc = new_unique_index(t, schema, name, def, err);
    free(def);
    return rc;
}

int rl_txn_replace_index(rl_txn *t, const char *schema, const char *name, const rl_index_def *d,
                         rl_error *err)
{
    cat_relations_changed(t);
    if (!cat_is_write_allowed(t, err))
        return -1;
    rl_index_def old;
    int rc = rl_txn_find_index(t, schema, name, &old, err);
    if (rc == 0)
        return rl_error_set(err, RL_SQLSTATE_UNDEFINED_OBJECT, "index \"%s\" does not exist", name);
    if (rc < 0)
        return -1;
    /* a replacement (its table or a column renamed) keeps the index's id;
     * its entries are those of the table's rows now: a renamed table was
     * rebuilt under its new name and wrote its rows without them */
    assert(!d || (d->unique == old.unique && d->id == old.id));
    if (old.unique) {
        t->unique_changed = true;
        if (cat_unique_clear(t, old.id, err) < 0)
            return -1;
    }
    if (put_index(t, schema, name, d, err) < 0)
        return -1;
    return d && d->unique ? fill_unique_index(t, d->id, err) : 0;
}

int rl_txn_rename_index(rl_txn *t, const char *schema, const char *name, const char *newname,
                        rl_error *err)
{
    cat_relations_changed(t);
    if (!cat_is_write_allowed(t, err))
        return -1;
    rl_index_def def;
    int rc = rl_txn_find_index(t, schema, name, &def, err);
    if (rc == 0)
        return rl_error_set(err, RL_SQLSTATE_UNDEFINED_OBJECT, "index \"%s\" does not exist", name);
    rl_buf k;
    rl_buf_init(&k, 0);
    rl_key_dynamic_name(&k, schema, newname);
    if (rc == 1)
        rc = k.failed ? oom(err) : cat_expect_unique(t, k.data, k.len, newname, "", err);
    rl_buf_free(&k);
    if (rc < 0 || index_name_free(t, schema, newname, err) < 0 ||
        put_index(t, schema, name, NULL, err) < 0)
        return -1;
    return put_index(t, schema, newname, &def, err);
}

int rl_txn_drop_index(rl_txn *t, const char *schema, const char *name, rl_error *err)
{
    return rl_txn_replace_index(t, schema, name, NULL, err);
}

/* What list_index hands each index to. */
typedef struct index_visit {
    rl_index_visitor visit;
    void *ctx;
} index_visit;

static int list_index(void *ctx, char *const *strs, const uint8_t *v, size_t vl, rl_error *err)
{
    index_visit *iv = ctx;
    rl_index_def d;
    if (!rl_index_def_decode(v, vl, &d))
        return rl_error_set(err, RL_SQLSTATE_DATA_CORRUPTED,
                            "the definition of index \"%s\" does not decode", strs[1]);
    return iv->visit(iv->ctx, strs[0], strs[1], &d);
}

int rl_txn_list_indexes(rl_txn *t, rl_index_visitor visit, void *ctx, rl_error *err)
{
    index_visit iv = {visit, ctx};
    return scan_index_keys(t, RL_INDEX_SQL_INDEX, 2, "sql index", list_index, &iv, err);
}

/* ------------------------------------------------------------ comments */

int rl_txn_set_comment(rl_txn *t, const char *schema, const char *relation, const char *column,
                       const char *text, rl_error *err)
{
    cat_relations_changed(t);
    if (!cat_is_write_allowed(t, err))
        return -1;
    rl_buf k;
    rl_buf_init(&k, 0);
    rl_key_comment(&k, schema, relation, column);
    bool del = !text || !text[0]; /* PostgreSQL: an empty comment drops it */
    int rc = k.failed ? oom(err)
                      : cat_ov_set(t, k.data, k.len, del ? NULL : (const uint8_t *)text,
                                   del ? 0 : strlen(text), err);
    rl_buf_free(&k);
    return rc;
}

/* What list_comment hands each comment to, and its text's NUL-ended copy. */
typedef struct comment_visit {
    rl_comment_visitor visit;
    void *ctx;
    rl_buf text;
} comment_visit;

static int list_comment(void *ctx, char *const *strs, const uint8_t *v, size_t vl, rl_error *err)
{
    comment_visit *cv = ctx;
    if (memchr(v, 0, vl))
        return rl_error_set(err, RL_SQLSTATE_DATA_CORRUPTED, "malformed comment entry");
    rl_buf_reset(&cv->text);
    rl_buf_put(&cv->text, v, vl);
    rl_buf_put_u8(&cv->text, 0);
    if (cv->text.failed)
        return oom(err);
    return cv->visit(cv->ctx, strs[0], strs[1], strs[2], (const char *)cv->text.data);
}

int rl_txn_list_comments(rl_txn *t, const char *schema, const char *relation,
                         rl_comment_visitor visit, void *ctx, rl_error *err)
{
    rl_buf p;
    rl_buf_init(&p, 0);
    if (schema)
        rl_key_comment_prefix(&p, schema, relation);
    else
        rl_buf_put(&p, (const uint8_t[]){RL_TAG_INDEX, RL_INDEX_COMMENT}, 2);
    comment_visit cv = {visit, ctx, {0}};
    rl_buf_init(&cv.text, 0);
    int rc = p.failed ? oom(err)
                      : scan_prefix_keys(t, p.data, p.len, 3, "comment", list_comment, &cv, err);
    rl_buf_free(&cv.text);
    rl_buf_free(&p);
    return rc;
}

/* ------------------------------------------------------ format changes */

int rl_txn_migrate_table(rl_txn *t, const rl_table_desc *d, rl_format fmt, rl_error *err)
{
    cat_relations_changed(t); /* before any early return: a failed try may have written */
    assert(d->tag < 64 && d->tag != RL_TAG_DYNAMIC_ROW);
    rl_format old = t->fmt;
    if (fmt != old) {
        if (rl_txn_set_format(t, fmt, err) < 0)
            return -1;
        /* the other tables whose shape differs keep the old one until the
         * migration reaches them, as each ALTER TABLE does in PostgreSQL */
        t->lag_fmt = old;
        t->lagging = 0;
        for (size_t i = 0; i < rl_ntables; i++) {
            const rl_table_desc *o = &rl_tables[i];
            if (!o->internal && rl_desc_in_format(o, old) &&
                rl_desc_ncols(o, old) != rl_desc_ncols(o, fmt))
                t->lagging |= tag_bit(o->tag);
        }
    }
    t->lagging &= ~tag_bit(d->tag);
    t->vc_desc = NULL;
    return 0;
}

bool rl_txn_table_lagging(const rl_txn *t, const rl_table_desc *d)
{
    return d->tag != RL_TAG_DYNAMIC_ROW && (t->lagging & tag_bit(d->tag));
}

/* What extended_shape_changes looks for: an extended fixed table whose
 * DuckLake shape differs between the two formats. */
typedef struct shape_probe {
    rl_format from, to;
    char table[128]; /* found ("" none): the visitor's name does not outlive it */
} shape_probe;

static int extended_shape_changes(void *ctx, const char *schema, const char *name,
                                  const rl_table_desc *d)
{
    shape_probe *p = ctx;
    (void)schema;
    const rl_table_desc *base = d->tag == RL_TAG_DYNAMIC_ROW ? NULL : rl_desc_by_tag(d->tag);
    if (!base || base == d || rl_desc_ncols(base, p->from) == rl_desc_ncols(base, p->to))
        return 0;
    snprintf(p->table, sizeof p->table, "%s", name);
    return 1;
}

int rl_txn_set_format(rl_txn *t, rl_format fmt, rl_error *err)
{
    cat_relations_changed(t); /* before any early return: a failed try may have written */
    if (!cat_is_write_allowed(t, err))
        return -1;
    if (fmt == t->fmt)
        return 0;
    /* an extended table's rows hold its extension columns where the new
     * format's own columns would go */
    shape_probe p = {t->fmt, fmt, ""};
    if (rl_txn_list_tables(t, extended_shape_changes, &p, err) < 0)
        return -1;
    if (p.table[0]) {
        rl_error_set(err, RL_SQLSTATE_FEATURE_NOT_SUPPORTED,
                     "cannot change this catalog to DuckLake %s: table \"%s\" has columns of its "
                     "own where %s adds columns",
                     rl_format_name(fmt), p.table, rl_format_name(fmt));
        rl_error_hint(err, "export the catalog (rocklake export), drop the extra columns and "
                           "import it");
        return -1;
    }
    rl_buf k;
    rl_buf_init(&k, 0);
    rl_key_system(&k, RL_SYS_DUCKLAKE_FORMAT);
    uint8_t *v = NULL;
    size_t vlen = 0;
    int rc = cat_view_get(t, k.data, k.len, &v, &vlen, err);
    /* a concurrent change of the format (another migration) is a conflict */
    if (rc >= 0 && !cat_ov_find(t, k.data, k.len))
        rc = cat_add_expectation(t, EXPECT_VALUE, k.data, k.len, rc == 1 ? v : NULL, vlen, NULL,
                             NULL, err);
    const char *name = rl_format_name(fmt);
    if (rc >= 0)
        rc = cat_ov_set(t, k.data, k.len, (const uint8_t *)name, strlen(name), err);
    free(v);
    rl_buf_free(&k);
    if (rc < 0)
        return -1;
    t->fmt = fmt;
    t->fmt_changed = true;
    t->vc_desc = NULL; /* value layouts follow the shapes */
    return 0;
}
