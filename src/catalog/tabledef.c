/*
 * tabledef.c — the byte forms of table definitions, and the descriptors
 * built from them; pure functions (no store, no catalog state), so tools and
 * the fuzz target decode them as the catalog does.
 *
 * Owns: a dynamic table's column list (cat_encode_dyn_columns; uvarint n,
 * then per column uvarint name length, name, u8 type, u8 flags: bit 0 NOT
 * NULL, bit 1 a zigzag-varint typmod follows) and its definition row
 * (rl_dynamic_desc_decode); the value of a name index entry (rl_name_entry);
 * a DuckLake fixed table extended with columns of a client's own
 * (rl_fixed_desc_extend); an index definition (rl_index_def_encode/decode,
 * the value of 0x80 05: version 1, or 2 with expressions, a predicate and
 * INCLUDE columns, their texts kept in rl_index_def.text) and its columns'
 * names (rl_index_column_names); the
 * key of a row's entry in a UNIQUE index (rl_unique_entry_key, 0x80 07); a
 * CHECK constraint's or column DEFAULT's definition (rl_check_def_encode /
 * decode, the value of 0x80 0A and 0B);
 * a sequence's definition (rl_seq_def_encode/decode, the value of 0x80 0C:
 * u8 version, u8 flags (cycle, initial is_called, OWNED BY), u8 type bytes,
 * be64 state id, zigzag varints start, increment, min, max, cache, initial
 * value, then with OWNED BY the table's and the column's names).
 *
 * Invariants: a descriptor built here owns its name and every column name
 * (rl_dynamic_desc_free frees exactly ncols_max of them); an extended
 * descriptor is the fixed one in its format's shape with the extension
 * columns appended (since = that format), never with a duplicate name or
 * more than RL_MAX_COLUMNS columns; an index definition is written as
 * version 1 unless it needs version 2, and a version 2 value that needs
 * none of it does not decode (one form per definition); its text holds
 * exactly one plain and pretty pair per expression, then the predicate's.
 */
#include "catalog/catalog_int.h"

#include "base/utf8.h"

#include <assert.h>
#include <stdio.h>

#include "keys/keys.h"
#include "keys/tags.h"
#include "pgtype/pgtype.h"

/* --------------------------------------------------------- dynamic tables */

/* Column list of a dynamic table as stored in its definition row:
 * uvarint n, then per column uvarint name length, name, u8 type, u8 flags
 * (bit 0 NOT NULL, bit 1 a zigzag-varint typmod follows). */
#define DYN_COL_NOT_NULL 0x01
#define DYN_COL_TYPMOD 0x02

void cat_encode_dyn_columns(rl_buf *b, size_t ncols, const rl_column_desc *cols)
{
    rl_buf_put_uvarint(b, ncols);
    for (size_t i = 0; i < ncols; i++) {
        rl_buf_put_uvarint(b, strlen(cols[i].name));
        rl_buf_put_str(b, cols[i].name);
        rl_buf_put_u8(b, (uint8_t)cols[i].type);
        uint8_t flags = (cols[i].not_null ? DYN_COL_NOT_NULL : 0) |
                        (cols[i].typmod > 0 ? DYN_COL_TYPMOD : 0);
        rl_buf_put_u8(b, flags);
        if (flags & DYN_COL_TYPMOD)
            rl_buf_put_svarint(b, cols[i].typmod);
    }
}

void rl_dynamic_desc_free(rl_table_desc *d)
{
    if (!d)
        return;
    for (size_t i = 0; i < d->ncols_max; i++)
        free((char *)d->cols[i].name);
    free((rl_column_desc *)d->cols);
    free((char *)d->name);
    free(d);
}

/* A descriptor named `name` with room for ncols zeroed columns (d->cols),
 * everything else zero; NULL when out of memory. */
static rl_table_desc *desc_alloc(const char *name, size_t ncols)
{
    rl_table_desc *d = calloc(1, sizeof *d);
    rl_column_desc *cols = calloc(ncols ? ncols : 1, sizeof *cols);
    char *nm = strdup(name);
    if (!d || !cols || !nm) {
        free(d);
        free(cols);
        free(nm);
        return NULL;
    }
    d->name = nm;
    d->cols = cols;
    return d;
}

