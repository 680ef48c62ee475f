/*
 * sql_numeric.h — PostgreSQL's numeric arithmetic (sql_numeric.c), private
 * to src/sql/: +, -, *, /, %, unary minus, round/trunc/ceil/floor/abs/sign,
 * and the sum and average of a group, with PostgreSQL 15's result scales,
 * rounding (half away from zero), special values (NaN, Infinity,
 * -Infinity) and errors.
 *
 * A numeric value is its canonical text in d.v.s (pgtype's numeric_out
 * form: "-12.340", "0", "NaN", "Infinity"); the display scale is the number
 * of digits after the point. Arithmetic runs on GMP integers scaled by
 * 10^dscale, so every answer is exact before its final rounding.
 */
#ifndef ROCKLAKE_SQL_NUMERIC_H
#define ROCKLAKE_SQL_NUMERIC_H

#include <stdbool.h>
#include <stdint.h>

#include "sql/sql_exec.h"

/* a op b for op in + - * / % where both are numbers and at least one is
 * numeric (integers are taken as numeric of scale 0; floats are not
 * accepted: float op numeric is float8 arithmetic, as in PostgreSQL). NULL
 * in, NULL numeric out. */
int rl_numeric_arith(rl_expr_ctx *c, char op, const rl_value *a, const rl_value *b,
                     rl_value *out, int loc);

/* -a of a numeric a (not NULL). */
int rl_numeric_negate(rl_expr_ctx *c, const rl_value *a, rl_value *out, int loc);

/* The rounding functions of a numeric (not NULL): */
typedef enum rl_numeric_round_kind {
    RL_NUMERIC_ROUND, /* round(x, s): half away from zero at s digits */
    RL_NUMERIC_TRUNC, /* trunc(x, s): toward zero */
    RL_NUMERIC_CEIL,  /* ceil(x): scale 0, toward +inf */
    RL_NUMERIC_FLOOR, /* floor(x): scale 0, toward -inf */
    RL_NUMERIC_ABS,   /* abs(x) */
    RL_NUMERIC_SIGN   /* sign(x): -1, 0, 1 (NaN stays NaN) */
} rl_numeric_round_kind;
int rl_numeric_round(rl_expr_ctx *c, rl_numeric_round_kind kind, const rl_value *a,
                     int64_t scale, rl_value *out, int loc);

/* sqrt(numeric): PostgreSQL's result scale (at least 16 significant
 * digits, at least the input's scale), rounded; 2201F for a negative x. */
int rl_numeric_sqrt(rl_expr_ctx *c, const rl_value *a, rl_value *out, int loc);
/* exp, ln, log(base, x) and power(x, y) of numerics (not NULL), digit
 * for digit PostgreSQL's: its result scales, the exact value rounded half
 * away from zero; 2201E / 2201F / 22003 / 22012 as numeric.c. */
int rl_numeric_exp(rl_expr_ctx *c, const rl_value *a, rl_value *out, int loc);
int rl_numeric_ln(rl_expr_ctx *c, const rl_value *a, rl_value *out, int loc);
int rl_numeric_log(rl_expr_ctx *c, const rl_value *base, const rl_value *a, rl_value *out,
                   int loc);
int rl_numeric_power(rl_expr_ctx *c, const rl_value *a, const rl_value *b, rl_value *out,
                     int loc);
/* div(a, b): the quotient truncated toward zero, scale 0. */
int rl_numeric_div_trunc(rl_expr_ctx *c, const rl_value *a, const rl_value *b, rl_value *out,
                         int loc);
/* scale(x): its display scale; trim_scale(x): x without trailing zeros. */
int rl_numeric_scale(rl_expr_ctx *c, const rl_value *a, rl_value *out, int loc);
int rl_numeric_trim_scale(rl_expr_ctx *c, const rl_value *a, rl_value *out, int loc);

/* generate_series(start, stop [, step]) of numerics: a[0..n) coerced to
 * numeric (n is 2 or 3; step 1 when absent, put in a[2]) and checked as
 * PostgreSQL checks them (22023: a NaN or infinite bound or step, a zero
 * step); *dir is +1 or -1. NULLs pass unchecked (the caller yields no
 * rows). */
int rl_numeric_series_prepare(rl_expr_ctx *c, rl_value *a, size_t n, int *dir, int loc);

/* Sum of the non-NULL values (int2/4/8 or numeric) of vals[0..n) as numeric
 * (NULL when there are none), and their average (sum / count with
 * numeric_div's scale). */
int rl_numeric_sum(rl_expr_ctx *c, const rl_value *vals, size_t n, rl_value *out, int loc);
int rl_numeric_avg(rl_expr_ctx *c, const rl_value *vals, size_t n, rl_value *out, int loc);

/* factorial(k): k! as numeric (22003 for a negative k or one above
 * 32177, whose factorial overflows the numeric format). */
int rl_numeric_factorial(rl_expr_ctx *c, int64_t k, rl_value *out, int loc);
/* width_bucket(operand, b1, b2, count) of numerics (not NULL, count > 0):
 * numeric.c's bucket, its errors (2201G) and 22003 beyond int4. */
int rl_numeric_width_bucket(rl_expr_ctx *c, const rl_value *operand, const rl_value *b1,
                            const rl_value *b2, int32_t count, rl_value *out, int loc);
/* var_samp / var_pop (stddev: stddev_samp / stddev_pop) of the non-NULL
 * integers or numerics of vals[0..n) as numeric.c computes them: exact
 * sums, the quotient at select_div_scale's scale (the root at that scale
 * too); NULL for no values (one for a sample), NaN if any is NaN or
 * infinite. */
int rl_numeric_variance(rl_expr_ctx *c, const rl_value *vals, size_t n, bool sample,
                        bool stddev, rl_value *out, int loc);

#endif
