/*
 * test_journal.c — the commit journal of local writers (journal.h) and what
 * kv.h promises on top of it.
 *
 * Owns: record round trips, recovery from a position, torn and corrupt
 * tails, ABORT records, fencing by a newer writer (the fence slot, a
 * takeover caught mid-scan, an old writer still appending while the new
 * one scans), the zero-filled layout, v1 files, a damaged
 * header, hole punching, the
 * position codec (property test), and at the kv level: acknowledged writes
 * that only the journal holds survive a crash (helper_journal exits
 * without closing the store)
 * and a takeover, a refused batch is never replayed, the position key is
 * invisible to readers of kv.h, and a writer with the journal off still
 * replays. Stores live under $ROCKLAKE_TEST_TMP (default /tmp).
 */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <libgen.h>
#include <limits.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>
#include <zlib.h>

#include "kv/batchcodec.h"
#include "base/buf.h"
#include "kv/journal.h"
#include "kv/kv.h"
#include "kvtest.h"
#include "testutil.h"

static char g_base[PATH_MAX];
static int g_seq;

static void fresh_dir(char *buf, size_t n)
{
    snprintf(buf, n, "%.3000s/j%d", g_base, ++g_seq);
}

/* A fresh file:// store: its directory in dir, its URL in url. */
static void fresh_store(char *dir, size_t dn, char *url, size_t un)
{
    fresh_dir(dir, dn);
    snprintf(url, un, "file://%s", dir);
}

static int rm_entry(const char *p, const struct stat *st, int flag, struct FTW *f)
{
    (void)st, (void)flag, (void)f;
    return remove(p);
}

/* ---- replay collection ---------------------------------------------------- */

typedef struct seen {
    int n;
    uint64_t seqs[64];
    uint64_t ends[64];
    char payloads[64][64];
    int fail_at; /* return -1 at this record (1-based), 0 = never */
} seen;

static int collect(void *ctx, const uint8_t *p, size_t len, uint64_t seq, uint64_t end,
                   kv_error *err)
{
    seen *s = ctx;
    if (s->fail_at && s->n + 1 == s->fail_at) {
        err->kind = KV_ERR_IO;
        snprintf(err->message, sizeof err->message, "stop");
        return -1;
    }
    if (s->n < 64) { /* beyond 64 records only count */
        s->seqs[s->n] = seq;
        s->ends[s->n] = end;
        snprintf(s->payloads[s->n], sizeof s->payloads[0], "%.*s", (int)len, (const char *)p);
    }
    s->n++;
    return 0;
}

static int append_str(rl_journal *j, const char *s, uint64_t *seq, uint64_t *end)
{
    kv_error err;
    int rc = rl_journal_append(j, (const uint8_t *)s, strlen(s), seq, end, &err);
    if (rc < 0) fprintf(stderr, "  append: %s\n", err.message);
    return rc;
}

static char *journal_file(const char *dir, uint64_t id, char *buf, size_t n)
{
    snprintf(buf, n, "%s/journal-%016" PRIx64 ".log", dir, id);
    return buf;
}

/* A new journal in a fresh directory (its path in dir, its file id in *id
 * unless NULL); NULL, after a failed check, if it cannot be created. */
static rl_journal *fresh_journal(char *dir, size_t n, uint64_t *id)
{
    fresh_dir(dir, n);
    kv_error err;
    rl_journal *j = rl_journal_create(dir, 0, &err);
    CHECK(j != NULL);
    if (!j)
        fprintf(stderr, "  create: %s\n", err.message);
    else if (id)
        *id = rl_journal_file_id(j);
    return j;
}

/* ---- 1. the journal module ------------------------------------------------ */

static void test_records_replay_in_order(void)
{
    char dir[PATH_MAX];
    fresh_dir(dir, sizeof dir);
    kv_error err;
    rl_journal *j = rl_journal_create(dir, 41, &err);
    CHECK(j != NULL);
    if (!j) return;
    uint64_t id = rl_journal_file_id(j);
    CHECK(id != 0);
    uint64_t seq[4], end[4];
    const char *data[4] = {"one", "", "three", "four"};
    for (int i = 0; i < 4; i++) CHECK_EQ_INT(append_str(j, data[i], &seq[i], &end[i]), 0);
    CHECK_EQ_INT(seq[0], 42);
    CHECK_EQ_INT(seq[3], 45);
    CHECK(end[0] < end[1] && end[1] < end[2] && end[2] < end[3]);
    CHECK_EQ_INT(rl_journal_sync(j, seq[3], &err), 0);
    uint64_t ws, we;
    rl_journal_written(j, &ws, &we);
    CHECK_EQ_INT(ws, 45);
    CHECK_EQ_INT(we, end[3]);
    rl_journal_close(j);

    /* From the file's start: all four, in order, with their ends. */
    seen s = {0};
    uint64_t last = 0;
    rl_journal_pos from = {id, 41, 0};
    CHECK_EQ_INT(rl_journal_recover(dir, &from, collect, &s, &last, &err), 0);
    CHECK_EQ_INT(s.n, 4);
    for (int i = 0; i < 4 && i < s.n; i++) {
        CHECK_EQ_INT(s.seqs[i], seq[i]);
        CHECK_EQ_INT(s.ends[i], end[i]);
        CHECK_EQ_STR(s.payloads[i], data[i]);
    }
    CHECK_EQ_INT(last, 45);
}

/* A record header's 4 reserved bytes are written as zeros (they were the
 * stack's leftovers: 4 bytes of whatever the thread had there, on disk). */
/* Leave 0xAA in the stack below the caller, where the next call's frame goes. */
__attribute__((noinline)) static void dirty_stack(void)
{
    volatile uint8_t junk[16384];
    for (size_t i = 0; i < sizeof junk; i++) junk[i] = 0xAA;
}

static void test_header_reserved_bytes_are_zero(void)
{
    char dir[PATH_MAX];
    rl_journal *j = fresh_journal(dir, sizeof dir, NULL);
    if (!j) return;
    uint64_t seq, end;
    for (int i = 0; i < 8; i++) {
        dirty_stack();
        CHECK_EQ_INT(append_str(j, "payload of a record", &seq, &end), 0);
    }
    kv_error err;
    CHECK_EQ_INT(rl_journal_sync(j, seq, &err), 0);
    rl_journal_close(j);
    DIR *d = opendir(dir);
    CHECK(d != NULL);
    if (!d) return;
    int records = 0;
    struct dirent *e;
    while ((e = readdir(d)) != NULL) {
        if (strncmp(e->d_name, "journal-", 8) != 0) continue;
        char path[PATH_MAX + 256];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        FILE *f = fopen(path, "rb");
        CHECK(f != NULL);
        if (!f) continue;
        static uint8_t buf[1 << 20];
        size_t n = fread(buf, 1, sizeof buf, f);
        fclose(f);
        for (size_t at = 0; at + 25 <= n; at++) {
            if (memcmp(buf + at, "RLJ1", 4) != 0) continue;
            records++;
            CHECK(buf[at + 21] == 0 && buf[at + 22] == 0 && buf[at + 23] == 0 && buf[at + 24] == 0);
        }
    }
    closedir(d);
    CHECK(records >= 8);
}

static void test_recover_from_position(void)
{
    char dir[PATH_MAX];
    kv_error err;
    uint64_t id, seq, end[3];
    rl_journal *j = fresh_journal(dir, sizeof dir, &id);
    if (!j) return;
    append_str(j, "a", &seq, &end[0]);
    append_str(j, "b", &seq, &end[1]);
    append_str(j, "c", &seq, &end[2]);
    rl_journal_close(j);
    /* The store holds seq 2: only "c" is replayed. */
    seen s = {0};
    uint64_t last = 0;
    rl_journal_pos pos = {id, 2, end[1]};
    CHECK_EQ_INT(rl_journal_recover(dir, &pos, collect, &s, &last, &err), 0);
    CHECK_EQ_INT(s.n, 1);
    CHECK_EQ_STR(s.payloads[0], "c");
    CHECK_EQ_INT(last, 3);
    /* The store holds everything: nothing to replay, last stays. */
    seen none = {0};
    rl_journal_pos all = {id, 3, end[2]};
    CHECK_EQ_INT(rl_journal_recover(dir, &all, collect, &none, &last, &err), 0);
    CHECK_EQ_INT(none.n, 0);
    CHECK_EQ_INT(last, 3);
    /* No file named: nothing to do. */
    rl_journal_pos empty = {0, 7, 0};
    CHECK_EQ_INT(rl_journal_recover(dir, &empty, collect, &none, &last, &err), 0);
    CHECK_EQ_INT(last, 7);
}

