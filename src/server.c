/*
 * server.c — listener, accept loop, lakes, backends, metrics, logs and the
 * drain of `rocklake serve` (see server.h).
 *
 * Threads: the thread calling rl_server_run accepts (poll over the
 * listener, the metrics listener and a stop pipe); each connection and each
 * metrics request gets a detached thread; one watchdog thread enforces
 * statement timeouts. Shared state is guarded by three mutexes (lakes,
 * registry, threads) that are never held together, except the registry lock
 * around rl_session_cancel, which the engine allows from any thread.
 *
 * Lakes open on first use and stay open for the run; with --auto-create a
 * connect may create one, at most --max-auto-create per run (auto_created,
 * under the lakes mutex), so unknown names cannot open stores without bound.
 */
#include "server.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <inttypes.h>
#include <netdb.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <netinet/in.h>
#include <openssl/err.h>
#include <openssl/rand.h>
#include <openssl/ssl.h>

#include "buf.h"
#include "client.h"
#include "kv.h"
#include "lease.h"
#include "stack.h"

enum { METRICS_STACK_BYTES = 1 << 20 }; /* a metrics request does not recurse */

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
    bool reopened;               /* opened again after its store failed: take over our own
                                    lease (the retired handle still holds it) */
    srv_lake *next;
    rl_server *srv;
    rl_schema_lakes hooks;       /* handed to eng: find / each below */
    pthread_mutex_t schemas_mu;  /* guards schemas and absent */
    schema_lake *schemas;        /* in the order they were opened */
    struct {
        char schema[64];
        int64_t at_ns;
    } absent[ABSENT_SCHEMAS];
    size_t nabsent;
};

/* Latency histograms (Prometheus style, seconds). Commits wait for a
 * durable flush; statements are measured inside the server, from the
 * engine call to its last message, which is where the "column-list lookup
 * under 50 us" kind of figure comes from. */
static const double commit_buckets[] = {0.001, 0.0025, 0.005, 0.01, 0.025, 0.05,
                                        0.1,   0.25,   0.5,   1,    2.5,   10};
static const double statement_buckets[] = {0.00001, 0.000025, 0.00005, 0.0001, 0.00025, 0.0005,
                                           0.001,   0.0025,   0.005,   0.01,   0.1,      1};
#define NBUCKETS 12

typedef struct latency_hist {
    const double *bounds; /* NBUCKETS upper bounds */
    atomic_llong counts[NBUCKETS + 1];
    atomic_llong sum_us;
} latency_hist;

static void hist_observe(latency_hist *h, double seconds)
{
    size_t i = 0;
    while (i < NBUCKETS && seconds > h->bounds[i])
        i++;
    atomic_fetch_add(&h->counts[i], 1);
    atomic_fetch_add(&h->sum_us, (long long)(seconds * 1e6));
}

struct rl_server {
    rl_server_config cfg;
    bool auto_create;
    uint64_t auto_created;  /* databases created on first connect this run (lakes_mu) */
    hba *rules;
    hba_users *users;
    SSL_CTX *ssl_ctx;
    int listen_fd, metrics_fd, port, lock_fd;
    char lease_listen[128]; /* the listen address recorded in writer leases */
    int stop_pipe[2];
    atomic_bool stopping;
    uint8_t mock_key[32];
    pthread_mutex_t lakes_mu;
    srv_lake *lakes;
    /* lakes replaced after their object store failed (rl_catalog_failed):
     * sessions opened before may still use them, so they are closed when
     * the server stops (lakes_mu) */
    srv_lake *retired;
    pthread_mutex_t reg_mu;
    client *clients;
    int nclients;
    int32_t next_pid;
    pthread_mutex_t threads_mu;
    pthread_cond_t threads_cv;
    int threads;
    int conns;                   /* connection threads, before and after startup */
    pthread_t watchdog;
    bool watchdog_running;
    atomic_bool watchdog_quit;
    atomic_llong counters[M__COUNT];
    latency_hist commit_latency;
    latency_hist statement_latency;
    pthread_mutex_t log_mu;
};


/* ------------------------------------------------------------- accessors */

const rl_server_config *srv_config(const rl_server *srv) { return &srv->cfg; }
const hba *srv_hba(const rl_server *srv) { return srv->rules; }
const hba_users *srv_users(const rl_server *srv) { return srv->users; }
void *srv_ssl_ctx(rl_server *srv) { return srv->ssl_ctx; }
bool srv_stopping(const rl_server *srv) { return atomic_load(&srv->stopping); }
int rl_server_port(const rl_server *srv) { return srv->port; }

const uint8_t *srv_mock_key(const rl_server *srv, size_t *len)
{
    *len = sizeof srv->mock_key;
    return srv->mock_key;
}

void srv_count(rl_server *srv, srv_counter which, int64_t delta)
{
    atomic_fetch_add(&srv->counters[which], delta);
}

void srv_observe_commit(rl_server *srv, double seconds)
{
    hist_observe(&srv->commit_latency, seconds);
}

void srv_observe_statement(rl_server *srv, double seconds)
{
    hist_observe(&srv->statement_latency, seconds);
}

bool srv_statement_is_slow(rl_server *srv, double seconds)
{
    return srv->cfg.log_min_duration_ms >= 0 &&
           seconds * 1000.0 >= (double)srv->cfg.log_min_duration_ms;
}

/* ----------------------------------------------------------------- logs */

static void json_escape(rl_buf *b, const char *s)
{
    rl_buf_put_u8(b, '"');
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\') {
            rl_buf_put_u8(b, '\\');
            rl_buf_put_u8(b, ch);
        } else if (ch < 0x20) {
            rl_buf_printf(b, "\\u%04x", ch);
        } else {
            rl_buf_put_u8(b, ch);
        }
    }
    rl_buf_put_u8(b, '"');
}

/* Text values are quoted when they would not read back as one token. */
static void text_value(rl_buf *b, const char *s)
{
    if (*s && !strpbrk(s, " \t\n\"=")) {
        rl_buf_put_str(b, s);
        return;
    }
    json_escape(b, s);
}

void srv_log(rl_server *srv, const char *level, const char *event, ...)
{
    char ts[40];
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    struct tm tm;
    gmtime_r(&now.tv_sec, &tm);
    size_t n = strftime(ts, sizeof ts, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(ts + n, sizeof ts - n, ".%03ldZ", now.tv_nsec / 1000000);
    rl_buf b;
    rl_buf_init(&b, 0);
    bool json = srv && srv->cfg.log_json;
    if (json)
        rl_buf_printf(&b, "{\"ts\":\"%s\",\"level\":\"%s\",\"event\":\"%s\"", ts, level, event);
    else
        rl_buf_printf(&b, "%s %s %s", ts, level, event);
    va_list ap;
    va_start(ap, event);
    for (;;) {
        const char *k = va_arg(ap, const char *);
        if (!k)
            break;
        const char *v = va_arg(ap, const char *);
        if (!v)
            break;
        if (json) {
            rl_buf_put_u8(&b, ',');
            json_escape(&b, k);
            rl_buf_put_u8(&b, ':');
            json_escape(&b, v);
        } else {
            rl_buf_printf(&b, " %s=", k);
            text_value(&b, v);
        }
    }
    va_end(ap);
    rl_buf_put_str(&b, json ? "}\n" : "\n");
    if (!b.failed) {
        if (srv)
            pthread_mutex_lock(&srv->log_mu);
        fwrite(b.data, 1, b.len, stderr);
        fflush(stderr);
        if (srv)
            pthread_mutex_unlock(&srv->log_mu);
    }
    rl_buf_free(&b);
}

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
    size_t rl = strlen(root);
    while (rl > 1 && root[rl - 1] == '/')
        rl--;
    int w = snprintf(out, n, "%.*s/%s", (int)rl, root, name);
    return w > 0 && (size_t)w < n;
}