rl_table_desc *cat_dyn_desc_new(uint64_t id, const char *name, size_t ncols)
{
    if (ncols > RL_MAX_COLUMNS)
        return NULL;
    rl_table_desc *d = desc_alloc(name, ncols);
    if (!d)
        return NULL;
    d->tag = RL_TAG_DYNAMIC_ROW;
    d->since = RL_FMT_1_0;
    d->ncols_max = (uint8_t)ncols;
    d->nkey = 1;
    d->key[0] = RL_KEY_SEQ;
    d->begin_col = d->end_col = d->pk_col = -1;
    d->counter_col = -1;
    d->dyn_id = id;
    return d;
}

/* `ncols` columns as cat_encode_dyn_columns wrote them into cols[]; *filled
 * counts those whose name was allocated (to free on failure). */
static bool decode_columns(rl_reader *r, rl_column_desc *cols, size_t ncols, size_t *filled)
{
    for (size_t i = 0; i < ncols; i++) {
        uint64_t len;
        const uint8_t *p;
        uint8_t type, nn;
        if (!rl_reader_uvarint(r, &len) || len > 1024 || !rl_reader_bytes(r, len, &p) ||
            !rl_reader_u8(r, &type) || !rl_reader_u8(r, &nn) || type == 0 ||
            type >= RL_T_MAX_ || !(cols[i].name = strndup((const char *)p, len)))
            return false;
        *filled = i + 1;
        int64_t typmod = 0;
        if (nn & ~(DYN_COL_NOT_NULL | DYN_COL_TYPMOD) ||
            ((nn & DYN_COL_TYPMOD) &&
             (!rl_reader_svarint(r, &typmod) || typmod <= 0 || typmod > INT32_MAX)))
            return false;
        cols[i].type = (rl_type)type;
        cols[i].not_null = (nn & DYN_COL_NOT_NULL) != 0;
        cols[i].since = RL_FMT_1_0;
        cols[i].typmod = (int32_t)typmod;
    }
    return true;
}

rl_table_desc *rl_dynamic_desc_decode(uint64_t dyn_id, const uint8_t *val, size_t vlen,
                                      char *schema_out, size_t schema_n)
{
    rl_type types[RL_MAX_COLUMNS];
    rl_datum vals[RL_MAX_COLUMNS];
    size_t n = rl_desc_value_columns(&rl_desc_dynamic_table, RL_FMT_LATEST, types, NULL);
    if (rl_row_decode(val, vlen, RL_TAG_DYNAMIC_TABLE, n, types, NULL, vals, NULL, 0) !=
        RL_CODEC_OK)
        return NULL;
    /* value columns: schema_name, table_name, columns */
    if (vals[0].isnull || vals[1].isnull || vals[2].isnull)
        return NULL;
    if (schema_out)
        snprintf(schema_out, schema_n, "%.*s", (int)vals[0].v.s.len, (const char *)vals[0].v.s.p);
    char name[256];
    snprintf(name, sizeof name, "%.*s", (int)vals[1].v.s.len, (const char *)vals[1].v.s.p);
    rl_reader r;
    rl_reader_init(&r, vals[2].v.s.p, vals[2].v.s.len);
    uint64_t ncols;
    if (!rl_reader_uvarint(&r, &ncols) || ncols > RL_MAX_COLUMNS)
        return NULL;
    rl_table_desc *d = cat_dyn_desc_new(dyn_id, name, (size_t)ncols);
    if (!d)
        return NULL;
    size_t filled = 0;
    if (!decode_columns(&r, (rl_column_desc *)d->cols, (size_t)ncols, &filled)) {
        d->ncols_max = (uint8_t)filled; /* free only what was filled */
        rl_dynamic_desc_free(d);
        return NULL;
    }
    return d;
}

/* ------------------------------------------------ extended fixed tables */

