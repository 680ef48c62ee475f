/*
 * sql_expr.c — expressions: evaluation over libpg_query parse nodes,
 * comparison and common types (PostgreSQL's select_common_type), function
 * calls (dispatched through sql_func.c's table), aggregates over a group
 * prepared by sql_select.c (DISTINCT, FILTER, ORDER BY inside the call),
 * window calls' values (computed by sql_window.c), grouping-set columns,
 * ARRAY constructors, and subqueries (through sql_select.c: the one
 * inherent circle of the engine). Values, literal coercion and casts are
 * sql_cast.c's.
 *
 * Invariants:
 *  - A result always carries its type, also when it is NULL: sql_select.c
 *    learns a column's type by evaluating the expression once on an all-NULL
 *    "typing" row, so every operator must type its NULL results.
 *  - Unknown literals ('5') stay RL_OID_UNKNOWN (bytes in v.s) until an
 *    operator, cast or assignment gives them a type, as in PostgreSQL.
 *  - Strings produced here live in c->arena; strings read from a row borrow
 *    the row set's arena. Nothing here frees either.
 *  - Every failure is a PostgreSQL-style error (text and SQLSTATE as
 *    PostgreSQL 15 reports them) through rl_exec_error; never an abort.
 */
#include <ctype.h>
#include <limits.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pgtype/pgtype.h"
#include "pgtype/tzif.h"
#include "sql/sql_array.h"
#include "sql/sql_bytea.h"
#include "sql/sql_cast.h"
#include "sql/sql_exec.h"
#include "sql/sql_expr.h"
#include "sql/sql_func.h"
#include "sql/sql_datetime.h"
#include "sql/sql_json.h"
#include "sql/sql_aggfunc.h"
#include "sql/sql_mathfunc.h"
#include "sql/sql_numeric.h"
#include "sql/sql_strfunc.h"
#include "sql/sql_parse.h"
#include "sql/sql_relation.h"
#include "sql/sql_select.h"
#include "sql/sql_value.h"

#define MAX_FUNC_ARGS 100 /* PostgreSQL's FUNC_MAX_ARGS */

/* ----------------------------------------------------------- comparison */

static int cmp_i64(int64_t a, int64_t b) { return a < b ? -1 : a > b; }

static int cmp_bytes(const rl_value *a, const rl_value *b)
{
    size_t n = a->d.v.s.len < b->d.v.s.len ? a->d.v.s.len : b->d.v.s.len;
    int r = n ? memcmp(a->d.v.s.p, b->d.v.s.p, n) : 0;
    if (r)
        return r < 0 ? -1 : 1;
    return cmp_i64((int64_t)a->d.v.s.len, (int64_t)b->d.v.s.len);
}

/* The bytes of a string value's cast to text: a bpchar's without its
 * trailing blanks. */
static size_t as_text_len(const rl_value *v)
{
    return v->oid == RL_OID_BPCHAR ? rl_bpchar_trimmed_len(&v->d) : v->d.v.s.len;
}

static int op_error(rl_expr_ctx *c, const char *op, uint32_t a, uint32_t b, int loc)
{
    rl_exec_error(c->x, RL_SQLSTATE_UNDEFINED_FUNCTION, loc, "operator does not exist: %s %s %s",
                  rl_type_name_in(c->x, a), op, rl_type_name_in(c->x, b));
    rl_error_hint(c->x->err, "No operator matches the given name and argument types. You might "
                             "need to add explicit type casts.");
    return -1;
}

/* 42725 for an operator PostgreSQL finds several candidates for (an
 * unknown operand several operators' types could take). `a` is NULL for a
 * prefix operator. */
static int op_ambiguous(rl_expr_ctx *c, const char *op, const uint32_t *a, uint32_t b, int loc)
{
    if (a)
        rl_exec_error(c->x, RL_SQLSTATE_AMBIGUOUS_FUNCTION, loc, "operator is not unique: %s %s %s",
                      rl_oid_type_name(*a), op, rl_oid_type_name(b));
    else
        rl_exec_error(c->x, RL_SQLSTATE_AMBIGUOUS_FUNCTION, loc, "operator is not unique: %s %s",
                      op, rl_oid_type_name(b));
    rl_error_hint(c->x->err, "Could not choose a best candidate operator. You might need to add "
                             "explicit type casts.");
    return -1;
}

/* Give an unknown literal the type of the other operand, as PostgreSQL's
 * operator resolution does; both unknown compare as text. */
static int resolve_unknown_pair(rl_expr_ctx *c, rl_value *a, rl_value *b, int loc)
{
    if (a->oid == RL_OID_UNKNOWN && b->oid != RL_OID_UNKNOWN)
        return rl_value_coerce(c, a, b->oid, -1, false, a, loc);
    if (b->oid == RL_OID_UNKNOWN && a->oid != RL_OID_UNKNOWN)
        return rl_value_coerce(c, b, a->oid, -1, false, b, loc);
    return 0;
}

static int cmp_resolved(rl_expr_ctx *c, const rl_value *a, const rl_value *b, const char *op,
                        int *res, int loc);

/* One record's field as a value of its type (its text read as the type's
 * input reads it; a NULL stays NULL). */
static int record_field_value(rl_expr_ctx *c, uint32_t oid, const rl_buf *text, bool isnull,
                              rl_value *out, int loc)
{
    if (isnull) {
        rl_val_null(out, oid);
        return 0;
    }
    rl_value in = {.oid = RL_OID_UNKNOWN, .typmod = -1};
    in.d.v.s.p = text->data ? text->data : (const uint8_t *)"";
    in.d.v.s.len = text->len;
    return rl_value_coerce(c, &in, oid, -1, false, out, loc);
}

/* btrecordcmp / record_eq of two whole rows: field by field in order with
 * each type's comparison, a NULL equal to a NULL and after every value,
 * until the first difference; 42804 for dissimilar types at a position
 * reached, or for another number of fields when all compared are equal. */
static int record_cmp(rl_expr_ctx *c, const rl_value *a, const rl_value *b, int *res, int loc)
{
    rl_record_pos pa = {0, 0}, pb = {0, 0};
    rl_buf ta, tb;
    rl_buf_init(&ta, 0);
    rl_buf_init(&tb, 0);
    int rc = 0;
    *res = 0;
    for (int column = 1; rc == 0 && *res == 0; column++) {
        const char *na, *nb;
        size_t la, lb;
        uint32_t oa, ob;
        bool nulla, nullb;
        int ga = rl_record_next(a, &pa, &na, &la, &oa, &ta, &nulla);
        int gb = rl_record_next(b, &pb, &nb, &lb, &ob, &tb, &nullb);
        if (!ga || !gb) {
            if (ga != gb)
                rc = rl_exec_error(c->x, RL_SQLSTATE_DATATYPE_MISMATCH, -1,
                                   "cannot compare record types with different numbers of "
                                   "columns");
            break;
        }
        if (oa != ob) {
            rc = rl_exec_error(c->x, RL_SQLSTATE_DATATYPE_MISMATCH, -1,
                               "cannot compare dissimilar column types %s and %s at record "
                               "column %d",
                               rl_oid_type_name(oa), rl_oid_type_name(ob), column);
            break;
        }
        if (nulla || nullb) {
            *res = nulla == nullb ? 0 : nulla ? 1 : -1;
            continue;
        }
        rl_value va, vb;
        rc = record_field_value(c, oa, &ta, false, &va, loc) < 0 ||
                     record_field_value(c, ob, &tb, false, &vb, loc) < 0
                 ? -1
                 : cmp_resolved(c, &va, &vb, "=", res, loc);
    }
    rl_buf_free(&ta);
    rl_buf_free(&tb);
    return rc;
}

static int cmp_resolved(rl_expr_ctx *c, const rl_value *a, const rl_value *b, const char *op,
                        int *res, int loc)
{
    uint32_t ta = a->oid, tb = b->oid;
    if (rl_oid_is_intlike(ta) && rl_oid_is_intlike(tb)) {
        *res = cmp_i64(a->d.v.i, b->d.v.i);
        return 0;
    }
    if (rl_oid_is_number(ta) && rl_oid_is_number(tb)) {
        if (rl_oid_is_float(ta) || rl_oid_is_float(tb)) {
            rl_value fa, fb;
            if (rl_number_convert(c, a, RL_OID_FLOAT8, &fa, loc) < 0 ||
                rl_number_convert(c, b, RL_OID_FLOAT8, &fb, loc) < 0)
                return -1;
            rl_datum_compare(RL_T_FLOAT8, &fa.d, &fb.d);
            *res = rl_datum_compare(RL_T_FLOAT8, &fa.d, &fb.d);
            return 0;
        }
        rl_value na, nb;
        if (rl_number_convert(c, a, RL_OID_NUMERIC, &na, loc) < 0 ||
            rl_number_convert(c, b, RL_OID_NUMERIC, &nb, loc) < 0)
            return -1;
        *res = rl_datum_compare(RL_T_NUMERIC, &na.d, &nb.d);
        return 0;
    }
    if (rl_oid_is_textual(ta) && rl_oid_is_textual(tb)) {
        if (ta != RL_OID_BPCHAR && tb != RL_OID_BPCHAR) {
            *res = cmp_bytes(a, b);
            return 0;
        }
        /* bpchar's operators strip both sides' trailing blanks; beside text
         * the bpchar side is cast to text (only its blanks go) */
        rl_value sa = *a, sb = *b;
        bool strip_a = ta != RL_OID_TEXT, strip_b = tb != RL_OID_TEXT;
        if (strip_a)
            sa.d.v.s.len = rl_bpchar_trimmed_len(&a->d);
        if (strip_b)
            sb.d.v.s.len = rl_bpchar_trimmed_len(&b->d);
        *res = cmp_bytes(&sa, &sb);
        return 0;
    }
    if (rl_oid_is_timestamp(ta) && rl_oid_is_timestamp(tb)) {
        int64_t x = rl_ts_micros(a), y = rl_ts_micros(b);
        /* timestamptz beside a wall-clock type: that one in the session's zone */
        if ((ta == RL_OID_TIMESTAMPTZ) != (tb == RL_OID_TIMESTAMPTZ)) {
            if (ta != RL_OID_TIMESTAMPTZ)
                x = rl_tz_local_to_utc_us(rl_tz_current(), x, NULL);
            else
                y = rl_tz_local_to_utc_us(rl_tz_current(), y, NULL);
        }
        *res = cmp_i64(x, y);
        return 0;
    }
    if (ta == RL_OID_JSONB && tb == RL_OID_JSONB)
        return rl_jsonb_cmp(c, a, b, res);
    if (ta == tb) {
        rl_type t = rl_oid_type(ta);
        if (t != RL_T_INVALID) {
            *res = rl_datum_compare(t, &a->d, &b->d);
            return 0;
        }
        if (ta == RL_OID_TID) {
            *res = cmp_i64(a->d.v.i, b->d.v.i);
            return 0;
        }
        if (ta == RL_OID_XID8) { /* unsigned */
            uint64_t ua = (uint64_t)a->d.v.i, ub = (uint64_t)b->d.v.i;
            *res = ua < ub ? -1 : ua > ub;
            return 0;
        }
        if (rl_array_elem_oid(ta)) /* element by element (btarraycmp) */
            return rl_array_cmp(c, a, b, res, loc);
    }
    if (rl_oid_is_composite(ta) && rl_oid_is_composite(tb)) /* record_eq of any two */
        return record_cmp(c, a, b, res, loc);
    return op_error(c, op, ta, tb, loc);
}

/* Compare two non-NULL values with operator name `op` (for messages). */
static int cmp_op(rl_expr_ctx *c, const rl_value *a, const rl_value *b, const char *op, int *res,
                  int loc)
{
    rl_value x = *a, y = *b;
    if (resolve_unknown_pair(c, &x, &y, loc) < 0)
        return -1;
    return cmp_resolved(c, &x, &y, op, res, loc);
}

int rl_value_cmp(rl_expr_ctx *c, const rl_value *a, const rl_value *b, int *result, int location)
{
    return cmp_op(c, a, b, "=", result, location);
}

/* ------------------------------------------------------------ columns */

/* Does column meta m answer the reference (rel may be NULL)? */
static bool col_matches(const rl_colmeta *m, const char *rel, const char *name, bool qualified)
{
    if (strcmp(m->name, name) != 0)
        return false;
    if (qualified)
        return strcmp(m->rel, rel) == 0;
    return !m->using_dup;
}

static bool rel_exists(const rl_rowset *rs, const char *rel)
{
    for (size_t i = 0; i < rs->ncols; i++)
        if (strcmp(rs->cols[i].rel, rel) == 0)
            return true;
    return false;
}

typedef struct colref {
    const char *rel;  /* NULL if unqualified */
    const char *name; /* NULL for `*` */
} colref;

static int split_colref(rl_expr_ctx *c, const PgQuery__ColumnRef *cr, colref *out)
{
    out->rel = out->name = NULL;
    size_t n = cr->n_fields;
    if (n == 0 || n > 4)
        return rl_exec_error(c->x, RL_SQLSTATE_SYNTAX_ERROR, cr->location,
                             "improper qualified name");
    const PgQuery__Node *last = cr->fields[n - 1];
    if (last->node_case != PG_QUERY__NODE__NODE_A_STAR)
        out->name = rl_node_string(last);
    if (n >= 2)
        out->rel = rl_node_string(cr->fields[n - 2]);
    if ((last->node_case != PG_QUERY__NODE__NODE_A_STAR && !out->name) || (n >= 2 && !out->rel))
        return rl_exec_error(c->x, RL_SQLSTATE_SYNTAX_ERROR, cr->location,
                             "improper qualified name");
    return 0;
}

/* Find the column in one row set: index, -1 none, -2 ambiguous. */
static long find_col(const rl_rowset *rs, const colref *r)
{
    long found = -1;
    for (size_t i = 0; i < rs->ncols; i++) {
        if (!col_matches(&rs->cols[i], r->rel, r->name, r->rel != NULL))
            continue;
        if (found >= 0)
            return -2;
        found = (long)i;
    }
    return found;
}

/* find_col for ColumnRef `key` through rs's resolution cache; *rel_seen
 * (if not NULL) = rel_exists(rs, r->rel). */
static long find_col_cached(rl_rowset *rs, const void *key, const colref *r, bool *rel_seen)
{
    size_t h = (size_t)(((uint64_t)(uintptr_t)key * 0x9E3779B97F4A7C15ull) >> 40);
    rl_colcache *e = NULL;
    for (size_t k = 0; k < 4; k++) { /* 4 probes; else evict the home slot */
        rl_colcache *t = &rs->colcache[(h + k) & (RL_COLCACHE - 1)];
        if (t->ref == key) {
            if (t->idx < 0 ||
                col_matches(&rs->cols[t->idx], r->rel, r->name, r->rel != NULL)) {
                if (rel_seen)
                    *rel_seen = t->rel_seen;
                return t->idx;
            }
            e = t;
            break;
        }
        if (!t->ref && !e)
            e = t;
    }
    if (!e)
        e = &rs->colcache[h & (RL_COLCACHE - 1)];
    long i = find_col(rs, r);
    bool seen = r->rel && rel_exists(rs, r->rel);
    e->ref = key;
    e->idx = (int32_t)i;
    e->rel_seen = seen;
    if (rel_seen)
        *rel_seen = seen;
    return i;
}

const rl_colmeta *rl_expr_column(const rl_binding *b, const PgQuery__Node *node)
{
    if (!b || !b->rs || !node || node->node_case != PG_QUERY__NODE__NODE_COLUMN_REF)
        return NULL;
    const PgQuery__ColumnRef *cr = node->column_ref;
    size_t n = cr->n_fields;
    if (n == 0 || cr->fields[n - 1]->node_case == PG_QUERY__NODE__NODE_A_STAR)
        return NULL;
    colref r = {n >= 2 ? rl_node_string(cr->fields[n - 2]) : NULL, rl_node_string(cr->fields[n - 1])};
    if (!r.name)
        return NULL;
    long i = find_col(b->rs, &r);
    return i >= 0 ? &b->rs->cols[i] : NULL;
}

/* The type of FROM item rel's whole row in row set rs: a table's row type
 * (its hidden ctid column knows it), else `record` (a subquery, VALUES, a
 * function, a join). */
static uint32_t whole_row_type(const rl_rowset *rs, const char *rel)
{
    for (size_t i = 0; i < rs->ncols; i++) {
        const rl_colmeta *m = &rs->cols[i];
        if (m->attnum == RL_CTID_ATTNUM && m->rowtype && strcmp(m->rel, rel) == 0)
            return m->rowtype;
    }
    return RL_OID_RECORD;
}

/* A relation's name where a column's is expected (SELECT t FROM t t,
 * row_to_json(t)): PostgreSQL's whole-row reference, a record of the
 * relation's columns in this row, named as they are, of the table's row
 * type (whole_row_type). 0 made, 1 no such relation here, -1 error. */
static int whole_row(rl_expr_ctx *c, const char *rel, rl_value *out)
{
    for (const rl_binding *b = c->b; b; b = b->outer) {
        if (!b->rs || !rel_exists(b->rs, rel))
            continue;
        for (const rl_binding *m = c->b; m != b; m = m->outer)
            if (!m->rs && m->correlated)
                *m->correlated = true;
        uint32_t type = whole_row_type(b->rs, rel);
        if (type == RL_ROWTYPE_NONE) /* makeWholeRowVar's, without a position */
            return rl_exec_error(c->x, RL_SQLSTATE_WRONG_OBJECT_TYPE, -1,
                                 "relation \"%s\" does not have a composite type", rel);
        if (c->typing) {
            rl_val_null(out, type);
            return 0;
        }
        size_t n = 0, nulls = 0;
        bool extended = false;
        const char **names = rl_arena_alloc(c->arena, (b->rs->ncols + 1) * sizeof *names);
        rl_value *vals = rl_arena_alloc(c->arena, (b->rs->ncols + 1) * sizeof *vals);
        if (!names || !vals)
            return rl_expr_oom(c);
        const rl_value *row = rl_rowset_row(b->rs, b->row);
        for (size_t i = 0; i < b->rs->ncols; i++) {
            const rl_colmeta *m = &b->rs->cols[i];
            if (strcmp(m->rel, rel) != 0)
                continue;
            if (m->attnum == RL_CTID_ATTNUM && row[i].d.isnull)
                extended = true;
            if (m->attnum < 0)
                continue;
            names[n] = m->name;
            vals[n] = row[i];
            nulls += row[i].d.isnull;
            n++;
        }
        if (extended && nulls == n) {
            /* a table an outer join NULL-extended: its whole row is NULL,
             * not a record of NULLs (a subquery's rows have no ctid to
             * tell: docs/sql-support.md); RETURNING's rows have no ctid
             * either, but their values */
            rl_val_null(out, type);
            return 0;
        }
        rl_buf buf;
        rl_buf_init(&buf, 0);
        rl_record_build(&buf, n, names, vals);
        return rl_val_buf_copy(c, out, type, &buf);
    }
    return 1;
}

/* The column r names, its lookups cached under `key` (a node of the
 * statement's tree, which lives as long as the caches do). */
static int eval_colref_as(rl_expr_ctx *c, const void *key, colref r, int location,
                          rl_value *out);

static int eval_colref(rl_expr_ctx *c, const PgQuery__ColumnRef *cr, rl_value *out)
{
    colref r;
    if (split_colref(c, cr, &r) < 0)
        return -1;
    if (!r.name && r.rel && cr->n_fields == 2) { /* t.* inside an expression: t's whole row */
        int w = whole_row(c, r.rel, out);
        if (w <= 0)
            return w;
    }
    if (!r.name)
        return rl_exec_error(c->x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, cr->location,
                             "row expressions (*) are not supported here");
    return eval_colref_as(c, cr, r, cr->location, out);
}

/* The system column tableoid of relation `rel` (NULL: the one relation
 * of the innermost level that has relations): the oid of the table the
 * row comes from, as PostgreSQL gives every table; NULL where an outer
 * join NULL-extended the relation. Read off the relation's hidden ctid
 * column (a subquery's output has none: tableoid is 42703 there too).
 * 0 made, 1 none here, -1 error (42702 unqualified over several). */
static int table_oid_column(rl_expr_ctx *c, const char *rel, int location, rl_value *out)
{
    for (const rl_binding *b = c->b; b; b = b->outer) {
        if (!b->rs)
            continue;
        long found = -1;
        for (size_t i = 0; i < b->rs->ncols; i++) {
            const rl_colmeta *m = &b->rs->cols[i];
            if (m->attnum != RL_CTID_ATTNUM || !m->table_oid || (rel && strcmp(m->rel, rel) != 0))
                continue;
            if (found >= 0)
                return rl_exec_error(c->x, RL_SQLSTATE_AMBIGUOUS_COLUMN, location,
                                     "column reference \"tableoid\" is ambiguous");
            found = (long)i;
        }
        if (found < 0)
            continue;
        for (const rl_binding *m = c->b; m != b; m = m->outer)
            if (!m->rs && m->correlated)
                *m->correlated = true;
        bool extended = !c->typing && rl_rowset_row(b->rs, b->row)[found].d.isnull;
        memset(out, 0, sizeof *out);
        out->oid = RL_OID_OID;
        out->typmod = -1;
        out->d.isnull = extended;
        out->d.v.i = extended ? 0 : b->rs->cols[found].table_oid;
        return 0;
    }
    return 1;
}

static int eval_colref_as(rl_expr_ctx *c, const void *key, colref r, int location,
                          rl_value *out)
{
    bool rel_seen = false;
    for (const rl_binding *b = c->b; b; b = b->outer) {
        if (!b->rs) {
            continue; /* subquery boundary: noted only if we resolve beyond it */
        }
        bool seen = false;
        long i = find_col_cached(b->rs, key, &r, &seen);
        if (i == -2)
            return rl_exec_error(c->x, RL_SQLSTATE_AMBIGUOUS_COLUMN, location,
                                 "column reference \"%s\" is ambiguous",
                                 r.name);
        rel_seen |= seen;
        if (i < 0)
            continue;
        /* mark every boundary crossed on the way: those subqueries are correlated */
        for (const rl_binding *m = c->b; m != b; m = m->outer)
            if (!m->rs && m->correlated)
                *m->correlated = true;
        *out = rl_rowset_row(b->rs, b->row)[i];
        return 0;
    }
    if (!r.rel) {
        int w = whole_row(c, r.name, out);
        if (w <= 0)
            return w;
    }
    if (strcmp(r.name, "tableoid") == 0) {
        int t = table_oid_column(c, r.rel, location, out);
        if (t <= 0)
            return t;
    }
    if (r.rel && !rel_seen)
        return rl_exec_error(c->x, RL_SQLSTATE_UNDEFINED_TABLE, location,
                             "missing FROM-clause entry for table \"%s\"", r.rel);
    if (r.rel)
        return rl_exec_error(c->x, RL_SQLSTATE_UNDEFINED_COLUMN, location,
                             "column %s.%s does not exist", r.rel,
                             r.name);
    return rl_exec_error(c->x, RL_SQLSTATE_UNDEFINED_COLUMN, location,
                         "column \"%s\" does not exist", r.name);
}


/* ------------------------------------------------------ boolean logic */

/* The clause c checks as PostgreSQL's "... are not allowed in %s" names
 * it (ParseExprKindName), NULL when none is known. */
static const char *clause_kind(const rl_expr_ctx *c)
{
    return c->clause && strcmp(c->clause, "JOIN/ON") == 0 ? "JOIN conditions" : c->clause;
}

/* 1 true, 0 false, 2 NULL, -1 error. */
static int eval_tri(rl_expr_ctx *c, const PgQuery__Node *node, const char *what, int loc)
{
    rl_value v;
    if (rl_expr_eval(c, node, &v) < 0)
        return -1;
    if (v.oid == RL_OID_UNKNOWN && rl_value_coerce(c, &v, RL_OID_BOOL, -1, false, &v, loc) < 0)
        return -1;
    if (v.oid != RL_OID_BOOL)
        return rl_exec_error(c->x, RL_SQLSTATE_DATATYPE_MISMATCH, loc,
                             "argument of %s must be type boolean, not type %s",
                             what, rl_oid_type_name(v.oid));
    return v.d.isnull ? 2 : v.d.v.b;
}

/* The value of an OR (or AND, ANY, ALL, IN) folded over its operands in
 * three-valued logic: `decider` when an operand decided it (a true one
 * of an OR, a false one of an AND), else NULL when an operand was NULL,
 * else the other value. */
static void put_folded(rl_value *out, bool decided, bool saw_null, bool decider)
{
    if (decided)
        rl_val_bool(out, decider);
    else if (saw_null)
        rl_val_null(out, RL_OID_BOOL);
    else
        rl_val_bool(out, !decider);
}

static int eval_boolexpr(rl_expr_ctx *c, const PgQuery__BoolExpr *be, rl_value *out)
{
    const char *what = be->boolop == PG_QUERY__BOOL_EXPR_TYPE__AND_EXPR  ? "AND"
                       : be->boolop == PG_QUERY__BOOL_EXPR_TYPE__OR_EXPR ? "OR"
                                                                          : "NOT";
    if (be->boolop == PG_QUERY__BOOL_EXPR_TYPE__NOT_EXPR) {
        int t = be->n_args ? eval_tri(c, be->args[0], what, rl_node_location(be->args[0])) : -1;
        if (t < 0)
            return -1;
        if (t == 2)
            rl_val_null(out, RL_OID_BOOL);
        else
            rl_val_bool(out, !t);
        return 0;
    }
    bool is_and = be->boolop == PG_QUERY__BOOL_EXPR_TYPE__AND_EXPR;
    bool saw_null = false, decided = false, by_constant = false;
    /* a decided AND false / OR true skips the rest, except when typing:
     * PostgreSQL resolves (and so fails on) every operand while planning,
     * up to an operand that is a constant deciding it (it folds no further:
     * the rest are typed, not computed) */
    for (size_t i = 0; i < be->n_args && (!decided || c->typing); i++) {
        int t = eval_tri(c, be->args[i], what, rl_node_location(be->args[i]));
        if (t < 0) {
            c->x->unreached -= by_constant;
            return -1;
        }
        if (t == 2) {
            saw_null = true;
        } else if (t == (is_and ? 0 : 1)) {
            decided = true;
            if (c->typing && !by_constant && rl_expr_is_constant(be->args[i])) {
                by_constant = true;
                c->x->unreached++;
            }
        }
    }
    c->x->unreached -= by_constant;
    put_folded(out, decided, saw_null, !is_and);
    return 0;
}

static int visit_constant(void *ctx, const ProtobufCMessage *m)
{
    if (m->descriptor != &pg_query__node__descriptor)
        return 0;
    switch (((const PgQuery__Node *)m)->node_case) {
    case PG_QUERY__NODE__NODE_COLUMN_REF:
    case PG_QUERY__NODE__NODE_PARAM_REF:
    case PG_QUERY__NODE__NODE_SUB_LINK:
    case PG_QUERY__NODE__NODE_FUNC_CALL:
    case PG_QUERY__NODE__NODE_SQLVALUE_FUNCTION:
        *(bool *)ctx = false;
        return -1;
    default: return 0;
    }
}

