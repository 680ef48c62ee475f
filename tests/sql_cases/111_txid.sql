-- txid_current() / txid_current_if_assigned() (RockLake had neither: 42883):
-- a number taken at the first call, the same for the rest of the
-- transaction, NULL from the second before it; a new one in the next
-- transaction, and larger (the values are the server's own)
SELECT txid_current_if_assigned() IS NULL;
SELECT txid_current() > 0, txid_current() = txid_current(), pg_typeof(txid_current()), pg_typeof(txid_current_if_assigned());
BEGIN;
SELECT txid_current_if_assigned() IS NULL;
CREATE TEMP TABLE tx (a bigint);
INSERT INTO tx SELECT txid_current();
SELECT txid_current() = a, txid_current_if_assigned() = a FROM tx;
COMMIT;
BEGIN;
SELECT txid_current_if_assigned() IS NULL, txid_current() > a FROM tx;
ROLLBACK;
SELECT proname, provolatile, proisstrict, prorettype::regtype, pronargs FROM pg_proc WHERE proname IN ('txid_current', 'txid_current_if_assigned') ORDER BY 1;
