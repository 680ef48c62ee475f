/*
 * fuzz_watchdog.h — the statement timeout of the SQL fuzz targets.
 *
 * A server cancels a statement past its statement_timeout from its
 * watchdog thread (src/server/backends.c); the fuzz targets run the engine
 * without a server, so an input such as `select pg_sleep(1e9)` or a huge
 * generate_series would run past libFuzzer's -timeout and be reported as
 * a hang. This thread does what the server's does: every 50 ms it cancels
 * the watched session's running statement once it has run for 1 s (a
 * cancel of an idle session is ignored by the engine, then re-armed).
 * Included by fuzz_sql.c and fuzz_sql_deep.c only.
 */
#ifndef ROCKLAKE_FUZZ_WATCHDOG_H
#define ROCKLAKE_FUZZ_WATCHDOG_H

#include <pthread.h>
#include <time.h>

#include "base/buf.h"
#include "sql/sql.h"

#define WATCHDOG_LIMIT_NS 1000000000ull

static pthread_mutex_t watchdog_mu = PTHREAD_MUTEX_INITIALIZER;
static rl_session *watched;
static uint64_t watched_since;

static void *watchdog_main(void *arg)
{
    (void)arg;
    for (;;) {
        struct timespec d = {.tv_sec = 0, .tv_nsec = 50000000L};
        nanosleep(&d, NULL);
        pthread_mutex_lock(&watchdog_mu);
        uint64_t now = rl_monotonic_ns();
        if (watched && now - watched_since > WATCHDOG_LIMIT_NS) {
            rl_session_cancel(watched);
            watched_since = now;
        }
        pthread_mutex_unlock(&watchdog_mu);
    }
    return NULL;
}

static void watchdog_start_once(void)
{
    pthread_t t;
    if (pthread_create(&t, NULL, watchdog_main, NULL) == 0)
        pthread_detach(t);
}

/* Watch s (NULL: none) from now on; starts the thread on first use. The
 * caller clears the watch before it frees the session. */
static void watchdog_watch(rl_session *s)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_mutex_lock(&watchdog_mu);
    watched = s;
    watched_since = rl_monotonic_ns();
    pthread_mutex_unlock(&watchdog_mu);
    pthread_once(&once, watchdog_start_once);
}

#endif
