/*
 * sql_pgcatalog.c — pg_catalog and information_schema relations, generated
 * from the table descriptors and the catalog's name registry.
 *
 * Owns: the virtual relations DuckDB's postgres extension reads during
 * catalog discovery (pg_namespace, pg_class, pg_attribute, pg_type,
 * pg_constraint, pg_description, pg_enum, pg_indexes, pg_settings, pg_tables,
 * information_schema.tables), with PostgreSQL 15's column names and types,
 * and the pseudo-oids that tie them together.
 *
 * Invariants:
 *  - rows reflect the catalog as the current transaction sees it (a table
 *    created a moment ago in the same transaction is listed);
 *  - oids are pure functions of names, so they agree between pg_class,
 *    pg_attribute, pg_constraint, pg_type, RowDescription and to_regclass,
 *    and across restarts. Ranges never overlap: namespaces < 2,000,000 <=
 *    relations < 1,002,000,000 <= row types < 2,002,000,000 <= constraints;
 *  - relpages is always 0, so clients never plan parallel ctid-range scans;
 *  - namespaces are those of a fresh PostgreSQL 15 database (pg_catalog 11,
 *    pg_toast 99, public 2200, information_schema 13207) plus created ones.
 * Only stored (non-temporary) tables are listed; the catalog views do not
 * list themselves.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sql_int.h"

#define NS_PG_CATALOG 11u
#define NS_PG_TOAST 99u
#define NS_PUBLIC 2200u
#define NS_INFORMATION_SCHEMA 13207u
#define OWNER_OID 10u         /* the bootstrap superuser, as in a fresh database */
#define BTREE_AM_OID 403u
#define HEAP_AM_OID 2u
#define DEFAULT_COLLATION 100u
#define REL_OID_BASE 2000000u
#define REL_OID_SPAN 1000000000u
#define ROWTYPE_OID_OFFSET 1000000000u
#define CONSTRAINT_OID_OFFSET 2000000000u

/* ============================================================ definitions */

typedef struct vcol {
    const char *name;
    uint32_t oid;
} vcol;

typedef struct gen_ctx gen_ctx;

typedef struct vrel {
    const char *schema;
    const char *name;
    uint32_t oid; /* PostgreSQL 15's oid of the catalog relation or view */
    const vcol *cols;
    size_t ncols;
    int (*gen)(gen_ctx *g);
} vrel;

#define N(a) (sizeof(a) / sizeof((a)[0]))

static const vcol namespace_cols[] = {
    {"oid", RL_OID_OID}, {"nspname", RL_OID_NAME}, {"nspowner", RL_OID_OID}};

static const vcol class_cols[] = {
    {"oid", RL_OID_OID},           {"relname", RL_OID_NAME},
    {"relnamespace", RL_OID_OID},  {"reltype", RL_OID_OID},
    {"reloftype", RL_OID_OID},     {"relowner", RL_OID_OID},
    {"relam", RL_OID_OID},         {"relfilenode", RL_OID_OID},
    {"reltablespace", RL_OID_OID}, {"relpages", RL_OID_INT4},
    {"reltuples", RL_OID_FLOAT4},  {"relallvisible", RL_OID_INT4},
    {"reltoastrelid", RL_OID_OID}, {"relhasindex", RL_OID_BOOL},
    {"relisshared", RL_OID_BOOL},  {"relpersistence", RL_OID_CHAR},
    {"relkind", RL_OID_CHAR},      {"relnatts", RL_OID_INT2},
    {"relchecks", RL_OID_INT2},    {"relhasrules", RL_OID_BOOL},
    {"relhastriggers", RL_OID_BOOL}, {"relhassubclass", RL_OID_BOOL},
    {"relrowsecurity", RL_OID_BOOL}, {"relforcerowsecurity", RL_OID_BOOL},
    {"relispopulated", RL_OID_BOOL}, {"relreplident", RL_OID_CHAR},
    {"relispartition", RL_OID_BOOL}};

static const vcol attribute_cols[] = {
    {"attrelid", RL_OID_OID},      {"attname", RL_OID_NAME},
    {"atttypid", RL_OID_OID},      {"attstattarget", RL_OID_INT4},
    {"attlen", RL_OID_INT2},       {"attnum", RL_OID_INT2},
    {"attndims", RL_OID_INT4},     {"attcacheoff", RL_OID_INT4},
    {"atttypmod", RL_OID_INT4},    {"attbyval", RL_OID_BOOL},
    {"attalign", RL_OID_CHAR},     {"attstorage", RL_OID_CHAR},
    {"attcompression", RL_OID_CHAR}, {"attnotnull", RL_OID_BOOL},
    {"atthasdef", RL_OID_BOOL},    {"atthasmissing", RL_OID_BOOL},
    {"attidentity", RL_OID_CHAR},  {"attgenerated", RL_OID_CHAR},
    {"attisdropped", RL_OID_BOOL}, {"attislocal", RL_OID_BOOL},
    {"attinhcount", RL_OID_INT4},  {"attcollation", RL_OID_OID}};

