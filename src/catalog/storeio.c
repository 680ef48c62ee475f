/*
 * storeio.c — the catalog's access to the store below it: kv errors as
 * PostgreSQL SQLSTATEs, the failed-store latch of an object-store writer,
 * system keys (read, put in a batch), the ducklake-format key, the clock.
 *
 * Owns: cat_kv_fail's mapping (fenced -> 25006 with RL_CAUSE_WRITER_FENCED,
 * corrupt -> XX001, I/O -> 58030); rl_catalog.failed, set once by the first
 * I/O failure of a writer's write path (an object store's write, or a local
 * store's journal write or fdatasync, also the lease heartbeat's: seen
 * through kv_write_failed), or by the refusal of a background load's
 * digest check (kv_load_refused: XX001, not healed by a reopen), and never
 * cleared: the handle is replaced, not
 * mended (the server reopens the store, src/server/lakes.c).
 *
 * Invariants: calls nothing else of the catalog (the bottom of its files);
 * `failed_why` is written only by the winner of `failed_claim`, before
 * `failed` is set, so a reader that sees `failed` sees the text.
 */
#include "catalog/catalog_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <time.h>

#include "keys/keys.h"
#include "keys/tags.h"

void cat_hint_store_error(rl_error *err, const char *store_message)
{
    if (!err || err->hint[0])
        return;
    if (strstr(store_message, "NoSuchBucket"))
        rl_error_hint(err, "the bucket does not exist: create it (aws s3 mb s3://BUCKET), or "
                           "correct the store URL, AWS_ENDPOINT_URL or AWS_REGION");
    else if (strstr(store_message, "InvalidAccessKeyId") ||
             strstr(store_message, "SignatureDoesNotMatch") ||
             strstr(store_message, "AccessDenied"))
        rl_error_hint(err, "the object store refused these credentials: check "
                           "AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY (or the instance role) "
                           "and the bucket's policy");
}

int cat_kv_fail(rl_error *err, const kv_error *ke, const char *what)
{
    if (ke->kind == KV_ERR_FENCED) {
        rl_error_set(err, RL_SQLSTATE_READ_ONLY_TRANSACTION,
                     "this RockLake writer was fenced by a newer writer of the same "
                     "store (%s); nothing was written — reconnect to the current writer",
                     ke->message);
        if (err)
            err->cause = RL_CAUSE_WRITER_FENCED; /* the server logs writer_fenced on it */
        return -1;
    }
    const char *state = ke->kind == KV_ERR_CORRUPT ? RL_SQLSTATE_DATA_CORRUPTED
                        : ke->kind == KV_ERR_IO    ? RL_SQLSTATE_IO
                                                   : RL_SQLSTATE_INTERNAL;
    rl_error_set(err, state, "%s: %s (%s)", what, ke->message, kv_error_kind_name(ke->kind));
    cat_hint_store_error(err, ke->message);
    return -1;
}

static void latch_failed(rl_catalog *cat, const char *why)
{
    if (atomic_flag_test_and_set(&cat->failed_claim))
        return;
    snprintf(cat->failed_why, sizeof cat->failed_why, "%s", why);
    atomic_store(&cat->failed, true);
}

/* A writer's write path saw `ke`: an I/O error leaves the handle unusable
 * (see rl_catalog.failed). On an object store SlateDB's writer is broken
 * after a failed WAL write; on a local store the journal refuses every
 * record after a failed write or fdatasync (journal.c, "After a failure"),
 * and SlateDB's background WAL writes share the disk that failed. */
void cat_note_store_failure(rl_catalog *cat, const kv_error *ke)
{
    if (!cat->read_only && ke->kind == KV_ERR_FENCED)
        atomic_store(&cat->fenced, true); /* rl_catalog_fenced: sticky */
    if (cat->read_only || ke->kind != KV_ERR_IO)
        return;
    latch_failed(cat, ke->message);
}

void cat_hint_store_failed(rl_catalog *cat, rl_error *err)
{
    if (!err || !rl_catalog_failed(cat))
        return;
    if (rl_catalog_heals(cat))
        rl_error_hint(err, "The server reopens the lake from its store by itself once the store "
                           "works again (docs/operations.md, \"Store faults\"): retry then; "
                           "no restart or new connection is needed.");
    else
        rl_error_hint(err, "The store's files are no longer where the server opened them: stop "
                           "the server and check the store before serving it again "
                           "(docs/operations.md, \"Store faults\").");
}

int cat_store_failed_error(rl_catalog *cat, rl_error *err)
{
    if (rl_catalog_refused(cat)) {
        rl_error_set(err, RL_SQLSTATE_DATA_CORRUPTED, "%s", cat->failed_why);
        return -1;
    }
    rl_error_set(err, RL_SQLSTATE_IO,
                 "this lake is unavailable: a write to its %s failed (%s); the commits that "
                 "were not acknowledged may or may not be in the store",
                 cat->object_store ? "object store" : "store's files", cat->failed_why);
    cat_hint_store_failed(cat, err);
    return -1;
}

