/*
 * catalog_int.h — what the catalog's files share: the catalog handle, a
 * transaction, a scan, and the internal calls between the files (private
 * to src/catalog/, src/LAYERS).
 *
 * The files call one another without a circle (scripts/check-circles.py),
 * bottom to top:
 *   storeio.c   kv errors as SQLSTATEs, the failed-store latch, system keys
 *   flush.c     write numbers and the group flush (durability)
 *   counters.c  counters in memory, row sequence numbers, the audit row
 *   txn.c       a transaction: snapshot, overlay, expectations
 *   format.c    table shapes per DuckLake format, a row's value bytes
 *   scan.c      reads: gets, merged scans, the live-row index, MVCC
 *   uniques.c   the UNIQUE indexes a transaction sees, their entries' keys
 *   sequence.c  commit sequencing's planner (reads through scan.c only)
 *   rows.c      row writes with PostgreSQL's constraint errors
 *   retention.c the oldest snapshot retained
 *   dyndesc.c   dynamic table definitions and the descriptor cache
 *   relations.c names, schemas, creating and dropping tables
 *   commit.c    validation, sequencing, the batch, the commit log
 *   lease.c     the writer lease (lease.h; calls none of the files above)
 *   open.c      open/create/close, the store figures for the layers above
 * A file calls only files listed above it (check-circles.py --edges
 * catalog/FILE.c shows who calls whom).
 *
 * Locks of a catalog: `lock` (counters, the descriptor cache, commit
 * serialization: functions named *_locked expect it held, and assert it),
 * `name_lock` (the name cache). Durability takes no catalog lock: it is
 * kv's group commit (kv_wait_durable), waited for outside `lock`.
 */
#ifndef ROCKLAKE_CATALOG_INT_H
#define ROCKLAKE_CATALOG_INT_H

#include <assert.h>
#include <errno.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/arena.h"
#include "base/buf.h"
#include "catalog/catalog.h"
#include "catalog/lease.h"
#include "catalog/sequence.h"

typedef struct counter {
    char name[64];
    uint64_t value;
} counter;

/* Keys one commit wrote: `blob` holds, per key, a u32 length (host order)
 * then the bytes. */
typedef struct commit_log_entry {
    uint64_t seq; /* write number; 0 = empty slot */
    uint8_t *blob;
    size_t len;
    uint64_t kv_seq; /* the store write's number (kv_pending_seq), to place durable views */
    bool shape;      /* wrote names or the format: a view before it reads other shapes */
} commit_log_entry;

#define COMMIT_LOG_SIZE 256

/* Every this many commits the memtable goes to an L0 table in the
 * background. SlateDB flushes it on its own only at 64 MiB, tens of
 * thousands of commits, and until then keeps every WAL object since the
 * last flush: an open after a crash replays them all (one GET each on S3)
 * and the WAL directory grows by one file per group commit. A writer that
 * reads SlateDB (no in-memory mirror, see kv.c) gains twice: DuckLake
 * rewrites some rows on every commit (table stats, changed column stats),
 * the memtable keeps each version and every scan of the table steps over
 * all of them (~1 us per commit without this); the flush keeps one version
 * per key. More often made scans slower in trials (more L0 tables per scan,
 * more compaction). */
#define MEMTABLE_FLUSH_EVERY 256

/* Table-name lookups (index 80 03) cached across transactions. Every
 * statement resolves its relation by name, and that was a store read per
 * statement. An entry is filled from a snapshot taken at name generation G
 * (the count of commits that changed any name) and serves exactly the
 * transactions whose snapshots are at G: they see the same names. */
#define NAME_CACHE_SIZE 256
typedef struct name_cache_entry {
    uint64_t gen;  /* 0 = empty */
    uint64_t hash;
    char schema[64], name[128];
    int rc;        /* name_lookup's result: 1 found, 0 absent */
    const rl_table_desc *d; /* found: the table's descriptor (fixed, extended or dynamic) */
} name_cache_entry;
/* Past this many commits since a snapshot the log scan stops paying off. */
#define COMMIT_LOG_MAX_SCAN 128

/* A fixed table extended with columns of a client's own: the name index
 * value that declares them (rl_name_entry) and the descriptor built from it. */
