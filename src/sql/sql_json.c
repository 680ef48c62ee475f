/*
 * sql_json.c — the json type as PostgreSQL 15 has it (not jsonb): text kept
 * verbatim once it parses, as json_in keeps it; values made into json as
 * datum_to_json writes them; json_build_object / json_build_array, to_json,
 * json_typeof, json_array_length, the -> and ->> operators, json_agg.
 *
 * The grammar (PostgreSQL's jsonapi.c), its errors' DETAIL and the walks
 * over members are pgtype/json.c's; the input check itself is a cast from
 * text (sql_cast.c): 22P02, or 54001 nested past the C stack.
 *
 * Invariants: a json value's bytes always parse (only rl_json_input and the
 * builders here make one); the access operators return a sub-span of those
 * bytes, trimmed of whitespace, so it parses too.
 */
#include <assert.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgtype/json.h"
#include "sql/sql_json.h"
#include "sql/sql_value.h"

/* ------------------------------------------------------ values to json */
static int put_json_value(rl_expr_ctx *c, rl_buf *b, const rl_value *v, int loc);

/* An array's elements as a JSON array (array_to_json: no spaces). */
static int put_json_array(rl_expr_ctx *c, rl_buf *b, const rl_value *v, int loc)
{
    uint32_t elem = rl_array_elem_oid(v->oid);
    rl_buf el;
    rl_buf_init(&el, 0);
    size_t pos = 0;
    bool isnull, first = true;
    int rc = 0;
    rl_buf_put_u8(b, '[');
    while (rc == 0 && rl_array_next((const char *)v->d.v.s.p, v->d.v.s.len, &pos, &el, &isnull)) {
        if (!first)
            rl_buf_put_u8(b, ',');
        first = false;
        rl_value e;
        if (isnull) {
            rl_val_null(&e, elem);
        } else if ((rc = rl_text_to_value(c, el.len ? (const char *)el.data : "", el.len, elem, -1,
                                          false, &e, loc)) < 0) {
            break;
        }
        rc = put_json_value(c, b, &e, loc);
    }
    rl_buf_free(&el);
    rl_buf_put_u8(b, ']');
    return rc;
}

static int put_json_value(rl_expr_ctx *c, rl_buf *b, const rl_value *v, int loc);

/* A record as composite_to_json writes it: {"field":value,...}, each value
 * in its field's type. */
static int put_json_record(rl_expr_ctx *c, rl_buf *b, const rl_value *v, int loc)
{
    const char *h = (const char *)v->d.v.s.p;
    const char *end = memchr(h, RL_RECORD_SEP, v->d.v.s.len);
    assert(end); /* rl_record_build made it */
    rl_buf text;
    rl_buf_init(&text, 0);
    rl_buf_put_u8(b, '{');
    int rc = 0;
    for (bool first = true; rc == 0 && h < end; first = false) {
        const char *colon = memchr(h, ':', (size_t)(end - h));
        const char *comma = colon ? memchr(colon, ',', (size_t)(end - colon)) : NULL;
        if (!comma)
            break;
        char name[64];
        snprintf(name, sizeof name, "%.*s", (int)(colon - h), h);
        h = comma + 1;
        uint32_t oid;
        bool isnull;
        if (!rl_record_field(v, name, &oid, &text, &isnull))
            break;
        rl_value f;
        rl_val_null(&f, oid);
        if (!isnull)
            rc = rl_text_to_value(c, text.len ? (const char *)text.data : "", text.len, oid, -1,
                                  false, &f, loc);
        if (!first)
            rl_buf_put_u8(b, ',');
        rl_json_put_string(b, (const uint8_t *)name, strlen(name));
        rl_buf_put_u8(b, ':');
        if (rc == 0)
            rc = put_json_value(c, b, &f, loc);
    }
    rl_buf_put_u8(b, '}');
    rl_buf_free(&text);
    return rc;
}

/* v as datum_to_json writes it: NULL null, booleans and numbers bare (but
 * NaN and infinities quoted), json as it is, dates and timestamps in
 * ISO 8601 with a T, arrays as arrays, anything else its text quoted. */
