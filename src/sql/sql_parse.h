/*
 * sql_parse.h — SQL text to libpg_query trees, the running statement's
 * constants and locations, tree walks (sql_parse.c), private to src/sql/.
 *
 * Invariant: parse trees are libpg_query's protobuf-c structs and are never
 * modified.
 */
#ifndef ROCKLAKE_SQL_PARSE_H
#define ROCKLAKE_SQL_PARSE_H

#include <pg_query.h>
#include <pg_query/pg_query.pb-c.h>

#include "base/arena.h"
#include "sql/sql_exec.h"

/* The text of a String node; NULL for any other node or none. */
static inline const char *rl_node_string(const PgQuery__Node *n)
{
    return n && n->node_case == PG_QUERY__NODE__NODE_STRING ? n->string->sval : NULL;
}

/* The name a FROM item is referred to by: its alias, else its relation's. */
static inline const char *rl_range_var_alias(const PgQuery__RangeVar *rv)
{
    return rv->alias && rv->alias->aliasname ? rv->alias->aliasname : rv->relname;
}

/* Visit `m` and every message below it, depth first, through protobuf-c's
 * reflection (so no node kind is missed). visit returns 0 to go into the
 * message's children, 1 to skip them, -1 to stop the walk. Returns 0, -1
 * when visit stopped it, -2 when the tree nests deeper than the stack
 * allows (the walk is then incomplete). */
typedef int (*rl_tree_visit)(void *ctx, const ProtobufCMessage *m);
int rl_tree_walk(const ProtobufCMessage *m, rl_tree_visit visit, void *ctx);

/* Do two trees say the same thing? Compared field by field, ignoring
 * where they were written (location fields) and reading literals through
 * rl_const; false for trees nested deeper than the stack allows. What
 * PostgreSQL's equal() does on analyzed trees, for the few places that
 * match an expression against another before analysis exists (ORDER BY
 * against the DISTINCT target list). */
bool rl_node_equal(const ProtobufCMessage *a, const ProtobufCMessage *b);

/* A new node AND(args[0..n)) in arena (args borrowed, n >= 2); NULL when
 * out of memory. For conditions the engine adds to a statement's own. */
PgQuery__Node *rl_and_node(rl_arena *arena, PgQuery__Node **args, size_t n);

/* Parse `sql` (through the session's cache of repeated texts). On success
 * *out is a reference the caller gives back with rl_parsed_release; its
 * tree is shared and must not be modified. 42601 with a position on a
 * syntax error. */
int rl_parse(rl_exec *x, const char *sql, rl_parsed **out);
/* The statements; NULL for an empty query. Valid while the reference is held. */
const PgQuery__ParseResult *rl_parsed_tree(const rl_parsed *p);
rl_parsed *rl_parsed_ref(rl_parsed *p);
void rl_parsed_release(rl_parsed *p); /* NULL is fine */
void rl_parse_cache_free(rl_parse_cache *c);
/* Parses a session answered from the process's shared cache of trees (a
 * text some session parsed twice before), since the process started. */
uint64_t rl_parse_shared_hits(void);
/* Texts the grammar itself parsed since the process started (cache misses). */
uint64_t rl_parse_grammar_runs(void);
/* Make `p` the statement this thread is running (NULL: none); returns the
 * previous one, to restore. While active, rl_const gives the constants of
 * p's own text and rl_parsed_location maps tree locations into it. */
const rl_parsed *rl_parsed_activate(const rl_parsed *p);
/* The constant to use for an A_Const of the running statement's tree:
 * every read of an A_Const's value goes through here. A tree shared by
 * texts of one shape has its literal nodes sealed (no value, see
 * rl_const_sealed): only this gives each text its own, so a direct read
 * finds nothing for every text, never another text's literal. */
const PgQuery__AConst *rl_const(const PgQuery__AConst *k);
/* Is k a sealed literal (read without rl_const, or outside its statement's
 * rl_parsed_activate)? Readers treat it as no constant. */
bool rl_const_sealed(const PgQuery__AConst *k);
/* A tree location (byte offset) as an offset into the running text. */
int rl_parsed_location(int location);
/* A node's parse location (0-based byte offset) for error positions, or -1. */
int rl_node_location(const PgQuery__Node *n);
/* Is c a column's DEFERRABLE / NOT DEFERRABLE / INITIALLY clause (a
 * constraint node of its own in the grammar's column list)? */
bool rl_constraint_is_attr(const PgQuery__Constraint *c);
/* Each constraint of a CREATE TABLE in the statement's order, a column's
 * with that column's name (and the DEFERRABLE / INITIALLY clauses after it
 * folded into its deferrable / initdeferred, as PostgreSQL's
 * transformConstraintAttrs), a table constraint's with NULL; visit returns
 * 0 to go on, anything else stops the walk and is returned. */
typedef int (*rl_constraint_visit)(void *ctx, const PgQuery__Constraint *c, const char *column);
int rl_create_constraints(const PgQuery__CreateStmt *st, rl_constraint_visit visit, void *ctx);

/* PostgreSQL's quote_ident: p[0..n) bare when lower-case letters, digits
 * and '_' (not first a digit) and not a keyword other than an unreserved
 * one (the grammar's list), else in double quotes with quotes doubled;
 * appended to b, or into buf[n] (truncated to fit). */
void rl_put_quoted_ident(rl_buf *b, const uint8_t *p, size_t n);
void rl_quote_ident(const char *s, char *buf, size_t n);

#endif
