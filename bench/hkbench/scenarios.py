"""The scenarios of issue 11: each runs hkctl and the sqlite3 CLI side by side, alternating, after a warm-up; and
the checks that both sides give the same answers before anything is timed."""
import bisect, datetime as dt, os, sqlite3, statistics

from . import baseline as baselines, data, proc
from .data import HEART_RATE, STEPS, WATER, ZONE

QUERY_RSS = 24e6          # any query: peak RSS ≤ 24 MB
IMPORT_MBPS = 300         # import: ≥ 300 MB/s of export.xml
IMPORT_FACTOR = 20        # … and ≥ 20× healthkit-to-sqlite's throughput
IMPORT_RSS = 150e6        # … and peak RSS ≤ 150 MB
ADD_SPREAD = 0.20         # add into the big store within 20% of the same add into an empty store


class Mismatch(Exception):
    """hkctl and sqlite3 disagree: a product bug or a harness bug; never timed over."""


class Query:
    """One read scenario: hkctl's arguments, the sqlite3 statement that answers the same question, and the check."""

    def __init__(self, key, title, arguments, sql, check, target):
        self.key, self.title, self.arguments, self.sql = key, title, arguments, sql
        self.check, self.target = check, target


class Bench:
    """Everything the scenarios share: binary, sqlite3, the stores, the database, the pinned zone and now, and the
    baseline binary (None without one), which every scenario alternates with the other two sides."""

    def __init__(self, binary, sqlite3_path, work, store, db, first, last, baseline=None):
        self.binary, self.sqlite3, self.work, self.store, self.db = binary, sqlite3_path, work, store, db
        self.baseline = baseline
        self.first, self.last = first, last
        # "Now" is pinned to the last evening of the data, so --month is its last 30 days.
        self.now = dt.datetime(last.year, last.month, last.day, 23, 59, tzinfo=ZONE)
        base = {"PATH": "/usr/bin:/bin", "HOME": work, "TZ": data.ZONE_NAME, "LC_ALL": "C.UTF-8"}
        self.sqlite_env = base
        self.hkctl_env = dict(base, HKCTL_STORE=store, HKCTL_NOW=self.now.isoformat())

    def hkctl(self, arguments, store=None, binary=None):
        env = dict(self.hkctl_env, HKCTL_STORE=store) if store else self.hkctl_env
        return [binary or self.binary] + arguments, env

    def old(self, arguments, store=None):
        """The same hkctl command run by the baseline binary."""
        return self.hkctl(arguments, store, self.baseline)

    def sql(self, statement):
        return [self.sqlite3, self.db, statement], self.sqlite_env

    # The queries (scenarios 2 to 5)

    def queries(self):
        week_from = self.last - dt.timedelta(days=6)
        after = data.midnight(self.last + dt.timedelta(days=1))
        month_from = self.last - dt.timedelta(days=29)  # --month is the 30 days ending today (README)
        day = "date(start, 'unixepoch', 'localtime')"
        month = "strftime('%Y-%m', start, 'unixepoch', 'localtime')"
        return [
            Query("week", f"2. steps per day, last week ({week_from} to {self.last})",
                  ["stats", "steps", "--from", str(week_from), "--to", str(self.last), "--by", "day", "--no-merge",
                   "--format", "csv"],
                  f"SELECT {day} AS d, sum(value), count(*) FROM samples WHERE type = '{STEPS}' AND start >= "
                  f"{data.midnight(week_from)} AND start < {after} GROUP BY d ORDER BY d;",
                  lambda hk, sq: self.check_sums(hk, sq, 10, STEPS), 0.8),
            Query("history", f"3. steps per month, all history ({self.first} to {self.last})",
                  ["stats", "steps", "--from", str(self.first), "--to", str(self.last), "--by", "month", "--no-merge",
                   "--format", "csv"],
                  f"SELECT {month} AS m, sum(value), count(*) FROM samples WHERE type = '{STEPS}' AND start >= "
                  f"{data.midnight(self.first)} AND start < {after} GROUP BY m ORDER BY m;",
                  lambda hk, sq: self.check_sums(hk, sq, 7, STEPS), 0.15),
            Query("heart", f"4. heart rate per day, --month ({month_from} to {self.last})",
                  ["stats", "heart-rate", "--month", "--by", "day", "--format", "csv"],
                  f"SELECT {day} AS d, avg(value), min(value), max(value), count(*) FROM samples WHERE type = "
                  f"'{HEART_RATE}' AND start >= {data.midnight(month_from)} AND start < {after} "
                  "GROUP BY d ORDER BY d;",
                  self.check_heart_rate, 0.8),
            Query("latest", "5. latest 20 water samples",
                  ["list", "water", "--limit", "20", "--format", "csv"],
                  f"SELECT start, value FROM samples WHERE type = '{WATER}' ORDER BY start DESC LIMIT 20;",
                  self.check_latest, 0.9),
        ]

    # Checks

    @staticmethod
    def _csv(text):
        """hkctl's CSV as dicts (its fields here never hold commas or quotes)."""
        lines = text.strip().splitlines()
        header = lines[0].split(",")
        return [dict(zip(header, line.split(","))) for line in lines[1:]]

    @staticmethod
    def _rows(text):
        return [line.split("|") for line in text.strip().splitlines()]

    def check_sums(self, hk_text, sq_text, key_length, type_):
        """Sums per bucket agree to rounding. Where they do not, the difference must come from samples that straddle
        a bucket boundary: hkctl splits those by time (HealthKit's rule), the GROUP BY counts them where they start.
        Then hkctl must match an exact time-split reference computed here, or the check fails."""
        hk_rows = [row for row in self._csv(hk_text) if row["sum"] not in ("", "0") or row["count"] not in ("", "0")]
        hk = {row["start"][:key_length]: float(row["sum"] or 0) for row in hk_rows}
        sq = {row[0]: float(row[1]) for row in self._rows(sq_text)}
        if not sq:
            raise Mismatch("sqlite3 found no samples in the range: the chosen dates are wrong")
        differing = sorted(k for k in set(hk) | set(sq) if abs(hk.get(k, 0) - sq.get(k, 0)) > 0.5)
        if not differing:
            return f"{len(sq)} buckets agree"
        reference, straddling = self.split_reference(type_, hk_rows)
        wrong = [(row["start"], float(row["sum"] or 0), ref) for row, ref in zip(hk_rows, reference)
                 if abs(float(row["sum"] or 0) - ref) > 0.01 + 1e-9 * abs(ref)]
        if wrong:
            raise Mismatch("hkctl's sums differ from sqlite3's and from the time-split reference:\n" + "\n".join(
                f"  bucket {start}: hkctl {value}, reference {ref}, sqlite3 (by start) "
                f"{sq.get(start[:key_length])}" for start, value, ref in wrong[:10]))
        gap = max(abs(hk.get(k, 0) - sq.get(k, 0)) for k in differing)
        return (f"{len(sq)} buckets; {len(differing)} differ from the GROUP BY by at most {gap:.0f} because "
                f"{straddling} samples straddle a bucket boundary: hkctl splits them by time (HealthKit's rule) and "
                "matches an exact time-split reference")

    def split_reference(self, type_, hk_rows):
        """The sum per bucket with each sample's value split by the time it spends in each bucket (HealthKit's rule
        for cumulative types), computed from the SQLite copy; and how many samples straddle a boundary."""
        bounds = [data.epoch(row["start"]) for row in hk_rows] + [data.epoch(hk_rows[-1]["end"])]
        sums, straddling = [0.0] * len(hk_rows), 0
        db = sqlite3.connect(self.db)
        rows = db.execute("SELECT start, end, value FROM samples WHERE type = ? AND start < ? AND end >= ?",
                          (type_, bounds[-1], bounds[0]))
        for start, end, value in rows:
            if end == start:
                index = bisect.bisect_right(bounds, start) - 1
                if 0 <= index < len(sums):
                    sums[index] += value
                continue
            index = max(bisect.bisect_right(bounds, start) - 1, 0)
            straddling += bisect.bisect_left(bounds, end) - 1 > index
            while index < len(sums) and bounds[index] < end:
                overlap = min(end, bounds[index + 1]) - max(start, bounds[index])
                if overlap > 0:
                    sums[index] += value * overlap / (end - start)
                index += 1
        db.close()
        return sums, straddling

    def check_heart_rate(self, hk_text, sq_text):
        """Count, minimum and maximum per day agree exactly. The averages are not compared: hkctl's is time-weighted
        (HealthKit's discreteTemporallyWeighted), sqlite3's avg() is the plain mean."""
        hk = {row["start"][:10]: row for row in self._csv(hk_text) if row["count"] not in ("", "0")}
        sq = {row[0]: row for row in self._rows(sq_text)}
        if not sq:
            raise Mismatch("sqlite3 found no heart-rate samples in the month")
        if set(hk) != set(sq):
            raise Mismatch(f"heart rate: days differ: hkctl {sorted(set(hk) - set(sq))[:5]}, "
                           f"sqlite3 {sorted(set(sq) - set(hk))[:5]}")
        for key, row in sq.items():
            mine = (int(hk[key]["count"]), float(hk[key]["minimum"]), float(hk[key]["maximum"]))
            theirs = (int(row[4]), float(row[2]), float(row[3]))
            if mine != theirs:
                raise Mismatch(f"heart rate on {key}: hkctl count/min/max {mine}, sqlite3 {theirs}")
        gap = max(abs(float(hk[k]["average"]) - float(sq[k][1])) for k in sq)
        return (f"{len(sq)} days: count/min/max agree; averages not compared (time-weighted vs plain mean, "
                f"up to {gap:.1f} bpm apart)")

    def check_latest(self, hk_text, sq_text):
        """The same 20 samples, newest first: start times and values."""
        hk = [(data.epoch(row["start"]), float(row["value"])) for row in self._csv(hk_text)]
        sq = [(float(row[0]), float(row[1])) for row in self._rows(sq_text)]
        if len(sq) != 20 or hk != sq:
            raise Mismatch(f"latest water: hkctl {hk[:3]}…, sqlite3 {sq[:3]}…")
        return "20 samples agree (start, value)"

    def verify(self, queries):
        """Runs every query once on each side and checks the answers; raises Mismatch when they disagree. The
        baseline binary's answers are checked the same way (a baseline that answers differently is no baseline)."""
        notes = {}
        for query in queries:
            hk = proc.run(*self.hkctl(query.arguments))
            sq = proc.run(*self.sql(query.sql))
            notes[query.key] = query.check(hk.out, sq.out)
            if self.baseline:
                try:
                    query.check(proc.run(*self.old(query.arguments)).out, sq.out)
                except Mismatch as mismatch:
                    raise Mismatch(f"the baseline binary {self.baseline}: {mismatch}") from None
        return notes


