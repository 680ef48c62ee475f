/*
 * inspect.c — decoding stored pairs for people, and `inspect` / `stats`
 * (see inspect.h).
 *
 * Owns: value text for every key family, the dynamic-definition registry
 * tools use, and per-tag storage accounting.
 *
 * Why raw kv scans and not catalog scans: the tools must show what is really
 * stored — history, index entries, counters, even bytes the catalog layer
 * would reject — so they walk the keyspace and decode each pair on its own.
 * Invariant: a pair that fails to decode is described, never fatal.
 */
#include "cli/inspect.h"

#include <ctype.h>
#include <stdarg.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "keys/keys.h"
#include "pgtype/pgtype.h"
#include "keys/tags.h"

/* ---------------------------------------------------------------- scans */

kv_iter *rl_scan_all(kv_db *kv, const uint8_t *prefix, size_t plen, kv_error *err)
{
    if (plen > 0)
        return kv_scan_prefix(kv, NULL, prefix, plen, err);
    /* 0x00 is never a tag, so [00, end) is the whole keyspace */
    static const uint8_t start[1] = {0x00};
    return kv_scan(kv, NULL, start, 1, NULL, 0, err);
}

static int kv_err(rl_error *err, const kv_error *ke, const char *what)
{
    return rl_error_set(err, ke->kind == KV_ERR_CORRUPT ? RL_SQLSTATE_DATA_CORRUPTED
                                                         : RL_SQLSTATE_IO_ERROR,
                        "%s: %s (%s)", what, ke->message, kv_error_kind_name(ke->kind));
}

/* ------------------------------------------------------ dynamic registry */

static int def_cmp(const void *a, const void *b)
{
    uint64_t x = ((const rl_dyn_def *)a)->id, y = ((const rl_dyn_def *)b)->id;
    return x < y ? -1 : x > y;
}

static int defs_add(rl_dyn_defs *out, uint64_t id, rl_table_desc *d, const char *schema,
                    size_t *cap)
{
    rl_dyn_def *grown = rl_array_reserve(out->defs, out->n, cap, sizeof *grown, 16);
    if (!grown)
        return -1;
    out->defs = grown;
    rl_dyn_def *e = &out->defs[out->n++];
    e->id = id;
    e->desc = d;
    snprintf(e->schema, sizeof e->schema, "%s", schema);
    return 0;
}

/* The name index's entries that extend a DuckLake table, into defs->fixed. */
static int load_fixed_extensions(kv_db *kv, rl_dyn_defs *out, rl_error *err)
{
    uint8_t prefix[RL_KEY_INDEX_PREFIX_LEN];
    size_t plen = rl_key_index_prefix(prefix, RL_INDEX_DYNAMIC_NAME);
    kv_error ke;
    kv_iter *it = kv_scan_prefix(kv, NULL, prefix, plen, &ke);
    if (!it)
        return kv_err(err, &ke, "scanning the table name index");
    const uint8_t *k, *v;
    size_t kl, vl;
    int rc;
    while ((rc = kv_iter_next(it, &k, &kl, &v, &vl, &ke)) == 1) {
        rl_name_entry e;
        if (!rl_name_entry_decode(v, vl, &e) || !e.ext)
            continue; /* plain entries; `check` reports malformed ones */
        const rl_table_desc *base = rl_desc_by_tag(e.tag);
        rl_table_desc *d = base && !base->internal && e.tag < 64
                               ? rl_fixed_desc_extend(base, e.ext_fmt, e.ext, e.ext_len)
                               : NULL;
        if (!d) {
            out->undecodable++;
            continue;
        }
        rl_dynamic_desc_free(out->fixed[e.tag]); /* one DuckLake schema: at most one each */
        out->fixed[e.tag] = d;
    }
    kv_iter_free(it);
    return rc < 0 ? kv_err(err, &ke, "scanning the table name index") : 0;
}

