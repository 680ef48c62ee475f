/*
 * lakes.h — database directories and the lakes `rocklake serve` has open.
 *
 * Owns: database names and their URLs under a store root (ROOT/NAME), the
 * CLI's `db list` / `db drop` of a local root, the server's root lock and
 * its lease check at start, what start-up found of each lake for the
 * banner (each lake opened once for both), and the registry of opened
 * lakes: database
 * name -> catalog + engine (opened on first use, created with
 * --auto-create), the stores of further DuckLake metadata schemas
 * (ROOT/NAME/schemas/SCHEMA, the engine's rl_schema_lakes hooks), and the
 * recovery of a lake whose store failed (rl_catalog_failed: an object
 * store's write, a local journal's write or fdatasync): the healer thread
 * notes it (one error line, state "failed") and reopens it from the store
 * with backoff, as a restart would, with no client's help.
 *
 * Interface: the registry is made from its own options (srv_lakes_options,
 * filled by the server from its configuration) and the logger it is lent;
 * the connections and GET /metrics are handed the registry. It never calls
 * the server.
 *
 * Invariants:
 *  - a lake is opened at most once per process under a name, by one thread
 *    at a time and without holding the registry lock (others asking for
 *    that name wait; other names, /metrics and cancels do not);
 *  - one whose store failed is retired (sessions that hold it get 58030
 *    until they move to the new one between transactions,
 *    srv_lake_successor) and a new one opened, after the retired writers
 *    were shut down; never one whose journal file moved (an operator must
 *    look: rl_catalog_heals); a reopen never creates a store;
 *    a retired lake is closed when no session holds it any more and its
 *    name is open again, or by srv_lakes_free;
 *  - an open lake is closed only by srv_lakes_free, after every connection
 *    thread has ended;
 *  - a follower is promoted at most once (srv_lakes_promote): its open
 *    followers are retired (their sessions keep reading until they move
 *    between transactions) and opened again as writers; every later open
 *    is a writer's with takeover;
 *  - the store is reached through catalog.h only (never kv.h).
 */
#ifndef ROCKLAKE_LAKES_H
#define ROCKLAKE_LAKES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "catalog/catalog.h"
#include "base/error.h"
#include "server/log.h"
#include "sql/sql.h"

/* ---------------------------------------------- database directories (CLI `db`) */

/* URL of database `name` under store root `root` into out; false if the
 * name is not a valid database name. */
bool rl_db_url(const char *root, const char *name, char *out, size_t n);
/* Local roots only (plain path or file://): the databases, one per
 * callback in name order: directories with a valid name that hold a store
 * (an empty directory made by hand is none). Returns the count or -1. */
int rl_db_list(const char *root, void (*cb)(const char *name, void *ctx), void *ctx,
               rl_error *err);
int rl_db_drop(const char *root, const char *name, rl_error *err);

/* ------------------------------------------------------- the lakes registry */

typedef struct srv_lakes srv_lakes;
typedef struct srv_lake srv_lake;

#define SRV_DEFAULT_MAX_AUTO_CREATE 64

/* How the registry opens lakes (from rl_server_config, server.h). */
typedef struct srv_lakes_options {
    const char *store;          /* the store root: lakes are ROOT/NAME */
    const char *listen;         /* ADDR:PORT listened on (its host goes in writer leases) */
    bool read_only;             /* open lakes as followers */
    bool takeover;              /* become the writer even if another server is */
    bool auto_create;           /* create unknown databases on first use */
    uint64_t max_auto_create;   /* databases auto_create may create; 0 = the default */
    uint64_t lease_ms;          /* rl_catalog_options.lease_ms */
    uint32_t store_timeout_ms;  /* rl_store_options.store_timeout_ms; 0 = the kv default */
    int64_t follower_poll_max_ms; /* rl_store_options.follower_poll_max_ms */
    bool sequence_commits;      /* rl_catalog_options.sequence_commits */
    uint64_t cache_bytes;       /* rl_store_options.block_cache_bytes; 0 = the kv default */
    int64_t mirror_bytes;       /* rl_store_options.mirror_max_bytes */
    bool journal_off;           /* local stores: no journal (rl_store_options.journal_off) */
    bool journal_salvage;       /* rl_store_options.journal_salvage */
    bool rebuild_digest;        /* rl_store_options.digest_rebuild */
    bool load_in_open;          /* first opens too load before answering (no load_background) */
    uint32_t heal_min_ms;       /* the healer's first wait and look interval; 0 = 100 ms */
    uint32_t heal_max_ms;       /* the cap of its doubling backoff; 0 = 5000 ms */
} srv_lakes_options;

