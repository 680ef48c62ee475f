/*
 * sql_bytea.c — the function table's binary-string functions, as
 * PostgreSQL 15's varlena.c / encode.c / cryptohashfuncs.c / mbutils.c
 * answer them: encode / decode (hex, base64, escape), the SHA-2 digests and
 * md5 of bytea, byte access (get_byte, set_byte), bytea substring, trim
 * and position, bit_length, and convert_to / convert_from between UTF-8 and
 * the encodings RockLake converts (overlay of text and bytea is in
 * sql_strfunc.c, beside the character arithmetic it shares).
 *
 * Invariants: every function is strict (the table says so), so no
 * argument is NULL here; lengths and positions are bytes for bytea and
 * characters for text; results are copied into the evaluation arena
 * (rl_val_str_copy / rl_val_buf_copy), never alias a buffer freed here.
 */
#include "sql/sql_bytea.h"

#include <openssl/evp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "base/utf8.h"

static const uint8_t *bytes_p(const rl_value *v) { return v->d.v.s.p; }
static size_t bytes_n(const rl_value *v) { return v->d.v.s.len; }

static int oom(rl_expr_ctx *c)
{
    return rl_exec_error(c->x, RL_SQLSTATE_INTERNAL_ERROR, -1, "out of memory");
}

/* The text argument as a NUL-terminated string of at most n-1 bytes. */
static void arg_cstr(const rl_value *v, char *out, size_t n)
{
    size_t len = bytes_n(v) < n - 1 ? bytes_n(v) : n - 1;
    memcpy(out, bytes_p(v), len);
    out[len] = 0;
}

/* ------------------------------------------------------ encode / decode */

static const char hexdig[] = "0123456789abcdef";
static const char b64dig[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static void hex_encode(rl_buf *b, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        rl_buf_put_u8(b, (uint8_t)hexdig[p[i] >> 4]);
        rl_buf_put_u8(b, (uint8_t)hexdig[p[i] & 15]);
    }
}

/* PostgreSQL's base64 breaks its output into lines of 76 characters. */
static void b64_encode(rl_buf *b, const uint8_t *p, size_t n)
{
    size_t line = 0;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)p[i] << 16;
        if (i + 1 < n)
            v |= (uint32_t)p[i + 1] << 8;
        if (i + 2 < n)
            v |= p[i + 2];
        char q[4] = {b64dig[(v >> 18) & 63], b64dig[(v >> 12) & 63],
                     i + 1 < n ? b64dig[(v >> 6) & 63] : '=', i + 2 < n ? b64dig[v & 63] : '='};
        rl_buf_put(b, q, 4);
        line += 4;
        if (line >= 76 && i + 3 < n) {
            rl_buf_put_u8(b, '\n');
            line = 0;
        }
    }
}

/* escape: a backslash doubled, NUL and bytes >= 0x80 as \ooo. */
static void esc_encode(rl_buf *b, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (p[i] == '\\') {
            rl_buf_put(b, "\\\\", 2);
        } else if (p[i] == 0 || p[i] >= 0x80) {
            char o[5];
            snprintf(o, sizeof o, "\\%03o", p[i]);
            rl_buf_put(b, o, 4);
        } else {
            rl_buf_put_u8(b, p[i]);
        }
    }
}

static int hexval(uint8_t ch)
{
    if (ch >= '0' && ch <= '9')
        return ch - '0';
    if (ch >= 'a' && ch <= 'f')
        return ch - 'a' + 10;
    if (ch >= 'A' && ch <= 'F')
        return ch - 'A' + 10;
    return -1;
}

static bool is_space(uint8_t ch) { return ch == ' ' || ch == '\n' || ch == '\t' || ch == '\r'; }

/* The bad character as PostgreSQL quotes it: its whole UTF-8 sequence. */
static int bad_char(rl_expr_ctx *c, const char *fmt, const uint8_t *p, size_t left)
{
    size_t k = rl_utf8_char_len(p, left);
    if (k == 0)
        k = 1;
    return rl_exec_error(c->x, RL_SQLSTATE_INVALID_PARAMETER_VALUE, -1, fmt, (int)k,
                         (const char *)p);
}

