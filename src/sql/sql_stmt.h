/*
 * sql_stmt.h — the statements sql.c dispatches to, private to src/sql/: a
 * prepared statement's parameters (sql_params.c), INSERT / UPDATE / DELETE
 * (sql_dml.c), DDL (sql_ddl.c), COPY and binary input (sql_copy.c), and
 * what a read-only role may do (sql_privilege.c).
 */
#ifndef ROCKLAKE_SQL_STMT_H
#define ROCKLAKE_SQL_STMT_H

#include <pg_query/pg_query.pb-c.h>

#include "sql/sql_exec.h"
#include "sql/sql_relation.h"

/* ---------------------------------------------------------- sql_params.c */

/* A parameter's place in its statement (rl_params_count's flags). */
enum {
    RL_PARAM_TYPEABLE = 1,      /* referred to somewhere that can give a type (not
                                   only as the operand of IS [NOT] NULL) */
    RL_PARAM_UNKNOWN_FIRST = 2  /* typeable, but referred to first as such an
                                   operand (so with no type there: PostgreSQL's 42P08) */
};
/* Most parameters a statement may have: what Bind can carry (its count is
 * an unsigned Int16, as PostgreSQL reads it). */
#define RL_MAX_PARAMS 65535
/* The highest $n the statement refers to (0: none) in *out and, when it is
 * 1 or more, *flags (malloc'd, *out entries, the caller frees): each
 * parameter's RL_PARAM_* bits. -1 + 54001 when it nests too deep to look
 * at, 54000 past RL_MAX_PARAMS, 53200 out of memory. */
int rl_params_count(rl_exec *x, const PgQuery__Node *stmt, size_t *out, uint8_t **flags);
/* Give each of the n parameters Parse left untyped (oids[i] == 0) the type
 * its context in `stmt` gives it, as PostgreSQL infers one (a cast, the
 * column it is compared with or stored in, LIMIT, a condition), else text.
 * Relations are resolved on the session's current lake (route first); one
 * that does not resolve is left out. Never fails. It walks the statement
 * whatever oids holds: the caller calls it when some parameter is untyped. */
void rl_params_infer(rl_exec *x, const PgQuery__Node *stmt, uint32_t *oids, size_t n);

/* ------------------------------------------------------- sql_dml/ddl/copy.c */

int rl_dml_insert(rl_exec *x, const PgQuery__InsertStmt *st);
int rl_dml_update(rl_exec *x, const PgQuery__UpdateStmt *st);
int rl_dml_delete(rl_exec *x, const PgQuery__DeleteStmt *st);
/* Delete every row of rv's table (TRUNCATE's, sql_truncate.c): *count
 * rows; no command tag, no statement-end checks. 0 or -1. */
int rl_dml_delete_all(rl_exec *x, const PgQuery__RangeVar *rv, uint64_t *count);
/* TRUNCATE (sql_truncate.c). */
int rl_truncate(rl_exec *x, const PgQuery__TruncateStmt *st);
/* Does this INSERT / UPDATE / DELETE have a RETURNING list? */
bool rl_dml_has_returning(const PgQuery__Node *n);
/* Its result columns, with no rows (extended-protocol Describe): NULL with
 * x's error set when the list or the statement does not type. */
rl_rowset *rl_dml_returning_describe(rl_exec *x, const PgQuery__Node *n);
/* Insert one row of already-coerced values into a relation (used by INSERT
 * and COPY FROM). */
int rl_dml_insert_row(rl_exec *x, const rl_relation *rel, const rl_value *row);
/* The columns of row (rel's, in shape's first ntab columns) that `given`
 * does not mark get their DEFAULTs (COPY FROM's columns left out), their
 * strings in `arena`. 0 or -1. */
int rl_dml_defaults_fill(rl_exec *x, const rl_relation *rel, const rl_rowset *shape, size_t ntab,
                         const bool *given, rl_value *row, rl_arena *arena);

