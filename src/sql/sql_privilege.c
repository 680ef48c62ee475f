/*
 * sql_privilege.c — what a read-only role may do: a session whose user may
 * read its database but not write it (rl_session_info.read_only_role, from
 * the hba rule that admitted it: access=read-only).
 *
 * Such a session is a PostgreSQL role that has pg_read_all_data and owns
 * nothing: it reads every relation, and it may make and change its own
 * temporary tables and sequences (PostgreSQL grants TEMP on a database to
 * PUBLIC). Every
 * other write gets 42501 with the message PostgreSQL 15 gives that role:
 *   INSERT, UPDATE, DELETE, COPY FROM, TRUNCATE, LOCK beyond ACCESS SHARE,
 *   SELECT ... FOR UPDATE/SHARE          permission denied for table T
 *   CREATE TABLE / VIEW / TABLE AS
 *   / SEQUENCE                           permission denied for schema S
 *   nextval, setval of a sequence        permission denied for sequence S
 *                                        (sql_seq.c)
 *   CREATE SCHEMA                        permission denied for database D
 *   DROP / ALTER / RENAME / CREATE INDEX
 *   / COMMENT of a table (a sequence)    must be owner of table T (sequence S)
 *   COMMENT of a column                  must be owner of relation T
 *   DROP / ALTER of a schema             must be owner of schema S
 *   CHECKPOINT                           must be superuser or have ...
 *   CREATE ROLE                          permission denied to create role
 * A name that does not resolve (a relation, or a column INSERT or UPDATE
 * names) is left to the statement, which reports it (42P01 / 42703, or IF
 * EXISTS's notice) as PostgreSQL's analysis does before it checks
 * privileges.
 *
 * Invariant: rl_privilege_check runs before a statement of a read-only
 * session does anything; and whatever slips past it, a read-only session's
 * transaction that holds a write never commits (rl_privilege_commit, called
 * by sql.c before each commit), so nothing a read-only user sends changes
 * a lake.
 */
#include <string.h>

#include "base/error.h"
#include "catalog/catalog.h"
#include "sql/sql_exec.h"
#include "sql/sql_relation.h"
#include "sql/sql_scan.h"
#include "sql/sql_stmt.h"

/* The relation `rv` names, or false when it does not resolve (then the
 * statement itself reports that, and *err is cleared). */
static bool resolve_quietly(rl_exec *x, const PgQuery__RangeVar *rv, rl_relation *rel)
{
    if (rl_relation_resolve(x, rv, rel) == 0)
        return true;
    rl_error_clear(x->err);
    return false;
}

static int denied_table(rl_exec *x, const rl_relation *rel)
{
    return rl_exec_error(x, RL_SQLSTATE_INSUFFICIENT_PRIVILEGE, -1,
                         "permission denied for table %s", rel->name);
}

static int not_owner_table(rl_exec *x, const rl_relation *rel)
{
    return rl_exec_error(x, RL_SQLSTATE_INSUFFICIENT_PRIVILEGE, -1, "must be owner of %s %s",
                         rel->kind == RL_REL_SEQUENCE ? "sequence" : "table", rel->name);
}

/* The session's own temporary table or sequence (PostgreSQL grants TEMP
 * to PUBLIC: a read-only role makes and changes them). */
static bool own_temp(const rl_relation *rel)
{
    return rel->kind == RL_REL_TEMP ||
           (rel->kind == RL_REL_SEQUENCE && strcmp(rel->schema, "pg_temp") == 0);
}

int rl_privilege_table_write(rl_exec *x, const rl_relation *rel)
{
    if (!x->s->read_only_role || own_temp(rel))
        return 0;
    return denied_table(x, rel);
}

/* A write to the relation rv names: 42501 unless it is the session's own
 * temporary table (or does not resolve). */
static int check_write(rl_exec *x, const PgQuery__RangeVar *rv,
                       int (*denied)(rl_exec *, const rl_relation *))
{
    rl_relation rel;
    if (!rv || !resolve_quietly(x, rv, &rel) || own_temp(&rel))
        return 0;
    return denied(x, &rel);
}

/* Does every name of targets (ResTargets: INSERT's column list, UPDATE's
 * SET) name a column of rel? A statement that names one that does not
 * fails its analysis with 42703 before PostgreSQL checks privileges. */
