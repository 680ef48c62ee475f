/*
 * crashpoint.c — the named crash points (crashpoint.h) and the hook
 * ROCKLAKE_TEST_CRASH_AT=<point>[:<nth>] that fires them.
 *
 * The points. "Acknowledged" means the client got CommandComplete for the
 * COMMIT; a kill before that leaves the commit in doubt (present or not,
 * but whole), a kill after it must keep it. Every kill must leave each
 * commit whole or absent, and `rocklake check` passing.
 *
 * journal.c (local file:// stores with the journal on; never reached on s3://)
 *   journal-before-write  a DATA record is about to be written: the commit
 *                         is nowhere; it is lost, never acknowledged.
 *   journal-after-write   the record is in the file (page cache), not yet
 *                         fdatasync'ed: a kill -9 keeps the page cache, so
 *                         the next open replays it (in doubt, then present).
 *   journal-after-sync    an fdatasync covering the record returned, before
 *                         anyone is told: replayed at the next open.
 *   journal-fencing       a takeover wrote FENCING into the old writer's
 *                         slot, before scanning for the cut: the next
 *                         takeover scans again and names the cut itself.
 *   journal-fenced        a takeover wrote FENCED and the cut, synced,
 *                         before replaying: the next takeover keeps the cut.
 * kv.c (every writer: the commit path, and the kv layer's own writes at open)
 *   kv-before-store-write the batch is in the journal (if any), about to go
 *                         to SlateDB's memtable: with a journal it is
 *                         replayed; without one it is lost.
 *   kv-after-store-write  the batch is in SlateDB's memtable (and the
 *                         journal), not durable in SlateDB: kept only
 *                         through the journal.
 *   kv-before-flush       a committer asks for durability (journal
 *                         fdatasync, or on s3:// SlateDB's WAL flush).
 *   kv-after-flush        durability returned, before the acknowledgement.
 * catalog/commit.c (one per transaction commit, so <nth> counts commits)
 *   commit-written        rl_txn_commit: the batch is written (memtable),
 *                         counters advanced, before the group flush. With
 *                         concurrent committers this is the point between
 *                         two group-commit members: the earlier ones are
 *                         written (some acknowledged), the later ones not.
 *   ddl-written           the same, for a transaction that writes names
 *                         (CREATE TABLE of a dynamic table, CREATE SCHEMA).
 *   format-written        the same, for a DuckLake format migration commit.
 *   commit-durable        rl_txn_commit: durable, before the acknowledgement.
 *   ddl-durable           the same, for a name-writing transaction.
 *   format-durable        the same, for a format migration.
 *   catalog-created       create_catalog's batch is durable, before the
 *                         open goes on (epoch, lease): the lake opens whole.
 *   sequence-placed       commit sequencing replayed a lost append onto the
 *                         latest state (under the commit lock), before its
 *                         batch is written: the commit is absent, and was
 *                         never acknowledged.
 * lease.c
 *   lease-start           a writer open fenced the previous writer (SlateDB,
 *                         journal replayed), before its lease is written:
 *                         on a takeover, the next --takeover must still keep
 *                         every commit the fenced writer acknowledged.
 */
#include "base/crashpoint.h"

