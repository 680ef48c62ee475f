/*
 * sql_strfunc.c — the text functions of the function table
 * (sql_functab.inc): substr, lpad/rpad, btrim/ltrim/rtrim, strpos, replace,
 * left/right, reverse, repeat, initcap, translate, starts_with, ascii,
 * octet_length, md5, concat/concat_ws, format, quote_ident/literal/nullable,
 * and the functions that are not about text but are as small: random,
 * gen_random_uuid, pi, current_setting and set_config.
 *
 * Text is UTF-8 (the only server encoding): positions and lengths count
 * characters, never bytes; every result is valid UTF-8 when the arguments
 * are. A result larger than the statement may hold is refused before it is
 * built (54000), as PostgreSQL refuses one past 1 GB.
 */
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <pg_query.h>
#include <pg_query/pg_query.pb-c.h>

#include <assert.h>
#include <ctype.h>
#include <locale.h>
#include <pthread.h>
#include <wctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sql/sql_parse.h"
#include "sql/sql_settings.h"
#include "sql/sql_strfunc.h"
#include "sql/sql_value.h"

#define TEXT_MAX_BYTES ((size_t)1 << 30) /* PostgreSQL's 1 GB varlena limit */

/* ------------------------------------------------------------- helpers */

static const uint8_t *str_p(const rl_value *v) { return v->d.v.s.p; }
static size_t str_n(const rl_value *v) { return v->d.v.s.len; }

/* Bytes of the UTF-8 character starting at p[0] (1 for a stray byte). */
static size_t char_len(const uint8_t *p, size_t left)
{
    size_t n = p[0] < 0x80 ? 1 : p[0] >= 0xF0 ? 4 : p[0] >= 0xE0 ? 3 : p[0] >= 0xC0 ? 2 : 1;
    return n <= left ? n : left;
}

static size_t char_count(const uint8_t *p, size_t n)
{
    size_t k = 0;
    for (size_t i = 0; i < n; i += char_len(p + i, n - i))
        k++;
    return k;
}

/* Byte offset of character `chars` (clamped to the end). */
static size_t char_offset(const uint8_t *p, size_t n, size_t chars)
{
    size_t i = 0;
    while (chars-- > 0 && i < n)
        i += char_len(p + i, n - i);
    return i;
}

/* Refuse a result of `bytes` before building it: PostgreSQL's 1 GB, or the
 * statement's result budget if smaller. */
static int check_result_size(rl_expr_ctx *c, double bytes)
{
    size_t limit = rl_result_budget_limit(TEXT_MAX_BYTES);
    if (limit > TEXT_MAX_BYTES)
        limit = TEXT_MAX_BYTES;
    if (bytes < (double)limit)
        return 0;
    return rl_exec_error(c->x, RL_SQLSTATE_PROGRAM_LIMIT_EXCEEDED, -1,
                         "requested length too large");
}