static bool columns_exist(rl_exec *x, const rl_relation *rel, PgQuery__Node *const *targets,
                          size_t n)
{
    if (n == 0)
        return true;
    rl_rowset *shape = rl_relation_shape(x, rel, rel->name);
    if (!shape) {
        rl_error_clear(x->err);
        return false;
    }
    bool all = true;
    for (size_t i = 0; i < n && all; i++) {
        const PgQuery__ResTarget *t = targets[i]->node_case == PG_QUERY__NODE__NODE_RES_TARGET
                                          ? targets[i]->res_target
                                          : NULL;
        bool found = !t || !t->name;
        for (size_t c = 0; t && t->name && c < shape->ncols && !found; c++)
            found = strcmp(shape->cols[c].name, t->name) == 0;
        all = found;
    }
    rl_rowset_free(shape);
    return all;
}

/* INSERT / UPDATE: 42501 as check_write, unless a target column does not
 * exist (the statement reports that first, as PostgreSQL's analysis does). */
static int check_dml_targets(rl_exec *x, const PgQuery__RangeVar *rv,
                             PgQuery__Node *const *targets, size_t n)
{
    rl_relation rel;
    if (!rv || !resolve_quietly(x, rv, &rel) || own_temp(&rel) ||
        !columns_exist(x, &rel, targets, n))
        return 0;
    return denied_table(x, &rel);
}

static bool names_temp(const PgQuery__RangeVar *rv)
{
    return (rv->relpersistence && rv->relpersistence[0] == 't') ||
           (rv->schemaname && strncmp(rv->schemaname, "pg_temp", 7) == 0);
}

/* The schema a new relation would land in: the one named, else the first
 * of the search path (RockLake's is public). */
static int denied_schema(rl_exec *x, const PgQuery__RangeVar *rv, bool with_position)
{
    const char *schema = rv->schemaname && rv->schemaname[0] ? rv->schemaname : "public";
    return rl_exec_error(x, RL_SQLSTATE_INSUFFICIENT_PRIVILEGE, with_position ? rv->location : -1,
                         "permission denied for schema %s", schema);
}

/* A table named by a DROP / COMMENT object: a List of String (schema,
 * name), or a name alone. */
static bool object_as_rangevar(const PgQuery__Node *obj, PgQuery__RangeVar *rv)
{
    if (!obj || obj->node_case != PG_QUERY__NODE__NODE_LIST)
        return false;
    const PgQuery__List *l = obj->list;
    if (l->n_items < 1 || l->n_items > 2)
        return false;
    for (size_t i = 0; i < l->n_items; i++)
        if (l->items[i]->node_case != PG_QUERY__NODE__NODE_STRING)
            return false;
    pg_query__range_var__init(rv);
    rv->schemaname = l->n_items == 2 ? l->items[0]->string->sval : NULL;
    rv->relname = l->items[l->n_items - 1]->string->sval;
    rv->location = -1;
    return true;
}

static const char *object_as_name(const PgQuery__Node *obj)
{
    return obj && obj->node_case == PG_QUERY__NODE__NODE_STRING ? obj->string->sval : NULL;
}

/* DROP SCHEMA / ALTER SCHEMA of schema `name`: not its owner, if it exists. */
static int check_schema_owner(rl_exec *x, const char *name)
{
    rl_txn *txn = name ? rl_exec_txn(x) : NULL;
    if (!txn) {
        rl_error_clear(x->err);
        return 0;
    }
    if (!rl_txn_schema_exists(txn, name))
        return 0;
    return rl_exec_error(x, RL_SQLSTATE_INSUFFICIENT_PRIVILEGE, -1, "must be owner of schema %s",
                         name);
}

/* DROP INDEX / ALTER INDEX of an index (CREATE INDEX's) the names hold:
 * not its owner. Any other name is left to the statement. */
static int check_index_owner(rl_exec *x, const char *schema, const char *name)
{
    rl_txn *txn = name ? rl_exec_txn(x) : NULL;
    rl_index_def d;
    if (!txn || rl_txn_find_index(txn, schema && schema[0] ? schema : "public", name, &d,
                                  x->err) != 1) {
        rl_error_clear(x->err);
        return 0;
    }
    return rl_exec_error(x, RL_SQLSTATE_INSUFFICIENT_PRIVILEGE, -1, "must be owner of index %s",
                         name);
}

