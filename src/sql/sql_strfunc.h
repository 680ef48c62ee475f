/*
 * sql_strfunc.h — implementations of the function table's text functions
 * and a few small others (sql_strfunc.c), private to src/sql/: only
 * sql_func.c, which expands the table, names them.
 */
#ifndef ROCKLAKE_SQL_STRFUNC_H
#define ROCKLAKE_SQL_STRFUNC_H

#include "sql/sql_cast.h"

/* Each as rl_func_impl (sql_func.h): the n evaluated arguments to *out. */
int rl_fn_substr(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_left(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_right(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_strpos(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_starts_with(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_lpad(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_rpad(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_btrim(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_ltrim(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_rtrim(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_replace(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_reverse(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_repeat(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_initcap(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_translate(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_ascii(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_octet_length(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_md5(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
/* overlay of text (characters) and of bytea (bytes) */
int rl_fn_text_overlay(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_bytea_overlay(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_concat(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_concat_ws(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_quote_ident(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_quote_literal(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_quote_nullable(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_format(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_random(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_pi(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_gen_random_uuid(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_current_setting(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_set_config(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);

int rl_fn_lower(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_upper(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);

int rl_fn_similar_to_escape(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_like_escape(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);

/* A text value lowered as lower() lowers it (ILIKE's case folding). */
int rl_text_lower(rl_expr_ctx *c, const rl_value *in, rl_value *out);

#endif
