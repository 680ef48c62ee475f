/*
 * sql_value.c — SQL values and row sets: OIDs and the type names casts name,
 * PostgreSQL text/binary output (text, and the binary send form of every
 * type), materialized rows, the result budget, value keys and key sets.
 *
 * Invariant: a row set owns every string its values point to (copied into
 * its arena by rl_rowset_add), so a row set outlives the scan it came from.
 */
#include <assert.h>
#include <ctype.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/buf.h"
#include "pgtype/pgtype.h"
#include "sql/sql_value.h"

/* ------------------------------------------------------------------ OIDs */

static const struct {
    rl_type type;
    uint32_t oid;
} type_oids[] = {
    {RL_T_INT8, RL_OID_INT8},         {RL_T_INT4, RL_OID_INT4},
    {RL_T_INT2, RL_OID_INT2},         {RL_T_FLOAT4, RL_OID_FLOAT4},
    {RL_T_FLOAT8, RL_OID_FLOAT8},     {RL_T_NUMERIC, RL_OID_NUMERIC},
    {RL_T_VARCHAR, RL_OID_VARCHAR},   {RL_T_TEXT, RL_OID_TEXT},
    {RL_T_BYTEA, RL_OID_BYTEA},       {RL_T_BOOL, RL_OID_BOOL},
    {RL_T_UUID, RL_OID_UUID},         {RL_T_DATE, RL_OID_DATE},
    {RL_T_TIME, RL_OID_TIME},         {RL_T_TIMETZ, RL_OID_TIMETZ},
    {RL_T_TIMESTAMP, RL_OID_TIMESTAMP}, {RL_T_TIMESTAMPTZ, RL_OID_TIMESTAMPTZ},
    {RL_T_INTERVAL, RL_OID_INTERVAL}, {RL_T_BPCHAR, RL_OID_BPCHAR},
};

uint32_t rl_type_oid(rl_type t)
{
    for (size_t i = 0; i < sizeof type_oids / sizeof type_oids[0]; i++)
        if (type_oids[i].type == t)
            return type_oids[i].oid;
    return 0;
}

rl_type rl_oid_type(uint32_t oid)
{
    for (size_t i = 0; i < sizeof type_oids / sizeof type_oids[0]; i++)
        if (type_oids[i].oid == oid)
            return type_oids[i].type;
    return RL_T_INVALID;
}

/* Names libpg_query's grammar produces (pg_catalog.int8, ...) and those
 * written by hand; anything the codec knows goes through rl_type_from_name. */
static uint32_t special_type_oid(const char *name)
{
    static const struct {
        const char *name;
        uint32_t oid;
    } types[] = {
        {"oid", RL_OID_OID},         {"regclass", RL_OID_REGCLASS}, {"regproc", RL_OID_REGPROC},
        {"regprocedure", RL_OID_REGPROCEDURE}, {"regtype", RL_OID_REGTYPE},
        {"regnamespace", RL_OID_REGNAMESPACE}, {"regrole", RL_OID_REGROLE},
        {"regdictionary", RL_OID_REGDICTIONARY},
        {"tid", RL_OID_TID},         {"name", RL_OID_NAME},         {"char", RL_OID_CHAR},
        {"xid8", RL_OID_XID8},
        {"unknown", RL_OID_UNKNOWN}, {"int2vector", RL_OID_INT2VECTOR},
        {"oidvector", RL_OID_OIDVECTOR},  {"pg_node_tree", 194},
        {"json", RL_OID_JSON},         {"jsonb", RL_OID_JSONB},
        /* pseudo-types: a cast to one keeps a value's own type where
         * PostgreSQL's coerce_type does (sql_cast.c cast_to_pseudotype), a
         * NULL casts to any of them, and no function or operator takes one */
        {"anyarray", 2277},          {"anyelement", 2283},          {"anycompatible", 5077},
        {"anycompatiblearray", 5078}, {"any", 2276},                {"record", RL_OID_RECORD},
        {"anynonarray", 2776},       {"anycompatiblenonarray", 5079}, {"anyenum", 3500},
        {"anyrange", 3831},          {"anymultirange", 4537},       {"anycompatiblerange", 5080},
        {"anycompatiblemultirange", 4538},
    };
    for (size_t i = 0; i < sizeof types / sizeof types[0]; i++)
        if (strcmp(types[i].name, name) == 0)
            return types[i].oid;
    return 0;
}

uint32_t rl_type_oid_by_name(const char *name)
{
    uint32_t o = special_type_oid(name);
    return o ? o : rl_type_oid(rl_type_from_name(name));
}

