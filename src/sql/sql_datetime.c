/*
 * sql_datetime.c — date/time arithmetic and functions as PostgreSQL 15
 * computes them (timestamp.c, date.c): the operators date ± integer, date −
 * date, date/timestamp[tz] ± interval, timestamp − timestamp, interval ±
 * interval, interval × / number, unary minus; and the function table's
 * date_trunc, date_part / extract, age, to_timestamp, make_date,
 * make_timestamp, justify_days / hours / interval, isfinite, timezone (AT
 * TIME ZONE), to_char of dates, timestamps and intervals and its reverse
 * to_timestamp(text, text) / to_date(text, text) (the patterns:
 * pgtype/dtfmt.c).
 *
 * Values: date = days since 2000-01-01, timestamp[tz] = microseconds since
 * 2000-01-01 (UTC for tz), interval = {months, days, microseconds}; the
 * infinities are INT32_MAX/MIN (date) and INT64_MAX/MIN (timestamps).
 * timestamptz works in the session's zone (tzif.h, rl_tz_current) where
 * PostgreSQL does: its fields, date_trunc, adding months and days (in local
 * time, across DST), to_char; an absolute amount of time is added as is.
 *
 * Invariants: a finite result outside PostgreSQL's range is 22008
 * "timestamp out of range" / "date out of range", an interval field out of
 * its int32 / int64 range 22008 "interval out of range"; infinities pass
 * through the functions PostgreSQL passes them through.
 */
#include <assert.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>

#include "pgtype/pgtype.h"
#include "pgtype/tzif.h"
#include "pgtype/dtfmt.h"
#include "sql/sql_datetime.h"
#include "sql/sql_numeric.h"
#include "sql/sql_value.h"

#define USECS_PER_SEC INT64_C(1000000)
#define USECS_PER_MIN (60 * USECS_PER_SEC)
#define USECS_PER_HOUR (60 * USECS_PER_MIN)
#define USECS_PER_DAY (24 * USECS_PER_HOUR)
#define DAYS_PER_MONTH 30
#define SECS_PER_DAY 86400
#define EPOCH_1970_US (INT64_C(10957) * USECS_PER_DAY) /* 2000 - 1970 */

/* ------------------------------------------------------------ helpers */

static int64_t floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

static bool ts_finite(int64_t us) { return us != INT64_MAX && us != INT64_MIN; }
static bool date_finite(int64_t d) { return d != INT32_MAX && d != INT32_MIN; }

typedef struct tsparts {
    int64_t year;
    int mon, mday, hour, min, sec;
    int64_t usec;
} tsparts;

static void ts_split(int64_t us, tsparts *p)
{
    int64_t days = floor_div(us, USECS_PER_DAY), t = us - days * USECS_PER_DAY;
    rl_date_to_ymd(days, &p->year, &p->mon, &p->mday);
    p->hour = (int)(t / USECS_PER_HOUR);
    t %= USECS_PER_HOUR;
    p->min = (int)(t / USECS_PER_MIN);
    t %= USECS_PER_MIN;
    p->sec = (int)(t / USECS_PER_SEC);
    p->usec = t % USECS_PER_SEC;
}

/* The timestamp of p; false when past PostgreSQL's range. */
static bool ts_join(const tsparts *p, int64_t *us)
{
    if (p->year > 300000 || p->year < -300000)
        return false;
    int64_t days = rl_ymd_to_date(p->year, p->mon, p->mday);
    __int128 v = (__int128)days * USECS_PER_DAY + (__int128)p->hour * USECS_PER_HOUR +
                 (__int128)p->min * USECS_PER_MIN + (__int128)p->sec * USECS_PER_SEC + p->usec;
    if (v < INT64_MIN || v > INT64_MAX || !rl_timestamp_in_range((int64_t)v))
        return false;
    *us = (int64_t)v;
    return true;
}

static int ts_range_error(rl_expr_ctx *c)
{
    return rl_exec_error(c->x, RL_SQLSTATE_DATETIME_FIELD_OVERFLOW, -1,
                         "timestamp out of range");
}

static int interval_range_error(rl_expr_ctx *c)
{
    return rl_exec_error(c->x, RL_SQLSTATE_DATETIME_FIELD_OVERFLOW, -1,
                         "interval out of range");
}

static void put_ts(rl_value *out, uint32_t oid, int64_t us)
{
    rl_val_int(out, oid, us);
}

static void put_interval(rl_value *out, int32_t months, int32_t days, int64_t us)
{
    memset(out, 0, sizeof *out);
    out->oid = RL_OID_INTERVAL;
    out->typmod = -1;
    out->d.v.interval.months = months;
    out->d.v.interval.days = days;
    out->d.v.interval.us = us;
}

/* timestamp + interval (timestamp_pl_interval): months with the day of
 * month clamped to the month's length, then days, then the time. */
static int ts_plus_interval(rl_expr_ctx *c, int64_t ts, int32_t months, int32_t days, int64_t us,
                            const rl_tz *tz, int64_t *out)
{
    if (!ts_finite(ts)) {
        *out = ts;
        return 0;
    }
    /* timestamptz (tz set): months and days move the wall clock of the
     * session's zone, each step's offset decided anew (timestamptz_pl_interval) */
    if (months) {
        tsparts p;
        if (tz)
            ts = rl_tz_utc_to_local_us(tz, ts, NULL);
        ts_split(ts, &p);
        int64_t m = (int64_t)p.mon - 1 + months;
        p.year += floor_div(m, 12);
        p.mon = (int)(m - floor_div(m, 12) * 12) + 1;
        int dim = rl_days_in_month(p.year, p.mon);
        if (p.mday > dim)
            p.mday = dim;
        if (!ts_join(&p, &ts))
            return ts_range_error(c);
        if (tz)
            ts = rl_tz_local_to_utc_us(tz, ts, NULL);
    }
    if (days) {
        tsparts p;
        if (tz)
            ts = rl_tz_utc_to_local_us(tz, ts, NULL);
        ts_split(ts, &p);
        int64_t t = ts - floor_div(ts, USECS_PER_DAY) * USECS_PER_DAY;
        int64_t d = rl_ymd_to_date(p.year, p.mon, p.mday) + days;
        __int128 v = (__int128)d * USECS_PER_DAY + t;
        if (v < INT64_MIN || v > INT64_MAX || !rl_timestamp_in_range((int64_t)v))
            return ts_range_error(c);
        ts = (int64_t)v;
        if (tz)
            ts = rl_tz_local_to_utc_us(tz, ts, NULL);
    }
    if (__builtin_add_overflow(ts, us, &ts) || !rl_timestamp_in_range(ts))
        return ts_range_error(c);
    *out = ts;
    return 0;
}

/* interval_justify_hours: whole days out of the time part, signs agreeing. */
static void justify_hours(int32_t *days, int64_t *us)
{
    int64_t wd = *us / USECS_PER_DAY;
    *us -= wd * USECS_PER_DAY;
    *days += (int32_t)wd;
    if (*days > 0 && *us < 0) {
        *us += USECS_PER_DAY;
        (*days)--;
    } else if (*days < 0 && *us > 0) {
        *us -= USECS_PER_DAY;
        (*days)++;
    }
}

static double tsround(double j) { return rint(j * 1000000.0) / 1000000.0; }

/* interval * factor (interval_mul) and interval / factor (interval_div):
 * whole months and days first, their fractions cascaded down. */
static int interval_scale(rl_expr_ctx *c, const rl_value *iv, double factor, bool divide,
                          rl_value *out)
{
    if (divide && factor == 0)
        return rl_exec_error(c->x, RL_SQLSTATE_DIVISION_BY_ZERO, -1, "division by zero");
    int32_t om = iv->d.v.interval.months, od = iv->d.v.interval.days;
    int64_t ot = iv->d.v.interval.us;
    double fm = divide ? om / factor : om * factor, fd = divide ? od / factor : od * factor;
    if (isnan(fm) || fm > INT32_MAX || fm < INT32_MIN || isnan(fd) || fd > INT32_MAX ||
        fd < INT32_MIN)
        return interval_range_error(c);
    int32_t months = (int32_t)fm, days = (int32_t)fd;
    double month_rem_days = tsround((fm - months) * DAYS_PER_MONTH);
    double sec_rem = tsround((fd - days + month_rem_days - (int)month_rem_days) * SECS_PER_DAY);
    if (fabs(sec_rem) >= SECS_PER_DAY) {
        days += (int32_t)(sec_rem / SECS_PER_DAY);
        sec_rem -= (int)(sec_rem / SECS_PER_DAY) * SECS_PER_DAY;
    }
    days += (int32_t)month_rem_days;
    double t = rint((divide ? ot / factor : ot * factor) + sec_rem * USECS_PER_SEC);
    if (isnan(t) || t >= 9223372036854775808.0 || t < -9223372036854775808.0)
        return interval_range_error(c);
    put_interval(out, months, days, (int64_t)t);
    return 0;
}

