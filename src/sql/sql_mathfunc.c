/*
 * sql_mathfunc.c — the numeric functions of the function table
 * (sql_functab.inc): abs, round, trunc, ceil/ceiling, floor, sign, sqrt,
 * cbrt, exp, ln, log, log10, power/pow, mod, div, gcd, lcm, scale,
 * trim_scale, min_scale, degrees, radians, the trigonometric functions
 * (also in degrees: sind ... atan2d) and the hyperbolic ones, factorial,
 * width_bucket, num_nulls / num_nonnulls, to_hex, pg_size_pretty (of bigint
 * and of numeric), and to_char of numbers /
 * to_number (the patterns: pgtype/numfmt.c) — each
 * overload as PostgreSQL 15 declares it (the dispatcher picks the overload
 * as PostgreSQL does: round(1) is round(double precision)).
 *
 * float8 results follow float.c: rint() for round (half to even),
 * PostgreSQL's errors for the domains (2201E logarithms, 2201F powers and
 * square roots, 22003 overflow). numeric ones are sql_numeric.c's (exp,
 * ln, log and power of numerics too, digit for digit numeric.c's).
 */
#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgtype/numfmt.h"
#include "sql/sql_mathfunc.h"
#include "sql/sql_numeric.h"
#include "sql/sql_value.h"

/* ------------------------------------------------------------- helpers */

static double f8(const rl_value *v) { return v->d.v.f; }

static int put_f8(rl_expr_ctx *c, rl_value *out, double r)
{
    if (isinf(r))
        return rl_exec_error(c->x, RL_SQLSTATE_NUMERIC_VALUE_OUT_OF_RANGE, -1,
                             "value out of range: overflow");
    rl_val_float(out, RL_OID_FLOAT8, r);
    return 0;
}

/* A result whose inputs were finite must be finite, and one from a nonzero
 * input nonzero (float.c's float_overflow_error / float_underflow_error). */
static int put_checked(rl_expr_ctx *c, rl_value *out, double r, double in, bool zero_ok)
{
    if (isinf(r) && !isinf(in))
        return rl_exec_error(c->x, RL_SQLSTATE_NUMERIC_VALUE_OUT_OF_RANGE, -1,
                             "value out of range: overflow");
    if (r == 0.0 && in != 0.0 && !zero_ok)
        return rl_exec_error(c->x, RL_SQLSTATE_NUMERIC_VALUE_OUT_OF_RANGE, -1,
                             "value out of range: underflow");
    rl_val_float(out, RL_OID_FLOAT8, r);
    return 0;
}

/* ----------------------------------------------------------- abs, sign */

int rl_fn_abs(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    switch (a[0].oid) {
    case RL_OID_NUMERIC: return rl_numeric_round(c, RL_NUMERIC_ABS, &a[0], 0, out, loc);
    case RL_OID_FLOAT4:
    case RL_OID_FLOAT8: rl_val_float(out, a[0].oid, fabs(f8(&a[0]))); return 0;
    default: break;
    }
    int64_t v = a[0].d.v.i;
    int64_t min = a[0].oid == RL_OID_INT2 ? INT16_MIN : a[0].oid == RL_OID_INT4 ? INT32_MIN
                                                                              : INT64_MIN;
    if (v == min)
        return rl_range_error(c, a[0].oid, -1);
    rl_val_int(out, a[0].oid, v < 0 ? -v : v);
    return 0;
}

int rl_fn_sign(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    if (a[0].oid == RL_OID_NUMERIC)
        return rl_numeric_round(c, RL_NUMERIC_SIGN, &a[0], 0, out, loc);
    double x = f8(&a[0]);
    rl_val_float(out, RL_OID_FLOAT8, x > 0 ? 1.0 : x < 0 ? -1.0 : 0.0);
    return 0;
}

/* ------------------------------------------------------------ rounding */

int rl_fn_round(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    if (a[0].oid == RL_OID_NUMERIC)
        return rl_numeric_round(c, RL_NUMERIC_ROUND, &a[0], n > 1 ? a[1].d.v.i : 0, out, loc);
    rl_val_float(out, RL_OID_FLOAT8, rint(f8(&a[0])));
    return 0;
}

int rl_fn_trunc(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    if (a[0].oid == RL_OID_NUMERIC)
        return rl_numeric_round(c, RL_NUMERIC_TRUNC, &a[0], n > 1 ? a[1].d.v.i : 0, out, loc);
    rl_val_float(out, RL_OID_FLOAT8, trunc(f8(&a[0])));
    return 0;
}

int rl_fn_ceil(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    if (a[0].oid == RL_OID_NUMERIC)
        return rl_numeric_round(c, RL_NUMERIC_CEIL, &a[0], 0, out, loc);
    rl_val_float(out, RL_OID_FLOAT8, ceil(f8(&a[0])));
    return 0;
}