int16_t rl_oid_typlen(uint32_t oid)
{
    switch (oid) {
    case RL_OID_BOOL:
    case RL_OID_CHAR:
        return 1;
    case RL_OID_INT2:
        return 2;
    case RL_OID_INT4:
    case RL_OID_OID:
    case RL_OID_REGCLASS:
    case RL_OID_REGPROC:
    case RL_OID_REGPROCEDURE:
    case RL_OID_REGTYPE:
    case RL_OID_REGNAMESPACE:
    case RL_OID_REGROLE:
    case RL_OID_REGDICTIONARY:
    case RL_OID_FLOAT4:
    case RL_OID_DATE:
    case RL_OID_VOID:
    case 28: /* xid (pg_stat_activity's backend_xid, always NULL) */
        return 4;
    case RL_OID_TID:
        return 6;
    case RL_OID_XID8:
    case RL_OID_INT8:
    case RL_OID_FLOAT8:
    case RL_OID_TIME:
    case RL_OID_TIMESTAMP:
    case RL_OID_TIMESTAMPTZ:
    case 3220: /* pg_lsn: pg_subscription.subskiplsn's type, no value has it */
        return 8;
    case RL_OID_TIMETZ:
    case 1033: /* aclitem */
        return 12;
    case RL_OID_INTERVAL:
    case RL_OID_UUID:
        return 16;
    case RL_OID_NAME:
        return 64;
    case RL_OID_UNKNOWN:
        return -2;
    default:
        return -1;
    }
}

/* ------------------------------------------------------------ reg* types */

bool rl_oid_is_reg(uint32_t oid)
{
    return oid == RL_OID_REGCLASS || oid == RL_OID_REGPROC || oid == RL_OID_REGPROCEDURE ||
           oid == RL_OID_REGTYPE || oid == RL_OID_REGNAMESPACE || oid == RL_OID_REGROLE ||
           oid == RL_OID_REGDICTIONARY;
}

/* ---------------------------------------------------------------- arrays */

static const uint32_t array_types[][2] = { /* element, array */
    {RL_OID_BOOL, 1000},    {RL_OID_CHAR, 1002},     {RL_OID_NAME, 1003},
    {RL_OID_INT2, RL_OID_INT2_ARRAY}, {RL_OID_INT4, RL_OID_INT4_ARRAY},
    {RL_OID_TEXT, RL_OID_TEXT_ARRAY}, {RL_OID_VARCHAR, 1015}, {RL_OID_INT8, 1016},
    {RL_OID_BPCHAR, 1014},
    {RL_OID_FLOAT4, 1021},  {RL_OID_FLOAT8, 1022},   {RL_OID_OID, 1028},
    {RL_OID_NUMERIC, 1231}, {RL_OID_UUID, 2951},     {RL_OID_TIMESTAMPTZ, 1185},
    {RL_OID_TIMESTAMP, 1115}, {RL_OID_DATE, 1182}, {RL_OID_JSON, 199},
    {RL_OID_JSONB, 3807},   {RL_OID_REGDICTIONARY, 3770},
    {1033, 1034}}; /* aclitem[]: the catalogs' *acl columns, kept as text */

/* The row types whose array types rl_array_oid_of handed out: open
 * addressing by array type, a slot taken for good (few tables). */
#define ROWTYPE_ARRAYS 4096 /* a power of two */
static _Atomic uint64_t rowtype_arrays[ROWTYPE_ARRAYS]; /* array << 32 | row type, 0 empty */

static void rowtype_array_note(uint32_t rowtype, uint32_t array)
{
    uint64_t want = (uint64_t)array << 32 | rowtype;
    for (size_t k = 0; k < ROWTYPE_ARRAYS; k++) {
        _Atomic uint64_t *slot = &rowtype_arrays[(array + k) & (ROWTYPE_ARRAYS - 1)];
        uint64_t cur = atomic_load(slot);
        while (cur == 0 || (uint32_t)(cur >> 32) == array) {
            if (cur == want || atomic_compare_exchange_weak(slot, &cur, want))
                return;
        }
    }
}

static uint32_t rowtype_array_elem(uint32_t array)
{
    for (size_t k = 0; k < ROWTYPE_ARRAYS; k++) {
        uint64_t cur = atomic_load(&rowtype_arrays[(array + k) & (ROWTYPE_ARRAYS - 1)]);
        if (cur == 0)
            return 0;
        if ((uint32_t)(cur >> 32) == array)
            return (uint32_t)cur;
    }
    return 0;
}

uint32_t rl_array_oid_of(uint32_t elem)
{
    if (rl_oid_is_rowtype(elem)) {
        uint32_t array = rl_rowtype_array_oid(elem);
        rowtype_array_note(elem, array);
        return array;
    }
    for (size_t i = 0; i < sizeof array_types / sizeof array_types[0]; i++)
        if (array_types[i][0] == elem)
            return array_types[i][1];
    return 0;
}

uint32_t rl_array_elem_oid(uint32_t array)
{
    if (rl_oid_is_rowtype_array(array))
        return rowtype_array_elem(array);
    for (size_t i = 0; i < sizeof array_types / sizeof array_types[0]; i++)
        if (array_types[i][1] == array)
            return array_types[i][0];
    return 0;
}

uint32_t rl_elem_oid_of(uint32_t oid)
{
    return oid == RL_OID_INT2VECTOR   ? RL_OID_INT2
           : oid == RL_OID_OIDVECTOR ? RL_OID_OID
                                     : rl_array_elem_oid(oid);
}

int rl_elem_next(const rl_value *arr, size_t *pos, rl_buf *el, bool *isnull)
{
    const char *p = (const char *)arr->d.v.s.p;
    size_t len = arr->d.v.s.len;
    if (arr->oid != RL_OID_INT2VECTOR && arr->oid != RL_OID_OIDVECTOR)
        return rl_array_next(p, len, pos, el, isnull);
    while (*pos < len && p[*pos] == ' ')
        (*pos)++;
    if (*pos >= len)
        return 0;
    rl_buf_reset(el);
    while (*pos < len && p[*pos] != ' ')
        rl_buf_put_u8(el, (uint8_t)p[(*pos)++]);
    *isnull = false;
    return 1;
}

