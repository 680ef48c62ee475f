/*
 * stack.c — the calling thread's remaining C stack (see stack.h).
 */
#include "base/stack.h"

#include <pthread.h>
#include <stdint.h>

/* Lowest usable address of this thread's stack (stacks grow down on every
 * platform RockLake builds for), found on first use. */
static _Thread_local uintptr_t stack_low;
static _Thread_local bool stack_known;

static void stack_find(void)
{
    stack_known = true;
    pthread_attr_t at;
    if (pthread_getattr_np(pthread_self(), &at) != 0)
        return;
    void *addr = NULL;
    size_t size = 0;
    if (pthread_attr_getstack(&at, &addr, &size) == 0)
        stack_low = (uintptr_t)addr;
    pthread_attr_destroy(&at);
}

size_t rl_stack_remaining(void)
{
    if (!stack_known)
        stack_find();
    /* the frame address, not a local's: under AddressSanitizer locals may
     * live on a heap "fake stack" */
    uintptr_t here = (uintptr_t)__builtin_frame_address(0);
    if (!stack_low)
        return SIZE_MAX; /* unknown bounds: never refuse */
    return here > stack_low ? here - stack_low : 0;
}

bool rl_stack_exhausted(void)
{
    return rl_stack_remaining() < RL_STACK_MARGIN;
}

int rl_stack_depth_error(rl_error *e)
{
    rl_error_set(e, RL_SQLSTATE_STATEMENT_TOO_COMPLEX, "stack depth limit exceeded");
    rl_error_hint(e, "Increase the configuration parameter \"max_stack_depth\" (currently "
                     "2048kB), after ensuring the platform's stack depth limit is adequate.");
    return -1;
}