int rl_fn_floor(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    if (a[0].oid == RL_OID_NUMERIC)
        return rl_numeric_round(c, RL_NUMERIC_FLOOR, &a[0], 0, out, loc);
    rl_val_float(out, RL_OID_FLOAT8, floor(f8(&a[0])));
    return 0;
}

int rl_fn_scale(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return rl_numeric_scale(c, &a[0], out, loc);
}

int rl_fn_trim_scale(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return rl_numeric_trim_scale(c, &a[0], out, loc);
}

/* ------------------------------------------------- roots and powers */

int rl_fn_sqrt(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    if (a[0].oid == RL_OID_NUMERIC)
        return rl_numeric_sqrt(c, &a[0], out, loc);
    double x = f8(&a[0]);
    if (x < 0)
        return rl_exec_error(c->x, RL_SQLSTATE_INVALID_ARGUMENT_FOR_POWER, -1,
                             "cannot take square root of a negative number");
    return put_checked(c, out, sqrt(x), x, false);
}

/* glibc's cbrt, which PostgreSQL's dcbrt calls. The Rust staticlib brings
 * a cbrt of its own (compiler-builtins' libm port) that the link resolves
 * the plain name to; it is correctly rounded where glibc's is not (glibc:
 * cbrt(27) = 3.0000000000000004, cbrt(2) = 1.2599210498948734; ours gave
 * 3 and ...732). The versioned name reaches libm's. */
#if defined(__GLIBC__) && defined(__x86_64__)
double rl_glibc_cbrt(double x);
__asm__(".symver rl_glibc_cbrt, cbrt@GLIBC_2.2.5");
#define GLIBC_CBRT rl_glibc_cbrt
#else
#define GLIBC_CBRT cbrt
#endif

int rl_fn_cbrt(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return put_checked(c, out, GLIBC_CBRT(f8(&a[0])), f8(&a[0]), false);
}

int rl_fn_exp(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    if (a[0].oid == RL_OID_NUMERIC)
        return rl_numeric_exp(c, &a[0], out, loc);
    double x = f8(&a[0]);
    errno = 0;
    double r = exp(x);
    if (errno == ERANGE && r != 0 && !isinf(r))
        r = HUGE_VAL; /* as float.c treats a range error that is not an underflow */
    if (isinf(r) && !isinf(x))
        return put_f8(c, out, r);
    if (r == 0.0 && !isinf(x))
        return rl_exec_error(c->x, RL_SQLSTATE_NUMERIC_VALUE_OUT_OF_RANGE, -1,
                             "value out of range: underflow");
    rl_val_float(out, RL_OID_FLOAT8, r);
    return 0;
}

static int log_domain(rl_expr_ctx *c, double x)
{
    if (x == 0.0)
        return rl_exec_error(c->x, RL_SQLSTATE_INVALID_ARGUMENT_FOR_LOG, -1,
                             "cannot take logarithm of zero");
    if (x < 0)
        return rl_exec_error(c->x, RL_SQLSTATE_INVALID_ARGUMENT_FOR_LOG, -1,
                             "cannot take logarithm of a negative number");
    return 0;
}

int rl_fn_ln(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    if (a[0].oid == RL_OID_NUMERIC)
        return rl_numeric_ln(c, &a[0], out, loc);
    double x = f8(&a[0]);
    if (log_domain(c, x) < 0)
        return -1;
    return put_checked(c, out, log(x), x, x == 1.0);
}

int rl_fn_log10(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    if (a[0].oid == RL_OID_NUMERIC) { /* log(x) is log(10, x) */
        rl_value ten;
        rl_val_int(&ten, RL_OID_INT4, 10);
        return rl_numeric_log(c, &ten, &a[0], out, loc);
    }
    double x = f8(&a[0]);
    if (log_domain(c, x) < 0)
        return -1;
    return put_checked(c, out, log10(x), x, x == 1.0);
}

/* log(b, x) of numerics (numeric_log). */
int rl_fn_log(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return rl_numeric_log(c, &a[0], &a[1], out, loc);
}

/* power(x, y) as float.c's dpow: its special cases first, then pow(). */
int rl_fn_power(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    if (a[0].oid == RL_OID_NUMERIC)
        return rl_numeric_power(c, &a[0], &a[1], out, loc);
    double x = f8(&a[0]), y = f8(&a[1]);
    if (isnan(x) || isnan(y)) {
        rl_val_float(out, RL_OID_FLOAT8, (isnan(x) && y == 0) || (isnan(y) && x == 1) ? 1 : NAN);
        return 0;
    }
    if (x == 0 && y < 0)
        return rl_exec_error(c->x, RL_SQLSTATE_INVALID_ARGUMENT_FOR_POWER, -1,
                             "zero raised to a negative power is undefined");
    if (x < 0 && floor(y) != y && !isinf(y))
        return rl_exec_error(c->x, RL_SQLSTATE_INVALID_ARGUMENT_FOR_POWER, -1,
                             "a negative number raised to a non-integer power yields a complex "
                             "result");
    double r = pow(x, y);
    if (isinf(r) && !isinf(x) && !isinf(y))
        return put_f8(c, out, r);
    if (r == 0.0 && x != 0 && !isinf(x) && !isinf(y))
        return rl_exec_error(c->x, RL_SQLSTATE_NUMERIC_VALUE_OUT_OF_RANGE, -1,
                             "value out of range: underflow");
    rl_val_float(out, RL_OID_FLOAT8, r);
    return 0;
}

