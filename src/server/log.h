/*
 * log.h — the structured log lines of `rocklake serve`.
 *
 * Owns: the one format of every line the server writes to stderr: text
 * "TIMESTAMP LEVEL EVENT key=value ..." (a value that would not read back as
 * one token is quoted and escaped as in JSON) or, with --log-format json,
 * one JSON object per line ({"ts":..,"level":..,"event":.., key: value}).
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

#include "server/server.h"

/* The server's logger (a field of rl_server, set up by rl_server_new). */
typedef struct srv_logger {
    bool json;
    pthread_mutex_t mu;
} srv_logger;

void srv_logger_init(srv_logger *l, bool json);
void srv_logger_destroy(srv_logger *l);

/* One log line: text "event key=value ..." or one JSON object. Pairs are
 * (key, value) const char * pointers ending with NULL. srv may be NULL
 * (text, before a server exists). */
void srv_log(rl_server *srv, const char *level, const char *event, ...);
/* --log-min-duration-statement: should a statement this long be logged? */
bool srv_statement_is_slow(rl_server *srv, double seconds);

#endif
