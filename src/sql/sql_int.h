/*
 * sql_int.h — what the SQL engine's files share with each other (not with
 * the wire layer, which sees only sql.h).
 *
 * Owns: the engine/session structs, materialized row sets, relations (stored
 * DuckLake tables, dynamic tables, session temp tables, pg_catalog views),
 * the statement execution context, and the contracts between:
 *   sql.c          sessions, parse, dispatch, transactions, SET/SHOW, extended protocol
 *   sql_expr.c     expressions: evaluation, literal coercion, casts, functions, compare
 *   sql_select.c   SELECT: FROM/JOIN, WHERE, aggregates, ORDER BY, LIMIT, UNION ALL, subqueries
 *   sql_scan.c     relation resolution, scans with key-prefix pushdown, EXPLAIN, ctids
 *   sql_pgcatalog.c pg_catalog / information_schema rows generated from descriptors
 *   sql_dml.c      INSERT, UPDATE (incl. FROM / WITH VALUES), DELETE (incl. ctid lists)
 *   sql_ddl.c      CREATE/DROP/ALTER TABLE, CREATE SCHEMA, temporary tables
 *   sql_copy.c     COPY TO STDOUT (binary/text), COPY FROM STDIN (binary/text)
 *   sql_value.c    rl_value text/binary output, OIDs, rowsets
 *
 * Invariants: the SQL layer never touches kv.h; it reaches the store only
 * through catalog.h. Parse trees are libpg_query's protobuf-c structs and are
 * never modified. Every error is a PostgreSQL-style rl_error with the right
 * SQLSTATE; nothing aborts the process.
 */
#ifndef ROCKLAKE_SQL_INT_H
#define ROCKLAKE_SQL_INT_H

#include <pg_query.h>
#include <pg_query/pg_query.pb-c.h>
#include <pthread.h>
#include <stdatomic.h>
#include <string.h>

#include "base/arena.h"
#include "sql/sql.h"

/* ------------------------------------------------------------- row sets */

typedef struct rl_colmeta {
    char name[64];      /* result column name */
    char rel[64];       /* alias of the relation it came from, "" if computed */
    uint32_t oid;
    int32_t typmod;
    uint32_t table_oid; /* for RowDescription; 0 if computed */
    int16_t attnum;
    bool using_dup;     /* right-hand copy of a JOIN ... USING column: reachable
                           only qualified, skipped by `*` (sql_select.c) */
} rl_colmeta;

/* Rows of a stored relation remember where they came from, for ctid and DML. */
typedef struct rl_rowsrc {
    const uint8_t *key; /* primary key bytes (arena), NULL for computed rows */
    size_t klen;
    uint64_t ctid;      /* block << 16 | offset */
} rl_rowsrc;

/* A column reference resolved against a row set's columns (sql_expr.c):
 * an expression evaluated for every row resolves each ColumnRef by name
 * once per row set, not once per row. Keyed by the ColumnRef node; a row
 * set lives no longer than the parse tree of the statement that made it
 * (session temp tables and pg_catalog's fixed rows are copied or viewed
 * through a fresh row set per statement), and code that renames columns
 * in place calls rl_rowset_cols_changed. */
#define RL_COLCACHE 32 /* a power of two */
typedef struct rl_colcache {
    const void *ref;    /* the PgQuery__ColumnRef, NULL = empty slot */
    int32_t idx;        /* column index, -1 none, -2 ambiguous */
    bool rel_seen;      /* the qualifier names a relation of this row set */
} rl_colcache;

/* A materialized relation: row-major values; strings live in `arena`. */
typedef struct rl_rowset {
    size_t ncols;
    rl_colmeta *cols;
    size_t nrows, caprows;
    rl_value *vals;     /* nrows * ncols */
    rl_rowsrc *src;     /* nrows entries, or NULL when no row has a source */
    rl_arena arena;
    rl_colcache colcache[RL_COLCACHE];
    size_t charged;     /* bytes counted against the result budget `budget` */
    uint64_t budget;    /* id of that budget, 0 = none */
} rl_rowset;

/* ------------------------------------------------------ result budget
 *
 * What one statement may hold in row sets at a time (issue #16): a SELECT,
 * Execute or COPY TO opens a budget for the session's thread, every row set
 * that grows while it is open counts its rows' bytes against it (and gives
 * them back when freed within it), and a row past the limit fails with
 * 54000 "result of this statement needs more than N MB". Plans that stream
 * (rl_select_stream) hold at most the heap-order spool, which is capped by
 * the same limit. */
typedef struct rl_result_budget {
    size_t used, limit;
    uint64_t id;
    bool active;        /* this one is the thread's (an outer one may be) */
} rl_result_budget;
/* Bytes a statement's row sets may hold (1 GiB; tests lower it, and so
 * does ROCKLAKE_TEST_RESULT_MEMORY_MB, read by rl_engine_new). */
extern size_t rl_result_mem_limit;
/* Open a budget for this thread unless one is open (a nested statement
 * shares the outer one); rl_result_budget_end closes what _begin opened. */
