"""The results as a Markdown table (one row per scenario, with the issue's targets) and as JSON."""
import json

from . import baseline as baselines
from .scenarios import ADD_SPREAD, IMPORT_FACTOR, IMPORT_MBPS, IMPORT_RSS, QUERY_RSS


def duration(seconds):
    if seconds is None:
        return "–"
    return f"{seconds:.2f} s" if seconds >= 1 else f"{seconds * 1000:.2f} ms"


def megabytes(value):
    return "–" if value is None else f"{value / 1e6:.1f}"


def over(rss, limit):
    """Whether a measured peak RSS exceeds a limit (an unmeasured one, without GNU time, does not)."""
    return rss is not None and rss > limit


def verdict(failures):
    return "yes" if not failures else "**no** (" + ", ".join(failures) + ")"


def sqlite_ratio(row):
    """The median per-round ratio to sqlite3 and, when known, its range: `0.65 (0.61–0.70)`."""
    if "ratio_range" not in row:
        return f"{row['ratio']:.2f}"
    low, high = row["ratio_range"]
    return f"{row['ratio']:.2f} ({low:.2f}–{high:.2f})"


class Table:
    """Rows of the results table, in scenario order. With a baseline binary (`baseline`: its label), every row also
    carries the baseline's median and the per-round ratio to it, flagged when slower by more than 5 %."""

    def __init__(self, baseline=None):
        self.rows = []
        self.baseline = baseline

    def add(self, scenario, hkctl, sqlite3, ratio, target, met, rss, timing=None):
        row = {"scenario": scenario, "hkctl": hkctl, "sqlite3": sqlite3, "ratio": ratio, "target": target,
               "met": met, "rss": rss, "baseline": "–", "vs_baseline": "–", "slower": False}
        if timing and "baseline" in timing:
            row["baseline"] = duration(timing["baseline"]["median_s"])
            against = timing["hkctl"]["vs_baseline"]
            row["slower"] = baselines.is_slower(against)
            row["vs_baseline"] = baselines.ratio_text(against) + (" **slower**" if row["slower"] else "")
        self.rows.append(row)

    def skipped(self, scenario, why):
        self.add(scenario, "–", "–", "–", "–", f"skipped: {why}", "–")

    def query(self, title, timing, target, cold=False):
        hk, sq = timing["hkctl"], timing["sqlite3"]
        rss = f"{megabytes(hk['peak_rss'])} / {megabytes(sq['peak_rss'])}"
        if target is None:
            self.add(title, duration(hk["median_s"]), duration(sq["median_s"]), sqlite_ratio(hk), "report only",
                     "–", rss, timing)
            return
        if cold:
            self.add(f"7. cold cache: {title}", duration(hk["median_s"]), duration(sq["median_s"]),
                     sqlite_ratio(hk), "report only", "–", rss, timing)
            return
        failures = []
        if hk["ratio"] > target:
            failures.append(f"ratio {hk['ratio']:.2f} > {target}")
        if over(hk["peak_rss"], QUERY_RSS):
            failures.append(f"RSS {megabytes(hk['peak_rss'])} MB > {QUERY_RSS / 1e6:.0f}")
        self.add(title, duration(hk["median_s"]), duration(sq["median_s"]), sqlite_ratio(hk),
                 f"≤ {target}, RSS ≤ {QUERY_RSS / 1e6:.0f} MB", verdict(failures), rss, timing)

    def add_sample(self, timing):
        hk, sq, bare = timing["hkctl"], timing["sqlite3"], timing["hkctl_empty"]
        spread = hk["median_s"] / bare["median_s"]
        failures = []
        if hk["ratio"] > 0.8:
            failures.append(f"ratio {hk['ratio']:.2f} > 0.8")
        if abs(spread - 1) > ADD_SPREAD:
            failures.append(f"{(spread - 1) * 100:+.0f}% vs empty store")
        for rss in (hk["peak_rss"], bare["peak_rss"]):
            if over(rss, QUERY_RSS):
                failures.append(f"RSS {megabytes(rss)} MB > {QUERY_RSS / 1e6:.0f}")
        self.add("1. add water 250mL into the full store", duration(hk["median_s"]), duration(sq["median_s"]),
                 sqlite_ratio(hk), "≤ 0.8, within 20% of 1b", verdict(failures),
                 f"{megabytes(hk['peak_rss'])} / {megabytes(sq['peak_rss'])}", timing)
        self.add("1b. the same add into an empty store", duration(bare["median_s"]), "–",
                 f"full/empty {spread:.2f}", "0.80–1.20", "yes" if abs(spread - 1) <= ADD_SPREAD else "**no**",
                 f"{megabytes(bare['peak_rss'])} / –")

    def import_(self, hk, peer, peer_note, old=None):
        failures = []
        if hk["mb_s"] < IMPORT_MBPS:
            failures.append(f"{hk['mb_s']:.0f} MB/s < {IMPORT_MBPS}")
        if over(hk["peak_rss"], IMPORT_RSS):
            failures.append(f"RSS {megabytes(hk['peak_rss'])} MB > {IMPORT_RSS / 1e6:.0f}")
        if peer and hk["mb_s"] < IMPORT_FACTOR * peer["mb_s"]:
            failures.append(f"{hk['mb_s'] / peer['mb_s']:.1f}× peer < {IMPORT_FACTOR}×")
        if not peer:
            failures.append(f"peer {peer_note}")
        self.add(f"6. import {hk['bytes'] / 1e6:.0f} MB export.xml (vs healthkit-to-sqlite)",
                 f"{duration(hk['seconds'])} = {hk['mb_s']:.0f} MB/s",
                 f"{duration(peer['seconds'])} = {peer['mb_s']:.1f} MB/s" if peer else "–",
                 f"{hk['seconds'] / peer['seconds']:.3f} ({hk['mb_s'] / peer['mb_s']:.1f}× faster)" if peer else "–",
                 f"≥ {IMPORT_MBPS} MB/s, ≥ {IMPORT_FACTOR}× peer, RSS ≤ {IMPORT_RSS / 1e6:.0f} MB",
                 verdict(failures),
                 f"{megabytes(hk['peak_rss'])} / {megabytes(peer['peak_rss']) if peer else '–'}")
        if old:  # one import each: a single ratio, no range
            row = self.rows[-1]
            ratio = hk["seconds"] / old["seconds"]
            row["baseline"] = f"{duration(old['seconds'])} = {old['mb_s']:.0f} MB/s"
            row["slower"] = ratio > 1 + baselines.SLOWER_BY
            row["vs_baseline"] = f"{ratio:.2f} (one run each)" + (" **slower**" if row["slower"] else "")

    def markdown(self):
        if not self.baseline:
            lines = ["| scenario | hkctl median | sqlite3 median | ratio hkctl/sqlite3 | target | met? "
                     "| peak RSS MB hkctl / sqlite3 |",
                     "| --- | ---: | ---: | ---: | --- | --- | ---: |"]
            lines += [f"| {r['scenario']} | {r['hkctl']} | {r['sqlite3']} | {r['ratio']} | {r['target']} | {r['met']} "
                      f"| {r['rss']} |" for r in self.rows]
            return "\n".join(lines)
        lines = [f"| scenario | hkctl median | baseline {self.baseline} median | sqlite3 median "
                 "| ratio hkctl/baseline (range) | ratio hkctl/sqlite3 (range) | target | met? "
                 "| peak RSS MB hkctl / sqlite3 |",
                 "| --- | ---: | ---: | ---: | ---: | ---: | --- | --- | ---: |"]
        lines += [f"| {r['scenario']} | {r['hkctl']} | {r['baseline']} | {r['sqlite3']} | {r['vs_baseline']} "
                  f"| {r['ratio']} | {r['target']} | {r['met']} | {r['rss']} |" for r in self.rows]
        return "\n".join(lines)

    def slower(self):
        """The scenarios slower than the baseline by more than 5 % (median per-round ratio)."""
        return [r["scenario"] for r in self.rows if r["slower"]]

    def unmet(self):
        return [r["scenario"] for r in self.rows if r["met"].startswith("**no")]


def machine_text(machine):
    peer = machine.get("healthkit_to_sqlite", "not run")
    linking = "fully static" if machine["binary_static"] else "dynamically linked"
    return (f"machine: {machine['os']}, {machine['cpu']}, {machine['cores']} cores, {machine['memory_gib']} GiB; "
            f"load average at start {machine['load_average']}; {machine['swift']}; sqlite3 {machine['sqlite3']}; "
            f"Python {machine['python']}; healthkit-to-sqlite {peer}\n"
            f"binary: {machine['binary']} ({machine['binary_mb']} MB, {linking})")


def write_json(path, document):
    with open(path, "w") as f:
        json.dump(document, f, indent=2, default=str)
        f.write("\n")
