/*
 * promote.h — `rocklake promote`: make a hot standby (a follower started
 * with `rocklake serve --read-only [--standby]`) the writer of its lakes.
 *
 * Owns: the command's connection to the standby and its one statement,
 * SELECT pg_promote(), which the server answers as PostgreSQL's
 * pg_promote (src/server/lakes.c, srv_lakes_promote). It needs what any
 * session that may write needs (the server's --users / --hba, a rule
 * without access=read-only); there is no unauthenticated admin channel.
 */
#ifndef ROCKLAKE_CLI_PROMOTE_H
#define ROCKLAKE_CLI_PROMOTE_H

/* Connect with libpq `conninfo` (a connection string or URI; PG*
 * environment variables fill what it leaves out), promote, and say how
 * long it took on stdout. 0 promoted, 1 failed (the server's error on
 * stderr). */
int rl_promote_run(const char *conninfo);

#endif
