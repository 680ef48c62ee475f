"""A lake's journal damaged on disk, through the real server
(docs/operations.md, "journal ... is damaged").

A writer on a file:// store acknowledges a commit once its record is in the
lake's journal (STORE/NAME/journal/journal-<id>.log) and synced; SlateDB makes
it durable about 10 ms later. So after a SIGKILL right after a run of
autocommit INSERTs the newest commits exist only in the journal. These tests
find those records by parsing the journal's framing (src/kv/journal.h: a
4096-byte header "RLJF" + u32 version 2, then records "RLJ1" | u32 payload
length | u8 type | u64 seq | u32 CRC-32 of length, type, seq and payload |
4 more header bytes | payload, integers big-endian) and damage them:

- one flipped byte in a record that valid records follow: the lake refuses
  to open, naming the file and offset; `--journal-salvage` serves exactly the
  commits before the damaged record, read-only, and sets the file aside as
  *.damaged; the next normal start writes again;
- the last record cut in the middle (a torn write): a normal start keeps
  every commit before it.

Which commits SlateDB already holds (and so are not in the journal's replay)
is read with `rocklake inspect`, which opens the store as a reader and never
replays the journal.
"""
import re
import shutil
import struct
import subprocess
import time
import zlib

import psycopg
import pytest

from conftest import BIN

DATA_START = 4096
HEADER_LEN = 25  # src/kv/journal.c HEADER_LEN: the fields below, then 4 bytes no CRC covers
REC_DATA = 1
TAG = "jdmg-%05d"
TAG_RE = re.compile(rb"jdmg-(\d{5})")


def journal_records(path):
    """Every whole record of a v2 journal, in file order, each checked against
    its CRC: dicts with off, end, type, seq, payload_off, payload."""
    data = path.read_bytes()
    assert data[:4] == b"RLJF" and struct.unpack(">I", data[4:8])[0] == 2, path
    out, off = [], DATA_START
    while data[off:off + 4] == b"RLJ1":
        length, typ, seq, crc = struct.unpack(">IBQI", data[off + 4:off + 21])
        payload = data[off + HEADER_LEN:off + HEADER_LEN + length]
        if len(payload) < length:
            break
        assert zlib.crc32(data[off + 4:off + 17] + payload) == crc, f"record at {off}"
        out.append({"off": off, "end": off + HEADER_LEN + length, "type": typ, "seq": seq,
                    "payload_off": off + HEADER_LEN, "payload": payload})
        off += HEADER_LEN + length
    return out


