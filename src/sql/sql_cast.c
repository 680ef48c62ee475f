/*
 * sql_cast.c — values of a type: making values, literal and parameter
 * values, the text input of every type (the SQL layer's own: oid, reg*,
 * tid, name, arrays; the rest through pgtype), coercion as assignment and
 * as an explicit cast (numeric and varchar typmods), type names.
 *
 * Invariants:
 *  - Unknown literals ('5') stay RL_OID_UNKNOWN (bytes in v.s) until a
 *    cast or assignment gives them a type, as in PostgreSQL.
 *  - Strings produced here live in c->arena; nothing here frees it.
 *  - Every failure is a PostgreSQL-style error (text and SQLSTATE as
 *    PostgreSQL 15 reports them) through rl_exec_error; never an abort.
 *  - Evaluates no expression but constants, parameters and casts of them
 *    (rl_const_eval): sits below sql_expr.c and sql_scan.c.
 */
#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/stack.h"
#include "pgtype/json.h"
#include "pgtype/pgtype.h"
#include "pgtype/tzif.h"
#include "sql/sql_cast.h"
#include "sql/sql_ctid.h"
#include "sql/sql_exec.h"
#include "sql/sql_func.h"
#include "sql/sql_parse.h"
#include "sql/sql_pgcatalog.h"
#include "sql/sql_relation.h"
#include "sql/sql_value.h"

/* ------------------------------------------------------------ values */

int rl_expr_oom(rl_expr_ctx *c)
{
    return rl_exec_error(c->x, RL_SQLSTATE_INTERNAL_ERROR, -1, "out of memory");
}

/* A string value copied into the evaluation arena. */
int rl_val_str_copy(rl_expr_ctx *c, rl_value *v, uint32_t oid, const void *p, size_t len)
{
    const void *q = rl_arena_dup(c->arena, len ? p : "", len ? len : 1);
    if (!q)
        return rl_expr_oom(c);
    rl_val_str(v, oid, q, len);
    return 0;
}

int rl_val_buf_copy(rl_expr_ctx *c, rl_value *v, uint32_t oid, rl_buf *b)
{
    if (b->failed) {
        rl_buf_free(b);
        return rl_expr_oom(c);
    }
    int rc = rl_val_str_copy(c, v, oid, b->data, b->len);
    rl_buf_free(b);
    return rc;
}

char rl_oid_category(uint32_t oid)
{
    switch (oid) {
    case RL_OID_INT2: case RL_OID_INT4: case RL_OID_INT8: case RL_OID_NUMERIC:
    case RL_OID_FLOAT4: case RL_OID_FLOAT8: case RL_OID_OID: return 'N';
    case RL_OID_BOOL: return 'B';
    case RL_OID_DATE: case RL_OID_TIME: case RL_OID_TIMETZ: case RL_OID_TIMESTAMP:
    case RL_OID_TIMESTAMPTZ: return 'D';
    case RL_OID_INTERVAL: return 'T';
    case RL_OID_JSON: case RL_OID_JSONB: case RL_OID_XID8: return 'U';
    case RL_OID_RECORD: return 'P';
    default: break;
    }
    if (rl_oid_is_reg(oid))
        return 'N';
    if (rl_oid_is_textual(oid) && oid != RL_OID_CHAR)
        return 'S';
    if (rl_oid_is_rowtype(oid)) /* a table's row type: typcategory 'C' */
        return 'C';
    return 0;
}

bool rl_oid_preferred(uint32_t oid)
{
    return oid == RL_OID_FLOAT8 || oid == RL_OID_OID || oid == RL_OID_TEXT ||
           oid == RL_OID_TIMESTAMPTZ || oid == RL_OID_INTERVAL || oid == RL_OID_BOOL;
}

/* The numeric ladder int2 < int4 < int8 < numeric < float4 < float8 casts
 * upward implicitly; integers also to oid and the reg* types. */
int rl_oid_number_rank(uint32_t oid)
{
    switch (oid) {
    case RL_OID_INT2: return 1;
    case RL_OID_INT4: return 2;
    case RL_OID_INT8: return 3;
    case RL_OID_NUMERIC: return 4;
    case RL_OID_FLOAT4: return 5;
    case RL_OID_FLOAT8: return 6;
    default: return 0;
    }
}

bool rl_oid_implicit_cast(uint32_t from, uint32_t to)
{
    if (from == to)
        return true;
    if (rl_oid_number_rank(from) && rl_oid_number_rank(to))
        return rl_oid_number_rank(from) < rl_oid_number_rank(to);
    if (rl_oid_number_rank(from) && rl_oid_number_rank(from) <= 3 && (to == RL_OID_OID || rl_oid_is_reg(to)))
        return true;
    if ((from == RL_OID_OID || rl_oid_is_reg(from)) && (to == RL_OID_OID || rl_oid_is_reg(to)))
        return true;
    if (rl_oid_is_rowtype(from)) /* a table's row type passes as a record */
        return to == RL_OID_RECORD;
    if (rl_oid_is_textual(from) && from != RL_OID_UNKNOWN && from != RL_OID_CHAR)
        return to == RL_OID_TEXT || to == RL_OID_VARCHAR || to == RL_OID_NAME ||
               (to == RL_OID_BPCHAR && from != RL_OID_NAME);
    switch (from) {
    case RL_OID_CHAR: return to == RL_OID_TEXT;
    case RL_OID_DATE: return to == RL_OID_TIMESTAMP || to == RL_OID_TIMESTAMPTZ;
    case RL_OID_TIMESTAMP: return to == RL_OID_TIMESTAMPTZ;
    case RL_OID_TIME: return to == RL_OID_TIMETZ || to == RL_OID_INTERVAL;
    default: return false;
    }
}

const char *rl_type_name_in(rl_exec *x, uint32_t oid)
{
    static _Thread_local char names[4][160];
    static _Thread_local unsigned next;
    if (!rl_oid_is_rowtype(oid) && !rl_oid_is_rowtype_array(oid))
        return rl_oid_type_name(oid);
    char *buf = names[next++ % 4];
    rl_pgcatalog_format_type(x, oid, -1, buf, sizeof names[0]);
    return buf;
}

const char *rl_oid_type_name(uint32_t oid)
{
    switch (oid) {
    case RL_OID_BOOL: return "boolean";
    case RL_OID_BYTEA: return "bytea";
    case RL_OID_CHAR: return "\"char\"";
    case RL_OID_NAME: return "name";
    case RL_OID_INT8: return "bigint";
    case RL_OID_INT2: return "smallint";
    case RL_OID_INT2VECTOR: return "int2vector";
    case RL_OID_OIDVECTOR: return "oidvector";
    case RL_OID_INT4: return "integer";
    case RL_OID_REGPROC: return "regproc";
    case RL_OID_TEXT: return "text";
    case RL_OID_OID: return "oid";
    case RL_OID_TID: return "tid";
    case RL_OID_XID8: return "xid8";
    case RL_OID_FLOAT4: return "real";
    case RL_OID_FLOAT8: return "double precision";
    case RL_OID_UNKNOWN: return "unknown";
    case RL_OID_INT2_ARRAY: return "smallint[]";
    case RL_OID_INT4_ARRAY: return "integer[]";
    case RL_OID_TEXT_ARRAY: return "text[]";
    case 1000: return "boolean[]";
    case 1002: return "\"char\"[]";
    case 1003: return "name[]";
    case 1014: return "character[]";
    case 1015: return "character varying[]";
    case 1016: return "bigint[]";
    case 1021: return "real[]";
    case 1022: return "double precision[]";
    case 1028: return "oid[]";
    case 1115: return "timestamp without time zone[]";
    case 1182: return "date[]";
    case 1185: return "timestamp with time zone[]";
    case 1231: return "numeric[]";
    case 2951: return "uuid[]";
    case RL_OID_VARCHAR: return "character varying";
    case RL_OID_DATE: return "date";
    case RL_OID_TIME: return "time without time zone";
    case RL_OID_TIMESTAMP: return "timestamp without time zone";
    case RL_OID_TIMESTAMPTZ: return "timestamp with time zone";
    case RL_OID_INTERVAL: return "interval";
    case RL_OID_TIMETZ: return "time with time zone";
    case RL_OID_NUMERIC: return "numeric";
    case RL_OID_REGCLASS: return "regclass";
    case RL_OID_REGPROCEDURE: return "regprocedure";
    case RL_OID_REGTYPE: return "regtype";
    case RL_OID_REGNAMESPACE: return "regnamespace";
    case RL_OID_REGROLE: return "regrole";
    case RL_OID_REGDICTIONARY: return "regdictionary";
    case RL_OID_VOID: return "void";
    case RL_OID_UUID: return "uuid";
    case RL_OID_JSON: return "json";
    case 199: return "json[]";
    case RL_OID_JSONB: return "jsonb";
    case 3807: return "jsonb[]";
    case RL_OID_RECORD: return "record";
    case RL_OID_ANY: return "\"any\"";
    case RL_OID_ANYARRAY: return "anyarray";
    case RL_OID_ANYELEMENT: return "anyelement";
    case RL_OID_ANYNONARRAY: return "anynonarray";
    case 3500: return "anyenum";
    case 3831: return "anyrange";
    case 4537: return "anymultirange";
    case RL_OID_ANYCOMPATIBLE: return "anycompatible";
    case RL_OID_ANYCOMPATIBLEARRAY: return "anycompatiblearray";
    case RL_OID_ANYCOMPATIBLENONARRAY: return "anycompatiblenonarray";
    case 5080: return "anycompatiblerange";
    case 4538: return "anycompatiblemultirange";
    default: return "unknown";
    }
}

int rl_range_error(rl_expr_ctx *c, uint32_t oid, int loc)
{
    return rl_exec_error(c->x, RL_SQLSTATE_NUMERIC_VALUE_OUT_OF_RANGE, loc, "%s out of range",
                         rl_oid_type_name(oid));
}

int rl_int_fits(rl_expr_ctx *c, uint32_t oid, int64_t i, int loc)
{
    if ((oid == RL_OID_INT2 && (i < INT16_MIN || i > INT16_MAX)) ||
        (oid == RL_OID_INT4 && (i < INT32_MIN || i > INT32_MAX)))
        return rl_range_error(c, oid, loc);
    if ((oid == RL_OID_OID || rl_oid_is_reg(oid)) && (i < 0 || i > UINT32_MAX))
        return rl_exec_error(c->x, RL_SQLSTATE_NUMERIC_VALUE_OUT_OF_RANGE, -1,
                             "OID out of range"); /* i8tooid's, at run time: no position */
    return 0;
}

