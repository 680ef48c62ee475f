/*
 * sql_ddl.c — CREATE/DROP/ALTER TABLE, CREATE SCHEMA and session temporary
 * tables.
 *
 * Owns: mapping DDL onto the catalog's name registry —
 *  - a DuckLake fixed table (rl_desc_by_name in the catalog's format) whose
 *    column list matches the descriptor exactly (names, order, types, NOT
 *    NULL, PRIMARY KEY) is registered with rl_txn_register_fixed; trailing
 *    nullable columns beyond the format's are the table's own (ducklakepy's
 *    "1.1" adds some) and extend it (rl_txn_register_fixed_ext, and ADD
 *    COLUMN through rl_txn_extend_fixed); a ducklake_* descriptor name with
 *    other columns is refused (0A000 naming the first difference), because
 *    its rows are stored in the fixed layout;
 *  - every other table (ducklake_inlined_data_*, _inlined_delete_*, ...)
 *    becomes a dynamic table (rl_txn_create_dynamic);
 *  - CREATE [LOCAL] TEMP TABLE lives in the session (x->s->temps), with ON
 *    COMMIT DROP honoured by rl_ddl_end_transaction; its NOT NULLs and keys
 *    (sql_index.c) live with it. A statement outside a block is its own
 *    transaction: the temporary tables it changes come back if it fails.
 * ALTER TABLE changes dynamic and temp tables by rebuilding them (the
 * catalog has no in-place ALTER of a definition). Fixed tables have the
 * descriptor's shape for the catalog's format, which is chosen when the
 * catalog is created: an ADD COLUMN the format already has (the 1.0 -> 1.1
 * additions on a 1.1 catalog, with IF NOT EXISTS) is a no-op with
 * PostgreSQL's notice; any other change of a fixed table is 0A000.
 *
 * Invariants: notices and tags are PostgreSQL 15's ("CREATE TABLE",
 * "CREATE SCHEMA", "DROP TABLE", "ALTER TABLE"; 42P07/42P06/00000 skipping
 * notices). Temp tables created by a transaction that rolls back are gone.
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sql/sql_absent.h"
#include "sql/sql_cast.h"
#include "sql/sql_check.h"
#include "sql/sql_default.h"
#include "sql/sql_exec.h"
#include "sql/sql_expr.h"
#include "sql/sql_parse.h"
#include "sql/sql_relation.h"
#include "sql/sql_scan.h"
#include "sql/sql_seq.h"
#include "sql/sql_stmt.h"
#include "sql/sql_value.h"

static int oom(rl_exec *x)
{
    return rl_exec_error(x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
}

static int notice(rl_exec *x, const char *sqlstate, const char *fmt, const char *a,
                  const char *b)
{
    rl_error n;
    memset(&n, 0, sizeof n);
    rl_error_set(&n, sqlstate, fmt, a, b);
    if (x->sink && x->sink->notice)
        x->sink->notice(x->sink->ctx, &n);
    return 0;
}

static const char *schema_of(const PgQuery__RangeVar *rv)
{
    return rv->schemaname && rv->schemaname[0] ? rv->schemaname : "public";
}

static bool is_temp(const PgQuery__RangeVar *rv)
{
    return rv->relpersistence && rv->relpersistence[0] == 't';
}

static rl_temp_table *temp_find(rl_session *s, const char *name)
{
    for (rl_temp_table *t = s->temps; t; t = t->next)
        if (strcmp(t->name, name) == 0)
            return t;
    return NULL;
}

static void temp_free(rl_temp_table *t)
{
    while (t->keys) {
        rl_temp_key *k = t->keys;
        t->keys = k->next;
        rl_index_temp_key_free(k);
    }
    rl_check_free_temp(&t->checks);
    rl_rowset_free(t->rows);
    rl_default_free_temp(t);
    free(t);
}

static void temp_unlink(rl_session *s, rl_temp_table *dead)
{
    for (rl_temp_table **pp = &s->temps; *pp; pp = &(*pp)->next)
        if (*pp == dead) {
            *pp = dead->next;
            temp_free(dead);
            return;
        }
}

/* ------------------------------------------------------ column lists */

typedef struct col_spec {
    const char *name;
    uint32_t oid;
    int32_t typmod;
    bool not_null, pk, unique, check;
    int location;
    const PgQuery__Node *def; /* DEFAULT expression, or NULL */
    bool references;          /* REFERENCES: a FOREIGN KEY made after the table */
    uint8_t serial;           /* smallserial / serial / bigserial: 2, 4, 8 bytes; 0 none */
    char identity;            /* GENERATED ALWAYS ('a') / BY DEFAULT ('d') AS IDENTITY, 0 */
    const PgQuery__Constraint *identity_con; /* its sequence options */
    bool default_and_identity; /* a serial's and an identity: 42601 (transformColumnDefinition) */
    uint32_t seq_oid; /* ADD COLUMN's serial / identity: its sequence fills the rows */
} col_spec;

/* transformColumnDefinition's checks of one column's clauses, in their
 * order: NULL against NOT NULL (an identity is NOT NULL), a second DEFAULT,
 * a second identity, a DEFAULT beside an identity (42601 at the clause that
 * makes the conflict). */
typedef struct clause_seen {
    const char *table;     /* for the messages */
    bool nullable, is_null; /* a NULL / NOT NULL (or identity) seen; the last was NULL */
    bool def;
} clause_seen;

static int column_conflict(rl_exec *x, const col_spec *cs, const clause_seen *seen, int location,
                           const char *what)
{
    return rl_exec_error(x, RL_SQLSTATE_SYNTAX_ERROR, location,
                         "%s for column \"%s\" of table \"%s\"", what, cs->name, seen->table);
}

/* A NULL (null true) or NOT NULL clause at location: 0 or -1 */
static int nullability(rl_exec *x, col_spec *cs, clause_seen *seen, bool null, int location)
{
    if (seen->nullable && seen->is_null != null)
        return column_conflict(x, cs, seen, location, "conflicting NULL/NOT NULL declarations");
    seen->nullable = true;
    seen->is_null = null;
    cs->not_null = !null;
    return 0;
}

static int constraint_apply(rl_exec *x, const PgQuery__Constraint *c, col_spec *cs,
                            clause_seen *seen)
{
    switch (c->contype) {
    case PG_QUERY__CONSTR_TYPE__CONSTR_NOTNULL: return nullability(x, cs, seen, false, c->location);
    case PG_QUERY__CONSTR_TYPE__CONSTR_NULL: return nullability(x, cs, seen, true, c->location);
    case PG_QUERY__CONSTR_TYPE__CONSTR_PRIMARY: cs->pk = true; return 0;
    case PG_QUERY__CONSTR_TYPE__CONSTR_UNIQUE: cs->unique = true; return 0;
    case PG_QUERY__CONSTR_TYPE__CONSTR_FOREIGN: cs->references = true; return 0; /* sql_fkey.c */
    case PG_QUERY__CONSTR_TYPE__CONSTR_CHECK: cs->check = true; return 0; /* sql_check.c */
    case PG_QUERY__CONSTR_TYPE__CONSTR_DEFAULT:
        if (seen->def)
            return column_conflict(x, cs, seen, c->location, "multiple default values specified");
        seen->def = true;
        if (cs->identity)
            return column_conflict(x, cs, seen, c->location,
                                   "both default and identity specified");
        /* only DEFAULT NULL means the same as no default; ADD COLUMN
         * (alter_cmd) takes any other default for the existing rows */
        if (c->raw_expr && c->raw_expr->node_case == PG_QUERY__NODE__NODE_A_CONST &&
            c->raw_expr->a_const->isnull)
            return 0;
        cs->def = c->raw_expr;
        return 0;
    case PG_QUERY__CONSTR_TYPE__CONSTR_ATTR_DEFERRABLE: /* folded into the one before */
    case PG_QUERY__CONSTR_TYPE__CONSTR_ATTR_NOT_DEFERRABLE:
    case PG_QUERY__CONSTR_TYPE__CONSTR_ATTR_DEFERRED:
    case PG_QUERY__CONSTR_TYPE__CONSTR_ATTR_IMMEDIATE: return 0;
    case PG_QUERY__CONSTR_TYPE__CONSTR_IDENTITY: /* its sequence: create_sequence_defaults */
        if (cs->identity)
            return column_conflict(x, cs, seen, c->location, "multiple identity specifications");
        if (seen->def)
            return column_conflict(x, cs, seen, c->location,
                                   "both default and identity specified");
        /* a serial's DEFAULT comes after its clauses: column_sequence_create */
        cs->default_and_identity |= cs->serial != 0;
        cs->identity = c->generated_when && c->generated_when[0] == 'a' ? 'a' : 'd';
        cs->identity_con = c;
        return nullability(x, cs, seen, false, c->location);
    default:
        return rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, c->location,
                             "this column constraint is not supported by RockLake");
    }
}

/* PostgreSQL's system columns: every table has them, so no column may be
 * named so (42701, with no position, as PostgreSQL's). RockLake's rows
 * answer ctid and tableoid. */
static int not_a_system_column(rl_exec *x, const char *name)
{
    static const char *const system[] = {"tableoid", "cmax", "xmax", "cmin", "xmin", "ctid"};
    for (size_t i = 0; i < sizeof system / sizeof system[0]; i++)
        if (strcmp(name, system[i]) == 0)
            return rl_exec_error(x, RL_SQLSTATE_DUPLICATE_COLUMN, -1,
                                 "column name \"%s\" conflicts with a system column name", name);
    return 0;
}

/* transformColumnDefinition's serial types: a one-part type name
 * smallserial / serial2, serial / serial4, bigserial / serial8 is that
 * integer, NOT NULL, its default the nextval of a sequence made for it
 * (create_serials). 0 (cs->serial set or not), -1 (0A000 for an array). */
static int serial_type(rl_exec *x, const PgQuery__ColumnDef *cd, col_spec *cs)
{
    static const struct {
        const char *name;
        uint32_t oid;
        uint8_t bytes;
    } serials[] = {{"smallserial", RL_OID_INT2, 2}, {"serial2", RL_OID_INT2, 2},
                   {"serial", RL_OID_INT4, 4},      {"serial4", RL_OID_INT4, 4},
                   {"bigserial", RL_OID_INT8, 8},   {"serial8", RL_OID_INT8, 8}};
    const PgQuery__TypeName *tn = cd->type_name;
    const char *name = tn->n_names == 1 ? rl_node_string(tn->names[0]) : NULL;
    if (!name || tn->pct_type)
        return 0;
    for (size_t i = 0; i < sizeof serials / sizeof serials[0]; i++) {
        if (strcmp(name, serials[i].name) != 0)
            continue;
        if (tn->n_array_bounds)
            return rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, tn->location,
                                 "array of serial is not implemented");
        cs->serial = serials[i].bytes;
        cs->oid = serials[i].oid;
        cs->typmod = -1;
        cs->not_null = true;
        return 0;
    }
    return 0;
}

/* Does constraint c take DEFERRABLE / INITIALLY clauses (PostgreSQL's
 * SUPPORTS_ATTRS)? */
static bool takes_attrs(const PgQuery__Constraint *c)
{
    return c->contype == PG_QUERY__CONSTR_TYPE__CONSTR_PRIMARY ||
           c->contype == PG_QUERY__CONSTR_TYPE__CONSTR_UNIQUE ||
           c->contype == PG_QUERY__CONSTR_TYPE__CONSTR_EXCLUSION ||
           c->contype == PG_QUERY__CONSTR_TYPE__CONSTR_FOREIGN;
}

/* PostgreSQL's transformConstraintAttrs over a column's constraints: each
 * DEFERRABLE / NOT DEFERRABLE / INITIALLY clause follows a PRIMARY KEY,
 * UNIQUE or REFERENCES, once each, INITIALLY DEFERRED not with NOT
 * DEFERRABLE (42601 at the clause); 0 or -1. (rl_create_constraints folds
 * them into their constraint.) */
static int column_attrs(rl_exec *x, const PgQuery__ColumnDef *cd)
{
    const PgQuery__Constraint *last = NULL;
    bool saw_deferrability = false, saw_initially = false, deferrable = false, deferred = false;
    for (size_t j = 0; j < cd->n_constraints; j++) {
        const PgQuery__Node *n = cd->constraints[j];
        if (n->node_case != PG_QUERY__NODE__NODE_CONSTRAINT)
            continue;
        const PgQuery__Constraint *c = n->constraint;
        if (!rl_constraint_is_attr(c)) {
            last = c;
            saw_deferrability = saw_initially = false;
            continue;
        }
        bool is_deferrability = c->contype == PG_QUERY__CONSTR_TYPE__CONSTR_ATTR_DEFERRABLE ||
                                c->contype == PG_QUERY__CONSTR_TYPE__CONSTR_ATTR_NOT_DEFERRABLE;
        const char *clause =
            c->contype == PG_QUERY__CONSTR_TYPE__CONSTR_ATTR_DEFERRABLE       ? "DEFERRABLE"
            : c->contype == PG_QUERY__CONSTR_TYPE__CONSTR_ATTR_NOT_DEFERRABLE ? "NOT DEFERRABLE"
            : c->contype == PG_QUERY__CONSTR_TYPE__CONSTR_ATTR_DEFERRED ? "INITIALLY DEFERRED"
                                                                        : "INITIALLY IMMEDIATE";
        if (!last || !takes_attrs(last))
            return rl_exec_error(x, RL_SQLSTATE_SYNTAX_ERROR, c->location,
                                 "misplaced %s clause", clause);
        if (is_deferrability ? saw_deferrability : saw_initially)
            return rl_exec_error(x, RL_SQLSTATE_SYNTAX_ERROR, c->location,
                                 is_deferrability
                                     ? "multiple DEFERRABLE/NOT DEFERRABLE clauses not allowed"
                                     : "multiple INITIALLY IMMEDIATE/DEFERRED clauses not allowed");
        if (is_deferrability) {
            saw_deferrability = true;
            deferrable = c->contype == PG_QUERY__CONSTR_TYPE__CONSTR_ATTR_DEFERRABLE;
        } else {
            saw_initially = true;
            deferred = c->contype == PG_QUERY__CONSTR_TYPE__CONSTR_ATTR_DEFERRED;
        }
        /* INITIALLY DEFERRED implies DEFERRABLE; NOT DEFERRABLE refuses it */
        if (saw_initially && deferred && saw_deferrability && !deferrable)
            return rl_exec_error(x, RL_SQLSTATE_SYNTAX_ERROR, c->location,
                                 "constraint declared INITIALLY DEFERRED must be DEFERRABLE");
    }
    return 0;
}

/* Column cd of table `table` (for messages) into cs. 0 or -1. */
static int column_def(rl_exec *x, const PgQuery__ColumnDef *cd, const char *table, col_spec *cs)
{
    memset(cs, 0, sizeof *cs);
    cs->name = cd->colname;
    cs->location = cd->location;
    if (strlen(cd->colname) >= 64)
        return rl_exec_error(x, RL_SQLSTATE_NAME_TOO_LONG, cd->location,
                             "column name \"%s\" is too long",
                             cd->colname);
    if (not_a_system_column(x, cd->colname) < 0)
        return -1;
    if (!cd->type_name || serial_type(x, cd, cs) < 0 ||
        (!cs->serial && rl_type_from_typename(x, cd->type_name, &cs->oid, &cs->typmod) < 0))
        return -1;
    cs->def = cd->raw_default;
    if (column_attrs(x, cd) < 0)
        return -1;
    bool serial = cs->serial != 0;
    cs->not_null = cd->is_not_null; /* the clauses decide, a serial's last */
    clause_seen seen = {.table = table, .nullable = cd->is_not_null, .def = cs->def != NULL};
    for (size_t i = 0; i < cd->n_constraints; i++)
        if (cd->constraints[i]->node_case == PG_QUERY__NODE__NODE_CONSTRAINT &&
            constraint_apply(x, cd->constraints[i]->constraint, cs, &seen) < 0)
            return -1;
    /* a serial's NOT NULL comes after the column's clauses, at no position */
    if (serial && nullability(x, cs, &seen, false, -1) < 0)
        return -1;
    return 0;
}