void rl_result_budget_begin(rl_result_budget *b);
void rl_result_budget_end(rl_result_budget *b);
/* The limit of the open budget (rl_result_mem_limit when none is open). */
size_t rl_result_budget_limit(void);

/* Forget cached column resolutions (after renaming columns in place). */
static inline void rl_rowset_cols_changed(rl_rowset *rs)
{
    memset(rs->colcache, 0, sizeof rs->colcache);
}

rl_rowset *rl_rowset_new(size_t ncols);
/* The typing row: a new row set of rs's columns holding one row of NULLs of
 * the columns' types (see sql_expr.c); NULL with err set when out of memory. */
rl_rowset *rl_rowset_typing(const rl_rowset *rs, rl_error *err);
void rl_rowset_free(rl_rowset *rs);
/* Append a row (values copied, strings into the arena). src may be NULL. */
int rl_rowset_add(rl_rowset *rs, const rl_value *vals, const rl_rowsrc *src, rl_error *err);
/* Append a row without copying its strings: the caller guarantees they
 * outlive rs (e.g. by rl_arena_adopt of the arenas they live in). */
int rl_rowset_add_ref(rl_rowset *rs, const rl_value *vals, rl_error *err);
/* Room for n more rows without growing (0, or -1 when out of memory). */
int rl_rowset_reserve(rl_rowset *rs, size_t n);
static inline rl_value *rl_rowset_row(rl_rowset *rs, size_t i) { return &rs->vals[i * rs->ncols]; }
/* Copy a value's string bytes into arena (no-op for fixed-size values). */
int rl_value_own(rl_arena *a, rl_value *v);

/* Hash equality that implies SQL equality: values of the int-like family
 * (int2/4/8, oid, regclass, regproc) hash their integer, the string-like
 * family (text, varchar, name, "char") their bytes; anything else, and
 * NULL, is not hashable (ok false). Two values of one family are equal in
 * SQL iff rl_value_key_equal says so. */
typedef struct rl_value_key {
    bool ok;
    bool string;
    uint64_t h;
} rl_value_key;
bool rl_oid_is_intlike(uint32_t oid);
bool rl_oid_is_stringlike(uint32_t oid);
rl_value_key rl_value_key_of(const rl_value *v);
bool rl_value_key_equal(const rl_value *a, const rl_value *b);

/* ------------------------------------------------------------- key sets
 *
 * What a scan may skip: a key set says that only rows whose column `col`
 * equals one of `vals` can matter to the statement (the caller still applies
 * every condition to what the scan returns, so a key set only saves work and
 * is never needed for correctness). sql_select.c derives them from `col =
 * constant` / `col IN (constants)` conjuncts and from the left side of an
 * equi-join; pg_catalog's generators (sql_pgcatalog.c) drop rows outside
 * them before building them, so a reflection query filtered by relname
 * looks rows up instead of materializing pg_attribute. */
typedef struct rl_keyset {
    size_t col;         /* column index in the scanned relation */
    bool string;        /* string-like values (else int-like) */
    size_t n;           /* distinct values */
    rl_value *vals;     /* n values; strings borrowed from the caller */
    size_t nslots;      /* a power of two >= 2n: open addressing */
    uint32_t *slots;    /* value index + 1, 0 = empty */
    size_t cap;
} rl_keyset;

#define RL_SCAN_KEYSETS 4
typedef struct rl_scan_keys {
    size_t n;
    rl_keyset sets[RL_SCAN_KEYSETS];
} rl_scan_keys;

/* Start an empty key set on column `col` of the given family (0, or -1 on
 * out of memory); add values (NULLs and values of the other family are
 * skipped: -1 only on out of memory); free what a key set holds. */
int rl_keyset_init(rl_keyset *k, size_t col, bool string);
int rl_keyset_add(rl_keyset *k, const rl_value *v);
bool rl_keyset_has(const rl_keyset *k, const rl_value *v);
void rl_keyset_free(rl_keyset *k);
void rl_scan_keys_free(rl_scan_keys *keys);
/* Could this row of the scanned relation matter (every key set admits it)?
 * keys NULL or empty admits everything. */
bool rl_scan_keys_admit(const rl_scan_keys *keys, const rl_value *row);

/* ------------------------------------------------------------ relations */

typedef enum rl_rel_kind {
    RL_REL_STORED = 1,   /* a DuckLake table or dynamic table in the catalog */
    RL_REL_TEMP = 2,     /* session temporary table */
    RL_REL_VIRTUAL = 3   /* pg_catalog / information_schema view */
} rl_rel_kind;

typedef struct rl_temp_table {
    char name[64];
    rl_rowset *rows;      /* columns = the table's columns */
    bool on_commit_drop;
    bool created_in_txn;  /* sql_ddl.c: dropped if the creating txn rolls back */
    struct rl_temp_table *next;
} rl_temp_table;

typedef struct rl_relation {
    rl_rel_kind kind;
    char schema[64];
    char name[64];
    uint32_t oid;                /* stable pseudo-oid (pg_class.oid) */
    const rl_table_desc *desc;   /* STORED */
    rl_temp_table *temp;         /* TEMP */
    int virtual_id;              /* VIRTUAL: rl_pgcatalog_* id */
} rl_relation;

