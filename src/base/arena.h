/*
 * arena.h — bump allocator for values that live as long as one result.
 *
 * Owns: memory for strings and rows copied out of scans, so a whole result
 * set is freed at once. Blocks never move: a pointer returned by the arena
 * stays valid until rl_arena_free (unlike rl_buf, which reallocates).
 */
#ifndef ROCKLAKE_ARENA_H
#define ROCKLAKE_ARENA_H

#include <stddef.h>
#include <stdint.h>

typedef struct rl_arena_block rl_arena_block;

typedef struct rl_arena {
    rl_arena_block *head;
    size_t total; /* bytes handed out, for limits and stats */
} rl_arena;

/* A zeroed arena is ready to use. */
void *rl_arena_alloc(rl_arena *a, size_t n);              /* 8-byte aligned; NULL on OOM */
void *rl_arena_dup(rl_arena *a, const void *p, size_t n); /* copy of p[0..n) */
char *rl_arena_strdup(rl_arena *a, const char *s);
void rl_arena_free(rl_arena *a);                          /* releases every block */
/* Move every block of src into dst (src becomes empty): pointers into src
 * stay valid for dst's lifetime. */
void rl_arena_adopt(rl_arena *dst, rl_arena *src);

#endif
