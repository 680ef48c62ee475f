/*
 * scram.h — SCRAM-SHA-256 server side (RFC 5802 / RFC 7677), as PostgreSQL
 * implements it: no channel binding (only "SCRAM-SHA-256" is advertised, so
 * a client's gs2 header must be "n,," or "y,,"), the user name inside the
 * client-first-message is ignored (the startup user counts), and secrets use
 * PostgreSQL's stored format
 *
 *     SCRAM-SHA-256$<iterations>:<salt base64>$<StoredKey base64>:<ServerKey base64>
 *
 * Owns: secrets (parse, derive from a password, format), the two-step
 * server exchange, and the cleartext check against a secret.
 *
 * Invariants: a failed exchange never says why beyond "authentication
 * failed" — the caller reports the same 28P01 for an unknown user (run with
 * a mock secret from scram_mock_secret) and for a wrong password. Password
 * normalization (SASLprep) is not applied: passwords are used as UTF-8 bytes,
 * which equals SASLprep for ASCII passwords.
 */
#ifndef ROCKLAKE_SCRAM_H
#define ROCKLAKE_SCRAM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "base/error.h"

#define SCRAM_KEY_LEN 32
#define SCRAM_DEFAULT_ITERATIONS 4096
#define SCRAM_MAX_SALT 64

typedef struct scram_secret {
    int iterations;
    uint8_t salt[SCRAM_MAX_SALT];
    size_t salt_len;
    uint8_t stored_key[SCRAM_KEY_LEN];
    uint8_t server_key[SCRAM_KEY_LEN];
} scram_secret;

/* Parse PostgreSQL's text form (prefix case-insensitive). 0 or -1. */
int scram_secret_parse(const char *text, scram_secret *out);
/* Derive a secret from a password with a random 16-byte salt. 0 or -1. */
int scram_secret_from_password(const char *password, int iterations, scram_secret *out);
/* Text form into out (at least 200 bytes). */
void scram_secret_format(const scram_secret *s, char *out, size_t n);
/* A secret for a user that does not exist: deterministic salt per user name
 * (so probing twice shows the same salt) and keys nobody can match. */
void scram_mock_secret(const char *user, const uint8_t *server_secret, size_t secret_len,
                       scram_secret *out);
/* Cleartext password against a secret (constant-time key compare). */
bool scram_password_matches(const scram_secret *s, const char *password);

/* One exchange. */
typedef struct scram_state {
    scram_secret secret;
    char client_first_bare[512];
    char server_first[512];
    char nonce[160];          /* client nonce + server nonce */
    char gs2_header[8];
    int step;                 /* 0 expecting client-first, 1 client-final, 2 done */
} scram_state;

void scram_init(scram_state *st, const scram_secret *secret);
/* client-first-message -> server-first-message (NUL-terminated in out).
 * 0, or -1 with 08P01 (malformed) / 28000 (channel binding requested). */
int scram_server_first(scram_state *st, const uint8_t *msg, size_t len, char *out, size_t n,
                       rl_error *err);
/* client-final-message -> server-final-message. Returns 1 when the proof is
 * right (out holds "v=..."), 0 when it is wrong, -1 malformed (08P01). */
int scram_server_final(scram_state *st, const uint8_t *msg, size_t len, char *out, size_t n,
                       rl_error *err);

/* Base64 (RFC 4648, padded). encode writes a NUL-terminated string and
 * returns its length; decode returns the byte count or -1. */
size_t scram_b64_encode(const uint8_t *in, size_t n, char *out);
long scram_b64_decode(const char *in, size_t n, uint8_t *out, size_t cap);

#endif