int rl_array_next(const char *p, size_t len, size_t *pos, rl_buf *el, bool *isnull)
{
    size_t i = *pos;
    if (len >= 2 && p[0] == '{' && p[len - 1] == '}') {
        if (i == 0)
            i = 1;
        len--; /* the closing brace */
    }
    while (i < len && (p[i] == ' ' || p[i] == '\t' || p[i] == '\n'))
        i++;
    if (i >= len) {
        *pos = i;
        return 0;
    }
    rl_buf_reset(el);
    bool quoted = p[i] == '"';
    if (quoted) {
        for (i++; i < len && p[i] != '"'; i++) {
            if (p[i] == '\\' && i + 1 < len)
                i++;
            rl_buf_put(el, &p[i], 1);
        }
        i++;
    } else {
        for (; i < len && p[i] != ','; i++)
            rl_buf_put(el, &p[i], 1);
        while (el->len && (el->data[el->len - 1] == ' ' || el->data[el->len - 1] == '\t'))
            el->len--;
    }
    *isnull = !quoted && el->len == 4 && strncasecmp((const char *)el->data, "null", 4) == 0;
    while (i < len && p[i] != ',')
        i++;
    *pos = i < len ? i + 1 : i;
    return 1;
}

/* ---------------------------------------------------------- text output */

void rl_value_to_text(rl_buf *out, const rl_value *v)
{
    if (v->d.isnull)
        return;
    rl_type t = rl_oid_type(v->oid);
    if (t != RL_T_INVALID) {
        rl_datum_to_text(out, t, &v->d);
        return;
    }
    if (rl_oid_is_composite(v->oid)) { /* a record, a table's row: the text form */
        size_t len;
        const char *text = rl_record_text(v, &len);
        rl_buf_put(out, text, len);
        return;
    }
    switch (v->oid) {
    case RL_OID_OID:
    case RL_OID_REGCLASS: /* the name: rl_session_value_text */
    case RL_OID_REGPROC:
    case RL_OID_REGPROCEDURE:
    case RL_OID_REGTYPE:
    case RL_OID_REGNAMESPACE:
    case RL_OID_REGROLE:
    case RL_OID_REGDICTIONARY:
        rl_buf_put_i64(out, v->d.v.i);
        return;
    case RL_OID_XID8: /* unsigned, as xid8out prints it */
        rl_buf_printf(out, "%llu", (unsigned long long)(uint64_t)v->d.v.i);
        return;
    case RL_OID_TID:
        rl_buf_printf(out, "(%llu,%llu)", (unsigned long long)(v->d.v.i >> 16),
                      (unsigned long long)(v->d.v.i & 0xffff));
        return;
    default:
        /* name, "char", unknown literals, arrays and int2vector keep their
         * PostgreSQL text form in v.s */
        rl_buf_put(out, v->d.v.s.p, v->d.v.s.len);
        return;
    }
}

/* -------------------------------------------------------------- records */

/* record_out's rule: quote an empty field or one holding a quote, a
 * backslash, a parenthesis, a comma or white space; double quotes and
 * backslashes inside. */
static void record_put_field(rl_buf *out, const uint8_t *p, size_t len)
{
    bool quote = len == 0;
    for (size_t i = 0; i < len && !quote; i++)
        quote = strchr("\"\\(),", p[i]) != NULL || isspace(p[i]);
    if (!quote) {
        rl_buf_put(out, p, len);
        return;
    }
    rl_buf_put_u8(out, '"');
    for (size_t i = 0; i < len; i++) {
        if (p[i] == '"' || p[i] == '\\')
            rl_buf_put_u8(out, p[i]);
        rl_buf_put_u8(out, p[i]);
    }
    rl_buf_put_u8(out, '"');
}

void rl_record_build(rl_buf *out, size_t n, const char *const *names, const rl_value *fields)
{
    for (size_t i = 0; i < n; i++)
        rl_buf_printf(out, "%s:%u,", names[i], (unsigned)fields[i].oid);
    rl_buf_put_u8(out, RL_RECORD_SEP);
    rl_buf_put_u8(out, '(');
    rl_buf one;
    rl_buf_init(&one, 0);
    for (size_t i = 0; i < n; i++) {
        if (i)
            rl_buf_put_u8(out, ',');
        if (fields[i].d.isnull)
            continue;
        rl_buf_reset(&one);
        rl_value_to_text(&one, &fields[i]);
        record_put_field(out, one.data, one.len);
    }
    rl_buf_free(&one);
    rl_buf_put_u8(out, ')');
}

const char *rl_record_text(const rl_value *rec, size_t *len)
{
    const char *p = (const char *)rec->d.v.s.p;
    const char *sep = memchr(p, RL_RECORD_SEP, rec->d.v.s.len);
    assert(sep); /* every record is made by rl_record_build */
    *len = rec->d.v.s.len - (size_t)(sep + 1 - p);
    return sep + 1;
}

