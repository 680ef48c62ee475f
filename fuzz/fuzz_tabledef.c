// fuzz-sources: src/catalog/tabledef.c src/keys/keys.c src/keys/desc.c src/keys/codec.c src/pgtype/pgtype.c src/pgtype/tzif.c src/base/buf.c src/base/error.c src/base/utf8.c
/*
 * fuzz_tabledef.c — libFuzzer target for the byte forms of table
 * definitions (src/catalog/tabledef.c): name index values (rl_name_entry)
 * and the extended fixed-table descriptors they declare, and dynamic
 * tables' definition rows.
 *
 * and index definitions (rl_index_def, the value of 0x80 05), FOREIGN KEY
 * definitions (rl_fkey_def, the value of 0x80 08), and CHECK / column
 * DEFAULT definitions (rl_check_def, the value of 0x80 0A and 0B).
 *
 * Input layout: byte 0 = mode (mod 6 = 0: the rest is a name index value;
 * 1: a dynamic definition row value; 2: an index definition; 3: a FOREIGN
 * KEY definition; 4: a CHECK / DEFAULT definition; 5: a sequence
 * definition, the value of 0x80 0C); everything after it is the value.
 *
 * Properties checked (abort on violation):
 *  - decoding never crashes or reads out of bounds (ASan);
 *  - a decoded name entry is one kind: a fixed tag (non-zero), or a
 *    dynamic id (8-byte value with a zero first byte);
 *  - an extension that builds a descriptor keeps the fixed table's shape
 *    as a prefix, has no duplicate names, at most RL_MAX_COLUMNS columns,
 *    all of them in the format it names; its extension columns re-encode
 *    to bytes that decode to the same descriptor;
 *  - a dynamic definition that decodes re-encodes its columns to bytes that
 *    decode to the same columns;
 *  - an index definition that decodes (version 1, or 2 with expressions,
 *    a predicate or INCLUDE columns) names 1..RL_INDEX_MAX_KEYS columns
 *    with non-empty NUL-free names and known options, has both texts of
 *    each expression and of its predicate, and re-encodes to
 *    bytes that decode to the same definition (lengths may have come as
 *    overlong varints: found by this target; the encoder writes minimal ones);
 *  - a CHECK / DEFAULT definition that decodes has two non-empty texts
 *    that fit the buffer, attnums in 1..RL_MAX_COLUMNS, and re-encodes to
 *    bytes that decode to the same definition;
 *  - a FOREIGN KEY definition that decodes has 1..RL_INDEX_MAX_KEYS named
 *    columns, known actions, non-zero ids, and re-encodes to bytes that
 *    decode to the same definition;
 *  - a sequence definition that decodes has a known type, bounds within it,
 *    start and initial state within the bounds, a non-zero increment, a
 *    positive cache, OWNED BY both names or neither, and re-encodes to
 *    bytes that decode to the same definition.
 */
#include "catalog/catalog_int.h"
#include "keys/tags.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fail(const char *what)
{
    fprintf(stderr, "fuzz_tabledef: %s\n", what);
    abort();
}

static bool same_column(const rl_column_desc *a, const rl_column_desc *b)
{
    return strcmp(a->name, b->name) == 0 && a->type == b->type && a->not_null == b->not_null &&
           a->typmod == b->typmod && a->since == b->since;
}

