/*
 * backup.c — `rocklake backup` and `rocklake restore` (backup.h).
 *
 * Owns: the logical copy of one store into a new one, its markers, its
 * verification, progress and interruption; see backup.h for the
 * invariants and docs/operations.md ("Back up and restore") for why the
 * copy is logical rather than a copy of SlateDB's objects.
 *
 * The copy, in order:
 *   1. the destination must not hold a store (a local directory must be
 *      missing or empty);
 *   2. the source is opened with a reader that writes nothing to it; a
 *      backup takes a view holding every acknowledged commit
 *      (kv_snapshot_acknowledged), a restore any view (nothing writes a
 *      backup);
 *   3. the destination's writer (no journal, no in-memory copy) durably
 *      writes the copy-incomplete marker, then the view's pairs in key
 *      order, in batches of at most batch_keys keys or BATCH_BYTES bytes,
 *      each made durable before the next (kv_write);
 *   4. the pairs read are checked against the source's digest at the view,
 *      and the destination, read back, against the pairs written;
 *   5. the last write deletes the marker (a backup also writes
 *      backup-info); a restore then runs `rocklake check` on the result.
 * SIGINT/SIGTERM stop the copy between two pairs; what was written stays
 * marked incomplete.
 */
#include "cli/backup.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/buf.h"
#include "catalog/catalog.h"
#include "cli/check.h"
#include "keys/keys.h"
#include "kv/kv.h"
#include "keys/tags.h"

enum { EXIT_OK = 0, EXIT_FAIL = 1, EXIT_USAGE = 2 };

#define DEFAULT_BATCH_KEYS 4096
#define BATCH_BYTES (4u << 20)
/* How long a backup waits for SlateDB to reach the writer's journal; the
 * writer's WAL follows it within about 10 ms. */
#define ACK_WAIT_MS 30000
#define PROGRESS_MS 250

static volatile sig_atomic_t stop_requested;

static void on_stop(int sig)
{
    (void)sig;
    stop_requested = 1;
}

typedef struct copy_job {
    const char *cmd; /* "backup" or "restore" */
    const char *src, *dest;
    bool restore;
    uint64_t batch_keys;
    bool progress; /* stderr is a terminal */
    /* test hook ROCKLAKE_TEST_COPY_SIGNAL=BATCH:SIGNAL: raise SIGNAL once
     * data batch BATCH is durable (an interrupted or killed copy) */
    long hook_batch;
    int hook_signal;
    /* what was copied */
    uint64_t keys, bytes, batches;
    uint64_t latest_snapshot;
    bool have_snapshot;
    uint64_t started_ms, last_progress_ms;
} copy_job;

