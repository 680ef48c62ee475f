/*
 * sql_window.h — window functions of one query level (sql_window.c),
 * private to src/sql/.
 */
#ifndef ROCKLAKE_SQL_WINDOW_H
#define ROCKLAKE_SQL_WINDOW_H

#include <pg_query/pg_query.pb-c.h>

#include "sql/sql_cast.h"

/* Does the SELECT's target list or ORDER BY call a function OVER a window? */
bool rl_window_present(const PgQuery__SelectStmt *st);

/* Compute every window call of st's target list and ORDER BY over the rows
 * rows[0 .. n) of rs (the rows WHERE kept), into *out, whose values live
 * in `arena` (row index of rs -> value). In a grouped query (`grouped`) the
 * rows are the groups HAVING kept: rows[p] is group p's first row and
 * groups[p] the group, whose aggregates the windows' arguments and keys may
 * name. typ is rs's typing row (the calls' types, also with no rows); base
 * is the level's evaluation context. 0, or -1 with x->err set (42P20,
 * 42809, 22013, 22014, 22016, 54000, 0A000 for what is not supported). */
int rl_window_compute(rl_exec *x, const PgQuery__SelectStmt *st, rl_rowset *rs, rl_rowset *typ,
                      const size_t *rows, size_t n, const rl_agg_ctx *groups, bool grouped,
                      const rl_binding *outer, rl_arena *arena, const rl_expr_ctx *base,
                      rl_window_values *out);

#endif
