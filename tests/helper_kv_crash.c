/*
 * helper_kv_crash.c — child process for test_kv's crash-atomicity case.
 *
 * Owns: nothing but its own loop. Usage: helper_kv_crash URL START COUNT
 * Opens URL as the writer and, for i = START .. START+COUNT-1, writes one
 * batch: puts "c|<i:08>|<j:02>" = "v<i>" for j in 0..50, puts "t|<i:08>" and
 * deletes "t|<i-1:08>" (so exactly one t| key exists after any whole number of
 * batches). After each kv_write returns (durable) it prints "ack <i>" and
 * flushes stdout. The parent SIGKILLs it at a random point; if nobody does, it
 * stops by itself after COUNT batches or 60 seconds so nothing hangs.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "kv/kv.h"

static void put_str(kv_batch *b, const char *k, const char *v)
{
    kv_batch_put(b, (const uint8_t *)k, strlen(k), (const uint8_t *)v, strlen(v));
}

static void build_batch(kv_batch *b, long i)
{
    char key[64], val[32];
    snprintf(val, sizeof val, "v%ld", i);
    for (int j = 0; j < 50; j++) {
        snprintf(key, sizeof key, "c|%08ld|%02d", i, j);
        put_str(b, key, val);
    }
    snprintf(key, sizeof key, "t|%08ld", i);
    put_str(b, key, val);
    if (i > 0) {
        snprintf(key, sizeof key, "t|%08ld", i - 1);
        kv_batch_delete(b, (const uint8_t *)key, strlen(key));
    }
}

int main(int argc, char **argv)
{
    if (argc != 4) {
        fprintf(stderr, "usage: %s URL START COUNT\n", argv[0]);
        return 2;
    }
    long start = atol(argv[2]), count = atol(argv[3]);
    kv_error err;
    kv_db *db = kv_open_writer(argv[1], NULL, &err);
    if (!db) {
        fprintf(stderr, "helper: open failed: %s: %s\n", kv_error_kind_name(err.kind), err.message);
        return 2;
    }
    time_t deadline = time(NULL) + 60;
    for (long i = start; i < start + count && time(NULL) < deadline; i++) {
        kv_batch *b = kv_batch_new();
        build_batch(b, i);
        int rc = kv_write(db, b, &err);
        kv_batch_free(b);
        if (rc != 0) {
            fprintf(stderr, "helper: write %ld failed: %s: %s\n", i, kv_error_kind_name(err.kind),
                    err.message);
            return 2;
        }
        printf("ack %ld\n", i);
        fflush(stdout);
    }
    kv_close(db, NULL);
    return 0;
}
