/*
 * pgtype.h — PostgreSQL's type I/O for every rl_type: one home for how a
 * value is written and read as PostgreSQL text, how values order, and which
 * SQLSTATE a bad input carries.
 *
 * Owns: text output (what psql prints) and text input (PostgreSQL's input
 * functions) per rl_type, binary output and input (typsend/typreceive, for
 * binary COPY and Bind/result columns), the calendar arithmetic behind
 * date/time values, and PostgreSQL's ordering. Knows nothing of the row encoding (codec.h),
 * the store or SQL: the SQL layer forwards messages and SQLSTATEs unchanged.
 *
 * Invariants: output matches PostgreSQL 15 with DateStyle=ISO,
 * IntervalStyle=postgres, extra_float_digits=1 and TimeZone the calling
 * thread's zone (tzif.h rl_tz_current: timestamptz is written, and read
 * without an explicit zone, in it; UTC unless the SQL layer set one); every input error comes with
 * PostgreSQL's wording and its SQLSTATE as an RL_SQLSTATE_* constant
 * (error.h), chosen where the error is raised, so no caller derives a
 * SQLSTATE from message text.
 */
#ifndef ROCKLAKE_PGTYPE_H
#define ROCKLAKE_PGTYPE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "keys/codec.h"

/* Text in PostgreSQL's output format (what psql prints): appends to `out`.
 * NULL appends nothing (callers decide how to show NULL). bytea as \x<hex>,
 * timestamps ISO ("2024-01-02 03:04:05.123456+01" for tz, in the thread's
 * zone: tzif.h), bool t/f,
 * interval in PG "postgres" style ("1 year 2 mons 3 days 04:05:06"). */
void rl_datum_to_text(rl_buf *out, rl_type t, const rl_datum *d);

/* Parse PostgreSQL input text for type `t` into *d. String-like results are
 * copied into `arena` (appended; the datum points into arena->data, so the
 * caller must not grow `arena` again before using the datum — pass a fresh
 * buffer per datum, or copy). Returns RL_CODEC_OK or RL_CODEC_ERR_INVALID
 * with a PostgreSQL-style message in err ("invalid input syntax for type
 * bigint: \"abc\""), or RL_CODEC_ERR_TOO_LARGE when a string-like result
 * would exceed RL_MAX_FIELD_BYTES (or memory runs out). */
rl_codec_status rl_datum_from_text(rl_type t, const char *text, size_t len,
                                   rl_datum *d, rl_buf *arena, char *err,
                                   size_t errlen);

/* rl_datum_from_text that also says which SQLSTATE the error carries:
 * *sqlstate (may be NULL) gets NULL on success, else an RL_SQLSTATE_*
 * constant of error.h, as PostgreSQL 15 reports it where this codec matches
 * it: 22P02 invalid_text_representation (bad syntax of a non-date/time type,
 * the size limits), 22007 invalid_datetime_format (bad date/time/interval
 * syntax), 22008 datetime_field_overflow ("date/time field value out of
 * range"), 22003 numeric_value_out_of_range (the other "out of range"
 * errors). */
rl_codec_status rl_datum_input(rl_type t, const char *text, size_t len, rl_datum *d,
                               rl_buf *arena, char *err, size_t errlen,
                               const char **sqlstate);

/* PostgreSQL's binary send form (typsend) of a non-NULL datum of type `t`,
 * appended to `out` (check out->failed): big-endian integers, IEEE floats,
 * numeric as numeric_send's base-10000 digits, text/bytea as their bytes,
 * date/time as PostgreSQL's integer fields. false if the datum has none (a
 * numeric whose text is not canonical, an unknown type). */
bool rl_datum_to_binary(rl_buf *out, rl_type t, const rl_datum *d);

/* PostgreSQL's binary receive (typreceive) of type `t` from p[0..len) into
 * *d. text, varchar and bytea BORROW p; numeric is rendered as its canonical
 * text, appended to `arena` (as rl_datum_from_text; required for numeric).
 * Client text is not checked for valid UTF-8 here (the caller does, utf8.h).
 * Returns RL_CODEC_OK, or RL_CODEC_ERR_INVALID with PostgreSQL's message in
 * err and *sqlstate (may be NULL) set: 08P01 protocol_violation
 * ("insufficient data left in message", a short field), 22P03
 * invalid_binary_representation (leftover bytes, a bad numeric sign, scale or
 * digit), 22008 datetime_field_overflow ("time out of range"), 53200
 * out_of_memory, 0A000 feature_not_supported (a type without one). */
rl_codec_status rl_datum_from_binary(rl_type t, const uint8_t *p, size_t len, rl_datum *d,
                                     rl_buf *arena, char *err, size_t errlen,
                                     const char **sqlstate);

/* The calendar (proleptic Gregorian, PostgreSQL's), on days since
 * 2000-01-01 as date values hold them: to and from year/month/day (year 0
 * is 1 BC), the month's length, and whether a finite date (days) or
 * timestamp (microseconds since 2000-01-01) lies in PostgreSQL's range. */
void rl_date_to_ymd(int64_t days, int64_t *y, int *m, int *d);
int64_t rl_ymd_to_date(int64_t y, int m, int d);
int rl_days_in_month(int64_t y, int m);
bool rl_date_in_range(int64_t days);
bool rl_timestamp_in_range(int64_t us);

/* The length of a non-NULL character(n) (bpchar) datum without its trailing
 * blanks: what bpchar's comparisons, equality keys, length and cast to text
 * see of it. */
size_t rl_bpchar_trimmed_len(const rl_datum *d);

/* Equality and ordering of two non-NULL datums of the same type, as
 * PostgreSQL orders them (strings bytewise = COLLATE "C"). */
int rl_datum_compare(rl_type t, const rl_datum *a, const rl_datum *b);
/* Bytes of a non-NULL datum that two datums of type t share exactly when
 * rl_datum_compare finds them equal (numeric 1.0 = 1.00, float -0 = 0 and
 * NaN = NaN, interval '1 day' = '24 hours'): the key of a unique index
 * entry. Appended to out (its sticky failed flag on no memory). */
void rl_datum_equality_key(rl_buf *out, rl_type t, const rl_datum *d);

#endif
