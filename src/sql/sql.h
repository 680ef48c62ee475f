/*
 * sql.h — the SQL engine as the wire layer sees it.
 *
 * Owns: engines (one per lake = one catalog), sessions (one per client
 * connection: transaction state, temporary tables, settings, prepared
 * statements and portals), and the result sink through which the engine
 * reports what PostgreSQL would send back. Statements are parsed with
 * libpg_query (PostgreSQL's own grammar) and answered exactly as PostgreSQL
 * 15 answers them for the SQL DuckDB's ducklake and postgres extensions send
 * (docs/sql-support.md lists what is accepted and what is rejected with
 * 0A000).
 *
 * Threading: an engine is shared by all sessions of its lake; a session is
 * used by one thread at a time, except rl_session_cancel (any thread).
 *
 * Ownership: rl_engine_new borrows the catalog (the caller closes it after
 * rl_engine_free). Values handed to the sink are borrowed for the duration
 * of the callback.
 */
#ifndef ROCKLAKE_SQL_H
#define ROCKLAKE_SQL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/buf.h"
#include "catalog/catalog.h"
#include "keys/codec.h"
#include "base/error.h"

/* PostgreSQL type OIDs the engine produces or accepts. */
enum {
    RL_OID_BOOL = 16,
    RL_OID_BYTEA = 17,
    RL_OID_CHAR = 18,
    RL_OID_NAME = 19,
    RL_OID_INT8 = 20,
    RL_OID_INT2 = 21,
    RL_OID_INT2VECTOR = 22,
    RL_OID_INT4 = 23,
    RL_OID_REGPROC = 24,
    RL_OID_TEXT = 25,
    RL_OID_OID = 26,
    RL_OID_TID = 27,
    RL_OID_JSON = 114,
    RL_OID_OIDVECTOR = 30,
    RL_OID_FLOAT4 = 700,
    RL_OID_FLOAT8 = 701,
    RL_OID_UNKNOWN = 705,
    RL_OID_INT2_ARRAY = 1005,
    RL_OID_INT4_ARRAY = 1007,
    RL_OID_TEXT_ARRAY = 1009,
    RL_OID_BPCHAR = 1042, /* character(n) */
    RL_OID_VARCHAR = 1043,
    RL_OID_DATE = 1082,
    RL_OID_TIME = 1083,
    RL_OID_TIMESTAMP = 1114,
    RL_OID_TIMESTAMPTZ = 1184,
    RL_OID_INTERVAL = 1186,
    RL_OID_TIMETZ = 1266,
    RL_OID_NUMERIC = 1700,
    RL_OID_REGPROCEDURE = 2202,
    RL_OID_REGCLASS = 2205,
    RL_OID_REGTYPE = 2206,
    RL_OID_RECORD = 2249,
    RL_OID_VOID = 2278,
    RL_OID_UUID = 2950,
    RL_OID_JSONB = 3802,
    RL_OID_REGNAMESPACE = 4089,
    RL_OID_REGROLE = 4096,
    RL_OID_XID8 = 5069,
    RL_OID_REGDICTIONARY = 3769
};

/* A SQL value: its type (PostgreSQL OID + typmod) and datum. For types the
 * codec does not store (oid, name, "char", tid, regclass, arrays) the datum
 * uses: oid/regclass -> v.i; name/"char" -> v.s; tid -> v.i = block << 16 |
 * offset; arrays -> v.s holding PostgreSQL's text form ("{1,2}"). */
typedef struct rl_value {
    uint32_t oid;
    int32_t typmod;
    rl_datum d;
} rl_value;

/* rl_type <-> OID for stored types; 0 / RL_T_INVALID when there is none. */
uint32_t rl_type_oid(rl_type t);
rl_type rl_oid_type(uint32_t oid);
/* The type a cast to `name` gives (what `x::name` casts to): the codec's
 * names and the special ones (oid, reg*, tid,
 * "char", json, xid8, the pseudo-types, ...); 0 when the name is no type of
 * the engine's (sql_value.c). */
uint32_t rl_type_oid_by_name(const char *name);
/* typlen as RowDescription reports it (-1 varlena, -2 cstring). */
int16_t rl_oid_typlen(uint32_t oid);

/* PostgreSQL text output of a value (NULL appends nothing). */
void rl_value_to_text(rl_buf *out, const rl_value *v);
/* PostgreSQL binary send format of a value (NULL appends nothing).
 * Returns false for a type without a binary form here. */
bool rl_value_to_binary(rl_buf *out, const rl_value *v);

