/*
 * sql_check.h — CHECK constraints (sql_check.c) and the deparser of their
 * expressions (sql_deparse.c), private to src/sql/.
 */
#ifndef ROCKLAKE_SQL_CHECK_H
#define ROCKLAKE_SQL_CHECK_H

#include <pg_query/pg_query.pb-c.h>

#include "sql/sql_exec.h"
#include "sql/sql_relation.h"
#include "sql/sql_stmt.h"
#include "sql/sql_value.h"

/* An analysed CHECK expression: pg_get_constraintdef's text inside
 * "CHECK (...)", plain and pretty (NUL-terminated), the attnums it uses in
 * order of appearance (conkey), and the column PostgreSQL names the
 * constraint after ("" unless exactly one). */
typedef struct rl_check_text {
    rl_buf plain, pretty;
    int16_t conkey[RL_MAX_COLUMNS];
    size_t nconkey;
    char column[64];
    bool is_volatile; /* it calls a volatile function (random(), ...) */
} rl_check_text;
/* Analyse expr against the first ncols columns of shape (table `table`);
 * a column named rename_from is looked up as rename_to (a column renamed
 * since the text was written). 0, or -1 with PostgreSQL's error / 0A000
 * for a form RockLake cannot print as PostgreSQL does. */
int rl_check_deparse(rl_exec *x, const PgQuery__Node *expr, const rl_rowset *shape, size_t ncols,
                     const char *table, const char *rename_from, const char *rename_to,
                     rl_check_text *out);
void rl_check_text_free(rl_check_text *t);
/* A column DEFAULT analysed as PostgreSQL's cookDefault does (no column
 * references, aggregates, window or set-returning functions, subqueries;
 * the result assigned to the column's type `oid`: 42804) and printed as
 * pg_get_expr prints it into out (conkey empty). *is_null: the default is a
 * NULL constant, which PostgreSQL does not keep (out empty). 0 or -1. */
int rl_default_deparse(rl_exec *x, const PgQuery__Node *expr, const char *column, uint32_t oid,
                       rl_check_text *out, bool *is_null);

/* CREATE TABLE's CHECK constraints (column and table ones), stored for the
 * new table schema.table. 0 or -1. */
int rl_check_create_table(rl_exec *x, const char *schema, const char *table,
                          const PgQuery__CreateStmt *st);
/* ALTER TABLE ADD [CONSTRAINT n] CHECK (...) [NOT VALID]. 0 or -1. */
int rl_check_add(rl_exec *x, const rl_relation *rel, const PgQuery__Constraint *c);
/* DROP / VALIDATE / RENAME of a CHECK constraint of rel: 1 done, 0 rel has
 * no CHECK of that name, -1 error. */
int rl_check_drop(rl_exec *x, const rl_relation *rel, const char *name);
int rl_check_validate(rl_exec *x, const rl_relation *rel, const char *name);
int rl_check_rename(rl_exec *x, const rl_relation *rel, const char *name, const char *newname);
/* A table's CHECKs follow its DDL (DROP TABLE, renames, DROP COLUMN). */
int rl_check_table_changed(rl_exec *x, rl_txn *txn, const char *schema, const char *table,
                           const rl_table_change *ch);
/* The row about to be written to stored relation rel (its columns in the
 * table's order) against the table's CHECKs: 0, or -1 with 23514. */
int rl_check_row(rl_exec *x, const rl_relation *rel, const rl_value *row, size_t ncols);
/* Stored expressions (a CHECK's or a DEFAULT's plain text) parsed as
 * "SELECT <text>": the expression at *expr, valid while *out is held
 * (XX001 if the text is not one expression). A session's cache of them is
 * aligned with one catalog registry, named by its stamp (n entries): entry
 * i's is parsed on first use and kept until the stamp changes. */
int rl_stored_expr_parse(rl_exec *x, const char *text, rl_parsed **out,
                         const PgQuery__Node **expr);
int rl_expr_cache_get(rl_exec *x, rl_expr_cache **cache, uint64_t stamp, size_t n, size_t i,
                      const char *text, rl_parsed **p, const PgQuery__Node **expr);
void rl_expr_cache_free(rl_expr_cache **cache);

#endif