static const vcol type_cols[] = {
    {"oid", RL_OID_OID},           {"typname", RL_OID_NAME},
    {"typnamespace", RL_OID_OID},  {"typowner", RL_OID_OID},
    {"typlen", RL_OID_INT2},       {"typbyval", RL_OID_BOOL},
    {"typtype", RL_OID_CHAR},      {"typcategory", RL_OID_CHAR},
    {"typispreferred", RL_OID_BOOL}, {"typisdefined", RL_OID_BOOL},
    {"typdelim", RL_OID_CHAR},     {"typrelid", RL_OID_OID},
    {"typelem", RL_OID_OID},       {"typarray", RL_OID_OID},
    {"typalign", RL_OID_CHAR},     {"typstorage", RL_OID_CHAR},
    {"typnotnull", RL_OID_BOOL},   {"typbasetype", RL_OID_OID},
    {"typtypmod", RL_OID_INT4},    {"typndims", RL_OID_INT4},
    {"typcollation", RL_OID_OID}};

static const vcol constraint_cols[] = {
    {"oid", RL_OID_OID},           {"conname", RL_OID_NAME},
    {"connamespace", RL_OID_OID},  {"contype", RL_OID_CHAR},
    {"condeferrable", RL_OID_BOOL}, {"condeferred", RL_OID_BOOL},
    {"convalidated", RL_OID_BOOL}, {"conrelid", RL_OID_OID},
    {"contypid", RL_OID_OID},      {"conindid", RL_OID_OID},
    {"conparentid", RL_OID_OID},   {"confrelid", RL_OID_OID},
    {"conislocal", RL_OID_BOOL},   {"coninhcount", RL_OID_INT4},
    {"connoinherit", RL_OID_BOOL}, {"conkey", RL_OID_INT2_ARRAY}};

static const vcol description_cols[] = {{"objoid", RL_OID_OID},
                                        {"classoid", RL_OID_OID},
                                        {"objsubid", RL_OID_INT4},
                                        {"description", RL_OID_TEXT}};

static const vcol enum_cols[] = {{"oid", RL_OID_OID},
                                 {"enumtypid", RL_OID_OID},
                                 {"enumsortorder", RL_OID_FLOAT4},
                                 {"enumlabel", RL_OID_NAME}};

static const vcol indexes_cols[] = {{"schemaname", RL_OID_NAME},
                                    {"tablename", RL_OID_NAME},
                                    {"indexname", RL_OID_NAME},
                                    {"tablespace", RL_OID_NAME},
                                    {"indexdef", RL_OID_TEXT}};

static const vcol settings_cols[] = {
    {"name", RL_OID_TEXT},       {"setting", RL_OID_TEXT},    {"unit", RL_OID_TEXT},
    {"category", RL_OID_TEXT},   {"short_desc", RL_OID_TEXT}, {"extra_desc", RL_OID_TEXT},
    {"context", RL_OID_TEXT},    {"vartype", RL_OID_TEXT},    {"source", RL_OID_TEXT},
    {"min_val", RL_OID_TEXT},    {"max_val", RL_OID_TEXT},    {"boot_val", RL_OID_TEXT},
    {"reset_val", RL_OID_TEXT},  {"pending_restart", RL_OID_BOOL}};

static const vcol tables_view_cols[] = {
    {"schemaname", RL_OID_NAME}, {"tablename", RL_OID_NAME},  {"tableowner", RL_OID_NAME},
    {"tablespace", RL_OID_NAME}, {"hasindexes", RL_OID_BOOL}, {"hasrules", RL_OID_BOOL},
    {"hastriggers", RL_OID_BOOL}, {"rowsecurity", RL_OID_BOOL}};

/* information_schema's domains (sql_identifier over name, character_data
 * and yes_or_no over varchar) are reported as their base types. */
static const vcol is_tables_cols[] = {
    {"table_catalog", RL_OID_NAME}, {"table_schema", RL_OID_NAME},
    {"table_name", RL_OID_NAME},    {"table_type", RL_OID_VARCHAR},
    {"is_insertable_into", RL_OID_VARCHAR}, {"is_typed", RL_OID_VARCHAR}};