rl_table_desc *rl_fixed_desc_extend(const rl_table_desc *base, rl_format fmt,
                                    const uint8_t *colbytes, size_t len)
{
    assert(base->tag != RL_TAG_DYNAMIC_ROW && !base->internal);
    rl_reader r;
    rl_reader_init(&r, colbytes, len);
    uint64_t nx;
    size_t n0 = rl_desc_ncols(base, fmt);
    if (n0 == 0 || !rl_reader_uvarint(&r, &nx) || nx == 0 || nx > RL_MAX_COLUMNS - n0)
        return NULL;
    rl_table_desc *d = desc_alloc(base->name, n0 + (size_t)nx);
    if (!d)
        return NULL;
    const char *nm = d->name;
    rl_column_desc *cols = (rl_column_desc *)d->cols;
    *d = *base;
    d->name = nm;
    d->cols = cols;
    d->ncols_max = 0; /* what rl_dynamic_desc_free frees, as filled */
    for (size_t i = 0; i < n0; i++, d->ncols_max++) {
        cols[i] = base->cols[i];
        if (!(cols[i].name = strdup(base->cols[i].name))) {
            rl_dynamic_desc_free(d);
            return NULL;
        }
    }
    size_t filled = 0;
    bool ok = decode_columns(&r, cols + n0, (size_t)nx, &filled) && !rl_reader_left(&r);
    d->ncols_max = (uint8_t)(n0 + filled);
    for (size_t i = n0; ok && i < n0 + nx; i++) {
        cols[i].since = fmt; /* in the table's shape from the format it was made in */
        for (size_t j = 0; j < i; j++) /* a duplicate name is a corrupt entry */
            ok = ok && strcmp(cols[i].name, cols[j].name) != 0;
    }
    if (!ok) {
        rl_dynamic_desc_free(d);
        return NULL;
    }
    assert(rl_desc_ncols(d, fmt) == n0 + nx);
    return d;
}

/* ------------------------------------------------------ name index values */

void cat_name_entry_dynamic(rl_buf *b, uint64_t dyn_id)
{
    assert(dyn_id >> 56 == 0); /* the first byte tells a dynamic id from a fixed tag */
    uint8_t id[8];
    rl_store_be64(id, dyn_id);
    rl_buf_put(b, id, sizeof id);
}

void cat_name_entry_fixed(rl_buf *b, uint8_t tag, rl_format fmt, size_t nextra,
                          const rl_column_desc *extra)
{
    assert(tag != 0);
    rl_buf_put_u8(b, tag);
    if (nextra == 0)
        return;
    rl_buf_put_u8(b, (uint8_t)fmt);
    cat_encode_dyn_columns(b, nextra, extra);
}

bool rl_name_entry_decode(const uint8_t *v, size_t vl, rl_name_entry *out)
{
    memset(out, 0, sizeof *out);
    if (vl == 1 && v[0] != 0) {
        out->tag = v[0];
        return true;
    }
    if (vl == 8 && v[0] == 0) {
        out->dyn_id = rl_load_be64(v);
        return true;
    }
    if (vl >= 3 && v[0] != 0 && rl_format_parse(rl_format_name((rl_format)v[1])) == v[1]) {
        out->tag = v[0];
        out->ext_fmt = (rl_format)v[1];
        out->ext = v + 2;
        out->ext_len = vl - 2;
        return true;
    }
    return false;
}


/* ------------------------------------------------------ index definitions */

#define INDEX_DEF_VERSION 1
#define INDEX_DEF_VERSION_2 2 /* expressions, a predicate, INCLUDE columns */
#define INDEX_DEF_UNIQUE 0x01
#define INDEX_DEF_NULLS_NOT_DISTINCT 0x02
#define INDEX_DEF_CONSTRAINT 0x04
#define INDEX_DEF_PRIMARY 0x08
#define INDEX_DEF_PARTIAL 0x10

static void put_name(rl_buf *b, const char *s)
{
    rl_buf_put_uvarint(b, strlen(s));
    rl_buf_put_str(b, s);
}

/* The text pair starting at d->text[off]: its plain and pretty texts, and
 * the offset after it. */
static size_t text_pair(const rl_index_def *d, size_t off, const char **plain, const char **pretty)
{
    assert(off < d->text_len);
    *plain = d->text + off;
    off += strlen(*plain) + 1;
    assert(off < d->text_len);
    *pretty = d->text + off;
    return off + strlen(*pretty) + 1;
}

bool rl_index_def_add_text(rl_index_def *d, const char *plain, const char *pretty)
{
    size_t a = strlen(plain) + 1, b = strlen(pretty) + 1;
    if (a + b > sizeof d->text - d->text_len)
        return false;
    memcpy(d->text + d->text_len, plain, a);
    memcpy(d->text + d->text_len + a, pretty, b);
    d->text_len += a + b;
    return true;
}

/* The n-th text pair (0-based) of d. */
static const char *nth_text(const rl_index_def *d, size_t n, bool pretty)
{
    const char *plain = NULL, *pr = NULL;
    size_t off = 0;
    for (size_t i = 0; i <= n; i++)
        off = text_pair(d, off, &plain, &pr);
    return pretty ? pr : plain;
}