/* A registry opening lakes as opt says; it copies opt, borrows its strings
 * and log, which must outlive it. NULL when out of memory. */
srv_lakes *srv_lakes_new(const srv_lakes_options *opt, srv_logger *log);
bool srv_lakes_auto_create(const srv_lakes *L);
/* One writer per local store root: an flock'd file, held until
 * srv_lakes_free. --takeover starts anyway (and fences the old writer's
 * lakes as it opens them). 0 or -1 with err. */
int srv_lakes_lock_root(srv_lakes *L, rl_error *err);
/* Writers: refuse to start (-1, 55000) while another writer's lease on a
 * lake of the root is live. The lakes of a local root that the banner
 * describes (srv_lakes_describe) are opened once here for both. */
int srv_lakes_check_leases(srv_lakes *L, rl_error *err);
/* ----------------------------------------- start-up: what the banner lists */

#define SRV_DESCRIBED_LAKES 20

/* One lake of a local root as start-up found it. */
typedef struct srv_lake_desc {
    char name[64];
    char state[64];   /* "DuckLake 1.1", "unfinished import: not served" (backup,
                         restore) or "unreadable" */
    bool initialized; /* DuckLake has written its first snapshot (the lake has a
                         data_path of its own, which an ATTACH must not contradict) */
} srv_lake_desc;

/* The lakes of a local root in name order, the first SRV_DESCRIBED_LAKES
 * of them described into a malloc'd *out the caller frees (*n of them;
 * NULL when there are none), *total the count of lakes. Each lake is
 * opened at most once at start-up: what srv_lakes_check_leases saw, a lake
 * the registry holds open, else a reader that writes nothing (it fences no
 * one and leaves no checkpoint). Called once, after srv_lakes_open_all if
 * at all. -1 when the root cannot be listed (an object store) or out of
 * memory. */
int srv_lakes_describe(srv_lakes *L, srv_lake_desc **out, size_t *n, size_t *total);

/* The server listens on `port`: the address its writer leases record. */
void srv_lakes_listening(srv_lakes *L, int port);
/* Open every lake of a local root now (--takeover fences the old writer). */
void srv_lakes_open_all(srv_lakes *L);
/* --standby: open every lake of the root as a follower now, also of an
 * object-store root (its names listed), so that the standby watches their
 * writer before any client connects to it. */
void srv_lakes_follow_all(srv_lakes *L);
/* Start the healer: a thread that finds lakes whose store failed, logs
 * each once (error "database_failed"), and reopens them from the store
 * with backoff (heal_min_ms doubling to heal_max_ms) until a reopen works
 * ("database_recovered"). Stopped by srv_lakes_free. 0 or -1. */
int srv_lakes_start_healer(srv_lakes *L);
/* ------------------------------------------------ hot standby (promotion) */

/* Does the registry serve its lakes as a follower now (--read-only, not
 * promoted yet)? Read without a lock: the role changes once, on promotion. */
bool srv_lakes_following(const srv_lakes *L);
/* Promote a follower to the writer of its store root: from now on every
 * lake opens as the writer with takeover (fencing the old writer, as
 * --takeover does), and each lake open as a follower now is opened again
 * as the writer: its writer open replays the old writer's journal, so it
 * holds every commit the old one acknowledged. Its sessions move to the
 * writer at their next statement outside a transaction. `why` goes to the
 * log. 0 when every lake open was promoted; -1 with err when the server is
 * not a follower (55000 "recovery is not in progress", as PostgreSQL's
 * pg_promote on a primary) or a lake could not be opened as the writer
 * (that one opens as the writer on its next connection). Thread-safe; one
 * promotion at a time. */
