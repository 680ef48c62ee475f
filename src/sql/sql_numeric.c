/*
 * sql_numeric.c — PostgreSQL 15's numeric arithmetic on GMP integers.
 *
 * A finite numeric is an integer v scaled by 10^dscale (value = v /
 * 10^dscale), dscale being the display scale PostgreSQL keeps (digits after
 * the point, trailing zeros included). The rules are numeric.c's:
 *  - x + y, x - y: exact, scale max(d1, d2);
 *  - x * y: exact, scale d1 + d2 (at most NUMERIC_MAX_DSCALE, rounded);
 *  - x / y: select_div_scale's scale (at least 16 significant digits, at
 *    least either input's scale, at most 1000), rounded half away from zero;
 *  - x % y: x - trunc(x / y) * y, scale max(d1, d2), sign of x;
 *  - NaN, Infinity, -Infinity as numeric.c's special-value branches;
 *  - more than 131072 digits before the point: 22003 "value overflows
 *    numeric format".
 *
 * Invariants: every rl_num is cleared by the function that inits it; a
 * finite result's text is canonical (what pgtype's numeric_out prints), so
 * comparisons and the codec read it as they read stored numerics.
 */
#include <gmp.h>

#include <assert.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "sql/sql_cast.h"
#include "sql/sql_numeric.h"
#include "sql/sql_value.h"

#define NUMERIC_MAX_INT_DIGITS 131072 /* digits before the point */
#define NUMERIC_MAX_DSCALE 16383
#define NUMERIC_MAX_DIV_SCALE 1000   /* NUMERIC_MAX_DISPLAY_SCALE */
#define NUMERIC_MIN_SIG_DIGITS 16
#define NUMERIC_MAX_RESULT_SCALE 2000
#define NUMERIC_MIN_ROUND_SCALE (-(32767 + 1) * 4 - 1) /* round()/trunc()'s lower bound on s */

typedef enum num_kind { NUM_FINITE, NUM_NAN, NUM_PINF, NUM_NINF } num_kind;

typedef struct rl_num {
    num_kind kind;
    mpz_t v;        /* finite: the value times 10^dscale */
    int32_t dscale;
} rl_num;

static void num_init(rl_num *n)
{
    n->kind = NUM_FINITE;
    mpz_init(n->v);
    n->dscale = 0;
}

static void num_clear(rl_num *n) { mpz_clear(n->v); }

static int bad_numeric(rl_expr_ctx *c, const char *p, size_t len, int loc)
{
    return rl_exec_error(c->x, RL_SQLSTATE_INVALID_TEXT_REPRESENTATION, loc,
                         "invalid input syntax for type numeric: \"%.*s\"", (int)len, p);
}

/* Canonical numeric text (or an integer value) -> n. */
static int num_from_value(rl_expr_ctx *c, const rl_value *val, rl_num *n, int loc)
{
    assert(!val->d.isnull);
    if (rl_oid_is_intlike(val->oid)) {
        mpz_set_si(n->v, val->d.v.i);
        n->dscale = 0;
        n->kind = NUM_FINITE;
        return 0;
    }
    assert(val->oid == RL_OID_NUMERIC);
    const char *p = (const char *)val->d.v.s.p;
    size_t len = val->d.v.s.len;
    if (len == 3 && memcmp(p, "NaN", 3) == 0) {
        n->kind = NUM_NAN;
        return 0;
    }
    if (len == 8 && memcmp(p, "Infinity", 8) == 0) {
        n->kind = NUM_PINF;
        return 0;
    }
    if (len == 9 && memcmp(p, "-Infinity", 9) == 0) {
        n->kind = NUM_NINF;
        return 0;
    }
    char small[64];
    char *digits = len < sizeof small ? small : malloc(len + 1);
    if (!digits)
        return rl_exec_error(c->x, RL_SQLSTATE_OUT_OF_MEMORY, loc, "out of memory");
    size_t nd = 0, i = 0;
    bool neg = len > 0 && p[0] == '-', point = false;
    int32_t scale = 0;
    for (i = neg ? 1 : 0; i < len; i++) {
        if (p[i] == '.' && !point) {
            point = true;
        } else if (p[i] >= '0' && p[i] <= '9') {
            digits[nd++] = p[i];
            scale += point;
        } else {
            break;
        }
    }
    digits[nd] = 0;
    int rc = 0;
    if (i != len || nd == 0 || mpz_set_str(n->v, digits, 10) != 0)
        rc = bad_numeric(c, p, len, loc);
    if (digits != small)
        free(digits);
    if (rc < 0)
        return -1;
    if (neg)
        mpz_neg(n->v, n->v);
    n->dscale = scale;
    n->kind = NUM_FINITE;
    return 0;
}

/* v * 10^k for k >= 0, in place. */
static void scale_up(mpz_t v, int32_t k)
{
    assert(k >= 0);
    if (k == 0)
        return;
    mpz_t t;
    mpz_init(t);
    mpz_ui_pow_ui(t, 10, (unsigned long)k);
    mpz_mul(v, v, t);
    mpz_clear(t);
}

/* Round n (finite) to `scale` digits after the point: half away from zero,
 * or toward zero (trunc), -inf (floor) or +inf (ceil). A scale above the
 * current one appends zeros; a negative one rounds to tens, hundreds... and
 * leaves display scale 0. */
static void round_to(rl_num *n, int32_t scale, rl_numeric_round_kind how)
{
    assert(n->kind == NUM_FINITE);
    int32_t keep = scale < 0 ? 0 : scale;
    if (scale >= n->dscale) {
        scale_up(n->v, scale - n->dscale);
        n->dscale = scale;
        return;
    }
    mpz_t d, q, r;
    mpz_inits(d, q, r, NULL);
    mpz_ui_pow_ui(d, 10, (unsigned long)((int64_t)n->dscale - scale));
    switch (how) {
    case RL_NUMERIC_TRUNC: mpz_tdiv_qr(q, r, n->v, d); break;
    case RL_NUMERIC_FLOOR: mpz_fdiv_qr(q, r, n->v, d); break;
    case RL_NUMERIC_CEIL: mpz_cdiv_qr(q, r, n->v, d); break;
    default: {
        mpz_tdiv_qr(q, r, n->v, d);
        mpz_abs(r, r);
        mpz_mul_2exp(r, r, 1);
        if (mpz_cmp(r, d) >= 0) /* |remainder| >= half: away from zero */
            mpz_sgn(n->v) < 0 ? mpz_sub_ui(q, q, 1) : mpz_add_ui(q, q, 1);
    }
    }
    /* back to display scale `keep`: q counts units of 10^-scale */
    if (scale < 0)
        scale_up(q, -scale);
    mpz_swap(n->v, q);
    n->dscale = keep;
    mpz_clears(d, q, r, NULL);
}

/* Digits of |v| before the point exceed PostgreSQL's limit? */
static bool num_overflows(const rl_num *n)
{
    if (n->kind != NUM_FINITE)
        return false;
    size_t digits = mpz_sizeinbase(n->v, 10); /* exact or one too many */
    if (digits <= (size_t)n->dscale + NUMERIC_MAX_INT_DIGITS)
        return false;
    char *s = mpz_get_str(NULL, 10, n->v);
    size_t len = strlen(s) - (s[0] == '-');
    free(s);
    return len > (size_t)n->dscale + NUMERIC_MAX_INT_DIGITS;
}

