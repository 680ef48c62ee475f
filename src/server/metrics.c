/*
 * metrics.c — counters, histograms and GET /metrics (see metrics.h).
 *
 * Commits wait for a durable flush; statements are measured inside the
 * server, from the engine call to its last message, which is where the
 * "column-list lookup under 50 us" kind of figure comes from. The store's
 * counters are process-wide (rl_store_counters_get); lake gauges add up
 * the open lakes (srv_lakes_each_catalog, under the lakes registry lock).
 */
#include "server/metrics.h"

#include <stdio.h>
#include <stddef.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include "base/buf.h"
#include "catalog/catalog.h"
#include "server/lakes.h"
#include "server/resultcache.h"

static const double commit_buckets[SRV_HIST_BUCKETS] = {0.001, 0.0025, 0.005, 0.01,
                                                        0.025, 0.05,   0.1,   0.25,
                                                        0.5,   1,      2.5,   10};
static const double statement_buckets[SRV_HIST_BUCKETS] = {
    0.00001, 0.000025, 0.00005, 0.0001, 0.00025, 0.0005,
    0.001,   0.0025,   0.005,   0.01,   0.1,     1};

void srv_metrics_init(srv_metrics *m)
{
    m->commit_latency.bounds = commit_buckets;
    m->statement_latency.bounds = statement_buckets;
    m->round_trip_latency.bounds = statement_buckets;
}

static void hist_observe(srv_histogram *h, double seconds)
{
    size_t i = 0;
    while (i < SRV_HIST_BUCKETS && seconds > h->bounds[i])
        i++;
    atomic_fetch_add(&h->counts[i], 1);
    atomic_fetch_add(&h->sum_us, (long long)(seconds * 1e6));
}

void srv_count(srv_metrics *m, srv_counter which, int64_t delta)
{
    atomic_fetch_add(&m->counters[which], delta);
}

void srv_observe_commit(srv_metrics *m, double seconds)
{
    hist_observe(&m->commit_latency, seconds);
}

void srv_observe_statement(srv_metrics *m, double seconds)
{
    hist_observe(&m->statement_latency, seconds);
}

void srv_observe_round_trip(srv_metrics *m, double seconds)
{
    hist_observe(&m->round_trip_latency, seconds);
}

/* ------------------------------------------------------------ exposition */