static int put_buf(rl_expr_ctx *c, rl_value *out, rl_buf *b)
{
    if (b->failed) {
        rl_buf_free(b);
        return rl_exec_error(c->x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    }
    return rl_val_buf_copy(c, out, RL_OID_TEXT, b);
}

/* --------------------------------------------------------- substrings */

/* substr(s, start [, count]): characters start .. start+count-1, counting
 * from 1; positions before 1 count toward the length. */
int rl_fn_substr(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    int64_t start = a[1].d.v.i, count = n > 2 ? a[2].d.v.i : INT64_MAX;
    if (n > 2 && count < 0)
        return rl_exec_error(c->x, RL_SQLSTATE_SUBSTRING_ERROR, -1,
                             "negative substring length not allowed");
    int64_t end = count == INT64_MAX || __builtin_add_overflow(start, count, &end) ? INT64_MAX
                                                                                  : start + count;
    int64_t from = start < 1 ? 1 : start;
    if (end <= from) {
        rl_val_str(out, RL_OID_TEXT, "", 0);
        return 0;
    }
    const uint8_t *p = str_p(&a[0]);
    size_t len = str_n(&a[0]);
    size_t b0 = char_offset(p, len, (size_t)(from - 1));
    size_t b1 = end == INT64_MAX ? len : b0 + char_offset(p + b0, len - b0, (size_t)(end - from));
    rl_val_str(out, RL_OID_TEXT, p + b0, b1 - b0);
    return 0;
}

/* left(s, k) / right(s, k): the first / last k characters; a negative k
 * drops |k| from the other end. */
static int left_right(rl_expr_ctx *c, rl_value *a, rl_value *out, bool left)
{
    const uint8_t *p = str_p(&a[0]);
    size_t len = str_n(&a[0]), chars = char_count(p, len);
    int64_t k = a[1].d.v.i;
    size_t keep;
    if (k >= 0) {
        keep = (uint64_t)k < chars ? (size_t)k : chars;
    } else {
        uint64_t drop = (uint64_t)(-(k + 1)) + 1; /* |k| without overflow */
        keep = drop < chars ? chars - (size_t)drop : 0;
    }
    if (left) {
        rl_val_str(out, RL_OID_TEXT, p, char_offset(p, len, keep));
    } else {
        size_t skip = char_offset(p, len, chars - keep);
        rl_val_str(out, RL_OID_TEXT, p + skip, len - skip);
    }
    (void)c;
    return 0;
}

int rl_fn_left(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return left_right(c, a, out, true);
}

int rl_fn_right(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return left_right(c, a, out, false);
}

/* strpos(s, sub) and position(sub IN s): the character position of the
 * first occurrence, 0 when none, 1 for an empty sub. */
int rl_fn_strpos(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    const uint8_t *p = str_p(&a[0]), *q = str_p(&a[1]);
    size_t len = str_n(&a[0]), qn = str_n(&a[1]);
    int64_t pos = 0, k = 1;
    for (size_t i = 0; i + qn <= len; i += char_len(p + i, len - i), k++) {
        if (qn == 0 || memcmp(p + i, q, qn) == 0) {
            pos = k;
            break;
        }
    }
    rl_val_int(out, RL_OID_INT4, pos);
    return 0;
}

int rl_fn_starts_with(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    rl_val_bool(out, str_n(&a[1]) <= str_n(&a[0]) &&
                         memcmp(str_p(&a[0]), str_p(&a[1]), str_n(&a[1])) == 0);
    return 0;
}

/* ------------------------------------------------------------ padding */

/* lpad/rpad(s, length [, fill]): s cut or filled to `length` characters
 * (fill ' ' by default; an empty fill leaves s cut only). */
static int pad(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, bool left)
{
    const uint8_t *p = str_p(&a[0]);
    size_t len = str_n(&a[0]), chars = char_count(p, len);
    int64_t want = a[1].d.v.i < 0 ? 0 : a[1].d.v.i;
    const uint8_t *f = n > 2 ? str_p(&a[2]) : (const uint8_t *)" ";
    size_t fn = n > 2 ? str_n(&a[2]) : 1;
    if ((uint64_t)want <= chars || fn == 0) {
        size_t keep = (uint64_t)want < chars ? (size_t)want : chars;
        rl_val_str(out, RL_OID_TEXT, p, char_offset(p, len, keep));
        return 0;
    }
    size_t missing = (size_t)want - chars;
    if (check_result_size(c, (double)missing * 4 + (double)len) < 0)
        return -1;
    rl_buf b;
    rl_buf_init(&b, 0);
    if (!left)
        rl_buf_put(&b, p, len);
    for (size_t i = 0, fi = 0; i < missing; i++) {
        size_t cl = char_len(f + fi, fn - fi);
        rl_buf_put(&b, f + fi, cl);
        fi = fi + cl >= fn ? 0 : fi + cl;
    }
    if (left)
        rl_buf_put(&b, p, len);
    return put_buf(c, out, &b);
}

int rl_fn_lpad(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return pad(c, n, a, out, true);
}

int rl_fn_rpad(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return pad(c, n, a, out, false);
}

/* Is the character at p[0..cl) one of set[0..sn)'s characters? */
static bool in_set(const uint8_t *p, size_t cl, const uint8_t *set, size_t sn)
{
    for (size_t i = 0; i < sn; i += char_len(set + i, sn - i))
        if (char_len(set + i, sn - i) == cl && memcmp(set + i, p, cl) == 0)
            return true;
    return false;
}

/* btrim/ltrim/rtrim(s [, characters]): the characters of the set (a space by
 * default) removed from the start and/or the end. */
static int trim(rl_value *a, size_t n, rl_value *out, bool from_start, bool from_end)
{
    const uint8_t *p = str_p(&a[0]);
    size_t len = str_n(&a[0]);
    const uint8_t *set = n > 1 ? str_p(&a[1]) : (const uint8_t *)" ";
    size_t sn = n > 1 ? str_n(&a[1]) : 1;
    size_t b0 = 0, b1 = len;
    while (from_start && b0 < b1 && in_set(p + b0, char_len(p + b0, b1 - b0), set, sn))
        b0 += char_len(p + b0, b1 - b0);
    while (from_end && b1 > b0) {
        size_t k = b1 - 1; /* the start of the last character */
        while (k > b0 && (p[k] & 0xC0) == 0x80)
            k--;
        if (!in_set(p + k, b1 - k, set, sn))
            break;
        b1 = k;
    }
    rl_val_str(out, RL_OID_TEXT, p + b0, b1 - b0);
    return 0;
}

int rl_fn_btrim(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return trim(a, n, out, true, true);
}

int rl_fn_ltrim(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return trim(a, n, out, true, false);
}

int rl_fn_rtrim(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return trim(a, n, out, false, true);
}

/* ------------------------------------------------------------- case */

/* The code point of the UTF-8 character at p[0..n) into *wc: its length in
 * bytes, 0 if it is not a whole, valid character. */
static size_t utf8_decode(wchar_t *wc, const uint8_t *p, size_t n)
{
    size_t len = p[0] >= 0xF0 ? 4 : p[0] >= 0xE0 ? 3 : p[0] >= 0xC0 ? 2 : 0;
    if (len == 0 || len > n)
        return 0;
    uint32_t cp = p[0] & (0x7F >> len);
    for (size_t i = 1; i < len; i++) {
        if ((p[i] & 0xC0) != 0x80)
            return 0;
        cp = cp << 6 | (p[i] & 0x3F);
    }
    *wc = (wchar_t)cp;
    return len;
}

static void put_utf8(rl_buf *b, uint32_t cp)
{
    if (cp < 0x80) {
        rl_buf_put_u8(b, (uint8_t)cp);
    } else if (cp < 0x800) {
        rl_buf_put_u8(b, (uint8_t)(0xC0 | cp >> 6));
        rl_buf_put_u8(b, (uint8_t)(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
        rl_buf_put_u8(b, (uint8_t)(0xE0 | cp >> 12));
        rl_buf_put_u8(b, (uint8_t)(0x80 | (cp >> 6 & 0x3F)));
        rl_buf_put_u8(b, (uint8_t)(0x80 | (cp & 0x3F)));
    } else {
        rl_buf_put_u8(b, (uint8_t)(0xF0 | cp >> 18));
        rl_buf_put_u8(b, (uint8_t)(0x80 | (cp >> 12 & 0x3F)));
        rl_buf_put_u8(b, (uint8_t)(0x80 | (cp >> 6 & 0x3F)));
        rl_buf_put_u8(b, (uint8_t)(0x80 | (cp & 0x3F)));
    }
}

static locale_t utf8_locale;
static void utf8_locale_make(void) { utf8_locale = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0); }

/* The lc_ctype of the database (C.UTF-8), made once and only read after;
 * NULL if the C library lacks it (then only ASCII changes case). */
static locale_t utf8_ctype(void)
{
    static pthread_once_t once = PTHREAD_ONCE_INIT;
    pthread_once(&once, utf8_locale_make);
    return utf8_locale;
}

/* lower()/upper() as PostgreSQL under lc_ctype C.UTF-8: ASCII by table,
 * other characters through the C library's C.UTF-8 case mapping
 * (towlower_l / towupper_l, what PostgreSQL calls too). */
static int fn_case(rl_expr_ctx *c, rl_value *a, rl_value *out, bool lower)
{
    const uint8_t *p = a[0].d.v.s.p;
    size_t n = a[0].d.v.s.len;
    rl_buf b;
    rl_buf_init(&b, 0);
    for (size_t i = 0; i < n;) {
        if (p[i] < 0x80) {
            rl_buf_put_u8(&b, (uint8_t)(lower ? tolower(p[i]) : toupper(p[i])));
            i++;
            continue;
        }
        locale_t l = utf8_ctype();
        wchar_t wc;
        size_t used = l ? utf8_decode(&wc, p + i, n - i) : 0;
        if (used == 0) { /* not decodable here: kept as it is */
            rl_buf_put_u8(&b, p[i++]);
            continue;
        }
        wint_t m = lower ? towlower_l((wint_t)wc, l) : towupper_l((wint_t)wc, l);
        put_utf8(&b, (uint32_t)m);
        i += used;
    }
    return rl_val_buf_copy(c, out, RL_OID_TEXT, &b);
}

int rl_fn_lower(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return fn_case(c, a, out, true);
}

int rl_fn_upper(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return fn_case(c, a, out, false);
}

/* ------------------------------------------------------- rewriting */

/* replace(s, from, to): every occurrence of from (none when it is empty). */
int rl_fn_replace(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    const uint8_t *p = str_p(&a[0]), *f = str_p(&a[1]), *t = str_p(&a[2]);
    size_t len = str_n(&a[0]), fn = str_n(&a[1]), tn = str_n(&a[2]);
    if (fn == 0 || len < fn) {
        rl_val_str(out, RL_OID_TEXT, p, len);
        return 0;
    }
    if (tn > fn && check_result_size(c, (double)len / (double)fn * (double)tn + (double)len) < 0)
        return -1;
    rl_buf b;
    rl_buf_init(&b, 0);
    size_t i = 0;
    while (i < len) {
        if (i + fn <= len && memcmp(p + i, f, fn) == 0) {
            rl_buf_put(&b, t, tn);
            i += fn;
        } else {
            size_t cl = char_len(p + i, len - i);
            rl_buf_put(&b, p + i, cl);
            i += cl;
        }
    }
    return put_buf(c, out, &b);
}

int rl_fn_reverse(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    const uint8_t *p = str_p(&a[0]);
    size_t len = str_n(&a[0]);
    rl_buf b;
    rl_buf_init(&b, 0);
    for (size_t end = len; end > 0;) {
        size_t k = end - 1;
        while (k > 0 && (p[k] & 0xC0) == 0x80)
            k--;
        rl_buf_put(&b, p + k, end - k);
        end = k;
    }
    return put_buf(c, out, &b);
}

int rl_fn_repeat(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    int64_t times = a[1].d.v.i < 0 ? 0 : a[1].d.v.i;
    size_t len = str_n(&a[0]);
    if (check_result_size(c, (double)times * (double)len) < 0)
        return -1;
    rl_buf b;
    rl_buf_init(&b, 0);
    for (int64_t i = 0; i < times && !b.failed; i++)
        rl_buf_put(&b, str_p(&a[0]), len);
    return put_buf(c, out, &b);
}

/* initcap: the first letter of each run of letters and digits upper case,
 * the others lower, as PostgreSQL under C.UTF-8 (iswalnum, towupper). */
int rl_fn_initcap(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    const uint8_t *p = str_p(&a[0]);
    size_t len = str_n(&a[0]);
    rl_buf b;
    rl_buf_init(&b, 0);
    bool in_word = false;
    for (size_t i = 0; i < len;) {
        wchar_t wc;
        size_t used = p[i] < 0x80 ? (wc = p[i], 1) : utf8_decode(&wc, p + i, len - i);
        if (used == 0) { /* not decodable here: kept as it is */
            rl_buf_put_u8(&b, p[i++]);
            continue;
        }
        locale_t l = utf8_ctype();
        wint_t m = !l ? (wint_t)wc : in_word ? towlower_l((wint_t)wc, l) : towupper_l((wint_t)wc, l);
        put_utf8(&b, (uint32_t)m);
        in_word = l ? iswalnum_l((wint_t)wc, l) != 0 : isalnum((int)wc) != 0;
        i += used;
    }
    return put_buf(c, out, &b);
}

/* translate(s, from, to): each character of from found in s becomes the
 * character of to at its position, or is removed when to is shorter. */
int rl_fn_translate(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    const uint8_t *p = str_p(&a[0]), *f = str_p(&a[1]), *t = str_p(&a[2]);
    size_t len = str_n(&a[0]), fn = str_n(&a[1]), tn = str_n(&a[2]);
    rl_buf b;
    rl_buf_init(&b, 0);
    for (size_t i = 0; i < len;) {
        size_t cl = char_len(p + i, len - i), k = 0, fi = 0;
        bool found = false;
        for (; fi < fn; fi += char_len(f + fi, fn - fi), k++) {
            if (char_len(f + fi, fn - fi) == cl && memcmp(f + fi, p + i, cl) == 0) {
                found = true;
                break;
            }
        }
        if (!found) {
            rl_buf_put(&b, p + i, cl);
        } else {
            size_t ti = char_offset(t, tn, k);
            if (ti < tn)
                rl_buf_put(&b, t + ti, char_len(t + ti, tn - ti));
        }
        i += cl;
    }
    return put_buf(c, out, &b);
}

/* ------------------------------------------------------------- codes */

int rl_fn_ascii(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    const uint8_t *p = str_p(&a[0]);
    size_t len = str_n(&a[0]);
    int64_t cp = 0;
    if (len > 0) {
        size_t cl = char_len(p, len);
        cp = cl == 1 ? p[0] : p[0] & (0x7F >> cl);
        for (size_t i = 1; i < cl; i++)
            cp = cp << 6 | (p[i] & 0x3F);
    }
    rl_val_int(out, RL_OID_INT4, cp);
    return 0;
}

int rl_fn_octet_length(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    rl_val_int(out, RL_OID_INT4, (int64_t)str_n(&a[0]));
    return 0;
}

int rl_fn_md5(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    unsigned char d[EVP_MAX_MD_SIZE];
    unsigned int dn = 0;
    if (!EVP_Digest(str_p(&a[0]), str_n(&a[0]), d, &dn, EVP_md5(), NULL))
        return rl_exec_error(c->x, RL_SQLSTATE_INTERNAL_ERROR, -1, "could not compute MD5 hash");
    char hex[2 * EVP_MAX_MD_SIZE + 1];
    for (unsigned int i = 0; i < dn; i++)
        snprintf(hex + 2 * i, 3, "%02x", d[i]);
    return rl_val_str_copy(c, out, RL_OID_TEXT, hex, 2 * (size_t)dn);
}

/* ------------------------------------------------------------- overlay */

/* overlay(s PLACING r FROM start [FOR count]): s's first start-1 units, r,
 * then s from unit start+count (count defaults to r's length). PostgreSQL
 * checks start + count for overflow (22003) and takes the head as a
 * substring of start-1 units (22011 when that is negative). */
static int overlay(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, bool text)
{
    const uint8_t *s = str_p(&a[0]), *r = str_p(&a[1]);
    size_t ns = str_n(&a[0]), nr = str_n(&a[1]);
    int64_t start = a[2].d.v.i;
    int64_t count = n > 3 ? a[3].d.v.i : (int64_t)(text ? char_count(r, nr) : nr), tail;
    /* int4 arithmetic, as PostgreSQL's */
    if (__builtin_add_overflow(start, count, &tail) || tail > INT32_MAX || tail < INT32_MIN)
        return rl_exec_error(c->x, RL_SQLSTATE_NUMERIC_VALUE_OUT_OF_RANGE, -1,
                             "integer out of range");
    if (start - 1 < 0)
        return rl_exec_error(c->x, RL_SQLSTATE_SUBSTRING_ERROR, -1,
                             "negative substring length not allowed");
    size_t head = text ? char_offset(s, ns, (size_t)(start - 1))
                       : ((uint64_t)(start - 1) < ns ? (size_t)(start - 1) : ns);
    size_t rest = tail < 1 ? 0
                  : text   ? char_offset(s, ns, (size_t)(tail - 1))
                           : ((uint64_t)(tail - 1) < ns ? (size_t)(tail - 1) : ns);
    rl_buf b;
    rl_buf_init(&b, 0);
    rl_buf_put(&b, s, head);
    rl_buf_put(&b, r, nr);
    rl_buf_put(&b, s + rest, ns - rest);
    return rl_val_buf_copy(c, out, text ? RL_OID_TEXT : RL_OID_BYTEA, &b);
}

int rl_fn_text_overlay(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return overlay(c, n, a, out, true);
}

int rl_fn_bytea_overlay(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return overlay(c, n, a, out, false);
}

/* --------------------------------------------------------- concatenation */

/* A value's text as concat and format print it (unknown literals as
 * written); NULL appends nothing. */
static void put_value_text(rl_buf *b, const rl_value *v)
{
    if (v->d.isnull)
        return;
    if (v->oid == RL_OID_UNKNOWN)
        rl_buf_put(b, v->d.v.s.p, v->d.v.s.len);
    else
        rl_value_to_text(b, v);
}

/* concat(VARIADIC "any"): the arguments' text, NULLs skipped. */
int rl_fn_concat(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    rl_buf b;
    rl_buf_init(&b, 0);
    for (size_t i = 0; i < n; i++)
        put_value_text(&b, &a[i]);
    return put_buf(c, out, &b);
}

/* concat_ws(separator, VARIADIC "any"): NULL separator, NULL result. */
int rl_fn_concat_ws(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    if (a[0].d.isnull) {
        rl_val_null(out, RL_OID_TEXT);
        return 0;
    }
    rl_buf b, sep;
    rl_buf_init(&b, 0);
    rl_buf_init(&sep, 0);
    put_value_text(&sep, &a[0]);
    bool first = true;
    for (size_t i = 1; i < n; i++) {
        if (a[i].d.isnull)
            continue;
        if (!first)
            rl_buf_put(&b, sep.data, sep.len);
        put_value_text(&b, &a[i]);
        first = false;
    }
    rl_buf_free(&sep);
    return put_buf(c, out, &b);
}

/* ------------------------------------------------------------- quoting */

/* 'text' with quotes doubled; with a backslash, E'...' and backslashes
 * doubled, as quote_literal does. */
static void put_quoted_literal(rl_buf *b, const uint8_t *p, size_t n)
{
    if (memchr(p, '\\', n))
        rl_buf_put_u8(b, 'E');
    rl_buf_put_u8(b, '\'');
    for (size_t i = 0; i < n; i++) {
        if (p[i] == '\'' || p[i] == '\\')
            rl_buf_put_u8(b, p[i]);
        rl_buf_put_u8(b, p[i]);
    }
    rl_buf_put_u8(b, '\'');
}

int rl_fn_quote_ident(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    rl_buf b;
    rl_buf_init(&b, 0);
    rl_put_quoted_ident(&b, str_p(&a[0]), str_n(&a[0]));
    return put_buf(c, out, &b);
}

int rl_fn_quote_literal(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    rl_buf b;
    rl_buf_init(&b, 0);
    put_quoted_literal(&b, str_p(&a[0]), str_n(&a[0]));
    return put_buf(c, out, &b);
}

int rl_fn_quote_nullable(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    if (a[0].d.isnull)
        return rl_val_str_copy(c, out, RL_OID_TEXT, "NULL", 4);
    return rl_fn_quote_literal(c, n, a, out, loc);
}

/* ------------------------------------------------------------- format */

static int format_error(rl_expr_ctx *c, const char *msg)
{
    rl_exec_error(c->x, RL_SQLSTATE_INVALID_PARAMETER_VALUE, -1, "%s", msg);
    if (strncmp(msg, "unterminated", 12) == 0)
        rl_error_hint(c->x->err, "For a single \"%%\" use \"%%%%\".");
    return -1;
}

/* A decimal number at fmt[*i] (at most what an int holds); false if none. */
static bool format_number(const char *fmt, size_t n, size_t *i, int *out)
{
    if (*i >= n || !isdigit((unsigned char)fmt[*i]))
        return false;
    long v = 0;
    while (*i < n && isdigit((unsigned char)fmt[*i])) {
        v = v * 10 + (fmt[*i] - '0');
        if (v > 0x7FFFFFF)
            v = 0x7FFFFFF; /* too large: reported by the caller's bounds */
        (*i)++;
    }
    *out = (int)v;
    return true;
}

/* Append `text` padded to |width| characters (left-aligned when the width
 * is negative or the '-' flag was given). */
static void put_padded(rl_buf *b, const rl_buf *text, int width, bool left_align)
{
    if (width < 0) {
        left_align = true;
        width = width == -0x7FFFFFF - 1 ? 0x7FFFFFF : -width;
    }
    size_t chars = char_count(text->data, text->len);
    size_t padn = (size_t)width > chars ? (size_t)width - chars : 0;
    for (size_t i = 0; !left_align && i < padn; i++)
        rl_buf_put_u8(b, ' ');
    rl_buf_put(b, text->data, text->len);
    for (size_t i = 0; left_align && i < padn; i++)
        rl_buf_put_u8(b, ' ');
}

/* format(fmt, VARIADIC "any"): %s %I %L %%, with an optional position n$,
 * '-' flag and width (a number, * or *n$), as PostgreSQL's text_format. */
int rl_fn_format(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    if (a[0].d.isnull) {
        rl_val_null(out, RL_OID_TEXT);
        return 0;
    }
    const char *fmt = (const char *)str_p(&a[0]);
    size_t fn = str_n(&a[0]), next_arg = 1;
    rl_buf b, text;
    rl_buf_init(&b, 0);
    rl_buf_init(&text, 0);
    int rc = 0;
    for (size_t i = 0; i < fn && rc == 0;) {
        if (fmt[i] != '%') {
            rl_buf_put_u8(&b, (uint8_t)fmt[i++]);
            continue;
        }
        if (++i >= fn) {
            rc = format_error(c, "unterminated format() type specifier");
            break;
        }
        if (fmt[i] == '%') {
            rl_buf_put_u8(&b, '%');
            i++;
            continue;
        }
        /* [argpos$][flags][width]type */
        int pos = 0, width = 0;
        bool left_align = false, have_width = false;
        size_t save = i;
        if (format_number(fmt, fn, &i, &pos)) {
            if (i < fn && fmt[i] == '$') {
                i++;
                if (pos == 0) {
                    rc = format_error(c, "format specifies argument 0, but arguments are "
                                         "numbered from 1");
                    break;
                }
            } else { /* a width, not a position */
                i = save;
                pos = 0;
            }
        }
        while (i < fn && fmt[i] == '-') {
            left_align = true;
            i++;
        }
        if (i < fn && fmt[i] == '*') {
            i++;
            int wpos = 0;
            size_t at = i;
            if (format_number(fmt, fn, &i, &wpos) && i < fn && fmt[i] == '$')
                i++;
            else {
                i = at;
                wpos = (int)next_arg;
            }
            if (wpos == 0 || (size_t)wpos >= n) {
                rc = format_error(c, wpos == 0 ? "format specifies argument 0, but arguments "
                                                 "are numbered from 1"
                                               : "too few arguments for format()");
                break;
            }
            next_arg = (size_t)wpos + 1;
            const rl_value *wv = &a[wpos];
            width = wv->d.isnull ? 0 : (int)wv->d.v.i;
            have_width = true;
        } else if (format_number(fmt, fn, &i, &width)) {
            have_width = true;
        }
        if (i >= fn) {
            rc = format_error(c, "unterminated format() type specifier");
            break;
        }
        char type = fmt[i++];
        if (type != 's' && type != 'I' && type != 'L') {
            rl_exec_error(c->x, RL_SQLSTATE_INVALID_PARAMETER_VALUE, -1,
                          "unrecognized format() type specifier \"%c\"", type);
            rl_error_hint(c->x->err, "For a single \"%%\" use \"%%%%\".");
            rc = -1;
            break;
        }
        size_t argi = pos ? (size_t)pos : next_arg;
        if (argi >= n) {
            rc = format_error(c, "too few arguments for format()");
            break;
        }
        next_arg = argi + 1;
        const rl_value *v = &a[argi];
        text.len = 0;
        if (type == 'I' && v->d.isnull) {
            rc = rl_exec_error(c->x, RL_SQLSTATE_NULL_VALUE_NOT_ALLOWED, -1,
                               "null values cannot be formatted as an SQL identifier");
            break;
        }
        if (type == 'L' && v->d.isnull) {
            rl_buf_put(&text, "NULL", 4);
        } else if (type != 's') {
            rl_buf raw;
            rl_buf_init(&raw, 0);
            put_value_text(&raw, v);
            if (type == 'I')
                rl_put_quoted_ident(&text, raw.data, raw.len);
            else
                put_quoted_literal(&text, raw.data, raw.len);
            rl_buf_free(&raw);
        } else {
            put_value_text(&text, v);
        }
        if (have_width || left_align)
            put_padded(&b, &text, width, left_align);
        else
            rl_buf_put(&b, text.data, text.len);
    }
    rl_buf_free(&text);
    if (rc < 0) {
        rl_buf_free(&b);
        return -1;
    }
    return put_buf(c, out, &b);
}

/* ------------------------------------------------------------ numbers */

int rl_fn_random(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    uint64_t r;
    if (RAND_bytes((unsigned char *)&r, sizeof r) != 1)
        return rl_exec_error(c->x, RL_SQLSTATE_INTERNAL_ERROR, -1,
                             "could not generate a random number");
    rl_val_float(out, RL_OID_FLOAT8, (double)(r >> 11) * 0x1.0p-53); /* [0, 1) */
    return 0;
}

int rl_fn_pi(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    rl_val_float(out, RL_OID_FLOAT8, M_PI);
    return 0;
}

/* gen_random_uuid(): a version 4 (random) UUID. */
int rl_fn_gen_random_uuid(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    memset(out, 0, sizeof *out);
    if (RAND_bytes(out->d.v.uuid, sizeof out->d.v.uuid) != 1)
        return rl_exec_error(c->x, RL_SQLSTATE_INTERNAL_ERROR, -1,
                             "could not generate random values");
    out->d.v.uuid[6] = (uint8_t)((out->d.v.uuid[6] & 0x0F) | 0x40);
    out->d.v.uuid[8] = (uint8_t)((out->d.v.uuid[8] & 0x3F) | 0x80);
    out->oid = RL_OID_UUID;
    out->typmod = -1;
    return 0;
}

/* ------------------------------------------------------------ settings */

static int text_arg(const rl_value *v, char *buf, size_t n)
{
    if (v->d.v.s.len >= n)
        return -1;
    memcpy(buf, v->d.v.s.p, v->d.v.s.len);
    buf[v->d.v.s.len] = 0;
    return 0;
}

/* current_setting(name [, missing_ok]): SHOW's value; an unknown name is
 * 42704 unless missing_ok, then NULL; a superuser-only setting 42501. */
int rl_fn_current_setting(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    char name[128];
    bool missing_ok = n > 1 && a[1].d.v.b;
    int idx;
    if (text_arg(&a[0], name, sizeof name) == 0)
        idx = rl_setting_lookup_for_show(c->x, name, missing_ok);
    else if (missing_ok)
        idx = -2;
    else
        idx = rl_exec_error(c->x, RL_SQLSTATE_UNDEFINED_OBJECT, -1,
                            "unrecognized configuration parameter \"%.*s\"",
                            (int)a[0].d.v.s.len, (const char *)a[0].d.v.s.p);
    if (idx == -2) {
        rl_val_null(out, RL_OID_TEXT);
        return 0;
    }
    if (idx < 0)
        return -1;
    char shown[64];
    const char *v = rl_setting_shown(c->x->s, idx, shown, sizeof shown);
    return rl_val_str_copy(c, out, RL_OID_TEXT, v, strlen(v));
}

/* set_config(name, value, is_local): SET [LOCAL] name = value (a NULL value
 * resets it), answering the new value as current_setting shows it. */
int rl_fn_set_config(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    if (a[0].d.isnull)
        return rl_exec_error(c->x, RL_SQLSTATE_NULL_VALUE_NOT_ALLOWED, -1,
                             "SET requires parameter name");
    char name[128], value[256];
    if (text_arg(&a[0], name, sizeof name) < 0)
        return rl_exec_error(c->x, RL_SQLSTATE_UNDEFINED_OBJECT, -1,
                             "unrecognized configuration parameter \"%.*s\"",
                             (int)a[0].d.v.s.len, (const char *)a[0].d.v.s.p);
    int idx = rl_setting_lookup_for_set(c->x, name);
    if (idx < 0)
        return -1;
    bool local = !a[2].d.isnull && a[2].d.v.b;
    int rc;
    if (a[1].d.isnull)
        rc = rl_setting_reset_named(c->x, idx, name);
    else if (text_arg(&a[1], value, sizeof value) < 0)
        rc = rl_exec_error(c->x, RL_SQLSTATE_INVALID_PARAMETER_VALUE, -1,
                           "invalid value for parameter \"%s\": value too long",
                           rl_setting_name(c->x->s, idx));
    else
        rc = rl_setting_assign_named(c->x, idx, name, value, local);
    if (rc < 0)
        return -1;
    char shown[64];
    const char *v = rl_setting_shown(c->x->s, idx, shown, sizeof shown);
    return rl_val_str_copy(c, out, RL_OID_TEXT, v, strlen(v));
}

/* --------------------------------------------------------- SIMILAR TO */

/* An ESCAPE string of LIKE or SIMILAR TO: empty or one character (22025). */
static int check_escape(rl_expr_ctx *c, const uint8_t *esc, size_t escn)
{
    if (escn == 0 || char_len(esc, escn) == escn)
        return 0;
    rl_exec_error(c->x, RL_SQLSTATE_INVALID_ESCAPE_SEQUENCE, -1, "invalid escape string");
    rl_error_hint(c->x->err, "Escape string must be empty or one character.");
    return -1;
}

/* similar_to_escape(pattern [, escape]): the POSIX regular expression an
 * SQL regular expression (SIMILAR TO) means, as PostgreSQL's
 * similar_escape_internal writes it: anchored, % -> .*, _ -> ., ( -> (?:,
 * the escape character (\ by default, none when empty) quoting the next
 * one, escape-" marking the part substring() returns. */
int rl_fn_similar_to_escape(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    const uint8_t *p = str_p(&a[0]);
    size_t len = str_n(&a[0]);
    const uint8_t *esc = (const uint8_t *)"\\";
    size_t escn = 1;
    if (n > 1) {
        esc = str_p(&a[1]);
        escn = str_n(&a[1]);
        if (check_escape(c, esc, escn) < 0)
            return -1;
    }
    rl_buf b;
    rl_buf_init(&b, 0);
    rl_buf_put(&b, "^(?:", 4);
    bool after_escape = false, in_class = false;
    int nquotes = 0, class_pos = 0;
    for (size_t i = 0; i < len;) {
        size_t cl = char_len(p + i, len - i);
        uint8_t ch = p[i];
        if (after_escape) {
            if (cl == 1 && ch == '"' && !in_class) {
                if (nquotes == 0) {
                    rl_buf_put(&b, "){1,1}?(", 8);
                } else if (nquotes == 1) {
                    rl_buf_put(&b, "){1,1}(?:", 9);
                } else {
                    rl_buf_free(&b);
                    return rl_exec_error(c->x, RL_SQLSTATE_INVALID_USE_OF_ESCAPE_CHARACTER, -1,
                                         "SQL regular expression may not contain more than two "
                                         "escape-double-quote separators");
                }
                nquotes++;
            } else {
                rl_buf_put_u8(&b, '\\');
                rl_buf_put(&b, p + i, cl);
            }
            after_escape = false;
        } else if (escn > 0 && cl == escn && memcmp(p + i, esc, escn) == 0) {
            after_escape = true;
        } else if (in_class) {
            if (ch == '\\')
                rl_buf_put_u8(&b, '\\');
            rl_buf_put(&b, p + i, cl);
            if (ch == ']' && class_pos > 2)
                in_class = false;
            else if (ch == '^')
                class_pos++;
            else
                class_pos = 3;
        } else if (ch == '[') {
            rl_buf_put_u8(&b, ch);
            in_class = true;
            class_pos = 1;
        } else if (ch == '%') {
            rl_buf_put(&b, ".*", 2);
        } else if (ch == '_') {
            rl_buf_put_u8(&b, '.');
        } else if (ch == '(') {
            rl_buf_put(&b, "(?:", 3);
        } else if (ch == '\\' || ch == '.' || ch == '^' || ch == '$') {
            rl_buf_put_u8(&b, '\\');
            rl_buf_put_u8(&b, ch);
        } else {
            rl_buf_put(&b, p + i, cl);
        }
        i += cl;
    }
    rl_buf_put(&b, ")$", 2);
    return put_buf(c, out, &b);
}

/* like_escape(pattern, escape): what `LIKE pattern ESCAPE escape` means,
 * the pattern rewritten for LIKE's default escape \ as PostgreSQL's
 * do_like_escape rewrites it: no escape (empty) doubles every \; \ keeps the
 * pattern; another character becomes \ and a \ not after it is doubled. */
int rl_fn_like_escape(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    const uint8_t *p = str_p(&a[0]), *esc = str_p(&a[1]);
    size_t len = str_n(&a[0]), escn = str_n(&a[1]);
    if (check_escape(c, esc, escn) < 0)
        return -1;
    if (escn == 1 && esc[0] == '\\') {
        *out = a[0];
        out->oid = RL_OID_TEXT;
        return 0;
    }
    rl_buf b;
    rl_buf_init(&b, len + 8);
    bool after_escape = false;
    for (size_t i = 0; i < len;) {
        size_t cl = char_len(p + i, len - i);
        if (escn > 0 && cl == escn && memcmp(p + i, esc, escn) == 0 && !after_escape) {
            rl_buf_put_u8(&b, '\\');
            after_escape = true;
        } else if (p[i] == '\\') {
            rl_buf_put_u8(&b, '\\');
            if (!after_escape)
                rl_buf_put_u8(&b, '\\');
            after_escape = false;
        } else {
            rl_buf_put(&b, p + i, cl);
            after_escape = false;
        }
        i += cl;
    }
    return put_buf(c, out, &b);
}

/* ILIKE's operands: the text lowered as lower() lowers it. */
int rl_text_lower(rl_expr_ctx *c, const rl_value *in, rl_value *out)
{
    rl_value a = *in;
    return fn_case(c, &a, out, true);
}
