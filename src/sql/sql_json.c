/*
 * sql_json.c — the json and jsonb types as PostgreSQL 15 has them. json:
 * text kept verbatim once it parses, as json_in keeps it; jsonb: the text
 * jsonb_out would print (keys unique and sorted, numbers as numeric), made
 * once at input. Values made into json as datum_to_json writes them;
 * json(b)_build_object / _array, to_json(b), json(b)_typeof,
 * json(b)_array_length, jsonb_pretty, jsonb_strip_nulls, the -> ->> #> #>>
 * operators, jsonb's @> <@ ? ?| ?& and order, json_agg, jsonb_agg,
 * json(b)_object_agg, the set-returning json(b)_each[_text],
 * json(b)_array_elements[_text] and json(b)_object_keys, json(b)_object
 * of text arrays, the rows of json(b)_to_record(set) and the records of
 * json(b)_populate_record(set), one converter for both.
 *
 * The grammar (PostgreSQL's jsonapi.c), its errors' DETAIL and the walks
 * over members are pgtype/json.c's; the input check itself is a cast from
 * text (sql_cast.c): 22P02, or 54001 nested past the C stack.
 *
 * Invariants: a json value's bytes always parse (only rl_json_input and the
 * builders here make one); the access operators return a sub-span of those
 * bytes, trimmed of whitespace, so it parses too. A jsonb value's bytes are
 * canonical (rl_jsonb_make, on pgtype/json.c), and so is any member's span
 * of them.
 */
#include <assert.h>
#include <errno.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/stack.h"
#include "pgtype/json.h"
#include "pgtype/pgtype.h"
#include "sql/sql_json.h"
#include "sql/sql_relation.h"
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
 * in its field's type, `sep` between fields. */
static int put_json_record(rl_expr_ctx *c, rl_buf *b, const rl_value *v, const char *sep,
                           int loc)
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
            rl_buf_put_str(b, sep);
        rl_json_put_string(b, (const uint8_t *)name, strlen(name));
        rl_buf_put_u8(b, ':');
        if (rc == 0)
            rc = put_json_value(c, b, &f, loc);
    }
    rl_buf_put_u8(b, '}');
    rl_buf_free(&text);
    return rc;
}

/* v's text as to_json reads it: an untyped literal as written, anything
 * else as its output function writes it. */
static void value_text(rl_buf *t, const rl_value *v)
{
    if (v->oid == RL_OID_UNKNOWN)
        rl_buf_put(t, v->d.v.s.p, v->d.v.s.len);
    else
        rl_value_to_text(t, v);
}

/* An object key: k's text as a JSON string (json_build_object,
 * json_object_agg). */
