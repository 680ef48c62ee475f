/*
 * sql_resolve.c — relation names to relations, in PostgreSQL's search
 * order: session temp tables and sequences (pg_temp), pg_catalog views, then the named
 * schema (default "public") through the catalog's name index; anything
 * else is 42P01 with the name's position, a name of another database
 * 0A000. Also a table's columns as the statement sees them (its row
 * type's fields) and the table a row type's oid belongs to.
 *
 * Sits below the scans (sql_scan.c), casts (regclass input, sql_cast.c)
 * and statements, which all name relations; calls only the execution
 * context (the statement's transaction) and pg_catalog's relation ids and
 * oids.
 */
#include <assert.h>
#include <stdio.h>
#include <string.h>

#include "base/utf8.h"

#include "sql/sql_exec.h"
#include "sql/sql_pgcatalog.h"
#include "sql/sql_relation.h"

static rl_temp_table *find_temp(rl_session *s, const char *name)
{
    for (rl_temp_table *t = s->temps; t; t = t->next)
        if (strcmp(t->name, name) == 0)
            return t;
    return NULL;
}

rl_temp_seq *rl_temp_seq_find(const rl_session *s, const char *name)
{
    for (rl_temp_seq *q = s->temp_seqs; q; q = q->next)
        if (strcmp(q->name, name) == 0)
            return q;
    return NULL;
}

static int not_found(rl_exec *x, const char *schema, const char *name, int location)
{
    if (schema && *schema)
        return rl_exec_error(x, RL_SQLSTATE_UNDEFINED_TABLE, location,
                             "relation \"%s.%s\" does not exist", schema, name);
    return rl_exec_error(x, RL_SQLSTATE_UNDEFINED_TABLE, location,
                         "relation \"%s\" does not exist", name);
}

static bool is_virtual_schema(const char *schema)
{
    return strcmp(schema, "pg_catalog") == 0 || strcmp(schema, "information_schema") == 0;
}

/* 1 found, 0 absent, -1 error (x->err set). */
static int find_stored(rl_exec *x, const char *schema, const char *name, rl_relation *out)
{
    rl_txn *t = rl_exec_txn(x);
    if (!t)
        return -1;
    rl_error e;
    memset(&e, 0, sizeof e);
    const rl_table_desc *d = rl_txn_find_table(t, schema, name, &e);
    if (!d) {
        if (strcmp(e.sqlstate, RL_SQLSTATE_UNDEFINED_TABLE) == 0)
            return 0;
        if (x->err)
            *x->err = e;
        return -1;
    }
    out->kind = RL_REL_STORED;
    out->desc = d;
    rl_str_copy(out->schema, sizeof out->schema, schema);
    rl_str_copy(out->name, sizeof out->name, name);
    out->oid = rl_pgcatalog_rel_oid(schema, name);
    return 1;
}

/* A sequence: 1 found, 0 absent, -1 error. */
static int find_sequence(rl_exec *x, const char *schema, const char *name, rl_relation *out)
{
    rl_txn *t = rl_exec_txn(x);
    rl_seq_def def;
    int rc = t ? rl_txn_get_sequence(t, schema, name, &def, x->err) : -1;
    if (rc != 1)
        return rc;
    out->kind = RL_REL_SEQUENCE;
    rl_str_copy(out->schema, sizeof out->schema, schema);
    rl_str_copy(out->name, sizeof out->name, name);
    out->oid = rl_pgcatalog_rel_oid(schema, name);
    return 1;
}

