/*
 * journal.h — the commit journal of a writer on a local (file://) store.
 *
 * Owns: the journal files in <store>/journal/, their record format, the
 * fencing of an earlier writer's file, and group fdatasync. kv.c decides
 * what goes in (encoded batches) and keeps the journal's position in the
 * store (see "Position" below); this module knows nothing of SlateDB or
 * DuckLake.
 *
 * Why: SlateDB makes a write durable by writing a new WAL object (on
 * file://: create, write, fsync, link, fsync the directory: ~0.6 ms on a
 * VM disk). Appending to one open file and fdatasync'ing it costs a third
 * of that, as PostgreSQL's WAL does. So a local writer acknowledges a
 * commit once its batch is in the journal and synced; SlateDB gets the same
 * batch in its memtable at once and makes it durable in the background.
 *
 * File layout (v2): a 4096-byte header, then records from offset 4096.
 *   header: "RLJF" | u32 version 2 | zeros, with the fence slot at offset 64:
 *     "RLFN" | u8 state (1 FENCING, 2 FENCED) | u64 cut | u32 CRC-32 of the
 *     state and cut (all 17 bytes zero: no takeover)
 *   record: "RLJ1" | u32 payload length | u8 type | u64 seq | u32 CRC-32 of
 *     the length, type, seq and payload | payload     (integers big-endian)
 * Types: DATA (an encoded batch), ABORT (the DATA record just before it, of
 * the same seq, never reached the store: skip it), FENCE (v1 files only: a
 * newer writer took over; nothing after it counts). The space after the
 * records is zero-filled ahead of them, so a record is one pwrite into
 * allocated blocks and its fdatasync commits no file-size change.
 * v1 files (earlier RockLake versions) are records from offset 0, appended
 * with O_APPEND; they are still recovered and fenced.
 *
 * Position: each batch the writer applies carries, in the same atomic
 * write, the key kv.c owns (0xFF "kv-journal") holding {file id, seq, end
 * offset} of its record. Whatever SlateDB has made durable therefore names
 * exactly the records it holds; a record after that offset is replayed at
 * the next open.
 *
 * Invariants:
 *  - Each writer open creates a new file (journal-<16 hex id>.log) and makes
 *    a position naming it durable before appending to it; the previous
 *    writer's file is removed only after that.
 *  - Taking over (v2): the new writer has already fenced the old one in
 *    SlateDB. It writes FENCING into the old file's slot, scans the records
 *    after the position, writes FENCED with the cut (where the last whole
 *    record ends) and fdatasyncs, then replays the records before the cut.
 *    The old writer reads the slot after each fdatasync: no fence, and the
 *    records that sync covered were written before FENCING, so the scan
 *    sees them whole; FENCING, and it waits for the cut (at most 30 s,
 *    then its commits are reported as in doubt); FENCED, and it
 *    acknowledges exactly the records ending at or before the cut (synced
 *    once more: the new writer replays them) and refuses everything else
 *    (KV_ERR_FENCED). A cut once named is kept by later takeovers.
 *  - A record is acknowledged only after an fdatasync that covers it. After
 *    a failed write or fdatasync the journal refuses everything (the page
 *    cache can no longer be trusted, journal.c "After a failure"): its
 *    owner reopens the store, which replays this file into a new writer
 *    as a restart would (rl_journal_failed says when).
 *  - A record is appended only while the open file is still the one at its
 *    path (same device and inode): once the file was removed or its
 *    directory moved or replaced, nothing written to it would be replayed
 *    by the next writer at that path, so the journal refuses everything
 *    from then on, before the batch reaches SlateDB.
 *  - Records in a file have increasing seqs; recovery stops at the first
 *    torn or corrupt record. One with nothing valid after it is a torn
 *    tail (never synced: accepted). One that a valid record follows was
 *    whole once and was damaged since: recovery refuses it
 *    (KV_ERR_CORRUPT), unless salvaging (rl_journal_recover_ex).
 *  - Needs a local filesystem whose page cache every process shares (not
 *    NFS); kv_options.journal < 0 turns it off.
 */
#ifndef ROCKLAKE_JOURNAL_H
#define ROCKLAKE_JOURNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kv/kv.h"

typedef struct rl_journal rl_journal;

/* Where a v2 file's records start, and its fence slot (layout above). */
#define RL_JOURNAL_DATA_START 4096
#define RL_JOURNAL_SLOT_OFFSET 64

/* Where the journal stands in the store: the file, the last seq the store
 * holds, and the offset just past that seq's record. file_id 0 = none. */
typedef struct rl_journal_pos {
    uint64_t file_id;
    uint64_t seq;
    uint64_t offset;
} rl_journal_pos;

#define RL_JOURNAL_POS_LEN 24
void rl_journal_pos_encode(const rl_journal_pos *p, uint8_t out[RL_JOURNAL_POS_LEN]);
/* Returns 0, or -1 if `v` is not a position. */
int rl_journal_pos_decode(const uint8_t *v, size_t n, rl_journal_pos *p);

/* Called by recovery for each record to replay, in order: the payload
 * (borrowed for the call), its seq and the offset just past it. Returns 0,
 * or -1 with *err set to stop recovery. */
typedef int (*rl_journal_replay_fn)(void *ctx, const uint8_t *payload, size_t len,
                                    uint64_t seq, uint64_t end, kv_error *err);