/* A crash can leave a torn last record or garbage; recovery keeps what
 * precedes it and stops there. A damaged record in the middle (mode 1) is
 * corruption: refused, or salvaged up to it. */
static void test_torn_and_corrupt_tails(void)
{
    for (int mode = 0; mode < 3; mode++) {
        char dir[PATH_MAX], path[PATH_MAX + 64];
        kv_error err;
        uint64_t id, seq, e1, e2, e3;
        rl_journal *j = fresh_journal(dir, sizeof dir, &id);
        if (!j) return;
        append_str(j, "first", &seq, &e1);
        append_str(j, "second", &seq, &e2);
        append_str(j, "third", &seq, &e3);
        rl_journal_close(j);
        journal_file(dir, id, path, sizeof path);
        if (mode == 0) {
            CHECK_EQ_INT(truncate(path, (off_t)e3 - 2), 0); /* third torn */
        } else if (mode == 1) {
            int fd = open(path, O_WRONLY);
            CHECK_EQ_INT(pwrite(fd, "X", 1, (off_t)e2 - 1), 1); /* second's last byte */
            close(fd);
        } else {
            int fd = open(path, O_WRONLY); /* right after the third */
            CHECK_EQ_INT(pwrite(fd, "RLJ1\0\0\0\x05garbage", 15, (off_t)e3), 15);
            close(fd);
        }
        seen s = {0};
        uint64_t last;
        rl_journal_pos from = {id, 0, 0};
        if (mode == 1) {
            /* a damaged record with a valid one after it is not a torn
             * tail: refused, naming the file and offset; nothing replayed */
            CHECK_EQ_INT(rl_journal_recover(dir, &from, collect, &s, &last, &err), -1);
            CHECK_EQ_INT(err.kind, KV_ERR_CORRUPT);
            CHECK(strstr(err.message, path) != NULL);
            char at[64];
            snprintf(at, sizeof at, "record at offset %" PRIu64 " ", e1);
            CHECK(strstr(err.message, at) != NULL);
            CHECK_EQ_INT(s.n, 0);
            /* salvage replays what precedes it and says where it is */
            rl_journal_damage dmg;
            CHECK_EQ_INT(rl_journal_recover_ex(dir, &from, true, collect, &s, &last, &dmg, &err),
                         0);
            CHECK_EQ_INT(dmg.bad, e1);
            CHECK_EQ_INT(dmg.next_valid, e2);
            CHECK_EQ_INT(dmg.records_before, 1);
        } else {
            CHECK_EQ_INT(rl_journal_recover(dir, &from, collect, &s, &last, &err), 0);
        }
        int want = mode == 0 ? 2 : mode == 1 ? 1 : 3;
        CHECK_EQ_INT(s.n, want);
        CHECK_EQ_STR(s.payloads[0], "first");
        CHECK_EQ_INT(last, (uint64_t)want);
    }
}

static void test_abort_cancels_its_record(void)
{
    char dir[PATH_MAX];
    kv_error err;
    uint64_t id, s1, s2, s3, e;
    rl_journal *j = fresh_journal(dir, sizeof dir, &id);
    if (!j) return;
    append_str(j, "kept", &s1, &e);
    append_str(j, "refused", &s2, &e);
    CHECK_EQ_INT(rl_journal_abort(j, s2, &err), 0);
    append_str(j, "kept too", &s3, &e);
    CHECK(s3 > s2);
    rl_journal_close(j);
    seen s = {0};
    uint64_t last;
    rl_journal_pos from = {id, 0, 0};
    CHECK_EQ_INT(rl_journal_recover(dir, &from, collect, &s, &last, &err), 0);
    CHECK_EQ_INT(s.n, 2);
    CHECK_EQ_STR(s.payloads[0], "kept");
    CHECK_EQ_STR(s.payloads[1], "kept too");
    CHECK_EQ_INT(last, s3);
}

/* ROCKLAKE_TEST_IO_FAULT's flag file (set in main): while it exists the
 * journal's writes or fdatasyncs fail with EIO (base/crashpoint.h). */
static char g_io_fault[PATH_MAX + 16];

static void io_fault(const char *kinds)
{
    FILE *f = fopen(g_io_fault, "w");
    if (!f) return;
    fputs(kinds, f);
    fclose(f);
}

/* A failed fdatasync: the record it did not cover is refused (never
 * acknowledged), the journal says it failed (rl_journal_failed, with the
 * fdatasync's error) and refuses every later record even once the disk
 * works again (after a failed fdatasync the page cache proves nothing, so
 * the file is never reused in place), without asking for a restart. A new
 * writer's recovery, as a reopen runs it, fails while the disk does, then
 * reads back the acknowledged record and the one in doubt. */
static void test_failed_sync_stops_the_journal_until_recovered(void)
{
    char dir[PATH_MAX], why[160];
    kv_error err;
    uint64_t id, s1, s2, s3, e;
    rl_journal *j = fresh_journal(dir, sizeof dir, &id);
    if (!j) return;
    CHECK_EQ_INT(rl_journal_failed(j, why, sizeof why), 0);
    CHECK_EQ_INT(append_str(j, "acked", &s1, &e), 0);
    CHECK_EQ_INT(rl_journal_sync(j, s1, &err), 0);
    io_fault("sync");
    CHECK_EQ_INT(append_str(j, "in doubt", &s2, &e), 0);
    CHECK_EQ_INT(rl_journal_sync(j, s2, &err), -1);
    CHECK_EQ_INT(err.kind, KV_ERR_IO);
    CHECK(strstr(err.message, "Input/output error") != NULL);
    CHECK(strstr(err.message, "restart") == NULL);
    CHECK_EQ_INT(rl_journal_failed(j, why, sizeof why), 1);
    CHECK(strstr(why, "fdatasync: Input/output error") != NULL);
    seen s = {0};
    uint64_t last;
    rl_journal_pos from = {id, 0, 0};
    CHECK_EQ_INT(rl_journal_recover(dir, &from, collect, &s, &last, &err), -1);
    CHECK_EQ_INT(err.kind, KV_ERR_IO);
    unlink(g_io_fault);
    CHECK_EQ_INT(rl_journal_append(j, (const uint8_t *)"after", 5, &s3, &e, &err), -1);
    CHECK(strstr(err.message, "failed earlier (fdatasync: Input/output error)") != NULL);
    CHECK(strstr(err.message, "by itself") != NULL);
    CHECK(strstr(err.message, "restart") == NULL);
    s = (seen){0};
    CHECK_EQ_INT(rl_journal_recover(dir, &from, collect, &s, &last, &err), 0);
    CHECK_EQ_INT(s.n, 2);
    CHECK_EQ_STR(s.payloads[0], "acked");
    CHECK_EQ_STR(s.payloads[1], "in doubt");
    CHECK_EQ_INT(last, s2);
    rl_journal_close(j);
}

/* A failed write: the record is refused and the journal says why. */
static void test_failed_write_stops_the_journal(void)
{
    char dir[PATH_MAX], why[160];
    kv_error err;
    uint64_t id, seq, end;
    rl_journal *j = fresh_journal(dir, sizeof dir, &id);
    if (!j) return;
    io_fault("write");
    CHECK_EQ_INT(rl_journal_append(j, (const uint8_t *)"x", 1, &seq, &end, &err), -1);
    unlink(g_io_fault);
    CHECK(strstr(err.message, "Input/output error") != NULL);
    CHECK_EQ_INT(rl_journal_failed(j, why, sizeof why), 1);
    CHECK(strstr(why, "write: Input/output error") != NULL);
    CHECK_EQ_INT(rl_journal_append(j, (const uint8_t *)"y", 1, &seq, &end, &err), -1);
    rl_journal_close(j);
}

/* The journal file removed, or its directory moved and a new one made at
 * its path, under a running writer: a record appended to it then could
 * never be replayed by the next writer at that path, so the append is
 * refused, and so is every later one (it used to be accepted and
 * acknowledged: commits that no restart brings back). What was
 * acknowledged before is where the file went. */
