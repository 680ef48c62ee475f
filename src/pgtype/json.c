/*
 * json.c — PostgreSQL's JSON grammar over bytes, as its json type uses it
 * (jsonapi.c): the check json_in makes, with the DETAIL of each error; a
 * walk of an object's members or an array's elements by byte spans; string
 * escaping and unescaping; jsonb's normalised text (numbers through
 * pgtype.c's numeric). No SQL values here: sql/sql_json.c builds the json
 * and jsonb types on this.
 *
 * Whitespace is space, tab, newline and carriage return; a token that is no
 * JSON token is the run of "alphanumeric" bytes (letters, digits, _, $ and
 * every byte >= 0x80) where it starts, or what a number consumed before it
 * failed; strings take \" \\ \/ \b \f \n \r \t and \uXXXX escapes and no raw
 * control character. Nesting is bounded by the C stack, not by the input.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/error.h"
#include "base/stack.h"
#include "pgtype/json.h"
#include "pgtype/pgtype.h"

/* ------------------------------------------------------------ scanning */

typedef struct jscan {
    const uint8_t *p;
    size_t n, i;
    char detail[160]; /* PostgreSQL's DETAIL of the first error */
} jscan;

static bool js_space(uint8_t ch) { return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r'; }

static bool js_alnum(uint8_t ch)
{
    return isalnum(ch) || ch == '_' || ch == '$' || ch >= 0x80;
}

static void js_ws(jscan *s)
{
    while (s->i < s->n && js_space(s->p[s->i]))
        s->i++;
}

/* The token at i as PostgreSQL quotes it in "but found ...". */
static void js_token(const jscan *s, char *out, size_t cap)
{
    size_t a = s->i, z = a;
    if (z < s->n && js_alnum(s->p[z]))
        while (z < s->n && js_alnum(s->p[z]))
            z++;
    else if (z < s->n)
        z++;
    snprintf(out, cap, "%.*s", (int)(z - a < 60 ? z - a : 60), (const char *)s->p + a);
}

static int js_invalid_token(jscan *s);

static int js_fail(jscan *s, const char *expected)
{
    if (s->i >= s->n) {
        snprintf(s->detail, sizeof s->detail, "The input string ended unexpectedly.");
        return -1;
    }
    char tok[64];
    js_token(s, tok, sizeof tok);
    /* a word that is no JSON token at all is the lexer's error, found
     * before the parser's expectation (a number or keyword is a token) */
    if (js_alnum(s->p[s->i]) && strcmp(tok, "true") != 0 && strcmp(tok, "false") != 0 &&
        strcmp(tok, "null") != 0 && strspn(tok, "0123456789") != strlen(tok))
        return js_invalid_token(s);
    snprintf(s->detail, sizeof s->detail, "Expected %s, but found \"%s\".", expected, tok);
    return -1;
}

static int js_invalid_token(jscan *s)
{
    if (s->i >= s->n) {
        snprintf(s->detail, sizeof s->detail, "The input string ended unexpectedly.");
        return -1;
    }
    char tok[64];
    js_token(s, tok, sizeof tok);
    snprintf(s->detail, sizeof s->detail, "Token \"%s\" is invalid.", tok);
    return -1;
}

static int hexval(uint8_t ch)
{
    return ch >= '0' && ch <= '9' ? ch - '0'
           : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
           : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10
                                    : -1;
}

static int js_surrogate(jscan *s, bool high)
{
    snprintf(s->detail, sizeof s->detail,
             high ? "Unicode high surrogate must not follow a high surrogate."
                  : "Unicode low surrogate must follow a high surrogate.");
    return -1;
}

/* A string at i (which is '"'); out, when given, gets its de-escaped
 * bytes (UTF-8), and then surrogates must pair as PostgreSQL's lexer
 * requires when it de-escapes (a \u0000 gives a NUL byte: the caller's
 * 22P05). */
static int js_string(jscan *s, rl_buf *out)
{
    s->i++;
    int32_t hi = -1; /* a high surrogate waiting for its low one */
    while (s->i < s->n) {
        uint8_t ch = s->p[s->i];
        if (ch == '"') {
            if (out && hi != -1)
                return js_surrogate(s, false);
            s->i++;
            return 0;
        }
        if (ch < 0x20) {
            snprintf(s->detail, sizeof s->detail, "Character with value 0x%02x must be escaped.",
                     ch);
            return -1;
        }
        if (ch != '\\') {
            if (out && hi != -1)
                return js_surrogate(s, false);
            if (out)
                rl_buf_put_u8(out, ch);
            s->i++;
            continue;
        }
        if (++s->i >= s->n)
            break;
        ch = s->p[s->i];
        const char *simple = strchr("\"\\/bfnrt", ch);
        if (ch && simple) {
            static const char to[] = "\"\\/\b\f\n\r\t";
            if (out && hi != -1)
                return js_surrogate(s, false);
            if (out)
                rl_buf_put_u8(out, (uint8_t)to[simple - "\"\\/bfnrt"]);
            s->i++;
            continue;
        }
        if (ch != 'u') {
            snprintf(s->detail, sizeof s->detail, "Escape sequence \"\\%c\" is invalid.", ch);
            return -1;
        }
        uint32_t cp = 0;
        for (int k = 1; k <= 4; k++) {
            int h = s->i + k < s->n ? hexval(s->p[s->i + k]) : -1;
            if (h < 0) {
                snprintf(s->detail, sizeof s->detail,
                         "\"\\u\" must be followed by four hexadecimal digits.");
                return -1;
            }
            cp = cp << 4 | (uint32_t)h;
        }
        s->i += 5;
        if (!out)
            continue;
        if (cp >= 0xD800 && cp <= 0xDBFF) {
            if (hi != -1)
                return js_surrogate(s, true);
            hi = (int32_t)cp;
            continue;
        }
        if (cp >= 0xDC00 && cp <= 0xDFFF) {
            if (hi == -1)
                return js_surrogate(s, false);
            cp = 0x10000 + (((uint32_t)hi - 0xD800) << 10) + (cp - 0xDC00);
            hi = -1;
        } else if (hi != -1) {
            return js_surrogate(s, false);
        }
        uint8_t u[4];
        size_t len = cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
        if (len == 1) {
            u[0] = (uint8_t)cp;
        } else if (len == 2) {
            u[0] = (uint8_t)(0xC0 | cp >> 6);
            u[1] = (uint8_t)(0x80 | (cp & 0x3F));
        } else if (len == 3) {
            u[0] = (uint8_t)(0xE0 | cp >> 12);
            u[1] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F));
            u[2] = (uint8_t)(0x80 | (cp & 0x3F));
        } else {
            u[0] = (uint8_t)(0xF0 | cp >> 18);
            u[1] = (uint8_t)(0x80 | ((cp >> 12) & 0x3F));
            u[2] = (uint8_t)(0x80 | ((cp >> 6) & 0x3F));
            u[3] = (uint8_t)(0x80 | (cp & 0x3F));
        }
        rl_buf_put(out, u, len);
    }
    snprintf(s->detail, sizeof s->detail, "The input string ended unexpectedly.");
    return -1;
}