/* ------------------------------------------------------------- coercion */

/* Numeric text -> int64 rounded half away from zero (numeric -> int cast). */
static int numeric_to_int(rl_expr_ctx *c, const rl_value *in, uint32_t oid, rl_value *out,
                          int loc)
{
    const uint8_t *p = in->d.v.s.p;
    size_t n = in->d.v.s.len, i = 0;
    bool neg = false;
    if (i < n && p[i] == '-') {
        neg = true;
        i++;
    }
    if (i == n || !isdigit(p[i])) /* NaN, or an infinity: numeric_int4's words */
        return rl_exec_error(c->x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, loc,
                             "cannot convert %s to %s", p[0] == 'N' ? "NaN" : "infinity",
                             rl_oid_type_name(oid));
    __int128 acc = 0;
    for (; i < n && isdigit(p[i]); i++) {
        acc = acc * 10 + (p[i] - '0');
        if (acc > ((__int128)1 << 64))
            return rl_range_error(c, oid, loc);
    }
    if (i + 1 < n && p[i] == '.' && p[i + 1] >= '5')
        acc++;
    if (neg)
        acc = -acc;
    if (acc > INT64_MAX || acc < INT64_MIN)
        return rl_range_error(c, oid, loc);
    if (rl_int_fits(c, oid, (int64_t)acc, loc) < 0)
        return -1;
    rl_val_int(out, oid, (int64_t)acc);
    return 0;
}

/* Conversions inside the numeric family (int2/4/8, oid, numeric, float). */
/* numeric -> float8 / float4 as PostgreSQL does it, through the numeric's
 * text and float8in / float4in: a value past the type's range, or so small
 * it would read as zero, is 22003 naming the text (the whole of it: a
 * numeric's text can be long, so it is copied to the heap, not cut). */
static int numeric_to_float(rl_expr_ctx *c, const rl_value *in, uint32_t oid, rl_value *out,
                            int loc)
{
    size_t n = in->d.v.s.len;
    char *text = malloc(n + 1);
    if (!text)
        return rl_exec_error(c->x, RL_SQLSTATE_OUT_OF_MEMORY, loc, "out of memory");
    memcpy(text, in->d.v.s.p, n);
    text[n] = '\0';
    errno = 0;
    double v = oid == RL_OID_FLOAT4 ? (double)strtof(text, NULL) : strtod(text, NULL);
    bool out_of_range = errno == ERANGE && (v == 0.0 || isinf(v)) &&
                        strcmp(text, "Infinity") != 0 && strcmp(text, "-Infinity") != 0;
    int rc = 0;
    if (out_of_range)
        rc = rl_exec_error(c->x, RL_SQLSTATE_NUMERIC_VALUE_OUT_OF_RANGE, loc,
                           "\"%s\" is out of range for type %s", text,
                           oid == RL_OID_FLOAT4 ? "real" : "double precision");
    else
        rl_val_float(out, oid, v);
    free(text);
    return rc;
}

/* float8 -> float4 (PostgreSQL's float8_to_float4): an overflow to
 * infinity or an underflow to zero of a value that was neither is 22003. */
static int float8_to_float4(rl_expr_ctx *c, double f, rl_value *out, int loc)
{
    float r = (float)f;
    if (isinf(r) && !isinf(f))
        return rl_exec_error(c->x, RL_SQLSTATE_NUMERIC_VALUE_OUT_OF_RANGE, loc,
                             "value out of range: overflow");
    if (r == 0.0f && f != 0.0)
        return rl_exec_error(c->x, RL_SQLSTATE_NUMERIC_VALUE_OUT_OF_RANGE, loc,
                             "value out of range: underflow");
    rl_val_float(out, RL_OID_FLOAT4, (double)r);
    return 0;
}

int rl_number_convert(rl_expr_ctx *c, const rl_value *in, uint32_t oid, rl_value *out,
                          int loc)
{
    char tmp[64];
    if (rl_oid_is_intlike(in->oid)) {
        int64_t i = in->d.v.i;
        if (rl_oid_is_intlike(oid)) {
            if (rl_int_fits(c, oid, i, loc) < 0)
                return -1;
            rl_val_int(out, oid, i);
            return 0;
        }
        if (rl_oid_is_float(oid)) {
            rl_val_float(out, oid, (double)i);
            return 0;
        }
        snprintf(tmp, sizeof tmp, "%lld", (long long)i);
        return rl_val_str_copy(c, out, RL_OID_NUMERIC, tmp, strlen(tmp));
    }
    if (rl_oid_is_float(in->oid)) {
        double f = in->d.v.f;
        if (oid == RL_OID_FLOAT4) /* float8_to_float4: no silent infinity or zero */
            return float8_to_float4(c, f, out, loc);
        if (rl_oid_is_float(oid)) {
            rl_val_float(out, oid, f);
            return 0;
        }
        if (rl_oid_is_intlike(oid)) {
            f = rint(f);
            if (isnan(f) || f < -9223372036854775808.0 || f >= 9223372036854775808.0)
                return rl_range_error(c, oid, loc);
            if (rl_int_fits(c, oid, (int64_t)f, loc) < 0)
                return -1;
            rl_val_int(out, oid, (int64_t)f);
            return 0;
        }
        if (isnan(f))
            snprintf(tmp, sizeof tmp, "NaN");
        else if (isinf(f))
            snprintf(tmp, sizeof tmp, f > 0 ? "Infinity" : "-Infinity");
        else
            snprintf(tmp, sizeof tmp, "%.*g", in->oid == RL_OID_FLOAT4 ? 6 : 15, f);
        return rl_text_to_value(c, tmp, strlen(tmp), RL_OID_NUMERIC, -1, true, out, loc);
    }
    /* numeric */
    if (rl_oid_is_intlike(oid))
        return numeric_to_int(c, in, oid, out, loc);
    if (rl_oid_is_float(oid))
        return numeric_to_float(c, in, oid, out, loc);
    *out = *in;
    return 0;
}

/* The bytes of the first max characters of p[0..len) (all of them when
 * shorter), with *chars the characters they hold. */
static size_t char_prefix(const uint8_t *p, size_t len, size_t max, size_t *chars)
{
    size_t i = 0, n = 0;
    for (; i < len; i++) {
        if ((p[i] & 0xC0) == 0x80)
            continue;
        if (n == max)
            break;
        n++;
    }
    *chars = n;
    return i;
}

/* A value longer than its type's n characters, cut to them: always by an
 * explicit cast, by assignment only when what goes is blanks (else 22001,
 * the executor's check of varchar() / bpchar(): no position). */
static int cut_to_length(rl_expr_ctx *c, rl_value *v, size_t keep, size_t max, bool explicit_cast,
                         const char *type)
{
    const uint8_t *p = v->d.v.s.p;
    for (size_t k = keep; k < v->d.v.s.len && !explicit_cast; k++)
        if (p[k] != ' ')
            return rl_exec_error(c->x, RL_SQLSTATE_STRING_DATA_RIGHT_TRUNCATION, -1,
                                 "value too long for type %s(%d)", type, (int)max);
    v->d.v.s.len = keep;
    return 0;
}

/* varchar(n) (typmod n + 4): a longer value is cut to n characters, see
 * cut_to_length. */
static int apply_varchar_typmod(rl_expr_ctx *c, rl_value *v, int32_t typmod, bool explicit_cast)
{
    if (v->d.isnull || typmod < 4)
        return 0;
    size_t max = (size_t)(typmod - 4), chars;
    size_t keep = char_prefix(v->d.v.s.p, v->d.v.s.len, max, &chars);
    if (keep == v->d.v.s.len)
        return 0;
    return cut_to_length(c, v, keep, max, explicit_cast, "character varying");
}

/* character(n) (typmod n + 4; bare bpchar has none): a shorter value is
 * padded with blanks to n characters, a longer one cut to n (see
 * cut_to_length). */
static int apply_bpchar_typmod(rl_expr_ctx *c, rl_value *v, int32_t typmod, bool explicit_cast)
{
    v->typmod = typmod;
    if (v->d.isnull || typmod < 5)
        return 0;
    size_t max = (size_t)(typmod - 4), chars;
    const uint8_t *p = v->d.v.s.p;
    size_t len = v->d.v.s.len;
    size_t keep = char_prefix(p, len, max, &chars);
    if (keep < len)
        return cut_to_length(c, v, keep, max, explicit_cast, "character");
    if (chars == max)
        return 0;
    rl_buf b;
    rl_buf_init(&b, 0);
    rl_buf_put(&b, p, len);
    for (; chars < max; chars++)
        rl_buf_put_u8(&b, ' ');
    int rc = rl_val_buf_copy(c, v, RL_OID_BPCHAR, &b);
    v->typmod = typmod;
    return rc;
}

/* The typmod of a string type applied to a value of it (varchar(n),
 * character(n)); other types are left as they are. */
static int apply_string_typmod(rl_expr_ctx *c, rl_value *v, uint32_t oid, int32_t typmod,
                               bool explicit_cast)
{
    if (oid == RL_OID_VARCHAR) {
        v->typmod = typmod;
        return apply_varchar_typmod(c, v, typmod, explicit_cast);
    }
    if (oid == RL_OID_BPCHAR)
        return apply_bpchar_typmod(c, v, typmod, explicit_cast);
    return 0;
}

/* numeric(p,s): PostgreSQL's typmod is ((p << 16) | (s & 0x7ff)) + 4, the
 * scale an 11-bit signed number (PG 15 allows s < 0 and s > p). */
static void numeric_typmod_parts(int32_t typmod, int *precision, int *scale)
{
    int32_t t = typmod - 4;
    *precision = (t >> 16) & 0xffff;
    *scale = ((t & 0x7ff) ^ 1024) - 1024;
}

/* Round canonical numeric text to `scale` fraction digits, half away from
 * zero, into out (room for len + scale + 3 bytes). Returns the length and
 * sets *lead to the power of ten of the first nonzero digit + 1 (PG's
 * "ddigits"; INT_MIN for zero). */
