/*
 * test_sql_diff.c — hand-written SQL cases (tests/sql_cases/NN_name.sql) run
 * through a real PostgreSQL 15 and through the RockLake engine; every
 * result must be the same.
 *
 * The test starts its own PostgreSQL with tests/pg/pg_env.sh on a free
 * loopback port (stopped again at exit, also after a crash), and for each
 * case file recreates database `lakecat` there, while the engine gets a fresh
 * memory:// catalog. Both run the file's statements in order on one
 * connection / session; each statement's answer is reduced to event strings
 * by sql_events.h (column names, type OIDs, typlen, typmod, rows as text,
 * binary COPY tuples, command tags, SQLSTATEs, notices, transaction status)
 * and compared. One test per case file.
 *
 * Case file format:
 *   - a statement ends with `;` at the end of a line (it may span lines; a
 *     line holding several `;`-separated statements is sent as ONE simple
 *     Query, like DuckLake's commit batches);
 *   - `--` comment lines between statements are ignored;
 *   - `\i FILE` includes another file of tests/sql_cases (00_schema.sql: the
 *     28 CREATE TABLEs DuckLake sends);
 *   - after a `COPY ... FROM STDIN` statement, the following lines up to `\.`
 *     are its text-format data;
 *   - `\describe SQL;` prepares SQL as the unnamed statement without
 *     parameter types (Parse, Sync) and describes it (Describe, Sync): the
 *     parameter count and types of its ParameterDescription and its
 *     RowDescription (or NoData) are compared, as a driver that types its
 *     arguments by what the server describes sees them.
 * Rows are compared as a multiset unless the statement says ORDER BY (COPY
 * TO data: always a multiset) or carries the SQL comment HEAP_ORDER_MARK: a
 * scan without ORDER BY whose row order, PostgreSQL's heap order, is
 * compared too (COPY TO data included).
 * Volatile values (masked on both sides): columns of type oid / tid,
 * version(), now(), snapshot_time / schedule_start, ctid fields in COPY.
 * Every error's SQLSTATE, message, DETAIL and position is compared, but
 * for a statement carrying the SQL comment LOOSE_ERROR_MARK (a known
 * difference of wording, listed in docs/sql-support.md), whose SQLSTATE
 * alone is.
 *
 * ROCKLAKE_SQL_CASE=substring runs only matching files; ROCKLAKE_PG_PORT=N
 * uses an already running server on 127.0.0.1:N instead of starting one.
 */
#include <arpa/inet.h>
#include <ctype.h>
#include <dirent.h>
#include <netinet/in.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <unistd.h>

#include <libpq-fe.h>

#include "sql/sql.h"
#include "sql_events.h"
#include "testutil.h"

#define CASE_DIR "tests/sql_cases"
#define HEAP_ORDER_MARK "/* heap order */"
#define LOOSE_ERROR_MARK "/* error text differs */"

static char g_pgdir[256];
static int g_port;
static bool g_started;

/* ------------------------------------------------------ PostgreSQL env */

static void pg_stop(void)
{
    if (!g_started)
        return;
    g_started = false;
    char cmd[512];
    snprintf(cmd, sizeof cmd, "tests/pg/pg_env.sh stop '%s'", g_pgdir);
    if (system(cmd) != 0)
        fprintf(stderr, "# pg_env.sh stop failed for %s\n", g_pgdir);
}

static void on_signal(int sig)
{
    /* Not async-signal-safe, but the process is dying anyway and leaving a
     * server behind is worse. */
    pg_stop();
    signal(sig, SIG_DFL);
    raise(sig);
}