/* Table-level PRIMARY KEY / UNIQUE (col, ...): mark the columns. */
static int table_constraint(rl_exec *x, const PgQuery__Constraint *c, col_spec *cols, size_t n)
{
    bool pk = c->contype == PG_QUERY__CONSTR_TYPE__CONSTR_PRIMARY;
    if (c->contype == PG_QUERY__CONSTR_TYPE__CONSTR_FOREIGN)
        return 0; /* made after the table (sql_fkey.c) */
    if (c->contype == PG_QUERY__CONSTR_TYPE__CONSTR_CHECK)
        return 0; /* made with the table (sql_check.c) */
    if (!pk && c->contype != PG_QUERY__CONSTR_TYPE__CONSTR_UNIQUE)
        return rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, c->location,
                             "this table constraint is not supported by RockLake");
    for (size_t k = 0; k < c->n_keys; k++) {
        const char *name = c->keys[k]->string->sval;
        size_t i = 0;
        while (i < n && strcmp(cols[i].name, name) != 0)
            i++;
        if (i == n)
            return rl_exec_error(x, RL_SQLSTATE_UNDEFINED_COLUMN, c->location,
                                 "column \"%s\" named in key does not exist", name);
        if (pk)
            cols[i].pk = true;
        else
            cols[i].unique = true;
    }
    return 0;
}

static int column_list(rl_exec *x, const PgQuery__CreateStmt *st, col_spec *cols, size_t *n)
{
    *n = 0;
    for (size_t i = 0; i < st->n_table_elts; i++) {
        const PgQuery__Node *e = st->table_elts[i];
        if (e->node_case != PG_QUERY__NODE__NODE_COLUMN_DEF)
            continue;
        if (*n == RL_MAX_COLUMNS)
            return rl_exec_error(x, RL_SQLSTATE_TOO_MANY_COLUMNS, -1,
                                 "tables can have at most %d columns in RockLake",
                                 RL_MAX_COLUMNS);
        if (column_def(x, e->column_def, st->relation->relname, &cols[*n]) < 0)
            return -1;
        for (size_t k = 0; k < *n; k++)
            if (strcmp(cols[k].name, cols[*n].name) == 0)
                return rl_exec_error(x, RL_SQLSTATE_DUPLICATE_COLUMN, cols[*n].location,
                                     "column \"%s\" specified more than once", cols[*n].name);
        (*n)++;
    }
    for (size_t i = 0; i < st->n_table_elts; i++) {
        const PgQuery__Node *e = st->table_elts[i];
        if (e->node_case == PG_QUERY__NODE__NODE_CONSTRAINT &&
            table_constraint(x, e->constraint, cols, *n) < 0)
            return -1;
        if (e->node_case != PG_QUERY__NODE__NODE_CONSTRAINT &&
            e->node_case != PG_QUERY__NODE__NODE_COLUMN_DEF)
            return rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                                 "LIKE and other table elements are not supported by RockLake");
    }
    return 0;
}

/* -------------------------------------------------------- temp tables */

static int create_sequence_defaults(rl_exec *x, const char *schema, const char *name,
                                    const col_spec *cols, size_t n);
static int create_key_constraints(rl_exec *x, rl_txn *txn, const char *schema, const char *name,
                                  const PgQuery__CreateStmt *st, rl_temp_table *temp);

/* The first FOREIGN KEY of CREATE TABLE st (a column's REFERENCES, then a
 * table constraint), or NULL. */
static const PgQuery__Constraint *first_foreign_key(const PgQuery__CreateStmt *st)
{
    for (size_t i = 0; i < st->n_table_elts; i++) {
        const PgQuery__Node *e = st->table_elts[i];
        for (size_t j = 0; e->node_case == PG_QUERY__NODE__NODE_COLUMN_DEF &&
                           j < e->column_def->n_constraints;
             j++) {
            const PgQuery__Node *c = e->column_def->constraints[j];
            if (c->node_case == PG_QUERY__NODE__NODE_CONSTRAINT &&
                c->constraint->contype == PG_QUERY__CONSTR_TYPE__CONSTR_FOREIGN)
                return c->constraint;
        }
    }
    for (size_t i = 0; i < st->n_table_elts; i++)
        if (st->table_elts[i]->node_case == PG_QUERY__NODE__NODE_CONSTRAINT &&
            st->table_elts[i]->constraint->contype == PG_QUERY__CONSTR_TYPE__CONSTR_FOREIGN)
            return st->table_elts[i]->constraint;
    return NULL;
}

static int create_temp(rl_exec *x, const PgQuery__CreateStmt *st, const col_spec *cols,
                       size_t n)
{
    const char *name = st->relation->relname;
    if (st->relation->schemaname && st->relation->schemaname[0] &&
        strncmp(st->relation->schemaname, "pg_temp", 7) != 0)
        return rl_exec_error(x, RL_SQLSTATE_INVALID_TABLE_DEFINITION, st->relation->location,
                             "cannot create temporary relation in non-temporary schema");
    const PgQuery__Constraint *fk = first_foreign_key(st); /* after the name's 42P07 */
    if (fk && !rl_index_name_taken(x, NULL, "pg_temp", name))
        return rl_fkey_on_temp(x, fk);
    if (rl_index_name_taken(x, NULL, "pg_temp", name)) { /* a key's index too */
        if (st->if_not_exists)
            return notice(x, RL_SQLSTATE_DUPLICATE_TABLE,
                          "relation \"%s\" already exists, skipping%s", name, "");
        return rl_exec_error(x, RL_SQLSTATE_DUPLICATE_TABLE, -1, "relation \"%s\" already exists",
                             name);
    }
    if (st->oncommit == PG_QUERY__ON_COMMIT_ACTION__ONCOMMIT_DELETE_ROWS)
        return rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                             "ON COMMIT DELETE ROWS is not supported by RockLake");
    /* a transaction must exist so its end (commit or rollback) reaches
     * rl_ddl_end_transaction with the right outcome */
    if (!rl_exec_txn(x))
        return -1;
    rl_temp_table *t = calloc(1, sizeof *t);
    if (!t || !(t->rows = rl_rowset_new(n))) {
        free(t);
        return oom(x);
    }
    snprintf(t->name, sizeof t->name, "%s", name);
    for (size_t i = 0; i < n; i++) {
        rl_colmeta *c = &t->rows->cols[i];
        snprintf(c->name, sizeof c->name, "%s", cols[i].name);
        snprintf(c->rel, sizeof c->rel, "%s", name);
        c->oid = cols[i].oid;
        c->typmod = cols[i].typmod;
        c->attnum = (int16_t)(i + 1);
        t->not_null[i] = cols[i].not_null || cols[i].pk; /* a primary key's are NOT NULL */
    }
    t->next = x->s->temps; /* its keys' names are chosen among the relations, it too */
    x->s->temps = t;
    if (create_key_constraints(x, NULL, "pg_temp", name, st, t) < 0 ||
        rl_check_create_table(x, "pg_temp", name, st) < 0) {
        temp_unlink(x->s, t);
        return -1;
    }
    for (size_t i = 0; i < n; i++) { /* DEFAULT NULL keeps none, as a stored table's */
        if (cols[i].def && !cols[i].serial &&
            rl_default_set_temp(x, t, cols[i].name, cols[i].oid, cols[i].def, 0) < 0) {
            temp_unlink(x->s, t);
            return -1;
        }
    }
    t->on_commit_drop = st->oncommit == PG_QUERY__ON_COMMIT_ACTION__ONCOMMIT_DROP;
    t->created_in_txn = true;
    /* its serial and identity columns' temporary sequences (a failure
     * rolls the statement back: the table and the sequences go) */
    return create_sequence_defaults(x, "pg_temp", name, cols, n);
}

/* Tables put back by a rollback keep the line pointers their rolled-back
 * row versions used (`lines` of the table of the same name in `now`), as
 * a heap keeps its dead tuples: the next row gets the next ctid. */
static void temps_keep_lines(rl_temp_table *restored, const rl_temp_table *now)
{
    for (rl_temp_table *t = restored; t; t = t->next)
        for (const rl_temp_table *n = now; n; n = n->next)
            if (strcmp(n->name, t->name) == 0 && n->lines > t->lines)
                t->lines = n->lines;
}

int rl_ddl_temps_touch(rl_exec *x)
{
    rl_session *s = x->s;
    if (s->temps_saved) /* a statement outside a block is its transaction */
        return 0;
    /* the sequences the tables own come back with them (a rename, a
     * dropped column's or table's sequences swept) */
    if (rl_ddl_temps_copy(s->temps, &s->temps_at_start) < 0 || rl_seq_temps_save(s) < 0)
        return oom(x);
    /* rows the transaction appended before (rl_ddl_temps_touch_append)
     * are not the tables as it found them */
    for (rl_temp_table *t = s->temps, *c = s->temps_at_start; t && c; t = t->next, c = c->next)
        if (t->append_marked && c->rows->nrows > t->append_mark)
            c->rows->nrows = t->append_mark;
    s->temps_saved = true;
    return 0;
}

int rl_ddl_temps_touch_append(rl_exec *x, rl_temp_table *t)
{
    rl_session *s = x->s;
    if (s->in_block || s->temps_saved)
        return rl_ddl_temps_touch(x);
    if (!t->append_marked) {
        t->append_mark = t->rows->nrows;
        t->append_marked = true;
    }
    return 0;
}

void rl_ddl_end_transaction(rl_session *s, bool committed)
{
    if (committed && (s->temps || s->temp_seqs))
        s->temp_ns_kept = true;
    if (s->temps_saved && !committed) { /* as the block found them */
        temps_keep_lines(s->temps_at_start, s->temps);
        rl_ddl_temps_free(s->temps);
        s->temps = s->temps_at_start;
    } else {
        rl_ddl_temps_free(s->temps_at_start);
    }
    s->temps_at_start = NULL;
    s->temps_saved = false;
    rl_temp_table **pp = &s->temps;
    while (*pp) {
        rl_temp_table *t = *pp;
        if (!committed && t->append_marked && t->rows->nrows > t->append_mark) {
            t->rows->nrows = t->append_mark; /* the rows the transaction appended */
            t->edits++;
        }
        t->append_marked = false;
        if ((committed && t->on_commit_drop) || (!committed && t->created_in_txn)) {
            *pp = t->next;
            temp_free(t);
            continue;
        }
        t->created_in_txn = false;
        pp = &t->next;
    }
    /* the temporary sequences end with the tables they follow (a sweep of
     * those whose owner is gone needs the tables as they end up) */
    rl_seq_temps_end_transaction(s, committed);
}

/* One temporary table copied: its columns, rows (strings into the copy's
 * arena), defaults and flags; NULL when out of memory. */
static rl_temp_table *temp_copy(const rl_temp_table *t)
{
    rl_temp_table *c = calloc(1, sizeof *c);
    rl_rowset *rows = c ? rl_rowset_new(t->rows->ncols) : NULL;
    if (!rows) {
        free(c);
        return NULL;
    }
    memcpy(rows->cols, t->rows->cols, t->rows->ncols * sizeof *rows->cols);
    c->rows = rows;
    rl_error ignore;
    for (size_t r = 0; r < t->rows->nrows; r++)
        if (rl_rowset_add(rows, &t->rows->vals[r * t->rows->ncols],
                          t->rows->src ? &t->rows->src[r] : NULL, &ignore) < 0) {
            temp_free(c);
            return NULL;
        }
    if (rl_default_copy_temp(c, t) < 0) {
        temp_free(c);
        return NULL;
    }
    memcpy(c->not_null, t->not_null, sizeof c->not_null);
    if (rl_check_copy_temp(&c->checks, t->checks) < 0) {
        temp_free(c);
        return NULL;
    }
    rl_temp_key **tail = &c->keys;
    for (const rl_temp_key *k = t->keys; k; k = k->next) {
        rl_temp_key *kc = malloc(sizeof *kc);
        if (!kc) {
            temp_free(c);
            return NULL;
        }
        *kc = *k;
        kc->hash = NULL;
        kc->next = NULL;
        *tail = kc;
        tail = &kc->next;
    }
    rl_str_copy(c->name, sizeof c->name, t->name);
    c->on_commit_drop = t->on_commit_drop;
    c->created_in_txn = t->created_in_txn;
    c->lines = t->lines;
    return c;
}

int rl_ddl_temps_copy(const rl_temp_table *list, rl_temp_table **out)
{
    *out = NULL;
    rl_temp_table **tail = out;
    for (const rl_temp_table *t = list; t; t = t->next) {
        rl_temp_table *c = temp_copy(t);
        if (!c) {
            rl_ddl_temps_free(*out);
            *out = NULL;
            return -1;
        }
        *tail = c;
        tail = &c->next;
    }
    return 0;
}

void rl_ddl_temps_free(rl_temp_table *list)
{
    while (list) {
        rl_temp_table *t = list;
        list = t->next;
        temp_free(t);
    }
}

int rl_ddl_temps_restore(rl_session *s, const rl_temp_table *saved)
{
    rl_temp_table *now;
    if (rl_ddl_temps_copy(saved, &now) < 0)
        return -1;
    temps_keep_lines(now, s->temps);
    rl_ddl_temps_free(s->temps);
    s->temps = now;
    return 0;
}

void rl_ddl_free_temps(rl_session *s)
{
    rl_ddl_temps_free(s->temps_at_start);
    s->temps_at_start = NULL;
    s->temps_saved = false;
    while (s->temps) {
        rl_temp_table *t = s->temps;
        s->temps = t->next;
        temp_free(t);
    }
}

/* ------------------------------------------------------- CREATE TABLE */

/* The column a CREATE TABLE or ADD COLUMN adds to a DuckLake table beyond
 * its format's columns (rl_txn_register_fixed_ext): nullable, no key, a
 * stored type. 0, or -1 with 0A000 naming it. */
static int extension_column(rl_exec *x, const rl_table_desc *d, const col_spec *c,
                            rl_column_desc *out)
{
    const char *why = c->pk ? "cannot be a PRIMARY KEY"
                      : c->unique ? "cannot be UNIQUE"
                      : c->not_null ? "must allow NULL"
                      : c->def ? "cannot have a default"
                      : rl_oid_type(c->oid) == RL_T_INVALID ? "has a type RockLake does not store"
                                                            : NULL;
    if (why)
        return rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, c->location,
                             "column \"%s\" that RockLake adds to DuckLake table \"%s\" %s",
                             c->name, d->name, why);
    *out = (rl_column_desc){.name = c->name, .type = rl_oid_type(c->oid), .since = RL_FMT_1_0,
                            .typmod = c->typmod > 0 ? c->typmod : 0};
    return 0;
}

/* Does the CREATE TABLE match the fixed descriptor? 0A000 naming the first
 * difference if not. With `extra`, columns after the format's are the
 * table's own (ducklakepy's 1.1 adds some): checked, and put in extra[0..
 * *nextra). */