static bool dir_exists(const char *path)
{
    struct stat st;
    return stat(path, &st) == 0 && S_ISDIR(st.st_mode);
}

int rl_db_list(const char *root, void (*cb)(const char *name, void *ctx), void *ctx,
               rl_error *err)
{
    char *dir = kv_local_dir(root);
    if (!dir)
        return rl_error_set(err, RL_SQLSTATE_FEATURE_NOT_SUPPORTED,
                            "listing databases needs a local store root (a path or file://), "
                            "not \"%s\"", root);
    DIR *d = opendir(dir);
    if (!d) {
        int e = errno;
        int rc = e == ENOENT ? 0
                             : rl_error_set(err, RL_SQLSTATE_IO,
                                            "cannot read directory \"%s\": %s", dir, strerror(e));
        free(dir);
        return rc;
    }
    int count = 0;
    for (struct dirent *e; (e = readdir(d));) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, e->d_name);
        if (valid_db_name(e->d_name) && dir_exists(path)) {
            cb(e->d_name, ctx);
            count++;
        }
    }
    closedir(d);
    free(dir);
    return count;
}

static int rm_entry(const char *path, const struct stat *sb, int flag, struct FTW *ftw)
{
    return remove(path);
}

int rl_db_drop(const char *root, const char *name, rl_error *err)
{
    char *dir = kv_local_dir(root);
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
static int no_database(const rl_server *srv, rl_error *err, const char *name)
{
    rl_error_set(err, RL_SQLSTATE_INVALID_CATALOG_NAME, "database \"%s\" does not exist", name);
    if (!srv->auto_create && !srv->cfg.read_only)
        rl_error_hint(err, "create it with `rocklake db create %s %s` (the server opens it on the "
                           "next connect), or start rocklake serve with --auto-create on",
                      srv->cfg.store, name);
    return -1;
}

/* A large lake takes seconds to load into memory at open: say so. */
typedef struct load_progress {
    rl_server *srv;
    const char *database;
} load_progress;

static void log_load_progress(void *ctx, uint64_t keys, uint64_t bytes)
{
    load_progress *lp = ctx;
    char k[32], mb[32];
    snprintf(k, sizeof k, "%" PRIu64, keys);
    snprintf(mb, sizeof mb, "%.1f", (double)bytes / (1 << 20));
    srv_log(lp->srv, "info", "database_loading", "database", lp->database, "keys", k,
            "memory_mib", mb, NULL);
}

/* What an open did to the store beyond opening it (kv_options.notice). */
static void log_store_notice(void *ctx, const char *message)
{
    load_progress *lp = ctx;
    srv_log(lp->srv, "warning", "store_integrity", "database", lp->database, "message", message,
            NULL);
}

/* Open (or, with create, make) the catalog at url; NULL with err, or NULL
 * with err clear when the store does not exist and create is off. */
static rl_catalog *open_catalog(rl_server *srv, const char *url, const char *name, bool create,
                                rl_format format, bool takeover, rl_error *err)
{
    /* a writer open would create an empty store: check first (a local
     * directory is cheap to look at; an object store needs a reader) */
    char *dir = kv_local_dir(url);
    bool missing = false;
    if (!create && dir) {
        missing = !dir_exists(dir);
    } else if (!create) {
        int exists = rl_catalog_exists(url, err);
        if (exists < 0) {
            free(dir);
            return NULL;
        }
        missing = exists == 0;
    }
    free(dir);
    if (missing)
        return NULL;
    rl_catalog_options o = {.create_if_missing = create, .read_only = srv->cfg.read_only,
                            .format = format, .takeover = srv->cfg.takeover || takeover,
                            .lease_ms = srv->cfg.lease_ms, .lease_listen = srv->lease_listen,
                            .sequence_commits = srv->cfg.sequence_commits};
    load_progress lp = {srv, name};
    o.kv.load_progress = log_load_progress;
    o.kv.load_progress_ctx = &lp;
    o.kv.block_cache_bytes = srv->cfg.cache_bytes;
    o.kv.store_timeout_ms = srv->cfg.store_timeout_ms;
    o.kv.mirror_max_bytes = srv->cfg.mirror_bytes;
    o.kv.journal = srv->cfg.journal_off ? -1 : 0;
    o.kv.journal_salvage = srv->cfg.journal_salvage;
    o.kv.digest_rebuild = srv->cfg.rebuild_digest;
    o.kv.notice = log_store_notice;
    o.kv.notice_ctx = &lp;
    /* tests only: SlateDB's WAL lags the journal this long, so that only the
     * journal holds the latest acknowledged commits (tests/wire/test_backup.py) */
    const char *wal_ms = getenv("ROCKLAKE_TEST_WAL_FLUSH_MS");
    if (wal_ms && *wal_ms)
        o.kv.flush_interval_ms = strtoull(wal_ms, NULL, 10);
    rl_error e;
    rl_error_clear(&e);
    rl_catalog *cat = rl_catalog_open(url, &o, &e);
    if (!cat && !strstr(e.message, "no RockLake catalog"))
        *err = e;
    return cat;
}

static void log_opened(rl_server *srv, const char *name, const char *url, rl_catalog *cat)
{
    kv_mirror_info mi;
    char in_memory[64] = "no";
    if (kv_mirror_stats(rl_catalog_kv(cat), &mi))
        snprintf(in_memory, sizeof in_memory, "%" PRIu64 " keys, %.1f MiB", mi.keys,
                 (double)mi.bytes / (1 << 20));
    srv_log(srv, "info", "database_opened", "database", name, "url", url, "mode",
            srv->cfg.read_only ? "read-only" : "writer", "in_memory", in_memory, NULL);
}

static int64_t mono_ns(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

static bool schema_known_absent(srv_lake *l, const char *schema)
{
    for (size_t i = 0; i < l->nabsent; i++)
        if (strcmp(l->absent[i].schema, schema) == 0)
            return !l->srv->cfg.read_only ||
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
    if (!rl_db_url(l->srv->cfg.store, l->name, base, sizeof base) ||
        snprintf(url, sizeof url, "%s/schemas/%s", base, schema) >= (int)sizeof url) {
        rl_error_set(err, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, "store path too long");
        return NULL;
    }
    rl_catalog *cat = open_catalog(l->srv, url, l->name, create && !l->srv->cfg.read_only,
                                   rl_catalog_format(l->cat), l->reopened, err);
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
    log_opened(l->srv, l->name, url, cat);
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
    if (l->srv->cfg.read_only)
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
        srv_log(l->srv, "warning", "database_open_failed", "database", l->name, "schema",
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
            srv_log(l->srv, "error", "database_close_failed", "database", l->name, "schema",
                    sl->schema, "message", e.message, NULL);
        free(sl);
    }
    l->schemas = NULL;
    pthread_mutex_destroy(&l->schemas_mu);
}

static srv_lake *open_lake(rl_server *srv, const char *name, bool reopen, rl_error *err)
{
    char url[4096];
    if (!rl_db_url(srv->cfg.store, name, url, sizeof url)) {
        no_database(srv, err, name);
        return NULL;
    }
    bool create = srv->auto_create && !srv->cfg.read_only;
    rl_error_clear(err);
    /* an existing database opens whatever the auto-create count; a new one
     * only while the count is under --max-auto-create (each is a store with
     * memory of its own, and any client can name one) */
    rl_catalog *cat = open_catalog(srv, url, name, false, 0, reopen, err);
    if (!cat && !err->sqlstate[0] && create) {
        uint64_t max = srv->cfg.max_auto_create ? srv->cfg.max_auto_create
                                                : SRV_DEFAULT_MAX_AUTO_CREATE;
        if (srv->auto_created >= max) {
            rl_error_set(err, RL_SQLSTATE_CONFIGURATION_LIMIT_EXCEEDED,
                         "database \"%s\" does not exist, and this server has reached its "
                         "limit of %" PRIu64 " databases created on first connect",
                         name, max);
            rl_error_hint(err, "Create it with \"rocklake db create ROOT %s\", or restart the server "
                          "with a higher --max-auto-create.",
                          name);
            srv_log(srv, "warning", "auto_create_limit", "database", name, "message",
                    err->message, NULL);
            return NULL;
        }
        cat = open_catalog(srv, url, name, true, 0, reopen, err);
        if (cat)
            srv->auto_created++;
    }
    if (!cat) {
        if (!err->sqlstate[0])
            no_database(srv, err, name);
        else /* the store refused (damaged journal, digest, lease): the operator's log says why */
            srv_log(srv, "warning", "database_open_failed", "database", name, "message",
                    err->message, NULL);
        return NULL;
    }
    srv_lake *l = calloc(1, sizeof *l);
    if (!l) {
        rl_catalog_close(cat, NULL);
        rl_error_set(err, RL_SQLSTATE_OUT_OF_MEMORY, "out of memory");
        return NULL;
    }
    l->srv = srv;
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
    log_opened(srv, name, url, cat);
    open_schema_lakes(l);
    return l;
}

/* The lake's catalog, or one of its schemas' catalogs, lost its object
 * store (rl_catalog_failed): nothing can be served from it any more. */
static bool lake_failed(srv_lake *l)
{
    if (rl_catalog_failed(l->cat))
        return true;
    pthread_mutex_lock(&l->schemas_mu);
    bool failed = false;
    for (schema_lake *sl = l->schemas; sl && !failed; sl = sl->next)
        failed = rl_catalog_failed(sl->cat);
    pthread_mutex_unlock(&l->schemas_mu);
    return failed;
}

rl_engine *srv_lake_engine(rl_server *srv, const char *name, srv_lake **lake, rl_error *err)
{
    pthread_mutex_lock(&srv->lakes_mu);
    srv_lake **pp = &srv->lakes;
    while (*pp && strcmp((*pp)->name, name) != 0)
        pp = &(*pp)->next;
    srv_lake *l = *pp;
    bool reopen = false;
    if (l && lake_failed(l)) {
        /* Sessions that have it keep getting 58030 from it; this one gets
         * the lake as the store now holds it, opened anew (which fences
         * the failed writer in the store). */
        *pp = l->next;
        l->next = srv->retired;
        srv->retired = l;
        srv_log(srv, "warning", "database_reopen", "database", name, "message",
                "a write to the object store failed; opening the lake again from the store",
                NULL);
        l = NULL;
        reopen = true;
    }
    /* a reopen that failed (the store still down) is tried again by the
     * next connection, still taking over the lease the retired one holds */
    for (srv_lake *r = srv->retired; r && !l && !reopen; r = r->next)
        reopen = strcmp(r->name, name) == 0;
    /* the failed writers must have stopped before a new one opens */
    for (srv_lake *r = srv->retired; r && reopen && !l; r = r->next) {
        if (strcmp(r->name, name) != 0)
            continue;
        int rc = rl_catalog_shutdown(r->cat, err);
        pthread_mutex_lock(&r->schemas_mu);
        for (schema_lake *sl = r->schemas; sl && rc == 0; sl = sl->next)
            rc = rl_catalog_shutdown(sl->cat, err);
        pthread_mutex_unlock(&r->schemas_mu);
        if (rc < 0) {
            rl_error_hint(err, "Connect again once the object store is reachable: the server "
                               "then opens the lake again.");
            pthread_mutex_unlock(&srv->lakes_mu);
            return NULL;
        }
    }
    if (!l && (l = open_lake(srv, name, reopen, err))) {
        l->next = srv->lakes;
        srv->lakes = l;
    }
    pthread_mutex_unlock(&srv->lakes_mu);
    if (lake)
        *lake = l;
    return l ? l->eng : NULL;
}

void srv_lake_fenced(rl_server *srv, srv_lake *lake)
{
    if (!lake)
        return;
    pthread_mutex_lock(&srv->lakes_mu);
    bool first = !lake->fenced_logged;
    lake->fenced_logged = true;
    pthread_mutex_unlock(&srv->lakes_mu);
    if (first)
        srv_log(srv, "error", "writer_fenced", "database", lake->name, "message",
                "a newer writer opened this database (rocklake serve --takeover?); its commits "
                "now fail with 25006 and clients are told to reconnect to the new writer",
                NULL);
}

/* ------------------------------------------------------------- backends */

static int max_connections(const rl_server *srv);

int srv_register(rl_server *srv, client *c, int32_t *pid, int32_t *secret)
{
    int max = max_connections(srv);
    int32_t s = 0;
    RAND_bytes((unsigned char *)&s, sizeof s);
    pthread_mutex_lock(&srv->reg_mu);
    if (srv->nclients >= max) {
        pthread_mutex_unlock(&srv->reg_mu);
        return -1;
    }
    if (srv->next_pid <= 0 || srv->next_pid > 4000000)
        srv->next_pid = 1000;
    client_reg *r = client_registry_entry(c);
    *pid = srv->next_pid++;
    *secret = s;
    r->next = srv->clients;
    srv->clients = c;
    srv->nclients++;
    pthread_mutex_unlock(&srv->reg_mu);
    srv_count(srv, M_CONNECTIONS_ACTIVE, 1);
    return 0;
}

void srv_unregister(rl_server *srv, client *c)
{
    pthread_mutex_lock(&srv->reg_mu);
    for (client **pp = &srv->clients; *pp; pp = &client_registry_entry(*pp)->next)
        if (*pp == c) {
            *pp = client_registry_entry(c)->next;
            srv->nclients--;
            break;
        }
    pthread_mutex_unlock(&srv->reg_mu);
    srv_count(srv, M_CONNECTIONS_ACTIVE, -1);
}

void srv_cancel(rl_server *srv, int32_t pid, int32_t secret)
{
    bool found = false;
    pthread_mutex_lock(&srv->reg_mu);
    for (client *c = srv->clients; c; c = client_registry_entry(c)->next) {
        client_reg *r = client_registry_entry(c);
        if (r->pid == pid && r->secret == secret) {
            /* like PostgreSQL, a cancel only hits a running statement; a
             * cancel flag left on an idle session would kill the next one */
            if (r->running)
                rl_session_cancel(r->sess);
            found = true;
            break;
        }
    }
    pthread_mutex_unlock(&srv->reg_mu);
    char p[16];
    snprintf(p, sizeof p, "%d", pid);
    if (found)
        srv_count(srv, M_CANCELS, 1);
    srv_log(srv, "info", found ? "cancel_request" : "cancel_request_unknown", "pid", p, NULL);
}

void srv_stmt_arm(rl_server *srv, client *c, uint64_t timeout_ms)
{
    pthread_mutex_lock(&srv->reg_mu);
    client_reg *r = client_registry_entry(c);
    r->running = true;
    r->deadline_ns = timeout_ms ? rl_monotonic_ns() + timeout_ms * 1000000u : 0;
    r->timed_out = false;
    pthread_mutex_unlock(&srv->reg_mu);
}

bool srv_stmt_disarm(rl_server *srv, client *c)
{
    pthread_mutex_lock(&srv->reg_mu);
    client_reg *r = client_registry_entry(c);
    bool fired = r->timed_out;
    r->running = false;
    r->deadline_ns = 0;
    r->timed_out = false;
    pthread_mutex_unlock(&srv->reg_mu);
    return fired;
}

static void *watchdog_main(void *arg)
{
    rl_server *srv = arg;
    while (!atomic_load(&srv->watchdog_quit)) {
        struct timespec d = {.tv_nsec = 20 * 1000000L};
        nanosleep(&d, NULL);
        uint64_t now = rl_monotonic_ns();
        pthread_mutex_lock(&srv->reg_mu);
        for (client *c = srv->clients; c; c = client_registry_entry(c)->next) {
            client_reg *r = client_registry_entry(c);
            if (r->deadline_ns && now > r->deadline_ns && !r->timed_out) {
                r->timed_out = true;
                rl_session_cancel(r->sess);
            }
        }
        pthread_mutex_unlock(&srv->reg_mu);
    }
    return NULL;
}

/* -------------------------------------------------------------- metrics */

static void put_histogram(rl_buf *b, const char *name, const char *help, latency_hist *h)
{
    rl_buf_printf(b, "# HELP %s %s\n# TYPE %s histogram\n", name, help, name);
    long long cum = 0;
    for (size_t i = 0; i <= NBUCKETS; i++) {
        cum += atomic_load(&h->counts[i]);
        if (i < NBUCKETS)
            rl_buf_printf(b, "%s_bucket{le=\"%g\"} %lld\n", name, h->bounds[i], cum);
        else
            rl_buf_printf(b, "%s_bucket{le=\"+Inf\"} %lld\n", name, cum);
    }
    rl_buf_printf(b, "%s_sum %.6f\n%s_count %lld\n", name, (double)atomic_load(&h->sum_us) / 1e6,
                  name, cum);
}

static void metric(rl_buf *b, const char *name, const char *type, const char *help,
                   long long v)
{
    rl_buf_printf(b, "# HELP %s %s\n# TYPE %s %s\n%s %lld\n", name, help, name, type, name, v);
}

static void render_metrics(rl_server *srv, rl_buf *b)
{
    static const struct { srv_counter c; const char *name, *type, *help; } m[] = {
        {M_CONNECTIONS_TOTAL, "rocklake_connections_total", "counter", "Accepted connections."},
        {M_CONNECTIONS_ACTIVE, "rocklake_connections_active", "gauge", "Open sessions."},
        {M_AUTH_FAILURES, "rocklake_auth_failures_total", "counter", "Failed authentications."},
        {M_STATEMENTS, "rocklake_statements_total", "counter", "Statements completed."},
        {M_ERRORS, "rocklake_statement_errors_total", "counter", "Statements that failed."},
        {M_COMMITS, "rocklake_commits_total", "counter", "Committed write transactions."},
        {M_CONFLICTS, "rocklake_conflicts_total", "counter",
         "Statements failed with 23505 or 40001 (commit races)."},
        {M_CANCELS, "rocklake_cancel_requests_total", "counter", "Cancel requests honoured."},
        {M_PROTOCOL_ERRORS, "rocklake_protocol_errors_total", "counter",
         "Connections ended for protocol violations."},
        {M_BUSY_POLL_HITS, "rocklake_busy_poll_hits_total", "counter",
         "Next messages that arrived while the session busy-polled (--busy-poll-us)."},
        {M_BUSY_POLL_MISSES, "rocklake_busy_poll_misses_total", "counter",
         "Busy-polls that ended without a message (the session then slept)."},
    };
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++)
        metric(b, m[i].name, m[i].type, m[i].help, atomic_load(&srv->counters[m[i].c]));
    put_histogram(b, "rocklake_commit_seconds",
                  "Commit latency (the client's COMMIT or implicit transaction).",
                  &srv->commit_latency);
    put_histogram(b, "rocklake_statement_seconds",
                  "Server-side time of each Query or Execute message, engine call to last "
                  "message.",
                  &srv->statement_latency);
    kv_counters kc;
    kv_counters_get(&kc);
    metric(b, "rocklake_store_bytes_written_total", "counter",
           "Key and value bytes written to the stores.", (long long)kc.bytes_written);
    metric(b, "rocklake_store_batches_written_total", "counter", "Write batches.",
           (long long)kc.batches_written);
    metric(b, "rocklake_store_scans_total", "counter", "Range scans.", (long long)kc.scans);
    metric(b, "rocklake_store_gets_total", "counter", "Point reads.", (long long)kc.gets);
    metric(b, "rocklake_store_keys_read_total", "counter", "Keys read by scans and gets.",
           (long long)kc.keys_read);
    uint64_t mirror_bytes = 0, abandoned = 0, sequencing = 0;
    rl_sequence_stats seq = {0};
    pthread_mutex_lock(&srv->lakes_mu);
    for (srv_lake *l = srv->lakes; l; l = l->next) {
        kv_mirror_info mi;
        if (kv_mirror_stats(rl_catalog_kv(l->cat), &mi)) {
            mirror_bytes += mi.bytes;
            abandoned += mi.broken ? 1 : 0;
        }
        rl_sequence_stats one;
        rl_catalog_sequence_stats(l->cat, &one);
        sequencing += rl_catalog_sequence_commits(l->cat);
        seq.rebased += one.rebased;
        seq.distance += one.distance;
        seq.rebase_ns += one.rebase_ns;
        for (size_t i = 0; i < sizeof seq.fallbacks / sizeof seq.fallbacks[0]; i++)
            seq.fallbacks[i] += one.fallbacks[i];
    }
    pthread_mutex_unlock(&srv->lakes_mu);
    metric(b, "rocklake_sequence_commits_enabled", "gauge",
           "Open lakes whose commits are sequenced (--sequence-commits on).",
           (long long)sequencing);
    metric(b, "rocklake_sequenced_commits_total", "counter",
           "DuckLake appends that lost the race for their snapshot id and were placed on top "
           "of the winners instead of failing.",
           (long long)seq.rebased);
    metric(b, "rocklake_sequence_rebase_distance_total", "counter",
           "Snapshots the sequenced commits moved over (with the count: the mean distance).",
           (long long)seq.distance);
    rl_buf_printf(b,
                  "# HELP rocklake_sequence_rebase_seconds_total Time spent rebasing, under the "
                  "commit lock.\n# TYPE rocklake_sequence_rebase_seconds_total counter\n"
                  "rocklake_sequence_rebase_seconds_total %.6f\n",
                  (double)seq.rebase_ns / 1e9);
    rl_buf_printf(b, "# HELP rocklake_sequence_fallbacks_total Lost races sequencing did not "
                     "rebase, by reason: the client got 23505 and retried, as without it.\n"
                     "# TYPE rocklake_sequence_fallbacks_total counter\n");
    for (size_t i = 1; rl_sequence_reason_name(i); i++)
        rl_buf_printf(b, "rocklake_sequence_fallbacks_total{reason=\"%s\"} %llu\n",
                      rl_sequence_reason_name(i), (unsigned long long)seq.fallbacks[i]);
    metric(b, "rocklake_memory_catalog_bytes", "gauge",
           "Memory holding open lakes' catalogs for reads (--mirror-mb).",
           (long long)mirror_bytes);
    metric(b, "rocklake_memory_catalog_abandoned", "gauge",
           "Open lakes whose in-memory catalog outgrew --mirror-mb or ran out of memory "
           "while open: they read SlateDB until reopened.",
           (long long)abandoned);
}

static void thread_done(rl_server *srv);

static void *metrics_conn_main(void *arg)
{
    int fd = (int)(intptr_t)((void **)arg)[0];
    rl_server *srv = ((void **)arg)[1];
    free(arg);
    struct timeval tv = {.tv_sec = 2};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    char req[2048];
    ssize_t n = recv(fd, req, sizeof req - 1, 0);
    req[n > 0 ? n : 0] = '\0';
    rl_buf body, resp;
    rl_buf_init(&body, 0);
    rl_buf_init(&resp, 0);
    bool ok = strncmp(req, "GET /metrics", 12) == 0 && (req[12] == ' ' || req[12] == '?');
    if (ok)
        render_metrics(srv, &body);
    else
        rl_buf_put_str(&body, "not found: try GET /metrics\n");
    rl_buf_printf(&resp,
                  "HTTP/1.1 %s\r\nContent-Type: text/plain; version=0.0.4\r\n"
                  "Content-Length: %zu\r\nConnection: close\r\n\r\n",
                  ok ? "200 OK" : "404 Not Found", body.len);
    rl_buf_put(&resp, body.data, body.len);
    if (!resp.failed)
        (void)!send(fd, resp.data, resp.len, MSG_NOSIGNAL);
    rl_buf_free(&body);
    rl_buf_free(&resp);
    close(fd);
    thread_done(srv);
    return NULL;
}

/* ------------------------------------------------------------- listening */

/* "host:port", "[v6]:port", "*:port" or ":port". */
static int listen_on(const char *spec, int *port_out, rl_error *err)
{
    char host[256] = "";
    const char *colon = strrchr(spec, ':');
    if (!colon)
        return rl_error_set(err, RL_SQLSTATE_INVALID_PARAMETER,
                            "listen address \"%s\" needs ADDR:PORT", spec);
    size_t hl = (size_t)(colon - spec);
    if (hl >= sizeof host)
        hl = sizeof host - 1;
    memcpy(host, spec, hl);
    host[hl] = '\0';
    if (host[0] == '[' && hl >= 2 && host[hl - 1] == ']') {
        memmove(host, host + 1, hl - 2);
        host[hl - 2] = '\0';
    }
    const char *h = host[0] && strcmp(host, "*") != 0 ? host : NULL;
    struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = SOCK_STREAM,
                             .ai_flags = AI_PASSIVE}, *ai;
    int gr = getaddrinfo(h, colon + 1, &hints, &ai);
    if (gr != 0)
        return rl_error_set(err, RL_SQLSTATE_INVALID_PARAMETER, "listen address \"%s\": %s",
                            spec, gai_strerror(gr));
    int fd = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC, 0), one = 1;
    if (fd >= 0)
        setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    if (fd < 0 || bind(fd, ai->ai_addr, ai->ai_addrlen) < 0 || listen(fd, 512) < 0) {
        int e = errno;
        if (fd >= 0)
            close(fd);
        freeaddrinfo(ai);
        return rl_error_set(err, RL_SQLSTATE_IO, "cannot listen on %s: %s", spec, strerror(e));
    }
    freeaddrinfo(ai);
    struct sockaddr_storage ss;
    socklen_t sl = sizeof ss;
    getsockname(fd, (struct sockaddr *)&ss, &sl);
    if (port_out)
        *port_out = ntohs(ss.ss_family == AF_INET6 ? ((struct sockaddr_in6 *)&ss)->sin6_port
                                                   : ((struct sockaddr_in *)&ss)->sin_port);
    return fd;
}

