"""Hostile-client regressions of issue #16: inputs that used to crash the
server, pin a core, corrupt stored text or break the protocol. Each answer
is PostgreSQL 15's (SQLSTATE and message), checked against a real one where
PostgreSQL has one."""
import socket
import struct
import threading
import time

import psycopg
import pytest

from conftest import Raw, error_fields, msg, startup_packet

STACK_HINT = ('Increase the configuration parameter "max_stack_depth" (currently 2048kB), '
              "after ensuring the platform's stack depth limit is adequate.")


def plus_chain(n):
    return "SELECT " + "+".join(["1"] * n)


def nested_subqueries(n):
    return "SELECT " + "(SELECT " * n + "1" + ")" * n


def nested_case(n):
    return "SELECT " + "CASE WHEN true THEN " * n + "1" + " END" * n


def nested_parens(n):
    return "SELECT " + "(" * n + "1" + ")" * n


# ------------------------------------------------------- 1: stack depth

@pytest.mark.parametrize("query, answer", [
    (plus_chain(550), 550),          # 1.4 KB: used to overflow a 1 MiB stack
    (nested_subqueries(200), 1),
    (nested_case(500), 1),
    (nested_parens(1000), 1),
    ("SELECT " + "NOT " * 1000 + "true", True),
])
def test_deep_queries_that_postgresql_answers(server, query, answer):
    with psycopg.connect(server.dsn(), autocommit=True) as c:
        assert c.execute(query).fetchone() == (answer,)


@pytest.mark.parametrize("query", [
    plus_chain(20000),
    nested_subqueries(3000),
    "SELECT " + "abs(" * 6000 + "1" + ")" * 6000,
    "SELECT " + "1::int" + "::int" * 6000,
])
def test_too_deep_is_54001_and_the_server_lives(server, query):
    """PostgreSQL 15: 54001 stack depth limit exceeded, with its HINT."""
    with psycopg.connect(server.dsn(), autocommit=True) as c:
        with pytest.raises(psycopg.errors.StatementTooComplex) as e:
            c.execute(query)
        assert e.value.sqlstate == "54001"
        assert e.value.diag.message_primary == "stack depth limit exceeded"
        assert e.value.diag.message_hint == STACK_HINT
        assert c.execute("SELECT 1").fetchone() == (1,)
    assert server.proc.poll() is None


def test_too_deep_through_extended_protocol(server):
    with psycopg.connect(server.dsn(), autocommit=True) as c:
        with pytest.raises(psycopg.errors.StatementTooComplex):
            c.execute(plus_chain(20000) + " + %s", (1,), prepare=True)
        assert c.execute("SELECT %s::int", (7,)).fetchone() == (7,)


def test_deep_queries_in_parallel(server):
    """Every session thread has the stack for it, not just the first."""
    errors = []

    def run():
        try:
            with psycopg.connect(server.dsn(), autocommit=True) as c:
                for _ in range(3):
                    assert c.execute(plus_chain(2000)).fetchone() == (2000,)
                    with pytest.raises(psycopg.errors.StatementTooComplex):
                        c.execute(plus_chain(30000))
        except Exception as e:  # noqa: BLE001 - reported below
            errors.append(e)

    threads = [threading.Thread(target=run) for _ in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors, errors
    assert server.proc.poll() is None


# ---------------------------------------------- 2: nested subquery time

def test_nested_subqueries_are_linear(server):
    """25 levels used to take minutes (each level ran twice: to type the
    target list, then to project); 40 levels answer in well under a second."""
    with psycopg.connect(server.dsn(), autocommit=True) as c:
        started = time.monotonic()
        assert c.execute(nested_subqueries(40)).fetchone() == (1,)
        assert time.monotonic() - started < 0.5
        # correlated and typed: the type found while typing is the one used
        row = c.execute("SELECT (SELECT (SELECT x::bigint + 1)) FROM (VALUES (1), (2)) v(x) "
                        "ORDER BY 1").fetchall()
        assert row == [(2,), (3,)]
        assert c.execute("SELECT (SELECT 'a'::varchar(3))").description[0].type_code == 1043