int rl_dyn_defs_load(kv_db *kv, rl_dyn_defs *out, rl_error *err)
{
    memset(out, 0, sizeof *out);
    uint8_t tag = RL_TAG_DYNAMIC_TABLE;
    kv_error ke;
    kv_iter *it = kv_scan_prefix(kv, NULL, &tag, 1, &ke);
    if (!it)
        return kv_err(err, &ke, "scanning dynamic table definitions");
    const uint8_t *k, *v;
    size_t kl, vl, cap = 0;
    int rc;
    while ((rc = kv_iter_next(it, &k, &kl, &v, &vl, &ke)) == 1) {
        char schema[128] = "";
        rl_table_desc *d = kl == 9 ? rl_dynamic_desc_decode(rl_load_be64(k + 1), v, vl, schema,
                                                             sizeof schema)
                                   : NULL;
        if (!d) {
            out->undecodable++;
            continue;
        }
        if (defs_add(out, d->dyn_id, d, schema, &cap) < 0) {
            rl_dynamic_desc_free(d);
            kv_iter_free(it);
            return rl_error_set(err, RL_SQLSTATE_INTERNAL_ERROR, "out of memory");
        }
    }
    kv_iter_free(it);
    if (rc < 0)
        return kv_err(err, &ke, "scanning dynamic table definitions");
    if (out->n)
        qsort(out->defs, out->n, sizeof *out->defs, def_cmp); /* keys are ordered; be sure */
    return load_fixed_extensions(kv, out, err);
}

const rl_table_desc *rl_defs_fixed_desc(const rl_dyn_defs *defs, uint8_t tag)
{
    if (defs && tag < 64 && defs->fixed[tag])
        return defs->fixed[tag];
    return rl_desc_by_tag(tag);
}

const rl_dyn_def *rl_dyn_defs_find(const rl_dyn_defs *defs, uint64_t id)
{
    if (!defs || !defs->n)
        return NULL;
    rl_dyn_def probe = {.id = id};
    return bsearch(&probe, defs->defs, defs->n, sizeof probe, def_cmp);
}

void rl_dyn_defs_free(rl_dyn_defs *defs)
{
    if (!defs)
        return;
    for (size_t i = 0; i < defs->n; i++)
        rl_dynamic_desc_free(defs->defs[i].desc);
    for (size_t i = 0; i < 64; i++)
        rl_dynamic_desc_free(defs->fixed[i]);
    free(defs->defs);
    memset(defs, 0, sizeof *defs);
}

/* ------------------------------------------------------------- decoding */

void rl_decoded_row_init(rl_decoded_row *r)
{
    memset(r, 0, sizeof *r);
    rl_buf_init(&r->arena, 0);
}

void rl_decoded_row_free(rl_decoded_row *r) { rl_buf_free(&r->arena); }

/* Internal tables (audit, definitions) have one shape in every format;
 * dynamic tables have their own column list. */
static size_t stored_ncols(const rl_table_desc *d, rl_format fmt)
{
    if (d->tag == RL_TAG_DYNAMIC_ROW || d->internal)
        return d->ncols_max;
    return rl_desc_ncols(d, fmt);
}

static size_t stored_value_columns(const rl_table_desc *d, rl_format fmt, rl_type *types,
                                   int *cols)
{
    if (d->tag == RL_TAG_DYNAMIC_ROW) {
        for (size_t i = 0; i < d->ncols_max; i++) {
            types[i] = d->cols[i].type;
            cols[i] = (int)i;
        }
        return d->ncols_max;
    }
    return rl_desc_value_columns(d, d->internal ? RL_FMT_LATEST : fmt, types, cols);
}

int rl_decode_stored_row(rl_decoded_row *r, const rl_table_desc *d, rl_format fmt,
                         const uint8_t *key, size_t klen, const uint8_t *val, size_t vlen,
                         char *why, size_t whylen)
{
    r->d = d;
    r->ncols = stored_ncols(d, fmt);
    r->seq = 0;
    if (r->ncols == 0) {
        snprintf(why, whylen, "table %s is not part of DuckLake format %s", d->name,
                 rl_format_name(fmt));
        return -1;
    }
    for (size_t i = 0; i < RL_MAX_COLUMNS; i++)
        r->vals[i].isnull = true;
    rl_buf_reset(&r->arena);
    if (rl_key_decode_row(key, klen, d, r->vals, &r->seq, &r->arena) != RL_KEY_OK) {
        snprintf(why, whylen, "malformed key for %s", d->name);
        return -1;
    }
    rl_type types[RL_MAX_COLUMNS];
    int cols[RL_MAX_COLUMNS];
    rl_datum vals[RL_MAX_COLUMNS];
    size_t n = stored_value_columns(d, fmt, types, cols);
    char msg[256] = "";
    if (rl_row_decode(val, vlen, d->tag, n, types, NULL, vals, msg, sizeof msg) != RL_CODEC_OK) {
        snprintf(why, whylen, "value does not decode as %s: %s", d->name,
                 msg[0] ? msg : "corrupt");
        return -1;
    }
    for (size_t i = 0; i < n; i++)
        r->vals[cols[i]] = vals[i];
    return 0;
}