/* One column of a RowDescription. */
typedef struct rl_col_info {
    char name[64];
    uint32_t table_oid;
    int16_t attnum;
    uint32_t type_oid;
    int16_t typlen;
    int32_t typmod;
} rl_col_info;

/* What the engine reports, in protocol order. Every callback returns 0, or
 * -1 to abort the statement (e.g. the client went away). Any may be NULL. */
typedef struct rl_sink {
    void *ctx;
    int (*row_description)(void *ctx, size_t ncols, const rl_col_info *cols);
    int (*data_row)(void *ctx, size_t ncols, const rl_value *vals);
    int (*command_complete)(void *ctx, const char *tag);
    int (*empty_query)(void *ctx);
    int (*notice)(void *ctx, const rl_error *notice);
    /* COPY ... TO STDOUT: begin (format 0 text / 1 binary), data chunks (a
     * chunk always holds whole rows), end. */
    int (*copy_out_begin)(void *ctx, int format, size_t ncols);
    int (*copy_out_data)(void *ctx, const uint8_t *data, size_t len);
    int (*copy_out_end)(void *ctx);
    /* COPY ... FROM STDIN: the engine asks for data; the wire layer then
     * feeds rl_session_copy_data / _done / _fail. */
    int (*copy_in_begin)(void *ctx, int format, size_t ncols);
    /* A Simple Query SELECT whose answer is the same for the same key (the
     * engine decides: sql_resultkey.c; key is opaque bytes, often large).
     * Return 1 when the sink has sent the whole answer, RowDescription to
     * CommandComplete, from what it kept; 0 to have the engine run it (the
     * sink may keep this statement's answer under key, once its
     * CommandComplete comes); -1 to abort. NULL: no caching. */
    int (*cached_result)(void *ctx, const uint8_t *key, size_t keylen);
} rl_sink;

typedef struct rl_engine rl_engine;
typedef struct rl_session rl_session;

/* PostgreSQL text output of a value as session s prints it: reg* values
 * (regclass, regtype, regnamespace, regrole, regproc, regprocedure) as the names
 * their oids have in the session's catalog now (the number when none),
 * anything else as rl_value_to_text. */
void rl_session_value_text(rl_session *s, rl_buf *out, const rl_value *v);

/* PostgreSQL keeps any number of DuckLake catalogs in one database, one per
 * metadata schema (ATTACH ... (METADATA_SCHEMA 's2')). RockLake serves the
 * database's first DuckLake schema from the database's own store and every
 * further one from a store of its own, which the wire layer opens; the
 * engine asks for them through this hook (sql_lakes.c routes statements). */
typedef struct rl_schema_lakes {
    void *ctx;
    /* The engine serving `schema` when a store of its own holds it, else NULL
     * with err untouched. create: make that store (the schema is getting its
     * first DuckLake table). NULL with err set on failure. */
    rl_engine *(*find)(void *ctx, const char *schema, bool create, rl_error *err);
    /* Call fn for every such engine of the database, in a stable order;
     * stops at (and returns) the first non-zero return. */
    int (*each)(void *ctx, int (*fn)(void *fctx, rl_engine *eng), void *fctx);
    /* Has the database any such engine (so statements need routing)? */
    bool (*any)(void *ctx);
} rl_schema_lakes;

typedef struct rl_engine_options {
    const char *database;        /* reported by current_database() */
    const char *server_version;  /* version() text; default a PostgreSQL 15 string naming RockLake */
    const rl_schema_lakes *schema_lakes; /* NULL: one DuckLake schema per database */
    /* Bytes one statement's row sets may hold (its result budget); 0: 1 GiB,
     * or ROCKLAKE_TEST_RESULT_MEMORY_MB MiB when that is set (tests). */
    size_t result_memory;
    /* Bytes of output a streamed scan may hold to send its rows in heap
     * order (then the rest goes in key order); 0: 64 MiB. */
    size_t heap_order_limit;
} rl_engine_options;

rl_engine *rl_engine_new(rl_catalog *cat, const rl_engine_options *opts, rl_error *err);
void rl_engine_free(rl_engine *eng);
rl_catalog *rl_engine_catalog(rl_engine *eng);

/* A login role the server knows (its --users file), as pg_roles shows it
 * to a session of one database. */
typedef struct rl_role {
    const char *name;
    bool read_only; /* may read this database, not write it */
} rl_role;

/* One backend of the server as pg_stat_activity shows it: a copy taken
 * under the server's registry lock (src/server/backends.c). */
