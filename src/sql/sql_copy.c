/*
 * sql_copy.c — COPY: TO STDOUT and FROM STDIN in the binary, text and CSV
 * formats with PostgreSQL's options (DELIMITER, NULL, HEADER [MATCH],
 * QUOTE, ESCAPE, FORCE_QUOTE), plus the binary receive of a single SQL
 * value (shared with Bind);
 * the binary send form is sql_value.c's (rl_value_encode_binary).
 *
 * Owns: struct rl_copy_in (the state of a COPY FROM STDIN between CopyData
 * messages), the COPY stream framing, and the binary input of the SQL
 * layer's own types (oid and reg*, name, "char", tid); every rl_type's
 * binary form is pgtype.c's (postgres_scanner.md §8).
 *
 * Invariants:
 *  - COPY TO: every CopyData chunk holds whole rows (DuckDB's binary reader
 *    parses each CopyData buffer on its own and fails on a split tuple); the
 *    19-byte header rides in the first chunk, the int16 -1 trailer in the
 *    last, so an empty result is one 21-byte chunk, as PostgreSQL sends it.
 *  - COPY FROM: a tuple (binary), line (text) or record (CSV, whose quoted
 *    fields may hold newlines) MAY span CopyData messages; bytes are
 *    buffered until a whole one is there, and only whole tuples are
 *    inserted. Decoders never read past the bytes they were given.
 *  - After an error the COPY is dead: later data is ignored and
 *    rl_copy_in_done reports the same error again (the caller then fails
 *    the statement, and in a block the transaction).
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "pgtype/pgtype.h"
#include "sql/sql_cast.h"
#include "sql/sql_exec.h"
#include "sql/sql_parse.h"
#include "sql/sql_relation.h"
#include "sql/sql_scan.h"
#include "sql/sql_select.h"
#include "sql/sql_stmt.h"
#include "sql/sql_value.h"
#include "base/utf8.h"

#define COPY_CHUNK (64u * 1024)
#define COPY_MAX_PENDING (1024u * 1024 * 1024) /* one tuple may not exceed 1 GiB */

static const uint8_t copy_signature[11] = {'P', 'G', 'C', 'O', 'P', 'Y', '\n', 0xff, '\r', '\n', 0};

/* ================================================== binary value decoding */

/* PostgreSQL rejects text that is not valid in the server encoding (UTF8),
 * NUL included, with 22021 naming the offending bytes (utf8.h). */
static int check_utf8(rl_exec *x, const uint8_t *p, size_t n)
{
    return rl_utf8_check(x->err, p, n);
}

static int bad_binary(rl_exec *x)
{
    return rl_exec_error(x, RL_SQLSTATE_INVALID_BINARY_REPRESENTATION, -1,
                         "incorrect binary data format");
}

/* Fixed-size types: PostgreSQL reads past a short field ("insufficient data
 * left in message", 08P01) and complains about leftovers (22P03). */
static int need_len(rl_exec *x, size_t len, size_t need)
{
    if (len < need)
        return rl_exec_error(x, RL_SQLSTATE_PROTOCOL_VIOLATION, -1,
                             "insufficient data left in message");
    if (len > need)
        return bad_binary(x);
    return 0;
}

