"""What the benchmark drivers (bench/run.py, bench/duckdb_bench.py) share:
percentiles, progress lines, Prometheus metrics text, and running a driver so that its servers are
stopped and its work directory removed however the run ends."""
import os
import shutil
import signal
import sys


def log(msg):
    print(msg, flush=True)


def pct(xs, p):
    """The p-th percentile of xs (linear between neighbours), None if empty."""
    if not xs:
        return None
    s = sorted(xs)
    k = (len(s) - 1) * p / 100.0
    lo = int(k)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (k - lo)


def parse_prom(text):
    """Prometheus text exposition as {sample name with labels: value}."""
    out = {}
    for line in (text or '').splitlines():
        if not line or line.startswith('#'):
            continue
        try:
            name, val = line.rsplit(' ', 1)
            out[name] = float(val)
        except ValueError:
            continue
    return out


def run_driver(driver, args):
    """driver.main() with driver.stop_all() on SIGTERM/SIGINT and at the end;
    driver.work is removed unless args.keep or args.workdir. A forked helper
    process that gets the signal just exits."""
    main_pid = os.getpid()

    def on_signal(signum, _frame):
        if os.getpid() != main_pid:
            os._exit(128 + signum)
        driver.stop_all()
        sys.exit(128 + signum)
    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    try:
        driver.main()
    finally:
        driver.stop_all()
        if not args.keep and not args.workdir:
            shutil.rmtree(driver.work, ignore_errors=True)
        elif args.keep:
            log(f'bench: kept {driver.work}')
    return 0


def pyplot():
    """matplotlib's pyplot on the Agg backend, or None (logged) when it is
    not installed: the benches print their tables without plots then."""
    try:
        import matplotlib
        matplotlib.use('Agg')
        import matplotlib.pyplot as plt
        import matplotlib.ticker  # noqa: F401 - run.py's plots format ticks
    except Exception as e:  # noqa: BLE001
        log(f'bench: no plots ({e}); pip install matplotlib')
        return None
    return plt
