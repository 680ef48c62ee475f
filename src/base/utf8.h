/*
 * utf8.h — validation of client text against the server encoding (UTF8).
 *
 * Owns: the one definition of "valid text" every input path uses (query
 * text of Query and Parse, Bind parameters, COPY data) and PostgreSQL's
 * 22021 error for anything else. Text that is not valid UTF-8, or that
 * holds a NUL byte, must never reach the catalog: DuckDB reads it back
 * through PostgreSQL's rules and fails ("Invalid unicode") on every later
 * snapshot listing.
 */
#ifndef ROCKLAKE_UTF8_H
#define ROCKLAKE_UTF8_H

#include <stddef.h>
#include <stdint.h>

#include "base/error.h"

/* Length of the valid UTF-8 character at p (1..4), or 0 if the bytes there
 * are not one (a NUL, a stray continuation byte, an overlong form, a
 * surrogate, a code point past U+10FFFF, or a truncated sequence). */
size_t rl_utf8_char_len(const uint8_t *p, size_t n);

/* The first n bytes of NUL-terminated s, cut back to a whole character
 * (PostgreSQL's pg_mbcliplen for UTF-8): its length, at most strlen(s). */
size_t rl_utf8_clip(const char *s, size_t n);

/* Offset of the first invalid character in p[0..n), or n if all is valid. */
size_t rl_utf8_invalid_at(const uint8_t *p, size_t n);

/* 0 if p[0..n) is valid; else -1 and 22021 `invalid byte sequence for
 * encoding "UTF8": 0x..`, naming the bytes as PostgreSQL does (as many as
 * the first byte announces, at most those present). */
int rl_utf8_check(rl_error *e, const uint8_t *p, size_t n);

#endif
