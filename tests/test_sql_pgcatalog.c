/*
 * test_sql_pgcatalog.c — relations, scans, ctids and pg_catalog, end to end
 * through rl_session_simple_query.
 *
 * Covers: DuckDB's catalog-discovery statements (the 5-statement batch and
 * the per-table variant) against a catalog holding the 28 DuckLake tables,
 * compared with PostgreSQL 15's answers captured in the corpus (phase 03,
 * C6; the lake's oids masked since they are volatile) — PostgreSQL's own
 * relations of pg_catalog / information_schema included, with their real
 * oids; to_regclass and the
 * version()/pg_settings probe; key-prefix pushdown reading one table's keys
 * among 10,000 tables' rows (EXPLAIN ANALYZE's "Keys read"); the O(1) latest
 * snapshot read (rl_relation_max_key, counted in x->keys_read) including its
 * MVCC view; ctid stability within a transaction; tid parsing; 42P01;
 * regrole of the lake's own roles (names, RowDescription, binary form).
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "sql/sql_int.h"
#include "testutil.h"

/* ------------------------------------------------------------ recorder */

#define MAX_SETS 16

typedef struct result_set {
    char **rows; /* "v1|v2|..." with N for NULL */
    size_t n, cap;
    char cols[1024]; /* "name:oid ..." */
    char tag[64];
} result_set;

typedef struct recorder {
    result_set sets[MAX_SETS];
    size_t nsets;
    char last_tag[64];
    rl_session *sess; /* prints reg* values by name, as the server does */
} recorder;

static void rec_clear(recorder *r)
{
    for (size_t i = 0; i < r->nsets; i++) {
        for (size_t j = 0; j < r->sets[i].n; j++)
            free(r->sets[i].rows[j]);
        free(r->sets[i].rows);
    }
    memset(r, 0, sizeof *r);
}

static int on_rowdesc(void *ctx, size_t ncols, const rl_col_info *cols)
{
    recorder *r = ctx;
    if (r->nsets == MAX_SETS)
        return -1;
    result_set *s = &r->sets[r->nsets++];
    size_t off = 0;
    for (size_t i = 0; i < ncols && off < sizeof s->cols; i++)
        off += (size_t)snprintf(s->cols + off, sizeof s->cols - off, "%s%s:%u", i ? " " : "",
                                cols[i].name, cols[i].type_oid);
    return 0;
}

static int on_row(void *ctx, size_t ncols, const rl_value *vals)
{
    recorder *r = ctx;
    if (r->nsets == 0)
        return -1;
    result_set *s = &r->sets[r->nsets - 1];
    rl_buf b;
    rl_buf_init(&b, 0);
    for (size_t i = 0; i < ncols; i++) {
        if (i)
            rl_buf_put_u8(&b, '|');
        if (vals[i].d.isnull)
            rl_buf_put_u8(&b, 'N');
        else
            rl_session_value_text(r->sess, &b, &vals[i]);
    }
    rl_buf_put_u8(&b, 0);
    if (s->n == s->cap) {
        s->cap = s->cap ? s->cap * 2 : 64;
        s->rows = realloc(s->rows, s->cap * sizeof *s->rows);
    }
    s->rows[s->n++] = (char *)rl_buf_steal(&b, NULL);
    return 0;
}

static int on_complete(void *ctx, const char *tag)
{
    recorder *r = ctx;
    snprintf(r->last_tag, sizeof r->last_tag, "%s", tag);
    if (r->nsets)
        snprintf(r->sets[r->nsets - 1].tag, sizeof r->sets[0].tag, "%s", tag);
    return 0;
}

static const rl_sink rec_sink = {
    .row_description = on_rowdesc, .data_row = on_row, .command_complete = on_complete};

/* ---------------------------------------------------------------- setup */

static rl_catalog *cat;
static rl_engine *eng;

static int run(rl_session *s, recorder *r, const char *sql, rl_error *err)
{
    rec_clear(r);
    r->sess = s;
    rl_sink sink = rec_sink;
    sink.ctx = r;
    memset(err, 0, sizeof *err);
    return rl_session_simple_query(s, sql, &sink, err) == RL_EXEC_ERROR ? -1 : 0;
}

static void register_ducklake_tables(void)
{
    rl_error err;
    rl_txn *t = rl_txn_begin(cat, &err);
    CHECK(t != NULL);
    for (size_t i = 0; t && i < rl_ntables; i++)
        if (rl_desc_in_format(&rl_tables[i], rl_catalog_format(cat)))
            CHECK(rl_txn_register_fixed(t, "public", &rl_tables[i], false, &err) == 0);
    CHECK(rl_txn_commit(t, &err) == 0);
    rl_txn_free(t);
}

static void open_engine(const char *tag)
{
    char url[128];
    snprintf(url, sizeof url, "memory://pgcatalog-%s-%d", tag, (int)getpid());
    rl_catalog_options co = {.create_if_missing = true};
    rl_error err;
    cat = rl_catalog_open(url, &co, &err);
    CHECK(cat != NULL);
    rl_engine_options eo = {.database = "lakecat"};
    eng = rl_engine_new(cat, &eo, &err);
    CHECK(eng != NULL);
}

static void close_engine(void)
{
    rl_error err;
    rl_engine_free(eng);
    rl_catalog_close(cat, &err);
    eng = NULL;
    cat = NULL;
}

static rl_session *new_session(void)
{
    rl_session_info info = {.user = "lake", .application_name = "", .client_addr = "127.0.0.1"};
    return rl_session_new(eng, &info);
}

/* --------------------------------------------- discovery vs PostgreSQL 15 */

/* PostgreSQL 15's rows of namespace 2200 in the table query, in order:
 * relname|relpages|attname|type_name|type_modifier|ndim|attnum|notnull|
 * constraint_type|constraint_key|type_schema|column_comment|table_comment
 * (namespace_id and constraint_id are oids: volatile, left out). */
