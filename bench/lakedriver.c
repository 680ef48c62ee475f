/*
 * lakedriver.c — the load driver of `make bench` and bench/probe.py: replays
 * DuckLake's commit sequence over libpq, one connection per client thread,
 * against RockLake or PostgreSQL alike.
 *
 * Owns: the commit workload (one client, timed) and the racing-clients
 * workload (retries with DuckLake's backoff), and their JSON report on
 * stdout. bench/workloads.py starts it and reads the report.
 *
 * Why C: DuckDB's postgres extension is a libpq client written in C++, so
 * its own work between two messages is a few microseconds. The Python driver
 * this replaces spent about 0.4 ms of its own per commit and 1.4–2.7 ms of
 * CPU per commit with 16 clients (docs/benchmarks.md, Round 4), which
 * measured the driver as much as the servers.
 *
 * Invariants:
 *  - Every statement text comes from bench/templates.py (the wire corpus),
 *    passed in a templates file of NUL-separated name/value pairs; this file
 *    only fills in `{name}` fields, as Python's str.format does.
 *  - Messages map to libpq calls exactly as bench/lakewire.py documents:
 *    q = PQexec (simple Query), copy = PQexec of COPY ... TO STDOUT (FORMAT
 *    binary) + PQgetCopyData, pd = PQprepare + PQdescribePrepared of the
 *    unnamed statement. No Bind/Execute is ever sent, as with DuckDB.
 *  - Ids are read back from the server the way DuckLake does (latest
 *    snapshot + 1, next file id, next row id from the table's stats).
 *  - A commit that loses the race (23505, 40001, or a message naming a key
 *    or conflict) does what DuckLake does: ROLLBACK, SELECT 1, DISCARD ALL,
 *    sleep 100 ms x U(0.5, 1) x 1.5^attempt, re-read, retry; at most 10
 *    retries. Any other error stops that client and is reported.
 */
#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <libpq-fe.h>
#include <math.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#include "base/buf.h" /* big-endian loads and hex digits, header-only */

#define MAX_RETRY_COUNT 10 /* ducklake_max_retry_count default */
#define RETRY_WAIT_MS 100  /* ducklake_retry_wait_ms default */
#define RETRY_BACKOFF 1.5  /* ducklake_retry_backoff default */
#define MAX_COLUMNS 64
#define MAX_TABLES 64
#define MAX_CLIENTS 256

/* ------------------------------------------------------------ strings */

/* A growable string; `failed` is sticky (out of memory ends the run). */
typedef struct sbuf {
    char *s;
    size_t len, cap;
} sbuf;

static void die(const char *fmt, ...) __attribute__((format(printf, 1, 2), noreturn));
static void die(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    fputs("lakedriver: ", stderr);
    vfprintf(stderr, fmt, ap);
    fputc('\n', stderr);
    va_end(ap);
    exit(2);
}

static void sb_reserve(sbuf *b, size_t more)
{
    if (b->len + more + 1 <= b->cap) return;
    size_t cap = b->cap ? b->cap : 256;
    while (cap < b->len + more + 1) cap *= 2;
    char *s = realloc(b->s, cap);
    if (!s) die("out of memory");
    b->s = s;
    b->cap = cap;
}

static void sb_addn(sbuf *b, const char *s, size_t n)
{
    sb_reserve(b, n);
    memcpy(b->s + b->len, s, n);
    b->len += n;
    b->s[b->len] = 0;
}

static void sb_add(sbuf *b, const char *s) { sb_addn(b, s, strlen(s)); }

static void sb_addf(sbuf *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void sb_addf(sbuf *b, const char *fmt, ...)
{
    char *tmp;
    va_list ap;
    va_start(ap, fmt);
    int n = vasprintf(&tmp, fmt, ap);
    va_end(ap);
    if (n < 0) die("out of memory");
    sb_addn(b, tmp, (size_t)n);
    free(tmp);
}

static void sb_clear(sbuf *b)
{
    b->len = 0;
    if (b->s) b->s[0] = 0;
}

/* A JSON string literal of `s` (control characters escaped). */
static void sb_json(sbuf *b, const char *s)
{
    sb_add(b, "\"");
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        if (*p == '"' || *p == '\\')
            sb_addf(b, "\\%c", *p);
        else if (*p < 0x20)
            sb_addf(b, "\\u%04x", *p);
        else
            sb_addn(b, (const char *)p, 1);
    }
    sb_add(b, "\"");
}

/* ------------------------------------------------------------ templates */

typedef struct tmpl {
    char *name, *text;
} tmpl;

static tmpl *g_tmpl;
static size_t g_ntmpl;

static void load_templates(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) die("cannot open templates %s: %s", path, strerror(errno));
    sbuf all = {0};
    char chunk[65536];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) sb_addn(&all, chunk, n);
    fclose(f);
    size_t cap = 0;
    for (size_t p = 0; p < all.len;) {
        char *name = all.s + p;
        size_t nl = strnlen(name, all.len - p);
        if (p + nl + 1 >= all.len) die("templates %s: a name without a text", path);
        char *text = name + nl + 1;
        size_t tl = strnlen(text, all.len - (p + nl + 1));
        if (g_ntmpl == cap) {
            cap = cap ? cap * 2 : 32;
            g_tmpl = realloc(g_tmpl, cap * sizeof *g_tmpl);
            if (!g_tmpl) die("out of memory");
        }
        g_tmpl[g_ntmpl++] = (tmpl){strdup(name), strndup(text, tl)};
        p += nl + 1 + tl + 1;
    }
    free(all.s);
}