const rl_table_desc *rl_desc_for_key(const uint8_t *key, size_t klen, const rl_dyn_defs *defs)
{
    if (klen == 0)
        return NULL;
    if (key[0] == RL_TAG_DYNAMIC_ROW) {
        const rl_dyn_def *def = klen >= 9 ? rl_dyn_defs_find(defs, rl_load_be64(key + 1)) : NULL;
        return def ? def->desc : NULL;
    }
    return rl_defs_fixed_desc(defs, key[0]); /* protocol tags, audit, definitions */
}

/* Printable bytes as-is; quote, backslash and anything else escaped. */
static void put_escaped(rl_buf *b, const uint8_t *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '\'')
            rl_buf_put_str(b, "''");
        else if (s[i] >= 0x20 && s[i] < 0x7f && s[i] != '\\')
            rl_buf_put_u8(b, s[i]);
        else
            rl_buf_printf(b, "\\x%02x", s[i]);
    }
}

/* Numbers, booleans, uuids and bytea (\\x<hex>) print bare; everything else is quoted so a
 * value with spaces (timestamps, SQL) stays one token. */
static bool type_is_bare(rl_type t)
{
    switch (t) {
    case RL_T_INT8: case RL_T_INT4: case RL_T_INT2: case RL_T_FLOAT4: case RL_T_FLOAT8:
    case RL_T_NUMERIC: case RL_T_BOOL: case RL_T_UUID: case RL_T_BYTEA:
        return true;
    default:
        return false;
    }
}

static void put_datum(rl_buf *out, rl_type t, const rl_datum *d)
{
    if (d->isnull) {
        rl_buf_put_str(out, "NULL");
        return;
    }
    if (type_is_bare(t)) {
        rl_datum_to_text(out, t, d);
        return;
    }
    rl_buf text;
    rl_buf_init(&text, 0);
    rl_datum_to_text(&text, t, d);
    rl_buf_put_u8(out, '\'');
    put_escaped(out, text.data ? text.data : (const uint8_t *)"", text.len);
    rl_buf_put_u8(out, '\'');
    rl_buf_free(&text);
}

/* "col=value" for every column that is not a key field (those are on the
 * key line already). */
static void put_row_columns(rl_buf *out, const rl_decoded_row *r)
{
    bool first = true;
    for (size_t i = 0; i < r->ncols; i++) {
        if (rl_desc_col_in_key(r->d, (int)i))
            continue;
        rl_buf_printf(out, "%s%s=", first ? "" : " ", r->d->cols[i].name);
        put_datum(out, r->d->cols[i].type, &r->vals[i]);
        first = false;
    }
    if (first)
        rl_buf_put_str(out, "(no value columns)");
}

static int describe_row(rl_buf *out, const rl_table_desc *d, rl_format fmt, const uint8_t *key,
                        size_t klen, const uint8_t *val, size_t vlen, char *why, size_t whylen)
{
    rl_decoded_row r;
    rl_decoded_row_init(&r);
    int rc = rl_decode_stored_row(&r, d, fmt, key, klen, val, vlen, why, whylen);
    if (rc == 0)
        put_row_columns(out, &r);
    rl_decoded_row_free(&r);
    return rc;
}

