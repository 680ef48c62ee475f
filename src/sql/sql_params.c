/*
 * sql_params.c — the parameters of a prepared statement: how many it has
 * (the highest $n its text refers to) and, for those Parse left without a
 * type, the type the statement's context gives them, as PostgreSQL's parse
 * analysis does. The ParameterDescription of a Describe reports them, and
 * Bind decodes a binary parameter by them: a client such as asyncpg or a
 * JDBC driver prepares without types and encodes its arguments by what the
 * server describes.
 *
 * Contexts understood, in the order PostgreSQL resolves them (the first
 * one that types a parameter wins):
 *   - $n::type and CAST($n AS type): the cast's type;
 *   - INSERT INTO t [(cols)] VALUES (..., $n, ...): the column's type;
 *   - UPDATE t SET col = $n: the column's type;
 *   - $n op column, column op $n, column [NOT] IN (..., $n, ...),
 *     column [NOT] BETWEEN $n AND $m, column LIKE $n: the column's type
 *     (a column of any relation the statement names, qualified or not);
 *   - $n op constant: the constant's type (integer, numeric, boolean);
 *   - LIMIT $n / OFFSET $n: bigint;
 *   - percentile_cont($n) / percentile_disc($n) WITHIN GROUP (...): double
 *     precision (the fraction; an array of them only by a cast);
 *   - WHERE $n, and $n as an operand of AND, OR or NOT: boolean;
 *   - GREATEST / LEAST / COALESCE(..., $n, ...): the other arguments' type;
 *   - f(..., $n, ...): the type function resolution gives the argument
 *     (rl_func_arg_type: to_timestamp($1) is double precision, round($1, 2)
 *     numeric, width_bucket($1, ARRAY[1,2]) integer).
 * A parameter no context types is text, as an unknown literal is; one
 * seen only as the operand of IS [NOT] NULL has no type at all (42P18 at
 * Parse, sql.c), as in PostgreSQL.
 *
 * Invariant: inference never fails a statement. A relation it cannot
 * resolve is left out (the statement itself reports that when it runs),
 * so the types only ever add information to what Parse declared.
 */
#include <assert.h>
#include <stdlib.h>
#include <string.h>

#include "sql/sql_cast.h"
#include "sql/sql_exec.h"
#include "sql/sql_expr.h"
#include "sql/sql_func.h"
#include "sql/sql_parse.h"
#include "sql/sql_relation.h"
#include "sql/sql_scan.h"
#include "sql/sql_stmt.h"
#include "sql/sql_value.h"
#include "base/stack.h"

enum { MAX_RELS = 16 };

typedef struct param_scan {
    rl_exec *x;
    uint32_t *oids;         /* n entries: 0 = not typed yet */
    size_t n;
    rl_rowset *rels[MAX_RELS]; /* the shapes of the relations the statement names */
    size_t nrels;
    int max_ref;            /* the highest $n seen */
    size_t nslots;          /* entries of the three below: 0 while only max_ref is found */
    uint32_t *refs;         /* [n-1]: how often $n is seen */
    uint32_t *null_tested;  /* [n-1]: how often as the operand of IS [NOT] NULL */
    bool *null_tested_first; /* [n-1]: $n is first seen there */
} param_scan;

/* ------------------------------------------------------------- counting */

/* IS [NOT] NULL takes an operand of any type, so it gives a parameter
 * none: PostgreSQL leaves one seen only there unknown and refuses the
 * statement at Parse (42P18), where a parameter seen anywhere else is
 * typed by that context or, failing one, resolved as text. One seen there
 * before a context types it keeps "unknown" in that place while the
 * parameter takes the type: 42P08. The walk visits a node before its
 * children, so a NullTest comes just before its operand; its order among
 * clauses is the parse tree's, which for one clause (a WHERE of ANDs and
 * ORs, a target list) is PostgreSQL's too. */