static const char *tpl(const char *name)
{
    for (size_t i = 0; i < g_ntmpl; i++)
        if (strcmp(g_tmpl[i].name, name) == 0) return g_tmpl[i].text;
    die("template %s missing from the templates file", name);
}

/* One `{name}` field and its value. */
typedef struct field {
    const char *name;
    const char *value;
} field;

/* Append `text` with its {name} fields replaced, as str.format(**fields). */
static void fill(sbuf *out, const char *text, const field *f, size_t nf)
{
    for (const char *p = text; *p;) {
        if ((p[0] == '{' && p[1] == '{') || (p[0] == '}' && p[1] == '}')) {
            sb_addn(out, p, 1);
            p += 2;
            continue;
        }
        if (*p != '{') {
            const char *q = p;
            while (*q && *q != '{' && !(q[0] == '}' && q[1] == '}')) q++;
            sb_addn(out, p, (size_t)(q - p));
            p = q;
            continue;
        }
        const char *close = strchr(p, '}');
        if (!close) die("template has an unclosed field: %.60s", p);
        size_t nl = (size_t)(close - p - 1);
        size_t i = 0;
        while (i < nf && !(strlen(f[i].name) == nl && memcmp(f[i].name, p + 1, nl) == 0)) i++;
        if (i == nf) die("template field {%.*s} has no value", (int)nl, p + 1);
        sb_add(out, f[i].value);
        p = close + 1;
    }
}

/* ------------------------------------------------------------ tables */

typedef enum { K_INT, K_FLOAT, K_STR, K_TS } col_kind;

typedef struct table {
    long long tid;
    char inlined[128];
    int ncols;
    long long cid[MAX_COLUMNS];
    col_kind kind[MAX_COLUMNS];
} table;

/* TID:INLINED_TABLE:CID=KIND,CID=KIND,... (KIND int|float|str|ts) */
static void parse_table(const char *spec, table *t)
{
    memset(t, 0, sizeof *t);
    char *s = strdup(spec), *save = NULL;
    char *tid = strtok_r(s, ":", &save), *inl = strtok_r(NULL, ":", &save),
         *cols = strtok_r(NULL, ":", &save);
    if (!tid || !inl || !cols) die("--table %s: want TID:INLINED:CID=KIND,...", spec);
    t->tid = atoll(tid);
    snprintf(t->inlined, sizeof t->inlined, "%s", inl);
    for (char *c = strtok_r(cols, ",", &save); c; c = strtok_r(NULL, ",", &save)) {
        char *eq = strchr(c, '=');
        if (!eq || t->ncols == MAX_COLUMNS) die("--table %s: bad column %s", spec, c);
        *eq = 0;
        t->cid[t->ncols] = atoll(c);
        const char *k = eq + 1;
        t->kind[t->ncols++] = !strcmp(k, "int")     ? K_INT
                              : !strcmp(k, "float") ? K_FLOAT
                              : !strcmp(k, "str")   ? K_STR
                                                    : K_TS;
    }
    free(s);
}

/* ------------------------------------------------------------ clock, rng */

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* xorshift64*: each client its own stream. */
static uint64_t rng_next(uint64_t *st)
{
    uint64_t x = *st;
    x ^= x >> 12;
    x ^= x << 25;
    x ^= x >> 27;
    *st = x;
    return x * 0x2545F4914F6CDD1Dull;
}

static double rng_unit(uint64_t *st) { return (double)(rng_next(st) >> 11) / 9007199254740992.0; }

/* ------------------------------------------------------------ doubles */

typedef struct dvec {
    double *v;
    size_t n, cap;
} dvec;

static void dvec_push(dvec *d, double x)
{
    if (d->n == d->cap) {
        d->cap = d->cap ? d->cap * 2 : 1024;
        d->v = realloc(d->v, d->cap * sizeof *d->v);
        if (!d->v) die("out of memory");
    }
    d->v[d->n++] = x;
}

static void sb_dvec(sbuf *b, const dvec *d)
{
    sb_add(b, "[");
    for (size_t i = 0; i < d->n; i++) sb_addf(b, "%s%.9f", i ? "," : "", d->v[i]);
    sb_add(b, "]");
}

/* ------------------------------------------------------------ per-message trace */

typedef struct trace_entry {
    char key[96];
    dvec times;
} trace_entry;

typedef struct trace {
    trace_entry e[64];
    size_t n;
} trace;

/* The key bench/probe.py used: the call and the statement's first 60
 * characters with whitespace collapsed; the write batch has its own. */
static void trace_add(trace *t, const char *call, const char *sql, double secs)
{
    char key[96], norm[61];
    size_t k = 0;
    bool gap = false;
    for (const char *p = sql; *p && k < 60; p++) {
        if (isspace((unsigned char)*p)) {
            gap = k > 0;
            continue;
        }
        if (gap) {
            norm[k++] = ' ';
            gap = false;
            if (k == 60) break;
        }
        norm[k++] = *p;
    }
    norm[k] = 0;
    if (strncmp(sql, "INSERT INTO \"public\".ducklake_snapshot VALUES", 45) == 0)
        snprintf(key, sizeof key, "%s (the multi-statement write batch)", call);
    else
        snprintf(key, sizeof key, "%s %s", call, norm);
    for (size_t i = 0; i < t->n; i++)
        if (strcmp(t->e[i].key, key) == 0) {
            dvec_push(&t->e[i].times, secs);
            return;
        }
    if (t->n == sizeof t->e / sizeof t->e[0]) return;
    snprintf(t->e[t->n].key, sizeof t->e[0].key, "%s", key);
    dvec_push(&t->e[t->n++].times, secs);
}

