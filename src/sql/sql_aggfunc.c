/*
 * sql_aggfunc.c — what the statistical, bitwise and ordered-set aggregates
 * compute from a group's values, as PostgreSQL 15 computes it:
 *  - bit_and / bit_or / bit_xor of integers, in their type;
 *  - variance, var_samp, var_pop, stddev, stddev_samp, stddev_pop: numeric
 *    (exact sums, numeric.c's division scale; sql_numeric.c) for integer
 *    and numeric input, float8 for float4/float8 input with float.c's
 *    Youngs-Cramer running sums (so the last digits are PostgreSQL's, not
 *    those of a two-pass formula) and its overflow rule;
 *  - corr, covar_*, regr_* of (y, x) float8 pairs with the same six sums;
 *  - percentile_cont's interpolation (float8 and interval) and
 *    percentile_disc's row choice.
 * The caller (sql_expr.c) applies FILTER, DISTINCT and the sort.
 */
#include <math.h>
#include <string.h>

#include "sql/sql_aggfunc.h"
#include "sql/sql_datetime.h"
#include "sql/sql_func.h"
#include "sql/sql_numeric.h"
#include "sql/sql_value.h"

void rl_agg_bits(char op, const rl_value *vals, size_t n, uint32_t type, rl_value *out)
{
    bool any = false;
    int64_t acc = 0;
    for (size_t i = 0; i < n; i++) {
        if (vals[i].d.isnull)
            continue;
        int64_t v = vals[i].d.v.i;
        if (!any)
            acc = v;
        else
            acc = op == '&' ? acc & v : op == '|' ? acc | v : acc ^ v;
        any = true;
    }
    if (any)
        rl_val_int(out, type, acc);
    else
        rl_val_null(out, type);
}

/* ------------------------------------------------ the float8 sums */

static int overflow(rl_expr_ctx *c)
{
    return rl_exec_error(c->x, RL_SQLSTATE_NUMERIC_VALUE_OUT_OF_RANGE, -1,
                         "value out of range: overflow");
}

/* float8_accum / float8_regr_accum's state: N, Sx, Sxx, Sy, Syy, Sxy,
 * where Sxx is the sum of squared deviations, kept by the Youngs-Cramer
 * update. */
typedef struct stat_sums {
    double n, sx, sxx, sy, syy, sxy;
} stat_sums;

static int accum_x(rl_expr_ctx *c, stat_sums *s, double x)
{
    double n0 = s->n, sx0 = s->sx;
    s->n += 1.0;
    s->sx += x;
    if (n0 > 0.0) {
        double t = x * s->n - s->sx;
        s->sxx += t * t / (s->n * n0);
        if (isinf(s->sx) || isinf(s->sxx)) {
            if (!isinf(sx0) && !isinf(x))
                return overflow(c);
            s->sxx = NAN;
        }
    } else if (isnan(x) || isinf(x)) {
        s->sxx = NAN; /* the first input: Sxx stays 0 unless it is Inf or NaN */
    }
    return 0;
}

static int accum_xy(rl_expr_ctx *c, stat_sums *s, double y, double x)
{
    double n0 = s->n, sx0 = s->sx, sy0 = s->sy;
    s->n += 1.0;
    s->sx += x;
    s->sy += y;
    if (n0 > 0.0) {
        double tx = x * s->n - s->sx, ty = y * s->n - s->sy;
        double scale = 1.0 / (s->n * n0);
        s->sxx += tx * tx * scale;
        s->syy += ty * ty * scale;
        s->sxy += tx * ty * scale;
        if (isinf(s->sx) || isinf(s->sxx) || isinf(s->sy) || isinf(s->syy) || isinf(s->sxy)) {
            if (((isinf(s->sx) || isinf(s->sxx)) && !isinf(sx0) && !isinf(x)) ||
                ((isinf(s->sy) || isinf(s->syy)) && !isinf(sy0) && !isinf(y)) ||
                (isinf(s->sxy) && !isinf(sx0) && !isinf(x) && !isinf(sy0) && !isinf(y)))
                return overflow(c);
            if (isinf(s->sxx))
                s->sxx = NAN;
            if (isinf(s->syy))
                s->syy = NAN;
            if (isinf(s->sxy))
                s->sxy = NAN;
        }
    } else {
        if (isnan(x) || isinf(x))
            s->sxx = s->sxy = NAN;
        if (isnan(y) || isinf(y))
            s->syy = s->sxy = NAN;
    }
    return 0;
}