/* ------------------------------------------------------------- integers */

int rl_fn_mod(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    if (a[0].oid == RL_OID_NUMERIC)
        return rl_numeric_arith(c, '%', &a[0], &a[1], out, loc);
    int64_t x = a[0].d.v.i, y = a[1].d.v.i;
    if (y == 0)
        return rl_exec_error(c->x, RL_SQLSTATE_DIVISION_BY_ZERO, -1, "division by zero");
    rl_val_int(out, a[0].oid, y == -1 ? 0 : x % y);
    return 0;
}

int rl_fn_div(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return rl_numeric_div_trunc(c, &a[0], &a[1], out, loc);
}

static uint64_t gcd_u64(uint64_t a, uint64_t b)
{
    while (b) {
        uint64_t t = a % b;
        a = b;
        b = t;
    }
    return a;
}

int rl_fn_gcd(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    int64_t x = a[0].d.v.i, y = a[1].d.v.i;
    uint64_t ux = x < 0 ? (uint64_t)0 - (uint64_t)x : (uint64_t)x;
    uint64_t uy = y < 0 ? (uint64_t)0 - (uint64_t)y : (uint64_t)y;
    uint64_t g = gcd_u64(ux, uy);
    uint64_t max = a[0].oid == RL_OID_INT4 ? (uint64_t)INT32_MAX : (uint64_t)INT64_MAX;
    if (g > max)
        return rl_range_error(c, a[0].oid, -1);
    rl_val_int(out, a[0].oid, (int64_t)g);
    return 0;
}

int rl_fn_lcm(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    int64_t x = a[0].d.v.i, y = a[1].d.v.i;
    if (x == 0 || y == 0) {
        rl_val_int(out, a[0].oid, 0);
        return 0;
    }
    uint64_t ux = x < 0 ? (uint64_t)0 - (uint64_t)x : (uint64_t)x;
    uint64_t uy = y < 0 ? (uint64_t)0 - (uint64_t)y : (uint64_t)y;
    unsigned __int128 l = (unsigned __int128)(ux / gcd_u64(ux, uy)) * uy;
    uint64_t max = a[0].oid == RL_OID_INT4 ? (uint64_t)INT32_MAX : (uint64_t)INT64_MAX;
    if (l > max)
        return rl_range_error(c, a[0].oid, -1);
    rl_val_int(out, a[0].oid, (int64_t)l);
    return 0;
}

int rl_fn_to_hex(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    char buf[32];
    if (a[0].oid == RL_OID_INT8)
        snprintf(buf, sizeof buf, "%llx", (unsigned long long)a[0].d.v.i);
    else
        snprintf(buf, sizeof buf, "%x", (unsigned)(uint32_t)a[0].d.v.i);
    return rl_val_str_copy(c, out, RL_OID_TEXT, buf, strlen(buf));
}

/* ------------------------------------------------------ trigonometry */

int rl_fn_degrees(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return put_checked(c, out, f8(&a[0]) * (180.0 / M_PI), f8(&a[0]), false);
}

int rl_fn_radians(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return put_checked(c, out, f8(&a[0]) * (M_PI / 180.0), f8(&a[0]), false);
}

/* sin, cos, tan, asin, acos, atan, atan2: libm's, with float.c's domain
 * errors (an infinite argument, or asin/acos outside [-1, 1]). */
static int trig(rl_expr_ctx *c, rl_value *out, double (*fn)(double), double x, bool inverse)
{
    if (isnan(x)) {
        rl_val_float(out, RL_OID_FLOAT8, NAN);
        return 0;
    }
    if ((!inverse && isinf(x)) || (inverse && (x < -1 || x > 1)))
        return rl_exec_error(c->x, RL_SQLSTATE_NUMERIC_VALUE_OUT_OF_RANGE, -1,
                             "input is out of range");
    rl_val_float(out, RL_OID_FLOAT8, fn(x));
    return 0;
}

int rl_fn_sin(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return trig(c, out, sin, f8(&a[0]), false);
}

int rl_fn_cos(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return trig(c, out, cos, f8(&a[0]), false);
}

int rl_fn_tan(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return trig(c, out, tan, f8(&a[0]), false);
}

int rl_fn_asin(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return trig(c, out, asin, f8(&a[0]), true);
}

