/*
 * sql_array.c — the function table's array functions and the array
 * operators, as PostgreSQL 15's array_userfuncs.c / arrayfuncs.c answer
 * them for one-dimensional arrays: array_append / prepend / cat / remove /
 * replace / position(s) / fill, trim_array, string_to_array(/table), the
 * containment operators @> <@ && and the order of arrays.
 *
 * Invariants:
 *  - the call's polymorphic types are resolved by the dispatcher
 *    (sql_func.c): arguments arrive as values of one element type and its
 *    array type, and `out` as a NULL of the result type;
 *  - elements compare with their type's own order (numeric 1.5 = 1.50),
 *    never by their text;
 *  - an array this file makes is at most the statement's result budget in
 *    text, and the elements it decodes at most that budget in values
 *    (54000 past it), so array_fill or a split of a huge string cannot take
 *    unbounded memory; the quadratic @> <@ && can be cancelled.
 */
#include <assert.h>
#include <string.h>

#include "pgtype/pgtype.h"

#include "sql/sql_array.h"
#include "sql/sql_exec.h"
#include "sql/sql_json.h"
#include "sql/sql_value.h"

#define MAX_ARRAY_SIZE 134217727 /* PostgreSQL's MaxArraySize */

/* ------------------------------------------------------------ elements */

/* Is a (non-NULL) array's text multidimensional ({{1,2},{3,4}}: kept as
 * its input text, which these functions do not take apart)? */
static bool multidimensional(const rl_value *arr)
{
    const uint8_t *p = arr->d.v.s.p;
    size_t i = 1, len = arr->d.v.s.len;
    if (len < 2 || p[0] != '{')
        return false;
    while (i < len && (p[i] == ' ' || p[i] == '\t' || p[i] == '\n'))
        i++;
    return i < len && p[i] == '{';
}

int rl_array_decode(rl_expr_ctx *c, const rl_value *arr, rl_value **vals, size_t *n, int loc)
{
    assert(!arr->d.isnull);
    if (multidimensional(arr))
        return rl_exec_error(c->x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, loc,
                             "multidimensional arrays are not supported");
    return rl_array_elements(c, arr, -1, false, NULL, 0, vals, n, loc);
}

/* The order of two non-NULL values of one element type. */
static int elem_cmp(rl_expr_ctx *c, const rl_value *a, const rl_value *b, int *res, int loc)
{
    if (rl_oid_is_textual(a->oid) && a->oid != RL_OID_BPCHAR) { /* bpchar: blind to blanks */
        size_t n = a->d.v.s.len < b->d.v.s.len ? a->d.v.s.len : b->d.v.s.len;
        int r = n ? memcmp(a->d.v.s.p, b->d.v.s.p, n) : 0;
        *res = r ? (r < 0 ? -1 : 1)
                 : (a->d.v.s.len > b->d.v.s.len) - (a->d.v.s.len < b->d.v.s.len);
        return 0;
    }
    if (a->oid == RL_OID_JSONB)
        return rl_jsonb_cmp(c, a, b, res);
    rl_type t = rl_oid_type(a->oid);
    if (t != RL_T_INVALID) {
        *res = rl_datum_compare(t, &a->d, &b->d);
        return 0;
    }
    if (rl_oid_is_intlike(a->oid)) {
        *res = (a->d.v.i > b->d.v.i) - (a->d.v.i < b->d.v.i);
        return 0;
    }
    /* array_eq's, at run time: no position */
    return rl_exec_error(c->x, RL_SQLSTATE_UNDEFINED_FUNCTION, -1,
                         "could not identify an equality operator for type %s",
                         rl_oid_type_name(a->oid));
}

/* Are two elements the same, NULL matching NULL (IS NOT DISTINCT FROM, as
 * array_position and array_remove compare)? */
static int elem_same(rl_expr_ctx *c, const rl_value *a, const rl_value *b, bool *same, int loc)
{
    if (a->d.isnull || b->d.isnull) {
        *same = a->d.isnull && b->d.isnull;
        return 0;
    }
    int r;
    if (elem_cmp(c, a, b, &r, loc) < 0)
        return -1;
    *same = r == 0;
    return 0;
}

