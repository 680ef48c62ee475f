/*
 * sql_select.h — SELECT (sql_select.c), private to src/sql/: run into a row
 * set, send, stream, type or describe a SELECT; VALUES lists.
 */
#ifndef ROCKLAKE_SQL_SELECT_H
#define ROCKLAKE_SQL_SELECT_H

#include <pg_query/pg_query.pb-c.h>

#include "sql/sql_cast.h"
#include "sql/sql_scan.h"

/* Run a SELECT into a row set (with column names/types). `outer` gives
 * correlated subqueries access to enclosing rows (may be NULL). */
rl_rowset *rl_select_run(rl_exec *x, const PgQuery__SelectStmt *st, const rl_binding *outer);
/* Run a SELECT and send RowDescription, DataRows, CommandComplete: rows
 * stream from the scan to the sink when rl_select_stream serves the shape,
 * else the result is materialized under the statement's result budget. */
int rl_select_send(rl_exec *x, const PgQuery__SelectStmt *st);
/* The streamed part of that: 1 when the rows (and CommandComplete) went
 * out, 0 when the shape needs rl_select_run (nothing was sent), -1 on
 * error. row_description false: not even RowDescription (Execute). */
int rl_select_send_streamed(rl_exec *x, const PgQuery__SelectStmt *st, bool row_description);
/* The shape rl_select_stream serves (its result columns are those of
 * rl_select_type, so Describe need not run it). */
bool rl_select_streamable(const PgQuery__SelectStmt *st);
/* Only the result columns (names and types) of a SELECT, with no rows:
 * FROM is read but WHERE and the projection are not evaluated. What a
 * scalar subquery needs while its enclosing query types its targets. */
rl_rowset *rl_select_type(rl_exec *x, const PgQuery__SelectStmt *st, const rl_binding *outer);
/* A subquery of an expression evaluated in c (a sublink): run it, or with
 * type_only only type it as rl_select_type does. Its outer rows are c->b,
 * and the WITH queries in c's scope are visible in it, at any depth, as in
 * PostgreSQL (`... IN (SELECT x FROM cte)`). */
rl_rowset *rl_select_subquery(rl_expr_ctx *c, const PgQuery__SelectStmt *st, bool type_only);
/* Row description of a SELECT without running it (extended-protocol
 * Describe). */
rl_rowset *rl_select_describe(rl_exec *x, const PgQuery__SelectStmt *st);
/* Run `SELECT col, ... FROM stored_table [WHERE ...]` without building row
 * sets: each stored row is filtered and its columns handed to `out` as the
 * scan reads it. Returns 1 when done (*nrows rows sent), -1 on error, and 0
 * without doing anything when the query has another shape (joins, sorting,
 * grouping, expressions, ctid, temp or catalog tables, ...): run it with
 * rl_select_run then. Answers and errors are those of rl_select_run. */
int rl_select_stream(rl_exec *x, const PgQuery__SelectStmt *st, const rl_row_stream *out,
                     size_t *nrows);
/* RETURNING: the list `targets` evaluated over `rows`, the rows an
 * INSERT / UPDATE / DELETE wrote (with the columns of its FROM / USING
 * items after the target's), each column named by its own relation, as a
 * SELECT over them would; 42803 for an aggregate. With no rows it gives
 * the result's columns (Describe, and the check made before writing). */
rl_rowset *rl_select_returning(rl_exec *x, PgQuery__Node **targets, size_t ntargets,
                               rl_rowset *rows);
/* Send RowDescription, rs's rows as DataRows and CommandComplete `tag`. */
int rl_select_send_rows(rl_exec *x, rl_rowset *rs, const char *tag);
/* Send only the RowDescription of rs's columns. */
int rl_select_send_description(rl_exec *x, const rl_rowset *rs);
/* Evaluate a VALUES list (values_stmt->values_lists) into a row set whose
 * columns are named colnames[i] (or column1, column2, ...) with relation
 * alias `alias`; column types are resolved as PostgreSQL resolves VALUES
 * (common type; all-unknown -> text). */
rl_rowset *rl_values_run(rl_exec *x, const PgQuery__SelectStmt *values_stmt, const char *alias,
                         char **colnames, size_t ncolnames);

#endif
