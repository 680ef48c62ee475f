/*
 * tzif.c — time zones as PostgreSQL 15 applies them (tzif.h): the TZif
 * reader, POSIX TZ rules, offsets at an instant and of a local time, zone
 * names, the process-wide cache and the calling thread's session zone.
 *
 * Written from RFC 8536 (the TZif format) and POSIX's TZ grammar, with
 * PostgreSQL's choices where they differ from plain tzcode: a local time in
 * a gap takes the offset before the change and one in an overlap the offset
 * after it (DetermineTimeZoneOffset); an unquoted zone name may be empty
 * ("+05:30"); a daylight name without rules gets the US rules.
 *
 * Invariants: a parsed zone has 1..256 types, ascending transitions whose
 * type indices are in range, and abbreviations NUL-terminated; zones in the
 * cache are immutable and never freed; every read of TZif bytes is bounds
 * checked against the length given.
 */
#include <assert.h>
#include <ctype.h>
#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "pgtype/tzif.h"

#define TZ_DIR "/usr/share/zoneinfo"
#define TZ_MAX_TIMES 4096
#define TZ_MAX_TYPES 256
#define TZ_MAX_CHARS 256
#define TZ_MAX_FILE (1 << 20)
#define TZ_MAX_OFFSET (7 * 24 * 3600) /* tzdata's widest is under 16 hours */
#define ABBR_MAX 32
#define SECS_PER_DAY INT64_C(86400)
#define UNIX_DAYS_2000 INT64_C(10957)
#define USECS_PER_SEC INT64_C(1000000)

typedef struct tz_type {
    int32_t east; /* seconds east of UTC */
    bool dst;
    char abbr[ABBR_MAX];
} tz_type;

/* One end of a POSIX daylight period: Jn (1..365, no Feb 29), n (0..365)
 * or Mm.w.d, at `time` seconds of local time (may be negative or > 24h). */
typedef struct tz_when {
    char kind; /* 'J', 'n', 'M' */
    int day, mon, week, wday;
    int32_t time;
} tz_when;

typedef struct tz_rule {
    bool present;
    tz_type std, dst;
    bool has_dst;
    tz_when start, end;
} tz_rule;

struct rl_tz {
    char name[RL_TZ_NAME_MAX + 1];
    size_t ntrans;
    int64_t *ats;  /* unix seconds, ascending */
    uint8_t *idx;  /* type after each transition */
    size_t ntypes;
    tz_type *types;
    tz_rule rule;  /* the footer (or the whole zone for a POSIX spec) */
};

static int64_t floor_div(int64_t a, int64_t b)
{
    int64_t q = a / b;
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q;
}

/* The proleptic Gregorian calendar on days since 1970-01-01, in 400-year
 * eras of 146097 days whose years start in March (so that the leap day is
 * the era year's last); kept here so that this file calls no other. */
static int64_t unix_days(int64_t y, int m, int d)
{
    y -= m <= 2;
    int64_t era = floor_div(y, 400), yoe = y - era * 400;
    int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    int64_t doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    return era * 146097 + doe - 719468;
}

static int64_t year_of_day(int64_t days)
{
    int64_t z = days + 719468, era = floor_div(z, 146097), doe = z - era * 146097;
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100), mp = (5 * doy + 2) / 153;
    return yoe + era * 400 + (mp >= 10); /* months 11, 12 of the era year: January, February */
}

