/*
 * sql_mathfunc.h — implementations of the function table's numeric
 * functions (sql_mathfunc.c), private to src/sql/: only sql_func.c, which
 * expands the table, names them.
 */
#ifndef ROCKLAKE_SQL_MATHFUNC_H
#define ROCKLAKE_SQL_MATHFUNC_H

#include "sql/sql_cast.h"

/* Each as rl_func_impl (sql_func.h). */
int rl_fn_abs(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_sign(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_round(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_trunc(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_ceil(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_floor(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_scale(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_trim_scale(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_sqrt(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_cbrt(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_exp(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_ln(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_log10(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_log(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_power(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_mod(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_div(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_gcd(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_lcm(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_to_hex(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_size_pretty(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_degrees(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_radians(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_sin(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_cos(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_tan(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_asin(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_acos(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_atan(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_atan2(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
/* to_char(int4 | int8 | float4 | float8 | numeric, text) and
 * to_number(text, text): PostgreSQL's numeric format patterns
 * (pgtype/numfmt.h). */
int rl_fn_to_char_num(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_to_number(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_cot(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_sind(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_cosd(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_tand(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_cotd(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_asind(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_acosd(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_atand(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_atan2d(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_sinh(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_cosh(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_tanh(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_asinh(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_acosh(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_atanh(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_factorial(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_min_scale(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_width_bucket(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_num_nulls(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_num_nonnulls(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);

#endif
