/*
 * numfmt.c — PostgreSQL 15's numeric format patterns (numfmt.h): the
 * pattern parser with formatting.c's checks, the digits of int4, int8,
 * float4/8 and numeric values for a pattern, the layout of those digits
 * (to_char) and the reading of text back into digits (to_number).
 *
 * Invariants: the layout writes each node's bytes in order (a NUL written
 * where PostgreSQL writes one ends its C string: the text stops there, as
 * it does in PostgreSQL); the digit cursor never passes the digits' end.
 */
#include "pgtype/numfmt.h"

#include <assert.h>
#include <ctype.h>
#include <float.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"

#define SQLSTATE_SYNTAX RL_SQLSTATE_SYNTAX_ERROR
#define SQLSTATE_OOM RL_SQLSTATE_OUT_OF_MEMORY
#define SQLSTATE_BAD_TEXT RL_SQLSTATE_INVALID_TEXT_REPRESENTATION
#define SQLSTATE_NOT_SUPPORTED RL_SQLSTATE_FEATURE_NOT_SUPPORTED
#define SQLSTATE_RANGE RL_SQLSTATE_NUMERIC_VALUE_OUT_OF_RANGE

enum nf_id {
    NF_COMMA, NF_DEC, NF_0, NF_9, NF_B, NF_C, NF_D, NF_E, NF_FM, NF_G, NF_L, NF_MI, NF_PL,
    NF_PR, NF_RN, NF_SG, NF_SP, NF_S, NF_TH, NF_V, NF_rn, NF_th
};

/* The keywords; of those sharing a first character the longer come first,
 * so the first that matches is PostgreSQL's. */
static const struct nf_kw {
    const char *name;
    uint8_t len;
    uint8_t id;
} nf_keywords[] = {
    {",", 1, NF_COMMA}, {".", 1, NF_DEC}, {"0", 1, NF_0},    {"9", 1, NF_9},
    {"B", 1, NF_B},     {"C", 1, NF_C},   {"D", 1, NF_D},    {"EEEE", 4, NF_E},
    {"FM", 2, NF_FM},   {"G", 1, NF_G},   {"L", 1, NF_L},    {"MI", 2, NF_MI},
    {"PL", 2, NF_PL},   {"PR", 2, NF_PR}, {"RN", 2, NF_RN},  {"SG", 2, NF_SG},
    {"SP", 2, NF_SP},   {"S", 1, NF_S},   {"TH", 2, NF_TH},  {"V", 1, NF_V},
    {"b", 1, NF_B},     {"c", 1, NF_C},   {"d", 1, NF_D},    {"eeee", 4, NF_E},
    {"fm", 2, NF_FM},   {"g", 1, NF_G},   {"l", 1, NF_L},    {"mi", 2, NF_MI},
    {"pl", 2, NF_PL},   {"pr", 2, NF_PR}, {"rn", 2, NF_rn},  {"sg", 2, NF_SG},
    {"sp", 2, NF_SP},   {"s", 1, NF_S},   {"th", 2, NF_th},  {"v", 1, NF_V},
};