int rl_ddl_create_table(rl_exec *x, const PgQuery__CreateStmt *st);
int rl_ddl_create_schema(rl_exec *x, const PgQuery__CreateSchemaStmt *st);
int rl_ddl_drop(rl_exec *x, const PgQuery__DropStmt *st);
int rl_ddl_alter_table(rl_exec *x, const PgQuery__AlterTableStmt *st);
int rl_ddl_rename(rl_exec *x, const PgQuery__RenameStmt *st);
/* sql_index.c: CREATE INDEX, DROP INDEX, ALTER INDEX ... RENAME. */
int rl_ddl_create_index(rl_exec *x, const PgQuery__IndexStmt *st);
int rl_ddl_drop_index(rl_exec *x, const PgQuery__DropStmt *st);
/* ALTER INDEX/TABLE name RENAME when `name` is an index: *handled and its
 * result; else *handled false and 0 (a table's rename goes on), or -1. */
int rl_ddl_rename_index(rl_exec *x, const PgQuery__RenameStmt *st, bool *handled);
/* 1 if a table or an index holds schema.name, 0 if neither, -1 error. */
int rl_index_name_taken(rl_exec *x, rl_txn *txn, const char *schema, const char *name);
/* What a table's DDL did, for its indexes to follow: dropped (they go),
 * renamed (they name the new table), a column renamed (old -> new) or
 * dropped (the indexes using it go, as PostgreSQL drops them). */
typedef struct rl_table_change {
    bool dropped_table;
    const char *new_table;
    const char *old_column, *new_column;
    const char *dropped_column;
} rl_table_change;
int rl_index_table_changed(rl_exec *x, rl_txn *txn, const char *schema, const char *table,
                           const rl_table_change *ch);
/* A UNIQUE or PRIMARY KEY constraint to make (CREATE TABLE, ALTER TABLE
 * ADD): its index is a UNIQUE index flagged as the constraint's, named as
 * PostgreSQL names it (<table>_pkey, <table>_<columns>_key) unless `name`. */
typedef struct rl_key_constraint {
    const char *name; /* NULL: chosen */
    bool primary, nulls_not_distinct;
    size_t ncols, ninclude; /* INCLUDE columns: cols[ncols .. ncols + ninclude) */
    const char *cols[RL_INDEX_MAX_KEYS];
    int location; /* the constraint's, for its errors */
} rl_key_constraint;
/* c as a key constraint (`column`: the column of a column constraint, else
 * NULL): 1, 0 if c is another kind, -1 error (0A000 for options RockLake
 * does not keep, 54011 for too many columns). */
int rl_key_constraint_from(rl_exec *x, const PgQuery__Constraint *c, const char *column,
                           rl_key_constraint *out);
/* Make k on stored table schema.table (its columns NOT NULL already for a
 * primary key): 42P16 a second primary key, 42703, 42704 a type without
 * a btree operator class, 42P07 a name taken, 23505 over duplicate rows. */
int rl_index_add_key_constraint(rl_exec *x, rl_txn *txn, const char *schema, const char *table,
                                const rl_key_constraint *k);
/* The same on temporary table t (kept in t->keys, named among the
 * session's temporary relations), its rows checked first (23505 "could
 * not create unique index"). 0 or -1. */
int rl_index_add_temp_key(rl_exec *x, rl_temp_table *t, const rl_key_constraint *k);
/* A temporary table's key freed (its hash too). */
void rl_index_temp_key_free(rl_temp_key *k);
/* ALTER TABLE's check of k against t's rows before its shape changes (as
 * PostgreSQL builds the index before it checks a new NOT NULL): 0 (also
 * when k names a column the statement adds), or -1. */
int rl_index_temp_key_holds(rl_exec *x, rl_temp_table *t, const rl_key_constraint *k);
/* A row about to be written to temporary table t against its keys: the
 * rows of t (but those skip marks) and of `more` (t's columns; NULL for
 * none) that hold its entry: 0, or -1 with PostgreSQL's 23505. */
int rl_index_temp_check_row(rl_exec *x, rl_temp_table *t, const rl_value *row,
                            const bool *skip, rl_rowset *more);
/* The constraint index `name` of schema.table into *def: 1, 0 none, -1. */
int rl_index_find_constraint(rl_exec *x, rl_txn *txn, const char *schema, const char *table,
                             const char *name, rl_index_def *def);
/* The name of schema.table's primary-key constraint index into name
 * (RL_INDEX_NAME_MAX) and its definition: 1, 0 none, -1 error. */
int rl_index_primary_key(rl_exec *x, rl_txn *txn, const char *schema, const char *table,
                         char *name, rl_index_def *def);
/* INSERT ... ON CONFLICT's arbiters on a stored table: its own primary key
 * (a DuckLake table's), and UNIQUE indexes by id; `all`: every one. */