static void journal_gone_under_the_writer(bool moved_away)
{
    char dir[PATH_MAX], path[PATH_MAX + 64], moved[PATH_MAX + 16];
    uint64_t id, seq, end;
    kv_error err;
    rl_journal *j = fresh_journal(dir, sizeof dir, &id);
    if (!j) return;
    CHECK_EQ_INT(append_str(j, "kept", &seq, &end), 0);
    CHECK_EQ_INT(rl_journal_sync(j, seq, &err), 0);
    snprintf(moved, sizeof moved, "%s.moved", dir);
    if (moved_away) {
        CHECK_EQ_INT(rename(dir, moved), 0);
        CHECK_EQ_INT(mkdir(dir, 0755), 0);
    } else {
        CHECK_EQ_INT(unlink(journal_file(dir, id, path, sizeof path)), 0);
    }
    CHECK_EQ_INT(rl_journal_append(j, (const uint8_t *)"lost", 4, &seq, &end, &err), -1);
    CHECK_EQ_INT(err.kind, KV_ERR_IO);
    CHECK(strstr(err.message, "is no longer at that path") != NULL);
    CHECK(strstr(err.message, "Integrity: journal ... is no longer at that path") != NULL);
    /* sticky, and still saying why */
    CHECK_EQ_INT(rl_journal_append(j, (const uint8_t *)"later", 5, &seq, &end, &err), -1);
    CHECK(strstr(err.message, "is no longer at that path") != NULL);
    rl_journal_close(j);
    if (!moved_away) return;
    seen s = {0};
    uint64_t last;
    rl_journal_pos from = {id, 0, 0};
    CHECK_EQ_INT(rl_journal_recover(moved, &from, collect, &s, &last, &err), 0);
    CHECK_EQ_INT(s.n, 1);
    CHECK_EQ_STR(s.payloads[0], "kept");
}

static void test_journal_removed_under_the_writer(void) { journal_gone_under_the_writer(false); }

static void test_journal_directory_replaced_under_the_writer(void)
{
    journal_gone_under_the_writer(true);
}

/* A newer writer's recovery fences the old writer's file: the old writer
 * refuses what it wrote after the cut, and nothing after the cut is ever
 * replayed. */
static void test_fence_stops_the_old_writer(void)
{
    char dir[PATH_MAX];
    kv_error err;
    uint64_t id, seq, end, pending_seq;
    rl_journal *old = fresh_journal(dir, sizeof dir, &id);
    if (!old) return;
    CHECK_EQ_INT(append_str(old, "before", &seq, &end), 0);
    CHECK_EQ_INT(rl_journal_sync(old, seq, &err), 0);
    /* written before the fence, synced only after it */
    CHECK_EQ_INT(append_str(old, "pending", &pending_seq, &end), 0);

    seen s = {0};
    uint64_t last;
    rl_journal_pos from = {id, 0, 0};
    CHECK_EQ_INT(rl_journal_recover(dir, &from, collect, &s, &last, &err), 0);
    CHECK_EQ_INT(s.n, 2);

    /* A record written after the takeover is never acknowledged. The old
     * writer learns of the fence from the slot after an fdatasync: if its
     * sync thread has not run one since (it syncs "pending" on its own),
     * the append still reaches the file and its sync refuses it, as it
     * lies past the cut; if it has, the append itself is refused. Which
     * one happens is timing (ASan runs found both). */
    uint64_t after_seq;
    int rc = rl_journal_append(old, (const uint8_t *)"after", 5, &after_seq, &end, &err);
    if (rc == 0)
        rc = rl_journal_sync(old, after_seq, &err);
    CHECK_EQ_INT(rc, -1);
    CHECK_EQ_INT(err.kind, KV_ERR_FENCED);
    CHECK(strstr(err.message, "newer writer") != NULL);
    /* and from then on appends are refused */
    CHECK_EQ_INT(rl_journal_append(old, (const uint8_t *)"x", 1, &seq, &end, &err), -1);
    CHECK_EQ_INT(err.kind, KV_ERR_FENCED);
    /* The record before the fence did commit (the new writer replays it),
     * so its sync still succeeds: its client is told the truth. */
    CHECK_EQ_INT(rl_journal_sync(old, pending_seq, &err), 0);
    rl_journal_close(old);

    seen again = {0};
    CHECK_EQ_INT(rl_journal_recover(dir, &from, collect, &again, &last, &err), 0);
    CHECK_EQ_INT(again.n, 2);
    CHECK_EQ_STR(again.payloads[0], "before");
    CHECK_EQ_STR(again.payloads[1], "pending");
}

/* Regression: an ABORT that a fence refuses must not turn the journal's
 * state from "fenced" into "I/O failure". The records before the fence did
 * commit (the new writer replays them), so their syncs still succeed. */
static void test_abort_refused_by_fence_keeps_acknowledgements(void)
{
    char dir[PATH_MAX];
    kv_error err;
    uint64_t id, seq_a, seq_r, end;
    rl_journal *old = fresh_journal(dir, sizeof dir, &id);
    if (!old) return;
    CHECK_EQ_INT(append_str(old, "acknowledged", &seq_a, &end), 0);
    CHECK_EQ_INT(append_str(old, "refused-by-store", &seq_r, &end), 0);

    seen s = {0};
    uint64_t last;
    rl_journal_pos from = {id, 0, 0};
    CHECK_EQ_INT(rl_journal_recover(dir, &from, collect, &s, &last, &err), 0); /* fences */
    CHECK_EQ_INT(s.n, 2);

    CHECK_EQ_INT(rl_journal_abort(old, seq_r, &err), -1);
    CHECK_EQ_INT(err.kind, KV_ERR_FENCED);
    CHECK_EQ_INT(rl_journal_sync(old, seq_a, &err), 0);
    CHECK_EQ_INT(rl_journal_sync(old, seq_r, &err), 0);
    CHECK_EQ_INT(rl_journal_append(old, (const uint8_t *)"later", 5, &seq_a, &end, &err), -1);
    CHECK_EQ_INT(err.kind, KV_ERR_FENCED);
    rl_journal_close(old);
}

/* Regression: a batch written after the takeover and then refused by the
 * store lies past the cut, so its ABORT is no "unknown outcome": the new
 * writer never sees it. (The store refusing it is how a fenced writer
 * usually learns of the takeover; this came out as an I/O error.) */
static void test_abort_past_the_cut_is_clean(void)
{
    char dir[PATH_MAX];
    kv_error err;
    uint64_t id, seq, end;
    rl_journal *old = fresh_journal(dir, sizeof dir, &id);
    if (!old) return;
    CHECK_EQ_INT(append_str(old, "acknowledged", &seq, &end), 0);
    CHECK_EQ_INT(rl_journal_sync(old, seq, &err), 0);
    seen s = {0};
    uint64_t last;
    rl_journal_pos from = {id, 0, 0};
    CHECK_EQ_INT(rl_journal_recover(dir, &from, collect, &s, &last, &err), 0);
    CHECK_EQ_INT(append_str(old, "refused-by-store", &seq, &end), 0);
    CHECK_EQ_INT(rl_journal_abort(old, seq, &err), 0);
    CHECK_EQ_INT(rl_journal_append(old, (const uint8_t *)"later", 5, &seq, &end, &err), -1);
    CHECK_EQ_INT(err.kind, KV_ERR_FENCED);
    rl_journal_close(old);
}

/* A takeover caught between FENCING and FENCED: write the slot as a new
 * writer does before its scan. */
static void write_fencing_slot(const char *path)
{
    uint8_t slot[17] = {'R', 'L', 'F', 'N', 1};
    uint32_t crc = (uint32_t)crc32(crc32(0L, Z_NULL, 0), slot + 4, 9);
    rl_store_be32(slot + 13, crc);
    int fd = open(path, O_WRONLY);
    CHECK_EQ_INT(pwrite(fd, slot, sizeof slot, RL_JOURNAL_SLOT_OFFSET), (ssize_t)sizeof slot);
    close(fd);
}

typedef struct sync_call {
    rl_journal *j;
    uint64_t seq;
    _Atomic int done;
    int rc;
    kv_error err;
} sync_call;

static void *sync_in_thread(void *arg)
{
    sync_call *c = arg;
    c->rc = rl_journal_sync(c->j, c->seq, &c->err);
    atomic_store(&c->done, 1);
    return NULL;
}

