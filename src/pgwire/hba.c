/*
 * hba.c — users file and client-address rules (see hba.h for the formats).
 *
 * Both files are read once at startup; a syntax error stops the server
 * from starting (better than silently admitting or refusing clients).
 */
#include "pgwire/hba.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static void trim(char *s)
{
    char *h = strchr(s, '#');
    if (h)
        *h = '\0';
    size_t n = strlen(s);
    while (n && isspace((unsigned char)s[n - 1]))
        s[--n] = '\0';
}

static int line_error(rl_error *err, const char *path, int line, const char *what)
{
    return rl_error_set(err, RL_SQLSTATE_CONFIG_FILE_ERROR, "%s:%d: %s", path, line, what);
}

/* --------------------------------------------------------------- rules */

static bool parse_method(const char *s, hba_method *m)
{
    if (strcmp(s, "trust") == 0) *m = HBA_TRUST;
    else if (strcmp(s, "scram-sha-256") == 0 || strcmp(s, "md5") == 0) *m = HBA_SCRAM;
    else if (strcmp(s, "password") == 0) *m = HBA_PASSWORD;
    else if (strcmp(s, "reject") == 0) *m = HBA_REJECT;
    else return false;
    return true;
}

static bool parse_addr(const char *s, hba_rule *r)
{
    if (strcmp(s, "all") == 0) {
        r->any_addr = true;
        return true;
    }
    char host[64];
    const char *slash = strchr(s, '/');
    size_t hl = slash ? (size_t)(slash - s) : strlen(s);
    if (hl >= sizeof host)
        return false;
    memcpy(host, s, hl);
    host[hl] = '\0';
    if (inet_pton(AF_INET, host, r->addr) == 1) {
        r->family = AF_INET;
        r->prefix = 32;
    } else if (inet_pton(AF_INET6, host, r->addr) == 1) {
        r->family = AF_INET6;
        r->prefix = 128;
    } else {
        return false;
    }
    if (slash) {
        char *end;
        long p = strtol(slash + 1, &end, 10);
        if (end == slash + 1 || *end || p < 0 || p > r->prefix)
            return false;
        r->prefix = (int)p;
    }
    return true;
}

static int parse_rule(char *line, hba_rule *r, const char *path, int lineno, rl_error *err)
{
    char *f[7];
    int n = 0;
    for (char *save = NULL, *t = strtok_r(line, " \t", &save); t; t = strtok_r(NULL, " \t", &save))
        if (n < 6)
            f[n++] = t;
        else
            return line_error(err, path, lineno, "too many fields");
    if (n < 5)
        return line_error(err, path, lineno,
                          "expected: host|hostssl|hostnossl DATABASE USER ADDRESS METHOD "
                          "[access=read-only|read-write]");
    memset(r, 0, sizeof *r);
    r->line = lineno;
    if (strcmp(f[0], "host") == 0) r->ssl = 0;
    else if (strcmp(f[0], "hostssl") == 0) r->ssl = 1;
    else if (strcmp(f[0], "hostnossl") == 0) r->ssl = -1;
    else return line_error(err, path, lineno, "connection type must be host, hostssl or hostnossl");
    if (strlen(f[1]) >= sizeof r->dbs || strlen(f[2]) >= sizeof r->users)
        return line_error(err, path, lineno, "name list too long");
    strcpy(r->dbs, f[1]);
    strcpy(r->users, f[2]);
    if (!parse_addr(f[3], r))
        return line_error(err, path, lineno, "ADDRESS must be all, an IP address or ADDRESS/BITS");
    if (!parse_method(f[4], &r->method))
        return line_error(err, path, lineno,
                          "METHOD must be trust, scram-sha-256, md5, password or reject");
    if (n == 6 && strcmp(f[5], "access=read-only") == 0)
        r->read_only = true;
    else if (n == 6 && strcmp(f[5], "access=read-write") != 0)
        return line_error(err, path, lineno,
                          "the option after METHOD must be access=read-only or access=read-write");
    return 0;
}

static bool push_rule(hba *h, const hba_rule *r)
{
    hba_rule *nr = realloc(h->rules, (h->n + 1) * sizeof *nr);
    if (!nr)
        return false;
    h->rules = nr;
    h->rules[h->n++] = *r;
    return true;
}