#define RL_ACTIVITY_QUERY_BYTES 1024 /* PostgreSQL's track_activity_query_size */
typedef struct rl_backend_activity {
    int32_t pid;
    bool superuser; /* the role may write the lake (pg_roles' rolsuper) */
    char datname[64], usename[64], application_name[64];
    char client_addr[64]; /* "" for a Unix-domain socket (client_addr NULL, port -1) */
    int32_t client_port;
    /* unix microseconds; 0 is NULL (no transaction, no statement yet) */
    int64_t backend_start, xact_start, query_start, state_change;
    char state[32]; /* "active", "idle", "idle in transaction", ...; "" NULL */
    char query[RL_ACTIVITY_QUERY_BYTES];
} rl_backend_activity;

/* The server's backends, for pg_stat_activity and the signalling
 * functions (pg_cancel_backend, pg_terminate_backend). */
typedef struct rl_activity_source {
    void *ctx;
    /* Every backend, copied at one instant: a malloc'd array of *n the
     * caller frees; NULL only when out of memory. */
    rl_backend_activity *(*list)(void *ctx, size_t *n);
    /* Cancels the running statement of backend pid, or ends its session
     * (terminate): true when such a backend exists. */
    bool (*signal)(void *ctx, int32_t pid, bool terminate);
    int64_t server_start; /* unix microseconds: pg_postmaster_start_time() */
} rl_activity_source;

typedef struct rl_session_info {
    const char *user;
    const char *application_name;
    const char *client_addr;
    /* The user may read this database but not write it: every write gets
     * 42501, as for a PostgreSQL role with pg_read_all_data alone
     * (sql_privilege.c). */
    bool read_only_role;
    /* The server's login roles (copied by rl_session_new); none: pg_roles
     * shows the session user alone, as the owner and a superuser. */
    const rl_role *roles;
    size_t nroles;
    /* pg_promote(): make the server the writer of its lakes (a hot
     * standby's promotion, src/server/lakes.c). 0, or -1 with err; NULL:
     * pg_promote says recovery is not in progress. */
    int (*promote)(void *ctx, rl_error *err);
    void *promote_ctx;
    /* The server's own values of settings a PostgreSQL server has too: its
     * port, --max-connections, its server_version (0 / NULL: a fresh
     * PostgreSQL 15's 5432 and 100, RockLake's RL version). */
    int port, max_connections;
    const char *server_version;
    /* The server's backends (lent for the session's life); NULL:
     * pg_stat_activity is empty and pg_cancel_backend finds no process. */
    const rl_activity_source *activity;
} rl_session_info;

rl_session *rl_session_new(rl_engine *eng, const rl_session_info *info);
/* Rolls back an open transaction and frees everything of the session. */
void rl_session_free(rl_session *s);
/* Move an idle session to `eng`, the engine of the same database opened
 * anew (its store failed and was reopened, src/server/lakes.c): settings,
 * temporary tables, prepared statements and portals stay; the engines of
 * further schemas it touched are forgotten (they belonged to the old
 * lake). Only between transactions: false, and nothing changed, while a
 * transaction block, a catalog transaction or a COPY is open. */
bool rl_session_rebind(rl_session *s, rl_engine *eng);

/* Transaction status for ReadyForQuery: 'I' idle, 'T' in a transaction
 * block, 'E' in a failed transaction block. */
char rl_session_status(const rl_session *s);
/* A time setting of this session (statement_timeout,
 * idle_in_transaction_session_timeout) in milliseconds as SET made it, or
 * -1 when the session has not set it (the server's default applies). */
int64_t rl_session_timeout_ms(rl_session *s, const char *name);

/* A setting of this session as SHOW gives it (may point into buf); NULL
 * when RockLake does not know the name (a SET of it is 42704). */
const char *rl_session_setting(rl_session *s, const char *name, char *buf, size_t n);
/* The settings applied so far came from the client's startup packet
 * (its settings and `options`): RESET, RESET ALL and DISCARD ALL return to
 * them, and pg_settings says so (source "client", reset_val), as in
 * PostgreSQL. */
void rl_session_settings_from_client(rl_session *s);
/* Whether a SET of the setting may run in this session at all (its
 * PostgreSQL context is "user", or it is a custom placeholder): the
 * startup packet's others are passed over (RockLake has no use for them). */
bool rl_session_setting_user_settable(rl_session *s, const char *name);

