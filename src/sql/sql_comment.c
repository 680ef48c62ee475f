/*
 * sql_comment.c — COMMENT ON TABLE / COLUMN / INDEX / SCHEMA, and the
 * comments following their table's DDL.
 *
 * Owns: checking a COMMENT statement as PostgreSQL 15 checks it (the object
 * must exist and be of the kind named: 42P01, 42703, 42704, 3F000, 42809;
 * a system catalog's is 42501) and recording or removing the text in the
 * catalog (rl_txn_set_comment); what happens to a table's comments when the
 * table is dropped or renamed, or a column renamed or dropped
 * (rl_comment_table_changed), and to an index's (rl_comment_index_changed).
 * sql_pgcatalog.c shows them (pg_description, obj_description,
 * col_description, psql's \d+ and \dt+).
 *
 * Invariants: a comment names an object that exists when it is written;
 * comments are keyed by names, so each DDL that renames or drops an object
 * moves or drops its comments in the same transaction; an empty comment
 * removes one (PostgreSQL's CreateComments). Tag "COMMENT".
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sql/sql_exec.h"
#include "sql/sql_relation.h"
#include "sql/sql_scan.h"
#include "sql/sql_stmt.h"

/* The object's names: [schema,] relation [, column] of a List of String;
 * 0, or -1 (42601) when it has another shape. */
static int object_names(rl_exec *x, const PgQuery__Node *obj, size_t tail, const char **schema,
                        const char **relation, const char **column)
{
    *schema = "public";
    *column = "";
    if (!obj || obj->node_case != PG_QUERY__NODE__NODE_LIST || obj->list->n_items < 1 + tail ||
        obj->list->n_items > 2 + tail)
        return rl_exec_error(x, RL_SQLSTATE_SYNTAX_ERROR, -1, "improper qualified name");
    const PgQuery__List *l = obj->list;
    for (size_t i = 0; i < l->n_items; i++)
        if (l->items[i]->node_case != PG_QUERY__NODE__NODE_STRING)
            return rl_exec_error(x, RL_SQLSTATE_SYNTAX_ERROR, -1, "improper qualified name");
    size_t n = l->n_items;
    if (tail)
        *column = l->items[--n]->string->sval;
    *relation = l->items[n - 1]->string->sval;
    if (n == 2)
        *schema = l->items[0]->string->sval;
    return 0;
}

/* The stored table schema.name (42P01 if none; a system catalog's
 * comments are 42501 as for a role that does not own it, "must be owner
 * of <what>" (what NULL: COMMENT ON INDEX, 42809 first); a temporary
 * table's are not kept: 0A000). */
static int comment_table(rl_exec *x, const char *schema, const char *name, bool explicit_schema,
                         const char *what, rl_relation *rel)
{
    PgQuery__RangeVar rv = PG_QUERY__RANGE_VAR__INIT;
    rv.schemaname = explicit_schema ? (char *)schema : NULL;
    rv.relname = (char *)name;
    rv.location = -1;
    if (rl_relation_resolve(x, &rv, rel) < 0)
        return -1;
    if (rel->kind == RL_REL_VIRTUAL && !what) /* COMMENT ON INDEX: the kind comes first */
        return rl_exec_error(x, RL_SQLSTATE_WRONG_OBJECT_TYPE, -1, "\"%s\" is not an index",
                             rel->name);
    if (rel->kind == RL_REL_VIRTUAL)
        return rl_exec_error(x, RL_SQLSTATE_INSUFFICIENT_PRIVILEGE, -1,
                             "must be owner of %s %s", what, rel->name);
    if (rel->kind != RL_REL_STORED)
        return rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                             "RockLake keeps no comments on temporary tables");
    return 0;
}

static bool has_column(rl_exec *x, const rl_relation *rel, const char *column, int *err)
{
    rl_rowset *shape = rl_relation_shape(x, rel, rel->name);
    *err = shape ? 0 : -1;
    bool found = false;
    for (size_t c = 0; shape && c < shape->ncols && !found; c++)
        found = shape->cols[c].attnum > 0 && strcmp(shape->cols[c].name, column) == 0;
    rl_rowset_free(shape);
    return found;
}