#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static const char *const names[RL_CRASH_NPOINTS] = {
    [RL_CRASH_NONE] = NULL,
    [RL_CRASH_JOURNAL_BEFORE_WRITE] = "journal-before-write",
    [RL_CRASH_JOURNAL_AFTER_WRITE] = "journal-after-write",
    [RL_CRASH_JOURNAL_AFTER_SYNC] = "journal-after-sync",
    [RL_CRASH_JOURNAL_FENCING] = "journal-fencing",
    [RL_CRASH_JOURNAL_FENCED] = "journal-fenced",
    [RL_CRASH_KV_BEFORE_STORE_WRITE] = "kv-before-store-write",
    [RL_CRASH_KV_AFTER_STORE_WRITE] = "kv-after-store-write",
    [RL_CRASH_KV_BEFORE_FLUSH] = "kv-before-flush",
    [RL_CRASH_KV_AFTER_FLUSH] = "kv-after-flush",
    [RL_CRASH_COMMIT_WRITTEN] = "commit-written",
    [RL_CRASH_DDL_WRITTEN] = "ddl-written",
    [RL_CRASH_FORMAT_WRITTEN] = "format-written",
    [RL_CRASH_COMMIT_DURABLE] = "commit-durable",
    [RL_CRASH_DDL_DURABLE] = "ddl-durable",
    [RL_CRASH_FORMAT_DURABLE] = "format-durable",
    [RL_CRASH_CATALOG_CREATED] = "catalog-created",
    [RL_CRASH_LEASE_START] = "lease-start",
    [RL_CRASH_SEQUENCE_PLACED] = "sequence-placed",
};

_Atomic int rl_crash_armed = -1;
static unsigned long nth = 1;
static _Atomic unsigned long hits;
static pthread_once_t once = PTHREAD_ONCE_INIT;

const char *rl_crash_point_name(rl_crash_id id)
{
    return id > RL_CRASH_NONE && id < RL_CRASH_NPOINTS ? names[id] : NULL;
}

static void read_env(void)
{
    int armed = RL_CRASH_NONE;
    const char *v = getenv("ROCKLAKE_TEST_CRASH_AT");
    if (v && *v) {
        size_t len = strcspn(v, ":");
        for (int i = 1; i < RL_CRASH_NPOINTS; i++)
            if (strlen(names[i]) == len && strncmp(names[i], v, len) == 0) armed = i;
        if (v[len] == ':') nth = strtoul(v + len + 1, NULL, 10);
        if (armed == RL_CRASH_NONE || nth == 0)
            fprintf(stderr, "rocklake: ROCKLAKE_TEST_CRASH_AT=%s names no crash point; "
                            "ignored\n", v);
    }
    atomic_store(&rl_crash_armed, nth ? armed : RL_CRASH_NONE);
}

void rl_crash_point_slow(rl_crash_id id)
{
    pthread_once(&once, read_env);
    if (atomic_load(&rl_crash_armed) != (int)id) return;
    unsigned long n = atomic_fetch_add(&hits, 1) + 1;
    if (n != nth) return;
    char line[160];
    int len = snprintf(line, sizeof line, "rocklake: crash point %s reached (hit %lu): SIGKILL\n",
                       names[id], n);
    if (len > 0 && write(STDERR_FILENO, line, (size_t)len) < 0) {
        /* nothing to do: the kill follows either way */
    }
    raise(SIGKILL);
}

/* ------------------------------------------------------------ I/O faults */

static const char *io_fault_flag; /* ROCKLAKE_TEST_IO_FAULT, NULL when unset */
static pthread_once_t io_once = PTHREAD_ONCE_INIT;

static void read_io_env(void)
{
    const char *v = getenv("ROCKLAKE_TEST_IO_FAULT");
    io_fault_flag = v && *v ? v : NULL;
}

bool rl_io_fault(rl_io_fault_kind kind, const char *path)
{
    pthread_once(&io_once, read_io_env);
    if (!io_fault_flag) return false;
    int fd = open(io_fault_flag, O_RDONLY | O_CLOEXEC);
    if (fd < 0) return false; /* no flag file: the disk works */
    char buf[4096];
    ssize_t n = read(fd, buf, sizeof buf - 1);
    close(fd);
    buf[n > 0 ? n : 0] = 0;
    char *nl = strchr(buf, '\n');
    const char *only = "";
    if (nl) {
        *nl = 0;
        only = nl + 1;
        for (char *e = nl + 1; *e; e++)
            if (*e == '\n') {
                *e = 0;
                break;
            }
    }
    bool hit = strstr(buf, kind == RL_IO_FAULT_WRITE ? "write" : "sync") != NULL &&
               (!*only || (path && strstr(path, only)));
    if (hit) errno = EIO;
    return hit;
}