static void put_histogram(rl_buf *b, const char *name, const char *help, srv_histogram *h)
{
    rl_buf_printf(b, "# HELP %s %s\n# TYPE %s histogram\n", name, help, name);
    long long cum = 0;
    for (size_t i = 0; i <= SRV_HIST_BUCKETS; i++) {
        cum += atomic_load(&h->counts[i]);
        if (i < SRV_HIST_BUCKETS)
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

/* What the open lakes add up to. */
typedef struct lake_totals {
    uint64_t mirror_bytes, abandoned, sequencing;
    rl_sequence_stats seq;
    uint64_t groups[RL_COMMIT_GROUP_BUCKETS]; /* store flushes by writes made durable */
    rl_commit_times times;
} lake_totals;

static void add_lake(void *ctx, rl_catalog *cat)
{
    lake_totals *t = ctx;
    rl_catalog_memory mem;
    if (rl_catalog_memory_stats(cat, &mem)) {
        t->mirror_bytes += mem.bytes;
        t->abandoned += mem.broken ? 1 : 0;
    }
    rl_sequence_stats one;
    rl_catalog_sequence_stats(cat, &one);
    t->sequencing += rl_catalog_sequence_commits(cat);
    uint64_t groups[RL_COMMIT_GROUP_BUCKETS];
    rl_catalog_group_sizes(cat, groups);
    for (size_t i = 0; i < RL_COMMIT_GROUP_BUCKETS; i++)
        t->groups[i] += groups[i];
    rl_commit_times ct;
    rl_catalog_commit_times(cat, &ct);
    t->times.lock_wait_ns += ct.lock_wait_ns;
    t->times.lock_held_ns += ct.lock_held_ns;
    t->times.gather_ns += ct.gather_ns;
    t->times.flush_ns += ct.flush_ns;
    t->times.snapshot_waits += ct.snapshot_waits;
    t->times.snapshot_wait_ns += ct.snapshot_wait_ns;
    t->seq.rebased += one.rebased;
    t->seq.distance += one.distance;
    t->seq.rebase_ns += one.rebase_ns;
    for (size_t i = 0; i < sizeof t->seq.fallbacks / sizeof t->seq.fallbacks[0]; i++)
        t->seq.fallbacks[i] += one.fallbacks[i];
}

/* A lake's name as Prometheus' text format wants a label value, into an
 * initialised buffer. */
static void label_value(rl_buf *label, const char *name)
{
    for (const char *c = name; *c; c++) {
        if (*c == '\\' || *c == '"')
            rl_buf_put_u8(label, '\\');
        if (*c == '\n')
            rl_buf_put_str(label, "\\n");
        else
            rl_buf_put_u8(label, (uint8_t)*c);
    }
}

/* rocklake_lake_state{database=...,state=...} for each state of one lake. */
static void put_lake_state(void *ctx, const char *name, srv_lake_state st)
{
    rl_buf *b = ctx;
    rl_buf label;
    rl_buf_init(&label, 0);
    label_value(&label, name);
    const srv_lake_state all[] = {SRV_LAKE_WRITABLE, SRV_LAKE_FOLLOWING, SRV_LAKE_FENCED,
                                  SRV_LAKE_FAILED};
    for (size_t i = 0; i < sizeof all / sizeof all[0]; i++)
        rl_buf_printf(b, "rocklake_lake_state{database=\"%.*s\",state=\"%s\"} %d\n",
                      (int)label.len, (const char *)label.data, srv_lake_state_name(all[i]),
                      all[i] == st);
    rl_buf_free(&label);
}

/* One line of a per-lake follower backoff gauge (srv_lakes_each_backoff):
 * the poll interval in seconds, or idle (1 when backed off past its fast
 * pace). */
typedef struct backoff_line {
    rl_buf *b;
    bool idle; /* rocklake_follower_idle, else _poll_interval_seconds */
} backoff_line;

static void put_backoff(void *ctx, const char *name, uint64_t poll_ms, int idle)
{
    const backoff_line *bl = ctx;
    rl_buf label;
    rl_buf_init(&label, 0);
    label_value(&label, name);
    if (bl->idle)
        rl_buf_printf(bl->b, "rocklake_follower_idle{database=\"%.*s\"} %d\n", (int)label.len,
                      (const char *)label.data, idle);
    else
        rl_buf_printf(bl->b, "rocklake_follower_poll_interval_seconds{database=\"%.*s\"} %.3f\n",
                      (int)label.len, (const char *)label.data, (double)poll_ms / 1e3);
    rl_buf_free(&label);
}

static void render_metrics(srv_metrics *sm, srv_lakes *lakes, rc_cache *results, rl_buf *b)
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
        {M_READY_FOR_QUERY, "rocklake_ready_for_query_total", "counter",
         "ReadyForQuery messages sent: the round trips clients waited for (one per simple "
         "Query, Sync or finished startup)."},
    };
    for (size_t i = 0; i < sizeof m / sizeof m[0]; i++)
        metric(b, m[i].name, m[i].type, m[i].help, atomic_load(&sm->counters[m[i].c]));
    put_histogram(b, "rocklake_commit_seconds",
                  "Commit latency (the client's COMMIT or implicit transaction).",
                  &sm->commit_latency);
    put_histogram(b, "rocklake_statement_seconds",
                  "Server-side time of each Query or Execute message, engine call to last "
                  "message.",
                  &sm->statement_latency);
    put_histogram(b, "rocklake_round_trip_seconds",
                  "Server-side time of each round trip a client waited for: from its first "
                  "message (a Query, or the first extended-protocol message before a Sync) to "
                  "its ReadyForQuery; Parse, Bind and Describe included, and a COPY FROM STDIN's "
                  "wait for the client's data.",
                  &sm->round_trip_latency);
    rl_store_counters kc;
    rl_store_counters_get(&kc);
    metric(b, "rocklake_store_bytes_written_total", "counter",
           "Key and value bytes written to the stores.", (long long)kc.bytes_written);
    metric(b, "rocklake_store_batches_written_total", "counter", "Write batches.",
           (long long)kc.batches_written);
    metric(b, "rocklake_store_scans_total", "counter", "Range scans.", (long long)kc.scans);
    metric(b, "rocklake_store_gets_total", "counter", "Point reads.", (long long)kc.gets);
    metric(b, "rocklake_store_keys_read_total", "counter", "Keys read by scans and gets.",
           (long long)kc.keys_read);
    lake_totals t;
    memset(&t, 0, sizeof t);
    srv_lakes_each_catalog(lakes, add_lake, &t);
    metric(b, "rocklake_sequence_commits_enabled", "gauge",
           "Open lakes whose commits are sequenced (--sequence-commits on).",
           (long long)t.sequencing);
    metric(b, "rocklake_sequenced_commits_total", "counter",
           "DuckLake appends that lost the race for their snapshot id and were placed on top "
           "of the winners instead of failing.",
           (long long)t.seq.rebased);
    metric(b, "rocklake_sequence_rebase_distance_total", "counter",
           "Snapshots the sequenced commits moved over (with the count: the mean distance).",
           (long long)t.seq.distance);
    rl_buf_printf(b,
                  "# HELP rocklake_sequence_rebase_seconds_total Time spent rebasing, under the "
                  "commit lock.\n# TYPE rocklake_sequence_rebase_seconds_total counter\n"
                  "rocklake_sequence_rebase_seconds_total %.6f\n",
                  (double)t.seq.rebase_ns / 1e9);
    rl_buf_printf(b, "# HELP rocklake_sequence_fallbacks_total Lost races sequencing did not "
                     "rebase, by reason: the client got 23505 and retried, as without it.\n"
                     "# TYPE rocklake_sequence_fallbacks_total counter\n");
    for (size_t i = 1; rl_sequence_reason_name(i); i++)
        rl_buf_printf(b, "rocklake_sequence_fallbacks_total{reason=\"%s\"} %llu\n",
                      rl_sequence_reason_name(i), (unsigned long long)t.seq.fallbacks[i]);
    /* Cumulative buckets, as put_histogram writes them; no _sum (kv
     * counts flushes per bucket only). Open lakes only, as above. */
    rl_buf_printf(b, "# HELP rocklake_commit_group_size Writes (commits, and the writer "
                     "lease's) that one store flush made durable together (group commit).\n"
                     "# TYPE rocklake_commit_group_size histogram\n");
    unsigned long long cum = 0;
    for (size_t i = 0; i < RL_COMMIT_GROUP_BUCKETS; i++) {
        cum += t.groups[i];
        if (i + 1 < RL_COMMIT_GROUP_BUCKETS)
            rl_buf_printf(b, "rocklake_commit_group_size_bucket{le=\"%u\"} %llu\n", 1u << i, cum);
        else
            rl_buf_printf(b, "rocklake_commit_group_size_bucket{le=\"+Inf\"} %llu\n", cum);
    }
    rl_buf_printf(b, "rocklake_commit_group_size_count %llu\n", cum);
    static const struct {
        const char *name, *help;
        size_t off;
    } ct[] = {
        {"rocklake_commit_lock_wait_seconds_total",
         "Time commits waited for the commit lock.", offsetof(rl_commit_times, lock_wait_ns)},
        {"rocklake_commit_lock_held_seconds_total",
         "Time commits held the commit lock (validation, a sequenced commit's rebase, the "
         "memtable write).",
         offsetof(rl_commit_times, lock_held_ns)},
        {"rocklake_commit_gather_seconds_total",
         "Time group commit leaders waited for their group to gather before flushing.",
         offsetof(rl_commit_times, gather_ns)},
        {"rocklake_commit_flush_seconds_total",
         "Time group commit leaders spent in store flushes (one per group; "
         "rocklake_commit_group_size_count counts them).",
         offsetof(rl_commit_times, flush_ns)},
        {"rocklake_snapshot_wait_seconds_total",
         "Time transactions waited, before their first read, for commits in flight to become "
         "durable (no durable view to read instead).",
         offsetof(rl_commit_times, snapshot_wait_ns)},
    };
    metric(b, "rocklake_snapshot_waits_total", "counter",
           "Transactions whose snapshot waited for commits in flight to become durable before "
           "its first read.",
           (long long)t.times.snapshot_waits);
    for (size_t i = 0; i < sizeof ct / sizeof ct[0]; i++) {
        uint64_t ns;
        memcpy(&ns, (const char *)&t.times + ct[i].off, sizeof ns);
        rl_buf_printf(b, "# HELP %s %s\n# TYPE %s counter\n%s %.6f\n", ct[i].name, ct[i].help,
                      ct[i].name, ct[i].name, (double)ns / 1e9);
    }
    metric(b, "rocklake_memory_catalog_bytes", "gauge",
           "Memory holding open lakes' catalogs for reads (--mirror-mb).",
           (long long)t.mirror_bytes);
    metric(b, "rocklake_memory_catalog_abandoned", "gauge",
           "Open lakes whose in-memory catalog outgrew --mirror-mb or ran out of memory "
           "while open: they read SlateDB until reopened.",
           (long long)t.abandoned);
    metric(b, "rocklake_lakes_retired", "gauge",
           "Lakes replaced after their object store failed and not closed yet: sessions "
           "opened before still hold them.",
           (long long)srv_lakes_retired(lakes));
    rl_buf_printf(b, "# HELP rocklake_lake_state Open lakes by state: 1 for the state each "
                     "is in (writable, following, fenced, failed), 0 for the others.\n"
                     "# TYPE rocklake_lake_state gauge\n");
    srv_lakes_each_state(lakes, put_lake_state, b);
    rl_buf_printf(b, "# HELP rocklake_follower_poll_interval_seconds Followers on an object "
                     "store: how long each waits now between its requests for new commits "
                     "(--follower-poll-max-ms once idle).\n"
                     "# TYPE rocklake_follower_poll_interval_seconds gauge\n");
    srv_lakes_each_backoff(lakes, put_backoff, &(backoff_line){b, false});
    rl_buf_printf(b, "# HELP rocklake_follower_idle Followers on an object store: 1 when it "
                     "has seen no commit for a while and polls the store less often, 0 when it "
                     "follows at its fast pace.\n# TYPE rocklake_follower_idle gauge\n");
    srv_lakes_each_backoff(lakes, put_backoff, &(backoff_line){b, true});
    rc_stats rs;
    rc_get_stats(results, &rs);
    metric(b, "rocklake_result_cache_hits_total", "counter",
           "Catalog-discovery SELECTs answered from kept bytes (--result-cache-mb).",
           (long long)rs.hits);
    metric(b, "rocklake_result_cache_misses_total", "counter",
           "Catalog-discovery SELECTs computed because no kept answer matched.",
           (long long)rs.misses);
    metric(b, "rocklake_result_cache_evictions_total", "counter",
           "Kept answers dropped to stay within --result-cache-mb.", (long long)rs.evictions);
    metric(b, "rocklake_result_cache_bytes", "gauge", "Bytes of kept answers.",
           (long long)rs.bytes);
    metric(b, "rocklake_result_cache_entries", "gauge", "Kept answers.", (long long)rs.entries);
}

