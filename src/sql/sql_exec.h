/*
 * sql_exec.h — the engine and session structs and the execution context of
 * one statement (rl_exec, sql_exec.c), private to src/sql/: the statement's
 * transaction and DuckLake format, errors with positions, cancel and stack
 * checks, CommandComplete.
 *
 * Invariants: the SQL layer never touches kv.h; it reaches the store only
 * through catalog.h. Every error is a PostgreSQL-style rl_error with the
 * right SQLSTATE; nothing aborts the process.
 */
#ifndef ROCKLAKE_SQL_EXEC_H
#define ROCKLAKE_SQL_EXEC_H

#include <stdatomic.h>

#include "sql/sql.h"

typedef struct rl_temp_table rl_temp_table; /* sql_relation.h */

/* ------------------------------------------------------ engine, session */

struct rl_engine {
    rl_catalog *cat;
    char database[64];
    uint32_t database_oid;        /* pg_database.oid of `database` (sql_pgcatalog.c) */
    char version[256];
    rl_schema_lakes schema_lakes; /* .find NULL: no stores for further schemas */
    size_t result_mem_limit;      /* rl_engine_options.result_memory, resolved */
    size_t heap_order_limit;      /* rl_engine_options.heap_order_limit, resolved */
};

/* One lake a session's transaction touches: the database's own store
 * (slot 0, the session's home engine) or a further DuckLake schema's. */
#define RL_SESSION_LAKES 8
typedef struct rl_session_lake {
    rl_engine *eng;
    rl_txn *txn; /* open catalog transaction on eng, or NULL */
} rl_session_lake;

/* A setting the session changed (sql_settings.c). */
typedef struct rl_setting {
    char name[128];
    char value[256];
    bool local;         /* SET LOCAL: at commit, back to `after` ... */
    bool after_default; /* ... or to the default */
    char after[256];
    struct rl_setting *next;
} rl_setting;

typedef struct rl_prepared rl_prepared; /* sql.c */
typedef struct rl_parsed rl_parsed;     /* sql_parse.c */
typedef struct rl_parse_cache rl_parse_cache; /* sql_parse.c */
typedef struct rl_portal rl_portal;     /* sql.c */
typedef struct rl_copy_in rl_copy_in;   /* sql_copy.c */
typedef struct rl_ctid_map rl_ctid_map; /* sql_ctid.c */
typedef struct rl_subtype rl_subtype;   /* sql_expr.c */
typedef struct rl_expr_cache rl_expr_cache; /* sql_check.c */
typedef struct rl_index_exprs rl_index_exprs; /* sql_indexeval.c */

typedef struct rl_savepoint rl_savepoint; /* sql.c */

/* A cursor the session DECLAREd (sql_cursor.c): its query's rows,
 * materialized at DECLARE under the statement's result budget, and where it
 * stands as PostgreSQL's portal would (its position on the rows and the
 * portal's atStart / atEnd / portalPos, which decide PostgreSQL's answers
 * and its NO SCROLL errors). pg_cursors lists them (sql_pgcatalog.c). */
typedef struct rl_cursor {
    char name[64];
    char *statement;        /* the query string DECLARE came in */
    struct rl_rowset *rows; /* owned */
    size_t bytes;           /* of rows, counted against the session's cursor budget */
    rl_col_info *cols;      /* what Describe reports of rows, made once (in rows' arena) */
    bool holdable, binary, scrollable;
    bool held;              /* a WITH HOLD cursor whose transaction committed */
    bool failed;            /* a FETCH / MOVE of it failed: it can only be closed */
    uint64_t savepoint;     /* rl_session.savepoints_begun at DECLARE */
    int64_t created;        /* creation_time: PostgreSQL microseconds */
    size_t at;              /* 0 before the first row, 1..n on row `at`, n + 1 after the last */
    bool at_start, at_end;  /* PostgreSQL's portal flags ... */
    uint64_t pos;           /* ... and its portalPos */
    struct rl_cursor *next;
} rl_cursor;

/* A login role of rl_session_info.roles, the session's own copy. */
typedef struct rl_session_role {
    char name[64];
    bool read_only;
} rl_session_role;