static int setup_tls(rl_server *srv, rl_error *err)
{
    const rl_server_config *c = &srv->cfg;
    if (!c->tls_cert && !c->tls_key)
        return 0;
    if (!c->tls_cert || !c->tls_key)
        return rl_error_set(err, RL_SQLSTATE_INVALID_PARAMETER,
                            "TLS needs both --tls-cert and --tls-key");
    srv->ssl_ctx = SSL_CTX_new(TLS_server_method());
    if (!srv->ssl_ctx)
        return rl_error_set(err, RL_SQLSTATE_INTERNAL, "cannot create a TLS context");
    SSL_CTX_set_min_proto_version(srv->ssl_ctx, TLS1_2_VERSION);
    if (SSL_CTX_use_certificate_chain_file(srv->ssl_ctx, c->tls_cert) != 1 ||
        SSL_CTX_use_PrivateKey_file(srv->ssl_ctx, c->tls_key, SSL_FILETYPE_PEM) != 1 ||
        SSL_CTX_check_private_key(srv->ssl_ctx) != 1) {
        char why[256];
        ERR_error_string_n(ERR_get_error(), why, sizeof why);
        return rl_error_set(err, RL_SQLSTATE_INVALID_PARAMETER,
                            "cannot load TLS certificate \"%s\" / key \"%s\": %s", c->tls_cert,
                            c->tls_key, why);
    }
    return 0;
}