int rl_fn_acos(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return trig(c, out, acos, f8(&a[0]), true);
}

int rl_fn_atan(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    double x = f8(&a[0]);
    rl_val_float(out, RL_OID_FLOAT8, isnan(x) ? NAN : atan(x));
    return 0;
}

int rl_fn_atan2(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    rl_val_float(out, RL_OID_FLOAT8, atan2(f8(&a[0]), f8(&a[1])));
    return 0;
}

/* ------------------------------------------------ to_char, to_number */

static int numfmt_error(rl_expr_ctx *c, const rl_numfmt_error *e)
{
    rl_exec_error(c->x, e->sqlstate, -1, "%s", e->msg);
    if (e->detail[0])
        rl_error_detail(c->x->err, "%s", e->detail);
    return -1;
}

/* A numeric's digits for the pattern: times 10^multi for V, rounded to the
 * pattern's digits after the point (numeric_to_char); rounded to an int4
 * for RN (22003 / 0A000 as numeric_int4), its own text for EEEE. */
static int numeric_digits(rl_expr_ctx *c, rl_numfmt *f, const rl_value *v, rl_numfmt_digits *d,
                          rl_numfmt_error *e, int loc)
{
    if (f->flag & RL_NUMFMT_F_ROMAN) {
        rl_value iv;
        if (rl_value_coerce(c, v, RL_OID_INT4, -1, true, &iv, loc) < 0)
            return -1;
        return rl_numfmt_digits_numeric(f, "", 0, (int32_t)iv.d.v.i, d, e) < 0 ? numfmt_error(c, e)
                                                                             : 0;
    }
    rl_value x = *v;
    if (!(f->flag & RL_NUMFMT_F_EEEE)) {
        if (f->flag & RL_NUMFMT_F_MULTI) {
            char *p = rl_arena_alloc(c->arena, (size_t)f->multi + 2);
            if (!p)
                return rl_expr_oom(c);
            p[0] = '1';
            memset(p + 1, '0', (size_t)f->multi);
            rl_value pow10, prod;
            rl_val_str(&pow10, RL_OID_NUMERIC, p, (size_t)f->multi + 1);
            if (rl_numeric_arith(c, '*', v, &pow10, &prod, loc) < 0)
                return -1;
            x = prod;
        }
        rl_value r;
        if (rl_numeric_round(c, RL_NUMERIC_ROUND, &x, f->post, &r, loc) < 0)
            return -1;
        x = r;
    }
    if (rl_numfmt_digits_numeric(f, (const char *)x.d.v.s.p, x.d.v.s.len, 0, d, e) < 0)
        return numfmt_error(c, e);
    return 0;
}

int rl_fn_to_char_num(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    if (a[1].d.v.s.len == 0)
        return rl_val_str_copy(c, out, RL_OID_TEXT, "", 0);
    rl_numfmt f;
    rl_numfmt_error e;
    rl_numfmt_digits d = {0};
    rl_buf b;
    rl_buf_init(&b, 0);
    int rc = -1;
    if (rl_numfmt_parse((const char *)a[1].d.v.s.p, a[1].d.v.s.len, &f, &e) < 0) {
        numfmt_error(c, &e);
        goto done;
    }
    int r;
    switch (a[0].oid) {
    case RL_OID_INT2:
    case RL_OID_INT4: r = rl_numfmt_digits_int4(&f, (int32_t)a[0].d.v.i, &d, &e); break;
    case RL_OID_INT8: r = rl_numfmt_digits_int8(&f, a[0].d.v.i, &d, &e); break;
    case RL_OID_FLOAT4:
    case RL_OID_FLOAT8:
        r = rl_numfmt_digits_float(&f, a[0].d.v.f, a[0].oid == RL_OID_FLOAT4, &d, &e);
        break;
    default:
        assert(a[0].oid == RL_OID_NUMERIC);
        if (numeric_digits(c, &f, &a[0], &d, &e, loc) < 0)
            goto done;
        r = 0;
        break;
    }
    if (r < 0 || rl_numfmt_render(&f, &d, &b, &e) < 0) {
        numfmt_error(c, &e);
        goto done;
    }
    rc = rl_val_buf_copy(c, out, RL_OID_TEXT, &b);
done:
    rl_buf_free(&b);
    rl_numfmt_digits_free(&d);
    rl_numfmt_free(&f);
    return rc;
}

/* to_number(text, pattern): the digits the pattern reads, as numeric with
 * the precision and scale they make (numeric_in's 22P02 for no digits,
 * 22003 past the precision), divided by 10^multi for V. NULL for an empty
 * pattern. */
