/*
 * sql_lakes.c — which lake a statement runs on, and the session's
 * transaction on each lake.
 *
 * PostgreSQL keeps any number of DuckLake catalogs in one database, one per
 * metadata schema. RockLake's catalog holds one: a database's first DuckLake
 * schema lives in its own store, and every further one in a store of its own
 * that the wire layer opens (rl_schema_lakes). This file owns the mapping of
 * a statement onto one of them:
 *  - the schemas of the relations the statement names (every RangeVar of its
 *    parse tree) select the lake; pg_catalog and information_schema belong
 *    to every lake, and a statement without schema-qualified relations runs
 *    on the database's own lake (its pg_catalog lists every lake's tables,
 *    sql_pgcatalog.c);
 *  - CREATE TABLE of a DuckLake fixed table in a schema other than the one
 *    that already holds the database's DuckLake tables creates that
 *    schema's store, with the schema, and runs there;
 *  - a statement naming relations of two lakes is refused (0A000).
 * The session keeps one catalog transaction per lake it touched
 * (s->lakes); sql.c commits and frees them together.
 *
 * Invariants: s->lakes[0] is the session's home engine; s->eng/s->txn are
 * lakes[s->cur] except that the slot's txn is stale until rl_lakes_save;
 * a database without further schemas walks no statement but CREATE TABLE.
 */
#include <stdio.h>
#include <string.h>

#include "sql/sql_exec.h"
#include "sql/sql_lakes.h"
#include "sql/sql_parse.h"
#include "base/stack.h"

#define MAX_NAMED_SCHEMAS 8

typedef struct named_schemas {
    const char *names[MAX_NAMED_SCHEMAS];
    size_t n;
    bool overflow;
} named_schemas;

static bool schema_of_every_lake(const char *schema)
{
    return strcmp(schema, "pg_catalog") == 0 || strcmp(schema, "information_schema") == 0 ||
           strncmp(schema, "pg_temp", 7) == 0;
}

static void note_schema(named_schemas *ns, const char *schema)
{
    if (!schema || !schema[0] || schema_of_every_lake(schema))
        return;
    for (size_t i = 0; i < ns->n; i++)
        if (strcmp(ns->names[i], schema) == 0)
            return;
    if (ns->n == MAX_NAMED_SCHEMAS) {
        ns->overflow = true;
        return;
    }
    ns->names[ns->n++] = schema;
}

static int note_relation(void *ctx, const ProtobufCMessage *m)
{
    if (m->descriptor != &pg_query__range_var__descriptor)
        return 0;
    note_schema(ctx, ((const PgQuery__RangeVar *)m)->schemaname);
    return 1;
}

/* Every RangeVar of the statement (rl_tree_walk, so that no statement kind
 * -- subqueries, CTEs, COPY, DDL -- is missed). -1 with 54001 if the tree
 * nests deeper than the stack allows: a walk cut short could miss a schema
 * and route the statement to the wrong lake. */
static int walk_relations(rl_exec *x, const ProtobufCMessage *m, named_schemas *ns)
{
    return rl_tree_walk(m, note_relation, ns) == -2 ? rl_stack_depth_error(x->err) : 0;
}

void rl_lakes_save(rl_session *s)
{
    s->lakes[s->cur].txn = s->txn;
}

bool rl_lakes_any_txn(rl_session *s)
{
    rl_lakes_save(s);
    for (size_t i = 0; i < s->nlakes; i++)
        if (s->lakes[i].txn)
            return true;
    return false;
}

/* Make `eng` the current engine, with its slot's transaction. */
static int use_lake(rl_exec *x, rl_engine *eng)
{
    rl_session *s = x->s;
    if (s->eng == eng)
        return 0;
    rl_lakes_save(s);
    size_t i = 0;
    while (i < s->nlakes && s->lakes[i].eng != eng)
        i++;
    if (i == s->nlakes) {
        if (s->nlakes == RL_SESSION_LAKES)
            return rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                                 "a transaction can use at most %d DuckLake metadata schemas",
                                 RL_SESSION_LAKES);
        s->lakes[s->nlakes++] = (rl_session_lake){.eng = eng};
    }
    s->cur = i;
    s->eng = eng;
    s->txn = s->lakes[i].txn;
    return 0;
}

/* CREATE TABLE schema.ducklake_<fixed>: a further DuckLake catalog when the
 * home lake's DuckLake tables are in another schema. Returns the engine to
 * run on (home, or the new schema's), NULL with x->err on failure. */
