/*
 * hba.h — who may connect, and how they prove it.
 *
 * Owns: the users file (--users) and the client-address rules (--hba), in
 * the spirit of PostgreSQL's pg_hba.conf.
 *
 * Users file, one user per line ('#' starts a comment, blank lines skipped):
 *     NAME:SCRAM-SHA-256$<iter>:<salt>$<StoredKey>:<ServerKey>
 *     NAME:plain:PASSWORD
 * The SCRAM form is PostgreSQL's own (pg_authid.rolpassword); a plain
 * password is turned into a SCRAM secret when the file is loaded, so plain
 * users can use SCRAM too.
 *
 * Rules file, one rule per line, first match wins:
 *     host|hostssl|hostnossl  DATABASE  USER  ADDRESS  METHOD  [access=read-only|read-write]
 * DATABASE and USER are "all" or comma-separated names; ADDRESS is "all",
 * an IPv4/IPv6 address, or address/prefix-length (CIDR); METHOD is trust,
 * scram-sha-256, md5 (handled as scram-sha-256, as PostgreSQL does for SCRAM
 * secrets), password (cleartext) or reject. The option access= (in the
 * place of pg_hba.conf's options) is what a session the rule admits may do
 * in that database: read-only sessions read everything and get 42501 for
 * every write (src/sql/sql_privilege.c); read-write, the default, may do
 * everything. Per lake and per user by DATABASE and USER, globally by all.
 *
 * Without --hba the rules are: trust for loopback clients when no users
 * file is given; scram-sha-256 for every address when one is.
 *
 * Invariant: a client that matches no rule is rejected (28000).
 */
#ifndef ROCKLAKE_HBA_H
#define ROCKLAKE_HBA_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/socket.h>

#include "base/error.h"
#include "pgwire/scram.h"

typedef enum hba_method { HBA_REJECT, HBA_TRUST, HBA_SCRAM, HBA_PASSWORD } hba_method;

typedef struct hba_rule {
    int line;
    int ssl;             /* 0 any, 1 hostssl, -1 hostnossl */
    char dbs[256];       /* "all" or comma list */
    char users[256];
    bool any_addr;
    int family;          /* AF_INET / AF_INET6 */
    unsigned char addr[16];
    int prefix;          /* bits */
    hba_method method;
    bool read_only;      /* access=read-only */
} hba_rule;

typedef struct hba {
    hba_rule *rules;
    size_t n;
} hba;

/* Load rules; on error *err names the file and line. NULL on failure. */
hba *hba_load(const char *path, rl_error *err);
/* The defaults described above. */
hba *hba_default(bool have_users);
void hba_free(hba *h);
/* The method for a client, HBA_REJECT when no rule matches (*matched false). */
hba_method hba_match(const hba *h, const struct sockaddr *addr, const char *db,
                     const char *user, bool ssl, bool *matched);
/* The rule hba_match applies (NULL when none matches). */
const hba_rule *hba_match_rule(const hba *h, const struct sockaddr *addr, const char *db,
                               const char *user, bool ssl);
/* May `user` only read database `db`? By the first rule naming both that
 * does not reject, whatever the address and encryption (for listing roles,
 * pg_roles): a client's own session goes by hba_match_rule. NULL h: no. */
bool hba_read_only_for(const hba *h, const char *db, const char *user);
const char *hba_method_name(hba_method m);
bool hba_is_loopback(const struct sockaddr *addr);

typedef struct hba_user {
    char name[64];
    scram_secret secret;
} hba_user;

typedef struct hba_users {
    hba_user *users;
    size_t n;
} hba_users;

hba_users *hba_users_load(const char *path, rl_error *err);
void hba_users_free(hba_users *u);
const hba_user *hba_users_find(const hba_users *u, const char *name);

#endif
