/*
 * catalog.h — DuckLake catalog rows over the key-value store.
 *
 * Owns: opening/creating a catalog (system keys, format checks, writer
 * epoch, the writer lease via lease.h), transactions (a consistent read view + buffered writes that become
 * ONE atomic kv_write at commit, with counters and an audit entry), row
 * insert/update/delete with PostgreSQL's constraint errors, prefix scans and
 * MVCC visibility, the live-row index, and dynamic-table definitions.
 *
 * Layering: this is the transaction layer between the store (kv.h, which
 * knows nothing of DuckLake) and SQL (which never touches kv directly). Keys
 * come from keys.h, values from codec.h, shapes from desc.h.
 *
 * Concurrency: one rl_catalog per process and store; transactions may run on
 * several threads at once (each rl_txn on one thread). Commits are
 * serialized by the catalog and validated first-committer-wins:
 *  - an INSERT whose PRIMARY KEY another commit created since this
 *    transaction's snapshot fails with 23505 (PostgreSQL's exact text); in a
 *    table without one, where PostgreSQL keeps both rows, the row moves to a
 *    duplicate key instead (see rl_txn_insert);
 *  - an UPDATE/DELETE of a row another commit changed since the snapshot
 *    fails with 40001.
 * A failed commit writes nothing. A writer superseded by a newer writer
 * (kv fencing) fails every later commit with 25006 and writes nothing.
 *
 * Ownership: rl_catalog_open returns a handle freed by rl_catalog_close.
 * rl_txn_begin returns a handle freed by rl_txn_free (which rolls back if not
 * committed). Rows returned by scans/gets are borrowed until the next call on
 * that scan/txn-get or its free.
 */
#ifndef ROCKLAKE_CATALOG_H
#define ROCKLAKE_CATALOG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "keys/codec.h"
#include "keys/desc.h"
#include "base/arena.h"
#include "base/error.h"
#include "kv/kv.h"

struct rl_lease_owner; /* lease.h */

typedef struct rl_catalog rl_catalog;
typedef struct rl_txn rl_txn;
typedef struct rl_scan rl_scan;

/* How the store underneath is opened: the catalog's own words for the
 * settings of SlateDB and the kv layer (catalog code maps them onto
 * kv_options), so the layers above set them without kv.h's types. 0 in a
 * field is its default. */
typedef struct rl_store_options {
    uint64_t flush_interval_ms; /* SlateDB's WAL flush interval; 0 = 10 */
    uint64_t block_cache_bytes; /* SlateDB's in-memory block cache; 0 = 256 MiB */
    /* Object stores (s3://): the most one request to the store, its
     * retries, or a wait for durability may take before it fails with
     * 58030; 0 = 30000. */
    uint32_t store_timeout_ms;
    /* Writers: keep the keyspace in memory up to this many bytes (0 = 4 GiB,
     * negative = never; kv_options.mirror_max_bytes). */
    int64_t mirror_max_bytes;
    /* Writers of a local store: acknowledge commits once SlateDB's WAL has
     * them, not from the store's commit journal. */
    bool journal_off;
    /* Writers of a local store: replay a journal up to a damaged record,
     * set the damaged file aside and serve read-only
     * (kv_options.journal_salvage). */
    bool journal_salvage;
    /* Writers: rewrite an integrity digest that disagrees with the keys
     * (kv_options.digest_rebuild), reported through `notice`. */
    bool digest_rebuild;
    /* Followers: write nothing to the store, not even a reader checkpoint
     * (kv_options.reader_no_writes; for short-lived readers). */
    bool reader_no_writes;
    /* Writers: progress while the in-memory copy loads at open (keys and
     * bytes so far), at most every load_progress_ms (0 = 1000); may be NULL. */
    void (*load_progress)(void *ctx, uint64_t keys, uint64_t bytes);
    void *load_progress_ctx;
    uint32_t load_progress_ms;
    /* Writers: one line for the operator about what the open did to the
     * store beyond opening it; NULL = stderr. */
    void (*notice)(void *ctx, const char *message);
    void *notice_ctx;
    /* Writers: answer from SlateDB while the in-memory copy loads in the
     * background, commits acknowledged once its digest check passed
     * (kv_options.load_background; a refused store then fails every
     * statement, rl_catalog_failed); `loaded` (may be NULL; its ctx must
     * outlive the catalog) is told when the load is over. */
    bool load_background;
    void (*loaded)(void *ctx, const char *url, const kv_open_timing *timing,
                   const kv_error *refusal);
    void *loaded_ctx;
    /* Writers: NULL, or the kv handle of a follower of the same store this
     * writer replaces (a promotion), open until rl_catalog_open returns:
     * its block cache and the WAL objects and manifests it read serve the
     * open (kv_options.promote_from). */
    const kv_db *promote_from;
    /* Followers on an object store: the longest wait between polls of the
     * store once idle (kv_options.follower_poll_max_ms: 0 = 1000 ms,
     * negative = no backoff). The writer lease's heartbeat is no news to
     * it: the catalog names the lease key its quiet key. */
    int64_t follower_poll_max_ms;
} rl_store_options;

typedef struct rl_catalog_options {
    bool create_if_missing; /* write the system keys of a new catalog */
    bool read_only;         /* open as a follower (kv reader) */
    rl_format format;       /* DuckLake format for a new catalog; 0 = 1.0 */
    rl_store_options store; /* how the store is opened */
    /* Writers: the writer lease (lease.h). */
    bool takeover;          /* open even if another writer's lease is live (fencing it) */
    /* A reopen by this process after its writer's store failed: a live
     * lease of this very process is taken over (its failed writer holds
     * it), one of any other writer is refused as without takeover (it may
     * have taken the lake over meanwhile: a reopen must not take it back). */
    bool takeover_self;
    uint64_t lease_ms;      /* lease period recorded and renewed; 0 = RL_LEASE_DEFAULT_MS */
    const char *lease_listen; /* address recorded in the lease; NULL = "-" */
    /* Open a store that holds the copy-incomplete marker (an unfinished
     * import, backup or restore); without it such an open fails with 55000. */
    bool allow_incomplete_copy;
    /* A catalog this open creates gets the copy-incomplete marker with this
     * text in its creating batch, so no crash leaves it without one. */
    const char *create_copy_marker;
    /* Commit sequencing (docs/design/commit-sequencing.md): a DuckLake
     * commit that only appends and lost the race for its snapshot id is
     * placed on top of the commits that won it, instead of failing with
     * 23505 and making the client retry. Writers only; off by default. */
    bool sequence_commits;
    /* Writers without takeover: the caller read the writer lease just
     * before, with rl_catalog_probe; `lease` is what it found (NULL: the
     * store held none). The open then reads it no second time. */
    bool lease_probed;
    const struct rl_lease_owner *lease;
} rl_catalog_options;

/* Open (and maybe create) the catalog in the store at `url`. A store with a
 * newer catalog-format-version is refused (SQLSTATE 55000) with a message
 * that says which version it has and which this build supports. A writer
 * first reads the store's writer lease without fencing anyone; if another
 * writer holds it and is alive, the open is refused (55000, naming that
 * writer) unless opts->takeover. An open writer renews its lease until
 * rl_catalog_close, which releases it. */
rl_catalog *rl_catalog_open(const char *url, const rl_catalog_options *opts, rl_error *err);
int rl_catalog_close(rl_catalog *cat, rl_error *err);
/* Does the store at url hold a catalog? Looks with a reader that writes
 * nothing (a writer open would fence a running server, and on an object
 * store would create a store where there was none). 1 yes, 0 no store or
 * no catalog in it, -1 (err set, 58030) when the store cannot be read.
 * store_timeout_ms bounds each request to the store as
 * rl_store_options.store_timeout_ms does (0: its default). */