bool rl_expr_is_constant(const PgQuery__Node *node)
{
    bool constant = true;
    return node && rl_tree_walk(&node->base, visit_constant, &constant) == 0 && constant;
}

int rl_expr_truth(rl_expr_ctx *c, const PgQuery__Node *node)
{
    int t = eval_tri(c, node, c->clause ? c->clause : "WHERE", rl_node_location(node));
    return t < 0 ? -1 : t == 1;
}

/* ------------------------------------------------------------ operators */

static const char *op_name(const PgQuery__AExpr *e)
{
    return e->n_name ? rl_node_string(e->name[e->n_name - 1]) : NULL;
}

/* Comparison operator -> predicate on cmp result; -1 if not one. */
static int cmp_kind(const char *op)
{
    static const char *ops[] = {"=", "<>", "!=", "<", ">", "<=", ">="};
    for (int i = 0; i < 7; i++)
        if (strcmp(op, ops[i]) == 0)
            return i;
    return -1;
}

static bool cmp_holds(int kind, int r)
{
    switch (kind) {
    case 0: return r == 0;
    case 1:
    case 2: return r != 0;
    case 3: return r < 0;
    case 4: return r > 0;
    case 5: return r <= 0;
    default: return r >= 0;
    }
}

static int int_result_oid(uint32_t a, uint32_t b)
{
    if (a == RL_OID_INT8 || b == RL_OID_INT8 || a == RL_OID_OID || b == RL_OID_OID)
        return RL_OID_INT8;
    if (a == RL_OID_INT4 || b == RL_OID_INT4)
        return RL_OID_INT4;
    return RL_OID_INT2;
}

static bool plain_int(uint32_t oid)
{
    return oid == RL_OID_INT2 || oid == RL_OID_INT4 || oid == RL_OID_INT8;
}

/* The integer bitwise operators: & | # (int2, int4, int8 pairs, the wider
 * type), << >> (an integer shifted by an int4; the left's type) as
 * int2and..int8shr compute them: C's operators on the machine's types, so
 * a shift count is taken modulo the width of the type the shift runs in
 * (32 bits for int2 and int4, 64 for int8), as x86-64 does. */
static int bitwise(rl_expr_ctx *c, const char *op, rl_value *a, rl_value *b, rl_value *out,
                   int loc)
{
    bool shift = op[0] == '<' || op[0] == '>';
    if (shift && b->oid == RL_OID_INT2)
        b->oid = RL_OID_INT4; /* int2 -> int4: the same value */
    if (!plain_int(a->oid) || (shift ? b->oid != RL_OID_INT4 : !plain_int(b->oid))) {
        rl_exec_error(c->x, RL_SQLSTATE_UNDEFINED_FUNCTION, loc,
                      "operator does not exist: %s %s %s", rl_oid_type_name(a->oid), op,
                      rl_oid_type_name(b->oid));
        rl_error_hint(c->x->err, "No operator matches the given name and argument types. You "
                                 "might need to add explicit type casts.");
        return -1;
    }
    uint32_t oid = shift ? a->oid : (uint32_t)int_result_oid(a->oid, b->oid);
    if (a->d.isnull || b->d.isnull) {
        rl_val_null(out, oid);
        return 0;
    }
    int64_t x = a->d.v.i, y = b->d.v.i, r;
    switch (op[0]) {
    case '&': r = x & y; break;
    case '|': r = x | y; break;
    case '#': r = x ^ y; break;
    default:
        if (oid == RL_OID_INT8) {
            unsigned k = (unsigned)y & 63;
            r = op[0] == '<' ? (int64_t)((uint64_t)x << k) : x >> k;
        } else {
            unsigned k = (unsigned)y & 31;
            int32_t x32 = (int32_t)x;
            r = op[0] == '<' ? (int32_t)((uint32_t)x32 << k) : x32 >> k;
            if (oid == RL_OID_INT2)
                r = (int16_t)r;
        }
    }
    rl_val_int(out, oid, r);
    return 0;
}

static bool is_bitwise_op(const char *op)
{
    return strcmp(op, "&") == 0 || strcmp(op, "|") == 0 || strcmp(op, "#") == 0 ||
           strcmp(op, "<<") == 0 || strcmp(op, ">>") == 0;
}

/* Takes part in numeric arithmetic (an integer beside a numeric). */
static bool numeric_operand(uint32_t oid)
{
    return oid == RL_OID_NUMERIC || oid == RL_OID_INT2 || oid == RL_OID_INT4 ||
           oid == RL_OID_INT8;
}

static int arith(rl_expr_ctx *c, char op, const rl_value *a, const rl_value *b, rl_value *out,
                 int loc)
{
    if (rl_oid_is_intlike(a->oid) && rl_oid_is_intlike(b->oid)) {
        uint32_t oid = int_result_oid(a->oid, b->oid);
        if (a->d.isnull || b->d.isnull) {
            rl_val_null(out, oid);
            return 0;
        }
        int64_t x = a->d.v.i, y = b->d.v.i, r = 0;
        bool ovf = false;
        switch (op) {
        case '+': ovf = __builtin_add_overflow(x, y, &r); break;
        case '-': ovf = __builtin_sub_overflow(x, y, &r); break;
        case '*': ovf = __builtin_mul_overflow(x, y, &r); break;
        default:
            if (y == 0)
                return rl_exec_error(c->x, RL_SQLSTATE_DIVISION_BY_ZERO, -1, "division by zero");
            if (y == -1) { /* INT64_MIN / -1 overflows in C */
                ovf = op == '/' && __builtin_sub_overflow((int64_t)0, x, &r);
                r = op == '/' ? r : 0;
            } else {
                r = op == '/' ? x / y : x % y;
            }
        }
        if (ovf)
            return rl_range_error(c, oid, -1);
        if (rl_int_fits(c, oid, r, -1) < 0)
            return -1;
        rl_val_int(out, oid, r);
        return 0;
    }
    if (rl_oid_is_number(a->oid) && rl_oid_is_number(b->oid) && (rl_oid_is_float(a->oid) || rl_oid_is_float(b->oid))) {
        uint32_t oid = a->oid == RL_OID_FLOAT4 && b->oid == RL_OID_FLOAT4 ? RL_OID_FLOAT4
                                                                         : RL_OID_FLOAT8;
        if (a->d.isnull || b->d.isnull) {
            rl_val_null(out, oid);
            return 0;
        }
        rl_value fa, fb;
        if (rl_number_convert(c, a, RL_OID_FLOAT8, &fa, loc) < 0 ||
            rl_number_convert(c, b, RL_OID_FLOAT8, &fb, loc) < 0)
            return -1;
        double x = fa.d.v.f, y = fb.d.v.f, r;
        switch (op) {
        case '+': r = x + y; break;
        case '-': r = x - y; break;
        case '*': r = x * y; break;
        case '/':
            if (y == 0)
                return rl_exec_error(c->x, RL_SQLSTATE_DIVISION_BY_ZERO, -1, "division by zero");
            r = x / y;
            break;
        default: return op_error(c, "%", a->oid, b->oid, loc);
        }
        rl_val_float(out, oid, r);
        return 0;
    }
    char opname[2] = {op, 0};
    if (numeric_operand(a->oid) && numeric_operand(b->oid))
        return rl_numeric_arith(c, op, a, b, out, loc);
    return op_error(c, opname, a->oid, b->oid, loc);
}

static int concat(rl_expr_ctx *c, const rl_value *a, const rl_value *b, rl_value *out)
{
    if (a->d.isnull || b->d.isnull) {
        rl_val_null(out, RL_OID_TEXT);
        return 0;
    }
    rl_buf buf;
    rl_buf_init(&buf, 0);
    const rl_value *v[2] = {a, b};
    for (int i = 0; i < 2; i++) {
        if (v[i]->oid == RL_OID_UNKNOWN)
            rl_buf_put(&buf, v[i]->d.v.s.p, v[i]->d.v.s.len);
        else if (v[i]->oid == RL_OID_BOOL) /* its text cast's: 'true', not 't' */
            rl_buf_put_str(&buf, v[i]->d.v.b ? "true" : "false");
        else if (v[i]->oid == RL_OID_BPCHAR) /* bpchar's cast to text: no padding */
            rl_buf_put(&buf, v[i]->d.v.s.p, as_text_len(v[i]));
        else
            rl_value_to_text(&buf, v[i]);
    }
    return rl_val_buf_copy(c, out, RL_OID_TEXT, &buf);
}

/* LIKE with % and _ (characters are UTF-8 sequences) and \ as escape. */
static bool like_match(const uint8_t *s, size_t sn, const uint8_t *p, size_t pn)
{
    size_t si = 0, pi = 0, star_p = SIZE_MAX, star_s = 0;
    while (si < sn) {
        if (pi < pn && p[pi] == '%') {
            star_p = ++pi;
            star_s = si;
            continue;
        }
        if (pi < pn && p[pi] == '_') {
            pi++;
            si++;
            while (si < sn && (s[si] & 0xC0) == 0x80)
                si++;
            continue;
        }
        size_t q = pi < pn && p[pi] == '\\' && pi + 1 < pn ? pi + 1 : pi;
        if (q < pn && p[q] == s[si]) {
            pi = q + 1;
            si++;
            continue;
        }
        if (star_p == SIZE_MAX)
            return false;
        pi = star_p; /* backtrack: let the last % swallow one more character */
        si = ++star_s;
        while (si < sn && (s[si] & 0xC0) == 0x80)
            si = ++star_s;
    }
    while (pi < pn && p[pi] == '%')
        pi++;
    return pi == pn;
}

static int to_text_operand(rl_expr_ctx *c, rl_value *v, int loc)
{
    if (v->d.isnull || rl_oid_is_textual(v->oid))
        return 0;
    return op_error(c, "~~", v->oid, RL_OID_TEXT, loc);
}

/* [NOT] LIKE and, icase, [NOT] ILIKE: ILIKE lowers both sides as lower()
 * does, then matches as LIKE (PostgreSQL's Generic_Text_IC_like). */
static int eval_like(rl_expr_ctx *c, const PgQuery__AExpr *e, bool negate, bool icase,
                     rl_value *out)
{
    rl_value s, p;
    if (rl_expr_eval(c, e->lexpr, &s) < 0 || rl_expr_eval(c, e->rexpr, &p) < 0)
        return -1;
    if (to_text_operand(c, &s, e->location) < 0 || to_text_operand(c, &p, e->location) < 0)
        return -1;
    if (s.d.isnull || p.d.isnull) {
        rl_val_null(out, RL_OID_BOOL);
        return 0;
    }
    if (icase && (rl_text_lower(c, &s, &s) < 0 || rl_text_lower(c, &p, &p) < 0))
        return -1;
    bool m = like_match(s.d.v.s.p, s.d.v.s.len, p.d.v.s.p, p.d.v.s.len);
    rl_val_bool(out, negate ? !m : m);
    return 0;
}

/* a <op> b with NULL -> NULL; res = comparison result when both known. */

int rl_sortable_type(rl_exec *x, uint32_t oid, bool ordering, int loc)
{
    if (oid != RL_OID_JSON)
        return 0;
    rl_exec_error(x, RL_SQLSTATE_UNDEFINED_FUNCTION, loc,
                  "could not identify an %s operator for type json",
                  ordering ? "ordering" : "equality");
    if (ordering)
        rl_error_hint(x->err, "Use an explicit ordering operator or modify the query.");
    return -1;
}

/* Is there a comparison operator between the two types (PostgreSQL finds
 * one within a type category)? An unknown literal fits anything. */
static bool types_comparable(uint32_t a, uint32_t b)
{
    if (a == RL_OID_JSON || b == RL_OID_JSON) /* json has no comparison operators */
        return false;
    if (a == RL_OID_JSONB || b == RL_OID_JSONB)
        return a == b || a == RL_OID_UNKNOWN || b == RL_OID_UNKNOWN;
    if (a == b || a == RL_OID_UNKNOWN || b == RL_OID_UNKNOWN)
        return true;
    if (rl_oid_is_composite(a) && rl_oid_is_composite(b)) /* record_eq, btrecordcmp */
        return true;
    if (rl_oid_is_textual(a) && rl_oid_is_textual(b)) /* "char" casts to text implicitly */
        return true;
    char ca = rl_oid_category(a);
    return ca && ca == rl_oid_category(b);
}

static int compare_nodes_values(rl_expr_ctx *c, const rl_value *a, const rl_value *b, int kind,
                                const char *op, int loc, rl_value *out)
{
    if (a->d.isnull || b->d.isnull) { /* the operator must exist all the same */
        if (!types_comparable(a->oid, b->oid))
            return op_error(c, op, a->oid, b->oid, loc);
        rl_val_null(out, RL_OID_BOOL);
        return 0;
    }
    int r;
    if (cmp_op(c, a, b, op, &r, loc) < 0)
        return -1;
    rl_val_bool(out, cmp_holds(kind, r));
    return 0;
}

/* Resolve an unknown literal against the other operand, reporting a bad
 * literal at its own position (as PostgreSQL does), not the operator's. */
static int resolve_operands(rl_expr_ctx *c, rl_value *a, const PgQuery__Node *an, rl_value *b,
                            const PgQuery__Node *bn)
{
    if (a->oid == RL_OID_UNKNOWN && b->oid != RL_OID_UNKNOWN)
        return rl_value_coerce(c, a, b->oid, -1, false, a, rl_node_location(an));
    if (b->oid == RL_OID_UNKNOWN && a->oid != RL_OID_UNKNOWN)
        return rl_value_coerce(c, b, a->oid, -1, false, b, rl_node_location(bn));
    return 0;
}

/* ------------------------------------------------------------ rows */

/* ROW(a, b) / (a, b) as an operand: its fields, or NULL for any other node. */
static const PgQuery__RowExpr *row_of(const PgQuery__Node *n)
{
    return n && n->node_case == PG_QUERY__NODE__NODE_ROW_EXPR ? n->row_expr : NULL;
}

static int eval_row_sublink(rl_expr_ctx *c, const PgQuery__SubLink *sl,
                            const PgQuery__RowExpr *l, const char *op, int loc, rl_value *out);

static int row_arity_error(rl_expr_ctx *c, int loc)
{
    return rl_exec_error(c->x, RL_SQLSTATE_SYNTAX_ERROR, loc,
                         "unequal number of entries in row expressions");
}

/* The fields of a row constructor, evaluated into the arena. */
static int eval_row_fields(rl_expr_ctx *c, const PgQuery__RowExpr *r, rl_value **out)
{
    rl_value *v = rl_arena_alloc(c->arena, (r->n_args + 1) * sizeof *v);
    if (!v)
        return rl_expr_oom(c);
    for (size_t i = 0; i < r->n_args; i++)
        if (rl_expr_eval(c, r->args[i], &v[i]) < 0)
            return -1;
    *out = v;
    return 0;
}

/* a[i] op b[i] for n pairs, as PostgreSQL's make_row_comparison_op builds
 * it: every pair's operator must exist (unknown literals take the other
 * side's type); = is the AND of the pairs, <> their OR; < <= > >= decide
 * at the first pair that is not equal, NULL when a NULL comes first. */
static int row_compare_values(rl_expr_ctx *c, rl_value *a, rl_value *b, size_t n, int kind,
                              const char *op, int loc, rl_value *out)
{
    for (size_t i = 0; i < n; i++) {
        if (resolve_unknown_pair(c, &a[i], &b[i], loc) < 0)
            return -1;
        if (!types_comparable(a[i].oid, b[i].oid))
            return op_error(c, op, a[i].oid, b[i].oid, loc);
    }
    bool any_null = false;
    for (size_t i = 0; i < n; i++) {
        int r;
        if (a[i].d.isnull || b[i].d.isnull) {
            if (kind > 2) { /* ordering: undecided at a NULL */
                rl_val_null(out, RL_OID_BOOL);
                return 0;
            }
            any_null = true;
            continue;
        }
        if (cmp_resolved(c, &a[i], &b[i], op, &r, loc) < 0)
            return -1;
        if (kind > 2 && r != 0) {
            rl_val_bool(out, cmp_holds(kind, r));
            return 0;
        }
        if (kind <= 2 && cmp_holds(kind, r) != (kind == 0)) { /* = false, <> true */
            rl_val_bool(out, kind != 0);
            return 0;
        }
    }
    if (any_null)
        rl_val_null(out, RL_OID_BOOL);
    else
        rl_val_bool(out, cmp_holds(kind, 0));
    return 0;
}

/* row op row, both row constructors. Only comparison operators make a
 * boolean of two rows; PostgreSQL's 42804 for others (pairs of numbers
 * added, ...). */
static int eval_row_op(rl_expr_ctx *c, const PgQuery__RowExpr *l, const PgQuery__RowExpr *r,
                       const char *op, int loc, rl_value *out)
{
    if (l->n_args != r->n_args)
        return row_arity_error(c, loc);
    int kind = cmp_kind(op);
    if (kind < 0)
        return rl_exec_error(c->x, RL_SQLSTATE_DATATYPE_MISMATCH, loc,
                             "row comparison operator must yield type boolean");
    rl_value *a, *b;
    if (eval_row_fields(c, l, &a) < 0 || eval_row_fields(c, r, &b) < 0)
        return -1;
    return row_compare_values(c, a, b, l->n_args, kind, op, loc, out);
}

/* row IS [NOT] DISTINCT FROM row: the OR of the pairs' IS DISTINCT FROM. */
static int eval_row_distinct(rl_expr_ctx *c, const PgQuery__RowExpr *l,
                             const PgQuery__RowExpr *r, bool not_distinct, int loc, rl_value *out)
{
    if (l->n_args != r->n_args)
        return row_arity_error(c, loc);
    rl_value *a, *b;
    if (eval_row_fields(c, l, &a) < 0 || eval_row_fields(c, r, &b) < 0)
        return -1;
    bool distinct = false;
    for (size_t i = 0; i < l->n_args; i++) {
        if (resolve_unknown_pair(c, &a[i], &b[i], loc) < 0)
            return -1;
        if (!types_comparable(a[i].oid, b[i].oid))
            return op_error(c, "=", a[i].oid, b[i].oid, loc);
    }
    for (size_t i = 0; i < l->n_args && !distinct; i++) {
        int cmp = 0;
        if (a[i].d.isnull || b[i].d.isnull)
            distinct = a[i].d.isnull != b[i].d.isnull;
        else if (cmp_resolved(c, &a[i], &b[i], "=", &cmp, loc) < 0)
            return -1;
        distinct |= cmp != 0;
    }
    rl_val_bool(out, not_distinct ? !distinct : distinct);
    return 0;
}

/* ROW(a, b) as a value: a record of fields f1, f2, ... (PostgreSQL's
 * anonymous record type); a NULL of it on the typing row. */
static int eval_row(rl_expr_ctx *c, const PgQuery__RowExpr *r, rl_value *out)
{
    rl_value *v;
    if (eval_row_fields(c, r, &v) < 0)
        return -1;
    if (c->typing) {
        rl_val_null(out, RL_OID_RECORD);
        return 0;
    }
    const char **names = rl_arena_alloc(c->arena, (r->n_args + 1) * sizeof *names);
    if (!names)
        return rl_expr_oom(c);
    for (size_t i = 0; i < r->n_args; i++) {
        char *nm = rl_arena_alloc(c->arena, 24);
        if (!nm)
            return rl_expr_oom(c);
        snprintf(nm, 24, "f%zu", i + 1);
        names[i] = nm;
        if (v[i].oid == RL_OID_UNKNOWN) /* an unknown literal is text in a row */
            v[i].oid = RL_OID_TEXT;
    }
    rl_buf b;
    rl_buf_init(&b, 0);
    rl_record_build(&b, r->n_args, names, v);
    return rl_val_buf_copy(c, out, RL_OID_RECORD, &b);
}

/* ROW(...) IS [NOT] NULL: all fields NULL / none NULL (PostgreSQL's test
 * of a composite value). */
static int eval_row_nulltest(rl_expr_ctx *c, const PgQuery__RowExpr *r, bool is_null,
                             rl_value *out)
{
    rl_value *v;
    if (eval_row_fields(c, r, &v) < 0)
        return -1;
    bool all = true;
    for (size_t i = 0; i < r->n_args && all; i++)
        all = v[i].d.isnull == is_null;
    rl_val_bool(out, all);
    return 0;
}

/* row IN (row, row, ...): the OR of row = row (NOT IN: the AND of
 * row <> row); an item that is no row constructor compares a record with
 * it, which no operator does. */
static int eval_row_in(rl_expr_ctx *c, const PgQuery__AExpr *e, bool negate, rl_value *out)
{
    const PgQuery__RowExpr *l = row_of(e->lexpr);
    const PgQuery__List *list = e->rexpr->list;
    bool saw_null = false, hit = false;
    for (size_t i = 0; i < list->n_items; i++) {
        const PgQuery__RowExpr *r = row_of(list->items[i]);
        rl_value eq;
        if (!r) {
            rl_value rv;
            if (rl_expr_eval(c, list->items[i], &rv) < 0)
                return -1;
            return op_error(c, negate ? "<>" : "=", RL_OID_RECORD, rv.oid, e->location);
        }
        if (eval_row_op(c, l, r, negate ? "<>" : "=", e->location, &eq) < 0)
            return -1;
        if (eq.d.isnull)
            saw_null = true;
        else if (eq.d.v.b != negate && !hit) /* decided; the rest still get typed */
            hit = !c->typing;
    }
    put_folded(out, hit, saw_null, !negate);
    return 0;
}

static int eval_in(rl_expr_ctx *c, const PgQuery__AExpr *e, rl_value *out)
{
    const char *op = op_name(e);
    bool negate = op && strcmp(op, "<>") == 0;
    if (!e->rexpr || e->rexpr->node_case != PG_QUERY__NODE__NODE_LIST)
        return rl_exec_error(c->x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, e->location,
                             "IN with this right-hand side is not supported");
    const PgQuery__List *list = e->rexpr->list;
    if (row_of(e->lexpr))
        return eval_row_in(c, e, negate, out);
    rl_value l;
    if (rl_expr_eval(c, e->lexpr, &l) < 0)
        return -1;
    bool saw_null = l.d.isnull;
    for (size_t i = 0; i < list->n_items; i++) {
        rl_value r, eq;
        rl_value lv = l;
        if (rl_expr_eval(c, list->items[i], &r) < 0 ||
            resolve_operands(c, &lv, e->lexpr, &r, list->items[i]) < 0)
            return -1;
        if (compare_nodes_values(c, &lv, &r, 0, "=", e->location, &eq) < 0)
            return -1;
        if (eq.d.isnull) {
            saw_null = true;
            continue;
        }
        if (eq.d.v.b) {
            rl_val_bool(out, !negate);
            return 0;
        }
    }
    if (saw_null)
        rl_val_null(out, RL_OID_BOOL);
    else
        rl_val_bool(out, negate);
    return 0;
}

static int eval_between(rl_expr_ctx *c, const PgQuery__AExpr *e, rl_value *out)
{
    if (!e->rexpr || e->rexpr->node_case != PG_QUERY__NODE__NODE_LIST || e->rexpr->list->n_items != 2)
        return rl_exec_error(c->x, RL_SQLSTATE_SYNTAX_ERROR, e->location, "malformed BETWEEN");
    bool negate = e->kind == PG_QUERY__A__EXPR__KIND__AEXPR_NOT_BETWEEN ||
                  e->kind == PG_QUERY__A__EXPR__KIND__AEXPR_NOT_BETWEEN_SYM;
    bool sym = e->kind == PG_QUERY__A__EXPR__KIND__AEXPR_BETWEEN_SYM ||
               e->kind == PG_QUERY__A__EXPR__KIND__AEXPR_NOT_BETWEEN_SYM;
    rl_value v, lo, hi, a, b;
    if (rl_expr_eval(c, e->lexpr, &v) < 0 || rl_expr_eval(c, e->rexpr->list->items[0], &lo) < 0 ||
        rl_expr_eval(c, e->rexpr->list->items[1], &hi) < 0)
        return -1;
    if (sym && !lo.d.isnull && !hi.d.isnull) {
        int r;
        if (cmp_op(c, &lo, &hi, "<=", &r, e->location) < 0)
            return -1;
        if (r > 0) {
            rl_value t = lo;
            lo = hi;
            hi = t;
        }
    }
    if (compare_nodes_values(c, &v, &lo, 6, ">=", e->location, &a) < 0 ||
        compare_nodes_values(c, &v, &hi, 5, "<=", e->location, &b) < 0)
        return -1;
    /* a AND b in three-valued logic, then NOT */
    if ((!a.d.isnull && !a.d.v.b) || (!b.d.isnull && !b.d.v.b))
        rl_val_bool(out, negate);
    else if (a.d.isnull || b.d.isnull)
        rl_val_null(out, RL_OID_BOOL);
    else
        rl_val_bool(out, !negate);
    return 0;
}

static int eval_distinct(rl_expr_ctx *c, const PgQuery__AExpr *e, bool not_distinct,
                         rl_value *out)
{
    if (row_of(e->lexpr) && row_of(e->rexpr))
        return eval_row_distinct(c, row_of(e->lexpr), row_of(e->rexpr), not_distinct,
                                 e->location, out);
    rl_value a, b;
    if (rl_expr_eval(c, e->lexpr, &a) < 0 || rl_expr_eval(c, e->rexpr, &b) < 0)
        return -1;
    bool same;
    if (a.d.isnull || b.d.isnull) { /* the = must exist all the same */
        if (!types_comparable(a.oid, b.oid))
            return op_error(c, "=", a.oid, b.oid, e->location);
        same = a.d.isnull && b.d.isnull;
    } else {
        int r;
        if (cmp_op(c, &a, &b, "=", &r, e->location) < 0)
            return -1;
        same = r == 0;
    }
    rl_val_bool(out, not_distinct ? same : !same);
    return 0;
}

/* The result type of each scalar subquery, CASE and COALESCE of the
 * running statement, as its typing found it. For a subquery, so that typing
 * a target list does not run it again: typing evaluates every target once
 * on a typing row, and without this a subquery nested n deep ran 2^n times
 * (once to type each level, once to project it). For a CASE, so that a real
 * row, which evaluates only the chosen branch, gets the type all branches
 * give (an untyped NULL branch: the CASE's type); for a COALESCE, so that a
 * real row evaluates its arguments only up to the first not NULL. Keyed by node and
 * statement execution (rl_exec.id): a node's type is fixed within one
 * execution (its columns and parameters are), not across executions of a
 * shared tree. A node probes TYPE_PROBES slots from its home; a new entry
 * takes a free slot or one of another execution (the oldest); when all are
 * this execution's the table grows (to TYPE_SLOTS_MAX), past that it takes
 * its home: a lost entry costs a subquery one more typing run, a CASE or
 * COALESCE the typing by its results alone (case_untyped, stands_unknown)
 * and COALESCE all its arguments. */
#define TYPE_SLOTS_MIN 256     /* a power of two */
#define TYPE_SLOTS_MAX 65536   /* ... the most it grows to */
#define TYPE_PROBES 8

struct rl_subtype {
    const void *node;
    uint64_t exec;
    uint32_t oid;
    int32_t typmod;
};

