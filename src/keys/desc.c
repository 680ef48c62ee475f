/*
 * desc.c — the descriptor rows for every stored table (see desc.h).
 *
 * Column lists are DuckLake's, in its exact order (reference: DuckLake v1.5
 * ducklake_metadata_manager.cpp, summarised in docs/key-layout.md); DuckLake
 * inserts without column lists, so order is part of the contract. Key
 * choices follow the predicates DuckLake sends; the reasoning per table is in
 * docs/key-layout.md. Heap orders (the row order of full scans, as
 * PostgreSQL's heap would have it) follow what DuckLake allocates in
 * increasing order; what they cannot reproduce is in docs/sql-support.md.
 */
#include "keys/desc.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "keys/tags.h"

#define I8(n) {n, RL_T_INT8, false, RL_FMT_1_0, 0}
#define VC(n) {n, RL_T_VARCHAR, false, RL_FMT_1_0, 0}
#define VCNN(n) {n, RL_T_VARCHAR, true, RL_FMT_1_0, 0}
#define BO(n) {n, RL_T_BOOL, false, RL_FMT_1_0, 0}
#define UU(n) {n, RL_T_UUID, false, RL_FMT_1_0, 0}
#define TZ(n) {n, RL_T_TIMESTAMPTZ, false, RL_FMT_1_0, 0}
#define I8_11(n) {n, RL_T_INT8, false, RL_FMT_1_1, 0}
#define COLS(...) ((const rl_column_desc[]){__VA_ARGS__})
#define NCOLS(...) (uint8_t)(sizeof((const rl_column_desc[]){__VA_ARGS__}) / sizeof(rl_column_desc))
#define TABLE_COLS(...) .ncols_max = NCOLS(__VA_ARGS__), .cols = COLS(__VA_ARGS__)

/* Common shapes, named for what they are. */
#define NO_MVCC .begin_col = -1, .end_col = -1
#define NO_PK .pk_col = -1, .pk_check = RL_PK_NONE
#define NO_COUNTER .counter = NULL, .counter_col = -1
/* Row order of full scans (desc.h, rl_heap_order), from what DuckLake
 * allocates in increasing order: the snapshot of a versioned row's last
 * write, file ids (a file's children follow it), partition and sort ids,
 * schema versions, the time a file was scheduled for deletion. Omitted: key
 * order, which is insertion order for tables keyed by a snapshot id, a row
 * sequence or an id allocated increasing (mappings, macros); the two stats
 * tables that every commit rewrites in place keep key order too (no row
 * records when it was last rewritten). */
#define HEAP_LAST_WRITE .heap_order = RL_HEAP_LAST_WRITE, .heap_col = -1
#define HEAP_LAST_WRITE_THEN(c) .heap_order = RL_HEAP_LAST_WRITE, .heap_col = (c)
#define HEAP_BY(c) .heap_order = RL_HEAP_BY_COLUMN, .heap_col = (c)

