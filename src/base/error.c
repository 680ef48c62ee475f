/* error.c — filling rl_error records (see error.h). */
#include "base/error.h"

#include <stdio.h>
#include <string.h>

int rl_error_setv(rl_error *e, const char *sqlstate, const char *fmt, va_list ap)
{
    if (!e)
        return -1;
    memset(e, 0, sizeof *e);
    snprintf(e->sqlstate, sizeof e->sqlstate, "%s", sqlstate);
    vsnprintf(e->message, sizeof e->message, fmt, ap);
    return -1;
}

int rl_error_set(rl_error *e, const char *sqlstate, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    rl_error_setv(e, sqlstate, fmt, ap);
    va_end(ap);
    return -1;
}

void rl_error_detail(rl_error *e, const char *fmt, ...)
{
    if (!e)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->detail, sizeof e->detail, fmt, ap);
    va_end(ap);
}

void rl_error_hint(rl_error *e, const char *fmt, ...)
{
    if (!e)
        return;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(e->hint, sizeof e->hint, fmt, ap);
    va_end(ap);
}

void rl_error_clear(rl_error *e)
{
    if (e)
        memset(e, 0, sizeof *e);
}

void rl_errmsg_setv(char *buf, size_t len, const char *fmt, va_list ap)
{
    if (buf && len > 0)
        vsnprintf(buf, len, fmt, ap);
}

void rl_errmsg_set(char *buf, size_t len, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    rl_errmsg_setv(buf, len, fmt, ap);
    va_end(ap);
}
