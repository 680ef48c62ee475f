/*
 * sql_pgcatalog.h — pg_catalog and information_schema relations
 * (sql_pgcatalog.c), private to src/sql/: their ids, oids, columns, rows,
 * and the fingerprint of the pure ones.
 */
#ifndef ROCKLAKE_SQL_PGCATALOG_H
#define ROCKLAKE_SQL_PGCATALOG_H

#include "sql/sql_exec.h"
#include "sql/sql_value.h"

/* Free a session's pg_catalog table list (sql_pgcatalog.c). */
void rl_pgcatalog_cache_free(struct rl_pgc_tables *c);
/* Forget the session's kept fingerprint (its transactions ended). */
void rl_pgcatalog_memo_free(rl_session *s);
/* Virtual relation id for pg_catalog.<name> / information_schema.<name>,
 * or -1. */
int rl_pgcatalog_find(const char *schema, const char *name);
const char *rl_pgcatalog_schema(int id);
/* Generate the rows of virtual relation id (reflecting the catalog as this
 * transaction sees it, so a table created a moment ago is listed) into
 * `dst` (rl_relation_shape's columns, or a
 * subset of them in any order: dst column j is the relation's column
 * attnum - 1, or the row's ctid for RL_CTID_ATTNUM), leaving out rows
 * outside `keys` where it can and every row `filter` drops (both may be
 * NULL). Strings of the fixed (system) rows live as long as the process
 * and are not copied. 0, or -1 with x's error set. */
int rl_pgcatalog_fill(rl_exec *x, int id, const rl_scan_keys *keys, const rl_row_filter *filter,
                      rl_rowset *dst);
/* The oid of a relation / namespace, used consistently by pg_class,
 * pg_attribute, RowDescription and to_regclass: PostgreSQL 15's real oid for
 * its own (pg_catalog / information_schema), else a stable pseudo-oid. */
uint32_t rl_pgcatalog_rel_oid(const char *schema, const char *name);
uint32_t rl_pgcatalog_namespace_oid(const char *schema);
/* The session's temporary schema pg_temp_N (pg_my_temp_schema): its oid
 * while the session has a temporary table or sequence, else 0. */
uint32_t rl_pgcatalog_temp_namespace(rl_exec *x);
/* Does schema name the session's temporary schema: pg_temp, or its
 * pg_temp_N while it has one (PostgreSQL reads both as the same)? */
bool rl_pgcatalog_is_temp_schema(rl_exec *x, const char *schema);
/* Columns of a virtual relation without generating its rows (no rows). */
rl_rowset *rl_pgcatalog_columns(int id);
/* Are virtual relation id's rows a function of the lake's schemas and
 * tables alone (false: they also show the session, e.g. pg_settings)? */
bool rl_pgcatalog_pure(int id);
/* Append to `out` every input of the pure relations' rows as this
 * transaction sees them: two answers with equal bytes are equal. 0, or -1
 * with x's error set. */
int rl_pgcatalog_fingerprint(rl_exec *x, rl_buf *out);


/* Catalog questions of the built-in functions (sql_func.c), by oid. */
/* The lake table whose row type is oid: 1 with its schema and name
 * (64 bytes each), 0 none, -1 error. */
int rl_pgcatalog_rowtype_table(rl_exec *x, uint32_t oid, char *schema, char *name);
/* pg_table_is_visible / pg_type_is_visible: 1 visible, 0 not, 2 no such
 * object, -1 error (x's error set). */
int rl_pgcatalog_rel_visible(rl_exec *x, uint32_t oid);
int rl_pgcatalog_type_visible(rl_exec *x, uint32_t oid);
/* pg_collation_is_visible's answer: 1 visible, 2 no such collation. */
int rl_pgcatalog_collation_visible(uint32_t oid);
/* A role's name (the bootstrap superuser is the session's user), or NULL. */
const char *rl_pgcatalog_role_name(rl_exec *x, uint32_t oid);
/* Roles and privileges (has_*_privilege, pg_has_role). The oid of the
 * role named `name`: 1 (*oid set), 0 no such role. */