void rl_record_nulls(const rl_value *rec, size_t *nfields, size_t *nnulls)
{
    size_t tlen;
    const char *t = rl_record_text(rec, &tlen);
    const char *h = (const char *)rec->d.v.s.p, *end = t - 1;
    *nfields = *nnulls = 0;
    for (; h < end; h++) /* "name:oid," per field */
        *nfields += *h == ',';
    if (*nfields == 0 || tlen < 2)
        return;
    /* "(a,"b",)": a field with no text at all is NULL ("" is an empty string) */
    size_t start = 1;
    bool quoted = false;
    for (size_t i = 1; i < tlen; i++) {
        if (i == tlen - 1 || (!quoted && t[i] == ',')) {
            *nnulls += i == start;
            start = i + 1;
        } else if (t[i] == '\\') {
            i++;
        } else if (t[i] == '"') {
            quoted = !quoted;
        }
    }
}

int rl_record_next(const rl_value *rec, rl_record_pos *pos, const char **name, size_t *nlen,
                   uint32_t *oid, rl_buf *text, bool *isnull)
{
    size_t tlen;
    const char *t = rl_record_text(rec, &tlen);
    const char *hstart = (const char *)rec->d.v.s.p, *end = t - 1;
    const char *h = hstart + pos->header;
    if (h >= end) /* "name:oid," per field */
        return 0;
    const char *colon = memchr(h, ':', (size_t)(end - h));
    const char *comma = colon ? memchr(colon, ',', (size_t)(end - colon)) : NULL;
    if (!comma)
        return 0;
    *name = h;
    *nlen = (size_t)(colon - h);
    *oid = (uint32_t)strtoul(colon + 1, NULL, 10);
    pos->header = (size_t)(comma + 1 - hstart);
    /* the next field of "(a,"b",)": record_in's rules */
    size_t i = pos->text ? pos->text : 1;
    rl_buf_reset(text);
    *isnull = i >= tlen - 1 || t[i] == ',' || t[i] == ')';
    bool quoted = false;
    for (; i < tlen - 1 && (quoted || t[i] != ','); i++) {
        if (t[i] == '\\' && i + 1 < tlen - 1) {
            rl_buf_put_u8(text, (uint8_t)t[++i]);
        } else if (t[i] == '"') {
            if (quoted && t[i + 1] == '"')
                rl_buf_put_u8(text, (uint8_t)t[++i]);
            else
                quoted = !quoted;
        } else {
            rl_buf_put_u8(text, (uint8_t)t[i]);
        }
    }
    pos->text = i + 1; /* past the comma */
    return 1;
}

static bool record_blank(char ch)
{
    return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\v' || ch == '\f';
}

const char *rl_record_parse(const char *p, size_t len, size_t n, rl_buf *fields, bool *isnull)
{
    size_t i = 0;
    while (i < len && record_blank(p[i]))
        i++;
    if (i >= len || p[i] != '(')
        return "Missing left parenthesis.";
    i++;
    for (size_t f = 0; f < n; f++) {
        rl_buf_reset(&fields[f]);
        isnull[f] = i < len && (p[i] == ',' || p[i] == ')');
        bool quoted = false;
        while (i < len && (quoted || (p[i] != ',' && p[i] != ')'))) {
            if (p[i] == '\\') {
                if (++i >= len)
                    return "Unexpected end of input.";
                rl_buf_put_u8(&fields[f], (uint8_t)p[i++]);
            } else if (p[i] == '"') {
                if (quoted && i + 1 < len && p[i + 1] == '"') { /* "" inside quotes */
                    rl_buf_put_u8(&fields[f], '"');
                    i += 2;
                } else {
                    quoted = !quoted;
                    i++;
                }
            } else {
                rl_buf_put_u8(&fields[f], (uint8_t)p[i++]);
            }
        }
        if (i >= len)
            return "Unexpected end of input.";
        if (p[i] == ',' && f + 1 == n)
            return "Too many columns.";
        if (p[i] == ')' && f + 1 < n)
            return "Too few columns.";
        i++; /* the comma, or the closing parenthesis */
    }
    if (n == 0 && (i >= len || p[i++] != ')'))
        return "Too many columns.";
    while (i < len && record_blank(p[i]))
        i++;
    return i < len ? "Junk after right parenthesis." : NULL;
}

bool rl_record_field(const rl_value *rec, const char *name, uint32_t *oid, rl_buf *text,
                     bool *isnull)
{
    rl_record_pos pos = {0, 0};
    const char *fname;
    size_t flen, want = strlen(name);
    while (rl_record_next(rec, &pos, &fname, &flen, oid, text, isnull) == 1)
        if (flen == want && memcmp(fname, name, want) == 0)
            return true;
    return false;
}

/* -------------------------------------------------------- binary output */

/* Split a one-dimensional array's text form "{a,b,"c d",NULL}" and append
 * PostgreSQL's binary array (ndim 1, has_null, element oid, dims, items). */