static const char expected_public[] =
    "ducklake_column|0|column_id|int8|-1|0|1|f|N|N|pg_catalog|N|N\n"
    "ducklake_column|0|begin_snapshot|int8|-1|0|2|f|N|N|pg_catalog|N|N\n"
    "ducklake_column|0|end_snapshot|int8|-1|0|3|f|N|N|pg_catalog|N|N\n"
    "ducklake_column|0|table_id|int8|-1|0|4|f|N|N|pg_catalog|N|N\n"
    "ducklake_column|0|column_order|int8|-1|0|5|f|N|N|pg_catalog|N|N\n"
    "ducklake_column|0|column_name|varchar|-1|0|6|f|N|N|pg_catalog|N|N\n"
    "ducklake_column|0|column_type|varchar|-1|0|7|f|N|N|pg_catalog|N|N\n"
    "ducklake_column|0|initial_default|varchar|-1|0|8|f|N|N|pg_catalog|N|N\n"
    "ducklake_column|0|default_value|varchar|-1|0|9|f|N|N|pg_catalog|N|N\n"
    "ducklake_column|0|nulls_allowed|bool|-1|0|10|f|N|N|pg_catalog|N|N\n"
    "ducklake_column|0|parent_column|int8|-1|0|11|f|N|N|pg_catalog|N|N\n"
    "ducklake_column|0|default_value_type|varchar|-1|0|12|f|N|N|pg_catalog|N|N\n"
    "ducklake_column|0|default_value_dialect|varchar|-1|0|13|f|N|N|pg_catalog|N|N\n"
    "ducklake_column_mapping|0|mapping_id|int8|-1|0|1|f|N|N|pg_catalog|N|N\n"
    "ducklake_column_mapping|0|table_id|int8|-1|0|2|f|N|N|pg_catalog|N|N\n"
    "ducklake_column_mapping|0|type|varchar|-1|0|3|f|N|N|pg_catalog|N|N\n"
    "ducklake_column_tag|0|table_id|int8|-1|0|1|f|N|N|pg_catalog|N|N\n"
    "ducklake_column_tag|0|column_id|int8|-1|0|2|f|N|N|pg_catalog|N|N\n"
    "ducklake_column_tag|0|begin_snapshot|int8|-1|0|3|f|N|N|pg_catalog|N|N\n"
    "ducklake_column_tag|0|end_snapshot|int8|-1|0|4|f|N|N|pg_catalog|N|N\n"
    "ducklake_column_tag|0|key|varchar|-1|0|5|f|N|N|pg_catalog|N|N\n"
    "ducklake_column_tag|0|value|varchar|-1|0|6|f|N|N|pg_catalog|N|N\n"
    "ducklake_data_file|0|data_file_id|int8|-1|0|1|t|N|N|pg_catalog|N|N\n"
    "ducklake_data_file|0|table_id|int8|-1|0|2|f|N|N|pg_catalog|N|N\n"
    "ducklake_data_file|0|begin_snapshot|int8|-1|0|3|f|N|N|pg_catalog|N|N\n"
    "ducklake_data_file|0|end_snapshot|int8|-1|0|4|f|N|N|pg_catalog|N|N\n"
    "ducklake_data_file|0|file_order|int8|-1|0|5|f|N|N|pg_catalog|N|N\n"
    "ducklake_data_file|0|path|varchar|-1|0|6|f|N|N|pg_catalog|N|N\n"
    "ducklake_data_file|0|path_is_relative|bool|-1|0|7|f|N|N|pg_catalog|N|N\n"
    "ducklake_data_file|0|file_format|varchar|-1|0|8|f|N|N|pg_catalog|N|N\n"
    "ducklake_data_file|0|record_count|int8|-1|0|9|f|N|N|pg_catalog|N|N\n"
    "ducklake_data_file|0|file_size_bytes|int8|-1|0|10|f|N|N|pg_catalog|N|N\n"
    "ducklake_data_file|0|footer_size|int8|-1|0|11|f|N|N|pg_catalog|N|N\n"
    "ducklake_data_file|0|row_id_start|int8|-1|0|12|f|N|N|pg_catalog|N|N\n"
    "ducklake_data_file|0|partition_id|int8|-1|0|13|f|N|N|pg_catalog|N|N\n"
    "ducklake_data_file|0|encryption_key|varchar|-1|0|14|f|N|N|pg_catalog|N|N\n"
    "ducklake_data_file|0|mapping_id|int8|-1|0|15|f|N|N|pg_catalog|N|N\n"
    "ducklake_data_file|0|partial_max|int8|-1|0|16|f|N|N|pg_catalog|N|N\n"
    "ducklake_data_file|N|N|N|N|N|N|N|p|{1}|N|N|N\n"
    "ducklake_delete_file|0|delete_file_id|int8|-1|0|1|t|N|N|pg_catalog|N|N\n"
    "ducklake_delete_file|0|table_id|int8|-1|0|2|f|N|N|pg_catalog|N|N\n"
    "ducklake_delete_file|0|begin_snapshot|int8|-1|0|3|f|N|N|pg_catalog|N|N\n"
    "ducklake_delete_file|0|end_snapshot|int8|-1|0|4|f|N|N|pg_catalog|N|N\n"
    "ducklake_delete_file|0|data_file_id|int8|-1|0|5|f|N|N|pg_catalog|N|N\n"
    "ducklake_delete_file|0|path|varchar|-1|0|6|f|N|N|pg_catalog|N|N\n"
    "ducklake_delete_file|0|path_is_relative|bool|-1|0|7|f|N|N|pg_catalog|N|N\n"
    "ducklake_delete_file|0|format|varchar|-1|0|8|f|N|N|pg_catalog|N|N\n"
    "ducklake_delete_file|0|delete_count|int8|-1|0|9|f|N|N|pg_catalog|N|N\n"
    "ducklake_delete_file|0|file_size_bytes|int8|-1|0|10|f|N|N|pg_catalog|N|N\n"
    "ducklake_delete_file|0|footer_size|int8|-1|0|11|f|N|N|pg_catalog|N|N\n"
    "ducklake_delete_file|0|encryption_key|varchar|-1|0|12|f|N|N|pg_catalog|N|N\n"
    "ducklake_delete_file|0|partial_max|int8|-1|0|13|f|N|N|pg_catalog|N|N\n"
    "ducklake_delete_file|N|N|N|N|N|N|N|p|{1}|N|N|N\n"
    "ducklake_file_column_stats|0|data_file_id|int8|-1|0|1|f|N|N|pg_catalog|N|N\n"
    "ducklake_file_column_stats|0|table_id|int8|-1|0|2|f|N|N|pg_catalog|N|N\n"
    "ducklake_file_column_stats|0|column_id|int8|-1|0|3|f|N|N|pg_catalog|N|N\n"
    "ducklake_file_column_stats|0|column_size_bytes|int8|-1|0|4|f|N|N|pg_catalog|N|N\n"
    "ducklake_file_column_stats|0|value_count|int8|-1|0|5|f|N|N|pg_catalog|N|N\n"
    "ducklake_file_column_stats|0|null_count|int8|-1|0|6|f|N|N|pg_catalog|N|N\n"
    "ducklake_file_column_stats|0|min_value|varchar|-1|0|7|f|N|N|pg_catalog|N|N\n"
    "ducklake_file_column_stats|0|max_value|varchar|-1|0|8|f|N|N|pg_catalog|N|N\n"
    "ducklake_file_column_stats|0|contains_nan|bool|-1|0|9|f|N|N|pg_catalog|N|N\n"
    "ducklake_file_column_stats|0|extra_stats|varchar|-1|0|10|f|N|N|pg_catalog|N|N\n"
    "ducklake_file_partition_value|0|data_file_id|int8|-1|0|1|f|N|N|pg_catalog|N|N\n"
    "ducklake_file_partition_value|0|table_id|int8|-1|0|2|f|N|N|pg_catalog|N|N\n"
    "ducklake_file_partition_value|0|partition_key_index|int8|-1|0|3|f|N|N|pg_catalog|N|N\n"
    "ducklake_file_partition_value|0|partition_value|varchar|-1|0|4|f|N|N|pg_catalog|N|N\n"
    "ducklake_file_variant_stats|0|data_file_id|int8|-1|0|1|f|N|N|pg_catalog|N|N\n"
    "ducklake_file_variant_stats|0|table_id|int8|-1|0|2|f|N|N|pg_catalog|N|N\n"
    "ducklake_file_variant_stats|0|column_id|int8|-1|0|3|f|N|N|pg_catalog|N|N\n"
    "ducklake_file_variant_stats|0|variant_path|varchar|-1|0|4|f|N|N|pg_catalog|N|N\n"
    "ducklake_file_variant_stats|0|shredded_type|varchar|-1|0|5|f|N|N|pg_catalog|N|N\n"
    "ducklake_file_variant_stats|0|column_size_bytes|int8|-1|0|6|f|N|N|pg_catalog|N|N\n"
    "ducklake_file_variant_stats|0|value_count|int8|-1|0|7|f|N|N|pg_catalog|N|N\n"
    "ducklake_file_variant_stats|0|null_count|int8|-1|0|8|f|N|N|pg_catalog|N|N\n"
    "ducklake_file_variant_stats|0|min_value|varchar|-1|0|9|f|N|N|pg_catalog|N|N\n"
    "ducklake_file_variant_stats|0|max_value|varchar|-1|0|10|f|N|N|pg_catalog|N|N\n"
    "ducklake_file_variant_stats|0|contains_nan|bool|-1|0|11|f|N|N|pg_catalog|N|N\n"
    "ducklake_file_variant_stats|0|extra_stats|varchar|-1|0|12|f|N|N|pg_catalog|N|N\n"
    "ducklake_files_scheduled_for_deletion|0|data_file_id|int8|-1|0|1|f|N|N|pg_catalog|N|N\n"
    "ducklake_files_scheduled_for_deletion|0|path|varchar|-1|0|2|f|N|N|pg_catalog|N|N\n"
    "ducklake_files_scheduled_for_deletion|0|path_is_relative|bool|-1|0|3|f|N|N|pg_catalog|N|N\n"
    "ducklake_files_scheduled_for_deletion|0|schedule_start|timestamptz|-1|0|4|f|N|N|pg_catalog|N|N\n"
    "ducklake_inlined_data_tables|0|table_id|int8|-1|0|1|f|N|N|pg_catalog|N|N\n"
    "ducklake_inlined_data_tables|0|table_name|varchar|-1|0|2|f|N|N|pg_catalog|N|N\n"
    "ducklake_inlined_data_tables|0|schema_version|int8|-1|0|3|f|N|N|pg_catalog|N|N\n"
    "ducklake_macro|0|schema_id|int8|-1|0|1|f|N|N|pg_catalog|N|N\n"
    "ducklake_macro|0|macro_id|int8|-1|0|2|f|N|N|pg_catalog|N|N\n"
    "ducklake_macro|0|macro_name|varchar|-1|0|3|f|N|N|pg_catalog|N|N\n"
    "ducklake_macro|0|begin_snapshot|int8|-1|0|4|f|N|N|pg_catalog|N|N\n"
    "ducklake_macro|0|end_snapshot|int8|-1|0|5|f|N|N|pg_catalog|N|N\n"
    "ducklake_macro_impl|0|macro_id|int8|-1|0|1|f|N|N|pg_catalog|N|N\n"
    "ducklake_macro_impl|0|impl_id|int8|-1|0|2|f|N|N|pg_catalog|N|N\n"
    "ducklake_macro_impl|0|dialect|varchar|-1|0|3|f|N|N|pg_catalog|N|N\n"
    "ducklake_macro_impl|0|sql|varchar|-1|0|4|f|N|N|pg_catalog|N|N\n"
    "ducklake_macro_impl|0|type|varchar|-1|0|5|f|N|N|pg_catalog|N|N\n"
    "ducklake_macro_parameters|0|macro_id|int8|-1|0|1|f|N|N|pg_catalog|N|N\n"
    "ducklake_macro_parameters|0|impl_id|int8|-1|0|2|f|N|N|pg_catalog|N|N\n"
    "ducklake_macro_parameters|0|column_id|int8|-1|0|3|f|N|N|pg_catalog|N|N\n"
    "ducklake_macro_parameters|0|parameter_name|varchar|-1|0|4|f|N|N|pg_catalog|N|N\n"
    "ducklake_macro_parameters|0|parameter_type|varchar|-1|0|5|f|N|N|pg_catalog|N|N\n"
    "ducklake_macro_parameters|0|default_value|varchar|-1|0|6|f|N|N|pg_catalog|N|N\n"
    "ducklake_macro_parameters|0|default_value_type|varchar|-1|0|7|f|N|N|pg_catalog|N|N\n"
    "ducklake_metadata|0|key|varchar|-1|0|1|t|N|N|pg_catalog|N|N\n"
    "ducklake_metadata|0|value|varchar|-1|0|2|t|N|N|pg_catalog|N|N\n"
    "ducklake_metadata|0|scope|varchar|-1|0|3|f|N|N|pg_catalog|N|N\n"
    "ducklake_metadata|0|scope_id|int8|-1|0|4|f|N|N|pg_catalog|N|N\n"
    "ducklake_name_mapping|0|mapping_id|int8|-1|0|1|f|N|N|pg_catalog|N|N\n"
    "ducklake_name_mapping|0|column_id|int8|-1|0|2|f|N|N|pg_catalog|N|N\n"
    "ducklake_name_mapping|0|source_name|varchar|-1|0|3|f|N|N|pg_catalog|N|N\n"
    "ducklake_name_mapping|0|target_field_id|int8|-1|0|4|f|N|N|pg_catalog|N|N\n"
    "ducklake_name_mapping|0|parent_column|int8|-1|0|5|f|N|N|pg_catalog|N|N\n"
    "ducklake_name_mapping|0|is_partition|bool|-1|0|6|f|N|N|pg_catalog|N|N\n"
    "ducklake_partition_column|0|partition_id|int8|-1|0|1|f|N|N|pg_catalog|N|N\n"
    "ducklake_partition_column|0|table_id|int8|-1|0|2|f|N|N|pg_catalog|N|N\n"
    "ducklake_partition_column|0|partition_key_index|int8|-1|0|3|f|N|N|pg_catalog|N|N\n"
    "ducklake_partition_column|0|column_id|int8|-1|0|4|f|N|N|pg_catalog|N|N\n"
    "ducklake_partition_column|0|transform|varchar|-1|0|5|f|N|N|pg_catalog|N|N\n"
    "ducklake_partition_info|0|partition_id|int8|-1|0|1|f|N|N|pg_catalog|N|N\n"
    "ducklake_partition_info|0|table_id|int8|-1|0|2|f|N|N|pg_catalog|N|N\n"
    "ducklake_partition_info|0|begin_snapshot|int8|-1|0|3|f|N|N|pg_catalog|N|N\n"
    "ducklake_partition_info|0|end_snapshot|int8|-1|0|4|f|N|N|pg_catalog|N|N\n"
    "ducklake_schema|0|schema_id|int8|-1|0|1|t|N|N|pg_catalog|N|N\n"
    "ducklake_schema|0|schema_uuid|uuid|-1|0|2|f|N|N|pg_catalog|N|N\n"
    "ducklake_schema|0|begin_snapshot|int8|-1|0|3|f|N|N|pg_catalog|N|N\n"
    "ducklake_schema|0|end_snapshot|int8|-1|0|4|f|N|N|pg_catalog|N|N\n"
    "ducklake_schema|0|schema_name|varchar|-1|0|5|f|N|N|pg_catalog|N|N\n"
    "ducklake_schema|0|path|varchar|-1|0|6|f|N|N|pg_catalog|N|N\n"
    "ducklake_schema|0|path_is_relative|bool|-1|0|7|f|N|N|pg_catalog|N|N\n"
    "ducklake_schema|N|N|N|N|N|N|N|p|{1}|N|N|N\n"
    "ducklake_schema_versions|0|begin_snapshot|int8|-1|0|1|f|N|N|pg_catalog|N|N\n"
    "ducklake_schema_versions|0|schema_version|int8|-1|0|2|f|N|N|pg_catalog|N|N\n"
    "ducklake_schema_versions|0|table_id|int8|-1|0|3|f|N|N|pg_catalog|N|N\n"
    "ducklake_snapshot|0|snapshot_id|int8|-1|0|1|t|N|N|pg_catalog|N|N\n"
    "ducklake_snapshot|0|snapshot_time|timestamptz|-1|0|2|f|N|N|pg_catalog|N|N\n"
    "ducklake_snapshot|0|schema_version|int8|-1|0|3|f|N|N|pg_catalog|N|N\n"
    "ducklake_snapshot|0|next_catalog_id|int8|-1|0|4|f|N|N|pg_catalog|N|N\n"
    "ducklake_snapshot|0|next_file_id|int8|-1|0|5|f|N|N|pg_catalog|N|N\n"
    "ducklake_snapshot|N|N|N|N|N|N|N|p|{1}|N|N|N\n"
    "ducklake_snapshot_changes|0|snapshot_id|int8|-1|0|1|t|N|N|pg_catalog|N|N\n"
    "ducklake_snapshot_changes|0|changes_made|varchar|-1|0|2|f|N|N|pg_catalog|N|N\n"
    "ducklake_snapshot_changes|0|author|varchar|-1|0|3|f|N|N|pg_catalog|N|N\n"
    "ducklake_snapshot_changes|0|commit_message|varchar|-1|0|4|f|N|N|pg_catalog|N|N\n"
    "ducklake_snapshot_changes|0|commit_extra_info|varchar|-1|0|5|f|N|N|pg_catalog|N|N\n"
    "ducklake_snapshot_changes|N|N|N|N|N|N|N|p|{1}|N|N|N\n"
    "ducklake_sort_expression|0|sort_id|int8|-1|0|1|f|N|N|pg_catalog|N|N\n"
    "ducklake_sort_expression|0|table_id|int8|-1|0|2|f|N|N|pg_catalog|N|N\n"
    "ducklake_sort_expression|0|sort_key_index|int8|-1|0|3|f|N|N|pg_catalog|N|N\n"
    "ducklake_sort_expression|0|expression|varchar|-1|0|4|f|N|N|pg_catalog|N|N\n"
    "ducklake_sort_expression|0|dialect|varchar|-1|0|5|f|N|N|pg_catalog|N|N\n"
    "ducklake_sort_expression|0|sort_direction|varchar|-1|0|6|f|N|N|pg_catalog|N|N\n"
    "ducklake_sort_expression|0|null_order|varchar|-1|0|7|f|N|N|pg_catalog|N|N\n"
    "ducklake_sort_info|0|sort_id|int8|-1|0|1|f|N|N|pg_catalog|N|N\n"
    "ducklake_sort_info|0|table_id|int8|-1|0|2|f|N|N|pg_catalog|N|N\n"
    "ducklake_sort_info|0|begin_snapshot|int8|-1|0|3|f|N|N|pg_catalog|N|N\n"
    "ducklake_sort_info|0|end_snapshot|int8|-1|0|4|f|N|N|pg_catalog|N|N\n"
    "ducklake_table|0|table_id|int8|-1|0|1|f|N|N|pg_catalog|N|N\n"
    "ducklake_table|0|table_uuid|uuid|-1|0|2|f|N|N|pg_catalog|N|N\n"
    "ducklake_table|0|begin_snapshot|int8|-1|0|3|f|N|N|pg_catalog|N|N\n"
    "ducklake_table|0|end_snapshot|int8|-1|0|4|f|N|N|pg_catalog|N|N\n"
    "ducklake_table|0|schema_id|int8|-1|0|5|f|N|N|pg_catalog|N|N\n"
    "ducklake_table|0|table_name|varchar|-1|0|6|f|N|N|pg_catalog|N|N\n"
    "ducklake_table|0|path|varchar|-1|0|7|f|N|N|pg_catalog|N|N\n"
    "ducklake_table|0|path_is_relative|bool|-1|0|8|f|N|N|pg_catalog|N|N\n"
    "ducklake_table_column_stats|0|table_id|int8|-1|0|1|f|N|N|pg_catalog|N|N\n"
    "ducklake_table_column_stats|0|column_id|int8|-1|0|2|f|N|N|pg_catalog|N|N\n"
    "ducklake_table_column_stats|0|contains_null|bool|-1|0|3|f|N|N|pg_catalog|N|N\n"
    "ducklake_table_column_stats|0|contains_nan|bool|-1|0|4|f|N|N|pg_catalog|N|N\n"
    "ducklake_table_column_stats|0|min_value|varchar|-1|0|5|f|N|N|pg_catalog|N|N\n"
    "ducklake_table_column_stats|0|max_value|varchar|-1|0|6|f|N|N|pg_catalog|N|N\n"
    "ducklake_table_column_stats|0|extra_stats|varchar|-1|0|7|f|N|N|pg_catalog|N|N\n"
    "ducklake_table_stats|0|table_id|int8|-1|0|1|f|N|N|pg_catalog|N|N\n"
    "ducklake_table_stats|0|record_count|int8|-1|0|2|f|N|N|pg_catalog|N|N\n"
    "ducklake_table_stats|0|next_row_id|int8|-1|0|3|f|N|N|pg_catalog|N|N\n"
    "ducklake_table_stats|0|file_size_bytes|int8|-1|0|4|f|N|N|pg_catalog|N|N\n"
    "ducklake_tag|0|object_id|int8|-1|0|1|f|N|N|pg_catalog|N|N\n"
    "ducklake_tag|0|begin_snapshot|int8|-1|0|2|f|N|N|pg_catalog|N|N\n"
    "ducklake_tag|0|end_snapshot|int8|-1|0|3|f|N|N|pg_catalog|N|N\n"
    "ducklake_tag|0|key|varchar|-1|0|4|f|N|N|pg_catalog|N|N\n"
    "ducklake_tag|0|value|varchar|-1|0|5|f|N|N|pg_catalog|N|N\n"
    "ducklake_view|0|view_id|int8|-1|0|1|f|N|N|pg_catalog|N|N\n"
    "ducklake_view|0|view_uuid|uuid|-1|0|2|f|N|N|pg_catalog|N|N\n"
    "ducklake_view|0|begin_snapshot|int8|-1|0|3|f|N|N|pg_catalog|N|N\n"
    "ducklake_view|0|end_snapshot|int8|-1|0|4|f|N|N|pg_catalog|N|N\n"
    "ducklake_view|0|schema_id|int8|-1|0|5|f|N|N|pg_catalog|N|N\n"
    "ducklake_view|0|view_name|varchar|-1|0|6|f|N|N|pg_catalog|N|N\n"
    "ducklake_view|0|dialect|varchar|-1|0|7|f|N|N|pg_catalog|N|N\n"
    "ducklake_view|0|sql|varchar|-1|0|8|f|N|N|pg_catalog|N|N\n"
    "ducklake_view|0|column_aliases|varchar|-1|0|9|f|N|N|pg_catalog|N|N\n"
