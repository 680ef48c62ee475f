/*
 * sql_parse.c — SQL text to libpg_query parse trees, and each session's
 * cache of the trees of texts it sends again; quoting an identifier as the
 * grammar needs it (rl_quote_ident: its keyword list is the scanner's).
 *
 * Why a cache: libpg_query hands its tree over as protobuf, so every parse
 * is grammar + pack + unpack + free, and for DuckLake's short catalog
 * statements the pack/unpack is most of a statement's CPU (perf: ~25% of a
 * one-row COPY). DuckLake sends the same texts over and over on one
 * connection: `SELECT 1`, BEGIN, COMMIT, the latest-snapshot query, the
 * stats scans of the table it writes to. Those are parsed once per session.
 *
 * Most of DuckLake's texts differ from the last one only in their literals
 * (fresh snapshot ids in every commit batch, a table id in every column
 * list), so the cache is keyed by the text's *shape*: the text with each
 * literal ('string', integer, decimal) replaced by a marker of its kind. A
 * shape seen before reuses that tree; the literals that differ are supplied
 * as replacement A_Const nodes, looked up by the executor through
 * rl_const() while the statement runs (rl_parsed_activate), and error
 * positions are mapped from the template text to this text. The template's
 * own literal nodes are sealed (their value cleared, A_Const.val_case
 * NOT_SET) once it is bound, and even the template's own text reads its
 * values through rl_const (copies kept beside the tree): an executor that
 * read an A_Const directly would find no value for every text of a shape,
 * the first one included, instead of the first text's value for all the
 * others, so a wrong read fails in any test that runs the statement at all.
 * Numbered names (ducklake_inlined_data_12_3: DuckLake's per-table names)
 * are in the shape without their digit runs, so each new table's texts
 * reuse the last table's tree: a text whose names differ from its
 * template's gets its own copy of the tree, renamed (rename_tree), and a
 * text whose names cannot be mapped one to one is parsed for itself.
 * A shape is only used this way when every literal of the first text parsed to exactly one
 * A_Const at the literal's own position with the literal's kind; anything
 * else (negative numbers, E'' strings, a COPY file name, two adjacent string
 * parts) falls back to caching the exact text.
 *
 * Invariants:
 *  - A tree is immutable once parsed (sealing happens before anyone else
 *    sees it, and is undone only by the last release, for protobuf-c's free,
 *    which follows val_case). Executors never write into it (they
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
 *  - This file sits below sql_exec.c, which maps error locations through
 *    rl_parsed_location: its own errors are set with rl_error_set (none has
 *    a tree location; a syntax error carries the grammar's cursor).
 */
#include <ctype.h>
#include <stdio.h>
#include <assert.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/arena.h"
#include "sql/sql_exec.h"
#include "sql/sql_parse.h"
#include "base/stack.h"
#include "base/utf8.h"

#define PARSE_CACHE_ENTRIES 64   /* trees kept per session */
#define PARSE_CACHE_SEEN 128     /* hashes of recent texts, for "seen twice" */
#define PARSE_CACHE_MAX_TEXT 65536
/* Cached texts (shapes) per session, in bytes: a tree takes some 10-20x its
 * text, so this bounds a session's cache to a few MiB even with hundreds of
 * connections' worth of sessions. Texts over a quarter of it are not cached. */
#define PARSE_CACHE_BUDGET (256 * 1024)
#define SHAPE_MAX_LITERALS 4096
#define SHARED_CACHE_ENTRIES 256          /* trees kept for all sessions */
#define SHARED_CACHE_BUDGET (2048 * 1024) /* their key bytes: some 40 MiB of trees */

/* Kinds of span in a shape: three kinds of literal, and numbered names
 * (identifiers such as ducklake_inlined_data_12_3: see numbered_name). */
enum { LIT_STRING = 1, LIT_INT = 2, LIT_NUMBER = 3, LIT_NAME = 4 };

/* The longest identifier PostgreSQL keeps whole (NAMEDATALEN - 1); the
 * scanner truncates longer ones, so they are no numbered names. */
#define NAME_MAX_BYTES 63

typedef struct lit_span {
    uint32_t pos, len; /* in the text, quotes included for strings */
    uint8_t kind;
} lit_span;

/* One replaced literal: the template's node and the one to use instead. */
typedef struct const_override {
    const PgQuery__AConst *orig;
    const PgQuery__AConst *repl;
} const_override;

struct rl_parsed {
    PgQuery__ParseResult *tree; /* NULL for an empty query; owned unless `base` */
    rl_parsed *base;            /* shape hit: the template whose tree this borrows */
    char *key;                  /* cache key: the shape, or the exact text */
    size_t keylen;
    uint64_t hash;
    bool by_shape;              /* a template: literals may be replaced */
    _Atomic int refs;           /* sessions share templates (the shared cache) */
    /* templates: the literals of the text they were parsed from, and the
     * A_Const each one parsed to */
    lit_span *lits;
    const PgQuery__AConst **lit_nodes;
    size_t nlits;
    char *text;                 /* the template's own text (literal values) */
    /* templates: own[i] is a copy of literal i's A_Const as parsed (the
     * tree's node is sealed); shape hits: none */
    const PgQuery__AConst **own;
    /* templates and shape hits: one replacement per literal, sorted by
     * `orig` (a template's are its own copies); shape hits: this text's
     * literals (for error positions); the memory of the replacement nodes */
    const_override *over;
    size_t nover;
    lit_span *text_lits;
    rl_arena arena;
};

struct rl_parse_cache {
    rl_parsed *entries[SHARED_CACHE_ENTRIES];
    uint64_t used[SHARED_CACHE_ENTRIES]; /* cache clock of each entry's last use */
    size_t nslots;         /* PARSE_CACHE_ENTRIES, or SHARED_CACHE_ENTRIES */
    size_t budget;         /* most key bytes held */
    uint64_t seen[PARSE_CACHE_SEEN];
    size_t seen_next;
    uint64_t clock;
    size_t bytes;          /* sum of the entries' key lengths */
};

/* The process's cache, behind each session's: a new connection's first
 * statements are the texts every DuckDB connection sends (the catalog
 * discovery batch, the reflection query, the snapshot queries), and parsing
 * one of those costs more than running it. Sessions look here on a miss of
 * their own cache and take a reference to what they find; trees are
 * immutable and reference counts atomic, so a tree is shared safely. */
static rl_parse_cache shared_cache = {.nslots = SHARED_CACHE_ENTRIES,
                                      .budget = SHARED_CACHE_BUDGET};
static pthread_mutex_t shared_mu = PTHREAD_MUTEX_INITIALIZER;
static _Atomic uint64_t shared_hits;

uint64_t rl_parse_shared_hits(void) { return atomic_load(&shared_hits); }

/* Texts the grammar parsed (every parse that no cache answered). */
static _Atomic uint64_t grammar_runs;

uint64_t rl_parse_grammar_runs(void) { return atomic_load(&grammar_runs); }

static uint64_t text_hash(const char *s, size_t len)
{
    return rl_hash_bytes(RL_HASH_SEED, s, len);
}

/* ------------------------------------------------------------- shapes */

