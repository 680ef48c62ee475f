/*
 * keys.c — key layout (see keys.h, tags.h, docs/key-layout.md).
 *
 * Why escaped strings and not length prefixes: a length prefix would sort
 * "b" (len 1) before "aa" (len 2), breaking byte order = field order. The
 * 00 FF / 00 01 escape keeps bytewise order and stays self-delimiting.
 *
 * Why a duplicate's discriminator goes after the key fields and not into a
 * field of its own: the natural key stays the prefix of every copy, so a
 * scan by key fields (what SQL runs for DuckLake's predicates on them)
 * returns all of them, and rows that were never duplicated keep the bytes
 * they had.
 *
 * Asserted (cheap): an escaped string takes its bytes plus one per 00 byte
 * plus the 00 01 terminator; a row key's head is a row tag (never the
 * counter, system or index tag); every key column of a descriptor names a
 * column or the sequence; a live-index entry is built from a primary key
 * that starts with its tag; counter and system names are not empty.
 */
#include "keys/keys.h"

#include <assert.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "keys/tags.h"

void rl_key_put_u64(rl_buf *b, uint64_t v) { rl_buf_put_be64(b, v); }

void rl_key_put_str(rl_buf *b, const uint8_t *s, size_t len)
{
    size_t start = 0, was = b->len, zeros = 0;
    for (size_t i = 0; i < len; i++) {
        if (s[i] != 0x00)
            continue;
        rl_buf_put(b, s + start, i - start + 1); /* includes the 00 */
        rl_buf_put_u8(b, 0xFF);
        start = i + 1;
        zeros++;
    }
    rl_buf_put(b, s + start, len - start);
    rl_buf_put_u8(b, 0x00);
    rl_buf_put_u8(b, 0x01);
    assert(b->failed || b->len == was + len + zeros + 2);
    (void)was;
    (void)zeros;
}

bool rl_key_get_u64(rl_reader *r, uint64_t *v) { return rl_reader_be64(r, v); }

/* An escaped string; unescaped into `out`, or skipped when out is NULL. */
static bool get_str(rl_reader *r, rl_buf *out)
{
    for (;;) {
        uint8_t c;
        if (!rl_reader_u8(r, &c))
            return false;
        if (c != 0x00) {
            if (out)
                rl_buf_put_u8(out, c);
            continue;
        }
        uint8_t esc;
        if (!rl_reader_u8(r, &esc))
            return false;
        if (esc == 0x01)
            return !out || !out->failed;
        if (esc != 0xFF) {
            r->failed = true;
            return false;
        }
        if (out)
            rl_buf_put_u8(out, 0x00);
    }
}

bool rl_key_get_str(rl_reader *r, rl_buf *out) { return get_str(r, out); }

static rl_key_status put_field(rl_buf *b, const rl_table_desc *d, int col, const rl_datum *v)
{
    if (v->isnull)
        return RL_KEY_ERR_NULL;
    switch (d->cols[col].type) {
    case RL_T_INT8:
    case RL_T_INT4:
    case RL_T_INT2:
        if (v->v.i < 0)
            return RL_KEY_ERR_NEGATIVE;
        rl_key_put_u64(b, (uint64_t)v->v.i);
        return RL_KEY_OK;
    case RL_T_VARCHAR:
    case RL_T_BPCHAR:
    case RL_T_TEXT:
        rl_key_put_str(b, v->v.s.p, v->v.s.len);
        return RL_KEY_OK;
    default:
        return RL_KEY_ERR_TYPE;
    }
}

/* The bytes between the tag and the first key field. */
static void put_key_head(rl_buf *b, const rl_table_desc *d)
{
    assert(d->tag != RL_TAG_COUNTER && d->tag != RL_TAG_SYSTEM && d->tag != RL_TAG_INDEX);
    rl_buf_put_u8(b, d->tag);
    if (d->tag == RL_TAG_DYNAMIC_ROW)
        rl_key_put_u64(b, d->dyn_id);
}

rl_key_status rl_key_encode_row(rl_buf *b, const rl_table_desc *d, const rl_datum *row,
                                uint64_t seq, int *bad_col)
{
    put_key_head(b, d);
    for (int i = 0; i < d->nkey; i++) {
        int col = d->key[i];
        assert(col == RL_KEY_SEQ || (col >= 0 && col < d->ncols_max));
        if (col == RL_KEY_SEQ) {
            rl_key_put_u64(b, seq);
            continue;
        }
        rl_key_status st = put_field(b, d, col, &row[col]);
        if (st != RL_KEY_OK) {
            if (bad_col)
                *bad_col = col;
            return st;
        }
    }
    return RL_KEY_OK;
}

