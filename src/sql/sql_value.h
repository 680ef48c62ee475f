/*
 * sql_value.h — SQL values and row sets (sql_value.c), private to src/sql/:
 * materialized row sets and their columns, the statement's result budget,
 * value keys and key sets (what a scan may skip), row filters, the binary
 * send form of a value, which types are reg* types.
 *
 * The bottom of the engine's files: nothing here knows a statement, a
 * session or a parse tree.
 */
#ifndef ROCKLAKE_SQL_VALUE_H
#define ROCKLAKE_SQL_VALUE_H

#include <string.h>

#include "base/arena.h"
#include "base/buf.h"
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
    uint32_t rowtype;   /* on a relation's hidden ctid column: the type of its
                           whole-row reference (a table's row type), 0 for
                           `record`, RL_ROWTYPE_NONE for none (sql_scan.c) */
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
/* Bytes a statement's row sets may hold unless the engine says otherwise
 * (rl_engine_options.result_memory, ROCKLAKE_TEST_RESULT_MEMORY_MB: the
 * engine's result_mem_limit). */
#define RL_RESULT_MEM_DEFAULT ((size_t)1024 << 20)
/* Open a budget of `limit` bytes (the statement's engine's
 * result_mem_limit) for this thread unless one is open (a nested statement
 * shares the outer one); rl_result_budget_end closes what _begin opened. */
void rl_result_budget_begin(rl_result_budget *b, size_t limit);
void rl_result_budget_end(rl_result_budget *b);
/* The limit of the open budget (none_open when none is open). */
size_t rl_result_budget_limit(size_t none_open);

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

/* Has the value string bytes (that a row set's arena would own)? */
bool rl_value_has_bytes(const rl_value *v);

/* PostgreSQL binary send format of one non-NULL value (COPY binary and
 * binary result columns; sql_value.c). false if the type has no binary
 * form here. */
bool rl_value_encode_binary(rl_buf *out, const rl_value *v);

/* regclass, regtype, regnamespace, regrole, regproc, regprocedure: an oid that
 * prints as a name, looked up at output time in the session's catalog
 * (rl_session_value_text); without a session the number. */
bool rl_oid_is_reg(uint32_t oid);

/* Arrays keep PostgreSQL's text form ({a,"b c",NULL}) in v.s. The array
 * type of an element type and back (0: none known). An array of a table's
 * row type is known back once the process has asked for it the other way
 * (rl_array_oid_of: a typed array value is made that way first; the
 * latest of two row types sharing an array type wins). */
uint32_t rl_array_oid_of(uint32_t elem);
uint32_t rl_array_elem_oid(uint32_t array);
/* The next element of an array's text form p[0..len) from *pos (start at
 * 0): 1 with its text in el (reset first) and *isnull, 0 at the end. */
int rl_array_next(const char *p, size_t len, size_t *pos, rl_buf *el, bool *isnull);
/* The element type of an array, or of int2vector / oidvector (PostgreSQL
 * subscripts them and passes them where a function takes anyarray); 0 for
 * other types. */
uint32_t rl_elem_oid_of(uint32_t oid);
/* rl_array_next over an array's or a vector's text ("1 2 3": blank
 * separated, never NULL); arr is not NULL. */
int rl_elem_next(const rl_value *arr, size_t *pos, rl_buf *el, bool *isnull);

/* The oid space of the lake's own relations (sql_pgcatalog.c hands them
 * out): a relation's pseudo-oid lies in [RL_REL_OID_BASE, RL_REL_OID_BASE +
 * RL_REL_OID_SPAN), and the composite row type of a table (pg_type's row
 * with typrelid = the table) is its oid + RL_ROWTYPE_OID_OFFSET. */
