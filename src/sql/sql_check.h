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
    uint32_t type;      /* the expression's type */
    int32_t typmod;     /* and its typmod (-1: none) */
    bool var;           /* a bare column (an index's "(col)" is that column) */
    bool function_like; /* ruleutils' looks_like_function: printed as a call */
    bool true_const;    /* the constant true (a predicate PostgreSQL drops) */
    bool mutable_;      /* calls something not IMMUTABLE (an index's 42P17) */
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
/* A stored expression text parsed (as "SELECT text"): *out holds the tree
 * (release it), *expr its expression. 0, or -1 (XX001 if it is not one
 * expression). */
int rl_check_parse_text(rl_exec *x, const char *text, rl_parsed **out,
                        const PgQuery__Node **expr);
/* rel's columns (ctid after them: *ncols counts the columns before it). */
rl_rowset *rl_check_table_shape(rl_exec *x, const rl_relation *rel, size_t *ncols);
/* The same for an index's expression or predicate: PostgreSQL's texts of
 * the kind (aggregates, subqueries ... "not allowed in index expressions"),
 * a predicate must be boolean ("argument of WHERE"); `mutable_` tells the
 * caller of anything not IMMUTABLE (its 42P17 comes after every
 * expression's analysis, as in PostgreSQL). */
typedef enum rl_deparse_kind {
    RL_DEPARSE_CHECK,
    RL_DEPARSE_INDEX_EXPR,
    RL_DEPARSE_INDEX_PRED,
    RL_DEPARSE_DEFAULT /* rl_default_deparse's */
} rl_deparse_kind;
int rl_deparse_expr(rl_exec *x, const PgQuery__Node *expr, const rl_rowset *shape, size_t ncols,
                    const char *table, const char *rename_from, const char *rename_to,
                    rl_deparse_kind kind, rl_check_text *out);
/* tx (deparsed from a statement) parsed and analysed again must print the
 * same texts: the stored form is stable under renames; else 0A000. */
int rl_deparse_reads_back(rl_exec *x, const rl_check_text *tx, const rl_rowset *shape,
                          size_t ncols, const char *table, rl_deparse_kind kind);

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
/* A temporary table's CHECKs (rl_temp_check): freed, copied (NULL
 * parses; -1 out of memory), and following a column renamed to
 * new_column or dropped (new_column NULL: a CHECK that used it goes), the
 * table in its new shape already. */
void rl_check_free_temp(rl_temp_check **list);
int rl_check_copy_temp(rl_temp_check **dst, const rl_temp_check *src);
int rl_check_temp_follow(rl_exec *x, rl_temp_table *t, const char *old_column,
                         const char *new_column);
/* The row about to be written to relation rel (its columns in the
 * table's order) against the table's NOT NULLs (23502) and CHECKs (23514):
 * 0 or -1. */
int rl_check_row(rl_exec *x, const rl_relation *rel, const rl_value *row, size_t ncols);
/* Stored expression expr (of parsed text p) evaluated on one row of a
 * table (shape's first ncols columns), its strings in arena or row's (a
 * result may be one of the row's values: valid while row is); oid != 0:
 * the value cast to oid / typmod (an index expression's type). 0 with
 * *out, or -1 (the error's position cleared: it is no place in the
 * statement). */
int rl_check_eval(rl_exec *x, const rl_parsed *p, const PgQuery__Node *expr,
                  const rl_rowset *shape, size_t ncols, const rl_value *row, rl_arena *arena,
                  uint32_t oid, int32_t typmod, rl_value *out);
/* The catalog's rl_index_fn (ctx: the rl_session whose transaction it is,
 * sql_indexeval.c): a row's key values in a UNIQUE index over expressions
 * or with a predicate. rl_exec_txn hands it every transaction it begins. */
int rl_index_key_values(void *ctx, const char *schema, const rl_index_def *def,
                        const rl_table_desc *d, const rl_datum *row, rl_arena *arena,
                        rl_datum *vals, rl_type *types, rl_error *err);
/* The session's parsed index texts (sql_indexeval.c), freed with it. */
void rl_index_exprs_free(rl_session *s);
/* A session's cache of parsed stored expressions (a CHECK's or a
 * DEFAULT's plain text, rl_check_parse_text) is aligned with one catalog
 * registry, named by its stamp (n entries): entry i's is parsed on first
 * use and kept until the stamp changes. */
int rl_expr_cache_get(rl_exec *x, rl_expr_cache **cache, uint64_t stamp, size_t n, size_t i,
                      const char *text, rl_parsed **p, const PgQuery__Node **expr);
void rl_expr_cache_free(rl_expr_cache **cache);

#endif
