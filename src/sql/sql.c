/*
 * sql.c — engines, sessions, parsing, statement dispatch, transactions,
 * settings and the extended query protocol.
 *
 * Owns the session's transaction state machine, which follows PostgreSQL:
 *  - outside BEGIN, the statements of one simple-query string (or of the
 *    extended-protocol messages up to Sync) form one implicit transaction,
 *    committed at the end and rolled back on error;
 *  - BEGIN opens a block; an error inside it fails the block (status 'E')
 *    and every later statement gets 25P02 until ROLLBACK (or COMMIT, which
 *    then rolls back); nothing of a failed transaction is ever written;
 *  - the catalog transaction (and so the read snapshot) starts at the first
 *    statement that touches the catalog, as REPEATABLE READ does
 *    (rl_exec_txn, sql_exec.c); it ends here.
 * Statement execution itself lives in sql_select/dml/ddl/copy.c.
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "sql/sql_advisory.h"
#include "sql/sql_absent.h"
#include "sql/sql_check.h"
#include "sql/sql_ctid.h"
#include "sql/sql_cursor.h"
#include "sql/sql_exec.h"
#include "sql/sql_expr.h"
#include "sql/sql_func.h"
#include "sql/sql_lakes.h"
#include "sql/sql_parse.h"
#include "sql/sql_pgcatalog.h"
#include "sql/sql_relation.h"
#include "sql/sql_scan.h"
#include "sql/sql_select.h"
#include "sql/sql_seq.h"
#include "sql/sql_settings.h"
#include "sql/sql_stmt.h"
#include "sql/sql_value.h"
#include "base/utf8.h"

#define RL_VERSION_STRING                                                                  \
    "PostgreSQL 15.18 (RockLake 0.1) on x86_64-pc-linux-gnu, compiled by gcc (Debian "    \
    "12.2.0-14+deb12u1) 12.2.0, 64-bit"

/* ---------------------------------------------------------------- engine */

rl_engine *rl_engine_new(rl_catalog *cat, const rl_engine_options *opts, rl_error *err)
{
    rl_engine *e = calloc(1, sizeof *e);
    if (!e) {
        rl_error_set(err, RL_SQLSTATE_INTERNAL_ERROR, "out of memory");
        return NULL;
    }
    e->cat = cat;
    snprintf(e->database, sizeof e->database, "%s",
             opts && opts->database ? opts->database : "rocklake");
    e->database_oid = rl_pgcatalog_database_oid_of(e->database);
    snprintf(e->version, sizeof e->version, "%s",
             opts && opts->server_version ? opts->server_version : RL_VERSION_STRING);
    if (opts && opts->schema_lakes)
        e->schema_lakes = *opts->schema_lakes;
    e->result_mem_limit = RL_RESULT_MEM_DEFAULT;
    /* tests make results past a few MB fail (tests/wire/test_hostile.py) */
    const char *mb = getenv("ROCKLAKE_TEST_RESULT_MEMORY_MB");
    if (mb && *mb && strtoull(mb, NULL, 10) > 0)
        e->result_mem_limit = (size_t)strtoull(mb, NULL, 10) << 20;
    if (opts && opts->result_memory)
        e->result_mem_limit = opts->result_memory;
    e->heap_order_limit =
        opts && opts->heap_order_limit ? opts->heap_order_limit : RL_HEAP_ORDER_DEFAULT;
    return e;
}

void rl_engine_free(rl_engine *e) { free(e); }
rl_catalog *rl_engine_catalog(rl_engine *e) { return e->cat; }

/* -------------------------------------------------------------- sessions */

struct rl_prepared {
    char name[64];
    char *sql;
    rl_parsed *parsed;          /* a reference; its tree is NULL for an empty query */
    size_t nparams;             /* as Parse declared, or the highest $n if that is more */
    uint32_t *param_oids;       /* nparams, as Parse declared; 0 = untyped */
    uint32_t *inferred_oids;    /* nparams: param_oids with each untyped one inferred
                                   (sql_params.c) */
    bool inferred;              /* inferred_oids is filled */
    rl_rowset *shape;           /* Describe result, cached */
    rl_prepared *next;
};

struct rl_portal {
    char name[64];
    rl_prepared *stmt;          /* borrowed; closing the statement closes its portals */
    rl_value *params;
    size_t nparams;
    rl_arena arena;
    int16_t *formats;
    size_t nformats;
    rl_rowset *result;          /* materialized at the first Execute of a SELECT */
    char tag[48];               /* result's CommandComplete when not "SELECT n" (RETURNING) */
    size_t sent;
    bool finished;
    rl_portal *next;
};

rl_session *rl_session_new(rl_engine *eng, const rl_session_info *info)
{
    rl_session *s = calloc(1, sizeof *s);
    if (!s)
        return NULL;
    s->eng = eng;
    s->index_fn = rl_index_key_values;
    s->lakes[0].eng = eng;
    s->nlakes = 1;
    snprintf(s->user, sizeof s->user, "%s", info && info->user ? info->user : "");
    snprintf(s->application, sizeof s->application, "%s",
             info && info->application_name ? info->application_name : "");
    snprintf(s->client, sizeof s->client, "%s",
             info && info->client_addr ? info->client_addr : "");
    s->read_only_role = info && info->read_only_role;
    if (info && info->port > 0)
        snprintf(s->own_port, sizeof s->own_port, "%d", info->port);
    if (info && info->max_connections > 0)
        snprintf(s->own_max_connections, sizeof s->own_max_connections, "%d",
                 info->max_connections);
    if (info && info->server_version)
        snprintf(s->own_server_version, sizeof s->own_server_version, "%s",
                 info->server_version);
    s->promote = info ? info->promote : NULL;
    s->promote_ctx = info ? info->promote_ctx : NULL;
    s->activity = info ? info->activity : NULL;
    if (info && info->nroles) {
        s->roles = calloc(info->nroles, sizeof *s->roles);
        if (!s->roles) {
            free(s);
            return NULL;
        }
        for (size_t i = 0; i < info->nroles; i++) {
            snprintf(s->roles[i].name, sizeof s->roles[i].name, "%s", info->roles[i].name);
            s->roles[i].read_only = info->roles[i].read_only;
        }
        s->nroles = info->nroles;
    }
    atomic_init(&s->cancel, false);
    atomic_init(&s->running, false);
    return s;
}

static void portal_free(rl_portal *p)
{
    rl_arena_free(&p->arena);
    rl_rowset_free(p->result);
    free(p);
}

static void portal_close(rl_session *s, const char *name)
{
    for (rl_portal **pp = &s->portals; *pp; pp = &(*pp)->next) {
        if (strcmp((*pp)->name, name) == 0) {
            rl_portal *dead = *pp;
            *pp = dead->next;
            portal_free(dead);
            return;
        }
    }
}

static void portals_of_statement_close(rl_session *s, rl_prepared *st)
{
    rl_portal **pp = &s->portals;
    while (*pp) {
        if ((*pp)->stmt == st) {
            rl_portal *dead = *pp;
            *pp = dead->next;
            portal_free(dead);
        } else {
            pp = &(*pp)->next;
        }
    }
}

static void prepared_free(rl_prepared *p)
{
    rl_parsed_release(p->parsed);
    rl_rowset_free(p->shape);
    free(p->sql);
    free(p->param_oids);
    free(p->inferred_oids);
    free(p);
}

static void prepared_close(rl_session *s, const char *name)
{
    for (rl_prepared **pp = &s->prepared; *pp; pp = &(*pp)->next) {
        if (strcmp((*pp)->name, name) == 0) {
            rl_prepared *dead = *pp;
            *pp = dead->next;
            portals_of_statement_close(s, dead);
            prepared_free(dead);
            return;
        }
    }
}

static void pending_clear(rl_session *s)
{
    rl_parsed_release(s->pending);
    s->pending = NULL;
    free(s->pending_sql);
    s->pending_sql = NULL;
    s->pending_next = 0;
}

/* Free the catalog transaction of every lake (nothing more is written). */
static void free_txns(rl_session *s)
{
    rl_lakes_save(s);
    for (size_t i = 0; i < s->nlakes; i++) {
        rl_txn_free(s->lakes[i].txn);
        s->lakes[i].txn = NULL;
    }
    s->txn = NULL;
    rl_pgcatalog_memo_free(s); /* it describes the transactions just ended */
}

/* ------------------------------------------------------------ savepoints */

/* A savepoint of the block: each lake's transaction as it was (NULL for a
 * lake without one then), the settings and the temporary tables. */
struct rl_savepoint {
    char name[64];
    rl_txn_savepoint *lake[RL_SESSION_LAKES];
    bool had_txn[RL_SESSION_LAKES];
    size_t nlakes;
    rl_setting *settings; /* the session's settings then (sql_settings.c) */
    rl_temp_table *temps; /* a copy of the session's temporary tables then */
    rl_temp_seq *temp_seqs; /* ... and of its temporary sequences' definitions */
    uint64_t number;      /* rl_session.savepoints_begun once this one began */
    rl_savepoint *prev;
};

static void savepoint_free(rl_savepoint *sp)
{
    for (size_t i = 0; i < sp->nlakes; i++)
        rl_txn_savepoint_free(sp->lake[i]);
    rl_settings_snapshot_free(sp->settings);
    rl_ddl_temps_free(sp->temps);
    rl_seq_temps_free(sp->temp_seqs);
    free(sp);
}

/* Drop the savepoints made after `keep` (all of them for NULL). */
static void savepoints_drop_after(rl_session *s, const rl_savepoint *keep)
{
    while (s->savepoints && s->savepoints != keep) {
        rl_savepoint *sp = s->savepoints;
        s->savepoints = sp->prev;
        savepoint_free(sp);
    }
}

static rl_savepoint *savepoint_find(rl_session *s, const char *name)
{
    for (rl_savepoint *sp = s->savepoints; sp; sp = sp->prev)
        if (strcmp(sp->name, name) == 0)
            return sp;
    return NULL;
}

static int savepoint_outside_block(rl_exec *x, const char *what)
{
    return rl_exec_error(x, RL_SQLSTATE_NO_ACTIVE_SQL_TRANSACTION, -1,
                         "%s can only be used in transaction blocks", what);
}

static int savepoint_missing(rl_exec *x, const char *name)
{
    return rl_exec_error(x, RL_SQLSTATE_INVALID_SAVEPOINT_SPECIFICATION, -1,
                         "savepoint \"%s\" does not exist", name);
}

