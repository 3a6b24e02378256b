"""Unit tests of bench/run's baseline logic (issue 32): run on demand with `python3 -m unittest discover bench`
(about a second; they build nothing and time nothing)."""
import io, os, stat, subprocess, sys, tempfile, unittest

sys.dont_write_bytecode = True
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from hkbench import baseline, report  # noqa: E402

PACKAGE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def timing(hk_runs, old_runs, sq_runs):
    """A scenario's timing as scenarios.time_pair makes it, from lists of seconds."""
    hk = {"median_s": sorted(hk_runs)[len(hk_runs) // 2], "peak_rss": 5e6,
          "ratio": baseline.ratio_summary(hk_runs, sq_runs)["median"],
          "vs_baseline": baseline.ratio_summary(hk_runs, old_runs)}
    return {"hkctl": hk, "sqlite3": {"median_s": sorted(sq_runs)[len(sq_runs) // 2], "peak_rss": 4e6},
            "baseline": {"median_s": sorted(old_runs)[len(old_runs) // 2], "peak_rss": 5e6}}


class RatioTests(unittest.TestCase):
    def test_ratios_are_per_round_and_the_range_is_their_extremes(self):
        summary = baseline.ratio_summary([1.0, 2.0, 3.3], [1.0, 1.0, 3.0])
        self.assertAlmostEqual(summary["median"], 1.1)
        self.assertAlmostEqual(summary["low"], 1.0)
        self.assertAlmostEqual(summary["high"], 2.0)

    def test_median_of_ratios_is_not_the_ratio_of_medians(self):
        measured, old = [1.0, 4.0, 2.0, 2.0], [2.0, 1.0, 2.0, 1.0]
        self.assertAlmostEqual(baseline.ratio_summary(measured, old)["median"], 1.5)  # ratios 0.5, 4, 1, 2

    def test_no_rounds_is_an_error(self):
        with self.assertRaises(ValueError):
            baseline.ratio_summary([], [])

    def test_slower_means_more_than_five_percent(self):
        self.assertFalse(baseline.is_slower({"median": 1.05, "low": 1.0, "high": 1.1}))
        self.assertTrue(baseline.is_slower({"median": 1.0501, "low": 1.0, "high": 1.1}))
        self.assertFalse(baseline.is_slower({"median": 0.7, "low": 0.6, "high": 1.3}))

    def test_ratio_text_gives_median_and_range(self):
        self.assertEqual(baseline.ratio_text({"median": 0.934, "low": 0.881, "high": 1.012}), "0.93 (0.88–1.01)")


class ResolveTests(unittest.TestCase):
    def test_an_executable_file_is_a_binary_and_anything_else_is_not(self):
        self.assertTrue(baseline.is_binary("x", exists=lambda p: True, executable=lambda p: True))
        self.assertFalse(baseline.is_binary("x", exists=lambda p: True, executable=lambda p: False))
        self.assertFalse(baseline.is_binary("c802e02", exists=lambda p: False, executable=lambda p: True))

    def test_a_missing_path_is_an_error_not_a_revision(self):
        with self.assertRaisesRegex(baseline.BaselineError, "no executable hkctl at OLD/hkctl"):
            baseline.resolve("OLD/hkctl", PACKAGE, "/nonexistent-cache", io.StringIO())

    def test_an_unknown_revision_is_named(self):
        with self.assertRaisesRegex(baseline.BaselineError, "'no-such-rev-32' is neither"):
            baseline.resolve_revision(PACKAGE, "no-such-rev-32")

    def test_an_executable_path_is_taken_as_it_is(self):
        with tempfile.NamedTemporaryFile(suffix="-hkctl") as f:
            os.chmod(f.name, stat.S_IRWXU)
            self.assertEqual(baseline.resolve(f.name, PACKAGE, "/nonexistent-cache", io.StringIO()), (f.name, f.name))

    def test_a_revision_already_built_is_reused_without_building(self):
        sha = subprocess.run(["git", "-C", PACKAGE, "rev-parse", "HEAD"], capture_output=True, text=True,
                             check=True).stdout.strip()
        with tempfile.TemporaryDirectory() as cache:
            binary = baseline.cached_binary(cache, sha)
            os.makedirs(os.path.dirname(binary))
            with open(binary, "w") as f:
                f.write("#!/bin/sh\n")
            os.chmod(binary, stat.S_IRWXU)
            open(os.path.join(cache, sha, "built"), "w").close()
            log = io.StringIO()
            self.assertEqual(baseline.resolve("HEAD", PACKAGE, cache, log), (binary, f"HEAD ({sha[:7]})"))
            self.assertIn("reusing", log.getvalue())
            self.assertEqual(baseline.resolve(sha[:9], PACKAGE, cache, log)[1], sha[:7])


class TableTests(unittest.TestCase):
    def test_rows_carry_the_baseline_and_flag_a_slower_scenario(self):
        table = report.Table("c802e02")
        table.query("0. start-up floor", timing([1.0, 1.0, 1.0], [1.0, 1.01, 0.99], [2.0, 2.0, 2.0]), None)
        table.query("5. latest 20 water samples", timing([1.2, 1.1, 1.3], [1.0, 1.0, 1.0], [2.0, 2.0, 2.0]), 0.9)
        self.assertEqual(table.slower(), ["5. latest 20 water samples"])
        text = table.markdown()
        self.assertIn("| ratio hkctl/baseline (range) | ratio hkctl/sqlite3 (range) |", text.splitlines()[0])
        self.assertIn("| 1.20 (1.10–1.30) **slower** |", text)
        self.assertIn("| 1.00 (0.99–1.01) |", text)

    def test_without_a_baseline_the_table_keeps_its_columns(self):
        table = report.Table()
        row = timing([1.0], [1.0], [2.0])
        del row["baseline"], row["hkctl"]["vs_baseline"]
        table.query("0. start-up floor", row, None)
        self.assertNotIn("baseline", table.markdown())
        self.assertEqual(table.slower(), [])

    def test_an_import_slower_than_the_baseline_is_flagged(self):
        table = report.Table("c802e02")
        hk = {"bytes": 1e8, "seconds": 1.2, "mb_s": 83.3, "peak_rss": 8e7}
        table.import_(hk, None, "not run", {"seconds": 1.0, "mb_s": 100.0})
        self.assertIn("1.20 (one run each) **slower**", table.markdown())



class FirstFormCounterTests(unittest.TestCase):
    """data.first_form_counter: the counter a baseline binary from before reserved blocks can read."""

    def counter_after(self, text):
        from hkbench import data
        with tempfile.TemporaryDirectory() as store:
            path = os.path.join(store, "sequence")
            with open(path, "wb") as f:
                f.write(text)
            changed = data.first_form_counter(store)
            with open(path, "rb") as f:
                return changed, f.read()

    def test_this_boots_last_number_is_kept(self):
        from hkbench import data
        boot = data.boot_id() or "unknown"
        text = b"00000000000000000003\nreserved 00000000000000001027 boot %s\n" % boot.encode()
        expected = b"00000000000000000003\n" if data.boot_id() else b"00000000000000001027\n"
        self.assertEqual(self.counter_after(text), (True, expected))

    def test_another_boots_block_end_is_taken(self):
        text = b"00000000000000000003\nreserved 00000000000000001027 boot 00000000-0000-4000-8000-000000000000\n"
        self.assertEqual(self.counter_after(text), (True, b"00000000000000001027\n"))

    def test_the_first_form_is_left_alone(self):
        self.assertEqual(self.counter_after(b"00000000000000000012\n"), (False, b"00000000000000000012\n"))


class FreshCopyTests(unittest.TestCase):
    """bench/run times copies of both binaries made at its start, never the files it was given."""

    def test_each_binary_gets_a_new_file_with_the_same_bytes_and_none_stays_none(self):
        from hkbench import proc
        with tempfile.TemporaryDirectory() as folder:
            original = os.path.join(folder, "hkctl")
            with open(original, "wb") as f:
                f.write(b"\x7fELF binary bytes")
            work = os.path.join(folder, "work")
            os.makedirs(work)
            measured, baseline, missing = proc.fresh_copies([original, original, None], work)
            self.assertIsNone(missing)
            self.assertNotEqual(measured, baseline)
            for copy in (measured, baseline):
                self.assertNotEqual(os.stat(copy).st_ino, os.stat(original).st_ino)
                self.assertTrue(os.access(copy, os.X_OK))
                with open(copy, "rb") as f:
                    self.assertEqual(f.read(), b"\x7fELF binary bytes")
            again, = proc.fresh_copies([original], work)  # a second run replaces the first run's copy
            self.assertEqual(again, measured)
            self.assertTrue(os.path.exists(again))


if __name__ == "__main__":
    unittest.main()
