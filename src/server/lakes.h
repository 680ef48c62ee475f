/*
 * lakes.h — database directories and the lakes `rocklake serve` has open.
 *
 * Owns: database names and their URLs under a store root (ROOT/NAME), the
 * CLI's `db list` / `db drop` of a local root, the server's root lock and
 * its lease check at start, and the registry of opened lakes: database
 * name -> catalog + engine (opened on first use, created with
 * --auto-create), the stores of further DuckLake metadata schemas
 * (ROOT/NAME/schemas/SCHEMA, the engine's rl_schema_lakes hooks), and the
 * reopen of a lake whose object store failed.
 *
 * Invariants:
 *  - a lake is opened at most once per process under a name, by one thread
 *    at a time and without holding the registry lock (others asking for
 *    that name wait; other names, /metrics and cancels do not);
 *  - one whose store failed is retired (sessions that hold it keep getting
 *    58030) and a new one opened, after the retired writers were shut down;
 *    a retired lake is closed when no session holds it any more and its
 *    name is open again, or by srv_lakes_free;
 *  - an open lake is closed only by srv_lakes_free, after every connection
 *    thread has ended;
 *  - the store is reached through catalog.h only (never kv.h).
 */
#ifndef ROCKLAKE_LAKES_H
#define ROCKLAKE_LAKES_H

#include <stdbool.h>
#include <stddef.h>

#include "catalog/catalog.h"
#include "base/error.h"
#include "server/server.h"
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

/* The registry of srv (which must outlive it); NULL when out of memory.
 * auto_create: create unknown databases on first use. */
srv_lakes *srv_lakes_new(rl_server *srv, bool auto_create);
bool srv_lakes_auto_create(const srv_lakes *L);
/* One writer per local store root: an flock'd file, held until
 * srv_lakes_free. --takeover starts anyway (and fences the old writer's
 * lakes as it opens them). 0 or -1 with err. */
int srv_lakes_lock_root(srv_lakes *L, rl_error *err);
/* Writers: refuse to start (-1, 55000) while another writer's lease on a
 * lake of the root is live. */
int srv_lakes_check_leases(srv_lakes *L, rl_error *err);
/* The server listens on `port`: the address its writer leases record. */
void srv_lakes_listening(srv_lakes *L, int port);
/* Open every lake of a local root now (--takeover fences the old writer). */
void srv_lakes_open_all(srv_lakes *L);
/* Close every lake (flushing the stores) and free the registry. Returns 0,
 * or -1 if a store failed to close cleanly. */
int srv_lakes_free(srv_lakes *L);

/* The engine of database `name`, opening the lake on first use; NULL +
 * 3D000 if it does not exist (and is not to be created). The registry
 * owns lake and engine; with `lake` non-NULL the caller holds *lake (and
 * may use the engine) until it passes it to srv_lake_release once. May
 * wait while another connection opens the same name. */
rl_engine *srv_lake_engine(rl_server *srv, const char *name, srv_lake **lake, rl_error *err);
/* Give back the hold srv_lake_engine handed out, after the session that
 * used its engine has been freed: a retired lake no session holds any more
 * is closed here (once its name is open again). NULL is a no-op. */
void srv_lake_release(rl_server *srv, srv_lake *lake);
/* Retired lakes not closed yet (for /metrics). */
size_t srv_lakes_retired(rl_server *srv);
/* A statement failed with 25006 "fenced": log it once per lake. */
void srv_lake_fenced(rl_server *srv, srv_lake *lake);
/* fn for the catalog of every open lake (not retired ones, not the stores
 * of further schemas), under the registry lock: for /metrics. */
void srv_lakes_each_catalog(rl_server *srv, void (*fn)(void *ctx, rl_catalog *cat), void *ctx);

#endif
