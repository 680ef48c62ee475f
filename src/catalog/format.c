/*
 * format.c — table shapes per DuckLake format within a transaction, and a
 * row's value bytes in that shape.
 *
 * Owns: the format a transaction sees (rl_txn_format; changing it is
 * relations.c's, as it must look at the registered tables), the columns of
 * a table (rl_txn_table_ncols), encoding the non-key columns of a row and
 * decoding key + value into a row.
 *
 * Invariants: a fixed table's value holds exactly the value columns of
 * table_format(t, d); the decoded-columns cache (vc_desc) is reset on any
 * change of shape.
 */
#include "catalog/catalog_int.h"

#include <assert.h>
#include <stdio.h>

#include "keys/keys.h"
#include "keys/tags.h"

/* Encode the non-key columns of `row` as d's value. */
int cat_encode_value(rl_txn *t, const rl_table_desc *d, const rl_datum *row, rl_buf *out,
                        rl_error *err)
{
    rl_type types[RL_MAX_COLUMNS];
    int cols[RL_MAX_COLUMNS];
    rl_datum vals[RL_MAX_COLUMNS];
    size_t n;
    if (d->tag == RL_TAG_DYNAMIC_ROW) {
        n = d->ncols_max;
        for (size_t i = 0; i < n; i++) {
            types[i] = d->cols[i].type;
            vals[i] = row[i];
        }
    } else {
        n = rl_desc_value_columns(d, table_format(t, d), types, cols);
        for (size_t i = 0; i < n; i++)
            vals[i] = row[cols[i]];
    }
    rl_codec_status st = rl_row_encode(out, d->tag, n, types, vals);
    if (st == RL_CODEC_ERR_TOO_LARGE)
        return rl_error_set(err, RL_SQLSTATE_PROGRAM_LIMIT_EXCEEDED, "row of relation \"%s\" is too large", d->name);
    if (st != RL_CODEC_OK || out->failed)
        return rl_error_set(err, RL_SQLSTATE_INTERNAL, "cannot encode row of relation \"%s\"",
                            d->name);
    return 0;
}

/* Decode key + value into *row (strings borrow from key arena and `val`). */
int cat_decode_row(rl_txn *t, const rl_table_desc *d, const uint8_t *key, size_t klen,
                      const uint8_t *val, size_t vlen, rl_row *row, rl_buf *arena, rl_error *err)
{
    row->d = d;
    row->ncols = txn_ncols(t, d);
    row->key = key;
    row->klen = klen;
    row->seq = 0;
    for (size_t i = 0; i < row->ncols; i++)
        row->vals[i].isnull = true;
    rl_buf_reset(arena);
    if (rl_key_decode_row(key, klen, d, row->vals, &row->seq, arena) != RL_KEY_OK)
        return rl_error_set(err, RL_SQLSTATE_DATA_CORRUPTED, "malformed key in relation \"%s\"",
                            d->name);
    rl_datum vals[RL_MAX_COLUMNS];
    if (t->vc_desc != d) { /* descriptors live as long as the catalog */
        if (d->tag == RL_TAG_DYNAMIC_ROW) {
            t->vc_n = d->ncols_max;
            for (size_t i = 0; i < t->vc_n; i++) {
                t->vc_types[i] = d->cols[i].type;
                t->vc_cols[i] = (int)i;
            }
        } else {
            t->vc_n = rl_desc_value_columns(d, table_format(t, d), t->vc_types, t->vc_cols);
        }
        t->vc_desc = d;
    }
    size_t n = t->vc_n;
    const rl_type *types = t->vc_types;
    const int *cols = t->vc_cols;
    char msg[200];
    rl_codec_status st = rl_row_decode(val, vlen, d->tag, n, types, NULL, vals, msg, sizeof msg);
    if (st != RL_CODEC_OK)
        return rl_error_set(err, RL_SQLSTATE_DATA_CORRUPTED,
                            "cannot decode a row of relation \"%s\": %s", d->name, msg);
    for (size_t i = 0; i < n; i++)
        row->vals[cols[i]] = vals[i];
    return 0;
}

rl_format rl_txn_format(const rl_txn *t) { return t->fmt; }

size_t rl_txn_table_ncols(const rl_txn *t, const rl_table_desc *d)
{
    if (d->tag == RL_TAG_DYNAMIC_ROW)
        return d->ncols_max;
    return rl_desc_ncols(d, table_format(t, d));
}