int rl_array_cmp(rl_expr_ctx *c, const rl_value *a, const rl_value *b, int *res, int loc)
{
    if (multidimensional(a) || multidimensional(b)) { /* their texts, as before */
        size_t la = a->d.v.s.len, lb = b->d.v.s.len, m = la < lb ? la : lb;
        int r = m ? memcmp(a->d.v.s.p, b->d.v.s.p, m) : 0;
        *res = r ? (r < 0 ? -1 : 1) : (la > lb) - (la < lb);
        return 0;
    }
    rl_value *va, *vb;
    size_t na, nb;
    if (rl_array_decode(c, a, &va, &na, loc) < 0 || rl_array_decode(c, b, &vb, &nb, loc) < 0)
        return -1;
    for (size_t i = 0; i < na && i < nb; i++) {
        int r = 0;
        if (va[i].d.isnull || vb[i].d.isnull)
            r = va[i].d.isnull - vb[i].d.isnull; /* NULL after values */
        else if (elem_cmp(c, &va[i], &vb[i], &r, loc) < 0)
            return -1;
        if (r) {
            *res = r < 0 ? -1 : 1;
            return 0;
        }
    }
    *res = (na > nb) - (na < nb);
    return 0;
}

/* Is some non-NULL element of vals[0..n) equal to x (not NULL)? */
static int has_elem(rl_expr_ctx *c, const rl_value *vals, size_t n, const rl_value *x, bool *found,
                    int loc)
{
    *found = false;
    for (size_t i = 0; i < n && !*found; i++) {
        if (vals[i].d.isnull)
            continue;
        int r;
        if (elem_cmp(c, &vals[i], x, &r, loc) < 0)
            return -1;
        *found = r == 0;
    }
    return 0;
}

int rl_array_contains(rl_expr_ctx *c, char op, const rl_value *a, const rl_value *b, bool *res,
                      int loc)
{
    if (op == '<') { /* a <@ b is b @> a */
        const rl_value *t = a;
        a = b;
        b = t;
    }
    rl_value *va, *vb;
    size_t na, nb;
    if (rl_array_decode(c, a, &va, &na, loc) < 0 || rl_array_decode(c, b, &vb, &nb, loc) < 0)
        return -1;
    bool overlap = op == '&';
    *res = !overlap;
    for (size_t i = 0; i < nb; i++) {
        bool found = false;
        if ((i & 255) == 255 && rl_exec_check_cancel(c->x) < 0) /* n * m comparisons */
            return -1;
        if (!vb[i].d.isnull && has_elem(c, va, na, &vb[i], &found, loc) < 0)
            return -1;
        if (overlap && found) {
            *res = true;
            return 0;
        }
        if (!overlap && !found) {
            *res = false;
            return 0;
        }
    }
    return 0;
}

/* ------------------------------------------------------------- building */

/* The array of type t from vals[0..n), within the statement's budget. */
static int make_array(rl_expr_ctx *c, uint32_t t, const rl_value *vals, size_t n, rl_value *out)
{
    assert(rl_array_elem_oid(t));
    return rl_array_of_values(c, t, vals, n, 1, out);
}

/* Decode a possibly NULL array argument (NULL: no elements). */
static int elems_or_none(rl_expr_ctx *c, const rl_value *arr, rl_value **vals, size_t *n, int loc)
{
    if (arr->d.isnull) {
        *vals = NULL;
        *n = 0;
        return 0;
    }
    return rl_array_decode(c, arr, vals, n, loc);
}

/* vals[0..n) followed by x (append) or x followed by them. */
static int with_elem(rl_expr_ctx *c, const rl_value *arr, const rl_value *x, bool append,
                     rl_value *out, int loc)
{
    uint32_t t = out->oid;
    rl_value *v;
    size_t n;
    if (elems_or_none(c, arr, &v, &n, loc) < 0)
        return -1;
    rl_value *all = rl_arena_alloc(c->arena, (n + 1) * sizeof *all);
    if (!all)
        return rl_expr_oom(c);
    if (n)
        memcpy(all + (append ? 0 : 1), v, n * sizeof *v);
    all[append ? n : 0] = *x;
    return make_array(c, t, all, n + 1, out);
}