/* A number at i: -?(0|[1-9][0-9]*)(.[0-9]+)?([eE][+-]?[0-9]+)?, ending
 * where no alphanumeric byte follows (else the whole run is the token). */
static int js_number(jscan *s)
{
    size_t start = s->i, i = s->i;
    if (i < s->n && s->p[i] == '-')
        i++;
    bool ok = i < s->n && isdigit(s->p[i]);
    if (ok && s->p[i] == '0')
        i++;
    else
        while (i < s->n && isdigit(s->p[i]))
            i++;
    if (ok && i < s->n && s->p[i] == '.') {
        i++;
        ok = i < s->n && isdigit(s->p[i]);
        while (i < s->n && isdigit(s->p[i]))
            i++;
    }
    if (ok && i < s->n && (s->p[i] == 'e' || s->p[i] == 'E')) {
        i++;
        if (i < s->n && (s->p[i] == '+' || s->p[i] == '-'))
            i++;
        ok = i < s->n && isdigit(s->p[i]);
        while (i < s->n && isdigit(s->p[i]))
            i++;
    }
    if (!ok || (i < s->n && js_alnum(s->p[i]))) {
        /* the token: what the number consumed and the alphanumerics after */
        while (i < s->n && js_alnum(s->p[i]))
            i++;
        snprintf(s->detail, sizeof s->detail, "Token \"%.*s\" is invalid.",
                 (int)(i - start < 60 ? i - start : 60), (const char *)s->p + start);
        return -1;
    }
    s->i = i;
    return 0;
}

static int js_value(jscan *s, int depth);

