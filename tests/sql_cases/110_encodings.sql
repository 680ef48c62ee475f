-- pg_char_to_encoding (psql's \dO calls it; RockLake had no such function:
-- 42883) and pg_encoding_to_char: every encoding by number both ways, and
-- the spellings PostgreSQL's lookup accepts (any case, any punctuation,
-- its aliases) or does not (-1)
SELECT i, pg_encoding_to_char(i), pg_char_to_encoding(pg_encoding_to_char(i)) FROM generate_series(-1, 43) i ORDER BY 1;
SELECT n, pg_char_to_encoding(n) FROM unnest(ARRAY['UTF8', 'utf-8', 'utf_8', 'Unicode', 'LATIN1', 'iso-8859-1', 'ISO_8859_5', 'iso8859-15', 'windows-1252', 'win1252', 'WIN', 'SJIS', 'Shift_JIS', 'shiftjis2004', 'mskanji', 'koi8', 'KOI8-R', 'koi8u', 'nope', '', 'big5', 'cp936', 'cp950', 'EUC-JIS-2004', 'euc_jp', 'mule_internal', 'sql-ascii', 'SQL_ASCII', 'tcvn5712', 'tcvn', 'vscii', 'alt', 'abc', 'latin10', 'gb18030', 'johab', 'uhc', 'win949', 'windows874', 'cp866', 'iso88599', 'iso885913', 'ISO-8859-16', 'utf16', 'latin11']) n ORDER BY 1;
SELECT pg_char_to_encoding(NULL), pg_typeof(pg_char_to_encoding('x'));
SELECT p.proname, p.provolatile, p.proisstrict, p.prorettype::regtype, p.proargtypes FROM pg_proc p WHERE p.proname IN ('pg_char_to_encoding', 'pg_encoding_to_char') ORDER BY 1;
SELECT n, pg_char_to_encoding(n) FROM unnest(ARRAY['abc', 'alt', 'cp1250', 'cp1252', 'cp874', 'cp932', 'cp949', 'iso88591', 'iso885910', 'iso885913', 'iso885914', 'iso885915', 'iso885916', 'iso88592', 'iso88593', 'iso88594', 'iso88599', 'koi8', 'mskanji', 'shiftjis', 'tcvn', 'tcvn5712', 'unicode', 'vscii', 'win', 'win932', 'win936', 'win949', 'win950', 'windows1250', 'windows1251', 'windows1252', 'windows1253', 'windows1254', 'windows1255', 'windows1256', 'windows1257', 'windows1258', 'windows866', 'windows874', 'windows932', 'windows936', 'windows949', 'windows950']) n ORDER BY 1;
