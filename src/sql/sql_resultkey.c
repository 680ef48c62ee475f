/*
 * sql_resultkey.c — which SELECTs answer with the same bytes whenever the
 * lake's schemas and tables are the same, and the key that says so.
 *
 * DuckDB's postgres extension sends the same catalog-discovery queries on
 * every ATTACH; on a 10,000-table lake they return some 120,000 rows and
 * were most of an ATTACH's server time. Their answers depend on nothing but
 * the statement's text and the catalog's relations, so the wire layer may
 * keep an answer's bytes (rl_sink.cached_result) and send them again while
 * the relations stay the same.
 *
 * Owns: the purity test and the key. A SELECT is pure when
 *  - every relation it names is a pure pg_catalog relation
 *    (rl_pgcatalog_pure: pg_namespace, pg_class, pg_attribute, pg_type,
 *    pg_constraint, pg_description, pg_enum, pg_indexes) or a CTE of its
 *    own WITH (whose body is held to the same test);
 *  - it reads no ctid (numbered per session), calls no function but the
 *    immutable ones of the function table (sql_functab.inc: lower, chr,
 *    pg_size_pretty ...; a stable one may read the session or the clock),
 *    reads no parameter and no SQL value function
 *    (now(), current_user, ...), casts to no reg* type (their text depends
 *    on search_path), and locks nothing;
 *  - the session has no temporary table (one could shadow pg_class, and
 *    the catalog views list them to it) and never committed one (its
 *    pg_temp_N stays in pg_namespace);
 *  - it does not pick relations by name (relname = / IN constants): the
 *    engine answers those with point lookups (sql_pgcatalog.c
 *    collect_named) in less time than the key's listing of every table
 *    takes, so keeping their answers would only cost.
 * A SELECT that names no pg_catalog relation (SELECT 1, DuckDB's pool
 * ping) costs less than its key and is never offered.
 * Its key is the query's text and the statement's index in it, the
 * session's settings and
 * rl_pgcatalog_fingerprint as this transaction sees the catalog (a table
 * created earlier in the same transaction changes it).
 *
 * Invariants: equal keys mean equal answers (every input of a pure answer
 * is in the key); anything the test does not understand is impure; a walk
 * cut short by the stack limit is impure, not an error.
 */
#include <string.h>
#include <strings.h>

#include "sql/sql_exec.h"
#include "sql/sql_func.h"
#include "sql/sql_parse.h"
#include "sql/sql_pgcatalog.h"
#include "sql/sql_resultkey.h"

static bool reg_type_name(const PgQuery__TypeName *tn)
{
    if (!tn || tn->n_names == 0)
        return true; /* unknown: impure */
    const PgQuery__Node *last = tn->names[tn->n_names - 1];
    if (last->node_case != PG_QUERY__NODE__NODE_STRING)
        return true;
    return strncasecmp(last->string->sval, "reg", 3) == 0;
}

/* A call of an immutable built-in function (the table's volatility 'i'):
 * its value depends on its arguments alone. Aggregates, windows and
 * anything not in the table are not. */
static bool immutable_call(const PgQuery__FuncCall *f)
{
    if (!f->n_funcname || f->over || f->agg_star || f->agg_distinct || f->n_agg_order ||
        f->agg_filter || f->func_variadic)
        return false;
    const PgQuery__Node *last = f->funcname[f->n_funcname - 1];
    if (last->node_case != PG_QUERY__NODE__NODE_STRING)
        return false;
    if (f->n_funcname > 1) {
        const PgQuery__Node *ns = f->funcname[f->n_funcname - 2];
        if (ns->node_case != PG_QUERY__NODE__NODE_STRING ||
            strcmp(ns->string->sval, "pg_catalog") != 0)
            return false;
    }
    return rl_func_volatility(last->string->sval, f->n_args) == 'i';
}