static void put_json_key(rl_buf *b, const rl_value *k)
{
    rl_buf key;
    rl_buf_init(&key, 0);
    value_text(&key, k);
    rl_json_put_string(b, key.data ? key.data : (const uint8_t *)"", key.len);
    rl_buf_free(&key);
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
    if (v->oid == RL_OID_JSON || v->oid == RL_OID_JSONB) {
        rl_buf_put(b, v->d.v.s.p, v->d.v.s.len);
        return 0;
    }
    if (rl_array_elem_oid(v->oid))
        return put_json_array(c, b, v, loc);
    if (rl_oid_is_composite(v->oid))
        return put_json_record(c, b, v, ",", loc);
    rl_buf t;
    rl_buf_init(&t, 0);
    value_text(&t, v);
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

int rl_fn_row_to_json(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    if (!rl_oid_is_composite(a[0].oid)) /* an untyped literal: no anonymous record input */
        return rl_exec_error(c->x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, loc,
                             "input of anonymous composite types is not implemented");
    rl_buf b;
    rl_buf_init(&b, 0);
    if (put_json_record(c, &b, &a[0], n > 1 && a[1].d.v.b ? ",\n " : ",", loc) < 0) {
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
        put_json_key(&b, &a[i]);
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
            (rl_array_elem_oid(vals[i].oid) || rl_oid_is_composite(vals[i].oid)))
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

/* The value span at p..p+n as the result of an access operator: json or
 * jsonb (the type of the container), or as text (a string de-escaped,
 * null as NULL). */
static int access_result(rl_expr_ctx *c, uint32_t oid, const uint8_t *v, size_t vlen,
                         bool as_text, rl_value *out)
{
    if (!as_text)
        return rl_val_str_copy(c, out, oid, v, vlen);
    uint8_t k = rl_json_kind(v, vlen);
    if (k == 'n')
        return 0;
    if (k != '"')
        return rl_val_str_copy(c, out, RL_OID_TEXT, v, vlen);
    while (vlen && v[0] != '"')
        v++, vlen--;
    rl_buf b;
    rl_buf_init(&b, vlen);
    (void)rl_json_string_decode(v, vlen, &b);
    if (b.failed) {
        rl_buf_free(&b);
        return rl_expr_oom(c);
    }
    return rl_val_buf_copy(c, out, RL_OID_TEXT, &b);
}

/* One step into p..p+*n: an object's member named key (keylen), or when
 * by_index an array's element index (negative from the end). False when
 * there is none; else *p, *n the member's span. */
static bool access_step(const uint8_t **p, size_t *n, bool by_index, const uint8_t *key,
                        size_t keylen, int64_t index)
{
    member_find f = {0};
    uint8_t ch = rl_json_kind(*p, *n);
    if (by_index) {
        if (ch != '[')
            return false;
        f.index = index;
        if (f.index < 0) { /* from the end */
            int64_t count = 0;
            rl_json_each_member(*p, *n, count_member, &count);
            f.index += count;
            if (f.index < 0)
                return false;
        }
    } else {
        if (ch != '{')
            return false;
        f.key = key;
        f.keylen = keylen;
    }
    rl_json_each_member(*p, *n, find_member, &f);
    if (!f.found)
        return false;
    *p += f.vs;
    *n = f.ve - f.vs;
    return true;
}

/* j -> key / j -> index (as_text: ->>): the member's json, or as text
 * (a string de-escaped, null as NULL); NULL when there is none. */
int rl_json_get(rl_expr_ctx *c, const rl_value *j, const rl_value *k, bool as_text,
                rl_value *out)
{
    rl_val_null(out, as_text ? RL_OID_TEXT : j->oid);
    if (j->d.isnull || k->d.isnull)
        return 0;
    if (j->oid == RL_OID_JSON && rl_json_escapes_check(c, j, -1) < 0)
        return -1;
    const uint8_t *p = j->d.v.s.p;
    size_t n = j->d.v.s.len;
    bool by_index = rl_oid_is_intlike(k->oid);
    if (!access_step(&p, &n, by_index, by_index ? NULL : k->d.v.s.p,
                     by_index ? 0 : k->d.v.s.len, by_index ? k->d.v.i : 0))
        return 0;
    return access_result(c, j->oid, p, n, as_text, out);
}

/* j #> path / j #>> path (path text[]): each step a key or, in an array,
 * an integer index; NULL when a step finds nothing or is NULL. */
int rl_json_get_path(rl_expr_ctx *c, const rl_value *j, const rl_value *path, bool as_text,
                     rl_value *out)
{
    rl_val_null(out, as_text ? RL_OID_TEXT : j->oid);
    if (j->d.isnull || path->d.isnull)
        return 0;
    if (j->oid == RL_OID_JSON && rl_json_escapes_check(c, j, -1) < 0)
        return -1;
    const uint8_t *p = j->d.v.s.p;
    size_t n = j->d.v.s.len;
    rl_buf el;
    rl_buf_init(&el, 0);
    size_t pos = 0;
    bool isnull, found = true;
    while (found && rl_elem_next(path, &pos, &el, &isnull)) {
        if (isnull) {
            found = false;
            break;
        }
        const uint8_t *key = el.data ? el.data : (const uint8_t *)"";
        if (rl_json_kind(p, n) == '[') {
            char num[32];
            char *end;
            snprintf(num, sizeof num, "%.*s", (int)(el.len < 31 ? el.len : 31), (const char *)key);
            errno = 0;
            long long v = strtoll(num, &end, 10);
            found = el.len > 0 && el.len < 31 && *end == 0 && errno == 0 && v >= INT32_MIN &&
                    v <= INT32_MAX && access_step(&p, &n, true, NULL, 0, v);
        } else {
            found = access_step(&p, &n, false, key, el.len, 0);
        }
    }
    rl_buf_free(&el);
    if (!found)
        return 0;
    return access_result(c, j->oid, p, n, as_text, out);
}

/* --------------------------------------------------------------- jsonb */

/* jsonb keeps its value as PostgreSQL's jsonb_out writes it: object keys
 * unique (the last of a name wins) and sorted by length, then bytes;
 * ", " between members and ": " after keys; strings re-escaped as
 * escape_json; numbers as numeric_out writes them. Such text is json, so
 * the walks above read it too, and a sub-span of it is again canonical. */

/* A json result made into jsonb (to_jsonb and the jsonb builders are the
 * json ones, normalised). */
static int to_jsonb_result(rl_expr_ctx *c, int rc, rl_value *out, int loc)
{
    if (rc < 0 || out->d.isnull) {
        if (rc == 0)
            out->oid = RL_OID_JSONB;
        return rc;
    }
    rl_value j = *out;
    return rl_jsonb_from_json(c, &j, out, loc);
}

int rl_fn_to_jsonb(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return to_jsonb_result(c, rl_fn_to_json(c, n, a, out, loc), out, loc);
}

int rl_fn_jsonb_build_array(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return to_jsonb_result(c, rl_fn_json_build_array(c, n, a, out, loc), out, loc);
}

int rl_fn_jsonb_build_object(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    if (n % 2) {
        rl_exec_error(c->x, RL_SQLSTATE_INVALID_PARAMETER_VALUE, -1,
                      "argument list must have even number of elements");
        rl_error_hint(c->x->err, "The arguments of jsonb_build_object() must consist of "
                                 "alternating keys and values.");
        return -1;
    }
    for (size_t i = 0; i < n; i += 2)
        if (a[i].d.isnull)
            return rl_exec_error(c->x, RL_SQLSTATE_INVALID_PARAMETER_VALUE, -1,
                                 "argument %zu: key must not be null", i + 1);
    return to_jsonb_result(c, rl_fn_json_build_object(c, n, a, out, loc), out, loc);
}

/* ------------------------------------------------------- json_object */

/* The elements of a text[] in its text form, flattened, and how many
 * dimensions it has (0 empty, 1, 2 for {{a,b},{c,d}}, 3 for deeper);
 * *cols is the inner length of a 2-D array (-1 when the rows differ). */
typedef struct text_elems {
    rl_buf *v;   /* the elements' bytes, one after another */
    size_t *off; /* element i is v->data[off[i] .. off[i + 1]) */
    bool *null;
    size_t n, cap;
} text_elems;

static int elems_push(text_elems *e, const rl_buf *el, bool isnull)
{
    if (e->n + 2 > e->cap) {
        size_t cap = e->cap ? e->cap * 2 : 16;
        size_t *o = realloc(e->off, cap * sizeof *o);
        if (!o)
            return -1;
        e->off = o;
        bool *nl = realloc(e->null, cap * sizeof *nl);
        if (!nl)
            return -1;
        e->null = nl;
        e->cap = cap;
    }
    e->off[e->n] = e->v->len;
    e->null[e->n] = isnull;
    rl_buf_put(e->v, el->data ? el->data : (const uint8_t *)"", el->len);
    e->n++;
    e->off[e->n] = e->v->len;
    return e->v->failed ? -1 : 0;
}

static void elems_free(text_elems *e)
{
    free(e->off);
    free(e->null);
}

/* Read arr's elements into e; *ndims and *cols as above. */
static int read_text_array(const rl_value *arr, text_elems *e, int *ndims, long *cols)
{
    const char *p = (const char *)arr->d.v.s.p;
    size_t len = arr->d.v.s.len, i = 0;
    while (i < len && p[i] != '{') /* a "[1:2]=" prefix */
        i++;
    size_t j = i + 1;
    while (j < len && isspace((unsigned char)p[j]))
        j++;
    rl_buf el;
    rl_buf_init(&el, 0);
    bool isnull;
    int rc = 0;
    *cols = 0;
    if (j >= len || p[j] != '{') { /* one dimension */
        size_t pos = 0;
        while (rc == 0 && rl_array_next(p + i, len - i, &pos, &el, &isnull))
            rc = elems_push(e, &el, isnull);
        *ndims = e->n ? 1 : 0;
        rl_buf_free(&el);
        return rc;
    }
    /* rows {..} inside the outer braces, quotes respected */
    *ndims = 2;
    long width = -1;
    size_t k = j;
    while (rc == 0 && k < len && p[k] == '{') {
        size_t start = k, depth = 0;
        bool q = false;
        for (; k < len; k++) {
            if (q) {
                if (p[k] == '\\')
                    k++;
                else if (p[k] == '"')
                    q = false;
            } else if (p[k] == '"') {
                q = true;
            } else if (p[k] == '{') {
                depth++;
            } else if (p[k] == '}' && --depth == 0) {
                break;
            }
        }
        if (memchr(p + start + 1, '{', k > start ? k - start - 1 : 0))
            *ndims = 3;
        size_t pos = 0;
        long count = 0;
        while (rc == 0 && rl_array_next(p + start, k + 1 - start, &pos, &el, &isnull)) {
            rc = elems_push(e, &el, isnull);
            count++;
        }
        width = width < 0 || width == count ? count : -2;
        for (k++; k < len && (p[k] == ',' || isspace((unsigned char)p[k])); k++)
            ;
    }
    *cols = width;
    rl_buf_free(&el);
    return rc;
}

/* json_object(text[]) / json_object(keys text[], values text[]) and the
 * jsonb ones: { "k" : "v", ... } of pairs (a flat array, a two-column
 * array, or two arrays), NULL values as null; 2202E for a wrong shape,
 * 22004 for a NULL key. */
static int json_object_common(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, bool jsonb,
                              int loc)
{
    rl_buf kv, vv;
    rl_buf_init(&kv, 0);
    rl_buf_init(&vv, 0);
    text_elems k = {.v = &kv}, v = {.v = &vv};
    int kd, vd = 0, rc = -1;
    long kcols, vcols;
    if (read_text_array(&a[0], &k, &kd, &kcols) < 0 ||
        (n == 2 && read_text_array(&a[1], &v, &vd, &vcols) < 0)) {
        rc = rl_expr_oom(c);
        goto done;
    }
    size_t pairs;
    if (n == 2) {
        if (kd > 1 || kd != vd) {
            rl_exec_error(c->x, RL_SQLSTATE_ARRAY_SUBSCRIPT_ERROR, -1,
                          "wrong number of array subscripts");
            goto done;
        }
        if (k.n != v.n) {
            rl_exec_error(c->x, RL_SQLSTATE_ARRAY_SUBSCRIPT_ERROR, -1,
                          "mismatched array dimensions");
            goto done;
        }
        pairs = k.n;
    } else if (kd == 1 && k.n % 2) {
        rl_exec_error(c->x, RL_SQLSTATE_ARRAY_SUBSCRIPT_ERROR, -1,
                      "array must have even number of elements");
        goto done;
    } else if (kd == 2 && kcols != 2) {
        rl_exec_error(c->x, RL_SQLSTATE_ARRAY_SUBSCRIPT_ERROR, -1, "array must have two columns");
        goto done;
    } else if (kd > 2) {
        rl_exec_error(c->x, RL_SQLSTATE_ARRAY_SUBSCRIPT_ERROR, -1,
                      "wrong number of array subscripts");
        goto done;
    } else {
        pairs = k.n / 2;
    }
    rl_buf b;
    rl_buf_init(&b, 0);
    rl_buf_put_u8(&b, '{');
    for (size_t i = 0; i < pairs; i++) {
        text_elems *ve = n == 2 ? &v : &k;
        size_t ki = n == 2 ? i : 2 * i, vi = n == 2 ? i : 2 * i + 1;
        if (k.null[ki]) {
            rl_buf_free(&b);
            rl_exec_error(c->x, RL_SQLSTATE_NULL_VALUE_NOT_ALLOWED, -1,
                          "null value not allowed for object key");
            goto done;
        }
        if (i)
            rl_buf_put_str(&b, ", ");
        rl_json_put_string(&b, kv.data + k.off[ki], k.off[ki + 1] - k.off[ki]);
        rl_buf_put_str(&b, " : ");
        if (ve->null[vi])
            rl_buf_put_str(&b, "null");
        else
            rl_json_put_string(&b, ve->v->data + ve->off[vi], ve->off[vi + 1] - ve->off[vi]);
    }
    rl_buf_put_u8(&b, '}');
    rc = rl_val_buf_copy(c, out, RL_OID_JSON, &b);
    if (rc == 0 && jsonb)
        rc = to_jsonb_result(c, rc, out, loc);
done:
    elems_free(&k);
    elems_free(&v);
    rl_buf_free(&kv);
    rl_buf_free(&vv);
    return rc;
}

int rl_fn_json_object(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return json_object_common(c, n, a, out, false, loc);
}

int rl_fn_jsonb_object(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return json_object_common(c, n, a, out, true, loc);
}

int rl_jsonb_agg(rl_expr_ctx *c, const rl_value *vals, size_t n, rl_value *out, int loc)
{
    return to_jsonb_result(c, rl_json_agg(c, vals, n, out, loc), out, loc);
}

/* json_object_agg(k, v) / jsonb_object_agg: { "k" : v, ... } (jsonb:
 * normalised); NULL for no rows; a NULL name is an error. */
int rl_json_object_agg(rl_expr_ctx *c, const rl_value *keys, const rl_value *vals, size_t n,
                       bool jsonb, rl_value *out, int loc)
{
    if (n == 0) {
        rl_val_null(out, jsonb ? RL_OID_JSONB : RL_OID_JSON);
        return 0;
    }
    rl_buf b;
    rl_buf_init(&b, 0);
    rl_buf_put_str(&b, "{ ");
    for (size_t i = 0; i < n; i++) {
        if (keys[i].d.isnull) {
            rl_buf_free(&b);
            return rl_exec_error(c->x, RL_SQLSTATE_INVALID_PARAMETER_VALUE, -1,
                                 "field name must not be null");
        }
        if (i)
            rl_buf_put_str(&b, ", ");
        put_json_key(&b, &keys[i]);
        rl_buf_put_str(&b, " : ");
        if (put_json_value(c, &b, &vals[i], loc) < 0) {
            rl_buf_free(&b);
            return -1;
        }
    }
    rl_buf_put_str(&b, " }");
    int rc = put_json_result(c, out, &b);
    return jsonb ? to_jsonb_result(c, rc, out, loc) : rc;
}

int rl_fn_jsonb_strip_nulls(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return rl_jsonb_make(c, a[0].d.v.s.p, a[0].d.v.s.len, true, out, loc);
}

/* json_strip_nulls: the json written again without blanks (PostgreSQL
 * re-emits its tokens), object members whose value is null left out
 * (nulls in arrays stay), strings unescaped and escaped again as
 * escape_json writes them, numbers as written, duplicate keys kept. */
typedef struct json_strip {
    const uint8_t *base;
    rl_buf *out;
    bool object, first;
} json_strip;

static void strip_value(rl_buf *out, const uint8_t *p, size_t n);
static bool is_container(uint8_t k);

static bool strip_member(void *ctx, const rl_buf *key, size_t vs, size_t ve)
{
    json_strip *st = ctx;
    const uint8_t *v = st->base + vs;
    size_t vn = ve - vs;
    if (st->object && rl_json_kind(v, vn) == 'n')
        return true;
    if (!st->first)
        rl_buf_put_u8(st->out, ',');
    st->first = false;
    if (st->object) {
        rl_json_put_string(st->out, key && key->data ? key->data : (const uint8_t *)"",
                           key ? key->len : 0);
        rl_buf_put_u8(st->out, ':');
    }
    strip_value(st->out, v, vn);
    return true;
}

static void strip_value(rl_buf *out, const uint8_t *p, size_t n)
{
    while (n && (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r'))
        p++, n--;
    while (n && (p[n - 1] == ' ' || p[n - 1] == '\t' || p[n - 1] == '\n' || p[n - 1] == '\r'))
        n--;
    uint8_t k = rl_json_kind(p, n);
    if (is_container(k)) {
        json_strip st = {p, out, k == '{', true};
        rl_buf_put_u8(out, k);
        rl_json_each_member(p, n, strip_member, &st);
        rl_buf_put_u8(out, k == '{' ? '}' : ']');
        return;
    }
    if (k == '"') {
        rl_buf s;
        rl_buf_init(&s, 0);
        (void)rl_json_string_decode(p, n, &s);
        rl_json_put_string(out, s.data ? s.data : (const uint8_t *)"", s.len);
        rl_buf_free(&s);
        return;
    }
    rl_buf_put(out, p, n);
}

int rl_fn_json_strip_nulls(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    rl_buf b;
    rl_buf_init(&b, 0);
    strip_value(&b, a[0].d.v.s.p, a[0].d.v.s.len);
    if (b.failed) {
        rl_buf_free(&b);
        return rl_expr_oom(c);
    }
    return rl_val_buf_copy(c, out, RL_OID_JSON, &b);
}

/* jsonb_pretty: four blanks a level, each member on its own line. */
typedef struct jb_pretty {
    rl_expr_ctx *c;
    const uint8_t *base;
    rl_buf *out;
    int level, rc;
    bool first;
} jb_pretty;

static int pretty_value(jb_pretty *pp, const uint8_t *p, size_t n);

static void pretty_indent(rl_buf *b, int level)
{
    for (int i = 0; i < level; i++)
        rl_buf_put_str(b, "    ");
}

static bool pretty_member(void *ctx, const rl_buf *key, size_t vs, size_t ve)
{
    jb_pretty *pp = ctx;
    rl_buf_put_str(pp->out, pp->first ? "\n" : ",\n");
    pp->first = false;
    pretty_indent(pp->out, pp->level);
    if (key) {
        rl_json_put_string(pp->out, key->data ? key->data : (const uint8_t *)"", key->len);
        rl_buf_put_str(pp->out, ": ");
    }
    jb_pretty sub = {pp->c, pp->base + vs, pp->out, pp->level, 0, true};
    pp->rc = pretty_value(&sub, pp->base + vs, ve - vs);
    return pp->rc == 0;
}

static int pretty_value(jb_pretty *pp, const uint8_t *p, size_t n)
{
    if (rl_exec_check_stack(pp->c->x) < 0)
        return -1;
    uint8_t k = rl_json_kind(p, n);
    if (k != '{' && k != '[') {
        rl_buf_put(pp->out, p, n);
        return 0;
    }
    rl_buf_put_u8(pp->out, k);
    jb_pretty sub = {pp->c, p, pp->out, pp->level + 1, 0, true};
    rl_json_each_member(p, n, pretty_member, &sub);
    if (sub.rc < 0)
        return -1;
    rl_buf_put_u8(pp->out, '\n');
    pretty_indent(pp->out, pp->level);
    rl_buf_put_u8(pp->out, k == '{' ? '}' : ']');
    return 0;
}

int rl_fn_jsonb_pretty(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    rl_buf b;
    rl_buf_init(&b, 0);
    jb_pretty pp = {c, a[0].d.v.s.p, &b, 0, 0, true};
    if (pretty_value(&pp, a[0].d.v.s.p, a[0].d.v.s.len) < 0) {
        rl_buf_free(&b);
        return -1;
    }
    if (b.failed) {
        rl_buf_free(&b);
        return rl_expr_oom(c);
    }
    return rl_val_buf_copy(c, out, RL_OID_TEXT, &b);
}

/* ------------------------------------------------ containment, existence */

/* The spans of a container's members (keys for objects), in order. */
typedef struct jb_span {
    const uint8_t *p;
    size_t n;
    rl_buf key;
} jb_span;

typedef struct jb_list {
    const uint8_t *base;
    jb_span *v;
    size_t n, cap;
    bool failed;
} jb_list;

static bool list_member(void *ctx, const rl_buf *key, size_t vs, size_t ve)
{
    jb_list *l = ctx;
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 8;
        jb_span *nv = realloc(l->v, cap * sizeof *nv);
        if (!nv) {
            l->failed = true;
            return false;
        }
        l->v = nv;
        l->cap = cap;
    }
    jb_span *s = &l->v[l->n++];
    s->p = l->base + vs;
    s->n = ve - vs;
    rl_buf_init(&s->key, 0);
    if (key)
        rl_buf_put(&s->key, key->data, key->len);
    return true;
}

static void list_free(jb_list *l)
{
    for (size_t i = 0; i < l->n; i++)
        rl_buf_free(&l->v[i].key);
    free(l->v);
}

static bool list_of(const uint8_t *p, size_t n, jb_list *l)
{
    *l = (jb_list){.base = p};
    rl_json_each_member(p, n, list_member, l);
    return !l->failed;
}

static bool is_container(uint8_t k)
{
    return k == '{' || k == '[';
}

/* A number's canonical text without trailing fraction zeros: numeric
 * equality of two numeric_out texts. */
static size_t number_len(const uint8_t *p, size_t n)
{
    if (!memchr(p, '.', n))
        return n;
    while (n && p[n - 1] == '0')
        n--;
    if (n && p[n - 1] == '.')
        n--;
    return n;
}

/* Equal canonical scalars (strings by their escaped bytes, which are the
 * same for the same string; numbers numerically). */
static bool scalar_equal(const uint8_t *a, size_t an, const uint8_t *b, size_t bn)
{
    uint8_t ka = rl_json_kind(a, an), kb = rl_json_kind(b, bn);
    bool na = ka == '-' || isdigit(ka), nb = kb == '-' || isdigit(kb);
    if (na && nb) {
        an = number_len(a, an);
        bn = number_len(b, bn);
    }
    return an == bn && memcmp(a, b, an) == 0;
}

/* Does a contain b (JsonbDeepContains, both canonical, neither a top-level
 * scalar)? -1 on error. */
static int jb_contains(rl_expr_ctx *c, const uint8_t *a, size_t an, const uint8_t *b, size_t bn)
{
    if (rl_exec_check_stack(c->x) < 0)
        return -1;
    uint8_t ka = rl_json_kind(a, an), kb = rl_json_kind(b, bn);
    if (ka != kb)
        return 0;
    jb_list la, lb;
    bool ok_a = list_of(a, an, &la), ok_b = list_of(b, bn, &lb);
    int res = 1;
    if (!ok_a || !ok_b)
        res = rl_expr_oom(c);
    for (size_t i = 0; res == 1 && i < lb.n; i++) {
        const jb_span *r = &lb.v[i];
        uint8_t kr = rl_json_kind(r->p, r->n);
        bool hit = false;
        for (size_t j = 0; !hit && res == 1 && j < la.n; j++) {
            const jb_span *l = &la.v[j];
            if (ka == '{' && (l->key.len != r->key.len ||
                              (l->key.len && memcmp(l->key.data, r->key.data, l->key.len))))
                continue;
            uint8_t kl = rl_json_kind(l->p, l->n);
            if (is_container(kr)) {
                int sub = kl == kr ? jb_contains(c, l->p, l->n, r->p, r->n) : 0;
                if (sub < 0)
                    res = -1;
                hit = sub == 1;
            } else {
                hit = !is_container(kl) && scalar_equal(l->p, l->n, r->p, r->n);
            }
            if (ka == '{' && !hit)
                break; /* the one member of that name does not match */
        }
        if (res == 1 && !hit)
            res = 0;
    }
    list_free(&la);
    list_free(&lb);
    return res;
}

/* a @> b on jsonb values (neither NULL); a top-level scalar is an array
 * of one that only a scalar or an array's scalar element contains. */
int rl_jsonb_contains(rl_expr_ctx *c, const rl_value *a, const rl_value *b, bool *out)
{
    const uint8_t *ap = a->d.v.s.p, *bp = b->d.v.s.p;
    size_t an = a->d.v.s.len, bn = b->d.v.s.len;
    uint8_t ka = rl_json_kind(ap, an), kb = rl_json_kind(bp, bn);
    int r;
    if (!is_container(kb)) {
        if (!is_container(ka)) {
            r = scalar_equal(ap, an, bp, bn);
        } else if (ka == '[') {
            jb_list l;
            r = list_of(ap, an, &l) ? 0 : rl_expr_oom(c);
            for (size_t i = 0; r == 0 && i < l.n; i++)
                r = !is_container(rl_json_kind(l.v[i].p, l.v[i].n)) &&
                    scalar_equal(l.v[i].p, l.v[i].n, bp, bn);
            list_free(&l);
        } else {
            r = 0;
        }
    } else if (!is_container(ka)) {
        r = 0;
    } else {
        r = jb_contains(c, ap, an, bp, bn);
    }
    if (r < 0)
        return -1;
    *out = r == 1;
    return 0;
}

/* j ? key: a top-level key, or a string element of an array (or the
 * string a scalar is). */
bool rl_jsonb_exists(const rl_value *j, const uint8_t *key, size_t keylen)
{
    const uint8_t *p = j->d.v.s.p;
    size_t n = j->d.v.s.len;
    uint8_t k = rl_json_kind(p, n);
    if (k == '{') {
        member_find f = {.key = key, .keylen = keylen};
        rl_json_each_member(p, n, find_member, &f);
        return f.found;
    }
    rl_buf s;
    rl_buf_init(&s, 0);
    bool found = false;
    if (k == '"') {
        (void)rl_json_string_decode(p, n, &s);
        found = s.len == keylen && (keylen == 0 || memcmp(s.data, key, keylen) == 0);
    } else if (k == '[') {
        jb_list l;
        if (list_of(p, n, &l))
            for (size_t i = 0; !found && i < l.n; i++) {
                if (rl_json_kind(l.v[i].p, l.v[i].n) != '"')
                    continue;
                rl_buf_reset(&s);
                (void)rl_json_string_decode(l.v[i].p, l.v[i].n, &s);
                found = s.len == keylen && (keylen == 0 || memcmp(s.data, key, keylen) == 0);
            }
        list_free(&l);
    }
    rl_buf_free(&s);
    return found;
}

/* ------------------------------------------------ set-returning functions */

static const struct json_srf {
    const char *name;
    uint32_t arg;  /* json or jsonb */
    uint8_t what;  /* 'e' each, 'a' array elements, 'k' object keys */
    bool as_text;
} json_srfs[] = {
    {"json_array_elements", RL_OID_JSON, 'a', false},
    {"json_array_elements_text", RL_OID_JSON, 'a', true},
    {"json_each", RL_OID_JSON, 'e', false},
    {"json_each_text", RL_OID_JSON, 'e', true},
    {"json_object_keys", RL_OID_JSON, 'k', true},
    {"jsonb_array_elements", RL_OID_JSONB, 'a', false},
    {"jsonb_array_elements_text", RL_OID_JSONB, 'a', true},
    {"jsonb_each", RL_OID_JSONB, 'e', false},
    {"jsonb_each_text", RL_OID_JSONB, 'e', true},
    {"jsonb_object_keys", RL_OID_JSONB, 'k', true},
};

static const struct json_srf *find_srf(const char *name)
{
    for (size_t i = 0; name && i < sizeof json_srfs / sizeof json_srfs[0]; i++)
        if (strcmp(json_srfs[i].name, name) == 0)
            return &json_srfs[i];
    return NULL;
}

bool rl_json_is_srf(const char *name)
{
    return find_srf(name) != NULL;
}

size_t rl_json_srf_shape(const char *name, const char **names, uint32_t *types)
{
    const struct json_srf *s = find_srf(name);
    uint32_t vt = s->as_text ? RL_OID_TEXT : s->arg;
    switch (s->what) {
    case 'e':
        names[0] = "key", types[0] = RL_OID_TEXT;
        names[1] = "value", types[1] = vt;
        return 2;
    case 'a': names[0] = "value", types[0] = vt; return 1;
    default: names[0] = s->name, types[0] = RL_OID_TEXT; return 1;
    }
}

/* The one argument of a json function taking json or jsonb (`want`): an
 * unknown literal read as that type, any other type 42883 as PostgreSQL's
 * resolution says it (sql_func.c's rl_func_no_function writes the same,
 * but sql_func.c calls into this file, so the layer order keeps it out of
 * reach here). */
static int json_fn_arg(rl_expr_ctx *c, const char *name, uint32_t want, rl_value *arg, int loc)
{
    if (arg->oid == RL_OID_UNKNOWN)
        return rl_value_coerce(c, arg, want, -1, false, arg, loc);
    if (arg->oid == want)
        return 0;
    rl_exec_error(c->x, RL_SQLSTATE_UNDEFINED_FUNCTION, loc, "function %s(%s) does not exist", name,
                  rl_oid_type_name(arg->oid));
    rl_error_hint(c->x->err, "No function matches the given name and argument types. You might "
                             "need to add explicit type casts.");
    return -1;
}

int rl_json_srf_arg(rl_expr_ctx *c, const char *name, rl_value *arg, int loc)
{
    return json_fn_arg(c, name, find_srf(name)->arg, arg, loc);
}

typedef struct srf_walk {
    rl_expr_ctx *c;
    const struct json_srf *s;
    const uint8_t *base;
    uint32_t oid;
    rl_rowset *rs;
    int rc;
} srf_walk;

static bool srf_member(void *ctx, const rl_buf *key, size_t vs, size_t ve)
{
    srf_walk *w = ctx;
    rl_value row[2];
    size_t k = 0;
    if (key) {
        if ((w->rc = rl_val_str_copy(w->c, &row[k++], RL_OID_TEXT,
                                     key->data ? (const char *)key->data : "", key->len)) < 0)
            return false;
    }
    if (w->s->what != 'k') {
        rl_val_null(&row[k], w->s->as_text ? RL_OID_TEXT : w->oid);
        if ((w->rc = access_result(w->c, w->oid, w->base + vs, ve - vs, w->s->as_text,
                                   &row[k])) < 0)
            return false;
    }
    w->rc = rl_rowset_add(w->rs, row, NULL, w->c->x->err);
    return w->rc == 0;
}

int rl_json_srf_rows(rl_expr_ctx *c, const char *name, const rl_value *j, rl_rowset *rs)
{
    if (j->d.isnull)
        return 0;
    const struct json_srf *s = find_srf(name);
    uint8_t k = rl_json_kind(j->d.v.s.p, j->d.v.s.len);
    const char *err = NULL;
    bool jb = s->arg == RL_OID_JSONB;
    char msg[96] = "";
    if (s->what == 'a' && k != '[') {
        if (jb)
            err = k == '{' ? "cannot extract elements from an object"
                           : "cannot extract elements from a scalar";
        else
            snprintf(msg, sizeof msg, "cannot call %s on a %s", name,
                     k == '{' ? "non-array" : "scalar");
    } else if (s->what == 'e' && k != '{') {
        if (jb)
            snprintf(msg, sizeof msg, "cannot call %s on a non-object", name);
        else
            err = k == '[' ? "cannot deconstruct an array as an object"
                           : "cannot deconstruct a scalar";
    } else if (s->what == 'k' && k != '{') {
        snprintf(msg, sizeof msg, "cannot call %s on %s", name,
                 k == '[' ? "an array" : "a scalar");
    }
    if (!err && msg[0])
        err = msg;
    if (err)
        return rl_exec_error(c->x, RL_SQLSTATE_INVALID_PARAMETER_VALUE, -1, "%s", err);
    if (!jb && rl_json_escapes_check(c, j, -1) < 0)
        return -1;
    srf_walk w = {c, s, j->d.v.s.p, s->arg, rs, 0};
    rl_json_each_member(j->d.v.s.p, j->d.v.s.len, srf_member, &w);
    return w.rc;
}

/* ------------------------------------------------------------ ordering */

/* compareJsonbContainers' type order: null < string < number < boolean <
 * array < object (a top-level scalar being an array of one, "raw"). */
static int jb_rank(uint8_t k)
{
    switch (k) {
    case 'n': return 0;
    case '"': return 1;
    case 't': case 'f': return 3;
    case '[': return 16;
    case '{': return 17;
    default: return 2;
    }
}

static int jb_scalar_cmp(rl_expr_ctx *c, const uint8_t *a, size_t an, const uint8_t *b,
                         size_t bn, int *res)
{
    uint8_t k = rl_json_kind(a, an);
    if (k == 'n') {
        *res = 0;
    } else if (k == 't' || k == 'f') {
        uint8_t kb = rl_json_kind(b, bn);
        *res = k == kb ? 0 : k == 't' ? 1 : -1;
    } else if (k == '"') { /* by their bytes, the shorter first on a tie */
        rl_buf x, y;
        rl_buf_init(&x, 0);
        rl_buf_init(&y, 0);
        (void)rl_json_string_decode(a, an, &x);
        (void)rl_json_string_decode(b, bn, &y);
        size_t m = x.len < y.len ? x.len : y.len;
        int r = m ? memcmp(x.data, y.data, m) : 0;
        *res = r ? (r < 0 ? -1 : 1) : x.len == y.len ? 0 : x.len < y.len ? -1 : 1;
        rl_buf_free(&x);
        rl_buf_free(&y);
    } else {
        rl_value x, y;
        if (rl_text_to_value(c, (const char *)a, an, RL_OID_NUMERIC, -1, false, &x, -1) < 0 ||
            rl_text_to_value(c, (const char *)b, bn, RL_OID_NUMERIC, -1, false, &y, -1) < 0)
            return -1;
        *res = rl_datum_compare(RL_T_NUMERIC, &x.d, &y.d);
    }
    return 0;
}

/* a against b (canonical spans); top: a top-level value, where a scalar
 * is a raw-scalar array. */
static int jb_cmp(rl_expr_ctx *c, const uint8_t *a, size_t an, const uint8_t *b, size_t bn,
                  bool top, int *res)
{
    if (rl_exec_check_stack(c->x) < 0)
        return -1;
    uint8_t ka = rl_json_kind(a, an), kb = rl_json_kind(b, bn);
    bool rawa = top && !is_container(ka), rawb = top && !is_container(kb);
    int ra = rawa ? 16 : jb_rank(ka), rb = rawb ? 16 : jb_rank(kb);
    if (ra != rb) {
        *res = ra > rb ? 1 : -1;
        return 0;
    }
    if (rawa && rawb)
        return jb_cmp(c, a, an, b, bn, false, res);
    if (!rawa && !is_container(ka))
        return jb_scalar_cmp(c, a, an, b, bn, res);
    jb_list la = {0}, lb = {0};
    size_t na = 1, nb = 1;
    int rc = 0;
    if (!rawa && !list_of(a, an, &la))
        rc = rl_expr_oom(c);
    if (!rawb && rc == 0 && !list_of(b, bn, &lb))
        rc = rl_expr_oom(c);
    if (!rawa)
        na = la.n;
    if (!rawb)
        nb = lb.n;
    *res = 0;
    if (rawa != rawb)
        *res = rawa ? -1 : 1;
    if (na != nb)
        *res = na > nb ? 1 : -1;
    for (size_t i = 0; rc == 0 && *res == 0 && i < na; i++) {
        const uint8_t *ea = rawa ? a : la.v[i].p, *eb = rawb ? b : lb.v[i].p;
        size_t ean = rawa ? an : la.v[i].n, ebn = rawb ? bn : lb.v[i].n;
        if (ka == '{') { /* the key, then its value */
            const rl_buf *x = &la.v[i].key, *y = &lb.v[i].key;
            size_t m = x->len < y->len ? x->len : y->len;
            int r = m ? memcmp(x->data, y->data, m) : 0;
            *res = r ? (r < 0 ? -1 : 1) : x->len == y->len ? 0 : x->len < y->len ? -1 : 1;
            if (*res)
                break;
        }
        rc = jb_cmp(c, ea, ean, eb, ebn, false, res);
    }
    list_free(&la);
    list_free(&lb);
    return rc;
}

int rl_jsonb_cmp(rl_expr_ctx *c, const rl_value *a, const rl_value *b, int *res)
{
    return jb_cmp(c, a->d.v.s.p, a->d.v.s.len, b->d.v.s.p, b->d.v.s.len, true, res);
}

/* ------------------------------------------------------------- jsonb || */

/* a || b of jsonb values: two objects merged (b's members win), else one
 * array of a's elements (a itself when not an array) then b's. */
int rl_jsonb_concat(rl_expr_ctx *c, const rl_value *a, const rl_value *b, rl_value *out, int loc)
{
    if (a->d.isnull || b->d.isnull) {
        rl_val_null(out, RL_OID_JSONB);
        return 0;
    }
    uint8_t ka = rl_json_kind(a->d.v.s.p, a->d.v.s.len);
    uint8_t kb = rl_json_kind(b->d.v.s.p, b->d.v.s.len);
    bool objects = ka == '{' && kb == '{';
    rl_buf t;
    rl_buf_init(&t, 0);
    rl_buf_put_u8(&t, objects ? '{' : '[');
    const rl_value *v[2] = {a, b};
    bool any = false;
    for (int i = 0; i < 2; i++) {
        const uint8_t *p = v[i]->d.v.s.p;
        size_t n = v[i]->d.v.s.len;
        uint8_t k = i ? kb : ka;
        if (k == '[' || objects) { /* the inside of the brackets */
            p++;
            n -= 2;
        }
        if (!n)
            continue;
        if (any)
            rl_buf_put_str(&t, ", ");
        rl_buf_put(&t, p, n);
        any = true;
    }
    rl_buf_put_u8(&t, objects ? '}' : ']');
    if (t.failed) {
        rl_buf_free(&t);
        return rl_expr_oom(c);
    }
    int rc = rl_jsonb_make(c, t.data, t.len, false, out, loc);
    rl_buf_free(&t);
    return rc;
}

/* ---------------------------------------------------------------- jsonb - */

static bool key_in(const rl_buf *k, const rl_value *keys, bool one)
{
    if (one)
        return k->len == keys->d.v.s.len &&
               (k->len == 0 || memcmp(k->data, keys->d.v.s.p, k->len) == 0);
    rl_buf el;
    rl_buf_init(&el, 0);
    size_t pos = 0;
    bool isnull, hit = false;
    while (!hit && rl_elem_next(keys, &pos, &el, &isnull))
        hit = !isnull && el.len == k->len && (k->len == 0 || memcmp(el.data, k->data, k->len) == 0);
    rl_buf_free(&el);
    return hit;
}

/* a - key / a - keys (text[]) / a - index of jsonb a (PostgreSQL's
 * jsonb_delete, jsonb_delete_array, jsonb_delete_idx). */
int rl_jsonb_delete(rl_expr_ctx *c, const rl_value *a, const rl_value *b, rl_value *out)
{
    rl_val_null(out, RL_OID_JSONB);
    if (a->d.isnull || b->d.isnull)
        return 0;
    const uint8_t *p = a->d.v.s.p;
    size_t n = a->d.v.s.len;
    uint8_t k = rl_json_kind(p, n);
    bool by_index = rl_oid_is_intlike(b->oid), one = !by_index && !rl_elem_oid_of(b->oid);
    if (!is_container(k))
        return rl_exec_error(c->x, RL_SQLSTATE_INVALID_PARAMETER_VALUE, -1,
                             "cannot delete from scalar");
    if (by_index && k == '{')
        return rl_exec_error(c->x, RL_SQLSTATE_INVALID_PARAMETER_VALUE, -1,
                             "cannot delete from object using integer index");
    jb_list l;
    if (!list_of(p, n, &l)) {
        list_free(&l);
        return rl_expr_oom(c);
    }
    int64_t drop = -1;
    if (by_index) {
        drop = b->d.v.i < 0 ? (int64_t)l.n + b->d.v.i : b->d.v.i;
        if (drop < 0 || drop >= (int64_t)l.n)
            drop = -1;
    }
    rl_buf t, s;
    rl_buf_init(&t, 0);
    rl_buf_init(&s, 0);
    rl_buf_put_u8(&t, k);
    bool first = true;
    for (size_t i = 0; i < l.n; i++) {
        if (by_index && (int64_t)i == drop)
            continue;
        if (!by_index && k == '{' && key_in(&l.v[i].key, b, one))
            continue;
        if (!by_index && k == '[' && rl_json_kind(l.v[i].p, l.v[i].n) == '"') {
            rl_buf_reset(&s);
            (void)rl_json_string_decode(l.v[i].p, l.v[i].n, &s);
            if (key_in(&s, b, one))
                continue;
        }
        if (!first)
            rl_buf_put_str(&t, ", ");
        first = false;
        if (k == '{') {
            rl_json_put_string(&t, l.v[i].key.data ? l.v[i].key.data : (const uint8_t *)"",
                               l.v[i].key.len);
            rl_buf_put_str(&t, ": ");
        }
        rl_buf_put(&t, l.v[i].p, l.v[i].n);
    }
    rl_buf_put_u8(&t, k == '{' ? '}' : ']');
    list_free(&l);
    rl_buf_free(&s);
    return rl_val_buf_copy(c, out, RL_OID_JSONB, &t);
}

/* ------------------------------------- jsonb_set, jsonb_insert, #- (paths) */

/* What a path walk does at its last step (PostgreSQL's setPath op types). */
typedef enum jb_path_op {
    JB_PATH_REPLACE,       /* jsonb_set(..., false): replace what is there */
    JB_PATH_CREATE,        /* jsonb_set(..., true): replace, or add when missing */
    JB_PATH_INSERT_BEFORE, /* jsonb_insert(..., false) */
    JB_PATH_INSERT_AFTER,  /* jsonb_insert(..., true) */
    JB_PATH_DELETE         /* #- */
} jb_path_op;

typedef struct jb_path {
    rl_expr_ctx *c;
    rl_buf *elems; /* the path's elements */
    bool *nulls;
    size_t n;
    const rl_value *newval; /* jsonb; NULL for a delete */
    jb_path_op op;
} jb_path;

static bool creates(jb_path_op op) { return op == JB_PATH_CREATE || op == JB_PATH_INSERT_BEFORE || op == JB_PATH_INSERT_AFTER; }

static void put_newval(const jb_path *w, rl_buf *t)
{
    rl_buf_put(t, w->newval->d.v.s.p, w->newval->d.v.s.len);
}

static void put_sep(rl_buf *t, bool *first)
{
    if (!*first)
        rl_buf_put_str(t, ", ");
    *first = false;
}

static int path_walk(const jb_path *w, const uint8_t *p, size_t n, size_t level, rl_buf *t);

static int path_object(const jb_path *w, const jb_list *l, size_t level, rl_buf *t)
{
    const rl_buf *key = &w->elems[level];
    bool last = level == w->n - 1, done = false, first = true;
    rl_buf_put_u8(t, '{');
    for (size_t i = 0; i < l->n; i++) {
        const jb_span *m = &l->v[i];
        bool hit = !done && m->key.len == key->len &&
                   (key->len == 0 || memcmp(m->key.data, key->data, key->len) == 0);
        if (hit && last && (w->op == JB_PATH_INSERT_BEFORE || w->op == JB_PATH_INSERT_AFTER)) {
            rl_exec_error(w->c->x, RL_SQLSTATE_INVALID_PARAMETER_VALUE, -1,
                          "cannot replace existing key");
            rl_error_hint(w->c->x->err, "Try using the function jsonb_set to replace key value.");
            return -1;
        }
        done |= hit;
        if (hit && last && w->op == JB_PATH_DELETE)
            continue;
        put_sep(t, &first);
        rl_json_put_string(t, m->key.data ? m->key.data : (const uint8_t *)"", m->key.len);
        rl_buf_put_str(t, ": ");
        if (!hit)
            rl_buf_put(t, m->p, m->n);
        else if (last)
            put_newval(w, t);
        else if (path_walk(w, m->p, m->n, level + 1, t) < 0)
            return -1;
    }
    if (!done && last && creates(w->op)) { /* a missing key at the end: added */
        put_sep(t, &first);
        rl_json_put_string(t, key->data ? key->data : (const uint8_t *)"", key->len);
        rl_buf_put_str(t, ": ");
        put_newval(w, t);
    }
    rl_buf_put_u8(t, '}');
    return 0;
}

static int path_array(const jb_path *w, const jb_list *l, size_t level, rl_buf *t)
{
    const rl_buf *el = &w->elems[level];
    char s[64];
    size_t len = el->len < sizeof s - 1 ? el->len : sizeof s - 1;
    memcpy(s, el->data ? (const char *)el->data : "", len);
    s[len] = '\0';
    char *end;
    errno = 0;
    long v = strtol(s, &end, 10);
    if (end == s || *end != '\0' || errno != 0 || v < INT32_MIN || v > INT32_MAX ||
        el->len >= sizeof s)
        return rl_exec_error(w->c->x, RL_SQLSTATE_INVALID_TEXT_REPRESENTATION, -1,
                             "path element at position %zu is not an integer: \"%.*s\"", level + 1,
                             (int)el->len, el->data ? (const char *)el->data : "");
    int64_t nelems = (int64_t)l->n, idx = v;
    bool before_start = false;
    if (idx < 0) {
        if (-idx > nelems)
            before_start = true;
        else
            idx += nelems;
    }
    bool last = level == w->n - 1, done = false, first = true;
    rl_buf_put_u8(t, '[');
    if ((before_start || nelems == 0) && last && creates(w->op)) {
        put_sep(t, &first);
        put_newval(w, t);
        done = true;
    }
    for (int64_t i = 0; i < nelems; i++) {
        const jb_span *m = &l->v[i];
        if (before_start || i != idx) {
            put_sep(t, &first);
            rl_buf_put(t, m->p, m->n);
            continue;
        }
        done = true;
        if (!last) {
            put_sep(t, &first);
            if (path_walk(w, m->p, m->n, level + 1, t) < 0)
                return -1;
            continue;
        }
        if (w->op == JB_PATH_INSERT_BEFORE) {
            put_sep(t, &first);
            put_newval(w, t);
        }
        if (w->op == JB_PATH_INSERT_BEFORE || w->op == JB_PATH_INSERT_AFTER) {
            put_sep(t, &first);
            rl_buf_put(t, m->p, m->n);
        }
        if (w->op != JB_PATH_INSERT_BEFORE && w->op != JB_PATH_DELETE) {
            put_sep(t, &first);
            put_newval(w, t);
        }
    }
    if (!done && last && creates(w->op)) { /* past the end: appended */
        put_sep(t, &first);
        put_newval(w, t);
    }
    rl_buf_put_u8(t, ']');
    return 0;
}

/* The value at p with the path's step `level` and those after applied: a
 * scalar, or a container the path does not go on into, is kept as is. */
static int path_walk(const jb_path *w, const uint8_t *p, size_t n, size_t level, rl_buf *t)
{
    uint8_t k = rl_json_kind(p, n);
    if (!is_container(k) || level >= w->n) {
        rl_buf_put(t, p, n);
        return 0;
    }
    if (w->nulls[level])
        return rl_exec_error(w->c->x, RL_SQLSTATE_NULL_VALUE_NOT_ALLOWED, -1,
                             "path element at position %zu is null", level + 1);
    jb_list l;
    if (!list_of(p, n, &l)) {
        list_free(&l);
        return rl_expr_oom(w->c);
    }
    int rc = k == '{' ? path_object(w, &l, level, t) : path_array(w, &l, level, t);
    list_free(&l);
    return rc;
}

/* jsonb_set / jsonb_insert / #-: the checks PostgreSQL makes before the
 * walk, the walk, and the result made canonical (keys sorted). */
static int path_apply(rl_expr_ctx *c, const rl_value *target, const rl_value *path,
                      const rl_value *newval, jb_path_op op, rl_value *out, int loc)
{
    const uint8_t *p = target->d.v.s.p;
    size_t n = target->d.v.s.len;
    if (!is_container(rl_json_kind(p, n)))
        return rl_exec_error(c->x, RL_SQLSTATE_INVALID_PARAMETER_VALUE, -1,
                             op == JB_PATH_DELETE ? "cannot delete path in scalar"
                                                  : "cannot set path in scalar");
    jb_path w = {.c = c, .newval = newval, .op = op};
    size_t cap = 0, pos = 0;
    rl_buf el;
    rl_buf_init(&el, 0);
    bool isnull, oom = false;
    while (!oom && rl_elem_next(path, &pos, &el, &isnull)) {
        if (w.n == cap) {
            size_t nc = cap ? 2 * cap : 8;
            rl_buf *ne = realloc(w.elems, nc * sizeof *ne);
            bool *nn = ne ? realloc(w.nulls, nc * sizeof *nn) : NULL;
            if (ne)
                w.elems = ne;
            if (nn)
                w.nulls = nn;
            oom = !ne || !nn;
            cap = oom ? cap : nc;
            if (oom)
                break;
        }
        rl_buf_init(&w.elems[w.n], 0);
        rl_buf_put(&w.elems[w.n], el.data, el.len);
        w.nulls[w.n++] = isnull;
    }
    rl_buf_free(&el);
    int rc;
    rl_buf t;
    rl_buf_init(&t, 0);
    if (oom) {
        rc = rl_expr_oom(c);
    } else if (w.n == 0) { /* an empty path changes nothing */
        *out = *target;
        rc = 0;
    } else if ((rc = path_walk(&w, p, n, 0, &t)) == 0) {
        rc = t.failed ? rl_expr_oom(c) : rl_jsonb_make(c, t.data, t.len, false, out, loc);
    }
    rl_buf_free(&t);
    for (size_t i = 0; i < w.n; i++)
        rl_buf_free(&w.elems[i]);
    free(w.elems);
    free(w.nulls);
    return rc;
}

int rl_fn_jsonb_set(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    bool create = n < 4 || a[3].d.v.b;
    /* an empty container stays as it is unless asked to create */
    const uint8_t *p = a[0].d.v.s.p;
    if (!create && a[0].d.v.s.len == 2 && is_container(p[0])) {
        *out = a[0];
        return 0;
    }
    return path_apply(c, &a[0], &a[1], &a[2], create ? JB_PATH_CREATE : JB_PATH_REPLACE, out,
                      loc);
}

int rl_fn_jsonb_insert(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    bool after = n > 3 && a[3].d.v.b;
    return path_apply(c, &a[0], &a[1], &a[2], after ? JB_PATH_INSERT_AFTER : JB_PATH_INSERT_BEFORE,
                      out, loc);
}

int rl_jsonb_delete_path(rl_expr_ctx *c, const rl_value *a, const rl_value *path, rl_value *out,
                         int loc)
{
    if (a->d.isnull || path->d.isnull) {
        rl_val_null(out, RL_OID_JSONB);
        return 0;
    }
    const uint8_t *p = a->d.v.s.p;
    if (a->d.v.s.len == 2 && is_container(p[0]) && is_container(rl_json_kind(p, 2))) {
        *out = *a; /* nothing to delete from */
        return 0;
    }
    return path_apply(c, a, path, NULL, JB_PATH_DELETE, out, loc);
}

/* ------------------------------------------ json(b)_to_record(set) */

static const struct json_record_fn {
    const char *name;
    uint32_t arg;
    bool set;
} json_record_fns[] = {
    {"json_to_record", RL_OID_JSON, false},
    {"json_to_recordset", RL_OID_JSON, true},
    {"jsonb_to_record", RL_OID_JSONB, false},
    {"jsonb_to_recordset", RL_OID_JSONB, true},
};

static const struct json_record_fn *find_record_fn(const char *name)
{
    for (size_t i = 0; name && i < sizeof json_record_fns / sizeof json_record_fns[0]; i++)
        if (strcmp(json_record_fns[i].name, name) == 0)
            return &json_record_fns[i];
    return NULL;
}

bool rl_json_is_record_fn(const char *name) { return find_record_fn(name) != NULL; }

int rl_json_record_arg(rl_expr_ctx *c, const char *name, rl_value *arg, int loc)
{
    return json_fn_arg(c, name, find_record_fn(name)->arg, arg, loc);
}

/* Append s[0..n) to b as array_out writes an element: quoted when empty,
 * NULL, or holding braces, commas, quotes, backslashes or blanks. */
static void put_array_elem(rl_buf *b, const uint8_t *s, size_t n)
{
    bool quote = n == 0 || (n == 4 && strncasecmp((const char *)s, "null", 4) == 0);
    for (size_t i = 0; i < n && !quote; i++)
        quote = strchr("{},\"\\", s[i]) != NULL || isspace(s[i]);
    if (!quote) {
        rl_buf_put(b, s, n);
        return;
    }
    rl_buf_put_u8(b, '"');
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '"' || s[i] == '\\')
            rl_buf_put_u8(b, '\\');
        rl_buf_put_u8(b, s[i]);
    }
    rl_buf_put_u8(b, '"');
}

/* rl_json_each_member over every member of the container p[0..n), which
 * parsed at input: fn's ctx and its wish to stop kept. The walker gives up
 * silently on a member nested past the C stack left; such a walk ends
 * short of the closing bracket: 54001 then, not a row missing values. */
typedef struct full_walk {
    rl_json_member_fn fn;
    void *ctx;
    size_t end; /* just past the last member seen (the bracket: none) */
    bool stopped;
} full_walk;

static bool full_member(void *ctx, const rl_buf *key, size_t vs, size_t ve)
{
    full_walk *w = ctx;
    w->end = ve;
    w->stopped = !w->fn(w->ctx, key, vs, ve);
    return !w->stopped;
}

static int each_member_all(rl_expr_ctx *c, const uint8_t *p, size_t n, rl_json_member_fn fn,
                           void *ctx)
{
    size_t i = 0;
    while (i < n && isspace(p[i]))
        i++;
    full_walk w = {fn, ctx, i + 1, false};
    rl_json_each_member(p, n, full_member, &w);
    if (w.stopped)
        return 0;
    for (i = w.end; i < n && isspace(p[i]); i++)
        ;
    if (i < n && (p[i] == ']' || p[i] == '}'))
        return 0;
    return rl_stack_depth_error(c->x->err);
}

/* populate_array's walk of a JSON array into an array column: the number
 * of dimensions once known (ndims 0: not yet: fixed by the first element
 * that is not an array, or an empty array, at its depth), each
 * dimension's length once known (dims, -1 before) and how many elements
 * the current sub-array of each has so far (sizes); the array's text
 * form in out, each leaf element checked by the element type's input as
 * it comes (PostgreSQL's order of errors). */
#define ARRAY_WALK_DEPTH 64 /* beyond PostgreSQL's 6: refused after the walk */
typedef struct array_walk {
    rl_expr_ctx *c;
    const char *key; /* the member's name, for the HINTs */
    uint32_t elem;
    int32_t typmod;
    int ndims;
    int dims[ARRAY_WALK_DEPTH], sizes[ARRAY_WALK_DEPTH];
    rl_buf *out;
    int loc;
} array_walk;

/* 22P02 "expected JSON array" where a value of depth ndim is not one. */
static int expected_array(array_walk *w, int ndim)
{
    rl_exec_error(w->c->x, RL_SQLSTATE_INVALID_TEXT_REPRESENTATION, -1, "expected JSON array");
    if (ndim <= 0) {
        rl_error_hint(w->c->x->err, "See the value of key \"%s\".", w->key);
        return -1;
    }
    char idx[ARRAY_WALK_DEPTH * 12] = "";
    size_t off = 0;
    for (int i = 0; i < ndim && off < sizeof idx; i++)
        off += (size_t)snprintf(idx + off, sizeof idx - off, "[%d]", w->sizes[i]);
    rl_error_hint(w->c->x->err, "See the array element %s of key \"%s\".", idx, w->key);
    return -1;
}

static int assign_ndims(array_walk *w, int ndims)
{
    assert(w->ndims == 0);
    if (ndims <= 0)
        return expected_array(w, ndims);
    if (ndims > ARRAY_WALK_DEPTH)
        return rl_exec_error(w->c->x, RL_SQLSTATE_PROGRAM_LIMIT_EXCEEDED, -1,
                             "number of array dimensions (%d) exceeds the maximum allowed (%d)",
                             ndims, 6);
    w->ndims = ndims;
    for (int i = 0; i < ndims; i++) {
        w->dims[i] = -1;
        w->sizes[i] = 0;
    }
    return 0;
}

/* A sub-array of depth ndim ended: its length must be its dimension's. */
static int check_dimension(array_walk *w, int ndim)
{
    assert(ndim >= 0 && ndim < w->ndims);
    if (w->dims[ndim] == -1)
        w->dims[ndim] = w->sizes[ndim];
    else if (w->dims[ndim] != w->sizes[ndim]) {
        rl_exec_error(w->c->x, RL_SQLSTATE_INVALID_TEXT_REPRESENTATION, -1,
                      "malformed JSON array");
        rl_error_detail(w->c->x->err, "Multidimensional arrays must have sub-arrays with "
                                      "matching dimensions.");
        return -1;
    }
    w->sizes[ndim] = 0;
    if (ndim > 0)
        w->sizes[ndim - 1]++;
    return 0;
}

/* A leaf element v[0..n): null NULL, a string its contents, any other
 * value its JSON text; checked by the element type's input. */
static int array_leaf(array_walk *w, const uint8_t *v, size_t n)
{
    uint8_t k = rl_json_kind(v, n);
    w->sizes[w->ndims - 1]++;
    if (k == 'n') {
        rl_buf_put_str(w->out, "NULL");
        return 0;
    }
    rl_buf s;
    rl_buf_init(&s, 0);
    if (k == '"')
        (void)rl_json_string_decode(v, n, &s);
    else
        rl_buf_put(&s, v, n);
    rl_buf_put_u8(&s, 0);
    int rc = s.failed ? rl_expr_oom(w->c) : 0;
    rl_value ev;
    if (rc == 0)
        rc = rl_text_to_value(w->c, (const char *)s.data, s.len - 1, w->elem, w->typmod, false,
                              &ev, w->loc);
    if (rc == 0 && w->elem == RL_OID_NUMERIC)
        rc = rl_apply_numeric_typmod(w->c, &ev, w->typmod);
    if (rc == 0)
        put_array_elem(w->out, s.data, s.len - 1);
    rl_buf_free(&s);
    return rc;
}

static int array_dim(array_walk *w, const uint8_t *p, size_t n, int ndim);

typedef struct dim_frame {
    array_walk *w;
    const uint8_t *base;
    int ndim;
    size_t count;
    int rc;
} dim_frame;

static bool first_elem(void *ctx, const rl_buf *key, size_t vs, size_t ve)
{
    dim_frame *f = ctx;
    f->count = rl_json_kind(f->base + vs, ve - vs) == '[' ? 2 : 1;
    return false;
}

static bool dim_elem(void *ctx, const rl_buf *key, size_t vs, size_t ve)
{
    dim_frame *f = ctx;
    array_walk *w = f->w;
    if (f->count++)
        rl_buf_put_u8(w->out, ',');
    if (w->ndims > 0 && f->ndim >= w->ndims)
        f->rc = array_leaf(w, f->base + vs, ve - vs);
    else if ((f->rc = array_dim(w, f->base + vs, ve - vs, f->ndim + 1)) == 0)
        f->rc = check_dimension(w, f->ndim);
    return f->rc == 0;
}

/* The array p[0..n) at depth ndim (from 1), as populate_array_dim_jsonb
 * walks it. */
static int array_dim(array_walk *w, const uint8_t *p, size_t n, int ndim)
{
    if (rl_json_kind(p, n) != '[')
        return expected_array(w, ndim - 1);
    if (rl_exec_check_stack(w->c->x) < 0)
        return -1;
    dim_frame f = {.w = w, .base = p, .ndim = ndim};
    /* count: 0 none, 1 a non-array, 2 an array */
    if (each_member_all(w->c, p, n, first_elem, &f) < 0)
        return -1;
    if (w->ndims == 0 && f.count != 2 && assign_ndims(w, ndim) < 0)
        return -1;
    f.count = 0;
    rl_buf_put_u8(w->out, '{');
    if (each_member_all(w->c, p, n, dim_elem, &f) < 0)
        return -1;
    rl_buf_put_u8(w->out, '}');
    return f.rc;
}

/* The array column value (its text form into b) of the JSON array v[0..n)
 * of member `key`: each dimension a level of nested arrays of equal
 * lengths, the leaves converted by the element type's input. */
static int json_array_text(rl_expr_ctx *c, const uint8_t *v, size_t n, uint32_t oid,
                           int32_t typmod, const char *key, rl_buf *b)
{
    array_walk *w = calloc(1, sizeof *w);
    if (!w)
        return rl_expr_oom(c);
    *w = (array_walk){.c = c, .key = key, .elem = rl_array_elem_oid(oid), .typmod = typmod,
                      .out = b, .loc = -1};
    int rc = array_dim(w, v, n, 1);
    if (rc == 0 && w->ndims > 6)
        rc = rl_exec_error(c->x, RL_SQLSTATE_PROGRAM_LIMIT_EXCEEDED, -1,
                           "number of array dimensions (%d) exceeds the maximum allowed (%d)",
                           w->ndims, 6);
    if (rc == 0 && w->ndims > 0)
        rc = check_dimension(w, 0);
    for (int i = 0; rc == 0 && i < w->ndims; i++)
        if (w->dims[i] == 0) { /* a dimension of length 0: the empty array */
            rl_buf_reset(b);
            rl_buf_put_str(b, "{}");
        }
    free(w);
    return rc;
}

/* One JSON value as a column of type oid (populate_record's rules): null
 * is NULL; json and jsonb take the value's text; strings their contents;
 * arrays of scalars make an array; other values their JSON text. */
static int json_to_column(rl_expr_ctx *c, const uint8_t *v, size_t n, uint32_t oid,
                          int32_t typmod, const char *key, rl_value *out, int loc)
{
    uint8_t k = rl_json_kind(v, n);
    if (k == 'n' || k == 0) {
        rl_val_null(out, oid);
        out->typmod = typmod;
        return 0;
    }
    if (oid == RL_OID_JSON || oid == RL_OID_JSONB)
        return rl_text_to_value(c, (const char *)v, n, oid, typmod, false, out, loc);
    if (rl_oid_is_composite(oid))
        return rl_exec_error(c->x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, loc,
                             "composite columns of json_to_record are not supported");
    rl_buf b;
    rl_buf_init(&b, 0);
    int rc;
    if (k == '"') {
        (void)rl_json_string_decode(v, n, &b);
    } else if (rl_array_elem_oid(oid) != 0) {
        if (json_array_text(c, v, n, oid, typmod, key, &b) < 0) {
            rl_buf_free(&b);
            return -1;
        }
    } else {
        rl_buf_put(&b, v, n);
    }
    if (b.failed) {
        rl_buf_free(&b);
        return rl_expr_oom(c);
    }
    /* the value may keep the text: give it the arena's copy */
    char *t = rl_arena_alloc(c->arena, b.len + 1);
    if (!t) {
        rl_buf_free(&b);
        return rl_expr_oom(c);
    }
    if (b.len)
        memcpy(t, b.data, b.len);
    t[b.len] = '\0';
    rc = rl_text_to_value(c, t, b.len, oid, typmod, false, out, loc);
    if (rc == 0 && oid == RL_OID_NUMERIC) /* numeric_in's typmod */
        rc = rl_apply_numeric_typmod(c, out, typmod);
    rl_buf_free(&b);
    return rc;
}

typedef struct rec_member {
    const char *name;
    size_t vs, ve;
    bool found;
} rec_member;

static bool find_last_member(void *ctx, const rl_buf *key, size_t vs, size_t ve)
{
    rec_member *m = ctx;
    size_t nl = strlen(m->name);
    if (key && key->len == nl && (nl == 0 || memcmp(key->data, m->name, nl) == 0)) {
        m->vs = vs;
        m->ve = ve;
        m->found = true; /* the last of a name wins, as populate_record's hash */
    }
    return true;
}

/* The fields an object becomes: json_to_record's column definition list
 * or json_populate_record's row type, n names and types, and the base
 * record's values kept where the object has no member of a field's name
 * (base NULL: such a field is NULL). */
typedef struct rec_shape {
    size_t n;
    const char **names;
    uint32_t *oids;
    int32_t *typmods;
    const rl_value *base;
} rec_shape;

/* The fields of the object p[0..n) (p NULL: none) into row[0..sh->n):
 * each the member of its name, as populate_record converts it. */
static int record_fields(rl_expr_ctx *c, const uint8_t *p, size_t n, const rec_shape *sh,
                         rl_value *row, int loc)
{
    for (size_t i = 0; i < sh->n; i++) {
        rec_member m = {.name = sh->names[i]};
        if (p && each_member_all(c, p, n, find_last_member, &m) < 0)
            return -1;
        if (!m.found) {
            if (sh->base)
                row[i] = sh->base[i];
            else
                rl_val_null(&row[i], sh->oids[i]);
            continue;
        }
        if (json_to_column(c, p + m.vs, m.ve - m.vs, sh->oids[i], sh->typmods[i], sh->names[i],
                           &row[i], loc) < 0)
            return -1;
    }
    return 0;
}

/* The shape of rs's columns (named and typed by a column definition
 * list), without a base. */
static int rowset_shape(rl_expr_ctx *c, const rl_rowset *rs, rec_shape *sh)
{
    const char **names = rl_arena_alloc(c->arena, (rs->ncols + 1) * sizeof *names);
    uint32_t *oids = rl_arena_alloc(c->arena, (rs->ncols + 1) * sizeof *oids);
    int32_t *typmods = rl_arena_alloc(c->arena, (rs->ncols + 1) * sizeof *typmods);
    if (!names || !oids || !typmods)
        return rl_expr_oom(c);
    for (size_t i = 0; i < rs->ncols; i++) {
        names[i] = rs->cols[i].name;
        oids[i] = rs->cols[i].oid;
        typmods[i] = rs->cols[i].typmod;
    }
    *sh = (rec_shape){rs->ncols, names, oids, typmods, NULL};
    return 0;
}

/* Rows of rs made of objects of shape sh (sh->n == rs->ncols). */
typedef struct rows_ctx {
    const rec_shape *sh;
    rl_rowset *rs;
} rows_ctx;

/* One row of the object p[0..n) (p NULL: none): each column the member of
 * its name, else the base's value. */
static int rowset_object(rl_expr_ctx *c, const uint8_t *p, size_t n, void *ctx, int loc)
{
    rows_ctx *r = ctx;
    assert(r->sh->n == r->rs->ncols);
    rl_value *row = rl_arena_alloc(c->arena, (r->sh->n + 1) * sizeof *row);
    if (!row)
        return rl_expr_oom(c);
    if (record_fields(c, p, n, r->sh, row, loc) < 0)
        return -1;
    return rl_rowset_add(r->rs, row, NULL, c->x->err);
}

/* What becomes of each object of a recordset's array. */
typedef int (*object_fn)(rl_expr_ctx *c, const uint8_t *p, size_t n, void *ctx, int loc);

typedef struct set_walk {
    rl_expr_ctx *c;
    const uint8_t *base;
    const char *name;
    object_fn fn;
    void *ctx;
    int loc, rc;
} set_walk;

static bool set_element(void *ctx, const rl_buf *key, size_t vs, size_t ve)
{
    set_walk *w = ctx;
    if (rl_json_kind(w->base + vs, ve - vs) != '{') {
        w->rc = rl_exec_error(w->c->x, RL_SQLSTATE_INVALID_PARAMETER_VALUE, -1,
                              "argument of %s must be an array of objects", w->name);
        return false;
    }
    w->rc = w->fn(w->c, w->base + vs, ve - vs, w->ctx, w->loc);
    return w->rc == 0;
}

/* The records of j (not NULL; jsonb when jsonb) as function `name` makes
 * them: one object (set false; 22023 for anything else) or each object of
 * an array (22023 for another value or element), given to fn. */
static int each_object(rl_expr_ctx *c, const char *name, const rl_value *j, bool jsonb, bool set,
                       object_fn fn, void *ctx, int loc)
{
    const uint8_t *p = j->d.v.s.p;
    size_t n = j->d.v.s.len;
    uint8_t k = rl_json_kind(p, n);
    if (!jsonb && rl_json_escapes_check(c, j, -1) < 0)
        return -1;
    if (!set) {
        if (k != '{')
            return rl_exec_error(c->x, RL_SQLSTATE_INVALID_PARAMETER_VALUE, -1,
                                 "cannot call populate_composite on %s",
                                 k == '[' ? "an array" : "a scalar");
        return fn(c, p, n, ctx, loc);
    }
    if (k != '[') /* jsonb's populate_recordset_worker says non-array for both */
        return rl_exec_error(c->x, RL_SQLSTATE_INVALID_PARAMETER_VALUE, -1,
                             "cannot call %s on %s", name,
                             jsonb       ? "a non-array"
                             : k == '{' ? "an object"
                                        : "a scalar");
    set_walk w = {.c = c, .base = p, .name = name, .fn = fn, .ctx = ctx, .loc = loc};
    if (each_member_all(c, p, n, set_element, &w) < 0)
        return -1;
    return w.rc;
}

int rl_json_record_rows(rl_expr_ctx *c, const char *name, const rl_value *j, rl_rowset *rs,
                        int loc)
{
    const struct json_record_fn *r = find_record_fn(name);
    rec_shape sh;
    if (rowset_shape(c, rs, &sh) < 0)
        return -1;
    rows_ctx rc = {&sh, rs};
    if (j->d.isnull) /* strict: json_to_record's NULL record is a row of NULLs */
        return r->set ? 0 : rowset_object(c, NULL, 0, &rc, loc);
    return each_object(c, name, j, r->arg == RL_OID_JSONB, r->set, rowset_object, &rc, loc);
}

/* ------------------------------- json(b)_populate_record(set) */

/* The shape of json_populate_record's base: a table's row type (its
 * columns) or a record's own fields (f1, f2, ... of ROW(...)), with the
 * base's values when it is not NULL. 42804 when base is not a record, 0A000
 * for a NULL of the anonymous record type (no fields to know). */
static int populate_shape(rl_expr_ctx *c, const char *name, const rl_value *base, rec_shape *sh)
{
    if (!rl_oid_is_composite(base->oid))
        return rl_exec_error(c->x, RL_SQLSTATE_DATATYPE_MISMATCH, -1,
                             "first argument of %s must be a row type", name);
    if (base->oid == RL_OID_RECORD && base->d.isnull) {
        rl_exec_error(c->x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                      "could not determine row type for result of %s", name);
        rl_error_hint(c->x->err, "Provide a non-null record argument, or call the function in "
                                 "the FROM clause using a column definition list.");
        return -1;
    }
    rl_relation rel;
    size_t n = 0, nnulls;
    if (base->oid == RL_OID_RECORD) {
        rl_record_nulls(base, &n, &nnulls);
    } else {
        int r = rl_relation_of_rowtype(c->x, base->oid, &rel);
        if (r <= 0)
            return r < 0 ? -1 : rl_exec_error(c->x, RL_SQLSTATE_UNDEFINED_OBJECT, -1,
                                              "type with OID %u does not exist", base->oid);
        n = rl_relation_ncols(c->x, &rel);
    }
    sh->n = n;
    sh->names = rl_arena_alloc(c->arena, (n + 1) * sizeof *sh->names);
    sh->oids = rl_arena_alloc(c->arena, (n + 1) * sizeof *sh->oids);
    sh->typmods = rl_arena_alloc(c->arena, (n + 1) * sizeof *sh->typmods);
    rl_value *vals = base->d.isnull ? NULL : rl_arena_alloc(c->arena, (n + 1) * sizeof *vals);
    if (!sh->names || !sh->oids || !sh->typmods || (!base->d.isnull && !vals))
        return rl_expr_oom(c);
    for (size_t i = 0; base->oid != RL_OID_RECORD && i < n; i++)
        rl_relation_col(&rel, i, &sh->names[i], &sh->oids[i], &sh->typmods[i]);
    sh->base = vals;
    if (base->d.isnull)
        return 0;
    rl_buf text;
    rl_buf_init(&text, 0);
    rl_record_pos pos = {0, 0};
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        const char *fname;
        size_t flen;
        uint32_t oid;
        bool isnull;
        if (rl_record_next(base, &pos, &fname, &flen, &oid, &text, &isnull) != 1) {
            rc = rl_exec_error(c->x, RL_SQLSTATE_INTERNAL_ERROR, -1, "record has too few fields");
            break;
        }
        if (base->oid == RL_OID_RECORD) { /* the record's own fields (ROW('x')'s unknown) */
            char *nm = rl_arena_alloc(c->arena, flen + 1);
            if (!nm) {
                rc = rl_expr_oom(c);
                break;
            }
            memcpy(nm, fname, flen);
            nm[flen] = '\0';
            sh->names[i] = nm;
            sh->oids[i] = oid;
            sh->typmods[i] = -1;
        }
        rl_val_null(&vals[i], sh->oids[i]);
        if (!isnull)
            rc = rl_text_to_value(c, text.len ? (const char *)text.data : "", text.len,
                                  sh->oids[i], -1, false, &vals[i], -1);
        if (rc == 0 && rl_value_own(c->arena, &vals[i]) < 0)
            rc = rl_expr_oom(c);
    }
    rl_buf_free(&text);
    return rc;
}