rl_key_status rl_key_encode_prefix(rl_buf *b, const rl_table_desc *d, const rl_datum *fields,
                                   size_t nfields)
{
    put_key_head(b, d);
    for (size_t i = 0; i < nfields && i < d->nkey; i++) {
        int col = d->key[i];
        if (col == RL_KEY_SEQ) {
            if (fields[i].isnull)
                return RL_KEY_ERR_NULL;
            rl_key_put_u64(b, (uint64_t)fields[i].v.i);
            continue;
        }
        rl_key_status st = put_field(b, d, col, &fields[i]);
        if (st != RL_KEY_OK)
            return st;
    }
    return RL_KEY_OK;
}

/* The key fields after the head (tag, dyn id). Fills row[col] and *seq
 * when row is non-NULL (strings appended to `arena`); only walks them when
 * row is NULL. */
static bool get_fields(rl_reader *r, const rl_table_desc *d, rl_datum *row, uint64_t *seq,
                       rl_buf *arena)
{
    for (int i = 0; i < d->nkey; i++) {
        int col = d->key[i];
        uint64_t u;
        if (col == RL_KEY_SEQ) {
            if (!rl_key_get_u64(r, &u))
                return false;
            if (row && seq)
                *seq = u;
            continue;
        }
        if (d->cols[col].type == RL_T_VARCHAR || d->cols[col].type == RL_T_TEXT ||
            d->cols[col].type == RL_T_BPCHAR) {
            size_t at = arena ? arena->len : 0;
            if (!get_str(r, row ? arena : NULL))
                return false;
            if (row) {
                row[col].isnull = false;
                row[col].v.s.p = arena->data + at;
                row[col].v.s.len = arena->len - at;
            }
        } else {
            if (!rl_key_get_u64(r, &u) || u > INT64_MAX)
                return false;
            if (row) {
                row[col].isnull = false;
                row[col].v.i = (int64_t)u;
            }
        }
    }
    return true;
}

/* Reads the head of a key of d. */
static bool get_head(rl_reader *r, const rl_table_desc *d)
{
    uint8_t tag;
    if (!rl_reader_u8(r, &tag) || tag != d->tag)
        return false;
    uint64_t dyn;
    return d->tag != RL_TAG_DYNAMIC_ROW || (rl_key_get_u64(r, &dyn) && dyn == d->dyn_id);
}

/* What may follow the key fields: nothing, or a discriminator where the
 * table keeps duplicates. Anything else is not a key. */
static bool tail_ok(const rl_table_desc *d, size_t left)
{
    return left == 0 || (left == RL_KEY_DUP_LEN && rl_desc_keeps_duplicates(d));
}

rl_key_status rl_key_decode_row(const uint8_t *key, size_t klen, const rl_table_desc *d,
                                rl_datum *row, uint64_t *seq, rl_buf *arena)
{
    rl_reader r;
    rl_reader_init(&r, key, klen);
    if (!get_head(&r, d))
        return RL_KEY_ERR_CORRUPT;
    /* Unescaped strings are never longer than the key, so reserving klen
     * up front means the arena does not move while datums point into it. */
    if (!rl_buf_reserve(arena, klen))
        return RL_KEY_ERR_CORRUPT;
    if (!get_fields(&r, d, row, seq, arena))
        return RL_KEY_ERR_CORRUPT;
    return tail_ok(d, rl_reader_left(&r)) ? RL_KEY_OK : RL_KEY_ERR_CORRUPT;
}

void rl_key_put_dup(rl_buf *b, uint64_t dup) { rl_key_put_u64(b, dup); }

int rl_key_split_dup(const uint8_t *key, size_t klen, const rl_table_desc *d,
                     size_t *natural_len, uint64_t *dup)
{
    rl_reader r;
    rl_reader_init(&r, key, klen);
    if (!get_head(&r, d) || !get_fields(&r, d, NULL, NULL, NULL))
        return -1;
    size_t left = rl_reader_left(&r);
    if (!tail_ok(d, left))
        return -1;
    *natural_len = klen - left;
    if (left == 0)
        return 0;
    if (dup)
        *dup = rl_load_be64(key + klen - left);
    return 1;
}

