/*
 * sql_events.h — the comparison core shared by the SQL differential tests
 * (test_sql_corpus.c, test_sql_diff.c).
 *
 * Owns: reducing one side of a statement's answer (PostgreSQL's recorded or
 * live answer, or the RockLake engine's sink callbacks) to a list of event
 * strings that compare with strcmp once volatile values are masked:
 *   "T name:oid:typlen:typmod ..."   RowDescription (table oid/attnum dropped;
 *                                    a type oid of the database's own, a
 *                                    table's row type or its array type, is
 *                                    "user": see USER_TYPE_OID)
 *   "D 'v' NULL <masked> ..."         DataRow, text values
 *   "row x'..' 'text' ..."            one tuple of a binary COPY TO STDOUT
 *   "C tag" "E sqlstate" "N sqlstate" "I" "H/G format=f ncols=n" "c" "1"
 *   "t oids" "n" "Z status"            (a parameter of a database's own type:
 *                                    "user", as a column's)
 * Rows of one result are sorted (compared as a multiset) for every COPY and
 * for text results with a volatile column or when the side asks for it.
 * Invariant: both sides of a comparison go through the same ev_* functions,
 * so a difference in the strings is a difference on the wire.
 */
#ifndef ROCKLAKE_SQL_EVENTS_H
#define ROCKLAKE_SQL_EVENTS_H

#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <pg_query.h>
#include <pg_query/pg_query.pb-c.h>

#include "sql/sql.h"

#define MAX_COLS 64
#define EVENT_SHOW 400 /* characters of an event printed in a diff */

/* ------------------------------------------------------------ helpers */

static inline void *xmalloc(size_t n)
{
    void *p = malloc(n ? n : 1);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    return p;
}

static inline void *xrealloc(void *p, size_t n)
{
    p = realloc(p, n ? n : 1);
    if (!p) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    return p;
}

static inline char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(xmalloc(n), s, n);
}

/* A growable list of owned strings. */
typedef struct strlist {
    char **v;
    size_t n, cap;
} strlist;

static inline void sl_push(strlist *l, char *owned)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 16;
        l->v = xrealloc(l->v, l->cap * sizeof *l->v);
    }
    l->v[l->n++] = owned;
}