static int decode_string(rl_exec *x, uint32_t oid, const uint8_t *p, size_t len,
                         rl_arena *arena, rl_value *out)
{
    if (oid != RL_OID_BYTEA && check_utf8(x, p, len) < 0)
        return -1;
    uint8_t *s = rl_arena_dup(arena, p, len ? len : 1);
    if (!s)
        return rl_exec_error(x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    out->d.v.s.p = s;
    out->d.v.s.len = len;
    return 0;
}

int rl_value_from_binary(rl_exec *x, uint32_t oid, int32_t typmod, const uint8_t *p,
                         size_t len, rl_arena *arena, rl_value *out)
{
    memset(out, 0, sizeof *out);
    out->oid = oid;
    out->typmod = typmod;
    rl_datum *d = &out->d;
    switch (oid) {
    case RL_OID_OID:
    case RL_OID_REGCLASS:
    case RL_OID_REGPROC:
    case RL_OID_REGPROCEDURE:
    case RL_OID_REGTYPE:
    case RL_OID_REGNAMESPACE:
    case RL_OID_REGROLE:
    case RL_OID_REGDICTIONARY:
        if (need_len(x, len, 4) < 0)
            return -1;
        d->v.i = (int64_t)rl_load_be32(p);
        return 0;
    case RL_OID_XID8:
        if (need_len(x, len, 8) < 0)
            return -1;
        d->v.i = (int64_t)rl_load_be64(p);
        return 0;
    case RL_OID_TID:
        if (need_len(x, len, 6) < 0)
            return -1;
        d->v.i = (int64_t)((uint64_t)rl_load_be32(p) << 16 | (uint64_t)(p[4] << 8 | p[5]));
        return 0;
    case RL_OID_NAME:
    case RL_OID_CHAR:
    case RL_OID_UNKNOWN:
        return decode_string(x, oid, p, len, arena, out);
    default:
        break;
    }
    rl_type t = rl_oid_type(oid);
    if (t == RL_T_INVALID)
        return rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                             "binary input of type %s is not supported", rl_oid_type_name(oid));
    rl_buf tmp;
    rl_buf_init(&tmp, 0);
    char msg[256] = "";
    const char *sqlstate = NULL;
    if (rl_datum_from_binary(t, p, len, d, &tmp, msg, sizeof msg, &sqlstate) != RL_CODEC_OK) {
        rl_buf_free(&tmp);
        return rl_exec_error(x, sqlstate, -1, "%s", msg);
    }
    if (t == RL_T_TEXT || t == RL_T_VARCHAR || t == RL_T_BPCHAR || t == RL_T_BYTEA) {
        /* the datum borrows p: client text must be UTF-8, then it is copied */
        rl_buf_free(&tmp);
        return decode_string(x, oid, d->v.s.p, d->v.s.len, arena, out);
    }
    int rc = 0;
    if (t == RL_T_NUMERIC) {
        /* the datum points into tmp: move its bytes to the arena */
        uint8_t *s = rl_arena_dup(arena, d->v.s.len ? d->v.s.p : (const uint8_t *)"",
                                  d->v.s.len ? d->v.s.len : 1);
        if (!s)
            rc = rl_exec_error(x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
        else
            d->v.s.p = s;
    }
    rl_buf_free(&tmp);
    return rc;
}

/* ===================================================================== options */

typedef struct copy_opts {
    int binary;          /* 1 binary, 0 text or CSV */
    bool csv;
    char delim, quote, escape;
    int header;          /* 0 none, 1 a header line, 2 (FROM) one that must name the columns */
    bool force_quote_all;
    PgQuery__Node *const *force_quote; /* FORCE_QUOTE (columns): names, borrowed (TO only) */
    size_t n_force_quote;
    const char *null_str; /* borrowed from the parse tree */
} copy_opts;

static const char *defelem_str(const PgQuery__DefElem *de)
{
    const PgQuery__Node *a = de->arg;
    if (!a)
        return NULL;
    if (a->node_case == PG_QUERY__NODE__NODE_STRING)
        return a->string->sval;
    if (a->node_case == PG_QUERY__NODE__NODE_A_CONST &&
        rl_const(a->a_const)->val_case == PG_QUERY__A__CONST__VAL_SVAL)
        return rl_const(a->a_const)->sval->sval;
    return NULL;
}

/* HEADER's value as PostgreSQL reads a Boolean option (or "match"): 0, 1,
 * 2 for match, -1 with 42601. */
static int header_value(rl_exec *x, const PgQuery__DefElem *de)
{
    const PgQuery__Node *a = de->arg;
    if (!a)
        return 1;
    if (a->node_case == PG_QUERY__NODE__NODE_BOOLEAN)
        return a->boolean->boolval ? 1 : 0;
    if (a->node_case == PG_QUERY__NODE__NODE_INTEGER && (a->integer->ival == 0 || a->integer->ival == 1))
        return a->integer->ival;
    const char *v = defelem_str(de);
    static const char *const yes[] = {"true", "on", "yes", "1"}, *const no[] = {"false", "off", "no", "0"};
    for (size_t i = 0; v && i < 4; i++) {
        if (strcasecmp(v, yes[i]) == 0)
            return 1;
        if (strcasecmp(v, no[i]) == 0)
            return 0;
    }
    if (v && strcasecmp(v, "match") == 0)
        return 2;
    return rl_exec_error(x, RL_SQLSTATE_SYNTAX_ERROR, de->location,
                         "%s requires a Boolean value or \"match\"", de->defname);
}

/* One option's value, once: 42601 when it was given before. */
static int take_once(rl_exec *x, const PgQuery__DefElem *de, bool *seen)
{
    if (*seen)
        return rl_exec_error(x, RL_SQLSTATE_SYNTAX_ERROR, de->location,
                             "conflicting or redundant options");
    *seen = true;
    return 0;
}

typedef struct option_texts {
    const char *delim, *quote, *escape, *null_str;
    bool format, header, force_quote;
} option_texts;

static int read_option(rl_exec *x, const PgQuery__DefElem *de, copy_opts *o, option_texts *t)
{
    const char *v = defelem_str(de);
    const char *name = de->defname;
    bool seen_text = false;
    if (strcmp(name, "format") == 0) {
        if (take_once(x, de, &t->format) < 0)
            return -1;
        if (v && strcasecmp(v, "binary") == 0)
            o->binary = 1;
        else if (v && strcasecmp(v, "csv") == 0)
            o->csv = true;
        else if (!v || strcasecmp(v, "text") != 0)
            return rl_exec_error(x, RL_SQLSTATE_INVALID_PARAMETER_VALUE, de->location,
                                 "COPY format \"%s\" not recognized", v ? v : "");
        return 0;
    }
    if (strcmp(name, "header") == 0) {
        if (take_once(x, de, &t->header) < 0 || (o->header = header_value(x, de)) < 0)
            return -1;
        return 0;
    }
    if (strcmp(name, "force_quote") == 0) {
        if (take_once(x, de, &t->force_quote) < 0)
            return -1;
        if (de->arg && de->arg->node_case == PG_QUERY__NODE__NODE_A_STAR)
            o->force_quote_all = true;
        else if (de->arg && de->arg->node_case == PG_QUERY__NODE__NODE_LIST) {
            o->force_quote = de->arg->list->items;
            o->n_force_quote = de->arg->list->n_items;
        } else
            return rl_exec_error(x, RL_SQLSTATE_SYNTAX_ERROR, de->location,
                                 "argument to option \"%s\" must be a list of column names",
                                 name);
        return 0;
    }
    const char **slot = strcmp(name, "delimiter") == 0 ? &t->delim
                        : strcmp(name, "quote") == 0   ? &t->quote
                        : strcmp(name, "escape") == 0  ? &t->escape
                        : strcmp(name, "null") == 0    ? &t->null_str
                                                       : NULL;
    if (!slot)
        return rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, de->location,
                             "COPY option \"%s\" is not supported by RockLake", name);
    seen_text = *slot != NULL;
    if (take_once(x, de, &seen_text) < 0)
        return -1;
    if (!v)
        return rl_exec_error(x, RL_SQLSTATE_SYNTAX_ERROR, de->location,
                             "%s requires a string value", name);
    *slot = v;
    return 0;
}

/* PostgreSQL's checks of the options together (ProcessCopyOptions), in its
 * order, with its SQLSTATEs. */
static int check_options(rl_exec *x, const option_texts *t, copy_opts *o, bool is_from)
{
    if (o->binary && t->delim)
        return rl_exec_error(x, RL_SQLSTATE_SYNTAX_ERROR, -1, "cannot specify DELIMITER in BINARY mode");
    if (o->binary && t->null_str)
        return rl_exec_error(x, RL_SQLSTATE_SYNTAX_ERROR, -1, "cannot specify NULL in BINARY mode");
    const char *delim = t->delim ? t->delim : o->csv ? "," : "\t";
    o->null_str = t->null_str ? t->null_str : o->csv ? "" : "\\N";
    const char *quote = o->csv && !t->quote ? "\"" : t->quote;
    const char *escape = o->csv && !t->escape ? quote : t->escape;
    if (strlen(delim) != 1)
        return rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                             "COPY delimiter must be a single one-byte character");
    if (delim[0] == '\n' || delim[0] == '\r')
        return rl_exec_error(x, RL_SQLSTATE_INVALID_PARAMETER_VALUE, -1,
                             "COPY delimiter cannot be newline or carriage return");
    if (strchr(o->null_str, '\r') || strchr(o->null_str, '\n'))
        return rl_exec_error(x, RL_SQLSTATE_INVALID_PARAMETER_VALUE, -1,
                             "COPY null representation cannot use newline or carriage return");
    if (!o->csv && strchr("\\.abcdefghijklmnopqrstuvwxyz0123456789", delim[0]))
        return rl_exec_error(x, RL_SQLSTATE_INVALID_PARAMETER_VALUE, -1,
                             "COPY delimiter cannot be \"%s\"", delim);
    if (o->binary && t->header)
        return rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                             "cannot specify HEADER in BINARY mode");
    if (!o->csv && t->quote)
        return rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                             "COPY quote available only in CSV mode");
    if (o->csv && strlen(quote) != 1)
        return rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                             "COPY quote must be a single one-byte character");
    if (o->csv && delim[0] == quote[0])
        return rl_exec_error(x, RL_SQLSTATE_INVALID_PARAMETER_VALUE, -1,
                             "COPY delimiter and quote must be different");
    if (!o->csv && t->escape)
        return rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                             "COPY escape available only in CSV mode");
    if (o->csv && strlen(escape) != 1)
        return rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                             "COPY escape must be a single one-byte character");
    if (!o->csv && t->force_quote)
        return rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                             "COPY force quote available only in CSV mode");
    if (t->force_quote && is_from)
        return rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                             "COPY force quote only available using COPY TO");
    if (strchr(o->null_str, delim[0]))
        return rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                             "COPY delimiter must not appear in the NULL specification");
    if (o->csv && strchr(o->null_str, quote[0]))
        return rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                             "CSV quote character must not appear in the NULL specification");
    if (o->header == 2 && !is_from)
        return rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                             "cannot use \"match\" with HEADER in COPY TO");
    o->delim = delim[0];
    o->quote = o->csv ? quote[0] : 0;
    o->escape = o->csv ? escape[0] : 0;
    return 0;
}