void rl_key_counter(rl_buf *b, const char *name)
{
    assert(name && *name);
    rl_buf_put_u8(b, RL_TAG_COUNTER);
    rl_buf_put_str(b, name);
}

void rl_counter_rowseq_name(const rl_table_desc *d, char *out, size_t n)
{
    if (d->tag == RL_TAG_DYNAMIC_ROW)
        snprintf(out, n, "%sfd:%" PRIu64, RL_COUNTER_ROWSEQ_PREFIX, d->dyn_id);
    else
        snprintf(out, n, "%s%02x", RL_COUNTER_ROWSEQ_PREFIX, d->tag);
}

void rl_key_system(rl_buf *b, const char *name)
{
    assert(name && *name);
    rl_buf_put_u8(b, RL_TAG_SYSTEM);
    rl_buf_put_str(b, name);
}

size_t rl_key_system_to(uint8_t *out, size_t cap, const char *name)
{
    assert(name && *name);
    size_t n = strlen(name);
    if (n + 1 > cap)
        return 0;
    out[0] = RL_TAG_SYSTEM;
    memcpy(out + 1, name, n);
    return n + 1;
}

bool rl_key_is_system(const uint8_t *k, size_t kl, const char *name)
{
    return kl == strlen(name) + 1 && k[0] == RL_TAG_SYSTEM && memcmp(k + 1, name, kl - 1) == 0;
}

void rl_key_dynamic_table(rl_buf *b, uint64_t id)
{
    rl_buf_put_u8(b, RL_TAG_DYNAMIC_TABLE);
    rl_key_put_u64(b, id);
}

size_t rl_key_index_prefix(uint8_t out[RL_KEY_INDEX_PREFIX_LEN], uint8_t kind)
{
    out[0] = RL_TAG_INDEX;
    out[1] = kind;
    return RL_KEY_INDEX_PREFIX_LEN;
}

void rl_key_schema(rl_buf *b, const char *schema)
{
    uint8_t p[RL_KEY_INDEX_PREFIX_LEN];
    rl_buf_put(b, p, rl_key_index_prefix(p, RL_INDEX_SCHEMA));
    rl_key_put_str(b, (const uint8_t *)schema, strlen(schema));
}

void rl_key_live_index(rl_buf *b, uint8_t tag, const uint8_t *pkey, size_t pklen)
{
    assert(pklen >= 1 && pkey[0] == tag);
    rl_buf_put_u8(b, RL_TAG_INDEX);
    rl_buf_put_u8(b, RL_INDEX_LIVE);
    rl_buf_put_u8(b, tag);
    if (pklen > 1)
        rl_buf_put(b, pkey + 1, pklen - 1); /* the primary key without its tag */
}

void rl_key_pk_index(rl_buf *b, uint8_t tag, uint64_t id)
{
    rl_buf_put_u8(b, RL_TAG_INDEX);
    rl_buf_put_u8(b, RL_INDEX_PK);
    rl_buf_put_u8(b, tag);
    rl_key_put_u64(b, id);
}

rl_key_status rl_key_pk_index_value(rl_buf *b, const rl_table_desc *d, const rl_datum *row)
{
    for (int i = 0; i < d->nkey; i++) {
        int col = d->key[i];
        if (col == d->pk_col)
            continue;
        if (col == RL_KEY_SEQ || row[col].isnull)
            return RL_KEY_ERR_TYPE;
        rl_buf_put_svarint(b, row[col].v.i);
    }
    return RL_KEY_OK;
}

rl_key_status rl_key_from_pk_index(rl_buf *key, const rl_table_desc *d, uint64_t id,
                                   const uint8_t *v, size_t vl)
{
    rl_datum row[RL_MAX_COLUMNS];
    memset(row, 0, sizeof row);
    rl_reader r;
    rl_reader_init(&r, v, vl);
    for (int i = 0; i < d->nkey; i++) {
        int col = d->key[i];
        if (col == RL_KEY_SEQ)
            return RL_KEY_ERR_CORRUPT;
        if (col == d->pk_col) {
            row[col].v.i = (int64_t)id;
            continue;
        }
        if (!rl_reader_svarint(&r, &row[col].v.i))
            return RL_KEY_ERR_CORRUPT;
    }
    if (rl_reader_left(&r))
        return RL_KEY_ERR_CORRUPT;
    return rl_key_encode_row(key, d, row, 0, NULL);
}

