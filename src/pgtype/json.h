/*
 * json.h — PostgreSQL's JSON grammar over bytes (json.c): the input check of
 * its json type with the DETAIL of each error, a walk of a value's members,
 * string escaping. Knows nothing of SQL values.
 */
#ifndef ROCKLAKE_PGTYPE_JSON_H
#define ROCKLAKE_PGTYPE_JSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"

typedef enum rl_json_status {
    RL_JSON_OK = 0,
    RL_JSON_SYNTAX = -1,   /* not JSON: detail says why, as PostgreSQL's DETAIL */
    RL_JSON_TOO_DEEP = -2  /* nested past the C stack: the caller's 54001 */
} rl_json_status;

/* Is p..p+n exactly one JSON value (blanks around it allowed)? On
 * RL_JSON_SYNTAX, detail (cap bytes) gets PostgreSQL's DETAIL. */
rl_json_status rl_json_check(const uint8_t *p, size_t n, char *detail, size_t cap);

/* Do the strings of p..p+n (passed rl_json_check) de-escape as
 * PostgreSQL's lexer de-escapes them (surrogates in pairs, no \u0000)?
 * RL_JSON_SYNTAX with detail, or with *nul for a \u0000 (22P05). */
rl_json_status rl_json_check_escapes(const uint8_t *p, size_t n, bool *nul, char *detail,
                                     size_t cap);

/* The text jsonb_out prints for the JSON value p..p+n (passed
 * rl_json_check and rl_json_check_escapes), appended to out: object keys
 * unique (the last of a name wins) and sorted by length then bytes, ", "
 * and ": ", strings escaped as escape_json, numbers as numeric_out prints
 * them; strip: objects' null members left out (jsonb_strip_nulls).
 * RL_JSON_TOO_DEEP past the stack; RL_JSON_SYNTAX with PostgreSQL's
 * message in err and its SQLSTATE in *sqlstate (a number past numeric's
 * range, a \u0000); out->failed when memory ran out. */
rl_json_status rl_jsonb_canon(const uint8_t *p, size_t n, bool strip, rl_buf *out, char *err,
                              size_t errlen, const char **sqlstate);

/* The first byte of the value (after blanks): '{', '[', '"', 't', 'f',
 * 'n', or a number's first; 0 when there is none. p..p+n has passed
 * rl_json_check. */
uint8_t rl_json_kind(const uint8_t *p, size_t n);

/* For each top-level member of an object (key: its unescaped name) or
 * element of an array (key NULL), in order: fn(ctx, key, value start, value
 * end) with the value's byte span in p; stop when fn returns false. Nothing
 * for a scalar. p..p+n has passed rl_json_check. */
typedef bool (*rl_json_member_fn)(void *ctx, const rl_buf *key, size_t vstart, size_t vend);
void rl_json_each_member(const uint8_t *p, size_t n, rl_json_member_fn fn, void *ctx);

/* Append the unescaped bytes (UTF-8) of the JSON string at p (its opening
 * quote) to out; -1 when p holds no valid string. */
int rl_json_string_decode(const uint8_t *p, size_t n, rl_buf *out);

/* Append p..p+n as a JSON string, escaped as PostgreSQL's escape_json. */
void rl_json_put_string(rl_buf *b, const uint8_t *p, size_t n);

/* Is p..p+n a JSON number (NaN and Infinity are not)? */
bool rl_json_is_number(const uint8_t *p, size_t n);

#endif
