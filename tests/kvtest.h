/*
 * kvtest.h — kv.h helpers shared by test_journal.c and its child process
 * helper_journal.c.
 *
 * Owns: nothing but one-line conveniences over kv.h for string keys.
 */
#ifndef ROCKLAKE_KVTEST_H
#define ROCKLAKE_KVTEST_H

#include <string.h>

#include "kv.h"

/* Write k = v as one batch with kv_write (durable on return). 0 or -1. */
static inline int kvt_put(kv_db *db, const char *k, const char *v, kv_error *err)
{
    kv_batch *b = kv_batch_new();
    kv_batch_put(b, (const uint8_t *)k, strlen(k), (const uint8_t *)v, strlen(v));
    int rc = kv_write(db, b, err);
    kv_batch_free(b);
    return rc;
}

#endif /* ROCKLAKE_KVTEST_H */