static int parse_copy_options(rl_exec *x, const PgQuery__CopyStmt *st, copy_opts *o)
{
    memset(o, 0, sizeof *o);
    option_texts t = {0};
    for (size_t i = 0; i < st->n_options; i++) {
        const PgQuery__Node *n = st->options[i];
        if (n->node_case == PG_QUERY__NODE__NODE_DEF_ELEM && read_option(x, n->def_elem, o, &t) < 0)
            return -1;
    }
    return check_options(x, &t, o, st->is_from);
}

/* Columns of a relation's row set that are the table's own: everything
 * before the hidden trailing ctid. */
static size_t table_ncols(const rl_rowset *rs)
{
    size_t n = rs->ncols;
    while (n > 0 && rs->cols[n - 1].attnum == RL_CTID_ATTNUM)
        n--;
    return n;
}

/* ====================================================================== COPY TO */

typedef struct copy_out {
    rl_exec *x;
    rl_buf buf;
    bool binary;
    bool *forced;   /* CSV: output column -> FORCE_QUOTE names it (NULL: none) */
} copy_out;

static int sink_fail(rl_exec *x)
{
    return rl_exec_error(x, RL_SQLSTATE_CONNECTION_FAILURE, -1,
                         "could not send COPY data to the client");
}

/* Send len bytes of COPY data (o->buf's, or part of them) to the client;
 * a buffer that ran out of memory is 53200 instead. */
