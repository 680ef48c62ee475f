/*
 * lakes.c — database directories and the registry of opened lakes (see
 * lakes.h).
 *
 * A database is a directory (or prefix) ROOT/NAME holding one store; a
 * further DuckLake metadata schema of it lives at ROOT/NAME/schemas/SCHEMA.
 * Lakes open on first use (outside the registry mutex, one opener per
 * name) and stay open for the run, except that one replaced after its
 * store failed is closed when its last session ends.
 *
 * Store faults heal: a lake whose store failed (rl_catalog_failed) is
 * noted down once (error "database_failed", state "failed" in /metrics
 * and /ready) by the healer thread, which retires it and opens the lake
 * again from the store, with backoff, until that works
 * ("database_recovered"). The reopen is a restart of that one lake: the
 * failed writer is shut down first, then a new writer opens the store
 * (SlateDB from its manifest, the journal replayed from its file) and
 * nothing of the failed handle's memory is kept, so it keeps exactly what
 * a restart would: every acknowledged commit, and possibly commits that
 * failed (in doubt). Sessions move to the new lake at their next statement
 * outside a transaction (srv_lake_successor). With --auto-create a
 * connect may create one, at most --max-auto-create per run (auto_created,
 * under the registry mutex), so unknown names cannot open stores without
 * bound. At start-up a lake is opened once: the lease check looks at the
 * lakes the banner lists (a read-only catalog that writes nothing, the
 * lease read through it: rl_lease_get) and keeps what it saw for
 * srv_lakes_describe; on an object-store root it probes each lake as a
 * first open would (rl_catalog_probe) and keeps the answer for that open
 * if it comes within PROBE_REUSE_NS (kept_probe); with --takeover the banner describes the lakes the
 * registry opened. The store is reached through catalog.h (and lease.h)
 * only.
 */
#include "server/lakes.h"

#include <assert.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <inttypes.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/buf.h"
#include "catalog/lease.h"
#include "server/log.h"

/* A further DuckLake metadata schema of a database (PostgreSQL keeps any
 * number, one per schema): a store of its own at ROOT/NAME/schemas/SCHEMA,
 * to which sql_lakes.c routes the statements naming that schema. */
typedef struct schema_lake {
    char schema[64];
    rl_catalog *cat;
    rl_engine *eng;
    struct schema_lake *next;
} schema_lake;

/* Schemas found to have no store of their own: a writer creates every such
 * store itself, so its answer holds; a follower asks again after a second. */
#define ABSENT_SCHEMAS 32
#define FOLLOWER_ABSENT_NS 1000000000LL

struct srv_lake {
    char name[64];
    rl_catalog *cat;
    rl_engine *eng;
    bool fenced_logged;
    bool retired;                /* in L->retired (L->mu) */
    _Atomic bool replaced;       /* = retired, read without L->mu by its sessions */
    int sessions;                /* sessions holding it: srv_lake_engine .. srv_lake_release (L->mu) */
    bool reopened;               /* opened again after its store failed: take over our own
                                    lease (the retired handle still holds it) */
    srv_lake *next;
    srv_lakes *L;                /* its registry */
    rl_schema_lakes hooks;       /* handed to eng: find / each below */
    pthread_mutex_t schemas_mu;  /* guards schemas and absent */
    schema_lake *schemas;        /* in the order they were opened */
    struct {
        char schema[64];
        int64_t at_ns;
    } absent[ABSENT_SCHEMAS];
    size_t nabsent;
};

/* A database whose lake failed (rl_catalog_failed) and is not open again
 * yet: from the failure until a reopen works (L->mu). The healer tries
 * again at next_ns, each failed try doubling the wait up to the cap. */
typedef struct lake_down {
    char name[64];
    int64_t since_ns;   /* the failure was seen */
    int64_t next_ns;    /* the healer's next try */
    int64_t backoff_ns; /* the wait after the next failed try */
    unsigned attempts;  /* reopens tried and failed */
    bool heals;         /* a reopen recovers (rl_catalog_heals); false: the
                           store's files moved, an operator must look */
    struct lake_down *next;
} lake_down;

/* The healer's wait before its first reopen and the cap of its backoff
 * (srv_lakes_options.heal_min_ms / heal_max_ms when set). Also how often
 * it looks for newly failed lakes. */
#define HEAL_MIN_MS 100
#define HEAL_MAX_MS 5000

/* What the start-up lease check found about a lake of an object-store
 * root (rl_catalog_probe: a reader open, ~0.8 s at 25 ms per request), kept
 * for the lake's first open to use instead of probing again when it comes
 * within PROBE_REUSE_NS: the check and the open then read the lease once,
 * as a lone open does. A later open probes anew. */
#define PROBES_KEPT 8
#define PROBE_REUSE_NS (3LL * 1000000000LL)
typedef struct kept_probe {
    char url[512];          /* "" unused */
    int exists;             /* rl_catalog_probe's 1 / 0 */
    rl_lease_owner lease;
    bool lease_found;
    int64_t at_ns;          /* when the probe ended */
} kept_probe;

/* A name being opened by one thread, outside the registry lock: others
 * asking for it wait on srv_lakes.opened. */
typedef struct opening {
    const char *name;
    struct opening *next;
} opening;

struct srv_lakes {
    srv_lakes_options cfg;  /* its strings borrowed from the creator */
    srv_logger *log;        /* lent by the creator */
    char lease_listen[128]; /* the listen address recorded in writer leases */
    int lock_fd;            /* the root lock (srv_lakes_lock_root), -1 if none */
    pthread_mutex_t mu;     /* guards lakes, retired, opening, auto_created and each lake's
                               flags and session count */
    pthread_cond_t opened;  /* an entry left `opening` */
    uint64_t auto_created;  /* databases created (or being created) on first connect this run */
    srv_lake *lakes;
    /* lakes replaced after their object store failed (rl_catalog_failed):
     * sessions opened before may still use them; one is closed once no
     * session holds it and its name is open again (so its writer has been
     * shut down, and a failed reopen still knows to take over its lease),
     * the rest when the server stops */
    srv_lake *retired;
    opening *opening;       /* names being opened now (their openers' stack frames) */
    lake_down *down;        /* databases whose lake failed, until reopened */
    /* the healer: a thread that reopens failed lakes with backoff */
    pthread_t healer;
    bool healer_started;
    bool healer_stop;       /* under mu */
    pthread_cond_t heal_cv; /* wakes the healer (CLOCK_MONOTONIC) */
    int64_t heal_min_ns, heal_max_ns;
    /* start-up: the lakes srv_lakes_check_leases looked at, described, until
     * srv_lakes_describe takes them (NULL: none kept) */
    srv_lake_desc *described;
    size_t nlisted;         /* the lakes it listed (the first ones described) */
    kept_probe probes[PROBES_KEPT]; /* under mu */
    /* The role (hot standby, srv_lakes_promote): a follower (cfg.read_only)
     * until promoted, then a writer that opens every lake with takeover.
     * Read without mu by the openers and the probes; written once, under
     * promote_mu and mu. */
    _Atomic bool following;
    _Atomic bool promoted;
    pthread_mutex_t promote_mu; /* one promotion at a time (taken before mu) */
    /* --standby: the thread that watches the writer leases of the lakes
     * followed and promotes the server once their writer is gone */
    pthread_t standby;
    bool standby_started;
    bool standby_stop;          /* under mu */
    pthread_cond_t standby_cv;  /* wakes it to stop (CLOCK_MONOTONIC) */
};

/* Does the registry open lakes as a follower now? */
static bool following(const srv_lakes *L) { return atomic_load(&L->following); }
/* Does a writer's open fence the current writer (--takeover, or promoted)? */
static bool takes_over(const srv_lakes *L)
{
    return L->cfg.takeover || atomic_load(&L->promoted);
}
bool srv_lakes_following(const srv_lakes *L) { return following(L); }

srv_lakes *srv_lakes_new(const srv_lakes_options *opt, srv_logger *log)
{
    srv_lakes *L = calloc(1, sizeof *L);
    if (!L)
        return NULL;
    L->cfg = *opt;
    L->log = log;
    L->lock_fd = -1;
    pthread_mutex_init(&L->mu, NULL);
    pthread_cond_init(&L->opened, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&L->heal_cv, &ca);
    pthread_cond_init(&L->standby_cv, &ca);
    pthread_condattr_destroy(&ca);
    pthread_mutex_init(&L->promote_mu, NULL);
    atomic_init(&L->following, opt->read_only);
    atomic_init(&L->promoted, false);
    L->heal_min_ns = (int64_t)(opt->heal_min_ms ? opt->heal_min_ms : HEAL_MIN_MS) * 1000000LL;
    L->heal_max_ns = (int64_t)(opt->heal_max_ms ? opt->heal_max_ms : HEAL_MAX_MS) * 1000000LL;
    if (L->heal_max_ns < L->heal_min_ns)
        L->heal_max_ns = L->heal_min_ns;
    return L;
}

bool srv_lakes_auto_create(const srv_lakes *L) { return L->cfg.auto_create; }


/* ------------------------------------------------------------ databases */

static bool valid_db_name(const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n > 63 || name[0] == '.' || name[0] == '-')
        return false;
    for (const char *p = name; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') ||
              *p == '_' || *p == '-' || *p == '.'))
            return false;
    return true;
}

bool rl_db_url(const char *root, const char *name, char *out, size_t n)
{
    if (!valid_db_name(name))
        return false;
    /* trailing slashes go, but not a scheme's "//": memory:// + lake is
     * memory://lake (it was memory:/lake, a directory of that name made
     * in the working directory), s3://b/ + lake is s3://b/lake */
    const char *scheme = strstr(root, "://");
    size_t keep = scheme ? (size_t)(scheme - root) + 3 : 1;
    size_t rl = strlen(root);
    while (rl > keep && root[rl - 1] == '/')
        rl--;
    const char *sep = scheme && rl == keep ? "" : "/";
    int w = snprintf(out, n, "%.*s%s%s", (int)rl, root, sep, name);
    return w > 0 && (size_t)w < n;
}

static bool dir_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

