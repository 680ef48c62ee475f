-- "char" and integers: int4 -> "char" is the one byte of the value
-- (i4tochar: 0 the empty string, 22003 outside -128..127), "char" -> int4
-- the byte signed; no other number casts to "char" (42846 at the `::`,
-- where PostgreSQL points "cannot cast type" errors). RockLake printed 65
-- for 65::"char" and cast any number to its digits before.
\i 00_schema.sql
SELECT 65::"char", 0::"char", (65::"char")::text, length(0::"char"::text);
SELECT 300::"char";
SELECT (-129)::"char";
SELECT 65::int8::"char";
SELECT 65::int2::"char";
SELECT 1.5::"char";
SELECT 'A'::"char"::int4, ''::"char"::int4, 'abc'::"char"::int4;
SELECT true::date, 1;
SELECT 65::int8::date;