static int fail(char *why, size_t whylen, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static int fail(char *why, size_t whylen, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(why, whylen, fmt, ap);
    va_end(ap);
    return -1;
}

static bool is_u64_system_key(const uint8_t *name, size_t n)
{
    static const char *const names[] = {RL_SYS_FORMAT_VERSION, RL_SYS_WRITER_EPOCH,
                                        RL_SYS_RETAIN_FROM, RL_SYS_CREATED_AT};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (strlen(names[i]) == n && memcmp(names[i], name, n) == 0)
            return true;
    return false;
}

static int describe_system(rl_buf *out, const uint8_t *key, size_t klen, const uint8_t *val,
                           size_t vlen, char *why, size_t whylen)
{
    const uint8_t *name = key + 1;
    size_t n = klen - 1;
    if (is_u64_system_key(name, n)) {
        if (vlen != 8)
            return fail(why, whylen, "system key value is %zu bytes, expected 8", vlen);
        rl_buf_printf(out, "%" PRIu64, rl_load_be64(val));
        if (n == strlen(RL_SYS_CREATED_AT) && memcmp(name, RL_SYS_CREATED_AT, n) == 0) {
            rl_datum d = {.isnull = false};
            d.v.i = (int64_t)rl_load_be64(val);
            rl_buf_put_str(out, " (");
            rl_datum_to_text(out, RL_T_TIMESTAMPTZ, &d);
            rl_buf_put_u8(out, ')');
        }
        return 0;
    }
    rl_buf_put_u8(out, '\'');
    put_escaped(out, val, vlen);
    rl_buf_put_u8(out, '\'');
    return 0;
}

static int describe_index_value(rl_buf *out, const uint8_t *key, size_t klen,
                                const uint8_t *val, size_t vlen, const rl_dyn_defs *defs,
                                char *why, size_t whylen)
{
    uint8_t kind = klen >= 2 ? key[1] : 0;
    if (kind == RL_INDEX_LIVE) {
        if (vlen != 0)
            return fail(why, whylen, "live index entry has a %zu-byte value, expected none", vlen);
        rl_buf_put_str(out, "(live)");
        return 0;
    }
    if (kind == RL_INDEX_PK) {
        const rl_table_desc *d = klen == 11 ? rl_desc_by_tag(key[2]) : NULL;
        rl_buf rowkey;
        rl_buf_init(&rowkey, 0);
        if (!d || rl_key_from_pk_index(&rowkey, d, rl_load_be64(key + 3), val, vlen) !=
                      RL_KEY_OK) {
            rl_buf_free(&rowkey);
            return fail(why, whylen, "pk index value does not name a row of table 0x%02x",
                        klen >= 3 ? key[2] : 0);
        }
        rl_buf_put_str(out, "-> ");
        rl_key_describe(out, rowkey.data, rowkey.len);
        rl_buf_free(&rowkey);
        return 0;
    }
    if (kind == RL_INDEX_UNIQUE) {
        rl_buf_put_str(out, "-> ");
        rl_key_describe(out, val, vlen);
        return 0;
    }
    rl_name_entry e;
    if (kind == RL_INDEX_DYNAMIC_NAME && rl_name_entry_decode(val, vlen, &e) && e.tag) {
        const rl_table_desc *d = rl_desc_by_tag(e.tag);
        rl_buf_printf(out, "fixed table %s (tag 0x%02x)", d ? d->name : "?", e.tag);
        if (e.ext) {
            const rl_table_desc *x = e.tag < 64 ? defs->fixed[e.tag] : NULL;
            size_t n0 = d ? rl_desc_ncols(d, e.ext_fmt) : 0;
            rl_buf_printf(out, " in DuckLake %s's shape, with columns of its own:",
                          rl_format_name(e.ext_fmt));
            for (size_t i = n0; x && i < x->ncols_max; i++)
                rl_buf_printf(out, " %s %s", x->cols[i].name, rl_type_name(x->cols[i].type));
            if (!x)
                rl_buf_put_str(out, " (undecodable)");
        }
        return 0;
    }
    if (kind == RL_INDEX_COMMENT) {
        rl_buf_put_str(out, "comment '");
        for (size_t i = 0; i < vlen; i++)
            rl_buf_printf(out, val[i] >= 0x20 && val[i] < 0x7f && val[i] != '\\' ? "%c" : "\\x%02x",
                          val[i]);
        rl_buf_put_str(out, "'");
        return 0;
    }
    rl_index_def idx;
    if (kind == RL_INDEX_SQL_INDEX) {
        if (!rl_index_def_decode(val, vlen, &idx))
            return fail(why, whylen, "index definition (%zu bytes) does not decode", vlen);
        static const char *const am[] = {"btree", "hash", "brin", "spgist"};
        rl_buf_printf(out, "index on %s using %s (", idx.table, am[idx.method]);
        for (size_t i = 0; i < idx.ncols; i++)
            rl_buf_printf(out, "%s%s%s%s", i ? ", " : "", idx.cols[i],
                          idx.opts[i] & RL_INDEX_COL_DESC ? " DESC" : "",
                          idx.opts[i] & RL_INDEX_COL_NULLS_FIRST ? " NULLS FIRST" : "");
        rl_buf_put_str(out, ")");
        if (idx.unique)
            rl_buf_printf(out, " unique%s, id %llu",
                          idx.nulls_not_distinct ? " nulls not distinct" : "",
                          (unsigned long long)idx.id);
        return 0;
    }
    if (kind == RL_INDEX_SCHEMA) {
        if (vlen != 0)
            return fail(why, whylen, "schema index entry has a %zu-byte value, expected none", vlen);
        rl_buf_put_str(out, "(schema)");
        return 0;
    }
    if (kind == RL_INDEX_DYNAMIC_NAME) {
        if (vlen != 8 || val[0] != 0)
            return fail(why, whylen, "table name index value (%zu bytes) is malformed", vlen);
        uint64_t id = rl_load_be64(val);
        rl_buf_printf(out, "dyn_id=%" PRIu64, id);
        if (!rl_dyn_defs_find(defs, id))
            rl_buf_put_str(out, " (no definition)");
        return 0;
    }
    return fail(why, whylen, "unknown index kind 0x%02x", kind);
}

static int describe_definition(rl_buf *out, const uint8_t *key, size_t klen,
                               const uint8_t *val, size_t vlen, char *why, size_t whylen)
{
    if (klen != 9)
        return fail(why, whylen, "definition key is %zu bytes, expected 9", klen);
    char schema[128] = "";
    rl_table_desc *d = rl_dynamic_desc_decode(rl_load_be64(key + 1), val, vlen, schema,
                                              sizeof schema);
    if (!d)
        return fail(why, whylen, "dynamic table definition does not decode");
    rl_buf_printf(out, "%s.%s (", schema, d->name);
    for (size_t i = 0; i < d->ncols_max; i++)
        rl_buf_printf(out, "%s%s %s%s", i ? ", " : "", d->cols[i].name,
                      rl_type_name(d->cols[i].type), d->cols[i].not_null ? " NOT NULL" : "");
    rl_buf_put_u8(out, ')');
    rl_dynamic_desc_free(d);
    return 0;
}

static int describe_dynamic_row(rl_buf *out, const uint8_t *key, size_t klen,
                                const uint8_t *val, size_t vlen, const rl_dyn_defs *defs,
                                char *why, size_t whylen)
{
    if (klen != 17)
        return fail(why, whylen, "dynamic row key is %zu bytes, expected 17", klen);
    const rl_dyn_def *def = rl_dyn_defs_find(defs, rl_load_be64(key + 1));
    if (!def)
        return fail(why, whylen, "no definition for dynamic table %" PRIu64,
                    rl_load_be64(key + 1));
    rl_buf_printf(out, "table=%s.%s ", def->schema, def->desc->name);
    return describe_row(out, def->desc, RL_FMT_LATEST, key, klen, val, vlen, why, whylen);
}

int rl_describe_value(rl_buf *out, const uint8_t *key, size_t klen, const uint8_t *val,
                      size_t vlen, rl_format fmt, const rl_dyn_defs *defs, char *why,
                      size_t whylen)
{
    if (klen == 0)
        return fail(why, whylen, "empty key");
    switch (key[0]) {
    case RL_TAG_COUNTER:
        if (vlen != 8)
            return fail(why, whylen, "counter value is %zu bytes, expected 8", vlen);
        rl_buf_printf(out, "%" PRIu64, rl_load_be64(val));
        return 0;
    case RL_TAG_SYSTEM:
        return describe_system(out, key, klen, val, vlen, why, whylen);
    case RL_TAG_INDEX:
        return describe_index_value(out, key, klen, val, vlen, defs, why, whylen);
    case RL_TAG_DYNAMIC_TABLE:
        return describe_definition(out, key, klen, val, vlen, why, whylen);
    case RL_TAG_DYNAMIC_ROW:
        return describe_dynamic_row(out, key, klen, val, vlen, defs, why, whylen);
    default:
        break;
    }
    const rl_table_desc *d = rl_defs_fixed_desc(defs, key[0]);
    if (!d)
        return fail(why, whylen, "unknown tag 0x%02x", key[0]);
    return describe_row(out, d, fmt, key, klen, val, vlen, why, whylen);
}

/* ------------------------------------------------------------- tag names */

const char *rl_tag_label(uint8_t tag)
{
    switch (tag) {
    case RL_TAG_INDEX: return "rocklake_index";
    case RL_TAG_DYNAMIC_ROW: return "rocklake_dynamic_row";
    case RL_TAG_COUNTER: return "rocklake_counter";
    case RL_TAG_SYSTEM: return "rocklake_system";
    default: break;
    }
    const rl_table_desc *d = rl_desc_by_tag(tag); /* includes 0x81 audit, 0x82 definitions */
    return d ? d->name : "unknown";
}

int rl_tag_parse(const char *s)
{
    const char *h = (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) ? s + 2 : s;
    size_t n = strlen(h);
    if (n >= 1 && n <= 2 && rl_hex_value(h[0]) >= 0 && (n == 1 || rl_hex_value(h[1]) >= 0))
        return (int)strtol(h, NULL, 16);
    for (int t = 1; t < 256; t++)
        if (strcmp(rl_tag_label((uint8_t)t), "unknown") != 0 &&
            strcasecmp(rl_tag_label((uint8_t)t), s) == 0)
            return t;
    return -1;
}

int rl_hex_parse(const char *s, uint8_t *out, size_t cap)
{
    size_t n = 0;
    while (*s) {
        if (isspace((unsigned char)*s) || *s == ',' || *s == ':') {
            s++;
            continue;
        }
        if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')) {
            s += 2;
            continue;
        }
        int hi = rl_hex_value((unsigned char)s[0]);
        int lo = hi >= 0 ? rl_hex_value((unsigned char)s[1]) : -1;
        if (lo < 0 || n >= cap)
            return -1;
        out[n++] = (uint8_t)(hi << 4 | lo);
        s += 2;
    }
    return (int)n;
}

