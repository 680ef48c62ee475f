/*
 * sql_truncate.c — TRUNCATE [TABLE] [ONLY] name [, ...] [RESTART IDENTITY |
 * CONTINUE IDENTITY] [CASCADE | RESTRICT], as PostgreSQL's ExecuteTruncate
 * answers it.
 *
 * Owns: the list of tables one TRUNCATE empties — the named ones, each once,
 * in order, each checked as truncate_check_rel checks it (42P01, 42809 for
 * what is no table, 42501 for a system catalog); with CASCADE, round by
 * round, every table whose FOREIGN KEY references a listed one (in pg_class
 * oid order within a round, PostgreSQL's "truncate cascades to table"
 * notice for each); without CASCADE, 0A000 naming the first table that
 * references a listed one and is not listed — emptying them, and RESTART
 * IDENTITY's restart of the sequences their columns own.
 *
 * Invariants: the list is closed under "references" before any row goes
 * (every table whose FOREIGN KEY references a listed table is listed), so
 * the rows are deleted with the referenced side's checks and actions off
 * (rl_txn_fkey_checks): every referencing row goes in the same statement,
 * none can be left pointing at a deleted key, and no ON DELETE action needs
 * to run. All or nothing: the deletes are the transaction's writes, which
 * an error rolls back (a temporary table's through rl_ddl_temps_touch's
 * copy), as PostgreSQL's TRUNCATE is transactional.
 */
#include <stdlib.h>
#include <string.h>

#include "base/buf.h"
#include "sql/sql_exec.h"
#include "sql/sql_pgcatalog.h"
#include "sql/sql_relation.h"
#include "sql/sql_seq.h"
#include "sql/sql_stmt.h"

/* The tables one TRUNCATE empties, in order. */
typedef struct trunc_list {
    rl_exec *x;
    rl_relation *rels;
    size_t n, cap;
    /* the round being collected (referrers): */
    rl_relation *found;
    size_t nfound, capfound;
} trunc_list;