/* array_append(array, x): NULL array as empty. */
int rl_fn_array_append(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return with_elem(c, &a[0], &a[1], true, out, loc);
}

/* array_prepend(x, array). */
int rl_fn_array_prepend(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return with_elem(c, &a[1], &a[0], false, out, loc);
}

/* array_cat(a, b): a NULL side adds nothing; both NULL: NULL. */
int rl_fn_array_cat(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    uint32_t t = out->oid;
    if (a[0].d.isnull && a[1].d.isnull)
        return 0;
    rl_value *va, *vb;
    size_t na, nb;
    if (elems_or_none(c, &a[0], &va, &na, loc) < 0 || elems_or_none(c, &a[1], &vb, &nb, loc) < 0)
        return -1;
    rl_value *all = rl_arena_alloc(c->arena, (na + nb + 1) * sizeof *all);
    if (!all)
        return rl_expr_oom(c);
    if (na)
        memcpy(all, va, na * sizeof *va);
    if (nb)
        memcpy(all + na, vb, nb * sizeof *vb);
    return make_array(c, t, all, na + nb, out);
}

/* array_replace(array, from, to) (n 3) and array_remove(array, x) (n 2):
 * every element not distinct from `from` replaced, or left out. */
static int replace_or_remove(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    uint32_t t = out->oid;
    if (a[0].d.isnull)
        return 0;
    rl_value *v;
    size_t k, m = 0;
    if (rl_array_decode(c, &a[0], &v, &k, loc) < 0)
        return -1;
    for (size_t i = 0; i < k; i++) {
        bool same;
        if (elem_same(c, &v[i], &a[1], &same, loc) < 0)
            return -1;
        if (!same)
            v[m++] = v[i];
        else if (n == 3)
            v[m++] = a[2];
    }
    return make_array(c, t, v, m, out);
}

int rl_fn_array_remove(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return replace_or_remove(c, 2, a, out, loc);
}

int rl_fn_array_replace(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    return replace_or_remove(c, 3, a, out, loc);
}

/* array_position(array, x [, start]): the first subscript from start (1)
 * whose element is not distinct from x; NULL when none. A NULL start:
 * 22004. */
int rl_fn_array_position(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    rl_val_null(out, RL_OID_INT4);
    if (a[0].d.isnull)
        return 0;
    if (n == 3 && a[2].d.isnull)
        return rl_exec_error(c->x, RL_SQLSTATE_NULL_VALUE_NOT_ALLOWED, -1,
                             "initial position must not be null");
    rl_value *v;
    size_t k;
    if (rl_array_decode(c, &a[0], &v, &k, loc) < 0)
        return -1;
    int64_t start = n == 3 ? a[2].d.v.i : 1;
    for (size_t i = start > 1 ? (size_t)(start - 1) : 0; i < k; i++) {
        bool same;
        if (elem_same(c, &v[i], &a[1], &same, loc) < 0)
            return -1;
        if (same) {
            rl_val_int(out, RL_OID_INT4, (int64_t)i + 1);
            return 0;
        }
    }
    return 0;
}

int rl_fn_width_bucket_array(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    rl_value *v;
    size_t k;
    if (rl_array_decode(c, &a[1], &v, &k, loc) < 0)
        return -1;
    for (size_t i = 0; i < k; i++)
        if (v[i].d.isnull)
            return rl_exec_error(c->x, RL_SQLSTATE_NULL_VALUE_NOT_ALLOWED, -1,
                                 "thresholds array must not contain NULLs");
    size_t left = 0, right = k; /* PostgreSQL's search: unsorted input answers as it does */
    while (left < right) {
        size_t mid = (left + right) / 2;
        int r;
        if (elem_cmp(c, &a[0], &v[mid], &r, loc) < 0)
            return -1;
        if (r < 0)
            right = mid;
        else
            left = mid + 1;
    }
    rl_val_int(out, RL_OID_INT4, (int64_t)left);
    return 0;
}

