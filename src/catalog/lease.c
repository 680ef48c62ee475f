/*
 * lease.c — the writer lease (see lease.h).
 */
#include "catalog/lease.h"

#include "catalog/catalog_int.h"

#include <errno.h>
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "base/crashpoint.h"
#include "keys/keys.h"
#include "keys/tags.h"

int64_t rl_lease_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

void rl_lease_encode(const rl_lease_owner *o, rl_buf *out)
{
    rl_buf_printf(out,
                  "epoch=%" PRIu64 " host=%s pid=%" PRId64 " listen=%s started=%" PRId64
                  " heartbeat=%" PRId64 " lease-ms=%" PRIu64,
                  o->epoch, o->host[0] ? o->host : "-", o->pid, o->listen[0] ? o->listen : "-",
                  o->started_ms, o->heartbeat_ms, o->lease_ms);
    if (o->proc_start && o->boot_id[0])
        rl_buf_printf(out, " proc-start=%" PRIu64 " boot-id=%s", o->proc_start, o->boot_id);
}

/* The start time of process pid in clock ticks since boot (field 22 of
 * /proc/PID/stat, after the parenthesized command, which may hold spaces
 * and parentheses itself); 0 when it cannot be read (no such process, no
 * /proc). */
static uint64_t proc_start_ticks(int64_t pid)
{
    char path[64], buf[1024];
    snprintf(path, sizeof path, "/proc/%" PRId64 "/stat", pid);
    FILE *f = fopen(path, "r");
    if (!f)
        return 0;
    size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = 0;
    char *p = strrchr(buf, ')');
    if (!p)
        return 0;
    p++;
    /* fields 3 .. 21 precede it */
    for (int field = 3; field <= 22 && *p; field++) {
        while (*p == ' ')
            p++;
        if (field == 22)
            return strtoull(p, NULL, 10);
        while (*p && *p != ' ')
            p++;
    }
    return 0;
}

static void read_boot_id(char *out, size_t n)
{
    out[0] = 0;
    FILE *f = fopen("/proc/sys/kernel/random/boot_id", "r");
    if (!f)
        return;
    if (fgets(out, (int)n, f))
        out[strcspn(out, "\n")] = 0;
    fclose(f);
}

void rl_lease_identify_self(rl_lease_owner *o)
{
    o->proc_start = proc_start_ticks((int64_t)getpid());
    read_boot_id(o->boot_id, sizeof o->boot_id);
}

/* Copy the token [p, end) into out (size n); false if it does not fit. */
static bool token_copy(char *out, size_t n, const char *p, size_t len)
{
    if (len == 0 || len >= n)
        return false;
    memcpy(out, p, len);
    out[len] = 0;
    return true;
}

static bool parse_i64(const char *p, size_t len, int64_t *out)
{
    char tmp[32];
    if (!token_copy(tmp, sizeof tmp, p, len))
        return false;
    char *end;
    errno = 0;
    long long v = strtoll(tmp, &end, 10);
    if (errno || *end)
        return false;
    *out = v;
    return true;
}

int rl_lease_decode(const uint8_t *v, size_t n, rl_lease_owner *o)
{
    memset(o, 0, sizeof *o);
    unsigned seen = 0;
    size_t i = 0;
    while (i < n) {
        while (i < n && v[i] == ' ')
            i++;
        size_t start = i;
        while (i < n && v[i] != ' ')
            i++;
        if (i == start)
            break;
        const char *tok = (const char *)v + start;
        size_t len = i - start;
        const char *eq = memchr(tok, '=', len);
        if (!eq)
            return -1;
        size_t klen = (size_t)(eq - tok);
        const char *val = eq + 1;
        size_t vlen = len - klen - 1;
        int64_t num = 0;
#define KEY_IS(s) (klen == strlen(s) && memcmp(tok, s, klen) == 0)
        if (KEY_IS("host")) {
            if (!token_copy(o->host, sizeof o->host, val, vlen))
                return -1;
            seen |= 1;
        } else if (KEY_IS("listen")) {
            if (!token_copy(o->listen, sizeof o->listen, val, vlen))
                return -1;
            seen |= 2;
        } else if (KEY_IS("boot-id")) {
            if (!token_copy(o->boot_id, sizeof o->boot_id, val, vlen))
                return -1;
        } else if (KEY_IS("proc-start")) {
            if (!parse_i64(val, vlen, &num) || num < 0)
                return -1;
            o->proc_start = (uint64_t)num;
        } else if (KEY_IS("epoch") || KEY_IS("pid") || KEY_IS("started") ||
                   KEY_IS("heartbeat") || KEY_IS("lease-ms")) {
            if (!parse_i64(val, vlen, &num) || num < 0)
                return -1;
            if (KEY_IS("epoch"))
                o->epoch = (uint64_t)num, seen |= 4;
            else if (KEY_IS("pid"))
                o->pid = num, seen |= 8;
            else if (KEY_IS("started"))
                o->started_ms = num, seen |= 16;
            else if (KEY_IS("heartbeat"))
                o->heartbeat_ms = num, seen |= 32;
            else
                o->lease_ms = (uint64_t)num, seen |= 64;
        }
        /* other names: written by a later RockLake; ignored */
#undef KEY_IS
    }
    return seen == 127 && o->lease_ms > 0 ? 0 : -1;
}

