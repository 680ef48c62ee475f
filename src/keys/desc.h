/*
 * desc.h — the one table of table descriptors.
 *
 * Owns: for every stored table (the 28 DuckLake 1.0 tables, the 1.1 additions,
 * and RockLake's internal tables) its tag, name, columns in DuckLake's exact
 * order and types, key fields, MVCC columns, primary key and indexes. Key
 * encoding (keys.c), the value codec (codec.c via rl_desc_value_types), the
 * catalog layer, inspect/check, SQL (including the row order of full scans,
 * rl_heap_order) and pg_catalog are all driven by these rows — no per-table
 * code anywhere.
 *
 * Format versions: a column or table carries `since`, the first DuckLake
 * catalog format that has it. A catalog's format (system key
 * "ducklake-format") selects its shape: rl_desc_ncols(d, fmt) columns, and
 * tables with since <= fmt. New columns are only ever appended, so a row
 * written under 1.0 decodes under 1.1 with the column's default.
 *
 * Invariants (checked by tests/test_keys.c): key columns are int8 or
 * varchar; a key column is never stored in the value; every tag appears once.
 * (checked by tests/test_sql_select.c): a heap order's column is an
 * integer-valued column (int8 or timestamptz); RL_HEAP_LAST_WRITE only on
 * tables with begin/end columns; a table keyed by a row sequence keeps key
 * order.
 */
#ifndef ROCKLAKE_DESC_H
#define ROCKLAKE_DESC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "keys/codec.h"

typedef enum rl_format {
    RL_FMT_1_0 = 10, /* DuckLake 1.0 (DuckDB 1.5) */
    RL_FMT_1_1 = 11, /* DuckLake 1.1 (DuckDB 2.0) */
    RL_FMT_LATEST = RL_FMT_1_1
} rl_format;

/* "1.0" -> RL_FMT_1_0 ...; 0 if unknown. */
rl_format rl_format_parse(const char *s);
const char *rl_format_name(rl_format f);

typedef struct rl_column_desc {
    const char *name;
    rl_type type;
    bool not_null;
    rl_format since;
    int32_t typmod; /* PostgreSQL atttypmod (e.g. numeric(18,3) = 1179655); 0 = none */
} rl_column_desc;

/* A key field: a column index, or RL_KEY_SEQ for a RockLake row sequence. */
#define RL_KEY_SEQ (-1)
#define RL_MAX_KEY_FIELDS 5
#define RL_MAX_COLUMNS 64

typedef enum rl_pk_check {
    RL_PK_NONE = 0,     /* PostgreSQL has no primary key here */
    RL_PK_KEY = 1,      /* the PK is the first key field (exists = prefix non-empty) */
    RL_PK_INDEX = 2     /* the PK column is not first in the key: 0x80 02 index */
} rl_pk_check;

/* The order PostgreSQL's heap holds a table's rows in, as far as the rows
 * themselves show it: what a scan without ORDER BY returns there (DuckLake
 * and tools reading the metadata tables directly see it). A heap is in
 * insertion order, and an UPDATE moves the row's new version to the end.
 * Rows with equal rank keep key order. See docs/sql-support.md for what
 * this cannot reproduce. */
typedef enum rl_heap_order {
    RL_HEAP_KEY = 0,        /* key order already is insertion order (ids or
                               row sequences allocated increasing) */
    RL_HEAP_LAST_WRITE = 1, /* versioned rows: by the snapshot of the row's last
                               write, COALESCE(end_snapshot, begin_snapshot);
                               at equal snapshot rows closed then (an UPDATE)
                               before rows written then (DuckLake's commit
                               batch updates before it inserts); then by
                               heap_col if set */
    RL_HEAP_BY_COLUMN = 2   /* by heap_col, a value allocated increasing */
} rl_heap_order;

/* A column naming a row of another table, the parent: `rocklake check`
 * (check.c) requires a parent row whose column of the same name holds the
 * value. Parents sort before their children (tag order, keys.h). */
typedef struct rl_parent_ref {
    const char *col; /* NULL: no more references */
    uint8_t tag;
} rl_parent_ref;
#define RL_MAX_PARENTS 2