static bool is_datetime(uint32_t oid)
{
    return oid == RL_OID_DATE || oid == RL_OID_TIMESTAMP || oid == RL_OID_TIMESTAMPTZ ||
           oid == RL_OID_INTERVAL || oid == RL_OID_TIME || oid == RL_OID_TIMETZ;
}

/* A time of day moved by `us` and wrapped into [0, 24h) (time_pl_interval:
 * an interval's months and days do not move a time). */
static int64_t time_wrap(int64_t t, int64_t us)
{
    int64_t r = t + us % USECS_PER_DAY;
    r %= USECS_PER_DAY;
    return r < 0 ? r + USECS_PER_DAY : r;
}

/* The operators on times of day, PostgreSQL's date_pl_time, timedate_pl,
 * datetimetz_pl, timetzdate_pl, time_pl_interval, interval_pl_time,
 * time_mi_interval, time_mi_time, timetz_pl_interval, timetz_mi_interval;
 * and date - time, which PostgreSQL reads as date - interval (time casts
 * to interval implicitly). 1 when none applies. */
static int time_op(rl_expr_ctx *c, char op, const rl_value *a, const rl_value *b, rl_value *out)
{
    uint32_t ta = a->oid, tb = b->oid, rt = 0;
    bool plus = op == '+';
    if (plus && ((ta == RL_OID_DATE && tb == RL_OID_TIME) || (ta == RL_OID_TIME && tb == RL_OID_DATE)))
        rt = RL_OID_TIMESTAMP;
    else if (plus && ((ta == RL_OID_DATE && tb == RL_OID_TIMETZ) ||
                      (ta == RL_OID_TIMETZ && tb == RL_OID_DATE)))
        rt = RL_OID_TIMESTAMPTZ;
    else if ((ta == RL_OID_TIME || ta == RL_OID_TIMETZ) && tb == RL_OID_INTERVAL)
        rt = ta;
    else if (plus && ta == RL_OID_INTERVAL && (tb == RL_OID_TIME || tb == RL_OID_TIMETZ))
        rt = tb;
    else if (!plus && ta == RL_OID_TIME && tb == RL_OID_TIME)
        rt = RL_OID_INTERVAL;
    else if (!plus && ta == RL_OID_DATE && tb == RL_OID_TIME)
        rt = RL_OID_TIMESTAMP;
    if (!rt)
        return 1;
    if (a->d.isnull || b->d.isnull) {
        rl_val_null(out, rt);
        return 0;
    }
    if (rt == RL_OID_INTERVAL) {
        put_interval(out, 0, 0, a->d.v.i - b->d.v.i);
        return 0;
    }
    if (rt == RL_OID_TIMESTAMP || rt == RL_OID_TIMESTAMPTZ) {
        const rl_value *d = ta == RL_OID_DATE ? a : b, *t = ta == RL_OID_DATE ? b : a;
        int64_t day = d->d.v.i, tod = rt == RL_OID_TIMESTAMPTZ ? t->d.v.timetz.us : t->d.v.i;
        if (!date_finite(day)) {
            put_ts(out, rt, day < 0 ? INT64_MIN : INT64_MAX);
            return 0;
        }
        int64_t r = day * USECS_PER_DAY + (plus ? tod : -tod);
        if (rt == RL_OID_TIMESTAMPTZ)
            r += (int64_t)t->d.v.timetz.zone * 1000000; /* zone: seconds west */
        if (!rl_timestamp_in_range(r))
            return ts_range_error(c);
        put_ts(out, rt, r);
        return 0;
    }
    const rl_value *t = ta == RL_OID_INTERVAL ? b : a, *iv = ta == RL_OID_INTERVAL ? a : b;
    int64_t span = plus ? iv->d.v.interval.us : -iv->d.v.interval.us;
    *out = *t;
    if (rt == RL_OID_TIME)
        out->d.v.i = time_wrap(t->d.v.i, span);
    else
        out->d.v.timetz.us = time_wrap(t->d.v.timetz.us, span);
    return 0;
}

/* ----------------------------------------------------------- operators */

int rl_datetime_op(rl_expr_ctx *c, char op, rl_value *a, rl_value *b, rl_value *out, int loc)
{
    if (!is_datetime(a->oid) && !is_datetime(b->oid))
        return 1;
    /* an unknown literal beside a date/time: an interval after + (and after
     * - of an interval), the other side's type after - , a number beside
     * an interval in * and / (PostgreSQL's operator candidates) */
    for (int side = 0; side < 2; side++) {
        rl_value *u = side ? b : a, *k = side ? a : b;
        if (u->oid != RL_OID_UNKNOWN)
            continue;
        uint32_t want = op == '*' || op == '/' ? RL_OID_FLOAT8
                        : op == '+' || k->oid == RL_OID_INTERVAL ? RL_OID_INTERVAL
                                                                 : k->oid;
        if (op == '-' && side == 0 && k->oid == RL_OID_INTERVAL)
            want = RL_OID_INTERVAL;
        if (op == '+' && k->oid == RL_OID_INTERVAL && side == 0)
            want = RL_OID_TIMESTAMP; /* unknown + interval: timestamp + interval */
        if (rl_value_coerce(c, u, want, -1, false, u, loc) < 0)
            return -1;
    }
    if (op == '+' || op == '-') {
        int r = time_op(c, op, a, b, out);
        if (r <= 0)
            return r;
    }
    uint32_t ta = a->oid, tb = b->oid;
    bool a_num = rl_oid_is_number(ta), b_num = rl_oid_is_number(tb);
    /* the result type first: NULL in, NULL of it out */
    uint32_t rt = 0;
    if (op == '+' || op == '-') {
        if (ta == RL_OID_DATE && (tb == RL_OID_INT4 || tb == RL_OID_INT2 || tb == RL_OID_INT8))
            rt = tb == RL_OID_INT8 ? 0 : RL_OID_DATE;
        else if (op == '+' && tb == RL_OID_DATE && (ta == RL_OID_INT4 || ta == RL_OID_INT2))
            rt = RL_OID_DATE;
        else if (op == '-' && ta == RL_OID_DATE && tb == RL_OID_DATE)
            rt = RL_OID_INT4;
        else if ((ta == RL_OID_DATE || ta == RL_OID_TIMESTAMP) && tb == RL_OID_INTERVAL)
            rt = RL_OID_TIMESTAMP;
        else if (ta == RL_OID_TIMESTAMPTZ && tb == RL_OID_INTERVAL)
            rt = RL_OID_TIMESTAMPTZ;
        else if (op == '+' && ta == RL_OID_INTERVAL &&
                 (tb == RL_OID_DATE || tb == RL_OID_TIMESTAMP || tb == RL_OID_TIMESTAMPTZ))
            rt = tb == RL_OID_TIMESTAMPTZ ? RL_OID_TIMESTAMPTZ : RL_OID_TIMESTAMP;
        else if (ta == RL_OID_INTERVAL && tb == RL_OID_INTERVAL)
            rt = RL_OID_INTERVAL;
        else if (op == '-' && (ta == RL_OID_TIMESTAMP || ta == RL_OID_TIMESTAMPTZ) && tb == ta)
            rt = RL_OID_INTERVAL;
        else if (op == '-' && rl_oid_is_timestamp(ta) && rl_oid_is_timestamp(tb))
            rt = RL_OID_INTERVAL; /* mixed: as timestamptz / timestamp */
    } else if (op == '*' && ((ta == RL_OID_INTERVAL && b_num) || (a_num && tb == RL_OID_INTERVAL))) {
        rt = RL_OID_INTERVAL;
    } else if (op == '/' && ta == RL_OID_INTERVAL && b_num) {
        rt = RL_OID_INTERVAL;
    }
    if (!rt) {
        char opname[2] = {op, 0};
        return rl_exec_error(c->x, RL_SQLSTATE_UNDEFINED_FUNCTION, loc,
                             "operator does not exist: %s %s %s", rl_oid_type_name(ta), opname,
                             rl_oid_type_name(tb)),
               rl_error_hint(c->x->err, "No operator matches the given name and argument types. "
                                        "You might need to add explicit type casts."),
               -1;
    }
    if (a->d.isnull || b->d.isnull) {
        rl_val_null(out, rt);
        return 0;
    }
    int sign = op == '-' ? -1 : 1;
    if (rt == RL_OID_DATE) {
        int64_t d = ta == RL_OID_DATE ? a->d.v.i : b->d.v.i;
        int64_t k = ta == RL_OID_DATE ? b->d.v.i : a->d.v.i;
        if (!date_finite(d)) {
            rl_val_int(out, RL_OID_DATE, d);
            return 0;
        }
        int64_t r = d + sign * k;
        if (!rl_date_in_range(r))
            return rl_exec_error(c->x, RL_SQLSTATE_DATETIME_FIELD_OVERFLOW, -1,
                                 "date out of range");
        rl_val_int(out, RL_OID_DATE, r);
        return 0;
    }
    if (rt == RL_OID_INT4) { /* date - date */
        if (!date_finite(a->d.v.i) || !date_finite(b->d.v.i))
            return rl_exec_error(c->x, RL_SQLSTATE_DATETIME_FIELD_OVERFLOW, -1,
                                 "cannot subtract infinite dates");
        rl_val_int(out, RL_OID_INT4, a->d.v.i - b->d.v.i);
        return 0;
    }
    if (rt == RL_OID_INTERVAL && ta == RL_OID_INTERVAL && tb == RL_OID_INTERVAL) {
        int64_t m = (int64_t)a->d.v.interval.months + sign * (int64_t)b->d.v.interval.months;
        int64_t d = (int64_t)a->d.v.interval.days + sign * (int64_t)b->d.v.interval.days;
        int64_t t;
        bool ovf = op == '+' ? __builtin_add_overflow(a->d.v.interval.us, b->d.v.interval.us, &t)
                             : __builtin_sub_overflow(a->d.v.interval.us, b->d.v.interval.us, &t);
        if (ovf || m > INT32_MAX || m < INT32_MIN || d > INT32_MAX || d < INT32_MIN)
            return interval_range_error(c);
        put_interval(out, (int32_t)m, (int32_t)d, t);
        return 0;
    }
    if (rt == RL_OID_INTERVAL && (op == '*' || op == '/')) {
        const rl_value *iv = ta == RL_OID_INTERVAL ? a : b, *f = ta == RL_OID_INTERVAL ? b : a;
        rl_value f8;
        if (rl_number_convert(c, f, RL_OID_FLOAT8, &f8, loc) < 0)
            return -1;
        return interval_scale(c, iv, f8.d.v.f, op == '/', out);
    }
    if (rt == RL_OID_INTERVAL) { /* timestamp - timestamp */
        int64_t x = rl_ts_micros(a), y = rl_ts_micros(b), t;
        if (ta != tb && ta == RL_OID_TIMESTAMPTZ) /* timestamptz - timestamp: as timestamptz */
            y = rl_tz_local_to_utc_us(rl_tz_current(), y, NULL);
        else if (ta != tb && tb == RL_OID_TIMESTAMPTZ)
            x = rl_tz_local_to_utc_us(rl_tz_current(), x, NULL);
        if (!ts_finite(x) || !ts_finite(y))
            return rl_exec_error(c->x, RL_SQLSTATE_DATETIME_FIELD_OVERFLOW, -1,
                                 "cannot subtract infinite timestamps");
        if (__builtin_sub_overflow(x, y, &t))
            return interval_range_error(c);
        int32_t days = 0;
        justify_hours(&days, &t);
        put_interval(out, 0, days, t);
        return 0;
    }
    /* date/timestamp ± interval */
    const rl_value *tsv = ta == RL_OID_INTERVAL ? b : a, *iv = ta == RL_OID_INTERVAL ? a : b;
    int64_t r = 0;
    if (ts_plus_interval(c, rl_ts_micros(tsv), sign * iv->d.v.interval.months,
                         sign * iv->d.v.interval.days, sign * iv->d.v.interval.us,
                         rt == RL_OID_TIMESTAMPTZ ? rl_tz_current() : NULL, &r) < 0)
        return -1;
    put_ts(out, rt, r);
    return 0;
}

