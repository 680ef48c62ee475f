/*
 * dtfmt.h — PostgreSQL 15's date/time template patterns, both directions:
 * one keyword table (HH24, MI, SS, MS, US, FF1..FF6, YYYY, Y,YYY, IYYY,
 * MONTH/Month/month, DAY, DDD, IDDD, IW, WW, W, J, CC, Q, RM, AM/PM,
 * AD/BC, TZ, TZH, TZM, OF, SSSS(S), FX, ...) with the FM/TM prefixes and
 * TH/th/SP suffixes, parsed once into nodes that to_char lays out
 * (rl_dtfmt_to_char) and to_timestamp / to_date read back
 * (rl_dtfmt_from_char), with formatting.c's rules and errors (22007 a
 * value or pattern that does not fit, 22008 a field out of range, 0A000
 * TZ/OF for input). The C locale: TM changes nothing but the padding.
 *
 * Memory: nodes are one per pattern byte at most, output is linear in the
 * pattern; nothing recurses.
 */
#ifndef ROCKLAKE_PGTYPE_DTFMT_H
#define ROCKLAKE_PGTYPE_DTFMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"

typedef struct rl_dtfmt_error {
    const char *sqlstate;
    char msg[200];
    char detail[160]; /* PostgreSQL's DETAIL, "" for none */
} rl_dtfmt_error;

typedef struct rl_dtfmt_node {
    uint8_t type;   /* RL_DTFMT_* */
    uint8_t suffix; /* RL_DTFMT_S_* */
    uint8_t clen;
    char ch[4];
    int16_t key;    /* index in the keyword table (RL_DTFMT_ACTION) */
} rl_dtfmt_node;

enum { RL_DTFMT_ACTION = 1, RL_DTFMT_CHAR, RL_DTFMT_SEPARATOR, RL_DTFMT_SPACE };
enum { RL_DTFMT_S_FM = 1, RL_DTFMT_S_TH = 2, RL_DTFMT_S_th = 4, RL_DTFMT_S_SP = 8, RL_DTFMT_S_TM = 16 };

typedef struct rl_dtfmt {
    rl_dtfmt_node *nodes; /* malloc'd */
    size_t n;
} rl_dtfmt;

/* Parse fmt[0..len) (cut at a NUL); never fails but for memory (-1).
 * Free with rl_dtfmt_free. */
int rl_dtfmt_parse(const char *fmt, size_t len, rl_dtfmt *f);
void rl_dtfmt_free(rl_dtfmt *f);

/* A point in time broken down for to_char; year is astronomical (0 is
 * 1 BC), wday 0 is Sunday, yday from 1; tzn NULL for a timestamp. An
 * interval (is_interval) has its years, months (-11..11), days, hours
 * (any), minutes, seconds, microseconds, each with the interval's sign,
 * and yday its span in 30-day months and days. */
typedef struct rl_dtfmt_tm {
    int64_t year, hour;
    int mon, mday, min, sec, wday, yday;
    bool is_interval;
    int32_t fsec;   /* microseconds */
    int32_t gmtoff; /* seconds east of UTC */
    const char *tzn;
} rl_dtfmt_tm;

/* to_char of a date/time or an interval. 0, or -1 with *err (22007: a
 * pattern an interval has no value for; 53200 out of memory). */
int rl_dtfmt_to_char(const rl_dtfmt *f, const rl_dtfmt_tm *tm, rl_buf *out, rl_dtfmt_error *err);

/* What to_timestamp / to_date read: the calendar fields (year
 * astronomical; month and day 1 when absent), the time, the fraction's
 * precision of FF1..FF6 (0 none), and the zone of TZH/TZM when given. */
typedef struct rl_dtfmt_result {
    int64_t year;
    int64_t mon, mday, hour, min, sec;
    int64_t fsec;
    int fprec;
    bool has_tz;
    int32_t tz_east; /* seconds east of UTC */
} rl_dtfmt_result;

/* Read in[0..len) by f as to_timestamp does (do_to_timestamp): 0, or -1
 * with *err. */
int rl_dtfmt_from_char(const rl_dtfmt *f, const char *in, size_t len, rl_dtfmt_result *r,
                       rl_dtfmt_error *err);

/* Julian day numbers (PostgreSQL's date2j / j2date), astronomical years. */
int64_t rl_dtfmt_date2j(int64_t y, int64_t m, int64_t d);
void rl_dtfmt_j2date(int64_t j, int64_t *y, int *m, int *d);

#endif
