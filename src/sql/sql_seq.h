/*
 * sql_seq.h — sequences as PostgreSQL 15's SQL shows them (sql_seq.c):
 * CREATE / ALTER / DROP SEQUENCE, the functions nextval, currval, setval,
 * lastval and pg_get_serial_sequence, the row of SELECT * FROM a sequence.
 * The catalog keeps the definitions and the states (catalog.h,
 * "Sequences"); this layer owns the syntax, the option checks and each
 * session's currval / lastval and cached values.
 *
 * For a column DEFAULT (or anything else evaluating an expression):
 * rl_seq_nextval(x, oid, &v) is nextval(oid) as a call would do it.
 */
#ifndef ROCKLAKE_SQL_SEQ_H
#define ROCKLAKE_SQL_SEQ_H

#include <pg_query/pg_query.pb-c.h>

#include "sql/sql_cast.h"
#include "sql/sql_exec.h"
#include "sql/sql_relation.h"
#include "sql/sql_stmt.h"

/* The statements (their command tags sent). */
int rl_seq_create(rl_exec *x, const PgQuery__CreateSeqStmt *st);
int rl_seq_alter(rl_exec *x, const PgQuery__AlterSeqStmt *st);
int rl_seq_drop(rl_exec *x, const PgQuery__DropStmt *st);
/* ALTER SEQUENCE / ALTER TABLE ... RENAME TO of a sequence: `tag` the
 * command tag sent. */
int rl_seq_rename(rl_exec *x, const PgQuery__RenameStmt *st, const char *tag);

/* The sequence schema.name of a serial or identity column of the new
 * table schema.table (CREATE TABLE's smallserial / serial / bigserial,
 * GENERATED ... AS IDENTITY [(options)]): of the column's type (type_bytes
 * 2, 4, 8; 0 a column of another type: 22023 once the options are read),
 * with the identity's sequence options (PostgreSQL's checks),
 * OWNED BY the column; *oid its pg_class oid (nextval's argument). 0 or -1. */
int rl_seq_create_serial(rl_exec *x, const char *schema, const char *name, const char *table,
                         const char *column, uint8_t type_bytes, PgQuery__Node **options,
                         size_t noptions, uint32_t *oid);

/* ALTER SEQUENCE schema.name's options (the sequence of an identity
 * column: ALTER TABLE ... ALTER COLUMN ... SET / RESTART), with ALTER
 * SEQUENCE's checks, without its command tag. 0 or -1. */
int rl_seq_alter_owned(rl_exec *x, const char *schema, const char *name, PgQuery__Node **options,
                       size_t noptions);

/* DROP IDENTITY's drop of the identity's sequence schema.name (pg_temp: a
 * temporary one). 0 or -1. */
int rl_seq_drop_owned(rl_exec *x, const char *schema, const char *name);

/* The sequence OWNED BY schema.table.column (a serial's, an identity's)
 * into name: 1, 0 none, -1 error. */
int rl_seq_owned_by(rl_exec *x, const char *schema, const char *table, const char *column,
                    char name[64]);

/* 'name'::regclass, or with schema 'schema.name'::regclass, the names
 * quoted as identifiers where they need it and the whole as a string
 * literal (quotes doubled), appended to b: how a column default calls its
 * sequence. */
void rl_seq_regclass_literal(rl_buf *b, const char *schema, const char *name);

/* nextval of the sequence with pg_class oid `oid`: 0 with *out, or -1
 * with x's error (42P01, 42809, 2200H, 25006). Not undone by ROLLBACK. */
int rl_seq_nextval(rl_exec *x, uint32_t oid, int64_t *out, int loc);

/* The function table's implementations (sql_functab.inc). */
int rl_fn_nextval(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_currval(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_setval(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_lastval(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);
int rl_fn_get_serial_sequence(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc);

/* The one row of SELECT * FROM a sequence (last_value, log_cnt, is_called)
 * into vals[0..2]. */
int rl_seq_row(rl_exec *x, const char *schema, const char *name, rl_value vals[3]);

/* A table's DDL reaches the sequences it owns (OWNED BY): dropped with the
 * table or the owning column, following a rename of either. */
int rl_seq_table_changed(rl_exec *x, rl_txn *txn, const char *schema, const char *table,
                         const rl_table_change *ch);

/* The session's sequence caches freed (session end, DISCARD SEQUENCES). */
void rl_seq_session_free(rl_session *s);

/* Temporary sequences (CREATE TEMP SEQUENCE, CREATE SEQUENCE pg_temp.s,
 * a temporary table's serial or identity column): the session's, found
 * first by an unqualified name (rl_relation_resolve); their definitions
 * follow the transaction (a ROLLBACK, a ROLLBACK TO SAVEPOINT put them
 * back), their states do not (nextval, setval never undone), as stored
 * ones'. One OWNED BY a temporary table's column goes with the table or
 * the column. */
/* A savepoint's copy of the definitions (NULL out: none), its free and
 * its restore (ROLLBACK TO). 0, or -1 out of memory. */
int rl_seq_temps_copy(const rl_temp_seq *list, rl_temp_seq **out);
void rl_seq_temps_free(rl_temp_seq *list);
int rl_seq_temps_restore(rl_session *s, const rl_temp_seq *saved);
/* The transaction ended: a ROLLBACK puts the definitions back as the
 * transaction found them; the ones whose owner is gone go. */
void rl_seq_temps_end_transaction(rl_session *s, bool committed);
/* The sequences OWNED BY a temporary table's column that is gone (DROP
 * TABLE, DROP COLUMN, DISCARD TEMP) dropped. */
void rl_seq_temps_sweep(rl_session *s);
/* Before a transaction's first change of the temporary sequences (or of
 * the temporary tables, whose ROLLBACK puts both back as they were): a
 * copy of them for that ROLLBACK. 0, -1 out of memory. */
int rl_seq_temps_save(rl_session *s);
/* A temporary table renamed (ch->new_table) or its column renamed
 * (old_column -> new_column): the sequences it owns follow. */
void rl_seq_temp_table_changed(rl_session *s, const char *table, const rl_table_change *ch);
/* DISCARD TEMP / ALL: every temporary sequence dropped at once; session
 * end: the states too. */
void rl_seq_temps_discard(rl_session *s);
void rl_seq_temps_session_free(rl_session *s);

#endif
