#!/usr/bin/env python3
"""kill -9 check for the SQLite store. `write`: triggers addTodo/cancel on the first --count
sessions (8 keep-alive connections) and records the revision of each session's last 2xx (ETag).
`verify` (after the server was killed with SIGKILL and restarted on the same file): every session
must answer 200 with exactly that revision."""
import argparse, http.client, json, sys, threading

def main():
    p = argparse.ArgumentParser()
    p.add_argument("phase", choices=["write", "verify"])
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--sessions", required=True)
    p.add_argument("--record", required=True)
    p.add_argument("--count", type=int, default=300)
    p.add_argument("--steps", type=int, default=3)
    a = p.parse_args()
    pairs = [line.split() for line in open(a.sessions) if line.strip()][: a.count]
    errors, lock, index, revisions = [], threading.Lock(), [0], {}
    expected = {}
    if a.phase == "verify":
        for line in open(a.record):
            sid, rev = line.split()
            expected[sid] = rev

    def worker():
        conn = http.client.HTTPConnection("127.0.0.1", a.port, timeout=30)
        while not errors:
            with lock:
                i = index[0]; index[0] += 1
            if i >= len(pairs):
                break
            sid, token = pairs[i]
            auth = {"Authorization": f"Bearer {token}"}
            if a.phase == "write":
                conn.request("GET", f"/v1/sessions/{sid}", headers=auth)
                r = conn.getresponse(); state = json.loads(r.read())
                modal = state["navigation"].get("modal") is not None
                for _ in range(a.steps):
                    route = "cancel" if modal else "addTodo"
                    conn.request("POST", f"/v1/sessions/{sid}/routes", body=json.dumps({"route": route}),
                                 headers={**auth, "Content-Type": "application/json"})
                    r = conn.getresponse(); r.read()
                    if r.status != 200:
                        errors.append(f"{route} on {sid}: {r.status}"); break
                    modal = not modal
                    with lock:
                        revisions[sid] = r.getheader("ETag").strip('"')
            else:
                conn.request("GET", f"/v1/sessions/{sid}", headers=auth)
                r = conn.getresponse(); r.read()
                got = (r.getheader("ETag") or "").strip('"')
                if r.status != 200 or got != expected[sid]:
                    errors.append(f"{sid}: status {r.status}, revision {got}, acknowledged {expected[sid]}")

    threads = [threading.Thread(target=worker) for _ in range(8)]
    for t in threads: t.start()
    for t in threads: t.join()
    if errors:
        sys.exit("durability: " + errors[0])
    if a.phase == "write":
        with open(a.record, "w") as f:
            for sid, rev in revisions.items():
                f.write(f"{sid} {rev}\n")
        print(f"durability: {len(revisions) * a.steps} acknowledged triggers on {len(revisions)} sessions", file=sys.stderr)
    else:
        print(f"durability: after kill -9 and restart, all {len(expected)} sessions have their last acknowledged revision",
              file=sys.stderr)

if __name__ == "__main__":
    main()
