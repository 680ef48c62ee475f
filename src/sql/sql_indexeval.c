/*
 * sql_indexeval.c — the key values of a row in a UNIQUE index over
 * expressions or with a predicate, computed for the catalog.
 *
 * Owns: rl_index_key_values, the catalog's rl_index_fn, which rl_exec_txn
 * hands every transaction the SQL layer begins: the catalog calls it for
 * each row it writes, deletes or checks (INSERT, UPDATE, COPY, ON
 * CONFLICT, FOREIGN KEY actions, CREATE UNIQUE INDEX over the rows, the
 * refill after a rename) to key the row's entry (0x80 07); the session's
 * cache of parsed index texts.
 *
 * Invariants: evaluation reads nothing of the catalog (the catalog calls
 * it in the middle of a row write, holding rows it read): the table's
 * shape is built from the descriptor the catalog hands over, and an
 * index's expressions and predicate are immutable (CREATE INDEX refuses
 * others, 42P17). A text is the plain one pg_get_indexdef prints, which
 * reads back as itself (sql_index.c). A predicate that is not true keeps
 * the row out of the index; a text naming a column the descriptor lacks
 * (a table rebuilt in a new shape, whose indexes follow it afterwards)
 * too; any other error of the evaluation is the row write's.
 */
#include <stdlib.h>
#include <string.h>

#include "sql/sql_cast.h"
#include "sql/sql_check.h"
#include "sql/sql_parse.h"
#include "sql/sql_scan.h"

#define INDEX_EXPRS_MAX 64 /* parsed texts a session keeps */

typedef struct index_text {
    char *text;
    rl_parsed *p;
} index_text;

struct rl_index_exprs {
    size_t n;
    index_text e[INDEX_EXPRS_MAX];
};

void rl_index_exprs_free(rl_session *s)
{
    rl_index_exprs *c = s->index_exprs;
    if (!c)
        return;
    for (size_t i = 0; i < c->n; i++) {
        free(c->e[i].text);
        rl_parsed_release(c->e[i].p);
    }
    free(c);
    s->index_exprs = NULL;
}

/* Stored text `text` parsed, from the session's cache (a full cache is
 * emptied: a session rarely writes through more than a few indexes). */
static int parsed_text(rl_exec *x, const char *text, const rl_parsed **p,
                       const PgQuery__Node **expr)
{
    rl_index_exprs *c = x->s->index_exprs;
    if (!c && !(c = x->s->index_exprs = calloc(1, sizeof *c)))
        return rl_exec_error(x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    size_t i = 0;
    while (i < c->n && strcmp(c->e[i].text, text) != 0)
        i++;
    if (i == c->n) {
        if (c->n == INDEX_EXPRS_MAX) {
            rl_index_exprs_free(x->s);
            return parsed_text(x, text, p, expr);
        }
        rl_parsed *np;
        const PgQuery__Node *ne;
        char *copy = strdup(text);
        if (!copy)
            return rl_exec_error(x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
        if (rl_check_parse_text(x, text, &np, &ne) < 0) {
            free(copy);
            return -1;
        }
        c->e[c->n++] = (index_text){copy, np};
    }
    *p = c->e[i].p;
    const PgQuery__ParseResult *t = rl_parsed_tree(*p);
    *expr = t->stmts[0]->stmt->select_stmt->target_list[0]->res_target->val;
    return 0;
}

/* A column of the shape by name, or -1. */
static int shape_column(const rl_rowset *shape, size_t ncols, const char *name)
{
    for (size_t c = 0; c < ncols; c++)
        if (strcmp(shape->cols[c].name, name) == 0)
            return (int)c;
    return -1;
}

/* Text `text` on the row; *gone when it names a column the table lacks. */
static int eval_text(rl_exec *x, const char *text, const rl_rowset *shape, size_t ncols,
                     const rl_value *row, rl_arena *arena, uint32_t oid, int32_t typmod,
                     rl_value *out, bool *gone)
{
    const rl_parsed *p = NULL;
    const PgQuery__Node *expr = NULL;
    if (parsed_text(x, text, &p, &expr) < 0)
        return -1;
    rl_error keep = *x->err;
    if (rl_check_eval(x, p, expr, shape, ncols, row, arena, oid, typmod, out) == 0)
        return 0;
    if (strcmp(x->err->sqlstate, RL_SQLSTATE_UNDEFINED_COLUMN) != 0)
        return -1;
    *x->err = keep;
    *gone = true;
    return 0;
}

int rl_index_key_values(void *ctx, const char *schema, const rl_index_def *def,
                        const rl_table_desc *d, const rl_datum *row, rl_arena *arena,
                        rl_datum *vals, rl_type *types, rl_error *err)
{
    rl_session *s = ctx;
    rl_exec x = {.s = s, .err = err};
    rl_relation rel = {.kind = RL_REL_STORED, .desc = d};
    rl_str_copy(rel.schema, sizeof rel.schema, schema);
    rl_str_copy(rel.name, sizeof rel.name, d->name);
    rl_rowset *shape = rl_relation_shape(&x, &rel, rel.name);
    if (!shape)
        return -1;
    size_t ncols = shape->ncols - 1; /* ctid last */
    rl_value *vrow = calloc(ncols ? ncols : 1, sizeof *vrow);
    if (!vrow) {
        rl_rowset_free(shape);
        return rl_exec_error(&x, RL_SQLSTATE_OUT_OF_MEMORY, -1, "out of memory");
    }
    for (size_t c = 0; c < ncols; c++)
        vrow[c] = (rl_value){.oid = shape->cols[c].oid, .typmod = shape->cols[c].typmod,
                             .d = row[c]};
    bool gone = false;
    int rc = 1;
    rl_value v;
    const char *pred = rl_index_def_pred(def, false);
    if (pred && eval_text(&x, pred, shape, ncols, vrow, arena, 0, -1, &v, &gone) < 0)
        rc = -1;
    else if (gone || (pred && (v.d.isnull || v.oid != RL_OID_BOOL || !v.d.v.b)))
        rc = 0; /* not in the index */
    for (size_t i = 0; rc == 1 && i < def->ncols; i++) {
        if (def->opts[i] & RL_INDEX_COL_EXPR) {
            if (eval_text(&x, rl_index_def_expr(def, i, false), shape, ncols, vrow, arena,
                          def->expr_type[i], def->expr_typmod[i], &v, &gone) < 0) {
                rc = -1;
                break;
            }
        } else {
            int c = shape_column(shape, ncols, def->cols[i]);
            gone = c < 0;
            if (!gone)
                v = vrow[c];
        }
        if (gone) {
            rc = 0;
            break;
        }
        types[i] = rl_oid_type(v.oid);
        vals[i] = v.d;
        if (types[i] == RL_T_INVALID)
            rc = rl_exec_error(&x, RL_SQLSTATE_FEATURE_NOT_SUPPORTED, -1,
                               "RockLake cannot keep unique index values of type %s",
                               rl_oid_type_name(v.oid));
    }
    free(vrow);
    rl_rowset_free(shape);
    return rc;
}