/* ------------------------------------------------------------ connection */

typedef struct client {
    PGconn *pg;
    trace *trace; /* NULL: not traced */
    bool failed;  /* an error that is not a lost race: reported, client stops */
    char sqlstate[6];
    char message[1024];
    sbuf sql; /* the statement that failed (first 2000 bytes) */
} client;

static void client_error(client *c, PGresult *res, const char *sql)
{
    const char *st = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;
    snprintf(c->sqlstate, sizeof c->sqlstate, "%s", st ? st : (res ? "" : "08006"));
    const char *m = res ? PQresultErrorMessage(res) : "";
    if (!m || !*m) m = PQerrorMessage(c->pg);
    snprintf(c->message, sizeof c->message, "%s", m);
    size_t n = strlen(c->message);
    while (n && isspace((unsigned char)c->message[n - 1])) c->message[--n] = 0;
    sb_clear(&c->sql);
    sb_addn(&c->sql, sql, strnlen(sql, 2000));
}

static bool status_in(ExecStatusType st, const ExecStatusType *ok, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (st == ok[i]) return true;
    return false;
}

/* Take `res`, check its status, free it. 0 or -1 (error recorded). */
static int check(client *c, PGresult *res, const char *sql, const ExecStatusType *ok, size_t n)
{
    int rc = res && status_in(PQresultStatus(res), ok, n) ? 0 : -1;
    if (rc < 0) client_error(c, res, sql);
    PQclear(res);
    return rc;
}

/* Simple Query (possibly several statements). */
static int q(client *c, const char *sql)
{
    static const ExecStatusType ok[] = {PGRES_COMMAND_OK, PGRES_TUPLES_OK, PGRES_EMPTY_QUERY};
    double t0 = c->trace ? now_s() : 0;
    int rc = check(c, PQexec(c->pg, sql), sql, ok, 3);
    if (c->trace) trace_add(c->trace, "q", sql, now_s() - t0);
    return rc;
}

/* COPY ... TO STDOUT (FORMAT binary); the stream goes to `out` (cleared)
 * when given. */
static int copy_out(client *c, const char *sql, sbuf *out)
{
    static const ExecStatusType copy_ok[] = {PGRES_COPY_OUT};
    static const ExecStatusType done_ok[] = {PGRES_COMMAND_OK};
    double t0 = c->trace ? now_s() : 0;
    if (out) sb_clear(out);
    if (check(c, PQexec(c->pg, sql), sql, copy_ok, 1) < 0) return -1;
    char *buf;
    int n;
    while ((n = PQgetCopyData(c->pg, &buf, 0)) > 0) {
        if (out) sb_addn(out, buf, (size_t)n);
        PQfreemem(buf);
    }
    if (n == -2) {
        client_error(c, NULL, sql);
        return -1;
    }
    int rc = check(c, PQgetResult(c->pg), sql, done_ok, 1);
    PGresult *extra;
    while ((extra = PQgetResult(c->pg))) PQclear(extra);
    if (c->trace) trace_add(c->trace, "copy_out", sql, now_s() - t0);
    return rc;
}

/* Parse + Describe of the unnamed statement, as DuckDB does before a COPY. */
static int parse_describe(client *c, const char *sql)
{
    static const ExecStatusType ok[] = {PGRES_COMMAND_OK};
    double t0 = c->trace ? now_s() : 0;
    if (check(c, PQprepare(c->pg, "", sql, 0, NULL), sql, ok, 1) < 0 ||
        check(c, PQdescribePrepared(c->pg, ""), sql, ok, 1) < 0)
        return -1;
    if (c->trace) trace_add(c->trace, "parse_describe", sql, now_s() - t0);
    return 0;
}

/* ------------------------------------------------------------ binary COPY rows */

typedef struct cell {
    const uint8_t *p;
    int32_t len; /* -1: NULL */
} cell;

typedef struct rows {
    size_t n, ncols;
    cell *cells; /* n x ncols */
    size_t cap;  /* cells allocated */
} rows;

/* Split a binary COPY stream into rows of `ncols` cells; cells point into
 * `buf`. -1 when it is not such a stream. */
static int parse_copy(const sbuf *buf, size_t ncols, rows *r)
{
    r->n = 0;
    r->ncols = ncols;
    const uint8_t *p = (const uint8_t *)buf->s, *end = p + buf->len;
    if (buf->len == 0) return 0;
    if (buf->len < 19 || memcmp(p, "PGCOPY\n\377\r\n\0", 11) != 0) return -1;
    p += 15;
    uint32_t ext = rl_load_be32(p);
    p += 4;
    if ((size_t)(end - p) < ext) return -1;
    p += ext;
    while (end - p >= 2) {
        int16_t nf = (int16_t)(p[0] << 8 | p[1]);
        p += 2;
        if (nf == -1) break;
        if ((size_t)nf != ncols) return -1;
        if ((r->n + 1) * ncols > r->cap) {
            r->cap = r->cap ? r->cap * 2 : 256;
            while (r->cap < (r->n + 1) * ncols) r->cap *= 2;
            r->cells = realloc(r->cells, r->cap * sizeof *r->cells);
            if (!r->cells) die("out of memory");
        }
        for (size_t i = 0; i < ncols; i++) {
            if (end - p < 4) return -1;
            int32_t len = (int32_t)rl_load_be32(p);
            p += 4;
            if (len > 0 && end - p < len) return -1;
            r->cells[r->n * ncols + i] = (cell){p, len};
            if (len > 0) p += len;
        }
        r->n++;
    }
    return 0;
}

