/*
 * auth.c — the --hba decision and each method's exchange (auth.h).
 *
 * Owns: the order of the Authentication messages (10 SASL, 11 SASL
 * continue, 12 SASL final, 3 cleartext password, 0 ok), the mock secret
 * of an unknown user, the failure delay, and the FATALs of authentication.
 * The SCRAM arithmetic is scram.c's; the rules and users files are hba.c's.
 *
 * Invariants: everything reaches the client through rl_auth_io; a user the
 * users file does not know runs the same exchange against a mock secret
 * and fails only at its end, so timing and messages do not tell.
 */
#include "pgwire/auth.h"

#include <string.h>
#include <time.h>

#include "pgwire/scram.h"

enum { AUTH_FAIL_DELAY_MS = 500 };

/* One authentication attempt: the configuration, the peer and the way to it. */
typedef struct auth {
    const rl_auth_config *cfg;
    const rl_auth_peer *peer;
    const rl_auth_io *io;
} auth;

static void fatal(const auth *a, const char *sqlstate, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
static void fatal(const auth *a, const char *sqlstate, const char *fmt, ...)
{
    rl_error e;
    va_list ap;
    va_start(ap, fmt);
    rl_error_setv(&e, sqlstate, fmt, ap);
    va_end(ap);
    a->io->fatal(a->io->ctx, &e);
}

static void fatal_err(const auth *a, const rl_error *e) { a->io->fatal(a->io->ctx, e); }

static void put_auth(const auth *a, int32_t code, const void *data, size_t len)
{
    a->io->put_auth(a->io->ctx, code, data, len);
}

static bool flush(const auth *a) { return a->io->flush(a->io->ctx); }

static void auth_failed(const auth *a)
{
    const rl_auth_peer *p = a->peer;
    a->io->refused(a->io->ctx, "auth_failed");
    /* a fixed delay slows password guessing; same for unknown users */
    struct timespec d = {.tv_sec = 0, .tv_nsec = AUTH_FAIL_DELAY_MS * 1000000L};
    nanosleep(&d, NULL);
    fatal(a, RL_SQLSTATE_INVALID_PASSWORD, "password authentication failed for user \"%s\"",
          p->user);
}

/* Read the next authentication message ('p'); false if the client left. */
static bool read_auth_msg(const auth *a, proto_msg *m)
{
    if (a->io->read(a->io->ctx, m) <= 0)
        return false;
    if (m->type != 'p') {
        if (m->type != 'X')
            fatal(a, RL_SQLSTATE_PROTOCOL_VIOLATION,
                  "expected SASL response, got message type %d", m->type);
        return false;
    }
    return true;
}

/* The user's SCRAM secret, or a mock one derived from the name. */
static void scram_secret_of(const auth *a, const hba_user *u, scram_secret *secret)
{
    if (u) {
        *secret = u->secret;
        return;
    }
    scram_mock_secret(a->peer->user, a->cfg->mock_key, a->cfg->mock_key_len, secret);
}

/* SASLInitialResponse: the mechanism must be SCRAM-SHA-256. */
static bool read_sasl_initial(const auth *a, proto_msg *m, proto_sasl_initial *si)
{
    rl_error err;
    if (!read_auth_msg(a, m))
        return false;
    if (proto_parse_sasl_initial(m, si, &err) < 0) {
        fatal_err(a, &err);
        return false;
    }
    if (strcmp(si->mechanism, "SCRAM-SHA-256") != 0) {
        fatal(a, RL_SQLSTATE_PROTOCOL_VIOLATION,
              "client selected an invalid SASL authentication mechanism");
        return false;
    }
    return true;
}

static bool auth_scram(const auth *a, const hba_user *u)
{
    scram_secret secret;
    scram_secret_of(a, u, &secret);
    put_auth(a, 10, "SCRAM-SHA-256\0", 15);
    if (!flush(a))
        return false;
    proto_msg m;
    proto_sasl_initial si;
    if (!read_sasl_initial(a, &m, &si))
        return false;
    rl_error err;
    scram_state st;
    char out[600];
    scram_init(&st, &secret);
    if (scram_server_first(&st, si.data ? si.data : (const uint8_t *)"", si.len, out, sizeof out,
                           &err) < 0) {
        fatal_err(a, &err);
        return false;
    }
    put_auth(a, 11, out, strlen(out));
    if (!flush(a) || !read_auth_msg(a, &m))
        return false;
    int ok = scram_server_final(&st, m.data, m.len, out, sizeof out, &err);
    if (ok < 0) {
        fatal_err(a, &err);
        return false;
    }
    if (ok == 0 || !u) {
        auth_failed(a);
        return false;
    }
    put_auth(a, 12, out, strlen(out));
    return true;
}

static bool auth_password(const auth *a, const hba_user *u)
{
    put_auth(a, 3, NULL, 0);
    if (!flush(a))
        return false;
    proto_msg m;
    rl_error err;
    const char *pw;
    if (!read_auth_msg(a, &m))
        return false;
    if (proto_parse_string_msg(&m, &pw, &err) < 0) {
        fatal_err(a, &err);
        return false;
    }
    if (!u || !scram_password_matches(&u->secret, pw)) {
        auth_failed(a);
        return false;
    }
    return true;
}

/* No --hba rule matched, or the matching rule rejects: FATAL 28000. */
static void hba_refused(const auth *a, bool matched)
{
    const rl_auth_peer *p = a->peer;
    const char *enc = p->tls ? "SSL encryption" : "no encryption";
    a->io->refused(a->io->ctx, "auth_rejected");
    if (!matched)
        fatal(a, RL_SQLSTATE_INVALID_AUTHORIZATION_SPECIFICATION,
              "no pg_hba.conf entry for host \"%s\", user \"%s\", database \"%s\", %s", p->addr,
              p->user, p->database, enc);
    else
        fatal(a, RL_SQLSTATE_INVALID_AUTHORIZATION_SPECIFICATION,
              "pg_hba.conf rejects connection for host \"%s\", user \"%s\", database \"%s\", %s",
              p->addr, p->user, p->database, enc);
}

bool rl_auth_run(const rl_auth_config *cfg, const rl_auth_peer *peer, const rl_auth_io *io)
{
    const auth a = {.cfg = cfg, .peer = peer, .io = io};
    bool matched;
    hba_method method =
        hba_match(cfg->rules, peer->sa, peer->database, peer->user, peer->tls, &matched);
    if (!matched || method == HBA_REJECT) {
        hba_refused(&a, matched);
        return false;
    }
    const hba_user *u = hba_users_find(cfg->users, peer->user);
    bool ok = method == HBA_TRUST   ? true
              : method == HBA_SCRAM ? auth_scram(&a, u)
                                    : auth_password(&a, u);
    if (ok)
        put_auth(&a, 0, NULL, 0);
    return ok;
}