int rl_pgcatalog_role_oid(rl_exec *x, const char *name, uint32_t *oid);
/* The session's database's oid (pg_database's one row). */
uint32_t rl_pgcatalog_database_oid(rl_exec *x);
/* pg_database.oid of the database `name` (rl_engine.database_oid). */
uint32_t rl_pgcatalog_database_oid_of(const char *name);
/* The session's role (current_user's oid). */
uint32_t rl_pgcatalog_current_role(rl_exec *x);
typedef enum rl_acl_object { RL_ACL_TABLE, RL_ACL_SCHEMA, RL_ACL_DATABASE } rl_acl_object;
enum {
    RL_ACL_SELECT = 1 << 0, RL_ACL_INSERT = 1 << 1, RL_ACL_UPDATE = 1 << 2,
    RL_ACL_DELETE = 1 << 3, RL_ACL_TRUNCATE = 1 << 4, RL_ACL_REFERENCES = 1 << 5,
    RL_ACL_TRIGGER = 1 << 6, RL_ACL_USAGE = 1 << 7, RL_ACL_CREATE = 1 << 8,
    RL_ACL_CONNECT = 1 << 9, RL_ACL_TEMPORARY = 1 << 10,
    RL_ACL_GRANT_OPTION = 1 << 15 /* asked WITH GRANT OPTION */
};
/* Does `role` hold any of `privs` on the object (a relation's oid, a
 * schema's oid, the database)? 1 yes, 0 no, 2 no such relation, -1 error. */
int rl_pgcatalog_privilege(rl_exec *x, uint32_t role, rl_acl_object kind, uint32_t oid,
                           unsigned privs);
/* Is `role` a superuser (the owner, a login role that may write)? */
bool rl_pgcatalog_role_super(rl_exec *x, uint32_t role);
/* Is `member` a member of `role` (superusers are of every role)? */
bool rl_pgcatalog_role_member(rl_exec *x, uint32_t member, uint32_t role);
/* The default operator class of a lake column's type for index access
 * method `method` (rl_index_method), or 0 if it has none. */
uint32_t rl_pgcatalog_opclass(uint32_t type_oid, int method);
/* format_type(oid, typmod) into buf ("???" for no such type); typmod -1 is
 * none given (format_type_be). */
void rl_pgcatalog_format_type(rl_exec *x, uint32_t oid, int32_t typmod, char *buf, size_t n);
/* The same with the typmod given (format_type_with_typemod, format_type's
 * second argument not NULL): bpchar without one is "bpchar", not the
 * "character" that reads as character(1). */
void rl_pgcatalog_format_type_typmod(rl_exec *x, uint32_t oid, int32_t typmod, char *buf,
                                     size_t n);
/* A pg_proc row captured from PostgreSQL 15 (an aggregate or window
 * function the engine computes, prokind 'a' / 'w', or a cast function,
 * prokind 'f'): 1 with its result and up to 8 argument types, and whether
 * it is an ordered-set aggregate (its last argument is the aggregated one:
 * ORDER BY); 0 when oid is none. */
int rl_pgcatalog_captured_proc(uint32_t oid, uint32_t *rettype, uint32_t *argtypes, size_t *nargs,
                               bool *ordered_set);
/* A one-argument cast function pg_cast names (int4(bigint), text(boolean),
 * ...; not one of the function table's) taking exactly argtype: 1 with the
 * type it casts to (calling it is that cast), 0 for none. */
int rl_pgcatalog_castproc(const char *name, uint32_t argtype, uint32_t *rettype);
/* ts_token_type(parser)'s i-th row (from 0; PostgreSQL 15's, captured):
 * 1 with its tokid, alias and description, 0 past the last. */
int rl_pgcatalog_token_type(uint32_t parser, size_t i, int32_t *tokid, const char **alias,
                            const char **description);
/* A text search parser's oid by its name (0: none), and whether an oid is
 * one (pg_ts_parser: PostgreSQL 15's "default" only). */
uint32_t rl_pgcatalog_ts_parser_oid(const char *name);
bool rl_pgcatalog_ts_parser_exists(uint32_t oid);
/* Whether pg_catalog has a type of that typname (int4, bpchar, point:
 * PostgreSQL 15's, whether or not the engine has it). */
bool rl_pgcatalog_type_named(const char *name);
/* pg_<object>_is_visible of an object of catalog `catalog` (pg_operator,
 * pg_opclass, or a captured one: pg_opfamily, pg_conversion, ...): 1
 * visible (they are all in pg_catalog), 2 no such object. */
int rl_pgcatalog_object_visible(const char *catalog, uint32_t oid);
/* pg_get_functiondef of a function pg_proc lists: 1 with *text its
 * definition, 2 an aggregate (*text: its name), 0 no such function. */
int rl_pgcatalog_functiondef(uint32_t oid, const char **text);
/* pg_get_function_sqlbody: a function's SQL-standard body, or NULL. */
const char *rl_pgcatalog_function_sqlbody(uint32_t oid);
/* PostgreSQL's own comment on object oid of catalog classoid (0: any), or NULL. */
const char *rl_pgcatalog_description(uint32_t oid, uint32_t classoid);
/* The lake's comment (COMMENT ON) on object oid of catalog classoid (0:
 * any), column subid (0: the object itself): 1 with *out (malloc'd), 0
 * none, -1 error. */