/* Call fn for each line of the file at `path` (the "hba" or "users" file
 * named in errors) until fn returns < 0. 58030 if the file cannot be read. */
static int for_each_line(const char *path, const char *what,
                         int (*fn)(char *line, const char *path, int lineno, void *ctx,
                                   rl_error *err),
                         void *ctx, rl_error *err)
{
    FILE *f = fopen(path, "r");
    if (!f)
        return rl_error_set(err, RL_SQLSTATE_IO_ERROR, "cannot read the %s file \"%s\"", what,
                            path);
    char line[1024];
    int lineno = 0, rc = 0;
    while (rc == 0 && fgets(line, sizeof line, f))
        rc = fn(line, path, ++lineno, ctx, err);
    fclose(f);
    return rc;
}

static int add_rule_line(char *line, const char *path, int lineno, void *ctx, rl_error *err)
{
    trim(line);
    if (!line[0] || strspn(line, " \t") == strlen(line))
        return 0;
    hba_rule r;
    if (parse_rule(line, &r, path, lineno, err) < 0)
        return -1;
    return push_rule(ctx, &r) ? 0 : rl_error_set(err, RL_SQLSTATE_OUT_OF_MEMORY, "out of memory");
}

hba *hba_load(const char *path, rl_error *err)
{
    hba *h = calloc(1, sizeof *h);
    if (!h) {
        rl_error_set(err, RL_SQLSTATE_OUT_OF_MEMORY, "out of memory");
        return NULL;
    }
    if (for_each_line(path, "hba", add_rule_line, h, err) < 0) {
        hba_free(h);
        return NULL;
    }
    return h;
}

hba *hba_default(bool have_users)
{
    hba *h = calloc(1, sizeof *h);
    if (!h)
        return NULL;
    hba_rule r;
    memset(&r, 0, sizeof r);
    strcpy(r.dbs, "all");
    strcpy(r.users, "all");
    if (have_users) {
        r.any_addr = true;
        r.method = HBA_SCRAM;
        push_rule(h, &r);
        return h;
    }
    r.method = HBA_TRUST;
    r.family = AF_INET;
    r.prefix = 8;
    r.addr[0] = 127;
    push_rule(h, &r);
    r.family = AF_INET6;
    r.prefix = 128;
    memset(r.addr, 0, sizeof r.addr);
    r.addr[15] = 1;
    push_rule(h, &r);
    return h;
}

void hba_free(hba *h)
{
    if (!h)
        return;
    free(h->rules);
    free(h);
}

static bool in_list(const char *list, const char *name)
{
    if (strcmp(list, "all") == 0)
        return true;
    size_t nl = strlen(name);
    for (const char *p = list; *p;) {
        size_t l = strcspn(p, ",");
        if (l == nl && strncmp(p, name, l) == 0)
            return true;
        p += l;
        if (*p == ',')
            p++;
    }
    return false;
}

/* The client's address bytes as (family, bytes); IPv4-mapped IPv6 addresses
 * count as IPv4, as PostgreSQL does. */
static int client_bytes(const struct sockaddr *sa, unsigned char out[16])
{
    if (sa->sa_family == AF_INET) {
        memcpy(out, &((const struct sockaddr_in *)sa)->sin_addr, 4);
        return AF_INET;
    }
    if (sa->sa_family == AF_INET6) {
        const struct in6_addr *a = &((const struct sockaddr_in6 *)sa)->sin6_addr;
        if (IN6_IS_ADDR_V4MAPPED(a)) {
            memcpy(out, a->s6_addr + 12, 4);
            return AF_INET;
        }
        memcpy(out, a->s6_addr, 16);
        return AF_INET6;
    }
    return 0;
}

static bool addr_matches(const hba_rule *r, const struct sockaddr *sa)
{
    if (r->any_addr)
        return true;
    unsigned char b[16];
    if (client_bytes(sa, b) != r->family)
        return false;
    int bits = r->prefix;
    for (int i = 0; bits > 0; i++, bits -= 8) {
        unsigned char mask = bits >= 8 ? 0xff : (unsigned char)(0xff << (8 - bits));
        if ((b[i] & mask) != (r->addr[i] & mask))
            return false;
    }
    return true;
}

