/*
 * sql_json.h — the json type (sql_json.c), private to src/sql/: the
 * function table's json functions, the -> / ->> operators and json_agg
 * (its input check is a cast: sql_cast.c on pgtype/json.h).
 */
#ifndef ROCKLAKE_SQL_JSON_H
#define ROCKLAKE_SQL_JSON_H

#include "sql/sql_cast.h"

/* j -> k (as_text: j ->> k), k text (an object's member) or an integer (an
 * array's element, negative from the end): NULL when there is none. */
int rl_json_get(rl_expr_ctx *c, const rl_value *j, const rl_value *k, bool as_text,
                rl_value *out);

/* json_agg over a group's n values (in the group's order); NULL for none. */
int rl_json_agg(rl_expr_ctx *c, const rl_value *vals, size_t n, rl_value *out, int loc);

/* Each as rl_func_impl (sql_func.h). */
int rl_fn_to_json(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_json_build_object(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_json_build_array(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_json_typeof(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_json_array_length(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);

#endif
