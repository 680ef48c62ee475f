/*
 * sql_settings.c — the session's configuration parameters: PostgreSQL 15's
 * defaults for the settings clients read, SET / SET LOCAL / RESET / SHOW,
 * current_setting() and set_config(), and how settings follow the
 * transaction, as PostgreSQL's GUC does:
 *  - a SET inside a transaction that rolls back is undone (so is one before
 *    a ROLLBACK TO of a savepoint taken earlier);
 *  - SET LOCAL (set_config(..., true)) lasts until the transaction ends,
 *    then the setting returns to its session value;
 *  - time settings are kept in milliseconds and shown in the largest exact
 *    unit ("5s").
 *
 * Invariants: s->settings holds one entry per changed setting, by canonical
 * name (s->settings_client: those the startup packet set, which RESET,
 * RESET ALL and DISCARD ALL return to); s->settings_saved says s->settings_at_start is the list as the
 * transaction found it (taken at its first change); entries flagged local
 * return to `after` (or to the default, after_default) when it commits.
 */
#include <assert.h>
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pgtype/pgtype.h"
#include "pgtype/tzif.h"
#include "sql/sql_settings.h"

/* One configuration parameter of PostgreSQL 15 (pg15_settings.inc, made by
 * tools/gen_pg15_catalog.py): pg_settings' columns as a fresh server shows
 * them, SHOW's text of its value, whether role `lake` may read it (1),
 * not (0: superuser-only) or it is SHOW's only (-1: pg_settings does not
 * list it), whether SET takes a list of values, and the hidden spellings
 * of an enum (spelling, value, ...). */
typedef struct pg15_setting {
    const char *name, *vartype, *context, *unit, *category, *short_desc, *extra_desc, *min_val,
        *max_val, *enumvals, *boot_val, *reset_val, *setting, *shown, *source;
    int visible;
    int list; /* SET takes a list of values (GUC_LIST_INPUT), 2: quoting names */
    const char *const *hidden;
} pg15_setting;

#include "sql/pg15_settings.inc"

#define N_SETTINGS ((size_t)PG15_SETTINGS_COUNT)

/* Where the server's own value stands for a fresh PostgreSQL's (SHOW,
 * pg_settings' setting and reset_val; server_version's boot_val too): the
 * port it listens on, its --max-connections, its version. NULL: none. */
static const char *own_value(const rl_session *s, size_t idx)
{
    const char *name = pg15_settings[idx].name;
    const char *v = strcmp(name, "port") == 0              ? s->own_port
                    : strcmp(name, "max_connections") == 0 ? s->own_max_connections
                    : strcmp(name, "server_version") == 0  ? s->own_server_version
                                                           : NULL;
    if (v && *v)
        return v;
    return strcmp(name, "server_version") == 0 ? "15.18 (RockLake 0.1)" : NULL;
}

/* PostgreSQL's old names of two settings (map_old_guc_names). */
static const struct {
    const char *old, *now;
} old_names[] = {{"sort_mem", "work_mem"}, {"vacuum_mem", "maintenance_work_mem"}};

size_t rl_setting_count(void) { return N_SETTINGS; }

/* How many of the generated table's rows lead it in order (by name,
 * case-blind, each once: pg_settings' rows; SHOW's extras such as
 * is_superuser follow them unsorted). Counted on the first lookup. */
static size_t sorted_prefix(void)
{
    static _Atomic size_t n; /* 0: not counted yet */
    if (n)
        return n;
    size_t i = 1;
    while (i < N_SETTINGS && strcasecmp(pg15_settings[i - 1].name, pg15_settings[i].name) < 0)
        i++;
    n = i;
    return i;
}

/* A setting's index by name (case-blind, an old name as its new one), -1
 * when PostgreSQL has none: a binary search over the sorted rows, then
 * the few after them, as statement_timeout and the reported settings are
 * looked up for every statement. */
