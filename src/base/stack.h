/*
 * stack.h — how much C stack the calling thread has left, and the
 * "stack depth limit exceeded" error (54001) for code that recurses over
 * client-controlled input.
 *
 * Owns: the per-thread stack bounds (found once per thread, from the
 * thread's own attributes, so it is right on the main thread, on session
 * threads and under the fuzzer alike) and the size session threads are
 * created with.
 *
 * Why our own check: PostgreSQL guards its recursion with
 * check_stack_depth(), but the libpg_query build RockLake links compiles
 * that check out (its stack base pointer is never set, so the check always
 * passes). Every recursion over a parse tree in RockLake therefore calls
 * rl_stack_exhausted() itself, and the parser, which cannot be instrumented,
 * is only handed texts whose nesting fits the stack (sql_parse.c).
 */
#ifndef ROCKLAKE_STACK_H
#define ROCKLAKE_STACK_H

#include <stdbool.h>
#include <stddef.h>

#include "base/error.h"

/* Stack of a session thread. Only the pages a statement touches become
 * resident; the size is what lets the deepest statement the nesting limit
 * admits (sql_parse.c) parse, plan and evaluate. */
#define RL_SESSION_STACK_BYTES ((size_t)16 << 20)

/* Stack kept free below the deepest checked frame: room for the unchecked
 * callees of a checked frame (libc, OpenSSL, protobuf-c, short walkers). */
#define RL_STACK_MARGIN ((size_t)3 << 20)

/* Bytes of the calling thread's stack below the caller's frame. */
size_t rl_stack_remaining(void);

/* True when the caller is within RL_STACK_MARGIN of the end of its stack. */
bool rl_stack_exhausted(void);

/* PostgreSQL 15's error for too deep a recursion, with its HINT (the
 * default max_stack_depth it names is what PostgreSQL prints; RockLake has
 * no such setting). Returns -1. */
int rl_stack_depth_error(rl_error *e);

#endif
