-- The cast functions PostgreSQL 15's pg_cast names are rows of pg_proc
-- (RockLake listed only its own functions: psql's \dC, which joins pg_cast
-- to pg_proc, showed no function names), and a one-argument call of one
-- is the cast (42883 before); a type's name called with an untyped
-- literal is PostgreSQL's function-style coercion. Only the casts among
-- RockLake's types: pg_proc lists what a call reaches, not bit(bigint, ...),
-- money(integer) nor the length coercions (numeric(numeric, integer))
SELECT count(*), count(p.oid), count(DISTINCT p.oid) FROM pg_cast c LEFT JOIN pg_proc p ON p.oid = c.castfunc WHERE castsource IN ('int2'::regtype, 'int4'::regtype, 'int8'::regtype, 'float4'::regtype, 'float8'::regtype, 'numeric'::regtype, 'bool'::regtype, 'text'::regtype, 'varchar'::regtype, '"char"'::regtype, 'name'::regtype, 'date'::regtype, 'timestamp'::regtype, 'timestamptz'::regtype, 'time'::regtype, 'timetz'::regtype, 'interval'::regtype, 'json'::regtype, 'jsonb'::regtype, 'oid'::regtype, 'uuid'::regtype) AND casttarget IN ('int2'::regtype, 'int4'::regtype, 'int8'::regtype, 'float4'::regtype, 'float8'::regtype, 'numeric'::regtype, 'bool'::regtype, 'text'::regtype, 'varchar'::regtype, '"char"'::regtype, 'name'::regtype, 'date'::regtype, 'timestamp'::regtype, 'timestamptz'::regtype, 'time'::regtype, 'timetz'::regtype, 'interval'::regtype, 'json'::regtype, 'jsonb'::regtype, 'oid'::regtype, 'uuid'::regtype) AND castsource <> casttarget;
SELECT format_type(castsource, NULL), format_type(casttarget, NULL), CASE WHEN c.castmethod = 'b' THEN '(binary coercible)' WHEN c.castmethod = 'i' THEN '(with inout)' ELSE p.proname END, castcontext FROM pg_cast c LEFT JOIN pg_proc p ON c.castfunc = p.oid WHERE castsource IN ('int8'::regtype, 'bool'::regtype, '"char"'::regtype) AND casttarget IN ('int2'::regtype, 'int4'::regtype, 'int8'::regtype, 'float4'::regtype, 'float8'::regtype, 'numeric'::regtype, 'bool'::regtype, 'text'::regtype, 'varchar'::regtype, '"char"'::regtype, 'name'::regtype, 'date'::regtype, 'timestamp'::regtype, 'timestamptz'::regtype, 'time'::regtype, 'timetz'::regtype, 'interval'::regtype, 'json'::regtype, 'jsonb'::regtype, 'oid'::regtype, 'uuid'::regtype) ORDER BY 1, 2;
SELECT p.proname, pg_get_function_arguments(p.oid), pg_get_function_result(p.oid), p.prokind, p.provolatile, p.proisstrict, pg_function_is_visible(p.oid) FROM pg_proc p WHERE p.proname IN ('int2', 'float8') ORDER BY 1, 2;
-- calls: each is its cast
SELECT int4(5::int8), float8(3), text(true), int8(2.5), int2(7.5::float4), numeric(1.25::float8), date('2020-01-02 03:04'::timestamp);
SELECT pg_typeof(int4(5::int8)), pg_typeof(float4(1::int2)), pg_typeof(timestamptz('2020-01-02'::date));
SELECT int4(NULL::int8) IS NULL, text(NULL::bool) IS NULL;
SELECT int2(70000::int4);
SELECT int4(1e10::float8);
SELECT float4(1e300::float8);
-- an untyped literal: the cast to the type of that name
SELECT int8('5'), int8(NULL) IS NULL, date('2020-01-02'), text('x'), int4('  42 ');
SELECT pg_typeof(int8('5')), pg_typeof(date('2020-01-02'));
SELECT int8('x');
SELECT date('not a date');
-- not casts: no such function
SELECT integer('5');
SELECT int4(5::int8, 1);
SELECT int4(x => 5::int8);
SELECT pg_catalog.int4(5::int8);