/* The definitions a transaction sees of one kind kept as expression texts
 * (checks.c): CHECK constraints, column DEFAULTs. The registry is that of
 * the view at (rel_version, gen), in key order, stamped for the SQL layer's
 * cache; the tables they are on (tag, dyn: fixed tag or dynamic id). */
typedef enum cat_expr_kind { CAT_EXPR_CHECK, CAT_EXPR_DEFAULT, CAT_EXPR_KINDS } cat_expr_kind;
typedef struct cat_expr_registry {
    rl_check_con *ent;
    uint8_t *tag;
    uint64_t *dyn;
    size_t n, cap;
    bool built;
    uint64_t rel_version, gen, stamp;
} cat_expr_registry;
/* A registry emptied (each entry owns one block of texts, at def.expr) and
 * marked for rebuilding. */
static inline void cat_expr_registry_clear(cat_expr_registry *r)
{
    for (size_t i = 0; i < r->n; i++)
        free((char *)r->ent[i].def.expr);
    r->n = 0;
    r->built = false;
}

typedef struct ext_entry {
    uint8_t *val;
    size_t len;
    rl_table_desc *desc;
} ext_entry;

typedef struct dyn_entry {
    rl_table_desc *desc;
    char schema[128];
} dyn_entry;

struct rl_catalog {
    kv_db *kv;
    rl_catalog_open_timing timing; /* written by rl_catalog_open only */
    rl_lease *lease; /* writers: the heartbeat of the writer lease */
    bool read_only;
    rl_format fmt;
    uint64_t epoch;
    pthread_mutex_t lock; /* counters, dynamic cache, commit serialization */
    /* Commits are numbered here for the commit log (sequencing); their
     * durability is kv's group commit (kv_wait_durable), by kv's numbers. */
    uint64_t written_seq; /* last commit numbered (under `lock`) */
    commit_log_entry log[COMMIT_LOG_SIZE]; /* by seq % size (under `lock`) */
    uint64_t name_gen;    /* 1 + commits that wrote a name index key (under `lock`) */
    pthread_mutex_t name_lock;
    name_cache_entry names[NAME_CACHE_SIZE]; /* under name_lock */
    counter *counters;
    size_t ncounters, capcounters;
    dyn_entry *dyns;
    size_t ndyns, capdyns;
    uint32_t *dyn_slots;  /* dyn_id -> index + 1 of dyns, open addressing */
    size_t dyn_nslots;    /* 0, or a power of two >= 2 * ndyns */
    ext_entry *exts;      /* extended fixed tables seen (under `lock`; never freed before close) */
    size_t nexts, capexts;
    /* Writers: a write or a wait for durability failed with an I/O error
     * (an object store failing, refusing or too slow, see
     * kv_options.store_timeout_ms; a local store's journal write or
     * fdatasync failing, kv_write_failed). SlateDB's writer is unusable
     * after a failed WAL write, the journal after a failed write or sync,
     * and the memtable (and in-memory copy) hold a commit that was
     * reported as failed, so nothing is served from this handle any more:
     * every transaction fails with 58030 until the owner reopens the store
     * (rl_catalog_failed). `failed_why` is written once, by whoever wins
     * `failed_claim`, before `failed` is set. */
    bool object_store;
    atomic_flag failed_claim;
    atomic_bool failed;
    /* A write found the writer fenced by a newer one (rl_catalog_fenced;
     * its lease heartbeat finds it too). */
    atomic_bool fenced;
    char failed_why[sizeof(((kv_error *)0)->message)];
    /* Commit sequencing (sequence.h): on for this writer, and its metrics. */
    bool sequence_commits;
    _Atomic uint64_t seq_rebased, seq_distance, seq_ns;
    _Atomic uint64_t seq_fallbacks[RL_SEQ_NREASONS];
    /* Commits' time waiting for and holding cat->lock (rl_catalog_commit_times). */
    _Atomic uint64_t commit_lock_wait_ns, commit_lock_held_ns;
    /* UNIQUE index definitions: unique_gen counts the commits that
     * created or dropped one (under `lock`); a transaction whose rows were
     * checked against an older generation fails its COMMIT (40001).
     * unique_none_gen is 1 + a generation known to have none (uniques.c). */
    uint64_t unique_gen;
    _Atomic uint64_t unique_none_gen;
    /* 1 + a generation whose committed definitions hold no CHECK, or no
     * column DEFAULT (checks.c, by cat_expr_kind; their DDL moves
     * unique_gen too) */
    _Atomic uint64_t expr_none_gen[CAT_EXPR_KINDS];
    /* Snapshots that waited for a flush before their first read (no
     * durable view to take), and the time they waited. */
    _Atomic uint64_t snapshot_waits, snapshot_wait_ns;
    /* Sequences' states in memory (seqobj.c), loaded at first use: memory
     * is the truth on the one writer; `logged` is the state last made
     * durable (under seq_lock, held across that write's durable wait). */
    pthread_mutex_t seq_lock;
    struct cat_seq_state *seqs;
    size_t nseqs, capseqs;
};


