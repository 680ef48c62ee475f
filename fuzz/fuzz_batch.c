// fuzz-sources: src/kv/batchcodec.c src/base/buf.c
// fuzz-link: rust/target/release/librocklake_kv.a -lpthread -ldl -lm
/*
 * fuzz_batch.c — libFuzzer target for the journal payload decoder
 * (src/kv/batchcodec.c): a record's payload after its CRC matched, i.e. what
 * recovery hands to SlateDB after a crash.
 *
 * Input: any bytes, decoded as a payload. Decoding must not crash or read
 * outside the input. When it yields a batch, that batch must encode to a
 * payload that decodes to the same operations and encodes to itself again
 * (the encoder is canonical, the decoder also takes longer uvarints).
 */
#include "kv/batchcodec.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kv/slate.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fail(const char *what)
{
    fprintf(stderr, "fuzz_batch: %s\n", what);
    abort();
}

static void same_ops(const kv_batch *a, const kv_batch *b)
{
    if (kv_batch_count(a) != kv_batch_count(b)) fail("operation count changed");
    const uint8_t *ka, *va, *kb, *vb;
    size_t kla, vla, klb, vlb;
    for (size_t i = 0; i < kv_batch_count(a); i++) {
        int xa = slate_batch_op(a, i, &ka, &kla, &va, &vla);
        int xb = slate_batch_op(b, i, &kb, &klb, &vb, &vlb);
        if (xa != xb || kla != klb || (kla && memcmp(ka, kb, kla) != 0)) fail("key changed");
        if (xa == 1 && (vla != vlb || (vla && memcmp(va, vb, vla) != 0))) fail("value changed");
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    kv_batch *b = rl_batch_decode(data, size);
    if (!b) return 0;
    rl_buf once, twice;
    rl_buf_init(&once, 0);
    rl_buf_init(&twice, 0);
    if (rl_batch_encode(b, &once) < 0) fail("encode failed");
    kv_batch *again = rl_batch_decode(once.data, once.len);
    if (!again) fail("an encoded batch did not decode");
    same_ops(b, again);
    if (rl_batch_encode(again, &twice) < 0) fail("encode failed");
    if (once.len != twice.len || (once.len && memcmp(once.data, twice.data, once.len) != 0))
        fail("encoding is not canonical");
    rl_buf_free(&once);
    rl_buf_free(&twice);
    kv_batch_free(b);
    kv_batch_free(again);
    return 0;
}
