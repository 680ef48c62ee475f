/*
 * crashpoint.h — named crash points: a test hook that kills the process
 * with SIGKILL at a chosen step of a commit, a catalog creation, a format
 * migration or a takeover (tests/wire/test_crash_matrix.py).
 *
 * Owns: the one table of crash point names (crashpoint.c, where each point
 * is documented) and the hook ROCKLAKE_TEST_CRASH_AT=<point>[:<nth>]: the
 * nth time (default 1) the named point is reached, the process writes
 *   rocklake: crash point <point> reached (hit <nth>): SIGKILL
 * to stderr and raises SIGKILL. The layer that owns a step calls
 * rl_crash_point() at it; nothing else changes.
 *
 * Why zero cost when unset: the environment is read once, at the first
 * point reached; from then on an unarmed process pays one relaxed atomic
 * load per point.
 *
 * Also the I/O fault hook ROCKLAKE_TEST_IO_FAULT=<flag file>: while that
 * file exists, the journal's writes and fdatasyncs whose kind its first
 * line names ("write", "sync", or both) fail with EIO, as a disk failing
 * under the server would make them (tests/wire/test_heal.py); a second
 * line, when there is one, limits that to the files whose path contains
 * it (one lake of several). The file is looked at on each such call only
 * when the variable is set.
 */
#ifndef ROCKLAKE_CRASHPOINT_H
#define ROCKLAKE_CRASHPOINT_H

#include <stdatomic.h>
#include <stdbool.h>

/* The points, in the order of crashpoint.c's table (its comment says where
 * each one is and what a kill there leaves). */
typedef enum rl_crash_id {
    RL_CRASH_NONE = 0,
    RL_CRASH_JOURNAL_BEFORE_WRITE,
    RL_CRASH_JOURNAL_AFTER_WRITE,
    RL_CRASH_JOURNAL_AFTER_SYNC,
    RL_CRASH_JOURNAL_FENCING,
    RL_CRASH_JOURNAL_FENCED,
    RL_CRASH_KV_BEFORE_STORE_WRITE,
    RL_CRASH_KV_AFTER_STORE_WRITE,
    RL_CRASH_KV_BEFORE_FLUSH,
    RL_CRASH_KV_AFTER_FLUSH,
    RL_CRASH_COMMIT_WRITTEN,
    RL_CRASH_DDL_WRITTEN,
    RL_CRASH_FORMAT_WRITTEN,
    RL_CRASH_COMMIT_DURABLE,
    RL_CRASH_DDL_DURABLE,
    RL_CRASH_FORMAT_DURABLE,
    RL_CRASH_CATALOG_CREATED,
    RL_CRASH_LEASE_START,
    RL_CRASH_SEQUENCE_PLACED,
    RL_CRASH_NPOINTS
} rl_crash_id;

/* RL_CRASH_NONE: unarmed (or no such point); -1: not read yet. */
extern _Atomic int rl_crash_armed;

void rl_crash_point_slow(rl_crash_id id);

/* Kill the process here if ROCKLAKE_TEST_CRASH_AT names `id` and this is
 * its nth time. */
static inline void rl_crash_point(rl_crash_id id)
{
    int armed = atomic_load_explicit(&rl_crash_armed, memory_order_relaxed);
    if (armed != RL_CRASH_NONE && (armed < 0 || armed == (int)id))
        rl_crash_point_slow(id);
}

/* The name of point `id` ("journal-before-write"), NULL if none. */
const char *rl_crash_point_name(rl_crash_id id);

/* The kinds of I/O the fault hook can fail. */
typedef enum rl_io_fault_kind { RL_IO_FAULT_WRITE, RL_IO_FAULT_SYNC } rl_io_fault_kind;

/* true (errno set to EIO) when ROCKLAKE_TEST_IO_FAULT's flag file exists
 * now and names `kind` (and, if it names a path, `path` contains it): the
 * caller fails the operation on the file at `path` as if the disk had. */
bool rl_io_fault(rl_io_fault_kind kind, const char *path);

#endif /* ROCKLAKE_CRASHPOINT_H */
