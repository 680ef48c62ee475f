/*
 * sql_seq.c — sequences as PostgreSQL 15 shows them: CREATE / ALTER / DROP
 * SEQUENCE with sequence.c's option checks and texts, ALTER SEQUENCE ...
 * RENAME TO, nextval / currval / setval / lastval, pg_get_serial_sequence,
 * and the row SELECT * FROM a sequence reads.
 *
 * Owns: the options' parse and checks (init_params' order: the first
 * failing check is PostgreSQL's), each session's cache of sequences
 * (currval, the values a CACHE > 1 took for this session, lastval's
 * sequence), the names of the functions' errors, and each session's
 * temporary sequences (pg_temp): their definitions (s->temp_seqs, copied
 * by savepoints and at the transaction's first change of them, put back
 * by ROLLBACK / ROLLBACK TO) and their states (s->temp_seq_states, by id,
 * never put back), run by the catalog's pure nextval arithmetic.
 *
 * The catalog (catalog.h "Sequences") keeps the definitions (transactional
 * DDL) and the states (never undone: nextval and setval write them at once,
 * whatever becomes of the transaction). ALTER SEQUENCE ... RESTART gives the
 * sequence a fresh state (rl_txn_alter_sequence's new id), so it is undone
 * by ROLLBACK as in PostgreSQL; other ALTERs keep the state.
 *
 * Invariants: a session's cached values of a sequence are those one
 * nextval took for it (first .. cached), for the state id it took them
 * from: a cache of another id (a RESTART since) is dropped, never used;
 * no value is returned while typing (c->typing) and none changes state.
 * Every temporary sequence's definition (in the list, a savepoint's copy
 * or the transaction's saved one) names a state the session holds: states
 * are pruned only at a transaction's end, of the ids no definition names;
 * a temporary sequence OWNED BY a column exists only while the temporary
 * table has that column (rl_seq_temps_sweep after each change of them).
 */
#include <assert.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sql/sql_cast.h"
#include "sql/sql_exec.h"
#include "sql/sql_parse.h"
#include "sql/sql_pgcatalog.h"
#include "sql/sql_relation.h"
#include "sql/sql_seq.h"

/* One sequence this session used (PostgreSQL's SeqTableData). */
typedef struct rl_seq_cache {
    uint32_t oid;
    uint64_t id;            /* the state the cached values came from */
    int64_t last, cached, increment;
    bool last_valid;
    struct rl_seq_cache *next;
} rl_seq_cache;

static rl_seq_cache *cache_find(rl_session *s, uint32_t oid)
{
    for (rl_seq_cache *e = s->seqs; e; e = e->next)
        if (e->oid == oid)
            return e;
    return NULL;
}

