/*
 * sql_scan.c — relations as the SQL engine sees them once named (names
 * resolve in sql_resolve.c): the column layout of a relation, scans with
 * key-prefix pushdown, EXPLAIN text, the O(1) "latest key" read, and which
 * rows get ctids (numbered in sql_ctid.c). (EXPLAIN ANALYZE's "Keys read"
 * line is added by sql.c from x->keys_read.)
 *
 * Owns:
 *  - scans: a stored table is read with one rl_txn_scan per key prefix chosen
 *    from the WHERE clause's top-level AND-ed `col = const` / `col IN (...)`
 *    conjuncts on the descriptor's leading key fields, each started at a
 *    lower bound when the next key field (an integer) has `col > const` or
 *    `col >= const` (DuckLake's "changes since snapshot S"). The choice only
 *    ever narrows to a superset of the matching rows: the caller applies the
 *    whole WHERE afterwards, so an unsupported shape just means a wider scan;
 *  - row order: a scan of a whole stored table comes in PostgreSQL's heap
 *    order as the descriptor derives it from the rows (desc.h, rl_heap_order):
 *    a row set's rows are sorted once read; a streamed scan (COPY) holds its
 *    consumer's output in a spool (rl_heap_spool) and sends it in that order.
 *    Prefix scans, DML/DDL readers and statements naming ctid stay in key
 *    order;
 *  - ctids of scanned rows: a dynamic table's are its rows' stored
 *    sequence numbers (rl_ctid_for_key), which are its heap order; a full
 *    scan of another table not read yet numbers its rows in key order;
 *    temporary tables' rows carry their own (sql_dml.c); other rows
 *    without keys (pg_catalog) are numbered by position.
 *
 * Invariants: every relation's row set ends with a hidden column "ctid"
 * (RL_OID_TID, attnum RL_CTID_ATTNUM = -1, as PostgreSQL numbers it), which
 * `*` expansion skips. Stored rows carry their primary key (copied into the
 * row set's arena) and ctid in rs->src. Scans count the store keys they read
 * into x->keys_read (EXPLAIN ANALYZE and tests rely on it).
 */
#include <assert.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "pgtype/pgtype.h"
#include "sql/sql_cast.h"
#include "sql/sql_ctid.h"
#include "sql/sql_exec.h"
#include "sql/sql_parse.h"
#include "sql/sql_pgcatalog.h"
#include "sql/sql_relation.h"
#include "sql/sql_scan.h"
#include "sql/sql_seq.h"
#include "sql/sql_timetravel.h"
#include "sql/sql_value.h"

/* Upper bound on the key prefixes one scan may expand to (IN lists on
 * several key fields multiply); beyond it the scan uses fewer fields. */
#define RL_MAX_PREFIXES 4096
#define RL_MAX_CONJUNCTS 64
/* Counter probes before rl_relation_max_key falls back to a full scan. */
#define RL_MAX_KEY_PROBES 64


/* ================================================================ shapes */

static void set_col(rl_colmeta *c, const char *name, const char *rel, uint32_t oid,
                    int32_t typmod, uint32_t table_oid, int16_t attnum)
{
    rl_str_copy(c->name, sizeof c->name, name);
    rl_str_copy(c->rel, sizeof c->rel, rel);
    c->oid = oid;
    c->typmod = typmod;
    c->table_oid = table_oid;
    c->attnum = attnum;
}

rl_rowset *rl_relation_shape(rl_exec *x, const rl_relation *rel, const char *alias)
{
    const char *a = alias && *alias ? alias : rel->name;
    rl_rowset *base = NULL, *rs = NULL;
    size_t n = 0;
    switch (rel->kind) {
    case RL_REL_STORED:
    case RL_REL_TEMP:
        n = rl_relation_ncols(x, rel);
        break;
    case RL_REL_VIRTUAL:
        base = rl_pgcatalog_columns(rel->virtual_id);
        if (!base)
            break;
        n = base->ncols;
        break;
    case RL_REL_SEQUENCE:
        n = 3;
        break;
    }
    if ((rel->kind == RL_REL_VIRTUAL && !base) || !(rs = rl_rowset_new(n + 1))) {
        rl_rowset_free(base);
        rl_exec_error(x, RL_SQLSTATE_INTERNAL_ERROR, -1, "out of memory");
        return NULL;
    }
    static const char *const seq_cols[] = {"last_value", "log_cnt", "is_called"};
    for (size_t i = 0; i < n && rel->kind == RL_REL_SEQUENCE; i++)
        set_col(&rs->cols[i], seq_cols[i], a, i < 2 ? RL_OID_INT8 : RL_OID_BOOL, -1, rel->oid,
                (int16_t)(i + 1));
    for (size_t i = 0; i < n && rel->kind != RL_REL_SEQUENCE; i++) {
        const char *name = base ? base->cols[i].name : NULL;
        uint32_t oid = base ? base->cols[i].oid : 0;
        int32_t typmod = base ? base->cols[i].typmod : -1;
        if (!base)
            rl_relation_col(rel, i, &name, &oid, &typmod);
        set_col(&rs->cols[i], name, a, oid, typmod, rel->oid, (int16_t)(i + 1));
    }
    set_col(&rs->cols[n], "ctid", a, RL_OID_TID, -1, rel->oid, RL_CTID_ATTNUM);
    /* a table's whole row has its row type (a temporary one's too, which
     * no catalog view lists); pg_catalog's stay records, a sequence has
     * none */
    if (rel->kind == RL_REL_STORED || rel->kind == RL_REL_TEMP)
        rs->cols[n].rowtype = rl_rowtype_oid(rel->oid);
    else if (rel->kind == RL_REL_SEQUENCE)
        rs->cols[n].rowtype = RL_ROWTYPE_NONE;
    rl_rowset_free(base);
    return rs;
}

/* ======================================================= prefix choice */

/* The key prefixes a scan reads: nprefix rows of nfields key-field values,
 * in key order without duplicates. nfields == 0 is a full scan. */
typedef struct key_choice {
    size_t nfields;
    size_t nprefix;
    rl_datum *fields; /* nprefix * nfields */
    rl_arena arena;   /* string values */
    bool has_lower;   /* key field `nfields` starts at `lower` in every prefix */
    rl_datum lower;
} key_choice;

static void key_choice_free(key_choice *kc)
{
    free(kc->fields);
    rl_arena_free(&kc->arena);
    memset(kc, 0, sizeof *kc);
}

static void collect_conjuncts(const PgQuery__Node *n, const PgQuery__Node **out, size_t *cnt)
{
    if (!n)
        return;
    if (n->node_case == PG_QUERY__NODE__NODE_BOOL_EXPR &&
        n->bool_expr->boolop == PG_QUERY__BOOL_EXPR_TYPE__AND_EXPR) {
        for (size_t i = 0; i < n->bool_expr->n_args; i++)
            collect_conjuncts(n->bool_expr->args[i], out, cnt);
        return;
    }
    if (*cnt < RL_MAX_CONJUNCTS)
        out[(*cnt)++] = n;
}