/* The records json(b)_populate_record(set) makes so far: each of type
 * oid, in an arena array of cap (grown by doubling). */
typedef struct populate_list {
    const rec_shape *sh;
    uint32_t oid;
    rl_value *vals;
    size_t n, cap;
} populate_list;

/* The record of the object p[0..n) (p NULL: none) appended to the list. */
static int populate_object(rl_expr_ctx *c, const uint8_t *p, size_t n, void *ctx, int loc)
{
    populate_list *l = ctx;
    const rec_shape *sh = l->sh;
    if (l->n == l->cap) {
        size_t cap = l->cap ? 2 * l->cap : 8;
        rl_value *v = rl_arena_alloc(c->arena, cap * sizeof *v);
        if (!v)
            return rl_expr_oom(c);
        if (l->n)
            memcpy(v, l->vals, l->n * sizeof *v);
        l->vals = v;
        l->cap = cap;
    }
    rl_value *fields = rl_arena_alloc(c->arena, (sh->n + 1) * sizeof *fields);
    if (!fields)
        return rl_expr_oom(c);
    if (record_fields(c, p, n, sh, fields, loc) < 0)
        return -1;
    rl_buf b;
    rl_buf_init(&b, 0);
    rl_record_build(&b, sh->n, sh->names, fields);
    return rl_val_buf_copy(c, &l->vals[l->n++], l->oid, &b);
}