static int fail(const copy_job *j, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static int fail(const copy_job *j, const char *fmt, ...)
{
    fprintf(stderr, "rocklake %s: ", j->cmd);
    va_list ap;
    va_start(ap, fmt);
    vfprintf(stderr, fmt, ap);
    va_end(ap);
    fputc('\n', stderr);
    return -1;
}

static uint64_t now_ms(void) { return rl_monotonic_ns() / 1000000; }

static void utc_now(char *buf, size_t n)
{
    time_t t = time(NULL);
    struct tm tm;
    if (!gmtime_r(&t, &tm) || !strftime(buf, n, "%Y-%m-%d %H:%M:%SZ", &tm))
        snprintf(buf, n, "?");
}

static size_t system_key(uint8_t *out, size_t cap, const char *name)
{
    return rl_key_system_to(out, cap, name);
}

static bool is_system_key(const uint8_t *k, size_t kl, const char *name)
{
    return rl_key_is_system(k, kl, name);
}

/* Keys a copy leaves behind (backup.h): the source's writer lease and
 * earlier copies' markers. */
static bool skipped(const uint8_t *k, size_t kl)
{
    return kl && k[0] == RL_TAG_SYSTEM &&
           (is_system_key(k, kl, RL_SYS_WRITER_LEASE) || is_system_key(k, kl, RL_SYS_COPY_INCOMPLETE) ||
            is_system_key(k, kl, RL_SYS_BACKUP_INFO));
}

static void progress(copy_job *j, bool final)
{
    if (!j->progress) return;
    uint64_t now = now_ms();
    if (!final && now - j->last_progress_ms < PROGRESS_MS) return;
    j->last_progress_ms = now;
    double secs = (double)(now - j->started_ms) / 1000.0;
    double rate = secs > 0 ? (double)j->keys / secs : 0;
    fprintf(stderr, "\r%s: %" PRIu64 " keys, %.1f MiB, %.0f keys/s   %s", j->cmd, j->keys,
            (double)j->bytes / (1024.0 * 1024.0), rate, final ? "\n" : "");
    fflush(stderr);
}

/* The destination must not hold anything yet. 0, or -1 after a message. */
static int require_new_store(const copy_job *j)
{
    char *dir = kv_local_dir(j->dest);
    if (dir) {
        DIR *d = opendir(dir);
        int rc = 0;
        if (d) {
            struct dirent *e;
            while ((e = readdir(d)) != NULL)
                if (strcmp(e->d_name, ".") != 0 && strcmp(e->d_name, "..") != 0) {
                    rc = fail(j, "\"%s\" already exists and is not empty: a %s writes only into "
                                 "a new lake (give a path that does not exist, or delete it first)",
                              j->dest, j->cmd);
                    break;
                }
            closedir(d);
        } else if (errno != ENOENT) {
            rc = fail(j, "cannot read \"%s\": %s", dir, strerror(errno));
        }
        free(dir);
        return rc;
    }
    kv_error ke;
    kv_options ko = {.reader_no_writes = 1};
    kv_db *kv = kv_open_reader(j->dest, &ko, &ke);
    if (kv) {
        kv_close(kv, NULL);
        return fail(j, "\"%s\" already holds a store: a %s writes only into a new lake (give a "
                       "prefix that holds nothing, or delete it first)",
                    j->dest, j->cmd);
    }
    if (kv_error_is_no_store(&ke)) return 0;
    return fail(j, "cannot look at \"%s\": %s (%s)", j->dest, ke.message,
                kv_error_kind_name(ke.kind));
}

/* A local DEST inside a local SRC would be written into the source's
 * directory (and copied by the next backup of it). 0, or -1 after a
 * message. */
static int require_outside_source(const copy_job *j)
{
    char *s = kv_local_dir(j->src), *d = kv_local_dir(j->dest);
    int rc = 0;
    if (s && d) {
        size_t n = strlen(s);
        if (strncmp(s, d, n) == 0 && (d[n] == '/' || d[n] == '\0'))
            rc = fail(j, "\"%s\" is inside \"%s\": write the %s somewhere else", j->dest,
                      j->src, j->cmd);
    }
    free(s);
    free(d);
    return rc;
}

/* A database's further DuckLake metadata schemas are stores of their own
 * (ROOT/NAME/schemas/SCHEMA, docs/architecture.md); a copy of ROOT/NAME
 * does not include them, so say which there are. */
static void note_schema_stores(const copy_job *j)
{
    char *s = kv_local_dir(j->src);
    if (!s) return;
    size_t n = strlen(s) + sizeof "/schemas";
    char *dir = malloc(n);
    DIR *d = dir ? (snprintf(dir, n, "%s/schemas", s), opendir(dir)) : NULL;
    struct dirent *e;
    while (d && (e = readdir(d)) != NULL)
        if (e->d_name[0] != '.')
            fprintf(stderr, "rocklake %s: note: metadata schema \"%s\" is a store of its own "
                            "(%s/%s), not part of this copy: copy it with `rocklake %s %s/%s "
                            "DEST/schemas/%s`\n", j->cmd, e->d_name, dir, e->d_name, j->cmd,
                    dir, e->d_name, e->d_name);
    if (d) closedir(d);
    free(dir);
    free(s);
}

/* Does `snap` of `src` hold system key `name`? 1, 0, or -1 after a message. */
static int has_system_key(const copy_job *j, kv_db *src, kv_snapshot *snap, const char *name)
{
    uint8_t k[64];
    size_t kl = system_key(k, sizeof k, name);
    kv_error ke;
    int rc = kv_get(src, snap, k, kl, NULL, NULL, &ke);
    if (rc < 0) fail(j, "reading \"%s\": %s", j->src, ke.message);
    return rc;
}

/* Write and free *b (made durable), then start a new one. 0 or -1. */
static int write_batch(copy_job *j, kv_db *dst, kv_batch **b)
{
    kv_error ke;
    int rc = kv_write(dst, *b, &ke);
    kv_batch_free(*b);
    *b = kv_batch_new();
    if (rc < 0) return fail(j, "writing to \"%s\": %s (%s)", j->dest, ke.message,
                            kv_error_kind_name(ke.kind));
    j->batches++;
    if (j->hook_signal && (long)j->batches == j->hook_batch) raise(j->hook_signal);
    return 0;
}

/* Step 3: every pair of the view into dst; *seen gets every pair read,
 * *written those written (beside the marker). 0, 1 when interrupted, or -1. */
static int copy_pairs(copy_job *j, kv_db *src, kv_snapshot *snap, kv_db *dst,
                      kv_verify_report *seen, kv_verify_report *written)
{
    static const uint8_t lowest[1] = {0};
    kv_error ke;
    kv_iter *it = kv_scan(src, snap, lowest, 0, NULL, 0, &ke);
    if (!it) return fail(j, "reading \"%s\": %s", j->src, ke.message);
    kv_batch *b = kv_batch_new();
    uint64_t bbytes = 0;
    const uint8_t *k, *v;
    size_t kl, vl;
    int rc = 0, result = 0;
    while (!stop_requested && (rc = kv_iter_next(it, &k, &kl, &v, &vl, &ke)) == 1) {
        kv_verify_add(seen, k, kl, v, vl);
        if (skipped(k, kl)) continue;
        if (kl == 9 && k[0] == RL_TAG_SNAPSHOT) { /* 0x02 | BE u64 id, in key order */
            j->latest_snapshot = 0;
            for (int i = 1; i < 9; i++) j->latest_snapshot = j->latest_snapshot << 8 | k[i];
            j->have_snapshot = true;
        }
        kv_batch_put(b, k, kl, v, vl);
        kv_verify_add(written, k, kl, v, vl);
        j->keys++;
        j->bytes += kl + vl;
        bbytes += kl + vl;
        if (kv_batch_count(b) >= j->batch_keys || bbytes >= BATCH_BYTES) {
            if (write_batch(j, dst, &b) < 0) {
                result = -1;
                break;
            }
            bbytes = 0;
            progress(j, false);
        }
    }
    if (result == 0 && stop_requested) result = 1;
    else if (result == 0 && rc < 0) result = fail(j, "reading \"%s\": %s", j->src, ke.message);
    if (result == 0 && kv_batch_count(b) && write_batch(j, dst, &b) < 0) result = -1;
    if (result == 0 && stop_requested) result = 1;
    kv_batch_free(b);
    kv_iter_free(it);
    return result;
}

/* Step 4. 0 or -1 after a message. */
static int verify(const copy_job *j, kv_db *src, kv_snapshot *snap, kv_db *dst,
                  kv_verify_report *seen, const kv_verify_report *written)
{
    kv_error ke;
    if (kv_verify_expected(src, snap, seen, &ke) < 0)
        return fail(j, "reading the integrity digest of \"%s\": %s", j->src, ke.message);
    int bad = kv_verify_mismatches(seen);
    if (bad || seen->malformed) {
        int first = 0;
        for (int t = 0; t < 256; t++)
            if (memcmp(&seen->found[t], &seen->expected[t], sizeof(kv_digest)) != 0) {
                first = t;
                break;
            }
        char what[256];
        kv_verify_describe(seen, first, what, sizeof what);
        return fail(j, "\"%s\" does not hold what was committed (keys with first byte 0x%02x: "
                       "%s): it is damaged, so no complete %s was made (see "
                       "docs/operations.md, \"Integrity\")",
                    j->src, first, what, j->cmd);
    }
    kv_verify_report *back = calloc(1, sizeof *back);
    if (!back) return fail(j, "out of memory");
    int rc = 0;
    if (kv_verify(dst, back, &ke) < 0) {
        rc = fail(j, "reading back \"%s\": %s", j->dest, ke.message);
    } else {
        for (int t = 0; t < 256 && rc == 0; t++) {
            const kv_digest *want = &written->found[t], *got = &back->found[t];
            if (want->count != got->count || want->key_sum != got->key_sum ||
                want->pair_sum != got->pair_sum)
                rc = fail(j, "\"%s\" read back holds %" PRIu64 " keys with first byte 0x%02x, "
                             "%" PRIu64 " were written: the copy is not complete",
                          j->dest, got->count, t, want->count);
        }
        if (rc == 0 && kv_verify_mismatches(back))
            rc = fail(j, "\"%s\" read back does not add up to its own integrity digest", j->dest);
    }
    free(back);
    return rc;
}

/* The marker's and backup-info's text. */
static void describe(const copy_job *j, char *buf, size_t n, bool final)
{
    char when[40], host[256] = "?";
    utc_now(when, sizeof when);
    gethostname(host, sizeof host - 1);
    if (!final)
        snprintf(buf, n, "%s of %s started %s by pid %ld on %s", j->cmd, j->src, when,
                 (long)getpid(), host);
    else
        snprintf(buf, n, "source=%s\nfinished=%s\nkeys=%" PRIu64 "\nbytes=%" PRIu64
                 "\nlatest_snapshot=%" PRIu64 "\n", j->src, when, j->keys, j->bytes,
                 j->latest_snapshot);
}

/* Step 5 for a restore: `rocklake check` on the new lake. */
static int check_restored(const copy_job *j)
{
    rl_catalog_options o = {0};
    o.read_only = true;
    o.store.reader_no_writes = 1;
    rl_error e;
    rl_error_clear(&e);
    rl_catalog *cat = rl_catalog_open(j->dest, &o, &e);
    if (!cat) return fail(j, "cannot open the restored lake \"%s\" to check it: %s", j->dest,
                          e.message);
    long problems = rl_check(cat, stdout, NULL, &e);
    rl_catalog_close(cat, NULL);
    if (problems < 0) return fail(j, "checking the restored lake \"%s\": %s", j->dest, e.message);
    if (problems > 0)
        return fail(j, "the restored lake \"%s\" has %ld problems (listed above); the backup "
                       "held them", j->dest, problems);
    return 0;
}

static int run_copy(copy_job *j)
{
    if (require_new_store(j) < 0 || require_outside_source(j) < 0) return EXIT_FAIL;
    note_schema_stores(j);
    kv_error ke;
    kv_options so = {.reader_no_writes = 1, .reader_poll_interval_ms = 10};
    kv_db *src = kv_open_reader(j->src, &so, &ke);
    if (!src) {
        fail(j, "cannot open \"%s\": %s (%s)", j->src, ke.message, kv_error_kind_name(ke.kind));
        return EXIT_FAIL;
    }
    kv_db *dst = NULL;
    kv_snapshot *snap = j->restore ? kv_snapshot_new(src, &ke)
                                   : kv_snapshot_acknowledged(src, ACK_WAIT_MS, &ke);
    kv_verify_report *seen = calloc(1, sizeof *seen), *written = calloc(1, sizeof *written);
    kv_batch *b = NULL;
    struct sigaction old_int, old_term;
    bool signals = false;
    int rc = EXIT_FAIL;
    if (!snap) {
        fail(j, "cannot take a consistent view of \"%s\": %s", j->src, ke.message);
        if (!j->restore && ke.kind == KV_ERR_IO && strstr(ke.message, "journal"))
            fprintf(stderr, "  hint: if the lake's writer is not running (it crashed), start "
                            "it once so that it replays its journal, then back up again\n");
        goto out;
    }
    if (!seen || !written) {
        fail(j, "out of memory");
        goto out;
    }
    if (j->restore) {
        int incomplete = has_system_key(j, src, snap, RL_SYS_COPY_INCOMPLETE);
        int info = incomplete == 0 ? has_system_key(j, src, snap, RL_SYS_BACKUP_INFO) : 0;
        if (incomplete < 0 || info < 0) goto out;
        if (incomplete) {
            fail(j, "\"%s\" is an incomplete backup (it was interrupted before its last write); "
                    "nothing was restored: take a new backup", j->src);
            goto out;
        }
        if (!info) {
            fail(j, "\"%s\" is not a finished RockLake backup (it has no backup-info key); "
                    "nothing was restored", j->src);
            goto out;
        }
    }
    int have = has_system_key(j, src, snap, RL_SYS_FORMAT_VERSION);
    if (have < 0) goto out;
    if (have == 0) {
        fail(j, "\"%s\" holds no RockLake catalog", j->src);
        goto out;
    }
    /* From here on DEST gets written: Ctrl-C stops between two pairs
     * (before, the default action ends a command that wrote nothing). */
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop;
    sa.sa_flags = SA_RESTART; /* reads and writes in flight go on; the loop looks at the flag */
    sigaction(SIGINT, &sa, &old_int);
    sigaction(SIGTERM, &sa, &old_term);
    signals = true;
    kv_options dopt = {.journal = -1, .mirror_max_bytes = -1};
    dst = kv_open_writer(j->dest, &dopt, &ke);
    if (!dst) {
        fail(j, "cannot create \"%s\": %s (%s)", j->dest, ke.message, kv_error_kind_name(ke.kind));
        goto out;
    }
    char text[1024];
    uint8_t mk[64], ik[64];
    size_t mkl = system_key(mk, sizeof mk, RL_SYS_COPY_INCOMPLETE);
    size_t ikl = system_key(ik, sizeof ik, RL_SYS_BACKUP_INFO);
    describe(j, text, sizeof text, false);
    b = kv_batch_new();
    kv_batch_put(b, mk, mkl, (const uint8_t *)text, strlen(text));
    if (kv_write(dst, b, &ke) < 0) {
        fail(j, "writing to \"%s\": %s (%s)", j->dest, ke.message, kv_error_kind_name(ke.kind));
        goto out;
    }
    kv_verify_add(written, mk, mkl, (const uint8_t *)text, strlen(text));
    kv_batch_free(b);
    b = NULL;
    j->started_ms = j->last_progress_ms = now_ms();
    int copied = copy_pairs(j, src, snap, dst, seen, written);
    if (copied != 0) {
        if (copied > 0) {
            progress(j, true);
            fail(j, "interrupted after %" PRIu64 " keys; \"%s\" is marked incomplete (restore "
                    "and writers refuse it): delete it and run the %s again", j->keys, j->dest,
                 j->cmd);
        } else {
            fail(j, "\"%s\" is marked incomplete: delete it and run the %s again", j->dest, j->cmd);
        }
        goto out;
    }
    progress(j, true);
    if (verify(j, src, snap, dst, seen, written) < 0) {
        fail(j, "\"%s\" stays marked incomplete", j->dest);
        goto out;
    }
    b = kv_batch_new();
    kv_batch_delete(b, mk, mkl);
    if (!j->restore) {
        describe(j, text, sizeof text, true);
        kv_batch_put(b, ik, ikl, (const uint8_t *)text, strlen(text));
    }
    if (kv_write(dst, b, &ke) < 0) {
        fail(j, "writing to \"%s\": %s (%s)", j->dest, ke.message, kv_error_kind_name(ke.kind));
        goto out;
    }
    rc = EXIT_OK;
out:
    kv_batch_free(b);
    if (dst && kv_close(dst, &ke) < 0 && rc == EXIT_OK) {
        fail(j, "closing \"%s\": %s", j->dest, ke.message);
        rc = EXIT_FAIL;
    }
    kv_snapshot_free(snap);
    kv_close(src, NULL);
    free(seen);
    free(written);
    if (signals) {
        sigaction(SIGINT, &old_int, NULL);
        sigaction(SIGTERM, &old_term, NULL);
    }
    if (rc != EXIT_OK) return rc;
    double secs = (double)(now_ms() - j->started_ms) / 1000.0;
    if (j->restore) {
        printf("restored %s into %s: %" PRIu64 " keys, %" PRIu64 " bytes (%.1f s); checking\n",
               j->src, j->dest, j->keys, j->bytes, secs);
        fflush(stdout);
        return check_restored(j) == 0 ? EXIT_OK : EXIT_FAIL;
    }
    printf("backup of %s to %s: %" PRIu64 " keys, %" PRIu64 " bytes, latest snapshot %" PRIu64
           " (%.1f s)\n", j->src, j->dest, j->keys, j->bytes, j->latest_snapshot, secs);
    return EXIT_OK;
}

int rl_copy_run(bool restore, const char *src, const char *dest, uint64_t batch_keys)
{
    copy_job j = {.cmd = restore ? "restore" : "backup", .restore = restore,
                  .batch_keys = batch_keys ? batch_keys : DEFAULT_BATCH_KEYS};
    j.src = src;
    j.dest = dest;
    j.progress = isatty(STDERR_FILENO);
    const char *hook = getenv("ROCKLAKE_TEST_COPY_SIGNAL");
    if (hook && sscanf(hook, "%ld:%d", &j.hook_batch, &j.hook_signal) != 2) j.hook_signal = 0;
    return run_copy(&j);
}