static int put_json_value(rl_expr_ctx *c, rl_buf *b, const rl_value *v, int loc)
{
    if (v->d.isnull) {
        rl_buf_put_str(b, "null");
        return 0;
    }
    if (v->oid == RL_OID_JSON) {
        rl_buf_put(b, v->d.v.s.p, v->d.v.s.len);
        return 0;
    }
    if (rl_array_elem_oid(v->oid))
        return put_json_array(c, b, v, loc);
    if (v->oid == RL_OID_RECORD)
        return put_json_record(c, b, v, loc);
    rl_buf t;
    rl_buf_init(&t, 0);
    if (v->oid == RL_OID_UNKNOWN)
        rl_buf_put(&t, v->d.v.s.p, v->d.v.s.len);
    else
        rl_value_to_text(&t, v);
    if (t.failed) {
        rl_buf_free(&t);
        return rl_expr_oom(c);
    }
    const uint8_t *p = t.data ? t.data : (const uint8_t *)"";
    if (v->oid == RL_OID_BOOL) {
        rl_buf_put_str(b, v->d.v.b ? "true" : "false");
    } else if (rl_oid_is_number(v->oid) && rl_json_is_number(p, t.len)) {
        rl_buf_put(b, p, t.len);
    } else if (v->oid == RL_OID_TIMESTAMP || v->oid == RL_OID_TIMESTAMPTZ) {
        /* "2024-01-02 03:04:05[.ffffff][+00]": T for the blank, +00:00 */
        rl_buf iso;
        rl_buf_init(&iso, t.len + 4);
        for (size_t i = 0; i < t.len; i++)
            rl_buf_put_u8(&iso, p[i] == ' ' ? 'T' : p[i]);
        if (v->oid == RL_OID_TIMESTAMPTZ && t.len > 3 &&
            (p[t.len - 3] == '+' || p[t.len - 3] == '-'))
            rl_buf_put_str(&iso, ":00");
        rl_json_put_string(b, iso.data, iso.len);
        rl_buf_free(&iso);
    } else {
        rl_json_put_string(b, p, t.len);
    }
    rl_buf_free(&t);
    return 0;
}

static int put_json_result(rl_expr_ctx *c, rl_value *out, rl_buf *b)
{
    if (b->failed) {
        rl_buf_free(b);
        return rl_expr_oom(c);
    }
    return rl_val_buf_copy(c, out, RL_OID_JSON, b);
}

int rl_fn_to_json(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    rl_buf b;
    rl_buf_init(&b, 0);
    if (put_json_value(c, &b, &a[0], loc) < 0) {
        rl_buf_free(&b);
        return -1;
    }
    return put_json_result(c, out, &b);
}

/* json_build_object(VARIADIC "any"): {"k" : v, ...}; keys must not be NULL. */
int rl_fn_json_build_object(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    if (n % 2) {
        rl_exec_error(c->x, RL_SQLSTATE_INVALID_PARAMETER_VALUE, -1,
                      "argument list must have even number of elements");
        rl_error_hint(c->x->err, "The arguments of json_build_object() must consist of "
                                 "alternating keys and values.");
        return -1;
    }
    rl_buf b;
    rl_buf_init(&b, 0);
    rl_buf_put_u8(&b, '{');
    for (size_t i = 0; i < n; i += 2) {
        if (a[i].d.isnull) {
            rl_buf_free(&b);
            rl_exec_error(c->x, RL_SQLSTATE_INVALID_PARAMETER_VALUE, -1,
                          "argument %zu cannot be null", i + 1);
            rl_error_hint(c->x->err, "Object keys should be text.");
            return -1;
        }
        if (i)
            rl_buf_put_str(&b, ", ");
        rl_buf key;
        rl_buf_init(&key, 0);
        if (a[i].oid == RL_OID_UNKNOWN)
            rl_buf_put(&key, a[i].d.v.s.p, a[i].d.v.s.len);
        else
            rl_value_to_text(&key, &a[i]);
        rl_json_put_string(&b, key.data ? key.data : (const uint8_t *)"", key.len);
        rl_buf_free(&key);
        rl_buf_put_str(&b, " : ");
        if (put_json_value(c, &b, &a[i + 1], loc) < 0) {
            rl_buf_free(&b);
            return -1;
        }
    }
    rl_buf_put_u8(&b, '}');
    return put_json_result(c, out, &b);
}

/* [v, ...] of n values, as json_build_array and json_agg write it
 * (json_agg also puts "\n " before each later non-NULL array or record). */
static int json_list(rl_expr_ctx *c, const rl_value *vals, size_t n, bool agg, rl_value *out,
                     int loc)
{
    rl_buf b;
    rl_buf_init(&b, 0);
    rl_buf_put_u8(&b, '[');
    for (size_t i = 0; i < n; i++) {
        if (i)
            rl_buf_put_str(&b, ", ");
        if (i && agg && !vals[i].d.isnull &&
            (rl_array_elem_oid(vals[i].oid) || vals[i].oid == RL_OID_RECORD))
            rl_buf_put_str(&b, "\n ");
        if (put_json_value(c, &b, &vals[i], loc) < 0) {
            rl_buf_free(&b);
            return -1;
        }
    }
    rl_buf_put_u8(&b, ']');
    return put_json_result(c, out, &b);
}

