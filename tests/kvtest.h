/*
 * kvtest.h — kv.h helpers shared by test_journal.c, its child process
 * helper_journal.c, and test_kv.c.
 *
 * Owns: nothing but small conveniences over kv.h for string keys and the
 * per-run directory file:// stores live in.
 */
#ifndef ROCKLAKE_KVTEST_H
#define ROCKLAKE_KVTEST_H

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kv/kv.h"

/* Create and name in out the directory this run's file:// stores live in:
 * "<$ROCKLAKE_TEST_TMP or /tmp, made absolute>/<name>-<pid>". */
static inline void kvt_run_dir(char *out, size_t n, const char *name)
{
    const char *tmp = getenv("ROCKLAKE_TEST_TMP");
    if (!tmp || !*tmp) tmp = "/tmp";
    mkdir(tmp, 0755);
    char abs[PATH_MAX];
    snprintf(out, n, "%.800s/%s-%d", realpath(tmp, abs) ? abs : tmp, name, (int)getpid());
    mkdir(out, 0755);
}

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
