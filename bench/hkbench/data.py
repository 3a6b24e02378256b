"""The data both sides answer from: a synthetic Apple Health export (cached), hkctl's store imported from it, and
the same records, exported back out by hkctl, loaded into SQLite as the baseline."""
import datetime as dt, json, os, shutil, sqlite3, subprocess, sys
from zoneinfo import ZoneInfo

from . import proc

# gen_export.py's home zone (HOME = America/Los_Angeles): local days and months are this zone's.
ZONE_NAME = "America/Los_Angeles"
ZONE = ZoneInfo(ZONE_NAME)
STEPS = "HKQuantityTypeIdentifierStepCount"
HEART_RATE = "HKQuantityTypeIdentifierHeartRate"
WATER = "HKQuantityTypeIdentifierDietaryWater"


def build(package, scratch):
    """`swift build -c release` into its own scratch folder; the path of the binary it made."""
    print(f"building: swift build -c release --scratch-path {scratch}", file=sys.stderr)
    subprocess.run(["swift", "build", "-c", "release", "--scratch-path", scratch], cwd=package, check=True,
                   stdout=sys.stderr)
    return os.path.join(scratch, "release", "hkctl")


def export_xml(generator, work, days):
    """The export of `days` days, generated once per work folder and reused afterwards."""
    path = os.path.join(work, f"export-{days}d.xml")
    if os.path.exists(path):
        print(f"reusing {path}", file=sys.stderr)
        return path
    print(f"generating {path} ({days} days)…", file=sys.stderr)
    partial = path + ".partial"
    subprocess.run([sys.executable, generator, "--days", str(days), "--out", partial], check=True,
                   stderr=subprocess.DEVNULL)
    os.replace(partial, path)
    return path


def fresh(path):
    """Removes a file or folder left by an earlier run."""
    if os.path.isdir(path):
        shutil.rmtree(path)
    elif os.path.exists(path):
        os.remove(path)


def boot_id():
    """The kernel's identity of this boot (Linux), or None."""
    try:
        with open("/proc/sys/kernel/random/boot_id") as f:
            return f.read().strip()
    except OSError:
        return None


def first_form_counter(store):
    """Rewrites `store`'s change counter (`sequence`) in its first form, the last number alone, which hkctl binaries
    from before the counter's reserved blocks (commit 871c57e) read; they stop on the second line a newer binary
    writes. The number is the one the writers of this boot handed out last, or the block's end when the file names
    another boot (docs/STORE.md, "Reserved blocks"), so nothing is handed out twice. A newer binary reads the first
    form as before and reserves a new block at its next write. Returns whether the file changed."""
    path = os.path.join(store, "sequence")
    if not os.path.exists(path):
        return False
    with open(path, "rb") as f:
        lines = f.read().split(b"\n")
    if len(lines) < 2 or not lines[1].startswith(b"reserved "):
        return False
    last = int(lines[0])
    _, reserved, _, boot = lines[1].decode().split(" ")
    if boot != boot_id():
        last = max(last, int(reserved))
    with open(path, "r+b") as f:
        f.write(b"%020d\n" % last)
        f.truncate()
        os.fsync(f.fileno())
    return True


def baseline_copy(store, suffix="-baseline"):
    """A copy of `store` beside it, with its counter in the first form, for a baseline binary to write to."""
    copy = store + suffix
    fresh(copy)
    shutil.copytree(store, copy, symlinks=True)
    first_form_counter(copy)
    return copy


def folder_size(path):
    return sum(os.path.getsize(os.path.join(folder, name)) for folder, _, names in os.walk(path) for name in names)


def epoch(text):
    """Unix seconds of an ISO 8601 time with offset (an int when whole)."""
    seconds = dt.datetime.fromisoformat(text).timestamp()
    return int(seconds) if seconds == int(seconds) else seconds


def load_sqlite(jsonl, db_path):
    """Loads hkctl's jsonl export into `samples(type, start, end, value, unit, source)` with an index on
    (type, start), in the export's order (type by type, in time order, as an import would). Returns the row count."""
    fresh(db_path)
    db = sqlite3.connect(db_path)
    db.execute("PRAGMA synchronous = OFF")  # this connection only: the loading, not the measured inserts
    db.execute("CREATE TABLE samples (type TEXT, start, end, value, unit TEXT, source TEXT)")
    rows, count = [], 0
    with open(jsonl, encoding="utf-8") as f:
        for line in f:
            record = json.loads(line)
            rows.append((record["type"], epoch(record["start"]), epoch(record["end"]), record.get("value"),
                         record.get("unit"), record.get("source")))
            if len(rows) == 100_000:
                db.executemany("INSERT INTO samples VALUES (?,?,?,?,?,?)", rows)
                count += len(rows)
                rows.clear()
    db.executemany("INSERT INTO samples VALUES (?,?,?,?,?,?)", rows)
    count += len(rows)
    db.execute("CREATE INDEX samples_type_start ON samples (type, start)")
    db.commit()
    db.close()
    return count


def data_days(db_path):
    """The first and last local day of the step data (the range the queries are chosen from)."""
    db = sqlite3.connect(db_path)
    first, last = db.execute("SELECT min(start), max(start) FROM samples WHERE type = ?", (STEPS,)).fetchone()
    db.close()
    if first is None:
        raise SystemExit("the store has no step samples: the export or its import is wrong")
    return (dt.datetime.fromtimestamp(first, ZONE).date(), dt.datetime.fromtimestamp(last, ZONE).date())


def midnight(day):
    """Unix seconds of local midnight starting `day`."""
    return int(dt.datetime(day.year, day.month, day.day, tzinfo=ZONE).timestamp())


def peer_command(work, allowed):
    """healthkit-to-sqlite from PyPI, installed once into a throwaway venv in the work folder.
    Returns (path, None) or (None, why not)."""
    if not allowed:
        return None, "not run (--no-peer)"
    venv = os.path.join(work, "peer-venv")
    tool = os.path.join(venv, "bin", "healthkit-to-sqlite")
    if os.path.exists(tool):
        return tool, None
    print("installing healthkit-to-sqlite into a throwaway venv…", file=sys.stderr)
    try:
        subprocess.run([sys.executable, "-m", "venv", venv], check=True, capture_output=True, timeout=300)
        subprocess.run([os.path.join(venv, "bin", "pip"), "install", "-q", "--disable-pip-version-check",
                        "--timeout", "20", "--retries", "1", "healthkit-to-sqlite"],
                       check=True, capture_output=True, timeout=600)
    except (OSError, subprocess.SubprocessError) as error:
        fresh(venv)
        detail = getattr(error, "stderr", b"") or b""
        return None, f"healthkit-to-sqlite could not be installed ({error}; {detail.decode()[-300:].strip()})"
    return tool, None


def peer_version(peer):
    """healthkit-to-sqlite's version, from its venv."""
    python = os.path.join(os.path.dirname(peer), "python")
    found = subprocess.run([python, "-c", "import importlib.metadata as m; print(m.version('healthkit-to-sqlite'))"],
                           capture_output=True, text=True)
    return found.stdout.strip() or "unknown"