static rl_seq_cache *cache_get(rl_exec *x, uint32_t oid)
{
    rl_seq_cache *e = cache_find(x->s, oid);
    if (e)
        return e;
    if (!(e = calloc(1, sizeof *e))) {
        rl_exec_error(x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
        return NULL;
    }
    e->oid = oid;
    e->next = x->s->seqs;
    x->s->seqs = e;
    return e;
}

void rl_seq_session_free(rl_session *s)
{
    while (s->seqs) {
        rl_seq_cache *e = s->seqs;
        s->seqs = e->next;
        free(e);
    }
    s->last_seq = 0;
}

/* ------------------------------------------------ temporary sequences */

/* The state of one temporary sequence's definition (by def.id): like a
 * stored sequence's, outside the transaction (nextval, setval are never
 * undone), so kept apart from the definitions a ROLLBACK puts back. */
typedef struct rl_temp_seq_state {
    uint64_t id;
    rl_seq_state s;
    struct rl_temp_seq_state *next;
} rl_temp_seq_state;

static rl_temp_seq_state *temp_state(rl_session *s, uint64_t id)
{
    for (rl_temp_seq_state *e = s->temp_seq_states; e; e = e->next)
        if (e->id == id)
            return e;
    return NULL;
}

/* def a fresh state id, its state def's initial one. 0 or -1 (53200). */
static int temp_state_new(rl_exec *x, rl_seq_def *def)
{
    rl_temp_seq_state *e = calloc(1, sizeof *e);
    if (!e)
        return rl_exec_error(x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    def->id = e->id = ++x->s->temp_seq_ids;
    e->s = (rl_seq_state){def->initial, 0, def->initial_called};
    e->next = x->s->temp_seq_states;
    x->s->temp_seq_states = e;
    return 0;
}

void rl_seq_temps_free(rl_temp_seq *list)
{
    while (list) {
        rl_temp_seq *q = list;
        list = q->next;
        free(q);
    }
}

int rl_seq_temps_copy(const rl_temp_seq *list, rl_temp_seq **out)
{
    *out = NULL;
    rl_temp_seq **tail = out;
    for (const rl_temp_seq *q = list; q; q = q->next) {
        rl_temp_seq *c = malloc(sizeof *c);
        if (!c) {
            rl_seq_temps_free(*out);
            *out = NULL;
            return -1;
        }
        *c = *q;
        c->next = NULL;
        *tail = c;
        tail = &c->next;
    }
    return 0;
}

/* The session's currval and cached values of the temporary sequence
 * `name` forgotten: a sequence made under the name of one dropped is
 * another (PostgreSQL gives it another oid). A drop keeps them, for a
 * ROLLBACK that brings the sequence back. */
static void temp_cache_forget(rl_session *s, const char *name)
{
    uint32_t oid = rl_pgcatalog_rel_oid("pg_temp", name);
    for (rl_seq_cache **pp = &s->seqs; *pp; pp = &(*pp)->next)
        if ((*pp)->oid == oid) {
            rl_seq_cache *dead = *pp;
            *pp = dead->next;
            free(dead);
            break;
        }
    if (s->last_seq == oid)
        s->last_seq = 0;
}

/* The list replaced by `list` (taken). */
static void temps_replace(rl_session *s, rl_temp_seq *list)
{
    rl_seq_temps_free(s->temp_seqs);
    s->temp_seqs = list;
}

int rl_seq_temps_restore(rl_session *s, const rl_temp_seq *saved)
{
    rl_temp_seq *now;
    if (rl_seq_temps_copy(saved, &now) < 0)
        return -1;
    temps_replace(s, now);
    return 0;
}

/* Before the transaction's first change of the definitions: a copy of
 * them as it found them, for its ROLLBACK. 0 or -1 (53200). */
int rl_seq_temps_save(rl_session *s)
{
    if (s->temp_seqs_saved)
        return 0;
    if (rl_seq_temps_copy(s->temp_seqs, &s->temp_seqs_at_start) < 0)
        return -1;
    s->temp_seqs_saved = true;
    return 0;
}

static int temps_touch(rl_exec *x)
{
    if (!rl_exec_txn(x)) /* its end (commit or rollback) must come */
        return -1;
    if (rl_seq_temps_save(x->s) < 0)
        return rl_exec_error(x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    return 0;
}

/* Is the owner (a temporary table's column) of q gone? */
static bool owner_gone(const rl_session *s, const rl_temp_seq *q)
{
    if (!q->def.owned_table[0])
        return false;
    for (const rl_temp_table *t = s->temps; t; t = t->next) {
        if (strcmp(t->name, q->def.owned_table) != 0)
            continue;
        for (size_t i = 0; i < t->rows->ncols; i++)
            if (strcmp(t->rows->cols[i].name, q->def.owned_column) == 0)
                return false;
        return true;
    }
    return true;
}

static void temp_unlink(rl_temp_seq **pp)
{
    rl_temp_seq *dead = *pp;
    *pp = dead->next;
    free(dead);
}

void rl_seq_temps_sweep(rl_session *s)
{
    for (rl_temp_seq **pp = &s->temp_seqs; *pp;) {
        if (owner_gone(s, *pp))
            temp_unlink(pp);
        else
            pp = &(*pp)->next;
    }
}

/* The states no definition names any more (none of a savepoint's
 * either: called when none is left). */
static void temp_states_prune(rl_session *s)
{
    for (rl_temp_seq_state **pp = &s->temp_seq_states; *pp;) {
        bool used = false;
        for (const rl_temp_seq *q = s->temp_seqs; q && !used; q = q->next)
            used = q->def.id == (*pp)->id;
        if (used) {
            pp = &(*pp)->next;
            continue;
        }
        rl_temp_seq_state *dead = *pp;
        *pp = dead->next;
        free(dead);
    }
}

void rl_seq_temps_end_transaction(rl_session *s, bool committed)
{
    if (s->temp_seqs_saved && !committed) {
        temps_replace(s, s->temp_seqs_at_start);
        s->temp_seqs_at_start = NULL;
    }
    rl_seq_temps_free(s->temp_seqs_at_start);
    s->temp_seqs_at_start = NULL;
    s->temp_seqs_saved = false;
    rl_seq_temps_sweep(s); /* ON COMMIT DROP's tables, a rolled back CREATE's */
    if (!s->savepoints)
        temp_states_prune(s);
}

void rl_seq_temps_discard(rl_session *s)
{
    while (s->temp_seqs)
        temp_unlink(&s->temp_seqs);
}

void rl_seq_temps_session_free(rl_session *s)
{
    rl_seq_temps_discard(s);
    rl_seq_temps_free(s->temp_seqs_at_start);
    s->temp_seqs_at_start = NULL;
    s->temp_seqs_saved = false;
    while (s->temp_seq_states) {
        rl_temp_seq_state *e = s->temp_seq_states;
        s->temp_seq_states = e->next;
        free(e);
    }
}

void rl_seq_temp_table_changed(rl_session *s, const char *table, const rl_table_change *ch)
{
    /* only the current definitions: a ROLLBACK puts the temporary tables
     * back as the block found them (sql_ddl.c rl_ddl_end_transaction), names
     * too, and the copy it puts back of these with them */
    for (rl_temp_seq *q = s->temp_seqs; q; q = q->next) {
        if (strcmp(q->def.owned_table, table) != 0)
            continue;
        if (ch->new_table)
            rl_str_copy(q->def.owned_table, sizeof q->def.owned_table, ch->new_table);
        if (ch->old_column && strcmp(q->def.owned_column, ch->old_column) == 0)
            rl_str_copy(q->def.owned_column, sizeof q->def.owned_column, ch->new_column);
    }
}

/* ------------------------------------------------------------- lookups */

/* What find_by_oid looks for and finds. */
typedef struct seq_found {
    uint32_t oid;
    char schema[64], name[64];
    rl_seq_def def;
    bool found;
    bool temp; /* the session's (schema pg_temp) */
} seq_found;

/* f for the temporary sequence q. */
static void found_temp(seq_found *f, const rl_temp_seq *q)
{
    f->oid = rl_pgcatalog_rel_oid("pg_temp", q->name);
    rl_str_copy(f->schema, sizeof f->schema, "pg_temp");
    rl_str_copy(f->name, sizeof f->name, q->name);
    f->def = q->def;
    f->found = f->temp = true;
}

static int match_oid(void *ctx, const char *schema, const char *name, const rl_seq_def *def)
{
    seq_found *f = ctx;
    if (rl_pgcatalog_rel_oid(schema, name) != f->oid)
        return 0;
    rl_str_copy(f->schema, sizeof f->schema, schema);
    rl_str_copy(f->name, sizeof f->name, name);
    f->def = *def;
    f->found = true;
    return 1;
}

/* The sequence of pg_class oid `oid`: 0 with *f, -1 with x's error:
 * 42809 for another relation, 42P01 (PostgreSQL's "could not open
 * relation") for none. */
static int find_by_oid(rl_exec *x, uint32_t oid, seq_found *f, int loc)
{
    memset(f, 0, sizeof *f);
    f->oid = oid;
    for (const rl_temp_seq *q = x->s->temp_seqs; q; q = q->next)
        if (rl_pgcatalog_rel_oid("pg_temp", q->name) == oid) {
            found_temp(f, q);
            return 0;
        }
    rl_txn *t = rl_exec_txn(x);
    if (!t || rl_txn_list_sequences(t, NULL, match_oid, f, x->err) < 0)
        return -1;
    if (f->found)
        return 0;
    char name[200];
    if (rl_pgcatalog_reg_name(x, RL_OID_REGCLASS, oid, name, sizeof name) == 1 &&
        strspn(name, "0123456789") != strlen(name))
        return rl_exec_error(x, RL_SQLSTATE_WRONG_OBJECT_TYPE, -1, "\"%s\" is not a sequence",
                             strchr(name, '.') ? strchr(name, '.') + 1 : name);
    return rl_exec_error(x, RL_SQLSTATE_UNDEFINED_TABLE, -1,
                         "could not open relation with OID %u", oid);
}

static const char *schema_of(const PgQuery__RangeVar *rv)
{
    return rv->schemaname && rv->schemaname[0] ? rv->schemaname : "public";
}

static bool names_temp(const PgQuery__RangeVar *rv)
{
    return (rv->relpersistence && rv->relpersistence[0] == 't') ||
           (rv->schemaname && strcmp(rv->schemaname, "pg_temp") == 0);
}

/* The sequence a RangeVar names, in the search path's order (pg_temp
 * first): 1 with *f, 0 absent, -1 error; a table of that name: 42809
 * "\"t\" is not a sequence". */
static int find_named(rl_exec *x, const PgQuery__RangeVar *rv, seq_found *f)
{
    memset(f, 0, sizeof *f);
    bool qualified = rv->schemaname && rv->schemaname[0];
    if (!qualified || names_temp(rv)) {
        const rl_temp_seq *q = rl_temp_seq_find(x->s, rv->relname);
        if (q) {
            found_temp(f, q);
            return 1;
        }
        bool table = false;
        for (const rl_temp_table *t = x->s->temps; t && !table; t = t->next)
            table = strcmp(t->name, rv->relname) == 0;
        if (table)
            return rl_exec_error(x, RL_SQLSTATE_WRONG_OBJECT_TYPE, rv->location,
                                 "\"%s\" is not a sequence", rv->relname);
        if (qualified)
            return 0;
    }
    rl_txn *t = rl_exec_txn(x);
    if (!t)
        return -1;
    int rc = rl_txn_get_sequence(t, schema_of(rv), rv->relname, &f->def, x->err);
    if (rc == 1) {
        rl_str_copy(f->schema, sizeof f->schema, schema_of(rv));
        rl_str_copy(f->name, sizeof f->name, rv->relname);
        f->oid = rl_pgcatalog_rel_oid(f->schema, f->name);
        f->found = true;
    }
    if (rc != 0)
        return rc;
    rl_error probe;
    memset(&probe, 0, sizeof probe);
    if (rl_txn_find_table(t, schema_of(rv), rv->relname, &probe))
        return rl_exec_error(x, RL_SQLSTATE_WRONG_OBJECT_TYPE, rv->location,
                             "\"%s\" is not a sequence", rv->relname);
    return 0;
}

/* -------------------------------------- a sequence's definition and state */

/* Each of these does to f's sequence what the catalog does to a stored
 * one, and to a temporary one's definition in the session (its state
 * apart). 0 or -1. */

static int seq_state(rl_exec *x, const seq_found *f, rl_seq_state *out)
{
    if (!f->temp) {
        rl_txn *t = rl_exec_txn(x);
        return t ? rl_txn_sequence_state(t, &f->def, out, x->err) : -1;
    }
    const rl_temp_seq_state *e = temp_state(x->s, f->def.id);
    assert(e);
    *out = e->s;
    return 0;
}

/* f's definition replaced by def (new_id: a fresh state from def's
 * initial one, a RESTART's). */
static int seq_put(rl_exec *x, const seq_found *f, rl_seq_def *def, bool new_id)
{
    if (!f->temp) {
        rl_txn *t = rl_exec_txn(x);
        return t ? rl_txn_alter_sequence(t, f->schema, f->name, def, new_id, x->err) : -1;
    }
    rl_temp_seq *q;
    if (temps_touch(x) < 0 || (new_id && temp_state_new(x, def) < 0))
        return -1;
    q = rl_temp_seq_find(x->s, f->name);
    assert(q);
    q->def = *def;
    return 0;
}

static int seq_next(rl_exec *x, const seq_found *f, int64_t *first, int64_t *last)
{
    if (!f->temp) {
        rl_txn *t = rl_exec_txn(x);
        return t ? rl_txn_sequence_next(t, f->name, &f->def, first, last, x->err) : -1;
    }
    rl_temp_seq_state *e = temp_state(x->s, f->def.id);
    assert(e);
    bool logit;
    int64_t logged;
    return rl_seq_state_advance(&f->def, f->name, true, &e->s, first, last, &logit, &logged,
                                x->err);
}

static int seq_set(rl_exec *x, const seq_found *f, int64_t v, bool called)
{
    if (!f->temp) {
        rl_txn *t = rl_exec_txn(x);
        return t ? rl_txn_sequence_set(t, &f->def, v, called, x->err) : -1;
    }
    rl_temp_seq_state *e = temp_state(x->s, f->def.id);
    assert(e);
    e->s = (rl_seq_state){v, 0, called};
    return 0;
}

/* ALTER without RESTART: log_cnt starts over. */
static int seq_log_reset(rl_exec *x, const seq_found *f)
{
    if (!f->temp) {
        rl_txn *t = rl_exec_txn(x);
        return t ? rl_txn_sequence_log_reset(t, &f->def, x->err) : -1;
    }
    rl_temp_seq_state *e = temp_state(x->s, f->def.id);
    assert(e);
    e->s.log_cnt = 0;
    return 0;
}

static int seq_drop(rl_exec *x, const seq_found *f)
{
    if (!f->temp) {
        rl_txn *t = rl_exec_txn(x);
        return t ? rl_txn_drop_sequence(t, f->schema, f->name, x->err) : -1;
    }
    if (temps_touch(x) < 0)
        return -1;
    for (rl_temp_seq **pp = &x->s->temp_seqs; *pp; pp = &(*pp)->next)
        if (strcmp((*pp)->name, f->name) == 0) {
            temp_unlink(pp);
            break;
        }
    return 0;
}

/* CREATE of a temporary sequence `name` (42P07 when a temporary relation
 * holds the name; if_not_exists: 0 and nothing made, *created false);
 * def->id set. */
static int temp_create(rl_exec *x, const char *name, rl_seq_def *def, bool if_not_exists,
                       bool *created)
{
    *created = false;
    bool taken = rl_temp_seq_find(x->s, name) != NULL;
    for (const rl_temp_table *t = x->s->temps; t && !taken; t = t->next)
        taken = strcmp(t->name, name) == 0;
    if (taken) {
        if (if_not_exists)
            return 0;
        return rl_exec_error(x, RL_SQLSTATE_DUPLICATE_TABLE, -1, "relation \"%s\" already exists",
                             name);
    }
    rl_temp_seq *q = calloc(1, sizeof *q);
    if (!q)
        return rl_exec_error(x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    if (temps_touch(x) < 0 || temp_state_new(x, def) < 0) {
        free(q);
        return -1;
    }
    rl_str_copy(q->name, sizeof q->name, name);
    q->def = *def;
    temp_cache_forget(x->s, name);
    rl_temp_seq **tail = &x->s->temp_seqs;
    while (*tail)
        tail = &(*tail)->next;
    *tail = q;
    *created = true;
    return 0;
}

/* ------------------------------------------------------------- options */

typedef struct seq_opts {
    const PgQuery__DefElem *as, *increment, *start, *restart, *maxvalue, *minvalue, *cache,
        *cycle, *owned_by;
} seq_opts;

static const char *type_name(uint8_t bytes)
{
    return bytes == 2 ? "smallint" : bytes == 4 ? "integer" : "bigint";
}

static int64_t type_max(uint8_t bytes)
{
    return bytes == 2 ? INT16_MAX : bytes == 4 ? INT32_MAX : INT64_MAX;
}

static int64_t type_min(uint8_t bytes)
{
    return bytes == 2 ? INT16_MIN : bytes == 4 ? INT32_MIN : INT64_MIN;
}

/* defGetInt64: an option's value as bigint (int8in of a large literal). */
static int opt_int64(rl_exec *x, const PgQuery__DefElem *d, int64_t *out)
{
    const PgQuery__Node *a = d->arg;
    if (!a)
        return rl_exec_error(x, RL_SQLSTATE_SYNTAX_ERROR, d->location,
                             "%s requires a numeric value", d->defname);
    if (a->node_case == PG_QUERY__NODE__NODE_INTEGER) {
        *out = a->integer->ival;
        return 0;
    }
    if (a->node_case == PG_QUERY__NODE__NODE_FLOAT) {
        const char *s = a->float_->fval;
        char *end;
        errno = 0;
        long long v = strtoll(s, &end, 10);
        if (*end || end == s)
            return rl_exec_error(x, RL_SQLSTATE_INVALID_TEXT_REPRESENTATION, -1,
                                 "invalid input syntax for type bigint: \"%s\"", s);
        if (errno == ERANGE)
            return rl_exec_error(x, RL_SQLSTATE_NUMERIC_VALUE_OUT_OF_RANGE, -1,
                                 "value \"%s\" is out of range for type bigint", s);
        *out = v;
        return 0;
    }
    return rl_exec_error(x, RL_SQLSTATE_SYNTAX_ERROR, d->location,
                         "%s requires a numeric value", d->defname);
}

/* The options into o; SEQUENCE NAME (an identity column's CREATE names its
 * sequence so: `identity`, its caller took it) is 42601 anywhere else. An
 * identity's sequence has its column's type, as if AS that type came
 * first: an AS of its own is 42601 (conflicting or redundant). */
static int collect_opts(rl_exec *x, PgQuery__Node **options, size_t n, bool identity,
                        seq_opts *o)
{
    memset(o, 0, sizeof *o);
    for (size_t i = 0; i < n; i++) {
        const PgQuery__DefElem *d = options[i]->def_elem;
        if (strcmp(d->defname, "sequence_name") == 0) {
            if (identity)
                continue;
            return rl_exec_error(x, RL_SQLSTATE_SYNTAX_ERROR, d->location,
                                 "invalid sequence option SEQUENCE NAME");
        }
        const PgQuery__DefElem **slot = strcmp(d->defname, "as") == 0          ? &o->as
                                        : strcmp(d->defname, "increment") == 0 ? &o->increment
                                        : strcmp(d->defname, "start") == 0     ? &o->start
                                        : strcmp(d->defname, "restart") == 0   ? &o->restart
                                        : strcmp(d->defname, "maxvalue") == 0  ? &o->maxvalue
                                        : strcmp(d->defname, "minvalue") == 0  ? &o->minvalue
                                        : strcmp(d->defname, "cache") == 0     ? &o->cache
                                        : strcmp(d->defname, "cycle") == 0     ? &o->cycle
                                        : strcmp(d->defname, "owned_by") == 0  ? &o->owned_by
                                                                               : NULL;
        if (!slot)
            return rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, d->location,
                                 "option \"%s\" is not supported by RockLake", d->defname);
        if (*slot || (identity && slot == &o->as))
            return rl_exec_error(x, RL_SQLSTATE_SYNTAX_ERROR, d->location,
                                 "conflicting or redundant options");
        *slot = d;
    }
    return 0;
}

/* init_params: def (the current one, or zeroed for CREATE: init) and the
 * state the sequence will have (*last, *called; restarted: a new state)
 * from the options, with PostgreSQL's checks in its order. */
static int apply_opts(rl_exec *x, const seq_opts *o, bool init, rl_seq_def *def, int64_t *last,
                      bool *called, bool *restarted)
{
    bool reset_max = false, reset_min = false;
    *restarted = false;
    if (o->as) {
        uint32_t oid;
        int32_t typmod;
        if (o->as->arg->node_case != PG_QUERY__NODE__NODE_TYPE_NAME ||
            rl_type_from_typename(x, o->as->arg->type_name, &oid, &typmod) < 0)
            return -1;
        if (oid != RL_OID_INT2 && oid != RL_OID_INT4 && oid != RL_OID_INT8)
            return rl_exec_error(x, RL_SQLSTATE_INVALID_PARAMETER_VALUE, -1,
                                 "sequence type must be smallint, integer, or bigint");
        if (!init) {
            reset_max = def->max == type_max(def->type_bytes);
            reset_min = def->min == type_min(def->type_bytes);
        }
        def->type_bytes = oid == RL_OID_INT2 ? 2 : oid == RL_OID_INT4 ? 4 : 8;
    } else if (init && !def->type_bytes) { /* a serial's: its column's type */
        def->type_bytes = 8;
    }
    if (o->increment) {
        if (opt_int64(x, o->increment, &def->increment) < 0)
            return -1;
        if (def->increment == 0)
            return rl_exec_error(x, RL_SQLSTATE_INVALID_PARAMETER_VALUE, -1,
                                 "INCREMENT must not be zero");
    } else if (init) {
        def->increment = 1;
    }
    if (o->cycle)
        def->cycle = o->cycle->arg && o->cycle->arg->node_case == PG_QUERY__NODE__NODE_BOOLEAN &&
                     o->cycle->arg->boolean->boolval;
    else if (init)
        def->cycle = false;
    if (o->maxvalue && o->maxvalue->arg) {
        if (opt_int64(x, o->maxvalue, &def->max) < 0)
            return -1;
    } else if (init || o->maxvalue || reset_max) {
        def->max = def->increment > 0 || reset_max ? type_max(def->type_bytes) : -1;
    }
    if (def->max < type_min(def->type_bytes) || def->max > type_max(def->type_bytes))
        return rl_exec_error(x, RL_SQLSTATE_INVALID_PARAMETER_VALUE, -1,
                             "MAXVALUE (%" PRId64 ") is out of range for sequence data type %s",
                             def->max, type_name(def->type_bytes));
    if (o->minvalue && o->minvalue->arg) {
        if (opt_int64(x, o->minvalue, &def->min) < 0)
            return -1;
    } else if (init || o->minvalue || reset_min) {
        def->min = def->increment < 0 || reset_min ? type_min(def->type_bytes) : 1;
    }
    if (def->min < type_min(def->type_bytes) || def->min > type_max(def->type_bytes))
        return rl_exec_error(x, RL_SQLSTATE_INVALID_PARAMETER_VALUE, -1,
                             "MINVALUE (%" PRId64 ") is out of range for sequence data type %s",
                             def->min, type_name(def->type_bytes));
    if (def->min >= def->max)
        return rl_exec_error(x, RL_SQLSTATE_INVALID_PARAMETER_VALUE, -1,
                             "MINVALUE (%" PRId64 ") must be less than MAXVALUE (%" PRId64 ")",
                             def->min, def->max);
    if (o->start) {
        if (opt_int64(x, o->start, &def->start) < 0)
            return -1;
    } else if (init) {
        def->start = def->increment > 0 ? def->min : def->max;
    }
    if (def->start < def->min)
        return rl_exec_error(x, RL_SQLSTATE_INVALID_PARAMETER_VALUE, -1,
                             "START value (%" PRId64 ") cannot be less than MINVALUE (%" PRId64
                             ")",
                             def->start, def->min);
    if (def->start > def->max)
        return rl_exec_error(x, RL_SQLSTATE_INVALID_PARAMETER_VALUE, -1,
                             "START value (%" PRId64 ") cannot be greater than MAXVALUE (%" PRId64
                             ")",
                             def->start, def->max);
    if (o->restart) {
        if (o->restart->arg) {
            if (opt_int64(x, o->restart, last) < 0)
                return -1;
        } else {
            *last = def->start;
        }
        *called = false;
        *restarted = true;
    } else if (init) {
        *last = def->start;
        *called = false;
    }
    if (*last < def->min)
        return rl_exec_error(x, RL_SQLSTATE_INVALID_PARAMETER_VALUE, -1,
                             "RESTART value (%" PRId64 ") cannot be less than MINVALUE (%" PRId64
                             ")",
                             *last, def->min);
    if (*last > def->max)
        return rl_exec_error(x, RL_SQLSTATE_INVALID_PARAMETER_VALUE, -1,
                             "RESTART value (%" PRId64
                             ") cannot be greater than MAXVALUE (%" PRId64 ")",
                             *last, def->max);
    if (o->cache) {
        if (opt_int64(x, o->cache, &def->cache) < 0)
            return -1;
        if (def->cache <= 0)
            return rl_exec_error(x, RL_SQLSTATE_INVALID_PARAMETER_VALUE, -1,
                                 "CACHE (%" PRId64 ") must be greater than zero", def->cache);
    } else if (init) {
        def->cache = 1;
    }
    return 0;
}

/* OWNED BY table.column | NONE into def (process_owned_by's checks). */
/* Has table rel (stored or temporary) a column `column`? 0, or -1 with
 * 42703 (or the error of its transaction). */
static int column_exists(rl_exec *x, const rl_relation *rel, const char *column)
{
    rl_txn *t = rel->kind == RL_REL_STORED ? rl_exec_txn(x) : NULL;
    if (rel->kind == RL_REL_STORED && !t)
        return -1;
    size_t nc = t ? rl_txn_table_ncols(t, rel->desc) : rel->temp ? rel->temp->rows->ncols : 0;
    for (size_t i = 0; i < nc; i++)
        if (strcmp(t ? rel->desc->cols[i].name : rel->temp->rows->cols[i].name, column) == 0)
            return 0;
    return rl_exec_error(x, RL_SQLSTATE_UNDEFINED_COLUMN, -1,
                         "column \"%s\" of relation \"%s\" does not exist", column, rel->name);
}

static int apply_owned_by(rl_exec *x, const PgQuery__DefElem *d, const char *seq_schema,
                          rl_seq_def *def)
{
    const PgQuery__List *l =
        d->arg && d->arg->node_case == PG_QUERY__NODE__NODE_LIST ? d->arg->list : NULL;
    size_t n = l ? l->n_items : 0;
    for (size_t i = 0; i < n; i++)
        if (l->items[i]->node_case != PG_QUERY__NODE__NODE_STRING)
            n = 0;
    if (n == 1 && strcmp(l->items[0]->string->sval, "none") == 0) {
        def->owned_table[0] = def->owned_column[0] = '\0';
        return 0;
    }
    if (n < 2 || n > 3) {
        rl_exec_error(x, RL_SQLSTATE_SYNTAX_ERROR, -1, "invalid OWNED BY option");
        rl_error_hint(x->err, "Specify OWNED BY table.column or OWNED BY NONE.");
        return -1;
    }
    const char *tschema = n == 3 ? l->items[0]->string->sval : NULL;
    const char *table = l->items[n - 2]->string->sval;
    const char *column = l->items[n - 1]->string->sval;
    rl_relation rel;
    if (rl_relation_lookup(x, tschema, table, &rel) < 0)
        return -1;
    if (rel.kind != RL_REL_STORED && rel.kind != RL_REL_TEMP) {
        rl_exec_error(x, RL_SQLSTATE_WRONG_OBJECT_TYPE, -1,
                      "sequence cannot be owned by relation \"%s\"", table);
        if (rel.kind == RL_REL_SEQUENCE)
            rl_error_detail(x->err, "This operation is not supported for sequences.");
        return -1;
    }
    if (strcmp(rel.schema, seq_schema) != 0)
        return rl_exec_error(x, RL_SQLSTATE_OBJECT_NOT_IN_PREREQUISITE_STATE, -1,
                             "sequence must be in same schema as table it is linked to");
    if (column_exists(x, &rel, column) < 0)
        return -1;
    rl_str_copy(def->owned_table, sizeof def->owned_table, rel.name);
    rl_str_copy(def->owned_column, sizeof def->owned_column, column);
    return 0;
}

/* ----------------------------------------------------------- statements */

/* The sequence schema.name (pg_temp: the session's temporary one): 1
 * with *f, 0 absent, -1 error. */
static int seq_lookup(rl_exec *x, const char *schema, const char *name, seq_found *f)
{
    memset(f, 0, sizeof *f);
    if (strcmp(schema, "pg_temp") == 0) {
        const rl_temp_seq *q = rl_temp_seq_find(x->s, name);
        if (q)
            found_temp(f, q);
        return q != NULL;
    }
    rl_txn *t = rl_exec_txn(x);
    int rc = t ? rl_txn_get_sequence(t, schema, name, &f->def, x->err) : -1;
    if (rc == 1) {
        rl_str_copy(f->schema, sizeof f->schema, schema);
        rl_str_copy(f->name, sizeof f->name, name);
        f->oid = rl_pgcatalog_rel_oid(schema, name);
        f->found = true;
    }
    return rc;
}

/* Does a relation hold schema.name (CREATE ... IF NOT EXISTS)? 1, 0, -1. */
static int name_taken(rl_exec *x, const char *schema, const char *name)
{
    if (strcmp(schema, "pg_temp") == 0) {
        bool taken = rl_temp_seq_find(x->s, name) != NULL;
        for (const rl_temp_table *t = x->s->temps; t && !taken; t = t->next)
            taken = strcmp(t->name, name) == 0;
        return taken;
    }
    rl_txn *t = rl_exec_txn(x);
    rl_seq_def have;
    rl_error probe;
    memset(&probe, 0, sizeof probe);
    int rc = t ? rl_txn_get_sequence(t, schema, name, &have, x->err) : -1;
    return rc != 0 ? rc : rl_txn_find_table(t, schema, name, &probe) != NULL;
}

/* A new sequence schema.name of def (pg_temp: the session's). */
static int create_new(rl_exec *x, const char *schema, const char *name, rl_seq_def *def)
{
    bool created;
    if (strcmp(schema, "pg_temp") == 0)
        return temp_create(x, name, def, false, &created);
    rl_txn *t = rl_exec_txn(x);
    return t ? rl_txn_create_sequence(t, schema, name, def, false, &created, x->err) : -1;
}

int rl_seq_create(rl_exec *x, const PgQuery__CreateSeqStmt *st)
{
    const PgQuery__RangeVar *rv = st->sequence;
    bool temp = names_temp(rv);
    if (temp && rv->schemaname && rv->schemaname[0] && strcmp(rv->schemaname, "pg_temp") != 0)
        return rl_exec_error(x, RL_SQLSTATE_INVALID_TABLE_DEFINITION, -1,
                             "cannot create temporary relation in non-temporary schema");
    if (strlen(rv->relname) >= 64)
        return rl_exec_error(x, RL_SQLSTATE_NAME_TOO_LONG, -1, "identifier \"%s\" is too long",
                             rv->relname);
    const char *schema = temp ? "pg_temp" : schema_of(rv);
    int known = temp ? 1 : rl_pgcatalog_schema_exists(x, schema);
    if (known <= 0)
        return known < 0 ? -1
                         : rl_exec_error(x, RL_SQLSTATE_INVALID_SCHEMA_NAME, rv->location,
                                         "schema \"%s\" does not exist", schema);
    if (st->if_not_exists) { /* PostgreSQL skips before it looks at the options */
        int taken = name_taken(x, schema, rv->relname);
        if (taken < 0)
            return -1;
        if (taken) {
            rl_exec_notice(x, RL_SQLSTATE_DUPLICATE_TABLE,
                           "relation \"%s\" already exists, skipping",
                   rv->relname);
            return rl_send_complete(x, "CREATE SEQUENCE");
        }
    }
    seq_opts o;
    rl_seq_def def;
    memset(&def, 0, sizeof def);
    int64_t last = 0;
    bool called = false, restarted;
    if (collect_opts(x, st->options, st->n_options, false, &o) < 0 ||
        apply_opts(x, &o, true, &def, &last, &called, &restarted) < 0)
        return -1;
    def.initial = last;
    def.initial_called = called;
    if (create_new(x, schema, rv->relname, &def) < 0)
        return -1;
    if (o.owned_by) {
        seq_found f;
        if (seq_lookup(x, schema, rv->relname, &f) != 1 ||
            apply_owned_by(x, o.owned_by, schema, &f.def) < 0 ||
            seq_put(x, &f, &f.def, false) < 0)
            return -1;
    }
    return rl_send_complete(x, "CREATE SEQUENCE");
}

int rl_seq_create_serial(rl_exec *x, const char *schema, const char *name, const char *table,
                         const char *column, uint8_t type_bytes, PgQuery__Node **options,
                         size_t noptions, uint32_t *oid)
{
    rl_txn *t = rl_exec_txn(x);
    if (!t)
        return -1;
    seq_opts o;
    rl_seq_def def;
    memset(&def, 0, sizeof def);
    def.type_bytes = type_bytes; /* the column's type: its bounds the defaults */
    int64_t last = 0;
    bool called = false, restarted;
    if (collect_opts(x, options, noptions, true, &o) < 0)
        return -1;
    if (!type_bytes) /* init_params: the options read first */
        return rl_exec_error(x, RL_SQLSTATE_INVALID_PARAMETER_VALUE, -1,
                             "identity column type must be smallint, integer, or bigint");
    if (apply_opts(x, &o, true, &def, &last, &called, &restarted) < 0)
        return -1;
    def.initial = last;
    def.initial_called = called;
    rl_str_copy(def.owned_table, sizeof def.owned_table, table);
    rl_str_copy(def.owned_column, sizeof def.owned_column, column);
    if (create_new(x, schema, name, &def) < 0)
        return -1;
    *oid = rl_pgcatalog_rel_oid(schema, name);
    return 0;
}

static int identity_owner(rl_exec *x, const seq_found *f, char table[RL_INDEX_NAME_MAX]);

/* AlterSequence's work on the existing sequence f: the options applied
 * with PostgreSQL's checks, this session's cached values dropped; an
 * OWNED BY of an identity column's sequence is 0A000 but from its ALTER
 * TABLE (for_identity). 0 or -1. */
static int alter_existing(rl_exec *x, seq_found *f, PgQuery__Node **options, size_t noptions,
                          bool for_identity)
{
    rl_seq_def *def = &f->def;
    rl_seq_state now;
    if (seq_state(x, f, &now) < 0)
        return -1;
    seq_opts o;
    int64_t last = now.last_value;
    bool called = now.is_called, restarted;
    if (collect_opts(x, options, noptions, false, &o) < 0 ||
        apply_opts(x, &o, false, def, &last, &called, &restarted) < 0)
        return -1;
    char owner[RL_INDEX_NAME_MAX];
    int identity = o.owned_by && !for_identity ? identity_owner(x, f, owner) : 0;
    if (identity < 0)
        return -1;
    if (identity) {
        rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                      "cannot change ownership of identity sequence");
        rl_error_detail(x->err, "Sequence \"%s\" is linked to table \"%s\".", f->name, owner);
        return -1;
    }
    if (o.owned_by && apply_owned_by(x, o.owned_by, f->schema, def) < 0)
        return -1;
    if (restarted) {
        def->initial = last;
        def->initial_called = called;
    }
    seq_found was = *f; /* the state the log reset is of */
    if (seq_put(x, f, def, restarted) < 0 || (!restarted && seq_log_reset(x, &was) < 0))
        return -1;
    /* PostgreSQL drops this session's cached values (not its currval) */
    rl_seq_cache *e = cache_find(x->s, f->oid);
    if (e)
        e->cached = e->last;
    return 0;
}

int rl_seq_alter(rl_exec *x, const PgQuery__AlterSeqStmt *st)
{
    const PgQuery__RangeVar *rv = st->sequence;
    seq_found f;
    int rc = find_named(x, rv, &f);
    if (rc < 0)
        return -1;
    if (rc == 0) {
        if (!st->missing_ok)
            return rl_exec_error(x, RL_SQLSTATE_UNDEFINED_TABLE, -1,
                                 "relation \"%s\" does not exist", rv->relname);
        rl_exec_notice(x, RL_SQLSTATE_SUCCESSFUL_COMPLETION,
               "relation \"%s\" does not exist, skipping", rv->relname);
        return rl_send_complete(x, "ALTER SEQUENCE");
    }
    if (alter_existing(x, &f, st->options, st->n_options, false) < 0)
        return -1;
    return rl_send_complete(x, "ALTER SEQUENCE");
}

int rl_seq_alter_owned(rl_exec *x, const char *schema, const char *name, PgQuery__Node **options,
                       size_t noptions)
{
    seq_found f;
    int rc = seq_lookup(x, schema, name, &f);
    if (rc == 0)
        return rl_exec_error(x, RL_SQLSTATE_UNDEFINED_TABLE, -1, "relation \"%s\" does not exist",
                             name);
    return rc < 0 ? -1 : alter_existing(x, &f, options, noptions, true);
}

/* The parts of a DROP's object name: schema (NULL: public) and name. */
static int object_name(rl_exec *x, const PgQuery__Node *obj, PgQuery__RangeVar *rv)
{
    const PgQuery__List *l = obj->node_case == PG_QUERY__NODE__NODE_LIST ? obj->list : NULL;
    if (!l || l->n_items < 1 || l->n_items > 2)
        return rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                             "cross-database references are not implemented");
    rv->schemaname = l->n_items == 2 ? l->items[0]->string->sval : NULL;
    rv->relname = l->items[l->n_items - 1]->string->sval;
    rv->location = -1;
    return 0;
}

/* ------------------------------------ column DEFAULTs that call one */

/* The column defaults that call nextval of sequence schema.name (their
 * texts hold its regclass literal; PostgreSQL keeps the dependency by
 * oid): DROP SEQUENCE is 2BP01 with PostgreSQL's detail and hint unless
 * CASCADE, which drops them with its notice; RENAME rewrites their texts
 * to the new name (sql_default.c keeps them; the catalog lists them). */

void rl_seq_regclass_literal(rl_buf *b, const char *schema, const char *name)
{
    char qs[140], qn[140];
    rl_quote_ident(name, qn, sizeof qn);
    rl_buf_put(b, "'", 1);
    if (schema) {
        rl_quote_ident(schema, qs, sizeof qs);
        for (const char *p = qs; *p; p++) /* as a string literal: quotes doubled */
            rl_buf_put(b, p, *p == '\'' ? 2 : 1);
        rl_buf_put(b, ".", 1);
    }
    for (const char *p = qn; *p; p++)
        rl_buf_put(b, p, *p == '\'' ? 2 : 1);
    rl_buf_put_str(b, "'::regclass");
}

/* The two forms a regclass literal of schema.name takes in a stored
 * default (regclassout's: bare where the search path finds it, else
 * qualified), each NUL-ended. */
static void regclass_literals(const char *schema, const char *name, rl_buf *bare, rl_buf *qual)
{
    rl_seq_regclass_literal(bare, NULL, name);
    rl_buf_put_u8(bare, 0);
    rl_seq_regclass_literal(qual, schema, name);
    rl_buf_put_u8(qual, 0);
}

/* text with every `from` replaced by `to`, into out (NUL-ended). */
static void replace_all(const char *text, const char *from, const char *to, rl_buf *out)
{
    size_t fl = strlen(from);
    for (const char *p = text, *hit; *p; p = hit + fl) {
        hit = strstr(p, from);
        if (!hit) {
            rl_buf_put_str(out, p);
            break;
        }
        rl_buf_put(out, p, (size_t)(hit - p));
        rl_buf_put_str(out, to);
    }
    rl_buf_put_u8(out, 0);
}

static bool calls_sequence(const char *expr, const rl_buf *bare, const rl_buf *qual)
{
    return strstr(expr, (const char *)bare->data) || strstr(expr, (const char *)qual->data);
}

/* The temporary table `table`'s default of `column` dropped. */
static void temp_default_drop(rl_session *s, const char *table, const char *column)
{
    for (rl_temp_table *t = s->temps; t; t = t->next) {
        if (strcmp(t->name, table) != 0)
            continue;
        for (rl_temp_default **pp = &t->defaults; *pp; pp = &(*pp)->next)
            if (strcmp((*pp)->column, column) == 0) {
                rl_temp_default *d = *pp;
                *pp = d->next;
                rl_parsed_release(d->parsed);
                free(d->text);
                free(d->pretty);
                free(d);
                return;
            }
    }
}

/* One default that calls a sequence: its table and column, an identity
 * column's ('a' / 'd') or not (0). */
typedef struct calling_default {
    char table[RL_INDEX_NAME_MAX], column[RL_INDEX_NAME_MAX];
    char identity;
} calling_default;

static void calling_put(calling_default *c, const char *table, const char *column, char identity)
{
    rl_str_copy(c->table, sizeof c->table, table);
    rl_str_copy(c->column, sizeof c->column, column);
    c->identity = identity;
}

/* Each default that calls f: a stored sequence's among the catalog's, a
 * temporary one's among the temporary tables' (whose names the stored
 * ones cannot call). *out freed by the caller. */
static int defaults_calling(rl_exec *x, const seq_found *f, calling_default **out, size_t *hits)
{
    rl_buf bare, qual;
    rl_buf_init(&bare, 0);
    rl_buf_init(&qual, 0);
    regclass_literals(f->schema, f->name, &bare, &qual);
    const rl_check_con *c = NULL;
    size_t n = 0;
    rl_txn *txn = f->temp ? NULL : rl_exec_txn(x);
    int rc = !f->temp && (!txn || rl_txn_defaults(txn, &c, &n, NULL, x->err) < 0) ? -1 : 0;
    for (const rl_temp_table *t = f->temp ? x->s->temps : NULL; t; t = t->next)
        for (const rl_temp_default *d = t->defaults; d; d = d->next)
            n++;
    calling_default *gone = rc == 0 ? calloc(n ? n : 1, sizeof *gone) : NULL;
    if (rc == 0 && !gone)
        rc = rl_exec_error(x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    *hits = 0;
    for (size_t i = 0; rc == 0 && c && i < n; i++)
        if (calls_sequence(c[i].def.expr, &bare, &qual))
            calling_put(&gone[(*hits)++], c[i].def.table, c[i].name, c[i].def.identity);
    for (const rl_temp_table *t = f->temp && rc == 0 ? x->s->temps : NULL; t; t = t->next)
        for (const rl_temp_default *d = t->defaults; d; d = d->next)
            if (calls_sequence(d->text, &bare, &qual))
                calling_put(&gone[(*hits)++], t->name, d->column, d->identity);
    rl_buf_free(&bare);
    rl_buf_free(&qual);
    *out = gone;
    return rc;
}

/* Is f an identity column's sequence (its default calls it)? 1 with its
 * table's name, 0, -1. */
static int identity_owner(rl_exec *x, const seq_found *f, char table[RL_INDEX_NAME_MAX])
{
    size_t hits;
    calling_default *calls;
    int rc = defaults_calling(x, f, &calls, &hits);
    for (size_t i = 0; rc == 0 && i < hits; i++)
        if (calls[i].identity) {
            rl_str_copy(table, RL_INDEX_NAME_MAX, calls[i].table);
            rc = 1;
        }
    free(calls);
    return rc;
}

static int defaults_sequence_dropping(rl_exec *x, const seq_found *f, bool cascade)
{
    const char *name = f->name;
    size_t hits;
    calling_default *gone;
    int rc = defaults_calling(x, f, &gone, &hits);
    /* an identity column's sequence is the column's own (an internal
     * dependency): refused even with CASCADE, as PostgreSQL's */
    for (size_t i = 0; rc == 0 && i < hits; i++)
        if (gone[i].identity) {
            rc = rl_exec_error(x, RL_SQLSTATE_DEPENDENT_OBJECTS_STILL_EXIST, -1,
                               "cannot drop sequence %s because column %s of table %s requires "
                               "it",
                               name, gone[i].column, gone[i].table);
            rl_error_hint(x->err, "You can drop column %s of table %s instead.", gone[i].column,
                          gone[i].table);
        }
    rl_buf detail;
    rl_buf_init(&detail, 0);
    for (size_t i = 0; rc == 0 && i < hits; i++)
        /* dependency.c's lines: "drop cascades to X" or "X depends on Y" */
        rl_buf_printf(&detail, "%s%sdefault value for column %s of table %s%s%s",
                      i ? "\n" : "", cascade ? "drop cascades to " : "", gone[i].column,
                      gone[i].table, cascade ? "" : " depends on sequence ",
                      cascade ? "" : name);
    rl_buf_put_u8(&detail, 0);
    if (rc == 0 && hits && !cascade) {
        rl_exec_error(x, RL_SQLSTATE_DEPENDENT_OBJECTS_STILL_EXIST, -1,
                      "cannot drop sequence %s because other objects depend on it", name);
        rl_error_detail(x->err, "%s", (const char *)detail.data);
        rl_error_hint(x->err, "Use DROP ... CASCADE to drop the dependent objects too.");
        rc = -1;
    } else if (rc == 0 && hits) {
        /* PostgreSQL's notice: the one object, or how many with the list */
        rl_error note;
        memset(&note, 0, sizeof note);
        if (hits == 1) {
            rl_error_set(&note, RL_SQLSTATE_SUCCESSFUL_COMPLETION, "%s",
                         (const char *)detail.data);
        } else {
            rl_error_set(&note, RL_SQLSTATE_SUCCESSFUL_COMPLETION,
                         "drop cascades to %zu other objects", hits);
            rl_error_detail(&note, "%s", (const char *)detail.data);
        }
        if (x->sink && x->sink->notice)
            x->sink->notice(x->sink->ctx, &note);
        rl_txn *txn = f->temp ? NULL : rl_exec_txn(x);
        for (size_t i = 0; rc == 0 && i < hits; i++) {
            if (f->temp)
                temp_default_drop(x->s, gone[i].table, gone[i].column);
            else
                rc = !txn ? -1
                          : rl_txn_put_default(txn, f->schema, gone[i].table, gone[i].column,
                                               NULL, NULL, x->err);
        }
    }
    free(gone);
    rl_buf_free(&detail);
    return rc;
}

/* A default rewritten: its texts, its identity flag kept. */
static int put_renamed(rl_txn *txn, const rl_check_con *c, const char *expr, const char *pretty,
                       rl_error *err)
{
    rl_check_def def = c->def;
    def.expr = expr;
    def.pretty = pretty;
    return rl_txn_put_default_def(txn, c->schema, c->name, &def, err);
}

static int defaults_sequence_renamed(rl_exec *x, const char *schema, const char *name,
                                const char *newname)
{
    rl_txn *txn = rl_exec_txn(x);
    const rl_check_con *c;
    size_t n;
    if (!txn || rl_txn_defaults(txn, &c, &n, NULL, x->err) < 0)
        return -1;
    rl_buf ob, oq, nb, nq;
    rl_buf_init(&ob, 0);
    rl_buf_init(&oq, 0);
    rl_buf_init(&nb, 0);
    rl_buf_init(&nq, 0);
    regclass_literals(schema, name, &ob, &oq);
    regclass_literals(schema, newname, &nb, &nq);
    /* collect first: each write rebuilds the registry c points into */
    rl_check_con *hit = calloc(n ? n : 1, sizeof *hit);
    rl_buf *texts = calloc(n ? 2 * n : 1, sizeof *texts);
    size_t nh = 0;
    int rc = hit && texts ? 0 : rl_exec_error(x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    for (size_t i = 0; rc == 0 && i < n; i++) {
        if (!calls_sequence(c[i].def.expr, &ob, &oq))
            continue;
        const char *src[2] = {c[i].def.expr, c[i].def.pretty};
        for (int k = 0; k < 2; k++) {
            rl_buf once;
            rl_buf_init(&once, 0);
            replace_all(src[k], (const char *)oq.data, (const char *)nq.data, &once);
            rl_buf_init(&texts[2 * nh + k], 0);
            replace_all((const char *)once.data, (const char *)ob.data, (const char *)nb.data,
                        &texts[2 * nh + k]);
            rl_buf_free(&once);
        }
        hit[nh++] = c[i];
    }
    for (size_t i = 0; rc == 0 && i < nh; i++)
        rc = texts[2 * i].failed || texts[2 * i + 1].failed
                 ? rl_exec_error(x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory")
                 : put_renamed(txn, &hit[i], (const char *)texts[2 * i].data,
                               (const char *)texts[2 * i + 1].data, x->err);
    for (size_t i = 0; texts && i < 2 * nh; i++)
        rl_buf_free(&texts[i]);
    free(texts);
    free(hit);
    rl_buf_free(&ob);
    rl_buf_free(&oq);
    rl_buf_free(&nb);
    rl_buf_free(&nq);
    return rc;
}

int rl_seq_drop(rl_exec *x, const PgQuery__DropStmt *st)
{
    /* PostgreSQL looks every name up before it drops any */
    for (int pass = 0; pass < 2; pass++) {
        for (size_t i = 0; i < st->n_objects; i++) {
            PgQuery__RangeVar rv = PG_QUERY__RANGE_VAR__INIT;
            if (object_name(x, st->objects[i], &rv) < 0)
                return -1;
            seq_found f;
            int rc = find_named(x, &rv, &f);
            if (rc < 0) {
                if (strcmp(x->err->sqlstate, RL_SQLSTATE_WRONG_OBJECT_TYPE) == 0)
                    rl_error_hint(x->err, "Use DROP TABLE to remove a table.");
                return -1;
            }
            if (rc == 0 && pass == 0 && !st->missing_ok)
                return rl_exec_error(x, RL_SQLSTATE_UNDEFINED_TABLE, -1,
                                     "sequence \"%s\" does not exist", rv.relname);
            if (rc == 0 && pass == 0)
                rl_exec_notice(x, RL_SQLSTATE_SUCCESSFUL_COMPLETION,
                       "sequence \"%s\" does not exist, skipping", rv.relname);
            if (rc == 1 && pass == 1 &&
                (defaults_sequence_dropping(
                     x, &f, st->behavior == PG_QUERY__DROP_BEHAVIOR__DROP_CASCADE) < 0 ||
                 seq_drop(x, &f) < 0))
                return -1;
        }
    }
    return rl_send_complete(x, "DROP SEQUENCE");
}

/* RENAME of the temporary sequence f to newname (42P07 when a temporary
 * relation holds it), the temporary tables' defaults that call it
 * rewritten (parsed again at their next use). */
static int temp_rename(rl_exec *x, const seq_found *f, const char *newname)
{
    if (name_taken(x, "pg_temp", newname))
        return rl_exec_error(x, RL_SQLSTATE_DUPLICATE_TABLE, -1, "relation \"%s\" already exists",
                             newname);
    if (temps_touch(x) < 0)
        return -1;
    rl_temp_seq *q = rl_temp_seq_find(x->s, f->name);
    assert(q);
    /* the same sequence: its currval and cached values go with it */
    uint32_t was = rl_pgcatalog_rel_oid("pg_temp", q->name);
    uint32_t now = rl_pgcatalog_rel_oid("pg_temp", newname);
    rl_seq_cache *e = cache_find(x->s, was);
    if (e)
        e->oid = now;
    if (x->s->last_seq == was)
        x->s->last_seq = now;
    rl_str_copy(q->name, sizeof q->name, newname);
    rl_buf ob, oq, nb, nq;
    rl_buf_init(&ob, 0);
    rl_buf_init(&oq, 0);
    rl_buf_init(&nb, 0);
    rl_buf_init(&nq, 0);
    regclass_literals("pg_temp", f->name, &ob, &oq);
    regclass_literals("pg_temp", newname, &nb, &nq);
    int rc = 0;
    for (rl_temp_table *t = x->s->temps; rc == 0 && t; t = t->next)
        for (rl_temp_default *d = t->defaults; rc == 0 && d; d = d->next) {
            if (!calls_sequence(d->text, &ob, &oq))
                continue;
            rl_buf once, twice;
            rl_buf_init(&once, 0);
            rl_buf_init(&twice, 0);
            replace_all(d->text, (const char *)oq.data, (const char *)nq.data, &once);
            replace_all((const char *)once.data, (const char *)ob.data, (const char *)nb.data,
                        &twice);
            char *text = once.failed || twice.failed ? NULL : strdup((const char *)twice.data);
            rl_buf_free(&once);
            rl_buf_free(&twice);
            if (!text) {
                rc = rl_exec_error(x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
                break;
            }
            free(d->text);
            d->text = text;
            free(d->pretty); /* nextval('...'::regclass) prints the same pretty */
            d->pretty = NULL;
            rl_parsed_release(d->parsed);
            d->parsed = NULL;
            d->expr = NULL;
        }
    rl_buf_free(&ob);
    rl_buf_free(&oq);
    rl_buf_free(&nb);
    rl_buf_free(&nq);
    return rc;
}

int rl_seq_rename(rl_exec *x, const PgQuery__RenameStmt *st, const char *tag)
{
    seq_found f;
    int rc = find_named(x, st->relation, &f);
    if (rc < 0)
        return -1;
    if (rc == 0) {
        if (!st->missing_ok)
            return rl_exec_error(x, RL_SQLSTATE_UNDEFINED_TABLE, st->relation->location,
                                 "relation \"%s\" does not exist", st->relation->relname);
        rl_exec_notice(x, RL_SQLSTATE_SUCCESSFUL_COMPLETION,
                       "relation \"%s\" does not exist, skipping",
               st->relation->relname);
        return rl_send_complete(x, tag);
    }
    if (strlen(st->newname) >= 64)
        return rl_exec_error(x, RL_SQLSTATE_NAME_TOO_LONG, -1, "identifier \"%s\" is too long",
                             st->newname);
    if (f.temp) {
        if (temp_rename(x, &f, st->newname) < 0)
            return -1;
        return rl_send_complete(x, tag);
    }
    if (rl_txn_rename_sequence(rl_exec_txn(x), schema_of(st->relation), st->relation->relname,
                               st->newname, x->err) < 0 ||
        defaults_sequence_renamed(x, schema_of(st->relation), st->relation->relname,
                                    st->newname) < 0)
        return -1;
    return rl_send_complete(x, tag);
}

int rl_seq_drop_owned(rl_exec *x, const char *schema, const char *name)
{
    seq_found f;
    int rc = seq_lookup(x, schema, name, &f);
    if (rc == 0)
        return rl_exec_error(x, RL_SQLSTATE_UNDEFINED_TABLE, -1, "relation \"%s\" does not exist",
                             name);
    return rc < 0 ? -1 : seq_drop(x, &f);
}

/* ------------------------------------------------------------ functions */

/* 42501 for a read-only role (pg_read_all_data reads a sequence, it
 * neither takes nor sets its values), then 25006 in a read-only
 * transaction; a temporary sequence's calls are allowed in both, as
 * PostgreSQL's. */
static int read_only(rl_exec *x, const seq_found *f, const char *fn, int loc)
{
    if (x->s->read_only_role && !f->temp)
        return rl_exec_error(x, RL_SQLSTATE_INSUFFICIENT_PRIVILEGE, -1,
                             "permission denied for sequence %s", f->name);
    if (!x->s->read_only_txn || f->temp)
        return 0;
    return rl_exec_error(x, RL_SQLSTATE_READ_ONLY_SQL_TRANSACTION, -1,
                         "cannot execute %s() in a read-only transaction", fn);
}

int rl_seq_nextval(rl_exec *x, uint32_t oid, int64_t *out, int loc)
{
    seq_found f;
    if (find_by_oid(x, oid, &f, loc) < 0 || read_only(x, &f, "nextval", loc) < 0)
        return -1;
    rl_seq_cache *e = cache_get(x, oid);
    if (!e)
        return -1;
    if (e->id != f.def.id) { /* a RESTART since: the old state's values are gone */
        e->id = f.def.id;
        e->cached = e->last;
    }
    if (e->last_valid && e->last != e->cached) { /* one this session took already */
        e->last += e->increment;
        *out = e->last;
        x->s->last_seq = oid;
        return 0;
    }
    int64_t first, last;
    if (seq_next(x, &f, &first, &last) < 0)
        return -1;
    e->last = first;
    e->cached = last;
    e->increment = f.def.increment;
    e->last_valid = true;
    x->s->last_seq = oid;
    *out = first;
    return 0;
}

static uint32_t oid_of(const rl_value *v) { return (uint32_t)v->d.v.i; }

/* Evaluated for a type only (typing row, Describe): no call may change or
 * read a sequence then; the value is a placeholder of the right type. */
static bool shape_only(const rl_expr_ctx *c) { return c->typing || c->x->describing; }

int rl_fn_nextval(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    int64_t v = 0;
    if (!shape_only(c) && rl_seq_nextval(c->x, oid_of(&a[0]), &v, loc) < 0)
        return -1;
    rl_val_int(out, RL_OID_INT8, v);
    return 0;
}

int rl_fn_currval(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    rl_val_int(out, RL_OID_INT8, 0);
    if (shape_only(c))
        return 0;
    seq_found f;
    if (find_by_oid(c->x, oid_of(&a[0]), &f, loc) < 0)
        return -1;
    rl_seq_cache *e = cache_find(c->x->s, f.oid);
    if (!e || !e->last_valid)
        return rl_exec_error(c->x, RL_SQLSTATE_OBJECT_NOT_IN_PREREQUISITE_STATE, -1,
                             "currval of sequence \"%s\" is not yet defined in this session",
                             f.name);
    out->d.v.i = e->last;
    return 0;
}

int rl_fn_lastval(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    rl_val_int(out, RL_OID_INT8, 0);
    if (shape_only(c))
        return 0;
    rl_seq_cache *e = c->x->s->last_seq ? cache_find(c->x->s, c->x->s->last_seq) : NULL;
    if (!e || !e->last_valid)
        return rl_exec_error(c->x, RL_SQLSTATE_OBJECT_NOT_IN_PREREQUISITE_STATE, -1,
                             "lastval is not yet defined in this session");
    seq_found f;
    if (find_by_oid(c->x, e->oid, &f, loc) < 0) {
        if (strcmp(c->x->err->sqlstate, RL_SQLSTATE_UNDEFINED_TABLE) == 0)
            rl_exec_error(c->x, RL_SQLSTATE_OBJECT_NOT_IN_PREREQUISITE_STATE, -1,
                          "lastval is not yet defined in this session");
        return -1;
    }
    out->d.v.i = e->last;
    return 0;
}

int rl_fn_setval(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    int64_t v = a[1].d.v.i;
    bool called = n < 3 || a[2].d.v.b;
    rl_val_int(out, RL_OID_INT8, v);
    if (shape_only(c))
        return 0;
    rl_exec *x = c->x;
    seq_found f;
    if (find_by_oid(x, oid_of(&a[0]), &f, loc) < 0 || read_only(x, &f, "setval", loc) < 0)
        return -1;
    if (v < f.def.min || v > f.def.max)
        return rl_exec_error(x, RL_SQLSTATE_NUMERIC_VALUE_OUT_OF_RANGE, -1,
                             "setval: value %" PRId64 " is out of bounds for sequence \"%s\" (%"
                             PRId64 "..%" PRId64 ")",
                             v, f.name, f.def.min, f.def.max);
    if (seq_set(x, &f, v, called) < 0)
        return -1;
    rl_seq_cache *e = cache_get(x, f.oid);
    if (!e)
        return -1;
    e->id = f.def.id;
    if (called) {
        e->last = v;
        e->last_valid = true;
        x->s->last_seq = f.oid;
    }
    e->cached = e->last; /* the session's cached values are gone */
    return 0;
}

/* What owner_visit looks for: the sequence OWNED BY schema.table.column. */
typedef struct owner_find {
    const char *schema, *table, *column;
    char found[64];
} owner_find;

static int owner_visit(void *ctx, const char *schema, const char *name, const rl_seq_def *def)
{
    owner_find *o = ctx;
    if (strcmp(schema, o->schema) || strcmp(def->owned_table, o->table) ||
        strcmp(def->owned_column, o->column))
        return 0;
    rl_str_copy(o->found, sizeof o->found, name);
    return 1;
}

int rl_seq_owned_by(rl_exec *x, const char *schema, const char *table, const char *column,
                    char name[64])
{
    owner_find o = {schema, table, column, ""};
    if (strcmp(schema, "pg_temp") == 0) {
        for (const rl_temp_seq *q = x->s->temp_seqs; q && !o.found[0]; q = q->next)
            owner_visit(&o, schema, q->name, &q->def);
        rl_str_copy(name, 64, o.found);
        return o.found[0] != '\0';
    }
    rl_txn *t = rl_exec_txn(x);
    if (!t || rl_txn_list_sequences(t, schema, owner_visit, &o, x->err) < 0)
        return -1;
    rl_str_copy(name, 64, o.found);
    return o.found[0] != '\0';
}

int rl_fn_get_serial_sequence(rl_expr_ctx *c, size_t n, rl_value *a, rl_value *out, int loc)
{
    rl_val_null(out, RL_OID_TEXT);
    if (shape_only(c))
        return 0;
    rl_value rel;
    if (rl_regclass_from_text(c, (const char *)a[0].d.v.s.p, a[0].d.v.s.len, false, &rel, loc) <
        0)
        return -1;
    char qual[200];
    if (rl_pgcatalog_reg_name(c->x, RL_OID_REGCLASS, (uint32_t)rel.d.v.i, qual, sizeof qual) != 1)
        return 0;
    rl_relation r;
    rl_qualified_name q; /* its names as stored ("Mixed Case" unquoted) */
    if (rl_qualified_name_split(qual, strlen(qual), &q) != 1 || q.n < 1 || q.n > 2)
        return 0;
    /* a bare name is the one the search path finds (a temporary table's) */
    bool table_kind = false;
    if (rl_relation_lookup(c->x, q.n == 2 ? q.part[0] : NULL, q.part[q.n - 1], &r) < 0 ||
        !(table_kind = r.kind == RL_REL_STORED || r.kind == RL_REL_TEMP))
        return table_kind ? -1 : 0;
    char col[64];
    snprintf(col, sizeof col, "%.*s", (int)a[1].d.v.s.len, (const char *)a[1].d.v.s.p);
    if (column_exists(c->x, &r, col) < 0)
        return -1;
    char found[64];
    int owned = rl_seq_owned_by(c->x, r.schema, r.name, col, found);
    if (owned <= 0)
        return owned;
    char qs[140], qn[140], buf[300];
    rl_quote_ident(r.schema, qs, sizeof qs);
    rl_quote_ident(found, qn, sizeof qn);
    snprintf(buf, sizeof buf, "%s.%s", qs, qn);
    return rl_val_str_copy(c, out, RL_OID_TEXT, buf, strlen(buf));
}

int rl_seq_row(rl_exec *x, const char *schema, const char *name, rl_value vals[3])
{
    seq_found f;
    rl_seq_state s;
    int rc = seq_lookup(x, schema, name, &f);
    if (rc == 0)
        return rl_exec_error(x, RL_SQLSTATE_UNDEFINED_TABLE, -1, "relation \"%s\" does not exist",
                             name);
    if (rc < 0 || seq_state(x, &f, &s) < 0)
        return -1;
    rl_val_int(&vals[0], RL_OID_INT8, s.last_value);
    rl_val_int(&vals[1], RL_OID_INT8, s.log_cnt);
    rl_val_bool(&vals[2], s.is_called);
    return 0;
}

/* The sequences OWNED BY one table, collected (names) before changing any. */
typedef struct owned_list {
    const char *table;
    char (*names)[64];
    size_t n, cap;
} owned_list;

static int owned_visit(void *ctx, const char *schema, const char *name, const rl_seq_def *def)
{
    owned_list *l = ctx;
    if (strcmp(def->owned_table, l->table) != 0)
        return 0;
    if (l->n == l->cap) {
        size_t cap = l->cap ? l->cap * 2 : 4;
        char(*a)[64] = realloc(l->names, cap * sizeof *a);
        if (!a)
            return -1;
        l->names = a;
        l->cap = cap;
    }
    rl_str_copy(l->names[l->n++], 64, name);
    return 0;
}

int rl_seq_table_changed(rl_exec *x, rl_txn *txn, const char *schema, const char *table,
                         const rl_table_change *ch)
{
    owned_list l = {table, NULL, 0, 0};
    int rc = rl_txn_list_sequences(txn, schema, owned_visit, &l, x->err);
    if (rc != 0 && !x->err->sqlstate[0])
        rl_exec_error(x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    for (size_t i = 0; rc == 0 && i < l.n; i++) {
        rl_seq_def def;
        rc = rl_txn_get_sequence(txn, schema, l.names[i], &def, x->err) == 1 ? 0 : -1;
        if (rc < 0)
            break;
        bool drops = ch->dropped_table ||
                     (ch->dropped_column && strcmp(def.owned_column, ch->dropped_column) == 0);
        if (drops) { /* PostgreSQL drops a sequence with the column that owns it */
            rc = rl_txn_drop_sequence(txn, schema, l.names[i], x->err);
            continue;
        }
        bool moves = ch->new_table ||
                     (ch->old_column && strcmp(def.owned_column, ch->old_column) == 0);
        if (!moves)
            continue;
        if (ch->new_table)
            rl_str_copy(def.owned_table, sizeof def.owned_table, ch->new_table);
        if (ch->old_column && strcmp(def.owned_column, ch->old_column) == 0)
            rl_str_copy(def.owned_column, sizeof def.owned_column, ch->new_column);
        rc = rl_txn_alter_sequence(txn, schema, l.names[i], &def, false, x->err);
    }
    free(l.names);
    return rc < 0 ? -1 : 0;
}
