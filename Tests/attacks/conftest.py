"""Shared helpers of the attack tests: the release binary started as in the operations tests,
a second, ordinary client on another address, and the server's resident memory and descriptors.

Each attack runs against its own server and is bounded in count and time. After it, the test
checks that the process is alive, that the second client's ordinary requests answer with the
same status and body as before the attack, and that resident memory grew by less than the
test's stated bound.
"""
import http.client
import importlib.util
import json
import re
import socket
import time
from pathlib import Path


REPO = Path(__file__).resolve().parents[2]

# The operations tests' server handling (start, stop, JSON requests), loaded under its own name.
_spec = importlib.util.spec_from_file_location("ops_support", REPO / "Tests/ops/conftest.py")
ops = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(ops)
wait_for = ops.wait_for

# The second client signs in as its provider's user (a verified JWT), not by claiming it.
ONBOARDED = {"onboarded": True}
SECOND_USER = "second@example.com"


def signed_in_headers(user=SECOND_USER):
    """`Authorization` that creates a session signed in as `user`."""
    return {"Authorization": "Bearer " + ops.jwt_token(user, email=user)}
MiB = 1024 * 1024


def rss_bytes(server):
    """VmRSS of the server process."""
    text = Path(f"/proc/{server.process.pid}/status").read_text()
    return int(re.search(r"^VmRSS:\s+(\d+) kB", text, re.M).group(1)) * 1024


def open_descriptors(server):
    return len(list(Path(f"/proc/{server.process.pid}/fd").iterdir()))


def metric(server, name, connection=None):
    """One unlabelled sample of /metrics."""
    status, _, text = server.request("GET", "/metrics", connection=connection)
    assert status == 200, text
    match = re.search(rf"^{re.escape(name)} (\S+)$", text, re.M)
    assert match, f"{name} not in /metrics"
    return float(match.group(1))


def raw_request(port, data, timeout=10, source="127.0.0.1"):
    """Sends raw bytes on a new connection; returns (status, headers, body) of the answer."""
    with socket.create_connection(("127.0.0.1", port), timeout=timeout, source_address=(source, 0)) as s:
        s.sendall(data)
        s.shutdown(socket.SHUT_WR)
        chunks = []
        while True:
            chunk = s.recv(65536)
            if not chunk:
                break
            chunks.append(chunk)
    return parse_response(b"".join(chunks))


def parse_response(raw):
    head, _, body = raw.partition(b"\r\n\r\n")
    lines = head.decode("latin-1").split("\r\n")
    status = int(lines[0].split()[1])
    headers = {}
    for line in lines[1:]:
        name, _, value = line.partition(":")
        headers[name.strip().lower()] = value.strip()
    return status, headers, body


class SecondClient:
    """An ordinary client on another loopback address (127.0.0.2: its own create bucket) with a
    signed-in session; `answers()` are its everyday requests, as (status, body) pairs."""

    def __init__(self, server):
        self.server = server
        status, _, body = self.call("POST", "/v1/sessions", {"context": ONBOARDED}, token=ops.jwt_token(SECOND_USER, email=SECOND_USER))
        assert status == 201, body
        self.id, self.token = body["id"], body["token"]
        self.before = self.answers()

    def connection(self):
        return http.client.HTTPConnection("127.0.0.1", self.server.port, timeout=15, source_address=("127.0.0.2", 0))

    def call(self, method, path, body=None, token=None):
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        conn = self.connection()
        try:
            return self.server.request(method, path, body, headers=headers, connection=conn)
        finally:
            conn.close()

    def answers(self):
        session = f"/v1/sessions/{self.id}"
        calls = [
            ("GET", "/healthz", None, None),
            ("GET", "/v1/flows", None, None),
            ("GET", session, None, self.token),
            # The home tab is shown already: a no-op, answered with the same state each time.
            ("POST", session + "/tab", {"tab": "home"}, self.token),
        ]
        out = []
        for method, path, body, token in calls:
            status, _, parsed = self.call(method, path, body, token)
            out.append((method, path, status, json.dumps(parsed, sort_keys=True)))
        return out

    def check_unchanged(self):
        after = self.answers()
        for before, now in zip(self.before, after):
            assert now == before, f"{before[0]} {before[1]}: {before[2]} before the attack, {now[2]} after"


class Attack:
    """A server under attack: `begin()` records the baseline, `end()` checks what must hold after."""

    def __init__(self, server, rss_bound):
        self.server = server
        self.rss_bound = rss_bound

    def begin(self):
        self.second = SecondClient(self.server)
        self.rss_before = rss_bytes(self.server)
        return self

    def end(self):
        assert self.server.process.poll() is None, f"the server died: {self.server.stderr()[-2000:]}"
        self.second.check_unchanged()
        grown = rss_bytes(self.server) - self.rss_before
        assert grown < self.rss_bound, f"resident memory grew by {grown / MiB:.1f} MiB (bound {self.rss_bound / MiB:.0f} MiB)"
        return grown


# `start_server(*args, env=None, name=None, preexec_fn=None)`: the operations tests' fixture.
start_server = ops.start_server


def attack(server, rss_bound):
    return Attack(server, rss_bound).begin()


def elapsed(start):
    return time.monotonic() - start