int rl_interval_negate(rl_expr_ctx *c, const rl_value *iv, rl_value *out)
{
    if (iv->d.isnull) {
        *out = *iv;
        return 0;
    }
    if (iv->d.v.interval.months == INT32_MIN || iv->d.v.interval.days == INT32_MIN ||
        iv->d.v.interval.us == INT64_MIN)
        return interval_range_error(c);
    put_interval(out, -iv->d.v.interval.months, -iv->d.v.interval.days, -iv->d.v.interval.us);
    return 0;
}

/* ------------------------------------------------------------- fields */

typedef enum dt_unit {
    U_NONE, U_MICROSECONDS, U_MILLISECONDS, U_SECOND, U_MINUTE, U_HOUR, U_DAY, U_WEEK, U_MONTH,
    U_QUARTER, U_YEAR, U_DECADE, U_CENTURY, U_MILLENNIUM, U_DOW, U_ISODOW, U_DOY, U_EPOCH,
    U_ISOYEAR, U_JULIAN, U_TIMEZONE, U_TIMEZONE_H, U_TIMEZONE_M
} dt_unit;

static const struct {
    const char *name;
    dt_unit unit;
} unit_names[] = {
    {"microsecond", U_MICROSECONDS}, {"microseconds", U_MICROSECONDS}, {"us", U_MICROSECONDS},
    {"usec", U_MICROSECONDS},        {"usecs", U_MICROSECONDS},        {"useconds", U_MICROSECONDS},
    {"millisecond", U_MILLISECONDS}, {"milliseconds", U_MILLISECONDS}, {"ms", U_MILLISECONDS},
    {"msec", U_MILLISECONDS},        {"msecs", U_MILLISECONDS},        {"mseconds", U_MILLISECONDS},
    {"second", U_SECOND},            {"seconds", U_SECOND},            {"s", U_SECOND},
    {"sec", U_SECOND},               {"secs", U_SECOND},               {"minute", U_MINUTE},
    {"minutes", U_MINUTE},           {"m", U_MINUTE},                  {"min", U_MINUTE},
    {"mins", U_MINUTE},              {"hour", U_HOUR},                 {"hours", U_HOUR},
    {"h", U_HOUR},                   {"hr", U_HOUR},                   {"hrs", U_HOUR},
    {"day", U_DAY},                  {"days", U_DAY},                  {"d", U_DAY},
    {"week", U_WEEK},                {"weeks", U_WEEK},                {"w", U_WEEK},
    {"month", U_MONTH},              {"months", U_MONTH},              {"mon", U_MONTH},
    {"mons", U_MONTH},               {"quarter", U_QUARTER},           {"qtr", U_QUARTER},
    {"year", U_YEAR},                {"years", U_YEAR},                {"y", U_YEAR},
    {"yr", U_YEAR},                  {"yrs", U_YEAR},                  {"decade", U_DECADE},
    {"decades", U_DECADE},           {"dec", U_DECADE},                {"decs", U_DECADE},
    {"century", U_CENTURY},          {"centuries", U_CENTURY},         {"c", U_CENTURY},
    {"cent", U_CENTURY},             {"millennium", U_MILLENNIUM},     {"millennia", U_MILLENNIUM},
    {"mil", U_MILLENNIUM},           {"mils", U_MILLENNIUM},           {"millenniums", U_MILLENNIUM},
    {"dow", U_DOW},                  {"isodow", U_ISODOW},             {"doy", U_DOY},
    {"epoch", U_EPOCH},              {"isoyear", U_ISOYEAR},           {"julian", U_JULIAN},
    {"j", U_JULIAN},                 {"timezone", U_TIMEZONE},         {"timezone_h", U_TIMEZONE_H},
    {"timezone_m", U_TIMEZONE_M},
};

/* A unit's name as PostgreSQL reads it (lower-cased, a trailing 's' of the
 * plural known, only its first 10 characters compared, as DecodeUnits'
 * TOKMAXLEN: 'timezone_hour' is timezone_h), NONE when unknown; the
 * lower-cased text into buf. */
static dt_unit unit_of(const rl_value *v, char *buf, size_t n)
{
    size_t len = v->d.v.s.len < n - 1 ? v->d.v.s.len : n - 1;
    for (size_t i = 0; i < len; i++)
        buf[i] = (char)tolower(v->d.v.s.p[i]);
    buf[len] = 0;
    for (size_t i = 0; i < sizeof unit_names / sizeof unit_names[0]; i++)
        if (strncmp(unit_names[i].name, buf, 10) == 0)
            return unit_names[i].unit;
    return U_NONE;
}

static int unit_error(rl_expr_ctx *c, dt_unit u, const char *name, uint32_t type)
{
    if (u == U_NONE)
        return rl_exec_error(c->x, RL_SQLSTATE_INVALID_PARAMETER_VALUE, -1,
                             "unit \"%s\" not recognized for type %s", name,
                             rl_oid_type_name(type));
    return rl_exec_error(c->x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                         "unit \"%s\" not supported for type %s", name, rl_oid_type_name(type));
}

static int64_t weekday_monday0(int64_t days);

/* ISO 8601 week: the Monday of week 1 of isoyear y (the week of Jan 4). */
static int64_t iso_week1_monday(int64_t y)
{
    int64_t jan4 = rl_ymd_to_date(y, 1, 4);
    return jan4 - weekday_monday0(jan4);
}

static int64_t weekday_monday0(int64_t days) { return ((days % 7) + 7 + 5) % 7; }

