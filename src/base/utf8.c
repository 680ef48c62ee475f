/*
 * utf8.c — UTF-8 validation with PostgreSQL's error, and cutting a string at
 * a character boundary (see utf8.h).
 */
#include "base/utf8.h"

#include <stdio.h>
#include <string.h>

size_t rl_utf8_char_len(const uint8_t *p, size_t n)
{
    uint8_t c = p[0];
    size_t len = c < 0x80 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3
               : (c & 0xF8) == 0xF0 ? 4 : 0;
    if (c == 0 || len == 0 || len > n || (len == 2 && c < 0xC2) || (len == 4 && c > 0xF4))
        return 0;
    for (size_t i = 1; i < len; i++)
        if ((p[i] & 0xC0) != 0x80)
            return 0;
    if (len == 3 && ((c == 0xE0 && p[1] < 0xA0) || (c == 0xED && p[1] >= 0xA0)))
        return 0; /* overlong / surrogate */
    if (len == 4 && ((c == 0xF0 && p[1] < 0x90) || (c == 0xF4 && p[1] >= 0x90)))
        return 0; /* overlong / past U+10FFFF */
    return len;
}

size_t rl_utf8_invalid_at(const uint8_t *p, size_t n)
{
    size_t i = 0;
    while (i < n) {
        if (p[i] != 0 && p[i] < 0x80) { /* ASCII: the common case, one test */
            i++;
            continue;
        }
        size_t l = rl_utf8_char_len(p + i, n - i);
        if (l == 0)
            return i;
        i += l;
    }
    return n;
}

/* pg_utf_mblen: the length the first byte announces (1 for invalid ones). */
static size_t announced_len(uint8_t c)
{
    return (c & 0x80) == 0 ? 1 : (c & 0xE0) == 0xC0 ? 2 : (c & 0xF0) == 0xE0 ? 3
         : (c & 0xF8) == 0xF0 ? 4 : 1;
}

int rl_utf8_check(rl_error *e, const uint8_t *p, size_t n)
{
    size_t at = rl_utf8_invalid_at(p, n);
    if (at == n)
        return 0;
    char hex[32] = "";
    size_t show = announced_len(p[at]), used = 0;
    for (size_t k = 0; k < show && at + k < n; k++)
        used += (size_t)snprintf(hex + used, sizeof hex - used, "%s0x%02x", k ? " " : "",
                                 p[at + k]);
    return rl_error_set(e, RL_SQLSTATE_CHARACTER_NOT_IN_REPERTOIRE,
                        "invalid byte sequence for encoding \"UTF8\": %s", hex);
}

size_t rl_utf8_clip(const char *s, size_t n)
{
    /* only whether s is longer than n matters: never past byte n + 1 */
    size_t len = n == SIZE_MAX ? strlen(s) : strnlen(s, n + 1);
    if (n >= len)
        return len;
    while (n > 0 && ((unsigned char)s[n] & 0xC0) == 0x80) /* a continuation byte */
        n--;
    return n;
}