struct rl_session {
    rl_engine *eng;        /* the engine of the current statement (sql_lakes.c) */
    rl_savepoint *savepoints; /* the block's savepoints, the latest first */
    char user[64], application[64], client[64];
    bool read_only_role;   /* rl_session_info.read_only_role */
    int (*promote)(void *ctx, rl_error *err); /* rl_session_info.promote */
    void *promote_ctx;
    rl_session_role *roles; /* rl_session_info.roles, copied */
    size_t nroles;
    int32_t backend_pid;   /* BackendKeyData's process id (pg_backend_pid) */
    const rl_activity_source *activity; /* rl_session_info.activity */
    rl_txn *txn;           /* open catalog transaction on eng, or NULL */
    /* Every lake of this transaction; lakes[cur] is (eng, txn) while a
     * statement runs, its .txn field stale until rl_lakes_save. */
    rl_session_lake lakes[RL_SESSION_LAKES];
    size_t nlakes, cur;
    bool in_block;         /* BEGIN was issued */
    bool failed;           /* error inside a block: 25P02 until ROLLBACK */
    bool read_only_txn;    /* this transaction is READ ONLY (BEGIN / SET TRANSACTION, else
                            * default_transaction_read_only as it started) */
    bool read_only_fixed;  /* read_only_txn was taken from the default for this
                            * transaction (at its first statement) */
    /* The transaction's isolation level (BEGIN ISOLATION LEVEL, SET
     * TRANSACTION, else default_transaction_isolation): under READ
     * COMMITTED each statement reads a snapshot taken when it starts. */
    enum { RL_ISO_READ_COMMITTED, RL_ISO_REPEATABLE_READ, RL_ISO_SERIALIZABLE } isolation;
    bool isolation_set;    /* chosen for this transaction (else the default) */
    bool snapshot_taken;   /* a query ran in it: its level is fixed (25001) */
    rl_temp_table *temps;
    rl_temp_table *temps_at_start; /* as the transaction block found them ... */
    bool temps_saved;              /* ... once one changed (rl_ddl_temps_touch) */
    /* a transaction that ended with a temporary table or sequence committed
     * the session's temporary schema pg_temp_N: it stays for the session
     * (sql_pgcatalog.c), as PostgreSQL's does */
    bool temp_ns_kept;
    rl_setting *settings;
    rl_setting *placeholders;      /* custom settings SET named (names only); kept */
    rl_setting *settings_client;   /* the startup packet's: what RESET returns to */
    /* the server's port, max_connections, server_version ("": the defaults) */
    char own_port[12], own_max_connections[12], own_server_version[64];
    rl_setting *settings_at_start; /* as the transaction found them ... */
    bool settings_saved;           /* ... once it changed one */
    rl_ctid_map *ctids;    /* per transaction */
    rl_prepared *prepared;
    rl_portal *portals;
    rl_cursor *cursors;    /* DECLAREd cursors, the latest first (sql_cursor.c) */
    uint64_t savepoints_begun; /* SAVEPOINTs so far: the cursors a ROLLBACK TO drops */
    bool binary_rows;      /* the running FETCH sends a BINARY cursor's rows (Simple Query) */
    rl_copy_in *copy_in;   /* COPY FROM STDIN in progress */
    char *pending_sql;     /* a simple query paused by COPY FROM STDIN ... */
    rl_parsed *pending;    /* ... its statements (a reference) ... */
    size_t pending_next;   /* ... and the next one to run */
    /* the last statement of a simple query: its CommandComplete waits for
     * the implicit transaction's commit (sql.c run_pending_statements) */
    bool hold_complete;
    bool has_held_complete;
    char held_complete[64];
    bool implicit;         /* the open txn is implicit (ends with the query / Sync) */
    int64_t txn_start_us;  /* now() of the current transaction */
    int64_t txid;          /* txid_current() of the current transaction, 0: none yet */
    atomic_bool cancel;
    atomic_bool running;   /* a statement is executing: only then does a cancel count */
    rl_parse_cache *parse_cache; /* trees of texts this session sent twice; lazily made */
    rl_subtype *subtypes;  /* result types of subqueries, CASE, COALESCE (sql_expr.c); lazily made */
    size_t nsubtypes;      /* its slots */
    rl_expr_cache *checks;   /* parsed CHECK expressions of one registry (sql_check.c) */
    rl_expr_cache *defaults; /* parsed column DEFAULTs of one registry (sql_default.c) */
    rl_index_exprs *index_exprs; /* parsed texts of UNIQUE index keys (sql_indexeval.c) */
    rl_index_fn index_fn;  /* rl_index_key_values, handed to each transaction (set by sql.c) */
    struct rl_seq_cache *seqs; /* sequences this session used: currval, cached values (sql_seq.c) */
    uint32_t last_seq;     /* lastval's sequence (pg_class oid), 0: none yet */
    struct rl_temp_seq *temp_seqs;          /* temporary sequences (sql_seq.c) ... */
    struct rl_temp_seq *temp_seqs_at_start; /* ... as the transaction found them ... */
    bool temp_seqs_saved;                   /* ... once it changed one */
    struct rl_temp_seq_state *temp_seq_states; /* their states by id: never undone */
    uint64_t temp_seq_ids;                  /* the last state id handed out */
    uint64_t exec_seq;     /* last rl_exec.id handed out */
    struct rl_pgc_tables *pgc_tables; /* sql_pgcatalog.c: this statement's tables */
    struct rl_pgc_memo *pgc_memo;     /* sql_pgcatalog.c: this transaction's fingerprint */
    struct rl_regex_cache *regex;     /* sql_func.c: this statement's compiled patterns */
    rl_commit_info commits; /* rl_session_commits (sql.c, its end) */
};