static int compare_names(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The names under dir that are databases: a valid name whose directory
 * holds a store (an empty or foreign directory is none), sorted. */
static int db_names(const char *dir, char ***out, size_t *n, rl_error *err)
{
    *out = NULL;
    *n = 0;
    DIR *d = opendir(dir);
    if (!d)
        return errno == ENOENT ? 0
                               : rl_error_set(err, RL_SQLSTATE_IO, "cannot read directory \"%s\": %s",
                                              dir, strerror(errno));
    size_t cap = 0;
    int rc = 0;
    for (struct dirent *e; rc == 0 && (e = readdir(d));) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (!valid_db_name(e->d_name) || !dir_exists(path) || rl_store_exists(path, err) != 1)
            continue;
        char **grown = rl_array_reserve(*out, *n, &cap, sizeof *grown, 16);
        char *name = grown ? strdup(e->d_name) : NULL;
        if (grown)
            *out = grown;
        if (!name)
            rc = rl_error_set(err, RL_SQLSTATE_OUT_OF_MEMORY, "out of memory");
        else
            (*out)[(*n)++] = name;
    }
    closedir(d);
    if (*n)
        qsort(*out, *n, sizeof **out, compare_names);
    return rc;
}

int rl_db_list(const char *root, void (*cb)(const char *name, void *ctx), void *ctx,
               rl_error *err)
{
    char *dir = rl_store_local_dir(root);
    if (!dir)
        return rl_error_set(err, RL_SQLSTATE_FEATURE_NOT_SUPPORTED,
                            "listing databases needs a local store root (a path or file://), "
                            "not \"%s\"", root);
    char **names;
    size_t n;
    int rc = db_names(dir, &names, &n, err);
    for (size_t i = 0; i < n; i++) {
        if (rc == 0)
            cb(names[i], ctx);
        free(names[i]);
    }
    free(names);
    free(dir);
    return rc < 0 ? -1 : (int)n;
}

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    return remove(path);
}

int rl_db_drop(const char *root, const char *name, rl_error *err)
{
    char *dir = rl_store_local_dir(root);
    if (!dir)
        return rl_error_set(err, RL_SQLSTATE_FEATURE_NOT_SUPPORTED,
                            "dropping a database needs a local store root; delete the prefix "
                            "\"%s/%s\" with your object store's tools", root, name);
    char path[4096];
    int rc = 0;
    if (!valid_db_name(name) || !rl_db_url(dir, name, path, sizeof path) || !dir_exists(path))
        rc = rl_error_set(err, RL_SQLSTATE_INVALID_CATALOG_NAME, "database \"%s\" does not exist", name);
    else if (nftw(path, rm_entry, 16, FTW_DEPTH | FTW_PHYS) < 0)
        rc = rl_error_set(err, RL_SQLSTATE_IO, "cannot remove \"%s\": %s", path,
                          strerror(errno));
    free(dir);
    return rc;
}

/* 3D000, with the command that creates the database when this server does
 * not create one on first connect. */
static int no_database(const srv_lakes *L, rl_error *err, const char *name)
{
    rl_error_set(err, RL_SQLSTATE_INVALID_CATALOG_NAME, "database \"%s\" does not exist", name);
    if (!L->cfg.auto_create && !following(L))
        rl_error_hint(err, "create it with `rocklake db create %s %s` (the server opens it on the "
                           "next connect), or start rocklake serve with --auto-create on",
                      L->cfg.store, name);
    return -1;
}

static int64_t mono_ns(void) { return (int64_t)rl_monotonic_ns(); }

/* A large lake takes seconds to load into memory at open: say so. */
typedef struct load_progress {
    srv_lakes *L;
    const char *database;
} load_progress;

static void log_load_progress(void *ctx, uint64_t keys, uint64_t bytes)
{
    load_progress *lp = ctx;
    char k[32], mb[32];
    snprintf(k, sizeof k, "%" PRIu64, keys);
    snprintf(mb, sizeof mb, "%.1f", (double)bytes / (1 << 20));
    srv_log(lp->L->log, "info", "database_loading", "database", lp->database, "keys", k,
            "memory_mib", mb, NULL);
}

/* What an open did to the store beyond opening it (rl_catalog_options.store.notice). */
static void log_store_notice(void *ctx, const char *message)
{
    load_progress *lp = ctx;
    srv_log(lp->L->log, "warning", "store_integrity", "database", lp->database, "message", message,
            NULL);
}

/* The end of a background load (rl_store_options.load_background), from
 * its thread: the database_loaded line (docs/operations.md, "Opening a
 * large lake"). ctx is the registry, which outlives every lake. */
static void log_loaded(void *ctx, const char *url, const kv_open_timing *t,
                       const kv_error *refusal)
{
    srv_lakes *L = ctx;
    char ms[24], keys[24], parts[16], replayed[24];
    snprintf(ms, sizeof ms, "%.1f", (double)t->load_ns / 1e6);
    snprintf(keys, sizeof keys, "%" PRIu64, t->load_keys);
    snprintf(parts, sizeof parts, "%" PRIu32, t->load_parts);
    snprintf(replayed, sizeof replayed, "%" PRIu64, t->replayed);
    const char *result = t->background == 2 ? "in_memory" : t->background == 4 ? "refused"
                                                                                : "given_up";
    srv_log(L->log, refusal ? "error" : "info", "database_loaded", "url", url, "result", result,
            "load_ms", ms, "load_keys", keys, "load_parts", parts, "replayed", replayed,
            "message", refusal ? refusal->message
            : t->background == 2 ? "reads now use the in-memory copy; commits made during the "
                                   "load were acknowledged once its integrity check passed"
                                 : "the copy was not kept (too big, out of memory or a store "
                                   "error): reads stay on the store",
            NULL);
}

/* Keep what the start-up check's probe of url found (kept_probe). */
static void keep_probe(srv_lakes *L, const char *url, int exists, const rl_lease_owner *lease,
                       bool lease_found)
{
    size_t len = strlen(url);
    if (len >= sizeof L->probes[0].url)
        return;
    pthread_mutex_lock(&L->mu);
    kept_probe *slot = &L->probes[0];
    for (size_t i = 0; i < PROBES_KEPT; i++) /* a free slot, else the oldest */
        if (!L->probes[i].url[0] || L->probes[i].at_ns < slot->at_ns) {
            slot = &L->probes[i];
            if (!slot->url[0])
                break;
        }
    memcpy(slot->url, url, len + 1); /* fits: checked above */
    slot->exists = exists;
    slot->lease_found = lease_found;
    if (lease_found)
        slot->lease = *lease;
    slot->at_ns = mono_ns();
    pthread_mutex_unlock(&L->mu);
}

/* A kept probe of url that found a catalog, young enough to stand for the
 * open's own (used once): true with the lease it read. */
static bool take_probe(srv_lakes *L, const char *url, rl_lease_owner *lease, bool *lease_found)
{
    bool found = false;
    pthread_mutex_lock(&L->mu);
    for (size_t i = 0; i < PROBES_KEPT && !found; i++) {
        kept_probe *k = &L->probes[i];
        if (!k->url[0] || strcmp(k->url, url) != 0)
            continue;
        found = k->exists == 1 && mono_ns() - k->at_ns < PROBE_REUSE_NS;
        if (found) {
            *lease_found = k->lease_found;
            if (k->lease_found)
                *lease = k->lease;
        }
        k->url[0] = 0; /* one use, and a stale one is dropped */
    }
    pthread_mutex_unlock(&L->mu);
    return found;
}

/* Open (or, with create, make) the catalog at url; NULL with err, or NULL
 * with err clear when the store does not exist and create is off. */
static rl_catalog *open_catalog(srv_lakes *L, const char *url, const char *name, bool create,
                                rl_format format, bool takeover, const srv_lake *promoting,
                                int64_t *exists_ns, rl_error *err)
{
    int64_t t0 = mono_ns();
    /* a writer open would create an empty store: check first (a local
     * store is cheap to look at, also a directory that holds none; an
     * object store needs a reader) */
    char *dir = rl_store_local_dir(url);
    bool missing = false;
    /* A writer that does not take over reads the lease before its open
     * fences anyone: the same reader says whether there is a catalog. */
    bool probe = !dir && !create && !promoting && !following(L) && !takes_over(L);
    rl_lease_owner lease;
    bool lease_found = false;
    if (!create && dir) {
        int exists = dir_exists(dir) ? rl_store_exists(url, err) : 0;
        if (exists < 0) {
            free(dir);
            return NULL;
        }
        missing = exists == 0;
    } else if (!create && !promoting) {
        /* A promotion opens a lake its follower has open: it exists (the
         * check's reader open is ~1 s of requests in series at 25 ms). A
         * writer that takes over reads no lease: one list of the store's
         * manifests says whether there is a store at all, and its open
         * then finds the catalog in it or says there is none
         * (RL_CAUSE_NO_CATALOG), as a reader's open would have. */
        int exists = probe && take_probe(L, url, &lease, &lease_found)
                         ? 1
                     : probe ? rl_catalog_probe(url, L->cfg.store_timeout_ms, &lease,
                                                &lease_found, err)
                     : !following(L) ? rl_store_exists(url, err)
                                     : rl_catalog_exists(url, L->cfg.store_timeout_ms, err);
        if (exists < 0) {
            free(dir);
            return NULL;
        }
        missing = exists == 0;
    }
    free(dir);
    *exists_ns += mono_ns() - t0;
    if (missing)
        return NULL;
    rl_catalog_options o = {.create_if_missing = create, .read_only = following(L),
                            .format = format, .takeover = takes_over(L),
                            /* a reopen takes over the lease its failed writer
                             * holds, never another writer's */
                            .takeover_self = takeover,
                            .lease_ms = L->cfg.lease_ms, .lease_listen = L->lease_listen,
                            .sequence_commits = L->cfg.sequence_commits,
                            .lease_probed = probe,
                            .lease = lease_found ? &lease : NULL};
    load_progress lp = {L, name};
    o.store.load_progress = log_load_progress;
    o.store.load_progress_ctx = &lp;
    o.store.block_cache_bytes = L->cfg.cache_bytes;
    o.store.store_timeout_ms = L->cfg.store_timeout_ms;
    o.store.follower_poll_max_ms = L->cfg.follower_poll_max_ms;
    /* A promotion reads SlateDB as the follower did instead of loading the
     * whole lake into memory first: the load takes seconds per million
     * keys, and the standby is to write within a second (see
     * srv_lakes_promote). */
    o.store.mirror_max_bytes = promoting ? -1 : L->cfg.mirror_bytes;
    /* ... and it shares the follower's block cache and takes the WAL
     * objects and manifests the follower read from memory (kv.h
     * promote_from: about five round trips of SlateDB's open, and the
     * catalog's first reads from cold blocks). */
    o.store.promote_from = promoting ? rl_catalog_kv(promoting->cat) : NULL;
    o.store.journal_off = L->cfg.journal_off;
    o.store.journal_salvage = L->cfg.journal_salvage;
    o.store.digest_rebuild = L->cfg.rebuild_digest;
    o.store.notice = log_store_notice;
    o.store.notice_ctx = &lp;
    /* A first open answers from the store at once and loads the copy in
     * the background (kv.h, load_background); a reopen after a failure
     * loads first, so that a store refused by its digest stays refused. */
    o.store.load_background = !takeover && !promoting && !L->cfg.load_in_open;
    o.store.loaded = log_loaded;
    o.store.loaded_ctx = L;
    /* tests only: SlateDB's WAL lags the journal this long, so that only the
     * journal holds the latest acknowledged commits (tests/wire/test_backup.py) */
    const char *wal_ms = getenv("ROCKLAKE_TEST_WAL_FLUSH_MS");
    if (wal_ms && *wal_ms)
        o.store.flush_interval_ms = strtoull(wal_ms, NULL, 10);
    rl_error e;
    rl_error_clear(&e);
    rl_catalog *cat = rl_catalog_open(url, &o, &e);
    if (!cat && e.cause != RL_CAUSE_NO_CATALOG) /* no catalog: the caller creates or says 3D000 */
        *err = e;
    return cat;
}