def alternate(sides, runs, warmup=1, before_each=None):
    """Runs each (command, env) side `warmup` times, then `runs` times, alternating (ABAB, then BABA on the next
    round, so neither side always goes first); a list of Results per side."""
    for _ in range(warmup):
        for command, env in sides:
            if before_each:
                before_each()
            proc.run(command, env)
    results = [[] for _ in sides]
    for round_ in range(runs):
        order = list(range(len(sides)))
        if round_ % 2:
            order.reverse()
        for index in order:
            if before_each:
                before_each()
            results[index].append(proc.run(*sides[index]))
    return results


def summary(results, side, base=None, old=None):
    """Median seconds, peak RSS (the largest of 3 separate runs under GNU time), against `base` (sqlite3) the median
    of per-run ratios and their range, and against `old` (the baseline binary's runs of the same rounds) the same."""
    row = {"median_s": statistics.median(r.seconds for r in results), "peak_rss": proc.peak_rss(*side),
           "runs_s": [round(r.seconds, 6) for r in results]}
    if base is not None:
        against = baselines.ratio_summary([r.seconds for r in results], [r.seconds for r in base])
        row["ratio"], row["ratio_range"] = against["median"], [against["low"], against["high"]]
    if old is not None:
        row["vs_baseline"] = baselines.ratio_summary([r.seconds for r in results], [r.seconds for r in old])
    return row