/* Does `n` name column `col` of this relation? Unqualified names are taken
 * to be ours when we have such a column (PostgreSQL would otherwise have
 * reported them ambiguous or bound them to us as the innermost scope).
 * alias NULL (EXPLAIN of a single-relation FROM) accepts any qualifier. */
static bool is_column(const PgQuery__Node *n, const char *col, const char *alias,
                      const char *relname)
{
    if (!n || n->node_case != PG_QUERY__NODE__NODE_COLUMN_REF)
        return false;
    const PgQuery__ColumnRef *cr = n->column_ref;
    if (cr->n_fields < 1 || cr->n_fields > 3)
        return false;
    const char *last = rl_node_string(cr->fields[cr->n_fields - 1]);
    if (!last || strcmp(last, col) != 0)
        return false;
    if (cr->n_fields == 1)
        return true;
    const char *qual = rl_node_string(cr->fields[cr->n_fields - 2]);
    return qual && (!alias || strcmp(qual, alias) == 0 || strcmp(qual, relname) == 0);
}

static bool is_constant(const PgQuery__Node *n)
{
    if (!n)
        return false;
    switch (n->node_case) {
    case PG_QUERY__NODE__NODE_A_CONST:
    case PG_QUERY__NODE__NODE_PARAM_REF:
        return true;
    case PG_QUERY__NODE__NODE_TYPE_CAST:
        return is_constant(n->type_cast->arg);
    default:
        return false;
    }
}

/* Would comparing a value of type `oid` with a key column of type `t`
 * compare as the key does? Only then may the value pick a prefix: e.g.
 * int8_col = 5.5 compares numerically and matches nothing, but coercing 5.5
 * to int8 would round it to 6. */
static bool key_compatible(uint32_t oid, rl_type t)
{
    if (oid == RL_OID_UNKNOWN)
        return true;
    if (t == RL_T_INT8)
        return oid == RL_OID_INT8 || oid == RL_OID_INT4 || oid == RL_OID_INT2;
    return oid == RL_OID_VARCHAR || oid == RL_OID_TEXT;
}

/* Evaluate a constant and coerce it to the key column's type. 1 = usable
 * (out->isnull when it is NULL, which matches nothing), 0 = not usable. Any
 * evaluation error is swallowed: the caller's WHERE reports it properly. */
static int key_value(rl_exec *x, rl_arena *arena, const PgQuery__Node *n, rl_type t,
                     rl_datum *out)
{
    rl_error saved = x->err ? *x->err : (rl_error){0};
    rl_expr_ctx c = {.x = x, .b = NULL, .agg = NULL, .arena = arena};
    rl_value v, o;
    int ok = 0;
    if (rl_const_eval(&c, n, &v) == 0) {
        if (v.d.isnull) {
            out->isnull = true;
            ok = 1;
        } else if (key_compatible(v.oid, t) &&
                   rl_value_coerce(&c, &v, rl_type_oid(t), -1, false, &o, -1) == 0 &&
                   rl_value_own(arena, &o) == 0) {
            *out = o.d;
            ok = 1;
        }
    }
    if (x->err)
        *x->err = saved;
    return ok;
}

typedef struct field_vals {
    size_t n;
    rl_datum *v;
} field_vals;

static rl_type g_sort_type; /* qsort has no context argument in C17 */

static int datum_qsort_cmp(const void *a, const void *b)
{
    return rl_datum_compare(g_sort_type, a, b);
}

/* Sort, drop NULLs (they match nothing) and duplicates. */
static void normalize_vals(field_vals *fv, rl_type t)
{
    size_t k = 0;
    for (size_t i = 0; i < fv->n; i++)
        if (!fv->v[i].isnull)
            fv->v[k++] = fv->v[i];
    fv->n = k;
    g_sort_type = t;
    qsort(fv->v, fv->n, sizeof *fv->v, datum_qsort_cmp);
    k = 0;
    for (size_t i = 0; i < fv->n; i++)
        if (k == 0 || rl_datum_compare(t, &fv->v[k - 1], &fv->v[i]) != 0)
            fv->v[k++] = fv->v[i];
    fv->n = k;
}

/* Values for column `col` from one conjunct: 1 with *fv filled, 0 if the
 * conjunct does not constrain it usably, -1 out of memory. */
static int conjunct_values(rl_exec *x, rl_arena *arena, const PgQuery__Node *n,
                           const char *col, rl_type t, const char *alias, const char *relname,
                           field_vals *fv)
{
    if (n->node_case != PG_QUERY__NODE__NODE_A_EXPR)
        return 0;
    const PgQuery__AExpr *e = n->a_expr;
    if (e->n_name != 1 || !rl_node_string(e->name[0]) || strcmp(rl_node_string(e->name[0]), "=") != 0)
        return 0;
    if (e->kind == PG_QUERY__A__EXPR__KIND__AEXPR_OP) {
        const PgQuery__Node *c = NULL;
        if (is_column(e->lexpr, col, alias, relname) && is_constant(e->rexpr))
            c = e->rexpr;
        else if (is_column(e->rexpr, col, alias, relname) && is_constant(e->lexpr))
            c = e->lexpr;
        if (!c)
            return 0;
        rl_datum v;
        memset(&v, 0, sizeof v);
        if (!key_value(x, arena, c, t, &v))
            return 0;
        if (!(fv->v = malloc(sizeof *fv->v)))
            return -1;
        fv->v[0] = v;
        fv->n = 1;
        return 1;
    }
    if (e->kind != PG_QUERY__A__EXPR__KIND__AEXPR_IN || !is_column(e->lexpr, col, alias, relname) ||
        !e->rexpr || e->rexpr->node_case != PG_QUERY__NODE__NODE_LIST)
        return 0;
    const PgQuery__List *l = e->rexpr->list;
    if (l->n_items == 0 || l->n_items > RL_MAX_PREFIXES)
        return 0;
    for (size_t i = 0; i < l->n_items; i++)
        if (!is_constant(l->items[i]))
            return 0;
    if (!(fv->v = calloc(l->n_items, sizeof *fv->v)))
        return -1;
    fv->n = l->n_items;
    for (size_t i = 0; i < l->n_items; i++)
        if (!key_value(x, arena, l->items[i], t, &fv->v[i])) {
            free(fv->v);
            fv->v = NULL;
            fv->n = 0;
            return 0;
        }
    return 1;
}

/* A lower bound on integer key column `col` from one conjunct: `col > c`,
 * `col >= c`, `c < col` or `c <= col`, as the first value the column may
 * take. 1 with *out, 0 if the conjunct gives none. */