static int hex_decode(rl_expr_ctx *c, rl_buf *b, const uint8_t *p, size_t n)
{
    size_t i = 0;
    while (i < n) {
        if (is_space(p[i])) {
            i++;
            continue;
        }
        int hi = hexval(p[i]);
        if (hi < 0)
            return bad_char(c, "invalid hexadecimal digit: \"%.*s\"", p + i, n - i);
        if (i + 1 >= n)
            return rl_exec_error(c->x, RL_SQLSTATE_INVALID_PARAMETER_VALUE, -1,
                                 "invalid hexadecimal data: odd number of digits");
        int lo = hexval(p[i + 1]);
        if (lo < 0)
            return bad_char(c, "invalid hexadecimal digit: \"%.*s\"", p + i + 1, n - i - 1);
        rl_buf_put_u8(b, (uint8_t)(hi << 4 | lo));
        i += 2;
    }
    return 0;
}

static int b64val(uint8_t ch)
{
    const char *q = ch ? strchr(b64dig, ch) : NULL;
    return q ? (int)(q - b64dig) : -1;
}

static int b64_end_error(rl_expr_ctx *c)
{
    rl_exec_error(c->x, RL_SQLSTATE_INVALID_PARAMETER_VALUE, -1, "invalid base64 end sequence");
    rl_error_hint(c->x->err, "Input data is missing padding, is truncated, or is otherwise "
                             "corrupted.");
    return -1;
}

static int b64_decode(rl_expr_ctx *c, rl_buf *b, const uint8_t *p, size_t n)
{
    uint32_t acc = 0;
    /* end: a '=' was seen (1: after two sextets, 2: after three); as in
     * PostgreSQL, later groups are still read but give only that many bytes */
    int pos = 0, end = 0;
    for (size_t i = 0; i < n; i++) {
        uint8_t ch = p[i];
        if (is_space(ch))
            continue;
        if (ch == '=') {
            if (end == 0) {
                if (pos == 2)
                    end = 1;
                else if (pos == 3)
                    end = 2;
                else
                    return rl_exec_error(c->x, RL_SQLSTATE_INVALID_PARAMETER_VALUE, -1,
                                         "unexpected \"=\" while decoding base64 sequence");
            }
            ch = 'A'; /* a zero sextet */
        } else {
            int v = b64val(ch);
            if (v < 0)
                return bad_char(c, "invalid symbol \"%.*s\" found while decoding base64 sequence",
                                p + i, n - i);
        }
        acc = (acc << 6) | (uint32_t)b64val(ch);
        if (++pos == 4) {
            rl_buf_put_u8(b, (uint8_t)(acc >> 16));
            if (end == 0 || end == 2)
                rl_buf_put_u8(b, (uint8_t)(acc >> 8));
            if (end == 0)
                rl_buf_put_u8(b, (uint8_t)acc);
            acc = 0;
            pos = 0;
        }
    }
    return pos != 0 ? b64_end_error(c) : 0;
}

static bool is_oct(uint8_t ch) { return ch >= '0' && ch <= '7'; }

static int esc_decode(rl_expr_ctx *c, rl_buf *b, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n;) {
        if (p[i] != '\\') {
            rl_buf_put_u8(b, p[i++]);
        } else if (i + 3 < n && p[i + 1] >= '0' && p[i + 1] <= '3' && is_oct(p[i + 2]) &&
                   is_oct(p[i + 3])) {
            rl_buf_put_u8(b, (uint8_t)((p[i + 1] - '0') << 6 | (p[i + 2] - '0') << 3 |
                                       (p[i + 3] - '0')));
            i += 4;
        } else if (i + 1 < n && p[i + 1] == '\\') {
            rl_buf_put_u8(b, '\\');
            i += 2;
        } else {
            return rl_exec_error(c->x, RL_SQLSTATE_INVALID_TEXT_REPRESENTATION, -1,
                                 "invalid input syntax for type %s", "bytea");
        }
    }
    return 0;
}