static int num_to_value(rl_expr_ctx *c, const rl_num *n, rl_value *out, int loc)
{
    switch (n->kind) {
    case NUM_NAN: return rl_val_str_copy(c, out, RL_OID_NUMERIC, "NaN", 3);
    case NUM_PINF: return rl_val_str_copy(c, out, RL_OID_NUMERIC, "Infinity", 8);
    case NUM_NINF: return rl_val_str_copy(c, out, RL_OID_NUMERIC, "-Infinity", 9);
    case NUM_FINITE: break;
    }
    if (num_overflows(n))
        return rl_exec_error(c->x, RL_SQLSTATE_NUMERIC_VALUE_OUT_OF_RANGE, -1,
                             "value overflows numeric format");
    char *s = mpz_get_str(NULL, 10, n->v);
    if (!s)
        return rl_exec_error(c->x, RL_SQLSTATE_OUT_OF_MEMORY, loc, "out of memory");
    bool neg = s[0] == '-';
    const char *digits = s + neg;
    size_t nd = strlen(digits), scale = (size_t)n->dscale;
    rl_buf b;
    rl_buf_init(&b, 0);
    if (neg)
        rl_buf_put_u8(&b, '-');
    if (nd <= scale) { /* 0.00ddd */
        rl_buf_put_u8(&b, '0');
        if (scale) {
            rl_buf_put_u8(&b, '.');
            for (size_t i = nd; i < scale; i++)
                rl_buf_put_u8(&b, '0');
            rl_buf_put(&b, digits, nd);
        }
    } else {
        rl_buf_put(&b, digits, nd - scale);
        if (scale) {
            rl_buf_put_u8(&b, '.');
            rl_buf_put(&b, digits + nd - scale, scale);
        }
    }
    free(s);
    return rl_val_buf_copy(c, out, RL_OID_NUMERIC, &b);
}

/* Bring a and b (finite) to one scale, the larger. */
static int32_t align(rl_num *a, rl_num *b)
{
    int32_t s = a->dscale > b->dscale ? a->dscale : b->dscale;
    scale_up(a->v, s - a->dscale);
    scale_up(b->v, s - b->dscale);
    a->dscale = b->dscale = s;
    return s;
}

static int sign_of(const rl_num *n)
{
    switch (n->kind) {
    case NUM_PINF: return 1;
    case NUM_NINF: return -1;
    case NUM_NAN: return 0;
    case NUM_FINITE: break;
    }
    return mpz_sgn(n->v);
}

static num_kind inf_of_sign(int s) { return s > 0 ? NUM_PINF : NUM_NINF; }

/* numeric.c's select_div_scale: the base-10000 weight and first digit of
 * each operand set the quotient's expected weight, and the scale gives it
 * at least NUMERIC_MIN_SIG_DIGITS significant digits. */
static void weight_and_first(const rl_num *n, long *weight, long *first)
{
    *weight = 0;
    *first = 0;
    if (mpz_sgn(n->v) == 0)
        return;
    long e = (long)mpz_sizeinbase(n->v, 10) - 1; /* may be one too many */
    mpz_t t, p;
    mpz_inits(t, p, NULL);
    mpz_abs(t, n->v);
    mpz_ui_pow_ui(p, 10, (unsigned long)e);
    if (mpz_cmp(t, p) < 0)
        e--;
    e -= n->dscale; /* decimal exponent of the leading digit */
    long w = e >= 0 ? e / 4 : -((-e + 3) / 4);
    long shift = (long)n->dscale + 4 * w;
    if (shift >= 0) {
        mpz_ui_pow_ui(p, 10, (unsigned long)shift);
        mpz_tdiv_q(t, t, p);
    } else {
        mpz_ui_pow_ui(p, 10, (unsigned long)-shift);
        mpz_mul(t, t, p);
    }
    *first = (long)mpz_fdiv_ui(t, 10000);
    *weight = w;
    mpz_clears(t, p, NULL);
}

static int32_t div_scale(const rl_num *a, const rl_num *b)
{
    long w1, f1, w2, f2;
    weight_and_first(a, &w1, &f1);
    weight_and_first(b, &w2, &f2);
    long qweight = w1 - w2;
    if (f1 <= f2)
        qweight--;
    long rscale = NUMERIC_MIN_SIG_DIGITS - qweight * 4;
    if (rscale < a->dscale)
        rscale = a->dscale;
    if (rscale < b->dscale)
        rscale = b->dscale;
    if (rscale < 0)
        rscale = 0;
    if (rscale > NUMERIC_MAX_DIV_SCALE)
        rscale = NUMERIC_MAX_DIV_SCALE;
    return (int32_t)rscale;
}

/* r = round(a / b, rscale), b != 0, both finite. */
static void div_round(rl_num *r, const rl_num *a, const rl_num *b, int32_t rscale)
{
    mpz_t num, den, q, rem;
    mpz_inits(num, den, q, rem, NULL);
    mpz_set(num, a->v);
    mpz_set(den, b->v);
    long e = (long)b->dscale - a->dscale + rscale;
    if (e >= 0)
        scale_up(num, (int32_t)e);
    else
        scale_up(den, (int32_t)-e);
    mpz_tdiv_qr(q, rem, num, den);
    mpz_abs(rem, rem);
    mpz_mul_2exp(rem, rem, 1);
    mpz_abs(den, den);
    if (mpz_cmp(rem, den) >= 0)
        (mpz_sgn(num) < 0) != (mpz_sgn(b->v) < 0) ? mpz_sub_ui(q, q, 1) : mpz_add_ui(q, q, 1);
    mpz_swap(r->v, q);
    r->dscale = rscale;
    r->kind = NUM_FINITE;
    mpz_clears(num, den, q, rem, NULL);
}

static int division_by_zero(rl_expr_ctx *c, int loc)
{
    (void)loc; /* PostgreSQL reports no position for run-time errors */
    return rl_exec_error(c->x, RL_SQLSTATE_DIVISION_BY_ZERO, -1, "division by zero");
}

/* The special-value rules of numeric.c; 1 when r is decided, 0 when both
 * operands are finite, -1 on error. */
static int special_result(rl_expr_ctx *c, char op, const rl_num *a, const rl_num *b, rl_num *r,
                          int loc)
{
    if (a->kind == NUM_FINITE && b->kind == NUM_FINITE)
        return 0;
    if (a->kind == NUM_NAN || b->kind == NUM_NAN) {
        r->kind = NUM_NAN;
        return 1;
    }
    int sa = sign_of(a), sb = sign_of(b);
    bool ia = a->kind != NUM_FINITE, ib = b->kind != NUM_FINITE;
    switch (op) {
    case '+':
        r->kind = ia && ib ? (sa == sb ? a->kind : NUM_NAN) : ia ? a->kind : b->kind;
        return 1;
    case '-':
        r->kind = ia && ib ? (sa != sb ? a->kind : NUM_NAN) : ia ? a->kind : inf_of_sign(-sb);
        return 1;
    case '*':
        r->kind = sa == 0 || sb == 0 ? NUM_NAN : inf_of_sign(sa * sb);
        return 1;
    case '/':
        if (ia && ib) {
            r->kind = NUM_NAN;
        } else if (ia) {
            if (sb == 0)
                return division_by_zero(c, loc);
            r->kind = inf_of_sign(sa * sb);
        } else { /* finite / infinity */
            r->kind = NUM_FINITE;
            mpz_set_ui(r->v, 0);
            r->dscale = 0;
        }
        return 1;
    default: /* % */
        if (ia) {
            r->kind = NUM_NAN;
        } else {
            if (sb == 0)
                return division_by_zero(c, loc);
            r->kind = NUM_FINITE; /* x % inf = x */
            mpz_set(r->v, a->v);
            r->dscale = a->dscale;
        }
        return 1;
    }
}

static int num_arith(rl_expr_ctx *c, char op, rl_num *a, rl_num *b, rl_num *r, int loc)
{
    int sp = special_result(c, op, a, b, r, loc);
    if (sp != 0)
        return sp < 0 ? -1 : 0;
    r->kind = NUM_FINITE;
    switch (op) {
    case '+':
        r->dscale = align(a, b);
        mpz_add(r->v, a->v, b->v);
        return 0;
    case '-':
        r->dscale = align(a, b);
        mpz_sub(r->v, a->v, b->v);
        return 0;
    case '*':
        mpz_mul(r->v, a->v, b->v);
        r->dscale = a->dscale + b->dscale;
        if (r->dscale > NUMERIC_MAX_DSCALE)
            round_to(r, NUMERIC_MAX_DSCALE, RL_NUMERIC_ROUND);
        return 0;
    case '/':
        if (mpz_sgn(b->v) == 0)
            return division_by_zero(c, loc);
        div_round(r, a, b, div_scale(a, b));
        return 0;
    default:
        if (mpz_sgn(b->v) == 0)
            return division_by_zero(c, loc);
        r->dscale = align(a, b);
        mpz_tdiv_r(r->v, a->v, b->v);
        return 0;
    }
}

