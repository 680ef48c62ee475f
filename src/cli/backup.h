/*
 * backup.h — `rocklake backup` and `rocklake restore`: a consistent copy of
 * one lake, taken while its writer keeps serving, and its way back.
 *
 * Owns: the logical copy of a store (every key-value pair of one read view
 * written into a new store in bounded batches), the copy's markers
 * (system keys copy-incomplete and backup-info, tags.h), the choice of the
 * point a backup copies, verification of both sides against the integrity
 * digest, progress and interruption. main.c only dispatches here.
 *
 * Invariants:
 *  - The point a backup copies holds every commit the source's writer
 *    acknowledged before the backup started (kv_snapshot_acknowledged: on
 *    a local store it waits until SlateDB's state reaches the journal's
 *    last record), and it is one read view: a commit is in it whole or
 *    not at all.
 *  - A copy writes only into a store that does not exist yet. Its first
 *    durable write is the copy-incomplete marker and its last one deletes
 *    it (and, for a backup, writes backup-info), so a copy that stops in
 *    between — Ctrl-C, a crash, SIGKILL, a full disk — is never taken for
 *    a complete one: restore refuses it, writers refuse to open it and
 *    `rocklake check` reports it.
 *  - Before that last write, the pairs read must add up to the source's
 *    integrity digest at the same view (a damaged source gives no backup
 *    that looks complete), and the destination, read back from its store,
 *    must add up to exactly the pairs written.
 *  - What is not copied: the source's writer lease (the copy has no
 *    running writer), the kv layer's own keys (journal position, digest:
 *    the destination's writer keeps its own), a backup's markers when
 *    restoring. Everything else is copied byte for byte, so the copy is a
 *    complete lake by itself, referencing none of the source's objects.
 */
#ifndef ROCKLAKE_BACKUP_H
#define ROCKLAKE_BACKUP_H

#include <stdbool.h>
#include <stdint.h>

/* `rocklake backup SRC DEST` (restore = false) or `rocklake restore SRC DEST`
 * (restore = true), the arguments parsed by main.c; batch_keys 0 = the
 * default (4096). Returns the exit code: 0 done, 1 failed or interrupted. */
int rl_copy_run(bool restore, const char *src, const char *dest, uint64_t batch_keys);

#endif
