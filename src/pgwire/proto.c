/*
 * proto.c — frontend message framing and parsing (see proto.h).
 *
 * Every parser walks a cursor over the payload with bounds checks; a field
 * that does not fit, a missing NUL, a negative count or leftover bytes make
 * the message malformed (08P01 "invalid message format", PostgreSQL's text).
 */
#include "pgwire/proto.h"

#include <stdlib.h>
#include <string.h>

#include "base/buf.h"

/* Frontend types of protocol 3.0 after startup (F = FunctionCall is known so
 * that it gets "not supported" rather than ending the connection). */
static bool known_type(uint8_t t)
{
    return t && strchr("QPBDECHSXdcfpF", t) != NULL;
}

int proto_frame(const uint8_t *p, size_t n, bool startup, size_t max_len, proto_msg *msg,
                size_t *consumed, rl_error *err)
{
    size_t hdr = startup ? 4 : 5;
    if (!startup && n >= 1 && !known_type(p[0]))
        return rl_error_set(err, PROTO_SQLSTATE_VIOLATION, "invalid frontend message type %d",
                            p[0]);
    if (n < hdr)
        return 0;
    uint32_t len = rl_load_be32(p + hdr - 4);
    size_t limit = startup ? PROTO_MAX_STARTUP : max_len;
    /* the length counts itself; a startup packet has at least its code */
    if (len < (startup ? 8u : 4u) || (size_t)len - 4 > limit)
        return rl_error_set(err, PROTO_SQLSTATE_VIOLATION,
                            startup ? "invalid length of startup packet" : "invalid message length");
    size_t total = hdr + (size_t)len - 4;
    if (n < total)
        return 0;
    msg->type = startup ? 0 : (char)p[0];
    msg->data = p + hdr;
    msg->len = (size_t)len - 4;
    *consumed = total;
    return 1;
}

/* ------------------------------------------------------------ the cursor */

typedef struct cur {
    const uint8_t *p, *end;
    bool bad;
} cur;

static void cur_init(cur *c, const proto_msg *m)
{
    c->p = m->data;
    c->end = m->data + m->len;
    c->bad = false;
}

static const char *cur_str(cur *c)
{
    if (c->bad)
        return "";
    const uint8_t *z = memchr(c->p, 0, (size_t)(c->end - c->p));
    if (!z) {
        c->bad = true;
        return "";
    }
    const char *s = (const char *)c->p;
    c->p = z + 1;
    return s;
}

static uint32_t cur_u32(cur *c)
{
    if (c->bad || c->end - c->p < 4) {
        c->bad = true;
        return 0;
    }
    uint32_t v = rl_load_be32(c->p);
    c->p += 4;
    return v;
}

static int16_t cur_i16(cur *c)
{
    if (c->bad || c->end - c->p < 2) {
        c->bad = true;
        return 0;
    }
    int16_t v = (int16_t)(uint16_t)((c->p[0] << 8) | c->p[1]);
    c->p += 2;
    return v;
}

/* A count: PostgreSQL reads the Int16 counts of Parse and Bind unsigned
 * (pq_getmsgint), so a message may carry up to 65,535 parameters. */
static size_t cur_count16(cur *c)
{
    return (uint16_t)cur_i16(c);
}

static uint8_t cur_u8(cur *c)
{
    if (c->bad || c->end == c->p) {
        c->bad = true;
        return 0;
    }
    return *c->p++;
}

static const uint8_t *cur_bytes(cur *c, size_t n)
{
    if (c->bad || (size_t)(c->end - c->p) < n) {
        c->bad = true;
        return NULL;
    }
    const uint8_t *r = c->p;
    c->p += n;
    return r;
}

/* The message must have been consumed exactly. */
static int cur_finish(cur *c, rl_error *err)
{
    if (c->bad || c->p != c->end)
        return rl_error_set(err, PROTO_SQLSTATE_VIOLATION, "invalid message format");
    return 0;
}