void rl_key_dynamic_name(rl_buf *b, const char *schema, const char *name)
{
    rl_buf_put_u8(b, RL_TAG_INDEX);
    rl_buf_put_u8(b, RL_INDEX_DYNAMIC_NAME);
    rl_key_put_str(b, (const uint8_t *)schema, strlen(schema));
    rl_key_put_str(b, (const uint8_t *)name, strlen(name));
}

void rl_key_sql_index(rl_buf *b, const char *schema, const char *name)
{
    rl_buf_put_u8(b, RL_TAG_INDEX);
    rl_buf_put_u8(b, RL_INDEX_SQL_INDEX);
    rl_key_put_str(b, (const uint8_t *)schema, strlen(schema));
    rl_key_put_str(b, (const uint8_t *)name, strlen(name));
}

void rl_key_comment_prefix(rl_buf *b, const char *schema, const char *relation)
{
    rl_buf_put_u8(b, RL_TAG_INDEX);
    rl_buf_put_u8(b, RL_INDEX_COMMENT);
    rl_key_put_str(b, (const uint8_t *)schema, strlen(schema));
    if (relation)
        rl_key_put_str(b, (const uint8_t *)relation, strlen(relation));
}

void rl_key_comment(rl_buf *b, const char *schema, const char *relation, const char *column)
{
    rl_key_comment_prefix(b, schema, relation);
    rl_key_put_str(b, (const uint8_t *)column, strlen(column));
}

/* A constraint's key of index `kind` (0x80 kind schema table name), or
 * the prefix of a table's (name NULL), a schema's (table NULL too) or,
 * schema NULL, of them all. */
static void constraint_key(rl_buf *b, uint8_t kind, const char *schema, const char *table,
                           const char *name)
{
    rl_buf_put_u8(b, RL_TAG_INDEX);
    rl_buf_put_u8(b, kind);
    const char *parts[] = {schema, table, name};
    for (size_t i = 0; i < 3 && parts[i]; i++)
        rl_key_put_str(b, (const uint8_t *)parts[i], strlen(parts[i]));
}

void rl_key_check_prefix(rl_buf *b, const char *schema, const char *table)
{
    constraint_key(b, RL_INDEX_CHECK, schema, table, NULL);
}

void rl_key_check(rl_buf *b, const char *schema, const char *table, const char *name)
{
    constraint_key(b, RL_INDEX_CHECK, schema, table, name);
}

void rl_key_default_prefix(rl_buf *b, const char *schema, const char *table)
{
    constraint_key(b, RL_INDEX_DEFAULT, schema, table, NULL);
}

void rl_key_default(rl_buf *b, const char *schema, const char *table, const char *column)
{
    constraint_key(b, RL_INDEX_DEFAULT, schema, table, column);
}

void rl_key_sequence(rl_buf *b, const char *schema, const char *name)
{
    rl_buf_put_u8(b, RL_TAG_INDEX);
    rl_buf_put_u8(b, RL_INDEX_SEQUENCE);
    if (schema)
        rl_key_put_str(b, (const uint8_t *)schema, strlen(schema));
    if (schema && name)
        rl_key_put_str(b, (const uint8_t *)name, strlen(name));
}

void rl_key_sequence_state(rl_buf *b, uint64_t id)
{
    uint8_t p[RL_KEY_INDEX_PREFIX_LEN];
    rl_buf_put(b, p, rl_key_index_prefix(p, RL_INDEX_SEQUENCE_STATE));
    rl_buf_put_be64(b, id);
}

void rl_key_unique_index(rl_buf *b, uint64_t id)
{
    uint8_t p[RL_KEY_INDEX_PREFIX_LEN];
    rl_buf_put(b, p, rl_key_index_prefix(p, RL_INDEX_UNIQUE));
    rl_buf_put_be64(b, id);
}

void rl_key_fkey_prefix(rl_buf *b, const char *schema, const char *table)
{
    constraint_key(b, RL_INDEX_FKEY, schema, table, NULL);
}

void rl_key_fkey(rl_buf *b, const char *schema, const char *table, const char *name)
{
    constraint_key(b, RL_INDEX_FKEY, schema, table, name);
}