const char *rl_index_def_expr(const rl_index_def *d, size_t col, bool pretty)
{
    assert(col < d->ncols && (d->opts[col] & RL_INDEX_COL_EXPR));
    size_t n = 0;
    for (size_t i = 0; i < col; i++)
        n += (d->opts[i] & RL_INDEX_COL_EXPR) != 0;
    return nth_text(d, n, pretty);
}

const char *rl_index_def_pred(const rl_index_def *d, bool pretty)
{
    if (!d->partial)
        return NULL;
    size_t n = 0;
    for (size_t i = 0; i < d->ncols; i++)
        n += (d->opts[i] & RL_INDEX_COL_EXPR) != 0;
    return nth_text(d, n, pretty);
}

bool rl_index_def_names_column(const rl_index_def *d, const char *col)
{
    for (size_t i = 0; i < d->ncols + d->ninclude; i++)
        if (!(i < d->ncols && (d->opts[i] & RL_INDEX_COL_EXPR)) && strcmp(d->cols[i], col) == 0)
            return true;
    return false;
}

static bool needs_version_2(const rl_index_def *d)
{
    bool expr = false;
    for (size_t i = 0; i < d->ncols; i++)
        expr = expr || (d->opts[i] & RL_INDEX_COL_EXPR);
    return expr || d->partial || d->ninclude;
}

static void put_text(rl_buf *b, const char *s)
{
    rl_buf_put_uvarint(b, strlen(s));
    rl_buf_put_str(b, s);
}

void rl_index_def_encode(rl_buf *b, const rl_index_def *d)
{
    assert(d->ncols >= 1 && d->ncols + d->ninclude <= RL_INDEX_MAX_KEYS);
    bool v2 = needs_version_2(d);
    rl_buf_put_u8(b, v2 ? INDEX_DEF_VERSION_2 : INDEX_DEF_VERSION);
    put_name(b, d->table);
    rl_buf_put_u8(b, (uint8_t)d->method);
    assert(d->unique ? d->id != 0 && d->method == RL_INDEX_BTREE
                     : !d->nulls_not_distinct && !d->constraint);
    assert(!d->primary || d->constraint);
    rl_buf_put_u8(b, (uint8_t)((d->unique ? INDEX_DEF_UNIQUE : 0) |
                               (d->nulls_not_distinct ? INDEX_DEF_NULLS_NOT_DISTINCT : 0) |
                               (d->constraint ? INDEX_DEF_CONSTRAINT : 0) |
                               (d->primary ? INDEX_DEF_PRIMARY : 0) |
                               (d->partial ? INDEX_DEF_PARTIAL : 0)));
    if (d->unique)
        rl_buf_put_be64(b, d->id);
    rl_buf_put_uvarint(b, d->ncols);
    size_t off = 0;
    const char *plain, *pretty;
    for (size_t i = 0; i < d->ncols; i++) {
        put_name(b, d->cols[i]);
        rl_buf_put_u8(b, d->opts[i]);
        if (d->opts[i] & RL_INDEX_COL_EXPR) {
            assert(v2);
            rl_buf_put_be32(b, d->expr_type[i]);
            rl_buf_put_svarint(b, d->expr_typmod[i]);
            off = text_pair(d, off, &plain, &pretty);
            put_text(b, plain);
            put_text(b, pretty);
        }
    }
    if (!v2)
        return;
    rl_buf_put_uvarint(b, d->ninclude);
    for (size_t i = 0; i < d->ninclude; i++)
        put_name(b, d->cols[d->ncols + i]);
    if (d->partial) {
        off = text_pair(d, off, &plain, &pretty);
        put_text(b, plain);
        put_text(b, pretty);
    }
    assert(off == d->text_len);
}