static const cell *rc_at(const rows *r, size_t row, size_t col)
{
    return &r->cells[row * r->ncols + col];
}

static int64_t rc_i8(const rows *r, size_t row, size_t col)
{
    const cell *x = rc_at(r, row, col);
    return x->len == 8 ? (int64_t)rl_load_be64(x->p) : 0;
}

/* ------------------------------------------------------------ one commit */

typedef struct state {
    long long sid, sv, nci, nfi; /* latest snapshot */
    long long rc, fsb, nrid;     /* the table's stats */
    sbuf copy;                   /* last COPY stream */
    sbuf colstats;               /* the table's column stats stream */
    rows r;
} state;

static void state_free(state *s)
{
    free(s->copy.s);
    free(s->colstats.s);
    free(s->r.cells);
}

static int read_latest(client *c, state *s)
{
    if (parse_describe(c, tpl("LATEST_SNAPSHOT_SQL")) < 0 ||
        copy_out(c, tpl("LATEST_SNAPSHOT_COPY"), &s->copy) < 0)
        return -1;
    if (parse_copy(&s->copy, 4, &s->r) < 0 || s->r.n != 1) {
        snprintf(c->message, sizeof c->message, "the latest snapshot query returned %zu rows",
                 s->r.n);
        snprintf(c->sqlstate, sizeof c->sqlstate, "XX000");
        c->failed = true;
        return -1;
    }
    s->sid = rc_i8(&s->r, 0, 0);
    s->sv = rc_i8(&s->r, 0, 1);
    s->nci = rc_i8(&s->r, 0, 2);
    s->nfi = rc_i8(&s->r, 0, 3);
    return 0;
}

/* The table's row of a ducklake_table_stats stream in s->copy. */
static int take_table_stats(client *c, state *s, const table *t)
{
    if (parse_copy(&s->copy, 4, &s->r) == 0)
        for (size_t i = 0; i < s->r.n; i++)
            if (rc_i8(&s->r, i, 0) == t->tid) {
                s->rc = rc_i8(&s->r, i, 1);
                s->fsb = rc_i8(&s->r, i, 2);
                s->nrid = rc_i8(&s->r, i, 3);
                return 0;
            }
    snprintf(c->message, sizeof c->message, "no ducklake_table_stats row for table %lld", t->tid);
    snprintf(c->sqlstate, sizeof c->sqlstate, "XX000");
    c->failed = true;
    return -1;
}

static void sql_literal(sbuf *b, const cell *x)
{
    if (x->len < 0) {
        sb_add(b, "NULL");
        return;
    }
    sb_add(b, "'");
    for (int32_t i = 0; i < x->len; i++) {
        if (x->p[i] == '\'') sb_add(b, "'");
        sb_addn(b, (const char *)x->p + i, 1);
    }
    sb_add(b, "'");
}

/* DuckLake's new column stats: the old ones with an integer max raised to
 * `new_max` (the VALUES list of its WITH ... UPDATE). */
static void column_stats_values(sbuf *b, state *s, const table *t, long long new_max)
{
    rows *r = &s->r;
    if (parse_copy(&s->colstats, 7, r) < 0) return;
    bool first = true;
    for (size_t i = 0; i < r->n; i++) {
        if (rc_i8(r, i, 0) != t->tid) continue;
        const cell *nan = rc_at(r, i, 3), *mn = rc_at(r, i, 4), *mx = rc_at(r, i, 5);
        sb_addf(b, "%s(%lld, %lld, false, %s, ", first ? "" : ",", t->tid,
                (long long)rc_i8(r, i, 1),
                nan->len < 0 ? "NULL" : (nan->len == 1 && nan->p[0] == 1 ? "true" : "false"));
        first = false;
        sql_literal(b, mn);
        sb_add(b, ", ");
        char num[32];
        int32_t skip = 0;
        while (mx->len >= 0 && skip < mx->len && mx->p[skip] == '-') skip++;
        bool digits = mx->len >= 0 && skip < mx->len && mx->len < (int32_t)sizeof num;
        for (int32_t k = skip; digits && k < mx->len; k++) digits = isdigit(mx->p[k]);
        if (digits) {
            memcpy(num, mx->p, (size_t)mx->len);
            num[mx->len] = 0;
            errno = 0;
            long long v = strtoll(num, NULL, 10);
            if (errno == 0) {
                sb_addf(b, "'%lld'", v > new_max ? v : new_max);
            } else {
                sql_literal(b, mx);
            }
        } else {
            sql_literal(b, mx);
        }
        sb_add(b, ", NULL)");
    }
}

static void fmt_ll(char *buf, size_t n, long long v) { snprintf(buf, n, "%lld", v); }

/* What every commit's batch starts with (into b, cleared): the new
 * snapshot with `files` more file ids taken, the table's stats moved on by
 * `added` rows and `bytes` bytes, and its column stats with the integer max
 * raised to `new_max`. */
