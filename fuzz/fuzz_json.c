// fuzz-sources: src/pgtype/json.c src/base/buf.c src/base/stack.c src/base/error.c
/*
 * fuzz_json.c — libFuzzer target for PostgreSQL's JSON grammar over bytes
 * (src/pgtype/json.c), what every text -> json cast runs on client input.
 *
 * Properties checked (abort on violation):
 *  - the check never crashes, reads out of bounds (ASan) or recurses past
 *    the stack (deep input is RL_JSON_TOO_DEEP, not a crash);
 *  - a refused input has a DETAIL; an accepted one has a kind, and every
 *    member or element span of it is itself accepted JSON;
 *  - any bytes escaped as a JSON string are accepted and unescape to the
 *    same bytes;
 *  - the de-escaping check of an accepted value (jsonb's) never crashes and
 *    says why it refuses.
 */
#include "pgtype/json.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void fail(const char *what)
{
    fprintf(stderr, "fuzz_json: %s\n", what);
    abort();
}

typedef struct walk {
    const uint8_t *p;
    size_t n, members;
} walk;

static bool each(void *ctx, const rl_buf *key, size_t vs, size_t ve)
{
    walk *w = ctx;
    char detail[160];
    if (vs > ve || ve > w->n || rl_json_check(w->p + vs, ve - vs, detail, sizeof detail) !=
                                    RL_JSON_OK)
        fail("a member's span is not JSON");
    w->members++;
    return true;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    char detail[160] = "";
    rl_json_status st = rl_json_check(data, size, detail, sizeof detail);
    if (st == RL_JSON_SYNTAX && !detail[0])
        fail("refused without a DETAIL");
    if (st == RL_JSON_OK) {
        uint8_t k = rl_json_kind(data, size);
        if (!k)
            fail("accepted JSON without a kind");
        walk w = {data, size, 0};
        rl_json_each_member(data, size, each, &w);
        if (w.members && k != '{' && k != '[')
            fail("a scalar has members");
        bool nul = false;
        char d2[160] = "";
        if (rl_json_check_escapes(data, size, &nul, d2, sizeof d2) != RL_JSON_OK && !nul &&
            !d2[0])
            fail("an escape refused without a DETAIL");
    }
    rl_buf esc, back;
    rl_buf_init(&esc, 0);
    rl_buf_init(&back, 0);
    rl_json_put_string(&esc, data, size);
    if (esc.failed || rl_json_check(esc.data, esc.len, detail, sizeof detail) != RL_JSON_OK)
        fail("an escaped string is not JSON");
    if (rl_json_string_decode(esc.data, esc.len, &back) < 0 || back.len != size ||
        (size && memcmp(back.data, data, size) != 0))
        fail("an escaped string does not unescape to its bytes");
    rl_buf_free(&esc);
    rl_buf_free(&back);
    return 0;
}