static bool ident_char(unsigned char c)
{
    return c == '_' || c == '$' || c >= 0x80 || (c >= '0' && c <= '9') ||
           (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool ident_start(unsigned char c)
{
    return c == '_' || c >= 0x80 || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

/* Index of the quote that closes the one at `open` ('...' or "...", a
 * doubled quote inside stands for itself), or `len` if there is none. */
static size_t closing_quote(const char *sql, size_t len, size_t open)
{
    char q = sql[open];
    for (size_t i = open + 1; i < len; i++) {
        if (sql[i] != q)
            continue;
        if (i + 1 < len && sql[i + 1] == q)
            i++;
        else
            return i;
    }
    return len;
}

static size_t skip_comment(const char *sql, size_t len, size_t i);

/* A numbered name: an identifier of ASCII letters, digits and '_' with a
 * run of digits after an underscore (DuckLake names a table's inlined rows
 * ducklake_inlined_data_<table>_<version>, and every table's statements
 * differ from the last table's only there). The shape keeps the name with
 * those digit runs taken out, so all tables share one parse: a text whose
 * names differ from its template's gets a copy of the template's tree with
 * them renamed (rename_tree). `v` is the identifier's text without quotes. */
static bool numbered_name(const char *v, size_t n)
{
    if (n == 0 || n > NAME_MAX_BYTES)
        return false;
    bool numbered = false;
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)v[i];
        bool digit = c >= '0' && c <= '9';
        if (!digit && c != '_' && !(c >= 'a' && c <= 'z') && !(c >= 'A' && c <= 'Z'))
            return false;
        if (digit && i > 0 && v[i - 1] == '_')
            numbered = true;
    }
    return numbered;
}

/* Record the span [start, end) of `kind` and put its marker (0x01, kind)
 * in the shape; false past SHAPE_MAX_LITERALS spans or out of memory. */
static bool add_span(rl_buf *shape, lit_span **lits, size_t *n, size_t *cap, size_t start,
                     size_t end, uint8_t kind)
{
    if (*n == SHAPE_MAX_LITERALS)
        return false;
    lit_span *grown = rl_array_reserve(*lits, *n, cap, sizeof *grown, 16);
    if (!grown)
        return false;
    *lits = grown;
    (*lits)[(*n)++] = (lit_span){(uint32_t)start, (uint32_t)(end - start), kind};
    rl_buf_put_u8(shape, 0x01);
    rl_buf_put_u8(shape, kind);
    return true;
}

/* Append the numbered name sql[start, end) (quotes included, if any) to the
 * shape as a marker and the name without its numbers, and record its span. */
static bool add_name_span(rl_buf *shape, lit_span **lits, size_t *n, size_t *cap,
                          const char *sql, size_t start, size_t end)
{
    if (!add_span(shape, lits, n, cap, start, end, LIT_NAME))
        return false;
    for (size_t i = start; i < end; i++) {
        bool run = sql[i] >= '0' && sql[i] <= '9' && i > start && sql[i - 1] == '_';
        if (!run) {
            rl_buf_put_u8(shape, (uint8_t)sql[i]);
            continue;
        }
        while (i + 1 < end && sql[i + 1] >= '0' && sql[i + 1] <= '9')
            i++;
    }
    return true;
}

/* The shape of `sql` into `shape` and its literals into `lits` (caller
 * frees). false when the text has something the shape cache does not
 * model (dollar quotes, E''/B''/X''/U&'' strings, a 0x01 byte, too many
 * literals, an unterminated quote): the exact text is used then. */
static bool sql_shape(const char *sql, size_t len, rl_buf *shape, lit_span **lits_out,
                      size_t *nlits_out)
{
    lit_span *lits = NULL;
    size_t n = 0, cap = 0;
    size_t i = 0;
    bool ok = true;
    while (i < len && ok) {
        unsigned char c = (unsigned char)sql[i];
        size_t start = i;
        if (c == 0x01) {
            ok = false;
        } else if ((c == '-' && i + 1 < len && sql[i + 1] == '-') ||
                   (c == '/' && i + 1 < len && sql[i + 1] == '*')) {
            i = skip_comment(sql, len, i);
            rl_buf_put(shape, sql + start, i - start);
        } else if (c == '"') {
            i = closing_quote(sql, len, i);
            if (i >= len) {
                ok = false;
            } else {
                i++;
                if (numbered_name(sql + start + 1, i - start - 2))
                    ok = add_name_span(shape, &lits, &n, &cap, sql, start, i);
                else
                    rl_buf_put(shape, sql + start, i - start);
            }
        } else if (c == '$') {
            if (i + 1 < len && sql[i + 1] >= '0' && sql[i + 1] <= '9') {
                for (i++; i < len && sql[i] >= '0' && sql[i] <= '9'; i++)
                    ;
                rl_buf_put(shape, sql + start, i - start);
            } else {
                ok = false; /* a dollar-quoted string */
            }
        } else if (ident_start(c)) {
            while (i < len && ident_char((unsigned char)sql[i]))
                i++;
            if (i < len && (sql[i] == '\'' || (sql[i] == '&' && i + 1 < len)))
                ok = sql[i] != '\'' && !(sql[i] == '&' && sql[i + 1] == '\'');
            if (ok && numbered_name(sql + start, i - start))
                ok = add_name_span(shape, &lits, &n, &cap, sql, start, i);
            else
                rl_buf_put(shape, sql + start, i - start);
        } else if (c == '\'' || (c >= '0' && c <= '9') ||
                   (c == '.' && i + 1 < len && sql[i + 1] >= '0' && sql[i + 1] <= '9')) {
            uint8_t kind;
            if (c == '\'') {
                kind = LIT_STRING;
                i = closing_quote(sql, len, i);
                if (i >= len) {
                    ok = false;
                    break;
                }
                i++;
            } else {
                bool digits_only = true;
                while (i < len && sql[i] >= '0' && sql[i] <= '9')
                    i++;
                if (i < len && sql[i] == '.' && !(i + 1 < len && sql[i + 1] == '.')) {
                    digits_only = false;
                    for (i++; i < len && sql[i] >= '0' && sql[i] <= '9'; i++)
                        ;
                }
                if (i < len && (sql[i] == 'e' || sql[i] == 'E')) {
                    size_t j = i + 1;
                    if (j < len && (sql[j] == '+' || sql[j] == '-'))
                        j++;
                    if (j < len && sql[j] >= '0' && sql[j] <= '9') {
                        digits_only = false;
                        for (i = j; i < len && sql[i] >= '0' && sql[i] <= '9'; i++)
                            ;
                    }
                }
                /* "1abc" is a number then an identifier to PostgreSQL 15
                 * only sometimes; leave such texts alone */
                if (i < len && ident_char((unsigned char)sql[i]))
                    ok = false;
                size_t nd = i - start;
                kind = LIT_NUMBER;
                if (digits_only && (nd < 10 || (nd == 10 && memcmp(sql + start, "2147483647",
                                                                   10) <= 0)))
                    kind = LIT_INT;
            }
            ok = add_span(shape, &lits, &n, &cap, start, i, kind);
        } else {
            rl_buf_put_u8(shape, c);
            i++;
        }
    }
    if (!ok || shape->failed) {
        free(lits);
        return false;
    }
    *lits_out = lits;
    *nlits_out = n;
    return true;
}

/* False for a field of a oneof that message `base` does not hold (its case
 * says another field); true for every other field. */
static bool oneof_holds(const ProtobufCFieldDescriptor *f, const char *base)
{
    if (!(f->flags & PROTOBUF_C_FIELD_FLAG_ONEOF))
        return true;
    uint32_t which;
    memcpy(&which, base + f->quantifier_offset, sizeof which);
    return which == f->id;
}

/* Calls `visit` for every A_Const in the tree. Walks protobuf-c's
 * descriptors, so it covers every node type libpg_query has. false if the
 * tree nests deeper than the stack allows (the walk is then incomplete). */
typedef void (*aconst_visitor)(const PgQuery__AConst *k, void *ctx);

static bool walk_aconsts(const ProtobufCMessage *m, aconst_visitor visit, void *ctx)
{
    const ProtobufCMessageDescriptor *d = m->descriptor;
    if (d == &pg_query__a__const__descriptor) {
        visit((const PgQuery__AConst *)m, ctx);
        return true;
    }
    if (rl_stack_exhausted())
        return false;
    for (unsigned i = 0; i < d->n_fields; i++) {
        const ProtobufCFieldDescriptor *f = &d->fields[i];
        if (f->type != PROTOBUF_C_TYPE_MESSAGE)
            continue;
        const char *base = (const char *)m;
        if (!oneof_holds(f, base))
            continue;
        if (f->label == PROTOBUF_C_LABEL_REPEATED) {
            size_t n;
            ProtobufCMessage **arr;
            memcpy(&n, base + f->quantifier_offset, sizeof n);
            memcpy(&arr, base + f->offset, sizeof arr);
            for (size_t j = 0; j < n; j++)
                if (arr[j] && !walk_aconsts(arr[j], visit, ctx))
                    return false;
        } else {
            ProtobufCMessage *sub;
            memcpy(&sub, base + f->offset, sizeof sub);
            if (sub && !walk_aconsts(sub, visit, ctx))
                return false;
        }
    }
    return true;
}

typedef struct bind_ctx {
    rl_parsed *p;
    bool ok;
} bind_ctx;

static int span_at(const rl_parsed *p, int32_t pos)
{
    size_t lo = 0, hi = p->nlits;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if ((int64_t)p->lits[mid].pos < pos)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < p->nlits && (int32_t)p->lits[lo].pos == pos ? (int)lo : -1;
}

static void bind_aconst(const PgQuery__AConst *k, void *vctx)
{
    bind_ctx *b = vctx;
    int i = span_at(b->p, k->location);
    if (i < 0)
        return; /* TRUE/FALSE/NULL, or a constant the grammar made */
    uint8_t want = b->p->lits[i].kind;
    if (want == LIT_NAME) { /* a constant where a name was: not modelled */
        b->ok = false;
        return;
    }
    bool kind_ok = !k->isnull &&
                   ((want == LIT_STRING && k->val_case == PG_QUERY__A__CONST__VAL_SVAL) ||
                    (want == LIT_INT && k->val_case == PG_QUERY__A__CONST__VAL_IVAL) ||
                    (want == LIT_NUMBER && k->val_case == PG_QUERY__A__CONST__VAL_FVAL));
    if (!kind_ok || b->p->lit_nodes[i])
        b->ok = false;
    else
        b->p->lit_nodes[i] = k;
}

/* Make `p` (just parsed from a text with literals `lits`) a template: true
 * if every literal is exactly one A_Const of its kind at its position. */
static bool template_bind(rl_parsed *p, lit_span *lits, size_t nlits)
{
    p->lits = lits;
    p->nlits = nlits;
    if (nlits == 0)
        return true;
    p->lit_nodes = calloc(nlits, sizeof *p->lit_nodes);
    if (!p->lit_nodes || !p->tree)
        return false;
    bind_ctx b = {.p = p, .ok = true};
    if (!walk_aconsts(&p->tree->base, bind_aconst, &b))
        b.ok = false; /* too deep to bind: cached by exact text instead */
    for (size_t i = 0; b.ok && i < nlits; i++)
        b.ok = lits[i].kind == LIT_NAME || p->lit_nodes[i] != NULL;
    return b.ok;
}

static int override_cmp(const void *a, const void *b)
{
    uintptr_t x = (uintptr_t)((const const_override *)a)->orig;
    uintptr_t y = (uintptr_t)((const const_override *)b)->orig;
    return x < y ? -1 : x > y;
}

/* The replacement of template node `orig` in `over` (sorted by orig), or NULL. */
static const PgQuery__AConst *override_of(const const_override *over, size_t n,
                                          const void *orig)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if ((uintptr_t)over[mid].orig < (uintptr_t)orig)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && over[lo].orig == orig ? over[lo].repl : NULL;
}