static int gen_namespace(gen_ctx *g);
static int gen_class(gen_ctx *g);
static int gen_attribute(gen_ctx *g);
static int gen_type(gen_ctx *g);
static int gen_constraint(gen_ctx *g);
static int gen_empty(gen_ctx *g);
static int gen_indexes(gen_ctx *g);
static int gen_settings(gen_ctx *g);
static int gen_tables_view(gen_ctx *g);
static int gen_is_tables(gen_ctx *g);

static const vrel vrels[] = {
    {"pg_catalog", "pg_namespace", 2615, namespace_cols, N(namespace_cols), gen_namespace},
    {"pg_catalog", "pg_class", 1259, class_cols, N(class_cols), gen_class},
    {"pg_catalog", "pg_attribute", 1249, attribute_cols, N(attribute_cols), gen_attribute},
    {"pg_catalog", "pg_type", 1247, type_cols, N(type_cols), gen_type},
    {"pg_catalog", "pg_constraint", 2606, constraint_cols, N(constraint_cols), gen_constraint},
    {"pg_catalog", "pg_description", 2609, description_cols, N(description_cols), gen_empty},
    {"pg_catalog", "pg_enum", 3501, enum_cols, N(enum_cols), gen_empty},
    {"pg_catalog", "pg_indexes", 12043, indexes_cols, N(indexes_cols), gen_indexes},
    {"pg_catalog", "pg_settings", 12104, settings_cols, N(settings_cols), gen_settings},
    {"pg_catalog", "pg_tables", 12033, tables_view_cols, N(tables_view_cols), gen_tables_view},
    {"information_schema", "tables", 13425, is_tables_cols, N(is_tables_cols), gen_is_tables},
};

/* Built-in types, with PostgreSQL 15's real oids and attributes. */
typedef struct builtin_type {
    uint32_t oid;
    const char *name;
    int16_t len;
    bool byval;
    char type, category;
    bool preferred;
    uint32_t elem, array;
    char align, storage;
    uint32_t collation;
} builtin_type;