static int conjunct_lower_bound(rl_exec *x, rl_arena *arena, const PgQuery__Node *n,
                                const char *col, const char *alias, const char *relname,
                                int64_t *out)
{
    if (n->node_case != PG_QUERY__NODE__NODE_A_EXPR)
        return 0;
    const PgQuery__AExpr *e = n->a_expr;
    if (e->kind != PG_QUERY__A__EXPR__KIND__AEXPR_OP || e->n_name != 1 || !rl_node_string(e->name[0]))
        return 0;
    const char *op = rl_node_string(e->name[0]);
    bool col_left = is_column(e->lexpr, col, alias, relname) && is_constant(e->rexpr);
    bool col_right = is_column(e->rexpr, col, alias, relname) && is_constant(e->lexpr);
    bool strict;
    if ((col_left && strcmp(op, ">") == 0) || (col_right && strcmp(op, "<") == 0))
        strict = true;
    else if ((col_left && strcmp(op, ">=") == 0) || (col_right && strcmp(op, "<=") == 0))
        strict = false;
    else
        return 0;
    rl_datum v;
    memset(&v, 0, sizeof v);
    if (!key_value(x, arena, col_left ? e->rexpr : e->lexpr, RL_T_INT8, &v) || v.isnull)
        return 0;
    if (strict && v.v.i == INT64_MAX)
        return 0; /* nothing matches; the WHERE says so */
    *out = strict ? v.v.i + 1 : v.v.i;
    return 1;
}

/* The highest lower bound the conjuncts put on integer key field `k`. */
static void choose_lower_bound(rl_exec *x, const rl_relation *rel, const char *alias,
                               const PgQuery__Node *const *conj, size_t nconj, size_t k,
                               key_choice *kc)
{
    const rl_table_desc *d = rel->desc;
    if (k >= d->nkey || d->key[k] == RL_KEY_SEQ || d->cols[d->key[k]].type != RL_T_INT8)
        return;
    const char *col = d->cols[d->key[k]].name;
    for (size_t i = 0; i < nconj; i++) {
        int64_t b;
        if (conjunct_lower_bound(x, &kc->arena, conj[i], col, alias, rel->name, &b) &&
            (!kc->has_lower || b > kc->lower.v.i)) {
            kc->has_lower = true;
            memset(&kc->lower, 0, sizeof kc->lower);
            kc->lower.v.i = b;
        }
    }
}

/* The key fields a range scan starts at: one prefix's fields, then the
 * lower bound. Fills and returns `from` (RL_MAX_KEY_FIELDS + 1 entries). */
static const rl_datum *range_start(const key_choice *kc, const rl_datum *prefix, rl_datum *from)
{
    if (kc->nfields)
        memcpy(from, prefix, kc->nfields * sizeof *from);
    from[kc->nfields] = kc->lower;
    return from;
}

/* Fill kc->fields with the cartesian product of per-field values, in key
 * order (each field's values are sorted, so lexicographic = key order). */
static int expand_prefixes(key_choice *kc, const field_vals *fv, size_t nfields)
{
    size_t total = 1;
    for (size_t i = 0; i < nfields; i++)
        total *= fv[i].n;
    kc->nfields = nfields;
    kc->nprefix = total; /* no fields: one empty prefix, the full scan */
    if (total == 0 || nfields == 0)
        return 0;
    if (!(kc->fields = calloc(total * nfields, sizeof *kc->fields)))
        return -1;
    for (size_t p = 0; p < total; p++) {
        size_t rest = p;
        for (size_t i = nfields; i-- > 0;) {
            kc->fields[p * nfields + i] = fv[i].v[rest % fv[i].n];
            rest /= fv[i].n;
        }
    }
    return 0;
}

/* Choose the key prefixes for a stored relation. -1 only on out of memory. */
static int choose_prefixes(rl_exec *x, const rl_relation *rel, const char *alias,
                           const PgQuery__Node *where, key_choice *kc)
{
    memset(kc, 0, sizeof *kc);
    const rl_table_desc *d = rel->desc;
    const PgQuery__Node *conj[RL_MAX_CONJUNCTS];
    size_t nconj = 0;
    collect_conjuncts(where, conj, &nconj);
    field_vals fv[RL_MAX_KEY_FIELDS];
    memset(fv, 0, sizeof fv);
    size_t nfields = 0, product = 1;
    int rc = 0;
    for (size_t k = 0; k < d->nkey && nconj > 0; k++) {
        if (d->key[k] == RL_KEY_SEQ)
            break;
        const rl_column_desc *col = &d->cols[d->key[k]];
        int got = 0;
        for (size_t i = 0; i < nconj && got == 0; i++)
            got = conjunct_values(x, &kc->arena, conj[i], col->name, col->type, alias,
                                  rel->name, &fv[k]);
        if (got < 0) {
            rc = -1;
            break;
        }
        if (got == 0)
            break;
        normalize_vals(&fv[k], col->type);
        if (fv[k].n && product * fv[k].n > RL_MAX_PREFIXES) {
            free(fv[k].v);
            fv[k].v = NULL;
            break;
        }
        product *= fv[k].n ? fv[k].n : 1;
        nfields++;
        if (fv[k].n == 0)
            break; /* only NULLs: nothing can match, no need to look further */
    }
    /* A statement that names ctid numbers the rows it reads in first-seen
     * order (rl_ctid_for_key): it reads from the prefix's start, as before
     * ranges, so that its numbers stay those of key order. */
    bool empty = nfields && fv[nfields - 1].n == 0;
    if (rc == 0 && !empty && !rl_exec_uses_ctids(x))
        choose_lower_bound(x, rel, alias, conj, nconj, nfields, kc);
    if (rc == 0)
        rc = expand_prefixes(kc, fv, nfields);
    for (size_t k = 0; k < RL_MAX_KEY_FIELDS; k++)
        free(fv[k].v);
    if (rc < 0) {
        key_choice_free(kc);
        rl_exec_error(x, RL_SQLSTATE_INTERNAL_ERROR, -1, "out of memory");
    }
    return rc;
}

/* ============================================================ heap order */

/* PostgreSQL returns the rows of a scan without ORDER BY in heap order:
 * insertion order, with an UPDATEd row's new version at the end. DuckLake
 * and tools reading its tables straight see that order, so a scan of the
 * whole table (no key prefix: kc->nfields == 0) puts the rows in the order
 * the descriptor's heap_order derives from the rows (desc.h); a prefix scan
 * stays in key order, which within a parent mostly already is insertion
 * order. A statement that names ctid keeps key order, the order of its ctid
 * numbering. Every row has to be seen before the first can go out: a row
 * set sorts the rows it holds; a streamed scan (COPY) is read in key order
 * while its consumer's output is held in a spool, which sends it in heap
 * order at the end (the output is a quarter of the bytes of the rows'
 * values, and needs no second pass). Sorting merges the runs that already
 * are in order, so a catalog whose key order is its write order, as most
 * are, costs one pass over the ranks and nothing is moved. */
static bool heap_ordered(rl_exec *x, const rl_relation *rel, const key_choice *kc,
                         rl_scan_order order)
{
    return order == RL_SCAN_HEAP && rel->kind == RL_REL_STORED &&
           rel->desc->heap_order != RL_HEAP_KEY && kc->nfields == 0 && !rl_exec_uses_ctids(x);
}