static bool is_leap(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

static int month_days(int64_t y, int m)
{
    static const int len[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return m == 2 && is_leap(y) ? 29 : len[m - 1];
}

/* ---------------------------------------------------------- POSIX TZ */

/* A zone name: "<...>", or anything up to a digit, sign or comma ("EST",
 * "Foo/Bar"; PostgreSQL lets it be empty: "+05:30"). */
static bool posix_name(const char **pp, char *out)
{
    const char *p = *pp, *start;
    size_t n;
    if (*p == '<') {
        start = ++p;
        while (*p && *p != '>')
            p++;
        if (*p != '>')
            return false;
        n = (size_t)(p - start);
        p++;
    } else {
        start = p;
        while (*p && !isdigit((unsigned char)*p) && *p != ',' && *p != '-' && *p != '+')
            p++;
        n = (size_t)(p - start);
    }
    if (n >= ABBR_MAX)
        n = ABBR_MAX - 1;
    memcpy(out, start, n);
    out[n] = '\0';
    *pp = p;
    return true;
}

static bool posix_num(const char **pp, int lo, int hi, int *out)
{
    const char *p = *pp;
    if (!isdigit((unsigned char)*p))
        return false;
    long v = 0;
    while (isdigit((unsigned char)*p)) {
        v = v * 10 + (*p++ - '0');
        if (v > hi)
            return false;
    }
    if (v < lo)
        return false;
    *out = (int)v;
    *pp = p;
    return true;
}

/* [+-]hh[:mm[:ss]] in seconds; hours up to max_h. */
static bool posix_secs(const char **pp, int max_h, int32_t *out)
{
    const char *p = *pp;
    int sign = 1;
    if (*p == '+' || *p == '-')
        sign = *p++ == '-' ? -1 : 1;
    int h, m = 0, s = 0;
    if (!posix_num(&p, 0, max_h, &h))
        return false;
    if (*p == ':') {
        p++;
        if (!posix_num(&p, 0, 59, &m))
            return false;
        if (*p == ':') {
            p++;
            if (!posix_num(&p, 0, 60, &s))
                return false;
        }
    }
    *out = sign * (h * 3600 + m * 60 + s);
    *pp = p;
    return true;
}

static bool posix_when(const char **pp, tz_when *w)
{
    const char *p = *pp;
    memset(w, 0, sizeof *w);
    if (*p == 'J') {
        p++;
        w->kind = 'J';
        if (!posix_num(&p, 1, 365, &w->day))
            return false;
    } else if (*p == 'M') {
        p++;
        w->kind = 'M';
        if (!posix_num(&p, 1, 12, &w->mon) || *p++ != '.' || !posix_num(&p, 1, 5, &w->week) ||
            *p++ != '.' || !posix_num(&p, 0, 6, &w->wday))
            return false;
    } else {
        w->kind = 'n';
        if (!posix_num(&p, 0, 365, &w->day))
            return false;
    }
    w->time = 2 * 3600;
    if (*p == '/') {
        p++;
        if (!posix_secs(&p, 167, &w->time))
            return false;
    }
    *pp = p;
    return true;
}

static bool parse_posix(const char *spec, tz_rule *r)
{
    const char *p = spec;
    memset(r, 0, sizeof *r);
    int32_t west;
    if (!posix_name(&p, r->std.abbr) || !posix_secs(&p, 167, &west))
        return false;
    r->std.east = -west;
    r->present = true;
    if (*p == '\0')
        return true;
    if (!posix_name(&p, r->dst.abbr) || !r->dst.abbr[0])
        return false;
    r->has_dst = true;
    r->dst.dst = true;
    r->dst.east = r->std.east + 3600;
    if (*p && *p != ',') {
        if (!posix_secs(&p, 167, &west))
            return false;
        r->dst.east = -west;
    }
    const char *rules = *p ? p : ",M3.2.0,M11.1.0"; /* PostgreSQL's TZDEFRULESTRING */
    if (*rules++ != ',' || !posix_when(&rules, &r->start) || *rules++ != ',' ||
        !posix_when(&rules, &r->end) || *rules != '\0')
        return false;
    return true;
}

/* Unix time of a rule's change in year y, `east` the offset in force
 * before it (the change's time is in that local time). */
static int64_t when_in_year(const tz_when *w, int64_t y, int32_t east)
{
    int64_t day0 = unix_days(y, 1, 1), day;
    if (w->kind == 'J')
        day = day0 + w->day - 1 + (is_leap(y) && w->day >= 60 ? 1 : 0);
    else if (w->kind == 'n')
        day = day0 + w->day;
    else {
        int64_t first = unix_days(y, w->mon, 1);
        int wd0 = (int)(((first + 4) % 7 + 7) % 7); /* 1970-01-01 was a Thursday */
        int64_t d = first + ((w->wday - wd0 + 7) % 7) + 7 * (w->week - 1);
        int64_t mlen = month_days(y, w->mon);
        while (d >= first + mlen)
            d -= 7;
        day = d;
    }
    return day * SECS_PER_DAY + w->time - east;
}

/* The rule's changes of years y-1 .. y+2, in time order. */
typedef struct rule_change {
    int64_t at;
    const tz_type *type;
} rule_change;

static size_t rule_changes(const tz_rule *r, int64_t y, rule_change out[8])
{
    size_t n = 0;
    for (int64_t yy = y - 1; yy <= y + 2; yy++) {
        out[n++] = (rule_change){when_in_year(&r->start, yy, r->std.east), &r->dst};
        out[n++] = (rule_change){when_in_year(&r->end, yy, r->dst.east), &r->std};
    }
    for (size_t i = 1; i < n; i++) /* insertion sort of eight */
        for (size_t j = i; j > 0 && out[j].at < out[j - 1].at; j--) {
            rule_change t = out[j];
            out[j] = out[j - 1];
            out[j - 1] = t;
        }
    return n;
}

static int64_t year_of(int64_t t) { return year_of_day(floor_div(t, SECS_PER_DAY)); }

static const tz_type *rule_type_at(const tz_rule *r, int64_t t)
{
    if (!r->has_dst)
        return &r->std;
    rule_change ch[8];
    size_t n = rule_changes(r, year_of(t + r->std.east), ch);
    const tz_type *cur = &r->std;
    for (size_t i = 0; i < n && ch[i].at <= t; i++)
        cur = ch[i].type;
    return cur;
}

/* ---------------------------------------------------------- TZif */

typedef struct rd {
    const uint8_t *p;
    size_t len, off;
} rd;

static bool rd_take(rd *r, size_t n, const uint8_t **out)
{
    if (n > r->len - r->off)
        return false;
    *out = r->p + r->off;
    r->off += n;
    return true;
}

static uint32_t be32(const uint8_t *p)
{
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static int64_t be64(const uint8_t *p) { return (int64_t)((uint64_t)be32(p) << 32 | be32(p + 4)); }

typedef struct tzif_hdr {
    char version;
    uint32_t isut, isstd, leap, time, type, chars;
} tzif_hdr;

static bool read_hdr(rd *r, tzif_hdr *h, char *err, size_t errlen)
{
    const uint8_t *p;
    if (!rd_take(r, 44, &p)) {
        snprintf(err, errlen, "truncated TZif header");
        return false;
    }
    if (memcmp(p, "TZif", 4) != 0) {
        snprintf(err, errlen, "not a TZif file");
        return false;
    }
    h->version = (char)p[4];
    if (h->version != 0 && (h->version < '2' || h->version > '4')) {
        snprintf(err, errlen, "unknown TZif version");
        return false;
    }
    h->isut = be32(p + 20);
    h->isstd = be32(p + 24);
    h->leap = be32(p + 28);
    h->time = be32(p + 32);
    h->type = be32(p + 36);
    h->chars = be32(p + 40);
    if (h->type == 0 || h->type > TZ_MAX_TYPES || h->time > TZ_MAX_TIMES ||
        h->chars == 0 || h->chars > TZ_MAX_CHARS || (h->isut && h->isut != h->type) ||
        (h->isstd && h->isstd != h->type) || h->leap > TZ_MAX_TIMES) {
        snprintf(err, errlen, "TZif counts out of range");
        return false;
    }
    if (h->leap) {
        snprintf(err, errlen, "TZif file uses leap seconds");
        return false;
    }
    return true;
}

static size_t block_len(const tzif_hdr *h, size_t tsize)
{
    return h->time * tsize + h->time + h->type * 6 + h->chars + h->leap * (tsize + 4) +
           h->isstd + h->isut;
}

/* The data block of header h with times of tsize bytes into tz. */
static bool read_block(rd *r, const tzif_hdr *h, size_t tsize, rl_tz *tz, char *err,
                       size_t errlen)
{
    const uint8_t *p;
    if (!rd_take(r, block_len(h, tsize), &p)) {
        snprintf(err, errlen, "truncated TZif data");
        return false;
    }
    tz->ntrans = h->time;
    tz->ntypes = h->type;
    tz->ats = calloc(h->time ? h->time : 1, sizeof *tz->ats);
    tz->idx = calloc(h->time ? h->time : 1, 1);
    tz->types = calloc(h->type, sizeof *tz->types);
    if (!tz->ats || !tz->idx || !tz->types) {
        snprintf(err, errlen, "out of memory");
        return false;
    }
    for (size_t i = 0; i < h->time; i++, p += tsize) {
        tz->ats[i] = tsize == 8 ? be64(p) : (int64_t)(int32_t)be32(p);
        if (i && tz->ats[i] <= tz->ats[i - 1]) {
            snprintf(err, errlen, "TZif transitions out of order");
            return false;
        }
    }
    for (size_t i = 0; i < h->time; i++) {
        tz->idx[i] = *p++;
        if (tz->idx[i] >= h->type) {
            snprintf(err, errlen, "TZif transition type out of range");
            return false;
        }
    }
    const uint8_t *chars = p + h->type * 6;
    for (size_t i = 0; i < h->type; i++, p += 6) {
        int32_t off = (int32_t)be32(p);
        if (off > TZ_MAX_OFFSET || off < -TZ_MAX_OFFSET || p[4] > 1 || p[5] >= h->chars ||
            !memchr(chars + p[5], '\0', h->chars - p[5])) {
            snprintf(err, errlen, "TZif time type malformed");
            return false;
        }
        tz->types[i].east = off;
        tz->types[i].dst = p[4] == 1;
        snprintf(tz->types[i].abbr, ABBR_MAX, "%s", (const char *)chars + p[5]);
    }
    return true;
}

static void tz_clear_data(rl_tz *tz)
{
    free(tz->ats);
    free(tz->idx);
    free(tz->types);
    tz->ats = NULL;
    tz->idx = NULL;
    tz->types = NULL;
    tz->ntrans = tz->ntypes = 0;
}

rl_tz *rl_tz_parse(const uint8_t *p, size_t len, const char *name, char *err, size_t errlen)
{
    rd r = {p, len, 0};
    tzif_hdr h;
    rl_tz *tz = calloc(1, sizeof *tz);
    if (!tz) {
        snprintf(err, errlen, "out of memory");
        return NULL;
    }
    snprintf(tz->name, sizeof tz->name, "%s", name ? name : "");
    if (!read_hdr(&r, &h, err, errlen) || !read_block(&r, &h, 4, tz, err, errlen))
        goto fail;
    if (h.version == 0) {
        if (r.off != len) {
            snprintf(err, errlen, "trailing bytes after TZif data");
            goto fail;
        }
        return tz;
    }
    tz_clear_data(tz); /* version 2+: the 64-bit data replaces the 32-bit */
    if (!read_hdr(&r, &h, err, errlen) || !read_block(&r, &h, 8, tz, err, errlen))
        goto fail;
    const uint8_t *nl;
    if (!rd_take(&r, 1, &nl) || *nl != '\n') {
        snprintf(err, errlen, "TZif footer missing");
        goto fail;
    }
    const uint8_t *start = p + r.off, *end = memchr(start, '\n', len - r.off);
    if (!end || (size_t)(end - start) > RL_TZ_NAME_MAX) {
        snprintf(err, errlen, "TZif footer malformed");
        goto fail;
    }
    if (end > start) {
        char spec[RL_TZ_NAME_MAX + 1];
        memcpy(spec, start, (size_t)(end - start));
        spec[end - start] = '\0';
        if (strchr(spec, '\0') != spec + (end - start) || !parse_posix(spec, &tz->rule)) {
            snprintf(err, errlen, "TZif footer is not a POSIX TZ string");
            goto fail;
        }
    }
    return tz;
fail:
    rl_tz_free(tz);
    return NULL;
}

rl_tz *rl_tz_from_posix(const char *spec, const char *name)
{
    if (!spec || strlen(spec) > RL_TZ_NAME_MAX)
        return NULL;
    rl_tz *tz = calloc(1, sizeof *tz);
    if (!tz)
        return NULL;
    if (!parse_posix(spec, &tz->rule)) {
        free(tz);
        return NULL;
    }
    snprintf(tz->name, sizeof tz->name, "%s", name ? name : spec);
    return tz;
}

void rl_tz_free(rl_tz *tz)
{
    if (!tz)
        return;
    tz_clear_data(tz);
    free(tz);
}

const char *rl_tz_name(const rl_tz *tz) { return tz->name; }

static rl_tz utc_zone = {
    .name = "UTC",
    .rule = {.present = true, .std = {.east = 0, .dst = false, .abbr = "UTC"}},
};

const rl_tz *rl_tz_utc(void) { return &utc_zone; }

/* ---------------------------------------------------------- offsets */

/* The type before the first transition: the first standard-time one. */
static const tz_type *early_type(const rl_tz *tz)
{
    for (size_t i = 0; i < tz->ntypes; i++)
        if (!tz->types[i].dst)
            return &tz->types[i];
    return &tz->types[0];
}

static const tz_type *type_at(const rl_tz *tz, int64_t t)
{
    assert(tz->ntypes || tz->rule.present); /* a zone has a type for every instant */
    if (tz->ntrans && t >= tz->ats[tz->ntrans - 1] && tz->rule.present)
        return rule_type_at(&tz->rule, t);
    if (!tz->ntrans)
        return tz->rule.present || !tz->ntypes ? rule_type_at(&tz->rule, t) : &tz->types[0];
    if (t < tz->ats[0])
        return early_type(tz);
    size_t lo = 0, hi = tz->ntrans; /* last transition <= t */
    while (hi - lo > 1) {
        size_t mid = lo + (hi - lo) / 2;
        if (tz->ats[mid] <= t)
            lo = mid;
        else
            hi = mid;
    }
    return &tz->types[tz->idx[lo]];
}

bool rl_tz_fixed_offset(const rl_tz *tz, int32_t *east)
{
    const tz_type *first = tz->ntypes ? &tz->types[0] : tz->rule.present ? &tz->rule.std : NULL;
    if (!first)
        return false;
    for (size_t i = 1; i < tz->ntypes; i++)
        if (tz->types[i].east != first->east)
            return false;
    const tz_rule *r = &tz->rule;
    if (r->present && (r->std.east != first->east || (r->has_dst && r->dst.east != first->east)))
        return false;
    *east = first->east;
    return true;
}

int32_t rl_tz_offset_at(const rl_tz *tz, int64_t t, bool *isdst, const char **abbrev)
{
    const tz_type *ty = type_at(tz, t);
    if (isdst)
        *isdst = ty->dst;
    if (abbrev)
        *abbrev = ty->abbr;
    return ty->east;
}

/* The first change after t: false when there is none. */
static bool next_change(const rl_tz *tz, int64_t t, int64_t *at, const tz_type **after)
{
    if (tz->ntrans && t < tz->ats[tz->ntrans - 1]) {
        size_t lo = 0, hi = tz->ntrans - 1; /* first transition > t */
        while (lo < hi) {
            size_t mid = lo + (hi - lo) / 2;
            if (tz->ats[mid] > t)
                hi = mid;
            else
                lo = mid + 1;
        }
        *at = tz->ats[lo];
        *after = &tz->types[tz->idx[lo]];
        return true;
    }
    if (!tz->rule.present || !tz->rule.has_dst)
        return false;
    rule_change ch[8];
    size_t n = rule_changes(&tz->rule, year_of(t + tz->rule.std.east), ch);
    int64_t floor = tz->ntrans ? tz->ats[tz->ntrans - 1] : INT64_MIN;
    for (size_t i = 0; i < n; i++)
        if (ch[i].at > t && ch[i].at > floor) {
            *at = ch[i].at;
            *after = ch[i].type;
            return true;
        }
    return false;
}

int32_t rl_tz_offset_of_local(const rl_tz *tz, int64_t local, bool *isdst)
{
    int64_t prev = local - SECS_PER_DAY, boundary;
    const tz_type *before = type_at(tz, prev), *after;
    const tz_type *pick = before;
    if (next_change(tz, prev, &boundary, &after)) {
        int64_t before_t = local - before->east, after_t = local - after->east;
        if (before_t < boundary && after_t < boundary)
            pick = before;
        else if (before_t > boundary && after_t >= boundary)
            pick = after;
        else
            pick = before_t > after_t ? before : after;
    }
    if (isdst)
        *isdst = pick->dst;
    return pick->east;
}

static int64_t us_to_unix(int64_t us)
{
    return floor_div(us, USECS_PER_SEC) + UNIX_DAYS_2000 * SECS_PER_DAY;
}

int64_t rl_tz_utc_to_local_us(const rl_tz *tz, int64_t utc_us, int32_t *east)
{
    int32_t off = 0;
    if (utc_us != INT64_MAX && utc_us != INT64_MIN) {
        off = rl_tz_offset_at(tz, us_to_unix(utc_us), NULL, NULL);
        utc_us += off * USECS_PER_SEC;
    }
    if (east)
        *east = off;
    return utc_us;
}

int64_t rl_tz_local_to_utc_us(const rl_tz *tz, int64_t local_us, int32_t *east)
{
    int32_t off = 0;
    if (local_us != INT64_MAX && local_us != INT64_MIN) {
        off = rl_tz_offset_of_local(tz, us_to_unix(local_us), NULL);
        local_us -= off * USECS_PER_SEC;
    }
    if (east)
        *east = off;
    return local_us;
}

/* ---------------------------------------------------------- names, cache */

typedef struct cache_entry {
    char key[RL_TZ_NAME_MAX + 1]; /* the name as asked, upper-cased */
    rl_tz *tz;
} cache_entry;

static pthread_mutex_t cache_lock = PTHREAD_MUTEX_INITIALIZER;
static cache_entry *cache;
static size_t cache_n, cache_cap;

static void upper_key(const char *name, char *key)
{
    size_t i = 0;
    for (; name[i] && i < RL_TZ_NAME_MAX; i++)
        key[i] = (char)toupper((unsigned char)name[i]);
    key[i] = '\0';
}

/* Caller holds cache_lock. */
static rl_tz *cache_find(const char *key)
{
    for (size_t i = 0; i < cache_n; i++)
        if (strcmp(cache[i].key, key) == 0)
            return cache[i].tz;
    return NULL;
}

/* Caller holds cache_lock; takes tz (freed when it cannot be kept). */
static rl_tz *cache_add(const char *key, rl_tz *tz)
{
    if (cache_n == RL_TZ_CACHE_MAX) {
        rl_tz_free(tz);
        return NULL;
    }
    if (cache_n == cache_cap) {
        size_t cap = cache_cap ? cache_cap * 2 : 16;
        cache_entry *grown = realloc(cache, cap * sizeof *grown);
        if (!grown) {
            rl_tz_free(tz);
            return NULL;
        }
        cache = grown;
        cache_cap = cap;
    }
    snprintf(cache[cache_n].key, sizeof cache[cache_n].key, "%s", key);
    cache[cache_n++].tz = tz;
    return tz;
}

/* One path component matched case-blind in directory dir (exact first). */
static bool match_component(const char *dir, const char *comp, char *out, size_t n)
{
    if (!*comp || strcmp(comp, ".") == 0 || strcmp(comp, "..") == 0)
        return false;
    DIR *d = opendir(dir);
    if (!d)
        return false;
    bool found = false;
    for (struct dirent *e; (e = readdir(d));) {
        if (strcasecmp(e->d_name, comp) == 0) {
            snprintf(out, n, "%s", e->d_name);
            found = true;
            if (strcmp(e->d_name, comp) == 0)
                break;
        }
    }
    closedir(d);
    return found;
}

/* The zone file of name under TZ_DIR, case-blind: its path and canonical
 * name (the files' own spelling). */
static bool find_zone_file(const char *name, char *path, size_t pathlen, char *canon,
                           size_t canonlen)
{
    char buf[RL_TZ_NAME_MAX + 1];
    snprintf(buf, sizeof buf, "%s", name);
    snprintf(path, pathlen, "%s", TZ_DIR);
    canon[0] = '\0';
    char *save = NULL;
    if (buf[0] == '/' || strstr(buf, "//"))
        return false;
    for (char *comp = strtok_r(buf, "/", &save); comp; comp = strtok_r(NULL, "/", &save)) {
        char actual[256];
        if (!match_component(path, comp, actual, sizeof actual))
            return false;
        size_t pl = strlen(path), cl = strlen(canon), al = strlen(actual);
        if (pl + 1 + al >= pathlen || cl + 1 + al >= canonlen)
            return false;
        path[pl] = '/';
        memcpy(path + pl + 1, actual, al + 1);
        if (cl)
            canon[cl++] = '/';
        memcpy(canon + cl, actual, al + 1);
    }
    struct stat st;
    return canon[0] && stat(path, &st) == 0 && S_ISREG(st.st_mode);
}

static rl_tz *load_file(const char *path, const char *canon)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    uint8_t *data = malloc(TZ_MAX_FILE);
    size_t len = data ? fread(data, 1, TZ_MAX_FILE, f) : 0;
    bool whole = data && feof(f) && !ferror(f);
    fclose(f);
    rl_tz *tz = NULL;
    char err[128];
    if (whole)
        tz = rl_tz_parse(data, len, canon, err, sizeof err);
    free(data);
    return tz;
}

static rl_tz *load_zone(const char *name)
{
    char path[1024], canon[RL_TZ_NAME_MAX + 1];
    if (find_zone_file(name, path, sizeof path, canon, sizeof canon)) {
        rl_tz *tz = load_file(path, canon);
        if (tz)
            return tz;
    }
    char upper[RL_TZ_NAME_MAX + 1]; /* PostgreSQL shows a POSIX spec upper-cased */
    upper_key(name, upper);
    return rl_tz_from_posix(upper, upper);
}

const rl_tz *rl_tz_lookup(const char *name)
{
    if (!name || !*name || strlen(name) > RL_TZ_NAME_MAX)
        return NULL;
    char key[RL_TZ_NAME_MAX + 1];
    upper_key(name, key);
    pthread_mutex_lock(&cache_lock);
    rl_tz *tz = cache_find(key);
    if (!tz) {
        rl_tz *loaded = load_zone(name);
        tz = loaded ? cache_add(key, loaded) : NULL;
    }
    pthread_mutex_unlock(&cache_lock);
    return tz;
}

const rl_tz *rl_tz_fixed(int32_t east)
{
    if (east > 168 * 3600 || east < -168 * 3600)
        return NULL;
    int32_t mag = east < 0 ? -east : east;
    char off[32], name[80];
    snprintf(off, sizeof off, "%02d", mag / 3600);
    if (mag % 3600) {
        size_t l = strlen(off);
        snprintf(off + l, sizeof off - l, ":%02d", mag / 60 % 60);
        if (mag % 60) {
            l = strlen(off);
            snprintf(off + l, sizeof off - l, ":%02d", mag % 60);
        }
    }
    /* PostgreSQL's pg_tzset_offset: the POSIX sign is west-positive */
    snprintf(name, sizeof name, east >= 0 ? "<+%s>-%s" : "<-%s>+%s", off, off);
    return rl_tz_lookup(name);
}

/* The fixed-offset abbreviations of PostgreSQL's Default
 * timezone_abbreviations set that AT TIME ZONE is most often given (seconds
 * east); they win over a zone file of the same name ('CET' is +01 all year,
 * the zone CET is not). */
static const struct {
    const char *abbrev;
    int32_t east;
} zone_abbrevs[] = {
    {"acdt", 37800},  {"acst", 34200},  {"adt", -10800},  {"aedt", 39600},  {"aest", 36000},
    {"akdt", -28800}, {"akst", -32400}, {"ast", -14400},  {"awst", 28800},  {"bst", 3600},
    {"cdt", -18000},  {"cest", 7200},   {"cet", 3600},    {"cst", -21600},  {"edt", -14400},
    {"eest", 10800},  {"eet", 7200},    {"est", -18000},  {"gmt", 0},       {"hkt", 28800},
    {"hst", -36000},  {"ist", 7200},    {"jst", 32400},   {"kst", 32400},   {"mdt", -21600},
    {"mesz", 7200},   {"mez", 3600},    {"mst", -25200},  {"ndt", -9000},   {"nst", -12600},
    {"nzdt", 46800},  {"nzst", 43200},  {"pdt", -25200},  {"pst", -28800},  {"sgt", 28800},
    {"ut", 0},        {"utc", 0},       {"wet", 0},       {"z", 0},         {"zulu", 0},
};

bool rl_tz_abbrev(const char *name, int32_t *east)
{
    for (size_t i = 0; i < sizeof zone_abbrevs / sizeof zone_abbrevs[0]; i++)
        if (strcasecmp(name, zone_abbrevs[i].abbrev) == 0) {
            *east = zone_abbrevs[i].east;
            return true;
        }
    return false;
}

/* ---------------------------------------------------------- session zone */

static _Thread_local const rl_tz *current_zone;

const rl_tz *rl_tz_current(void) { return current_zone ? current_zone : &utc_zone; }

void rl_tz_set_current(const rl_tz *tz) { current_zone = tz; }
