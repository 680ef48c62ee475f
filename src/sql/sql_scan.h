/*
 * sql_scan.h — scans of relations (sql_scan.c), private to src/sql/: a
 * relation's column layout, scans into row sets or one stored row at a
 * time, heap order and its spool, row streams, EXPLAIN, the latest key.
 */
#ifndef ROCKLAKE_SQL_SCAN_H
#define ROCKLAKE_SQL_SCAN_H

#include <pg_query/pg_query.pb-c.h>

#include "sql/sql_exec.h"
#include "sql/sql_relation.h"
#include "sql/sql_value.h"

/* Rows handed one at a time to a consumer (COPY, a streamed SELECT): begin
 * once with the number of columns and their names and types before the
 * first row, then row per result row; each
 * appends what it writes to *out (vals borrow until row returns). The
 * stream sends out's bytes through send, whole rows at a time: as they
 * come, or, when the scan is in heap order (rl_relation_heap_ordered), all
 * at the end in that order. What is left in *out at the end (less than
 * RL_STREAM_CHUNK) is the consumer's to send. Each returns 0, or -1 with
 * x->err set. */
typedef struct rl_row_stream {
    int (*begin)(void *ctx, size_t ncols, const rl_colmeta *cols);
    int (*row)(void *ctx, const rl_value *vals, size_t ncols);
    int (*send)(void *ctx, const uint8_t *data, size_t len);
    rl_buf *out;
    void *ctx;
} rl_row_stream;
/* Bytes of output a stream lets gather before sending them. */
#define RL_STREAM_CHUNK (64u * 1024)

/* Column layout of a relation (names, types, table oid, attnums). */
rl_rowset *rl_relation_shape(rl_exec *x, const rl_relation *rel, const char *alias);

/* The row order of a stored table's scan into a row set. RL_SCAN_HEAP:
 * PostgreSQL's heap order, as far as the descriptor's rl_heap_order derives
 * it from the rows, when the scan reads the whole table (no equality prefix
 * on the leading key field) and the statement does not name ctid; key
 * order otherwise. RL_SCAN_KEY: key order, for readers whose row order no
 * one sees (DML, DDL). */
typedef enum rl_scan_order { RL_SCAN_KEY = 0, RL_SCAN_HEAP = 1 } rl_scan_order;

/* Scan a relation into a row set whose columns are all the relation's
 * columns, aliased `alias`. `where` (may be NULL) is only used to choose a
 * key prefix (equality / IN on leading key fields) — the caller still
 * applies it. Stored rows carry their primary key and a ctid. */
rl_rowset *rl_relation_scan(rl_exec *x, const rl_relation *rel, const char *alias,
                            const PgQuery__Node *where, rl_scan_order order);

/* rl_relation_scan in two steps, for a caller that looks at the columns
 * first: fill `rs` (from rl_relation_shape(x, rel, alias), taken over:
 * returned filled, or freed and NULL), leaving out rows outside `keys`
 * where it can (NULL: none; only pg_catalog relations use them today) and
 * every row `filter` drops (NULL: none). A pg_catalog relation's `rs` may
 * have been narrowed after rl_relation_shape (columns dropped; each kept
 * column's attnum says which one it is): its rows are generated straight
 * into that layout, and filtered as they are made, so a join over
 * pg_attribute never holds the rows or columns it does not need. Other
 * relations' `rs` must have the shape's columns. */
rl_rowset *rl_relation_fill(rl_exec *x, const rl_relation *rel, const char *alias,
                            const PgQuery__Node *where, rl_scan_order order,
                            const rl_scan_keys *keys, const rl_row_filter *filter,
                            rl_rowset *rs);
/* Does the statement name ctid (a SELECT of it, a DML ctid predicate)? Only
 * then do stored rows get ctids: numbering is a hash-map insert per row. */
bool rl_exec_uses_ctids(rl_exec *x);
/* The stored rows of an RL_REL_STORED relation one at a time, in key
 * order (`where` chooses key prefixes as rl_relation_scan does). fn gets
 * each row (borrowed until it returns) and returns 0 to go on or -1 to stop
 * with x->err set. Checks for cancel every 1024 rows. */
typedef int (*rl_stored_row_fn)(void *ctx, const rl_row *row);
int rl_relation_scan_each(rl_exec *x, const rl_relation *rel, const char *alias,
                          const PgQuery__Node *where, rl_stored_row_fn fn, void *ctx);
/* A query of one relation whose `where` matched no row, reading the stored
 * columns flagged in reads[]: works out what it asked for (one key, or `col
 * <= const` as the whole WHERE) and refuses a DuckLake time-travel lookup
 * of an expired snapshot with 72000 (sql_timetravel.c). 0 or -1. */
int rl_relation_check_retained(rl_exec *x, const rl_relation *rel, const char *alias,
                               const PgQuery__Node *where, const bool *reads);
/* Would rl_relation_scan(..., RL_SCAN_HEAP) reorder this scan's rows? A
 * streamed scan then holds its output in a spool. */
bool rl_relation_heap_ordered(rl_exec *x, const rl_relation *rel, const char *alias,
                              const PgQuery__Node *where);
/* A streamed scan's output held until its last row, then sent in heap
 * order. After each row's output went to the stream's *out (from `start`
 * on), _add files it under the row's place in heap order (and may swap *out
 * for a fresh buffer, keeping the full one); _send sends what is held
 * through the stream, the rows' output in heap order (or, with as_written,
 * in key order, as it was written), leaving the last piece in *out. _bytes:
 * the rows' output held so far. Errors: -1 with x->err set. */
typedef struct rl_heap_spool rl_heap_spool;
rl_heap_spool *rl_heap_spool_new(rl_exec *x, const rl_table_desc *d);
int rl_heap_spool_add(rl_heap_spool *sp, const rl_row *row, rl_buf *out, size_t start);
int rl_heap_spool_send(rl_heap_spool *sp, const rl_row_stream *st, bool as_written);
size_t rl_heap_spool_bytes(const rl_heap_spool *sp);
void rl_heap_spool_free(rl_heap_spool *sp);
/* Bytes of output a spool may hold unless the engine says otherwise
 * (rl_engine_options.heap_order_limit: the engine's heap_order_limit); past
 * it the stream sends what it holds, and the rest, in key order. */
#define RL_HEAP_ORDER_DEFAULT ((size_t)64 << 20)
/* Describe the scan rl_relation_scan would choose (EXPLAIN). */
void rl_relation_explain(rl_exec *x, const rl_relation *rel, const PgQuery__Node *where,
                         rl_buf *out);

/* MAX of the first key column of a stored table whose first key column
 * feeds a counter (ducklake_snapshot.snapshot_id, ...), read in O(1) keys
 * through the counter. 1 = answered (*out may be a NULL value for an empty
 * table), 0 = no fast path for this relation, -1 = error. */
int rl_relation_max_key(rl_exec *x, const rl_relation *rel, rl_value *out);

#endif