bool rl_relation_heap_ordered(rl_exec *x, const rl_relation *rel, const char *alias,
                              const PgQuery__Node *where)
{
    if (rel->kind != RL_REL_STORED || rel->desc->heap_order == RL_HEAP_KEY)
        return false;
    key_choice kc;
    if (choose_prefixes(x, rel, alias && *alias ? alias : rel->name, where, &kc) < 0)
        return false; /* the scan itself reports the error */
    bool heap = heap_ordered(x, rel, &kc, RL_SCAN_HEAP);
    key_choice_free(&kc);
    return heap;
}

/* A row's place in heap order; idx (its place in key order) breaks ties. */
typedef struct heap_rank {
    int64_t first;    /* last-write snapshot, or the heap column */
    uint32_t written; /* last write: 0 = closed at `first`, 1 = written then */
    uint32_t idx;
    int64_t then;     /* last write: the heap column, if any */
} heap_rank;

static int64_t int_or_min(const rl_datum *v)
{
    return v && !v->isnull ? v->v.i : INT64_MIN;
}

/* When each file (ducklake_data_file, ducklake_delete_file: ids from the
 * snapshots' next_file_id) was inserted, as the snapshots show it: the
 * commit that allocated id is the first snapshot whose counter is past it.
 * A file's begin_snapshot is not always when it was written: flushing
 * inlined data and merging files insert files that begin at older
 * snapshots, and PostgreSQL's heap has them where they were written.
 * Snapshots are ascending and so are their counters. (Schemas and tables
 * are only ever inserted at their begin_snapshot; the map costs a scan of
 * the snapshots, so it is loaded only for a whole-table read of files that
 * has rows to order.) */
typedef struct insert_map {
    struct insert_at {
        int64_t snap, next; /* snapshot id, its counter */
    } *at;
    size_t n, cap;
} insert_map;

static void insert_map_free(insert_map *m)
{
    free(m->at);
    memset(m, 0, sizeof *m);
}

/* The map for d (empty when d's ids do not come from a snapshot counter). */
static int insert_map_load(rl_exec *x, const rl_table_desc *d, insert_map *m)
{
    memset(m, 0, sizeof *m);
    const char *counter = d->counter_col >= 0 && d->counter_col == d->heap_col ? d->counter : NULL;
    const rl_table_desc *files = rl_desc_by_name("ducklake_data_file", RL_FMT_LATEST);
    const char *col = counter && files && files->counter && strcmp(counter, files->counter) == 0
                          ? "next_file_id" /* the counter data files take their ids from */
                          : NULL;
    rl_txn *t = col ? rl_exec_txn(x) : NULL;
    if (!t)
        return col ? -1 : 0;
    const rl_table_desc *sd = rl_desc_by_name("ducklake_snapshot", RL_FMT_LATEST);
    int c = sd ? rl_desc_column_index(sd, col, rl_txn_format(t)) : -1;
    rl_scan *sc = c >= 0 ? rl_txn_scan(t, sd, NULL, 0, x->err) : NULL;
    if (!sc)
        return c >= 0 ? -1 : 0;
    const rl_row *row;
    int rc;
    while ((rc = rl_scan_next(sc, &row, x->err)) == 1) {
        if (row->vals[0].isnull || row->vals[c].isnull)
            continue;
        struct insert_at *grown = rl_array_reserve(m->at, m->n, &m->cap, sizeof *grown, 64);
        if (!grown) {
            rc = rl_exec_error(x, RL_SQLSTATE_INTERNAL_ERROR, -1, "out of memory");
            break;
        }
        m->at = grown;
        m->at[m->n++] = (struct insert_at){row->vals[0].v.i, row->vals[c].v.i};
    }
    rl_scan_free(sc);
    if (rc < 0)
        insert_map_free(m);
    return rc < 0 ? -1 : 0;
}

/* The earliest snapshot id could have been inserted at: just after the last
 * snapshot whose counter had not reached it (with no snapshot missing, the
 * one that allocated it); INT64_MIN when no snapshot says. */
static int64_t inserted_after(const insert_map *m, int64_t id)
{
    size_t lo = 0, hi = m->n;
    while (lo < hi) { /* first snapshot whose counter is past id */
        size_t mid = lo + (hi - lo) / 2;
        if (m->at[mid].next > id)
            hi = mid;
        else
            lo = mid + 1;
    }
    return lo == 0 || lo == m->n ? INT64_MIN : m->at[lo - 1].snap + 1;
}

/* From the row's begin_snapshot, end_snapshot and heap column (each NULL
 * when the descriptor has none). A row whose end_snapshot differs from its
 * begin was UPDATEd at end_snapshot; one written with both equal (DuckLake
 * 1.1's closed partition rows) was inserted so; any other was inserted at
 * begin_snapshot (or later: ranks_adjust_inserted). */
static heap_rank heap_rank_of(const rl_table_desc *d, const rl_datum *begin, const rl_datum *end,
                              const rl_datum *col, uint32_t idx)
{
    heap_rank r = {.idx = idx};
    if (d->heap_order == RL_HEAP_BY_COLUMN) {
        r.first = int_or_min(col);
        return r;
    }
    bool closed = end && !end->isnull && int_or_min(begin) != end->v.i;
    r.first = closed ? end->v.i : int_or_min(begin);
    r.written = !closed;
    r.then = col ? int_or_min(col) : 0;
    return r;
}

/* Rows inserted later than their begin_snapshot (insert_map) ranked where
 * they were written. 0, or -1 with x's error. */
static int ranks_adjust_inserted(rl_exec *x, const rl_table_desc *d, heap_rank *r, size_t n)
{
    if (n < 2 || d->heap_order != RL_HEAP_LAST_WRITE)
        return 0;
    insert_map m;
    if (insert_map_load(x, d, &m) < 0)
        return -1;
    for (size_t i = 0; i < n && m.n; i++) {
        if (!r[i].written || r[i].then == INT64_MIN)
            continue;
        int64_t at = inserted_after(&m, r[i].then);
        if (at > r[i].first)
            r[i].first = at;
    }
    insert_map_free(&m);
    return 0;
}

static const rl_datum *col_of(const rl_datum *vals, int col)
{
    return col >= 0 ? &vals[col] : NULL;
}

static const rl_datum *value_col(const rl_value *row, int col)
{
    return col >= 0 ? &row[col].d : NULL;
}

static bool rank_less(const heap_rank *a, const heap_rank *b)
{
    if (a->first != b->first)
        return a->first < b->first;
    if (a->written != b->written)
        return a->written < b->written;
    if (a->then != b->then)
        return a->then < b->then;
    return a->idx < b->idx;
}

/* End of the run of ranks in order that starts at i. */
static size_t run_end(const heap_rank *r, size_t i, size_t n)
{
    while (++i < n && !rank_less(&r[i], &r[i - 1]))
        ;
    return i;
}

