/*
 * sql_deparse.c — a CHECK constraint's expression, a column DEFAULT, or an
 * index's expression or predicate, analysed as PostgreSQL's parser analyses
 * it, and printed as its ruleutils.c prints the result
 * (pg_get_constraintdef, pg_get_indexdef, pg_get_expr): `CHECK ((a > 0))`,
 * pretty `CHECK (a > 0)`; a default `(2 + 3)`.
 *
 * Owns: the typed tree of one CHECK expression (dn): column references
 * against the table's columns, constants typed as the grammar types them,
 * operators resolved between their arguments' types (which side gets an
 * implicit cast, an unknown literal taking the other side's type), IN
 * lists as `= ANY (ARRAY[...])`, BETWEEN as two comparisons, LIKE as `~~`,
 * function calls resolved through the function table (sql_func.c);
 * the errors PostgreSQL's analysis gives (42804 not boolean, 0A000
 * subquery, 42803 aggregate, 42P20 window, 0A000 set-returning, 42703 /
 * 42P01 unknown names); and the two texts, plain and pretty, with the
 * columns the expression uses in order of appearance (conkey) and the one
 * column PostgreSQL names a constraint after; for an index, the
 * expression's type, whether it is a bare column or prints as a call, and
 * 42P17 for a function, operator or cast that is not IMMUTABLE
 * (contain_mutable_functions over the types a lake stores); a stored text
 * parsed back (rl_check_parse_text) and required to print the same again
 * (rl_deparse_reads_back). A DEFAULT refers to no
 * column (0A000) and is coerced to its column's type by assignment (an
 * implicit cast pg_get_expr hides; 42804 where none exists).
 *
 * Invariants: a form this file does not know is refused with 0A000 naming
 * it, never printed differently from PostgreSQL; the plain text re-parses
 * to a tree that prints the same text again (the stored form: sql_check.c
 * keeps it and evaluates it).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sql/sql_cast.h"
#include "sql/sql_check.h"
#include "sql/sql_exec.h"
#include "sql/sql_expr.h"
#include "sql/sql_func.h"
#include "sql/sql_parse.h"
#include "sql/sql_pgcatalog.h"
#include "sql/sql_scan.h"
#include "sql/sql_value.h"

typedef enum dn_kind {
    DN_VAR,
    DN_CONST,
    DN_OP,     /* binary operator s */
    DN_PREFIX, /* prefix operator s */
    DN_AND,
    DN_OR,
    DN_NOT,
    DN_NULLTEST,  /* s " IS NULL" / " IS NOT NULL" */
    DN_BOOLTEST,  /* s " IS TRUE" ... */
    DN_DISTINCT,  /* l IS DISTINCT FROM r */
    DN_SAOP,      /* l s ANY|ALL (r) */
    DN_ARRAY,
    DN_CAST,      /* (arg)::type; func: a FuncExpr cast (function-like) */
    DN_FUNC,
    DN_COALESCE,  /* s: COALESCE, GREATEST, LEAST, NULLIF */
    DN_CASE,
    DN_SVF /* CURRENT_DATE, CURRENT_TIMESTAMP[(n)], LOCALTIMESTAMP[(n)]: s, typmod n */
} dn_kind;

typedef struct dn {
    dn_kind k;
    uint32_t type;
    int32_t typmod;
    const char *s; /* name, operator, keyword; a constant's output text */
    bool flag;     /* const: NULL; saop: ANY; case: has ELSE */
    bool func;     /* cast: a FuncExpr (simple in any context) */
    bool implicit; /* cast: a DEFAULT's coercion to its column, never printed */
    char vol;      /* func: its volatility ('i', 's', 'v') */
    int loc;       /* const: its literal's location (its input errors point there), -1 */
    struct dn **a;
    size_t n;
    struct dn *carg; /* CASE's test value */
} dn;

typedef struct dctx {
    rl_exec *x;
    rl_expr_ctx *ec;   /* typing row of the table's columns */
    const rl_rowset *shape;
    size_t ncols;
    const char *table;
    const char *rename_from, *rename_to; /* a column renamed while printing */
    rl_arena *arena;
    int16_t conkey[RL_MAX_COLUMNS];
    size_t nconkey;
    rl_deparse_kind kind;
    bool is_volatile; /* a volatile function was called */
} dctx;

/* What the expression is, as PostgreSQL's messages name it: plural
 * (aggregates, windows, set-returning functions) and singular (subquery). */
static const char *kind_plural(const dctx *c)
{
    return c->kind == RL_DEPARSE_INDEX_EXPR   ? "index expressions"
           : c->kind == RL_DEPARSE_INDEX_PRED ? "index predicates"
           : c->kind == RL_DEPARSE_DEFAULT    ? "DEFAULT expressions"
                                              : "check constraints";
}
static const char *kind_singular(const dctx *c)
{
    return c->kind == RL_DEPARSE_INDEX_EXPR   ? "index expression"
           : c->kind == RL_DEPARSE_INDEX_PRED ? "index predicate"
           : c->kind == RL_DEPARSE_DEFAULT    ? "DEFAULT expression"
                                              : "check constraint";
}

static int unsupported(dctx *c, const char *what, int loc)
{
    return rl_exec_error(c->x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, loc,
                         "%s in %s is not supported by RockLake", what,
                         c->kind == RL_DEPARSE_CHECK        ? "a CHECK constraint"
                         : c->kind == RL_DEPARSE_INDEX_EXPR ? "an index expression"
                         : c->kind == RL_DEPARSE_INDEX_PRED ? "an index predicate"
                                                            : "a DEFAULT expression");
}