/* A free loopback port: bind port 0 and read back what the kernel chose. */
static int free_port(void)
{
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    if (fd < 0)
        return 0;
    struct sockaddr_in a = {.sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    socklen_t len = sizeof a;
    int port = 0;
    if (bind(fd, (struct sockaddr *)&a, sizeof a) == 0 &&
        getsockname(fd, (struct sockaddr *)&a, &len) == 0)
        port = ntohs(a.sin_port);
    close(fd);
    return port;
}

static bool pg_start(void)
{
    const char *fixed = getenv("ROCKLAKE_PG_PORT");
    if (fixed) {
        g_port = atoi(fixed);
        return g_port > 0;
    }
    g_port = free_port();
    snprintf(g_pgdir, sizeof g_pgdir, "/tmp/rl_pgdiff_%d", (int)getpid());
    char cmd[512];
    snprintf(cmd, sizeof cmd, "tests/pg/pg_env.sh start %d '%s'", g_port, g_pgdir);
    g_started = true;
    atexit(pg_stop);
    signal(SIGSEGV, on_signal);
    signal(SIGABRT, on_signal);
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    if (system(cmd) != 0) {
        fprintf(stderr, "# could not start PostgreSQL 15 (%s)\n", cmd);
        return false;
    }
    return true;
}

static PGconn *pg_connect(const char *db, const char *user)
{
    char conninfo[256];
    snprintf(conninfo, sizeof conninfo, "host=127.0.0.1 port=%d dbname=%s user=%s", g_port, db,
             user);
    PGconn *c = PQconnectdb(conninfo);
    if (PQstatus(c) != CONNECTION_OK) {
        fprintf(stderr, "# connect %s: %s", conninfo, PQerrorMessage(c));
        PQfinish(c);
        return NULL;
    }
    return c;
}

/* DROP + CREATE DATABASE lakecat, so every case starts from nothing. */
static bool pg_fresh_db(void)
{
    PGconn *c = pg_connect("postgres", "postgres");
    if (!c)
        return false;
    bool ok = true;
    const char *sql[] = {"DROP DATABASE IF EXISTS lakecat WITH (FORCE)",
                         "CREATE DATABASE lakecat OWNER lake"};
    for (size_t i = 0; i < 2 && ok; i++) {
        PGresult *r = PQexec(c, sql[i]);
        ok = PQresultStatus(r) == PGRES_COMMAND_OK;
        if (!ok)
            fprintf(stderr, "# %s: %s", sql[i], PQerrorMessage(c));
        PQclear(r);
    }
    PQfinish(c);
    return ok;
}

/* ---------------------------------------------------------- case files */

typedef struct stmt {
    char *sql;
    char *copy_data; /* text COPY data for a FROM STDIN statement, or NULL */
    bool describe;   /* `\describe`: prepare and describe, do not run */
    int line;
    char file[64];
} stmt;

typedef struct stmts {
    stmt *v;
    size_t n, cap;
} stmts;

static void stmts_push(stmts *l, const char *file, int line, char *sql)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? l->cap * 2 : 64;
        l->v = xrealloc(l->v, l->cap * sizeof *l->v);
    }
    stmt *s = &l->v[l->n++];
    memset(s, 0, sizeof *s);
    s->sql = sql;
    s->line = line;
    snprintf(s->file, sizeof s->file, "%s", file);
}

static void stmts_free(stmts *l)
{
    for (size_t i = 0; i < l->n; i++) {
        free(l->v[i].sql);
        free(l->v[i].copy_data);
    }
    free(l->v);
}

static bool is_blank(const char *s)
{
    while (*s && isspace((unsigned char)*s))
        s++;
    return *s == 0;
}

static bool ends_statement(const char *line)
{
    size_t n = strlen(line);
    while (n && isspace((unsigned char)line[n - 1]))
        n--;
    return n && line[n - 1] == ';';
}

static bool is_copy_from_stdin(const char *sql)
{
    while (isspace((unsigned char)*sql))
        sql++;
    return strncasecmp(sql, "COPY", 4) == 0 && strcasestr(sql, "FROM STDIN") != NULL;
}

static bool load_case(const char *name, stmts *out, int depth);

/* Text COPY data: the lines after the statement up to "\.". */
static char *read_copy_data(FILE *f, int *lineno)
{
    rl_buf b;
    rl_buf_init(&b, 0);
    char line[65536];
    while (fgets(line, sizeof line, f)) {
        (*lineno)++;
        if (strncmp(line, "\\.", 2) == 0)
            break;
        rl_buf_put_str(&b, line);
    }
    return buf_cstr(&b);
}