bool rl_catalog_failed(rl_catalog *cat)
{
    if (!cat)
        return false;
    if (atomic_load(&cat->failed))
        return true;
    /* a local store's journal may have failed under a write that was not a
     * commit (the lease heartbeat): latch it too, with its cause */
    char why[sizeof cat->failed_why];
    if (!cat->read_only && kv_write_failed(cat->kv, why, sizeof why))
        latch_failed(cat, why);
    /* the in-memory copy's load, after the open, refused the store */
    if (!cat->read_only && kv_load_refused(cat->kv, why, sizeof why))
        latch_failed(cat, why);
    return atomic_load(&cat->failed);
}

bool rl_catalog_refused(rl_catalog *cat)
{
    return cat && !cat->read_only && kv_load_refused(cat->kv, NULL, 0);
}

void rl_catalog_start_load(rl_catalog *cat)
{
    if (cat && !cat->read_only)
        kv_load_start(cat->kv);
}

bool rl_catalog_heals(rl_catalog *cat)
{
    return rl_catalog_failed(cat) && kv_write_failed(cat->kv, NULL, 0) != 2 &&
           !rl_catalog_refused(cat);
}

const char *rl_catalog_failed_why(rl_catalog *cat)
{
    return rl_catalog_failed(cat) ? cat->failed_why : "";
}

/* Key k's value (k freed here) in the store as it is now (snap NULL) or at
 * snapshot snap, malloc'd into *v: 1 present, 0 absent, -1 with err set
 * (cat_kv_fail's words after `what`). */
int cat_store_get(kv_db *kv, kv_snapshot *snap, rl_buf *k, uint8_t **v, size_t *vlen,
                     const char *what, rl_error *err)
{
    kv_error ke;
    int rc = kv_get(kv, snap, k->data, k->len, v, vlen, &ke);
    rl_buf_free(k);
    return rc < 0 ? cat_kv_fail(err, &ke, what) : rc;
}

/* System key `name`'s value (malloc'd into *v): 1 present, 0 absent, -1. */
int cat_get_system(kv_db *kv, const char *name, uint8_t **v, size_t *vlen, rl_error *err)
{
    rl_buf k;
    rl_buf_init(&k, 0);
    rl_key_system(&k, name);
    char what[96];
    snprintf(what, sizeof what, "reading system key %s", name);
    return cat_store_get(kv, NULL, &k, v, vlen, what, err);
}

int cat_get_system_u64(kv_db *kv, const char *name, uint64_t *out, bool *found, rl_error *err)
{
    uint8_t *v = NULL;
    size_t vlen = 0;
    int rc = cat_get_system(kv, name, &v, &vlen, err);
    if (rc < 0)
        return -1;
    *found = rc == 1;
    if (rc == 1) {
        if (vlen != 8) {
            free(v);
            return rl_error_set(err, RL_SQLSTATE_DATA_CORRUPTED,
                                "system key \"%s\" has a %zu-byte value, expected 8", name, vlen);
        }
        *out = rl_load_be64(v);
    }
    free(v);
    return 0;
}

/* Put (value not NULL) or delete system key `name` in b. */
void cat_batch_set_system(kv_batch *b, const char *name, const void *value, size_t len)
{
    rl_buf k;
    rl_buf_init(&k, 0);
    rl_key_system(&k, name);
    if (value)
        kv_batch_put(b, k.data, k.len, value, len);
    else
        kv_batch_delete(b, k.data, k.len);
    rl_buf_free(&k);
}

void cat_batch_put_system_u64(kv_batch *b, const char *name, uint64_t v)
{
    uint8_t val[8];
    rl_store_be64(val, v);
    cat_batch_set_system(b, name, val, 8);
}

int64_t cat_now_pg_micros(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    /* PostgreSQL's epoch is 2000-01-01, 946684800 s after the Unix epoch. */
    return ((int64_t)ts.tv_sec - 946684800LL) * 1000000LL + ts.tv_nsec / 1000;
}

/* The ducklake-format system key as the store holds it now (snap NULL) or
 * at snapshot `snap`. */
int cat_load_format(rl_catalog *cat, kv_snapshot *snap, rl_format *out, rl_error *err)
{
    rl_buf k;
    rl_buf_init(&k, 0);
    rl_key_system(&k, RL_SYS_DUCKLAKE_FORMAT);
    uint8_t *v = NULL;
    size_t vlen = 0;
    int rc = cat_store_get(cat->kv, snap, &k, &v, &vlen, "reading ducklake-format", err);
    if (rc < 0)
        return -1;
    char name[16] = "1.0";
    if (rc == 1)
        snprintf(name, sizeof name, "%.*s", (int)(vlen < 15 ? vlen : 15), (const char *)v);
    free(v);
    *out = rl_format_parse(name);
    if (!*out)
        return rl_error_set(err, RL_SQLSTATE_OBJECT_STATE,
                            "catalog uses DuckLake format \"%s\", which this RockLake does not know",
                            name);
    return 0;
}
