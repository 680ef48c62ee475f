/*
 * promote.c — `rocklake promote` (see promote.h).
 *
 * Invariants: one connection, one statement; the exit code says whether
 * the server answered pg_promote() with true (a server that is already a
 * writer answers 55000 "recovery is not in progress": exit 1, as the
 * promotion did not happen here).
 */
#include "cli/promote.h"

#include <libpq-fe.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

int rl_promote_run(const char *conninfo)
{
    PGconn *pg = PQconnectdb(conninfo);
    if (PQstatus(pg) != CONNECTION_OK) {
        fprintf(stderr, "rocklake promote: cannot connect: %s", PQerrorMessage(pg));
        PQfinish(pg);
        return 1;
    }
    double t0 = now_ms();
    PGresult *r = PQexec(pg, "SELECT pg_catalog.pg_promote()");
    double ms = now_ms() - t0;
    int rc = 1;
    if (PQresultStatus(r) != PGRES_TUPLES_OK) {
        const char *hint = PQresultErrorField(r, PG_DIAG_MESSAGE_HINT);
        fprintf(stderr, "rocklake promote: %s", PQresultErrorMessage(r));
        if (hint && strstr(hint, "during recovery"))
            fprintf(stderr, "  (the server at %s:%s is a writer already, not a standby)\n",
                    PQhost(pg), PQport(pg));
    } else if (PQntuples(r) == 1 && strcmp(PQgetvalue(r, 0, 0), "t") == 0) {
        printf("promoted %s:%s in %.0f ms: it is the writer of its lakes now\n", PQhost(pg),
               PQport(pg), ms);
        rc = 0;
    } else {
        fprintf(stderr, "rocklake promote: the server did not promote\n");
    }
    PQclear(r);
    PQfinish(pg);
    return rc;
}