/* --------------------------------------------------- execution context */

/* An Execute with a row limit of INSERT / UPDATE / DELETE ... RETURNING:
 * the statement leaves its result rows and command tag here instead of
 * sending them, and the portal sends them max_rows at a time (PostgreSQL
 * runs such a statement to its end at the first Execute and keeps them). */
typedef struct rl_returning_hold {
    struct rl_rowset *rows; /* owned by the holder once set */
    char tag[48];
} rl_returning_hold;

typedef struct rl_exec {
    rl_session *s;
    const rl_sink *sink;
    rl_error *err;
    const char *sql;          /* whole query text, for error positions */
    const rl_value *params;   /* $1.. of the extended protocol */
    size_t nparams;
    bool explain_analyze;
    bool describing;          /* run for its shape only (Describe): no side effects (nextval) */
    bool past_temp;           /* unqualified names skip pg_temp: a stored table's default
                                 (bound by name, PostgreSQL's by oid) means its schema's */
    uint64_t keys_read;       /* store keys read by this statement */
    int8_t ctids;             /* does the text mention ctid? 0 = not looked yet, 1 yes, -1 no */
    uint64_t id;              /* this execution, for per-statement caches; 0 = none yet */
    bool simple_query;        /* a statement of a Simple Query: sql is its whole text */
    size_t stmt_index;        /* simple_query: which statement of sql this is */
    /* > 0 while typing code PostgreSQL's planner never folds (a CASE branch
     * or AND/OR operand a constant rules out, an unreferenced WITH query):
     * its constants type as NULLs there, so nothing is computed from them
     * (make_date(41, 18, 35) fails only where PostgreSQL would fold it). */
    int unreached;
    rl_returning_hold *hold;  /* NULL: RETURNING rows go to the sink */
    /* the function call being resolved was written pg_catalog.f(...): its
     * 42883 / 42725 name it so, as PostgreSQL's func_signature_string */
    bool call_qualified;
} rl_exec;

/* The transaction of the current statement (begun on first use). */
rl_txn *rl_exec_txn(rl_exec *x);
/* The transaction's start (now(), microseconds since 2000-01-01), fixed at
 * its first use. */
int64_t rl_exec_txn_start(rl_exec *x);
/* The DuckLake format (table shapes) the statement sees: its transaction's,
 * which a migration changes before COMMIT (rl_txn_set_format). */
rl_format rl_exec_format(rl_exec *x);

/* Is the statement in a transaction block: BEGIN's, or the implicit one of
 * a multi-statement query string (PostgreSQL's IsTransactionBlock)? */
bool rl_exec_in_block(rl_exec *x);
/* 25001 "<what> cannot run inside a transaction block" in a transaction
 * block or a multi-statement query string (VACUUM, DISCARD ALL, the
 * CONCURRENTLY forms of CREATE / DROP INDEX); else 0. */
int rl_exec_outside_block(rl_exec *x, const char *what);
/* 57014 if the session was cancelled; call in long loops. */
int rl_exec_check_cancel(rl_exec *x);
/* 54001 "stack depth limit exceeded" when the thread's stack is nearly
 * used up (stack.h); call at the top of every recursion over a parse tree
 * (expression evaluation, subqueries, tree walkers). */
int rl_exec_check_stack(rl_exec *x);

/* Error helpers: set x->err; position is the 1-based character offset of
 * `location` (libpg_query's 0-based byte location, -1 = none). */
int rl_exec_error(rl_exec *x, const char *sqlstate, int location, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* The error position (1-based character, 0 = none) rl_exec_error gives a
 * tree location: to compare with, or move, x->err->position. */
int rl_exec_position(rl_exec *x, int location);

/* A NOTICE (or WARNING, by its SQLSTATE's class) to the client through the
 * sink, if it takes notices; always 0. */
int rl_exec_notice(rl_exec *x, const char *sqlstate, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* CommandComplete with this tag through the sink (08006 when the client is
 * gone); held instead while the session holds the last statement's (its
 * commit comes first). A statement the executor ran (a SELECT, INSERT,
 * UPDATE, DELETE or EXPLAIN tag) that was cancelled while it ran ends with
 * 57014 instead, as PostgreSQL's executor checks for interrupts until its
 * last row: pg_cancel_backend(pg_backend_pid()) cancels its own statement. */
int rl_send_complete(rl_exec *x, const char *tag);
/* A held CommandComplete, once the commit it waited for held: sent as is
 * (the statement is over; a cancel now is dropped). */
int rl_send_held_complete(rl_exec *x, const char *tag);

#endif
