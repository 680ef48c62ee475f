/*
 * sql_ctid.h — ctids (sql_ctid.c), private to src/sql/: the tid value, the
 * numbering of rows by position, the per-session (table, key) <-> ctid map,
 * tid text input.
 */
#ifndef ROCKLAKE_SQL_CTID_H
#define ROCKLAKE_SQL_CTID_H

#include "sql/sql_exec.h"

/* A tid value (RL_OID_TID) holding ctid (block << 16 | offset). */
rl_value rl_tid_value(uint64_t ctid);
/* The ctid of the i-th row (0-based) numbered by position. */
uint64_t rl_ctid_of_index(size_t i);
/* The ctid of the i-th row of a relation without stored keys (temp tables,
 * pg_catalog), as a tid value. */
rl_value rl_row_index_ctid(size_t i);
/* ctids: a dynamic table's from its rows' sequence numbers (stored: the
 * holes of deleted rows, a new one after an UPDATE, as PostgreSQL's heap);
 * other tables' numbered per table ((0,1), (0,2), ... in first-seen order)
 * and stable for the life of the transaction that read the row. 0 when out
 * of memory. */
uint64_t rl_ctid_for_key(rl_session *s, const rl_table_desc *d, const uint8_t *key,
                         size_t klen);
/* Are d's ctids its row sequences (a dynamic table)? Then *seq is the one
 * ctid names (UINT64_MAX: none can, an offset past a block's), to read the
 * row by (rl_txn_get); false for other tables (rl_ctid_lookup). */
bool rl_ctid_seq(const rl_table_desc *d, uint64_t ctid, uint64_t *seq);
/* 1 and the key of table d's row with this ctid, or 0 if this transaction
 * never handed it out (sql_dml.c then numbers the table by scanning it). */
int rl_ctid_lookup(rl_session *s, const rl_table_desc *d, uint64_t ctid, const uint8_t **key,
                   size_t *klen);
void rl_ctid_reset(rl_session *s); /* at transaction end */
/* "(p,o)" / "'(p,o)'" -> ctid; false if malformed. */
bool rl_tid_parse(const char *text, size_t len, uint64_t *ctid);

#endif