/* While a new writer scans (FENCING), the old writer acknowledges nothing:
 * it cannot know yet whether the scan saw its record. Once the cut is
 * named, a record before it is acknowledged (the new writer replays it). */
static void test_fence_in_progress_holds_acknowledgements(void)
{
    char dir[PATH_MAX], path[PATH_MAX + 64];
    kv_error err;
    uint64_t id, seq, end;
    rl_journal *old = fresh_journal(dir, sizeof dir, &id);
    if (!old) return;
    CHECK_EQ_INT(append_str(old, "acked", &seq, &end), 0);
    CHECK_EQ_INT(rl_journal_sync(old, seq, &err), 0);
    journal_file(dir, id, path, sizeof path);
    write_fencing_slot(path);
    sync_call c = {.j = old};
    CHECK_EQ_INT(append_str(old, "held", &c.seq, &end), 0);
    pthread_t t;
    pthread_create(&t, NULL, sync_in_thread, &c);
    usleep(150 * 1000);
    CHECK_EQ_INT(atomic_load(&c.done), 0); /* waiting for the cut */
    seen s = {0};
    uint64_t last;
    rl_journal_pos from = {id, 0, 0};
    CHECK_EQ_INT(rl_journal_recover(dir, &from, collect, &s, &last, &err), 0);
    pthread_join(t, NULL);
    CHECK_EQ_INT(s.n, 2);
    CHECK_EQ_STR(s.payloads[1], "held");
    CHECK_EQ_INT(c.rc, 0);
    CHECK_EQ_INT(rl_journal_append(old, (const uint8_t *)"x", 1, &seq, &end, &err), -1);
    CHECK_EQ_INT(err.kind, KV_ERR_FENCED);
    rl_journal_close(old);
}

/* ---- an old writer appending during the scan: pread interposed -------------- */

/* Calls from journal.c to pread() bind to this definition (the test binary
 * defines it), so a test can make "the old writer" write between two reads
 * of a recovery scan, at the one moment a real race would. Unarmed it only
 * forwards to the real pread. */
static struct {
    _Atomic int armed;
    uint64_t at;          /* the offset whose reads are counted */
    int hits;
    const char *path;
    const uint8_t *bytes; /* what the old writer writes at `at`, after the 2nd read there */
    size_t len;
} g_late;

ssize_t pread(int fd, void *buf, size_t n, off_t off)
{
    static ssize_t (*real)(int, void *, size_t, off_t);
    if (!real) real = (ssize_t (*)(int, void *, size_t, off_t))dlsym(RTLD_NEXT, "pread");
    ssize_t r = real(fd, buf, n, off);
    if (atomic_load(&g_late.armed) && (uint64_t)off == g_late.at && ++g_late.hits == 2) {
        atomic_store(&g_late.armed, 0);
        int wfd = open(g_late.path, O_WRONLY | O_CLOEXEC);
        if (wfd < 0 || pwrite(wfd, g_late.bytes, g_late.len, off) != (ssize_t)g_late.len)
            fprintf(stderr, "  late write failed: %s\n", strerror(errno));
        if (wfd >= 0) close(wfd);
    }
    return r;
}

/* A takeover's scan meets the old writer mid-append (it writes until it
 * sees the fence at its next sync): the scan stops where the next record is
 * not whole yet, and by the time recovery looks past that point for a valid
 * record (to tell damage from a torn tail), the old writer has finished it
 * and written another. That is not damage: the recovery replays what
 * precedes the cut and succeeds (it failed with "is damaged ... a valid
 * record follows" under concurrent commits, test_takeover_under_concurrent
 * _commits, once in CI). */
static void test_old_writer_appending_during_the_scan(void)
{
    char dir[PATH_MAX], path[PATH_MAX + 64];
    uint64_t id, seq, e1, e2, e3;
    rl_journal *j = fresh_journal(dir, sizeof dir, &id);
    if (!j) return;
    CHECK_EQ_INT(append_str(j, "acked", &seq, &e1), 0);
    CHECK_EQ_INT(append_str(j, "in flight", &seq, &e2), 0);
    CHECK_EQ_INT(append_str(j, "after it", &seq, &e3), 0);
    rl_journal_close(j);
    journal_file(dir, id, path, sizeof path);
    /* the file as the scan finds it: the last two records not written yet */
    size_t len = (size_t)(e3 - e1);
    uint8_t *late = malloc(len), *zeros = calloc(1, len);
    int fd = open(path, O_RDWR);
    CHECK(late && zeros && fd >= 0);
    if (!late || !zeros || fd < 0) {
        free(late);
        free(zeros);
        if (fd >= 0) close(fd);
        return;
    }
    CHECK_EQ_INT(pread(fd, late, len, (off_t)e1), (ssize_t)len);
    CHECK_EQ_INT(pwrite(fd, zeros, len, (off_t)e1), (ssize_t)len);
    close(fd);
    g_late.at = e1;
    g_late.hits = 0;
    g_late.path = path;
    g_late.bytes = late;
    g_late.len = len;
    atomic_store(&g_late.armed, 1);
    seen s = {0};
    uint64_t last = 0;
    kv_error err = {0};
    rl_journal_pos from = {id, 0, 0};
    int rc = rl_journal_recover(dir, &from, collect, &s, &last, &err);
    atomic_store(&g_late.armed, 0);
    if (rc != 0) fprintf(stderr, "  recover: %s\n", err.message);
    CHECK_EQ_INT(rc, 0);
    CHECK(g_late.hits >= 2); /* the old writer did write during the scan */
    CHECK_EQ_INT(s.n, 1);    /* the cut is where the scan stopped */
    CHECK_EQ_STR(s.payloads[0], "acked");
    CHECK_EQ_INT(last, 1);
    free(late);
    free(zeros);
}

/* The point of the zero-filled layout: a commit overwrites allocated space,
 * so the file's size does not change with each record; records that run
 * past the zero-filled space (while it is being extended) replay intact. */
static void test_records_overwrite_zero_filled_space(void)
{
    char dir[PATH_MAX], path[PATH_MAX + 64];
    kv_error err;
    uint64_t id, seq, end;
    rl_journal *j = fresh_journal(dir, sizeof dir, &id);
    if (!j) return;
    journal_file(dir, id, path, sizeof path);
    struct stat before, after;
    CHECK_EQ_INT(stat(path, &before), 0);
    CHECK(before.st_size > RL_JOURNAL_DATA_START + 65536);
    for (int i = 0; i < 20; i++) {
        CHECK_EQ_INT(append_str(j, "a commit of some size", &seq, &end), 0);
        CHECK_EQ_INT(rl_journal_sync(j, seq, &err), 0);
    }
    CHECK_EQ_INT(stat(path, &after), 0);
    CHECK_EQ_INT(after.st_size, before.st_size);
    /* ~3 MiB of records, several times the zero-filled chunk */
    char big[60];
    int n = 0;
    for (; n < 50000; n++) {
        snprintf(big, sizeof big, "record %06d ...................................", n);
        if (append_str(j, big, &seq, &end) < 0) break;
    }
    CHECK_EQ_INT(rl_journal_sync(j, seq, &err), 0);
    usleep(100 * 1000); /* the zero-filling catches up, behind the records */
    rl_journal_close(j);
    seen s = {0};
    uint64_t last;
    rl_journal_pos from = {id, 0, 0};
    CHECK_EQ_INT(rl_journal_recover(dir, &from, collect, &s, &last, &err), 0);
    CHECK_EQ_INT(s.n, 20 + n);
    CHECK_EQ_INT(last, seq);
}

/* Journals of RockLake before the zero-filled layout (records from offset
 * 0, fenced by an appended FENCE record) are still recovered. */
