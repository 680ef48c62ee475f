/*
 * numfmt.h — PostgreSQL 15's numeric format patterns (to_char of numbers,
 * to_number): 9 0 . , D G S PL MI SG PR L V EEEE FM TH th RN B, "quoted
 * text", over the C locale (D '.', G ',', L ' ', S '+'/'-').
 *
 * A pattern is parsed once (rl_numfmt_parse: the nodes, and what they say
 * about the number: digits before and after the point, the sign's form,
 * V's multiplier); then a number already turned into its digits (without
 * sign, rounded to the pattern's digits after the point) is laid out by
 * rl_numfmt_render, or text is read back into digits by rl_numfmt_read.
 * Every answer, quirks included (the '#' fill of an overflow, a sign that
 * lands where formatting.c puts it), is PostgreSQL's; the code is ours.
 *
 * Memory: nodes and output are linear in the pattern's length; nothing
 * recurses.
 */
#ifndef ROCKLAKE_PGTYPE_NUMFMT_H
#define ROCKLAKE_PGTYPE_NUMFMT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"

/* An error of a pattern or a value, with PostgreSQL's SQLSTATE. */
typedef struct rl_numfmt_error {
    const char *sqlstate;
    char msg[160];
    char detail[160]; /* PostgreSQL's DETAIL, "" for none */
} rl_numfmt_error;

typedef struct rl_numfmt_node {
    uint8_t action; /* 1: a pattern (id), 0: literal bytes ch[0..clen) */
    uint8_t id;
    uint8_t clen;
    char ch[4];
} rl_numfmt_node;

typedef struct rl_numfmt {
    rl_numfmt_node *nodes; /* malloc'd */
    size_t n;
    int pre, post;     /* digit positions before / after the point */
    int lsign;         /* S: -1 before the digits, 1 after, 0 none */
    int flag;          /* RL_NUMFMT_F_* */
    int pre_lsign_num; /* digits before S */
    int multi;         /* digits after V */
    int zero_start, zero_end; /* the 0 positions (1-based; 0 none) */
} rl_numfmt;

enum {
    RL_NUMFMT_F_DECIMAL = 1 << 1,
    RL_NUMFMT_F_LDECIMAL = 1 << 2,
    RL_NUMFMT_F_ZERO = 1 << 3,
    RL_NUMFMT_F_BLANK = 1 << 4,
    RL_NUMFMT_F_FILLMODE = 1 << 5,
    RL_NUMFMT_F_LSIGN = 1 << 6,
    RL_NUMFMT_F_BRACKET = 1 << 7,
    RL_NUMFMT_F_MINUS = 1 << 8,
    RL_NUMFMT_F_PLUS = 1 << 9,
    RL_NUMFMT_F_ROMAN = 1 << 10,
    RL_NUMFMT_F_MULTI = 1 << 11,
    RL_NUMFMT_F_PLUS_POST = 1 << 12,
    RL_NUMFMT_F_MINUS_POST = 1 << 13,
    RL_NUMFMT_F_EEEE = 1 << 14,
};

/* Parse fmt[0..len) (cut at a NUL). 0, or -1 with *err (42601 for a
 * pattern PostgreSQL refuses, 53200 out of memory). Free with
 * rl_numfmt_free (also after a failure). */
int rl_numfmt_parse(const char *fmt, size_t len, rl_numfmt *f, rl_numfmt_error *err);
void rl_numfmt_free(rl_numfmt *f);

/* The digits of a value laid out for to_char. */
typedef struct rl_numfmt_digits {
    char *num;          /* malloc'd, NUL-terminated: digits [. digits], or
                           '#'s, a roman numeral, or EEEE's whole text */
    int sign;           /* '+', '-', or 0 (roman) */
    int out_pre_spaces; /* positions before the first digit */
} rl_numfmt_digits;

/* The value's digits for the pattern; f->pre grows by V's digits, f->post
 * may shrink (float precision). 0, or -1 with *err. */
int rl_numfmt_digits_int4(rl_numfmt *f, int32_t v, rl_numfmt_digits *d, rl_numfmt_error *err);
int rl_numfmt_digits_int8(rl_numfmt *f, int64_t v, rl_numfmt_digits *d, rl_numfmt_error *err);
int rl_numfmt_digits_float(rl_numfmt *f, double v, bool is_float4, rl_numfmt_digits *d,
                           rl_numfmt_error *err);
/* numeric: `text` is canonical numeric text already multiplied by 10^multi
 * and rounded to f->post digits (or NaN / Infinity / -Infinity); `sci`, for
 * EEEE, is the value's own text. roman_int is the value rounded to int4 for
 * RN (the caller checks its range). */
int rl_numfmt_digits_numeric(rl_numfmt *f, const char *text, size_t len, int32_t roman_int,
                             rl_numfmt_digits *d, rl_numfmt_error *err);
void rl_numfmt_digits_free(rl_numfmt_digits *d);

/* numeric_out_sci: canonical numeric text in scientific notation with
 * `scale` digits after the point ("1.23e+04", no renormalising after the
 * rounding: 9.99 at scale 1 is "10.0e+00"); NaN/Infinity as is. */
void rl_numfmt_sci(const char *text, size_t len, int scale, rl_buf *out);

/* to_char's text of d laid out by f's nodes (f as rl_numfmt_digits_* left
 * it). 0, or -1 with *err (22P02: TH of a value that is no number). */
int rl_numfmt_render(rl_numfmt *f, rl_numfmt_digits *d, rl_buf *out, rl_numfmt_error *err);

/* to_number's reading of in[0..len): *out gets the numeric text (sign
 * first, maybe just " "), f->post the digits read after the point. 0, or
 * -1 with *err (0A000 for EEEE and RN). */
int rl_numfmt_read(rl_numfmt *f, const char *in, size_t len, rl_buf *out, rl_numfmt_error *err);

#endif
