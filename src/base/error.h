/*
 * error.h — PostgreSQL-style errors shared by every layer above kv.
 *
 * Owns: the error record (SQLSTATE + message + optional detail/hint, and
 * the cause a layer above acts on) and the SQLSTATE codes RockLake uses. Fixed-size and caller-owned, so reporting an
 * error never allocates.
 *
 * Invariant: this is the one place a SQLSTATE is spelled. Every code the
 * server reports is an RL_SQLSTATE_* constant below, named after
 * PostgreSQL's condition name (errcodes.txt: RL_SQLSTATE_X is "x"), grouped
 * by class; other files never write a 5-character SQLSTATE literal
 * (scripts/check-sqlstates.py, run by `make layers` and tests/test_layers.py).
 */
#ifndef ROCKLAKE_ERROR_H
#define ROCKLAKE_ERROR_H

#include <stdarg.h>
#include <stddef.h>

/* Why an error happened, where a layer above must act on it and the
 * SQLSTATE alone does not say (25006 is also a follower's refusal, 55000
 * many a state's). The
 * layer that detects the condition sets it right after rl_error_set (which
 * clears it); the layers above forward the whole record and test this
 * field, never the message text. */
typedef enum rl_error_cause {
    RL_CAUSE_NONE = 0,
    RL_CAUSE_WRITER_FENCED = 1, /* a newer writer of the same store fenced this writer */
    RL_CAUSE_NO_CATALOG = 2     /* the store opened but holds no RockLake catalog */
} rl_error_cause;

typedef struct rl_error {
    char sqlstate[6];
    char message[512];
    char detail[512];
    char hint[256];
    int position; /* 1-based character position in the query, 0 = none */
    rl_error_cause cause;
} rl_error;

/* Class 00 - successful completion */
#define RL_SQLSTATE_SUCCESSFUL_COMPLETION "00000"

/* Class 01 - warning */
#define RL_SQLSTATE_WARNING "01000"

/* Class 08 - connection exception */
#define RL_SQLSTATE_CONNECTION_FAILURE "08006"
#define RL_SQLSTATE_PROTOCOL_VIOLATION "08P01"

/* Class 0A - feature not supported */
#define RL_SQLSTATE_FEATURE_NOT_SUPPORTED "0A000"

/* Class 21 - cardinality violation */
#define RL_SQLSTATE_CARDINALITY_VIOLATION "21000"

/* Class 22 - data exception */
#define RL_SQLSTATE_STRING_DATA_RIGHT_TRUNCATION "22001"
#define RL_SQLSTATE_NUMERIC_VALUE_OUT_OF_RANGE "22003"
#define RL_SQLSTATE_NULL_VALUE_NOT_ALLOWED "22004"
#define RL_SQLSTATE_SUBSTRING_ERROR "22011"
#define RL_SQLSTATE_INVALID_ESCAPE_SEQUENCE "22025"
#define RL_SQLSTATE_INVALID_USE_OF_ESCAPE_CHARACTER "2200C"
#define RL_SQLSTATE_INVALID_DATETIME_FORMAT "22007"
#define RL_SQLSTATE_DATETIME_FIELD_OVERFLOW "22008"
#define RL_SQLSTATE_INVALID_TIME_ZONE_DISPLACEMENT_VALUE "22009"
#define RL_SQLSTATE_DIVISION_BY_ZERO "22012"
#define RL_SQLSTATE_INVALID_PRECEDING_OR_FOLLOWING_SIZE "22013"
#define RL_SQLSTATE_INVALID_ARGUMENT_FOR_NTILE "22014"
#define RL_SQLSTATE_INVALID_ARGUMENT_FOR_NTH_VALUE "22016"
#define RL_SQLSTATE_INVALID_ARGUMENT_FOR_LOG "2201E"
#define RL_SQLSTATE_INVALID_ARGUMENT_FOR_POWER "2201F"
#define RL_SQLSTATE_INVALID_ARGUMENT_FOR_WIDTH_BUCKET_FUNCTION "2201G"
#define RL_SQLSTATE_INVALID_ROW_COUNT_IN_LIMIT_CLAUSE "2201W"
#define RL_SQLSTATE_INVALID_ROW_COUNT_IN_RESULT_OFFSET_CLAUSE "2201X"
#define RL_SQLSTATE_CHARACTER_NOT_IN_REPERTOIRE "22021"
#define RL_SQLSTATE_UNTRANSLATABLE_CHARACTER "22P05"
#define RL_SQLSTATE_INVALID_PARAMETER_VALUE "22023"
#define RL_SQLSTATE_SEQUENCE_GENERATOR_LIMIT_EXCEEDED "2200H"
#define RL_SQLSTATE_ARRAY_SUBSCRIPT_ERROR "2202E"
#define RL_SQLSTATE_INVALID_REGULAR_EXPRESSION "2201B"
#define RL_SQLSTATE_INVALID_TEXT_REPRESENTATION "22P02"
#define RL_SQLSTATE_ARRAY_SUBSCRIPT_ERROR "2202E"
#define RL_SQLSTATE_INVALID_TABLESAMPLE_ARGUMENT "2202H"
#define RL_SQLSTATE_INVALID_TABLESAMPLE_REPEAT "2202G"
#define RL_SQLSTATE_ARRAY_SUBSCRIPT_ERROR "2202E"
#define RL_SQLSTATE_INVALID_BINARY_REPRESENTATION "22P03"
#define RL_SQLSTATE_BAD_COPY_FILE_FORMAT "22P04"