/* A name of 1..63 bytes without NUL into out[RL_INDEX_NAME_MAX]. */
static bool get_name(rl_reader *r, char *out)
{
    uint64_t len;
    const uint8_t *p;
    if (!rl_reader_uvarint(r, &len) || len == 0 || len >= RL_INDEX_NAME_MAX ||
        !rl_reader_bytes(r, len, &p) || memchr(p, 0, len))
        return false;
    memcpy(out, p, len);
    out[len] = '\0';
    return true;
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

/* One text (non-empty, no NUL) into d->text, NUL-terminated. */
static bool get_index_text(rl_reader *r, rl_index_def *d)
{
    return get_text(r, d->text, sizeof d->text, &d->text_len) != NULL;
}

bool rl_index_def_decode(const uint8_t *v, size_t vl, rl_index_def *out)
{
    memset(out, 0, sizeof *out);
    rl_reader r;
    rl_reader_init(&r, v, vl);
    uint8_t version, method, flags;
    uint64_t ncols;
    if (!rl_reader_u8(&r, &version) ||
        (version != INDEX_DEF_VERSION && version != INDEX_DEF_VERSION_2) ||
        !get_name(&r, out->table) || !rl_reader_u8(&r, &method) || method > RL_INDEX_SPGIST ||
        !rl_reader_u8(&r, &flags) ||
        flags & ~(INDEX_DEF_UNIQUE | INDEX_DEF_NULLS_NOT_DISTINCT | INDEX_DEF_CONSTRAINT |
                  INDEX_DEF_PRIMARY | (version == INDEX_DEF_VERSION_2 ? INDEX_DEF_PARTIAL : 0)))
        return false;
    bool v2 = version == INDEX_DEF_VERSION_2;
    out->unique = flags & INDEX_DEF_UNIQUE;
    out->nulls_not_distinct = flags & INDEX_DEF_NULLS_NOT_DISTINCT;
    out->constraint = flags & INDEX_DEF_CONSTRAINT;
    out->primary = flags & INDEX_DEF_PRIMARY;
    out->partial = flags & INDEX_DEF_PARTIAL;
    if ((out->nulls_not_distinct || out->constraint) && !out->unique)
        return false;
    if (out->primary && (!out->constraint || out->nulls_not_distinct))
        return false;
    if (out->unique && (method != RL_INDEX_BTREE || !rl_reader_be64(&r, &out->id) || out->id == 0))
        return false;
    if (!rl_reader_uvarint(&r, &ncols) || ncols == 0 || ncols > RL_INDEX_MAX_KEYS)
        return false;
    out->method = (rl_index_method)method;
    out->ncols = (size_t)ncols;
    uint8_t allowed = RL_INDEX_COL_DESC | RL_INDEX_COL_NULLS_FIRST | (v2 ? RL_INDEX_COL_EXPR : 0);
    for (size_t i = 0; i < out->ncols; i++) {
        if (!get_name(&r, out->cols[i]) || !rl_reader_u8(&r, &out->opts[i]) ||
            out->opts[i] & ~allowed)
            return false;
        int64_t typmod = 0;
        if ((out->opts[i] & RL_INDEX_COL_EXPR) &&
            (!rl_reader_be32(&r, &out->expr_type[i]) || out->expr_type[i] == 0 ||
             !rl_reader_svarint(&r, &typmod) || typmod < -1 || typmod > INT32_MAX ||
             !get_index_text(&r, out) || !get_index_text(&r, out)))
            return false;
        out->expr_typmod[i] = (int32_t)typmod;
    }
    if (v2) {
        uint64_t ninc;
        if (!rl_reader_uvarint(&r, &ninc) || ninc > RL_INDEX_MAX_KEYS - out->ncols)
            return false;
        out->ninclude = (size_t)ninc;
        for (size_t i = 0; i < out->ninclude; i++)
            if (!get_name(&r, out->cols[out->ncols + i]))
                return false;
        if (out->partial && (!get_index_text(&r, out) || !get_index_text(&r, out)))
            return false;
        if (!needs_version_2(out)) /* the writer writes version 1 then */
            return false;
    }
    return rl_reader_left(&r) == 0;
}

void rl_index_column_names(const rl_index_def *d, char names[][RL_INDEX_NAME_MAX])
{
    assert(d->ncols + d->ninclude <= RL_INDEX_MAX_KEYS);
    for (size_t i = 0; i < d->ncols + d->ninclude; i++) {
        snprintf(names[i], RL_INDEX_NAME_MAX, "%s", d->cols[i]);
        for (int n = 1;; n++) {
            bool clash = false;
            for (size_t j = 0; j < i && !clash; j++)
                clash = strcmp(names[j], names[i]) == 0;
            if (!clash)
                break;
            char digits[16];
            int nd = snprintf(digits, sizeof digits, "%d", n);
            size_t keep = rl_utf8_clip(d->cols[i], RL_INDEX_NAME_MAX - 1 - (size_t)nd);
            snprintf(names[i], RL_INDEX_NAME_MAX, "%.*s%s", (int)keep, d->cols[i], digits);
        }
    }
}

/* ------------------------------------------------ FOREIGN KEY definitions */

/* Version 1 has flags bits 0-1; version 2 (written only for a DEFERRABLE
 * key, so a lake without one keeps version 1's bytes) adds bits 2-3;
 * version 3 (written only for a key with a text or varchar column
 * referencing a character(n) one) takes bits 0-3 and ends with the be32
 * mask of those columns (rl_fkey_def.bpchar_cols, not 0). */
#define FKEY_DEF_VERSION 1
#define FKEY_DEF_VERSION_DEFERRABLE 2
#define FKEY_DEF_VERSION_BPCHAR 3
#define FKEY_DEF_MATCH_FULL 0x01
#define FKEY_DEF_NOT_VALID 0x02
#define FKEY_DEF_DEFERRABLE 0x04
#define FKEY_DEF_INITIALLY_DEFERRED 0x08

static bool fkey_action_valid(uint8_t a)
{
    return a == RL_FKEY_NO_ACTION || a == RL_FKEY_RESTRICT || a == RL_FKEY_CASCADE ||
           a == RL_FKEY_SET_NULL || a == RL_FKEY_SET_DEFAULT;
}

void rl_fkey_def_encode(rl_buf *b, const rl_fkey_def *d)
{
    assert(d->ncols >= 1 && d->ncols <= RL_INDEX_MAX_KEYS && d->id != 0 && d->ref_index_id != 0);
    assert(fkey_action_valid((uint8_t)d->on_update) && fkey_action_valid((uint8_t)d->on_delete));
    assert(d->deferrable || !d->initially_deferred);
    assert(d->ncols == RL_INDEX_MAX_KEYS || d->bpchar_cols >> d->ncols == 0);
    rl_buf_put_u8(b, d->bpchar_cols  ? FKEY_DEF_VERSION_BPCHAR
                     : d->deferrable ? FKEY_DEF_VERSION_DEFERRABLE
                                     : FKEY_DEF_VERSION);
    rl_buf_put_u8(b, (uint8_t)((d->match_full ? FKEY_DEF_MATCH_FULL : 0) |
                               (d->not_valid ? FKEY_DEF_NOT_VALID : 0) |
                               (d->deferrable ? FKEY_DEF_DEFERRABLE : 0) |
                               (d->initially_deferred ? FKEY_DEF_INITIALLY_DEFERRED : 0)));
    rl_buf_put_u8(b, (uint8_t)d->on_update);
    rl_buf_put_u8(b, (uint8_t)d->on_delete);
    rl_buf_put_be64(b, d->ref_index_id);
    rl_buf_put_be64(b, d->id);
    rl_buf_put_uvarint(b, d->ncols);
    for (size_t i = 0; i < d->ncols; i++) {
        assert(d->ref_pos[i] < RL_INDEX_MAX_KEYS);
        put_name(b, d->cols[i]);
        rl_buf_put_u8(b, d->ref_pos[i]);
    }
    if (d->bpchar_cols)
        rl_buf_put_be32(b, d->bpchar_cols);
}

bool rl_fkey_def_decode(const uint8_t *v, size_t vl, rl_fkey_def *out)
{
    memset(out, 0, sizeof *out);
    rl_reader r;
    rl_reader_init(&r, v, vl);
    uint8_t version, flags, upd, del;
    uint64_t ncols;
    if (!rl_reader_u8(&r, &version) ||
        (version != FKEY_DEF_VERSION && version != FKEY_DEF_VERSION_DEFERRABLE &&
         version != FKEY_DEF_VERSION_BPCHAR) ||
        !rl_reader_u8(&r, &flags))
        return false;
    /* version 2 is a DEFERRABLE key's (INITIALLY DEFERRED only with it) */
    uint8_t known = FKEY_DEF_MATCH_FULL | FKEY_DEF_NOT_VALID;
    if (version == FKEY_DEF_VERSION_DEFERRABLE && !(flags & FKEY_DEF_DEFERRABLE))
        return false;
    if (version != FKEY_DEF_VERSION)
        known |= FKEY_DEF_DEFERRABLE | FKEY_DEF_INITIALLY_DEFERRED;
    if ((flags & FKEY_DEF_INITIALLY_DEFERRED) && !(flags & FKEY_DEF_DEFERRABLE))
        return false;
    if (flags & ~known || !rl_reader_u8(&r, &upd) ||
        !rl_reader_u8(&r, &del) || !fkey_action_valid(upd) || !fkey_action_valid(del) ||
        !rl_reader_be64(&r, &out->ref_index_id) || out->ref_index_id == 0 ||
        !rl_reader_be64(&r, &out->id) || out->id == 0 || !rl_reader_uvarint(&r, &ncols) ||
        ncols == 0 || ncols > RL_INDEX_MAX_KEYS)
        return false;
    out->match_full = flags & FKEY_DEF_MATCH_FULL;
    out->not_valid = flags & FKEY_DEF_NOT_VALID;
    out->deferrable = flags & FKEY_DEF_DEFERRABLE;
    out->initially_deferred = flags & FKEY_DEF_INITIALLY_DEFERRED;
    out->on_update = (char)upd;
    out->on_delete = (char)del;
    out->ncols = (size_t)ncols;
    for (size_t i = 0; i < out->ncols; i++)
        if (!get_name(&r, out->cols[i]) || !rl_reader_u8(&r, &out->ref_pos[i]) ||
            out->ref_pos[i] >= RL_INDEX_MAX_KEYS)
            return false;
    if (version == FKEY_DEF_VERSION_BPCHAR &&
        (!rl_reader_be32(&r, &out->bpchar_cols) || out->bpchar_cols == 0 ||
         (out->ncols < RL_INDEX_MAX_KEYS && out->bpchar_cols >> out->ncols != 0)))
        return false;
    return rl_reader_left(&r) == 0;
}

/* ------------------------------------------------- UNIQUE index entries */

bool rl_index_def_computed(const rl_index_def *def)
{
    if (def->partial)
        return true;
    for (size_t i = 0; i < def->ncols; i++)
        if (def->opts[i] & RL_INDEX_COL_EXPR)
            return true;
    return false;
}

int rl_unique_entry_key_of(rl_buf *key, const rl_index_def *def, const rl_type *types,
                           const rl_datum *vals)
{
    assert(def->unique && def->ncols >= 1);
    rl_buf_reset(key);
    rl_key_unique_index(key, def->id);
    rl_buf val;
    rl_buf_init(&val, 0);
    int rc = 1;
    for (size_t i = 0; i < def->ncols && rc == 1; i++) {
        if (vals[i].isnull && !def->nulls_not_distinct) {
            rc = 0; /* NULLs distinct: no entry */
            break;
        }
        if (vals[i].isnull) {
            rl_buf_put_u8(key, 0);
            continue;
        }
        rl_buf_reset(&val);
        rl_datum_equality_key(&val, types[i], &vals[i]);
        rl_buf_put_u8(key, 1);
        rl_buf_put_uvarint(key, val.len);
        rl_buf_put(key, val.data, val.len);
    }
    bool failed = key->failed || val.failed;
    rl_buf_free(&val);
    if (failed)
        return -1;
    return rc == 1 && key->len > RL_UNIQUE_ENTRY_MAX ? -2 : rc;
}

int rl_unique_entry_key(rl_buf *key, const rl_index_def *def, const rl_table_desc *d,
                        rl_format fmt, const rl_datum *row)
{
    assert(def->unique && def->ncols >= 1 && !rl_index_def_computed(def));
    rl_datum vals[RL_INDEX_MAX_KEYS];
    rl_type types[RL_INDEX_MAX_KEYS];
    for (size_t i = 0; i < def->ncols; i++) {
        int c = rl_desc_column_index(d, def->cols[i], fmt);
        if (c < 0)
            return 0; /* another shape of the table (a rebuild) */
        vals[i] = row[c];
        types[i] = d->cols[c].type;
    }
    return rl_unique_entry_key_of(key, def, types, vals);
}

/* ------------------------------------- CHECK and DEFAULT expressions */

#define CHECK_DEF_VERSION 1
#define CHECK_NOT_VALID 0x01
#define CHECK_NO_INHERIT 0x02
#define DEFAULT_IDENTITY_ALWAYS 0x04
#define DEFAULT_IDENTITY_BY_DEFAULT 0x08

void rl_check_def_encode(rl_buf *b, const rl_check_def *d)
{
    assert(d->expr && d->pretty && d->table[0] && d->nconkey <= RL_MAX_COLUMNS);
    rl_buf_put_u8(b, CHECK_DEF_VERSION);
    assert(!d->identity || d->identity == 'a' || d->identity == 'd');
    rl_buf_put_u8(b, (uint8_t)((d->not_valid ? CHECK_NOT_VALID : 0) |
                               (d->no_inherit ? CHECK_NO_INHERIT : 0) |
                               (d->identity == 'a' ? DEFAULT_IDENTITY_ALWAYS : 0) |
                               (d->identity == 'd' ? DEFAULT_IDENTITY_BY_DEFAULT : 0)));
    put_name(b, d->expr);
    put_name(b, d->pretty);
    rl_buf_put_uvarint(b, d->nconkey);
    for (size_t i = 0; i < d->nconkey; i++)
        rl_buf_put_uvarint(b, (uint64_t)d->conkey[i]);
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
        !rl_reader_u8(&r, &flags) ||
        flags & ~(CHECK_NOT_VALID | CHECK_NO_INHERIT | DEFAULT_IDENTITY_ALWAYS |
                  DEFAULT_IDENTITY_BY_DEFAULT) ||
        (flags & DEFAULT_IDENTITY_ALWAYS && flags & DEFAULT_IDENTITY_BY_DEFAULT) ||
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
    out->identity = flags & DEFAULT_IDENTITY_ALWAYS       ? 'a'
                    : flags & DEFAULT_IDENTITY_BY_DEFAULT ? 'd'
                                                          : 0;
    return rl_reader_left(&r) == 0;
}

/* ------------------------------------------------ sequence definitions */

#define SEQ_DEF_VERSION 1
#define SEQ_CYCLE 0x01
#define SEQ_INITIAL_CALLED 0x02
#define SEQ_OWNED 0x04 /* OWNED BY: the table's and the column's names follow */


void rl_seq_def_encode(rl_buf *b, const rl_seq_def *d)
{
    assert(d->type_bytes == 2 || d->type_bytes == 4 || d->type_bytes == 8);
    assert(d->increment != 0 && d->min < d->max && d->cache >= 1);
    rl_buf_put_u8(b, SEQ_DEF_VERSION);
    bool owned = d->owned_table[0] != '\0';
    assert(owned == (d->owned_column[0] != '\0'));
    rl_buf_put_u8(b, (uint8_t)((d->cycle ? SEQ_CYCLE : 0) |
                               (d->initial_called ? SEQ_INITIAL_CALLED : 0) |
                               (owned ? SEQ_OWNED : 0)));
    rl_buf_put_u8(b, d->type_bytes);
    rl_buf_put_be64(b, d->id);
    const int64_t v[] = {d->start, d->increment, d->min, d->max, d->cache, d->initial};
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++)
        rl_buf_put_svarint(b, v[i]);
    if (owned) {
        put_name(b, d->owned_table);
        put_name(b, d->owned_column);
    }
}