/* The field a Node holds, or NULL. A Node is a oneof of some 250 message
 * fields: its case is the field's number, so walks go straight to it
 * instead of looking at every field of every Node. */
static const ProtobufCFieldDescriptor *node_field(const PgQuery__Node *n)
{
    if (n->node_case == PG_QUERY__NODE__NODE__NOT_SET)
        return NULL;
    return protobuf_c_message_descriptor_get_field(&pg_query__node__descriptor,
                                                   (unsigned)n->node_case);
}

/* Seal the bound template p: copy each literal's node (sharing its value
 * with the tree) into p->own and p->over, then clear the tree node's
 * value, so only rl_const gives it. false when out of memory (nothing
 * sealed). */
static bool template_seal(rl_parsed *p)
{
    if (p->nlits == 0)
        return true;
    p->own = calloc(p->nlits, sizeof *p->own);
    p->over = malloc(p->nlits * sizeof *p->over);
    if (!p->own || !p->over)
        return false;
    p->nover = 0;
    for (size_t i = 0; i < p->nlits; i++) {
        if (p->lits[i].kind == LIT_NAME)
            continue; /* names are renamed in a copy, never overridden */
        PgQuery__AConst *copy = rl_arena_alloc(&p->arena, sizeof *copy);
        if (!copy)
            return false;
        *copy = *p->lit_nodes[i];
        p->own[i] = copy;
        p->over[p->nover++] = (const_override){p->lit_nodes[i], copy};
    }
    qsort(p->over, p->nover, sizeof *p->over, override_cmp);
    for (size_t i = 0; i < p->nlits; i++) {
        if (p->lits[i].kind == LIT_NAME)
            continue;
        PgQuery__AConst *k = (PgQuery__AConst *)p->lit_nodes[i]; /* not yet shared */
        assert(!k->isnull && k->val_case != PG_QUERY__A__CONST__VAL__NOT_SET);
        k->val_case = PG_QUERY__A__CONST__VAL__NOT_SET;
    }
    return true;
}

/* Undo template_seal (before protobuf-c frees the tree by val_case). */
static void template_unseal(rl_parsed *p)
{
    for (size_t i = 0; p->own && i < p->nlits; i++)
        if (p->own[i])
            ((PgQuery__AConst *)p->lit_nodes[i])->val_case = p->own[i]->val_case;
}

/* The A_Const for literal text `t` (of `kind`), in `a`. */
static const PgQuery__AConst *make_const(rl_arena *a, const PgQuery__AConst *tmpl, uint8_t kind,
                                         const char *t, size_t len)
{
    PgQuery__AConst *k = rl_arena_alloc(a, sizeof *k);
    if (!k)
        return NULL;
    *k = (PgQuery__AConst)PG_QUERY__A__CONST__INIT;
    k->location = tmpl->location;
    k->val_case = tmpl->val_case;
    if (kind == LIT_STRING) {
        PgQuery__String *str = rl_arena_alloc(a, sizeof *str);
        char *text = rl_arena_alloc(a, len);
        if (!str || !text)
            return NULL;
        *str = (PgQuery__String)PG_QUERY__STRING__INIT;
        size_t o = 0;
        for (size_t i = 1; i + 1 < len; i++) { /* unquote, '' -> ' */
            text[o++] = t[i];
            if (t[i] == '\'')
                i++;
        }
        text[o] = '\0';
        str->sval = text;
        k->sval = str;
    } else if (kind == LIT_INT) {
        PgQuery__Integer *iv = rl_arena_alloc(a, sizeof *iv);
        if (!iv)
            return NULL;
        *iv = (PgQuery__Integer)PG_QUERY__INTEGER__INIT;
        iv->ival = (int32_t)strtol(t, NULL, 10);
        k->ival = iv;
    } else {
        PgQuery__Float *fv = rl_arena_alloc(a, sizeof *fv);
        char *text = rl_arena_alloc(a, len + 1);
        if (!fv || !text)
            return NULL;
        *fv = (PgQuery__Float)PG_QUERY__FLOAT__INIT;
        memcpy(text, t, len);
        text[len] = '\0';
        fv->fval = text;
        k->fval = fv;
    }
    return k;
}

/* The identifier a numbered name's span stands for, NUL-terminated into
 * `out` (NAME_MAX_BYTES + 1): quotes stripped, or an unquoted name folded
 * to lower case as PostgreSQL's scanner does (numbered names are ASCII). */
static void name_value(const char *text, const lit_span *span, char *out)
{
    const char *v = text + span->pos;
    size_t n = span->len;
    bool quoted = v[0] == '"';
    if (quoted) {
        v++;
        n -= 2;
    }
    assert(n <= NAME_MAX_BYTES);
    for (size_t i = 0; i < n; i++)
        out[i] = !quoted && v[i] >= 'A' && v[i] <= 'Z' ? (char)(v[i] - 'A' + 'a') : v[i];
    out[n] = '\0';
}

/* What instantiate made of a shape hit. */
enum { USE_OK = 0, USE_NO_MEMORY = -1, USE_PARSE = 1 };

/* Renaming a template's tree: each name of the template (`from`) becomes
 * the text's (`to`), wherever the tree holds it as a string. */
typedef struct rename_map {
    const char **from, **to;
    size_t n;
} rename_map;

/* Add template name `from` -> `to` (copied into `a`): USE_PARSE if `from`
 * already maps elsewhere (the same name twice in the template, two
 * different names in the text: a copy cannot tell its occurrences apart). */
static int rename_add(rename_map *m, rl_arena *a, const char *from, const char *to)
{
    for (size_t i = 0; i < m->n; i++)
        if (strcmp(m->from[i], from) == 0)
            return strcmp(m->to[i], to) == 0 ? USE_OK : USE_PARSE;
    if (!(m->from[m->n] = rl_arena_strdup(a, from)) || !(m->to[m->n] = rl_arena_strdup(a, to)))
        return USE_NO_MEMORY;
    m->n++;
    return USE_OK;
}

typedef struct copy_ctx {
    rl_arena *arena;
    const const_override *over; /* template literal node -> this text's, by orig */
    size_t nover;
    const rename_map *names;
    bool failed;                /* out of memory, or too deep */
} copy_ctx;

static const char *renamed(const copy_ctx *c, const char *s)
{
    for (size_t i = 0; s && i < c->names->n; i++)
        if (strcmp(s, c->names->from[i]) == 0)
            return c->names->to[i];
    return s;
}

static ProtobufCMessage *copy_message(copy_ctx *c, const ProtobufCMessage *m);

/* Copy field f of message `from` into `to` (a byte copy of it so far):
 * sub-messages are copied, strings renamed, everything else is shared with
 * the template, which the copy's owner keeps a reference to. */
