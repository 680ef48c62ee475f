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

/* The known settings: how many, the canonical name of one, and the index of
 * a name (case-insensitive; -1 when RockLake does not know it: 42704). */
size_t rl_setting_count(void);
const char *rl_setting_name(size_t idx);
int rl_setting_index(const char *name);

/* The value as SHOW and current_setting() give it (time settings in their
 * largest exact unit); may point into buf. */
const char *rl_setting_shown(const rl_session *s, int idx, char *buf, size_t n);
/* A time setting in milliseconds, -1 when unset or not a time setting. */
int64_t rl_setting_ms(const rl_session *s, const char *name);

/* SET [LOCAL] (local: until the transaction ends), RESET, RESET ALL; 22023
 * for a time setting's bad value. Each change is undone if the transaction
 * rolls back. */
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
int rl_settings_reset_all(rl_exec *x);

/* The transaction ended: a rollback restores the settings it found, a
 * commit ends its SET LOCALs. */
void rl_settings_txn_end(rl_session *s, bool committed);
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

#endif