static int builtin_index(const char *name)
{
    for (size_t i = 0; i < sizeof old_names / sizeof old_names[0]; i++)
        if (strcasecmp(name, old_names[i].old) == 0)
            name = old_names[i].now;
    size_t sorted = sorted_prefix(), lo = 0, hi = sorted;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        int c = strcasecmp(pg15_settings[mid].name, name);
        if (c == 0)
            return (int)mid;
        if (c < 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    for (size_t i = sorted; i < N_SETTINGS; i++)
        if (strcasecmp(pg15_settings[i].name, name) == 0)
            return (int)i;
    return -1;
}

/* The session's placeholder (custom) settings, in the order SET made them:
 * index N_SETTINGS + k is the k-th. */
static const rl_setting *placeholder_at(const rl_session *s, int idx)
{
    const rl_setting *p = s->placeholders;
    for (int k = (int)N_SETTINGS; p && k < idx; k++)
        p = p->next;
    return p;
}

int rl_setting_index(const rl_session *s, const char *name)
{
    int idx = builtin_index(name);
    if (idx >= 0)
        return idx;
    idx = (int)N_SETTINGS;
    for (const rl_setting *p = s->placeholders; p; p = p->next, idx++)
        if (strcasecmp(p->name, name) == 0)
            return idx;
    return -1;
}

const char *rl_setting_name(const rl_session *s, int idx)
{
    assert(idx >= 0);
    if ((size_t)idx < N_SETTINGS)
        return pg15_settings[idx].name;
    const rl_setting *p = placeholder_at(s, idx);
    assert(p);
    return p->name;
}

/* PostgreSQL's rule for a custom setting's name: two or more identifiers
 * (a letter, _ or a non-ASCII byte first; then also digits and $) joined
 * by dots. */
static bool valid_custom_name(const char *name)
{
    bool dot = false, start = true;
    for (const char *p = name; *p; p++) {
        unsigned char c = (unsigned char)*p;
        if (c == '.') {
            if (start)
                return false;
            dot = start = true;
        } else if (isalpha(c) || c == '_' || c >= 0x80) {
            start = false;
        } else if (!start && (isdigit(c) || c == '$')) {
            /* not first */
        } else {
            return false;
        }
    }
    return !start && dot;
}

static int unrecognized(rl_exec *x, const char *name)
{
    return rl_exec_error(x, RL_SQLSTATE_UNDEFINED_OBJECT, -1,
                         "unrecognized configuration parameter \"%s\"", name);
}

int rl_setting_lookup_for_set(rl_exec *x, const char *name)
{
    int idx = rl_setting_index(x->s, name);
    if (idx >= 0)
        return idx;
    if (!strchr(name, '.'))
        return unrecognized(x, name);
    if (!valid_custom_name(name)) {
        int rc = rl_exec_error(x, RL_SQLSTATE_INVALID_NAME, -1,
                               "invalid configuration parameter name \"%s\"", name);
        rl_error_detail(x->err,
                        "Custom parameter names must be two or more simple identifiers "
                        "separated by dots.");
        return rc;
    }
    rl_setting *p = calloc(1, sizeof *p);
    if (!p)
        return rl_exec_error(x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    if (strlen(name) >= sizeof p->name) {
        free(p);
        return rl_exec_error(x, RL_SQLSTATE_PROGRAM_LIMIT_EXCEEDED, -1,
                             "configuration parameter name \"%s\" is too long for RockLake",
                             name);
    }
    snprintf(p->name, sizeof p->name, "%s", name);
    rl_setting **tail = &x->s->placeholders;
    idx = (int)N_SETTINGS;
    for (; *tail; tail = &(*tail)->next)
        idx++;
    *tail = p;
    return idx;
}

int rl_setting_lookup_for_show(rl_exec *x, const char *name, bool missing_ok)
{
    int idx = rl_setting_index(x->s, name);
    if (idx < 0)
        return missing_ok ? -2 : unrecognized(x, name);
    if ((size_t)idx < N_SETTINGS && pg15_settings[idx].visible == 0)
        return rl_exec_error(x, RL_SQLSTATE_INSUFFICIENT_PRIVILEGE, -1,
                             "must be superuser or have privileges of pg_read_all_settings to "
                             "examine \"%s\"",
                             name);
    return idx;
}

int rl_setting_takes_list(const rl_session *s, const char *name)
{
    int idx = builtin_index(name);
    (void)s; /* placeholders take one value */
    return idx >= 0 ? pg15_settings[idx].list : 0;
}

bool rl_setting_user_settable(int idx)
{
    assert(idx >= 0);
    return (size_t)idx >= N_SETTINGS || strcmp(pg15_settings[idx].context, "user") == 0;
}

static rl_setting *list_find(rl_setting *l, const char *canonical)
{
    for (rl_setting *st = l; st; st = st->next)
        if (strcmp(st->name, canonical) == 0)
            return st;
    return NULL;
}

static rl_setting *setting_find(const rl_session *s, const char *canonical)
{
    return list_find(s->settings, canonical);
}

/* ------------------------------------------------------------- units */

/* A unit of a setting's value and what one of it is in bytes or in
 * microseconds, largest first, as PostgreSQL converts (memory then time). */
typedef struct unit_def {
    const char *name;
    double size;
} unit_def;

static const unit_def memory_units[] = {{"TB", 1099511627776.0}, {"GB", 1073741824.0},
                                        {"MB", 1048576.0},       {"kB", 1024.0},
                                        {"B", 1.0},              {NULL, 0}};
static const unit_def time_units[] = {{"d", 86400e6}, {"h", 3600e6}, {"min", 60e6}, {"s", 1e6},
                                      {"ms", 1e3},    {"us", 1.0},   {NULL, 0}};

/* The table for a setting's base unit (pg_settings.unit) and the size of
 * that unit in the table's measure; NULL for a unitless setting. */
static const unit_def *unit_table(const char *unit, double *base)
{
    static const unit_def bases[] = {{"B", 1.0},     {"kB", 1024.0}, {"8kB", 8192.0},
                                     {"MB", 1048576.0}, {"ms", 1e3},   {"s", 1e6},
                                     {"min", 60e6}};
    if (!unit)
        return NULL;
    for (size_t i = 0; i < sizeof bases / sizeof bases[0]; i++)
        if (strcmp(unit, bases[i].name) == 0) {
            *base = bases[i].size;
            return i < 4 ? memory_units : time_units;
        }
    return NULL;
}

/* A value with a unit after it (spaces around the unit allowed) in the
 * base unit: a fraction rounds to a whole number of the next smaller unit,
 * as PostgreSQL's convert_to_base_unit does. false for an unknown unit. */
static bool to_base_unit(double v, const char *unit_text, const char *base_unit, double *out)
{
    double base;
    const unit_def *t = unit_table(base_unit, &base);
    if (!t)
        return false;
    char u[4];
    size_t len = 0;
    while (*unit_text && !isspace((unsigned char)*unit_text) && len < 3)
        u[len++] = *unit_text++;
    u[len] = '\0';
    while (isspace((unsigned char)*unit_text))
        unit_text++;
    if (*unit_text)
        return false;
    for (size_t i = 0; t[i].name; i++) {
        if (strcmp(u, t[i].name) != 0)
            continue;
        double c = v * (t[i].size / base);
        if (t[i + 1].name) {
            double next = t[i + 1].size / base;
            c = rint(c / next) * next;
        }
        *out = c;
        return true;
    }
    return false;
}

/* SHOW's text of a numeric setting (its pg_settings.setting text): a
 * positive integer in the largest unit it is a whole number of, a real in
 * the largest it comes within 1e-8 of a whole number in. */
static const char *format_units(const char *vartype, const char *unit, const char *setting,
                                char *buf, size_t n)
{
    double base;
    const unit_def *t = unit_table(unit, &base);
    bool is_int = strcmp(vartype, "integer") == 0;
    if (!t || (!is_int && strcmp(vartype, "real") != 0))
        return setting;
    char *end;
    double v = strtod(setting, &end);
    if (*end || !(v > 0))
        return setting;
    for (size_t i = 0; t[i].name; i++) {
        double m = t[i].size / base;
        if (is_int) {
            long long iv = (long long)v;
            if (m <= 1.0 || iv % (long long)m == 0) {
                snprintf(buf, n, "%lld%s", (long long)rint((double)iv / m), t[i].name);
                return buf;
            }
            continue;
        }
        double x = v / m;
        if (fabs(rint(x) / x - 1.0) <= 1e-8 || !t[i + 1].name) {
            snprintf(buf, n, "%g%s", x, t[i].name);
            return buf;
        }
    }
    return setting;
}

/* ------------------------------------------------------------ values */

/* The setting's value in pg_settings' form (numbers in their base unit). */
static const char *setting_value(const rl_session *s, int idx)
{
    if ((size_t)idx >= N_SETTINGS) {
        const rl_setting *st = setting_find(s, rl_setting_name(s, idx));
        return st ? st->value : "";
    }
    const char *name = pg15_settings[idx].name;
    if (strcmp(name, "transaction_isolation") == 0 && s->isolation_set)
        return s->isolation == RL_ISO_SERIALIZABLE      ? "serializable"
               : s->isolation == RL_ISO_REPEATABLE_READ ? "repeatable read"
                                                        : "read committed";
    if (strcmp(name, "transaction_isolation") == 0)
        return setting_value(s, builtin_index("default_transaction_isolation"));
    if (strcmp(name, "transaction_read_only") == 0)
        /* a fenced writer takes no commit either: libpq's
         * target_session_attrs=read-write must pass it by */
        return s->read_only_txn || rl_catalog_read_only(s->eng->cat) ||
                       rl_catalog_fenced(s->eng->cat)
                   ? "on"
                   : "off";
    if (strcmp(name, "in_hot_standby") == 0)
        return rl_catalog_read_only(s->eng->cat) ? "on" : "off";
    if (strcmp(name, "application_name") == 0 && !setting_find(s, name))
        return s->application;
    rl_setting *st = setting_find(s, name);
    if (st)
        return st->value;
    const char *own = own_value(s, (size_t)idx);
    return own ? own : pg15_settings[idx].setting;
}

const char *rl_setting_shown(const rl_session *s, int idx, char *buf, size_t n)
{
    assert(idx >= 0);
    const char *v = setting_value(s, idx);
    if ((size_t)idx >= N_SETTINGS)
        return v;
    const pg15_setting *d = &pg15_settings[idx];
    if (v == d->setting) /* the default: as PostgreSQL shows it (show hooks too) */
        return d->shown;
    return format_units(d->vartype, d->unit, v, buf, n);
}

int64_t rl_setting_ms(const rl_session *s, const char *name)
{
    int idx = builtin_index(name);
    if (idx < 0 || !pg15_settings[idx].unit || strcmp(pg15_settings[idx].unit, "ms") != 0)
        return -1;
    const rl_setting *st = setting_find(s, pg15_settings[idx].name);
    return st ? strtoll(st->value, NULL, 10) : -1;
}

bool rl_setting_row(const rl_session *s, size_t idx, rl_setting_info *out, char *buf, size_t n)
{
    assert(idx < N_SETTINGS);
    const pg15_setting *d = &pg15_settings[idx];
    if (d->visible != 1)
        return false;
    const char *own = own_value(s, idx);
    bool version = strcmp(d->name, "server_version") == 0;
    const rl_setting *st = setting_find(s, d->name), *client = list_find(s->settings_client, d->name);
    const char *source = !st                                           ? d->source
                         : client && strcmp(st->value, client->value) == 0 ? "client"
                                                                             : "session";
    *out = (rl_setting_info){
        .name = d->name,          .setting = setting_value(s, (int)idx),
        .unit = d->unit,          .category = d->category,
        .short_desc = d->short_desc, .extra_desc = d->extra_desc,
        .context = d->context,    .vartype = d->vartype,
        .source = source,
        .min_val = d->min_val,    .max_val = d->max_val,
        .enumvals = d->enumvals,  .boot_val = version ? own : d->boot_val,
        .reset_val = client ? client->value : own ? own : d->reset_val,
    };
    out->shown = rl_setting_shown(s, (int)idx, buf, n);
    return true;
}

/* ------------------------------------------------ transaction semantics */

static void list_free(rl_setting *l)
{
    while (l) {
        rl_setting *n = l->next;
        free(l);
        l = n;
    }
}

/* A copy of list l (NULL and *ok false when out of memory). */
static rl_setting *list_copy(const rl_setting *l, bool *ok)
{
    rl_setting *head = NULL, **tail = &head;
    *ok = true;
    for (; l; l = l->next) {
        rl_setting *c = malloc(sizeof *c);
        if (!c) {
            list_free(head);
            *ok = false;
            return NULL;
        }
        *c = *l;
        c->next = NULL;
        *tail = c;
        tail = &c->next;
    }
    return head;
}

/* Before the transaction's first change: remember the list as it was. */
static int save_at_start(rl_session *s)
{
    if (s->settings_saved)
        return 0;
    bool ok;
    s->settings_at_start = list_copy(s->settings, &ok);
    if (!ok)
        return -1;
    s->settings_saved = true;
    return 0;
}

static void remove_entry(rl_session *s, const char *name)
{
    for (rl_setting **pp = &s->settings; *pp; pp = &(*pp)->next) {
        if (strcmp((*pp)->name, name) == 0) {
            rl_setting *dead = *pp;
            *pp = dead->next;
            free(dead);
            return;
        }
    }
}

void rl_settings_txn_end(rl_session *s, bool committed)
{
    if (!s->settings_saved)
        return;
    if (!committed) {
        list_free(s->settings);
        s->settings = s->settings_at_start;
    } else {
        list_free(s->settings_at_start);
        for (rl_setting *st = s->settings, *next; st; st = next) {
            next = st->next;
            if (!st->local)
                continue;
            if (st->after_default) {
                remove_entry(s, st->name);
                continue;
            }
            snprintf(st->value, sizeof st->value, "%s", st->after);
            st->local = false;
        }
    }
    s->settings_at_start = NULL;
    s->settings_saved = false;
    rl_settings_zone_apply(s);
}

rl_setting *rl_settings_snapshot(const rl_session *s, bool *ok)
{
    return list_copy(s->settings, ok);
}

void rl_settings_restore(rl_session *s, const rl_setting *snapshot)
{
    bool ok;
    rl_setting *copy = list_copy(snapshot, &ok);
    if (!ok)
        return; /* out of memory: the settings stay as they are */
    list_free(s->settings);
    s->settings = copy;
    rl_settings_zone_apply(s);
}

void rl_settings_snapshot_free(rl_setting *snapshot) { list_free(snapshot); }

void rl_settings_free(rl_session *s)
{
    bool ok;
    list_free(s->settings);
    list_free(s->settings_at_start);
    s->settings = list_copy(s->settings_client, &ok); /* out of memory: the defaults */
    s->settings_at_start = NULL;
    s->settings_saved = false;
    rl_settings_zone_apply(s);
}

void rl_settings_mark_client(rl_session *s)
{
    bool ok;
    list_free(s->settings_client);
    s->settings_client = list_copy(s->settings, &ok); /* out of memory: RESET to defaults */
}

/* ------------------------------------------------------ checking values */

/* The settings that change how values are written or read. PostgreSQL
 * takes every value of theirs; RockLake writes and reads values one way
 * (ISO dates, postgres intervals, hex bytea, UTF-8, shortest-exact
 * floats, standard strings), so it takes the values that mean that way and
 * refuses the others with 0A000 rather than accept them and answer as if
 * they had not been set. A value PostgreSQL itself refuses gets its 22023
 * and wording: string settings name the parameter canonically (their check
 * hooks do), enum, integer and boolean settings as the statement spelled it
 * (`typed`). A taken value is stored as SHOW gives it (`canon`). */

static int unsupported(rl_exec *x, const char *name, const char *value, const char *hint)
{
    int rc = rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                           "RockLake does not support %s = '%s'", name, value);
    rl_error_hint(x->err, "%s", hint);
    return rc;
}

static int invalid_value(rl_exec *x, const char *name, const char *value)
{
    return rl_exec_error(x, RL_SQLSTATE_INVALID_PARAMETER_VALUE, -1,
                         "invalid value for parameter \"%s\": \"%s\"", name, value);
}

/* TimeZone as PostgreSQL's check_timezone takes it: "INTERVAL '...'" (SET
 * TIME ZONE INTERVAL ..., as sql.c flattens it: an offset without months or
 * days), a number of hours east of UTC, else a zone name (tzif.h: a zone
 * file matched case-blind, shown in its own spelling, or a POSIX TZ spec,
 * shown as written). Offsets become the zone PostgreSQL names "<+03>-03". */
static int check_timezone(rl_exec *x, const char *v, char *canon, size_t n)
{
    const rl_tz *tz = NULL;
    char *end;
    if (strncasecmp(v, "interval", 8) == 0) {
        const char *q = strchr(v, '\'');
        rl_datum d;
        rl_buf arena;
        rl_buf_init(&arena, 0);
        char err[256];
        bool ok = q && rl_datum_from_text(RL_T_INTERVAL, q + 1, strcspn(q + 1, "'"), &d, &arena,
                                          err, sizeof err) == RL_CODEC_OK;
        rl_buf_free(&arena);
        if (!ok)
            return invalid_value(x, "TimeZone", v);
        if (d.v.interval.months || d.v.interval.days) {
            int rc = invalid_value(x, "TimeZone", v);
            rl_error_detail(x->err, "Cannot specify %s in time zone interval.",
                            d.v.interval.months ? "months" : "days");
            return rc;
        }
        tz = rl_tz_fixed((int32_t)(d.v.interval.us / 1000000));
    } else {
        double hours = strtod(v, &end);
        if (end != v && *end == '\0') { /* hours east of UTC */
            tz = fabs(hours) <= 168 ? rl_tz_fixed((int32_t)(hours * 3600)) : NULL;
        } else {
            tz = rl_tz_lookup(v);
            if (!tz)
                return invalid_value(x, "TimeZone", v);
        }
    }
    if (!tz) {
        int rc = invalid_value(x, "TimeZone", v);
        rl_error_detail(x->err, "UTC timezone offset is out of range.");
        return rc;
    }
    snprintf(canon, n, "%s", rl_tz_name(tz));
    return 0;
}

void rl_settings_zone_apply(const rl_session *s)
{
    const rl_setting *st = setting_find(s, "TimeZone");
    rl_tz_set_current(st ? rl_tz_lookup(st->value) : NULL);
}

/* DateStyle: a style (ISO, SQL, Postgres, German) and an order (YMD, DMY,
 * MDY and their aliases), comma or space separated, each at most once,
 * DEFAULT for either. Only the ISO style is written; the order only
 * decides how an ambiguous input like 01/02/2024 reads, which RockLake's
 * date input does not take in any order, so every order is kept. */
static int check_datestyle(rl_exec *x, const char *v, char *canon, size_t n)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", v);
    const char *style = NULL, *order = NULL, *explicit_order = NULL;
    bool conflict = false;
    char *save = NULL;
    for (char *t = strtok_r(buf, ", \t", &save); t; t = strtok_r(NULL, ", \t", &save)) {
        const char *st = NULL, *ord = NULL;
        if (strcasecmp(t, "ISO") == 0)
            st = "ISO";
        else if (strcasecmp(t, "SQL") == 0)
            st = "SQL";
        else if (strncasecmp(t, "POSTGRES", 8) == 0)
            st = "Postgres";
        else if (strcasecmp(t, "GERMAN") == 0) {
            st = "German";
            if (!explicit_order)
                order = "DMY";
        } else if (strcasecmp(t, "YMD") == 0)
            ord = "YMD";
        else if (strcasecmp(t, "DMY") == 0 || strncasecmp(t, "EURO", 4) == 0)
            ord = "DMY";
        else if (strcasecmp(t, "MDY") == 0 || strcasecmp(t, "US") == 0 ||
                 strncasecmp(t, "NONEURO", 7) == 0)
            ord = "MDY";
        else if (strcasecmp(t, "DEFAULT") != 0) {
            int rc = invalid_value(x, "DateStyle", v);
            rl_error_detail(x->err, "Unrecognized key word: \"%s\".", t);
            return rc;
        }
        if (st) {
            conflict |= style && strcmp(style, st) != 0;
            style = st;
        }
        if (ord) { /* German's own DMY gives way to an order given */
            conflict |= explicit_order && strcmp(explicit_order, ord) != 0;
            explicit_order = order = ord;
        }
    }
    if (conflict) {
        int rc = invalid_value(x, "DateStyle", v);
        rl_error_detail(x->err, "Conflicting \"datestyle\" specifications.");
        return rc;
    }
    if (style && strcmp(style, "ISO") != 0)
        return unsupported(x, "DateStyle", v,
                           "RockLake writes dates and times in the ISO style only: SET DateStyle "
                           "= 'ISO'.");
    snprintf(canon, n, "ISO, %s", order ? order : "MDY");
    return 0;
}