static void merge_runs(const heap_rank *in, size_t lo, size_t mid, size_t hi, heap_rank *out)
{
    size_t i = lo, j = mid, o = lo;
    while (i < mid && j < hi)
        out[o++] = rank_less(&in[j], &in[i]) ? in[j++] : in[i++];
    while (i < mid)
        out[o++] = in[i++];
    while (j < hi)
        out[o++] = in[j++];
}

/* Sort r[0..n) by merging neighbouring runs until one is left: O(n) when
 * the ranks already are in order, O(n log runs) in general. Returns where
 * the sorted ranks are (r or *scratch), NULL when out of memory. *scratch
 * (n ranks, the caller frees it) stays NULL when the ranks already were in
 * order: they come in key order and idx breaks ties, so then the rows stay
 * where they are. */
static const heap_rank *sort_ranks(heap_rank *r, size_t n, heap_rank **scratch)
{
    *scratch = NULL;
    if (run_end(r, 0, n) >= n)
        return r;
    heap_rank *tmp = *scratch = malloc(n * sizeof *tmp);
    if (!tmp)
        return NULL;
    do {
        for (size_t lo = 0; lo < n;) {
            size_t mid = run_end(r, lo, n), hi = mid < n ? run_end(r, mid, n) : n;
            merge_runs(r, lo, mid, hi, tmp);
            lo = hi;
        }
        heap_rank *t = r;
        r = tmp;
        tmp = t;
    } while (run_end(r, 0, n) < n);
    return r;
}

/* ------------------------------------------------- a row set's own rows */

/* Put rs's rows (a whole stored table, in key order) in heap order. */
static int rowset_heap_sort(rl_exec *x, const rl_table_desc *d, rl_rowset *rs)
{
    size_t n = rs->nrows, nc = rs->ncols;
    if (n < 2 || n > UINT32_MAX)
        return 0;
    heap_rank *ranks = malloc(n * sizeof *ranks), *scratch = NULL;
    if (!ranks)
        return rl_exec_error(x, RL_SQLSTATE_INTERNAL_ERROR, -1, "out of memory");
    for (size_t i = 0; i < n; i++) {
        const rl_value *row = rl_rowset_row(rs, i);
        ranks[i] = heap_rank_of(d, value_col(row, d->begin_col), value_col(row, d->end_col),
                                value_col(row, d->heap_col), (uint32_t)i);
    }
    if (ranks_adjust_inserted(x, d, ranks, n) < 0) {
        free(ranks);
        return -1;
    }
    const heap_rank *r = sort_ranks(ranks, n, &scratch);
    if (r && !scratch) { /* already in heap order */
        free(ranks);
        return 0;
    }
    rl_value *vals = r ? malloc(n * nc * sizeof *vals) : NULL;
    rl_rowsrc *src = vals && rs->src ? malloc(n * sizeof *src) : NULL;
    if (!vals || (rs->src && !src)) {
        free(ranks);
        free(scratch);
        free(vals);
        return rl_exec_error(x, RL_SQLSTATE_INTERNAL_ERROR, -1, "out of memory");
    }
    for (size_t i = 0; i < n; i++) {
        memcpy(&vals[i * nc], rl_rowset_row(rs, r[i].idx), nc * sizeof *vals);
        if (src)
            src[i] = rs->src[r[i].idx];
    }
    free(ranks);
    free(scratch);
    free(rs->vals);
    rs->vals = vals;
    rs->caprows = n;
    if (src) {
        free(rs->src);
        rs->src = src;
    }
    return 0;
}

/* -------------------------------------------------- a streamed scan's spool */

/* Where one row's output is: [start, end) of chunk `chunk`. */
typedef struct spool_span {
    uint32_t chunk;
    uint32_t start, end;
} spool_span;

/* The output is kept in the chunks the consumer filled (each about
 * RL_STREAM_CHUNK bytes of whole rows, handed over as they fill): nothing
 * is copied while holding, and a scan whose rows are already in heap order
 * sends the chunks as they are. */
struct rl_heap_spool {
    rl_exec *x;
    const rl_table_desc *d;
    rl_buf *chunks;    /* full chunks; the stream's *out is the one being filled */
    size_t nchunks, capchunks, held;
    spool_span *spans;
    heap_rank *ranks;
    size_t n, cap;
};

rl_heap_spool *rl_heap_spool_new(rl_exec *x, const rl_table_desc *d)
{
    rl_heap_spool *sp = calloc(1, sizeof *sp);
    if (!sp) {
        rl_exec_error(x, RL_SQLSTATE_INTERNAL_ERROR, -1, "out of memory");
        return NULL;
    }
    *sp = (rl_heap_spool){.x = x, .d = d};
    return sp;
}

void rl_heap_spool_free(rl_heap_spool *sp)
{
    if (!sp)
        return;
    for (size_t i = 0; i < sp->nchunks; i++)
        rl_buf_free(&sp->chunks[i]);
    free(sp->chunks);
    free(sp->spans);
    free(sp->ranks);
    free(sp);
}

size_t rl_heap_spool_bytes(const rl_heap_spool *sp) { return sp->held; }

/* Room for one more row. */
static int spool_reserve(rl_heap_spool *sp)
{
    if (sp->n < sp->cap)
        return 0;
    size_t cap = sp->cap ? 2 * sp->cap : 256;
    spool_span *spans = realloc(sp->spans, cap * sizeof *spans);
    if (spans)
        sp->spans = spans;
    heap_rank *ranks = spans && cap <= UINT32_MAX ? realloc(sp->ranks, cap * sizeof *ranks) : NULL;
    if (!ranks)
        return rl_exec_error(sp->x, RL_SQLSTATE_INTERNAL_ERROR, -1, "out of memory");
    sp->ranks = ranks;
    sp->cap = cap;
    return 0;
}

/* Take the filled *out as a chunk and give the consumer a fresh buffer. */
static int spool_take_chunk(rl_heap_spool *sp, rl_buf *out)
{
    rl_buf *grown = rl_array_reserve(sp->chunks, sp->nchunks, &sp->capchunks, sizeof *grown, 64);
    if (!grown || sp->nchunks >= UINT32_MAX)
        return rl_exec_error(sp->x, RL_SQLSTATE_INTERNAL_ERROR, -1, "out of memory");
    sp->chunks = grown;
    sp->chunks[sp->nchunks++] = *out;
    rl_buf_init(out, out->limit);
    rl_buf_reserve(out, RL_STREAM_CHUNK + RL_STREAM_CHUNK / 8); /* a failure is sticky */
    return 0;
}

int rl_heap_spool_add(rl_heap_spool *sp, const rl_row *row, rl_buf *out, size_t start)
{
    if (out->failed)
        return rl_exec_error(sp->x, RL_SQLSTATE_INTERNAL_ERROR, -1, "out of memory");
    if (spool_reserve(sp) < 0 || out->len > UINT32_MAX)
        return -1;
    const rl_datum *v = row->vals;
    sp->ranks[sp->n] = heap_rank_of(sp->d, col_of(v, sp->d->begin_col), col_of(v, sp->d->end_col),
                                    col_of(v, sp->d->heap_col), (uint32_t)sp->n);
    sp->spans[sp->n++] = (spool_span){(uint32_t)sp->nchunks, (uint32_t)start, (uint32_t)out->len};
    sp->held += out->len - start;
    return out->len >= RL_STREAM_CHUNK ? spool_take_chunk(sp, out) : 0;
}