static bool pure_relation(const PgQuery__RangeVar *rv)
{
    if (rv->catalogname && rv->catalogname[0])
        return false;
    const char *schema = rv->schemaname && rv->schemaname[0] ? rv->schemaname : NULL;
    if (schema && strcmp(schema, "pg_catalog") != 0 && strcmp(schema, "information_schema") != 0)
        return false;
    int id = rl_pgcatalog_find(schema ? schema : "pg_catalog", rv->relname);
    return id >= 0 && rl_pgcatalog_pure(id);
}

/* The walk's state (visit): a RangeVar that is not a pure relation may
 * still name a CTE of the statement; select_is_pure checks those names
 * against the CTEs once the walk is over. */
typedef struct walk_state {
    bool impure; /* or not worth keeping */
    bool catalog; /* names a pure pg_catalog relation */
    const char *ranges[64]; /* RangeVars that are not pure relations */
    size_t nranges;
    const char *ctes[64];
    size_t nctes;
} walk_state;

/* Does the ColumnRef's last field (any qualifier) name `column`? */
static bool column_ref_is(const PgQuery__ColumnRef *cr, const char *column)
{
    if (cr->n_fields == 0)
        return false;
    const PgQuery__Node *last = cr->fields[cr->n_fields - 1];
    return last->node_case == PG_QUERY__NODE__NODE_STRING &&
           strcmp(last->string->sval, column) == 0;
}

static bool is_relname_ref(const PgQuery__Node *n)
{
    return n && n->node_case == PG_QUERY__NODE__NODE_COLUMN_REF &&
           column_ref_is(n->column_ref, "relname");
}

/* relname = ... or relname IN (...), either way round. */
static bool picks_by_name(const PgQuery__AExpr *e)
{
    if (e->kind != PG_QUERY__A__EXPR__KIND__AEXPR_OP &&
        e->kind != PG_QUERY__A__EXPR__KIND__AEXPR_IN)
        return false;
    if (e->n_name != 1 || e->name[0]->node_case != PG_QUERY__NODE__NODE_STRING ||
        strcmp(e->name[0]->string->sval, "=") != 0)
        return false;
    return is_relname_ref(e->lexpr) || is_relname_ref(e->rexpr);
}

/* rl_tree_visit: -1 stops the walk at the first thing that makes the
 * answer depend on more than the catalog's relations (or not worth
 * keeping); 0 goes on. */
static int visit(void *ctx, const ProtobufCMessage *m)
{
    walk_state *w = ctx;
    const ProtobufCMessageDescriptor *d = m->descriptor;
    if (d == &pg_query__a__expr__descriptor && picks_by_name((const PgQuery__AExpr *)m)) {
        w->impure = true; /* pure, but not worth keeping: see the header */
        return -1;
    }
    if (d == &pg_query__column_ref__descriptor &&
        column_ref_is((const PgQuery__ColumnRef *)m, "ctid")) {
        w->impure = true; /* ctids are numbered per session (sql_ctid.c) */
        return -1;
    }
    if (d == &pg_query__range_var__descriptor) {
        const PgQuery__RangeVar *rv = (const PgQuery__RangeVar *)m;
        if (pure_relation(rv)) {
            w->catalog = true;
            return 0;
        }
        if ((rv->schemaname && rv->schemaname[0]) || (rv->catalogname && rv->catalogname[0]) ||
            w->nranges == 64) {
            w->impure = true;
            return -1; /* stops the walk */
        }
        w->ranges[w->nranges++] = rv->relname;
        return 0;
    }
    if (d == &pg_query__common_table_expr__descriptor) {
        const PgQuery__CommonTableExpr *cte = (const PgQuery__CommonTableExpr *)m;
        if (w->nctes == 64) {
            w->impure = true;
            return -1; /* stops the walk */
        }
        w->ctes[w->nctes++] = cte->ctename;
        return 0;
    }
    if (d == &pg_query__type_cast__descriptor &&
        reg_type_name(((const PgQuery__TypeCast *)m)->type_name)) {
        w->impure = true;
        return -1; /* stops the walk */
    }
    if (d == &pg_query__func_call__descriptor && immutable_call((const PgQuery__FuncCall *)m))
        return 0; /* its arguments are walked too */
    if (d == &pg_query__func_call__descriptor || d == &pg_query__sqlvalue_function__descriptor ||
        d == &pg_query__param_ref__descriptor || d == &pg_query__range_function__descriptor ||
        d == &pg_query__range_table_func__descriptor ||
        d == &pg_query__range_table_sample__descriptor ||
        d == &pg_query__locking_clause__descriptor || d == &pg_query__into_clause__descriptor ||
        d == &pg_query__current_of_expr__descriptor) {
        w->impure = true;
        return -1; /* stops the walk */
    }
    return 0;
}