int rl_catalog_exists(const char *url, uint32_t store_timeout_ms, rl_error *err);
/* rl_catalog_exists and the writer lease (lease.h) through the same
 * reader: one open of the store where a writer's open would take two (on
 * an object store each is a manifest read and a WAL replay, about a
 * second at 25 ms a request). 1 a catalog (*lease_found: it holds a
 * readable writer lease, in *lease), 0 none, -1 with err. */
int rl_catalog_probe(const char *url, uint32_t store_timeout_ms, struct rl_lease_owner *lease,
                     bool *lease_found, rl_error *err);

/* The copy-incomplete marker (system key RL_SYS_COPY_INCOMPLETE): a copy
 * into a new lake (`rocklake import`, `backup`, `restore`) writes it durably
 * before its first row and deletes it with its last, so a lake whose copy
 * stopped part-way is refused by every open without allow_incomplete_copy.
 * Its text says which copy ("import from ...", "backup of ...", "restore of
 * ..."). _get copies the text into out (cap bytes, NUL-terminated) and
 * returns 1 when present, 0 when absent, -1 on a store error. _set/_clear
 * write it in a batch of their own (writers). */
int rl_catalog_copy_marker_get(rl_catalog *cat, char *out, size_t cap, rl_error *err);
int rl_catalog_copy_marker_set(rl_catalog *cat, const char *text, rl_error *err);
int rl_catalog_copy_marker_clear(rl_catalog *cat, rl_error *err);

/* Commit sequencing of this catalog: on (a writer opened with
 * sequence_commits) or off, and what it did since the open. */
bool rl_catalog_sequence_commits(const rl_catalog *cat);
typedef struct rl_sequence_stats {
    uint64_t rebased;        /* commits placed on top of the winners */
    uint64_t distance;       /* sum over them of the snapshots they moved over */
    uint64_t rebase_ns;      /* time spent rebasing, under the commit lock */
    uint64_t fallbacks[16];  /* by reason (rl_sequence_reason_name), 23505 to the client */
} rl_sequence_stats;
void rl_catalog_sequence_stats(rl_catalog *cat, rl_sequence_stats *out);
/* The metric label of fallback reason i ("not_append", ...), NULL past the last. */
const char *rl_sequence_reason_name(size_t i);

rl_format rl_catalog_format(const rl_catalog *cat);
uint64_t rl_catalog_writer_epoch(const rl_catalog *cat);
/* A writer whose write to its store failed: an object store's write (an
 * I/O error or the store timeout), or a local store's journal write or
 * fdatasync (disk full, EIO). Every transaction on it now fails with
 * 58030, and its owner should close it and open the store again, which
 * recovers exactly as a restart would (the server does so by itself,
 * src/server/lakes.c). Sticky. */
bool rl_catalog_failed(rl_catalog *cat);
/* A writer opened with store.load_background whose in-memory copy's load
 * found the store's keys disagreeing with its integrity digest: failed
 * (above), every statement fails with XX001 and the digest's message, and
 * a reopen does not help (rl_catalog_heals false): restore the store or
 * open it with --rebuild-digest. */
bool rl_catalog_refused(rl_catalog *cat);
/* Start the background load of a catalog opened with
 * store.load_background (kv_load_start; a no-op otherwise): its owner does
 * once the open's first reads are done, so that they do not queue behind
 * the load's (the first commit to wait for the load starts it anyway). */
void rl_catalog_start_load(rl_catalog *cat);
/* A failed catalog that reopening the store recovers: false when not
 * failed, or when its journal file is no longer at its path (the store's
 * directory was removed, moved or replaced: an operator must look). */
bool rl_catalog_heals(rl_catalog *cat);
/* Why it failed, in words ("" when it has not). */
const char *rl_catalog_failed_why(rl_catalog *cat);
/* Stop a failed catalog's writer (its lease heartbeat and SlateDB's writer)
 * so the store can be opened again in this process; the catalog is still
 * freed with rl_catalog_close. -1 (58030) when the store did not answer
 * within the store timeout. */
int rl_catalog_shutdown(rl_catalog *cat, rl_error *err);
bool rl_catalog_read_only(const rl_catalog *cat);
/* A writer that a newer writer fenced (--takeover, a promoted standby), as
 * a commit or its lease heartbeat (within a fifth of the lease period)
 * found: nothing
 * it commits is taken any more. Sticky; false for readers. */
bool rl_catalog_fenced(rl_catalog *cat);
/* The store underneath, for tools that read raw keys (inspect, stats, check). */
kv_db *rl_catalog_kv(rl_catalog *cat);
/* What the catalog's store takes, in bytes (kv_size_bytes). */
uint64_t rl_catalog_size_bytes(rl_catalog *cat);

/* Current value of a counter (0 if never set). A writer keeps counters in
 * memory (it writes them); a follower's are read from the store. */
uint64_t rl_catalog_counter(rl_catalog *cat, const char *name);
/* rl_catalog_counter of next-snapshot-id: the id the next snapshot gets, 0
 * while DuckLake has written none (for the layers above, which do not
 * include tags.h). */
uint64_t rl_catalog_next_snapshot_id(rl_catalog *cat);

/* A row as seen by scans and gets. vals has d's columns (in the catalog's
 * format); strings borrow from the scan. */
typedef struct rl_row {
    const rl_table_desc *d;
    size_t ncols;
    rl_datum vals[RL_MAX_COLUMNS];
    uint64_t seq;        /* row sequence, for tables keyed by one */
    const uint8_t *key;  /* primary key bytes */
    size_t klen;
} rl_row;

/* Begin a transaction: its reads see one consistent snapshot of the store
 * taken now (plus its own writes). On a writer the snapshot holds durable
 * commits only: a commit still waiting for its flush is waited for first. */
rl_txn *rl_txn_begin(rl_catalog *cat, rl_error *err);
void rl_txn_free(rl_txn *txn);
/* READ COMMITTED: the transaction's reads move to a snapshot taken now
 * (what it buffered still applies on top). Commit validation still starts
 * at its first snapshot and compares values: a row it wrote from an older
 * view fails the commit with 40001 if another commit changed it since that
 * view, so no update is lost (where PostgreSQL would wait for the other
 * writer and re-apply). A refreshed transaction is never rebased by commit
 * sequencing (its reads came from more than one view). -1 with err (the
 * old view kept). */
int rl_txn_refresh(rl_txn *txn, rl_error *err);

/* Store writes are numbered as they reach the memtable (kv's numbering,
 * kv_written_seq): the last number a transaction's snapshot holds, and the
 * last number known durable (for tests and diagnostics; 0 on a follower). */
uint64_t rl_txn_snapshot_seq(const rl_txn *txn);
uint64_t rl_catalog_durable_seq(rl_catalog *cat);
/* Group commit: how many store flushes made how many writes durable
 * together since the lake opened. out[i] counts the groups of at most
 * 2^i writes (1, 2, 4, 8, 16, 32), the last one every larger group. */
#define RL_COMMIT_GROUP_BUCKETS 7
void rl_catalog_group_sizes(rl_catalog *cat, uint64_t out[RL_COMMIT_GROUP_BUCKETS]);
/* Where commits' time went since the lake opened, in nanoseconds: waiting
 * for the commit lock and holding it (validation, a sequenced commit's
 * rebase, the memtable write), and the group commit's leaders gathering
 * their groups and flushing them (one store flush per group). */
typedef struct rl_commit_times {
    uint64_t lock_wait_ns;
    uint64_t lock_held_ns;
    uint64_t gather_ns;
    uint64_t flush_ns;
    /* transactions' snapshots that waited for a flush before their first
     * read (taken while writes were in flight, with no durable view to
     * read instead), and the time they waited */
    uint64_t snapshot_waits;
    uint64_t snapshot_wait_ns;
} rl_commit_times;
void rl_catalog_commit_times(rl_catalog *cat, rl_commit_times *out);