int rl_fn_to_number(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    if (a[1].d.v.s.len == 0) {
        rl_val_null(out, RL_OID_NUMERIC);
        return 0;
    }
    rl_numfmt f;
    rl_numfmt_error e;
    rl_buf b;
    rl_buf_init(&b, 0);
    int rc = -1;
    if (rl_numfmt_parse((const char *)a[1].d.v.s.p, a[1].d.v.s.len, &f, &e) < 0 ||
        rl_numfmt_read(&f, (const char *)a[0].d.v.s.p, a[0].d.v.s.len, &b, &e) < 0) {
        numfmt_error(c, &e);
        goto done;
    }
    /* numeric_in's typmod, wrapping as PostgreSQL's int arithmetic does */
    uint32_t precision = (uint32_t)f.pre + (uint32_t)f.multi + (uint32_t)f.post;
    int32_t typmod = (int32_t)(((precision << 16) | (uint32_t)f.post) + 4u);
    rl_value text, num;
    if (rl_val_str_copy(c, &text, RL_OID_TEXT, b.data, b.len) < 0)
        goto done;
    if (rl_value_coerce(c, &text, RL_OID_NUMERIC, typmod, true, &num, loc) < 0)
        goto done;
    num.typmod = -1;
    if (f.flag & RL_NUMFMT_F_MULTI) {
        char e10[16];
        int len = snprintf(e10, sizeof e10, "%d", -f.multi);
        rl_value ten, exp, scale, prod;
        rl_val_str(&ten, RL_OID_NUMERIC, "10", 2);
        rl_val_str(&exp, RL_OID_NUMERIC, e10, (size_t)len);
        if (rl_numeric_power(c, &ten, &exp, &scale, loc) < 0 ||
            rl_numeric_arith(c, '*', &num, &scale, &prod, loc) < 0)
            goto done;
        num = prod;
    }
    *out = num;
    out->typmod = -1;
    rc = 0;
done:
    rl_buf_free(&b);
    rl_numfmt_free(&f);
    return rc;
}

int rl_fn_cot(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    double x = f8(&a[0]);
    if (isnan(x)) {
        rl_val_float(out, RL_OID_FLOAT8, NAN);
        return 0;
    }
    if (isinf(x))
        return rl_exec_error(c->x, RL_SQLSTATE_NUMERIC_VALUE_OUT_OF_RANGE, -1,
                             "input is out of range");
    rl_val_float(out, RL_OID_FLOAT8, 1.0 / tan(x)); /* cot(0) is Infinity: no check */
    return 0;
}

/* --------------------------------------------- trigonometry in degrees
 *
 * float.c's dsind ... datan2d: the argument is folded into the first
 * quadrant, and each result is scaled by the function's own value at a
 * landmark angle (sin 30, 1 - cos 60, asin 0.5, acos 0.5, atan 1), so that
 * sind(30) is exactly 0.5, tand(45) exactly 1 and asind(1) exactly 90.
 * The landmarks are computed at run time with libm, as PostgreSQL does, so
 * that both divide by the same rounded values. */

#define RADIANS_PER_DEGREE 0.0174532925199432957692

typedef struct degree_consts {
    double sin_30, one_minus_cos_60, asin_0_5, acos_0_5, atan_1_0, tan_45, cot_45;
} degree_consts;

static double sind_0_to_30(const degree_consts *k, double x)
{
    volatile double s = sin(x * RADIANS_PER_DEGREE);
    return (s / k->sin_30) / 2.0;
}

static double cosd_0_to_60(const degree_consts *k, double x)
{
    volatile double omc = 1.0 - cos(x * RADIANS_PER_DEGREE);
    return 1.0 - (omc / k->one_minus_cos_60) / 2.0;
}

static double sind_q1(const degree_consts *k, double x)
{
    return x <= 30.0 ? sind_0_to_30(k, x) : cosd_0_to_60(k, 90.0 - x);
}

static double cosd_q1(const degree_consts *k, double x)
{
    return x <= 60.0 ? cosd_0_to_60(k, x) : sind_0_to_30(k, 90.0 - x);
}

/* The landmarks, computed on every call (a handful of libm calls): no
 * shared state between the sessions' threads. */
static void degrees_k(degree_consts *k)
{
    volatile double thirty = 30.0, sixty = 60.0, half = 0.5, one = 1.0;
    k->sin_30 = sin(thirty * RADIANS_PER_DEGREE);
    k->one_minus_cos_60 = 1.0 - cos(sixty * RADIANS_PER_DEGREE);
    k->asin_0_5 = asin(half);
    k->acos_0_5 = acos(half);
    k->atan_1_0 = atan(one);
    k->tan_45 = sind_q1(k, 45.0) / cosd_q1(k, 45.0);
    k->cot_45 = cosd_q1(k, 45.0) / sind_q1(k, 45.0);
}

static double asind_q1(const degree_consts *k, double x)
{
    if (x <= 0.5) {
        volatile double r = asin(x);
        return (r / k->asin_0_5) * 30.0;
    }
    volatile double r = acos(x);
    return 90.0 - (r / k->acos_0_5) * 60.0;
}