static int js_object(jscan *s, int depth)
{
    s->i++; /* { */
    js_ws(s);
    if (s->i < s->n && s->p[s->i] == '}') {
        s->i++;
        return 0;
    }
    for (bool first = true;; first = false) {
        if (s->i >= s->n || s->p[s->i] != '"')
            return js_fail(s, first ? "string or \"}\"" : "string");
        if (js_string(s, NULL) < 0)
            return -1;
        js_ws(s);
        if (s->i >= s->n || s->p[s->i] != ':')
            return js_fail(s, "\":\"");
        s->i++;
        int rc = js_value(s, depth + 1);
        if (rc < 0)
            return rc;
        js_ws(s);
        if (s->i < s->n && s->p[s->i] == '}') {
            s->i++;
            return 0;
        }
        if (s->i >= s->n || s->p[s->i] != ',')
            return js_fail(s, "\",\" or \"}\"");
        s->i++;
        js_ws(s);
    }
}

static int js_array(jscan *s, int depth)
{
    s->i++; /* [ */
    js_ws(s);
    if (s->i < s->n && s->p[s->i] == ']') {
        s->i++;
        return 0;
    }
    for (;;) {
        int rc = js_value(s, depth + 1);
        if (rc < 0)
            return rc;
        js_ws(s);
        if (s->i < s->n && s->p[s->i] == ']') {
            s->i++;
            return 0;
        }
        if (s->i >= s->n || s->p[s->i] != ',')
            return js_fail(s, "\",\" or \"]\"");
        s->i++;
    }
}

static bool js_word(jscan *s, const char *w)
{
    size_t n = strlen(w);
    if (s->n - s->i < n || memcmp(s->p + s->i, w, n) != 0 ||
        (s->i + n < s->n && js_alnum(s->p[s->i + n])))
        return false;
    s->i += n;
    return true;
}

/* One value (leading whitespace skipped); depth guards the C stack. */
static int js_value(jscan *s, int depth)
{
    if ((depth & 63) == 0 && rl_stack_exhausted()) {
        snprintf(s->detail, sizeof s->detail, "stack");
        return -2;
    }
    js_ws(s);
    if (s->i >= s->n)
        return js_fail(s, "JSON value");
    uint8_t ch = s->p[s->i];
    if (ch == '{')
        return js_object(s, depth);
    if (ch == '[')
        return js_array(s, depth);
    if (ch == '"')
        return js_string(s, NULL);
    if (ch == '-' || isdigit(ch))
        return js_number(s);
    if (js_word(s, "true") || js_word(s, "false") || js_word(s, "null"))
        return 0;
    if (js_alnum(ch))
        return js_invalid_token(s);
    return js_fail(s, "JSON value");
}

/* --------------------------------------------------------------- public */

rl_json_status rl_json_check(const uint8_t *p, size_t n, char *detail, size_t cap)
{
    jscan s = {p, n, 0, ""};
    int rc = js_value(&s, 1);
    if (rc == 0) {
        js_ws(&s);
        if (s.i < s.n)
            rc = js_fail(&s, "end of input");
    }
    if (rc < 0 && cap)
        snprintf(detail, cap, "%s", s.detail);
    return rc == 0 ? RL_JSON_OK : rc == -2 ? RL_JSON_TOO_DEEP : RL_JSON_SYNTAX;
}

uint8_t rl_json_kind(const uint8_t *p, size_t n)
{
    jscan s = {p, n, 0, ""};
    js_ws(&s);
    return s.i < s.n ? s.p[s.i] : 0;
}

int rl_json_string_decode(const uint8_t *p, size_t n, rl_buf *out)
{
    jscan s = {p, n, 0, ""};
    return n && p[0] == '"' ? js_string(&s, out) : -1;
}

/* A JSON string of bytes p..p+n, escaped as PostgreSQL's escape_json. */
void rl_json_put_string(rl_buf *b, const uint8_t *p, size_t n)
{
    rl_buf_put_u8(b, '"');
    for (size_t i = 0; i < n; i++) {
        uint8_t ch = p[i];
        switch (ch) {
        case '\b': rl_buf_put_str(b, "\\b"); break;
        case '\f': rl_buf_put_str(b, "\\f"); break;
        case '\n': rl_buf_put_str(b, "\\n"); break;
        case '\r': rl_buf_put_str(b, "\\r"); break;
        case '\t': rl_buf_put_str(b, "\\t"); break;
        case '"': rl_buf_put_str(b, "\\\""); break;
        case '\\': rl_buf_put_str(b, "\\\\"); break;
        default:
            if (ch < ' ')
                rl_buf_printf(b, "\\u%04x", ch);
            else
                rl_buf_put_u8(b, ch);
        }
    }
    rl_buf_put_u8(b, '"');
}