/* A JSON string (the names here are identifiers, but escape anyway). */
static void json_str(rl_buf *b, const char *s)
{
    rl_buf_put_u8(b, '"');
    for (; *s; s++) {
        if (*s == '"' || *s == '\\')
            rl_buf_put_u8(b, '\\');
        if ((unsigned char)*s < 0x20)
            rl_buf_printf(b, "\\u%04x", (unsigned char)*s);
        else
            rl_buf_put_u8(b, (uint8_t)*s);
    }
    rl_buf_put_u8(b, '"');
}

typedef struct ready_scan {
    rl_buf *lakes;  /* "name": "state", ... */
    size_t n;
    bool read_only;
    bool ready;
} ready_scan;

static void ready_lake(void *ctx, const char *name, srv_lake_state st)
{
    ready_scan *r = ctx;
    bool ok = r->read_only ? st == SRV_LAKE_FOLLOWING : st == SRV_LAKE_WRITABLE;
    r->ready &= ok;
    if (r->n++)
        rl_buf_put_str(r->lakes, ", ");
    json_str(r->lakes, name);
    rl_buf_put_str(r->lakes, ": ");
    json_str(r->lakes, srv_lake_state_name(st));
}

/* /ready: {"status": "ready" | "not ready", "role": ..., "lakes": {...},
 * "problems": [...]} and whether it is ready. */