int rl_lease_read(const char *url, const rl_store_options *store, rl_lease_owner *o,
                  rl_error *err)
{
    kv_options ko = cat_kv_options(store);
    ko.reader_no_writes = 1;
    ko.mirror_max_bytes = -1;
    kv_error ke;
    kv_db *r = kv_open_reader(url, &ko, &ke);
    if (!r) {
        if (kv_error_is_no_store(&ke))
            return 0; /* nobody created it: nobody writes it */
        rl_error_set(err, RL_SQLSTATE_IO_ERROR, "reading the writer lease of \"%s\": %s", url,
                     ke.message);
        cat_hint_store_error(err, ke.message);
        return -1;
    }
    int rc = rl_lease_get(r, url, o, err);
    kv_close(r, NULL);
    return rc;
}

int rl_lease_get(kv_db *kv, const char *url, rl_lease_owner *o, rl_error *err)
{
    rl_buf k;
    rl_buf_init(&k, 0);
    rl_key_system(&k, RL_SYS_WRITER_LEASE);
    uint8_t *v = NULL;
    size_t vlen = 0;
    kv_error ke;
    int rc = kv_get(kv, NULL, k.data, k.len, &v, &vlen, &ke);
    rl_buf_free(&k);
    if (rc < 0) {
        rl_error_set(err, RL_SQLSTATE_IO_ERROR, "reading the writer lease of \"%s\": %s", url,
                     ke.message);
        cat_hint_store_error(err, ke.message);
    }
    else if (rc == 1 && rl_lease_decode(v, vlen, o) < 0)
        rc = 0; /* unreadable: as if absent (check reports it) */
    free(v);
    return rc;
}

bool rl_lease_check(const rl_lease_owner *o, int64_t now_ms, int64_t *age_ms, char *why,
                    size_t n)
{
    if (why && n)
        why[0] = 0;
    int64_t age = now_ms - o->heartbeat_ms;
    if (age_ms)
        *age_ms = age;
    if (age >= (int64_t)o->lease_ms)
        return false;
    char host[sizeof o->host];
    if (gethostname(host, sizeof host) != 0 || strcmp(host, o->host) != 0 || o->pid <= 0 ||
        o->pid > INT32_MAX)
        return true; /* another host's writer: only its lease period tells */
    if (kill((pid_t)o->pid, 0) < 0 && errno == ESRCH) {
        if (why)
            snprintf(why, n, "pid %" PRId64 " no longer exists", o->pid);
        return false; /* its process is gone (a crash, kill -9) */
    }
    if (!o->proc_start || !o->boot_id[0])
        return true; /* a lease of an older version: the pid is all it says */
    char boot[sizeof o->boot_id];
    read_boot_id(boot, sizeof boot);
    if (boot[0] && strcmp(boot, o->boot_id) != 0) {
        if (why)
            snprintf(why, n, "the host booted since (boot id %s, the lease's %s)", boot,
                     o->boot_id);
        return false;
    }
    uint64_t start = proc_start_ticks(o->pid);
    if (start && start != o->proc_start) {
        if (why)
            snprintf(why, n,
                     "pid %" PRId64 " is now another process (started at tick %" PRIu64
                     ", the writer at %" PRIu64 ")",
                     o->pid, start, o->proc_start);
        return false;
    }
    return true;
}

bool rl_lease_live(const rl_lease_owner *o, int64_t now_ms, int64_t *age_ms)
{
    return rl_lease_check(o, now_ms, age_ms, NULL, 0);
}

int rl_lease_refuse(rl_error *err, const char *url, const rl_lease_owner *o, int64_t age_ms)
{
    char started[64] = "?";
    time_t s = (time_t)(o->started_ms / 1000);
    struct tm tm;
    if (gmtime_r(&s, &tm))
        strftime(started, sizeof started, "%Y-%m-%d %H:%M:%SZ", &tm);
    if (age_ms < 0)
        age_ms = 0;
    rl_error_set(err, RL_SQLSTATE_OBJECT_NOT_IN_PREREQUISITE_STATE,
                 "store \"%s\" has a running writer: pid %" PRId64 " on host %s, listening on "
                 "%s, started %s, lease renewed %" PRId64 " ms ago",
                 url, o->pid, o->host, o->listen, started, age_ms);
    rl_error_hint(err,
                  "start rocklake serve with --takeover to fence it and become the writer, "
                  "or --read-only to follow it; if that writer is dead, its lease expires "
                  "%" PRIu64 " ms after its last renewal",
                  o->lease_ms);
    return -1;
}