#define RL_REL_OID_BASE 2000000u
#define RL_REL_OID_SPAN 1000000000u
#define RL_ROWTYPE_OID_OFFSET 1000000000u
static inline uint32_t rl_rowtype_oid(uint32_t rel_oid)
{
    return rel_oid + RL_ROWTYPE_OID_OFFSET;
}
/* rl_colmeta.rowtype of a relation without a composite type (a
 * sequence: its whole-row reference is 42809). */
#define RL_ROWTYPE_NONE UINT32_MAX
/* Is oid a lake table's row type? */
static inline bool rl_oid_is_rowtype(uint32_t oid)
{
    return oid >= RL_ROWTYPE_OID_OFFSET + RL_REL_OID_BASE &&
           oid - (RL_ROWTYPE_OID_OFFSET + RL_REL_OID_BASE) < RL_REL_OID_SPAN;
}
/* A table's row type's array type (pg_type's _<table>): the last range
 * of oids left, a function of the table's oid as well; two tables may
 * share one (pg_type lists both). */
#define RL_ARRAYTYPE_OID_BASE 4002000000u
#define RL_ARRAYTYPE_OID_SPAN 290000000u
static inline uint32_t rl_rowtype_array_oid(uint32_t rowtype)
{
    return RL_ARRAYTYPE_OID_BASE +
           (rowtype - RL_ROWTYPE_OID_OFFSET - RL_REL_OID_BASE) % RL_ARRAYTYPE_OID_SPAN;
}
static inline bool rl_oid_is_rowtype_array(uint32_t oid)
{
    return oid >= RL_ARRAYTYPE_OID_BASE && oid - RL_ARRAYTYPE_OID_BASE < RL_ARRAYTYPE_OID_SPAN;
}
/* Is a value of type oid a record (the anonymous `record` or a table's
 * row type: the same representation, below)? */
static inline bool rl_oid_is_composite(uint32_t oid)
{
    return oid == RL_OID_RECORD || rl_oid_is_rowtype(oid);
}

/* Records (RL_OID_RECORD or a table's row type, rl_oid_is_composite: a row
 * of named, typed fields): v.s holds a header
 * "name:oid," per field and a 0x01 byte, then PostgreSQL's text form of the
 * row, "(1,\"a b\",)" (record_out's quoting; an empty field is NULL). Text
 * output shows the text form only. */
#define RL_RECORD_SEP '\x01'
/* Append the record of n fields (names[i], values fields[i]) to out. */
void rl_record_build(rl_buf *out, size_t n, const char *const *names, const rl_value *fields);
/* The text form of a record (after its header). */
const char *rl_record_text(const rl_value *rec, size_t *len);
/* Field `name` of a non-NULL record: true with its type, its text in
 * `text` (reset first) and *isnull; false when it has no such field. */
bool rl_record_field(const rl_value *rec, const char *name, uint32_t *oid, rl_buf *text,
                     bool *isnull);
/* The fields of a non-NULL record in order: start with pos {0, 0}; 1 with
 * the next field's name (name[0..nlen), not terminated), type, text (reset
 * first) and *isnull, 0 after the last. */
typedef struct rl_record_pos {
    size_t header, text;
} rl_record_pos;
int rl_record_next(const rl_value *rec, rl_record_pos *pos, const char **name, size_t *nlen,
                   uint32_t *oid, rl_buf *text, bool *isnull);
/* record_in's reading of p[0..len) as a row of n fields: "(a,"b c",)",
 * blanks allowed around the parentheses, a field with no text at all NULL,
 * quotes and backslashes as record_out writes them. NULL when it reads,
 * with field i's text in fields[i] (reset first) and isnull[i]; else the
 * DETAIL of its 22P02 "malformed record literal". */
const char *rl_record_parse(const char *p, size_t len, size_t n, rl_buf *fields, bool *isnull);
/* How many fields a non-NULL record has, and how many of them are NULL
 * (PostgreSQL's row IS NULL: all of them; IS NOT NULL: none). */
void rl_record_nulls(const rl_value *rec, size_t *nfields, size_t *nnulls);

#endif
