/*
 * server.c — listener, accept loop, the banner and the drain of `rocklake
 * serve` (see server.h), and the wiring at start: the TLS context (tls.c)
 * and the authentication rules (hba.c) the connections share, and what each
 * part is handed: the lakes registry its options (lakes_options), every
 * connection one client_env (wire_clients), the backends registry, the
 * lakes registry and GET /metrics the logger and metrics they report to.
 * Nothing but rl_server_* is called from outside this file.
 *
 * Threads: the thread calling rl_server_run accepts (poll over the
 * listener, the metrics listener and a stop pipe); each connection and each
 * metrics request gets a detached thread (counted in `threads`, which the
 * drain waits for); one watchdog thread (backends.c) enforces statement
 * timeouts. Shared state is guarded by mutexes that are never held
 * together: the lakes registry's (lakes.c), the backends registry's
 * (backends.c, also held around rl_session_cancel, which the engine allows
 * from any thread), the logger's (log.c) and threads_mu here.
 */
#include "server/server.h"

#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <netinet/in.h>
#include <openssl/rand.h>

#include "base/buf.h"
#include "pgwire/hba.h"
#include "pgwire/tls.h"
#include "server/backends.h"
#include "server/client.h"
#include "server/lakes.h"
#include "server/log.h"
#include "server/metrics.h"
#include "server/resultcache.h"
#include "base/stack.h"

enum { METRICS_STACK_BYTES = 1 << 20 }; /* a metrics request does not recurse */

struct rl_server {
    rl_server_config cfg;
    hba *rules;
    hba_users *users;
    rl_tls_ctx *ssl_ctx;       /* NULL without TLS */
    int listen_fd, metrics_fd, port;
    int stop_pipe[2];
    atomic_bool stopping;
    uint8_t mock_key[32];
    pthread_mutex_t threads_mu;
    pthread_cond_t threads_cv;
    int threads;
    int conns;                   /* connection threads, before and after startup */
    /* the other concerns' state (their files own it) */
    srv_logger log;              /* log.c */
    srv_metrics metrics;         /* metrics.c */
    srv_backends backends;       /* backends.c */
    srv_lakes *lakes;            /* lakes.c */
    rc_cache *results;           /* resultcache.c; NULL: off */
    client_env clients;          /* what each connection is handed (client.c) */
};

int rl_server_port(const rl_server *srv) { return srv->port; }

/* --max-connections, defaulted (sockets still in startup count too). */
static int max_connections(const rl_server_config *cfg)
{
    return cfg->max_connections > 0 ? cfg->max_connections : 500;
}

/* ---------------------------------------------------------------- wiring */

/* How the lakes registry opens lakes: its part of the configuration. */
static srv_lakes_options lakes_options(const rl_server_config *c, bool auto_create)
{
    return (srv_lakes_options){
        .store = c->store, .listen = c->listen, .read_only = c->read_only,
        .takeover = c->takeover, .auto_create = auto_create,
        .max_auto_create = c->max_auto_create, .lease_ms = c->lease_ms,
        .store_timeout_ms = c->store_timeout_ms, .sequence_commits = c->sequence_commits,
        .heal_max_ms = c->heal_max_ms, .follower_poll_max_ms = c->follower_poll_max_ms,
        .cache_bytes = c->cache_bytes, .mirror_bytes = c->mirror_bytes,
        .journal_off = c->journal_off, .journal_salvage = c->journal_salvage,
        .rebuild_digest = c->rebuild_digest, .load_in_open = c->load_in_open};
}

/* What every connection is handed: the parts set up by now, and its
 * settings. */
