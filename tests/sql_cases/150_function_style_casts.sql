-- A call of a type's name with one argument that no function takes is
-- PostgreSQL's function-style cast (func_get_detail's coercion): of a
-- value of that type already (int4(5), text('a'::text), float8(1.5)) or
-- through text on one side (int4('12'::text), text(5), varchar(x),
-- date('2024-01-02'::text)); a function of the name taking the argument
-- wins (text(true) is booltext); another type is still 42883. These were
-- 42883 before (sqlsmith's pg_catalog.text(NULL::bpchar)).
select text('abc'::text), pg_typeof(text('abc'::text));
select int4(5), int8(5::int8), float8(1.5::float8), pg_typeof(int4(5));
select varchar('abc'::text), pg_typeof(varchar('abc'::text));
select pg_catalog.text(null::bpchar), text('ab'::bpchar);
select text(true), text('x'::name), text('a'::"char");
select int4('12'::text), pg_typeof(int4('12'::text));
select int4('x'::text);
select numeric(5), numeric('1.50'::text);
select date('2024-01-02'::text), date(now()) is not null;
select text(5), text(1.5::numeric), pg_typeof(text(5));
select bool('t'::text), bool(1);
select int4(true);
select int4(now());
select uuid('a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::text);
select jsonb('{"a":1}'::text), json('[1]'::text);