static inline void sl_pushf(strlist *l, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static inline void sl_pushf(strlist *l, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    char *s = NULL;
    if (vasprintf(&s, fmt, ap) < 0) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    va_end(ap);
    sl_push(l, s);
}

static inline void sl_clear(strlist *l)
{
    for (size_t i = 0; i < l->n; i++)
        free(l->v[i]);
    l->n = 0;
}

static inline void sl_free(strlist *l)
{
    sl_clear(l);
    free(l->v);
    l->v = NULL;
    l->cap = 0;
}

static inline int cmp_strp(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

static inline bool sl_contains_prefix(const strlist *l, const char *prefix)
{
    for (size_t i = 0; i < l->n; i++)
        if (strncmp(l->v[i], prefix, strlen(prefix)) == 0)
            return true;
    return false;
}

/* Append a value as a readable, unambiguous token: 'text' with C escapes
 * when it is printable, x'hex' otherwise. */
static inline void put_value(rl_buf *b, const uint8_t *p, size_t len, bool text)
{
    bool printable = text;
    for (size_t i = 0; printable && i < len; i++)
        if (p[i] < 0x20 && p[i] != '\n' && p[i] != '\t')
            printable = false;
    if (!text && len > 0) {
        printable = true;
        for (size_t i = 0; i < len; i++)
            if (p[i] < 0x20 || p[i] > 0x7e)
                printable = false;
    }
    if (printable) {
        rl_buf_put_u8(b, '\'');
        for (size_t i = 0; i < len; i++) {
            if (p[i] == '\'' || p[i] == '\\')
                rl_buf_put_u8(b, '\\');
            if (p[i] == '\n')
                rl_buf_put_str(b, "\\n");
            else if (p[i] == '\t')
                rl_buf_put_str(b, "\\t");
            else
                rl_buf_put_u8(b, p[i]);
        }
        rl_buf_put_u8(b, '\'');
    } else {
        rl_buf_put_str(b, "x'");
        for (size_t i = 0; i < len; i++)
            rl_buf_printf(b, "%02x", p[i]);
        rl_buf_put_u8(b, '\'');
    }
}

static inline char *buf_cstr(rl_buf *b)
{
    rl_buf_put_u8(b, 0);
    size_t len;
    char *s = (char *)rl_buf_steal(b, &len);
    if (!s) {
        fprintf(stderr, "out of memory\n");
        exit(2);
    }
    return s;
}

/* Big-endian readers over a payload with bounds checking. */
typedef struct rd {
    const uint8_t *p;
    size_t len, off;
    bool bad;
} rd;

static inline uint32_t rd_u32(rd *r)
{
    if (r->off + 4 > r->len) {
        r->bad = true;
        return 0;
    }
    const uint8_t *p = r->p + r->off;
    r->off += 4;
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static inline uint16_t rd_u16(rd *r)
{
    if (r->off + 2 > r->len) {
        r->bad = true;
        return 0;
    }
    const uint8_t *p = r->p + r->off;
    r->off += 2;
    return (uint16_t)(p[0] << 8 | p[1]);
}

static inline uint8_t rd_u8(rd *r)
{
    if (r->off + 1 > r->len) {
        r->bad = true;
        return 0;
    }
    return r->p[r->off++];
}

static inline const char *rd_str(rd *r)
{
    const char *s = (const char *)r->p + r->off;
    size_t n = strnlen(s, r->len - r->off);
    if (r->off + n >= r->len) {
        r->bad = true;
        return "";
    }
    r->off += n + 1;
    return s;
}

/* ------------------------------------------------- statement analysis */

/* What the harness needs to know about a COPY (SELECT ...) TO STDOUT: the
 * names of its output columns (to find volatile ones) and its table. */
typedef struct stmtinfo {
    size_t ncols;
    char names[MAX_COLS][64];
    char relname[64];
    int ctid_col;        /* index of the ctid column or -1 */
    int snapid_col, snaptime_col;
    bool loose;          /* rows depend on the replay's wall clock */
} stmtinfo;

static inline void target_name(const PgQuery__ResTarget *rt, char *out, size_t n)
{
    snprintf(out, n, "?");
    if (rt->name && rt->name[0]) {
        snprintf(out, n, "%s", rt->name);
        return;
    }
    const PgQuery__Node *v = rt->val;
    if (v && v->node_case == PG_QUERY__NODE__NODE_COLUMN_REF && v->column_ref->n_fields > 0) {
        const PgQuery__Node *last = v->column_ref->fields[v->column_ref->n_fields - 1];
        if (last->node_case == PG_QUERY__NODE__NODE_STRING)
            snprintf(out, n, "%s", last->string->sval);
    }
}

static inline void analyze_copy(const PgQuery__CopyStmt *cs, stmtinfo *si)
{
    if (cs->is_from || !cs->query || cs->query->node_case != PG_QUERY__NODE__NODE_SELECT_STMT)
        return;
    const PgQuery__SelectStmt *sel = cs->query->select_stmt;
    for (size_t i = 0; i < sel->n_target_list && si->ncols < MAX_COLS; i++) {
        const PgQuery__Node *t = sel->target_list[i];
        if (t->node_case != PG_QUERY__NODE__NODE_RES_TARGET)
            continue;
        char *name = si->names[si->ncols];
        target_name(t->res_target, name, sizeof si->names[0]);
        if (strcmp(name, "ctid") == 0)
            si->ctid_col = (int)si->ncols;
        if (strcmp(name, "snapshot_id") == 0)
            si->snapid_col = (int)si->ncols;
        if (strcmp(name, "snapshot_time") == 0)
            si->snaptime_col = (int)si->ncols;
        si->ncols++;
    }
    if (sel->n_from_clause > 0 && sel->from_clause[0]->node_case == PG_QUERY__NODE__NODE_RANGE_VAR)
        snprintf(si->relname, sizeof si->relname, "%s", sel->from_clause[0]->range_var->relname);
}

static inline void analyze_sql(const char *sql, stmtinfo *si)
{
    memset(si, 0, sizeof *si);
    si->ctid_col = si->snapid_col = si->snaptime_col = -1;
    si->loose = strstr(sql, "\"snapshot_time\" <") != NULL;
    PgQueryProtobufParseResult pr = pg_query_parse_protobuf(sql);
    if (!pr.error) {
        PgQuery__ParseResult *res = pg_query__parse_result__unpack(
            NULL, pr.parse_tree.len, (const uint8_t *)pr.parse_tree.data);
        if (res && res->n_stmts == 1 && res->stmts[0]->stmt &&
            res->stmts[0]->stmt->node_case == PG_QUERY__NODE__NODE_COPY_STMT)
            analyze_copy(res->stmts[0]->stmt->copy_stmt, si);
        if (res)
            pg_query__parse_result__free_unpacked(res, NULL);
    }
    pg_query_free_protobuf_parse_result(pr);
}

/* ---------------------------------------------------- event recording */

/* One side (expected = PostgreSQL's recorded answer, actual = the engine)
 * of an exchange, reduced to event strings. */
typedef struct side {
    strlist ev;
    bool strict_errors;      /* every error's message, detail and position compared */
    rl_session *sess;        /* the engine's side: prints reg* values by name */
    const stmtinfo *si;      /* COPY statement info of this exchange */
    /* current text result set */
    size_t ncols;
    char colname[MAX_COLS][64];
    uint32_t coloid[MAX_COLS];
    bool sort_rows;
    bool sort_all;           /* every result is a multiset (no ORDER BY) */
    bool copy_in_order;      /* COPY TO rows compared in the order sent, not
                                as a multiset (a scan's row order under test) */
    strlist rows;            /* pending rows, flushed at the end of the result */
    size_t rows_dropped;     /* rows of the current result left out (temp_namespace_row) */
    /* COPY TO STDOUT */
    bool in_copy;
    int copy_fmt;
    rl_buf copy;
    /* ctid scans: (key, tid) of every tuple; snapshot scans: (id, time) */
    strlist tid_keys;
    uint64_t *tids;
    size_t ntids;
    size_t nmsgs;            /* backend messages (expected side) */
} side;

static inline void side_init(side *s)
{
    memset(s, 0, sizeof *s);
    rl_buf_init(&s->copy, 0);
}

static inline void side_reset(side *s, const stmtinfo *si)
{
    sl_clear(&s->ev);
    sl_clear(&s->rows);
    sl_clear(&s->tid_keys);
    s->ntids = 0;
    s->si = si;
    s->ncols = 0;
    s->sort_rows = false;
    s->in_copy = false;
    rl_buf_reset(&s->copy);
    s->nmsgs = 0;
}

static inline void side_free(side *s)
{
    sl_free(&s->ev);
    sl_free(&s->rows);
    sl_free(&s->tid_keys);
    free(s->tids);
    rl_buf_free(&s->copy);
}

static inline void flush_rows(side *s)
{
    if (s->si && s->si->loose && s->rows.n > 0) {
        sl_pushf(&s->ev, "rows: (not compared: depend on the replay time)");
        sl_clear(&s->rows);
        return;
    }
    if (s->sort_rows && s->rows.n > 1) /* rows.v is NULL while nothing was pushed */
        qsort(s->rows.v, s->rows.n, sizeof *s->rows.v, cmp_strp);
    for (size_t i = 0; i < s->rows.n; i++)
        sl_push(&s->ev, s->rows.v[i]);
    s->rows.n = 0; /* ownership moved to ev */
}

static inline bool volatile_text_col(const char *name, uint32_t oid)
{
    return oid == RL_OID_OID || oid == RL_OID_TID || strcmp(name, "relpages") == 0 ||
           strcmp(name, "version") == 0 ||
           strcmp(name, "snapshot_time") == 0 || strcmp(name, "schedule_start") == 0 ||
           strcmp(name, "now") == 0;
}

/* PostgreSQL numbers the types a database makes (a table's row type and
 * its array type) from FirstNormalObjectId as it creates them, RockLake by
 * the table's oid (sql_value.h): such a column's type compares as "user"
 * (the cases' pg_typeof tells t from t[]). */
#define USER_TYPE_OID 16384u

/* One parameter type of a ParameterDescription ("t" event), a database's
 * own type as "user" like a column's. */
static inline void ev_param_oid(rl_buf *b, uint32_t oid)
{
    if (oid >= USER_TYPE_OID)
        rl_buf_put_str(b, " user");
    else
        rl_buf_printf(b, " %u", oid);
}

static inline void ev_rowdesc(side *s, size_t n, const char *const *names, const uint32_t *oids,
                       const int16_t *typlens, const int32_t *typmods)
{
    flush_rows(s);
    rl_buf b;
    rl_buf_init(&b, 0);
    rl_buf_put_str(&b, "T");
    s->ncols = n < MAX_COLS ? n : MAX_COLS;
    s->sort_rows = s->sort_all;
    for (size_t i = 0; i < n; i++) {
        if (oids[i] >= USER_TYPE_OID)
            rl_buf_printf(&b, " %s:user:%d:%d", names[i], typlens[i], typmods[i]);
        else
            rl_buf_printf(&b, " %s:%u:%d:%d", names[i], oids[i], typlens[i], typmods[i]);
        if (i < MAX_COLS) {
            snprintf(s->colname[i], sizeof s->colname[i], "%s", names[i]);
            s->coloid[i] = oids[i];
            if (volatile_text_col(names[i], oids[i]))
                s->sort_rows = true;
        }
    }
    sl_push(&s->ev, buf_cstr(&b));
}

/* PostgreSQL lists pg_temp_N / pg_toast_temp_N in pg_namespace from the first
 * temporary table any session created on (DuckDB's UPDATE does), RockLake
 * the session's own only, numbered otherwise: a documented deviation
 * (docs/sql-support.md), so such rows are left out of every answer before
 * comparing. */
static inline bool temp_namespace_row(const side *s, size_t n, const uint8_t *const *vals,
                                      const size_t *lens)
{
    for (size_t i = 0; i < n && i < s->ncols; i++) {
        if (!vals[i] || strcmp(s->colname[i], "nspname") != 0)
            continue;
        size_t skip = lens[i] > 8 && memcmp(vals[i], "pg_temp_", 8) == 0         ? 8
                      : lens[i] > 14 && memcmp(vals[i], "pg_toast_temp_", 14) == 0 ? 14
                                                                                   : 0;
        if (!skip)
            return false;
        for (size_t j = skip; j < lens[i]; j++)
            if (vals[i][j] < '0' || vals[i][j] > '9')
                return false;
        return true;
    }
    return false;
}

static inline void ev_datarow(side *s, size_t n, const uint8_t *const *vals, const size_t *lens)
{
    if (temp_namespace_row(s, n, vals, lens)) {
        s->rows_dropped++;
        return;
    }
    rl_buf b;
    rl_buf_init(&b, 0);
    rl_buf_put_str(&b, "D");
    for (size_t i = 0; i < n; i++) {
        rl_buf_put_u8(&b, ' ');
        if (!vals[i])
            rl_buf_put_str(&b, "NULL");
        else if (i < s->ncols && volatile_text_col(s->colname[i], s->coloid[i]))
            rl_buf_printf(&b, "<%s>", s->colname[i]);
        else
            put_value(&b, vals[i], lens[i], true);
    }
    sl_push(&s->rows, buf_cstr(&b));
}

static inline void ev_complete(side *s, const char *tag)
{
    flush_rows(s);
    size_t dropped = s->rows_dropped;
    s->rows_dropped = 0;
    if (s->si && s->si->loose && strncmp(tag, "COPY ", 5) == 0)
        sl_pushf(&s->ev, "C COPY (count not compared)");
    else if (dropped && strncmp(tag, "SELECT ", 7) == 0)
        sl_pushf(&s->ev, "C SELECT %llu", strtoull(tag + 7, NULL, 10) - (unsigned long long)dropped);
    else
        sl_pushf(&s->ev, "C %s", tag);
}

/* An ErrorResponse / NoticeResponse: the SQLSTATE; for 23505, 23514 and
 * 23503 also the exact message and detail (DuckDB matches on 23505's; a
 * CHECK violation names the constraint and the failing row, a FOREIGN KEY
 * violation the key, also when a DEFERRED one fails a COMMIT); for 42601
 * also the position. With strict_errors (test_sql_diff: every statement
 * but a LOOSE_ERROR_MARK one), every error's message, detail and
 * position. */
static inline void ev_error(side *s, char kind, const char *sqlstate, const char *msg,
                            const char *detail, int position)
{
    flush_rows(s);
    s->in_copy = false;
    if (kind == 'E' && s->strict_errors)
        sl_pushf(&s->ev, "E %s %s | %s @%d", sqlstate, msg, detail ? detail : "", position);
    else if (kind == 'E' && (strcmp(sqlstate, "23505") == 0 || strcmp(sqlstate, "23514") == 0 ||
                             strcmp(sqlstate, "23503") == 0))
        sl_pushf(&s->ev, "E %s %s | %s", sqlstate, msg, detail ? detail : "");
    else if (kind == 'E' && strcmp(sqlstate, "42601") == 0)
        sl_pushf(&s->ev, "E %s at position %d", sqlstate, position);
    else
        sl_pushf(&s->ev, "%c %s", kind, sqlstate);
}

static inline void ev_copy_begin(side *s, char kind, int fmt, size_t ncols)
{
    flush_rows(s);
    sl_pushf(&s->ev, "%c format=%d ncols=%zu", kind, fmt, ncols);
    if (kind == 'H') {
        s->in_copy = true;
        s->copy_fmt = fmt;
        s->sort_rows = !s->copy_in_order;
        rl_buf_reset(&s->copy);
    }
}

/* Render one binary COPY field, masking volatile columns. */
static inline void put_copy_field(side *s, rl_buf *b, size_t col, const uint8_t *p, int32_t len)
{
    const char *name = s->si && col < s->si->ncols ? s->si->names[col] : "";
    if (len < 0)
        rl_buf_put_str(b, "NULL");
    else if (strcmp(name, "snapshot_time") == 0 || strcmp(name, "schedule_start") == 0)
        rl_buf_printf(b, "<%s:%d bytes>", name, len);
    else if (strcmp(name, "ctid") == 0)
        rl_buf_printf(b, "<ctid:%d bytes>", len);
    else
        put_value(b, p, (size_t)len, false);
}

static inline uint64_t tid_of(const uint8_t *p, int32_t len)
{
    if (len != 6)
        return UINT64_MAX;
    uint32_t blk = (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
    return (uint64_t)blk << 16 | (uint16_t)(p[4] << 8 | p[5]);
}

/* Decode one binary tuple at r; false at the trailer or on malformed data. */
static inline bool decode_tuple(side *s, rd *r, bool *trailer)
{
    uint16_t nf = rd_u16(r);
    if (r->bad)
        return false;
    if (nf == 0xffff) {
        *trailer = true;
        return true;
    }
    rl_buf b;
    rl_buf_init(&b, 0);
    rl_buf_put_str(&b, "row");
    uint64_t tid = UINT64_MAX;
    for (size_t i = 0; i < nf; i++) {
        int32_t len = (int32_t)rd_u32(r);
        if (r->bad || (len >= 0 && r->off + (size_t)len > r->len)) {
            rl_buf_free(&b);
            r->bad = true;
            return false;
        }
        const uint8_t *p = r->p + r->off;
        rl_buf_put_u8(&b, ' ');
        put_copy_field(s, &b, i, p, len);
        if (s->si && (int)i == s->si->ctid_col)
            tid = tid_of(p, len);
        if (len > 0)
            r->off += (size_t)len;
    }
    char *row = buf_cstr(&b);
    if (s->si && s->si->ctid_col >= 0) {
        sl_push(&s->tid_keys, xstrdup(row));
        s->tids = xrealloc(s->tids, (s->ntids + 1) * sizeof *s->tids);
        s->tids[s->ntids++] = tid;
    }
    sl_push(&s->rows, row);
    return true;
}

static inline void decode_binary_copy(side *s)
{
    static const uint8_t sig[11] = {'P', 'G', 'C', 'O', 'P', 'Y', '\n', 0xff, '\r', '\n', 0};
    rd r = {.p = s->copy.data, .len = s->copy.len};
    if (r.len < 19 || memcmp(r.p, sig, 11) != 0) {
        sl_pushf(&s->ev, "copy: malformed binary header (%zu bytes)", r.len);
        return;
    }
    r.off = 11;
    rd_u32(&r); /* flags */
    uint32_t ext = rd_u32(&r);
    r.off += ext;
    bool trailer = false;
    while (!trailer && r.off < r.len)
        if (!decode_tuple(s, &r, &trailer))
            break;
    if (r.bad || !trailer || r.off != r.len)
        sl_pushf(&s->ev, "copy: malformed binary data (trailer %s, %zu of %zu bytes used)",
                 trailer ? "seen" : "missing", r.off, r.len);
}

static inline void decode_text_copy(side *s)
{
    const char *p = (const char *)s->copy.data, *end = p + s->copy.len;
    while (p < end) {
        const char *nl = memchr(p, '\n', (size_t)(end - p));
        size_t n = nl ? (size_t)(nl - p) : (size_t)(end - p);
        rl_buf b;
        rl_buf_init(&b, 0);
        rl_buf_put_str(&b, "line ");
        put_value(&b, (const uint8_t *)p, n, true);
        sl_push(&s->rows, buf_cstr(&b));
        p += n + 1;
    }
}

static inline void ev_copy_data(side *s, const uint8_t *p, size_t len)
{
    rl_buf_put(&s->copy, p, len);
}

static inline void ev_copy_end(side *s)
{
    if (s->in_copy) {
        if (s->copy_fmt == 1)
            decode_binary_copy(s);
        else
            decode_text_copy(s);
    }
    s->in_copy = false;
    flush_rows(s);
    sl_pushf(&s->ev, "c");
}

/* ------------------------------------------- actual side: engine sink */

static inline int sk_rowdesc(void *ctx, size_t n, const rl_col_info *cols)
{
    const char *names[MAX_COLS] = {0};
    uint32_t oids[MAX_COLS] = {0};
    int16_t lens[MAX_COLS] = {0};
    int32_t mods[MAX_COLS] = {0};
    if (n > MAX_COLS)
        n = MAX_COLS;
    for (size_t i = 0; i < n; i++) {
        names[i] = cols[i].name;
        oids[i] = cols[i].type_oid;
        lens[i] = cols[i].typlen;
        mods[i] = cols[i].typmod;
    }
    ev_rowdesc(ctx, n, names, oids, lens, mods);
    return 0;
}

static inline int sk_datarow(void *ctx, size_t n, const rl_value *vals)
{
    const uint8_t *ptrs[MAX_COLS] = {0};
    size_t lens[MAX_COLS] = {0};
    rl_buf txt[MAX_COLS];
    if (n > MAX_COLS)
        n = MAX_COLS;
    for (size_t i = 0; i < n; i++) {
        rl_buf_init(&txt[i], 0);
        if (vals[i].d.isnull) {
            ptrs[i] = NULL;
            lens[i] = 0;
            continue;
        }
        rl_session_value_text(((side *)ctx)->sess, &txt[i], &vals[i]);
        rl_buf_put_u8(&txt[i], 0);
        ptrs[i] = txt[i].data;
        lens[i] = txt[i].len - 1;
    }
    ev_datarow(ctx, n, ptrs, lens);
    for (size_t i = 0; i < n; i++)
        rl_buf_free(&txt[i]);
    return 0;
}

static inline int sk_complete(void *ctx, const char *tag)
{
    ev_complete(ctx, tag);
    return 0;
}

static inline int sk_empty(void *ctx)
{
    side *s = ctx;
    flush_rows(s);
    sl_pushf(&s->ev, "I");
    return 0;
}

static inline int sk_notice(void *ctx, const rl_error *e)
{
    ev_error(ctx, 'N', e->sqlstate, e->message, e->detail, e->position);
    return 0;
}

static inline int sk_copy_out_begin(void *ctx, int format, size_t ncols)
{
    ev_copy_begin(ctx, 'H', format, ncols);
    return 0;
}

static inline int sk_copy_out_data(void *ctx, const uint8_t *data, size_t len)
{
    ev_copy_data(ctx, data, len);
    return 0;
}

static inline int sk_copy_out_end(void *ctx)
{
    ev_copy_end(ctx);
    return 0;
}

static inline int sk_copy_in_begin(void *ctx, int format, size_t ncols)
{
    ev_copy_begin(ctx, 'G', format, ncols);
    return 0;
}

static inline bool events_equal(const strlist *a, const strlist *b)
{
    if (a->n != b->n)
        return false;
    for (size_t i = 0; i < a->n; i++)
        if (strcmp(a->v[i], b->v[i]) != 0)
            return false;
    return true;
}

static inline void print_event(char mark, const char *ev)
{
    size_t n = strlen(ev);
    fprintf(stderr, "      %c %.*s%s\n", mark, (int)(n > EVENT_SHOW ? EVENT_SHOW : n), ev,
            n > EVENT_SHOW ? " ..." : "");
}

/* Print the differing middle of two event lists (common prefix and suffix
 * skipped), at most `lim` lines per side. */
static inline void print_diff(const strlist *e, const strlist *a, size_t lim)
{
    size_t pre = 0;
    while (pre < e->n && pre < a->n && strcmp(e->v[pre], a->v[pre]) == 0)
        pre++;
    size_t suf = 0;
    while (suf < e->n - pre && suf < a->n - pre &&
           strcmp(e->v[e->n - 1 - suf], a->v[a->n - 1 - suf]) == 0)
        suf++;
    fprintf(stderr, "    events: %zu expected, %zu actual; first difference at #%zu\n", e->n,
            a->n, pre);
    if (pre > 0)
        print_event(' ', e->v[pre - 1]);
    for (size_t i = pre; i < e->n - suf && i < pre + lim; i++)
        print_event('-', e->v[i]);
    if (e->n - suf > pre + lim)
        fprintf(stderr, "      - ... %zu more\n", e->n - suf - pre - lim);
    for (size_t i = pre; i < a->n - suf && i < pre + lim; i++)
        print_event('+', a->v[i]);
    if (a->n - suf > pre + lim)
        fprintf(stderr, "      + ... %zu more\n", a->n - suf - pre - lim);
}


static inline rl_sink ev_sink(side *s)
{
    return (rl_sink){.ctx = s, .row_description = sk_rowdesc, .data_row = sk_datarow,
                     .command_complete = sk_complete, .empty_query = sk_empty,
                     .notice = sk_notice, .copy_out_begin = sk_copy_out_begin,
                     .copy_out_data = sk_copy_out_data, .copy_out_end = sk_copy_out_end,
                     .copy_in_begin = sk_copy_in_begin};
}

#endif
