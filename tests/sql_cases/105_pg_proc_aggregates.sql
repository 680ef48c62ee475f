-- pg_proc lists the aggregates and window functions the engine computes
-- (prokind 'a' / 'w', PostgreSQL 15's overloads over the engine's types;
-- none before), with pg_get_function_arguments / _result (an ordered-set
-- aggregate's ORDER BY), pg_function_is_visible and their descriptions;
-- format_type spells every type as PostgreSQL does ("any" quoted,
-- int2vector and oidvector as themselves, a typmod of a type without
-- typmodout in parentheses). (pg_proc lists the overloads over the types
-- the engine computes with, tools/gen_pg15_catalog.py's ENGINE_TYPES: the
-- first query takes those; max(money) and the like, and the hypothetical-set
-- rank(...) WITHIN GROUP, and avg(interval), sum(interval) and array_agg(anyarray),
-- which RockLake does not compute, are PostgreSQL's alone.)
SELECT p.oid::int8, proname, prokind, pronargs, proargtypes::text, prorettype::int8, proisstrict, provolatile, proparallel, prosrc, provariadic::int8 FROM pg_proc p WHERE prokind IN ('a', 'w') AND proname IN ('count', 'sum', 'avg', 'min', 'row_number', 'rank', 'lag', 'lead', 'ntile', 'string_agg', 'array_agg', 'percentile_cont', 'percentile_disc', 'mode', 'bool_and', 'every', 'json_object_agg', 'regr_slope', 'stddev') AND NOT (prokind = 'a' AND proname = 'rank') AND p.oid NOT IN (2106, 2113, 4053) AND proargtypes::oid[] <@ ARRAY[16,17,18,19,20,21,22,23,24,25,26,27,114,199,700,701,705,1000,1001,1005,1007,1009,1014,1015,1016,1021,1022,1028,1042,1043,1082,1083,1114,1115,1182,1183,1184,1185,1186,1187,1231,1266,1270,1700,2205,2210,2249,2276,2277,2278,2281,2283,2776,2950,2951,3802,3807,4089,5077,5078]::oid[] ORDER BY p.oid;
SELECT proname, pg_get_function_arguments(p.oid), pg_get_function_result(p.oid), pg_function_is_visible(p.oid), obj_description(p.oid, 'pg_proc') FROM pg_proc p WHERE proname IN ('count', 'percentile_disc', 'mode', 'lead', 'string_agg', 'json_agg') ORDER BY p.oid;
SELECT count(*) FROM pg_proc WHERE prokind = 'w';
SELECT t.oid::int8, format_type(t.oid, NULL), t.oid::regtype::text AS r FROM pg_type t ORDER BY 1;
SELECT format_type(t.oid, 20) FROM pg_type t WHERE t.oid IN (17, 18, 19, 22, 25, 114, 142, 143, 1002, 1560, 1043, 1700, 23) ORDER BY t.oid;
SELECT obj_description('lower(text)'::regprocedure, 'pg_proc'), obj_description(2803, 'pg_proc');
