/*
 * journal.c — the commit journal of a local writer (journal.h).
 *
 * Owns: journal files (the v2 layout this writer creates, and recovery of
 * v1 files an earlier version left, telling a damaged record from a torn
 * tail), record framing and CRCs, fencing
 * (the fence slot of v2, the FENCE record of v1), zero-filling ahead of
 * the records, group fdatasync, hole punching of released space.
 *
 * Why zero-filled space: an append that grows the file makes fdatasync
 * write the file's new size as well (its inode, or ext4's journal when the
 * file system has one), a second ordered write; overwriting blocks that are already allocated and written is one
 * data write and a flush, as PostgreSQL's WAL segments are (0.15 against
 * 0.26 ms here, `python3 bench/fsync_floor.py --journal`). So a v2 file is
 * written ahead with zeros and its records are pwrite()s into them.
 *
 * Invariants (beyond journal.h):
 *  - `end` is where this writer's last record ended; records are written
 *    there and nowhere else, and every byte from `end` to `alloc_end` is
 *    zero. Zero-filling happens under extend_mu, and so does any record
 *    that would cross alloc_end, so zeros never land on a record.
 *  - pending_seq/pending_end (under sync_mu) name the last record written,
 *    as one pair; a sync covers such a pair, so durable_end is always the
 *    end of the record durable_seq names (or of its ABORT).
 *  - durable_seq <= pending_seq. `failed` is sticky: after a failed write
 *    or fdatasync this file is never written or synced again, in place or
 *    by a retry (see "After a failure" below). Once a sync sees a
 *    FENCED slot, durable_seq is final: the records ending at or before
 *    the cut (the new writer replays those), and nothing more.
 *  - One fdatasync runs at a time (`syncing`). The syncer thread starts one
 *    as soon as a record is written, so the fdatasync overlaps the caller's
 *    hand-off of the same batch to SlateDB instead of following it; a
 *    caller of rl_journal_sync that finds none running starts one itself.
 *
 * After a failure: a failed fdatasync may have dropped the dirty pages it
 * could not write, or marked them clean (Linux does both, by file system),
 * so a second fdatasync that succeeds proves nothing about the records
 * before it. So the file is not reused: the owner reopens the store, as a
 * restart would (kv_open_writer: a new journal file, the old one fenced,
 * read back and replayed into SlateDB, which makes what it read durable
 * in files of its own before the old file is removed). That reopen is as
 * safe as a restart because it is one: it keeps nothing of this handle's
 * memory and reads the same files through the same page cache a new
 * process would. A record acknowledged before the failure was covered by
 * an fdatasync that succeeded, so it is read back; one written after the
 * last good sync was never acknowledged, and comes back or not (in doubt,
 * as after a kill -9).
 * Asserted (no logic depends on them): a sync step starts with none
 * running; records only move `end` forward and never past alloc_end;
 * sequences handed out grow, and the pending pair never runs ahead of
 * `end` or behind the durable one.
 */
#include "kv/journal.h"

#include <assert.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>
#include <zlib.h>

#include "base/buf.h"
#include "base/crashpoint.h"

#define RECORD_MAGIC "RLJ1"
#define HEADER_LEN 25 /* magic 4, length 4, type 1, seq 8, crc 4, 4 reserved (zero) */
#define MAX_PAYLOAD (1u << 30)

#define FILE_MAGIC "RLJF"
#define FILE_VERSION 2
#define SLOT_MAGIC "RLFN"
#define SLOT_LEN 17 /* magic 4, state 1, cut 8, crc 4 */
enum { SLOT_FENCING = 1, SLOT_FENCED = 2 };
/* Zeros are written this far ahead of the records, and again once fewer
 * than half of them are left. */
#define ZERO_CHUNK (1u << 20)
/* How long a fenced writer waits for the new writer to name its cut. */
#define FENCE_WAIT_MS 30000

enum { REC_DATA = 1, REC_ABORT = 2, REC_FENCE = 3 };

struct rl_journal {
    int fd;
    uint64_t id;
    char *path;
    uint64_t end;      /* appends: under the caller's lock */
    uint64_t next_seq; /* appends: under the caller's lock */
    pthread_mutex_t extend_mu;   /* zero-filling, and records crossing alloc_end */
    _Atomic uint64_t alloc_end;  /* zeros up to here (written under extend_mu) */
    pthread_mutex_t sync_mu;
    pthread_cond_t sync_done;   /* a sync finished */
    pthread_cond_t sync_wanted; /* a record was written: wakes the syncer */
    pthread_t syncer;
    bool syncing;          /* under sync_mu: an fdatasync is running */
    bool stopping;         /* under sync_mu: the syncer must exit */
    bool fence_stalled;    /* under sync_mu: a takeover never named its cut */
    bool zero_fill_failed; /* under sync_mu: the syncer stopped zero-filling */
    int sync_errno;        /* under sync_mu: why the last fdatasync failed */
    uint64_t pending_seq, pending_end; /* under sync_mu: the last record written */
    uint64_t durable_seq, durable_end; /* under sync_mu: the last one synced */
    uint64_t fence_cut;    /* under sync_mu: once fenced, the new writer's cut */
    _Atomic int failed;    /* 0, or the kv_error_kind that stopped the journal */
    _Atomic int write_errno; /* why a record's write failed (0: none did) */
    _Atomic bool gone;     /* failed because the file is no longer at `path` */
    dev_t dev;             /* the file's identity, to recognise it at `path` */
    ino_t ino;
    uint64_t released;     /* bytes before this are holes */
};

/* What the errors say to do next (docs/operations.md, "Integrity errors"). */
#define DOC_DAMAGED "docs/operations.md, \"Integrity: journal ... is damaged\""
#define DOC_OPEN "docs/operations.md, \"Integrity: cannot open journal ...\""
#define DOC_GONE "docs/operations.md, \"Integrity: journal ... is no longer at that path\""
#define IO_HINT                                                                  \
    "; check the disk and the file's permissions, then start again, or restore the " \
    "file from a backup (" DOC_DAMAGED ")"