bool rl_json_is_number(const uint8_t *p, size_t n)
{
    jscan s = {p, n, 0, ""};
    return n > 0 && (p[0] == '-' || isdigit(p[0])) && js_number(&s) == 0 && s.i == n;
}

void rl_json_each_member(const uint8_t *p, size_t n, rl_json_member_fn fn, void *ctx)
{
    jscan s = {p, n, 0, ""};
    js_ws(&s);
    if (s.i >= s.n || (s.p[s.i] != '{' && s.p[s.i] != '['))
        return;
    bool object = s.p[s.i] == '{';
    s.i++;
    rl_buf key;
    rl_buf_init(&key, 0);
    for (;;) {
        js_ws(&s);
        if (s.i >= s.n || s.p[s.i] == '}' || s.p[s.i] == ']')
            break;
        if (object) {
            rl_buf_reset(&key);
            if (js_string(&s, &key) < 0)
                break;
            js_ws(&s);
            s.i++; /* : */
        }
        js_ws(&s);
        size_t vs = s.i;
        if (js_value(&s, 1) < 0)
            break;
        if (!fn(ctx, object ? &key : NULL, vs, s.i))
            break;
        js_ws(&s);
        if (s.i < s.n && s.p[s.i] == ',')
            s.i++;
    }
    rl_buf_free(&key);
}

rl_json_status rl_json_check_escapes(const uint8_t *p, size_t n, bool *nul, char *detail,
                                     size_t cap)
{
    jscan s = {p, n, 0, ""};
    rl_buf tmp;
    rl_buf_init(&tmp, 0);
    int rc = 0;
    *nul = false;
    while (rc == 0 && s.i < s.n) {
        if (s.p[s.i] != '"') {
            s.i++;
            continue;
        }
        rl_buf_reset(&tmp);
        rc = js_string(&s, &tmp);
        if (rc == 0 && tmp.len && memchr(tmp.data, 0, tmp.len)) {
            *nul = true;
            rc = -1;
        }
    }
    rl_buf_free(&tmp);
    if (rc < 0 && cap)
        snprintf(detail, cap, "%s", s.detail);
    return rc == 0 ? RL_JSON_OK : RL_JSON_SYNTAX;
}

/* ------------------------------------------------------- jsonb's text */

typedef struct jb_pair {
    rl_buf key, val;
    size_t order;
} jb_pair;

typedef struct jb_ctx {
    bool strip;          /* objects' null members left out */
    rl_buf num;          /* scratch for numbers */
    char *err;
    size_t errlen;
    const char **sqlstate;
} jb_ctx;

typedef struct jb_walk {
    jb_ctx *g;
    const uint8_t *base;
    rl_buf *out;
    jb_pair *pairs;
    size_t n, cap;
    bool first;
    int rc;
} jb_walk;

static int jb_canon(jb_ctx *g, const uint8_t *p, size_t n, rl_buf *out);

static bool jb_elem(void *ctx, const rl_buf *key, size_t vs, size_t ve)
{
    jb_walk *w = ctx;
    if (!w->first)
        rl_buf_put_str(w->out, ", ");
    w->first = false;
    w->rc = jb_canon(w->g, w->base + vs, ve - vs, w->out);
    return w->rc == 0;
}

static int jb_nul(jb_ctx *g)
{
    snprintf(g->err, g->errlen, "unsupported Unicode escape sequence");
    *g->sqlstate = RL_SQLSTATE_UNTRANSLATABLE_CHARACTER;
    return -1;
}

static bool jb_member(void *ctx, const rl_buf *key, size_t vs, size_t ve)
{
    jb_walk *w = ctx;
    if (w->g->strip && ve - vs == 4 && memcmp(w->base + vs, "null", 4) == 0)
        return true;
    if (key->len && memchr(key->data, 0, key->len)) {
        w->rc = jb_nul(w->g);
        return false;
    }
    if (w->n == w->cap) {
        size_t cap = w->cap ? 2 * w->cap : 8;
        jb_pair *np = realloc(w->pairs, cap * sizeof *np);
        if (!np) {
            w->out->failed = true;
            w->rc = -1;
            return false;
        }
        w->pairs = np;
        w->cap = cap;
    }
    jb_pair *pr = &w->pairs[w->n];
    rl_buf_init(&pr->key, 0);
    rl_buf_init(&pr->val, 0);
    pr->order = w->n++;
    rl_buf_put(&pr->key, key->data, key->len);
    w->rc = jb_canon(w->g, w->base + vs, ve - vs, &pr->val);
    if (pr->key.failed || pr->val.failed) {
        w->out->failed = true;
        w->rc = -1;
    }
    return w->rc == 0;
}