static dn *node(dctx *c, dn_kind k, uint32_t type, size_t n)
{
    dn *d = rl_arena_alloc(c->arena, sizeof *d);
    dn **a = n ? rl_arena_alloc(c->arena, n * sizeof *a) : NULL;
    if (!d || (n && !a)) {
        rl_exec_error(c->x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
        return NULL;
    }
    memset(d, 0, sizeof *d);
    d->k = k;
    d->type = type;
    d->typmod = -1;
    d->loc = -1;
    d->a = a;
    d->n = n;
    return d;
}

/* ------------------------------------------------------------- types */


static bool is_int(uint32_t t)
{
    return t == RL_OID_INT2 || t == RL_OID_INT4 || t == RL_OID_INT8;
}
static bool is_float(uint32_t t) { return t == RL_OID_FLOAT4 || t == RL_OID_FLOAT8; }
static bool is_number(uint32_t t) { return is_int(t) || is_float(t) || t == RL_OID_NUMERIC; }
static bool is_datetime(uint32_t t)
{
    return t == RL_OID_DATE || t == RL_OID_TIMESTAMP || t == RL_OID_TIMESTAMPTZ;
}
static int int_rank(uint32_t t) { return t == RL_OID_INT2 ? 0 : t == RL_OID_INT4 ? 1 : 2; }

static bool is_unknown_const(const dn *d) { return d->k == DN_CONST && d->type == RL_OID_UNKNOWN; }

static bool is_reg_type(uint32_t t)
{
    return t == RL_OID_REGCLASS || t == RL_OID_REGTYPE || t == RL_OID_REGPROC ||
           t == RL_OID_REGNAMESPACE || t == RL_OID_REGROLE;
}

/* d as a value of type t (typmod -1): an unknown literal becomes a constant
 * of t (its text through t's input, as PostgreSQL folds it), anything
 * else of another type an implicit cast. */
static dn *coerce(dctx *c, dn *d, uint32_t t)
{
    if (d->type == t)
        return d;
    if (is_unknown_const(d)) {
        if (d->flag) { /* NULL */
            d->type = t;
            return d;
        }
        rl_value in = {.oid = RL_OID_UNKNOWN, .typmod = -1};
        in.d.v.s.p = (const uint8_t *)d->s;
        in.d.v.s.len = strlen(d->s);
        rl_value out;
        if (rl_value_coerce(c->ec, &in, t, -1, false, &out, d->loc) < 0)
            return NULL;
        rl_buf b;
        rl_buf_init(&b, 0);
        char name[200];
        int named = is_reg_type(t) ? rl_pgcatalog_reg_name(c->x, t, (uint32_t)out.d.v.i, name,
                                                            sizeof name)
                                   : 0;
        if (named < 0)
            return NULL;
        if (named) /* a reg* constant prints its object's name, as its output does */
            rl_buf_put_str(&b, name);
        else
            rl_value_to_text(&b, &out);
        rl_buf_put_u8(&b, 0);
        char *s = b.failed ? NULL : rl_arena_strdup(c->arena, (const char *)b.data);
        rl_buf_free(&b);
        if (!s) {
            rl_exec_error(c->x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
            return NULL;
        }
        d->s = s;
        d->type = t;
        return d;
    }
    dn *k = node(c, DN_CAST, t, 1);
    if (!k)
        return NULL;
    k->a[0] = d;
    /* a binary-compatible relabeling (varchar -> text) prints like the
     * FuncExpr of a conversion; only pretty parentheses tell them apart */
    k->func = !(d->type == RL_OID_VARCHAR && t == RL_OID_TEXT);
    return k;
}

/* The result of date/time + or - where pg_operator has the exact
 * operands (date ± integer, date - date, date ± interval, timestamp[tz] ±
 * interval, interval + timestamp[tz], timestamp[tz] - timestamp[tz],
 * interval ± interval): no casts; 0 for anything else (an untyped literal
 * among them is ambiguous in PostgreSQL's resolution: refused). */
static uint32_t datetime_arith(uint32_t l, uint32_t r, bool plus)
{
    bool ts_l = l == RL_OID_TIMESTAMP || l == RL_OID_TIMESTAMPTZ;
    bool ts_r = r == RL_OID_TIMESTAMP || r == RL_OID_TIMESTAMPTZ;
    if (l == RL_OID_DATE && r == RL_OID_INT4)
        return RL_OID_DATE;
    if (plus && l == RL_OID_INT4 && r == RL_OID_DATE)
        return RL_OID_DATE;
    if (!plus && l == RL_OID_DATE && r == RL_OID_DATE)
        return RL_OID_INT4;
    if (l == RL_OID_DATE && r == RL_OID_INTERVAL)
        return RL_OID_TIMESTAMP;
    if (ts_l && r == RL_OID_INTERVAL)
        return l;
    if (plus && l == RL_OID_INTERVAL && ts_r)
        return r;
    if (!plus && ts_l && l == r)
        return RL_OID_INTERVAL;
    if (l == RL_OID_INTERVAL && r == RL_OID_INTERVAL)
        return RL_OID_INTERVAL;
    return 0;
}

/* The operand types operator `op` is resolved to for (l, r), as
 * PostgreSQL's oper_select_candidate picks among pg_operator's rows for
 * the types RockLake stores: 0 with *lt, *rt (the argument types) and
 * *res, or -1 with 0A000 / 42883. */
static int resolve_op(dctx *c, const char *op, uint32_t l, uint32_t r, uint32_t *lt, uint32_t *rt,
                      uint32_t *res, int loc)
{
    bool cmp = !strcmp(op, "=") || !strcmp(op, "<>") || !strcmp(op, "<") || !strcmp(op, ">") ||
               !strcmp(op, "<=") || !strcmp(op, ">=");
    bool arith = !strcmp(op, "+") || !strcmp(op, "-") || !strcmp(op, "*") || !strcmp(op, "/") ||
                 !strcmp(op, "%");
    bool textop = !strcmp(op, "~~") || !strcmp(op, "!~~") || !strcmp(op, "~~*") ||
                  !strcmp(op, "!~~*") || !strcmp(op, "~") || !strcmp(op, "!~") ||
                  !strcmp(op, "~*") || !strcmp(op, "!~*") || !strcmp(op, "||");
    bool plus = !strcmp(op, "+"), minus = !strcmp(op, "-");
    if ((plus || minus) && (is_datetime(l) || is_datetime(r) || l == RL_OID_INTERVAL ||
                            r == RL_OID_INTERVAL)) {
        *lt = l, *rt = r;
        if (!(*res = datetime_arith(l, r, plus)))
            return unsupported(c, "this date/time arithmetic", loc);
        return 0;
    }
    if (l == RL_OID_UNKNOWN && r == RL_OID_UNKNOWN)
        l = r = RL_OID_TEXT;
    if (l == RL_OID_UNKNOWN)
        l = textop ? RL_OID_TEXT : r;
    if (r == RL_OID_UNKNOWN)
        r = textop ? RL_OID_TEXT : l;
    *lt = l, *rt = r;
    if (textop) {
        if ((l != RL_OID_TEXT && l != RL_OID_VARCHAR) || (r != RL_OID_TEXT && r != RL_OID_VARCHAR))
            return unsupported(c, "this operator's argument types", loc);
        *lt = *rt = RL_OID_TEXT;
        *res = !strcmp(op, "||") ? RL_OID_TEXT : RL_OID_BOOL;
        return 0;
    }
    if (!cmp && !arith)
        return unsupported(c, "this operator", loc);
    char lc = rl_oid_category(l), rc = rl_oid_category(r);
    if (cmp && lc && rc && lc != rc) /* PostgreSQL has no comparison across categories */
        return rl_exec_error(c->x, RL_SQLSTATE_UNDEFINED_FUNCTION, loc,
                             "operator does not exist: %s %s %s", rl_oid_type_name(l), op,
                             rl_oid_type_name(r));
    *res = cmp ? RL_OID_BOOL : l;
    if (l == RL_OID_BPCHAR || r == RL_OID_BPCHAR) {
        /* bpchar has its own comparisons; with text the bpchar side is cast */
        if (!cmp || (l != RL_OID_BPCHAR && l != RL_OID_TEXT) || (r != RL_OID_BPCHAR && r != RL_OID_TEXT))
            return unsupported(c, "this operator's argument types", loc);
        if (l != r)
            *lt = *rt = RL_OID_TEXT;
        return 0;
    }
    if (l == RL_OID_VARCHAR || r == RL_OID_VARCHAR) { /* varchar has text's operators */
        if ((l != RL_OID_TEXT && l != RL_OID_VARCHAR) || (r != RL_OID_TEXT && r != RL_OID_VARCHAR) ||
            !cmp)
            return unsupported(c, "this operator's argument types", loc);
        *lt = *rt = RL_OID_TEXT;
        return 0;
    }
    if (is_number(l) && is_number(r)) {
        if (is_int(l) && is_int(r)) {
            if (!strcmp(op, "%") && l != r) /* no cross-type modulo */
                *lt = *rt = int_rank(l) > int_rank(r) ? l : r;
            if (arith)
                *res = int_rank(l) > int_rank(r) ? l : r;
            if (arith && !strcmp(op, "%"))
                *res = *lt;
            return 0;
        }
        if (is_float(l) && is_float(r)) {
            if (arith)
                *res = l == RL_OID_FLOAT8 || r == RL_OID_FLOAT8 ? RL_OID_FLOAT8 : RL_OID_FLOAT4;
            return !strcmp(op, "%") ? unsupported(c, "this operator's argument types", loc) : 0;
        }
        if (is_float(l) || is_float(r)) { /* the other one to float8, the preferred type */
            if (!is_float(l))
                *lt = RL_OID_FLOAT8;
            if (!is_float(r))
                *rt = RL_OID_FLOAT8;
            if (arith)
                *res = RL_OID_FLOAT8;
            return !strcmp(op, "%") ? unsupported(c, "this operator's argument types", loc) : 0;
        }
        *lt = *rt = RL_OID_NUMERIC; /* an integer with a numeric */
        if (arith)
            *res = RL_OID_NUMERIC;
        return 0;
    }
    if (cmp && is_datetime(l) && is_datetime(r))
        return 0; /* cross-type comparisons exist */
    if (l == r && (cmp || (arith && is_number(l))))
        return 0;
    return unsupported(c, "this operator's argument types", loc);
}

/* ----------------------------------------------------------- analysis */

static dn *analyse(dctx *c, const PgQuery__Node *n);

/* coerce_to_boolean: an unknown literal read as boolean, a boolean as it
 * is, anything else 42804 "argument of <what> must be type boolean". */
static dn *to_bool(dctx *c, dn *d, const char *what, int loc)
{
    if (!d)
        return NULL;
    if (is_unknown_const(d))
        return coerce(c, d, RL_OID_BOOL);
    if (d->type == RL_OID_BOOL)
        return d;
    rl_exec_error(c->x, RL_SQLSTATE_DATATYPE_MISMATCH, loc,
                  "argument of %s must be type boolean, not type %s", what,
                  rl_oid_type_name(d->type));
    return NULL;
}

static dn *binary(dctx *c, const char *op, dn *l, dn *r, int loc)
{
    uint32_t lt, rt, res;
    if (!l || !r || resolve_op(c, op, l->type, r->type, &lt, &rt, &res, loc) < 0)
        return NULL;
    dn *d = node(c, DN_OP, res, 2);
    if (!d || !(d->a[0] = coerce(c, l, lt)) || !(d->a[1] = coerce(c, r, rt)))
        return NULL;
    d->s = op;
    return d;
}

/* The operands analysed left first: conkey lists columns in the order
 * they appear. */
static dn *binary_of(dctx *c, const char *op, const PgQuery__Node *l, const PgQuery__Node *r,
                     int loc)
{
    dn *ld = analyse(c, l);
    dn *rd = ld ? analyse(c, r) : NULL;
    return rd ? binary(c, op, ld, rd, loc) : NULL;
}

static dn *bool_node(dctx *c, dn_kind k, dn *l, dn *r)
{
    if (!l || !r)
        return NULL;
    dn *d = node(c, k, RL_OID_BOOL, 2);
    if (d)
        d->a[0] = l, d->a[1] = r;
    return d;
}

static dn *column(dctx *c, const PgQuery__ColumnRef *cr)
{
    const char *name = NULL;
    if (c->kind == RL_DEPARSE_DEFAULT) {
        rl_exec_error(c->x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, cr->location,
                      "cannot use column reference in DEFAULT expression");
        return NULL;
    }
    if (cr->n_fields == 2) {
        const char *rel = rl_node_string(cr->fields[0]);
        if (!rel || strcmp(rel, c->table) != 0) {
            rl_exec_error(c->x, RL_SQLSTATE_UNDEFINED_TABLE, cr->location,
                          "missing FROM-clause entry for table \"%s\"", rel ? rel : "?");
            return NULL;
        }
        name = rl_node_string(cr->fields[1]);
    } else if (cr->n_fields == 1) {
        name = rl_node_string(cr->fields[0]);
    } else if (cr->n_fields == 3 && rl_node_string(cr->fields[1]) &&
               strcmp(rl_node_string(cr->fields[1]), c->table) != 0) { /* schema.table.column */
        rl_exec_error(c->x, RL_SQLSTATE_UNDEFINED_TABLE, cr->location,
                      "missing FROM-clause entry for table \"%s\"", rl_node_string(cr->fields[1]));
        return NULL;
    }
    if (!name) {
        unsupported(c, "this column reference", cr->location);
        return NULL;
    }
    /* a column renamed since the text was written is found by its new name */
    const char *look = c->rename_from && !strcmp(name, c->rename_from) ? c->rename_to : name;
    for (size_t i = 0; i < c->ncols; i++) {
        if (strcmp(c->shape->cols[i].name, look) != 0)
            continue;
        size_t k = 0;
        while (k < c->nconkey && c->conkey[k] != (int16_t)(i + 1))
            k++;
        if (k == c->nconkey)
            c->conkey[c->nconkey++] = (int16_t)(i + 1);
        dn *d = node(c, DN_VAR, c->shape->cols[i].oid, 0);
        if (d) {
            d->typmod = c->shape->cols[i].typmod;
            d->s = c->shape->cols[i].name;
        }
        return d;
    }
    rl_exec_error(c->x, RL_SQLSTATE_UNDEFINED_COLUMN, cr->location, "column \"%s\" does not exist",
                  name);
    return NULL;
}

static dn *constant(dctx *c, const PgQuery__AConst *k0)
{
    const PgQuery__AConst *k = rl_const(k0);
    dn *d = node(c, DN_CONST, RL_OID_UNKNOWN, 0);
    if (!d)
        return NULL;
    d->loc = k0->location;
    if (!k || k->isnull) {
        d->flag = true;
        d->s = "NULL";
        return d;
    }
    char buf[64];
    switch (k->val_case) {
    case PG_QUERY__A__CONST__VAL_IVAL:
        snprintf(buf, sizeof buf, "%d", k->ival->ival);
        d->type = RL_OID_INT4;
        d->s = rl_arena_strdup(c->arena, buf);
        break;
    case PG_QUERY__A__CONST__VAL_FVAL: {
        const char *s = k->fval->fval;
        char *end = NULL;
        bool integral = strcspn(s, ".eE") == strlen(s);
        errno = 0;
        if (integral)
            (void)strtoll(s, &end, 10);
        d->type = integral && errno == 0 && end && *end == '\0' ? RL_OID_INT8 : RL_OID_NUMERIC;
        d->s = s;
        if (d->type == RL_OID_NUMERIC) { /* its value as numeric prints it: 1e3 is 1000 */
            d->type = RL_OID_UNKNOWN;
            if (!coerce(c, d, RL_OID_NUMERIC))
                return NULL;
        }
        break;
    }
    case PG_QUERY__A__CONST__VAL_BOOLVAL:
        d->type = RL_OID_BOOL;
        d->s = k->boolval->boolval ? "true" : "false";
        break;
    case PG_QUERY__A__CONST__VAL_SVAL:
        d->s = k->sval->sval;
        break;
    default:
        unsupported(c, "a bit-string constant", k->location);
        return NULL;
    }
    if (!d->s)
        rl_exec_error(c->x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    return d->s ? d : NULL;
}

static const char *op_name(const PgQuery__AExpr *e)
{
    return e->n_name == 1 ? rl_node_string(e->name[0])
           : e->n_name == 2 && rl_node_string(e->name[0]) &&
                   !strcmp(rl_node_string(e->name[0]), "pg_catalog")
               ? rl_node_string(e->name[1])
               : NULL;
}

/* x IN (list) / x = ANY (ARRAY[...]): the array of the list's common
 * type with the left value (transformAExprIn), the operator between the
 * left value and that type. */
static dn *any_array(dctx *c, const char *op, bool any, dn *l, PgQuery__Node **items, size_t n,
                     uint32_t cast_to, int loc)
{
    if (!l)
        return NULL;
    dn **el = rl_arena_alloc(c->arena, (n ? n : 1) * sizeof *el);
    if (!el)
        return NULL;
    /* an array cast to another type (the stored form of a varchar IN
     * list) has its elements' own common type */
    uint32_t common = cast_to ? RL_OID_UNKNOWN : l->type;
    for (size_t i = 0; i < n; i++) {
        if (!(el[i] = analyse(c, items[i])))
            return NULL;
        if (el[i]->k == DN_VAR)
            return unsupported(c, "a column in an IN list", loc), NULL;
        if (rl_common_type_of(c->ec, common, el[i]->type, "IN", loc, &common) < 0)
            return NULL;
    }
    if (common == RL_OID_UNKNOWN)
        common = RL_OID_TEXT;
    dn *arr = node(c, DN_ARRAY, rl_array_oid_of(common), n);
    if (!arr)
        return NULL;
    for (size_t i = 0; i < n; i++)
        if (!(arr->a[i] = coerce(c, el[i], common)))
            return NULL;
    uint32_t lt, rt, res;
    uint32_t elem = cast_to ? rl_array_elem_oid(cast_to) : common;
    if (cast_to && !elem)
        return unsupported(c, "ANY / ALL of this array type", loc), NULL;
    if (resolve_op(c, op, l->type, elem, &lt, &rt, &res, loc) < 0 || res != RL_OID_BOOL)
        return NULL;
    if (cast_to && rt != elem)
        return unsupported(c, "ANY / ALL of this array type", loc), NULL;
    dn *d = node(c, DN_SAOP, RL_OID_BOOL, 2);
    if (!d || !(d->a[0] = coerce(c, l, lt)))
        return NULL;
    d->a[1] = arr;
    if (rt != common || (cast_to && cast_to != arr->type)) {
        if (!(d->a[1] = node(c, DN_CAST, rl_array_oid_of(rt), 1)))
            return NULL;
        d->a[1]->a[0] = arr;
    }
    d->s = op;
    d->flag = any;
    return d;
}

static dn *aexpr(dctx *c, const PgQuery__AExpr *e)
{
    const char *op = op_name(e);
    int loc = e->location;
    if (!op)
        return unsupported(c, "this operator", loc), NULL;
    switch (e->kind) {
    case PG_QUERY__A__EXPR__KIND__AEXPR_OP:
        if (!e->lexpr) {
            dn *r = analyse(c, e->rexpr);
            if (!r)
                return NULL;
            if ((strcmp(op, "-") && strcmp(op, "+")) || !is_number(r->type))
                return unsupported(c, "this prefix operator", loc), NULL;
            dn *d = node(c, DN_PREFIX, r->type, 1);
            if (d)
                d->a[0] = r, d->s = op;
            return d;
        }
        return binary_of(c, op, e->lexpr, e->rexpr, loc);
    case PG_QUERY__A__EXPR__KIND__AEXPR_LIKE:
    case PG_QUERY__A__EXPR__KIND__AEXPR_ILIKE:
        return binary_of(c, op, e->lexpr, e->rexpr, loc);
    case PG_QUERY__A__EXPR__KIND__AEXPR_DISTINCT:
    case PG_QUERY__A__EXPR__KIND__AEXPR_NOT_DISTINCT: {
        dn *eq = binary_of(c, "=", e->lexpr, e->rexpr, loc);
        if (!eq)
            return NULL;
        eq->k = DN_DISTINCT;
        if (e->kind == PG_QUERY__A__EXPR__KIND__AEXPR_DISTINCT)
            return eq;
        dn *d = node(c, DN_NOT, RL_OID_BOOL, 1);
        if (d)
            d->a[0] = eq;
        return d;
    }
    case PG_QUERY__A__EXPR__KIND__AEXPR_NULLIF: {
        dn *eq = binary_of(c, "=", e->lexpr, e->rexpr, loc);
        if (!eq)
            return NULL;
        eq->k = DN_COALESCE;
        eq->s = "NULLIF";
        eq->type = eq->a[0]->type;
        return eq;
    }
    case PG_QUERY__A__EXPR__KIND__AEXPR_IN: {
        if (!e->rexpr || e->rexpr->node_case != PG_QUERY__NODE__NODE_LIST)
            return unsupported(c, "this IN", loc), NULL;
        bool in = !strcmp(op, "=");
        if (e->rexpr->list->n_items == 1) /* transformAExprIn: one value is one comparison */
            return binary_of(c, in ? "=" : "<>", e->lexpr, e->rexpr->list->items[0], loc);
        return any_array(c, in ? "=" : "<>", in, analyse(c, e->lexpr), e->rexpr->list->items,
                         e->rexpr->list->n_items, 0, loc);
    }
    case PG_QUERY__A__EXPR__KIND__AEXPR_OP_ANY:
    case PG_QUERY__A__EXPR__KIND__AEXPR_OP_ALL: {
        const PgQuery__Node *r = e->rexpr;
        uint32_t cast_to = 0;
        if (r && r->node_case == PG_QUERY__NODE__NODE_TYPE_CAST) {
            int32_t typmod;
            if (rl_type_from_typename(c->x, r->type_cast->type_name, &cast_to, &typmod) < 0)
                return NULL;
            r = r->type_cast->arg;
        }
        if (!r || r->node_case != PG_QUERY__NODE__NODE_A_ARRAY_EXPR)
            return unsupported(c, "ANY / ALL of anything but an ARRAY[...] list", loc), NULL;
        return any_array(c, op, e->kind == PG_QUERY__A__EXPR__KIND__AEXPR_OP_ANY,
                         analyse(c, e->lexpr), r->a_array_expr->elements,
                         r->a_array_expr->n_elements, cast_to, loc);
    }
    case PG_QUERY__A__EXPR__KIND__AEXPR_BETWEEN:
    case PG_QUERY__A__EXPR__KIND__AEXPR_NOT_BETWEEN: {
        if (!e->rexpr || e->rexpr->node_case != PG_QUERY__NODE__NODE_LIST ||
            e->rexpr->list->n_items != 2)
            return unsupported(c, "this BETWEEN", loc), NULL;
        bool not = e->kind == PG_QUERY__A__EXPR__KIND__AEXPR_NOT_BETWEEN;
        PgQuery__Node **b = e->rexpr->list->items;
        dn *lo = binary_of(c, not ? "<" : ">=", e->lexpr, b[0], loc);
        dn *hi = lo ? binary_of(c, not ? ">" : "<=", e->lexpr, b[1], loc) : NULL;
        return bool_node(c, not ? DN_OR : DN_AND, lo, hi);
    }
    default:
        return unsupported(c, "this operator form", loc), NULL;
    }
}

static dn *boolexpr(dctx *c, const PgQuery__BoolExpr *b)
{
    dn_kind k = b->boolop == PG_QUERY__BOOL_EXPR_TYPE__AND_EXPR  ? DN_AND
                : b->boolop == PG_QUERY__BOOL_EXPR_TYPE__OR_EXPR ? DN_OR
                                                                 : DN_NOT;
    dn *d = node(c, k, RL_OID_BOOL, b->n_args);
    if (!d)
        return NULL;
    for (size_t i = 0; i < b->n_args; i++) {
        dn *a = to_bool(c, analyse(c, b->args[i]), k == DN_AND ? "AND" : k == DN_OR ? "OR" : "NOT",
                        rl_node_location(b->args[i]));
        if (!a)
            return NULL;
        d->a[i] = a;
    }
    return d;
}

static dn *typecast(dctx *c, const PgQuery__TypeCast *tc)
{
    uint32_t t;
    int32_t typmod;
    if (rl_type_from_typename(c->x, tc->type_name, &t, &typmod) < 0)
        return NULL;
    dn *a = analyse(c, tc->arg);
    if (!a)
        return NULL;
    if (is_unknown_const(a)) { /* folded into a constant of the type */
        if (!coerce(c, a, t))
            return NULL;
        a->typmod = typmod;
        return a;
    }
    if (a->type == t && typmod < 0)
        return a;
    dn *d = node(c, DN_CAST, t, 1);
    if (d) {
        d->a[0] = a;
        d->typmod = typmod;
        d->func = true;
    }
    return d;
}

/* Is the call an aggregate, a window or a set-returning function? */
static int not_in_check(dctx *c, const PgQuery__FuncCall *f)
{
    if (f->over)
        return rl_exec_error(c->x, RL_SQLSTATE_WINDOWING_ERROR, f->location,
                             "window functions are not allowed in %s", kind_plural(c));
    PgQuery__Node fn = PG_QUERY__NODE__INIT;
    fn.node_case = PG_QUERY__NODE__NODE_FUNC_CALL;
    fn.func_call = (PgQuery__FuncCall *)f;
    if (f->agg_star || f->agg_distinct || rl_expr_is_aggregate(&fn))
        return rl_exec_error(c->x, RL_SQLSTATE_GROUPING_ERROR, f->location,
                             "aggregate functions are not allowed in %s", kind_plural(c));
    if (rl_expr_is_srf(f))
        return rl_exec_error(c->x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, f->location,
                             "set-returning functions are not allowed in %s", kind_plural(c));
    return 0;
}

static bool polymorphic(uint32_t t)
{
    return t == RL_OID_ANY || t == RL_OID_ANYARRAY || t == RL_OID_ANYELEMENT ||
           t == RL_OID_ANYCOMPATIBLE || t == RL_OID_ANYCOMPATIBLEARRAY ||
           t == RL_OID_VARIADIC_ANY;
}

static dn *funccall(dctx *c, const PgQuery__FuncCall *f)
{
    const char *name = f->n_funcname ? rl_node_string(f->funcname[f->n_funcname - 1]) : NULL;
    if (!name || (f->n_funcname == 2 && strcmp(rl_node_string(f->funcname[0]), "pg_catalog")) ||
        f->n_funcname > 2)
        return unsupported(c, "this function name", f->location), NULL;
    if (not_in_check(c, f) < 0)
        return NULL;
    if (f->funcformat == PG_QUERY__COERCION_FORM__COERCE_SQL_SYNTAX || f->func_variadic ||
        f->n_agg_order || f->agg_filter || f->n_args > RL_FUNC_MAX_ARGS)
        return unsupported(c, "this function call's syntax", f->location), NULL;
    dn *d = node(c, DN_FUNC, 0, f->n_args);
    if (!d)
        return NULL;
    d->s = name;
    rl_value args[RL_FUNC_MAX_ARGS];
    for (size_t i = 0; i < f->n_args; i++) {
        if (f->args[i]->node_case == PG_QUERY__NODE__NODE_NAMED_ARG_EXPR)
            return unsupported(c, "a named argument", f->location), NULL;
        if (!(d->a[i] = analyse(c, f->args[i])))
            return NULL;
        args[i] = (rl_value){.oid = d->a[i]->type, .typmod = -1};
        args[i].d.isnull = true;
    }
    const rl_func *fn;
    if (rl_func_resolve(c->ec, name, f->n_args, args, &fn, f->location) < 0)
        return NULL;
    for (size_t i = 0; i < f->n_args; i++) {
        uint32_t want = fn->argtypes[i < fn->nargs ? i : (size_t)fn->nargs - 1];
        if (polymorphic(want)) {
            if (d->a[i]->type == RL_OID_UNKNOWN)
                return unsupported(c, "an untyped argument of a polymorphic function", f->location),
                       NULL;
            continue;
        }
        if (!(d->a[i] = coerce(c, d->a[i], want)))
            return NULL;
    }
    if (polymorphic(fn->rettype))
        return unsupported(c, "a polymorphic function", f->location), NULL;
    c->is_volatile |= fn->volatility == 'v';
    d->type = fn->rettype;
    d->vol = fn->volatility;
    return d;
}

/* COALESCE / GREATEST / LEAST: the arguments in their common type. */
static dn *common_args(dctx *c, const char *what, PgQuery__Node **args, size_t n, int loc)
{
    dn *d = node(c, DN_COALESCE, RL_OID_UNKNOWN, n);
    if (!d)
        return NULL;
    d->s = what;
    for (size_t i = 0; i < n; i++) {
        if (!(d->a[i] = analyse(c, args[i])))
            return NULL;
        if (rl_common_type_of(c->ec, d->type, d->a[i]->type, what, loc, &d->type) < 0)
            return NULL;
    }
    if (d->type == RL_OID_UNKNOWN)
        d->type = RL_OID_TEXT;
    for (size_t i = 0; i < n; i++)
        if (!(d->a[i] = coerce(c, d->a[i], d->type)))
            return NULL;
    return d;
}

/* CASE WHEN ... THEN ... [ELSE ...] END: the results in their common type,
 * found as transformCaseExpr does (the ELSE first, then each THEN: among
 * strings the first one's type stays); no ELSE is ELSE NULL of that type,
 * which ruleutils prints. a[2i], a[2i+1]: WHEN and THEN; a[n-1]: ELSE. */
static dn *caseexpr(dctx *c, const PgQuery__CaseExpr *ce)
{
    size_t n = ce->n_args * 2 + 1;
    dn *d = node(c, DN_CASE, RL_OID_UNKNOWN, n);
    if (!d)
        return NULL;
    d->flag = true;
    if (ce->arg)
        return unsupported(c, "CASE with a test value", ce->location), NULL;
    for (size_t i = 0; i < ce->n_args; i++) {
        const PgQuery__CaseWhen *w = ce->args[i]->case_when;
        dn *cond = to_bool(c, analyse(c, w->expr), "CASE/WHEN", rl_node_location(w->expr));
        if (!cond || !(d->a[2 * i + 1] = analyse(c, w->result)))
            return NULL;
        d->a[2 * i] = cond;
    }
    if (ce->defresult) {
        if (!(d->a[n - 1] = analyse(c, ce->defresult)))
            return NULL;
    } else {
        if (!(d->a[n - 1] = node(c, DN_CONST, RL_OID_UNKNOWN, 0)))
            return NULL;
        d->a[n - 1]->flag = true; /* NULL */
        d->a[n - 1]->s = "NULL";
    }
    d->type = d->a[n - 1]->type;
    for (size_t i = 1; i < n - 1; i += 2)
        if (rl_common_type_of(c->ec, d->type, d->a[i]->type, "CASE", ce->location, &d->type) < 0)
            return NULL;
    if (d->type == RL_OID_UNKNOWN)
        d->type = RL_OID_TEXT;
    for (size_t i = 1; i < n - 1; i += 2)
        if (!(d->a[i] = coerce(c, d->a[i], d->type)))
            return NULL;
    return (d->a[n - 1] = coerce(c, d->a[n - 1], d->type)) ? d : NULL;
}

static dn *analyse(dctx *c, const PgQuery__Node *n)
{
    if (rl_exec_check_stack(c->x) < 0)
        return NULL;
    switch (n->node_case) {
    case PG_QUERY__NODE__NODE_COLUMN_REF: return column(c, n->column_ref);
    case PG_QUERY__NODE__NODE_A_CONST: return constant(c, n->a_const);
    case PG_QUERY__NODE__NODE_A_EXPR: return aexpr(c, n->a_expr);
    case PG_QUERY__NODE__NODE_BOOL_EXPR: return boolexpr(c, n->bool_expr);
    case PG_QUERY__NODE__NODE_TYPE_CAST: return typecast(c, n->type_cast);
    case PG_QUERY__NODE__NODE_FUNC_CALL: return funccall(c, n->func_call);
    case PG_QUERY__NODE__NODE_CASE_EXPR: return caseexpr(c, n->case_expr);
    case PG_QUERY__NODE__NODE_COALESCE_EXPR:
        return common_args(c, "COALESCE", n->coalesce_expr->args, n->coalesce_expr->n_args,
                           n->coalesce_expr->location);
    case PG_QUERY__NODE__NODE_MIN_MAX_EXPR:
        return common_args(c,
                           n->min_max_expr->op == PG_QUERY__MIN_MAX_OP__IS_GREATEST ? "GREATEST"
                                                                                 : "LEAST",
                           n->min_max_expr->args, n->min_max_expr->n_args,
                           n->min_max_expr->location);
    case PG_QUERY__NODE__NODE_NULL_TEST: {
        dn *a = analyse(c, n->null_test->arg);
        dn *d = a ? node(c, DN_NULLTEST, RL_OID_BOOL, 1) : NULL;
        if (d) {
            d->a[0] = a;
            d->s = n->null_test->nulltesttype == PG_QUERY__NULL_TEST_TYPE__IS_NULL ? " IS NULL"
                                                                                  : " IS NOT NULL";
        }
        return d;
    }
    case PG_QUERY__NODE__NODE_BOOLEAN_TEST: {
        static const char *const tests[] = {"", " IS TRUE", " IS NOT TRUE", " IS FALSE",
                                            " IS NOT FALSE", " IS UNKNOWN", " IS NOT UNKNOWN"};
        unsigned t = (unsigned)n->boolean_test->booltesttype;
        dn *a = to_bool(c, analyse(c, n->boolean_test->arg), "IS TRUE",
                        rl_node_location(n->boolean_test->arg));
        if (!a)
            return NULL;
        if (t == 0 || t >= sizeof tests / sizeof tests[0])
            return unsupported(c, "this boolean test", n->boolean_test->location), NULL;
        dn *d = node(c, DN_BOOLTEST, RL_OID_BOOL, 1);
        if (d)
            d->a[0] = a, d->s = tests[t];
        return d;
    }
    case PG_QUERY__NODE__NODE_SQLVALUE_FUNCTION: {
        const PgQuery__SQLValueFunction *f = n->sqlvalue_function;
        static const struct {
            PgQuery__SQLValueFunctionOp op;
            const char *kw;
            uint32_t type;
            bool n;
        } svf[] = {
            {PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_DATE, "CURRENT_DATE", RL_OID_DATE, false},
            {PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_TIMESTAMP, "CURRENT_TIMESTAMP",
             RL_OID_TIMESTAMPTZ, false},
            {PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_TIMESTAMP_N, "CURRENT_TIMESTAMP",
             RL_OID_TIMESTAMPTZ, true},
            {PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_LOCALTIMESTAMP, "LOCALTIMESTAMP",
             RL_OID_TIMESTAMP, false},
            {PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_LOCALTIMESTAMP_N, "LOCALTIMESTAMP",
             RL_OID_TIMESTAMP, true},
            {PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_TIME, "CURRENT_TIME", RL_OID_TIMETZ,
             false},
            {PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_TIME_N, "CURRENT_TIME", RL_OID_TIMETZ,
             true},
            {PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_LOCALTIME, "LOCALTIME", RL_OID_TIME, false},
            {PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_LOCALTIME_N, "LOCALTIME", RL_OID_TIME, true},
            {PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_ROLE, "CURRENT_ROLE", RL_OID_NAME,
             false},
            {PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_USER, "CURRENT_USER", RL_OID_NAME,
             false},
            {PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_USER, "USER", RL_OID_NAME, false},
            {PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_SESSION_USER, "SESSION_USER", RL_OID_NAME,
             false},
            {PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_CATALOG, "CURRENT_CATALOG",
             RL_OID_NAME, false},
            {PG_QUERY__SQLVALUE_FUNCTION_OP__SVFOP_CURRENT_SCHEMA, "CURRENT_SCHEMA", RL_OID_NAME,
             false}};
        for (size_t i = 0; i < sizeof svf / sizeof svf[0]; i++) {
            if (svf[i].op != f->op)
                continue;
            if (svf[i].n && (f->typmod < 0 || f->typmod > 6))
                break;
            dn *d = node(c, DN_SVF, svf[i].type, 0);
            if (d) {
                d->s = svf[i].kw;
                d->typmod = svf[i].n ? f->typmod : -1;
            }
            return d;
        }
        return unsupported(c, "this SQL value function", f->location), NULL;
    }
    case PG_QUERY__NODE__NODE_PARAM_REF:
        rl_exec_error(c->x, RL_SQLSTATE_UNDEFINED_PARAMETER, n->param_ref->location,
                      "there is no parameter $%d", n->param_ref->number);
        return NULL;
    case PG_QUERY__NODE__NODE_SUB_LINK:
        rl_exec_error(c->x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, n->sub_link->location,
                      "cannot use subquery in %s", kind_singular(c));
        return NULL;
    default:
        return unsupported(c, "this kind of expression", rl_node_location(n)), NULL;
    }
}

/* ------------------------------------------------------------ printing */

typedef struct pctx {
    rl_buf *b;
    bool pretty;
    int indent;
} pctx;

static void print(pctx *p, const dn *d);

static const char *type_name(uint32_t t, int32_t typmod, char *buf, size_t n)
{
    rl_pgcatalog_format_type_typmod(NULL, t, typmod, buf, n);
    return buf;
}

static void quote_literal(rl_buf *b, const char *s)
{
    rl_buf_put_u8(b, '\'');
    for (; *s; s++) {
        if (*s == '\'')
            rl_buf_put_u8(b, '\'');
        rl_buf_put_u8(b, (uint8_t)*s);
    }
    rl_buf_put_u8(b, '\'');
}

/* get_const_expr: numbers bare when they read back as the same type,
 * everything else quoted and labelled (showtype < 0: never labelled). */
static void print_const(pctx *p, const dn *d, int showtype)
{
    char tn[128];
    if (d->flag) {
        rl_buf_put_str(p->b, "NULL");
        if (showtype >= 0)
            rl_buf_printf(p->b, "::%s", type_name(d->type, d->typmod, tn, sizeof tn));
        return;
    }
    bool label = true;
    const char *s = d->s;
    if (d->type == RL_OID_INT4 && s[0] != '-') {
        rl_buf_put_str(p->b, s);
        label = false;
    } else if (d->type == RL_OID_NUMERIC && s[0] >= '0' && s[0] <= '9' &&
               strcspn(s, "eE.") != strlen(s)) {
        rl_buf_put_str(p->b, s);
        label = d->typmod >= 0;
    } else if (d->type == RL_OID_BOOL) {
        rl_buf_put_str(p->b, !strcmp(s, "t") || !strcmp(s, "true") ? "true" : "false");
        label = false;
    } else {
        quote_literal(p->b, s);
    }
    if (label && showtype >= 0)
        rl_buf_printf(p->b, "::%s", type_name(d->type, d->typmod, tn, sizeof tn));
}

static bool lopri(const char *op) { return !strcmp(op, "+") || !strcmp(op, "-"); }
static bool hipri(const char *op) { return !strcmp(op, "*") || !strcmp(op, "/") || !strcmp(op, "%"); }

/* ruleutils' isSimpleNode under PRETTYFLAG_PAREN: may d be printed without
 * parentheses as an argument of parent? */
static bool simple(const dn *d, const dn *parent, bool first)
{
    switch (d->k) {
    case DN_VAR:
    case DN_CONST:
    case DN_SVF:
    case DN_FUNC:
    case DN_COALESCE:
    case DN_ARRAY:
    case DN_CASE:
        return true;
    case DN_CAST:
        return d->func || simple(d->a[0], d, true);
    case DN_SAOP: /* not among isSimpleNode's kinds: parenthesised anywhere */
        return false;
    case DN_OP:
        if (parent->k == DN_OP) {
            const char *op = d->s, *pop = parent->s;
            if (!(lopri(op) || hipri(op)) || !(lopri(pop) || hipri(pop)))
                return false;
            if (hipri(op) && lopri(pop))
                return true;
            if (lopri(op) && hipri(pop))
                return false;
            return first;
        }
        /* fall through */
    case DN_PREFIX:
    case DN_NULLTEST:
    case DN_BOOLTEST:
    case DN_DISTINCT:
        if (d->k == DN_PREFIX && parent->k == DN_OP)
            return false;
        return parent->k == DN_AND || parent->k == DN_OR || parent->k == DN_NOT ||
               (parent->k == DN_FUNC) || parent->k == DN_COALESCE || parent->k == DN_ARRAY ||
               parent->k == DN_CASE;
    case DN_AND:
    case DN_OR:
    case DN_NOT:
        if (parent->k == DN_AND || parent->k == DN_OR || parent->k == DN_NOT) {
            if (d->k == DN_OR)
                return parent->k == DN_OR;
            return parent->k == DN_AND || parent->k == DN_OR;
        }
        return parent->k == DN_FUNC || parent->k == DN_COALESCE || parent->k == DN_ARRAY ||
               parent->k == DN_CASE;
    }
    return false;
}

static void print_arg(pctx *p, const dn *d, const dn *parent, bool first)
{
    bool paren = p->pretty && !simple(d, parent, first);
    if (paren)
        rl_buf_put_u8(p->b, '(');
    print(p, d);
    if (paren)
        rl_buf_put_u8(p->b, ')');
}

static void open_paren(pctx *p)
{
    if (!p->pretty)
        rl_buf_put_u8(p->b, '(');
}
static void close_paren(pctx *p)
{
    if (!p->pretty)
        rl_buf_put_u8(p->b, ')');
}

/* appendContextKeyword under PRETTYFLAG_INDENT (which plain
 * pg_get_constraintdef uses too): a new line, indented. */
static void keyword(pctx *p, const char *kw, int before, int after)
{
    while (p->b->len && p->b->data[p->b->len - 1] == ' ')
        p->b->len--;
    rl_buf_put_u8(p->b, '\n');
    p->indent += before;
    for (int i = 0; i < (p->indent > 0 ? p->indent : 0); i++)
        rl_buf_put_u8(p->b, ' ');
    rl_buf_put_str(p->b, kw);
    p->indent += after;
}

static void print_cast(pctx *p, const dn *d)
{
    char tn[128];
    const dn *a = d->a[0];
    if (a->k == DN_CONST && a->type == d->type && a->typmod < 0) {
        print_const(p, a, -1);
    } else {
        open_paren(p);
        print_arg(p, a, d, true);
        close_paren(p);
    }
    rl_buf_printf(p->b, "::%s", type_name(d->type, d->typmod, tn, sizeof tn));
}

static void print(pctx *p, const dn *d)
{
    if (d->k == DN_CAST && d->implicit) { /* ruleutils hides it, not its parentheses */
        print_arg(p, d->a[0], d, true);
        return;
    }
    switch (d->k) {
    case DN_VAR: {
        char q[140];
        rl_quote_ident(d->s, q, sizeof q);
        rl_buf_put_str(p->b, q);
        return;
    }
    case DN_CONST: print_const(p, d, 0); return;
    case DN_SVF:
        rl_buf_put_str(p->b, d->s);
        if (d->typmod >= 0)
            rl_buf_printf(p->b, "(%d)", (int)d->typmod);
        return;
    case DN_OP:
    case DN_DISTINCT:
        open_paren(p);
        print_arg(p, d->a[0], d, true);
        rl_buf_printf(p->b, d->k == DN_OP ? " %s " : " IS DISTINCT FROM ", d->s);
        print_arg(p, d->a[1], d, false);
        close_paren(p);
        return;
    case DN_PREFIX:
        open_paren(p);
        rl_buf_printf(p->b, "%s ", d->s);
        print_arg(p, d->a[0], d, false);
        close_paren(p);
        return;
    case DN_AND:
    case DN_OR:
        open_paren(p);
        for (size_t i = 0; i < d->n; i++) {
            if (i)
                rl_buf_put_str(p->b, d->k == DN_AND ? " AND " : " OR ");
            print_arg(p, d->a[i], d, i == 0);
        }
        close_paren(p);
        return;
    case DN_NOT:
        open_paren(p);
        rl_buf_put_str(p->b, "NOT ");
        print_arg(p, d->a[0], d, false);
        close_paren(p);
        return;
    case DN_NULLTEST:
    case DN_BOOLTEST:
        open_paren(p);
        print_arg(p, d->a[0], d, true);
        rl_buf_put_str(p->b, d->s);
        close_paren(p);
        return;
    case DN_SAOP:
        open_paren(p);
        print_arg(p, d->a[0], d, true);
        rl_buf_printf(p->b, " %s %s (", d->s, d->flag ? "ANY" : "ALL");
        print_arg(p, d->a[1], d, false);
        rl_buf_put_u8(p->b, ')');
        close_paren(p);
        return;
    case DN_ARRAY:
        rl_buf_put_str(p->b, "ARRAY[");
        for (size_t i = 0; i < d->n; i++) {
            if (i)
                rl_buf_put_str(p->b, ", ");
            print_arg(p, d->a[i], d, i == 0);
        }
        rl_buf_put_u8(p->b, ']');
        return;
    case DN_CAST: print_cast(p, d); return;
    case DN_FUNC:
    case DN_COALESCE: {
        char q[140];
        if (d->k == DN_FUNC)
            rl_quote_ident(d->s, q, sizeof q);
        rl_buf_printf(p->b, "%s(", d->k == DN_FUNC ? q : d->s);
        for (size_t i = 0; i < d->n; i++) {
            if (i)
                rl_buf_put_str(p->b, ", ");
            print_arg(p, d->a[i], d, i == 0);
        }
        rl_buf_put_u8(p->b, ')');
        return;
    }
    case DN_CASE: {
        size_t nwhen = (d->n - (d->flag ? 1 : 0)) / 2;
        keyword(p, "CASE", 0, 4);
        for (size_t i = 0; i < nwhen; i++) {
            keyword(p, "WHEN ", 0, 0);
            print_arg(p, d->a[2 * i], d, true);
            rl_buf_put_str(p->b, " THEN ");
            print_arg(p, d->a[2 * i + 1], d, false);
        }
        if (d->flag) {
            keyword(p, "ELSE ", 0, 0);
            print_arg(p, d->a[d->n - 1], d, false);
        }
        keyword(p, "END", -4, 0);
        return;
    }
    }
}

/* ------------------------------------------------------------- entry */

/* The two texts of d into out (NUL-terminated). 0 or -1. */
static int print_both(rl_exec *x, const dn *d, rl_check_text *out)
{
    pctx pp = {.b = &out->plain, .pretty = false};
    print(&pp, d);
    pctx pr = {.b = &out->pretty, .pretty = true};
    print(&pr, d);
    rl_buf_put_u8(&out->plain, 0);
    rl_buf_put_u8(&out->pretty, 0);
    if (out->plain.failed || out->pretty.failed)
        return rl_exec_error(x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    return 0;
}

/* ------------------------------------------------- stored texts */

/* "SELECT <text>" parsed; its expression at *expr (valid while held). */
int rl_check_parse_text(rl_exec *x, const char *text, rl_parsed **out,
                        const PgQuery__Node **expr)
{
    rl_buf q;
    rl_buf_init(&q, 0);
    rl_buf_printf(&q, "SELECT %s", text);
    rl_buf_put_u8(&q, 0);
    if (q.failed) {
        rl_buf_free(&q);
        return rl_exec_error(x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    }
    int rc = rl_parse(x, (const char *)q.data, out);
    rl_buf_free(&q);
    if (rc < 0)
        return -1;
    const PgQuery__ParseResult *t = rl_parsed_tree(*out);
    const PgQuery__SelectStmt *s =
        t && t->n_stmts == 1 && t->stmts[0]->stmt->node_case == PG_QUERY__NODE__NODE_SELECT_STMT
            ? t->stmts[0]->stmt->select_stmt
            : NULL;
    if (!s || s->n_target_list != 1 || s->n_from_clause ||
        s->target_list[0]->node_case != PG_QUERY__NODE__NODE_RES_TARGET) {
        rl_parsed_release(*out);
        *out = NULL;
        return rl_exec_error(x, RL_SQLSTATE_DATA_CORRUPTED, -1,
                             "a stored expression does not parse as one");
    }
    *expr = s->target_list[0]->res_target->val;
    return 0;
}

/* The table's shape: its columns (ctid after them). */
rl_rowset *rl_check_table_shape(rl_exec *x, const rl_relation *rel, size_t *ncols)
{
    rl_rowset *rs = rl_relation_shape(x, rel, rel->name);
    if (!rs)
        return NULL;
    size_t n = rs->ncols;
    while (n > 0 && rs->cols[n - 1].attnum == RL_CTID_ATTNUM)
        n--;
    *ncols = n;
    return rs;
}

/* The stored text must read back as itself (sql_deparse.c's invariant):
 * renames and DROP COLUMN analyse it again and store what they print, and
 * pg_constraint shows it. A text that would print differently is refused
 * (0A000) rather than kept. 0 or -1. */
int rl_deparse_reads_back(rl_exec *x, const rl_check_text *tx, const rl_rowset *shape,
                          size_t ncols, const char *table, rl_deparse_kind kind)
{
    rl_parsed *p = NULL;
    const PgQuery__Node *expr;
    if (rl_check_parse_text(x, (const char *)tx->plain.data, &p, &expr) < 0)
        return -1;
    rl_check_text again;
    const rl_parsed *prev = rl_parsed_activate(p);
    int rc = rl_deparse_expr(x, expr, shape, ncols, table, NULL, NULL, kind, &again);
    rl_parsed_activate(prev);
    rl_parsed_release(p);
    if (rc < 0)
        return -1;
    bool same = again.plain.len == tx->plain.len && again.pretty.len == tx->pretty.len &&
                !memcmp(again.plain.data, tx->plain.data, tx->plain.len) &&
                !memcmp(again.pretty.data, tx->pretty.data, tx->pretty.len);
    rl_check_text_free(&again);
    if (same)
        return 0;
    return rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                         "this %s's form is not supported by RockLake: its text "
                         "%s does not read back the same",
                         kind == RL_DEPARSE_CHECK ? "CHECK expression"
                         : kind == RL_DEPARSE_INDEX_EXPR ? "index expression"
                                                         : "index predicate",
                         (const char *)tx->plain.data);
}

/* ------------------------------------------------------- mutability */

static bool stable_io(uint32_t t, bool output)
{
    return t == RL_OID_DATE || t == RL_OID_TIMESTAMP || t == RL_OID_TIMESTAMPTZ ||
           t == RL_OID_INTERVAL || (!output && (t == RL_OID_TIME || t == RL_OID_TIMETZ));
}

/* Does the cast from s to t call a function that is not IMMUTABLE? The
 * conversions to and from timestamptz read the session's zone; a cast
 * through text (CoerceViaIO) calls s's output and t's input, which for
 * the date/time types read DateStyle / IntervalStyle. (pg_cast and
 * pg_type's typinput / typoutput of PostgreSQL 15.) */
static bool cast_mutable(uint32_t s, uint32_t t)
{
    bool tz = s == RL_OID_TIMESTAMPTZ || t == RL_OID_TIMESTAMPTZ;
    if (tz && (is_datetime(s) || s == RL_OID_TIME) && (is_datetime(t) || t == RL_OID_TIME ||
                                                        t == RL_OID_TIMETZ))
        return true;
    if (s == RL_OID_TIME && t == RL_OID_TIMETZ)
        return true;
    bool s_text = s == RL_OID_TEXT || s == RL_OID_VARCHAR || s == RL_OID_BPCHAR;
    bool t_text = t == RL_OID_TEXT || t == RL_OID_VARCHAR || t == RL_OID_BPCHAR;
    return (t_text && stable_io(s, true)) || (s_text && stable_io(t, false));
}

/* contain_mutable_functions over the analysed tree: a function, operator
 * or cast that is not IMMUTABLE, or CURRENT_DATE and its kin. */
static bool mutable_node(const dn *d)
{
    switch (d->k) {
    case DN_FUNC:
        if (d->vol != 'i')
            return true;
        break;
    case DN_SVF: return true;
    case DN_CAST:
        if (cast_mutable(d->a[0]->type, d->type))
            return true;
        break;
    case DN_OP:
    case DN_DISTINCT: {
        uint32_t l = d->a[0]->type, r = d->a[1]->type;
        bool tz = l == RL_OID_TIMESTAMPTZ || r == RL_OID_TIMESTAMPTZ;
        if (tz && l != r) /* across date/time types, or timestamptz +- interval */
            return true;
        break;
    }
    default: break;
    }
    for (size_t i = 0; i < d->n; i++)
        if (d->a[i] && mutable_node(d->a[i]))
            return true;
    return false;
}

/* ------------------------------------------------------------- entry */

int rl_deparse_expr(rl_exec *x, const PgQuery__Node *expr, const rl_rowset *shape, size_t ncols,
                    const char *table, const char *rename_from, const char *rename_to,
                    rl_deparse_kind kind, rl_check_text *out)
{
    memset(out, 0, sizeof *out);
    rl_buf_init(&out->plain, 0);
    rl_buf_init(&out->pretty, 0);
    rl_rowset *typing = rl_rowset_typing(shape, x->err);
    if (!typing)
        return -1;
    rl_arena arena;
    memset(&arena, 0, sizeof arena);
    rl_binding b = {.rs = typing, .row = 0};
    rl_expr_ctx ec = {.x = x, .b = &b, .arena = &arena, .typing = true};
    dctx c = {.x = x, .ec = &ec, .shape = shape, .ncols = ncols, .table = table,
              .rename_from = rename_from, .rename_to = rename_to, .arena = &arena,
              .kind = kind};
    dn *d = analyse(&c, expr);
    if (kind != RL_DEPARSE_INDEX_EXPR)
        d = to_bool(&c, d, kind == RL_DEPARSE_CHECK ? "CHECK" : "WHERE", rl_node_location(expr));
    int rc = d ? print_both(x, d, out) : -1;
    if (rc == 0) {
        memcpy(out->conkey, c.conkey, sizeof c.conkey);
        out->nconkey = c.nconkey;
        if (c.nconkey == 1)
            rl_str_copy(out->column, sizeof out->column, shape->cols[c.conkey[0] - 1].name);
        out->type = d->type;
        out->typmod = d->typmod;
        out->mutable_ = mutable_node(d);
        out->var = d->k == DN_VAR;
        /* ruleutils' looks_like_function: printed as a call */
        out->function_like = d->k == DN_FUNC || d->k == DN_COALESCE;
        out->true_const = d->k == DN_CONST && d->type == RL_OID_BOOL && !d->flag &&
                          (!strcmp(d->s, "true") || !strcmp(d->s, "t"));
    }
    rl_arena_free(&arena);
    rl_rowset_free(typing);
    if (rc < 0)
        rl_check_text_free(out);
    return rc;
}

/* cookDefault's coercion of the analysed default d to the column's type
 * (assignment rules): an untyped literal read as the type (its input
 * error at the literal, as PostgreSQL reports it), another type through an
 * implicit cast that pg_get_expr does not print; 42804 otherwise. */
static dn *to_column(dctx *c, dn *d, const char *column, uint32_t oid)
{
    if (!d || d->type == oid)
        return d;
    if (is_unknown_const(d))
        return coerce(c, d, oid); /* its input error at the literal */
    if (!rl_assignable(d->type, oid)) {
        rl_exec_error(c->x, RL_SQLSTATE_DATATYPE_MISMATCH, -1,
                      "column \"%s\" is of type %s but default expression is of type %s", column,
                      rl_oid_type_name(oid), rl_oid_type_name(d->type));
        rl_error_hint(c->x->err, "You will need to rewrite or cast the expression.");
        return NULL;
    }
    dn *k = node(c, DN_CAST, oid, 1);
    if (k) {
        k->a[0] = d;
        k->implicit = true;
    }
    return k;
}

int rl_default_deparse(rl_exec *x, const PgQuery__Node *expr, const char *column, uint32_t oid,
                       rl_check_text *out, bool *is_null)
{
    memset(out, 0, sizeof *out);
    rl_buf_init(&out->plain, 0);
    rl_buf_init(&out->pretty, 0);
    *is_null = false;
    rl_arena arena;
    memset(&arena, 0, sizeof arena);
    rl_expr_ctx ec = {.x = x, .arena = &arena, .typing = true};
    dctx c = {.x = x, .ec = &ec, .table = "", .arena = &arena,
              .kind = RL_DEPARSE_DEFAULT};
    dn *d = to_column(&c, analyse(&c, expr), column, oid);
    int rc = d ? 0 : -1;
    if (d && d->k == DN_CONST && d->flag)
        *is_null = true; /* a NULL constant: PostgreSQL keeps no default */
    else if (d)
        rc = print_both(x, d, out);
    out->is_volatile = c.is_volatile;
    rl_arena_free(&arena);
    if (rc < 0)
        rl_check_text_free(out);
    return rc;
}

int rl_check_deparse(rl_exec *x, const PgQuery__Node *expr, const rl_rowset *shape, size_t ncols,
                     const char *table, const char *rename_from, const char *rename_to,
                     rl_check_text *out)
{
    return rl_deparse_expr(x, expr, shape, ncols, table, rename_from, rename_to,
                           RL_DEPARSE_CHECK, out);
}

void rl_check_text_free(rl_check_text *t)
{
    rl_buf_free(&t->plain);
    rl_buf_free(&t->pretty);
}
