-- character(n) / bpchar values as PostgreSQL 15 has them (issue #34):
-- input pads to n with blanks, a longer value is cut by an explicit cast
-- and refused by assignment unless what goes is blanks (22001), output keeps
-- the padding, comparisons ignore trailing blanks (beside text only the
-- bpchar side loses them), length / char_length ignore them and
-- octet_length counts them, casts to text / varchar and || strip them, LIKE
-- sees the padding, pg_typeof / format_type. RockLake kept bpchar as text.
SELECT 'ab'::char(5), 'ab'::character(5) || '|', 'abcdef'::char(3), 'a'::char, 'abc'::character, 'abc  '::bpchar || '|';
SELECT pg_typeof('ab'::char(5)), pg_typeof('a'::bpchar), pg_typeof('a'::char(3) || 'b');
SELECT length('ab '::char(5)), char_length('ab '::char(5)), octet_length('ab'::char(5)), length('abc  '::bpchar), octet_length('abc  '::bpchar);
SELECT 'ab'::char(5) = 'ab   '::char(5), 'ab'::char(5) = 'ab', 'ab'::char(5) = 'ab  ', 'a '::char(3) || 'b', 'ab'::char(5)::text || '|', 'ab'::char(5)::varchar || '|';
SELECT 'a'::char(3) = 'a '::text, 'a '::char(3) = 'a'::text, 'a'::char(3) = 'a  '::varchar, 'a'::varchar = 'a  '::char(3), 'a'::char(3) < 'a' || chr(1), 'a  '::char(3) < 'a' || chr(1);
SELECT 'a'::char(3) LIKE 'a', 'a'::char(3) LIKE 'a  ', 'a  '::bpchar LIKE 'a', 'ab'::char(4) LIKE 'a%', 'ab'::char(4) NOT LIKE 'ab';
SELECT upper('a'::char(3)) || '|', pg_typeof(upper('a'::char(3))), coalesce('a'::char(3), 'b'::varchar) || '|', pg_typeof(coalesce('a'::char(3), 'b'::varchar)), pg_typeof(coalesce('a'::varchar, 'b'::char(3)));
SELECT 'é'::char(3) || '|', octet_length('é'::char(3)), 'éèà€x'::char(4), 'abc   '::char(2);
SELECT cast('xyz' as char(2)), cast('x' as character(4)) || '|', 'ab'::char(5)::char(2), 'ab'::char(2)::char(5), octet_length('ab'::char(2)::char(5));
SELECT 5::char(3), octet_length(5::char(3)), '5  '::char(3)::int, true::char(5), 12345::char(3);
SELECT x, length(x) FROM (VALUES ('b'::char(3)), ('a  '), ('a'), ('a' || chr(1))) v(x) ORDER BY x;
SELECT DISTINCT x FROM (VALUES ('a'::char(3)), ('a  '::bpchar), ('a'::bpchar), ('b')) v(x) ORDER BY 1;
SELECT x, count(*) FROM (VALUES ('a'::bpchar), ('a '::bpchar), ('a  '), ('b')) v(x) GROUP BY x ORDER BY 1;
SELECT format_type('bpchar'::regtype, 9), format_type(1042, -1), format_type(1042, 5);
SELECT 'a'::char(0);
SELECT 'a'::char(10485761);
SELECT 'abc'::char(3)::char(10485760) IS NOT NULL;
SELECT 'ab'::char(5) IN ('ab', 'c'), 'ab'::char(5) IN ('ab '::char(3)), CASE 'ab'::char(5) WHEN 'ab' THEN 1 ELSE 0 END;
SELECT max(x) || '|', min(x) || '|' FROM (VALUES ('a'::char(3)), ('b')) v(x);
SELECT ARRAY['a'::char(3)]::text;
SELECT bpchar('a  ') || '|', octet_length(bpchar('a  ')), text('a  '::bpchar) || '|', varchar('ab '::char(4)) || '|', pg_typeof(bpchar('a'));
SELECT ARRAY['a'::char(3), 'b']::text, pg_typeof(ARRAY['a'::char(3)]), '{a,b}'::char(2)[], ('{a,b}'::char(2)[])[1] || '|';
SELECT 'a'::char(3) > 'a', 'a'::char(3) <> 'a ', 'a'::char(3) IS DISTINCT FROM 'a  ', nullif('a'::char(3), 'a ') IS NULL, greatest('a'::char(3), 'a '::char(2)) || '|';
SELECT x FROM (VALUES ('a'::char(3)), ('b')) v(x) WHERE x = 'a';
SELECT character_length('ab '::char(5)), character_length('ab '), char_length('ab '), length('ab '), length('ab '::varchar), octet_length('ab '), length(NULL::char(3)), char_length('é  '::bpchar);
SELECT oid, proname, prosrc, proargtypes::text FROM pg_proc WHERE proname IN ('character_length', 'char_length', 'length', 'octet_length') AND oid IN (1317, 1318, 1367, 1369, 1372, 1374, 1375, 1381) ORDER BY oid;
SELECT 'a'::char(3) LIKE 'a  ' || '', 'ab'::char(5) ILIKE 'AB%', 'ab '::char(5) ~ '^ab $';
SELECT '{a,b }'::_bpchar, pg_typeof('{a}'::_bpchar), ('{a,b }'::_bpchar)[2] || '|', '{a}'::_bpchar = '{"a  "}'::_bpchar;
SELECT ARRAY['a'::char(3)] @> ARRAY['a'::bpchar], ARRAY['b'::char(2), 'a'] < ARRAY['b  '::bpchar, 'b'], array_position(ARRAY['a'::char(3), 'b'], 'b'::bpchar), 'a'::char(3) = ANY (ARRAY['a  '::bpchar]);
