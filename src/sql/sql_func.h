/*
 * sql_func.h — the one table of built-in scalar functions (sql_func.c):
 * each overload's name, PostgreSQL 15 oid, argument and result types,
 * volatility, strictness and implementation. It drives call dispatch
 * (sql_expr.c), the rows of pg_proc (sql_pgcatalog.c) and what the result
 * cache may keep (sql_resultkey.c). The rows themselves are
 * sql_functab.inc's. Also the POSIX regular-expression
 * match of the operators ~ ~* !~ !~* (PCRE2, patterns cached per statement).
 */
#ifndef ROCKLAKE_SQL_FUNC_H
#define ROCKLAKE_SQL_FUNC_H

#include "sql/sql_cast.h"

#define RL_FUNC_MAX_ARGS 7 /* make_timestamptz(y, m, d, h, mi, s, zone) */
#define PG_EPOCH_UNIX_US 946684800000000LL /* 2000-01-01 (timestamptz's 0) in Unix microseconds */
#define RL_OID_ANY 2276u          /* a declared argument type: any value */
#define RL_OID_ANYARRAY 2277u     /* a declared argument type: any array */
#define RL_OID_ANYELEMENT 2283u   /* a declared argument type: any value of a known type */
#define RL_OID_ANYCOMPATIBLE 5077u      /* a declared type: any value, one common type */
#define RL_OID_ANYCOMPATIBLEARRAY 5078u /* a declared type: an array of that common type */
#define RL_OID_ANYNONARRAY 2776u            /* a declared type: any value but an array */
#define RL_OID_ANYCOMPATIBLENONARRAY 5079u  /* anycompatible, but not an array */
#define RL_OID_PG_NODE_TREE 194u  /* an expression tree (none in a lake) */
/* A declared last argument type: VARIADIC "any", one or more further
 * arguments of any type (pg_proc shows it as "any", provariadic 2276). */
#define RL_OID_VARIADIC_ANY 0xFFFFFF01u

/* An implementation: the n (already evaluated) arguments to *out; 0, or -1
 * with c->x's error set. Strict functions are not called with a NULL
 * argument (the dispatcher answers a NULL of the result type). */
typedef int (*rl_func_impl)(rl_expr_ctx *c, size_t n, rl_value *args, rl_value *out, int loc);

typedef struct rl_func {
    const char *name;
    uint32_t oid;                        /* PostgreSQL 15's pg_proc.oid */
    uint8_t nargs;
    uint32_t argtypes[RL_FUNC_MAX_ARGS]; /* 2277 anyarray: any array */
    uint32_t rettype;
    char volatility;                     /* 'i' immutable, 's' stable, 'v' volatile */
    bool strict;
    const char *prosrc;                  /* PostgreSQL's C symbol */
    rl_func_impl impl;
} rl_func;

/* Every built-in function, in the table's order. */
const rl_func *rl_func_all(size_t *n);
/* The overload of `name` taking n arguments, or NULL. */
const rl_func *rl_func_find(const char *name, size_t n);
/* Functions with defaults for their last arguments (pg_proc.proargdefaults)
 * or with argument names (proargnames): a call may leave the defaulted
 * ones out, and may pass arguments as `name => value` after its
 * positional ones (rl_func_arrange). Data in the header, so that pg_proc
 * (sql_pgcatalog.c) reads it without calling sql_func.c. */
typedef struct rl_func_default {
    const char *name;
    uint8_t nargs;     /* the row's arguments */
    uint8_t ndefaults; /* how many of the last ones have a default */
    /* the defaults of those last ndefaults arguments, as input text of
     * their declared types */
    const char *defaults[RL_FUNC_MAX_ARGS];
    const char *argnames[RL_FUNC_MAX_ARGS]; /* all nargs, or none */
} rl_func_default;
static const rl_func_default rl_func_defaults[] = {
    {"pg_promote", 2, 2, {"true", "60"}, {"wait", "wait_seconds"}},
    {"pg_terminate_backend", 2, 1, {"0"}, {"pid", "timeout"}},
    {"jsonb_set", 4, 1, {"true"}, {"jsonb_in", "path", "replacement", "create_if_missing"}},
    {"jsonb_insert", 4, 1, {"false"}, {"jsonb_in", "path", "replacement", "insert_after"}},
    {"json_populate_record", 3, 1, {"false"}, {"base", "from_json", "use_json_as_text"}},
    {"json_populate_recordset", 3, 1, {"false"}, {"base", "from_json", "use_json_as_text"}},
    {"make_interval", 7, 7, {"0", "0", "0", "0", "0", "0", "0.0"},
     {"years", "months", "weeks", "days", "hours", "mins", "secs"}},
    {"make_date", 3, 0, {NULL}, {"year", "month", "day"}},
    {"make_time", 3, 0, {NULL}, {"hour", "min", "sec"}},
    {"make_timestamp", 6, 0, {NULL}, {"year", "month", "mday", "hour", "min", "sec"}},
    {"make_timestamptz", 6, 0, {NULL}, {"year", "month", "mday", "hour", "min", "sec"}},
    {"make_timestamptz", 7, 0, {NULL},
     {"year", "month", "mday", "hour", "min", "sec", "timezone"}},
};