static rl_engine *lake_for_new_fixed_table(rl_exec *x, rl_engine *home,
                                           const PgQuery__CreateStmt *cs)
{
    /* an unqualified name is created where the search path puts it:
     * public, as sql_ddl.c creates it (ducklake-sdk creates its tables so) */
    const char *schema = cs->relation->schemaname && cs->relation->schemaname[0]
                             ? cs->relation->schemaname
                             : "public";
    const rl_table_desc *d = rl_desc_by_name(cs->relation->relname, RL_FMT_LATEST);
    if (!d || d->internal)
        return home;
    if (use_lake(x, home) < 0)
        return NULL;
    rl_txn *t = rl_exec_txn(x);
    char holder[128];
    if (!t || rl_txn_fixed_schema(t, holder, sizeof holder, x->err) < 0)
        return NULL;
    if (!holder[0] || strcmp(holder, schema) == 0)
        return home;
    rl_engine *e = home->schema_lakes.find(home->schema_lakes.ctx, schema, true, x->err);
    if (!e || use_lake(x, e) < 0)
        return NULL;
    /* the new store has the schema itself, as the home lake has it */
    rl_txn *nt = rl_exec_txn(x);
    if (!nt || rl_txn_create_schema(nt, schema, true, x->err) < 0)
        return NULL;
    return e;
}

int rl_lakes_route(rl_exec *x, const PgQuery__Node *stmt)
{
    rl_session *s = x->s;
    rl_engine *home = s->lakes[0].eng;
    if (!home->schema_lakes.find)
        return 0;
    bool creates = stmt->node_case == PG_QUERY__NODE__NODE_CREATE_STMT;
    /* nothing to route to: skip the walk (the hot path of every DuckLake
     * statement in a database with one metadata schema) */
    if (!creates && home->schema_lakes.any && !home->schema_lakes.any(home->schema_lakes.ctx))
        return use_lake(x, home);
    named_schemas ns = {0};
    if (walk_relations(x, (const ProtobufCMessage *)stmt, &ns) < 0)
        return -1;
    rl_engine *target = home;
    for (size_t i = 0; i < ns.n; i++) {
        rl_error_clear(x->err);
        rl_engine *e = home->schema_lakes.find(home->schema_lakes.ctx, ns.names[i], false, x->err);
        if (!e && x->err->sqlstate[0])
            return -1;
        if (!e)
            e = home;
        if (i > 0 && e != target)
            return rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                                 "a statement can use the tables of one DuckLake metadata "
                                 "schema at a time: \"%s\" and \"%s\" are separate RockLake "
                                 "catalogs",
                                 ns.names[0], ns.names[i]);
        target = e;
    }
    if (target == home && creates && stmt->create_stmt->relation) {
        target = lake_for_new_fixed_table(x, home, stmt->create_stmt);
        if (!target)
            return -1;
    }
    return use_lake(x, target);
}

typedef struct each_other_ctx {
    rl_exec *x;
    rl_engine *skip;
    int (*fn)(void *ctx, rl_txn *t, rl_format fmt);
    void *ctx;
} each_other_ctx;

static int visit_lake(rl_exec *x, rl_engine *eng, each_other_ctx *c)
{
    if (eng == c->skip)
        return 0;
    rl_session *s = x->s;
    rl_engine *was = s->eng;
    if (use_lake(x, eng) < 0)
        return -1;
    rl_txn *t = rl_exec_txn(x);
    int rc = t ? c->fn(c->ctx, t, rl_txn_format(t)) : -1;
    if (use_lake(x, was) < 0)
        return -1;
    return rc;
}

static int visit_schema_lake(void *ctx, rl_engine *eng)
{
    each_other_ctx *c = ctx;
    return visit_lake(c->x, eng, c);
}

int rl_lakes_each_other(rl_exec *x, int (*fn)(void *ctx, rl_txn *t, rl_format fmt), void *ctx)
{
    rl_session *s = x->s;
    rl_engine *home = s->lakes[0].eng;
    if (!home->schema_lakes.each)
        return 0;
    each_other_ctx c = {x, s->eng, fn, ctx};
    int rc = visit_lake(x, home, &c);
    if (rc == 0)
        rc = home->schema_lakes.each(home->schema_lakes.ctx, visit_schema_lake, &c);
    return rc;
}