bool hba_is_loopback(const struct sockaddr *addr)
{
    unsigned char b[16];
    int fam = client_bytes(addr, b);
    if (fam == AF_INET)
        return b[0] == 127;
    static const unsigned char one[16] = {[15] = 1};
    return fam == AF_INET6 && memcmp(b, one, 16) == 0;
}

const hba_rule *hba_match_rule(const hba *h, const struct sockaddr *addr, const char *db,
                               const char *user, bool ssl)
{
    for (size_t i = 0; h && i < h->n; i++) {
        const hba_rule *r = &h->rules[i];
        if ((r->ssl == 1 && !ssl) || (r->ssl == -1 && ssl))
            continue;
        if (in_list(r->dbs, db) && in_list(r->users, user) && addr_matches(r, addr))
            return r;
    }
    return NULL;
}

hba_method hba_match(const hba *h, const struct sockaddr *addr, const char *db,
                     const char *user, bool ssl, bool *matched)
{
    const hba_rule *r = hba_match_rule(h, addr, db, user, ssl);
    *matched = r != NULL;
    return r ? r->method : HBA_REJECT;
}

bool hba_read_only_for(const hba *h, const char *db, const char *user)
{
    for (size_t i = 0; h && i < h->n; i++) {
        const hba_rule *r = &h->rules[i];
        if (r->method != HBA_REJECT && in_list(r->dbs, db) && in_list(r->users, user))
            return r->read_only;
    }
    return false;
}

const char *hba_method_name(hba_method m)
{
    switch (m) {
    case HBA_TRUST: return "trust";
    case HBA_SCRAM: return "scram-sha-256";
    case HBA_PASSWORD: return "password";
    default: return "reject";
    }
}

/* --------------------------------------------------------------- users */

static int parse_user(char *line, hba_user *u, const char *path, int lineno, rl_error *err)
{
    char *colon = strchr(line, ':');
    if (!colon || colon == line || (size_t)(colon - line) >= sizeof u->name)
        return line_error(err, path, lineno, "expected NAME:SCRAM-SHA-256$... or NAME:plain:PASSWORD");
    memset(u, 0, sizeof *u);
    memcpy(u->name, line, (size_t)(colon - line));
    const char *rest = colon + 1;
    if (strncmp(rest, "plain:", 6) == 0) {
        if (scram_secret_from_password(rest + 6, SCRAM_DEFAULT_ITERATIONS, &u->secret) < 0)
            return line_error(err, path, lineno, "cannot derive a SCRAM secret");
        return 0;
    }
    if (scram_secret_parse(rest, &u->secret) < 0)
        return line_error(err, path, lineno,
                          "not a SCRAM secret (SCRAM-SHA-256$<iter>:<salt>$<stored>:<server>)");
    return 0;
}

static int add_user_line(char *line, const char *path, int lineno, void *ctx, rl_error *err)
{
    hba_users *u = ctx;
    line[strcspn(line, "\r\n")] = '\0'; /* passwords may contain '#' and spaces */
    if (!line[0] || line[0] == '#')
        return 0;
    hba_user one;
    if (parse_user(line, &one, path, lineno, err) < 0)
        return -1;
    hba_user *nu = realloc(u->users, (u->n + 1) * sizeof *nu);
    if (!nu)
        return rl_error_set(err, RL_SQLSTATE_OUT_OF_MEMORY, "out of memory");
    u->users = nu;
    u->users[u->n++] = one;
    return 0;
}

hba_users *hba_users_load(const char *path, rl_error *err)
{
    hba_users *u = calloc(1, sizeof *u);
    if (!u) {
        rl_error_set(err, RL_SQLSTATE_OUT_OF_MEMORY, "out of memory");
        return NULL;
    }
    if (for_each_line(path, "users", add_user_line, u, err) < 0) {
        hba_users_free(u);
        return NULL;
    }
    return u;
}

void hba_users_free(hba_users *u)
{
    if (!u)
        return;
    free(u->users);
    free(u);
}

const hba_user *hba_users_find(const hba_users *u, const char *name)
{
    for (size_t i = 0; u && i < u->n; i++)
        if (strcmp(u->users[i].name, name) == 0)
            return &u->users[i];
    return NULL;
}