;

/* The postgres extension's discovery statements, as DuckDB sends them:
 * tests/data/discovery_table_query.sql (two %s take a table filter, empty
 * when attaching) and tests/data/discovery_rest.sql. bench/templates.py
 * replays the same files. Tests run from the repository root. */
static char *discovery_table_query, *discovery_rest;

static char *read_test_data(const char *name)
{
    char path[256];
    snprintf(path, sizeof path, "tests/data/%s", name);
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "cannot open %s (run from the repository root)\n", path);
        exit(2);
    }
    rl_buf b;
    rl_buf_init(&b, 0);
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        rl_buf_put(&b, chunk, n);
    fclose(f);
    rl_buf_put_u8(&b, 0);
    size_t len;
    char *text = (char *)rl_buf_steal(&b, &len);
    if (!text) {
        fprintf(stderr, "out of memory reading %s\n", path);
        exit(2);
    }
    return text;
}

/* Rows of a table-query result set for namespace 2200, oids dropped, as
 * one "\n"-terminated string (the shape of expected_public). */
static char *public_rows(const result_set *s)
{
    rl_buf b;
    rl_buf_init(&b, 0);
    for (size_t i = 0; i < s->n; i++) {
        if (strncmp(s->rows[i], "2200|", 5) != 0)
            continue;
        /* fields: 0 ns, 1..8, 9 constraint_id, 10..14 */
        char *copy = strdup(s->rows[i]), *save = NULL;
        int f = 0;
        for (char *tok = strtok_r(copy, "|", &save); tok; tok = strtok_r(NULL, "|", &save), f++) {
            if (f == 0 || f == 9)
                continue;
            rl_buf_put_str(&b, tok);
            rl_buf_put_u8(&b, f == 14 ? '\n' : '|');
        }
        free(copy);
    }
    rl_buf_put_u8(&b, 0);
    return (char *)rl_buf_steal(&b, NULL);
}

