"""The results as a Markdown table (one row per scenario, with the issue's targets) and as JSON."""
import json

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


class Table:
    """Rows of the results table, in scenario order."""

    def __init__(self):
        self.rows = []

    def add(self, scenario, hkctl, sqlite3, ratio, target, met, rss):
        self.rows.append({"scenario": scenario, "hkctl": hkctl, "sqlite3": sqlite3, "ratio": ratio, "target": target,
                          "met": met, "rss": rss})

    def skipped(self, scenario, why):
        self.add(scenario, "–", "–", "–", "–", f"skipped: {why}", "–")

    def query(self, title, timing, target, cold=False):
        hk, sq = timing["hkctl"], timing["sqlite3"]
        rss = f"{megabytes(hk['peak_rss'])} / {megabytes(sq['peak_rss'])}"
        if target is None:
            self.add(title, duration(hk["median_s"]), duration(sq["median_s"]), f"{hk['ratio']:.2f}", "report only",
                     "–", rss)
            return
        if cold:
            self.add(f"7. cold cache: {title}", duration(hk["median_s"]), duration(sq["median_s"]),
                     f"{hk['ratio']:.2f}", "report only", "–", rss)
            return
        failures = []
        if hk["ratio"] > target:
            failures.append(f"ratio {hk['ratio']:.2f} > {target}")
        if over(hk["peak_rss"], QUERY_RSS):
            failures.append(f"RSS {megabytes(hk['peak_rss'])} MB > {QUERY_RSS / 1e6:.0f}")
        self.add(title, duration(hk["median_s"]), duration(sq["median_s"]), f"{hk['ratio']:.2f}",
                 f"≤ {target}, RSS ≤ {QUERY_RSS / 1e6:.0f} MB", verdict(failures), rss)

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
                 f"{hk['ratio']:.2f}", "≤ 0.8, within 20% of 1b", verdict(failures),
                 f"{megabytes(hk['peak_rss'])} / {megabytes(sq['peak_rss'])}")
        self.add("1b. the same add into an empty store", duration(bare["median_s"]), "–",
                 f"full/empty {spread:.2f}", "0.80–1.20", "yes" if abs(spread - 1) <= ADD_SPREAD else "**no**",
                 f"{megabytes(bare['peak_rss'])} / –")

    def import_(self, hk, peer, peer_note):
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

    def markdown(self):
        lines = ["| scenario | hkctl median | sqlite3 median | ratio hkctl/sqlite3 | target | met? "
                 "| peak RSS MB hkctl / sqlite3 |",
                 "| --- | ---: | ---: | ---: | --- | --- | ---: |"]
        lines += [f"| {r['scenario']} | {r['hkctl']} | {r['sqlite3']} | {r['ratio']} | {r['target']} | {r['met']} "
                  f"| {r['rss']} |" for r in self.rows]
        return "\n".join(lines)

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
