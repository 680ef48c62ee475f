/*
 * helper_sql.c — a debugging shell over the SQL engine (no network).
 *
 * Usage: helper_sql [STORE_URL] < queries
 * Each input line is one simple-query message (a line may hold several
 * ;-separated statements, like DuckLake's commit batches). Prints what the
 * engine answers: row descriptions, rows as text, command tags, notices and
 * errors with SQLSTATE, message, detail and position. Default store:
 * memory://helper-sql.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "sql/sql.h"

static int on_rowdesc(void *ctx, size_t n, const rl_col_info *cols)
{
    (void)ctx;
    printf("T");
    for (size_t i = 0; i < n; i++)
        printf(" %s:%u", cols[i].name, cols[i].type_oid);
    printf("\n");
    return 0;
}

static int on_row(void *ctx, size_t n, const rl_value *vals)
{
    (void)ctx;
    rl_buf b;
    rl_buf_init(&b, 0);
    printf("D");
    for (size_t i = 0; i < n; i++) {
        rl_buf_reset(&b);
        if (vals[i].d.isnull) {
            printf(" NULL");
            continue;
        }
        rl_value_to_text(&b, &vals[i]);
        printf(" '%.*s'", (int)b.len, b.data ? (const char *)b.data : "");
    }
    printf("\n");
    rl_buf_free(&b);
    return 0;
}

static int on_complete(void *ctx, const char *tag)
{
    (void)ctx;
    printf("C %s\n", tag);
    return 0;
}

static int on_notice(void *ctx, const rl_error *n)
{
    (void)ctx;
    printf("N %s %s\n", n->sqlstate, n->message);
    return 0;
}

static int on_copy_begin(void *ctx, int format, size_t ncols)
{
    (void)ctx;
    printf("H format=%d ncols=%zu\n", format, ncols);
    return 0;
}

static int on_copy_data(void *ctx, const uint8_t *p, size_t n)
{
    (void)ctx;
    (void)p;
    printf("d %zu bytes\n", n);
    return 0;
}

int main(int argc, char **argv)
{
    const char *url = argc > 1 ? argv[1] : "memory://helper-sql";
    rl_catalog_options o = {.create_if_missing = true};
    rl_error e;
    rl_catalog *cat = rl_catalog_open(url, &o, &e);
    if (!cat) {
        fprintf(stderr, "open: %s\n", e.message);
        return 1;
    }
    rl_engine *eng = rl_engine_new(cat, NULL, &e);
    rl_session *s = rl_session_new(eng, NULL);
    rl_sink sink = {.row_description = on_rowdesc, .data_row = on_row,
                    .command_complete = on_complete, .notice = on_notice,
                    .copy_out_begin = on_copy_begin, .copy_out_data = on_copy_data};
    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    while ((n = getline(&line, &cap, stdin)) > 0) {
        if (line[n - 1] == '\n')
            line[n - 1] = 0;
        if (!line[0])
            continue;
        rl_exec_status st = rl_session_simple_query(s, line, &sink, &e);
        if (st == RL_EXEC_ERROR)
            printf("E %s %s%s%s (position %d)\n", e.sqlstate, e.message,
                   e.detail[0] ? " DETAIL: " : "", e.detail, e.position);
        printf("Z %c\n", rl_session_status(s));
    }
    free(line);
    rl_session_free(s);
    rl_engine_free(eng);
    rl_catalog_close(cat, NULL);
    return 0;
}
