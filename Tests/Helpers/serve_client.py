#!/usr/bin/env python3
"""A raw-socket HTTP client for the tests of `hkctl serve` (Tests/hkctlTests/Serve/ServeCLITests.swift).

Usage: serve_client.py PORT < scenarios.json > results.json

Each scenario is {"steps": [...], "shutdown": false, "timeout": 30}; a step is a string (sent as UTF-8 bytes), a number (seconds to
sleep) or {"signal": N, "pid": P} (sends signal N to process P, at that moment of the request). After the steps the client reads the answer until the server closes (giving up after "timeout" seconds without a byte, 30 unless given), and reports
{"status": int or null, "body": str, "head": str, "elapsed": seconds, "error": str or null}. A list of scenarios
under {"parallel": [...]} runs them at once, on threads, and reports a list.
"""
import json
import os
import socket
import sys
import threading
import time


def run(port, scenario):
    if "parallel" in scenario:
        results = [None] * len(scenario["parallel"])

        def worker(index, item):
            results[index] = run(port, item)

        threads = [threading.Thread(target=worker, args=(i, s)) for i, s in enumerate(scenario["parallel"])]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        return results
    start = time.monotonic()
    result = {"status": None, "body": "", "head": "", "elapsed": 0, "error": None}
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=scenario.get("timeout", 30)) as connection:
            try:
                for step in scenario["steps"]:
                    if isinstance(step, str):
                        connection.sendall(step.encode("utf-8"))
                    elif isinstance(step, dict):
                        os.kill(step["pid"], step["signal"])
                    else:
                        time.sleep(step)
                if scenario.get("shutdown"):
                    connection.shutdown(socket.SHUT_WR)
            except OSError as error:  # the server answered and closed early: read what it said
                result["error"] = "send: " + type(error).__name__
            data = b""
            while True:
                try:
                    chunk = connection.recv(65536)
                except OSError as error:
                    result["error"] = "recv: " + type(error).__name__
                    break
                if not chunk:
                    break
                data += chunk
    except OSError as error:
        result["error"] = "connect: " + type(error).__name__
        data = b""
    result["elapsed"] = time.monotonic() - start
    head, _, body = data.partition(b"\r\n\r\n")
    result["head"] = head.decode("latin-1")
    result["body"] = body.decode("utf-8", "replace")
    parts = result["head"].split(" ")
    if len(parts) > 1 and parts[1].isdigit():
        result["status"] = int(parts[1])
    return result


def main():
    port = int(sys.argv[1])
    scenarios = json.load(sys.stdin)
    json.dump([run(port, scenario) for scenario in scenarios], sys.stdout)


if __name__ == "__main__":
    main()