/* array_positions(array, x): every such subscript, as int4[]. */
int rl_fn_array_positions(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    rl_val_null(out, RL_OID_INT4_ARRAY);
    if (a[0].d.isnull)
        return 0;
    rl_value *v;
    size_t k, m = 0;
    if (rl_array_decode(c, &a[0], &v, &k, loc) < 0)
        return -1;
    for (size_t i = 0; i < k; i++) {
        bool same;
        if (elem_same(c, &v[i], &a[1], &same, loc) < 0)
            return -1;
        if (same)
            rl_val_int(&v[m++], RL_OID_INT4, (int64_t)i + 1);
    }
    return make_array(c, RL_OID_INT4_ARRAY, v, m, out);
}

/* array_fill(x, dims [, lbounds]): one dimension of dims[1] copies of x.
 * NULL dims or a NULL in them: 22004; more than one dimension, or lower
 * bounds other than 1: 0A000 (RockLake's arrays are one-dimensional from
 * 1); a negative or too large size: 54000. */
int rl_fn_array_fill(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    uint32_t t = out->oid;
    if (a[1].d.isnull || (n == 3 && a[2].d.isnull))
        return rl_exec_error(c->x, RL_SQLSTATE_NULL_VALUE_NOT_ALLOWED, -1,
                             "dimension array or low bound array cannot be null");
    rl_value *dims, *lbs = NULL;
    size_t nd, nl = 0;
    if (rl_array_decode(c, &a[1], &dims, &nd, loc) < 0 ||
        (n == 3 && rl_array_decode(c, &a[2], &lbs, &nl, loc) < 0))
        return -1;
    if (n == 3 && nd != nl) {
        rl_exec_error(c->x, RL_SQLSTATE_ARRAY_SUBSCRIPT_ERROR, -1,
                      "wrong number of array subscripts");
        rl_error_detail(c->x->err, "Low bound array has different size than dimensions array.");
        return -1;
    }
    if (n == 3 && (nd != 1 || lbs[0].d.isnull || lbs[0].d.v.i != 1)) {
        for (size_t i = 0; i < nl; i++)
            if (lbs[i].d.isnull)
                return rl_exec_error(c->x, RL_SQLSTATE_NULL_VALUE_NOT_ALLOWED, -1,
                                     "dimension values cannot be null");
        if (nd == 1)
            return rl_exec_error(c->x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                                 "arrays with a lower bound other than 1 are not supported");
    }
    if (nd == 0)
        return make_array(c, t, NULL, 0, out);
    for (size_t i = 0; i < nd; i++)
        if (dims[i].d.isnull && c->typing) /* the typing row's made-up NULL */
            return 0;
        else if (dims[i].d.isnull)
            return rl_exec_error(c->x, RL_SQLSTATE_NULL_VALUE_NOT_ALLOWED, -1,
                                 "dimension values cannot be null");
    if (nd > 1)
        return rl_exec_error(c->x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                             "multidimensional arrays are not supported");
    int64_t count = dims[0].d.v.i;
    if (count < 0 || count > MAX_ARRAY_SIZE)
        return rl_exec_error(c->x, RL_SQLSTATE_PROGRAM_LIMIT_EXCEEDED, -1,
                             "array size exceeds the maximum allowed (%d)", MAX_ARRAY_SIZE);
    if (count == 0)
        return make_array(c, t, NULL, 0, out);
    /* one element's text times count, against the statement's budget */
    rl_value one;
    if (make_array(c, t, &a[0], 1, &one) < 0)
        return -1;
    size_t per = one.d.v.s.len - 1, limit = rl_result_budget_limit(RL_RESULT_MEM_DEFAULT);
    if (per > 0 && (size_t)count > limit / per)
        return rl_exec_error(c->x, RL_SQLSTATE_PROGRAM_LIMIT_EXCEEDED, -1,
                             "array of %lld elements needs more than %zu MB",
                             (long long)count, limit >> 20);
    rl_buf b;
    rl_buf_init(&b, 0);
    rl_buf_put_u8(&b, '{');
    for (int64_t i = 0; i < count; i++) {
        if (i)
            rl_buf_put_u8(&b, ',');
        rl_buf_put(&b, one.d.v.s.p + 1, per - 1);
        if ((i & 65535) == 65535 && rl_exec_check_cancel(c->x) < 0) {
            rl_buf_free(&b);
            return -1;
        }
    }
    rl_buf_put_u8(&b, '}');
    return rl_val_buf_copy(c, out, t, &b);
}

