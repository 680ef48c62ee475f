/*
 * sql_array.h — the function table's array functions and the array
 * operators (sql_array.c), private to src/sql/: array_append / prepend /
 * cat / remove / replace / position(s) / fill, trim_array, string_to_array,
 * containment and overlap (@> <@ &&) and the order of arrays (btarraycmp).
 *
 * Arrays are one-dimensional with lower bound 1, kept in their text form
 * (sql_value.h); every array these functions make is written as array_out
 * writes it.
 */
#ifndef ROCKLAKE_SQL_ARRAY_H
#define ROCKLAKE_SQL_ARRAY_H

#include "sql/sql_cast.h"

/* The elements of a non-NULL array (or vector) as values of its element
 * type, in the evaluation arena: 0 with *vals (n of them), or -1. */
int rl_array_decode(rl_expr_ctx *c, const rl_value *arr, rl_value **vals, size_t *n, int loc);
/* PostgreSQL's btarraycmp of two non-NULL arrays of one type: element by
 * element (a NULL element equals a NULL one and sorts after any value),
 * then the shorter first. *res <0, 0, >0; -1 with the error set. */
int rl_array_cmp(rl_expr_ctx *c, const rl_value *a, const rl_value *b, int *res, int loc);
/* a @> b (op '>'), a <@ b ('<'), a && b ('&'), arrays of one type, neither
 * NULL: a NULL element matches nothing. */
int rl_array_contains(rl_expr_ctx *c, char op, const rl_value *a, const rl_value *b, bool *res,
                      int loc);

/* Implementations of sql_functab.inc (out arrives as a NULL of the call's
 * resolved result type: its oid is the array type to make). */
int rl_fn_array_append(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_array_prepend(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_array_cat(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_array_remove(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_array_replace(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_array_position(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
/* width_bucket(x, thresholds[]): how many thresholds are <= x, by binary
 * search of the (ascending) thresholds; 22004 if one is NULL. */
int rl_fn_width_bucket_array(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_array_positions(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_array_fill(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_trim_array(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_string_to_array(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
/* string_to_table(s, delimiter [, null string]): the pieces string_to_array
 * makes, one text value each, in *vals (arena); no rows for a NULL s. */
int rl_string_to_pieces(rl_expr_ctx *c, size_t n, const rl_value *a, rl_value **vals,
                        size_t *count, int loc);

#endif