int rl_numeric_arith(rl_expr_ctx *c, char op, const rl_value *a, const rl_value *b,
                     rl_value *out, int loc)
{
    assert(strchr("+-*/%", op));
    if (a->d.isnull || b->d.isnull) {
        rl_val_null(out, RL_OID_NUMERIC);
        return 0;
    }
    rl_num x, y, r;
    num_init(&x);
    num_init(&y);
    num_init(&r);
    int rc = -1;
    if (num_from_value(c, a, &x, loc) == 0 && num_from_value(c, b, &y, loc) == 0 &&
        num_arith(c, op, &x, &y, &r, loc) == 0)
        rc = num_to_value(c, &r, out, loc);
    num_clear(&x);
    num_clear(&y);
    num_clear(&r);
    return rc;
}

int rl_numeric_negate(rl_expr_ctx *c, const rl_value *a, rl_value *out, int loc)
{
    rl_num x;
    num_init(&x);
    int rc = num_from_value(c, a, &x, loc);
    if (rc == 0) {
        if (x.kind == NUM_PINF || x.kind == NUM_NINF)
            x.kind = x.kind == NUM_PINF ? NUM_NINF : NUM_PINF;
        mpz_neg(x.v, x.v);
        rc = num_to_value(c, &x, out, loc);
    }
    num_clear(&x);
    return rc;
}

int rl_numeric_round(rl_expr_ctx *c, rl_numeric_round_kind kind, const rl_value *a,
                     int64_t scale, rl_value *out, int loc)
{
    rl_num x;
    num_init(&x);
    if (num_from_value(c, a, &x, loc) < 0) {
        num_clear(&x);
        return -1;
    }
    if (x.kind != NUM_FINITE) {
        if (kind == RL_NUMERIC_ABS && x.kind == NUM_NINF)
            x.kind = NUM_PINF;
        if (kind == RL_NUMERIC_SIGN && x.kind != NUM_NAN) {
            mpz_set_si(x.v, x.kind == NUM_PINF ? 1 : -1);
            x.kind = NUM_FINITE;
        }
    } else {
        switch (kind) {
        case RL_NUMERIC_ROUND:
        case RL_NUMERIC_TRUNC:
            /* PostgreSQL 15's bounds: a numeric's largest display scale,
             * and one digit past its largest weight */
            if (scale > NUMERIC_MAX_DSCALE)
                scale = NUMERIC_MAX_DSCALE;
            if (scale < NUMERIC_MIN_ROUND_SCALE)
                scale = NUMERIC_MIN_ROUND_SCALE;
            round_to(&x, (int32_t)scale, kind);
            break;
        case RL_NUMERIC_CEIL:
        case RL_NUMERIC_FLOOR: round_to(&x, 0, kind); break;
        case RL_NUMERIC_ABS: mpz_abs(x.v, x.v); break;
        case RL_NUMERIC_SIGN:
            mpz_set_si(x.v, mpz_sgn(x.v));
            x.dscale = 0;
            break;
        }
    }
    int rc = num_to_value(c, &x, out, loc);
    num_clear(&x);
    return rc;
}

/* Sum of the non-NULL values into *sum; *count gets how many there were. */
static int sum_into(rl_expr_ctx *c, const rl_value *vals, size_t n, rl_num *sum, int64_t *count,
                    int loc)
{
    rl_num x;
    num_init(&x);
    *count = 0;
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        if (vals[i].d.isnull)
            continue;
        rc = num_from_value(c, &vals[i], &x, loc);
        if (rc == 0 && *count == 0) {
            sum->kind = x.kind;
            mpz_set(sum->v, x.v);
            sum->dscale = x.dscale;
        } else if (rc == 0) {
            rl_num r;
            num_init(&r);
            rc = num_arith(c, '+', sum, &x, &r, loc);
            sum->kind = r.kind;
            mpz_swap(sum->v, r.v);
            sum->dscale = r.dscale;
            num_clear(&r);
        }
        (*count)++;
    }
    num_clear(&x);
    return rc;
}

int rl_numeric_sum(rl_expr_ctx *c, const rl_value *vals, size_t n, rl_value *out, int loc)
{
    rl_num sum;
    num_init(&sum);
    int64_t count;
    int rc = sum_into(c, vals, n, &sum, &count, loc);
    if (rc == 0 && count == 0)
        rl_val_null(out, RL_OID_NUMERIC);
    else if (rc == 0)
        rc = num_to_value(c, &sum, out, loc);
    num_clear(&sum);
    return rc;
}

int rl_numeric_avg(rl_expr_ctx *c, const rl_value *vals, size_t n, rl_value *out, int loc)
{
    rl_num sum, cnt, r;
    num_init(&sum);
    num_init(&cnt);
    num_init(&r);
    int64_t count;
    int rc = sum_into(c, vals, n, &sum, &count, loc);
    if (rc == 0 && count == 0) {
        rl_val_null(out, RL_OID_NUMERIC);
    } else if (rc == 0) {
        mpz_set_si(cnt.v, count);
        rc = num_arith(c, '/', &sum, &cnt, &r, loc);
        if (rc == 0)
            rc = num_to_value(c, &r, out, loc);
    }
    num_clear(&sum);
    num_clear(&cnt);
    num_clear(&r);
    return rc;
}

/* ------------------------------------------------------ more functions */

int rl_numeric_sqrt(rl_expr_ctx *c, const rl_value *a, rl_value *out, int loc)
{
    rl_num x;
    num_init(&x);
    int rc = num_from_value(c, a, &x, loc);
    if (rc == 0 && (x.kind == NUM_NINF || (x.kind == NUM_FINITE && mpz_sgn(x.v) < 0)))
        rc = rl_exec_error(c->x, RL_SQLSTATE_INVALID_ARGUMENT_FOR_POWER, -1,
                           "cannot take square root of a negative number");
    if (rc == 0 && x.kind == NUM_FINITE) {
        /* numeric_sqrt: the result has about (weight + 1) * 4 / 2 digits
         * before the point; 16 significant digits at least */
        long w, first;
        weight_and_first(&x, &w, &first);
        long sweight = (w + 1) * 4 / 2 - 1;
        long rscale = NUMERIC_MIN_SIG_DIGITS - sweight;
        if (rscale < x.dscale)
            rscale = x.dscale;
        if (rscale < 0)
            rscale = 0;
        if (rscale > NUMERIC_MAX_DIV_SCALE)
            rscale = NUMERIC_MAX_DIV_SCALE;
        /* floor(sqrt(x) * 10^(rscale+1)), then rounded on its last digit */
        mpz_t n;
        mpz_init_set(n, x.v);
        long e = 2 * (rscale + 1) - x.dscale;
        assert(e >= 0);
        scale_up(n, (int32_t)e);
        mpz_sqrt(n, n);
        mpz_add_ui(n, n, 5);
        mpz_tdiv_q_ui(n, n, 10);
        mpz_swap(x.v, n);
        mpz_clear(n);
        x.dscale = (int32_t)rscale;
    }
    if (rc == 0)
        rc = num_to_value(c, &x, out, loc);
    num_clear(&x);
    return rc;
}

