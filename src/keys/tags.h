/*
 * tags.h — the first byte of every RockLake key, and the shape of the rest.
 *
 * Owns: tag numbers. docs/key-layout.md explains each choice with hex
 * examples; this header is the source of truth the code uses, and the two
 * must agree (tests/test_keys.c checks golden bytes).
 *
 * Rules (seed "Tag Allocation"): 0x00 is never a tag; 0x01-0x1F are DuckLake
 * protocol tables; 0x20-0x7F reserved for protocol extensions; 0x80-0xFD
 * RockLake internals; 0xFE counters; 0xFF system keys. A tag is never reused.
 * The seeds' tags are kept wherever the seed names a table DuckLake really
 * has; the seed's ducklake_catalog (0x01) and ducklake_table_snapshot (0x03)
 * do not exist in DuckLake, so 0x01, 0x03 and then 0x0E.. are allocated
 * sequentially to the remaining tables in the order of DuckLake's schema.
 *
 * Key shapes (every integer is a big-endian u64; "str" is an order-preserving
 * escaped string: 0x00 -> 00 FF, terminated by 00 01; "seq" is a RockLake row
 * sequence for tables with no natural unique key; "begin" = begin_snapshot):
 *
 *   0x01 ducklake_metadata              seq
 *   0x02 ducklake_snapshot              snapshot_id
 *   0x03 ducklake_snapshot_changes      snapshot_id
 *   0x04 ducklake_schema                schema_id | begin
 *   0x05 ducklake_table                 table_id | begin
 *   0x06 ducklake_column                table_id | column_id | begin
 *   0x07 ducklake_data_file             table_id | data_file_id
 *   0x08 ducklake_delete_file           table_id | delete_file_id
 *   0x09 ducklake_file_column_stats     table_id | data_file_id | column_id
 *   0x0A ducklake_table_stats           table_id
 *   0x0B ducklake_view                  view_id | begin
 *   0x0C ducklake_macro                 macro_id | begin
 *   0x0D ducklake_tag                   object_id | key(str) | begin
 *   0x0E ducklake_column_tag            table_id | column_id | key(str) | begin
 *   0x0F ducklake_file_variant_stats    table_id | data_file_id | column_id | variant_path(str)
 *   0x10 ducklake_table_column_stats    table_id | column_id
 *   0x11 ducklake_partition_info        table_id | partition_id | begin
 *   0x12 ducklake_partition_column      table_id | partition_id | partition_key_index
 *   0x13 ducklake_file_partition_value  table_id | data_file_id | partition_key_index
 *   0x14 ducklake_files_scheduled_for_deletion  data_file_id
 *   0x15 ducklake_inlined_data_tables   table_id | schema_version
 *   0x16 ducklake_column_mapping        mapping_id
 *   0x17 ducklake_name_mapping          mapping_id | column_id
 *   0x18 ducklake_schema_versions       table_id | schema_version
 *   0x19 ducklake_macro_impl            macro_id | impl_id
 *   0x1A ducklake_macro_parameters      macro_id | impl_id | column_id
 *   0x1B ducklake_sort_info             table_id | sort_id | begin
 *   0x1C ducklake_sort_expression       table_id | sort_id | sort_key_index
 *   0x1D ducklake_view_column_tag       view_id | column_name(str) | key(str) | begin   (format 1.1)
 *
 *   A table without a PostgreSQL primary key keeps duplicates: the second
 *   row with the same key fields K is stored at K | dup (8 bytes, BE), dup
 *   from the counter next-row-seq:dup (docs/key-layout.md decision (i)).
 *
 *   0x80 secondary indexes              0x80 | index kind | ...
 *        kind 0x01 live rows            0x80 01 | tag | primary key without tag   -> empty
 *        kind 0x02 primary-key id       0x80 02 | tag | id                       -> primary key
 *        kind 0x03 table name           0x80 03 | schema(str) | name(str)        -> dyn id (8 bytes)
 *                                                                                 or fixed tag (1 byte)
 *        kind 0x04 schema               0x80 04 | schema(str)                    -> empty
 *        kind 0x05 index definitions    0x80 05 | schema(str) | index name(str)  -> rl_index_def
 *        kind 0x06 comments             0x80 06 | schema | relation | column     -> text
 *        kind 0x07 UNIQUE entries       0x80 07 | index id | key values         -> row key
 *        kind 0x08 FOREIGN KEYs         0x80 08 | schema | table | name          -> rl_fkey_def
 *        kind 0x09 referencing rows     0x80 09 | fkey id | key values | row key -> empty
 *        kind 0x0A CHECK constraint     0x80 0A | schema(str) | table(str) | name(str)
 *                                                                                 -> definition
 *        kind 0x0C sequence definition  0x80 0C | schema(str) | name(str)        -> rl_seq_def
 *        kind 0x0D sequence state       0x80 0D | sequence id                    -> last value, called
 *   0x81 audit log                      snapshot_id | commit seq
 *   0x82 dynamic table definitions      dyn id
 *   0xFD dynamic table rows             dyn id | seq
 *   0xFE counters                       ASCII name ("next-snapshot-id"), value BE u64
 *   0xFF system keys                    ASCII name ("writer-epoch")
 */
#ifndef ROCKLAKE_TAGS_H
#define ROCKLAKE_TAGS_H