static size_t numeric_round_text(const char *p, size_t len, int scale, char *out, int *lead)
{
    bool neg = len && p[0] == '-';
    size_t i = neg, dot = i;
    while (dot < len && p[dot] != '.')
        dot++;
    /* digits of the value, most significant first: integer then fraction;
     * keep = how many of them survive the rounding */
    size_t nint = dot - i, nfrac = dot < len ? len - dot - 1 : 0;
    const char *ip = p + i, *fp = dot < len ? p + dot + 1 : "";
    long keep = (long)nint + scale; /* digits kept (may be <= 0 or > total) */
    char dig[nint + nfrac + (scale > 0 ? (size_t)scale : 0) + 2];
    size_t nd = 0;
    dig[nd++] = '0'; /* room for a carry */
    for (size_t k = 0; k < nint; k++)
        dig[nd++] = ip[k];
    for (size_t k = 0; k < nfrac; k++)
        dig[nd++] = fp[k];
    long total = (long)nd - 1;
    bool up = keep >= 0 && keep < total && dig[keep + 1] >= '5';
    if (keep < 0)
        keep = 0;
    if (keep > total)
        for (; total < keep; total++)
            dig[nd++] = '0';
    nd = (size_t)keep + 1; /* the carry digit + kept digits */
    for (long k = (long)nd - 1; up && k >= 0; k--) {
        if (dig[k] == '9') {
            dig[k] = '0';
        } else {
            dig[k]++;
            up = false;
        }
    }
    /* the kept digits stand for integer digits 0..nint (with carry) then
     * fraction digits; a negative scale zero-fills the integer tail */
    long int_digits = (long)nint + 1; /* with the carry digit */
    size_t o = 0;
    long first = -1;
    for (long k = 0; k < (long)nd; k++)
        if (dig[k] != '0') {
            first = k;
            break;
        }
    *lead = first < 0 ? INT_MIN : (int)(int_digits - first);
    if (neg && first >= 0)
        out[o++] = '-';
    long start = first >= 0 && first < int_digits ? first : int_digits;
    if (start >= int_digits)
        out[o++] = '0';
    for (long k = start; k < int_digits; k++)
        out[o++] = k < (long)nd ? dig[k] : '0';
    if (scale > 0) {
        out[o++] = '.';
        for (long k = int_digits; k < int_digits + scale; k++)
            out[o++] = dig[k];
    }
    return o;
}

/* numeric(p,s) on assignment or cast: round to s digits, then at most
 * p - s digits may remain before the point (22003 with PG's detail). NaN
 * passes; infinities do not fit a constrained numeric. The executor's
 * numeric() check: its errors have no position. */
int rl_apply_numeric_typmod(rl_expr_ctx *c, rl_value *v, int32_t typmod)
{
    v->typmod = typmod;
    if (v->d.isnull || typmod < 4)
        return 0;
    int precision, scale;
    numeric_typmod_parts(typmod, &precision, &scale);
    const char *p = (const char *)v->d.v.s.p;
    size_t len = v->d.v.s.len;
    if (len == 3 && memcmp(p, "NaN", 3) == 0)
        return 0;
    if ((len == 8 && memcmp(p, "Infinity", 8) == 0) || (len == 9 && memcmp(p, "-Infinity", 9) == 0)) {
        rl_exec_error(c->x, RL_SQLSTATE_NUMERIC_VALUE_OUT_OF_RANGE, -1, "numeric field overflow");
        rl_error_detail(c->x->err, "A field with precision %d, scale %d cannot hold an "
                        "infinite value.", precision, scale);
        return -1;
    }
    char *out = rl_arena_alloc(c->arena, len + (scale > 0 ? (size_t)scale : 0) + 4);
    if (!out)
        return rl_expr_oom(c);
    int lead;
    size_t n = numeric_round_text(p, len, scale, out, &lead);
    int maxdigits = precision - scale;
    if (lead != INT_MIN && lead > maxdigits) {
        rl_exec_error(c->x, RL_SQLSTATE_NUMERIC_VALUE_OUT_OF_RANGE, -1, "numeric field overflow");
        rl_error_detail(c->x->err, "A field with precision %d, scale %d must round to an "
                        "absolute value less than %s%d.", precision, scale,
                        maxdigits ? "10^" : "", maxdigits ? maxdigits : 1);
        return -1;
    }
    v->d.v.s.p = (const uint8_t *)out;
    v->d.v.s.len = n;
    return 0;
}

/* Relation name (possibly "schema.name", identifiers case-folded unless
 * quoted) -> regclass OID. */
int rl_regclass_from_text(rl_expr_ctx *c, const char *p, size_t len, bool missing_ok,
                              rl_value *out, int loc)
{
    rl_qualified_name q;
    if (!rl_qualified_name_split(p, len, &q) || q.n == 0)
        return rl_exec_error(c->x, RL_SQLSTATE_INVALID_NAME, loc, "invalid name syntax");
    char text[RL_QNAME_MAX * 64 + RL_QNAME_MAX];
    rl_qualified_name_text(&q, text, sizeof text);
    if (q.n > 3)
        return rl_exec_error(c->x, RL_SQLSTATE_SYNTAX_ERROR, loc,
                             "improper relation name (too many dotted names): %s", text);
    /* makeRangeVarFromNameList: catalog.schema.name, the catalog this
     * database (RangeVarGetRelid's check) */
    if (q.n == 3 && strcmp(q.part[0], c->x->s ? c->x->s->eng->database : "") != 0)
        return rl_exec_error(c->x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, loc,
                             "cross-database references are not implemented: \"%s\"", text);
    const char *schema = q.n >= 2 ? q.part[q.n - 2] : NULL;
    const char *name = q.part[q.n - 1];
    /* pg_temp (or its pg_temp_N) names the session's temporary schema,
     * which exists once it made a temporary table or sequence (the
     * relation lookup below knows the name) */
    int known = !schema ? 1
                : strcmp(schema, "pg_temp") == 0
                    ? c->x->s && (c->x->s->temps != NULL || c->x->s->temp_seqs != NULL)
                : rl_pgcatalog_is_temp_schema(c->x, schema)
                    ? 1
                    : rl_pgcatalog_schema_exists(c->x, schema);
    if (known < 0)
        return -1;
    if (known == 0 && !missing_ok)
        return rl_exec_error(c->x, RL_SQLSTATE_INVALID_SCHEMA_NAME, loc,
                             "schema \"%s\" does not exist", schema);
    rl_relation rel;
    rl_error saved = *c->x->err;
    if (rl_relation_lookup(c->x, schema, name, &rel) >= 0 && rel.oid != 0) {
        /* it prints as its name again at output (rl_session_value_text) */
        rl_val_int(out, RL_OID_REGCLASS, rel.oid);
        return 0;
    }
    if (strcmp(c->x->err->sqlstate, RL_SQLSTATE_UNDEFINED_TABLE) != 0 &&
        c->x->err->sqlstate[0] && strcmp(c->x->err->sqlstate, saved.sqlstate) != 0)
        return -1; /* a real failure, not "absent" */
    *c->x->err = saved;
    uint32_t idx; /* a relation that is a lake table's primary-key index */
    int r = rl_pgcatalog_index_oid(c->x, schema, name, &idx);
    if (r < 0)
        return -1;
    if (r == 1) {
        rl_val_int(out, RL_OID_REGCLASS, idx);
        return 0;
    }
    if (missing_ok) {
        rl_val_null(out, RL_OID_REGCLASS);
        return 0;
    }
    return rl_exec_error(c->x, RL_SQLSTATE_UNDEFINED_TABLE, loc, "relation \"%s%s%s\" does not exist",
                         schema ? schema : "", schema ? "." : "", name);
}

/* regtype, regnamespace, regrole, regproc, regprocedure input by name, with
 * PostgreSQL's errors. */
static int reg_from_text(rl_expr_ctx *c, uint32_t oid, const char *p, size_t len, rl_value *out,
                         int loc)
{
    uint32_t found = 0;
    int r = rl_pgcatalog_reg_oid(c->x, oid, p, len, &found, loc);
    if (r == 1) {
        rl_val_int(out, oid, found);
        return 0;
    }
    if (r == -1)
        return -1;
    if (r == -2)
        return rl_exec_error(c->x, RL_SQLSTATE_AMBIGUOUS_FUNCTION, loc,
                             "more than one function named \"%.*s\"", (int)len, p);
    if (r == -3)
        return rl_exec_error(c->x, RL_SQLSTATE_INVALID_TEXT_REPRESENTATION, loc,
                             "expected a left parenthesis");
    if (r == -4)
        return rl_exec_error(c->x, RL_SQLSTATE_INVALID_NAME, loc, "invalid name syntax");
    switch (oid) {
    case RL_OID_REGTYPE: {
        /* TypeNameToString: the name as parsed, quotes gone, the rest
         * lower-cased ('"Int"[]' is Int[], 'NoSuch' nosuch) */
        char name[256];
        size_t o = 0;
        bool quoted = false;
        for (size_t i = 0; i < len && o + 1 < sizeof name; i++) {
            char ch = p[i];
            if (ch == '"' && quoted && i + 1 < len && p[i + 1] == '"') {
                name[o++] = '"';
                i++;
            } else if (ch == '"') {
                quoted = !quoted;
            } else {
                name[o++] = !quoted && ch >= 'A' && ch <= 'Z' ? (char)(ch + 32) : ch;
            }
        }
        name[o] = '\0';
        return rl_exec_error(c->x, RL_SQLSTATE_UNDEFINED_OBJECT, loc,
                             "type \"%s\" does not exist", name);
    }
    case RL_OID_REGNAMESPACE:
        return rl_exec_error(c->x, RL_SQLSTATE_INVALID_SCHEMA_NAME, loc,
                             "schema \"%.*s\" does not exist", (int)len, p);
    case RL_OID_REGROLE: { /* the name as read: quotes gone, lower-cased unless quoted */
        rl_qualified_name q;
        char name[256];
        if (rl_qualified_name_split(p, len, &q))
            rl_qualified_name_text(&q, name, sizeof name);
        else
            snprintf(name, sizeof name, "%.*s", (int)len, p);
        return rl_exec_error(c->x, RL_SQLSTATE_UNDEFINED_OBJECT, loc, "role \"%s\" does not exist",
                             name);
    }
    case RL_OID_REGDICTIONARY:
        return rl_exec_error(c->x, RL_SQLSTATE_UNDEFINED_OBJECT, loc,
                             "text search dictionary \"%.*s\" does not exist", (int)len, p);
    default:
        return rl_exec_error(c->x, RL_SQLSTATE_UNDEFINED_FUNCTION, loc,
                             "function \"%.*s\" does not exist", (int)len, p);
    }
}