static bool has_row(const result_set *s, const char *row)
{
    for (size_t i = 0; i < s->n; i++)
        if (strcmp(s->rows[i], row) == 0)
            return true;
    return false;
}

static size_t count_prefix(const result_set *s, const char *prefix)
{
    size_t n = 0;
    for (size_t i = 0; i < s->n; i++)
        n += strncmp(s->rows[i], prefix, strlen(prefix)) == 0;
    return n;
}

/* Print the first differing line of two multi-line strings. */
static void show_diff(const char *got, const char *want)
{
    int line = 1;
    while (*got && *want) {
        const char *ge = strchr(got, '\n'), *we = strchr(want, '\n');
        size_t gl = ge ? (size_t)(ge - got) : strlen(got), wl = we ? (size_t)(we - want) : strlen(want);
        if (gl != wl || memcmp(got, want, gl) != 0) {
            fprintf(stderr, "  line %d: got  %.*s\n          want %.*s\n", line, (int)gl, got,
                    (int)wl, want);
            return;
        }
        got += gl + (ge != NULL);
        want += wl + (we != NULL);
        line++;
    }
    if (*got || *want)
        fprintf(stderr, "  line %d: got %s / want %s\n", line, *got ? "more" : "end",
                *want ? "more" : "end");
}

static void test_discovery_batch(void)
{
    rl_session *s = new_session();
    recorder r = {0};
    rl_error err;
    size_t n = strlen(discovery_table_query) + strlen(discovery_rest) + 256;
    char *sql = malloc(n);
    int off = snprintf(sql, n,
                       "BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ;\n\n"
                       "SELECT oid, nspname\nFROM pg_namespace\n\nORDER BY oid;\n\n");
    off += snprintf(sql + off, n - (size_t)off, discovery_table_query, "", "");
    snprintf(sql + off, n - (size_t)off, "\n%s", discovery_rest);
    int rc = run(s, &r, sql, &err);
    if (rc < 0)
        fprintf(stderr, "  %s %s\n", err.sqlstate, err.message);
    CHECK(rc == 0);
    CHECK_EQ_INT(r.nsets, 5);
    if (r.nsets == 5) {
        /* 1: namespaces of a fresh database, by oid */
        CHECK_EQ_STR(r.sets[0].cols, "oid:26 nspname:19");
        CHECK_EQ_INT(r.sets[0].n, 4);
        if (r.sets[0].n == 4) {
            CHECK_EQ_STR(r.sets[0].rows[0], "11|pg_catalog");
            CHECK_EQ_STR(r.sets[0].rows[1], "99|pg_toast");
            CHECK_EQ_STR(r.sets[0].rows[2], "2200|public");
            CHECK_EQ_STR(r.sets[0].rows[3], "13207|information_schema");
        }
        /* 2: tables, columns and primary keys, exactly as PostgreSQL 15 */
        CHECK_EQ_STR(r.sets[1].cols,
                     "namespace_id:26 relname:19 relpages:23 attname:19 type_name:19 "
                     "type_modifier:23 ndim:23 attnum:21 notnull:16 constraint_id:26 "
                     "constraint_type:18 constraint_key:1005 type_schema:19 column_comment:25 "
                     "table_comment:25");
        char *got = public_rows(&r.sets[1]);
        CHECK_EQ_INT(strcmp(got, expected_public), 0);
        if (strcmp(got, expected_public) != 0)
            show_diff(got, expected_public);
        free(got);
        /* ... around PostgreSQL 15's own relations (namespaces 11 and
         * 13207): all 2,005 columns of its 208 relations and the 109 primary
         * keys / unique constraints, with real oids; relpages is 0 */
        const result_set *t2 = &r.sets[1];
        CHECK_EQ_INT(t2->n - count_prefix(t2, "2200|"), 2114);
        CHECK_EQ_INT(count_prefix(t2, "11|") + count_prefix(t2, "13207|"), 2114);
        if (t2->n > 0) {
            CHECK_EQ_STR(t2->rows[0],
                         "11|pg_aggregate|0|aggfnoid|regproc|-1|0|1|t|N|N|N|pg_catalog|N|N");
            CHECK_EQ_STR(t2->rows[t2->n - 1], "13207|views|0|is_trigger_insertable_into|"
                                              "yes_or_no|-1|0|10|f|N|N|N|information_schema|N|N");
        }
        CHECK(has_row(t2, "11|pg_class|N|N|N|N|N|N|N|10121|p|{1}|N|N|N"));
        CHECK(has_row(t2, "13207|_pg_foreign_data_wrappers|0|authorization_identifier|"
                          "sql_identifier|-1|0|6|f|N|N|N|information_schema|N|N"));
        CHECK(has_row(t2, "13207|_pg_foreign_data_wrappers|0|fdwoptions|_text|-1|0|3|f|N|N|N|"
                          "pg_catalog|N|N"));
        /* 3: no enums */
        CHECK_EQ_INT(r.sets[2].n, 0);
        /* 4: every table's row type: one row per column, as PostgreSQL,
         * the 2,005 columns of the system relations included */
        CHECK_EQ_INT(count_prefix(&r.sets[3], "2200|"), 184);
        CHECK_EQ_INT(count_prefix(&r.sets[3], "11|") + count_prefix(&r.sets[3], "13207|"), 2005);
        CHECK(has_row(&r.sets[3], "11|1259|pg_class|relname|name|pg_catalog"));
        /* 5: one index per primary key, after the 122 of pg_catalog */
        CHECK_EQ_STR(r.sets[4].cols, "oid:26 tablename:19 indexname:19");
        CHECK_EQ_INT(r.sets[4].n, 122 + 5);
        CHECK_EQ_INT(count_prefix(&r.sets[4], "11|"), 122);
        CHECK(has_row(&r.sets[4], "11|pg_class|pg_class_oid_index"));
        for (size_t i = 0; i < r.sets[4].n; i++) {
            char want[160];
            if (strncmp(r.sets[4].rows[i], "2200|", 5) != 0)
                continue;
            const char *t = strchr(r.sets[4].rows[i], '|');
            const char *e = t ? strchr(t + 1, '|') : NULL;
            CHECK(t && e);
            if (t && e) {
                snprintf(want, sizeof want, "2200|%.*s|%.*s_pkey", (int)(e - t - 1), t + 1,
                         (int)(e - t - 1), t + 1);
                CHECK_EQ_STR(r.sets[4].rows[i], want);
            }
        }
    }
    CHECK_EQ_INT(rl_session_status(s), 'T');
    CHECK(run(s, &r, "COMMIT", &err) == 0);
    free(sql);
    rec_clear(&r);
    rl_session_free(s);
}