static const builtin_type builtin_types[] = {
    {16, "bool", 1, true, 'b', 'B', true, 0, 1000, 'c', 'p', 0},
    {17, "bytea", -1, false, 'b', 'U', false, 0, 1001, 'i', 'x', 0},
    {18, "char", 1, true, 'b', 'Z', false, 0, 1002, 'c', 'p', 0},
    {19, "name", 64, false, 'b', 'S', false, 18, 1003, 'c', 'p', 950},
    {20, "int8", 8, true, 'b', 'N', false, 0, 1016, 'd', 'p', 0},
    {21, "int2", 2, true, 'b', 'N', false, 0, 1005, 's', 'p', 0},
    {22, "int2vector", -1, false, 'b', 'A', false, 21, 1006, 'i', 'p', 0},
    {23, "int4", 4, true, 'b', 'N', false, 0, 1007, 'i', 'p', 0},
    {24, "regproc", 4, true, 'b', 'N', false, 0, 1008, 'i', 'p', 0},
    {25, "text", -1, false, 'b', 'S', true, 0, 1009, 'i', 'x', 100},
    {26, "oid", 4, true, 'b', 'N', true, 0, 1028, 'i', 'p', 0},
    {27, "tid", 6, false, 'b', 'U', false, 0, 1010, 's', 'p', 0},
    {114, "json", -1, false, 'b', 'U', false, 0, 199, 'i', 'x', 0},
    {199, "_json", -1, false, 'b', 'A', false, 114, 0, 'i', 'x', 0},
    {700, "float4", 4, true, 'b', 'N', false, 0, 1021, 'i', 'p', 0},
    {701, "float8", 8, true, 'b', 'N', true, 0, 1022, 'd', 'p', 0},
    {705, "unknown", -2, false, 'p', 'X', false, 0, 0, 'c', 'p', 0},
    {1000, "_bool", -1, false, 'b', 'A', false, 16, 0, 'i', 'x', 0},
    {1001, "_bytea", -1, false, 'b', 'A', false, 17, 0, 'i', 'x', 0},
    {1005, "_int2", -1, false, 'b', 'A', false, 21, 0, 'i', 'x', 0},
    {1007, "_int4", -1, false, 'b', 'A', false, 23, 0, 'i', 'x', 0},
    {1009, "_text", -1, false, 'b', 'A', false, 25, 0, 'i', 'x', 100},
    {1014, "_bpchar", -1, false, 'b', 'A', false, 1042, 0, 'i', 'x', 100},
    {1015, "_varchar", -1, false, 'b', 'A', false, 1043, 0, 'i', 'x', 100},
    {1016, "_int8", -1, false, 'b', 'A', false, 20, 0, 'd', 'x', 0},
    {1021, "_float4", -1, false, 'b', 'A', false, 700, 0, 'i', 'x', 0},
    {1022, "_float8", -1, false, 'b', 'A', false, 701, 0, 'd', 'x', 0},
    {1028, "_oid", -1, false, 'b', 'A', false, 26, 0, 'i', 'x', 0},
    {1042, "bpchar", -1, false, 'b', 'S', false, 0, 1014, 'i', 'x', 100},
    {1043, "varchar", -1, false, 'b', 'S', false, 0, 1015, 'i', 'x', 100},
    {1082, "date", 4, true, 'b', 'D', false, 0, 1182, 'i', 'p', 0},
    {1083, "time", 8, true, 'b', 'D', false, 0, 1183, 'd', 'p', 0},
    {1114, "timestamp", 8, true, 'b', 'D', false, 0, 1115, 'd', 'p', 0},
    {1115, "_timestamp", -1, false, 'b', 'A', false, 1114, 0, 'd', 'x', 0},
    {1182, "_date", -1, false, 'b', 'A', false, 1082, 0, 'i', 'x', 0},
    {1183, "_time", -1, false, 'b', 'A', false, 1083, 0, 'd', 'x', 0},
    {1184, "timestamptz", 8, true, 'b', 'D', true, 0, 1185, 'd', 'p', 0},
    {1185, "_timestamptz", -1, false, 'b', 'A', false, 1184, 0, 'd', 'x', 0},
    {1186, "interval", 16, false, 'b', 'T', true, 0, 1187, 'd', 'p', 0},
    {1187, "_interval", -1, false, 'b', 'A', false, 1186, 0, 'd', 'x', 0},
    {1231, "_numeric", -1, false, 'b', 'A', false, 1700, 0, 'i', 'x', 0},
    {1266, "timetz", 12, false, 'b', 'D', false, 0, 1270, 'd', 'p', 0},
    {1270, "_timetz", -1, false, 'b', 'A', false, 1266, 0, 'd', 'x', 0},
    {1700, "numeric", -1, false, 'b', 'N', false, 0, 1231, 'i', 'm', 0},
    {2205, "regclass", 4, true, 'b', 'N', false, 0, 2210, 'i', 'p', 0},
    {2210, "_regclass", -1, false, 'b', 'A', false, 2205, 0, 'i', 'x', 0},
    {2278, "void", 4, true, 'p', 'P', false, 0, 0, 'i', 'p', 0},
    {2950, "uuid", 16, false, 'b', 'U', false, 0, 2951, 'c', 'p', 0},
    {2951, "_uuid", -1, false, 'b', 'A', false, 2950, 0, 'i', 'x', 0},
    {3802, "jsonb", -1, false, 'b', 'U', false, 0, 3807, 'i', 'x', 0},
    {3807, "_jsonb", -1, false, 'b', 'A', false, 3802, 0, 'i', 'x', 0},
};

static const builtin_type *find_builtin(uint32_t oid)
{
    for (size_t i = 0; i < N(builtin_types); i++)
        if (builtin_types[i].oid == oid)
            return &builtin_types[i];
    return NULL;
}

/* ==================================================================== oids */

static uint32_t fnv1a32(const char *a, const char *sep, const char *b)
{
    uint32_t h = 2166136261u;
    for (const char *parts[3] = {a, sep, b}, **p = parts; p < parts + 3; p++)
        for (const unsigned char *c = (const unsigned char *)(*p ? *p : ""); *c; c++) {
            h ^= *c;
            h *= 16777619u;
        }
    return h;
}

uint32_t rl_pgcatalog_namespace_oid(const char *schema)
{
    if (strcmp(schema, "pg_catalog") == 0)
        return NS_PG_CATALOG;
    if (strcmp(schema, "pg_toast") == 0)
        return NS_PG_TOAST;
    if (strcmp(schema, "public") == 0)
        return NS_PUBLIC;
    if (strcmp(schema, "information_schema") == 0)
        return NS_INFORMATION_SCHEMA;
    return 16384u + fnv1a32(schema, "", "") % 1000000u;
}

uint32_t rl_pgcatalog_rel_oid(const char *schema, const char *name)
{
    int id = rl_pgcatalog_find(schema, name);
    if (id >= 0)
        return vrels[id].oid;
    return REL_OID_BASE + fnv1a32(schema, ".", name) % REL_OID_SPAN;
}

static uint32_t rowtype_oid(uint32_t rel_oid) { return rel_oid + ROWTYPE_OID_OFFSET; }
static uint32_t constraint_oid(uint32_t rel_oid) { return rel_oid + CONSTRAINT_OID_OFFSET; }

/* ============================================================== lookups */