/* ------------------------------------------------------ engine, session */

struct rl_engine {
    rl_catalog *cat;
    char database[64];
    char version[256];
    rl_schema_lakes schema_lakes; /* .find NULL: no stores for further schemas */
};

/* One lake a session's transaction touches: the database's own store
 * (slot 0, the session's home engine) or a further DuckLake schema's. */
#define RL_SESSION_LAKES 8
typedef struct rl_session_lake {
    rl_engine *eng;
    rl_txn *txn; /* open catalog transaction on eng, or NULL */
} rl_session_lake;

typedef struct rl_setting {
    char name[64];
    char value[256];
    struct rl_setting *next;
} rl_setting;

typedef struct rl_prepared rl_prepared; /* sql.c */
typedef struct rl_parsed rl_parsed;     /* sql_parse.c */
typedef struct rl_parse_cache rl_parse_cache; /* sql_parse.c */
typedef struct rl_portal rl_portal;     /* sql.c */
typedef struct rl_copy_in rl_copy_in;   /* sql_copy.c */
typedef struct rl_ctid_map rl_ctid_map; /* sql_scan.c */
typedef struct rl_subtype rl_subtype;   /* sql_expr.c */

struct rl_session {
    rl_engine *eng;        /* the engine of the current statement (sql_lakes.c) */
    char user[64], application[64], client[64];
    rl_txn *txn;           /* open catalog transaction on eng, or NULL */
    /* Every lake of this transaction; lakes[cur] is (eng, txn) while a
     * statement runs, its .txn field stale until rl_lakes_save. */
    rl_session_lake lakes[RL_SESSION_LAKES];
    size_t nlakes, cur;
    bool in_block;         /* BEGIN was issued */
    bool failed;           /* error inside a block: 25P02 until ROLLBACK */
    bool read_only_txn;    /* BEGIN ... READ ONLY */
    rl_temp_table *temps;
    rl_setting *settings;
    rl_ctid_map *ctids;    /* per transaction */
    rl_prepared *prepared;
    rl_portal *portals;
    rl_copy_in *copy_in;   /* COPY FROM STDIN in progress */
    char *pending_sql;     /* a simple query paused by COPY FROM STDIN ... */
    rl_parsed *pending;    /* ... its statements (a reference) ... */
    size_t pending_next;   /* ... and the next one to run */
    bool implicit;         /* the open txn is implicit (ends with the query / Sync) */
    int64_t txn_start_us;  /* now() of the current transaction */
    atomic_bool cancel;
    atomic_bool running;   /* a statement is executing: only then does a cancel count */
    rl_parse_cache *parse_cache; /* trees of texts this session sent twice; lazily made */
    rl_subtype *subtypes;  /* result types of scalar subqueries (sql_expr.c); lazily made */
    uint64_t exec_seq;     /* last rl_exec.id handed out */
    struct rl_pgc_tables *pgc_tables; /* sql_pgcatalog.c: this statement's tables */
    struct rl_pgc_memo *pgc_memo;     /* sql_pgcatalog.c: this transaction's fingerprint */
    rl_commit_info commits; /* rl_session_commits (sql.c, its end) */
};

/* --------------------------------------------------- execution context */

typedef struct rl_exec {
    rl_session *s;
    const rl_sink *sink;
    rl_error *err;
    const char *sql;          /* whole query text, for error positions */
    const rl_value *params;   /* $1.. of the extended protocol */
    size_t nparams;
    bool explain_analyze;
    uint64_t keys_read;       /* store keys read by this statement */
    int8_t ctids;             /* does the text mention ctid? 0 = not looked yet, 1 yes, -1 no */
    uint64_t id;              /* this execution, for per-statement caches; 0 = none yet */
    bool simple_query;        /* a statement of a Simple Query: sql is its whole text */
    size_t stmt_index;        /* simple_query: which statement of sql this is */
} rl_exec;

/* The transaction of the current statement (begun on first use). */
rl_txn *rl_exec_txn(rl_exec *x);
/* The DuckLake format (table shapes) the statement sees: its transaction's,
 * which a migration changes before COMMIT (rl_txn_set_format). */
rl_format rl_exec_format(rl_exec *x);

/* ----------------------------------------------------------- sql_lakes.c */

/* Make the engine of the lake that holds the statement's relations the
 * session's current one (s->eng, s->txn): the database's own, or the store
 * of a further DuckLake metadata schema. A statement naming relations of
 * two lakes is refused (0A000). Statements without relations run on the
 * database's own lake. */
int rl_lakes_route(rl_exec *x, const PgQuery__Node *stmt);
/* Store s->txn back into its slot (before ending or walking transactions). */
void rl_lakes_save(rl_session *s);
/* Is a catalog transaction open on any lake? */
bool rl_lakes_any_txn(rl_session *s);
/* For pg_catalog: fn with the transaction (begun on first use) and format
 * of every lake of the database except the current statement's. */