/* Who and what, recorded in the audit entry (0x81) at commit. Strings are
 * copied. Any may be NULL. */
void rl_txn_set_audit(rl_txn *txn, const char *user, const char *application,
                      const char *client_addr);
/* Counted into the audit entry's "statements". */
void rl_txn_count_statement(rl_txn *txn);

/* Number of buffered writes (puts + deletes) so far. */
size_t rl_txn_pending(const rl_txn *txn);

/* Insert one row (row[i] is column i of d in the catalog's format).
 * Errors: 23502 NULL key column, 22003 negative id in a key column, 23505
 * duplicate PRIMARY KEY (PostgreSQL text, constraint "<table>_pkey"), 25006
 * read-only. A table without a PRIMARY KEY (rl_desc_keeps_duplicates) takes
 * any number of rows with equal key fields, as PostgreSQL does: each further
 * one is stored at the key plus a discriminator (keys.h), also when a
 * concurrent transaction inserts the same key fields and commits first. */
int rl_txn_insert(rl_txn *txn, const rl_table_desc *d, const rl_datum *row, rl_error *err);
/* INSERT ... ON CONFLICT's arbiters: would `row` of d collide with a row the
 * transaction sees (its own writes, its snapshot, or a commit since), under
 * the table's PRIMARY KEY (pk: a DuckLake table's own) or the UNIQUE indexes
 * whose ids are ids[0..nids) (all of the table's when ids is NULL)? 1 yes,
 * 0 no, -1 error; rowkey (NULL: not wanted) gets the key of the row it
 * collides with. Nothing is written or expected: the INSERT or UPDATE that
 * follows records its own expectations. */
int rl_txn_row_conflicts(rl_txn *txn, const rl_table_desc *d, const rl_datum *row, bool pk,
                         const uint64_t *ids, size_t nids, rl_buf *rowkey, rl_error *err);
/* The row of d stored at `key` (as rl_txn_get; the row lives until the
 * transaction's next get): 1 with *out, 0 none, -1 error. */
int rl_txn_get_key(rl_txn *txn, const rl_table_desc *d, const uint8_t *key, size_t klen,
                   const rl_row **out, rl_error *err);

/* Replace the row whose primary key is `oldkey` with `row` (which may move
 * it to another key when key columns change). The old row must exist in this
 * transaction's view. A dynamic table's row always moves to a new row
 * sequence, the last (PostgreSQL's heap puts the new version of an UPDATEd
 * row at the end, under a new ctid, even when no value changed). */
int rl_txn_update(rl_txn *txn, const rl_table_desc *d, const uint8_t *oldkey, size_t oldklen,
                  const rl_datum *row, rl_error *err);
/* rl_txn_update, and the key the row is stored at afterwards into newkey
 * (NULL: not wanted). */
int rl_txn_update_to(rl_txn *txn, const rl_table_desc *d, const uint8_t *oldkey, size_t oldklen,
                     const rl_datum *row, rl_buf *newkey, rl_error *err);
/* The row sequence in `key` (rl_row.key of a row of d, a table keyed by
 * one; d's rows are in that order): true with *seq, false for other keys. */
bool rl_row_key_seq(const rl_table_desc *d, const uint8_t *key, size_t klen, uint64_t *seq);

/* Delete the row with primary key `key` (a duplicate: only that one). */
int rl_txn_delete(rl_txn *txn, const rl_table_desc *d, const uint8_t *key, size_t klen,
                  rl_error *err);

/* Scan rows of d whose first `nfields` key fields equal fields[0..nfields)
 * (fields[i] is key field i), in key order, every version. */
rl_scan *rl_txn_scan(rl_txn *txn, const rl_table_desc *d, const rl_datum *fields,
                     size_t nfields, rl_error *err);
/* Same, but only rows whose end_snapshot is NULL, found through the live-row
 * index: cost follows live rows, not history. d->live_index must be set. */
rl_scan *rl_txn_scan_live(rl_txn *txn, const rl_table_desc *d, const rl_datum *fields,
                          size_t nfields, rl_error *err);
/* Before the first rl_scan_next: skip to the first row whose key is at or
 * after fields[0..nfields), where fields[0..nfields-1) are the scan's own
 * prefix fields and fields[nfields-1] a bound on the next key field. A
 * bound no key can have (a negative id) leaves the scan where it is. */
int rl_scan_seek(rl_scan *s, const rl_datum *fields, size_t nfields, rl_error *err);
/* For EXPLAIN: appends, as hex bytes ("02 00 00 ..."), the key a scan of d
 * by the leading key fields fields[0..nfields) starts at (as far as it
 * encodes when a field cannot be part of a key; nothing when out of
 * memory). Returns whether all of it encoded. */
bool rl_scan_start_hex(rl_buf *out, const rl_table_desc *d, const rl_datum *fields,
                       size_t nfields);
/* 1 and *out borrowed until the next call, 0 at the end, -1 on error. */
int rl_scan_next(rl_scan *s, const rl_row **out, rl_error *err);
/* Keys read from the store by this scan so far (for tests and EXPLAIN ANALYZE). */
uint64_t rl_scan_keys_read(const rl_scan *s);
void rl_scan_free(rl_scan *s);

/* Point read by the full key (all key fields; tables keyed by a row sequence
 * take it as the last field, as an int8 datum). 1 found, 0 absent, -1 error.
 * In a table that keeps duplicates this reads the row at the natural key
 * only; a scan of all key fields returns every row that has them. */
int rl_txn_get(rl_txn *txn, const rl_table_desc *d, const rl_datum *fields,
               const rl_row **out, rl_error *err);

/* Does the row stored at `key` (rl_row.key of a row of d, duplicates
 * included) exist in this transaction's view? 1 yes, 0 no (also for bytes
 * that are no key of d), -1 error. */
int rl_txn_row_exists(rl_txn *txn, const rl_table_desc *d, const uint8_t *key, size_t klen,
                      rl_error *err);

/* MVCC: begin_snapshot <= s and (end_snapshot NULL or end_snapshot > s).
 * Tables without MVCC columns are always visible. */
bool rl_row_visible_at(const rl_row *row, uint64_t snapshot);

/* Commit: validate, then write every buffered row, counter bump and the
 * audit entry as one atomic, durable batch. On error nothing is written and
 * the transaction is finished either way (free it). A transaction with no
 * writes commits without touching the store. */
/* Savepoints: a copy of what the transaction has buffered (its writes and
 * what its commit checks), which rl_txn_restore puts back, dropping all
 * written since. The transaction's snapshot is not part of it. The caller
 * owns the savepoint (rl_txn_savepoint_free; NULL is fine). */
typedef struct rl_txn_savepoint rl_txn_savepoint;
rl_txn_savepoint *rl_txn_save(rl_txn *txn, rl_error *err);
int rl_txn_restore(rl_txn *txn, const rl_txn_savepoint *sp, rl_error *err);
void rl_txn_savepoint_free(rl_txn_savepoint *sp);
int rl_txn_commit(rl_txn *txn, rl_error *err);
/* Has the transaction written anything (a row, a key, its format)? */
bool rl_txn_has_writes(const rl_txn *txn);

/* Dynamic tables (ducklake_inlined_data_*, ducklake_inlined_delete_*): their
 * definitions live under 0x82 and a name index under 0x80 03; rows under
 * 0xFD | dyn id | seq. The returned descriptor is owned by the catalog and
 * valid until the catalog is closed. */
const rl_table_desc *rl_txn_create_dynamic(rl_txn *txn, const char *schema, const char *name,
                                           size_t ncols, const rl_column_desc *cols,
                                           bool if_not_exists, rl_error *err);
/* NULL with err->sqlstate 42P01 if absent. */
const rl_table_desc *rl_txn_find_dynamic(rl_txn *txn, const char *schema, const char *name,
                                         rl_error *err);
