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
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

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
        return s->read_only_txn || rl_catalog_read_only(s->eng->cat) ? "on" : "off";
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
}

void rl_settings_snapshot_free(rl_setting *snapshot) { list_free(snapshot); }

void rl_settings_free(rl_session *s)
{
    list_free(s->settings);
    list_free(s->settings_at_start);
    s->settings = s->settings_at_start = NULL;
    s->settings_saved = false;
}

/* ------------------------------------------------------------ changing */

int rl_setting_assign(rl_exec *x, int idx, const char *value, bool local)
{
    rl_session *s = x->s;
    assert(idx >= 0 && (size_t)idx < N_SETTINGS);
    const char *name = setting_defaults[idx].name;
    char ms[64];
    if (setting_is_ms(name)) {
        if (parse_ms(value, ms, sizeof ms) < 0)
            return rl_exec_error(x, RL_SQLSTATE_INVALID_PARAMETER_VALUE, -1,
                                 "invalid value for parameter \"%s\": \"%s\"", name, value);
        value = ms;
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
    return 0;
}

int rl_setting_reset(rl_exec *x, int idx)
{
    if (save_at_start(x->s) < 0)
        return rl_exec_error(x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    remove_entry(x->s, setting_defaults[idx].name);
    return 0;
}

int rl_settings_reset_all(rl_exec *x)
{
    if (save_at_start(x->s) < 0)
        return rl_exec_error(x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    list_free(x->s->settings);
    x->s->settings = NULL;
    return 0;
}