typedef struct pending {
    uint8_t *key;
    size_t klen;
    uint8_t *val; /* NULL = tombstone */
    size_t vlen;
} pending;

typedef enum expect_kind {
    EXPECT_KEY_ABSENT,    /* nobody committed this key since our snapshot */
    EXPECT_PREFIX_ABSENT, /* nobody committed any key with this prefix */
    EXPECT_VALUE,         /* the key still holds what we read (or is still absent) */
    EXPECT_SLOT_FREE,     /* a row placed at its natural key in a table that keeps
                           * duplicates: if a commit took the key since, the row
                           * moves to key | dup at commit (no error) */
    EXPECT_RANGE_UNCHANGED, /* nobody committed any key under this prefix since our
                             * snapshot (a table's rows a new UNIQUE index was
                             * built from): 40001 otherwise */
    EXPECT_FKEY_PRESENT,    /* the referenced key a referencing row names is still
                             * there (a UNIQUE entry): 23503 "insert or update" */
    EXPECT_FKEY_UNREFERENCED /* no row references this key (no FOREIGN KEY entry
                              * under the prefix): 23503 "update or delete" */
} expect_kind;

typedef struct expectation {
    expect_kind kind;
    uint8_t *key;
    size_t klen;
    uint8_t *val; /* EXPECT_VALUE: what we read; NULL = absent */
    size_t vlen;
    char constraint[128]; /* for 23505 / 23503 text */
    char detail[256];
    /* EXPECT_FKEY_*: the referencing table (PRESENT), or the referenced
     * and the referencing one (UNREFERENCED), for 23503's text */
    char table[RL_INDEX_NAME_MAX], other[RL_INDEX_NAME_MAX];
} expectation;

typedef struct touched_counter {
    char name[64];
    uint64_t at_least; /* the counter must be >= this after commit */
} touched_counter;