void rl_key_fkey_entries(rl_buf *b, uint64_t id)
{
    uint8_t p[RL_KEY_INDEX_PREFIX_LEN];
    rl_buf_put(b, p, rl_key_index_prefix(p, RL_INDEX_FKEY_ENTRY));
    rl_buf_put_be64(b, id);
}

void rl_key_hex(rl_buf *b, const uint8_t *key, size_t klen)
{
    for (size_t i = 0; i < klen; i++)
        rl_buf_printf(b, i ? " %02x" : "%02x", key[i]);
}

/* Appends printable text, escaping anything else as \xNN. */
static void put_printable(rl_buf *b, const uint8_t *s, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (s[i] >= 0x20 && s[i] < 0x7f && s[i] != '\\')
            rl_buf_put_u8(b, s[i]);
        else
            rl_buf_printf(b, "\\x%02x", s[i]);
    }
}

/* "name=value" for each key field of a primary key of `d`. */
static bool describe_fields(rl_buf *b, const rl_table_desc *d, const uint8_t *key, size_t klen)
{
    rl_datum row[RL_MAX_COLUMNS];
    uint64_t seq = 0;
    rl_buf arena;
    rl_buf_init(&arena, 0);
    memset(row, 0, sizeof row);
    bool ok = rl_key_decode_row(key, klen, d, row, &seq, &arena) == RL_KEY_OK;
    size_t natural_len;
    uint64_t dup = 0;
    bool has_dup = ok && rl_key_split_dup(key, klen, d, &natural_len, &dup) == 1;
    if (ok) {
        if (d->tag == RL_TAG_DYNAMIC_ROW)
            rl_buf_printf(b, " dyn_id=%" PRIu64, d->dyn_id);
        for (int i = 0; i < d->nkey; i++) {
            int col = d->key[i];
            if (col == RL_KEY_SEQ) {
                rl_buf_printf(b, " seq=%" PRIu64, seq);
            } else if (d->cols[col].type == RL_T_INT8) {
                rl_buf_printf(b, " %s=%" PRId64, d->cols[col].name, row[col].v.i);
            } else {
                rl_buf_printf(b, " %s='", d->cols[col].name);
                put_printable(b, row[col].v.s.p, row[col].v.s.len);
                rl_buf_put_u8(b, '\'');
            }
        }
        if (has_dup)
            rl_buf_printf(b, " dup=%" PRIu64, dup);
    }
    rl_buf_free(&arena);
    return ok;
}

/* "index <what>" and the n (at most 3) strings of an index key after its
 * kind, each as label='value' ('value' alone for a NULL label), or
 * "index <what> (malformed)" unless the key holds exactly those strings. */
static void describe_strings(rl_buf *b, const uint8_t *key, size_t klen, const char *what,
                             const char *const *labels, size_t n)
{
    assert(n >= 1 && n <= 3 && klen >= 2);
    rl_reader r;
    rl_reader_init(&r, key + 2, klen - 2);
    rl_buf part[3];
    bool ok = true;
    for (size_t i = 0; i < n; i++) {
        rl_buf_init(&part[i], 0);
        ok = ok && rl_key_get_str(&r, &part[i]);
    }
    if (ok && !rl_reader_left(&r)) {
        rl_buf_printf(b, "index %s", what);
        for (size_t i = 0; i < n; i++) {
            if (labels[i])
                rl_buf_printf(b, " %s='", labels[i]);
            else
                rl_buf_put_str(b, " '");
            put_printable(b, part[i].data, part[i].len);
            rl_buf_put_u8(b, '\'');
        }
    } else {
        rl_buf_printf(b, "index %s (malformed)", what);
    }
    for (size_t i = 0; i < n; i++)
        rl_buf_free(&part[i]);
}

