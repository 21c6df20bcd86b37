"""Issue 21: a stdout that nobody reads must not stall the server. Log lines are written by their
own thread from a bounded buffer; when it is full, lines are dropped and counted in /metrics."""
import subprocess
import threading

from conftest import MiB, attack, metric, wait_for

REQUESTS = 30_000  # about 7 MiB of request lines: more than the pipe and the 4 MiB buffer hold


def test_a_stalled_stdout_drops_log_lines_instead_of_stalling_requests(start_server):
    server = start_server("--store", "memory", "--log-level", "info", stdout=subprocess.PIPE)
    a = attack(server, rss_bound=32 * MiB)
    failures = []
    lock = threading.Lock()
    remaining = [REQUESTS]

    def client():
        conn = server.connection(timeout=10)
        try:
            while True:
                with lock:
                    if remaining[0] == 0:
                        return
                    remaining[0] -= 1
                status, _, _ = server.request("GET", "/healthz", connection=conn)
                if status != 200:
                    failures.append(status)
        except OSError as error:  # a timeout: the server stalled
            failures.append(repr(error))
        finally:
            conn.close()

    threads = [threading.Thread(target=client) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert not failures, failures[:5]
    dropped = metric(server, "wayfinder_log_lines_dropped_total")
    assert dropped > 0, "every line fit: the test did not fill the buffer"
    a.end()

    # Someone reads stdout again: lines flow, the newest request's among them.
    output = []
    reader = threading.Thread(target=lambda: output.extend(iter(server.process.stdout.readline, b"")), daemon=True)
    reader.start()
    def logged_again():
        server.request("GET", "/healthz", headers={"X-Request-Id": "after-the-stall"})
        return any(b'"requestId":"after-the-stall"' in line for line in list(output))

    wait_for(logged_again, 20, interval=0.2, message="log lines after stdout is read again")