/* Fence the file `prev` names (prev->file_id != 0) in directory `dir`, then
 * hand every record after prev->offset and before the cut (v1: the first
 * FENCE) to `fn`.
 * *last_seq is the last seq replayed (prev->seq if none). A missing file is
 * KV_ERR_CORRUPT: acknowledged commits may be in it. Returns 0 or -1. */
int rl_journal_recover(const char *dir, const rl_journal_pos *prev, rl_journal_replay_fn fn,
                       void *ctx, uint64_t *last_seq, kv_error *err);

/* Where recovery found a damaged record: one that fails its checks while
 * a valid record follows it (a torn tail has nothing valid after it).
 * bad == UINT64_MAX: none. */
typedef struct rl_journal_damage {
    uint64_t bad;            /* offset of the damaged record */
    uint64_t next_valid;     /* offset of the first valid record after it */
    size_t records_before;   /* DATA records before it (after the position) */
    /* salvage only: the whole file was given up (it is missing, or does
     * not start with a journal header); bad is 0, next_valid UINT64_MAX */
    bool whole_file;
    bool missing;            /* ... because the file is missing */
} rl_journal_damage;

/* rl_journal_recover, telling damage from a torn tail. A damaged record
 * (see rl_journal_damage) is KV_ERR_CORRUPT naming the file and offset,
 * and nothing is replayed; with `salvage` the records before it are
 * replayed instead and *damage says where it is. A missing file, or one
 * without a journal header, is KV_ERR_CORRUPT too; with `salvage` nothing
 * of it is replayed and damage->whole_file is set. A torn or corrupt last
 * record with nothing valid after it ends the replay as always. */
int rl_journal_recover_ex(const char *dir, const rl_journal_pos *prev, bool salvage,
                          rl_journal_replay_fn fn, void *ctx, uint64_t *last_seq,
                          rl_journal_damage *damage, kv_error *err);

/* Without fencing it or writing anything: the seq of the last DATA record
 * that file `pos->file_id` in `dir` holds after `pos` (pos->seq if none),
 * synced or not, ABORTed ones excluded, with released space (holes) skipped.
 * A record a writer acknowledged before the call is in that file whole
 * (it was written before its fdatasync). For a consistent copy of a live
 * store (kv_snapshot_acknowledged). Returns 1, 0 if the file no longer
 * exists (a newer writer replayed and removed it), or -1. */
int rl_journal_peek(const char *dir, const rl_journal_pos *pos, uint64_t *last_seq,
                    kv_error *err);

/* Rename the file `file_id` names to <its name>.damaged (path in newpath),
 * after a salvage: kept for inspection, never read again. 0 or -1. */
int rl_journal_set_aside(const char *dir, uint64_t file_id, char *newpath, size_t n);

/* Create this writer's file in `dir` (made if missing), numbering records
 * after `last_seq`. The caller makes {rl_journal_file_id(), last_seq, 0}
 * durable in the store before the first append. NULL on failure. Free with
 * rl_journal_close (keeps the file) or rl_journal_discard (removes it). */
rl_journal *rl_journal_create(const char *dir, uint64_t last_seq, kv_error *err);
uint64_t rl_journal_file_id(const rl_journal *j);
void rl_journal_close(rl_journal *j);
void rl_journal_discard(rl_journal *j);

/* Remove the file of an earlier writer (after this writer's position is
 * durable). Errors are ignored: a leftover file is never read again. */
void rl_journal_remove_file(const char *dir, uint64_t file_id);

/* Append a DATA record (the caller serializes appends). Fills *seq and
 * *end. KV_ERR_FENCED once a sync has found that a newer writer took over
 * (a record appended before that is refused by its rl_journal_sync). */
int rl_journal_append(rl_journal *j, const uint8_t *payload, size_t len, uint64_t *seq,
                      uint64_t *end, kv_error *err);
/* Cancel the DATA record `seq` just appended (it never reached the store);
 * returns once the ABORT is on disk. */
int rl_journal_abort(rl_journal *j, uint64_t seq, kv_error *err);

/* Has a write or fdatasync failed, so that the journal refuses every
 * record from now on? 0: no (or it was fenced: a newer writer took over,
 * which is no fault); 1: it failed, and reopening the store (a new writer,
 * which replays this file) recovers; 2: the file is no longer at its path
 * (the store's directory was removed, moved or replaced), which a reopen
 * must not paper over. With `why` (may be NULL), the cause in words. */
int rl_journal_failed(rl_journal *j, char *why, size_t n);

/* Return once every record up to `seq` is on disk. Concurrent callers share
 * one fdatasync. Thread-safe. Returns 0 or -1. */
int rl_journal_sync(rl_journal *j, uint64_t seq, kv_error *err);

/* The last seq an fdatasync has covered. A sync starts by itself as soon
 * as a record is appended (a thread of the journal's own), so this
 * reaches rl_journal_written's seq without any caller waiting. */
uint64_t rl_journal_durable_seq(rl_journal *j);

/* The last seq appended and the offset just past it. */
void rl_journal_written(rl_journal *j, uint64_t *seq, uint64_t *end);

/* Give back the disk space of everything before `offset` (the store holds
 * it durably). Offsets never change: the space becomes a hole. */
void rl_journal_release(rl_journal *j, uint64_t offset);

#endif /* ROCKLAKE_JOURNAL_H */