static int fixed_matches(rl_exec *x, const rl_table_desc *d, rl_format fmt,
                         const col_spec *cols, size_t n, rl_column_desc *extra, size_t *nextra)
{
    size_t want = rl_desc_ncols(d, fmt);
    const char *fname = rl_format_name(fmt);
    for (size_t i = 0; i < n && i < want; i++) {
        const rl_column_desc *c = &d->cols[i];
        const char *why = NULL;
        if (strcmp(cols[i].name, c->name) != 0)
            why = "has another name";
        else if (cols[i].oid != rl_type_oid(c->type))
            why = "has another type";
        /* a PRIMARY KEY is NOT NULL whether or not it says so (SQLAlchemy
         * writes "snapshot_id BIGINT NOT NULL, ..., PRIMARY KEY (snapshot_id)") */
        else if (cols[i].not_null != c->not_null && !(cols[i].pk && d->pk_col == (int)i))
            why = c->not_null ? "must be NOT NULL" : "must not be NOT NULL";
        else if (cols[i].pk != (d->pk_col == (int)i))
            why = cols[i].pk ? "must not be the PRIMARY KEY" : "must be the PRIMARY KEY";
        else if (cols[i].unique)
            why = "must not be UNIQUE";
        if (why) {
            rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, cols[i].location,
                          "table \"%s\" does not match DuckLake %s: column %zu \"%s\" %s "
                          "(expected \"%s\" %s%s)",
                          d->name, fname, i + 1, cols[i].name, why, c->name, rl_type_name(c->type),
                          c->not_null ? " NOT NULL" : d->pk_col == (int)i ? " PRIMARY KEY" : "");
            return -1;
        }
    }
    if (n > want && extra) {
        for (size_t i = want; i < n; i++)
            if (extension_column(x, d, &cols[i], &extra[i - want]) < 0)
                return -1;
        *nextra = n - want;
        return 0;
    }
    if (n != want) {
        rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                      "table \"%s\" does not match DuckLake %s: it has %zu columns, expected %zu "
                      "(%s \"%s\")",
                      d->name, fname, n, want, n < want ? "missing" : "unexpected",
                      n < want ? d->cols[n].name : cols[want].name);
        return -1;
    }
    if (nextra)
        *nextra = 0;
    return 0;
}

static int create_dynamic(rl_exec *x, rl_txn *txn, const char *schema, const char *name,
                          const col_spec *cols, size_t n)
{
    rl_column_desc dc[RL_MAX_COLUMNS];
    for (size_t i = 0; i < n; i++) {
        rl_type t = rl_oid_type(cols[i].oid);
        if (t == RL_T_INVALID)
            return rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, cols[i].location,
                                 "type %s is not supported for table columns by RockLake",
                                 rl_oid_type_name(cols[i].oid));
        /* a primary key's columns are NOT NULL (its UNIQUE index comes
         * after the table: create_key_constraints) */
        dc[i] = (rl_column_desc){.name = cols[i].name, .type = t,
                                 .not_null = cols[i].not_null || cols[i].pk,
                                 .since = RL_FMT_1_0,
                                 .typmod = cols[i].typmod > 0 ? cols[i].typmod : 0};
    }
    return rl_txn_create_dynamic(txn, schema, name, n, dc, false, x->err) ? 0 : -1;
}

/* Would every DuckLake table registered so far have the same shape in
 * format `to` as in `from`? Then the catalog can still become `to`: DuckLake
 * is creating it with a newer format's tables (DuckDB 2.0 makes 1.1 lakes). */
typedef struct shapes_agree_ctx {
    rl_format from, to;
    bool agree;
} shapes_agree_ctx;

static int note_shape(void *ctx, const char *schema, const char *name, const rl_table_desc *d)
{
    shapes_agree_ctx *c = ctx;
    (void)schema;
    (void)name;
    const rl_table_desc *base = rl_desc_is_dynamic(d) ? NULL : rl_desc_by_tag(d->tag);
    if (base && !base->internal && rl_desc_ncols(base, c->from) != rl_desc_ncols(base, c->to))
        c->agree = false;
    return c->agree ? 0 : 1;
}

/* CREATE TABLE of a DuckLake table whose columns are those of a newer format
 * than the transaction's: switch the catalog to that format if the tables it
 * has so far look the same in both (rl_txn_set_format; the catalog takes it
 * at COMMIT). 0 = switched or nothing to do (fixed_matches then decides),
 * -1 error. */
static int newer_format_creates(rl_exec *x, rl_txn *txn, const rl_table_desc *d,
                                const col_spec *cols, size_t n)
{
    rl_format cur = rl_txn_format(txn);
    rl_error saved = *x->err;
    bool matches_now = rl_desc_in_format(d, cur) && fixed_matches(x, d, cur, cols, n, NULL, NULL) == 0;
    *x->err = saved; /* probes: the caller reports against the format it ends up with */
    if (matches_now)
        return 0;
    for (rl_format f = cur + 1; f <= RL_FMT_LATEST; f++) {
        if (rl_format_parse(rl_format_name(f)) != f || !rl_desc_in_format(d, f))
            continue; /* not a format */
        bool matches = fixed_matches(x, d, f, cols, n, NULL, NULL) == 0;
        *x->err = saved;
        if (!matches)
            continue;
        shapes_agree_ctx c = {cur, f, true};
        if (rl_txn_list_tables(txn, note_shape, &c, x->err) < 0)
            return -1;
        return c.agree ? rl_txn_set_format(txn, f, x->err) : 0;
    }
    return 0;
}

/* The PRIMARY KEY and UNIQUE constraints of a new table, as PostgreSQL
 * makes their indexes (transformIndexConstraints): the primary key first,
 * then the others in order, a second one over the same columns (and NULLS
 * treatment) folded into the first, which takes its name if it has none. */
/* What the walk over CREATE TABLE's constraints collects the key ones in
 * (the primary key first). */
typedef struct key_list {
    rl_exec *x;
    const char *table;
    rl_key_constraint *ks;
    size_t nk, cap;
} key_list;

static int collect_key_constraint(void *ctx, const PgQuery__Constraint *c, const char *column)
{
    key_list *l = ctx;
    rl_key_constraint *ks = l->ks;
    if (l->nk == l->cap)
        return rl_exec_error(l->x, RL_SQLSTATE_PROGRAM_LIMIT_EXCEEDED, -1,
                             "too many key constraints");
    int got = rl_key_constraint_from(l->x, c, column, &ks[l->nk]);
    if (got < 0)
        return -1;
    if (got == 1 && ks[l->nk].primary && l->nk > 0 && ks[0].primary)
        return rl_exec_error(l->x, RL_SQLSTATE_INVALID_TABLE_DEFINITION, c->location,
                             "multiple primary keys for table \"%s\" are not allowed", l->table);
    if (got == 1 && ks[l->nk].primary) { /* first */
        rl_key_constraint pk = ks[l->nk];
        memmove(&ks[1], &ks[0], l->nk * sizeof *ks);
        ks[0] = pk;
    }
    l->nk += got == 1;
    return 0;
}

/* The key constraints of CREATE TABLE st: on stored table schema.name, or
 * (temp not NULL) on that temporary table. 0 or -1. */
static int create_key_constraints(rl_exec *x, rl_txn *txn, const char *schema, const char *name,
                                  const PgQuery__CreateStmt *st, rl_temp_table *temp)
{
    rl_key_constraint *ks = calloc(RL_MAX_COLUMNS * 2 + 1, sizeof *ks);
    if (!ks)
        return oom(x);
    key_list l = {x, name, ks, 0, RL_MAX_COLUMNS * 2 + 1};
    int rc = rl_create_constraints(st, collect_key_constraint, &l) != 0 ? -1 : 0;
    size_t nk = l.nk;
    for (size_t i = 0; rc == 0 && i < nk; i++) {
        bool folded = false;
        for (size_t j = 0; j < i && !folded; j++) {
            if (ks[j].ncols != ks[i].ncols || ks[j].nulls_not_distinct != ks[i].nulls_not_distinct)
                continue;
            size_t c = 0, all = ks[i].ncols + ks[i].ninclude;
            if (ks[j].ninclude != ks[i].ninclude)
                continue;
            while (c < all && strcmp(ks[i].cols[c], ks[j].cols[c]) == 0)
                c++;
            folded = c == all;
            if (folded && !ks[j].name)
                ks[j].name = ks[i].name;
        }
        ks[i].ncols = folded ? 0 : ks[i].ncols; /* 0: made by the one it folded into */
    }
    for (size_t i = 0; rc == 0 && i < nk; i++)
        if (ks[i].ncols)
            rc = temp ? rl_index_add_temp_key(x, temp, &ks[i])
                      : rl_index_add_key_constraint(x, txn, schema, name, &ks[i]);
    free(ks);
    return rc;
}

/* Is `name` a relation of schema (a table, a sequence or an index)? 1, 0,
 * -1. */
static int relation_name_taken(rl_exec *x, rl_txn *t, const char *schema, const char *name)
{
    if (strcmp(schema, "pg_temp") == 0) /* a temporary key's index too */
        return rl_index_name_taken(x, t, schema, name);
    rl_error probe;
    memset(&probe, 0, sizeof probe);
    if (rl_txn_find_table(t, schema, name, &probe))
        return 1;
    int seq = rl_txn_sequence_exists(t, schema, name, x->err);
    if (seq != 0)
        return seq;
    return rl_index_name_taken(x, t, schema, name);
}

/* ChooseRelationName for a serial column's sequence: <table>_<column>_seq,
 * then seq1, seq2, ... while a relation holds the name. 0 or -1. */
static int serial_sequence_name(rl_exec *x, const char *schema, const char *table,
                                const char *column, char *name)
{
    rl_txn *t = rl_exec_txn(x);
    if (!t)
        return -1;
    for (int pass = 0;; pass++) {
        char label[16];
        snprintf(label, sizeof label, pass ? "seq%d" : "seq", pass);
        rl_object_name(table, column, label, name);
        int taken = relation_name_taken(x, t, schema, name);
        if (taken <= 0)
            return taken;
    }
}

/* An identity column's SEQUENCE NAME [schema.]name option into seq (1), 0
 * without one. Another schema than the table's is 0A000 (PostgreSQL's own
 * answers there are errors or a sequence it cannot own). */
static int identity_sequence_option(rl_exec *x, const PgQuery__Constraint *ic, const char *schema,
                                    char seq[64])
{
    for (size_t i = 0; ic && i < ic->n_options; i++) {
        const PgQuery__DefElem *d = ic->options[i]->def_elem;
        if (strcmp(d->defname, "sequence_name") != 0)
            continue;
        const PgQuery__List *l =
            d->arg && d->arg->node_case == PG_QUERY__NODE__NODE_LIST ? d->arg->list : NULL;
        size_t n = l ? l->n_items : 0;
        const char *name = n ? rl_node_string(l->items[n - 1]) : NULL;
        const char *in = n == 2 ? rl_node_string(l->items[0]) : schema;
        if (!name || !in || n > 2)
            return rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, d->location,
                                 "this SEQUENCE NAME is not supported by RockLake");
        if (strcmp(in, schema) != 0 && strcmp(schema, "pg_temp") == 0)
            return rl_exec_error(x, RL_SQLSTATE_INVALID_TABLE_DEFINITION, -1,
                                 "cannot create temporary relation in non-temporary schema");
        if (strcmp(in, schema) != 0)
            return rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, d->location,
                                 "an identity column's sequence in another schema than its "
                                 "table's is not supported by RockLake");
        if (strlen(name) >= 64)
            return rl_exec_error(x, RL_SQLSTATE_NAME_TOO_LONG, d->location,
                                 "identifier \"%s\" is too long", name);
        rl_str_copy(seq, 64, name);
        return 1;
    }
    return 0;
}

/* The sequence of column cs (serial, or identity with its options) of
 * table schema.table, made OWNED BY it (sql_seq.c), named as PostgreSQL
 * names it, into seq (*oid its oid). A DEFAULT beside either, or both, is 42601
 * (transformColumnDefinition); an identity column not of an integer type
 * 22023. 0 or -1. */
static int column_sequence_create(rl_exec *x, const col_spec *cs, const char *schema,
                                  const char *table, char seq[64], uint32_t *oid)
{
    const PgQuery__Constraint *ic = cs->identity_con;
    if ((cs->serial && cs->def) || cs->default_and_identity)
        return rl_exec_error(x, RL_SQLSTATE_SYNTAX_ERROR, -1, "%s specified for column \"%s\" of table \"%s\"",
                             cs->identity ? "both default and identity" : "multiple default values",
                             cs->name, table);
    uint8_t bytes = cs->serial;
    if (!bytes)
        bytes = cs->oid == RL_OID_INT2 ? 2 : cs->oid == RL_OID_INT4 ? 4
                : cs->oid == RL_OID_INT8 ? 8 : 0;
    int named = identity_sequence_option(x, ic, schema, seq);
    if (named < 0 || (!named && serial_sequence_name(x, schema, table, cs->name, seq) < 0))
        return -1;
    return rl_seq_create_serial(x, schema, seq, table, cs->name, bytes, ic ? ic->options : NULL,
                                ic ? ic->n_options : 0, oid);
}

/* schema.table's column default (pg_temp: a temporary table's): expr, NULL
 * none; identity 'a' / 'd' an identity column's. 0 or -1. */
static int column_default_set(rl_exec *x, const char *schema, const char *table,
                              const char *column, uint32_t oid, const PgQuery__Node *expr,
                              char identity)
{
    if (strcmp(schema, "pg_temp") != 0)
        return rl_default_set(x, schema, table, column, oid, expr, identity);
    rl_temp_table *t = temp_find(x->s, table);
    assert(t);
    return rl_default_set_temp(x, t, column, oid, expr, identity);
}

/* schema.table's column default nextval('<seq>'::regclass), the name
 * qualified as PostgreSQL writes it (regclass prints it back unqualified
 * where the search path finds it), an identity column's flagged as one
 * ('a' / 'd'). 0 or -1. */
static int sequence_default_set(rl_exec *x, const char *schema, const char *table,
                                const char *column, uint32_t oid, const char *seq, char identity)
{
    rl_buf text;
    rl_buf_init(&text, 0);
    rl_buf_put_str(&text, "nextval(");
    rl_seq_regclass_literal(&text, schema, seq);
    rl_buf_put_str(&text, ")");
    rl_buf_put_u8(&text, 0);
    rl_parsed *p = NULL;
    const PgQuery__Node *expr;
    int rc = text.failed ? oom(x) : rl_check_parse_text(x, (const char *)text.data, &p, &expr);
    if (rc == 0) {
        const rl_parsed *prev = rl_parsed_activate(p);
        rc = column_default_set(x, schema, table, column, oid, expr, identity);
        rl_parsed_activate(prev);
    }
    rl_parsed_release(p);
    rl_buf_free(&text);
    return rc;
}

/* The serial and identity columns of the new table schema.name: each its
 * sequence and the default that calls it. */
static int create_sequence_defaults(rl_exec *x, const char *schema, const char *name,
                                    const col_spec *cols, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        if (!cols[i].serial && !cols[i].identity)
            continue;
        char seq[64];
        uint32_t oid;
        if (column_sequence_create(x, &cols[i], schema, name, seq, &oid) < 0 ||
            sequence_default_set(x, schema, name, cols[i].name, cols[i].oid, seq,
                                 cols[i].identity) < 0)
            return -1;
    }
    return 0;
}

/* A DuckLake table's own columns are its format's: no serial, no
 * identity. */
static int no_serials(rl_exec *x, const col_spec *cols, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (cols[i].serial || cols[i].identity)
            return rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, cols[i].location,
                                 "serial and identity columns on DuckLake's own tables are not "
                                 "supported by RockLake");
    return 0;
}

