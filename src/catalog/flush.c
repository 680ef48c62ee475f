/*
 * flush.c — durability of commits: write numbers and the group flush.
 *
 * Owns: rl_catalog.durable_seq and flushing (under flush_lock). Commits are
 * numbered as they reach the memtable (written_seq, under `lock`); one
 * committer at a time flushes SlateDB's WAL for everything written so far
 * and the others wait for a flush that covers their number.
 *
 * Invariants: durable_seq only grows, and only to a written_seq read
 * before a successful kv_flush; `lock` is never taken while flush_lock is
 * held, and only long enough to read written_seq.
 */
#include "catalog/catalog_int.h"

uint64_t rl_catalog_durable_seq(rl_catalog *cat)
{
    pthread_mutex_lock(&cat->flush_lock);
    uint64_t d = cat->durable_seq;
    pthread_mutex_unlock(&cat->flush_lock);
    return d;
}

/* Make write number `seq` durable: if a flush is running, wait for it (it
 * may cover us); otherwise become the flusher for everything written so
 * far. Concurrent commits thus share flushes instead of each paying one. */
int cat_group_flush(rl_catalog *cat, uint64_t seq, const char *doing, rl_error *err)
{
    int rc = 0;
    pthread_mutex_lock(&cat->flush_lock);
    while (rc == 0 && cat->durable_seq < seq) {
        if (cat->flushing) {
            pthread_cond_wait(&cat->flush_done, &cat->flush_lock);
            continue;
        }
        cat->flushing = true;
        pthread_mutex_unlock(&cat->flush_lock);
        pthread_mutex_lock(&cat->lock);
        uint64_t target = cat->written_seq; /* all of these are in the memtable */
        pthread_mutex_unlock(&cat->lock);
        kv_error ke;
        rc = kv_flush(cat->kv, &ke);
        if (rc < 0) {
            cat_note_store_failure(cat, &ke);
            cat_kv_fail(err, &ke, doing);
            if (cat->object_store && ke.kind == KV_ERR_IO)
                rl_error_hint(err, "The object store did not take the write: this commit was "
                                   "not acknowledged, and may or may not be in the store. "
                                   "Reconnect once the store is reachable again (the server "
                                   "reopens the lake on the next connection).");
        }
        pthread_mutex_lock(&cat->flush_lock);
        if (rc == 0 && target > cat->durable_seq)
            cat->durable_seq = target;
        cat->flushing = false;
        pthread_cond_broadcast(&cat->flush_done);
    }
    pthread_mutex_unlock(&cat->flush_lock);
    return rc < 0 ? -1 : 0;
}