int rl_lakes_each_other(rl_exec *x, int (*fn)(void *ctx, rl_txn *t, rl_format fmt), void *ctx);
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

/* ---------------------------------------------------------- sql_params.c */

/* The highest $n the statement refers to (0: none) in *out; which of
 * $1..$64 it refers to somewhere that can give a type (bit n-1; not only
 * as the operand of IS [NOT] NULL) in *typeable, and which of those it
 * refers to first as such an operand (so with no type there, and one
 * elsewhere: PostgreSQL's 42P08) in *unknown_first; -1 + 54001 when it
 * nests too deep to look at. */
int rl_params_count(rl_exec *x, const PgQuery__Node *stmt, size_t *out, uint64_t *typeable,
                    uint64_t *unknown_first);
/* Give each of the n parameters Parse left untyped (oids[i] == 0) the type
 * its context in `stmt` gives it, as PostgreSQL infers one (a cast, the
 * column it is compared with or stored in, LIMIT, a condition), else text.
 * Relations are resolved on the session's current lake (route first); one
 * that does not resolve is left out. Never fails. It walks the statement
 * whatever oids holds: the caller calls it when some parameter is untyped. */
void rl_params_infer(rl_exec *x, const PgQuery__Node *stmt, uint32_t *oids, size_t n);

/* ----------------------------------------------------------- sql_parse.c */

/* The text of a String node; NULL for any other node or none. */
static inline const char *rl_node_string(const PgQuery__Node *n)
{
    return n && n->node_case == PG_QUERY__NODE__NODE_STRING ? n->string->sval : NULL;
}

/* The name a FROM item is referred to by: its alias, else its relation's. */
static inline const char *rl_range_var_alias(const PgQuery__RangeVar *rv)
{
    return rv->alias && rv->alias->aliasname ? rv->alias->aliasname : rv->relname;
}

/* Visit `m` and every message below it, depth first, through protobuf-c's
 * reflection (so no node kind is missed). visit returns 0 to go into the
 * message's children, 1 to skip them, -1 to stop the walk. Returns 0, -1
 * when visit stopped it, -2 when the tree nests deeper than the stack
 * allows (the walk is then incomplete). */
typedef int (*rl_tree_visit)(void *ctx, const ProtobufCMessage *m);
int rl_tree_walk(const ProtobufCMessage *m, rl_tree_visit visit, void *ctx);

/* Parse `sql` (through the session's cache of repeated texts). On success
 * *out is a reference the caller gives back with rl_parsed_release; its
 * tree is shared and must not be modified. 42601 with a position on a
 * syntax error. */
int rl_parse(rl_exec *x, const char *sql, rl_parsed **out);
/* The statements; NULL for an empty query. Valid while the reference is held. */
const PgQuery__ParseResult *rl_parsed_tree(const rl_parsed *p);
rl_parsed *rl_parsed_ref(rl_parsed *p);
void rl_parsed_release(rl_parsed *p); /* NULL is fine */
void rl_parse_cache_free(rl_parse_cache *c);
/* Parses a session answered from the process's shared cache of trees (a
 * text some session parsed twice before), since the process started. */
uint64_t rl_parse_shared_hits(void);
/* Texts the grammar itself parsed since the process started (cache misses). */
uint64_t rl_parse_grammar_runs(void);
/* Make `p` the statement this thread is running (NULL: none); returns the
 * previous one, to restore. While active, rl_const gives the constants of
 * p's own text and rl_parsed_location maps tree locations into it. */
const rl_parsed *rl_parsed_activate(const rl_parsed *p);
/* The constant to use for an A_Const of the running statement's tree:
 * every read of an A_Const's value goes through here. A tree shared by
 * texts of one shape has its literal nodes sealed (no value, see
 * rl_const_sealed): only this gives each text its own, so a direct read
 * finds nothing for every text, never another text's literal. */
const PgQuery__AConst *rl_const(const PgQuery__AConst *k);
/* Is k a sealed literal (read without rl_const, or outside its statement's
 * rl_parsed_activate)? Readers treat it as no constant. */
bool rl_const_sealed(const PgQuery__AConst *k);
/* A tree location (byte offset) as an offset into the running text. */
int rl_parsed_location(int location);
/* A node's parse location (0-based byte offset) for error positions, or -1. */
int rl_node_location(const PgQuery__Node *n);

/* ------------------------------------------------------------ sql_expr.c */

/* Column bindings visible to an expression: a stack of row sets with the
 * current row of each (outer queries below inner ones). */
typedef struct rl_binding {
    rl_rowset *rs;            /* NULL = a subquery boundary (see correlated) */
    size_t row;
    const struct rl_binding *outer;
    bool *correlated;         /* boundary only: set when a column lookup
                                 crosses it (the subquery is correlated) */
} rl_binding;

/* Aggregate state for MAX/MIN/COUNT/SUM over a group (NULL when evaluating
 * a non-aggregate context). sql_select.c fills it: an aggregate's argument
 * is evaluated once per row rs[rows[i]], seen through `outer`. */