static bool render_ready(srv_lakes *lakes, const srv_probe_state *p, rl_buf *body)
{
    rl_buf lk, problems;
    rl_buf_init(&lk, 0);
    rl_buf_init(&problems, 0);
    ready_scan r = {&lk, 0, p->read_only, true};
    srv_lakes_each_state(lakes, ready_lake, &r);
    size_t np = 0;
    char why[512];
    if (!p->listening) {
        rl_buf_put_str(&problems, "\"not listening\"");
        np++;
    }
    if (p->stopping) {
        rl_buf_printf(&problems, "%s\"stopping\"", np++ ? ", " : "");
    }
    if (!srv_lakes_root_reachable(lakes, why, sizeof why)) {
        rl_buf_put_str(&problems, np++ ? ", " : "");
        json_str(&problems, why);
    }
    if (!r.ready)
        rl_buf_printf(&problems, "%s\"a lake is not %s\"", np++ ? ", " : "",
                      p->read_only ? "following" : "writable");
    bool ready = np == 0;
    rl_buf_printf(body, "{\"status\": \"%s\", \"role\": \"%s\", \"lakes\": {",
                  ready ? "ready" : "not ready", p->read_only ? "follower" : "writer");
    rl_buf_put(body, lk.data, lk.len);
    rl_buf_put_str(body, "}, \"problems\": [");
    rl_buf_put(body, problems.data, problems.len);
    rl_buf_put_str(body, "]}\n");
    rl_buf_free(&lk);
    rl_buf_free(&problems);
    return ready;
}