/* A reg* type's input reads all-digits text as an oid (through oidin, so
 * '4294967296' is 22003) and anything else as a name (regclassin and
 * its siblings). */
static bool all_digits(const char *p, size_t len)
{
    if (len == 0)
        return false;
    for (size_t i = 0; i < len; i++)
        if (!isdigit((unsigned char)p[i]))
            return false;
    return true;
}

/* oidin (uint32in_subr): strtoul's reading in base 10 (blanks around, a
 * sign: '-1' is 4294967295), a value from -2147483648 to 4294967295 taken
 * modulo 2^32; 22003 beyond, 22P02 for anything else. */
static int oid_input(rl_expr_ctx *c, const char *p, size_t len, int64_t *out, int loc)
{
    char buf[64];
    if (len == 0 || len >= sizeof buf)
        goto syntax;
    memcpy(buf, p, len);
    buf[len] = '\0';
    if (memchr(buf, '\0', len))
        goto syntax;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(buf, &end, 10);
    if (end == buf)
        goto syntax;
    bool range = errno == ERANGE;
    while (*end && isspace((unsigned char)*end))
        end++;
    if (*end)
        goto syntax;
    const char *digits = buf;
    while (isspace((unsigned char)*digits))
        digits++;
    bool negative = *digits == '-';
    uint64_t magnitude = negative ? (uint64_t)0 - v : v;
    if (range || magnitude > (negative ? (uint64_t)1 << 31 : UINT32_MAX))
        return rl_exec_error(c->x, RL_SQLSTATE_NUMERIC_VALUE_OUT_OF_RANGE, loc,
                             "value \"%.*s\" is out of range for type oid", (int)len, p);
    *out = (int64_t)(uint32_t)v;
    return 0;
syntax:
    *out = 0;
    return rl_exec_error(c->x, RL_SQLSTATE_INVALID_TEXT_REPRESENTATION, loc,
                         "invalid input syntax for type oid: \"%.*s\"", (int)len, p);
}

/* text -> json: the text as it is, once it is one JSON value (json_in). */
static int json_input(rl_expr_ctx *c, const char *p, size_t len, rl_value *out, int loc)
{
    char detail[160];
    rl_json_status st = rl_json_check((const uint8_t *)p, len, detail, sizeof detail);
    if (st == RL_JSON_TOO_DEEP)
        return rl_stack_depth_error(c->x->err);
    if (st != RL_JSON_OK) {
        rl_exec_error(c->x, RL_SQLSTATE_INVALID_TEXT_REPRESENTATION, loc,
                      "invalid input syntax for type json");
        rl_error_detail(c->x->err, "%s", detail);
        return -1;
    }
    rl_val_str(out, RL_OID_JSON, p, len);
    return 0;
}

/* PostgreSQL de-escapes a json's strings when it reads them (jsonb_in,
 * the access operators and functions): a lone surrogate is 22P02, a
 * \u0000 22P05. */
int rl_json_escapes_check(rl_expr_ctx *c, const rl_value *j, int loc)
{
    char detail[160];
    bool nul;
    if (rl_json_check_escapes(j->d.v.s.p, j->d.v.s.len, &nul, detail, sizeof detail) ==
        RL_JSON_OK)
        return 0;
    if (nul) {
        rl_exec_error(c->x, RL_SQLSTATE_UNTRANSLATABLE_CHARACTER, loc,
                      "unsupported Unicode escape sequence");
        rl_error_detail(c->x->err, "\\u0000 cannot be converted to text.");
        return -1;
    }
    rl_exec_error(c->x, RL_SQLSTATE_INVALID_TEXT_REPRESENTATION, loc,
                  "invalid input syntax for type json");
    rl_error_detail(c->x->err, "%s", detail);
    return -1;
}

int rl_jsonb_make(rl_expr_ctx *c, const uint8_t *p, size_t n, bool strip, rl_value *out, int loc)
{
    rl_value j;
    rl_val_str(&j, RL_OID_JSON, (const char *)p, n);
    if (rl_json_escapes_check(c, &j, loc) < 0)
        return -1;
    rl_buf b;
    rl_buf_init(&b, 0);
    char err[160] = "";
    const char *sqlstate = NULL;
    rl_json_status st = rl_jsonb_canon(p, n, strip, &b, err, sizeof err, &sqlstate);
    if (st != RL_JSON_OK || b.failed) {
        rl_buf_free(&b);
        if (st == RL_JSON_TOO_DEEP)
            return rl_stack_depth_error(c->x->err);
        if (st == RL_JSON_OK)
            return rl_expr_oom(c);
        rl_exec_error(c->x, sqlstate ? sqlstate : RL_SQLSTATE_INVALID_TEXT_REPRESENTATION, loc,
                      "%s", err);
        if (sqlstate && strcmp(sqlstate, RL_SQLSTATE_UNTRANSLATABLE_CHARACTER) == 0)
            rl_error_detail(c->x->err, "\\u0000 cannot be converted to text.");
        return -1;
    }
    return rl_val_buf_copy(c, out, RL_OID_JSONB, &b);
}

int rl_jsonb_from_json(rl_expr_ctx *c, const rl_value *j, rl_value *out, int loc)
{
    if (j->d.isnull) {
        rl_val_null(out, RL_OID_JSONB);
        return 0;
    }
    return rl_jsonb_make(c, j->d.v.s.p, j->d.v.s.len, false, out, loc);
}

int rl_array_room(rl_expr_ctx *c, size_t n)
{
    size_t limit = rl_result_budget_limit(RL_RESULT_MEM_DEFAULT);
    if (n <= limit / sizeof(rl_value))
        return 0;
    return rl_exec_error(c->x, RL_SQLSTATE_PROGRAM_LIMIT_EXCEEDED, -1,
                         "result of this statement needs more than %zu MB", limit >> 20);
}

/* 22P02 for the literal `whole` (as given) with PostgreSQL's detail. */
static int malformed_array(rl_expr_ctx *c, const char *whole, size_t wlen, const char *detail,
                           int loc)
{
    rl_exec_error(c->x, RL_SQLSTATE_INVALID_TEXT_REPRESENTATION, loc,
                  "malformed array literal: \"%.*s\"", (int)wlen, whole);
    rl_error_detail(c->x->err, "%s", detail);
    return -1;
}

/* array_in's DETAIL for a text (blanks trimmed) that is not one {...},
 * NULL for one that is: what it finds first reading the braces (quotes and
 * backslashes honoured). */
static const char *array_outline_detail(const char *t, size_t n)
{
    if (n == 0 || t[0] != '{')
        return "Array value must start with \"{\" or dimension information.";
    int depth = 0;
    bool quoted = false;
    for (size_t i = 0; i < n; i++) {
        if (t[i] == '\\') {
            i++;
            continue;
        }
        if (t[i] == '"')
            quoted = !quoted;
        else if (!quoted && t[i] == '{')
            depth++;
        else if (!quoted && t[i] == '}' && --depth == 0)
            return i + 1 < n ? "Junk after closing right brace." : NULL;
    }
    return "Unexpected end of input.";
}

int rl_array_elements(rl_expr_ctx *c, const rl_value *arr, int32_t typmod, bool explicit_cast,
                      const char *whole, size_t wlen, rl_value **vals, size_t *n, int loc)
{
    uint32_t elem = rl_elem_oid_of(arr->oid);
    assert(elem && !arr->d.isnull);
    const char *t = (const char *)arr->d.v.s.p;
    size_t tn = arr->d.v.s.len;
    /* an unquoted separator with nothing before it ({1,,2}, {,1}) or after
     * it ({1,}) is malformed; a quote anywhere makes "" an element */
    bool strict = whole && !memchr(t, '"', tn);
    size_t cap = 8, k = 0, pos = 0;
    rl_value *v = rl_arena_alloc(c->arena, cap * sizeof *v);
    if (!v)
        return rl_expr_oom(c);
    rl_buf el;
    rl_buf_init(&el, 0);
    bool isnull;
    int rc = 0;
    while (rc == 0 && rl_elem_next(arr, &pos, &el, &isnull) == 1) {
        if (k == cap) {
            rl_value *nv = NULL;
            if ((rc = rl_array_room(c, 2 * cap)) < 0 ||
                !(nv = rl_arena_alloc(c->arena, 2 * cap * sizeof *nv))) {
                rc = rc < 0 ? rc : rl_expr_oom(c);
                break;
            }
            memcpy(nv, v, cap * sizeof *v);
            v = nv;
            cap *= 2;
        }
        size_t at = pos > 0 ? pos - 1 : 0;
        if (strict && el.len == 0 && !isnull && (at >= tn || t[at] == ',' || t[at] == '}')) {
            rc = malformed_array(c, whole, wlen, "Unexpected \",\" character.", loc);
            break;
        }
        if (isnull) {
            rl_val_null(&v[k++], elem);
            continue;
        }
        char *copy = rl_arena_alloc(c->arena, el.len + 1); /* text values point into it */
        if (!copy) {
            rc = rl_expr_oom(c);
            break;
        }
        if (el.len) /* an empty element ("") has no bytes, and el.data may be NULL */
            memcpy(copy, el.data, el.len);
        copy[el.len] = '\0';
        rc = rl_text_to_value(c, copy, el.len, elem, typmod, explicit_cast, &v[k++], loc);
        if (rc == 0 && elem == RL_OID_NUMERIC) /* numeric_in's typmod */
            rc = rl_apply_numeric_typmod(c, &v[k - 1], typmod);
    }
    rl_buf_free(&el);
    size_t last = tn - 1; /* a separator before the closing brace: {1,} */
    while (strict && rc == 0 && last > 1 &&
           (t[last - 1] == ' ' || t[last - 1] == '\t' || t[last - 1] == '\n'))
        last--;
    if (strict && rc == 0 && last > 1 && t[last - 1] == ',')
        rc = malformed_array(c, whole, wlen, "Unexpected \"}\" character.", loc);
    *vals = v;
    *n = k;
    return rc;
}

/* array_in of a one-dimensional array's text `t` (braces included): every
 * element through its type's input, so that a bad element fails here
 * (22P02, as PostgreSQL's cast does) and the value is kept in array_out's
 * form ({true} is {t}, {"a"} is {a}); an empty element is a malformed
 * literal. A multidimensional literal is kept as written (their support is
 * the text form only). `whole` is the input as given, for the message. */
