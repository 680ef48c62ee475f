"""The disk's floor under one durable commit, for docs/benchmarks.md.

    python3 bench/fsync_floor.py [DIR]          (default: a temporary dir under /tmp)
    python3 bench/fsync_floor.py --journal [DIR]

Times, on the disk holding DIR, the two ways a commit is made durable:
  - SlateDB's WAL on file:// (object_store's LocalFileSystem with fsync, as
    rust/src/lib.rs opens it): each group commit is a new object written
    with put-if-absent, i.e. create a staging file, write, fsync, hard-link
    it to its name, fsync the directory, unlink the staging file;
  - PostgreSQL's WAL: pwrite into a preallocated segment, then fdatasync.
Prints the median of each over 300 rounds of a 4 KiB record. Not a
benchmark of RockLake: it shows how much of a commit is the disk.

--journal compares, for a 600-byte record (one DuckLake commit), the two
ways a journal can make a commit durable: an O_APPEND write + fdatasync,
which also writes the file's new size (the inode, or the file system's journal)
(RockLake's journal before round 6 of docs/benchmarks.md), against an
overwrite of zero-filled space + fdatasync (RockLake's journal since, and
PostgreSQL's WAL segments), each alone and beside a thread that writes
SlateDB-style WAL objects every 10 ms, as a RockLake writer's SlateDB does.
"""
import os
import statistics
import sys
import tempfile
import threading
import time

ROUNDS = 300
RECORD = b'x' * 4096


def slatedb_style(d):
    times = []
    for i in range(ROUNDS):
        final = os.path.join(d, f'{i:020d}.sst')
        staging = final + '#1'
        t0 = time.perf_counter()
        fd = os.open(staging, os.O_RDWR | os.O_CREAT | os.O_EXCL, 0o644)
        os.write(fd, RECORD)
        os.fsync(fd)
        os.close(fd)
        os.link(staging, final)
        dfd = os.open(d, os.O_RDONLY)
        os.fsync(dfd)
        os.close(dfd)
        os.unlink(staging)
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def postgres_style(d):
    path = os.path.join(d, 'segment')
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    os.posix_fallocate(fd, 0, ROUNDS * len(RECORD) + 8192)
    os.fsync(fd)
    times = []
    for i in range(ROUNDS):
        t0 = time.perf_counter()
        os.pwrite(fd, RECORD, i * len(RECORD))
        os.fdatasync(fd)
        times.append(time.perf_counter() - t0)
    os.close(fd)
    return statistics.median(times)


def journal_style(d, preallocated, n=2000, record=b'j' * 600):
    path = os.path.join(d, 'journal-' + ('zeroed' if preallocated else 'append'))
    if preallocated:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        os.write(fd, b'\0' * (n * len(record) + 8192))
        os.fsync(fd)
    else:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC | os.O_APPEND, 0o600)
    times = []
    for i in range(n):
        t0 = time.perf_counter()
        if preallocated:
            os.pwrite(fd, record, i * len(record))
        else:
            os.write(fd, record)
        os.fdatasync(fd)
        times.append(time.perf_counter() - t0)
    os.close(fd)
    os.unlink(path)
    return statistics.median(times), sorted(times)[int(n * 0.9)]


def background_wal(d, stop):
    """SlateDB's WAL on file:// while a writer commits: a new object every 10 ms."""
    i = 0
    while not stop.is_set():
        final = os.path.join(d, f'{i % 100:020d}.sst')
        fd = os.open(final, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.write(fd, RECORD)
        os.fsync(fd)
        os.close(fd)
        dfd = os.open(d, os.O_RDONLY)
        os.fsync(dfd)
        os.close(dfd)
        i += 1
        time.sleep(0.01)


def journal_main(base):
    with tempfile.TemporaryDirectory(prefix='fsync-floor-', dir=base) as d:
        wal = os.path.join(d, 'wal')
        os.mkdir(wal)
        for busy in (False, True):
            stop = threading.Event()
            t = threading.Thread(target=background_wal, args=(wal, stop)) if busy else None
            if t:
                t.start()
            try:
                for pre in (False, True):
                    med, p90 = journal_style(d, pre)
                    print(f'{"zero-filled, pwrite" if pre else "O_APPEND write     "} + fdatasync, '
                          f'{"beside SlateDB-style WAL writes" if busy else "alone              "}: '
                          f'median {med * 1e3:.3f} ms, p90 {p90 * 1e3:.3f} ms')
            finally:
                if t:
                    stop.set()
                    t.join()


def main():
    args = sys.argv[1:]
    if args and args[0] == '--journal':
        journal_main(args[1] if len(args) > 1 else None)
        return
    base = args[0] if args else None
    with tempfile.TemporaryDirectory(prefix='fsync-floor-', dir=base) as d:
        wal = os.path.join(d, 'wal')
        os.mkdir(wal)
        s = slatedb_style(wal)
        p = postgres_style(d)
    print(f'new WAL object per commit (create, write, fsync, link, dir fsync): {s * 1e3:.2f} ms')
    print(f'append to a preallocated segment + fdatasync (PostgreSQL):        {p * 1e3:.2f} ms')


if __name__ == '__main__':
    main()
