"""The real-DuckDB benchmark's writer verdict (bench/duckdb_bench.py).

`make bench` is not part of the test run, so this checks here, on recorded
numbers, what its writer table and the 8-writer target line say: one
writer run's rate hangs on how many races its writers happen to lose, so
each catalog's rate is the median of its repetitions, the verdict compares
those medians, and the line shows every run so a reader sees the spread.
"""
import sys

from conftest import ROOT

sys.path.insert(0, str(ROOT / "bench"))
import duckdb_bench  # noqa: E402


class _Args:
    quick = False
    rounds = 0
    writers = "1,8"
    writer_repeats = 3
    rocklake_arg = []
    skip = "attach,profile"
    workdir = None


def _bench(tmp_path, runs):
    """A Bench whose recorder holds `runs`: {(kind, n): [(rate, lost), ...]}."""
    args = _Args()
    args.workdir = str(tmp_path)
    b = duckdb_bench.Bench(args)
    for (kind, n), rs in runs.items():
        for rate, lost in rs:
            b.rec.add(kind, f"writers_{n}", rate)
            b.rec.add(kind, f"writers_{n}_lost", lost)
            b.rec.add(kind, f"writers_{n}_failed", 0)
            b.rec.samples.setdefault((kind, f"writers_{n}_latencies"), []).extend(
                [0.01, 0.02, 0.5])
    return b


def _line(lines, prefix):
    hits = [t for t in lines if prefix in t]
    assert len(hits) == 1, lines
    return hits[0]


def test_options_select_writer_counts_and_repeats(tmp_path):
    b = _bench(tmp_path, {})
    assert b.c["writers"] == [1, 8]
    assert b.c["writer_repeats"] == 3
    assert b.c["rounds"] == 0   # --rounds 0 means none, not the default


def test_writer_rate_is_the_median_run(tmp_path):
    b = _bench(tmp_path, {
        ("rocklake", 8): [(83, 60), (87, 62), (59, 64)],
        ("pg", 8): [(55, 56), (59, 57), (90, 57)],
        ("rl_seq", 8): [(180, 0), (170, 0), (190, 0)],
        ("rocklake", 1): [(150, 0)] * 3, ("pg", 1): [(140, 0)] * 3,
        ("rl_seq", 1): [(150, 0)] * 3,
    })
    w8 = next(w for w in b.writer_rows() if w["n"] == 8)
    assert (w8["rl"], w8["pg"], w8["seq"]) == (83, 59, 180)
    assert (w8["rl_lost"], w8["pg_lost"]) == (62, 57)
    assert w8["rl_runs"] == [83, 87, 59]
    assert w8["rl_p99"] == 0.5   # latencies of all runs pooled


def test_target_compares_medians_and_shows_every_run(tmp_path):
    # the single best RockLake run against the worst PostgreSQL one would
    # pass (87 >= 1.5 x 55); the medians (83 against 59) do not
    b = _bench(tmp_path, {
        ("rocklake", 8): [(83, 60), (87, 62), (59, 64)],
        ("pg", 8): [(55, 56), (59, 57), (90, 57)],
    })
    line = _line(duckdb_bench.targets([], b.writer_rows(), []), "8 writer processes")
    assert line.startswith("[FAIL]")
    assert "1.41x, medians of 3 runs each" in line
    assert "RockLake 83/87/59" in line and "PostgreSQL 55/59/90" in line
    assert "lost races per run RockLake 60/62/64, PostgreSQL 56/57/57" in line

    b = _bench(tmp_path, {
        ("rocklake", 8): [(120, 10), (95, 20), (130, 5)],
        ("pg", 8): [(60, 50), (90, 40), (55, 60)],
    })
    line = _line(duckdb_bench.targets([], b.writer_rows(), []), "8 writer processes")
    assert line.startswith("[PASS]") and "2.00x" in line


def test_a_writers_only_run_gives_no_floor_verdict(tmp_path):
    # no operation measured is no operation within 10% of the floor
    b = _bench(tmp_path, {("rocklake", 8): [(90, 50)], ("pg", 8): [(80, 50)]})
    lines = duckdb_bench.targets(b.rows(), b.writer_rows(), [])
    assert not [t for t in lines if "DuckDB-file catalog" in t], lines
    text = duckdb_bench.render(b.rows(), b.writer_rows(), [], markdown=True)
    assert "| operation |" not in text and "| writer processes |" in text


def test_quack_is_a_fourth_catalog(tmp_path):
    # Quack has a column pair (median, p99) and a ratio in the operations
    # table, and a rate, a ratio, a p99 and failed commits in the writer
    # table; the old columns keep their meaning and their place
    b = _bench(tmp_path, {
        ("rocklake", 8): [(80, 10)], ("pg", 8): [(40, 20)], ("quack", 8): [(20, 0)],
    })
    b.rec.add("quack", "writers_8_failed", 3)
    for kind, secs in (("rocklake", 0.010), ("pg", 0.020), ("quack", 0.040), ("floor", 0.008)):
        b.rec.add(kind, "insert_inlined", secs)
    rows = b.rows()
    r = next(r for r in rows if r["op"] == "insert_inlined")
    assert (r["rl"], r["pg"], r["quack"], r["floor"]) == (0.010, 0.020, 0.040, 0.008)
    w8 = next(w for w in b.writer_rows() if w["n"] == 8)
    assert (w8["quack"], w8["quack_failed"], w8["quack_lost"]) == (20, 3, 0)
    text = duckdb_bench.render(rows, b.writer_rows(), [], markdown=True)
    lines = text.splitlines()
    head = _line(lines, "| operation |").strip("| ").split(" | ")
    assert head[:8] == ["operation", "RockLake", "p99", "PostgreSQL", "p99", "Quack", "p99",
                        "DuckDB file"]
    assert head[8:11] == ["RL/PG", "RL/Quack", "RL/floor"]
    cells = _line(lines, "| INSERT commit, inlined").strip("| ").split(" | ")
    assert cells[5] == "40.00 ms" and cells[8:11] == ["0.50", "0.25", "1.25"]
    whead = _line(lines, "| writer processes |").strip("| ").split(" | ")
    assert whead[4] == "Quack commits/s" and whead[7] == "RL/Quack"
    w = _line(lines, "| 8 |").strip("| ").split(" | ")
    assert w[1] == "80" and w[3] == "40" and w[4] == "20" and w[5] == "2.00" and w[7] == "4.00"
    assert w[-1] == "0 / 0 / 0 / 3"   # failed commits RL / RL seq / PG / Quack
    assert w[-2] == "10 / — / 20"     # lost races: Quack exposes no count


def test_catalogs_option_selects_a_subset(tmp_path):
    args = _Args()
    args.workdir = str(tmp_path)
    args.skip = "attach"
    assert "profile" not in duckdb_bench.Bench(args).skip
    args.catalogs = "quack,rocklake"
    b = duckdb_bench.Bench(args)
    assert b.order == ["rocklake", "quack"]   # always in the report's order
    assert "profile" in b.skip                # it needs RockLake and PostgreSQL
    args.catalogs = "rocklake,nope"
    try:
        duckdb_bench.Bench(args)
    except SystemExit as e:
        assert "nope" in str(e)
    else:
        raise AssertionError("an unknown catalog was accepted")