static void batch_head(sbuf *b, state *s, const table *t, long long files, long long added,
                       long long bytes, long long new_max)
{
    char sid[24], sv[24], nci[24], nfi[24], rc[24], fsb[24], nrid[24], tid[24];
    fmt_ll(sid, sizeof sid, s->sid + 1);
    fmt_ll(sv, sizeof sv, s->sv);
    fmt_ll(nci, sizeof nci, s->nci);
    fmt_ll(nfi, sizeof nfi, s->nfi + files);
    fmt_ll(rc, sizeof rc, s->rc + added);
    fmt_ll(fsb, sizeof fsb, s->fsb + bytes);
    fmt_ll(nrid, sizeof nrid, s->nrid + added);
    fmt_ll(tid, sizeof tid, t->tid);
    sbuf vals = {0};
    column_stats_values(&vals, s, t, new_max);
    sb_clear(b);
    fill(b, tpl("INSERT_SNAPSHOT"),
         (field[]){{"sid", sid}, {"sv", sv}, {"nci", nci}, {"nfi", nfi}}, 4);
    fill(b, tpl("UPDATE_TABLE_STATS"),
         (field[]){{"rc", rc}, {"fsb", fsb}, {"nrid", nrid}, {"tid", tid}}, 4);
    fill(b, tpl("UPDATE_COLUMN_STATS"), (field[]){{"values", vals.s ? vals.s : ""}}, 1);
    free(vals.s);
}

/* What every commit's batch ends with: the snapshot's change record. */
static void batch_tail(sbuf *b, const state *s, const char *kind, const table *t)
{
    char sid[24], change[64];
    fmt_ll(sid, sizeof sid, s->sid + 1);
    snprintf(change, sizeof change, "%s:%lld", kind, t->tid);
    fill(b, tpl("INSERT_SNAPSHOT_CHANGES"), (field[]){{"sid", sid}, {"change", change}}, 2);
}

static void inlined_batch(sbuf *b, state *s, const table *t, const char *who)
{
    sbuf row = {0};
    sb_addf(&row, "%lld, %lld, NULL", s->nrid, s->sid + 1);
    for (int i = 0; i < t->ncols; i++) {
        switch (t->kind[i]) {
        case K_INT: sb_addf(&row, ", %lld", s->nrid); break;
        case K_FLOAT: sb_add(&row, ", 1.5"); break;
        case K_STR:
            sb_add(&row, ", '\\x");
            for (const char *w = who; *w; w++) sb_addf(&row, "%02x", (unsigned char)*w);
            sb_add(&row, "'");
            break;
        case K_TS: sb_add(&row, ", CAST('2024-01-01 00:00:00' AS VARCHAR)"); break;
        }
    }
    batch_head(b, s, t, 0, 1, 0, s->nrid);
    fill(b, tpl("INSERT_INLINED"), (field[]){{"inlined_table", t->inlined}, {"row", row.s}}, 2);
    batch_tail(b, s, "inlined_insert", t);
    free(row.s);
}

static void parquet_batch(sbuf *b, state *s, const table *t, uint64_t *rng)
{
    const long long records = 20000;
    long long size = 270000 + (long long)(rng_next(rng) % 10000);
    long long fid = s->nfi, nrid = s->nrid;
    sbuf fcs = {0};
    for (int i = 0; i < t->ncols; i++) {
        char mn[48], mx[48];
        switch (t->kind[i]) {
        case K_INT:
            fmt_ll(mn, sizeof mn, nrid);
            fmt_ll(mx, sizeof mx, nrid + records - 1);
            break;
        case K_FLOAT:
            snprintf(mn, sizeof mn, "%lld.0", nrid);
            snprintf(mx, sizeof mx, "%lld.5", nrid + records);
            break;
        case K_STR:
            snprintf(mn, sizeof mn, "a");
            snprintf(mx, sizeof mx, "c");
            break;
        case K_TS:
            snprintf(mn, sizeof mn, "2024-01-01 16:40:00");
            snprintf(mx, sizeof mx, "2024-01-15 13:59:00");
            break;
        }
        sb_addf(&fcs, "%s(%lld, %lld, %lld, %lld, %lld, 0, '%s', '%s', %s, NULL)", i ? "," : "",
                fid, t->tid, t->cid[i], size / t->ncols, records, mn, mx,
                t->kind[i] == K_FLOAT ? "false" : "NULL");
    }
    /* a UUIDv7-shaped file name, as DuckLake writes */
    char h[33];
    for (int i = 0; i < 32; i++) h[i] = "0123456789abcdef"[rng_next(rng) & 15];
    h[32] = 0;
    h[12] = '7';
    h[16] = "0123456789abcdef"[8 | (rl_hex_value(h[16]) & 3)];
    char path[96];
    snprintf(path, sizeof path, "ducklake-%.8s-%.4s-%.4s-%.4s-%.12s.parquet", h, h + 8, h + 12,
             h + 16, h + 20);
    char sid[24], tid[24], fids[24], rec[24], sz[24], start[24];
    fmt_ll(sid, sizeof sid, s->sid + 1);
    fmt_ll(tid, sizeof tid, t->tid);
    fmt_ll(fids, sizeof fids, fid);
    fmt_ll(rec, sizeof rec, records);
    fmt_ll(sz, sizeof sz, size);
    fmt_ll(start, sizeof start, nrid);
    batch_head(b, s, t, 1, records, size, nrid + records - 1);
    fill(b, tpl("INSERT_DATA_FILE"),
         (field[]){{"fid", fids},
                   {"tid", tid},
                   {"sid", sid},
                   {"path", path},
                   {"records", rec},
                   {"size", sz},
                   {"row_id_start", start}},
         7);
    fill(b, tpl("INSERT_FILE_COLUMN_STATS"), (field[]){{"values", fcs.s}}, 1);
    batch_tail(b, s, "inserted_into_table", t);
    free(fcs.s);
}