/* Drop a dynamic table and all its rows. */
int rl_txn_drop_dynamic(rl_txn *txn, const rl_table_desc *d, rl_error *err);

/* SQL-visible names. CREATE TABLE of a DuckLake table registers its fixed
 * descriptor under a schema; dynamic tables register themselves. The name
 * index (0x80 03 schema name) maps a name to a fixed tag (1-byte value) or a
 * dynamic id (8-byte value), so one lookup serves both. A catalog holds one
 * DuckLake metadata schema: registering a fixed table in a second schema is
 * refused with 0A000. */
int rl_txn_register_fixed(rl_txn *txn, const char *schema, const rl_table_desc *d,
                          bool if_not_exists, rl_error *err);
/* The same with `nextra` columns of the client's own after the format's
 * (ducklakepy's "1.1" adds ducklake_schema.parent_schema_id and the stats
 * tables' min_is_exact / max_is_exact, which DuckDB's 1.1 does not have):
 * nullable, appended to the rows' values; rows written without them read
 * NULL. Refused (0A000) on a table the catalog reads itself
 * (d->catalog_reads). The name index value then holds them (rl_name_entry)
 * and the table resolves to an extended descriptor for SQL, pg_catalog and
 * the value codec. nextra 0 is rl_txn_register_fixed. */
int rl_txn_register_fixed_ext(rl_txn *txn, const char *schema, const rl_table_desc *d,
                              size_t nextra, const rl_column_desc *extra, bool if_not_exists,
                              rl_error *err);
/* ALTER TABLE ... ADD COLUMN of a column of the client's own to fixed table
 * `d` (as found, possibly extended already): re-registers it with one more
 * extension column. Same rules as rl_txn_register_fixed_ext. */
int rl_txn_extend_fixed(rl_txn *txn, const char *schema, const rl_table_desc *d,
                        const rl_column_desc *col, rl_error *err);

/* A name index value (0x80 03 schema name -> table): a fixed table's tag (1
 * byte); a fixed table with extension columns ([tag][format][the columns as
 * a dynamic definition encodes them]); or a dynamic table's id (8 bytes
 * big-endian, first byte 0: ids stay below 2^56). false if malformed. */
typedef struct rl_name_entry {
    uint8_t tag;           /* fixed table; 0 for a dynamic one */
    uint64_t dyn_id;       /* dynamic table */
    rl_format ext_fmt;     /* extension: the format the table's shape is taken from */
    const uint8_t *ext;    /* extension columns (borrowed from the value), or NULL */
    size_t ext_len;
} rl_name_entry;
bool rl_name_entry_decode(const uint8_t *v, size_t vl, rl_name_entry *out);
/* Fixed table `base` in format `fmt` with the extension columns `colbytes`
 * appended (since = fmt), owned by the caller (rl_dynamic_desc_free); NULL if
 * they do not decode, duplicate a name or exceed RL_MAX_COLUMNS. For tools. */
rl_table_desc *rl_fixed_desc_extend(const rl_table_desc *base, rl_format fmt,
                                    const uint8_t *colbytes, size_t len);
/* An index a client created on a table (CREATE INDEX). Its definition is
 * the value of 0x80 05 schema name: u8 version (1), the table's name
 * (uvarint length, bytes; the index's schema), u8 method, u8 flags, uvarint
 * ncols, then per key column its name (uvarint length, bytes) and u8
 * options. Column names, not positions: a dynamic table's rebuild keeps them.
 * A UNIQUE index (flags bit 0; bit 1 NULLS NOT DISTINCT; bit 2 a UNIQUE
 * constraint's, bit 3 with it the PRIMARY KEY's) then holds its
 * id (8 bytes, big-endian, from counter next-unique-index-id), which keys
 * its entries (0x80 07 id | key values -> row key, kept by every row write:
 * rows.c, uniques.c). Other indexes keep no entries: the definition is what
 * PostgreSQL's catalogs show (pg_class, pg_index, pg_indexes,
 * pg_get_indexdef, psql \d), and RockLake reads in its own key order. */
#define RL_INDEX_MAX_KEYS 32 /* PostgreSQL's INDEX_MAX_KEYS */
#define RL_INDEX_NAME_MAX 64 /* NAMEDATALEN: names are shorter */
typedef enum rl_index_method {
    RL_INDEX_BTREE = 0,
    RL_INDEX_HASH = 1,
    RL_INDEX_BRIN = 2,
    RL_INDEX_SPGIST = 3
} rl_index_method;
#define RL_INDEX_COL_DESC 0x01
#define RL_INDEX_COL_NULLS_FIRST 0x02
#define RL_INDEX_COL_EXPR 0x04 /* an expression: cols[i] is its index column's name */
#define RL_INDEX_TEXT_MAX 8192 /* the expressions' and the predicate's texts together */
/* Version 2 of the value (written when an index has an expression, a
 * predicate or INCLUDE columns; version 1 still decodes): flags bit 4
 * partial; a key column with option bit 2 is an expression: its index
 * column's name (FigureIndexColname's), u8 options, u32 the expression's
 * type oid, its typmod (zigzag varint, -1 none), its plain and pretty texts (each uvarint length, bytes); then
 * uvarint ninclude and the INCLUDE columns' names; then, partial, the
 * predicate's plain and pretty texts. The texts are pg_get_indexdef's
 * (ruleutils' plain and pretty printing, written by the SQL layer: the
 * catalog never reads them). */
typedef struct rl_index_def {
    char table[RL_INDEX_NAME_MAX];
    rl_index_method method;
    size_t ncols; /* 1..RL_INDEX_MAX_KEYS */
    char cols[RL_INDEX_MAX_KEYS][RL_INDEX_NAME_MAX];
    uint8_t opts[RL_INDEX_MAX_KEYS]; /* RL_INDEX_COL_* */
    bool unique;             /* btree only; entries enforce it */
    bool nulls_not_distinct; /* unique only: NULLs collide too */
    bool constraint;         /* unique only: a UNIQUE or PRIMARY KEY constraint's index
                              * (pg_constraint lists it; DROP CONSTRAINT drops it) */
    bool primary;            /* constraint only: the PRIMARY KEY's */
    uint64_t id;             /* unique only: its entries' id (0 = not allocated yet) */
    size_t ninclude;         /* INCLUDE columns: cols[ncols .. ncols + ninclude), by name */
    bool partial;            /* a WHERE predicate (its texts after the expressions') */
    uint32_t expr_type[RL_INDEX_MAX_KEYS]; /* an expression column's type oid */
    int32_t expr_typmod[RL_INDEX_MAX_KEYS]; /* and typmod (-1: none) */
    size_t text_len;                       /* bytes of text in use */
    char text[RL_INDEX_TEXT_MAX]; /* per expression column in order, then the predicate:
                                   * plain NUL pretty NUL */
} rl_index_def;
/* Append one text pair (an expression's or, last, the predicate's) to d;
 * false when d->text has no room for it. */
bool rl_index_def_add_text(rl_index_def *d, const char *plain, const char *pretty);
/* Expression column col's text (opts & RL_INDEX_COL_EXPR), or the
 * predicate's (NULL unless partial), plain or pretty. */
const char *rl_index_def_expr(const rl_index_def *d, size_t col, bool pretty);
const char *rl_index_def_pred(const rl_index_def *d, bool pretty);
/* Does d use table column `col` (a key or INCLUDE column by name; an
 * expression or predicate is not looked into: the SQL layer does)? */
bool rl_index_def_names_column(const rl_index_def *d, const char *col);
void rl_index_def_encode(rl_buf *b, const rl_index_def *d);
/* false if malformed: an unknown version, method, flag or option, a name
 * empty, too long or holding NUL, no or too many columns, trailing bytes. */
