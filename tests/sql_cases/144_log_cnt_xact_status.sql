-- A sequence's log_cnt after ALTER SEQUENCE without RESTART is 0 and the
-- next nextval logs 32 ahead again, as PostgreSQL's rewritten tuple (it
-- kept counting down before); pg_xact_status / txid_status of the numbers
-- every server answers alike (1 and 2 committed, 0 and an id never given
-- NULL, past the last one 22023; tests/wire/test_xact_status.py follows a
-- transaction's own number). Both were missing (42883) before.
CREATE SEQUENCE ls1;
SELECT nextval('ls1');
SELECT last_value, log_cnt, is_called FROM ls1;
SELECT nextval('ls1');
SELECT last_value, log_cnt, is_called FROM ls1;
ALTER SEQUENCE ls1 INCREMENT 3;
SELECT last_value, log_cnt, is_called FROM ls1;
SELECT nextval('ls1');
SELECT last_value, log_cnt, is_called FROM ls1;
ALTER SEQUENCE ls1 MAXVALUE 1000;
SELECT last_value, log_cnt, is_called FROM ls1;
SELECT nextval('ls1');
SELECT last_value, log_cnt, is_called FROM ls1;
ALTER SEQUENCE ls1 RESTART;
SELECT last_value, log_cnt, is_called FROM ls1;
SELECT nextval('ls1');
SELECT last_value, log_cnt, is_called FROM ls1;
SELECT setval('ls1', 50);
SELECT last_value, log_cnt, is_called FROM ls1;
SELECT nextval('ls1');
SELECT last_value, log_cnt, is_called FROM ls1;
CREATE SEQUENCE ls2 CACHE 5;
SELECT nextval('ls2'), nextval('ls2');
SELECT last_value, log_cnt, is_called FROM ls2;
ALTER SEQUENCE ls2 CACHE 1;
SELECT last_value, log_cnt, is_called FROM ls2;
SELECT nextval('ls2');
SELECT last_value, log_cnt, is_called FROM ls2;
SELECT pg_xact_status('1'::xid8), pg_xact_status('2'::xid8), txid_status(1), txid_status(2);
SELECT pg_xact_status('0'::xid8), pg_xact_status('3'::xid8), txid_status(0), txid_status(3);
SELECT pg_typeof(pg_xact_status('1'::xid8)), pg_typeof(txid_status(1));
SELECT txid_status(-1);
SELECT pg_xact_status('18446744073709551615'::xid8);
SELECT pg_xact_status(NULL), txid_status(NULL);
SELECT proname, provolatile, proisstrict, prorettype::regtype, pronargs, pg_get_function_arguments(oid) FROM pg_proc WHERE proname IN ('pg_xact_status', 'txid_status') ORDER BY 1;