const rl_table_desc rl_tables[] = {
    {.tag = RL_TAG_METADATA, .name = "ducklake_metadata", .since = RL_FMT_1_0,
     TABLE_COLS(VCNN("key"), VCNN("value"), VC("scope"), I8("scope_id")),
     .nkey = 1, .key = {RL_KEY_SEQ}, NO_MVCC, NO_PK, NO_COUNTER},
    {.tag = RL_TAG_SNAPSHOT, .name = "ducklake_snapshot", .since = RL_FMT_1_0,
     TABLE_COLS(I8("snapshot_id"), TZ("snapshot_time"), I8("schema_version"),
                I8("next_catalog_id"), I8("next_file_id")),
     .nkey = 1, .key = {0}, NO_MVCC, .pk_col = 0, .pk_check = RL_PK_KEY,
     .counter = RL_COUNTER_NEXT_SNAPSHOT_ID, .counter_col = 0, .catalog_reads = true},
    {.tag = RL_TAG_SNAPSHOT_CHANGES, .name = "ducklake_snapshot_changes", .since = RL_FMT_1_0,
     .parents = {{"snapshot_id", RL_TAG_SNAPSHOT}},
     TABLE_COLS(I8("snapshot_id"), VC("changes_made"), VC("author"), VC("commit_message"),
                VC("commit_extra_info")),
     .nkey = 1, .key = {0}, NO_MVCC, .pk_col = 0, .pk_check = RL_PK_KEY, NO_COUNTER, .catalog_reads = true},
    {.tag = RL_TAG_SCHEMA, .name = "ducklake_schema", .since = RL_FMT_1_0,
     TABLE_COLS(I8("schema_id"), UU("schema_uuid"), I8("begin_snapshot"), I8("end_snapshot"),
                VC("schema_name"), VC("path"), BO("path_is_relative")),
     .nkey = 2, .key = {0, 2}, .begin_col = 2, .end_col = 3, .pk_col = 0,
     .pk_check = RL_PK_KEY, .live_index = true,
     .counter = RL_COUNTER_NEXT_CATALOG_ID, .counter_col = 0,
     HEAP_LAST_WRITE},
    {.tag = RL_TAG_TABLE, .name = "ducklake_table", .since = RL_FMT_1_0,
     .parents = {{"schema_id", RL_TAG_SCHEMA}},
     TABLE_COLS(I8("table_id"), UU("table_uuid"), I8("begin_snapshot"), I8("end_snapshot"),
                I8("schema_id"), VC("table_name"), VC("path"), BO("path_is_relative")),
     .nkey = 2, .key = {0, 2}, .begin_col = 2, .end_col = 3, NO_PK, .live_index = true,
     .counter = RL_COUNTER_NEXT_CATALOG_ID, .counter_col = 0, HEAP_LAST_WRITE},
    {.tag = RL_TAG_COLUMN, .name = "ducklake_column", .since = RL_FMT_1_0,
     .parents = {{"table_id", RL_TAG_TABLE}},
     TABLE_COLS(I8("column_id"), I8("begin_snapshot"), I8("end_snapshot"), I8("table_id"),
                I8("column_order"), VC("column_name"), VC("column_type"), VC("initial_default"),
                VC("default_value"), BO("nulls_allowed"), I8("parent_column"),
                VC("default_value_type"), VC("default_value_dialect")),
     .nkey = 3, .key = {3, 0, 1}, .begin_col = 1, .end_col = 2, NO_PK, .live_index = true,
     NO_COUNTER, HEAP_LAST_WRITE, .catalog_reads = true},
    {.tag = RL_TAG_DATA_FILE, .name = "ducklake_data_file", .since = RL_FMT_1_0,
     .parents = {{"table_id", RL_TAG_TABLE}},
     TABLE_COLS(I8("data_file_id"), I8("table_id"), I8("begin_snapshot"), I8("end_snapshot"),
                I8("file_order"), VC("path"), BO("path_is_relative"), VC("file_format"),
                I8("record_count"), I8("file_size_bytes"), I8("footer_size"), I8("row_id_start"),
                I8("partition_id"), VC("encryption_key"), I8("mapping_id"), I8("partial_max"),
                I8_11("row_group_count")),
     .nkey = 2, .key = {1, 0}, .begin_col = 2, .end_col = 3, .pk_col = 0,
     .pk_check = RL_PK_INDEX, .live_index = true,
     .counter = RL_COUNTER_NEXT_FILE_ID, .counter_col = 0,
     HEAP_LAST_WRITE_THEN(0), .catalog_reads = true},
    {.tag = RL_TAG_DELETE_FILE, .name = "ducklake_delete_file", .since = RL_FMT_1_0,
     .parents = {{"table_id", RL_TAG_TABLE}, {"data_file_id", RL_TAG_DATA_FILE}},
     TABLE_COLS(I8("delete_file_id"), I8("table_id"), I8("begin_snapshot"), I8("end_snapshot"),
                I8("data_file_id"), VC("path"), BO("path_is_relative"), VC("format"),
                I8("delete_count"), I8("file_size_bytes"), I8("footer_size"),
                VC("encryption_key"), I8("partial_max"), I8_11("row_group_count")),
     .nkey = 2, .key = {1, 0}, .begin_col = 2, .end_col = 3, .pk_col = 0,
     .pk_check = RL_PK_INDEX, .live_index = true,
     .counter = RL_COUNTER_NEXT_FILE_ID, .counter_col = 0,
     HEAP_LAST_WRITE_THEN(0)},
    {.tag = RL_TAG_FILE_COLUMN_STATS, .name = "ducklake_file_column_stats", .since = RL_FMT_1_0,
     .parents = {{"data_file_id", RL_TAG_DATA_FILE}},
     TABLE_COLS(I8("data_file_id"), I8("table_id"), I8("column_id"), I8("column_size_bytes"),
                I8("value_count"), I8("null_count"), VC("min_value"), VC("max_value"),
                BO("contains_nan"), VC("extra_stats")),
     .nkey = 3, .key = {1, 0, 2}, NO_MVCC, NO_PK, NO_COUNTER, HEAP_BY(0)},
    {.tag = RL_TAG_TABLE_STATS, .name = "ducklake_table_stats", .since = RL_FMT_1_0,
     TABLE_COLS(I8("table_id"), I8("record_count"), I8("next_row_id"), I8("file_size_bytes")),
     .nkey = 1, .key = {0}, NO_MVCC, NO_PK, NO_COUNTER, .catalog_reads = true},
    {.tag = RL_TAG_VIEW, .name = "ducklake_view", .since = RL_FMT_1_0,
     TABLE_COLS(I8("view_id"), UU("view_uuid"), I8("begin_snapshot"), I8("end_snapshot"),
                I8("schema_id"), VC("view_name"), VC("dialect"), VC("sql"), VC("column_aliases")),
     .nkey = 2, .key = {0, 2}, .begin_col = 2, .end_col = 3, NO_PK, .live_index = true,
     .counter = RL_COUNTER_NEXT_CATALOG_ID, .counter_col = 0, HEAP_LAST_WRITE},
    {.tag = RL_TAG_MACRO, .name = "ducklake_macro", .since = RL_FMT_1_0,
     TABLE_COLS(I8("schema_id"), I8("macro_id"), VC("macro_name"), I8("begin_snapshot"),
                I8("end_snapshot")),
     .nkey = 2, .key = {1, 3}, .begin_col = 3, .end_col = 4, NO_PK, .live_index = true,
     .counter = RL_COUNTER_NEXT_CATALOG_ID, .counter_col = 1, HEAP_LAST_WRITE},
    {.tag = RL_TAG_TAG, .name = "ducklake_tag", .since = RL_FMT_1_0,
     TABLE_COLS(I8("object_id"), I8("begin_snapshot"), I8("end_snapshot"), VC("key"),
                VC("value")),
     .nkey = 3, .key = {0, 3, 1}, .begin_col = 1, .end_col = 2, NO_PK, .live_index = true,
     NO_COUNTER, HEAP_LAST_WRITE},
    {.tag = RL_TAG_COLUMN_TAG, .name = "ducklake_column_tag", .since = RL_FMT_1_0,
     TABLE_COLS(I8("table_id"), I8("column_id"), I8("begin_snapshot"), I8("end_snapshot"),
                VC("key"), VC("value")),
     .nkey = 4, .key = {0, 1, 4, 2}, .begin_col = 2, .end_col = 3, NO_PK, .live_index = true,
     NO_COUNTER, HEAP_LAST_WRITE},
    {.tag = RL_TAG_FILE_VARIANT_STATS, .name = "ducklake_file_variant_stats", .since = RL_FMT_1_0,
     TABLE_COLS(I8("data_file_id"), I8("table_id"), I8("column_id"), VC("variant_path"),
                VC("shredded_type"), I8("column_size_bytes"), I8("value_count"),
                I8("null_count"), VC("min_value"), VC("max_value"), BO("contains_nan"),
                VC("extra_stats")),
     .nkey = 4, .key = {1, 0, 2, 3}, NO_MVCC, NO_PK, NO_COUNTER, HEAP_BY(0)},
    {.tag = RL_TAG_TABLE_COLUMN_STATS, .name = "ducklake_table_column_stats", .since = RL_FMT_1_0,
     TABLE_COLS(I8("table_id"), I8("column_id"), BO("contains_null"), BO("contains_nan"),
                VC("min_value"), VC("max_value"), VC("extra_stats")),
     .nkey = 2, .key = {0, 1}, NO_MVCC, NO_PK, NO_COUNTER},
    {.tag = RL_TAG_PARTITION_INFO, .name = "ducklake_partition_info", .since = RL_FMT_1_0,
     TABLE_COLS(I8("partition_id"), I8("table_id"), I8("begin_snapshot"), I8("end_snapshot")),
     .nkey = 3, .key = {1, 0, 2}, .begin_col = 2, .end_col = 3, NO_PK, .live_index = true,
     NO_COUNTER, HEAP_LAST_WRITE},
    {.tag = RL_TAG_PARTITION_COLUMN, .name = "ducklake_partition_column", .since = RL_FMT_1_0,
     TABLE_COLS(I8("partition_id"), I8("table_id"), I8("partition_key_index"), I8("column_id"),
                VC("transform")),
     .nkey = 3, .key = {1, 0, 2}, NO_MVCC, NO_PK, NO_COUNTER, HEAP_BY(0)},
    {.tag = RL_TAG_FILE_PARTITION_VALUE, .name = "ducklake_file_partition_value", .since = RL_FMT_1_0,
     TABLE_COLS(I8("data_file_id"), I8("table_id"), I8("partition_key_index"),
                VC("partition_value")),
     .nkey = 3, .key = {1, 0, 2}, NO_MVCC, NO_PK, NO_COUNTER, HEAP_BY(0)},
    {.tag = RL_TAG_FILES_SCHEDULED_FOR_DELETION, .name = "ducklake_files_scheduled_for_deletion",
     .since = RL_FMT_1_0,
     TABLE_COLS(I8("data_file_id"), VC("path"), BO("path_is_relative"), TZ("schedule_start")),
     .nkey = 1, .key = {0}, NO_MVCC, NO_PK, NO_COUNTER, HEAP_BY(3)},
    {.tag = RL_TAG_INLINED_DATA_TABLES, .name = "ducklake_inlined_data_tables", .since = RL_FMT_1_0,
     TABLE_COLS(I8("table_id"), VC("table_name"), I8("schema_version")),
     .nkey = 2, .key = {0, 2}, NO_MVCC, NO_PK, NO_COUNTER, HEAP_BY(2), .catalog_reads = true},
    {.tag = RL_TAG_COLUMN_MAPPING, .name = "ducklake_column_mapping", .since = RL_FMT_1_0,
     TABLE_COLS(I8("mapping_id"), I8("table_id"), VC("type")),
     .nkey = 1, .key = {0}, NO_MVCC, NO_PK, NO_COUNTER},
    {.tag = RL_TAG_NAME_MAPPING, .name = "ducklake_name_mapping", .since = RL_FMT_1_0,
     TABLE_COLS(I8("mapping_id"), I8("column_id"), VC("source_name"), I8("target_field_id"),
                I8("parent_column"), BO("is_partition")),
     .nkey = 2, .key = {0, 1}, NO_MVCC, NO_PK, NO_COUNTER},
    {.tag = RL_TAG_SCHEMA_VERSIONS, .name = "ducklake_schema_versions", .since = RL_FMT_1_0,
     TABLE_COLS(I8("begin_snapshot"), I8("schema_version"), I8("table_id")),
     .nkey = 2, .key = {2, 1}, NO_MVCC, NO_PK, NO_COUNTER, HEAP_BY(1)},
    {.tag = RL_TAG_MACRO_IMPL, .name = "ducklake_macro_impl", .since = RL_FMT_1_0,
     TABLE_COLS(I8("macro_id"), I8("impl_id"), VC("dialect"), VC("sql"), VC("type")),
     .nkey = 2, .key = {0, 1}, NO_MVCC, NO_PK, NO_COUNTER},
    {.tag = RL_TAG_MACRO_PARAMETERS, .name = "ducklake_macro_parameters", .since = RL_FMT_1_0,
     TABLE_COLS(I8("macro_id"), I8("impl_id"), I8("column_id"), VC("parameter_name"),
                VC("parameter_type"), VC("default_value"), VC("default_value_type")),
     .nkey = 3, .key = {0, 1, 2}, NO_MVCC, NO_PK, NO_COUNTER},
    {.tag = RL_TAG_SORT_INFO, .name = "ducklake_sort_info", .since = RL_FMT_1_0,
     TABLE_COLS(I8("sort_id"), I8("table_id"), I8("begin_snapshot"), I8("end_snapshot")),
     .nkey = 3, .key = {1, 0, 2}, .begin_col = 2, .end_col = 3, NO_PK, .live_index = true,
     NO_COUNTER, HEAP_LAST_WRITE},
    {.tag = RL_TAG_SORT_EXPRESSION, .name = "ducklake_sort_expression", .since = RL_FMT_1_0,
     TABLE_COLS(I8("sort_id"), I8("table_id"), I8("sort_key_index"), VC("expression"),
                VC("dialect"), VC("sort_direction"), VC("null_order")),
     .nkey = 3, .key = {1, 0, 2}, NO_MVCC, NO_PK, NO_COUNTER, HEAP_BY(0)},
    {.tag = RL_TAG_VIEW_COLUMN_TAG, .name = "ducklake_view_column_tag", .since = RL_FMT_1_1,
     TABLE_COLS(I8("view_id"), VC("column_name"), I8("begin_snapshot"), I8("end_snapshot"),
                VC("key"), VC("value")),
     .nkey = 4, .key = {0, 1, 4, 2}, .begin_col = 2, .end_col = 3, NO_PK, .live_index = true,
     NO_COUNTER, HEAP_LAST_WRITE},
};
const size_t rl_ntables = sizeof rl_tables / sizeof rl_tables[0];

