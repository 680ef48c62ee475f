/*
 * lease.h — the writer lease: which process writes a store, recorded in the
 * store itself (system key `writer-lease`, docs/key-layout.md).
 *
 * Owns: the lease's value (text, readable in `rocklake inspect`), reading
 * it without fencing anyone, deciding whether its holder is alive, the
 * refusal naming that holder, and the heartbeat thread that renews it.
 * Part of the catalog layer: rl_catalog_open checks the lease before it
 * opens a writer and starts the heartbeat after; nothing else writes it.
 *
 * Why: SlateDB fences the previous writer when a new one opens, so a second
 * writer that merely starts would take a store away from a running one.
 * The local lock of `rocklake serve` covers one root path only; the lease
 * covers every path (symlinks, other hosts, s3://) that reaches the store.
 *
 * Invariants:
 *  - The lease is read with a reader that writes nothing (kv_options
 *    .reader_no_writes), so checking it never fences the holder.
 *  - A holder is alive while its last heartbeat is younger than its own
 *    lease period (the period it recorded), except that a holder on this
 *    host is dead at once when its process is gone: its pid no longer
 *    exists (a crash, kill -9), the host booted since (another boot id), or
 *    the pid now names another process (a different start time: pids are
 *    reused). A lease written before these were recorded is judged by its
 *    pid alone.
 *    Heartbeats are wall-clock times: hosts sharing a store need clocks
 *    closer than a lease period.
 *  - The heartbeat rewrites the lease every period / 5 through kv_write
 *    (durable in the object store, so a reader of another process sees
 *    it); it stops for good once the store reports the writer fenced. A
 *    clean close deletes the lease, so a restart need not wait.
 *  - The check is not a lock: two writers starting in the same instant may
 *    both find no lease; the later one then fences the earlier as before.
 */
#ifndef ROCKLAKE_LEASE_H
#define ROCKLAKE_LEASE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "base/error.h"
#include "catalog/catalog.h"
#include "kv/kv.h"

#define RL_LEASE_DEFAULT_MS 10000

typedef struct rl_lease_owner {
    uint64_t epoch;       /* writer-epoch of the holder */
    char host[128];       /* gethostname() */
    int64_t pid;
    char listen[128];     /* e.g. "127.0.0.1:5433"; "-" for a command-line tool */
    int64_t started_ms;   /* unix ms the holder opened the store */
    int64_t heartbeat_ms; /* unix ms of the last renewal */
    uint64_t lease_ms;    /* the holder's lease period */
    /* What identifies the process beyond its pid (0 / "" when unknown, as
     * in leases of older versions): its start time in clock ticks since
     * boot (/proc/PID/stat field 22) and the host's boot id. */
    uint64_t proc_start;
    char boot_id[40];
} rl_lease_owner;

/* This process's identity for its lease: proc_start and boot_id of *o. */
void rl_lease_identify_self(rl_lease_owner *o);

/* The value of the writer-lease key, as text:
 * "epoch=E host=H pid=P listen=L started=MS heartbeat=MS lease-ms=N
 * [proc-start=TICKS boot-id=UUID]". */
void rl_lease_encode(const rl_lease_owner *o, rl_buf *out);
/* 0 and *o filled, or -1 if the value is not a lease. */
int rl_lease_decode(const uint8_t *v, size_t n, rl_lease_owner *o);

/* Read the lease of the store at `url` without fencing its writer. 1 and *o
 * filled if there is one, 0 if the store or its lease does not exist, -1
 * with err on failure. `store` (NULL: defaults) as the catalog's open would
 * take it; the lease is read with a reader that writes nothing. */
int rl_lease_read(const char *url, const rl_store_options *store, rl_lease_owner *o,
                  rl_error *err);
/* The same through a store already open without writing (a reader with
 * reader_no_writes, such as rl_catalog_kv of a read-only catalog opened
 * that way); url names the store in the error. 1, 0 (no lease) or -1. */
int rl_lease_get(kv_db *kv, const char *url, rl_lease_owner *o, rl_error *err);

/* Is the holder alive at unix ms `now_ms`? *age_ms: since its heartbeat. */
bool rl_lease_live(const rl_lease_owner *o, int64_t now_ms, int64_t *age_ms);
/* The same, and when a holder of this host is dead before its lease ran
 * out, why (in why, else ""): "pid N no longer exists", "pid N is now
 * another process (started ...)", "host booted since". */
bool rl_lease_check(const rl_lease_owner *o, int64_t now_ms, int64_t *age_ms, char *why,
                    size_t n);

/* Fill err (55000) with the refusal to open the store at `url`, naming the
 * live holder and what to do. Returns -1. */
int rl_lease_refuse(rl_error *err, const char *url, const rl_lease_owner *o, int64_t age_ms);

/* Unix ms now. */
int64_t rl_lease_now_ms(void);

/* The running heartbeat of a writer. rl_lease_start writes the lease once
 * (failing if that write fails) and starts the thread. */
typedef struct rl_lease rl_lease;
rl_lease *rl_lease_start(kv_db *kv, const rl_lease_owner *o, rl_error *err);
/* Stop the heartbeat; with release, delete the lease (unless fenced). */
void rl_lease_stop(rl_lease *l, bool release);
/* True once a renewal found the writer fenced. */
bool rl_lease_fenced(rl_lease *l);

#endif