/* The per-table variant DuckDB sends on a cache miss. */
static void test_discovery_single_table(void)
{
    static const struct {
        const char *table;
        size_t nrows;
    } cases[] = {{"ducklake_metadata", 4},    {"ducklake_metadata", 4},
                 {"ducklake_metadata", 4},    {"ducklake_snapshot", 6},
                 {"ducklake_nonexistent", 0}, {"ducklake_snapshot", 6},
                 {"ducklake_metadata", 4}};
    /* Repeats on purpose: from the second run of a shape on, the session's
     * parse cache hands out one tree whose literals are the first text's
     * (rl_const gives this run's); the relname of each run must decide. */
    rl_session *s = new_session();
    recorder r = {0};
    rl_error err;
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        char cond[160], sql[4096];
        snprintf(cond, sizeof cond, "AND pg_namespace.nspname IN ('public')AND relname='%s'",
                 cases[c].table);
        snprintf(sql, sizeof sql, discovery_table_query, cond, cond);
        CHECK(run(s, &r, sql, &err) == 0);
        CHECK_EQ_INT(r.nsets, 1);
        if (r.nsets != 1)
            continue;
        CHECK_EQ_INT(r.sets[0].n, cases[c].nrows);
        /* the same rows as the whole-catalog answer, in the same order */
        char *got = public_rows(&r.sets[0]);
        char prefix[80];
        snprintf(prefix, sizeof prefix, "%s|", cases[c].table);
        rl_buf want;
        rl_buf_init(&want, 0);
        for (const char *l = expected_public; *l;) {
            const char *e = strchr(l, '\n');
            if (strncmp(l, prefix, strlen(prefix)) == 0)
                rl_buf_put(&want, l, (size_t)(e - l) + 1);
            l = e + 1;
        }
        rl_buf_put_u8(&want, 0);
        CHECK_EQ_STR(got, (const char *)want.data);
        rl_buf_free(&want);
        free(got);
    }
    rec_clear(&r);
    rl_session_free(s);
}

/* Key sets (sql_select.c scan_keys) only save work: each query gives the
 * same rows as its twin whose conditions no scan can turn into key sets
 * (`col || '' = ...`, `col + 0 = ...`, a CROSS JOIN with the ON in WHERE
 * behind OR FALSE). */