struct rl_txn {
    rl_catalog *cat;
    kv_snapshot *snap;
    uint64_t snap_seq; /* cat->written_seq when the snapshot was taken (under the lock) */
    uint64_t snap_write; /* kv_written_seq then: the last store write the snapshot holds */
    uint64_t name_gen; /* cat->name_gen then */
    bool wrote_names;  /* the overlay has a name index key: bypass the name cache */
    pending *ov;
    size_t nov, capov;
    /* Writes of keys new to the overlay land in this small sorted delta
     * first (no key in both), merged into ov (cat_ov_settle) when it
     * grows past about the square root of ov's size or before anything
     * walks ov by index: writes in many places of a large overlay (an
     * UPDATE moving rows: tombstones, new keys, UNIQUE entries) cost
     * O(sqrt n) each instead of O(n). */
    pending *dv;
    size_t ndv, capdv;
    expectation *ex;
    size_t nex, capex;
    touched_counter *tc;
    size_t ntc, captc;
    char user[64], app[64], client[64];
    uint64_t statements;
    uint64_t max_snapshot_inserted;
    bool inserted_snapshot;
    bool done;
    /* Commit sequencing (sequence.h). With it on, every row write is also
     * kept as a logical write (seqw, strings in seq_arena), so that a
     * commit that lost the race for its snapshot id can be replayed onto
     * the latest state. A write that is none of insert/update/delete of a
     * row (DDL, a dynamic table, a format change) makes the transaction
     * `seq_foreign`: never rebased. */
    bool seq;
    int seq_depth;      /* inside rl_txn_insert/update/delete */
    bool seq_foreign;
    rl_seq_write *seqw;
    size_t nseqw, capseqw;
    rl_arena seq_arena;
    bool locked;        /* the replay runs under cat->lock: take counters without it */
    bool snap_borrowed; /* a reader sharing another transaction's snapshot */
    uint64_t rel_version; /* rl_txn_relations_version: unique in the process */
    /* UNIQUE indexes (uniques.c): the registry of the view at
     * (uniq_rel_version, uniq_gen); unique_gen is cat->unique_gen at the
     * snapshot; unique_changed: this transaction created or dropped one;
     * rows_unique_gen: the generation its row writes were checked at
     * (rows_checked: it wrote rows). */
    struct cat_unique *uniq;
    size_t nuniq, capuniq;
    bool uniq_built;
    uint64_t uniq_rel_version, uniq_gen;
    uint64_t unique_gen;
    bool unique_changed, rows_checked;
    uint64_t rows_unique_gen;
    /* FOREIGN KEYs (fkeys.c): the registry of the view at (fk_rel_version,
     * fk_gen), rebuilt when the UNIQUE one is; the checks NO ACTION leaves
     * for the statement's end (fkd); cascades' nesting; checks off while a
     * rebuilt table writes its rows back (rl_txn_fkey_checks). */
    struct cat_fkey *fk;
    size_t nfk, capfk;
    bool fk_built, fk_checks_off;
    rl_default_fn default_fn; /* SET DEFAULT's values (the SQL layer's) */
    rl_assign_fn assign_fn;   /* ON UPDATE CASCADE's, of another type (the SQL layer's) */
    void *default_ctx;
    rl_index_fn index_fn; /* computed UNIQUE keys (the SQL layer's, uniques.c) */
    void *index_ctx;
    uint64_t fk_rel_version, fk_gen;
    struct fkey_deferred *fkd;
    size_t nfkd, capfkd;
    int fk_depth;
    /* Rows of dynamic tables that a FOREIGN KEY action's UPDATE moved to a
     * new key (rows.c, heap order): old key -> new key, so a statement
     * that read the row's old key before the action (a DELETE of a
     * self-referencing table's rows, ON DELETE SET NULL) still finds it. */
    pending *fwd;
    size_t nfwd, capfwd;
    /* DEFERRABLE keys: SET CONSTRAINTS ALL (fk_all_mode, FK_MODE_*), then
     * the named ones in the order set (the last for an id wins);
     * fk_checking: the deferred checks run, so none defers again */
    uint8_t fk_all_mode;
    struct fkey_mode *fkmode;
    size_t nfkmode, capfkmode;
    bool fk_checking;
    /* CHECK constraints and column DEFAULTs (checks.c): their registries */
    cat_expr_registry exprs[CAT_EXPR_KINDS];
    bool rebased;       /* for the audit: what the rebase moved */
    uint64_t claimed_sid, base_sid;
    char id_map[512];
    /* The value columns of the descriptor decoded last: scans decode row
     * after row of one table, and working them out walks the key fields. */
    rl_format fmt;     /* table shapes this transaction sees (rl_txn_set_format) */
    bool fmt_changed;  /* ... written by this transaction: the catalog's at commit */
    uint64_t lagging;  /* tags (bit) still in lag_fmt's shape: a migration in progress */
    rl_format lag_fmt;
    const rl_table_desc *vc_desc;
    size_t vc_n;
    rl_type vc_types[RL_MAX_COLUMNS];
    int vc_cols[RL_MAX_COLUMNS];
    /* storage for rl_txn_get results */
    rl_row get_row;
    uint8_t *get_val;
    rl_buf get_key, get_arena;
};

struct rl_scan {
    rl_txn *txn;
    const rl_table_desc *d;
    bool live;             /* iterate the live index, then fetch rows */
    kv_iter *it;
    bool it_done, it_have;
    const uint8_t *ik, *iv; /* current store pair (borrowed from it) */
    size_t ikl, ivl;
    size_t ovi;            /* next overlay index */
    uint8_t *prefix;
    size_t plen;
    uint64_t keys_read;
    bool started;          /* rl_scan_next was called (rl_scan_seek comes before) */
    rl_row row;
    rl_buf arena;
    rl_buf fetched_key;    /* live scans: the primary key being read */
    kv_iter *rows;         /* live scans: forward iterator over the primary range */
};


/* The precondition of every *_locked function (and of the descriptor
 * cache's lookups): cat->lock is held. Cheap: a trylock of a held default
 * mutex fails with EBUSY, for its owner too (it checks that some thread
 * holds it; the callers' structure makes that thread the caller). Not
 * evaluated under NDEBUG. */