bool rl_index_def_decode(const uint8_t *v, size_t vl, rl_index_def *out);
/* The names of an index's columns as PostgreSQL's pg_attribute lists them
 * (ChooseIndexColumnNames): each key column's name, a repeated one made
 * unique by a number (a, a1, a2 ...), shortened to fit with it. */
void rl_index_column_names(const rl_index_def *d, char names[][RL_INDEX_NAME_MAX]);
/* The key of `row`'s entry in UNIQUE index def on table d (format fmt) into
 * key: 0x80 07 | def->id | per key column 00 (NULL, NULLS NOT DISTINCT
 * only) or 01, uvarint length and rl_datum_equality_key's bytes. 1 made;
 * 0 none (a NULL key column with NULLS DISTINCT, or a column d lacks: a
 * dynamic table being rebuilt in a new shape); -1 out of memory; -2 longer
 * than RL_UNIQUE_ENTRY_MAX (a store key; PostgreSQL's btree refuses rows
 * over 2704 bytes after compression). Pure: `rocklake check` uses it. */
#define RL_UNIQUE_ENTRY_MAX 4096
int rl_unique_entry_key(rl_buf *key, const rl_index_def *def, const rl_table_desc *d,
                        rl_format fmt, const rl_datum *row);
/* Is def's key computed (an expression column or a predicate)? Its
 * entries then need the SQL layer's evaluation (rl_index_fn). */
bool rl_index_def_computed(const rl_index_def *def);
/* The same from the key columns' values vals[0..def->ncols) of types
 * types (an index over expressions: rl_index_fn's): 1, 0 (a NULL with
 * NULLS DISTINCT), -1, -2 as rl_unique_entry_key. */
int rl_unique_entry_key_of(rl_buf *key, const rl_index_def *def, const rl_type *types,
                           const rl_datum *vals);

/* A FOREIGN KEY constraint (0x80 08 schema table name -> its definition:
 * u8 version (1; 2 for a DEFERRABLE key; 3 for a key with a text or
 * varchar column referencing a character(n) one), u8 flags (bit 0 MATCH
 * FULL, bit 1 NOT VALID; versions 2 and 3: bit 2 DEFERRABLE, bit 3
 * INITIALLY DEFERRED), the
 * ON UPDATE and ON DELETE actions (one byte each, pg_constraint's letters),
 * the referenced UNIQUE index's id (8 bytes), the fkey's own id (8 bytes,
 * from counter next-foreign-key-id: its entries' key), uvarint ncols, then
 * per key column its name in the referencing table (uvarint length, bytes)
 * and the position (u8) of the referenced column in the UNIQUE index's key;
 * version 3 then the be32 mask rl_fkey_def.bpchar_cols. The referenced table and columns are the index's: they follow its
 * renames with no change here. Every referencing row whose key columns
 * are all non-NULL keeps an entry 0x80 09 id | key values | row key (rows.c,
 * fkeys.c), which a referenced row's DELETE or key UPDATE looks up. */
#define RL_FKEY_NO_ACTION 'a'
#define RL_FKEY_RESTRICT 'r'
#define RL_FKEY_CASCADE 'c'
#define RL_FKEY_SET_NULL 'n'
#define RL_FKEY_SET_DEFAULT 'd'
typedef struct rl_fkey_def {
    size_t ncols; /* 1..RL_INDEX_MAX_KEYS */
    char cols[RL_INDEX_MAX_KEYS][RL_INDEX_NAME_MAX];
    uint8_t ref_pos[RL_INDEX_MAX_KEYS]; /* the referenced index's key column of each */
    uint64_t ref_index_id;              /* the referenced UNIQUE index (rl_index_def.id) */
    char on_update, on_delete;          /* RL_FKEY_* */
    bool match_full, not_valid;
    bool deferrable, initially_deferred; /* initially_deferred only if deferrable */
    uint64_t id; /* its entries' id (0 = not allocated yet) */
    /* bit j: column j (text or varchar) references a character(n) column,
     * so its values are keyed as bpchar's equality sees them, without
     * their trailing blanks (PostgreSQL compares them with bpchar's =) */
    uint32_t bpchar_cols;
} rl_fkey_def;
void rl_fkey_def_encode(rl_buf *b, const rl_fkey_def *d);
/* false if malformed: an unknown version, flag or action, a name empty, too
 * long or holding NUL, no or too many columns, a position past the index's
 * maximum, a zero id, version 3's bpchar mask 0 or past the columns,
 * trailing bytes. */
bool rl_fkey_def_decode(const uint8_t *v, size_t vl, rl_fkey_def *out);

/* The DuckLake format (table shapes) this transaction sees: the catalog's
 * at its start, or what it set. */
rl_format rl_txn_format(const rl_txn *txn);
/* Switch the catalog to format `fmt` (a migration 1.0 -> 1.1 or a fresh
 * catalog created with 1.1's tables): this transaction sees the new shapes at
 * once, and the catalog takes them at COMMIT, in the same batch as the
 * transaction's rows (system key ducklake-format). Rows written earlier keep
 * their keys and values: a value with fewer columns reads NULL for the
 * appended ones. A concurrent format change is 40001 at commit. */
int rl_txn_set_format(rl_txn *txn, rl_format fmt, rl_error *err);
/* Columns of `d` as this transaction sees the table (its format, or the one
 * before a migration the transaction has not brought this table to yet). */
size_t rl_txn_table_ncols(const rl_txn *txn, const rl_table_desc *d);
/* A migration's ALTER TABLE of DuckLake table `d` to format `fmt` (ADD COLUMN
 * of the column fmt appends): the first one switches the transaction to fmt
 * (rl_txn_set_format) and leaves every other table whose shape differs in
 * the old shape until its own ALTER; each brings its table along. */
int rl_txn_migrate_table(rl_txn *txn, const rl_table_desc *d, rl_format fmt, rl_error *err);
/* Is `d` still in the old shape of a migration in progress? */
bool rl_txn_table_lagging(const rl_txn *txn, const rl_table_desc *d);
/* The schema that holds this catalog's DuckLake fixed tables, written to
 * out ("" if none is registered yet). 0, or -1 with err. */
int rl_txn_fixed_schema(rl_txn *txn, char *out, size_t n, rl_error *err);
/* Fixed or dynamic descriptor of schema.name; NULL + 42P01 if absent. */
const rl_table_desc *rl_txn_find_table(rl_txn *txn, const char *schema, const char *name,
                                       rl_error *err);
/* Drop schema.name: a dynamic table with its rows, or a fixed table's
 * registration and every row of its tag. 42P01 if absent. */
int rl_txn_drop_table(rl_txn *txn, const char *schema, const char *name, rl_error *err);

/* The state of the transaction's relations (registered tables, their
 * columns and format, schemas): a value no other transaction or state ever
 * has, taken at begin and anew by every call that may change them
 * (create/drop/register/migrate/set_format/schemas). Equal values: the same
 * tables, columns and schemas as the last time. */
uint64_t rl_txn_relations_version(const rl_txn *txn);

/* Visit every registered table in (schema, name) order. The visitor returns
 * 0 to go on, anything else to stop (that value is returned). */
typedef int (*rl_table_visitor)(void *ctx, const char *schema, const char *name,
                                const rl_table_desc *d);
int rl_txn_list_tables(rl_txn *txn, rl_table_visitor visit, void *ctx, rl_error *err);

/* Indexes created by CREATE INDEX (0x80 05 schema name -> rl_index_def).
 * find: 1 with *out, 0 absent, -1 error (XX001 if it does not decode).
 * create: 42P07 if a table or index holds the name (it then stays free
 * until commit); a UNIQUE one gets its id and the entries of the table's
 * rows (23505 "could not create unique index" on a duplicate), and the
 * table must stay unchanged by others until COMMIT (40001). replace (e.g. the table renamed) and drop: 42704 if
 * absent. list: in (schema, name) order; the visitor returns 0 to go on. */