/* ------------------------------------------------- variance, stddev */

bool rl_agg_is_variance(const char *name)
{
    return strcmp(name, "variance") == 0 || strcmp(name, "var_samp") == 0 ||
           strcmp(name, "var_pop") == 0 || strcmp(name, "stddev") == 0 ||
           strcmp(name, "stddev_samp") == 0 || strcmp(name, "stddev_pop") == 0;
}

int rl_agg_variance(rl_expr_ctx *c, const char *name, const rl_value *vals, size_t n,
                    uint32_t type, rl_value *out, int loc)
{
    bool pop = strstr(name, "_pop") != NULL, root = name[0] == 's';
    if (type == RL_OID_UNKNOWN) /* a NULL or literal: float8, the preferred type */
        type = RL_OID_FLOAT8;
    if (type == RL_OID_INT2 || type == RL_OID_INT4 || type == RL_OID_INT8 ||
        type == RL_OID_NUMERIC)
        return rl_numeric_variance(c, vals, n, !pop, root, out, loc);
    if (type != RL_OID_FLOAT4 && type != RL_OID_FLOAT8)
        return rl_func_no_function(c, name, 1, &(rl_value){.oid = type}, loc);
    stat_sums s = {0};
    for (size_t i = 0; i < n; i++) {
        if (vals[i].d.isnull)
            continue;
        double x = vals[i].d.v.f;
        if (vals[i].oid == RL_OID_UNKNOWN) { /* a literal: its float8 value */
            rl_value f;
            if (rl_value_coerce(c, &vals[i], RL_OID_FLOAT8, -1, false, &f, loc) < 0)
                return -1;
            x = f.d.v.f;
        }
        if (accum_x(c, &s, x) < 0)
            return -1;
    }
    double denom = pop ? s.n : s.n - 1.0;
    if (s.n == 0.0 || denom <= 0.0) {
        rl_val_null(out, RL_OID_FLOAT8);
        return 0;
    }
    double v = s.sxx / denom;
    rl_val_float(out, RL_OID_FLOAT8, root ? sqrt(v) : v);
    return 0;
}

/* ------------------------------------------------------- regression */

static const char *const regr_names[] = {
    "corr",      "covar_pop", "covar_samp", "regr_avgx", "regr_avgy",      "regr_count",
    "regr_r2",   "regr_sxx",  "regr_sxy",   "regr_syy",  "regr_intercept", "regr_slope",
};

bool rl_agg_is_regression(const char *name)
{
    for (size_t i = 0; i < sizeof regr_names / sizeof regr_names[0]; i++)
        if (strcmp(name, regr_names[i]) == 0)
            return true;
    return false;
}