/* The database_opened line: what the open holds in memory and where its
 * time went (`t0`: when the open began; exists_ns: its existence checks),
 * in milliseconds: open_ms in all, then its parts (bench/cold_open.py,
 * docs/operations.md "Opening a large lake"). `load`: "background" when the
 * in-memory copy loads after the open (load_ms 0 here; database_loaded
 * says when it is done), "in_open" when the open loaded it (or keeps none). */
static void log_opened(srv_lakes *L, const char *name, const char *url, rl_catalog *cat,
                       int64_t t0, int64_t exists_ns)
{
    rl_catalog_memory mi;
    char in_memory[64] = "no";
    if (rl_catalog_memory_stats(cat, &mi))
        snprintf(in_memory, sizeof in_memory, "%" PRIu64 " keys, %.1f MiB", mi.keys,
                 (double)mi.bytes / (1 << 20));
    rl_catalog_open_timing t;
    rl_catalog_open_timing_get(cat, &t);
    char ms[8][24], parts[16];
    snprintf(parts, sizeof parts, "%" PRIu32, t.store.load_parts);
    const double per_ms = 1e6;
    snprintf(ms[0], sizeof ms[0], "%.1f", (double)(mono_ns() - t0) / per_ms);
    snprintf(ms[1], sizeof ms[1], "%.1f", (double)exists_ns / per_ms);
    snprintf(ms[2], sizeof ms[2], "%.1f", (double)t.lease_check_ns / per_ms);
    snprintf(ms[3], sizeof ms[3], "%.1f", (double)t.store.slate_ns / per_ms);
    snprintf(ms[4], sizeof ms[4], "%.1f", (double)t.store.journal_ns / per_ms);
    snprintf(ms[5], sizeof ms[5], "%.1f", (double)t.store.load_ns / per_ms);
    snprintf(ms[6], sizeof ms[6], "%.1f", (double)t.store.digest_ns / per_ms);
    snprintf(ms[7], sizeof ms[7], "%.1f", (double)t.catalog_ns / per_ms);
    srv_log(L->log, "info", "database_opened", "database", name, "url", url, "mode",
            rl_catalog_read_only(cat) ? "read-only" : "writer", "in_memory", in_memory,
            "open_ms", ms[0], "exists_ms", ms[1], "lease_check_ms", ms[2], "slatedb_open_ms",
            ms[3], "journal_ms", ms[4], "load_ms", ms[5], "load_parts", parts, "digest_ms", ms[6],
            "catalog_ms", ms[7], "load", t.store.background ? "background" : "in_open", NULL);
}

static bool schema_known_absent(srv_lake *l, const char *schema)
{
    for (size_t i = 0; i < l->nabsent; i++)
        if (strcmp(l->absent[i].schema, schema) == 0)
            return !following(l->L) ||
                   mono_ns() - l->absent[i].at_ns < FOLLOWER_ABSENT_NS;
    return false;
}

static void note_schema_absent(srv_lake *l, const char *schema, bool absent)
{
    size_t i = 0;
    while (i < l->nabsent && strcmp(l->absent[i].schema, schema) != 0)
        i++;
    if (!absent) {
        if (i < l->nabsent)
            l->absent[i] = l->absent[--l->nabsent];
        return;
    }
    if (i == l->nabsent && l->nabsent == ABSENT_SCHEMAS)
        return; /* full: such schemas are looked up again next time */
    if (i == l->nabsent)
        snprintf(l->absent[l->nabsent++].schema, sizeof l->absent[0].schema, "%s", schema);
    l->absent[i].at_ns = mono_ns();
}

/* Open or create the store of `schema`; caller holds l->schemas_mu.
 * NULL with err clear: no such store. */
static schema_lake *open_schema_lake(srv_lake *l, const char *schema, bool create, rl_error *err)
{
    char base[4096], url[4096];
    if (!valid_db_name(schema) || strlen(schema) >= sizeof l->schemas->schema) {
        if (create)
            rl_error_set(err, RL_SQLSTATE_FEATURE_NOT_SUPPORTED,
                         "RockLake keeps a further DuckLake metadata schema in a store named "
                         "after it, and \"%s\" cannot name one",
                         schema);
        if (create)
            rl_error_hint(err, "use a schema name of letters, digits, '_', '-' and '.'");
        return NULL;
    }
    if (!rl_db_url(l->L->cfg.store, l->name, base, sizeof base) ||
        snprintf(url, sizeof url, "%s/schemas/%s", base, schema) >= (int)sizeof url) {
        rl_error_set(err, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, "store path too long");
        return NULL;
    }
    int64_t t0 = mono_ns(), exists_ns = 0;
    rl_catalog *cat = open_catalog(l->L, url, l->name, create && !following(l->L),
                                   rl_catalog_format(l->cat), l->reopened, NULL, &exists_ns, err);
    if (!cat)
        return NULL;
    rl_engine_options eo = {.database = l->name};
    schema_lake *sl = calloc(1, sizeof *sl);
    rl_engine *eng = sl ? rl_engine_new(cat, &eo, err) : NULL;
    if (!eng) {
        free(sl);
        rl_catalog_close(cat, NULL);
        if (!err->sqlstate[0])
            rl_error_set(err, RL_SQLSTATE_OUT_OF_MEMORY, "out of memory");
        return NULL;
    }
    snprintf(sl->schema, sizeof sl->schema, "%s", schema);
    sl->cat = cat;
    sl->eng = eng;
    schema_lake **tail = &l->schemas;
    while (*tail)
        tail = &(*tail)->next;
    *tail = sl;
    log_opened(l->L, l->name, url, cat, t0, exists_ns);
    rl_catalog_start_load(cat);
    return sl;
}

static rl_engine *schema_lake_find(void *ctx, const char *schema, bool create, rl_error *err)
{
    srv_lake *l = ctx;
    pthread_mutex_lock(&l->schemas_mu);
    schema_lake *sl = l->schemas;
    while (sl && strcmp(sl->schema, schema) != 0)
        sl = sl->next;
    if (!sl && (create || !schema_known_absent(l, schema))) {
        sl = open_schema_lake(l, schema, create, err);
        if (!err->sqlstate[0])
            note_schema_absent(l, schema, !sl);
    }
    pthread_mutex_unlock(&l->schemas_mu);
    return sl ? sl->eng : NULL;
}

static bool schema_lake_any(void *ctx)
{
    srv_lake *l = ctx;
    if (following(l->L))
        return true; /* a follower learns of the writer's new schemas by looking */
    pthread_mutex_lock(&l->schemas_mu);
    bool any = l->schemas != NULL;
    pthread_mutex_unlock(&l->schemas_mu);
    return any;
}

static int schema_lake_each(void *ctx, int (*fn)(void *fctx, rl_engine *eng), void *fctx)
{
    srv_lake *l = ctx;
    /* the list only grows and its nodes live as long as the lake */
    pthread_mutex_lock(&l->schemas_mu);
    schema_lake *first = l->schemas;
    pthread_mutex_unlock(&l->schemas_mu);
    int rc = 0;
    for (schema_lake *sl = first; sl && rc == 0; sl = sl->next)
        rc = fn(fctx, sl->eng);
    return rc;
}

/* The stores of further DuckLake schemas are named after schemas of the
 * database's own catalog (CREATE SCHEMA lands there): open those that exist,
 * so that pg_catalog lists their tables from the first statement on. */
static int note_listed_schema(void *ctx, const char *schema)
{
    srv_lake *l = ctx;
    if (strcmp(schema, "public") == 0)
        return 0;
    rl_error e;
    rl_error_clear(&e);
    schema_lake_find(l, schema, false, &e);
    if (e.sqlstate[0])
        srv_log(l->L->log, "warning", "database_open_failed", "database", l->name, "schema",
                schema, "message", e.message, NULL);
    return 0;
}

static void open_schema_lakes(srv_lake *l)
{
    rl_error e;
    rl_error_clear(&e);
    rl_txn *t = rl_txn_begin(l->cat, &e);
    if (t)
        rl_txn_list_schemas(t, note_listed_schema, l, &e);
    rl_txn_free(t);
}