void rl_expr_free_subtypes(rl_session *s)
{
    free(s->subtypes);
    s->subtypes = NULL;
    s->nsubtypes = 0;
}

static size_t type_hash(const void *node, size_t slots)
{
    uintptr_t h = (uintptr_t)node;
    h ^= h >> 17;
    return (size_t)(h * 0x9E3779B97F4A7C15u >> 32) & (slots - 1);
}

/* The home slot of node in x's session's table (made on first use), or
 * SIZE_MAX without one (no session, out of memory). */
static size_t type_home(rl_exec *x, const void *node)
{
    rl_session *s = x->s;
    if (s && !s->subtypes && (s->subtypes = calloc(TYPE_SLOTS_MIN, sizeof *s->subtypes)))
        s->nsubtypes = TYPE_SLOTS_MIN;
    if (!s || !s->subtypes)
        return SIZE_MAX;
    if (!x->id)
        x->id = ++s->exec_seq;
    return type_hash(node, s->nsubtypes);
}

/* The type this execution recorded for node: true and *oid, *typmod. */
static bool type_get(rl_exec *x, const void *node, uint32_t *oid, int32_t *typmod)
{
    size_t home = type_home(x, node);
    for (size_t i = 0; home != SIZE_MAX && i < TYPE_PROBES; i++) {
        const rl_subtype *t = &x->s->subtypes[(home + i) & (x->s->nsubtypes - 1)];
        if (t->node == node && t->exec == x->id) {
            *oid = t->oid;
            *typmod = t->typmod;
            return true;
        }
    }
    return false;
}

/* The slot for node among its probes: its own, else a free one or another
 * execution's (the oldest), else NULL (all taken by this execution). */
static rl_subtype *type_slot(rl_exec *x, const void *node, size_t home)
{
    rl_subtype *slot = NULL;
    for (size_t i = 0; i < TYPE_PROBES; i++) {
        rl_subtype *t = &x->s->subtypes[(home + i) & (x->s->nsubtypes - 1)];
        if (t->node == node && t->exec == x->id)
            return t;
        if (t->exec != x->id && (!slot || t->exec < slot->exec))
            slot = t; /* free (exec 0) or another execution's */
    }
    return slot;
}

/* Twice the slots (up to TYPE_SLOTS_MAX), every entry moved; false when it
 * cannot grow. */
static bool type_grow(rl_session *s)
{
    size_t n = s->nsubtypes * 2;
    rl_subtype *t = n <= TYPE_SLOTS_MAX ? calloc(n, sizeof *t) : NULL;
    if (!t)
        return false;
    for (size_t i = 0; i < s->nsubtypes; i++) {
        const rl_subtype *e = &s->subtypes[i];
        size_t h = e->node ? type_hash(e->node, n) : 0;
        for (size_t k = 0; e->node && k < TYPE_PROBES; k++)
            if (!t[(h + k) & (n - 1)].node) {
                t[(h + k) & (n - 1)] = *e;
                break;
            }
    }
    free(s->subtypes);
    s->subtypes = t;
    s->nsubtypes = n;
    return true;
}

static void type_put(rl_exec *x, const void *node, uint32_t oid, int32_t typmod)
{
    size_t home = type_home(x, node);
    if (home == SIZE_MAX)
        return;
    rl_subtype *slot = type_slot(x, node, home);
    if (!slot && type_grow(x->s)) /* this execution types more nodes than fit */
        slot = type_slot(x, node, home = type_hash(node, x->s->nsubtypes));
    if (!slot)
        slot = &x->s->subtypes[home]; /* at the most: one lost, typed again */
    *slot = (rl_subtype){node, x->id, oid, typmod};
}

/* Is the node an untyped literal ('text' or NULL: type unknown to
 * PostgreSQL's parser)? */
static bool untyped_literal(const PgQuery__Node *n)
{
    if (!n || n->node_case != PG_QUERY__NODE__NODE_A_CONST)
        return false;
    const PgQuery__AConst *k = rl_const(n->a_const); /* a shape's literal: this text's */
    return k->isnull || k->val_case == PG_QUERY__A__CONST__VAL_SVAL;
}

/* Does an argument of CASE / COALESCE / GREATEST / LEAST / NULLIF whose
 * value came out of type unknown stand for PostgreSQL's type unknown? An
 * untyped literal does (and a CASE's missing ELSE, NULL), a parameter no
 * type was given for (Describe's before Bind), and so does every such
 * value while typing, where each expression types its NULLs. On a
 * real row another node does not: it is a CASE whose type no typing pass
 * recorded (a VALUES row, a join's pushed-down condition) and whose
 * branches were not all untyped, its real type not known here. */
static bool stands_unknown(const rl_expr_ctx *c, const PgQuery__Node *arg)
{
    return c->typing || !arg || untyped_literal(arg) ||
           arg->node_case == PG_QUERY__NODE__NODE_PARAM_REF;
}

/* An untyped literal among the inputs of CASE / COALESCE taken into their
 * common type, as PostgreSQL does while parsing (also where no row reaches
 * it: its constants are not NULLs here, see rl_exec.unreached): its input
 * error at the literal. Any other node: nothing. */
static int coerce_literal(rl_expr_ctx *c, const PgQuery__Node *n, uint32_t type)
{
    rl_value v;
    if (!untyped_literal(n))
        return 0;
    return rl_eval_const(c, rl_const(n->a_const), &v) < 0 ||
                   rl_value_coerce(c, &v, type, -1, false, &v, rl_node_location(n)) < 0
               ? -1
               : 0;
}

/* The CASE's results in the order PostgreSQL coerces them (the ELSE
 * first, then the WHENs'): the i-th for i in [0, n_args], or NULL. */
static const PgQuery__Node *case_result(const PgQuery__CaseExpr *ce, size_t i)
{
    if (i == 0)
        return ce->defresult;
    const PgQuery__Node *w = ce->args[i - 1];
    return w->node_case == PG_QUERY__NODE__NODE_CASE_WHEN ? w->case_when->result : NULL;
}

/* Are a CASE's results all untyped (its type text, as select_common_type
 * resolves only unknown inputs)? */
static bool case_untyped(const rl_expr_ctx *c, const PgQuery__CaseExpr *ce)
{
    for (size_t i = 0; i <= ce->n_args; i++)
        if (!stands_unknown(c, case_result(ce, i))) /* NULL: no ELSE, a NULL */
            return false;
    return true;
}

/* The type of NULLIF(a, b): the left input type of the = PostgreSQL
 * chooses for a and b. A type with an = of its own, or one across types
 * (int2 / int4 / int8 among themselves, float4 / float8, the date/time
 * types), keeps a's; varchar has none (text's); an integer meets numeric
 * or a float in theirs (numeric, float8), numeric meets a float in float8. */
static uint32_t nullif_type(uint32_t a, uint32_t b)
{
    bool int_a = a == RL_OID_INT2 || a == RL_OID_INT4 || a == RL_OID_INT8;
    bool float_b = b == RL_OID_FLOAT4 || b == RL_OID_FLOAT8;
    /* bpchar meets text in text's =, anything else string in bpchar's */
    if (a == RL_OID_BPCHAR || (b == RL_OID_BPCHAR && a == RL_OID_VARCHAR))
        return b == RL_OID_TEXT ? RL_OID_TEXT : RL_OID_BPCHAR;
    if (a == RL_OID_VARCHAR)
        return RL_OID_TEXT;
    if (int_a && b == RL_OID_NUMERIC)
        return RL_OID_NUMERIC;
    if ((int_a || a == RL_OID_NUMERIC) && float_b)
        return RL_OID_FLOAT8;
    return a;
}

static int eval_nullif(rl_expr_ctx *c, const PgQuery__AExpr *e, rl_value *out)
{
    rl_value a, b;
    if (rl_expr_eval(c, e->lexpr, &a) < 0 || rl_expr_eval(c, e->rexpr, &b) < 0)
        return -1;
    /* NULLIF(a, b) is a = b's: an unknown literal takes the other side's
     * type (its error at the literal), text when both are unknown (the =
     * of text), and the result is of the left side's type */
    if (a.oid == RL_OID_UNKNOWN && b.oid == RL_OID_UNKNOWN && stands_unknown(c, e->lexpr) &&
        stands_unknown(c, e->rexpr) &&
        rl_value_coerce(c, &a, RL_OID_TEXT, -1, false, &a, rl_node_location(e->lexpr)) < 0)
        return -1;
    if (resolve_operands(c, &a, e->lexpr, &b, e->rexpr) < 0)
        return -1;
    uint32_t to = types_comparable(a.oid, b.oid) ? nullif_type(a.oid, b.oid) : a.oid;
    if (to != a.oid && rl_value_coerce(c, &a, to, -1, false, &a, e->location) < 0)
        return -1;
    if ((a.d.isnull || b.d.isnull) && !types_comparable(a.oid, b.oid)) /* it must exist all the same */
        return op_error(c, "=", a.oid, b.oid, e->location);
    if (!a.d.isnull && !b.d.isnull) {
        int r;
        if (cmp_op(c, &a, &b, "=", &r, e->location) < 0)
            return -1;
        if (r == 0) {
            rl_val_null(out, a.oid);
            out->typmod = a.typmod; /* the left side's, as exprTypmod */
            return 0;
        }
    }
    *out = a;
    return 0;
}

/* a || b with an array on a side: array_cat (two arrays, or an unknown
 * literal taken as the other side's array type), array_append (array ||
 * element) or array_prepend (element || array), through the function
 * table's rows, which coerce both to their common element type. Element
 * types of different categories: 42883 for the operator. */
static int array_concat(rl_expr_ctx *c, rl_value *a, rl_value *b, rl_value *out, int loc)
{
    bool aa = rl_array_elem_oid(a->oid) != 0, ba = rl_array_elem_oid(b->oid) != 0;
    const char *fn = (aa && ba) || a->oid == RL_OID_UNKNOWN || b->oid == RL_OID_UNKNOWN
                         ? "array_cat"
                     : aa ? "array_append"
                          : "array_prepend";
    uint32_t ea = aa ? rl_array_elem_oid(a->oid) : a->oid;
    uint32_t eb = ba ? rl_array_elem_oid(b->oid) : b->oid;
    if (ea != RL_OID_UNKNOWN && eb != RL_OID_UNKNOWN && ea != eb &&
        rl_oid_category(ea) != rl_oid_category(eb))
        return op_error(c, "||", a->oid, b->oid, loc);
    const rl_func *f = rl_func_find(fn, 2);
    assert(f);
    rl_value args[2] = {*a, *b};
    return rl_func_call(c, f, 2, args, out, loc, NULL);
}

/* a @> b, a <@ b, a && b on arrays of one type (an unknown literal takes
 * the other side's): boolean, NULL when a side is NULL. */
static int array_containment(rl_expr_ctx *c, const char *op, rl_value *a, rl_value *b,
                             rl_value *out, int loc)
{
    if (a->oid == RL_OID_UNKNOWN && rl_value_coerce(c, a, b->oid, -1, false, a, loc) < 0)
        return -1;
    if (b->oid == RL_OID_UNKNOWN && rl_value_coerce(c, b, a->oid, -1, false, b, loc) < 0)
        return -1;
    if (a->oid != b->oid || !rl_array_elem_oid(a->oid))
        return op_error(c, op, a->oid, b->oid, loc);
    if (a->d.isnull || b->d.isnull) {
        rl_val_null(out, RL_OID_BOOL);
        return 0;
    }
    bool r;
    char kind = op[0] == '@' ? '>' : op[0] == '<' ? '<' : '&';
    if (rl_array_contains(c, kind, a, b, &r, loc) < 0)
        return -1;
    rl_val_bool(out, r);
    return 0;
}

/* A comparison with a constant NULL operand (no column, parameter, call or
 * subquery in it): PostgreSQL's planner folds the strict operator to NULL
 * and never evaluates the other operand, so make_date(23, 71, 88) <>
 * NULL::date is NULL, not 22008, when the other operand is not constant
 * itself (one that is gets folded, so run, first). On the typing row it is
 * still typed (its 42xxx errors are PostgreSQL's parser's), but a data
 * error it raises there (class 22) is not PostgreSQL's. 0 with *out, -1,
 * or 1: not such a comparison. */
static int refers_to_rows(void *ctx, const ProtobufCMessage *m)
{
    (void)ctx;
    return m->descriptor == &pg_query__column_ref__descriptor ||
                   m->descriptor == &pg_query__param_ref__descriptor ||
                   m->descriptor == &pg_query__sub_link__descriptor
               ? -1
               : 0;
}

static int fold_null_operand(rl_expr_ctx *c, const PgQuery__AExpr *e, const char *op,
                             rl_value *out)
{
    if (cmp_kind(op) < 0)
        return 1;
    bool left = rl_expr_is_constant(e->lexpr);
    const PgQuery__Node *k = left ? e->lexpr : rl_expr_is_constant(e->rexpr) ? e->rexpr : NULL;
    /* an other side without columns, parameters or subqueries is folded
     * (so run) first, functions and all */
    if (!k || rl_tree_walk(&(left ? e->rexpr : e->lexpr)->base, refers_to_rows, NULL) == 0)
        return 1;
    rl_value kv, other;
    if (rl_expr_eval(c, k, &kv) < 0)
        return -1;
    if (!kv.d.isnull)
        return 1;
    if (c->typing) {
        if (rl_expr_eval(c, left ? e->rexpr : e->lexpr, &other) == 0)
            return 1; /* typed: the comparison's own checks follow */
        if (strncmp(c->x->err->sqlstate, "22", 2) != 0)
            return -1;
        rl_error_clear(c->x->err);
    }
    rl_val_null(out, RL_OID_BOOL);
    return 0;
}

/* ~ ~* !~ !~*: POSIX regular-expression match (sql_func.c). */
static bool is_regex_op(const char *op)
{
    return strcmp(op, "~") == 0 || strcmp(op, "~*") == 0 || strcmp(op, "!~") == 0 ||
           strcmp(op, "!~*") == 0;
}

static int eval_regex(rl_expr_ctx *c, const char *op, rl_value *a, rl_value *b, rl_value *out,
                      int loc)
{
    if ((a->oid == RL_OID_UNKNOWN && rl_value_coerce(c, a, RL_OID_TEXT, -1, false, a, loc) < 0) ||
        (b->oid == RL_OID_UNKNOWN && rl_value_coerce(c, b, RL_OID_TEXT, -1, false, b, loc) < 0))
        return -1;
    if (!rl_oid_is_textual(a->oid) || !rl_oid_is_textual(b->oid))
        return op_error(c, op, a->oid, b->oid, loc);
    if (a->d.isnull || b->d.isnull) {
        rl_val_null(out, RL_OID_BOOL);
        return 0;
    }
    bool m;
    if (rl_regex_match(c, a, b, strchr(op, '*') != NULL, &m, loc) < 0)
        return -1;
    rl_val_bool(out, op[0] == '!' ? !m : m);
    return 0;
}

/* The json and jsonb operators: -> ->> #> #>> (both), #- @> <@ ? ?| ?&
 * (jsonb); 1 when the operands are not theirs. */
static bool is_json_op(const char *op)
{
    static const char *const ops[] = {"->", "->>", "#>", "#>>", "#-", "@>", "<@", "?", "?|", "?&"};
    for (size_t i = 0; i < sizeof ops / sizeof ops[0]; i++)
        if (strcmp(op, ops[i]) == 0)
            return true;
    return false;
}

static int json_op(rl_expr_ctx *c, const char *op, rl_value *a, rl_value *b, rl_value *out,
                   int loc)
{
    bool json = a->oid == RL_OID_JSON || a->oid == RL_OID_JSONB;
    /* -> ->> #> #>> exist for json and jsonb alike: an unknown left
     * operand fits both */
    if ((op[0] == '-' || (op[0] == '#' && op[1] == '>')) && a->oid == RL_OID_UNKNOWN)
        return op_ambiguous(c, op, &a->oid, b->oid, loc);
    if (op[0] == '-' && json) {
        if (b->oid == RL_OID_UNKNOWN && rl_value_coerce(c, b, RL_OID_TEXT, -1, false, b, loc) < 0)
            return -1;
        if (rl_oid_is_textual(b->oid) || b->oid == RL_OID_INT4 || b->oid == RL_OID_INT2)
            return rl_json_get(c, a, b, op[2] == '>', out);
        return op_error(c, op, a->oid, b->oid, loc);
    }
    if (strcmp(op, "#-") == 0) { /* jsonb_delete_path, the only #- */
        if (a->oid == RL_OID_UNKNOWN &&
            rl_value_coerce(c, a, RL_OID_JSONB, -1, false, a, loc) < 0)
            return -1;
        if (b->oid == RL_OID_UNKNOWN &&
            rl_value_coerce(c, b, RL_OID_TEXT_ARRAY, -1, false, b, loc) < 0)
            return -1;
        if (a->oid == RL_OID_JSONB && (b->oid == RL_OID_TEXT_ARRAY || b->oid == 1015))
            return rl_jsonb_delete_path(c, a, b, out, loc);
        return op_error(c, op, a->oid, b->oid, loc);
    }
    if (op[0] == '#' && json) {
        if (b->oid == RL_OID_UNKNOWN &&
            rl_value_coerce(c, b, RL_OID_TEXT_ARRAY, -1, false, b, loc) < 0)
            return -1;
        if (b->oid == RL_OID_TEXT_ARRAY || b->oid == 1015)
            return rl_json_get_path(c, a, b, op[2] == '>', out);
        return op_error(c, op, a->oid, b->oid, loc);
    }
    if (op[0] == '@' || op[0] == '<') {
        if (a->oid == RL_OID_JSONB && b->oid == RL_OID_UNKNOWN &&
            rl_value_coerce(c, b, RL_OID_JSONB, -1, false, b, loc) < 0)
            return -1;
        if (b->oid == RL_OID_JSONB && a->oid == RL_OID_UNKNOWN &&
            rl_value_coerce(c, a, RL_OID_JSONB, -1, false, a, loc) < 0)
            return -1;
        if (a->oid != RL_OID_JSONB || b->oid != RL_OID_JSONB)
            return json || b->oid == RL_OID_JSON || b->oid == RL_OID_JSONB
                       ? op_error(c, op, a->oid, b->oid, loc)
                       : 1;
        rl_val_null(out, RL_OID_BOOL);
        if (a->d.isnull || b->d.isnull)
            return 0;
        bool r;
        if (rl_jsonb_contains(c, op[0] == '@' ? a : b, op[0] == '@' ? b : a, &r) < 0)
            return -1;
        rl_val_bool(out, r);
        return 0;
    }
    if (op[0] == '?') {
        uint32_t want = op[1] ? RL_OID_TEXT_ARRAY : RL_OID_TEXT;
        if (a->oid == RL_OID_JSONB && b->oid == RL_OID_UNKNOWN &&
            rl_value_coerce(c, b, want, -1, false, b, loc) < 0)
            return -1;
        bool ok = a->oid == RL_OID_JSONB &&
                  (op[1] ? b->oid == RL_OID_TEXT_ARRAY || b->oid == 1015
                         : rl_oid_is_textual(b->oid) && b->oid != RL_OID_CHAR);
        if (!ok)
            return op_error(c, op, a->oid, b->oid, loc);
        rl_val_null(out, RL_OID_BOOL);
        if (a->d.isnull || b->d.isnull)
            return 0;
        if (!op[1]) {
            rl_val_bool(out, rl_jsonb_exists(a, b->d.v.s.p, b->d.v.s.len));
            return 0;
        }
        bool all = op[1] == '&', res = all;
        rl_buf el;
        rl_buf_init(&el, 0);
        size_t pos = 0;
        bool isnull;
        while (res == all && rl_elem_next(b, &pos, &el, &isnull))
            if (!isnull)
                res = rl_jsonb_exists(a, el.data ? el.data : (const uint8_t *)"", el.len);
        rl_buf_free(&el);
        rl_val_bool(out, res);
        return 0;
    }
    return json ? op_error(c, op, a->oid, b->oid, loc) : 1;
}

/* x ^ y: numeric_power when either is numeric (and neither a float), else
 * dpow on double precision (integers included, as PostgreSQL resolves
 * them); a NULL of the result's type for a NULL. */
static int power_op(rl_expr_ctx *c, rl_value *a, const PgQuery__Node *an, rl_value *b,
                    const PgQuery__Node *bn, rl_value *out, int loc)
{
    if (a->oid == RL_OID_UNKNOWN && b->oid == RL_OID_UNKNOWN)
        return op_ambiguous(c, "^", &a->oid, b->oid, loc);
    if (resolve_operands(c, a, an, b, bn) < 0)
        return -1;
    if (!rl_oid_is_number(a->oid) || !rl_oid_is_number(b->oid))
        return op_error(c, "^", a->oid, b->oid, loc);
    bool numeric = !rl_oid_is_float(a->oid) && !rl_oid_is_float(b->oid) &&
                   (a->oid == RL_OID_NUMERIC || b->oid == RL_OID_NUMERIC);
    uint32_t t = numeric ? RL_OID_NUMERIC : RL_OID_FLOAT8;
    rl_value args[2];
    if (a->d.isnull || b->d.isnull) {
        rl_val_null(out, t);
        return 0;
    }
    if (rl_number_convert(c, a, t, &args[0], loc) < 0 ||
        rl_number_convert(c, b, t, &args[1], loc) < 0)
        return -1;
    return rl_fn_power(c, 2, args, out, loc);
}

/* The prefix operators |/ (dsqrt), ||/ (dcbrt) of float8 and @ (the abs of
 * each number type): 0 done, -1 error, 1 not one of them. */
static int prefix_math(rl_expr_ctx *c, const char *op, rl_value *b, rl_value *out, int loc)
{
    bool root = strcmp(op, "|/") == 0, cube = strcmp(op, "||/") == 0;
    if (!root && !cube && strcmp(op, "@") != 0)
        return 1;
    /* an unknown literal takes the numeric category's preferred type */
    if (b->oid == RL_OID_UNKNOWN && rl_value_coerce(c, b, RL_OID_FLOAT8, -1, false, b, loc) < 0)
        return -1;
    if ((root || cube) && b->oid != RL_OID_FLOAT8 &&
        rl_value_coerce(c, b, RL_OID_FLOAT8, -1, false, b, loc) < 0)
        return -1;
    if (b->d.isnull) {
        rl_val_null(out, b->oid);
        return 0;
    }
    if (root)
        return rl_fn_sqrt(c, 1, b, out, loc);
    if (cube)
        return rl_fn_cbrt(c, 1, b, out, loc);
    return rl_fn_abs(c, 1, b, out, loc);
}

static int eval_aexpr(rl_expr_ctx *c, const PgQuery__AExpr *e, rl_value *out);

/* ROW(...) op ROW(...) with an operator that is no comparison: as
 * PostgreSQL's make_row_comparison_op, the first fields' operator is
 * resolved (its own 42883 if there is none) and its result type named in
 * 42804 "row comparison operator must yield type boolean, not type T". */
static int row_op_not_boolean(rl_expr_ctx *c, const PgQuery__AExpr *e, const char *op)
{
    PgQuery__AExpr first = *e;
    first.lexpr = row_of(e->lexpr)->args[0];
    first.rexpr = row_of(e->rexpr)->args[0];
    rl_expr_ctx sub = *c;
    sub.typing = true;
    rl_value v;
    if (eval_aexpr(&sub, &first, &v) < 0)
        return -1;
    if (v.oid == RL_OID_BOOL) /* boolean, but no btree comparison (~, @>) */
        return rl_exec_error(c->x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, e->location,
                             "could not determine interpretation of row comparison operator %s",
                             op);
    return rl_exec_error(c->x, RL_SQLSTATE_DATATYPE_MISMATCH, e->location,
                         "row comparison operator must yield type boolean, not type %s",
                         rl_oid_type_name(v.oid));
}

