/*
 * keys.h — encoding and decoding of RockLake keys (tag-first, big-endian,
 * fixed-width ids, parent before child, begin_snapshot last).
 *
 * Owns: the byte layout of every key (see tags.h and docs/key-layout.md).
 * Knows descriptors (desc.h) but no SQL and no store.
 *
 * Invariants (property-tested in tests/test_keys.c):
 *  - decode(encode(x)) == x for every tag;
 *  - bytewise order of keys == order of their fields (u64 numeric order,
 *    strings bytewise with a shorter prefix first);
 *  - every key of a parent starts with the parent's prefix, so one prefix
 *    scan returns exactly a parent's children.
 * Key fields must be non-NULL; integer key fields must be >= 0.
 *
 * Duplicates: a table without a PostgreSQL primary key keeps rows whose key
 * fields are equal (rl_desc_keeps_duplicates). The first is stored at its
 * natural key K (the encoded key fields), any other at K | dup, dup being an
 * 8-byte big-endian discriminator unique in the store. K is a proper prefix
 * of K | dup and natural keys are prefix-free, so K | dup sorts right after
 * K and before the next natural key: the three invariants above hold with
 * (key fields, dup) in place of the key fields, a key without dup first.
 */
#ifndef ROCKLAKE_KEYS_H
#define ROCKLAKE_KEYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "keys/codec.h"
#include "keys/desc.h"

/* Field primitives. */
void rl_key_put_u64(rl_buf *b, uint64_t v);
/* Order-preserving string: 0x00 -> 00 FF, then terminator 00 01. */
void rl_key_put_str(rl_buf *b, const uint8_t *s, size_t len);
bool rl_key_get_u64(rl_reader *r, uint64_t *v);
/* Decodes an escaped string into `out` (appended, unescaped). */
bool rl_key_get_str(rl_reader *r, rl_buf *out);

typedef enum rl_key_status {
    RL_KEY_OK = 0,
    RL_KEY_ERR_NULL = 1,      /* a key column is NULL */
    RL_KEY_ERR_NEGATIVE = 2,  /* an integer key column is < 0 */
    RL_KEY_ERR_TYPE = 3,      /* descriptor key column of unsupported type */
    RL_KEY_ERR_CORRUPT = 4    /* decode: wrong tag, truncated, trailing bytes */
} rl_key_status;

/* Primary key of a row (row has the descriptor's columns in order). For
 * tables whose key ends in a row sequence, `seq` supplies it. The returned
 * column index of a failing field goes to *bad_col (may be NULL). */
rl_key_status rl_key_encode_row(rl_buf *b, const rl_table_desc *d, const rl_datum *row,
                                uint64_t seq, int *bad_col);

/* Prefix made of the tag and the first `nfields` key fields taken from
 * `fields` (fields[i] is the value of key field i, not of column i). */
rl_key_status rl_key_encode_prefix(rl_buf *b, const rl_table_desc *d,
                                   const rl_datum *fields, size_t nfields);

/* Decode a primary key: fills row[col] for the key columns (strings are
 * copied into `arena`, which must not be reallocated while row is used:
 * call rl_key_decode_row with an arena of enough capacity, or use
 * rl_key_decode_fields). *seq gets the row sequence if the key has one. */
rl_key_status rl_key_decode_row(const uint8_t *key, size_t klen, const rl_table_desc *d,
                                rl_datum *row, uint64_t *seq, rl_buf *arena);

/* Discriminator of a duplicate row: appended to its natural key. */
#define RL_KEY_DUP_LEN 8
void rl_key_put_dup(rl_buf *b, uint64_t dup);
/* Split a key of d into natural key and discriminator: *natural_len gets the
 * length of the natural key. 1 if the key ends in a discriminator (*dup
 * set), 0 if not, -1 if the bytes are not a key of d. Decoding
 * (rl_key_decode_row) accepts a discriminator only for tables that keep
 * duplicates, and ignores it: the row's fields are the same either way. */
int rl_key_split_dup(const uint8_t *key, size_t klen, const rl_table_desc *d,
                     size_t *natural_len, uint64_t *dup);

/* Counter (0xFE) and system (0xFF) keys: tag + ASCII name. */
void rl_key_counter(rl_buf *b, const char *name);
void rl_key_system(rl_buf *b, const char *name);
/* The system key of `name` into out[0..cap): its length, 0 when it does
 * not fit. */
size_t rl_key_system_to(uint8_t *out, size_t cap, const char *name);
/* Is k the system key of `name`? */
bool rl_key_is_system(const uint8_t *k, size_t kl, const char *name);
/* The name of the counter of d's row sequences (RL_COUNTER_ROWSEQ_PREFIX +
 * the tag in hex, or "fd:<dyn id>" for a dynamic table), cut to n - 1. */
#define RL_COUNTER_NAME_MAX 64
void rl_counter_rowseq_name(const rl_table_desc *d, char *out, size_t n);