typedef enum { ENC_NONE, ENC_HEX, ENC_BASE64, ENC_ESCAPE } binary_encoding;

static binary_encoding encoding_of(const rl_value *v)
{
    char name[16];
    arg_cstr(v, name, sizeof name);
    if (bytes_n(v) >= sizeof name)
        return ENC_NONE;
    if (strcasecmp(name, "hex") == 0)
        return ENC_HEX;
    if (strcasecmp(name, "base64") == 0)
        return ENC_BASE64;
    if (strcasecmp(name, "escape") == 0)
        return ENC_ESCAPE;
    return ENC_NONE;
}

static int unknown_encoding(rl_expr_ctx *c, const rl_value *v)
{
    return rl_exec_error(c->x, RL_SQLSTATE_INVALID_PARAMETER_VALUE, -1,
                         "unrecognized encoding: \"%.*s\"", (int)bytes_n(v),
                         (const char *)bytes_p(v));
}

int rl_fn_encode(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    binary_encoding e = encoding_of(&a[1]);
    if (e == ENC_NONE)
        return unknown_encoding(c, &a[1]);
    rl_buf b;
    rl_buf_init(&b, 0);
    if (e == ENC_HEX)
        hex_encode(&b, bytes_p(&a[0]), bytes_n(&a[0]));
    else if (e == ENC_BASE64)
        b64_encode(&b, bytes_p(&a[0]), bytes_n(&a[0]));
    else
        esc_encode(&b, bytes_p(&a[0]), bytes_n(&a[0]));
    return rl_val_buf_copy(c, out, RL_OID_TEXT, &b);
}

int rl_fn_decode(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    binary_encoding e = encoding_of(&a[1]);
    if (e == ENC_NONE)
        return unknown_encoding(c, &a[1]);
    rl_buf b;
    rl_buf_init(&b, 0);
    const uint8_t *p = bytes_p(&a[0]);
    size_t len = bytes_n(&a[0]);
    int rc = e == ENC_HEX      ? hex_decode(c, &b, p, len)
             : e == ENC_BASE64 ? b64_decode(c, &b, p, len)
                               : esc_decode(c, &b, p, len);
    if (rc < 0) {
        rl_buf_free(&b);
        return -1;
    }
    return rl_val_buf_copy(c, out, RL_OID_BYTEA, &b);
}

/* -------------------------------------------------------------- digests */

static int digest(rl_expr_ctx *c, const EVP_MD *md, const rl_value *v, uint8_t *d,
                  unsigned int *dn)
{
    if (!EVP_Digest(bytes_p(v), bytes_n(v), d, dn, md, NULL))
        return rl_exec_error(c->x, RL_SQLSTATE_INTERNAL_ERROR, -1, "could not compute %s hash",
                             EVP_MD_get0_name(md));
    return 0;
}

static int sha2(rl_expr_ctx *c, const EVP_MD *md, const rl_value *v, rl_value *out)
{
    uint8_t d[EVP_MAX_MD_SIZE];
    unsigned int dn = 0;
    if (digest(c, md, v, d, &dn) < 0)
        return -1;
    return rl_val_str_copy(c, out, RL_OID_BYTEA, d, dn);
}

int rl_fn_sha224(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return sha2(c, EVP_sha224(), &a[0], out);
}

int rl_fn_sha256(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return sha2(c, EVP_sha256(), &a[0], out);
}

int rl_fn_sha384(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return sha2(c, EVP_sha384(), &a[0], out);
}

int rl_fn_sha512(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return sha2(c, EVP_sha512(), &a[0], out);
}

/* ---------------------------------------------------------- byte access */

