"""Unit tests of bench/gen_hae.py and bench/hkbench/storecmp.py (scenarios 9 and 10): run with
`python3 -m unittest discover bench` (a few seconds; they build nothing and time nothing)."""
import json, os, subprocess, sys, tempfile, unittest

sys.dont_write_bytecode = True
HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from hkbench import storecmp  # noqa: E402

GENERATOR = os.path.join(HERE, "gen_hae.py")


def generate(*arguments):
    return subprocess.run([sys.executable, GENERATOR, *arguments, "--out", "-"], capture_output=True, text=True,
                          check=True)


class GeneratorTests(unittest.TestCase):
    def test_a_push_has_exactly_its_points_over_twenty_metrics_and_is_the_same_each_time(self):
        first = generate("--push", "--date", "2033-01-05")
        metrics = json.loads(first.stdout)["data"]["metrics"]
        self.assertEqual(len(metrics), 20)
        self.assertEqual(sum(len(metric["data"]) for metric in metrics), 1500)
        self.assertEqual(generate("--push", "--date", "2033-01-05").stdout, first.stdout)
        # Pretty-printed as the app writes it, raw UTF-8 source names.
        self.assertIn('"source" : "Jane\u2019s', first.stdout)
        self.assertTrue(all(point["date"].startswith("2033-01-05") for metric in metrics for point in metric["data"]))

    def test_the_export_xml_holds_one_record_per_point(self):
        with tempfile.TemporaryDirectory() as folder:
            xml = os.path.join(folder, "export.xml")
            result = subprocess.run([sys.executable, GENERATOR, "--days", "2", "--out", "-", "--xml", xml],
                                    capture_output=True, text=True, check=True)
            points = sum(len(metric["data"]) for metric in json.loads(result.stdout)["data"]["metrics"])
            with open(xml, encoding="utf-8") as f:
                records = f.read().count("<Record ")
        self.assertEqual(records, points)
        self.assertEqual(json.loads(result.stderr)["points"], points)


class StoreComparisonTests(unittest.TestCase):
    def store(self, folder, line):
        os.makedirs(os.path.join(folder, "samples", "T"))
        with open(os.path.join(folder, "samples", "T", "2024-01.jsonl"), "w") as f:
            f.write(line)
        with open(os.path.join(folder, ".lock"), "w") as f:
            f.write(folder)

    def test_stores_that_differ_only_in_uuids_are_the_same(self):
        with tempfile.TemporaryDirectory() as a, tempfile.TemporaryDirectory() as b:
            self.store(a, '{"uuid":"11111111-1111-4111-8111-111111111111","value":1}\n')
            self.store(b, '{"uuid":"22222222-2222-4222-8222-222222222222","value":1}\n')
            self.assertIsNone(storecmp.difference(a, b))

    def test_another_value_or_another_order_of_uuids_is_a_difference(self):
        with tempfile.TemporaryDirectory() as a, tempfile.TemporaryDirectory() as b:
            self.store(a, '{"uuid":"11111111-1111-4111-8111-111111111111","value":1}\n')
            self.store(b, '{"uuid":"22222222-2222-4222-8222-222222222222","value":2}\n')
            self.assertIn("line 1", storecmp.difference(a, b))
        same = "11111111-1111-4111-8111-111111111111"
        other = "33333333-3333-4333-8333-333333333333"
        with tempfile.TemporaryDirectory() as a, tempfile.TemporaryDirectory() as b:
            # The same uuid twice against two different ones: not the same store.
            self.store(a, f'{{"uuid":"{same}"}}\n{{"uuid":"{same}"}}\n')
            self.store(b, f'{{"uuid":"{same}"}}\n{{"uuid":"{other}"}}\n')
            self.assertIsNotNone(storecmp.difference(a, b))


if __name__ == "__main__":
    unittest.main()
