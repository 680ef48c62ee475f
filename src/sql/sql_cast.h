/*
 * sql_cast.h — the evaluation context of an expression (column bindings,
 * aggregate state: sql_expr.c evaluates in it, casts coerce in it), and
 * values of a type (sql_cast.c), private to src/sql/: making values, the
 * type families, literal and parameter values, text input of every type,
 * coercion and casts, type names.
 *
 * Below expressions (sql_expr.c) and the scans (sql_scan.c, which evaluate
 * the constants of a key prefix with rl_const_eval): nothing here evaluates
 * an expression other than a constant, a parameter or a cast of one.
 */
#ifndef ROCKLAKE_SQL_CAST_H
#define ROCKLAKE_SQL_CAST_H

#include <pg_query/pg_query.pb-c.h>

#include "sql/sql_exec.h"
#include "sql/sql_value.h"

/* ------------------------------------------------------ evaluation context */

/* Column bindings visible to an expression: a stack of row sets with the
 * current row of each (outer queries below inner ones). */
typedef struct rl_binding {
    rl_rowset *rs;            /* NULL = a subquery boundary (see correlated) */
    size_t row;
    const struct rl_binding *outer;
    bool *correlated;         /* boundary only: set when a column lookup
                                 crosses it (the subquery is correlated) */
} rl_binding;

/* Aggregate state for MAX/MIN/COUNT/SUM over a group (NULL when evaluating
 * a non-aggregate context). sql_select.c fills it: an aggregate's argument
 * is evaluated once per row rs[rows[i]], seen through `outer`. */
typedef struct rl_agg_ctx {
    rl_rowset *rs;
    const size_t *rows;
    size_t nrows;
    const rl_binding *outer;
} rl_agg_ctx;

/* Window function values of one query level (sql_window.c computes them
 * before the projection): call `calls[i].f`'s value for row r of `rs` is
 * calls[i].vals[r], of type calls[i].oid / typmod. */
typedef struct rl_window_call {
    const PgQuery__FuncCall *f;
    uint32_t oid;
    int32_t typmod;
    rl_value *vals;
} rl_window_call;
typedef struct rl_window_values {
    const rl_rowset *rs;
    rl_window_call *calls;
    size_t ncalls;
} rl_window_values;

/* The grouping set of the group being projected, in a query grouped by
 * GROUPING SETS / ROLLUP / CUBE, or plain GROUP BY (sql_select.c): exprs
 * are all its grouping
 * expressions; those absent[i] from this set read as NULL in the targets and
 * HAVING (not inside aggregates), and GROUPING() reports them. */
typedef struct rl_grouping {
    const PgQuery__Node *const *exprs;
    size_t nexprs;
    const bool *absent;
    bool any_absent;  /* false: a plain GROUP BY (only GROUPING() reads this) */
} rl_grouping;

/* The current row of the set-returning functions of a target list
 * (sql_select.c's projection): calls[i] (a FuncCall node) has the value
 * vals[i] in the output row being made. */
typedef struct rl_srf_row {
    size_t n;
    const void *const *calls;
    const rl_value *vals;
} rl_srf_row;

typedef struct rl_expr_ctx {
    rl_exec *x;
    const rl_binding *b;
    rl_agg_ctx *agg;
    rl_arena *arena;          /* strings produced by evaluation */
    bool typing;              /* evaluating on an all-NULL row only for the
                                 result type: CASE evaluates every branch */
    const struct rl_cte_env *ctes; /* WITH queries in scope, for the
                                      expression's subqueries (sql_select.c) */
    const rl_window_values *win; /* the target list's window values; NULL
                                    where window functions are not allowed */
    const rl_grouping *grouping; /* NULL unless grouped by grouping sets */
    const rl_srf_row *srf;       /* set-returning calls of the target list */
    const char *clause;          /* the clause being checked, as PostgreSQL's
                                    "argument of %s must be type boolean"
                                    names it (WHERE, HAVING, JOIN/ON, FILTER);
                                    NULL: none known (a boolean reads WHERE,
                                    a window or set-returning call "here") */
} rl_expr_ctx;

/* May a value of type `from` be stored in a column of type `to` (INSERT,
 * UPDATE: PostgreSQL's assignment coercion)? Same type, an unknown literal,
 * a string target (I/O conversion), or a cast PostgreSQL marks implicit or
 * assignment (among numbers, among date/time types, json and jsonb, arrays
 * of such elements). Only the lake's stored types are judged: another pair
 * is left to rl_value_coerce. */
