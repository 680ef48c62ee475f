-- A FOREIGN KEY's ON DELETE / ON UPDATE SET DEFAULT writes the referencing
-- columns' DEFAULTs (NULL without one), as PostgreSQL's; a default no
-- referenced row holds fails the statement with 23503. RockLake wrote NULL
-- whatever the default before.
\i 00_schema.sql
create table p (id int primary key);
insert into p values (0),(1),(2),(3);
create table c (id int, pid int default 0 references p on delete set default on update set default, q text);
insert into c values (1, 1, default), (2, 2, null), (3, 3, null);
delete from p where id = 1;
update p set id = 20 where id = 2;
select * from c order by id;
alter table c alter column pid set default 9;
delete from p where id = 3;
select * from c order by id;
alter table c alter column pid drop default;
delete from p where id = 20;
select * from c order by id;
