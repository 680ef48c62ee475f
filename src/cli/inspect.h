/*
 * inspect.h — reading a RockLake store key by key: `rocklake inspect` and
 * `rocklake stats`, plus the key/value decoding `rocklake check` shares.
 *
 * Owns: turning any stored pair (catalog row, index entry, audit entry,
 * dynamic-table definition or row, counter, system key) into text, and
 * per-tag storage accounting. Reads raw keys through kv (rl_catalog_kv) in
 * key order; never writes.
 *
 * Invariants: decoding never trusts the bytes — a pair that does not decode
 * is reported as "(undecodable: reason)" and the walk continues; output is
 * deterministic (key order, fixed formats) so tests and diffs can rely on it.
 */
#ifndef ROCKLAKE_INSPECT_H
#define ROCKLAKE_INSPECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/buf.h"
#include "catalog/catalog.h"
#include "base/error.h"
#include "kv/kv.h"

/* ------------------------------------------------ dynamic table registry */

/* One dynamic-table definition (tag 0x82) decoded. */
typedef struct rl_dyn_def {
    uint64_t id;
    char schema[128];
    rl_table_desc *desc; /* owned by the registry */
} rl_dyn_def;

/* Every definition in a store, sorted by id. */
typedef struct rl_dyn_defs {
    rl_dyn_def *defs;
    size_t n;
    size_t undecodable; /* definitions whose value did not decode */
    /* DuckLake tables extended with columns of the client's own (the name
     * index declares them, rl_name_entry), by tag; NULL: the plain one */
    rl_table_desc *fixed[64];
} rl_dyn_defs;

/* Load all 0x82 definitions of the store and the extension columns of
 * DuckLake tables (name index entries that declare them; one that does not
 * decode counts as undecodable). *out is filled (caller frees with
 * rl_dyn_defs_free even on failure). Returns 0 or -1. */
int rl_dyn_defs_load(kv_db *kv, rl_dyn_defs *out, rl_error *err);
/* Borrowed pointer into `defs`, or NULL. */
const rl_dyn_def *rl_dyn_defs_find(const rl_dyn_defs *defs, uint64_t id);
void rl_dyn_defs_free(rl_dyn_defs *defs);
/* The descriptor rows of fixed tag `tag` decode with: the extended one the
 * store declares, or the plain descriptor (NULL: unknown tag). */
const rl_table_desc *rl_defs_fixed_desc(const rl_dyn_defs *defs, uint8_t tag);

/* ---------------------------------------------------------- decoding */

/* A stored row decoded for its descriptor: key fields and value columns in
 * column order. String datums borrow from the key arena and the value. */
typedef struct rl_decoded_row {
    const rl_table_desc *d;
    size_t ncols;
    rl_datum vals[RL_MAX_COLUMNS];
    uint64_t seq;
    rl_buf arena; /* key strings; owned, release with rl_decoded_row_free */
} rl_decoded_row;

void rl_decoded_row_init(rl_decoded_row *r);
void rl_decoded_row_free(rl_decoded_row *r);

/* Decode a row of table `d` (a catalog table, audit, dynamic definition or a
 * dynamic table's rows) stored at key/val, in DuckLake format `fmt`.
 * Returns 0, or -1 with a reason in why[0..whylen). */
int rl_decode_stored_row(rl_decoded_row *r, const rl_table_desc *d, rl_format fmt,
                         const uint8_t *key, size_t klen, const uint8_t *val, size_t vlen,
                         char *why, size_t whylen);

/* Descriptor for the rows under `key`: catalog tag, audit, 0x82, or the
 * dynamic table of a 0xFD key (looked up in defs). NULL for index, counter,
 * system and unknown keys. */
const rl_table_desc *rl_desc_for_key(const uint8_t *key, size_t klen, const rl_dyn_defs *defs);

/* Append the text of any stored value (what inspect prints after "value").
 * Returns 0, or -1 with a reason (and nothing useful appended). */
int rl_describe_value(rl_buf *out, const uint8_t *key, size_t klen, const uint8_t *val,
                      size_t vlen, rl_format fmt, const rl_dyn_defs *defs, char *why,
                      size_t whylen);

/* Name of a tag for humans: the table name, "rocklake_index", "counters"...;
 * "unknown" if unassigned. Static string. */
const char *rl_tag_label(uint8_t tag);

/* Parse a tag argument: hex ("0x05", "05", "fe") or a table name
 * ("ducklake_table", or an internal label). -1 if not recognised. */
int rl_tag_parse(const char *s);

/* Parse "05 00 2a" / "05002a" / "0x05 0x00" into bytes. Returns the length,
 * or -1 on bad hex or more than `cap` bytes. */
int rl_hex_parse(const char *s, uint8_t *out, size_t cap);

/* Scan [prefix, end of prefix) — or the whole store when plen == 0. */
kv_iter *rl_scan_all(kv_db *kv, const uint8_t *prefix, size_t plen, kv_error *err);

/* ---------------------------------------------------------- commands */

typedef struct rl_inspect_opts {
    int tag;               /* only keys with this first byte; -1 = any */
    uint8_t prefix[512];   /* raw key prefix; plen 0 = none */
    size_t plen;
    uint64_t limit;        /* 0 = unlimited */
    bool raw;              /* also print the value bytes in hex */
} rl_inspect_opts;

/* Print every selected pair to `out` (hex key, "key" line, "value" line).
 * Undecodable pairs are printed as such; only store errors fail (-1). */
int rl_inspect(rl_catalog *cat, const rl_inspect_opts *o, FILE *out, rl_error *err);

/* Per-tag totals as an aligned table, or JSON when `json`. -1 on store error. */
int rl_stats(rl_catalog *cat, const char *store, bool json, FILE *out, rl_error *err);

#endif