typedef struct rl_table_desc {
    uint8_t tag;
    const char *name;            /* "ducklake_snapshot" */
    rl_format since;
    uint8_t ncols_max;           /* columns in the latest format */
    const rl_column_desc *cols;
    uint8_t nkey;
    int8_t key[RL_MAX_KEY_FIELDS]; /* column index per key field, or RL_KEY_SEQ */
    int8_t begin_col;            /* MVCC begin_snapshot column, -1 if none */
    int8_t end_col;              /* MVCC end_snapshot column, -1 if none */
    int8_t pk_col;               /* PostgreSQL PRIMARY KEY column, -1 if none */
    rl_pk_check pk_check;
    bool live_index;             /* maintain 0x80 01 entries for rows with end NULL */
    bool internal;               /* RockLake's own (not visible to SQL) */
    const char *counter;         /* counter raised to id+1 when a row is written, or NULL */
    int8_t counter_col;          /* the column that feeds `counter` */
    uint64_t dyn_id;             /* dynamic tables only (tag 0xFD): id after the tag */
    rl_heap_order heap_order;    /* row order of a full scan (zero: key order) */
    int8_t heap_col;             /* the column heap_order sorts by, -1 none */
    rl_parent_ref parents[RL_MAX_PARENTS]; /* columns that name a parent row */
    /* The catalog itself reads and rewrites rows of this table by its tag
     * (commit sequencing, retention, the commit's snapshot checks), always in
     * the descriptor's shape: a client cannot add columns of its own to it
     * (rl_txn_register_fixed's extension columns). */
    bool catalog_reads;
} rl_table_desc;

/* All descriptors, in tag order. */
extern const rl_table_desc rl_tables[];
extern const size_t rl_ntables;

const rl_table_desc *rl_desc_by_tag(uint8_t tag);
const rl_table_desc *rl_desc_by_name(const char *name, rl_format fmt);

/* Columns of `d` in format `fmt`; 0 if the table does not exist in fmt. */
size_t rl_desc_ncols(const rl_table_desc *d, rl_format fmt);
bool rl_desc_in_format(const rl_table_desc *d, rl_format fmt);
int rl_desc_column_index(const rl_table_desc *d, const char *name, rl_format fmt);

/* Is column `col` a key field (so it is not stored in the value)? */
bool rl_desc_col_in_key(const rl_table_desc *d, int col);
/* Does the key end with a row sequence? */
bool rl_desc_has_seq(const rl_table_desc *d);
/* Does the table keep rows whose key fields are equal, as PostgreSQL does
 * for a table without a PRIMARY KEY? True for DuckLake's tables with
 * pk_check RL_PK_NONE whose key is made of their own columns; a second such
 * row is stored at the key plus a discriminator (keys.h, docs/key-layout.md
 * decision (i)). Tables keyed by a row sequence are unique by construction,
 * and RockLake's internal tables are keyed by ids it allocates itself. */
bool rl_desc_keeps_duplicates(const rl_table_desc *d);
/* Is `d` a dynamic table's descriptor (rows under tag 0xFD, dyn_id set)? */
bool rl_desc_is_dynamic(const rl_table_desc *d);

/* The value layout: types of the non-key columns in order. Writes up to
 * RL_MAX_COLUMNS types into `types` and their column indexes into `cols`,
 * returns how many. */
size_t rl_desc_value_columns(const rl_table_desc *d, rl_format fmt,
                             rl_type *types, int *cols);

/* PostgreSQL constraint name of the PK ("ducklake_snapshot_pkey"), written
 * to buf. A table without one has no constraint a duplicate could violate
 * (rl_desc_keeps_duplicates); for the internal tables keyed by ids RockLake
 * allocates, whose keys collide only if a counter went wrong, it names the
 * storage key ("rocklake_dynamic_table_rocklake_key"). */
const char *rl_desc_constraint_name(const rl_table_desc *d, char *buf, size_t n);

/* Internal descriptors for the audit log and dynamic table definitions. */
extern const rl_table_desc rl_desc_audit;
extern const rl_table_desc rl_desc_dynamic_table;

/* Audit columns, in order. */
enum {
    RL_AUDIT_SNAPSHOT_ID, RL_AUDIT_SEQ, RL_AUDIT_TIME, RL_AUDIT_USER,
    RL_AUDIT_APPLICATION, RL_AUDIT_CLIENT, RL_AUDIT_STATEMENTS,
    /* a sequenced commit (docs/design/commit-sequencing.md §12); NULL otherwise */
    RL_AUDIT_CLAIMED_SNAPSHOT_ID, RL_AUDIT_BASE_SNAPSHOT_ID, RL_AUDIT_ID_MAP, RL_AUDIT_NCOLS
};
/* Dynamic table definition columns, in order. */
enum {
    RL_DYN_ID, RL_DYN_SCHEMA, RL_DYN_NAME, RL_DYN_COLUMNS, RL_DYN_NCOLS
};

#endif