typedef struct rl_agg_ctx {
    rl_rowset *rs;
    const size_t *rows;
    size_t nrows;
    const rl_binding *outer;
} rl_agg_ctx;

typedef struct rl_expr_ctx {
    rl_exec *x;
    const rl_binding *b;
    rl_agg_ctx *agg;
    rl_arena *arena;          /* strings produced by evaluation */
    bool typing;              /* evaluating on an all-NULL row only for the
                                 result type: CASE evaluates every branch */
} rl_expr_ctx;

/* Evaluate `node` to *out. Unknown-typed literals stay RL_OID_UNKNOWN (text)
 * until coerced, as in PostgreSQL. */
int rl_expr_eval(rl_expr_ctx *c, const PgQuery__Node *node, rl_value *out);
/* Evaluate a predicate: 1 true, 0 false or NULL, -1 error. */
int rl_expr_truth(rl_expr_ctx *c, const PgQuery__Node *node);
/* Coerce to a type as an assignment would (INSERT/UPDATE/COPY) or as an
 * explicit cast (explicit = true). 22P02 / 22003 / 42804 on failure. */
int rl_value_coerce(rl_expr_ctx *c, const rl_value *in, uint32_t oid, int32_t typmod,
                    bool explicit_cast, rl_value *out, int location);
/* PostgreSQL comparison of two non-NULL values (after resolving unknown
 * literals against the other side): <0, 0, >0; -1 + err on incomparable
 * types (42883). */
int rl_value_cmp(rl_expr_ctx *c, const rl_value *a, const rl_value *b, int *result,
                 int location);
/* Type name as SQL spells it ("bigint", "character varying") -> OID/typmod. */
int rl_type_from_typename(rl_exec *x, const PgQuery__TypeName *tn, uint32_t *oid,
                          int32_t *typmod);
/* Output column name PostgreSQL gives an expression without alias
 * ("?column?", function name, column name, "max", "version", ...). */
void rl_expr_default_name(const PgQuery__Node *node, char *out, size_t n);
/* The input column a bare ColumnRef names in b's innermost row set (for
 * RowDescription's table oid / attnum), or NULL. */
const rl_colmeta *rl_expr_column(const rl_binding *b, const PgQuery__Node *node);
/* PostgreSQL's name of a type in messages ("bigint", "character varying"). */
const char *rl_oid_type_name(uint32_t oid);
/* Common type of two (CASE/COALESCE/VALUES/UNION): unknown yields to the
 * other, numbers widen, text-likes become text, else the first. */
uint32_t rl_common_type(uint32_t a, uint32_t b);
/* What PostgreSQL checks while planning: every unknown-typed literal that
 * a comparison (=, <>, <, >, <=, >=, IN list, BETWEEN) in the AND/OR/NOT
 * tree `node` sets against a non-text column of c->b's query level must be
 * valid input for that column's type (22P02 ... even if no row is ever
 * evaluated). 0 ok, -1 error. */
int rl_expr_check_literals(rl_expr_ctx *c, const PgQuery__Node *node);
/* What PostgreSQL finds wrong with a WHERE condition while planning, so also
 * when no row is read and whichever AND / OR operand decides first: the
 * literals above (22P02), unknown names (42703 / 42P01), a condition that
 * is not boolean (42804). c->b must bind typing rows (see sql_expr.c); the
 * condition is evaluated on them once, in typing mode. 0 ok, -1 error. */
int rl_expr_check_where(rl_expr_ctx *c, const PgQuery__Node *where);
/* Free a session's cache of subquery result types (sql_expr.c). */
void rl_expr_free_subtypes(rl_session *s);
/* Is the node a call of an aggregate we implement (count/max/min/sum/...)? */
bool rl_expr_is_aggregate(const PgQuery__Node *node);

/* ---------------------------------------------------------- sql_select.c */

/* Run a SELECT into a row set (with column names/types). `outer` gives
 * correlated subqueries access to enclosing rows (may be NULL). */
rl_rowset *rl_select_run(rl_exec *x, const PgQuery__SelectStmt *st, const rl_binding *outer);
/* Run a SELECT and send RowDescription, DataRows, CommandComplete: rows
 * stream from the scan to the sink when rl_select_stream serves the shape,
 * else the result is materialized under the statement's result budget. */
int rl_select_send(rl_exec *x, const PgQuery__SelectStmt *st);
/* The streamed part of that: 1 when the rows (and CommandComplete) went
 * out, 0 when the shape needs rl_select_run (nothing was sent), -1 on
 * error. row_description false: not even RowDescription (Execute). */
int rl_select_send_streamed(rl_exec *x, const PgQuery__SelectStmt *st, bool row_description);
/* The shape rl_select_stream serves (its result columns are those of
 * rl_select_type, so Describe need not run it). */
bool rl_select_streamable(const PgQuery__SelectStmt *st);
/* Has the value string bytes (that a row set's arena would own)? */
bool rl_value_has_bytes(const rl_value *v);
/* Only the result columns (names and types) of a SELECT, with no rows:
 * FROM is read but WHERE and the projection are not evaluated. What a
 * scalar subquery needs while its enclosing query types its targets. */