static void iso_week(int64_t days, int64_t *isoyear, int *week)
{
    int64_t y;
    int m, d;
    rl_date_to_ymd(days, &y, &m, &d);
    int64_t start = iso_week1_monday(y + 1);
    if (days >= start) {
        y++;
    } else {
        start = iso_week1_monday(y);
        if (days < start)
            start = iso_week1_monday(--y);
    }
    *isoyear = y;
    *week = (int)((days - start) / 7 + 1);
}

/* ------------------------------------------------------------ date_trunc */

static int zone_of(rl_expr_ctx *c, const rl_value *z, const rl_tz **tz, int32_t *east);

static int trunc_ts(rl_expr_ctx *c, dt_unit u, const char *name, uint32_t type, int64_t ts,
                    int64_t *out)
{
    if (!ts_finite(ts)) {
        *out = ts;
        return 0;
    }
    tsparts p;
    ts_split(ts, &p);
    switch (u) {
    case U_MILLENNIUM:
        p.year = p.year > 0 ? ((p.year + 999) / 1000) * 1000 - 999
                            : -((999 - (p.year - 1)) / 1000) * 1000 + 1;
        p.mon = p.mday = 1;
        p.hour = p.min = p.sec = 0;
        p.usec = 0;
        break;
    case U_CENTURY:
        p.year = p.year > 0 ? ((p.year + 99) / 100) * 100 - 99 : -((99 - (p.year - 1)) / 100) * 100 + 1;
        p.mon = p.mday = 1;
        p.hour = p.min = p.sec = 0;
        p.usec = 0;
        break;
    case U_DECADE:
        p.year = p.year > 0 ? (p.year / 10) * 10 : -((8 - (p.year - 1)) / 10) * 10;
        p.mon = p.mday = 1;
        p.hour = p.min = p.sec = 0;
        p.usec = 0;
        break;
    case U_YEAR: p.mon = 1; /* fall through */
    case U_QUARTER:
        if (u == U_QUARTER)
            p.mon = 3 * ((p.mon - 1) / 3) + 1;
        /* fall through */
    case U_MONTH: p.mday = 1; /* fall through */
    case U_DAY: p.hour = 0; /* fall through */
    case U_HOUR: p.min = 0; /* fall through */
    case U_MINUTE: p.sec = 0; /* fall through */
    case U_SECOND: p.usec = 0; break;
    case U_MILLISECONDS: p.usec = (p.usec / 1000) * 1000; break;
    case U_MICROSECONDS: break;
    case U_WEEK: {
        int64_t days = floor_div(ts, USECS_PER_DAY);
        *out = (days - weekday_monday0(days)) * USECS_PER_DAY;
        if (!rl_timestamp_in_range(*out))
            return ts_range_error(c);
        return 0;
    }
    default: return unit_error(c, u, name, type);
    }
    if (!ts_join(&p, out))
        return ts_range_error(c);
    return 0;
}

int rl_fn_date_trunc(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    char name[64];
    dt_unit u = unit_of(&a[0], name, sizeof name);
    /* date_trunc(unit, timestamptz, zone): truncated on that zone's wall
     * clock (timestamptz_trunc_zone), the zone looked up first */
    const rl_tz *tzone = rl_tz_current();
    int32_t fixed = 0;
    if (n > 2 && zone_of(c, &a[2], &tzone, &fixed) < 0)
        return -1;
    if (a[1].oid == RL_OID_INTERVAL) {
        if (u == U_NONE || u == U_WEEK || u > U_MILLENNIUM)
            return u == U_WEEK ? rl_exec_error(c->x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                                               "unit \"%s\" not supported for type interval",
                                               name)
                               : unit_error(c, u, name, RL_OID_INTERVAL);
        int32_t months = a[1].d.v.interval.months, days = a[1].d.v.interval.days;
        int64_t t = a[1].d.v.interval.us;
        switch (u) {
        case U_MILLENNIUM: months = months / 12000 * 12000; days = 0; t = 0; break;
        case U_CENTURY: months = months / 1200 * 1200; days = 0; t = 0; break;
        case U_DECADE: months = months / 120 * 120; days = 0; t = 0; break;
        case U_YEAR: months = months / 12 * 12; days = 0; t = 0; break;
        case U_QUARTER: months = months / 3 * 3; days = 0; t = 0; break;
        case U_MONTH: days = 0; t = 0; break;
        case U_DAY: t = 0; break;
        case U_HOUR: t = t / USECS_PER_HOUR * USECS_PER_HOUR; break;
        case U_MINUTE: t = t / USECS_PER_MIN * USECS_PER_MIN; break;
        case U_SECOND: t = t / USECS_PER_SEC * USECS_PER_SEC; break;
        case U_MILLISECONDS: t = t / 1000 * 1000; break;
        default: break;
        }
        put_interval(out, months, days, t);
        return 0;
    }
    int64_t r = 0, ts = a[1].d.v.i;
    int32_t east = fixed;
    bool tz = a[1].oid == RL_OID_TIMESTAMPTZ && ts_finite(ts);
    if (tz) /* truncated on the session zone's wall clock (timestamptz_trunc) */
        ts = tzone ? rl_tz_utc_to_local_us(tzone, ts, &east) : ts + fixed * USECS_PER_SEC;
    if (trunc_ts(c, u, name, a[1].oid, ts, &r) < 0)
        return -1;
    if (tz) {
        /* a day or more: the offset of the truncated time; less: the
         * offset the value had (so 02:00 of a fall-back day stays apart) */
        bool redo = tzone && u != U_HOUR && u != U_MINUTE && u != U_SECOND &&
                    u != U_MILLISECONDS && u != U_MICROSECONDS;
        r = redo ? rl_tz_local_to_utc_us(tzone, r, NULL) : r - east * USECS_PER_SEC;
        if (!rl_timestamp_in_range(r))
            return ts_range_error(c);
    }
    put_ts(out, a[1].oid, r);
    return 0;
}

/* ------------------------------------------------------ extract / date_part */

/* The field as numeric text: an integer, or value / 10^scale with `scale`
 * digits after the point (PostgreSQL 14's extract returns numeric). */
static void field_text(char *buf, size_t n, int64_t value, int scale)
{
    if (scale == 0) {
        snprintf(buf, n, "%lld", (long long)value);
        return;
    }
    int64_t p10 = 1;
    for (int i = 0; i < scale; i++)
        p10 *= 10;
    uint64_t mag = value < 0 ? 0 - (uint64_t)value : (uint64_t)value;
    snprintf(buf, n, "%s%llu.%0*llu", value < 0 ? "-" : "", (unsigned long long)(mag / p10),
             scale, (unsigned long long)(mag % p10));
}

/* A field of a timestamp (timestamptz with zone UTC) or date: its value
 * scaled by 10^*scale. */
static int ts_field(rl_expr_ctx *c, dt_unit u, const char *name, uint32_t type, int64_t ts,
                    int64_t *value, int *scale)
{
    tsparts p;
    int32_t east = 0;
    int64_t utc = ts;
    if (type == RL_OID_TIMESTAMPTZ) /* the fields of the session zone's wall clock */
        ts = rl_tz_utc_to_local_us(rl_tz_current(), ts, &east);
    ts_split(ts, &p);
    int64_t days = floor_div(ts, USECS_PER_DAY);
    *scale = 0;
    bool is_date = type == RL_OID_DATE;
    switch (u) {
    case U_MICROSECONDS:
        if (is_date)
            break;
        *value = p.sec * USECS_PER_SEC + p.usec;
        return 0;
    case U_MILLISECONDS:
        if (is_date)
            break;
        *value = p.sec * USECS_PER_SEC + p.usec;
        *scale = 3;
        return 0;
    case U_SECOND:
        if (is_date)
            break;
        *value = p.sec * USECS_PER_SEC + p.usec;
        *scale = 6;
        return 0;
    case U_MINUTE:
        if (is_date)
            break;
        *value = p.min;
        return 0;
    case U_HOUR:
        if (is_date)
            break;
        *value = p.hour;
        return 0;
    case U_DAY: *value = p.mday; return 0;
    case U_MONTH: *value = p.mon; return 0;
    case U_QUARTER: *value = (p.mon - 1) / 3 + 1; return 0;
    case U_YEAR: *value = p.year > 0 ? p.year : p.year - 1; return 0;
    case U_DECADE: *value = p.year >= 0 ? p.year / 10 : -((8 - (p.year - 1)) / 10); return 0;
    case U_CENTURY:
        *value = p.year > 0 ? (p.year + 99) / 100 : -((99 - (p.year - 1)) / 100);
        return 0;
    case U_MILLENNIUM:
        *value = p.year > 0 ? (p.year + 999) / 1000 : -((999 - (p.year - 1)) / 1000);
        return 0;
    case U_DOW: *value = (weekday_monday0(days) + 1) % 7; return 0;
    case U_ISODOW: *value = weekday_monday0(days) + 1; return 0;
    case U_DOY: *value = days - rl_ymd_to_date(p.year, 1, 1) + 1; return 0;
    case U_WEEK: {
        int64_t iy;
        int w;
        iso_week(days, &iy, &w);
        *value = w;
        return 0;
    }
    case U_ISOYEAR: {
        int64_t iy;
        int w;
        iso_week(days, &iy, &w);
        *value = iy > 0 ? iy : iy - 1;
        return 0;
    }
    case U_EPOCH:
        if (is_date) {
            *value = (days - 0) * SECS_PER_DAY + INT64_C(946684800);
            return 0;
        }
        *value = utc + EPOCH_1970_US;
        *scale = 6;
        return 0;
    case U_TIMEZONE:
    case U_TIMEZONE_H:
    case U_TIMEZONE_M:
        if (type != RL_OID_TIMESTAMPTZ)
            break;
        *value = u == U_TIMEZONE ? east : u == U_TIMEZONE_H ? east / 3600 : east / 60 % 60;
        return 0;
    default: break;
    }
    return unit_error(c, u, name, type);
}

