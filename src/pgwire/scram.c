/*
 * scram.c — SCRAM-SHA-256 server exchange and secrets (see scram.h).
 *
 * Crypto comes from OpenSSL (PBKDF2, HMAC, SHA-256, RAND_bytes,
 * CRYPTO_memcmp); only the message syntax and base64 are done here.
 */
#include "pgwire/scram.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/sha.h>

/* ---------------------------------------------------------------- base64 */

static const char b64chars[] =
    "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

size_t scram_b64_encode(const uint8_t *in, size_t n, char *out)
{
    size_t o = 0;
    for (size_t i = 0; i < n; i += 3) {
        uint32_t v = (uint32_t)in[i] << 16;
        if (i + 1 < n) v |= (uint32_t)in[i + 1] << 8;
        if (i + 2 < n) v |= in[i + 2];
        out[o++] = b64chars[(v >> 18) & 63];
        out[o++] = b64chars[(v >> 12) & 63];
        out[o++] = i + 1 < n ? b64chars[(v >> 6) & 63] : '=';
        out[o++] = i + 2 < n ? b64chars[v & 63] : '=';
    }
    out[o] = '\0';
    return o;
}

static int b64val(char c)
{
    const char *p = c ? strchr(b64chars, c) : NULL;
    return p ? (int)(p - b64chars) : -1;
}

long scram_b64_decode(const char *in, size_t n, uint8_t *out, size_t cap)
{
    if (n % 4)
        return -1;
    size_t o = 0;
    for (size_t i = 0; i < n; i += 4) {
        int v[4], pad = 0;
        for (int k = 0; k < 4; k++) {
            if (in[i + k] == '=' && i + 4 == n && k >= 2) {
                v[k] = 0;
                pad++;
            } else if (pad || (v[k] = b64val(in[i + k])) < 0) {
                return -1;
            }
        }
        uint32_t w = (uint32_t)v[0] << 18 | (uint32_t)v[1] << 12 | (uint32_t)v[2] << 6 | (uint32_t)v[3];
        for (int k = 0; k < 3 - pad; k++) {
            if (o == cap)
                return -1;
            out[o++] = (uint8_t)(w >> (16 - 8 * k));
        }
    }
    return (long)o;
}

/* --------------------------------------------------------------- secrets */

static void hmac(const uint8_t *key, size_t klen, const void *msg, size_t mlen, uint8_t out[32])
{
    unsigned int olen = 32;
    HMAC(EVP_sha256(), key, (int)klen, msg, mlen, out, &olen);
}

static int derive_keys(const char *password, scram_secret *s)
{
    uint8_t salted[SCRAM_KEY_LEN], client_key[SCRAM_KEY_LEN];
    if (!PKCS5_PBKDF2_HMAC(password, (int)strlen(password), s->salt, (int)s->salt_len,
                           s->iterations, EVP_sha256(), SCRAM_KEY_LEN, salted))
        return -1;
    hmac(salted, sizeof salted, "Client Key", 10, client_key);
    SHA256(client_key, sizeof client_key, s->stored_key);
    hmac(salted, sizeof salted, "Server Key", 10, s->server_key);
    OPENSSL_cleanse(salted, sizeof salted);
    return 0;
}

int scram_secret_from_password(const char *password, int iterations, scram_secret *out)
{
    memset(out, 0, sizeof *out);
    out->iterations = iterations > 0 ? iterations : SCRAM_DEFAULT_ITERATIONS;
    out->salt_len = 16;
    if (RAND_bytes(out->salt, (int)out->salt_len) != 1)
        return -1;
    return derive_keys(password, out);
}

bool scram_password_matches(const scram_secret *s, const char *password)
{
    scram_secret t = *s;
    if (derive_keys(password, &t) < 0)
        return false;
    return CRYPTO_memcmp(t.stored_key, s->stored_key, SCRAM_KEY_LEN) == 0 &&
           CRYPTO_memcmp(t.server_key, s->server_key, SCRAM_KEY_LEN) == 0;
}

/* Decode base64 text [p, end) that must give exactly `want` bytes (or up to
 * cap when want is 0). Returns the length or -1. */
static long decode_field(const char *p, const char *end, uint8_t *out, size_t cap, size_t want)
{
    long n = scram_b64_decode(p, (size_t)(end - p), out, cap);
    if (n < 0 || (want && (size_t)n != want))
        return -1;
    return n;
}