/* An enum setting: one of `values` (case-blind), of which RockLake
 * supports `supported`; shown in lower case as PostgreSQL shows enums. */
static int check_enum(rl_exec *x, const char *typed, const char *v, const char *const *values,
                      const char *supported, const char *hint, char *canon, size_t n)
{
    for (size_t i = 0; values[i]; i++)
        if (strcasecmp(v, values[i]) == 0) {
            if (strcmp(values[i], supported) != 0)
                return unsupported(x, typed, v, hint);
            snprintf(canon, n, "%s", values[i]);
            return 0;
        }
    int rc = invalid_value(x, typed, v);
    char avail[256] = "";
    for (size_t i = 0; values[i]; i++) {
        size_t used = strlen(avail);
        snprintf(avail + used, sizeof avail - used, "%s%s", i ? ", " : "", values[i]);
    }
    rl_error_hint(x->err, "Available values: %s.", avail);
    return rc;
}

/* extra_float_digits: an integer -15 .. 3 (a fraction rounds, as
 * PostgreSQL's integer settings do). 1 to 3 all mean the shortest exact
 * text of a float (PostgreSQL 12 and later), which is what RockLake
 * writes; 0 and less ask for rounded digits. */
static int check_extra_float_digits(rl_exec *x, const char *typed, const char *v, char *canon,
                                    size_t n)
{
    char *end;
    double d = strtod(v, &end);
    while (*end == ' ')
        end++;
    if (end == v || *end || d != d)
        return invalid_value(x, typed, v);
    long i = lround(d);
    if (d < -2147483648.0 || d > 2147483647.0 || i < -15 || i > 3)
        return rl_exec_error(x, RL_SQLSTATE_INVALID_PARAMETER_VALUE, -1,
                             "%s is outside the valid range for parameter \"%s\" (-15 .. 3)", v,
                             typed);
    if (i < 1)
        return unsupported(x, typed, v,
                           "RockLake writes floats in their shortest exact form, as "
                           "extra_float_digits 1 to 3 ask.");
    snprintf(canon, n, "%ld", i);
    return 0;
}