static int array_input(rl_expr_ctx *c, const char *whole, size_t wlen, const char *t, size_t n,
                       uint32_t oid, int32_t typmod, bool explicit_cast, rl_value *out, int loc)
{
    size_t i = 1;
    while (i < n && (t[i] == ' ' || t[i] == '\t' || t[i] == '\n'))
        i++;
    rl_val_str(out, oid, t, n);
    if (i < n && t[i] == '{')
        return 0;
    rl_value *vals;
    size_t k;
    if (rl_array_elements(c, out, typmod, explicit_cast, whole, wlen, &vals, &k, loc) < 0 ||
        rl_array_of_values(c, oid, vals, k, 1, out) < 0)
        return -1;
    out->typmod = typmod;
    return 0;
}

/* record_in for a table's row type: p[0..len) read as a row of the
 * table's columns, each field by its column type's input (22P02
 * "malformed record literal" with record_in's DETAIL), made a record of
 * type oid; 42704 when no table has that row type any more. */
static int rowtype_input(rl_expr_ctx *c, const char *p, size_t len, uint32_t oid, rl_value *out,
                         int loc)
{
    rl_relation rel;
    int r = rl_relation_of_rowtype(c->x, oid, &rel);
    if (r <= 0)
        return r < 0 ? -1 : rl_exec_error(c->x, RL_SQLSTATE_UNDEFINED_OBJECT, loc,
                                          "type with OID %u does not exist", oid);
    size_t n = rl_relation_ncols(c->x, &rel);
    const char **names = rl_arena_alloc(c->arena, (n + 1) * sizeof *names);
    rl_value *fields = rl_arena_alloc(c->arena, (n + 1) * sizeof *fields);
    rl_buf *texts = calloc(n + 1, sizeof *texts);
    bool *nulls = calloc(n + 1, sizeof *nulls);
    int rc = names && fields && texts && nulls ? 0 : rl_expr_oom(c);
    for (size_t i = 0; texts && i < n; i++)
        rl_buf_init(&texts[i], 0);
    const char *detail = rc == 0 ? rl_record_parse(p, len, n, texts, nulls) : NULL;
    if (detail) {
        rc = rl_exec_error(c->x, RL_SQLSTATE_INVALID_TEXT_REPRESENTATION, loc,
                           "malformed record literal: \"%.*s\"", (int)len, p);
        rl_error_detail(c->x->err, "%s", detail);
    }
    for (size_t i = 0; rc == 0 && i < n; i++) {
        uint32_t t;
        int32_t typmod;
        rl_relation_col(&rel, i, &names[i], &t, &typmod);
        rl_val_null(&fields[i], t);
        if (!nulls[i])
            rc = rl_text_to_value(c, texts[i].data ? (const char *)texts[i].data : "",
                                  texts[i].len, t, typmod, false, &fields[i], loc);
        if (rc == 0 && !nulls[i] && t == RL_OID_NUMERIC) /* numeric_in's typmod */
            rc = rl_apply_numeric_typmod(c, &fields[i], typmod);
        if (rc < 0 && loc >= 0 && c->x->err->position == 0) {
            /* record_in runs while parsing: every field's error is at the
             * literal (a typmod's check too) */
            rl_error e = *c->x->err;
            rl_exec_error(c->x, e.sqlstate, loc, "%s", e.message);
            memcpy(c->x->err->detail, e.detail, sizeof e.detail);
        }
    }
    if (rc == 0) { /* built before the fields' texts go */
        rl_buf b;
        rl_buf_init(&b, 0);
        rl_record_build(&b, n, names, fields);
        rc = rl_val_buf_copy(c, out, oid, &b);
    }
    for (size_t i = 0; texts && i < n; i++)
        rl_buf_free(&texts[i]);
    free(texts);
    free(nulls);
    return rc;
}

/* Input text of a type (a literal or a cast from text). */
int rl_text_to_value(rl_expr_ctx *c, const char *p, size_t len, uint32_t oid,
                         int32_t typmod, bool explicit_cast, rl_value *out, int loc)
{
    if (rl_oid_is_rowtype(oid))
        return rowtype_input(c, p, len, oid, out, loc);
    if (rl_oid_is_textual(oid) && oid != RL_OID_UNKNOWN) {
        size_t n = len;
        if (oid == RL_OID_NAME && n > 63)
            n = 63;
        if (oid == RL_OID_CHAR && n > 1)
            n = 1;
        rl_val_str(out, oid, p, n);
        out->typmod = typmod;
        return apply_string_typmod(c, out, oid, typmod, explicit_cast);
    }
    int64_t u;
    if (rl_array_elem_oid(oid)) {
        /* kept as text: the braces, as array_in's first check */
        size_t a = 0, z = len;
        while (a < z && (p[a] == ' ' || p[a] == '\t' || p[a] == '\n'))
            a++;
        while (z > a && (p[z - 1] == ' ' || p[z - 1] == '\t' || p[z - 1] == '\n'))
            z--;
        const char *detail = array_outline_detail(p + a, z - a);
        if (detail)
            return malformed_array(c, p, len, detail, loc);
        return array_input(c, p, len, p + a, z - a, oid, typmod, explicit_cast, out, loc);
    }
    switch (oid) {
    case RL_OID_JSON:
        return json_input(c, p, len, out, loc);
    case RL_OID_JSONB:
        return json_input(c, p, len, out, loc) < 0 ? -1 : rl_jsonb_from_json(c, out, out, loc);
    case 194: /* pg_node_tree: only the catalogs make one (a NULL casts) */
        return rl_exec_error(c->x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, loc,
                             "cannot accept a value of type pg_node_tree");
    case RL_OID_UNKNOWN:
    case RL_OID_INT2VECTOR:
    case RL_OID_OIDVECTOR:
    case 1033: /* aclitem: an element of the catalogs' grants, kept as its text */
        rl_val_str(out, oid, p, len);
        return 0;
    case RL_OID_XID8: { /* xid8in: strtoull's reading, base 0, no error */
        char *num = strndup(p, len);
        if (!num)
            return rl_exec_error(c->x, RL_SQLSTATE_OUT_OF_MEMORY, loc, "out of memory");
        rl_val_int(out, RL_OID_XID8, (int64_t)strtoull(num, NULL, 0));
        free(num);
        return 0;
    }
    case RL_OID_TID: {
        uint64_t ctid;
        if (!rl_tid_parse(p, len, &ctid))
            return rl_exec_error(c->x, RL_SQLSTATE_INVALID_TEXT_REPRESENTATION, loc,
                                 "invalid input syntax for type tid: \"%.*s\"", (int)len, p);
        rl_val_int(out, RL_OID_TID, (int64_t)ctid);
        return 0;
    }
    case RL_OID_OID:
        if (oid_input(c, p, len, &u, loc) < 0)
            return -1;
        rl_val_int(out, oid, u);
        return 0;
    case RL_OID_REGCLASS:
    case RL_OID_REGPROC:
    case RL_OID_REGPROCEDURE:
    case RL_OID_REGTYPE:
    case RL_OID_REGNAMESPACE:
    case RL_OID_REGROLE:
    case RL_OID_REGDICTIONARY:
        if (len == 1 && p[0] == '-') { /* "-": no object */
            rl_val_int(out, oid, 0);
            return 0;
        }
        if (all_digits(p, len)) {
            if (oid_input(c, p, len, &u, loc) < 0)
                return -1;
            rl_val_int(out, oid, u);
            return 0;
        }
        if (oid == RL_OID_REGCLASS)
            return rl_regclass_from_text(c, p, len, false, out, loc);
        return reg_from_text(c, oid, p, len, out, loc);
    default:
        break;
    }
    rl_type t = rl_oid_type(oid);
    if (t == RL_T_INVALID)
        return rl_exec_error(c->x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, loc,
                             "input of type %s is not supported", rl_oid_type_name(oid));
    rl_buf tmp;
    rl_buf_init(&tmp, 0);
    char msg[256] = "";
    const char *sqlstate = NULL;
    rl_datum d;
    rl_codec_status st = rl_datum_input(t, p, len, &d, &tmp, msg, sizeof msg, &sqlstate);
    if (st != RL_CODEC_OK) {
        rl_buf_free(&tmp);
        if (!msg[0])
            snprintf(msg, sizeof msg, "invalid input syntax for type %s: \"%.*s\"",
                     rl_oid_type_name(oid), (int)len, p);
        return rl_exec_error(c->x, sqlstate, loc, "%s", msg);
    }
    memset(out, 0, sizeof *out);
    out->oid = oid;
    out->typmod = typmod;
    out->d = d;
    if (t == RL_T_NUMERIC || t == RL_T_BYTEA) {
        /* the datum points into tmp: move its bytes to the arena */
        const uint8_t *q = rl_arena_dup(c->arena, d.v.s.len ? d.v.s.p : (const uint8_t *)"",
                                        d.v.s.len ? d.v.s.len : 1);
        rl_buf_free(&tmp);
        if (!q)
            return rl_expr_oom(c);
        out->d.v.s.p = q;
        return 0;
    }
    rl_buf_free(&tmp);
    return 0;
}

/* reg* output through x's catalog: the name, or the number when no object
 * has that oid (as PostgreSQL prints it). */
static int reg_to_text(rl_exec *x, rl_buf *out, const rl_value *v)
{
    char name[400];
    int r = rl_pgcatalog_reg_name(x, v->oid, (uint32_t)v->d.v.i, name, sizeof name);
    if (r < 0)
        return -1;
    if (r == 0)
        rl_value_to_text(out, v);
    else
        rl_buf_put_str(out, name);
    return 0;
}

void rl_session_value_text(rl_session *s, rl_buf *out, const rl_value *v)
{
    if (!s || v->d.isnull || !rl_oid_is_reg(v->oid)) {
        rl_value_to_text(out, v);
        return;
    }
    /* Rows are output while their statement runs (Simple Query, Execute),
     * so this reads the statement's transaction, or begins it as the
     * statement's first catalog read would (it ends with the statement's
     * implicit transaction or block, sql.c). The session's last execution
     * id lets the lookups share the statement's table list
     * (sql_pgcatalog.c, load_tables). */
    rl_error err;
    memset(&err, 0, sizeof err);
    rl_exec x = {.s = s, .err = &err, .id = s->exec_seq};
    size_t at = out->len;
    if (reg_to_text(&x, out, v) < 0) {
        out->len = at; /* a failed lookup prints the number */
        rl_value_to_text(out, v);
    }
}