static void test_v1_file_is_recovered(void)
{
    char dir[PATH_MAX], path[PATH_MAX + 64], v1[PATH_MAX + 64];
    kv_error err;
    uint64_t id, seq, end;
    rl_journal *j = fresh_journal(dir, sizeof dir, &id);
    if (!j) return;
    append_str(j, "one", &seq, &end);
    append_str(j, "two", &seq, &end);
    rl_journal_close(j);
    /* the same records, at offset 0 of a file of their own */
    size_t len = end - RL_JOURNAL_DATA_START;
    uint8_t *records = malloc(len);
    int fd = open(journal_file(dir, id, path, sizeof path), O_RDONLY);
    CHECK_EQ_INT(pread(fd, records, len, RL_JOURNAL_DATA_START), (ssize_t)len);
    close(fd);
    fd = open(journal_file(dir, id + 1, v1, sizeof v1), O_WRONLY | O_CREAT | O_TRUNC, 0644);
    CHECK_EQ_INT(write(fd, records, len), (ssize_t)len);
    close(fd);
    free(records);
    for (int round = 0; round < 2; round++) {
        seen s = {0};
        uint64_t last;
        rl_journal_pos from = {id + 1, 0, 0};
        CHECK_EQ_INT(rl_journal_recover(dir, &from, collect, &s, &last, &err), 0);
        CHECK_EQ_INT(s.n, 2);
        CHECK_EQ_STR(s.payloads[1], "two");
        CHECK_EQ_INT(s.ends[1], len);
        CHECK_EQ_INT(last, 2);
    }
    struct stat st;
    CHECK_EQ_INT(stat(v1, &st), 0);
    CHECK_EQ_INT(st.st_size, (off_t)len + 2 * 25); /* one FENCE record per recovery */
}

/* A file that is no journal is refused with a message that says so, not
 * read as empty: acknowledged commits may have been in it. */
static void test_damaged_header_is_refused(void)
{
    char dir[PATH_MAX], path[PATH_MAX + 64];
    kv_error err;
    uint64_t id, seq, end;
    rl_journal *j = fresh_journal(dir, sizeof dir, &id);
    if (!j) return;
    append_str(j, "one", &seq, &end);
    rl_journal_close(j);
    int fd = open(journal_file(dir, id, path, sizeof path), O_WRONLY);
    CHECK_EQ_INT(pwrite(fd, "XXXX", 4, 0), 4);
    close(fd);
    seen s = {0};
    uint64_t last;
    rl_journal_pos from = {id, 0, 0};
    CHECK_EQ_INT(rl_journal_recover(dir, &from, collect, &s, &last, &err), -1);
    CHECK_EQ_INT(err.kind, KV_ERR_CORRUPT);
    CHECK(strstr(err.message, "does not start with a journal header") != NULL);
    /* what to do next: docs/operations.md's section, and the way out */
    CHECK(strstr(err.message, "restore the file from a backup") != NULL);
    CHECK(strstr(err.message, "--journal-salvage") != NULL);
    CHECK(strstr(err.message, "\"Integrity: journal ... is damaged\"") != NULL);
    CHECK_EQ_INT(s.n, 0);
    /* --journal-salvage gives the whole file up */
    rl_journal_damage dmg;
    CHECK_EQ_INT(rl_journal_recover_ex(dir, &from, true, collect, &s, &last, &dmg, &err), 0);
    CHECK(dmg.whole_file && !dmg.missing);
    CHECK_EQ_INT(s.n, 0);
}

static void test_missing_file_is_an_error(void)
{
    char dir[PATH_MAX];
    fresh_dir(dir, sizeof dir);
    mkdir(dir, 0755);
    seen s = {0};
    uint64_t last;
    kv_error err;
    rl_journal_pos pos = {0x1234, 5, 100};
    CHECK_EQ_INT(rl_journal_recover(dir, &pos, collect, &s, &last, &err), -1);
    CHECK_EQ_INT(err.kind, KV_ERR_CORRUPT);
    CHECK(strstr(err.message, "restore the file") != NULL);
    CHECK(strstr(err.message, "--journal-salvage") != NULL);
    CHECK(strstr(err.message, "\"Integrity: cannot open journal ...\"") != NULL);
    /* --journal-salvage gives its commits up */
    rl_journal_damage dmg;
    CHECK_EQ_INT(rl_journal_recover_ex(dir, &pos, true, collect, &s, &last, &dmg, &err), 0);
    CHECK(dmg.whole_file && dmg.missing);
    CHECK_EQ_INT(s.n, 0);
    CHECK_EQ_INT(last, 5);
}

static void test_replay_error_stops_recovery(void)
{
    char dir[PATH_MAX];
    kv_error err;
    uint64_t id, seq, end;
    rl_journal *j = fresh_journal(dir, sizeof dir, &id);
    if (!j) return;
    append_str(j, "a", &seq, &end);
    append_str(j, "b", &seq, &end);
    rl_journal_close(j);
    seen s = {.fail_at = 2};
    uint64_t last;
    rl_journal_pos from = {id, 0, 0};
    CHECK_EQ_INT(rl_journal_recover(dir, &from, collect, &s, &last, &err), -1);
    CHECK_EQ_STR(err.message, "stop");
    CHECK_EQ_INT(last, 1);
}

typedef struct sync_arg {
    rl_journal *j;
    pthread_mutex_t *mu;
    int failures;
} sync_arg;

static void *sync_worker(void *p)
{
    sync_arg *a = p;
    for (int i = 0; i < 50; i++) {
        uint64_t seq, end;
        kv_error err;
        pthread_mutex_lock(a->mu); /* appends are serialized by the caller */
        int rc = rl_journal_append(a->j, (const uint8_t *)"w", 1, &seq, &end, &err);
        pthread_mutex_unlock(a->mu);
        if (rc < 0 || rl_journal_sync(a->j, seq, &err) < 0) a->failures++;
    }
    return NULL;
}

/* Four threads append and sync; every record is replayed once, in order. */
static void test_concurrent_sync(void)
{
    char dir[PATH_MAX];
    kv_error err;
    uint64_t id;
    rl_journal *j = fresh_journal(dir, sizeof dir, &id);
    if (!j) return;
    pthread_mutex_t mu = PTHREAD_MUTEX_INITIALIZER;
    pthread_t t[4];
    sync_arg a[4];
    for (int i = 0; i < 4; i++) {
        a[i] = (sync_arg){j, &mu, 0};
        pthread_create(&t[i], NULL, sync_worker, &a[i]);
    }
    for (int i = 0; i < 4; i++) {
        pthread_join(t[i], NULL);
        CHECK_EQ_INT(a[i].failures, 0);
    }
    rl_journal_close(j);
    uint64_t last;
    rl_journal_pos from = {id, 0, 0};
    seen s = {0};
    CHECK_EQ_INT(rl_journal_recover(dir, &from, collect, &s, &last, &err), 0);
    CHECK_EQ_INT(s.n, 200);
    CHECK_EQ_INT(last, 200);
    for (int i = 0; i < 64; i++) CHECK_EQ_INT(s.seqs[i], (uint64_t)i + 1);
}

/* A record is synced without anyone waiting for it: the fdatasync starts
 * at the append, so that it overlaps the writer's hand-off to SlateDB. A
 * later rl_journal_sync then returns without a sync of its own. */
static void test_sync_starts_at_append(void)
{
    char dir[PATH_MAX];
    kv_error err;
    rl_journal *j = fresh_journal(dir, sizeof dir, NULL);
    if (!j) return;
    for (int round = 0; round < 3; round++) {
        uint64_t seq, end;
        CHECK_EQ_INT(append_str(j, "background", &seq, &end), 0);
        uint64_t durable = 0;
        for (int i = 0; i < 5000 && (durable = rl_journal_durable_seq(j)) < seq; i++)
            usleep(1000);
        CHECK_EQ_INT(durable, seq);
        CHECK_EQ_INT(rl_journal_sync(j, seq, &err), 0);
    }
    rl_journal_close(j); /* joins the sync thread: nothing pending, no leak */
}

/* Property: random batches (puts, deletes, empty keys and values, long
 * values) survive the journal payload codec unchanged and in order; every
 * cut of a payload decodes to NULL or to a prefix of the batch's
 * operations (a cut at an operation boundary is a shorter valid payload). */
