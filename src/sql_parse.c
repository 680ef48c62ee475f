/*
 * sql_parse.c — SQL text to libpg_query parse trees, and each session's
 * cache of the trees of texts it sends again.
 *
 * Why a cache: libpg_query hands its tree over as protobuf, so every parse
 * is grammar + pack + unpack + free, and for DuckLake's short catalog
 * statements the pack/unpack is most of a statement's CPU (perf: ~25% of a
 * one-row COPY). DuckLake sends the same texts over and over on one
 * connection: `SELECT 1`, BEGIN, COMMIT, the latest-snapshot query, the
 * stats scans of the table it writes to. Those are parsed once per session.
 *
 * Invariants:
 *  - A tree is immutable once parsed. Executors never write into it (they
 *    build changed copies in their arenas), so one tree can serve any
 *    number of executions of the same text, including nested ones.
 *  - An rl_parsed is reference counted: the cache holds one reference, every
 *    user (the pending simple query, a prepared statement) holds one; the
 *    tree is freed when the last is released. Evicting an entry that is in
 *    use only drops the cache's reference.
 *  - Only texts seen twice enter the cache (a ring of recent text hashes
 *    decides), so DuckLake's one-off commit batches, which carry fresh ids
 *    every time, never push the repeated statements out.
 *  - Sessions are single-threaded, and so is their cache: no locks.
 */
#include <stdlib.h>
#include <string.h>

#include "sql_int.h"

#define PARSE_CACHE_ENTRIES 64   /* trees kept per session */
#define PARSE_CACHE_SEEN 128     /* hashes of recent texts, for "seen twice" */
#define PARSE_CACHE_MAX_TEXT 65536

struct rl_parsed {
    PgQuery__ParseResult *tree; /* NULL for an empty query */
    char *sql;                  /* the text, for cache lookups */
    size_t len;
    uint64_t hash;
    int refs;
    uint64_t used;              /* cache clock: last use */
};

struct rl_parse_cache {
    rl_parsed *entries[PARSE_CACHE_ENTRIES];
    uint64_t seen[PARSE_CACHE_SEEN];
    size_t seen_next;
    uint64_t clock;
    uint64_t hits, misses;
};

/* FNV-1a: texts are short and a miss costs a full parse anyway. */
static uint64_t text_hash(const char *s, size_t len)
{
    uint64_t h = 1469598103934665603ULL;
    for (size_t i = 0; i < len; i++) {
        h ^= (unsigned char)s[i];
        h *= 1099511628211ULL;
    }
    return h;
}

const PgQuery__ParseResult *rl_parsed_tree(const rl_parsed *p)
{
    return p->tree;
}

rl_parsed *rl_parsed_ref(rl_parsed *p)
{
    p->refs++;
    return p;
}

void rl_parsed_release(rl_parsed *p)
{
    if (!p || --p->refs > 0)
        return;
    if (p->tree)
        pg_query__parse_result__free_unpacked(p->tree, NULL);
    free(p->sql);
    free(p);
}

void rl_parse_cache_free(rl_parse_cache *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < PARSE_CACHE_ENTRIES; i++)
        rl_parsed_release(c->entries[i]);
    free(c);
}

void rl_parse_cache_stats(const rl_parse_cache *c, uint64_t *hits, uint64_t *misses)
{
    *hits = c ? c->hits : 0;
    *misses = c ? c->misses : 0;
}

static rl_parsed *cache_lookup(rl_parse_cache *c, const char *sql, size_t len, uint64_t h)
{
    for (size_t i = 0; i < PARSE_CACHE_ENTRIES; i++) {
        rl_parsed *p = c->entries[i];
        if (p && p->hash == h && p->len == len && memcmp(p->sql, sql, len) == 0) {
            p->used = ++c->clock;
            return p;
        }
    }
    return NULL;
}

/* True if `h` was among the recent texts; remembers it either way. */
static bool seen_before(rl_parse_cache *c, uint64_t h)
{
    for (size_t i = 0; i < PARSE_CACHE_SEEN; i++)
        if (c->seen[i] == h)
            return true;
    c->seen[c->seen_next] = h;
    c->seen_next = (c->seen_next + 1) % PARSE_CACHE_SEEN;
    return false;
}

/* Put `p` in the slot used longest ago (the cache takes a reference). */
static void cache_insert(rl_parse_cache *c, rl_parsed *p)
{
    size_t victim = 0;
    for (size_t i = 0; i < PARSE_CACHE_ENTRIES; i++) {
        if (!c->entries[i]) {
            victim = i;
            break;
        }
        if (c->entries[i]->used < c->entries[victim]->used)
            victim = i;
    }
    rl_parsed_release(c->entries[victim]);
    p->used = ++c->clock;
    c->entries[victim] = rl_parsed_ref(p);
}

/* The grammar itself: 42601 with the cursor position on a syntax error. */
static int parse_text(rl_exec *x, const char *sql, PgQuery__ParseResult **tree)
{
    *tree = NULL;
    PgQueryProtobufParseResult r = pg_query_parse_protobuf(sql);
    if (r.error) {
        rl_exec_error(x, "42601", -1, "%s", r.error->message);
        if (x->err)
            x->err->position = r.error->cursorpos;
        pg_query_free_protobuf_parse_result(r);
        return -1;
    }
    *tree = pg_query__parse_result__unpack(NULL, r.parse_tree.len,
                                           (const uint8_t *)r.parse_tree.data);
    pg_query_free_protobuf_parse_result(r);
    if (!*tree)
        return rl_exec_error(x, RL_SQLSTATE_INTERNAL, -1, "could not decode the parse tree");
    return 0;
}

int rl_parse(rl_exec *x, const char *sql, rl_parsed **out)
{
    *out = NULL;
    rl_session *s = x->s;
    size_t len = strlen(sql);
    bool cacheable = s && len <= PARSE_CACHE_MAX_TEXT;
    uint64_t h = 0;
    if (cacheable) {
        if (!s->parse_cache && !(s->parse_cache = calloc(1, sizeof *s->parse_cache)))
            cacheable = false;
    }
    if (cacheable) {
        h = text_hash(sql, len);
        rl_parsed *hit = cache_lookup(s->parse_cache, sql, len, h);
        if (hit) {
            s->parse_cache->hits++;
            *out = rl_parsed_ref(hit);
            return 0;
        }
        s->parse_cache->misses++;
    }
    rl_parsed *p = calloc(1, sizeof *p);
    if (!p)
        return rl_exec_error(x, RL_SQLSTATE_INTERNAL, -1, "out of memory");
    p->refs = 1;
    if (parse_text(x, sql, &p->tree) < 0) {
        free(p);
        return -1;
    }
    if (p->tree && p->tree->n_stmts == 0) {
        pg_query__parse_result__free_unpacked(p->tree, NULL);
        p->tree = NULL;
    }
    if (cacheable && seen_before(s->parse_cache, h) && (p->sql = malloc(len + 1))) {
        memcpy(p->sql, sql, len + 1);
        p->len = len;
        p->hash = h;
        cache_insert(s->parse_cache, p);
    }
    *out = p;
    return 0;
}
