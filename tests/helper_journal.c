/*
 * helper_journal.c — child process for test_journal's crash cases.
 *
 * Owns: nothing but its own steps. Usage: helper_journal URL MODE
 * Opens URL as the writer with SlateDB's WAL flush pushed out by ten
 * minutes, so that only the journal holds what it writes, then:
 *   crash    writes "crash|00" .. "crash|39" one batch each, printing "ack"
 *            after each kv_write returns;
 *   refused  writes a batch SlateDB refuses (a 70,000-byte key next to
 *            "r|before-bad"), checks it failed with KV_ERR_INVALID, then
 *            writes "r|good";
 *   one      writes "o|1".
 * and exits with _exit(0) without closing the store (a crash, as far as
 * the store can tell). Exit 2+ when a step fails.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kv/kv.h"
#include "kvtest.h"

static int refused(kv_db *db)
{
    kv_error err;
    size_t n = 70000;
    uint8_t *key = malloc(n);
    if (!key) return 2;
    memset(key, 'k', n);
    kv_batch *b = kv_batch_new();
    kv_batch_put(b, (const uint8_t *)"r|before-bad", 12, (const uint8_t *)"v", 1);
    kv_batch_put(b, key, n, (const uint8_t *)"v", 1);
    int bad = kv_write(db, b, &err);
    kv_batch_free(b);
    free(key);
    if (bad != -1 || err.kind != KV_ERR_INVALID) return 3;
    return kvt_put(db, "r|good", "v", &err) < 0 ? 4 : 0;
}

int main(int argc, char **argv)
{
    if (argc != 3) {
        fprintf(stderr, "usage: helper_journal URL crash|refused|one\n");
        return 2;
    }
    kv_options o = {0};
    o.flush_interval_ms = 600000;
    kv_error err;
    kv_db *db = kv_open_writer(argv[1], &o, &err);
    if (!db) {
        fprintf(stderr, "helper_journal: %s\n", err.message);
        return 2;
    }
    int rc = 0;
    if (strcmp(argv[2], "crash") == 0) {
        for (int i = 0; i < 40 && rc == 0; i++) {
            char k[32];
            snprintf(k, sizeof k, "crash|%02d", i);
            if (kvt_put(db, k, "v", &err) < 0) rc = 3;
            else printf("ack\n");
            fflush(stdout);
        }
    } else if (strcmp(argv[2], "refused") == 0) {
        rc = refused(db);
    } else if (strcmp(argv[2], "one") == 0) {
        rc = kvt_put(db, "o|1", "v", &err) < 0 ? 3 : 0;
    } else {
        rc = 2;
    }
    fflush(stdout);
    _exit(rc);
}