/* One writer per local store root: an flock'd file. --takeover starts
 * anyway (and fences the old writer's lakes as it opens them). */
static int lock_store(rl_server *srv, rl_error *err)
{
    srv->lock_fd = -1;
    if (srv->cfg.read_only)
        return 0;
    char *dir = kv_local_dir(srv->cfg.store);
    if (!dir)
        return 0;
    mkdir(dir, 0755);
    char path[4096];
    snprintf(path, sizeof path, "%s/.rocklake-serve.lock", dir);
    free(dir);
    int fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0)
        return rl_error_set(err, RL_SQLSTATE_IO, "cannot open \"%s\": %s", path,
                            strerror(errno));
    if (flock(fd, LOCK_EX | LOCK_NB) == 0) {
        srv->lock_fd = fd;
        return 0;
    }
    close(fd);
    if (srv->cfg.takeover) {
        srv_log(srv, "warning", "takeover", "store", srv->cfg.store, "message",
                "another server is the writer of this store; fencing it", NULL);
        return 0;
    }
    rl_error_set(err, RL_SQLSTATE_OBJECT_STATE,
                 "another rocklake server is the writer of store \"%s\"", srv->cfg.store);
    rl_error_hint(err, "start with --takeover to fence it and become the writer, or with "
                       "--read-only to serve as a follower");
    return -1;
}