const rl_table_desc rl_desc_audit = {
    .tag = RL_TAG_AUDIT, .name = "rocklake_audit", .since = RL_FMT_1_0, .internal = true,
    TABLE_COLS(I8("snapshot_id"), I8("commit_seq"), TZ("commit_time"),
               {"user_name", RL_T_TEXT, false, RL_FMT_1_0, 0},
               {"application_name", RL_T_TEXT, false, RL_FMT_1_0, 0},
               {"client_addr", RL_T_TEXT, false, RL_FMT_1_0, 0}, I8("statements"),
               I8("claimed_snapshot_id"), I8("base_snapshot_id"),
               {"id_map", RL_T_TEXT, false, RL_FMT_1_0, 0}),
    .nkey = 2, .key = {0, 1}, NO_MVCC, NO_PK, NO_COUNTER};

const rl_table_desc rl_desc_dynamic_table = {
    .tag = RL_TAG_DYNAMIC_TABLE, .name = "rocklake_dynamic_table", .since = RL_FMT_1_0,
    .internal = true,
    TABLE_COLS(I8("dyn_id"), VC("schema_name"), VC("table_name"),
               {"columns", RL_T_BYTEA, false, RL_FMT_1_0, 0}),
    .nkey = 1, .key = {0}, NO_MVCC, NO_PK, NO_COUNTER};

