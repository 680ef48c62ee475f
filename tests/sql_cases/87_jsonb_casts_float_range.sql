-- jsonb::numeric/int2/int4/int8/float4/float8/bool (42846 before): a JSON number through numeric
-- (rounded to integers as numeric rounds, 22003 past range), true/false to bool, 22023 naming any
-- other JSON kind. And numeric -> float8/float4, float8 -> float4 as PostgreSQL converts them: the
-- whole numeric (it was read from its first 127 characters: '1e400'::numeric::float8 answered
-- 9.999999999999999e+125), 22003 on overflow or underflow (Infinity or 0 before).
\i 00_schema.sql
select ('{"a":1}'::jsonb -> 'a')::int, ('{"a":1.5}'::jsonb -> 'a')::numeric, ('{"a":true}'::jsonb -> 'a')::bool, ('{"a":2.5}'::jsonb -> 'a')::float8, ('{"a":2.5}'::jsonb -> 'a')::int;
select ('{"a":"x"}'::jsonb -> 'a')::int;
select ('{"a":null}'::jsonb -> 'a')::int;
select ('{"a":1}'::jsonb)::int;
select ('true'::jsonb)::int;
select ('1'::jsonb)::bool;
select ('12345678901'::jsonb)::int4;
select ('1e400'::jsonb)::float8;
select ('32768'::jsonb)::int2, ('1.5'::jsonb)::float4, ('-0'::jsonb)::numeric, ('1e2'::jsonb)::numeric, ('9223372036854775807'::jsonb)::int8;
select ('{"a":1}'::json -> 'a')::int;
select pg_typeof(('1'::jsonb)::numeric);
select '1e400'::numeric::float8;
select '1e300'::numeric::float8, '1e200'::numeric::float4;
select '1e-400'::numeric::float8;
select '123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789012345678901234567890123456789.5'::numeric::float8;
select '1e39'::numeric::float4;
select 1e300::float8::float4;
select 1e-300::float8::float4;
select 1e-40::float8::float4, 'Infinity'::float8::float4, '-Infinity'::numeric::float8, 'NaN'::numeric::float4, 0::float8::float4, '-0'::float8::float4;
select '1e-40'::numeric::float4, '3.4e38'::numeric::float4, '1.7976931348623157e308'::numeric::float8;
select (1e300::float8)::real + 1;
