/*
 * sql_relation.h — relations (stored DuckLake and dynamic tables, session
 * temp tables, pg_catalog views) and their names' resolution
 * (sql_resolve.c), private to src/sql/.
 */
#ifndef ROCKLAKE_SQL_RELATION_H
#define ROCKLAKE_SQL_RELATION_H

#include <pg_query/pg_query.pb-c.h>

#include "sql/sql_exec.h"
#include "sql/sql_value.h"

typedef enum rl_rel_kind {
    RL_REL_STORED = 1,   /* a DuckLake table or dynamic table in the catalog */
    RL_REL_TEMP = 2,     /* session temporary table */
    RL_REL_VIRTUAL = 3,  /* pg_catalog / information_schema view */
    RL_REL_SEQUENCE = 4  /* a sequence: one row (last_value, log_cnt, is_called) */
} rl_rel_kind;

/* One default of a temporary table (sql_default.c owns them): pg_get_expr's
 * text, parsed at its first use (the parse lives as long as the default);
 * an identity column's 'a' / 'd'. sql_seq.c reads the texts (the defaults
 * that call a temporary sequence) and drops or rewrites them (DROP ...
 * CASCADE, RENAME). */
typedef struct rl_temp_default {
    char column[64];
    char *text;
    char *pretty; /* pg_get_expr's pretty text; NULL: the same as text */
    rl_parsed *parsed;
    const PgQuery__Node *expr;
    char identity;
    struct rl_temp_default *next;
} rl_temp_default;
/* A UNIQUE or PRIMARY KEY constraint of a temporary table: its index's
 * definition as a stored table's (sql_index.c makes it, names it and
 * checks rows against it: rl_index_temp_*), kept with the table. */
typedef struct rl_temp_key_hash rl_temp_key_hash; /* sql_index.c */
typedef struct rl_temp_key {
    char name[64];
    rl_index_def def;
    rl_temp_key_hash *hash; /* its entries' hashes, built on use (never copied) */
    struct rl_temp_key *next;
} rl_temp_key;
/* A CHECK constraint of a temporary table (sql_check.c owns them): its
 * name and pg_get_constraintdef's plain text, parsed at its first use. */
typedef struct rl_temp_check {
    char name[64];
    char *text;
    char *pretty; /* pg_get_constraintdef's pretty text; NULL: the same as text */
    rl_parsed *parsed;
    const PgQuery__Node *expr;
    bool not_valid;
    struct rl_temp_check *next;
} rl_temp_check;
typedef struct rl_temp_table {
    char name[64];
    rl_rowset *rows;      /* columns = the table's columns; each row's ctid in rows->src */
    size_t lines;         /* line pointers used, as a heap's: the next row version's
                           * ctid is rl_ctid_of_index(lines) (sql_dml.c) */
    rl_temp_default *defaults; /* its column DEFAULTs (sql_default.c owns them) */
    bool not_null[RL_MAX_COLUMNS]; /* per column of rows->cols (a primary key's too) */
    rl_temp_key *keys;    /* its UNIQUE / PRIMARY KEY constraints, the primary key first */
    rl_temp_check *checks; /* its CHECKs, in name order (sql_check.c) */
    size_t append_mark;   /* rl_ddl_temps_touch_append: its rows before the ... */
    bool append_marked;   /* ... implicit transaction's appends, which a rollback drops */
    uint64_t edits;       /* bumped by every change of rows but an append (a key's
                           * hash of them is rebuilt) */
    bool on_commit_drop;
    bool created_in_txn;  /* sql_ddl.c: dropped if the creating txn rolls back */
    struct rl_temp_table *next;
} rl_temp_table;

/* A temporary sequence (CREATE TEMP SEQUENCE, a temporary table's serial
 * or identity column): the session's, in pg_temp, its definition as the
 * catalog keeps a stored one's (def.id names its state, which sql_seq.c
 * keeps apart from the definitions: nextval and setval are never undone,
 * the definitions follow the transaction). sql_seq.c owns the list. */
typedef struct rl_temp_seq {
    char name[64];
    rl_seq_def def;
    struct rl_temp_seq *next;
} rl_temp_seq;

/* The session's temporary sequence `name`, NULL for none. */
rl_temp_seq *rl_temp_seq_find(const rl_session *s, const char *name);

typedef struct rl_relation {
    rl_rel_kind kind;
    char schema[64];
    char name[64];
    uint32_t oid;                /* stable pseudo-oid (pg_class.oid) */
    const rl_table_desc *desc;   /* STORED */
    rl_temp_table *temp;         /* TEMP */
    int virtual_id;              /* VIRTUAL: rl_pgcatalog_* id */
} rl_relation;

/* Every relation has a trailing hidden column "ctid" (RL_OID_TID) with
 * attnum -1, PostgreSQL's attnum for ctid: `*` expansion skips attnum < 0. */
#define RL_CTID_ATTNUM (-1)

/* Resolve a table name as PostgreSQL's search path would (pg_temp, then the
 * named schema or public, then pg_catalog). 42P01 if absent. */
int rl_relation_resolve(rl_exec *x, const PgQuery__RangeVar *rv, rl_relation *out);
int rl_relation_lookup(rl_exec *x, const char *schema, const char *name, rl_relation *out);

/* The columns of a stored or temporary table as this statement sees them
 * (a stored table's by the transaction's format): how many, and the
 * name, type and typmod (-1: none) of column i (from 0). */
size_t rl_relation_ncols(rl_exec *x, const rl_relation *rel);
void rl_relation_col(const rl_relation *rel, size_t i, const char **name, uint32_t *oid,
                     int32_t *typmod);

/* The table whose row type is oid (rl_rowtype_oid of its oid): one of the
 * session's temporary tables or a lake table. 1 (into out), 0 none, -1
 * error. */
int rl_relation_of_rowtype(rl_exec *x, uint32_t oid, rl_relation *out);

/* makeObjectName: name1_name2_label within NAMEDATALEN - 1 bytes, the
 * longer of name1 and name2 shortened first (the names PostgreSQL chooses
 * for indexes and constraints). */
void rl_object_name(const char *name1, const char *name2, const char *label, char *out);

#endif