enum rl_tag {
    RL_TAG_METADATA = 0x01,
    RL_TAG_SNAPSHOT = 0x02,
    RL_TAG_SNAPSHOT_CHANGES = 0x03,
    RL_TAG_SCHEMA = 0x04,
    RL_TAG_TABLE = 0x05,
    RL_TAG_COLUMN = 0x06,
    RL_TAG_DATA_FILE = 0x07,
    RL_TAG_DELETE_FILE = 0x08,
    RL_TAG_FILE_COLUMN_STATS = 0x09,
    RL_TAG_TABLE_STATS = 0x0A,
    RL_TAG_VIEW = 0x0B,
    RL_TAG_MACRO = 0x0C,
    RL_TAG_TAG = 0x0D,
    RL_TAG_COLUMN_TAG = 0x0E,
    RL_TAG_FILE_VARIANT_STATS = 0x0F,
    RL_TAG_TABLE_COLUMN_STATS = 0x10,
    RL_TAG_PARTITION_INFO = 0x11,
    RL_TAG_PARTITION_COLUMN = 0x12,
    RL_TAG_FILE_PARTITION_VALUE = 0x13,
    RL_TAG_FILES_SCHEDULED_FOR_DELETION = 0x14,
    RL_TAG_INLINED_DATA_TABLES = 0x15,
    RL_TAG_COLUMN_MAPPING = 0x16,
    RL_TAG_NAME_MAPPING = 0x17,
    RL_TAG_SCHEMA_VERSIONS = 0x18,
    RL_TAG_MACRO_IMPL = 0x19,
    RL_TAG_MACRO_PARAMETERS = 0x1A,
    RL_TAG_SORT_INFO = 0x1B,
    RL_TAG_SORT_EXPRESSION = 0x1C,
    RL_TAG_VIEW_COLUMN_TAG = 0x1D,

    RL_TAG_INDEX = 0x80,
    RL_TAG_AUDIT = 0x81,
    RL_TAG_DYNAMIC_TABLE = 0x82,
    RL_TAG_DYNAMIC_ROW = 0xFD,
    RL_TAG_COUNTER = 0xFE,
    RL_TAG_SYSTEM = 0xFF
};

enum rl_index_kind {
    RL_INDEX_LIVE = 0x01,
    RL_INDEX_PK = 0x02,
    RL_INDEX_DYNAMIC_NAME = 0x03, /* every SQL-visible table name: fixed tag or dynamic id */
    RL_INDEX_SCHEMA = 0x04,       /* schemas created by CREATE SCHEMA */
    RL_INDEX_SQL_INDEX = 0x05,    /* indexes created by CREATE INDEX on a table */
    RL_INDEX_COMMENT = 0x06,      /* comments (COMMENT ON) on schemas, relations, columns */
    RL_INDEX_UNIQUE = 0x07,       /* entries of UNIQUE indexes: index id, key values -> row key */
    RL_INDEX_FKEY = 0x08,         /* FOREIGN KEY definitions: schema, table, constraint name */
    RL_INDEX_FKEY_ENTRY = 0x09,   /* referencing rows: fkey id, key values, row key -> empty */
    RL_INDEX_CHECK = 0x0A,        /* CHECK constraints: schema, table, name -> definition */
    RL_INDEX_DEFAULT = 0x0B,      /* column DEFAULTs: schema, table, column -> definition */
    RL_INDEX_SEQUENCE = 0x0C,     /* sequences (CREATE SEQUENCE): schema, name -> definition */
    RL_INDEX_SEQUENCE_STATE = 0x0D /* a sequence's state, written outside transactions: id */
};

/* Counter names (tag 0xFE). Values: big-endian u64 "next free". */
#define RL_COUNTER_NEXT_SNAPSHOT_ID "next-snapshot-id"
#define RL_COUNTER_NEXT_CATALOG_ID "next-catalog-id"
#define RL_COUNTER_NEXT_FILE_ID "next-file-id"
#define RL_COUNTER_NEXT_COMMIT_SEQ "next-commit-seq"
#define RL_COUNTER_NEXT_DYNAMIC_ID "next-dynamic-table-id"
#define RL_COUNTER_NEXT_INDEX_ID "next-unique-index-id" /* ids of UNIQUE indexes (0x80 07) */
#define RL_COUNTER_NEXT_FKEY_ID "next-foreign-key-id"   /* ids of FOREIGN KEYs (0x80 09) */
#define RL_COUNTER_NEXT_SEQUENCE_ID "next-sequence-id" /* ids of sequences' states (0x80 0D) */
#define RL_COUNTER_ROWSEQ_PREFIX "next-row-seq:" /* + "xx" tag hex, or "fd:<dyn id>" */
/* Discriminators of duplicate rows (keys.h), one sequence for all tables. */
#define RL_COUNTER_NEXT_DUP RL_COUNTER_ROWSEQ_PREFIX "dup"

/* System keys (tag 0xFF). */
#define RL_SYS_FORMAT_VERSION "catalog-format-version" /* BE u64: RockLake key/value layout */
#define RL_SYS_DUCKLAKE_FORMAT "ducklake-format"       /* ASCII "1.0" / "1.1": table shapes */
#define RL_SYS_WRITER_EPOCH "writer-epoch"             /* BE u64, +1 per writer open */
#define RL_SYS_RETAIN_FROM "retain-from"               /* BE u64 oldest queryable snapshot */
#define RL_SYS_CREATED_AT "created-at"                 /* BE u64 unix micros */
#define RL_SYS_WRITER_LEASE "writer-lease"             /* text: holder + heartbeat (lease.h) */
/* Copies (import, backup, restore): present from a copy's first durable
 * write until its last; every open but the reading tools' refuses a store
 * that holds it (catalog.h, rl_catalog_copy_marker_get). */
#define RL_SYS_COPY_INCOMPLETE "copy-incomplete"       /* text: "import from ...", "backup of ..." */
#define RL_SYS_BACKUP_INFO "backup-info"               /* text: a complete backup's summary */

#define RL_STORAGE_FORMAT_VERSION 2

#endif