static void test_scan_keys_same_rows(void)
{
    static const char *const pairs[][2] = {
        {"SELECT relname, attname, attnum FROM pg_class JOIN pg_attribute ON pg_class.oid = attrelid "
         "WHERE relname IN ('ducklake_snapshot', 'pg_type', 'nope') ORDER BY 1, 3",
         "SELECT relname, attname, attnum FROM pg_class JOIN pg_attribute ON pg_class.oid + 0 = attrelid "
         "WHERE relname || '' IN ('ducklake_snapshot', 'pg_type', 'nope') ORDER BY 1, 3"},
        {"SELECT c.relname, d.description FROM pg_class c LEFT JOIN pg_description d "
         "ON d.objoid = c.oid AND d.objsubid = 0 WHERE c.relkind = 'r' AND c.relnamespace = 2200 "
         "ORDER BY 1",
         "SELECT c.relname, d.description FROM pg_class c LEFT JOIN pg_description d "
         "ON d.objoid + 0 = c.oid AND d.objsubid = 0 WHERE c.relkind || '' = 'r' "
         "AND c.relnamespace + 0 = 2200 ORDER BY 1"},
        {"SELECT t.typname, n.nspname FROM pg_type t JOIN pg_namespace n ON n.oid = t.typnamespace "
         "WHERE t.oid IN (16, 20, 25, 1043, 99999) ORDER BY 1",
         "SELECT t.typname, n.nspname FROM pg_type t JOIN pg_namespace n ON n.oid + 0 = t.typnamespace "
         "WHERE t.oid + 0 IN (16, 20, 25, 1043, 99999) ORDER BY 1"},
        {"SELECT relname, conname FROM pg_class JOIN pg_constraint ON conrelid = pg_class.oid "
         "WHERE contype IN ('p', 'u') AND relname = 'ducklake_snapshot'",
         "SELECT relname, conname FROM pg_class JOIN pg_constraint ON conrelid + 0 = pg_class.oid "
         "WHERE contype || '' IN ('p', 'u') AND relname || '' = 'ducklake_snapshot'"},
        /* one statement's looks at the tables: by name (a partial list),
         * then needing all, then by another name; and by a name the
         * partial list lacks, then by the oid of a third table */
        {"SELECT (SELECT count(*) FROM pg_class WHERE relname = 'ducklake_snapshot'), "
         "(SELECT count(*) FROM pg_attribute), "
         "(SELECT count(*) FROM pg_class WHERE relname = 'ducklake_table')",
         "SELECT (SELECT count(*) FROM pg_class WHERE relname || '' = 'ducklake_snapshot'), "
         "(SELECT count(*) FROM pg_attribute), "
         "(SELECT count(*) FROM pg_class WHERE relname || '' = 'ducklake_table')"},
        {"SELECT (SELECT count(*) FROM pg_class WHERE relname = 'ducklake_snapshot'), "
         "(SELECT count(*) FROM pg_class WHERE relname = 'ducklake_table'), "
         "(SELECT count(*) FROM pg_attribute WHERE attrelid = "
         "(SELECT oid FROM pg_class WHERE relname || '' = 'ducklake_column'))",
         "SELECT (SELECT count(*) FROM pg_class WHERE relname || '' = 'ducklake_snapshot'), "
         "(SELECT count(*) FROM pg_class WHERE relname || '' = 'ducklake_table'), "
         "(SELECT count(*) FROM pg_attribute WHERE attrelid + 0 = "
         "(SELECT oid FROM pg_class WHERE relname || '' = 'ducklake_column'))"},
        /* a key of the other family (a string against an oid) is no key */
        {"SELECT relname FROM pg_class WHERE oid = '1259'",
         "SELECT relname FROM pg_class WHERE oid + 0 = 1259"},
    };
    rl_session *s = new_session();
    recorder a = {0}, b = {0};
    rl_error err;
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        for (int rep = 0; rep < 3; rep++) { /* cached trees too */
            CHECK(run(s, &a, pairs[i][0], &err) == 0);
            if (err.sqlstate[0])
                fprintf(stderr, "  %s: %s\n", err.sqlstate, err.message);
            CHECK(run(s, &b, pairs[i][1], &err) == 0);
            CHECK_EQ_INT(a.nsets, 1);
            CHECK_EQ_INT(b.nsets, 1);
            if (a.nsets != 1 || b.nsets != 1)
                continue;
            CHECK(a.sets[0].n > 0 || i == 6);
            CHECK_EQ_INT(a.sets[0].n, b.sets[0].n);
            for (size_t r = 0; r < a.sets[0].n && r < b.sets[0].n; r++)
                CHECK_EQ_STR(a.sets[0].rows[r], b.sets[0].rows[r]);
        }
    }
    rec_clear(&a);
    rec_clear(&b);
    rl_session_free(s);
}

/* A text two parses made a shared template: another session's first run of
 * it is a shared hit and still answers with its own literals. */
static void test_shared_parse_cache(void)
{
    rl_session *a = new_session(), *b = new_session();
    recorder r = {0};
    rl_error err;
    const char *q = "SELECT relname, relnatts FROM pg_class WHERE relname = '%s' AND relkind = 'r'";
    char sql[256];
    snprintf(sql, sizeof sql, q, "ducklake_snapshot");
    for (int i = 0; i < 2; i++)
        CHECK(run(a, &r, sql, &err) == 0);
    uint64_t hits = rl_parse_shared_hits();
    snprintf(sql, sizeof sql, q, "ducklake_table");
    CHECK(run(b, &r, sql, &err) == 0);
    CHECK(rl_parse_shared_hits() == hits + 1);
    CHECK_EQ_INT(r.nsets, 1);
    if (r.nsets == 1) {
        CHECK_EQ_INT(r.sets[0].n, 1);
        if (r.sets[0].n == 1)
            CHECK_EQ_STR(r.sets[0].rows[0], "ducklake_table|8");
    }
    rec_clear(&r);
    rl_session_free(a);
    rl_session_free(b);
}

static void test_attach_probes(void)
{
    rl_session *s = new_session();
    recorder r = {0};
    rl_error err;
    CHECK(run(s, &r, "SELECT to_regclass('duckdb_secrets');", &err) == 0);
    CHECK_EQ_INT(r.nsets, 1);
    if (r.nsets == 1) {
        CHECK_EQ_STR(r.sets[0].cols, "to_regclass:2205");
        CHECK_EQ_INT(r.sets[0].n, 1);
        if (r.sets[0].n == 1)
            CHECK_EQ_STR(r.sets[0].rows[0], "N");
    }
    CHECK(run(s, &r, "SELECT to_regclass('ducklake_snapshot');", &err) == 0);
    if (r.nsets == 1 && r.sets[0].n == 1)
        CHECK_EQ_STR(r.sets[0].rows[0], "ducklake_snapshot");
    CHECK(run(s, &r, "SELECT version(), (SELECT COUNT(*) FROM pg_settings WHERE name LIKE 'rds%');",
              &err) == 0);
    CHECK_EQ_INT(r.nsets, 1);
    if (r.nsets == 1 && r.sets[0].n == 1) {
        const char *bar = strrchr(r.sets[0].rows[0], '|');
        CHECK(bar && strcmp(bar, "|0") == 0);
    }
    CHECK(run(s, &r,
              "SELECT EXISTS (SELECT 1 FROM information_schema.tables WHERE table_schema = "
              "'public' AND table_name = 'ducklake_snapshot')",
              &err) == 0);
    if (r.nsets == 1 && r.sets[0].n == 1)
        CHECK_EQ_STR(r.sets[0].rows[0], "t");
    /* PostgreSQL's relations, as role lake sees them in a fresh database */
    CHECK(run(s, &r,
              "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'pg_catalog'",
              &err) == 0);
    if (r.nsets == 1 && r.sets[0].n == 1)
        CHECK_EQ_STR(r.sets[0].rows[0], "126");
    CHECK(run(s, &r, "SELECT count(*) FROM pg_tables WHERE schemaname = 'pg_catalog'", &err) == 0);
    if (r.nsets == 1 && r.sets[0].n == 1)
        CHECK_EQ_STR(r.sets[0].rows[0], "64");
    CHECK(run(s, &r, "SELECT to_regclass('pg_catalog.pg_class')::oid, to_regclass('pg_indexes')::oid",
              &err) == 0);
    if (r.nsets == 1 && r.sets[0].n == 1)
        CHECK_EQ_STR(r.sets[0].rows[0], "1259|12043");
    rec_clear(&r);
    rl_session_free(s);
}

/* The last statement gave one result set of one row: that row and (cols
 * non-NULL) its RowDescription ("name:oid ..."). */
static void check_one_row(const recorder *r, const char *cols, const char *row)
{
    CHECK_EQ_INT(r->nsets, 1);
    if (r->nsets != 1)
        return;
    if (cols)
        CHECK_EQ_STR(r->sets[0].cols, cols);
    CHECK_EQ_INT(r->sets[0].n, 1);
    if (r->sets[0].n == 1)
        CHECK_EQ_STR(r->sets[0].rows[0], row);
}

/* regrole names the roles pg_roles lists, which differ between servers so
 * the differential case (174_regrole.sql) names predefined ones only: here
 * the owner (oid 10, the session user when it may write, quoted as needed)
 * and a read-only login role (16384 on), RowDescription's type 4096 and
 * the binary form (regrolesend: the oid, 4 bytes big-endian). */
