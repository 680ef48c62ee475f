-- regproc / regprocedure name the functions the captured catalogs name
-- though pg_proc lists RockLake's (psql's \dL+ printed the language
-- handlers as numbers): pg_language's handlers, pg_cast's functions,
-- the text search parsers' and templates' functions
SELECT lanname, lanplcallfoid::regprocedure, lanvalidator::regprocedure, laninline::regprocedure, lanplcallfoid::regproc FROM pg_language ORDER BY lanname;
SELECT castfunc::regprocedure, castfunc::regproc FROM pg_cast WHERE castfunc <> 0 ORDER BY castsource, casttarget LIMIT 12;
SELECT prsname, prsstart::regprocedure, prslextype::regprocedure FROM pg_ts_parser;
SELECT tmplname, tmplinit::regprocedure, tmpllexize::regprocedure FROM pg_ts_template ORDER BY 1;
