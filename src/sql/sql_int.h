/*
 * sql_int.h — every private header of the SQL engine at once, for the
 * engine's tests (tests/test_sql_*.c), which reach into all of it. The
 * engine's own files include only the parts they use:
 *
 *   sql_value.h      values, row sets, the result budget, key sets, row filters
 *   sql_exec.h       engine/session structs, the execution context (rl_exec)
 *   sql_parse.h      parse trees, the running statement's constants, tree walks
 *   sql_lakes.h      which lake a statement runs on
 *   sql_ctid.h       ctids
 *   sql_pgcatalog.h  pg_catalog / information_schema relations
 *   sql_relation.h   relations and the resolution of their names
 *   sql_cast.h       the evaluation context, values of a type, casts
 *   sql_scan.h       scans, heap order, row streams, EXPLAIN
 *   sql_resultkey.h  the key of a SELECT's kept answer
 *   sql_expr.h       expressions
 *   sql_select.h     SELECT and VALUES
 *   sql_stmt.h       parameters, DML, DDL, COPY: what sql.c dispatches to
 *
 * (the wire layer sees only sql.h).
 */
#ifndef ROCKLAKE_SQL_INT_H
#define ROCKLAKE_SQL_INT_H

#include "sql/sql_array.h"
#include "sql/sql_cast.h"
#include "sql/sql_check.h"
#include "sql/sql_ctid.h"
#include "sql/sql_cursor.h"
#include "sql/sql_exec.h"
#include "sql/sql_expr.h"
#include "sql/sql_func.h"
#include "sql/sql_lakes.h"
#include "sql/sql_parse.h"
#include "sql/sql_pgcatalog.h"
#include "sql/sql_relation.h"
#include "sql/sql_resultkey.h"
#include "sql/sql_scan.h"
#include "sql/sql_select.h"
#include "sql/sql_stmt.h"
#include "sql/sql_timetravel.h"
#include "sql/sql_value.h"
#include "sql/sql_window.h"

#endif