static int eval_op(rl_expr_ctx *c, const PgQuery__AExpr *e, rl_value *out)
{
    const char *op = op_name(e);
    if (!op)
        return rl_exec_error(c->x, RL_SQLSTATE_SYNTAX_ERROR, e->location, "malformed operator");
    rl_value a, b;
    if (!e->lexpr) { /* prefix operator */
        if (rl_expr_eval(c, e->rexpr, &b) < 0)
            return -1;
        /* oid is of the numeric category but has no prefix operators */
        bool number = rl_oid_is_number(b.oid) && b.oid != RL_OID_OID;
        if (strcmp(op, "+") == 0 && number) {
            *out = b;
            return 0;
        }
        if (strcmp(op, "+") == 0 && b.oid == RL_OID_UNKNOWN) /* float8up, the preferred */
            return rl_value_coerce(c, &b, RL_OID_FLOAT8, -1, false, out, e->location);
        if (strcmp(op, "-") == 0 && b.oid == RL_OID_INTERVAL)
            return rl_interval_negate(c, &b, out);
        if (strcmp(op, "-") == 0 && number) {
            rl_value zero;
            rl_val_int(&zero, RL_OID_INT2, 0);
            if (b.oid == RL_OID_NUMERIC) {
                if (b.d.isnull) {
                    *out = b;
                    return 0;
                }
                return rl_numeric_negate(c, &b, out, e->location);
            }
            if (rl_oid_is_float(b.oid)) { /* float4um / float8um keep the type */
                if (b.d.isnull)
                    *out = b;
                else
                    rl_val_float(out, b.oid, -b.d.v.f);
                return 0;
            }
            return arith(c, '-', &zero, &b, out, e->location);
        }
        /* ~ (int2/4/8not, bit_not, inetnot) and - (numbers' and
         * interval's: two categories) fit an unknown operand several ways;
         * + is the numbers' only, so float8 is preferred */
        if ((strcmp(op, "~") == 0 || strcmp(op, "-") == 0) && b.oid == RL_OID_UNKNOWN)
            return op_ambiguous(c, op, NULL, b.oid, e->location);
        if (strcmp(op, "~") == 0 && plain_int(b.oid)) { /* int2not, int4not, int8not */
            if (b.d.isnull)
                *out = b;
            else
                rl_val_int(out, b.oid, ~b.d.v.i);
            return 0;
        }
        if (number || b.oid == RL_OID_UNKNOWN) {
            int r = prefix_math(c, op, &b, out, e->location);
            if (r <= 0)
                return r;
        }
        return rl_exec_error(c->x, RL_SQLSTATE_UNDEFINED_FUNCTION, e->location,
                             "operator does not exist: %s %s", op,
                             rl_oid_type_name(b.oid));
    }
    if (row_of(e->lexpr) && row_of(e->rexpr) && cmp_kind(op) < 0 &&
        row_of(e->lexpr)->n_args == row_of(e->rexpr)->n_args && row_of(e->lexpr)->n_args)
        return row_op_not_boolean(c, e, op);
    if (row_of(e->lexpr) && row_of(e->rexpr))
        return eval_row_op(c, row_of(e->lexpr), row_of(e->rexpr), op, e->location, out);
    if (row_of(e->lexpr) && e->rexpr->node_case == PG_QUERY__NODE__NODE_SUB_LINK &&
        e->rexpr->sub_link->sub_link_type == PG_QUERY__SUB_LINK_TYPE__EXPR_SUBLINK)
        return eval_row_sublink(c, e->rexpr->sub_link, row_of(e->lexpr), op, e->location, out);
    int folded = fold_null_operand(c, e, op, out);
    if (folded != 1)
        return folded;
    if (rl_expr_eval(c, e->lexpr, &a) < 0 || rl_expr_eval(c, e->rexpr, &b) < 0)
        return -1;
    int kind = cmp_kind(op);
    /* a record's or a row's comparison operator takes `record` (record_eq
     * ...): an untyped literal beside it would need anonymous record
     * input (IN's list is typed by the row's type instead) */
    bool ua = a.oid == RL_OID_UNKNOWN, ub = b.oid == RL_OID_UNKNOWN;
    if (kind >= 0 && ((ua && rl_oid_is_composite(b.oid)) || (ub && rl_oid_is_composite(a.oid))))
        return rl_exec_error(c->x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED,
                             rl_node_location(ua ? e->lexpr : e->rexpr),
                             "input of anonymous composite types is not implemented");
    if (kind >= 0 && resolve_operands(c, &a, e->lexpr, &b, e->rexpr) < 0)
        return -1;
    if (kind >= 0)
        return compare_nodes_values(c, &a, &b, kind, op, e->location, out);
    if (strcmp(op, "||") == 0 && (rl_array_elem_oid(a.oid) || rl_array_elem_oid(b.oid)))
        return array_concat(c, &a, &b, out, e->location);
    if (strcmp(op, "||") == 0 && (a.oid == RL_OID_JSONB || b.oid == RL_OID_JSONB) &&
        (a.oid == RL_OID_JSONB || a.oid == RL_OID_UNKNOWN) &&
        (b.oid == RL_OID_JSONB || b.oid == RL_OID_UNKNOWN)) {
        if (rl_value_coerce(c, &a, RL_OID_JSONB, -1, false, &a, e->location) < 0 ||
            rl_value_coerce(c, &b, RL_OID_JSONB, -1, false, &b, e->location) < 0)
            return -1;
        return rl_jsonb_concat(c, &a, &b, out, e->location);
    }
    if (strcmp(op, "||") == 0 && (a.oid == RL_OID_JSON || a.oid == RL_OID_JSONB) &&
        (b.oid == RL_OID_JSON || b.oid == RL_OID_JSONB)) /* json || json: none */
        return op_error(c, op, a.oid, b.oid, e->location);
    if (strcmp(op, "||") == 0 && (a.oid == RL_OID_BYTEA || b.oid == RL_OID_BYTEA) &&
        (a.oid == RL_OID_BYTEA || a.oid == RL_OID_UNKNOWN) &&
        (b.oid == RL_OID_BYTEA || b.oid == RL_OID_UNKNOWN)) { /* byteacat */
        if (rl_value_coerce(c, &a, RL_OID_BYTEA, -1, false, &a, e->location) < 0 ||
            rl_value_coerce(c, &b, RL_OID_BYTEA, -1, false, &b, e->location) < 0)
            return -1;
        return rl_bytea_concat(c, &a, &b, out);
    }
    if (strcmp(op, "||") == 0 && !rl_oid_is_textual(a.oid) && a.oid != RL_OID_UNKNOWN &&
        !rl_oid_is_textual(b.oid) && b.oid != RL_OID_UNKNOWN) /* a text side is needed */
        return op_error(c, op, a.oid, b.oid, e->location);
    if (strcmp(op, "||") == 0)
        return concat(c, &a, &b, out);
    if (strlen(op) == 1 && strchr("+-*/", op[0])) {
        int dt = rl_datetime_op(c, op[0], &a, &b, out, e->location);
        if (dt <= 0)
            return dt;
    }
    /* unknown - text / text[]: jsonb_delete is the only - taking a string
     * or a string array on its right */
    if (strcmp(op, "-") == 0 && a.oid == RL_OID_UNKNOWN && b.oid != RL_OID_UNKNOWN &&
        ((rl_oid_is_textual(b.oid) && b.oid != RL_OID_CHAR) || b.oid == RL_OID_TEXT_ARRAY ||
         b.oid == 1015) &&
        rl_value_coerce(c, &a, RL_OID_JSONB, -1, false, &a, e->location) < 0)
        return -1;
    if (strcmp(op, "-") == 0 && a.oid == RL_OID_JSONB) { /* jsonb_delete[_array|_idx] */
        if (b.oid == RL_OID_UNKNOWN &&
            rl_value_coerce(c, &b, RL_OID_TEXT, -1, false, &b, e->location) < 0)
            return -1;
        if ((rl_oid_is_textual(b.oid) && b.oid != RL_OID_CHAR) || b.oid == RL_OID_INT4 ||
            b.oid == RL_OID_INT2 || b.oid == RL_OID_TEXT_ARRAY || b.oid == 1015)
            return rl_jsonb_delete(c, &a, &b, out);
        return op_error(c, op, a.oid, b.oid, e->location);
    }
    if (strlen(op) == 1 && strchr("+-*/%", op[0])) {
        if (a.oid == RL_OID_UNKNOWN && b.oid == RL_OID_UNKNOWN)
            return rl_exec_error(c->x, RL_SQLSTATE_AMBIGUOUS_FUNCTION, e->location,
                                 "operator is not unique: unknown %s unknown", op);
        uint32_t known = a.oid == RL_OID_UNKNOWN ? b.oid : b.oid == RL_OID_UNKNOWN ? a.oid : 0;
        char kc = rl_oid_category(known);
        if (known && kc != 'N' && kc != 'D' && kc != 'T') /* arrays, booleans, strings...: */
            return op_error(c, op, a.oid, b.oid, e->location); /* no operator to type it */
        if (resolve_operands(c, &a, e->lexpr, &b, e->rexpr) < 0)
            return -1;
        return arith(c, op[0], &a, &b, out, e->location);
    }
    if (strcmp(op, "^") == 0)
        return power_op(c, &a, e->lexpr, &b, e->rexpr, out, e->location);
    if (is_bitwise_op(op)) {
        if (a.oid == RL_OID_UNKNOWN && b.oid == RL_OID_UNKNOWN)
            return op_ambiguous(c, op, &a.oid, b.oid, e->location);
        if (resolve_operands(c, &a, e->lexpr, &b, e->rexpr) < 0)
            return -1;
        return bitwise(c, op, &a, &b, out, e->location);
    }
    if ((strcmp(op, "@>") == 0 || strcmp(op, "<@") == 0 || strcmp(op, "&&") == 0) &&
        (rl_array_elem_oid(a.oid) || rl_array_elem_oid(b.oid)))
        return array_containment(c, op, &a, &b, out, e->location);
    if (is_json_op(op)) {
        int r = json_op(c, op, &a, &b, out, e->location);
        if (r <= 0)
            return r;
    }
    if (strcmp(op, "~~") == 0 || strcmp(op, "!~~") == 0)
        return eval_like(c, e, op[0] == '!', false, out);
    if (strcmp(op, "~~*") == 0 || strcmp(op, "!~~*") == 0)
        return eval_like(c, e, op[0] == '!', true, out);
    if (is_regex_op(op))
        return eval_regex(c, op, &a, &b, out, e->location);
    return rl_exec_error(c->x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, e->location,
                         "operator %s is not supported", op);
}

/* x op ANY (array) / x op ALL (array), op a comparison: the three-valued
 * OR (AND) of x op each element. An unknown literal array takes x's array
 * type. */
static int eval_op_any(rl_expr_ctx *c, const PgQuery__AExpr *e, bool all, rl_value *out)
{
    const char *op = op_name(e);
    int kind = op ? cmp_kind(op) : -1;
    if (kind < 0)
        return rl_exec_error(c->x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, e->location,
                             "operator %s ANY/ALL (array) is not supported", op ? op : "");
    rl_value l, arr;
    if (rl_expr_eval(c, e->lexpr, &l) < 0 || rl_expr_eval(c, e->rexpr, &arr) < 0)
        return -1;
    /* an unknown literal takes the array's element type ('d' = ANY (a
     * "char"[])), and is text against an unknown array */
    uint32_t l_as = rl_array_elem_oid(arr.oid) ? rl_array_elem_oid(arr.oid) : RL_OID_TEXT;
    if (arr.oid == RL_OID_INT2VECTOR)
        l_as = RL_OID_INT2;
    if (l.oid == RL_OID_UNKNOWN && rl_value_coerce(c, &l, l_as, -1, false, &l, e->location) < 0)
        return -1;
    if (arr.oid == RL_OID_UNKNOWN) {
        uint32_t t = rl_array_oid_of(l.oid);
        if (!t || rl_value_coerce(c, &arr, t, -1, false, &arr, e->location) < 0)
            return t ? -1 : op_error(c, op, l.oid, arr.oid, e->location);
    }
    uint32_t elem = rl_array_elem_oid(arr.oid);
    if (arr.oid == RL_OID_INT2VECTOR)
        elem = RL_OID_INT2;
    if (!elem)
        return rl_exec_error(c->x, RL_SQLSTATE_WRONG_OBJECT_TYPE, e->location,
                             "op ANY/ALL (array) requires array on right side");
    if (!types_comparable(l.oid, elem)) /* also when no element is compared */
        return op_error(c, op, l.oid, elem, e->location);
    if (l.d.isnull || arr.d.isnull) {
        rl_val_null(out, RL_OID_BOOL);
        return 0;
    }
    rl_buf el;
    rl_buf_init(&el, 0);
    size_t pos = 0;
    bool isnull, saw_null = false, decided = false;
    const char *p = (const char *)arr.d.v.s.p;
    size_t len = arr.d.v.s.len;
    int rc = 0;
    while (rc == 0 && !decided) {
        bool more;
        if (arr.oid == RL_OID_INT2VECTOR) { /* "1 2 3": blank-separated */
            while (pos < len && p[pos] == ' ')
                pos++;
            more = pos < len;
            rl_buf_reset(&el);
            for (; more && pos < len && p[pos] != ' '; pos++)
                rl_buf_put(&el, &p[pos], 1);
            isnull = false;
        } else {
            more = rl_array_next(p, len, &pos, &el, &isnull) == 1;
        }
        if (!more)
            break;
        if (isnull) {
            saw_null = true;
            continue;
        }
        rl_value v, r;
        rc = rl_text_to_value(c, el.len ? (const char *)el.data : "", el.len, elem, -1, false, &v,
                              e->location);
        if (rc == 0)
            rc = compare_nodes_values(c, &l, &v, kind, op, e->location, &r);
        if (rc == 0 && r.d.isnull)
            saw_null = true;
        else if (rc == 0 && r.d.v.b != all)
            decided = true; /* ANY: a true one; ALL: a false one */
    }
    rl_buf_free(&el);
    if (rc < 0)
        return -1;
    put_folded(out, decided, saw_null, !all);
    return 0;
}

/* An operator's error as PostgreSQL words it, where this evaluation
 * resolved an untyped literal operand before failing: 42883 names its type
 * unknown ("operator does not exist: json <> unknown"), and the literal's
 * input error (class 22) points at the literal, not the operator. Only
 * errors raised at this operator (its position) are touched. */
static int op_literal_error(rl_expr_ctx *c, const PgQuery__AExpr *e, const char *op)
{
    rl_error *err = c->x->err;
    if (!err || !op || err->position != rl_exec_position(c->x, e->location))
        return -1;
    bool l = untyped_literal(e->lexpr), r = untyped_literal(e->rexpr);
    static const char prefix[] = "operator does not exist: ";
    if (strcmp(err->sqlstate, RL_SQLSTATE_UNDEFINED_FUNCTION) == 0 && (l || r) &&
        strncmp(err->message, prefix, sizeof prefix - 1) == 0) {
        const char *types = err->message + sizeof prefix - 1;
        char sep[64];
        snprintf(sep, sizeof sep, "%s%s ", e->lexpr ? " " : "", op);
        const char *at = e->lexpr ? strstr(types, sep) : strncmp(types, sep, strlen(sep)) == 0
                                                              ? types
                                                              : NULL;
        if (!at)
            return -1;
        char left[sizeof err->message], right[sizeof err->message];
        snprintf(left, sizeof left, "%.*s", (int)(at - types), types);
        snprintf(right, sizeof right, "%s", at + strlen(sep));
        rl_buf m;
        rl_buf_init(&m, 0);
        rl_buf_printf(&m, "%s%s%s%s", prefix, l ? "unknown" : left, sep, r ? "unknown" : right);
        if (!m.failed)
            snprintf(err->message, sizeof err->message, "%.*s", (int)m.len, (const char *)m.data);
        rl_buf_free(&m);
        return -1;
    }
    if (strncmp(err->sqlstate, "22", 2) == 0 && l != r)
        err->position = rl_exec_position(c->x, rl_node_location(l ? e->lexpr : e->rexpr));
    return -1;
}

static int eval_aexpr(rl_expr_ctx *c, const PgQuery__AExpr *e, rl_value *out)
{
    switch (e->kind) {
    case PG_QUERY__A__EXPR__KIND__AEXPR_OP:
        return eval_op(c, e, out) == 0 ? 0 : op_literal_error(c, e, op_name(e));
    case PG_QUERY__A__EXPR__KIND__AEXPR_OP_ANY: return eval_op_any(c, e, false, out);
    case PG_QUERY__A__EXPR__KIND__AEXPR_OP_ALL: return eval_op_any(c, e, true, out);
    case PG_QUERY__A__EXPR__KIND__AEXPR_IN: return eval_in(c, e, out);
    case PG_QUERY__A__EXPR__KIND__AEXPR_LIKE:
    case PG_QUERY__A__EXPR__KIND__AEXPR_ILIKE: {
        const char *op = op_name(e);
        return eval_like(c, e, op && op[0] == '!', e->kind == PG_QUERY__A__EXPR__KIND__AEXPR_ILIKE,
                         out);
    }
    /* x SIMILAR TO p: the grammar wrote x ~ similar_to_escape(p) */
    case PG_QUERY__A__EXPR__KIND__AEXPR_SIMILAR: return eval_op(c, e, out);
    case PG_QUERY__A__EXPR__KIND__AEXPR_BETWEEN:
    case PG_QUERY__A__EXPR__KIND__AEXPR_NOT_BETWEEN:
    case PG_QUERY__A__EXPR__KIND__AEXPR_BETWEEN_SYM:
    case PG_QUERY__A__EXPR__KIND__AEXPR_NOT_BETWEEN_SYM: return eval_between(c, e, out);
    case PG_QUERY__A__EXPR__KIND__AEXPR_DISTINCT: return eval_distinct(c, e, false, out);
    case PG_QUERY__A__EXPR__KIND__AEXPR_NOT_DISTINCT: return eval_distinct(c, e, true, out);
    case PG_QUERY__A__EXPR__KIND__AEXPR_NULLIF: return eval_nullif(c, e, out);
    default:
        return rl_exec_error(c->x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, e->location,
                             "this operator form is not supported");
    }
}

/* ------------------------------------------------------------ casts etc. */

/* The table a cast's type name names when it is no type of the engine's
 * (a temporary one too), whose row type it means: 1 (into rel), 0 none
 * (the cast's own 42704 follows). */
static int cast_rowtype(rl_expr_ctx *c, const PgQuery__TypeName *tn, rl_relation *rel)
{
    const char *name = tn && tn->n_names ? rl_node_string(tn->names[tn->n_names - 1]) : NULL;
    const char *schema = tn && tn->n_names == 2 ? rl_node_string(tn->names[0]) : NULL;
    if (!name || tn->n_names > 2 || tn->n_array_bounds > 1 || tn->n_typmods || tn->setof ||
        (tn->n_names == 2 && !schema) || rl_type_oid_by_name(name))
        return 0;
    rl_error keep = *c->x->err;
    if (rl_relation_lookup(c->x, schema, name, rel) < 0 ||
        (rel->kind != RL_REL_STORED && rel->kind != RL_REL_TEMP)) {
        *c->x->err = keep; /* not a table: the cast's "type does not exist" */
        return 0;
    }
    return 1;
}

/* The fields of a non-NULL record. */
static size_t record_nfields(const rl_value *rec)
{
    size_t n, nulls;
    rl_record_nulls(rec, &n, &nulls);
    return n;
}

/* x::t for a table t: PostgreSQL's cast to the table's row type. A row or
 * record converts field by field to the columns' types
 * (coerce_record_to_complex: 42846 for another number of fields), text
 * reads as record_in reads it (rl_text_to_value), a value of t is itself;
 * nothing else casts (42846). x::t[]: text as array_in of t reads it, a
 * t[] itself. 1 done, 0 not such a cast, -1 error. */
static int eval_rowtype_cast(rl_expr_ctx *c, const PgQuery__TypeCast *tc, rl_value *out)
{
    rl_relation rel;
    if (cast_rowtype(c, tc->type_name, &rel) == 0)
        return 0;
    bool array = tc->type_name->n_array_bounds > 0;
    uint32_t type = array ? rl_array_oid_of(rl_rowtype_oid(rel.oid)) : rl_rowtype_oid(rel.oid);
    size_t n = rl_relation_ncols(c->x, &rel);
    const PgQuery__RowExpr *row = array ? NULL : row_of(tc->arg);
    rl_value v, *vals = NULL;
    if (row ? eval_row_fields(c, row, &vals) < 0 : rl_expr_eval(c, tc->arg, &v) < 0)
        return -1;
    uint32_t from = row ? RL_OID_RECORD : v.oid;
    if (!row && (from == RL_OID_UNKNOWN || rl_oid_is_textual(from))) { /* record_in, array_in */
        if (v.d.isnull || c->typing) {
            rl_val_null(out, type);
            return 1;
        }
        return rl_text_to_value(c, (const char *)v.d.v.s.p, v.d.v.s.len, type, -1, true, out,
                                from == RL_OID_UNKNOWN ? rl_node_location(tc->arg) : -1) < 0
                   ? -1
                   : 1;
    }
    if (!row && from != type && (array || !rl_oid_is_composite(from)))
        return rl_exec_error(c->x, RL_SQLSTATE_CANNOT_COERCE, tc->location,
                             "cannot cast type %s to %s%s", rl_type_name_in(c->x, from), rel.name,
                             array ? "[]" : "");
    if (!row && (from == type || v.d.isnull || c->typing)) { /* a t already, or NULL */
        if (from == type)
            *out = v;
        else
            rl_val_null(out, type);
        return 1;
    }
    size_t have = row ? row->n_args : record_nfields(&v);
    if (have != n) {
        rl_exec_error(c->x, RL_SQLSTATE_CANNOT_COERCE, tc->location,
                      "cannot cast type record to %s", rel.name);
        rl_error_detail(c->x->err, "Input has too %s columns.", have < n ? "few" : "many");
        return -1;
    }
    const char **names = rl_arena_alloc(c->arena, (n + 1) * sizeof *names);
    rl_value *fields = rl_arena_alloc(c->arena, (n + 1) * sizeof *fields);
    if (!names || !fields)
        return rl_expr_oom(c);
    rl_record_pos pos = {0, 0};
    rl_buf text;
    rl_buf_init(&text, 0);
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < n; i++) {
        uint32_t t;
        int32_t typmod;
        rl_relation_col(&rel, i, &names[i], &t, &typmod);
        rl_value f = row ? vals[i] : (rl_value){0};
        if (!row) { /* the record's field i, read by its own type */
            const char *fname;
            size_t flen;
            bool isnull;
            rl_record_next(&v, &pos, &fname, &flen, &f.oid, &text, &isnull);
            rc = record_field_value(c, f.oid, &text, isnull, &f, -1);
            if (rc == 0 && rl_value_own(c->arena, &f) < 0)
                rc = rl_expr_oom(c);
        }
        if (rc == 0)
            rc = rl_value_coerce(c, &f, t, typmod, true, &fields[i],
                                 row ? rl_node_location(row->args[i]) : -1);
    }
    rl_buf_free(&text);
    if (rc < 0)
        return -1;
    if (c->typing) {
        rl_val_null(out, type);
        return 1;
    }
    rl_buf b;
    rl_buf_init(&b, 0);
    rl_record_build(&b, n, names, fields);
    return rl_val_buf_copy(c, out, type, &b) < 0 ? -1 : 1;
}

static int eval_typecast(rl_expr_ctx *c, const PgQuery__TypeCast *tc, rl_value *out)
{
    int r = eval_rowtype_cast(c, tc, out);
    if (r != 0)
        return r < 0 ? -1 : 0;
    return rl_eval_typecast(c, tc, rl_expr_eval, out);
}

static int eval_collate(rl_expr_ctx *c, const PgQuery__CollateClause *cc, rl_value *out)
{
    const char *name = cc->n_collname ? rl_node_string(cc->collname[cc->n_collname - 1]) : NULL;
    if (!name || (strcmp(name, "C") != 0 && strcmp(name, "POSIX") != 0 &&
                  strcmp(name, "default") != 0 && strcmp(name, "ucs_basic") != 0))
        return rl_exec_error(c->x, RL_SQLSTATE_UNDEFINED_OBJECT, cc->location,
                             "collation \"%s\" for encoding \"UTF8\" does not exist",
                             name ? name : "");
    /* our strings always compare bytewise, which is what "C" means */
    return rl_expr_eval(c, cc->arg, out);
}

static int eval_nulltest(rl_expr_ctx *c, const PgQuery__NullTest *nt, rl_value *out)
{
    if (row_of(nt->arg))
        return eval_row_nulltest(c, row_of(nt->arg),
                                 nt->nulltesttype == PG_QUERY__NULL_TEST_TYPE__IS_NULL, out);
    rl_value v;
    if (rl_expr_eval(c, nt->arg, &v) < 0)
        return -1;
    bool test_null = nt->nulltesttype == PG_QUERY__NULL_TEST_TYPE__IS_NULL;
    if (rl_oid_is_composite(v.oid) && !v.d.isnull) { /* a whole row: field by field */
        size_t n, nulls;
        rl_record_nulls(&v, &n, &nulls);
        rl_val_bool(out, test_null ? nulls == n : nulls == 0);
        return 0;
    }
    rl_val_bool(out, test_null ? v.d.isnull : !v.d.isnull);
    return 0;
}

static int eval_booltest(rl_expr_ctx *c, const PgQuery__BooleanTest *bt, rl_value *out)
{
    int t = eval_tri(c, bt->arg, "IS TRUE", bt->location);
    if (t < 0)
        return -1;
    bool r;
    switch (bt->booltesttype) {
    case PG_QUERY__BOOL_TEST_TYPE__IS_TRUE: r = t == 1; break;
    case PG_QUERY__BOOL_TEST_TYPE__IS_NOT_TRUE: r = t != 1; break;
    case PG_QUERY__BOOL_TEST_TYPE__IS_FALSE: r = t == 0; break;
    case PG_QUERY__BOOL_TEST_TYPE__IS_NOT_FALSE: r = t != 0; break;
    case PG_QUERY__BOOL_TEST_TYPE__IS_UNKNOWN: r = t == 2; break;
    default: r = t != 2; break;
    }
    rl_val_bool(out, r);
    return 0;
}

/* The common type of several values (CASE / COALESCE / VALUES / UNION):
 * unknowns take the others' type; mixed numbers widen; else the first. */
uint32_t rl_common_type(uint32_t a, uint32_t b)
{
    if (a == RL_OID_UNKNOWN)
        return b;
    if (b == RL_OID_UNKNOWN || a == b)
        return a;
    uint32_t ea = rl_array_elem_oid(a), eb = rl_array_elem_oid(b);
    if (ea && eb) { /* arrays: as their elements (int4[] into int8[], implicitly) */
        uint32_t to = rl_array_oid_of(rl_common_type(ea, eb));
        return to ? to : a;
    }
    if (rl_oid_number_rank(a) && rl_oid_number_rank(b))
        return rl_oid_number_rank(a) >= rl_oid_number_rank(b) ? a : b;
    /* strings: PostgreSQL's select_common_type keeps the first type, since
     * text, varchar and bpchar coerce to each other implicitly both ways */
    if (rl_oid_is_textual(a) && rl_oid_is_textual(b))
        return a;
    if (rl_oid_is_timestamp(a) && rl_oid_is_timestamp(b))
        return a == RL_OID_TIMESTAMPTZ || b == RL_OID_TIMESTAMPTZ ? RL_OID_TIMESTAMPTZ
                                                                   : RL_OID_TIMESTAMP;
    return a;
}

int rl_common_type_of(rl_expr_ctx *c, uint32_t a, uint32_t b, const char *context, int location,
                      uint32_t *out)
{
    uint32_t ea = rl_array_elem_oid(a), eb = rl_array_elem_oid(b);
    if (ea && eb && a != b) {
        /* two arrays are of one category: the first stays the type unless
         * the other's elements widen it, and what does not coerce to it
         * fails there (select_common_type, then coerce_to_common_type) */
        char ca = rl_oid_category(ea), cb = rl_oid_category(eb);
        if ((ca != cb || !ca) && !(rl_oid_is_textual(ea) && rl_oid_is_textual(eb)))
            return rl_exec_error(c->x, RL_SQLSTATE_CANNOT_COERCE, location,
                                 "%s could not convert type %s to %s",
                                 strcmp(context, "CASE") == 0 ? "CASE/WHEN" : context,
                                 rl_oid_type_name(b), rl_oid_type_name(a));
        *out = rl_common_type(a, b);
        return 0;
    }
    char ca = rl_oid_category(a), cb = rl_oid_category(b);
    if (a != RL_OID_UNKNOWN && b != RL_OID_UNKNOWN && a != b && (ca != cb || !ca))
        return rl_exec_error(c->x, RL_SQLSTATE_DATATYPE_MISMATCH, location,
                             "%s types %s and %s cannot be matched", context,
                             rl_type_name_in(c->x, a), rl_type_name_in(c->x, b));
    if (ca == 'C' && cb == 'C' && a != b) /* two tables' row types: neither casts to the other */
        return rl_exec_error(c->x, RL_SQLSTATE_CANNOT_COERCE, location,
                             "%s could not convert type %s to %s", context,
                             rl_type_name_in(c->x, b), rl_type_name_in(c->x, a));
    *out = rl_common_type(a, b);
    return 0;
}