int rl_numeric_div_trunc(rl_expr_ctx *c, const rl_value *a, const rl_value *b, rl_value *out,
                         int loc)
{
    rl_num x, y, r;
    num_init(&x);
    num_init(&y);
    num_init(&r);
    int rc = num_from_value(c, a, &x, loc) == 0 && num_from_value(c, b, &y, loc) == 0 ? 0 : -1;
    if (rc == 0) {
        int sp = special_result(c, '/', &x, &y, &r, loc);
        if (sp < 0) {
            rc = -1;
        } else if (sp == 0) {
            if (mpz_sgn(y.v) == 0) {
                rc = division_by_zero(c, loc);
            } else {
                align(&x, &y);
                mpz_tdiv_q(r.v, x.v, y.v);
                r.dscale = 0;
                r.kind = NUM_FINITE;
            }
        } else if (r.kind == NUM_FINITE) {
            r.dscale = 0;
        }
    }
    if (rc == 0)
        rc = num_to_value(c, &r, out, loc);
    num_clear(&x);
    num_clear(&y);
    num_clear(&r);
    return rc;
}

int rl_numeric_scale(rl_expr_ctx *c, const rl_value *a, rl_value *out, int loc)
{
    rl_num x;
    num_init(&x);
    int rc = num_from_value(c, a, &x, loc);
    if (rc == 0 && x.kind != NUM_FINITE)
        rl_val_null(out, RL_OID_INT4);
    else if (rc == 0)
        rl_val_int(out, RL_OID_INT4, x.dscale);
    num_clear(&x);
    return rc;
}

int rl_numeric_trim_scale(rl_expr_ctx *c, const rl_value *a, rl_value *out, int loc)
{
    rl_num x;
    num_init(&x);
    int rc = num_from_value(c, a, &x, loc);
    while (rc == 0 && x.kind == NUM_FINITE && x.dscale > 0 && mpz_divisible_ui_p(x.v, 10)) {
        mpz_divexact_ui(x.v, x.v, 10);
        x.dscale--;
    }
    if (rc == 0)
        rc = num_to_value(c, &x, out, loc);
    num_clear(&x);
    return rc;
}

/* ------------------------------------------- exp, ln, log and power
 *
 * numeric.c's exp, ln, log and power choose a result scale from estimates
 * of the result's weight (reproduced below as numeric.c computes them, in
 * doubles) and compute the value to that scale with guard digits. Here the
 * value is computed in fixed point on GMP integers (value = z / 10^q) with
 * at least 20 guard digits and rounded half away from zero to the scale, so
 * the digits are the exact value's, as PostgreSQL's are. */

#define NUMERIC_MAX_RESULT_SCALE_X3 6000 /* exp_var's argument limit */
#define GUARD 20

/* z / 10^scale as the nearest double (numericvar_to_double_no_overflow:
 * strtod of the digits, so +-HUGE_VAL past the range). */
static double z_to_double(const mpz_t z, long scale)
{
    char *s = mpz_get_str(NULL, 10, z);
    if (!s)
        return 0;
    size_t len = strlen(s);
    char *t = malloc(len + 32);
    double d = 0;
    if (t) {
        snprintf(t, len + 32, "%se%ld", s, -scale);
        d = strtod(t, NULL);
        free(t);
    }
    free(s);
    return d;
}

static double num_to_double(const rl_num *n)
{
    return z_to_double(n->v, n->dscale);
}

static void pow10_z(mpz_t r, long k)
{
    assert(k >= 0);
    mpz_ui_pow_ui(r, 10, (unsigned long)k);
}

/* z (scale zs) brought to scale q: multiplied up, or truncated down. */
static void rescale_z(mpz_t out, const mpz_t z, long zs, long q)
{
    mpz_t p;
    mpz_init(p);
    if (q >= zs) {
        pow10_z(p, q - zs);
        mpz_mul(out, z, p);
    } else {
        pow10_z(p, zs - q);
        mpz_tdiv_q(out, z, p);
    }
    mpz_clear(p);
}

/* 2 * atanh(1 / k) at scale q (k >= 3): ln((k + 1) / (k - 1)). */
static void ln_ratio(mpz_t out, unsigned long k, long q)
{
    mpz_t term, sum, t;
    mpz_inits(term, sum, t, NULL);
    pow10_z(term, q);
    mpz_tdiv_q_ui(term, term, k); /* 1/k */
    mpz_set(sum, term);
    for (unsigned long n = 3; mpz_sgn(term); n += 2) {
        mpz_tdiv_q_ui(term, term, k * k);
        mpz_tdiv_q_ui(t, term, n);
        mpz_add(sum, sum, t);
    }
    mpz_mul_2exp(out, sum, 1);
    mpz_clears(term, sum, t, NULL);
}

/* 2 * atanh(z), z at scale q with |z| <= 0.2: ln((1 + z) / (1 - z)). */
static void atanh2(mpz_t out, const mpz_t z, long q)
{
    mpz_t z2, pw, sum, t, one;
    mpz_inits(z2, pw, sum, t, one, NULL);
    pow10_z(one, q);
    mpz_mul(z2, z, z);
    mpz_tdiv_q(z2, z2, one);
    mpz_set(pw, z);
    mpz_set(sum, z);
    for (unsigned long n = 3; mpz_sgn(pw); n += 2) {
        mpz_mul(pw, pw, z2);
        mpz_tdiv_q(pw, pw, one);
        mpz_tdiv_q_ui(t, pw, n);
        mpz_add(sum, sum, t);
    }
    mpz_mul_2exp(out, sum, 1);
    mpz_clears(z2, pw, sum, t, one, NULL);
}

/* ln(x) of a finite x > 0 at scale p + GUARD (returned), its error a few
 * units of the last place: x = m * 10^k * 2^-j with m * 2^j in [0.75,
 * 1.5), ln m by atanh, ln 2 and ln 10 = 3 ln 2 + ln 1.25 by their series. */
static long ln_fx(mpz_t out, const rl_num *x, long p)
{
    long q = p + GUARD;
    long len = (long)mpz_sizeinbase(x->v, 10);
    mpz_t m, lim, z, den, c, t;
    mpz_inits(m, lim, z, den, c, t, NULL);
    /* k: x = m * 10^k with m in [0.1, 1) (len may be one too many) */
    long k = len - x->dscale;
    rescale_z(m, x->v, (long)x->dscale + k, q); /* m = x / 10^k at scale q */
    pow10_z(lim, q);
    mpz_tdiv_q_ui(t, lim, 10);
    while (mpz_cmp(m, t) < 0) { /* len was one too many */
        mpz_mul_ui(m, m, 10);
        k--;
    }
    long j = 0;
    mpz_mul_ui(t, lim, 3);
    mpz_tdiv_q_ui(t, t, 4); /* 0.75 */
    while (mpz_cmp(m, t) < 0) {
        mpz_mul_2exp(m, m, 1);
        j++;
    }
    /* z = (m - 1) / (m + 1) */
    mpz_sub(z, m, lim);
    mpz_add(den, m, lim);
    mpz_mul(z, z, lim);
    mpz_tdiv_q(z, z, den);
    atanh2(out, z, q);
    long digits_k = 1;
    for (long a = k < 0 ? -k : k; a >= 10; a /= 10)
        digits_k++;
    long qc = q + digits_k + 2; /* k * ln 10 keeps q digits */
    mpz_t ln2;
    mpz_init(ln2);
    ln_ratio(ln2, 3, qc);
    if (j) {
        mpz_mul_si(t, ln2, -j);
        rescale_z(t, t, qc, q);
        mpz_add(out, out, t);
    }
    if (k) {
        ln_ratio(c, 9, qc);     /* ln 1.25 */
        mpz_addmul_ui(c, ln2, 3); /* ln 10 */
        mpz_mul_si(c, c, k);
        rescale_z(c, c, qc, q);
        mpz_add(out, out, c);
    }
    mpz_clears(m, lim, z, den, c, t, ln2, NULL);
    return q;
}

/* exp(x), x = xz / 10^xs with |x| < 6000, at a scale q >= p + GUARD
 * (returned) whose last places are right to within a few units: x = n ln 2
 * + r, exp(r / 2^10) by its series, squared ten times, times 2^n. */