/* PostgreSQL's encoding names, compared as it compares them: letters and
 * digits only, case-blind ("utf-8", "Unicode"). In lower case here: some
 * ("cp866") would read as SQLSTATEs to scripts/check-sqlstates.py. */
static const char *const encodings[] = {
    "big5", "euccn", "eucjis2004", "eucjp", "euckr", "euctw", "gb18030", "gbk", "iso88595",
    "iso88596", "iso88597", "iso88598", "johab", "koi8", "koi8r", "koi8u", "latin1", "latin10",
    "latin2", "latin3", "latin4", "latin5", "latin6", "latin7", "latin8", "latin9",
    "muleinternal", "sjis", "shiftjis2004", "sqlascii", "uhc", "unicode", "utf8", "win",
    "win1250", "win1251", "win1252", "win1253", "win1254", "win1255", "win1256", "win1257",
    "win1258", "win866", "win874", "alt", "iso885913", "iso885914", "iso885915", "iso885916",
    "iso88591", "iso88592", "iso88593", "iso88594", "iso88599", "iso885910", "tcvn",
    "tcvn5712", "vscii", "windows1250", "windows1251", "windows1252", "windows1253",
    "windows1254", "windows1255", "windows1256", "windows1257", "windows1258", "windows866",
    "windows874", "abc", "mskanbun", "shiftjis", "cp866", "cp874", "cp932", "cp936", "cp949",
    "cp950", "cp1250", "cp1251", "cp1252", "cp1253", "cp1254", "cp1255", "cp1256", "cp1257",
    "cp1258", NULL,
};