static int byte_index(rl_expr_ctx *c, const rl_value *v, int64_t k)
{
    if (k < 0 || (uint64_t)k >= bytes_n(v))
        return rl_exec_error(c->x, RL_SQLSTATE_ARRAY_SUBSCRIPT_ERROR, -1,
                             "index %lld out of valid range, 0..%lld", (long long)k,
                             (long long)bytes_n(v) - 1);
    return 0;
}

int rl_fn_get_byte(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    if (byte_index(c, &a[0], a[1].d.v.i) < 0)
        return -1;
    rl_val_int(out, RL_OID_INT4, bytes_p(&a[0])[a[1].d.v.i]);
    return 0;
}

int rl_fn_set_byte(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    if (byte_index(c, &a[0], a[1].d.v.i) < 0 ||
        rl_val_str_copy(c, out, RL_OID_BYTEA, bytes_p(&a[0]), bytes_n(&a[0])) < 0)
        return -1;
    ((uint8_t *)out->d.v.s.p)[a[1].d.v.i] = (uint8_t)a[2].d.v.i; /* the low 8 bits, as PG */
    return 0;
}

int rl_fn_bytea_length(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    rl_val_int(out, RL_OID_INT4, (int64_t)bytes_n(&a[0]));
    return 0;
}

int rl_fn_bit_length(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    rl_val_int(out, RL_OID_INT4, (int64_t)bytes_n(&a[0]) * 8);
    return 0;
}

int rl_fn_md5_bytea(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    uint8_t d[EVP_MAX_MD_SIZE];
    unsigned int dn = 0;
    if (digest(c, EVP_md5(), &a[0], d, &dn) < 0)
        return -1;
    char hex[2 * EVP_MAX_MD_SIZE];
    for (unsigned int i = 0; i < dn; i++) {
        hex[2 * i] = hexdig[d[i] >> 4];
        hex[2 * i + 1] = hexdig[d[i] & 15];
    }
    return rl_val_str_copy(c, out, RL_OID_TEXT, hex, 2 * (size_t)dn);
}

/* ------------------------------------------- substring, position, trim */

/* The byte range [*from, *to) of PostgreSQL's substring(s FROM start [FOR
 * count]) over `len` units: start is 1-based and may be before the first. */
static int substring_range(rl_expr_ctx *c, int64_t start, bool has_count, int64_t count,
                           size_t len, size_t *from, size_t *to)
{
    if (has_count && count < 0)
        return rl_exec_error(c->x, RL_SQLSTATE_SUBSTRING_ERROR, -1,
                             "negative substring length not allowed");
    int64_t first = start < 1 ? 1 : start, end;
    if (!has_count || __builtin_add_overflow(start, count, &end))
        end = INT64_MAX;
    *from = *to = 0;
    if (end <= first || (uint64_t)(first - 1) >= len)
        return 0;
    *from = (size_t)(first - 1);
    *to = (uint64_t)(end - 1) < len ? (size_t)(end - 1) : len;
    return 0;
}

int rl_fn_bytea_substr(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    size_t from = 0, to = 0;
    if (substring_range(c, a[1].d.v.i, n > 2, n > 2 ? a[2].d.v.i : 0, bytes_n(&a[0]), &from,
                        &to) < 0)
        return -1;
    rl_val_str(out, RL_OID_BYTEA, bytes_p(&a[0]) + from, to - from);
    return 0;
}

int rl_fn_bytea_position(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    const uint8_t *s = bytes_p(&a[0]), *sub = bytes_p(&a[1]);
    size_t ns = bytes_n(&a[0]), nsub = bytes_n(&a[1]);
    int64_t at = 0;
    if (nsub == 0)
        at = 1;
    for (size_t i = 0; at == 0 && nsub <= ns && i <= ns - nsub; i++)
        if (memcmp(s + i, sub, nsub) == 0)
            at = (int64_t)i + 1;
    rl_val_int(out, RL_OID_INT4, at);
    return 0;
}