static void test_batch_codec_round_trip(void)
{
    uint64_t rng = tu_seed("batch codec", 0x5eedULL);
    for (int round = 0; round < 200; round++) {
        kv_batch *b = kv_batch_new();
        int ops = (int)(tu_rand(&rng) % 8);
        uint8_t key[40], val[300];
        for (int i = 0; i < ops; i++) {
            size_t kl = tu_rand(&rng) % sizeof key, vl = tu_rand(&rng) % sizeof val;
            for (size_t x = 0; x < kl; x++) key[x] = (uint8_t)tu_rand(&rng);
            for (size_t x = 0; x < vl; x++) val[x] = (uint8_t)tu_rand(&rng);
            if (tu_rand(&rng) % 3 == 0)
                kv_batch_delete(b, key, kl);
            else
                kv_batch_put(b, key, kl, val, vl);
        }
        rl_buf enc;
        rl_buf_init(&enc, 0);
        CHECK_EQ_INT(rl_batch_encode(b, &enc), 0);
        kv_batch *back = rl_batch_decode(enc.data, enc.len);
        CHECK(back != NULL);
        if (back) {
            CHECK_EQ_INT(kv_batch_count(back), kv_batch_count(b));
            rl_buf again;
            rl_buf_init(&again, 0);
            CHECK_EQ_INT(rl_batch_encode(back, &again), 0);
            CHECK(again.len == enc.len && (!enc.len || memcmp(again.data, enc.data, enc.len) == 0));
            rl_buf_free(&again);
            kv_batch_free(back);
        }
        for (size_t cut = 0; cut < enc.len; cut++) {
            kv_batch *part = rl_batch_decode(enc.data, cut);
            if (!part) continue;
            /* a prefix: its encoding is the first bytes of the whole one */
            rl_buf pe;
            rl_buf_init(&pe, 0);
            CHECK_EQ_INT(rl_batch_encode(part, &pe), 0);
            CHECK(pe.len == cut && (!cut || memcmp(pe.data, enc.data, cut) == 0));
            CHECK(kv_batch_count(part) < kv_batch_count(b) || ops == 0);
            rl_buf_free(&pe);
            kv_batch_free(part);
        }
        rl_buf_free(&enc);
        kv_batch_free(b);
    }
    /* unknown kind, a length past the end, a put without its value */
    static const uint8_t bad_kind[] = {2, 1, 'k'}, long_key[] = {0, 5, 'k'},
                         no_value[] = {1, 1, 'k'};
    CHECK(rl_batch_decode(bad_kind, sizeof bad_kind) == NULL);
    CHECK(rl_batch_decode(long_key, sizeof long_key) == NULL);
    CHECK(rl_batch_decode(no_value, sizeof no_value) == NULL);
    kv_batch *empty = rl_batch_decode(NULL, 0);
    CHECK(empty != NULL && kv_batch_count(empty) == 0);
    kv_batch_free(empty);
}

/* Released space becomes a hole; offsets and later records are unchanged. */
static void test_release_punches_a_hole(void)
{
    char dir[PATH_MAX], path[PATH_MAX + 64];
    kv_error err;
    uint64_t id, seq, end = 0;
    rl_journal *j = fresh_journal(dir, sizeof dir, &id);
    if (!j) return;
    char big[4000];
    memset(big, 'z', sizeof big - 1);
    big[sizeof big - 1] = 0;
    for (int i = 0; i < 256; i++) append_str(j, big, &seq, &end);
    uint64_t keep_from = end;
    append_str(j, "tail", &seq, &end);
    CHECK_EQ_INT(rl_journal_sync(j, seq, &err), 0);
    journal_file(dir, id, path, sizeof path);
    rl_journal_release(j, keep_from);
    /* the first data after the header is at the released offset: what
     * precedes it is a hole (the zero-filling ahead goes on meanwhile) */
    int fd = open(path, O_RDONLY);
    off_t data = lseek(fd, RL_JOURNAL_DATA_START, SEEK_DATA);
    close(fd);
    CHECK(data >= (off_t)(keep_from & ~(uint64_t)4095));
    /* the journal goes on appending after a release */
    uint64_t seq2, end2;
    CHECK_EQ_INT(append_str(j, "more", &seq2, &end2), 0);
    rl_journal_close(j);
    seen s = {0};
    uint64_t last;
    rl_journal_pos pos = {id, seq - 1, keep_from};
    CHECK_EQ_INT(rl_journal_recover(dir, &pos, collect, &s, &last, &err), 0);
    CHECK_EQ_INT(s.n, 2);
    CHECK_EQ_STR(s.payloads[0], "tail");
    CHECK_EQ_STR(s.payloads[1], "more");
}

/* rl_journal_peek (kv_snapshot_acknowledged's view of a live writer's
 * file): the last DATA record after a position, read while the writer
 * keeps the file open, across released space, without an ABORTed record,
 * and without fencing (the writer goes on acknowledging). */
static void test_peek_finds_the_last_record(void)
{
    char dir[PATH_MAX];
    kv_error err;
    uint64_t id, seq = 0, end = 0, last = 0;
    rl_journal *j = fresh_journal(dir, sizeof dir, &id);
    if (!j) return;
    rl_journal_pos start = {id, 0, 0};
    CHECK_EQ_INT(rl_journal_peek(dir, &start, &last, &err), 1);
    CHECK_EQ_INT(last, 0); /* nothing after the position yet */
    char big[4000];
    memset(big, 'p', sizeof big - 1);
    big[sizeof big - 1] = 0;
    for (int i = 0; i < 64; i++) append_str(j, big, &seq, &end);
    uint64_t mid_seq = seq, mid_end = end;
    for (int i = 0; i < 64; i++) append_str(j, big, &seq, &end);
    CHECK_EQ_INT(rl_journal_peek(dir, &start, &last, &err), 1);
    CHECK_EQ_INT(last, seq); /* not synced yet: still counted */
    CHECK_EQ_INT(rl_journal_sync(j, seq, &err), 0);
    /* the writer released the first half (SlateDB holds it); a position
     * older than that still finds the tip beyond the hole */
    rl_journal_release(j, mid_end);
    CHECK_EQ_INT(rl_journal_peek(dir, &start, &last, &err), 1);
    CHECK_EQ_INT(last, seq);
    rl_journal_pos at_mid = {id, mid_seq, mid_end};
    CHECK_EQ_INT(rl_journal_peek(dir, &at_mid, &last, &err), 1);
    CHECK_EQ_INT(last, seq);
    /* an ABORTed last record never reaches the store */
    uint64_t kept = seq, refused;
    append_str(j, "refused", &refused, &end);
    CHECK_EQ_INT(rl_journal_abort(j, refused, &err), 0);
    CHECK_EQ_INT(rl_journal_peek(dir, &start, &last, &err), 1);
    CHECK_EQ_INT(last, kept);
    /* peeking fenced nothing: the writer still appends and syncs */
    CHECK_EQ_INT(append_str(j, "after", &seq, &end), 0);
    CHECK_EQ_INT(rl_journal_sync(j, seq, &err), 0);
    CHECK_EQ_INT(rl_journal_peek(dir, &start, &last, &err), 1);
    CHECK_EQ_INT(last, seq);
    rl_journal_close(j);
    /* a file a newer writer removed */
    rl_journal_pos gone = {id + 1, 5, 0};
    CHECK_EQ_INT(rl_journal_peek(dir, &gone, &last, &err), 0);
    CHECK_EQ_INT(last, 5);
}

/* Property: encode/decode round trip; byte order = numeric order of each
 * field (big-endian), wrong lengths refused. */
static void test_position_codec(void)
{
    uint64_t rng = tu_seed("position codec", 0x5eed);
    for (int i = 0; i < 2000; i++) {
        rl_journal_pos p = {tu_rand(&rng), tu_rand(&rng) >> (tu_rand(&rng) % 64),
                            tu_rand(&rng) >> 3};
        uint8_t b[RL_JOURNAL_POS_LEN];
        rl_journal_pos_encode(&p, b);
        rl_journal_pos q;
        CHECK_EQ_INT(rl_journal_pos_decode(b, sizeof b, &q), 0);
        CHECK(q.file_id == p.file_id && q.seq == p.seq && q.offset == p.offset);
        rl_journal_pos r = p;
        r.seq = tu_rand(&rng);
        uint8_t c[RL_JOURNAL_POS_LEN];
        rl_journal_pos_encode(&r, c);
        int byte_order = memcmp(b + 8, c + 8, 8);
        CHECK((byte_order < 0) == (p.seq < r.seq));
        CHECK_EQ_INT(rl_journal_pos_decode(b, sizeof b - 1, &q), -1);
    }
}

/* ---- 2. kv with a journal ------------------------------------------------- */

static kv_db *open_writer(const char *url, int journal, uint64_t flush_ms)
{
    kv_error err;
    kv_options o = {0};
    o.journal = journal;
    o.flush_interval_ms = flush_ms;
    kv_db *db = kv_open_writer(url, &o, &err);
    if (!db) fprintf(stderr, "  open_writer(%s): %s: %s\n", url, kv_error_kind_name(err.kind),
                     err.message);
    return db;
}