static int check_client_encoding(rl_exec *x, const char *v, char *canon, size_t n)
{
    char key[64];
    size_t k = 0;
    for (const char *p = v; *p && k + 1 < sizeof key; p++)
        if (isalnum((unsigned char)*p))
            key[k++] = (char)tolower((unsigned char)*p);
    key[k] = '\0';
    for (size_t i = 0; encodings[i]; i++)
        if (strcmp(key, encodings[i]) == 0) {
            if (strcmp(key, "utf8") != 0 && strcmp(key, "unicode") != 0)
                return unsupported(x, "client_encoding", v,
                                   "RockLake speaks UTF8 only: convert in the client, or leave "
                                   "client_encoding at UTF8.");
            snprintf(canon, n, "UTF8");
            return 0;
        }
    return invalid_value(x, "client_encoding", v);
}

/* A boolean setting RockLake supports only `on` of. */
static int check_on_only(rl_exec *x, const char *typed, const char *v, const char *hint,
                         char *canon, size_t n)
{
    static const char *const yes[] = {"on", "true", "yes", "1", "t", "y", NULL};
    static const char *const no[] = {"off", "false", "no", "0", "f", "n", NULL};
    for (size_t i = 0; yes[i]; i++)
        if (strcasecmp(v, yes[i]) == 0) {
            snprintf(canon, n, "on");
            return 0;
        }
    for (size_t i = 0; no[i]; i++)
        if (strcasecmp(v, no[i]) == 0)
            return unsupported(x, typed, v, hint);
    return rl_exec_error(x, RL_SQLSTATE_INVALID_PARAMETER_VALUE, -1,
                         "parameter \"%s\" requires a Boolean value", typed);
}

static const char *const interval_styles[] = {"postgres", "postgres_verbose", "sql_standard",
                                              "iso_8601", NULL};
static const char *const bytea_outputs[] = {"escape", "hex", NULL};

/* PostgreSQL's Boolean spellings: on/off, true/false, yes/no, 1/0, any
 * prefix of them that is unambiguous ("t", "of"), case-blind. */