static int fail(kv_error *err, kv_error_kind kind, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int fail(kv_error *err, kv_error_kind kind, const char *fmt, ...)
{
    if (!err) return -1;
    err->kind = kind;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->message, sizeof err->message, fmt, ap);
    va_end(ap);
    return -1;
}

void rl_journal_pos_encode(const rl_journal_pos *p, uint8_t out[RL_JOURNAL_POS_LEN])
{
    rl_store_be64(out, p->file_id);
    rl_store_be64(out + 8, p->seq);
    rl_store_be64(out + 16, p->offset);
}

int rl_journal_pos_decode(const uint8_t *v, size_t n, rl_journal_pos *p)
{
    if (n != RL_JOURNAL_POS_LEN) return -1;
    p->file_id = rl_load_be64(v);
    p->seq = rl_load_be64(v + 8);
    p->offset = rl_load_be64(v + 16);
    return 0;
}

static char *file_path(const char *dir, uint64_t id)
{
    size_t n = strlen(dir) + 40;
    char *p = malloc(n);
    if (p) snprintf(p, n, "%s/journal-%016" PRIx64 ".log", dir, id);
    return p;
}

/* CRC over the length, type and seq of the header, then the payload. */
static uint32_t record_crc(const uint8_t *header, const uint8_t *payload, size_t len)
{
    uLong c = crc32(0L, Z_NULL, 0);
    c = crc32(c, header + 4, 13);
    if (len) c = crc32(c, payload, (uInt)len);
    return (uint32_t)c;
}

static void make_header(uint8_t h[HEADER_LEN], int type, uint64_t seq, const uint8_t *payload,
                        size_t len)
{
    memset(h, 0, HEADER_LEN); /* bytes 21-24 are reserved: zero, never stack bytes */
    memcpy(h, RECORD_MAGIC, 4);
    rl_store_be32(h + 4, (uint32_t)len);
    h[8] = (uint8_t)type;
    rl_store_be64(h + 9, seq);
    rl_store_be32(h + 17, record_crc(h, payload, len));
}

static int sync_dir(const char *dir)
{
    int fd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return -1;
    int rc = fsync(fd);
    close(fd);
    return rc;
}

/* ------------------------------------------------------------ fence slot */

static uint32_t slot_crc(const uint8_t *slot)
{
    return (uint32_t)crc32(crc32(0L, Z_NULL, 0), slot + 4, 9);
}

static int write_slot(int fd, int state, uint64_t cut)
{
    uint8_t slot[SLOT_LEN];
    memcpy(slot, SLOT_MAGIC, 4);
    slot[4] = (uint8_t)state;
    rl_store_be64(slot + 5, cut);
    rl_store_be32(slot + 13, slot_crc(slot));
    return pwrite(fd, slot, SLOT_LEN, RL_JOURNAL_SLOT_OFFSET) == SLOT_LEN ? 0 : -1;
}

typedef enum { SLOT_NONE, SLOT_CHANGING, SLOT_DONE, SLOT_ERROR } slot_read;

/* The fence slot as a reader finds it: all zeros (no takeover), a FENCED
 * record with its cut, or anything else: FENCING, or a write of the slot
 * caught half done (reads of the page cache are not atomic against a
 * concurrent write), or damage. */
static slot_read read_slot(int fd, uint64_t *cut)
{
    uint8_t slot[SLOT_LEN];
    ssize_t r = pread(fd, slot, SLOT_LEN, RL_JOURNAL_SLOT_OFFSET);
    if (r < 0) return SLOT_ERROR;
    if (r < SLOT_LEN) memset(slot + r, 0, SLOT_LEN - (size_t)r);
    static const uint8_t zeros[SLOT_LEN];
    if (memcmp(slot, zeros, SLOT_LEN) == 0) return SLOT_NONE;
    if (memcmp(slot, SLOT_MAGIC, 4) != 0 || slot[4] != SLOT_FENCED ||
        rl_load_be32(slot + 13) != slot_crc(slot))
        return SLOT_CHANGING;
    *cut = rl_load_be64(slot + 5);
    return SLOT_DONE;
}

/* ------------------------------------------------------------ recovery */

typedef struct pending_record {
    uint8_t *payload; /* malloc'd */
    size_t len;
    uint64_t seq, end;
} pending_record;

static void free_records(pending_record *recs, size_t n)
{
    for (size_t i = 0; i < n; i++) free(recs[i].payload);
    free(recs);
}

/* One record in one write: at offset `at`, or (at < 0) where the file
 * position is, which with O_APPEND is the end (v1 fencing). Returns 0, or
 * -1 with errno (ENOSPC for a short write). */
static int write_record(int fd, int64_t at, int type, uint64_t seq, const uint8_t *payload,
                        size_t len)
{
    uint8_t h[HEADER_LEN];
    make_header(h, type, seq, payload, len);
    struct iovec iov[2] = {{h, HEADER_LEN}, {(void *)payload, len}};
    int n = len ? 2 : 1;
    ssize_t w = at < 0 ? writev(fd, iov, n) : pwritev(fd, iov, n, (off_t)at);
    if (w != (ssize_t)(HEADER_LEN + len)) {
        if (w >= 0) errno = ENOSPC;
        return -1;
    }
    return 0;
}

/* Is there a whole record at `at` (ending at or before `upto`) whose CRC
 * holds, of type DATA with a seq above `after_seq` or ABORT? */