static int count_visit(void *ctx, const ProtobufCMessage *m)
{
    param_scan *ps = ctx;
    if (m->descriptor == &pg_query__param_ref__descriptor) {
        int num = ((const PgQuery__ParamRef *)m)->number;
        if (num > ps->max_ref)
            ps->max_ref = num;
        if (num >= 1 && (size_t)num <= ps->nslots)
            ps->refs[num - 1]++;
    } else if (m->descriptor == &pg_query__null_test__descriptor && ps->nslots) {
        const PgQuery__Node *arg = ((const PgQuery__NullTest *)m)->arg;
        if (arg && arg->node_case == PG_QUERY__NODE__NODE_PARAM_REF) {
            int num = arg->param_ref->number;
            if (num >= 1 && (size_t)num <= ps->nslots) {
                if (!ps->refs[num - 1])
                    ps->null_tested_first[num - 1] = true;
                ps->null_tested[num - 1]++;
            }
        }
    }
    return 0;
}

/* Two walks: the highest $n first, then, with that many counters, how each
 * is referred to (memory follows what the statement holds). */
int rl_params_count(rl_exec *x, const PgQuery__Node *stmt, size_t *out, uint8_t **flags)
{
    param_scan ps = {.x = x};
    *out = 0;
    *flags = NULL;
    if (!stmt)
        return 0;
    if (rl_tree_walk((const ProtobufCMessage *)stmt, count_visit, &ps) == -2)
        return rl_stack_depth_error(x->err);
    if (ps.max_ref <= 0)
        return 0;
    if (ps.max_ref > RL_MAX_PARAMS)
        return rl_exec_error(x, RL_SQLSTATE_PROGRAM_LIMIT_EXCEEDED, -1,
                             "statement refers to parameter $%d; at most %d can be bound",
                             ps.max_ref, RL_MAX_PARAMS);
    size_t n = (size_t)ps.max_ref;
    ps.refs = calloc(n, sizeof *ps.refs);
    ps.null_tested = calloc(n, sizeof *ps.null_tested);
    ps.null_tested_first = calloc(n, sizeof *ps.null_tested_first);
    uint8_t *f = calloc(n, sizeof *f);
    int rc = 0;
    if (!ps.refs || !ps.null_tested || !ps.null_tested_first || !f)
        rc = rl_exec_error(x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    ps.nslots = rc == 0 ? n : 0;
    if (rc == 0 && rl_tree_walk((const ProtobufCMessage *)stmt, count_visit, &ps) == -2)
        rc = rl_stack_depth_error(x->err);
    for (size_t i = 0; rc == 0 && i < n; i++) {
        assert(ps.null_tested[i] <= ps.refs[i]); /* each operand is also a ref */
        if (ps.refs[i] > ps.null_tested[i])
            f[i] = RL_PARAM_TYPEABLE | (ps.null_tested_first[i] ? RL_PARAM_UNKNOWN_FIRST : 0);
    }
    free(ps.refs);
    free(ps.null_tested);
    free(ps.null_tested_first);
    if (rc < 0) {
        free(f);
        return -1;
    }
    *out = n;
    *flags = f;
    return 0;
}

/* ------------------------------------------------------------ relations */

/* Each relation the statement names, resolved as it would run; one that
 * does not resolve (a CTE's name, a missing table) is skipped. */
static int rels_visit(void *ctx, const ProtobufCMessage *m)
{
    param_scan *ps = ctx;
    if (m->descriptor != &pg_query__range_var__descriptor || ps->nrels == MAX_RELS)
        return 0;
    const PgQuery__RangeVar *rv = (const PgQuery__RangeVar *)m;
    rl_error scratch, *keep = ps->x->err;
    rl_error_clear(&scratch);
    ps->x->err = &scratch; /* a miss is not the statement's error */
    rl_relation rel;
    if (rl_relation_resolve(ps->x, rv, &rel) == 0) {
        const char *alias = rl_range_var_alias(rv);
        rl_rowset *shape = rl_relation_shape(ps->x, &rel, alias);
        if (shape)
            ps->rels[ps->nrels++] = shape;
    }
    ps->x->err = keep;
    return 0;
}

/* The type of the column `cr` names among the statement's relations, or 0. */
static uint32_t column_oid(const param_scan *ps, const PgQuery__ColumnRef *cr)
{
    if (cr->n_fields < 1 || cr->n_fields > 2)
        return 0;
    const char *qual = cr->n_fields == 2 ? rl_node_string(cr->fields[0]) : NULL;
    const char *name = rl_node_string(cr->fields[cr->n_fields - 1]);
    if (!name || (cr->n_fields == 2 && !qual))
        return 0;
    for (size_t r = 0; r < ps->nrels; r++) {
        const rl_rowset *rs = ps->rels[r];
        for (size_t i = 0; i < rs->ncols; i++)
            if (strcmp(rs->cols[i].name, name) == 0 && (!qual || strcmp(rs->cols[i].rel, qual) == 0))
                return rs->cols[i].oid;
    }
    return 0;
}

/* The type of the named column of one relation (INSERT and UPDATE), or 0. */
static uint32_t target_column_oid(const param_scan *ps, const PgQuery__RangeVar *rv,
                                  const char *name, size_t position)
{
    const char *alias = rl_range_var_alias(rv);
    for (size_t r = 0; r < ps->nrels; r++) {
        const rl_rowset *rs = ps->rels[r];
        if (!rs->ncols || strcmp(rs->cols[0].rel, alias) != 0)
            continue;
        if (!name) /* by position; the shape ends with ctid */
            return position + 1 < rs->ncols ? rs->cols[position].oid : 0;
        for (size_t i = 0; i < rs->ncols; i++)
            if (strcmp(rs->cols[i].name, name) == 0)
                return rs->cols[i].oid;
        return 0;
    }
    return 0;
}

/* -------------------------------------------------------------- typing */

static const PgQuery__ParamRef *param_of(const PgQuery__Node *n)
{
    return n && n->node_case == PG_QUERY__NODE__NODE_PARAM_REF ? n->param_ref : NULL;
}

static void set_type(param_scan *ps, const PgQuery__Node *n, uint32_t oid)
{
    const PgQuery__ParamRef *p = param_of(n);
    if (!p || !oid || oid == RL_OID_UNKNOWN || p->number < 1 || (size_t)p->number > ps->n)
        return;
    if (!ps->oids[p->number - 1])
        ps->oids[p->number - 1] = oid;
}

/* The type a cast names, or 0 for one RockLake does not know (not the
 * statement's error here: it reports that when it runs). */
static uint32_t cast_oid(const param_scan *ps, const PgQuery__TypeName *tn)
{
    uint32_t oid = 0;
    int32_t typmod;
    rl_error scratch, *keep = ps->x->err;
    ps->x->err = &scratch;
    if (rl_type_from_typename(ps->x, tn, &oid, &typmod) < 0)
        oid = 0;
    /* a table's name: its row type (NULL::t, $1::t, $1::t[]) */
    const char *name = tn && tn->n_names ? rl_node_string(tn->names[tn->n_names - 1]) : NULL;
    const char *schema = tn && tn->n_names == 2 ? rl_node_string(tn->names[0]) : NULL;
    rl_relation rel;
    if (!oid && name && tn->n_names <= 2 && !tn->n_typmods && tn->n_array_bounds <= 1 &&
        (tn->n_names == 1 || schema) && rl_relation_lookup(ps->x, schema, name, &rel) == 0 &&
        (rel.kind == RL_REL_STORED || rel.kind == RL_REL_TEMP))
        oid = tn->n_array_bounds ? rl_rowtype_array_oid(rl_rowtype_oid(rel.oid))
                                 : rl_rowtype_oid(rel.oid);
    ps->x->err = keep;
    return oid;
}

/* The type an operand gives the parameter it is compared with, or 0. A
 * character column gives text: PostgreSQL resolves `varchar = unknown`
 * with text's operator, so the parameter is text. */
static uint32_t operand_oid(const param_scan *ps, const PgQuery__Node *n)
{
    if (!n)
        return 0;
    if (n->node_case == PG_QUERY__NODE__NODE_COLUMN_REF) {
        uint32_t oid = column_oid(ps, n->column_ref);
        return oid == RL_OID_VARCHAR ? RL_OID_TEXT : oid;
    }
    if (n->node_case == PG_QUERY__NODE__NODE_A_CONST) {
        const PgQuery__AConst *c = rl_const(n->a_const);
        switch (c->val_case) {
        case PG_QUERY__A__CONST__VAL_IVAL: return RL_OID_INT4;
        case PG_QUERY__A__CONST__VAL_FVAL: return RL_OID_NUMERIC;
        case PG_QUERY__A__CONST__VAL_BOOLVAL: return RL_OID_BOOL;
        default: return 0; /* a string constant is unknown too */
        }
    }
    if (n->node_case == PG_QUERY__NODE__NODE_TYPE_CAST)
        return cast_oid(ps, n->type_cast->type_name);
    return 0;
}

static void type_list_against(param_scan *ps, const PgQuery__Node *list, uint32_t oid)
{
    if (!oid || !list || list->node_case != PG_QUERY__NODE__NODE_LIST)
        return;
    for (size_t i = 0; i < list->list->n_items; i++)
        set_type(ps, list->list->items[i], oid);
}

/* (a, b) op ($1, $2): each field gives its pair's parameter a type. */
static bool type_rows(param_scan *ps, const PgQuery__Node *l, const PgQuery__Node *r)
{
    if (!l || !r || l->node_case != PG_QUERY__NODE__NODE_ROW_EXPR ||
        r->node_case != PG_QUERY__NODE__NODE_ROW_EXPR)
        return false;
    const PgQuery__RowExpr *a = l->row_expr, *b = r->row_expr;
    for (size_t i = 0; i < a->n_args && i < b->n_args; i++) {
        set_type(ps, a->args[i], operand_oid(ps, b->args[i]));
        set_type(ps, b->args[i], operand_oid(ps, a->args[i]));
    }
    return true;
}

static void type_a_expr(param_scan *ps, const PgQuery__AExpr *e)
{
    if (e->kind == PG_QUERY__A__EXPR__KIND__AEXPR_IN && e->rexpr &&
        e->rexpr->node_case == PG_QUERY__NODE__NODE_LIST) {
        for (size_t i = 0; i < e->rexpr->list->n_items; i++)
            type_rows(ps, e->lexpr, e->rexpr->list->items[i]);
    }
    if (type_rows(ps, e->lexpr, e->rexpr))
        return;
    switch (e->kind) {
    case PG_QUERY__A__EXPR__KIND__AEXPR_OP:
    case PG_QUERY__A__EXPR__KIND__AEXPR_OP_ANY:
    case PG_QUERY__A__EXPR__KIND__AEXPR_OP_ALL:
    case PG_QUERY__A__EXPR__KIND__AEXPR_DISTINCT:
    case PG_QUERY__A__EXPR__KIND__AEXPR_NOT_DISTINCT:
    case PG_QUERY__A__EXPR__KIND__AEXPR_NULLIF:
    case PG_QUERY__A__EXPR__KIND__AEXPR_LIKE:
    case PG_QUERY__A__EXPR__KIND__AEXPR_ILIKE:
        if (e->kind != PG_QUERY__A__EXPR__KIND__AEXPR_OP_ANY &&
            e->kind != PG_QUERY__A__EXPR__KIND__AEXPR_OP_ALL)
            set_type(ps, e->lexpr, operand_oid(ps, e->rexpr));
        set_type(ps, e->rexpr, operand_oid(ps, e->lexpr));
        break;
    case PG_QUERY__A__EXPR__KIND__AEXPR_IN:
    case PG_QUERY__A__EXPR__KIND__AEXPR_BETWEEN:
    case PG_QUERY__A__EXPR__KIND__AEXPR_NOT_BETWEEN:
    case PG_QUERY__A__EXPR__KIND__AEXPR_BETWEEN_SYM:
    case PG_QUERY__A__EXPR__KIND__AEXPR_NOT_BETWEEN_SYM:
        type_list_against(ps, e->rexpr, operand_oid(ps, e->lexpr));
        break;
    default:
        break;
    }
}

/* ARRAY[...] of elements of one plain type: that type's array, or 0. */
static uint32_t array_oid(const param_scan *ps, const PgQuery__Node *n)
{
    const PgQuery__AArrayExpr *ae = n->a_array_expr;
    uint32_t elem = 0;
    for (size_t i = 0; i < ae->n_elements; i++) {
        uint32_t t = operand_oid(ps, ae->elements[i]);
        if (!t || (elem && t != elem))
            return 0;
        elem = t;
    }
    return elem ? rl_array_oid_of(elem) : 0;
}

/* f(..., $n, ...): the type PostgreSQL's function resolution gives the
 * parameter, from the overloads of f and the types of the other arguments
 * that are plain (a column, a constant, a cast). */
static void type_func_args(param_scan *ps, const PgQuery__FuncCall *f, const char *name)
{
    if (f->n_args == 0 || f->n_args > RL_FUNC_MAX_ARGS || f->agg_star || f->func_variadic)
        return;
    uint32_t oids[RL_FUNC_MAX_ARGS];
    bool any_param = false;
    for (size_t i = 0; i < f->n_args; i++) {
        const PgQuery__Node *a = f->args[i];
        if (a->node_case == PG_QUERY__NODE__NODE_NAMED_ARG_EXPR)
            return; /* name => value: the arranged call decides */
        const PgQuery__ParamRef *p = param_of(a);
        any_param |= p && p->number >= 1 && (size_t)p->number <= ps->n && !ps->oids[p->number - 1];
        uint32_t t = p ? (p->number >= 1 && (size_t)p->number <= ps->n ? ps->oids[p->number - 1]
                                                                         : 0)
                       : a->node_case == PG_QUERY__NODE__NODE_A_ARRAY_EXPR ? array_oid(ps, a)
                                                                         : operand_oid(ps, a);
        if (!t && !p && a->node_case != PG_QUERY__NODE__NODE_A_CONST)
            return; /* an argument whose type this walk cannot see */
        oids[i] = t ? t : RL_OID_UNKNOWN;
    }
    if (!any_param)
        return;
    for (size_t i = 0; i < f->n_args; i++)
        if (param_of(f->args[i]))
            set_type(ps, f->args[i], rl_func_arg_type(ps->x, name, f->n_args, oids, i));
}

static int type_visit(void *ctx, const ProtobufCMessage *m)
{
    param_scan *ps = ctx;
    const ProtobufCMessageDescriptor *d = m->descriptor;
    if (d == &pg_query__type_cast__descriptor) {
        const PgQuery__TypeCast *tc = (const PgQuery__TypeCast *)m;
        if (param_of(tc->arg))
            set_type(ps, tc->arg, cast_oid(ps, tc->type_name));
    } else if (d == &pg_query__a__expr__descriptor) {
        type_a_expr(ps, (const PgQuery__AExpr *)m);
    } else if (d == &pg_query__func_call__descriptor) {
        const PgQuery__FuncCall *f = (const PgQuery__FuncCall *)m;
        const char *name = f->n_funcname ? rl_node_string(f->funcname[f->n_funcname - 1]) : NULL;
        if (name && f->agg_within_group && f->n_args == 1 &&
            (strcmp(name, "percentile_cont") == 0 || strcmp(name, "percentile_disc") == 0))
            set_type(ps, f->args[0], RL_OID_FLOAT8);
        else if (name && !f->agg_within_group && !f->over && f->n_funcname <= 2)
            type_func_args(ps, f, name);
    } else if (d == &pg_query__min_max_expr__descriptor ||
               d == &pg_query__coalesce_expr__descriptor) {
        /* GREATEST / LEAST / COALESCE: the plain arguments' common type
         * (rl_common_type, as the call itself takes it) */
        bool mm = d == &pg_query__min_max_expr__descriptor;
        size_t n = mm ? ((const PgQuery__MinMaxExpr *)m)->n_args
                      : ((const PgQuery__CoalesceExpr *)m)->n_args;
        PgQuery__Node *const *args = mm ? ((const PgQuery__MinMaxExpr *)m)->args
                                        : ((const PgQuery__CoalesceExpr *)m)->args;
        uint32_t common = 0;
        for (size_t i = 0; i < n; i++) {
            uint32_t t = param_of(args[i]) ? 0 : operand_oid(ps, args[i]);
            if (t)
                common = common ? rl_common_type(common, t) : t;
        }
        for (size_t i = 0; common && i < n; i++)
            set_type(ps, args[i], common);
    } else if (d == &pg_query__bool_expr__descriptor) {
        const PgQuery__BoolExpr *be = (const PgQuery__BoolExpr *)m;
        for (size_t i = 0; i < be->n_args; i++)
            set_type(ps, be->args[i], RL_OID_BOOL);
    } else if (d == &pg_query__select_stmt__descriptor) {
        const PgQuery__SelectStmt *st = (const PgQuery__SelectStmt *)m;
        set_type(ps, st->where_clause, RL_OID_BOOL);
        set_type(ps, st->limit_count, RL_OID_INT8);
        set_type(ps, st->limit_offset, RL_OID_INT8);
    } else if (d == &pg_query__update_stmt__descriptor) {
        set_type(ps, ((const PgQuery__UpdateStmt *)m)->where_clause, RL_OID_BOOL);
    } else if (d == &pg_query__delete_stmt__descriptor) {
        set_type(ps, ((const PgQuery__DeleteStmt *)m)->where_clause, RL_OID_BOOL);
    }
    return 0;
}

/* INSERT's VALUES and UPDATE's SET give a parameter the type of the
 * column it is stored in. */
static void type_targets(param_scan *ps, const PgQuery__Node *stmt)
{
    if (stmt->node_case == PG_QUERY__NODE__NODE_INSERT_STMT) {
        const PgQuery__InsertStmt *ins = stmt->insert_stmt;
        const PgQuery__Node *sel = ins->select_stmt;
        if (!ins->relation || !sel || sel->node_case != PG_QUERY__NODE__NODE_SELECT_STMT)
            return;
        const PgQuery__SelectStmt *vs = sel->select_stmt;
        for (size_t r = 0; r < vs->n_values_lists; r++) {
            const PgQuery__Node *row = vs->values_lists[r];
            if (!row || row->node_case != PG_QUERY__NODE__NODE_LIST)
                continue;
            for (size_t i = 0; i < row->list->n_items; i++) {
                const char *col = NULL;
                if (ins->n_cols) {
                    if (i >= ins->n_cols)
                        break;
                    col = ins->cols[i]->res_target->name;
                }
                set_type(ps, row->list->items[i], target_column_oid(ps, ins->relation, col, i));
            }
        }
    } else if (stmt->node_case == PG_QUERY__NODE__NODE_UPDATE_STMT) {
        const PgQuery__UpdateStmt *up = stmt->update_stmt;
        for (size_t i = 0; up->relation && i < up->n_target_list; i++) {
            const PgQuery__ResTarget *t = up->target_list[i]->res_target;
            if (t->name && !t->n_indirection)
                set_type(ps, t->val, target_column_oid(ps, up->relation, t->name, 0));
        }
    }
}

void rl_params_infer(rl_exec *x, const PgQuery__Node *stmt, uint32_t *oids, size_t n)
{
    param_scan ps = {.x = x, .oids = oids, .n = n};
    if (stmt) {
        /* the walks stop short only on a tree too deep for the stack; what
         * they typed by then stands, the rest is text */
        rl_tree_walk((const ProtobufCMessage *)stmt, rels_visit, &ps);
        type_targets(&ps, stmt);
        rl_tree_walk((const ProtobufCMessage *)stmt, type_visit, &ps);
    }
    for (size_t i = 0; i < n; i++)
        if (!oids[i])
            oids[i] = RL_OID_TEXT;
    for (size_t r = 0; r < ps.nrels; r++)
        rl_rowset_free(ps.rels[r]);
}
