#!/usr/bin/env python3
"""Creates a realistic population of Wayfinder sessions through the HTTP API.

Each session is created signed in (a JWT of the benchmarks' identity provider, jwt.py; a binary
from before identities, measured for comparison, ignores it and is told in the context instead),
so the application starts in the main tabs; every session then selects the `todos` tab (or the one --tab names); with
the todos tab, every SEVENTH session also adds a todo (addTodo, then saveTodo). Keep-alive connections (http.client), one per worker thread.

Writes `id token` lines to OUT and one GET /v1/sessions/{id} body of a walked session to --sample.
Exit status 1 if any call answers other than expected.
"""
import argparse, http.client, json, os, sys, threading, time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import jwt  # noqa: E402 - the benchmarks' identity provider, beside this file

def main():
    p = argparse.ArgumentParser()
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--count", type=int, required=True)
    p.add_argument("--workers", type=int, default=16)
    p.add_argument("--out", required=True)
    p.add_argument("--sample", help="write the GET body of one walked session here")
    p.add_argument("--tab", default="todos", help="the tab each session selects")
    a = p.parse_args()

    results = [None] * a.count
    errors = []
    next_index = [0]
    lock = threading.Lock()
    claimed = [False]

    def call(conn, method, path, body=None, token=None, headers=None):
        headers = dict(headers or {})
        if body is not None:
            headers["Content-Type"] = "application/json"
        if token:
            headers["Authorization"] = "Bearer " + token
        conn.request(method, path, body=json.dumps(body) if body is not None else None, headers=headers)
        r = conn.getresponse()
        data = r.read()
        if not 200 <= r.status < 300:
            raise RuntimeError(f"{method} {path} -> {r.status} {data[:200]!r}")
        return data

    def worker():
        conn = http.client.HTTPConnection("127.0.0.1", a.port, timeout=30)
        while True:
            with lock:
                i = next_index[0]
                next_index[0] += 1
            if i >= a.count or errors:
                break
            try:
                user = f"user{i}@example.com"
                created = None
                if not claimed[0]:
                    created = json.loads(call(conn, "POST", "/v1/sessions", {"context": {"onboarded": True}},
                                              headers={"Authorization": "Bearer " + jwt.token(user)}))
                    if not created["state"]["context"].get("authenticated"):
                        claimed[0] = True  # a binary without identities: it takes the context's word
                        created = None
                if created is None:
                    created = json.loads(call(conn, "POST", "/v1/sessions", {"context": {
                        "onboarded": True, "authenticated": True, "user": user}}))
                sid, token = created["id"], created["token"]
                base = f"/v1/sessions/{sid}"
                call(conn, "POST", base + "/tab", {"tab": a.tab}, token)
                if a.tab == "todos" and i % 7 == 0:
                    call(conn, "POST", base + "/routes", {"route": "addTodo"}, token)
                    call(conn, "POST", base + "/routes", {"route": "saveTodo",
                         "params": {"title": f"Buy milk #{i}", "description": "two litres, semi-skimmed"}}, token)
                results[i] = (sid, token)
            except Exception as e:  # noqa: BLE001 - reported and fatal
                errors.append(f"session {i}: {e}")
                break
        conn.close()

    start = time.monotonic()
    threads = [threading.Thread(target=worker) for _ in range(a.workers)]
    for t in threads: t.start()
    for t in threads: t.join()
    elapsed = time.monotonic() - start
    if errors:
        print("populate: " + errors[0], file=sys.stderr)
        return 1
    with open(a.out, "w") as f:
        for sid, token in results:
            f.write(f"{sid} {token}\n")
    if a.sample:
        sid, token = results[1 if a.count > 1 else 0]  # the common shape: todos tab, no todo added
        conn = http.client.HTTPConnection("127.0.0.1", a.port, timeout=30)
        body = call(conn, "GET", f"/v1/sessions/{sid}", token=token)
        with open(a.sample, "wb") as f:
            f.write(body)
    print(f"populate: {a.count} sessions in {elapsed:.1f} s ({a.count / elapsed:.0f} sessions/s, "
          f"{a.workers} connections)", file=sys.stderr)
    return 0

if __name__ == "__main__":
    sys.exit(main())