int rl_txn_find_index(rl_txn *txn, const char *schema, const char *name, rl_index_def *out,
                      rl_error *err);
int rl_txn_create_index(rl_txn *txn, const char *schema, const char *name,
                        const rl_index_def *d, rl_error *err);
int rl_txn_replace_index(rl_txn *txn, const char *schema, const char *name,
                         const rl_index_def *d, rl_error *err);
int rl_txn_drop_index(rl_txn *txn, const char *schema, const char *name, rl_error *err);
/* ALTER INDEX ... RENAME: the definition (and a UNIQUE index's entries,
 * keyed by its id) kept under newname; 42P07 as create. */
int rl_txn_rename_index(rl_txn *txn, const char *schema, const char *name, const char *newname,
                        rl_error *err);
typedef int (*rl_index_visitor)(void *ctx, const char *schema, const char *name,
                                const rl_index_def *d);
int rl_txn_list_indexes(rl_txn *txn, rl_index_visitor visit, void *ctx, rl_error *err);

/* FOREIGN KEY constraints. find: 1 with *out, 0 absent, -1 error (XX001 if
 * it does not decode). create (schema.table the referencing table): an id,
 * the definition, an entry per referencing row, each row's referenced key
 * checked unless NOT VALID (23503 with PostgreSQL's texts); both tables must
 * stay unchanged by others until COMMIT (40001). replace: the definition
 * under a new table name and/or content (same id), its entries made again
 * from the table's rows (a renamed or rebuilt table's row keys changed),
 * each row's referenced key checked when a NOT VALID key becomes valid.
 * drop: the definition and its entries. list: in (schema, table, name)
 * order of every FOREIGN KEY (schema NULL) or of schema.table. */
int rl_txn_find_fkey(rl_txn *txn, const char *schema, const char *table, const char *name,
                     rl_fkey_def *out, rl_error *err);
int rl_txn_create_fkey(rl_txn *txn, const char *schema, const char *table, const char *name,
                       const rl_fkey_def *d, rl_error *err);
int rl_txn_replace_fkey(rl_txn *txn, const char *schema, const char *table, const char *name,
                        const char *newtable, const char *newname, const rl_fkey_def *d,
                        rl_error *err);
int rl_txn_drop_fkey(rl_txn *txn, const char *schema, const char *table, const char *name,
                     rl_error *err);
typedef int (*rl_fkey_visitor)(void *ctx, const char *schema, const char *table,
                               const char *name, const rl_fkey_def *d);
int rl_txn_list_fkeys(rl_txn *txn, const char *schema, const char *table, rl_fkey_visitor visit,
                      void *ctx, rl_error *err);
/* The checks a referenced row's DELETE or key UPDATE leaves for the end of
 * the statement (NO ACTION, as PostgreSQL checks it then: a statement that
 * removes a referenced row and its referencing rows, in any order, is
 * fine): 23503 if a row still references a key no row holds any more. The
 * SQL layer calls it when a writing statement ends; COMMIT calls it too. */
int rl_txn_fkey_statement_end(rl_txn *txn, rl_error *err);
/* COMMIT's (and a sequenced commit's replay's) run of every check still
 * waiting, DEFERRED keys' included, in the order they were left: 0, or -1
 * with the first one's 23503; none waits afterwards either way. The SQL
 * layer runs them before the last statement of an implicit transaction
 * completes, as PostgreSQL's commit does. */
int rl_txn_fkey_deferred_checks(rl_txn *txn, rl_error *err);
/* Does a check waiting for COMMIT involve table d (a referencing row of
 * it, or a key of it that went)? PostgreSQL's "pending trigger events" of
 * the table, which its ALTER TABLE and DROP TABLE refuse (55006). 1, 0, or
 * -1 with err. */
int rl_txn_fkey_pending_on(rl_txn *txn, const rl_table_desc *d, rl_error *err);
/* SET CONSTRAINTS: the DEFERRABLE FOREIGN KEYs whose ids are listed (ids
 * NULL: ALL of them, which forgets the names set before) are DEFERRED or
 * IMMEDIATE for the rest of the transaction. A DEFERRED key's checks (a
 * referencing row's key present, NO ACTION's "no row references the key
 * that went") wait for COMMIT; made IMMEDIATE, the checks waiting for it
 * run now: 0, or -1 with the first one's 23503. RESTRICT and the actions
 * that write rows (CASCADE, SET NULL, SET DEFAULT) never wait. */
int rl_txn_set_constraints(rl_txn *txn, const uint64_t *ids, size_t n, bool deferred,
                           rl_error *err);
/* The UNIQUE index whose id is `id` (a FOREIGN KEY's referenced one): 1
 * with its schema and name (RL_INDEX_NAME_MAX each) and definition, 0 if
 * the view has none, -1 with err. */
int rl_txn_unique_index_by_id(rl_txn *txn, uint64_t id, char *schema, char *name,
                              rl_index_def *def, rl_error *err);
/* The column defaults a FOREIGN KEY's SET DEFAULT action writes: the
 * catalog keeps their texts and cannot evaluate them, so the SQL layer
 * hands it this (per statement; NULL: NULLs, as with no default). It puts
 * the default of column `col` of table d (schema.table) into *out, NULL if
 * the column has none, its bytes in `arena` (valid until the row is
 * written); 0 or -1 with err. */
typedef int (*rl_default_fn)(void *ctx, const char *schema, const rl_table_desc *d,
                             size_t col, rl_arena *arena, rl_datum *out, rl_error *err);
/* The value an ON UPDATE CASCADE writes to column `col` of table d
 * (schema.table) when the referenced column's type `from` or typmod is not
 * the column's: the new key `in` (not NULL) assigned to the column as
 * PostgreSQL's UPDATE assigns it (padded to a character(n), cut or 22001
 * when too long, 22003 out of an integer's range), its bytes in `arena`
 * (valid until the row is written); 0 or -1 with err. Handed with the
 * default_fn (NULL: the key is written as it is). */
typedef int (*rl_assign_fn)(void *ctx, const char *schema, const rl_table_desc *d, size_t col,
                            rl_type from, const rl_datum *in, rl_arena *arena, rl_datum *out,
                            rl_error *err);
void rl_txn_set_default_fn(rl_txn *txn, rl_default_fn fn, rl_assign_fn assign, void *ctx);
/* The key of a row in a UNIQUE index over expressions or with a predicate
 * (rl_index_def_computed): the catalog keeps the index's texts and cannot
 * evaluate them, so the SQL layer hands every transaction it begins this
 * function. For `row` (the columns of table d in the transaction's format)
 * and index def (in `schema`), it puts each key column's value into
 * vals[0..def->ncols) and its type into types (a column's as the row has
 * it, an expression's evaluated and of the expression's type; strings in
 * `arena`): 1 the row is in the index, 0 it is not (its predicate is not
 * true; or the texts name a column d lacks: a table rebuilt in a new
 * shape, whose indexes follow it afterwards), -1 with err (the
 * evaluation's error). A row write to a table with such an index in a
 * transaction without it (the catalog's API below the SQL layer) is
 * refused with 0A000, and commit sequencing never rebases one. */
typedef int (*rl_index_fn)(void *ctx, const char *schema, const rl_index_def *def,
                           const rl_table_desc *d, const rl_datum *row, rl_arena *arena,
                           rl_datum *vals, rl_type *types, rl_error *err);
void rl_txn_set_index_fn(rl_txn *txn, rl_index_fn fn, void *ctx);
/* Off: row writes keep FOREIGN KEY entries but check no referenced key (a
 * rebuild writing back rows that were valid, in any order), and a
 * referenced row's DELETE or key UPDATE checks and does nothing (TRUNCATE,
 * which deletes every referencing table's rows in the same statement). */