/* btrim / ltrim / rtrim of bytea: the bytes found in the second argument,
 * from both ends, the start or the end. */
static int bytea_trim(rl_value *a, rl_value *out, bool left, bool right)
{
    const uint8_t *p = bytes_p(&a[0]), *set = bytes_p(&a[1]);
    size_t i = 0, j = bytes_n(&a[0]), nset = bytes_n(&a[1]);
    while (left && i < j && memchr(set, p[i], nset))
        i++;
    while (right && j > i && memchr(set, p[j - 1], nset))
        j--;
    rl_val_str(out, RL_OID_BYTEA, p + i, j - i);
    return 0;
}

int rl_fn_bytea_btrim(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return bytea_trim(a, out, true, true);
}

int rl_fn_bytea_ltrim(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return bytea_trim(a, out, true, false);
}

int rl_fn_bytea_rtrim(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return bytea_trim(a, out, false, true);
}

/* ---------------------------------------------- convert_to / convert_from */

typedef enum { CONV_NONE, CONV_UTF8, CONV_LATIN1, CONV_SQL_ASCII, CONV_OTHER } conv_encoding;

/* PostgreSQL's encoding names compare lowercased without punctuation
 * ("UTF-8" is utf8). RockLake converts between UTF-8 and LATIN1 / SQL_ASCII;
 * the other encodings PostgreSQL knows are CONV_OTHER (0A000). */