int scram_secret_parse(const char *text, scram_secret *out)
{
    memset(out, 0, sizeof *out);
    if (strncasecmp(text, "SCRAM-SHA-256$", 14) != 0)
        return -1;
    const char *p = text + 14;
    char *end;
    long iters = strtol(p, &end, 10);
    if (end == p || *end != ':' || iters < 1 || iters > 10000000)
        return -1;
    out->iterations = (int)iters;
    const char *salt = end + 1, *dollar = strchr(salt, '$');
    if (!dollar)
        return -1;
    long sl = decode_field(salt, dollar, out->salt, sizeof out->salt, 0);
    if (sl <= 0)
        return -1;
    out->salt_len = (size_t)sl;
    const char *stored = dollar + 1, *colon = strchr(stored, ':');
    if (!colon)
        return -1;
    if (decode_field(stored, colon, out->stored_key, SCRAM_KEY_LEN, SCRAM_KEY_LEN) < 0)
        return -1;
    const char *server = colon + 1;
    if (decode_field(server, server + strlen(server), out->server_key, SCRAM_KEY_LEN,
                     SCRAM_KEY_LEN) < 0)
        return -1;
    return 0;
}

void scram_secret_format(const scram_secret *s, char *out, size_t n)
{
    char salt[2 * SCRAM_MAX_SALT], sk[64], vk[64];
    scram_b64_encode(s->salt, s->salt_len, salt);
    scram_b64_encode(s->stored_key, SCRAM_KEY_LEN, sk);
    scram_b64_encode(s->server_key, SCRAM_KEY_LEN, vk);
    snprintf(out, n, "SCRAM-SHA-256$%d:%s$%s:%s", s->iterations, salt, sk, vk);
}

void scram_mock_secret(const char *user, const uint8_t *server_secret, size_t secret_len,
                       scram_secret *out)
{
    memset(out, 0, sizeof *out);
    out->iterations = SCRAM_DEFAULT_ITERATIONS;
    uint8_t h[32];
    hmac(server_secret, secret_len, user, strlen(user), h);
    out->salt_len = 16;
    memcpy(out->salt, h, 16);
    /* random keys: no proof can match them */
    RAND_bytes(out->stored_key, SCRAM_KEY_LEN);
    RAND_bytes(out->server_key, SCRAM_KEY_LEN);
}

/* -------------------------------------------------------------- exchange */

void scram_init(scram_state *st, const scram_secret *secret)
{
    memset(st, 0, sizeof *st);
    st->secret = *secret;
}

static int malformed(rl_error *err, const char *what)
{
    rl_error_set(err, RL_SQLSTATE_PROTOCOL_VIOLATION, "malformed SCRAM message");
    rl_error_detail(err, "%s", what);
    return -1;
}

/* Copy msg into a NUL-terminated buffer; false if too long or has a NUL. */
static bool to_cstr(const uint8_t *msg, size_t len, char *out, size_t n)
{
    if (len >= n || memchr(msg, 0, len))
        return false;
    memcpy(out, msg, len);
    out[len] = '\0';
    return true;
}

static bool printable_nonce(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (*s < 0x21 || *s > 0x7e || *s == ',')
            return false;
    return true;
}