void rl_txn_fkey_checks(rl_txn *txn, bool on);
/* CHECK constraints (0x80 0A schema table name -> definition, checks.c).
 * The catalog stores and lists them; the expression's texts are what the
 * SQL layer wrote (pg_get_constraintdef's, plain and pretty: the plain one
 * re-parses to the same meaning, and is what the SQL layer evaluates) and
 * the catalog never reads them. With them the columns the expression uses
 * (pg_constraint.conkey), so that the catalogs are answered without
 * analysing the expression again.
 * put: def NULL is drop_check's. rows_read (the table, or NULL): the SQL
 * layer checked the table's rows against it, so they must stay unchanged by
 * others until COMMIT (40001). Either call moves the UNIQUE generation
 * (uniques.c): writers whose rows were checked under the older definitions
 * fail their COMMIT (40001). rl_txn_checks: every CHECK the transaction
 * sees, in key order (schema, table, name: PostgreSQL checks a table's in
 * name order), borrowed until its next DDL or snapshot; *stamp differs
 * whenever the list may (a value unique in the process): the SQL layer's
 * cache of parsed expressions is keyed by it. A lake without CHECKs pays
 * one integer comparison per transaction. */
typedef struct rl_check_def {
    char table[RL_INDEX_NAME_MAX];
    bool not_valid, no_inherit;
    const char *expr;   /* plain text, NUL-terminated */
    const char *pretty; /* pretty text, NUL-terminated */
    size_t nconkey;
    int16_t conkey[RL_MAX_COLUMNS]; /* attnums, in order of appearance */
    char identity; /* a DEFAULT's: 'a' GENERATED ALWAYS / 'd' BY DEFAULT AS IDENTITY, 0 */
} rl_check_def;
typedef struct rl_check_con {
    char schema[RL_INDEX_NAME_MAX], name[RL_INDEX_NAME_MAX];
    rl_check_def def;
} rl_check_con;
/* Value: u8 version (1), u8 flags (bit 0 NOT VALID, bit 1 NO INHERIT, bit 2
 * an identity column's GENERATED ALWAYS, bit 3 its BY DEFAULT), the
 * plain and the pretty text (each uvarint length, UTF-8 bytes without NUL),
 * uvarint nconkey, each attnum (uvarint). decode: out->table is the key's
 * (set by the caller); both texts are copied into text_buf[text_n] (false
 * if they do not fit). */
void rl_check_def_encode(rl_buf *b, const rl_check_def *d);
bool rl_check_def_decode(const uint8_t *v, size_t vl, rl_check_def *out, char *text_buf,
                         size_t text_n);
#define RL_CHECK_TEXT_MAX 32768 /* both texts with their NULs */
int rl_txn_put_check(rl_txn *txn, const char *schema, const char *name, const rl_check_def *def,
                     const rl_table_desc *rows_read, rl_error *err);
int rl_txn_drop_check(rl_txn *txn, const char *schema, const char *table, const char *name,
                      rl_error *err);
int rl_txn_checks(rl_txn *txn, const rl_check_con **out, size_t *n, uint64_t *stamp, rl_error *err);
/* The definitions stored for schema.table, whether or not the table exists
 * in the view (it was just dropped or renamed: its CHECKs follow), in name
 * order; the visitor returns 0 to go on; XX001 for one that does not decode. */
typedef int (*rl_check_visitor)(void *ctx, const rl_check_con *c);
int rl_txn_table_checks(rl_txn *txn, const char *schema, const char *table,
                        rl_check_visitor visit, void *ctx, rl_error *err);

/* Column DEFAULTs (0x80 0B schema table column -> definition, checks.c):
 * the value a CHECK's is (rl_check_def, flags and attnums empty), holding
 * pg_get_expr's texts of the default as the SQL layer analysed it, plain
 * (what it evaluates) and pretty; the catalog never reads them. put: expr
 * NULL drops the column's default. Either moves the UNIQUE generation,
 * as a CHECK's DDL does. rl_txn_defaults: every default the transaction
 * sees, in key order, as rl_check_con whose name is the column's (borrowed
 * and stamped as rl_txn_checks'); a lake without defaults pays one integer
 * comparison per transaction. rl_txn_table_defaults: schema.table's,
 * whether or not the table exists in the view (as rl_txn_table_checks). */
int rl_txn_put_default(rl_txn *txn, const char *schema, const char *table, const char *column,
                       const char *expr, const char *pretty, rl_error *err);
/* The same from a whole definition (def->table the table; an identity
 * column's flag kept: renames write what they listed). */
int rl_txn_put_default_def(rl_txn *txn, const char *schema, const char *column,
                           const rl_check_def *def, rl_error *err);
int rl_txn_defaults(rl_txn *txn, const rl_check_con **out, size_t *n, uint64_t *stamp,
                    rl_error *err);
int rl_txn_table_defaults(rl_txn *txn, const char *schema, const char *table,
                          rl_check_visitor visit, void *ctx, rl_error *err);

/* Sequences (CREATE SEQUENCE; seqobj.c). A definition (0x80 0C schema
 * name -> rl_seq_def) is transactional DDL like a table's; the state it
 * names by `id` (0x80 0D id -> last value, called) is not: nextval/setval
 * change it at once, for every session, whatever becomes of the caller's
 * transaction, and a value handed out is never handed out again, across
 * restarts and crashes too (the state is logged RL_SEQ_LOG_VALS values
 * ahead, durably, before a value of the new range is returned). A new id
 * (with the state `initial` / `initial_called` until its first write) is
 * how CREATE and ALTER ... RESTART start over transactionally. The SQL
 * layer checks the options (PostgreSQL's 22023s); the catalog checks the
 * namespace (42P07 against tables and sequences alike). */
#define RL_SEQ_LOG_VALS 32
typedef struct rl_seq_def {
    uint64_t id;              /* the state's key; rl_txn_create_sequence assigns it */
    uint8_t type_bytes;       /* 2 smallint, 4 integer, 8 bigint */
    bool cycle;
    int64_t start, increment, min, max, cache;
    int64_t initial;          /* the state while none is written: last value */
    bool initial_called;      /* ... and is_called */
    char owned_table[RL_INDEX_NAME_MAX];  /* OWNED BY (same schema); "" none */
    char owned_column[RL_INDEX_NAME_MAX];
} rl_seq_def;
typedef struct rl_seq_state {
    int64_t last_value, log_cnt;
    bool is_called;
} rl_seq_state;
void rl_seq_def_encode(rl_buf *b, const rl_seq_def *d);
bool rl_seq_def_decode(const uint8_t *v, size_t vl, rl_seq_def *out); /* pure */
/* CREATE: 42P07 when a table or sequence holds the name (if_not_exists: 0
 * and nothing written, *created false). def->id set. */
int rl_txn_create_sequence(rl_txn *txn, const char *schema, const char *name, rl_seq_def *def,
                           bool if_not_exists, bool *created, rl_error *err);
/* 1 with *out, 0 absent, -1 error (XX001 one that does not decode). */
int rl_txn_get_sequence(rl_txn *txn, const char *schema, const char *name, rl_seq_def *out,
                        rl_error *err);
/* ALTER: the definition replaced (new_id: a fresh id for a RESTART, whose
 * state starts at def->initial / initial_called). The sequence must exist. */
int rl_txn_alter_sequence(rl_txn *txn, const char *schema, const char *name, rl_seq_def *def,
                          bool new_id, rl_error *err);
/* DROP, and RENAME (to a free name: 42P07). */
int rl_txn_drop_sequence(rl_txn *txn, const char *schema, const char *name, rl_error *err);
int rl_txn_rename_sequence(rl_txn *txn, const char *schema, const char *name,
                           const char *new_name, rl_error *err);
typedef int (*rl_seq_visitor)(void *ctx, const char *schema, const char *name,
                              const rl_seq_def *def);