/* --------------------------------------------------------------- startup */

static int parse_startup_params(cur *c, proto_startup *out, rl_error *err)
{
    /* name/value pairs, terminated by an empty name */
    for (;;) {
        const char *name = cur_str(c);
        if (c->bad)
            break;
        if (!name[0])
            return cur_finish(c, err);
        const char *value = cur_str(c);
        if (c->bad)
            break;
        if (out->nparams == PROTO_MAX_STARTUP_PARAMS)
            return rl_error_set(err, PROTO_SQLSTATE_VIOLATION, "too many startup parameters");
        out->names[out->nparams] = name;
        out->values[out->nparams] = value;
        out->nparams++;
    }
    return rl_error_set(err, PROTO_SQLSTATE_VIOLATION, "invalid startup packet layout: expected "
                                                       "terminator as last byte");
}

int proto_parse_startup(const proto_msg *m, proto_startup *out, rl_error *err)
{
    memset(out, 0, sizeof *out);
    cur c;
    cur_init(&c, m);
    out->version = cur_u32(&c);
    switch (out->version) {
    case PROTO_CODE_SSL:
        out->kind = PROTO_SSL_REQUEST;
        return cur_finish(&c, err);
    case PROTO_CODE_GSSENC:
        out->kind = PROTO_GSSENC_REQUEST;
        return cur_finish(&c, err);
    case PROTO_CODE_CANCEL:
        out->kind = PROTO_CANCEL_REQUEST;
        out->cancel_pid = (int32_t)cur_u32(&c);
        out->cancel_secret = (int32_t)cur_u32(&c);
        return cur_finish(&c, err);
    default:
        break;
    }
    out->kind = PROTO_STARTUP;
    if (out->version >> 16 != 3 || (out->version & 0xffff) != 0)
        return rl_error_set(err, RL_SQLSTATE_FEATURE_NOT_SUPPORTED,
                            "unsupported frontend protocol %u.%u: server supports 3.0 to 3.0",
                            out->version >> 16, out->version & 0xffff);
    return parse_startup_params(&c, out, err);
}

const char *proto_startup_param(const proto_startup *s, const char *name)
{
    for (size_t i = 0; i < s->nparams; i++)
        if (strcmp(s->names[i], name) == 0)
            return s->values[i];
    return NULL;
}

/* ----------------------------------------------------- query-phase messages */

int proto_parse_string_msg(const proto_msg *m, const char **out, rl_error *err)
{
    cur c;
    cur_init(&c, m);
    *out = cur_str(&c);
    return cur_finish(&c, err);
}

int proto_parse_parse(const proto_msg *m, proto_parse *out, rl_error *err)
{
    cur c;
    cur_init(&c, m);
    out->stmt = cur_str(&c);
    out->sql = cur_str(&c);
    size_t n = cur_count16(&c);
    out->nparams = c.bad ? 0 : n;
    out->param_oids = cur_bytes(&c, out->nparams * 4);
    return cur_finish(&c, err);
}

uint32_t proto_parse_param_oid(const proto_parse *p, size_t i)
{
    return rl_load_be32(p->param_oids + 4 * i);
}

void proto_bind_free(proto_bind *b)
{
    free(b->formats);
    free(b->values);
    free(b->lengths);
    free(b->result_formats);
    memset(b, 0, sizeof *b);
}

/* An Int16 count followed by that many Int16s, into a malloc'd array. */
static int16_t *cur_i16_array(cur *c, size_t *n)
{
    size_t cnt = cur_count16(c);
    *n = 0;
    if (c->bad || (size_t)(c->end - c->p) < cnt * 2) {
        c->bad = true;
        return NULL;
    }
    int16_t *a = malloc((cnt + 1) * sizeof *a);
    if (!a) {
        c->bad = true;
        return NULL;
    }
    for (size_t i = 0; i < cnt; i++)
        a[i] = cur_i16(c);
    *n = cnt;
    return a;
}