static bool parse_bool_text(const char *v, bool *out)
{
    size_t len = strlen(v);
    if (len == 0)
        return false;
    switch (tolower((unsigned char)v[0])) {
    case 't':
        return strncasecmp(v, "true", len) == 0 && len <= 4 && (*out = true);
    case 'f':
        return strncasecmp(v, "false", len) == 0 && len <= 5 && !(*out = false);
    case 'y':
        return strncasecmp(v, "yes", len) == 0 && len <= 3 && (*out = true);
    case 'n':
        return strncasecmp(v, "no", len) == 0 && len <= 2 && !(*out = false);
    case 'o':
        if (len < 2)
            return false;
        if (strncasecmp(v, "on", len) == 0 && len <= 2)
            return (*out = true);
        return strncasecmp(v, "off", len) == 0 && len <= 3 && !(*out = false);
    case '1':
    case '0':
        *out = v[0] == '1';
        return len == 1;
    default:
        return false;
    }
}

static const char memory_hint[] =
    "Valid units for this parameter are \"B\", \"kB\", \"MB\", \"GB\", and \"TB\".";
static const char time_hint[] =
    "Valid units for this parameter are \"us\", \"ms\", \"s\", \"min\", \"h\", and \"d\".";

/* A number as PostgreSQL's parse_int / parse_real read it (an integer in
 * any C base, else a decimal; an optional unit after spaces) in the
 * setting's base unit; false with *hint (or NULL) when it is no value. */
static bool parse_number(const pg15_setting *d, const char *v, bool integer, double *out,
                         const char **hint)
{
    *hint = NULL;
    char *end;
    errno = 0;
    double val;
    if (integer) {
        val = (double)strtol(v, &end, 0);
        if (*end == '.' || *end == 'e' || *end == 'E' || errno == ERANGE) {
            errno = 0;
            val = strtod(v, &end);
        }
    } else {
        val = strtod(v, &end);
    }
    if (end == v || errno == ERANGE || isnan(val))
        return false;
    while (isspace((unsigned char)*end))
        end++;
    if (*end) {
        double base;
        const unit_def *t = unit_table(d->unit, &base);
        if (!t)
            return false;
        if (!to_base_unit(val, end, d->unit, &val)) {
            *hint = t == memory_units ? memory_hint : time_hint;
            return false;
        }
    }
    if (integer) {
        val = rint(val);
        if (val > 2147483647.0 || val < -2147483648.0) {
            *hint = "Value exceeds integer range.";
            return false;
        }
    }
    *out = val;
    return true;
}

static int invalid_with_hint(rl_exec *x, const char *typed, const char *v, const char *hint)
{
    int rc = invalid_value(x, typed, v);
    if (hint)
        rl_error_hint(x->err, "%s", hint);
    return rc;
}

/* An integer or real setting: its value in its base unit within min_val ..
 * max_val, kept as pg_settings shows it ("%d", "%g"). */
static int check_number(rl_exec *x, const pg15_setting *d, const char *typed, const char *v,
                        char *canon, size_t n)
{
    bool integer = strcmp(d->vartype, "integer") == 0;
    const char *hint;
    double val;
    if (!parse_number(d, v, integer, &val, &hint))
        return invalid_with_hint(x, typed, v, hint);
    double lo = strtod(d->min_val, NULL), hi = strtod(d->max_val, NULL);
    const char *unit = d->unit ? d->unit : "";
    const char *sp = d->unit ? " " : "";
    if (val < lo || val > hi) {
        if (integer)
            return rl_exec_error(x, RL_SQLSTATE_INVALID_PARAMETER_VALUE, -1,
                                 "%d%s%s is outside the valid range for parameter \"%s\" (%d .. "
                                 "%d)",
                                 (int)val, sp, unit, typed, (int)lo, (int)hi);
        return rl_exec_error(x, RL_SQLSTATE_INVALID_PARAMETER_VALUE, -1,
                             "%g%s%s is outside the valid range for parameter \"%s\" (%g .. %g)",
                             val, sp, unit, typed, lo, hi);
    }
    if (integer)
        snprintf(canon, n, "%d", (int)val);
    else
        snprintf(canon, n, "%g", val);
    return 0;
}

/* An enum setting: one of enumvals, or a spelling PostgreSQL takes without
 * listing it (hidden), case-blind; kept as the value it names. */
static int check_generic_enum(rl_exec *x, const pg15_setting *d, const char *typed,
                              const char *v, char *canon, size_t n)
{
    char vals[512], avail[512] = "";
    snprintf(vals, sizeof vals, "%s", d->enumvals ? d->enumvals : "{}");
    char *save = NULL;
    size_t used = 0;
    for (char *t = strtok_r(vals, "{},", &save); t; t = strtok_r(NULL, "{},", &save)) {
        if (*t == '"') { /* a value with a space: "repeatable read" */
            t++;
            t[strcspn(t, "\"")] = '\0';
        }
        if (strcasecmp(t, v) == 0) {
            snprintf(canon, n, "%s", t);
            return 0;
        }
        used += (size_t)snprintf(avail + used, sizeof avail - used, "%s%s", used ? ", " : "", t);
        if (used >= sizeof avail)
            used = sizeof avail - 1;
    }
    for (size_t i = 0; d->hidden && d->hidden[i]; i += 2)
        if (strcasecmp(d->hidden[i], v) == 0) {
            snprintf(canon, n, "%s", d->hidden[i + 1]);
            return 0;
        }
    int rc = invalid_value(x, typed, v);
    rl_error_hint(x->err, "Available values: %s.", avail);
    return rc;
}

/* The string settings PostgreSQL checks with a hook of its own, as that
 * hook answers a role that is not a superuser (the only tablespaces are
 * pg_default and pg_global, the locales C and POSIX, the abbreviation sets
 * those PostgreSQL ships). 1: not one of them. */