static void copy_field(copy_ctx *c, const ProtobufCFieldDescriptor *f, const char *from, char *to)
{
    if (f->type != PROTOBUF_C_TYPE_MESSAGE && f->type != PROTOBUF_C_TYPE_STRING)
        return;
    if (f->label == PROTOBUF_C_LABEL_REPEATED) {
        size_t n;
        void **arr;
        memcpy(&n, from + f->quantifier_offset, sizeof n);
        memcpy(&arr, from + f->offset, sizeof arr);
        if (n == 0)
            return;
        void **dup = rl_arena_alloc(c->arena, n * sizeof *dup);
        if (!dup) {
            c->failed = true;
            return;
        }
        for (size_t j = 0; j < n && !c->failed; j++)
            dup[j] = f->type == PROTOBUF_C_TYPE_STRING ? (void *)renamed(c, arr[j])
                     : arr[j]                         ? copy_message(c, arr[j])
                                                      : NULL;
        memcpy(to + f->offset, &dup, sizeof dup);
        return;
    }
    void *one;
    memcpy(&one, from + f->offset, sizeof one);
    if (!one)
        return;
    one = f->type == PROTOBUF_C_TYPE_STRING ? (void *)renamed(c, one) : copy_message(c, one);
    memcpy(to + f->offset, &one, sizeof one);
}

/* A copy of template message m in c->arena with its literals replaced by
 * this text's and its names renamed; NULL with c->failed set on failure. */
static ProtobufCMessage *copy_message(copy_ctx *c, const ProtobufCMessage *m)
{
    const ProtobufCMessageDescriptor *d = m->descriptor;
    if (d == &pg_query__a__const__descriptor) {
        const PgQuery__AConst *k = override_of(c->over, c->nover, m);
        if (k) /* a literal: this text's own, names in it are values */
            return (ProtobufCMessage *)k;
    }
    char *to = rl_stack_exhausted() ? NULL : rl_arena_alloc(c->arena, d->sizeof_message);
    if (!to) {
        c->failed = true;
        return NULL;
    }
    const char *from = (const char *)m;
    memcpy(to, from, d->sizeof_message);
    if (d == &pg_query__node__descriptor) {
        const ProtobufCFieldDescriptor *f = node_field((const PgQuery__Node *)m);
        if (f)
            copy_field(c, f, from, to);
        return c->failed ? NULL : (ProtobufCMessage *)to;
    }
    for (unsigned i = 0; i < d->n_fields && !c->failed; i++) {
        const ProtobufCFieldDescriptor *f = &d->fields[i];
        if (!oneof_holds(f, from))
            continue;
        copy_field(c, f, from, to);
    }
    return c->failed ? NULL : (ProtobufCMessage *)to;
}

/* Give use `p` of template `t` its own tree: t's, renamed by `names`, with
 * p's literals in place (so p needs no overrides). false when the copy
 * failed: out of memory or nested too deep. */
static bool rename_tree(rl_parsed *p, const rl_parsed *t, const rename_map *names)
{
    copy_ctx c = {.arena = &p->arena, .over = p->over, .nover = p->nover, .names = names};
    ProtobufCMessage *tree = copy_message(&c, &t->tree->base);
    if (!tree)
        return false;
    p->tree = (PgQuery__ParseResult *)tree;
    p->nover = 0;
    return true;
}

/* A use of template `t` for `sql`, whose literals and names are `lits`
 * (taken) into *out: one replacement per literal (t's own copy where the
 * text is the same), and where a name differs from t's, a renamed copy of
 * t's tree. *ndiff: how many literals and names differ from t's. USE_PARSE
 * when the names do not map one to one onto t's (or the copy is too deep):
 * the text is to be parsed for itself. */
static int instantiate(rl_parsed *t, const char *sql, lit_span *lits, rl_parsed **out,
                       size_t *ndiff)
{
    *out = NULL;
    *ndiff = 0;
    rl_parsed *p = calloc(1, sizeof *p);
    if (!p) {
        free(lits);
        return USE_NO_MEMORY;
    }
    p->refs = 1;
    p->base = rl_parsed_ref(t);
    p->tree = t->tree;
    p->text_lits = lits;
    p->nlits = t->nlits;
    p->lits = t->lits;
    p->over = malloc(t->nlits * sizeof *p->over);
    rename_map names = {.from = malloc(t->nlits * sizeof *names.from),
                        .to = malloc(t->nlits * sizeof *names.to)};
    int rc = p->over && names.from && names.to ? USE_OK : USE_NO_MEMORY;
    bool renames = false;
    for (size_t i = 0; rc == USE_OK && i < t->nlits; i++) {
        const lit_span *a = &lits[i], *b = &t->lits[i];
        assert(a->kind == b->kind); /* the same shape */
        if (b->kind == LIT_NAME) {
            char was[NAME_MAX_BYTES + 1], now[NAME_MAX_BYTES + 1];
            name_value(t->text, b, was);
            name_value(sql, a, now);
            if (strcmp(was, now) != 0) {
                ++*ndiff;
                renames = true;
            }
            rc = rename_add(&names, &p->arena, was, now);
            continue;
        }
        const PgQuery__AConst *k = t->own[i];
        if (a->len != b->len || memcmp(sql + a->pos, t->text + b->pos, a->len) != 0) {
            k = make_const(&p->arena, t->own[i], a->kind, sql + a->pos, a->len);
            if (!k) {
                rc = USE_NO_MEMORY;
                break;
            }
            ++*ndiff;
        }
        p->over[p->nover++] = (const_override){t->lit_nodes[i], k};
    }
    if (rc == USE_OK)
        qsort(p->over, p->nover, sizeof *p->over, override_cmp);
    if (rc == USE_OK && renames && !rename_tree(p, t, &names))
        rc = USE_PARSE;
    free(names.from);
    free(names.to);
    if (rc != USE_OK) {
        rl_parsed_release(p);
        return rc;
    }
    *out = p;
    return USE_OK;
}

/* ------------------------------------------------------ references */

const PgQuery__ParseResult *rl_parsed_tree(const rl_parsed *p)
{
    return p->tree;
}

rl_parsed *rl_parsed_ref(rl_parsed *p)
{
    atomic_fetch_add_explicit(&p->refs, 1, memory_order_relaxed);
    return p;
}

void rl_parsed_release(rl_parsed *p)
{
    if (!p || atomic_fetch_sub_explicit(&p->refs, 1, memory_order_acq_rel) > 1)
        return;
    if (p->base) {
        rl_parsed_release(p->base);
        free(p->over);
        free(p->text_lits);
        rl_arena_free(&p->arena);
    } else {
        template_unseal(p);
        if (p->tree)
            pg_query__parse_result__free_unpacked(p->tree, NULL);
        free(p->lits);
        free(p->lit_nodes);
        free(p->own);
        free(p->over);
        rl_arena_free(&p->arena);
        free(p->text);
    }
    free(p->key);
    free(p);
}

/* ------------------------------------------------ the running statement */

static _Thread_local const rl_parsed *active;

const rl_parsed *rl_parsed_activate(const rl_parsed *p)
{
    const rl_parsed *prev = active;
    active = p;
    return prev;
}

const PgQuery__AConst *rl_const(const PgQuery__AConst *k)
{
    const rl_parsed *p = active;
    const PgQuery__AConst *repl = p ? override_of(p->over, p->nover, k) : NULL;
    return repl ? repl : k;
}

bool rl_const_sealed(const PgQuery__AConst *k)
{
    return !k->isnull && k->val_case == PG_QUERY__A__CONST__VAL__NOT_SET;
}

int rl_parsed_location(int location)
{
    const rl_parsed *p = active;
    if (!p || !p->text_lits || location < 0 || p->nlits == 0)
        return location;
    /* the last template literal starting at or before `location` */
    size_t lo = 0, hi = p->nlits;
    while (lo < hi) {
        size_t mid = (lo + hi) / 2;
        if ((int64_t)p->lits[mid].pos <= location)
            lo = mid + 1;
        else
            hi = mid;
    }
    if (lo == 0)
        return location;
    const lit_span *t = &p->lits[lo - 1], *a = &p->text_lits[lo - 1];
    int64_t off = location - (int64_t)t->pos;
    if (off < (int64_t)t->len)
        return (int)(a->pos + (off < (int64_t)a->len ? off : 0));
    return (int)((int64_t)a->pos + a->len + (off - t->len));
}

/* ------------------------------------------------------------ the cache */

void rl_parse_cache_free(rl_parse_cache *c)
{
    if (!c)
        return;
    for (size_t i = 0; i < c->nslots; i++)
        rl_parsed_release(c->entries[i]);
    free(c);
}