static void close_schema_lakes(srv_lake *l)
{
    for (schema_lake *sl = l->schemas, *next; sl; sl = next) {
        next = sl->next;
        rl_engine_free(sl->eng);
        rl_error e;
        rl_error_clear(&e);
        if (rl_catalog_close(sl->cat, &e) < 0)
            srv_log(l->L->log, "error", "database_close_failed", "database", l->name, "schema",
                    sl->schema, "message", e.message, NULL);
        free(sl);
    }
    l->schemas = NULL;
    pthread_mutex_destroy(&l->schemas_mu);
}

static srv_lake *open_lake(srv_lakes *L, const char *name, bool reopen,
                           const srv_lake *promoting, rl_error *err)
{
    char url[4096];
    if (!rl_db_url(L->cfg.store, name, url, sizeof url)) {
        no_database(L, err, name);
        return NULL;
    }
    /* a reopen never creates: a store missing now was removed, and an empty
     * one in its place would hide that */
    bool create = L->cfg.auto_create && !following(L) && !reopen;
    rl_error_clear(err);
    /* an existing database opens whatever the auto-create count; a new one
     * only while the count is under --max-auto-create (each is a store with
     * memory of its own, and any client can name one) */
    int64_t t0 = mono_ns(), exists_ns = 0;
    rl_catalog *cat = open_catalog(L, url, name, false, 0, reopen, promoting, &exists_ns, err);
    if (!cat && !err->sqlstate[0] && create) {
        uint64_t max = L->cfg.max_auto_create ? L->cfg.max_auto_create
                                                : SRV_DEFAULT_MAX_AUTO_CREATE;
        pthread_mutex_lock(&L->mu); /* take one of the creations, given back on failure */
        bool full = L->auto_created >= max;
        if (!full)
            L->auto_created++;
        pthread_mutex_unlock(&L->mu);
        if (full) {
            rl_error_set(err, RL_SQLSTATE_CONFIGURATION_LIMIT_EXCEEDED,
                         "database \"%s\" does not exist, and this server has reached its "
                         "limit of %" PRIu64 " databases created on first connect",
                         name, max);
            rl_error_hint(err, "Create it with \"rocklake db create ROOT %s\", or restart the server "
                          "with a higher --max-auto-create.",
                          name);
            srv_log(L->log, "warning", "auto_create_limit", "database", name, "message",
                    err->message, NULL);
            return NULL;
        }
        cat = open_catalog(L, url, name, true, 0, reopen, NULL, &exists_ns, err);
        if (!cat) {
            pthread_mutex_lock(&L->mu);
            L->auto_created--;
            pthread_mutex_unlock(&L->mu);
        }
    }
    if (!cat) {
        if (!err->sqlstate[0])
            no_database(L, err, name);
        else if (!reopen) /* the store refused (damaged journal, digest, lease): the
                             operator's log says why (a reopen's failure: the healer's) */
            srv_log(L->log, "warning", "database_open_failed", "database", name, "message",
                    err->message, NULL);
        return NULL;
    }
    srv_lake *l = calloc(1, sizeof *l);
    if (!l) {
        rl_catalog_close(cat, NULL);
        rl_error_set(err, RL_SQLSTATE_OUT_OF_MEMORY, "out of memory");
        return NULL;
    }
    l->L = L;
    l->reopened = reopen;
    l->hooks = (rl_schema_lakes){
        .ctx = l, .find = schema_lake_find, .each = schema_lake_each, .any = schema_lake_any};
    pthread_mutex_init(&l->schemas_mu, NULL);
    rl_engine_options eo = {.database = name, .schema_lakes = &l->hooks};
    rl_engine *eng = rl_engine_new(cat, &eo, err);
    if (!eng) {
        pthread_mutex_destroy(&l->schemas_mu);
        free(l);
        rl_catalog_close(cat, NULL);
        return NULL;
    }
    snprintf(l->name, sizeof l->name, "%s", name);
    l->cat = cat;
    l->eng = eng;
    log_opened(L, name, url, cat, t0, exists_ns);
    open_schema_lakes(l);
    /* after the open's own reads (the schemas listed above): with the
     * load running they queue behind its block fetches */
    rl_catalog_start_load(cat);
    return l;
}

/* The catalog of the lake, or of one of its schemas, whose store failed
 * (rl_catalog_failed: an object store's write, a local journal's write or
 * fdatasync), or NULL: nothing can be committed to a failed one. */
static rl_catalog *failed_catalog(srv_lake *l)
{
    if (rl_catalog_failed(l->cat))
        return l->cat;
    /* Called under L->mu (the healer, /metrics): never wait here, as the
     * holder of schemas_mu may be opening a schema's store, which can take
     * the store timeout. A failure missed now is seen at the next look. */
    if (pthread_mutex_trylock(&l->schemas_mu) != 0)
        return NULL;
    rl_catalog *failed = NULL;
    for (schema_lake *sl = l->schemas; sl && !failed; sl = sl->next)
        if (rl_catalog_failed(sl->cat))
            failed = sl->cat;
    pthread_mutex_unlock(&l->schemas_mu);
    return failed;
}

static bool lake_failed(srv_lake *l) { return failed_catalog(l) != NULL; }

/* Failed, and a reopen recovers it (not when the store's files moved). */
static bool lake_heals(srv_lake *l)
{
    rl_catalog *cat = failed_catalog(l);
    return cat && rl_catalog_heals(cat);
}

static lake_down *find_down(srv_lakes *L, const char *name)
{
    lake_down *d = L->down;
    while (d && strcmp(d->name, name) != 0)
        d = d->next;
    return d;
}

/* Caller holds L->mu: `l` has failed. The first time for its name, note it
 * down and say so once, at level error. */
static void note_down(srv_lakes *L, srv_lake *l)
{
    if (find_down(L, l->name))
        return;
    rl_catalog *cat = failed_catalog(l);
    lake_down *d = calloc(1, sizeof *d);
    if (!d || !cat) { /* out of memory: the next look tries again */
        free(d);
        return;
    }
    snprintf(d->name, sizeof d->name, "%s", l->name);
    d->since_ns = mono_ns();
    d->backoff_ns = L->heal_min_ns;
    d->next_ns = d->since_ns + L->heal_min_ns;
    d->heals = rl_catalog_heals(cat);
    d->next = L->down;
    L->down = d;
    srv_log(L->log, "error", "database_failed", "database", l->name, "message",
            rl_catalog_failed_why(cat), "action",
            d->heals ? "commits fail with 58030 until the server has reopened the lake from its "
                       "store, which it tries by itself with backoff"
            : rl_catalog_refused(cat)
                ? "the store does not hold what was committed: every statement fails with "
                  "XX001 and no commit made since the open was acknowledged; restore the "
                  "store, or restart with --rebuild-digest to accept what it holds"
                : "the store's files are no longer where the server opened them: commits "
                  "fail with 58030; stop the server and check the store",
            NULL);
}

/* Caller holds L->mu: `name` is open again. Say so, and forget it was down. */
static void note_recovered(srv_lakes *L, const char *name)
{
    for (lake_down **pp = &L->down; *pp; pp = &(*pp)->next) {
        lake_down *d = *pp;
        if (strcmp(d->name, name) != 0)
            continue;
        char attempts[24], down_ms[24];
        snprintf(attempts, sizeof attempts, "%u", d->attempts + 1);
        snprintf(down_ms, sizeof down_ms, "%" PRId64, (mono_ns() - d->since_ns) / 1000000);
        srv_log(L->log, "info", "database_recovered", "database", name, "attempts", attempts,
                "down_ms", down_ms, "message",
                "the lake was reopened from its store; commits are taken again", NULL);
        *pp = d->next;
        free(d);
        return;
    }
}

static void free_lake(srv_lake *l)
{
    assert(l->sessions == 0);
    close_schema_lakes(l);
    rl_engine_free(l->eng);
    /* a retired lake's store failed and a newer handle fenced it: a close
     * error says nothing the log has not said already */
    rl_catalog_close(l->cat, NULL);
    free(l);
}

static srv_lake *find_lake(srv_lake *list, const char *name)
{
    while (list && strcmp(list->name, name) != 0)
        list = list->next;
    return list;
}

static bool is_opening(const srv_lakes *L, const char *name)
{
    for (const opening *o = L->opening; o; o = o->next)
        if (strcmp(o->name, name) == 0)
            return true;
    return false;
}

/* Unlink the retired lakes that no session holds and whose name is open
 * again into *out (caller holds L->mu; closes them after unlocking). */
static void collect_unused_retired(srv_lakes *L, srv_lake **out)
{
    for (srv_lake **pp = &L->retired; *pp;) {
        srv_lake *r = *pp;
        assert(r->retired && r->sessions >= 0);
        if (r->sessions == 0 && find_lake(L->lakes, r->name)) {
            *pp = r->next;
            r->next = *out;
            *out = r;
        } else {
            pp = &r->next;
        }
    }
}

/* The failed writers of `name` must have stopped before a new one opens.
 * Called without L->mu (each may wait up to the store timeout): the
 * retired lakes of a name being opened are not freed meanwhile. */
static int shutdown_retired(srv_lake **rs, size_t n, rl_error *err)
{
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        /* a follower (retired by a promotion) writes nothing: there is
         * nothing to stop, and its sessions may still read through it */
        if (rl_catalog_read_only(rs[i]->cat))
            continue;
        rc = rl_catalog_shutdown(rs[i]->cat, err);
        pthread_mutex_lock(&rs[i]->schemas_mu);
        for (schema_lake *sl = rs[i]->schemas; sl && rc == 0; sl = sl->next)
            rc = rl_catalog_shutdown(sl->cat, err);
        pthread_mutex_unlock(&rs[i]->schemas_mu);
    }
    if (rc < 0)
        rl_error_hint(err, "The server opens the lake again by itself once the store works "
                           "again: Connect again then.");
    return rc;
}

/* Close the lakes of a list unlinked from the registry (no lock held). */
static void free_lakes(srv_lake *list)
{
    for (srv_lake *r = list, *next; r; r = next) {
        next = r->next;
        free_lake(r);
    }
}