/* How many trailing arguments of the row (name, nargs) have defaults
 * (pg_proc.pronargdefaults). */
static inline int rl_func_ndefaults(const char *name, size_t nargs)
{
    for (size_t i = 0; i < sizeof rl_func_defaults / sizeof rl_func_defaults[0]; i++)
        if (strcmp(rl_func_defaults[i].name, name) == 0 && rl_func_defaults[i].nargs == nargs)
            return rl_func_defaults[i].ndefaults;
    return 0;
}
/* The table's rows of set-returning functions (pg_proc.proretset):
 * json_populate_recordset and jsonb_populate_recordset, whose calls are
 * rl_func_is_setfn's. */
static inline bool rl_func_oid_retset(uint32_t oid)
{
    return oid == 3961 || oid == 3475;
}
/* A call's arguments arranged for the table's rows: the positional ones as
 * evaluated, the `name => value` ones (names[i] set; they follow the
 * positional ones) moved to where their row takes them, and the defaults
 * of those left out filled in (args has room for cap). *n is the call's
 * count in, the row's out. 0, or -1 with 42883 when named arguments fit no
 * row of `name`. */
int rl_func_arrange(rl_expr_ctx *c, const char *name, rl_value *args, const char *const *names,
                    size_t *n, size_t cap, int loc);
/* Is there a function of this name at all? */
bool rl_func_known(const char *name);
/* The overload of `name` a call with these n evaluated arguments means, as
 * PostgreSQL's func_select_candidate picks it: 0 with *out, or -1 with
 * 42883 (none) / 42725 (not unique). */
int rl_func_resolve(rl_expr_ctx *c, const char *name, size_t n, const rl_value *args,
                    const rl_func **out, int loc);
/* The type a call of `name` with n arguments of types `oids` (unknown for
 * an untyped parameter or literal) gives its argument `which`, as
 * PostgreSQL's function resolution fixes an unknown argument: the chosen
 * overload's declared type, a polymorphic one resolved from the other
 * arguments; 0 when no overload or several fit, or nothing fixes it. For
 * the types of a prepared statement's parameters (sql_params.c). */
uint32_t rl_func_arg_type(rl_exec *x, const char *name, size_t n, const uint32_t *oids,
                          size_t which);
/* The most volatile of the overloads of (name, n): 'i', 's', 'v'; 0 if none. */
char rl_func_volatility(const char *name, size_t n);
/* Call f on n evaluated arguments (strictness and argument coercion of
 * unknown literals applied here). Polymorphic types are resolved as
 * PostgreSQL does: anycompatible / anycompatiblearray arguments are
 * coerced to their common element type (42883 when none), an anyarray
 * result is the type of the anyarray argument or the array of the
 * anyelement one; the implementation gets `out` as a NULL of the
 * resolved result type.
 * Errors: a literal argument's input error points at the literal
 * (arglocs[i], when given and >= 0; else loc); the implementation's own
 * errors are the executor's and have no position, but for class 42 ones
 * (what PostgreSQL finds while analysing). */
int rl_func_call(rl_expr_ctx *c, const rl_func *f, size_t n, rl_value *args, rl_value *out,
                 int loc, const int *arglocs);
/* A one-argument call that is a cast, as PostgreSQL's are: a cast
 * function pg_proc lists from PostgreSQL 15's pg_cast (int4(bigint),
 * float8(integer), text(boolean), ...) called with exactly its argument
 * type, or a type's name called with an untyped literal (int8('5'),
 * date(NULL): PostgreSQL's "function-style" coercion): the explicit cast
 * to that type. loc: the argument's position (a literal's error points
 * at it). 1 done (out set), 0 not such a call, -1 error (the cast's). */
