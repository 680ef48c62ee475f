/*
 * sql_settings.h — the session's configuration parameters (sql_settings.c),
 * private to src/sql/: the settings RockLake knows (PostgreSQL 15's
 * defaults), their SHOW form, SET / SET LOCAL / RESET, and how they follow
 * the transaction (undone by ROLLBACK, SET LOCAL ending with it).
 */
#ifndef ROCKLAKE_SQL_SETTINGS_H
#define ROCKLAKE_SQL_SETTINGS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "sql/sql_exec.h"

/* The settings: PostgreSQL 15's (src/sql/pg15_settings.inc, indexes 0 ..
 * rl_setting_count() - 1), then the session's custom placeholders (names
 * with a dot, made by their first SET / set_config). The canonical name of
 * one, and the index of a name (case-insensitive, PostgreSQL's old names
 * sort_mem and vacuum_mem too; -1 when there is none). */
size_t rl_setting_count(void);
const char *rl_setting_name(const rl_session *s, int idx);
int rl_setting_index(const rl_session *s, const char *name);
/* The index SET / RESET / set_config change: a known setting, else a new
 * placeholder for a valid custom name; -1 with x->err: 42704 for an unknown
 * name without a dot, 42602 for an invalid custom name. */
int rl_setting_lookup_for_set(rl_exec *x, const char *name);
/* The index SHOW / current_setting read: -1 with x->err (42704 unknown,
 * 42501 a superuser-only setting), -2 for an unknown name when missing_ok. */
int rl_setting_lookup_for_show(rl_exec *x, const char *name, bool missing_ok);
/* Whether SET takes a list of values for the name (search_path, DateStyle,
 * ...: 1), and quotes each text of it as an identifier (search_path: 2);
 * any other name, known or not, takes one value (0; two are 22023). */
int rl_setting_takes_list(const rl_session *s, const char *name);
/* Whether a session may SET it (context "user", or a placeholder). */
bool rl_setting_user_settable(int idx);

/* A setting's pg_settings row (false: pg_settings does not list it for a
 * role that is not a superuser); `shown` is SHOW's text, which may point
 * into buf. */
typedef struct rl_setting_info {
    const char *name, *setting, *shown, *unit, *category, *short_desc, *extra_desc, *context,
        *vartype, *source, *min_val, *max_val, *enumvals, *boot_val, *reset_val;
} rl_setting_info;
bool rl_setting_row(const rl_session *s, size_t idx, rl_setting_info *out, char *buf, size_t n);

/* The value as SHOW and current_setting() give it (numbers with a unit in
 * their largest exact unit, "4MB", "5s"); may point into buf. */
const char *rl_setting_shown(const rl_session *s, int idx, char *buf, size_t n);
/* A time setting in milliseconds, -1 when unset or not a time setting. */
int64_t rl_setting_ms(const rl_session *s, const char *name);

/* SET [LOCAL] (local: until the transaction ends), RESET, RESET ALL, with
 * PostgreSQL's checks: the setting's context (55P02 for one only the
 * server sets, 42501 for a superuser's), its value by type (Boolean
 * spellings, numbers with units rounded to the base unit within min_val ..
 * max_val, enum values and their hidden spellings: 22023). Each change is
 * undone if the transaction rolls back. A setting RockLake does not act on
 * is kept for the session and shown back. */
int rl_setting_assign(rl_exec *x, int idx, const char *value, bool local);
/* The same, naming the setting as the statement spelled it (`typed`) in
 * the errors PostgreSQL words that way. Settings that change how values
 * are written or read (TimeZone, DateStyle, IntervalStyle, bytea_output,
 * extra_float_digits, client_encoding, standard_conforming_strings) take
 * the values RockLake writes and reads by (stored as SHOW gives them) and
 * refuse the others with 0A000, and PostgreSQL's invalid values with its
 * 22023. */
int rl_setting_assign_named(rl_exec *x, int idx, const char *typed, const char *value,
                            bool local);
int rl_setting_reset(rl_exec *x, int idx);
int rl_setting_reset_named(rl_exec *x, int idx, const char *typed);
int rl_settings_reset_all(rl_exec *x);

/* The transaction ended: a rollback restores the settings it found, a
 * commit ends its SET LOCALs. */
void rl_settings_txn_end(rl_session *s, bool committed);
/* SET TRANSACTION READ ONLY / READ WRITE, SET transaction_read_only: this
 * transaction's mode; READ WRITE after its first query in READ ONLY is
 * 25001, as PostgreSQL's check_transaction_read_only. 0 or -1. */
int rl_settings_txn_read_only(rl_exec *x, bool on);
/* The isolation level a level's name selects (RL_ISO_*): READ UNCOMMITTED
 * (and any other name) is READ COMMITTED, as in PostgreSQL. */
int rl_isolation_of(const char *level);
/* A savepoint's copy of the settings, and ROLLBACK TO's restore of it. */
rl_setting *rl_settings_snapshot(const rl_session *s, bool *ok);
void rl_settings_restore(rl_session *s, const rl_setting *snapshot);
void rl_settings_snapshot_free(rl_setting *snapshot);
/* Makes the session's TimeZone the calling thread's zone (tzif.h) that
 * timestamptz text I/O and the datetime functions follow: at each
 * statement's start (sessions may share a thread) and after each change. */
void rl_settings_zone_apply(const rl_session *s);
/* Everything (DISCARD ALL, the session's end). */
void rl_settings_free(rl_session *s);
/* What is left at the session's end: the settings, the client's and the
 * placeholders (DISCARD ALL keeps a placeholder once made, as PostgreSQL,
 * and returns the settings to the client's). */
void rl_settings_free_placeholders(rl_session *s);
/* The session's settings now are the client's (rl_session_settings_from_client). */
void rl_settings_mark_client(rl_session *s);

#endif