static bool valid_record_at(int fd, uint64_t at, uint64_t upto, uint64_t after_seq)
{
    uint8_t h[HEADER_LEN];
    if (pread(fd, h, HEADER_LEN, (off_t)at) != HEADER_LEN || memcmp(h, RECORD_MAGIC, 4) != 0)
        return false;
    uint32_t len = rl_load_be32(h + 4);
    uint64_t seq = rl_load_be64(h + 9);
    if (len > MAX_PAYLOAD || at + HEADER_LEN + len > upto ||
        !((h[8] == REC_DATA && seq > after_seq) || h[8] == REC_ABORT))
        return false;
    uint8_t *payload = malloc(len ? len : 1);
    if (!payload) return false;
    bool ok = (!len || pread(fd, payload, len, (off_t)(at + HEADER_LEN)) == (ssize_t)len) &&
              record_crc(h, payload, len) == rl_load_be32(h + 17);
    free(payload);
    return ok;
}

/* The first offset after `bad` (and before `upto` and the end of the file)
 * where a valid record starts, or UINT64_MAX. Recovery stopped at `bad`:
 * nothing valid after it means a torn or never-written tail (the space
 * after the records is zeros, or holes); a valid record after it means the
 * record at `bad` was whole once and was damaged since. */
static uint64_t valid_record_after(int fd, uint64_t bad, uint64_t upto, uint64_t after_seq)
{
    struct stat st;
    if (fstat(fd, &st) < 0) return UINT64_MAX;
    uint64_t stop = (uint64_t)st.st_size < upto ? (uint64_t)st.st_size : upto;
    enum { CHUNK = 1 << 20 };
    uint8_t *buf = malloc(CHUNK);
    if (!buf) return UINT64_MAX;
    uint64_t found = UINT64_MAX;
    for (uint64_t at = bad + 1; at + HEADER_LEN <= stop && found == UINT64_MAX;) {
        ssize_t r = pread(fd, buf, CHUNK, (off_t)at);
        if (r < 4) break;
        const uint8_t *p = buf, *end = buf + r;
        while (p + 4 <= end && (p = memmem(p, (size_t)(end - p), RECORD_MAGIC, 4)) != NULL) {
            uint64_t cand = at + (uint64_t)(p - buf);
            if (valid_record_at(fd, cand, upto, after_seq)) {
                found = cand;
                break;
            }
            p++;
        }
        at += (uint64_t)r - 3; /* a magic split over two chunks is seen in the next */
    }
    free(buf);
    return found;
}

/* The records after `from` that end at or before `upto`, up to the first
 * FENCE, torn or corrupt record, with ABORTed ones dropped, each with its
 * payload (read once, checked against its CRC). *out is malloc'd
 * (free_records); *scan_end is where the last valid record of any type
 * ended (`from` if none). With `damage` (may be NULL): when the scan
 * stopped at a bad record that a valid record follows, damage->bad and
 * damage->next_valid say where (else damage->bad is UINT64_MAX).
 * Returns 0 or -1 (errno). */
static int read_records(int fd, uint64_t from, uint64_t upto, uint64_t prev_seq,
                        pending_record **out, size_t *n, uint64_t *scan_end,
                        rl_journal_damage *damage)
{
    if (damage) {
        damage->bad = damage->next_valid = UINT64_MAX;
        damage->records_before = 0;
    }
    bool fenced = false;
    *out = NULL;
    *n = 0;
    size_t cap = 0;
    uint64_t off = from, last_seq = prev_seq;
    for (;;) {
        uint8_t h[HEADER_LEN];
        ssize_t r = pread(fd, h, HEADER_LEN, (off_t)off);
        if (r != HEADER_LEN || memcmp(h, RECORD_MAGIC, 4) != 0) break;
        uint32_t len = rl_load_be32(h + 4);
        uint64_t seq = rl_load_be64(h + 9);
        if (len > MAX_PAYLOAD || off + HEADER_LEN + len > upto) break;
        uint8_t *payload = malloc(len ? len : 1);
        if (!payload) goto oom;
        if ((len && pread(fd, payload, len, (off_t)(off + HEADER_LEN)) != (ssize_t)len) ||
            record_crc(h, payload, len) != rl_load_be32(h + 17) || h[8] == REC_FENCE ||
            (h[8] == REC_DATA && seq <= last_seq) || /* out of order: not ours to trust */
            (h[8] != REC_DATA && h[8] != REC_ABORT)) {
            fenced = h[8] == REC_FENCE && record_crc(h, payload, len) == rl_load_be32(h + 17);
            free(payload);
            break;
        }
        uint64_t end = off + HEADER_LEN + len;
        if (h[8] == REC_ABORT) {
            free(payload);
            if (*n && (*out)[*n - 1].seq == seq) free((*out)[--*n].payload);
        } else {
            pending_record *grown = rl_array_reserve(*out, *n, &cap, sizeof **out, 16);
            if (!grown) {
                free(payload);
                goto oom;
            }
            *out = grown;
            (*out)[(*n)++] = (pending_record){payload, len, seq, end};
            last_seq = seq;
        }
        off = end;
    }
    *scan_end = off;
    /* Beyond `upto` too: a takeover that refused this file before named
     * the damaged record as its cut, and a later open must still see it.
     * In a takeover the old writer may still be appending (it learns of
     * the fence at its next sync), so the record at `off` may be one it
     * had not finished when the scan read it, and another may follow by
     * the time we look. Its records are written one after another, so once
     * a later one is whole, this one is whole too unless it is damaged:
     * it is read again after the search. */
    if (damage && !fenced && !valid_record_at(fd, off, UINT64_MAX, last_seq)) {
        uint64_t next = valid_record_after(fd, off, UINT64_MAX, last_seq);
        if (next != UINT64_MAX && !valid_record_at(fd, off, UINT64_MAX, last_seq)) {
            damage->bad = off;
            damage->next_valid = next;
            damage->records_before = *n;
        }
    }
    return 0;
oom:
    free_records(*out, *n);
    *out = NULL;
    *n = 0;
    errno = ENOMEM;
    return -1;
}

/* v1 (files of RockLake before the zero-filled layout): append a FENCE
 * through O_APPEND, so that the old writer's next append lands after it,
 * and read what precedes it. */
