/*
 * sql_default.h — column DEFAULTs of the catalog's tables (sql_default.c),
 * private to src/sql/.
 */
#ifndef ROCKLAKE_SQL_DEFAULT_H
#define ROCKLAKE_SQL_DEFAULT_H

#include <pg_query/pg_query.pb-c.h>

#include "sql/sql_exec.h"
#include "sql/sql_expr.h"
#include "sql/sql_relation.h"
#include "sql/sql_stmt.h"
#include "sql/sql_value.h"

/* The defaults of one table as a statement uses them: per column of its
 * shape the parsed expression (NULL: no default), borrowed from the
 * session's cache for the statement. */
typedef struct rl_defaults {
    bool any;
    const rl_parsed *parsed[RL_MAX_COLUMNS];
    const PgQuery__Node *expr[RL_MAX_COLUMNS];
    char identity[RL_MAX_COLUMNS]; /* an identity column's 'a' (ALWAYS) / 'd', 0 */
    bool user_value_ignored[RL_MAX_COLUMNS]; /* OVERRIDING USER VALUE: the default */
    bool stored; /* a stored table's: its names are not the temporary relations' */
} rl_defaults;

/* rel's defaults, for the first ntab columns of shape (a relation other
 * than a stored dynamic table has none). 0 or -1. */
int rl_defaults_of(rl_exec *x, const rl_relation *rel, const rl_rowset *shape, size_t ntab,
                   rl_defaults *out);
/* Column c's default evaluated (ec's arena holds its strings): 1 with *out,
 * 0 when c has none (the column gets NULL), -1 error. The caller assigns
 * the value to the column (its typmod, as PostgreSQL's coercion does). */
int rl_default_eval(rl_expr_ctx *ec, const rl_defaults *d, size_t c, rl_value *out);

/* The catalog's rl_default_fn (ctx: the statement's rl_exec): a FOREIGN
 * KEY's SET DEFAULT action takes the column's default, evaluated and
 * assigned to it. The DML statements set it for their run. */
int rl_default_for_fkey(void *ctx, const char *schema, const rl_table_desc *d, size_t col,
                        rl_arena *arena, rl_datum *out, rl_error *err);
/* The catalog's rl_assign_fn (ctx: the statement's rl_exec): the new key
 * an ON UPDATE CASCADE writes, assigned to the column (its type and typmod)
 * as PostgreSQL's UPDATE assigns it. Set beside rl_default_for_fkey. */
int rl_cascade_for_fkey(void *ctx, const char *schema, const rl_table_desc *d, size_t col,
                        rl_type from, const rl_datum *in, rl_arena *arena, rl_datum *out,
                        rl_error *err);

/* CREATE TABLE's column defaults for the new stored table schema.table
 * (0A000 for a DuckLake table's own columns). 0 or -1. */
int rl_default_create_table(rl_exec *x, const char *schema, const char *table,
                            const PgQuery__CreateStmt *st);
/* ALTER TABLE ... ALTER COLUMN c SET DEFAULT expr (expr NULL: DROP DEFAULT;
 * a NULL constant drops it too, as in PostgreSQL), and ADD COLUMN's: the
 * expression analysed against the column's type (oid) and kept; identity
 * 'a' / 'd': an identity column's nextval. 0 or -1. */
int rl_default_set(rl_exec *x, const char *schema, const char *table, const char *column,
                   uint32_t oid, const PgQuery__Node *expr, char identity);
/* A temporary table's defaults, kept in the session (no catalog holds
 * them, and no catalog view lists a temporary table): set_temp is
 * rl_default_set's twin (expr NULL drops; identity 'a' / 'd' an identity
 * column's nextval); follow_temp makes them follow a
 * rebuild (old_name -> new_name, new_name NULL: the column dropped);
 * free_temp frees them with the table; copy_temp below. */
int rl_default_set_temp(rl_exec *x, rl_temp_table *t, const char *column, uint32_t oid,
                        const PgQuery__Node *expr, char identity);
void rl_default_follow_temp(rl_temp_table *t, const char *old_name, const char *new_name);
void rl_default_free_temp(rl_temp_table *t);
/* dst (with none) takes copies of src's defaults (a savepoint's copy of
 * the table). 0, or -1 out of memory. */
int rl_default_copy_temp(rl_temp_table *dst, const rl_temp_table *src);
/* schema.table's column's default (pg_temp: a temporary table's): 'a' /
 * 'd' an identity column's
 * (GENERATED ALWAYS / BY DEFAULT), 'n' another, 0 none, -1 error. */
int rl_default_kind(rl_exec *x, const char *schema, const char *table, const char *column);
/* The value ADD COLUMN c T DEFAULT expr gives an existing row: the
 * expression analysed as a DEFAULT (PostgreSQL's errors) and evaluated,
 * unassigned (*out NULL-typed unknown for a NULL default); *per_row: it is
 * volatile, so PostgreSQL evaluates it for each row (call again per row).
 * 0 or -1. */
int rl_default_fill_value(rl_exec *x, const char *column, uint32_t oid, const PgQuery__Node *expr,
                          rl_expr_ctx *ec, rl_value *out, bool *per_row);
/* A table's defaults follow its DDL: DROP TABLE drops them, a table or
 * column rename moves them, DROP COLUMN drops the column's. 0 or -1. */
int rl_default_table_changed(rl_exec *x, rl_txn *txn, const char *schema, const char *table,
                             const rl_table_change *ch);

#endif