/* Does a WHERE of st (or of its set operation's first levels) pick
 * relations by name? Looked at before the whole tree: DuckDB's reflection
 * query is its most frequent catalog statement, and its targets and joins
 * come first in the walk. */
static bool where_picks_by_name(const PgQuery__SelectStmt *st, int depth)
{
    if (!st || depth > 4)
        return false;
    walk_state w = {0};
    if (st->where_clause &&
        rl_tree_walk((const ProtobufCMessage *)st->where_clause, visit, &w) != 0 && w.impure)
        return true;
    return where_picks_by_name(st->larg, depth + 1) || where_picks_by_name(st->rarg, depth + 1);
}

static bool select_is_pure(const rl_session *s, const PgQuery__SelectStmt *st)
{
    if (s->temps || s->temp_seqs || s->temp_ns_kept || where_picks_by_name(st, 0))
        return false;
    walk_state w = {0};
    /* -1: stopped at the first impurity; -2: too deep to look at all */
    if (rl_tree_walk((const ProtobufCMessage *)st, visit, &w) != 0 || w.impure || !w.catalog)
        return false;
    for (size_t i = 0; i < w.nranges; i++) {
        bool is_cte = false;
        for (size_t j = 0; !is_cte && j < w.nctes; j++)
            is_cte = w.ctes[j] && strcmp(w.ctes[j], w.ranges[i]) == 0;
        if (!is_cte)
            return false;
    }
    return true;
}

static void put_text(rl_buf *b, const char *s, size_t n)
{
    rl_buf_put_uvarint(b, n);
    rl_buf_put(b, s, n);
}

int rl_result_cache_probe(rl_exec *x, const PgQuery__SelectStmt *st)
{
    const rl_sink *sink = x->sink;
    if (!sink || !sink->cached_result || !x->simple_query || !x->sql ||
        !select_is_pure(x->s, st))
        return 0;
    rl_buf key;
    rl_buf_init(&key, 0);
    rl_buf_put_str(&key, "rocklake result key 1");
    /* the whole query text and the statement's place in it: a shared parse
     * tree's positions are its template's (sql_parse.c), not this text's */
    put_text(&key, x->sql, strlen(x->sql));
    rl_buf_put_uvarint(&key, x->stmt_index);
    size_t nsettings = 0;
    for (const rl_setting *t = x->s->settings; t; t = t->next)
        nsettings++;
    rl_buf_put_uvarint(&key, nsettings);
    for (const rl_setting *t = x->s->settings; t; t = t->next) {
        put_text(&key, t->name, strlen(t->name));
        put_text(&key, t->value, strlen(t->value));
    }
    int rc = rl_pgcatalog_fingerprint(x, &key);
    if (rc == 0 && key.failed)
        rc = rl_exec_error(x, RL_SQLSTATE_INTERNAL_ERROR, -1, "out of memory");
    if (rc == 0) {
        rc = sink->cached_result(sink->ctx, key.data, key.len);
        if (rc < 0)
            rc = rl_exec_error(x, RL_SQLSTATE_CONNECTION_FAILURE, -1,
                               "the client connection was lost");
    }
    rl_buf_free(&key);
    return rc;
}
