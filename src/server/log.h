/*
 * log.h — the structured log lines of `rocklake serve`.
 *
 * Owns: the one format of every line the server writes to stderr: text
 * "TIMESTAMP LEVEL EVENT key=value ..." (a value that would not read back as
 * one token is quoted and escaped as in JSON) or, with --log-format json,
 * one JSON object per line ({"ts":..,"level":..,"event":.., key: value}).
 *
 * Interface: whoever logs is handed the srv_logger (the server owns it and
 * sets it up); nothing here knows the server.
 *
 * Invariants:
 *  - a line is built whole in memory and written with one fwrite under the
 *    logger's mutex, so lines of concurrent threads never interleave;
 *  - a line that could not be built (out of memory) is dropped, never cut.
 */
#ifndef ROCKLAKE_LOG_H
#define ROCKLAKE_LOG_H

#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>

/* The server's logger (a field of rl_server, set up by rl_server_new and
 * lent to the server's other parts, which it outlives). */
typedef struct srv_logger {
    bool json;               /* --log-format json */
    int64_t min_duration_ms; /* --log-min-duration-statement; -1 = off */
    bool error_statement;    /* --log-min-error-statement at ERROR or below: a
                                failed statement's text goes with its error */
    pthread_mutex_t mu;
} srv_logger;

void srv_logger_init(srv_logger *l, bool json, int64_t min_duration_ms, bool error_statement);
void srv_logger_destroy(srv_logger *l);

/* One log line: text "event key=value ..." or one JSON object. Pairs are
 * (key, value) const char * pointers ending with NULL. l may be NULL
 * (text, before a server exists). */
void srv_log(srv_logger *l, const char *level, const char *event, ...);
/* --log-min-duration-statement: should a statement this long be logged? */
bool srv_statement_is_slow(const srv_logger *l, double seconds);

#endif