/* Output text of any value, as a text value in the arena. */
static int value_to_textval(rl_expr_ctx *c, const rl_value *in, uint32_t oid, rl_value *out)
{
    if (in->oid == RL_OID_BOOL) /* bool::text is 'true'/'false', not 't'/'f' */
        return rl_val_str_copy(c, out, oid, in->d.v.b ? "true" : "false", in->d.v.b ? 4 : 5);
    rl_buf b;
    rl_buf_init(&b, 0);
    if (rl_oid_is_reg(in->oid)) {
        if (reg_to_text(c->x, &b, in) < 0) {
            rl_buf_free(&b);
            return -1;
        }
    } else {
        rl_value_to_text(&b, in);
    }
    return rl_val_buf_copy(c, out, oid, &b);
}

static int coerce_value(rl_expr_ctx *c, const rl_value *in, uint32_t oid, int32_t typmod,
                        bool explicit_cast, rl_value *out, int location);

/* ---------------------------------------------------------------- arrays */

/* PostgreSQL's array_out: {a,"b c",NULL}; an element is quoted when empty,
 * "NULL" in any case, or holding braces, commas, quotes, backslashes or
 * white space, with quotes and backslashes escaped. */
static void array_put_elem(rl_buf *b, const rl_buf *el)
{
    bool quote = el->len == 0 || (el->len == 4 && strncasecmp((const char *)el->data, "null", 4) == 0);
    for (size_t i = 0; i < el->len && !quote; i++)
        quote = strchr("{},\"\\ \t\n\r\v\f", el->data[i]) != NULL && el->data[i] != '\0';
    if (!quote) {
        rl_buf_put(b, el->data, el->len);
        return;
    }
    rl_buf_put_u8(b, '"');
    for (size_t i = 0; i < el->len; i++) {
        if (el->data[i] == '"' || el->data[i] == '\\')
            rl_buf_put_u8(b, '\\');
        rl_buf_put_u8(b, el->data[i]);
    }
    rl_buf_put_u8(b, '"');
}

/* An array of type `t` (its text form) from n values, the i-th at
 * vals[i * stride]. */
int rl_array_of_values(rl_expr_ctx *c, uint32_t t, const rl_value *vals, size_t n,
                       size_t stride, rl_value *out)
{
    rl_buf b, el;
    rl_buf_init(&b, 0);
    rl_buf_init(&el, 0);
    rl_buf_put_u8(&b, '{');
    for (size_t i = 0; i < n; i++) {
        if (i)
            rl_buf_put_u8(&b, ',');
        const rl_value *v = &vals[i * stride];
        if (v->d.isnull) {
            rl_buf_put_str(&b, "NULL");
            continue;
        }
        rl_buf_reset(&el);
        if (v->oid == RL_OID_BOOL) /* array_out prints t / f */
            rl_buf_put_u8(&el, v->d.v.b ? 't' : 'f');
        else if (rl_oid_is_reg(v->oid) && reg_to_text(c->x, &el, v) < 0) { /* names */
            rl_buf_free(&el);
            rl_buf_free(&b);
            return -1;
        } else if (!rl_oid_is_reg(v->oid))
            rl_value_to_text(&el, v);
        array_put_elem(&b, &el);
    }
    rl_buf_put_u8(&b, '}');
    rl_buf_free(&el);
    return rl_val_buf_copy(c, out, t, &b);
}


/* A cast of an array to another array type: each element through the
 * element types' cast (int4[] to numeric[], text[] to int4[], ...) with the
 * target's typmod (varchar(2)[] cuts, numeric(3,1)[] rounds), as array_map
 * does; NULL elements stay NULL. */
static int array_coerce(rl_expr_ctx *c, const rl_value *in, uint32_t oid, int32_t typmod,
                        bool explicit_cast, rl_value *out, int location)
{
    uint32_t from = rl_elem_oid_of(in->oid), to = rl_array_elem_oid(oid);
    rl_buf b, el, txt;
    rl_buf_init(&b, 0);
    rl_buf_init(&el, 0);
    rl_buf_init(&txt, 0);
    rl_buf_put_u8(&b, '{');
    size_t pos = 0, k = 0;
    bool isnull;
    int rc = 0;
    while (rc == 0 && rl_elem_next(in, &pos, &el, &isnull) == 1) {
        if (k++)
            rl_buf_put_u8(&b, ',');
        if (isnull) {
            rl_buf_put_str(&b, "NULL");
            continue;
        }
        rl_value v;
        char *copy = rl_arena_alloc(c->arena, el.len + 1);
        if (!copy) {
            rc = rl_expr_oom(c);
            break;
        }
        if (el.len) /* an empty element has no bytes, and el.data may be NULL */
            memcpy(copy, el.data, el.len);
        copy[el.len] = '\0';
        rc = rl_text_to_value(c, copy, el.len, from, -1, false, &v, location);
        if (rc == 0)
            rc = rl_value_coerce(c, &v, to, typmod, explicit_cast, &v, location);
        if (rc == 0) {
            rl_buf_reset(&txt);
            if (v.oid == RL_OID_BOOL)
                rl_buf_put_u8(&txt, v.d.v.b ? 't' : 'f');
            else
                rl_value_to_text(&txt, &v);
            array_put_elem(&b, &txt);
        }
    }
    rl_buf_put_u8(&b, '}');
    rl_buf_free(&el);
    rl_buf_free(&txt);
    if (rc < 0) {
        rl_buf_free(&b);
        return -1;
    }
    rc = rl_val_buf_copy(c, out, oid, &b);
    out->typmod = typmod;
    return rc;
}

/* The types rl_assignable judges: the lake's stored types. */
static bool judged(uint32_t t)
{
    switch (t) {
    case RL_OID_BOOL: case RL_OID_INT2: case RL_OID_INT4: case RL_OID_INT8:
    case RL_OID_NUMERIC: case RL_OID_FLOAT4: case RL_OID_FLOAT8: case RL_OID_TEXT:
    case RL_OID_VARCHAR: case RL_OID_DATE: case RL_OID_TIME: case RL_OID_TIMETZ:
    case RL_OID_TIMESTAMP: case RL_OID_TIMESTAMPTZ: case RL_OID_INTERVAL: case RL_OID_UUID:
    case RL_OID_BYTEA: case RL_OID_JSON: case RL_OID_JSONB: return true;
    default: return false;
    }
}

/* pg_cast's implicit and assignment casts among the date/time types. */
static bool datetime_assignable(uint32_t from, uint32_t to)
{
    static const uint32_t pairs[][2] = {
        {RL_OID_DATE, RL_OID_TIMESTAMP},      {RL_OID_DATE, RL_OID_TIMESTAMPTZ},
        {RL_OID_TIMESTAMP, RL_OID_DATE},      {RL_OID_TIMESTAMPTZ, RL_OID_DATE},
        {RL_OID_TIMESTAMP, RL_OID_TIMESTAMPTZ}, {RL_OID_TIMESTAMPTZ, RL_OID_TIMESTAMP},
        {RL_OID_TIMESTAMP, RL_OID_TIME},      {RL_OID_TIMESTAMPTZ, RL_OID_TIME},
        {RL_OID_TIMESTAMPTZ, RL_OID_TIMETZ},  {RL_OID_TIME, RL_OID_TIMETZ},
        {RL_OID_TIMETZ, RL_OID_TIME},         {RL_OID_TIME, RL_OID_INTERVAL},
        {RL_OID_INTERVAL, RL_OID_TIME}};
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
        if (pairs[i][0] == from && pairs[i][1] == to)
            return true;
    return false;
}

bool rl_assignable(uint32_t from, uint32_t to)
{
    if (from == to || from == RL_OID_UNKNOWN || rl_oid_is_textual(to))
        return true;
    uint32_t fe = rl_array_elem_oid(from), te = rl_array_elem_oid(to);
    if (fe && te)
        return rl_assignable(fe, te);
    if (fe || te)
        return !(judged(fe ? fe : from) && judged(te ? te : to));
    if (!judged(from) || !judged(to))
        return true; /* not ours to judge: rl_value_coerce decides */
    bool num_from = rl_oid_is_number(from), num_to = rl_oid_is_number(to);
    if (num_from || num_to)
        return num_from && num_to;
    if ((from == RL_OID_JSON || from == RL_OID_JSONB) && (to == RL_OID_JSON || to == RL_OID_JSONB))
        return true;
    return datetime_assignable(from, to);
}

int rl_value_coerce(rl_expr_ctx *c, const rl_value *in, uint32_t oid, int32_t typmod,
                    bool explicit_cast, rl_value *out, int location)
{
    /* Where PostgreSQL's error points: only parse analysis has a position.
     * It reads an untyped literal with the type's input function there
     * (coerce_type, the typmod left out), and refuses a cast it has none
     * for (42846); any other conversion (of a typed value, a typmod's
     * length or precision check) runs as a function in the executor or the
     * planner's folding, which has no position. */
    bool keep = in->oid == RL_OID_UNKNOWN;
    if (coerce_value(c, in, oid, typmod, explicit_cast, out, location) < 0) {
        if (!keep && strcmp(c->x->err->sqlstate, RL_SQLSTATE_CANNOT_COERCE) != 0)
            c->x->err->position = 0;
        return -1;
    }
    /* a numeric's typmod applies whatever the source type (assignment and
     * cast alike, as numeric()/numeric_in do) */
    return oid == RL_OID_NUMERIC ? rl_apply_numeric_typmod(c, out, typmod) : 0;
}

/* timestamp -> time, timestamptz -> time / timetz: the time of day of the
 * wall clock (a timestamptz's in the session's zone, with its offset);
 * NULL for an infinity, as timestamp_time gives. */
static int timestamp_to_time(const rl_value *in, uint32_t oid, rl_value *out)
{
    int64_t us = in->d.v.i;
    if (us == INT64_MAX || us == INT64_MIN) {
        rl_val_null(out, oid);
        return 0;
    }
    int32_t east = 0;
    if (in->oid == RL_OID_TIMESTAMPTZ)
        us = rl_tz_utc_to_local_us(rl_tz_current(), us, &east);
    const int64_t day = INT64_C(86400000000);
    int64_t tod = us % day < 0 ? us % day + day : us % day;
    rl_val_int(out, oid, tod);
    if (oid == RL_OID_TIMETZ) {
        out->d.v.timetz.us = tod;
        out->d.v.timetz.zone = -east;
    }
    return 0;
}

