-- @attach ENCRYPTED
-- An encrypted lake: keys stored in the catalog, data readable back.
-- The wheel has no httpfs: DuckDB's built-in crypto is enough for a test.
SET force_mbedtls_unsafe = 'true';
CREATE TABLE sec (id INTEGER, secret VARCHAR);
INSERT INTO sec SELECT i, 'secret ' || i FROM range(50) r(i);
SELECT count(*), max(secret) FROM sec;
SELECT count(*) FROM __ducklake_metadata_lake.public.ducklake_data_file WHERE encryption_key IS NOT NULL;
-- @reattach
SELECT * FROM sec WHERE id = 7;