#define RL_MAX_ARBITERS 16
typedef struct rl_arbiters {
    bool all, pk;
    uint64_t ids[RL_MAX_ARBITERS];
    size_t nids;
} rl_arbiters;
/* The arbiters `infer` names (NULL: all): ON CONSTRAINT name (42704), or
 * the UNIQUE indexes and primary key over exactly the listed columns
 * (42P10 when none is). */
int rl_index_arbiters(rl_exec *x, rl_txn *txn, const rl_relation *rel,
                      const PgQuery__InferClause *infer, rl_arbiters *out);
/* The row of temporary table t that holds row's entry in one of the
 * arbiters' keys (its number in t->rows), or -1. */
long rl_index_temp_conflict(rl_temp_table *t, const rl_value *row, const rl_arbiters *arb);
/* DROP CONSTRAINT of a constraint index (its entries go with it). */
int rl_index_drop_constraint(rl_exec *x, rl_txn *txn, const char *schema, const char *name);

/* sql_fkey.c: FOREIGN KEY constraints. add: c (a REFERENCES of column
 * `column`, or a table constraint with column NULL) on stored table
 * schema.table; add_all: every one of a CREATE TABLE. find: 1 with *out,
 * 0, -1. table_dropping: DROP TABLE of a table others reference (2BP01, or
 * cascade: those constraints dropped with a notice). index_dropping: the
 * same for UNIQUE index d (`what` the object the statement drops).
 * table_changed: the table's own FOREIGN KEYs follow ch. */
int rl_fkey_add(rl_exec *x, rl_txn *txn, const char *schema, const char *table,
                const PgQuery__Constraint *c, const char *column);
int rl_fkey_add_all(rl_exec *x, rl_txn *txn, const char *schema, const char *table,
                    const PgQuery__CreateStmt *st);
/* A FOREIGN KEY c on a temporary table: -1 always, with PostgreSQL's 42P16
 * for a stored referenced table, 42P01 / 42809 for none, and 0A000 for a
 * temporary one (RockLake keeps no foreign key between them yet). */
int rl_fkey_on_temp(rl_exec *x, const PgQuery__Constraint *c);
int rl_fkey_find(rl_exec *x, rl_txn *txn, const char *schema, const char *table,
                 const char *name, rl_fkey_def *out);
/* ALTER TABLE ... VALIDATE CONSTRAINT of a FOREIGN KEY: a NOT VALID one
 * has every row's key checked (23503 as PostgreSQL) and is marked valid; a
 * valid one is left as it is. 1 done, 0 no FOREIGN KEY of that name, -1. */
int rl_fkey_validate(rl_exec *x, rl_txn *txn, const char *schema, const char *table,
                     const char *name);
/* ALTER TABLE ... ALTER CONSTRAINT c->conname [NOT] DEFERRABLE [INITIALLY
 * ...] of a FOREIGN KEY: 1 done, 0 no FOREIGN KEY of that name, -1. */
int rl_fkey_alter(rl_exec *x, rl_txn *txn, const char *schema, const char *table,
                  const PgQuery__Constraint *c);
/* 55006 (`what`: "ALTER TABLE", "DROP TABLE") if a DEFERRED foreign key's
 * check waits on table d, as PostgreSQL's CheckTableNotInUse; 0, or -1. */
int rl_fkey_not_in_use(rl_exec *x, rl_txn *txn, const rl_table_desc *d, const char *what,
                       const char *table);
/* SET CONSTRAINTS { ALL | name, ... } { DEFERRED | IMMEDIATE }. */
int rl_fkey_set_constraints(rl_exec *x, const PgQuery__ConstraintsSetStmt *st);
/* Each table (not schema.table itself) with a FOREIGN KEY referencing
 * schema.table, in the keys' creation order, once per key: visit returns 0
 * to go on, -1 (with x's error set) to stop. 0 or -1. */
typedef int (*rl_fkey_referrer_fn)(void *ctx, const char *schema, const char *table);
int rl_fkey_referencing(rl_exec *x, rl_txn *txn, const char *schema, const char *table,
                        rl_fkey_referrer_fn visit, void *ctx);
int rl_fkey_table_dropping(rl_exec *x, rl_txn *txn, const char *schema, const char *table,
                           bool cascade);
int rl_fkey_index_dropping(rl_exec *x, rl_txn *txn, const rl_index_def *d, const char *what,
                           const char *index, bool cascade);