static int set_err(rl_numfmt_error *err, const char *state, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int set_err(rl_numfmt_error *err, const char *state, const char *fmt, ...)
{
    err->sqlstate = state;
    err->detail[0] = '\0';
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(err->msg, sizeof err->msg, fmt, ap);
    va_end(ap);
    return -1;
}

/* The error set_err just set gets PostgreSQL's DETAIL; -1. */
static int err_detail(rl_numfmt_error *err, const char *detail)
{
    snprintf(err->detail, sizeof err->detail, "%s", detail);
    return -1;
}

/* Bytes of the UTF-8 character at s (PostgreSQL's pg_mblen), at most left. */
static size_t mblen_at(const char *s, size_t left)
{
    unsigned char c = (unsigned char)*s;
    size_t n = (c & 0x80) == 0 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3
                                     : (c & 0xf8) == 0xf0 ? 4 : 1;
    return n < left ? n : left;
}

static const struct nf_kw *lookup(const char *s, size_t left)
{
    for (size_t i = 0; i < sizeof nf_keywords / sizeof nf_keywords[0]; i++) {
        const struct nf_kw *k = &nf_keywords[i];
        if (k->len <= left && memcmp(s, k->name, k->len) == 0)
            return k;
    }
    return NULL;
}

/* ------------------------------------------------------------- parsing */

#define IS(f, x) (((f)->flag & RL_NUMFMT_F_##x) != 0)

/* What one pattern says about the number, with formatting.c's refusals. */
static int describe(rl_numfmt *f, int id, rl_numfmt_error *err)
{
    if (IS(f, EEEE) && id != NF_E)
        return set_err(err, SQLSTATE_SYNTAX, "\"EEEE\" must be the last pattern used");
    switch (id) {
    case NF_9:
    case NF_0:
        if (IS(f, BRACKET))
            return set_err(err, SQLSTATE_SYNTAX, "\"%c\" must be ahead of \"PR\"",
                           id == NF_9 ? '9' : '0');
        if (id == NF_9 && IS(f, MULTI)) {
            f->multi++;
            break;
        }
        if (id == NF_0 && !IS(f, ZERO) && !IS(f, DECIMAL)) {
            f->flag |= RL_NUMFMT_F_ZERO;
            f->zero_start = f->pre + 1;
        }
        if (IS(f, DECIMAL))
            f->post++;
        else
            f->pre++;
        if (id == NF_0)
            f->zero_end = f->pre + f->post;
        break;
    case NF_B:
        if (f->pre == 0 && f->post == 0 && !IS(f, ZERO))
            f->flag |= RL_NUMFMT_F_BLANK;
        break;
    case NF_D:
    case NF_DEC:
        if (id == NF_D)
            f->flag |= RL_NUMFMT_F_LDECIMAL;
        if (IS(f, DECIMAL))
            return set_err(err, SQLSTATE_SYNTAX, "multiple decimal points");
        if (IS(f, MULTI))
            return set_err(err, SQLSTATE_SYNTAX, "cannot use \"V\" and decimal point together");
        f->flag |= RL_NUMFMT_F_DECIMAL;
        break;
    case NF_FM: f->flag |= RL_NUMFMT_F_FILLMODE; break;
    case NF_S:
        if (IS(f, LSIGN))
            return set_err(err, SQLSTATE_SYNTAX, "cannot use \"S\" twice");
        if (IS(f, PLUS) || IS(f, MINUS) || IS(f, BRACKET))
            return set_err(err, SQLSTATE_SYNTAX,
                           "cannot use \"S\" and \"PL\"/\"MI\"/\"SG\"/\"PR\" together");
        if (!IS(f, DECIMAL)) {
            f->lsign = -1;
            f->pre_lsign_num = f->pre;
            f->flag |= RL_NUMFMT_F_LSIGN;
        } else if (f->lsign == 0) {
            f->lsign = 1;
            f->flag |= RL_NUMFMT_F_LSIGN;
        }
        break;
    case NF_MI:
    case NF_PL:
        if (IS(f, LSIGN))
            return set_err(err, SQLSTATE_SYNTAX, "cannot use \"S\" and \"%s\" together",
                           id == NF_MI ? "MI" : "PL");
        f->flag |= id == NF_MI ? RL_NUMFMT_F_MINUS : RL_NUMFMT_F_PLUS;
        if (IS(f, DECIMAL))
            f->flag |= id == NF_MI ? RL_NUMFMT_F_MINUS_POST : RL_NUMFMT_F_PLUS_POST;
        break;
    case NF_SG:
        if (IS(f, LSIGN))
            return set_err(err, SQLSTATE_SYNTAX, "cannot use \"S\" and \"SG\" together");
        f->flag |= RL_NUMFMT_F_MINUS | RL_NUMFMT_F_PLUS;
        break;
    case NF_PR:
        if (IS(f, LSIGN) || IS(f, PLUS) || IS(f, MINUS))
            return set_err(err, SQLSTATE_SYNTAX,
                           "cannot use \"PR\" and \"S\"/\"PL\"/\"MI\"/\"SG\" together");
        f->flag |= RL_NUMFMT_F_BRACKET;
        break;
    case NF_RN:
    case NF_rn: f->flag |= RL_NUMFMT_F_ROMAN; break;
    case NF_V:
        if (IS(f, DECIMAL))
            return set_err(err, SQLSTATE_SYNTAX, "cannot use \"V\" and decimal point together");
        f->flag |= RL_NUMFMT_F_MULTI;
        break;
    case NF_E:
        if (IS(f, EEEE))
            return set_err(err, SQLSTATE_SYNTAX, "cannot use \"EEEE\" twice");
        if (IS(f, BLANK) || IS(f, FILLMODE) || IS(f, LSIGN) || IS(f, BRACKET) || IS(f, MINUS) ||
            IS(f, PLUS) || IS(f, ROMAN) || IS(f, MULTI)) {
            set_err(err, SQLSTATE_SYNTAX, "\"EEEE\" is incompatible with other formats");
            return err_detail(err, "\"EEEE\" may only be used together with digit and decimal "
                                   "point patterns.");
        }
        f->flag |= RL_NUMFMT_F_EEEE;
        break;
    default: break; /* C, G, L, SP, TH: nothing to note */
    }
    return 0;
}

static void put_literal(rl_numfmt *f, const char *s, size_t clen)
{
    rl_numfmt_node *n = &f->nodes[f->n++];
    n->action = 0;
    n->clen = (uint8_t)clen;
    memcpy(n->ch, s, clen);
}

int rl_numfmt_parse(const char *fmt, size_t len, rl_numfmt *f, rl_numfmt_error *err)
{
    memset(f, 0, sizeof *f);
    const char *nul = memchr(fmt, '\0', len);
    if (nul)
        len = (size_t)(nul - fmt);
    f->nodes = malloc((len + 1) * sizeof *f->nodes); /* at most one node a byte */
    if (!f->nodes)
        return set_err(err, SQLSTATE_OOM, "out of memory");
    size_t i = 0;
    while (i < len) {
        const struct nf_kw *k = lookup(fmt + i, len - i);
        if (k) {
            rl_numfmt_node *n = &f->nodes[f->n++];
            n->action = 1;
            n->id = k->id;
            i += k->len;
            if (describe(f, k->id, err) < 0)
                return -1;
        } else if (fmt[i] == '"') { /* "literal", \ quoting the next char */
            for (i++; i < len;) {
                if (fmt[i] == '"') {
                    i++;
                    break;
                }
                if (fmt[i] == '\\' && i + 1 < len)
                    i++;
                size_t cl = mblen_at(fmt + i, len - i);
                put_literal(f, fmt + i, cl);
                i += cl;
            }
        } else {
            if (fmt[i] == '\\' && i + 1 < len && fmt[i + 1] == '"')
                i++; /* \" outside quotes: a literal quote */
            size_t cl = mblen_at(fmt + i, len - i);
            put_literal(f, fmt + i, cl);
            i += cl;
        }
    }
    assert(f->n <= len);
    return 0;
}

void rl_numfmt_free(rl_numfmt *f)
{
    free(f->nodes);
    f->nodes = NULL;
    f->n = 0;
}

void rl_numfmt_digits_free(rl_numfmt_digits *d)
{
    free(d->num);
    d->num = NULL;
}

/* ------------------------------------------------- the value's digits */

static int dup_into(rl_numfmt_digits *d, const char *s, size_t n, rl_numfmt_error *err)
{
    d->num = malloc(n + 1);
    if (!d->num)
        return set_err(err, SQLSTATE_OOM, "out of memory");
    memcpy(d->num, s, n);
    d->num[n] = '\0';
    return 0;
}

static int from_buf(rl_numfmt_digits *d, rl_buf *b, rl_numfmt_error *err)
{
    int rc = b->failed ? set_err(err, SQLSTATE_OOM, "out of memory")
                       : dup_into(d, b->data ? (const char *)b->data : "", b->len, err);
    rl_buf_free(b);
    return rc;
}

/* int_to_roman: 1..3999 as a roman numeral, else 15 '#'. */
static int roman(int32_t v, rl_numfmt_digits *d, rl_numfmt_error *err)
{
    static const char *const ones[] = {"I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX"};
    static const char *const tens[] = {"X", "XX", "XXX", "XL", "L", "LX", "LXX", "LXXX", "XC"};
    static const char *const hundreds[] = {"C",  "CC",  "CCC",  "CD", "D",
                                           "DC", "DCC", "DCCC", "CM"};
    char r[24] = "";
    d->sign = 0;
    d->out_pre_spaces = 0;
    if (v < 1 || v > 3999)
        return dup_into(d, "###############", 15, err);
    for (int m = 0; m < v / 1000; m++)
        strcat(r, "M");
    if (v / 100 % 10)
        strcat(r, hundreds[v / 100 % 10 - 1]);
    if (v / 10 % 10)
        strcat(r, tens[v / 10 % 10 - 1]);
    if (v % 10)
        strcat(r, ones[v % 10 - 1]);
    return dup_into(d, r, strlen(r), err);
}

/* EEEE of NaN or an infinity: '#' in the shape of the pattern. */
static int sci_fill(rl_numfmt *f, rl_numfmt_digits *d, rl_numfmt_error *err)
{
    size_t n = (size_t)f->pre + (size_t)f->post + 6;
    d->num = malloc(n + 1);
    if (!d->num)
        return set_err(err, SQLSTATE_OOM, "out of memory");
    memset(d->num, '#', n);
    d->num[n] = '\0';
    d->num[0] = ' ';
    d->num[f->pre + 1] = '.';
    return 0;
}

/* printf's "%+.*e" with the '+' turned into a space. */
static int sci_printf(double v, int post, rl_numfmt_digits *d, rl_numfmt_error *err)
{
    rl_buf b;
    rl_buf_init(&b, 0);
    rl_buf_printf(&b, "%+.*e", post, v);
    if (!b.failed && b.len && b.data[0] == '+')
        b.data[0] = ' ';
    return from_buf(d, &b, err);
}

/* Digits without sign (s: digits [. digits]): spaces to pad them to the
 * pattern's, or all '#' when they do not fit. */
static int fit(rl_numfmt *f, const char *s, size_t n, rl_numfmt_digits *d, rl_numfmt_error *err)
{
    const char *dot = memchr(s, '.', n);
    size_t pre_len = dot ? (size_t)(dot - s) : n;
    d->out_pre_spaces = 0;
    if (pre_len < (size_t)f->pre)
        d->out_pre_spaces = f->pre - (int)pre_len;
    if (pre_len <= (size_t)f->pre)
        return dup_into(d, s, n, err);
    size_t m = (size_t)f->pre + (size_t)f->post + 1;
    d->num = malloc(m + 1);
    if (!d->num)
        return set_err(err, SQLSTATE_OOM, "out of memory");
    memset(d->num, '#', m);
    d->num[m] = '\0';
    d->num[f->pre] = '.';
    return 0;
}

/* An integer's digits (text of its absolute value), with the pattern's
 * digits after the point as zeros. */
static int int_digits(rl_numfmt *f, const char *abs_text, rl_numfmt_digits *d,
                      rl_numfmt_error *err)
{
    rl_buf b;
    rl_buf_init(&b, 0);
    rl_buf_put_str(&b, abs_text);
    if (f->post) {
        rl_buf_put_u8(&b, '.');
        for (int i = 0; i < f->post; i++)
            rl_buf_put_u8(&b, '0');
    }
    if (b.failed) {
        rl_buf_free(&b);
        return set_err(err, SQLSTATE_OOM, "out of memory");
    }
    int rc = fit(f, (const char *)b.data, b.len, d, err);
    rl_buf_free(&b);
    return rc;
}

int rl_numfmt_digits_int4(rl_numfmt *f, int32_t v, rl_numfmt_digits *d, rl_numfmt_error *err)
{
    memset(d, 0, sizeof *d);
    if (IS(f, ROMAN))
        return roman(v, d, err);
    if (IS(f, EEEE)) {
        d->sign = v < 0 ? '-' : '+';
        return sci_printf((double)v, f->post, d, err);
    }
    if (IS(f, MULTI)) {
        /* value * (int32) 10^multi, wrapping as PostgreSQL's int32 does; a
         * power past int32 converts to INT32_MIN on the machines it runs on */
        double p = pow(10.0, (double)f->multi);
        uint32_t m = p < 2147483648.0 ? (uint32_t)(int32_t)p : 0x80000000u;
        v = (int32_t)((uint32_t)v * m);
        f->pre += f->multi;
    }
    char t[16];
    snprintf(t, sizeof t, "%lld", (long long)v);
    d->sign = t[0] == '-' ? '-' : '+';
    return int_digits(f, t + (t[0] == '-'), d, err);
}

int rl_numfmt_digits_int8(rl_numfmt *f, int64_t v, rl_numfmt_digits *d, rl_numfmt_error *err)
{
    memset(d, 0, sizeof *d);
    if (IS(f, ROMAN)) {
        if (v < INT32_MIN || v > INT32_MAX)
            return set_err(err, SQLSTATE_RANGE, "integer out of range");
        return roman((int32_t)v, d, err);
    }
    char t[24];
    snprintf(t, sizeof t, "%lld", (long long)v);
    if (IS(f, EEEE)) {
        rl_buf b;
        rl_buf_init(&b, 0);
        if (t[0] != '-')
            rl_buf_put_u8(&b, ' ');
        rl_numfmt_sci(t, strlen(t), f->post, &b);
        d->sign = t[0] == '-' ? '-' : '+';
        return from_buf(d, &b, err);
    }
    if (IS(f, MULTI)) {
        double p = pow(10.0, (double)f->multi);
        if (!(p < 9223372036854775808.0))
            return set_err(err, SQLSTATE_RANGE, "bigint out of range");
        int64_t r;
        if (__builtin_mul_overflow(v, (int64_t)p, &r))
            return set_err(err, SQLSTATE_RANGE, "bigint out of range");
        v = r;
        f->pre += f->multi;
        snprintf(t, sizeof t, "%lld", (long long)v);
    }
    d->sign = t[0] == '-' ? '-' : '+';
    return int_digits(f, t + (t[0] == '-'), d, err);
}

/* float4/float8: the integer digits decide how many fraction digits the
 * type's precision leaves (FLT_DIG / DBL_DIG). */
int rl_numfmt_digits_float(rl_numfmt *f, double v, bool is_float4, rl_numfmt_digits *d,
                           rl_numfmt_error *err)
{
    memset(d, 0, sizeof *d);
    if (IS(f, ROMAN)) {
        double r = rint(v);
        return roman(r >= INT32_MIN && r <= INT32_MAX ? (int32_t)r : INT32_MIN, d, err);
    }
    if (IS(f, EEEE)) {
        d->sign = v < 0 ? '-' : '+';
        if (isnan(v) || isinf(v))
            return sci_fill(f, d, err);
        return sci_printf(v, f->post, d, err);
    }
    double val = v;
    if (IS(f, MULTI)) {
        if (is_float4) {
            float m = (float)pow(10.0, (double)f->multi);
            val = (double)((float)v * m);
        } else {
            val = v * pow(10.0, (double)f->multi);
        }
        f->pre += f->multi;
    }
    if (isnan(val) || isinf(val)) { /* float8out's words, fitted like digits */
        const char *w = isnan(val) ? "NaN" : "Infinity";
        d->sign = !isnan(val) && val < 0 ? '-' : '+';
        return fit(f, w, strlen(w), d, err);
    }
    rl_buf b;
    rl_buf_init(&b, 0);
    rl_buf_printf(&b, "%.0f", fabs(val));
    int digs = is_float4 ? FLT_DIG : DBL_DIG;
    size_t pre_len = b.len;
    if (pre_len >= (size_t)digs)
        f->post = 0;
    else if ((int)pre_len + f->post > digs)
        f->post = digs - (int)pre_len;
    rl_buf_reset(&b);
    rl_buf_printf(&b, "%.*f", f->post, val);
    if (b.failed) {
        rl_buf_free(&b);
        return set_err(err, SQLSTATE_OOM, "out of memory");
    }
    bool neg = b.len && b.data[0] == '-';
    d->sign = neg ? '-' : '+';
    int rc = fit(f, (const char *)b.data + neg, b.len - neg, d, err);
    rl_buf_free(&b);
    return rc;
}

static bool is_special(const char *t, size_t n)
{
    return (n == 3 && memcmp(t, "NaN", 3) == 0) || (n == 8 && memcmp(t, "Infinity", 8) == 0) ||
           (n == 9 && memcmp(t, "-Infinity", 9) == 0);
}

int rl_numfmt_digits_numeric(rl_numfmt *f, const char *text, size_t len, int32_t roman_int,
                             rl_numfmt_digits *d, rl_numfmt_error *err)
{
    memset(d, 0, sizeof *d);
    if (IS(f, ROMAN))
        return roman(roman_int, d, err);
    bool neg = len && text[0] == '-';
    d->sign = neg ? '-' : '+';
    if (IS(f, EEEE)) {
        if (is_special(text, len))
            return sci_fill(f, d, err);
        rl_buf b;
        rl_buf_init(&b, 0);
        if (!neg)
            rl_buf_put_u8(&b, ' ');
        rl_numfmt_sci(text, len, f->post, &b);
        return from_buf(d, &b, err);
    }
    if (IS(f, MULTI))
        f->pre += f->multi;
    return fit(f, text + neg, len - neg, d, err);
}

void rl_numfmt_sci(const char *text, size_t len, int scale, rl_buf *out)
{
    if (is_special(text, len)) {
        rl_buf_put(out, text, len);
        return;
    }
    bool neg = len && text[0] == '-';
    size_t i = neg, nint = 0;
    /* the digits, and how many stand before the point */
    char *dig = malloc(len + 1);
    if (!dig) {
        out->failed = true;
        return;
    }
    size_t nd = 0;
    bool seen_dot = false;
    for (; i < len; i++) {
        if (text[i] == '.') {
            seen_dot = true;
            continue;
        }
        dig[nd++] = text[i];
        if (!seen_dot)
            nint++;
    }
    size_t first = 0;
    while (first < nd && dig[first] == '0')
        first++;
    long exponent = first < nd ? (long)nint - (long)first - 1 : 0;
    /* significand digits: 1 + scale of them, rounded half away from zero */
    size_t want = 1 + (size_t)(scale > 0 ? scale : 0);
    char *sig = malloc(want + 2);
    if (!sig) {
        free(dig);
        out->failed = true;
        return;
    }
    sig[0] = '0'; /* room for a carry */
    for (size_t k = 0; k < want; k++)
        sig[k + 1] = first + k < nd ? dig[first + k] : '0';
    bool up = first + want < nd && dig[first + want] >= '5';
    for (size_t k = want; up; k--) {
        if (sig[k] == '9') {
            sig[k] = '0';
        } else {
            sig[k]++;
            up = false;
        }
        if (k == 0)
            break;
    }
    if (neg && first < nd)
        rl_buf_put_u8(out, '-');
    size_t lead = sig[0] == '0' ? 1 : 0; /* no carry: skip the spare digit */
    rl_buf_put(out, sig + lead, 2 - lead);
    if (scale > 0) {
        rl_buf_put_u8(out, '.');
        rl_buf_put(out, sig + 2, want - 1);
    }
    rl_buf_printf(out, "e%c%02ld", exponent < 0 ? '-' : '+', exponent < 0 ? -exponent : exponent);
    free(sig);
    free(dig);
}

/* ------------------------------------------------------------ to_char */

typedef struct nf_out {
    rl_numfmt *f;
    const char *number; /* the digits */
    const char *np;     /* next digit */
    const char *last_relevant;
    int sign, num_count, num_curr, out_pre_spaces;
    bool sign_wrote, num_in;
    rl_buf *out;
    size_t cut; /* where a NUL was written (SIZE_MAX: none) */
} nf_out;

static void out_c(nf_out *o, char ch)
{
    if (ch == '\0' && o->cut == SIZE_MAX)
        o->cut = o->out->len;
    rl_buf_put_u8(o->out, (uint8_t)ch);
}

static void out_s(nf_out *o, const char *s) { rl_buf_put_str(o->out, s); }

/* A digit position shows a blank for the zero before the point of 0.x
 * ("9.9" of 0.1 is " .1"). */
static bool predec_space(const nf_out *o)
{
    return !IS(o->f, ZERO) && o->np == o->number && o->number[0] == '0' && o->f->post != 0;
}

/* One digit position (9, 0) or the point (., D): sign first if due, then
 * a blank, a zero, the point or the next digit; the closing sign after the
 * last position. */
static void digit_position(nf_out *o, int id)
{
    rl_numfmt *f = o->f;
    if (IS(f, ROMAN))
        return;
    o->num_in = false;
    bool at_number = o->num_curr >= o->out_pre_spaces ||
                     (IS(f, ZERO) && f->zero_start == o->num_curr);
    bool dot_relevant = o->last_relevant && *o->last_relevant == '.';
    if (!o->sign_wrote && at_number && (!predec_space(o) || dot_relevant)) {
        if (IS(f, LSIGN)) {
            if (f->lsign == -1) {
                out_c(o, o->sign == '-' ? '-' : '+');
                o->sign_wrote = true;
            }
        } else if (IS(f, BRACKET)) {
            out_c(o, o->sign == '+' ? ' ' : '<');
            o->sign_wrote = true;
        } else if (o->sign == '+') {
            if (!IS(f, FILLMODE))
                out_c(o, ' ');
            o->sign_wrote = true;
        } else if (o->sign == '-') {
            out_c(o, '-');
            o->sign_wrote = true;
        }
    }
    if (o->num_curr < o->out_pre_spaces && (f->zero_start > o->num_curr || !IS(f, ZERO))) {
        if (!IS(f, FILLMODE))
            out_c(o, ' ');
    } else if (IS(f, ZERO) && o->num_curr < o->out_pre_spaces) {
        out_c(o, '0');
        o->num_in = true;
    } else {
        if (*o->np == '.') {
            out_c(o, '.');
        } else if (o->last_relevant && o->np > o->last_relevant && id != NF_0) {
            /* FM: a trailing zero left out */
        } else if (predec_space(o)) {
            if (!IS(f, FILLMODE))
                out_c(o, ' ');
            else if (dot_relevant)
                out_c(o, '0');
        } else {
            out_c(o, *o->np);
            o->num_in = true;
        }
        if (*o->np)
            o->np++;
    }
    int end = o->num_count + (o->out_pre_spaces ? 1 : 0) + (IS(f, DECIMAL) ? 1 : 0);
    if (o->last_relevant && o->last_relevant == o->np)
        end = o->num_curr;
    if (o->num_curr + 1 == end) {
        if (o->sign_wrote && IS(f, BRACKET))
            out_c(o, o->sign == '+' ? ' ' : '>');
        else if (IS(f, LSIGN) && f->lsign == 1)
            out_c(o, o->sign == '-' ? '-' : '+');
    }
    o->num_curr++;
}

/* The last digit after the point that is not a zero (the point itself if
 * all are), NULL without a point. */
static const char *last_relevant_digit(const char *num)
{
    const char *p = strchr(num, '.');
    if (!p)
        return NULL;
    const char *r = p;
    for (p++; *p; p++)
        if (*p != '0')
            r = p;
    return r;
}

/* TH / th: the ordinal suffix of the digits' last number. */
static int ordinal(nf_out *o, bool upper, rl_numfmt_error *err)
{
    const char *num = o->number;
    size_t len = strlen(num);
    char last = len ? num[len - 1] : '\0';
    if (!isdigit((unsigned char)last))
        return set_err(err, SQLSTATE_BAD_TEXT, "\"%.100s\" is not a number", num);
    if (len > 1 && num[len - 2] == '1')
        last = '0';
    const char *s = last == '1' ? "st" : last == '2' ? "nd" : last == '3' ? "rd" : "th";
    out_c(o, upper ? (char)toupper((unsigned char)s[0]) : s[0]);
    out_c(o, upper ? (char)toupper((unsigned char)s[1]) : s[1]);
    return 0;
}

static void setup_sign(nf_out *o)
{
    rl_numfmt *f = o->f;
    if (IS(f, PLUS) || IS(f, MINUS)) {
        o->sign_wrote = !(IS(f, PLUS) && !IS(f, MINUS));
        return;
    }
    if (o->sign != '-' && IS(f, BRACKET) && IS(f, FILLMODE))
        f->flag &= ~RL_NUMFMT_F_BRACKET;
    o->sign_wrote = o->sign == '+' && IS(f, FILLMODE) && !IS(f, LSIGN);
    if (f->lsign == -1 && f->pre == f->pre_lsign_num)
        f->lsign = 1;
}

int rl_numfmt_render(rl_numfmt *f, rl_numfmt_digits *d, rl_buf *out, rl_numfmt_error *err)
{
    size_t start = out->len;
    nf_out o = {.f = f, .number = d->num, .np = d->num, .sign = d->sign,
                .out_pre_spaces = d->out_pre_spaces, .out = out, .cut = SIZE_MAX};
    if (f->zero_start)
        f->zero_start--;
    if (IS(f, EEEE)) {
        rl_buf_put_str(out, d->num);
        return out->failed ? set_err(err, SQLSTATE_OOM, "out of memory") : 0;
    }
    if (IS(f, ROMAN)) {
        f->lsign = f->pre_lsign_num = f->post = f->pre = 0;
        o.out_pre_spaces = o.sign = 0;
        f->flag = (f->flag & RL_NUMFMT_F_FILLMODE) | RL_NUMFMT_F_ROMAN;
    }
    setup_sign(&o);
    o.num_count = f->post + f->pre - 1;
    if (IS(f, FILLMODE) && IS(f, DECIMAL)) {
        o.last_relevant = last_relevant_digit(o.number);
        /* keep the digits a 0 pattern asks for, within the digits */
        if (o.last_relevant && f->zero_end > o.out_pre_spaces) {
            size_t pos = strlen(o.number) - 1, z = (size_t)(f->zero_end - o.out_pre_spaces);
            const char *last_zero = o.number + (pos < z ? pos : z);
            if (o.last_relevant < last_zero)
                o.last_relevant = last_zero;
        }
    }
    if (!o.sign_wrote && o.out_pre_spaces == 0)
        o.num_count++;
    for (size_t i = 0; i < f->n; i++) {
        const rl_numfmt_node *n = &f->nodes[i];
        if (!n->action) {
            rl_buf_put(out, n->ch, n->clen);
            continue;
        }
        switch (n->id) {
        case NF_9:
        case NF_0:
        case NF_DEC:
        case NF_D: digit_position(&o, n->id); break;
        case NF_COMMA:
        case NF_G:
            if (o.num_in)
                out_c(&o, ',');
            else if (!IS(f, FILLMODE))
                out_c(&o, ' ');
            break;
        case NF_L: out_c(&o, ' '); break;
        case NF_RN:
        case NF_rn: {
            size_t at = out->len;
            if (IS(f, FILLMODE))
                out_s(&o, o.np);
            else
                rl_buf_printf(out, "%15s", o.np);
            if (n->id == NF_rn)
                for (size_t k = at; k < out->len && !out->failed; k++)
                    out->data[k] = (uint8_t)tolower(out->data[k]);
            break;
        }
        case NF_TH:
        case NF_th:
            if (IS(f, ROMAN) || o.number[0] == '#' || o.sign == '-' || IS(f, DECIMAL))
                break;
            if (ordinal(&o, n->id == NF_TH, err) < 0)
                return -1;
            break;
        case NF_MI:
            if (o.sign == '-')
                out_c(&o, '-');
            else if (!IS(f, FILLMODE))
                out_c(&o, ' ');
            break;
        case NF_PL:
            if (o.sign == '+')
                out_c(&o, '+');
            else if (!IS(f, FILLMODE))
                out_c(&o, ' ');
            break;
        case NF_SG: out_c(&o, (char)o.sign); break;
        default: break;
        }
    }
    if (o.cut != SIZE_MAX)
        out->len = o.cut;
    assert(out->failed || out->len >= start);
    return out->failed ? set_err(err, SQLSTATE_OOM, "out of memory") : 0;
}

/* ----------------------------------------------------------- to_number */

typedef struct nf_in {
    rl_numfmt *f;
    const char *p, *end;
    rl_buf *num; /* num->data[0] is the sign slot */
    int read_pre, read_post;
    bool read_dec;
} nf_in;

static bool in_done(const nf_in *r) { return r->p >= r->end; }
static bool in_has(const nf_in *r, size_t n) { return (size_t)(r->end - r->p) >= n; }

/* One digit position or the point: a sign before the first digit, the
 * digit or point itself, a sign after the last. The caller steps one byte
 * past what this leaves at r->p. */
static void read_position(nf_in *r, int id)
{
    rl_numfmt *f = r->f;
    char *sign = (char *)r->num->data;
    if (in_done(r))
        return;
    if (*r->p == ' ')
        r->p++;
    if (in_done(r))
        return;
    if (*sign == ' ' && (id == NF_0 || id == NF_9) && r->read_pre + r->read_post == 0) {
        if (IS(f, LSIGN) && f->lsign == -1) {
            if (in_has(r, 1) && (*r->p == '-' || *r->p == '+')) {
                *sign = *r->p;
                r->p++;
            }
        } else if (*r->p == '-' || (IS(f, BRACKET) && *r->p == '<')) {
            *sign = '-';
            r->p++;
        } else if (*r->p == '+') {
            *sign = '+';
            r->p++;
        }
    }
    if (in_done(r))
        return;
    bool isread = false;
    if (isdigit((unsigned char)*r->p)) {
        if (r->read_dec && r->read_post == f->post)
            return;
        rl_buf_put_u8(r->num, (uint8_t)*r->p);
        sign = (char *)r->num->data;
        if (r->read_dec)
            r->read_post++;
        else
            r->read_pre++;
        isread = true;
    } else if (IS(f, DECIMAL) && !r->read_dec && *r->p == '.') {
        rl_buf_put_u8(r->num, '.');
        sign = (char *)r->num->data;
        r->read_dec = true;
        isread = true;
    }
    if (in_done(r) || r->num->failed)
        return;
    if (*sign == ' ' && r->read_pre + r->read_post > 0) {
        if (IS(f, LSIGN) && isread && r->p + 1 < r->end && !isdigit((unsigned char)r->p[1])) {
            const char *back = r->p++;
            if (in_has(r, 1) && (*r->p == '-' || *r->p == '+'))
                *sign = *r->p;
            else
                r->p = back;
        } else if (!isread && !IS(f, LSIGN) && (IS(f, PLUS) || IS(f, MINUS))) {
            if (*r->p == '-' || *r->p == '+')
                *sign = *r->p;
        }
    }
}

/* Step over up to n input characters that are not part of a number. */
static void eat_non_data(nf_in *r, int n)
{
    while (n-- > 0 && !in_done(r) && !strchr("0123456789.,+-", *r->p))
        r->p += mblen_at(r->p, (size_t)(r->end - r->p));
}

int rl_numfmt_read(rl_numfmt *f, const char *in, size_t len, rl_buf *out, rl_numfmt_error *err)
{
    if (f->zero_start)
        f->zero_start--;
    if (IS(f, EEEE))
        return set_err(err, SQLSTATE_NOT_SUPPORTED, "\"EEEE\" not supported for input");
    if (IS(f, ROMAN))
        return set_err(err, SQLSTATE_NOT_SUPPORTED, "\"RN\" not supported for input");
    const char *nul = memchr(in, '\0', len);
    rl_buf_reset(out);
    rl_buf_put_u8(out, ' '); /* the sign */
    nf_in r = {.f = f, .p = in, .end = in + (nul ? (size_t)(nul - in) : len), .num = out};
    for (size_t i = 0; i < f->n && !in_done(&r) && !out->failed; i++) {
        const rl_numfmt_node *n = &f->nodes[i];
        if (!n->action) { /* a literal skips one input character, whatever it is */
            r.p += mblen_at(r.p, (size_t)(r.end - r.p));
            continue;
        }
        char *sign = (char *)out->data;
        switch (n->id) {
        case NF_9:
        case NF_0:
        case NF_DEC:
        case NF_D: read_position(&r, n->id); break;
        case NF_COMMA:
        case NF_G:
            if (IS(f, FILLMODE) || *r.p != ',')
                continue;
            break;
        case NF_L: eat_non_data(&r, 1); continue;
        case NF_TH:
        case NF_th:
            if (IS(f, DECIMAL))
                continue;
            eat_non_data(&r, 2);
            continue;
        case NF_MI:
        case NF_PL:
        case NF_SG:
            if ((*r.p == '-' && n->id != NF_PL) || (*r.p == '+' && n->id != NF_MI)) {
                *sign = *r.p;
                break;
            }
            eat_non_data(&r, 1);
            continue;
        default: continue;
        }
        r.p++;
    }
    if (out->failed)
        return set_err(err, SQLSTATE_OOM, "out of memory");
    if (out->len > 1 && out->data[out->len - 1] == '.')
        out->len--;
    f->post = r.read_post;
    return 0;
}
