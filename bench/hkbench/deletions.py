"""Scenario 8 (issue 29, items 8 and 9): `changes --limit 100` and `export` on a store where a year of every type was
deleted and the deletions undone (so it holds a tombstone and a restored copy for every sample of that year), against
the same commands on the store before (the ordinary case, no deletions) and against a baseline hkctl binary on the
same store, all alternated in one run. Before anything is timed, both binaries must print the same page of changes
and write byte-identical exports, and the export after the undo must hold as many samples as before."""
import datetime as dt, hashlib, json, os, re, shutil, statistics

from . import data, proc

PAGE = 100


class Mismatch(Exception):
    """The binaries disagree, or the delete and undo lost or doubled samples: nothing is timed."""


def data_days(export_xml, days):
    """The first and last day of gen_export.py's data: its ExportDate is the morning after the last day."""
    with open(export_xml, "rb") as f:
        match = re.search(rb'<ExportDate value="(\d{4})-(\d{2})-(\d{2})', f.read(1 << 16))
    if not match:
        raise Mismatch(f"{export_xml} has no ExportDate in its first 64 KiB")
    after = dt.date(*(int(part) for part in match.groups()))
    return after - dt.timedelta(days=days), after - dt.timedelta(days=1)


def deleted_span(first, last):
    """The year deleted: the calendar year after the first one when the data covers two more, else its middle third."""
    if (last - first).days >= 730:
        year = first.year + 1
        return dt.date(year, 1, 1), dt.date(year, 12, 31)
    third = max(1, (last - first).days // 3)
    return first + dt.timedelta(days=third), first + dt.timedelta(days=2 * third - 1)


def churn(binary, store, env, span):
    """Deletes `span` of every type of `store` (one range delete a type; activity summaries have no delete), then
    undoes each delete, newest first, checking that each undo is one of those deletes. Returns what was done."""
    env = dict(env, HKCTL_STORE=store)
    start, end = (day.isoformat() for day in span)
    deletes, deleted, seconds = 0, 0, 0.0
    for folder in sorted(os.listdir(os.path.join(store, "samples"))):
        result = proc.run([binary, "delete", folder, "--from", start, "--to", end, "--yes", "--format", "csv"], env,
                          check=False)
        seconds += result.seconds
        if result.status == 64 and "Unknown type" in result.err:
            continue
        if result.status != 0:
            raise proc.CommandFailed(f"delete {folder} exited {result.status}: {result.err.strip()[-500:]}")
        count = max(0, len(result.out.splitlines()) - 1)
        if count:
            deletes += 1
            deleted += count
    restored = 0
    undo_seconds = 0.0
    for _ in range(deletes):
        plan = json.loads(proc.run([binary, "undo", "--dry-run", "--format", "json"], env).out)
        if plan.get("undo") != "delete":
            raise Mismatch(f"the next undo would take back {plan.get('undo')!r}, not one of the deletes: {plan}")
        result = proc.run([binary, "undo", "--yes", "--format", "json"], env)
        undo_seconds += result.seconds
        restored += json.loads(result.out).get("count", 0)
    if restored != deleted:
        raise Mismatch(f"undo restored {restored} samples of the {deleted} deleted")
    tombstones = sum(sum(1 for _ in open(os.path.join(folder, "tombstones.jsonl"), "rb"))
                     for folder in (os.path.join(store, "samples", name) for name in os.listdir(os.path.join(store, "samples")))
                     if os.path.exists(os.path.join(folder, "tombstones.jsonl")))
    return {"from": start, "to": end, "deletes": deletes, "deleted": deleted, "restored": restored,
            "tombstones": tombstones, "delete_s": round(seconds, 3), "undo_s": round(undo_seconds, 3)}


def _digest(path):
    digest, lines = hashlib.sha256(), 0
    with open(path, "rb") as f:
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)
            lines += block.count(b"\n")
    return digest.hexdigest(), lines


def verify(binary, baseline, clean, churned, env, out):
    """Both binaries give the same answers on the churned store; the churned store exports as many samples as the
    clean one. Returns the checks, and the seconds of these first (warm-up) runs."""
    checks, warmup = {}, {}
    page = [binary, "changes", "--limit", str(PAGE), "--format", "jsonl"]
    new = proc.run(page, dict(env, HKCTL_STORE=churned))
    if len(new.out.splitlines()) != PAGE + 1:
        raise Mismatch(f"changes --limit {PAGE} printed {len(new.out.splitlines())} lines, expected {PAGE + 1}")
    warmup["changes"] = new.seconds
    if baseline:
        old = proc.run([baseline] + page[1:], dict(env, HKCTL_STORE=churned))
        if old.out != new.out:
            raise Mismatch("changes --limit: the binary and the baseline print different pages")
        warmup["changes-baseline"] = old.seconds
    checks["changes"] = f"a page of {PAGE} changes and its anchor" + (", the same from both binaries" if baseline else "")
    export = lambda hkctl, store: proc.run([hkctl, "export", "--format", "jsonl", "--out", out], dict(env, HKCTL_STORE=store))
    warmup["export-clean"] = export(binary, clean).seconds
    _, before = _digest(out)
    warmup["export"] = export(binary, churned).seconds
    digest, after = _digest(out)
    if after != before:
        raise Mismatch(f"the store exports {before} samples before the delete and undo and {after} after")
    if baseline:
        warmup["export-baseline"] = export(baseline, churned).seconds
        if _digest(out)[0] != digest:
            raise Mismatch("export: the binary and the baseline write different files")
    os.remove(out)
    checks["export"] = f"{after:,} samples before and after the delete and undo" + (
        ", byte-identical from both binaries" if baseline else "")
    return checks, warmup