static bool array_encode(rl_buf *out, const rl_value *v, uint32_t elem_oid)
{
    const char *s = (const char *)v->d.v.s.p;
    size_t n = v->d.v.s.len;
    if (n < 2 || s[0] != '{' || s[n - 1] != '}')
        return false;
    rl_buf items, one;
    rl_buf_init(&items, 0);
    rl_buf_init(&one, 0);
    int32_t count = 0;
    bool has_null = false, ok = true;
    size_t i = 1;
    while (ok && i < n - 1) {
        rl_buf_reset(&one);
        bool quoted = s[i] == '"';
        if (quoted) {
            for (i++; i < n - 1 && s[i] != '"'; i++) {
                if (s[i] == '\\' && i + 1 < n - 1)
                    i++;
                rl_buf_put_u8(&one, (uint8_t)s[i]);
            }
            i++;
        } else {
            for (; i < n - 1 && s[i] != ','; i++)
                rl_buf_put_u8(&one, (uint8_t)s[i]);
        }
        count++;
        if (!quoted && one.len == 4 && memcmp(one.data, "NULL", 4) == 0) {
            has_null = true;
            rl_buf_put_be32(&items, 0xFFFFFFFFu);
        } else if (elem_oid == RL_OID_TEXT || elem_oid == RL_OID_VARCHAR ||
                   elem_oid == RL_OID_BPCHAR || elem_oid == RL_OID_NAME) {
            rl_buf_put_be32(&items, (uint32_t)one.len);
            rl_buf_put(&items, one.data, one.len);
        } else {
            rl_buf_put_u8(&one, 0);
            char *end;
            long long x = strtoll((const char *)one.data, &end, 10);
            ok = *end == 0 && one.len > 1;
            uint32_t sz = elem_oid == RL_OID_INT2 ? 2 : 4;
            rl_buf_put_be32(&items, sz);
            if (sz == 2)
                rl_buf_put_be16(&items, (uint16_t)(int16_t)x);
            else
                rl_buf_put_be32(&items, (uint32_t)(int32_t)x);
        }
        if (i < n - 1 && s[i] == ',')
            i++;
    }
    if (ok) {
        rl_buf_put_be32(out, count ? 1 : 0);
        rl_buf_put_be32(out, has_null ? 1 : 0);
        rl_buf_put_be32(out, elem_oid);
        if (count) {
            rl_buf_put_be32(out, (uint32_t)count);
            rl_buf_put_be32(out, 1);
            rl_buf_put(out, items.data, items.len);
        }
    }
    rl_buf_free(&items);
    rl_buf_free(&one);
    return ok;
}

/* record_send: the number of fields, then each field's type oid and its
 * length-prefixed binary form (-1 for NULL), every field read back from
 * the record's text by its type's input. false when a field's type has
 * no binary form here (or its text does not read). */
static bool record_encode(rl_buf *out, const rl_value *rec)
{
    size_t n, nulls;
    rl_record_nulls(rec, &n, &nulls);
    rl_buf_put_be32(out, (uint32_t)n);
    rl_record_pos pos = {0, 0};
    rl_buf text, scratch;
    rl_buf_init(&text, 0);
    rl_buf_init(&scratch, 0);
    const char *name;
    size_t nlen;
    uint32_t oid;
    bool isnull, ok = true;
    while (ok && rl_record_next(rec, &pos, &name, &nlen, &oid, &text, &isnull) == 1) {
        rl_buf_put_be32(out, oid);
        if (isnull) {
            rl_buf_put_be32(out, UINT32_MAX); /* -1 */
            continue;
        }
        size_t at = out->len;
        rl_buf_put_be32(out, 0);
        rl_value f = {.oid = oid, .typmod = -1};
        rl_type t = rl_oid_type(oid);
        rl_buf_reset(&scratch);
        char err[8];
        const char *p = text.len ? (const char *)text.data : "";
        if (t != RL_T_INVALID) {
            ok = rl_datum_from_text(t, p, text.len, &f.d, &scratch, err, sizeof err) == RL_CODEC_OK;
        } else { /* the kinds kept as their text: names, arrays (a nested
                  * record's text has lost its header: none) */
            ok = rl_array_elem_oid(oid) || oid == RL_OID_NAME || oid == RL_OID_CHAR ||
                 oid == RL_OID_JSON || oid == RL_OID_JSONB;
            f.d.v.s.p = (const uint8_t *)p;
            f.d.v.s.len = text.len;
        }
        ok = ok && rl_value_encode_binary(out, &f) && !out->failed;
        if (ok)
            rl_store_be32(out->data + at, (uint32_t)(out->len - at - 4));
    }
    rl_buf_free(&text);
    rl_buf_free(&scratch);
    return ok;
}

/* The SQL layer's own types (oid and reg*, name, "char", unknown literals,
 * tid, the arrays, records) here; every rl_type through pgtype's typsend. */
