/*
 * sql_bytea.h — implementations of the function table's binary-string
 * functions (sql_bytea.c), private to src/sql/: sql_func.c names them in
 * the table, sql_expr.c calls rl_bytea_concat for bytea || bytea.
 */
#ifndef ROCKLAKE_SQL_BYTEA_H
#define ROCKLAKE_SQL_BYTEA_H

#include "sql/sql_cast.h"

/* Each as rl_func_impl (sql_func.h): the n evaluated arguments to *out. */
int rl_fn_encode(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_decode(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_sha224(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_sha256(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_sha384(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_sha512(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_md5_bytea(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_get_byte(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_set_byte(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_bytea_length(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_bit_length(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_bytea_substr(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_bytea_position(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_bytea_btrim(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_bytea_ltrim(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_bytea_rtrim(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_convert_to(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_convert_from(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);

/* bytea || bytea: the bytes of both (NULL if either is). */
int rl_bytea_concat(rl_expr_ctx *c, const rl_value *a, const rl_value *b, rl_value *out);

#endif