static void wire_clients(rl_server *srv)
{
    const rl_server_config *c = &srv->cfg;
    srv->clients = (client_env){
        .log = &srv->log, .metrics = &srv->metrics, .backends = &srv->backends,
        .lakes = srv->lakes, .results = srv->results, .tls = srv->ssl_ctx,
        .auth = {.rules = srv->rules, .users = srv->users, .mock_key = srv->mock_key,
                 .mock_key_len = sizeof srv->mock_key},
        .stopping = &srv->stopping,
        .server_version = c->server_version ? c->server_version : RL_SERVER_VERSION,
        .max_message_bytes = c->max_message_bytes,
        .statement_timeout_ms = c->statement_timeout_ms,
        .idle_in_transaction_timeout_ms = c->idle_in_transaction_timeout_ms,
        .authentication_timeout_ms = c->authentication_timeout_ms,
        .busy_poll_us = c->busy_poll_us,
        .port = srv->port,
        .max_connections = max_connections(c)};
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
    return rl_tls_ctx_load(srv->cfg.tls_cert, srv->cfg.tls_key, &srv->ssl_ctx, err);
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
    bool auto_create = cfg->auto_create < 0 ? cfg->store == NULL : cfg->auto_create != 0;
    srv->listen_fd = srv->metrics_fd = srv->stop_pipe[0] = srv->stop_pipe[1] = -1;
    pthread_mutex_init(&srv->threads_mu, NULL);
    pthread_cond_init(&srv->threads_cv, NULL);
    srv_logger_init(&srv->log, srv->cfg.log_json, srv->cfg.log_min_duration_ms,
                    srv->cfg.log_error_statement);
    srv_metrics_init(&srv->metrics);
    srv_backends_init(&srv->backends, max_connections(&srv->cfg), &srv->metrics, &srv->log);
    RAND_bytes(srv->mock_key, sizeof srv->mock_key);
    int64_t kept = cfg->result_cache_bytes;
    if (kept != -1 &&
        !(srv->results = rc_new(kept > 0 ? (uint64_t)kept : RL_DEFAULT_RESULT_CACHE_BYTES))) {
        rl_error_set(err, RL_SQLSTATE_OUT_OF_MEMORY, "out of memory");
        rl_server_free(srv);
        return NULL;
    }
    srv_lakes_options lo = lakes_options(&srv->cfg, auto_create);
    if (!(srv->lakes = srv_lakes_new(&lo, &srv->log))) {
        rl_error_set(err, RL_SQLSTATE_OUT_OF_MEMORY, "out of memory");
        rl_server_free(srv);
        return NULL;
    }
    if (load_auth(srv, err) < 0 || setup_tls(srv, err) < 0 ||
        srv_lakes_lock_root(srv->lakes, err) < 0 || srv_lakes_check_leases(srv->lakes, err) < 0 ||
        pipe2(srv->stop_pipe, O_CLOEXEC | O_NONBLOCK) < 0 ||
        (srv->listen_fd = listen_on(srv->cfg.listen, &srv->port, err)) < 0 ||
        (srv->cfg.metrics_listen &&
         (srv->metrics_fd = listen_on(srv->cfg.metrics_listen, NULL, err)) < 0)) {
        rl_server_free(srv);
        return NULL;
    }
    srv_lakes_listening(srv->lakes, srv->port);
    if (srv_lakes_start_healer(srv->lakes) < 0) {
        rl_error_set(err, RL_SQLSTATE_INTERNAL, "cannot start the lake healer thread");
        rl_server_free(srv);
        return NULL;
    }
    wire_clients(srv);
    if (srv->cfg.takeover) /* fence the old writer right away (a local root lists its lakes) */
        srv_lakes_open_all(srv->lakes);
    if (srv->cfg.standby) {
        /* follow every lake of the root from the start, so that the
         * watcher sees their writer before any client connects here */
        srv_lakes_follow_all(srv->lakes);
        if (srv_lakes_start_standby(srv->lakes) < 0) {
            rl_error_set(err, RL_SQLSTATE_INTERNAL, "cannot start the standby thread");
            rl_server_free(srv);
            return NULL;
        }
    }
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

/* Take a connection slot; false when every one is in use. A socket that
 * has not sent its startup packet yet holds a slot (and a thread) too, so
 * silent sockets cannot exhaust threads while staying under the limit. */
static bool conn_slot_take(rl_server *srv)
{
    pthread_mutex_lock(&srv->threads_mu);
    bool ok = srv->conns < max_connections(&srv->cfg);
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

static void *metrics_conn_main(void *arg)
{
    int fd = (int)(intptr_t)((void **)arg)[0];
    rl_server *srv = ((void **)arg)[1];
    free(arg);
    srv_probe_state probe = {.listening = srv->listen_fd >= 0,
                             .stopping = atomic_load(&srv->stopping),
                             .read_only = srv_lakes_following(srv->lakes)};
    srv_metrics_serve(&srv->metrics, srv->lakes, srv->results, &probe, fd);
    thread_done(srv);
    return NULL;
}

static void *conn_main(void *arg)
{
    conn_arg *a = arg;
    rl_server *srv = a->srv;
    client_serve(&srv->clients, a->fd, &a->sa, a->salen);
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
    srv_count(&srv->metrics, M_CONNECTIONS_TOTAL, 1);
    if (!conn_slot_take(srv)) {
        refuse_too_many(a->fd);
        srv_log(&srv->log, "warning", "too_many_connections", NULL);
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

/* Each lake of the root and its format (srv_lakes_describe: each lake is
 * opened once at start-up); returns the lake the ATTACH line should name
 * ("lake" when there is none), pointing into *descs, which the caller
 * frees. *exists: 1 it does, 0 it does not, -1 unknown (a root that cannot
 * be listed, such as s3://); *initialized: it has DuckLake's first
 * snapshot. */
static const char *print_banner_lakes(const rl_server *srv, srv_lake_desc **descs, int *exists,
                                      bool *initialized)
{
    *exists = -1;
    *initialized = false;
    size_t n, total;
    if (srv_lakes_describe(srv->lakes, descs, &n, &total) < 0) {
        printf("Lakes: not listed for this store (rocklake db list needs a local root)\n");
        return "lake";
    }
    printf("Lakes:%s\n", total ? "" : " none yet");
    const char *pick = NULL;
    for (size_t i = 0; i < n; i++) {
        const srv_lake_desc *d = &(*descs)[i];
        printf("  %s (%s)\n", d->name, d->state);
        if (strncmp(d->state, "DuckLake", 8) == 0 && (!pick || strcmp(d->name, "lake") == 0)) {
            pick = d->name;
            *initialized = d->initialized;
        }
    }
    if (total > n)
        printf("  ... and %zu more (rocklake db list %s)\n", total - n, srv->cfg.store);
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
           srv->port, srv->cfg.standby ? " (hot standby: a read-only follower until promoted)" : srv->cfg.read_only ? " (read-only follower)" : "");
    srv_lake_desc *descs = NULL;
    int exists;
    bool initialized;
    const char *name = print_banner_lakes(srv, &descs, &exists, &initialized);
    if (exists != 1 && srv_lakes_auto_create(srv->lakes) && !srv->cfg.read_only)
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
    free(descs);
}

int rl_server_run(rl_server *srv)
{
    char port[16];
    snprintf(port, sizeof port, "%d", srv->port);
    srv_log(&srv->log, "info", "listening", "listen", srv->cfg.listen, "port", port, "store",
            srv->cfg.store, "tls", srv->ssl_ctx ? "on" : "off", "mode",
            srv->cfg.read_only ? "read-only" : "writer", NULL);
    print_attach_hint(srv);
    srv_watchdog_start(&srv->backends);
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
    srv_log(&srv->log, "info", "shutdown", "message", "draining connections", NULL);
    pthread_mutex_lock(&srv->threads_mu);
    while (srv->threads > 0)
        pthread_cond_wait(&srv->threads_cv, &srv->threads_mu);
    pthread_mutex_unlock(&srv->threads_mu);
    srv_watchdog_stop(&srv->backends);
    return 0;
}

int rl_server_free(rl_server *srv)
{
    if (!srv)
        return 0;
    int rc = srv_lakes_free(srv->lakes);
    rc_free(srv->results);
    if (srv->listen_fd >= 0)
        close(srv->listen_fd);
    if (srv->metrics_fd >= 0)
        close(srv->metrics_fd);
    for (int i = 0; i < 2; i++)
        if (srv->stop_pipe[i] >= 0)
            close(srv->stop_pipe[i]);
    rl_tls_ctx_free(srv->ssl_ctx);
    hba_free(srv->rules);
    hba_users_free(srv->users);
    free_config(&srv->cfg);
    pthread_mutex_destroy(&srv->threads_mu);
    srv_backends_destroy(&srv->backends);
    srv_logger_destroy(&srv->log);
    pthread_cond_destroy(&srv->threads_cv);
    free(srv);
    return rc;
}
