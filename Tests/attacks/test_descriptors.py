"""Attack 1 of issue 21: idle connections up to and past the descriptor limit, then a new session.
(From one address: its per-address share is off here, see test_shares.py for that.)

The server used to read /dev/urandom for session ids: with its descriptors used up by idle
connections, `POST /v1/sessions` ended the process (`Fatal error: cannot open /dev/urandom`).
"""
import json
import resource
import selectors
import socket
import time

from conftest import MiB, attack, metric, open_descriptors, parse_response, wait_for

CONNECTIONS = 1100
CREATE = b"POST /v1/sessions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"


def own_descriptor_limit_at_least(count):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < count:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, count), hard))


def ulimit_1024():
    resource.setrlimit(resource.RLIMIT_NOFILE, (1024, 1024))


def open_idle_connections(port, count):
    sockets = []
    for _ in range(count):
        s = socket.create_connection(("127.0.0.1", port), timeout=10)
        sockets.append(s)
    return sockets


def closed_by_server(sockets, seconds):
    """How many of `sockets` the server closed (end of stream or reset) within `seconds`."""
    closed = set()
    with selectors.DefaultSelector() as selector:
        for s in sockets:
            selector.register(s, selectors.EVENT_READ)
        deadline = time.monotonic() + seconds
        while time.monotonic() < deadline:
            for key, _ in selector.select(timeout=0.2):
                s = key.fileobj
                try:
                    data = s.recv(1, socket.MSG_PEEK)
                except OSError:
                    data = b""
                if not data:
                    closed.add(s)
                    selector.unregister(s)
    return len(closed)


def create_on(sock, times):
    """`POST /v1/sessions` `times` times on an open connection (more than the 85 sessions one
    read of /dev/urandom used to serve, so the old server had to open it again); every answer
    must be 201; returns the last one's JSON body."""
    for _ in range(times):
        status, body = create_once(sock)
        assert status == 201, (status, body)
    return body


def create_once(sock):
    sock.sendall(CREATE)
    raw = b""
    while b"\r\n\r\n" not in raw or len(raw) < raw.index(b"\r\n\r\n") + 4 + int(
            parse_response(raw)[1].get("content-length", 0)):
        chunk = sock.recv(65536)
        assert chunk, f"the server closed the connection instead of answering: {raw!r}"
        raw += chunk
    status, _, body = parse_response(raw)
    return status, json.loads(body)


def finish(server, a, sockets, created):
    for s in sockets:
        s.close()
    wait_for(lambda: metric(server, "wayfinder_http_open_connections") <= 1, 15, message="the attacker's connections closed")
    grown = a.end()
    # The attacker's session is there too: nothing was lost.
    status, _, body = a.second.call("GET", f"/v1/sessions/{created['id']}", token=created["token"])
    assert status == 200 and body["session"] == created["id"]
    return grown


def test_idle_connections_under_ulimit_1024_leave_session_creation_working(start_server):
    own_descriptor_limit_at_least(CONNECTIONS + 200)
    server = start_server("--store", "memory", "--create-burst", "1000", "--max-connections-per-address", "0", preexec_fn=ulimit_1024)
    warnings = wait_for(lambda: [r for r in server.records() if r.get("event") == "max_connections_lowered"], 5,
                        message="the max_connections_lowered warning")
    lowered = warnings[0]["lowered"]
    assert warnings[0]["descriptorLimit"] == 1024 and 0 < lowered < 1024, warnings[0]
    a = attack(server, rss_bound=64 * MiB)

    sockets = open_idle_connections(server.port, CONNECTIONS)
    # Past the lowered --max-connections the server closes connections at once (the documented
    # answer to a client over the limit); the first ones it holds, idle.
    assert closed_by_server(sockets, 3) >= CONNECTIONS - lowered
    created = create_on(sockets[0], 100)
    assert len(created["token"]) == 43 and len(created["id"]) == 22
    finish(server, a, sockets, created)


def test_descriptors_running_out_pause_accepting_and_creation_still_works(start_server):
    """Descriptors used up for real (the limit lowered under a running server): accept fails with
    EMFILE, the listener pauses instead of spinning, sessions are still created on the open
    connections, and accepting resumes once descriptors are free."""
    own_descriptor_limit_at_least(CONNECTIONS + 200)
    server = start_server("--store", "memory", "--create-burst", "1000", "--max-connections-per-address", "0")
    a = attack(server, rss_bound=64 * MiB)
    soft, hard = resource.prlimit(server.process.pid, resource.RLIMIT_NOFILE)
    resource.prlimit(server.process.pid, resource.RLIMIT_NOFILE, (256, hard))

    sockets = open_idle_connections(server.port, 400)
    wait_for(lambda: open_descriptors(server) >= 250, 10, message="the server's descriptors used up")
    created = create_on(sockets[0], 100)
    assert server.process.poll() is None
    resource.prlimit(server.process.pid, resource.RLIMIT_NOFILE, (soft, hard))
    finish(server, a, sockets, created)
