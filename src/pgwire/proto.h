/*
 * proto.h — decoding of frontend messages (PostgreSQL protocol 3.0).
 *
 * Owns: framing (where a message starts and ends in a byte stream, with a
 * configurable maximum size) and parsing of each frontend message into a
 * struct of pointers into the message bytes. Pure functions over memory: no
 * I/O, no allocation except the per-parameter arrays of Bind, so the whole
 * decoder is fuzzable on its own (fuzz/fuzz_proto.c).
 *
 * Invariants:
 *  - a parse never reads outside [data, data + len);
 *  - every string field must be NUL-terminated inside the message, and a
 *    message must be consumed exactly (no trailing bytes), as PostgreSQL's
 *    pq_getmsgend demands; otherwise the parse fails with 08P01
 *    "invalid message format";
 *  - pointers in parsed structs borrow the message bytes.
 */
#ifndef ROCKLAKE_PROTO_H
#define ROCKLAKE_PROTO_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"

#define PROTO_SQLSTATE_VIOLATION RL_SQLSTATE_PROTOCOL_VIOLATION

#define PROTO_VERSION_3 196608u        /* 3.0 */
#define PROTO_CODE_CANCEL 80877102u
#define PROTO_CODE_SSL 80877103u
#define PROTO_CODE_GSSENC 80877104u
/* The startup packet is small in practice; PostgreSQL caps it at 10000. */
#define PROTO_MAX_STARTUP 10000u
#define PROTO_DEFAULT_MAX_MESSAGE (64u << 20)
#define PROTO_MAX_PARAMS 65535u

/* One framed message. `type` is 0 for a startup-phase packet. `data`/`len`
 * are the payload after the length word. */
typedef struct proto_msg {
    char type;
    const uint8_t *data;
    size_t len;
} proto_msg;

/* Find the next message in p[0..n). Returns 1 with *msg and *consumed set, 0
 * if more bytes are needed, -1 (08P01 in *err) for an impossible length, a
 * message larger than max_len, or (after startup) an unknown type byte. */
int proto_frame(const uint8_t *p, size_t n, bool startup, size_t max_len, proto_msg *msg,
                size_t *consumed, rl_error *err);

/* Startup-phase packet. */
typedef enum proto_startup_kind {
    PROTO_STARTUP,
    PROTO_SSL_REQUEST,
    PROTO_GSSENC_REQUEST,
    PROTO_CANCEL_REQUEST
} proto_startup_kind;

#define PROTO_MAX_STARTUP_PARAMS 64

typedef struct proto_startup {
    proto_startup_kind kind;
    uint32_t version;               /* the protocol code */
    int32_t cancel_pid, cancel_secret;
    size_t nparams;
    const char *names[PROTO_MAX_STARTUP_PARAMS];
    const char *values[PROTO_MAX_STARTUP_PARAMS];
} proto_startup;

int proto_parse_startup(const proto_msg *m, proto_startup *out, rl_error *err);
/* Value of a startup parameter, NULL if absent. */
const char *proto_startup_param(const proto_startup *s, const char *name);

/* 'Q' Query, 'p' PasswordMessage (cleartext), 'f' CopyFail: one string. */
int proto_parse_string_msg(const proto_msg *m, const char **out, rl_error *err);

/* 'P' Parse */
typedef struct proto_parse {
    const char *stmt, *sql;
    size_t nparams;
    const uint8_t *param_oids; /* nparams big-endian uint32 */
} proto_parse;
int proto_parse_parse(const proto_msg *m, proto_parse *out, rl_error *err);
uint32_t proto_parse_param_oid(const proto_parse *p, size_t i);

/* 'B' Bind. The arrays are malloc'd; free with proto_bind_free. */
typedef struct proto_bind {
    const char *portal, *stmt;
    size_t nformats;
    int16_t *formats;
    size_t nparams;
    const uint8_t **values;  /* NULL for a NULL parameter */
    int32_t *lengths;        /* -1 for NULL */
    size_t nresult_formats;
    int16_t *result_formats;
} proto_bind;
int proto_parse_bind(const proto_msg *m, proto_bind *out, rl_error *err);
void proto_bind_free(proto_bind *b);

/* 'D' Describe and 'C' Close: kind 'S' or 'P' and a name. */
typedef struct proto_target {
    char kind;
    const char *name;
} proto_target;
int proto_parse_target(const proto_msg *m, proto_target *out, rl_error *err);

/* 'E' Execute */
typedef struct proto_execute {
    const char *portal;
    int32_t max_rows;  /* 0 = no limit */
} proto_execute;
int proto_parse_execute(const proto_msg *m, proto_execute *out, rl_error *err);

/* 'p' SASLInitialResponse: mechanism and the client-first-message. */
typedef struct proto_sasl_initial {
    const char *mechanism;
    const uint8_t *data;
    size_t len;
} proto_sasl_initial;
int proto_parse_sasl_initial(const proto_msg *m, proto_sasl_initial *out, rl_error *err);

#endif