#define CAT_ASSERT_LOCKED(cat) assert(pthread_mutex_trylock(&(cat)->lock) == EBUSY)

static inline int oom(rl_error *err)
{
    return rl_error_set(err, RL_SQLSTATE_INTERNAL, "out of memory");
}

static inline uint8_t *dup_bytes(const uint8_t *p, size_t n)
{
    uint8_t *d = malloc(n ? n : 1);
    if (d && n)
        memcpy(d, p, n);
    return d;
}

/* The kv layer's options for a store opened with `s` (NULL: defaults). */
static inline kv_options cat_kv_options(const rl_store_options *s)
{
    kv_options ko = {0};
    if (!s)
        return ko;
    ko.flush_interval_ms = s->flush_interval_ms;
    ko.block_cache_bytes = s->block_cache_bytes;
    ko.store_timeout_ms = s->store_timeout_ms;
    ko.mirror_max_bytes = s->mirror_max_bytes;
    ko.journal = s->journal_off ? -1 : 0;
    ko.journal_salvage = s->journal_salvage;
    ko.digest_rebuild = s->digest_rebuild;
    ko.reader_no_writes = s->reader_no_writes;
    ko.load_progress = s->load_progress;
    ko.load_progress_ctx = s->load_progress_ctx;
    ko.load_progress_ms = s->load_progress_ms;
    ko.notice = s->notice;
    ko.notice_ctx = s->notice_ctx;
    ko.load_background = s->load_background ? 2 : 0; /* rl_catalog_start_load */
    ko.loaded = s->loaded;
    ko.loaded_ctx = s->loaded_ctx;
    ko.promote_from = s->promote_from;
    ko.follower_poll_max_ms = s->follower_poll_max_ms;
    return ko;
}

static inline uint64_t tag_bit(uint8_t tag) { return 1ull << (tag & 63); }

/* The format whose shape fixed table `d` has in this transaction. */
static inline rl_format table_format(const rl_txn *t, const rl_table_desc *d)
{
    return (t->lagging & tag_bit(d->tag)) ? t->lag_fmt : t->fmt;
}

static inline size_t txn_ncols(const rl_txn *t, const rl_table_desc *d)
{
    return rl_txn_table_ncols(t, d);
}

/* ---------------------------------------------------------------- storeio.c */

/* kv's error as the catalog's SQLSTATE, after the words `what`: -1. */
int cat_kv_fail(rl_error *err, const kv_error *ke, const char *what);
/* A hint for an object store's refusal a user can fix (a missing bucket,
 * refused credentials), when err has none yet. */
void cat_hint_store_error(rl_error *err, const char *store_message);
/* A writer's write path saw `ke`: on an object store an I/O error leaves
 * the handle unusable (rl_catalog.failed). */
void cat_note_store_failure(rl_catalog *cat, const kv_error *ke);
/* The 58030 of a failed store: -1. */
int cat_store_failed_error(rl_catalog *cat, rl_error *err);
/* The hint of a failed catalog's errors: the server recovers by itself
 * (or, when the store's files moved, an operator must look). No-op when
 * the catalog has not failed. */
void cat_hint_store_failed(rl_catalog *cat, rl_error *err);
/* Key k's value (k freed here) now (snap NULL) or at snap, malloc'd into
 * *v: 1 present, 0 absent, -1 with err. */
int cat_store_get(kv_db *kv, kv_snapshot *snap, rl_buf *k, uint8_t **v, size_t *vlen,
                  const char *what, rl_error *err);
int cat_get_system(kv_db *kv, const char *name, uint8_t **v, size_t *vlen, rl_error *err);
int cat_get_system_u64(kv_db *kv, const char *name, uint64_t *out, bool *found, rl_error *err);
void cat_batch_set_system(kv_batch *b, const char *name, const void *value, size_t len);
void cat_batch_put_system_u64(kv_batch *b, const char *name, uint64_t v);
int64_t cat_now_pg_micros(void);
int cat_load_format(rl_catalog *cat, kv_snapshot *snap, rl_format *out, rl_error *err);

/* ------------------------------------------------------------------ flush.c */