/* Every sequence (schema NULL) or a schema's, in key order. */
int rl_txn_list_sequences(rl_txn *txn, const char *schema, rl_seq_visitor visit, void *ctx,
                          rl_error *err);
/* nextval: *first the value to return, *last the last one this call took
 * (cache > 1: the caller's session hands out first..last itself). 2200H
 * at the end of a sequence without CYCLE (name for the message), 25006 on
 * a follower. Durable before it returns whenever it logged ahead. */
int rl_txn_sequence_next(rl_txn *txn, const char *name, const rl_seq_def *def, int64_t *first,
                         int64_t *last, rl_error *err);
/* nextval's arithmetic on state *s of sequence d (name for the 2200H
 * message), pure: *s advanced, *first / *last as rl_txn_sequence_next's;
 * *logit when it logged ahead, with *log_value the value the log would
 * hold (the caller writes it before using *s). 0 or -1 (2200H, *s kept).
 * rl_txn_sequence_next runs it on the stored state; a temporary
 * sequence's session runs it on its own, `unlogged`: as PostgreSQL's
 * never-WAL-logged page, every call logs ahead again (log_cnt 32 after
 * each nextval). */
int rl_seq_state_advance(const rl_seq_def *d, const char *name, bool unlogged,
                         rl_seq_state *s, int64_t *first, int64_t *last, bool *logit,
                         int64_t *log_value, rl_error *err);
/* setval: the state set, durably (the caller checked the bounds). */
int rl_txn_sequence_set(rl_txn *txn, const rl_seq_def *def, int64_t value, bool is_called,
                        rl_error *err);
/* ALTER SEQUENCE without RESTART: the values logged ahead given up, as
 * PostgreSQL's rewritten tuple (log_cnt 0; the next nextval logs again),
 * durably. 0 or -1. */
int rl_txn_sequence_log_reset(rl_txn *txn, const rl_seq_def *def, rl_error *err);
/* The current state (SELECT * FROM a sequence, ALTER's bound checks). */
int rl_txn_sequence_state(rl_txn *txn, const rl_seq_def *def, rl_seq_state *out, rl_error *err);
/* Whether a sequence holds schema.name (for CREATE TABLE's 42P07). */
int rl_txn_sequence_exists(rl_txn *txn, const char *schema, const char *name, rl_error *err);

/* Comments (COMMENT ON; 0x80 06 schema relation column -> the text): a
 * relation's own under column "", a schema's under relation "" and column
 * "". text NULL or "" removes it, as PostgreSQL does. The catalog does not
 * check that the object exists; the SQL layer does, and moves or drops a
 * relation's comments with it. list: in key order, of schema.relation
 * (relation NULL: all of the schema's; schema NULL: every comment); the
 * visitor returns 0 to go on; XX001 for an entry that does not decode. */
int rl_txn_set_comment(rl_txn *txn, const char *schema, const char *relation, const char *column,
                       const char *text, rl_error *err);
typedef int (*rl_comment_visitor)(void *ctx, const char *schema, const char *relation,
                                  const char *column, const char *text);
int rl_txn_list_comments(rl_txn *txn, const char *schema, const char *relation,
                         rl_comment_visitor visit, void *ctx, rl_error *err);

/* Schemas created with CREATE SCHEMA (0x80 04 index). "public" always
 * exists, as in a new PostgreSQL database. 42P06 if it exists already. */
int rl_txn_create_schema(rl_txn *txn, const char *schema, bool if_not_exists, rl_error *err);
bool rl_txn_schema_exists(rl_txn *txn, const char *schema);
/* Drop an empty schema (2BP01 if tables or sequences are in it, 3F000 if
 * absent; "public" cannot be dropped). */
int rl_txn_drop_schema(rl_txn *txn, const char *schema, rl_error *err);
typedef int (*rl_schema_visitor)(void *ctx, const char *schema);
int rl_txn_list_schemas(rl_txn *txn, rl_schema_visitor visit, void *ctx, rl_error *err);

/* Decode a dynamic table definition value (0x82) into a descriptor owned by
 * the caller (free with rl_dynamic_desc_free). For tools. */
rl_table_desc *rl_dynamic_desc_decode(uint64_t dyn_id, const uint8_t *val, size_t vlen,
                                      char *schema_out, size_t schema_n);
void rl_dynamic_desc_free(rl_table_desc *d);

/* ------------------------------------------------ for the wire layer (#17)
 * What `rocklake serve` needs of the stores, so that it never includes kv.h. */

/* kv_local_dir: the local directory a store URL names (file:// decoded, or a
 * plain path, made absolute); NULL for an object store. Malloc'd. */
char *rl_store_local_dir(const char *url);
/* kv_list_dirs: the names one level below `url`, each NUL-terminated, in
 * *out (malloc'd, *len bytes). 0, or -1 with err (58030). */
int rl_store_list_names(const char *url, char **out, size_t *len, rl_error *err);
/* kv_store_exists: is there a store at `url` at all? 1, 0, or -1 with err.
 * Creates nothing, where a writer's open would create an empty store. */
int rl_store_exists(const char *url, rl_error *err);
/* The store's figures, as the kv layer keeps them: one definition each
 * (kv.h), filled in place, never copied into look-alike structs.
 * rl_catalog_memory_stats (kv_mirror_stats of the catalog's store): 1 with
 * *out (keys, versions, bytes; broken: the copy outgrew its limit or ran
 * out of memory, reads use SlateDB) when it reads from an in-memory copy,
 * 0 (and *out zeroed) when not. rl_store_counters_get (kv_counters_get):
 * the process-wide store counters since start (gets, scans, keys_read,
 * batches_written, bytes_written). */
typedef kv_mirror_info rl_catalog_memory;
int rl_catalog_memory_stats(rl_catalog *cat, rl_catalog_memory *out);
/* A follower's idle backoff (kv_follower_backoff, rl_store_options
 * .follower_poll_max_ms): 1 with *poll_ms (its wait between requests for
 * new commits now) and *idle (1: it has seen no commit for a while and
 * polls less often), 0 when it never backs off (a writer, a local store,
 * the backoff off). */
int rl_catalog_follower_backoff(rl_catalog *cat, uint64_t *poll_ms, int *idle);
/* Where a writer's rl_catalog_open spent its time (ns): the lease check
 * before the store opened (object stores: a reader's open), the store's
 * open (kv_open_timing: SlateDB, journal, the load into memory, the digest
 * check), and the catalog's own steps after it (format, copy marker,
 * writer epoch, lease start). */
typedef struct rl_catalog_open_timing {
    uint64_t lease_check_ns;
    kv_open_timing store;
    uint64_t catalog_ns;
} rl_catalog_open_timing;
void rl_catalog_open_timing_get(const rl_catalog *cat, rl_catalog_open_timing *out);
typedef kv_counters rl_store_counters;
void rl_store_counters_get(rl_store_counters *out);
/* After a successful rl_txn_commit: true and *id = the id of the (largest)
 * DuckLake snapshot this transaction's own commit wrote (after any rebase
 * by commit sequencing), false if it wrote none. */
bool rl_txn_own_snapshot(const rl_txn *txn, uint64_t *id);

/* Snapshot retention. DuckLake's ducklake_expire_snapshots deletes snapshot
 * rows; snapshot ids are dense from 0, so every id below the oldest row left
 * was expired. A commit that deletes snapshot rows also sets the lake's
 * "retain-from" system key to the oldest one left, in the same batch. */
/* The oldest snapshot row in the transaction's view: 1 with its id and
 * snapshot_time (a timestamptz datum), 0 when the lake has none yet, -1 on
 * error. Ids below it were expired (the SQL layer's sql_timetravel.c turns
 * a DuckLake lookup of one into 72000). */
int rl_txn_oldest_snapshot(rl_txn *txn, int64_t *id, rl_datum *taken, rl_error *err);

#endif