/* Caller holds L->mu: take the failed lake *pp out of the open ones into
 * the retired (sessions that hold it get 58030 from it until they move to
 * the lake opened anew, srv_lake_successor). */
static void retire_locked(srv_lakes *L, srv_lake **pp)
{
    srv_lake *l = *pp;
    note_down(L, l);
    *pp = l->next;
    l->next = L->retired;
    l->retired = true;
    atomic_store(&l->replaced, true);
    L->retired = l;
    srv_log(L->log, "warning", "database_reopen", "database", l->name, "message",
            "a write to the store failed; opening the lake again from the store", NULL);
}

/* The open lake `name`, or NULL when the caller is to open it: a failed
 * one is retired first, and while another connection opens the name this
 * waits for it. Caller holds L->mu (released while waiting). */
static srv_lake *find_or_retire(srv_lakes *L, const char *name)
{
    for (;;) {
        srv_lake **pp = &L->lakes;
        while (*pp && strcmp((*pp)->name, name) != 0)
            pp = &(*pp)->next;
        srv_lake *l = *pp;
        if (l && lake_heals(l)) {
            /* This connection gets the lake as the store now holds it,
             * opened anew (which fences the failed writer in the store). */
            retire_locked(L, pp);
            l = NULL;
        }
        if (l || !is_opening(L, name))
            return l;
        pthread_cond_wait(&L->opened, &L->mu); /* another connection is opening it */
    }
}

/* The retired lakes of `name` into a malloc'd array the caller frees
 * (NULL when there are none, *n = 0); *oom when it could not be made.
 * Caller holds L->mu. */
static srv_lake **retired_of(srv_lakes *L, const char *name, size_t *n, bool *oom)
{
    size_t count = 0;
    for (srv_lake *r = L->retired; r; r = r->next)
        count += strcmp(r->name, name) == 0;
    *n = 0;
    *oom = false;
    if (count == 0)
        return NULL;
    srv_lake **rs = calloc(count, sizeof *rs);
    if (!rs) {
        *oom = true;
        return NULL;
    }
    for (srv_lake *r = L->retired; r; r = r->next)
        if (strcmp(r->name, name) == 0)
            rs[(*n)++] = r;
    assert(*n == count);
    return rs;
}

/* Open `name` without holding the registry: an open loads the lake into
 * memory, and a reopen first waits for the failed writers to stop (each
 * up to the store timeout); other databases, /metrics and cancels go on
 * meanwhile. A reopen that failed (the store still down) is tried again by
 * the healer (with backoff) or by the next connection to the name, still
 * taking over the lease the retired one holds. `promoting`: NULL, or the
 * retired follower of `name` this writer open replaces (a promotion).
 * Caller holds L->mu, held again on return; the opened lake is linked in
 * and the retired lakes it frees go to *unused. */
static srv_lake *open_unlocked(srv_lakes *L, const char *name, const srv_lake *promoting,
                               srv_lake **unused, rl_error *err)
{
    size_t n;
    bool oom;
    srv_lake **rs = retired_of(L, name, &n, &oom);
    if (oom) {
        rl_error_set(err, RL_SQLSTATE_OUT_OF_MEMORY, "out of memory");
        return NULL;
    }
    opening me = {name, L->opening};
    L->opening = &me;
    pthread_mutex_unlock(&L->mu);
    srv_lake *l = NULL;
    if (shutdown_retired(rs, n, err) == 0)
        l = open_lake(L, name, n > 0, promoting, err);
    free(rs);
    pthread_mutex_lock(&L->mu);
    opening **op = &L->opening;
    while (*op != &me)
        op = &(*op)->next;
    *op = me.next;
    pthread_cond_broadcast(&L->opened);
    if (l) {
        assert(!find_lake(L->lakes, name)); /* one opener per name at a time */
        l->next = L->lakes;
        L->lakes = l;
        collect_unused_retired(L, unused);
        note_recovered(L, name);
    }
    return l;
}

rl_engine *srv_lake_engine(srv_lakes *L, const char *name, srv_lake **lake, rl_error *err)
{
    srv_lake *unused = NULL;
    pthread_mutex_lock(&L->mu);
    srv_lake *l = find_or_retire(L, name);
    if (!l)
        l = open_unlocked(L, name, NULL, &unused, err);
    if (l && lake)
        l->sessions++;
    pthread_mutex_unlock(&L->mu);
    free_lakes(unused);
    if (lake)
        *lake = l;
    return l ? l->eng : NULL;
}

void srv_lake_release(srv_lakes *L, srv_lake *lake)
{
    if (!lake)
        return;
    srv_lake *unused = NULL;
    pthread_mutex_lock(&L->mu);
    assert(lake->sessions > 0);
    lake->sessions--;
    if (lake->retired && lake->sessions == 0)
        collect_unused_retired(L, &unused);
    pthread_mutex_unlock(&L->mu);
    free_lakes(unused);
}

rl_engine *srv_lake_successor(srv_lakes *L, srv_lake *lake, srv_lake **next)
{
    *next = NULL;
    if (!lake || !atomic_load(&lake->replaced))
        return NULL; /* the common case: one atomic load per statement */
    pthread_mutex_lock(&L->mu);
    srv_lake *cur = find_lake(L->lakes, lake->name);
    if (cur && !lake_failed(cur)) {
        cur->sessions++;
        *next = cur;
    }
    pthread_mutex_unlock(&L->mu);
    return *next ? (*next)->eng : NULL;
}

/* ------------------------------------------------------------ the healer */

/* Caller holds L->mu: the first database due for a reopen, or NULL; *wake
 * is lowered to when the next one is due. */
static lake_down *due_down(srv_lakes *L, int64_t now, int64_t *wake)
{
    lake_down *due = NULL;
    for (lake_down *d = L->down; d; d = d->next) {
        if (!d->heals || is_opening(L, d->name))
            continue;
        if (d->next_ns <= now && !due)
            due = d;
        else if (d->next_ns < *wake)
            *wake = d->next_ns;
    }
    return due;
}

/* Caller holds L->mu (dropped while the store is opened): reopen the
 * database `d` names, as a restart would open it (open_unlocked: the
 * failed writers shut down first, then a new writer, which replays the
 * journal). On failure, back off. */
static void heal_one(srv_lakes *L, lake_down *d)
{
    char name[64];
    snprintf(name, sizeof name, "%s", d->name);
    srv_lake **pp = &L->lakes;
    while (*pp && strcmp((*pp)->name, name) != 0)
        pp = &(*pp)->next;
    if (*pp && !lake_failed(*pp)) { /* a connection reopened it meanwhile */
        note_recovered(L, name);
        return;
    }
    if (*pp)
        retire_locked(L, pp);
    srv_lake *unused = NULL;
    rl_error err;
    rl_error_clear(&err);
    srv_lake *l = open_unlocked(L, name, NULL, &unused, &err); /* drops L->mu meanwhile */
    if (!l && (d = find_down(L, name))) {
        d->attempts++;
        d->next_ns = mono_ns() + d->backoff_ns;
        char attempt[24], retry_ms[24];
        snprintf(attempt, sizeof attempt, "%u", d->attempts);
        snprintf(retry_ms, sizeof retry_ms, "%" PRId64, d->backoff_ns / 1000000);
        d->backoff_ns = d->backoff_ns * 2 < L->heal_max_ns ? d->backoff_ns * 2 : L->heal_max_ns;
        /* the first tries, then ever more rarely: an outage of hours logs
         * a few dozen lines, not one per try */
        if (d->attempts <= 3 || (d->attempts & (d->attempts - 1)) == 0)
            srv_log(L->log, "warning", "database_reopen_failed", "database", name, "attempt",
                    attempt, "retry_in_ms", retry_ms, "message", err.message, NULL);
    }
    pthread_mutex_unlock(&L->mu);
    free_lakes(unused);
    pthread_mutex_lock(&L->mu);
}

/* The healer: looks for failed lakes every heal_min, says so once, and
 * reopens each with backoff until it works, with no client's help. Only
 * one lake is opened at a time and never under L->mu, so other lakes,
 * /metrics and connections go on while a reopen waits on a slow store. */
static void *healer_main(void *arg)
{
    srv_lakes *L = arg;
    pthread_mutex_lock(&L->mu);
    while (!L->healer_stop) {
        int64_t now = mono_ns();
        for (srv_lake *l = L->lakes; l; l = l->next)
            if (lake_failed(l))
                note_down(L, l);
        int64_t wake = now + L->heal_min_ns;
        lake_down *d = due_down(L, now, &wake);
        if (d) {
            heal_one(L, d);
            continue;
        }
        struct timespec at = {(time_t)(wake / 1000000000LL), (long)(wake % 1000000000LL)};
        pthread_cond_timedwait(&L->heal_cv, &L->mu, &at);
    }
    pthread_mutex_unlock(&L->mu);
    return NULL;
}

int srv_lakes_start_healer(srv_lakes *L)
{
    assert(!L->healer_started);
    if (pthread_create(&L->healer, NULL, healer_main, L) != 0)
        return -1;
    L->healer_started = true;
    return 0;
}

size_t srv_lakes_retired(srv_lakes *L)
{
    size_t n = 0;
    pthread_mutex_lock(&L->mu);
    for (srv_lake *r = L->retired; r; r = r->next)
        n++;
    pthread_mutex_unlock(&L->mu);
    return n;
}

bool srv_lake_is_fenced(srv_lake *lake)
{
    if (!lake)
        return false;
    pthread_mutex_lock(&lake->L->mu);
    bool logged = lake->fenced_logged;
    pthread_mutex_unlock(&lake->L->mu);
    if (logged)
        return true;
    /* the catalog learned of the newer writer (its lease, a read) before any
     * commit hit the fence: the operator's log says so all the same */
    if (!rl_catalog_fenced(lake->cat))
        return false;
    srv_lake_fenced(lake);
    return true;
}