static bool load_case(const char *name, stmts *out, int depth)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", CASE_DIR, name);
    FILE *f = fopen(path, "r");
    if (!f || depth > 4) {
        fprintf(stderr, "# cannot read %s\n", path);
        if (f)
            fclose(f);
        return false;
    }
    char line[65536];
    rl_buf cur;
    rl_buf_init(&cur, 0);
    int lineno = 0, start = 0;
    bool ok = true;
    while (ok && fgets(line, sizeof line, f)) {
        lineno++;
        if (cur.len == 0) {
            if (is_blank(line) || strncmp(line, "--", 2) == 0)
                continue;
            if (strncmp(line, "\\i ", 3) == 0) {
                line[strcspn(line, "\r\n")] = 0;
                ok = load_case(line + 3, out, depth + 1);
                continue;
            }
            start = lineno;
        }
        rl_buf_put_str(&cur, line);
        if (!ends_statement(line))
            continue;
        char *sql = buf_cstr(&cur);
        sql[strcspn(sql, "\0")] = 0;
        size_t n = strlen(sql);
        while (n && isspace((unsigned char)sql[n - 1]))
            sql[--n] = 0;
        static const char describe_cmd[] = "\\describe ";
        bool describe = strncmp(sql, describe_cmd, sizeof describe_cmd - 1) == 0;
        if (describe)
            memmove(sql, sql + sizeof describe_cmd - 1, n - (sizeof describe_cmd - 1) + 1);
        stmts_push(out, name, start, sql);
        out->v[out->n - 1].describe = describe;
        if (is_copy_from_stdin(sql))
            out->v[out->n - 1].copy_data = read_copy_data(f, &lineno);
        rl_buf_init(&cur, 0);
    }
    if (ok && cur.len && !is_blank((char *)buf_cstr(&cur)))
        fprintf(stderr, "# %s: text after the last ';' ignored\n", path);
    rl_buf_free(&cur);
    fclose(f);
    return ok;
}

/* ---------------------------------------------------- PostgreSQL side */

static void pg_notice(void *arg, const PGresult *r)
{
    const char *code = PQresultErrorField(r, PG_DIAG_SQLSTATE);
    ev_error(arg, 'N', code ? code : "?????", "", "", 0);
}

static void pg_tuples(side *s, PGresult *r)
{
    size_t n = (size_t)PQnfields(r);
    if (n > MAX_COLS)
        n = MAX_COLS;
    const char *names[MAX_COLS] = {0};
    uint32_t oids[MAX_COLS] = {0};
    int16_t lens[MAX_COLS] = {0};
    int32_t mods[MAX_COLS] = {0};
    for (size_t i = 0; i < n; i++) {
        names[i] = PQfname(r, (int)i);
        oids[i] = PQftype(r, (int)i);
        lens[i] = (int16_t)PQfsize(r, (int)i);
        mods[i] = PQfmod(r, (int)i);
    }
    ev_rowdesc(s, n, names, oids, lens, mods);
    for (int row = 0; row < PQntuples(r); row++) {
        const uint8_t *vals[MAX_COLS] = {0};
        size_t vl[MAX_COLS] = {0};
        for (size_t i = 0; i < n; i++) {
            if (PQgetisnull(r, row, (int)i))
                continue;
            vals[i] = (const uint8_t *)PQgetvalue(r, row, (int)i);
            vl[i] = (size_t)PQgetlength(r, row, (int)i);
        }
        ev_datarow(s, n, vals, vl);
    }
}

static void pg_copy_out(side *s, PGconn *c, PGresult *r)
{
    ev_copy_begin(s, 'H', PQbinaryTuples(r), (size_t)PQnfields(r));
    char *buf;
    int n;
    while ((n = PQgetCopyData(c, &buf, 0)) > 0) {
        ev_copy_data(s, (const uint8_t *)buf, (size_t)n);
        PQfreemem(buf);
    }
    ev_copy_end(s);
}

static void pg_copy_in(side *s, PGconn *c, PGresult *r, const char *data)
{
    ev_copy_begin(s, 'G', PQbinaryTuples(r), (size_t)PQnfields(r));
    if (data && *data)
        PQputCopyData(c, data, (int)strlen(data));
    PQputCopyEnd(c, NULL);
}

static void pg_result(side *s, PGconn *c, PGresult *r, const char *copy_data)
{
    switch (PQresultStatus(r)) {
    case PGRES_TUPLES_OK:
        pg_tuples(s, r);
        ev_complete(s, PQcmdStatus(r));
        break;
    case PGRES_COMMAND_OK: ev_complete(s, PQcmdStatus(r)); break;
    case PGRES_EMPTY_QUERY: flush_rows(s); sl_pushf(&s->ev, "I"); break;
    case PGRES_COPY_OUT: pg_copy_out(s, c, r); break;
    case PGRES_COPY_IN: pg_copy_in(s, c, r, copy_data); break;
    default: {
        const char *code = PQresultErrorField(r, PG_DIAG_SQLSTATE);
        const char *pos = PQresultErrorField(r, PG_DIAG_STATEMENT_POSITION);
        ev_error(s, 'E', code ? code : "?????", PQresultErrorField(r, PG_DIAG_MESSAGE_PRIMARY),
                 PQresultErrorField(r, PG_DIAG_MESSAGE_DETAIL), pos ? atoi(pos) : 0);
        break;
    }
    }
}

