"""SIGTERM drains in-flight requests, loses no acknowledged change and exits 0 within the deadline;
a second SIGTERM during the drain exits at once."""
import http.client
import json
import signal
import socket
import threading
import time

from conftest import wait_for

DEADLINE = 5.0
WORKERS = 8


def worker(port, sid, token, acked, errors, stop):
    """Alternates addTodo / cancel on its own session over one keep-alive connection and records
    the revision of every 2xx answer. Returns when the server stops answering."""
    auth = {"Authorization": f"Bearer {token}", "Content-Type": "application/json"}
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    routes = ["addTodo", "cancel"]
    step = 0
    try:
        while not stop.is_set():
            body = json.dumps({"route": routes[step % 2]})
            conn.request("POST", f"/v1/sessions/{sid}/routes", body=body, headers=auth)
            response = conn.getresponse()
            data = response.read()
            if 200 <= response.status < 300:
                revision = json.loads(data)["state"]["revision"]
                acked[sid] = max(acked.get(sid, 0), revision)
                step += 1
            elif response.status == 503:
                return  # refused while shutting down: not acknowledged
            else:
                errors.append((response.status, data[:200]))
                return
            if response.getheader("Connection", "").lower() == "close":
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    except (OSError, http.client.HTTPException):
        return  # the server closed the connection or stopped listening
    finally:
        conn.close()


def test_sigterm_during_a_burst_keeps_every_acknowledged_change(start_server, tmp_path):
    store = f"sqlite:{tmp_path / 'burst.sqlite'}"
    server = start_server("--store", store, "--shutdown-deadline", f"{int(DEADLINE)}s", name="burst")
    sessions = []
    for _ in range(WORKERS):
        sid, token = server.create_session({"onboarded": True}, user="a@b.c")
        status, _, body = server.request("POST", f"/v1/sessions/{sid}/tab", {"tab": "todos"},
                                         headers={"Authorization": f"Bearer {token}"})
        assert status == 200, body
        sessions.append((sid, token, body["state"]["revision"]))

    acked, errors, stop = {}, [], threading.Event()
    threads = [threading.Thread(target=worker, args=(server.port, sid, token, acked, errors, stop), daemon=True)
               for sid, token, _ in sessions]
    for t in threads:
        t.start()
    wait_for(lambda: sum(acked.values()) >= WORKERS * 20, 30, message="a burst of acknowledged changes")

    server.signal(signal.SIGTERM)
    signalled = time.monotonic()
    code = server.wait(DEADLINE + 5)
    elapsed = time.monotonic() - signalled
    stop.set()
    for t in threads:
        t.join(10)
    assert code == 0, f"exit code {code}; stderr: {server.stderr()}"
    assert elapsed <= DEADLINE + 1, f"took {elapsed:.1f}s to stop (deadline {DEADLINE}s)"
    assert not errors, errors
    events = [r["event"] for r in server.records()]
    assert "shutting_down" in events and events[-1] == "stopped", events[-3:]

    # Same data, new process: every acknowledged revision is there.
    again = start_server("--store", store, name="restart")
    for sid, token, first in sessions:
        status, _, state = again.request("GET", f"/v1/sessions/{sid}", headers={"Authorization": f"Bearer {token}"})
        assert status == 200, state
        assert state["revision"] >= acked.get(sid, first), \
            f"session {sid}: acknowledged revision {acked.get(sid)} but the store has {state['revision']}"
    assert sum(acked.values()) > sum(first for _, _, first in sessions)


def test_second_sigterm_during_a_long_drain_exits_at_once(start_server, tmp_path):
    server = start_server("--store", f"sqlite:{tmp_path / 'drain.sqlite'}", "--shutdown-deadline", "60s",
                          "--header-timeout", "120s", name="drain")
    # A request whose headers never finish keeps the drain waiting (up to the deadline).
    held = socket.create_connection(("127.0.0.1", server.port), timeout=5)
    try:
        held.sendall(b"GET /v1/flows HTTP/1.1\r\nHost: x\r\n")
        # The server has accepted it: two open connections, the held one and the scrape's own.
        wait_for(lambda: _open_connections(server) >= 2, 5, message="the held connection to be accepted")
        server.signal(signal.SIGTERM)
        wait_for(lambda: any(r.get("event") == "shutting_down" for r in server.records()), 5, message="shutting_down")
        time.sleep(0.3)  # a drain that did not wait would have exited by now
        assert server.process.poll() is None, "the drain should wait for the unfinished request"
        server.signal(signal.SIGTERM)
        signalled = time.monotonic()
        code = server.wait(5)
        assert time.monotonic() - signalled < 2, "the second SIGTERM must exit at once"
        assert code != 0, "an aborted drain must not report success"
    finally:
        held.close()


def _open_connections(server):
    conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
    try:
        conn.request("GET", "/metrics")
        text = conn.getresponse().read().decode()
    finally:
        conn.close()
    for line in text.splitlines():
        if line.startswith("wayfinder_http_open_connections "):
            return float(line.split()[1])
    return 0