static int eval_coalesce(rl_expr_ctx *c, const PgQuery__CoalesceExpr *ce, rl_value *out)
{
    uint32_t type = RL_OID_UNKNOWN;
    int32_t typmod;
    if (!c->typing && type_get(c->x, ce, &type, &typmod)) {
        /* typed before: the arguments up to the first that is not NULL,
         * as PostgreSQL (a later one may fail on this row, 1 / 0) */
        rl_value v;
        size_t i = 0;
        do {
            if (rl_expr_eval(c, ce->args[i], &v) < 0)
                return -1;
        } while (v.d.isnull && ++i < ce->n_args);
        if (v.d.isnull) {
            rl_val_null(out, type);
            return 0;
        }
        return rl_value_coerce(c, &v, type, -1, false, out, rl_node_location(ce->args[i]));
    }
    /* typing, or a row no typing pass came before (a VALUES row): every
     * argument, for the common type */
    bool found = false, untyped = true;
    rl_value first;
    rl_val_null(&first, RL_OID_UNKNOWN);
    const PgQuery__Node *first_node = NULL;
    rl_value *vals = rl_arena_alloc(c->arena, (ce->n_args ? ce->n_args : 1) * sizeof *vals);
    if (!vals)
        return rl_expr_oom(c);
    for (size_t i = 0; i < ce->n_args; i++) /* each argument's errors before the common type's */
        if (rl_expr_eval(c, ce->args[i], &vals[i]) < 0)
            return -1;
    for (size_t i = 0; i < ce->n_args; i++) {
        const rl_value *v = &vals[i];
        if (rl_common_type_of(c, type, v->oid, "COALESCE", rl_node_location(ce->args[i]), &type) < 0)
            return -1;
        untyped &= v->oid != RL_OID_UNKNOWN || stands_unknown(c, ce->args[i]);
        if (!found && !v->d.isnull) {
            first = *v;
            first_node = ce->args[i];
            found = true;
        }
    }
    if (type == RL_OID_UNKNOWN && !found && !untyped) {
        /* a NULL whose type is not known here (stands_unknown): stay
         * unknown, so that `bigint_col <> COALESCE(...)` compares as
         * PostgreSQL's typed expression would, instead of as text */
        rl_val_null(out, RL_OID_UNKNOWN);
        return 0;
    }
    if (type == RL_OID_UNKNOWN)
        type = RL_OID_TEXT;
    for (size_t i = 0; c->typing && i < ce->n_args; i++)
        if (coerce_literal(c, ce->args[i], type) < 0)
            return -1;
    if (c->typing)
        type_put(c->x, ce, type, -1);
    return rl_value_coerce(c, &first, type, -1, false, out,
                           first_node ? rl_node_location(first_node) : ce->location);
}

/* GREATEST / LEAST: the arguments in their common type, NULLs ignored;
 * NULL only when every argument is. */
static int eval_minmax(rl_expr_ctx *c, const PgQuery__MinMaxExpr *mm, rl_value *out)
{
    bool greatest = mm->op == PG_QUERY__MIN_MAX_OP__IS_GREATEST;
    const char *what = greatest ? "GREATEST" : "LEAST";
    uint32_t type = RL_OID_UNKNOWN;
    rl_value *vals = rl_arena_alloc(c->arena, (mm->n_args ? mm->n_args : 1) * sizeof *vals);
    if (!vals)
        return rl_expr_oom(c);
    bool all_null = true, untyped = true;
    for (size_t i = 0; i < mm->n_args; i++) /* each argument's errors before the common type's */
        if (rl_expr_eval(c, mm->args[i], &vals[i]) < 0)
            return -1;
    for (size_t i = 0; i < mm->n_args; i++) {
        if (rl_common_type_of(c, type, vals[i].oid, what, rl_node_location(mm->args[i]), &type) < 0)
            return -1;
        all_null &= vals[i].d.isnull;
        untyped &= vals[i].oid != RL_OID_UNKNOWN || stands_unknown(c, mm->args[i]);
    }
    if (type == RL_OID_UNKNOWN && all_null && !untyped) { /* as COALESCE's */
        rl_val_null(out, RL_OID_UNKNOWN);
        return 0;
    }
    if (type == RL_OID_UNKNOWN)
        type = RL_OID_TEXT;
    if (type == RL_OID_JSON) /* ExecInitExpr's, so without a position */
        return rl_exec_error(c->x, RL_SQLSTATE_UNDEFINED_FUNCTION, -1,
                             "could not identify a comparison function for type json");
    rl_value best;
    rl_val_null(&best, type);
    for (size_t i = 0; i < mm->n_args; i++) {
        rl_value v;
        if (rl_value_coerce(c, &vals[i], type, -1, false, &v, rl_node_location(mm->args[i])) < 0)
            return -1;
        if (v.d.isnull)
            continue;
        int r = 0;
        if (!best.d.isnull && rl_value_cmp(c, &v, &best, &r, mm->location) < 0)
            return -1;
        if (best.d.isnull || (greatest ? r > 0 : r < 0))
            best = v;
    }
    *out = best;
    return 0;
}

/* PostgreSQL coerces a CASE's untyped literal results to the CASE's type
 * while parsing, also those of a branch no row takes: their input errors,
 * each at its literal (coerce_literal). */
static int case_literals(rl_expr_ctx *c, const PgQuery__CaseExpr *ce, uint32_t type)
{
    for (size_t i = 0; type != RL_OID_UNKNOWN && i <= ce->n_args; i++)
        if (coerce_literal(c, case_result(ce, i), type) < 0)
            return -1;
    return 0;
}

static int eval_case(rl_expr_ctx *c, const PgQuery__CaseExpr *ce, rl_value *out)
{
    rl_value arg;
    if (ce->arg && rl_expr_eval(c, ce->arg, &arg) < 0)
        return -1;
    uint32_t type = RL_OID_UNKNOWN;
    bool chosen = false;
    rl_value result;
    rl_val_null(&result, RL_OID_UNKNOWN);
    const PgQuery__Node *result_node = NULL; /* the branch result is of */
    /* typing: a WHEN that is a constant true makes the branches after it
     * and the ELSE unreached, a constant false or NULL its own branch
     * (PostgreSQL drops them before folding) */
    int ruled_out = -1; /* the first WHEN that is constantly true */
    for (size_t i = 0; c->typing && !ce->arg && ruled_out < 0 && i < ce->n_args; i++) {
        const PgQuery__Node *wn = ce->args[i];
        if (wn->node_case == PG_QUERY__NODE__NODE_CASE_WHEN &&
            rl_expr_is_constant(wn->case_when->expr)) {
            int t = eval_tri(c, wn->case_when->expr, "CASE/WHEN", wn->case_when->location);
            if (t < 0)
                return -1;
            if (t == 1)
                ruled_out = (int)i;
        }
    }
    /* typing follows PostgreSQL's transformCaseExpr: every WHEN and its
     * result in order, then the ELSE (their own errors first, in that
     * order), then the common type, taken from the ELSE first and then the
     * results in order (select_common_type's 42804 last) */
    uint32_t *types = c->typing && ce->n_args ? calloc(ce->n_args, sizeof *types) : NULL;
    if (c->typing && ce->n_args && !types)
        return rl_exec_error(c->x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < ce->n_args; i++) {
        if (ce->args[i]->node_case != PG_QUERY__NODE__NODE_CASE_WHEN)
            continue;
        const PgQuery__CaseWhen *w = ce->args[i]->case_when;
        bool hit = false;
        if (!chosen || c->typing) { /* typing: every WHEN, for its errors */
            bool past = c->typing && ruled_out >= 0 && (int)i > ruled_out;
            c->x->unreached += past;
            if (ce->arg) {
                rl_value k, eq;
                rc = rl_expr_eval(c, w->expr, &k) < 0 ||
                             compare_nodes_values(c, &arg, &k, 0, "=", w->location, &eq) < 0
                         ? -1
                         : 0;
                hit = !chosen && rc == 0 && !eq.d.isnull && eq.d.v.b;
            } else {
                int t = eval_tri(c, w->expr, "CASE/WHEN", w->location);
                rc = t < 0 ? -1 : 0;
                hit = !chosen && t == 1;
            }
            c->x->unreached -= past;
        }
        /* typing evaluates every branch for the common type; real rows only
         * the chosen one (another branch may fail on real data) */
        if (rc == 0 && (hit || c->typing)) {
            rl_value v;
            bool unreached = c->typing && !ce->arg &&
                             ((ruled_out >= 0 && (int)i > ruled_out) ||
                              (!hit && rl_expr_is_constant(w->expr)));
            c->x->unreached += unreached;
            rc = rl_expr_eval(c, w->result, &v);
            c->x->unreached -= unreached;
            if (rc == 0 && types)
                types[i] = v.oid;
            if (rc == 0 && hit) {
                result = v;
                result_node = w->result;
                chosen = true;
            }
        }
    }
    if (rc == 0 && ce->defresult && (!chosen || c->typing)) {
        rl_value v;
        bool unreached = c->typing && ruled_out >= 0;
        c->x->unreached += unreached;
        rc = rl_expr_eval(c, ce->defresult, &v);
        c->x->unreached -= unreached;
        if (rc == 0 && c->typing)
            type = v.oid;
        if (rc == 0 && !chosen) {
            result = v;
            result_node = ce->defresult;
        }
    }
    for (size_t i = 0; rc == 0 && types && i < ce->n_args; i++)
        if (ce->args[i]->node_case == PG_QUERY__NODE__NODE_CASE_WHEN)
            rc = rl_common_type_of(c, type, types[i], "CASE",
                                   rl_node_location(ce->args[i]->case_when->result), &type);
    free(types);
    if (rc < 0 || (c->typing && case_literals(c, ce, type) < 0))
        return -1;
    if (!c->typing) {
        /* the chosen branch in the CASE's type (an untyped NULL branch has
         * none of its own): as typed, else by its results alone */
        int32_t typmod;
        if (!type_get(c->x, ce, &type, &typmod))
            type = result.oid == RL_OID_UNKNOWN && case_untyped(c, ce) ? RL_OID_TEXT : result.oid;
        if (type == result.oid || type == RL_OID_UNKNOWN) {
            *out = result;
            return 0;
        }
    } else {
        if (type == RL_OID_UNKNOWN)
            type = RL_OID_TEXT;
        type_put(c->x, ce, type, -1);
    }
    return rl_value_coerce(c, &result, type, -1, false, out,
                           result_node ? rl_node_location(result_node) : ce->location);
}

/* ------------------------------------------------------------ functions */

static int eval_sqlvalue(rl_expr_ctx *c, const PgQuery__SQLValueFunction *f, rl_value *out)
{
    int64_t ts = rl_func_txn_start(c);
    int64_t local = rl_tz_utc_to_local_us(rl_tz_current(), ts, NULL); /* the session's zone */
    const char *user = c->x->s && c->x->s->user[0] ? c->x->s->user : "postgres";
    switch (f->op) {
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_DATE:
        rl_val_int(out, RL_OID_DATE, (local >= 0 ? local : local - 86399999999LL) / 86400000000LL);
        return 0;
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_TIMESTAMP:
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_TIMESTAMP_N:
        rl_val_int(out, RL_OID_TIMESTAMPTZ, ts);
        return 0;
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_LOCALTIMESTAMP:
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_LOCALTIMESTAMP_N:
        rl_val_int(out, RL_OID_TIMESTAMP, local);
        return 0;
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_TIME:
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_TIME_N:
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_LOCALTIME:
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_LOCALTIME_N: {
        /* the wall clock's time of day (timetz: with the zone's offset), its
         * fraction rounded to the precision asked (AdjustTimeForTypmod) */
        int32_t east;
        int64_t day = 86400000000LL, t = rl_tz_utc_to_local_us(rl_tz_current(), ts, &east) % day;
        t += t < 0 ? day : 0;
        if (f->typmod >= 0 && f->typmod < 6) {
            int64_t scale = 1;
            for (int i = f->typmod; i < 6; i++)
                scale *= 10;
            t = (t + scale / 2) / scale * scale;
        }
        bool tz = f->op == PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_TIME ||
                  f->op == PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_TIME_N;
        rl_val_int(out, tz ? RL_OID_TIMETZ : RL_OID_TIME, t);
        if (tz) {
            out->d.v.timetz.us = t;
            out->d.v.timetz.zone = -east;
        }
        return 0;
    }
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_ROLE:
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_USER:
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_USER:
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_SESSION_USER:
        rl_val_str(out, RL_OID_NAME, user, strlen(user));
        return 0;
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_CATALOG: {
        const char *db = c->x->s ? c->x->s->eng->database : "";
        rl_val_str(out, RL_OID_NAME, db, strlen(db));
        return 0;
    }
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_SCHEMA:
        rl_val_str(out, RL_OID_NAME, "public", 6);
        return 0;
    default:
        return rl_exec_error(c->x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, f->location,
                             "this SQL value function is not supported");
    }
}

/* The ordered-set aggregates (WITHIN GROUP (ORDER BY ...)). */
static bool is_ordered_set_name(const char *name)
{
    return strcmp(name, "percentile_cont") == 0 || strcmp(name, "percentile_disc") == 0 ||
           strcmp(name, "mode") == 0;
}

static bool is_aggregate_name(const char *name)
{
    return strcmp(name, "count") == 0 || strcmp(name, "max") == 0 || strcmp(name, "min") == 0 ||
           strcmp(name, "sum") == 0 || strcmp(name, "bool_or") == 0 ||
           strcmp(name, "bool_and") == 0 || strcmp(name, "string_agg") == 0 ||
           strcmp(name, "avg") == 0 || strcmp(name, "array_agg") == 0 ||
           strcmp(name, "json_agg") == 0 || strcmp(name, "jsonb_agg") == 0 ||
           strcmp(name, "json_object_agg") == 0 || strcmp(name, "jsonb_object_agg") == 0 ||
           strcmp(name, "every") == 0 || strcmp(name, "bit_and") == 0 ||
           strcmp(name, "bit_or") == 0 || strcmp(name, "bit_xor") == 0 ||
           rl_agg_is_variance(name) || rl_agg_is_regression(name) || is_ordered_set_name(name);
}

static const char *func_name(const PgQuery__FuncCall *f)
{
    return f->n_funcname ? rl_node_string(f->funcname[f->n_funcname - 1]) : NULL;
}

bool rl_expr_is_aggregate(const PgQuery__Node *node)
{
    if (!node || node->node_case != PG_QUERY__NODE__NODE_FUNC_CALL)
        return false;
    const char *name = func_name(node->func_call);
    return name && is_aggregate_name(name) && !node->func_call->over;
}

static int no_function(rl_expr_ctx *c, const char *name, size_t nargs, const rl_value *args,
                       int loc)
{
    return rl_func_no_function(c, name, nargs, args, loc);
}

/* Sum of integers in int128: int2/int4 -> int8, int8 -> numeric. */
static int agg_sum(rl_expr_ctx *c, const rl_value *vals, size_t n, uint32_t argtype,
                   rl_value *out, int loc)
{
    bool any = false;
    if (rl_oid_is_float(argtype)) {
        double s = 0;
        for (size_t i = 0; i < n; i++)
            if (!vals[i].d.isnull) {
                s += vals[i].d.v.f;
                any = true;
            }
        if (any)
            rl_val_float(out, argtype, s);
        else
            rl_val_null(out, argtype);
        return 0;
    }
    if (argtype == RL_OID_NUMERIC)
        return rl_numeric_sum(c, vals, n, out, loc);
    if (!numeric_operand(argtype))
        return no_function(c, "sum", 1, &(rl_value){.oid = argtype}, loc);
    uint32_t rtype = argtype == RL_OID_INT8 ? RL_OID_NUMERIC : RL_OID_INT8;
    __int128 s = 0;
    for (size_t i = 0; i < n; i++)
        if (!vals[i].d.isnull) {
            s += vals[i].d.v.i;
            any = true;
        }
    if (!any) {
        rl_val_null(out, rtype);
        return 0;
    }
    if (rtype == RL_OID_INT8) {
        if (s > INT64_MAX || s < INT64_MIN)
            return rl_range_error(c, RL_OID_INT8, loc);
        rl_val_int(out, rtype, (int64_t)s);
        return 0;
    }
    char buf[48], *p = buf + sizeof buf;
    bool neg = s < 0;
    unsigned __int128 u = neg ? -(unsigned __int128)s : (unsigned __int128)s;
    *--p = 0;
    do {
        *--p = (char)('0' + (int)(u % 10));
        u /= 10;
    } while (u);
    if (neg)
        *--p = '-';
    return rl_val_str_copy(c, out, RL_OID_NUMERIC, p, strlen(p));
}

/* avg: integers and numeric average as numeric (numeric_div's scale),
 * floats as float8. */
static int agg_avg(rl_expr_ctx *c, const rl_value *vals, size_t n, uint32_t argtype,
                   rl_value *out, int loc)
{
    if (rl_oid_is_float(argtype)) {
        double s = 0;
        int64_t k = 0;
        for (size_t i = 0; i < n; i++)
            if (!vals[i].d.isnull) {
                s += vals[i].d.v.f;
                k++;
            }
        if (k)
            rl_val_float(out, RL_OID_FLOAT8, s / (double)k);
        else
            rl_val_null(out, RL_OID_FLOAT8);
        return 0;
    }
    if (argtype == RL_OID_UNKNOWN) {
        rl_exec_error(c->x, RL_SQLSTATE_AMBIGUOUS_FUNCTION, loc,
                      "function avg(unknown) is not unique");
        rl_error_hint(c->x->err, "Could not choose a best candidate function. You might need to "
                                 "add explicit type casts.");
        return -1;
    }
    if (!numeric_operand(argtype))
        return no_function(c, "avg", 1, &(rl_value){.oid = argtype}, loc);
    return rl_numeric_avg(c, vals, n, out, loc);
}

/* array_agg: the values (NULLs too) in the group's order as an array of
 * their type; NULL for no rows. */
static int agg_array(rl_expr_ctx *c, const rl_value *vals, size_t n, uint32_t type,
                     rl_value *out, int loc)
{
    if (type == RL_OID_UNKNOWN) { /* anynonarray and anyarray both take it */
        rl_exec_error(c->x, RL_SQLSTATE_AMBIGUOUS_FUNCTION, loc,
                      "function array_agg(unknown) is not unique");
        rl_error_hint(c->x->err, "Could not choose a best candidate function. You might need to "
                                 "add explicit type casts.");
        return -1;
    }
    uint32_t at = rl_array_oid_of(type);
    if (!at)
        return rl_exec_error(c->x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, loc,
                             "array_agg(%s) is not supported", rl_oid_type_name(type));
    if (n == 0) {
        rl_val_null(out, at);
        return 0;
    }
    return rl_array_of_values(c, at, vals, n, 1, out);
}

/* Evaluate the aggregate's argument over the group's rows into vals. */
static int agg_collect(rl_expr_ctx *c, const PgQuery__Node *arg, rl_value **vals_out,
                       uint32_t *type)
{
    rl_agg_ctx *a = c->agg;
    rl_value *vals = a->nrows ? rl_arena_alloc(c->arena, a->nrows * sizeof *vals) : NULL;
    if (a->nrows && !vals)
        return rl_expr_oom(c);
    rl_expr_ctx sub = *c;
    sub.agg = NULL; /* a nested aggregate is an error (42803) */
    sub.grouping = NULL; /* an aggregate reads its rows' own values */
    rl_value proto;
    /* the type: the argument on the caller's binding (the typing row when
     * the group is empty) */
    if (rl_expr_eval(&sub, arg, &proto) < 0)
        return -1;
    *type = proto.oid;
    for (size_t i = 0; i < a->nrows; i++) {
        rl_binding b = {a->rs, a->rows[i], a->outer, NULL};
        sub.b = &b;
        if (rl_expr_eval(&sub, arg, &vals[i]) < 0)
            return -1;
        if (rl_value_own(c->arena, &vals[i]) < 0)
            return rl_expr_oom(c);
    }
    /* a row's NULL may carry no type (a CASE branch's NULL on a real row):
     * the first typed value says it, else the argument on a typing row */
    for (size_t i = 0; i < a->nrows && *type == RL_OID_UNKNOWN; i++)
        *type = vals[i].oid;
    if (*type == RL_OID_UNKNOWN && a->rs) {
        rl_rowset *typ = rl_rowset_typing(a->rs, c->x->err);
        if (!typ)
            return -1;
        rl_binding tb = {typ, 0, a->outer, NULL};
        sub.b = &tb;
        sub.typing = true;
        int rc = rl_expr_eval(&sub, arg, &proto);
        rl_rowset_free(typ);
        if (rc < 0)
            return -1;
        *type = proto.oid;
        sub.typing = c->typing;
    }
    for (size_t i = 0; i < a->nrows; i++)
        if (vals[i].oid != *type && !vals[i].d.isnull &&
            rl_value_coerce(&sub, &vals[i], *type, -1, false, &vals[i], -1) < 0)
            return -1;
    *vals_out = vals;
    return 0;
}

/* FILTER (WHERE cond): narrow the group to the rows where cond is true
 * (its own row list in c->arena). */
static int agg_filter_rows(rl_expr_ctx *c, const PgQuery__FuncCall *f, rl_agg_ctx *group)
{
    if (!f->agg_filter)
        return 0;
    size_t *rows = group->nrows ? rl_arena_alloc(c->arena, group->nrows * sizeof *rows) : NULL;
    if (group->nrows && !rows)
        return rl_expr_oom(c);
    rl_expr_ctx sub = *c;
    sub.agg = NULL; /* an aggregate inside FILTER is an error (42803) */
    sub.grouping = NULL;
    sub.clause = "FILTER";
    if (rl_expr_check_where(&sub, f->agg_filter) < 0)
        return -1;
    size_t n = 0;
    for (size_t i = 0; i < group->nrows; i++) {
        rl_binding b = {group->rs, group->rows[i], group->outer, NULL};
        sub.b = &b;
        int t = rl_expr_truth(&sub, f->agg_filter);
        if (t < 0)
            return -1;
        if (t)
            rows[n++] = group->rows[i];
    }
    group->rows = rows;
    group->nrows = n;
    return 0;
}

typedef struct value_sort {
    rl_expr_ctx *c;
    int location;
    bool failed;
} value_sort;

static int compare_values(const void *pa, const void *pb, void *arg)
{
    value_sort *vs = arg;
    int r = 0;
    if (!vs->failed && rl_value_cmp(vs->c, pa, pb, &r, vs->location) < 0)
        vs->failed = true;
    return r;
}

/* DISTINCT inside an aggregate: its non-NULL inputs, each value once
 * (compacted at the front of vals, *n their number), in ascending order or,
 * when the call's ORDER BY sorted them already (`presorted`: equal values
 * are then next to each other), in that order; one NULL last when there
 * was one and the inputs were not presorted (array_agg and json_agg show
 * it, the others skip it). */
static int agg_distinct_values(rl_expr_ctx *c, rl_value *vals, size_t *n, int location,
                               bool presorted)
{
    size_t k = 0;
    rl_value null_val = {0};
    bool any_null = false;
    for (size_t i = 0; i < *n; i++) {
        if (!vals[i].d.isnull)
            vals[k++] = vals[i];
        else if (!any_null)
            any_null = true, null_val = vals[i];
    }
    value_sort vs = {c, location, false};
    if (!presorted && k > 1) /* vals is NULL for a group of no rows */
        qsort_r(vals, k, sizeof *vals, compare_values, &vs);
    if (vs.failed)
        return -1;
    size_t m = 0;
    for (size_t i = 0; i < k; i++) {
        if (m > 0 && compare_values(&vals[m - 1], &vals[i], &vs) == 0 && !vs.failed)
            continue;
        vals[m++] = vals[i];
    }
    /* DISTINCT keeps one NULL, sorted last (the aggregates that skip NULLs
     * skip it; array_agg and json_agg show it) */
    if (any_null && !presorted)
        vals[m++] = null_val;
    *n = m;
    return vs.failed ? -1 : 0;
}

static int eval_plain_aggregate(rl_expr_ctx *c, const PgQuery__FuncCall *f, const char *name,
                                rl_value *out);
static int aggregate_values(rl_expr_ctx *c, const PgQuery__FuncCall *f, const char *name,
                            rl_value *vals, size_t n, uint32_t type, rl_value *out);

typedef struct row_sort {
    rl_expr_ctx *c;
    const PgQuery__FuncCall *f;
    const rl_value *keys; /* per position: n_agg_order values */
    bool failed;
} row_sort;

static int compare_agg_rows(const void *pa, const void *pb, void *arg)
{
    row_sort *rs = arg;
    size_t a = ((const size_t *)pa)[1], b = ((const size_t *)pb)[1], nk = rs->f->n_agg_order;
    for (size_t i = 0; i < nk; i++) {
        const PgQuery__SortBy *sb = rs->f->agg_order[i]->sort_by;
        bool desc = sb->sortby_dir == PG_QUERY__SORT_BY_DIR__SORTBY_DESC;
        bool nulls_first = sb->sortby_nulls == PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_FIRST ||
                           (sb->sortby_nulls != PG_QUERY__SORT_BY_NULLS__SORTBY_NULLS_LAST && desc);
        const rl_value *va = &rs->keys[a * nk + i], *vb = &rs->keys[b * nk + i];
        int r = 0;
        if (va->d.isnull || vb->d.isnull)
            r = va->d.isnull == vb->d.isnull ? 0 : va->d.isnull == nulls_first ? -1 : 1;
        else if (!rs->failed && rl_value_cmp(rs->c, va, vb, &r, sb->location) < 0)
            rs->failed = true;
        else if (desc)
            r = -r;
        if (r)
            return r;
    }
    return a < b ? -1 : a > b; /* stable */
}

/* ORDER BY inside the call (string_agg(x, ',' ORDER BY y)): the group's
 * rows in that order (a sorted copy in c->arena). With DISTINCT, PostgreSQL
 * wants each ORDER BY expression among the arguments (42P10). */
static int agg_sort_rows(rl_expr_ctx *c, const PgQuery__FuncCall *f, rl_agg_ctx *group)
{
    size_t nk = f->n_agg_order, n = group->nrows;
    if (nk == 0)
        return 0;
    for (size_t i = 0; f->agg_distinct && i < nk; i++) {
        bool in_args = false;
        for (size_t j = 0; j < f->n_args && !in_args; j++)
            in_args = rl_node_equal(&f->agg_order[i]->sort_by->node->base, &f->args[j]->base);
        if (!in_args)
            return rl_exec_error(c->x, RL_SQLSTATE_INVALID_COLUMN_REFERENCE,
                                 rl_node_location(f->agg_order[i]->sort_by->node),
                                 "in an aggregate with DISTINCT, ORDER BY expressions must "
                                 "appear in argument list");
    }
    rl_value *keys = rl_arena_alloc(c->arena, (n * nk + 1) * sizeof *keys);
    size_t *pairs = rl_arena_alloc(c->arena, (2 * n + 1) * sizeof *pairs); /* (row, position) */
    size_t *rows = rl_arena_alloc(c->arena, (n + 1) * sizeof *rows);
    if (!keys || !pairs || !rows)
        return rl_expr_oom(c);
    rl_expr_ctx sub = *c;
    sub.agg = NULL;
    sub.grouping = NULL;
    for (size_t p = 0; p < n; p++) {
        rl_binding b = {group->rs, group->rows[p], group->outer, NULL};
        sub.b = &b;
        for (size_t i = 0; i < nk; i++)
            if (rl_expr_eval(&sub, f->agg_order[i]->sort_by->node, &keys[p * nk + i]) < 0 ||
                rl_value_own(c->arena, &keys[p * nk + i]) < 0)
                return -1;
        pairs[2 * p] = group->rows[p];
        pairs[2 * p + 1] = p;
    }
    row_sort rs = {c, f, keys, false};
    qsort_r(pairs, n, 2 * sizeof *pairs, compare_agg_rows, &rs);
    if (rs.failed)
        return -1;
    for (size_t p = 0; p < n; p++)
        rows[p] = pairs[2 * p];
    group->rows = rows;
    return 0;
}

