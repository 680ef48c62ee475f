/*
 * pgtype.c — PostgreSQL's type I/O for every rl_type (see pgtype.h).
 *
 * Owns: text output and input in PostgreSQL 15's formats, binary send and
 * receive, the calendar arithmetic they need (proleptic Gregorian dates,
 * times, zones, intervals), PostgreSQL's ordering of values, and the
 * SQLSTATE of every input error.
 * The storage form of the same values is codec.c's; nothing here knows it.
 *
 * Invariants:
 *  - Text output matches PostgreSQL 15 with DateStyle=ISO, TimeZone=UTC,
 *    IntervalStyle=postgres, extra_float_digits=1.
 *  - Text input accepts the forms listed in pgtype.h and reports errors with
 *    PostgreSQL's wording and a SQLSTATE chosen where the error is raised, so
 *    a SQL layer forwards both unchanged and never reads the message.
 *  - Parsing never reads past the input it was given (text works on a
 *    NUL-terminated copy, binary checks every length first) and reports
 *    every malformed input, never crashes.
 */
#include "pgtype/pgtype.h"
#include "pgtype/tzif.h"

#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <float.h>
#include <inttypes.h>
#include <limits.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "base/error.h"

/* ---- time constants (PostgreSQL's, see datatype/timestamp.h) ---- */
#define USECS_PER_SEC INT64_C(1000000)
#define USECS_PER_MINUTE (60 * USECS_PER_SEC)
#define USECS_PER_HOUR (60 * USECS_PER_MINUTE)
#define USECS_PER_DAY (24 * USECS_PER_HOUR)
#define DAYS_1970_TO_2000 10957
/* Valid ranges, as days/micros since 2000-01-01: dates from 4714-11-24 BC
 * (Julian day 0) up to but excluding 5874898-01-01; timestamps up to but
 * excluding 294277-01-01. */
#define DATE_MIN_DAYS INT64_C(-2451545)
#define DATE_END_DAYS INT64_C(2145031949)
#define TIMESTAMP_MIN INT64_C(-211813488000000000)
#define TIMESTAMP_END INT64_C(9223371331200000000)
/* numeric limits from PostgreSQL: digits before the point, display scale,
 * and the largest exponent accepted in input like 1e1000. */
#define NUMERIC_MAX_INT_DIGITS 131072
#define NUMERIC_MAX_DSCALE 16383
#define NUMERIC_MAX_EXPONENT (INT_MAX / 2)

/* ------------------------------------------------------------------ */
/* helpers                                                             */
/* ------------------------------------------------------------------ */

/* The names PostgreSQL uses in input error messages ("invalid input syntax
 * for type bigint"), which are not always the catalog names (rl_type_name). */
static const char *const pg_message_names[RL_T_MAX_] = {
    [RL_T_INVALID] = "invalid",
    [RL_T_INT8] = "bigint",
    [RL_T_INT4] = "integer",
    [RL_T_INT2] = "smallint",
    [RL_T_FLOAT4] = "real",
    [RL_T_FLOAT8] = "double precision",
    [RL_T_NUMERIC] = "numeric",
    [RL_T_VARCHAR] = "character varying",
    [RL_T_TEXT] = "text",
    [RL_T_BYTEA] = "bytea",
    [RL_T_BOOL] = "boolean",
    [RL_T_UUID] = "uuid",
    [RL_T_DATE] = "date",
    [RL_T_TIME] = "time",
    [RL_T_TIMETZ] = "time with time zone",
    [RL_T_TIMESTAMP] = "timestamp",
    [RL_T_TIMESTAMPTZ] = "timestamp with time zone",
    [RL_T_INTERVAL] = "interval",
    [RL_T_BPCHAR] = "character",
};

static bool type_is_known(rl_type t) { return t > RL_T_INVALID && t < RL_T_MAX_; }

size_t rl_bpchar_trimmed_len(const rl_datum *d)
{
    size_t n = d->v.s.len;
    while (n > 0 && d->v.s.p[n - 1] == ' ')
        n--;
    return n;
}

static bool is_datetime(rl_type t)
{
    return t == RL_T_DATE || t == RL_T_TIME || t == RL_T_TIMETZ || t == RL_T_TIMESTAMP ||
           t == RL_T_TIMESTAMPTZ || t == RL_T_INTERVAL;
}

