-- DISCARD SEQUENCES (this session's currval / lastval and cached values
-- forgotten, also inside a transaction block) and DISCARD TEMP /
-- TEMPORARY (the session's temporary tables dropped): PostgreSQL's tags
-- and the errors that follow. RockLake refused both (0A000) before.
CREATE SEQUENCE ds1;
SELECT nextval('ds1');
SELECT currval('ds1'), lastval();
DISCARD SEQUENCES;
SELECT currval('ds1');
SELECT lastval();
SELECT nextval('ds1');
BEGIN;
SELECT nextval('ds1');
DISCARD SEQUENCES;
SELECT currval('ds1');
ROLLBACK;
SELECT nextval('ds1'), currval('ds1');
CREATE TEMP TABLE dt (a int);
INSERT INTO dt VALUES (1);
DISCARD TEMP;
SELECT * FROM dt;
CREATE TEMP TABLE dt (a int);
BEGIN;
DISCARD TEMPORARY;
COMMIT;
SELECT * FROM dt;
CREATE TEMP TABLE dt (b text);
SELECT * FROM dt;
DISCARD PLANS;
