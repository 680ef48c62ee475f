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

/* One row of pg_locks: a lock held (granted) or waited for. */
typedef struct rl_advisory_row {
    uint32_t dboid;
    uint8_t space; /* objsubid: 1 one bigint, 2 two integers */
    uint64_t key;  /* classid = high 32 bits, objid = low 32 bits */
    int32_t pid;
    bool shared, granted;
    int64_t wait_start_unix_us; /* a waiter's */
} rl_advisory_row;
/* Every advisory lock of the server, held then waited for: a malloc'd
 * copy taken under the table's lock (*n rows; NULL when out of memory). */
rl_advisory_row *rl_advisory_list(size_t *n);

/* The session's session-level locks released (pg_advisory_unlock_all,
 * DISCARD ALL). */
void rl_advisory_unlock_all(const rl_session *s);
/* The transaction's locks released (COMMIT, ROLLBACK, the end of an
 * implicit transaction). */
void rl_advisory_xact_end(const rl_session *s);
/* Everything the session holds released (its end, a lost connection too). */
void rl_advisory_session_end(const rl_session *s);

#endif
