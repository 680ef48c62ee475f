/*
 * sql_advisory.h — PostgreSQL's advisory locks (sql_advisory.c): the SQL
 * functions of sql_functab.inc and the releases the session calls.
 */
#ifndef ROCKLAKE_SQL_ADVISORY_H
#define ROCKLAKE_SQL_ADVISORY_H

#include "sql/sql_expr.h"

/* pg_advisory_lock and its family; each takes (bigint) or (integer,
 * integer), as pg_proc lists them. */
int rl_fn_advisory_lock(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_advisory_lock_shared(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_advisory_xact_lock(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_advisory_xact_lock_shared(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out,
                                    int loc);
int rl_fn_try_advisory_lock(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_try_advisory_lock_shared(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_try_advisory_xact_lock(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_try_advisory_xact_lock_shared(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out,
                                        int loc);
int rl_fn_advisory_unlock(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_advisory_unlock_shared(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_advisory_unlock_all(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);

/* The session's session-level locks released (pg_advisory_unlock_all,
 * DISCARD ALL). */
void rl_advisory_unlock_all(const rl_session *s);
/* The transaction's locks released (COMMIT, ROLLBACK, the end of an
 * implicit transaction). */
void rl_advisory_xact_end(const rl_session *s);
/* Everything the session holds released (its end, a lost connection too). */
void rl_advisory_session_end(const rl_session *s);

#endif
