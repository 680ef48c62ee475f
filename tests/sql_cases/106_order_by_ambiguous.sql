-- ORDER BY a name that two output columns carry: 42702 "ORDER BY \"x\" is
-- ambiguous" when they compute different things (RockLake took the first
-- before), fine when they are the same expression or column (also a `*`
-- column and a reference to it).
select oid, oid::regtype::text from pg_type order by oid limit 2;
select 1 as a, 2 as a order by a;
select 1 as a, 1 as a order by a;
select typname as a, typname as a from pg_type order by a limit 1;
select typname, typname from pg_type order by typname limit 1;
select t.typname, u.typname from pg_type t, pg_type u where t.oid = 16 and u.oid = 17 order by typname;
select * , typname from (select typname from pg_type where oid = 16) s order by typname;
select a, a from (values (1), (2)) v(a) order by a desc;
select x.a, y.a from (values (1)) x(a), (values (2)) y(a) order by a;
select 1 as a union select 2 order by a;
select *, 1 as typname from (select typname from pg_type where oid = 16) s order by typname;
select * from (values (1)) x(a), (values (2)) y(a) order by a;
select *, s.typname from (select typname from pg_type where oid = 16) s order by typname;
select typname, 'x' || typname as typname from pg_type order by typname limit 1;
select oid, format_type(oid, null), oid::regtype::text from pg_type order by oid;
