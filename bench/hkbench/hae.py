"""Scenarios 9 and 10 (issue 30's benchmark line, issue 32 item 4): Health Auto Export JSON.

9. A year of minute-level HAE JSON (bench/gen_hae.py, about 1.1 M points, 180 MB) imported into a fresh store,
   against `hkctl import` of the same samples as an Apple Health export.xml, alternated in the same rounds (and the
   baseline binary's JSON import, when given). Reported: MB/s of the JSON over CPU time (user + system) and over wall
   time, medians with their range, and peak RSS. Target: >= 100 MB/s.
10. A day's push (1,500 minute-level points over 20 metrics) into a ten-year store (the 3,650-day export imported
   once): the push body through `hkctl import FILE` (a process each, start-up included), and through a running
   `hkctl serve` with Python's http.client (the acknowledgement: request sent to receipt received). Each round pushes
   the next day, as a live feed does, so every push stores its 1,500 points anew. Target: < 50 ms.

Every measured process runs under GNU time (`/usr/bin/time -f`), which reports its own wall, user and system
seconds and peak RSS."""
import http.client, json, os, shutil, signal, statistics, subprocess, sys, time, datetime as dt

from . import data

GNU_TIME = "/usr/bin/time"
YEAR_DAYS = 365
HAE_START = "2023-01-01"


class Failed(Exception):
    """A measured command failed, or the two imports disagree."""


def timed(command, env, stdin=None):
    """Runs `command` under GNU time: (wall, user, sys, peak RSS bytes, stdout)."""
    with open(os.devnull, "rb") if stdin is None else open(stdin, "rb") as source:
        result = subprocess.run([GNU_TIME, "-f", "%e %U %S %M", "-o", "/dev/stderr"] + command, env=env, stdin=source,
                                capture_output=True, text=True)
    last = result.stderr.strip().splitlines()[-1].split()
    if result.returncode != 0:
        raise Failed(f"exit {result.returncode}: {' '.join(command)}\n{result.stderr.strip()[-1500:]}")
    wall, user, system, rss = float(last[0]), float(last[1]), float(last[2]), int(last[3]) * 1024
    return wall, user, system, rss, result.stdout


def spread(values):
    return {"median": statistics.median(values), "low": min(values), "high": max(values)}


def generate(work, days, start, push_date=None):
    """The year's JSON and export.xml (cached in `work`), or a push body for `push_date`."""
    generator = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "gen_hae.py")
    if push_date:
        path = os.path.join(work, f"hae-push-{push_date}.json")
        if not os.path.exists(path):
            subprocess.run([sys.executable, generator, "--push", "--date", push_date, "--out", path], check=True,
                           stderr=subprocess.DEVNULL)
        return path
    json_path, xml_path = os.path.join(work, f"hae-{days}d.json"), os.path.join(work, f"hae-{days}d.xml")
    if not (os.path.exists(json_path) and os.path.exists(xml_path)):
        print(f"generating {json_path} and the same samples as {xml_path}…", file=sys.stderr)
        subprocess.run([sys.executable, generator, "--days", str(days), "--start", start, "--out", json_path + ".partial",
                        "--xml", xml_path + ".partial"], check=True, stderr=subprocess.DEVNULL)
        os.replace(json_path + ".partial", json_path)
        os.replace(xml_path + ".partial", xml_path)
    return json_path, xml_path


def year_import(binary, baseline, work, runs, env, step):
    """Scenario 9: the year's JSON and export.xml, each into a fresh store, alternated (and the baseline's JSON)."""
    json_path, xml_path = generate(work, YEAR_DAYS, HAE_START)
    size, xml_size = os.path.getsize(json_path), os.path.getsize(xml_path)
    env = dict(env, HKCTL_NOW="2024-01-02T12:00:00Z")
    sides = [("json", binary, json_path), ("xml", binary, xml_path)]
    if baseline:
        sides.append(("json-baseline", baseline, json_path))
    results = {name: [] for name, _, _ in sides}
    summaries = {}
    for round_ in range(runs):
        order = sides if round_ % 2 == 0 else list(reversed(sides))
        for name, program, path in order:
            store = os.path.join(work, f"hae-store-{name}")
            data.fresh(store)
            os.sync()
            step(f"round {round_ + 1}/{runs}: {name} import ({os.path.getsize(path) / 1e6:.0f} MB)")
            wall, user, system, rss, out = timed([program, "import", path], dict(env, HKCTL_STORE=store))
            results[name].append((wall, user + system, rss))
            summaries[name] = out.strip().splitlines()[-1]
    for name, _, path in sides:
        data.fresh(os.path.join(work, f"hae-store-{name}"))
    row = {}
    for name, _, path in sides:
        walls, cpus, rsses = ([r[i] for r in results[name]] for i in range(3))
        row[name] = {"bytes": os.path.getsize(path), "wall_s": spread(walls), "cpu_s": spread(cpus),
                     "mb_s_cpu": spread([size / 1e6 / c for c in cpus]) if name != "xml" else None,
                     "mb_s_wall": spread([size / 1e6 / w for w in walls]) if name != "xml" else None,
                     "peak_rss": max(rsses), "receipt_total": summaries[name]}
    row["json"]["xml_bytes"] = xml_size
    # The JSON's CPU time over the XML's, round by round.
    row["json_over_xml_cpu"] = spread([j[1] / x[1] for j, x in zip(results["json"], results["xml"])])
    return row