static int exec_savepoint(rl_exec *x, const char *name)
{
    rl_session *s = x->s;
    if (!s->in_block)
        return savepoint_outside_block(x, "SAVEPOINT");
    rl_lakes_save(s);
    rl_savepoint *sp = calloc(1, sizeof *sp);
    if (!sp)
        return rl_exec_error(x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    snprintf(sp->name, sizeof sp->name, "%s", name);
    sp->nlakes = s->nlakes;
    bool copied;
    sp->settings = rl_settings_snapshot(s, &copied);
    if (copied && (rl_ddl_temps_copy(s->temps, &sp->temps) < 0 ||
                   rl_seq_temps_copy(s->temp_seqs, &sp->temp_seqs) < 0))
        copied = false;
    if (!copied) {
        savepoint_free(sp);
        return rl_exec_error(x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    }
    for (size_t i = 0; i < s->nlakes; i++) {
        sp->had_txn[i] = s->lakes[i].txn != NULL;
        if (sp->had_txn[i] && !(sp->lake[i] = rl_txn_save(s->lakes[i].txn, x->err))) {
            savepoint_free(sp);
            return -1;
        }
    }
    sp->number = ++s->savepoints_begun;
    sp->prev = s->savepoints;
    s->savepoints = sp;
    return rl_send_complete(x, "SAVEPOINT");
}

/* ROLLBACK TO SAVEPOINT: every lake's transaction and the temporary
 * tables as they were at the savepoint (a lake's transaction begun since
 * ends; a lake's store made since stays, empty, as after a ROLLBACK), the
 * block usable again, the savepoint kept and the later ones gone, as
 * PostgreSQL's. */
static int exec_rollback_to(rl_exec *x, const char *name)
{
    rl_session *s = x->s;
    if (!s->in_block)
        return savepoint_outside_block(x, "ROLLBACK TO SAVEPOINT");
    rl_savepoint *sp = savepoint_find(s, name);
    if (!sp)
        return savepoint_missing(x, name);
    if (rl_ddl_temps_restore(s, sp->temps) < 0 || rl_seq_temps_restore(s, sp->temp_seqs) < 0)
        return rl_exec_error(x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    savepoints_drop_after(s, sp);
    rl_lakes_save(s);
    for (size_t i = 0; i < s->nlakes; i++) {
        rl_txn *t = s->lakes[i].txn;
        if (i < sp->nlakes && sp->had_txn[i]) {
            assert(t); /* transactions stay while the block has savepoints */
            if (rl_txn_restore(t, sp->lake[i], x->err) < 0)
                return -1;
        } else if (t) { /* begun after the savepoint */
            rl_txn_free(t);
            s->lakes[i].txn = NULL;
        }
    }
    s->txn = s->lakes[s->cur].txn;
    rl_ctid_reset(s);
    rl_pgcatalog_memo_free(s);
    rl_settings_restore(s, sp->settings);
    rl_cursor_rollback_to(s, sp->number);
    s->failed = false;
    return rl_send_complete(x, "ROLLBACK");
}

static int exec_release(rl_exec *x, const char *name)
{
    rl_session *s = x->s;
    if (!s->in_block)
        return savepoint_outside_block(x, "RELEASE SAVEPOINT");
    rl_savepoint *sp = savepoint_find(s, name);
    if (!sp)
        return savepoint_missing(x, name);
    savepoints_drop_after(s, sp->prev);
    return rl_send_complete(x, "RELEASE");
}

static void finish_txn_quietly(rl_session *s, bool committed)
{
    rl_func_txid_end(s->txid, committed);
    s->txid = 0;
    savepoints_drop_after(s, NULL);
    free_txns(s);
    rl_ddl_end_transaction(s, committed);
    rl_ctid_reset(s);
    rl_settings_txn_end(s, committed);
    rl_advisory_xact_end(s);
    rl_cursor_txn_end(s, committed);
    s->in_block = false;
    s->failed = false;
    s->read_only_txn = false;
    s->read_only_fixed = false;
    s->isolation_set = false;
    s->snapshot_taken = false;
    s->implicit = false;
}

/* What DISCARD ALL resets, and what a closing session releases: temporary
 * tables, settings, portals and prepared statements. */
static void discard_session_state(rl_session *s)
{
    rl_advisory_unlock_all(s); /* DISCARD ALL's pg_advisory_unlock_all() */
    rl_ddl_free_temps(s);
    rl_seq_temps_session_free(s);
    rl_settings_free(s);
    rl_seq_session_free(s);
    rl_cursor_close_all(s);
    while (s->portals) {
        rl_portal *n = s->portals->next;
        portal_free(s->portals);
        s->portals = n;
    }
    while (s->prepared) {
        rl_prepared *n = s->prepared->next;
        prepared_free(s->prepared);
        s->prepared = n;
    }
}

bool rl_session_rebind(rl_session *s, rl_engine *eng)
{
    if (s->in_block || s->copy_in || s->pending_sql || rl_lakes_any_txn(s))
        return false;
    /* no transaction: no slot holds a txn, and nothing of the old lake's
     * catalog is referenced past this point (rowsets, parse trees and temp
     * tables are the session's own) */
    for (size_t i = 0; i < s->nlakes; i++)
        assert(!s->lakes[i].txn);
    s->eng = eng;
    s->txn = NULL;
    s->lakes[0] = (rl_session_lake){.eng = eng};
    s->nlakes = 1;
    s->cur = 0;
    rl_pgcatalog_memo_free(s);
    return true;
}

void rl_session_free(rl_session *s)
{
    if (!s)
        return;
    if (s->copy_in)
        rl_copy_in_abort(s);
    finish_txn_quietly(s, false);
    pending_clear(s);
    discard_session_state(s);
    rl_settings_free_placeholders(s);
    rl_parse_cache_free(s->parse_cache);
    rl_expr_free_subtypes(s);
    rl_expr_cache_free(&s->checks);
    rl_expr_cache_free(&s->defaults);
    rl_index_exprs_free(s);
    rl_pgcatalog_cache_free(s->pgc_tables);
    rl_regex_cache_free(s);
    rl_advisory_session_end(s);
    free(s->roles);
    free(s);
}

char rl_session_status(const rl_session *s)
{
    if (s->failed)
        return 'E';
    return s->in_block ? 'T' : 'I';
}

int64_t rl_session_timeout_ms(rl_session *s, const char *name)
{
    return rl_setting_ms(s, name);
}

const char *rl_session_setting(rl_session *s, const char *name, char *buf, size_t n)
{
    int idx = rl_setting_index(s, name);
    return idx < 0 ? NULL : rl_setting_shown(s, idx, buf, n);
}

void rl_session_settings_from_client(rl_session *s) { rl_settings_mark_client(s); }

bool rl_session_setting_user_settable(rl_session *s, const char *name)
{
    int idx = rl_setting_index(s, name);
    return idx >= 0 && rl_setting_user_settable(idx);
}

/* As in PostgreSQL, a cancel request only affects a statement that is
 * running; one that arrives while the session is idle is dropped. */
void rl_session_cancel(rl_session *s)
{
    if (atomic_load(&s->running))
        atomic_store(&s->cancel, true);
}

void rl_session_set_backend_pid(rl_session *s, int32_t pid) { s->backend_pid = pid; }

bool rl_session_cancel_pending(rl_session *s)
{
    return atomic_load(&s->running) && atomic_load(&s->cancel);
}

/* Mark a statement run, so cancels in between statements are dropped. */
static void run_begin(rl_session *s)
{
    atomic_store(&s->cancel, false);
    atomic_store(&s->running, true);
}

static void run_end(rl_session *s)
{
    atomic_store(&s->running, false);
    atomic_store(&s->cancel, false);
}

/* ----------------------------------------------------------- transactions */

static void note_commit(rl_session *s); /* at the end of this file */

/* End the current transaction. Returns -1 with err if a commit failed. */
static int finish_txn(rl_session *s, bool commit, rl_error *err)
{
    int rc = 0;
    /* a transaction that never touched the catalog commits trivially (its
     * temp tables still follow COMMIT semantics) */
    bool committed = commit && !s->failed;
    /* Lakes commit one after another, the database's own first: DuckLake
     * writes one metadata schema per transaction, apart from the CREATE
     * SCHEMA of a new lake's schema, which lands first (an empty schema if
     * the new lake's commit then fails). A failed commit rolls back the
     * lakes after it. */
    rl_lakes_save(s);
    if (committed && rl_privilege_commit(s, err) < 0) {
        committed = false;
        rc = -1;
    }
    for (size_t i = 0; i < s->nlakes && committed; i++) {
        if (s->lakes[i].txn) {
            rc = rl_txn_commit(s->lakes[i].txn, err);
            committed = rc == 0;
        }
    }
    if (committed)
        note_commit(s);
    finish_txn_quietly(s, committed);
    s->txn_start_us = 0;
    s->txid = 0;
    return rc;
}

/* The held CommandComplete of a simple query's last statement goes (its
 * commit held: send) or is dropped (the statement or its commit failed). */
static int release_complete(rl_session *s, const rl_sink *sink, bool send, rl_error *err)
{
    bool held = s->has_held_complete;
    s->hold_complete = s->has_held_complete = false;
    if (!send || !held)
        return 0;
    rl_exec x = {.s = s, .sink = sink, .err = err};
    return rl_send_held_complete(&x, s->held_complete);
}

/* A statement failed: inside a block the block is failed; otherwise the
 * implicit transaction is rolled back. Writes never land either way. */
static void statement_failed(rl_session *s)
{
    release_complete(s, NULL, false, NULL);
    if (s->in_block && s->savepoints) { /* ROLLBACK TO may want them back */
        s->failed = true;
        return;
    }
    if (s->in_block) {
        free_txns(s);
        rl_ddl_end_transaction(s, false);
        rl_ctid_reset(s);
        s->failed = true;
    } else {
        finish_txn(s, false, NULL);
    }
}

static const char *defelem_string(const PgQuery__DefElem *d)
{
    if (!d->arg || d->arg->node_case != PG_QUERY__NODE__NODE_A_CONST)
        return NULL;
    const PgQuery__AConst *c = rl_const(d->arg->a_const);
    if (c->val_case == PG_QUERY__A__CONST__VAL_SVAL)
        return c->sval->sval;
    return NULL;
}

static bool defelem_true(const PgQuery__DefElem *d)
{
    if (!d->arg || d->arg->node_case != PG_QUERY__NODE__NODE_A_CONST)
        return true;
    const PgQuery__AConst *c = rl_const(d->arg->a_const);
    if (c->val_case == PG_QUERY__A__CONST__VAL_IVAL)
        return c->ival->ival != 0;
    if (c->val_case == PG_QUERY__A__CONST__VAL_BOOLVAL)
        return c->boolval->boolval;
    return true;
}

static int apply_transaction_options(rl_exec *x, size_t n, PgQuery__Node **opts)
{
    rl_session *s = x->s;
    for (size_t i = 0; i < n; i++) {
        if (opts[i]->node_case != PG_QUERY__NODE__NODE_DEF_ELEM)
            continue;
        const PgQuery__DefElem *d = opts[i]->def_elem;
        if (strcmp(d->defname, "transaction_read_only") == 0 &&
            rl_settings_txn_read_only(x, defelem_true(d)) < 0)
            return -1;
        const char *level = strcmp(d->defname, "transaction_isolation") == 0
                                ? defelem_string(d)
                                : NULL;
        if (level) {
            s->isolation = rl_isolation_of(level);
            s->isolation_set = true;
        }
    }
    return 0;
}

static int send_notice(rl_exec *x, const char *severity_state, const char *msg)
{
    if (!x->sink || !x->sink->notice)
        return 0;
    rl_error n;
    memset(&n, 0, sizeof n);
    snprintf(n.sqlstate, sizeof n.sqlstate, "%s", severity_state);
    snprintf(n.message, sizeof n.message, "%s", msg);
    return x->sink->notice(x->sink->ctx, &n);
}

static int exec_transaction(rl_exec *x, const PgQuery__TransactionStmt *st)
{
    rl_session *s = x->s;
    switch (st->kind) {
    case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_BEGIN:
    case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_START:
        if (s->in_block) {
            send_notice(x, RL_SQLSTATE_ACTIVE_SQL_TRANSACTION,
                        "there is already a transaction in progress");
        } else {
            s->in_block = true;
            s->implicit = false;
        }
        if (apply_transaction_options(x, st->n_options, st->options) < 0)
            return -1;
        return rl_send_complete(x, "BEGIN");
    case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_COMMIT: {
        if (!s->in_block && !rl_lakes_any_txn(s)) {
            send_notice(x, RL_SQLSTATE_NO_ACTIVE_SQL_TRANSACTION,
                        "there is no transaction in progress");
            return rl_send_complete(x, "COMMIT");
        }
        bool was_failed = s->failed;
        if (finish_txn(s, true, x->err) < 0)
            return -1;
        return rl_send_complete(x, was_failed ? "ROLLBACK" : "COMMIT");
    }
    case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_ROLLBACK:
        if (!s->in_block && !rl_lakes_any_txn(s))
            send_notice(x, RL_SQLSTATE_NO_ACTIVE_SQL_TRANSACTION,
                        "there is no transaction in progress");
        finish_txn(s, false, NULL);
        return rl_send_complete(x, "ROLLBACK");
    case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_SAVEPOINT:
        return exec_savepoint(x, st->savepoint_name ? st->savepoint_name : "");
    case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_ROLLBACK_TO:
        return exec_rollback_to(x, st->savepoint_name ? st->savepoint_name : "");
    case PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_RELEASE:
        return exec_release(x, st->savepoint_name ? st->savepoint_name : "");
    default:
        return rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                             "RockLake does not support two-phase commit");
    }
}

/* ------------------------------------------------------------ LOCK TABLE */

/* LOCK TABLE t, ... IN <any> MODE (ducklakepy's cleanup sends it): checked
 * as PostgreSQL checks it (a transaction block, 25P01; each table exists,
 * 42P01), then nothing to take. RockLake's commits are serialized and each
 * checks what it read and wrote against every commit since its snapshot,
 * so a writer that would have waited for the lock in PostgreSQL commits
 * first or gets the conflict error at its COMMIT instead (the outcomes
 * docs/sql-support.md lists). */
/* A utility statement's name lookup failed: PostgreSQL's has no parse
 * state, so its error (42P01 ...) has no position. */
static int utility_lookup_failed(rl_exec *x)
{
    if (x->err)
        x->err->position = 0;
    return -1;
}

static int exec_lock(rl_exec *x, const PgQuery__LockStmt *st)
{
    /* a simple query of several statements runs as one implicit block */
    const PgQuery__ParseResult *query = x->simple_query && x->s->pending
                                            ? rl_parsed_tree(x->s->pending) : NULL;
    if (!x->s->in_block && !(query && query->n_stmts > 1))
        return rl_exec_error(x, RL_SQLSTATE_NO_ACTIVE_SQL_TRANSACTION, -1,
                             "LOCK TABLE can only be used in transaction blocks");
    for (size_t i = 0; i < st->n_relations; i++) {
        const PgQuery__Node *r = st->relations[i];
        rl_relation rel;
        if (r->node_case != PG_QUERY__NODE__NODE_RANGE_VAR)
            return rl_exec_error(x, RL_SQLSTATE_SYNTAX_ERROR, -1, "malformed LOCK");
        if (rl_relation_resolve(x, r->range_var, &rel) < 0)
            return utility_lookup_failed(x);
        /* beyond ACCESS SHARE (1), a lock needs a right to change the table */
        if (st->mode > 1 && rl_privilege_table_write(x, &rel) < 0)
            return -1;
    }
    return rl_send_complete(x, "LOCK TABLE");
}

/* ----------------------------------------------------- VACUUM, ANALYZE */

/* VACUUM and ANALYZE (what an operator types at psql): checked as
 * PostgreSQL checks them (VACUUM outside any transaction block, 25001; the
 * tables and columns named exist), then nothing to do: an LSM store has no
 * dead tuples to reclaim (its compaction runs on its own), and RockLake
 * plans no query from statistics. */
static int exec_vacuum(rl_exec *x, const PgQuery__VacuumStmt *st)
{
    const char *what = st->is_vacuumcmd ? "VACUUM" : "ANALYZE";
    if (st->is_vacuumcmd && rl_exec_outside_block(x, "VACUUM") < 0)
        return -1;
    for (size_t i = 0; i < st->n_rels; i++) {
        const PgQuery__Node *r = st->rels[i];
        if (r->node_case != PG_QUERY__NODE__NODE_VACUUM_RELATION || !r->vacuum_relation->relation)
            continue;
        const PgQuery__VacuumRelation *vr = r->vacuum_relation;
        rl_relation rel;
        if (rl_relation_resolve(x, vr->relation, &rel) < 0)
            return utility_lookup_failed(x);
        rl_rowset *shape = vr->n_va_cols ? rl_relation_shape(x, &rel, rel.name) : NULL;
        if (vr->n_va_cols && !shape)
            return -1;
        for (size_t c = 0; c < vr->n_va_cols; c++) {
            const char *col = rl_node_string(vr->va_cols[c]);
            bool found = false;
            for (size_t k = 0; col && k < shape->ncols && !found; k++)
                found = strcmp(shape->cols[k].name, col) == 0;
            if (!found) {
                rl_rowset_free(shape);
                return rl_exec_error(x, RL_SQLSTATE_UNDEFINED_COLUMN, -1,
                                     "column \"%s\" of relation \"%s\" does not exist",
                                     col ? col : "", rel.name);
            }
        }
        rl_rowset_free(shape);
    }
    return rl_send_complete(x, what);
}

/* -------------------------------------------------------------- SET, SHOW */

static int const_text(const PgQuery__Node *n, char *out, size_t len)
{
    /* SET TIME ZONE INTERVAL '...' [HOUR TO MINUTE]: "INTERVAL '...'", the
     * form PostgreSQL's check_timezone reads (sql_settings.c) */
    if (n->node_case == PG_QUERY__NODE__NODE_TYPE_CAST && n->type_cast->arg &&
        n->type_cast->arg->node_case == PG_QUERY__NODE__NODE_A_CONST &&
        rl_const(n->type_cast->arg->a_const)->val_case == PG_QUERY__A__CONST__VAL_SVAL &&
        n->type_cast->type_name && n->type_cast->type_name->n_names > 0 &&
        strcmp(rl_node_string(n->type_cast->type_name
                                  ->names[n->type_cast->type_name->n_names - 1]) ?: "",
               "interval") == 0) {
        snprintf(out, len, "INTERVAL '%s'", rl_const(n->type_cast->arg->a_const)->sval->sval);
        return 0;
    }
    if (n->node_case != PG_QUERY__NODE__NODE_A_CONST)
        return -1;
    const PgQuery__AConst *c = rl_const(n->a_const);
    switch (c->val_case) {
    case PG_QUERY__A__CONST__VAL_SVAL:
        snprintf(out, len, "%s", c->sval->sval);
        return 0;
    case PG_QUERY__A__CONST__VAL_IVAL:
        snprintf(out, len, "%d", c->ival->ival);
        return 0;
    case PG_QUERY__A__CONST__VAL_FVAL:
        snprintf(out, len, "%s", c->fval->fval);
        return 0;
    case PG_QUERY__A__CONST__VAL_BOOLVAL:
        snprintf(out, len, "%s", c->boolval->boolval ? "on" : "off");
        return 0;
    default:
        return -1;
    }
}

static bool sets_isolation(size_t n, PgQuery__Node **opts)
{
    for (size_t i = 0; i < n; i++)
        if (opts[i]->node_case == PG_QUERY__NODE__NODE_DEF_ELEM &&
            strcmp(opts[i]->def_elem->defname, "transaction_isolation") == 0)
            return true;
    return false;
}

/* SET TRANSACTION ...: this transaction's options, the isolation level only
 * before its first query (25001), outside a block a warning and no effect;
 * SET SESSION CHARACTERISTICS AS TRANSACTION ...: the session's defaults. */
static int exec_set_transaction(rl_exec *x, const PgQuery__VariableSetStmt *st)
{
    rl_session *s = x->s;
    bool session = st->name && strcmp(st->name, "SESSION CHARACTERISTICS") == 0;
    if (session) {
        for (size_t i = 0; i < st->n_args; i++) {
            if (st->args[i]->node_case != PG_QUERY__NODE__NODE_DEF_ELEM)
                continue;
            const PgQuery__DefElem *d = st->args[i]->def_elem;
            const char *v = strcmp(d->defname, "transaction_isolation") == 0 ? defelem_string(d)
                            : strcmp(d->defname, "transaction_read_only") == 0
                                ? (defelem_true(d) ? "on" : "off")
                                : NULL;
            const char *target = strcmp(d->defname, "transaction_isolation") == 0
                                     ? "default_transaction_isolation"
                                     : "default_transaction_read_only";
            if (v && rl_setting_assign(x, rl_setting_index(s, target), v, false) < 0)
                return -1;
        }
        return rl_send_complete(x, "SET");
    }
    if (!s->in_block) {
        send_notice(x, RL_SQLSTATE_NO_ACTIVE_SQL_TRANSACTION,
                    "SET TRANSACTION can only be used in transaction blocks");
        return rl_send_complete(x, "SET");
    }
    if (sets_isolation(st->n_args, st->args) && (s->snapshot_taken || rl_lakes_any_txn(s)))
        return rl_exec_error(x, RL_SQLSTATE_ACTIVE_SQL_TRANSACTION, -1,
                             "SET TRANSACTION ISOLATION LEVEL must be called before any query");
    if (apply_transaction_options(x, st->n_args, st->args) < 0)
        return -1;
    return rl_send_complete(x, "SET");
}

static int exec_set(rl_exec *x, const PgQuery__VariableSetStmt *st)
{
    switch (st->kind) {
    case PG_QUERY__VARIABLE_SET_KIND__VAR_RESET_ALL:
        if (rl_settings_reset_all(x) < 0)
            return -1;
        return rl_send_complete(x, "RESET");
    case PG_QUERY__VARIABLE_SET_KIND__VAR_SET_MULTI:
        return exec_set_transaction(x, st);
    default:
        break;
    }
    int list = rl_setting_takes_list(x->s, st->name);
    if (st->n_args > 1 && !list)
        return rl_exec_error(x, RL_SQLSTATE_INVALID_PARAMETER_VALUE, -1,
                             "SET %s takes only one argument", st->name);
    int idx = rl_setting_lookup_for_set(x, st->name);
    if (idx < 0)
        return -1;
    if (st->kind == PG_QUERY__VARIABLE_SET_KIND__VAR_RESET ||
        st->kind == PG_QUERY__VARIABLE_SET_KIND__VAR_SET_DEFAULT) {
        if (rl_setting_reset_named(x, idx, st->name) < 0)
            return -1;
        return rl_send_complete(x, st->kind == PG_QUERY__VARIABLE_SET_KIND__VAR_RESET ? "RESET"
                                                                                      : "SET");
    }
    char value[256] = "", part[128];
    for (size_t i = 0; i < st->n_args; i++) {
        if (const_text(st->args[i], part, sizeof part) < 0)
            return rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                                 "RockLake accepts only constant values in SET");
        if (list == 2 && st->args[i]->node_case == PG_QUERY__NODE__NODE_A_CONST &&
            rl_const(st->args[i]->a_const)->val_case == PG_QUERY__A__CONST__VAL_SVAL) {
            char quoted[sizeof part];
            rl_quote_ident(part, quoted, sizeof quoted); /* search_path = "My Schema" */
            snprintf(part, sizeof part, "%s", quoted);
        }
        size_t used = strlen(value);
        snprintf(value + used, sizeof value - used, "%s%s", i ? ", " : "", part);
    }
    if (rl_setting_assign_named(x, idx, st->name, value, st->is_local) < 0)
        return -1;
    return rl_send_complete(x, "SET");
}

static int send_text_rows(rl_exec *x, const char **names, size_t ncols, const char *const *vals,
                          size_t nrows, const char *tag)
{
    const rl_sink *k = x->sink;
    rl_col_info cols[4];
    memset(cols, 0, sizeof cols);
    for (size_t i = 0; i < ncols; i++) {
        snprintf(cols[i].name, sizeof cols[i].name, "%s", names[i]);
        cols[i].type_oid = RL_OID_TEXT;
        cols[i].typlen = -1;
        cols[i].typmod = -1;
    }
    if (k && k->row_description && k->row_description(k->ctx, ncols, cols) < 0)
        return rl_exec_error(x, RL_SQLSTATE_CONNECTION_FAILURE, -1,
                             "the client connection was lost");
    for (size_t r = 0; r < nrows; r++) {
        rl_value v[4];
        memset(v, 0, sizeof v);
        for (size_t i = 0; i < ncols; i++) {
            v[i].oid = RL_OID_TEXT;
            v[i].typmod = -1;
            v[i].d.v.s.p = (const uint8_t *)vals[r * ncols + i];
            v[i].d.v.s.len = strlen(vals[r * ncols + i]);
        }
        if (k && k->data_row && k->data_row(k->ctx, ncols, v) < 0)
            return rl_exec_error(x, RL_SQLSTATE_CONNECTION_FAILURE, -1,
                                 "the client connection was lost");
    }
    return rl_send_complete(x, tag);
}

static int exec_show(rl_exec *x, const PgQuery__VariableShowStmt *st)
{
    if (strcasecmp(st->name, "all") == 0) {
        const char *names[3] = {"name", "setting", "description"};
        size_t n = rl_setting_count(), rows = 0;
        const char **vals = calloc(n * 3 + 1, sizeof *vals);
        char(*shown)[64] = calloc(n + 1, sizeof *shown);
        int rc = -1;
        if (!vals || !shown) {
            rl_exec_error(x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
        } else {
            /* what pg_settings lists, as SHOW shows it, with its short_desc */
            for (size_t i = 0; i < n; i++) {
                rl_setting_info info;
                if (!rl_setting_row(x->s, i, &info, shown[rows], sizeof shown[rows]))
                    continue;
                vals[rows * 3] = info.name;
                vals[rows * 3 + 1] = info.shown;
                vals[rows * 3 + 2] = info.short_desc;
                rows++;
            }
            rc = send_text_rows(x, names, 3, vals, rows, "SHOW");
        }
        free(vals);
        free(shown);
        return rc;
    }
    int idx = rl_setting_lookup_for_show(x, st->name, false);
    if (idx < 0)
        return -1;
    const char *name = rl_setting_name(x->s, idx);
    char shown[64];
    const char *val = rl_setting_shown(x->s, idx, shown, sizeof shown);
    return send_text_rows(x, &name, 1, &val, 1, "SHOW");
}

static int exec_discard(rl_exec *x, const PgQuery__DiscardStmt *st)
{
    rl_session *s = x->s;
    /* RockLake caches no plans: prepared statements are planned at each run */
    if (st->target == PG_QUERY__DISCARD_MODE__DISCARD_PLANS)
        return rl_send_complete(x, "DISCARD PLANS");
    /* currval / lastval and cached values forgotten; also in a block */
    if (st->target == PG_QUERY__DISCARD_MODE__DISCARD_SEQUENCES) {
        rl_seq_session_free(s);
        return rl_send_complete(x, "DISCARD SEQUENCES");
    }
    /* the temporary tables dropped, as DROP TABLE drops one (at once) */
    if (st->target == PG_QUERY__DISCARD_MODE__DISCARD_TEMP) {
        rl_ddl_free_temps(s);
        rl_seq_temps_discard(s);
        return rl_send_complete(x, "DISCARD TEMP");
    }
    if (rl_exec_outside_block(x, "DISCARD ALL") < 0)
        return -1;
    assert(st->target == PG_QUERY__DISCARD_MODE__DISCARD_ALL);
    discard_session_state(s);
    return rl_send_complete(x, "DISCARD ALL");
}

/* LISTEN / UNLISTEN / NOTIFY: accepted with PostgreSQL's checks and tags
 * (connection poolers and drivers send them); RockLake delivers no
 * notifications, so a listener never receives one (docs/sql-support.md). */
static int exec_notify(rl_exec *x, const PgQuery__NotifyStmt *st)
{
    /* PostgreSQL's limit: the payload must be shorter than NOTIFY_PAYLOAD_MAX_LENGTH */
    if (st->payload && strlen(st->payload) >= 8000)
        return rl_exec_error(x, RL_SQLSTATE_INVALID_PARAMETER_VALUE, -1, "payload string too long");
    return rl_send_complete(x, "NOTIFY");
}

static rl_prepared *prepared_find(rl_session *s, const char *name);

/* DEALLOCATE [PREPARE] name | ALL: what drivers send to drop their named
 * statements (psycopg does after a prepared COMMIT/ROLLBACK). */
static int exec_deallocate(rl_exec *x, const PgQuery__DeallocateStmt *st)
{
    rl_session *s = x->s;
    if (!st->name || !st->name[0]) {
        while (s->prepared)
            prepared_close(s, s->prepared->name);
        return rl_send_complete(x, "DEALLOCATE ALL");
    }
    if (!prepared_find(s, st->name))
        return rl_exec_error(x, RL_SQLSTATE_INVALID_SQL_STATEMENT_NAME, -1,
                             "prepared statement \"%s\" does not exist",
                             st->name);
    prepared_close(s, st->name);
    return rl_send_complete(x, "DEALLOCATE");
}

/* ---------------------------------------------------- PREPARE / EXECUTE */

static const PgQuery__Node *prepared_stmt(const rl_prepared *p);
static int prepared_param_types(rl_exec *x, rl_prepared *p);
static rl_exec_status run_statement(rl_exec *x, const PgQuery__Node *n);
static int describe_prepared(rl_exec *x, rl_prepared *p, rl_describe *out);

/* The running statement's own text: one statement of a Simple Query's
 * string, or the whole text of an extended-protocol statement. */
static char *statement_text(rl_exec *x, size_t *offset)
{
    const char *sql = x->sql ? x->sql : "";
    size_t off = 0, len = strlen(sql);
    const PgQuery__ParseResult *tree = x->simple_query && x->s->pending
                                           ? rl_parsed_tree(x->s->pending)
                                           : NULL;
    if (tree && x->stmt_index < tree->n_stmts) {
        const PgQuery__RawStmt *raw = tree->stmts[x->stmt_index];
        off = raw->stmt_location > 0 && (size_t)raw->stmt_location <= len
                  ? (size_t)raw->stmt_location
                  : 0;
        if (raw->stmt_len > 0 && off + (size_t)raw->stmt_len <= len)
            len = off + (size_t)raw->stmt_len;
    }
    *offset = off;
    return strndup(sql + off, len - off);
}

/* Where the statement of `PREPARE name [(types)] AS statement` begins in its
 * text: after the first AS keyword outside parentheses (a type name never
 * holds one; a quoted "as" is an identifier, not the keyword). -1 if none. */
static long prepared_body_offset(const char *text)
{
    PgQueryScanResult scan = pg_query_scan(text);
    long at = -1;
    if (!scan.error) {
        PgQuery__ScanResult *r = pg_query__scan_result__unpack(NULL, scan.pbuf.len,
                                                               (const uint8_t *)scan.pbuf.data);
        int depth = 0;
        for (size_t i = 0; r && i < r->n_tokens && at < 0; i++) {
            const PgQuery__ScanToken *t = r->tokens[i];
            if (t->token == PG_QUERY__TOKEN__ASCII_40)
                depth++;
            else if (t->token == PG_QUERY__TOKEN__ASCII_41)
                depth--;
            else if (t->token == PG_QUERY__TOKEN__AS && depth == 0)
                at = t->end;
        }
        if (r)
            pg_query__scan_result__free_unpacked(r, NULL);
    }
    pg_query_free_scan_result(scan);
    return at;
}

/* PREPARE name [(type, ...)] AS statement: the statement is prepared under
 * `name` exactly as a Parse message would prepare it (one namespace with
 * the protocol's named statements, as in PostgreSQL). */
/* An error positioned in a text that starts `bytes` into x->sql: moved to
 * its place in x->sql (positions count characters). */
static void shift_position(rl_exec *x, size_t bytes)
{
    if (!x->err || x->err->position <= 0 || !x->sql)
        return;
    int chars = 0;
    for (size_t i = 0; i < bytes && x->sql[i]; i++)
        chars += ((unsigned char)x->sql[i] & 0xC0) != 0x80;
    x->err->position += chars;
}

static int exec_prepare(rl_exec *x, const PgQuery__PrepareStmt *st)
{
    if (st->n_argtypes > RL_MAX_PARAMS)
        return rl_exec_error(x, RL_SQLSTATE_TOO_MANY_ARGUMENTS, -1,
                             "too many parameters for a prepared statement");
    uint32_t *oids = calloc(st->n_argtypes + 1, sizeof *oids);
    size_t at = 0; /* where the PREPARE begins in x->sql */
    char *text = statement_text(x, &at);
    int rc = -1;
    if (!oids || !text) {
        rl_exec_error(x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
        goto out;
    }
    for (size_t i = 0; i < st->n_argtypes; i++) {
        int32_t typmod;
        if (st->argtypes[i]->node_case != PG_QUERY__NODE__NODE_TYPE_NAME ||
            rl_type_from_typename(x, st->argtypes[i]->type_name, &oids[i], &typmod) < 0)
            goto out;
    }
    long body = prepared_body_offset(text);
    if (body < 0) {
        rl_exec_error(x, RL_SQLSTATE_SYNTAX_ERROR, -1, "syntax error in PREPARE");
        goto out;
    }
    if (!st->name || !st->name[0]) {
        rl_exec_error(x, RL_SQLSTATE_INVALID_PSTATEMENT_DEFINITION, -1,
                      "invalid statement name: must not be empty");
        goto out;
    }
    /* the statement text as a Parse message would carry it; its errors'
     * positions are in that text, PostgreSQL's in the whole query string */
    if (rl_session_parse(x->s, st->name, text + body, st->n_argtypes, oids, x->err) < 0) {
        shift_position(x, at + (size_t)body);
        goto out;
    }
    /* PostgreSQL analyzes the statement now: a query of a missing relation
     * or column fails at PREPARE, not at its first EXECUTE */
    rl_describe shape;
    if (describe_prepared(x, prepared_find(x->s, st->name), &shape) < 0) {
        prepared_close(x->s, st->name);
        shift_position(x, at + (size_t)body);
        goto out;
    }
    rc = rl_send_complete(x, "PREPARE");
out:
    free(oids);
    free(text);
    return rc;
}

/* EXECUTE name [(argument, ...)]: the arguments are evaluated, coerced to
 * the parameter types as an assignment would be, and the prepared statement
 * runs with them; its own command tag ends it. */
static int exec_execute(rl_exec *x, const PgQuery__ExecuteStmt *st)
{
    rl_prepared *p = prepared_find(x->s, st->name ? st->name : "");
    if (!p || !st->name || !st->name[0])
        return rl_exec_error(x, RL_SQLSTATE_INVALID_SQL_STATEMENT_NAME, -1,
                             "prepared statement \"%s\" does not exist",
                             st->name ? st->name : "");
    /* as PostgreSQL's ExecuteQuery: a statement without parameters ignores
     * (and does not evaluate) any arguments it is given */
    if (p->nparams > 0 && st->n_params != p->nparams) {
        rl_exec_error(x, RL_SQLSTATE_SYNTAX_ERROR, -1,
                      "wrong number of parameters for prepared statement \"%s\"", p->name);
        rl_error_detail(x->err, "Expected %zu parameters but got %zu.", p->nparams,
                        st->n_params);
        return -1;
    }
    if (prepared_param_types(x, p) < 0)
        return -1;
    const PgQuery__Node *n = prepared_stmt(p);
    if (!n)
        return rl_send_complete(x, "EMPTY");
    rl_arena arena = {0};
    rl_value *vals = rl_arena_alloc(&arena, (p->nparams + 1) * sizeof *vals);
    rl_expr_ctx c = {.x = x, .arena = &arena};
    int rc = vals ? 0 : rl_exec_error(x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    for (size_t i = 0; rc == 0 && i < p->nparams; i++) {
        rl_value v;
        assert(i < st->n_params);
        uint32_t want = p->inferred_oids[i] ? p->inferred_oids[i] : RL_OID_TEXT;
        rc = rl_expr_eval(&c, st->params[i], &v);
        if (rc == 0 && v.oid != want && !(v.d.isnull && v.oid == RL_OID_UNKNOWN))
            rc = rl_value_coerce(&c, &v, want, -1, false, &vals[i],
                                 rl_node_location(st->params[i]));
        else if (rc == 0)
            vals[i] = v, vals[i].oid = want;
    }
    if (rc == 0) {
        rl_parsed *held = rl_parsed_ref(p->parsed);
        rl_exec inner = {.s = x->s, .sink = x->sink, .err = x->err, .sql = p->sql,
                         .params = vals, .nparams = p->nparams};
        const rl_parsed *prev = rl_parsed_activate(held);
        rc = run_statement(&inner, n) == RL_EXEC_ERROR ? -1 : 0;
        rl_parsed_activate(prev);
        rl_parsed_release(held);
    }
    rl_arena_free(&arena);
    return rc;
}

/* --------------------------------------------------------------- EXPLAIN */

static int exec_explain(rl_exec *x, const PgQuery__ExplainStmt *st)
{
    bool analyze = false;
    for (size_t i = 0; i < st->n_options; i++)
        if (st->options[i]->node_case == PG_QUERY__NODE__NODE_DEF_ELEM &&
            strcmp(st->options[i]->def_elem->defname, "analyze") == 0)
            analyze = defelem_true(st->options[i]->def_elem);
    if (!st->query || st->query->node_case != PG_QUERY__NODE__NODE_SELECT_STMT)
        return rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                             "RockLake explains only SELECT statements");
    const PgQuery__SelectStmt *sel = st->query->select_stmt;
    rl_buf plan;
    rl_buf_init(&plan, 0);
    if (sel->n_from_clause == 1 && sel->from_clause[0]->node_case == PG_QUERY__NODE__NODE_RANGE_VAR) {
        rl_relation rel;
        if (rl_relation_resolve(x, sel->from_clause[0]->range_var, &rel) < 0) {
            rl_buf_free(&plan);
            return -1;
        }
        rl_relation_explain(x, &rel, sel->where_clause, &plan);
    } else {
        rl_buf_put_str(&plan, "Materialized query (joins, subqueries or no FROM)");
    }
    if (analyze) {
        uint64_t before = x->keys_read;
        rl_rowset *rs = rl_select_run(x, sel, NULL);
        if (!rs) {
            rl_buf_free(&plan);
            return -1;
        }
        rl_buf_printf(&plan, "\n  Rows: %zu\n  Keys read: %llu", rs->nrows,
                      (unsigned long long)(x->keys_read - before));
        rl_rowset_free(rs);
    }
    rl_buf_put_u8(&plan, 0);
    if (plan.failed) {
        rl_buf_free(&plan);
        return rl_exec_error(x, RL_SQLSTATE_INTERNAL_ERROR, -1, "out of memory");
    }
    /* one row per line, as PostgreSQL prints plans */
    const char *names[1] = {"QUERY PLAN"};
    const char *lines[64];
    size_t n = 0;
    char *save = NULL;
    for (char *l = strtok_r((char *)plan.data, "\n", &save); l && n < 64;
         l = strtok_r(NULL, "\n", &save))
        lines[n++] = l;
    int rc = send_text_rows(x, names, 1, lines, n, "EXPLAIN");
    rl_buf_free(&plan);
    return rc;
}

/* ------------------------------------------------------------- DECLARE */

static rl_portal *portal_find(rl_session *s, const char *name);

/* DECLARE: in a transaction block (BEGIN's, or the implicit one of a
 * multi-statement query string, as PostgreSQL's IsTransactionBlock), and
 * under a name no protocol-level portal has either (one namespace there). */
static int exec_declare(rl_exec *x, const PgQuery__DeclareCursorStmt *st)
{
    if (st->portalname && st->portalname[0] && portal_find(x->s, st->portalname))
        return rl_exec_error(x, RL_SQLSTATE_DUPLICATE_CURSOR, -1, "cursor \"%s\" already exists",
                             st->portalname);
    return rl_cursor_declare(x, st, rl_exec_in_block(x));
}

/* -------------------------------------------------------------- dispatch */

static bool statement_writes(const PgQuery__Node *n)
{
    switch (n->node_case) {
    case PG_QUERY__NODE__NODE_INSERT_STMT:
    case PG_QUERY__NODE__NODE_UPDATE_STMT:
    case PG_QUERY__NODE__NODE_DELETE_STMT:
    case PG_QUERY__NODE__NODE_CREATE_STMT:
    case PG_QUERY__NODE__NODE_CREATE_SCHEMA_STMT:
    case PG_QUERY__NODE__NODE_DROP_STMT:
    case PG_QUERY__NODE__NODE_ALTER_TABLE_STMT:
    case PG_QUERY__NODE__NODE_RENAME_STMT:
    case PG_QUERY__NODE__NODE_INDEX_STMT:
    case PG_QUERY__NODE__NODE_COMMENT_STMT:
    case PG_QUERY__NODE__NODE_CREATE_SEQ_STMT:
    case PG_QUERY__NODE__NODE_ALTER_SEQ_STMT:
    case PG_QUERY__NODE__NODE_TRUNCATE_STMT:
        return true;
    case PG_QUERY__NODE__NODE_COPY_STMT:
        return n->copy_stmt->is_from;
    default:
        return false;
    }
}

static const char *statement_name(const PgQuery__Node *n)
{
    switch (n->node_case) {
    case PG_QUERY__NODE__NODE_INSERT_STMT: return "INSERT";
    case PG_QUERY__NODE__NODE_UPDATE_STMT: return "UPDATE";
    case PG_QUERY__NODE__NODE_DELETE_STMT: return "DELETE";
    case PG_QUERY__NODE__NODE_CREATE_STMT: return "CREATE TABLE";
    case PG_QUERY__NODE__NODE_CREATE_SCHEMA_STMT: return "CREATE SCHEMA";
    case PG_QUERY__NODE__NODE_DROP_STMT:
        return n->drop_stmt->remove_type == PG_QUERY__OBJECT_TYPE__OBJECT_TABLE    ? "DROP TABLE"
               : n->drop_stmt->remove_type == PG_QUERY__OBJECT_TYPE__OBJECT_SCHEMA ? "DROP SCHEMA"
               : n->drop_stmt->remove_type == PG_QUERY__OBJECT_TYPE__OBJECT_INDEX  ? "DROP INDEX"
               : n->drop_stmt->remove_type == PG_QUERY__OBJECT_TYPE__OBJECT_SEQUENCE
                   ? "DROP SEQUENCE"
                   : "DROP";
    case PG_QUERY__NODE__NODE_CREATE_SEQ_STMT: return "CREATE SEQUENCE";
    case PG_QUERY__NODE__NODE_ALTER_SEQ_STMT: return "ALTER SEQUENCE";
    case PG_QUERY__NODE__NODE_ALTER_TABLE_STMT: return "ALTER TABLE";
    case PG_QUERY__NODE__NODE_RENAME_STMT:
        return n->rename_stmt->rename_type == PG_QUERY__OBJECT_TYPE__OBJECT_INDEX ? "ALTER INDEX"
               : n->rename_stmt->rename_type == PG_QUERY__OBJECT_TYPE__OBJECT_SEQUENCE
                   ? "ALTER SEQUENCE"
                   : "ALTER TABLE";
    case PG_QUERY__NODE__NODE_INDEX_STMT: return "CREATE INDEX";
    case PG_QUERY__NODE__NODE_COMMENT_STMT: return "COMMENT";
    case PG_QUERY__NODE__NODE_COPY_STMT: return "COPY FROM";
    case PG_QUERY__NODE__NODE_TRUNCATE_STMT: return "TRUNCATE TABLE";
    default: return "this statement";
    }
}

/* COMMIT, ROLLBACK [TO SAVEPOINT]: what a failed transaction block still accepts, by
 * simple query or through Parse/Bind/Execute alike. */
static bool is_transaction_exit(const PgQuery__Node *n)
{
    return n && n->node_case == PG_QUERY__NODE__NODE_TRANSACTION_STMT &&
           (n->transaction_stmt->kind == PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_COMMIT ||
            n->transaction_stmt->kind == PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_ROLLBACK ||
            n->transaction_stmt->kind == PG_QUERY__TRANSACTION_STMT_KIND__TRANS_STMT_ROLLBACK_TO);
}

/* The running transaction's isolation level: as BEGIN or SET TRANSACTION
 * chose it, else default_transaction_isolation. */
static int txn_isolation(rl_session *s)
{
    if (s->isolation_set)
        return s->isolation;
    char buf[64];
    const char *d = rl_setting_shown(s, rl_setting_index(s, "default_transaction_isolation"), buf,
                                     sizeof buf);
    return rl_isolation_of(d);
}

/* READ COMMITTED: a statement reads a snapshot taken as it starts. A
 * transaction's first statement takes one anyway (rl_exec_txn); each later
 * one moves every lake's transaction on to the latest commits
 * (rl_txn_refresh). REPEATABLE READ and SERIALIZABLE keep the first. */
static int statement_snapshot(rl_exec *x, const PgQuery__Node *n)
{
    rl_session *s = x->s;
    /* the statements PostgreSQL plans with a snapshot fix the level */
    switch (n->node_case) {
    case PG_QUERY__NODE__NODE_SELECT_STMT:
    case PG_QUERY__NODE__NODE_INSERT_STMT:
    case PG_QUERY__NODE__NODE_UPDATE_STMT:
    case PG_QUERY__NODE__NODE_DELETE_STMT:
    case PG_QUERY__NODE__NODE_COPY_STMT:
    case PG_QUERY__NODE__NODE_EXECUTE_STMT:
    case PG_QUERY__NODE__NODE_DECLARE_CURSOR_STMT:
    case PG_QUERY__NODE__NODE_EXPLAIN_STMT: s->snapshot_taken = true; break;
    default: break;
    }
    if (n->node_case == PG_QUERY__NODE__NODE_TRANSACTION_STMT ||
        txn_isolation(s) != RL_ISO_READ_COMMITTED || !rl_lakes_any_txn(s))
        return 0;
    rl_lakes_save(s);
    for (size_t i = 0; i < s->nlakes; i++)
        if (s->lakes[i].txn && rl_txn_refresh(s->lakes[i].txn, x->err) < 0)
            return -1;
    return 0;
}

/* A transaction is READ ONLY as default_transaction_read_only was when it
 * started (PostgreSQL's StartTransaction), unless BEGIN or SET TRANSACTION
 * says otherwise: taken at its first statement (BEGIN's options then apply
 * over it), kept until it ends (finish_txn_quietly). */
static void txn_read_only_fix(rl_session *s)
{
    if (s->read_only_fixed)
        return;
    char buf[16];
    const char *d = rl_setting_shown(s, rl_setting_index(s, "default_transaction_read_only"), buf,
                                     sizeof buf);
    s->read_only_txn = strcmp(d, "on") == 0;
    s->read_only_fixed = true;
}

/* Run one statement. Returns RL_EXEC_DONE, RL_EXEC_COPY_IN or RL_EXEC_ERROR. */
static rl_exec_status run_statement(rl_exec *x, const PgQuery__Node *n)
{
    rl_session *s = x->s;
    if (s->failed && !is_transaction_exit(n)) {
        rl_exec_error(x, RL_SQLSTATE_IN_FAILED_SQL_TRANSACTION, -1,
                      "current transaction is aborted, commands ignored until end of "
                      "transaction block");
        return RL_EXEC_ERROR;
    }
    if (rl_exec_check_cancel(x) < 0)
        return RL_EXEC_ERROR;
    if (statement_snapshot(x, n) < 0)
        return RL_EXEC_ERROR;
    txn_read_only_fix(s);
    if (rl_lakes_route(x, n) < 0)
        return RL_EXEC_ERROR;
    if (rl_privilege_check(x, n) < 0)
        return RL_EXEC_ERROR;
    if ((s->read_only_txn || rl_catalog_read_only(s->eng->cat)) && statement_writes(n)) {
        rl_exec_error(x, RL_SQLSTATE_READ_ONLY_SQL_TRANSACTION, -1,
                      "cannot execute %s in a read-only transaction", statement_name(n));
        return RL_EXEC_ERROR;
    }
    int rc;
    switch (n->node_case) {
    case PG_QUERY__NODE__NODE_SELECT_STMT:
        rc = rl_select_send(x, n->select_stmt);
        break;
    case PG_QUERY__NODE__NODE_INSERT_STMT:
        rc = rl_dml_insert(x, n->insert_stmt);
        break;
    case PG_QUERY__NODE__NODE_UPDATE_STMT:
        rc = rl_dml_update(x, n->update_stmt);
        break;
    case PG_QUERY__NODE__NODE_DELETE_STMT:
        rc = rl_dml_delete(x, n->delete_stmt);
        break;
    case PG_QUERY__NODE__NODE_TRUNCATE_STMT:
        rc = rl_truncate(x, n->truncate_stmt);
        break;
    case PG_QUERY__NODE__NODE_CREATE_STMT:
        rc = rl_ddl_create_table(x, n->create_stmt);
        break;
    case PG_QUERY__NODE__NODE_CREATE_SCHEMA_STMT:
        rc = rl_ddl_create_schema(x, n->create_schema_stmt);
        break;
    case PG_QUERY__NODE__NODE_DROP_STMT:
        rc = n->drop_stmt->remove_type == PG_QUERY__OBJECT_TYPE__OBJECT_SEQUENCE
                 ? rl_seq_drop(x, n->drop_stmt)
                 : rl_ddl_drop(x, n->drop_stmt);
        break;
    case PG_QUERY__NODE__NODE_ALTER_TABLE_STMT:
        rc = rl_ddl_alter_table(x, n->alter_table_stmt);
        break;
    case PG_QUERY__NODE__NODE_RENAME_STMT:
        rc = n->rename_stmt->rename_type == PG_QUERY__OBJECT_TYPE__OBJECT_SEQUENCE
                 ? rl_seq_rename(x, n->rename_stmt, "ALTER SEQUENCE")
                 : rl_ddl_rename(x, n->rename_stmt);
        break;
    case PG_QUERY__NODE__NODE_INDEX_STMT:
        /* an index of a temporary table is kept with it (sql_index.c) */
        rc = x->s->temps && rl_ddl_temps_touch(x) < 0 ? -1 : rl_ddl_create_index(x, n->index_stmt);
        break;
    case PG_QUERY__NODE__NODE_COMMENT_STMT:
        rc = rl_ddl_comment(x, n->comment_stmt);
        break;
    case PG_QUERY__NODE__NODE_CREATE_SEQ_STMT:
        rc = rl_seq_create(x, n->create_seq_stmt);
        break;
    case PG_QUERY__NODE__NODE_ALTER_SEQ_STMT:
        rc = rl_seq_alter(x, n->alter_seq_stmt);
        break;
    case PG_QUERY__NODE__NODE_COPY_STMT:
        return rl_copy_start(x, n->copy_stmt);
    case PG_QUERY__NODE__NODE_TRANSACTION_STMT:
        rc = exec_transaction(x, n->transaction_stmt);
        break;
    case PG_QUERY__NODE__NODE_VARIABLE_SET_STMT:
        rc = exec_set(x, n->variable_set_stmt);
        break;
    case PG_QUERY__NODE__NODE_VARIABLE_SHOW_STMT:
        rc = exec_show(x, n->variable_show_stmt);
        break;
    case PG_QUERY__NODE__NODE_DISCARD_STMT:
        rc = exec_discard(x, n->discard_stmt);
        break;
    case PG_QUERY__NODE__NODE_DEALLOCATE_STMT:
        rc = exec_deallocate(x, n->deallocate_stmt);
        break;
    case PG_QUERY__NODE__NODE_EXPLAIN_STMT:
        rc = exec_explain(x, n->explain_stmt);
        break;
    case PG_QUERY__NODE__NODE_PREPARE_STMT:
        rc = exec_prepare(x, n->prepare_stmt);
        break;
    case PG_QUERY__NODE__NODE_EXECUTE_STMT:
        rc = exec_execute(x, n->execute_stmt);
        break;
    case PG_QUERY__NODE__NODE_DECLARE_CURSOR_STMT:
        rc = exec_declare(x, n->declare_cursor_stmt);
        break;
    case PG_QUERY__NODE__NODE_FETCH_STMT:
        rc = rl_cursor_fetch(x, n->fetch_stmt);
        break;
    case PG_QUERY__NODE__NODE_CLOSE_PORTAL_STMT:
        rc = rl_cursor_close(x, n->close_portal_stmt);
        break;
    case PG_QUERY__NODE__NODE_CHECK_POINT_STMT:
        rc = rl_send_complete(x, "CHECKPOINT");
        break;
    case PG_QUERY__NODE__NODE_LISTEN_STMT:
        rc = rl_send_complete(x, "LISTEN");
        break;
    case PG_QUERY__NODE__NODE_UNLISTEN_STMT:
        rc = rl_send_complete(x, "UNLISTEN");
        break;
    case PG_QUERY__NODE__NODE_NOTIFY_STMT:
        rc = exec_notify(x, n->notify_stmt);
        break;
    case PG_QUERY__NODE__NODE_LOCK_STMT:
        rc = exec_lock(x, n->lock_stmt);
        break;
    case PG_QUERY__NODE__NODE_CONSTRAINTS_SET_STMT:
        rc = rl_fkey_set_constraints(x, n->constraints_set_stmt);
        break;
    case PG_QUERY__NODE__NODE_VACUUM_STMT:
        rc = exec_vacuum(x, n->vacuum_stmt);
        break;
    case PG_QUERY__NODE__NODE_CREATE_ROLE_STMT:
    case PG_QUERY__NODE__NODE_ALTER_ROLE_STMT:
    case PG_QUERY__NODE__NODE_DROP_ROLE_STMT:
    case PG_QUERY__NODE__NODE_GRANT_STMT:
    case PG_QUERY__NODE__NODE_GRANT_ROLE_STMT:
        rc = rl_privilege_statement(x);
        break;
    case PG_QUERY__NODE__NODE_DROP_SUBSCRIPTION_STMT:
        rc = rl_absent_drop_subscription(x, n->drop_subscription_stmt);
        break;
    default: {
        const char *name = rl_absent_statement_name(n);
        if (name)
            rc = rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                               "%s is not supported by RockLake", name);
        else
            rc = rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                               "RockLake does not support this kind of statement (parse node %d)",
                               (int)n->node_case);
        break;
    }
    }
    if (rc == 0 && s->txn)
        rl_txn_count_statement(s->txn);
    return rc < 0 ? RL_EXEC_ERROR : RL_EXEC_DONE;
}

/* Run statements [from, n) of the session's pending query. */
static rl_exec_status run_pending_statements(rl_session *s, const rl_sink *sink, rl_error *err);

/* The pending statements run with their parse as the active one (its
 * constants and error positions, see sql_parse.c). */
static rl_exec_status run_pending(rl_session *s, const rl_sink *sink, rl_error *err)
{
    /* the statements end by clearing s->pending: hold it while active */
    rl_parsed *held = s->pending ? rl_parsed_ref(s->pending) : NULL;
    const rl_parsed *prev = rl_parsed_activate(held);
    rl_exec_status st = run_pending_statements(s, sink, err);
    rl_parsed_activate(prev);
    rl_parsed_release(held);
    return st;
}

static rl_exec_status run_pending_statements(rl_session *s, const rl_sink *sink, rl_error *err)
{
    const PgQuery__ParseResult *tree = rl_parsed_tree(s->pending);
    for (size_t i = s->pending_next; i < tree->n_stmts; i++) {
        rl_exec x = {.s = s, .sink = sink, .err = err, .sql = s->pending_sql,
                     .simple_query = true, .stmt_index = i};
        rl_settings_zone_apply(s);
        /* exec_simple_query ends the implicit transaction before the last
         * statement's EndCommand: a commit that fails (a deferred check, a
         * conflict) answers with its error alone, no CommandComplete */
        s->hold_complete = i + 1 == tree->n_stmts;
        rl_exec_status st = run_statement(&x, tree->stmts[i]->stmt);
        if (st == RL_EXEC_COPY_IN) {
            s->pending_next = i + 1;
            return RL_EXEC_COPY_IN;
        }
        if (st == RL_EXEC_ERROR) {
            statement_failed(s);
            pending_clear(s);
            return RL_EXEC_ERROR;
        }
    }
    pending_clear(s);
    /* the implicit transaction of a simple query ends with it */
    if (!s->in_block && finish_txn(s, true, err) < 0) {
        release_complete(s, sink, false, err);
        return RL_EXEC_ERROR;
    }
    return release_complete(s, sink, true, err) < 0 ? RL_EXEC_ERROR : RL_EXEC_DONE;
}

static rl_exec_status simple_query(rl_session *s, const char *sql, const rl_sink *sink,
                                   rl_error *err);

rl_exec_status rl_session_simple_query(rl_session *s, const char *sql, const rl_sink *sink,
                                       rl_error *err)
{
    run_begin(s);
    rl_exec_status st = simple_query(s, sql, sink, err);
    run_end(s);
    return st;
}

static rl_exec_status simple_query(rl_session *s, const char *sql, const rl_sink *sink,
                                   rl_error *err)
{
    rl_error_clear(err);
    pending_clear(s);
    rl_exec x = {.s = s, .sink = sink, .err = err, .sql = sql};
    rl_settings_zone_apply(s);
    rl_parsed *parsed;
    if (rl_parse(&x, sql, &parsed) < 0) {
        statement_failed(s);
        return RL_EXEC_ERROR;
    }
    if (!rl_parsed_tree(parsed)) {
        rl_parsed_release(parsed);
        if (sink && sink->empty_query)
            sink->empty_query(sink->ctx);
        return RL_EXEC_DONE;
    }
    s->pending = parsed;
    s->pending_sql = strdup(sql);
    s->pending_next = 0;
    if (!s->pending_sql) {
        pending_clear(s);
        rl_error_set(err, RL_SQLSTATE_INTERNAL_ERROR, "out of memory");
        return RL_EXEC_ERROR;
    }
    return run_pending(s, sink, err);
}

int rl_session_copy_data(rl_session *s, const uint8_t *data, size_t len, rl_error *err)
{
    rl_exec x = {.s = s, .err = err, .sql = s->pending_sql};
    rl_settings_zone_apply(s);
    return rl_copy_in_data(&x, data, len);
}

rl_exec_status rl_session_copy_done(rl_session *s, const rl_sink *sink, rl_error *err)
{
    rl_exec x = {.s = s, .sink = sink, .err = err, .sql = s->pending_sql};
    rl_settings_zone_apply(s);
    if (rl_copy_in_done(&x) < 0) {
        statement_failed(s);
        pending_clear(s);
        return RL_EXEC_ERROR;
    }
    if (!s->pending) /* COPY IN started by the extended protocol */
        return RL_EXEC_DONE;
    return run_pending(s, sink, err);
}

rl_exec_status rl_session_copy_fail(rl_session *s, const char *message, const rl_sink *sink,
                                    rl_error *err)
{
    (void)sink;
    rl_copy_in_abort(s);
    rl_error_set(err, RL_SQLSTATE_QUERY_CANCELED, "COPY from stdin failed: %s",
                 message ? message : "");
    statement_failed(s);
    pending_clear(s);
    return RL_EXEC_ERROR;
}

/* ------------------------------------------------------ extended protocol */

static rl_prepared *prepared_find(rl_session *s, const char *name)
{
    for (rl_prepared *p = s->prepared; p; p = p->next)
        if (strcmp(p->name, name) == 0)
            return p;
    return NULL;
}

static rl_portal *portal_find(rl_session *s, const char *name)
{
    for (rl_portal *p = s->portals; p; p = p->next)
        if (strcmp(p->name, name) == 0)
            return p;
    return NULL;
}

int rl_session_parse(rl_session *s, const char *stmt_name, const char *sql, size_t nparams,
                     const uint32_t *param_oids, rl_error *err)
{
    rl_error_clear(err);
    rl_exec x = {.s = s, .err = err, .sql = sql};
    rl_settings_zone_apply(s);
    if (stmt_name[0] && prepared_find(s, stmt_name))
        return rl_exec_error(&x, RL_SQLSTATE_DUPLICATE_PREPARED_STATEMENT, -1,
                             "prepared statement \"%s\" already exists",
                             stmt_name);
    assert(nparams <= RL_MAX_PARAMS); /* Parse's count is 16 bits */
    rl_parsed *parsed;
    if (rl_parse(&x, sql, &parsed) < 0)
        return -1;
    const PgQuery__ParseResult *tree = rl_parsed_tree(parsed);
    if (tree && tree->n_stmts > 1) {
        rl_parsed_release(parsed);
        return rl_exec_error(&x, RL_SQLSTATE_SYNTAX_ERROR, -1,
                             "cannot insert multiple commands into a prepared statement");
    }
    /* as PostgreSQL's exec_parse_message: after the raw parse, so a syntax
     * error is still 42601 */
    if (s->failed && !(tree && tree->n_stmts == 1 && is_transaction_exit(tree->stmts[0]->stmt))) {
        rl_parsed_release(parsed);
        return rl_exec_error(&x, RL_SQLSTATE_IN_FAILED_SQL_TRANSACTION, -1,
                             "current transaction is aborted, commands ignored until end of "
                             "transaction block");
    }
    /* as PostgreSQL's: a statement has as many parameters as Parse typed
     * or its text refers to, whichever is more */
    size_t nrefs = 0;
    uint8_t *flags = NULL;
    /* no '$', no $n: most statements skip the walk */
    if (tree && tree->n_stmts == 1 && strchr(sql, '$') &&
        rl_params_count(&x, tree->stmts[0]->stmt, &nrefs, &flags) < 0) {
        rl_parsed_release(parsed);
        return -1;
    }
    for (size_t i = 0; i < nrefs; i++) {
        if (i < nparams && param_oids && param_oids[i])
            continue; /* Parse gave it its type */
        /* a $n that nothing refers to (one below the highest), or only IS
         * [NOT] NULL does, has no type at all; one IS [NOT] NULL sees
         * before a context types it has two */
        if (!(flags[i] & RL_PARAM_TYPEABLE) || (flags[i] & RL_PARAM_UNKNOWN_FIRST)) {
            rl_parsed_release(parsed);
            if (!(flags[i] & RL_PARAM_TYPEABLE))
                rl_exec_error(&x, RL_SQLSTATE_INDETERMINATE_DATATYPE, -1,
                              "could not determine data type of parameter $%zu", i + 1);
            else
                rl_exec_error(&x, RL_SQLSTATE_AMBIGUOUS_PARAMETER, -1,
                              "inconsistent types deduced for parameter $%zu", i + 1);
            if (x.err)
                rl_error_hint(x.err, "give $%zu a type: declare it in Parse, or cast it ($%zu::bigint)",
                              i + 1, i + 1);
            free(flags);
            return -1;
        }
    }
    free(flags);
    if (!stmt_name[0])
        prepared_close(s, "");
    rl_prepared *p = calloc(1, sizeof *p);
    if (!p || !(p->sql = strdup(sql))) {
        free(p);
        rl_parsed_release(parsed);
        return rl_exec_error(&x, RL_SQLSTATE_INTERNAL_ERROR, -1, "out of memory");
    }
    snprintf(p->name, sizeof p->name, "%s", stmt_name);
    p->parsed = parsed;
    p->nparams = nrefs > nparams ? nrefs : nparams;
    p->param_oids = calloc(p->nparams + 1, sizeof *p->param_oids);
    p->inferred_oids = calloc(p->nparams + 1, sizeof *p->inferred_oids);
    if (!p->param_oids || !p->inferred_oids) {
        prepared_free(p);
        return rl_exec_error(&x, RL_SQLSTATE_INTERNAL_ERROR, -1, "out of memory");
    }
    for (size_t i = 0; i < nparams; i++)
        p->param_oids[i] = param_oids ? param_oids[i] : 0;
    p->next = s->prepared;
    s->prepared = p;
    return 0;
}

static const PgQuery__Node *prepared_stmt(const rl_prepared *p)
{
    const PgQuery__ParseResult *tree = p->parsed ? rl_parsed_tree(p->parsed) : NULL;
    return tree ? tree->stmts[0]->stmt : NULL;
}

static rl_col_info *cols_of(rl_rowset *rs, size_t *n)
{
    /* the rowset's colmeta are turned into rl_col_info kept in the arena */
    rl_col_info *cols = rl_arena_alloc(&rs->arena, (rs->ncols ? rs->ncols : 1) * sizeof *cols);
    if (!cols)
        return NULL;
    for (size_t i = 0; i < rs->ncols; i++) {
        memset(&cols[i], 0, sizeof cols[i]);
        snprintf(cols[i].name, sizeof cols[i].name, "%s", rs->cols[i].name);
        cols[i].table_oid = rs->cols[i].table_oid;
        cols[i].attnum = rs->cols[i].attnum;
        cols[i].type_oid = rs->cols[i].oid;
        cols[i].typlen = rl_oid_typlen(rs->cols[i].oid);
        /* a record's typmod is RockLake's own note of its shape (sql_expr.c) */
        cols[i].typmod = rl_oid_is_composite(rs->cols[i].oid) ? -1 : rs->cols[i].typmod;
    }
    *n = rs->ncols;
    return cols;
}

/* The statement's parameter types with each one Parse left untyped
 * inferred from its context, worked out once (p->inferred_oids). */
static int prepared_param_types(rl_exec *x, rl_prepared *p)
{
    if (p->inferred)
        return 0;
    memcpy(p->inferred_oids, p->param_oids, p->nparams * sizeof *p->inferred_oids);
    const PgQuery__Node *n = prepared_stmt(p);
    bool untyped = false;
    for (size_t i = 0; i < p->nparams; i++)
        untyped |= p->param_oids[i] == 0;
    if (n && untyped) {
        if (rl_lakes_route(x, n) < 0)
            return -1;
        const rl_parsed *prev = rl_parsed_activate(p->parsed);
        rl_params_infer(x, n, p->inferred_oids, p->nparams);
        rl_parsed_activate(prev);
    }
    p->inferred = true;
    return 0;
}

/* The columns of a cursor's rows (NoData when it has none by that name):
 * what Describe of its name, and of a FETCH from it, answers. */
static int describe_cursor(rl_exec *x, const char *name, rl_describe *out)
{
    rl_cursor *c = rl_cursor_find(x->s, name);
    if (!c)
        return 0;
    if (!c->cols && !(c->cols = cols_of(c->rows, &out->ncols))) /* once: each FETCH asks */
        return rl_exec_error(x, RL_SQLSTATE_INTERNAL_ERROR, -1, "out of memory");
    out->has_rows = true;
    out->cols = c->cols;
    out->ncols = c->rows->ncols;
    return 0;
}

/* A FETCH describes the rows of its cursor as it is now (not cached: the
 * name may be declared again); MOVE has none. */
static int describe_fetch(rl_exec *x, const PgQuery__FetchStmt *st, rl_describe *out)
{
    if (st->ismove || !st->portalname)
        return 0;
    return describe_cursor(x, st->portalname, out);
}

static int describe_prepared(rl_exec *x, rl_prepared *p, rl_describe *out)
{
    memset(out, 0, sizeof *out);
    if (prepared_param_types(x, p) < 0)
        return -1;
    out->nparams = p->nparams;
    out->param_oids = p->inferred_oids;
    const PgQuery__Node *n = prepared_stmt(p);
    if (n && n->node_case == PG_QUERY__NODE__NODE_FETCH_STMT)
        return describe_fetch(x, n->fetch_stmt, out);
    bool returning = rl_dml_has_returning(n);
    if (!n || (n->node_case != PG_QUERY__NODE__NODE_SELECT_STMT && !returning))
        return 0; /* NoData */
    if (!p->shape) {
        if (rl_lakes_route(x, n) < 0)
            return -1;
        /* Before Bind the parameters have no values: typing sees each as a
         * NULL of the type Parse declared for it (unknown if none), as
         * PostgreSQL plans the statement before any Bind. */
        rl_value *unbound = calloc(p->nparams + 1, sizeof *unbound);
        if (!unbound)
            return rl_exec_error(x, RL_SQLSTATE_INTERNAL_ERROR, -1, "out of memory");
        for (size_t i = 0; i < p->nparams; i++)
            unbound[i] = (rl_value){.oid = p->param_oids[i] ? p->param_oids[i] : RL_OID_UNKNOWN,
                                    .typmod = -1, .d.isnull = true};
        const rl_value *bound = x->params; /* a portal's: the shape is the statement's */
        size_t nbound = x->nparams;
        x->params = unbound;
        x->nparams = p->nparams;
        const rl_parsed *prev = rl_parsed_activate(p->parsed);
        bool was = x->describing;
        x->describing = true; /* nextval and setval change nothing now */
        p->shape = returning ? rl_dml_returning_describe(x, n)
                             : rl_select_describe(x, n->select_stmt);
        x->describing = was;
        x->params = bound;
        x->nparams = nbound;
        rl_parsed_activate(prev);
        free(unbound);
        if (!p->shape)
            return -1;
    }
    out->has_rows = true;
    out->cols = cols_of(p->shape, &out->ncols);
    return out->cols ? 0 : rl_exec_error(x, RL_SQLSTATE_INTERNAL_ERROR, -1, "out of memory");
}

int rl_session_describe_statement(rl_session *s, const char *stmt_name, rl_describe *out,
                                  rl_error *err)
{
    rl_error_clear(err);
    rl_prepared *p = prepared_find(s, stmt_name);
    rl_exec x = {.s = s, .err = err, .sql = p ? p->sql : NULL};
    rl_settings_zone_apply(s);
    if (!p)
        return rl_exec_error(&x, RL_SQLSTATE_INVALID_SQL_STATEMENT_NAME, -1,
                             "prepared statement \"%s\" does not exist",
                             stmt_name);
    int rc = describe_prepared(&x, p, out);
    if (rc < 0)
        statement_failed(s);
    return rc;
}

int rl_session_bind(rl_session *s, const char *portal, const char *stmt_name, size_t nparams,
                    const int16_t *param_formats, size_t nformats, const uint8_t *const *values,
                    const int32_t *lengths, size_t nresult_formats, const int16_t *result_formats,
                    rl_error *err)
{
    rl_error_clear(err);
    rl_prepared *p = prepared_find(s, stmt_name);
    rl_exec x = {.s = s, .err = err, .sql = p ? p->sql : NULL};
    rl_settings_zone_apply(s);
    if (!p)
        return rl_exec_error(&x, RL_SQLSTATE_INVALID_SQL_STATEMENT_NAME, -1,
                             "prepared statement \"%s\" does not exist",
                             stmt_name);
    if (nparams != p->nparams && !(p->nparams == 0 && nparams > 0))
        return rl_exec_error(&x, RL_SQLSTATE_PROTOCOL_VIOLATION, -1,
                             "bind message supplies %zu parameters, but prepared statement "
                             "\"%s\" requires %zu",
                             nparams, stmt_name, p->nparams);
    if (portal[0] && (portal_find(s, portal) || rl_cursor_find(s, portal)))
        return rl_exec_error(&x, RL_SQLSTATE_DUPLICATE_CURSOR, -1, "cursor \"%s\" already exists",
                             portal);
    portal_close(s, portal);
    rl_portal *pt = calloc(1, sizeof *pt);
    if (!pt)
        return rl_exec_error(&x, RL_SQLSTATE_INTERNAL_ERROR, -1, "out of memory");
    snprintf(pt->name, sizeof pt->name, "%s", portal);
    pt->stmt = p;
    pt->nparams = nparams;
    pt->params = rl_arena_alloc(&pt->arena, (nparams ? nparams : 1) * sizeof *pt->params);
    pt->formats = rl_arena_alloc(&pt->arena, (nresult_formats ? nresult_formats : 1) *
                                                 sizeof *pt->formats);
    if (!pt->params || !pt->formats) {
        portal_free(pt);
        return rl_exec_error(&x, RL_SQLSTATE_INTERNAL_ERROR, -1, "out of memory");
    }
    pt->nformats = nresult_formats;
    for (size_t i = 0; i < nresult_formats; i++)
        pt->formats[i] = result_formats[i];
    for (size_t i = 0; i < nparams; i++) {
        rl_value *v = &pt->params[i];
        memset(v, 0, sizeof *v);
        uint32_t oid = i < p->nparams && p->param_oids[i] ? p->param_oids[i] : RL_OID_UNKNOWN;
        int16_t fmt = nformats == 0 ? 0 : nformats == 1 ? param_formats[0] : param_formats[i];
        if (fmt == 1 && oid == RL_OID_UNKNOWN && i < p->nparams && lengths[i] >= 0) {
            /* binary without a declared type: in the type the statement
             * gives it, the one Describe reported (text stays untyped) */
            if (prepared_param_types(&x, p) < 0) {
                portal_free(pt);
                return -1;
            }
            if (p->inferred_oids[i] != RL_OID_TEXT)
                oid = p->inferred_oids[i];
        }
        if (lengths[i] < 0) {
            v->oid = oid;
            v->typmod = -1;
            v->d.isnull = true;
            continue;
        }
        if (fmt == 1 && oid != RL_OID_UNKNOWN) {
            if (rl_value_from_binary(&x, oid, -1, values[i], (size_t)lengths[i], &pt->arena, v) <
                0) {
                portal_free(pt);
                return -1;
            }
            continue;
        }
        /* text parameters stay untyped text until used, like literals;
         * PostgreSQL checks their encoding on receipt (22021) */
        if (rl_utf8_check(err, values[i], (size_t)lengths[i]) < 0) {
            portal_free(pt);
            return -1;
        }
        v->oid = RL_OID_UNKNOWN;
        v->typmod = -1;
        v->d.v.s.p = rl_arena_dup(&pt->arena, values[i], (size_t)lengths[i]);
        v->d.v.s.len = (size_t)lengths[i];
    }
    pt->next = s->portals;
    s->portals = pt;
    return 0;
}

int rl_session_describe_portal(rl_session *s, const char *portal, rl_describe *out,
                               rl_error *err)
{
    rl_error_clear(err);
    rl_portal *pt = portal_find(s, portal);
    rl_exec x = {.s = s, .err = err, .sql = pt ? pt->stmt->sql : NULL};
    rl_settings_zone_apply(s);
    if (!pt && portal[0] && rl_cursor_find(s, portal)) { /* a DECLAREd cursor (psycopg) */
        memset(out, 0, sizeof *out);
        return describe_cursor(&x, portal, out);
    }
    if (!pt)
        return rl_exec_error(&x, RL_SQLSTATE_INVALID_CURSOR_NAME, -1,
                             "portal \"%s\" does not exist", portal);
    x.params = pt->params;
    x.nparams = pt->nparams;
    int rc = describe_prepared(&x, pt->stmt, out);
    out->nparams = 0;
    return rc;
}

int16_t rl_session_portal_format(rl_session *s, const char *portal, size_t col)
{
    rl_portal *pt = portal_find(s, portal);
    if (!pt || pt->nformats == 0)
        return 0;
    return pt->nformats == 1 ? pt->formats[0] : col < pt->nformats ? pt->formats[col] : 0;
}

int16_t rl_session_simple_format(const rl_session *s) { return s->binary_rows ? 1 : 0; }

const char *rl_session_statement_sql(rl_session *s, const char *stmt_name)
{
    const rl_prepared *p = prepared_find(s, stmt_name);
    return p ? p->sql : NULL;
}

const char *rl_session_portal_sql(rl_session *s, const char *portal)
{
    rl_portal *pt = portal_find(s, portal);
    return pt && pt->stmt && pt->stmt->sql ? pt->stmt->sql : "";
}

/* Send rows [sent, sent+max) of a materialized SELECT. */
static rl_exec_status portal_send_rows(rl_exec *x, rl_portal *pt, uint64_t max_rows)
{
    rl_rowset *rs = pt->result;
    const rl_sink *k = x->sink;
    size_t end = rs->nrows;
    if (max_rows && pt->sent + max_rows < end)
        end = pt->sent + (size_t)max_rows;
    /* PostgreSQL's executor stops at the row limit without looking for a
     * further row, so a cancel (pg_cancel_backend(pg_backend_pid()) in the
     * last row) goes unnoticed and is dropped when the Execute ends: its
     * completion is no 57014 (rl_send_complete) */
    if (max_rows && pt->sent + max_rows == rs->nrows)
        atomic_store(&x->s->cancel, false);
    for (; pt->sent < end; pt->sent++) {
        if (k && k->data_row && k->data_row(k->ctx, rs->ncols, rl_rowset_row(rs, pt->sent)) < 0) {
            rl_exec_error(x, RL_SQLSTATE_CONNECTION_FAILURE, -1, "the client connection was lost");
            return RL_EXEC_ERROR;
        }
    }
    if (pt->sent < rs->nrows)
        return RL_EXEC_SUSPENDED;
    char tag[48];
    if (pt->tag[0])
        snprintf(tag, sizeof tag, "%s", pt->tag);
    else
        snprintf(tag, sizeof tag, "SELECT %zu", rs->nrows);
    pt->finished = true;
    return rl_send_complete(x, tag) < 0 ? RL_EXEC_ERROR : RL_EXEC_DONE;
}

static rl_exec_status execute_portal(rl_session *s, const char *portal, uint64_t max_rows,
                                     const rl_sink *sink, rl_error *err);

rl_exec_status rl_session_execute(rl_session *s, const char *portal, uint64_t max_rows,
                                  const rl_sink *sink, rl_error *err)
{
    run_begin(s);
    rl_portal *pt = portal_find(s, portal);
    /* held: the statement may close its own prepared statement and portal
     * (DEALLOCATE ALL, DISCARD ALL) while its tree is being executed */
    rl_parsed *held = pt && pt->stmt && pt->stmt->parsed ? rl_parsed_ref(pt->stmt->parsed) : NULL;
    const rl_parsed *prev = rl_parsed_activate(held);
    rl_exec_status st = execute_portal(s, portal, max_rows, sink, err);
    rl_parsed_activate(prev);
    rl_parsed_release(held);
    run_end(s);
    return st;
}

static rl_exec_status execute_portal(rl_session *s, const char *portal, uint64_t max_rows,
                                     const rl_sink *sink, rl_error *err)
{
    rl_error_clear(err);
    rl_portal *pt = portal_find(s, portal);
    rl_exec x = {.s = s, .sink = sink, .err = err, .sql = pt ? pt->stmt->sql : NULL};
    rl_settings_zone_apply(s);
    if (!pt) {
        rl_exec_error(&x, RL_SQLSTATE_INVALID_CURSOR_NAME, -1, "portal \"%s\" does not exist",
                      portal);
        statement_failed(s);
        return RL_EXEC_ERROR;
    }
    x.params = pt->params;
    x.nparams = pt->nparams;
    const PgQuery__Node *n = prepared_stmt(pt->stmt);
    if (!n) {
        if (sink && sink->empty_query)
            sink->empty_query(sink->ctx);
        return RL_EXEC_DONE;
    }
    if (pt->finished) {
        /* PostgreSQL answers a re-executed exhausted portal with no rows */
        return rl_send_complete(&x, "SELECT 0") < 0 ? RL_EXEC_ERROR : RL_EXEC_DONE;
    }
    rl_exec_status st;
    if (n->node_case == PG_QUERY__NODE__NODE_SELECT_STMT) {
        if (s->failed) {
            rl_exec_error(&x, RL_SQLSTATE_IN_FAILED_SQL_TRANSACTION, -1,
                          "current transaction is aborted, commands ignored until end of "
                          "transaction block");
            return RL_EXEC_ERROR;
        }
        if (!pt->result && (statement_snapshot(&x, n) < 0 || rl_lakes_route(&x, n) < 0)) {
            statement_failed(s);
            return RL_EXEC_ERROR;
        }
        if (!pt->result && max_rows == 0) {
            /* all rows at once: stream them when the plan can */
            int streamed = rl_select_send_streamed(&x, n->select_stmt, false);
            if (streamed != 0) {
                if ((pt = portal_find(s, portal)) != NULL)
                    pt->finished = streamed > 0;
                if (streamed < 0)
                    statement_failed(s);
                return streamed > 0 ? RL_EXEC_DONE : RL_EXEC_ERROR;
            }
        }
        if (!pt->result) {
            rl_result_budget budget;
            rl_result_budget_begin(&budget, s->eng->result_mem_limit);
            pt->result = rl_select_run(&x, n->select_stmt, NULL);
            rl_result_budget_end(&budget);
            if (!pt->result) {
                statement_failed(s);
                return RL_EXEC_ERROR;
            }
        }
        st = portal_send_rows(&x, pt, max_rows);
    } else if (pt->result) { /* the rest of a RETURNING result */
        st = portal_send_rows(&x, pt, max_rows);
    } else if (max_rows && rl_dml_has_returning(n)) {
        rl_returning_hold hold = {0};
        x.hold = &hold;
        st = run_statement(&x, n);
        if (st == RL_EXEC_DONE && hold.rows && (pt = portal_find(s, portal)) != NULL) {
            pt->result = hold.rows;
            snprintf(pt->tag, sizeof pt->tag, "%s", hold.tag);
            st = portal_send_rows(&x, pt, max_rows);
        } else {
            rl_rowset_free(hold.rows);
        }
    } else {
        st = run_statement(&x, n);
        if ((pt = portal_find(s, portal)) != NULL) /* gone after DEALLOCATE ALL */
            pt->finished = st == RL_EXEC_DONE;
    }
    if (st == RL_EXEC_ERROR)
        statement_failed(s);
    return st;
}

int rl_session_close(rl_session *s, char kind, const char *name)
{
    if (kind == 'S')
        prepared_close(s, name);
    else
        portal_close(s, name);
    return 0;
}

int rl_session_sync(rl_session *s, rl_error *err)
{
    rl_error_clear(err);
    portal_close(s, "");
    if (s->in_block)
        return 0;
    return finish_txn(s, true, err);
}

/* ------------------------------------------------- commits, as data (#17) */

/* A commit of every lake of the transaction succeeded (rl_lakes_save done):
 * count it if it wrote, with the first snapshot of its own it wrote. */
static void note_commit(rl_session *s)
{
    bool wrote = false, has_snap = false;
    uint64_t snap = 0;
    for (size_t i = 0; i < s->nlakes; i++) {
        rl_txn *t = s->lakes[i].txn;
        if (!t || rl_txn_pending(t) == 0)
            continue;
        wrote = true;
        if (!has_snap)
            has_snap = rl_txn_own_snapshot(t, &snap);
    }
    if (!wrote)
        return;
    s->commits.commits++;
    s->commits.has_snapshot = has_snap;
    s->commits.snapshot_id = snap;
}

void rl_session_commits(const rl_session *s, rl_commit_info *out) { *out = s->commits; }