static double acosd_q1(const degree_consts *k, double x)
{
    if (x <= 0.5) {
        volatile double r = asin(x);
        return 90.0 - (r / k->asin_0_5) * 30.0;
    }
    volatile double r = acos(x);
    return (r / k->acos_0_5) * 60.0;
}

typedef enum degree_fn { DEG_SIN, DEG_COS, DEG_TAN, DEG_COT } degree_fn;

/* sind, cosd, tand, cotd of x (finite, not NaN). */
static double degree_trig(degree_fn fn, double x)
{
    degree_consts kk, *k = &kk;
    degrees_k(k);
    double sign = 1.0;
    x = fmod(x, 360.0);
    if (x < 0.0) {
        x = -x;
        if (fn != DEG_COS) /* cos is even */
            sign = -sign;
    }
    if (x > 180.0) {
        x = 360.0 - x;
        if (fn != DEG_COS)
            sign = -sign;
    }
    if (x > 90.0) {
        x = 180.0 - x;
        if (fn != DEG_SIN) /* sin(180 - x) = sin x; the others change sign */
            sign = -sign;
    }
    double r;
    switch (fn) {
    case DEG_SIN: return sign * sind_q1(k, x);
    case DEG_COS: return sign * cosd_q1(k, x);
    case DEG_TAN: r = sign * ((sind_q1(k, x) / cosd_q1(k, x)) / k->tan_45); break;
    default: r = sign * ((cosd_q1(k, x) / sind_q1(k, x)) / k->cot_45); break;
    }
    return r == 0.0 ? 0.0 : r; /* no minus zero (tand(180), cotd(270)) */
}

static int degree_call(rl_expr_ctx *c, degree_fn fn, const rl_value *a, rl_value *out)
{
    double x = f8(&a[0]);
    if (isnan(x)) {
        rl_val_float(out, RL_OID_FLOAT8, NAN);
        return 0;
    }
    if (isinf(x))
        return rl_exec_error(c->x, RL_SQLSTATE_NUMERIC_VALUE_OUT_OF_RANGE, -1,
                             "input is out of range");
    double r = degree_trig(fn, x);
    if (isinf(r) && (fn == DEG_SIN || fn == DEG_COS))
        return put_f8(c, out, r);
    rl_val_float(out, RL_OID_FLOAT8, r); /* tand(90), cotd(0): Infinity */
    return 0;
}

int rl_fn_sind(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return degree_call(c, DEG_SIN, a, out);
}

int rl_fn_cosd(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return degree_call(c, DEG_COS, a, out);
}

int rl_fn_tand(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return degree_call(c, DEG_TAN, a, out);
}

int rl_fn_cotd(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return degree_call(c, DEG_COT, a, out);
}

/* asind, acosd: [-1, 1] folded onto [0, 1]. */
static int inverse_degree(rl_expr_ctx *c, bool is_acos, const rl_value *a, rl_value *out)
{
    double x = f8(&a[0]);
    if (isnan(x)) {
        rl_val_float(out, RL_OID_FLOAT8, NAN);
        return 0;
    }
    if (x < -1.0 || x > 1.0)
        return rl_exec_error(c->x, RL_SQLSTATE_NUMERIC_VALUE_OUT_OF_RANGE, -1,
                             "input is out of range");
    degree_consts k0, *k = &k0;
    degrees_k(k);
    double r;
    if (is_acos)
        r = x >= 0.0 ? acosd_q1(k, x) : 90.0 + asind_q1(k, -x);
    else
        r = x >= 0.0 ? asind_q1(k, x) : -asind_q1(k, -x);
    return put_f8(c, out, r);
}

int rl_fn_asind(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return inverse_degree(c, false, a, out);
}

int rl_fn_acosd(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return inverse_degree(c, true, a, out);
}

int rl_fn_atand(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    double x = f8(&a[0]);
    if (isnan(x)) {
        rl_val_float(out, RL_OID_FLOAT8, NAN);
        return 0;
    }
    degree_consts k;
    degrees_k(&k);
    volatile double r = atan(x);
    return put_f8(c, out, (r / k.atan_1_0) * 45.0);
}

int rl_fn_atan2d(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    double y = f8(&a[0]), x = f8(&a[1]);
    if (isnan(y) || isnan(x)) {
        rl_val_float(out, RL_OID_FLOAT8, NAN);
        return 0;
    }
    degree_consts k;
    degrees_k(&k);
    volatile double r = atan2(y, x);
    return put_f8(c, out, (r / k.atan_1_0) * 45.0);
}

/* ------------------------------------------------ hyperbolic functions */

int rl_fn_sinh(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    double x = f8(&a[0]);
    errno = 0;
    double r = sinh(x);
    if (errno == ERANGE) /* an overflow is the infinity of x's sign, no error */
        r = x < 0 ? -HUGE_VAL : HUGE_VAL;
    rl_val_float(out, RL_OID_FLOAT8, r);
    return 0;
}