/* DuckLake's RetryOnError: a key, unique, conflict or concurrency error. */
static bool lost_race(const client *c)
{
    if (!strcmp(c->sqlstate, "23505") || !strcmp(c->sqlstate, "40001")) return true;
    static const char *words[] = {"primary key", "unique", "conflict", "concurrent"};
    for (size_t i = 0; i < sizeof words / sizeof *words; i++)
        if (strcasestr(c->message, words[i])) return true;
    return false;
}

static int copy_with_tid(client *c, const char *name, const table *t, sbuf *out)
{
    char tid[24];
    fmt_ll(tid, sizeof tid, t->tid);
    sbuf sql = {0};
    fill(&sql, tpl(name), (field[]){{"tid", tid}}, 1);
    int rc = copy_out(c, sql.s, out);
    free(sql.s);
    return rc;
}

/* The last reads before the batch, by commit kind: the inlined-data tables
 * for an inlined insert, the schema and table paths for a Parquet file. */
static int kind_reads(client *c, const table *t, bool inlined)
{
    if (inlined)
        return copy_with_tid(c, "INLINED_TABLES_ONE_A", t, NULL) < 0 ||
                       copy_with_tid(c, "INLINED_TABLES_ONE_B", t, NULL) < 0
                   ? -1
                   : 0;
    return copy_out(c, tpl("SCHEMA_PATHS"), NULL) < 0 ||
                   copy_with_tid(c, "TABLE_PATH_ONE", t, NULL) < 0
               ? -1
               : 0;
}

/* The reads after BEGIN of a first attempt. */
static int first_reads(client *c, state *s, const table *t, bool inlined)
{
    if (read_latest(c, s) < 0 || copy_with_tid(c, "TABLE_STATS_ONE", t, &s->copy) < 0 ||
        take_table_stats(c, s, t) < 0 ||
        copy_with_tid(c, "TABLE_COLUMN_STATS_ONE", t, &s->colstats) < 0)
        return -1;
    return kind_reads(c, t, inlined);
}

/* After a lost race: what DuckLake re-reads before it retries. */
static int retry_reads(client *c, state *s, const table *t, bool inlined, long long own_sid)
{
    char own[24];
    fmt_ll(own, sizeof own, own_sid);
    sbuf changes = {0};
    fill(&changes, tpl("RETRY_REREAD_3"), (field[]){{"own_sid", own}}, 1);
    int rc = q(c, "SELECT 1") < 0 || q(c, tpl("BEGIN")) < 0 ||
                     copy_out(c, tpl("RETRY_REREAD_0"), &s->copy) < 0 ||
                     copy_out(c, tpl("RETRY_REREAD_1"), NULL) < 0 ||
                     copy_out(c, tpl("RETRY_REREAD_2"), NULL) < 0 ||
                     copy_out(c, changes.s, NULL) < 0 ||
                     take_table_stats(c, s, t) < 0 ||
                     copy_out(c, tpl("RETRY_REREAD_4"), &s->colstats) < 0 || read_latest(c, s) < 0
                 ? -1
                 : 0;
    free(changes.s);
    if (rc < 0) return -1;
    return kind_reads(c, t, inlined);
}

/* One DuckLake commit with its retries. Returns 1 committed, 0 gave up
 * after MAX_RETRY_COUNT, -1 error (in c). *retries counts retry rounds;
 * *write_s gets the batch + COMMIT time of the commit that landed. */
static int commit_once(client *c, state *s, const table *t, bool inlined, const char *who,
                       uint64_t *rng, int *retries, double *write_s)
{
    *retries = 0;
    if (q(c, "SELECT 1") < 0 || q(c, tpl("BEGIN")) < 0 || first_reads(c, s, t, inlined) < 0)
        return -1;
    long long own_sid = s->sid;
    sbuf batch = {0};
    for (int attempt = 0;; attempt++) {
        if (inlined)
            inlined_batch(&batch, s, t, who);
        else
            parquet_batch(&batch, s, t, rng);
        double t0 = now_s();
        if (q(c, batch.s) == 0 && q(c, "COMMIT") == 0) {
            *write_s = now_s() - t0;
            int rc = q(c, "SELECT 1") < 0 || q(c, "DISCARD ALL") < 0 ? -1 : 1;
            free(batch.s);
            return rc;
        }
        if (c->failed || !lost_race(c)) {
            free(batch.s);
            return -1;
        }
        if (PQtransactionStatus(c->pg) != PQTRANS_IDLE && q(c, "ROLLBACK") < 0) break;
        if (q(c, "SELECT 1") < 0 || q(c, "DISCARD ALL") < 0) break;
        if (attempt >= MAX_RETRY_COUNT) {
            free(batch.s);
            return 0;
        }
        double wait_ms = RETRY_WAIT_MS * (0.5 + rng_unit(rng) / 2) * pow(RETRY_BACKOFF, attempt);
        struct timespec ts = {(time_t)(wait_ms / 1000),
                              (long)(fmod(wait_ms, 1000.0) * 1e6)};
        nanosleep(&ts, NULL);
        (*retries)++;
        if (retry_reads(c, s, t, inlined, own_sid) < 0) break;
    }
    free(batch.s);
    return -1;
}

/* ------------------------------------------------------------ workloads */

static PGconn *connect_or_die(const char *conninfo)
{
    PGconn *pg = PQconnectdb(conninfo);
    if (PQstatus(pg) != CONNECTION_OK) die("cannot connect (%s): %s", conninfo, PQerrorMessage(pg));
    return pg;
}

