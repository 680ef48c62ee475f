/*
 * journal.c — the commit journal of a local writer (journal.h).
 *
 * Owns: journal files, record framing and CRCs, fencing by append offset,
 * group fdatasync, hole punching of released space.
 *
 * Invariants (beyond journal.h):
 *  - `end` is where this writer's last write ended. O_APPEND puts every
 *    write at the file's end, so a write that does not end at end + its
 *    length had someone else's bytes before it: a FENCE.
 *  - written_seq only grows, after the record's write() returned; durable_seq
 *    <= written_seq. `failed` is sticky. A fenced journal still syncs and
 *    acknowledges the records written before the FENCE: they are replayed
 *    by the new writer, so they did commit.
 *  - One fdatasync runs at a time (`syncing`). The syncer thread starts one
 *    as soon as a record is written, so the fdatasync overlaps the caller's
 *    hand-off of the same batch to SlateDB instead of following it; a
 *    caller of rl_journal_sync that finds none running starts one itself.
 */
#include "journal.h"

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

#include "buf.h"

#define RECORD_MAGIC "RLJ1"
#define HEADER_LEN 25 /* magic 4, length 4, type 1, seq 8, crc 4 */
#define MAX_PAYLOAD (1u << 30)

enum { REC_DATA = 1, REC_ABORT = 2, REC_FENCE = 3 };

struct rl_journal {
    int fd;
    uint64_t id;
    char *path;
    uint64_t end;      /* appends: under the caller's lock */
    uint64_t next_seq; /* appends: under the caller's lock */
    _Atomic uint64_t written_seq, written_end;
    pthread_mutex_t sync_mu;
    pthread_cond_t sync_done;   /* a sync finished */
    pthread_cond_t sync_wanted; /* a record was written: wakes the syncer */
    pthread_t syncer;
    bool syncing;          /* under sync_mu: an fdatasync is running */
    bool stopping;         /* under sync_mu: the syncer must exit */
    int sync_errno;        /* under sync_mu: why the last fdatasync failed */
    uint64_t durable_seq;  /* under sync_mu */
    _Atomic int failed;    /* 0, or the kv_error_kind that stopped the journal */
    uint64_t released;     /* bytes before this are holes */
};

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

/* One whole write at the end of `fd`; the offset it ended at in *end. */
static int append_record(int fd, int type, uint64_t seq, const uint8_t *payload, size_t len,
                         uint64_t *end)
{
    uint8_t h[HEADER_LEN];
    make_header(h, type, seq, payload, len);
    struct iovec iov[2] = {{h, HEADER_LEN}, {(void *)payload, len}};
    ssize_t w = writev(fd, iov, len ? 2 : 1);
    if (w != (ssize_t)(HEADER_LEN + len)) {
        if (w >= 0) errno = ENOSPC;
        return -1;
    }
    off_t at = lseek(fd, 0, SEEK_CUR);
    if (at < 0) return -1;
    *end = (uint64_t)at;
    return 0;
}

/* The records after `from` up to the first FENCE, torn or corrupt record,
 * with ABORTed ones dropped, each with its payload (read once, checked
 * against its CRC). *out is malloc'd (free_records). Returns 0 or -1
 * (errno). */