rl_rowset *rl_select_type(rl_exec *x, const PgQuery__SelectStmt *st, const rl_binding *outer);
/* Row description of a SELECT without running it (extended-protocol
 * Describe). */
rl_rowset *rl_select_describe(rl_exec *x, const PgQuery__SelectStmt *st);

/* Rows handed one at a time to a consumer (COPY, a streamed SELECT): begin
 * once with the number of columns and their names and types before the
 * first row, then row per result row; each
 * appends what it writes to *out (vals borrow until row returns). The
 * stream sends out's bytes through send, whole rows at a time: as they
 * come, or, when the scan is in heap order (rl_relation_heap_ordered), all
 * at the end in that order. What is left in *out at the end (less than
 * RL_STREAM_CHUNK) is the consumer's to send. Each returns 0, or -1 with
 * x->err set. */
typedef struct rl_row_stream {
    int (*begin)(void *ctx, size_t ncols, const rl_colmeta *cols);
    int (*row)(void *ctx, const rl_value *vals, size_t ncols);
    int (*send)(void *ctx, const uint8_t *data, size_t len);
    rl_buf *out;
    void *ctx;
} rl_row_stream;
/* Bytes of output a stream lets gather before sending them. */
#define RL_STREAM_CHUNK (64u * 1024)
/* Run `SELECT col, ... FROM stored_table [WHERE ...]` without building row
 * sets: each stored row is filtered and its columns handed to `out` as the
 * scan reads it. Returns 1 when done (*nrows rows sent), -1 on error, and 0
 * without doing anything when the query has another shape (joins, sorting,
 * grouping, expressions, ctid, temp or catalog tables, ...): run it with
 * rl_select_run then. Answers and errors are those of rl_select_run. */
int rl_select_stream(rl_exec *x, const PgQuery__SelectStmt *st, const rl_row_stream *out,
                     size_t *nrows);
/* Evaluate a VALUES list (values_stmt->values_lists) into a row set whose
 * columns are named colnames[i] (or column1, column2, ...) with relation
 * alias `alias`; column types are resolved as PostgreSQL resolves VALUES
 * (common type; all-unknown -> text). */
rl_rowset *rl_values_run(rl_exec *x, const PgQuery__SelectStmt *values_stmt, const char *alias,
                         char **colnames, size_t ncolnames);

/* ------------------------------------------------------------ sql_scan.c */

/* Resolve a table name as PostgreSQL's search path would (pg_temp, then the
 * named schema or public, then pg_catalog). 42P01 if absent. */
int rl_relation_resolve(rl_exec *x, const PgQuery__RangeVar *rv, rl_relation *out);
int rl_relation_lookup(rl_exec *x, const char *schema, const char *name, rl_relation *out);
/* Column layout of a relation (names, types, table oid, attnums). */
rl_rowset *rl_relation_shape(rl_exec *x, const rl_relation *rel, const char *alias);

/* The row order of a stored table's scan into a row set. RL_SCAN_HEAP:
 * PostgreSQL's heap order, as far as the descriptor's rl_heap_order derives
 * it from the rows, when the scan reads the whole table (no equality prefix
 * on the leading key field) and the statement does not name ctid; key
 * order otherwise. RL_SCAN_KEY: key order, for readers whose row order no
 * one sees (DML, DDL). */
typedef enum rl_scan_order { RL_SCAN_KEY = 0, RL_SCAN_HEAP = 1 } rl_scan_order;

/* Scan a relation into a row set whose columns are all the relation's
 * columns, aliased `alias`. `where` (may be NULL) is only used to choose a
 * key prefix (equality / IN on leading key fields) — the caller still
 * applies it. Stored rows carry their primary key and a ctid. */
rl_rowset *rl_relation_scan(rl_exec *x, const rl_relation *rel, const char *alias,
                            const PgQuery__Node *where, rl_scan_order order);
/* A condition on single rows that a scan applies while it fills a row set:
 * keep(ctx, rs, i) says whether row i of rs stays (1), goes (0), or fails
 * (-1 with the error set in the scan's rl_exec). */
typedef struct rl_row_filter {
    int (*keep)(void *ctx, rl_rowset *rs, size_t row);
    void *ctx;
} rl_row_filter;

/* Drop the rows of rs that filter rejects, keeping the order (0, or -1 when
 * the filter failed). */
int rl_rowset_filter(rl_rowset *rs, const rl_row_filter *filter);

/* rl_relation_scan in two steps, for a caller that looks at the columns
 * first: fill `rs` (from rl_relation_shape(x, rel, alias), taken over:
 * returned filled, or freed and NULL), leaving out rows outside `keys`
 * where it can (NULL: none; only pg_catalog relations use them today) and
 * every row `filter` drops (NULL: none). A pg_catalog relation's `rs` may
 * have been narrowed after rl_relation_shape (columns dropped; each kept
 * column's attnum says which one it is): its rows are generated straight
 * into that layout, and filtered as they are made, so a join over
 * pg_attribute never holds the rows or columns it does not need. Other
 * relations' `rs` must have the shape's columns. */
