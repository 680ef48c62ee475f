-- COPY in CSV (and text with HEADER): TO STDOUT and FROM STDIN with
-- PostgreSQL's options and its checks of them.
\i 00_schema.sql
INSERT INTO ducklake_metadata VALUES ('plain', 'v', NULL, NULL), ('comma', 'a,b', 'table', 1), ('quote', 'say "hi"', NULL, NULL), ('newline', E'two\nlines', NULL, NULL), ('empty', '', NULL, NULL), ('nullword', 'NULL', NULL, NULL), ('backslash', E'back\\slash', NULL, NULL);
COPY (SELECT key, value, scope, scope_id FROM ducklake_metadata ORDER BY key) TO STDOUT WITH CSV;
COPY (SELECT key, value, scope, scope_id FROM ducklake_metadata ORDER BY key) TO STDOUT WITH CSV HEADER;
COPY (SELECT key, value FROM ducklake_metadata ORDER BY key) TO STDOUT (FORMAT csv, HEADER true, DELIMITER ';', NULL 'N/A', QUOTE '''', FORCE_QUOTE (key));
COPY (SELECT key, value FROM ducklake_metadata ORDER BY key) TO STDOUT (FORMAT csv, ESCAPE '\', FORCE_QUOTE *);
COPY (SELECT key, value FROM ducklake_metadata ORDER BY key) TO STDOUT (FORMAT text, HEADER);
COPY ducklake_metadata (key, value) TO STDOUT (FORMAT csv, HEADER on);
COPY ducklake_metadata TO STDOUT (FORMAT csv, FORCE_QUOTE (value));
COPY ducklake_metadata (key) TO STDOUT (FORMAT csv, FORCE_QUOTE (value));
COPY ducklake_metadata TO STDOUT (FORMAT csv, FORCE_QUOTE (nope));
COPY (SELECT key, value FROM ducklake_metadata) TO STDOUT (FORMAT csv, FORCE_QUOTE (value), HEADER);
COPY (SELECT key, value FROM ducklake_metadata) TO STDOUT (FORMAT csv, FORCE_QUOTE (nope));
COPY (SELECT '\.' AS x) TO STDOUT (FORMAT csv);
COPY (SELECT 1 AS a, NULL::text AS b, '' AS c) TO STDOUT (FORMAT csv, NULL '');
COPY (SELECT 1 AS a, NULL::text AS b, '' AS c) TO STDOUT (FORMAT csv, NULL 'x');
DELETE FROM ducklake_metadata;
COPY ducklake_metadata (key, value, scope) FROM STDIN (FORMAT csv);
a,"x, y",
b,"say ""hi""",table
c,,""
"d","multi
line",
\.
SELECT key, value, scope, scope IS NULL AS scope_null FROM ducklake_metadata ORDER BY key;
COPY ducklake_metadata (key, value) FROM STDIN (FORMAT csv, HEADER);
key,value
e,1
\.
COPY ducklake_metadata (key, value) FROM STDIN (FORMAT csv, HEADER match);
key,value
f,2
\.
COPY ducklake_metadata (key, value) FROM STDIN (FORMAT csv, HEADER match);
value,key
g,3
\.
COPY ducklake_metadata (key, value) FROM STDIN (FORMAT csv, HEADER match);
key
h,4
\.
COPY ducklake_metadata (key, value) FROM STDIN (FORMAT csv, DELIMITER '|', NULL 'NA', QUOTE '''', ESCAPE '\');
i|'it\'s'
j|NA
k|'NA'
\.
COPY ducklake_metadata (key, value) FROM STDIN (FORMAT text, HEADER match);
key	value
l	5
\.
COPY ducklake_metadata (key, value) FROM STDIN (FORMAT csv);
m,"open
\.
COPY ducklake_metadata (key, value) FROM STDIN (FORMAT csv);
n,1,2
\.
COPY ducklake_metadata (key, value) FROM STDIN (FORMAT csv);
o
\.
SELECT key, value, value IS NULL AS value_null FROM ducklake_metadata ORDER BY key;
-- option checks
COPY ducklake_metadata TO STDOUT (FORMAT csv, QUOTE '""');
COPY ducklake_metadata TO STDOUT (FORMAT text, QUOTE '"');
COPY ducklake_metadata TO STDOUT (FORMAT csv, DELIMITER '|', NULL 'a|b');
COPY ducklake_metadata TO STDOUT (FORMAT csv, NULL 'a"b');
COPY ducklake_metadata TO STDOUT (FORMAT csv, HEADER match);
COPY ducklake_metadata FROM STDIN (FORMAT csv, FORCE_QUOTE *);
COPY ducklake_metadata TO STDOUT (FORMAT csv, HEADER 'maybe');
COPY ducklake_metadata TO STDOUT (FORMAT csv, DELIMITER ',', DELIMITER ';');
COPY ducklake_metadata TO STDOUT (FORMAT text, DELIMITER 'a');
COPY ducklake_metadata TO STDOUT (FORMAT binary, HEADER);
COPY ducklake_metadata TO STDOUT (FORMAT csv, ESCAPE 'xy');
COPY ducklake_metadata TO STDOUT (FORMAT text, ESCAPE 'x');
COPY ducklake_metadata TO STDOUT (FORMAT text, FORCE_QUOTE *);
COPY ducklake_metadata TO STDOUT (FORMAT csv, DELIMITER E'\n');
COPY ducklake_metadata TO STDOUT (FORMAT csv, QUOTE '"', DELIMITER '"');
COPY ducklake_metadata TO STDOUT (FORMAT binary, DELIMITER ',');
COPY ducklake_metadata TO STDOUT (FORMAT xml);