def time_query(bench, query, runs, warmup=1, before_each=None):
    old = bench.old(query.arguments) if bench.baseline else None
    return time_pair([bench.hkctl(query.arguments), bench.sql(query.sql)], runs, warmup, before_each, old)


def time_floor(bench, runs, warmup=1, before_each=None):
    """The start-up floor: `hkctl --version` against `sqlite3 :memory: 'SELECT 1;'` (no store, no database)."""
    old = bench.old(["--version"]) if bench.baseline else None
    return time_pair([bench.hkctl(["--version"]), ([bench.sqlite3, ":memory:", "SELECT 1;"], bench.sqlite_env)],
                     runs, warmup, before_each, old)


def time_pair(sides, runs, warmup=1, before_each=None, old=None):
    """hkctl (first side) against sqlite3 (second side), and the baseline binary's same command (`old`, a third side
    in the same rounds) when given: medians, ratios and peak RSS."""
    timed = alternate(sides + ([old] if old else []), runs, warmup, before_each)
    hk, sq = timed[0], timed[1]
    if before_each:  # cold: the RSS runs are cold too
        before_each()
    result = {"hkctl": summary(hk, sides[0], sq, timed[2] if old else None), "sqlite3": summary(sq, sides[1])}
    if old:
        result["baseline"] = summary(timed[2], old, sq)
    return result


