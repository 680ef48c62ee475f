// fuzz-sources: src/pgtype/json.c src/pgtype/pgtype.c src/pgtype/tzif.c src/keys/codec.c src/base/buf.c src/base/stack.c src/base/error.c src/base/utf8.c
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
 *    says why it refuses; jsonb's normalised text of a value that passes it
 *    is JSON and normalises to itself.
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
        if (!nul && !d2[0]) { /* jsonb's text: JSON again, and a fixed point */
            rl_buf c1, c2;
            rl_buf_init(&c1, 0);
            rl_buf_init(&c2, 0);
            char e[160];
            const char *st1 = NULL, *st2 = NULL;
            rl_json_status r1 = rl_jsonb_canon(data, size, false, &c1, e, sizeof e, &st1);
            if (r1 == RL_JSON_SYNTAX && !st1)
                fail("jsonb refused without a SQLSTATE");
            if (r1 == RL_JSON_OK && !c1.failed) {
                if (rl_json_check(c1.data, c1.len, d2, sizeof d2) != RL_JSON_OK)
                    fail("jsonb's text is not JSON");
                if (rl_jsonb_canon(c1.data, c1.len, false, &c2, e, sizeof e, &st2) !=
                        RL_JSON_OK ||
                    c2.len != c1.len || memcmp(c1.data, c2.data, c1.len) != 0)
                    fail("jsonb's text is not its own normal form");
            }
            rl_buf_free(&c1);
            rl_buf_free(&c2);
        }
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
