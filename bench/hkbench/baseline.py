"""The fixed baseline (issue 32): an older hkctl, named by a binary path or a git revision, alternated with the binary
under test in every scenario. A revision is built once (`git archive` of it, `swift build -c release`) into a cache
folder outside the repository's tracked files, keyed by the full commit hash, and reused by later runs."""
import os, statistics, subprocess, sys

# The commit that closed the first performance issue (session 7): what every short command is held to.
DEFAULT_REVISION = "c802e02"
# A scenario whose median per-round ratio to the baseline is above 1 + SLOWER_BY is flagged as slower.
SLOWER_BY = 0.05


class BaselineError(Exception):
    """The baseline can be neither found as a binary nor resolved and built as a revision."""


def is_binary(spec, exists=os.path.isfile, executable=lambda p: os.access(p, os.X_OK)):
    """Whether `spec` names an executable file (taken as it is) rather than a revision. A spec that contains a slash
    but is no executable is an error, not a revision: `OLD/hkctl` mistyped must not be handed to git."""
    return exists(spec) and executable(spec)


def looks_like_path(spec):
    return os.sep in spec or spec.startswith(".")


def resolve_revision(package, revision):
    """The full commit hash of `revision` in the repository at `package`."""
    result = subprocess.run(["git", "-C", package, "rev-parse", "--verify", "--quiet", revision + "^{commit}"],
                            capture_output=True, text=True)
    if result.returncode != 0 or not result.stdout.strip():
        raise BaselineError(f"'{revision}' is neither an executable file nor a commit of {package}; give a path to an "
                            "hkctl binary or a git revision (e.g. c802e02)")
    return result.stdout.strip()


def cached_binary(cache, sha):
    """Where the release binary of commit `sha` is kept in `cache`."""
    return os.path.join(cache, sha, "scratch", "release", "hkctl")


def build_revision(package, revision, cache, log=sys.stderr):
    """The release hkctl of `revision`, built once into `cache`/<sha>/ (sources in src/, build in scratch/) and reused
    afterwards. A build that stopped half-way is resumed by the next run (swift build is incremental)."""
    sha = resolve_revision(package, revision)
    binary = cached_binary(cache, sha)
    if os.access(binary, os.X_OK) and os.path.exists(os.path.join(cache, sha, "built")):
        print(f"baseline {revision} ({sha[:7]}): reusing {binary}", file=log)
        return binary, sha
    source = os.path.join(cache, sha, "src")
    if not os.path.exists(os.path.join(source, "Package.swift")):
        os.makedirs(source, exist_ok=True)
        print(f"baseline {revision} ({sha[:7]}): git archive into {source}", file=log)
        archive = subprocess.Popen(["git", "-C", package, "archive", sha], stdout=subprocess.PIPE)
        subprocess.run(["tar", "-x", "-C", source], stdin=archive.stdout, check=True)
        if archive.wait() != 0:
            raise BaselineError(f"git archive {sha} failed")
    print(f"baseline {revision} ({sha[:7]}): swift build -c release (once; cached in {os.path.join(cache, sha)})",
          file=log)
    subprocess.run(["swift", "build", "-c", "release", "--scratch-path", os.path.join(cache, sha, "scratch")],
                   cwd=source, check=True, stdout=log)
    if not os.access(binary, os.X_OK):
        raise BaselineError(f"the release build of {sha[:7]} made no {binary}")
    open(os.path.join(cache, sha, "built"), "w").close()
    return binary, sha


def resolve(spec, package, cache, log=sys.stderr):
    """(binary path, label) for a baseline given as an executable path or as a git revision (built and cached)."""
    if is_binary(spec):
        return os.path.abspath(spec), spec
    if looks_like_path(spec):
        raise BaselineError(f"no executable hkctl at {spec}")
    binary, sha = build_revision(package, spec, cache, log)
    return binary, sha[:7] if sha.startswith(spec) else f"{spec} ({sha[:7]})"


def per_round_ratios(measured, baseline):
    """The ratio measured/baseline of each round (the two were run back to back in that round)."""
    return [a / b for a, b in zip(measured, baseline)]


def ratio_summary(measured, baseline):
    """Median, lowest and highest of the per-round ratios of two lists of seconds."""
    ratios = per_round_ratios(measured, baseline)
    if not ratios:
        raise ValueError("no rounds to compare")
    return {"median": statistics.median(ratios), "low": min(ratios), "high": max(ratios)}


def is_slower(summary, slower_by=SLOWER_BY):
    """Whether a scenario is slower than the baseline by more than `slower_by` (its median per-round ratio)."""
    return summary["median"] > 1 + slower_by


def ratio_text(summary):
    """`0.93 (0.88–1.01)`: the median per-round ratio and its range."""
    return f"{summary['median']:.2f} ({summary['low']:.2f}–{summary['high']:.2f})"