int rl_func_cast_call(rl_expr_ctx *c, const char *name, size_t nargs, const rl_value *args,
                      rl_value *out, int loc);
/* 42883 "function name(types) does not exist" with PostgreSQL's hint. */
int rl_func_no_function(rl_expr_ctx *c, const char *name, size_t nargs, const rl_value *args,
                        int loc);

/* unnest's refusal of an argument that is not an array: 42804 "cannot
 * determine element type" for a value of type anyarray itself (as
 * enforce_generic_type_consistency), else rl_func_no_function. */
int rl_func_unnest_refusal(rl_expr_ctx *c, size_t nargs, const rl_value *args, int loc);
/* The same for a call with named arguments, listed as written: "function
 * make_interval(days => numeric) does not exist" (names[i] NULL: positional). */
int rl_func_no_named_function(rl_expr_ctx *c, const char *name, const rl_value *args,
                              const char *const *names, size_t n, int loc);
/* 42725 "function name(types) is not unique" with PostgreSQL's hint: more
 * than one candidate fits equally. -1. */
int rl_func_not_unique(rl_expr_ctx *c, const char *name, size_t nargs, const rl_value *args,
                       int loc);
/* The type generate_series(a[0..n)) returns, n 2 or 3, as PostgreSQL
 * resolves it among its (int4), (int8), (numeric), (timestamp, .., interval)
 * and (timestamptz, .., interval) forms: 0 with *t, or -1 with 42883 (no
 * form fits) or 42725 (none is preferred: smallints, unknown literals). */
int rl_func_series_type(rl_expr_ctx *c, size_t n, const rl_value *a, uint32_t *t, int loc);

/* The operators ~ (case-sensitive) and ~* (icase) on text: *match, or -1
 * with 2201B for a bad pattern. Compiled patterns are kept for the
 * statement (rl_exec.id) in the session. */
int rl_regex_match(rl_expr_ctx *c, const rl_value *s, const rl_value *pattern, bool icase,
                   bool *match, int loc);
/* The set-returning functions of text: regexp_matches(s, p [, flags])
 * (text[] per match), regexp_split_to_table(s, p [, flags]) and
 * string_to_table(s, delimiter [, null]) (text per piece), n 2 or 3. */
/* Also json_populate_recordset(base, j [, bool]) and
 * jsonb_populate_recordset(base, j): records of base's type (sql_json.c).
 * The type of their values, given the evaluated arguments a. */
bool rl_func_is_setfn(const char *name, size_t n);
uint32_t rl_func_setfn_type(const char *name, const rl_value *a);
/* Their rows for arguments a[0..n) (evaluated; coerced here, an untyped
 * literal's input error at arglocs[i] when that is >= 0, arglocs may be
 * NULL): 0 with *vals (arena, *count of them), or -1 with 42883 / 2201B /
 * 22023 as PostgreSQL. type_only: the checks without the rows. */
int rl_func_setfn_rows(rl_expr_ctx *c, const char *name, size_t n, rl_value *a, bool type_only,
                       rl_value **vals, size_t *count, int loc, const int *arglocs);
/* The arguments a[0..n) of json(b)_populate_record(set) `name` resolved
 * against its row of the table: 42883 for other types or counts, 42804
 * for an untyped base (the polymorphic row cannot take it), an untyped
 * literal read as json(b) / boolean at arglocs[i] (when >= 0; may be
 * NULL). 0 or -1. */
int rl_func_populate_args(rl_expr_ctx *c, const char *name, size_t n, rl_value *a, int loc,
                          const int *arglocs);
/* Free the session's compiled patterns (session end). */
void rl_regex_cache_free(rl_session *s);
/* A transaction numbered by txid_current() / pg_current_xact_id() ended
 * (pg_xact_status answers for it); txid 0: none was given. */
void rl_func_txid_end(int64_t txid, bool committed);

/* The transaction's start (PostgreSQL's now(), in microseconds since
 * 2000-01-01): fixed at first use if sql.c did not set it when the
 * transaction began. */
int64_t rl_func_txn_start(rl_expr_ctx *c);

#endif
