/*
 * sql_resultkey.h — which SELECTs answer the same bytes while the lake's
 * relations stay the same, and their key (sql_resultkey.c), private to
 * src/sql/.
 */
#ifndef ROCKLAKE_SQL_RESULTKEY_H
#define ROCKLAKE_SQL_RESULTKEY_H

#include <pg_query/pg_query.pb-c.h>

#include "sql/sql_exec.h"

/* Offer a pure SELECT's key to the sink (rl_sink.cached_result): 1 when
 * the sink answered it, 0 to run it, -1 with x's error set. */
int rl_result_cache_probe(rl_exec *x, const PgQuery__SelectStmt *st);

#endif