static const rl_buf *spool_chunk(const rl_heap_spool *sp, const rl_buf *out, size_t i)
{
    return i < sp->nchunks ? &sp->chunks[i] : out;
}

/* The full chunks in the order they were written (key order); the one
 * being filled stays in *out. */
static int spool_send_as_written(const rl_heap_spool *sp, const rl_row_stream *st)
{
    for (size_t i = 0; i < sp->nchunks; i++)
        if (sp->chunks[i].len && st->send(st->ctx, sp->chunks[i].data, sp->chunks[i].len) < 0)
            return -1;
    return 0;
}

/* Append what the consumer wrote after the last row (nothing, so far). */
static void spool_put_tail(const rl_heap_spool *sp, const rl_buf *out, rl_buf *piece)
{
    const spool_span *last = &sp->spans[sp->n - 1];
    for (size_t i = last->chunk; i <= sp->nchunks; i++) {
        const rl_buf *c = spool_chunk(sp, out, i);
        size_t from = i == last->chunk ? last->end : 0;
        rl_buf_put(piece, c->data + from, c->len - from);
    }
}

/* The rows' output gathered in heap order into pieces of about
 * RL_STREAM_CHUNK bytes, after what the consumer wrote before the first row
 * (a header); the last piece, with what came after the last row, becomes
 * *out. */
static int spool_send_sorted(const rl_heap_spool *sp, const heap_rank *r,
                             const rl_row_stream *st)
{
    const rl_buf *c0 = spool_chunk(sp, st->out, 0);
    rl_buf piece;
    rl_buf_init(&piece, st->out->limit);
    rl_buf_reserve(&piece, RL_STREAM_CHUNK + RL_STREAM_CHUNK / 8);
    rl_buf_put(&piece, c0->data, sp->spans[0].start);
    int rc = 0;
    for (size_t i = 0; i < sp->n && rc == 0; i++) {
        const spool_span *s = &sp->spans[r[i].idx];
        rl_buf_put(&piece, spool_chunk(sp, st->out, s->chunk)->data + s->start, s->end - s->start);
        if (piece.len >= RL_STREAM_CHUNK && !piece.failed) {
            rc = st->send(st->ctx, piece.data, piece.len);
            rl_buf_reset(&piece);
        }
    }
    spool_put_tail(sp, st->out, &piece);
    if (rc == 0 && piece.failed)
        rc = rl_exec_error(sp->x, RL_SQLSTATE_INTERNAL_ERROR, -1, "out of memory");
    rl_buf_free(st->out);
    *st->out = piece;
    return rc;
}

int rl_heap_spool_send(rl_heap_spool *sp, const rl_row_stream *st, bool as_written)
{
    int rc;
    heap_rank *scratch = NULL;
    if (!as_written && ranks_adjust_inserted(sp->x, sp->d, sp->ranks, sp->n) < 0)
        return -1;
    const heap_rank *r = sp->n && !as_written ? sort_ranks(sp->ranks, sp->n, &scratch) : NULL;
    if (sp->n && !as_written && !r)
        rc = rl_exec_error(sp->x, RL_SQLSTATE_INTERNAL_ERROR, -1, "out of memory");
    else if (!scratch)
        rc = spool_send_as_written(sp, st);
    else
        rc = spool_send_sorted(sp, r, st);
    free(scratch);
    for (size_t i = 0; i < sp->nchunks; i++)
        rl_buf_free(&sp->chunks[i]);
    sp->nchunks = sp->n = sp->held = 0;
    return rc;
}

/* ================================================================= scans */

/* Only a statement that names ctid can see or use one (a SELECT of it, a
 * DML ctid predicate), so rows of the others get no number: numbering is a
 * hash-map insert per row, a sizeable part of a large scan. Numbers stay
 * stable within the transaction for the statements that do use them. */
bool rl_exec_uses_ctids(rl_exec *x)
{
    if (x->ctids == 0)
        x->ctids = !x->sql || strcasestr(x->sql, "ctid") ? 1 : -1;
    return x->ctids > 0;
}

static int add_stored_row(rl_exec *x, rl_rowset *rs, const rl_table_desc *d, size_t ncols,
                          const rl_row *row)
{
    rl_value vals[RL_MAX_COLUMNS + 1];
    for (size_t i = 0; i < ncols; i++) {
        vals[i].oid = rl_type_oid(d->cols[i].type);
        vals[i].typmod = -1;
        vals[i].d = row->vals[i];
    }
    uint64_t ctid = 0;
    if (rl_exec_uses_ctids(x) &&
        (ctid = rl_ctid_for_key(x->s, d, row->key, row->klen)) == 0)
        return rl_exec_error(x, RL_SQLSTATE_INTERNAL_ERROR, -1, "out of memory");
    vals[ncols] = rl_tid_value(ctid);
    rl_rowsrc src = {.key = row->key, .klen = row->klen, .ctid = ctid};
    return rl_rowset_add(rs, vals, &src, x->err);
}

/* The rows of the chosen prefixes, in key order. */
static int scan_key_order(rl_exec *x, const rl_relation *rel, const key_choice *kc,
                          rl_stored_row_fn fn, void *ctx)
{
    rl_txn *t = rl_exec_txn(x);
    if (!t)
        return -1;
    int rc = 0;
    uint64_t n = 0;
    for (size_t p = 0; p < kc->nprefix && rc == 0; p++) {
        const rl_datum *prefix = kc->fields ? &kc->fields[p * kc->nfields] : NULL;
        rl_scan *sc = rl_txn_scan(t, rel->desc, prefix, kc->nfields, x->err);
        if (!sc)
            return -1;
        if (kc->has_lower) {
            rl_datum from[RL_MAX_KEY_FIELDS + 1];
            rc = rl_scan_seek(sc, range_start(kc, prefix, from), kc->nfields + 1, x->err);
        }
        const rl_row *row;
        while (rc == 0 && (rc = rl_scan_next(sc, &row, x->err)) == 1) {
            if ((++n & 1023) == 0 && rl_exec_check_cancel(x) < 0)
                rc = -1;
            else
                rc = fn(ctx, row);
        }
        x->keys_read += rl_scan_keys_read(sc);
        rl_scan_free(sc);
    }
    return rc < 0 ? -1 : 0;
}

int rl_relation_scan_each(rl_exec *x, const rl_relation *rel, const char *alias,
                          const PgQuery__Node *where, rl_stored_row_fn fn, void *ctx)
{
    key_choice kc;
    if (choose_prefixes(x, rel, alias && *alias ? alias : rel->name, where, &kc) < 0)
        return -1;
    int rc = scan_key_order(x, rel, &kc, fn, ctx);
    key_choice_free(&kc);
    return rc;
}