static int fence_v1(const char *path, int fd, const rl_journal_pos *prev, pending_record **recs,
                    size_t *n, rl_journal_damage *damage, kv_error *err)
{
    int afd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
    int rc = 0;
    if (afd < 0 || write_record(afd, -1, REC_FENCE, 0, NULL, 0) < 0 || fdatasync(afd) < 0)
        rc = fail(err, KV_ERR_IO, "cannot fence journal %s: %s" IO_HINT, path, strerror(errno));
    if (afd >= 0) close(afd);
    uint64_t scan_end;
    if (rc == 0 && read_records(fd, prev->offset, UINT64_MAX, prev->seq, recs, n, &scan_end, damage) < 0)
        rc = fail(err, errno == ENOMEM ? KV_ERR_INTERNAL : KV_ERR_IO,
                  "cannot read journal %s: %s" IO_HINT, path, strerror(errno));
    return rc;
}

/* v2: name the cut in the fence slot. FENCING first, so that from here on
 * the old writer acknowledges nothing without knowing the cut; then the
 * scan, whose end is the cut (every record the old writer acknowledged
 * before it saw FENCING was written before FENCING was, so the scan sees
 * it whole); then FENCED + fdatasync. A cut an earlier takeover named
 * stays: the old writer may have acted on it. */
static int fence_v2(const char *path, int fd, const rl_journal_pos *prev, pending_record **recs,
                    size_t *n, rl_journal_damage *damage, kv_error *err)
{
    uint64_t from = prev->offset > RL_JOURNAL_DATA_START ? prev->offset : RL_JOURNAL_DATA_START;
    uint64_t cut = 0, scan_end;
    slot_read s = read_slot(fd, &cut);
    bool ok = s != SLOT_ERROR && (s == SLOT_DONE || write_slot(fd, SLOT_FENCING, 0) == 0);
    if (ok && s != SLOT_DONE) rl_crash_point(RL_CRASH_JOURNAL_FENCING);
    ok = ok &&
         read_records(fd, from, s == SLOT_DONE ? cut : UINT64_MAX, prev->seq, recs, n,
                      &scan_end, damage) == 0 &&
         (s == SLOT_DONE || write_slot(fd, SLOT_FENCED, scan_end) == 0) &&
         !rl_io_fault(RL_IO_FAULT_SYNC, path) && fdatasync(fd) == 0;
    if (!ok) {
        int e = errno;
        free_records(*recs, *n);
        *recs = NULL;
        *n = 0;
        return fail(err, e == ENOMEM ? KV_ERR_INTERNAL : KV_ERR_IO,
                    "cannot fence journal %s: %s" IO_HINT, path, strerror(e));
    }
    rl_crash_point(RL_CRASH_JOURNAL_FENCED);
    return 0;
}

/* Which layout `fd` has: 1 or 2, 0 for a v2 file whose creation never
 * finished (no record can be in it), -1 with *err set if it is neither
 * (-2: it does not start with a journal header). */
static int file_version(const char *path, int fd, kv_error *err)
{
    uint8_t h[8];
    ssize_t r = pread(fd, h, sizeof h, 0);
    if (r < 0)
        return fail(err, KV_ERR_IO, "cannot read journal %s: %s" IO_HINT, path, strerror(errno));
    if (r == 0 || (r >= 4 && memcmp(h, RECORD_MAGIC, 4) == 0)) return 1;
    if (r == sizeof h && memcmp(h, FILE_MAGIC, 4) == 0) {
        if (rl_load_be32(h + 4) == FILE_VERSION) return 2;
        return fail(err, KV_ERR_CORRUPT,
                    "journal %s has layout version %" PRIu32 ", which this RockLake does not "
                    "know: open the store with the version that wrote it",
                    path, rl_load_be32(h + 4));
    }
    if (memcmp(h, FILE_MAGIC, (size_t)r < 4 ? (size_t)r : 4) == 0 && r < (ssize_t)sizeof h)
        return 0;
    fail(err, KV_ERR_CORRUPT,
         "journal %s does not start with a journal header (it is damaged, or not a RockLake "
         "journal) and holds the commits acknowledged since the last SlateDB flush: restore "
         "the file from a backup, or give them up with `rocklake serve --journal-salvage` "
         "(read-only; " DOC_DAMAGED ")", path);
    return -2; /* a damaged file, not an I/O error: --journal-salvage applies */
}

/* --journal-salvage of a file that is missing or not a journal: none of
 * its records can be read, so all of them are given up. */
static void give_up_file(rl_journal_damage *damage, bool missing)
{
    damage->bad = 0;
    damage->next_valid = UINT64_MAX;
    damage->records_before = 0;
    damage->whole_file = true;
    damage->missing = missing;
}

int rl_journal_recover(const char *dir, const rl_journal_pos *prev, rl_journal_replay_fn fn,
                       void *ctx, uint64_t *last_seq, kv_error *err)
{
    rl_journal_damage damage;
    return rl_journal_recover_ex(dir, prev, false, fn, ctx, last_seq, &damage, err);
}