int rl_pgcatalog_find(const char *schema, const char *name)
{
    if (!schema || !name)
        return -1;
    for (size_t i = 0; i < N(vrels); i++)
        if (strcmp(vrels[i].schema, schema) == 0 && strcmp(vrels[i].name, name) == 0)
            return (int)i;
    return -1;
}

const char *rl_pgcatalog_schema(int id)
{
    return id >= 0 && (size_t)id < N(vrels) ? vrels[id].schema : "pg_catalog";
}

rl_rowset *rl_pgcatalog_columns(int id)
{
    if (id < 0 || (size_t)id >= N(vrels))
        return NULL;
    const vrel *v = &vrels[id];
    rl_rowset *rs = rl_rowset_new(v->ncols);
    if (!rs)
        return NULL;
    for (size_t i = 0; i < v->ncols; i++) {
        rl_colmeta *c = &rs->cols[i];
        snprintf(c->name, sizeof c->name, "%s", v->cols[i].name);
        snprintf(c->rel, sizeof c->rel, "%s", v->name);
        c->oid = v->cols[i].oid;
        c->typmod = -1;
        c->table_oid = v->oid;
        c->attnum = (int16_t)(i + 1);
    }
    return rs;
}

/* ============================================================ generation */

/* One SQL-visible table as this transaction sees it. */
typedef struct table_ent {
    char schema[64], name[64];
    const rl_table_desc *d;
    uint32_t oid, nsoid;
    size_t ncols;
} table_ent;

struct gen_ctx {
    rl_exec *x;
    rl_rowset *rs;
    table_ent *tables;
    size_t ntables, cap;
    rl_value row[32];
    char chars[32]; /* storage of "char" values of the row being built */
};

static int collect_table(void *ctx, const char *schema, const char *name,
                         const rl_table_desc *d)
{
    gen_ctx *g = ctx;
    if (d->internal)
        return 0;
    if (g->ntables == g->cap) {
        size_t cap = g->cap ? g->cap * 2 : 64;
        table_ent *t = realloc(g->tables, cap * sizeof *t);
        if (!t)
            return -1;
        g->tables = t;
        g->cap = cap;
    }
    table_ent *t = &g->tables[g->ntables++];
    snprintf(t->schema, sizeof t->schema, "%s", schema);
    snprintf(t->name, sizeof t->name, "%s", name);
    t->d = d;
    t->oid = rl_pgcatalog_rel_oid(schema, name);
    t->nsoid = rl_pgcatalog_namespace_oid(schema);
    t->ncols = rl_desc_ncols(d, rl_catalog_format(g->x->s->eng->cat));
    return 0;
}

static int load_tables(gen_ctx *g)
{
    rl_txn *t = rl_exec_txn(g->x);
    if (!t)
        return -1;
    int rc = rl_txn_list_tables(t, collect_table, g, g->x->err);
    if (rc != 0 && g->x->err && !g->x->err->sqlstate[0])
        rl_exec_error(g->x, RL_SQLSTATE_INTERNAL, -1, "out of memory");
    return rc == 0 ? 0 : -1;
}

/* Value constructors for the row being built: g->row[i]. */
static void put_null(gen_ctx *g, size_t i)
{
    memset(&g->row[i], 0, sizeof g->row[i]);
    g->row[i].oid = g->rs->cols[i].oid;
    g->row[i].typmod = -1;
    g->row[i].d.isnull = true;
}

static void put_int(gen_ctx *g, size_t i, int64_t v)
{
    put_null(g, i);
    g->row[i].d.isnull = false;
    g->row[i].d.v.i = v;
}

static void put_bool(gen_ctx *g, size_t i, bool b)
{
    put_null(g, i);
    g->row[i].d.isnull = false;
    g->row[i].d.v.b = b;
}

static void put_float(gen_ctx *g, size_t i, double f)
{
    put_null(g, i);
    g->row[i].d.isnull = false;
    g->row[i].d.v.f = f;
}

/* name, text, varchar, int2[] (as text) and "char": bytes are copied into
 * the row set's arena by rl_rowset_add, so `s` may be temporary. */
static void put_str(gen_ctx *g, size_t i, const char *s)
{
    put_null(g, i);
    g->row[i].d.isnull = false;
    g->row[i].d.v.s.p = (const uint8_t *)s;
    g->row[i].d.v.s.len = strlen(s);
}

/* A "char" value; '\0' is the empty string, as PostgreSQL prints it. */
static void put_char(gen_ctx *g, size_t i, char c)
{
    g->chars[i] = c;
    put_str(g, i, "");
    g->row[i].d.v.s.p = (const uint8_t *)&g->chars[i];
    g->row[i].d.v.s.len = c ? 1 : 0;
}