static int check_string_hook(rl_exec *x, const pg15_setting *d, const char *v, char *canon,
                             size_t n)
{
    const char *name = d->name;
    if (strcmp(name, "application_name") == 0) { /* printable ASCII only */
        size_t k = 0;
        for (; v[k] && k + 1 < n; k++)
            canon[k] = (unsigned char)v[k] < 32 || (unsigned char)v[k] > 126 ? '?' : v[k];
        canon[k] = '\0';
        return 0;
    }
    if (strcmp(name, "default_tablespace") == 0) {
        if (!*v || strcmp(v, "pg_default") == 0 || strcmp(v, "pg_global") == 0)
            return 0;
        int rc = invalid_value(x, name, v);
        rl_error_detail(x->err, "Tablespace \"%s\" does not exist.", v);
        return rc;
    }
    if (strcmp(name, "temp_tablespaces") == 0) {
        char list[256];
        snprintf(list, sizeof list, "%s", v);
        char *save = NULL;
        for (char *t = strtok_r(list, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
            while (isspace((unsigned char)*t))
                t++;
            size_t len = strlen(t);
            while (len && isspace((unsigned char)t[len - 1]))
                t[--len] = '\0';
            if (*t == '"' && len >= 2 && t[len - 1] == '"') {
                t[len - 1] = '\0';
                t++;
            } else {
                for (char *c = t; *c; c++)
                    *c = (char)tolower((unsigned char)*c);
            }
            if (!*t || strcmp(t, "pg_default") == 0)
                continue;
            if (strcmp(t, "pg_global") == 0)
                return rl_exec_error(x, RL_SQLSTATE_INSUFFICIENT_PRIVILEGE, -1,
                                     "permission denied for tablespace %s", t);
            return rl_exec_error(x, RL_SQLSTATE_UNDEFINED_OBJECT, -1,
                                 "tablespace \"%s\" does not exist", t);
        }
        return 0;
    }
    if (strcmp(name, "lc_monetary") == 0 || strcmp(name, "lc_numeric") == 0 ||
        strcmp(name, "lc_time") == 0) {
        static const char *const locales[] = {"", "C", "POSIX", "C.UTF-8", "C.utf8", NULL};
        for (size_t i = 0; locales[i]; i++)
            if (strcmp(v, locales[i]) == 0)
                return 0;
        return invalid_value(x, name, v);
    }
    if (strcmp(name, "default_text_search_config") == 0) { /* [pg_catalog.]name */
        char parts[4][128];
        size_t np = 0, k = 0;
        bool quoted = false;
        parts[0][0] = '\0';
        for (const char *p = v; *p; p++) {
            if (*p == '"' && quoted && p[1] == '"') {
                p++;
            } else if (*p == '"') {
                quoted = !quoted;
                continue;
            } else if (*p == '.' && !quoted) {
                if (++np == 4)
                    break;
                parts[np][k = 0] = '\0';
                continue;
            }
            if (k + 1 < sizeof parts[0]) {
                parts[np][k++] = quoted ? *p : (char)tolower((unsigned char)*p);
                parts[np][k] = '\0';
            }
        }
        if (np >= 3)
            return rl_exec_error(x, RL_SQLSTATE_SYNTAX_ERROR, -1,
                                 "improper qualified name (too many dotted names): %s", v);
        if (np == 2)
            return rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                                 "cross-database references are not implemented: %s.%s.%s",
                                 parts[0], parts[1], parts[2]);
        bool found = false;
        for (size_t i = 0; pg15_ts_configs[i] && !quoted; i++)
            found |= strcmp(parts[np], pg15_ts_configs[i]) == 0;
        if (!found || (np == 1 && strcmp(parts[0], "pg_catalog") != 0))
            return invalid_value(x, name, v);
        snprintf(canon, n, "pg_catalog.%s", parts[np]);
        return 0;
    }
    if (strcmp(name, "timezone_abbreviations") == 0) {
        static const char *const sets[] = {"Default", "Australia", "India", NULL};
        for (size_t i = 0; sets[i]; i++)
            if (strcmp(v, sets[i]) == 0)
                return 0;
        return invalid_value(x, name, v);
    }
    return 1;
}

/* Any setting by its type: Boolean, integer, real, enum; a string as
 * given, unless a hook of PostgreSQL's checks it. */
static int check_generic(rl_exec *x, const pg15_setting *d, const char *typed, const char *v,
                         char *canon, size_t n)
{
    snprintf(canon, n, "%s", v);
    if (strcmp(d->vartype, "bool") == 0) {
        bool b;
        if (!parse_bool_text(v, &b))
            return rl_exec_error(x, RL_SQLSTATE_INVALID_PARAMETER_VALUE, -1,
                                 "parameter \"%s\" requires a Boolean value", typed);
        snprintf(canon, n, "%s", b ? "on" : "off");
        return 0;
    }
    if (strcmp(d->vartype, "integer") == 0 || strcmp(d->vartype, "real") == 0)
        return check_number(x, d, typed, v, canon, n);
    if (strcmp(d->vartype, "enum") == 0)
        return check_generic_enum(x, d, typed, v, canon, n);
    int rc = check_string_hook(x, d, v, canon, n);
    return rc > 0 ? 0 : rc;
}

/* 0 with *canon set to the value to keep (pg_settings' form), or -1 with
 * x->err set. typed: the name as the statement spelled it. */
static int check_value(rl_exec *x, int idx, const char *typed, const char *v, char *canon,
                       size_t n)
{
    snprintf(canon, n, "%s", v);
    if ((size_t)idx >= N_SETTINGS) /* a placeholder: any text */
        return 0;
    const pg15_setting *d = &pg15_settings[idx];
    const char *name = d->name;
    if (strcmp(name, "TimeZone") == 0)
        return check_timezone(x, v, canon, n);
    if (strcmp(name, "DateStyle") == 0)
        return check_datestyle(x, v, canon, n);
    if (strcmp(name, "IntervalStyle") == 0)
        return check_enum(x, typed, v, interval_styles, "postgres",
                          "RockLake writes intervals in the postgres style only.", canon, n);
    if (strcmp(name, "bytea_output") == 0)
        return check_enum(x, typed, v, bytea_outputs, "hex",
                          "RockLake writes bytea in the hex format only.", canon, n);
    if (strcmp(name, "extra_float_digits") == 0)
        return check_extra_float_digits(x, typed, v, canon, n);
    if (strcmp(name, "client_encoding") == 0)
        return check_client_encoding(x, v, canon, n);
    if (strcmp(name, "standard_conforming_strings") == 0)
        return check_on_only(x, typed, v,
                             "RockLake reads string literals as standard SQL only (a backslash "
                             "is an ordinary character): use E'...' for escapes.",
                             canon, n);
    return check_generic(x, d, typed, v, canon, n);
}

/* Whether the session may change the setting now, as PostgreSQL answers a
 * role that is not a superuser (is_superuser is off). */