rl_rowset *rl_relation_fill(rl_exec *x, const rl_relation *rel, const char *alias,
                            const PgQuery__Node *where, rl_scan_order order,
                            const rl_scan_keys *keys, const rl_row_filter *filter,
                            rl_rowset *rs);
/* Does the statement name ctid (a SELECT of it, a DML ctid predicate)? Only
 * then do stored rows get ctids: numbering is a hash-map insert per row. */
bool rl_exec_uses_ctids(rl_exec *x);
/* The stored rows of an RL_REL_STORED relation one at a time, in key
 * order (`where` chooses key prefixes as rl_relation_scan does). fn gets
 * each row (borrowed until it returns) and returns 0 to go on or -1 to stop
 * with x->err set. Checks for cancel every 1024 rows. */
typedef int (*rl_stored_row_fn)(void *ctx, const rl_row *row);
int rl_relation_scan_each(rl_exec *x, const rl_relation *rel, const char *alias,
                          const PgQuery__Node *where, rl_stored_row_fn fn, void *ctx);
/* A query of one relation whose `where` matched no row, reading the stored
 * columns flagged in reads[]: tells the catalog what it asked for (one key,
 * or `col <= const` as the whole WHERE), which refuses a time-travel lookup
 * of an expired snapshot with 72000 (rl_txn_check_retained). 0 or -1. */
int rl_relation_check_retained(rl_exec *x, const rl_relation *rel, const char *alias,
                               const PgQuery__Node *where, const bool *reads);
/* Would rl_relation_scan(..., RL_SCAN_HEAP) reorder this scan's rows? A
 * streamed scan then holds its output in a spool. */
bool rl_relation_heap_ordered(rl_exec *x, const rl_relation *rel, const char *alias,
                              const PgQuery__Node *where);
/* A streamed scan's output held until its last row, then sent in heap
 * order. After each row's output went to the stream's *out (from `start`
 * on), _add files it under the row's place in heap order (and may swap *out
 * for a fresh buffer, keeping the full one); _send sends what is held
 * through the stream, the rows' output in heap order (or, with as_written,
 * in key order, as it was written), leaving the last piece in *out. _bytes:
 * the rows' output held so far. Errors: -1 with x->err set. */
typedef struct rl_heap_spool rl_heap_spool;
rl_heap_spool *rl_heap_spool_new(rl_exec *x, const rl_table_desc *d);
int rl_heap_spool_add(rl_heap_spool *sp, const rl_row *row, rl_buf *out, size_t start);
int rl_heap_spool_send(rl_heap_spool *sp, const rl_row_stream *st, bool as_written);
size_t rl_heap_spool_bytes(const rl_heap_spool *sp);
void rl_heap_spool_free(rl_heap_spool *sp);
/* Bytes of output a spool may hold (64 MiB); past it the stream sends what
 * it holds, and the rest, in key order. Tests lower it. */
extern size_t rl_heap_order_limit;
/* Describe the scan rl_relation_scan would choose (EXPLAIN). */
void rl_relation_explain(rl_exec *x, const rl_relation *rel, const PgQuery__Node *where,
                         rl_buf *out);

/* MAX of the first key column of a stored table whose first key column
 * feeds a counter (ducklake_snapshot.snapshot_id, ...), read in O(1) keys
 * through the counter. 1 = answered (*out may be a NULL value for an empty
 * table), 0 = no fast path for this relation, -1 = error. */
int rl_relation_max_key(rl_exec *x, const rl_relation *rel, rl_value *out);
/* Every relation has a trailing hidden column "ctid" (RL_OID_TID) with
 * attnum -1, PostgreSQL's attnum for ctid: `*` expansion skips attnum < 0. */
#define RL_CTID_ATTNUM (-1)

/* ------------------------------------------------------------ sql_ctid.c */

/* A tid value (RL_OID_TID) holding ctid (block << 16 | offset). */
rl_value rl_tid_value(uint64_t ctid);
/* The ctid of the i-th row (0-based) numbered by position. */
uint64_t rl_ctid_of_index(size_t i);
/* The ctid of the i-th row of a relation without stored keys (temp tables,
 * pg_catalog), as a tid value. */
rl_value rl_row_index_ctid(size_t i);
/* ctids: numbered per table ((0,1), (0,2), ... in first-seen order) and
 * stable for the life of the transaction that read the row. */
uint64_t rl_ctid_for_key(rl_session *s, const rl_table_desc *d, const uint8_t *key,
                         size_t klen);
/* 1 and the key of table d's row with this ctid, or 0 if this transaction
 * never handed it out (sql_dml.c then numbers the table by scanning it). */
int rl_ctid_lookup(rl_session *s, const rl_table_desc *d, uint64_t ctid, const uint8_t **key,
                   size_t *klen);
void rl_ctid_reset(rl_session *s); /* at transaction end */
/* "(p,o)" / "'(p,o)'" -> ctid; false if malformed. */
bool rl_tid_parse(const char *text, size_t len, uint64_t *ctid);

/* -------------------------------------------------------- sql_pgcatalog.c */

