#!/usr/bin/env python3
"""hkctl benchmark: the same queries against hkctl's JSON Lines store and against sqlite3 on an indexed table.

Usage:
  swift build -c release                      # the binary under test: .build/release/hkctl
  python3 bench/run.py [--years 10] [--runs 9] [--binary PATH] [--keep DIR]

It writes a synthetic store (steps about every 6 minutes of the waking day, water 6 times a day, for
--years years ending 2025-12-31, zone America/Los_Angeles) in hkctl's store format, loads the same rows
into sqlite3 (index on type and start), checks that both give the same answers, then times each query
as whole processes, alternating hkctl and sqlite3, and prints a Markdown table: medians, the median of
per-pair ratios (below 1 means hkctl is faster) and peak RSS of each side.
"""
import argparse, datetime as dt, os, random, shutil, sqlite3, statistics, subprocess, sys, tempfile, time, uuid
from zoneinfo import ZoneInfo

ZONE = "America/Los_Angeles"
STEPS = "HKQuantityTypeIdentifierStepCount"
WATER = "HKQuantityTypeIdentifierDietaryWater"


def iso(ts, zone):
    return dt.datetime.fromtimestamp(ts, zone).isoformat()


def generate(store, db_path, years):
    zone = ZoneInfo(ZONE)
    rng = random.Random(7)
    os.makedirs(store, mode=0o700)
    with open(os.path.join(store, "hkctl-store.json"), "w") as f:
        f.write('{"format":"hkctl-store","version":1}\n')
    db = sqlite3.connect(db_path)
    db.execute("create table samples (uuid text, type text, start integer, end integer, value real, unit text, source text)")
    first = dt.date(2025 - years + 1, 1, 1)
    day = first
    files = {}
    counts = {STEPS: 0, WATER: 0}
    rows = []

    def emit(type_, start, end, value, unit, source):
        u = str(uuid.UUID(int=rng.getrandbits(128), version=4))
        month = dt.datetime.fromtimestamp(start, dt.timezone.utc).strftime("%Y-%m")
        key = (type_, month)
        if key not in files:
            folder = os.path.join(store, "samples", type_)
            os.makedirs(folder, mode=0o700, exist_ok=True)
            files[key] = open(os.path.join(folder, month + ".jsonl"), "a")
        value_text = str(int(value)) if value == int(value) else repr(value)
        files[key].write('{"uuid":"%s","type":"%s","start":"%s","end":"%s","value":%s,"unit":"%s","source":"%s","created":"%s"}\n'
                         % (u, type_, iso(start, zone), iso(end, zone), value_text, unit, source, iso(end, zone)))
        rows.append((u, type_, start, end, value, unit, source))
        counts[type_] += 1

    while day <= dt.date(2025, 12, 31):
        base = dt.datetime(day.year, day.month, day.day, 7, 0, tzinfo=zone).timestamp()
        t = base
        while t < base + 15 * 3600:  # 07:00 to 22:00 local, never across midnight
            length = rng.randint(60, 300)
            emit(STEPS, int(t), int(t + length), rng.randint(5, 600), "count", "Phone")
            t += length + rng.randint(60, 400)
        for hour in (8, 10, 12, 15, 18, 21):
            at = int(base + (hour - 7) * 3600 + rng.randint(0, 3000))
            emit(WATER, at, at, rng.choice([250, 330, 500]), "mL", "hkctl")
        if len(rows) > 200_000:
            db.executemany("insert into samples values (?,?,?,?,?,?,?)", rows)
            rows.clear()
        day += dt.timedelta(days=1)
    db.executemany("insert into samples values (?,?,?,?,?,?,?)", rows)
    db.execute("create index samples_type_start on samples (type, start)")
    db.commit()
    db.close()
    for f in files.values():
        f.close()
    return counts


def run(command, env, stdin=None):
    """Runs a process; returns (seconds, peak RSS in MiB, stdout)."""
    start = time.perf_counter()
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               stdin=subprocess.PIPE if stdin else subprocess.DEVNULL)
    out, err = process.communicate(stdin.encode() if stdin else None)
    elapsed = time.perf_counter() - start
    if process.returncode != 0:
        sys.exit(f"failed: {' '.join(command)}\n{err.decode()}")
    return elapsed, out.decode()