static int emit(gen_ctx *g) { return rl_rowset_add(g->rs, g->row, NULL, g->x->err); }

/* ------------------------------------------------------------ namespaces */

typedef struct ns_list {
    char (*names)[64];
    size_t n, cap;
} ns_list;

static int ns_add(void *ctx, const char *schema)
{
    ns_list *l = ctx;
    for (size_t i = 0; i < l->n; i++)
        if (strcmp(l->names[i], schema) == 0)
            return 0;
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 16;
        char(*p)[64] = realloc(l->names, cap * sizeof *p);
        if (!p)
            return -1;
        l->names = p;
        l->cap = cap;
    }
    snprintf(l->names[l->n++], 64, "%s", schema);
    return 0;
}

static int cmp_ns(const void *a, const void *b)
{
    uint32_t x = rl_pgcatalog_namespace_oid(a), y = rl_pgcatalog_namespace_oid(b);
    return x < y ? -1 : x > y;
}

static int gen_namespace(gen_ctx *g)
{
    ns_list l = {0};
    int rc = 0;
    static const char *const fixed[] = {"pg_catalog", "pg_toast", "public", "information_schema"};
    for (size_t i = 0; i < N(fixed) && rc == 0; i++)
        rc = ns_add(&l, fixed[i]);
    rl_txn *t = rc == 0 ? rl_exec_txn(g->x) : NULL;
    if (rc == 0 && !t)
        rc = -2;
    if (rc == 0 && rl_txn_list_schemas(t, ns_add, &l, g->x->err) != 0)
        rc = -2;
    if (rc == 0)
        qsort(l.names, l.n, sizeof *l.names, cmp_ns);
    for (size_t i = 0; i < l.n && rc == 0; i++) {
        put_int(g, 0, rl_pgcatalog_namespace_oid(l.names[i]));
        put_str(g, 1, l.names[i]);
        put_int(g, 2, OWNER_OID);
        rc = emit(g);
    }
    free(l.names);
    if (rc == -2 && g->x->err && !g->x->err->sqlstate[0])
        rl_exec_error(g->x, RL_SQLSTATE_INTERNAL, -1, "out of memory");
    return rc < 0 ? -1 : 0;
}

/* ------------------------------------------------------------- pg_class */

static bool has_pk(const table_ent *t) { return t->d->pk_check != RL_PK_NONE && t->d->pk_col >= 0; }

static int gen_class(gen_ctx *g)
{
    if (load_tables(g) < 0)
        return -1;
    for (size_t i = 0; i < g->ntables; i++) {
        const table_ent *t = &g->tables[i];
        put_int(g, 0, t->oid);
        put_str(g, 1, t->name);
        put_int(g, 2, t->nsoid);
        put_int(g, 3, rowtype_oid(t->oid));
        put_int(g, 4, 0);
        put_int(g, 5, OWNER_OID);
        put_int(g, 6, HEAP_AM_OID);
        put_int(g, 7, t->oid);
        put_int(g, 8, 0);
        put_int(g, 9, 0);   /* relpages: never plan ctid-range scans */
        put_float(g, 10, -1); /* reltuples: PostgreSQL 15's "never analyzed" */
        put_int(g, 11, 0);
        put_int(g, 12, 0);
        put_bool(g, 13, has_pk(t));
        put_bool(g, 14, false);
        put_char(g, 15, 'p');
        put_char(g, 16, 'r');
        put_int(g, 17, (int64_t)t->ncols);
        put_int(g, 18, 0);
        for (size_t c = 19; c <= 23; c++)
            put_bool(g, c, false);
        put_bool(g, 24, true);
        put_char(g, 25, 'd');
        put_bool(g, 26, false);
        if (emit(g) < 0)
            return -1;
    }
    return 0;
}

/* --------------------------------------------------------- pg_attribute */

static int gen_attribute(gen_ctx *g)
{
    if (load_tables(g) < 0)
        return -1;
    for (size_t i = 0; i < g->ntables; i++) {
        const table_ent *t = &g->tables[i];
        for (size_t c = 0; c < t->ncols; c++) {
            const rl_column_desc *col = &t->d->cols[c];
            uint32_t toid = rl_type_oid(col->type);
            const builtin_type *bt = find_builtin(toid);
            put_int(g, 0, t->oid);
            put_str(g, 1, col->name);
            put_int(g, 2, toid);
            put_int(g, 3, -1);
            put_int(g, 4, bt ? bt->len : -1);
            put_int(g, 5, (int64_t)(c + 1));
            put_int(g, 6, 0);
            put_int(g, 7, -1);
            put_int(g, 8, col->typmod > 0 ? col->typmod : -1);
            put_bool(g, 9, bt && bt->byval);
            put_char(g, 10, bt ? bt->align : 'i');
            put_char(g, 11, bt ? bt->storage : 'x');
            put_char(g, 12, '\0');
            /* a PRIMARY KEY column is NOT NULL in PostgreSQL */
            put_bool(g, 13, col->not_null || (has_pk(t) && (size_t)t->d->pk_col == c));
            put_bool(g, 14, false);
            put_bool(g, 15, false);
            put_char(g, 16, '\0');
            put_char(g, 17, '\0');
            put_bool(g, 18, false);
            put_bool(g, 19, true);
            put_int(g, 20, 0);
            put_int(g, 21, bt ? bt->collation : 0);
            if (emit(g) < 0)
                return -1;
        }
    }
    return 0;
}