static rl_parsed *cache_lookup(rl_parse_cache *c, bool by_shape, const char *key, size_t len,
                               uint64_t h)
{
    for (size_t i = 0; i < c->nslots; i++) {
        rl_parsed *p = c->entries[i];
        if (p && p->hash == h && p->by_shape == by_shape && p->keylen == len &&
            memcmp(p->key, key, len) == 0) {
            c->used[i] = ++c->clock;
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

/* Index of the entry used longest ago, or c->nslots if there is none. */
static size_t cache_oldest(const rl_parse_cache *c)
{
    size_t oldest = c->nslots;
    for (size_t i = 0; i < c->nslots; i++)
        if (c->entries[i] && (oldest == c->nslots || c->used[i] < c->used[oldest]))
            oldest = i;
    return oldest;
}

/* Index of a free slot, else of the entry used longest ago. */
static size_t cache_victim(const rl_parse_cache *c)
{
    for (size_t i = 0; i < c->nslots; i++)
        if (!c->entries[i])
            return i;
    return cache_oldest(c);
}

static void cache_evict(rl_parse_cache *c, size_t i)
{
    if (!c->entries[i])
        return;
    c->bytes -= c->entries[i]->keylen;
    rl_parsed_release(c->entries[i]);
    c->entries[i] = NULL;
}

/* Add `p` (the cache takes a reference), evicting the least recently used
 * entries to stay within the slot count and the byte budget. Over the
 * budget it evicts entries, never a free slot: evicting "the free slot"
 * changed nothing, so a cache with free slots and full bytes (a few long
 * texts) looped here for ever, the shared one holding its lock (found by
 * fuzz_sql_deep; test_sql_session test_long_texts_fill_the_parse_cache). */
static void cache_insert(rl_parse_cache *c, rl_parsed *p)
{
    if (p->keylen > c->budget / 4)
        return;
    while (c->bytes + p->keylen > c->budget) {
        size_t oldest = cache_oldest(c);
        assert(oldest < c->nslots); /* bytes > 0 means an entry holds them */
        if (oldest == c->nslots)
            break;
        cache_evict(c, oldest);
    }
    size_t slot = cache_victim(c);
    cache_evict(c, slot);
    c->used[slot] = ++c->clock;
    c->entries[slot] = rl_parsed_ref(p);
    c->bytes += p->keylen;
}

/* ------------------------------------------------------------ nesting */

/* How deep a text may nest before the parser sees it. libpg_query turns
 * the grammar's tree into protobuf and back by recursion, about 2 KB of
 * stack per nesting level (measured: 1.9 KB per operator of `1+1+...`,
 * 5.9 KB per `(SELECT`), and it has no working depth check of its own
 * (stack.h), so a 1.4 KB `SELECT 1+1+...+1` would overflow a 1 MiB stack.
 * PostgreSQL 15 itself refuses a `1+1+...` of about 4,100 terms with 54001
 * on its default 2 MB max_stack_depth; RockLake admits the same order of
 * depth, and less when the caller's thread has less stack (the unit cost
 * below is the measured one with a margin). */
#define NEST_MAX_UNITS 4000
#define NEST_UNIT_STACK 2600          /* bytes of parser stack per unit */
#define NEST_PARSER_BASE (1024 * 1024) /* the parser's own use, and a margin */

/* One open bracket of the text: what it costs and what piled up inside. */
typedef struct nest_level {
    uint32_t below;  /* units of the enclosing levels */
    uint32_t base;   /* the bracket itself: 1, a CASE 2, a subquery 3 */
    uint32_t setops; /* UNION / JOIN chains: left-deep, never reset */
    uint32_t chain;  /* operators since the last `,` / AND / OR / clause keyword */
    bool is_case;
} nest_level;

static uint32_t level_units(const nest_level *l)
{
    return l->below + l->base + l->setops + l->chain;
}

static bool word_is(const char *w, size_t n, const char *kw)
{
    return strlen(kw) == n && strncasecmp(w, kw, n) == 0;
}

static bool word_in(const char *w, size_t n, const char *const *list)
{
    for (; *list; list++)
        if (word_is(w, n, *list))
            return true;
    return false;
}

/* Keywords that build one more expression node over what precedes. */
static const char *const nest_operator_words[] = {
    "NOT", "IS", "LIKE", "ILIKE", "SIMILAR", "BETWEEN", "IN", "AT", "COLLATE", "OVERLAPS",
    "ISNULL", "NOTNULL", "ANY", "ALL", "SOME", "EXISTS", "ARRAY", NULL};
/* Keywords after which an operator chain starts afresh: AND/OR lists are
 * flat in PostgreSQL's grammar, the others begin a new expression. */
static const char *const nest_reset_words[] = {
    "AND", "OR", "WHEN", "THEN", "ELSE", "FROM", "WHERE", "GROUP", "HAVING", "ORDER", "BY",
    "LIMIT", "OFFSET", "ON", "USING", "AS", "SET", "RETURNING", "INTO", "WINDOW", NULL};
/* Keywords that make their bracket a (sub)statement. */
static const char *const nest_statement_words[] = {"SELECT", "WITH", "VALUES", "TABLE", NULL};
/* Keywords that nest the statement to their left (left-deep trees). */
static const char *const nest_setop_words[] = {"UNION", "INTERSECT", "EXCEPT", "JOIN", NULL};

typedef struct nest_scan {
    nest_level *lv;
    size_t n, cap; /* lv[0] is the text's top level */
    uint32_t max;
} nest_scan;

static void nest_note(nest_scan *ns)
{
    uint32_t u = level_units(&ns->lv[ns->n - 1]);
    if (u > ns->max)
        ns->max = u;
}

/* false when the text is already too deep to track further */
static bool nest_push(nest_scan *ns, uint32_t base, bool is_case, uint32_t limit)
{
    if (ns->n == ns->cap) {
        ns->max = limit + 1; /* every level costs a unit: past the limit */
        return false;
    }
    uint32_t below = level_units(&ns->lv[ns->n - 1]);
    ns->lv[ns->n++] = (nest_level){.below = below, .base = base, .is_case = is_case};
    nest_note(ns);
    return true;
}

static void nest_word(nest_scan *ns, const char *w, size_t n, uint32_t limit)
{
    nest_level *top = &ns->lv[ns->n - 1];
    if (word_is(w, n, "CASE")) {
        nest_push(ns, 2, true, limit);
    } else if (word_is(w, n, "END")) {
        if (top->is_case && ns->n > 1)
            ns->n--;
    } else if (word_in(w, n, nest_statement_words)) {
        if (top->base < 3)
            top->base = 3;
        top->chain = 0;
    } else if (word_in(w, n, nest_setop_words)) {
        top->setops++;
        top->chain = 0;
    } else if (word_in(w, n, nest_operator_words)) {
        top->chain++;
    } else if (word_in(w, n, nest_reset_words)) {
        top->chain = 0;
    }
    nest_note(ns);
}

/* Index just past a quoted string that starts at `i` ('...', "...", and
 * with backslash escapes for E'...'). */
static size_t skip_quoted(const char *sql, size_t len, size_t i, bool backslashes)
{
    char q = sql[i];
    for (i++; i < len; i++) {
        if (backslashes && sql[i] == '\\') {
            i++;
        } else if (sql[i] == q) {
            if (i + 1 < len && sql[i + 1] == q)
                i++;
            else
                return i + 1;
        }
    }
    return len;
}

/* Index just past a comment starting at `i` (-- to the line end; block
 * comments nest in PostgreSQL). */
static size_t skip_comment(const char *sql, size_t len, size_t i)
{
    if (sql[i] == '-') {
        while (i < len && sql[i] != '\n')
            i++;
        return i;
    }
    int depth = 0;
    while (i < len) {
        if (sql[i] == '/' && i + 1 < len && sql[i + 1] == '*') {
            depth++;
            i += 2;
        } else if (sql[i] == '*' && i + 1 < len && sql[i + 1] == '/') {
            i += 2;
            if (--depth == 0)
                return i;
        } else {
            i++;
        }
    }
    return len;
}

/* Index just past a $tag$...$tag$ string starting at `i`, or 0 if the `$`
 * does not open one. */
static size_t skip_dollar_quote(const char *sql, size_t len, size_t i)
{
    size_t t = i + 1;
    while (t < len && sql[t] != '$' && ident_char((unsigned char)sql[t]))
        t++;
    if (t >= len || sql[t] != '$')
        return 0;
    size_t taglen = t + 1 - i;
    for (size_t j = t + 1; j + taglen <= len; j++)
        if (sql[j] == '$' && memcmp(sql + j, sql + i, taglen) == 0)
            return j + taglen;
    return len;
}

static bool operator_char(unsigned char c)
{
    return c && strchr("+-*/<>=~!@#%^&|`?:", c) != NULL;
}

/* An upper bound, in units of about one parse-tree node, of how deep the
 * tree of `sql` nests; stops counting past `limit`. Lexical, so it errs
 * high: every operator character counts, and so does every bracket. */
static uint32_t sql_nesting(const char *sql, size_t len, uint32_t limit)
{
    nest_level levels[64];
    nest_scan ns = {.lv = levels, .n = 1, .cap = 64};
    nest_level *heap = NULL;
    levels[0] = (nest_level){0};
    for (size_t i = 0; i < len && ns.max <= limit;) {
        unsigned char c = (unsigned char)sql[i];
        if (ns.n == ns.cap && ns.lv == levels && limit + 2 > ns.cap &&
            (heap = malloc((limit + 2) * sizeof *heap))) {
            memcpy(heap, levels, sizeof levels);
            ns.lv = heap;
            ns.cap = limit + 2;
        }
        nest_level *top = &ns.lv[ns.n - 1];
        if ((c == '-' && i + 1 < len && sql[i + 1] == '-') ||
            (c == '/' && i + 1 < len && sql[i + 1] == '*')) {
            i = skip_comment(sql, len, i);
        } else if (c == '\'' || c == '"') {
            i = skip_quoted(sql, len, i, false);
        } else if (c == '$' && (i + 1 >= len || !(sql[i + 1] >= '0' && sql[i + 1] <= '9'))) {
            size_t end = skip_dollar_quote(sql, len, i);
            i = end ? end : i + 1;
        } else if (ident_start(c)) {
            size_t s = i;
            while (i < len && ident_char((unsigned char)sql[i]))
                i++;
            if (i < len && sql[i] == '\'' && i - s == 1 && (c == 'E' || c == 'e'))
                i = skip_quoted(sql, len, i, true);
            else
                nest_word(&ns, sql + s, i - s, limit);
        } else if (c == '(' || c == '[') {
            nest_push(&ns, 1, false, limit);
            i++;
        } else if (c == ')' || c == ']') {
            while (ns.n > 1 && ns.lv[ns.n - 1].is_case) /* an unclosed CASE */
                ns.n--;
            if (ns.n > 1)
                ns.n--;
            i++;
        } else if (c == ',') {
            top->chain = 0;
            i++;
        } else if (c == ';') {
            ns.n = 1;
            ns.lv[0] = (nest_level){0};
            i++;
        } else if (operator_char(c)) {
            top->chain++;
            nest_note(&ns);
            i++;
        } else {
            i++; /* digits, dots, white space, $n */
        }
    }
    free(heap);
    return ns.max;
}

/* The deepest nesting a text may have to be parsed on this thread. */
static uint32_t nesting_allowed(void)
{
    size_t room = rl_stack_remaining();
    if (room <= NEST_PARSER_BASE)
        return 0;
    size_t units = (room - NEST_PARSER_BASE) / NEST_UNIT_STACK;
    return units < NEST_MAX_UNITS ? (uint32_t)units : NEST_MAX_UNITS;
}

/* The grammar itself: 42601 with the cursor position on a syntax error. */
static int parse_text(rl_exec *x, const char *sql, PgQuery__ParseResult **tree)
{
    *tree = NULL;
    uint32_t allowed = nesting_allowed();
    if (sql_nesting(sql, strlen(sql), allowed) > allowed)
        return rl_stack_depth_error(x->err);
    atomic_fetch_add_explicit(&grammar_runs, 1, memory_order_relaxed);
    PgQueryProtobufParseResult r = pg_query_parse_protobuf(sql);
    if (r.error) {
        rl_error_set(x->err, RL_SQLSTATE_SYNTAX_ERROR, "%s", r.error->message);
        if (x->err)
            x->err->position = r.error->cursorpos;
        pg_query_free_protobuf_parse_result(r);
        return -1;
    }
    *tree = pg_query__parse_result__unpack(NULL, r.parse_tree.len,
                                           (const uint8_t *)r.parse_tree.data);
    pg_query_free_protobuf_parse_result(r);
    if (!*tree)
        return rl_error_set(x->err, RL_SQLSTATE_INTERNAL_ERROR, "could not decode the parse tree");
    if ((*tree)->n_stmts == 0) {
        pg_query__parse_result__free_unpacked(*tree, NULL);
        *tree = NULL;
    }
    return 0;
}

static char *dup_mem(const char *s, size_t len)
{
    char *d = malloc(len + 1);
    if (d) {
        memcpy(d, s, len);
        d[len] = '\0';
    }
    return d;
}

/* A tree of the shared cache (a reference for the caller), or NULL. */
static rl_parsed *shared_lookup(bool by_shape, const char *key, size_t keylen, uint64_t h,
                                const char *sql, size_t len)
{
    pthread_mutex_lock(&shared_mu);
    rl_parsed *hit = cache_lookup(&shared_cache, by_shape, key, keylen, h);
    if (!hit && by_shape)
        hit = cache_lookup(&shared_cache, false, sql, len, text_hash(sql, len));
    if (hit) {
        rl_parsed_ref(hit);
        atomic_fetch_add(&shared_hits, 1);
    }
    pthread_mutex_unlock(&shared_mu);
    return hit;
}

/* A freshly parsed tree (its key set) enters the shared cache the second
 * time any session parses its key: one-off texts stay out. */
static void shared_offer(rl_parsed *p)
{
    pthread_mutex_lock(&shared_mu);
    if (seen_before(&shared_cache, p->hash))
        cache_insert(&shared_cache, p);
    pthread_mutex_unlock(&shared_mu);
}

int rl_parse(rl_exec *x, const char *sql, rl_parsed **out)
{
    *out = NULL;
    rl_session *s = x->s;
    size_t len = strlen(sql);
    /* the server encoding's rule, before anything keeps the text */
    if (rl_utf8_check(x->err, (const uint8_t *)sql, len) < 0)
        return -1;
    rl_parse_cache *c = NULL;
    if (s && len <= PARSE_CACHE_MAX_TEXT) {
        if (!s->parse_cache && (s->parse_cache = calloc(1, sizeof *s->parse_cache))) {
            s->parse_cache->nslots = PARSE_CACHE_ENTRIES;
            s->parse_cache->budget = PARSE_CACHE_BUDGET;
        }
        c = s->parse_cache;
    }
    rl_buf shape;
    rl_buf_init(&shape, 0);
    lit_span *lits = NULL;
    size_t nlits = 0;
    bool by_shape = c && sql_shape(sql, len, &shape, &lits, &nlits);
    const char *key = by_shape ? (const char *)shape.data : sql;
    size_t keylen = by_shape ? shape.len : len;
    if (by_shape && !key)
        key = "";
    uint64_t h = c ? text_hash(key, keylen) : 0;
    if (c) {
        rl_parsed *hit = cache_lookup(c, by_shape, key, keylen, h);
        /* a shape that did not make a template is cached by exact text */
        if (!hit && by_shape)
            hit = cache_lookup(c, false, sql, len, text_hash(sql, len));
        if (!hit && (hit = shared_lookup(by_shape, key, keylen, h, sql, len))) {
            cache_insert(c, hit); /* the session's own from now on */
            rl_parsed_release(hit);
        }
        if (hit) {
            rl_buf_free(&shape);
            if (!hit->by_shape || hit->nlits == 0) {
                free(lits);
                *out = rl_parsed_ref(hit);
                return 0;
            }
            size_t ndiff;
            rl_parsed *use;
            int rc = instantiate(hit, sql, lits, &use, &ndiff); /* takes lits */
            lits = NULL;
            if (rc == USE_NO_MEMORY)
                return rl_error_set(x->err, RL_SQLSTATE_INTERNAL_ERROR, "out of memory");
            if (rc == USE_OK) {
                if (ndiff == 0) { /* the very same literals: the template's own */
                    rl_parsed_release(use);
                    use = rl_parsed_ref(hit);
                }
                *out = use;
                return 0;
            }
            /* USE_PARSE: parsed for itself, and kept by its exact text (the
             * shape's template stays) */
            by_shape = false;
            key = sql;
            keylen = len;
            h = text_hash(sql, len);
            rl_parsed *exact = cache_lookup(c, false, sql, len, h);
            if (exact) {
                *out = rl_parsed_ref(exact);
                return 0;
            }
        }
    }
    rl_parsed *p = calloc(1, sizeof *p);
    if (!p) {
        rl_buf_free(&shape);
        free(lits);
        return rl_error_set(x->err, RL_SQLSTATE_INTERNAL_ERROR, "out of memory");
    }
    p->refs = 1;
    if (parse_text(x, sql, &p->tree) < 0) {
        rl_buf_free(&shape);
        free(lits);
        free(p);
        return -1;
    }
    if (by_shape) {
        /* template_bind keeps `lits` in p either way */
        if (!template_bind(p, lits, nlits) || !(p->text = dup_mem(sql, len)) ||
            !template_seal(p)) {
            /* not a template after all: keep it under its exact text */
            free(p->lits);
            free(p->lit_nodes);
            free(p->own);
            free(p->over);
            rl_arena_free(&p->arena);
            free(p->text);
            p->lits = NULL;
            p->lit_nodes = NULL;
            p->own = NULL;
            p->over = NULL;
            p->nover = 0;
            p->text = NULL;
            p->nlits = 0;
            by_shape = false;
            key = sql;
            keylen = len;
            h = text_hash(sql, len);
        }
    } else {
        free(lits);
    }
    if (c && (p->key = dup_mem(key, keylen))) {
        p->keylen = keylen;
        p->hash = h;
        p->by_shape = by_shape;
        if (seen_before(c, h))
            cache_insert(c, p);
        shared_offer(p);
    }
    rl_buf_free(&shape);
    *out = p;
    return 0;
}

PgQuery__Node *rl_and_node(rl_arena *arena, PgQuery__Node **args, size_t n)
{
    assert(n >= 2);
    PgQuery__BoolExpr *b = rl_arena_alloc(arena, sizeof *b);
    PgQuery__Node *nd = rl_arena_alloc(arena, sizeof *nd);
    if (!b || !nd)
        return NULL;
    *b = (PgQuery__BoolExpr)PG_QUERY__BOOL_EXPR__INIT;
    b->boolop = PG_QUERY__BOOL_EXPR_TYPE__AND_EXPR;
    b->n_args = n;
    b->args = args;
    b->location = -1;
    *nd = (PgQuery__Node)PG_QUERY__NODE__INIT;
    nd->node_case = PG_QUERY__NODE__NODE_BOOL_EXPR;
    nd->bool_expr = b;
    return nd;
}

int rl_tree_walk(const ProtobufCMessage *m, rl_tree_visit visit, void *ctx)
{
    if (!m)
        return 0;
    int v = visit(ctx, m);
    if (v != 0)
        return v < 0 ? -1 : 0;
    if (rl_stack_exhausted())
        return -2;
    const ProtobufCMessageDescriptor *d = m->descriptor;
    const char *base = (const char *)m;
    if (d == &pg_query__node__descriptor) {
        const ProtobufCFieldDescriptor *f = node_field((const PgQuery__Node *)m);
        if (!f || f->type != PROTOBUF_C_TYPE_MESSAGE)
            return 0;
        return rl_tree_walk(*(ProtobufCMessage *const *)(base + f->offset), visit, ctx);
    }
    for (unsigned i = 0; i < d->n_fields; i++) {
        const ProtobufCFieldDescriptor *f = &d->fields[i];
        if (f->type != PROTOBUF_C_TYPE_MESSAGE)
            continue;
        int rc = 0;
        if (f->label == PROTOBUF_C_LABEL_REPEATED) {
            size_t n = *(const size_t *)(base + f->quantifier_offset);
            ProtobufCMessage *const *items = *(ProtobufCMessage *const *const *)(base + f->offset);
            for (size_t j = 0; j < n && rc == 0; j++)
                rc = rl_tree_walk(items[j], visit, ctx);
        } else if (oneof_holds(f, base)) {
            rc = rl_tree_walk(*(ProtobufCMessage *const *)(base + f->offset), visit, ctx);
        }
        if (rc != 0)
            return rc;
    }
    return 0;
}

/* ----------------------------------------------------------- equality */

static bool field_equal(const ProtobufCFieldDescriptor *f, const char *a, const char *b);

static bool scalar_equal(ProtobufCType t, const char *a, const char *b)
{
    switch (t) {
    case PROTOBUF_C_TYPE_STRING: {
        const char *x, *y;
        memcpy(&x, a, sizeof x);
        memcpy(&y, b, sizeof y);
        return x == y || (x && y && strcmp(x, y) == 0);
    }
    case PROTOBUF_C_TYPE_MESSAGE: {
        const ProtobufCMessage *x, *y;
        memcpy(&x, a, sizeof x);
        memcpy(&y, b, sizeof y);
        return rl_node_equal(x, y);
    }
    case PROTOBUF_C_TYPE_BYTES: {
        ProtobufCBinaryData x, y;
        memcpy(&x, a, sizeof x);
        memcpy(&y, b, sizeof y);
        return x.len == y.len && (x.len == 0 || memcmp(x.data, y.data, x.len) == 0);
    }
    case PROTOBUF_C_TYPE_INT64: case PROTOBUF_C_TYPE_SINT64: case PROTOBUF_C_TYPE_SFIXED64:
    case PROTOBUF_C_TYPE_UINT64: case PROTOBUF_C_TYPE_FIXED64: case PROTOBUF_C_TYPE_DOUBLE:
        return memcmp(a, b, 8) == 0;
    case PROTOBUF_C_TYPE_BOOL:
        return memcmp(a, b, sizeof(protobuf_c_boolean)) == 0;
    default: /* the 32-bit ones, enums included */
        return memcmp(a, b, 4) == 0;
    }
}

static size_t scalar_size(ProtobufCType t)
{
    switch (t) {
    case PROTOBUF_C_TYPE_STRING: return sizeof(char *);
    case PROTOBUF_C_TYPE_MESSAGE: return sizeof(ProtobufCMessage *);
    case PROTOBUF_C_TYPE_BYTES: return sizeof(ProtobufCBinaryData);
    case PROTOBUF_C_TYPE_INT64: case PROTOBUF_C_TYPE_SINT64: case PROTOBUF_C_TYPE_SFIXED64:
    case PROTOBUF_C_TYPE_UINT64: case PROTOBUF_C_TYPE_FIXED64: case PROTOBUF_C_TYPE_DOUBLE:
        return 8;
    case PROTOBUF_C_TYPE_BOOL: return sizeof(protobuf_c_boolean);
    default: return 4;
    }
}

static bool field_equal(const ProtobufCFieldDescriptor *f, const char *a, const char *b)
{
    if (strcmp(f->name, "location") == 0 || strcmp(f->name, "stmt_location") == 0 ||
        strcmp(f->name, "stmt_len") == 0)
        return true; /* where it was written is not what it is */
    if (oneof_holds(f, a) != oneof_holds(f, b))
        return false;
    if (!oneof_holds(f, a))
        return true;
    if (f->label != PROTOBUF_C_LABEL_REPEATED)
        return scalar_equal(f->type, a + f->offset, b + f->offset);
    size_t na, nb;
    memcpy(&na, a + f->quantifier_offset, sizeof na);
    memcpy(&nb, b + f->quantifier_offset, sizeof nb);
    if (na != nb)
        return false;
    const char *xa, *xb;
    memcpy(&xa, a + f->offset, sizeof xa);
    memcpy(&xb, b + f->offset, sizeof xb);
    size_t size = scalar_size(f->type);
    for (size_t i = 0; i < na; i++)
        if (!scalar_equal(f->type, xa + i * size, xb + i * size))
            return false;
    return true;
}

bool rl_node_equal(const ProtobufCMessage *a, const ProtobufCMessage *b)
{
    if (!a || !b)
        return a == b;
    if (a->descriptor != b->descriptor || rl_stack_exhausted())
        return false;
    const ProtobufCMessageDescriptor *d = a->descriptor;
    if (d == &pg_query__a__const__descriptor) { /* this text's literals */
        a = &rl_const((const PgQuery__AConst *)a)->base;
        b = &rl_const((const PgQuery__AConst *)b)->base;
    }
    if (d == &pg_query__node__descriptor) {
        const PgQuery__Node *x = (const PgQuery__Node *)a, *y = (const PgQuery__Node *)b;
        if (x->node_case != y->node_case)
            return false;
        const ProtobufCFieldDescriptor *f = node_field(x);
        return !f || field_equal(f, (const char *)a, (const char *)b);
    }
    for (unsigned i = 0; i < d->n_fields; i++)
        if (!field_equal(&d->fields[i], (const char *)a, (const char *)b))
            return false;
    return true;
}

/* ------------------------------------------------------------ locations */

bool rl_constraint_is_attr(const PgQuery__Constraint *c)
{
    return c->contype == PG_QUERY__CONSTR_TYPE__CONSTR_ATTR_DEFERRABLE ||
           c->contype == PG_QUERY__CONSTR_TYPE__CONSTR_ATTR_NOT_DEFERRABLE ||
           c->contype == PG_QUERY__CONSTR_TYPE__CONSTR_ATTR_DEFERRED ||
           c->contype == PG_QUERY__CONSTR_TYPE__CONSTR_ATTR_IMMEDIATE;
}

static const PgQuery__Constraint *column_constraint(const PgQuery__ColumnDef *cd, size_t j)
{
    const PgQuery__Node *n = cd->constraints[j];
    return n->node_case == PG_QUERY__NODE__NODE_CONSTRAINT ? n->constraint : NULL;
}

/* Column constraint j with the clauses that follow it folded in (checked
 * by sql_ddl.c's column_attrs first). */
static void fold_attrs(const PgQuery__ColumnDef *cd, size_t j, PgQuery__Constraint *out)
{
    *out = *column_constraint(cd, j);
    bool saw_deferrability = false;
    for (size_t k = j + 1; k < cd->n_constraints; k++) {
        const PgQuery__Constraint *c = column_constraint(cd, k);
        if (!c)
            continue;
        if (!rl_constraint_is_attr(c))
            break;
        switch (c->contype) {
        case PG_QUERY__CONSTR_TYPE__CONSTR_ATTR_DEFERRABLE:
        case PG_QUERY__CONSTR_TYPE__CONSTR_ATTR_NOT_DEFERRABLE:
            saw_deferrability = true;
            out->deferrable = c->contype == PG_QUERY__CONSTR_TYPE__CONSTR_ATTR_DEFERRABLE;
            break;
        case PG_QUERY__CONSTR_TYPE__CONSTR_ATTR_DEFERRED:
            out->initdeferred = true;
            if (!saw_deferrability)
                out->deferrable = true;
            break;
        default: out->initdeferred = false; break;
        }
    }
}

int rl_create_constraints(const PgQuery__CreateStmt *st, rl_constraint_visit visit, void *ctx)
{
    for (size_t i = 0; i < st->n_table_elts; i++) {
        const PgQuery__Node *e = st->table_elts[i];
        const PgQuery__ColumnDef *cd =
            e->node_case == PG_QUERY__NODE__NODE_COLUMN_DEF ? e->column_def : NULL;
        size_t nc = cd ? cd->n_constraints : e->node_case == PG_QUERY__NODE__NODE_CONSTRAINT;
        for (size_t j = 0; j < nc; j++) {
            const PgQuery__Node *cn = cd ? cd->constraints[j] : e;
            if (cn->node_case != PG_QUERY__NODE__NODE_CONSTRAINT || rl_constraint_is_attr(cn->constraint))
                continue;
            PgQuery__Constraint folded;
            if (cd)
                fold_attrs(cd, j, &folded);
            int rc = visit(ctx, cd ? &folded : cn->constraint, cd ? cd->colname : NULL);
            if (rc != 0)
                return rc;
        }
    }
    return 0;
}

/* The earlier of two locations, -1 counting as none. */
static int leftmost(int a, int b)
{
    return a < 0 ? b : b < 0 ? a : a < b ? a : b;
}

int rl_node_location(const PgQuery__Node *n)
{
    if (!n)
        return -1;
    switch (n->node_case) {
    case PG_QUERY__NODE__NODE_A_CONST: return n->a_const->location;
    case PG_QUERY__NODE__NODE_COLUMN_REF: return n->column_ref->location;
    /* an operator: its own place or its left operand's, whichever is first */
    case PG_QUERY__NODE__NODE_A_EXPR:
        return leftmost(n->a_expr->location, rl_node_location(n->a_expr->lexpr));
    case PG_QUERY__NODE__NODE_FUNC_CALL:
        return leftmost(n->func_call->location,
                        n->func_call->n_args ? rl_node_location(n->func_call->args[0]) : -1);
    /* x::t, CAST(x AS t), t 'literal': whichever part comes first; a cast
     * literal is a constant at the literal's place (coerce_type keeps it) */
    case PG_QUERY__NODE__NODE_TYPE_CAST:
        if (n->type_cast->arg && n->type_cast->arg->node_case == PG_QUERY__NODE__NODE_A_CONST)
            return n->type_cast->arg->a_const->location;
        return leftmost(n->type_cast->location, rl_node_location(n->type_cast->arg));
    case PG_QUERY__NODE__NODE_BOOL_EXPR:
        return leftmost(n->bool_expr->location,
                        n->bool_expr->n_args ? rl_node_location(n->bool_expr->args[0]) : -1);
    case PG_QUERY__NODE__NODE_SUB_LINK:
        return leftmost(n->sub_link->location, rl_node_location(n->sub_link->testexpr));
    case PG_QUERY__NODE__NODE_NULL_TEST:
        return leftmost(n->null_test->location, rl_node_location(n->null_test->arg));
    case PG_QUERY__NODE__NODE_BOOLEAN_TEST:
        return leftmost(n->boolean_test->location, rl_node_location(n->boolean_test->arg));
    case PG_QUERY__NODE__NODE_PARAM_REF: return n->param_ref->location;
    case PG_QUERY__NODE__NODE_COLLATE_CLAUSE: return rl_node_location(n->collate_clause->arg);
    case PG_QUERY__NODE__NODE_A_INDIRECTION: return rl_node_location(n->a_indirection->arg);
    case PG_QUERY__NODE__NODE_COALESCE_EXPR: return n->coalesce_expr->location;
    case PG_QUERY__NODE__NODE_CASE_EXPR: return n->case_expr->location;
    case PG_QUERY__NODE__NODE_MIN_MAX_EXPR: return n->min_max_expr->location;
    case PG_QUERY__NODE__NODE_A_ARRAY_EXPR: return n->a_array_expr->location;
    case PG_QUERY__NODE__NODE_ROW_EXPR: return n->row_expr->location;
    case PG_QUERY__NODE__NODE_SQLVALUE_FUNCTION: return n->sqlvalue_function->location;
    case PG_QUERY__NODE__NODE_GROUPING_FUNC: return n->grouping_func->location;
    case PG_QUERY__NODE__NODE_NAMED_ARG_EXPR: return n->named_arg_expr->location;
    default: return -1;
    }
}

/* ---------------------------------------------------- identifier quoting */

/* Does PostgreSQL's quote_ident leave this identifier bare: lower-case
 * letters, digits and underscores, not starting with a digit, and not a
 * keyword other than an unreserved one? */
static bool ident_is_bare(const char *s, size_t n)
{
    if (n == 0 || !(islower((unsigned char)s[0]) || s[0] == '_'))
        return false;
    for (size_t i = 0; i < n; i++)
        if (!(islower((unsigned char)s[i]) || isdigit((unsigned char)s[i]) || s[i] == '_'))
            return false;
    char buf[128];
    if (n >= sizeof buf)
        return true; /* longer than any keyword */
    memcpy(buf, s, n);
    buf[n] = 0;
    PgQueryScanResult scan = pg_query_scan(buf);
    bool bare = true;
    if (!scan.error) {
        PgQuery__ScanResult *r = pg_query__scan_result__unpack(NULL, scan.pbuf.len,
                                                               (const uint8_t *)scan.pbuf.data);
        if (r && r->n_tokens == 1 &&
            r->tokens[0]->keyword_kind != PG_QUERY__KEYWORD_KIND__NO_KEYWORD &&
            r->tokens[0]->keyword_kind != PG_QUERY__KEYWORD_KIND__UNRESERVED_KEYWORD)
            bare = false;
        if (r)
            pg_query__scan_result__free_unpacked(r, NULL);
    }
    pg_query_free_scan_result(scan);
    return bare;
}

void rl_put_quoted_ident(rl_buf *b, const uint8_t *p, size_t n)
{
    if (ident_is_bare((const char *)p, n)) {
        rl_buf_put(b, p, n);
        return;
    }
    rl_buf_put_u8(b, '"');
    for (size_t i = 0; i < n; i++) {
        if (p[i] == '"')
            rl_buf_put_u8(b, '"');
        rl_buf_put_u8(b, p[i]);
    }
    rl_buf_put_u8(b, '"');
}

void rl_quote_ident(const char *s, char *buf, size_t n)
{
    rl_buf b;
    rl_buf_init(&b, 0);
    rl_put_quoted_ident(&b, (const uint8_t *)s, strlen(s));
    snprintf(buf, n, "%.*s", b.failed ? 0 : (int)b.len, b.failed ? "" : (const char *)b.data);
    rl_buf_free(&b);
}

