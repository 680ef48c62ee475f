/*
 * batchcodec.c — the byte form of a kv_batch in a journal record
 * (batchcodec.h). Kept apart from kv.c so that the decoder of what a crash
 * leaves on disk can be fuzzed on its own (fuzz/fuzz_batch.c).
 */
#include "kv/batchcodec.h"

#include "kv/slate.h"

int rl_batch_encode(const kv_batch *b, rl_buf *out)
{
    const uint8_t *k, *v;
    size_t kl, vl;
    int kind;
    for (size_t i = 0; (kind = slate_batch_op(b, i, &k, &kl, &v, &vl)) >= 0; i++) {
        rl_buf_put_u8(out, (uint8_t)kind);
        rl_buf_put_uvarint(out, kl);
        rl_buf_put(out, k, kl);
        if (kind) {
            rl_buf_put_uvarint(out, vl);
            rl_buf_put(out, v, vl);
        }
    }
    return out->failed ? -1 : 0;
}

kv_batch *rl_batch_decode(const uint8_t *p, size_t n)
{
    kv_batch *b = kv_batch_new();
    rl_reader r;
    rl_reader_init(&r, p, n);
    while (b && rl_reader_left(&r) > 0) {
        uint8_t kind;
        uint64_t kl, vl = 0;
        const uint8_t *k, *v = NULL;
        if (!rl_reader_u8(&r, &kind) || kind > 1 || !rl_reader_uvarint(&r, &kl) ||
            !rl_reader_bytes(&r, kl, &k) ||
            (kind && (!rl_reader_uvarint(&r, &vl) || !rl_reader_bytes(&r, vl, &v)))) {
            kv_batch_free(b);
            return NULL;
        }
        if (kind)
            kv_batch_put(b, k, kl, v, vl);
        else
            kv_batch_delete(b, k, kl);
    }
    return b;
}