/* json_build_array(VARIADIC "any"): [v, ...]. */
int rl_fn_json_build_array(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return json_list(c, a, n, false, out, loc);
}

int rl_json_agg(rl_expr_ctx *c, const rl_value *vals, size_t n, rl_value *out, int loc)
{
    if (n == 0) {
        rl_val_null(out, RL_OID_JSON);
        return 0;
    }
    return json_list(c, vals, n, true, out, loc);
}

/* ------------------------------------------------------------- access */

/* The kind of the value at the start of a json's text (after blanks). */
static uint8_t first_byte(const rl_value *j)
{
    return rl_json_kind(j->d.v.s.p, j->d.v.s.len);
}

int rl_fn_json_typeof(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    uint8_t ch = first_byte(&a[0]);
    const char *t = ch == '{' ? "object" : ch == '[' ? "array" : ch == '"' ? "string"
                    : ch == 't' || ch == 'f'          ? "boolean"
                    : ch == 'n'                       ? "null"
                                                      : "number";
    return rl_val_str_copy(c, out, RL_OID_TEXT, t, strlen(t));
}

/* Walk the top-level members of an object or elements of an array: for
 * each, fn(ctx, key (NULL in an array), key length, value span). The json
 * parsed when it was made, so errors here cannot happen. */typedef struct member_find {
    const uint8_t *key;
    size_t keylen;
    int64_t index, at;
    size_t vs, ve;
    bool found;
} member_find;

static bool find_member(void *ctx, const rl_buf *key, size_t vs, size_t ve)
{
    member_find *f = ctx;
    bool hit = key ? key->len == f->keylen && (f->keylen == 0 || memcmp(key->data, f->key,
                                                                           f->keylen) == 0)
                   : f->at == f->index;
    f->at++;
    if (hit) { /* an object's last member of that name wins, as in PostgreSQL */
        f->vs = vs;
        f->ve = ve;
        f->found = true;
    }
    return key != NULL || !hit;
}

static bool count_member(void *ctx, const rl_buf *key, size_t vs, size_t ve)
{
    (*(int64_t *)ctx)++;
    return true;
}

int rl_fn_json_array_length(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    uint8_t ch = first_byte(&a[0]);
    if (ch != '[')
        return rl_exec_error(c->x, RL_SQLSTATE_INVALID_PARAMETER_VALUE, -1,
                             ch == '{' ? "cannot get array length of a non-array"
                                       : "cannot get array length of a scalar");
    int64_t count = 0;
    rl_json_each_member(a[0].d.v.s.p, a[0].d.v.s.len, count_member, &count);
    rl_val_int(out, RL_OID_INT4, count);
    return 0;
}

/* j -> key / j -> index (as_text: ->>): the member's json, or as text
 * (a string de-escaped, null as NULL); NULL when there is none. */
int rl_json_get(rl_expr_ctx *c, const rl_value *j, const rl_value *k, bool as_text,
                rl_value *out)
{
    rl_val_null(out, as_text ? RL_OID_TEXT : RL_OID_JSON);
    if (j->d.isnull || k->d.isnull)
        return 0;
    member_find f = {0};
    uint8_t ch = first_byte(j);
    if (rl_oid_is_intlike(k->oid)) {
        if (ch != '[')
            return 0;
        f.index = k->d.v.i;
        if (f.index < 0) { /* from the end */
            int64_t count = 0;
            rl_json_each_member(j->d.v.s.p, j->d.v.s.len, count_member, &count);
            f.index += count;
            if (f.index < 0)
                return 0;
        }
    } else {
        if (ch != '{')
            return 0;
        f.key = k->d.v.s.p;
        f.keylen = k->d.v.s.len;
    }
    rl_json_each_member(j->d.v.s.p, j->d.v.s.len, find_member, &f);
    if (!f.found)
        return 0;
    const uint8_t *v = j->d.v.s.p + f.vs;
    size_t vlen = f.ve - f.vs;
    if (!as_text)
        return rl_val_str_copy(c, out, RL_OID_JSON, v, vlen);
    if (vlen == 4 && memcmp(v, "null", 4) == 0)
        return 0;
    if (v[0] != '"')
        return rl_val_str_copy(c, out, RL_OID_TEXT, v, vlen);
    rl_buf b;
    rl_buf_init(&b, vlen);
    (void)rl_json_string_decode(v, vlen, &b);
    if (b.failed) {
        rl_buf_free(&b);
        return rl_expr_oom(c);
    }
    return rl_val_buf_copy(c, out, RL_OID_TEXT, &b);
}