int rl_fn_cosh(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    double x = f8(&a[0]);
    errno = 0;
    double r = cosh(x);
    if (errno == ERANGE)
        r = HUGE_VAL;
    if (r == 0.0)
        return rl_exec_error(c->x, RL_SQLSTATE_NUMERIC_VALUE_OUT_OF_RANGE, -1,
                             "value out of range: underflow");
    rl_val_float(out, RL_OID_FLOAT8, r);
    return 0;
}

int rl_fn_tanh(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return put_f8(c, out, tanh(f8(&a[0])));
}

int rl_fn_asinh(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    rl_val_float(out, RL_OID_FLOAT8, asinh(f8(&a[0])));
    return 0;
}

int rl_fn_acosh(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    double x = f8(&a[0]);
    if (x < 1.0) /* NaN passes: acosh(NaN) is NaN */
        return rl_exec_error(c->x, RL_SQLSTATE_NUMERIC_VALUE_OUT_OF_RANGE, -1,
                             "input is out of range");
    rl_val_float(out, RL_OID_FLOAT8, acosh(x));
    return 0;
}

int rl_fn_atanh(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    double x = f8(&a[0]);
    if (x < -1.0 || x > 1.0)
        return rl_exec_error(c->x, RL_SQLSTATE_NUMERIC_VALUE_OUT_OF_RANGE, -1,
                             "input is out of range");
    /* the poles are infinities, whatever libm's errno says */
    rl_val_float(out, RL_OID_FLOAT8, x == -1.0 ? -HUGE_VAL : x == 1.0 ? HUGE_VAL : atanh(x));
    return 0;
}

/* ------------------------------------- factorial, min_scale, width_bucket */

int rl_fn_factorial(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return rl_numeric_factorial(c, a[0].d.v.i, out, loc);
}

int rl_fn_min_scale(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    rl_value t;
    if (rl_numeric_trim_scale(c, &a[0], &t, loc) < 0)
        return -1;
    return rl_numeric_scale(c, &t, out, loc); /* NULL for NaN and the infinities */
}

static int width_bucket_error(rl_expr_ctx *c, const char *msg)
{
    return rl_exec_error(c->x, RL_SQLSTATE_INVALID_ARGUMENT_FOR_WIDTH_BUCKET_FUNCTION, -1, "%s",
                         msg);
}

/* A double converted to int32 as x86-64's cvttsd2si does it (C leaves
 * NaN and out-of-range values undefined): those become INT32_MIN. */
static int32_t x86_to_int32(double d)
{
    if (isnan(d) || d >= 2147483648.0 || d <= -2147483649.0)
        return INT32_MIN;
    return (int32_t)d;
}

/* width_bucket(operand, b1, b2, count) of float8 as PostgreSQL 15's
 * float.c computes it: count * (x - b1) / (b2 - b1) + 1 in double, then
 * truncated to int4; so a range wider than the largest double gives NaN,
 * which x86-64 converts to -2147483648, as PostgreSQL answers. */
static int width_bucket_f8(rl_expr_ctx *c, double x, double b1, double b2, int32_t count,
                           rl_value *out)
{
    if (count <= 0)
        return width_bucket_error(c, "count must be greater than zero");
    if (isnan(x) || isnan(b1) || isnan(b2))
        return width_bucket_error(c, "operand, lower bound, and upper bound cannot be NaN");
    if (isinf(b1) || isinf(b2))
        return width_bucket_error(c, "lower and upper bounds must be finite");
    if (b1 == b2)
        return width_bucket_error(c, "lower bound cannot equal upper bound");
    bool up = b1 < b2;
    int64_t r;
    if (up ? x < b1 : x > b1)
        r = 0;
    else if (up ? x >= b2 : x <= b2)
        r = (int64_t)count + 1;
    else if (up)
        r = x86_to_int32((double)count * (x - b1) / (b2 - b1) + 1);
    else
        r = x86_to_int32((double)count * (b1 - x) / (b1 - b2) + 1);
    if (r > INT32_MAX)
        return rl_range_error(c, RL_OID_INT4, -1);
    rl_val_int(out, RL_OID_INT4, r);
    return 0;
}

int rl_fn_width_bucket(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    if (a[0].oid == RL_OID_NUMERIC) {
        int32_t count = (int32_t)a[3].d.v.i;
        if (count <= 0)
            return width_bucket_error(c, "count must be greater than zero");
        return rl_numeric_width_bucket(c, &a[0], &a[1], &a[2], count, out, loc);
    }
    return width_bucket_f8(c, f8(&a[0]), f8(&a[1]), f8(&a[2]), (int32_t)a[3].d.v.i, out);
}

/* num_nulls("any" ...), num_nonnulls("any" ...): not strict. */
int rl_fn_num_nulls(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    int32_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += a[i].d.isnull;
    rl_val_int(out, RL_OID_INT4, k);
    return 0;
}

