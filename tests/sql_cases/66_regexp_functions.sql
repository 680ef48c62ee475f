-- The regular-expression functions of PostgreSQL 15 (issue #34): regexp_match, regexp_matches (with
-- and without 'g', set-returning in FROM and target lists), regexp_split_to_array / _table,
-- regexp_count, regexp_instr, regexp_substr, regexp_like; their flags (g i c n m p w s x q),
-- capture groups that take no part (NULL), empty and zero-length matches, degenerate splits,
-- characters beyond ASCII (positions count characters), NULLs, and PostgreSQL's SQLSTATEs
-- (22023 for a bad flag, 'g' where it is not allowed, a bad start / n / endoption / subexpr;
-- 2201B for a bad pattern).
select regexp_match('foobarbequebaz', 'bar.*que'), regexp_match('foobarbequebaz', '(bar)(beque)');
select regexp_match('abc', 'x'), regexp_match(null, 'a'), regexp_match('a', null), regexp_match('abc', '');
select regexp_match('abc', '(x)?b'), regexp_match('abc', '(a)|(b)'), regexp_match('ABC', 'b', 'i');
select regexp_match('abc', 'b', 'g');
select regexp_match('abc', 'b', 'z');
select regexp_match('abc', 'b', null), pg_typeof(regexp_match('a', 'a'));
select regexp_match('a"b c,d', '.*'), regexp_match('x', '(x)(y)?');
select regexp_matches('foobarbequebaz', 'ba.', 'g');
select regexp_matches('foobarbequebaz', '(b)(a)', 'g');
select regexp_matches('abc', '', 'g');
select regexp_matches('abc', 'x*', 'g');
select regexp_matches('aaa', 'a*', 'g');
select regexp_matches('abc', 'b');
select regexp_matches('ABCabc', 'b', 'gi');
select regexp_matches('abc', 'z', 'g');
select m from regexp_matches('one two three', '(\w+)', 'g') m;
select m[1], m[2] from regexp_matches('k1=v1,k2=v2', '(\w+)=(\w+)', 'g') as m;
select * from regexp_matches(null, 'a', 'g');
select * from regexp_matches('a', 'a', 'q');
select regexp_matches('abc', 'b', 'y');
select regexp_matches('abc', '(', 'g');
select count(*) from regexp_matches(repeat('ab', 1000), 'b', 'g');
select regexp_split_to_array('hello world', '\s+'), regexp_split_to_array('a,b,,c', ','), regexp_split_to_array('', ',');
select regexp_split_to_array('abc', ''), regexp_split_to_array('abc', 'x*'), regexp_split_to_array(',a,', ',');
select regexp_split_to_array('aXbxc', 'x', 'i'), regexp_split_to_array('abc', 'b', 'g');
select regexp_split_to_array('abc', '(b)'), regexp_split_to_array('a1b22c', '\d*'), regexp_split_to_array(null, ',');
select regexp_split_to_array('ééé', ''), regexp_split_to_array('aéb', 'é');
select regexp_split_to_table('the quick brown', '\s+');
select x from regexp_split_to_table('a,b', ',') x;
select * from regexp_split_to_table('abc', '');
select * from regexp_split_to_table('', 'x');
select * from regexp_split_to_table('a b', ' ', 'g');
select regexp_split_to_table('a-b', '-'), 5;
select regexp_count('ABCABCAXYaxy', 'A.'), regexp_count('ABCABCAXYaxy', 'A.', 1, 'i'), regexp_count('abc', '');
select regexp_count('aaa', 'a*'), regexp_count('abcabc', 'b', 3), regexp_count('abc', 'b', 10), regexp_count('', 'x');
select regexp_count('éaéa', 'a', 2), regexp_count('abc', 'b', 1, null), regexp_count(null, 'a');
select regexp_count('abc', 'b', 0);
select regexp_count('abc', 'b', 1, 'g');
select regexp_instr('number of your street, town zip, FR', '[^,]+', 1, 2);
select regexp_instr('ABCDEFGHI', '(c..)(...)', 1, 1, 0, 'i', 2), regexp_instr('abc', 'b', 1, 1, 1), regexp_instr('abc', 'x');
select regexp_instr('abcabc', 'b', 3), regexp_instr('abcabc', 'b', 1, 2), regexp_instr('abcabc', 'b', 1, 3), regexp_instr('éab', 'b');
select regexp_instr('abc', '(x)?b', 1, 1, 0, '', 1), regexp_instr('abc', 'b', 1, 1, 0, '', 5), regexp_instr('abc', '');
select regexp_instr('abc', 'b', 0);
select regexp_instr('abc', 'b', 1, 0);
select regexp_instr('abc', 'b', 1, 1, 2);
select regexp_instr('abc', 'b', 1, 1, 0, '', -1);
select regexp_instr('abc', 'b', 1, 1, 0, 'g');
select regexp_substr('number of your street, town zip, FR', '[^,]+', 1, 2);
select regexp_substr('ABCDEFGHI', '(c..)(...)', 1, 1, 'i', 2), regexp_substr('abc', 'x'), regexp_substr('abcabc', 'b.', 3);
select regexp_substr('abc', '(x)?b', 1, 1, '', 1), regexp_substr('abc', 'b', 1, 1, '', 3), regexp_substr('abc', ''), regexp_substr('éab', '.b');
select regexp_substr('abc', 'b', 1, 0);
select regexp_substr('abc', 'b', -1);
select regexp_like('Hello World', 'world'), regexp_like('Hello World', 'world', 'i'), regexp_like('a', 'b'), regexp_like(null, 'a');
select regexp_like('a', 'a', 'g');
select regexp_like('a' || chr(10) || 'b', '^b'), regexp_like('a' || chr(10) || 'b', '^b', 'n'), regexp_like('a' || chr(10) || 'b', 'a.b', 'n');
select regexp_like('a' || chr(10) || 'b', 'a.b'), regexp_like('a' || chr(10) || 'b', 'a$', 'm'), regexp_like('a' || chr(10) || 'b', 'a.b', 'p');
select regexp_like('a' || chr(10) || 'b', '^b', 'w'), regexp_like('a' || chr(10) || 'b', '^b', 's'), regexp_like('a' || chr(10) || 'b', '^b', 'ns');
select regexp_like('abc', 'a b c', 'x'), regexp_like('a.c', '.', 'q'), regexp_like('abc', 'a.c', 'q'), regexp_like('ABC', 'b', 'ic'), regexp_like('ABC', 'b', 'ci');
select regexp_like('abc', 'b', 'k');
select regexp_like('abc', '[');
select regexp_replace('abc', 'b', 'x', 'gi'), regexp_replace('aBc', 'b', 'x', 'i'), regexp_replace('a.c', '.', 'x', 'gq');
select regexp_replace('abc', 'b', 'x', 'r');
select regexp_match('abc', 'b')::text, (regexp_match('key=val', '(\w+)=(\w+)'))[2];
select array_length(regexp_split_to_array(repeat('a,', 500), ','), 1);
select regexp_count(repeat('a', 5000), '(a|aa)+$');
-- every match of a long string: PCRE2 checked the whole subject's UTF-8 at each match, minutes for these
select regexp_count(repeat('aé', 300000), 'é'), length(regexp_replace(repeat('ab', 300000), 'b', 'c', 'g'));
select cardinality(regexp_split_to_array(repeat('a,', 300000), ',')), count(*) from regexp_matches(repeat('xy', 300000), 'y', 'g');
-- set-returning functions in FROM naming earlier FROM items (LATERAL, as PostgreSQL takes them)
select v.x, s from (values ('a-b'), ('c')) v(x), regexp_split_to_table(x, '-') s order by 1, 2;
select x, m from (values ('a1b2'), ('c')) v(x) cross join lateral regexp_matches(x, '\d', 'g') m order by 1, 2;
select x, t from (values ('a,b'), (null)) v(x) left join lateral string_to_table(x, ',') t on true order by 1, 2;
select x, m[1] from (values ('k=v'), ('no')) v(x), regexp_matches(x, '(\w)=(\w)') m;
-- PostgreSQL's texts for the common pattern errors (PCRE2 reports them in its own words)
select 'a' ~ '*';
select 'a' ~ 'a{3,2}';
select 'a' ~ '[z-a]';
select 'a' ~ '\';
select 'a' ~ ')';
select 'a' ~ '[[:foo:]]';
select regexp_replace('a', '(', 'x');