static int comment_relation(rl_exec *x, rl_txn *txn, const PgQuery__CommentStmt *st,
                            const char *text)
{
    bool column = st->objtype == PG_QUERY__OBJECT_TYPE__OBJECT_COLUMN;
    const char *schema = "public", *name = NULL, *col = "";
    if (object_names(x, st->object, column ? 1 : 0, &schema, &name, &col) < 0)
        return -1;
    bool explicit_schema = st->object->list->n_items == (column ? 3u : 2u);
    if (explicit_schema && !rl_txn_schema_exists(txn, schema))
        return rl_exec_error(x, RL_SQLSTATE_INVALID_SCHEMA_NAME, -1, "schema \"%s\" does not exist",
                             schema);
    rl_index_def idx;
    int is_index = rl_txn_find_index(txn, schema, name, &idx, x->err);
    if (is_index < 0)
        return -1;
    if (is_index) {
        if (st->objtype == PG_QUERY__OBJECT_TYPE__OBJECT_TABLE)
            return rl_exec_error(x, RL_SQLSTATE_WRONG_OBJECT_TYPE, -1, "\"%s\" is not a table",
                                 name);
        if (column) /* an index's columns take no comments of their own here */
            return rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                                 "RockLake keeps no comments on the columns of an index");
        return rl_txn_set_comment(txn, schema, name, "", text, x->err);
    }
    rl_relation rel;
    const char *what = column                                            ? "relation"
                       : st->objtype == PG_QUERY__OBJECT_TYPE__OBJECT_INDEX ? NULL
                                                                          : "table";
    if (comment_table(x, schema, name, explicit_schema, what, &rel) < 0)
        return -1;
    if (st->objtype == PG_QUERY__OBJECT_TYPE__OBJECT_INDEX)
        return rl_exec_error(x, RL_SQLSTATE_WRONG_OBJECT_TYPE, -1, "\"%s\" is not an index",
                             rel.name);
    if (column) {
        int err;
        bool found = has_column(x, &rel, col, &err);
        if (err < 0)
            return -1;
        if (!found)
            return rl_exec_error(x, RL_SQLSTATE_UNDEFINED_COLUMN, -1,
                                 "column \"%s\" of relation \"%s\" does not exist", col, rel.name);
    }
    return rl_txn_set_comment(txn, rel.schema, rel.name, col, text, x->err);
}

int rl_ddl_comment(rl_exec *x, const PgQuery__CommentStmt *st)
{
    const char *text = st->comment && st->comment[0] ? st->comment : NULL;
    rl_txn *txn = rl_exec_txn(x);
    if (!txn)
        return -1;
    int rc;
    switch (st->objtype) {
    case PG_QUERY__OBJECT_TYPE__OBJECT_TABLE:
    case PG_QUERY__OBJECT_TYPE__OBJECT_COLUMN:
    case PG_QUERY__OBJECT_TYPE__OBJECT_INDEX:
        rc = comment_relation(x, txn, st, text);
        break;
    case PG_QUERY__OBJECT_TYPE__OBJECT_SCHEMA: {
        const char *schema = st->object && st->object->node_case == PG_QUERY__NODE__NODE_STRING
                                 ? st->object->string->sval
                                 : NULL;
        if (!schema)
            rc = rl_exec_error(x, RL_SQLSTATE_SYNTAX_ERROR, -1, "improper schema name");
        else if (!rl_txn_schema_exists(txn, schema))
            rc = rl_exec_error(x, RL_SQLSTATE_INVALID_SCHEMA_NAME, -1,
                               "schema \"%s\" does not exist", schema);
        else
            rc = rl_txn_set_comment(txn, schema, "", "", text, x->err);
        break;
    }
    default:
        rc = rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                           "RockLake keeps comments on tables, columns, indexes and schemas only");
        break;
    }
    return rc < 0 ? -1 : rl_send_complete(x, "COMMENT");
}

/* ------------------------------------------------- following their DDL */

/* One comment of a relation (rl_comment_visitor ctx): kept for the caller
 * to move or drop after the scan. */
typedef struct comment_entry {
    char col[RL_INDEX_NAME_MAX];
    char *text; /* malloc'd */
} comment_entry;

typedef struct comment_list {
    comment_entry *e;
    size_t n, cap;
} comment_list;

static int collect_comment(void *ctx, const char *schema, const char *relation,
                           const char *column, const char *text)
{
    comment_list *l = ctx;
    comment_entry *grown = rl_array_reserve(l->e, l->n, &l->cap, sizeof *grown, 8);
    if (!grown)
        return -1;
    l->e = grown;
    if (!(l->e[l->n].text = strdup(text)))
        return -1;
    snprintf(l->e[l->n++].col, RL_INDEX_NAME_MAX, "%s", column);
    return 0;
}

static void comment_list_free(comment_list *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->e[i].text);
    free(l->e);
}

int rl_comment_table_changed(rl_exec *x, rl_txn *txn, const char *schema, const char *table,
                             const rl_table_change *ch)
{
    comment_list l = {0};
    int rc = rl_txn_list_comments(txn, schema, table, collect_comment, &l, x->err);
    if (rc != 0 && !x->err->sqlstate[0])
        rl_exec_error(x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    for (size_t i = 0; rc == 0 && i < l.n; i++) {
        const char *col = l.e[i].col;
        bool moves = ch->new_table || (ch->old_column && strcmp(col, ch->old_column) == 0);
        bool drops = ch->dropped_table || (ch->dropped_column && strcmp(col, ch->dropped_column) == 0);
        if (!moves && !drops)
            continue;
        rc = rl_txn_set_comment(txn, schema, table, col, NULL, x->err);
        if (rc == 0 && moves && !drops)
            rc = rl_txn_set_comment(txn, schema, ch->new_table ? ch->new_table : table,
                                    ch->old_column && strcmp(col, ch->old_column) == 0
                                        ? ch->new_column
                                        : col,
                                    l.e[i].text, x->err);
    }
    comment_list_free(&l);
    return rc < 0 ? -1 : 0;
}