int rl_journal_recover_ex(const char *dir, const rl_journal_pos *prev, bool salvage,
                          rl_journal_replay_fn fn, void *ctx, uint64_t *last_seq,
                          rl_journal_damage *damage, kv_error *err)
{
    *last_seq = prev->seq;
    damage->bad = damage->next_valid = UINT64_MAX;
    damage->records_before = 0;
    damage->whole_file = damage->missing = false;
    if (prev->file_id == 0) return 0;
    char *path = file_path(dir, prev->file_id);
    if (!path) return fail(err, KV_ERR_INTERNAL, "out of memory opening the journal");
    int fd = open(path, O_RDWR | O_CLOEXEC);
    if (fd < 0 && errno == ENOENT && salvage) {
        give_up_file(damage, true);
        free(path);
        return 0;
    }
    if (fd < 0) {
        int e = errno;
        if (e == ENOENT)
            fail(err, KV_ERR_CORRUPT,
                 "cannot open journal %s, which the store names as holding its latest "
                 "commits: %s; restore the file from a backup, or give those commits up with "
                 "`rocklake serve --journal-salvage` (read-only; " DOC_OPEN ")",
                 path, strerror(e));
        else
            fail(err, KV_ERR_IO,
                 "cannot open journal %s, which the store names as holding its latest "
                 "commits: %s; check the file's permissions and the disk, then start again "
                 "(" DOC_OPEN ")", path, strerror(e));
        free(path);
        return -1;
    }
    pending_record *recs = NULL;
    size_t n = 0;
    int version = file_version(path, fd, err);
    if (version == -2 && salvage) {
        give_up_file(damage, false);
        close(fd);
        free(path);
        return 0;
    }
    int rc = version < 0 ? -1
             : version == 1 ? fence_v1(path, fd, prev, &recs, &n, damage, err)
             : version == 2 ? fence_v2(path, fd, prev, &recs, &n, damage, err)
             : 0;
    if (rc == 0 && damage->bad != UINT64_MAX && !salvage)
        rc = fail(err, KV_ERR_CORRUPT,
                  "journal %s is damaged: the record at offset %" PRIu64 " fails its checksum "
                  "but a valid record follows at offset %" PRIu64 ", so it is not a torn write; "
                  "the commits from offset %" PRIu64 " on would be lost. Restore the file from a "
                  "backup, or accept the loss with `rocklake serve --journal-salvage` (serves "
                  "the commits before it, read-only; docs/operations.md)",
                  path, damage->bad, damage->next_valid, damage->bad);
    for (size_t i = 0; rc == 0 && i < n; i++) {
        if (fn(ctx, recs[i].payload, recs[i].len, recs[i].seq, recs[i].end, err) < 0) rc = -1;
        else *last_seq = recs[i].seq;
    }
    free_records(recs, n);
    close(fd);
    free(path);
    return rc;
}

int rl_journal_peek(const char *dir, const rl_journal_pos *pos, uint64_t *last_seq,
                    kv_error *err)
{
    *last_seq = pos->seq;
    if (pos->file_id == 0) return 0;
    char *path = file_path(dir, pos->file_id);
    if (!path) return fail(err, KV_ERR_INTERNAL, "out of memory reading the journal");
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        int rc = e == ENOENT ? 0 : fail(err, KV_ERR_IO, "cannot read journal %s: %s", path,
                                        strerror(e));
        free(path);
        return rc;
    }
    int version = file_version(path, fd, err);
    uint64_t off = pos->offset;
    if (version == 2 && off < RL_JOURNAL_DATA_START) off = RL_JOURNAL_DATA_START;
    uint64_t before = pos->seq; /* the DATA seq before the last one, for an ABORT */
    while (version > 0) {
        if (!valid_record_at(fd, off, UINT64_MAX, *last_seq)) {
            /* zeros ahead of the records, a hole the writer released, or
             * a record being written: look for a valid record after it */
            uint64_t next = valid_record_after(fd, off, UINT64_MAX, *last_seq);
            if (next == UINT64_MAX) break;
            off = next;
        }
        uint8_t h[HEADER_LEN];
        if (pread(fd, h, HEADER_LEN, (off_t)off) != HEADER_LEN) break;
        uint64_t seq = rl_load_be64(h + 9);
        if (h[8] == REC_DATA) {
            before = *last_seq;
            *last_seq = seq;
        } else if (h[8] == REC_ABORT && seq == *last_seq) {
            *last_seq = before;
        }
        off += HEADER_LEN + rl_load_be32(h + 4);
    }
    close(fd);
    free(path);
    return version < 0 ? -1 : 1;
}

int rl_journal_set_aside(const char *dir, uint64_t file_id, char *newpath, size_t n)
{
    char *path = file_path(dir, file_id);
    if (!path) return -1;
    snprintf(newpath, n, "%s.damaged", path);
    int rc = rename(path, newpath);
    if (rc == 0) sync_dir(dir);
    free(path);
    return rc;
}

/* ------------------------------------------------------------ this writer */

/* Write zeros from alloc_end on, ZERO_CHUNK of them. Best effort: without
 * them a record simply grows the file. false if not one byte was written
 * (the disk is full: the syncer stops trying). */
static bool zero_fill(rl_journal *j)
{
    static const uint8_t zeros[65536];
    pthread_mutex_lock(&j->extend_mu);
    uint64_t at = atomic_load(&j->alloc_end), stop = at + ZERO_CHUNK;
    while (at < stop) {
        ssize_t w = pwrite(j->fd, zeros, sizeof zeros, (off_t)at);
        if (w <= 0) break;
        at += (uint64_t)w;
    }
    bool progress = at > atomic_load(&j->alloc_end);
    atomic_store(&j->alloc_end, at);
    pthread_mutex_unlock(&j->extend_mu);
    return progress;
}

/* The fence slot after a successful fdatasync: 0 (none), 1 with *cut
 * (FENCED), -1 (a read failed, errno; or the takeover never named its
 * cut, ETIMEDOUT). A slot being changed means a new writer is scanning:
 * wait for its cut, since records it sees whole are replayed and must be
 * acknowledged, and the others must not be. */
static int await_fence(rl_journal *j, uint64_t *cut)
{
    for (int waited_ms = 0;; waited_ms++) {
        switch (read_slot(j->fd, cut)) {
        case SLOT_NONE: return 0;
        case SLOT_DONE: return 1;
        case SLOT_ERROR: return -1;
        case SLOT_CHANGING: break;
        }
        if (waited_ms >= FENCE_WAIT_MS) {
            errno = ETIMEDOUT;
            return -1;
        }
        usleep(1000);
    }
}

/* Once fenced at `cut`: the last DATA seq at or before it among our records
 * after {from_seq, from_end} (which a sync covered), in *seq. Returns 0 or
 * -1 (errno). */