bool rl_assignable(uint32_t from, uint32_t to);
/* Coerce to a type as an assignment would (INSERT/UPDATE/COPY) or as an
 * explicit cast (explicit = true). 22P02 / 22003 / 42804 on failure. */
int rl_value_coerce(rl_expr_ctx *c, const rl_value *in, uint32_t oid, int32_t typmod,
                    bool explicit_cast, rl_value *out, int location);
/* An array of type `t` (its text form, as array_out writes it) from n
 * values, the i-th at vals[i * stride]. */
/* Room for n element values within the statement's result budget: 0, or
 * -1 with 54000. */
int rl_array_room(rl_expr_ctx *c, size_t n);
/* The elements of non-NULL array `arr` (its text; int2vector and oidvector
 * too), each through its element type's input (typmod, explicit_cast), as
 * *n values in the statement's arena. With `whole` (the literal as the
 * client gave it), array_in's checks of an input literal: an unquoted empty
 * element ({1,,2}, {1,}) is 22P02 naming it. 0, or -1 with c's error. */
int rl_array_elements(rl_expr_ctx *c, const rl_value *arr, int32_t typmod, bool explicit_cast,
                      const char *whole, size_t wlen, rl_value **vals, size_t *n, int loc);
int rl_array_of_values(rl_expr_ctx *c, uint32_t t, const rl_value *vals, size_t n, size_t stride,
                       rl_value *out);
/* Type name as SQL spells it ("bigint", "character varying") -> OID/typmod. */
int rl_type_from_typename(rl_exec *x, const PgQuery__TypeName *tn, uint32_t *oid,
                          int32_t *typmod);
/* PostgreSQL's name of a type in messages ("bigint", "character varying"). */
const char *rl_oid_type_name(uint32_t oid);
/* rl_oid_type_name, but a table's row type (or its array type) by the
 * table's name as format_type prints it (the string lives until this
 * thread's fourth call after). */
const char *rl_type_name_in(rl_exec *x, uint32_t oid);

/* ----------------------------------------------------------- making values */

static inline void rl_val_null(rl_value *v, uint32_t oid)
{
    memset(v, 0, sizeof *v);
    v->oid = oid;
    v->typmod = -1;
    v->d.isnull = true;
}

static inline void rl_val_int(rl_value *v, uint32_t oid, int64_t i)
{
    memset(v, 0, sizeof *v);
    v->oid = oid;
    v->typmod = -1;
    v->d.v.i = i;
}

static inline void rl_val_bool(rl_value *v, bool b)
{
    memset(v, 0, sizeof *v);
    v->oid = RL_OID_BOOL;
    v->typmod = -1;
    v->d.v.b = b;
}

static inline void rl_val_float(rl_value *v, uint32_t oid, double f)
{
    memset(v, 0, sizeof *v);
    v->oid = oid;
    v->typmod = -1;
    v->d.v.f = f;
}

/* A string value borrowing p. */
static inline void rl_val_str(rl_value *v, uint32_t oid, const void *p, size_t len)
{
    memset(v, 0, sizeof *v);
    v->oid = oid;
    v->typmod = -1;
    v->d.v.s.p = len ? p : (const uint8_t *)"";
    v->d.v.s.len = len;
}

/* Out of memory (XX000) in the evaluation context. */
int rl_expr_oom(rl_expr_ctx *c);
/* A string value copied into the evaluation arena (0, or -1 out of memory). */
int rl_val_str_copy(rl_expr_ctx *c, rl_value *v, uint32_t oid, const void *p, size_t len);
/* The bytes of b as a string value in the arena; frees b. */
int rl_val_buf_copy(rl_expr_ctx *c, rl_value *v, uint32_t oid, rl_buf *b);

/* ------------------------------------------------------------ type families */

static inline bool rl_oid_is_float(uint32_t oid) { return oid == RL_OID_FLOAT4 || oid == RL_OID_FLOAT8; }

static inline bool rl_oid_is_number(uint32_t oid)
{
    return rl_oid_is_intlike(oid) || rl_oid_is_float(oid) || oid == RL_OID_NUMERIC;
}

/* String types, compared bytewise (our collation is "C" everywhere; bpchar
 * without its trailing blanks: sql_expr.c). */
static inline bool rl_oid_is_textual(uint32_t oid)
{
    return oid == RL_OID_TEXT || oid == RL_OID_VARCHAR || oid == RL_OID_NAME ||
           oid == RL_OID_CHAR || oid == RL_OID_UNKNOWN || oid == RL_OID_BPCHAR;
}

static inline bool rl_oid_is_timestamp(uint32_t oid)
{
    return oid == RL_OID_TIMESTAMP || oid == RL_OID_TIMESTAMPTZ || oid == RL_OID_DATE;
}