/* The lakes a writer would open at once or on connect: every lease under
 * the root is checked before any store is opened as writer, so a second
 * writer refuses to start instead of fencing the first on a connection.
 * A local root lists its directories (symlinks followed: another path to
 * a lake is what the root lock misses); an object-store root its
 * prefixes. */
typedef struct lease_scan {
    rl_server *srv;
    rl_error *err;
    int refused;
} lease_scan;

static void check_one_lease(const char *name, void *ctx)
{
    lease_scan *ls = ctx;
    char url[4096];
    if (ls->refused || !valid_db_name(name) || !rl_db_url(ls->srv->cfg.store, name, url,
                                                           sizeof url))
        return;
    rl_lease_owner held;
    rl_error e;
    rl_error_clear(&e);
    kv_options ko = {.block_cache_bytes = 16 << 20};
    int rc = rl_lease_read(url, &ko, &held, &e);
    int64_t age;
    if (rc < 0) {
        srv_log(ls->srv, "warning", "writer_lease_unreadable", "database", name, "message",
                e.message, NULL);
    } else if (rc == 1 && rl_lease_live(&held, rl_lease_now_ms(), &age)) {
        rl_lease_refuse(ls->err, url, &held, age);
        ls->refused = 1;
    }
}

static int check_leases(rl_server *srv, rl_error *err)
{
    if (srv->cfg.read_only || srv->cfg.takeover)
        return 0;
    lease_scan ls = {srv, err, 0};
    char *dir = kv_local_dir(srv->cfg.store);
    if (dir) {
        free(dir);
        rl_db_list(srv->cfg.store, check_one_lease, &ls, NULL);
        return ls.refused ? -1 : 0;
    }
    char *names = NULL;
    size_t len = 0;
    kv_error ke;
    if (kv_list_dirs(srv->cfg.store, &names, &len, &ke) < 0) {
        /* each lake's lease is still checked when it is opened */
        srv_log(srv, "warning", "writer_lease_unreadable", "store", srv->cfg.store, "message",
                ke.message, NULL);
        return 0;
    }
    for (size_t i = 0; i < len; i += strlen(names + i) + 1)
        check_one_lease(names + i, &ls);
    free(names);
    return ls.refused ? -1 : 0;
}

