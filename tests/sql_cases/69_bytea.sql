-- Binary strings (42883 before): encode / decode in hex, base64 and escape, the SHA-2 digests and
-- md5 of bytea, length / octet_length / bit_length, get_byte / set_byte, substring / substr,
-- position, btrim / ltrim / rtrim, overlay of text and bytea, bytea || bytea (it concatenated the
-- text forms: '\x0102\x03'), convert_to / convert_from; NULLs, edge positions and errors.
\i 00_schema.sql
select encode('abc'::bytea, 'hex'), encode('abc'::bytea, 'base64'), encode('a\000b\\c\377'::bytea, 'escape');
select encode(''::bytea, 'hex'), encode(''::bytea, 'base64'), encode(''::bytea, 'escape');
select encode('\x00ff10'::bytea, 'HEX'), encode('abc'::bytea, 'Base64');
select encode(convert_to(repeat('x', 100), 'UTF8'), 'base64');
select encode('abc'::bytea, 'nope');
select encode(NULL::bytea, 'hex'), encode('a'::bytea, NULL);
select decode('616263', 'hex'), decode('61 62 63', 'hex'), decode('', 'hex'), decode('AbCd', 'hex');
select decode('6', 'hex');
select decode('6g', 'hex');
select decode('zz', 'hex');
select decode('YWJj', 'base64'), decode('YWI=', 'base64'), decode('YQ==', 'base64'), decode('YW Jj
', 'base64');
select decode('YWJ', 'base64');
select decode('Y===', 'base64');
select decode('YQ==YQ==', 'base64');
select decode('YW!j', 'base64');
select decode('a\\b\001', 'escape'), decode('\\\\', 'escape'), decode('x\101', 'escape');
select decode('\\', 'escape');
select decode('\\9', 'escape');
select decode('616263', 'octal');
select sha224('x'), sha256('x'::bytea), sha384(''::bytea), sha512('abc');
select encode(sha256('DuckLake'), 'hex'), md5('x'::bytea), md5(''::bytea), md5('x');
select sha256(NULL), md5(NULL::bytea);
select length('abc'::bytea), octet_length('\x0001'::bytea), bit_length('\x0001'::bytea), bit_length('héllo'), length('héllo');
select get_byte('\x0102'::bytea, 0), get_byte('\x0102'::bytea, 1), set_byte('\x0102'::bytea, 0, 9), set_byte('\x0102'::bytea, 1, 257);
select get_byte('\x0102'::bytea, 2);
select get_byte('\x0102'::bytea, -1);
select set_byte(''::bytea, 0, 1);
select substring('\x010203'::bytea from 2 for 1), substring('\x010203'::bytea from 2), substring('\x010203'::bytea from 0 for 2), substring('\x010203'::bytea from -5 for 7);
select substr('\x010203'::bytea, 3), substr('\x010203'::bytea, 4), substr('\x010203'::bytea, 2, 0), substring('\x010203'::bytea, 9, 2);
select substring('\x010203'::bytea from 1 for -1);
select substring('\x010203'::bytea from 2147483647 for 2147483647);
select position('\x02'::bytea in '\x010203'::bytea), position(''::bytea in '\x01'::bytea), position('\x04'::bytea in '\x010203'::bytea), position('\x0203'::bytea in '\x0203'::bytea);
select btrim('\x000100'::bytea, '\x00'::bytea), ltrim('\x000100'::bytea, '\x00'::bytea), rtrim('\x000100'::bytea, '\x00'::bytea), btrim('\x0000'::bytea, '\x00'::bytea), btrim('\x01'::bytea, ''::bytea);
select overlay('abcdef' placing 'X' from 2 for 3), overlay('abcdef' placing 'XYZ' from 2), overlay('abc' placing 'Z' from 5), overlay('héllo' placing 'E' from 2 for 1), overlay('abc' placing '' from 1 for 1);
select overlay('abc' placing 'X' from 1 for 0), overlay('abc' placing 'X' from 2 for -1);
select overlay('abc' placing 'X' from 0);
select overlay('abc' placing 'X' from 2147483647 for 1);
select overlay('\x01020304'::bytea placing '\xff'::bytea from 2 for 2), overlay('\x0102'::bytea placing '\xaabb'::bytea from 2);
select '\x0102'::bytea || '\x03'::bytea, '\x01'::bytea || '\x02', ''::bytea || ''::bytea, pg_typeof('\x01'::bytea || '\x02'::bytea);
select '\x01'::bytea || NULL::bytea, '\x01'::bytea || 'a'::text;
select convert_to('abc', 'UTF8'), convert_to('é', 'utf-8'), convert_to('é', 'LATIN1'), convert_to('é', 'iso_8859_1'), convert_to('ab', 'SQL_ASCII');
select convert_to('€', 'LATIN1');
select convert_to('a', 'nosuch');
select convert_from('\x616263', 'UTF8'), convert_from('\xe9', 'LATIN1'), convert_from('\xc3a9', 'UTF8');
select convert_from('\xff', 'UTF8');
select convert_from('a'::bytea, 'nosuch');
select length(convert_to('été', 'LATIN1')), convert_from(convert_to('été', 'LATIN1'), 'LATIN1');
create table bins (id int, b bytea);
insert into bins values (1, '\xdeadbeef'), (2, ''), (3, NULL), (4, 'abc');
select id, encode(b, 'hex'), length(b), md5(b), substring(b from 2 for 2), b || '\x00'::bytea from bins order by id;
select id from bins where position('\xbe'::bytea in b) > 0;
select string_agg(encode(b, 'base64'), ',' order by id) from bins;
