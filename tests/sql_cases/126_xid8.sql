-- pg_current_xact_id() / pg_current_xact_id_if_assigned() and the xid8
-- type (42883 / 42704 before): the same number as txid_current(), typed
-- xid8; the values are RockLake's own (the writer's epoch above a counter)
SELECT pg_typeof(pg_current_xact_id()), pg_typeof(pg_current_xact_id_if_assigned());
SELECT pg_current_xact_id_if_assigned() IS NULL;
BEGIN;
SELECT pg_current_xact_id_if_assigned() IS NULL;
SELECT pg_current_xact_id() = pg_current_xact_id(), pg_current_xact_id()::text = txid_current()::text, pg_current_xact_id_if_assigned() = pg_current_xact_id();
CREATE TEMP TABLE xt (a text);
INSERT INTO xt SELECT pg_current_xact_id()::text;
COMMIT;
SELECT pg_current_xact_id() > a::xid8, pg_current_xact_id() <> a::xid8 FROM xt;
-- xid8 input: an unsigned 64-bit number as strtoull reads it (PostgreSQL
-- 15's xid8in checks nothing)
SELECT '42'::xid8, '-1'::xid8, '0x10'::xid8, '010'::xid8, ' 12 '::xid8, '12x'::xid8, ''::xid8, 'abc'::xid8, '99999999999999999999'::xid8;
SELECT '5'::xid8 < '6'::xid8, '-1'::xid8 > '5'::xid8, '5'::xid8 = '5'::xid8, '1'::xid8 <> '2'::xid8, '3'::xid8 >= '3'::xid8, '3'::xid8 <= '2'::xid8;
SELECT x FROM (VALUES ('5'::xid8), ('18446744073709551615'::xid8), ('7'::xid8), (NULL)) v(x) ORDER BY x;
SELECT max(x), min(x) FROM (VALUES ('5'::xid8), ('7'::xid8)) v(x);
SELECT '5'::xid8::text, pg_typeof('5'::xid8::text), CAST('5' AS xid8);
SELECT oprname, oprresult::regtype FROM pg_operator WHERE oprleft = 'xid8'::regtype AND oprright = 'xid8'::regtype ORDER BY 1;
SELECT proname, prorettype::regtype, provolatile, proisstrict, pronargs FROM pg_proc WHERE proname IN ('pg_current_xact_id', 'pg_current_xact_id_if_assigned', 'txid_current') ORDER BY 1;
-- no cast from a number
SELECT 5::xid8;
SELECT '5'::xid8 = 5;