/* The address a writer lease names: the listen host with the bound port. */
static void set_lease_listen(rl_server *srv)
{
    char host[96];
    snprintf(host, sizeof host, "%s", srv->cfg.listen);
    char *colon = strrchr(host, ':');
    if (colon)
        *colon = 0;
    snprintf(srv->lease_listen, sizeof srv->lease_listen, "%s:%d", host, srv->port);
}

static void open_one(const char *name, void *ctx)
{
    rl_error e;
    rl_error_clear(&e);
    if (!srv_lake_engine(ctx, name, NULL, &e))
        srv_log(ctx, "warning", "database_open_failed", "database", name, "message", e.message,
                NULL);
}

static char *dup_opt(const char *s) { return s ? strdup(s) : NULL; }

static void free_config(rl_server_config *c)
{
    free((char *)c->store);
    free((char *)c->listen);
    free((char *)c->metrics_listen);
    free((char *)c->tls_cert);
    free((char *)c->tls_key);
    free((char *)c->users_file);
    free((char *)c->hba_file);
    free((char *)c->server_version);
    free((char *)c->port_file);
}

static int load_auth(rl_server *srv, rl_error *err)
{
    if (srv->cfg.users_file && !(srv->users = hba_users_load(srv->cfg.users_file, err)))
        return -1;
    srv->rules = srv->cfg.hba_file ? hba_load(srv->cfg.hba_file, err)
                                   : hba_default(srv->users != NULL);
    return srv->rules ? 0 : -1;
}

static void write_port_file(rl_server *srv)
{
    if (!srv->cfg.port_file)
        return;
    FILE *f = fopen(srv->cfg.port_file, "w");
    if (f) {
        fprintf(f, "%d\n", srv->port);
        fclose(f);
    }
}

rl_server *rl_server_new(const rl_server_config *cfg, rl_error *err)
{
    rl_server *srv = calloc(1, sizeof *srv);
    if (!srv) {
        rl_error_set(err, RL_SQLSTATE_OUT_OF_MEMORY, "out of memory");
        return NULL;
    }
    signal(SIGPIPE, SIG_IGN); /* TLS writes go through write(2) */
    srv->commit_latency.bounds = commit_buckets;
    srv->statement_latency.bounds = statement_buckets;
    srv->cfg = *cfg;
    if (srv->cfg.busy_poll_us < 0)
        srv->cfg.busy_poll_us = RL_DEFAULT_BUSY_POLL_US;
    srv->cfg.store = strdup(cfg->store ? cfg->store : RL_DEFAULT_STORE);
    srv->cfg.listen = strdup(cfg->listen ? cfg->listen : RL_DEFAULT_LISTEN);
    srv->cfg.metrics_listen = dup_opt(cfg->metrics_listen);
    srv->cfg.tls_cert = dup_opt(cfg->tls_cert);
    srv->cfg.tls_key = dup_opt(cfg->tls_key);
    srv->cfg.users_file = dup_opt(cfg->users_file);
    srv->cfg.hba_file = dup_opt(cfg->hba_file);
    srv->cfg.server_version = dup_opt(cfg->server_version);
    srv->cfg.port_file = dup_opt(cfg->port_file);
    srv->auto_create = cfg->auto_create < 0 ? cfg->store == NULL : cfg->auto_create != 0;
    srv->listen_fd = srv->metrics_fd = srv->lock_fd = srv->stop_pipe[0] = srv->stop_pipe[1] = -1;
    pthread_mutex_init(&srv->lakes_mu, NULL);
    pthread_mutex_init(&srv->reg_mu, NULL);
    pthread_mutex_init(&srv->threads_mu, NULL);
    pthread_mutex_init(&srv->log_mu, NULL);
    pthread_cond_init(&srv->threads_cv, NULL);
    RAND_bytes(srv->mock_key, sizeof srv->mock_key);
    RAND_bytes((unsigned char *)&srv->next_pid, sizeof srv->next_pid);
    srv->next_pid = 1000 + (int32_t)((uint32_t)srv->next_pid % 100000);
    if (load_auth(srv, err) < 0 || setup_tls(srv, err) < 0 || lock_store(srv, err) < 0 ||
        check_leases(srv, err) < 0 || pipe2(srv->stop_pipe, O_CLOEXEC | O_NONBLOCK) < 0 ||
        (srv->listen_fd = listen_on(srv->cfg.listen, &srv->port, err)) < 0 ||
        (srv->cfg.metrics_listen &&
         (srv->metrics_fd = listen_on(srv->cfg.metrics_listen, NULL, err)) < 0)) {
        rl_server_free(srv);
        return NULL;
    }
    set_lease_listen(srv);
    if (srv->cfg.takeover) /* fence the old writer right away (a local root lists its lakes) */
        rl_db_list(srv->cfg.store, open_one, srv, NULL);
    write_port_file(srv);
    return srv;
}