static void pg_run(side *s, PGconn *c, const stmt *st)
{
    PQsetNoticeReceiver(c, pg_notice, s);
    if (!PQsendQuery(c, st->sql)) {
        sl_pushf(&s->ev, "libpq: %s", PQerrorMessage(c));
        return;
    }
    PGresult *r;
    while ((r = PQgetResult(c)) != NULL) {
        pg_result(s, c, r, st->copy_data);
        PQclear(r);
    }
    flush_rows(s);
    PGTransactionStatusType ts = PQtransactionStatus(c);
    sl_pushf(&s->ev, "Z %c", ts == PQTRANS_INTRANS ? 'T' : ts == PQTRANS_INERROR ? 'E' : 'I');
}

/* `\describe`: PQprepare without types, then PQdescribePrepared. */
static void pg_describe(side *s, PGconn *c, const stmt *st)
{
    PGresult *r = PQprepare(c, "", st->sql, 0, NULL);
    if (PQresultStatus(r) == PGRES_COMMAND_OK) {
        PQclear(r);
        r = PQdescribePrepared(c, "");
    }
    if (PQresultStatus(r) != PGRES_COMMAND_OK) {
        pg_result(s, c, r, NULL); /* the error */
    } else {
        rl_buf b;
        rl_buf_init(&b, 0);
        rl_buf_printf(&b, "t %d:", PQnparams(r));
        for (int i = 0; i < PQnparams(r); i++)
            ev_param_oid(&b, PQparamtype(r, i));
        sl_push(&s->ev, buf_cstr(&b));
        if (PQnfields(r) == 0)
            sl_pushf(&s->ev, "n");
        else
            pg_tuples(s, r);
    }
    PQclear(r);
    flush_rows(s);
    PGTransactionStatusType ts = PQtransactionStatus(c);
    sl_pushf(&s->ev, "Z %c", ts == PQTRANS_INTRANS ? 'T' : ts == PQTRANS_INERROR ? 'E' : 'I');
}

/* -------------------------------------------------------- engine side */

static void rl_describe_stmt(side *s, rl_session *ses, const stmt *st)
{
    rl_error err = {0};
    rl_describe d;
    int rc = rl_session_parse(ses, "", st->sql, 0, NULL, &err);
    rl_error sync_err = {0};
    rl_session_sync(ses, &sync_err);
    if (rc == 0) {
        rc = rl_session_describe_statement(ses, "", &d, &err);
        if (rc == 0) {
            rl_buf b;
            rl_buf_init(&b, 0);
            rl_buf_printf(&b, "t %zu:", d.nparams);
            for (size_t i = 0; i < d.nparams; i++)
                ev_param_oid(&b, d.param_oids[i]);
            sl_push(&s->ev, buf_cstr(&b));
            if (!d.has_rows)
                sl_pushf(&s->ev, "n");
            else
                sk_rowdesc(s, d.ncols, d.cols); /* as the engine's sink reports one */
        }
        rl_session_sync(ses, &sync_err);
    }
    if (rc != 0)
        ev_error(s, 'E', err.sqlstate[0] ? err.sqlstate : "?????", err.message, err.detail,
                 err.position);
    flush_rows(s);
    sl_pushf(&s->ev, "Z %c", rl_session_status(ses));
}

static void rl_run(side *s, rl_session *ses, const stmt *st)
{
    s->sess = ses;
    rl_sink sink = ev_sink(s);
    rl_error err = {0};
    rl_exec_status rc = rl_session_simple_query(ses, st->sql, &sink, &err);
    while (rc == RL_EXEC_COPY_IN) {
        const char *d = st->copy_data ? st->copy_data : "";
        if (*d && rl_session_copy_data(ses, (const uint8_t *)d, strlen(d), &err) != 0) {
            rl_error ignored = {0};
            rl_session_copy_fail(ses, "copy data rejected", &sink, &ignored);
            rc = RL_EXEC_ERROR;
            break;
        }
        rc = rl_session_copy_done(ses, &sink, &err);
    }
    if (rc == RL_EXEC_ERROR)
        ev_error(s, 'E', err.sqlstate[0] ? err.sqlstate : "?????", err.message, err.detail,
                 err.position);
    flush_rows(s);
    sl_pushf(&s->ev, "Z %c", rl_session_status(ses));
}