rl_format rl_format_parse(const char *s)
{
    if (!s)
        return 0;
    if (strcmp(s, "1.0") == 0)
        return RL_FMT_1_0;
    if (strcmp(s, "1.1") == 0 || strncmp(s, "1.1-", 4) == 0)
        return RL_FMT_1_1;
    return 0;
}

const char *rl_format_name(rl_format f)
{
    switch (f) {
    case RL_FMT_1_0: return "1.0";
    case RL_FMT_1_1: return "1.1";
    }
    return "?";
}

const rl_table_desc *rl_desc_by_tag(uint8_t tag)
{
    /* Protocol tags are dense from 0x01, so the array index is tag - 1. */
    if (tag >= 1 && tag <= rl_ntables && rl_tables[tag - 1].tag == tag)
        return &rl_tables[tag - 1];
    if (tag == RL_TAG_AUDIT)
        return &rl_desc_audit;
    if (tag == RL_TAG_DYNAMIC_TABLE)
        return &rl_desc_dynamic_table;
    return NULL;
}

const rl_table_desc *rl_desc_by_name(const char *name, rl_format fmt)
{
    for (size_t i = 0; i < rl_ntables; i++)
        if (rl_desc_in_format(&rl_tables[i], fmt) && strcmp(rl_tables[i].name, name) == 0)
            return &rl_tables[i];
    return NULL;
}