void rl_server_stop(rl_server *srv)
{
    atomic_store(&srv->stopping, true);
    if (srv->stop_pipe[1] >= 0)
        (void)!write(srv->stop_pipe[1], "x", 1);
}

/* --------------------------------------------------------------- threads */

typedef struct conn_arg {
    rl_server *srv;
    int fd;
    struct sockaddr_storage sa;
    socklen_t salen;
} conn_arg;

static void thread_done(rl_server *srv)
{
    pthread_mutex_lock(&srv->threads_mu);
    srv->threads--;
    pthread_cond_broadcast(&srv->threads_cv);
    pthread_mutex_unlock(&srv->threads_mu);
}

static int max_connections(const rl_server *srv)
{
    return srv->cfg.max_connections > 0 ? srv->cfg.max_connections : 500;
}

/* Take a connection slot; false when every one is in use. A socket that
 * has not sent its startup packet yet holds a slot (and a thread) too, so
 * silent sockets cannot exhaust threads while staying under the limit. */
static bool conn_slot_take(rl_server *srv)
{
    pthread_mutex_lock(&srv->threads_mu);
    bool ok = srv->conns < max_connections(srv);
    if (ok)
        srv->conns++;
    pthread_mutex_unlock(&srv->threads_mu);
    return ok;
}

static void conn_slot_give(rl_server *srv)
{
    pthread_mutex_lock(&srv->threads_mu);
    srv->conns--;
    pthread_mutex_unlock(&srv->threads_mu);
}

/* PostgreSQL's answer when no slot is free, written without waiting (the
 * accept loop must not block on a client): FATAL 53300. */
static void refuse_too_many(int fd)
{
    static const char fields[] = "SFATAL\0VFATAL\0C" RL_SQLSTATE_TOO_MANY_CONNECTIONS
                                 "\0Msorry, too many clients already\0";
    uint8_t m[128];
    size_t body = sizeof fields; /* the fields + the closing NUL */
    m[0] = 'E';
    rl_store_be32(m + 1, (uint32_t)(body + 4));
    memcpy(m + 5, fields, sizeof fields);
    ssize_t w = send(fd, m, 5 + body, MSG_NOSIGNAL | MSG_DONTWAIT);
    (void)w; /* best effort: the socket closes either way */
}

static void *conn_main(void *arg)
{
    conn_arg *a = arg;
    rl_server *srv = a->srv;
    client_serve(srv, a->fd, &a->sa, a->salen);
    free(a);
    conn_slot_give(srv);
    thread_done(srv);
    return NULL;
}

/* A detached thread with `stack` bytes of stack. */
static bool spawn(rl_server *srv, void *(*fn)(void *), void *arg, size_t stack)
{
    pthread_attr_t at;
    pthread_attr_init(&at);
    pthread_attr_setdetachstate(&at, PTHREAD_CREATE_DETACHED);
    pthread_attr_setstacksize(&at, stack);
    pthread_mutex_lock(&srv->threads_mu);
    srv->threads++;
    pthread_mutex_unlock(&srv->threads_mu);
    pthread_t t;
    bool ok = pthread_create(&t, &at, fn, arg) == 0;
    pthread_attr_destroy(&at);
    if (!ok)
        thread_done(srv);
    return ok;
}

static void accept_client(rl_server *srv)
{
    conn_arg *a = calloc(1, sizeof *a);
    if (!a)
        return;
    a->salen = sizeof a->sa;
    a->fd = accept4(srv->listen_fd, (struct sockaddr *)&a->sa, &a->salen, SOCK_CLOEXEC);
    if (a->fd < 0) {
        free(a);
        return;
    }
    a->srv = srv;
    srv_count(srv, M_CONNECTIONS_TOTAL, 1);
    if (!conn_slot_take(srv)) {
        refuse_too_many(a->fd);
        srv_log(srv, "warning", "too_many_connections", NULL);
        close(a->fd);
        free(a);
        return;
    }
    /* sessions recurse over client-sized parse trees: see stack.h */
    if (!spawn(srv, conn_main, a, RL_SESSION_STACK_BYTES)) {
        conn_slot_give(srv);
        close(a->fd);
        free(a);
    }
}

static void accept_metrics(rl_server *srv)
{
    int fd = accept4(srv->metrics_fd, NULL, NULL, SOCK_CLOEXEC);
    if (fd < 0)
        return;
    void **arg = malloc(2 * sizeof *arg);
    if (!arg) {
        close(fd);
        return;
    }
    arg[0] = (void *)(intptr_t)fd;
    arg[1] = srv;
    if (!spawn(srv, metrics_conn_main, arg, METRICS_STACK_BYTES)) {
        close(fd);
        free(arg);
    }
}

/* The lakes of a local root, sorted, for the banner. */
typedef struct banner_lakes {
    char **names;
    size_t n, cap;
} banner_lakes;

static void banner_collect(const char *name, void *ctx)
{
    banner_lakes *bl = ctx;
    char *dup = strdup(name);
    char **grown = dup ? rl_array_reserve(bl->names, bl->n, &bl->cap, sizeof *grown, 16) : NULL;
    if (!grown) {
        free(dup);
        return;
    }
    bl->names = grown;
    bl->names[bl->n++] = dup;
}

static int banner_cmp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* "DuckLake 1.1", "unfinished import" (backup, restore) or "unreadable": read without
 * writing (a reader that fences no one and leaves no checkpoint).
 * *initialized: DuckLake has written its first snapshot (so the lake has a
 * data_path of its own, which an ATTACH must not contradict). */
static void banner_lake_state(const rl_server *srv, const char *name, char *out, size_t n,
                              bool *initialized)
{
    *initialized = false;
    char url[4096];
    snprintf(out, n, "unreadable");
    if (!rl_db_url(srv->cfg.store, name, url, sizeof url))
        return;
    rl_catalog_options o = {.read_only = true, .allow_incomplete_copy = true};
    o.kv.reader_no_writes = 1;
    rl_error e;
    rl_error_clear(&e);
    rl_catalog *cat = rl_catalog_open(url, &o, &e);
    if (!cat)
        return;
    char marker[16];
    if (rl_catalog_copy_marker_get(cat, marker, sizeof marker, &e) == 1) /* "import from ..." */
        snprintf(out, n, "unfinished %.*s: not served", (int)strcspn(marker, " "), marker);
    else
        snprintf(out, n, "DuckLake %s", rl_format_name(rl_catalog_format(cat)));
    *initialized = rl_catalog_next_snapshot_id(cat) > 0;
    rl_catalog_close(cat, NULL);
}

#define BANNER_MAX_LAKES 20

/* Each lake of the root and its format; returns the lake the ATTACH line
 * should name ("lake" when there is none). *exists: 1 it does, 0 it does
 * not, -1 unknown (a root that cannot be listed, such as s3://);
 * *initialized: it has DuckLake's first snapshot. */
