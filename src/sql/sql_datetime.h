/*
 * sql_datetime.h — date/time operators and functions (sql_datetime.c),
 * private to src/sql/.
 */
#ifndef ROCKLAKE_SQL_DATETIME_H
#define ROCKLAKE_SQL_DATETIME_H

#include "sql/sql_cast.h"

/* a op b (+ - * /) where a or b is a date, time, timestamp[tz] or
 * interval: 1 when neither is (not a date/time operator), else 0 with *out
 * or -1 (42883 for a pair PostgreSQL has no operator for, 22008 past the
 * ranges). Unknown literals take the type the operator needs. */
int rl_datetime_op(rl_expr_ctx *c, char op, rl_value *a, rl_value *b, rl_value *out, int loc);
/* -interval (22008 when a field is its type's minimum). */
int rl_interval_negate(rl_expr_ctx *c, const rl_value *iv, rl_value *out);

/* Implementations of the function table's date/time rows (rl_func_impl). */
int rl_fn_date_bin(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_date_trunc(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_extract(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_date_part(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_age(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_to_timestamp(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_make_date(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_make_timestamp(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_make_time(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_make_interval(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_timeofday(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_make_timestamptz(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_justify_hours(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_justify_days(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_justify_interval(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_isfinite(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_timezone(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_to_char(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
/* to_timestamp(text, text) and to_date(text, text): PostgreSQL's
 * date/time template patterns read back (pgtype/dtfmt.h). */
int rl_fn_to_timestamp_fmt(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_to_date(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);

/* generate_series(start, stop, step) over timestamp or timestamptz t
 * (rl_func_series_type picks it). rl_series_datetime_prepare coerces the
 * arguments to (t, t, interval) and checks the step (22023 when it is
 * zero); *dir is +1 or -1. rl_series_datetime_within: is cur still within
 * stop? rl_series_datetime_next moves *cur one step on. */
int rl_series_datetime_prepare(rl_expr_ctx *c, rl_value *a, uint32_t t, int *dir, int loc);
int rl_series_datetime_within(const rl_value *cur, const rl_value *stop, int dir);
int rl_series_datetime_next(rl_expr_ctx *c, rl_value *cur, rl_value *step, int loc);

#endif
