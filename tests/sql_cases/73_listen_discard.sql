-- LISTEN / UNLISTEN / NOTIFY and DISCARD PLANS, as connection poolers and
-- drivers send them: accepted with PostgreSQL's tags and errors (RockLake
-- delivers no notifications; no session here listens to what it notifies).
LISTEN jobs;
UNLISTEN jobs;
UNLISTEN *;
NOTIFY other_channel;
NOTIFY other_channel, 'a payload';
SELECT 1;
BEGIN;
LISTEN jobs;
NOTIFY other_channel, 'in a block';
UNLISTEN jobs;
DISCARD PLANS;
COMMIT;
DISCARD PLANS;
DISCARD ALL;
BEGIN;
DISCARD ALL;
ROLLBACK;