static void check_extension(const uint8_t *v, size_t vl)
{
    rl_name_entry e;
    if (!rl_name_entry_decode(v, vl, &e))
        return;
    if (e.tag == 0 ? vl != 8 || v[0] != 0 || e.ext : v[0] != e.tag || (vl == 1) == (e.ext != NULL))
        fail("a name entry decoded as the wrong kind");
    if (!e.ext)
        return;
    const rl_table_desc *base = rl_desc_by_tag(e.tag);
    if (!base || base->internal)
        return;
    rl_table_desc *d = rl_fixed_desc_extend(base, e.ext_fmt, e.ext, e.ext_len);
    if (!d)
        return;
    size_t n0 = rl_desc_ncols(base, e.ext_fmt);
    if (d->ncols_max > RL_MAX_COLUMNS || d->ncols_max <= n0 ||
        rl_desc_ncols(d, e.ext_fmt) != d->ncols_max || d->tag != base->tag)
        fail("extended descriptor has the wrong shape");
    for (size_t i = 0; i < d->ncols_max; i++) {
        if (i < n0 && strcmp(d->cols[i].name, base->cols[i].name) != 0)
            fail("extended descriptor lost the fixed table's prefix");
        for (size_t j = 0; j < i; j++)
            if (strcmp(d->cols[i].name, d->cols[j].name) == 0)
                fail("extended descriptor has a duplicate column name");
    }
    rl_buf b;
    rl_buf_init(&b, 0);
    cat_encode_dyn_columns(&b, d->ncols_max - n0, d->cols + n0);
    rl_table_desc *again = b.failed ? NULL : rl_fixed_desc_extend(base, e.ext_fmt, b.data, b.len);
    if (!again || again->ncols_max != d->ncols_max)
        fail("re-encoded extension does not decode");
    for (size_t i = 0; i < d->ncols_max; i++)
        if (!same_column(&d->cols[i], &again->cols[i]))
            fail("re-encoded extension decodes to other columns");
    rl_buf_free(&b);
    rl_dynamic_desc_free(again);
    rl_dynamic_desc_free(d);
}

static void check_definition(const uint8_t *v, size_t vl)
{
    char schema[128];
    rl_table_desc *d = rl_dynamic_desc_decode(7, v, vl, schema, sizeof schema);
    if (!d)
        return;
    if (d->ncols_max > RL_MAX_COLUMNS || d->tag != RL_TAG_DYNAMIC_ROW || d->dyn_id != 7)
        fail("dynamic descriptor has the wrong shape");
    rl_buf b;
    rl_buf_init(&b, 0);
    cat_encode_dyn_columns(&b, d->ncols_max, d->cols);
    rl_reader r;
    rl_reader_init(&r, b.data, b.len);
    uint64_t n;
    if (b.failed || !rl_reader_uvarint(&r, &n) || n != d->ncols_max)
        fail("re-encoded columns lost their count");
    rl_buf_free(&b);
    rl_dynamic_desc_free(d);
}

static void check_index(const uint8_t *v, size_t vl)
{
    rl_index_def d;
    if (!rl_index_def_decode(v, vl, &d))
        return;
    if (d.ncols < 1 || d.ncols > RL_INDEX_MAX_KEYS || !d.table[0] || d.method > RL_INDEX_SPGIST)
        fail("index definition has the wrong shape");
    if (d.ncols + d.ninclude > RL_INDEX_MAX_KEYS)
        fail("index definition has too many columns");
    for (size_t i = 0; i < d.ncols + d.ninclude; i++)
        if (!d.cols[i][0] ||
            (i < d.ncols &&
             d.opts[i] & ~(RL_INDEX_COL_DESC | RL_INDEX_COL_NULLS_FIRST | RL_INDEX_COL_EXPR)))
            fail("index definition has a bad column");
    for (size_t i = 0; i < d.ncols; i++) /* every expression has its texts */
        if ((d.opts[i] & RL_INDEX_COL_EXPR) && (!d.expr_type[i] || !rl_index_def_expr(&d, i, false)[0] ||
                                                !rl_index_def_expr(&d, i, true)[0]))
            fail("index expression without its texts");
    if (d.partial && (!rl_index_def_pred(&d, false)[0] || !rl_index_def_pred(&d, true)[0]))
        fail("partial index without its predicate");
    rl_buf b;
    rl_buf_init(&b, 0);
    rl_index_def_encode(&b, &d);
    rl_index_def again;
    if (b.failed || b.len > vl || !rl_index_def_decode(b.data, b.len, &again) ||
        memcmp(&again, &d, sizeof d) != 0)
        fail("index definition re-encodes to another definition");
    rl_buf_free(&b);
}

static bool known_action(char a)
{
    return a == RL_FKEY_NO_ACTION || a == RL_FKEY_RESTRICT || a == RL_FKEY_CASCADE ||
           a == RL_FKEY_SET_NULL || a == RL_FKEY_SET_DEFAULT;
}

