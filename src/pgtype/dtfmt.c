/*
 * dtfmt.c — PostgreSQL 15's date/time template patterns (dtfmt.h): THE
 * keyword table both directions use, the pattern parser, to_char's layout
 * of a broken-down time and to_timestamp's reading of text into fields,
 * then into a calendar date and a time of day (do_to_timestamp's rules).
 *
 * Invariants: the reader walks a NUL-terminated copy of its input and never
 * steps past its NUL; every integer field is read into an int as
 * PostgreSQL's strtol-to-int does, and later arithmetic runs in int64 so no
 * input overflows.
 */
#include "pgtype/dtfmt.h"

#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/error.h"
#include "pgtype/pgtype.h"

#define SQLSTATE_FORMAT RL_SQLSTATE_INVALID_DATETIME_FORMAT
#define SQLSTATE_RANGE RL_SQLSTATE_DATETIME_FIELD_OVERFLOW
#define SQLSTATE_TZ_RANGE RL_SQLSTATE_INVALID_TIME_ZONE_DISPLACEMENT_VALUE
#define SQLSTATE_NOT_SUPPORTED RL_SQLSTATE_FEATURE_NOT_SUPPORTED
#define SQLSTATE_OOM RL_SQLSTATE_OUT_OF_MEMORY

enum dt_id {
    DT_A_D, DT_A_M, DT_AD, DT_AM, DT_B_C, DT_BC, DT_CC, DT_DAY, DT_DDD, DT_DD, DT_DY, DT_Day,
    DT_Dy, DT_D, DT_FF1, DT_FF2, DT_FF3, DT_FF4, DT_FF5, DT_FF6, DT_FX, DT_HH24, DT_HH12, DT_HH,
    DT_IDDD, DT_ID, DT_IW, DT_IYYY, DT_IYY, DT_IY, DT_I, DT_J, DT_MI, DT_MM, DT_MONTH, DT_MON,
    DT_MS, DT_Month, DT_Mon, DT_OF, DT_P_M, DT_PM, DT_Q, DT_RM, DT_SSSS, DT_SS, DT_TZH, DT_TZM,
    DT_TZ, DT_US, DT_WW, DT_W, DT_Y_YYY, DT_YYYY, DT_YYY, DT_YY, DT_Y, DT_a_d, DT_a_m, DT_ad,
    DT_am, DT_b_c, DT_bc, DT_day, DT_dy, DT_month, DT_mon, DT_p_m, DT_pm, DT_rm, DT_tz
};

enum { MODE_NONE, MODE_GREGORIAN, MODE_ISOWEEK };

/* THE keyword table, in formatting.c's order: of the keywords sharing a
 * first character, the first that matches wins (so "HH24" before "HH"). */