def peak_rss(command, env, stdin=None):
    """Peak RSS of one run in MiB, as GNU time reports it (the child alone, not this Python process)."""
    result = subprocess.run(["/usr/bin/time", "-f", "%M", *command], env=env, input=stdin.encode() if stdin else None,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    return int(result.stderr.decode().strip().splitlines()[-1]) / 1024


def bench_import(binary, work, days):
    """Times importing one synthetic export (shared/bench/gen_export.py) into a fresh store, against
    healthkit-to-sqlite loading the same file into SQLite: wall time, MB/s and peak RSS of each."""
    generator = os.path.join(os.path.dirname(__file__), "..", "..", "shared", "bench", "gen_export.py")
    export = os.path.join(work, "export.xml")
    subprocess.run([sys.executable, generator, "--days", str(days), "--out", export], check=True,
                   stderr=subprocess.DEVNULL)
    megabytes = os.path.getsize(export) / 1e6
    rows = []
    store = os.path.join(work, "import-store")
    env = dict(os.environ, HKCTL_STORE=store)
    start = time.perf_counter()
    result = subprocess.run(["/usr/bin/time", "-f", "%M", binary, "import", export], env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    elapsed = time.perf_counter() - start
    rss = int(result.stderr.decode().strip().splitlines()[-1]) / 1024
    rows.append(("hkctl import", elapsed, rss))
    peer = shutil.which("healthkit-to-sqlite")
    if peer:
        db = os.path.join(work, "peer.sqlite")
        start = time.perf_counter()
        result = subprocess.run(["/usr/bin/time", "-f", "%M", peer, export, db, "--xml"], stdout=subprocess.DEVNULL,
                                stderr=subprocess.PIPE)
        elapsed = time.perf_counter() - start
        rss = int(result.stderr.decode().strip().splitlines()[-1]) / 1024
        rows.append(("healthkit-to-sqlite", elapsed, rss))
    else:
        print("(healthkit-to-sqlite not installed: pip install healthkit-to-sqlite to compare)", file=sys.stderr)
    print(f"\n| import of a {days}-day synthetic export ({megabytes:.0f} MB) | seconds | MB/s | peak RSS MiB |")
    print("| --- | ---: | ---: | ---: |")
    for name, seconds, rss in rows:
        print(f"| {name} | {seconds:.1f} | {megabytes / seconds:.0f} | {rss:.0f} |")
    if len(rows) == 2:
        print(f"\nratio hkctl/healthkit-to-sqlite: {rows[0][1] / rows[1][1]:.2f}")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--years", type=int, default=10)
    parser.add_argument("--runs", type=int, default=9)
    parser.add_argument("--binary", default=os.path.join(os.path.dirname(__file__), "..", ".build", "release", "hkctl"))
    parser.add_argument("--keep", help="generate into this folder and keep it")
    parser.add_argument("--import-days", type=int, default=0,
                        help="also time 'hkctl import' of a synthetic export of this many days against "
                             "healthkit-to-sqlite (pip install healthkit-to-sqlite), if installed")
    args = parser.parse_args()
    binary = os.path.abspath(args.binary)
    if not os.path.exists(binary):
        sys.exit(f"no binary at {binary}; run 'swift build -c release' first")
    work = args.keep or tempfile.mkdtemp(prefix="hkctl-bench-")
    store, db = os.path.join(work, "store"), os.path.join(work, "bench.sqlite")
    if not os.path.exists(store):
        started = time.time()
        counts = generate(store, db, args.years)
        print(f"generated {counts[STEPS]:,} step and {counts[WATER]:,} water samples in {time.time() - started:.1f} s",
              file=sys.stderr)
    env = dict(os.environ, TZ=ZONE, HKCTL_STORE=store, HKCTL_NOW="2025-12-31T23:00:00-08:00")
    first_year = 2025 - args.years + 1
    week_from = int(dt.datetime(2025, 12, 25, tzinfo=ZoneInfo(ZONE)).timestamp())
    week_to = int(dt.datetime(2026, 1, 1, tzinfo=ZoneInfo(ZONE)).timestamp())
    queries = [
        ("steps per day, one week",
         [binary, "stats", "steps", "--from", "2025-12-25", "--to", "2025-12-31", "--by", "day", "--format", "csv"],
         ["sqlite3", db, f"select date(start,'unixepoch','localtime') d, sum(value) from samples where type='{STEPS}' "
                         f"and start >= {week_from} and start < {week_to} group by d order by d"], None),
        (f"steps per month, {args.years} years",
         [binary, "stats", "steps", "--from", f"{first_year}-01-01", "--to", "2025-12-31", "--by", "month", "--format", "csv"],
         ["sqlite3", db, f"select strftime('%Y-%m', start, 'unixepoch', 'localtime') m, sum(value) from samples "
                         f"where type='{STEPS}' group by m order by m"], None),
        ("latest 20 water samples",
         [binary, "list", "water", "--limit", "20", "--format", "csv"],
         ["sqlite3", db, f"select uuid, start, value from samples where type='{WATER}' order by start desc limit 20"], None),
        ("add one water sample",
         [binary, "add", "water", "250mL", "--at", "2025-12-31T22:00", "--format", "csv"],
         ["sqlite3", db, f"insert into samples values (lower(hex(randomblob(16))), '{WATER}', 1767247200, 1767247200, 250, 'mL', 'hkctl')"],
         None),
    ]
    # Correctness: the grouped sums must agree (hkctl prints start,end,sum,count,unit; sqlite3 prints key|sum).
    for name, hk, sq, _ in queries[:2]:
        _, hk_out = run(hk, env)
        _, sq_out = run(sq, env)
        hk_sums = [float(line.split(",")[2]) for line in hk_out.strip().splitlines()[1:]]
        sq_sums = [float(line.split("|")[1]) for line in sq_out.strip().splitlines()]
        if [round(x) for x in hk_sums] != [round(x) for x in sq_sums]:
            sys.exit(f"{name}: hkctl and sqlite3 disagree:\n{hk_sums[:5]}\n{sq_sums[:5]}")
    _, hk_out = run(queries[2][1], env)
    _, sq_out = run(queries[2][2], env)
    if [l.split(",")[0] for l in hk_out.strip().splitlines()[1:]] != [l.split("|")[0] for l in sq_out.strip().splitlines()]:
        sys.exit("latest 20 water: hkctl and sqlite3 disagree")
    print("| query | hkctl (median) | sqlite3 (median) | ratio hkctl/sqlite3 | peak RSS MiB hkctl / sqlite3 |")
    print("| --- | ---: | ---: | ---: | ---: |")
    for name, hk, sq, stdin in queries:
        hk_times, sq_times, ratios = [], [], []
        for _ in range(args.runs):
            a, _ = run(hk, env, stdin)
            b, _ = run(sq, env, stdin)
            hk_times.append(a)
            sq_times.append(b)
            ratios.append(a / b)
        hk_rss = statistics.median(peak_rss(hk, env, stdin) for _ in range(3))
        sq_rss = statistics.median(peak_rss(sq, env, stdin) for _ in range(3))
        print(f"| {name} | {statistics.median(hk_times) * 1000:.1f} ms | {statistics.median(sq_times) * 1000:.1f} ms "
              f"| {statistics.median(ratios):.2f} | {hk_rss:.1f} / {sq_rss:.1f} |")
    if args.import_days:
        bench_import(binary, work, args.import_days)
    size = sum(os.path.getsize(os.path.join(d, f)) for d, _, fs in os.walk(store) for f in fs)
    print(f"\nstore {size / 1e6:.0f} MB, sqlite {os.path.getsize(db) / 1e6:.0f} MB, {args.runs} runs per side, "
          f"binary {binary}", file=sys.stderr)
    if not args.keep:
        shutil.rmtree(work)


if __name__ == "__main__":
    main()
