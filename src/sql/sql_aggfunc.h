/*
 * sql_aggfunc.h — the computations of the statistical, bitwise and
 * ordered-set aggregates (sql_aggfunc.c), private to src/sql/: sql_expr.c
 * collects a group's argument values (FILTER, DISTINCT and sorting done)
 * and hands them here.
 */
#ifndef ROCKLAKE_SQL_AGGFUNC_H
#define ROCKLAKE_SQL_AGGFUNC_H

#include <stdbool.h>
#include <stddef.h>

#include "sql/sql_cast.h"

/* bit_and / bit_or / bit_xor (op '&', '|', '#') of the non-NULL integers of
 * vals[0..n), all of type `type` (int2, int4, int8): that type, NULL for
 * none. */
void rl_agg_bits(char op, const rl_value *vals, size_t n, uint32_t type, rl_value *out);

/* Is name one of variance, var_samp, var_pop, stddev, stddev_samp,
 * stddev_pop? */
bool rl_agg_is_variance(const char *name);
/* That aggregate of vals[0..n) of type `type`: numeric for integers and
 * numerics (sql_numeric.c), float8 for floats (float.c's Youngs-Cramer
 * sums); 42725 for unknown, 42883 for other types. */
int rl_agg_variance(rl_expr_ctx *c, const char *name, const rl_value *vals, size_t n,
                    uint32_t type, rl_value *out, int loc);

/* Is name one of corr, covar_pop, covar_samp, regr_*? */
bool rl_agg_is_regression(const char *name);
/* That aggregate of the pairs (ys[i], xs[i]) of float8 (either NULL: the
 * row is skipped): float8, regr_count int8. */
int rl_agg_regression(rl_expr_ctx *c, const char *name, const rl_value *ys, const rl_value *xs,
                      size_t n, rl_value *out);

/* percentile_cont at fraction frac (checked by the caller) of the sorted
 * non-NULL float8 or interval values sorted[0..n), n > 0: the linear
 * interpolation between the two nearest rows, as orderedsetaggs.c. */
int rl_agg_percentile_cont(rl_expr_ctx *c, const rl_value *sorted, size_t n, double frac,
                           rl_value *out, int loc);
/* percentile_disc's row (0-based) of n > 0 sorted rows at fraction frac:
 * the first whose cumulative position reaches frac. */
size_t rl_agg_percentile_disc_row(size_t n, double frac);
/* A fraction outside [0, 1] (or NaN): 22003 as PostgreSQL words it. */
int rl_agg_check_fraction(rl_expr_ctx *c, double frac);

#endif