/* string_agg(text, text) / string_agg(bytea, bytea): the non-NULL values
 * joined, each after the first preceded by its own row's delimiter; NULL
 * when there are none. */
static int agg_string_agg(rl_expr_ctx *c, const PgQuery__FuncCall *f, rl_value *out)
{
    if (f->n_args != 2 || f->agg_star) {
        rl_value none[1] = {{0}};
        return no_function(c, "string_agg", 0, none, f->location);
    }
    rl_value *vals = NULL, *delims = NULL;
    uint32_t type = RL_OID_UNKNOWN, dtype = RL_OID_UNKNOWN;
    if (agg_collect(c, f->args[0], &vals, &type) < 0 ||
        agg_collect(c, f->args[1], &delims, &dtype) < 0)
        return -1;
    bool bytea = type == RL_OID_BYTEA && (dtype == RL_OID_BYTEA || dtype == RL_OID_UNKNOWN);
    bool text = rl_oid_is_textual(type) && type != RL_OID_CHAR && rl_oid_is_textual(dtype) &&
                dtype != RL_OID_CHAR;
    if (!bytea && !text) {
        rl_value types[2] = {{.oid = type}, {.oid = dtype}};
        return no_function(c, "string_agg", 2, types, f->location);
    }
    uint32_t rtype = bytea ? RL_OID_BYTEA : RL_OID_TEXT;
    size_t n = c->agg->nrows;
    rl_value delim = n ? delims[0] : (rl_value){0};
    if (f->agg_distinct && agg_distinct_values(c, vals, &n, f->location, f->n_agg_order > 0) < 0)
        return -1;
    rl_buf b;
    rl_buf_init(&b, 0);
    bool any = false;
    for (size_t i = 0; i < n; i++) {
        if (vals[i].d.isnull)
            continue;
        const rl_value *d = f->agg_distinct ? &delim : &delims[i];
        if (any && !d->d.isnull)
            rl_buf_put(&b, d->d.v.s.p, as_text_len(d));
        rl_buf_put(&b, vals[i].d.v.s.p, as_text_len(&vals[i]));
        any = true;
    }
    int rc = 0;
    if (b.failed)
        rc = rl_expr_oom(c);
    else if (!any)
        rl_val_null(out, rtype);
    else
        rc = rl_val_str_copy(c, out, rtype, b.data, b.len);
    rl_buf_free(&b);
    return rc;
}

/* json_object_agg(k, v) / jsonb_object_agg(k, v): the rows' pairs. */
static int agg_object_agg(rl_expr_ctx *c, const PgQuery__FuncCall *f, const char *name,
                          rl_value *out)
{
    if (f->n_args != 2 || f->agg_star || f->agg_distinct) {
        rl_value none[1] = {{0}};
        return no_function(c, name, 0, none, f->location);
    }
    rl_value *keys = NULL, *vals = NULL;
    uint32_t ktype = RL_OID_UNKNOWN, vtype = RL_OID_UNKNOWN;
    if (agg_collect(c, f->args[0], &keys, &ktype) < 0 ||
        agg_collect(c, f->args[1], &vals, &vtype) < 0)
        return -1;
    return rl_json_object_agg(c, keys, vals, c->agg->nrows, name[4] == 'b', out, f->location);
}

/* The types of an aggregate call's arguments (and, for WITHIN GROUP, its
 * ORDER BY keys after them) for a 42883 message. */
static int agg_no_function(rl_expr_ctx *c, const PgQuery__FuncCall *f, const char *name)
{
    size_t nk = f->agg_within_group ? f->n_agg_order : 0, n = f->n_args + nk;
    rl_value *types = rl_arena_alloc(c->arena, (n + 1) * sizeof *types);
    if (!types)
        return rl_expr_oom(c);
    rl_expr_ctx sub = *c;
    sub.agg = NULL;
    sub.grouping = NULL;
    for (size_t i = 0; i < n; i++) {
        const PgQuery__Node *e = i < f->n_args ? f->args[i] : f->agg_order[i - f->n_args]->sort_by->node;
        rl_value v;
        if (rl_expr_eval(&sub, e, &v) < 0)
            return -1;
        types[i] = (rl_value){.oid = v.oid};
    }
    return no_function(c, name, n, types, f->location);
}

/* Order of (y, x) pairs (ys[i], xs[i] at pa[0] == i): NULLs after values. */
typedef struct pair_sort {
    rl_expr_ctx *c;
    const rl_value *ys, *xs;
    int location;
    bool failed;
} pair_sort;

static int cmp_nullable(pair_sort *ps, const rl_value *a, const rl_value *b)
{
    if (a->d.isnull || b->d.isnull)
        return a->d.isnull == b->d.isnull ? 0 : a->d.isnull ? 1 : -1;
    int r = 0;
    if (!ps->failed && rl_value_cmp(ps->c, a, b, &r, ps->location) < 0)
        ps->failed = true;
    return r;
}

static int compare_pairs(const void *pa, const void *pb, void *arg)
{
    pair_sort *ps = arg;
    size_t a = *(const size_t *)pa, b = *(const size_t *)pb;
    int r = cmp_nullable(ps, &ps->ys[a], &ps->ys[b]);
    return r ? r : cmp_nullable(ps, &ps->xs[a], &ps->xs[b]);
}

/* DISTINCT of a two-argument aggregate: each (y, x) pair once, compacted
 * at the front of ys and xs (*n their number), in ascending order. */
static int distinct_pairs(rl_expr_ctx *c, rl_value *ys, rl_value *xs, size_t *n, int location)
{
    size_t k = *n;
    if (k < 2)
        return 0;
    size_t *idx = rl_arena_alloc(c->arena, k * sizeof *idx);
    rl_value *ny = rl_arena_alloc(c->arena, k * sizeof *ny);
    rl_value *nx = rl_arena_alloc(c->arena, k * sizeof *nx);
    if (!idx || !ny || !nx)
        return rl_expr_oom(c);
    for (size_t i = 0; i < k; i++)
        idx[i] = i;
    pair_sort ps = {c, ys, xs, location, false};
    qsort_r(idx, k, sizeof *idx, compare_pairs, &ps);
    size_t m = 0;
    for (size_t i = 0; i < k && !ps.failed; i++) {
        if (m > 0 && compare_pairs(&idx[i - 1], &idx[i], &ps) == 0)
            continue;
        ny[m] = ys[idx[i]];
        nx[m] = xs[idx[i]];
        m++;
    }
    if (ps.failed)
        return -1;
    memcpy(ys, ny, m * sizeof *ys);
    memcpy(xs, nx, m * sizeof *xs);
    *n = m;
    return 0;
}

/* corr, covar_*, regr_* (y, x): float8 pairs; either NULL skips the row. */
static int agg_regression(rl_expr_ctx *c, const PgQuery__FuncCall *f, const char *name,
                          rl_value *out)
{
    if (f->n_args != 2 || f->agg_star)
        return agg_no_function(c, f, name);
    rl_value *ys = NULL, *xs = NULL;
    uint32_t yt = RL_OID_UNKNOWN, xt = RL_OID_UNKNOWN;
    if (agg_collect(c, f->args[0], &ys, &yt) < 0 || agg_collect(c, f->args[1], &xs, &xt) < 0)
        return -1;
    if ((!rl_oid_is_number(yt) && yt != RL_OID_UNKNOWN) ||
        (!rl_oid_is_number(xt) && xt != RL_OID_UNKNOWN)) {
        rl_value types[2] = {{.oid = yt}, {.oid = xt}};
        return no_function(c, name, 2, types, f->location);
    }
    size_t n = c->agg->nrows;
    if (f->agg_distinct && distinct_pairs(c, ys, xs, &n, f->location) < 0)
        return -1;
    for (size_t i = 0; i < n; i++) {
        if ((!ys[i].d.isnull && ys[i].oid != RL_OID_FLOAT8 &&
             rl_value_coerce(c, &ys[i], RL_OID_FLOAT8, -1, false, &ys[i], f->location) < 0) ||
            (!xs[i].d.isnull && xs[i].oid != RL_OID_FLOAT8 &&
             rl_value_coerce(c, &xs[i], RL_OID_FLOAT8, -1, false, &xs[i], f->location) < 0))
            return -1;
    }
    return rl_agg_regression(c, name, ys, xs, n, out);
}

/* The fractions of percentile_cont / percentile_disc: one float8, or an
 * array of them (NULL elements stay NULL: nan marks them in *isnull). */
typedef struct fractions {
    bool array, null;
    size_t n;
    double *v;
    bool *isnull;
} fractions;

static int read_fractions(rl_expr_ctx *c, const PgQuery__FuncCall *f, const char *name,
                          uint32_t keytype, fractions *fr)
{
    memset(fr, 0, sizeof *fr);
    rl_expr_ctx sub = *c;
    sub.agg = NULL; /* an aggregate in a direct argument is an error (42803) */
    sub.grouping = NULL;
    rl_value a;
    if (rl_expr_eval(&sub, f->args[0], &a) < 0)
        return -1;
    uint32_t elem = rl_array_elem_oid(a.oid);
    fr->array = elem != 0;
    if (fr->array ? !rl_oid_is_number(elem) && elem != RL_OID_UNKNOWN
                  : !rl_oid_is_number(a.oid) && a.oid != RL_OID_UNKNOWN) {
        rl_value types[2] = {{.oid = a.oid}, {.oid = keytype}};
        return no_function(c, name, 2, types, f->location);
    }
    if (a.d.isnull) {
        fr->null = true;
        return 0;
    }
    if (!fr->array) {
        rl_value d;
        if (rl_value_coerce(c, &a, RL_OID_FLOAT8, -1, false, &d, f->location) < 0)
            return -1;
        fr->n = 1;
        fr->v = rl_arena_alloc(c->arena, sizeof *fr->v);
        fr->isnull = rl_arena_alloc(c->arena, sizeof *fr->isnull);
        if (!fr->v || !fr->isnull)
            return rl_expr_oom(c);
        fr->v[0] = d.d.v.f;
        fr->isnull[0] = false;
        return 0;
    }
    size_t cap = a.d.v.s.len + 1, pos = 0; /* elements <= bytes */
    fr->v = rl_arena_alloc(c->arena, cap * sizeof *fr->v);
    fr->isnull = rl_arena_alloc(c->arena, cap * sizeof *fr->isnull);
    if (!fr->v || !fr->isnull)
        return rl_expr_oom(c);
    rl_buf el;
    rl_buf_init(&el, 0);
    bool isnull;
    int rc = 0;
    while (rc == 0 && fr->n < cap && rl_elem_next(&a, &pos, &el, &isnull) == 1) {
        fr->isnull[fr->n] = isnull;
        fr->v[fr->n] = 0;
        if (!isnull) {
            rl_value t, d;
            rl_val_str(&t, RL_OID_UNKNOWN, el.data, el.len);
            rc = rl_value_coerce(c, &t, RL_OID_FLOAT8, -1, false, &d, f->location);
            fr->v[fr->n] = d.d.v.f;
        }
        fr->n++;
    }
    bool failed = el.failed;
    rl_buf_free(&el);
    if (rc == 0 && failed)
        return rl_expr_oom(c);
    return rc;
}

/* mode(): the most frequent of the sorted values, the first in the sort
 * order among equally frequent ones. */
static int mode_of(rl_expr_ctx *c, const rl_value *v, size_t n, rl_value *out, int loc)
{
    size_t best = 0, best_n = 0;
    for (size_t i = 0; i < n;) {
        size_t j = i + 1;
        for (; j < n; j++) {
            int r = 0;
            if (rl_value_cmp(c, &v[i], &v[j], &r, loc) < 0)
                return -1;
            if (r != 0)
                break;
        }
        if (j - i > best_n)
            best = i, best_n = j - i;
        i = j;
    }
    *out = v[best];
    return 0;
}

/* percentile_cont / percentile_disc / mode WITHIN GROUP (ORDER BY key):
 * the group's non-NULL keys (FILTER applied) in the ORDER BY's direction.
 * The misuses are PostgreSQL's: OVER (0A000), a plain aggregate with
 * WITHIN GROUP and an ordered-set one without it (42883: no such function
 * of those arguments). */
static int eval_ordered_set(rl_expr_ctx *c, const PgQuery__FuncCall *f, const char *name,
                            rl_value *out)
{
    if (f->over && is_ordered_set_name(name))
        return rl_exec_error(c->x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, f->location,
                             "OVER is not supported for ordered-set aggregate %s", name);
    bool is_mode = strcmp(name, "mode") == 0, cont = strcmp(name, "percentile_cont") == 0;
    if (!is_ordered_set_name(name) || !f->agg_within_group || f->n_agg_order != 1 ||
        f->n_args != (is_mode ? 0u : 1u) || f->agg_star)
        return agg_no_function(c, f, name);
    rl_agg_ctx group = *c->agg;
    rl_expr_ctx gc = *c;
    gc.agg = &group;
    if (agg_filter_rows(&gc, f, &group) < 0)
        return -1;
    const PgQuery__SortBy *sb = f->agg_order[0]->sort_by;
    rl_value *vals = NULL;
    uint32_t type = RL_OID_UNKNOWN;
    if (agg_collect(&gc, sb->node, &vals, &type) < 0)
        return -1;
    if (cont && type == RL_OID_UNKNOWN)
        type = RL_OID_FLOAT8;
    if (cont && type != RL_OID_INTERVAL && type != RL_OID_FLOAT8) {
        if (!rl_oid_is_number(type)) {
            rl_value a;
            rl_expr_ctx sub = gc;
            sub.agg = NULL;
            if (rl_expr_eval(&sub, f->args[0], &a) < 0)
                return -1;
            rl_value types[2] = {{.oid = a.oid}, {.oid = type}};
            return no_function(c, name, 2, types, f->location);
        }
        type = RL_OID_FLOAT8;
    }
    if (!cont && type == RL_OID_UNKNOWN)
        return rl_exec_error(c->x, RL_SQLSTATE_DATATYPE_MISMATCH, -1,
                             "could not determine polymorphic type because input has type "
                             "unknown");
    fractions fr = {0};
    if (!is_mode && read_fractions(&gc, f, name, type, &fr) < 0)
        return -1;
    uint32_t rtype = fr.array ? rl_array_oid_of(type) : type;
    if (fr.array && !rtype)
        return rl_exec_error(c->x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, f->location,
                             "%s of %s[] is not supported", name, rl_oid_type_name(type));
    /* the non-NULL keys, of the key's type, sorted */
    size_t n = 0;
    for (size_t i = 0; i < group.nrows; i++) {
        if (vals[i].d.isnull)
            continue;
        if (vals[i].oid != type &&
            rl_value_coerce(&gc, &vals[i], type, -1, false, &vals[i], f->location) < 0)
            return -1;
        vals[n++] = vals[i];
    }
    if (fr.null || (fr.array && n == 0)) {
        rl_val_null(out, rtype);
        return 0;
    }
    for (size_t i = 0; i < fr.n; i++) /* checked before looking at the rows */
        if (!fr.isnull[i] && rl_agg_check_fraction(c, fr.v[i]) < 0)
            return -1;
    if (n == 0) {
        rl_val_null(out, rtype);
        return 0;
    }
    value_sort vs = {c, sb->location, false};
    if (n > 1)
        qsort_r(vals, n, sizeof *vals, compare_values, &vs);
    if (vs.failed)
        return -1;
    if (sb->sortby_dir == PG_QUERY__SORT_BY_DIR__SORTBY_DESC)
        for (size_t i = 0; i < n / 2; i++) {
            rl_value t = vals[i];
            vals[i] = vals[n - 1 - i];
            vals[n - 1 - i] = t;
        }
    if (is_mode)
        return mode_of(c, vals, n, out, f->location);
    rl_value *res = rl_arena_alloc(c->arena, fr.n * sizeof *res);
    if (!res)
        return rl_expr_oom(c);
    for (size_t i = 0; i < fr.n; i++) {
        if (fr.isnull[i])
            rl_val_null(&res[i], type);
        else if (cont && rl_agg_percentile_cont(c, vals, n, fr.v[i], &res[i], f->location) < 0)
            return -1;
        else if (!cont)
            res[i] = vals[rl_agg_percentile_disc_row(n, fr.v[i])];
    }
    if (!fr.array) {
        *out = res[0];
        return 0;
    }
    return rl_array_of_values(c, rtype, res, fr.n, 1, out);
}

/* While typing: an aggregate's ORDER BY keys must be sortable and, with
 * DISTINCT, its arguments comparable (json is neither: 42883, as
 * PostgreSQL's parse analysis finds whether or not a row comes). */
static int agg_sort_types(rl_expr_ctx *c, const PgQuery__FuncCall *f)
{
    rl_expr_ctx sub = *c;
    sub.agg = NULL;
    sub.grouping = NULL;
    rl_value v;
    for (size_t i = 0; f->agg_distinct && i < f->n_args; i++)
        if (rl_expr_eval(&sub, f->args[i], &v) < 0 ||
            rl_sortable_type(c->x, v.oid, false, rl_node_location(f->args[i])) < 0)
            return -1;
    for (size_t i = 0; i < f->n_agg_order; i++) {
        const PgQuery__Node *k = f->agg_order[i]->sort_by->node;
        if (rl_expr_eval(&sub, k, &v) < 0 ||
            rl_sortable_type(c->x, v.oid, true, rl_node_location(k)) < 0)
            return -1;
    }
    return 0;
}

static int eval_aggregate(rl_expr_ctx *c, const PgQuery__FuncCall *f, const char *name,
                          rl_value *out)
{
    if (!c->agg)
        return rl_exec_error(c->x, RL_SQLSTATE_GROUPING_ERROR, f->location,
                             "aggregate functions are not allowed in %s",
                             c->clause ? clause_kind(c) : "WHERE");
    if (is_ordered_set_name(name) || f->agg_within_group)
        return eval_ordered_set(c, f, name, out);
    /* ORDER BY inside the call: these aggregates' results do not depend on
     * their inputs' order, so it is read for errors only (as PostgreSQL,
     * which sorts and gets the same answer) */
    if (c->typing && agg_sort_types(c, f) < 0)
        return -1;
    rl_agg_ctx group = *c->agg;
    rl_expr_ctx gc = *c;
    gc.agg = &group;
    if (agg_filter_rows(&gc, f, &group) < 0 || agg_sort_rows(&gc, f, &group) < 0)
        return -1;
    if (strcmp(name, "string_agg") == 0)
        return agg_string_agg(&gc, f, out);
    if (strcmp(name, "json_object_agg") == 0 || strcmp(name, "jsonb_object_agg") == 0)
        return agg_object_agg(&gc, f, name, out);
    if (rl_agg_is_regression(name))
        return agg_regression(&gc, f, name, out);
    return eval_plain_aggregate(&gc, f, name, out);
}

/* The aggregate f over the rows of c->agg (FILTER applied). */
static int eval_plain_aggregate(rl_expr_ctx *c, const PgQuery__FuncCall *f, const char *name,
                                rl_value *out)
{
    if (strcmp(name, "count") == 0 && f->agg_star) {
        rl_val_int(out, RL_OID_INT8, (int64_t)c->agg->nrows);
        return 0;
    }
    if (f->n_args != 1) {
        rl_value none[1] = {{0}};
        return no_function(c, name, 0, none, f->location);
    }
    rl_value *vals = NULL;
    uint32_t type = RL_OID_UNKNOWN;
    if (agg_collect(c, f->args[0], &vals, &type) < 0)
        return -1;
    return aggregate_values(c, f, name, vals, c->agg->nrows, type, out);
}

/* count / sum / bool_or / bool_and / max / min of f over vals[0 .. n)
 * (their argument's values, of type `type`), DISTINCT applied here. */
static int aggregate_values(rl_expr_ctx *c, const PgQuery__FuncCall *f, const char *name,
                            rl_value *vals, size_t n, uint32_t type, rl_value *out)
{
    if (f->agg_distinct && agg_distinct_values(c, vals, &n, f->location, f->n_agg_order > 0) < 0)
        return -1;
    if (strcmp(name, "count") == 0) {
        int64_t k = 0;
        for (size_t i = 0; i < n; i++)
            k += !vals[i].d.isnull;
        rl_val_int(out, RL_OID_INT8, k);
        return 0;
    }
    if (strcmp(name, "sum") == 0 && type == RL_OID_UNKNOWN) {
        rl_exec_error(c->x, RL_SQLSTATE_AMBIGUOUS_FUNCTION, f->location,
                      "function sum(unknown) is not unique");
        rl_error_hint(c->x->err, "Could not choose a best candidate function. You might need to "
                                 "add explicit type casts.");
        return -1;
    }
    if (strcmp(name, "sum") == 0)
        return agg_sum(c, vals, n, type, out, f->location);
    if (strcmp(name, "avg") == 0)
        return agg_avg(c, vals, n, type, out, f->location);
    if (strcmp(name, "array_agg") == 0)
        return agg_array(c, vals, n, type, out, f->location);
    if ((strcmp(name, "json_agg") == 0 || strcmp(name, "jsonb_agg") == 0) &&
        type == RL_OID_UNKNOWN) /* json(b)_agg(anyelement) */
        return rl_exec_error(c->x, RL_SQLSTATE_DATATYPE_MISMATCH, -1,
                             "could not determine polymorphic type because input has type "
                             "unknown");
    if (strcmp(name, "json_agg") == 0)
        return rl_json_agg(c, vals, n, out, f->location);
    if (strcmp(name, "jsonb_agg") == 0)
        return rl_jsonb_agg(c, vals, n, out, f->location);
    if (rl_agg_is_variance(name))
        return rl_agg_variance(c, name, vals, n, type, out, f->location);
    if (strncmp(name, "bit_", 4) == 0) {
        if (type == RL_OID_UNKNOWN) { /* int2, int4, int8, bit */
            rl_exec_error(c->x, RL_SQLSTATE_AMBIGUOUS_FUNCTION, f->location,
                          "function %s(unknown) is not unique", name);
            rl_error_hint(c->x->err, "Could not choose a best candidate function. You might "
                                     "need to add explicit type casts.");
            return -1;
        }
        if (!plain_int(type))
            return no_function(c, name, 1, &(rl_value){.oid = type}, f->location);
        rl_agg_bits(name[4] == 'a' ? '&' : name[4] == 'o' ? '|' : '#', vals, n, type, out);
        return 0;
    }
    /* every is bool_and under SQL's name */
    if (strcmp(name, "bool_or") == 0 || strcmp(name, "bool_and") == 0 ||
        strcmp(name, "every") == 0) {
        if (type != RL_OID_BOOL && type != RL_OID_UNKNOWN) /* unknown (NULL) resolves to bool */
            return no_function(c, name, 1, &(rl_value){.oid = type}, f->location);
        bool is_or = strcmp(name, "bool_or") == 0, any = false, acc = !is_or;
        for (size_t i = 0; i < n; i++) {
            if (vals[i].d.isnull)
                continue;
            any = true;
            acc = is_or ? (acc || vals[i].d.v.b) : (acc && vals[i].d.v.b);
        }
        if (any)
            rl_val_bool(out, acc);
        else
            rl_val_null(out, RL_OID_BOOL);
        return 0;
    }
    /* max / min: unknown input resolves to text, as in PostgreSQL, and so do
     * varchar and name (there is no max(varchar): max(text) takes them) */
    uint32_t rtype = type == RL_OID_UNKNOWN || type == RL_OID_VARCHAR || type == RL_OID_NAME
                         ? RL_OID_TEXT
                         : type;
    /* PostgreSQL 15 has no max/min of json(b), bytea, boolean or uuid */
    if (type == RL_OID_JSON || type == RL_OID_JSONB || type == RL_OID_BYTEA ||
        type == RL_OID_BOOL || type == RL_OID_UUID || rl_oid_is_composite(type))
        return no_function(c, name, 1, &(rl_value){.oid = type}, f->location);
    bool is_max = name[1] == 'a';
    const rl_value *best = NULL;
    for (size_t i = 0; i < n; i++) {
        if (vals[i].d.isnull)
            continue;
        int r = 0;
        if (best && rl_value_cmp(c, &vals[i], best, &r, f->location) < 0)
            return -1;
        if (!best || (is_max ? r > 0 : r < 0))
            best = &vals[i];
    }
    if (!best)
        rl_val_null(out, rtype);
    else {
        *out = *best;
        out->oid = rtype;
    }
    return 0;
}

/* A window call's value for the current row, computed beforehand
 * (sql_window.c); its type alone on the typing row. */
static int window_value(rl_expr_ctx *c, const PgQuery__FuncCall *f, rl_value *out)
{
    const rl_window_values *w = c->win;
    if (!w)
        return rl_exec_error(c->x, RL_SQLSTATE_WINDOWING_ERROR, f->location,
                             "window functions are not allowed %s%s", c->clause ? "in " : "",
                             c->clause ? clause_kind(c) : "here");
    for (size_t i = 0; i < w->ncalls; i++) {
        const rl_window_call *wc = &w->calls[i];
        if (wc->f != f)
            continue;
        if (c->typing || !c->b || c->b->rs != w->rs) {
            rl_val_null(out, wc->oid);
            out->typmod = wc->typmod;
            return 0;
        }
        *out = wc->vals[c->b->row];
        return 0;
    }
    return rl_exec_error(c->x, RL_SQLSTATE_WINDOWING_ERROR, f->location,
                         "window functions are not allowed here");
}

/* corr / covar_* / regr_* over (y, x) pairs interleaved in vals. */
static int regression_of_pairs(rl_expr_ctx *c, const PgQuery__FuncCall *f, const char *name,
                               const rl_value *vals, size_t n, rl_value *out)
{
    rl_value *ys = rl_arena_alloc(c->arena, (n + 1) * sizeof *ys);
    rl_value *xs = rl_arena_alloc(c->arena, (n + 1) * sizeof *xs);
    if (!ys || !xs)
        return rl_expr_oom(c);
    for (size_t i = 0; i < n; i++) {
        ys[i] = vals[2 * i];
        xs[i] = vals[2 * i + 1];
        for (rl_value *v = &ys[i]; v; v = v == &ys[i] ? &xs[i] : NULL) {
            if (!rl_oid_is_number(v->oid) && v->oid != RL_OID_UNKNOWN) {
                rl_value types[2] = {{.oid = ys[i].oid}, {.oid = xs[i].oid}};
                return no_function(c, name, 2, types, f->location);
            }
            if (!v->d.isnull && v->oid != RL_OID_FLOAT8 &&
                rl_value_coerce(c, v, RL_OID_FLOAT8, -1, false, v, f->location) < 0)
                return -1;
        }
    }
    return rl_agg_regression(c, name, ys, xs, n, out);
}

int rl_expr_aggregate_values(rl_expr_ctx *c, const PgQuery__FuncCall *f, rl_value *vals, size_t n,
                             uint32_t type, rl_value *out)
{
    const char *name = func_name(f);
    if (name && rl_agg_is_regression(name) && f->n_args == 2 && !f->agg_filter)
        return regression_of_pairs(c, f, name, vals, n, out);
    if (!name || !is_aggregate_name(name) || strcmp(name, "string_agg") == 0 ||
        strstr(name, "object_agg") || f->agg_filter || is_ordered_set_name(name) ||
        f->n_args > 1)
        return rl_exec_error(c->x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, f->location,
                             "this aggregate is not supported as a window over grouped rows");
    if (f->agg_star) {
        rl_val_int(out, RL_OID_INT8, (int64_t)n);
        return 0;
    }
    if (f->n_args != 1) {
        rl_value none[1] = {{0}};
        return no_function(c, name, 0, none, f->location);
    }
    return aggregate_values(c, f, name, vals, n, type, out);
}