int scram_server_first(scram_state *st, const uint8_t *msg, size_t len, char *out, size_t n,
                       rl_error *err)
{
    char m[512];
    if (st->step != 0 || !to_cstr(msg, len, m, sizeof m))
        return malformed(err, "The client-first-message is too long or not text.");
    /* gs2-header: cbind flag, then an (unsupported) authzid */
    if (m[0] == 'p')
        return rl_error_set(err, RL_SQLSTATE_PROTOCOL_VIOLATION,
                            "channel binding is not supported by this server");
    if ((m[0] != 'n' && m[0] != 'y') || m[1] != ',')
        return malformed(err, "Unexpected channel-binding flag.");
    if (m[2] != ',')
        return rl_error_set(err, RL_SQLSTATE_FEATURE_NOT_SUPPORTED,
                            "client uses authorization identity, but it is not "
                                          "supported");
    memcpy(st->gs2_header, m, 3);
    st->gs2_header[3] = '\0';
    snprintf(st->client_first_bare, sizeof st->client_first_bare, "%s", m + 3);
    const char *bare = st->client_first_bare;
    if (strncmp(bare, "n=", 2) != 0)
        return malformed(err, "Expected attribute \"n\".");
    const char *r = strstr(bare, ",r=");
    if (!r)
        return malformed(err, "Expected attribute \"r\".");
    char cnonce[96];
    size_t cl = strcspn(r + 3, ",");
    if (cl >= sizeof cnonce)
        return malformed(err, "The client nonce is too long.");
    memcpy(cnonce, r + 3, cl);
    cnonce[cl] = '\0';
    if (!printable_nonce(cnonce))
        return malformed(err, "The client nonce is not printable.");
    uint8_t raw[18];
    char snonce[32], salt[2 * SCRAM_MAX_SALT];
    if (RAND_bytes(raw, sizeof raw) != 1)
        return rl_error_set(err, RL_SQLSTATE_INTERNAL_ERROR, "could not generate a random nonce");
    scram_b64_encode(raw, sizeof raw, snonce);
    snprintf(st->nonce, sizeof st->nonce, "%s%s", cnonce, snonce);
    scram_b64_encode(st->secret.salt, st->secret.salt_len, salt);
    snprintf(st->server_first, sizeof st->server_first, "r=%s,s=%s,i=%d", st->nonce, salt,
             st->secret.iterations);
    snprintf(out, n, "%s", st->server_first);
    st->step = 1;
    return 0;
}

/* Split "c=...,r=...,p=..." into its parts; false if malformed. */
static bool split_final(char *m, char **c, char **r, char **proof, size_t *without_proof_len)
{
    if (strncmp(m, "c=", 2) != 0)
        return false;
    char *pr = strstr(m, ",p=");
    char *rr = strstr(m, ",r=");
    if (!pr || !rr || rr > pr)
        return false;
    *without_proof_len = (size_t)(pr - m);
    *pr = '\0';
    *proof = pr + 3;
    *rr = '\0';
    *r = rr + 3;
    char *comma = strchr(*r, ','); /* extensions after r= are ignored */
    if (comma)
        *comma = '\0';
    *c = m + 2;
    return true;
}

int scram_server_final(scram_state *st, const uint8_t *msg, size_t len, char *out, size_t n,
                       rl_error *err)
{
    char m[512], copy[512];
    if (st->step != 1 || !to_cstr(msg, len, m, sizeof m))
        return malformed(err, "The client-final-message is too long or not text.");
    memcpy(copy, m, sizeof copy);
    char *c, *r, *proof_b64;
    size_t wlen;
    if (!split_final(m, &c, &r, &proof_b64, &wlen))
        return malformed(err, "Expected attributes \"c\", \"r\" and \"p\".");
    char want_c[16];
    scram_b64_encode((const uint8_t *)st->gs2_header, strlen(st->gs2_header), want_c);
    if (strcmp(c, want_c) != 0)
        return malformed(err, "SCRAM channel binding check failed.");
    if (strcmp(r, st->nonce) != 0)
        return malformed(err, "Nonce does not match.");
    uint8_t proof[SCRAM_KEY_LEN];
    if (decode_field(proof_b64, proof_b64 + strlen(proof_b64), proof, sizeof proof,
                     SCRAM_KEY_LEN) < 0)
        return malformed(err, "Malformed proof in client-final-message.");
    char auth[1600];
    int alen = snprintf(auth, sizeof auth, "%s,%s,%.*s", st->client_first_bare, st->server_first,
                        (int)wlen, copy);
    if (alen < 0 || (size_t)alen >= sizeof auth)
        return malformed(err, "The SCRAM exchange is too long.");
    uint8_t sig[SCRAM_KEY_LEN], client_key[SCRAM_KEY_LEN], h[SCRAM_KEY_LEN];
    hmac(st->secret.stored_key, SCRAM_KEY_LEN, auth, (size_t)alen, sig);
    for (int i = 0; i < SCRAM_KEY_LEN; i++)
        client_key[i] = proof[i] ^ sig[i];
    SHA256(client_key, sizeof client_key, h);
    st->step = 2;
    if (CRYPTO_memcmp(h, st->secret.stored_key, SCRAM_KEY_LEN) != 0)
        return 0;
    uint8_t server_sig[SCRAM_KEY_LEN];
    char sig64[64];
    hmac(st->secret.server_key, SCRAM_KEY_LEN, auth, (size_t)alen, server_sig);
    scram_b64_encode(server_sig, sizeof server_sig, sig64);
    snprintf(out, n, "v=%s", sig64);
    return 1;
}
