/*
 * sql_absent.h — DDL on kinds of object RockLake does not keep (views,
 * functions, types, extensions, triggers, ...): DROP as PostgreSQL answers
 * it when there is no such object, and the names of statements RockLake
 * does not run (sql_absent.c). Private to src/sql/.
 */
#ifndef ROCKLAKE_SQL_ABSENT_H
#define ROCKLAKE_SQL_ABSENT_H

#include <stdbool.h>

#include <pg_query/pg_query.pb-c.h>

#include "sql/sql_exec.h"

/* Is a DROP of this kind answered here? */
bool rl_absent_drop_kind(PgQuery__ObjectType type);
/* DROP of such a kind: 0 (NOTICEs and the command tag sent), -1 with
 * x's error set. The kind must be one rl_absent_drop_kind accepts. */
int rl_absent_drop(rl_exec *x, const PgQuery__DropStmt *st);
/* DROP SUBSCRIPTION (a statement of its own): none exists. */
int rl_absent_drop_subscription(rl_exec *x, const PgQuery__DropSubscriptionStmt *st);
/* A statement RockLake does not run, named as PostgreSQL's command tag
 * names it ("CREATE VIEW"); NULL for a kind not listed. */
const char *rl_absent_statement_name(const PgQuery__Node *n);

#endif