/* A field of an interval (interval_part). */
static int interval_field(rl_expr_ctx *c, dt_unit u, const char *name, const rl_value *iv,
                          int64_t *value, int *scale)
{
    int32_t months = iv->d.v.interval.months, days = iv->d.v.interval.days;
    int64_t t = iv->d.v.interval.us;
    *scale = 0;
    switch (u) {
    case U_MICROSECONDS: *value = t % USECS_PER_MIN; return 0;
    case U_MILLISECONDS: *value = t % USECS_PER_MIN; *scale = 3; return 0;
    case U_SECOND: *value = t % USECS_PER_MIN; *scale = 6; return 0;
    case U_MINUTE: *value = t / USECS_PER_MIN % 60; return 0;
    case U_HOUR: *value = t / USECS_PER_HOUR; return 0;
    case U_DAY: *value = days; return 0;
    case U_MONTH: *value = months % 12; return 0;
    case U_QUARTER: *value = (months % 12) / 3 + 1; return 0;
    case U_YEAR: *value = months / 12; return 0;
    case U_DECADE: *value = months / 120; return 0;
    case U_CENTURY: *value = months / 1200; return 0;
    case U_MILLENNIUM: *value = months / 12000; return 0;
    case U_EPOCH: {
        /* 365.25 days a year, 30 a month, as interval_part (in quarter
         * days, so that it stays in integers) */
        __int128 secs = ((__int128)1461 * (months / 12) + (__int128)120 * (months % 12) +
                         (__int128)4 * days) * (SECS_PER_DAY / 4);
        __int128 us = secs * USECS_PER_SEC + t;
        if (us > INT64_MAX || us < INT64_MIN)
            return interval_range_error(c);
        *value = (int64_t)us;
        *scale = 6;
        return 0;
    }
    default: break;
    }
    return unit_error(c, u, name, RL_OID_INTERVAL);
}

/* A field of a time of day t (time_part, timetz_part): the wall-clock
 * fields as written; for timetz (west: its zone in seconds west of UTC, as
 * stored) also the zone's fields, east of UTC, and an epoch in UTC. */
static int time_field(rl_expr_ctx *c, dt_unit u, const char *name, uint32_t type, int64_t t,
                      int64_t west, int64_t *value, int *scale)
{
    bool tz = type == RL_OID_TIMETZ;
    *scale = 0;
    switch (u) {
    case U_MICROSECONDS: *value = t % USECS_PER_MIN; return 0;
    case U_MILLISECONDS: *value = t % USECS_PER_MIN; *scale = 3; return 0;
    case U_SECOND: *value = t % USECS_PER_MIN; *scale = 6; return 0;
    case U_MINUTE: *value = t / USECS_PER_MIN % 60; return 0;
    case U_HOUR: *value = t / USECS_PER_HOUR; return 0;
    case U_EPOCH: *value = t + west * USECS_PER_SEC; *scale = 6; return 0;
    case U_TIMEZONE:
    case U_TIMEZONE_H:
    case U_TIMEZONE_M:
        if (!tz)
            break;
        *value = u == U_TIMEZONE ? -west : u == U_TIMEZONE_H ? -west / 3600 : -west / 60 % 60;
        return 0;
    default: break;
    }
    return unit_error(c, u, name, type);
}

/* extract(field FROM x) / date_part(field, x): numeric for extract, double
 * precision for date_part (the same value). */
static int part(rl_expr_ctx *c, rl_value *a, rl_value *out, bool numeric)
{
    char name[64], buf[64];
    dt_unit u = unit_of(&a[0], name, sizeof name);
    int64_t value = 0;
    int scale = 0;
    const rl_value *x = &a[1];
    if (x->oid == RL_OID_INTERVAL) {
        if (interval_field(c, u, name, x, &value, &scale) < 0)
            return -1;
    } else if (x->oid == RL_OID_TIME || x->oid == RL_OID_TIMETZ) {
        bool tz = x->oid == RL_OID_TIMETZ;
        if (time_field(c, u, name, x->oid, tz ? x->d.v.timetz.us : x->d.v.i,
                       tz ? x->d.v.timetz.zone : 0, &value, &scale) < 0)
            return -1;
    } else {
        int64_t ts = rl_ts_micros(x);
        if (!ts_finite(ts)) {
            /* infinities: the monotonic fields are +-Infinity, the others NULL */
            bool mono = u == U_YEAR || u == U_DECADE || u == U_CENTURY || u == U_MILLENNIUM ||
                        u == U_EPOCH || u == U_ISOYEAR || u == U_JULIAN;
            if (u == U_NONE)
                return unit_error(c, u, name, x->oid);
            if (!mono) {
                rl_val_null(out, numeric ? RL_OID_NUMERIC : RL_OID_FLOAT8);
                return 0;
            }
            const char *inf = ts > 0 ? "Infinity" : "-Infinity";
            if (numeric)
                return rl_val_str_copy(c, out, RL_OID_NUMERIC, inf, strlen(inf));
            rl_val_float(out, RL_OID_FLOAT8, ts > 0 ? INFINITY : -INFINITY);
            return 0;
        }
        if (ts_field(c, u, name, x->oid, ts, &value, &scale) < 0)
            return -1;
    }
    field_text(buf, sizeof buf, value, scale);
    if (numeric)
        return rl_text_to_value(c, buf, strlen(buf), RL_OID_NUMERIC, -1, true, out, -1);
    rl_val_float(out, RL_OID_FLOAT8, strtod(buf, NULL));
    return 0;
}

int rl_fn_extract(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return part(c, a, out, true);
}

int rl_fn_date_part(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return part(c, a, out, false);
}

/* ------------------------------------------------------------------ age */

/* age(a, b): a - b in years, months and days as a calendar counts them
 * (timestamp_age), the time part below a day. */
static int age(rl_expr_ctx *c, int64_t t1, int64_t t2, rl_value *out)
{
    if (!ts_finite(t1) || !ts_finite(t2))
        return rl_exec_error(c->x, RL_SQLSTATE_DATETIME_FIELD_OVERFLOW, -1,
                             "cannot subtract infinite timestamps");
    tsparts p1, p2;
    ts_split(t1, &p1);
    ts_split(t2, &p2);
    int64_t fsec = p1.usec - p2.usec;
    int64_t sec = p1.sec - p2.sec, min = p1.min - p2.min, hour = p1.hour - p2.hour;
    int64_t mday = p1.mday - p2.mday, mon = p1.mon - p2.mon, year = p1.year - p2.year;
    bool flip = t1 < t2;
    if (flip) {
        fsec = -fsec, sec = -sec, min = -min, hour = -hour, mday = -mday, mon = -mon,
        year = -year;
    }
    while (fsec < 0) {
        fsec += USECS_PER_SEC;
        sec--;
    }
    while (sec < 0) {
        sec += 60;
        min--;
    }
    while (min < 0) {
        min += 60;
        hour--;
    }
    while (hour < 0) {
        hour += 24;
        mday--;
    }
    while (mday < 0) {
        const tsparts *ref = flip ? &p1 : &p2;
        mday += rl_days_in_month(ref->year, ref->mon);
        mon--;
    }
    while (mon < 0) {
        mon += 12;
        year--;
    }
    if (flip) {
        fsec = -fsec, sec = -sec, min = -min, hour = -hour, mday = -mday, mon = -mon,
        year = -year;
    }
    int64_t months = year * 12 + mon;
    if (months > INT32_MAX || months < INT32_MIN)
        return interval_range_error(c);
    put_interval(out, (int32_t)months, (int32_t)mday,
                 hour * USECS_PER_HOUR + min * USECS_PER_MIN + sec * USECS_PER_SEC + fsec);
    return 0;
}

/* A timestamp's wall clock: a timestamptz's in the session's zone (the
 * fields timestamptz_age counts in). */
static int64_t wall_clock(const rl_value *v)
{
    int64_t us = rl_ts_micros(v);
    return v->oid == RL_OID_TIMESTAMPTZ ? rl_tz_utc_to_local_us(rl_tz_current(), us, NULL) : us;
}