static int create_stored(rl_exec *x, const PgQuery__CreateStmt *st, const col_spec *cols,
                         size_t n)
{
    const char *schema = schema_of(st->relation), *name = st->relation->relname;
    rl_txn *txn = rl_exec_txn(x);
    if (!txn)
        return -1;
    if (!rl_txn_schema_exists(txn, schema))
        return rl_exec_error(x, RL_SQLSTATE_INVALID_SCHEMA_NAME, st->relation->location,
                             "schema \"%s\" does not exist",
                             schema);
    rl_error probe;
    memset(&probe, 0, sizeof probe);
    if (rl_txn_find_table(txn, schema, name, &probe)) {
        if (st->if_not_exists)
            return notice(x, RL_SQLSTATE_DUPLICATE_TABLE,
                          "relation \"%s\" already exists, skipping%s", name, "");
        return rl_exec_error(x, RL_SQLSTATE_DUPLICATE_TABLE, -1, "relation \"%s\" already exists",
                             name);
    }
    if (strcmp(probe.sqlstate, RL_SQLSTATE_UNDEFINED_TABLE) != 0) {
        *x->err = probe;
        return -1;
    }
    int taken = rl_index_name_taken(x, txn, schema, name); /* an index of that name */
    if (taken != 0) {
        if (taken > 0 && st->if_not_exists)
            return notice(x, RL_SQLSTATE_DUPLICATE_TABLE,
                          "relation \"%s\" already exists, skipping%s", name, "");
        return taken < 0 ? -1
                         : rl_exec_error(x, RL_SQLSTATE_DUPLICATE_TABLE, -1,
                                         "relation \"%s\" already exists", name);
    }
    const rl_table_desc *d = rl_desc_by_name(name, RL_FMT_LATEST);
    if (!d || d->internal)
        return create_dynamic(x, txn, schema, name, cols, n) < 0 ||
                       create_key_constraints(x, txn, schema, name, st, NULL) < 0 ||
                       rl_default_create_table(x, schema, name, st) < 0 ||
                       create_sequence_defaults(x, schema, name, cols, n) < 0
                   ? -1
                   : rl_check_create_table(x, schema, name, st) < 0
                   ? -1
                   : rl_fkey_add_all(x, txn, schema, name, st);
    if (newer_format_creates(x, txn, d, cols, n) < 0)
        return -1;
    rl_format fmt = rl_txn_format(txn);
    if (!rl_desc_in_format(d, fmt))
        return rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                             "table \"%s\" belongs to a newer DuckLake format than this "
                             "catalog's (%s)",
                             name, rl_format_name(fmt));
    size_t nextra = 0;
    rl_column_desc extra[RL_MAX_COLUMNS];
    if (fixed_matches(x, d, fmt, cols, n, extra, &nextra) < 0 ||
        rl_txn_register_fixed_ext(txn, schema, d, nextra, extra, false, x->err) < 0 ||
        rl_default_create_table(x, schema, name, st) < 0 || no_serials(x, cols, n) < 0)
        return -1;
    if (rl_check_create_table(x, schema, name, st) < 0)
        return -1;
    return rl_fkey_add_all(x, txn, schema, name, st);
}

int rl_ddl_create_table(rl_exec *x, const PgQuery__CreateStmt *st)
{
    if (st->n_inh_relations || st->partbound || st->partspec || st->of_typename ||
        (st->tablespacename && st->tablespacename[0]) || (st->access_method && st->access_method[0]))
        return rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, st->relation->location,
                             "CREATE TABLE with INHERITS/PARTITION/OF/TABLESPACE/USING is not "
                             "supported by RockLake");
    if (strlen(st->relation->relname) >= 64)
        return rl_exec_error(x, RL_SQLSTATE_NAME_TOO_LONG, st->relation->location,
                             "identifier \"%s\" is too long", st->relation->relname);
    col_spec cols[RL_MAX_COLUMNS];
    size_t n;
    if (column_list(x, st, cols, &n) < 0)
        return -1;
    int rc = is_temp(st->relation) ? create_temp(x, st, cols, n) : create_stored(x, st, cols, n);
    return rc < 0 ? -1 : rl_send_complete(x, "CREATE TABLE");
}

/* ------------------------------------------------------- CREATE SCHEMA */

int rl_ddl_create_schema(rl_exec *x, const PgQuery__CreateSchemaStmt *st)
{
    if (st->n_schema_elts || st->authrole)
        return rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                             "CREATE SCHEMA with AUTHORIZATION or elements is not supported by "
                             "RockLake");
    const char *name = st->schemaname;
    if (!name || strncmp(name, "pg_", 3) == 0)
        return rl_exec_error(x, RL_SQLSTATE_RESERVED_NAME, -1, "unacceptable schema name \"%s\"",
                             name ? name : "");
    rl_txn *txn = rl_exec_txn(x);
    if (!txn)
        return -1;
    if (rl_txn_schema_exists(txn, name) || strcmp(name, "information_schema") == 0) {
        if (!st->if_not_exists)
            return rl_exec_error(x, RL_SQLSTATE_DUPLICATE_SCHEMA, -1,
                                 "schema \"%s\" already exists", name);
        notice(x, RL_SQLSTATE_DUPLICATE_SCHEMA, "schema \"%s\" already exists, skipping%s", name,
               "");
    } else if (rl_txn_create_schema(txn, name, false, x->err) < 0) {
        return -1;
    }
    return rl_send_complete(x, "CREATE SCHEMA");
}

/* A table's indexes, CHECKs, defaults, FOREIGN KEYs and comments follow
 * its DDL (sql_index.c, sql_check.c, sql_default.c, sql_fkey.c,
 * sql_comment.c). */
static int table_dependents_follow(rl_exec *x, rl_txn *txn, const char *schema,
                                   const char *table, const rl_table_change *ch)
{
    if (rl_index_table_changed(x, txn, schema, table, ch) < 0 ||
        rl_check_table_changed(x, txn, schema, table, ch) < 0 ||
        rl_default_table_changed(x, txn, schema, table, ch) < 0 ||
        rl_fkey_table_changed(x, txn, schema, table, ch) < 0 ||
        rl_seq_table_changed(x, txn, schema, table, ch) < 0)
        return -1;
    return rl_comment_table_changed(x, txn, schema, table, ch);
}

/* ---------------------------------------------------------------- DROP */

/* schema and name of a DROP object (a List of String: [schema,] name). */
static int drop_name(rl_exec *x, const PgQuery__Node *obj, const char **schema,
                     const char **name)
{
    *schema = NULL;
    if (obj->node_case != PG_QUERY__NODE__NODE_LIST || obj->list->n_items < 1 ||
        obj->list->n_items > 3)
        return rl_exec_error(x, RL_SQLSTATE_SYNTAX_ERROR, -1, "improper qualified name");
    const PgQuery__List *l = obj->list;
    *name = l->items[l->n_items - 1]->string->sval;
    if (l->n_items >= 2)
        *schema = l->items[l->n_items - 2]->string->sval;
    return 0;
}

static int drop_table(rl_exec *x, const PgQuery__Node *obj, bool missing_ok, bool cascade)
{
    const char *schema = NULL, *name = NULL;
    if (drop_name(x, obj, &schema, &name) < 0)
        return -1;
    if (!schema || strncmp(schema, "pg_temp", 7) == 0) {
        rl_temp_table *t = temp_find(x->s, name);
        if (t) {
            if (rl_ddl_temps_touch(x) < 0)
                return -1;
            temp_unlink(x->s, t);
            rl_seq_temps_sweep(x->s); /* the sequences it owned */
            return 0;
        }
        if (rl_temp_seq_find(x->s, name)) {
            rl_exec_error(x, RL_SQLSTATE_WRONG_OBJECT_TYPE, -1, "\"%s\" is not a table", name);
            rl_error_hint(x->err, "Use DROP SEQUENCE to remove a sequence.");
            return -1;
        }
        if (schema)
            goto absent;
    }
    rl_txn *txn = rl_exec_txn(x);
    if (!txn)
        return -1;
    const char *sch = schema ? schema : "public";
    if (!rl_txn_schema_exists(txn, sch)) {
        if (missing_ok)
            return notice(x, RL_SQLSTATE_SUCCESSFUL_COMPLETION,
                          "schema \"%s\" does not exist, skipping%s", sch, "");
        return rl_exec_error(x, RL_SQLSTATE_INVALID_SCHEMA_NAME, -1, "schema \"%s\" does not exist",
                             sch);
    }
    rl_error e;
    memset(&e, 0, sizeof e);
    const rl_table_desc *dropped = rl_txn_find_table(txn, sch, name, &e);
    if (dropped && (rl_fkey_not_in_use(x, txn, dropped, "DROP TABLE", name) < 0 ||
                    rl_fkey_table_dropping(x, txn, sch, name, cascade) < 0))
        return -1;
    memset(&e, 0, sizeof e);
    if (rl_txn_drop_table(txn, sch, name, &e) == 0) {
        const rl_table_change gone = {.dropped_table = true};
        return table_dependents_follow(x, txn, sch, name, &gone);
    }
    if (strcmp(e.sqlstate, RL_SQLSTATE_UNDEFINED_TABLE) != 0) {
        *x->err = e;
        return -1;
    }
    rl_index_def idx;
    int is_index = rl_txn_find_index(txn, sch, name, &idx, x->err);
    if (is_index != 0) {
        if (is_index < 0)
            return -1;
        rl_exec_error(x, RL_SQLSTATE_WRONG_OBJECT_TYPE, -1, "\"%s\" is not a table", name);
        rl_error_hint(x->err, "Use DROP INDEX to remove an index.");
        return -1;
    }
    int is_seq = rl_txn_sequence_exists(txn, sch, name, x->err);
    if (is_seq != 0) {
        if (is_seq < 0)
            return -1;
        rl_exec_error(x, RL_SQLSTATE_WRONG_OBJECT_TYPE, -1, "\"%s\" is not a table", name);
        rl_error_hint(x->err, "Use DROP SEQUENCE to remove a sequence.");
        return -1;
    }
absent:
    if (missing_ok)
        return notice(x, RL_SQLSTATE_SUCCESSFUL_COMPLETION,
                      "table \"%s\" does not exist, skipping%s", name, "");
    return rl_exec_error(x, RL_SQLSTATE_UNDEFINED_TABLE, -1, "table \"%s\" does not exist", name);
}

/* DROP SCHEMA of an empty schema; a schema that still holds tables gives
 * 2BP01 (RockLake has no CASCADE). */
/* The lines of DROP SCHEMA's 2BP01 detail, "table s.t depends on schema
 * s" for each table, then each sequence (PostgreSQL lists them in the
 * order they were made; RockLake, which does not know it, by name). */
typedef struct dependents {
    const char *schema;
    rl_buf lines;
} dependents;

static void dependent_line(dependents *d, const char *kind, const char *name)
{
    rl_buf_printf(&d->lines, "%s%s %s.%s depends on schema %s", d->lines.len ? "\n" : "", kind,
                  d->schema, name, d->schema);
}

static int dependent_table(void *ctx, const char *schema, const char *name,
                           const rl_table_desc *desc)
{
    dependents *d = ctx;
    if (strcmp(schema, d->schema) == 0)
        dependent_line(d, "table", name);
    return 0;
}

static int dependent_sequence(void *ctx, const char *schema, const char *name,
                              const rl_seq_def *def)
{
    dependent_line(ctx, "sequence", name);
    return 0;
}

static void schema_dependents_detail(rl_exec *x, rl_txn *txn, const char *schema)
{
    dependents d = {.schema = schema};
    rl_buf_init(&d.lines, 0);
    rl_error ignore;
    memset(&ignore, 0, sizeof ignore);
    if (rl_txn_list_tables(txn, dependent_table, &d, &ignore) == 0 &&
        rl_txn_list_sequences(txn, schema, dependent_sequence, &d, &ignore) == 0) {
        rl_buf_put_u8(&d.lines, 0);
        if (!d.lines.failed && d.lines.len > 1)
            rl_error_detail(x->err, "%s", (const char *)d.lines.data);
    }
    rl_buf_free(&d.lines);
}

static int drop_schema(rl_exec *x, const PgQuery__Node *obj, bool missing_ok)
{
    const char *name = rl_node_string(obj);
    if (!name)
        return rl_exec_error(x, RL_SQLSTATE_SYNTAX_ERROR, -1, "improper schema name");
    rl_txn *txn = rl_exec_txn(x);
    if (!txn)
        return -1;
    if (!rl_txn_schema_exists(txn, name)) {
        if (missing_ok)
            return notice(x, RL_SQLSTATE_SUCCESSFUL_COMPLETION,
                          "schema \"%s\" does not exist, skipping%s", name, "");
        return rl_exec_error(x, RL_SQLSTATE_INVALID_SCHEMA_NAME, -1, "schema \"%s\" does not exist",
                             name);
    }
    if (rl_txn_drop_schema(txn, name, x->err) < 0) {
        /* 2BP01 while tables remain (RockLake has no CASCADE): PostgreSQL's
         * detail names them */
        if (strcmp(x->err->sqlstate, RL_SQLSTATE_DEPENDENT_OBJECTS_STILL_EXIST) == 0)
            schema_dependents_detail(x, txn, name);
        return -1;
    }
    return 0;
}

int rl_ddl_drop(rl_exec *x, const PgQuery__DropStmt *st)
{
    if (st->remove_type == PG_QUERY__OBJECT_TYPE__OBJECT_INDEX) /* a temporary table's too */
        return x->s->temps && rl_ddl_temps_touch(x) < 0 ? -1 : rl_ddl_drop_index(x, st);
    if (rl_absent_drop_kind(st->remove_type))
        return rl_absent_drop(x, st);
    bool table = st->remove_type == PG_QUERY__OBJECT_TYPE__OBJECT_TABLE;
    if (!table && st->remove_type != PG_QUERY__OBJECT_TYPE__OBJECT_SCHEMA)
        return rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                             "only DROP TABLE, DROP INDEX and DROP SCHEMA are supported by RockLake");
    for (size_t i = 0; i < st->n_objects; i++) {
        int rc = table ? drop_table(x, st->objects[i], st->missing_ok,
                                    st->behavior == PG_QUERY__DROP_BEHAVIOR__DROP_CASCADE)
                       : drop_schema(x, st->objects[i], st->missing_ok);
        if (rc < 0)
            return -1;
    }
    return rl_send_complete(x, table ? "DROP TABLE" : "DROP SCHEMA");
}

/* ----------------------------------------------------------------- ALTER */

/* A table's new shape: for each new column, the old column it comes from
 * (-1 = new: every existing row gets fill[i], the ADD COLUMN default or
 * NULL). fill strings live in `arena`. */
#define MAX_ADDED_KEYS 8
typedef struct new_shape {
    size_t n;
    col_spec cols[RL_MAX_COLUMNS];
    int from[RL_MAX_COLUMNS];
    rl_value fill[RL_MAX_COLUMNS];
    bool fill_per_row[RL_MAX_COLUMNS]; /* a volatile default: evaluated per row */
    rl_arena arena;
    /* a stored table's: its schema, whether DuckLake's format fixes its
     * shape, and the key constraints ADD CONSTRAINT makes once the shape
     * is applied (their primary key's columns NOT NULL first) */
    const char *schema;
    bool fixed;
    rl_temp_table *temp; /* a temporary table's: the table (its keys) */
    rl_key_constraint adds[MAX_ADDED_KEYS];
    size_t nadds;
    const PgQuery__Constraint *fkeys[MAX_ADDED_KEYS]; /* ADD FOREIGN KEY, made last */
    const char *fkey_columns[MAX_ADDED_KEYS]; /* an added column's REFERENCES: it */
    size_t nfkeys;
    const PgQuery__Constraint *checks[MAX_ADDED_KEYS]; /* ADD CHECK, after the shape */
    size_t nchecks;
    /* defaults set (expr) or dropped (NULL) by ADD COLUMN, ALTER COLUMN SET
     * / DROP DEFAULT, in the statement's order, kept after the shape */
    struct kept_default {
        const char *column;
        uint32_t oid;
        const PgQuery__Node *expr;
        const char *seq; /* or an added serial / identity's nextval (in arena) */
        char identity;
    } defaults[RL_MAX_COLUMNS];
    size_t ndefaults;
} new_shape;