int rl_expr_eval_aggregate(rl_expr_ctx *c, const PgQuery__FuncCall *f, rl_value *out)
{
    const char *name = func_name(f);
    if (!name || !is_aggregate_name(name))
        return rl_exec_error(c->x, RL_SQLSTATE_UNDEFINED_FUNCTION, f->location,
                             "aggregate %s does not exist", name ? name : "");
    return eval_aggregate(c, f, name, out);
}

bool rl_expr_is_record_srf(const char *name)
{
    return strcmp(name, "ts_token_type") == 0 || strcmp(name, "pg_options_to_table") == 0 ||
           strcmp(name, "pg_partition_tree") == 0;
}

bool rl_expr_is_srf(const PgQuery__FuncCall *f)
{
    const char *name = func_name(f);
    if (!name || f->over || f->agg_star)
        return false;
    return (strcmp(name, "generate_series") == 0 && (f->n_args == 2 || f->n_args == 3)) ||
           (strcmp(name, "generate_subscripts") == 0 && (f->n_args == 2 || f->n_args == 3)) ||
           (strcmp(name, "unnest") == 0 && f->n_args == 1) || rl_expr_is_expandarray(f) ||
           (rl_json_is_srf(name) && f->n_args == 1) || rl_func_is_setfn(name, f->n_args) ||
           (rl_expr_is_record_srf(name) && f->n_args == 1);
}

int rl_expr_setfn_args(rl_expr_ctx *c, const PgQuery__FuncCall *f, rl_value *a, int *locs,
                       size_t *n)
{
    const char *names[3];
    bool named = false;
    *n = f->n_args;
    assert(*n <= 3);
    for (size_t i = 0; i < *n; i++) {
        const PgQuery__Node *arg = f->args[i];
        names[i] = NULL;
        locs[i] = rl_node_location(arg);
        if (arg->node_case == PG_QUERY__NODE__NODE_NAMED_ARG_EXPR) {
            names[i] = arg->named_arg_expr->name;
            for (size_t k = 0; k < i; k++)
                if (names[k] && strcmp(names[k], names[i]) == 0)
                    return rl_exec_error(c->x, RL_SQLSTATE_SYNTAX_ERROR,
                                         arg->named_arg_expr->location,
                                         "argument name \"%s\" used more than once", names[i]);
            arg = (const PgQuery__Node *)arg->named_arg_expr->arg;
            named = true;
        }
        if (rl_expr_eval(c, arg, &a[i]) < 0)
            return -1;
    }
    if (!named)
        return 0;
    for (size_t i = 0; i < 3; i++)
        locs[i] = -1;
    return rl_func_arrange(c, func_name(f), a, names, n, 3, f->location);
}

bool rl_expr_is_expandarray(const PgQuery__FuncCall *f)
{
    const char *name = func_name(f);
    return name && strcmp(name, "_pg_expandarray") == 0 && f->n_args == 1 &&
           f->n_funcname == 2 &&
           strcmp(rl_node_string(f->funcname[0]) ? rl_node_string(f->funcname[0]) : "",
                  "information_schema") == 0;
}

int rl_expr_expandarray_row(rl_expr_ctx *c, const rl_value *x, int32_t n, rl_value *out)
{
    static const char *const names[] = {"x", "n"};
    rl_value fields[2];
    fields[0] = *x; /* out may be x */
    rl_val_int(&fields[1], RL_OID_INT4, n);
    if (n < 0)
        rl_val_null(&fields[1], RL_OID_INT4);
    rl_buf b;
    rl_buf_init(&b, 0);
    rl_record_build(&b, 2, names, fields);
    if (rl_val_buf_copy(c, out, RL_OID_RECORD, &b) < 0) /* frees b */
        return -1;
    out->typmod = (int32_t)fields[0].oid; /* (x, n)'s shape: what a NULL of it still knows */
    return 0;
}

/* A set-returning call of a target list: its value in the output row being
 * made; on the typing row a NULL of its type (generate_series: int4, int8
 * if an argument is; unnest: the element type); anywhere else 0A000. */
static int eval_srf(rl_expr_ctx *c, const PgQuery__FuncCall *f, rl_value *out)
{
    for (size_t i = 0; c->srf && i < c->srf->n; i++)
        if (c->srf->calls[i] == f) {
            *out = c->srf->vals[i];
            return 0;
        }
    if (!c->typing || c->clause)
        return rl_exec_error(c->x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, f->location,
                             "set-returning functions are not allowed %s%s",
                             c->clause ? "in " : "", c->clause ? clause_kind(c) : "here");
    if (rl_expr_is_record_srf(func_name(f))) /* their records: FROM only */
        return rl_exec_error(c->x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, f->location,
                             "%s is supported in FROM only", func_name(f));
    if (rl_expr_is_expandarray(f)) { /* a record of NULLs that knows its fields' types */
        rl_value a, x;
        if (rl_expr_eval(c, f->args[0], &a) < 0)
            return -1;
        if (!rl_elem_oid_of(a.oid))
            return rl_func_no_function(c, "information_schema._pg_expandarray", 1, &a,
                                       f->location);
        rl_val_null(&x, rl_elem_oid_of(a.oid));
        return rl_expr_expandarray_row(c, &x, -1, out);
    }
    if (rl_json_is_srf(func_name(f))) { /* its one column, or a record of two */
        rl_value a;
        const char *names[2];
        uint32_t types[2];
        if (rl_expr_eval(c, f->args[0], &a) < 0 ||
            rl_json_srf_arg(c, func_name(f), &a, f->location) < 0)
            return -1;
        size_t k = rl_json_srf_shape(func_name(f), names, types);
        rl_val_null(out, k == 1 ? types[0] : RL_OID_RECORD);
        return 0;
    }
    if (rl_func_is_setfn(func_name(f), f->n_args)) { /* its arguments' errors, then its type */
        rl_value a[3], *vals;
        int locs[3];
        size_t count, n;
        if (rl_expr_setfn_args(c, f, a, locs, &n) < 0 ||
            rl_func_setfn_rows(c, func_name(f), n, a, true, &vals, &count, f->location, locs) < 0)
            return -1;
        rl_val_null(out, rl_func_setfn_type(func_name(f), a));
        return 0;
    }
    uint32_t t = RL_OID_INT4;
    bool subscripts = strcmp(func_name(f), "generate_subscripts") == 0;
    if (!subscripts && f->n_args > 1) { /* generate_series: numbers or timestamps */
        rl_value a[3];
        for (size_t i = 0; i < f->n_args; i++)
            if (rl_expr_eval(c, f->args[i], &a[i]) < 0)
                return -1;
        if (rl_func_series_type(c, f->n_args, a, &t, f->location) < 0)
            return -1;
        rl_val_null(out, t);
        return 0;
    }
    for (size_t i = 0; i < f->n_args; i++) {
        rl_value a;
        if (rl_expr_eval(c, f->args[i], &a) < 0)
            return -1;
        if (f->n_args == 1) {
            t = rl_elem_oid_of(a.oid);
            if (!t)
                return rl_func_unnest_refusal(c, 1, &a, f->location);
        } else if (a.oid == RL_OID_INT8 && !subscripts) {
            t = RL_OID_INT8;
        }
    }
    rl_val_null(out, t);
    return 0;
}

/* A call once its arguments are evaluated: arranged, resolved, run (a
 * literal argument's input error at its place, locs). A 42883 after
 * named arguments were placed names the call as it was written. */
static int call_resolved(rl_expr_ctx *c, const PgQuery__FuncCall *f, const char *name,
                         rl_value *args, const char **names, size_t n, bool named,
                         const int *locs, rl_value *out)
{
    rl_value given[MAX_FUNC_ARGS];
    size_t ngiven = n;
    memcpy(given, args, n * sizeof *args);
    if (rl_func_arrange(c, name, args, names, &n, MAX_FUNC_ARGS, f->location) < 0)
        return -1;
    const rl_func *fn;
    if (rl_func_resolve(c, name, n, args, &fn, f->location) < 0) {
        if (strcmp(c->x->err->sqlstate, RL_SQLSTATE_UNDEFINED_FUNCTION) != 0)
            return -1;
        /* the call as written, without the defaults filled in */
        if (named)
            return rl_func_no_named_function(c, name, given, names, ngiven, f->location);
        return n != ngiven ? rl_func_no_function(c, name, ngiven, given, f->location) : -1;
    }
    /* named arguments were placed in the row's order: their literals'
     * places are not followed */
    return rl_func_call(c, fn, n, args, out, f->location, named ? NULL : locs);
}

static int eval_funccall(rl_expr_ctx *c, const PgQuery__FuncCall *f, rl_value *out)
{
    const char *name = func_name(f);
    if (!name)
        return rl_exec_error(c->x, RL_SQLSTATE_SYNTAX_ERROR, f->location,
                             "malformed function call");
    if (f->n_funcname > 1 && !rl_expr_is_expandarray(f)) {
        const char *schema = rl_node_string(f->funcname[f->n_funcname - 2]);
        if (!schema || strcmp(schema, "pg_catalog") != 0)
            return rl_exec_error(c->x, RL_SQLSTATE_INVALID_SCHEMA_NAME, f->location,
                                 "schema \"%s\" does not exist",
                                 schema ? schema : "");
    }
    if (f->over)
        return window_value(c, f, out);
    if (rl_expr_is_srf(f))
        return eval_srf(c, f, out);
    if (is_aggregate_name(name))
        return eval_aggregate(c, f, name, out);
    if (f->n_args > MAX_FUNC_ARGS || f->agg_star)
        return rl_exec_error(c->x, RL_SQLSTATE_UNDEFINED_FUNCTION, f->location,
                             "function %s does not exist", name);
    rl_value args[MAX_FUNC_ARGS];
    const char *names[MAX_FUNC_ARGS];
    int locs[MAX_FUNC_ARGS];
    bool named = false;
    size_t n = f->n_args;
    for (size_t i = 0; i < MAX_FUNC_ARGS; i++)
        locs[i] = i < n ? rl_node_location(f->args[i]) : -1;
    for (size_t i = 0; i < n; i++) {
        const PgQuery__Node *arg = f->args[i];
        names[i] = NULL;
        if (arg->node_case == PG_QUERY__NODE__NODE_NAMED_ARG_EXPR) {
            const PgQuery__NamedArgExpr *na = arg->named_arg_expr;
            for (size_t k = 0; k < i; k++)
                if (names[k] && strcmp(names[k], na->name) == 0)
                    return rl_exec_error(c->x, RL_SQLSTATE_SYNTAX_ERROR, na->location,
                                         "argument name \"%s\" used more than once", na->name);
            names[i] = na->name;
            named = true;
            arg = (const PgQuery__Node *)na->arg;
        }
        if (rl_expr_eval(c, arg, &args[i]) < 0)
            return -1;
    }
    int cast = n != 1 || names[0] ? 0
               : rl_func_cast_call(c, name, n, args, out, rl_node_location(f->args[0]));
    if (cast)
        return cast < 0 ? -1 : 0;
    bool was = c->x->call_qualified;
    c->x->call_qualified = f->n_funcname > 1;
    int rc = call_resolved(c, f, name, args, names, n, named, locs, out);
    c->x->call_qualified = was;
    return rc;
}

/* ------------------------------------------------------------ sublinks */

/* Remember a subquery that typed without error: its one column's type
 * (EXISTS, whatever its columns: bool). */
static void subtype_put(rl_exec *x, const PgQuery__SubLink *sl, const rl_rowset *rs)
{
    if (rs->ncols == 1)
        type_put(x, sl, rs->cols[0].oid, rs->cols[0].typmod);
    else if (sl->sub_link_type == PG_QUERY__SUB_LINK_TYPE__EXISTS_SUBLINK)
        type_put(x, sl, RL_OID_BOOL, -1);
}

static int sublink_columns_error(rl_expr_ctx *c, const PgQuery__SubLink *sl, size_t ncols)
{
    /* transformSubLink: a value or ARRAY() subquery "must return only one
     * column"; an IN / ANY / ALL one compared with one value has too many */
    bool value = sl->sub_link_type == PG_QUERY__SUB_LINK_TYPE__EXPR_SUBLINK ||
                 sl->sub_link_type == PG_QUERY__SUB_LINK_TYPE__ARRAY_SUBLINK;
    return rl_exec_error(c->x, RL_SQLSTATE_SYNTAX_ERROR, sl->location,
                         !value && ncols > 1 ? "subquery has too many columns"
                                             : "subquery must return only one column");
}

/* A subquery on the typing row: its result type only. Its rows are never
 * needed (the typing row's NULLs would only make errors PostgreSQL does
 * not raise at planning time), so it is only typed (rl_select_subquery), once
 * per execution. */
/* An ARRAY(SELECT ...) sublink's result type from its column's. */
static int array_sublink_type(rl_expr_ctx *c, const PgQuery__SubLink *sl, uint32_t elem,
                              uint32_t *out)
{
    *out = rl_array_oid_of(elem);
    if (*out)
        return 0;
    return rl_exec_error(c->x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, sl->location,
                         "ARRAY(SELECT ...) of type %s is not supported", rl_oid_type_name(elem));
}

static int array_sublink_value(rl_expr_ctx *c, const PgQuery__SubLink *sl, const rl_rowset *rs,
                               rl_value *out)
{
    uint32_t t;
    if (array_sublink_type(c, sl, rs->cols[0].oid, &t) < 0)
        return -1;
    return rl_array_of_values(c, t, rs->vals, rs->nrows, rs->ncols, out);
}

/* The dimensions of an array's text ({{1,2},{3,4}}: 2 x 2) as a string of
 * element counts per level along the first element ("2,2"), or "" for an
 * empty array. Enough to check that sub-arrays match, as PostgreSQL does
 * (2202E), for arrays PostgreSQL wrote or this constructor built. */
static void array_dims_sig(const rl_value *v, rl_buf *sig)
{
    enum { MAXD = 6 }; /* PostgreSQL's MAXDIM */
    const uint8_t *p = v->d.v.s.p;
    size_t len = v->d.v.s.len, depth = 0, count[MAXD] = {0};
    bool done[MAXD] = {false}, any[MAXD] = {false}, quoted = false;
    for (size_t i = 0; i < len; i++) {
        uint8_t ch = p[i];
        bool counting = depth >= 1 && depth <= MAXD && !done[depth - 1];
        if (quoted) {
            if (ch == '\\')
                i++;
            else if (ch == '"')
                quoted = false;
        } else if (ch == '{') {
            if (counting)
                any[depth - 1] = true;
            depth++;
        } else if (ch == '}') {
            if (depth >= 1 && depth <= MAXD)
                done[depth - 1] = true; /* the first path only */
            depth -= depth > 0;
        } else if (ch == ',') {
            if (counting)
                count[depth - 1]++;
        } else if (ch != ' ' && counting) {
            any[depth - 1] = true;
            quoted = ch == '"';
        }
    }
    rl_buf_reset(sig);
    for (size_t d = 0; d < MAXD && any[d]; d++)
        rl_buf_printf(sig, "%s%zu", d ? "," : "", count[d] + 1);
}

/* ARRAY[[1,2],[3,4]] (and ARRAY[ARRAY[...], ...]): a multidimensional
 * array of the sub-arrays' common type, kept as its text like any other
 * multidimensional array; the sub-arrays must have equal dimensions
 * (2202E). */
static int eval_array_of_arrays(rl_expr_ctx *c, const PgQuery__AArrayExpr *ae, rl_value *vals,
                                rl_value *out)
{
    size_t n = ae->n_elements;
    uint32_t t = RL_OID_UNKNOWN, lead = RL_OID_UNKNOWN; /* the lead element's type */
    for (size_t i = 0; i < n; i++) {
        if (rl_expr_eval(c, ae->elements[i], &vals[i]) < 0)
            return -1;
        uint32_t have = vals[i].oid;
        if (have != RL_OID_UNKNOWN && !rl_array_elem_oid(have) && lead != RL_OID_UNKNOWN)
            return rl_exec_error(c->x, RL_SQLSTATE_DATATYPE_MISMATCH,
                                 rl_node_location(ae->elements[i]),
                                 "ARRAY types %s and %s cannot be matched",
                                 rl_oid_type_name(lead), rl_oid_type_name(have));
        if (have != RL_OID_UNKNOWN && !rl_array_elem_oid(have))
            return rl_exec_error(c->x, RL_SQLSTATE_DATATYPE_MISMATCH, ae->location,
                                 "multidimensional array elements must be arrays");
        if (lead == RL_OID_UNKNOWN)
            lead = have;
        uint32_t elem = have == RL_OID_UNKNOWN ? have : rl_array_elem_oid(have);
        if (rl_common_type_of(c, t, elem, "ARRAY", rl_node_location(ae->elements[i]), &t) < 0)
            return -1;
    }
    t = rl_array_oid_of(t == RL_OID_UNKNOWN ? RL_OID_TEXT : t); /* t: the common element type */
    if (!t)
        return rl_exec_error(c->x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, ae->location,
                             "arrays of this type are not supported");
    if (c->typing) {
        rl_val_null(out, t);
        return 0;
    }
    rl_buf b, sig, first;
    rl_buf_init(&b, 0);
    rl_buf_init(&sig, 0);
    rl_buf_init(&first, 0);
    int rc = 0;
    rl_buf_put_u8(&b, '{');
    for (size_t i = 0; i < n && rc == 0; i++) {
        rl_value v = vals[i];
        if (v.d.isnull) /* PostgreSQL leaves a NULL sub-array out */
            continue;
        if (v.oid != t && (rc = rl_value_coerce(c, &v, t, -1, false, &v,
                                                rl_node_location(ae->elements[i]))) < 0)
            break;
        array_dims_sig(&v, &sig);
        if (b.len > 1 && (sig.len != first.len || memcmp(sig.data, first.data, sig.len) != 0)) {
            rc = rl_exec_error(c->x, RL_SQLSTATE_ARRAY_SUBSCRIPT_ERROR, -1, /* the executor's */
                               "multidimensional arrays must have array expressions with "
                               "matching dimensions");
            break;
        }
        if (b.len == 1) {
            rl_buf_reset(&first);
            rl_buf_put(&first, sig.data, sig.len);
        } else {
            rl_buf_put_u8(&b, ',');
        }
        rl_buf_put(&b, v.d.v.s.p, v.d.v.s.len);
    }
    rl_buf_put_u8(&b, '}');
    if (rc == 0)
        rc = rl_val_buf_copy(c, out, t, &b);
    rl_buf_free(&b);
    rl_buf_free(&sig);
    rl_buf_free(&first);
    return rc;
}

/* ARRAY[a, b, ...]: the elements in their common type (select_common_type,
 * unknowns text), as that type's array; 42P18 for ARRAY[] without a cast. */
static int eval_array_expr(rl_expr_ctx *c, const PgQuery__AArrayExpr *ae, rl_value *out)
{
    size_t n = ae->n_elements;
    if (n == 0) {
        rl_exec_error(c->x, RL_SQLSTATE_INDETERMINATE_DATATYPE, ae->location,
                      "cannot determine type of empty array");
        rl_error_hint(c->x->err, "Explicitly cast to the desired type, for example "
                                 "ARRAY[]::integer[].");
        return -1;
    }
    rl_value *vals = rl_arena_alloc(c->arena, n * sizeof *vals);
    if (!vals)
        return rl_expr_oom(c);
    uint32_t t = RL_OID_UNKNOWN;
    for (size_t i = 0; i < n; i++)
        if (ae->elements[i]->node_case == PG_QUERY__NODE__NODE_A_ARRAY_EXPR)
            return eval_array_of_arrays(c, ae, vals, out);
    for (size_t i = 0; i < n; i++) {
        if (rl_expr_eval(c, ae->elements[i], &vals[i]) < 0 ||
            rl_common_type_of(c, t, vals[i].oid, "ARRAY", rl_node_location(ae->elements[i]),
                              &t) < 0)
            return -1;
    }
    if (t == RL_OID_UNKNOWN)
        t = RL_OID_TEXT;
    uint32_t at = rl_array_oid_of(t);
    if (!at)
        return rl_exec_error(c->x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, ae->location,
                             "arrays of type %s are not supported", rl_oid_type_name(t));
    for (size_t i = 0; i < n; i++)
        if (!vals[i].d.isnull && vals[i].oid != t &&
            rl_value_coerce(c, &vals[i], t, -1, false, &vals[i], rl_node_location(ae->elements[i])) < 0)
            return -1;
    if (c->typing) {
        rl_val_null(out, at);
        return 0;
    }
    return rl_array_of_values(c, at, vals, n, 1, out);
}

static int type_sublink(rl_expr_ctx *c, const PgQuery__SubLink *sl, rl_value *out)
{
    bool array = sl->sub_link_type == PG_QUERY__SUB_LINK_TYPE__ARRAY_SUBLINK;
    bool expr = sl->sub_link_type == PG_QUERY__SUB_LINK_TYPE__EXPR_SUBLINK || array;
    uint32_t oid;
    int32_t typmod;
    if (type_get(c->x, sl, &oid, &typmod)) { /* typed before: EXISTS / IN are bool */
        if (array && array_sublink_type(c, sl, oid, &oid) < 0)
            return -1;
        rl_val_null(out, expr ? oid : RL_OID_BOOL);
        out->typmod = expr && !array ? typmod : -1;
        return 0;
    }
    rl_rowset *rs = rl_select_subquery(c, sl->subselect->select_stmt, true);
    if (!rs)
        return -1;
    int rc = 0;
    if (rs->ncols != 1 && sl->sub_link_type != PG_QUERY__SUB_LINK_TYPE__EXISTS_SUBLINK) {
        rc = sublink_columns_error(c, sl, rs->ncols);
    } else if (array) {
        subtype_put(c->x, sl, rs);
        if ((rc = array_sublink_type(c, sl, rs->cols[0].oid, &oid)) == 0)
            rl_val_null(out, oid);
    } else {
        subtype_put(c->x, sl, rs);
        rl_val_null(out, expr ? rs->cols[0].oid : RL_OID_BOOL);
        out->typmod = expr ? rs->cols[0].typmod : -1;
    }
    rl_rowset_free(rs);
    return rc;
}

/* row op ANY / ALL (subquery), row IN (subquery), row op (subquery): the
 * subquery has one column per field, each pair typed as row op row
 * (row_compare_values), then compared with each of its rows; the last
 * form takes at most one row (21000), NULL for none. loc: the comparison's
 * place (row op (subquery): the operator's, as PostgreSQL's
 * ROWCOMPARE_SUBLINK takes it). */
static int eval_row_sublink(rl_expr_ctx *c, const PgQuery__SubLink *sl,
                            const PgQuery__RowExpr *l, const char *op, int loc, rl_value *out)
{
    if (!sl->subselect || sl->subselect->node_case != PG_QUERY__NODE__NODE_SELECT_STMT)
        return rl_exec_error(c->x, RL_SQLSTATE_SYNTAX_ERROR, sl->location, "malformed subquery");
    bool all = sl->sub_link_type == PG_QUERY__SUB_LINK_TYPE__ALL_SUBLINK;
    bool single = sl->sub_link_type == PG_QUERY__SUB_LINK_TYPE__ROWCOMPARE_SUBLINK ||
                  sl->sub_link_type == PG_QUERY__SUB_LINK_TYPE__EXPR_SUBLINK;
    int kind = op ? cmp_kind(op) : -1;
    if (kind < 0)
        return rl_exec_error(c->x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, sl->location,
                             "only comparison operators are supported with a row and a "
                             "subquery");
    rl_value *a, *b = rl_arena_alloc(c->arena, (l->n_args + 1) * sizeof *b), r;
    if (!b)
        return rl_expr_oom(c);
    if (eval_row_fields(c, l, &a) < 0)
        return -1;
    rl_rowset *rs = rl_select_subquery(c, sl->subselect->select_stmt, c->typing);
    if (!rs)
        return -1;
    int rc = 0;
    if (rs->ncols != l->n_args)
        rc = rl_exec_error(c->x, RL_SQLSTATE_SYNTAX_ERROR, sl->location,
                           rs->ncols > l->n_args ? "subquery has too many columns"
                                                 : "subquery has too few columns");
    for (size_t i = 0; rc == 0 && i < l->n_args; i++)
        rl_val_null(&b[i], rs->cols[i].oid);
    if (rc == 0) /* the pairs' types, whatever the rows */
        rc = row_compare_values(c, a, b, l->n_args, kind, op, loc, &r);
    if (rc == 0 && single && rs->nrows > 1)
        rc = rl_exec_error(c->x, RL_SQLSTATE_CARDINALITY_VIOLATION, -1,
                           "more than one row returned by a subquery used as an expression");
    if (rc < 0 || c->typing || (single && rs->nrows == 0)) {
        rl_rowset_free(rs);
        rl_val_null(out, RL_OID_BOOL);
        return rc;
    }
    /* ANY: true at the first true, ALL: false at the first false; over no
     * rows ANY is false and ALL true */
    bool saw_null = false, decided = false;
    for (size_t i = 0; i < rs->nrows && !decided && rc == 0; i++) {
        memcpy(b, rl_rowset_row(rs, i), l->n_args * sizeof *b);
        rc = row_compare_values(c, a, b, l->n_args, kind, op, loc, &r);
        if (rc == 0 && single)
            *out = r;
        else if (rc == 0 && r.d.isnull)
            saw_null = true;
        else if (rc == 0 && r.d.v.b != all)
            decided = true;
    }
    rl_rowset_free(rs);
    if (rc < 0 || single)
        return rc;
    put_folded(out, decided, saw_null, !all);
    return 0;
}

