/*
 * sql_expr.h — expressions (sql_expr.c), private to src/sql/: evaluation,
 * predicates, comparison, result column names, the plan-time checks of a
 * WHERE, aggregates. The evaluation context is sql_cast.h's.
 */
#ifndef ROCKLAKE_SQL_EXPR_H
#define ROCKLAKE_SQL_EXPR_H

#include <pg_query/pg_query.pb-c.h>

#include "sql/sql_cast.h"

/* Evaluate `node` to *out. Unknown-typed literals stay RL_OID_UNKNOWN (text)
 * until coerced, as in PostgreSQL. */
int rl_expr_eval(rl_expr_ctx *c, const PgQuery__Node *node, rl_value *out);
/* Evaluate a predicate: 1 true, 0 false or NULL, -1 error. */
int rl_expr_truth(rl_expr_ctx *c, const PgQuery__Node *node);
/* PostgreSQL comparison of two non-NULL values (after resolving unknown
 * literals against the other side): <0, 0, >0; -1 + err on incomparable
 * types (42883). */
int rl_value_cmp(rl_expr_ctx *c, const rl_value *a, const rl_value *b, int *result,
                 int location);
/* Can values of type oid be sorted (ordering) or grouped (equality) by a
 * clause (ORDER BY, GROUP BY, DISTINCT, a window's or an aggregate's
 * ORDER BY, UNION)? 0, or PostgreSQL's 42883 "could not identify an
 * ordering / equality operator for type json" at loc: json has neither. */
int rl_sortable_type(rl_exec *x, uint32_t oid, bool ordering, int loc);
/* Output column name PostgreSQL gives an expression without alias
 * ("?column?", function name, column name, "max", "version", ...). */
void rl_expr_default_name(const PgQuery__Node *node, char *out, size_t n);
/* The input column a bare ColumnRef names in b's innermost row set (for
 * RowDescription's table oid / attnum), or NULL. */
const rl_colmeta *rl_expr_column(const rl_binding *b, const PgQuery__Node *node);
/* Common type of two (CASE/COALESCE/VALUES/UNION): unknown yields to the
 * other, numbers widen, text-likes keep the first, arrays as their
 * elements (int4[] and numeric[]: numeric[]), else the first. */
uint32_t rl_common_type(uint32_t a, uint32_t b);
/* The same, or PostgreSQL's 42804 "<context> types a and b cannot be
 * matched" when they are of different categories (string, number, bool,
 * date/time, ...), as select_common_type; two arrays whose elements do not
 * meet: 42846 "<context> could not convert type b to a" (CASE/WHEN for a
 * CASE), as coerce_to_common_type. 0 or -1. */
int rl_common_type_of(rl_expr_ctx *c, uint32_t a, uint32_t b, const char *context, int location,
                      uint32_t *out);
/* What PostgreSQL checks while planning: every unknown-typed literal that
 * a comparison (=, <>, <, >, <=, >=, IN list, BETWEEN) in the AND/OR/NOT
 * tree `node` sets against a non-text column of c->b's query level must be
 * valid input for that column's type (22P02 ... even if no row is ever
 * evaluated). 0 ok, -1 error. */
int rl_expr_check_literals(rl_expr_ctx *c, const PgQuery__Node *node);
/* What PostgreSQL finds wrong with a WHERE condition while planning, so also
 * when no row is read and whichever AND / OR operand decides first: the
 * literals above (22P02), unknown names (42703 / 42P01), a condition that
 * is not boolean (42804). c->b must bind typing rows (see sql_expr.c); the
 * condition is evaluated on them once, in typing mode. 0 ok, -1 error. */
int rl_expr_check_where(rl_expr_ctx *c, const PgQuery__Node *where);
/* Free a session's cache of subquery result types (sql_expr.c). */
void rl_expr_free_subtypes(rl_session *s);
/* Evaluate aggregate call f over the rows of c->agg as if it had no OVER
 * clause (a window's frame, sql_window.c). */
int rl_expr_eval_aggregate(rl_expr_ctx *c, const PgQuery__FuncCall *f, rl_value *out);
/* Aggregate call f (count, sum, min, max, bool_and, bool_or, ...) over
 * values already evaluated: vals[0 .. n) of type `type` (count(*): n); for
 * the two-argument corr / covar_* / regr_* the pairs interleaved, (y, x) at
 * vals[2i], vals[2i+1]. A window over grouped rows aggregates its
 * arguments' values per group this way. */
int rl_expr_aggregate_values(rl_expr_ctx *c, const PgQuery__FuncCall *f, rl_value *vals, size_t n,
                             uint32_t type, rl_value *out);
/* Is the node a call of an aggregate we implement (count/max/min/sum/...)? */
bool rl_expr_is_aggregate(const PgQuery__Node *node);
/* A set-returning function call a target list expands (generate_series,
 * unnest), as opposed to a scalar function or an aggregate. */
bool rl_expr_is_srf(const PgQuery__FuncCall *f);
/* The arguments of a call of a set-returning text or json function
 * (rl_func_is_setfn: at most 3) evaluated into a, with where each
 * literal is (locs, -1 for none); `name => value` ones placed by
 * rl_func_arrange (their places not followed), which may fill defaults
 * (*n: the count after). 0, or -1 with the error. */
int rl_expr_setfn_args(rl_expr_ctx *c, const PgQuery__FuncCall *f, rl_value *a, int *locs,
                       size_t *n);
/* A set-returning function of records served in FROM only (ts_token_type,
 * pg_options_to_table, pg_partition_tree; 0A000 in a target list). */
bool rl_expr_is_record_srf(const char *name);
/* No column, parameter, subquery or function call in it: what PostgreSQL's
 * planner folds to one value. */
bool rl_expr_is_constant(const PgQuery__Node *node);
/* information_schema._pg_expandarray(anyarray): a set-returning call of
 * records (x, n): each element and its 1-based position. */
bool rl_expr_is_expandarray(const PgQuery__FuncCall *f);
/* One record (x, n) of it (n < 0: NULL n, the typing row's); out may be x. */
int rl_expr_expandarray_row(rl_expr_ctx *c, const rl_value *x, int32_t n, rl_value *out);

#endif