void srv_lake_fenced(srv_lake *lake)
{
    if (!lake)
        return;
    srv_lakes *L = lake->L;
    pthread_mutex_lock(&L->mu);
    bool first = !lake->fenced_logged;
    lake->fenced_logged = true;
    pthread_mutex_unlock(&L->mu);
    if (first)
        srv_log(L->log, "error", "writer_fenced", "database", lake->name, "message",
                "a newer writer opened this database (rocklake serve --takeover?); its commits "
                "now fail with 25006 and clients are told to reconnect to the new writer",
                NULL);
}


/* ------------------------------------------------- hot standby: promotion
 *
 * A follower becomes the writer by opening each of its lakes again, as the
 * writer with takeover, rather than by turning its follower catalog into a
 * writer in place. Why that is both safe and fast:
 *  - safe: the writer open is what a restart does (SlateDB fences the old
 *    writer, the open reads the latest manifest and WAL, and on a local
 *    store replays the old writer's journal beyond them), so the new
 *    writer holds every commit the old one acknowledged — the latest
 *    durable state, which the follower itself may lag by a poll interval
 *    and, on a local store, by the journal records its WAL had not taken
 *    yet. Nothing is carried over from the follower, so what the writer
 *    holds is by construction what a fresh open reads;
 *  - fast: what makes a cold writer open slow is loading the whole lake
 *    into memory (kv's mirror), and the follower had no such copy to keep
 *    (its reads went to SlateDB). The promotion skips that load
 *    (open_catalog's `promoting`) and the new writer reads SlateDB as the
 *    follower did, so it takes tens of milliseconds whatever the lake's
 *    size on a local store. On an object store what is left is SlateDB's
 *    writer open, round trips in series; the follower hands the writer
 *    its block cache and the WAL objects and manifests it read (kv.h
 *    promote_from), which are immutable, so the open asks the store only
 *    for what the follower cannot know: the manifest listing, the end of
 *    the WAL beyond what it saw, and the fencing (docs/operations.md,
 *    "Hot standby and promotion", has figures);
 *  - the follower's catalog is retired as a failed writer's is, but not
 *    shut down (it writes nothing): sessions inside a transaction finish
 *    it on the follower's snapshot and move to the writer after it.
 */

/* Caller holds L->mu: the first open lake still following, or NULL. */
static srv_lake **first_follower(srv_lakes *L)
{
    for (srv_lake **pp = &L->lakes; *pp; pp = &(*pp)->next)
        if (rl_catalog_read_only((*pp)->cat))
            return pp;
    return NULL;
}

/* Caller holds L->mu: retire the follower *pp, then open its lake as the
 * writer (dropping mu meanwhile; open_unlocked). Its sessions keep reading
 * through the follower until they move over between transactions
 * (srv_lake_successor), as after a store fault. */
static srv_lake *promote_one(srv_lakes *L, srv_lake **pp, srv_lake **unused, rl_error *err)
{
    srv_lake *f = *pp;
    char name[64];
    snprintf(name, sizeof name, "%s", f->name);
    *pp = f->next;
    f->next = L->retired;
    f->retired = true;
    atomic_store(&f->replaced, true);
    L->retired = f;
    int64_t t0 = mono_ns();
    /* f stays open meanwhile: a retired lake is freed only once its name
     * is open again (collect_unused_retired) */
    srv_lake *w = open_unlocked(L, name, f, unused, err);
    char ms[24];
    snprintf(ms, sizeof ms, "%.1f", (double)(mono_ns() - t0) / 1e6);
    if (w)
        srv_log(L->log, "info", "database_promoted", "database", name, "open_ms", ms,
                "message", "this server is now the writer of the lake; the old writer is fenced",
                NULL);
    else
        srv_log(L->log, "error", "database_promote_failed", "database", name, "message",
                err->message, "action", "the next connection to the database opens it as the "
                "writer again", NULL);
    return w;
}

int srv_lakes_promote(srv_lakes *L, const char *why, rl_error *err)
{
    pthread_mutex_lock(&L->promote_mu);
    if (!following(L)) {
        pthread_mutex_unlock(&L->promote_mu);
        rl_error_set(err, RL_SQLSTATE_OBJECT_STATE, "recovery is not in progress");
        rl_error_hint(err, "Recovery control functions can only be executed during recovery.");
        return -1;
    }
    int64_t t0 = mono_ns();
    srv_log(L->log, "warning", "promoting", "store", L->cfg.store, "reason", why, "message",
            "becoming the writer of every lake of the store root: the old writer is fenced",
            NULL);
    pthread_mutex_lock(&L->mu);
    /* From here every open is a writer's that fences the old writer (as
     * --takeover); opens under way started as a follower's: wait for them,
     * then promote every follower open now. */
    atomic_store(&L->promoted, true);
    atomic_store(&L->following, false);
    while (L->opening)
        pthread_cond_wait(&L->opened, &L->mu);
    srv_lake *unused = NULL;
    int failed = 0, done = 0;
    rl_error first;
    rl_error_clear(&first);
    srv_lake **pp;
    while ((pp = first_follower(L))) {
        rl_error e;
        rl_error_clear(&e);
        if (promote_one(L, pp, &unused, &e))
            done++;
        else if (failed++ == 0)
            first = e;
    }
    pthread_cond_broadcast(&L->standby_cv); /* the watcher has nothing left to watch */
    pthread_mutex_unlock(&L->mu);
    free_lakes(unused);
    /* a local root: the lock a writer holds (the old writer may still hold
     * it until it exits; the lease and SlateDB's fencing decide, as with
     * --takeover) */
    char *dir = rl_store_local_dir(L->cfg.store);
    if (dir && L->lock_fd < 0) {
        char path[4096];
        snprintf(path, sizeof path, "%s/.rocklake-serve.lock", dir);
        int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
        if (fd >= 0 && flock(fd, LOCK_EX | LOCK_NB) == 0)
            L->lock_fd = fd;
        else if (fd >= 0)
            close(fd);
    }
    free(dir);
    char n[24], ms[24];
    snprintf(n, sizeof n, "%d", done);
    snprintf(ms, sizeof ms, "%.1f", (double)(mono_ns() - t0) / 1e6);
    srv_log(L->log, failed ? "error" : "info", "promoted", "store", L->cfg.store, "lakes", n,
            "promote_ms", ms, "message", "this server is the writer now", NULL);
    pthread_mutex_unlock(&L->promote_mu);
    if (failed) {
        *err = first;
        return -1;
    }
    return 0;
}

/* --standby: how often the watcher reads the writer leases (a follower
 * sees the store's changes every 100 ms anyway), and how often it lists
 * the root for lakes created since (srv_lakes_follow_all). */
#define STANDBY_LOOK_MS 50
#define STANDBY_LIST_MS 2000

/* One follower the watcher looks at, held (sessions++) while it reads. */
typedef struct standby_look {
    srv_lake *l;
    bool saw_writer; /* a live writer lease was seen on it before */
} standby_look;

/* Is the writer the follower `l` follows gone? *saw: a live lease seen
 * now. Reads the lease through the follower's own reader (which never
 * fences: a DbReader writes no manifest of a writer). */
static bool writer_gone(srv_lakes *L, srv_lake *l, bool *saw, char *why, size_t n)
{
    rl_lease_owner o;
    rl_error e;
    rl_error_clear(&e);
    *saw = false;
    int rc = rl_lease_get(rl_catalog_kv(l->cat), l->name, &o, &e);
    if (rc < 0)
        return false; /* the store cannot be read now: no news of the writer */
    if (rc == 0) {
        snprintf(why, n, "the writer of database \"%s\" released its lease (it stopped)", l->name);
        return true;
    }
    int64_t age = 0;
    char dead[160] = "";
    if (rl_lease_check(&o, rl_lease_now_ms(), &age, dead, sizeof dead)) {
        *saw = true;
        return false;
    }
    if (dead[0])
        snprintf(why, n, "the writer of database \"%s\" is gone: %s", l->name, dead);
    else
        snprintf(why, n, "the writer lease of database \"%s\" expired (renewed %" PRId64
                 " ms ago, lease period %" PRIu64 " ms)", l->name, age, o.lease_ms);
    return true;
}

/* The watcher of --standby: every STANDBY_LOOK_MS it reads the writer
 * lease of each lake it follows; once a writer it saw alive is gone (its
 * lease expired, its process on this host died, or it released the lease
 * by stopping) it promotes the server. Every STANDBY_LIST_MS it opens the
 * lakes created since it started. A lake whose writer it never saw
 * alive (none was running when it opened) does not promote it: a standby
 * started before its writer would otherwise take the lakes at once. */
static void *standby_main(void *arg)
{
    srv_lakes *L = arg;
    int64_t next_list = mono_ns() + STANDBY_LIST_MS * 1000000LL;
    /* lakes (by name) whose writer was seen alive */
    char (*seen)[64] = NULL;
    size_t nseen = 0, capseen = 0;
    pthread_mutex_lock(&L->mu);
    while (!L->standby_stop && following(L)) {
        size_t n = 0;
        for (srv_lake *l = L->lakes; l; l = l->next)
            n += rl_catalog_read_only(l->cat);
        standby_look *looks = n ? calloc(n, sizeof *looks) : NULL;
        size_t k = 0;
        for (srv_lake *l = L->lakes; l && looks; l = l->next) {
            if (!rl_catalog_read_only(l->cat))
                continue;
            l->sessions++; /* held while the lease is read without mu */
            looks[k].l = l;
            for (size_t i = 0; i < nseen; i++)
                looks[k].saw_writer |= strcmp(seen[i], l->name) == 0;
            k++;
        }
        pthread_mutex_unlock(&L->mu);
        if (mono_ns() >= next_list) { /* lakes the writer created since */
            srv_lakes_follow_all(L);
            next_list = mono_ns() + STANDBY_LIST_MS * 1000000LL;
        }
        char why[400] = "";
        bool gone = false;
        for (size_t i = 0; i < k; i++) {
            bool saw = false;
            char w[400];
            if (writer_gone(L, looks[i].l, &saw, w, sizeof w) && looks[i].saw_writer && !gone) {
                gone = true;
                snprintf(why, sizeof why, "%s", w);
            }
            if (saw && !looks[i].saw_writer && nseen == capseen) {
                size_t cap = capseen ? capseen * 2 : 8;
                char (*more)[64] = realloc(seen, cap * sizeof *seen);
                if (more) {
                    seen = more;
                    capseen = cap;
                }
            }
            if (saw && !looks[i].saw_writer && nseen < capseen)
                snprintf(seen[nseen++], 64, "%s", looks[i].l->name);
        }
        for (size_t i = 0; i < k; i++)
            srv_lake_release(L, looks[i].l);
        free(looks);
        if (gone) {
            rl_error e;
            rl_error_clear(&e);
            srv_lakes_promote(L, why, &e); /* it logs how it went */
            pthread_mutex_lock(&L->mu);
            break;
        }
        pthread_mutex_lock(&L->mu);
        int64_t wake = mono_ns() + STANDBY_LOOK_MS * 1000000LL;
        struct timespec at = {(time_t)(wake / 1000000000LL), (long)(wake % 1000000000LL)};
        if (!L->standby_stop)
            pthread_cond_timedwait(&L->standby_cv, &L->mu, &at);
    }
    pthread_mutex_unlock(&L->mu);
    free(seen);
    return NULL;
}