static int eval_sublink(rl_expr_ctx *c, const PgQuery__SubLink *sl, rl_value *out)
{
    if (!sl->subselect || sl->subselect->node_case != PG_QUERY__NODE__NODE_SELECT_STMT)
        return rl_exec_error(c->x, RL_SQLSTATE_SYNTAX_ERROR, sl->location, "malformed subquery");
    bool all = sl->sub_link_type == PG_QUERY__SUB_LINK_TYPE__ALL_SUBLINK;
    bool quantified = all || sl->sub_link_type == PG_QUERY__SUB_LINK_TYPE__ANY_SUBLINK;
    if (row_of(sl->testexpr) &&
        (quantified || sl->sub_link_type == PG_QUERY__SUB_LINK_TYPE__ROWCOMPARE_SUBLINK))
        return eval_row_sublink(c, sl, row_of(sl->testexpr),
                                sl->n_oper_name
                                    ? rl_node_string(sl->oper_name[sl->n_oper_name - 1])
                                    : "=",
                                sl->location, out);
    if (sl->sub_link_type != PG_QUERY__SUB_LINK_TYPE__EXPR_SUBLINK &&
        sl->sub_link_type != PG_QUERY__SUB_LINK_TYPE__EXISTS_SUBLINK && !quantified &&
        sl->sub_link_type != PG_QUERY__SUB_LINK_TYPE__ARRAY_SUBLINK)
        return rl_exec_error(c->x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, sl->location,
                             "this kind of subquery (row comparison) is not supported");
    rl_value l;
    const char *op = "=";
    int kind = 0;
    if (quantified) {
        /* x op ANY / ALL (subquery), x IN (subquery) = x = ANY (...) */
        op = sl->n_oper_name ? rl_node_string(sl->oper_name[sl->n_oper_name - 1]) : "=";
        kind = op ? cmp_kind(op) : -1;
        if (kind < 0)
            return rl_exec_error(c->x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, sl->location,
                                 "only comparison operators are supported with ANY / ALL "
                                 "(subquery)");
        if (rl_expr_eval(c, sl->testexpr, &l) < 0)
            return -1;
    }
    if (c->typing)
        return type_sublink(c, sl, out);
    rl_rowset *rs = rl_select_subquery(c, sl->subselect->select_stmt, false);
    if (!rs)
        return -1;
    int rc = 0;
    if (sl->sub_link_type != PG_QUERY__SUB_LINK_TYPE__EXPR_SUBLINK)
        subtype_put(c->x, sl, rs); /* its typing is done too (EXPR: below, once checked) */
    if (sl->sub_link_type == PG_QUERY__SUB_LINK_TYPE__EXISTS_SUBLINK) {
        rl_val_bool(out, rs->nrows > 0);
    } else if (rs->ncols != 1) {
        rc = sublink_columns_error(c, sl, rs->ncols);
    } else if (sl->sub_link_type == PG_QUERY__SUB_LINK_TYPE__ARRAY_SUBLINK) {
        subtype_put(c->x, sl, rs);
        rc = array_sublink_value(c, sl, rs, out);
    } else if (sl->sub_link_type == PG_QUERY__SUB_LINK_TYPE__EXPR_SUBLINK) {
        subtype_put(c->x, sl, rs);
        if (rs->nrows > 1) {
            rc = rl_exec_error(c->x, RL_SQLSTATE_CARDINALITY_VIOLATION, -1,
                               "more than one row returned by a subquery used as an expression");
        } else if (rs->nrows == 0) {
            rl_val_null(out, rs->cols[0].oid);
        } else {
            *out = rs->vals[0];
            rc = rl_value_own(c->arena, out) < 0 ? rl_expr_oom(c) : 0;
        }
    } else { /* ANY: true at the first true, ALL: false at the first false;
                * over no rows ANY is false and ALL true, even for a NULL l */
        bool saw_null = l.d.isnull && rs->nrows > 0, decided = false;
        for (size_t i = 0; i < rs->nrows && !decided && rc == 0; i++) {
            rl_value r;
            rc = compare_nodes_values(c, &l, &rs->vals[i], kind, op, sl->location, &r);
            if (rc == 0 && r.d.isnull)
                saw_null = true;
            else if (rc == 0 && r.d.v.b != all)
                decided = true;
        }
        put_folded(out, decided, saw_null, !all);
    }
    rl_rowset_free(rs);
    return rc;
}

/* ------------------------------------------------------------ dispatch */

/* ------------------------------------------------- plan-time literal check */

/* The column a ColumnRef names at this query level (not beyond a subquery
 * boundary), or NULL. */
static const rl_colmeta *level_column(const rl_binding *b, const PgQuery__Node *n)
{
    if (!n || n->node_case != PG_QUERY__NODE__NODE_COLUMN_REF)
        return NULL;
    const PgQuery__ColumnRef *cr = n->column_ref;
    size_t nf = cr->n_fields;
    if (nf == 0 || nf > 2 || cr->fields[nf - 1]->node_case == PG_QUERY__NODE__NODE_A_STAR)
        return NULL;
    colref r = {nf == 2 ? rl_node_string(cr->fields[0]) : NULL, rl_node_string(cr->fields[nf - 1])};
    if (!r.name)
        return NULL;
    for (; b && b->rs; b = b->outer) {
        long i = find_col_cached(b->rs, cr, &r, NULL);
        if (i >= 0)
            return &b->rs->cols[i];
        if (i == -2)
            return NULL;
    }
    return NULL;
}

/* An unknown-typed literal ('...') compared with column m must be valid
 * input for m's type: PostgreSQL converts it while planning. */
static int check_literal(rl_expr_ctx *c, const rl_colmeta *m, const PgQuery__Node *n)
{
    if (!m || rl_oid_is_textual(m->oid) || !n || n->node_case != PG_QUERY__NODE__NODE_A_CONST ||
        n->a_const->isnull || rl_const(n->a_const)->val_case != PG_QUERY__A__CONST__VAL_SVAL)
        return 0;
    const char *s = rl_const(n->a_const)->sval->sval;
    rl_value in, out;
    rl_val_str(&in, RL_OID_UNKNOWN, s, strlen(s));
    return rl_value_coerce(c, &in, m->oid, -1, false, &out, n->a_const->location);
}

static bool is_compare_op(const PgQuery__AExpr *e)
{
    const char *op = op_name(e);
    return op && (strcmp(op, "=") == 0 || strcmp(op, "<>") == 0 || strcmp(op, "!=") == 0 ||
                  strcmp(op, "<") == 0 || strcmp(op, ">") == 0 || strcmp(op, "<=") == 0 ||
                  strcmp(op, ">=") == 0);
}

static int check_aexpr(rl_expr_ctx *c, const PgQuery__AExpr *e)
{
    const rl_colmeta *lm = level_column(c->b, e->lexpr);
    switch (e->kind) {
    case PG_QUERY__A__EXPR__KIND__AEXPR_OP:
        if (!is_compare_op(e))
            return 0;
        if (check_literal(c, lm, e->rexpr) < 0)
            return -1;
        return check_literal(c, level_column(c->b, e->rexpr), e->lexpr);
    case PG_QUERY__A__EXPR__KIND__AEXPR_IN:
    case PG_QUERY__A__EXPR__KIND__AEXPR_BETWEEN:
    case PG_QUERY__A__EXPR__KIND__AEXPR_NOT_BETWEEN:
        if (!lm || !e->rexpr || e->rexpr->node_case != PG_QUERY__NODE__NODE_LIST)
            return 0;
        for (size_t i = 0; i < e->rexpr->list->n_items; i++)
            if (check_literal(c, lm, e->rexpr->list->items[i]) < 0)
                return -1;
        return 0;
    default:
        return 0;
    }
}

int rl_expr_check_literals(rl_expr_ctx *c, const PgQuery__Node *node)
{
    if (!node)
        return 0;
    if (node->node_case == PG_QUERY__NODE__NODE_BOOL_EXPR) {
        for (size_t i = 0; i < node->bool_expr->n_args; i++)
            if (rl_expr_check_literals(c, node->bool_expr->args[i]) < 0)
                return -1;
        return 0;
    }
    if (node->node_case == PG_QUERY__NODE__NODE_A_EXPR)
        return check_aexpr(c, node->a_expr);
    return 0;
}

int rl_expr_check_where(rl_expr_ctx *c, const PgQuery__Node *where)
{
    if (!where)
        return 0;
    bool typing = c->typing;
    c->typing = false;
    int rc = rl_expr_check_literals(c, where);
    c->typing = true;
    if (rc == 0 && rl_expr_truth(c, where) < 0)
        rc = -1;
    c->typing = typing;
    return rc;
}

/* Which grouping expression of c->grouping the node is (the same
 * expression, or a reference to the same column), or -1. */
static long grouping_index(rl_expr_ctx *c, const PgQuery__Node *node)
{
    const rl_grouping *g = c->grouping;
    bool constant = node->node_case == PG_QUERY__NODE__NODE_A_CONST;
    const rl_colmeta *col = constant ? NULL : rl_expr_column(c->b, node);
    for (size_t i = 0; i < g->nexprs; i++) /* a constant only as the same node: a position's */
        if (node == g->exprs[i] || (!constant && rl_node_equal(&node->base, &g->exprs[i]->base)) ||
            (col && col == rl_expr_column(c->b, g->exprs[i])))
            return (long)i;
    return -1;
}

/* GROUPING(a, b, ...): bit i (from the left, most significant first) set
 * when argument i is a grouping expression this row's set leaves out. */
static int eval_grouping_func(rl_expr_ctx *c, const PgQuery__GroupingFunc *gf, rl_value *out)
{
    if (gf->n_args > 31)
        return rl_exec_error(c->x, RL_SQLSTATE_TOO_MANY_ARGUMENTS, gf->location,
                             "GROUPING must have fewer than 32 arguments");
    if (!c->agg)
        return rl_exec_error(c->x, RL_SQLSTATE_GROUPING_ERROR, gf->location,
                             "grouping operations are not allowed here");
    if (c->typing && !c->grouping) { /* the type alone; the groups check the arguments */
        rl_val_int(out, RL_OID_INT4, 0);
        return 0;
    }
    int32_t bits = 0;
    for (size_t i = 0; i < gf->n_args; i++) {
        long g = c->grouping ? grouping_index(c, gf->args[i]) : -1;
        if (g < 0)
            return rl_exec_error(c->x, RL_SQLSTATE_GROUPING_ERROR, rl_node_location(gf->args[i]),
                                 "arguments to GROUPING must be grouping expressions of the "
                                 "associated query level");
        bits = bits << 1 | c->grouping->absent[g];
    }
    rl_val_int(out, RL_OID_INT4, bits);
    return 0;
}

static int eval_node(rl_expr_ctx *c, const PgQuery__Node *node, rl_value *out);

/* array[i]: the element at 1-based position i of a one-dimensional array
 * (int2vector and oidvector count from 0, as PostgreSQL's do), NULL when out of range
 * or either is NULL. Slices and several subscripts are not supported. */
/* (record).field: the field's value in its type. A NULL record (the
 * typing row of a record column) has no fields to read: its typmod says
 * the type of x of _pg_expandarray's (x, n), the one record RockLake
 * makes. */
/* (s).f where s names no column but a FROM item: its column f, as
 * PostgreSQL reads a whole-row reference's field (a column s of the
 * same name wins there; here the FROM item does). 1 done, 0 not such a
 * reference, -1 error. */
static int eval_item_field(rl_expr_ctx *c, const PgQuery__AIndirection *ind, const char *field,
                           rl_value *out)
{
    const PgQuery__Node *a = ind->arg;
    if (a->node_case != PG_QUERY__NODE__NODE_COLUMN_REF || a->column_ref->n_fields != 1 ||
        !rl_node_string(a->column_ref->fields[0]))
        return 0;
    colref r = {.rel = rl_node_string(a->column_ref->fields[0]), .name = field};
    rl_error keep = *c->x->err;
    if (eval_colref_as(c, ind, r, a->column_ref->location, out) == 0)
        return 1;
    bool no_item = strcmp(c->x->err->sqlstate, RL_SQLSTATE_UNDEFINED_TABLE) == 0;
    if (!no_item)
        return -1; /* the item is there: its column is not (42703), or ambiguous */
    *c->x->err = keep;
    return 0;
}

/* A NULL of a table's row type knows its fields: field's type is that
 * column's; 42703 when the table has no such column. */
static int rowtype_field_null(rl_expr_ctx *c, uint32_t type, const char *field, int at,
                              rl_value *out)
{
    rl_relation rel;
    int r = rl_relation_of_rowtype(c->x, type, &rel);
    if (r < 0)
        return -1;
    for (size_t i = 0, n = r == 1 ? rl_relation_ncols(c->x, &rel) : 0; i < n; i++) {
        const char *name;
        uint32_t oid;
        int32_t typmod;
        rl_relation_col(&rel, i, &name, &oid, &typmod);
        if (strcmp(name, field) == 0) {
            rl_val_null(out, oid);
            out->typmod = typmod;
            return 0;
        }
    }
    return rl_exec_error(c->x, RL_SQLSTATE_UNDEFINED_COLUMN, at,
                         "column \"%s\" not found in data type %s", field,
                         r == 1 ? rel.name : "record");
}

static int eval_field(rl_expr_ctx *c, const PgQuery__AIndirection *ind, const char *field,
                      rl_value *out)
{
    int item = eval_item_field(c, ind, field, out);
    if (item != 0)
        return item < 0 ? -1 : 0;
    rl_value rec;
    if (rl_expr_eval(c, ind->arg, &rec) < 0)
        return -1;
    /* ParseComplexProjection's errors point at the record expression */
    int at = rl_node_location(ind->arg);
    if (!rl_oid_is_composite(rec.oid))
        return rl_exec_error(c->x, RL_SQLSTATE_WRONG_OBJECT_TYPE, at,
                             "column notation .%s applied to type %s, which is not a composite "
                             "type",
                             field, rl_oid_type_name(rec.oid));
    /* ROW(...)::t is a conversion, at its :: */
    const PgQuery__Node *a = ind->arg;
    int row_at = a->node_case == PG_QUERY__NODE__NODE_TYPE_CAST && row_of(a->type_cast->arg)
                     ? a->type_cast->location
                     : at;
    if (rec.d.isnull && rl_oid_is_rowtype(rec.oid)) /* its table's column */
        return rowtype_field_null(c, rec.oid, field, row_at, out);
    if (rec.d.isnull) { /* only _pg_expandarray makes records: its typmod is x's type */
        if (rec.typmod <= 0 || (strcmp(field, "x") != 0 && strcmp(field, "n") != 0))
            return rl_exec_error(c->x, RL_SQLSTATE_UNDEFINED_COLUMN, at,
                                 "could not identify column \"%s\" in record data type", field);
        rl_val_null(out, field[0] == 'x' ? (uint32_t)rec.typmod : RL_OID_INT4);
        return 0;
    }
    uint32_t oid = 0;
    bool isnull = true;
    rl_buf text;
    rl_buf_init(&text, 0);
    if (!rl_record_field(&rec, field, &oid, &text, &isnull)) {
        rl_buf_free(&text);
        if (rl_oid_is_rowtype(rec.oid)) /* "not found in data type t" */
            return rowtype_field_null(c, rec.oid, field, row_at, out);
        return rl_exec_error(c->x, RL_SQLSTATE_UNDEFINED_COLUMN, at,
                             "could not identify column \"%s\" in record data type", field);
    }
    int rc = 0;
    rl_val_null(out, oid);
    if (!isnull) {
        rc = rl_text_to_value(c, text.len ? (const char *)text.data : "", text.len, oid, -1,
                              false, out, -1);
        if (rc == 0 && rl_value_own(c->arena, out) < 0)
            rc = rl_expr_oom(c);
    }
    rl_buf_free(&text);
    return rc;
}

static int eval_subscript(rl_expr_ctx *c, const PgQuery__AIndirection *ind, rl_value *out)
{
    const PgQuery__Node *ix = ind->n_indirection == 1 ? ind->indirection[0] : NULL;
    if (ix && ix->node_case == PG_QUERY__NODE__NODE_STRING)
        return eval_field(c, ind, ix->string->sval, out);
    if (!ix || ix->node_case != PG_QUERY__NODE__NODE_A_INDICES || ix->a_indices->is_slice ||
        !ix->a_indices->uidx)
        return rl_exec_error(c->x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                             "only a single array subscript is supported");
    rl_value arr, i;
    if (rl_expr_eval(c, ind->arg, &arr) < 0 || rl_expr_eval(c, ix->a_indices->uidx, &i) < 0)
        return -1;
    if (i.oid == RL_OID_UNKNOWN && rl_value_coerce(c, &i, RL_OID_INT4, -1, false, &i, -1) < 0)
        return -1;
    bool vector = arr.oid == RL_OID_INT2VECTOR || arr.oid == RL_OID_OIDVECTOR;
    uint32_t elem = rl_elem_oid_of(arr.oid);
    if (!elem)
        return rl_exec_error(c->x, RL_SQLSTATE_DATATYPE_MISMATCH, -1,
                             "cannot subscript type %s because it does not support subscripting",
                             rl_oid_type_name(arr.oid));
    if (!rl_oid_is_intlike(i.oid))
        return rl_exec_error(c->x, RL_SQLSTATE_DATATYPE_MISMATCH, -1,
                             "array subscript must have type integer");
    rl_val_null(out, elem);
    if (arr.d.isnull || i.d.isnull)
        return 0;
    int64_t want = i.d.v.i - (vector ? 0 : 1), k = 0;
    size_t pos = 0;
    rl_buf el;
    rl_buf_init(&el, 0);
    bool isnull = false, found = false;
    while (!found && want >= 0 && rl_elem_next(&arr, &pos, &el, &isnull))
        found = k++ == want;
    int rc = 0;
    if (found && !isnull) {
        rc = rl_text_to_value(c, el.len ? (const char *)el.data : "", el.len, elem, -1, false,
                              out, -1);
        /* a text-like element points into el, freed below: into the arena */
        if (rc == 0 && rl_value_own(c->arena, out) < 0)
            rc = rl_expr_oom(c);
    }
    rl_buf_free(&el);
    return rc;
}

int rl_expr_eval(rl_expr_ctx *c, const PgQuery__Node *node, rl_value *out)
{
    if (!node)
        return rl_exec_error(c->x, RL_SQLSTATE_INTERNAL_ERROR, -1, "missing expression");
    if (rl_exec_check_cancel(c->x) < 0 || rl_exec_check_stack(c->x) < 0)
        return -1;
    if (!c->grouping || !c->grouping->any_absent)
        return eval_node(c, node, out);
    long g = grouping_index(c, node);
    if (g < 0)
        return eval_node(c, node, out);
    /* a grouping expression is one value: what is inside it is not looked
     * at again (a column it holds may be left out of the set on its own) */
    rl_expr_ctx whole = *c;
    whole.grouping = NULL;
    if (eval_node(&whole, node, out) < 0)
        return -1;
    if (c->grouping->absent[g]) /* left out of this grouping set */
        out->d.isnull = true;
    return 0;
}

static int eval_node(rl_expr_ctx *c, const PgQuery__Node *node, rl_value *out)
{
    switch (node->node_case) {
    case PG_QUERY__NODE__NODE_GROUPING_FUNC: return eval_grouping_func(c, node->grouping_func, out);
    case PG_QUERY__NODE__NODE_A_ARRAY_EXPR: return eval_array_expr(c, node->a_array_expr, out);
    case PG_QUERY__NODE__NODE_A_CONST:
        if (rl_eval_const(c, rl_const(node->a_const), out) < 0)
            return -1;
        if (c->typing && c->x->unreached > 0)
            rl_val_null(out, out->oid); /* its type only: see rl_exec.unreached */
        return 0;
    case PG_QUERY__NODE__NODE_COLUMN_REF: return eval_colref(c, node->column_ref, out);
    case PG_QUERY__NODE__NODE_PARAM_REF: return rl_eval_param(c, node->param_ref, out);
    case PG_QUERY__NODE__NODE_A_EXPR: return eval_aexpr(c, node->a_expr, out);
    case PG_QUERY__NODE__NODE_BOOL_EXPR: return eval_boolexpr(c, node->bool_expr, out);
    case PG_QUERY__NODE__NODE_NULL_TEST: return eval_nulltest(c, node->null_test, out);
    case PG_QUERY__NODE__NODE_BOOLEAN_TEST: return eval_booltest(c, node->boolean_test, out);
    case PG_QUERY__NODE__NODE_TYPE_CAST: return eval_typecast(c, node->type_cast, out);
    case PG_QUERY__NODE__NODE_COLLATE_CLAUSE: return eval_collate(c, node->collate_clause, out);
    case PG_QUERY__NODE__NODE_FUNC_CALL: return eval_funccall(c, node->func_call, out);
    case PG_QUERY__NODE__NODE_COALESCE_EXPR: return eval_coalesce(c, node->coalesce_expr, out);
    case PG_QUERY__NODE__NODE_MIN_MAX_EXPR: return eval_minmax(c, node->min_max_expr, out);
    case PG_QUERY__NODE__NODE_CASE_EXPR: return eval_case(c, node->case_expr, out);
    case PG_QUERY__NODE__NODE_SUB_LINK: return eval_sublink(c, node->sub_link, out);
    case PG_QUERY__NODE__NODE_SQLVALUE_FUNCTION: return eval_sqlvalue(c, node->sqlvalue_function, out);
    case PG_QUERY__NODE__NODE_A_INDIRECTION: return eval_subscript(c, node->a_indirection, out);
    case PG_QUERY__NODE__NODE_ROW_EXPR: return eval_row(c, node->row_expr, out);
    default: {
        const ProtobufCFieldDescriptor *fd =
            protobuf_c_message_descriptor_get_field(&pg_query__node__descriptor, node->node_case);
        return rl_exec_error(c->x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                             "expression %s is not supported", fd ? fd->name : "?");
    }
    }
}

/* ------------------------------------------------------------ names */

static void copy_name(char *out, size_t n, const char *s)
{
    snprintf(out, n, "%s", s);
}

static const char *sqlvalue_name(PgQuery__SQLValueFunctionOp op)
{
    switch (op) {
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_DATE: return "current_date";
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_TIME:
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_TIME_N: return "current_time";
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_TIMESTAMP:
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_TIMESTAMP_N: return "current_timestamp";
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_LOCALTIME:
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_LOCALTIME_N: return "localtime";
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_LOCALTIMESTAMP:
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_LOCALTIMESTAMP_N: return "localtimestamp";
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_ROLE: return "current_role";
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_USER: return "current_user";
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_USER: return "user";
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_SESSION_USER: return "session_user";
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_CATALOG: return "current_catalog";
    case PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_SCHEMA: return "current_schema";
    default: return "?column?";
    }
}

/* PostgreSQL's FigureColname: returns true when the name is "strong"
 * (a column, function, ...), false for the "?column?" fallback. */
static bool figure_name(const PgQuery__Node *node, char *out, size_t n)
{
    copy_name(out, n, "?column?");
    if (!node)
        return false;
    switch (node->node_case) {
    case PG_QUERY__NODE__NODE_GROUPING_FUNC:
        copy_name(out, n, "grouping");
        return true;
    case PG_QUERY__NODE__NODE_A_ARRAY_EXPR:
        copy_name(out, n, "array");
        return true;
    case PG_QUERY__NODE__NODE_COLUMN_REF: {
        const PgQuery__ColumnRef *cr = node->column_ref;
        const char *s = cr->n_fields ? rl_node_string(cr->fields[cr->n_fields - 1]) : NULL;
        if (!s)
            return false;
        copy_name(out, n, s);
        return true;
    }
    case PG_QUERY__NODE__NODE_FUNC_CALL: {
        const char *s = func_name(node->func_call);
        if (!s)
            return false;
        copy_name(out, n, s);
        return true;
    }
    case PG_QUERY__NODE__NODE_A_INDIRECTION: { /* x[i] is named as x, (r).f as f */
        const PgQuery__AIndirection *ind = node->a_indirection;
        const PgQuery__Node *last = ind->n_indirection ? ind->indirection[ind->n_indirection - 1]
                                                       : NULL;
        if (last && last->node_case == PG_QUERY__NODE__NODE_STRING) {
            copy_name(out, n, last->string->sval);
            return true;
        }
        return figure_name(ind->arg, out, n);
    }
    case PG_QUERY__NODE__NODE_TYPE_CAST: {
        /* PostgreSQL's strengths: a cast's type name (weak) yields to a
         * column's or function's name under it, and to nothing weaker, so
         * in x::a::b the outermost cast names a cast of a literal or CASE */
        const PgQuery__Node *inner = node->type_cast->arg;
        while (inner && inner->node_case == PG_QUERY__NODE__NODE_TYPE_CAST)
            inner = inner->type_cast->arg;
        if (inner && inner->node_case != PG_QUERY__NODE__NODE_CASE_EXPR &&
            figure_name(inner, out, n))
            return true;
        const PgQuery__TypeName *tn = node->type_cast->type_name;
        const char *s = tn && tn->n_names ? rl_node_string(tn->names[tn->n_names - 1]) : NULL;
        if (!s)
            return false;
        copy_name(out, n, s);
        return true;
    }
    case PG_QUERY__NODE__NODE_COLLATE_CLAUSE: return figure_name(node->collate_clause->arg, out, n);
    case PG_QUERY__NODE__NODE_A_EXPR:
        if (node->a_expr->kind == PG_QUERY__A__EXPR__KIND__AEXPR_NULLIF) {
            copy_name(out, n, "nullif");
            return true;
        }
        return false;
    case PG_QUERY__NODE__NODE_COALESCE_EXPR: copy_name(out, n, "coalesce"); return true;
    case PG_QUERY__NODE__NODE_ROW_EXPR: copy_name(out, n, "row"); return true;
    case PG_QUERY__NODE__NODE_MIN_MAX_EXPR:
        copy_name(out, n, node->min_max_expr->op == PG_QUERY__MIN_MAX_OP__IS_GREATEST ? "greatest"
                                                                                   : "least");
        return true;
    case PG_QUERY__NODE__NODE_CASE_EXPR: {
        /* CASE takes its ELSE's name when that is strong, else "case" (a
         * cast is as strong as what it casts: its type name is weak) */
        const PgQuery__Node *d = node->case_expr->defresult;
        while (d && (d->node_case == PG_QUERY__NODE__NODE_TYPE_CAST ||
                     d->node_case == PG_QUERY__NODE__NODE_CASE_EXPR))
            d = d->node_case == PG_QUERY__NODE__NODE_TYPE_CAST ? d->type_cast->arg
                                                               : d->case_expr->defresult;
        if (d && figure_name(d, out, n))
            return true;
        copy_name(out, n, "case");
        return true;
    }
    case PG_QUERY__NODE__NODE_SQLVALUE_FUNCTION:
        copy_name(out, n, sqlvalue_name(node->sqlvalue_function->op));
        return true;
    case PG_QUERY__NODE__NODE_SUB_LINK: {
        const PgQuery__SubLink *sl = node->sub_link;
        if (sl->sub_link_type == PG_QUERY__SUB_LINK_TYPE__EXISTS_SUBLINK) {
            copy_name(out, n, "exists");
            return true;
        }
        if (sl->sub_link_type == PG_QUERY__SUB_LINK_TYPE__ARRAY_SUBLINK) {
            copy_name(out, n, "array");
            return true;
        }
        if (sl->sub_link_type == PG_QUERY__SUB_LINK_TYPE__EXPR_SUBLINK && sl->subselect &&
            sl->subselect->node_case == PG_QUERY__NODE__NODE_SELECT_STMT) {
            const PgQuery__SelectStmt *st = sl->subselect->select_stmt;
            while (st->larg) /* a set operation takes its left branch's names */
                st = st->larg;
            if (st->n_target_list && st->target_list[0]->node_case == PG_QUERY__NODE__NODE_RES_TARGET) {
                const PgQuery__ResTarget *rt = st->target_list[0]->res_target;
                if (rt->name && rt->name[0]) {
                    copy_name(out, n, rt->name);
                    return true;
                }
                return figure_name(rt->val, out, n);
            }
        }
        return false;
    }
    default: return false;
    }
}

void rl_expr_default_name(const PgQuery__Node *node, char *out, size_t n)
{
    figure_name(node, out, n);
}