/* Wait until store write number `seq` (kv's numbering) is durable: kv's
 * group commit, with the catalog's error (SQLSTATE, hint) on a failure.
 * The caller holds no catalog lock. */
int cat_wait_durable(rl_catalog *cat, uint64_t seq, const char *doing, rl_error *err);
/* The same for a commit's pending write, which it consumes (NULL: none). */
int cat_write_wait(rl_catalog *cat, kv_pending *p, const char *doing, rl_error *err);

/* -------------------------------------------------------------- relations.c */

/* A name free for a new relation of any kind (table, index, sequence):
 * 42P07 when one holds schema.name, else each kind's key is expected to
 * stay absent until COMMIT (a concurrent CREATE of the name loses). */
int cat_relation_name_free(rl_txn *t, const char *schema, const char *name, rl_error *err);

/* ----------------------------------------------------------------- seqobj.c */

/* A clean close of a writer: each sequence's state in memory made durable
 * exactly (PostgreSQL's shutdown checkpoint keeps it, so a clean restart
 * skips no value); its logged-ahead count set to 0 first, so a nextval
 * still running logs again before it hands out a value. Best effort. */
void cat_seq_write_back(rl_catalog *cat);

/* --------------------------------------------------------------- counters.c */

counter *cat_counter_locked(rl_catalog *cat, const char *name, rl_error *err);
int cat_alloc_seq_locked(rl_catalog *cat, const char *name, uint64_t *out, rl_error *err);
int cat_alloc_seq(rl_catalog *cat, const char *name, uint64_t *out, rl_error *err);
int cat_txn_alloc_seq(rl_txn *t, const char *name, uint64_t *out, rl_error *err);
int cat_touch_counter(rl_txn *t, const char *name, uint64_t at_least, rl_error *err);
int cat_add_counters_locked(rl_txn *t, kv_batch *b, uint64_t *values, rl_error *err);
int cat_add_audit_locked(rl_txn *t, kv_batch *b, rl_error *err);

/* -------------------------------------------------------------------- txn.c */

/* Index in t->ov of the first entry with key >= k, the delta merged in
 * first: t->ov then holds every buffered write (indices into it stay valid
 * until the next write). */
size_t cat_ov_lower_bound(rl_txn *t, const uint8_t *k, size_t kl);
/* Merge the delta into t->ov (before walking t->ov whole). */
void cat_ov_settle(rl_txn *t);
/* The buffered write of key k, in t->ov or the delta; NULL if none. */
pending *cat_ov_find(rl_txn *t, const uint8_t *k, size_t kl);
int cat_ov_set(rl_txn *t, const uint8_t *k, size_t kl, const uint8_t *val, size_t vlen,
               rl_error *err);
pending cat_ov_take(rl_txn *t, size_t i);
int cat_add_expectation(rl_txn *t, expect_kind kind, const uint8_t *k, size_t kl,
                        const uint8_t *val, size_t vlen, const char *constraint,
                        const char *detail, rl_error *err);
void cat_free_buffered_writes(rl_txn *t);
/* The rows of d this transaction read (to build a UNIQUE index's entries,
 * validate a FOREIGN KEY or a CHECK) must be unchanged by others at COMMIT
 * (EXPECT_RANGE_UNCHANGED over d's key prefix: 40001 otherwise). */
int cat_expect_table_unchanged(rl_txn *t, const rl_table_desc *d, rl_error *err);
void cat_relations_changed(rl_txn *t);
int cat_view_get(rl_txn *t, const uint8_t *k, size_t kl, uint8_t **val, size_t *vlen,
                 rl_error *err);
bool cat_is_write_allowed(rl_txn *t, rl_error *err);
/* 40001 "could not serialize access due to <why>", hint: retry; -1. */
int cat_serialization_failure(rl_error *err, const char *why);

/* ----------------------------------------------------------------- format.c */

int cat_encode_value(rl_txn *t, const rl_table_desc *d, const rl_datum *row, rl_buf *out,
                     rl_error *err);
int cat_decode_row(rl_txn *t, const rl_table_desc *d, const uint8_t *key, size_t klen,
                   const uint8_t *val, size_t vlen, rl_row *row, rl_buf *arena, rl_error *err);

/* ------------------------------------------------------------------- scan.c */

int cat_scan_merged_next(rl_scan *s, const uint8_t **k, size_t *kl, const uint8_t **v,
                         size_t *vl, rl_error *err);