/* The value existing rows get in an added column: its DEFAULT, analysed
 * as PostgreSQL analyses one (sql_default.c), evaluated and coerced like
 * an assignment, or NULL; *per_row: a volatile default, which each row
 * gets evaluated again (as PostgreSQL's table rewrite does). */
static int add_column_fill(rl_exec *x, const col_spec *cs, rl_arena *arena, rl_value *out,
                           bool *per_row)
{
    memset(out, 0, sizeof *out);
    out->oid = cs->oid;
    out->typmod = cs->typmod;
    out->d.isnull = true;
    *per_row = false;
    if (!cs->def)
        return 0;
    rl_expr_ctx c = {.x = x, .arena = arena};
    rl_value v;
    if (rl_default_fill_value(x, cs->name, cs->oid, cs->def, &c, &v, per_row) < 0)
        return -1;
    if (v.d.isnull)
        return 0;
    return rl_value_coerce(&c, &v, cs->oid, cs->typmod, false, out, -1);
}

/* A default to keep after the shape (a stored dynamic table's or a
 * temporary table's: a DuckLake table's shape is its format's, and ADD
 * COLUMN's default only fills its rows, as before). 0, or -1 (0A000). */
/* The next of ns's kept defaults, or NULL with 54000 past the limit. */
static struct kept_default *default_slot(rl_exec *x, new_shape *ns)
{
    if (ns->ndefaults < RL_MAX_COLUMNS)
        return &ns->defaults[ns->ndefaults++];
    rl_exec_error(x, RL_SQLSTATE_PROGRAM_LIMIT_EXCEEDED, -1,
                  "RockLake changes at most %d column defaults in one ALTER TABLE",
                  RL_MAX_COLUMNS);
    return NULL;
}

static int keep_default(rl_exec *x, new_shape *ns, const char *column, uint32_t oid,
                        const PgQuery__Node *expr, bool adding)
{
    if (ns->fixed) {
        if (adding)
            return 0;
        return rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                             "column defaults on DuckLake's own tables are not supported by "
                             "RockLake");
    }
    struct kept_default *k = default_slot(x, ns);
    if (!k)
        return -1;
    *k = (struct kept_default){.column = column, .oid = oid, .expr = expr};
    return 0;
}

/* A serial or identity column, or an identity ALTER, needs a stored
 * dynamic table (sequences are the catalog's). 0, or -1 with 0A000. */
static int sequence_columns_allowed(rl_exec *x, const new_shape *ns, int location)
{
    if (!ns->fixed)
        return 0;
    return rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, location,
                         "serial and identity columns on DuckLake's own tables are not "
                         "supported by RockLake");
}

/* The schema of the table ns's sequences and defaults: a temporary
 * table's are pg_temp's. */
static const char *seq_schema(const new_shape *ns)
{
    return ns->schema ? ns->schema : "pg_temp";
}

/* ADD COLUMN of a serial / identity column cs (ns->cols[ns->n] to be) to a
 * stored dynamic table: its sequence made now, as PostgreSQL's transform
 * makes it, so that each existing row takes nextval in the rewrite
 * (new_column_value), and its default kept after the shape. A temporary
 * or a DuckLake table's column 0A000. 0 or -1. */
static int add_sequence_column(rl_exec *x, new_shape *ns, const char *table, col_spec *cs)
{
    if (sequence_columns_allowed(x, ns, cs->location) < 0)
        return -1;
    struct kept_default *k = default_slot(x, ns); /* the limit before the sequence */
    if (!k)
        return -1;
    *k = (struct kept_default){.column = cs->name, .oid = cs->oid, .identity = cs->identity};
    char seq[64];
    if (column_sequence_create(x, cs, seq_schema(ns), table, seq, &cs->seq_oid) < 0)
        return -1;
    if (!(k->seq = rl_arena_strdup(&ns->arena, seq)))
        return oom(x);
    return 0;
}

static int shape_find(const new_shape *ns, const char *name);

/* The column an ALTER COLUMN command names: its index in the shape, or -1
 * with 42703. */
static int cmd_column(rl_exec *x, const char *table, const PgQuery__AlterTableCmd *cmd,
                      const new_shape *ns)
{
    int c = shape_find(ns, cmd->name);
    if (c < 0)
        rl_exec_error(x, RL_SQLSTATE_UNDEFINED_COLUMN, -1,
                      "column \"%s\" of relation \"%s\" does not exist", cmd->name, table);
    return c;
}

/* ALTER COLUMN c SET DEFAULT expr / DROP DEFAULT: 0 (the shape is the
 * same), -1 error (42703). */
static int alter_default(rl_exec *x, const char *table, const PgQuery__AlterTableCmd *cmd,
                         new_shape *ns)
{
    int c = cmd_column(x, table, cmd, ns);
    if (c < 0)
        return -1;
    int kind = !ns->fixed ? rl_default_kind(x, seq_schema(ns), table, ns->cols[c].name) : 0;
    if (kind < 0)
        return -1;
    if (kind == 'a' || kind == 'd') {
        rl_exec_error(x, RL_SQLSTATE_SYNTAX_ERROR, -1,
                      "column \"%s\" of relation \"%s\" is an identity column", cmd->name,
                      table);
        if (!cmd->def)
            rl_error_hint(x->err, "Use ALTER TABLE ... ALTER COLUMN ... DROP IDENTITY instead.");
        return -1;
    }
    return keep_default(x, ns, ns->cols[c].name, ns->cols[c].oid, cmd->def, false);
}

/* ALTER COLUMN c ADD GENERATED ... AS IDENTITY [(options)]: the sequence
 * made as PostgreSQL's transform makes it (the type and option checks
 * first), then ATExecAddIdentity's checks in its order. 0 or -1. */
static int add_identity(rl_exec *x, const char *table, const PgQuery__AlterTableCmd *cmd,
                        const new_shape *ns, const col_spec *col, int kind)
{
    if (!cmd->def || cmd->def->node_case != PG_QUERY__NODE__NODE_CONSTRAINT)
        return rl_exec_error(x, RL_SQLSTATE_SYNTAX_ERROR, -1, "ADD GENERATED needs an identity");
    col_spec cs = *col;
    cs.def = NULL;
    cs.serial = 0;
    cs.default_and_identity = false;
    cs.identity_con = cmd->def->constraint;
    cs.identity = cs.identity_con->generated_when && cs.identity_con->generated_when[0] == 'a'
                      ? 'a'
                      : 'd';
    char seq[64];
    uint32_t oid;
    if (column_sequence_create(x, &cs, seq_schema(ns), table, seq, &oid) < 0)
        return -1;
    const char *why = !col->not_null                 ? "must be declared NOT NULL before identity "
                                                       "can be added"
                      : kind == 'a' || kind == 'd' ? "is already an identity column"
                      : kind == 'n'                  ? "already has a default value"
                                                     : NULL;
    if (why)
        return rl_exec_error(x, RL_SQLSTATE_OBJECT_NOT_IN_PREREQUISITE_STATE, -1,
                             "column \"%s\" of relation \"%s\" %s", col->name, table, why);
    return sequence_default_set(x, seq_schema(ns), table, col->name, col->oid, seq, cs.identity);
}

/* ALTER COLUMN c SET GENERATED { ALWAYS | BY DEFAULT } / SET option /
 * RESTART [WITH n] of identity column col (its sequence seq): the sequence
 * options first, as PostgreSQL's transform applies them. 0 or -1. */
static int set_identity(rl_exec *x, const char *table, const PgQuery__AlterTableCmd *cmd,
                        const new_shape *ns, const col_spec *col, const char *seq)
{
    const PgQuery__List *l =
        cmd->def && cmd->def->node_case == PG_QUERY__NODE__NODE_LIST ? cmd->def->list : NULL;
    size_t n = l ? l->n_items : 0, nopts = 0;
    PgQuery__Node **opts = n ? calloc(n, sizeof *opts) : NULL;
    if (n && !opts)
        return oom(x);
    char generated = 0;
    for (size_t i = 0; i < n; i++) {
        const PgQuery__Node *it = l->items[i];
        if (it->node_case != PG_QUERY__NODE__NODE_DEF_ELEM)
            continue;
        const PgQuery__DefElem *d = it->def_elem;
        if (strcmp(d->defname, "generated") != 0) {
            opts[nopts++] = l->items[i];
            continue;
        }
        if (generated) {
            free(opts);
            return rl_exec_error(x, RL_SQLSTATE_SYNTAX_ERROR, d->location,
                                 "conflicting or redundant options");
        }
        generated = d->arg && d->arg->node_case == PG_QUERY__NODE__NODE_INTEGER &&
                            d->arg->integer->ival == 'a'
                        ? 'a'
                        : 'd';
    }
    int rc = nopts ? rl_seq_alter_owned(x, seq_schema(ns), seq, opts, nopts) : 0;
    free(opts);
    if (rc < 0 || !generated)
        return rc;
    return sequence_default_set(x, seq_schema(ns), table, col->name, col->oid, seq, generated);
}

/* The identity forms of ALTER COLUMN on a stored dynamic table: ADD
 * GENERATED, SET GENERATED / SET option / RESTART, DROP IDENTITY [IF
 * EXISTS] (the default and the sequence dropped; NOT NULL stays). Done at
 * once, in the statement's order; the shape is the same: 0, or -1. */
static int alter_identity(rl_exec *x, const char *table, const PgQuery__AlterTableCmd *cmd,
                          new_shape *ns)
{
    int c = cmd_column(x, table, cmd, ns);
    if (c < 0)
        return -1;
    if (sequence_columns_allowed(x, ns, -1) < 0)
        return -1;
    const col_spec *col = &ns->cols[c];
    int kind = rl_default_kind(x, seq_schema(ns), table, col->name);
    if (kind < 0)
        return -1;
    if (cmd->subtype == PG_QUERY__ALTER_TABLE_TYPE__AT_AddIdentity)
        return add_identity(x, table, cmd, ns, col, kind);
    if (kind != 'a' && kind != 'd') {
        if (cmd->subtype == PG_QUERY__ALTER_TABLE_TYPE__AT_DropIdentity && cmd->missing_ok)
            return notice(x, RL_SQLSTATE_SUCCESSFUL_COMPLETION,
                          "column \"%s\" of relation \"%s\" is not an identity column, skipping",
                          col->name, table);
        return rl_exec_error(x, RL_SQLSTATE_OBJECT_NOT_IN_PREREQUISITE_STATE, -1,
                             "column \"%s\" of relation \"%s\" is not an identity column",
                             col->name, table);
    }
    char seq[64];
    int owned = rl_seq_owned_by(x, seq_schema(ns), table, col->name, seq);
    if (owned <= 0)
        return owned < 0 ? -1
                         : rl_exec_error(x, RL_SQLSTATE_INTERNAL_ERROR, -1,
                                         "identity column \"%s\" of relation \"%s\" has no "
                                         "sequence: run rocklake check",
                                         col->name, table);
    if (cmd->subtype == PG_QUERY__ALTER_TABLE_TYPE__AT_SetIdentity)
        return set_identity(x, table, cmd, ns, col, seq);
    if (column_default_set(x, seq_schema(ns), table, col->name, col->oid, NULL, 0) < 0)
        return -1;
    return rl_seq_drop_owned(x, seq_schema(ns), seq);
}

static void shape_from_rowset(const rl_rowset *rs, size_t ntab, new_shape *ns)
{
    memset(&ns->arena, 0, sizeof ns->arena);
    ns->schema = NULL;
    ns->fixed = false;
    ns->temp = NULL;
    ns->nadds = 0;
    ns->nfkeys = 0;
    ns->nchecks = 0;
    ns->ndefaults = 0;
    memset(ns->fill_per_row, 0, sizeof ns->fill_per_row);
    ns->n = ntab;
    for (size_t i = 0; i < ntab; i++) {
        memset(&ns->cols[i], 0, sizeof ns->cols[i]);
        ns->cols[i].name = rs->cols[i].name;
        ns->cols[i].oid = rs->cols[i].oid;
        ns->cols[i].typmod = rs->cols[i].typmod;
        ns->from[i] = (int)i;
    }
}

/* A stored table's NOT NULL and primary-key columns into its shape (the
 * row set's columns do not carry them): a rebuilt dynamic table keeps them
 * (ALTER TABLE ... ADD COLUMN lost a NOT NULL before). */

/* A stored table's NOT NULL and primary-key columns into its shape: the
 * descriptor's, and a PRIMARY KEY constraint's (a dynamic table's). */
static void shape_constraints(rl_exec *x, const rl_relation *rel, new_shape *ns)
{
    if (rel->kind == RL_REL_TEMP) { /* a temporary table's, kept with it */
        const rl_temp_key *pk = rel->temp->keys && rel->temp->keys->def.primary
                                    ? rel->temp->keys
                                    : NULL;
        ns->temp = rel->temp;
        for (size_t i = 0; i < ns->n; i++)
            ns->cols[i].not_null = rel->temp->not_null[i];
        for (size_t c = 0; pk && c < pk->def.ncols; c++) {
            int i = shape_find(ns, pk->def.cols[c]);
            if (i >= 0)
                ns->cols[i].pk = true;
        }
        return;
    }
    if (rel->kind != RL_REL_STORED)
        return;
    const rl_table_desc *d = rel->desc;
    rl_txn *txn = rl_exec_txn(x);
    size_t n = txn ? rl_txn_table_ncols(txn, d) : 0;
    ns->schema = rel->schema;
    ns->fixed = !rl_desc_is_dynamic(d);
    for (size_t i = 0; i < ns->n && i < n; i++) {
        bool pk = d->pk_check != RL_PK_NONE && d->pk_col == (int)i;
        ns->cols[i].pk = pk;
        ns->cols[i].not_null = d->cols[i].not_null || pk;
    }
    char name[RL_INDEX_NAME_MAX];
    rl_index_def *pk = txn ? malloc(sizeof *pk) : NULL;
    rl_error keep = *x->err;
    if (pk && rl_index_primary_key(x, txn, rel->schema, rel->name, name, pk) == 1)
        for (size_t c = 0; c < pk->ncols; c++) {
            int i = shape_find(ns, pk->cols[c]);
            if (i >= 0)
                ns->cols[i].pk = true;
        }
    *x->err = keep; /* a failed look is the statement's to meet again */
    free(pk);
}

static size_t table_ncols(const rl_rowset *rs)
{
    size_t n = rs->ncols;
    while (n > 0 && rs->cols[n - 1].attnum == RL_CTID_ATTNUM)
        n--;
    return n;
}

static int shape_find(const new_shape *ns, const char *name)
{
    for (size_t i = 0; i < ns->n; i++)
        if (strcmp(ns->cols[i].name, name) == 0)
            return (int)i;
    return -1;
}

/* ALTER COLUMN SET / DROP NOT NULL: 1 = changed, 0 = already so (as
 * PostgreSQL, a no-op), -1 error (42703; 42P16 for a primary-key column's
 * DROP NOT NULL). */
static int alter_not_null(rl_exec *x, const char *table, const PgQuery__AlterTableCmd *cmd,
                          new_shape *ns)
{
    int c = cmd_column(x, table, cmd, ns);
    if (c < 0)
        return -1;
    bool set = cmd->subtype == PG_QUERY__ALTER_TABLE_TYPE__AT_SetNotNull;
    /* an identity column stays NOT NULL (ATExecDropNotNull's order) */
    int kind = !set && !ns->fixed ? rl_default_kind(x, seq_schema(ns), table, ns->cols[c].name) : 0;
    if (kind < 0)
        return -1;
    if (kind == 'a' || kind == 'd')
        return rl_exec_error(x, RL_SQLSTATE_SYNTAX_ERROR, -1,
                             "column \"%s\" of relation \"%s\" is an identity column", cmd->name,
                             table);
    if (!set && ns->cols[c].pk)
        return rl_exec_error(x, RL_SQLSTATE_INVALID_TABLE_DEFINITION, -1,
                             "column \"%s\" is in a primary key", cmd->name);
    if (ns->cols[c].not_null == set)
        return 0;
    ns->cols[c].not_null = set;
    return 1;
}