static int check_context(rl_exec *x, int idx, const char *typed)
{
    if ((size_t)idx >= N_SETTINGS)
        return 0;
    const char *ctx = pg15_settings[idx].context;
    const char *what = strcmp(ctx, "internal") == 0     ? "cannot be changed"
                       : strcmp(ctx, "postmaster") == 0 ? "cannot be changed without restarting "
                                                          "the server"
                       : strcmp(ctx, "sighup") == 0     ? "cannot be changed now"
                       : strcmp(ctx, "backend") == 0 ||
                               strcmp(ctx, "superuser-backend") == 0
                           ? "cannot be set after connection start"
                           : NULL;
    if (what)
        return rl_exec_error(x, RL_SQLSTATE_CANT_CHANGE_RUNTIME_PARAM, -1,
                             "parameter \"%s\" %s", typed, what);
    if (strcmp(ctx, "superuser") == 0)
        return rl_exec_error(x, RL_SQLSTATE_INSUFFICIENT_PRIVILEGE, -1,
                             "permission denied to set parameter \"%s\"", typed);
    return 0;
}

/* ------------------------------------------------------------ changing */

int rl_settings_txn_read_only(rl_exec *x, bool on)
{
    rl_session *s = x->s;
    if (!on && rl_catalog_read_only(s->eng->cat)) /* a follower: PostgreSQL's hot standby */
        return rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                             "cannot set transaction read-write mode during recovery");
    if (!on && s->read_only_txn && s->snapshot_taken)
        return rl_exec_error(x, RL_SQLSTATE_ACTIVE_SQL_TRANSACTION, -1,
                             "transaction read-write mode must be set before any query");
    s->read_only_txn = on;
    s->read_only_fixed = true;
    return 0;
}

int rl_isolation_of(const char *level)
{
    return strcmp(level, "serializable") == 0      ? RL_ISO_SERIALIZABLE
           : strcmp(level, "repeatable read") == 0 ? RL_ISO_REPEATABLE_READ
                                                   : RL_ISO_READ_COMMITTED;
}

/* SET transaction_isolation = level: this transaction's level, before its
 * first query only if it changes (25001). */
static int txn_isolation_set(rl_exec *x, const char *level)
{
    rl_session *s = x->s;
    int iso = rl_isolation_of(level);
    char buf[32];
    const char *now = rl_setting_shown(s, rl_setting_index(s, "transaction_isolation"), buf,
                                       sizeof buf);
    bool same = strcmp(now, level) == 0 ||
                (iso == RL_ISO_READ_COMMITTED && strcmp(now, "read committed") == 0);
    if (!same && s->snapshot_taken)
        return rl_exec_error(x, RL_SQLSTATE_ACTIVE_SQL_TRANSACTION, -1,
                             "SET TRANSACTION ISOLATION LEVEL must be called before any query");
    s->isolation = iso;
    s->isolation_set = true;
    return 0;
}

int rl_setting_assign(rl_exec *x, int idx, const char *value, bool local)
{
    return rl_setting_assign_named(x, idx, NULL, value, local);
}

int rl_setting_assign_named(rl_exec *x, int idx, const char *typed, const char *value,
                            bool local)
{
    rl_session *s = x->s;
    assert(idx >= 0);
    const char *name = rl_setting_name(s, idx);
    char canon[256];
    if (check_context(x, idx, typed ? typed : name) < 0 ||
        check_value(x, idx, typed ? typed : name, value, canon, sizeof canon) < 0)
        return -1;
    value = canon;
    /* the running transaction's own, not a setting kept (PostgreSQL's
     * check_transaction_read_only / check_transaction_isolation) */
    if (strcmp(name, "transaction_read_only") == 0)
        return rl_settings_txn_read_only(x, strcmp(canon, "on") == 0);
    if (strcmp(name, "transaction_isolation") == 0)
        return txn_isolation_set(x, canon);
    if (save_at_start(s) < 0)
        return rl_exec_error(x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    rl_setting *st = setting_find(s, name);
    if (!st) {
        if (!(st = calloc(1, sizeof *st)))
            return rl_exec_error(x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
        snprintf(st->name, sizeof st->name, "%s", name);
        st->after_default = true;
        st->local = local;
        st->next = s->settings;
        s->settings = st;
    } else if (local && !st->local) {
        snprintf(st->after, sizeof st->after, "%s", st->value);
        st->after_default = false;
        st->local = true;
    } else if (!local) {
        st->local = false;
    }
    snprintf(st->value, sizeof st->value, "%s", value);
    rl_settings_zone_apply(s);
    return 0;
}

int rl_setting_reset_named(rl_exec *x, int idx, const char *typed)
{
    const char *name = rl_setting_name(x->s, idx);
    if (check_context(x, idx, typed ? typed : name) < 0)
        return -1;
    if (save_at_start(x->s) < 0)
        return rl_exec_error(x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    const rl_setting *client = list_find(x->s->settings_client, name);
    rl_setting *st = setting_find(x->s, name);
    if (client && st) { /* back to the client's value, for the session */
        snprintf(st->value, sizeof st->value, "%s", client->value);
        st->local = false;
    } else if (client) {
        rl_setting *c = malloc(sizeof *c);
        if (!c)
            return rl_exec_error(x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
        *c = *client;
        c->next = x->s->settings;
        x->s->settings = c;
    } else {
        remove_entry(x->s, name);
    }
    rl_settings_zone_apply(x->s);
    return 0;
}

int rl_setting_reset(rl_exec *x, int idx) { return rl_setting_reset_named(x, idx, NULL); }

int rl_settings_reset_all(rl_exec *x)
{
    if (save_at_start(x->s) < 0)
        return rl_exec_error(x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    bool ok;
    rl_setting *client = list_copy(x->s->settings_client, &ok);
    if (!ok)
        return rl_exec_error(x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    list_free(x->s->settings);
    x->s->settings = client;
    rl_settings_zone_apply(x->s);
    return 0;
}

void rl_settings_free_placeholders(rl_session *s)
{
    list_free(s->placeholders);
    list_free(s->settings_client);
    list_free(s->settings);
    s->placeholders = s->settings_client = s->settings = NULL;
    rl_tz_set_current(NULL);
}