static int read_records(int fd, uint64_t from, uint64_t prev_seq, pending_record **out,
                        size_t *n)
{
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
        if (len > MAX_PAYLOAD) break;
        uint8_t *payload = malloc(len ? len : 1);
        if (!payload) goto oom;
        if ((len && pread(fd, payload, len, (off_t)(off + HEADER_LEN)) != (ssize_t)len) ||
            record_crc(h, payload, len) != rl_load_be32(h + 17) || h[8] == REC_FENCE ||
            (h[8] == REC_DATA && seq <= last_seq) || /* out of order: not ours to trust */
            (h[8] != REC_DATA && h[8] != REC_ABORT)) {
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
    return 0;
oom:
    free_records(*out, *n);
    *out = NULL;
    *n = 0;
    errno = ENOMEM;
    return -1;
}

int rl_journal_recover(const char *dir, const rl_journal_pos *prev, rl_journal_replay_fn fn,
                       void *ctx, uint64_t *last_seq, kv_error *err)
{
    *last_seq = prev->seq;
    if (prev->file_id == 0) return 0;
    char *path = file_path(dir, prev->file_id);
    if (!path) return fail(err, KV_ERR_INTERNAL, "out of memory opening the journal");
    int fd = open(path, O_RDWR | O_APPEND | O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        fail(err, e == ENOENT ? KV_ERR_CORRUPT : KV_ERR_IO,
             "cannot open journal %s, which the store names as holding its latest commits: %s "
             "(restore the file; commits acknowledged since the last SlateDB flush are in it)",
             path, strerror(e));
        free(path);
        return -1;
    }
    uint64_t fence_end;
    pending_record *recs = NULL;
    size_t n = 0;
    int rc = 0;
    if (append_record(fd, REC_FENCE, 0, NULL, 0, &fence_end) < 0 || fdatasync(fd) < 0) {
        rc = fail(err, KV_ERR_IO, "cannot fence journal %s: %s", path, strerror(errno));
    } else if (read_records(fd, prev->offset, prev->seq, &recs, &n) < 0) {
        rc = fail(err, errno == ENOMEM ? KV_ERR_INTERNAL : KV_ERR_IO,
                  "cannot read journal %s: %s", path, strerror(errno));
    }
    for (size_t i = 0; rc == 0 && i < n; i++) {
        if (fn(ctx, recs[i].payload, recs[i].len, recs[i].seq, recs[i].end, err) < 0) rc = -1;
        else *last_seq = recs[i].seq;
    }
    free_records(recs, n);
    close(fd);
    free(path);
    return rc;
}

/* ------------------------------------------------------------ this writer */

/* Under sync_mu, with no fdatasync running: one fdatasync that covers
 * every record written so far. Drops sync_mu while it runs; wakes the
 * waiters of rl_journal_sync when it is done. */
static void sync_step(rl_journal *j)
{
    j->syncing = true;
    pthread_mutex_unlock(&j->sync_mu);
    uint64_t target = atomic_load(&j->written_seq);
    int r = fdatasync(j->fd);
    int e = errno;
    pthread_mutex_lock(&j->sync_mu);
    j->syncing = false;
    if (r == 0 && target > j->durable_seq) j->durable_seq = target;
    if (r < 0) {
        j->sync_errno = e;
        atomic_store(&j->failed, KV_ERR_IO);
    }
    pthread_cond_broadcast(&j->sync_done);
}

/* Under sync_mu: is there a written record no fdatasync covers yet, and
 * may one run? */
static bool sync_needed(rl_journal *j)
{
    return !j->syncing && j->durable_seq < atomic_load(&j->written_seq) &&
           atomic_load(&j->failed) != KV_ERR_IO;
}

static void *syncer_main(void *arg)
{
    rl_journal *j = arg;
    pthread_mutex_lock(&j->sync_mu);
    while (!j->stopping) {
        if (sync_needed(j))
            sync_step(j);
        else
            pthread_cond_wait(&j->sync_wanted, &j->sync_mu);
    }
    pthread_mutex_unlock(&j->sync_mu);
    return NULL;
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
    j->fd = open(j->path, O_RDWR | O_APPEND | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (j->fd < 0 || fsync(j->fd) < 0 || sync_dir(dir) < 0) {
        fail(err, KV_ERR_IO, "cannot create journal %s: %s", j->path, strerror(errno));
        goto fail;
    }
    j->next_seq = last_seq + 1;
    j->written_seq = j->durable_seq = last_seq;
    pthread_mutex_init(&j->sync_mu, NULL);
    pthread_cond_init(&j->sync_done, NULL);
    pthread_cond_init(&j->sync_wanted, NULL);
    int e = pthread_create(&j->syncer, NULL, syncer_main, j);
    if (e != 0) {
        fail(err, KV_ERR_IO, "cannot start the journal's sync thread: %s", strerror(e));
        pthread_mutex_destroy(&j->sync_mu);
        pthread_cond_destroy(&j->sync_done);
        pthread_cond_destroy(&j->sync_wanted);
        goto fail;
    }
    return j;
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
    if (atomic_load(&j->failed) == KV_ERR_FENCED)
        return fail(err, KV_ERR_FENCED,
                    "a newer writer took over this store (it fenced journal %s)", j->path);
    return fail(err, KV_ERR_IO,
                "journal %s failed earlier; restart the server to recover from it", j->path);
}

/* Why a sync could not cover a record: the fdatasync's error when one
 * failed, else the journal's sticky state. Always -1. */
static int sync_failure(rl_journal *j, int sync_errno, kv_error *err)
{
    if (sync_errno)
        return fail(err, KV_ERR_IO, "cannot sync journal %s: %s; restart the server to recover",
                    j->path, strerror(sync_errno));
    return refuse(j, err);
}

/* Write one record and check that it follows our previous one directly. */
static int append_checked(rl_journal *j, int type, uint64_t seq, const uint8_t *payload,
                          size_t len, kv_error *err)
{
    if (atomic_load(&j->failed)) return refuse(j, err);
    if (len > MAX_PAYLOAD)
        return fail(err, KV_ERR_INVALID, "a commit of %zu bytes exceeds the journal's 1 GiB limit",
                    len);
    uint64_t end;
    if (append_record(j->fd, type, seq, payload, len, &end) < 0) {
        int e = errno;
        atomic_store(&j->failed, KV_ERR_IO);
        return fail(err, KV_ERR_IO, "cannot append to journal %s: %s", j->path, strerror(e));
    }
    if (end != j->end + HEADER_LEN + len) {
        atomic_store(&j->failed, KV_ERR_FENCED);
        return refuse(j, err);
    }
    j->end = end;
    return 0;
}

int rl_journal_append(rl_journal *j, const uint8_t *payload, size_t len, uint64_t *seq,
                      uint64_t *end, kv_error *err)
{
    uint64_t s = j->next_seq;
    if (append_checked(j, REC_DATA, s, payload, len, err) < 0) return -1;
    j->next_seq++;
    atomic_store(&j->written_end, j->end);
    atomic_store(&j->written_seq, s);
    *seq = s;
    *end = j->end;
    pthread_mutex_lock(&j->sync_mu);
    if (!j->syncing) pthread_cond_signal(&j->sync_wanted);
    pthread_mutex_unlock(&j->sync_mu);
    return 0;
}

int rl_journal_abort(rl_journal *j, uint64_t seq, kv_error *err)
{
    if (append_checked(j, REC_ABORT, seq, NULL, 0, err) < 0) {
        /* The DATA record stays valid on disk: stop here so nothing more is
         * acknowledged on top of a record the store never applied. A fence
         * keeps its state: the records before it are replayed by the new
         * writer, so they did commit and are still acknowledged. */
        int none = 0;
        atomic_compare_exchange_strong(&j->failed, &none, KV_ERR_IO);
        return -1;
    }
    atomic_store(&j->written_end, j->end);
    /* The DATA record may already be on disk (the sync thread starts at
     * every append): the ABORT must be too before the caller reports the
     * refusal, or a power loss now would bring the refused batch back. The
     * ABORT has no seq of its own, so wait out a running sync (it may have
     * started before the ABORT was written) and run one more. */
    pthread_mutex_lock(&j->sync_mu);
    while (j->syncing) pthread_cond_wait(&j->sync_done, &j->sync_mu);
    if (atomic_load(&j->failed) != KV_ERR_IO) sync_step(j);
    int sync_errno = j->sync_errno;
    bool failed = atomic_load(&j->failed) == KV_ERR_IO;
    pthread_mutex_unlock(&j->sync_mu);
    return failed ? sync_failure(j, sync_errno, err) : 0;
}

int rl_journal_sync(rl_journal *j, uint64_t seq, kv_error *err)
{
    pthread_mutex_lock(&j->sync_mu);
    while (j->durable_seq < seq && atomic_load(&j->failed) != KV_ERR_IO) {
        /* Fenced: records written before the FENCE are still ours to sync
         * (the new writer replays them); only an I/O failure stops that. */
        if (j->syncing)
            pthread_cond_wait(&j->sync_done, &j->sync_mu);
        else
            sync_step(j);
    }
    bool durable = j->durable_seq >= seq;
    int sync_errno = j->sync_errno;
    pthread_mutex_unlock(&j->sync_mu);
    if (durable) return 0;
    return sync_failure(j, sync_errno, err);
}

uint64_t rl_journal_durable_seq(rl_journal *j)
{
    pthread_mutex_lock(&j->sync_mu);
    uint64_t d = j->durable_seq;
    pthread_mutex_unlock(&j->sync_mu);
    return d;
}

void rl_journal_written(const rl_journal *j, uint64_t *seq, uint64_t *end)
{
    *seq = atomic_load(&j->written_seq);
    *end = atomic_load(&j->written_end);
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
