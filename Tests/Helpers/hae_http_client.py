#!/usr/bin/env python3
"""An HTTP client on Python's http.client for the second independent tests of `hkctl serve`
(Tests/hkctlTests/HAEIndependent2ServeTests.swift).

Usage: hae_http_client.py PORT < plan.json > answers.json

plan.json is {"parallel": bool, "requests": [request, ...]}; a request is
  {"method": "POST", "path": "/ingest", "headers": {"Name": "value"}, "body": "text sent as UTF-8"}
or {"raw": "bytes as text (latin-1), sent as they are on a new connection"},
and may carry {"kill": {"pid": P, "after": seconds}}: SIGKILL is sent to P that long after the request started
(the answer is then usually an error). The answers come back in the order of the requests:
  {"status": int or null, "body": str, "error": str or null}.
With "parallel" every request runs at once on its own thread and connection.
"""
import http.client
import json
import os
import signal
import socket
import sys
import threading


def answer_raw(port, raw):
    with socket.create_connection(("127.0.0.1", port), timeout=30) as connection:
        try:
            connection.sendall(raw.encode("latin-1"))
        except OSError:
            pass
        data = b""
        while True:
            try:
                chunk = connection.recv(65536)
            except OSError:
                break
            if not chunk:
                break
            data += chunk
    head, _, body = data.partition(b"\r\n\r\n")
    first = head.split(b"\r\n", 1)[0].decode("latin-1")
    parts = first.split(" ")
    status = int(parts[1]) if len(parts) > 1 and parts[1].isdigit() else None
    return {"status": status, "body": body.decode("utf-8", "replace"), "error": None}


def run(port, request):
    killer = None
    if "kill" in request:
        kill = request["kill"]
        killer = threading.Timer(kill["after"], lambda: os.kill(kill["pid"], signal.SIGKILL))
        killer.start()
    try:
        if "raw" in request:
            return answer_raw(port, request["raw"])
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        try:
            body = request.get("body")
            connection.request(request.get("method", "POST"), request.get("path", "/ingest"),
                               body=body.encode("utf-8") if body is not None else None,
                               headers=request.get("headers", {}))
            response = connection.getresponse()
            return {"status": response.status, "body": response.read().decode("utf-8", "replace"), "error": None}
        finally:
            connection.close()
    except (OSError, http.client.HTTPException) as error:
        return {"status": None, "body": "", "error": type(error).__name__}
    finally:
        if killer is not None:
            killer.join()


def main():
    port = int(sys.argv[1])
    plan = json.load(sys.stdin)
    requests = plan["requests"]
    answers = [None] * len(requests)
    if plan.get("parallel"):
        def worker(index):
            answers[index] = run(port, requests[index])
        threads = [threading.Thread(target=worker, args=(index,)) for index in range(len(requests))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
    else:
        for index, request in enumerate(requests):
            answers[index] = run(port, request)
    json.dump(answers, sys.stdout)


if __name__ == "__main__":
    main()