int cat_raw_scan_open(rl_txn *t, rl_scan *s, uint8_t *prefix, size_t plen, rl_error *err);

/* ---------------------------------------------------------------- uniques.c */

/* A UNIQUE index of the transaction's view: where it is (schema, name),
 * its definition, and the table it is on (tag; dyn_id for a dynamic one). */
typedef struct cat_unique {
    char schema[RL_INDEX_NAME_MAX], name[RL_INDEX_NAME_MAX];
    uint8_t tag;
    uint64_t dyn_id;
    rl_index_def def;
} cat_unique;
/* Every UNIQUE index the transaction sees (borrowed until its next DDL or
 * snapshot); 0, or -1 with err. */
int cat_uniques(rl_txn *t, const cat_unique **out, size_t *n, rl_error *err);
bool cat_unique_on(const cat_unique *u, const rl_table_desc *d);
/* The entry key of `row` of d in u into key: 1, or 0 when the row has no
 * entry (a NULL key column with NULLS DISTINCT; a key column d lacks, in a
 * rebuild, uniques.c; a partial index's predicate not true), or -1 with
 * err (54000 too long; an index over expressions or with a predicate
 * evaluated by the transaction's rl_index_fn: its error, or 0A000 without
 * one). */
int cat_unique_entry_key(rl_txn *t, const cat_unique *u, const rl_table_desc *d,
                         const rl_datum *row, rl_buf *key, rl_error *err);
/* Does a UNIQUE index over expressions or with a predicate sit on d (a
 * table commit sequencing then never rebases)? 1, 0, -1 with err. */
int cat_table_has_computed_unique(rl_txn *t, const rl_table_desc *d, rl_error *err);
/* PostgreSQL's detail "Key (a, b)=(1, x) <what>" of the columns `cols` of
 * row in d into out (rows.c; what carries its own full stop). */
void cat_key_text(const rl_table_desc *d, const int *cols, size_t n, const rl_datum *row,
                  const char *what, char *out, size_t outn);
/* PostgreSQL's detail "Key (a, lower(b))=(1, x) <what>." into out. */
void cat_unique_key_text(rl_txn *t, const cat_unique *u, const rl_table_desc *d,
                         const rl_datum *row, const char *what, char *out, size_t n);
/* Tombstone every entry of index `id` in the transaction's view. */
int cat_unique_clear(rl_txn *t, uint64_t id, rl_error *err);

/* The table schema.table resolves to in the view (name index 0x80 03): 1
 * with its tag (RL_TAG_DYNAMIC_ROW and dyn_id for a dynamic one), 0 if it
 * is gone, -1 with err (XX001 for an entry that does not decode). */
int cat_table_ident(rl_txn *t, const char *schema, const char *table, uint8_t *tag,
                    uint64_t *dyn_id, rl_error *err);

/* ----------------------------------------------------------------- fkeys.c */

/* A FOREIGN KEY of the transaction's view: where it is (its schema, its
 * referencing table, its name), its definition, the referencing table
 * (tag; dyn_id for a dynamic one) and the UNIQUE index it references. */
typedef struct cat_fkey {
    char schema[RL_INDEX_NAME_MAX], table[RL_INDEX_NAME_MAX], name[RL_INDEX_NAME_MAX];
    uint8_t tag;
    uint64_t dyn_id;
    rl_fkey_def def;
    cat_unique ref;
} cat_fkey;
/* A check left for later: FOREIGN KEY id; at_commit: its key is DEFERRED
 * now, so the check waits for COMMIT or SET CONSTRAINTS ... IMMEDIATE
 * (else for the statement's end). A referenced key that went (NO ACTION):
 * the prefix of the entries that would reference it, the referenced
 * UNIQUE entry (a row holding the key again satisfies it), 23503's
 * detail. A referencing row written (`referencing`, a DEFERRED key only):
 * its table d, its row key in prefix (NULL until the row's entries are
 * written), its current values checked when the time comes (gone: nothing
 * to check). d saves a name lookup, which a sequenced commit's replay
 * could not make: it holds the catalog's lock. */
