// fuzz-sources: src/pgwire/proto.c src/base/buf.c src/base/error.c src/pgwire/pktbuf.c
/*
 * fuzz_proto.c — libFuzzer target for the frontend message decoder
 * (src/pgwire/proto.c) and the backend message builder (src/pgwire/pktbuf.c).
 *
 * Input layout: byte 0 bit 0 selects startup framing (untyped packets),
 * the rest is a byte stream cut into messages exactly as a connection
 * would (proto_frame with a small maximum size), and every framed message
 * is handed to every parser.
 *
 * Properties checked (abort on violation):
 *  - framing and parsing never read outside the input (ASan) and never
 *    report a message longer than the bytes given or the size limit;
 *  - a consumed count is always the header plus the payload;
 *  - parsed strings lie inside the message;
 *  - a message rebuilt with pktbuf from a parsed Query frames back to the
 *    same payload.
 */
#include "pgwire/pktbuf.h"
#include "pgwire/proto.h"

#include <stdlib.h>
#include <string.h>

static void check_inside(const proto_msg *m, const char *s)
{
    const uint8_t *p = (const uint8_t *)s;
    if (p < m->data || p >= m->data + m->len + (m->len == 0))
        abort();
    if (!memchr(p, 0, (size_t)(m->data + m->len - p)))
        abort();
}

static void parse_all(const proto_msg *m)
{
    rl_error err;
    const char *s;
    if (proto_parse_string_msg(m, &s, &err) == 0) {
        check_inside(m, s);
        pktbuf b;
        pktbuf_init(&b, 0);
        pktbuf_write(&b, 'Q', "s", s);
        proto_msg back;
        size_t used;
        if (pktbuf_failed(&b) ||
            proto_frame(pktbuf_data(&b), pktbuf_len(&b), false, 1 << 20, &back, &used, &err) != 1 ||
            back.len != m->len || memcmp(back.data, m->data, m->len) != 0)
            abort();
        pktbuf_free(&b);
    }
    proto_parse pp;
    if (proto_parse_parse(m, &pp, &err) == 0) {
        check_inside(m, pp.stmt);
        check_inside(m, pp.sql);
        for (size_t i = 0; i < pp.nparams; i++)
            (void)proto_parse_param_oid(&pp, i);
    }
    proto_bind b;
    if (proto_parse_bind(m, &b, &err) == 0) {
        for (size_t i = 0; i < b.nparams; i++)
            if (b.values[i] && (b.values[i] < m->data ||
                                b.values[i] + b.lengths[i] > m->data + m->len))
                abort();
        proto_bind_free(&b);
    }
    proto_target t;
    (void)proto_parse_target(m, &t, &err);
    proto_execute e;
    (void)proto_parse_execute(m, &e, &err);
    proto_sasl_initial si;
    if (proto_parse_sasl_initial(m, &si, &err) == 0 && si.data &&
        si.data + si.len > m->data + m->len)
        abort();
    proto_startup st;
    if (proto_parse_startup(m, &st, &err) == 0)
        for (size_t i = 0; i < st.nparams; i++) {
            check_inside(m, st.names[i]);
            check_inside(m, st.values[i]);
        }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 1)
        return 0;
    bool startup = data[0] & 1;
    const size_t max = 4096;
    data++;
    size--;
    while (size > 0) {
        proto_msg m;
        size_t used = 0;
        rl_error err;
        int rc = proto_frame(data, size, startup, max, &m, &used, &err);
        if (rc <= 0)
            break;
        if (used > size || used != (startup ? 4 : 5) + m.len || m.len > (startup ? 10000 : max))
            abort();
        parse_all(&m);
        data += used;
        size -= used;
    }
    return 0;
}
