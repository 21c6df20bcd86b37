#!/usr/bin/env python3
"""Start-up time of `wayfinder`: from spawn to the first 200 from GET /healthz (tight loop of raw
HTTP/1.1 requests on loopback), median of RUNS starts. `--store fresh` starts each run on a new,
not yet existing SQLite file (empty store); otherwise the given --store is used as is."""
import argparse, os, signal, socket, statistics, subprocess, sys, tempfile, time

def healthz(port):
    try:
        s = socket.create_connection(("127.0.0.1", port), timeout=1)
    except OSError:
        return False
    try:
        s.sendall(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        return s.recv(64).startswith(b"HTTP/1.1 200")
    except OSError:
        return False
    finally:
        s.close()

def main():
    p = argparse.ArgumentParser()
    p.add_argument("--bin", required=True)
    p.add_argument("--port", type=int, required=True)
    p.add_argument("--store", required=True)
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--label", default="")
    a = p.parse_args()
    times = []
    tmp = tempfile.mkdtemp(prefix="wf-startup-")
    for run in range(a.runs):
        store = f"sqlite:{tmp}/fresh{run}.sqlite" if a.store == "fresh" else a.store
        t0 = time.perf_counter()
        proc = subprocess.Popen([a.bin, "--host", "127.0.0.1", "--port", str(a.port), "--store", store,
                                 "--log-level", "error", "--max-sessions", "2000000"],
                                stdout=subprocess.DEVNULL)
        try:
            while not healthz(a.port):
                if proc.poll() is not None:
                    sys.exit(f"startup: server exited with {proc.returncode}")
                if time.perf_counter() - t0 > 30:
                    sys.exit("startup: no 200 from /healthz within 30 s")
            times.append((time.perf_counter() - t0) * 1000)
        finally:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                proc.kill(); proc.wait()
    for f in os.listdir(tmp):
        os.unlink(os.path.join(tmp, f))
    os.rmdir(tmp)
    print(f"startup {a.label}: median {statistics.median(times):.1f} ms "
          f"(runs: {', '.join(f'{t:.1f}' for t in times)} ms)")

if __name__ == "__main__":
    main()