static void sb_error(sbuf *b, const client *c)
{
    sb_add(b, "{\"sqlstate\":");
    sb_json(b, c->sqlstate);
    sb_add(b, ",\"message\":");
    sb_json(b, c->message);
    sb_add(b, ",\"sql\":");
    sb_json(b, c->sql.s ? c->sql.s : "");
    sb_add(b, "}");
}

static void print_trace(sbuf *out, const trace *tr)
{
    sb_add(out, ",\"messages\":[");
    for (size_t i = 0; i < tr->n; i++) {
        sb_add(out, i ? ",{\"key\":" : "{\"key\":");
        sb_json(out, tr->e[i].key);
        sb_add(out, ",\"times\":");
        sb_dvec(out, &tr->e[i].times);
        sb_add(out, "}");
    }
    sb_add(out, "]");
}

/* One client: `warmup` untimed commits, then `n` timed ones. */
static int run_commit(const char *conninfo, const table *t, bool inlined, int n, int warmup,
                      uint64_t seed, bool traced)
{
    client c = {0};
    trace tr = {0};
    state s = {0};
    dvec lat = {0}, wr = {0};
    uint64_t rng = seed | 1;
    bool errored = false;
    c.pg = connect_or_die(conninfo);
    for (int i = 0; i < warmup + n; i++) {
        if (i == warmup && traced) c.trace = &tr;
        int retries;
        double w = 0, t0 = now_s();
        int rc = commit_once(&c, &s, t, inlined, "bench", &rng, &retries, &w);
        double secs = now_s() - t0;
        if ((errored = rc < 0)) break;
        if (i >= warmup) {
            dvec_push(&lat, secs);
            if (rc == 1) dvec_push(&wr, w);
        }
    }
    sbuf out = {0};
    sb_add(&out, "{\"latency\":");
    sb_dvec(&out, &lat);
    sb_add(&out, ",\"write\":");
    sb_dvec(&out, &wr);
    sb_add(&out, ",\"errors\":[");
    if (errored) sb_error(&out, &c);
    sb_add(&out, "]");
    if (traced) print_trace(&out, &tr);
    sb_add(&out, "}\n");
    fputs(out.s, stdout);
    PQfinish(c.pg);
    for (size_t i = 0; i < tr.n; i++) free(tr.e[i].times.v);
    state_free(&s);
    free(lat.v);
    free(wr.v);
    free(out.s);
    free(c.sql.s);
    return 0;
}

typedef struct worker {
    pthread_t th;
    int idx;
    const table *t;
    double seconds;
    pthread_barrier_t *start;
    client c;
    long commits, retries, gave_up, max_retries;
    dvec lat;
} worker;

static void *worker_main(void *arg)
{
    worker *w = arg;
    state s = {0};
    uint64_t rng = 0x9E3779B97F4A7C15ull * (uint64_t)(1000 + w->idx) | 1;
    char who[16];
    snprintf(who, sizeof who, "w%d", w->idx);
    pthread_barrier_wait(w->start);
    double end = now_s() + w->seconds;
    while (now_s() < end) {
        int retries;
        double wr, t0 = now_s();
        int rc = commit_once(&w->c, &s, w->t, true, who, &rng, &retries, &wr);
        w->retries += retries;
        if (retries > w->max_retries) w->max_retries = retries;
        if (rc < 0) {
            w->c.failed = true;
            break;
        }
        if (rc == 1) {
            w->commits++;
            dvec_push(&w->lat, now_s() - t0);
        } else {
            w->gave_up++;
        }
    }
    state_free(&s);
    return NULL;
}

/* user+system jiffies, and all jiffies, of all CPUs (first line of /proc/stat). */
static void cpu_jiffies(unsigned long long *busy, unsigned long long *total)
{
    unsigned long long v[10] = {0};
    *busy = *total = 0;
    FILE *f = fopen("/proc/stat", "r");
    if (!f) return;
    int n = fscanf(f, "cpu %llu %llu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1],
                   &v[2], &v[3], &v[4], &v[5], &v[6], &v[7], &v[8], &v[9]);
    fclose(f);
    for (int i = 0; i < n && i < 8; i++) *total += v[i];
    *busy = *total - v[3] - v[4]; /* minus idle and iowait */
}