int rl_fn_json_populate_record(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    bool jsonb = a[1].oid == RL_OID_JSONB;
    const char *name = jsonb ? "jsonb_populate_record" : "json_populate_record";
    rec_shape sh;
    if (populate_shape(c, name, &a[0], &sh) < 0)
        return -1;
    if (a[1].d.isnull) { /* the base as it is */
        *out = a[0];
        return 0;
    }
    populate_list l = {.sh = &sh, .oid = a[0].oid};
    if (each_object(c, name, &a[1], jsonb, false, populate_object, &l, loc) < 0)
        return -1;
    assert(l.n == 1);
    *out = l.vals[0];
    return 0;
}

int rl_json_populate_set(rl_expr_ctx *c, const char *name, const rl_value *base,
                         const rl_value *j, bool type_only, rl_value **vals, size_t *count)
{
    *vals = NULL;
    *count = 0;
    if (type_only) /* the type is base's: only what a typing row can refuse */
        return rl_oid_is_composite(base->oid)
                   ? 0
                   : rl_exec_error(c->x, RL_SQLSTATE_DATATYPE_MISMATCH, -1,
                                   "first argument of %s must be a row type", name);
    rec_shape sh;
    if (populate_shape(c, name, base, &sh) < 0)
        return -1;
    if (j->d.isnull)
        return 0;
    populate_list l = {.sh = &sh, .oid = base->oid};
    if (each_object(c, name, j, j->oid == RL_OID_JSONB, true, populate_object, &l, -1) < 0)
        return -1;
    *vals = l.vals;
    *count = l.n;
    return 0;
}