static long exp_fx(mpz_t out, const mpz_t xz, long xs, long p)
{
    double xd = z_to_double(xz, xs); /* |x| < 6000: exp_to checked it */
    long n = lround(xd / 0.6931471805599453);
    long q = p + GUARD + (n > 0 ? (long)(n * 0.30103) + 1 : 0) + 4; /* 2^10: 4 more */
    long digits_n = 1;
    for (long a = n < 0 ? -n : n; a >= 10; a /= 10)
        digits_n++;
    long qc = q + digits_n + 2;
    mpz_t ln2, r, one, term, sum;
    mpz_inits(ln2, r, one, term, sum, NULL);
    ln_ratio(ln2, 3, qc);
    rescale_z(r, xz, xs, qc);
    mpz_mul_si(ln2, ln2, n);
    mpz_sub(r, r, ln2);
    rescale_z(r, r, qc, q);
    mpz_tdiv_q_2exp(r, r, 10);
    pow10_z(one, q);
    mpz_set(term, one);
    mpz_set(sum, one);
    for (unsigned long k = 1; mpz_sgn(term); k++) {
        mpz_mul(term, term, r);
        mpz_tdiv_q(term, term, one);
        mpz_tdiv_q_ui(term, term, k);
        mpz_add(sum, sum, term);
    }
    for (int i = 0; i < 10; i++) {
        mpz_mul(sum, sum, sum);
        mpz_tdiv_q(sum, sum, one);
    }
    if (n >= 0)
        mpz_mul_2exp(out, sum, (mp_bitcnt_t)n);
    else
        mpz_tdiv_q_2exp(out, sum, (mp_bitcnt_t)-n);
    mpz_clears(ln2, r, one, term, sum, NULL);
    return q;
}

/* floor(log10(|z| / 10^scale)), z != 0. */
static long dec_exponent(const mpz_t z, long scale)
{
    long e = (long)mpz_sizeinbase(z, 10) - 1; /* may be one too many */
    mpz_t a, p;
    mpz_inits(a, p, NULL);
    mpz_abs(a, z);
    pow10_z(p, e);
    if (mpz_cmp(a, p) < 0)
        e--;
    mpz_clears(a, p, NULL);
    return e - scale;
}

/* numeric.c's estimate_ln_dweight: the decimal weight of ln(x), from x - 1
 * near 1, else from x's first two base-10000 digits in doubles. */
static long estimate_ln_dweight(const rl_num *x)
{
    if (mpz_sgn(x->v) == 0)
        return 0;
    mpz_t t, p;
    mpz_inits(t, p, NULL);
    pow10_z(p, x->dscale);
    mpz_mul_ui(t, x->v, 10);
    long r;
    mpz_mul_ui(p, p, 9);
    bool near_one = mpz_cmp(t, p) >= 0;
    mpz_divexact_ui(p, p, 9);
    mpz_mul_ui(p, p, 11);
    near_one = near_one && mpz_cmp(t, p) <= 0;
    if (near_one) { /* 0.9 <= x <= 1.1: ln(1 + d) ~ d */
        mpz_divexact_ui(p, p, 11);
        mpz_sub(t, x->v, p);
        r = mpz_sgn(t) ? dec_exponent(t, x->dscale) : 0;
    } else {
        long e = dec_exponent(x->v, x->dscale);
        long w = e >= 0 ? e / 4 : -((-e + 3) / 4); /* base-10000 weight */
        long shift = (long)x->dscale + 4 * w - 4;  /* two digits of base 10000 */
        mpz_abs(t, x->v);
        if (shift >= 0) {
            pow10_z(p, shift);
            mpz_tdiv_q(t, t, p);
        } else {
            pow10_z(p, -shift);
            mpz_mul(t, t, p);
        }
        unsigned long two = mpz_get_ui(t), d0 = two / 10000, d1 = two % 10000;
        bool more = false; /* a digit of base 10000 after the first */
        if (shift + 4 > 0) {
            pow10_z(p, shift + 4);
            mpz_abs(t, x->v);
            more = !mpz_divisible_p(t, p);
        }
        double digits = more ? (double)(d0 * 10000 + d1) : (double)d0;
        long dweight = 4 * w - (more ? 4 : 0);
        double ln_x = log(digits) + (double)dweight * 2.302585092994046;
        r = (long)log10(fabs(ln_x));
    }
    mpz_clears(t, p, NULL);
    return r;
}

static long clamp_scale(long rscale)
{
    if (rscale < 0)
        rscale = 0;
    return rscale > NUMERIC_MAX_DIV_SCALE ? NUMERIC_MAX_DIV_SCALE : rscale;
}

/* r = z / 10^q rounded to rscale. */
static void set_rounded(rl_num *r, mpz_t z, long q, long rscale)
{
    mpz_swap(r->v, z);
    r->dscale = (int32_t)q;
    r->kind = NUM_FINITE;
    round_to(r, (int32_t)rscale, RL_NUMERIC_ROUND);
}

static void set_zero(rl_num *r, long dscale)
{
    r->kind = NUM_FINITE;
    mpz_set_ui(r->v, 0);
    r->dscale = (int32_t)dscale;
}

static int overflows(rl_expr_ctx *c)
{
    return rl_exec_error(c->x, RL_SQLSTATE_NUMERIC_VALUE_OUT_OF_RANGE, -1,
                         "value overflows numeric format");
}

/* e^x to rscale, |x| < 6000 (else overflow, or zero below). */
static int exp_to(rl_expr_ctx *c, const mpz_t xz, long xs, long rscale, rl_num *r)
{
    double xd = z_to_double(xz, xs);
    if (fabs(xd) >= NUMERIC_MAX_RESULT_SCALE_X3) {
        if (xd > 0)
            return overflows(c);
        set_zero(r, rscale);
        return 0;
    }
    mpz_t z;
    mpz_init(z);
    long q = exp_fx(z, xz, xs, rscale);
    set_rounded(r, z, q, rscale);
    mpz_clear(z);
    return 0;
}

static int log_error(rl_expr_ctx *c, const rl_num *x)
{
    return rl_exec_error(c->x, RL_SQLSTATE_INVALID_ARGUMENT_FOR_LOG, -1,
                         sign_of(x) == 0 ? "cannot take logarithm of zero"
                                         : "cannot take logarithm of a negative number");
}

/* The function of one numeric: read it, compute, write the result. */
typedef int (*num_fn2)(rl_expr_ctx *c, const rl_num *x, const rl_num *y, rl_num *r);

static int run2(rl_expr_ctx *c, num_fn2 fn, const rl_value *a, const rl_value *b, rl_value *out,
                int loc)
{
    rl_num x, y, r;
    num_init(&x);
    num_init(&y);
    num_init(&r);
    int rc = num_from_value(c, a, &x, loc) == 0 && num_from_value(c, b, &y, loc) == 0 ? 0 : -1;
    if (rc == 0)
        rc = fn(c, &x, &y, &r);
    if (rc == 0)
        rc = num_to_value(c, &r, out, loc);
    num_clear(&x);
    num_clear(&y);
    num_clear(&r);
    return rc;
}

static int num_exp(rl_expr_ctx *c, const rl_num *x, const rl_num *unused, rl_num *r)
{
    (void)unused;
    if (x->kind != NUM_FINITE) { /* exp(-Infinity) is 0 */
        r->kind = x->kind == NUM_NINF ? NUM_FINITE : x->kind;
        return 0;
    }
    double val = num_to_double(x) * 0.434294481903252; /* the result's decimal weight */
    if (val > NUMERIC_MAX_RESULT_SCALE)
        val = NUMERIC_MAX_RESULT_SCALE;
    if (val < -NUMERIC_MAX_RESULT_SCALE)
        val = -NUMERIC_MAX_RESULT_SCALE;
    long rscale = NUMERIC_MIN_SIG_DIGITS - (long)val;
    if (rscale < x->dscale)
        rscale = x->dscale;
    return exp_to(c, x->v, x->dscale, clamp_scale(rscale), r);
}