static bool shape_has_pk(const new_shape *ns)
{
    for (size_t i = 0; i < ns->n; i++)
        if (ns->cols[i].pk)
            return true;
    return false;
}

/* One constraint ADD CONSTRAINT (column NULL) or ADD COLUMN (a column
 * constraint of `column`, already in the shape) adds. A second primary key
 * is 42P16 as on PostgreSQL; UNIQUE, and on a dynamic table PRIMARY KEY
 * (its columns made NOT NULL: the shape changes, 1), are made after the
 * shape (ns->adds), FOREIGN KEY (ns->fkeys) and CHECK (ns->checks,
 * sql_check.c) too, not on a temporary table; a DuckLake table's new
 * primary key (its NOT NULLs are its format's) is 0A000. 1, 0, or -1. */
static int add_table_constraint(rl_exec *x, const char *table, const PgQuery__Constraint *k,
                                const char *column, new_shape *ns)
{
    bool pk = k && k->contype == PG_QUERY__CONSTR_TYPE__CONSTR_PRIMARY;
    if (k && k->contype == PG_QUERY__CONSTR_TYPE__CONSTR_FOREIGN && ns->temp)
        return rl_fkey_on_temp(x, k);
    if (k && k->contype == PG_QUERY__CONSTR_TYPE__CONSTR_FOREIGN && ns->schema) {
        if (ns->nfkeys == MAX_ADDED_KEYS)
            return rl_exec_error(x, RL_SQLSTATE_PROGRAM_LIMIT_EXCEEDED, -1,
                                 "RockLake adds at most %d foreign keys in one ALTER TABLE",
                                 MAX_ADDED_KEYS);
        ns->fkey_columns[ns->nfkeys] = column;
        ns->fkeys[ns->nfkeys++] = k;
        return 0;
    }
    if (k && k->contype == PG_QUERY__CONSTR_TYPE__CONSTR_CHECK) {
        if (ns->nchecks == MAX_ADDED_KEYS)
            return rl_exec_error(x, RL_SQLSTATE_PROGRAM_LIMIT_EXCEEDED, -1,
                                 "RockLake adds at most %d CHECK constraints in one ALTER TABLE",
                                 MAX_ADDED_KEYS);
        ns->checks[ns->nchecks++] = k;
        return 0;
    }
    if (pk && shape_has_pk(ns))
        return rl_exec_error(x, RL_SQLSTATE_INVALID_TABLE_DEFINITION, -1,
                             "multiple primary keys for table \"%s\" are not allowed", table);
    bool keyed = k && (pk || k->contype == PG_QUERY__CONSTR_TYPE__CONSTR_UNIQUE);
    if (!keyed || (pk && ns->fixed)) { /* a temporary table's: rl_index_add_temp_key */
        rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                      "RockLake does not add this constraint, nor a primary key to a DuckLake "
                      "table");
        rl_error_hint(x->err, "UNIQUE, PRIMARY KEY, FOREIGN KEY and CHECK constraints are kept "
                              "on the catalog's tables (docs/sql-support.md, \"Constraints\")");
        return -1;
    }
    if (ns->nadds == MAX_ADDED_KEYS)
        return rl_exec_error(x, RL_SQLSTATE_PROGRAM_LIMIT_EXCEEDED, -1,
                             "RockLake adds at most %d key constraints in one ALTER TABLE",
                             MAX_ADDED_KEYS);
    rl_key_constraint *kc = &ns->adds[ns->nadds];
    if (rl_key_constraint_from(x, k, column, kc) < 0)
        return -1;
    ns->nadds++;
    int changed = 0;
    for (size_t i = 0; pk && i < kc->ncols; i++) {
        int c = shape_find(ns, kc->cols[i]);
        if (c < 0)
            return rl_exec_error(x, RL_SQLSTATE_UNDEFINED_COLUMN, -1,
                                 "column \"%s\" of relation \"%s\" does not exist", kc->cols[i],
                                 table);
        ns->cols[c].pk = true;
        if (!ns->cols[c].not_null) {
            ns->cols[c].not_null = true;
            changed = 1;
        }
    }
    return changed;
}

static int add_constraint(rl_exec *x, const char *table, const PgQuery__AlterTableCmd *cmd,
                          new_shape *ns)
{
    const PgQuery__Constraint *k = cmd->def && cmd->def->node_case == PG_QUERY__NODE__NODE_CONSTRAINT
                                       ? cmd->def->constraint
                                       : NULL;
    return add_table_constraint(x, table, k, NULL, ns);
}

/* DROP CONSTRAINT: a table's primary key stays (0A000); any other name is
 * no constraint of it (42704, or IF EXISTS's notice: 0). */
/* DROP CONSTRAINT of a temporary table's key `name`: 1 dropped (a primary
 * key's columns stay NOT NULL), 0 none of that name. */
static int drop_temp_key(rl_temp_table *t, const char *name, new_shape *ns)
{
    for (rl_temp_key **pp = &t->keys; *pp; pp = &(*pp)->next) {
        rl_temp_key *k = *pp;
        if (!k->def.constraint || strcmp(k->name, name) != 0)
            continue;
        for (size_t i = 0; k->def.primary && i < ns->n; i++)
            ns->cols[i].pk = false;
        *pp = k->next;
        rl_index_temp_key_free(k);
        return 1;
    }
    return 0;
}

static int drop_constraint(rl_exec *x, const char *table, const PgQuery__AlterTableCmd *cmd,
                           new_shape *ns)
{
    if (ns->temp && drop_temp_key(ns->temp, cmd->name, ns))
        return 0;
    rl_txn *txn = ns->schema ? rl_exec_txn(x) : NULL;
    rl_fkey_def *fk = txn ? malloc(sizeof *fk) : NULL;
    int is_fk = fk ? rl_fkey_find(x, txn, ns->schema, table, cmd->name, fk) : 0;
    free(fk);
    if (is_fk != 0)
        return is_fk < 0 || rl_txn_drop_fkey(txn, ns->schema, table, cmd->name, x->err) < 0 ? -1
                                                                                          : 0;
    rl_relation rel = {.kind = ns->temp ? RL_REL_TEMP : RL_REL_STORED, .temp = ns->temp};
    rl_str_copy(rel.schema, sizeof rel.schema, ns->schema ? ns->schema : "pg_temp");
    rl_str_copy(rel.name, sizeof rel.name, table);
    int check = txn || ns->temp ? rl_check_drop(x, &rel, cmd->name) : 0;
    if (check != 0)
        return check < 0 ? -1 : 0;
    rl_index_def *def = txn ? malloc(sizeof *def) : NULL;
    int found = def ? rl_index_find_constraint(x, txn, ns->schema, table, cmd->name, def) : 0;
    if (found == 1) {
        char what[RL_INDEX_NAME_MAX * 2 + 32];
        snprintf(what, sizeof what, "constraint %s on table %s", cmd->name, table);
        if (rl_fkey_index_dropping(x, txn, def, what, cmd->name,
                                   cmd->behavior == PG_QUERY__DROP_BEHAVIOR__DROP_CASCADE) < 0)
            found = -1;
    }
    if (found == 1 && def->primary) /* its columns stay NOT NULL, as in PostgreSQL 15 */
        for (size_t i = 0; i < ns->n; i++)
            ns->cols[i].pk = false;
    free(def);
    if (found != 0)
        return found < 0 || rl_index_drop_constraint(x, txn, ns->schema, cmd->name) < 0 ? -1 : 0;
    char pkey[RL_INDEX_NAME_MAX + 8];
    snprintf(pkey, sizeof pkey, "%s_pkey", table);
    if (shape_has_pk(ns) && strcmp(cmd->name, pkey) == 0)
        return rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                             "RockLake keeps the primary key of table \"%s\"", table);
    if (cmd->missing_ok)
        return notice(x, RL_SQLSTATE_SUCCESSFUL_COMPLETION,
                      "constraint \"%s\" of relation \"%s\" does not exist, skipping", cmd->name,
                      table);
    return rl_exec_error(x, RL_SQLSTATE_UNDEFINED_OBJECT, -1,
                         "constraint \"%s\" of relation \"%s\" does not exist", cmd->name, table);
}

/* VALIDATE CONSTRAINT: a NOT VALID CHECK or FOREIGN KEY checked against
 * the rows and marked valid; a key constraint is valid already; any other
 * name 42704. */
static int validate_constraint(rl_exec *x, const char *table, const PgQuery__AlterTableCmd *cmd,
                               new_shape *ns)
{
    rl_txn *txn = ns->schema ? rl_exec_txn(x) : NULL;
    rl_relation rel;
    int found = 0;
    if (ns->temp) { /* a CHECK of its own, or a key (valid already) */
        rl_relation trel = {.kind = RL_REL_TEMP, .temp = ns->temp};
        rl_str_copy(trel.schema, sizeof trel.schema, "pg_temp");
        rl_str_copy(trel.name, sizeof trel.name, table);
        found = rl_check_validate(x, &trel, cmd->name);
        for (const rl_temp_key *k = ns->temp->keys; found == 0 && k; k = k->next)
            found = k->def.constraint && strcmp(k->name, cmd->name) == 0;
    }
    if (txn) {
        if (rl_relation_lookup(x, ns->schema, table, &rel) < 0)
            return -1;
        found = rl_check_validate(x, &rel, cmd->name);
        if (found == 0)
            found = rl_fkey_validate(x, txn, ns->schema, table, cmd->name);
        if (found == 0)
            found = rl_index_find_constraint(x, txn, ns->schema, table, cmd->name, NULL);
    }
    if (found != 0)
        return found < 0 ? -1 : 0;
    return rl_exec_error(x, RL_SQLSTATE_UNDEFINED_OBJECT, -1,
                         "constraint \"%s\" of relation \"%s\" does not exist", cmd->name, table);
}

/* ALTER CONSTRAINT: a FOREIGN KEY's DEFERRABLE / INITIALLY changed; any
 * other constraint of the table 42809, another name 42704. */
static int alter_constraint(rl_exec *x, const char *table, const PgQuery__AlterTableCmd *cmd,
                            new_shape *ns)
{
    const PgQuery__Constraint *c = cmd->def && cmd->def->node_case == PG_QUERY__NODE__NODE_CONSTRAINT
                                       ? cmd->def->constraint
                                       : NULL;
    rl_txn *txn = ns->schema ? rl_exec_txn(x) : NULL;
    if (!c || !c->conname)
        return rl_exec_error(x, RL_SQLSTATE_SYNTAX_ERROR, -1, "malformed ALTER CONSTRAINT");
    int found = txn ? rl_fkey_alter(x, txn, ns->schema, table, c) : 0;
    if (found != 0)
        return found < 0 ? -1 : 0;
    rl_relation rel;
    if (txn && rl_relation_lookup(x, ns->schema, table, &rel) < 0)
        return -1;
    const rl_check_con *chk;
    size_t nchk = 0;
    uint64_t stamp;
    if (txn && rl_txn_checks(txn, &chk, &nchk, &stamp, x->err) < 0)
        return -1;
    for (size_t i = 0; i < nchk && !found; i++)
        found = strcmp(chk[i].schema, ns->schema) == 0 && strcmp(chk[i].def.table, table) == 0 &&
                strcmp(chk[i].name, c->conname) == 0;
    if (!found && txn)
        found = rl_index_find_constraint(x, txn, ns->schema, table, c->conname, NULL);
    if (found < 0)
        return -1;
    if (found)
        return rl_exec_error(x, RL_SQLSTATE_WRONG_OBJECT_TYPE, -1,
                             "constraint \"%s\" of relation \"%s\" is not a foreign key constraint",
                             c->conname, table);
    return rl_exec_error(x, RL_SQLSTATE_UNDEFINED_OBJECT, -1,
                         "constraint \"%s\" of relation \"%s\" does not exist", c->conname,
                         table);
}

/* Apply one ALTER TABLE command to the shape. 1 = changed, 0 = skipped
 * (IF [NOT] EXISTS notice sent), -1 error. */
static int alter_cmd(rl_exec *x, const char *table, const PgQuery__AlterTableCmd *cmd,
                     new_shape *ns)
{
    if (cmd->subtype == PG_QUERY__ALTER_TABLE_TYPE__AT_AddColumn) {
        if (!cmd->def || cmd->def->node_case != PG_QUERY__NODE__NODE_COLUMN_DEF)
            return rl_exec_error(x, RL_SQLSTATE_SYNTAX_ERROR, -1,
                                 "ADD COLUMN needs a column definition");
        col_spec cs;
        if (column_def(x, cmd->def->column_def, table, &cs) < 0)
            return -1;
        if (shape_find(ns, cs.name) >= 0) {
            if (cmd->missing_ok)
                return notice(x, RL_SQLSTATE_DUPLICATE_COLUMN,
                              "column \"%s\" of relation \"%s\" already exists, skipping",
                              cs.name, table);
            return rl_exec_error(x, RL_SQLSTATE_DUPLICATE_COLUMN, -1,
                                 "column \"%s\" of relation \"%s\" already exists",
                                 cs.name, table);
        }
        if (ns->n == RL_MAX_COLUMNS)
            return rl_exec_error(x, RL_SQLSTATE_TOO_MANY_COLUMNS, -1,
                                 "tables can have at most %d columns in RockLake",
                                 RL_MAX_COLUMNS);
        if ((cs.serial || cs.identity) && add_sequence_column(x, ns, table, &cs) < 0)
            return -1;
        if (cs.seq_oid) { /* each row its nextval; the column is NOT NULL */
            memset(&ns->fill[ns->n], 0, sizeof ns->fill[ns->n]);
            ns->fill_per_row[ns->n] = true;
        } else if (add_column_fill(x, &cs, &ns->arena, &ns->fill[ns->n],
                                   &ns->fill_per_row[ns->n]) < 0 ||
                   (cs.def && keep_default(x, ns, cs.name, cs.oid, cs.def, true) < 0)) {
            x->err->position = 0; /* ALTER's cookDefault has no statement text to point into */
            return -1;
        }
        cs.pk = false; /* its PRIMARY KEY marks it below, once it is in the shape */
        ns->cols[ns->n] = cs;
        ns->from[ns->n++] = -1;
        /* its key, FOREIGN KEY and CHECK constraints are made after the
         * shape, as ADD CONSTRAINT's (they were dropped before) */
        const PgQuery__ColumnDef *cd = cmd->def->column_def;
        for (size_t i = 0; i < cd->n_constraints; i++) {
            const PgQuery__Node *cn = cd->constraints[i];
            PgQuery__ConstrType t = cn->node_case == PG_QUERY__NODE__NODE_CONSTRAINT
                                        ? cn->constraint->contype
                                        : PG_QUERY__CONSTR_TYPE__CONSTR_NULL;
            if ((t == PG_QUERY__CONSTR_TYPE__CONSTR_PRIMARY ||
                 t == PG_QUERY__CONSTR_TYPE__CONSTR_UNIQUE ||
                 t == PG_QUERY__CONSTR_TYPE__CONSTR_FOREIGN ||
                 t == PG_QUERY__CONSTR_TYPE__CONSTR_CHECK) &&
                add_table_constraint(x, table, cn->constraint, cs.name, ns) < 0)
                return -1;
        }
        return 1;
    }
    if (cmd->subtype == PG_QUERY__ALTER_TABLE_TYPE__AT_DropColumn) {
        int c = shape_find(ns, cmd->name);
        if (c < 0) {
            if (cmd->missing_ok)
                return notice(x, RL_SQLSTATE_SUCCESSFUL_COMPLETION,
                              "column \"%s\" of relation \"%s\" does not exist, skipping",
                              cmd->name, table);
            return rl_exec_error(x, RL_SQLSTATE_UNDEFINED_COLUMN, -1,
                                 "column \"%s\" of relation \"%s\" does not exist",
                                 cmd->name, table);
        }
        memmove(&ns->cols[c], &ns->cols[c + 1], (ns->n - (size_t)c - 1) * sizeof ns->cols[0]);
        memmove(&ns->from[c], &ns->from[c + 1], (ns->n - (size_t)c - 1) * sizeof ns->from[0]);
        memmove(&ns->fill[c], &ns->fill[c + 1], (ns->n - (size_t)c - 1) * sizeof ns->fill[0]);
        memmove(&ns->fill_per_row[c], &ns->fill_per_row[c + 1],
                (ns->n - (size_t)c - 1) * sizeof ns->fill_per_row[0]);
        ns->n--;
        return 1;
    }
    if (cmd->subtype == PG_QUERY__ALTER_TABLE_TYPE__AT_SetNotNull ||
        cmd->subtype == PG_QUERY__ALTER_TABLE_TYPE__AT_DropNotNull)
        return alter_not_null(x, table, cmd, ns);
    if (cmd->subtype == PG_QUERY__ALTER_TABLE_TYPE__AT_AddConstraint)
        return add_constraint(x, table, cmd, ns);
    if (cmd->subtype == PG_QUERY__ALTER_TABLE_TYPE__AT_DropConstraint)
        return drop_constraint(x, table, cmd, ns);
    if (cmd->subtype == PG_QUERY__ALTER_TABLE_TYPE__AT_ValidateConstraint)
        return validate_constraint(x, table, cmd, ns);
    if (cmd->subtype == PG_QUERY__ALTER_TABLE_TYPE__AT_AlterConstraint)
        return alter_constraint(x, table, cmd, ns);
    if (cmd->subtype == PG_QUERY__ALTER_TABLE_TYPE__AT_ColumnDefault)
        return alter_default(x, table, cmd, ns);
    if (cmd->subtype == PG_QUERY__ALTER_TABLE_TYPE__AT_AddIdentity ||
        cmd->subtype == PG_QUERY__ALTER_TABLE_TYPE__AT_SetIdentity ||
        cmd->subtype == PG_QUERY__ALTER_TABLE_TYPE__AT_DropIdentity)
        return alter_identity(x, table, cmd, ns);
    return rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                         "this ALTER TABLE action is not supported by RockLake");
}