/* uniqueifyJsonbObject's order: by length, then bytes, the later of equal
 * keys first (it wins). */
static int jb_pair_cmp(const void *a, const void *b)
{
    const jb_pair *x = a, *y = b;
    if (x->key.len != y->key.len)
        return x->key.len < y->key.len ? -1 : 1;
    int r = x->key.len ? memcmp(x->key.data, y->key.data, x->key.len) : 0;
    if (r)
        return r;
    return x->order > y->order ? -1 : 1;
}

static bool same_key(const jb_pair *x, const jb_pair *y)
{
    return x->key.len == y->key.len &&
           (x->key.len == 0 || memcmp(x->key.data, y->key.data, x->key.len) == 0);
}

/* The canonical text of the value at p..p+n appended to out: 0, -1 (err,
 * *sqlstate set; or out->failed), -2 past the stack. */
static int jb_canon(jb_ctx *g, const uint8_t *p, size_t n, rl_buf *out)
{
    if (rl_stack_exhausted())
        return -2;
    while (n && isspace(p[0]))
        p++, n--;
    while (n && isspace(p[n - 1]))
        n--;
    uint8_t k = rl_json_kind(p, n);
    jb_walk w = {.g = g, .base = p, .out = out, .first = true};
    if (k == '[') {
        rl_buf_put_u8(out, '[');
        rl_json_each_member(p, n, jb_elem, &w);
        rl_buf_put_u8(out, ']');
        return w.rc;
    }
    if (k == '{') {
        rl_json_each_member(p, n, jb_member, &w);
        if (w.rc == 0) {
            if (w.n > 1)
                qsort(w.pairs, w.n, sizeof *w.pairs, jb_pair_cmp);
            rl_buf_put_u8(out, '{');
            for (size_t i = 0; i < w.n; i++) {
                if (i && same_key(&w.pairs[i], &w.pairs[i - 1]))
                    continue;
                if (i)
                    rl_buf_put_str(out, ", ");
                rl_json_put_string(out, w.pairs[i].key.data ? w.pairs[i].key.data
                                                            : (const uint8_t *)"",
                                   w.pairs[i].key.len);
                rl_buf_put_str(out, ": ");
                rl_buf_put(out, w.pairs[i].val.data, w.pairs[i].val.len);
            }
            rl_buf_put_u8(out, '}');
        }
        for (size_t i = 0; i < w.n; i++) {
            rl_buf_free(&w.pairs[i].key);
            rl_buf_free(&w.pairs[i].val);
        }
        free(w.pairs);
        return w.rc;
    }
    if (k == '"') {
        rl_buf s;
        rl_buf_init(&s, 0);
        (void)rl_json_string_decode(p, n, &s);
        if (s.len && memchr(s.data, 0, s.len)) {
            rl_buf_free(&s);
            return jb_nul(g);
        }
        rl_json_put_string(out, s.data ? s.data : (const uint8_t *)"", s.len);
        if (s.failed)
            out->failed = true;
        rl_buf_free(&s);
        return 0;
    }
    if (k == 't' || k == 'f' || k == 'n') {
        rl_buf_put(out, p, n);
        return 0;
    }
    rl_datum d;
    rl_buf_reset(&g->num);
    if (rl_datum_input(RL_T_NUMERIC, (const char *)p, n, &d, &g->num, g->err, g->errlen,
                       g->sqlstate) != RL_CODEC_OK) {
        if (!*g->sqlstate)
            *g->sqlstate = RL_SQLSTATE_INVALID_TEXT_REPRESENTATION;
        return -1;
    }
    rl_datum_to_text(out, RL_T_NUMERIC, &d);
    return 0;
}

rl_json_status rl_jsonb_canon(const uint8_t *p, size_t n, bool strip, rl_buf *out, char *err,
                              size_t errlen, const char **sqlstate)
{
    jb_ctx g = {.strip = strip, .err = err, .errlen = errlen, .sqlstate = sqlstate};
    rl_buf_init(&g.num, 0);
    *sqlstate = NULL;
    int rc = jb_canon(&g, p, n, out);
    rl_buf_free(&g.num);
    return rc == 0 ? RL_JSON_OK : rc == -2 ? RL_JSON_TOO_DEEP : RL_JSON_SYNTAX;
}