/* date -> microseconds since 2000-01-01, keeping infinities. */
static inline int64_t rl_ts_micros(const rl_value *v)
{
    if (v->oid != RL_OID_DATE)
        return v->d.v.i;
    if (v->d.v.i == INT32_MAX)
        return INT64_MAX;
    if (v->d.v.i == INT32_MIN)
        return INT64_MIN;
    return v->d.v.i * 86400000000LL;
}

/* PostgreSQL's type category (pg_type.typcategory) of the types values
 * here have ('N' numeric, 'S' string, 'B', 'D' date/time, 'T' timespan;
 * 0 for a category of its own), whether the type is its category's
 * preferred one (typispreferred: float8, oid, text, timestamptz, interval,
 * bool), and whether PostgreSQL casts `from` to `to` implicitly (pg_cast's
 * castcontext 'i' among these types, text-likes into text included). */
char rl_oid_category(uint32_t oid);
bool rl_oid_preferred(uint32_t oid);
/* A number type's rung on the implicit-cast ladder int2 < int4 < int8 <
 * numeric < float4 < float8 (1..6), 0 for any other type. */
int rl_oid_number_rank(uint32_t oid);
bool rl_oid_implicit_cast(uint32_t from, uint32_t to);

/* 22003 "<type> out of range". */
int rl_range_error(rl_expr_ctx *c, uint32_t oid, int loc);
/* 22003 unless i fits oid (int2, int4, oid, regclass). */
int rl_int_fits(rl_expr_ctx *c, uint32_t oid, int64_t i, int loc);

/* ------------------------------------------------------------ coercion */

/* Conversions inside the numeric family (int2/4/8, oid, numeric, float). */
int rl_number_convert(rl_expr_ctx *c, const rl_value *in, uint32_t oid, rl_value *out, int loc);
/* Input text of a type (a literal or a cast from text). */
int rl_text_to_value(rl_expr_ctx *c, const char *p, size_t len, uint32_t oid, int32_t typmod,
                     bool explicit_cast, rl_value *out, int loc);
/* numeric(p,s)'s typmod applied to a numeric v (rounded to s digits; 22003
 * with PostgreSQL's DETAIL when it does not fit; no position): numeric_in's
 * and numeric()'s check. */
int rl_apply_numeric_typmod(rl_expr_ctx *c, rl_value *v, int32_t typmod);
/* Relation name (possibly "schema.name", identifiers case-folded unless
 * quoted) -> regclass OID; missing_ok: NULL instead of 42P01. */
int rl_regclass_from_text(rl_expr_ctx *c, const char *p, size_t len, bool missing_ok,
                          rl_value *out, int loc);

/* ------------------------------------------------------ constants, casts */

/* The value of an A_Const (as rl_const gives it) and of a $n parameter. */
int rl_eval_const(rl_expr_ctx *c, const PgQuery__AConst *k, rl_value *out);
int rl_eval_param(rl_expr_ctx *c, const PgQuery__ParamRef *p, rl_value *out);
/* An evaluator of an expression node (rl_expr_eval, rl_const_eval). */
typedef int (*rl_eval_fn)(rl_expr_ctx *c, const PgQuery__Node *node, rl_value *out);
/* arg::type: the type name is resolved first, then the argument evaluated
 * by `eval`, then coerced as an explicit cast. */
int rl_eval_typecast(rl_expr_ctx *c, const PgQuery__TypeCast *tc, rl_eval_fn eval, rl_value *out);
/* rl_expr_eval of a constant: an A_Const, a $n, or a cast of one (what a
 * scan may take a key from); any other node is 0A000 as rl_expr_eval's
 * unsupported nodes are. Checks for cancel and stack as rl_expr_eval. */
int rl_const_eval(rl_expr_ctx *c, const PgQuery__Node *node, rl_value *out);

/* json's strings de-escaped as PostgreSQL's lexer does when it reads them
 * (jsonb input, json's access operators): a lone surrogate 22P02, a
 * \u0000 22P05. */
int rl_json_escapes_check(rl_expr_ctx *c, const rl_value *j, int loc);
/* jsonb of json text p..p+n that parses (strip: jsonb_strip_nulls), and of
 * a json value (NULL stays NULL). */
int rl_jsonb_make(rl_expr_ctx *c, const uint8_t *p, size_t n, bool strip, rl_value *out, int loc);
int rl_jsonb_from_json(rl_expr_ctx *c, const rl_value *j, rl_value *out, int loc);

#endif