/* Class 23 - integrity constraint violation */
#define RL_SQLSTATE_NOT_NULL_VIOLATION "23502"
#define RL_SQLSTATE_FOREIGN_KEY_VIOLATION "23503"
#define RL_SQLSTATE_UNIQUE_VIOLATION "23505"
#define RL_SQLSTATE_CHECK_VIOLATION "23514"

/* Class 25 - invalid transaction state */
#define RL_SQLSTATE_ACTIVE_SQL_TRANSACTION "25001"
#define RL_SQLSTATE_READ_ONLY_SQL_TRANSACTION "25006"
#define RL_SQLSTATE_NO_ACTIVE_SQL_TRANSACTION "25P01"
#define RL_SQLSTATE_IN_FAILED_SQL_TRANSACTION "25P02"
#define RL_SQLSTATE_IDLE_IN_TRANSACTION_SESSION_TIMEOUT "25P03"

/* Class 26 - invalid SQL statement name */
#define RL_SQLSTATE_INVALID_SQL_STATEMENT_NAME "26000"

/* Class 28 - invalid authorization specification */
#define RL_SQLSTATE_INVALID_AUTHORIZATION_SPECIFICATION "28000"
#define RL_SQLSTATE_INVALID_PASSWORD "28P01"

/* Class 2B - dependent privilege descriptors still exist */
#define RL_SQLSTATE_DEPENDENT_OBJECTS_STILL_EXIST "2BP01"
/* Class 42 - a value for a GENERATED ALWAYS identity column */
#define RL_SQLSTATE_GENERATED_ALWAYS "428C9"

/* Class 34 - invalid cursor name */
#define RL_SQLSTATE_INVALID_CURSOR_NAME "34000"

/* Class 3D - invalid catalog name */
#define RL_SQLSTATE_INVALID_CATALOG_NAME "3D000"

/* Class 3F - invalid schema name */
#define RL_SQLSTATE_INVALID_SCHEMA_NAME "3F000"

/* Class 3B - savepoint exception */
#define RL_SQLSTATE_INVALID_SAVEPOINT_SPECIFICATION "3B001"

/* Class 40 - transaction rollback */
#define RL_SQLSTATE_SERIALIZATION_FAILURE "40001"
#define RL_SQLSTATE_DEADLOCK_DETECTED "40P01"

/* Class 42 - syntax error or access rule violation */
#define RL_SQLSTATE_INSUFFICIENT_PRIVILEGE "42501"
#define RL_SQLSTATE_SYNTAX_ERROR "42601"
#define RL_SQLSTATE_INVALID_NAME "42602"
#define RL_SQLSTATE_NAME_TOO_LONG "42622"
#define RL_SQLSTATE_DUPLICATE_COLUMN "42701"
#define RL_SQLSTATE_AMBIGUOUS_COLUMN "42702"
#define RL_SQLSTATE_UNDEFINED_COLUMN "42703"
#define RL_SQLSTATE_UNDEFINED_OBJECT "42704"
#define RL_SQLSTATE_AMBIGUOUS_FUNCTION "42725"
#define RL_SQLSTATE_GROUPING_ERROR "42803"
#define RL_SQLSTATE_DATATYPE_MISMATCH "42804"
#define RL_SQLSTATE_WRONG_OBJECT_TYPE "42809"
#define RL_SQLSTATE_CANNOT_COERCE "42846"
#define RL_SQLSTATE_UNDEFINED_FUNCTION "42883"
#define RL_SQLSTATE_RESERVED_NAME "42939"
#define RL_SQLSTATE_UNDEFINED_TABLE "42P01"
#define RL_SQLSTATE_DUPLICATE_OBJECT "42710"
#define RL_SQLSTATE_UNDEFINED_PARAMETER "42P02"
#define RL_SQLSTATE_DUPLICATE_CURSOR "42P03"
#define RL_SQLSTATE_DUPLICATE_PREPARED_STATEMENT "42P05"
#define RL_SQLSTATE_DUPLICATE_SCHEMA "42P06"
#define RL_SQLSTATE_DUPLICATE_TABLE "42P07"
#define RL_SQLSTATE_AMBIGUOUS_PARAMETER "42P08"
#define RL_SQLSTATE_INVALID_COLUMN_REFERENCE "42P10"
#define RL_SQLSTATE_INVALID_CURSOR_DEFINITION "42P11"
#define RL_SQLSTATE_INVALID_FOREIGN_KEY "42830"
#define RL_SQLSTATE_DUPLICATE_OBJECT "42710"
#define RL_SQLSTATE_INDETERMINATE_DATATYPE "42P18"
#define RL_SQLSTATE_INVALID_TABLE_DEFINITION "42P16"
#define RL_SQLSTATE_INVALID_OBJECT_DEFINITION "42P17"
#define RL_SQLSTATE_INVALID_RECURSION "42P19"
#define RL_SQLSTATE_INVALID_PSTATEMENT_DEFINITION "42P14"
#define RL_SQLSTATE_WINDOWING_ERROR "42P20"