int rl_fn_age(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    if (n == 2)
        return age(c, wall_clock(&a[0]), wall_clock(&a[1]), out);
    /* age(x): from today's midnight (current_date, the transaction's, in
     * the session's zone) */
    int64_t now = rl_tz_utc_to_local_us(rl_tz_current(), rl_exec_txn_start(c->x), NULL);
    int64_t midnight = floor_div(now, USECS_PER_DAY) * USECS_PER_DAY;
    return age(c, midnight, wall_clock(&a[0]), out);
}

/* ----------------------------------------------------------- construct */

/* to_timestamp(seconds since 1970): timestamptz, rounded to microseconds. */
int rl_fn_to_timestamp(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    double s = a[0].d.v.f;
    if (isnan(s))
        return rl_exec_error(c->x, RL_SQLSTATE_DATETIME_FIELD_OVERFLOW, -1,
                             "timestamp cannot be NaN");
    if (isinf(s)) {
        put_ts(out, RL_OID_TIMESTAMPTZ, s > 0 ? INT64_MAX : INT64_MIN);
        return 0;
    }
    double us = rint(s * 1e6) - (double)EPOCH_1970_US;
    if (us < -9.2e18 || us > 9.2e18 || !rl_timestamp_in_range((int64_t)us))
        return rl_exec_error(c->x, RL_SQLSTATE_DATETIME_FIELD_OVERFLOW, -1,
                             "timestamp out of range: \"%g\"", s);
    put_ts(out, RL_OID_TIMESTAMPTZ, (int64_t)us);
    return 0;
}

static bool valid_date(int64_t y, int64_t m, int64_t d)
{
    return y != 0 && m >= 1 && m <= 12 && d >= 1 && d <= rl_days_in_month(y < 0 ? y + 1 : y, (int)m);
}

int rl_fn_make_date(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    int64_t y = a[0].d.v.i, m = a[1].d.v.i, d = a[2].d.v.i;
    if (!valid_date(y, m, d))
        return rl_exec_error(c->x, RL_SQLSTATE_DATETIME_FIELD_OVERFLOW, -1,
                             "date field value out of range: %lld-%02lld-%02lld", (long long)y,
                             (long long)m, (long long)d);
    int64_t days = rl_ymd_to_date(y < 0 ? y + 1 : y, (int)m, (int)d);
    if (!rl_date_in_range(days))
        return rl_exec_error(c->x, RL_SQLSTATE_DATETIME_FIELD_OVERFLOW, -1,
                             "date out of range: %lld-%02lld-%02lld", (long long)y, (long long)m,
                             (long long)d);
    rl_val_int(out, RL_OID_DATE, days);
    return 0;
}

/* make_timestamp's wall-clock value of its six fields in *ts. */
static int make_local(rl_expr_ctx *c, const rl_value *a, int64_t *ts_out)
{
    int64_t y = a[0].d.v.i, m = a[1].d.v.i, d = a[2].d.v.i, h = a[3].d.v.i, mi = a[4].d.v.i;
    double s = a[5].d.v.f;
    if (!valid_date(y, m, d))
        return rl_exec_error(c->x, RL_SQLSTATE_DATETIME_FIELD_OVERFLOW, -1,
                             "date field value out of range: %lld-%02lld-%02lld", (long long)y,
                             (long long)m, (long long)d);
    if (h < 0 || h > 24 || mi < 0 || mi > 59 || isnan(s) || s < 0 || s > 60 ||
        (h == 24 && (mi > 0 || s > 0)))
        return rl_exec_error(c->x, RL_SQLSTATE_DATETIME_FIELD_OVERFLOW, -1,
                             "time field value out of range: %lld:%02lld:%02g", (long long)h,
                             (long long)mi, s);
    tsparts p = {.year = y < 0 ? y + 1 : y, .mon = (int)m, .mday = (int)d, .hour = 0};
    int64_t ts;
    if (!ts_join(&p, &ts))
        return ts_range_error(c);
    int64_t t = h * USECS_PER_HOUR + mi * USECS_PER_MIN + (int64_t)rint(s * 1e6);
    if (__builtin_add_overflow(ts, t, &ts) || !rl_timestamp_in_range(ts))
        return ts_range_error(c);
    *ts_out = ts;
    return 0;
}

/* make_time(hour, min, sec): as make_timestamp's time part. */
int rl_fn_make_time(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    int64_t h = a[0].d.v.i, mi = a[1].d.v.i;
    double s = a[2].d.v.f;
    if (h < 0 || h > 24 || mi < 0 || mi > 59 || isnan(s) || s < 0 || s > 60 ||
        (h == 24 && (mi > 0 || s > 0)))
        return rl_exec_error(c->x, RL_SQLSTATE_DATETIME_FIELD_OVERFLOW, -1,
                             "time field value out of range: %lld:%02lld:%02g", (long long)h,
                             (long long)mi, s);
    rl_val_int(out, RL_OID_TIME, h * USECS_PER_HOUR + mi * USECS_PER_MIN + (int64_t)rint(s * 1e6));
    return 0;
}

/* make_interval(years, months, weeks, days, hours, mins, secs), every one
 * defaulting to 0 (rl_func_defaults). PostgreSQL 15 checks only that secs
 * is finite (22008) and lets the integer fields wrap as its C arithmetic
 * does (make_interval(2147483647, 1) is -11 mons): so do we, in unsigned
 * arithmetic, which wraps without undefined behaviour. */
int rl_fn_make_interval(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    uint32_t y = (uint32_t)a[0].d.v.i, mo = (uint32_t)a[1].d.v.i, w = (uint32_t)a[2].d.v.i,
             d = (uint32_t)a[3].d.v.i;
    uint64_t h = (uint64_t)a[4].d.v.i, mi = (uint64_t)a[5].d.v.i;
    double s = rint(a[6].d.v.f * 1e6);
    if (isnan(s) || isinf(s) || fabs(s) >= 9.2e18)
        return rl_exec_error(c->x, RL_SQLSTATE_DATETIME_FIELD_OVERFLOW, -1,
                             "interval out of range");
    uint64_t us = h * (uint64_t)USECS_PER_HOUR + mi * (uint64_t)USECS_PER_MIN + (uint64_t)(int64_t)s;
    put_interval(out, (int32_t)(y * 12u + mo), (int32_t)(w * 7u + d), (int64_t)us);
    return 0;
}

/* timeofday(): the wall clock now, in the session's zone, as PostgreSQL
 * writes it: "Sat Dec 05 22:29:14.123456 2026 UTC". */
int rl_fn_timeofday(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    const rl_tz *tz = rl_tz_current();
    const char *abbrev = "UTC";
    int32_t east = 0;
    bool dst;
    int64_t pg_us = ((int64_t)now.tv_sec * 1000000 + now.tv_nsec / 1000) - EPOCH_1970_US;
    if (tz)
        east = rl_tz_offset_at(tz, pg_us, &dst, &abbrev);
    time_t local = now.tv_sec + east;
    struct tm tm;
    gmtime_r(&local, &tm);
    char day[64], buf[128];
    strftime(day, sizeof day, "%a %b %d %H:%M:%S", &tm);
    int len = snprintf(buf, sizeof buf, "%s.%06ld %d %s", day, now.tv_nsec / 1000,
                       tm.tm_year + 1900, abbrev ? abbrev : "");
    return rl_val_str_copy(c, out, RL_OID_TEXT, buf, (size_t)len);
}

int rl_fn_make_timestamp(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    int64_t ts;
    if (make_local(c, a, &ts) < 0)
        return -1;
    put_ts(out, RL_OID_TIMESTAMP, ts);
    return 0;
}

/* A numeric time zone as make_timestamptz reads it (PostgreSQL's
 * DecodeTimezone): +HH, +HHMM, +HH:MM[:SS], east of UTC. 1 with *east,
 * 0 when the text is not one (it may still name a zone), -1 (22023) when
 * it is one out of range. */
static int numeric_zone(rl_expr_ctx *c, const char *z, int32_t *east)
{
    if (z[0] != '+' && z[0] != '-')
        return 0;
    char *end;
    long hr = strtol(z + 1, &end, 10), min = 0, sec = 0;
    if (*end == ':') {
        min = strtol(end + 1, &end, 10);
        if (*end == ':')
            sec = strtol(end + 1, &end, 10);
    } else if (*end == '\0' && strlen(z) > 3) { /* +HHMM */
        min = hr % 100;
        hr /= 100;
    }
    if (hr < 0 || hr > 15 || min < 0 || min >= 60 || sec < 0 || sec >= 60)
        return rl_exec_error(c->x, RL_SQLSTATE_INVALID_PARAMETER_VALUE, -1,
                             "numeric time zone \"%s\" out of range", z);
    if (*end != '\0')
        return 0;
    int32_t off = (int32_t)(hr * 3600 + min * 60 + sec);
    *east = z[0] == '-' ? -off : off;
    return 1;
}

