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

typedef struct rl_temp_default rl_temp_default; /* sql_default.c */
typedef struct rl_temp_table {
    char name[64];
    rl_rowset *rows;      /* columns = the table's columns; each row's ctid in rows->src */
    size_t lines;         /* line pointers used, as a heap's: the next row version's
                           * ctid is rl_ctid_of_index(lines) (sql_dml.c) */
    rl_temp_default *defaults; /* its column DEFAULTs (sql_default.c owns them) */
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

/* Every relation has a trailing hidden column "ctid" (RL_OID_TID) with
 * attnum -1, PostgreSQL's attnum for ctid: `*` expansion skips attnum < 0. */
#define RL_CTID_ATTNUM (-1)

/* Resolve a table name as PostgreSQL's search path would (pg_temp, then the
 * named schema or public, then pg_catalog). 42P01 if absent. */
int rl_relation_resolve(rl_exec *x, const PgQuery__RangeVar *rv, rl_relation *out);
int rl_relation_lookup(rl_exec *x, const char *schema, const char *name, rl_relation *out);

/* makeObjectName: name1_name2_label within NAMEDATALEN - 1 bytes, the
 * longer of name1 and name2 shortened first (the names PostgreSQL chooses
 * for indexes and constraints). */
void rl_object_name(const char *name1, const char *name2, const char *label, char *out);

#endif