static int last_seq_before(rl_journal *j, uint64_t from_end, uint64_t from_seq, uint64_t cut,
                           uint64_t *seq)
{
    pending_record *recs;
    size_t n;
    uint64_t scan_end;
    if (read_records(j->fd, from_end, cut, from_seq, &recs, &n, &scan_end, NULL) < 0) return -1;
    *seq = n ? recs[n - 1].seq : from_seq;
    free_records(recs, n);
    return 0;
}

/* Under sync_mu, with no fdatasync running: one fdatasync that covers
 * every record written so far, then a look at the fence slot. Drops
 * sync_mu while it runs; wakes the waiters of rl_journal_sync when done. */
static void sync_step(rl_journal *j)
{
    assert(pthread_mutex_trylock(&j->sync_mu) == EBUSY); /* under sync_mu */
    assert(!j->syncing);
    j->syncing = true;
    uint64_t target = j->pending_seq, target_end = j->pending_end;
    uint64_t from_seq = j->durable_seq, from_end = j->durable_end;
    pthread_mutex_unlock(&j->sync_mu);
    uint64_t cut = 0, fence_seq = 0;
    int fenced = 0;
    int r = rl_io_fault(RL_IO_FAULT_SYNC, j->path) ? -1 : fdatasync(j->fd);
    if (r == 0) rl_crash_point(RL_CRASH_JOURNAL_AFTER_SYNC);
    if (r == 0 && (fenced = await_fence(j, &cut)) < 0) r = -1;
    /* Fenced: the records up to the cut are ours to acknowledge, so make
     * sure they are on disk (some may have been written after `target`
     * was taken), and find the last of them. */
    if (fenced == 1 &&
        (fdatasync(j->fd) < 0 || last_seq_before(j, from_end, from_seq, cut, &fence_seq) < 0))
        r = -1;
    int e = errno;
    pthread_mutex_lock(&j->sync_mu);
    j->syncing = false;
    if (r < 0) {
        j->sync_errno = e;
        j->fence_stalled = e == ETIMEDOUT;
        atomic_store(&j->failed, KV_ERR_IO);
    } else if (fenced == 1) {
        if (fence_seq > j->durable_seq) j->durable_seq = fence_seq;
        j->fence_cut = cut;
        int none = 0;
        atomic_compare_exchange_strong(&j->failed, &none, KV_ERR_FENCED);
    } else if (target > j->durable_seq || target_end > j->durable_end) {
        j->durable_seq = target;
        j->durable_end = target_end;
    }
    pthread_cond_broadcast(&j->sync_done);
}

/* Under sync_mu: is there a written record no fdatasync covers yet, and
 * may one run? */
static bool sync_needed(rl_journal *j)
{
    assert(pthread_mutex_trylock(&j->sync_mu) == EBUSY); /* under sync_mu */
    return !j->syncing && j->durable_end < j->pending_end && atomic_load(&j->failed) == 0;
}

static void *syncer_main(void *arg)
{
    rl_journal *j = arg;
    pthread_mutex_lock(&j->sync_mu);
    while (!j->stopping) {
        if (sync_needed(j)) {
            sync_step(j);
        } else if (atomic_load(&j->alloc_end) - j->pending_end < ZERO_CHUNK / 2 &&
                   !j->zero_fill_failed && atomic_load(&j->failed) == 0) {
            pthread_mutex_unlock(&j->sync_mu);
            bool progress = zero_fill(j);
            pthread_mutex_lock(&j->sync_mu);
            j->zero_fill_failed = !progress;
        } else {
            pthread_cond_wait(&j->sync_wanted, &j->sync_mu);
        }
    }
    pthread_mutex_unlock(&j->sync_mu);
    return NULL;
}

/* The file header: layout magic and version, the fence slot zeroed. */
static int write_file_header(int fd)
{
    uint8_t h[RL_JOURNAL_DATA_START] = {0};
    memcpy(h, FILE_MAGIC, 4);
    rl_store_be32(h + 4, FILE_VERSION);
    return pwrite(fd, h, sizeof h, 0) == (ssize_t)sizeof h ? 0 : -1;
}