def time_add(bench, runs):
    """`add water 250mL` into the big store, one INSERT through sqlite3, and the same add into an empty store; the
    inserted rows are deleted again afterwards so the SQLite copy stays the export's."""
    empty = os.path.join(bench.work, "empty-store")
    data.fresh(empty)
    now = int(bench.now.timestamp())
    db = sqlite3.connect(bench.db)
    (last_row,) = db.execute("SELECT max(rowid) FROM samples").fetchone()
    arguments = ["add", "water", "250mL", "--format", "csv"]
    sides = [bench.hkctl(arguments),
             bench.sql(f"INSERT INTO samples VALUES ('{WATER}', {now}, {now}, 250, 'mL', 'hkctl');"),
             bench.hkctl(arguments, store=empty)]
    # The baseline's add goes into a copy of the full store, as sqlite3's INSERT into the same table: binaries from
    # before the counter's reserved blocks cannot write a store this one wrote (data.first_form_counter).
    old_store = data.baseline_copy(bench.store) if bench.baseline else None
    if bench.baseline:
        sides.append(bench.old(arguments, store=old_store))
    timed = alternate(sides, runs)
    full, sq, bare = timed[:3]
    old = timed[3] if bench.baseline else None
    timing = {"hkctl": summary(full, sides[0], sq, old), "sqlite3": summary(sq, sides[1]),
              "hkctl_empty": summary(bare, sides[2])}
    if old:
        timing["baseline"] = summary(old, sides[3], sq)
    if old_store:
        data.fresh(old_store)
    db.execute("DELETE FROM samples WHERE rowid > ?", (last_row,))
    db.commit()
    db.close()
    # Check: the empty store holds exactly the samples added, 250 mL each, at the pinned now.
    listed = proc.run(*bench.hkctl(["list", "water", "--format", "csv"], store=empty))
    rows = Bench._csv(listed.out)
    if len(rows) != runs + 4 or any(float(r["value"]) != 250 or data.epoch(r["start"]) != now for r in rows):
        raise Mismatch(f"add: the empty store holds {len(rows)} water samples, expected {runs + 4} of 250 mL at {now}")
    return timing


def time_import(binary, export, store, env):
    """One import of the export into a fresh store (the store every other scenario then reads).

    gen_export.py does its sleep-stage arithmetic in local wall time, so on each spring-forward night it can write a
    stage whose end is before its start; hkctl rejects exactly those (exit 65, a line each) and imports the rest.
    Any other rejection, or any other failure, stops the suite."""
    data.fresh(store)
    proc.read_through(export)
    proc.settle_disk()
    size = os.path.getsize(export)
    hk = proc.run([binary, "import", export], dict(env, HKCTL_STORE=store), check=False,
                  measure_rss=proc.can_measure_rss())
    rejected = [line for line in hk.err.splitlines() if line.startswith("line ")]
    if hk.status != 0 and not (hk.status == 65 and rejected and all("is before the start" in r for r in rejected)):
        raise proc.CommandFailed(f"hkctl import exited {hk.status}:\n{hk.err.strip()[-2000:]}")
    return {"bytes": size, "seconds": hk.seconds, "mb_s": size / 1e6 / hk.seconds, "peak_rss": hk.rss,
            "status": hk.status, "rejected": rejected, "summary": hk.out.strip().splitlines()[-3:]}


def time_peer(peer, export, peer_db, env):
    """healthkit-to-sqlite loading the same export into a fresh SQLite file."""
    data.fresh(peer_db)
    proc.read_through(export)
    proc.settle_disk()
    size = os.path.getsize(export)
    other = proc.run([peer, export, peer_db, "--xml"], dict(env, PATH=os.path.dirname(peer) + ":/usr/bin:/bin"),
                     measure_rss=proc.can_measure_rss())
    return {"seconds": other.seconds, "mb_s": size / 1e6 / other.seconds, "peak_rss": other.rss}