static int has(kv_db *db, const char *k)
{
    return kv_get(db, NULL, (const uint8_t *)k, strlen(k), NULL, NULL, NULL);
}

static int count_files(const char *dir)
{
    char cmd[PATH_MAX + 64];
    snprintf(cmd, sizeof cmd, "ls %s/journal 2>/dev/null | grep -c '^journal-'", dir);
    FILE *f = popen(cmd, "r");
    int n = -1;
    if (f) {
        if (fscanf(f, "%d", &n) != 1) n = -1;
        pclose(f);
    }
    return n;
}

static char g_helper[PATH_MAX + 32];

/* Runs helper_journal URL MODE to its end; returns its exit status (-1 if
 * it did not exit) and the number of "ack" lines in *acks. */
static int run_helper(const char *url, const char *mode, int *acks)
{
    char cmd[3 * PATH_MAX];
    snprintf(cmd, sizeof cmd, "%s '%s' %s", g_helper, url, mode);
    FILE *f = popen(cmd, "r");
    if (!f) return -1;
    char line[64];
    int n = 0;
    while (fgets(line, sizeof line, f))
        if (strcmp(line, "ack\n") == 0) n++;
    int status = pclose(f);
    if (acks) *acks = n;
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

/* The helper writes with SlateDB's WAL flush pushed far out, reports each
 * acknowledgement, and dies without closing: only the journal holds those
 * writes. The next open must replay every acknowledged one. */
static void test_crash_replays_acknowledged_writes(void)
{
    char dir[PATH_MAX], url[PATH_MAX + 16];
    fresh_store(dir, sizeof dir, url, sizeof url);
    int acked = 0;
    CHECK_EQ_INT(run_helper(url, "crash", &acked), 0);
    CHECK_EQ_INT(acked, 40);

    kv_db *db = open_writer(url, 0, 0);
    CHECK(db != NULL);
    if (!db) return;
    for (int i = 0; i < acked; i++) {
        char k[32];
        snprintf(k, sizeof k, "crash|%02d", i);
        CHECK_EQ_INT(has(db, k), 1);
    }
    /* the old file is gone once the new writer's position is durable */
    CHECK_EQ_INT(count_files(dir), 1);
    kv_close(db, NULL);

    /* A follower, which reads only SlateDB, sees the replayed writes. */
    kv_db *r = kv_open_reader(url, NULL, NULL);
    CHECK(r != NULL);
    if (r) {
        CHECK_EQ_INT(has(r, "crash|39"), 1);
        kv_close(r, NULL);
    }
}

/* A store directory replaced under its writer (moved away and a new one
 * made at its path): the next write is refused before it reaches SlateDB
 * or the mirror, and what was acknowledged is in the moved store. */
/* How many entries directory `dir` holds (not . and ..); -1 if unreadable. */
static int entries_in(const char *dir)
{
    DIR *d = opendir(dir);
    if (!d)
        return -1;
    int n = 0;
    for (struct dirent *e; (e = readdir(d));)
        n += strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0;
    closedir(d);
    return n;
}

/* The store moved away and a new directory made at its path: the write
 * is refused (the journal is no longer there), and SlateDB, which reaches
 * its files through a descriptor of the store directory rather than its
 * name, writes nothing into the new directory, not even at close; the
 * moved store opens with everything written before. */
static void test_store_replaced_under_the_writer(void)
{
    char dir[PATH_MAX], url[PATH_MAX + 16], moved[PATH_MAX + 16], murl[PATH_MAX + 32];
    fresh_store(dir, sizeof dir, url, sizeof url);
    kv_db *db = open_writer(url, 0, 600000);
    CHECK(db != NULL);
    if (!db) return;
    kv_error err;
    CHECK_EQ_INT(kvt_put(db, "before", "1", &err), 0);
    snprintf(moved, sizeof moved, "%s.moved", dir);
    CHECK_EQ_INT(rename(dir, moved), 0);
    CHECK_EQ_INT(mkdir(dir, 0755), 0);
    kv_batch *b = kv_batch_new();
    kv_batch_put(b, (const uint8_t *)"after", 5, (const uint8_t *)"2", 1);
    CHECK_EQ_INT(kv_write(db, b, &err), -1);
    kv_batch_free(b);
    CHECK_EQ_INT(err.kind, KV_ERR_IO);
    CHECK(strstr(err.message, "is no longer at that path") != NULL);
    CHECK_EQ_INT(has(db, "after"), 0);
    CHECK_EQ_INT(has(db, "before"), 1);
    kv_close(db, NULL);
    CHECK_EQ_INT(entries_in(dir), 0);

    snprintf(murl, sizeof murl, "file://%s", moved);
    kv_db *m = open_writer(murl, 0, 0);
    CHECK(m != NULL);
    if (m) {
        CHECK_EQ_INT(has(m, "before"), 1);
        CHECK_EQ_INT(has(m, "after"), 0);
        kv_close(m, NULL);
    }
}

/* A newer writer takes over: it replays what the old one acknowledged, and
 * the old one's next write is refused as fenced and never shows up. */
static void test_takeover_keeps_acknowledged_and_refuses_the_rest(void)
{
    char dir[PATH_MAX], url[PATH_MAX + 16];
    fresh_store(dir, sizeof dir, url, sizeof url);
    kv_db *a = open_writer(url, 0, 600000);
    if (!a) return;
    kv_error err;
    CHECK_EQ_INT(kvt_put(a, "t|acked", "1", &err), 0);
    kv_db *b = open_writer(url, 0, 0);
    CHECK(b != NULL);
    if (!b) {
        kv_close(a, NULL);
        return;
    }
    CHECK_EQ_INT(has(b, "t|acked"), 1);
    CHECK_EQ_INT(kvt_put(a, "t|late", "1", &err), -1);
    CHECK_EQ_INT(err.kind, KV_ERR_FENCED);
    CHECK_EQ_INT(kvt_put(b, "t|new", "1", &err), 0);
    kv_close(a, NULL);
    kv_close(b, NULL);
    kv_db *c = open_writer(url, 0, 0);
    CHECK(c != NULL);
    if (!c) return;
    CHECK_EQ_INT(has(c, "t|acked"), 1);
    CHECK_EQ_INT(has(c, "t|new"), 1);
    CHECK_EQ_INT(has(c, "t|late"), 0);
    kv_close(c, NULL);
}

typedef struct racer {
    kv_db *db;
    int id;
    int acked;            /* writes 0 .. acked-1 were acknowledged */
    kv_error_kind stopped; /* why the loop ended */
} racer;

static void *race_writes(void *arg)
{
    racer *r = arg;
    r->stopped = KV_OK;
    for (int i = 0; i < 100000; i++) {
        char k[32];
        snprintf(k, sizeof k, "race|%d|%06d", r->id, i);
        kv_batch *b = kv_batch_new();
        kv_batch_put(b, (const uint8_t *)k, strlen(k), (const uint8_t *)"v", 1);
        kv_pending *p = NULL;
        kv_error err;
        int rc = kv_write_begin(r->db, b, &p, &err);
        kv_batch_free(b);
        if (rc == 0) rc = kv_write_wait(p, &err);
        if (rc < 0) {
            r->stopped = err.kind;
            return NULL;
        }
        __atomic_store_n(&r->acked, i + 1, __ATOMIC_RELEASE);
    }
    return NULL;
}

/* Four threads commit as fast as they can while a new writer takes over:
 * every write acknowledged to them is in the new writer's store, and each
 * thread stops with "fenced". */
static void test_takeover_under_concurrent_commits(void)
{
    char dir[PATH_MAX], url[PATH_MAX + 16];
    fresh_store(dir, sizeof dir, url, sizeof url);
    kv_db *a = open_writer(url, 0, 0);
    if (!a) return;
    racer r[4];
    pthread_t t[4];
    for (int i = 0; i < 4; i++) {
        r[i] = (racer){a, i, 0, KV_OK};
        pthread_create(&t[i], NULL, race_writes, &r[i]);
    }
    /* the takeover comes once every thread has a write acknowledged: a
     * fixed 100 ms was not always enough on a loaded machine (a thread
     * with none made the test fail without a fault of the store) */
    for (int waited = 0; waited < 3000; waited++) {
        int ready = 0;
        for (int i = 0; i < 4; i++)
            ready += __atomic_load_n(&r[i].acked, __ATOMIC_ACQUIRE) > 0;
        if (ready == 4)
            break;
        usleep(10000);
    }
    usleep(50000);
    kv_db *b = open_writer(url, 0, 0);
    CHECK(b != NULL);
    for (int i = 0; i < 4; i++) {
        pthread_join(t[i], NULL);
        CHECK_EQ_INT(r[i].stopped, KV_ERR_FENCED);
        CHECK(r[i].acked > 0);
    }
    kv_close(a, NULL);
    if (!b) return;
    fprintf(stderr, "  acknowledged before the takeover: %d, %d, %d, %d\n", r[0].acked, r[1].acked,
            r[2].acked, r[3].acked);
    for (int i = 0; i < 4; i++) {
        int missing = 0;
        for (int n = 0; n < r[i].acked; n++) {
            char k[32];
            snprintf(k, sizeof k, "race|%d|%06d", i, n);
            missing += has(b, k) != 1;
        }
        if (missing) fprintf(stderr, "  thread %d: %d of %d acknowledged writes missing\n", i,
                             missing, r[i].acked);
        CHECK_EQ_INT(missing, 0);
    }
    kv_close(b, NULL);
}

/* A batch SlateDB refuses after its journal record was written (here: a key
 * too long for SlateDB) gets an ABORT and is not replayed. */
static void test_refused_batch_is_not_replayed(void)
{
    char dir[PATH_MAX], url[PATH_MAX + 16];
    fresh_store(dir, sizeof dir, url, sizeof url);
    CHECK_EQ_INT(run_helper(url, "refused", NULL), 0);
    kv_db *db = open_writer(url, 0, 0);
    if (!db) return;
    CHECK_EQ_INT(has(db, "r|good"), 1);
    CHECK_EQ_INT(has(db, "r|before-bad"), 0);
    kv_close(db, NULL);
}

/* Turning the journal off must not lose what the last writer's journal
 * holds; a later writer with the journal finds no file to replay. */
static void test_journal_off_still_replays(void)
{
    char dir[PATH_MAX], url[PATH_MAX + 16];
    fresh_store(dir, sizeof dir, url, sizeof url);
    CHECK_EQ_INT(run_helper(url, "one", NULL), 0);
    kv_db *db = open_writer(url, -1, 0);
    if (!db) return;
    CHECK_EQ_INT(has(db, "o|1"), 1);
    CHECK_EQ_INT(count_files(dir), 0);
    kv_error err;
    CHECK_EQ_INT(kvt_put(db, "o|2", "v", &err), 0);
    kv_close(db, NULL);
    db = open_writer(url, 0, 0);
    if (!db) return;
    CHECK_EQ_INT(has(db, "o|1"), 1);
    CHECK_EQ_INT(has(db, "o|2"), 1);
    kv_close(db, NULL);
}

/* Every 8 MiB of journal the writer flushes SlateDB and punches the
 * journal's covered bytes into a hole; the data stays whole. */
static void test_writer_releases_journal_space(void)
{
    char dir[PATH_MAX], url[PATH_MAX + 16];
    fresh_store(dir, sizeof dir, url, sizeof url);
    kv_db *db = open_writer(url, 0, 600000);
    if (!db) return;
    size_t n = 1 << 20;
    char *big = malloc(n + 1);
    memset(big, 'b', n);
    big[n] = 0;
    kv_error err;
    for (int i = 0; i < 12; i++) {
        char k[32];
        snprintf(k, sizeof k, "big|%02d", i);
        CHECK_EQ_INT(kvt_put(db, k, big, &err), 0);
    }
    free(big);
    char cmd[PATH_MAX + 96], path[PATH_MAX];
    snprintf(cmd, sizeof cmd, "ls %s/journal/journal-*.log", dir);
    FILE *f = popen(cmd, "r");
    CHECK(f && fgets(path, sizeof path, f));
    if (f) pclose(f);
    path[strcspn(path, "\n")] = 0;
    struct stat st;
    CHECK_EQ_INT(stat(path, &st), 0);
    CHECK(st.st_size >= 12 << 20);
    CHECK((uint64_t)st.st_blocks * 512 < (uint64_t)6 << 20); /* at least 8 MiB gone */
    kv_close(db, NULL);
    db = open_writer(url, 0, 0);
    if (!db) return;
    for (int i = 0; i < 12; i++) {
        char k[32];
        snprintf(k, sizeof k, "big|%02d", i);
        CHECK_EQ_INT(has(db, k), 1);
    }
    kv_close(db, NULL);
}

/* The position key is the kv layer's: gets and scans never return it. */
static void test_position_key_is_hidden(void)
{
    char dir[PATH_MAX], url[PATH_MAX + 16];
    fresh_store(dir, sizeof dir, url, sizeof url);
    for (int mirror = 0; mirror < 2; mirror++) {
        kv_options o = {0};
        o.mirror_max_bytes = mirror ? 0 : -1;
        kv_db *db = kv_open_writer(url, &o, NULL);
        CHECK(db != NULL);
        if (!db) return;
        kv_error err;
        CHECK_EQ_INT(kvt_put(db, "\xff" "zz", "v", &err), 0);
        static const uint8_t pos_key[] = "\xff" "kv-journal";
        CHECK_EQ_INT(kv_get(db, NULL, pos_key, sizeof pos_key - 1, NULL, NULL, NULL), 0);
        static const uint8_t ff[1] = {0xff};
        kv_iter *it = kv_scan_prefix(db, NULL, ff, 1, NULL);
        const uint8_t *k;
        size_t kl;
        int n = 0;
        while (kv_iter_next(it, &k, &kl, NULL, NULL, NULL) == 1) {
            n++;
            CHECK(!(kl == sizeof pos_key - 1 && memcmp(k, pos_key, kl) == 0));
        }
        kv_iter_free(it);
        CHECK_EQ_INT(n, 1);
        kv_close(db, NULL);
    }
}

int main(void)
{
    kvt_run_dir(g_base, sizeof g_base, "test_journal");
    char exe[PATH_MAX];
    ssize_t len = readlink("/proc/self/exe", exe, sizeof exe - 1);
    exe[len > 0 ? len : 0] = 0;
    snprintf(g_helper, sizeof g_helper, "%s/helper_journal", dirname(exe));
    /* before any journal call: the hook reads the variable once */
    snprintf(g_io_fault, sizeof g_io_fault, "%s/io-fault", g_base);
    setenv("ROCKLAKE_TEST_IO_FAULT", g_io_fault, 1);

    RUN(test_records_replay_in_order);
    RUN(test_header_reserved_bytes_are_zero);
    RUN(test_recover_from_position);
    RUN(test_torn_and_corrupt_tails);
    RUN(test_abort_cancels_its_record);
    RUN(test_failed_sync_stops_the_journal_until_recovered);
    RUN(test_failed_write_stops_the_journal);
    RUN(test_journal_removed_under_the_writer);
    RUN(test_journal_directory_replaced_under_the_writer);
    RUN(test_fence_stops_the_old_writer);
    RUN(test_abort_refused_by_fence_keeps_acknowledgements);
    RUN(test_abort_past_the_cut_is_clean);
    RUN(test_fence_in_progress_holds_acknowledgements);
    RUN(test_old_writer_appending_during_the_scan);
    RUN(test_records_overwrite_zero_filled_space);
    RUN(test_v1_file_is_recovered);
    RUN(test_damaged_header_is_refused);
    RUN(test_missing_file_is_an_error);
    RUN(test_replay_error_stops_recovery);
    RUN(test_concurrent_sync);
    RUN(test_sync_starts_at_append);
    RUN(test_release_punches_a_hole);
    RUN(test_peek_finds_the_last_record);
    RUN(test_position_codec);
    RUN(test_batch_codec_round_trip);
    RUN(test_crash_replays_acknowledged_writes);
    RUN(test_store_replaced_under_the_writer);
    RUN(test_takeover_keeps_acknowledged_and_refuses_the_rest);
    RUN(test_takeover_under_concurrent_commits);
    RUN(test_refused_batch_is_not_replayed);
    RUN(test_journal_off_still_replays);
    RUN(test_writer_releases_journal_space);
    RUN(test_position_key_is_hidden);

    nftw(g_base, rm_entry, 16, FTW_DEPTH | FTW_PHYS);
    return tu_finish();
}