typedef struct fkey_deferred {
    uint64_t id;
    bool referencing, at_commit;
    const rl_table_desc *d;
    uint8_t *prefix, *refkey;
    size_t plen, rklen;
    char detail[256];
} fkey_deferred;
/* SET CONSTRAINTS of one DEFERRABLE key in this transaction. */
#define FK_MODE_DECLARED 0 /* INITIALLY DEFERRED / IMMEDIATE as declared */
#define FK_MODE_DEFERRED 1
#define FK_MODE_IMMEDIATE 2
typedef struct fkey_mode {
    uint64_t id;
    bool deferred;
} fkey_mode;
/* Every FOREIGN KEY the transaction sees (borrowed until its next DDL or
 * snapshot); 0, or -1 with err. */
int cat_fkeys(rl_txn *t, const cat_fkey **out, size_t *n, rl_error *err);
/* A row of d about to be written (old: its values before, on an UPDATE):
 * the referenced key of each FOREIGN KEY of d whose key columns it sets is
 * there (23503), MATCH FULL's NULLs (23503). Writes nothing but
 * expectations. */
int cat_fkey_check_row(rl_txn *t, const rl_table_desc *d, const rl_datum *row,
                       const rl_datum *old, rl_error *err);
/* Write (put) or delete the FOREIGN KEY entries of `row` of d at row key rk. */
int cat_fkey_entries(rl_txn *t, const rl_table_desc *d, const rl_datum *row, const uint8_t *rk,
                     size_t rkl, bool put, rl_error *err);
/* Row rk of d, referenced by FOREIGN KEYs, is deleted (nw NULL) or
 * updated to nw: each constraint's action on the rows that reference a key
 * that went. */
int cat_fkey_referenced_change(rl_txn *t, const rl_table_desc *d, const rl_datum *old,
                               const rl_datum *nw, const uint8_t *rk, size_t rkl, rl_error *err);
int cat_fkey_defer(rl_txn *t, const cat_fkey *f, const rl_buf *prefix, const rl_table_desc *pd,
                   const int *rcols, const rl_datum *old, const char *detail, rl_error *err);

/* Tombstone the FOREIGN KEY entries of d's rows (its rows go wholesale). */
int cat_fkey_clear_of(rl_txn *t, const rl_table_desc *d, rl_error *err);
/* ----------------------------------------------------------------- checks.c */

/* Does a CHECK constraint of the view sit on table d? (Commit sequencing
 * does not rebase rows of such a table: rows.c.) 1, 0, or -1 with err. */
int cat_table_has_checks(rl_txn *t, const rl_table_desc *d, rl_error *err);

/* ------------------------------------------------------------------- rows.c */

int cat_expect_unique(rl_txn *t, const uint8_t *k, size_t kl, const char *constraint,
                      const char *detail, rl_error *err);
/* The key a row the transaction read at *key has now: itself, or where
 * FOREIGN KEY actions moved it since (t->fwd; borrowed from t). */
void cat_follow_moves(rl_txn *t, const uint8_t **key, size_t *klen);
int cat_add_row(rl_txn *t, const rl_table_desc *d, const rl_datum *row, uint64_t seq,
                rl_error *err);

/* retention.c: rl_txn_oldest_snapshot (catalog.h), also commit's retain-from */

/* ---------------------------------------------------------------- dyndesc.c */

void cat_encode_dyn_columns(rl_buf *b, size_t ncols, const rl_column_desc *cols);
/* A name index value (rl_name_entry, which decodes them): a dynamic
 * table's id (below 2^56), or a fixed table's tag with its extension
 * columns in format fmt (none: the tag alone). */
void cat_name_entry_dynamic(rl_buf *b, uint64_t dyn_id);
void cat_name_entry_fixed(rl_buf *b, uint8_t tag, rl_format fmt, size_t nextra,
                          const rl_column_desc *extra);
rl_table_desc *cat_dyn_desc_new(uint64_t id, const char *name, size_t ncols);
const rl_table_desc *cat_dyn_cache_put(rl_catalog *cat, rl_table_desc *d, const char *schema);
const rl_table_desc *cat_dyn_load(rl_txn *t, uint64_t id, rl_error *err);
/* The descriptor of fixed table `base` extended as name index value `val`
 * declares (rl_name_entry with ext), cached in cat; NULL if it does not
 * decode (corrupt) or out of memory. */
const rl_table_desc *cat_fixed_ext_load(rl_catalog *cat, const rl_table_desc *base,
                                        const uint8_t *val, size_t vlen);

#endif
