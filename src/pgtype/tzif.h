/*
 * tzif.h — time zones as PostgreSQL 15 applies them: IANA zones read from
 * the system's compiled tzdata (TZif files under /usr/share/zoneinfo, the
 * copy PostgreSQL on Debian reads too: --with-system-tzdata), POSIX TZ
 * specs ("UTC+3", "EST5EDT", "<+05:30>-05:30") and fixed offsets.
 *
 * Owns: the TZif parser (version 2+ 64-bit data and the POSIX TZ footer
 * for instants after the last transition), the POSIX TZ rule, the UTC
 * offset at an instant, the offset of a local time (PostgreSQL's choice in
 * a DST gap or overlap), the zone names PostgreSQL takes (case-blind, shown
 * in tzdata's spelling), the per-process cache of loaded zones, and the
 * calling thread's session zone that timestamptz text I/O follows.
 *
 * Invariants: a zone once loaded is never freed or changed, so a pointer
 * to one stays valid for the life of the process and may be shared by
 * threads; malformed TZif bytes are refused whole (rl_tz_parse), never
 * read past their length; the cache is bounded (RL_TZ_CACHE_MAX zones).
 */
#ifndef ROCKLAKE_TZIF_H
#define ROCKLAKE_TZIF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct rl_tz rl_tz;

#define RL_TZ_CACHE_MAX 4096
#define RL_TZ_NAME_MAX 255

/* A zone from TZif bytes p[0..len); NULL with err set when they are not a
 * well-formed TZif file of this reader's limits (versions 1 to 4, at most
 * 4096 transitions and 256 types, offsets within a week, no leap seconds,
 * a footer that is a POSIX TZ string). The result is the caller's
 * (rl_tz_free); name is kept for rl_tz_name. */
rl_tz *rl_tz_parse(const uint8_t *p, size_t len, const char *name, char *err, size_t errlen);

/* A zone from a POSIX TZ spec ("EST5EDT,M3.2.0,M11.1.0", "UTC+3", "<+05>-5");
 * a spec with a daylight name but no rule gets the US rules
 * (",M3.2.0,M11.1.0"), as PostgreSQL's tzparse does. NULL if malformed. */
rl_tz *rl_tz_from_posix(const char *spec, const char *name);

void rl_tz_free(rl_tz *tz);

/* The zone's name as SHOW TimeZone gives it. */
const char *rl_tz_name(const rl_tz *tz);

/* UTC, the zone of a session that set none (never NULL). */
const rl_tz *rl_tz_utc(void);

/* The zone PostgreSQL's SET TimeZone = name gives: a file of the zone
 * directory matched case-blind (canonical: the file's own spelling), else
 * a POSIX TZ spec (canonical: as written). Cached; NULL when it is neither
 * (or the cache is full). */
const rl_tz *rl_tz_lookup(const char *name);

/* The zone of a fixed offset east of UTC in seconds (SET TIME ZONE 3,
 * INTERVAL '...'), named as PostgreSQL names it ("<+03>-03",
 * "<+05:30>-05:30"). Cached; NULL when |east| is past 168 hours. */
const rl_tz *rl_tz_fixed(int32_t east);

/* A fixed-offset abbreviation of PostgreSQL's Default timezone_abbreviations
 * set (the common ones: "CET" is +01:00 all year, "EST", "PST", "JST", ...),
 * case-blind: true with *east its offset. What AT TIME ZONE and date/time
 * input try before a zone name. */
bool rl_tz_abbrev(const char *name, int32_t *east);

/* The offset east of UTC (seconds) in effect at unix time t, and whether
 * it is daylight time and its abbreviation (either may be NULL). */
int32_t rl_tz_offset_at(const rl_tz *tz, int64_t t, bool *isdst, const char **abbrev);

/* Does the zone keep one offset at every instant (all its local time types
 * and its rule's std and dst agree, as pg_get_timezone_offset asks)? Then
 * *east is it. A time with time zone needs a date to name any other zone. */
bool rl_tz_fixed_offset(const rl_tz *tz, int32_t *east);

/* The offset east of UTC a local wall-clock time (unix seconds read as if
 * UTC) is taken to have, as PostgreSQL's DetermineTimeZoneOffset decides:
 * in a spring-forward gap the offset before the change, in a fall-back
 * overlap the offset after it. */
int32_t rl_tz_offset_of_local(const rl_tz *tz, int64_t local, bool *isdst);

/* The zone timestamptz text I/O of the calling thread follows (UTC until
 * set): the SQL layer sets it to the session's at each statement. */
const rl_tz *rl_tz_current(void);
void rl_tz_set_current(const rl_tz *tz);

/* Microseconds since 2000-01-01 (PostgreSQL's timestamps): a UTC instant
 * to the zone's wall clock (*east: its offset), and a wall-clock time to
 * the UTC instant (PostgreSQL's gap/overlap rule). Infinities pass. */
int64_t rl_tz_utc_to_local_us(const rl_tz *tz, int64_t utc_us, int32_t *east);
int64_t rl_tz_local_to_utc_us(const rl_tz *tz, int64_t local_us, int32_t *east);

#endif