int srv_lakes_start_standby(srv_lakes *L)
{
    assert(!L->standby_started && following(L));
    if (pthread_create(&L->standby, NULL, standby_main, L) != 0)
        return -1;
    L->standby_started = true;
    return 0;
}

/* A local store root and its missing parents, as `mkdir -p` makes them
 * (a first `serve --store /new/dir` should not need one). */
static int make_store_root(const char *dir, rl_error *err)
{
    char path[4096];
    if (snprintf(path, sizeof path, "%s", dir) >= (int)sizeof path)
        return rl_error_set(err, RL_SQLSTATE_IO, "store root path too long: %s", dir);
    for (char *p = path + 1;; p++) {
        bool end = *p == 0;
        if (*p != '/' && !end)
            continue;
        *p = 0;
        struct stat st;
        if (mkdir(path, 0755) < 0 && errno != EEXIST) {
            int saved = errno;
            rl_error_set(err, RL_SQLSTATE_IO, "cannot create store root \"%s\": %s", path,
                         strerror(saved));
            rl_error_hint(err, "create it as the user that runs rocklake serve "
                               "(mkdir -p %s), or point --store at a writable directory",
                          dir);
            return -1;
        }
        if (stat(path, &st) == 0 && !S_ISDIR(st.st_mode)) {
            rl_error_set(err, RL_SQLSTATE_IO, "cannot use store root \"%s\": %s is not a "
                                              "directory", dir, path);
            rl_error_hint(err, "point --store at a directory");
            return -1;
        }
        if (end)
            return 0;
        *p = '/';
    }
}

/* One writer per local store root: an flock'd file. --takeover starts
 * anyway (and fences the old writer's lakes as it opens them). */
int srv_lakes_lock_root(srv_lakes *L, rl_error *err)
{
    L->lock_fd = -1;
    if (L->cfg.read_only)
        return 0;
    char *dir = rl_store_local_dir(L->cfg.store);
    if (!dir)
        return 0;
    if (make_store_root(dir, err) < 0) {
        free(dir);
        return -1;
    }
    char path[4096];
    snprintf(path, sizeof path, "%s/.rocklake-serve.lock", dir);
    free(dir);
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
        return rl_error_set(err, RL_SQLSTATE_IO, "cannot open \"%s\": %s", path,
                            strerror(errno));
    if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
        L->lock_fd = fd;
        return 0;
    }
    close(fd);
    if (L->cfg.takeover) {
        srv_log(L->log, "warning", "takeover", "store", L->cfg.store, "message",
                "another server is the writer of this store; fencing it", NULL);
        return 0;
    }
    rl_error_set(err, RL_SQLSTATE_OBJECT_STATE,
                 "another rocklake server is the writer of store \"%s\"", L->cfg.store);
    rl_error_hint(err, "start with --takeover to fence it and become the writer, or with "
                       "--read-only to serve as a follower");
    return -1;
}

/* ------------------------------------------ start-up: each lake opened once */

/* A look at the lake at url: a read-only catalog on a reader that writes
 * nothing (it fences no one and leaves no checkpoint) and takes a lake with
 * an unfinished copy too. NULL when it cannot be opened as one. */
static rl_catalog *open_to_look(const srv_lakes *L, const char *url)
{
    rl_catalog_options o = {.read_only = true, .allow_incomplete_copy = true};
    o.store.reader_no_writes = 1;
    o.store.block_cache_bytes = 16 << 20;
    o.store.store_timeout_ms = L->cfg.store_timeout_ms;
    rl_error e;
    rl_error_clear(&e);
    return rl_catalog_open(url, &o, &e);
}

/* d's state from cat (NULL: unreadable); with marker, a copy marker makes
 * it "unfinished ..." (a lake the registry opened has none). */
static void describe_catalog(rl_catalog *cat, bool marker, srv_lake_desc *d)
{
    snprintf(d->state, sizeof d->state, "unreadable");
    d->initialized = false;
    if (!cat)
        return;
    char m[16];
    rl_error e;
    rl_error_clear(&e);
    if (marker && rl_catalog_copy_marker_get(cat, m, sizeof m, &e) == 1) /* "import from ..." */
        snprintf(d->state, sizeof d->state, "unfinished %.*s: not served", (int)strcspn(m, " "), m);
    else
        snprintf(d->state, sizeof d->state, "DuckLake %s", rl_format_name(rl_catalog_format(cat)));
    d->initialized = rl_catalog_next_snapshot_id(cat) > 0;
}

/* The lakes a writer would open at once or on connect: every lease under
 * the root is checked before any store is opened as writer, so a second
 * writer refuses to start instead of fencing the first on a connection.
 * A local root lists its directories (symlinks followed: another path to
 * a lake is what the root lock misses); an object-store root its
 * prefixes. The lakes the banner describes are looked at once for both
 * (descs: SRV_DESCRIBED_LAKES of them; NULL for an object-store root). */
typedef struct lease_scan {
    srv_lakes *L;
    rl_error *err;
    int refused;
    srv_lake_desc *descs;
    size_t listed;
} lease_scan;

/* The lease of the lake at url, through the look at it when there is one
 * (rl_lease_read's answer: 1, 0 or -1 with e). */
static int read_lease(const lease_scan *ls, rl_catalog *look, const char *url,
                      rl_lease_owner *held, rl_error *e)
{
    if (look)
        return rl_lease_get(rl_catalog_kv(look), url, held, e);
    rl_catalog_options lo = {.store.block_cache_bytes = 16 << 20,
                             .store.store_timeout_ms = ls->L->cfg.store_timeout_ms};
    return rl_lease_read(url, &lo.store, held, e);
}

/* The names one level below an object-store root that are valid database
 * names, each passed to fn (rl_db_list's counterpart for object stores,
 * where a name may hold no lake: fn finds that out). -1 with *err when
 * the root cannot be listed. */
static int each_object_name(const char *root, void (*fn)(const char *name, void *ctx), void *ctx,
                            rl_error *err)
{
    char *names = NULL;
    size_t len = 0;
    if (rl_store_list_names(root, &names, &len, err) < 0)
        return -1;
    for (size_t i = 0; i < len; i += strlen(names + i) + 1)
        if (valid_db_name(names + i))
            fn(names + i, ctx);
    free(names);
    return 0;
}

static void check_one_lease(const char *name, void *ctx)
{
    lease_scan *ls = ctx;
    char url[4096];
    if (ls->refused || !valid_db_name(name) || !rl_db_url(ls->L->cfg.store, name, url,
                                                           sizeof url))
        return;
    srv_lake_desc *d = ls->descs && ls->listed < SRV_DESCRIBED_LAKES ? &ls->descs[ls->listed]
                                                                    : NULL;
    ls->listed++;
    rl_catalog *look = d ? open_to_look(ls->L, url) : NULL;
    if (d) {
        snprintf(d->name, sizeof d->name, "%s", name);
        describe_catalog(look, true, d);
    }
    rl_lease_owner held;
    rl_error e;
    rl_error_clear(&e);
    int rc;
    if (!look && !ls->descs) {
        /* an object-store root: the probe a first open makes (the
         * catalog's format key and the lease through one reader), kept
         * for that open */
        bool found = false;
        int exists = rl_catalog_probe(url, ls->L->cfg.store_timeout_ms, &held, &found, &e);
        rc = exists < 0 ? -1 : found ? 1 : 0;
        if (exists >= 0)
            keep_probe(ls->L, url, exists, &held, found);
    } else {
        rc = read_lease(ls, look, url, &held, &e);
    }
    rl_catalog_close(look, NULL);
    int64_t age;
    char why[256];
    if (rc < 0) {
        srv_log(ls->L->log, "warning", "writer_lease_unreadable", "database", name, "message",
                e.message, NULL);
    } else if (rc == 1 && rl_lease_check(&held, rl_lease_now_ms(), &age, why, sizeof why)) {
        rl_lease_refuse(ls->err, url, &held, age);
        ls->refused = 1;
    } else if (rc == 1 && why[0]) {
        /* its writer on this host is gone though its lease has not run out */
        char pid[24];
        snprintf(pid, sizeof pid, "%lld", (long long)held.pid);
        srv_log(ls->L->log, "info", "writer_lease_taken_over", "database", name, "pid", pid,
                "reason", why, NULL);
    }
}

/* A local root: its lakes' leases, the first ones described on the way
 * (kept for srv_lakes_describe). */
static int check_local_leases(srv_lakes *L, rl_error *err)
{
    lease_scan ls = {L, err, 0, calloc(SRV_DESCRIBED_LAKES, sizeof(srv_lake_desc)), 0};
    int listed = rl_db_list(L->cfg.store, check_one_lease, &ls, NULL);
    if (listed >= 0 && !ls.refused && ls.descs) {
        free(L->described);
        L->described = ls.descs;
        L->nlisted = ls.listed;
        ls.descs = NULL;
    }
    free(ls.descs);
    return ls.refused ? -1 : 0;
}