/* `col <= const` (or `const >= col`) on a column that is not a key field,
 * as a WHERE's only conjunct: 1 with *col and *bound, else 0. */
static int only_upper_bound(rl_exec *x, const rl_relation *rel, const char *alias,
                            const PgQuery__Node *where, rl_arena *arena, int *col,
                            rl_datum *bound)
{
    const PgQuery__Node *conj[RL_MAX_CONJUNCTS];
    size_t nconj = 0;
    collect_conjuncts(where, conj, &nconj);
    if (nconj != 1 || conj[0]->node_case != PG_QUERY__NODE__NODE_A_EXPR)
        return 0;
    const PgQuery__AExpr *e = conj[0]->a_expr;
    const char *op = e->n_name == 1 ? rl_node_string(e->name[0]) : NULL;
    if (e->kind != PG_QUERY__A__EXPR__KIND__AEXPR_OP || !op)
        return 0;
    /* the column's side and the constant's, by the operator */
    bool le = strcmp(op, "<=") == 0;
    if (!le && strcmp(op, ">=") != 0)
        return 0;
    const PgQuery__Node *colref = le ? e->lexpr : e->rexpr, *c = le ? e->rexpr : e->lexpr;
    if (!is_constant(c))
        return 0;
    const rl_table_desc *d = rel->desc;
    size_t ncols = rl_relation_ncols(x, rel);
    for (size_t i = 0; i < ncols; i++) {
        if (rl_desc_col_in_key(d, (int)i) || !is_column(colref, d->cols[i].name, alias, rel->name))
            continue;
        if (!key_value(x, arena, c, d->cols[i].type, bound) || bound->isnull)
            return 0;
        *col = (int)i;
        return 1;
    }
    return 0;
}

int rl_relation_check_retained(rl_exec *x, const rl_relation *rel, const char *alias,
                               const PgQuery__Node *where, const bool *reads)
{
    if (rel->kind != RL_REL_STORED || !rl_timetravel_applies(rel->desc))
        return 0;
    const char *a = alias && *alias ? alias : rel->name;
    key_choice kc;
    if (choose_prefixes(x, rel, a, where, &kc) < 0)
        return -1;
    rl_timetravel_probe p = {.upper_col = -1, .reads = reads};
    if (kc.nprefix == 1 && kc.nfields > 0 && !kc.has_lower && kc.fields) {
        p.key = kc.fields;
        p.nkey = kc.nfields;
    } else {
        only_upper_bound(x, rel, a, where, &kc.arena, &p.upper_col, &p.upper);
    }
    int rc = rl_timetravel_check(x, rel->desc, &p);
    key_choice_free(&kc);
    return rc;
}

typedef struct stored_into {
    rl_exec *x;
    rl_rowset *rs;
    const rl_table_desc *d;
    size_t ncols;
} stored_into;

static int add_scanned_row(void *ctx, const rl_row *row)
{
    stored_into *si = ctx;
    return add_stored_row(si->x, si->rs, si->d, si->ncols, row);
}

/* Into a row set, which holds every row anyway: read in key order, then
 * sort the rows themselves when the scan is to be in heap order. */
static int scan_stored(rl_exec *x, const rl_relation *rel, const char *alias,
                       const PgQuery__Node *where, rl_scan_order order, rl_rowset *rs)
{
    key_choice kc;
    if (choose_prefixes(x, rel, alias, where, &kc) < 0)
        return -1;
    stored_into si = {x, rs, rel->desc, rl_relation_ncols(x, rel)};
    int rc = scan_key_order(x, rel, &kc, add_scanned_row, &si);
    if (rc == 0 && heap_ordered(x, rel, &kc, order))
        rc = rowset_heap_sort(x, rel->desc, rs);
    key_choice_free(&kc);
    return rc;
}

/* Copy rows of `from` (without a ctid column) into rs, adding a ctid from
 * the row index (temp tables and catalog views have no stored key). */
static int copy_rows(rl_exec *x, rl_rowset *from, rl_rowset *rs)
{
    size_t n = from->ncols;
    rl_value *vals = calloc(n + 1, sizeof *vals);
    if (!vals)
        return rl_exec_error(x, RL_SQLSTATE_INTERNAL_ERROR, -1, "out of memory");
    int rc = 0;
    for (size_t r = 0; r < from->nrows && rc == 0; r++) {
        memcpy(vals, rl_rowset_row(from, r), n * sizeof *vals);
        /* a temporary table's rows carry their ctids (sql_dml.c) */
        uint64_t ctid = from->src ? from->src[r].ctid : rl_ctid_of_index(r);
        vals[n] = rl_tid_value(ctid);
        rl_rowsrc src = {.key = NULL, .klen = 0, .ctid = ctid};
        rc = rl_rowset_add(rs, vals, &src, x->err);
    }
    free(vals);
    return rc;
}

/* The one row of a sequence (SELECT * FROM s), at ctid (0,1). */
static int sequence_row(rl_exec *x, const rl_relation *rel, rl_rowset *rs)
{
    rl_value vals[4];
    if (rl_seq_row(x, rel->schema, rel->name, vals) < 0)
        return -1;
    vals[3] = rl_tid_value(rl_ctid_of_index(0));
    rl_rowsrc src = {.key = NULL, .klen = 0, .ctid = rl_ctid_of_index(0)};
    return rl_rowset_add(rs, vals, &src, x->err);
}

rl_rowset *rl_relation_scan(rl_exec *x, const rl_relation *rel, const char *alias,
                            const PgQuery__Node *where, rl_scan_order order)
{
    rl_rowset *rs = rl_relation_shape(x, rel, alias);
    return rs ? rl_relation_fill(x, rel, alias, where, order, NULL, NULL, rs) : NULL;
}

rl_rowset *rl_relation_fill(rl_exec *x, const rl_relation *rel, const char *alias,
                            const PgQuery__Node *where, rl_scan_order order,
                            const rl_scan_keys *keys, const rl_row_filter *filter,
                            rl_rowset *rs)
{
    const char *a = alias && *alias ? alias : rel->name;
    int rc;
    if (rel->kind == RL_REL_STORED)
        rc = scan_stored(x, rel, a, where, order, rs);
    else if (rel->kind == RL_REL_TEMP)
        rc = copy_rows(x, rel->temp->rows, rs);
    else if (rel->kind == RL_REL_SEQUENCE)
        rc = sequence_row(x, rel, rs);
    else
        rc = rl_pgcatalog_fill(x, rel->virtual_id, keys, filter, rs);
    if (rc == 0 && filter && rel->kind != RL_REL_VIRTUAL)
        rc = rl_rowset_filter(rs, filter);
    if (rc < 0) {
        rl_rowset_free(rs);
        return NULL;
    }
    return rs;
}

/* ============================================================== max key */