static void bind_values(cur *c, proto_bind *out)
{
    size_t n = cur_count16(c);
    /* each value takes at least its 4-byte length: bound the allocation by
     * what the message can actually hold */
    if (c->bad || (size_t)(c->end - c->p) / 4 < n) {
        c->bad = true;
        return;
    }
    out->values = calloc(n + 1, sizeof *out->values);
    out->lengths = calloc(n + 1, sizeof *out->lengths);
    if (!out->values || !out->lengths) {
        c->bad = true;
        return;
    }
    out->nparams = n;
    for (size_t i = 0; i < n && !c->bad; i++) {
        int32_t len = (int32_t)cur_u32(c);
        if (len < -1) {
            c->bad = true;
            break;
        }
        out->lengths[i] = len;
        out->values[i] = len < 0 ? NULL : cur_bytes(c, (size_t)len);
    }
}

int proto_parse_bind(const proto_msg *m, proto_bind *out, rl_error *err)
{
    memset(out, 0, sizeof *out);
    cur c;
    cur_init(&c, m);
    out->portal = cur_str(&c);
    out->stmt = cur_str(&c);
    out->formats = cur_i16_array(&c, &out->nformats);
    bind_values(&c, out);
    out->result_formats = cur_i16_array(&c, &out->nresult_formats);
    if (!c.bad && out->nformats > 1 && out->nformats != out->nparams) {
        proto_bind_free(out);
        return rl_error_set(err, PROTO_SQLSTATE_VIOLATION,
                            "bind message has %zu parameter formats but %zu parameters",
                            out->nformats, out->nparams);
    }
    for (size_t i = 0; !c.bad && i < out->nformats; i++)
        if (out->formats[i] != 0 && out->formats[i] != 1) {
            int bad = out->formats[i];
            proto_bind_free(out);
            return rl_error_set(err, PROTO_SQLSTATE_VIOLATION,
                                "unsupported format code: %d", bad);
        }
    for (size_t i = 0; !c.bad && i < out->nresult_formats; i++)
        if (out->result_formats[i] != 0 && out->result_formats[i] != 1) {
            int bad = out->result_formats[i];
            proto_bind_free(out);
            return rl_error_set(err, PROTO_SQLSTATE_VIOLATION,
                                "unsupported format code: %d", bad);
        }
    if (cur_finish(&c, err) < 0) {
        proto_bind_free(out);
        return -1;
    }
    return 0;
}

int proto_parse_target(const proto_msg *m, proto_target *out, rl_error *err)
{
    cur c;
    cur_init(&c, m);
    out->kind = (char)cur_u8(&c);
    out->name = cur_str(&c);
    if (cur_finish(&c, err) < 0)
        return -1;
    if (out->kind != 'S' && out->kind != 'P')
        return rl_error_set(err, PROTO_SQLSTATE_VIOLATION, "invalid %s message subtype %d",
                            m->type == 'D' ? "DESCRIBE" : "CLOSE", out->kind);
    return 0;
}

int proto_parse_execute(const proto_msg *m, proto_execute *out, rl_error *err)
{
    cur c;
    cur_init(&c, m);
    out->portal = cur_str(&c);
    out->max_rows = (int32_t)cur_u32(&c);
    if (out->max_rows < 0) /* PostgreSQL treats <= 0 as "fetch all" */
        out->max_rows = 0;
    return cur_finish(&c, err);
}

int proto_parse_sasl_initial(const proto_msg *m, proto_sasl_initial *out, rl_error *err)
{
    cur c;
    cur_init(&c, m);
    out->mechanism = cur_str(&c);
    int32_t n = (int32_t)cur_u32(&c);
    out->len = 0;
    out->data = NULL;
    if (n > 0) {
        out->len = (size_t)n;
        out->data = cur_bytes(&c, out->len);
    } else if (n < -1) {
        c.bad = true;
    }
    return cur_finish(&c, err);
}