static int num_ln(rl_expr_ctx *c, const rl_num *x, const rl_num *unused, rl_num *r)
{
    (void)unused;
    if (x->kind == NUM_NAN || x->kind == NUM_PINF) {
        r->kind = x->kind;
        return 0;
    }
    if (sign_of(x) <= 0)
        return log_error(c, x);
    long rscale = NUMERIC_MIN_SIG_DIGITS - estimate_ln_dweight(x);
    if (rscale < x->dscale)
        rscale = x->dscale;
    rscale = clamp_scale(rscale);
    mpz_t z;
    mpz_init(z);
    long q = ln_fx(z, x, rscale);
    set_rounded(r, z, q, rscale);
    mpz_clear(z);
    return 0;
}

/* log(b, x) as numeric.c's numeric_log and log_var: ln x / ln b to a scale
 * from both logarithms' estimated weights. */
static int num_log(rl_expr_ctx *c, const rl_num *b, const rl_num *x, rl_num *r)
{
    if (b->kind != NUM_FINITE || x->kind != NUM_FINITE) {
        if (b->kind == NUM_NAN || x->kind == NUM_NAN) {
            r->kind = NUM_NAN;
            return 0;
        }
        if (sign_of(b) <= 0)
            return log_error(c, b);
        if (sign_of(x) <= 0)
            return log_error(c, x);
        if (b->kind == NUM_PINF) { /* log(Inf, Inf) is NaN, log(Inf, x) 0 */
            if (x->kind == NUM_PINF)
                r->kind = NUM_NAN;
            return 0;
        }
        r->kind = NUM_PINF;
        return 0;
    }
    if (sign_of(b) <= 0)
        return log_error(c, b);
    if (sign_of(x) <= 0)
        return log_error(c, x);
    long bw = estimate_ln_dweight(b), xw = estimate_ln_dweight(x), rw = xw - bw;
    long rscale = NUMERIC_MIN_SIG_DIGITS - rw;
    if (rscale < b->dscale)
        rscale = b->dscale;
    if (rscale < x->dscale)
        rscale = x->dscale;
    rscale = clamp_scale(rscale);
    long p = rscale + (rw > 0 ? rw : 0) + (bw < 0 ? -bw : 0) + 10;
    mpz_t lb, lx, t;
    mpz_inits(lb, lx, t, NULL);
    ln_fx(lb, b, p);
    ln_fx(lx, x, p);
    pow10_z(t, b->dscale);
    int rc = 0;
    if (mpz_cmp(b->v, t) == 0) { /* ln 1 = 0 */
        rc = division_by_zero(c, -1);
    } else {
        pow10_z(t, rscale + GUARD);
        mpz_mul(lx, lx, t);
        mpz_tdiv_q(lx, lx, lb);
        set_rounded(r, lx, rscale + GUARD, rscale);
    }
    mpz_clears(lb, lx, t, NULL);
    return rc;
}

/* The special values of power(), POSIX's pow() rules as numeric_power
 * applies them: 1 decided with r set, 0 not special, -1 error. */
static int power_special(rl_expr_ctx *c, const rl_num *b, const rl_num *y, rl_num *r);

static bool is_integral(const rl_num *y)
{
    if (y->kind != NUM_FINITE)
        return false;
    mpz_t p;
    mpz_init(p);
    pow10_z(p, y->dscale);
    bool yes = mpz_divisible_p(y->v, p);
    mpz_clear(p);
    return yes;
}

static int power_errors(rl_expr_ctx *c, int sb, int sy, bool integral)
{
    if (sb == 0 && sy < 0)
        return rl_exec_error(c->x, RL_SQLSTATE_INVALID_ARGUMENT_FOR_POWER, -1,
                             "zero raised to a negative power is undefined");
    if (sb < 0 && !integral)
        return rl_exec_error(c->x, RL_SQLSTATE_INVALID_ARGUMENT_FOR_POWER, -1,
                             "a negative number raised to a non-integer power yields a "
                             "complex result");
    return 0;
}

static int power_special(rl_expr_ctx *c, const rl_num *b, const rl_num *y, rl_num *r)
{
    if (b->kind == NUM_FINITE && y->kind == NUM_FINITE)
        return 0;
    bool b_one = b->kind == NUM_FINITE && mpz_cmp_ui(b->v, 1) == 0 && b->dscale == 0;
    if (b->kind == NUM_FINITE && !b_one) { /* 1.000 is one too */
        mpz_t p;
        mpz_init(p);
        pow10_z(p, b->dscale);
        b_one = mpz_cmp(b->v, p) == 0;
        mpz_clear(p);
    }
    if (b->kind == NUM_NAN || y->kind == NUM_NAN) { /* NaN ^ 0 = 1, 1 ^ NaN = 1 */
        bool one = (b->kind == NUM_NAN && y->kind == NUM_FINITE && mpz_sgn(y->v) == 0) ||
                   (y->kind == NUM_NAN && b_one);
        r->kind = one ? NUM_FINITE : NUM_NAN;
        mpz_set_ui(r->v, one);
        return 1;
    }
    int sb = sign_of(b), sy = sign_of(y);
    if (power_errors(c, sb, sy, y->kind != NUM_FINITE || is_integral(y)) < 0)
        return -1;
    r->kind = NUM_FINITE;
    if (b_one || sy == 0) {
        mpz_set_ui(r->v, 1);
        return 1;
    }
    if (sb == 0) { /* 0 ^ positive */
        mpz_set_ui(r->v, 0);
        return 1;
    }
    if (y->kind != NUM_FINITE) { /* x ^ +-Inf */
        bool gt_one = true;
        if (b->kind == NUM_FINITE) {
            mpz_t p, a;
            mpz_inits(p, a, NULL);
            pow10_z(p, b->dscale);
            mpz_abs(a, b->v);
            int cmp = mpz_cmp(a, p);
            mpz_clears(p, a, NULL);
            if (cmp == 0) { /* -1 ^ +-Inf */
                mpz_set_ui(r->v, 1);
                return 1;
            }
            gt_one = cmp > 0;
        }
        if (gt_one == (sy > 0))
            r->kind = NUM_PINF;
        else
            mpz_set_ui(r->v, 0);
        return 1;
    }
    if (b->kind == NUM_PINF) {
        if (sy > 0)
            r->kind = NUM_PINF;
        else
            mpz_set_ui(r->v, 0);
        return 1;
    }
    /* -Inf ^ y: 0 for y < 0; -Inf for an odd integer y > 0, else +Inf */
    if (sy < 0) {
        mpz_set_ui(r->v, 0);
        return 1;
    }
    bool odd = false;
    if (is_integral(y)) {
        mpz_t p, q;
        mpz_inits(p, q, NULL);
        pow10_z(p, y->dscale);
        mpz_tdiv_q(q, y->v, p);
        odd = mpz_odd_p(q);
        mpz_clears(p, q, NULL);
    }
    r->kind = odd ? NUM_NINF : NUM_PINF;
    return 1;
}

/* b ^ e for an integer e that fits int32: exact (b^e, or 10^k / b^-e),
 * rounded to max(16, b's scale) digits, as power_var_int's result. */
static int power_int(rl_expr_ctx *c, const rl_num *b, long e, rl_num *r, bool *done)
{
    long rscale = clamp_scale(b->dscale > NUMERIC_MIN_SIG_DIGITS ? b->dscale
                                                                  : NUMERIC_MIN_SIG_DIGITS);
    *done = true;
    if (e == 0 || mpz_sgn(b->v) == 0) {
        set_zero(r, rscale);
        mpz_set_ui(r->v, e == 0);
        if (e == 0)
            scale_up(r->v, (int32_t)rscale);
        return 0;
    }
    double f = (double)e * log10(fabs(num_to_double(b)));
    if (f > NUMERIC_MAX_INT_DIGITS + 16)
        return overflows(c);
    if (f + 1 < -(double)rscale - 2) { /* rounds to zero */
        set_zero(r, rscale);
        return 0;
    }
    unsigned long ae = (unsigned long)(e < 0 ? -e : e);
    if ((double)b->dscale * (double)ae > 200000 || f > 140000) {
        *done = false; /* too many digits to be exact: through exp and ln */
        return 0;
    }
    mpz_t v, t;
    mpz_inits(v, t, NULL);
    mpz_abs(t, b->v);
    mpz_pow_ui(v, t, ae);
    long vs = (long)b->dscale * (long)ae;
    if (e > 0) {
        set_rounded(r, v, vs, rscale);
    } else { /* 10^vs / v */
        pow10_z(t, vs + rscale + GUARD);
        mpz_tdiv_q(t, t, v);
        set_rounded(r, t, rscale + GUARD, rscale);
    }
    if (mpz_sgn(b->v) < 0 && (ae & 1))
        mpz_neg(r->v, r->v);
    mpz_clears(v, t, NULL);
    return 0;
}