static double rusage_cpu(void)
{
    struct rusage ru;
    getrusage(RUSAGE_SELF, &ru);
    return (double)ru.ru_utime.tv_sec + (double)ru.ru_utime.tv_usec / 1e6 +
           (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
}

/* `clients` threads race inlined commits, client i into table i mod ntables. */
static int run_throughput(const char *conninfo, const table *tables, int ntables, int clients,
                          double seconds)
{
    worker *w = calloc((size_t)clients, sizeof *w);
    pthread_barrier_t start;
    if (!w) die("out of memory");
    pthread_barrier_init(&start, NULL, (unsigned)clients + 1);
    for (int i = 0; i < clients; i++) {
        w[i] = (worker){.idx = i, .t = &tables[i % ntables], .seconds = seconds, .start = &start};
        w[i].c.pg = connect_or_die(conninfo);
    }
    for (int i = 0; i < clients; i++)
        if (pthread_create(&w[i].th, NULL, worker_main, &w[i]) != 0)
            die("cannot start client thread %d", i);
    unsigned long long b0, t0, b1, t1;
    pthread_barrier_wait(&start);
    double cpu0 = rusage_cpu(), wall0 = now_s();
    cpu_jiffies(&b0, &t0);
    for (int i = 0; i < clients; i++) pthread_join(w[i].th, NULL);
    cpu_jiffies(&b1, &t1);
    double cpu = rusage_cpu() - cpu0, wall = now_s() - wall0;
    long commits = 0, retries = 0, gave_up = 0, max_retries = 0;
    sbuf out = {0}, errs = {0};
    sb_add(&out, "{\"latency\":[");
    bool first = true;
    for (int i = 0; i < clients; i++) {
        commits += w[i].commits;
        retries += w[i].retries;
        gave_up += w[i].gave_up;
        if (w[i].max_retries > max_retries) max_retries = w[i].max_retries;
        for (size_t k = 0; k < w[i].lat.n; k++, first = false)
            sb_addf(&out, "%s%.9f", first ? "" : ",", w[i].lat.v[k]);
        if (w[i].c.failed) {
            if (errs.len) sb_add(&errs, ",");
            sb_error(&errs, &w[i].c);
        }
        PQfinish(w[i].c.pg);
        free(w[i].lat.v);
        free(w[i].c.sql.s);
    }
    sb_addf(&out,
            "],\"clients\":%d,\"seconds\":%.6f,\"wall_seconds\":%.6f,\"commits\":%ld,"
            "\"retries\":%ld,\"gave_up\":%ld,\"max_retries\":%ld,\"cpu_seconds\":%.6f,"
            "\"busy_jiffies\":%llu,\"total_jiffies\":%llu,\"errors\":[%s]}\n",
            clients, seconds, wall, commits, retries, gave_up, max_retries, cpu, b1 - b0, t1 - t0,
            errs.s ? errs.s : "");
    fputs(out.s, stdout);
    pthread_barrier_destroy(&start);
    free(w);
    free(out.s);
    free(errs.s);
    return 0;
}

/* ------------------------------------------------------------ main */

static const char USAGE[] =
    "usage: lakedriver --version\n"
    "       lakedriver commit --conninfo S --templates FILE --table SPEC\n"
    "                         [--kind inlined|parquet] [-n N] [--warmup N] [--seed N] [--trace]\n"
    "       lakedriver throughput --conninfo S --templates FILE --table SPEC [--table SPEC...]\n"
    "                         [--clients N] [--seconds S]\n"
    "\n"
    "Replays DuckLake's commit sequence (statements from bench/templates.py, written\n"
    "to FILE by bench/workloads.py) and prints a JSON report on stdout.\n"
    "  commit      one client: N timed commits after the warm-up; --trace adds the\n"
    "              time of every message, by statement\n"
    "  throughput  N client threads race inlined commits for S seconds, client i\n"
    "              into the i-th table (mod the number given), retrying as DuckLake does\n"
    "  SPEC        TID:INLINED_TABLE:CID=KIND,CID=KIND,... with KIND int|float|str|ts\n";

int main(int argc, char **argv)
{
    if (argc == 2 && !strcmp(argv[1], "--version")) {
        int v = PQlibVersion();
        printf("lakedriver (libpq %d.%d)\n", v / 10000, v % 10000);
        return 0;
    }
    if (argc < 2 || !strcmp(argv[1], "--help") || !strcmp(argv[1], "-h")) {
        fputs(USAGE, argc < 2 ? stderr : stdout);
        return argc < 2 ? 2 : 0;
    }
    const char *mode = argv[1], *conninfo = NULL, *templates = NULL, *kind = "inlined";
    static table tables[MAX_TABLES];
    int ntables = 0, n = 100, warmup = 5, clients = 1;
    double seconds = 5;
    uint64_t seed = 7;
    bool traced = false;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--trace")) {
            traced = true;
            continue;
        }
        if (!v) die("%s needs a value\n%s", a, USAGE);
        i++;
        if (!strcmp(a, "--conninfo")) conninfo = v;
        else if (!strcmp(a, "--templates")) templates = v;
        else if (!strcmp(a, "--kind")) kind = v;
        else if (!strcmp(a, "-n")) n = atoi(v);
        else if (!strcmp(a, "--warmup")) warmup = atoi(v);
        else if (!strcmp(a, "--seed")) seed = strtoull(v, NULL, 10);
        else if (!strcmp(a, "--clients")) clients = atoi(v);
        else if (!strcmp(a, "--seconds")) seconds = atof(v);
        else if (!strcmp(a, "--table")) {
            if (ntables == MAX_TABLES) die("at most %d --table", MAX_TABLES);
            parse_table(v, &tables[ntables++]);
        } else
            die("unknown option %s\n%s", a, USAGE);
    }
    if (!conninfo || !templates || ntables == 0)
        die("--conninfo, --templates and --table are required\n%s", USAGE);
    if (strcmp(kind, "inlined") && strcmp(kind, "parquet"))
        die("--kind must be inlined or parquet, not %s", kind);
    if (clients < 1 || clients > MAX_CLIENTS) die("--clients must be 1..%d", MAX_CLIENTS);
    if (strcmp(mode, "commit") && strcmp(mode, "throughput"))
        die("unknown mode %s\n%s", mode, USAGE);
    load_templates(templates);
    int rc = !strcmp(mode, "commit")
                 ? run_commit(conninfo, &tables[0], !strcmp(kind, "inlined"), n, warmup, seed,
                              traced)
                 : run_throughput(conninfo, tables, ntables, clients, seconds);
    for (size_t i = 0; i < g_ntmpl; i++) {
        free(g_tmpl[i].name);
        free(g_tmpl[i].text);
    }
    free(g_tmpl);
    return rc;
}