/* A dynamic table's definition (0x82): tag + BE id. */
void rl_key_dynamic_table(rl_buf *b, uint64_t id);

/* Index keys (0x80). The first two bytes of every index entry of one kind
 * (a prefix to scan them all). */
#define RL_KEY_INDEX_PREFIX_LEN 2
size_t rl_key_index_prefix(uint8_t out[RL_KEY_INDEX_PREFIX_LEN], uint8_t kind);
/* A schema created by CREATE SCHEMA: 0x80 04 + escaped name. */
void rl_key_schema(rl_buf *b, const char *schema);
void rl_key_live_index(rl_buf *b, uint8_t tag, const uint8_t *pkey, size_t pklen);
void rl_key_pk_index(rl_buf *b, uint8_t tag, uint64_t id);
/* Value of a pk index entry: the row's other key fields (all integers in
 * the tables that have one) as zigzag varints, in key order. With the id
 * in the index key that names the row: table_id is 1-3 bytes where the
 * whole primary key would be 17. */
rl_key_status rl_key_pk_index_value(rl_buf *b, const rl_table_desc *d, const rl_datum *row);
/* The row key a pk index entry names (id from its key, `v` its value).
 * RL_KEY_ERR_CORRUPT if the value does not hold exactly those fields. */
rl_key_status rl_key_from_pk_index(rl_buf *key, const rl_table_desc *d, uint64_t id,
                                   const uint8_t *v, size_t vl);
void rl_key_dynamic_name(rl_buf *b, const char *schema, const char *name);
/* An index created by CREATE INDEX: 0x80 05 + escaped schema + escaped index
 * name (index names share the schema's relation names with tables). */
void rl_key_sql_index(rl_buf *b, const char *schema, const char *name);
/* A comment (COMMENT ON): 0x80 06 + escaped schema, relation and column
 * names; a relation's own comment has column "", a schema's relation "" too
 * (no identifier is empty). rl_key_comment_prefix: every comment of
 * schema.relation (relation NULL: of the schema's objects). */
void rl_key_comment(rl_buf *b, const char *schema, const char *relation, const char *column);
void rl_key_comment_prefix(rl_buf *b, const char *schema, const char *relation);
/* The entries of UNIQUE index `id` start with 0x80 07 + id (8 bytes,
 * big-endian); the catalog appends each key column's equality bytes
 * (rows.c) and stores the row's key as the value. */
#define RL_KEY_UNIQUE_PREFIX_LEN 10
void rl_key_unique_index(rl_buf *b, uint64_t id);
/* A FOREIGN KEY's definition: 0x80 08 + escaped schema, table (the
 * referencing one) and constraint name; rl_key_fkey_prefix: every one of
 * schema.table (table NULL: of the schema; schema NULL too: all). */
void rl_key_fkey(rl_buf *b, const char *schema, const char *table, const char *name);
void rl_key_fkey_prefix(rl_buf *b, const char *schema, const char *table);
/* The entries of FOREIGN KEY `id` (one per referencing row whose key
 * columns are all non-NULL) start with 0x80 09 + id (8 bytes, big-endian);
 * the catalog appends each key column's equality bytes (as a UNIQUE
 * entry's) and the referencing row's key; the value is empty. */
#define RL_KEY_FKEY_PREFIX_LEN 10
void rl_key_fkey_entries(rl_buf *b, uint64_t id);
/* A CHECK constraint's definition (0x80 0A schema table name); the prefix
 * of a table's (table NULL: a schema's) definitions. */
void rl_key_check(rl_buf *b, const char *schema, const char *table, const char *name);
void rl_key_check_prefix(rl_buf *b, const char *schema, const char *table);
/* A column DEFAULT's key (0x80 0B schema table column), a table's prefix. */
void rl_key_default(rl_buf *b, const char *schema, const char *table, const char *column);
void rl_key_default_prefix(rl_buf *b, const char *schema, const char *table);

/* A sequence's definition (0x80 0C schema name; name NULL: the prefix of
 * a schema's, schema NULL too: of all), and its state (0x80 0D + id, 8
 * bytes big-endian), which the catalog writes outside transactions. */
void rl_key_sequence(rl_buf *b, const char *schema, const char *name);
void rl_key_sequence_state(rl_buf *b, uint64_t id);


/* Append "05 00 00 00 00 00 00 00 2a ..." (spaced lowercase hex). */
void rl_key_hex(rl_buf *b, const uint8_t *key, size_t klen);

/* Human description of any key: "ducklake_table table_id=42 begin_snapshot=200",
 * "counter next-snapshot-id", "index live ducklake_table table_id=5 ...";
 * a duplicate's discriminator is shown last ("... dup=7").
 * Unknown or malformed keys are described as such, never a crash. */
void rl_key_describe(rl_buf *b, const uint8_t *key, size_t klen);

#endif
