"""The disk's floor under one durable commit, for docs/benchmarks.md.

    python3 bench/fsync_floor.py [DIR]      (default: a temporary dir under /tmp)

Times, on the disk holding DIR, the two ways a commit is made durable:
  - SlateDB's WAL on file:// (object_store's LocalFileSystem with fsync, as
    rust/src/lib.rs opens it): each group commit is a new object written
    with put-if-absent, i.e. create a staging file, write, fsync, hard-link
    it to its name, fsync the directory, unlink the staging file;
  - PostgreSQL's WAL: pwrite into a preallocated segment, then fdatasync.
Prints the median of each over 300 rounds of a 4 KiB record. Not a
benchmark of RockLake: it shows how much of a commit is the disk.
"""
import os
import statistics
import sys
import tempfile
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


def main():
    base = sys.argv[1] if len(sys.argv) > 1 else None
    with tempfile.TemporaryDirectory(prefix='fsync-floor-', dir=base) as d:
        wal = os.path.join(d, 'wal')
        os.mkdir(wal)
        s = slatedb_style(wal)
        p = postgres_style(d)
    print(f'new WAL object per commit (create, write, fsync, link, dir fsync): {s * 1e3:.2f} ms')
    print(f'append to a preallocated segment + fdatasync (PostgreSQL):        {p * 1e3:.2f} ms')


if __name__ == '__main__':
    main()
