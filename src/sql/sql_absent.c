/*
 * sql_absent.c — DDL on kinds of object RockLake does not keep: views,
 * materialized views, foreign tables, functions, procedures, routines,
 * aggregates, types, domains, extensions, triggers, rules, policies,
 * servers, foreign-data wrappers, statistics objects, publications,
 * subscriptions and event triggers.
 *
 * Owns: DROP of those kinds as PostgreSQL 15 answers it when no such object
 * exists (so `DROP VIEW IF EXISTS v` and its kin in a migration script run:
 * the NOTICE "... does not exist, skipping" and the command tag; without IF
 * EXISTS the error), or when the name finds something else (a table that
 * "is not a view", a built-in function or type "required by the database
 * system"); and the 0A000 of any other statement RockLake does not run,
 * naming it as PostgreSQL's command tag does ("CREATE VIEW is not supported
 * by RockLake").
 *
 * PostgreSQL looks every object of a DROP up before it drops any, so the
 * lookups' errors and NOTICEs come first, in order, and only then the first
 * object that cannot go (a built-in). The lookups read the catalogs pg_proc,
 * pg_type and pg_class list (sql_pgcatalog.c) and the session's relations
 * (sql_resolve.c).
 *
 * Invariant: nothing here writes: every DROP it answers finds nothing of its
 * kind that could be dropped.
 */
#include <assert.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "sql/sql_absent.h"
#include "sql/sql_cast.h"
#include "sql/sql_exec.h"
#include "sql/sql_func.h"
#include "sql/sql_parse.h"
#include "sql/sql_pgcatalog.h"
#include "sql/sql_relation.h"

/* ------------------------------------------------------------ the kinds */

typedef enum drop_shape {
    SHAPE_RELATION, /* a qualified relation name */
    SHAPE_ROUTINE,  /* ObjectWithArgs */
    SHAPE_TYPE,     /* TypeName */
    SHAPE_ON_TABLE, /* name ON table: a list, the table's names then its own */
    SHAPE_NAME,     /* one unqualified name */
    SHAPE_QUALIFIED /* a qualified name of a schema's object */
} drop_shape;

/* One kind: its words in PostgreSQL's texts and its command tag. */
typedef struct drop_kind {
    PgQuery__ObjectType type;
    drop_shape shape;
    const char *word; /* "view", "function", "trigger", ... */
    const char *tag;  /* "DROP VIEW" */
    char relkind;     /* SHAPE_RELATION: pg_class.relkind of the kind */
} drop_kind;

static const drop_kind kinds[] = {
    {PG_QUERY__OBJECT_TYPE__OBJECT_VIEW, SHAPE_RELATION, "view", "DROP VIEW", 'v'},
    {PG_QUERY__OBJECT_TYPE__OBJECT_MATVIEW, SHAPE_RELATION, "materialized view",
     "DROP MATERIALIZED VIEW", 'm'},
    {PG_QUERY__OBJECT_TYPE__OBJECT_FOREIGN_TABLE, SHAPE_RELATION, "foreign table",
     "DROP FOREIGN TABLE", 'f'},
    {PG_QUERY__OBJECT_TYPE__OBJECT_FUNCTION, SHAPE_ROUTINE, "function", "DROP FUNCTION", 0},
    {PG_QUERY__OBJECT_TYPE__OBJECT_PROCEDURE, SHAPE_ROUTINE, "procedure", "DROP PROCEDURE", 0},
    {PG_QUERY__OBJECT_TYPE__OBJECT_ROUTINE, SHAPE_ROUTINE, "routine", "DROP ROUTINE", 0},
    {PG_QUERY__OBJECT_TYPE__OBJECT_AGGREGATE, SHAPE_ROUTINE, "aggregate", "DROP AGGREGATE", 0},
    {PG_QUERY__OBJECT_TYPE__OBJECT_TYPE, SHAPE_TYPE, "type", "DROP TYPE", 0},
    {PG_QUERY__OBJECT_TYPE__OBJECT_DOMAIN, SHAPE_TYPE, "domain", "DROP DOMAIN", 0},
    {PG_QUERY__OBJECT_TYPE__OBJECT_TRIGGER, SHAPE_ON_TABLE, "trigger", "DROP TRIGGER", 0},
    {PG_QUERY__OBJECT_TYPE__OBJECT_RULE, SHAPE_ON_TABLE, "rule", "DROP RULE", 0},
    {PG_QUERY__OBJECT_TYPE__OBJECT_POLICY, SHAPE_ON_TABLE, "policy", "DROP POLICY", 0},
    {PG_QUERY__OBJECT_TYPE__OBJECT_EXTENSION, SHAPE_NAME, "extension", "DROP EXTENSION", 0},
    {PG_QUERY__OBJECT_TYPE__OBJECT_FOREIGN_SERVER, SHAPE_NAME, "server", "DROP SERVER", 0},
    {PG_QUERY__OBJECT_TYPE__OBJECT_FDW, SHAPE_NAME, "foreign-data wrapper",
     "DROP FOREIGN DATA WRAPPER", 0},
    {PG_QUERY__OBJECT_TYPE__OBJECT_PUBLICATION, SHAPE_NAME, "publication", "DROP PUBLICATION", 0},
    {PG_QUERY__OBJECT_TYPE__OBJECT_EVENT_TRIGGER, SHAPE_NAME, "event trigger",
     "DROP EVENT TRIGGER", 0},
    {PG_QUERY__OBJECT_TYPE__OBJECT_STATISTIC_EXT, SHAPE_QUALIFIED, "statistics object",
     "DROP STATISTICS", 0},
};

