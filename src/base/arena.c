/*
 * arena.c — bump allocator with stable pointers (see arena.h).
 *
 * Invariants (asserted): every block has used <= cap; a pointer handed out
 * is 8-byte aligned and lies inside its block; total counts the bytes
 * handed out since the last free. A request too large to round up or to
 * add a block header to fails (NULL) instead of wrapping.
 */
#include "base/arena.h"

#include <assert.h>
#include <stdlib.h>
#include <string.h>

struct rl_arena_block {
    rl_arena_block *next;
    size_t used, cap;
    _Alignas(8) uint8_t data[];
};

#define RL_ARENA_BLOCK (32 * 1024)

void *rl_arena_alloc(rl_arena *a, size_t n)
{
    if (n > SIZE_MAX / 2)
        return NULL;
    n = (n + 7) & ~(size_t)7;
    rl_arena_block *b = a->head;
    assert(!b || b->used <= b->cap);
    if (!b || b->cap - b->used < n) {
        size_t cap = n > RL_ARENA_BLOCK / 4 ? n : RL_ARENA_BLOCK;
        rl_arena_block *nb = malloc(sizeof *nb + cap);
        if (!nb)
            return NULL;
        nb->used = 0;
        nb->cap = cap;
        nb->next = b;
        a->head = b = nb;
    }
    void *p = b->data + b->used;
    b->used += n;
    a->total += n;
    assert(b->used <= b->cap && ((uintptr_t)p & 7) == 0);
    return p;
}

void *rl_arena_dup(rl_arena *a, const void *p, size_t n)
{
    void *d = rl_arena_alloc(a, n ? n : 1);
    if (d && n)
        memcpy(d, p, n);
    return d;
}

char *rl_arena_strdup(rl_arena *a, const char *s)
{
    size_t n = strlen(s);
    char *d = rl_arena_alloc(a, n + 1);
    if (d)
        memcpy(d, s, n + 1);
    return d;
}

void rl_arena_free(rl_arena *a)
{
    rl_arena_block *b = a->head;
    while (b) {
        rl_arena_block *next = b->next;
        free(b);
        b = next;
    }
    a->head = NULL;
    a->total = 0;
}

void rl_arena_adopt(rl_arena *dst, rl_arena *src)
{
    rl_arena_block *first = src->head;
    if (!first)
        return;
    if (!dst->head) {
        dst->head = first;
    } else { /* keep dst's current block in front: it is the one being filled */
        rl_arena_block *last = first;
        while (last->next)
            last = last->next;
        last->next = dst->head->next;
        dst->head->next = first;
    }
    dst->total += src->total;
    src->head = NULL;
    src->total = 0;
}