int srv_lakes_check_leases(srv_lakes *L, rl_error *err)
{
    if (L->cfg.read_only || L->cfg.takeover)
        return 0;
    /* memory:// lakes live in this process: no other writer can hold one
     * (and the root is no store to list) */
    if (strncmp(L->cfg.store, "memory://", 9) == 0)
        return 0;
    char *dir = rl_store_local_dir(L->cfg.store);
    if (dir) {
        free(dir);
        return check_local_leases(L, err);
    }
    lease_scan ls = {L, err, 0, NULL, 0};
    rl_error le;
    rl_error_clear(&le);
    if (each_object_name(L->cfg.store, check_one_lease, &ls, &le) < 0) {
        /* each lake's lease is still checked when it is opened */
        srv_log(L->log, "warning", "writer_lease_unreadable", "store", L->cfg.store, "message",
                le.message, NULL);
        return 0;
    }
    return ls.refused ? -1 : 0;
}

/* The lakes the banner lists, when the lease check did not look at them:
 * a lake the registry holds open (--takeover opened them all) is described
 * from its catalog, any other from a look of its own. */
typedef struct describe_scan {
    srv_lakes *L;
    srv_lake_desc *descs;
    size_t listed;
} describe_scan;

static bool describe_open_lake(srv_lakes *L, const char *name, srv_lake_desc *d)
{
    pthread_mutex_lock(&L->mu);
    srv_lake *l = find_lake(L->lakes, name);
    if (l) /* start-up: no session uses it yet */
        describe_catalog(l->cat, false, d);
    pthread_mutex_unlock(&L->mu);
    return l != NULL;
}

static void describe_one(const char *name, void *ctx)
{
    describe_scan *ds = ctx;
    char url[4096];
    if (ds->listed++ >= SRV_DESCRIBED_LAKES)
        return;
    srv_lake_desc *d = &ds->descs[ds->listed - 1];
    snprintf(d->name, sizeof d->name, "%s", name);
    if (describe_open_lake(ds->L, name, d))
        return;
    rl_catalog *look = rl_db_url(ds->L->cfg.store, name, url, sizeof url)
                           ? open_to_look(ds->L, url) : NULL;
    describe_catalog(look, true, d);
    rl_catalog_close(look, NULL);
}

int srv_lakes_describe(srv_lakes *L, srv_lake_desc **out, size_t *n, size_t *total)
{
    describe_scan ds = {L, L->described, L->nlisted};
    L->described = NULL; /* handed over */
    if (!ds.descs) {
        ds.descs = calloc(SRV_DESCRIBED_LAKES, sizeof *ds.descs);
        if (!ds.descs || rl_db_list(L->cfg.store, describe_one, &ds, NULL) < 0) {
            free(ds.descs);
            return -1;
        }
    }
    *total = ds.listed;
    *n = ds.listed < SRV_DESCRIBED_LAKES ? ds.listed : SRV_DESCRIBED_LAKES;
    *out = ds.descs;
    return 0;
}

/* The address a writer lease names: the listen host with the bound port. */
void srv_lakes_listening(srv_lakes *L, int port)
{
    char host[96];
    snprintf(host, sizeof host, "%s", L->cfg.listen);
    char *colon = strrchr(host, ':');
    if (colon)
        *colon = 0;
    snprintf(L->lease_listen, sizeof L->lease_listen, "%s:%d", host, port);
}

static void open_one(const char *name, void *ctx)
{
    srv_lakes *L = ctx;
    rl_error e;
    rl_error_clear(&e);
    /* a listed name that holds no lake (3D000: an object store's prefix
     * of something else) is no news */
    if (!srv_lake_engine(L, name, NULL, &e) &&
        strcmp(e.sqlstate, RL_SQLSTATE_INVALID_CATALOG_NAME) != 0)
        srv_log(L->log, "warning", "database_open_failed", "database", name, "message",
                e.message, NULL);
}

void srv_lakes_open_all(srv_lakes *L)
{
    rl_db_list(L->cfg.store, open_one, L, NULL);
}

void srv_lakes_follow_all(srv_lakes *L)
{
    char *dir = rl_store_local_dir(L->cfg.store);
    if (dir) {
        free(dir);
        srv_lakes_open_all(L);
        return;
    }
    /* an object store: the names one level below the root (a name that
     * holds no lake is logged by open_one and skipped) */
    rl_error e;
    rl_error_clear(&e);
    if (each_object_name(L->cfg.store, open_one, L, &e) < 0)
        srv_log(L->log, "warning", "standby_list_failed", "store", L->cfg.store, "message",
                e.message, "action", "the standby watches the lakes clients open", NULL);
}

/* ------------------------------------------------------ metrics, closing */

const char *srv_lake_state_name(srv_lake_state s)
{
    switch (s) {
    case SRV_LAKE_WRITABLE: return "writable";
    case SRV_LAKE_FOLLOWING: return "following";
    case SRV_LAKE_FENCED: return "fenced";
    case SRV_LAKE_FAILED: return "failed";
    }
    return "unknown";
}

void srv_lakes_each_state(srv_lakes *L, void (*fn)(void *ctx, const char *name,
                                                   srv_lake_state state),
                          void *ctx)
{
    pthread_mutex_lock(&L->mu);
    for (srv_lake *l = L->lakes; l; l = l->next) {
        srv_lake_state st = rl_catalog_read_only(l->cat) ? SRV_LAKE_FOLLOWING
                            : lake_failed(l)              ? SRV_LAKE_FAILED
                            : l->fenced_logged || rl_catalog_fenced(l->cat) ? SRV_LAKE_FENCED
                                                          : SRV_LAKE_WRITABLE;
        fn(ctx, l->name, st);
    }
    /* retired and not open again yet (a reopen failed, or is under way) */
    for (lake_down *d = L->down; d; d = d->next)
        if (!find_lake(L->lakes, d->name))
            fn(ctx, d->name, SRV_LAKE_FAILED);
    pthread_mutex_unlock(&L->mu);
}

void srv_lakes_each_backoff(srv_lakes *L,
                            void (*fn)(void *ctx, const char *name, uint64_t poll_ms, int idle),
                            void *ctx)
{
    pthread_mutex_lock(&L->mu);
    for (srv_lake *l = L->lakes; l; l = l->next) {
        uint64_t poll_ms = 0;
        int idle = 0;
        if (rl_catalog_follower_backoff(l->cat, &poll_ms, &idle))
            fn(ctx, l->name, poll_ms, idle);
    }
    pthread_mutex_unlock(&L->mu);
}

bool srv_lakes_root_reachable(srv_lakes *L, char *why, size_t n)
{
    why[0] = 0;
    char *dir = rl_store_local_dir(L->cfg.store);
    if (!dir)
        return true;
    struct stat st;
    errno = 0;
    bool ok = stat(dir, &st) == 0 && S_ISDIR(st.st_mode) &&
              access(dir, following(L) ? R_OK : R_OK | W_OK) == 0;
    if (!ok)
        snprintf(why, n, "store root %s: %s", dir, errno ? strerror(errno) : "not a directory");
    free(dir);
    return ok;
}

void srv_lakes_each_catalog(srv_lakes *L, void (*fn)(void *ctx, rl_catalog *cat), void *ctx)
{
    pthread_mutex_lock(&L->mu);
    for (srv_lake *l = L->lakes; l; l = l->next)
        fn(ctx, l->cat);
    pthread_mutex_unlock(&L->mu);
}

int srv_lakes_free(srv_lakes *L)
{
    if (!L)
        return 0;
    if (L->standby_started) { /* it may be promoting: wait for that */
        pthread_mutex_lock(&L->mu);
        L->standby_stop = true;
        pthread_cond_signal(&L->standby_cv);
        pthread_mutex_unlock(&L->mu);
        pthread_join(L->standby, NULL);
    }
    if (L->healer_started) { /* it may be reopening a lake: wait for that */
        pthread_mutex_lock(&L->mu);
        L->healer_stop = true;
        pthread_cond_signal(&L->heal_cv);
        pthread_mutex_unlock(&L->mu);
        pthread_join(L->healer, NULL);
    }
    for (lake_down *d = L->down, *next; d; d = next) {
        next = d->next;
        free(d);
    }
    int rc = 0;
    for (srv_lake *l = L->retired, *next; l; l = next) {
        next = l->next;
        free_lake(l);
    }
    for (srv_lake *l = L->lakes, *next; l; l = next) {
        next = l->next;
        close_schema_lakes(l);
        rl_engine_free(l->eng);
        rl_error e;
        rl_error_clear(&e);
        if (rl_catalog_close(l->cat, &e) < 0) {
            srv_log(L->log, "error", "database_close_failed", "database", l->name, "message",
                    e.message, NULL);
            rc = -1;
        }
        free(l);
    }
    if (L->lock_fd >= 0)
        close(L->lock_fd);
    free(L->described);
    pthread_cond_destroy(&L->opened);
    pthread_cond_destroy(&L->heal_cv);
    pthread_cond_destroy(&L->standby_cv);
    pthread_mutex_destroy(&L->promote_mu);
    pthread_mutex_destroy(&L->mu);
    free(L);
    return rc;
}

int srv_lake_exists_for_reader(srv_lakes *L, const char *name, rl_error *err)
{
    if (!L->cfg.auto_create || following(L))
        return 0; /* nothing would be created: the open says whether it exists */
    pthread_mutex_lock(&L->mu);
    bool open = find_lake(L->lakes, name) != NULL;
    pthread_mutex_unlock(&L->mu);
    char url[4096];
    if (open || !rl_db_url(L->cfg.store, name, url, sizeof url))
        return 0;
    int exists = rl_catalog_exists(url, L->cfg.store_timeout_ms, err);
    if (exists < 0)
        return -1;
    if (exists == 0) {
        rl_error_set(err, RL_SQLSTATE_INVALID_CATALOG_NAME, "database \"%s\" does not exist", name);
        rl_error_hint(err, "a read-only user does not create databases on first connect; "
                           "connect as a user that may write it, or create it with `rocklake db "
                           "create %s %s`",
                      L->cfg.store, name);
        return -1;
    }
    return 0;
}