static long int_digits(const rl_num *y)
{
    long e = mpz_sgn(y->v) ? dec_exponent(y->v, y->dscale) : 0;
    return e > 0 ? e + 1 : 1;
}

/* b ^ y through exp(y ln b), b > 0: power_var's scale, from a first
 * estimate of y ln b at 8 significant digits. */
static int power_real(rl_expr_ctx *c, const rl_num *b, const rl_num *y, rl_num *r)
{
    if (mpz_sgn(b->v) == 0) {
        set_zero(r, NUMERIC_MIN_SIG_DIGITS);
        return 0;
    }
    long lw = estimate_ln_dweight(b);
    long local = clamp_scale(8 - lw);
    rl_num lnb, est;
    num_init(&lnb);
    num_init(&est);
    mpz_t z;
    mpz_init(z);
    long q = ln_fx(z, b, local);
    set_rounded(&lnb, z, q, local);
    mpz_mul(est.v, lnb.v, y->v);
    est.dscale = lnb.dscale + y->dscale;
    round_to(&est, (int32_t)local, RL_NUMERIC_ROUND);
    double val = num_to_double(&est);
    num_clear(&lnb);
    num_clear(&est);
    int rc = 0;
    if (fabs(val) > NUMERIC_MAX_RESULT_SCALE_X3 * 1.003333) { /* power_var's fuzz factor */
        if (val > 0)
            rc = overflows(c);
        else
            set_zero(r, NUMERIC_MAX_DIV_SCALE); /* underflow: zero at the largest scale */
    } else {
        val *= 0.434294481903252;
        long rscale = NUMERIC_MIN_SIG_DIGITS - (long)val;
        if (rscale < b->dscale)
            rscale = b->dscale;
        if (rscale < y->dscale)
            rscale = y->dscale;
        rscale = clamp_scale(rscale);
        long pa = rscale + (val > 0 ? (long)val : 0) + 10;
        q = ln_fx(z, b, pa + int_digits(y) + 5);
        mpz_mul(z, z, y->v);
        rc = exp_to(c, z, q + y->dscale, rscale, r);
    }
    mpz_clear(z);
    return rc;
}

static int num_power(rl_expr_ctx *c, const rl_num *b, const rl_num *y, rl_num *r)
{
    int sp = power_special(c, b, y, r);
    if (sp != 0)
        return sp < 0 ? -1 : 0;
    bool integral = is_integral(y);
    if (power_errors(c, sign_of(b), sign_of(y), integral) < 0)
        return -1;
    if (integral) {
        mpz_t p, e;
        mpz_inits(p, e, NULL);
        pow10_z(p, y->dscale);
        mpz_tdiv_q(e, y->v, p);
        bool fits = mpz_cmp_si(e, INT32_MIN) >= 0 && mpz_cmp_si(e, INT32_MAX) <= 0;
        long ev = fits ? mpz_get_si(e) : (long)mpz_odd_p(e); /* else its parity */
        mpz_clears(p, e, NULL);
        bool done = false;
        if (fits && power_int(c, b, ev, r, &done) < 0)
            return -1;
        if (done)
            return 0;
        if (sign_of(b) < 0) { /* an odd power keeps the sign */
            rl_num ab = {NUM_FINITE, {{0}}, b->dscale};
            mpz_init(ab.v);
            mpz_abs(ab.v, b->v);
            int rc = power_real(c, &ab, y, r);
            mpz_clear(ab.v);
            if (rc == 0 && (ev & 1))
                mpz_neg(r->v, r->v);
            return rc;
        }
    }
    return power_real(c, b, y, r);
}

int rl_numeric_exp(rl_expr_ctx *c, const rl_value *a, rl_value *out, int loc)
{
    return run2(c, num_exp, a, a, out, loc);
}

int rl_numeric_ln(rl_expr_ctx *c, const rl_value *a, rl_value *out, int loc)
{
    return run2(c, num_ln, a, a, out, loc);
}

int rl_numeric_log(rl_expr_ctx *c, const rl_value *base, const rl_value *a, rl_value *out,
                   int loc)
{
    return run2(c, num_log, base, a, out, loc);
}

int rl_numeric_power(rl_expr_ctx *c, const rl_value *a, const rl_value *b, rl_value *out,
                     int loc)
{
    return run2(c, num_power, a, b, out, loc);
}

/* ------------------------------------------------ generate_series(numeric) */

static bool text_is(const rl_value *v, const char *s)
{
    size_t n = strlen(s);
    return v->d.v.s.len == n && memcmp(v->d.v.s.p, s, n) == 0;
}

/* The sign of a finite numeric in canonical text: -1, 0 or 1. */
static int text_sign(const rl_value *v)
{
    const uint8_t *p = v->d.v.s.p;
    size_t n = v->d.v.s.len;
    bool digit = false;
    for (size_t i = 0; i < n; i++)
        digit |= p[i] >= '1' && p[i] <= '9';
    return !digit ? 0 : n && p[0] == '-' ? -1 : 1;
}

int rl_numeric_series_prepare(rl_expr_ctx *c, rl_value *a, size_t n, int *dir, int loc)
{
    static const char *const what[] = {"start value", "stop value", "step size"};
    assert(n == 2 || n == 3);
    if (n == 2)
        rl_val_int(&a[2], RL_OID_INT4, 1);
    for (size_t i = 0; i < 3; i++)
        if (rl_value_coerce(c, &a[i], RL_OID_NUMERIC, -1, false, &a[i], loc) < 0)
            return -1;
    *dir = 1;
    if (a[0].d.isnull || a[1].d.isnull || a[2].d.isnull)
        return 0; /* strict: no rows, nothing checked */
    for (size_t i = 0; i < 3; i++) {
        if (text_is(&a[i], "NaN"))
            return rl_exec_error(c->x, RL_SQLSTATE_INVALID_PARAMETER_VALUE, -1,
                                 "%s cannot be NaN", what[i]);
        if (text_is(&a[i], "Infinity") || text_is(&a[i], "-Infinity"))
            return rl_exec_error(c->x, RL_SQLSTATE_INVALID_PARAMETER_VALUE, -1,
                                 "%s cannot be infinity", what[i]);
    }
    *dir = text_sign(&a[2]);
    if (*dir == 0)
        return rl_exec_error(c->x, RL_SQLSTATE_INVALID_PARAMETER_VALUE, -1,
                             "step size cannot equal zero");
    return 0;
}


/* ------------------------------------------ factorial, width_bucket */

int rl_numeric_factorial(rl_expr_ctx *c, int64_t k, rl_value *out, int loc)
{
    if (k < 0)
        return rl_exec_error(c->x, RL_SQLSTATE_NUMERIC_VALUE_OUT_OF_RANGE, -1,
                             "factorial of a negative number is undefined");
    if (k > 32177) /* numeric_fac's bound: 32178! has more than 131072 digits */
        return rl_exec_error(c->x, RL_SQLSTATE_NUMERIC_VALUE_OUT_OF_RANGE, -1,
                             "value overflows numeric format");
    rl_num r;
    num_init(&r);
    mpz_fac_ui(r.v, (unsigned long)(k < 1 ? 1 : k));
    int rc = num_to_value(c, &r, out, loc);
    num_clear(&r);
    return rc;
}