rl_journal *rl_journal_create(const char *dir, uint64_t last_seq, kv_error *err)
{
    if (mkdir(dir, 0755) < 0 && errno != EEXIST) {
        fail(err, KV_ERR_IO, "cannot create journal directory %s: %s", dir, strerror(errno));
        return NULL;
    }
    rl_journal *j = calloc(1, sizeof *j);
    if (!j) {
        fail(err, KV_ERR_INTERNAL, "out of memory opening the journal");
        return NULL;
    }
    j->fd = -1;
    do {
        if (getrandom(&j->id, sizeof j->id, 0) != sizeof j->id) {
            fail(err, KV_ERR_IO, "getrandom: %s", strerror(errno));
            goto fail;
        }
    } while (j->id == 0);
    if (!(j->path = file_path(dir, j->id))) {
        fail(err, KV_ERR_INTERNAL, "out of memory opening the journal");
        goto fail;
    }
    pthread_mutex_init(&j->extend_mu, NULL);
    j->end = j->released = RL_JOURNAL_DATA_START;
    j->alloc_end = RL_JOURNAL_DATA_START;
    j->fd = open(j->path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (j->fd >= 0 && write_file_header(j->fd) == 0) zero_fill(j);
    struct stat st;
    if (j->fd < 0 || atomic_load(&j->alloc_end) == RL_JOURNAL_DATA_START ||
        rl_io_fault(RL_IO_FAULT_SYNC, j->path) || fsync(j->fd) < 0 || sync_dir(dir) < 0 ||
        fstat(j->fd, &st) < 0) {
        fail(err, KV_ERR_IO, "cannot create journal %s: %s", j->path,
             errno ? strerror(errno) : "short write");
        goto fail_mu;
    }
    j->dev = st.st_dev;
    j->ino = st.st_ino;
    j->next_seq = last_seq + 1;
    j->durable_seq = j->pending_seq = last_seq;
    j->durable_end = j->pending_end = j->end;
    pthread_mutex_init(&j->sync_mu, NULL);
    pthread_cond_init(&j->sync_done, NULL);
    pthread_cond_init(&j->sync_wanted, NULL);
    int e = pthread_create(&j->syncer, NULL, syncer_main, j);
    if (e != 0) {
        fail(err, KV_ERR_IO, "cannot start the journal's sync thread: %s", strerror(e));
        pthread_mutex_destroy(&j->sync_mu);
        pthread_cond_destroy(&j->sync_done);
        pthread_cond_destroy(&j->sync_wanted);
        goto fail_mu;
    }
    return j;
fail_mu:
    pthread_mutex_destroy(&j->extend_mu);
fail:
    if (j->fd >= 0) {
        close(j->fd);
        unlink(j->path);
    }
    free(j->path);
    free(j);
    return NULL;
}

uint64_t rl_journal_file_id(const rl_journal *j) { return j->id; }

void rl_journal_close(rl_journal *j)
{
    if (!j) return;
    pthread_mutex_lock(&j->sync_mu);
    j->stopping = true;
    pthread_cond_signal(&j->sync_wanted);
    pthread_mutex_unlock(&j->sync_mu);
    pthread_join(j->syncer, NULL);
    close(j->fd);
    pthread_mutex_destroy(&j->sync_mu);
    pthread_mutex_destroy(&j->extend_mu);
    pthread_cond_destroy(&j->sync_done);
    pthread_cond_destroy(&j->sync_wanted);
    free(j->path);
    free(j);
}

void rl_journal_discard(rl_journal *j)
{
    if (!j) return;
    unlink(j->path);
    rl_journal_close(j);
}

void rl_journal_remove_file(const char *dir, uint64_t file_id)
{
    char *path = file_path(dir, file_id);
    if (path && unlink(path) == 0) sync_dir(dir);
    free(path);
}

static int refuse(rl_journal *j, kv_error *err)
{
    if (atomic_load(&j->gone))
        return fail(err, KV_ERR_IO,
                    "journal %s is no longer at that path: the store's directory was removed, "
                    "moved or replaced while this server was writing it, so a commit now could "
                    "not be recovered from it; writes are refused until the server is stopped "
                    "and the store checked (" DOC_GONE ")",
                    j->path);
    if (atomic_load(&j->failed) == KV_ERR_FENCED)
        return fail(err, KV_ERR_FENCED,
                    "a newer writer took over this store (it fenced journal %s)", j->path);
    char why[160];
    rl_journal_failed(j, why, sizeof why);
    return fail(err, KV_ERR_IO,
                "journal %s failed earlier (%s): this lake takes no commits until the server "
                "has reopened it from its files, which it does by itself once the disk works "
                "again",
                j->path, why);
}

int rl_journal_failed(rl_journal *j, char *why, size_t n)
{
    if (why && n) why[0] = 0;
    int failed = atomic_load(&j->failed);
    if (failed == 0 || failed == KV_ERR_FENCED) return 0;
    if (atomic_load(&j->gone)) {
        if (why) snprintf(why, n, "the file is no longer at that path");
        return 2;
    }
    pthread_mutex_lock(&j->sync_mu);
    int sync_errno = j->sync_errno;
    bool stalled = j->fence_stalled;
    pthread_mutex_unlock(&j->sync_mu);
    int write_errno = atomic_load(&j->write_errno);
    if (!why) return 1;
    if (stalled)
        snprintf(why, n, "a takeover did not name its cut in time");
    else if (sync_errno)
        snprintf(why, n, "fdatasync: %s", strerror(sync_errno));
    else if (write_errno)
        snprintf(why, n, "write: %s", strerror(write_errno));
    else
        snprintf(why, n, "a commit's cancel record could not be written");
    return 1;
}

/* Why a sync could not cover a record: the fdatasync's error when one
 * failed, else the journal's sticky state. Always -1. */
static int sync_failure(rl_journal *j, int sync_errno, bool stalled, kv_error *err)
{
    if (stalled)
        return fail(err, KV_ERR_IO,
                    "a newer writer began taking over this store (journal %s) and did not "
                    "finish within %d s: whether the latest commits are kept is decided by the "
                    "next writer that opens the store; check before retrying",
                    j->path, FENCE_WAIT_MS / 1000);
    if (sync_errno)
        return fail(err, KV_ERR_IO,
                    "cannot sync journal %s: %s; the commits it did not cover were not "
                    "acknowledged and may or may not be kept; the server reopens the lake from "
                    "its files by itself once the disk works again",
                    j->path, strerror(sync_errno));
    return refuse(j, err);
}

/* Is the open file still the one at `path`? The next writer of the store
 * reads the journal by that path: a record written to a file that was
 * removed, or whose directory was moved or replaced (`rm -rf` of a live
 * store, a restore into place), would be acknowledged and never replayed,
 * and SlateDB, which writes by path, would put the same batch into
 * whatever is there now. One stat per append; an fdatasync costs far more. */
static bool at_its_path(const rl_journal *j)
{
    struct stat st;
    return stat(j->path, &st) == 0 && st.st_dev == j->dev && st.st_ino == j->ino;
}

/* Write one record at `end` (zeros there, unless the zero-filling fell
 * behind: then under extend_mu, which keeps it from overwriting us). */
static int append_checked(rl_journal *j, int type, uint64_t seq, const uint8_t *payload,
                          size_t len, kv_error *err)
{
    if (atomic_load(&j->failed)) return refuse(j, err);
    if (!at_its_path(j)) {
        /* A takeover removes our file once it has fenced it: refuse this
         * record as fenced and leave the earlier ones to the next sync,
         * which reads the cut (those before it are still acknowledged). */
        uint64_t cut;
        slot_read slot = read_slot(j->fd, &cut);
        if (slot == SLOT_DONE || slot == SLOT_CHANGING)
            return fail(err, KV_ERR_FENCED,
                        "a newer writer took over this store (it fenced journal %s)", j->path);
        atomic_store(&j->gone, true);
        atomic_store(&j->failed, KV_ERR_IO);
        return refuse(j, err);
    }
    if (len > MAX_PAYLOAD)
        return fail(err, KV_ERR_INVALID, "a commit of %zu bytes exceeds the journal's 1 GiB limit",
                    len);
    uint64_t end = j->end + HEADER_LEN + len;
    bool crosses = end > atomic_load(&j->alloc_end);
    if (crosses) pthread_mutex_lock(&j->extend_mu);
    int rc = rl_io_fault(RL_IO_FAULT_WRITE, j->path) ? -1
             : write_record(j->fd, (int64_t)j->end, type, seq, payload, len);
    int e = errno;
    if (crosses) {
        if (end > atomic_load(&j->alloc_end)) atomic_store(&j->alloc_end, end);
        pthread_mutex_unlock(&j->extend_mu);
    }
    if (rc < 0) {
        atomic_store(&j->write_errno, e);
        atomic_store(&j->failed, KV_ERR_IO);
        return fail(err, KV_ERR_IO, "cannot write to journal %s: %s", j->path, strerror(e));
    }
    assert(end > j->end && end <= atomic_load(&j->alloc_end));
    j->end = end;
    return 0;
}

int rl_journal_append(rl_journal *j, const uint8_t *payload, size_t len, uint64_t *seq,
                      uint64_t *end, kv_error *err)
{
    uint64_t s = j->next_seq;
    rl_crash_point(RL_CRASH_JOURNAL_BEFORE_WRITE);
    if (append_checked(j, REC_DATA, s, payload, len, err) < 0) return -1;
    rl_crash_point(RL_CRASH_JOURNAL_AFTER_WRITE);
    j->next_seq++;
    *seq = s;
    *end = j->end;
    pthread_mutex_lock(&j->sync_mu);
    assert(s > j->pending_seq && j->pending_end <= j->end && j->durable_end <= j->pending_end);
    j->pending_seq = s;
    j->pending_end = j->end;
    if (!j->syncing) pthread_cond_signal(&j->sync_wanted);
    pthread_mutex_unlock(&j->sync_mu);
    return 0;
}

int rl_journal_abort(rl_journal *j, uint64_t seq, kv_error *err)
{
    assert(seq + 1 == j->next_seq); /* the record just appended (journal.h) */
    if (append_checked(j, REC_ABORT, seq, NULL, 0, err) < 0) {
        /* The DATA record stays valid on disk: stop here so nothing more is
         * acknowledged on top of a record the store never applied. A fence
         * keeps its state: the records before its cut are replayed by the
         * new writer, so they did commit and are still acknowledged. */
        int none = 0;
        atomic_compare_exchange_strong(&j->failed, &none, KV_ERR_IO);
        return -1;
    }
    uint64_t abort_end = j->end;
    /* The DATA record may already be on disk (the sync thread starts at
     * every append): the ABORT must be too before the caller reports the
     * refusal, or a power loss now would bring the refused batch back. The
     * ABORT has no seq of its own, so wait out a running sync (it may have
     * started before the ABORT was written) and run one more. */
    pthread_mutex_lock(&j->sync_mu);
    j->pending_end = abort_end;
    while (j->syncing) pthread_cond_wait(&j->sync_done, &j->sync_mu);
    if (atomic_load(&j->failed) == 0) sync_step(j);
    int failed = atomic_load(&j->failed);
    /* Fenced: with the ABORT before the cut the new writer skips the DATA
     * record, and with the DATA past the cut it never sees it; only a cut
     * between the two replays a batch the store refused. */
    uint64_t data_end = abort_end - HEADER_LEN;
    bool ok = failed == 0 || (failed == KV_ERR_FENCED &&
                              (abort_end <= j->fence_cut || data_end > j->fence_cut));
    int sync_errno = j->sync_errno;
    bool stalled = j->fence_stalled;
    pthread_mutex_unlock(&j->sync_mu);
    return ok ? 0 : sync_failure(j, sync_errno, stalled, err);
}

int rl_journal_sync(rl_journal *j, uint64_t seq, kv_error *err)
{
    pthread_mutex_lock(&j->sync_mu);
    /* Once fenced, durable_seq is final: the records up to the cut. */
    while (j->durable_seq < seq && atomic_load(&j->failed) == 0) {
        if (j->syncing)
            pthread_cond_wait(&j->sync_done, &j->sync_mu);
        else
            sync_step(j);
    }
    bool durable = j->durable_seq >= seq;
    int sync_errno = j->sync_errno;
    bool stalled = j->fence_stalled;
    pthread_mutex_unlock(&j->sync_mu);
    if (durable) return 0;
    return sync_failure(j, sync_errno, stalled, err);
}

uint64_t rl_journal_durable_seq(rl_journal *j)
{
    pthread_mutex_lock(&j->sync_mu);
    uint64_t d = j->durable_seq;
    pthread_mutex_unlock(&j->sync_mu);
    return d;
}

void rl_journal_written(rl_journal *j, uint64_t *seq, uint64_t *end)
{
    pthread_mutex_lock(&j->sync_mu);
    *seq = j->pending_seq;
    *end = j->pending_end;
    pthread_mutex_unlock(&j->sync_mu);
}

void rl_journal_release(rl_journal *j, uint64_t offset)
{
    uint64_t upto = offset & ~(uint64_t)4095;
    if (upto <= j->released) return;
    /* Best effort: without hole punching the file only keeps its space. */
    if (fallocate(j->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, (off_t)j->released,
                  (off_t)(upto - j->released)) == 0)
        j->released = upto;
}
