/*
 * log.c — the structured log lines of `rocklake serve` (see log.h).
 *
 * Nothing here knows what is logged: callers name the event and its pairs.
 * The timestamp is UTC with milliseconds (ISO 8601, "Z").
 */
#include "server/log.h"

#include <stdio.h>
#include <string.h>
#include <time.h>

#include "base/buf.h"

void srv_logger_init(srv_logger *l, bool json, int64_t min_duration_ms, bool error_statement)
{
    l->json = json;
    l->min_duration_ms = min_duration_ms;
    l->error_statement = error_statement;
    pthread_mutex_init(&l->mu, NULL);
}

void srv_logger_destroy(srv_logger *l) { pthread_mutex_destroy(&l->mu); }

static void json_escape(rl_buf *b, const char *s)
{
    rl_buf_put_u8(b, '"');
    for (; *s; s++) {
        unsigned char ch = (unsigned char)*s;
        if (ch == '"' || ch == '\\') {
            rl_buf_put_u8(b, '\\');
            rl_buf_put_u8(b, ch);
        } else if (ch < 0x20) {
            rl_buf_printf(b, "\\u%04x", ch);
        } else {
            rl_buf_put_u8(b, ch);
        }
    }
    rl_buf_put_u8(b, '"');
}

/* Text values are quoted when they would not read back as one token. */
static void text_value(rl_buf *b, const char *s)
{
    if (*s && !strpbrk(s, " \t\n\"=")) {
        rl_buf_put_str(b, s);
        return;
    }
    json_escape(b, s);
}

void srv_log(srv_logger *l, const char *level, const char *event, ...)
{
    char ts[40];
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    struct tm tm;
    gmtime_r(&now.tv_sec, &tm);
    size_t n = strftime(ts, sizeof ts, "%Y-%m-%dT%H:%M:%S", &tm);
    snprintf(ts + n, sizeof ts - n, ".%03ldZ", now.tv_nsec / 1000000);
    rl_buf b;
    rl_buf_init(&b, 0);
    bool json = l && l->json;
    if (json)
        rl_buf_printf(&b, "{\"ts\":\"%s\",\"level\":\"%s\",\"event\":\"%s\"", ts, level, event);
    else
        rl_buf_printf(&b, "%s %s %s", ts, level, event);
    va_list ap;
    va_start(ap, event);
    for (;;) {
        const char *k = va_arg(ap, const char *);
        if (!k)
            break;
        const char *v = va_arg(ap, const char *);
        if (!v)
            break;
        if (json) {
            rl_buf_put_u8(&b, ',');
            json_escape(&b, k);
            rl_buf_put_u8(&b, ':');
            json_escape(&b, v);
        } else {
            rl_buf_printf(&b, " %s=", k);
            text_value(&b, v);
        }
    }
    va_end(ap);
    rl_buf_put_str(&b, json ? "}\n" : "\n");
    if (!b.failed) {
        if (l)
            pthread_mutex_lock(&l->mu);
        fwrite(b.data, 1, b.len, stderr);
        fflush(stderr);
        if (l)
            pthread_mutex_unlock(&l->mu);
    }
    rl_buf_free(&b);
}

bool srv_statement_is_slow(const srv_logger *l, double seconds)
{
    return l->min_duration_ms >= 0 && seconds * 1000.0 >= (double)l->min_duration_ms;
}
