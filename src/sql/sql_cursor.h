/*
 * sql_cursor.h — SQL-level cursors (sql_cursor.c), private to src/sql/:
 * DECLARE, FETCH / MOVE, CLOSE, and how cursors follow the transaction
 * (closed at its end unless WITH HOLD; dropped by ROLLBACK, ROLLBACK TO of
 * an earlier savepoint and DISCARD ALL).
 *
 * Invariant: a cursor's rows are materialized once, at DECLARE, with the
 * snapshot of the statement that declared it (what PostgreSQL's cursor
 * reads); the rows of all the session's cursors together stay within the
 * engine's result budget (54000 at DECLARE past it).
 */
#ifndef ROCKLAKE_SQL_CURSOR_H
#define ROCKLAKE_SQL_CURSOR_H

#include <pg_query/pg_query.pb-c.h>

#include "sql/sql_exec.h"

/* DECLARE name [BINARY] [ASENSITIVE | INSENSITIVE] [[NO] SCROLL] CURSOR
 * [WITH[OUT] HOLD] FOR query, with PostgreSQL's checks and errors;
 * "DECLARE CURSOR". in_block: the statement runs in a transaction block
 * (an explicit one, or a multi-statement query string). */
int rl_cursor_declare(rl_exec *x, const PgQuery__DeclareCursorStmt *st, bool in_block);
/* FETCH / MOVE in every direction PostgreSQL's grammar has: the rows
 * (RowDescription first) and "FETCH n", or "MOVE n". */
int rl_cursor_fetch(rl_exec *x, const PgQuery__FetchStmt *st);
/* CLOSE name | ALL: "CLOSE CURSOR" (34000 for a name none has). */
int rl_cursor_close(rl_exec *x, const PgQuery__ClosePortalStmt *st);
/* The session's cursor of that name, or NULL. */
rl_cursor *rl_cursor_find(rl_session *s, const char *name);
/* The transaction ended: a COMMIT keeps the WITH HOLD cursors (now held)
 * and closes the others; a rollback closes every cursor it declared. */
void rl_cursor_txn_end(rl_session *s, bool committed);
/* ROLLBACK TO a savepoint begun as number `savepoint`: the cursors
 * declared since are closed. */
void rl_cursor_rollback_to(rl_session *s, uint64_t savepoint);
/* Close every cursor (DISCARD ALL, the session's end). */
void rl_cursor_close_all(rl_session *s);

#endif
