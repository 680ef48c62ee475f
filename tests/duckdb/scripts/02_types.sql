-- Every column type DuckLake stores, including nested ones.
CREATE TABLE ty (
  b BOOLEAN, i8 TINYINT, i16 SMALLINT, i32 INTEGER, i64 BIGINT, i128 HUGEINT,
  u8 UTINYINT, u16 USMALLINT, u32 UINTEGER, u64 UBIGINT,
  f32 FLOAT, f64 DOUBLE, d1 DECIMAL(4,1), d2 DECIMAL(18,3), d3 DECIMAL(38,10),
  s VARCHAR, bl BLOB, dt DATE, tm TIME, ts TIMESTAMP, tsz TIMESTAMPTZ,
  ts_s TIMESTAMP_S, ts_ms TIMESTAMP_MS, ts_ns TIMESTAMP_NS,
  iv INTERVAL, u UUID, j JSON,
  l INTEGER[], ls VARCHAR[], st STRUCT(a INTEGER, b VARCHAR), m MAP(VARCHAR, INTEGER),
  nested STRUCT(x INTEGER[], y STRUCT(z DOUBLE)));
INSERT INTO ty VALUES (
  true, -128, -32768, -2147483648, -9223372036854775808, 170141183460469231731687303715884105727,
  255, 65535, 4294967295, 18446744073709551615,
  1.5, 2.25, 123.4, 12345.678, 1234567890.0123456789,
  'héllo', '\x00\xFF'::BLOB, DATE '2024-02-29', TIME '23:59:59.999999', TIMESTAMP '2024-01-02 03:04:05.123456',
  TIMESTAMPTZ '2024-01-02 03:04:05+00', TIMESTAMP_S '2024-01-02 03:04:05', TIMESTAMP_MS '2024-01-02 03:04:05.123',
  TIMESTAMP_NS '2024-01-02 03:04:05.123456789',
  INTERVAL 3 DAY, 'b4a2f1ea-3d5e-4b0e-9c7a-0a1b2c3d4e5f', '{"k": [1, 2]}',
  [1, 2, NULL], ['a', 'b'], {'a': 1, 'b': 'x'}, MAP {'k1': 1, 'k2': 2},
  {'x': [1, 2], 'y': {'z': 0.5}});
INSERT INTO ty (i32, s) VALUES (NULL, NULL), (7, '');
SELECT * FROM ty;
SELECT i32, s FROM ty WHERE i32 = 7;
SELECT column_name, data_type FROM information_schema.columns WHERE table_catalog = 'lake' AND table_name = 'ty' ORDER BY ordinal_position;
-- Parquet: more rows than the inlining limit
INSERT INTO ty (i64, s, l, st) SELECT i, 'row ' || i, [i, i + 1], {'a': i::INTEGER, 'b': i::VARCHAR} FROM range(100) t(i);
SELECT count(*), sum(i64), max(s), min(l), max(st.a) FROM ty;
-- @reattach
SELECT * FROM ty WHERE i64 < 3 OR i32 IS NOT NULL;
SELECT d2, d3, f64 FROM ty WHERE d2 IS NOT NULL;
