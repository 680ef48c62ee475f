-- Flush of inlined data, merge of adjacent files, rewrite, expiry, cleanup, orphans.
CREATE TABLE m (id INTEGER, v VARCHAR);
INSERT INTO m VALUES (1, 'a');
INSERT INTO m VALUES (2, 'b');
INSERT INTO m VALUES (3, 'c');
CALL ducklake_flush_inlined_data('lake');
SELECT * FROM m;
INSERT INTO m SELECT i, 'p' || i FROM range(10, 100) r(i);
INSERT INTO m SELECT i, 'q' || i FROM range(100, 200) r(i);
INSERT INTO m SELECT i, 'r' || i FROM range(200, 300) r(i);
SELECT count(*) FROM ducklake_list_files('lake', 'm');
CALL ducklake_merge_adjacent_files('lake');
SELECT count(*) FROM ducklake_list_files('lake', 'm');
SELECT count(*), sum(id) FROM m;
DELETE FROM m WHERE id % 2 = 0;
CALL ducklake_rewrite_data_files('lake', 'm', delete_threshold => 0.1);
SELECT count(*), sum(id) FROM m;
SELECT count(*) FROM m AT (VERSION => 5);
SELECT snapshot_id, changes FROM lake.snapshots();
SELECT snapshot_id FROM ducklake_expire_snapshots('lake', versions => [2, 3]);
SELECT snapshot_id FROM lake.snapshots();
-- @error
SELECT * FROM m AT (VERSION => 2);
SELECT count(*) > 0 FROM ducklake_expire_snapshots('lake', older_than => now());
SELECT count(*) FROM lake.snapshots();
SELECT count(*) > 0 FROM ducklake_cleanup_old_files('lake', cleanup_all => true);
SELECT count(*) FROM ducklake_cleanup_old_files('lake', cleanup_all => true);
SELECT count(*) FROM ducklake_delete_orphaned_files('lake', cleanup_all => true);
-- @reattach
SELECT count(*), sum(id) FROM m;
CALL lake.set_option('parquet_compression', 'zstd');
SELECT option_name, value, scope FROM lake.options() WHERE option_name = 'parquet_compression';