static const struct dt_kw {
    const char *name;
    uint8_t len;
    uint8_t id;
    bool is_digit;
    uint8_t mode;
} kw[] = {
    {"A.D.", 4, DT_A_D, false, MODE_NONE},   {"A.M.", 4, DT_A_M, false, MODE_NONE},
    {"AD", 2, DT_AD, false, MODE_NONE},      {"AM", 2, DT_AM, false, MODE_NONE},
    {"B.C.", 4, DT_B_C, false, MODE_NONE},   {"BC", 2, DT_BC, false, MODE_NONE},
    {"CC", 2, DT_CC, true, MODE_NONE},       {"DAY", 3, DT_DAY, false, MODE_NONE},
    {"DDD", 3, DT_DDD, true, MODE_GREGORIAN}, {"DD", 2, DT_DD, true, MODE_GREGORIAN},
    {"DY", 2, DT_DY, false, MODE_NONE},      {"Day", 3, DT_Day, false, MODE_NONE},
    {"Dy", 2, DT_Dy, false, MODE_NONE},      {"D", 1, DT_D, true, MODE_GREGORIAN},
    {"FF1", 3, DT_FF1, true, MODE_NONE},     {"FF2", 3, DT_FF2, true, MODE_NONE},
    {"FF3", 3, DT_FF3, true, MODE_NONE},     {"FF4", 3, DT_FF4, true, MODE_NONE},
    {"FF5", 3, DT_FF5, true, MODE_NONE},     {"FF6", 3, DT_FF6, true, MODE_NONE},
    {"FX", 2, DT_FX, false, MODE_NONE},      {"HH24", 4, DT_HH24, true, MODE_NONE},
    {"HH12", 4, DT_HH12, true, MODE_NONE},   {"HH", 2, DT_HH, true, MODE_NONE},
    {"IDDD", 4, DT_IDDD, true, MODE_ISOWEEK}, {"ID", 2, DT_ID, true, MODE_ISOWEEK},
    {"IW", 2, DT_IW, true, MODE_ISOWEEK},    {"IYYY", 4, DT_IYYY, true, MODE_ISOWEEK},
    {"IYY", 3, DT_IYY, true, MODE_ISOWEEK},  {"IY", 2, DT_IY, true, MODE_ISOWEEK},
    {"I", 1, DT_I, true, MODE_ISOWEEK},      {"J", 1, DT_J, true, MODE_NONE},
    {"MI", 2, DT_MI, true, MODE_NONE},       {"MM", 2, DT_MM, true, MODE_GREGORIAN},
    {"MONTH", 5, DT_MONTH, false, MODE_GREGORIAN}, {"MON", 3, DT_MON, false, MODE_GREGORIAN},
    {"MS", 2, DT_MS, true, MODE_NONE},       {"Month", 5, DT_Month, false, MODE_GREGORIAN},
    {"Mon", 3, DT_Mon, false, MODE_GREGORIAN}, {"OF", 2, DT_OF, false, MODE_NONE},
    {"P.M.", 4, DT_P_M, false, MODE_NONE},   {"PM", 2, DT_PM, false, MODE_NONE},
    {"Q", 1, DT_Q, true, MODE_NONE},         {"RM", 2, DT_RM, false, MODE_GREGORIAN},
    {"SSSSS", 5, DT_SSSS, true, MODE_NONE},  {"SSSS", 4, DT_SSSS, true, MODE_NONE},
    {"SS", 2, DT_SS, true, MODE_NONE},       {"TZH", 3, DT_TZH, false, MODE_NONE},
    {"TZM", 3, DT_TZM, true, MODE_NONE},     {"TZ", 2, DT_TZ, false, MODE_NONE},
    {"US", 2, DT_US, true, MODE_NONE},       {"WW", 2, DT_WW, true, MODE_GREGORIAN},
    {"W", 1, DT_W, true, MODE_GREGORIAN},    {"Y,YYY", 5, DT_Y_YYY, true, MODE_GREGORIAN},
    {"YYYY", 4, DT_YYYY, true, MODE_GREGORIAN}, {"YYY", 3, DT_YYY, true, MODE_GREGORIAN},
    {"YY", 2, DT_YY, true, MODE_GREGORIAN},  {"Y", 1, DT_Y, true, MODE_GREGORIAN},
    {"a.d.", 4, DT_a_d, false, MODE_NONE},   {"a.m.", 4, DT_a_m, false, MODE_NONE},
    {"ad", 2, DT_ad, false, MODE_NONE},      {"am", 2, DT_am, false, MODE_NONE},
    {"b.c.", 4, DT_b_c, false, MODE_NONE},   {"bc", 2, DT_bc, false, MODE_NONE},
    {"cc", 2, DT_CC, true, MODE_NONE},       {"day", 3, DT_day, false, MODE_NONE},
    {"ddd", 3, DT_DDD, true, MODE_GREGORIAN}, {"dd", 2, DT_DD, true, MODE_GREGORIAN},
    {"dy", 2, DT_dy, false, MODE_NONE},      {"d", 1, DT_D, true, MODE_GREGORIAN},
    {"ff1", 3, DT_FF1, true, MODE_NONE},     {"ff2", 3, DT_FF2, true, MODE_NONE},
    {"ff3", 3, DT_FF3, true, MODE_NONE},     {"ff4", 3, DT_FF4, true, MODE_NONE},
    {"ff5", 3, DT_FF5, true, MODE_NONE},     {"ff6", 3, DT_FF6, true, MODE_NONE},
    {"fx", 2, DT_FX, false, MODE_NONE},      {"hh24", 4, DT_HH24, true, MODE_NONE},
    {"hh12", 4, DT_HH12, true, MODE_NONE},   {"hh", 2, DT_HH, true, MODE_NONE},
    {"iddd", 4, DT_IDDD, true, MODE_ISOWEEK}, {"id", 2, DT_ID, true, MODE_ISOWEEK},
    {"iw", 2, DT_IW, true, MODE_ISOWEEK},    {"iyyy", 4, DT_IYYY, true, MODE_ISOWEEK},
    {"iyy", 3, DT_IYY, true, MODE_ISOWEEK},  {"iy", 2, DT_IY, true, MODE_ISOWEEK},
    {"i", 1, DT_I, true, MODE_ISOWEEK},      {"j", 1, DT_J, true, MODE_NONE},
    {"mi", 2, DT_MI, true, MODE_NONE},       {"mm", 2, DT_MM, true, MODE_GREGORIAN},
    {"month", 5, DT_month, false, MODE_GREGORIAN}, {"mon", 3, DT_mon, false, MODE_GREGORIAN},
    {"ms", 2, DT_MS, true, MODE_NONE},       {"of", 2, DT_OF, false, MODE_NONE},
    {"p.m.", 4, DT_p_m, false, MODE_NONE},   {"pm", 2, DT_pm, false, MODE_NONE},
    {"q", 1, DT_Q, true, MODE_NONE},         {"rm", 2, DT_rm, false, MODE_GREGORIAN},
    {"sssss", 5, DT_SSSS, true, MODE_NONE},  {"ssss", 4, DT_SSSS, true, MODE_NONE},
    {"ss", 2, DT_SS, true, MODE_NONE},       {"tzh", 3, DT_TZH, false, MODE_NONE},
    {"tzm", 3, DT_TZM, true, MODE_NONE},     {"tz", 2, DT_tz, false, MODE_NONE},
    {"us", 2, DT_US, true, MODE_NONE},       {"ww", 2, DT_WW, true, MODE_GREGORIAN},
    {"w", 1, DT_W, true, MODE_GREGORIAN},    {"y,yyy", 5, DT_Y_YYY, true, MODE_GREGORIAN},
    {"yyyy", 4, DT_YYYY, true, MODE_GREGORIAN}, {"yyy", 3, DT_YYY, true, MODE_GREGORIAN},
    {"yy", 2, DT_YY, true, MODE_GREGORIAN},  {"y", 1, DT_Y, true, MODE_GREGORIAN},
};
#define NKW (sizeof kw / sizeof kw[0])

static const struct {
    const char *name;
    uint8_t id;
    bool prefix;
} suffixes[] = {
    {"FM", RL_DTFMT_S_FM, true}, {"fm", RL_DTFMT_S_FM, true}, {"TM", RL_DTFMT_S_TM, true},
    {"tm", RL_DTFMT_S_TM, true}, {"TH", RL_DTFMT_S_TH, false}, {"th", RL_DTFMT_S_th, false},
    {"SP", RL_DTFMT_S_SP, false},
};

static const char *const months_full[] = {"January", "February", "March",     "April",
                                          "May",     "June",     "July",      "August",
                                          "September", "October", "November", "December",
                                          NULL};
static const char *const months_abbrev[] = {"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul",
                                            "Aug", "Sep", "Oct", "Nov", "Dec", NULL};
static const char *const days_full[] = {"Sunday",   "Monday", "Tuesday", "Wednesday",
                                        "Thursday", "Friday", "Saturday", NULL};
static const char *const days_abbrev[] = {"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat", NULL};
static const char *const rm_upper[] = {"XII", "XI",  "X",  "IX", "VIII", "VII", "VI",
                                       "V",   "IV",  "III", "II", "I",   NULL};
static const char *const rm_lower[] = {"xii", "xi",  "x",  "ix", "viii", "vii", "vi",
                                       "v",   "iv",  "iii", "ii", "i",   NULL};
static const char *const ampm[] = {"am", "pm", "AM", "PM", NULL};
static const char *const ampm_long[] = {"a.m.", "p.m.", "A.M.", "P.M.", NULL};
static const char *const adbc[] = {"ad", "bc", "AD", "BC", NULL};
static const char *const adbc_long[] = {"a.d.", "b.c.", "A.D.", "B.C.", NULL};