static bool is_space(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}
static bool is_digit(char c) { return c >= '0' && c <= '9'; }
static bool is_alpha(char c) { return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'); }
static char to_lower(char c) { return (c >= 'A' && c <= 'Z') ? (char)(c - 'A' + 'a') : c; }

static bool bytes_equal_str(const uint8_t *p, size_t len, const char *s)
{
    return len == strlen(s) && (len == 0 || memcmp(p, s, len) == 0);
}

/* ------------------------------------------------------------------ */
/* calendar arithmetic (proleptic Gregorian, astronomical years: 1 BC = 0) */
/* ------------------------------------------------------------------ */

/* Howard Hinnant's days_from_civil / civil_from_days, relative to 1970. */
static int64_t days_from_civil(int64_t y, int m, int d)
{
    y -= m <= 2;
    int64_t era = (y >= 0 ? y : y - 399) / 400;
    int64_t yoe = y - era * 400;
    int64_t doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

static void civil_from_days(int64_t z, int64_t *y, int *m, int *d)
{
    z += 719468;
    int64_t era = (z >= 0 ? z : z - 146096) / 146097;
    int64_t doe = z - era * 146097;
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    int64_t mp = (5 * doy + 2) / 153;
    *d = (int)(doy - (153 * mp + 2) / 5 + 1);
    *m = (int)(mp < 10 ? mp + 3 : mp - 9);
    *y = yoe + era * 400 + (*m <= 2);
}

static bool is_leap(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

static int days_in_month(int64_t y, int m)
{
    static const int dim[12] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return m == 2 && is_leap(y) ? 29 : dim[m - 1];
}

#define DAYS_1970_TO_2000 10957

void rl_date_to_ymd(int64_t days, int64_t *y, int *m, int *d)
{
    civil_from_days(days + DAYS_1970_TO_2000, y, m, d);
}

int64_t rl_ymd_to_date(int64_t y, int m, int d)
{
    return days_from_civil(y, m, d) - DAYS_1970_TO_2000;
}

int rl_days_in_month(int64_t y, int m) { return days_in_month(y, m); }

bool rl_date_in_range(int64_t days) { return days >= DATE_MIN_DAYS && days < DATE_END_DAYS; }

bool rl_timestamp_in_range(int64_t us) { return us >= TIMESTAMP_MIN && us < TIMESTAMP_END; }

/* Floor division, so that times before 2000 land on the right day. */
static int64_t floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

/* ------------------------------------------------------------------ */
/* text output                                                         */
/* ------------------------------------------------------------------ */

/* Is the decimal text `buf` exactly halfway between v and a neighbour?
 * PostgreSQL's Ryu never picks such a tie even when strtod would round it
 * back to v, so neither do we. long double holds every double midpoint. */
static bool is_double_tie(const char *buf, double v)
{
    long double x = strtold(buf, NULL);
    long double lo = ((long double)v + (long double)nextafter(v, -INFINITY)) / 2;
    long double hi = ((long double)v + (long double)nextafter(v, INFINITY)) / 2;
    return x == lo || x == hi;
}

static bool is_float_tie(const char *buf, float v)
{
    double x = strtod(buf, NULL);
    double lo = ((double)v + (double)nextafterf(v, -INFINITY)) / 2;
    double hi = ((double)v + (double)nextafterf(v, INFINITY)) / 2;
    return x == lo || x == hi;
}

/* Does the decimal text `buf` read back as exactly v (and not as a tie)? */
static bool reads_back(const char *buf, double v, bool single)
{
    if (single)
        return strtof(buf, NULL) == (float)v && !is_float_tie(buf, (float)v);
    return strtod(buf, NULL) == v && !is_double_tie(buf, v);
}

/* Shortest decimal digits that read back as the same value, like Ryu in
 * PostgreSQL's float8out/float4out: try 1..17 (9) significant digits. */
static void shortest_digits(double v, bool single, char *digits, int *ndigits, int *exp10)
{
    char buf[64];
    int maxp = single ? 9 : 17;
    for (int p = 1; p <= maxp; p++) {
        snprintf(buf, sizeof buf, "%.*e", p - 1, v);
        if (p == maxp || reads_back(buf, v, single))
            break;
    }
    /* buf is "[-]d[.ddd]e[+-]xx" */
    int n = 0;
    const char *p = buf;
    if (*p == '-')
        p++;
    for (; *p && *p != 'e'; p++)
        if (is_digit(*p))
            digits[n++] = *p;
    while (n > 1 && digits[n - 1] == '0')
        n--;
    digits[n] = '\0';
    *ndigits = n;
    *exp10 = atoi(p + 1);
}

static void put_float(rl_buf *out, double v, bool single)
{
    if (single)
        v = (float)v; /* a float4 datum means what it stores as (see put_field) */
    if (isnan(v)) {
        rl_buf_put_str(out, "NaN");
        return;
    }
    if (isinf(v)) {
        rl_buf_put_str(out, v > 0 ? "Infinity" : "-Infinity");
        return;
    }
    if (v == 0) {
        rl_buf_put_str(out, signbit(v) ? "-0" : "0");
        return;
    }
    char digits[32];
    int nd, exp10;
    shortest_digits(v, single, digits, &nd, &exp10);
    if (v < 0)
        rl_buf_put_u8(out, '-');
    /* Fixed notation where printf's %g would use it (exponent below the
     * type's DIG), as PostgreSQL's Ryu output does. */
    int fixed_limit = single ? FLT_DIG : DBL_DIG;
    if (exp10 >= -4 && exp10 < fixed_limit) {
        if (exp10 < 0) {
            rl_buf_put_str(out, "0.");
            for (int i = 0; i < -exp10 - 1; i++)
                rl_buf_put_u8(out, '0');
            rl_buf_put(out, digits, (size_t)nd);
        } else if (nd <= exp10 + 1) {
            rl_buf_put(out, digits, (size_t)nd);
            for (int i = nd; i < exp10 + 1; i++)
                rl_buf_put_u8(out, '0');
        } else {
            rl_buf_put(out, digits, (size_t)exp10 + 1);
            rl_buf_put_u8(out, '.');
            rl_buf_put(out, digits + exp10 + 1, (size_t)(nd - exp10 - 1));
        }
        return;
    }
    rl_buf_put_u8(out, (uint8_t)digits[0]);
    if (nd > 1) {
        rl_buf_put_u8(out, '.');
        rl_buf_put(out, digits + 1, (size_t)nd - 1);
    }
    rl_buf_printf(out, "e%c%02d", exp10 < 0 ? '-' : '+', abs(exp10));
}

static void put_hex(rl_buf *out, const uint8_t *p, size_t n)
{
    static const char hex[] = "0123456789abcdef";
    if (!rl_buf_reserve(out, n * 2))
        return;
    for (size_t i = 0; i < n; i++) {
        out->data[out->len++] = (uint8_t)hex[p[i] >> 4];
        out->data[out->len++] = (uint8_t)hex[p[i] & 15];
    }
}

static void put_uuid(rl_buf *out, const uint8_t *u)
{
    put_hex(out, u, 4);
    rl_buf_put_u8(out, '-');
    put_hex(out, u + 4, 2);
    rl_buf_put_u8(out, '-');
    put_hex(out, u + 6, 2);
    rl_buf_put_u8(out, '-');
    put_hex(out, u + 8, 2);
    rl_buf_put_u8(out, '-');
    put_hex(out, u + 10, 6);
}

/* "YYYY-MM-DD" for days since 1970; returns true if the year is BC (the
 * caller appends " BC" where PostgreSQL puts it, after any time and zone). */
static bool put_ymd(rl_buf *out, int64_t days_since_1970)
{
    int64_t y;
    int m, d;
    civil_from_days(days_since_1970, &y, &m, &d);
    bool bc = y <= 0;
    rl_buf_printf(out, "%04" PRId64 "-%02d-%02d", bc ? 1 - y : y, m, d);
    return bc;
}

/* ".ffffff" with trailing zeros trimmed; nothing for a zero fraction. */
static void put_fraction(rl_buf *out, int64_t usec)
{
    if (usec == 0)
        return;
    char frac[8];
    snprintf(frac, sizeof frac, "%06d", (int)usec);
    int n = 6;
    while (frac[n - 1] == '0')
        n--;
    rl_buf_put_u8(out, '.');
    rl_buf_put(out, frac, (size_t)n);
}

/* "HH:MM:SS[.ffffff]" for a non-negative count of microseconds; hours may
 * exceed 24 (intervals). */
static void put_hms(rl_buf *out, uint64_t us)
{
    uint64_t hours = us / (uint64_t)USECS_PER_HOUR;
    us %= (uint64_t)USECS_PER_HOUR;
    int minutes = (int)(us / (uint64_t)USECS_PER_MINUTE);
    us %= (uint64_t)USECS_PER_MINUTE;
    int seconds = (int)(us / (uint64_t)USECS_PER_SEC);
    rl_buf_printf(out, "%02" PRIu64 ":%02d:%02d", hours, minutes, seconds);
    put_fraction(out, (int64_t)(us % (uint64_t)USECS_PER_SEC));
}

static uint64_t magnitude(int64_t v) { return v < 0 ? 0 - (uint64_t)v : (uint64_t)v; }

static void put_time(rl_buf *out, int64_t us)
{
    if (us < 0)
        rl_buf_put_u8(out, '-'); /* not a valid time; shown rather than hidden */
    put_hms(out, magnitude(us));
}

/* PostgreSQL's EncodeTimezone: offset east of UTC, "+HH[:MM[:SS]]". */
static void put_zone(rl_buf *out, int32_t seconds_west)
{
    int64_t east = -(int64_t)seconds_west;
    uint64_t mag = magnitude(east);
    uint64_t h = mag / 3600, m = mag / 60 % 60, s = mag % 60;
    rl_buf_printf(out, "%c%02" PRIu64, east < 0 ? '-' : '+', h);
    if (m || s)
        rl_buf_printf(out, ":%02" PRIu64, m);
    if (s)
        rl_buf_printf(out, ":%02" PRIu64, s);
}

static void put_date(rl_buf *out, int64_t days)
{
    if (days == INT32_MAX) {
        rl_buf_put_str(out, "infinity");
        return;
    }
    if (days == INT32_MIN) {
        rl_buf_put_str(out, "-infinity");
        return;
    }
    if (put_ymd(out, days + DAYS_1970_TO_2000))
        rl_buf_put_str(out, " BC");
}

static void put_timestamp(rl_buf *out, int64_t us, bool with_zone)
{
    if (us == INT64_MAX) {
        rl_buf_put_str(out, "infinity");
        return;
    }
    if (us == INT64_MIN) {
        rl_buf_put_str(out, "-infinity");
        return;
    }
    int32_t east = 0;
    if (with_zone) /* in the session's zone (tzif.h), as PostgreSQL writes it */
        us = rl_tz_utc_to_local_us(rl_tz_current(), us, &east);
    int64_t days = floor_div(us, USECS_PER_DAY);
    int64_t time_of_day = us - days * USECS_PER_DAY;
    bool bc = put_ymd(out, days + DAYS_1970_TO_2000);
    rl_buf_put_u8(out, ' ');
    put_hms(out, (uint64_t)time_of_day);
    if (with_zone)
        put_zone(out, -east);
    if (bc)
        rl_buf_put_str(out, " BC");
}

/* One "N unit[s]" part of PostgreSQL's postgres-style interval output. A
 * positive part right after a negative one gets an explicit "+"
 * (AddPostgresIntPart), so "-1 years +3 days" reads unambiguously. */
static void put_interval_part(rl_buf *out, int64_t value, const char *unit, bool *is_zero,
                              bool *is_before)
{
    if (value == 0)
        return;
    rl_buf_printf(out, "%s%s%" PRId64 " %s%s", *is_zero ? "" : " ",
                  (*is_before && value > 0) ? "+" : "", value, unit, value != 1 ? "s" : "");
    *is_before = value < 0;
    *is_zero = false;
}

static void put_interval(rl_buf *out, int32_t months, int32_t days, int64_t us)
{
    bool is_zero = true, is_before = false;
    put_interval_part(out, months / 12, "year", &is_zero, &is_before);
    put_interval_part(out, months % 12, "mon", &is_zero, &is_before);
    put_interval_part(out, days, "day", &is_zero, &is_before);
    if (is_zero || us != 0) {
        const char *sign = us < 0 ? "-" : (is_before ? "+" : "");
        rl_buf_printf(out, "%s%s", is_zero ? "" : " ", sign);
        put_hms(out, magnitude(us));
    }
}

void rl_datum_to_text(rl_buf *out, rl_type t, const rl_datum *d)
{
    if (!out || !d || d->isnull)
        return;
    switch (t) {
    case RL_T_INT8:
    case RL_T_INT4:
    case RL_T_INT2: rl_buf_put_i64(out, d->v.i); break;
    case RL_T_FLOAT4: put_float(out, d->v.f, true); break;
    case RL_T_FLOAT8: put_float(out, d->v.f, false); break;
    case RL_T_NUMERIC:
    case RL_T_VARCHAR:
    case RL_T_BPCHAR:
    case RL_T_TEXT: rl_buf_put(out, d->v.s.p, d->v.s.len); break;
    case RL_T_BYTEA:
        rl_buf_put_str(out, "\\x");
        put_hex(out, d->v.s.p, d->v.s.len);
        break;
    case RL_T_BOOL: rl_buf_put_u8(out, d->v.b ? 't' : 'f'); break;
    case RL_T_UUID: put_uuid(out, d->v.uuid); break;
    case RL_T_DATE: put_date(out, d->v.i); break;
    case RL_T_TIME: put_time(out, d->v.i); break;
    case RL_T_TIMETZ:
        put_time(out, d->v.timetz.us);
        put_zone(out, d->v.timetz.zone);
        break;
    case RL_T_TIMESTAMP: put_timestamp(out, d->v.i, false); break;
    case RL_T_TIMESTAMPTZ: put_timestamp(out, d->v.i, true); break;
    case RL_T_INTERVAL:
        put_interval(out, d->v.interval.months, d->v.interval.days, d->v.interval.us);
        break;
    default: break;
    }
}

/* ------------------------------------------------------------------ */
/* text input                                                          */
/* ------------------------------------------------------------------ */

/* Context of one rl_datum_from_text call: the NUL-terminated input (as the
 * user wrote it, for messages) and where errors go. */
typedef struct text_in {
    rl_type type;
    const char *text;
    char *err;
    size_t errlen;
    const char **sqlstate; /* never NULL */
} text_in;

/* Bad syntax is 22007 (invalid_datetime_format, PostgreSQL's DTERR_BAD_FORMAT)
 * for the date/time types, 22P02 (invalid_text_representation) otherwise. */
static const char *syntax_sqlstate(rl_type t)
{
    return is_datetime(t) ? RL_SQLSTATE_INVALID_DATETIME_FORMAT
                          : RL_SQLSTATE_INVALID_TEXT_REPRESENTATION;
}

/* An input error: its SQLSTATE and PostgreSQL's message. */
static void in_err(const text_in *in, const char *sqlstate, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void in_err(const text_in *in, const char *sqlstate, const char *fmt, ...)
{
    *in->sqlstate = sqlstate;
    va_list ap;
    va_start(ap, fmt);
    rl_errmsg_setv(in->err, in->errlen, fmt, ap);
    va_end(ap);
}

static rl_codec_status syntax_error(const text_in *in)
{
    in_err(in, syntax_sqlstate(in->type), "invalid input syntax for type %s: \"%s\"",
           pg_message_names[in->type], in->text);
    return RL_CODEC_ERR_INVALID;
}

static rl_codec_status field_range_error(const text_in *in)
{
    in_err(in, RL_SQLSTATE_DATETIME_FIELD_OVERFLOW,
           "date/time field value out of range: \"%s\"", in->text);
    return RL_CODEC_ERR_INVALID;
}

static const char *skip_spaces(const char *p)
{
    while (is_space(*p))
        p++;
    return p;
}

/* Case-insensitive: does the trimmed text `p` equal `word` exactly? */
static bool trimmed_equals(const char *p, const char *word)
{
    p = skip_spaces(p);
    size_t n = strlen(word);
    if (strncasecmp(p, word, n) != 0)
        return false;
    return *skip_spaces(p + n) == '\0';
}

static rl_codec_status int_range_error(const text_in *in)
{
    in_err(in, RL_SQLSTATE_NUMERIC_VALUE_OUT_OF_RANGE,
           "value \"%s\" is out of range for type %s", in->text,
           pg_message_names[in->type]);
    return RL_CODEC_ERR_INVALID;
}

static rl_codec_status parse_int(const text_in *in, int64_t min, int64_t max, int64_t *out)
{
    const char *p = skip_spaces(in->text);
    bool negative = false;
    if (*p == '-' || *p == '+')
        negative = *p++ == '-';
    if (!is_digit(*p))
        return syntax_error(in);
    /* Like pg_strtoint*, which accumulates negatively: a magnitude past
     * -min is out of range even if junk follows; junk is checked before
     * the final positive limit. */
    uint64_t mag = 0;
    for (; is_digit(*p); p++) {
        mag = mag * 10 + (uint64_t)(*p - '0'); /* stays <= 2^63 * 10 / 10: no wrap */
        if (mag > magnitude(min))
            return int_range_error(in);
    }
    if (*skip_spaces(p) != '\0')
        return syntax_error(in);
    if (!negative && mag > (uint64_t)max)
        return int_range_error(in);
    *out = negative ? (int64_t)(0 - mag) : (int64_t)mag;
    return RL_CODEC_OK;
}

/* float4in/float8in: leading/trailing spaces, the special spellings, then
 * strtod. Overflow and underflow to zero are errors; denormals are fine. */
static rl_codec_status parse_float(const text_in *in, bool single, double *out)
{
    static const struct { const char *word; double value; } specials[] = {
        {"NaN", NAN},         {"Infinity", INFINITY}, {"+Infinity", INFINITY},
        {"-Infinity", -INFINITY}, {"inf", INFINITY},  {"+inf", INFINITY},
        {"-inf", -INFINITY},
    };
    for (size_t i = 0; i < sizeof specials / sizeof specials[0]; i++) {
        if (trimmed_equals(in->text, specials[i].word)) {
            *out = specials[i].value;
            return RL_CODEC_OK;
        }
    }
    const char *p = skip_spaces(in->text);
    if (*p == '\0')
        return syntax_error(in);
    char *end;
    errno = 0;
    double v = single ? (double)strtof(p, &end) : strtod(p, &end);
    if (end == p)
        return syntax_error(in);
    if (errno == ERANGE && (v == 0 || isinf(v))) {
        in_err(in, RL_SQLSTATE_NUMERIC_VALUE_OUT_OF_RANGE,
               "\"%.*s\" is out of range for type %s", (int)(end - p), p,
               pg_message_names[in->type]);
        return RL_CODEC_ERR_INVALID;
    }
    if (*skip_spaces(end) != '\0')
        return syntax_error(in);
    *out = v;
    return RL_CODEC_OK;
}

static bool put_datum_bytes(rl_buf *arena, const void *p, size_t n, rl_datum *d)
{
    static const uint8_t empty[1];
    size_t start = arena->len;
    rl_buf_put(arena, p, n);
    if (arena->failed)
        return false;
    d->v.s.p = n ? arena->data + start : empty;
    d->v.s.len = n;
    return true;
}

static rl_codec_status arena_failed(const text_in *in)
{
    in_err(in, RL_SQLSTATE_INVALID_TEXT_REPRESENTATION,
           "out of memory building %s value", rl_type_name(in->type));
    return RL_CODEC_ERR_TOO_LARGE;
}

/* The pieces of a finite numeric literal: digits before and after the
 * point, and the exponent. */
typedef struct numeric_lit {
    bool negative;
    const char *int_digits;
    size_t int_len;
    const char *frac_digits;
    size_t frac_len;
    long exponent;
} numeric_lit;

typedef enum { NUM_OK, NUM_SYNTAX, NUM_OVERFLOW } num_scan;

static char numeric_digit(const numeric_lit *lit, long k);

static num_scan scan_numeric(const char *p, numeric_lit *lit)
{
    memset(lit, 0, sizeof *lit);
    p = skip_spaces(p);
    if (*p == '-' || *p == '+')
        lit->negative = *p++ == '-';
    lit->int_digits = p;
    while (is_digit(*p))
        p++;
    lit->int_len = (size_t)(p - lit->int_digits);
    if (*p == '.') {
        lit->frac_digits = ++p;
        while (is_digit(*p))
            p++;
        lit->frac_len = (size_t)(p - lit->frac_digits);
    }
    if (lit->int_len + lit->frac_len == 0)
        return NUM_SYNTAX;
    bool exponent_overflow = false;
    if (*p == 'e' || *p == 'E') {
        p++;
        bool neg_exp = false;
        if (*p == '-' || *p == '+')
            neg_exp = *p++ == '-';
        if (!is_digit(*p))
            return NUM_SYNTAX;
        long e = 0;
        for (; is_digit(*p); p++) {
            if (e < NUMERIC_MAX_EXPONENT)
                e = e * 10 + (*p - '0');
        }
        exponent_overflow = e >= NUMERIC_MAX_EXPONENT;
        lit->exponent = neg_exp ? -e : e;
    }
    if (*skip_spaces(p) != '\0')
        return NUM_SYNTAX;
    return exponent_overflow ? NUM_OVERFLOW : NUM_OK;
}

/* Index of the first nonzero digit of the literal, or the digit count. */
static long numeric_first_nonzero(const numeric_lit *lit)
{
    long nd = (long)(lit->int_len + lit->frac_len);
    for (long k = 0; k < nd; k++)
        if (numeric_digit(lit, k) != '0')
            return k;
    return nd;
}

/* Digit k of the literal's digit string (integer then fraction digits). */
static char numeric_digit(const numeric_lit *lit, long k)
{
    if (k < 0)
        return '0';
    if ((size_t)k < lit->int_len)
        return lit->int_digits[k];
    k -= (long)lit->int_len;
    return (size_t)k < lit->frac_len ? lit->frac_digits[k] : '0';
}

/* numeric_in + numeric_out: the exponent moves the point, the display scale
 * is the written fraction length minus the exponent (at least 0), leading
 * zeros and "+" go, and zero loses its sign. */
static rl_codec_status parse_numeric(const text_in *in, rl_datum *d, rl_buf *arena)
{
    static const struct { const char *word; const char *canonical; } specials[] = {
        {"NaN", "NaN"},        {"Infinity", "Infinity"}, {"+Infinity", "Infinity"},
        {"-Infinity", "-Infinity"}, {"inf", "Infinity"}, {"+inf", "Infinity"},
        {"-inf", "-Infinity"},
    };
    for (size_t i = 0; i < sizeof specials / sizeof specials[0]; i++)
        if (trimmed_equals(in->text, specials[i].word))
            return put_datum_bytes(arena, specials[i].canonical, strlen(specials[i].canonical), d)
                       ? RL_CODEC_OK : arena_failed(in);
    numeric_lit lit;
    num_scan scanned = scan_numeric(in->text, &lit);
    if (scanned == NUM_SYNTAX)
        return syntax_error(in);
    long point = (long)lit.int_len + lit.exponent; /* digits before the point */
    long dscale = (long)lit.frac_len - lit.exponent;
    if (dscale < 0)
        dscale = 0;
    /* Integer digits start at the first nonzero one; none if it lies
     * after the point (then the integer part prints as "0"). */
    long first = numeric_first_nonzero(&lit);
    if (first > point || first == (long)(lit.int_len + lit.frac_len))
        first = point; /* no nonzero digit before the point */
    if (scanned == NUM_OVERFLOW || point - first > NUMERIC_MAX_INT_DIGITS ||
        dscale > NUMERIC_MAX_DSCALE) {
        in_err(in, RL_SQLSTATE_NUMERIC_VALUE_OUT_OF_RANGE, "value overflows numeric format");
        return RL_CODEC_ERR_INVALID;
    }
    size_t start = arena->len;
    bool nonzero = false;
    for (long k = first; k < point + dscale; k++)
        nonzero |= numeric_digit(&lit, k) != '0';
    if (lit.negative && nonzero)
        rl_buf_put_u8(arena, '-');
    if (first >= point)
        rl_buf_put_u8(arena, '0');
    for (long k = first; k < point; k++)
        rl_buf_put_u8(arena, (uint8_t)numeric_digit(&lit, k));
    if (dscale > 0)
        rl_buf_put_u8(arena, '.');
    for (long k = point; k < point + dscale; k++)
        rl_buf_put_u8(arena, (uint8_t)numeric_digit(&lit, k));
    if (arena->failed)
        return arena_failed(in);
    d->v.s.p = arena->data + start;
    d->v.s.len = arena->len - start;
    return RL_CODEC_OK;
}

/* parse_bool_with_len: any unambiguous prefix of true/false/yes/no, "on",
 * "off" (at least "of"), "1", "0"; case-insensitive, trimmed. */
static rl_codec_status parse_bool(const text_in *in, bool *out)
{
    static const struct { const char *word; size_t min_len; bool value; } words[] = {
        {"true", 1, true}, {"false", 1, false}, {"yes", 1, true}, {"no", 1, false},
        {"on", 2, true},   {"off", 2, false},   {"1", 1, true},   {"0", 1, false},
    };
    const char *p = skip_spaces(in->text);
    size_t len = strlen(p);
    while (len > 0 && is_space(p[len - 1]))
        len--;
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        if (len >= words[i].min_len && len <= strlen(words[i].word) &&
            strncasecmp(p, words[i].word, len) == 0) {
            *out = words[i].value;
            return RL_CODEC_OK;
        }
    }
    return syntax_error(in);
}

/* uuid_in: optional braces, 32 hex digits, a "-" allowed after any group of
 * four digits. No surrounding whitespace. */
static rl_codec_status parse_uuid(const text_in *in, uint8_t *uuid)
{
    const char *p = in->text;
    bool braces = *p == '{';
    if (braces)
        p++;
    for (int i = 0; i < 16; i++) {
        int hi = rl_hex_value(p[0]), lo = hi < 0 ? -1 : rl_hex_value(p[1]);
        if (hi < 0 || lo < 0)
            return syntax_error(in);
        uuid[i] = (uint8_t)(hi << 4 | lo);
        p += 2;
        if (*p == '-' && i % 2 == 1 && i < 15)
            p++;
    }
    if (braces && *p++ != '}')
        return syntax_error(in);
    return *p == '\0' ? RL_CODEC_OK : syntax_error(in);
}

/* byteain "\x" form: hex pairs, whitespace allowed between pairs. */
static rl_codec_status parse_bytea_hex(const text_in *in, const char *p, rl_buf *arena)
{
    while (*p) {
        if (is_space(*p)) {
            p++;
            continue;
        }
        int hi = rl_hex_value(p[0]);
        if (hi < 0) {
            in_err(in, RL_SQLSTATE_INVALID_TEXT_REPRESENTATION,
                   "invalid hexadecimal digit: \"%c\"", p[0]);
            return RL_CODEC_ERR_INVALID;
        }
        if (p[1] == '\0') {
            in_err(in, RL_SQLSTATE_INVALID_TEXT_REPRESENTATION,
                   "invalid hexadecimal data: odd number of digits");
            return RL_CODEC_ERR_INVALID;
        }
        int lo = rl_hex_value(p[1]);
        if (lo < 0) {
            in_err(in, RL_SQLSTATE_INVALID_TEXT_REPRESENTATION,
                   "invalid hexadecimal digit: \"%c\"", p[1]);
            return RL_CODEC_ERR_INVALID;
        }
        rl_buf_put_u8(arena, (uint8_t)(hi << 4 | lo));
        p += 2;
    }
    return RL_CODEC_OK;
}

/* byteain escape form: "\\" is a backslash, "\ooo" (first digit 0-3) an
 * octal byte, any other backslash an error; other bytes stand for
 * themselves. */
static rl_codec_status parse_bytea_escape(const text_in *in, const char *p, size_t len,
                                          rl_buf *arena)
{
    const char *end = p + len;
    while (p < end) {
        if (*p != '\\') {
            rl_buf_put_u8(arena, (uint8_t)*p++);
        } else if (end - p >= 2 && p[1] == '\\') {
            rl_buf_put_u8(arena, '\\');
            p += 2;
        } else if (end - p >= 4 && p[1] >= '0' && p[1] <= '3' && p[2] >= '0' && p[2] <= '7' &&
                   p[3] >= '0' && p[3] <= '7') {
            rl_buf_put_u8(arena, (uint8_t)((p[1] - '0') << 6 | (p[2] - '0') << 3 | (p[3] - '0')));
            p += 4;
        } else {
            in_err(in, RL_SQLSTATE_INVALID_TEXT_REPRESENTATION,
                   "invalid input syntax for type bytea");
            return RL_CODEC_ERR_INVALID;
        }
    }
    return RL_CODEC_OK;
}

static rl_codec_status parse_bytea(const text_in *in, size_t len, rl_datum *d, rl_buf *arena)
{
    size_t start = arena->len;
    rl_codec_status st = (len >= 2 && in->text[0] == '\\' && in->text[1] == 'x')
                             ? parse_bytea_hex(in, in->text + 2, arena)
                             : parse_bytea_escape(in, in->text, len, arena);
    if (st != RL_CODEC_OK) {
        if (!arena->failed)
            arena->len = start;
        return st;
    }
    if (arena->failed)
        return arena_failed(in);
    if (arena->len - start > RL_MAX_FIELD_BYTES) {
        in_err(in, RL_SQLSTATE_INVALID_TEXT_REPRESENTATION,
               "bytea value exceeds the %u byte limit", RL_MAX_FIELD_BYTES);
        arena->len = start;
        return RL_CODEC_ERR_TOO_LARGE;
    }
    static const uint8_t empty[1];
    d->v.s.p = arena->len > start ? arena->data + start : empty;
    d->v.s.len = arena->len - start;
    return RL_CODEC_OK;
}

/* ---- date/time input ---- */

/* The fields of an ISO date/time literal as written. */
typedef struct dt_fields {
    bool has_date, has_time, has_zone, has_era, bc;
    int64_t year;
    int year_digits, mon, mday;
    int hour, min, sec;
    int64_t usec;     /* rounded fraction; may be 1000000 after rounding */
    int zone_east;    /* seconds east of UTC */
    const rl_tz *zone_tz; /* a zone named ("Europe/Berlin"): its offset there */
    char zone_name[64];   /* the name, for 22023 when no zone has it */
    bool time_only;       /* time / timetz input (DecodeTimeOnly's rules) */
} dt_fields;

typedef enum { DT_OK, DT_SYNTAX, DT_FIELD_RANGE, DT_TZ_RANGE, DT_TZ_UNKNOWN } dt_result;

#define SECS_PER_DAY_TZ INT64_C(86400)

/* Reads 1..max_digits digits into *out. */
static bool scan_digits(const char **pp, int max_digits, int64_t *out, int *ndigits)
{
    const char *p = *pp;
    int64_t v = 0;
    int n = 0;
    while (is_digit(*p)) {
        if (++n > max_digits)
            return false;
        v = v * 10 + (*p++ - '0');
    }
    if (n == 0)
        return false;
    *pp = p;
    *out = v;
    if (ndigits)
        *ndigits = n;
    return true;
}

/* Fraction digits after '.', rounded to microseconds as PostgreSQL does
 * (rint of the fraction as a double). */
static void scan_fraction(const char **pp, int64_t *usec)
{
    const char *start = *pp - 1; /* at the '.' */
    const char *p = *pp;
    while (is_digit(*p))
        p++;
    char buf[32];
    size_t n = (size_t)(p - start);
    if (n > sizeof buf - 2)
        n = sizeof buf - 2; /* digits past ~30 cannot change the rounding */
    buf[0] = '0';
    memcpy(buf + 1, start, n);
    buf[n + 1] = '\0';
    *usec = (int64_t)rint(strtod(buf, NULL) * 1e6);
    *pp = p;
}

/* "Y-M-D"; with a one- or two-digit first field PostgreSQL (DateStyle ISO,
 * MDY) reads "M-D-Y" instead, so "1-2-24" is 2024-01-02. */
static bool scan_date(const char **pp, dt_fields *f)
{
    int64_t parts[3];
    int first_digits, last_digits;
    if (!scan_digits(pp, 9, &parts[0], &first_digits) || **pp != '-')
        return false;
    (*pp)++;
    if (!scan_digits(pp, 2, &parts[1], NULL) || **pp != '-')
        return false;
    (*pp)++;
    if (!scan_digits(pp, first_digits <= 2 ? 9 : 2, &parts[2], &last_digits))
        return false;
    bool mdy = first_digits <= 2;
    f->year = mdy ? parts[2] : parts[0];
    f->year_digits = mdy ? last_digits : first_digits;
    f->mon = (int)(mdy ? parts[0] : parts[1]);
    f->mday = (int)(mdy ? parts[1] : parts[2]);
    f->has_date = true;
    return true;
}

/* "H:M[:S[.frac]]". Minutes and seconds are range-checked here, as
 * PostgreSQL's DecodeTime does before it looks at later fields; hour 24 is
 * checked in resolve_time. */
static dt_result scan_time(const char **pp, dt_fields *f)
{
    int64_t h, m, s = 0;
    if (!scan_digits(pp, 2, &h, NULL) || **pp != ':')
        return DT_SYNTAX;
    (*pp)++;
    if (!scan_digits(pp, 2, &m, NULL))
        return DT_SYNTAX;
    if (**pp == '.') { /* "MM:SS.frac": PostgreSQL reads minutes:seconds */
        (*pp)++;
        scan_fraction(pp, &f->usec);
        s = m;
        m = h;
        h = 0;
    } else if (**pp == ':') {
        (*pp)++;
        if (!scan_digits(pp, 2, &s, NULL))
            return DT_SYNTAX;
        if (**pp == '.') {
            (*pp)++;
            scan_fraction(pp, &f->usec);
        }
    }
    f->hour = (int)h;
    f->min = (int)m;
    f->sec = (int)s;
    f->has_time = true;
    return (h > 24 || m > 59 || s > 60) ? DT_FIELD_RANGE : DT_OK;
}

/* strtoint's reading of one part of a numeric zone: false on overflow. */
static bool zone_part(const char *s, char **end, long *out)
{
    errno = 0;
    long v = strtol(s, end, 10);
    if (errno == ERANGE || v > INT_MAX || v < INT_MIN)
        return false;
    *out = v;
    return true;
}

/* A numeric zone as ParseDateTime cuts it (the sign, blanks, then digits,
 * ':', '.' and '-') and DecodeTimezone reads it: "+H[H]", "+H:M[:S]", and
 * run together "+HMM" / "+HHMM" (three or more digits: the last two are
 * minutes; there is no run-together seconds form). Hours past 15, minutes
 * or seconds past 59 are out of range before anything after the numbers is
 * a syntax error. */
static dt_result scan_numeric_zone(const char **pp, dt_fields *f)
{
    const char *p = *pp;
    char field[64];
    size_t n = 0;
    field[n++] = *p++; /* the sign */
    p = skip_spaces(p);
    if (!is_digit(*p))
        return DT_SYNTAX;
    while (is_digit(*p) || *p == ':' || *p == '.' || *p == '-') {
        if (n + 1 >= sizeof field)
            return DT_SYNTAX;
        field[n++] = *p++;
    }
    field[n] = '\0';
    char *cp;
    long hr, min = 0, sec = 0;
    if (!zone_part(field + 1, &cp, &hr))
        return DT_TZ_RANGE;
    if (*cp == ':') {
        if (!zone_part(cp + 1, &cp, &min))
            return DT_TZ_RANGE;
        if (*cp == ':' && !zone_part(cp + 1, &cp, &sec))
            return DT_TZ_RANGE;
    } else if (*cp == '\0' && n > 3) {
        min = hr % 100;
        hr /= 100;
    }
    if (hr < 0 || hr > 15 || min < 0 || min > 59 || sec < 0 || sec > 59)
        return DT_TZ_RANGE;
    if (*cp != '\0')
        return DT_SYNTAX;
    f->zone_east = (field[0] == '-' ? -1 : 1) * (int)(hr * 3600 + min * 60 + sec);
    f->has_zone = true;
    *pp = p;
    return DT_OK;
}

/* The words of PostgreSQL's datetktbl (not its zone abbreviations): one
 * of them before a digit or '+' ends the word there, any other letters run
 * on into a zone name ("EST5EDT", "UTC+3"). */
static bool datetime_keyword(const char *word)
{
    static const char *const words[] = {
        "ad", "allballs", "am", "apr", "april", "at", "aug", "august", "bc", "d", "dec",
        "december", "dow", "doy", "dst", "epoch", "feb", "february", "fri", "friday", "h",
        "infinity", "isodow", "isoyear", "j", "jan", "january", "jd", "jul", "julian", "july",
        "jun", "june", "m", "mar", "march", "may", "mm", "mon", "monday", "nov", "november",
        "now", "oct", "october", "on", "pm", "s", "sat", "saturday", "sep", "sept", "september",
        "sun", "sunday", "t", "thu", "thur", "thurs", "thursday", "today", "tomorrow", "tue",
        "tues", "tuesday", "wed", "wednesday", "weds", "y", "yesterday", "z", "zulu"};
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++)
        if (strcmp(word, words[i]) == 0)
            return true;
    return false;
}

/* A word at *pp as ParseDateTime cuts it: letters, and when '-', '/' or
 * '.' follows them (or a digit or '+' that does not follow a keyword) a zone
 * name running on over letters, digits and "+-/_.:" ("America/New_York",
 * "EST5EDT", "Etc/GMT+5"); else a zone abbreviation or an era. */
static dt_result scan_word(const char **pp, dt_fields *f)
{
    const char *p = *pp;
    size_t n = 0;
    while (is_alpha(p[n]))
        n++;
    char word[64];
    if (n == 0 || n >= sizeof word)
        return DT_SYNTAX;
    for (size_t i = 0; i < n; i++)
        word[i] = to_lower(p[i]);
    word[n] = '\0';
    bool named = p[n] == '-' || p[n] == '/' || p[n] == '.' ||
                 ((p[n] == '+' || is_digit(p[n])) && !datetime_keyword(word));
    if (named)
        while (is_alpha(p[n]) || is_digit(p[n]) || (p[n] && strchr("+-/_.:", p[n])))
            n++;
    int32_t east;
    /* such a word is a zone only after a date (DecodeDateTime; else it is
     * read as a date) or, for a time, after any field (DecodeTimeOnly) */
    if (named && !(f->has_date || (f->time_only && f->has_time)))
        return DT_SYNTAX;
    if (!f->has_zone && named) { /* a zone name, as PostgreSQL's pg_tzset takes it */
        if (n >= sizeof f->zone_name)
            return DT_SYNTAX;
        memcpy(f->zone_name, p, n);
        f->zone_name[n] = '\0';
        if (!(f->zone_tz = rl_tz_lookup(f->zone_name)))
            return DT_TZ_UNKNOWN;
        f->has_zone = true;
    } else if (!named && !f->has_zone &&
               (strcmp(word, "z") == 0 || strcmp(word, "utc") == 0 ||
                strcmp(word, "gmt") == 0 || strcmp(word, "zulu") == 0)) {
        f->has_zone = true;
        f->zone_east = 0;
    } else if (!named && !f->has_era && (strcmp(word, "bc") == 0 || strcmp(word, "ad") == 0)) {
        f->has_era = true;
        f->bc = word[0] == 'b';
    } else if (!named && !f->has_zone && rl_tz_abbrev(word, &east)) { /* "CET", "EST": fixed */
        f->has_zone = true;
        f->zone_east = east;
    } else {
        return DT_SYNTAX;
    }
    *pp = p + n;
    return DT_OK;
}

/* Does a date ("digits-") start at p? Otherwise a time ("digits:"). */
static bool starts_date(const char *p)
{
    while (is_digit(*p))
        p++;
    return *p == '-';
}

/* Punctuation that starts no field, which ParseDateTime skips ('.' starts
 * a fraction, '+' and '-' a zone). */
static bool skipped_punct(char c)
{
    return ispunct((unsigned char)c) && c != '.' && c != '+' && c != '-';
}

/* ISO date/time literal: [date] [T|space time] [zone] [BC|AD], in the
 * orders PostgreSQL accepts for ISO input. */
static dt_result parse_datetime_fields(const char *s, bool time_only, dt_fields *f)
{
    memset(f, 0, sizeof *f);
    f->time_only = time_only;
    const char *p = skip_spaces(s);
    while (skipped_punct(*p))
        p = skip_spaces(p + 1);
    if (is_digit(*p) && starts_date(p)) {
        if (!scan_date(&p, f))
            return DT_SYNTAX;
        if ((*p == 'T' || *p == 't') && is_digit(p[1]))
            p++; /* ISO 8601 date-time separator */
    }
    for (;;) {
        p = skip_spaces(p);
        if (*p == '\0')
            break;
        dt_result r = DT_OK;
        if (is_digit(*p) && !f->has_time) {
            r = scan_time(&p, f);
        } else if ((*p == '+' || *p == '-') && !f->has_zone &&
                   (f->has_time || (f->has_date && (*p == '+' || is_space(p[-1]))))) {
            /* a zone; right after a date only with "+" or after a space,
             * since "2024-01-02-05" is a malformed date to PostgreSQL */
            r = scan_numeric_zone(&p, f);
        } else if (is_alpha(*p)) {
            r = scan_word(&p, f);
        } else if (skipped_punct(*p)) {
            p++;
        } else {
            return DT_SYNTAX;
        }
        if (r != DT_OK)
            return r;
    }
    return (f->has_date || f->has_time) ? DT_OK : DT_SYNTAX;
}

/* Applies the era and two-digit-year rule and checks month/day. */
static dt_result resolve_date(dt_fields *f, int64_t *days_since_2000)
{
    int64_t year = f->year;
    if (f->bc) {
        if (year == 0)
            return DT_FIELD_RANGE;
        year = 1 - year; /* astronomical numbering */
    } else if (f->year_digits <= 2) {
        year += year < 70 ? 2000 : 1900; /* PostgreSQL's two-digit-year rule */
    } else if (year == 0) {
        return DT_FIELD_RANGE;
    }
    if (f->mon < 1 || f->mon > 12 || f->mday < 1 || f->mday > days_in_month(year, f->mon))
        return DT_FIELD_RANGE;
    *days_since_2000 = days_from_civil(year, f->mon, f->mday) - DAYS_1970_TO_2000;
    return DT_OK;
}

/* Time of day in microseconds; 24:00:00 (and a leap second) allowed. */
static dt_result resolve_time(const dt_fields *f, int64_t *us)
{
    if (!f->has_time) {
        *us = 0;
        return DT_OK;
    }
    if (f->hour > 24 || f->min > 59 || f->sec > 60 ||
        (f->hour == 24 && (f->min > 0 || f->sec > 0 || f->usec > 0)))
        return DT_FIELD_RANGE;
    *us = ((f->hour * INT64_C(60) + f->min) * 60 + f->sec) * USECS_PER_SEC + f->usec;
    return DT_OK;
}

static rl_codec_status datetime_error(const text_in *in, const dt_fields *f, dt_result r)
{

    if (r == DT_FIELD_RANGE)
        return field_range_error(in);
    if (r == DT_TZ_RANGE) {
        in_err(in, RL_SQLSTATE_INVALID_TIME_ZONE_DISPLACEMENT_VALUE,
               "time zone displacement out of range: \"%s\"", in->text);
        return RL_CODEC_ERR_INVALID;
    }
    if (r == DT_TZ_UNKNOWN) { /* named as ParseDateTime left it: lower-cased */
        char lower[sizeof f->zone_name];
        size_t i = 0;
        for (; f->zone_name[i]; i++)
            lower[i] = (char)tolower((unsigned char)f->zone_name[i]);
        lower[i] = '\0';
        in_err(in, RL_SQLSTATE_INVALID_PARAMETER_VALUE, "time zone \"%s\" not recognized", lower);
        return RL_CODEC_ERR_INVALID;
    }
    return syntax_error(in);
}

/* "infinity", "-infinity" and "epoch" as a date or timestamp: true with
 * *out = hi, lo or epoch; false for any other text. */
static bool datetime_special(const char *s, int64_t hi, int64_t lo, int64_t epoch, int64_t *out)
{
    if (trimmed_equals(s, "infinity"))
        *out = hi;
    else if (trimmed_equals(s, "-infinity"))
        *out = lo;
    else if (trimmed_equals(s, "epoch"))
        *out = epoch;
    else
        return false;
    return true;
}

/* The date (days since 2000-01-01) and time of day of a date or timestamp
 * text, which must have a date; the time is validated for a date too. */
static rl_codec_status parse_date_and_time(const text_in *in, dt_fields *f, int64_t *days,
                                           int64_t *tod)
{
    dt_result r = parse_datetime_fields(in->text, false, f);
    *days = *tod = 0;
    if (r == DT_OK && !f->has_date)
        r = DT_SYNTAX;
    if (r == DT_OK)
        r = resolve_date(f, days);
    if (r == DT_OK)
        r = resolve_time(f, tod);
    return r == DT_OK ? RL_CODEC_OK : datetime_error(in, f, r);
}

static rl_codec_status parse_date(const text_in *in, int64_t *out)
{
    if (datetime_special(in->text, INT32_MAX, INT32_MIN, -DAYS_1970_TO_2000, out))
        return RL_CODEC_OK;
    dt_fields f;
    int64_t days, tod; /* the time is validated, then ignored like PostgreSQL */
    rl_codec_status st = parse_date_and_time(in, &f, &days, &tod);
    if (st != RL_CODEC_OK)
        return st;
    if (days < DATE_MIN_DAYS || days >= DATE_END_DAYS) {
        in_err(in, RL_SQLSTATE_NUMERIC_VALUE_OUT_OF_RANGE, "date out of range: \"%s\"", in->text);
        return RL_CODEC_ERR_INVALID;
    }
    *out = days;
    return RL_CODEC_OK;
}

/* The offset of a timetz: the one written, else that of the zone named or
 * the session's (tzif.h) on the date given, or today's date
 * (DecodeTimeOnly's DetermineTimeZoneOffset). */
static int32_t timetz_offset(const dt_fields *f, int64_t days, int64_t tod)
{
    if (f->has_zone && !f->zone_tz)
        return f->zone_east;
    const rl_tz *tz = f->zone_tz ? f->zone_tz : rl_tz_current();
    if (days == INT64_MIN) { /* today in that zone */
        int64_t now = (int64_t)time(NULL);
        now += rl_tz_offset_at(tz, now, NULL, NULL);
        days = floor_div(now, SECS_PER_DAY_TZ) - DAYS_1970_TO_2000;
    }
    int64_t local = (days + DAYS_1970_TO_2000) * SECS_PER_DAY_TZ + tod / USECS_PER_SEC;
    return rl_tz_offset_of_local(tz, local, NULL);
}

/* time and timetz; a date prefix is allowed and ignored, and so is a zone
 * for plain time. A timetz without a zone is in the session's zone. */
static rl_codec_status parse_time(const text_in *in, rl_datum *d)
{
    dt_fields f;
    dt_result r = parse_datetime_fields(in->text, true, &f);
    int64_t days, tod = 0;
    if (r == DT_OK && (!f.has_time || f.has_era))
        r = DT_SYNTAX;
    if (r == DT_OK && f.has_date)
        r = resolve_date(&f, &days);
    if (r == DT_OK)
        r = resolve_time(&f, &tod);
    if (r == DT_OK && tod > USECS_PER_DAY)
        r = DT_FIELD_RANGE;
    int32_t fixed_east;
    if (r == DT_OK && in->type == RL_T_TIMETZ && f.zone_tz && !f.has_date &&
        !rl_tz_fixed_offset(f.zone_tz, &fixed_east))
        r = DT_SYNTAX; /* DecodeTimeOnly: a zone that changes its offset needs a date */
    if (r != DT_OK)
        return datetime_error(in, &f, r);
    if (in->type == RL_T_TIMETZ) {
        d->v.timetz.us = tod;
        d->v.timetz.zone = -timetz_offset(&f, f.has_date ? days : INT64_MIN, tod);
    } else {
        d->v.i = tod;
    }
    return RL_CODEC_OK;
}

/* timestamp and timestamptz: a zone converts timestamptz to UTC and is
 * ignored for timestamp (as PostgreSQL does). */
static rl_codec_status parse_timestamp(const text_in *in, int64_t *out)
{
    if (datetime_special(in->text, INT64_MAX, INT64_MIN, -DAYS_1970_TO_2000 * USECS_PER_DAY,
                         out))
        return RL_CODEC_OK;
    dt_fields f;
    int64_t days, tod;
    rl_codec_status st = parse_date_and_time(in, &f, &days, &tod);
    if (st != RL_CODEC_OK)
        return st;
    /* Reject far-off dates before multiplying, so nothing overflows. */
    int64_t us = 0;
    bool in_range = days >= DATE_MIN_DAYS - 1 && days <= TIMESTAMP_END / USECS_PER_DAY + 1;
    if (in_range) {
        us = days * USECS_PER_DAY + tod;
        if (in->type == RL_T_TIMESTAMPTZ && f.zone_tz) /* "... Europe/Berlin" */
            us = rl_tz_local_to_utc_us(f.zone_tz, us, NULL);
        else if (in->type == RL_T_TIMESTAMPTZ && f.has_zone)
            us -= (int64_t)f.zone_east * USECS_PER_SEC;
        else if (in->type == RL_T_TIMESTAMPTZ) /* a wall-clock time of the session's zone */
            us = rl_tz_local_to_utc_us(rl_tz_current(), us, NULL);
        in_range = us >= TIMESTAMP_MIN && us < TIMESTAMP_END;
    }
    if (!in_range) {
        in_err(in, RL_SQLSTATE_NUMERIC_VALUE_OUT_OF_RANGE,
               "timestamp out of range: \"%s\"", in->text);
        return RL_CODEC_ERR_INVALID;
    }
    *out = us;
    return RL_CODEC_OK;
}

/* ---- interval input ---- */

/* Units of interval input. A unit may appear once (PostgreSQL's field
 * mask); "HH:MM:SS" counts as hour, minute and second. */
typedef enum {
    IU_MICROSECOND, IU_MILLISECOND, IU_SECOND, IU_MINUTE, IU_HOUR, IU_DAY, IU_WEEK,
    IU_MONTH, IU_YEAR, IU_DECADE, IU_CENTURY, IU_MILLENNIUM
} interval_unit;

static const struct { const char *name; interval_unit unit; } interval_unit_names[] = {
    {"microsecond", IU_MICROSECOND}, {"microseconds", IU_MICROSECOND},
    {"microsecon", IU_MICROSECOND},  {"us", IU_MICROSECOND},
    {"usec", IU_MICROSECOND},        {"usecs", IU_MICROSECOND},
    {"millisecond", IU_MILLISECOND}, {"milliseconds", IU_MILLISECOND},
    {"millisecon", IU_MILLISECOND},  {"ms", IU_MILLISECOND},
    {"msec", IU_MILLISECOND},        {"msecs", IU_MILLISECOND},
    {"second", IU_SECOND},           {"seconds", IU_SECOND},
    {"sec", IU_SECOND},              {"secs", IU_SECOND},
    {"s", IU_SECOND},                {"minute", IU_MINUTE},
    {"minutes", IU_MINUTE},          {"min", IU_MINUTE},
    {"mins", IU_MINUTE},             {"m", IU_MINUTE},
    {"hour", IU_HOUR},               {"hours", IU_HOUR},
    {"hr", IU_HOUR},                 {"hrs", IU_HOUR},
    {"h", IU_HOUR},                  {"day", IU_DAY},
    {"days", IU_DAY},                {"d", IU_DAY},
    {"week", IU_WEEK},               {"weeks", IU_WEEK},
    {"w", IU_WEEK},                  {"month", IU_MONTH},
    {"months", IU_MONTH},            {"mon", IU_MONTH},
    {"mons", IU_MONTH},              {"year", IU_YEAR},
    {"years", IU_YEAR},              {"yr", IU_YEAR},
    {"yrs", IU_YEAR},                {"y", IU_YEAR},
    {"decade", IU_DECADE},           {"decades", IU_DECADE},
    {"dec", IU_DECADE},              {"decs", IU_DECADE},
    {"century", IU_CENTURY},         {"centuries", IU_CENTURY},
    {"cent", IU_CENTURY},            {"c", IU_CENTURY},
    {"millennium", IU_MILLENNIUM},   {"millennia", IU_MILLENNIUM},
    {"mil", IU_MILLENNIUM},          {"mils", IU_MILLENNIUM},
};

/* Running totals; wide so that overflow is detected once at the end.
 * PostgreSQL 15 decodes interval fields right to left and an "HH:MM:SS"
 * field *sets* the microseconds, so sub-day amounts written to the right of
 * it are lost ('01:00 1.5 days' is '1 day 01:00:00'); `us_lost` collects
 * those so that we give the same answer. */
typedef struct interval_acc {
    __int128 months, days, us, us_lost;
    bool after_time;
    unsigned seen; /* bit per interval_unit */
} interval_acc;

static void add_interval_us(interval_acc *acc, __int128 us)
{
    if (acc->after_time)
        acc->us_lost += us;
    else
        acc->us += us;
}

typedef enum { IV_OK, IV_SYNTAX, IV_RANGE } iv_result;

static bool lookup_interval_unit(const char *word, size_t n, interval_unit *unit)
{
    for (size_t i = 0; i < sizeof interval_unit_names / sizeof interval_unit_names[0]; i++) {
        const char *name = interval_unit_names[i].name;
        if (strlen(name) == n && strncasecmp(word, name, n) == 0) {
            *unit = interval_unit_names[i].unit;
            return true;
        }
    }
    return false;
}

/* Adds whole-unit `ival` and fraction `frac` (same sign) of `unit`, pushing
 * fractions down to smaller units the way PostgreSQL's DecodeInterval does. */
static void add_interval_amount(interval_acc *acc, interval_unit unit, int64_t ival, double frac)
{
    static const int64_t us_per[] = {
        [IU_MICROSECOND] = 1, [IU_MILLISECOND] = 1000, [IU_SECOND] = USECS_PER_SEC,
        [IU_MINUTE] = USECS_PER_MINUTE, [IU_HOUR] = USECS_PER_HOUR, [IU_DAY] = USECS_PER_DAY,
    };
    static const int months_per[] = {
        [IU_YEAR] = 12, [IU_DECADE] = 120, [IU_CENTURY] = 1200, [IU_MILLENNIUM] = 12000,
    };
    switch (unit) {
    case IU_MICROSECOND:
    case IU_MILLISECOND:
    case IU_SECOND:
    case IU_MINUTE:
    case IU_HOUR:
        add_interval_us(acc, (__int128)ival * us_per[unit] +
                                 (int64_t)rint(frac * (double)us_per[unit]));
        break;
    case IU_DAY:
        acc->days += ival;
        add_interval_us(acc, (int64_t)rint(frac * (double)USECS_PER_DAY));
        break;
    case IU_WEEK:
    case IU_MONTH: {
        int days_per = unit == IU_WEEK ? 7 : 30;
        if (unit == IU_WEEK)
            acc->days += (__int128)ival * 7;
        else
            acc->months += ival;
        double extra_days = frac * days_per;
        int64_t whole = (int64_t)extra_days; /* truncates toward zero */
        acc->days += whole;
        add_interval_us(acc, (int64_t)rint((extra_days - (double)whole) * (double)USECS_PER_DAY));
        break;
    }
    case IU_YEAR:
    case IU_DECADE:
    case IU_CENTURY:
    case IU_MILLENNIUM:
        acc->months += (__int128)ival * months_per[unit] +
                       (int64_t)rint(frac * months_per[unit]);
        break;
    }
}

/* "[+-]H:MM[:SS[.frac]]" or "[+-]M:SS.frac" inside an interval. */
static iv_result scan_interval_time(const char **pp, interval_acc *acc)
{
    const char *p = *pp;
    bool negative = false;
    if (*p == '+' || *p == '-')
        negative = *p++ == '-';
    int64_t first, second, third = 0, usec = 0;
    if (!scan_digits(&p, 18, &first, NULL) || *p++ != ':' || !scan_digits(&p, 2, &second, NULL))
        return IV_SYNTAX;
    __int128 total;
    if (*p == '.') { /* minutes:seconds.fraction */
        p++;
        scan_fraction(&p, &usec);
        if (second > 60)
            return IV_RANGE;
        total = ((__int128)first * 60 + second) * USECS_PER_SEC + usec;
    } else {
        if (*p == ':') {
            p++;
            if (!scan_digits(&p, 2, &third, NULL))
                return IV_SYNTAX;
            if (*p == '.') {
                p++;
                scan_fraction(&p, &usec);
            }
        }
        if (second > 59 || third > 60)
            return IV_RANGE;
        total = (((__int128)first * 60 + second) * 60 + third) * USECS_PER_SEC + usec;
    }
    const unsigned time_mask = (1u << IU_HOUR) | (1u << IU_MINUTE) | (1u << IU_SECOND) |
                               (1u << IU_MILLISECOND) | (1u << IU_MICROSECOND);
    if (acc->seen & time_mask)
        return IV_SYNTAX;
    acc->seen |= time_mask;
    acc->us += negative ? -total : total;
    acc->after_time = true;
    *pp = p;
    return IV_OK;
}

/* "[+-]N[.F] [unit]"; a number without a unit is seconds. */
static iv_result scan_interval_quantity(const char **pp, interval_acc *acc)
{
    const char *p = *pp;
    bool negative = false;
    if (*p == '+' || *p == '-')
        negative = *p++ == '-';
    int64_t ival = 0;
    double frac = 0;
    bool have_digits = is_digit(*p);
    /* PostgreSQL 15 reads the integer part as an int64: "7200000000
     * microseconds" is valid (DuckLake sends such literals); days, months
     * and years are range-checked on the total below. */
    if (have_digits && !scan_digits(&p, 18, &ival, NULL))
        return IV_RANGE;
    if (*p == '.') {
        const char *fstart = p;
        p++;
        while (is_digit(*p))
            p++;
        have_digits |= p - fstart > 1;
        frac = strtod(fstart, NULL); /* "." alone parses as 0 */
    }
    if (!have_digits)
        return IV_SYNTAX;
    p = skip_spaces(p);
    const char *word = p;
    while (is_alpha(*p))
        p++;
    interval_unit unit = IU_SECOND;
    if (p > word && !lookup_interval_unit(word, (size_t)(p - word), &unit))
        return IV_SYNTAX;
    /* Fractional seconds also claim the millisecond and microsecond fields. */
    unsigned mask = 1u << unit;
    if (unit == IU_SECOND && frac != 0)
        mask |= (1u << IU_MILLISECOND) | (1u << IU_MICROSECOND);
    if (acc->seen & mask)
        return IV_SYNTAX;
    acc->seen |= mask;
    add_interval_amount(acc, unit, negative ? -ival : ival, negative ? -frac : frac);
    *pp = p;
    return IV_OK;
}

static bool starts_interval_time(const char *p)
{
    if (*p == '+' || *p == '-')
        p++;
    if (!is_digit(*p))
        return false;
    while (is_digit(*p))
        p++;
    return *p == ':';
}

static rl_codec_status parse_interval(const text_in *in, rl_datum *d)
{
    interval_acc acc = {0, 0, 0, 0, false, 0};
    const char *p = skip_spaces(in->text);
    if (*p == '@')
        p++;
    bool any = false, ago = false;
    for (;;) {
        p = skip_spaces(p);
        if (*p == '\0')
            break;
        if (ago)
            return syntax_error(in); /* "ago" must come last */
        iv_result r;
        if (strncasecmp(p, "ago", 3) == 0 && !is_alpha(p[3])) {
            ago = true;
            p += 3;
            continue;
        }
        r = starts_interval_time(p) ? scan_interval_time(&p, &acc)
                                    : scan_interval_quantity(&p, &acc);
        if (r == IV_SYNTAX)
            return syntax_error(in);
        if (r == IV_RANGE) {
            in_err(in, RL_SQLSTATE_NUMERIC_VALUE_OUT_OF_RANGE,
                   "interval field value out of range: \"%s\"", in->text);
            return RL_CODEC_ERR_INVALID;
        }
        any = true;
    }
    if (!any)
        return syntax_error(in);
    if (ago) {
        acc.months = -acc.months;
        acc.days = -acc.days;
        acc.us = -acc.us;
    }
    if (acc.days < INT32_MIN || acc.days > INT32_MAX || acc.us < INT64_MIN ||
        acc.us > INT64_MAX) {
        in_err(in, RL_SQLSTATE_NUMERIC_VALUE_OUT_OF_RANGE,
               "interval field value out of range: \"%s\"", in->text);
        return RL_CODEC_ERR_INVALID;
    }
    if (acc.months < INT32_MIN || acc.months > INT32_MAX) {
        in_err(in, RL_SQLSTATE_NUMERIC_VALUE_OUT_OF_RANGE, "interval out of range");
        return RL_CODEC_ERR_INVALID;
    }
    d->v.interval.months = (int32_t)acc.months;
    d->v.interval.days = (int32_t)acc.days;
    d->v.interval.us = (int64_t)acc.us;
    return RL_CODEC_OK;
}

static rl_codec_status parse_string(const text_in *in, size_t len, rl_datum *d, rl_buf *arena)
{
    if (len > RL_MAX_FIELD_BYTES) {
        in_err(in, RL_SQLSTATE_INVALID_TEXT_REPRESENTATION,
               "%s value of %zu bytes exceeds the %u byte limit",
               rl_type_name(in->type), len, RL_MAX_FIELD_BYTES);
        return RL_CODEC_ERR_TOO_LARGE;
    }
    return put_datum_bytes(arena, in->text, len, d) ? RL_CODEC_OK : arena_failed(in);
}

static rl_codec_status parse_text_as(const text_in *in, size_t len, rl_datum *d, rl_buf *arena)
{
    switch (in->type) {
    case RL_T_INT8: return parse_int(in, INT64_MIN, INT64_MAX, &d->v.i);
    case RL_T_INT4: return parse_int(in, INT32_MIN, INT32_MAX, &d->v.i);
    case RL_T_INT2: return parse_int(in, INT16_MIN, INT16_MAX, &d->v.i);
    case RL_T_FLOAT4: return parse_float(in, true, &d->v.f);
    case RL_T_FLOAT8: return parse_float(in, false, &d->v.f);
    case RL_T_NUMERIC: return parse_numeric(in, d, arena);
    case RL_T_VARCHAR:
    case RL_T_BPCHAR:
    case RL_T_TEXT: return parse_string(in, len, d, arena);
    case RL_T_BYTEA: return parse_bytea(in, len, d, arena);
    case RL_T_BOOL: return parse_bool(in, &d->v.b);
    case RL_T_UUID: return parse_uuid(in, d->v.uuid);
    case RL_T_DATE: return parse_date(in, &d->v.i);
    case RL_T_TIME:
    case RL_T_TIMETZ: return parse_time(in, d);
    case RL_T_TIMESTAMP:
    case RL_T_TIMESTAMPTZ: return parse_timestamp(in, &d->v.i);
    case RL_T_INTERVAL: return parse_interval(in, d);
    default: return RL_CODEC_ERR_INVALID;
    }
}

rl_codec_status rl_datum_input(rl_type t, const char *text, size_t len, rl_datum *d,
                               rl_buf *arena, char *err, size_t errlen, const char **sqlstate)
{
    const char *ignored;
    if (!sqlstate)
        sqlstate = &ignored;
    /* an error without its own code is a syntax error (parse_text_as's default) */
    *sqlstate = syntax_sqlstate(t);
    if (!d || (!text && len) || !type_is_known(t) || (rl_type_is_bytes(t) && !arena)) {
        *sqlstate = RL_SQLSTATE_INVALID_TEXT_REPRESENTATION;
        rl_errmsg_set(err, errlen, "invalid arguments");
        return RL_CODEC_ERR_INVALID;
    }
    memset(d, 0, sizeof *d);
    if (len > RL_MAX_VALUE_BYTES) {
        *sqlstate = RL_SQLSTATE_INVALID_TEXT_REPRESENTATION;
        rl_errmsg_set(err, errlen, "input of %zu bytes exceeds the %u byte limit", len,
                RL_MAX_VALUE_BYTES);
        return RL_CODEC_ERR_TOO_LARGE;
    }
    /* Parsers want a NUL-terminated copy; messages quote it as written. */
    char *copy = malloc(len + 1);
    if (!copy) {
        *sqlstate = RL_SQLSTATE_INVALID_TEXT_REPRESENTATION;
        rl_errmsg_set(err, errlen, "out of memory");
        return RL_CODEC_ERR_TOO_LARGE;
    }
    if (len)
        memcpy(copy, text, len);
    copy[len] = '\0';
    text_in in = {t, copy, err, errlen, sqlstate};
    rl_codec_status st;
    if (t != RL_T_TEXT && t != RL_T_VARCHAR && t != RL_T_BPCHAR && memchr(copy, '\0', len))
        st = syntax_error(&in); /* PostgreSQL text can never hold a NUL here */
    else
        st = parse_text_as(&in, len, d, arena);
    free(copy);
    if (st == RL_CODEC_OK)
        *sqlstate = NULL;
    return st;
}

rl_codec_status rl_datum_from_text(rl_type t, const char *text, size_t len, rl_datum *d,
                                   rl_buf *arena, char *err, size_t errlen)
{
    return rl_datum_input(t, text, len, d, arena, err, errlen, NULL);
}

/* ------------------------------------------------------------------ */
/* binary output (typsend) and input (typreceive)                      */
/* ------------------------------------------------------------------ */

/* numeric's canonical text ("-12.340", "NaN", "Infinity") -> PostgreSQL's
 * numeric_send: int16 ndigits, int16 weight, uint16 sign, uint16 dscale,
 * then base-10000 digits with leading/trailing zero groups stripped. */
static bool numeric_encode(rl_buf *out, const char *s, size_t n)
{
    if (n == 3 && memcmp(s, "NaN", 3) == 0) {
        rl_buf_put_be16(out, 0); rl_buf_put_be16(out, 0);
        rl_buf_put_be16(out, 0xC000); rl_buf_put_be16(out, 0);
        return true;
    }
    if ((n == 8 && memcmp(s, "Infinity", 8) == 0) || (n == 9 && memcmp(s, "-Infinity", 9) == 0)) {
        rl_buf_put_be16(out, 0); rl_buf_put_be16(out, 0);
        rl_buf_put_be16(out, s[0] == '-' ? 0xF000 : 0xD000); rl_buf_put_be16(out, 0);
        return true;
    }
    size_t i = 0;
    bool neg = false;
    if (i < n && (s[i] == '-' || s[i] == '+'))
        neg = s[i++] == '-';
    size_t ib = i;
    while (i < n && s[i] >= '0' && s[i] <= '9')
        i++;
    size_t ie = i, fb = i, fe = i;
    if (i < n && s[i] == '.') {
        fb = ++i;
        while (i < n && s[i] >= '0' && s[i] <= '9')
            i++;
        fe = i;
    }
    if (i != n || (ie == ib && fe == fb))
        return false; /* exponent forms never come from the codec */
    while (ib < ie && s[ib] == '0')
        ib++;
    size_t nint = ie - ib, nfrac = fe - fb;
    if (nfrac > 0x3FFF || nint > 0x20000)
        return false;
    size_t lpad = (4 - nint % 4) % 4, rpad = (4 - nfrac % 4) % 4;
    size_t total = (lpad + nint + nfrac + rpad) / 4;
    uint16_t *g = calloc(total ? total : 1, sizeof *g);
    if (!g)
        return false;
    for (size_t k = 0; k < lpad + nint + nfrac + rpad; k++) {
        size_t p = k; /* position in the padded digit string */
        int dig = 0;
        if (p >= lpad && p < lpad + nint)
            dig = s[ib + p - lpad] - '0';
        else if (p >= lpad + nint && p < lpad + nint + nfrac)
            dig = s[fb + p - lpad - nint] - '0';
        g[k / 4] = (uint16_t)(g[k / 4] * 10 + dig);
    }
    int weight = (int)((lpad + nint) / 4) - 1;
    size_t first = 0, last = total;
    while (first < last && g[first] == 0) {
        first++;
        weight--;
    }
    while (last > first && g[last - 1] == 0)
        last--;
    if (first == last) {
        weight = 0;
        neg = false;
    }
    rl_buf_put_be16(out, (uint16_t)(last - first));
    rl_buf_put_be16(out, (uint16_t)(int16_t)weight);
    rl_buf_put_be16(out, neg ? 0x4000 : 0);
    rl_buf_put_be16(out, (uint16_t)nfrac);
    for (size_t k = first; k < last; k++)
        rl_buf_put_be16(out, g[k]);
    free(g);
    return true;
}

static uint32_t float4_bits(double d)
{
    float f = (float)d;
    uint32_t u;
    memcpy(&u, &f, 4);
    return u;
}

static uint64_t float8_bits(double d)
{
    uint64_t u;
    memcpy(&u, &d, 8);
    return u;
}

bool rl_datum_to_binary(rl_buf *out, rl_type t, const rl_datum *d)
{
    switch (t) {
    case RL_T_BOOL: rl_buf_put_u8(out, d->v.b ? 1 : 0); return true;
    case RL_T_INT2: rl_buf_put_be16(out, (uint16_t)(int16_t)d->v.i); return true;
    case RL_T_INT4:
    case RL_T_DATE: rl_buf_put_be32(out, (uint32_t)(int32_t)d->v.i); return true;
    case RL_T_INT8:
    case RL_T_TIME:
    case RL_T_TIMESTAMP:
    case RL_T_TIMESTAMPTZ: rl_buf_put_be64(out, (uint64_t)d->v.i); return true;
    case RL_T_FLOAT4: rl_buf_put_be32(out, float4_bits(d->v.f)); return true;
    case RL_T_FLOAT8: rl_buf_put_be64(out, float8_bits(d->v.f)); return true;
    case RL_T_NUMERIC: return numeric_encode(out, (const char *)d->v.s.p, d->v.s.len);
    case RL_T_BPCHAR:
    case RL_T_TEXT:
    case RL_T_VARCHAR:
    case RL_T_BYTEA: rl_buf_put(out, d->v.s.p, d->v.s.len); return true;
    case RL_T_UUID: rl_buf_put(out, d->v.uuid, 16); return true;
    case RL_T_TIMETZ:
        rl_buf_put_be64(out, (uint64_t)d->v.timetz.us);
        rl_buf_put_be32(out, (uint32_t)d->v.timetz.zone);
        return true;
    case RL_T_INTERVAL:
        rl_buf_put_be64(out, (uint64_t)d->v.interval.us);
        rl_buf_put_be32(out, (uint32_t)d->v.interval.days);
        rl_buf_put_be32(out, (uint32_t)d->v.interval.months);
        return true;
    default: return false;
    }
}

/* Context of one rl_datum_from_binary call: where errors go. */
typedef struct bin_in {
    char *err;
    size_t errlen;
    const char **sqlstate; /* never NULL */
} bin_in;

static rl_codec_status bin_err(const bin_in *in, const char *sqlstate, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static rl_codec_status bin_err(const bin_in *in, const char *sqlstate, const char *fmt, ...)
{
    *in->sqlstate = sqlstate;
    va_list ap;
    va_start(ap, fmt);
    rl_errmsg_setv(in->err, in->errlen, fmt, ap);
    va_end(ap);
    return RL_CODEC_ERR_INVALID;
}

static rl_codec_status bad_binary(const bin_in *in)
{
    return bin_err(in, RL_SQLSTATE_INVALID_BINARY_REPRESENTATION, "incorrect binary data format");
}

/* Fixed-size types: PostgreSQL reads past a short field ("insufficient data
 * left in message", 08P01) and complains about leftovers (22P03). */
static rl_codec_status need_len(const bin_in *in, size_t len, size_t need)
{
    if (len < need)
        return bin_err(in, RL_SQLSTATE_PROTOCOL_VIOLATION, "insufficient data left in message");
    if (len > need)
        return bad_binary(in);
    return RL_CODEC_OK;
}

/* A fixed-size binary value of `width` bytes (2, 4 or 8): its big-endian
 * bits, for the caller to read as its signed integer or float. */
static rl_codec_status recv_fixed(const bin_in *in, const uint8_t *p, size_t len, size_t width,
                                  uint64_t *bits)
{
    rl_codec_status st = need_len(in, len, width);
    if (st != RL_CODEC_OK)
        return st;
    *bits = width == 2 ? (uint64_t)(p[0] << 8 | p[1])
            : width == 4 ? rl_load_be32(p)
                         : rl_load_be64(p);
    return RL_CODEC_OK;
}

/* numeric_recv: validate and render the canonical text the codec stores. */
static rl_codec_status numeric_decode(const bin_in *in, const uint8_t *p, size_t len,
                                      rl_buf *arena, rl_datum *d)
{
    if (len < 8)
        return bin_err(in, RL_SQLSTATE_PROTOCOL_VIOLATION, "insufficient data left in message");
    uint16_t ndigits = (uint16_t)(p[0] << 8 | p[1]);
    int16_t weight = (int16_t)(p[2] << 8 | p[3]);
    uint16_t sign = (uint16_t)(p[4] << 8 | p[5]);
    uint16_t dscale = (uint16_t)(p[6] << 8 | p[7]);
    if (len != 8 + 2u * ndigits)
        return len < 8 + 2u * ndigits ? need_len(in, len, 8 + 2u * ndigits) : bad_binary(in);
    const char *special = sign == 0xC000 ? "NaN" : sign == 0xD000 ? "Infinity"
                        : sign == 0xF000 ? "-Infinity" : NULL;
    if (!special && sign != 0 && sign != 0x4000)
        return bin_err(in, RL_SQLSTATE_INVALID_BINARY_REPRESENTATION,
                       "invalid sign in external \"numeric\" value");
    if (dscale > 0x3FFF)
        return bin_err(in, RL_SQLSTATE_INVALID_BINARY_REPRESENTATION,
                       "invalid scale in external \"numeric\" value");
    size_t start = arena->len;
    if (special) {
        rl_buf_put_str(arena, special);
    } else {
        uint16_t dig[ndigits ? ndigits : 1];
        for (size_t i = 0; i < ndigits; i++) {
            dig[i] = (uint16_t)(p[8 + 2 * i] << 8 | p[9 + 2 * i]);
            if (dig[i] >= 10000)
                return bin_err(in, RL_SQLSTATE_INVALID_BINARY_REPRESENTATION,
                               "invalid digit in external \"numeric\" value");
        }
        if (sign == 0x4000 && ndigits > 0)
            rl_buf_put_u8(arena, '-');
        if (weight < 0) {
            rl_buf_put_u8(arena, '0');
        } else {
            for (int k = 0; k <= weight; k++) {
                unsigned g = k < ndigits ? dig[k] : 0;
                rl_buf_printf(arena, k == 0 ? "%u" : "%04u", g);
            }
        }
        if (dscale > 0) {
            rl_buf_put_u8(arena, '.');
            size_t left = dscale;
            for (int k = weight + 1; left > 0; k++) {
                unsigned g = k >= 0 && k < ndigits ? dig[k] : 0;
                char four[8];
                snprintf(four, sizeof four, "%04u", g);
                size_t take = left < 4 ? left : 4;
                rl_buf_put(arena, four, take);
                left -= take;
            }
        }
    }
    if (arena->failed)
        return bin_err(in, RL_SQLSTATE_OUT_OF_MEMORY, "out of memory");
    d->v.s.p = arena->data + start;
    d->v.s.len = arena->len - start;
    return RL_CODEC_OK;
}

rl_codec_status rl_datum_from_binary(rl_type t, const uint8_t *p, size_t len, rl_datum *d,
                                     rl_buf *arena, char *err, size_t errlen,
                                     const char **sqlstate)
{
    const char *ignored;
    bin_in in = {err, errlen, sqlstate ? sqlstate : &ignored};
    *in.sqlstate = NULL;
    memset(d, 0, sizeof *d);
    rl_codec_status st;
    uint64_t bits;
    switch (t) {
    case RL_T_BOOL:
        if (len != 1)
            return bad_binary(&in);
        d->v.b = p[0] != 0;
        return RL_CODEC_OK;
    case RL_T_INT2:
        if ((st = recv_fixed(&in, p, len, 2, &bits)) != RL_CODEC_OK)
            return st;
        d->v.i = (int16_t)(uint16_t)bits;
        return RL_CODEC_OK;
    case RL_T_INT4:
    case RL_T_DATE:
        if ((st = recv_fixed(&in, p, len, 4, &bits)) != RL_CODEC_OK)
            return st;
        d->v.i = (int32_t)(uint32_t)bits;
        return RL_CODEC_OK;
    case RL_T_INT8:
    case RL_T_TIME:
    case RL_T_TIMESTAMP:
    case RL_T_TIMESTAMPTZ:
        if ((st = recv_fixed(&in, p, len, 8, &bits)) != RL_CODEC_OK)
            return st;
        d->v.i = (int64_t)bits;
        if (t == RL_T_TIME && (d->v.i < 0 || d->v.i > USECS_PER_DAY))
            return bin_err(&in, RL_SQLSTATE_DATETIME_FIELD_OVERFLOW, "time out of range");
        return RL_CODEC_OK;
    case RL_T_FLOAT4: {
        if ((st = recv_fixed(&in, p, len, 4, &bits)) != RL_CODEC_OK)
            return st;
        uint32_t u = (uint32_t)bits;
        float f;
        memcpy(&f, &u, 4);
        d->v.f = f;
        return RL_CODEC_OK;
    }
    case RL_T_FLOAT8:
        if ((st = recv_fixed(&in, p, len, 8, &bits)) != RL_CODEC_OK)
            return st;
        memcpy(&d->v.f, &bits, 8);
        return RL_CODEC_OK;
    case RL_T_UUID:
        if ((st = need_len(&in, len, 16)) != RL_CODEC_OK)
            return st;
        memcpy(d->v.uuid, p, 16);
        return RL_CODEC_OK;
    case RL_T_TIMETZ:
        if ((st = need_len(&in, len, 12)) != RL_CODEC_OK)
            return st;
        d->v.timetz.us = (int64_t)rl_load_be64(p);
        d->v.timetz.zone = (int32_t)rl_load_be32(p + 8);
        return RL_CODEC_OK;
    case RL_T_INTERVAL:
        if ((st = need_len(&in, len, 16)) != RL_CODEC_OK)
            return st;
        d->v.interval.us = (int64_t)rl_load_be64(p);
        d->v.interval.days = (int32_t)rl_load_be32(p + 8);
        d->v.interval.months = (int32_t)rl_load_be32(p + 12);
        return RL_CODEC_OK;
    case RL_T_NUMERIC:
        if (!arena)
            return bin_err(&in, RL_SQLSTATE_INVALID_BINARY_REPRESENTATION, "invalid arguments");
        return numeric_decode(&in, p, len, arena, d);
    case RL_T_BPCHAR:
    case RL_T_TEXT:
    case RL_T_VARCHAR:
    case RL_T_BYTEA:
        d->v.s.p = p;
        d->v.s.len = len;
        return RL_CODEC_OK;
    default:
        return bin_err(&in, RL_SQLSTATE_FEATURE_NOT_SUPPORTED,
                       "binary input of type %s is not supported", rl_type_name(t));
    }
}

/* ------------------------------------------------------------------ */
/* ordering                                                            */
/* ------------------------------------------------------------------ */

static int cmp_i64(int64_t a, int64_t b) { return (a > b) - (a < b); }

/* float8_cmp_internal: NaN sorts above everything and equals NaN; -0 = 0. */
static int cmp_float(double a, double b)
{
    if (isnan(a))
        return isnan(b) ? 0 : 1;
    if (isnan(b))
        return -1;
    return (a > b) - (a < b);
}

static int cmp_bytes(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen)
{
    size_t n = alen < blen ? alen : blen;
    int c = n ? memcmp(a, b, n) : 0;
    if (c)
        return c < 0 ? -1 : 1;
    return (alen > blen) - (alen < blen);
}

/* A numeric's text split for comparison. kind orders the specials:
 * -Infinity < finite < Infinity < NaN (PostgreSQL's order). */
typedef struct numeric_parts {
    int kind; /* -1 -Infinity, 0 finite, 1 Infinity, 2 NaN */
    bool negative;
    const uint8_t *int_digits, *frac_digits;
    size_t int_len, frac_len;
} numeric_parts;

static void split_numeric(const uint8_t *p, size_t len, numeric_parts *np)
{
    memset(np, 0, sizeof *np);
    if (bytes_equal_str(p, len, "NaN")) {
        np->kind = 2;
        return;
    }
    if (bytes_equal_str(p, len, "Infinity")) {
        np->kind = 1;
        return;
    }
    if (bytes_equal_str(p, len, "-Infinity")) {
        np->kind = -1;
        return;
    }
    size_t i = 0;
    if (i < len && p[i] == '-') {
        np->negative = true;
        i++;
    }
    while (i < len && p[i] == '0')
        i++; /* leading zeros do not change the value */
    np->int_digits = p + i;
    while (i < len && is_digit((char)p[i]))
        i++;
    np->int_len = (size_t)(p + i - np->int_digits);
    if (i < len && p[i] == '.')
        i++;
    np->frac_digits = p + i;
    np->frac_len = len - i;
    while (np->frac_len > 0 && np->frac_digits[np->frac_len - 1] == '0')
        np->frac_len--; /* nor do trailing zeros of the fraction */
    if (np->int_len == 0 && np->frac_len == 0)
        np->negative = false; /* -0 == 0 */
}

static int cmp_numeric_magnitude(const numeric_parts *a, const numeric_parts *b)
{
    if (a->int_len != b->int_len)
        return a->int_len > b->int_len ? 1 : -1;
    int c = a->int_len ? memcmp(a->int_digits, b->int_digits, a->int_len) : 0;
    if (c)
        return c < 0 ? -1 : 1;
    size_t n = a->frac_len > b->frac_len ? a->frac_len : b->frac_len;
    for (size_t i = 0; i < n; i++) {
        uint8_t da = i < a->frac_len ? a->frac_digits[i] : '0';
        uint8_t db = i < b->frac_len ? b->frac_digits[i] : '0';
        if (da != db)
            return da > db ? 1 : -1;
    }
    return 0;
}

static int cmp_numeric(const rl_datum *a, const rl_datum *b)
{
    numeric_parts na, nb;
    split_numeric(a->v.s.p, a->v.s.len, &na);
    split_numeric(b->v.s.p, b->v.s.len, &nb);
    if (na.kind != nb.kind)
        return na.kind > nb.kind ? 1 : -1;
    if (na.kind != 0)
        return 0;
    if (na.negative != nb.negative)
        return na.negative ? -1 : 1;
    int c = cmp_numeric_magnitude(&na, &nb);
    return na.negative ? -c : c;
}

/* timetz_cmp_internal: by UTC instant (time + zone), then by zone. */
static int cmp_timetz(const rl_datum *a, const rl_datum *b)
{
    int64_t ua = a->v.timetz.us + (int64_t)a->v.timetz.zone * USECS_PER_SEC;
    int64_t ub = b->v.timetz.us + (int64_t)b->v.timetz.zone * USECS_PER_SEC;
    int c = cmp_i64(ua, ub);
    return c ? c : cmp_i64(a->v.timetz.zone, b->v.timetz.zone);
}

/* interval_cmp_value: PostgreSQL compares the total span with a month as
 * 30 days and a day as 24 hours, so '1 mon' = '30 days' and
 * '25 hours' > '1 day'. 128-bit so that no span overflows. */
static int cmp_interval(const rl_datum *a, const rl_datum *b)
{
    __int128 sa = ((__int128)a->v.interval.months * 30 + a->v.interval.days) * USECS_PER_DAY +
                  a->v.interval.us;
    __int128 sb = ((__int128)b->v.interval.months * 30 + b->v.interval.days) * USECS_PER_DAY +
                  b->v.interval.us;
    return (sa > sb) - (sa < sb);
}

/* rl_datum_equality_key: the bytes follow each comparison above, so that
 * two datums compare equal exactly when their keys are the same bytes. */
static void float_equality_key(rl_buf *out, double f)
{
    if (isnan(f))
        f = NAN; /* every NaN equals every other */
    else if (f == 0)
        f = 0; /* -0 == 0 */
    uint64_t bits;
    memcpy(&bits, &f, sizeof bits);
    rl_buf_put_be64(out, bits);
}

static void numeric_equality_key(rl_buf *out, const rl_datum *d)
{
    numeric_parts np;
    split_numeric(d->v.s.p, d->v.s.len, &np);
    rl_buf_put_u8(out, (uint8_t)(np.kind + 1));
    if (np.kind != 0)
        return;
    rl_buf_put_u8(out, np.negative);
    rl_buf_put(out, np.int_digits, np.int_len);
    rl_buf_put_u8(out, '.');
    rl_buf_put(out, np.frac_digits, np.frac_len);
}

void rl_datum_equality_key(rl_buf *out, rl_type t, const rl_datum *d)
{
    assert(!d->isnull);
    switch (t) {
    case RL_T_FLOAT4:
    case RL_T_FLOAT8: float_equality_key(out, d->v.f); return;
    case RL_T_NUMERIC: numeric_equality_key(out, d); return;
    case RL_T_BPCHAR: rl_buf_put(out, d->v.s.p, rl_bpchar_trimmed_len(d)); return;
    case RL_T_VARCHAR:
    case RL_T_TEXT:
    case RL_T_BYTEA: rl_buf_put(out, d->v.s.p, d->v.s.len); return;
    case RL_T_BOOL: rl_buf_put_u8(out, d->v.b); return;
    case RL_T_UUID: rl_buf_put(out, d->v.uuid, 16); return;
    case RL_T_TIMETZ:
        rl_buf_put_be64(out, (uint64_t)d->v.timetz.us);
        rl_buf_put_be32(out, (uint32_t)d->v.timetz.zone);
        return;
    case RL_T_INTERVAL: {
        __int128 span = ((__int128)d->v.interval.months * 30 + d->v.interval.days) *
                            USECS_PER_DAY + d->v.interval.us;
        rl_buf_put_be64(out, (uint64_t)(span >> 64));
        rl_buf_put_be64(out, (uint64_t)span);
        return;
    }
    default: rl_buf_put_be64(out, (uint64_t)d->v.i); return;
    }
}

int rl_datum_compare(rl_type t, const rl_datum *a, const rl_datum *b)
{
    switch (t) {
    case RL_T_FLOAT4:
    case RL_T_FLOAT8: return cmp_float(a->v.f, b->v.f);
    case RL_T_NUMERIC: return cmp_numeric(a, b);
    case RL_T_BPCHAR:
        return cmp_bytes(a->v.s.p, rl_bpchar_trimmed_len(a), b->v.s.p, rl_bpchar_trimmed_len(b));
    case RL_T_VARCHAR:
    case RL_T_TEXT:
    case RL_T_BYTEA: return cmp_bytes(a->v.s.p, a->v.s.len, b->v.s.p, b->v.s.len);
    case RL_T_BOOL: return (int)a->v.b - (int)b->v.b;
    case RL_T_UUID: return cmp_bytes(a->v.uuid, 16, b->v.uuid, 16);
    case RL_T_TIMETZ: return cmp_timetz(a, b);
    case RL_T_INTERVAL: return cmp_interval(a, b);
    case RL_T_INT8:
    case RL_T_INT4:
    case RL_T_INT2:
    case RL_T_DATE:
    case RL_T_TIME:
    case RL_T_TIMESTAMP:
    case RL_T_TIMESTAMPTZ: return cmp_i64(a->v.i, b->v.i);
    default: return 0;
    }
}