static void check_fkey(const uint8_t *v, size_t vl)
{
    rl_fkey_def d;
    if (!rl_fkey_def_decode(v, vl, &d))
        return;
    if (d.ncols < 1 || d.ncols > RL_INDEX_MAX_KEYS || !d.id || !d.ref_index_id ||
        !known_action(d.on_update) || !known_action(d.on_delete))
        fail("foreign key definition has the wrong shape");
    for (size_t i = 0; i < d.ncols; i++)
        if (!d.cols[i][0] || d.ref_pos[i] >= RL_INDEX_MAX_KEYS)
            fail("foreign key definition has a bad column");
    rl_buf b;
    rl_buf_init(&b, 0);
    rl_fkey_def_encode(&b, &d);
    rl_fkey_def again;
    if (b.failed || b.len > vl || !rl_fkey_def_decode(b.data, b.len, &again) ||
        memcmp(&again, &d, sizeof d) != 0)
        fail("foreign key definition re-encodes to another definition");
    rl_buf_free(&b);
}

static void check_expr_def(const uint8_t *v, size_t vl)
{
    static char texts[RL_CHECK_TEXT_MAX], again_texts[RL_CHECK_TEXT_MAX];
    rl_check_def d = {.table = "t"};
    if (!rl_check_def_decode(v, vl, &d, texts, sizeof texts))
        return;
    if (!d.expr[0] || !d.pretty[0] || strlen(d.expr) + strlen(d.pretty) + 2 > sizeof texts ||
        d.nconkey > RL_MAX_COLUMNS)
        fail("expression definition has the wrong shape");
    for (size_t i = 0; i < d.nconkey; i++)
        if (d.conkey[i] < 1 || d.conkey[i] > RL_MAX_COLUMNS)
            fail("expression definition has a bad attnum");
    rl_buf b;
    rl_buf_init(&b, 0);
    rl_check_def_encode(&b, &d);
    rl_check_def again = {.table = "t"};
    if (b.failed || b.len > vl ||
        !rl_check_def_decode(b.data, b.len, &again, again_texts, sizeof again_texts) ||
        strcmp(again.expr, d.expr) != 0 || strcmp(again.pretty, d.pretty) != 0 ||
        again.not_valid != d.not_valid || again.no_inherit != d.no_inherit ||
        again.identity != d.identity ||
        again.nconkey != d.nconkey ||
        memcmp(again.conkey, d.conkey, d.nconkey * sizeof d.conkey[0]) != 0)
        fail("expression definition re-encodes to another definition");
    rl_buf_free(&b);
}

static void check_sequence(const uint8_t *v, size_t vl)
{
    rl_seq_def d, again;
    if (!rl_seq_def_decode(v, vl, &d))
        return;
    int64_t tmax = d.type_bytes == 2 ? INT16_MAX : d.type_bytes == 4 ? INT32_MAX : INT64_MAX;
    if ((d.type_bytes != 2 && d.type_bytes != 4 && d.type_bytes != 8) || d.increment == 0 ||
        d.cache < 1 || d.min < -tmax - 1 || d.max > tmax || d.min >= d.max ||
        d.start < d.min || d.start > d.max || d.initial < d.min || d.initial > d.max ||
        !d.owned_table[0] != !d.owned_column[0])
        fail("a sequence definition decoded out of its bounds");
    rl_buf b;
    rl_buf_init(&b, 0);
    rl_seq_def_encode(&b, &d);
    if (b.failed || !rl_seq_def_decode(b.data, b.len, &again) ||
        memcmp(&d, &again, sizeof d) != 0)
        fail("a sequence definition does not survive a re-encode");
    rl_buf_free(&b);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    switch (data[0] % 6) {
    case 0: check_extension(data + 1, size - 1); break;
    case 1: check_definition(data + 1, size - 1); break;
    case 2: check_index(data + 1, size - 1); break;
    case 3: check_fkey(data + 1, size - 1); break;
    case 4: check_expr_def(data + 1, size - 1); break;
    default: check_sequence(data + 1, size - 1); break;
    }
    return 0;
}