int rl_pgcatalog_lake_description(rl_exec *x, uint32_t oid, uint32_t classoid, int32_t subid,
                                  char **out);
/* pg_get_indexdef / pg_get_constraintdef of the lake's primary keys: 1
 * (into buf), 0 no such object, -1 error. */
int rl_pgcatalog_indexdef(rl_exec *x, uint32_t oid, int col, bool pretty, char *buf, size_t n);
/* Room for any pg_get_indexdef text of a lake index. */
#define RL_INDEXDEF_MAX (RL_INDEX_TEXT_MAX + RL_INDEX_MAX_KEYS * (RL_INDEX_NAME_MAX * 2 + 24) + 512)
/* pg_get_expr of a lake index's pg_index.indpred value (tree): its
 * predicate's text, plain or pretty, into buf: 1, 0 not such a value (or
 * the index is gone), -1 error. */
int rl_pgcatalog_index_expr(rl_exec *x, const char *tree, bool pretty, char *buf, size_t n);
int rl_pgcatalog_constraintdef(rl_exec *x, uint32_t oid, bool pretty, char *buf, size_t n);
/* pg_get_expr of a column default's adbin (its plain text) on relation
 * relid: *out the default's plain or `pretty` text (relid's own default
 * first; borrowed until the transaction's next DDL). 1 found, 0 no default
 * has that text (not an adbin the lake made), -1 error. */
int rl_pgcatalog_default_expr(rl_exec *x, uint32_t relid, const char *plain, bool pretty,
                              const char **out);
/* The attnums of relation reloid's primary key (a system catalog's or a
 * lake table's) into attnums[cap]: how many, 0 when it has none, -1 on a
 * failed catalog read (x->err). */
int rl_pgcatalog_primary_key(rl_exec *x, uint32_t reloid, int16_t *attnums, size_t cap);
/* reg* output: the name of object `oid` of reg type `type` as PostgreSQL
 * prints it ("-" for 0): 1 (into buf), 0 no such object (the caller prints
 * the number), -1 error. */
int rl_pgcatalog_reg_name(rl_exec *x, uint32_t type, uint32_t oid, char *buf, size_t n);
/* A qualified name as stringToQualifiedNameList reads it
 * (SplitIdentifierString): names separated by '.', blanks around each,
 * "quoted" (a doubled quote is one) or lower-cased, each cut to 63 bytes.
 * n counts every name; the first RL_QNAME_MAX are kept. */
#define RL_QNAME_MAX 4
typedef struct rl_qualified_name {
    char part[RL_QNAME_MAX][64];
    int n;
} rl_qualified_name;
/* 1, or 0 when p[0..len) is no such list ("invalid name syntax"). */
int rl_qualified_name_split(const char *p, size_t len, rl_qualified_name *q);
/* Its names joined by '.' (NameListToString) into buf[n]. */
void rl_qualified_name_text(const rl_qualified_name *q, char *buf, size_t n);
/* The function pg_proc lists as name(argtypes[0..nargs)) (nargs -1: of
 * any arguments): 1 with *oid and *prokind ('f', 'a', 'w'), 0 none, 2
 * more than one (the first's set). */
int rl_pgcatalog_find_proc(const char *name, int nargs, const uint32_t *argtypes, uint32_t *oid,
                           char *prokind);
/* relkind of one of PostgreSQL's own relations (pg_class's captured rows),
 * 0 for any other oid. */
char rl_pgcatalog_relkind(uint32_t oid);
/* Does schema exist (PostgreSQL's or the lake's)? 1, 0, -1 error. */
int rl_pgcatalog_schema_exists(rl_exec *x, const char *schema);
/* The oid of the lake's primary-key index schema.name (schema NULL: on
 * the search path): 1, 0 none, -1 error. */
int rl_pgcatalog_index_oid(rl_exec *x, const char *schema, const char *name, uint32_t *oid);
/* reg* input (regtype, regnamespace, regrole, regproc, regprocedure) of the name
 * p[0..len): 1 (*oid set), 0 no such object, -1 error (x's error set), -2
 * more than one function of that name, -3 regprocedure without "(", -4
 * malformed name. Errors raised here are at `loc`. */
int rl_pgcatalog_reg_oid(rl_exec *x, uint32_t type, const char *p, size_t len, uint32_t *oid,
                         int loc);

#endif