int srv_lakes_promote(srv_lakes *L, const char *why, rl_error *err);
/* --standby: start the thread that promotes this follower once the writer
 * it follows is gone: a live writer lease it saw on one of its lakes
 * expired, was released (the writer stopped), or names a process of this
 * host that no longer exists. Stopped by srv_lakes_free. 0 or -1. */
int srv_lakes_start_standby(srv_lakes *L);

/* Close every lake (flushing the stores) and free the registry. Returns 0,
 * or -1 if a store failed to close cleanly. */
int srv_lakes_free(srv_lakes *L);

/* The engine of database `name`, opening the lake on first use; NULL +
 * 3D000 if it does not exist (and is not to be created). The registry
 * owns lake and engine; with `lake` non-NULL the caller holds *lake (and
 * may use the engine) until it passes it to srv_lake_release once. May
 * wait while another connection opens the same name. */
rl_engine *srv_lake_engine(srv_lakes *L, const char *name, srv_lake **lake, rl_error *err);
/* Before a read-only session opens `name` (srv_lake_engine would create a
 * missing database under --auto-create): 0 when the lake is open or
 * exists, or when nothing would be created anyway; -1 with 3D000 and a
 * hint when it does not exist, or 58030 when the store cannot be read. */
int srv_lake_exists_for_reader(srv_lakes *L, const char *name, rl_error *err);
/* Give back the hold srv_lake_engine handed out, after the session that
 * used its engine has been freed: a retired lake no session holds any more
 * is closed here (once its name is open again). NULL is a no-op. */
void srv_lake_release(srv_lakes *L, srv_lake *lake);
/* A session's lake was replaced after its store failed, and the new one
 * is open and working: its engine, with *next held for the session (as
 * srv_lake_engine's hold; the caller then releases `lake`, or *next if it
 * cannot move the session). NULL (*next NULL) otherwise; costs one atomic
 * load while `lake` was not replaced. */
rl_engine *srv_lake_successor(srv_lakes *L, srv_lake *lake, srv_lake **next);
/* Retired lakes not closed yet (for /metrics). */
size_t srv_lakes_retired(srv_lakes *L);
/* A statement failed with 25006 "fenced": log it once per lake. */
void srv_lake_fenced(srv_lake *lake);
/* Has a newer writer fenced this lake's writer (a statement saw 25006, or
 * its lease heartbeat did)? */
bool srv_lake_is_fenced(srv_lake *lake);
/* fn for the catalog of every open lake (not retired ones, not the stores
 * of further schemas), under the registry lock: for /metrics. */
void srv_lakes_each_catalog(srv_lakes *L, void (*fn)(void *ctx, rl_catalog *cat), void *ctx);

/* What readiness reports of a lake the registry holds open. */
typedef enum srv_lake_state {
    SRV_LAKE_WRITABLE,  /* the writer: commits are taken */
    SRV_LAKE_FOLLOWING, /* a follower (--read-only): reads the writer's commits */
    SRV_LAKE_FENCED,    /* a writer another took the lake from (--takeover) */
    SRV_LAKE_FAILED     /* its store failed: no commits until the healer (or a
                           connection) has reopened it */
} srv_lake_state;
const char *srv_lake_state_name(srv_lake_state s);
/* fn(ctx, name, state) for each lake open now, and as failed each one
 * retired and not open again yet (under the registry lock:
 * fn must not call back into the registry); reads flags only, so it never
 * waits on a store. */
void srv_lakes_each_state(srv_lakes *L, void (*fn)(void *ctx, const char *name,
                                                   srv_lake_state state),
                          void *ctx);
/* fn(ctx, name, poll_ms, idle) for each open lake whose follower backs off
 * when idle (rl_catalog_follower_backoff), under the registry lock: for
 * /metrics. Reads atomics only: never waits on a store. */
void srv_lakes_each_backoff(srv_lakes *L,
                            void (*fn)(void *ctx, const char *name, uint64_t poll_ms, int idle),
                            void *ctx);
/* Can the store root be reached now: a local root exists and is a
 * directory the server may write (read for a follower)? Object stores:
 * true (reachability shows in their lakes' states). */
bool srv_lakes_root_reachable(srv_lakes *L, char *why, size_t n);

#endif