bool rl_value_encode_binary(rl_buf *out, const rl_value *v)
{
    const rl_datum *d = &v->d;
    if (rl_oid_is_composite(v->oid))
        return record_encode(out, v);
    switch (v->oid) {
    case RL_OID_OID:
    case RL_OID_REGCLASS:
    case RL_OID_REGPROCEDURE:
    case RL_OID_REGTYPE:
    case RL_OID_REGNAMESPACE:
    case RL_OID_REGROLE:
    case RL_OID_REGDICTIONARY:
    case RL_OID_REGPROC: rl_buf_put_be32(out, (uint32_t)(int32_t)d->v.i); return true;
    case RL_OID_JSONB: /* jsonb_send: version 1, the text */
        rl_buf_put_u8(out, 1);
        rl_buf_put(out, d->v.s.p, d->v.s.len);
        return true;
    case RL_OID_NAME: /* namesend, charsend: the bytes */
    case RL_OID_CHAR:
    case RL_OID_JSON: /* json_send: the text */
    case RL_OID_UNKNOWN: rl_buf_put(out, d->v.s.p, d->v.s.len); return true;
    case RL_OID_XID8: rl_buf_put_be64(out, (uint64_t)d->v.i); return true;
    case RL_OID_TID:
        rl_buf_put_be32(out, (uint32_t)((uint64_t)d->v.i >> 16));
        rl_buf_put_be16(out, (uint16_t)(d->v.i & 0xffff));
        return true;
    case RL_OID_INT2_ARRAY: return array_encode(out, v, RL_OID_INT2);
    case RL_OID_INT4_ARRAY: return array_encode(out, v, RL_OID_INT4);
    case RL_OID_TEXT_ARRAY: return array_encode(out, v, RL_OID_TEXT);
    case 1015: return array_encode(out, v, RL_OID_VARCHAR);
    case 1014: return array_encode(out, v, RL_OID_BPCHAR);
    case 1003: return array_encode(out, v, RL_OID_NAME);
    case 1028: return array_encode(out, v, RL_OID_OID);
    default: {
        rl_type t = rl_oid_type(v->oid);
        return t != RL_T_INVALID && rl_datum_to_binary(out, t, d);
    }
    }
}

bool rl_value_to_binary(rl_buf *out, const rl_value *v)
{
    if (v->d.isnull)
        return true;
    return rl_value_encode_binary(out, v);
}

/* -------------------------------------------------------------- rowsets */

rl_rowset *rl_rowset_new(size_t ncols)
{
    rl_rowset *rs = calloc(1, sizeof *rs);
    if (!rs)
        return NULL;
    rs->ncols = ncols;
    rs->cols = calloc(ncols ? ncols : 1, sizeof *rs->cols);
    if (!rs->cols) {
        free(rs);
        return NULL;
    }
    return rs;
}

rl_rowset *rl_rowset_typing(const rl_rowset *rs, rl_error *err)
{
    rl_rowset *t = rl_rowset_new(rs->ncols);
    rl_value *row = calloc(rs->ncols ? rs->ncols : 1, sizeof *row);
    if (!t || !row) {
        free(row);
        rl_rowset_free(t);
        rl_error_set(err, RL_SQLSTATE_INTERNAL_ERROR, "out of memory");
        return NULL;
    }
    memcpy(t->cols, rs->cols, rs->ncols * sizeof *rs->cols);
    for (size_t i = 0; i < rs->ncols; i++)
        row[i] = (rl_value){.oid = rs->cols[i].oid,
                            /* a record's typmod says its fields' types (sql_expr.c) */
                            .typmod = rl_oid_is_composite(rs->cols[i].oid) ? rs->cols[i].typmod : -1,
                            .d.isnull = true};
    int rc = rl_rowset_add(t, row, NULL, err);
    free(row);
    if (rc < 0) {
        rl_rowset_free(t);
        return NULL;
    }
    return t;
}

/* ------------------------------------------------------ result budget */

static _Thread_local rl_result_budget *open_budget;
static _Atomic uint64_t budget_seq;

void rl_result_budget_begin(rl_result_budget *b, size_t limit)
{
    *b = (rl_result_budget){0};
    if (open_budget)
        return;
    b->limit = limit;
    b->id = atomic_fetch_add(&budget_seq, 1) + 1;
    b->active = true;
    open_budget = b;
}

void rl_result_budget_end(rl_result_budget *b)
{
    if (b->active && open_budget == b)
        open_budget = NULL;
    b->active = false;
}

size_t rl_result_budget_limit(size_t none_open)
{
    return open_budget ? open_budget->limit : none_open;
}

/* Count n more bytes of rs against the open budget: false past its limit.
 * A row set from an earlier statement (a portal's result, a temp table)
 * counts from here on what it grows by. */
static bool rowset_count(rl_rowset *rs, size_t n)
{
    rl_result_budget *b = open_budget;
    if (!b || !n)
        return true;
    if (rs->budget != b->id) {
        rs->budget = b->id;
        rs->charged = 0;
    }
    rs->charged += n;
    b->used += n;
    return b->used <= b->limit;
}

static int over_budget(rl_error *err)
{
    size_t mb = (open_budget->limit + ((size_t)1 << 20) - 1) >> 20;
    return rl_error_set(err, RL_SQLSTATE_PROGRAM_LIMIT_EXCEEDED,
                        "result of this statement needs more than %zu MB; narrow it with WHERE "
                        "or LIMIT",
                        mb ? mb : 1);
}

/* Bytes of row storage for n rows of rs. */
static size_t rows_bytes(const rl_rowset *rs, size_t n)
{
    return n * ((rs->ncols ? rs->ncols : 1) * sizeof(rl_value) + (rs->src ? sizeof(rl_rowsrc) : 0));
}

void rl_rowset_free(rl_rowset *rs)
{
    if (!rs)
        return;
    if (open_budget && rs->budget == open_budget->id)
        open_budget->used -= rs->charged < open_budget->used ? rs->charged : open_budget->used;
    free(rs->cols);
    free(rs->vals);
    free(rs->src);
    rl_arena_free(&rs->arena);
    free(rs);
}

