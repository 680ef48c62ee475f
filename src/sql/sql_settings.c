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
 * name; s->settings_saved says s->settings_at_start is the list as the
 * transaction found it (taken at its first change); entries flagged local
 * return to `after` (or to the default, after_default) when it commits.
 */
#include <assert.h>
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pgtype/pgtype.h"
#include "pgtype/tzif.h"
#include "sql/sql_settings.h"

/* PostgreSQL 15's defaults for the settings clients ask about. SHOW of
 * anything else is 42704, as in PostgreSQL. */
static const struct {
    const char *name;
    const char *value;
} setting_defaults[] = {
    {"application_name", ""},
    {"block_size", "8192"},
    {"bytea_output", "hex"},
    {"client_encoding", "UTF8"},
    {"client_min_messages", "notice"},
    {"DateStyle", "ISO, MDY"},
    {"default_table_access_method", "heap"},
    {"default_tablespace", ""},
    {"default_transaction_isolation", "read committed"},
    {"default_transaction_read_only", "off"},
    {"extra_float_digits", "1"},
    {"idle_in_transaction_session_timeout", "0"},
    {"in_hot_standby", "off"},
    {"integer_datetimes", "on"},
    {"IntervalStyle", "postgres"},
    {"is_superuser", "off"},
    {"lc_collate", "C.UTF-8"},
    {"lc_ctype", "C.UTF-8"},
    {"lock_timeout", "0"},
    {"max_connections", "100"},
    {"max_function_args", "100"},
    {"max_identifier_length", "63"},
    {"max_index_keys", "32"},
    {"search_path", "\"$user\", public"},
    {"server_encoding", "UTF8"},
    {"server_version", "15.18 (RockLake 0.1)"},
    {"server_version_num", "150018"},
    {"standard_conforming_strings", "on"},
    {"statement_timeout", "0"},
    {"TimeZone", "Etc/UTC"},
    {"transaction_isolation", "read committed"},
    {"transaction_read_only", "off"},
    {"work_mem", "4MB"},
};
#define N_SETTINGS (sizeof setting_defaults / sizeof setting_defaults[0])

size_t rl_setting_count(void) { return N_SETTINGS; }

const char *rl_setting_name(size_t idx)
{
    assert(idx < N_SETTINGS);
    return setting_defaults[idx].name;
}

int rl_setting_index(const char *name)
{
    for (size_t i = 0; i < N_SETTINGS; i++)
        if (strcasecmp(setting_defaults[i].name, name) == 0)
            return (int)i;
    return -1;
}

static rl_setting *setting_find(const rl_session *s, const char *canonical)
{
    for (rl_setting *st = s->settings; st; st = st->next)
        if (strcmp(st->name, canonical) == 0)
            return st;
    return NULL;
}

/* PostgreSQL shows time settings (stored in ms) in the largest exact unit:
 * 5000 -> "5s", 120000 -> "2min", 250 -> "250ms". */
static bool setting_is_ms(const char *name)
{
    return strcmp(name, "statement_timeout") == 0 || strcmp(name, "lock_timeout") == 0 ||
           strcmp(name, "idle_in_transaction_session_timeout") == 0;
}

static void format_ms(const char *raw, char *out, size_t n)
{
    char *end;
    long long ms = strtoll(raw, &end, 10);
    if (*end || ms == 0) {
        snprintf(out, n, "%s", raw);
        return;
    }
    if (ms % 3600000 == 0)
        snprintf(out, n, "%lldh", ms / 3600000);
    else if (ms % 60000 == 0)
        snprintf(out, n, "%lldmin", ms / 60000);
    else if (ms % 1000 == 0)
        snprintf(out, n, "%llds", ms / 1000);
    else
        snprintf(out, n, "%lldms", ms);
}

/* "5s", "2min", "250ms", "1h", "5000" -> milliseconds as text. */
static int parse_ms(const char *in, char *out, size_t n)
{
    char *end;
    double v = strtod(in, &end);
    while (*end == ' ')
        end++;
    double mult = 1;
    if (!*end || strcmp(end, "ms") == 0)
        mult = 1;
    else if (strcmp(end, "s") == 0)
        mult = 1000;
    else if (strcmp(end, "min") == 0)
        mult = 60000;
    else if (strcmp(end, "h") == 0)
        mult = 3600000;
    else if (strcmp(end, "d") == 0)
        mult = 86400000;
    else
        return -1;
    if (end == in || v < 0)
        return -1;
    snprintf(out, n, "%lld", (long long)(v * mult + 0.5));
    return 0;
}

static const char *setting_value(const rl_session *s, int idx)
{
    const char *name = setting_defaults[idx].name;
    if (strcmp(name, "transaction_isolation") == 0 && s->isolation_set)
        return s->isolation == RL_ISO_SERIALIZABLE      ? "serializable"
               : s->isolation == RL_ISO_REPEATABLE_READ ? "repeatable read"
                                                        : "read committed";
    if (strcmp(name, "transaction_isolation") == 0)
        return setting_value(s, rl_setting_index("default_transaction_isolation"));
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
    return st ? st->value : setting_defaults[idx].value;
}

const char *rl_setting_shown(const rl_session *s, int idx, char *buf, size_t n)
{
    assert(idx >= 0 && (size_t)idx < N_SETTINGS);
    const char *v = setting_value(s, idx);
    if (!setting_is_ms(setting_defaults[idx].name))
        return v;
    format_ms(v, buf, n);
    return buf;
}

int64_t rl_setting_ms(const rl_session *s, const char *name)
{
    int idx = rl_setting_index(name);
    if (idx < 0 || !setting_is_ms(setting_defaults[idx].name))
        return -1;
    const rl_setting *st = setting_find(s, setting_defaults[idx].name);
    return st ? strtoll(st->value, NULL, 10) : -1;
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
    list_free(s->settings);
    list_free(s->settings_at_start);
    s->settings = s->settings_at_start = NULL;
    s->settings_saved = false;
    rl_tz_set_current(NULL);
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

/* 0 with *canon set to the value to keep (SHOW's form), or -1 with x->err
 * set. typed: the name as the statement spelled it. */
static int check_value(rl_exec *x, const char *name, const char *typed, const char *v,
                       char *canon, size_t n)
{
    snprintf(canon, n, "%s", v);
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
    return 0;
}

/* ------------------------------------------------------------ changing */

int rl_setting_assign(rl_exec *x, int idx, const char *value, bool local)
{
    return rl_setting_assign_named(x, idx, NULL, value, local);
}

int rl_setting_assign_named(rl_exec *x, int idx, const char *typed, const char *value,
                            bool local)
{
    rl_session *s = x->s;
    assert(idx >= 0 && (size_t)idx < N_SETTINGS);
    const char *name = setting_defaults[idx].name;
    char ms[64], canon[256];
    if (setting_is_ms(name)) {
        if (parse_ms(value, ms, sizeof ms) < 0)
            return invalid_value(x, name, value);
        value = ms;
    } else {
        if (check_value(x, name, typed ? typed : name, value, canon, sizeof canon) < 0)
            return -1;
        value = canon;
    }
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

int rl_setting_reset(rl_exec *x, int idx)
{
    if (save_at_start(x->s) < 0)
        return rl_exec_error(x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    remove_entry(x->s, setting_defaults[idx].name);
    rl_settings_zone_apply(x->s);
    return 0;
}

int rl_settings_reset_all(rl_exec *x)
{
    if (save_at_start(x->s) < 0)
        return rl_exec_error(x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    list_free(x->s->settings);
    x->s->settings = NULL;
    rl_settings_zone_apply(x->s);
    return 0;
}