def push_days(first_day, rounds):
    return [(first_day + dt.timedelta(days=i)).isoformat() for i in range(rounds)]


def ten_year_store(binary, generator, work, env, step):
    """The 3,650-day export imported once into `hae-ten-years` (kept: pushes add to it, day after day)."""
    export = data.export_xml(generator, work, 3650)
    store = os.path.join(work, "hae-ten-years")
    if not os.path.exists(os.path.join(store, "hkctl-store.json")):
        step(f"importing {os.path.basename(export)} into {store} (once)")
        subprocess.run([binary, "import", export, "-q"], env=dict(env, HKCTL_STORE=store), stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL)
    with open(export, "rb") as f:
        head = f.read(1 << 16).decode("utf-8", "replace")
    after = head.split('<ExportDate value="', 1)[1][:10]
    return store, dt.date.fromisoformat(after)


def next_push_day(store, first_day):
    """The day after the last one pushed into `store` (kept in a note beside it), or `first_day`."""
    note = store + ".pushed"
    if os.path.exists(note):
        with open(note) as f:
            return dt.date.fromisoformat(f.read().strip()) + dt.timedelta(days=1)
    return first_day


def note_pushed(store, day):
    with open(store + ".pushed", "w") as f:
        f.write(day.isoformat())


def push(binary, baseline, generator, work, runs, env, step, serve=True):
    """Scenario 10: a day's push into the ten-year store, by `hkctl import FILE` and through `hkctl serve`."""
    store, first = ten_year_store(binary, generator, work, env, step)
    sides = [("import", binary)] + ([("import-baseline", baseline)] if baseline else [])
    results = {name: [] for name, _ in sides}
    day = next_push_day(store, first)
    added = {}
    for round_ in range(runs + 1):  # the first round warms the page cache and is not counted
        order = sides if round_ % 2 == 0 else list(reversed(sides))
        for name, program in order:
            body = generate(work, 0, "", push_date=day.isoformat())
            now = dt.datetime(day.year, day.month, day.day, 23, 30).isoformat() + "-08:00"
            if program == baseline:
                # A push batch passes the counter's block either way, so this costs the binary under test nothing.
                data.first_form_counter(store)
            wall, user, system, rss, out = timed([program, "import", body, "--format", "json"],
                                                 dict(env, HKCTL_STORE=store, HKCTL_NOW=now))
            receipt = json.loads(out)
            added[name] = receipt_added(receipt)
            if not added[name] or receipt.get("totals", {}).get("rejected"):
                raise Failed(f"the push of {day} stored nothing new or refused some: {receipt.get('totals')}")
            note_pushed(store, day)
            day += dt.timedelta(days=1)
            if round_:
                results[name].append((wall, user + system, rss))
        step(f"push round {round_}/{runs}: " + ", ".join(f"{n} {results[n][-1][0] * 1000:.0f} ms" for n, _ in sides
                                                         if round_ and results[n]))
    row = {name: {"wall_ms": spread([r[0] * 1000 for r in results[name]]),
                  "cpu_ms": spread([r[1] * 1000 for r in results[name]]), "peak_rss": max(r[2] for r in results[name]),
                  "added": added[name]} for name, _ in sides}
    if serve:
        row["serve"] = push_served(binary, store, work, runs, env, step)
    return row


def receipt_added(receipt):
    """Samples the receipt says were added (a push's 1,500 points give more: a heart-rate point is three samples)."""
    return receipt.get("totals", {}).get("added")