static conv_encoding conv_of(const rl_value *v)
{
    char clean[32];
    size_t k = 0;
    for (size_t i = 0; i < bytes_n(v); i++) {
        uint8_t ch = bytes_p(v)[i];
        if (k + 1 >= sizeof clean)
            return CONV_NONE;
        if ((ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9'))
            clean[k++] = (char)ch;
        else if (ch >= 'A' && ch <= 'Z')
            clean[k++] = (char)(ch - 'A' + 'a');
    }
    clean[k] = 0;
    if (strcmp(clean, "utf8") == 0 || strcmp(clean, "unicode") == 0)
        return CONV_UTF8;
    if (strcmp(clean, "latin1") == 0 || strcmp(clean, "iso88591") == 0)
        return CONV_LATIN1;
    if (strcmp(clean, "sqlascii") == 0)
        return CONV_SQL_ASCII;
    static const char *const others[] = {
        "latin2", "latin3", "latin4", "latin5", "latin6", "latin7", "latin8", "latin9", "latin10",
        "win1250", "win1251", "win1252", "win1253", "win1254", "win1255", "win1256", "win1257",
        "win1258", "win866", "win874", "koi8r", "koi8u", "eucjp", "euccn", "euckr", "euctw",
        "eucjis2004", "sjis", "big5", "gbk", "uhc", "gb18030", "johab", "shiftjis2004",
        "mulecinternal", "iso88595", "iso88596", "iso88597", "iso88598", "iso885913",
        "iso885914", "iso885915", "iso885916", "iso88592", "iso88593", "iso88594", "iso88599",
        "iso885910", "windows1252", "tcvn", "tcvn5712", "vscii", "alt", "cp866", "mskanji",
        "shiftjis", "abc", "koi8", "cp1251", "cp1252", "cp1250"};
    for (size_t i = 0; i < sizeof others / sizeof others[0]; i++)
        if (strcmp(clean, others[i]) == 0)
            return CONV_OTHER;
    return CONV_NONE;
}

static int conv_refused(rl_expr_ctx *c, conv_encoding e, const rl_value *name, bool source)
{
    if (e == CONV_NONE)
        return rl_exec_error(c->x, RL_SQLSTATE_INVALID_PARAMETER_VALUE, -1,
                             "invalid %s encoding name \"%.*s\"",
                             source ? "source" : "destination", (int)bytes_n(name),
                             (const char *)bytes_p(name));
    rl_exec_error(c->x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                  "RockLake converts only between UTF8, LATIN1 and SQL_ASCII, not \"%.*s\"",
                  (int)bytes_n(name), (const char *)bytes_p(name));
    rl_error_hint(c->x->err, "Convert the text in the client, or use UTF8.");
    return -1;
}

int rl_fn_convert_to(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    conv_encoding e = conv_of(&a[1]);
    if (e == CONV_NONE || e == CONV_OTHER)
        return conv_refused(c, e, &a[1], false);
    const uint8_t *p = bytes_p(&a[0]);
    size_t len = bytes_n(&a[0]);
    if (e != CONV_LATIN1)
        return rl_val_str_copy(c, out, RL_OID_BYTEA, p, len);
    rl_buf b;
    rl_buf_init(&b, 0);
    for (size_t i = 0; i < len;) {
        size_t k = rl_utf8_char_len(p + i, len - i);
        if (k == 0)
            k = 1;
        uint32_t cp = p[i];
        if (k == 2)
            cp = (uint32_t)(p[i] & 0x1f) << 6 | (p[i + 1] & 0x3f);
        if (k > 2 || cp > 0xff) {
            rl_buf_free(&b);
            char hexs[24] = ""; /* "0xe2 0x82 0xac": each byte, as PostgreSQL lists them */
            for (size_t j = 0, at = 0; j < k && j < 4; j++)
                at += (size_t)snprintf(hexs + at, sizeof hexs - at, "%s0x%02x", j ? " " : "",
                                       p[i + j]);
            return rl_exec_error(c->x, RL_SQLSTATE_UNTRANSLATABLE_CHARACTER, -1,
                                 "character with byte sequence %s in encoding \"UTF8\" has no "
                                 "equivalent in encoding \"LATIN1\"",
                                 hexs);
        }
        rl_buf_put_u8(&b, (uint8_t)cp);
        i += k;
    }
    return rl_val_buf_copy(c, out, RL_OID_BYTEA, &b);
}

int rl_fn_convert_from(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    conv_encoding e = conv_of(&a[1]);
    if (e == CONV_NONE || e == CONV_OTHER)
        return conv_refused(c, e, &a[1], true);
    const uint8_t *p = bytes_p(&a[0]);
    size_t len = bytes_n(&a[0]);
    if (e != CONV_LATIN1) { /* the bytes must already be this database's UTF-8 */
        if (rl_utf8_check(c->x->err, p, len) < 0)
            return -1;
        return rl_val_str_copy(c, out, RL_OID_TEXT, p, len);
    }
    rl_buf b;
    rl_buf_init(&b, 0);
    for (size_t i = 0; i < len; i++) {
        if (p[i] == 0) {
            rl_buf_free(&b);
            return rl_exec_error(c->x, RL_SQLSTATE_CHARACTER_NOT_IN_REPERTOIRE, -1,
                                 "invalid byte sequence for encoding \"LATIN1\": 0x00");
        }
        if (p[i] < 0x80) {
            rl_buf_put_u8(&b, p[i]);
        } else {
            rl_buf_put_u8(&b, (uint8_t)(0xc0 | p[i] >> 6));
            rl_buf_put_u8(&b, (uint8_t)(0x80 | (p[i] & 0x3f)));
        }
    }
    return rl_val_buf_copy(c, out, RL_OID_TEXT, &b);
}

/* bytea || bytea (PostgreSQL's byteacat). */
int rl_bytea_concat(rl_expr_ctx *c, const rl_value *a, const rl_value *b, rl_value *out)
{
    if (a->d.isnull || b->d.isnull) {
        rl_val_null(out, RL_OID_BYTEA);
        return 0;
    }
    rl_buf buf;
    rl_buf_init(&buf, 0);
    rl_buf_put(&buf, bytes_p(a), bytes_n(a));
    rl_buf_put(&buf, bytes_p(b), bytes_n(b));
    if (buf.failed) {
        rl_buf_free(&buf);
        return oom(c);
    }
    return rl_val_buf_copy(c, out, RL_OID_BYTEA, &buf);
}