/* The value an existing row gets in added column i: the default evaluated
 * once, or for this row (a volatile one; its strings in arena). */
static int new_column_value(rl_exec *x, const new_shape *ns, size_t i, rl_arena *arena,
                            rl_value *out)
{
    if (!ns->fill_per_row[i]) {
        *out = ns->fill[i];
        return 0;
    }
    if (ns->cols[i].seq_oid) {
        int64_t v;
        if (rl_seq_nextval(x, ns->cols[i].seq_oid, &v, -1) < 0)
            return -1;
        rl_val_int(out, ns->cols[i].oid, v);
        return 0;
    }
    bool per_row;
    return add_column_fill(x, &ns->cols[i], arena, out, &per_row);
}

/* A NOT NULL column of ns that would hold a NULL (rows: the table's rows
 * in its old shape): 0, or PostgreSQL's 23502 of ALTER TABLE. */
static int shape_nulls(rl_exec *x, const new_shape *ns, rl_rowset *rows, const char *table)
{
    for (size_t i = 0; i < ns->n; i++) {
        bool nulls = ns->from[i] < 0 ? ns->fill[i].d.isnull && rows->nrows : false;
        for (size_t r = 0; ns->from[i] >= 0 && ns->cols[i].not_null && !nulls && r < rows->nrows;
             r++)
            nulls = rl_rowset_row(rows, r)[ns->from[i]].d.isnull;
        if (ns->cols[i].not_null && nulls)
            return rl_exec_error(x, RL_SQLSTATE_NOT_NULL_VIOLATION, -1,
                                 "column \"%s\" of relation \"%s\" contains null values",
                                 ns->cols[i].name, table);
    }
    return 0;
}

/* A temporary table's keys follow a column renamed (to now) or dropped
 * (now NULL: a key over it goes, as its index does in PostgreSQL). */
static void temp_keys_follow(rl_temp_table *t, const char *old, const char *now)
{
    for (rl_temp_key **pp = &t->keys; *pp;) {
        rl_temp_key *k = *pp;
        bool gone = false;
        for (size_t i = 0; i < k->def.ncols + k->def.ninclude; i++) {
            if (strcmp(k->def.cols[i], old) != 0)
                continue;
            if (now)
                rl_str_copy(k->def.cols[i], sizeof k->def.cols[i], now);
            gone |= !now;
        }
        if (gone) {
            *pp = k->next;
            rl_index_temp_key_free(k);
        } else {
            pp = &k->next;
        }
    }
}

/* Rebuild a temp table into the new shape (rows re-laid column by column). */
static int rebuild_temp(rl_exec *x, rl_temp_table *t, const char *newname, const new_shape *ns)
{
    rl_rowset *old = t->rows;
    if (shape_nulls(x, ns, old, t->name) < 0)
        return -1;
    rl_rowset *nw = rl_rowset_new(ns->n);
    if (!nw)
        return oom(x);
    for (size_t i = 0; i < ns->n; i++) {
        rl_colmeta *c = &nw->cols[i];
        snprintf(c->name, sizeof c->name, "%s", ns->cols[i].name);
        snprintf(c->rel, sizeof c->rel, "%s", newname);
        c->oid = ns->cols[i].oid;
        c->typmod = ns->cols[i].typmod;
        c->attnum = (int16_t)(i + 1);
    }
    for (size_t r = 0; r < old->nrows; r++) {
        rl_value row[RL_MAX_COLUMNS];
        rl_arena arena = {0};
        int rc = 0;
        for (size_t i = 0; rc == 0 && i < ns->n; i++)
            rc = ns->from[i] >= 0 ? (row[i] = rl_rowset_row(old, r)[ns->from[i]], 0)
                                  : new_column_value(x, ns, i, &arena, &row[i]);
        if (rc == 0)
            rc = rl_rowset_add(nw, row, old->src ? &old->src[r] : NULL,
                               x->err); /* copies the strings; the ctid stays */
        rl_arena_free(&arena);
        if (rc < 0) {
            rl_rowset_free(nw);
            return -1;
        }
    }
    for (size_t j = 0; j < old->ncols; j++) { /* its defaults follow renames, drops */
        int now = -1;
        for (size_t i = 0; i < ns->n && now < 0; i++)
            now = ns->from[i] == (int)j ? (int)i : -1;
        if (now < 0 || strcmp(ns->cols[now].name, old->cols[j].name) != 0) {
            rl_default_follow_temp(t, old->cols[j].name, now < 0 ? NULL : ns->cols[now].name);
            temp_keys_follow(t, old->cols[j].name, now < 0 ? NULL : ns->cols[now].name);
        }
        if (now >= 0 && strcmp(ns->cols[now].name, old->cols[j].name) != 0) {
            const rl_table_change moved = {.old_column = old->cols[j].name,
                                           .new_column = ns->cols[now].name};
            rl_seq_temp_table_changed(x->s, t->name, &moved);
        }
    }
    if (strcmp(t->name, newname) != 0) {
        const rl_table_change renamed = {.new_table = newname};
        rl_seq_temp_table_changed(x->s, t->name, &renamed);
    }
    t->rows = nw;
    for (size_t i = 0; i < ns->n; i++)
        t->not_null[i] = ns->cols[i].not_null || ns->cols[i].pk;
    int rc = 0; /* its CHECKs' texts follow renamed columns, go with dropped ones */
    for (size_t j = 0; rc == 0 && t->checks && j < old->ncols; j++) {
        int now = -1;
        for (size_t i = 0; i < ns->n && now < 0; i++)
            now = ns->from[i] == (int)j ? (int)i : -1;
        if (now < 0 || strcmp(ns->cols[now].name, old->cols[j].name) != 0)
            rc = rl_check_temp_follow(x, t, old->cols[j].name,
                                      now < 0 ? NULL : ns->cols[now].name);
    }
    for (rl_temp_key *k = t->keys; k; k = k->next)
        rl_str_copy(k->def.table, sizeof k->def.table, newname);
    snprintf(t->name, sizeof t->name, "%s", newname);
    rl_rowset_free(old);
    rl_seq_temps_sweep(x->s); /* a dropped column's sequences */
    return rc;
}

/* Rebuild a dynamic table: read its rows, drop it, create the new shape
 * (possibly under a new name) and write the rows back. */
static int rebuild_dynamic(rl_exec *x, const rl_relation *rel, const char *newname,
                           const new_shape *ns)
{
    rl_txn *txn = rl_exec_txn(x);
    if (!txn)
        return -1;
    rl_rowset *rows = rl_relation_scan(x, rel, rel->name, NULL, RL_SCAN_KEY);
    if (!rows)
        return -1;
    int rc = shape_nulls(x, ns, rows, rel->name);
    if (rc == 0)
        rc = rl_txn_drop_table(txn, rel->schema, rel->name, x->err);
    if (rc == 0)
        rc = create_dynamic(x, txn, rel->schema, newname, ns->cols, ns->n);
    const rl_table_desc *d = rc == 0 ? rl_txn_find_table(txn, rel->schema, newname, x->err) : NULL;
    if (rc == 0 && !d)
        rc = -1;
    /* the rows were valid and are written back in any order: a FOREIGN
     * KEY's entries are kept, its referenced keys not checked */
    rl_txn_fkey_checks(txn, false);
    for (size_t r = 0; rc == 0 && r < rows->nrows; r++) {
        rl_datum row[RL_MAX_COLUMNS];
        const rl_value *src = rl_rowset_row(rows, r);
        rl_arena arena = {0};
        for (size_t i = 0; rc == 0 && i < ns->n; i++) {
            rl_value v;
            if (ns->from[i] >= 0)
                row[i] = src[ns->from[i]].d;
            else if ((rc = new_column_value(x, ns, i, &arena, &v)) == 0)
                row[i] = v.d;
        }
        if (rc == 0)
            rc = rl_txn_insert(txn, d, row, x->err);
        rl_arena_free(&arena);
    }
    rl_txn_fkey_checks(txn, true);
    rl_rowset_free(rows);
    return rc;
}

/* ADD COLUMN of columns of the client's own to a DuckLake table (its
 * existing rows read NULL there: no rewrite). 1 = done, 0 = not only such
 * additions, -1 error. */
static int extend_fixed(rl_exec *x, const rl_relation *rel, const char *newname,
                        const new_shape *ns)
{
    rl_txn *txn = rl_exec_txn(x);
    if (!txn)
        return -1;
    size_t n0 = rl_txn_table_ncols(txn, rel->desc);
    if (strcmp(newname, rel->name) != 0 || ns->n <= n0)
        return 0;
    for (size_t i = 0; i < ns->n; i++)
        if (ns->from[i] != (i < n0 ? (int)i : -1))
            return 0;
    for (size_t i = n0; i < ns->n; i++) {
        rl_column_desc c;
        const rl_table_desc *d = rl_txn_find_table(txn, rel->schema, rel->name, x->err);
        if (!d || extension_column(x, d, &ns->cols[i], &c) < 0 ||
            rl_txn_extend_fixed(txn, rel->schema, d, &c, x->err) < 0)
            return -1;
    }
    return 1;
}

/* Change a table to `ns` under `newname`: temp and dynamic tables are
 * rebuilt; fixed DuckLake tables only take columns of the client's own
 * (extend_fixed). */
static int apply_shape(rl_exec *x, const rl_relation *rel, const char *newname,
                       const new_shape *ns)
{
    if (rel->kind == RL_REL_TEMP)
        return rebuild_temp(x, rel->temp, newname, ns);
    if (rel->kind == RL_REL_STORED && rl_desc_is_dynamic(rel->desc))
        return rebuild_dynamic(x, rel, newname, ns);
    int extended = rel->kind == RL_REL_STORED ? extend_fixed(x, rel, newname, ns) : 0;
    if (extended != 0)
        return extended < 0 ? -1 : 0;
    return rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                         "ALTER TABLE of DuckLake table \"%s\" is not supported: its shape is "
                         "fixed by the catalog's DuckLake format (%s)",
                         rel->name, rl_format_name(rl_exec_format(x)));
}

/* Resolve the ALTER target; 0 = absent with IF EXISTS (notice sent). */
static int alter_target(rl_exec *x, const PgQuery__RangeVar *rv, bool missing_ok,
                        rl_relation *rel)
{
    rl_error save;
    if (rl_relation_resolve(x, rv, rel) == 0) {
        if (rel->kind == RL_REL_VIRTUAL)
            return rl_exec_error(x, RL_SQLSTATE_INSUFFICIENT_PRIVILEGE, rv->location,
                                 "permission denied: \"%s\" is a system "
                                 "catalog", rel->name);
        return rel->kind == RL_REL_TEMP && rl_ddl_temps_touch(x) < 0 ? -1 : 1;
    }
    if (!missing_ok || strcmp(x->err->sqlstate, RL_SQLSTATE_UNDEFINED_TABLE) != 0)
        return -1;
    memset(&save, 0, sizeof save);
    *x->err = save;
    notice(x, RL_SQLSTATE_SUCCESSFUL_COMPLETION, "relation \"%s\" does not exist, skipping%s",
           rv->relname, "");
    return 0;
}

/* ALTER TABLE <DuckLake table> ADD COLUMN <the column a newer format
 * appends>, as DuckLake's migration 1.0 -> 1.1 sends it: the transaction
 * (and at COMMIT the catalog) takes the newer format; the migration's other
 * tables keep their old shape until their own ADD COLUMN reaches them
 * (rl_txn_migrate_table). 1 = done, 0 = not such a command (the generic
 * path decides), -1 error. */
static int alter_fixed_format(rl_exec *x, const rl_relation *rel, const PgQuery__AlterTableStmt *st)
{
    if (st->n_cmds != 1 || st->cmds[0]->node_case != PG_QUERY__NODE__NODE_ALTER_TABLE_CMD)
        return 0;
    const PgQuery__AlterTableCmd *cmd = st->cmds[0]->alter_table_cmd;
    if (cmd->subtype != PG_QUERY__ALTER_TABLE_TYPE__AT_AddColumn || !cmd->def ||
        cmd->def->node_case != PG_QUERY__NODE__NODE_COLUMN_DEF)
        return 0;
    col_spec cs;
    if (column_def(x, cmd->def->column_def, rel->name, &cs) < 0)
        return -1;
    if (cs.check)
        return 0; /* no format's column has a CHECK: the generic path answers */
    rl_txn *txn = rl_exec_txn(x);
    if (!txn)
        return -1;
    const rl_table_desc *d = rel->desc;
    rl_format cur = rl_txn_format(txn);
    /* the table the migration reaches next: its column is the format's own */
    size_t n = rl_txn_table_ncols(txn, d);
    if (rl_txn_table_lagging(txn, d))
        return rl_desc_ncols(d, cur) == n + 1 && strcmp(d->cols[n].name, cs.name) == 0 &&
                       cs.oid == rl_type_oid(d->cols[n].type)
                   ? (rl_txn_migrate_table(txn, d, cur, x->err) < 0 ? -1 : 1)
                   : 0;
    for (rl_format f = cur + 1; f <= RL_FMT_LATEST; f++) {
        if (rl_format_parse(rl_format_name(f)) != f || rl_desc_ncols(d, f) != n + 1 ||
            strcmp(d->cols[n].name, cs.name) != 0 || cs.oid != rl_type_oid(d->cols[n].type))
            continue;
        return rl_txn_migrate_table(txn, d, f, x->err) < 0 ? -1 : 1;
    }
    return 0;
}