/* --------------------------------------------------------------- inspect */

static void print_pair(FILE *out, rl_buf *line, const uint8_t *k, size_t kl, const uint8_t *v,
                       size_t vl, rl_format fmt, const rl_dyn_defs *defs, bool raw)
{
    rl_buf_reset(line);
    rl_key_hex(line, k, kl);
    rl_buf_put_str(line, "\n  key   ");
    rl_key_describe(line, k, kl);
    rl_buf_put_str(line, "\n  value ");
    size_t at = line->len;
    char why[300];
    if (rl_describe_value(line, k, kl, v, vl, fmt, defs, why, sizeof why) < 0) {
        line->len = at; /* drop any partial text */
        rl_buf_printf(line, "(undecodable: %s)", why);
    }
    if (raw) {
        rl_buf_put_str(line, "\n  raw   ");
        rl_key_hex(line, v, vl);
    }
    rl_buf_put_u8(line, '\n');
    if (!line->failed)
        fwrite(line->data, 1, line->len, out);
    else
        fputs("(out of memory describing this key)\n", out);
}

int rl_inspect(rl_catalog *cat, const rl_inspect_opts *o, FILE *out, rl_error *err)
{
    kv_db *kv = rl_catalog_kv(cat);
    rl_dyn_defs defs;
    if (rl_dyn_defs_load(kv, &defs, err) < 0) {
        rl_dyn_defs_free(&defs);
        return -1;
    }
    uint8_t tagbyte = (uint8_t)(o->tag < 0 ? 0 : o->tag);
    const uint8_t *prefix = o->plen ? o->prefix : o->tag >= 0 ? &tagbyte : NULL;
    size_t plen = o->plen ? o->plen : o->tag >= 0 ? 1 : 0;
    kv_error ke;
    kv_iter *it = rl_scan_all(kv, prefix, plen, &ke);
    if (!it) {
        rl_dyn_defs_free(&defs);
        return kv_err(err, &ke, "scanning the store");
    }
    rl_buf line;
    rl_buf_init(&line, 0);
    const uint8_t *k, *v;
    size_t kl, vl;
    uint64_t shown = 0;
    int rc;
    rl_format fmt = rl_catalog_format(cat);
    while ((o->limit == 0 || shown < o->limit) &&
           (rc = kv_iter_next(it, &k, &kl, &v, &vl, &ke)) == 1) {
        if (o->tag >= 0 && (kl == 0 || k[0] != o->tag))
            continue;
        print_pair(out, &line, k, kl, v, vl, fmt, &defs, o->raw);
        shown++;
    }
    if (o->limit && shown >= o->limit)
        rc = 0;
    kv_iter_free(it);
    rl_buf_free(&line);
    rl_dyn_defs_free(&defs);
    return rc < 0 ? kv_err(err, &ke, "scanning the store") : 0;
}