static void describe_index(rl_buf *b, const uint8_t *key, size_t klen)
{
    if (klen < 2) {
        rl_buf_put_str(b, "index (malformed)");
        return;
    }
    uint8_t kind = key[1];
    static const char *const schema_labels[] = {NULL};
    static const char *const name_labels[] = {"schema", "name"};
    static const char *const comment_labels[] = {"schema", "relation", "column"};
    static const char *const check_labels[] = {"schema", "table", "name"};
    if (kind == RL_INDEX_SCHEMA) {
        describe_strings(b, key, klen, "schema", schema_labels, 1);
        return;
    }
    if (kind == RL_INDEX_DYNAMIC_NAME || kind == RL_INDEX_SQL_INDEX) {
        describe_strings(b, key, klen, kind == RL_INDEX_SQL_INDEX ? "sql-index" : "table-name",
                         name_labels, 2);
        return;
    }
    if (kind == RL_INDEX_COMMENT) {
        describe_strings(b, key, klen, "comment", comment_labels, 3);
        return;
    }
    if (kind == RL_INDEX_SEQUENCE) {
        describe_strings(b, key, klen, "sequence", name_labels, 2);
        return;
    }
    if (kind == RL_INDEX_SEQUENCE_STATE && klen == 10) {
        rl_buf_printf(b, "sequence-state %llu", (unsigned long long)rl_load_be64(key + 2));
        return;
    }
    if (kind == RL_INDEX_FKEY) {
        static const char *const fkey_labels[] = {"schema", "table", "name"};
        describe_strings(b, key, klen, "foreign-key", fkey_labels, 3);
        return;
    }
    if (kind == RL_INDEX_FKEY_ENTRY && klen > RL_KEY_FKEY_PREFIX_LEN) {
        rl_buf_printf(b, "foreign-key-entry %llu (%zu bytes of key values and row key)",
                      (unsigned long long)rl_load_be64(key + 2), klen - RL_KEY_FKEY_PREFIX_LEN);
        return;
    }
    if (kind == RL_INDEX_CHECK) {
        describe_strings(b, key, klen, "check", check_labels, 3);
        return;
    }
    if (kind == RL_INDEX_DEFAULT) {
        static const char *const default_labels[] = {"schema", "table", "column"};
        describe_strings(b, key, klen, "default", default_labels, 3);
        return;
    }
    if (kind == RL_INDEX_UNIQUE && klen > RL_KEY_UNIQUE_PREFIX_LEN) {
        rl_buf_printf(b, "unique-entry index %llu (%zu bytes of key values)",
                      (unsigned long long)rl_load_be64(key + 2), klen - RL_KEY_UNIQUE_PREFIX_LEN);
        return;
    }
    const rl_table_desc *d = klen >= 3 ? rl_desc_by_tag(key[2]) : NULL;
    if (kind == RL_INDEX_LIVE && d) {
        rl_buf_printf(b, "index live %s", d->name);
        if (!describe_fields(b, d, key + 2, klen - 2))
            rl_buf_put_str(b, " (malformed)");
        return;
    }
    /* pk_col < 0 (a table without a PK): no column to name, and indexing
     * cols[-1] would read outside the descriptor — found by test_keys. */
    if (kind == RL_INDEX_PK && d && d->pk_col >= 0 && klen == 11) {
        rl_buf_printf(b, "index pk %s %s=%" PRIu64, d->name, d->cols[d->pk_col].name,
                      rl_load_be64(key + 3));
        return;
    }
    rl_buf_printf(b, "index kind 0x%02x (unknown or malformed)", kind);
}

void rl_key_describe(rl_buf *b, const uint8_t *key, size_t klen)
{
    if (klen == 0) {
        rl_buf_put_str(b, "(empty key)");
        return;
    }
    uint8_t tag = key[0];
    if (tag == RL_TAG_COUNTER || tag == RL_TAG_SYSTEM) {
        rl_buf_put_str(b, tag == RL_TAG_COUNTER ? "counter " : "system ");
        put_printable(b, key + 1, klen - 1);
        return;
    }
    if (tag == RL_TAG_INDEX) {
        describe_index(b, key, klen);
        return;
    }
    if (tag == RL_TAG_DYNAMIC_ROW) {
        if (klen != 17) {
            rl_buf_put_str(b, "dynamic row (malformed)");
            return;
        }
        rl_buf_printf(b, "dynamic row dyn_id=%" PRIu64 " seq=%" PRIu64, rl_load_be64(key + 1),
                      rl_load_be64(key + 9));
        return;
    }
    const rl_table_desc *d = rl_desc_by_tag(tag);
    if (!d) {
        rl_buf_printf(b, "unknown tag 0x%02x", tag);
        return;
    }
    rl_buf_put_str(b, d->name);
    if (!describe_fields(b, d, key, klen))
        rl_buf_put_str(b, " (malformed key)");
}