/* --------------------------------------------------------------- cases */

static int g_case_seq;

static void report_diff(const stmt *st, const side *e, const side *a)
{
    fprintf(stderr, "  %s:%d: %.300s%s\n", st->file, st->line, st->sql,
            strlen(st->sql) > 300 ? " ..." : "");
    print_diff(&e->ev, &a->ev, 8);
}


static void run_case(const char *file)
{
    stmts list = {0};
    if (!load_case(file, &list, 0) || !pg_fresh_db()) {
        CHECK(!"case could not be loaded / database not recreated");
        stmts_free(&list);
        return;
    }
    PGconn *pc = pg_connect("lakecat", "lake");
    char url[128];
    snprintf(url, sizeof url, "memory://sqldiff-%d-%d", (int)getpid(), ++g_case_seq);
    rl_error err = {0};
    rl_catalog_options co = {.create_if_missing = true};
    rl_catalog *cat = rl_catalog_open(url, &co, &err);
    rl_engine_options eo = {.database = "lakecat"};
    rl_engine *eng = cat ? rl_engine_new(cat, &eo, &err) : NULL;
    rl_session_info info = {.user = "lake", .application_name = "", .client_addr = "127.0.0.1"};
    rl_session *ses = eng ? rl_session_new(eng, &info) : NULL;
    CHECK(pc != NULL);
    CHECK(ses != NULL);
    side e, a;
    side_init(&e);
    side_init(&a);
    size_t diffs = 0;
    for (size_t i = 0; pc && ses && i < list.n; i++) {
        const stmt *st = &list.v[i];
        stmtinfo si;
        analyze_sql(st->sql, &si);
        si.loose = false; /* the cases use no wall-clock literals */
        side_reset(&e, &si);
        side_reset(&a, &si);
        bool heap_order = strstr(st->sql, HEAP_ORDER_MARK) != NULL;
        e.strict_errors = a.strict_errors = strstr(st->sql, LOOSE_ERROR_MARK) == NULL;
        e.sort_all = a.sort_all = strcasestr(st->sql, "ORDER BY") == NULL && !heap_order;
        e.copy_in_order = a.copy_in_order = heap_order;
        if (st->describe) {
            pg_describe(&e, pc, st);
            rl_describe_stmt(&a, ses, st);
        } else {
            pg_run(&e, pc, st);
            rl_run(&a, ses, st);
        }
        if (!events_equal(&e.ev, &a.ev)) {
            diffs++;
            report_diff(st, &e, &a);
        }
    }
    fprintf(stderr, "# %s: %zu statements, %zu differences\n", file, list.n, diffs);
    CHECK_EQ_INT(diffs, 0);
    side_free(&e);
    side_free(&a);
    if (ses)
        rl_session_free(ses);
    if (eng)
        rl_engine_free(eng);
    if (cat)
        rl_catalog_close(cat, &err);
    if (pc)
        PQfinish(pc);
    stmts_free(&list);
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int main(void)
{
    if (!pg_start()) {
        printf("0 passed, 1 failed\n");
        return 1;
    }
    DIR *d = opendir(CASE_DIR);
    if (!d) {
        fprintf(stderr, "# no %s\n", CASE_DIR);
        printf("0 passed, 1 failed\n");
        return 1;
    }
    strlist files = {0};
    struct dirent *de;
    const char *only = getenv("ROCKLAKE_SQL_CASE");
    while ((de = readdir(d)) != NULL) {
        size_t n = strlen(de->d_name);
        if (n < 5 || strcmp(de->d_name + n - 4, ".sql") != 0 || de->d_name[0] == '0')
            continue; /* 0*.sql are includes (00_schema.sql) */
        if (only && !strstr(de->d_name, only))
            continue;
        sl_push(&files, xstrdup(de->d_name));
    }
    closedir(d);
    qsort(files.v, files.n, sizeof *files.v, cmp_name);
    for (size_t i = 0; i < files.n; i++) {
        tu_cur_name = files.v[i];
        tu_cur_failed = 0;
        run_case(files.v[i]);
        if (tu_cur_failed) {
            tu_failed++;
            fprintf(stderr, "not ok - %s\n", files.v[i]);
        } else {
            tu_passed++;
            fprintf(stderr, "ok - %s\n", files.v[i]);
        }
    }
    sl_free(&files);
    pg_stop();
    return tu_finish();
}