bool rl_desc_in_format(const rl_table_desc *d, rl_format fmt) { return d->since <= fmt; }

size_t rl_desc_ncols(const rl_table_desc *d, rl_format fmt)
{
    if (!rl_desc_in_format(d, fmt))
        return 0;
    size_t n = 0;
    /* added columns are appended, so the format's shape is a prefix */
    while (n < d->ncols_max && d->cols[n].since <= fmt)
        n++;
    return n;
}

int rl_desc_column_index(const rl_table_desc *d, const char *name, rl_format fmt)
{
    size_t n = rl_desc_ncols(d, fmt);
    for (size_t i = 0; i < n; i++)
        if (strcmp(d->cols[i].name, name) == 0)
            return (int)i;
    return -1;
}

bool rl_desc_col_in_key(const rl_table_desc *d, int col)
{
    for (int i = 0; i < d->nkey; i++)
        if (d->key[i] == col)
            return true;
    return false;
}

bool rl_desc_has_seq(const rl_table_desc *d)
{
    return d->nkey > 0 && d->key[d->nkey - 1] == RL_KEY_SEQ;
}

bool rl_desc_keeps_duplicates(const rl_table_desc *d)
{
    return d->pk_check == RL_PK_NONE && !d->internal && d->tag != RL_TAG_DYNAMIC_ROW &&
           !rl_desc_has_seq(d);
}

bool rl_desc_is_dynamic(const rl_table_desc *d)
{
    return d->tag == RL_TAG_DYNAMIC_ROW;
}

size_t rl_desc_value_columns(const rl_table_desc *d, rl_format fmt, rl_type *types, int *cols)
{
    size_t n = rl_desc_ncols(d, fmt), out = 0;
    for (size_t i = 0; i < n && out < RL_MAX_COLUMNS; i++) {
        if (rl_desc_col_in_key(d, (int)i))
            continue;
        if (types)
            types[out] = d->cols[i].type;
        if (cols)
            cols[out] = (int)i;
        out++;
    }
    return out;
}

const char *rl_desc_constraint_name(const rl_table_desc *d, char *buf, size_t n)
{
    snprintf(buf, n, "%s_%s", d->name, d->pk_check != RL_PK_NONE ? "pkey" : "rocklake_key");
    return buf;
}