/* Does a row with first key field `id` exist in this transaction's view?
 * 1 yes (and *found = id), 0 no, -1 error. Counts keys read. */
static int probe_first_field(rl_exec *x, rl_txn *t, const rl_table_desc *d, int64_t id)
{
    rl_datum f;
    memset(&f, 0, sizeof f);
    f.v.i = id;
    if (d->nkey == 1) {
        const rl_row *row;
        x->keys_read++;
        return rl_txn_get(t, d, &f, &row, x->err);
    }
    rl_scan *sc = rl_txn_scan(t, d, &f, 1, x->err);
    if (!sc)
        return -1;
    const rl_row *row;
    int rc = rl_scan_next(sc, &row, x->err);
    x->keys_read += rl_scan_keys_read(sc);
    rl_scan_free(sc);
    return rc;
}

/* The last row of a full scan has the largest first key field. */
static int max_by_scan(rl_exec *x, rl_txn *t, const rl_table_desc *d, bool *found, int64_t *max)
{
    rl_scan *sc = rl_txn_scan(t, d, NULL, 0, x->err);
    if (!sc)
        return -1;
    const rl_row *row;
    int rc;
    *found = false;
    while ((rc = rl_scan_next(sc, &row, x->err)) == 1) {
        *found = true;
        *max = row->vals[d->key[0]].v.i;
    }
    x->keys_read += rl_scan_keys_read(sc);
    rl_scan_free(sc);
    return rc;
}

/* The counter is the latest committed id + 1 (raised in the same batch as
 * the row), and this transaction's snapshot is no newer than that, so the
 * visible maximum is at or just below counter - 1. Walking down a few ids
 * covers commits that happened after our snapshot; a transaction with its
 * own buffered writes may hold ids above the counter, so it scans. */
int rl_relation_max_key(rl_exec *x, const rl_relation *rel, rl_value *out)
{
    const rl_table_desc *d = rel->desc;
    if (rel->kind != RL_REL_STORED || !d || !d->counter || d->nkey < 1 ||
        d->counter_col != d->key[0] || d->cols[d->key[0]].type != RL_T_INT8)
        return 0;
    rl_txn *t = rl_exec_txn(x);
    if (!t)
        return -1;
    memset(out, 0, sizeof *out);
    out->oid = RL_OID_INT8;
    out->typmod = -1;
    out->d.isnull = true;
    bool found = false;
    int64_t max = 0;
    if (rl_txn_pending(t) == 0) {
        uint64_t counter = rl_catalog_counter(x->s->eng->cat, d->counter);
        uint64_t lowest = counter > RL_MAX_KEY_PROBES ? counter - RL_MAX_KEY_PROBES : 0;
        for (uint64_t id = counter; id > lowest && !found; id--) {
            int rc = probe_first_field(x, t, d, (int64_t)(id - 1));
            if (rc < 0)
                return -1;
            if (rc == 1) {
                found = true;
                max = (int64_t)(id - 1);
            }
        }
        if (!found && lowest == 0) /* every id the counter ever handed out was probed */
            return 1;
    }
    if (!found && max_by_scan(x, t, d, &found, &max) < 0)
        return -1;
    if (found) {
        out->d.isnull = false;
        out->d.v.i = max;
    }
    return 1;
}

/* =============================================================== explain */

static void explain_keys(rl_buf *out, const rl_table_desc *d, const key_choice *kc,
                         const char *what, const char *whats)
{
    rl_buf_printf(out, " (tag 0x%02x, ", d->tag);
    if (kc->nprefix != 1)
        rl_buf_printf(out, "%zu %s: ", kc->nprefix, whats);
    else
        rl_buf_printf(out, "%s ", what);
    for (size_t p = 0; p < kc->nprefix && p < 8; p++) {
        if (p)
            rl_buf_put_str(out, ", ");
        rl_scan_start_hex(out, d, &kc->fields[p * kc->nfields], kc->nfields);
    }
    if (kc->nprefix > 8)
        rl_buf_put_str(out, ", ...");
    rl_buf_put_str(out, ")");
}

/* " (tag 0xNN, from <first key>)": where the first prefix's scan starts;
 * ", in heap order" when the rows are sorted so before they go out. */
static void explain_range(rl_buf *out, const rl_table_desc *d, const key_choice *kc, bool heap)
{
    rl_datum from[RL_MAX_KEY_FIELDS + 1];
    rl_buf hex;
    rl_buf_init(&hex, 0);
    rl_buf_printf(out, " (tag 0x%02x", d->tag);
    if (kc->nprefix > 1)
        rl_buf_printf(out, ", %zu prefixes", kc->nprefix);
    if (rl_scan_start_hex(&hex, d, range_start(kc, kc->fields, from), kc->nfields + 1) &&
        !hex.failed) {
        rl_buf_put_str(out, ", from ");
        rl_buf_put(out, hex.data, hex.len);
    }
    rl_buf_put_str(out, heap ? ", in heap order)" : ")");
    rl_buf_free(&hex);
}

static void explain_stored(rl_exec *x, const rl_relation *rel, const PgQuery__Node *where,
                           rl_buf *out)
{
    const rl_table_desc *d = rel->desc;
    key_choice kc;
    if (choose_prefixes(x, rel, NULL, where, &kc) < 0) {
        rl_buf_printf(out, "Full Scan on %s", rel->name);
        return;
    }
    bool heap = heap_ordered(x, rel, &kc, RL_SCAN_HEAP);
    if (kc.has_lower) {
        rl_buf_printf(out, "Range Scan on %s", rel->name);
        explain_range(out, d, &kc, heap);
    } else if (kc.nfields == 0) {
        rl_buf_printf(out, "Full Scan on %s", rel->name);
        if (d->dyn_id)
            rl_buf_printf(out, " (dynamic table %llu)", (unsigned long long)d->dyn_id);
        else
            rl_buf_printf(out, " (tag 0x%02x%s)", d->tag, heap ? ", in heap order" : "");
    } else if (kc.nfields == d->nkey) {
        rl_buf_printf(out, "Point Read on %s", rel->name);
        explain_keys(out, d, &kc, "key", "keys");
    } else {
        rl_buf_printf(out, "Prefix Scan on %s", rel->name);
        explain_keys(out, d, &kc, "prefix", "prefixes");
    }
    key_choice_free(&kc);
}

void rl_relation_explain(rl_exec *x, const rl_relation *rel, const PgQuery__Node *where,
                         rl_buf *out)
{
    switch (rel->kind) {
    case RL_REL_STORED:
        explain_stored(x, rel, where, out);
        break;
    case RL_REL_TEMP:
        rl_buf_printf(out, "Seq Scan on %s (temporary table)", rel->name);
        break;
    case RL_REL_VIRTUAL:
        rl_buf_printf(out, "Catalog View %s.%s", rel->schema, rel->name);
        break;
    case RL_REL_SEQUENCE:
        rl_buf_printf(out, "Seq Scan on %s", rel->name);
        break;
    }
}
