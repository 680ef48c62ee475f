/*
 * sql_json.h — the json and jsonb types (sql_json.c), private to src/sql/:
 * the function table's json functions, the operators, the aggregates and
 * the set-returning functions (the input check is a cast: sql_cast.c on
 * pgtype/json.h, then rl_jsonb_from_json for jsonb, both in sql_cast.c).
 */
#ifndef ROCKLAKE_SQL_JSON_H
#define ROCKLAKE_SQL_JSON_H

#include "sql/sql_cast.h"
#include "sql/sql_value.h"

/* j -> k (as_text: j ->> k), k text (an object's member) or an integer (an
 * array's element, negative from the end): NULL when there is none. */
int rl_json_get(rl_expr_ctx *c, const rl_value *j, const rl_value *k, bool as_text,
                rl_value *out);

/* json_agg over a group's n values (in the group's order); NULL for none. */
int rl_json_agg(rl_expr_ctx *c, const rl_value *vals, size_t n, rl_value *out, int loc);

/* Each as rl_func_impl (sql_func.h). */
int rl_fn_to_json(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
/* row_to_json(record [, pretty]): the record as to_json writes it, each
 * field after the first on a line of its own when pretty. */
int rl_fn_row_to_json(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_json_build_object(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_json_build_array(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_json_typeof(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_json_array_length(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);

/* j #> path / j #>> path (path a text[]). */
int rl_json_get_path(rl_expr_ctx *c, const rl_value *j, const rl_value *path, bool as_text,
                     rl_value *out);

/* a @> b of two jsonb values (not NULL). */
int rl_jsonb_contains(rl_expr_ctx *c, const rl_value *a, const rl_value *b, bool *out);
/* a against b (jsonb, not NULL) in PostgreSQL's jsonb order (*res <0, 0,
 * >0): null < string < number < boolean < array < object, containers by
 * their size first, a top-level scalar an array of one. */
int rl_jsonb_cmp(rl_expr_ctx *c, const rl_value *a, const rl_value *b, int *res);
/* a || b of jsonb values (PostgreSQL's jsonb_concat). */
int rl_jsonb_concat(rl_expr_ctx *c, const rl_value *a, const rl_value *b, rl_value *out, int loc);
/* a - key (text), a - keys (text[]), a - index (int) of jsonb a. */
int rl_jsonb_delete(rl_expr_ctx *c, const rl_value *a, const rl_value *b, rl_value *out);
/* j ? key of a jsonb value (not NULL). */
bool rl_jsonb_exists(const rl_value *j, const uint8_t *key, size_t keylen);

/* jsonb_agg; json_object_agg / jsonb_object_agg over n (key, value) rows. */
int rl_jsonb_agg(rl_expr_ctx *c, const rl_value *vals, size_t n, rl_value *out, int loc);
int rl_json_object_agg(rl_expr_ctx *c, const rl_value *keys, const rl_value *vals, size_t n,
                       bool jsonb, rl_value *out, int loc);

/* The set-returning json(b)_each[_text], json(b)_array_elements[_text],
 * json(b)_object_keys: is name one; its columns (names, types: at most 2);
 * its argument checked (an unknown literal typed, else 42883); its rows
 * for j appended to rs (22023 when j is not the container it takes). */
bool rl_json_is_srf(const char *name);
/* json_to_record / json_to_recordset / jsonb_to_record(set) in FROM with a
 * column definition list: is name one, its argument checked (unknown
 * coerced, 42883 for another type), and the rows of rs (columns already
 * named and typed): each column the object's member of its name, as
 * populate_record converts it; 22023 for a value of the wrong shape. */
bool rl_json_is_record_fn(const char *name);
int rl_json_record_arg(rl_expr_ctx *c, const char *name, rl_value *arg, int loc);
int rl_json_record_rows(rl_expr_ctx *c, const char *name, const rl_value *j, rl_rowset *rs,
                        int loc);
/* json_populate_record(base, j [, use_json_as_text]) and
 * jsonb_populate_record(base, j) as rl_func_impl: a record of base's type
 * (a table's row type, or a record's own fields), each field the object's
 * member of its name converted as json_to_record converts it, else base's
 * value (NULL for a NULL base); j NULL: base itself. 42804 for a base that
 * is not a record, 0A000 for a NULL anonymous record, 22023 for j not an
 * object. */
int rl_fn_json_populate_record(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
/* json(b)_populate_recordset's records (`name` it), arguments checked:
 * one per object of the array j (json or jsonb; none for NULL), into
 * *vals (arena, *count). type_only: only base's check. */
int rl_json_populate_set(rl_expr_ctx *c, const char *name, const rl_value *base,
                         const rl_value *j, bool type_only, rl_value **vals, size_t *count);
/* json(b)_populate_record(set) in FROM with a column definition list
 * (rs's columns named and typed), arguments checked, base an anonymous
 * record: a NULL base takes the list's columns (as json_to_record), a row
 * its own fields, which must match the list's count and types (42804
 * "function return row and query-specified return row do not match" with
 * its DETAIL). Rows as the functions make them, into rs. */
int rl_json_populate_rows(rl_expr_ctx *c, const char *name, const rl_value *base,
                          const rl_value *j, rl_rowset *rs);
size_t rl_json_srf_shape(const char *name, const char **names, uint32_t *types);
int rl_json_srf_arg(rl_expr_ctx *c, const char *name, rl_value *arg, int loc);
int rl_json_srf_rows(rl_expr_ctx *c, const char *name, const rl_value *j, rl_rowset *rs);

int rl_fn_to_jsonb(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_jsonb_build_object(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
/* json_object(text[]) / json_object(text[], text[]) and jsonb_object. */
int rl_fn_json_object(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_jsonb_object(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_jsonb_build_array(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_json_strip_nulls(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_jsonb_strip_nulls(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
/* jsonb_set(target, path, new [, create_if_missing]), jsonb_insert(target,
 * path, new [, insert_after]) and target #- path as PostgreSQL's setPath
 * walks them: object keys and array indexes (negative from the end) along
 * the path, a missing last step added (create / insert), 22023 for a
 * scalar target or an existing key jsonb_insert would replace, 22P02 for
 * an array step that is no integer, 22004 for a NULL step reached. */
int rl_fn_jsonb_set(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_jsonb_insert(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_jsonb_delete_path(rl_expr_ctx *c, const rl_value *a, const rl_value *path, rl_value *out,
                         int loc);
int rl_fn_jsonb_pretty(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);

#endif