/* ----------------------------------------------------------------- stats */

typedef struct tag_total {
    uint64_t keys, key_bytes, value_bytes;
} tag_total;

static void json_string(FILE *out, const char *s)
{
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            fprintf(out, "\\%c", *s);
        else if ((unsigned char)*s < 0x20)
            fprintf(out, "\\u%04x", *s);
        else
            fputc(*s, out);
    }
    fputc('"', out);
}

static void stats_json(FILE *out, const char *store, const tag_total *t, const tag_total *sum)
{
    fputs("{\"store\": ", out);
    json_string(out, store);
    fputs(", \"tags\": [", out);
    bool first = true;
    for (int i = 0; i < 256; i++) {
        if (!t[i].keys)
            continue;
        fprintf(out,
                "%s\n  {\"tag\": \"0x%02x\", \"name\": \"%s\", \"keys\": %" PRIu64
                ", \"key_bytes\": %" PRIu64 ", \"value_bytes\": %" PRIu64
                ", \"total_bytes\": %" PRIu64 "}",
                first ? "" : ",", i, rl_tag_label((uint8_t)i), t[i].keys, t[i].key_bytes,
                t[i].value_bytes, t[i].key_bytes + t[i].value_bytes);
        first = false;
    }
    fprintf(out,
            "\n], \"total\": {\"keys\": %" PRIu64 ", \"key_bytes\": %" PRIu64
            ", \"value_bytes\": %" PRIu64 ", \"total_bytes\": %" PRIu64 "}}\n",
            sum->keys, sum->key_bytes, sum->value_bytes, sum->key_bytes + sum->value_bytes);
}