/* make_timestamptz(y, m, d, h, mi, s [, zone]): the wall clock of the
 * session's zone, or of `zone` (a numeric offset east of UTC, else an
 * abbreviation or a zone name as AT TIME ZONE reads it), as timestamptz. */
int rl_fn_make_timestamptz(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    int64_t ts;
    if (make_local(c, a, &ts) < 0)
        return -1;
    const rl_tz *tz = rl_tz_current();
    int32_t east = 0;
    if (n == 7) {
        char z[RL_TZ_NAME_MAX + 1];
        size_t len = a[6].d.v.s.len < sizeof z - 1 ? a[6].d.v.s.len : sizeof z - 1;
        memcpy(z, a[6].d.v.s.p, len);
        z[len] = '\0';
        if (isdigit((unsigned char)z[0])) {
            rl_exec_error(c->x, RL_SQLSTATE_INVALID_PARAMETER_VALUE, -1,
                          "invalid input syntax for type numeric time zone: \"%s\"", z);
            rl_error_hint(c->x->err,
                          "Numeric time zones must have \"-\" or \"+\" as first character.");
            return -1;
        }
        int num = numeric_zone(c, z, &east);
        if (num < 0)
            return -1;
        tz = NULL;
        if (num == 0 && zone_of(c, &a[6], &tz, &east) < 0)
            return -1;
    }
    int64_t r = tz ? rl_tz_local_to_utc_us(tz, ts, NULL) : ts - east * USECS_PER_SEC;
    if (!rl_timestamp_in_range(r))
        return ts_range_error(c);
    put_ts(out, RL_OID_TIMESTAMPTZ, r);
    return 0;
}

/* ------------------------------------------------------------- justify */

int rl_fn_justify_hours(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    int32_t days = a[0].d.v.interval.days;
    int64_t t = a[0].d.v.interval.us;
    justify_hours(&days, &t);
    put_interval(out, a[0].d.v.interval.months, days, t);
    return 0;
}

static void justify_days(int32_t *months, int32_t *days)
{
    int32_t wm = *days / DAYS_PER_MONTH;
    *days -= wm * DAYS_PER_MONTH;
    *months += wm;
    if (*months > 0 && *days < 0) {
        *days += DAYS_PER_MONTH;
        (*months)--;
    } else if (*months < 0 && *days > 0) {
        *days -= DAYS_PER_MONTH;
        (*months)++;
    }
}

int rl_fn_justify_days(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    int32_t months = a[0].d.v.interval.months, days = a[0].d.v.interval.days;
    justify_days(&months, &days);
    put_interval(out, months, days, a[0].d.v.interval.us);
    return 0;
}

int rl_fn_justify_interval(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    int32_t months = a[0].d.v.interval.months, days = a[0].d.v.interval.days;
    int64_t t = a[0].d.v.interval.us;
    int64_t wd = t / USECS_PER_DAY;
    t -= wd * USECS_PER_DAY;
    days += (int32_t)wd;
    int32_t wm = days / DAYS_PER_MONTH;
    days -= wm * DAYS_PER_MONTH;
    months += wm;
    if (months > 0 && (days < 0 || (days == 0 && t < 0))) {
        days += DAYS_PER_MONTH;
        months--;
    } else if (months < 0 && (days > 0 || (days == 0 && t > 0))) {
        days -= DAYS_PER_MONTH;
        months++;
    }
    if (days > 0 && t < 0) {
        t += USECS_PER_DAY;
        days--;
    } else if (days < 0 && t > 0) {
        t -= USECS_PER_DAY;
        days++;
    }
    put_interval(out, months, days, t);
    return 0;
}

int rl_fn_isfinite(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    bool finite = a[0].oid == RL_OID_INTERVAL ? true
                  : a[0].oid == RL_OID_DATE   ? date_finite(a[0].d.v.i)
                                              : ts_finite(a[0].d.v.i);
    rl_val_bool(out, finite);
    return 0;
}

/* The zone of AT TIME ZONE's text: an abbreviation (a fixed offset,
 * *tz NULL), else a zone name as SET TimeZone takes it; 22023 if neither. */
static int zone_of(rl_expr_ctx *c, const rl_value *z, const rl_tz **tz, int32_t *east)
{
    char name[RL_TZ_NAME_MAX + 1];
    size_t len = z->d.v.s.len < sizeof name - 1 ? z->d.v.s.len : sizeof name - 1;
    memcpy(name, z->d.v.s.p, len);
    name[len] = '\0';
    *tz = NULL;
    *east = 0;
    if (rl_tz_abbrev(name, east))
        return 0;
    if ((*tz = rl_tz_lookup(name)))
        return 0;
    return rl_exec_error(c->x, RL_SQLSTATE_INVALID_PARAMETER_VALUE, -1,
                         "time zone \"%s\" not recognized", name);
}

/* timezone(zone, x), what AT TIME ZONE means: timestamptz -> the zone's
 * wall-clock timestamp, timestamp (a wall clock of the zone) -> timestamptz,
 * a gap or overlap resolved as PostgreSQL does (tzif.h). */
int rl_fn_timezone(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    const rl_tz *tz = NULL;
    int32_t east = 0;
    if (a[0].oid == RL_OID_INTERVAL) { /* AT TIME ZONE INTERVAL '+02:00': a fixed offset */
        if (a[0].d.v.interval.months || a[0].d.v.interval.days) {
            rl_buf t;
            rl_buf_init(&t, 0);
            rl_value_to_text(&t, &a[0]);
            int rc = rl_exec_error(c->x, RL_SQLSTATE_INVALID_PARAMETER_VALUE, -1,
                                   "interval time zone \"%.*s\" must not include months or days",
                                   (int)t.len, t.data ? (const char *)t.data : "");
            rl_buf_free(&t);
            return rc;
        }
        east = (int32_t)(a[0].d.v.interval.us / USECS_PER_SEC);
    } else if (zone_of(c, &a[0], &tz, &east) < 0) {
        return -1;
    }
    bool to_local = a[1].oid == RL_OID_TIMESTAMPTZ;
    int64_t ts = a[1].d.v.i, r = ts;
    if (ts_finite(ts)) {
        if (tz)
            r = to_local ? rl_tz_utc_to_local_us(tz, ts, NULL) : rl_tz_local_to_utc_us(tz, ts, NULL);
        else
            r = to_local ? ts + east * USECS_PER_SEC : ts - east * USECS_PER_SEC;
        if (!rl_timestamp_in_range(r))
            return ts_range_error(c);
    }
    put_ts(out, to_local ? RL_OID_TIMESTAMP : RL_OID_TIMESTAMPTZ, r);
    return 0;
}

/* date_bin(stride, source, origin): the start of the bin of `stride`
 * (no months: a bin must have one length) that holds source, bins counted
 * from origin, for timestamps and timestamptz alike (plain microsecond
 * arithmetic, no zone). PostgreSQL's checks in its order. */
int rl_fn_date_bin(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    const rl_datum *stride = &a[0].d;
    int64_t source = a[1].d.v.i, origin = a[2].d.v.i;
    if (!ts_finite(source)) {
        put_ts(out, a[1].oid, source);
        return 0;
    }
    if (!ts_finite(origin))
        return rl_exec_error(c->x, RL_SQLSTATE_DATETIME_FIELD_OVERFLOW, -1,
                             "origin out of range");
    if (stride->v.interval.months != 0)
        return rl_exec_error(c->x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                             "timestamps cannot be binned into intervals containing months or "
                             "years");
    int64_t stride_us, diff;
    if (__builtin_mul_overflow((int64_t)stride->v.interval.days, USECS_PER_DAY, &stride_us) ||
        __builtin_add_overflow(stride_us, stride->v.interval.us, &stride_us))
        return interval_range_error(c);
    if (stride_us <= 0)
        return rl_exec_error(c->x, RL_SQLSTATE_DATETIME_FIELD_OVERFLOW, -1,
                             "stride must be greater than zero");
    if (__builtin_sub_overflow(source, origin, &diff))
        return interval_range_error(c);
    int64_t delta = diff - diff % stride_us;
    /* the bin's start even when origin lies after source */
    if (origin > source && stride_us > 1)
        delta -= stride_us;
    int64_t r;
    if (__builtin_add_overflow(origin, delta, &r) || !rl_timestamp_in_range(r))
        return ts_range_error(c);
    put_ts(out, a[1].oid, r);
    return 0;
}

/* A template error as the executor's (no position), with its DETAIL. */
static int dtfmt_failed(rl_expr_ctx *c, const rl_dtfmt_error *e)
{
    rl_exec_error(c->x, e->sqlstate, -1, "%s", e->msg);
    if (e->detail[0])
        rl_error_detail(c->x->err, "%s", e->detail);
    return -1;
}

/* ------------------------------------------ to_char, to_timestamp, to_date */

/* to_char(timestamp[tz] | date-as-timestamp | interval, format):
 * PostgreSQL's date/time template patterns (pgtype/dtfmt.c, the table
 * to_timestamp reads with); NULL for an infinite value or an empty
 * pattern. */