static int oom(rl_exec *x)
{
    return rl_exec_error(x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
}

static bool same_rel(const rl_relation *a, const rl_relation *b)
{
    if (a->kind != b->kind)
        return false;
    if (a->kind == RL_REL_TEMP)
        return a->temp == b->temp;
    return strcmp(a->schema, b->schema) == 0 && strcmp(a->name, b->name) == 0;
}

static bool listed(const rl_relation *list, size_t n, const rl_relation *r)
{
    for (size_t i = 0; i < n; i++)
        if (same_rel(&list[i], r))
            return true;
    return false;
}

/* r appended to the array *rels of *n (capacity *cap). */
static int push(rl_exec *x, rl_relation **rels, size_t *n, size_t *cap, const rl_relation *r)
{
    rl_relation *grown = rl_array_reserve(*rels, *n, cap, sizeof *grown, 8);
    if (!grown)
        return oom(x);
    *rels = grown;
    grown[(*n)++] = *r;
    return 0;
}

/* The schema a relation is named in: a temporary table's is pg_temp. */
static const char *schema_of(const rl_relation *r)
{
    return r->kind == RL_REL_TEMP ? "pg_temp" : r->schema;
}

/* truncate_check_rel's checks of one relation: only tables, no system
 * catalog. */
static int check_rel(rl_exec *x, const rl_relation *r)
{
    switch (r->kind) {
    case RL_REL_STORED:
    case RL_REL_TEMP:
        return 0;
    case RL_REL_VIRTUAL:
        if (rl_pgcatalog_relkind(r->oid) == 'r')
            return rl_exec_error(x, RL_SQLSTATE_INSUFFICIENT_PRIVILEGE, -1,
                                 "permission denied: \"%s\" is a system catalog", r->name);
        break;
    case RL_REL_SEQUENCE:
        break;
    }
    return rl_exec_error(x, RL_SQLSTATE_WRONG_OBJECT_TYPE, -1, "\"%s\" is not a table", r->name);
}

/* rl_fkey_referencing's visitor: one referencing table into the round. */
static int referrer(void *ctx, const char *schema, const char *table)
{
    trunc_list *l = ctx;
    rl_relation r;
    if (rl_relation_lookup(l->x, schema, table, &r) < 0)
        return -1;
    if (listed(l->found, l->nfound, &r))
        return 0;
    return push(l->x, &l->found, &l->nfound, &l->capfound, &r);
}

static int by_oid(const void *a, const void *b)
{
    uint32_t x = ((const rl_relation *)a)->oid, y = ((const rl_relation *)b)->oid;
    return (x > y) - (x < y);
}

/* The tables referencing rels[from..to) (heap_truncate_find_FKs: sorted by
 * oid) into l->found. Temporary tables have no FOREIGN KEYs. */
static int find_referrers(trunc_list *l, rl_txn *txn, size_t from, size_t to)
{
    l->nfound = 0;
    for (size_t i = from; i < to; i++)
        if (l->rels[i].kind == RL_REL_STORED &&
            rl_fkey_referencing(l->x, txn, l->rels[i].schema, l->rels[i].name, referrer, l) < 0)
            return -1;
    if (l->nfound > 1)
        qsort(l->found, l->nfound, sizeof *l->found, by_oid);
    return 0;
}

/* CASCADE: add what references the list, round by round, until nothing
 * new does (ExecuteTruncate's loop, with its notice per table). */
static int add_cascaded(trunc_list *l, rl_txn *txn)
{
    for (;;) {
        size_t before = l->n;
        if (find_referrers(l, txn, 0, l->n) < 0)
            return -1;
        for (size_t i = 0; i < l->nfound; i++) {
            if (listed(l->rels, l->n, &l->found[i]))
                continue;
            rl_exec_notice(l->x, RL_SQLSTATE_SUCCESSFUL_COMPLETION,
                           "truncate cascades to table \"%s\"", l->found[i].name);
            if (push(l->x, &l->rels, &l->n, &l->cap, &l->found[i]) < 0)
                return -1;
        }
        if (l->n == before)
            return 0;
    }
}

/* RESTRICT (the default): heap_truncate_check_FKs' complaint about the
 * first listed table that an unlisted one references. */
static int check_unreferenced(trunc_list *l, rl_txn *txn)
{
    for (size_t i = 0; i < l->n; i++) {
        if (find_referrers(l, txn, i, i + 1) < 0)
            return -1;
        for (size_t k = 0; k < l->nfound; k++) {
            if (listed(l->rels, l->n, &l->found[k]))
                continue;
            const char *by = l->found[k].name;
            rl_exec_error(l->x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                          "cannot truncate a table referenced in a foreign key constraint");
            rl_error_detail(l->x->err, "Table \"%s\" references \"%s\".", by, l->rels[i].name);
            rl_error_hint(l->x->err,
                          "Truncate table \"%s\" at the same time, or use TRUNCATE ... CASCADE.",
                          by);
            return -1;
        }
    }
    return 0;
}

/* RESTART IDENTITY: each sequence a column of rel owns back to its start
 * (ALTER SEQUENCE ... RESTART). */
static int restart_owned(rl_exec *x, const rl_relation *rel)
{
    const char *schema = schema_of(rel);
    PgQuery__DefElem restart = PG_QUERY__DEF_ELEM__INIT;
    restart.defname = "restart";
    PgQuery__Node opt = PG_QUERY__NODE__INIT;
    opt.node_case = PG_QUERY__NODE__NODE_DEF_ELEM;
    opt.def_elem = &restart;
    PgQuery__Node *opts[1] = {&opt};
    size_t ncols = rl_relation_ncols(x, rel);
    for (size_t i = 0; i < ncols; i++) {
        const char *col;
        uint32_t oid;
        int32_t typmod;
        rl_relation_col(rel, i, &col, &oid, &typmod);
        char seq[64];
        int owned = rl_seq_owned_by(x, schema, rel->name, col, seq);
        if (owned < 0 || (owned == 1 && rl_seq_alter_owned(x, schema, seq, opts, 1) < 0))
            return -1;
    }
    return 0;
}

/* Empty every listed table: the referenced side's FOREIGN KEY checks and
 * actions off, as every table referencing one is listed too. */
static int empty_all(trunc_list *l, rl_txn *txn)
{
    if (txn)
        rl_txn_fkey_checks(txn, false);
    int rc = 0;
    for (size_t i = 0; rc == 0 && i < l->n; i++) {
        const rl_relation *r = &l->rels[i];
        PgQuery__RangeVar by_name = PG_QUERY__RANGE_VAR__INIT;
        by_name.schemaname = (char *)schema_of(r);
        by_name.relname = (char *)r->name;
        by_name.inh = true;
        uint64_t gone;
        rc = rl_dml_delete_all(l->x, &by_name, &gone);
    }
    if (txn)
        rl_txn_fkey_checks(txn, true);
    return rc;
}

static int truncate_listed(trunc_list *l, const PgQuery__TruncateStmt *st)
{
    rl_exec *x = l->x;
    for (size_t i = 0; i < st->n_relations; i++) {
        const PgQuery__Node *n = st->relations[i];
        if (n->node_case != PG_QUERY__NODE__NODE_RANGE_VAR)
            return rl_exec_error(x, RL_SQLSTATE_SYNTAX_ERROR, -1, "malformed TRUNCATE");
        /* PostgreSQL opens the tables without a parse state: no position */
        PgQuery__RangeVar at_none = *n->range_var;
        at_none.location = -1;
        rl_relation r;
        if (rl_relation_resolve(x, &at_none, &r) < 0 || check_rel(x, &r) < 0)
            return -1;
        if (!listed(l->rels, l->n, &r) && push(x, &l->rels, &l->n, &l->cap, &r) < 0)
            return -1;
    }
    bool stored = false;
    for (size_t i = 0; i < l->n; i++)
        stored = stored || l->rels[i].kind == RL_REL_STORED;
    rl_txn *txn = stored ? rl_exec_txn(x) : NULL;
    if (stored && !txn)
        return -1;
    bool cascade = st->behavior == PG_QUERY__DROP_BEHAVIOR__DROP_CASCADE;
    if (txn && (cascade ? add_cascaded(l, txn) : check_unreferenced(l, txn)) < 0)
        return -1;
    if (empty_all(l, txn) < 0)
        return -1;
    for (size_t i = 0; st->restart_seqs && i < l->n; i++)
        if (restart_owned(x, &l->rels[i]) < 0)
            return -1;
    return rl_send_complete(x, "TRUNCATE TABLE");
}

int rl_truncate(rl_exec *x, const PgQuery__TruncateStmt *st)
{
    trunc_list l = {.x = x};
    int rc = truncate_listed(&l, st);
    free(l.rels);
    free(l.found);
    return rc < 0 ? -1 : 0;
}