/* Free a session's pg_catalog table list (sql_pgcatalog.c). */
void rl_pgcatalog_cache_free(struct rl_pgc_tables *c);
/* Forget the session's kept fingerprint (its transactions ended). */
void rl_pgcatalog_memo_free(rl_session *s);
/* Virtual relation id for pg_catalog.<name> / information_schema.<name>,
 * or -1. */
int rl_pgcatalog_find(const char *schema, const char *name);
const char *rl_pgcatalog_schema(int id);
/* Generate the rows of virtual relation id (reflecting the catalog as this
 * transaction sees it, so a table created a moment ago is listed) into
 * `dst` (rl_relation_shape's columns, or a
 * subset of them in any order: dst column j is the relation's column
 * attnum - 1, or the row's ctid for RL_CTID_ATTNUM), leaving out rows
 * outside `keys` where it can and every row `filter` drops (both may be
 * NULL). Strings of the fixed (system) rows live as long as the process
 * and are not copied. 0, or -1 with x's error set. */
int rl_pgcatalog_fill(rl_exec *x, int id, const rl_scan_keys *keys, const rl_row_filter *filter,
                      rl_rowset *dst);
/* The oid of a relation / namespace, used consistently by pg_class,
 * pg_attribute, RowDescription and to_regclass: PostgreSQL 15's real oid for
 * its own (pg_catalog / information_schema), else a stable pseudo-oid. */
uint32_t rl_pgcatalog_rel_oid(const char *schema, const char *name);
uint32_t rl_pgcatalog_namespace_oid(const char *schema);
/* Columns of a virtual relation without generating its rows (no rows). */
rl_rowset *rl_pgcatalog_columns(int id);

/* ------------------------------------------------------ sql_resultkey.c */

/* Offer a pure SELECT's key to the sink (rl_sink.cached_result): 1 when
 * the sink answered it, 0 to run it, -1 with x's error set. */
int rl_result_cache_probe(rl_exec *x, const PgQuery__SelectStmt *st);
/* Are virtual relation id's rows a function of the lake's schemas and
 * tables alone (false: they also show the session, e.g. pg_settings)? */
bool rl_pgcatalog_pure(int id);
/* Append to `out` every input of the pure relations' rows as this
 * transaction sees them: two answers with equal bytes are equal. 0, or -1
 * with x's error set. */
int rl_pgcatalog_fingerprint(rl_exec *x, rl_buf *out);

/* ----------------------------------------------------- sql_dml/ddl/copy.c */

int rl_dml_insert(rl_exec *x, const PgQuery__InsertStmt *st);
int rl_dml_update(rl_exec *x, const PgQuery__UpdateStmt *st);
int rl_dml_delete(rl_exec *x, const PgQuery__DeleteStmt *st);
/* Insert one row of already-coerced values into a relation (used by INSERT
 * and COPY FROM). */
int rl_dml_insert_row(rl_exec *x, const rl_relation *rel, const rl_value *row);

int rl_ddl_create_table(rl_exec *x, const PgQuery__CreateStmt *st);
int rl_ddl_create_schema(rl_exec *x, const PgQuery__CreateSchemaStmt *st);
int rl_ddl_drop(rl_exec *x, const PgQuery__DropStmt *st);
int rl_ddl_alter_table(rl_exec *x, const PgQuery__AlterTableStmt *st);
int rl_ddl_rename(rl_exec *x, const PgQuery__RenameStmt *st);
/* Drop ON COMMIT DROP temp tables (commit) / all of this txn's (rollback). */
void rl_ddl_end_transaction(rl_session *s, bool committed);
void rl_ddl_free_temps(rl_session *s);

/* COPY: TO STDOUT runs to completion; FROM STDIN returns RL_EXEC_COPY_IN
 * after copy_in_begin and is finished by the rl_copy_in_* calls. */
rl_exec_status rl_copy_start(rl_exec *x, const PgQuery__CopyStmt *st);
int rl_copy_in_data(rl_exec *x, const uint8_t *data, size_t len);
int rl_copy_in_done(rl_exec *x); /* sends CommandComplete "COPY n" */
void rl_copy_in_abort(rl_session *s);

/* Binary COPY / binary result encoding of one value (PostgreSQL send
 * format), shared with rl_value_to_binary. Decoding for COPY FROM. */
int rl_value_from_binary(rl_exec *x, uint32_t oid, int32_t typmod, const uint8_t *p,
                         size_t len, rl_arena *arena, rl_value *out);

/* PostgreSQL binary send format of one non-NULL value (COPY binary and
 * binary result columns; sql_value.c). false if the type has no binary
 * form here. */
bool rl_value_encode_binary(rl_buf *out, const rl_value *v);

/* regclass values print as the relation's name: register it when making
 * one (sql_value.c; thread-safe). `display_name` is what PostgreSQL prints:
 * the bare name for relations on the search path, else schema.name. */
void rl_regclass_register(uint32_t oid, const char *display_name);

/* Command tag helpers. */
int rl_send_complete(rl_exec *x, const char *tag);

#endif