/* jsonb::numeric, ::int2/4/8, ::float4/8 and ::bool (explicit casts only,
 * as in PostgreSQL): a JSON number through numeric, true or false; any
 * other JSON value is 22023 naming its kind. jsonb's text is normalised
 * (no leading space), so its first byte tells the kind. */
static int jsonb_to_scalar(rl_expr_ctx *c, const rl_value *in, uint32_t oid, rl_value *out,
                           int location)
{
    const char *p = (const char *)in->d.v.s.p;
    size_t n = in->d.v.s.len;
    assert(n > 0);
    bool is_bool = p[0] == 't' || p[0] == 'f';
    bool is_number = p[0] == '-' || (p[0] >= '0' && p[0] <= '9');
    bool want_bool = oid == RL_OID_BOOL;
    if (want_bool ? !is_bool : !is_number) {
        const char *kind = p[0] == '{' ? "object"
                           : p[0] == '[' ? "array"
                           : p[0] == '"' ? "string"
                           : p[0] == 'n' ? "null"
                           : is_bool     ? "boolean"
                                         : "numeric";
        return rl_exec_error(c->x, RL_SQLSTATE_INVALID_PARAMETER_VALUE, location,
                             "cannot cast jsonb %s to type %s", kind, rl_oid_type_name(oid));
    }
    if (want_bool) {
        rl_val_bool(out, p[0] == 't');
        return 0;
    }
    rl_value num;
    if (rl_text_to_value(c, p, n, RL_OID_NUMERIC, -1, true, &num, location) < 0)
        return -1;
    if (oid == RL_OID_NUMERIC) {
        *out = num;
        return 0;
    }
    return rl_number_convert(c, &num, oid, out, location);
}

/* i4tochar: an integer's value as the one byte of a "char" (0: the empty
 * string), 22003 outside -128..127; no other number casts to "char"
 * (PostgreSQL has only int4's). */
static int int4_to_char(rl_expr_ctx *c, const rl_value *in, rl_value *out, int location)
{
    if (in->oid != RL_OID_INT4)
        return rl_exec_error(c->x, RL_SQLSTATE_CANNOT_COERCE, location,
                             "cannot cast type %s to %s", rl_oid_type_name(in->oid),
                             rl_oid_type_name(RL_OID_CHAR));
    if (in->d.v.i < -128 || in->d.v.i > 127)
        return rl_exec_error(c->x, RL_SQLSTATE_NUMERIC_VALUE_OUT_OF_RANGE, -1,
                             "\"char\" out of range");
    char byte = (char)in->d.v.i;
    return rl_val_str_copy(c, out, RL_OID_CHAR, &byte, byte ? 1 : 0);
}

static int coerce_value(rl_expr_ctx *c, const rl_value *in, uint32_t oid, int32_t typmod,
                        bool explicit_cast, rl_value *out, int location)
{
    if (oid == RL_OID_RECORD && rl_oid_is_composite(in->oid)) { /* t::record stays a t */
        *out = *in;
        return 0;
    }
    if (in->d.isnull) {
        rl_val_null(out, oid);
        out->typmod = typmod;
        return 0;
    }
    if (in->oid == oid && typmod >= 0 && rl_array_elem_oid(oid))
        return array_coerce(c, in, oid, typmod, explicit_cast, out, location);
    if (in->oid == oid) {
        *out = *in;
        return apply_string_typmod(c, out, oid, typmod, explicit_cast);
    }
    if (in->oid == RL_OID_JSON && oid == RL_OID_JSONB)
        return rl_jsonb_from_json(c, in, out, location);
    if (in->oid == RL_OID_JSONB && oid == RL_OID_JSON) {
        rl_val_str(out, RL_OID_JSON, (const char *)in->d.v.s.p, in->d.v.s.len);
        return 0;
    }
    if (in->oid == RL_OID_JSONB && explicit_cast && (rl_oid_is_number(oid) || oid == RL_OID_BOOL))
        return jsonb_to_scalar(c, in, oid, out, location);
    if (in->oid == RL_OID_CHAR && oid == RL_OID_INT4) { /* chartoi4: the byte, signed */
        rl_val_int(out, oid, in->d.v.s.len ? (int8_t)in->d.v.s.p[0] : 0);
        return 0;
    }
    if (rl_oid_is_textual(in->oid)) {
        /* bpchar to another string type: rtrim1 takes the padding off */
        size_t len = in->oid == RL_OID_BPCHAR && rl_oid_is_textual(oid)
                         ? rl_bpchar_trimmed_len(&in->d)
                         : in->d.v.s.len;
        return rl_text_to_value(c, (const char *)in->d.v.s.p, len, oid, typmod, explicit_cast,
                                out, location);
    }
    if (oid == RL_OID_CHAR && rl_oid_is_number(in->oid))
        return int4_to_char(c, in, out, location);
    if (rl_oid_is_textual(oid)) {
        if (value_to_textval(c, in, oid, out) < 0)
            return -1;
        return apply_string_typmod(c, out, oid, typmod, explicit_cast);
    }
    if (rl_oid_is_number(in->oid) && rl_oid_is_number(oid))
        return rl_number_convert(c, in, oid, out, location);
    if (in->oid == RL_OID_BOOL && oid == RL_OID_INT4) {
        rl_val_int(out, oid, in->d.v.b);
        return 0;
    }
    if (rl_oid_is_intlike(in->oid) && oid == RL_OID_BOOL) {
        rl_val_bool(out, in->d.v.i != 0);
        return 0;
    }
    if (rl_oid_is_timestamp(in->oid) && rl_oid_is_timestamp(oid)) {
        int64_t us = rl_ts_micros(in);
        /* timestamptz <-> a wall-clock type: through the session's zone */
        if (in->oid == RL_OID_TIMESTAMPTZ && oid != RL_OID_TIMESTAMPTZ)
            us = rl_tz_utc_to_local_us(rl_tz_current(), us, NULL);
        else if (in->oid != RL_OID_TIMESTAMPTZ && oid == RL_OID_TIMESTAMPTZ)
            us = rl_tz_local_to_utc_us(rl_tz_current(), us, NULL);
        if (us != INT64_MAX && us != INT64_MIN && !rl_timestamp_in_range(us))
            return rl_exec_error(c->x, RL_SQLSTATE_DATETIME_FIELD_OVERFLOW, location,
                                 "timestamp out of range");
        if (oid == RL_OID_DATE) {
            int64_t days = us == INT64_MAX   ? INT32_MAX
                           : us == INT64_MIN ? INT32_MIN
                                             : (us >= 0 ? us : us - 86399999999LL) / 86400000000LL;
            rl_val_int(out, oid, days);
        } else {
            rl_val_int(out, oid, us);
        }
        return 0;
    }
    if (rl_elem_oid_of(in->oid) && rl_array_elem_oid(oid) && !in->d.isnull)
        return array_coerce(c, in, oid, typmod, explicit_cast, out, location);
    if (rl_elem_oid_of(in->oid) && rl_array_elem_oid(oid)) {
        rl_val_null(out, oid);
        return 0;
    }
    if ((in->oid == RL_OID_TIMESTAMP && oid == RL_OID_TIME) ||
        (in->oid == RL_OID_TIMESTAMPTZ && (oid == RL_OID_TIME || oid == RL_OID_TIMETZ)))
        return timestamp_to_time(in, oid, out);
    return rl_exec_error(c->x, RL_SQLSTATE_CANNOT_COERCE, location, "cannot cast type %s to %s",
                         rl_type_name_in(c->x, in->oid), rl_type_name_in(c->x, oid));
}

/* ------------------------------------------------------------ type names */

/* An array type by its pg_type name, the element's typname after an
 * underscore (_text, _int4: what sqlsmith and catalog-driven clients
 * write); only the canonical element names, as PostgreSQL has no _int. */
static uint32_t internal_array_type_oid(const char *name)
{
    static const char *const elems[] = {
        "bool", "int2", "int4", "int8", "float4", "float8", "numeric", "text", "varchar",
        "bpchar", "name", "char", "oid", "date", "time", "timetz", "timestamp", "timestamptz",
        "interval", "uuid", "bytea", "json", "jsonb", "regclass", "regtype", "regproc",
        "regnamespace", "regrole",
    };
    if (name[0] != '_')
        return 0;
    for (size_t i = 0; i < sizeof elems / sizeof elems[0]; i++) {
        if (strcmp(name + 1, elems[i]) != 0)
            continue;
        uint32_t e = rl_type_oid_by_name(elems[i]);
        return e ? rl_array_oid_of(e) : 0;
    }
    return 0;
}

static int typmod_value(const PgQuery__Node *n, long *out)
{
    if (n && n->node_case == PG_QUERY__NODE__NODE_A_CONST &&
        rl_const(n->a_const)->val_case == PG_QUERY__A__CONST__VAL_IVAL) {
        *out = rl_const(n->a_const)->ival->ival;
        return 0;
    }
    return -1;
}