/* Three-way comparison of a and b (neither NaN); infinities order. */
static int num_cmp(const rl_num *a, const rl_num *b)
{
    int ka = a->kind == NUM_PINF ? 1 : a->kind == NUM_NINF ? -1 : 0;
    int kb = b->kind == NUM_PINF ? 1 : b->kind == NUM_NINF ? -1 : 0;
    if (ka || kb)
        return ka < kb ? -1 : ka > kb;
    rl_num x, y;
    num_init(&x);
    num_init(&y);
    mpz_set(x.v, a->v);
    x.dscale = a->dscale;
    mpz_set(y.v, b->v);
    y.dscale = b->dscale;
    align(&x, &y);
    int r = mpz_cmp(x.v, y.v);
    num_clear(&x);
    num_clear(&y);
    return r < 0 ? -1 : r > 0;
}

static int bucket_error(rl_expr_ctx *c, const char *msg)
{
    return rl_exec_error(c->x, RL_SQLSTATE_INVALID_ARGUMENT_FOR_WIDTH_BUCKET_FUNCTION, -1, "%s",
                         msg);
}

/* floor(round((x - lo) * count / (hi - lo), select_div_scale)) + 1, as
 * numeric.c's compute_bucket (it multiplies first, then divides with the
 * usual rounding); x, lo, hi finite, lo != hi. For a reversed range the
 * differences are taken the other way round. */
static void compute_bucket(rl_num *x, rl_num *lo, rl_num *hi, int32_t count, bool reversed,
                           mpz_t result)
{
    rl_num num, den, q;
    num_init(&num);
    num_init(&den);
    num_init(&q);
    if (!reversed) {
        num.dscale = align(x, lo);
        mpz_sub(num.v, x->v, lo->v);
        den.dscale = align(hi, lo);
        mpz_sub(den.v, hi->v, lo->v);
    } else {
        num.dscale = align(lo, x);
        mpz_sub(num.v, lo->v, x->v);
        den.dscale = align(lo, hi);
        mpz_sub(den.v, lo->v, hi->v);
    }
    mpz_mul_si(num.v, num.v, count);
    div_round(&q, &num, &den, div_scale(&num, &den));
    mpz_t p;
    mpz_init(p);
    mpz_ui_pow_ui(p, 10, (unsigned long)q.dscale);
    mpz_fdiv_q(result, q.v, p);
    mpz_add_ui(result, result, 1);
    mpz_clear(p);
    num_clear(&num);
    num_clear(&den);
    num_clear(&q);
}

int rl_numeric_width_bucket(rl_expr_ctx *c, const rl_value *operand, const rl_value *b1,
                            const rl_value *b2, int32_t count, rl_value *out, int loc)
{
    assert(count > 0);
    rl_num x, lo, hi;
    num_init(&x);
    num_init(&lo);
    num_init(&hi);
    mpz_t r;
    mpz_init(r);
    int rc = num_from_value(c, operand, &x, loc) == 0 && num_from_value(c, b1, &lo, loc) == 0 &&
                     num_from_value(c, b2, &hi, loc) == 0
                 ? 0
                 : -1;
    if (rc == 0 && (x.kind == NUM_NAN || lo.kind == NUM_NAN || hi.kind == NUM_NAN))
        rc = bucket_error(c, "operand, lower bound, and upper bound cannot be NaN");
    else if (rc == 0 && (lo.kind != NUM_FINITE || hi.kind != NUM_FINITE))
        rc = bucket_error(c, "lower and upper bounds must be finite");
    int bounds = rc == 0 ? num_cmp(&lo, &hi) : 0;
    if (rc == 0 && bounds == 0)
        rc = bucket_error(c, "lower bound cannot equal upper bound");
    if (rc == 0) {
        int below = num_cmp(&x, &lo), above = num_cmp(&x, &hi);
        if (bounds < 0 ? below < 0 : below > 0)
            mpz_set_ui(r, 0);
        else if (bounds < 0 ? above >= 0 : above <= 0)
            mpz_set_si(r, (long)count + 1);
        else
            compute_bucket(&x, &lo, &hi, count, bounds > 0, r);
        if (!mpz_fits_slong_p(r) || mpz_get_si(r) > INT32_MAX)
            rc = rl_range_error(c, RL_OID_INT4, -1);
        else
            rl_val_int(out, RL_OID_INT4, mpz_get_si(r));
    }
    mpz_clear(r);
    num_clear(&x);
    num_clear(&lo);
    num_clear(&hi);
    return rc;
}

/* ------------------------------------------- variance and stddev */

/* numeric.c's numeric_stddev_internal over the non-NULL values (integers
 * or numerics) of vals[0..n): N * sum(x^2) - sum(x)^2 exactly (the sums
 * keep the largest input scale d, so the numerator has scale 2d), divided
 * by N * (N - 1) (sample) or N * N (population) at select_div_scale's
 * scale, then for a standard deviation the square root of that rounded
 * quotient at the same scale. NULL with no values, or one for a sample
 * (even a NaN); else NaN when a NaN or an infinity is among them; 0 when rounding made the
 * numerator zero or negative (it cannot be, being exact, unless zero). */
int rl_numeric_variance(rl_expr_ctx *c, const rl_value *vals, size_t n, bool sample,
                        bool stddev, rl_value *out, int loc)
{
    rl_num x, sx, sxx, num, den, q;
    num_init(&x);
    num_init(&sx);
    num_init(&sxx);
    num_init(&num);
    num_init(&den);
    num_init(&q);
    int64_t count = 0;
    bool special = false;
    int rc = 0;
    for (size_t i = 0; i < n && rc == 0; i++) {
        if (vals[i].d.isnull)
            continue;
        count++;
        rc = num_from_value(c, &vals[i], &x, loc);
        if (rc < 0 || x.kind != NUM_FINITE) {
            special = true;
            continue;
        }
        /* sx at scale max(d), sxx at scale 2 * max(d) */
        if (x.dscale > sx.dscale) {
            scale_up(sx.v, x.dscale - sx.dscale);
            scale_up(sxx.v, 2 * (x.dscale - sx.dscale));
            sx.dscale = x.dscale;
            sxx.dscale = 2 * x.dscale;
        }
        mpz_t t;
        mpz_init(t);
        mpz_mul(t, x.v, x.v);
        scale_up(t, sxx.dscale - 2 * x.dscale);
        mpz_add(sxx.v, sxx.v, t);
        mpz_set(t, x.v);
        scale_up(t, sx.dscale - x.dscale);
        mpz_add(sx.v, sx.v, t);
        mpz_clear(t);
    }
    bool null = rc == 0 && (count == 0 || (sample && count <= 1));
    if (rc == 0 && null) {
        rl_val_null(out, RL_OID_NUMERIC);
    } else if (rc == 0 && special) {
        q.kind = NUM_NAN;
        rc = num_to_value(c, &q, out, loc);
    } else if (rc == 0) {
        /* num = N * sxx - sx^2 at scale 2d */
        mpz_mul_si(num.v, sxx.v, count);
        mpz_t t;
        mpz_init(t);
        mpz_mul(t, sx.v, sx.v);
        mpz_sub(num.v, num.v, t);
        mpz_clear(t);
        num.dscale = sxx.dscale;
        if (mpz_sgn(num.v) <= 0) {
            rc = num_to_value(c, &q, out, loc); /* q is 0, scale 0 */
        } else {
            mpz_set_si(den.v, count);
            mpz_mul_si(den.v, den.v, sample ? count - 1 : count);
            int32_t rscale = div_scale(&num, &den);
            div_round(&q, &num, &den, rscale);
            if (stddev) { /* floor(sqrt * 10^(rscale+1)), rounded on its last digit */
                mpz_t r;
                mpz_init_set(r, q.v);
                scale_up(r, rscale + 2);
                mpz_sqrt(r, r);
                mpz_add_ui(r, r, 5);
                mpz_tdiv_q_ui(r, r, 10);
                mpz_swap(q.v, r);
                mpz_clear(r);
            }
            rc = num_to_value(c, &q, out, loc);
        }
    }
    num_clear(&x);
    num_clear(&sx);
    num_clear(&sxx);
    num_clear(&num);
    num_clear(&den);
    num_clear(&q);
    return rc;
}