static int check_drop(rl_exec *x, const PgQuery__DropStmt *st)
{
    for (size_t i = 0; i < st->n_objects; i++) {
        PgQuery__RangeVar rv;
        int rc = 0;
        if ((st->remove_type == PG_QUERY__OBJECT_TYPE__OBJECT_TABLE ||
             st->remove_type == PG_QUERY__OBJECT_TYPE__OBJECT_SEQUENCE) &&
            object_as_rangevar(st->objects[i], &rv))
            rc = check_write(x, &rv, not_owner_table);
        else if (st->remove_type == PG_QUERY__OBJECT_TYPE__OBJECT_INDEX &&
                 object_as_rangevar(st->objects[i], &rv))
            rc = check_index_owner(x, rv.schemaname, rv.relname);
        else if (st->remove_type == PG_QUERY__OBJECT_TYPE__OBJECT_SCHEMA)
            rc = check_schema_owner(x, object_as_name(st->objects[i]));
        if (rc < 0)
            return -1;
    }
    return 0;
}

static int check_rename(rl_exec *x, const PgQuery__RenameStmt *st)
{
    if (st->rename_type == PG_QUERY__OBJECT_TYPE__OBJECT_SCHEMA)
        return check_schema_owner(x, st->subname);
    if (st->relation && check_index_owner(x, st->relation->schemaname, st->relation->relname) < 0)
        return -1;
    return check_write(x, st->relation, not_owner_table);
}

static int not_owner_relation(rl_exec *x, const rl_relation *rel)
{
    return rl_exec_error(x, RL_SQLSTATE_INSUFFICIENT_PRIVILEGE, -1,
                         "must be owner of relation %s", rel->name);
}

/* COMMENT ON TABLE names a table, COMMENT ON COLUMN a relation's column:
 * PostgreSQL's messages say "table" and "relation". */
static int check_comment(rl_exec *x, const PgQuery__CommentStmt *st)
{
    PgQuery__RangeVar rv;
    if (st->objtype == PG_QUERY__OBJECT_TYPE__OBJECT_TABLE && object_as_rangevar(st->object, &rv))
        return check_write(x, &rv, not_owner_table);
    if (st->objtype == PG_QUERY__OBJECT_TYPE__OBJECT_COLUMN &&
        st->object->node_case == PG_QUERY__NODE__NODE_LIST && st->object->list->n_items >= 2) {
        /* (schema,) table, column: the table is all but the last name */
        PgQuery__List l = *st->object->list;
        l.n_items--;
        PgQuery__Node table = {.node_case = PG_QUERY__NODE__NODE_LIST, .list = &l};
        if (object_as_rangevar(&table, &rv))
            return check_write(x, &rv, not_owner_relation);
    }
    return 0;
}

static int check_locking(rl_exec *x, const PgQuery__SelectStmt *st)
{
    if (!st->n_locking_clause)
        return 0;
    /* FOR UPDATE/SHARE needs UPDATE on every table it locks: those named
     * in OF, else each table of FROM */
    for (size_t i = 0; i < st->n_from_clause; i++) {
        const PgQuery__Node *f = st->from_clause[i];
        if (f->node_case == PG_QUERY__NODE__NODE_RANGE_VAR &&
            check_write(x, f->range_var, denied_table) < 0)
            return -1;
    }
    return 0;
}

static int check_truncate(rl_exec *x, const PgQuery__TruncateStmt *st)
{
    for (size_t i = 0; i < st->n_relations; i++)
        if (st->relations[i]->node_case == PG_QUERY__NODE__NODE_RANGE_VAR &&
            check_write(x, st->relations[i]->range_var, denied_table) < 0)
            return -1;
    return 0;
}

static int denied_database(rl_exec *x)
{
    return rl_exec_error(x, RL_SQLSTATE_INSUFFICIENT_PRIVILEGE, -1,
                         "permission denied for database %s", x->s->eng->database);
}