int rl_type_from_typename(rl_exec *x, const PgQuery__TypeName *tn, uint32_t *oid,
                          int32_t *typmod)
{
    if (!tn || tn->n_names == 0)
        return rl_exec_error(x, RL_SQLSTATE_UNDEFINED_OBJECT, -1, "type does not exist");
    const char *name = rl_node_string(tn->names[tn->n_names - 1]);
    if (!name)
        return rl_exec_error(x, RL_SQLSTATE_UNDEFINED_OBJECT, tn->location, "type does not exist");
    if (tn->n_names > 1) {
        const char *schema = rl_node_string(tn->names[tn->n_names - 2]);
        if (!schema || strcmp(schema, "pg_catalog") != 0)
            return rl_exec_error(x, RL_SQLSTATE_UNDEFINED_OBJECT, tn->location,
                                 "type \"%s.%s\" does not exist",
                                 schema ? schema : "", name);
    }
    uint32_t o = rl_type_oid_by_name(name);
    if (!o)
        o = internal_array_type_oid(name);
    if (!o)
        return rl_exec_error(x, RL_SQLSTATE_UNDEFINED_OBJECT, tn->location,
                             "type \"%s\" does not exist", name);
    *typmod = -1;
    long m1, m2;
    if ((o == RL_OID_VARCHAR || o == RL_OID_BPCHAR) && tn->n_typmods == 1 &&
        typmod_value(tn->typmods[0], &m1) == 0) {
        const char *what = o == RL_OID_VARCHAR ? "varchar" : "char";
        if (m1 < 1)
            return rl_exec_error(x, RL_SQLSTATE_INVALID_PARAMETER_VALUE, tn->location,
                                 "length for type %s must be at least 1", what);
        if (m1 > 10485760)
            return rl_exec_error(x, RL_SQLSTATE_INVALID_PARAMETER_VALUE, tn->location,
                                 "length for type %s cannot exceed 10485760", what);
        *typmod = (int32_t)(m1 + 4);
    }
    if (o == RL_OID_NUMERIC && tn->n_typmods >= 1 && typmod_value(tn->typmods[0], &m1) == 0) {
        m2 = 0;
        if (tn->n_typmods == 2)
            typmod_value(tn->typmods[1], &m2);
        if (m1 < 1 || m1 > 1000)
            return rl_exec_error(x, RL_SQLSTATE_INVALID_PARAMETER_VALUE, tn->location,
                                 "NUMERIC precision %ld must be between 1 and 1000", m1);
        if (m2 < -1000 || m2 > 1000)
            return rl_exec_error(x, RL_SQLSTATE_INVALID_PARAMETER_VALUE, tn->location,
                                 "NUMERIC scale %ld must be between -1000 and 1000", m2);
        /* PostgreSQL 15: the scale is stored as an 11-bit signed field */
        *typmod = (int32_t)(((m1 << 16) | (m2 & 0x7ff)) + 4);
    }
    if (tn->n_array_bounds > 0) {
        uint32_t a = rl_array_oid_of(o);
        if (!a)
            return rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, tn->location,
                                 "arrays of %s are not supported", rl_oid_type_name(o));
        o = a; /* the typmod is the elements' (varchar(2)[] is 6, as attypmod) */
    }
    *oid = o;
    return 0;
}

/* ------------------------------------------------------------ literals */

int rl_eval_const(rl_expr_ctx *c, const PgQuery__AConst *k, rl_value *out)
{
    if (k->isnull) {
        rl_val_null(out, RL_OID_UNKNOWN);
        return 0;
    }
    if (rl_const_sealed(k)) /* a shape's literal read outside its statement */
        return rl_exec_error(c->x, RL_SQLSTATE_INTERNAL_ERROR, k->location,
                             "constant read outside its statement");
    switch (k->val_case) {
    case PG_QUERY__A__CONST__VAL_IVAL:
        rl_val_int(out, RL_OID_INT4, k->ival->ival);
        return 0;
    case PG_QUERY__A__CONST__VAL_FVAL: {
        /* integers too large for int4 arrive as Float: int8 if they fit,
         * int4 if they do after all (-2147483648: the minus folded in) */
        const char *s = k->fval->fval;
        char *end;
        const char *digits = s[0] == '-' ? s + 1 : s;
        if (*digits && strspn(digits, "0123456789") == strlen(digits)) {
            errno = 0;
            long long v = strtoll(s, &end, 10);
            if (errno == 0 && *end == 0) {
                rl_val_int(out, v >= INT32_MIN && v <= INT32_MAX ? RL_OID_INT4 : RL_OID_INT8, v);
                return 0;
            }
        }
        return rl_text_to_value(c, s, strlen(s), RL_OID_NUMERIC, -1, true, out, k->location);
    }
    case PG_QUERY__A__CONST__VAL_BOOLVAL:
        rl_val_bool(out, k->boolval->boolval);
        return 0;
    case PG_QUERY__A__CONST__VAL_SVAL:
        rl_val_str(out, RL_OID_UNKNOWN, k->sval->sval, strlen(k->sval->sval));
        return 0;
    default:
        return rl_exec_error(c->x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, k->location,
                             "bit string literals are not supported");
    }
}

int rl_eval_param(rl_expr_ctx *c, const PgQuery__ParamRef *p, rl_value *out)
{
    if (p->number < 1 || (size_t)p->number > c->x->nparams || !c->x->params)
        return rl_exec_error(c->x, RL_SQLSTATE_UNDEFINED_PARAMETER, p->location,
                             "there is no parameter $%d", p->number);
    *out = c->x->params[p->number - 1];
    return 0;
}

/* ------------------------------------------------------------ casts */

/* ARRAY[...]::t[]: PostgreSQL types the elements as t, so an untyped
 * literal element is read by t's input while parsing, its error at the
 * literal (a typed element's cast runs later, without position). */
static int array_literals_input(rl_expr_ctx *c, const PgQuery__AArrayExpr *ae, uint32_t elem)
{
    for (size_t i = 0; i < ae->n_elements; i++) {
        const PgQuery__Node *n = ae->elements[i];
        if (n->node_case != PG_QUERY__NODE__NODE_A_CONST)
            continue;
        const PgQuery__AConst *k = rl_const(n->a_const);
        if (k->isnull || k->val_case != PG_QUERY__A__CONST__VAL_SVAL)
            continue;
        rl_value v, out;
        rl_val_str(&v, RL_OID_UNKNOWN, k->sval->sval, strlen(k->sval->sval));
        if (rl_value_coerce(c, &v, elem, -1, true, &out, k->location) < 0)
            return -1;
    }
    return 0;
}

/* A cast to a polymorphic pseudo-type (coerce_type's early returns): to
 * any / anyelement / anycompatible (and their nonarray forms) the value
 * keeps its own type; to anyarray / anycompatiblearray an array keeps its
 * own, an untyped NULL stays a NULL; a value of the pseudo-type itself
 * stays as it is; anything else cannot be cast (42846). 0 done (*out set), -1 error, 1 not a pseudo-type. */
static int cast_to_pseudotype(rl_expr_ctx *c, const rl_value *v, uint32_t oid, int loc,
                              int arg_loc, rl_value *out)
{
    bool any_value = oid == RL_OID_ANY || oid == RL_OID_ANYELEMENT || oid == RL_OID_ANYNONARRAY ||
                     oid == RL_OID_ANYCOMPATIBLE || oid == RL_OID_ANYCOMPATIBLENONARRAY;
    bool any_array = oid == RL_OID_ANYARRAY || oid == RL_OID_ANYCOMPATIBLEARRAY;
    if (!any_value && !any_array)
        return 1;
    bool is_array = rl_elem_oid_of(v->oid) != 0;
    bool nonarray = oid == RL_OID_ANYNONARRAY || oid == RL_OID_ANYCOMPATIBLENONARRAY;
    bool fits = v->oid == oid             ? true /* coerce_type: the same type as is */
                : v->oid == RL_OID_UNKNOWN ? (any_value || v->d.isnull)
                : any_value             ? !(nonarray && is_array)
                                        : is_array;
    if (!fits && v->oid == RL_OID_UNKNOWN) /* the pseudo-type's input refuses any text */
        return rl_exec_error(c->x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, arg_loc,
                             "cannot accept a value of type %s", rl_oid_type_name(oid));
    if (!fits)
        return rl_exec_error(c->x, RL_SQLSTATE_CANNOT_COERCE, loc, "cannot cast type %s to %s",
                             rl_oid_type_name(v->oid), rl_oid_type_name(oid));
    *out = *v;
    if (v->oid == RL_OID_UNKNOWN && any_array)
        rl_val_null(out, oid);
    return 0;
}

int rl_eval_typecast(rl_expr_ctx *c, const PgQuery__TypeCast *tc, rl_eval_fn eval, rl_value *out)
{
    uint32_t oid;
    int32_t typmod;
    rl_value v;
    if (rl_type_from_typename(c->x, tc->type_name, &oid, &typmod) < 0)
        return -1;
    if (tc->arg && tc->arg->node_case == PG_QUERY__NODE__NODE_A_ARRAY_EXPR &&
        tc->arg->a_array_expr->n_elements == 0 && rl_array_elem_oid(oid)) {
        rl_val_str(out, oid, "{}", 2); /* ARRAY[]::t[]: the cast gives the type */
        return 0;
    }
    if (tc->arg && tc->arg->node_case == PG_QUERY__NODE__NODE_A_ARRAY_EXPR &&
        rl_elem_oid_of(oid) && array_literals_input(c, tc->arg->a_array_expr, rl_elem_oid_of(oid)) < 0)
        return -1;
    if (eval(c, tc->arg, &v) < 0)
        return -1;
    int loc = rl_node_location(tc->arg);
    int pseudo = cast_to_pseudotype(c, &v, oid, tc->location, loc, out);
    if (pseudo != 1)
        return pseudo;
    if (rl_value_coerce(c, &v, oid, typmod, true, out, loc >= 0 ? loc : tc->location) == 0)
        return 0;
    /* an input error points at the value, "cannot cast type" at the `::`
     * (transformTypeCast's location) */
    if (strcmp(c->x->err->sqlstate, RL_SQLSTATE_CANNOT_COERCE) == 0 && tc->location >= 0) {
        char message[sizeof c->x->err->message];
        memcpy(message, c->x->err->message, sizeof message);
        rl_exec_error(c->x, RL_SQLSTATE_CANNOT_COERCE, tc->location, "%s", message);
    }
    return -1;
}

int rl_const_eval(rl_expr_ctx *c, const PgQuery__Node *node, rl_value *out)
{
    if (!node)
        return rl_exec_error(c->x, RL_SQLSTATE_INTERNAL_ERROR, -1, "missing expression");
    if (rl_exec_check_cancel(c->x) < 0 || rl_exec_check_stack(c->x) < 0)
        return -1;
    switch (node->node_case) {
    case PG_QUERY__NODE__NODE_A_CONST: return rl_eval_const(c, rl_const(node->a_const), out);
    case PG_QUERY__NODE__NODE_PARAM_REF: return rl_eval_param(c, node->param_ref, out);
    case PG_QUERY__NODE__NODE_TYPE_CAST: return rl_eval_typecast(c, node->type_cast, rl_const_eval, out);
    default: {
        const ProtobufCFieldDescriptor *fd =
            protobuf_c_message_descriptor_get_field(&pg_query__node__descriptor, node->node_case);
        return rl_exec_error(c->x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                             "expression %s is not supported", fd ? fd->name : "?");
    }
    }
}
