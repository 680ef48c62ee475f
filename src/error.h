/*
 * error.h — PostgreSQL-style errors shared by every layer above kv.
 *
 * Owns: the error record (SQLSTATE + message + optional detail/hint) and the
 * SQLSTATE codes RockLake uses. Fixed-size and caller-owned, so reporting an
 * error never allocates.
 */
#ifndef ROCKLAKE_ERROR_H
#define ROCKLAKE_ERROR_H

#include <stdarg.h>

typedef struct rl_error {
    char sqlstate[6];
    char message[512];
    char detail[512];
    char hint[256];
    int position; /* 1-based character position in the query, 0 = none */
} rl_error;

#define RL_SQLSTATE_UNIQUE_VIOLATION "23505"
#define RL_SQLSTATE_NOT_NULL_VIOLATION "23502"
#define RL_SQLSTATE_NUMERIC_OUT_OF_RANGE "22003"
#define RL_SQLSTATE_INVALID_TEXT "22P02"
#define RL_SQLSTATE_SERIALIZATION_FAILURE "40001"
#define RL_SQLSTATE_READ_ONLY_TRANSACTION "25006"
#define RL_SQLSTATE_DUPLICATE_TABLE "42P07"
#define RL_SQLSTATE_UNDEFINED_TABLE "42P01"
#define RL_SQLSTATE_DATA_CORRUPTED "XX001"
#define RL_SQLSTATE_INTERNAL "XX000"
#define RL_SQLSTATE_IO "58030"
#define RL_SQLSTATE_FEATURE_NOT_SUPPORTED "0A000"
#define RL_SQLSTATE_INVALID_PARAMETER "22023"
#define RL_SQLSTATE_ADMIN_SHUTDOWN "57P01"
#define RL_SQLSTATE_OBJECT_STATE "55000"
#define RL_SQLSTATE_PROGRAM_LIMIT "54000"
#define RL_SQLSTATE_STATEMENT_TOO_COMPLEX "54001"
#define RL_SQLSTATE_TOO_MANY_COLUMNS "54011"
#define RL_SQLSTATE_BAD_ENCODING "22021"      /* character_not_in_repertoire */
#define RL_SQLSTATE_QUERY_CANCELED "57014"
#define RL_SQLSTATE_IDLE_IN_TXN_TIMEOUT "25P03"
#define RL_SQLSTATE_TOO_MANY_CONNECTIONS "53300"

/* Fill *e (may be NULL) and return -1, so callers can `return rl_error_set(...)`. */
int rl_error_set(rl_error *e, const char *sqlstate, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* rl_error_set with a va_list, for other printf-like reporters. */
int rl_error_setv(rl_error *e, const char *sqlstate, const char *fmt, va_list ap);
/* Set the detail of an already-set error. */
void rl_error_detail(rl_error *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void rl_error_hint(rl_error *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void rl_error_clear(rl_error *e);

#endif