/* Ask the running statement to stop with 57014 (thread-safe). */
void rl_session_cancel(rl_session *s);
/* Whether a cancel (or the statement timeout) is waiting for the running
 * statement to notice it (thread-safe; does not clear it). The wire layer
 * asks while it waits for a client to read a result. */
bool rl_session_cancel_pending(rl_session *s);
/* The process id the client was given in BackendKeyData (pg_backend_pid). */
void rl_session_set_backend_pid(rl_session *s, int32_t pid);

/* Result of running SQL. */
typedef enum rl_exec_status {
    RL_EXEC_ERROR = -1,      /* *err filled; the statement failed */
    RL_EXEC_DONE = 0,        /* everything ran */
    RL_EXEC_COPY_IN = 1,     /* waiting for COPY data (copy_in_begin was called) */
    RL_EXEC_SUSPENDED = 2    /* extended protocol: row limit reached */
} rl_exec_status;

/* Simple Query: run every statement of `sql` in order, as PostgreSQL does
 * (a multi-statement string outside BEGIN is one implicit transaction). An
 * empty string reports empty_query. On error, later statements are skipped. */
rl_exec_status rl_session_simple_query(rl_session *s, const char *sql, const rl_sink *sink,
                                       rl_error *err);

/* COPY FROM STDIN data while RL_EXEC_COPY_IN. _done finishes the COPY
 * (command_complete) and continues with the rest of the simple query. */
int rl_session_copy_data(rl_session *s, const uint8_t *data, size_t len, rl_error *err);
rl_exec_status rl_session_copy_done(rl_session *s, const rl_sink *sink, rl_error *err);
rl_exec_status rl_session_copy_fail(rl_session *s, const char *message, const rl_sink *sink,
                                    rl_error *err);

/* Extended query protocol. Names "" are the unnamed statement / portal. */
int rl_session_parse(rl_session *s, const char *stmt_name, const char *sql, size_t nparams,
                     const uint32_t *param_oids, rl_error *err);

typedef struct rl_describe {
    size_t nparams;
    const uint32_t *param_oids; /* nparams; the statement's, valid while it is */
    bool has_rows;          /* false = NoData */
    size_t ncols;
    rl_col_info *cols;      /* owned by the session; valid until its next call */
} rl_describe;

int rl_session_describe_statement(rl_session *s, const char *stmt_name, rl_describe *out,
                                  rl_error *err);
int rl_session_bind(rl_session *s, const char *portal, const char *stmt_name, size_t nparams,
                    const int16_t *param_formats, size_t nformats, const uint8_t *const *values,
                    const int32_t *lengths, size_t nresult_formats, const int16_t *result_formats,
                    rl_error *err);
int rl_session_describe_portal(rl_session *s, const char *portal, rl_describe *out,
                               rl_error *err);
/* Result formats chosen at Bind are applied by the wire layer; max_rows 0 = all. */
rl_exec_status rl_session_execute(rl_session *s, const char *portal, uint64_t max_rows,
                                  const rl_sink *sink, rl_error *err);
int rl_session_close(rl_session *s, char kind /* 'S' or 'P' */, const char *name);
/* Sync: ends the implicit transaction of extended-protocol messages. */
int rl_session_sync(rl_session *s, rl_error *err);

/* Result formats of a bound portal (0 text, 1 binary) for column i. */
int16_t rl_session_portal_format(rl_session *s, const char *portal, size_t col);
/* The format of the rows a Simple Query statement sends now: 1 while a
 * FETCH sends the rows of a cursor DECLAREd BINARY (RowDescription and
 * DataRows in binary, as PostgreSQL's), else 0 (text). */
int16_t rl_session_simple_format(const rl_session *s);
/* Query text of a bound portal's statement ("" if unknown); owned by the
 * session, valid until the statement is closed. */
const char *rl_session_portal_sql(rl_session *s, const char *portal);
/* The text of a prepared statement (NULL: none of that name). */
const char *rl_session_statement_sql(rl_session *s, const char *stmt_name);

/* The write transactions this session committed, as data for the wire
 * layer's commit count and log (which must not guess them from command
 * tags). A transaction counts once when its commit wrote to a store (a
 * commit with nothing to write, such as one that only touched temporary
 * tables, does not), however many lakes it spanned. */
typedef struct rl_commit_info {
    uint64_t commits;      /* write transactions committed since the session began */
    bool has_snapshot;     /* the latest one wrote a DuckLake snapshot ... */
    uint64_t snapshot_id;  /* ... with this id (its own, not the lake's latest) */
} rl_commit_info;
void rl_session_commits(const rl_session *s, rl_commit_info *out);

#endif