/* trim_array(array, n): without its last n elements; n out of 0..length:
 * 2202E. */
int rl_fn_trim_array(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    uint32_t t = out->oid;
    rl_value *v;
    size_t k;
    if (rl_array_decode(c, &a[0], &v, &k, loc) < 0)
        return -1;
    int64_t drop = a[1].d.v.i;
    if (drop < 0 || (uint64_t)drop > k)
        return rl_exec_error(c->x, RL_SQLSTATE_ARRAY_SUBSCRIPT_ERROR, -1,
                             "number of elements to trim must be between 0 and %zu", k);
    return make_array(c, t, v, k - (size_t)drop, out);
}

/* ------------------------------------------------------ string_to_array */

int rl_string_to_pieces(rl_expr_ctx *c, size_t n, const rl_value *a, rl_value **vals,
                        size_t *count, int loc)
{
    *vals = NULL;
    *count = 0;
    if (a[0].d.isnull)
        return 0;
    const uint8_t *s = a[0].d.v.s.p;
    size_t len = a[0].d.v.s.len, cap = 8, k = 0;
    if (len == 0)
        return 0;
    rl_value *v = rl_arena_alloc(c->arena, cap * sizeof *v);
    if (!v)
        return rl_expr_oom(c);
    bool each_char = a[1].d.isnull;
    const uint8_t *d = each_char ? NULL : a[1].d.v.s.p;
    size_t dl = each_char ? 0 : a[1].d.v.s.len;
    const rl_value *nulls = n == 3 && !a[2].d.isnull ? &a[2] : NULL;
    for (size_t at = 0; at <= len;) {
        size_t end, next;
        if (each_char) { /* one UTF-8 character */
            if (at == len)
                break;
            end = at + 1;
            while (end < len && (s[end] & 0xC0) == 0x80)
                end++;
            next = end;
        } else if (dl == 0) { /* the whole string */
            end = len;
            next = len + 1;
        } else {
            end = at;
            while (end + dl <= len && memcmp(s + end, d, dl) != 0)
                end++;
            if (end + dl > len)
                end = len;
            next = end == len ? len + 1 : end + dl;
        }
        if (k == cap) {
            if (rl_array_room(c, 2 * cap) < 0)
                return -1;
            rl_value *nv = rl_arena_alloc(c->arena, 2 * cap * sizeof *nv);
            if (!nv)
                return rl_expr_oom(c);
            memcpy(nv, v, cap * sizeof *v);
            v = nv;
            cap *= 2;
        }
        if (nulls && nulls->d.v.s.len == end - at &&
            memcmp(nulls->d.v.s.p, s + at, end - at) == 0)
            rl_val_null(&v[k++], RL_OID_TEXT);
        else
            rl_val_str(&v[k++], RL_OID_TEXT, (const char *)s + at, end - at);
        at = next;
        if ((k & 65535) == 0 && rl_exec_check_cancel(c->x) < 0)
            return -1;
    }
    *vals = v;
    *count = k;
    return 0;
}

/* string_to_array(s, delimiter [, null string]): NULL for a NULL s, {} for
 * an empty one; a NULL delimiter splits into characters, an empty one
 * keeps s whole; pieces equal to the null string are NULL. */
int rl_fn_string_to_array(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    rl_val_null(out, RL_OID_TEXT_ARRAY);
    if (a[0].d.isnull)
        return 0;
    rl_value *v;
    size_t k;
    if (rl_string_to_pieces(c, n, a, &v, &k, loc) < 0)
        return -1;
    return make_array(c, RL_OID_TEXT_ARRAY, v, k, out);
}
