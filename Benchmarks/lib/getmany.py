#!/usr/bin/env python3
"""GETs every session of an `id token` file (or the first --count) through the API with keep-alive
connections; fails unless each answers 200 with its own id in the state."""
import argparse, http.client, sys, threading, time

def main():
    p = argparse.ArgumentParser()
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--sessions", required=True)
    p.add_argument("--count", type=int, default=0)
    p.add_argument("--workers", type=int, default=8)
    a = p.parse_args()
    pairs = [line.split() for line in open(a.sessions) if line.strip()]
    if a.count:
        pairs = pairs[: a.count]
    errors, lock, index = [], threading.Lock(), [0]

    def worker():
        conn = http.client.HTTPConnection("127.0.0.1", a.port, timeout=30)
        while not errors:
            with lock:
                i = index[0]; index[0] += 1
            if i >= len(pairs):
                break
            sid, token = pairs[i]
            conn.request("GET", f"/v1/sessions/{sid}", headers={"Authorization": f"Bearer {token}"})
            r = conn.getresponse(); body = r.read()
            if r.status != 200 or f'"session":"{sid}"'.encode() not in body:
                errors.append(f"GET {sid}: {r.status} {body[:200]!r}")

    start = time.monotonic()
    threads = [threading.Thread(target=worker) for _ in range(a.workers)]
    for t in threads: t.start()
    for t in threads: t.join()
    if errors:
        sys.exit("getmany: " + errors[0])
    print(f"getmany: {len(pairs)} sessions read, all 200 with their own id, in {time.monotonic() - start:.1f} s",
          file=sys.stderr)

if __name__ == "__main__":
    main()
