"""The pieces of bench/run: processes (proc), data preparation (data), scenarios and checks (scenarios),
the table and JSON (report)."""