int rl_fkey_table_changed(rl_exec *x, rl_txn *txn, const char *schema, const char *table,
                          const rl_table_change *ch);
/* 0A000 if a FOREIGN KEY of schema.table rewrites its rows (its actions
 * run below the SQL layer's CHECK evaluation): a CHECK cannot be added to
 * it. 0, or -1. */
int rl_fkey_check_conflict(rl_exec *x, rl_txn *txn, const char *schema, const char *table);

/* sql_comment.c: COMMENT ON TABLE / COLUMN / INDEX / SCHEMA. */
int rl_ddl_comment(rl_exec *x, const PgQuery__CommentStmt *st);
/* A relation's comments (its own and its columns') follow `ch` as its
 * indexes do; an index's own comment follows the index (dropped_table /
 * new_table). */
int rl_comment_table_changed(rl_exec *x, rl_txn *txn, const char *schema, const char *table,
                             const rl_table_change *ch);

/* Drop ON COMMIT DROP temp tables (commit) / all of this txn's (rollback),
 * and on a rollback put back the temporary tables the block changed, as
 * rl_ddl_temps_touch kept them; the temporary sequences end with them
 * (rl_seq_temps_end_transaction). */
void rl_ddl_end_transaction(rl_session *s, bool committed);
/* A temporary table's rows or shape are about to change: a copy of the
 * session's temporary tables as the transaction found them (a statement
 * outside a block is its own) is kept once (its cost grows with their
 * rows), for a ROLLBACK or the statement's failure. 0, or -1 (53200). */
int rl_ddl_temps_touch(rl_exec *x);
/* The same before rows are appended to temporary table t: outside a block
 * (a statement's own transaction) only t's row count is noted (the rows
 * after it go if the transaction rolls back), so that a run of single-row
 * INSERTs copies nothing. 0 or -1. */
int rl_ddl_temps_touch_append(rl_exec *x, rl_temp_table *t);
void rl_ddl_free_temps(rl_session *s);
/* A savepoint's copy of the session's temporary tables (rows, defaults,
 * flags; *out NULL for none), freed by rl_ddl_temps_free; restore makes the
 * session's tables a copy of it again (ROLLBACK TO keeps the savepoint).
 * 0, or -1 out of memory. */
int rl_ddl_temps_copy(const rl_temp_table *list, rl_temp_table **out);
void rl_ddl_temps_free(rl_temp_table *list);
int rl_ddl_temps_restore(rl_session *s, const rl_temp_table *saved);

/* COPY: TO STDOUT runs to completion; FROM STDIN returns RL_EXEC_COPY_IN
 * after copy_in_begin and is finished by the rl_copy_in_* calls. */
rl_exec_status rl_copy_start(rl_exec *x, const PgQuery__CopyStmt *st);
int rl_copy_in_data(rl_exec *x, const uint8_t *data, size_t len);
int rl_copy_in_done(rl_exec *x); /* sends CommandComplete "COPY n" */
void rl_copy_in_abort(rl_session *s);

/* Binary COPY / binary result encoding of one value (PostgreSQL send
 * format), shared with rl_value_to_binary. Decoding for COPY FROM. */
int rl_value_from_binary(rl_exec *x, uint32_t oid, int32_t typmod, const uint8_t *p,
                         size_t len, rl_arena *arena, rl_value *out);

/* ------------------------------------------------------- sql_privilege.c */

/* A read-only role's statement (rl_session.read_only_role): 42501 with
 * PostgreSQL's message if it would write anything but the session's own
 * temporary tables. 0 for every statement of other sessions. Called once
 * the statement is routed to its lake, before it runs. */
int rl_privilege_check(rl_exec *x, const PgQuery__Node *n);
/* The same for a write to `rel` found while a statement runs (LOCK TABLE
 * beyond ACCESS SHARE). */
int rl_privilege_table_write(rl_exec *x, const rl_relation *rel);
/* CREATE/ALTER/DROP ROLE, GRANT, REVOKE: 0A000 naming where roles come
 * from (the hba rules), with a hint. */
int rl_privilege_statement(rl_exec *x);
/* Before a read-only role's transaction commits: 42501 if it holds a
 * write after all (what rl_privilege_check missed never lands). */
int rl_privilege_commit(const rl_session *s, rl_error *err);

#endif
