"""Catalog discovery through real DuckDB while RockLake keeps discovery
answers (--result-cache-mb, on by default): every ATTACH sends the same
pg_catalog batch, and RockLake may answer it with bytes it kept. Whatever
another connection did in between (CREATE, DROP, ALTER, a rename, a second
metadata schema) must show after a re-attach exactly as on PostgreSQL.
"""


def test_reattach_sees_every_change_of_another_connection(make_pair):
    p = make_pair()
    p.attach("lake", conn=0)
    p.attach("lake", conn=1)
    p.ok("CREATE TABLE lake.a (x INTEGER, y VARCHAR)", conn=0)
    p.ok("INSERT INTO lake.a VALUES (1, 'one'), (2, 'two')", conn=0)
    p.reattach(conns=(1,))
    assert p.ok("SELECT * FROM lake.a ORDER BY x", conn=1, ordered=True) == [(1, "one"), (2, "two")]
    steps = [
        "CREATE TABLE lake.b (k BIGINT)",
        "INSERT INTO lake.b VALUES (7)",
        "ALTER TABLE lake.a ADD COLUMN z DOUBLE",
        "INSERT INTO lake.a VALUES (3, 'three', 3.5)",
        "ALTER TABLE lake.b RENAME TO c",
        "DROP TABLE lake.c",
        "CREATE TABLE lake.d AS SELECT range AS r FROM range(5)",
    ]
    for step in steps:
        p.ok(step, conn=0)
        # conn 1's re-attach discovers the catalog anew: twice, so that the
        # second is answered from what the first kept
        for _ in range(2):
            p.reattach(conns=(1,))
            p.ok("SHOW ALL TABLES", conn=1)
            p.ok("SELECT table_name, column_name, data_type FROM information_schema.columns "
                 "WHERE table_catalog = 'lake' ORDER BY ALL", conn=1, ordered=True)
    assert p.ok("SELECT * FROM lake.a ORDER BY x", conn=1, ordered=True)[-1] == (3, "three", 3.5)
    p.same("SELECT * FROM lake.c", conn=1)  # dropped: the same error on both
    assert p.ok("SELECT sum(r) FROM lake.d", conn=1) == [(10,)]


def test_second_metadata_schema_appears_on_reattach(make_pair):
    p = make_pair()
    p.attach("l1", "METADATA_SCHEMA 'metadata_s1'", conn=0)
    p.ok("CREATE TABLE l1.a (x INTEGER)", conn=0)
    p.attach("l1", "METADATA_SCHEMA 'metadata_s1'", conn=1)
    p.ok("SELECT count(*) FROM l1.a", conn=1)
    # a second lake in the same database, made by conn 0 only
    p.attach("l2", "METADATA_SCHEMA 'metadata_s2'", conn=0)
    p.ok("CREATE TABLE l2.b (y VARCHAR)", conn=0)
    p.ok("INSERT INTO l2.b VALUES ('seen')", conn=0)
    for lake in p.sides:
        c = lake.conn(1)
        c.execute(lake.attach_sql("l2", "METADATA_SCHEMA 'metadata_s2'"))
    assert p.ok("SELECT * FROM l2.b", conn=1) == [("seen",)]
    p.reattach("l1", "METADATA_SCHEMA 'metadata_s1'", conns=(1,))
    p.ok("SHOW ALL TABLES", conn=1)