/* -------------------------------------------------------------- pg_type */

static void put_type_common(gen_ctx *g, uint32_t oid, const char *name, uint32_t nsoid)
{
    put_int(g, 0, oid);
    put_str(g, 1, name);
    put_int(g, 2, nsoid);
    put_int(g, 3, OWNER_OID);
    put_bool(g, 9, true);
    put_char(g, 10, ',');
    put_bool(g, 16, false);
    put_int(g, 17, 0);
    put_int(g, 18, -1);
    put_int(g, 19, 0);
}

static int gen_type(gen_ctx *g)
{
    for (size_t i = 0; i < N(builtin_types); i++) {
        const builtin_type *b = &builtin_types[i];
        put_type_common(g, b->oid, b->name, NS_PG_CATALOG);
        put_int(g, 4, b->len);
        put_bool(g, 5, b->byval);
        put_char(g, 6, b->type);
        put_char(g, 7, b->category);
        put_bool(g, 8, b->preferred);
        put_int(g, 11, 0);
        put_int(g, 12, b->elem);
        put_int(g, 13, b->array);
        put_char(g, 14, b->align);
        put_char(g, 15, b->storage);
        put_int(g, 20, b->collation);
        if (emit(g) < 0)
            return -1;
    }
    if (load_tables(g) < 0)
        return -1;
    /* every table has a composite row type, as in PostgreSQL */
    for (size_t i = 0; i < g->ntables; i++) {
        const table_ent *t = &g->tables[i];
        put_type_common(g, rowtype_oid(t->oid), t->name, t->nsoid);
        put_int(g, 4, -1);
        put_bool(g, 5, false);
        put_char(g, 6, 'c');
        put_char(g, 7, 'C');
        put_bool(g, 8, false);
        put_int(g, 11, t->oid);
        put_int(g, 12, 0);
        put_int(g, 13, 0);
        put_char(g, 14, 'd');
        put_char(g, 15, 'x');
        put_int(g, 20, 0);
        if (emit(g) < 0)
            return -1;
    }
    return 0;
}

/* -------------------------------------------------------- pg_constraint */

static int gen_constraint(gen_ctx *g)
{
    if (load_tables(g) < 0)
        return -1;
    for (size_t i = 0; i < g->ntables; i++) {
        const table_ent *t = &g->tables[i];
        if (!has_pk(t))
            continue;
        char conname[160], conkey[16];
        snprintf(conname, sizeof conname, "%s_pkey", t->name);
        snprintf(conkey, sizeof conkey, "{%d}", t->d->pk_col + 1);
        put_int(g, 0, constraint_oid(t->oid));
        put_str(g, 1, conname);
        put_int(g, 2, t->nsoid);
        put_char(g, 3, 'p');
        put_bool(g, 4, false);
        put_bool(g, 5, false);
        put_bool(g, 6, true);
        put_int(g, 7, t->oid);
        put_int(g, 8, 0);
        put_int(g, 9, 0);
        put_int(g, 10, 0);
        put_int(g, 11, 0);
        put_bool(g, 12, true);
        put_int(g, 13, 0);
        put_bool(g, 14, true);
        put_str(g, 15, conkey);
        if (emit(g) < 0)
            return -1;
    }
    return 0;
}

/* No comments, enums: DuckDB reads these and expects no rows. */
static int gen_empty(gen_ctx *g) { return 0; }

/* ----------------------------------------------------------- pg_indexes */

static int gen_indexes(gen_ctx *g)
{
    if (load_tables(g) < 0)
        return -1;
    for (size_t i = 0; i < g->ntables; i++) {
        const table_ent *t = &g->tables[i];
        if (!has_pk(t))
            continue;
        char idx[160], def[512];
        snprintf(idx, sizeof idx, "%s_pkey", t->name);
        snprintf(def, sizeof def, "CREATE UNIQUE INDEX %s ON %s.%s USING btree (%s)", idx,
                 t->schema, t->name, t->d->cols[t->d->pk_col].name);
        put_str(g, 0, t->schema);
        put_str(g, 1, t->name);
        put_str(g, 2, idx);
        put_null(g, 3);
        put_str(g, 4, def);
        if (emit(g) < 0)
            return -1;
    }
    return 0;
}