int rl_fn_num_nonnulls(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    int32_t k = 0;
    for (size_t i = 0; i < n; i++)
        k += !a[i].d.isnull;
    rl_val_int(out, RL_OID_INT4, k);
    return 0;
}

/* pg_size_pretty of v half-units of size_units[u] (one extra bit kept for
 * the rounding): the next unit while v is 20479 or more of them (PB at
 * most), rounded half away from zero. */
static const char *const size_units[] = {"kB", "MB", "GB", "TB", "PB"};
#define SIZE_UNITS (sizeof size_units / sizeof size_units[0])

static int size_in_units(rl_expr_ctx *c, int64_t v, size_t u, rl_value *out)
{
    const int64_t limit = 20 * 1024 - 1;
    while (u + 1 < SIZE_UNITS && !(v < limit && v > -limit)) {
        v /= 1 << 10;
        u++;
    }
    char buf[64];
    snprintf(buf, sizeof buf, "%" PRId64 " %s", (v + (v < 0 ? -1 : 1)) / 2, size_units[u]);
    return rl_val_str_copy(c, out, RL_OID_TEXT, buf, strlen(buf));
}

/* Whether a numeric's integer text (no point) fits an int64 well within
 * range (18 digits). */
static bool numeric_small(const rl_value *v, int64_t *i)
{
    const char *p = (const char *)v->d.v.s.p;
    size_t len = v->d.v.s.len, digits = len - (len && p[0] == '-');
    if (digits > 18)
        return false;
    char buf[24];
    snprintf(buf, sizeof buf, "%.*s", (int)len, p);
    *i = strtoll(buf, NULL, 10);
    return true;
}

/* pg_size_pretty(bigint | numeric): bytes below 10 kB (a numeric as it
 * prints: 1.5 bytes); then kB, MB, GB, TB, PB, each used below 20479 of its
 * half-units, as PostgreSQL 15 (a numeric truncated at each division, so
 * as its integer part; NaN and the infinities are "NaN PB", ...). */
int rl_fn_size_pretty(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    char buf[64];
    if (a[0].oid != RL_OID_NUMERIC) {
        int64_t v = a[0].d.v.i;
        if (v < 10 * 1024 && v > -10 * 1024) {
            snprintf(buf, sizeof buf, "%" PRId64 " bytes", v);
            return rl_val_str_copy(c, out, RL_OID_TEXT, buf, strlen(buf));
        }
        return size_in_units(c, v / (1 << 9), 0, out);
    }
    const char *s = (const char *)a[0].d.v.s.p;
    size_t len = a[0].d.v.s.len;
    if (len && (s[len - 1] == 'N' || s[len - 1] == 'y')) { /* NaN, [-]Infinity */
        snprintf(buf, sizeof buf, "%.*s PB", (int)len, s);
        return rl_val_str_copy(c, out, RL_OID_TEXT, buf, strlen(buf));
    }
    rl_value t, k;
    int64_t v;
    if (rl_numeric_round(c, RL_NUMERIC_TRUNC, &a[0], 0, &t, loc) < 0)
        return -1;
    if (numeric_small(&t, &v) && v < 10 * 1024 && v > -10 * 1024) {
        snprintf(buf, sizeof buf, "%.*s bytes", (int)len, s);
        return rl_val_str_copy(c, out, RL_OID_TEXT, buf, strlen(buf));
    }
    if (numeric_small(&t, &v))
        return size_in_units(c, v / (1 << 9), 0, out);
    rl_val_int(&k, RL_OID_INT8, 1 << 9);
    if (rl_numeric_div_trunc(c, &t, &k, &t, loc) < 0)
        return -1;
    size_t u = 0;
    rl_val_int(&k, RL_OID_INT8, 1 << 10);
    while (!numeric_small(&t, &v) && u + 1 < SIZE_UNITS) { /* beyond any int64 */
        if (rl_numeric_div_trunc(c, &t, &k, &t, loc) < 0)
            return -1;
        u++;
    }
    if (numeric_small(&t, &v))
        return size_in_units(c, v, u, out);
    rl_value one, two; /* petabytes beyond any int64: rounded as numerics */
    rl_val_int(&one, RL_OID_INT8, ((const char *)t.d.v.s.p)[0] == '-' ? -1 : 1);
    rl_val_int(&two, RL_OID_INT8, 2);
    if (rl_numeric_arith(c, '+', &t, &one, &t, loc) < 0 ||
        rl_numeric_div_trunc(c, &t, &two, &t, loc) < 0)
        return -1;
    snprintf(buf, sizeof buf, "%.*s PB", (int)t.d.v.s.len, (const char *)t.d.v.s.p);
    return rl_val_str_copy(c, out, RL_OID_TEXT, buf, strlen(buf));
}