static const char *print_banner_lakes(const rl_server *srv, banner_lakes *bl, int *exists,
                                      bool *initialized)
{
    *exists = -1;
    *initialized = false;
    if (rl_db_list(srv->cfg.store, banner_collect, bl, NULL) < 0) {
        printf("Lakes: not listed for this store (rocklake db list needs a local root)\n");
        return "lake";
    }
    if (bl->n) /* qsort wants a non-NULL base even for no elements */
        qsort(bl->names, bl->n, sizeof *bl->names, banner_cmp);
    printf("Lakes:%s\n", bl->n ? "" : " none yet");
    const char *pick = NULL;
    for (size_t i = 0; i < bl->n && i < BANNER_MAX_LAKES; i++) {
        char state[64];
        bool init;
        banner_lake_state(srv, bl->names[i], state, sizeof state, &init);
        printf("  %s (%s)\n", bl->names[i], state);
        if (strncmp(state, "DuckLake", 8) == 0 && (!pick || strcmp(bl->names[i], "lake") == 0)) {
            pick = bl->names[i];
            *initialized = init;
        }
    }
    if (bl->n > BANNER_MAX_LAKES)
        printf("  ... and %zu more (rocklake db list %s)\n", bl->n - BANNER_MAX_LAKES,
               srv->cfg.store);
    *exists = pick != NULL;
    return pick ? pick : "lake";
}

/* What a user needs next, on stdout (logs go to stderr): where it listens,
 * the lakes, and the line to paste into DuckDB, preceded by the command
 * that creates the lake when it does not exist and the server will not
 * create it on first connect. The host is the listen address, or 127.0.0.1
 * for a wildcard. */
static void print_attach_hint(const rl_server *srv)
{
    char host[256];
    snprintf(host, sizeof host, "%s", srv->cfg.listen);
    char *colon = strrchr(host, ':');
    if (colon)
        *colon = 0;
    if (!host[0] || strcmp(host, "0.0.0.0") == 0 || strcmp(host, "*") == 0)
        snprintf(host, sizeof host, "127.0.0.1");
    printf("RockLake is serving the lakes under %s on %s:%d%s.\n", srv->cfg.store, host,
           srv->port, srv->cfg.read_only ? " (read-only follower)" : "");
    banner_lakes bl = {0};
    int exists;
    bool initialized;
    const char *name = print_banner_lakes(srv, &bl, &exists, &initialized);
    if (exists != 1 && srv->auto_create && !srv->cfg.read_only)
        printf("A database name that does not exist is created on first connect.\n");
    else if (exists == 0 && srv->cfg.read_only)
        printf("Lake \"%s\" does not exist yet; a follower serves what its writer created.\n",
               name);
    else if (exists == 0)
        printf("Lake \"%s\" does not exist yet; create it first (this server does not create "
               "databases on first connect):\n  rocklake db create %s %s\n",
               name, srv->cfg.store, name);
    else if (exists < 0 && !srv->cfg.read_only)
        printf("If lake \"%s\" does not exist yet, create it first (this server does not "
               "create databases on first connect):\n  rocklake db create %s %s\n",
               name, srv->cfg.store, name);
    /* a lake DuckLake already wrote keeps its data_path: DuckDB refuses a
     * DATA_PATH that differs from it */
    char data[160] = "";
    if (!initialized)
        snprintf(data, sizeof data, " (DATA_PATH '%s_data/')", name);
    printf("In DuckDB (with the ducklake and postgres extensions):\n"
           "  ATTACH 'ducklake:postgres:host=%s port=%d dbname=%s' AS %s%s;\n"
           "Each database name is its own lake. Stop with Ctrl-C (SIGINT/SIGTERM drain).\n",
           host, srv->port, name, name, data);
    fflush(stdout);
    for (size_t i = 0; i < bl.n; i++)
        free(bl.names[i]);
    free(bl.names);
}

int rl_server_run(rl_server *srv)
{
    char port[16];
    snprintf(port, sizeof port, "%d", srv->port);
    srv_log(srv, "info", "listening", "listen", srv->cfg.listen, "port", port, "store",
            srv->cfg.store, "tls", srv->ssl_ctx ? "on" : "off", "mode",
            srv->cfg.read_only ? "read-only" : "writer", NULL);
    print_attach_hint(srv);
    srv->watchdog_running = pthread_create(&srv->watchdog, NULL, watchdog_main, srv) == 0;
    while (!atomic_load(&srv->stopping)) {
        struct pollfd p[3] = {{.fd = srv->listen_fd, .events = POLLIN},
                              {.fd = srv->stop_pipe[0], .events = POLLIN},
                              {.fd = srv->metrics_fd, .events = POLLIN}};
        int r = poll(p, srv->metrics_fd >= 0 ? 3 : 2, 1000);
        if (r < 0 && errno != EINTR)
            break;
        if (r > 0 && (p[0].revents & POLLIN))
            accept_client(srv);
        if (r > 0 && srv->metrics_fd >= 0 && (p[2].revents & POLLIN))
            accept_metrics(srv);
    }
    /* drain: no new connections; each session ends at its next message */
    atomic_store(&srv->stopping, true);
    close(srv->listen_fd);
    srv->listen_fd = -1;
    srv_log(srv, "info", "shutdown", "message", "draining connections", NULL);
    pthread_mutex_lock(&srv->threads_mu);
    while (srv->threads > 0)
        pthread_cond_wait(&srv->threads_cv, &srv->threads_mu);
    pthread_mutex_unlock(&srv->threads_mu);
    if (srv->watchdog_running) {
        atomic_store(&srv->watchdog_quit, true);
        pthread_join(srv->watchdog, NULL);
        srv->watchdog_running = false;
    }
    return 0;
}

int rl_server_free(rl_server *srv)
{
    if (!srv)
        return 0;
    int rc = 0;
    for (srv_lake *l = srv->retired, *next; l; l = next) {
        next = l->next;
        close_schema_lakes(l);
        rl_engine_free(l->eng);
        /* its store failed and a newer handle fenced it: a close error says
         * nothing the log has not said already */
        rl_catalog_close(l->cat, NULL);
        free(l);
    }
    for (srv_lake *l = srv->lakes, *next; l; l = next) {
        next = l->next;
        close_schema_lakes(l);
        rl_engine_free(l->eng);
        rl_error e;
        rl_error_clear(&e);
        if (rl_catalog_close(l->cat, &e) < 0) {
            srv_log(srv, "error", "database_close_failed", "database", l->name, "message",
                    e.message, NULL);
            rc = -1;
        }
        free(l);
    }
    if (srv->listen_fd >= 0)
        close(srv->listen_fd);
    if (srv->metrics_fd >= 0)
        close(srv->metrics_fd);
    for (int i = 0; i < 2; i++)
        if (srv->stop_pipe[i] >= 0)
            close(srv->stop_pipe[i]);
    if (srv->lock_fd >= 0)
        close(srv->lock_fd);
    SSL_CTX_free(srv->ssl_ctx);
    hba_free(srv->rules);
    hba_users_free(srv->users);
    free_config(&srv->cfg);
    pthread_mutex_destroy(&srv->lakes_mu);
    pthread_mutex_destroy(&srv->reg_mu);
    pthread_mutex_destroy(&srv->threads_mu);
    pthread_mutex_destroy(&srv->log_mu);
    pthread_cond_destroy(&srv->threads_cv);
    free(srv);
    return rc;
}