bool rl_seq_def_decode(const uint8_t *v, size_t vl, rl_seq_def *out)
{
    memset(out, 0, sizeof *out);
    rl_reader r;
    rl_reader_init(&r, v, vl);
    uint8_t version, flags;
    int64_t *f[] = {&out->start, &out->increment, &out->min, &out->max, &out->cache,
                    &out->initial};
    if (!rl_reader_u8(&r, &version) || version != SEQ_DEF_VERSION ||
        !rl_reader_u8(&r, &flags) || flags & ~(SEQ_CYCLE | SEQ_INITIAL_CALLED | SEQ_OWNED) ||
        !rl_reader_u8(&r, &out->type_bytes) || !rl_reader_be64(&r, &out->id))
        return false;
    for (size_t i = 0; i < sizeof f / sizeof f[0]; i++)
        if (!rl_reader_svarint(&r, f[i]))
            return false;
    if ((flags & SEQ_OWNED &&
         (!get_name(&r, out->owned_table) || !get_name(&r, out->owned_column))) ||
        rl_reader_left(&r) != 0)
        return false;
    out->cycle = flags & SEQ_CYCLE;
    out->initial_called = flags & SEQ_INITIAL_CALLED;
    if (out->type_bytes != 2 && out->type_bytes != 4 && out->type_bytes != 8)
        return false;
    int64_t tmax = out->type_bytes == 2 ? INT16_MAX : out->type_bytes == 4 ? INT32_MAX : INT64_MAX;
    /* what CREATE / ALTER SEQUENCE let through: the state stays in range */
    return out->increment != 0 && out->cache >= 1 && out->min >= -tmax - 1 &&
           out->max <= tmax && out->min < out->max && out->start >= out->min &&
           out->start <= out->max && out->initial >= out->min && out->initial <= out->max;
}