static void stats_table(FILE *out, const tag_total *t, const tag_total *sum)
{
    const char *hdr = "%-5s %-38s %10s %12s %12s %12s %6s\n";
    const char *row = "%-5s %-38s %10" PRIu64 " %12" PRIu64 " %12" PRIu64 " %12" PRIu64
                      " %5.1f%%\n";
    uint64_t all = sum->key_bytes + sum->value_bytes;
    fprintf(out, hdr, "tag", "table", "keys", "key bytes", "value bytes", "total bytes", "share");
    for (int i = 0; i < 256; i++) {
        if (!t[i].keys)
            continue;
        char tag[8];
        snprintf(tag, sizeof tag, "0x%02x", i);
        uint64_t tot = t[i].key_bytes + t[i].value_bytes;
        fprintf(out, row, tag, rl_tag_label((uint8_t)i), t[i].keys, t[i].key_bytes,
                t[i].value_bytes, tot, all ? 100.0 * (double)tot / (double)all : 0.0);
    }
    fprintf(out, row, "", "total", sum->keys, sum->key_bytes, sum->value_bytes, all,
            all ? 100.0 : 0.0);
}

int rl_stats(rl_catalog *cat, const char *store, bool json, FILE *out, rl_error *err)
{
    tag_total *t = calloc(256, sizeof *t);
    if (!t)
        return rl_error_set(err, RL_SQLSTATE_INTERNAL_ERROR, "out of memory");
    kv_error ke;
    kv_iter *it = rl_scan_all(rl_catalog_kv(cat), NULL, 0, &ke);
    if (!it) {
        free(t);
        return kv_err(err, &ke, "scanning the store");
    }
    tag_total sum = {0};
    const uint8_t *k, *v;
    size_t kl, vl;
    int rc;
    while ((rc = kv_iter_next(it, &k, &kl, &v, &vl, &ke)) == 1) {
        tag_total *e = &t[kl ? k[0] : 0];
        e->keys++;
        e->key_bytes += kl;
        e->value_bytes += vl;
        sum.keys++;
        sum.key_bytes += kl;
        sum.value_bytes += vl;
    }
    kv_iter_free(it);
    if (rc < 0) {
        free(t);
        return kv_err(err, &ke, "scanning the store");
    }
    if (json)
        stats_json(out, store, t, &sum);
    else
        stats_table(out, t, &sum);
    free(t);
    return 0;
}