/* Class 53 - insufficient resources */
#define RL_SQLSTATE_OUT_OF_MEMORY "53200"
#define RL_SQLSTATE_TOO_MANY_CONNECTIONS "53300"
#define RL_SQLSTATE_CONFIGURATION_LIMIT_EXCEEDED "53400"

/* Class 54 - program limit exceeded */
#define RL_SQLSTATE_PROGRAM_LIMIT_EXCEEDED "54000"
#define RL_SQLSTATE_STATEMENT_TOO_COMPLEX "54001"
#define RL_SQLSTATE_TOO_MANY_COLUMNS "54011"
#define RL_SQLSTATE_TOO_MANY_ARGUMENTS "54023"

/* Class 55 - object not in prerequisite state */
#define RL_SQLSTATE_OBJECT_NOT_IN_PREREQUISITE_STATE "55000"
#define RL_SQLSTATE_OBJECT_IN_USE "55006"
#define RL_SQLSTATE_LOCK_NOT_AVAILABLE "55P03"
#define RL_SQLSTATE_CANT_CHANGE_RUNTIME_PARAM "55P02"

/* Class 57 - operator intervention */
#define RL_SQLSTATE_QUERY_CANCELED "57014"
#define RL_SQLSTATE_ADMIN_SHUTDOWN "57P01"

/* Class 58 - system error */
#define RL_SQLSTATE_IO_ERROR "58030"

/* Class 72 - snapshot failure */
#define RL_SQLSTATE_SNAPSHOT_TOO_OLD "72000"

/* Class F0 - configuration file error */
#define RL_SQLSTATE_CONFIG_FILE_ERROR "F0000"

/* Class XX - internal error */
#define RL_SQLSTATE_INTERNAL_ERROR "XX000"
#define RL_SQLSTATE_DATA_CORRUPTED "XX001"

/* Earlier spellings of the names above, kept while files outside #17's
 * conversion (catalog/, server.c, client.c, transfer.c...) still use them;
 * new code uses PostgreSQL's condition names. */
#define RL_SQLSTATE_INVALID_TEXT RL_SQLSTATE_INVALID_TEXT_REPRESENTATION
#define RL_SQLSTATE_NUMERIC_OUT_OF_RANGE RL_SQLSTATE_NUMERIC_VALUE_OUT_OF_RANGE
#define RL_SQLSTATE_READ_ONLY_TRANSACTION RL_SQLSTATE_READ_ONLY_SQL_TRANSACTION
#define RL_SQLSTATE_INTERNAL RL_SQLSTATE_INTERNAL_ERROR
#define RL_SQLSTATE_IO RL_SQLSTATE_IO_ERROR
#define RL_SQLSTATE_INVALID_PARAMETER RL_SQLSTATE_INVALID_PARAMETER_VALUE
#define RL_SQLSTATE_OBJECT_STATE RL_SQLSTATE_OBJECT_NOT_IN_PREREQUISITE_STATE
#define RL_SQLSTATE_PROGRAM_LIMIT RL_SQLSTATE_PROGRAM_LIMIT_EXCEEDED
#define RL_SQLSTATE_BAD_ENCODING RL_SQLSTATE_CHARACTER_NOT_IN_REPERTOIRE
#define RL_SQLSTATE_IDLE_IN_TXN_TIMEOUT RL_SQLSTATE_IDLE_IN_TRANSACTION_SESSION_TIMEOUT

/* Fill *e (may be NULL) and return -1, so callers can `return rl_error_set(...)`. */
int rl_error_set(rl_error *e, const char *sqlstate, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* rl_error_set with a va_list, for other printf-like reporters. */
int rl_error_setv(rl_error *e, const char *sqlstate, const char *fmt, va_list ap);
/* Set the detail of an already-set error. */
void rl_error_detail(rl_error *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void rl_error_hint(rl_error *e, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void rl_error_clear(rl_error *e);

/* Format a message into a caller's text buffer, for the codecs whose errors
 * are a message without an rl_error (codec.c, pgtype.c): buf may be NULL or
 * len 0 (nothing is written); the text is cut to len - 1 bytes. */
void rl_errmsg_set(char *buf, size_t len, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
/* rl_errmsg_set with a va_list, for the codecs' own printf-like reporters. */
void rl_errmsg_setv(char *buf, size_t len, const char *fmt, va_list ap);

#endif
