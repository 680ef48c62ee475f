/*
 * sequence.h — commit sequencing: placing a DuckLake append that lost the
 * race for its snapshot id on top of the commits that won it
 * (docs/design/commit-sequencing.md).
 *
 * Owns: deciding whether a transaction's writes are a pure DuckLake append
 * that can be rebased onto the latest state, and computing the rebased
 * writes (remapped snapshot, file and row ids, merged table statistics), or
 * the reason it cannot (the fallback, which keeps today's 23505).
 *
 * It reads through two catalog transactions the caller provides: `base`, a
 * reader of the losing transaction's snapshot without its writes, and
 * `latest`, a reader of the latest committed state (the caller holds the
 * catalog's commit lock, so that state is fixed). It writes nothing: the
 * catalog replays the plan into the commit's one batch (commit.c).
 *
 * No circle: the commit path (commit.c) calls the planner, and rows.c asks
 * rl_seq_append_key; the planner reads only through catalog.h's read
 * calls (rl_txn_get, rl_txn_scan, rl_txn_scan_live, rl_scan_*), which
 * scan.c implements and which never write or call back into commit or
 * sequencing (scripts/check-circles.py checks it).
 *
 * Private to the catalog layer (src/LAYERS).
 *
 * Ownership: an rl_seq_plan owns its writes and every byte they point to
 * (its arena); free it with rl_seq_plan_free. The intents passed in are
 * borrowed.
 */
#ifndef ROCKLAKE_SEQUENCE_H
#define ROCKLAKE_SEQUENCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/arena.h"
#include "catalog/catalog.h"

typedef enum rl_seq_op { RL_SEQ_INSERT = 1, RL_SEQ_UPDATE = 2, RL_SEQ_DELETE = 3 } rl_seq_op;

/* One logical write of a transaction, as the SQL layer asked for it. Its
 * rows are sized by the table (rl_seq_row_cap datums, those past ncols
 * zeroed), not RL_MAX_COLUMNS: a transaction keeps up to 65,536 of them. */
typedef struct rl_seq_write {
    rl_seq_op op;
    const rl_table_desc *d;
    size_t ncols;
    rl_datum *row; /* INSERT, UPDATE: the row written */
    rl_datum *old; /* UPDATE, DELETE: the row replaced, as read; NULL in a plan */
    bool old_own;                 /* the replaced row was this transaction's own write */
    const uint8_t *key;           /* UPDATE, DELETE: the replaced row's key */
    size_t klen;
} rl_seq_write;

/* How many datums a write's row of d holds: d's columns in its latest
 * format, and at least `ncols` (the columns the transaction's format
 * gives it). */
static inline size_t rl_seq_row_cap(const rl_table_desc *d, size_t ncols)
{
    size_t n = d->ncols_max > ncols ? d->ncols_max : ncols;
    return n ? n : 1;
}

/* Why a rebase was not done (docs/design/commit-sequencing.md §10). */
typedef enum rl_seq_reason {
    RL_SEQ_OK = 0,
    RL_SEQ_NOT_STANDARD_CLAIM,
    RL_SEQ_NOT_APPEND,
    RL_SEQ_STATS_INCONSISTENT,
    RL_SEQ_CONFLICT,
    RL_SEQ_HISTORY_NOT_APPEND,
    RL_SEQ_HISTORY_GAP,
    RL_SEQ_FOREIGN_COMMIT,
    RL_SEQ_LOG_WINDOW,
    RL_SEQ_TOO_FAR,
    RL_SEQ_TABLE_CHANGED,
    RL_SEQ_STATS_SHAPE,
    RL_SEQ_STATS_MERGE,
    RL_SEQ_ERROR,
    RL_SEQ_NREASONS
} rl_seq_reason;

/* "not_append", ... (the metric label); "" for RL_SEQ_OK. */
const char *rl_seq_reason_name(rl_seq_reason r);

/* The furthest a rebase reaches: snapshots committed since the base (R5). */
#define RL_SEQ_MAX_DISTANCE 64

typedef struct rl_seq_plan {
    rl_seq_write *w; /* the rebased writes, in the transaction's order */
    size_t n;
    uint64_t claimed_sid, base_sid, assigned_sid;
    int64_t file_shift; /* Δf */
    char id_map[512];   /* "file_id:+2;row_id:8=+3,9=+0" for the audit */
    rl_arena arena;
} rl_seq_plan;

/* Plan the rebase of `w[0..n)` at time `now_us` (PostgreSQL microseconds:
 * the rebased snapshot's time, never below the latest snapshot's). 0 with
 * *reason RL_SEQ_OK and *plan filled, 0 with another *reason (nothing to
 * free), or -1 with err on a read error. */
int rl_seq_plan_rebase(rl_txn *base, rl_txn *latest, const rl_seq_write *w, size_t n,
                       int64_t now_us, rl_seq_plan *plan, rl_seq_reason *reason, rl_error *err);
void rl_seq_plan_free(rl_seq_plan *plan);

/* Is a key of this tag one a pure append writes? (for the commits the
 * catalog's commit log shows between base and latest, rule R4) */
bool rl_seq_append_key(const uint8_t *key, size_t klen);

/* Compare two DuckLake statistics strings of a column of DuckLake type
 * `type` the way DuckLake orders them: -1, 0, 1, or 2 when RockLake cannot
 * compare them exactly (the caller falls back). For tests too. */
int rl_seq_stat_compare(const char *type, const uint8_t *a, size_t alen, const uint8_t *b,
                        size_t blen);

#endif