int rl_json_populate_rows(rl_expr_ctx *c, const char *name, const rl_value *base,
                          const rl_value *j, rl_rowset *rs)
{
    bool set = strstr(name, "recordset") != NULL;
    rec_shape sh;
    if (base->d.isnull) { /* the list's columns, as json_to_record's */
        if (rowset_shape(c, rs, &sh) < 0)
            return -1;
    } else { /* the record's own fields, which the list must match */
        if (populate_shape(c, name, base, &sh) < 0)
            return -1;
        const char *detail = NULL;
        char buf[256];
        if (sh.n != rs->ncols) {
            snprintf(buf, sizeof buf, "Returned row contains %zu attributes, but query expects %zu.",
                     sh.n, rs->ncols);
            detail = buf;
        }
        for (size_t i = 0; !detail && i < sh.n; i++)
            if (sh.oids[i] != rs->cols[i].oid) {
                snprintf(buf, sizeof buf,
                         "Returned type %s at ordinal position %zu, but query expects %s.",
                         rl_type_name_in(c->x, sh.oids[i]), i + 1,
                         rl_type_name_in(c->x, rs->cols[i].oid));
                detail = buf;
            }
        if (detail) {
            rl_exec_error(c->x, RL_SQLSTATE_DATATYPE_MISMATCH, -1,
                          "function return row and query-specified return row do not match");
            rl_error_detail(c->x->err, "%s", detail);
            return -1;
        }
    }
    rows_ctx rc = {&sh, rs};
    if (j->d.isnull) /* the base as it is (a NULL one a row of NULLs); no rows for a set */
        return set ? 0 : rowset_object(c, NULL, 0, &rc, -1);
    return each_object(c, name, j, j->oid == RL_OID_JSONB, set, rowset_object, &rc, -1);
}