int rl_privilege_check(rl_exec *x, const PgQuery__Node *n)
{
    if (!x->s->read_only_role)
        return 0;
    switch (n->node_case) {
    case PG_QUERY__NODE__NODE_SELECT_STMT:
        return check_locking(x, n->select_stmt);
    case PG_QUERY__NODE__NODE_INSERT_STMT:
        return check_dml_targets(x, n->insert_stmt->relation, n->insert_stmt->cols,
                                 n->insert_stmt->n_cols);
    case PG_QUERY__NODE__NODE_UPDATE_STMT:
        return check_dml_targets(x, n->update_stmt->relation, n->update_stmt->target_list,
                                 n->update_stmt->n_target_list);
    case PG_QUERY__NODE__NODE_DELETE_STMT:
        return check_write(x, n->delete_stmt->relation, denied_table);
    case PG_QUERY__NODE__NODE_COPY_STMT:
        return n->copy_stmt->is_from ? check_write(x, n->copy_stmt->relation, denied_table) : 0;
    case PG_QUERY__NODE__NODE_TRUNCATE_STMT:
        return check_truncate(x, n->truncate_stmt);
    case PG_QUERY__NODE__NODE_CREATE_STMT:
        return names_temp(n->create_stmt->relation)
                   ? 0
                   : denied_schema(x, n->create_stmt->relation, true);
    case PG_QUERY__NODE__NODE_CREATE_TABLE_AS_STMT: {
        const PgQuery__IntoClause *into = n->create_table_as_stmt->into;
        return !into || !into->rel || names_temp(into->rel) ? 0 : denied_schema(x, into->rel, true);
    }
    case PG_QUERY__NODE__NODE_CREATE_SEQ_STMT: /* RangeVarGetAndCheckCreationNamespace's */
        return names_temp(n->create_seq_stmt->sequence)
                   ? 0
                   : denied_schema(x, n->create_seq_stmt->sequence, false);
    case PG_QUERY__NODE__NODE_ALTER_SEQ_STMT:
        return check_write(x, n->alter_seq_stmt->sequence, not_owner_table);
    case PG_QUERY__NODE__NODE_VIEW_STMT:
        return names_temp(n->view_stmt->view) ? 0 : denied_schema(x, n->view_stmt->view, false);
    case PG_QUERY__NODE__NODE_CREATE_SCHEMA_STMT:
        return denied_database(x);
    case PG_QUERY__NODE__NODE_DROP_STMT:
        return check_drop(x, n->drop_stmt);
    case PG_QUERY__NODE__NODE_ALTER_TABLE_STMT:
        return check_write(x, n->alter_table_stmt->relation, not_owner_table);
    case PG_QUERY__NODE__NODE_RENAME_STMT:
        return check_rename(x, n->rename_stmt);
    case PG_QUERY__NODE__NODE_INDEX_STMT:
        return check_write(x, n->index_stmt->relation, not_owner_table);
    case PG_QUERY__NODE__NODE_COMMENT_STMT:
        return check_comment(x, n->comment_stmt);
    case PG_QUERY__NODE__NODE_CHECK_POINT_STMT:
        return rl_exec_error(x, RL_SQLSTATE_INSUFFICIENT_PRIVILEGE, -1,
                             "must be superuser or have privileges of pg_checkpoint to do "
                             "CHECKPOINT");
    case PG_QUERY__NODE__NODE_CREATE_ROLE_STMT:
        return rl_exec_error(x, RL_SQLSTATE_INSUFFICIENT_PRIVILEGE, -1,
                             "permission denied to create role");
    default:
        return 0;
    }
}

int rl_privilege_statement(rl_exec *x)
{
    rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                  "RockLake takes its roles and privileges from its users and hba files, not "
                  "from SQL statements");
    rl_error_hint(x->err, "Give a user read-only access with access=read-only on the --hba rule "
                          "that admits it (docs/operations.md, \"Roles\").");
    return -1;
}

int rl_privilege_commit(const rl_session *s, rl_error *err)
{
    if (!s->read_only_role)
        return 0;
    for (size_t i = 0; i < s->nlakes; i++)
        if (s->lakes[i].txn && rl_txn_has_writes(s->lakes[i].txn))
            return rl_error_set(err, RL_SQLSTATE_INSUFFICIENT_PRIVILEGE,
                                "permission denied for database %s: this user may only read it",
                                s->eng->database);
    return 0;
}