static bool value_has_bytes(const rl_value *v)
{
    if (v->d.isnull)
        return false;
    switch (v->oid) {
    case RL_OID_INT8:
    case RL_OID_INT4:
    case RL_OID_INT2:
    case RL_OID_FLOAT4:
    case RL_OID_FLOAT8:
    case RL_OID_BOOL:
    case RL_OID_UUID:
    case RL_OID_DATE:
    case RL_OID_TIME:
    case RL_OID_TIMETZ:
    case RL_OID_TIMESTAMP:
    case RL_OID_TIMESTAMPTZ:
    case RL_OID_INTERVAL:
    case RL_OID_OID:
    case RL_OID_REGCLASS:
    case RL_OID_REGPROC:
    case RL_OID_REGPROCEDURE:
    case RL_OID_REGTYPE:
    case RL_OID_REGNAMESPACE:
    case RL_OID_REGROLE:
    case RL_OID_REGDICTIONARY:
    case RL_OID_TID:
    case RL_OID_XID8:
        return false;
    default:
        return true;
    }
}

bool rl_value_has_bytes(const rl_value *v)
{
    return value_has_bytes(v);
}

int rl_value_own(rl_arena *a, rl_value *v)
{
    if (!value_has_bytes(v))
        return 0;
    const uint8_t *p = rl_arena_dup(a, v->d.v.s.p, v->d.v.s.len);
    if (!p)
        return -1;
    v->d.v.s.p = p;
    return 0;
}

static int rowset_grow(rl_rowset *rs, bool with_src)
{
    if (rs->nrows < rs->caprows && (!with_src || rs->src))
        return 0;
    size_t cap = rs->caprows;
    if (rs->nrows == cap)
        cap = cap ? cap * 2 : 16;
    rl_value *v = realloc(rs->vals, cap * (rs->ncols ? rs->ncols : 1) * sizeof *v);
    if (!v)
        return -1;
    rs->vals = v;
    if (with_src || rs->src) {
        rl_rowsrc *s = realloc(rs->src, cap * sizeof *s);
        if (!s)
            return -1;
        if (!rs->src) /* rows added before had no source */
            memset(s, 0, rs->nrows * sizeof *s);
        rs->src = s;
    }
    rs->caprows = cap;
    return 0;
}

int rl_rowset_reserve(rl_rowset *rs, size_t n)
{
    if (n == 0 || rs->caprows - rs->nrows >= n)
        return 0;
    size_t cap = rs->nrows + n;
    rowset_count(rs, rows_bytes(rs, cap - rs->caprows)); /* the next add says so if over */
    rl_value *v = realloc(rs->vals, cap * (rs->ncols ? rs->ncols : 1) * sizeof *v);
    if (!v)
        return -1;
    rs->vals = v;
    if (rs->src) {
        rl_rowsrc *s = realloc(rs->src, cap * sizeof *s);
        if (!s)
            return -1;
        rs->src = s;
    }
    rs->caprows = cap;
    return 0;
}

int rl_rowset_add_ref(rl_rowset *rs, const rl_value *vals, rl_error *err)
{
    size_t cap0 = rs->caprows;
    if (rowset_grow(rs, false) < 0)
        return rl_error_set(err, RL_SQLSTATE_INTERNAL_ERROR, "out of memory");
    if (!rowset_count(rs, rows_bytes(rs, rs->caprows - cap0)))
        return over_budget(err);
    memcpy(&rs->vals[rs->nrows * rs->ncols], vals, rs->ncols * sizeof *vals);
    if (rs->src)
        memset(&rs->src[rs->nrows], 0, sizeof *rs->src);
    rs->nrows++;
    return 0;
}

int rl_rowset_add(rl_rowset *rs, const rl_value *vals, const rl_rowsrc *src, rl_error *err)
{
    size_t cap0 = rs->caprows;
    if (rowset_grow(rs, src != NULL) < 0)
        return rl_error_set(err, RL_SQLSTATE_INTERNAL_ERROR, "out of memory");
    size_t bytes = rows_bytes(rs, rs->caprows - cap0) + (src && src->key ? src->klen : 0);
    rl_value *row = &rs->vals[rs->nrows * rs->ncols];
    for (size_t i = 0; i < rs->ncols; i++) {
        row[i] = vals[i];
        if (value_has_bytes(&row[i]))
            bytes += row[i].d.v.s.len;
    }
    if (!rowset_count(rs, bytes))
        return over_budget(err);
    for (size_t i = 0; i < rs->ncols; i++)
        if (rl_value_own(&rs->arena, &row[i]) < 0)
            return rl_error_set(err, RL_SQLSTATE_INTERNAL_ERROR, "out of memory");
    if (rs->src) {
        rl_rowsrc *s = &rs->src[rs->nrows];
        memset(s, 0, sizeof *s);
        if (src) {
            *s = *src;
            if (src->key && !(s->key = rl_arena_dup(&rs->arena, src->key, src->klen)))
                return rl_error_set(err, RL_SQLSTATE_INTERNAL_ERROR, "out of memory");
        }
    }
    rs->nrows++;
    return 0;
}

/* Drop the rows of rs that filter rejects, keeping the order. */
int rl_rowset_filter(rl_rowset *rs, const rl_row_filter *filter)
{
    size_t n = 0;
    for (size_t i = 0; i < rs->nrows; i++) {
        int keep = filter->keep(filter->ctx, rs, i);
        if (keep < 0)
            return -1;
        if (!keep)
            continue;
        if (n != i) {
            memcpy(rl_rowset_row(rs, n), rl_rowset_row(rs, i), rs->ncols * sizeof *rs->vals);
            if (rs->src)
                rs->src[n] = rs->src[i];
        }
        n++;
    }
    rs->nrows = n;
    return 0;
}