static int set_err(rl_dtfmt_error *err, const char *state, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int set_err(rl_dtfmt_error *err, const char *state, const char *fmt, ...)
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
static int err_detail(rl_dtfmt_error *err, const char *detail)
{
    snprintf(err->detail, sizeof err->detail, "%s", detail);
    return -1;
}

static size_t mblen_at(const char *s, size_t left)
{
    unsigned char c = (unsigned char)*s;
    size_t n = (c & 0x80) == 0 ? 1 : (c & 0xe0) == 0xc0 ? 2 : (c & 0xf0) == 0xe0 ? 3
                                     : (c & 0xf8) == 0xf0 ? 4 : 1;
    return n < left ? n : left;
}

/* ------------------------------------------------------------ calendar */

int64_t rl_dtfmt_date2j(int64_t y, int64_t m, int64_t d)
{
    /* the days before month m, then the day: rl_ymd_to_date wants a real
     * month, so carry whole years first */
    int64_t yy = y + (m - 1 >= 0 ? (m - 1) / 12 : -((12 - m) / 12));
    int mm = (int)(((m - 1) % 12 + 12) % 12) + 1;
    return rl_ymd_to_date(yy, mm, 1) + (d - 1) + 2451545;
}

void rl_dtfmt_j2date(int64_t j, int64_t *y, int *m, int *d)
{
    rl_date_to_ymd(j - 2451545, y, m, d);
}

/* 0 Sunday .. 6 Saturday */
static int j2day(int64_t j) { return (int)(((j + 1) % 7 + 7) % 7); }

static bool is_leap(int64_t y) { return y % 4 == 0 && (y % 100 != 0 || y % 400 == 0); }

/* The Julian day of the Monday of ISO week `week` of ISO year y. */
static int64_t isoweek2j(int64_t y, int64_t week)
{
    int64_t day4 = rl_dtfmt_date2j(y, 1, 4);
    return (week - 1) * 7 + (day4 - j2day(day4 - 1));
}

static void iso_of(int64_t y, int m, int d, int64_t *isoyear, int *week)
{
    int64_t dayn = rl_dtfmt_date2j(y, m, d), year = y;
    int64_t day4 = rl_dtfmt_date2j(year, 1, 4), start = day4 - j2day(day4 - 1);
    if (dayn < start) {
        year--;
        day4 = rl_dtfmt_date2j(year, 1, 4);
        start = day4 - j2day(day4 - 1);
    }
    int64_t w = (dayn - start) / 7 + 1;
    if (w >= 52) {
        int64_t n4 = rl_dtfmt_date2j(year + 1, 1, 4), nstart = n4 - j2day(n4 - 1);
        if (dayn >= nstart) {
            year++;
            w = (dayn - nstart) / 7 + 1;
        }
    }
    *isoyear = year;
    *week = (int)w;
}

/* ------------------------------------------------------------- parsing */

static int lookup(const char *s, size_t left)
{
    for (size_t i = 0; i < NKW; i++)
        if (kw[i].len <= left && memcmp(s, kw[i].name, kw[i].len) == 0)
            return (int)i;
    return -1;
}

static int suffix_at(const char *s, size_t left, bool prefix, size_t *len)
{
    for (size_t i = 0; i < sizeof suffixes / sizeof suffixes[0]; i++)
        if (suffixes[i].prefix == prefix && left >= 2 && memcmp(s, suffixes[i].name, 2) == 0) {
            *len = 2;
            return suffixes[i].id;
        }
    *len = 0;
    return 0;
}

static bool is_separator(unsigned char c)
{
    return c > 0x20 && c < 0x7f && !isalnum(c);
}

static void put_char(rl_dtfmt *f, const char *s, size_t cl, uint8_t type)
{
    rl_dtfmt_node *n = &f->nodes[f->n++];
    memset(n, 0, sizeof *n);
    n->type = type;
    n->clen = (uint8_t)cl;
    memcpy(n->ch, s, cl);
}

int rl_dtfmt_parse(const char *fmt, size_t len, rl_dtfmt *f)
{
    memset(f, 0, sizeof *f);
    const char *nul = memchr(fmt, '\0', len);
    if (nul)
        len = (size_t)(nul - fmt);
    f->nodes = malloc((len + 1) * sizeof *f->nodes);
    if (!f->nodes)
        return -1;
    size_t i = 0;
    while (i < len) {
        size_t sl;
        int suffix = suffix_at(fmt + i, len - i, true, &sl);
        i += sl;
        int k = i < len ? lookup(fmt + i, len - i) : -1;
        if (k >= 0) {
            rl_dtfmt_node *n = &f->nodes[f->n++];
            memset(n, 0, sizeof *n);
            n->type = RL_DTFMT_ACTION;
            n->key = (int16_t)k;
            i += kw[k].len;
            if (i < len) {
                suffix |= suffix_at(fmt + i, len - i, false, &sl);
                i += sl;
            }
            n->suffix = (uint8_t)suffix;
        } else if (i < len && fmt[i] == '"') {
            for (i++; i < len;) {
                if (fmt[i] == '"') {
                    i++;
                    break;
                }
                if (fmt[i] == '\\' && i + 1 < len)
                    i++;
                size_t cl = mblen_at(fmt + i, len - i);
                put_char(f, fmt + i, cl, RL_DTFMT_CHAR);
                i += cl;
            }
        } else if (i < len) {
            if (fmt[i] == '\\' && i + 1 < len && fmt[i + 1] == '"')
                i++;
            size_t cl = mblen_at(fmt + i, len - i);
            unsigned char c = (unsigned char)fmt[i];
            put_char(f, fmt + i, cl,
                     is_separator(c) ? RL_DTFMT_SEPARATOR
                                     : isspace(c) ? RL_DTFMT_SPACE : RL_DTFMT_CHAR);
            i += cl;
        }
    }
    assert(f->n <= len);
    return 0;
}

void rl_dtfmt_free(rl_dtfmt *f)
{
    free(f->nodes);
    f->nodes = NULL;
    f->n = 0;
}

/* ------------------------------------------------------------- to_char */

#define FM(n) (((n)->suffix & RL_DTFMT_S_FM) != 0)
#define TM(n) (((n)->suffix & RL_DTFMT_S_TM) != 0)
#define THth(n) (((n)->suffix & (RL_DTFMT_S_TH | RL_DTFMT_S_th)) != 0)

/* The ordinal suffix of the number text t[0..len): "st", "nd", "rd", "th"
 * ("th" for the teens). */
static const char *ordinal(const char *t, size_t len, bool upper)
{
    char last = len ? t[len - 1] : '0';
    if (len > 1 && t[len - 2] == '1')
        last = '0';
    switch (last) {
    case '1': return upper ? "ST" : "st";
    case '2': return upper ? "ND" : "nd";
    case '3': return upper ? "RD" : "rd";
    default: return upper ? "TH" : "th";
    }
}

/* A number, zero-padded to width unless FM, then its TH/th. */
static void put_num(rl_buf *b, const rl_dtfmt_node *n, int width, int64_t v)
{
    size_t at = b->len;
    rl_buf_printf(b, "%0*lld", FM(n) ? 0 : width, (long long)v);
    if (THth(n) && !b->failed)
        rl_buf_put_str(b, ordinal((const char *)b->data + at, b->len - at,
                                  (n->suffix & RL_DTFMT_S_TH) != 0));
}

/* A name in the keyword's case (MONTH upper, Month as is, month lower),
 * padded to 9 unless FM or TM (pad 0: never padded). */
static void put_name(rl_buf *b, const rl_dtfmt_node *n, const char *name, int casing, int pad)
{
    size_t at = b->len;
    rl_buf_put_str(b, name);
    for (size_t k = at; k < b->len && !b->failed; k++)
        b->data[k] = (uint8_t)(casing > 0 ? toupper(b->data[k])
                                          : casing < 0 ? tolower(b->data[k]) : b->data[k]);
    if (!FM(n) && !TM(n))
        for (size_t k = b->len - at; (int)k < pad; k++)
            rl_buf_put_u8(b, ' ');
}

/* The year as shown: BC years counted back from 1; an interval's as is. */
static int64_t show_year(const rl_dtfmt_tm *tm, int64_t y)
{
    return tm->is_interval ? y : y <= 0 ? -(y - 1) : y;
}

/* The patterns an interval has no value for (INVALID_FOR_INTERVAL). */
static bool not_for_interval(int id)
{
    switch (id) {
    case DT_tz: case DT_TZ: case DT_TZH: case DT_TZM: case DT_OF:
    case DT_A_D: case DT_B_C: case DT_AD: case DT_BC: case DT_a_d: case DT_b_c: case DT_ad:
    case DT_bc: case DT_MONTH: case DT_Month: case DT_month: case DT_MON: case DT_Mon:
    case DT_mon: case DT_DAY: case DT_Day: case DT_day: case DT_DY: case DT_Dy: case DT_dy:
    case DT_D: case DT_ID: return true;
    default: return false;
    }
}

/* A signed field's width: one more for its minus sign. */
static int signed_width(int width, int64_t v) { return v >= 0 ? width : width + 1; }

int rl_dtfmt_to_char(const rl_dtfmt *f, const rl_dtfmt_tm *tm, rl_buf *out, rl_dtfmt_error *err)
{
    bool pm = tm->hour % 24 >= 12;
    bool bc = tm->year <= 0;
    int64_t isoyear = 0;
    int isoweek = 0;
    bool iso_done = false;
    for (size_t i = 0; i < f->n; i++) {
        const rl_dtfmt_node *n = &f->nodes[i];
        if (n->type != RL_DTFMT_ACTION) {
            rl_buf_put(out, n->ch, n->clen);
            continue;
        }
        int id = kw[n->key].id;
        if (tm->is_interval && not_for_interval(id))
            return set_err(err, SQLSTATE_FORMAT,
                           "invalid format specification for an interval value");
        if (!iso_done && (id == DT_IW || id == DT_IYYY || id == DT_IYY || id == DT_IY ||
                          id == DT_I || id == DT_IDDD)) {
            iso_of(tm->year, tm->mon, tm->mday, &isoyear, &isoweek);
            iso_done = true;
        }
        switch (id) {
        case DT_A_M: case DT_P_M: rl_buf_put_str(out, pm ? "P.M." : "A.M."); break;
        case DT_AM: case DT_PM: rl_buf_put_str(out, pm ? "PM" : "AM"); break;
        case DT_a_m: case DT_p_m: rl_buf_put_str(out, pm ? "p.m." : "a.m."); break;
        case DT_am: case DT_pm: rl_buf_put_str(out, pm ? "pm" : "am"); break;
        case DT_HH: case DT_HH12:
            put_num(out, n, signed_width(2, tm->hour), tm->hour % 12 == 0 ? 12 : tm->hour % 12);
            break;
        case DT_HH24: put_num(out, n, signed_width(2, tm->hour), tm->hour); break;
        case DT_MI: put_num(out, n, signed_width(2, tm->min), tm->min); break;
        case DT_SS: put_num(out, n, signed_width(2, tm->sec), tm->sec); break;
        case DT_FF1: case DT_FF2: case DT_FF3: case DT_FF4: case DT_FF5: case DT_FF6:
        case DT_MS: case DT_US: {
            int digits = id == DT_MS ? 3 : id == DT_US ? 6 : id - DT_FF1 + 1;
            int64_t v = tm->fsec;
            for (int k = digits; k < 6; k++)
                v /= 10;
            rl_dtfmt_node fixed = *n;
            fixed.suffix &= (uint8_t)~RL_DTFMT_S_FM; /* the fraction's width is fixed */
            put_num(out, &fixed, digits, v);
            break;
        }
        case DT_SSSS: {
            rl_dtfmt_node plain = *n;
            plain.suffix |= RL_DTFMT_S_FM;
            put_num(out, &plain, 0, tm->hour * 3600 + tm->min * 60 + tm->sec);
            break;
        }
        case DT_tz:
        case DT_TZ:
            if (tm->tzn)
                for (const char *p = tm->tzn; *p; p++)
                    rl_buf_put_u8(out, (uint8_t)(id == DT_tz ? tolower((unsigned char)*p) : *p));
            break;
        case DT_TZH:
            rl_buf_printf(out, "%c%02d", tm->gmtoff >= 0 ? '+' : '-', abs(tm->gmtoff) / 3600);
            break;
        case DT_TZM: rl_buf_printf(out, "%02d", abs(tm->gmtoff) % 3600 / 60); break;
        case DT_OF:
            rl_buf_printf(out, "%c%0*d", tm->gmtoff >= 0 ? '+' : '-', FM(n) ? 0 : 2,
                          abs(tm->gmtoff) / 3600);
            if (abs(tm->gmtoff) % 3600)
                rl_buf_printf(out, ":%02d", abs(tm->gmtoff) % 3600 / 60);
            break;
        case DT_A_D: case DT_B_C: rl_buf_put_str(out, bc ? "B.C." : "A.D."); break;
        case DT_AD: case DT_BC: rl_buf_put_str(out, bc ? "BC" : "AD"); break;
        case DT_a_d: case DT_b_c: rl_buf_put_str(out, bc ? "b.c." : "a.d."); break;
        case DT_ad: case DT_bc: rl_buf_put_str(out, bc ? "bc" : "ad"); break;
        case DT_MONTH: put_name(out, n, months_full[tm->mon - 1], 1, 9); break;
        case DT_Month: put_name(out, n, months_full[tm->mon - 1], 0, 9); break;
        case DT_month: put_name(out, n, months_full[tm->mon - 1], -1, 9); break;
        case DT_MON: put_name(out, n, months_abbrev[tm->mon - 1], 1, 0); break;
        case DT_Mon: put_name(out, n, months_abbrev[tm->mon - 1], 0, 0); break;
        case DT_mon: put_name(out, n, months_abbrev[tm->mon - 1], -1, 0); break;
        case DT_MM: put_num(out, n, signed_width(2, tm->mon), tm->mon); break;
        case DT_DAY: put_name(out, n, days_full[tm->wday], 1, 9); break;
        case DT_Day: put_name(out, n, days_full[tm->wday], 0, 9); break;
        case DT_day: put_name(out, n, days_full[tm->wday], -1, 9); break;
        case DT_DY: put_name(out, n, days_abbrev[tm->wday], 1, 0); break;
        case DT_Dy: put_name(out, n, days_abbrev[tm->wday], 0, 0); break;
        case DT_dy: put_name(out, n, days_abbrev[tm->wday], -1, 0); break;
        case DT_DDD: put_num(out, n, 3, tm->yday); break;
        case DT_IDDD:
            put_num(out, n, 3, rl_dtfmt_date2j(tm->year, tm->mon, tm->mday) - isoweek2j(isoyear, 1) + 1);
            break;
        case DT_DD: put_num(out, n, 2, tm->mday); break;
        case DT_D: put_num(out, n, 0, tm->wday + 1); break;
        case DT_ID: put_num(out, n, 0, tm->wday == 0 ? 7 : tm->wday); break;
        case DT_WW: put_num(out, n, 2, (tm->yday - 1) / 7 + 1); break;
        case DT_IW: put_num(out, n, 2, isoweek); break;
        case DT_Q:
            if (tm->mon)
                put_num(out, n, 0, (tm->mon - 1) / 3 + 1);
            break;
        case DT_CC: {
            int64_t c = tm->is_interval ? tm->year / 100
                        : tm->year > 0  ? (tm->year - 1) / 100 + 1
                                        : tm->year / 100 - 1;
            put_num(out, n, c <= 99 && c >= -99 ? (c >= 0 ? 2 : 3) : 0, c);
            break;
        }
        case DT_Y_YYY: {
            int64_t y = show_year(tm, tm->year);
            size_t at = out->len;
            rl_buf_printf(out, "%lld,%03lld", (long long)(y / 1000), (long long)(y % 1000));
            if (THth(n) && !out->failed)
                rl_buf_put_str(out, ordinal((const char *)out->data + at, out->len - at,
                                            (n->suffix & RL_DTFMT_S_TH) != 0));
            break;
        }
        case DT_YYYY:
        case DT_IYYY: {
            int64_t y = show_year(tm, id == DT_YYYY ? tm->year : isoyear);
            put_num(out, n, signed_width(4, show_year(tm, tm->year)), y); /* the width: the year's */
            break;
        }
        case DT_YYY:
        case DT_IYY: {
            int64_t y = show_year(tm, id == DT_YYY ? tm->year : isoyear);
            put_num(out, n, signed_width(3, show_year(tm, tm->year)), y % 1000);
            break;
        }
        case DT_YY:
        case DT_IY: {
            int64_t y = show_year(tm, id == DT_YY ? tm->year : isoyear);
            put_num(out, n, signed_width(2, show_year(tm, tm->year)), y % 100);
            break;
        }
        case DT_Y: put_num(out, n, 1, show_year(tm, tm->year) % 10); break;
        case DT_I: put_num(out, n, 1, show_year(tm, isoyear) % 10); break;
        case DT_RM:
        case DT_rm: {
            if (!tm->mon && !tm->year)
                break;
            /* December first; an interval's whole years and negative
             * months count back from it */
            int at = tm->mon == 0 ? (tm->year >= 0 ? 0 : 11)
                     : tm->mon < 0 ? -(tm->mon + 1) : 12 - tm->mon;
            const char *name = (id == DT_RM ? rm_upper : rm_lower)[at];
            rl_buf_printf(out, "%*s", FM(n) ? 0 : -4, name);
            break;
        }
        case DT_W: put_num(out, n, 0, (tm->mday - 1) / 7 + 1); break;
        case DT_J: put_num(out, n, 0, rl_dtfmt_date2j(tm->year, tm->mon, tm->mday)); break;
        default: break; /* FX */
        }
    }
    return out->failed ? set_err(err, SQLSTATE_OOM, "out of memory") : 0;
}

/* ----------------------------------------------------------- from_char */

typedef struct fields {
    int mode, hh, pm, mi, ss, ssss, d, dd, ddd, mm, ms, year, bc, ww, w, cc, j, us, yysz, clock,
        tzsign, tzh, tzm, ff;
} fields;

typedef struct reader {
    const rl_dtfmt *f;
    const char *s, *start;
    fields *out;
    rl_dtfmt_error *err;
} reader;

static const char *key_name(const rl_dtfmt_node *n) { return kw[n->key].name; }

static int set_int(reader *r, int *dest, int value, const rl_dtfmt_node *n)
{
    if (*dest != 0 && *dest != value) {
        set_err(r->err, SQLSTATE_FORMAT,
                "conflicting values for \"%s\" field in formatting string", key_name(n));
        return err_detail(r->err,
                          "This value contradicts a previous setting for the same field type.");
    }
    *dest = value;
    return 0;
}

static bool next_is_separator(const reader *r, size_t i)
{
    const rl_dtfmt_node *n = &r->f->nodes[i];
    if (n->type == RL_DTFMT_ACTION && THth(n))
        return true;
    if (i + 1 >= r->f->n)
        return true;
    const rl_dtfmt_node *next = &r->f->nodes[i + 1];
    if (next->type == RL_DTFMT_ACTION)
        return !kw[next->key].is_digit;
    return !(next->clen == 1 && isdigit((unsigned char)next->ch[0]));
}

/* from_char_parse_int_len: an integer of at most len characters (any
 * number of them under FM or before a separator); its length, or -1. */
static int parse_int(reader *r, int *dest, int len, size_t i)
{
    const rl_dtfmt_node *n = &r->f->nodes[i];
    const char *init = r->s;
    while (*r->s && isspace((unsigned char)*r->s))
        r->s++;
    char copy[16];
    size_t avail = strnlen(r->s, (size_t)len); /* how many of len remain */
    size_t take = avail;
    memcpy(copy, r->s, take);
    copy[take] = '\0';
    long result;
    errno = 0;
    if (FM(n) || next_is_separator(r, i)) {
        char *end;
        result = strtol(init, &end, 10);
        r->s = end;
    } else {
        if (avail < (size_t)len) {
            set_err(r->err, SQLSTATE_FORMAT,
                    "source string too short for \"%s\" formatting field", key_name(n));
            snprintf(r->err->detail, sizeof r->err->detail,
                     "Field requires %d characters, but only %zu remain.", len, avail);
            return -1;
        }
        char *last;
        result = strtol(copy, &last, 10);
        size_t used = (size_t)(last - copy);
        if (used > 0 && used < (size_t)len) {
            set_err(r->err, SQLSTATE_FORMAT, "invalid value \"%s\" for \"%s\"", copy,
                    key_name(n));
            snprintf(r->err->detail, sizeof r->err->detail,
                     "Field requires %d characters, but only %zu could be parsed.", len, used);
            return -1;
        }
        r->s += used;
    }
    if (r->s == init) {
        set_err(r->err, SQLSTATE_FORMAT, "invalid value \"%s\" for \"%s\"", copy, key_name(n));
        return err_detail(r->err, "Value must be an integer.");
    }
    if (errno == ERANGE || result < INT_MIN || result > INT_MAX) {
        set_err(r->err, SQLSTATE_RANGE, "value for \"%s\" in source string is out of range",
                key_name(n));
        return err_detail(r->err, "Value must be in the range -2147483648 to 2147483647.");
    }
    if (dest && set_int(r, dest, (int)result, n) < 0)
        return -1;
    return (int)(r->s - init);
}

/* seq_search: which word of `words` (case-blind) starts the input. */
static int parse_word(reader *r, int *value, const char *const *words, size_t i)
{
    for (int k = 0; words[k]; k++) {
        size_t wl = strlen(words[k]);
        if (strncasecmp(r->s, words[k], wl) == 0) {
            *value = k;
            r->s += wl;
            return 0;
        }
    }
    size_t cut = 0;
    while (r->s[cut] && !isspace((unsigned char)r->s[cut]) && cut < 60)
        cut++;
    set_err(r->err, SQLSTATE_FORMAT, "invalid value \"%.*s\" for \"%s\"", (int)cut, r->s,
            key_name(&r->f->nodes[i]));
    return err_detail(r->err,
                      "The given value did not match any of the allowed values for this field.");
}

static void skip_th(reader *r, const rl_dtfmt_node *n)
{
    if (!THth(n))
        return;
    for (int k = 0; k < 2 && *r->s; k++)
        r->s += mblen_at(r->s, strnlen(r->s, 4));
}

static int adjust_partial_year(int y)
{
    return y < 70 ? y + 2000 : y < 100 ? y + 1900 : y < 520 ? y + 2000 : y < 1000 ? y + 1000 : y;
}

/* Y,YYY: "%d,%03d" as sscanf reads it. */
static int parse_y_yyy(reader *r, size_t i)
{
    const char *p = r->s;
    char *end;
    while (isspace((unsigned char)*p))
        p++;
    errno = 0;
    long mil = strtol(p, &end, 10);
    if (end == p || *end != ',')
        return set_err(r->err, SQLSTATE_FORMAT, "invalid input string for \"Y,YYY\"");
    p = end + 1;
    while (isspace((unsigned char)*p))
        p++;
    char w[4] = {0};
    size_t k = 0;
    while (k < 3 && p[k] && (isdigit((unsigned char)p[k]) || (k == 0 && (p[k] == '+' || p[k] == '-')))) {
        w[k] = p[k];
        k++;
    }
    long years = strtol(w, &end, 10);
    if (end == w || !isdigit((unsigned char)end[-1]))
        return set_err(r->err, SQLSTATE_FORMAT, "invalid input string for \"Y,YYY\"");
    p += end - w;
    long total = years + mil * 1000;
    if (set_int(r, &r->out->year, (int)total, &r->f->nodes[i]) < 0)
        return -1;
    r->out->yysz = 4;
    r->s = p;
    return 0;
}

/* One pattern's field. */
static int read_field(reader *r, size_t i, int extra_skip)
{
    const rl_dtfmt_node *n = &r->f->nodes[i];
    fields *o = r->out;
    int id = kw[n->key].id, value, len;
    switch (id) {
    case DT_A_M: case DT_P_M: case DT_a_m: case DT_p_m:
    case DT_AM: case DT_PM: case DT_am: case DT_pm:
        if (parse_word(r, &value, id == DT_A_M || id == DT_P_M || id == DT_a_m || id == DT_p_m
                                      ? ampm_long : ampm, i) < 0 ||
            set_int(r, &o->pm, value % 2, n) < 0)
            return -1;
        o->clock = 12;
        return 0;
    case DT_HH: case DT_HH12:
        if (parse_int(r, &o->hh, 2, i) < 0)
            return -1;
        o->clock = 12;
        break;
    case DT_HH24: if (parse_int(r, &o->hh, 2, i) < 0) return -1; break;
    case DT_MI: if (parse_int(r, &o->mi, 2, i) < 0) return -1; break;
    case DT_SS: if (parse_int(r, &o->ss, 2, i) < 0) return -1; break;
    case DT_MS:
        if ((len = parse_int(r, &o->ms, 3, i)) < 0)
            return -1;
        o->ms *= len == 1 ? 100 : len == 2 ? 10 : 1;
        break;
    case DT_FF1: case DT_FF2: case DT_FF3: case DT_FF4: case DT_FF5: case DT_FF6: case DT_US:
        if (id != DT_US)
            o->ff = id - DT_FF1 + 1;
        if ((len = parse_int(r, &o->us, id == DT_US ? 6 : o->ff, i)) < 0)
            return -1;
        o->us *= len == 1 ? 100000 : len == 2 ? 10000 : len == 3 ? 1000 : len == 4 ? 100
               : len == 5 ? 10 : 1;
        break;
    case DT_SSSS: if (parse_int(r, &o->ssss, kw[n->key].len, i) < 0) return -1; break;
    case DT_tz: case DT_TZ: case DT_OF:
        return set_err(r->err, SQLSTATE_NOT_SUPPORTED,
                       "formatting field \"%s\" is only supported in to_char", key_name(n));
    case DT_TZH:
        if (*r->s == '+' || *r->s == '-' || *r->s == ' ') {
            o->tzsign = *r->s == '-' ? -1 : 1;
            r->s++;
        } else {
            o->tzsign = extra_skip > 0 && r->s > r->start && r->s[-1] == '-' ? -1 : 1;
        }
        return parse_int(r, &o->tzh, 2, i) < 0 ? -1 : 0;
    case DT_TZM:
        if (!o->tzsign)
            o->tzsign = 1;
        return parse_int(r, &o->tzm, 2, i) < 0 ? -1 : 0;
    case DT_A_D: case DT_B_C: case DT_a_d: case DT_b_c:
    case DT_AD: case DT_BC: case DT_ad: case DT_bc:
        if (parse_word(r, &value, id == DT_A_D || id == DT_B_C || id == DT_a_d || id == DT_b_c
                                      ? adbc_long : adbc, i) < 0)
            return -1;
        return set_int(r, &o->bc, value % 2, n);
    case DT_MONTH: case DT_Month: case DT_month:
        if (parse_word(r, &value, months_full, i) < 0)
            return -1;
        return set_int(r, &o->mm, value + 1, n);
    case DT_MON: case DT_Mon: case DT_mon:
        if (parse_word(r, &value, months_abbrev, i) < 0)
            return -1;
        return set_int(r, &o->mm, value + 1, n);
    case DT_MM: if (parse_int(r, &o->mm, 2, i) < 0) return -1; break;
    case DT_DAY: case DT_Day: case DT_day:
    case DT_DY: case DT_Dy: case DT_dy:
        if (parse_word(r, &value, id == DT_DAY || id == DT_Day || id == DT_day ? days_full
                                                                              : days_abbrev, i) < 0 ||
            set_int(r, &o->d, value, n) < 0)
            return -1;
        o->d++;
        return 0;
    case DT_DDD: if (parse_int(r, &o->ddd, 3, i) < 0) return -1; break;
    case DT_IDDD: if (parse_int(r, &o->ddd, 3, i) < 0) return -1; break;
    case DT_DD: if (parse_int(r, &o->dd, 2, i) < 0) return -1; break;
    case DT_D: if (parse_int(r, &o->d, 1, i) < 0) return -1; break;
    case DT_ID:
        if (parse_int(r, &o->d, 1, i) < 0)
            return -1;
        if (++o->d > 7)
            o->d = 1;
        break;
    case DT_WW: case DT_IW: if (parse_int(r, &o->ww, 2, i) < 0) return -1; break;
    case DT_Q: if (parse_int(r, NULL, 1, i) < 0) return -1; break;
    case DT_CC: if (parse_int(r, &o->cc, 2, i) < 0) return -1; break;
    case DT_Y_YYY: if (parse_y_yyy(r, i) < 0) return -1; break;
    case DT_YYYY: case DT_IYYY:
        if (parse_int(r, &o->year, 4, i) < 0)
            return -1;
        o->yysz = 4;
        break;
    case DT_YYY: case DT_IYY: case DT_YY: case DT_IY: case DT_Y: case DT_I: {
        int w = id == DT_YYY || id == DT_IYY ? 3 : id == DT_YY || id == DT_IY ? 2 : 1;
        if ((len = parse_int(r, &o->year, w, i)) < 0)
            return -1;
        if (len < 4)
            o->year = adjust_partial_year(o->year);
        o->yysz = w;
        break;
    }
    case DT_RM: case DT_rm:
        if (parse_word(r, &value, rm_lower, i) < 0)
            return -1;
        return set_int(r, &o->mm, 12 - value, n);
    case DT_W: if (parse_int(r, &o->w, 1, i) < 0) return -1; break;
    case DT_J: if (parse_int(r, &o->j, 1, i) < 0) return -1; break;
    default: return 0;
    }
    skip_th(r, n);
    return 0;
}

/* DCH_from_char: the input's fields, by the nodes. */
static int read_fields(reader *r)
{
    bool fx = false;
    int extra_skip = 0;
    for (size_t i = 0; i < r->f->n && *r->s; i++) {
        const rl_dtfmt_node *n = &r->f->nodes[i];
        bool is_fx = n->type == RL_DTFMT_ACTION && kw[n->key].id == DT_FX;
        if (!fx && !is_fx && (n->type == RL_DTFMT_ACTION || i == 0))
            while (*r->s && isspace((unsigned char)*r->s)) {
                r->s++;
                extra_skip++;
            }
        if (n->type == RL_DTFMT_SPACE || n->type == RL_DTFMT_SEPARATOR) {
            if (!fx) {
                extra_skip--;
                if (isspace((unsigned char)*r->s) || is_separator((unsigned char)*r->s)) {
                    r->s++;
                    extra_skip++;
                }
            } else if (*r->s) {
                r->s += mblen_at(r->s, strnlen(r->s, 4));
            }
            continue;
        }
        if (n->type != RL_DTFMT_ACTION) {
            if (!fx && extra_skip > 0)
                extra_skip--;
            else if (*r->s)
                r->s += mblen_at(r->s, strnlen(r->s, 4));
            continue;
        }
        int mode = kw[n->key].mode;
        if (mode != MODE_NONE) {
            if (r->out->mode == MODE_NONE)
                r->out->mode = mode;
            else if (r->out->mode != mode)
                return set_err(r->err, SQLSTATE_FORMAT, "invalid combination of date conventions");
        }
        if (is_fx)
            fx = true;
        else if (read_field(r, i, extra_skip) < 0)
            return -1;
        if (!fx) {
            extra_skip = 0;
            while (*r->s && isspace((unsigned char)*r->s)) {
                r->s++;
                extra_skip++;
            }
        }
    }
    return 0;
}

static int field_overflow(rl_dtfmt_error *err, const char *in)
{
    return set_err(err, SQLSTATE_RANGE, "date/time field value out of range: \"%.100s\"", in);
}

int rl_dtfmt_from_char(const rl_dtfmt *f, const char *in, size_t len, rl_dtfmt_result *res,
                       rl_dtfmt_error *err)
{
    memset(res, 0, sizeof *res);
    const char *nul = memchr(in, '\0', len);
    if (nul)
        len = (size_t)(nul - in);
    char *copy = malloc(len + 1);
    if (!copy)
        return set_err(err, SQLSTATE_OOM, "out of memory");
    memcpy(copy, in, len);
    copy[len] = '\0';
    fields t;
    memset(&t, 0, sizeof t);
    reader r = {.f = f, .s = copy, .start = copy, .out = &t, .err = err};
    int rc = read_fields(&r);
    int64_t year = 0, mon = 1, mday = 1, hour = 0, min = 0, sec = 0;
    bool has_year = false, has_mon = false, has_day = false;
    if (rc < 0)
        goto done;
    if (t.ssss) {
        hour = t.ssss / 3600;
        min = t.ssss % 3600 / 60;
        sec = t.ssss % 60;
    }
    if (t.ss)
        sec = t.ss;
    if (t.mi)
        min = t.mi;
    if (t.hh)
        hour = t.hh;
    if (t.clock == 12) {
        if (hour < 1 || hour > 12) {
            rc = set_err(err, SQLSTATE_FORMAT, "hour \"%lld\" is invalid for the 12-hour clock",
                         (long long)hour);
            goto done;
        }
        if (t.pm && hour < 12)
            hour += 12;
        else if (!t.pm && hour == 12)
            hour = 0;
    }
    int64_t cc = t.cc;
    if (t.year) {
        if (cc && t.yysz <= 2) {
            if (t.bc)
                cc = -cc;
            year = t.year % 100;
            if (year)
                year = cc >= 0 ? year + (cc - 1) * 100 : (cc + 1) * 100 - year + 1;
            else
                year = cc * 100 + (cc >= 0 ? 0 : 1);
        } else {
            year = t.year;
            if (t.bc)
                year = -year;
            if (year < 0)
                year++;
        }
        has_year = true;
    } else if (cc) {
        if (t.bc)
            cc = -cc;
        year = cc >= 0 ? (cc - 1) * 100 + 1 : cc * 100 + 1;
        has_year = true;
    }
    int64_t ddd = t.ddd, dd = t.dd;
    if (t.j) {
        int m, d;
        rl_dtfmt_j2date(t.j, &year, &m, &d);
        mon = m;
        mday = d;
        has_year = has_mon = has_day = true;
    }
    if (t.ww) {
        if (t.mode == MODE_ISOWEEK) {
            int64_t j = isoweek2j(year, t.ww);
            if (t.d)
                j += t.d > 1 ? t.d - 2 : 6;
            int m, d;
            rl_dtfmt_j2date(j, &year, &m, &d);
            mon = m;
            mday = d;
            has_year = has_mon = has_day = true;
        } else {
            ddd = ((int64_t)t.ww - 1) * 7 + 1;
        }
    }
    if (t.w)
        dd = ((int64_t)t.w - 1) * 7 + 1;
    if (dd) {
        mday = dd;
        has_day = true;
    }
    if (t.mm) {
        mon = t.mm;
        has_mon = true;
    }
    if (ddd && (mon <= 1 || mday <= 1)) {
        if (!year && !t.bc) {
            rc = set_err(err, SQLSTATE_FORMAT,
                         "cannot calculate day of year without year information");
            goto done;
        }
        if (t.mode == MODE_ISOWEEK) {
            int m, d;
            rl_dtfmt_j2date(isoweek2j(year, 1) - 1 + ddd, &year, &m, &d);
            mon = m;
            mday = d;
            has_year = has_mon = has_day = true;
        } else {
            static const int ysum[2][13] = {
                {0, 31, 59, 90, 120, 151, 181, 212, 243, 273, 304, 334, 365},
                {0, 31, 60, 91, 121, 152, 182, 213, 244, 274, 305, 335, 366}};
            const int *y = ysum[is_leap(year)];
            int k;
            for (k = 1; k <= 12; k++)
                if (ddd <= y[k])
                    break;
            if (mon <= 1)
                mon = k;
            if (mday <= 1)
                mday = ddd - y[k - 1];
            has_mon = has_day = true;
        }
    }
    int64_t fsec = (int64_t)t.ms * 1000 + t.us;
    res->fprec = t.ff;
    /* ValidateDate with the year taken as is */
    if ((has_mon && (mon < 1 || mon > 12)) || (has_day && (mday < 1 || mday > 31)) ||
        (has_year && has_mon && has_day && mday > rl_days_in_month(year, (int)mon))) {
        rc = field_overflow(err, copy);
        goto done;
    }
    if (hour < 0 || hour >= 24 || min < 0 || min >= 60 || sec < 0 || sec >= 60 || fsec < 0 ||
        fsec >= 1000000) {
        rc = field_overflow(err, copy);
        goto done;
    }
    if (t.tzsign) {
        if (t.tzh < 0 || t.tzh > 15 || t.tzm < 0 || t.tzm >= 60) {
            rc = set_err(err, SQLSTATE_TZ_RANGE, "time zone displacement out of range: \"%.100s\"",
                         copy);
            goto done;
        }
        res->has_tz = true;
        res->tz_east = t.tzsign * (t.tzh * 3600 + t.tzm * 60);
    }
    res->year = year;
    res->mon = mon;
    res->mday = mday;
    res->hour = hour;
    res->min = min;
    res->sec = sec;
    res->fsec = fsec;
done:
    free(copy);
    return rc;
}