def durable_ids(lake_dir):
    """Ids of the rows SlateDB holds (not counting the journal)."""
    out = subprocess.run([BIN, "inspect", str(lake_dir)], capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stderr
    return {int(m) for m in re.findall(r"tag='jdmg-(\d{5})'", out.stdout)}


def ids_of(conn):
    rows = conn.execute("SELECT id, tag FROM jd ORDER BY id").fetchall()
    assert all(tag == TAG % i for i, tag in rows), rows
    return [i for i, _ in rows]


def flip_payload_byte(jfile, record):
    """Invert one byte in the middle of a journal record's payload: its
    checksum no longer holds."""
    at = record["payload_off"] + len(record["payload"]) // 2
    with open(jfile, "r+b") as f:
        f.seek(at)
        byte = f.read(1)
        f.seek(at)
        f.write(bytes([byte[0] ^ 0xFF]))


def commit_then_kill(start_server, tmp_path, want_journal_only, n=40, attempts=8):
    """Commit rows 0..n-1, one autocommit INSERT each, and SIGKILL the server
    right after the last acknowledgement, until at least `want_journal_only`
    of those commits are held only by the journal (SlateDB flushes every
    10 ms, so a kill can land just after a flush; each try uses a new store).
    Returns (store, journal file, all its records, the commits' records in
    order, the index of the first commit SlateDB does not hold)."""
    for attempt in range(attempts):
        store = tmp_path / f"store{attempt}"
        s = start_server(store_root=store)
        with psycopg.connect(s.dsn(), autocommit=True) as conn:
            conn.execute("CREATE TABLE jd (id bigint, tag text)")
            for i in range(n):
                conn.execute("INSERT INTO jd VALUES (%s, %s)", (i, TAG % i))
        s.crash()
        files = sorted((store / "lake" / "journal").glob("journal-*.log"))
        assert len(files) == 1, files
        # every commit is one DATA record holding its row, in commit order
        records = journal_records(files[0])
        commits = [r for r in records if TAG_RE.search(r["payload"])]
        assert all(r["type"] == REC_DATA for r in commits)
        assert [int(TAG_RE.search(r["payload"]).group(1)) for r in commits] == list(range(n))
        assert all(a["seq"] < b["seq"] for a, b in zip(commits, commits[1:]))
        durable = durable_ids(store / "lake")
        first_journal_only = len(durable)
        assert durable == set(range(first_journal_only))  # SlateDB holds a prefix
        if n - first_journal_only >= want_journal_only:
            return store, files[0], records, commits, first_journal_only
    pytest.fail(f"no kill in {attempts} tries left {want_journal_only} commits only in the journal")


def test_damaged_middle_record_refused_then_salvaged_read_only(start_server, tmp_path):
    n = 40
    store, jfile, records, commits, first_only = commit_then_kill(start_server, tmp_path, 3, n)
    lake = store / "lake"
    # damage a journal-only record with journal-only records before and after it
    bad_id = first_only + (n - first_only) // 2
    bad = commits[bad_id]
    assert first_only < bad_id < n - 1
    flip_payload_byte(jfile, bad)
    records_before = jfile.read_bytes()[DATA_START:]

    # (1) a normal start refuses the lake, naming the file, the offset and the way out
    s = start_server(store_root=store)
    for _ in range(2):  # and keeps refusing it: nothing was half-done
        with pytest.raises(psycopg.OperationalError) as exc:
            psycopg.connect(s.dsn(), autocommit=True)
        msg = str(exc.value)
        assert str(jfile) in msg and f"record at offset {bad['off']} " in msg, msg
        assert f"valid record follows at offset {commits[bad_id + 1]['off']}" in msg, msg
        assert "--journal-salvage" in msg, msg
    # and the server's log says the same (docs/operations.md: database_open_failed)
    refused = [ln for ln in s.log_text().splitlines() if "database_open_failed" in ln]
    assert refused and str(jfile) in refused[0] and f"offset {bad['off']} " in refused[0], refused
    assert s.stop() == 0
    assert jfile.exists() and jfile.read_bytes()[DATA_START:] == records_before

    # (2) check checks SlateDB, which lacks the journal-only commits: it
    # refuses, naming them, and only reads the journal
    out = subprocess.run([BIN, "check", str(lake)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 1 and "records the store has not applied" in out.stderr, \
        out.stdout + out.stderr
    assert jfile.exists() and jfile.read_bytes()[DATA_START:] == records_before

    # (3) --journal-salvage: every commit before the damaged record, none after,
    # read-only; the file is set aside as *.damaged
    s = start_server("--journal-salvage", store_root=store)
    with psycopg.connect(s.dsn(), autocommit=True) as conn:
        assert ids_of(conn) == list(range(bad_id))
        with pytest.raises(psycopg.Error) as exc:
            conn.execute("INSERT INTO jd VALUES (%s, %s)", (1000, TAG % 1000))
        assert exc.value.sqlstate == "25006"
        assert ids_of(conn) == list(range(bad_id))
    log = s.log_text()
    assert "store_integrity" in log and f"damaged record at offset {bad['off']}" in log, log
    # it counts the DATA records it replayed: the journal-only commits before
    # the damaged one, and (when SlateDB held none of the rows) maybe the
    # records of the CREATE TABLE and the catalog's creation before them
    replayed = int(re.search(r"replayed the (\d+) commit records", log).group(1))
    since = commits[first_only - 1]["end"] if first_only else DATA_START
    at_most = sum(1 for r in records
                  if r["type"] == REC_DATA and since <= r["off"] < bad["off"])
    assert bad_id - first_only <= replayed <= at_most, (replayed, bad_id, first_only, log)
    assert s.stop() == 0
    aside = jfile.with_name(jfile.name + ".damaged")
    assert not jfile.exists() and aside.exists()
    assert aside.read_bytes()[DATA_START:] == records_before

    # (4) a normal start writes again, on top of the salvaged commits
    s = start_server(store_root=store)
    with psycopg.connect(s.dsn(), autocommit=True) as conn:
        assert ids_of(conn) == list(range(bad_id))
        conn.execute("INSERT INTO jd VALUES (%s, %s)", (1000, TAG % 1000))
        assert ids_of(conn) == list(range(bad_id)) + [1000]
    assert s.stop() == 0
    assert aside.exists()
    assert len(list((lake / "journal").glob("journal-*.log"))) == 1
    s = start_server(store_root=store)
    with psycopg.connect(s.dsn(), autocommit=True) as conn:
        assert ids_of(conn) == list(range(bad_id)) + [1000]


def test_torn_last_record_dropped_rest_replayed(start_server, tmp_path):
    n = 40
    store, jfile, _, commits, first_only = commit_then_kill(start_server, tmp_path, 2, n)
    last = commits[-1]
    # the file cut in the middle of the last record, as a write that never
    # finished (and so was never synced or acknowledged) leaves it
    with open(jfile, "r+b") as f:
        f.truncate(last["payload_off"] + len(last["payload"]) // 2)
    assert [r["off"] for r in journal_records(jfile)][-1] == commits[-2]["off"]

    s = start_server(store_root=store)
    with psycopg.connect(s.dsn(), autocommit=True) as conn:
        # every commit before the torn one, including the journal-only ones
        assert ids_of(conn) == list(range(n - 1))
        conn.execute("INSERT INTO jd VALUES (%s, %s)", (1000, TAG % 1000))
        assert ids_of(conn) == list(range(n - 1)) + [1000]
    assert "store_integrity" not in s.log_text()
    assert s.stop() == 0
    assert not jfile.exists()  # replayed, so the next writer removed it
    assert not list((store / "lake" / "journal").glob("*.damaged"))


@pytest.mark.parametrize("damage", ["missing", "header"])
def test_unreadable_journal_file_says_what_to_do(start_server, tmp_path, damage):
    """A journal file the store names that is missing, or whose header is
    gone: the refusal names the file, docs/operations.md's section and
    `--journal-salvage`, which serves what SlateDB holds, read-only, and
    gives the file's commits up (docs/operations.md)."""
    store, jfile, _, _, first_only = commit_then_kill(start_server, tmp_path, 1)
    if damage == "missing":
        jfile.unlink()
        section = '"Integrity: cannot open journal ..."'
        what = f"cannot open journal {jfile}, which the store names as holding its latest commits"
    else:
        with open(jfile, "r+b") as f:
            f.write(b"XXXX")
        section = '"Integrity: journal ... is damaged"'
        what = f"journal {jfile} does not start with a journal header"
    s = start_server(store_root=store)
    with pytest.raises(psycopg.OperationalError) as exc:
        psycopg.connect(s.dsn(), autocommit=True)
    msg = str(exc.value)
    assert what in msg, msg
    assert "restore the file from a backup" in msg and "--journal-salvage" in msg, msg
    assert f"docs/operations.md, {section}" in msg, msg
    assert s.stop() == 0

    s = start_server("--journal-salvage", store_root=store)
    with psycopg.connect(s.dsn(), autocommit=True) as conn:
        if first_only:  # else SlateDB may not hold the table yet
            assert ids_of(conn) == list(range(first_only))
        with pytest.raises(psycopg.Error) as exc:
            conn.execute("INSERT INTO jd VALUES (%s, %s)", (1000, TAG % 1000))
        assert exc.value.sqlstate == "25006"
    log = s.log_text()
    assert "store_integrity" in log and "journal salvage" in log, log
    assert s.stop() == 0
    if damage == "header":
        assert not jfile.exists() and jfile.with_name(jfile.name + ".damaged").exists()
    s = start_server(store_root=store)  # a normal start writes again
    with psycopg.connect(s.dsn(), autocommit=True) as conn:
        conn.execute("CREATE TABLE IF NOT EXISTS jd (id bigint, tag text)")
        conn.execute("INSERT INTO jd VALUES (%s, %s)", (1000, TAG % 1000))


def test_salvage_with_rebuild_digest_rebuilds_after_the_salvaged_records(start_server, tmp_path):
    """Both --journal-salvage and --rebuild-digest through the server: the
    salvaging open serves the commits before the damaged record,
    read-only, and the next normal start (which checks the digest) and
    `rocklake check` accept the store. (The digest agrees here, so nothing
    is rebuilt; tests/test_kv.c test_salvage_then_rebuild_digest makes it
    disagree.)"""
    n = 40
    store, jfile, _, commits, first_only = commit_then_kill(start_server, tmp_path, 3, n)
    lake = store / "lake"
    bad_id = first_only + (n - first_only) // 2
    bad = commits[bad_id]
    flip_payload_byte(jfile, bad)

    s = start_server("--journal-salvage", "--rebuild-digest", store_root=store)
    with psycopg.connect(s.dsn(), autocommit=True) as conn:
        assert ids_of(conn) == list(range(bad_id))
        with pytest.raises(psycopg.Error) as exc:
            conn.execute("INSERT INTO jd VALUES (%s, %s)", (1000, TAG % 1000))
        assert exc.value.sqlstate == "25006"
    log = s.log_text()
    assert f"damaged record at offset {bad['off']}" in log, log
    assert s.stop() == 0

    s = start_server(store_root=store)  # checks the digest against the salvaged store
    with psycopg.connect(s.dsn(), autocommit=True) as conn:
        assert ids_of(conn) == list(range(bad_id))
        conn.execute("INSERT INTO jd VALUES (%s, %s)", (1000, TAG % 1000))
    assert "integrity digest" not in s.log_text(), s.log_text()
    assert s.stop() == 0
    out = subprocess.run([BIN, "check", str(lake)], capture_output=True, text=True, timeout=60)
    assert out.returncode == 0, out.stdout + out.stderr


def remove_tree_under_writer(path):
    """`rm -rf path` while a live SlateDB may still put files into it
    (its WAL flush and compaction run in the background): a file that lands
    after its directory was emptied makes one pass fail with ENOTEMPTY, as
    it would make `rm -rf` fail, so pass again until one pass removes the
    whole tree (seen in CI on the first version of the test below)."""
    deadline = time.monotonic() + 10
    while path.exists():
        try:
            shutil.rmtree(path)
            return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.01)


@pytest.mark.parametrize("how", ["removed", "moved"])
def test_store_directory_gone_under_the_server_refuses_commits(start_server, tmp_path, how):
    """`rm -rf` of a running server's store, or moving it away and making a
    new one at its path: the lake's journal is no longer at its path, so a
    commit there could never be recovered. Every later commit is refused
    with 58030, naming the journal and docs/operations.md's section; it used
    to be acknowledged and lost.

    SlateDB's files go through a descriptor of the store directory
    (rust/src/lib.rs, DirRootedStore), not its name: its flushes, compaction
    and close write nothing into the new directory at the old path, even on
    a normal stop (they used to write a manifest there by name), a moved
    store gets them where it went and opens with every commit acknowledged
    before, and in a removed one they fail, loudly."""
    store = tmp_path / "store"
    s = start_server(store_root=store)
    with psycopg.connect(s.dsn(), autocommit=True) as conn:
        conn.execute("CREATE TABLE jd (id bigint, tag text)")
        for i in range(5):
            conn.execute("INSERT INTO jd VALUES (%s, %s)", (i, TAG % i))
        jfile = next((store / "lake" / "journal").glob("journal-*.log"))
        moved = tmp_path / "moved"
        if how == "removed":
            remove_tree_under_writer(store)
        else:
            store.rename(moved)
        (store / "lake").mkdir(parents=True)
        for i in (5, 6):
            with pytest.raises(psycopg.Error) as exc:
                conn.execute("INSERT INTO jd VALUES (%s, %s)", (i, TAG % i))
            assert exc.value.sqlstate == "58030", exc.value
            msg = str(exc.value)
            assert f"journal {jfile} is no longer at that path" in msg, msg
            assert ('docs/operations.md, "Integrity: journal ... is no longer at that path"'
                    in msg), msg
        assert ids_of(conn) == list(range(5))  # nothing refused shows up
        # one more flush interval and compaction poll for SlateDB to write
        # whatever it would write by name
        time.sleep(1.5)
        # said once at level error, and not healed by a reopen: whatever is
        # at the path now may lack acknowledged commits
        failed = [l for l in s.log_text().splitlines()
                  if " error database_failed database=lake " in l]
        assert len(failed) == 1 and "stop the server and check the store" in failed[0], \
            s.log_text()
        assert "database_reopen" not in s.log_text(), s.log_text()
    s.crashed = how == "removed"  # the teardown accepts an exit 1 (below)
    code = s.stop()
    # the new directory holds only what was made in it: the old server's
    # SlateDB never wrote there, not even at its close
    assert [str(p.relative_to(store)) for p in store.rglob("*")] == ["lake"], \
        sorted(str(p.relative_to(store)) for p in store.rglob("*"))
    if how == "removed":
        # its close fails loudly if SlateDB still had something to write
        # (the directory it would write into is gone), else it is clean
        assert code in (0, 1), s.log_text()
        log = s.log_text()
        assert (code == 1) == ("database_close_failed database=lake" in log), log
        # the failure names the store by its path, not the descriptor
        assert "/proc/self/fd/" not in log, log
        if code == 1:
            assert f"in the store directory this server opened at {store / 'lake'}" in log, log
        return
    assert code == 0, s.log_text()
    out = subprocess.run([BIN, "check", str(moved / "lake")], capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stdout + out.stderr
    s = start_server(store_root=moved)
    with psycopg.connect(s.dsn(), autocommit=True) as conn:
        assert ids_of(conn) == list(range(5))