#define N(a) (sizeof(a) / sizeof((a)[0]))

static const drop_kind *kind_of(PgQuery__ObjectType type)
{
    for (size_t i = 0; i < N(kinds); i++)
        if (kinds[i].type == type)
            return &kinds[i];
    return NULL;
}

bool rl_absent_drop_kind(PgQuery__ObjectType type)
{
    return kind_of(type) != NULL;
}

/* ------------------------------------------------------------- helpers */

/* What one object's lookup found. */
typedef enum found {
    FOUND_NOTHING,   /* absent: its NOTICE was sent (IF EXISTS) */
    FOUND_BUILT_IN   /* one of PostgreSQL's own: `pinned` holds its error */
} found;

typedef struct drop_run {
    rl_exec *x;
    const drop_kind *k;
    bool missing_ok;
    /* the first built-in object met: its error, raised after the lookups */
    bool has_pinned;
    rl_error pinned;
} drop_run;

static int send_notice(rl_exec *x, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int send_notice(rl_exec *x, const char *fmt, ...)
{
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    rl_error n;
    memset(&n, 0, sizeof n);
    rl_error_set(&n, RL_SQLSTATE_SUCCESSFUL_COMPLETION, "%s", msg);
    if (x->sink && x->sink->notice)
        x->sink->notice(x->sink->ctx, &n);
    return 0;
}

/* An object that is not there: under IF EXISTS the NOTICE "<what> does not
 * exist, skipping" (0), else the error "<what> does not exist" (-1). */
static int absent(drop_run *R, const char *sqlstate, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static int absent(drop_run *R, const char *sqlstate, const char *fmt, ...)
{
    char what[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (R->missing_ok)
        return send_notice(R->x, "%s does not exist, skipping", what);
    return rl_exec_error(R->x, sqlstate, -1, "%s does not exist", what);
}

/* Remembers the first built-in object's error (a 2BP01 "required by the
 * database system" or "table t requires it", with its hint or none) for
 * after the lookups. */
static void keep_pinned(drop_run *R, const char *hint, const char *sqlstate, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
static void keep_pinned(drop_run *R, const char *hint, const char *sqlstate, const char *fmt, ...)
{
    if (R->has_pinned)
        return;
    R->has_pinned = true;
    memset(&R->pinned, 0, sizeof R->pinned);
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    rl_error_set(&R->pinned, sqlstate, "%s", msg);
    if (hint)
        rl_error_hint(&R->pinned, "%s", hint);
}

/* The names of a list of String nodes joined by '.' (NameListToString),
 * into buf[n]; false when an item is no string. */
static bool join_names(PgQuery__Node *const *items, size_t count, char *buf, size_t n)
{
    size_t off = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < count; i++) {
        const char *s = rl_node_string(items[i]);
        if (!s)
            return false;
        off += (size_t)snprintf(buf + off, off < n ? n - off : 0, "%s%s", i ? "." : "", s);
    }
    return off < n;
}

/* Does the schema of a qualified name exist? 1 yes (or unqualified), 0 no
 * (its NOTICE sent under IF EXISTS), -1 error (3F000 without IF EXISTS, or
 * a read failure). */
static int schema_there(drop_run *R, const char *schema)
{
    if (!schema)
        return 1;
    int known = strcmp(schema, "pg_temp") == 0 ? R->x->s && R->x->s->temps != NULL
                                               : rl_pgcatalog_schema_exists(R->x, schema);
    if (known != 0)
        return known;
    return absent(R, RL_SQLSTATE_INVALID_SCHEMA_NAME, "schema \"%s\"", schema);
}

/* A qualified name's parts (1..3 strings): schema (or NULL) and name; a
 * catalog part must name this database (0A000 otherwise, as
 * makeRangeVarFromNameList's callers say). */
static int split_qualified(rl_exec *x, PgQuery__Node *const *items, size_t count,
                           const char **schema, const char **name)
{
    char whole[3 * 64 + 3];
    if (count < 1 || count > 3 || !join_names(items, count, whole, sizeof whole))
        return rl_exec_error(x, RL_SQLSTATE_SYNTAX_ERROR, -1,
                             "improper qualified name (too many dotted names): %s", whole);
    *name = rl_node_string(items[count - 1]);
    *schema = count >= 2 ? rl_node_string(items[count - 2]) : NULL;
    const char *db = x->s ? x->s->eng->database : "";
    if (count == 3 && strcmp(rl_node_string(items[0]), db) != 0)
        return rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                             "cross-database references are not implemented: \"%s\"", whole);
    return 0;
}

/* A qualified name split and its schema checked: 1 go on, 0 the schema is
 * absent (its NOTICE sent under IF EXISTS), -1 error. */
static int qualified_there(drop_run *R, PgQuery__Node *const *items, size_t count,
                           const char **schema, const char **name)
{
    if (split_qualified(R->x, items, count, schema, name) < 0)
        return -1;
    return schema_there(R, *schema);
}

/* ----------------------------------------------------------- relations */

/* The relation a name finds, as RockLake's relations and pg_class see it:
 * its relkind ('r', 'v', 'S', 'i', ...), 0 when none, -1 error. */
static int relkind_of(rl_exec *x, const char *schema, const char *name)
{
    rl_relation rel;
    rl_error saved = *x->err;
    if (rl_relation_lookup(x, schema, name, &rel) >= 0 && rel.oid != 0) {
        switch (rel.kind) {
        case RL_REL_SEQUENCE: return 'S';
        case RL_REL_VIRTUAL: {
            char k = rl_pgcatalog_relkind(rel.oid);
            return k ? k : 'v';
        }
        default: return 'r';
        }
    }
    if (strcmp(x->err->sqlstate, RL_SQLSTATE_UNDEFINED_TABLE) != 0 && x->err->sqlstate[0] &&
        strcmp(x->err->sqlstate, saved.sqlstate) != 0)
        return -1; /* a read failed */
    *x->err = saved;
    uint32_t idx;
    int r = rl_pgcatalog_index_oid(x, schema, name, &idx);
    return r < 0 ? -1 : r == 1 ? 'i' : 0;
}

/* DropErrorMsgWrongType's hint for what the name found. */
static const char *drop_hint(char relkind)
{
    switch (relkind) {
    case 'r': return "Use DROP TABLE to remove a table.";
    case 'v': return "Use DROP VIEW to remove a view.";
    case 'm': return "Use DROP MATERIALIZED VIEW to remove a materialized view.";
    case 'f': return "Use DROP FOREIGN TABLE to remove a foreign table.";
    case 'S': return "Use DROP SEQUENCE to remove a sequence.";
    case 'i': return "Use DROP INDEX to remove an index.";
    default: return NULL;
    }
}

static int drop_relation(drop_run *R, const PgQuery__Node *obj)
{
    rl_exec *x = R->x;
    if (obj->node_case != PG_QUERY__NODE__NODE_LIST)
        return rl_exec_error(x, RL_SQLSTATE_SYNTAX_ERROR, -1, "improper qualified name");
    const char *schema, *name;
    int there = qualified_there(R, obj->list->items, obj->list->n_items, &schema, &name);
    if (there <= 0)
        return there;
    int relkind = relkind_of(x, schema, name);
    if (relkind < 0)
        return -1;
    if (relkind == R->k->relkind) {
        /* one of PostgreSQL's own views (pg_tables, information_schema's) */
        keep_pinned(R, NULL, RL_SQLSTATE_DEPENDENT_OBJECTS_STILL_EXIST,
                    "cannot drop %s %s because it is required by the database system",
                    R->k->word, name);
        return 0;
    }
    if (relkind != 0) {
        rl_exec_error(x, RL_SQLSTATE_WRONG_OBJECT_TYPE, -1, "\"%s\" is not a %s", name,
                      R->k->word);
        const char *hint = drop_hint((char)relkind);
        if (hint)
            rl_error_hint(x->err, "%s", hint);
        return -1;
    }
    /* DropErrorMsgNonExistent: a foreign table's is 42704 */
    return absent(R, R->k->relkind == 'f' ? RL_SQLSTATE_UNDEFINED_OBJECT : RL_SQLSTATE_UNDEFINED_TABLE,
                  "%s \"%s\"", R->k->word, name);
}

/* --------------------------------------------------------------- types */

/* A TypeName as written (TypeNameToString: its names joined by '.', "[]"
 * for an array; the modifiers left out) into buf[n]. */
static bool type_name_text(const PgQuery__TypeName *tn, char *buf, size_t n)
{
    if (!join_names(tn->names, tn->n_names, buf, n))
        return false;
    size_t off = strlen(buf);
    if (tn->n_array_bounds)
        snprintf(buf + off, n > off ? n - off : 0, "[]");
    return true;
}

/* The same name as regtype's input reads it, into buf[n]: a TypeName
 * holds pg_type names (the grammar turned `int` into pg_catalog.int4), so
 * every part is quoted (`"char"` is not character), and an array is its
 * array type's name, the element's with '_' before it (int4[] is _int4). A
 * doubled quote inside a name is left out: no type has one. */
static bool type_lookup_text(const PgQuery__TypeName *tn, char *buf, size_t n)
{
    size_t off = 0;
    buf[0] = '\0';
    for (size_t i = 0; i < tn->n_names; i++) {
        const char *s = rl_node_string(tn->names[i]);
        if (!s || strchr(s, '"'))
            return false;
        bool array = i + 1 == tn->n_names && tn->n_array_bounds;
        off += (size_t)snprintf(buf + off, off < n ? n - off : 0, "%s\"%s%s\"", i ? "." : "",
                                array ? "_" : "", s);
    }
    return off < n;
}

/* The oid of the type a TypeName names: 1, 0 when it names none, -1 error
 * (a malformed name, a read failure). */
static int type_oid_of(rl_exec *x, const PgQuery__TypeName *tn, uint32_t *oid)
{
    char text[512];
    if (!type_lookup_text(tn, text, sizeof text))
        return rl_exec_error(x, RL_SQLSTATE_SYNTAX_ERROR, -1, "improper type name");
    int r = rl_pgcatalog_reg_oid(x, RL_OID_REGTYPE, text, strlen(text), oid, -1);
    if (r == -4)
        return rl_exec_error(x, RL_SQLSTATE_INVALID_NAME, -1, "invalid name syntax");
    return r < 0 ? -1 : r;
}

/* A type name's schema (the part before the last, NULL when unqualified). */
static const char *type_schema(const PgQuery__TypeName *tn)
{
    return tn->n_names >= 2 ? rl_node_string(tn->names[tn->n_names - 2]) : NULL;
}

static int drop_type(drop_run *R, const PgQuery__Node *obj)
{
    rl_exec *x = R->x;
    if (obj->node_case != PG_QUERY__NODE__NODE_TYPE_NAME)
        return rl_exec_error(x, RL_SQLSTATE_SYNTAX_ERROR, -1, "improper type name");
    const PgQuery__TypeName *tn = obj->type_name;
    char written[512];
    if (!type_name_text(tn, written, sizeof written))
        return rl_exec_error(x, RL_SQLSTATE_SYNTAX_ERROR, -1, "improper type name");
    int there = schema_there(R, type_schema(tn));
    if (there <= 0)
        return there;
    uint32_t oid = 0;
    int r = type_oid_of(x, tn, &oid);
    if (r < 0)
        return -1;
    if (r == 0)
        return absent(R, RL_SQLSTATE_UNDEFINED_OBJECT, "type \"%s\"", written);
    if (R->k->type == PG_QUERY__OBJECT_TYPE__OBJECT_DOMAIN)
        return rl_exec_error(x, RL_SQLSTATE_WRONG_OBJECT_TYPE, -1, "\"%s\" is not a domain",
                             written);
    char shown[256];
    if (rl_pgcatalog_reg_name(x, RL_OID_REGTYPE, oid, shown, sizeof shown) < 0)
        return -1;
    if (oid < 16384) {
        keep_pinned(R, NULL, RL_SQLSTATE_DEPENDENT_OBJECTS_STILL_EXIST,
                    "cannot drop type %s because it is required by the database system", shown);
        return 0;
    }
    /* a table's row type, which the table holds, or its array type, which
     * the row type holds */
    const char *name = rl_node_string(tn->names[tn->n_names - 1]);
    bool array = tn->n_array_bounds || (name && name[0] == '_');
    const char *holder = name && name[0] == '_' && !tn->n_array_bounds ? name + 1 : name;
    char hint[128];
    snprintf(hint, sizeof hint, "You can drop %s %s instead.", array ? "type" : "table", holder);
    keep_pinned(R, hint, RL_SQLSTATE_DEPENDENT_OBJECTS_STILL_EXIST,
                "cannot drop type %s because %s %s requires it", shown, array ? "type" : "table",
                holder);
    return 0;
}

/* ------------------------------------------------------------ routines */

/* "name(arg,arg)" as PostgreSQL's NOTICE of an absent routine writes it:
 * the name and each argument's type name as written (NameListToString,
 * TypeNameListToString), no blanks; an aggregate's (*) as (). */
static void routine_written(const PgQuery__ObjectWithArgs *o, char *buf, size_t n)
{
    char name[256];
    join_names(o->objname, o->n_objname, name, sizeof name);
    size_t off = (size_t)snprintf(buf, n, "%s(", name);
    for (size_t i = 0; i < o->n_objargs && off < n; i++) {
        char t[256] = "?";
        if (o->objargs[i]->node_case == PG_QUERY__NODE__NODE_TYPE_NAME)
            type_name_text(o->objargs[i]->type_name, t, sizeof t);
        off += (size_t)snprintf(buf + off, n - off, "%s%s", i ? "," : "", t);
    }
    if (off < n)
        snprintf(buf + off, n - off, ")");
}

/* "name(type, type)" as an error names a routine (func_signature_string:
 * format_type's names, ", " between), or "name(*)" for an aggregate of *. */
static void routine_signature(rl_exec *x, const PgQuery__ObjectWithArgs *o, const uint32_t *args,
                              bool star, char *buf, size_t n)
{
    char name[256];
    join_names(o->objname, o->n_objname, name, sizeof name);
    size_t off = (size_t)snprintf(buf, n, "%s(%s", name, star ? "*" : "");
    for (size_t i = 0; !star && i < o->n_objargs && off < n; i++) {
        char t[128];
        rl_pgcatalog_format_type(x, args[i], -1, t, sizeof t);
        off += (size_t)snprintf(buf + off, n - off, "%s%s", i ? ", " : "", t);
    }
    if (off < n)
        snprintf(buf + off, n - off, ")");
}

/* A built-in routine found: what DROP <kind> of it answers. */
static int routine_built_in(drop_run *R, const PgQuery__ObjectWithArgs *o, uint32_t oid,
                            char prokind)
{
    rl_exec *x = R->x;
    char shown[512];
    if (rl_pgcatalog_reg_name(x, RL_OID_REGPROCEDURE, oid, shown, sizeof shown) < 0)
        return -1;
    PgQuery__ObjectType type = R->k->type;
    if (type == PG_QUERY__OBJECT_TYPE__OBJECT_PROCEDURE)
        return rl_exec_error(x, RL_SQLSTATE_WRONG_OBJECT_TYPE, -1, "%s is not a procedure", shown);
    if (type == PG_QUERY__OBJECT_TYPE__OBJECT_AGGREGATE && prokind != 'a')
        return rl_exec_error(x, RL_SQLSTATE_WRONG_OBJECT_TYPE, -1,
                             "function %s is not an aggregate", shown);
    if (type == PG_QUERY__OBJECT_TYPE__OBJECT_FUNCTION && prokind == 'a') {
        rl_exec_error(x, RL_SQLSTATE_WRONG_OBJECT_TYPE, -1, "\"%s\" is an aggregate function",
                      rl_node_string(o->objname[o->n_objname - 1]));
        rl_error_hint(x->err, "Use DROP AGGREGATE to drop aggregate functions.");
        return -1;
    }
    keep_pinned(R, NULL, RL_SQLSTATE_DEPENDENT_OBJECTS_STILL_EXIST,
                "cannot drop function %s because it is required by the database system", shown);
    return 0;
}

static int drop_routine(drop_run *R, const PgQuery__Node *obj)
{
    rl_exec *x = R->x;
    if (obj->node_case != PG_QUERY__NODE__NODE_OBJECT_WITH_ARGS)
        return rl_exec_error(x, RL_SQLSTATE_SYNTAX_ERROR, -1, "improper function name");
    const PgQuery__ObjectWithArgs *o = obj->object_with_args;
    const char *schema, *name;
    int there = qualified_there(R, o->objname, o->n_objname, &schema, &name);
    if (there <= 0)
        return there;
    /* the argument types, each of which must exist */
    uint32_t args[RL_FUNC_MAX_ARGS];
    size_t nargs = o->n_objargs;
    bool star = R->k->type == PG_QUERY__OBJECT_TYPE__OBJECT_AGGREGATE && nargs == 0;
    for (size_t i = 0; i < nargs; i++) {
        const PgQuery__Node *a = o->objargs[i];
        if (a->node_case != PG_QUERY__NODE__NODE_TYPE_NAME)
            return rl_exec_error(x, RL_SQLSTATE_SYNTAX_ERROR, -1, "improper argument type");
        uint32_t t = 0;
        int r = i < N(args) ? type_oid_of(x, a->type_name, &t) : 0;
        if (r < 0)
            return -1;
        if (i < N(args))
            args[i] = t;
        if (r == 0 && i < N(args)) {
            char written[512];
            type_name_text(a->type_name, written, sizeof written);
            return absent(R, RL_SQLSTATE_UNDEFINED_OBJECT, "type \"%s\"", written);
        }
    }
    /* RockLake's routines are PostgreSQL's built-ins, in pg_catalog */
    bool builtin_schema = !schema || strcmp(schema, "pg_catalog") == 0;
    uint32_t oid = 0;
    char prokind = 0;
    int hits = 0;
    if (builtin_schema && nargs <= N(args))
        hits = rl_pgcatalog_find_proc(name, o->args_unspecified ? -1 : (int)nargs, args, &oid,
                                      &prokind);
    if (hits == 2 && o->args_unspecified) {
        rl_exec_error(x, RL_SQLSTATE_AMBIGUOUS_FUNCTION, -1, "function name \"%s\" is not unique",
                      name);
        rl_error_hint(x->err, "Specify the argument list to select the function unambiguously.");
        return -1;
    }
    if (hits)
        return routine_built_in(R, o, oid, prokind);
    if (R->missing_ok) {
        char written[512];
        routine_written(o, written, sizeof written);
        return send_notice(x, "%s %s does not exist, skipping", R->k->word, written);
    }
    /* a routine's errors say "function" */
    const char *word = R->k->type == PG_QUERY__OBJECT_TYPE__OBJECT_ROUTINE ? "function" : R->k->word;
    if (o->args_unspecified) {
        char whole[256];
        join_names(o->objname, o->n_objname, whole, sizeof whole);
        return rl_exec_error(x, RL_SQLSTATE_UNDEFINED_FUNCTION, -1,
                             "could not find a %s named \"%s\"", word, whole);
    }
    char sig[512];
    routine_signature(x, o, args, star, sig, sizeof sig);
    return rl_exec_error(x, RL_SQLSTATE_UNDEFINED_FUNCTION, -1, "%s %s does not exist", word, sig);
}

/* ------------------------------------------------------- on a relation */

static int drop_on_table(drop_run *R, const PgQuery__Node *obj)
{
    rl_exec *x = R->x;
    if (obj->node_case != PG_QUERY__NODE__NODE_LIST || obj->list->n_items < 2)
        return rl_exec_error(x, RL_SQLSTATE_SYNTAX_ERROR, -1, "improper qualified name");
    const PgQuery__List *l = obj->list;
    const char *own = rl_node_string(l->items[l->n_items - 1]);
    char table_written[3 * 64 + 3];
    join_names(l->items, l->n_items - 1, table_written, sizeof table_written);
    const char *schema, *table;
    int there = qualified_there(R, l->items, l->n_items - 1, &schema, &table);
    if (there <= 0)
        return there;
    int relkind = relkind_of(x, schema, table);
    if (relkind < 0)
        return -1;
    if (relkind == 0)
        return absent(R, RL_SQLSTATE_UNDEFINED_TABLE, "relation \"%s\"", table_written);
    if (relkind == 'i')
        return rl_exec_error(x, RL_SQLSTATE_WRONG_OBJECT_TYPE, -1, "\"%s\" is an index", table);
    if (R->missing_ok)
        return send_notice(x, "%s \"%s\" for relation \"%s\" does not exist, skipping",
                           R->k->word, own, table);
    /* a rule's error says "relation", a trigger's and a policy's "table" */
    bool rule = R->k->type == PG_QUERY__OBJECT_TYPE__OBJECT_RULE;
    return rl_exec_error(x, RL_SQLSTATE_UNDEFINED_OBJECT, -1, "%s \"%s\" for %s \"%s\" does not exist",
                         R->k->word, own, rule ? "relation" : "table", table);
}

/* ------------------------------------------------------ by a name alone */

static int drop_named(drop_run *R, const PgQuery__Node *obj)
{
    rl_exec *x = R->x;
    const char *schema = NULL, *name = NULL;
    char written[3 * 64 + 3];
    if (R->k->shape == SHAPE_QUALIFIED) {
        if (obj->node_case != PG_QUERY__NODE__NODE_LIST)
            return rl_exec_error(x, RL_SQLSTATE_SYNTAX_ERROR, -1, "improper qualified name");
        join_names(obj->list->items, obj->list->n_items, written, sizeof written);
        int there = qualified_there(R, obj->list->items, obj->list->n_items, &schema, &name);
        if (there <= 0)
            return there;
    } else {
        name = rl_node_string(obj);
        if (!name)
            return rl_exec_error(x, RL_SQLSTATE_SYNTAX_ERROR, -1, "improper name");
        snprintf(written, sizeof written, "%s", name);
    }
    /* pg_extension lists plpgsql, as a fresh PostgreSQL database has it */
    if (R->k->type == PG_QUERY__OBJECT_TYPE__OBJECT_EXTENSION && strcmp(name, "plpgsql") == 0) {
        keep_pinned(R, NULL, RL_SQLSTATE_DEPENDENT_OBJECTS_STILL_EXIST,
                    "cannot drop extension plpgsql because it is required by the database system");
        return 0;
    }
    return absent(R, RL_SQLSTATE_UNDEFINED_OBJECT, "%s \"%s\"", R->k->word, written);
}

/* ---------------------------------------------------------------- DROP */

int rl_absent_drop(rl_exec *x, const PgQuery__DropStmt *st)
{
    const drop_kind *k = kind_of(st->remove_type);
    assert(k); /* callers ask rl_absent_drop_kind first */
    drop_run R = {.x = x, .k = k, .missing_ok = st->missing_ok};
    for (size_t i = 0; i < st->n_objects; i++) {
        const PgQuery__Node *obj = st->objects[i];
        int rc;
        switch (k->shape) {
        case SHAPE_RELATION: rc = drop_relation(&R, obj); break;
        case SHAPE_ROUTINE: rc = drop_routine(&R, obj); break;
        case SHAPE_TYPE: rc = drop_type(&R, obj); break;
        case SHAPE_ON_TABLE: rc = drop_on_table(&R, obj); break;
        default: rc = drop_named(&R, obj); break;
        }
        if (rc < 0)
            return -1;
    }
    if (R.has_pinned) {
        *x->err = R.pinned;
        return -1;
    }
    return rl_send_complete(x, k->tag);
}

int rl_absent_drop_subscription(rl_exec *x, const PgQuery__DropSubscriptionStmt *st)
{
    if (!st->missing_ok)
        return rl_exec_error(x, RL_SQLSTATE_UNDEFINED_OBJECT, -1,
                             "subscription \"%s\" does not exist", st->subname);
    send_notice(x, "subscription \"%s\" does not exist, skipping", st->subname);
    return rl_send_complete(x, "DROP SUBSCRIPTION");
}

/* ------------------------------------------- statements not run at all */

const char *rl_absent_statement_name(const PgQuery__Node *n)
{
    switch (n->node_case) {
    case PG_QUERY__NODE__NODE_VIEW_STMT: return "CREATE VIEW";
    case PG_QUERY__NODE__NODE_CREATE_FUNCTION_STMT:
        return n->create_function_stmt->is_procedure ? "CREATE PROCEDURE" : "CREATE FUNCTION";
    case PG_QUERY__NODE__NODE_ALTER_FUNCTION_STMT: return "ALTER FUNCTION";
    case PG_QUERY__NODE__NODE_COMPOSITE_TYPE_STMT:
    case PG_QUERY__NODE__NODE_CREATE_ENUM_STMT:
    case PG_QUERY__NODE__NODE_CREATE_RANGE_STMT: return "CREATE TYPE";
    case PG_QUERY__NODE__NODE_ALTER_ENUM_STMT: return "ALTER TYPE";
    case PG_QUERY__NODE__NODE_CREATE_DOMAIN_STMT: return "CREATE DOMAIN";
    case PG_QUERY__NODE__NODE_CREATE_EXTENSION_STMT: return "CREATE EXTENSION";
    case PG_QUERY__NODE__NODE_ALTER_EXTENSION_STMT: return "ALTER EXTENSION";
    case PG_QUERY__NODE__NODE_DO_STMT: return "DO";
    case PG_QUERY__NODE__NODE_CALL_STMT: return "CALL";
    case PG_QUERY__NODE__NODE_REFRESH_MAT_VIEW_STMT: return "REFRESH MATERIALIZED VIEW";
    case PG_QUERY__NODE__NODE_CREATE_TRIG_STMT: return "CREATE TRIGGER";
    case PG_QUERY__NODE__NODE_CREATE_EVENT_TRIG_STMT: return "CREATE EVENT TRIGGER";
    case PG_QUERY__NODE__NODE_RULE_STMT: return "CREATE RULE";
    case PG_QUERY__NODE__NODE_CREATE_POLICY_STMT: return "CREATE POLICY";
    case PG_QUERY__NODE__NODE_ALTER_POLICY_STMT: return "ALTER POLICY";
    case PG_QUERY__NODE__NODE_ALTER_SYSTEM_STMT: return "ALTER SYSTEM";
    case PG_QUERY__NODE__NODE_REINDEX_STMT: return "REINDEX";
    case PG_QUERY__NODE__NODE_CLUSTER_STMT: return "CLUSTER";
    case PG_QUERY__NODE__NODE_CREATEDB_STMT: return "CREATE DATABASE";
    case PG_QUERY__NODE__NODE_DROPDB_STMT: return "DROP DATABASE";
    case PG_QUERY__NODE__NODE_ALTER_DATABASE_STMT:
    case PG_QUERY__NODE__NODE_ALTER_DATABASE_SET_STMT: return "ALTER DATABASE";
    case PG_QUERY__NODE__NODE_CREATE_STATS_STMT: return "CREATE STATISTICS";
    case PG_QUERY__NODE__NODE_DEFINE_STMT:
        switch (n->define_stmt->kind) {
        case PG_QUERY__OBJECT_TYPE__OBJECT_AGGREGATE: return "CREATE AGGREGATE";
        case PG_QUERY__OBJECT_TYPE__OBJECT_OPERATOR: return "CREATE OPERATOR";
        case PG_QUERY__OBJECT_TYPE__OBJECT_COLLATION: return "CREATE COLLATION";
        case PG_QUERY__OBJECT_TYPE__OBJECT_TYPE: return "CREATE TYPE";
        default: return "CREATE TEXT SEARCH object";
        }
    case PG_QUERY__NODE__NODE_CREATE_CAST_STMT: return "CREATE CAST";
    case PG_QUERY__NODE__NODE_LOAD_STMT: return "LOAD";
    case PG_QUERY__NODE__NODE_SEC_LABEL_STMT: return "SECURITY LABEL";
    case PG_QUERY__NODE__NODE_ALTER_DEFAULT_PRIVILEGES_STMT: return "ALTER DEFAULT PRIVILEGES";
    case PG_QUERY__NODE__NODE_CREATE_TABLE_SPACE_STMT: return "CREATE TABLESPACE";
    case PG_QUERY__NODE__NODE_DROP_TABLE_SPACE_STMT: return "DROP TABLESPACE";
    case PG_QUERY__NODE__NODE_IMPORT_FOREIGN_SCHEMA_STMT: return "IMPORT FOREIGN SCHEMA";
    case PG_QUERY__NODE__NODE_CREATE_FOREIGN_SERVER_STMT: return "CREATE SERVER";
    case PG_QUERY__NODE__NODE_CREATE_FDW_STMT: return "CREATE FOREIGN DATA WRAPPER";
    case PG_QUERY__NODE__NODE_CREATE_FOREIGN_TABLE_STMT: return "CREATE FOREIGN TABLE";
    case PG_QUERY__NODE__NODE_CREATE_USER_MAPPING_STMT: return "CREATE USER MAPPING";
    case PG_QUERY__NODE__NODE_CREATE_PUBLICATION_STMT: return "CREATE PUBLICATION";
    case PG_QUERY__NODE__NODE_CREATE_SUBSCRIPTION_STMT: return "CREATE SUBSCRIPTION";
    case PG_QUERY__NODE__NODE_CREATE_CONVERSION_STMT: return "CREATE CONVERSION";
    case PG_QUERY__NODE__NODE_CREATE_OP_CLASS_STMT: return "CREATE OPERATOR CLASS";
    case PG_QUERY__NODE__NODE_CREATE_OP_FAMILY_STMT: return "CREATE OPERATOR FAMILY";
    case PG_QUERY__NODE__NODE_CREATE_TRANSFORM_STMT: return "CREATE TRANSFORM";
    case PG_QUERY__NODE__NODE_CREATE_AM_STMT: return "CREATE ACCESS METHOD";
    case PG_QUERY__NODE__NODE_CREATE_PLANG_STMT: return "CREATE LANGUAGE";
    case PG_QUERY__NODE__NODE_DROP_OWNED_STMT: return "DROP OWNED";
    case PG_QUERY__NODE__NODE_REASSIGN_OWNED_STMT: return "REASSIGN OWNED";
    case PG_QUERY__NODE__NODE_ALTER_OWNER_STMT: return "ALTER ... OWNER TO";
    case PG_QUERY__NODE__NODE_ALTER_OBJECT_SCHEMA_STMT: return "ALTER ... SET SCHEMA";
    case PG_QUERY__NODE__NODE_ALTER_TSDICTIONARY_STMT:
    case PG_QUERY__NODE__NODE_ALTER_TSCONFIGURATION_STMT: return "ALTER TEXT SEARCH object";
    case PG_QUERY__NODE__NODE_CREATE_TABLE_AS_STMT:
        return n->create_table_as_stmt->objtype == PG_QUERY__OBJECT_TYPE__OBJECT_MATVIEW
                   ? "CREATE MATERIALIZED VIEW"
                   : "CREATE TABLE AS";
    default: return NULL;
    }
}