int rl_ddl_alter_table(rl_exec *x, const PgQuery__AlterTableStmt *st)
{
    if (st->objtype != PG_QUERY__OBJECT_TYPE__OBJECT_TABLE)
        return rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                             "only ALTER TABLE is supported by RockLake");
    rl_relation rel;
    int found = alter_target(x, st->relation, st->missing_ok, &rel);
    if (found <= 0)
        return found < 0 ? -1 : rl_send_complete(x, "ALTER TABLE");
    rl_txn *in_use = rel.kind == RL_REL_STORED ? rl_exec_txn(x) : NULL;
    if (in_use && rl_fkey_not_in_use(x, in_use, rel.desc, "ALTER TABLE", rel.name) < 0)
        return -1;
    if (rel.kind == RL_REL_STORED && !rl_desc_is_dynamic(rel.desc)) {
        int done = alter_fixed_format(x, &rel, st);
        if (done != 0)
            return done < 0 ? -1 : rl_send_complete(x, "ALTER TABLE");
    }
    rl_rowset *shape = rl_relation_shape(x, &rel, rel.name);
    if (!shape)
        return -1;
    new_shape ns;
    shape_from_rowset(shape, table_ncols(shape), &ns);
    shape_constraints(x, &rel, &ns);
    int rc = 0, changed = 0;
    for (size_t i = 0; rc >= 0 && i < st->n_cmds; i++) {
        if (st->cmds[i]->node_case != PG_QUERY__NODE__NODE_ALTER_TABLE_CMD)
            continue;
        rc = alter_cmd(x, rel.name, st->cmds[i]->alter_table_cmd, &ns);
        changed |= rc > 0;
    }
    for (size_t i = 0; rc >= 0 && changed && rel.kind == RL_REL_TEMP && i < ns.nadds; i++)
        if ((rc = rl_index_temp_key_holds(x, rel.temp, &ns.adds[i])) < 0)
            x->err->position = 0;
    if (rc >= 0 && changed)
        rc = apply_shape(x, &rel, rel.name, &ns);
    for (size_t i = 0; rc >= 0 && i < ns.ndefaults; i++) {
        rc = ns.defaults[i].seq
                 ? sequence_default_set(x, rel.schema, rel.name, ns.defaults[i].column,
                                        ns.defaults[i].oid, ns.defaults[i].seq,
                                        ns.defaults[i].identity)
                 : rel.kind == RL_REL_TEMP
                 ? rl_default_set_temp(x, rel.temp, ns.defaults[i].column, ns.defaults[i].oid,
                                       ns.defaults[i].expr, 0)
                 : rl_default_set(x, rel.schema, rel.name, ns.defaults[i].column,
                                  ns.defaults[i].oid, ns.defaults[i].expr, 0);
        if (rc < 0) /* ALTER's cookDefault has no statement text to point into */
            x->err->position = 0;
    }
    for (size_t i = 0; rc >= 0 && i < ns.nadds; i++) {
        rl_txn *txn = rel.kind == RL_REL_TEMP ? NULL : rl_exec_txn(x);
        rc = rel.kind == RL_REL_TEMP ? rl_index_add_temp_key(x, rel.temp, &ns.adds[i])
             : txn ? rl_index_add_key_constraint(x, txn, rel.schema, rel.name, &ns.adds[i])
                   : -1;
        if (rc < 0) /* ALTER's index constraint errors have no position either */
            x->err->position = 0;
    }
    for (size_t i = 0; rc >= 0 && i < ns.nfkeys; i++) {
        rl_txn *txn = rl_exec_txn(x);
        rc = txn ? rl_fkey_add(x, txn, rel.schema, rel.name, ns.fkeys[i], ns.fkey_columns[i])
                 : -1;
    }
    for (size_t i = 0; rc >= 0 && i < ns.nchecks; i++) {
        rl_txn *ctxn = rel.kind == RL_REL_TEMP ? NULL : rl_exec_txn(x);
        if (rel.kind != RL_REL_TEMP &&
            (!ctxn || rl_fkey_check_conflict(x, ctxn, rel.schema, rel.name) < 0)) {
            rc = -1;
            break;
        }
        rl_relation now; /* after a rebuild the table is another descriptor */
        rc = rl_relation_lookup(x, rel.schema, rel.name, &now) < 0
                 ? -1
                 : rl_check_add(x, &now, ns.checks[i]);
        if (rc < 0) /* as a default's: ALTER's CHECK errors have no position */
            x->err->position = 0;
    }
    for (size_t i = 0; rc >= 0 && changed && rel.kind == RL_REL_STORED && i < st->n_cmds; i++) {
        const PgQuery__AlterTableCmd *cmd = st->cmds[i]->alter_table_cmd;
        if (st->cmds[i]->node_case != PG_QUERY__NODE__NODE_ALTER_TABLE_CMD ||
            cmd->subtype != PG_QUERY__ALTER_TABLE_TYPE__AT_DropColumn)
            continue;
        const rl_table_change dropped = {.dropped_column = cmd->name};
        rl_txn *txn = rl_exec_txn(x);
        rc = txn ? table_dependents_follow(x, txn, rel.schema, rel.name, &dropped) : -1;
    }
    rl_rowset_free(shape); /* after apply: ns borrows its column names */
    rl_arena_free(&ns.arena);
    return rc < 0 ? -1 : rl_send_complete(x, "ALTER TABLE");
}

/* RENAME CONSTRAINT of a FOREIGN KEY: 42710 if a constraint of the table
 * holds the new name. 1 done, -1 error. */
static int rename_fkey(rl_exec *x, rl_txn *txn, const rl_relation *rel, const char *name,
                       const char *newname, const rl_fkey_def *fk)
{
    rl_fkey_def *other = malloc(sizeof *other);
    rl_index_def *idx = other ? malloc(sizeof *idx) : NULL;
    int taken = idx ? rl_fkey_find(x, txn, rel->schema, rel->name, newname, other) : -1;
    if (taken == 0)
        taken = rl_index_find_constraint(x, txn, rel->schema, rel->name, newname, idx);
    free(other);
    free(idx);
    if (taken != 0)
        return taken < 0 ? -1
                         : rl_exec_error(x, RL_SQLSTATE_DUPLICATE_OBJECT, -1,
                                         "constraint \"%s\" for relation \"%s\" already exists",
                                         newname, rel->name);
    return rl_txn_replace_fkey(txn, rel->schema, rel->name, name, rel->name, newname, fk, x->err) <
                   0
               ? -1
               : 1;
}

/* ALTER TABLE ... RENAME CONSTRAINT of a UNIQUE / PRIMARY KEY constraint
 * (its index is renamed with it, as in PostgreSQL); a DuckLake table's own
 * primary key keeps its name (0A000); any other name is 42704. */
static int rename_constraint(rl_exec *x, const PgQuery__RenameStmt *st)
{
    rl_relation rel;
    int found = alter_target(x, st->relation, st->missing_ok, &rel);
    if (found <= 0)
        return found < 0 ? -1 : rl_send_complete(x, "ALTER TABLE");
    rl_txn *in_use = rel.kind == RL_REL_STORED ? rl_exec_txn(x) : NULL;
    if (in_use && rl_fkey_not_in_use(x, in_use, rel.desc, "ALTER TABLE", rel.name) < 0)
        return -1;
    rl_txn *txn = rel.kind == RL_REL_STORED ? rl_exec_txn(x) : NULL;
    rl_fkey_def *fk = txn ? malloc(sizeof *fk) : NULL;
    int is_fk = fk ? rl_fkey_find(x, txn, rel.schema, rel.name, st->subname, fk) : 0;
    if (is_fk == 1 && strlen(st->newname) >= RL_INDEX_NAME_MAX)
        is_fk = rl_exec_error(x, RL_SQLSTATE_NAME_TOO_LONG, -1, "identifier \"%s\" is too long",
                              st->newname);
    if (is_fk == 1)
        is_fk = rename_fkey(x, txn, &rel, st->subname, st->newname, fk);
    free(fk);
    if (is_fk != 0)
        return is_fk < 0 ? -1 : rl_send_complete(x, "ALTER TABLE");
    if (txn && strlen(st->newname) >= RL_INDEX_NAME_MAX)
        return rl_exec_error(x, RL_SQLSTATE_NAME_TOO_LONG, -1, "identifier \"%s\" is too long",
                             st->newname);
    if (rel.kind == RL_REL_TEMP && strlen(st->newname) >= RL_INDEX_NAME_MAX)
        return rl_exec_error(x, RL_SQLSTATE_NAME_TOO_LONG, -1, "identifier \"%s\" is too long",
                             st->newname);
    int check = txn || rel.kind == RL_REL_TEMP ? rl_check_rename(x, &rel, st->subname, st->newname)
                                               : 0;
    if (check != 0)
        return check < 0 ? -1 : rl_send_complete(x, "ALTER TABLE");
    for (rl_temp_key *k = rel.kind == RL_REL_TEMP ? rel.temp->keys : NULL; k; k = k->next) {
        if (!k->def.constraint || strcmp(k->name, st->subname) != 0) /* its index renamed too */
            continue;
        if (rl_index_name_taken(x, NULL, "pg_temp", st->newname))
            return rl_exec_error(x, RL_SQLSTATE_DUPLICATE_TABLE, -1,
                                 "relation \"%s\" already exists", st->newname);
        for (const rl_temp_check *c = rel.temp->checks; c; c = c->next)
            if (strcmp(c->name, st->newname) == 0)
                return rl_exec_error(x, RL_SQLSTATE_DUPLICATE_OBJECT, -1,
                                     "constraint \"%s\" for relation \"%s\" already exists",
                                     st->newname, rel.name);
        rl_str_copy(k->name, sizeof k->name, st->newname);
        return rl_send_complete(x, "ALTER TABLE");
    }
    rl_index_def *def = txn ? malloc(sizeof *def) : NULL;
    int has = def ? rl_index_find_constraint(x, txn, rel.schema, rel.name, st->subname, def) : 0;
    free(def);
    if (has < 0)
        return -1;
    if (has == 0) {
        char pkey[RL_INDEX_NAME_MAX + 8];
        snprintf(pkey, sizeof pkey, "%s_pkey", rel.name);
        if (rel.kind == RL_REL_STORED && rel.desc->pk_check != RL_PK_NONE &&
            rel.desc->pk_col >= 0 && strcmp(st->subname, pkey) == 0)
            return rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                                 "RockLake keeps the primary key of table \"%s\"", rel.name);
        return rl_exec_error(x, RL_SQLSTATE_UNDEFINED_OBJECT, -1,
                             "constraint \"%s\" for table \"%s\" does not exist", st->subname,
                             rel.name);
    }
    if (strlen(st->newname) >= RL_INDEX_NAME_MAX)
        return rl_exec_error(x, RL_SQLSTATE_NAME_TOO_LONG, -1, "identifier \"%s\" is too long",
                             st->newname);
    int taken = rl_index_name_taken(x, txn, rel.schema, st->newname);
    if (taken != 0)
        return taken < 0 ? -1
                         : rl_exec_error(x, RL_SQLSTATE_DUPLICATE_TABLE, -1,
                                         "relation \"%s\" already exists", st->newname);
    const rl_table_change renamed = {.new_table = st->newname};
    if (rl_txn_rename_index(txn, rel.schema, st->subname, st->newname, x->err) < 0 ||
        rl_comment_table_changed(x, txn, rel.schema, st->subname, &renamed) < 0)
        return -1;
    return rl_send_complete(x, "ALTER TABLE");
}

int rl_ddl_rename(rl_exec *x, const PgQuery__RenameStmt *st)
{
    if (st->rename_type == PG_QUERY__OBJECT_TYPE__OBJECT_TABCONSTRAINT && st->relation)
        return rename_constraint(x, st);
    /* ALTER TABLE and ALTER INDEX ... RENAME TO each rename either kind */
    bool as_index = st->rename_type == PG_QUERY__OBJECT_TYPE__OBJECT_INDEX;
    if (as_index || st->rename_type == PG_QUERY__OBJECT_TYPE__OBJECT_TABLE) {
        bool handled;
        int rc = rl_ddl_rename_index(x, st, &handled);
        if (rc < 0 || handled)
            return rc;
    }
    const char *tag = as_index ? "ALTER INDEX" : "ALTER TABLE";
    bool table = st->rename_type == PG_QUERY__OBJECT_TYPE__OBJECT_TABLE || as_index;
    bool column = st->rename_type == PG_QUERY__OBJECT_TYPE__OBJECT_COLUMN &&
                  st->relation_type == PG_QUERY__OBJECT_TYPE__OBJECT_TABLE;
    if ((!table && !column) || !st->relation)
        return rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                             "only ALTER TABLE ... RENAME is supported by RockLake");
    if (strlen(st->newname) >= 64)
        return rl_exec_error(x, RL_SQLSTATE_NAME_TOO_LONG, -1, "identifier \"%s\" is too long",
                             st->newname);
    rl_relation rel;
    int found = alter_target(x, st->relation, st->missing_ok, &rel);
    if (found <= 0)
        return found < 0 ? -1 : rl_send_complete(x, tag);
    if (rel.kind == RL_REL_SEQUENCE && st->rename_type == PG_QUERY__OBJECT_TYPE__OBJECT_TABLE)
        return rl_seq_rename(x, st, tag); /* ALTER TABLE renames any relation */
    rl_rowset *shape = rl_relation_shape(x, &rel, rel.name);
    if (!shape)
        return -1;
    new_shape ns;
    shape_from_rowset(shape, table_ncols(shape), &ns);
    shape_constraints(x, &rel, &ns);
    int rc = 0;
    const char *newname = rel.name;
    if (table) {
        rl_relation other;
        newname = st->newname;
        rl_error keep = *x->err;
        rl_txn *txn = rel.kind == RL_REL_STORED ? rl_exec_txn(x) : NULL;
        int taken = rel.kind == RL_REL_TEMP
                        ? rl_index_name_taken(x, NULL, "pg_temp", newname)
                    : rl_relation_lookup(x, rel.schema, newname, &other) == 0
                        ? 1
                        : (*x->err = keep, txn ? rl_index_name_taken(x, txn, rel.schema, newname)
                                               : 0);
        if (taken > 0)
            rc = rl_exec_error(x, RL_SQLSTATE_DUPLICATE_TABLE, -1, "relation \"%s\" already exists",
                               newname);
        else if (taken < 0)
            rc = -1;
        else
            *x->err = keep;
    } else {
        int c = shape_find(&ns, st->subname);
        if (c < 0)
            rc = rl_exec_error(x, RL_SQLSTATE_UNDEFINED_COLUMN, -1, "column \"%s\" does not exist",
                               st->subname);
        else if (not_a_system_column(x, st->newname) < 0)
            rc = -1;
        else if (shape_find(&ns, st->newname) >= 0)
            rc = rl_exec_error(x, RL_SQLSTATE_DUPLICATE_COLUMN, -1,
                               "column \"%s\" of relation \"%s\" already exists",
                               st->newname, rel.name);
        else
            ns.cols[c].name = st->newname;
    }
    if (rc == 0)
        rc = apply_shape(x, &rel, newname, &ns);
    if (rc == 0 && rel.kind == RL_REL_STORED) {
        const rl_table_change renamed = {.new_table = table ? newname : NULL,
                                         .old_column = table ? NULL : st->subname,
                                         .new_column = table ? NULL : st->newname};
        rl_txn *txn = rl_exec_txn(x);
        rc = txn ? table_dependents_follow(x, txn, rel.schema, rel.name, &renamed) : -1;
    }
    rl_rowset_free(shape);
    rl_arena_free(&ns.arena);
    return rc < 0 ? -1 : rl_send_complete(x, tag);
}