/* ------------------------------------------------------------- heartbeat */

struct rl_lease {
    kv_db *kv;
    rl_lease_owner owner; /* heartbeat_ms owned by the thread once started */
    pthread_t thread;
    pthread_mutex_t mu;
    pthread_cond_t cv;    /* CLOCK_MONOTONIC */
    bool stop;            /* under mu */
    atomic_bool fenced;
};

static int write_lease(rl_lease *l, kv_error *ke)
{
    l->owner.heartbeat_ms = rl_lease_now_ms();
    rl_buf k, v;
    rl_buf_init(&k, 0);
    rl_buf_init(&v, 0);
    rl_key_system(&k, RL_SYS_WRITER_LEASE);
    rl_lease_encode(&l->owner, &v);
    kv_batch *b = kv_batch_new();
    kv_batch_put(b, k.data, k.len, v.data, v.len);
    int rc = kv_write(l->kv, b, ke);
    kv_batch_free(b);
    rl_buf_free(&k);
    rl_buf_free(&v);
    if (rc < 0 && ke->kind == KV_ERR_FENCED)
        atomic_store(&l->fenced, true);
    return rc;
}

static void *heartbeat_main(void *arg)
{
    rl_lease *l = arg;
    uint64_t every = l->owner.lease_ms / 5 ? l->owner.lease_ms / 5 : 1;
    pthread_mutex_lock(&l->mu);
    while (!l->stop) {
        struct timespec at;
        clock_gettime(CLOCK_MONOTONIC, &at);
        at.tv_sec += (time_t)(every / 1000);
        at.tv_nsec += (long)(every % 1000) * 1000000L;
        if (at.tv_nsec >= 1000000000L) {
            at.tv_sec++;
            at.tv_nsec -= 1000000000L;
        }
        while (!l->stop && pthread_cond_timedwait(&l->cv, &l->mu, &at) != ETIMEDOUT) {
        }
        if (l->stop)
            break;
        pthread_mutex_unlock(&l->mu);
        kv_error ke;
        /* a failure other than a fence (the store unreachable) is retried
         * on the next turn; the lease expires meanwhile if it lasts */
        write_lease(l, &ke);
        pthread_mutex_lock(&l->mu);
        if (atomic_load(&l->fenced))
            break;
    }
    pthread_mutex_unlock(&l->mu);
    return NULL;
}

rl_lease *rl_lease_start(kv_db *kv, const rl_lease_owner *o, rl_error *err)
{
    rl_lease *l = calloc(1, sizeof *l);
    if (!l) {
        rl_error_set(err, RL_SQLSTATE_INTERNAL_ERROR, "out of memory");
        return NULL;
    }
    l->kv = kv;
    l->owner = *o;
    if (!l->owner.lease_ms)
        l->owner.lease_ms = RL_LEASE_DEFAULT_MS;
    kv_error ke;
    rl_crash_point(RL_CRASH_LEASE_START);
    if (write_lease(l, &ke) < 0) {
        rl_error_set(err, ke.kind == KV_ERR_FENCED ? RL_SQLSTATE_READ_ONLY_SQL_TRANSACTION
                                                   : RL_SQLSTATE_IO_ERROR,
                     "writing the writer lease: %s", ke.message);
        free(l);
        return NULL;
    }
    pthread_mutex_init(&l->mu, NULL);
    pthread_condattr_t ca;
    pthread_condattr_init(&ca);
    pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
    pthread_cond_init(&l->cv, &ca);
    pthread_condattr_destroy(&ca);
    if (pthread_create(&l->thread, NULL, heartbeat_main, l) != 0) {
        pthread_cond_destroy(&l->cv);
        pthread_mutex_destroy(&l->mu);
        free(l);
        rl_error_set(err, RL_SQLSTATE_INTERNAL_ERROR, "cannot start the writer-lease thread");
        return NULL;
    }
    return l;
}

bool rl_lease_fenced(rl_lease *l) { return l && atomic_load(&l->fenced); }

void rl_lease_stop(rl_lease *l, bool release)
{
    if (!l)
        return;
    pthread_mutex_lock(&l->mu);
    l->stop = true;
    pthread_cond_signal(&l->cv);
    pthread_mutex_unlock(&l->mu);
    pthread_join(l->thread, NULL);
    if (release && !atomic_load(&l->fenced)) {
        rl_buf k;
        rl_buf_init(&k, 0);
        rl_key_system(&k, RL_SYS_WRITER_LEASE);
        kv_batch *b = kv_batch_new();
        kv_batch_delete(b, k.data, k.len);
        kv_write(l->kv, b, NULL); /* fenced or failed: the lease expires anyway */
        kv_batch_free(b);
        rl_buf_free(&k);
    }
    pthread_cond_destroy(&l->cv);
    pthread_mutex_destroy(&l->mu);
    free(l);
}