/* ------------------------------------------------------- value keys */

bool rl_oid_is_intlike(uint32_t oid)
{
    return oid == RL_OID_INT2 || oid == RL_OID_INT4 || oid == RL_OID_INT8 ||
           oid == RL_OID_OID || rl_oid_is_reg(oid);
}

bool rl_oid_is_stringlike(uint32_t oid)
{
    return oid == RL_OID_TEXT || oid == RL_OID_VARCHAR || oid == RL_OID_NAME ||
           oid == RL_OID_CHAR;
}

rl_value_key rl_value_key_of(const rl_value *v)
{
    rl_value_key k = {false, false, 0};
    if (v->d.isnull)
        return k;
    if (rl_oid_is_intlike(v->oid)) {
        uint64_t x = (uint64_t)v->d.v.i;
        k.h = rl_hash_bytes(RL_HASH_SEED, &x, sizeof x);
        k.ok = true;
    } else if (rl_oid_is_stringlike(v->oid)) {
        k.h = rl_hash_bytes(RL_HASH_SEED, v->d.v.s.p, v->d.v.s.len);
        k.ok = k.string = true;
    }
    return k;
}

bool rl_value_key_equal(const rl_value *a, const rl_value *b)
{
    if (a->d.isnull || b->d.isnull)
        return false;
    bool as = rl_oid_is_stringlike(a->oid), bs = rl_oid_is_stringlike(b->oid);
    if (as != bs)
        return false;
    if (as)
        return a->d.v.s.len == b->d.v.s.len &&
               (a->d.v.s.len == 0 || memcmp(a->d.v.s.p, b->d.v.s.p, a->d.v.s.len) == 0);
    return rl_oid_is_intlike(a->oid) && rl_oid_is_intlike(b->oid) && a->d.v.i == b->d.v.i;
}

/* ------------------------------------------------------------ key sets */

int rl_keyset_init(rl_keyset *k, size_t col, bool string)
{
    memset(k, 0, sizeof *k);
    k->col = col;
    k->string = string;
    k->nslots = 16;
    k->slots = calloc(k->nslots, sizeof *k->slots);
    return k->slots ? 0 : -1;
}

/* Slot of v: where it is, or the empty slot where it would go. */
static size_t keyset_slot(const rl_keyset *k, const rl_value *v, uint64_t h)
{
    size_t mask = k->nslots - 1, s = (size_t)h & mask;
    while (k->slots[s] && !rl_value_key_equal(&k->vals[k->slots[s] - 1], v))
        s = (s + 1) & mask;
    return s;
}

static int keyset_rehash(rl_keyset *k)
{
    size_t nslots = k->nslots * 2;
    uint32_t *slots = calloc(nslots, sizeof *slots);
    if (!slots)
        return -1;
    free(k->slots);
    k->slots = slots;
    k->nslots = nslots;
    for (size_t i = 0; i < k->n; i++) {
        rl_value_key key = rl_value_key_of(&k->vals[i]);
        k->slots[keyset_slot(k, &k->vals[i], key.h)] = (uint32_t)(i + 1);
    }
    return 0;
}

int rl_keyset_add(rl_keyset *k, const rl_value *v)
{
    rl_value_key key = rl_value_key_of(v);
    if (!key.ok || key.string != k->string)
        return 0;
    size_t s = keyset_slot(k, v, key.h);
    if (k->slots[s])
        return 0; /* already there */
    if (k->n >= UINT32_MAX - 1)
        return -1;
    rl_value *grown = rl_array_reserve(k->vals, k->n, &k->cap, sizeof *grown, 16);
    if (!grown)
        return -1;
    k->vals = grown;
    k->vals[k->n++] = *v;
    k->slots[s] = (uint32_t)k->n;
    assert(k->n <= k->nslots);
    return 2 * k->n > k->nslots ? keyset_rehash(k) : 0;
}

bool rl_keyset_has(const rl_keyset *k, const rl_value *v)
{
    if (k->n <= 4) { /* a few keys: compare, no hash (most scans have one) */
        for (size_t i = 0; i < k->n; i++)
            if (rl_value_key_equal(&k->vals[i], v))
                return true;
        return false;
    }
    rl_value_key key = rl_value_key_of(v);
    if (!key.ok || key.string != k->string)
        return false;
    return k->slots[keyset_slot(k, v, key.h)] != 0;
}

void rl_keyset_free(rl_keyset *k)
{
    free(k->vals);
    free(k->slots);
    memset(k, 0, sizeof *k);
}

void rl_scan_keys_free(rl_scan_keys *keys)
{
    for (size_t i = 0; keys && i < keys->n; i++)
        rl_keyset_free(&keys->sets[i]);
    if (keys)
        keys->n = 0;
}

bool rl_scan_keys_admit(const rl_scan_keys *keys, const rl_value *row)
{
    for (size_t i = 0; keys && i < keys->n; i++)
        if (!rl_keyset_has(&keys->sets[i], &row[keys->sets[i].col]))
            return false;
    return true;
}