static int lookup_at(rl_exec *x, const char *schema, const char *name, int location,
                     rl_relation *out)
{
    memset(out, 0, sizeof *out);
    bool qualified = schema && *schema;
    if ((!qualified && !x->past_temp) || (qualified && rl_pgcatalog_is_temp_schema(x, schema))) {
        rl_temp_table *tt = find_temp(x->s, name);
        if (tt) {
            out->kind = RL_REL_TEMP;
            out->temp = tt;
            rl_str_copy(out->schema, sizeof out->schema, "pg_temp");
            rl_str_copy(out->name, sizeof out->name, name);
            out->oid = rl_pgcatalog_rel_oid("pg_temp", name);
            return 0;
        }
        if (rl_temp_seq_find(x->s, name)) {
            out->kind = RL_REL_SEQUENCE;
            rl_str_copy(out->schema, sizeof out->schema, "pg_temp");
            rl_str_copy(out->name, sizeof out->name, name);
            out->oid = rl_pgcatalog_rel_oid("pg_temp", name);
            return 0;
        }
        if (qualified)
            return not_found(x, schema, name, location);
    }
    /* PostgreSQL searches pg_catalog before the search path when it is not
     * listed explicitly, so an unqualified pg_class is always the catalog's. */
    if (!qualified || is_virtual_schema(schema)) {
        int id = rl_pgcatalog_find(qualified ? schema : "pg_catalog", name);
        if (id >= 0) {
            out->kind = RL_REL_VIRTUAL;
            out->virtual_id = id;
            rl_str_copy(out->schema, sizeof out->schema, rl_pgcatalog_schema(id));
            rl_str_copy(out->name, sizeof out->name, name);
            out->oid = rl_pgcatalog_rel_oid(out->schema, name);
            return 0;
        }
        if (qualified)
            return not_found(x, schema, name, location);
    }
    int rc = find_stored(x, qualified ? schema : "public", name, out);
    if (rc == 0)
        rc = find_sequence(x, qualified ? schema : "public", name, out);
    if (rc < 0)
        return -1;
    if (rc == 0)
        return not_found(x, schema, name, location);
    return 0;
}

int rl_relation_lookup(rl_exec *x, const char *schema, const char *name, rl_relation *out)
{
    return lookup_at(x, schema, name, -1, out);
}

int rl_relation_resolve(rl_exec *x, const PgQuery__RangeVar *rv, rl_relation *out)
{
    if (rv->catalogname && *rv->catalogname &&
        strcmp(rv->catalogname, x->s->eng->database) != 0)
        return rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, rv->location,
                             "cross-database references are not implemented: \"%s.%s.%s\"",
                             rv->catalogname, rv->schemaname, rv->relname);
    return lookup_at(x, rv->schemaname, rv->relname, rv->location, out);
}

/* makeObjectName: name1_name2_label within RL_INDEX_NAME_MAX - 1 bytes, the
 * longer of name1 and name2 shortened first. */
size_t rl_relation_ncols(rl_exec *x, const rl_relation *rel)
{
    assert(rel->kind == RL_REL_STORED || rel->kind == RL_REL_TEMP);
    if (rel->kind == RL_REL_TEMP)
        return rel->temp->rows->ncols;
    rl_txn *t = rl_exec_txn(x);
    return t ? rl_txn_table_ncols(t, rel->desc) : rl_desc_ncols(rel->desc, rl_exec_format(x));
}

void rl_relation_col(const rl_relation *rel, size_t i, const char **name, uint32_t *oid,
                     int32_t *typmod)
{
    assert(rel->kind == RL_REL_STORED || rel->kind == RL_REL_TEMP);
    if (rel->kind == RL_REL_TEMP) {
        const rl_colmeta *m = &rel->temp->rows->cols[i];
        *name = m->name;
        *oid = m->oid;
        *typmod = m->typmod;
        return;
    }
    const rl_column_desc *col = &rel->desc->cols[i];
    *name = col->name;
    *oid = rl_type_oid(col->type);
    *typmod = col->typmod > 0 ? col->typmod : -1;
}

int rl_relation_of_rowtype(rl_exec *x, uint32_t oid, rl_relation *out)
{
    for (rl_temp_table *t = x->s ? x->s->temps : NULL; t; t = t->next)
        if (rl_rowtype_oid(rl_pgcatalog_rel_oid("pg_temp", t->name)) == oid)
            return lookup_at(x, "pg_temp", t->name, -1, out) < 0 ? -1 : 1;
    char schema[64], name[64];
    int r = rl_pgcatalog_rowtype_table(x, oid, schema, name);
    if (r <= 0)
        return r;
    return lookup_at(x, schema, name, -1, out) < 0 ? -1 : 1;
}

void rl_object_name(const char *name1, const char *name2, const char *label, char *out)
{
    size_t overhead = 1 + strlen(label) + 1; /* both underscores and the label */
    size_t avail = RL_INDEX_NAME_MAX - 1 - overhead;
    size_t n1 = strlen(name1), n2 = strlen(name2);
    while (n1 + n2 > avail) {
        if (n1 > n2)
            n1--;
        else
            n2--;
    }
    n1 = rl_utf8_clip(name1, n1);
    n2 = rl_utf8_clip(name2, n2);
    snprintf(out, RL_INDEX_NAME_MAX, "%.*s_%.*s_%s", (int)n1, name1, (int)n2, name2, label);
}