/* ---------------------------------------------------------- pg_settings */

typedef struct setting_row {
    const char *name, *setting, *category, *context, *vartype;
} setting_row;

/* A few settings clients look at; none starts with "rds" (DuckDB counts
 * those to detect Aurora). Sorted by name, like pg_settings. */
static const setting_row settings[] = {
    {"client_encoding", "UTF8", "Client Connection Defaults / Locale and Formatting", "user", "string"},
    {"DateStyle", "ISO, MDY", "Client Connection Defaults / Locale and Formatting", "user", "string"},
    {"default_transaction_isolation", "read committed", "Client Connection Defaults / Statement Behavior", "user", "enum"},
    {"integer_datetimes", "on", "Preset Options", "internal", "bool"},
    {"IntervalStyle", "postgres", "Client Connection Defaults / Locale and Formatting", "user", "enum"},
    {"max_identifier_length", "63", "Preset Options", "internal", "integer"},
    {"search_path", "\"$user\", public", "Client Connection Defaults / Statement Behavior", "user", "string"},
    {"server_encoding", "UTF8", "Preset Options", "internal", "string"},
    {"standard_conforming_strings", "on", "Version and Platform Compatibility / Previous PostgreSQL Versions", "user", "bool"},
    {"TimeZone", "Etc/UTC", "Client Connection Defaults / Locale and Formatting", "user", "string"},
};

static const char *session_setting(rl_session *s, const char *name)
{
    for (const rl_setting *st = s->settings; st; st = st->next)
        if (strcasecmp(st->name, name) == 0)
            return st->value;
    return NULL;
}

static int gen_settings(gen_ctx *g)
{
    for (size_t i = 0; i < N(settings); i++) {
        const setting_row *r = &settings[i];
        const char *cur = session_setting(g->x->s, r->name);
        for (size_t c = 0; c < N(settings_cols); c++)
            put_null(g, c);
        put_str(g, 0, r->name);
        put_str(g, 1, cur ? cur : r->setting);
        put_str(g, 3, r->category);
        put_str(g, 4, "");
        put_str(g, 6, r->context);
        put_str(g, 7, r->vartype);
        put_str(g, 8, cur ? "session" : "default");
        put_str(g, 11, r->setting);
        put_str(g, 12, r->setting);
        put_bool(g, 13, false);
        if (emit(g) < 0)
            return -1;
    }
    return 0;
}

/* ------------------------------------------------------------ pg_tables */

static int gen_tables_view(gen_ctx *g)
{
    if (load_tables(g) < 0)
        return -1;
    for (size_t i = 0; i < g->ntables; i++) {
        const table_ent *t = &g->tables[i];
        put_str(g, 0, t->schema);
        put_str(g, 1, t->name);
        put_str(g, 2, g->x->s->user[0] ? g->x->s->user : "postgres");
        put_null(g, 3);
        put_bool(g, 4, has_pk(t));
        put_bool(g, 5, false);
        put_bool(g, 6, false);
        put_bool(g, 7, false);
        if (emit(g) < 0)
            return -1;
    }
    return 0;
}

/* ----------------------------------------------- information_schema.tables */

static int gen_is_tables(gen_ctx *g)
{
    if (load_tables(g) < 0)
        return -1;
    for (size_t i = 0; i < g->ntables; i++) {
        const table_ent *t = &g->tables[i];
        put_str(g, 0, g->x->s->eng->database);
        put_str(g, 1, t->schema);
        put_str(g, 2, t->name);
        put_str(g, 3, "BASE TABLE");
        put_str(g, 4, "YES");
        put_str(g, 5, "NO");
        if (emit(g) < 0)
            return -1;
    }
    return 0;
}

/* ================================================================ rows */

rl_rowset *rl_pgcatalog_rows(rl_exec *x, int id)
{
    rl_rowset *rs = rl_pgcatalog_columns(id);
    if (!rs) {
        rl_exec_error(x, RL_SQLSTATE_INTERNAL, -1, "out of memory");
        return NULL;
    }
    gen_ctx g;
    memset(&g, 0, sizeof g);
    g.x = x;
    g.rs = rs;
    int rc = vrels[id].gen(&g);
    free(g.tables);
    if (rc < 0) {
        rl_rowset_free(rs);
        return NULL;
    }
    return rs;
}
