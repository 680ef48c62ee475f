/*
 * sql_lakes.h — which lake a statement runs on, and the session's
 * transaction on each lake (sql_lakes.c), private to src/sql/.
 */
#ifndef ROCKLAKE_SQL_LAKES_H
#define ROCKLAKE_SQL_LAKES_H

#include <pg_query/pg_query.pb-c.h>

#include "sql/sql_exec.h"

/* Make the engine of the lake that holds the statement's relations the
 * session's current one (s->eng, s->txn): the database's own, or the store
 * of a further DuckLake metadata schema. A statement naming relations of
 * two lakes is refused (0A000). Statements without relations run on the
 * database's own lake. */
int rl_lakes_route(rl_exec *x, const PgQuery__Node *stmt);
/* Store s->txn back into its slot (before ending or walking transactions). */
void rl_lakes_save(rl_session *s);
/* Is a catalog transaction open on any lake? */
bool rl_lakes_any_txn(rl_session *s);
/* For pg_catalog: fn with the transaction (begun on first use) and format
 * of every lake of the database except the current statement's. */
int rl_lakes_each_other(rl_exec *x, int (*fn)(void *ctx, rl_txn *t, rl_format fmt), void *ctx);

#endif