def time_sides(sides, runs):
    """Alternates the (label, command, env) sides `runs` times (the order reversed every other round); median
    seconds and each run per side, and one peak RSS each (GNU time, an untimed run of its own)."""
    seconds = {label: [] for label, _, _ in sides}
    for round_ in range(runs):
        for label, command, env in (sides if round_ % 2 == 0 else list(reversed(sides))):
            seconds[label].append(proc.run(command, env).seconds)
    result = {}
    for label, command, env in sides:
        result[label] = {"median_s": statistics.median(seconds[label]), "runs_s": [round(s, 4) for s in seconds[label]],
                         "peak_rss": proc.peak_rss(command, env, runs=1)}
    return result, seconds


def ratio(seconds, a, b):
    """The median of the per-round ratios a/b (None when b was not measured)."""
    if b not in seconds:
        return None
    return statistics.median(x / y for x, y in zip(seconds[a], seconds[b]))


def run(binary, baseline, export_xml, work, days, runs, env, step):
    """Scenario 8 from an export: a clean store and a churned copy, the checks, then the timed runs."""
    clean, churned = os.path.join(work, f"deletions-{days}d-clean"), os.path.join(work, f"deletions-{days}d-churned")
    step(f"hkctl import {os.path.basename(export_xml)} into a fresh store")
    data.fresh(clean)
    imported = proc.run([binary, "import", export_xml], dict(env, HKCTL_STORE=clean), check=False)
    if imported.status not in (0, 65):
        raise proc.CommandFailed(f"import exited {imported.status}: {imported.err.strip()[-500:]}")
    data.fresh(churned)
    shutil.copytree(clean, churned)
    first, last = data_days(export_xml, days)
    span = deleted_span(first, last)
    step(f"deleting {span[0]} to {span[1]} of every type, then undoing each delete")
    churned_info = churn(binary, churned, env, span)
    churned_info.update(store_bytes=data.folder_size(churned), clean_bytes=data.folder_size(clean))
    step(f"{churned_info['deleted']:,} samples deleted and restored ({churned_info['tombstones']:,} tombstones); "
         "checking that the answers agree")
    out = os.path.join(work, "deletions-export.jsonl")
    if baseline:
        # Only reads follow: the counter in the form every binary reads (data.first_form_counter).
        data.first_form_counter(clean)
        data.first_form_counter(churned)
    checks, warmup = verify(binary, baseline, clean, churned, env, out)
    results = {"days": days, "first_day": str(first), "last_day": str(last), "store": churned_info, "checks": checks,
               "warmup_s": {k: round(v, 3) for k, v in warmup.items()}}
    commands = {"changes": ["changes", "--limit", str(PAGE), "--format", "jsonl"],
                "export": ["export", "--format", "jsonl", "--out", out]}
    for key, arguments in commands.items():
        step(f"timing {key} ({runs} runs per side, alternating)")
        sides = [("hkctl", [binary] + arguments, dict(env, HKCTL_STORE=churned))]
        if baseline:
            sides.append(("baseline", [baseline] + arguments, dict(env, HKCTL_STORE=churned)))
        sides.append(("clean", [binary] + arguments, dict(env, HKCTL_STORE=clean)))
        timing, seconds = time_sides(sides, runs)
        timing["ratio_baseline"] = ratio(seconds, "hkctl", "baseline")
        timing["ratio_clean"] = ratio(seconds, "hkctl", "clean")
        results[key] = timing
    if os.path.exists(out):
        os.remove(out)
    return results


def markdown(results, baseline):
    """The table of scenario 8."""
    def seconds(value):
        return "–" if value is None else (f"{value:.2f} s" if value >= 1 else f"{value * 1000:.1f} ms")

    def mb(value):
        return "–" if value is None else f"{value / 1e6:.1f}"

    def times(value):
        return "–" if value is None else f"{value:.2f}"

    store = results["store"]
    lines = [f"## 8. after deleting and undoing {store['from']} to {store['to']}: {results['days']} days "
             f"({results['first_day']} to {results['last_day']})\n",
             f"Deleted {store['from']} to {store['to']} of {store['deletes']} types ({store['deleted']:,} samples, "
             f"{store['delete_s']:.1f} s) and undid each delete ({store['restored']:,} restored, {store['undo_s']:.1f} s): "
             f"{store['tombstones']:,} tombstones; store {store['store_bytes'] / 1e6:.0f} MB, "
             f"{store['clean_bytes'] / 1e6:.0f} MB before.\n",
             "| command | hkctl | baseline binary | hkctl / baseline | hkctl, store before | after / before | "
             "peak RSS MB hkctl / baseline / before |",
             "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"]
    for key, title in (("changes", f"`changes --limit {PAGE}`"), ("export", "`export --format jsonl --out FILE`")):
        row = results[key]
        base = row.get("baseline", {})
        lines.append(f"| {title} | {seconds(row['hkctl']['median_s'])} | {seconds(base.get('median_s'))} | "
                     f"{times(row['ratio_baseline'])} | {seconds(row['clean']['median_s'])} | {times(row['ratio_clean'])} | "
                     f"{mb(row['hkctl']['peak_rss'])} / {mb(base.get('peak_rss'))} / {mb(row['clean']['peak_rss'])} |")
    lines.append("\nchecks before timing: " + "; ".join(f"{k}: {v}" for k, v in results["checks"].items()))
    if not baseline:
        lines.append("(no --baseline given: the baseline columns are empty)")
    return "\n".join(lines)
