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
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "sql/sql_cast.h"
#include "sql/sql_numeric.h"

#define NUMERIC_MAX_INT_DIGITS 131072 /* digits before the point */
#define NUMERIC_MAX_DSCALE 16383
#define NUMERIC_MAX_DIV_SCALE 1000   /* NUMERIC_MAX_DISPLAY_SCALE */
#define NUMERIC_MIN_SIG_DIGITS 16
#define NUMERIC_MAX_RESULT_SCALE 2000 /* round()/trunc()'s bound on s */

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
            if (scale > NUMERIC_MAX_RESULT_SCALE)
                scale = NUMERIC_MAX_RESULT_SCALE;
            if (scale < -NUMERIC_MAX_RESULT_SCALE)
                scale = -NUMERIC_MAX_RESULT_SCALE;
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