int rl_fn_to_char(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    rl_dtfmt_tm tm = {0};
    if (a[1].d.v.s.len == 0) {
        rl_val_null(out, RL_OID_TEXT);
        return 0;
    }
    if (a[0].oid == RL_OID_INTERVAL) {
        /* interval2itm: years and months, days, then the time split with
         * its sign in every field */
        const rl_datum *d = &a[0].d;
        int64_t t = d->v.interval.us;
        tm.is_interval = true;
        tm.year = d->v.interval.months / 12;
        tm.mon = (int)(d->v.interval.months % 12);
        tm.mday = d->v.interval.days;
        tm.hour = t / USECS_PER_HOUR;
        t -= tm.hour * USECS_PER_HOUR;
        tm.min = (int)(t / USECS_PER_MIN);
        t -= (int64_t)tm.min * USECS_PER_MIN;
        tm.sec = (int)(t / USECS_PER_SEC);
        tm.fsec = (int32_t)(t - (int64_t)tm.sec * USECS_PER_SEC);
        tm.yday = (int)((tm.year * 12 + tm.mon) * DAYS_PER_MONTH + tm.mday);
    } else {
        int64_t ts = rl_ts_micros(&a[0]);
        if (!ts_finite(ts)) {
            rl_val_null(out, RL_OID_TEXT);
            return 0;
        }
        /* timestamptz: the session zone's wall clock, its abbreviation and
         * offset (TZ, OF, TZH, TZM); a timestamp has no abbreviation,
         * offset 0 */
        if (a[0].oid == RL_OID_TIMESTAMPTZ) {
            rl_tz_offset_at(rl_tz_current(),
                            floor_div(ts, USECS_PER_SEC) + EPOCH_1970_US / USECS_PER_SEC, NULL,
                            &tm.tzn);
            ts = rl_tz_utc_to_local_us(rl_tz_current(), ts, &tm.gmtoff);
            if (!tm.tzn)
                tm.tzn = "";
        }
        tsparts p;
        ts_split(ts, &p);
        int64_t days = floor_div(ts, USECS_PER_DAY);
        tm.year = p.year;
        tm.mon = p.mon;
        tm.mday = p.mday;
        tm.hour = p.hour;
        tm.min = p.min;
        tm.sec = p.sec;
        tm.fsec = (int32_t)p.usec;
        tm.wday = (int)((weekday_monday0(days) + 1) % 7);
        tm.yday = (int)(days - rl_ymd_to_date(p.year, 1, 1) + 1);
    }
    rl_dtfmt f;
    if (rl_dtfmt_parse((const char *)a[1].d.v.s.p, a[1].d.v.s.len, &f) < 0)
        return rl_expr_oom(c);
    rl_buf b;
    rl_buf_init(&b, 0);
    rl_dtfmt_error e;
    int rc = rl_dtfmt_to_char(&f, &tm, &b, &e);
    rl_dtfmt_free(&f);
    if (rc < 0) {
        rl_buf_free(&b);
        return dtfmt_failed(c, &e);
    }
    return rl_val_buf_copy(c, out, RL_OID_TEXT, &b);
}

/* do_to_timestamp: the fields text[0] holds by pattern text[1]. */
static int read_datetime(rl_expr_ctx *c, const rl_value *a, rl_dtfmt_result *r)
{
    rl_dtfmt f;
    if (rl_dtfmt_parse((const char *)a[1].d.v.s.p, a[1].d.v.s.len, &f) < 0)
        return rl_expr_oom(c);
    rl_dtfmt_error e;
    int rc = rl_dtfmt_from_char(&f, (const char *)a[0].d.v.s.p, a[0].d.v.s.len, r, &e);
    rl_dtfmt_free(&f);
    return rc < 0 ? dtfmt_failed(c, &e) : 0;
}

/* PostgreSQL's IS_VALID_JULIAN: from 4714-11-24 BC to 5874898-06-01. */
static bool valid_julian(int64_t y, int64_t m)
{
    return (y > -4713 || (y == -4713 && m >= 11)) && (y < 5874898 || (y == 5874898 && m < 6));
}

/* AdjustTimestampForTypmod: round to p digits after the second (half
 * away from zero, as the microseconds' sign goes). */
static int64_t ts_round_to(int64_t us, int p)
{
    static const int64_t scale[] = {1000000, 100000, 10000, 1000, 100, 10, 1};
    if (p < 0 || p >= 6)
        return us;
    int64_t s = scale[p], h = s / 2;
    return us >= 0 ? (us + h) / s * s : -((-us + h) / s * s);
}

/* to_timestamp(text, pattern): the local time the fields make, in the zone
 * of TZH/TZM or else the session's; FF1..FF6 round it. */
int rl_fn_to_timestamp_fmt(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    rl_dtfmt_result r;
    if (read_datetime(c, a, &r) < 0)
        return -1;
    if (!valid_julian(r.year, r.mon))
        return ts_range_error(c);
    int64_t days = rl_dtfmt_date2j(r.year, r.mon, r.mday) - 2451545;
    __int128 local = (__int128)days * USECS_PER_DAY +
                     ((r.hour * 60 + r.min) * 60 + r.sec) * USECS_PER_SEC + r.fsec;
    /* room for a zone's shift either way; the range check follows it */
    if (local < (__int128)INT64_MIN + 2 * USECS_PER_DAY || local > (__int128)INT64_MAX - 2 * USECS_PER_DAY)
        return ts_range_error(c);
    int64_t us = (int64_t)local;
    if (r.has_tz)
        us -= (int64_t)r.tz_east * USECS_PER_SEC;
    else
        us = rl_tz_local_to_utc_us(rl_tz_current(), us, NULL);
    if (!rl_timestamp_in_range(us))
        return ts_range_error(c);
    if (r.fprec) {
        us = ts_round_to(us, r.fprec);
        if (!rl_timestamp_in_range(us))
            return ts_range_error(c);
    }
    put_ts(out, RL_OID_TIMESTAMPTZ, us);
    return 0;
}

/* to_date(text, pattern): the date the fields make (times are read and
 * checked, then dropped). */
int rl_fn_to_date(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    rl_dtfmt_result r;
    if (read_datetime(c, a, &r) < 0)
        return -1;
    char text[64];
    int tl = (int)(a[0].d.v.s.len < 60 ? a[0].d.v.s.len : 60);
    snprintf(text, sizeof text, "%.*s", tl, (const char *)a[0].d.v.s.p);
    if (!valid_julian(r.year, r.mon))
        return rl_exec_error(c->x, RL_SQLSTATE_DATETIME_FIELD_OVERFLOW, -1,
                             "date out of range: \"%s\"", text);
    int64_t days = rl_dtfmt_date2j(r.year, r.mon, r.mday) - 2451545;
    if (!rl_date_in_range(days))
        return rl_exec_error(c->x, RL_SQLSTATE_DATETIME_FIELD_OVERFLOW, -1,
                             "date out of range: \"%s\"", text);
    rl_val_int(out, RL_OID_DATE, days);
    return 0;
}

/* ------------------------------------------------ generate_series(ts, ...) */

/* An interval's sign as PostgreSQL orders intervals: by its span with a
 * month of 30 days and a day of 24 hours (interval_cmp_value). */
static int interval_sign(const rl_datum *d)
{
    __int128 span = ((__int128)d->v.interval.months * 30 + d->v.interval.days) *
                        (__int128)86400000000 +
                    d->v.interval.us;
    return span > 0 ? 1 : span < 0 ? -1 : 0;
}

int rl_series_datetime_prepare(rl_expr_ctx *c, rl_value *a, uint32_t t, int *dir, int loc)
{
    for (size_t i = 0; i < 3; i++)
        if (rl_value_coerce(c, &a[i], i < 2 ? t : RL_OID_INTERVAL, -1, false, &a[i], loc) < 0)
            return -1;
    *dir = 1;
    if (a[2].d.isnull)
        return 0;
    *dir = interval_sign(&a[2].d);
    if (*dir == 0)
        return rl_exec_error(c->x, RL_SQLSTATE_INVALID_PARAMETER_VALUE, -1,
                             "step size cannot equal zero");
    return 0;
}

int rl_series_datetime_within(const rl_value *cur, const rl_value *stop, int dir)
{
    assert(!cur->d.isnull && !stop->d.isnull);
    return dir > 0 ? cur->d.v.i <= stop->d.v.i : cur->d.v.i >= stop->d.v.i;
}

int rl_series_datetime_next(rl_expr_ctx *c, rl_value *cur, rl_value *step, int loc)
{
    rl_value at = *cur, next;
    /* the value before plus the step, as PostgreSQL adds it (a month from
     * Jan 31 is Feb 29, and from there Mar 29) */
    if (rl_datetime_op(c, '+', &at, step, &next, loc) < 0)
        return -1;
    *cur = next;
    return 0;
}