static int out_send(copy_out *o, const uint8_t *data, size_t len)
{
    const rl_sink *k = o->x->sink;
    if (o->buf.failed)
        return rl_exec_error(o->x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    if (len && k && k->copy_out_data && k->copy_out_data(k->ctx, data, len) < 0)
        return sink_fail(o->x);
    return 0;
}

static int out_flush(copy_out *o)
{
    if (out_send(o, o->buf.data, o->buf.len) < 0)
        return -1;
    rl_buf_reset(&o->buf);
    return 0;
}

/* PostgreSQL's text COPY escaping: backslash, the delimiter and control
 * characters that would break the line structure. */
static void text_escape(rl_buf *out, const uint8_t *p, size_t n, char delim)
{
    for (size_t i = 0; i < n; i++) {
        uint8_t c = p[i];
        const char *esc = c == '\\' ? "\\\\" : c == '\b' ? "\\b" : c == '\f' ? "\\f"
                        : c == '\n' ? "\\n" : c == '\r' ? "\\r" : c == '\t' ? "\\t"
                        : c == '\v' ? "\\v" : NULL;
        if (esc)
            rl_buf_put_str(out, esc);
        else if (c == (uint8_t)delim) {
            rl_buf_put_u8(out, '\\');
            rl_buf_put_u8(out, c);
        } else
            rl_buf_put_u8(out, c);
    }
}

/* One CSV field (PostgreSQL's CopyAttributeOutCSV): quoted when asked, when
 * it reads as the NULL string, when it is a lone column's "\." (the end
 * marker), or when it holds the delimiter, the quote or a line break; a
 * quote or escape inside gets the escape before it. */
static void csv_put(rl_buf *out, const uint8_t *p, size_t n, const copy_opts *op, bool quote,
                    bool single)
{
    size_t nl = strlen(op->null_str);
    quote |= n == nl && (n == 0 || memcmp(p, op->null_str, n) == 0); /* p may be NULL when n is 0 */
    quote |= single && n == 2 && p[0] == '\\' && p[1] == '.';
    for (size_t i = 0; i < n && !quote; i++)
        quote = p[i] == (uint8_t)op->delim || p[i] == (uint8_t)op->quote || p[i] == '\n' ||
                p[i] == '\r';
    if (!quote) {
        rl_buf_put(out, p, n);
        return;
    }
    rl_buf_put_u8(out, (uint8_t)op->quote);
    for (size_t i = 0; i < n; i++) {
        if (p[i] == (uint8_t)op->quote || p[i] == (uint8_t)op->escape)
            rl_buf_put_u8(out, (uint8_t)op->escape);
        rl_buf_put_u8(out, p[i]);
    }
    rl_buf_put_u8(out, (uint8_t)op->quote);
}

/* HEADER: the column names, as a row of text or CSV fields. */
static void header_line(copy_out *o, const rl_colmeta *cols, const size_t *idx, size_t n,
                        const copy_opts *op)
{
    for (size_t c = 0; c < n; c++) {
        if (c)
            rl_buf_put_u8(&o->buf, (uint8_t)op->delim);
        const char *name = cols[idx ? idx[c] : c].name;
        if (op->csv)
            csv_put(&o->buf, (const uint8_t *)name, strlen(name), op, false, n == 1);
        else
            text_escape(&o->buf, (const uint8_t *)name, strlen(name), op->delim);
    }
    rl_buf_put_u8(&o->buf, '\n');
}

/* FORCE_QUOTE: which output columns it names (*: all). 42703 for a name
 * that is no column, 42P10 for one COPY does not send. */
static int forced_columns(copy_out *o, const copy_opts *op, const rl_colmeta *cols,
                          const size_t *idx, size_t n, const rl_rowset *table, const char *relname)
{
    if (!op->force_quote_all && op->n_force_quote == 0)
        return 0;
    if (!(o->forced = calloc(n + 1, sizeof *o->forced)))
        return rl_exec_error(o->x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    for (size_t c = 0; c < n; c++)
        o->forced[c] = op->force_quote_all;
    for (size_t k = 0; k < op->n_force_quote; k++) {
        const char *name = rl_node_string(op->force_quote[k]);
        bool found = false, exists = false;
        for (size_t c = 0; name && c < n; c++)
            if (strcmp(cols[idx ? idx[c] : c].name, name) == 0)
                found = o->forced[c] = true;
        for (size_t c = 0; name && table && c < table->ncols; c++)
            exists |= strcmp(table->cols[c].name, name) == 0;
        if (!found && !exists)
            return relname ? rl_exec_error(o->x, RL_SQLSTATE_UNDEFINED_COLUMN, -1,
                                           "column \"%s\" of relation \"%s\" does not exist",
                                           name ? name : "", relname)
                           : rl_exec_error(o->x, RL_SQLSTATE_UNDEFINED_COLUMN, -1,
                                           "column \"%s\" does not exist", name ? name : "");
        if (!found)
            return rl_exec_error(o->x, RL_SQLSTATE_INVALID_COLUMN_REFERENCE, -1,
                                 "FORCE_QUOTE column \"%s\" not referenced by COPY", name);
    }
    return 0;
}

static int out_row(copy_out *o, const rl_value *row, const size_t *cols, size_t n, const copy_opts *op,
                   rl_buf *tmp)
{
    if (o->binary)
        rl_buf_put_be16(&o->buf, (uint16_t)n);
    for (size_t c = 0; c < n; c++) {
        const rl_value *v = &row[cols[c]];
        if (o->binary) {
            if (v->d.isnull) {
                rl_buf_put_be32(&o->buf, 0xFFFFFFFFu);
                continue;
            }
            /* encoded in place; the length word is filled in after */
            size_t at = o->buf.len;
            rl_buf_put_be32(&o->buf, 0);
            if (!rl_value_encode_binary(&o->buf, v))
                return rl_exec_error(o->x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                                     "no binary output function available for type %s",
                                     rl_oid_type_name(v->oid));
            if (!o->buf.failed)
                rl_store_be32(o->buf.data + at, (uint32_t)(o->buf.len - at - 4));
        } else {
            if (c)
                rl_buf_put_u8(&o->buf, (uint8_t)op->delim);
            if (v->d.isnull) {
                rl_buf_put_str(&o->buf, op->null_str);
                continue;
            }
            rl_buf_reset(tmp);
            rl_value_to_text(tmp, v);
            if (op->csv)
                csv_put(&o->buf, tmp->data, tmp->len, op, o->forced && o->forced[c], n == 1);
            else
                text_escape(&o->buf, tmp->data, tmp->len, op->delim);
        }
    }
    if (!o->binary)
        rl_buf_put_u8(&o->buf, '\n');
    return 0;
}

/* The rows COPY TO sends: a query's result, or a table's (listed) columns. */
static rl_rowset *copy_source(rl_exec *x, const PgQuery__CopyStmt *st, size_t **cols,
                              size_t *ncols)
{
    rl_rowset *rs;
    if (st->query) {
        if (st->query->node_case != PG_QUERY__NODE__NODE_SELECT_STMT) {
            rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                          "COPY (query) TO supports only SELECT queries");
            return NULL;
        }
        rs = rl_select_run(x, st->query->select_stmt, NULL);
    } else {
        rl_relation rel;
        if (rl_relation_resolve(x, st->relation, &rel) < 0)
            return NULL;
        rs = rl_relation_scan(x, &rel, st->relation->relname, NULL, RL_SCAN_HEAP);
    }
    if (!rs)
        return NULL;
    size_t n = st->query ? rs->ncols : table_ncols(rs);
    *cols = calloc(n + st->n_attlist + 1, sizeof **cols);
    if (!*cols) {
        rl_rowset_free(rs);
        rl_exec_error(x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
        return NULL;
    }
    if (st->n_attlist == 0 || st->query) {
        for (size_t i = 0; i < n; i++)
            (*cols)[i] = i;
        *ncols = n;
        return rs;
    }
    for (size_t a = 0; a < st->n_attlist; a++) {
        const char *name = st->attlist[a]->string->sval;
        size_t i = 0;
        while (i < n && strcmp(rs->cols[i].name, name) != 0)
            i++;
        if (i == n) {
            rl_exec_error(x, RL_SQLSTATE_UNDEFINED_COLUMN, -1,
                          "column \"%s\" of relation \"%s\" does not exist", name,
                          st->relation->relname);
            free(*cols);
            rl_rowset_free(rs);
            return NULL;
        }
        (*cols)[a] = i;
    }
    *ncols = st->n_attlist;
    return rs;
}

/* COPY (SELECT plain columns FROM a stored table ...) TO: rows go from the
 * scan to the output buffer one at a time (rl_select_stream), which sends
 * the buffer's whole rows when it chooses (as they come, or at the end in
 * heap order). */
typedef struct copy_stream {
    copy_out *o;
    const copy_opts *op;
    rl_buf *tmp;
    size_t *cols; /* identity map 0..ncols-1 for out_row */
} copy_stream;

static int copy_header(copy_out *o, size_t ncols)
{
    const rl_sink *k = o->x->sink;
    if (k && k->copy_out_begin && k->copy_out_begin(k->ctx, o->binary, ncols) < 0)
        return sink_fail(o->x);
    if (o->binary) {
        rl_buf_put(&o->buf, copy_signature, sizeof copy_signature);
        rl_buf_put_be32(&o->buf, 0); /* flags */
        rl_buf_put_be32(&o->buf, 0); /* header extension length */
    }
    return 0;
}

/* Trailer, end of COPY and its CommandComplete. */
static int copy_finish(copy_out *o, size_t nrows)
{
    if (o->binary)
        rl_buf_put_be16(&o->buf, 0xFFFF);
    if (out_flush(o) < 0)
        return -1;
    const rl_sink *k = o->x->sink;
    if (k && k->copy_out_end && k->copy_out_end(k->ctx) < 0)
        return sink_fail(o->x);
    char tag[48];
    snprintf(tag, sizeof tag, "COPY %zu", nrows);
    return rl_send_complete(o->x, tag);
}

static int copy_stream_begin(void *ctx, size_t ncols, const rl_colmeta *cols)
{
    copy_stream *c = ctx;
    c->cols = calloc(ncols + 1, sizeof *c->cols);
    if (!c->cols)
        return rl_exec_error(c->o->x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    for (size_t i = 0; i < ncols; i++)
        c->cols[i] = i;
    if (forced_columns(c->o, c->op, cols, NULL, ncols, NULL, NULL) < 0 ||
        copy_header(c->o, ncols) < 0)
        return -1;
    if (c->op->header)
        header_line(c->o, cols, NULL, ncols, c->op);
    return 0;
}

static int copy_stream_row(void *ctx, const rl_value *vals, size_t ncols)
{
    copy_stream *c = ctx;
    return out_row(c->o, vals, c->cols, ncols, c->op, c->tmp);
}

/* The stream sends whole rows of o->buf when it chooses (rl_row_stream). */
static int copy_stream_send(void *ctx, const uint8_t *data, size_t len)
{
    copy_stream *c = ctx;
    return out_send(c->o, data, len);
}

/* 1 if the query was streamed (or failed: -1), 0 if it needs the general path. */
static int copy_to_streamed(rl_exec *x, const PgQuery__CopyStmt *st, const copy_opts *op)
{
    if (!st->query || st->query->node_case != PG_QUERY__NODE__NODE_SELECT_STMT)
        return 0;
    copy_out o = {.x = x, .binary = op->binary != 0};
    rl_buf_init(&o.buf, 0);
    rl_buf tmp;
    rl_buf_init(&tmp, 0);
    copy_stream c = {.o = &o, .op = op, .tmp = &tmp};
    rl_row_stream rs = {.begin = copy_stream_begin, .row = copy_stream_row,
                        .send = copy_stream_send, .out = &o.buf, .ctx = &c};
    size_t nrows = 0;
    int rc = rl_select_stream(x, st->query->select_stmt, &rs, &nrows);
    if (rc > 0 && copy_finish(&o, nrows) < 0)
        rc = -1;
    rl_buf_free(&o.buf);
    rl_buf_free(&tmp);
    free(c.cols);
    free(o.forced);
    return rc;
}

static int copy_to_rows(rl_exec *x, const PgQuery__CopyStmt *st, const copy_opts *op)
{
    if ((st->filename && st->filename[0]) || st->is_program)
        return rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                             "COPY to a file or program is not supported; use COPY TO STDOUT");
    int streamed = copy_to_streamed(x, st, op);
    if (streamed != 0)
        return streamed < 0 ? -1 : 0;
    size_t *cols = NULL, ncols = 0;
    rl_rowset *rs = copy_source(x, st, &cols, &ncols);
    if (!rs)
        return -1;
    copy_out o = {.x = x, .binary = op->binary != 0};
    rl_buf_init(&o.buf, 0);
    rl_buf tmp;
    rl_buf_init(&tmp, 0);
    int rc = forced_columns(&o, op, rs->cols, cols, ncols, st->query ? NULL : rs,
                            st->query ? NULL : st->relation->relname);
    if (rc == 0)
        rc = copy_header(&o, ncols);
    if (rc == 0 && op->header)
        header_line(&o, rs->cols, cols, ncols, op);
    for (size_t r = 0; rc == 0 && r < rs->nrows; r++) {
        if ((r & 1023) == 0 && rl_exec_check_cancel(x) < 0)
            rc = -1;
        else
            rc = out_row(&o, rl_rowset_row(rs, r), cols, ncols, op, &tmp);
        if (rc == 0 && o.buf.len >= COPY_CHUNK)
            rc = out_flush(&o);
    }
    if (rc == 0)
        rc = copy_finish(&o, rs->nrows);
    rl_buf_free(&o.buf);
    rl_buf_free(&tmp);
    free(o.forced);
    free(cols);
    rl_rowset_free(rs);
    return rc;
}

/* What COPY TO holds at a time is the statement's result budget (sql_value.h). */
static int copy_to(rl_exec *x, const PgQuery__CopyStmt *st, const copy_opts *op)
{
    rl_result_budget budget;
    rl_result_budget_begin(&budget, x->s->eng->result_mem_limit);
    int rc = copy_to_rows(x, st, op);
    rl_result_budget_end(&budget);
    return rc;
}

/* ==================================================================== COPY FROM */

struct rl_copy_in {
    rl_relation rel;
    rl_rowset *shape;      /* the table's columns (names, types) */
    size_t ntab;           /* table columns */
    size_t nfields;        /* fields per input row */
    size_t *map;           /* field -> table column */
    copy_opts opts;
    char *null_str;        /* owned copy (the parse tree may go away) */
    rl_buf pending;        /* bytes not yet consumed */
    bool header_done, eof, failed;
    bool header_seen;      /* HEADER: the first line was read (skipped or matched) */
    rl_error saved;        /* the error that killed the COPY */
    uint64_t rows, line;
};

static void copy_in_free(rl_copy_in *ci)
{
    if (!ci)
        return;
    rl_rowset_free(ci->shape);
    free(ci->map);
    free(ci->null_str);
    rl_buf_free(&ci->pending);
    free(ci);
}

void rl_copy_in_abort(rl_session *s)
{
    copy_in_free(s->copy_in);
    s->copy_in = NULL;
}

/* field -> column map from the column list (all columns when absent). */
static int copy_in_map(rl_exec *x, const PgQuery__CopyStmt *st, rl_copy_in *ci)
{
    ci->nfields = st->n_attlist ? st->n_attlist : ci->ntab;
    ci->map = calloc(ci->nfields + 1, sizeof *ci->map);
    if (!ci->map)
        return rl_exec_error(x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    for (size_t f = 0; f < ci->nfields; f++) {
        if (!st->n_attlist) {
            ci->map[f] = f;
            continue;
        }
        const char *name = st->attlist[f]->string->sval;
        size_t c = 0;
        while (c < ci->ntab && strcmp(ci->shape->cols[c].name, name) != 0)
            c++;
        if (c == ci->ntab)
            return rl_exec_error(x, RL_SQLSTATE_UNDEFINED_COLUMN, -1,
                                 "column \"%s\" of relation \"%s\" does not exist",
                                 name, ci->rel.name);
        for (size_t g = 0; g < f; g++)
            if (ci->map[g] == c)
                return rl_exec_error(x, RL_SQLSTATE_DUPLICATE_COLUMN, -1,
                                     "column \"%s\" specified more than once",
                                     name);
        ci->map[f] = c;
    }
    return 0;
}

static rl_exec_status copy_from_start(rl_exec *x, const PgQuery__CopyStmt *st, const copy_opts *op)
{
    if ((st->filename && st->filename[0]) || st->is_program)
        return rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                             "COPY from a file or program is not supported; use COPY FROM STDIN");
    if (st->where_clause)
        return rl_exec_error(x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                             "COPY FROM ... WHERE is not supported by RockLake");
    if (x->s->copy_in)
        rl_copy_in_abort(x->s);
    rl_copy_in *ci = calloc(1, sizeof *ci);
    if (!ci)
        return rl_exec_error(x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    rl_buf_init(&ci->pending, 0);
    ci->opts = *op;
    ci->null_str = strdup(op->null_str);
    int rc = ci->null_str ? 0 : rl_exec_error(x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    if (rc == 0)
        rc = rl_relation_resolve(x, st->relation, &ci->rel);
    if (rc == 0 && ci->rel.kind == RL_REL_VIRTUAL)
        rc = rl_exec_error(x, RL_SQLSTATE_WRONG_OBJECT_TYPE, -1, "cannot copy to view \"%s\"",
                           ci->rel.name);
    if (rc == 0 && !(ci->shape = rl_relation_shape(x, &ci->rel, ci->rel.name)))
        rc = -1;
    if (rc == 0) {
        ci->ntab = table_ncols(ci->shape);
        rc = copy_in_map(x, st, ci);
    }
    /* the statement's transaction starts now, as PostgreSQL's would */
    if (rc == 0 && ci->rel.kind == RL_REL_STORED && !rl_exec_txn(x))
        rc = -1;
    const rl_sink *k = x->sink;
    if (rc == 0 && k && k->copy_in_begin && k->copy_in_begin(k->ctx, op->binary, ci->nfields) < 0)
        rc = sink_fail(x);
    if (rc < 0) {
        copy_in_free(ci);
        return RL_EXEC_ERROR;
    }
    ci->opts.null_str = ci->null_str;
    x->s->copy_in = ci;
    return RL_EXEC_COPY_IN;
}

rl_exec_status rl_copy_start(rl_exec *x, const PgQuery__CopyStmt *st)
{
    copy_opts op;
    if (parse_copy_options(x, st, &op) < 0)
        return RL_EXEC_ERROR;
    if (st->is_from)
        return copy_from_start(x, st, &op);
    if (!st->relation && !st->query)
        return rl_exec_error(x, RL_SQLSTATE_SYNTAX_ERROR, -1, "COPY needs a table or a query");
    return copy_to(x, st, &op) < 0 ? RL_EXEC_ERROR : RL_EXEC_DONE;
}

/* A row of NULLs typed like the table, then the given fields placed. */
static void null_row(const rl_copy_in *ci, rl_value *row)
{
    for (size_t c = 0; c < ci->ntab; c++) {
        memset(&row[c], 0, sizeof row[c]);
        row[c].oid = ci->shape->cols[c].oid;
        row[c].typmod = ci->shape->cols[c].typmod;
        row[c].d.isnull = true;
    }
}

/* A row inserted; with a column list, the columns it leaves out get their
 * DEFAULTs first (PostgreSQL's COPY FROM evaluates them per row). */
static int insert_and_count(rl_exec *x, rl_copy_in *ci, const rl_value *row)
{
    rl_value full[RL_MAX_COLUMNS + 1];
    bool given[RL_MAX_COLUMNS + 1] = {false};
    rl_arena arena = {0};
    if (ci->nfields < ci->ntab && ci->ntab <= RL_MAX_COLUMNS) {
        memcpy(full, row, ci->ntab * sizeof *full);
        for (size_t f = 0; f < ci->nfields; f++)
            given[ci->map[f]] = true;
        if (rl_dml_defaults_fill(x, &ci->rel, ci->shape, ci->ntab, given, full, &arena) < 0) {
            rl_arena_free(&arena);
            return -1;
        }
        row = full;
    }
    int rc = rl_dml_insert_row(x, &ci->rel, row);
    rl_arena_free(&arena);
    if (rc < 0)
        return -1;
    ci->rows++;
    return 0;
}

/* ------------------------------------------------------------ binary input */

/* Parse the file header once 19+ bytes are there. 1 done, 0 need more, -1 error. */
static int binary_header(rl_exec *x, rl_copy_in *ci, size_t *pos)
{
    const uint8_t *p = ci->pending.data;
    size_t n = ci->pending.len;
    size_t cmp = n < sizeof copy_signature ? n : sizeof copy_signature;
    if (memcmp(p, copy_signature, cmp) != 0)
        return rl_exec_error(x, RL_SQLSTATE_BAD_COPY_FILE_FORMAT, -1,
                             "COPY file signature not recognized");
    if (n < 19)
        return 0;
    uint32_t flags = rl_load_be32(p + 11), ext = rl_load_be32(p + 15);
    if (flags & (1u << 16))
        return rl_exec_error(x, RL_SQLSTATE_BAD_COPY_FILE_FORMAT, -1,
                             "invalid COPY file header (WITH OIDS)");
    if (flags & 0xFFFE0000u)
        return rl_exec_error(x, RL_SQLSTATE_BAD_COPY_FILE_FORMAT, -1,
                             "unrecognized critical flags in COPY file header");
    if (n < 19 + (size_t)ext)
        return 0;
    *pos = 19 + ext; /* header extensions are skipped, as PostgreSQL does */
    ci->header_done = true;
    return 1;
}

/* Size of the complete tuple at p, 0 if more bytes are needed, or -1 on a
 * malformed one. *trailer set for the -1 end marker. */
static long long tuple_size(rl_exec *x, rl_copy_in *ci, const uint8_t *p, size_t n, bool *trailer)
{
    *trailer = false;
    if (n < 2)
        return 0;
    int16_t nf = (int16_t)(p[0] << 8 | p[1]);
    if (nf == -1) {
        *trailer = true;
        return 2;
    }
    if (nf < 0 || (size_t)nf != ci->nfields)
        return rl_exec_error(x, RL_SQLSTATE_BAD_COPY_FILE_FORMAT, -1,
                             "row field count is %d, expected %zu", nf,
                             ci->nfields);
    size_t off = 2;
    for (int16_t f = 0; f < nf; f++) {
        if (n < off + 4)
            return 0;
        int32_t len = (int32_t)rl_load_be32(p + off);
        off += 4;
        if (len == -1)
            continue;
        if (len < -1)
            return rl_exec_error(x, RL_SQLSTATE_BAD_COPY_FILE_FORMAT, -1, "invalid field size");
        if (n < off + (size_t)len)
            return 0;
        off += (size_t)len;
    }
    return (long long)off;
}

static int binary_tuple(rl_exec *x, rl_copy_in *ci, const uint8_t *p)
{
    rl_value row[RL_MAX_COLUMNS + 1];
    if (ci->ntab > RL_MAX_COLUMNS)
        return rl_exec_error(x, RL_SQLSTATE_TOO_MANY_COLUMNS, -1, "too many columns for COPY");
    null_row(ci, row);
    rl_arena arena = {0};
    size_t off = 2;
    int rc = 0;
    for (size_t f = 0; rc == 0 && f < ci->nfields; f++) {
        int32_t len = (int32_t)rl_load_be32(p + off);
        off += 4;
        if (len == -1)
            continue;
        const rl_colmeta *cm = &ci->shape->cols[ci->map[f]];
        rl_value *v = &row[ci->map[f]];
        rc = rl_value_from_binary(x, cm->oid, cm->typmod, p + off, (size_t)len, &arena, v);
        /* numeric_recv / varchar_recv / bpcharrecv apply the column's typmod too */
        if (rc == 0 && cm->typmod >= 4 &&
            (cm->oid == RL_OID_NUMERIC || cm->oid == RL_OID_VARCHAR || cm->oid == RL_OID_BPCHAR)) {
            rl_expr_ctx c = {.x = x, .arena = &arena};
            rc = rl_value_coerce(&c, v, cm->oid, cm->typmod, false, v, -1);
        }
        off += (size_t)len;
    }
    if (rc == 0)
        rc = insert_and_count(x, ci, row);
    rl_arena_free(&arena);
    return rc;
}

static int binary_feed(rl_exec *x, rl_copy_in *ci, size_t *pos)
{
    if (!ci->header_done) {
        int h = binary_header(x, ci, pos);
        if (h <= 0)
            return h;
    }
    for (;;) {
        const uint8_t *p = ci->pending.data + *pos;
        size_t n = ci->pending.len - *pos;
        if (ci->eof) {
            if (n)
                return rl_exec_error(x, RL_SQLSTATE_BAD_COPY_FILE_FORMAT, -1,
                                     "received copy data after EOF marker");
            return 0;
        }
        bool trailer;
        long long sz = tuple_size(x, ci, p, n, &trailer);
        if (sz <= 0)
            return (int)sz;
        ci->line++;
        *pos += (size_t)sz;
        if (trailer) {
            ci->eof = true;
            continue;
        }
        if (rl_exec_check_cancel(x) < 0 || binary_tuple(x, ci, p) < 0)
            return -1;
    }
}

/* -------------------------------------------------------------- text input */

/* De-escape one text COPY field (PostgreSQL's CopyReadAttributesText). */
static void text_unescape(rl_buf *out, const char *p, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        char c = p[i];
        if (c != '\\' || i + 1 >= n) {
            rl_buf_put_u8(out, (uint8_t)c);
            continue;
        }
        c = p[++i];
        if (c >= '0' && c <= '7') {
            int v = c - '0';
            for (int k = 0; k < 2 && i + 1 < n && p[i + 1] >= '0' && p[i + 1] <= '7'; k++)
                v = v * 8 + (p[++i] - '0');
            rl_buf_put_u8(out, (uint8_t)v);
        } else if (c == 'x' && i + 1 < n && isxdigit((unsigned char)p[i + 1])) {
            int v = 0;
            for (int k = 0; k < 2 && i + 1 < n && isxdigit((unsigned char)p[i + 1]); k++) {
                v = v * 16 + rl_hex_value(p[++i]);
            }
            rl_buf_put_u8(out, (uint8_t)v);
        } else {
            char e = c == 'b' ? '\b' : c == 'f' ? '\f' : c == 'n' ? '\n' : c == 'r' ? '\r'
                   : c == 't' ? '\t' : c == 'v' ? '\v' : c;
            rl_buf_put_u8(out, (uint8_t)e);
        }
    }
}

/* One text field into its column: NULL marker (compared raw, as PostgreSQL
 * does), else de-escaped and read with the column type's input function. */
/* A field's bytes (de-escaped or de-quoted in tmp) read with its column
 * type's input function. */
static int field_value(rl_exec *x, rl_copy_in *ci, size_t col, rl_arena *arena, rl_buf *tmp,
                       rl_value *out)
{
    if (tmp->failed)
        return rl_exec_error(x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    if (check_utf8(x, tmp->data, tmp->len) < 0)
        return -1;
    const rl_colmeta *cm = &ci->shape->cols[col];
    rl_value in = {.oid = RL_OID_UNKNOWN, .typmod = -1};
    /* tmp holds exactly len bytes (no terminator): copy those, then end it */
    char *s = rl_arena_alloc(arena, tmp->len + 1);
    if (!s)
        return rl_exec_error(x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    if (tmp->len)
        memcpy(s, tmp->data, tmp->len);
    s[tmp->len] = 0;
    in.d.v.s.p = (const uint8_t *)s;
    in.d.v.s.len = tmp->len;
    rl_expr_ctx c = {.x = x, .arena = arena};
    return rl_value_coerce(&c, &in, cm->oid, cm->typmod, false, out, -1);
}

static int text_field(rl_exec *x, rl_copy_in *ci, const char *p, size_t n, size_t col,
                      rl_arena *arena, rl_buf *tmp, rl_value *out)
{
    size_t nl = strlen(ci->null_str);
    if (n == nl && memcmp(p, ci->null_str, n) == 0)
        return 0;
    rl_buf_reset(tmp);
    text_unescape(tmp, p, n);
    return field_value(x, ci, col, arena, tmp, out);
}

/* HEADER MATCH: header field f (NULL: it read as the NULL string) must
 * name the column COPY fills from it. */
static int header_field(rl_exec *x, rl_copy_in *ci, size_t f, const rl_buf *name, bool null)
{
    if (f >= ci->nfields)
        return 0; /* counted by the caller */
    const char *want = ci->shape->cols[ci->map[f]].name;
    if (null)
        return rl_exec_error(x, RL_SQLSTATE_BAD_COPY_FILE_FORMAT, -1,
                             "column name mismatch in header line field %zu: got null value "
                             "(\"%s\"), expected \"%s\"",
                             f + 1, ci->null_str, want);
    if (name->len != strlen(want) || (name->len && memcmp(name->data, want, name->len) != 0))
        return rl_exec_error(x, RL_SQLSTATE_BAD_COPY_FILE_FORMAT, -1,
                             "column name mismatch in header line field %zu: got \"%.*s\", "
                             "expected \"%s\"",
                             f + 1, (int)name->len, (const char *)name->data, want);
    return 0;
}

static int header_count(rl_exec *x, const rl_copy_in *ci, size_t got)
{
    if (got == ci->nfields)
        return 0;
    return rl_exec_error(x, RL_SQLSTATE_BAD_COPY_FILE_FORMAT, -1,
                         "wrong number of fields in header line: got %zu, expected %zu", got,
                         ci->nfields);
}

/* The start of a text or CSV line: its \r dropped, the end marker \.
 * noted (ci->eof), a HEADER line without MATCH skipped. true: nothing more
 * to do with it; false: read its fields, as the header to match when
 * *header. */
static bool line_done(rl_copy_in *ci, const char *p, size_t *n, bool *header)
{
    if (*n && p[*n - 1] == '\r')
        --*n;
    ci->line++;
    if (*n == 2 && p[0] == '\\' && p[1] == '.') {
        ci->eof = true;
        return true;
    }
    *header = ci->opts.header && !ci->header_seen;
    ci->header_seen |= *header;
    return *header && ci->opts.header != 2;
}

static int text_line(rl_exec *x, rl_copy_in *ci, const char *p, size_t n)
{
    bool header;
    if (line_done(ci, p, &n, &header))
        return 0;
    rl_value row[RL_MAX_COLUMNS + 1];
    if (ci->ntab > RL_MAX_COLUMNS)
        return rl_exec_error(x, RL_SQLSTATE_TOO_MANY_COLUMNS, -1, "too many columns for COPY");
    null_row(ci, row);
    rl_arena arena = {0};
    rl_buf tmp;
    rl_buf_init(&tmp, 0);
    int rc = 0;
    size_t start = 0, f = 0;
    for (size_t i = 0; rc == 0 && i <= n; i++) {
        bool end = i == n;
        if (!end && p[i] == '\\') {
            i++; /* an escaped character never splits fields */
            continue;
        }
        if (!end && p[i] != ci->opts.delim)
            continue;
        if (header) {
            size_t len = i - start, nl = strlen(ci->null_str);
            rl_buf_reset(&tmp);
            text_unescape(&tmp, p + start, len);
            rc = header_field(x, ci, f, &tmp, len == nl && memcmp(p + start, ci->null_str, nl) == 0);
        } else if (f >= ci->nfields)
            rc = rl_exec_error(x, RL_SQLSTATE_BAD_COPY_FILE_FORMAT, -1,
                               "extra data after last expected column");
        else
            rc = text_field(x, ci, p + start, i - start, ci->map[f], &arena, &tmp,
                            &row[ci->map[f]]);
        f++;
        start = i + 1;
    }
    if (header) {
        rc = rc == 0 ? header_count(x, ci, f) : rc;
        rl_buf_free(&tmp);
        rl_arena_free(&arena);
        return rc;
    }
    if (rc == 0 && f < ci->nfields)
        rc = rl_exec_error(x, RL_SQLSTATE_BAD_COPY_FILE_FORMAT, -1,
                           "missing data for column \"%s\"",
                           ci->shape->cols[ci->map[f]].name);
    if (rc == 0)
        rc = insert_and_count(x, ci, row);
    rl_buf_free(&tmp);
    rl_arena_free(&arena);
    return rc;
}

/* ---------------------------------------------------------------- CSV input */

/* Length of the CSV record at p: up to its newline outside quotes (a quoted
 * field may hold newlines); -1 when it is not all there yet (at the end of
 * the data, the rest is the last record). */
static long long csv_record_len(const copy_opts *op, const char *p, size_t n, bool final)
{
    bool in_quote = false;
    for (size_t i = 0; i < n; i++) {
        char c = p[i];
        if (!in_quote) {
            if (c == '\n')
                return (long long)i;
            in_quote = c == op->quote;
            continue;
        }
        if (c == op->escape && op->escape != op->quote) {
            if (i + 1 == n)
                return final ? (long long)n : -1;
            if (p[i + 1] == op->quote || p[i + 1] == op->escape)
                i++;
            continue;
        }
        in_quote = c != op->quote;
    }
    return final ? (long long)n : -1;
}

/* One CSV field from p[*i] on, de-quoted into tmp, up to the delimiter or
 * the end (PostgreSQL's CopyReadAttributesCSV); *quoted if any part of it
 * was quoted. 22P04 for a quote left open. */
static int csv_field(rl_exec *x, const copy_opts *op, const char *p, size_t n, size_t *i,
                     rl_buf *tmp, bool *quoted)
{
    bool in_quote = false;
    *quoted = false;
    rl_buf_reset(tmp);
    for (; *i < n; ++*i) {
        char c = p[*i];
        if (!in_quote) {
            if (c == op->delim)
                break;
            if (c == op->quote)
                in_quote = *quoted = true;
            else
                rl_buf_put_u8(tmp, (uint8_t)c);
            continue;
        }
        if (c == op->escape && *i + 1 < n && (p[*i + 1] == op->quote || p[*i + 1] == op->escape)) {
            rl_buf_put_u8(tmp, (uint8_t)p[++*i]);
            continue;
        }
        if (c == op->quote)
            in_quote = false;
        else
            rl_buf_put_u8(tmp, (uint8_t)c);
    }
    if (in_quote)
        return rl_exec_error(x, RL_SQLSTATE_BAD_COPY_FILE_FORMAT, -1,
                             "unterminated CSV quoted field");
    return 0;
}

static int csv_line(rl_exec *x, rl_copy_in *ci, const char *p, size_t n)
{
    bool header;
    if (line_done(ci, p, &n, &header))
        return 0;
    if (ci->ntab > RL_MAX_COLUMNS)
        return rl_exec_error(x, RL_SQLSTATE_TOO_MANY_COLUMNS, -1, "too many columns for COPY");
    rl_value row[RL_MAX_COLUMNS + 1];
    null_row(ci, row);
    rl_arena arena = {0};
    rl_buf tmp;
    rl_buf_init(&tmp, 0);
    size_t nl = strlen(ci->null_str), f = 0;
    int rc = 0;
    for (size_t i = 0; rc == 0 && i <= n; i++, f++) { /* i at a field's start */
        size_t start = i;
        bool quoted;
        if ((rc = csv_field(x, &ci->opts, p, n, &i, &tmp, &quoted)) < 0)
            break;
        bool null = !quoted && i - start == nl && memcmp(p + start, ci->null_str, nl) == 0;
        if (header)
            rc = header_field(x, ci, f, &tmp, null);
        else if (f >= ci->nfields)
            rc = rl_exec_error(x, RL_SQLSTATE_BAD_COPY_FILE_FORMAT, -1,
                               "extra data after last expected column");
        else if (!null)
            rc = field_value(x, ci, ci->map[f], &arena, &tmp, &row[ci->map[f]]);
    }
    if (rc == 0 && header)
        rc = header_count(x, ci, f);
    else if (rc == 0 && f < ci->nfields)
        rc = rl_exec_error(x, RL_SQLSTATE_BAD_COPY_FILE_FORMAT, -1,
                           "missing data for column \"%s\"", ci->shape->cols[ci->map[f]].name);
    if (rc == 0 && !header)
        rc = insert_and_count(x, ci, row);
    rl_buf_free(&tmp);
    rl_arena_free(&arena);
    return rc;
}

static int csv_feed(rl_exec *x, rl_copy_in *ci, size_t *pos, bool final)
{
    while (!ci->eof) {
        const char *p = (const char *)ci->pending.data + *pos;
        size_t n = ci->pending.len - *pos;
        if (n == 0)
            return 0;
        long long len = csv_record_len(&ci->opts, p, n, final);
        if (len < 0)
            return 0;
        *pos += (size_t)len + ((size_t)len < n); /* and its newline */
        if (rl_exec_check_cancel(x) < 0 || csv_line(x, ci, p, (size_t)len) < 0)
            return -1;
    }
    *pos = ci->pending.len; /* PostgreSQL ignores what follows \. */
    return 0;
}

static int text_feed(rl_exec *x, rl_copy_in *ci, size_t *pos, bool final)
{
    for (;;) {
        const char *p = (const char *)ci->pending.data + *pos;
        size_t n = ci->pending.len - *pos;
        if (ci->eof) {
            *pos = ci->pending.len; /* PostgreSQL ignores what follows \. */
            return 0;
        }
        const char *nl = n ? memchr(p, '\n', n) : NULL;
        if (!nl && !(final && n))
            return 0;
        size_t len = nl ? (size_t)(nl - p) : n;
        *pos += nl ? len + 1 : len;
        if (rl_exec_check_cancel(x) < 0 || text_line(x, ci, p, len) < 0)
            return -1;
    }
}

/* ------------------------------------------------------------ data / done */

/* Remember the first error: the COPY stays failed until done/abort. */
static int copy_failed(rl_exec *x, rl_copy_in *ci)
{
    ci->failed = true;
    if (x->err)
        ci->saved = *x->err;
    return -1;
}

static int feed(rl_exec *x, rl_copy_in *ci, bool final)
{
    size_t pos = 0;
    int rc = ci->opts.binary ? binary_feed(x, ci, &pos)
             : ci->opts.csv  ? csv_feed(x, ci, &pos, final)
                             : text_feed(x, ci, &pos, final);
    if (rc < 0)
        return copy_failed(x, ci);
    /* keep only the unconsumed tail */
    memmove(ci->pending.data, ci->pending.data + pos, ci->pending.len - pos);
    ci->pending.len -= pos;
    return 0;
}

int rl_copy_in_data(rl_exec *x, const uint8_t *data, size_t len)
{
    rl_copy_in *ci = x->s->copy_in;
    if (!ci)
        return rl_exec_error(x, RL_SQLSTATE_PROTOCOL_VIOLATION, -1,
                             "unexpected COPY data: no COPY FROM STDIN in progress");
    if (ci->failed)
        return 0;
    if (ci->pending.len + len > COPY_MAX_PENDING) {
        rl_exec_error(x, RL_SQLSTATE_PROGRAM_LIMIT_EXCEEDED, -1,
                      "a COPY row is larger than %u bytes", COPY_MAX_PENDING);
        return copy_failed(x, ci);
    }
    rl_buf_put(&ci->pending, data, len);
    if (ci->pending.failed) {
        rl_exec_error(x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
        return copy_failed(x, ci);
    }
    return feed(x, ci, false);
}

/* End of data: what is left must be nothing (binary: a missing trailer is
 * accepted, as PostgreSQL does) or one last unterminated text line. */
static int copy_in_finish(rl_exec *x, rl_copy_in *ci)
{
    if (ci->failed || feed(x, ci, true) < 0)
        return -1;
    if (ci->opts.binary && !ci->header_done)
        return rl_exec_error(x, RL_SQLSTATE_BAD_COPY_FILE_FORMAT, -1,
                             "COPY file signature not recognized");
    if (ci->opts.binary && ci->pending.len)
        return rl_exec_error(x, RL_SQLSTATE_BAD_COPY_FILE_FORMAT, -1,
                             "unexpected EOF in COPY data");
    char tag[48];
    snprintf(tag, sizeof tag, "COPY %llu", (unsigned long long)ci->rows);
    return rl_send_complete(x, tag);
}

int rl_copy_in_done(rl_exec *x)
{
    rl_copy_in *ci = x->s->copy_in;
    if (!ci)
        return rl_exec_error(x, RL_SQLSTATE_PROTOCOL_VIOLATION, -1,
                             "unexpected CopyDone: no COPY FROM STDIN in progress");
    int rc = copy_in_finish(x, ci);
    if (rc < 0 && ci->failed && x->err)
        *x->err = ci->saved;
    rl_copy_in_abort(x->s);
    return rc;
}