static void test_regrole_roles(void)
{
    const rl_role roles[] = {{"Lake Owner", false}, {"reader", true}};
    rl_session_info info = {.user = "Lake Owner", .application_name = "",
                            .client_addr = "127.0.0.1", .roles = roles, .nroles = 2};
    rl_session *s = rl_session_new(eng, &info);
    recorder r = {0};
    rl_error err;
    CHECK(run(s, &r,
              "SELECT 10::regrole, '\"Lake Owner\"'::regrole::oid, 'reader'::regrole::int4, "
              "16385::regrole, to_regrole('READER')",
              &err) == 0);
    check_one_row(&r, "regrole:4096 oid:26 int4:23 regrole:4096 to_regrole:4096",
                  "\"Lake Owner\"|10|16385|reader|reader");
    CHECK(run(s, &r, "SELECT to_regrole('\"lake owner\"'), to_regrole('\"Lake Owner\"')", &err) == 0);
    check_one_row(&r, NULL, "N|\"Lake Owner\"");
    CHECK(run(s, &r, "SELECT relowner::regrole FROM pg_class WHERE oid = 'pg_class'::regclass",
              &err) == 0);
    check_one_row(&r, NULL, "\"Lake Owner\"");
    CHECK(run(s, &r, "SELECT 'NoBody'::regrole", &err) < 0);
    CHECK_EQ_STR(err.sqlstate, "42704");
    CHECK_EQ_STR(err.message, "role \"nobody\" does not exist");
    CHECK_EQ_INT(err.position, 8);
    CHECK(run(s, &r, "SELECT 'Lake Owner'::regrole", &err) < 0); /* two words */
    CHECK_EQ_STR(err.sqlstate, "42602");
    CHECK_EQ_INT(err.position, 8);
    rec_clear(&r);
    rl_session_free(s);
    rl_value v = {.oid = RL_OID_REGROLE, .typmod = -1};
    v.d.v.i = 16385;
    rl_buf b;
    rl_buf_init(&b, 0);
    CHECK(rl_value_encode_binary(&b, &v));
    CHECK_EQ_INT(b.len, 4);
    if (b.len == 4)
        CHECK(memcmp(b.data, "\x00\x00\x40\x01", 4) == 0);
    rl_buf_free(&b);
}

static void test_unknown_relation(void)
{
    rl_session *s = new_session();
    recorder r = {0};
    rl_error err;
    CHECK(run(s, &r, "SELECT * FROM nosuch", &err) < 0);
    CHECK_EQ_STR(err.sqlstate, "42P01");
    CHECK_EQ_STR(err.message, "relation \"nosuch\" does not exist");
    CHECK_EQ_INT(err.position, 15);
    CHECK(run(s, &r, "SELECT * FROM s1.ducklake_snapshot", &err) < 0);
    CHECK_EQ_STR(err.message, "relation \"s1.ducklake_snapshot\" does not exist");
    CHECK(run(s, &r, "SELECT * FROM pg_catalog.ducklake_snapshot", &err) < 0);
    CHECK_EQ_STR(err.sqlstate, "42P01");
    rec_clear(&r);
    rl_session_free(s);
}

/* ------------------------------------------------- stored rows and keys */

static void insert_int_rows(const rl_table_desc *d, int64_t from, int64_t to, int key_col,
                            int fixed_col, int64_t fixed)
{
    rl_error err;
    rl_txn *t = rl_txn_begin(cat, &err);
    for (int64_t i = from; i < to; i++) {
        rl_datum row[RL_MAX_COLUMNS];
        memset(row, 0, sizeof row);
        for (size_t c = 0; c < d->ncols_max; c++) {
            row[c].isnull = d->cols[c].type != RL_T_INT8;
            row[c].v.i = i;
        }
        row[key_col].v.i = i;
        if (fixed_col >= 0)
            row[fixed_col].v.i = fixed;
        CHECK(rl_txn_insert(t, d, row, &err) == 0);
    }
    CHECK(rl_txn_commit(t, &err) == 0);
    rl_txn_free(t);
}

static uint64_t explain_keys_read(rl_session *s, const char *select, char *plan, size_t n)
{
    recorder r = {0};
    rl_error err;
    char sql[1024];
    snprintf(sql, sizeof sql, "EXPLAIN ANALYZE %s", select);
    uint64_t keys = UINT64_MAX;
    int rc = run(s, &r, sql, &err);
    if (rc < 0)
        fprintf(stderr, "  %s %s\n", err.sqlstate, err.message);
    plan[0] = 0;
    for (size_t i = 0; r.nsets == 1 && i < r.sets[0].n; i++) {
        const char *k = strstr(r.sets[0].rows[i], "Keys read: ");
        if (k)
            keys = strtoull(k + 11, NULL, 10);
        if (i == 0)
            snprintf(plan, n, "%s", r.sets[0].rows[0]);
    }
    rec_clear(&r);
    return keys;
}

static void test_prefix_pushdown(void)
{
    const rl_table_desc *col = rl_desc_by_name("ducklake_column", RL_FMT_1_0);
    /* 10,000 tables, 3 columns each: column_id = table_id * 3 + k */
    rl_error err;
    rl_txn *t = rl_txn_begin(cat, &err);
    for (int64_t tid = 1; tid <= 10000; tid++)
        for (int64_t k = 0; k < 3; k++) {
            rl_datum row[RL_MAX_COLUMNS];
            memset(row, 0, sizeof row);
            for (size_t c = 0; c < col->ncols_max; c++)
                row[c].isnull = true;
            row[0] = (rl_datum){.v.i = tid * 3 + k};
            row[1] = (rl_datum){.v.i = 1};
            row[3] = (rl_datum){.v.i = tid};
            row[4] = (rl_datum){.v.i = k};
            CHECK(rl_txn_insert(t, col, row, &err) == 0);
        }
    CHECK(rl_txn_commit(t, &err) == 0);
    rl_txn_free(t);

    rl_session *s = new_session();
    char plan[256];
    CHECK_EQ_INT(explain_keys_read(s,
                                   "SELECT \"column_id\", \"column_name\" FROM "
                                   "\"public\".\"ducklake_column\" WHERE \"table_id\" = '5000'",
                                   plan, sizeof plan),
                 3);
    CHECK_EQ_STR(plan, "Prefix Scan on ducklake_column (tag 0x06, prefix 06 00 00 00 00 00 00 "
                       "13 88)");
    CHECK_EQ_INT(explain_keys_read(s,
                                   "SELECT column_id FROM ducklake_column WHERE table_id IN "
                                   "(7, 9000, 7) AND column_id = 21",
                                   plan, sizeof plan),
                 1);
    CHECK_EQ_INT(explain_keys_read(s, "SELECT column_id FROM ducklake_column WHERE table_id = 10001",
                                   plan, sizeof plan),
                 0);
    /* an OR is not a prefix: every row is read (the caller filters) */
    CHECK_EQ_INT(explain_keys_read(s,
                                   "SELECT column_id FROM ducklake_column WHERE table_id = 1 OR "
                                   "table_id = 2",
                                   plan, sizeof plan),
                 30000);
    rl_session_free(s);
}

/* One-column answer of `select` as text rows joined by ',' into buf. */
static void answer_of(rl_session *s, const char *select, char *buf, size_t n)
{
    recorder r = {0};
    rl_error err;
    buf[0] = 0;
    if (run(s, &r, select, &err) < 0)
        snprintf(buf, n, "error %.5s %.200s", err.sqlstate, err.message);
    size_t at = 0;
    for (size_t i = 0; r.nsets == 1 && i < r.sets[0].n && at < n; i++)
        at += (size_t)snprintf(buf + at, n - at, "%s%s", i ? "," : "", r.sets[0].rows[i]);
    rec_clear(&r);
}

/* `snapshot_id > S`: DuckLake's "changes since my snapshot" before a retry
 * (and its change feed) reads only the keys after S, not the table. */
