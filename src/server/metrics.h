/*
 * metrics.h — the Prometheus endpoint of `rocklake serve` (--metrics).
 *
 * Owns: the server's counters and latency histograms, and the text
 * exposition format of GET /metrics: those, the process-wide store counters
 * and the per-lake gauges (commit sequencing, in-memory catalogs, a
 * follower's idle backoff), which it asks the catalog layer for
 * (catalog.h), never the store.
 *
 * Interface: whoever counts is handed the srv_metrics (the server owns it);
 * GET /metrics is handed the lakes registry and the result cache, whose
 * figures it adds. Nothing here knows the server.
 *
 * Invariants:
 *  - counters and histogram buckets are atomics: counting never takes a
 *    lock and never blocks a session;
 *  - metric names, types and help texts are an interface (dashboards,
 *    tests/wire): a rename is a breaking change;
 *  - a request is answered once, on its own thread, and its socket closed.
 */
#ifndef ROCKLAKE_METRICS_H
#define ROCKLAKE_METRICS_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

struct srv_lakes;
struct rc_cache;

typedef enum srv_counter {
    M_CONNECTIONS_TOTAL,
    M_CONNECTIONS_ACTIVE,
    M_AUTH_FAILURES,
    M_STATEMENTS,
    M_ERRORS,
    M_COMMITS,
    M_CONFLICTS,
    M_CANCELS,
    M_PROTOCOL_ERRORS,
    M_BUSY_POLL_HITS,
    M_BUSY_POLL_MISSES,
    M_READY_FOR_QUERY,
    M__COUNT
} srv_counter;

#define SRV_HIST_BUCKETS 12

/* A latency histogram (Prometheus style, seconds). */
typedef struct srv_histogram {
    const double *bounds; /* SRV_HIST_BUCKETS upper bounds */
    atomic_llong counts[SRV_HIST_BUCKETS + 1];
    atomic_llong sum_us;
} srv_histogram;

/* The server's metrics (a field of rl_server, set up by rl_server_new and
 * lent to the server's other parts, which it outlives). */
typedef struct srv_metrics {
    atomic_llong counters[M__COUNT];
    srv_histogram commit_latency;
    srv_histogram statement_latency;
    srv_histogram round_trip_latency;
} srv_metrics;

void srv_metrics_init(srv_metrics *m);

void srv_count(srv_metrics *m, srv_counter which, int64_t delta);
void srv_observe_commit(srv_metrics *m, double seconds);
void srv_observe_statement(srv_metrics *m, double seconds);
/* A round trip answered: from its first message to its ReadyForQuery. */
void srv_observe_round_trip(srv_metrics *m, double seconds);

/* What the health probes need to know of the server beyond its lakes. */
typedef struct srv_probe_state {
    bool listening; /* the PostgreSQL port is open */
    bool stopping;  /* draining after SIGTERM: no longer ready */
    bool read_only; /* a follower: its lakes should be following */
} srv_probe_state;

/* Answer one HTTP request of the metrics listener on fd, then close fd:
 * GET /metrics (lakes: the open lakes' gauges; results: the result cache's
 * figures, NULL: caching off, all zero); GET /health (200 while the process
 * answers); GET /ready (200 when listening, not stopping, the store root
 * reachable and every open lake writable, or following for a follower;
 * else 503), each with a JSON body; anything else 404. Never waits on a
 * store. */
void srv_metrics_serve(srv_metrics *m, struct srv_lakes *lakes, struct rc_cache *results,
                       const srv_probe_state *probe, int fd);

#endif