def push_served(binary, store, work, runs, env, step):
    """The same pushes through `hkctl serve` (started once, on a free port): the acknowledgement time per push."""
    serve_env = dict(env, HKCTL_STORE=store)
    token = subprocess.run([binary, "serve", "token", "create", "bench"], env=serve_env, capture_output=True,
                           text=True, check=False)
    if token.returncode != 0:
        # Already made by an earlier run: make a new one.
        subprocess.run([binary, "serve", "token", "revoke", "bench"], env=serve_env, capture_output=True)
        token = subprocess.run([binary, "serve", "token", "create", "bench"], env=serve_env, capture_output=True,
                               text=True, check=True)
    secret = token.stdout.strip().splitlines()[-1].strip()
    types = ",".join(sorted({m[2] for m in push_metrics()}))
    subprocess.run([binary, "auth", "grant", "bench", "--share", types], env=serve_env, capture_output=True, check=True)
    port = 18787 + os.getpid() % 1000
    day = next_push_day(store, dt.date.today())
    # The server's clock: the evening of the last day it is pushed, so no pushed sample is in its future.
    last = day + dt.timedelta(days=runs)
    now = dt.datetime(last.year, last.month, last.day, 23, 30).isoformat() + "-08:00"
    server = subprocess.Popen([binary, "serve", "--listen", f"127.0.0.1:{port}", "--quiet"],
                              env=dict(serve_env, HKCTL_NOW=now), stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        for _ in range(100):
            try:
                connection = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                connection.request("GET", "/health")
                connection.getresponse().read()
                break
            except OSError:
                time.sleep(0.05)
        latencies = []
        for round_ in range(runs + 1):
            body_path = generate(work, 0, "", push_date=day.isoformat())
            with open(body_path, "rb") as f:
                body = f.read()
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            start = time.perf_counter()
            connection.request("POST", "/ingest", body=body, headers={
                "Authorization": f"Bearer {secret}", "Content-Type": "application/json"})
            response = connection.getresponse()
            answer = response.read()
            seconds = time.perf_counter() - start
            if response.status != 200:
                raise Failed(f"serve answered {response.status}: {answer[:500]!r}")
            totals = json.loads(answer).get("totals", {})
            if not totals.get("added") or totals.get("rejected"):
                raise Failed(f"the served push of {day} stored nothing new or refused some: {totals}")
            note_pushed(store, day)
            day += dt.timedelta(days=1)
            if round_:
                latencies.append(seconds * 1000)
            step(f"served push {round_}/{runs}: {seconds * 1000:.0f} ms")
        return {"ack_ms": spread(latencies), "added": totals.get("added")}
    finally:
        server.send_signal(signal.SIGTERM)
        server.wait(timeout=30)


def push_metrics():
    sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    import gen_hae  # noqa: E402
    return gen_hae.PUSH_METRICS


def markdown(year, pushed, baseline):
    """The table of scenarios 9 and 10."""
    def r(s, fmt="{:.2f}"):
        return f"{fmt.format(s['median'])} ({fmt.format(s['low'])}–{fmt.format(s['high'])})"
    lines = ["| scenario | CPU (user+sys) | wall | MB/s of CPU | MB/s wall | peak RSS | target | met |",
             "| --- | ---: | ---: | ---: | ---: | ---: | --- | --- |"]
    if year:
        for name, label in [("json", "9. HAE JSON, a year"), ("json-baseline", f"9. HAE JSON, baseline {baseline}"),
                            ("xml", "9. the same samples as export.xml")]:
            if name not in year:
                continue
            row = year[name]
            mb = row["mb_s_cpu"]
            met = "" if name == "xml" else ("yes" if mb["median"] >= 100 else "no")
            lines.append(f"| {label} ({row['bytes'] / 1e6:.0f} MB) | {r(row['cpu_s'])} s | {r(row['wall_s'])} s | "
                         f"{r(mb, '{:.1f}') if mb else '–'} | {r(row['mb_s_wall'], '{:.1f}') if row['mb_s_wall'] else '–'} | "
                         f"{row['peak_rss'] / 1e6:.0f} MB | {'≥ 100 MB/s' if name != 'xml' else '–'} | {met} |")
    if pushed:
        for name, label in [("import", "10. a day's push, `hkctl import FILE`"),
                            ("import-baseline", f"10. the same, baseline {baseline}")]:
            if name in pushed:
                row = pushed[name]
                lines.append(f"| {label} | {r(row['cpu_ms'], '{:.0f}')} ms | {r(row['wall_ms'], '{:.0f}')} ms | – | – | "
                             f"{row['peak_rss'] / 1e6:.0f} MB | < 50 ms | {'yes' if row['wall_ms']['median'] < 50 else 'no'} |")
        if "serve" in pushed:
            ack = pushed["serve"]["ack_ms"]
            lines.append(f"| 10. a day's push through `hkctl serve` (acknowledged) | – | {r(ack, '{:.0f}')} ms | – | – | – | "
                         f"< 50 ms | {'yes' if ack['median'] < 50 else 'no'} |")
    return "\n".join(lines)