/* float8_corr ... float8_regr_slope on the final sums; *null for NULL. */
static double regr_final(const char *name, const stat_sums *s, bool *null)
{
    *null = false;
    if (strcmp(name, "covar_samp") == 0) {
        *null = s->n < 2.0;
        return s->sxy / (s->n - 1.0);
    }
    if (s->n < 1.0) {
        *null = true;
        return 0;
    }
    if (strcmp(name, "covar_pop") == 0)
        return s->sxy / s->n;
    if (strcmp(name, "regr_avgx") == 0)
        return s->sx / s->n;
    if (strcmp(name, "regr_avgy") == 0)
        return s->sy / s->n;
    if (strcmp(name, "regr_sxx") == 0)
        return s->sxx;
    if (strcmp(name, "regr_syy") == 0)
        return s->syy;
    if (strcmp(name, "regr_sxy") == 0)
        return s->sxy;
    if (strcmp(name, "corr") == 0) {
        *null = s->sxx == 0 || s->syy == 0;
        return s->sxy / sqrt(s->sxx * s->syy);
    }
    *null = s->sxx == 0; /* regr_r2, regr_slope, regr_intercept */
    if (strcmp(name, "regr_r2") == 0)
        return s->syy == 0 ? 1.0 : (s->sxy * s->sxy) / (s->sxx * s->syy);
    if (strcmp(name, "regr_slope") == 0)
        return s->sxy / s->sxx;
    return (s->sy - s->sx * s->sxy / s->sxx) / s->n;
}

int rl_agg_regression(rl_expr_ctx *c, const char *name, const rl_value *ys, const rl_value *xs,
                      size_t n, rl_value *out)
{
    stat_sums s = {0};
    int64_t count = 0;
    for (size_t i = 0; i < n; i++) {
        if (ys[i].d.isnull || xs[i].d.isnull)
            continue;
        count++;
        if (accum_xy(c, &s, ys[i].d.v.f, xs[i].d.v.f) < 0)
            return -1;
    }
    if (strcmp(name, "regr_count") == 0) {
        rl_val_int(out, RL_OID_INT8, count);
        return 0;
    }
    bool null;
    double r = regr_final(name, &s, &null);
    if (null)
        rl_val_null(out, RL_OID_FLOAT8);
    else
        rl_val_float(out, RL_OID_FLOAT8, r);
    return 0;
}

/* ------------------------------------------------------- percentiles */

int rl_agg_check_fraction(rl_expr_ctx *c, double frac)
{
    if (isnan(frac) || isinf(frac)) /* PostgreSQL's snprintf spells these out */
        return rl_exec_error(c->x, RL_SQLSTATE_NUMERIC_VALUE_OUT_OF_RANGE, -1,
                             "percentile value %s is not between 0 and 1",
                             isnan(frac) ? "NaN" : frac > 0 ? "Infinity" : "-Infinity");
    if (frac < 0 || frac > 1)
        return rl_exec_error(c->x, RL_SQLSTATE_NUMERIC_VALUE_OUT_OF_RANGE, -1,
                             "percentile value %g is not between 0 and 1", frac);
    return 0;
}

size_t rl_agg_percentile_disc_row(size_t n, double frac)
{
    double r = ceil(frac * (double)n); /* 1-based; 0 and below: the first */
    if (r <= 1)
        return 0;
    return (size_t)r - 1 < n ? (size_t)r - 1 : n - 1;
}

int rl_agg_percentile_cont(rl_expr_ctx *c, const rl_value *sorted, size_t n, double frac,
                           rl_value *out, int loc)
{
    double pos = frac * (double)(n - 1);
    size_t lo = (size_t)floor(pos), hi = (size_t)ceil(pos);
    if (hi >= n) /* not reached: frac is at most 1 */
        hi = n - 1;
    if (lo == hi) {
        *out = sorted[lo];
        return 0;
    }
    double p = pos - (double)lo;
    if (sorted[lo].oid == RL_OID_FLOAT8) { /* float8_lerp */
        double a = sorted[lo].d.v.f, b = sorted[hi].d.v.f;
        rl_val_float(out, RL_OID_FLOAT8, a + (b - a) * p);
        return 0;
    }
    /* interval_lerp: lo + (hi - lo) * p */
    rl_value a = sorted[lo], b = sorted[hi], d, f, m;
    rl_val_float(&f, RL_OID_FLOAT8, p);
    if (rl_datetime_op(c, '-', &b, &a, &d, loc) < 0 || rl_datetime_op(c, '*', &d, &f, &m, loc) < 0)
        return -1;
    a = sorted[lo];
    return rl_datetime_op(c, '+', &a, &m, out, loc);
}