static void test_range_pushdown(void)
{
    const rl_table_desc *changes = rl_desc_by_name("ducklake_snapshot_changes", RL_FMT_1_0);
    insert_int_rows(changes, 0, 1000, 0, -1, 0);
    rl_session *s = new_session();
    char plan[256], got[256];
    CHECK_EQ_INT(explain_keys_read(s,
                                   "SELECT \"snapshot_id\", \"changes_made\" FROM "
                                   "\"public\".\"ducklake_snapshot_changes\" WHERE "
                                   "\"snapshot_id\" > '995'",
                                   plan, sizeof plan),
                 4);
    CHECK_EQ_STR(plan, "Range Scan on ducklake_snapshot_changes (tag 0x03, from 03 00 00 00 00 "
                       "00 00 03 e4)");
    answer_of(s, "SELECT snapshot_id FROM ducklake_snapshot_changes WHERE snapshot_id > '995'",
              got, sizeof got);
    CHECK_EQ_STR(got, "996,997,998,999");
    /* >=, the constant on the left, and the highest of two bounds */
    CHECK_EQ_INT(explain_keys_read(s,
                                   "SELECT snapshot_id FROM ducklake_snapshot_changes WHERE "
                                   "snapshot_id >= 990 AND 997 <= snapshot_id",
                                   plan, sizeof plan),
                 3);
    answer_of(s, "SELECT snapshot_id FROM ducklake_snapshot_changes WHERE 995 < snapshot_id "
                 "AND snapshot_id < 998", got, sizeof got);
    CHECK_EQ_STR(got, "996,997");
    /* bounds that cannot start a scan read everything and still answer right */
    CHECK_EQ_INT(explain_keys_read(s,
                                   "SELECT snapshot_id FROM ducklake_snapshot_changes WHERE "
                                   "snapshot_id > 997.5",
                                   plan, sizeof plan),
                 1000);
    answer_of(s, "SELECT snapshot_id FROM ducklake_snapshot_changes WHERE snapshot_id > 997.5",
              got, sizeof got);
    CHECK_EQ_STR(got, "998,999");
    answer_of(s, "SELECT count(*) FROM ducklake_snapshot_changes WHERE snapshot_id > -3", got,
              sizeof got);
    CHECK_EQ_STR(got, "1000");
    answer_of(s, "SELECT count(*) FROM ducklake_snapshot_changes WHERE "
                 "snapshot_id > 9223372036854775807", got, sizeof got);
    CHECK_EQ_STR(got, "0");
    /* the transaction's own writes are merged in at the same bound */
    recorder r = {0};
    rl_error err;
    CHECK(run(s, &r, "BEGIN", &err) == 0);
    CHECK(run(s, &r, "INSERT INTO ducklake_snapshot_changes VALUES (1500, 'y', NULL, NULL, NULL)",
              &err) == 0);
    CHECK(run(s, &r, "UPDATE ducklake_snapshot_changes SET changes_made = 'x' WHERE "
                     "snapshot_id = 3", &err) == 0);
    CHECK(run(s, &r, "DELETE FROM ducklake_snapshot_changes WHERE snapshot_id = 998", &err) == 0);
    answer_of(s, "SELECT snapshot_id FROM ducklake_snapshot_changes WHERE snapshot_id > 995",
              got, sizeof got);
    CHECK_EQ_STR(got, "996,997,999,1500");
    CHECK(run(s, &r, "ROLLBACK", &err) == 0);
    rec_clear(&r);
    rl_session_free(s);
}

static void test_max_key(void)
{
    const rl_table_desc *snap = rl_desc_by_name("ducklake_snapshot", RL_FMT_1_0);
    insert_int_rows(snap, 0, 1000, 0, -1, 0);
    rl_session *s = new_session(), *other = new_session();
    recorder r = {0};
    rl_error err;
    CHECK(run(s, &r, "BEGIN TRANSACTION ISOLATION LEVEL REPEATABLE READ", &err) == 0);
    rl_exec x = {.s = s, .err = &err};
    rl_relation rel;
    rl_value v;
    CHECK(rl_relation_lookup(&x, NULL, "ducklake_snapshot", &rel) == 0);
    x.keys_read = 0;
    CHECK_EQ_INT(rl_relation_max_key(&x, &rel, &v), 1);
    CHECK(!v.d.isnull && v.d.v.i == 999);
    CHECK_EQ_INT(x.keys_read, 1);
    /* a later commit is not visible to this transaction's snapshot */
    CHECK(run(other, &r, "SELECT 1", &err) == 0);
    insert_int_rows(snap, 1000, 1003, 0, -1, 0);
    x.keys_read = 0;
    CHECK_EQ_INT(rl_relation_max_key(&x, &rel, &v), 1);
    CHECK(!v.d.isnull && v.d.v.i == 999);
    CHECK(x.keys_read <= 4);
    CHECK(run(s, &r, "COMMIT", &err) == 0);
    /* a new transaction sees them */
    rl_exec y = {.s = s, .err = &err};
    CHECK_EQ_INT(rl_relation_max_key(&y, &rel, &v), 1);
    CHECK(!v.d.isnull && v.d.v.i == 1002);
    CHECK_EQ_INT(y.keys_read, 1);
    /* no counter on the first key field: no fast path */
    CHECK(rl_relation_lookup(&y, NULL, "ducklake_column", &rel) == 0);
    CHECK_EQ_INT(rl_relation_max_key(&y, &rel, &v), 0);
    /* an empty table with a counter answers NULL */
    CHECK(rl_relation_lookup(&y, NULL, "ducklake_view", &rel) == 0);
    CHECK_EQ_INT(rl_relation_max_key(&y, &rel, &v), 1);
    CHECK(v.d.isnull);
    rec_clear(&r);
    rl_session_free(other);
    rl_session_free(s);
}

static void test_ctids(void)
{
    rl_session *s = new_session();
    recorder r = {0}, r2 = {0};
    rl_error err;
    CHECK(run(s, &r, "BEGIN", &err) == 0);
    const char *q = "SELECT ctid, snapshot_id FROM ducklake_snapshot WHERE snapshot_id IN (7, 5)";
    CHECK(run(s, &r, q, &err) == 0);
    CHECK(r.nsets == 1 && r.sets[0].n == 2);
    if (r.nsets == 1)
        CHECK_EQ_STR(r.sets[0].cols, "ctid:27 snapshot_id:20");
    if (r.nsets == 1 && r.sets[0].n == 2) {
        CHECK_EQ_STR(r.sets[0].rows[0], "(0,1)|5");
        CHECK_EQ_STR(r.sets[0].rows[1], "(0,2)|7");
    }
    /* read in another order: same ctids within the transaction */
    CHECK(run(s, &r2, "SELECT ctid, snapshot_id FROM ducklake_snapshot WHERE snapshot_id IN (3, 7)",
              &err) == 0);
    if (r2.nsets == 1 && r2.sets[0].n == 2) {
        CHECK_EQ_STR(r2.sets[0].rows[0], "(0,3)|3");
        CHECK_EQ_STR(r2.sets[0].rows[1], "(0,2)|7");
    }
    /* `*` does not include the hidden ctid column */
    CHECK(run(s, &r2, "SELECT * FROM ducklake_snapshot WHERE snapshot_id = 7", &err) == 0);
    if (r2.nsets == 1)
        CHECK(strstr(r2.sets[0].cols, "ctid") == NULL);
    CHECK(run(s, &r, "COMMIT", &err) == 0);
    uint64_t c;
    CHECK(rl_tid_parse("(0,1)", 5, &c) && c == 1);
    CHECK(rl_tid_parse("'(3,17)'", 8, &c) && c == (3u << 16 | 17));
    CHECK(rl_tid_parse(" ( 4294967295 , 65535 ) ", 24, &c) && c == (4294967295ull << 16 | 65535));
    CHECK(!rl_tid_parse("(4294967296,1)", 14, &c));
    CHECK(!rl_tid_parse("(1,65536)", 9, &c));
    CHECK(!rl_tid_parse("(1,2", 4, &c));
    CHECK(!rl_tid_parse("(1,2)x", 6, &c));
    CHECK(!rl_tid_parse("(,2)", 4, &c));
    CHECK(!rl_tid_parse("''", 2, &c));
    CHECK(!rl_tid_parse("", 0, &c));
    rec_clear(&r);
    rec_clear(&r2);
    rl_session_free(s);
}

int main(void)
{
    discovery_table_query = read_test_data("discovery_table_query.sql");
    discovery_rest = read_test_data("discovery_rest.sql");
    open_engine("discovery");
    register_ducklake_tables();
    RUN(test_discovery_batch);
    RUN(test_discovery_single_table);
    RUN(test_scan_keys_same_rows);
    RUN(test_shared_parse_cache);
    RUN(test_attach_probes);
    RUN(test_regrole_roles);
    RUN(test_unknown_relation);
    RUN(test_prefix_pushdown);
    RUN(test_range_pushdown);
    RUN(test_max_key);
    RUN(test_ctids);
    close_engine();
    free(discovery_table_query);
    free(discovery_rest);
    return tu_finish();
}