static bool is_get(const char *req, const char *path)
{
    size_t n = strlen(path);
    return strncmp(req, "GET ", 4) == 0 && strncmp(req + 4, path, n) == 0 &&
           (req[4 + n] == ' ' || req[4 + n] == '?');
}

void srv_metrics_serve(srv_metrics *m, srv_lakes *lakes, rc_cache *results,
                       const srv_probe_state *probe, int fd)
{
    struct timeval tv = {.tv_sec = 2};
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof tv);
    char req[2048];
    ssize_t n = recv(fd, req, sizeof req - 1, 0);
    req[n > 0 ? n : 0] = '\0';
    rl_buf body, resp;
    rl_buf_init(&body, 0);
    rl_buf_init(&resp, 0);
    const char *status = "200 OK", *type = "text/plain; version=0.0.4";
    if (is_get(req, "/metrics")) {
        render_metrics(m, lakes, results, &body);
    } else if (is_get(req, "/health")) {
        type = "application/json";
        rl_buf_put_str(&body, "{\"status\": \"ok\"}\n");
    } else if (is_get(req, "/ready")) {
        type = "application/json";
        if (!render_ready(lakes, probe, &body))
            status = "503 Service Unavailable";
    } else {
        status = "404 Not Found";
        rl_buf_put_str(&body, "not found: try GET /metrics, /health or /ready\n");
    }
    rl_buf_printf(&resp,
                  "HTTP/1.1 %s\r\nContent-Type: %s\r\n"
                  "Content-Length: %zu\r\nConnection: close\r\n\r\n",
                  status, type, body.len);
    rl_buf_put(&resp, body.data, body.len);
    if (!resp.failed)
        (void)!send(fd, resp.data, resp.len, MSG_NOSIGNAL);
    rl_buf_free(&body);
    rl_buf_free(&resp);
    close(fd);
}
