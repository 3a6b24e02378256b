"""Running one process and measuring it: wall time (spawn to reap) and the child's own peak RSS."""
import os, platform, re, shutil, subprocess, sys, tempfile, time


class CommandFailed(Exception):
    """A measured command exited non-zero."""


GNU_TIME = "/usr/bin/time"


class Result:
    """One finished process: wall seconds, peak RSS in bytes (None unless measured), exit status, stdout, stderr."""

    def __init__(self, seconds, rss, status, out, err):
        self.seconds, self.rss, self.status, self.out, self.err = seconds, rss, status, out, err


def run(command, env, check=True, measure_rss=False):
    """Runs `command` (stdin /dev/null, stdout and stderr to temporary files) with posix_spawn, so the harness adds
    the same small cost to every command, and times it from spawn to reap.

    Peak RSS (measure_rss) goes through GNU time (`/usr/bin/time -f %M`), which forks the command from its own small
    process: a child of this Python process would report Python's RSS at exec as its own peak (Linux keeps the
    larger of the old and the new address space's high-water mark in ru_maxrss). The wrapper costs an extra exec,
    so timed runs never measure RSS and RSS runs are not timed."""
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err, \
            tempfile.NamedTemporaryFile(mode="r", suffix=".rss") as rss_file:
        if measure_rss:
            command = [GNU_TIME, "-f", "%M", "-o", rss_file.name] + list(command)
        actions = [(os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
                   (os.POSIX_SPAWN_DUP2, out.fileno(), 1), (os.POSIX_SPAWN_DUP2, err.fileno(), 2)]
        start = time.perf_counter()
        pid = os.posix_spawn(command[0], command, env, file_actions=actions)
        _, status, _ = os.wait4(pid, 0)
        seconds = time.perf_counter() - start
        out.seek(0)
        err.seek(0)
        rss = None
        if measure_rss:
            lines = rss_file.read().strip().splitlines()
            rss = int(lines[-1]) * 1024 if lines and lines[-1].isdigit() else None
        result = Result(seconds, rss, os.waitstatus_to_exitcode(status),
                        out.read().decode("utf-8", "replace"), err.read().decode("utf-8", "replace"))
    if check and result.status != 0:
        raise CommandFailed(f"exit {result.status}: {' '.join(command)}\n{result.err.strip()[-2000:]}")
    return result


def fresh_copies(binaries, work):
    """Each binary copied to a new file in work/bin (its own inode, read afresh), in order; None stays None.

    A binary file written long ago runs measurably slower here than a fresh copy of the same bytes (10-25 % on the
    short scenarios, session 24: the page cache holds an old file differently), so the measured build, always just
    made, would beat an older baseline for no reason of its code. Both sides run from copies made now.
    """
    folder = os.path.join(work, "bin")
    os.makedirs(folder, exist_ok=True)
    copies = []
    for index, binary in enumerate(binaries):
        if binary is None:
            copies.append(None)
            continue
        copy = os.path.join(folder, f"hkctl-{index}")
        if os.path.exists(copy):
            os.remove(copy)
        shutil.copyfile(binary, copy)
        os.chmod(copy, 0o755)
        copies.append(copy)
    return copies


def can_measure_rss():
    return os.access(GNU_TIME, os.X_OK)


def peak_rss(command, env, runs=3):
    """The largest peak RSS of `runs` runs, in bytes; None without GNU time."""
    if not can_measure_rss():
        return None
    values = [run(command, env, measure_rss=True).rss for _ in range(runs)]
    return max(v for v in values if v is not None) if any(v is not None for v in values) else None


def settle_disk():
    """Writes out every dirty page first (`sync`), so an import is not charged for writes that earlier steps (an
    earlier store's removal, the SQLite load of a previous run) left to the kernel."""
    os.sync()


def read_through(path):
    """Reads a file once, so that a timed command finds it in the page cache whatever ran before (a previous run's
    cold-cache scenarios empty it: the first import of a run then read its export from the disk, the baseline's
    second one from memory, and the measured binary looked 1.1-1.6 times slower, session 36)."""
    with open(path, "rb") as f:
        while f.read(1 << 20):
            pass


def drop_page_cache():
    """Empties the kernel's page cache (root only). Returns None on success, else why it could not."""
    try:
        os.sync()
        with open("/proc/sys/vm/drop_caches", "w") as control:
            control.write("3\n")
        return None
    except OSError as error:
        return f"cannot drop the page cache ({error.strerror}: needs root and a writable /proc/sys/vm/drop_caches)"


def _first_line(command):
    try:
        text = subprocess.run(command, capture_output=True, text=True, timeout=60).stdout
        return text.strip().splitlines()[0] if text.strip() else "unknown"
    except (OSError, subprocess.SubprocessError):
        return "unknown"


def is_static(binary):
    """Whether an ELF executable has no program interpreter (no dynamic loader): a fully static executable."""
    with open(binary, "rb") as f:
        head = f.read(1 << 16)
    return b"/lib64/ld-linux" not in head and b"/lib/ld-linux" not in head


def machine(binary, sqlite3_path):
    """What the numbers were measured on."""
    cpu = "unknown"
    try:
        with open("/proc/cpuinfo") as f:
            match = re.search(r"^model name\s*:\s*(.+)$", f.read(), re.M)
            cpu = match.group(1) if match else cpu
        with open("/proc/meminfo") as f:
            memory = int(re.search(r"MemTotal:\s+(\d+)", f.read()).group(1)) * 1024
    except (OSError, AttributeError):
        memory = 0
    return {
        "os": f"{platform.system()} {platform.release()} {platform.machine()}",
        "cpu": cpu, "cores": os.cpu_count(), "memory_gib": round(memory / 2**30, 1),
        "load_average": [round(x, 2) for x in os.getloadavg()],
        "swift": _first_line(["swift", "--version"]) if shutil.which("swift") else "not installed",
        "sqlite3": _first_line([sqlite3_path, "--version"]).split(" ")[0],
        "python": sys.version.split()[0],
        "binary": binary, "binary_mb": round(os.path.getsize(binary) / 1e6, 1), "binary_static": is_static(binary),
    }
