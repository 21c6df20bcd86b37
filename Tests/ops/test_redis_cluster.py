"""Two `wayfinder` instances behind one Redis (issue 7): any instance serves any session,
changes reach event streams on the other instance, retries replay across instances, a killed
instance loses nothing, and a Redis outage answers 503 and heals by itself (under load too, losing
nothing acknowledged).

Needs redis-server (scripts/install-deps installs it); each test starts its own on a free
loopback port with appendonly yes, through scripts/redis.
"""
import http.client
import json
import signal
import subprocess
import threading
import time

from conftest import wait_for
from redis_load import TabLoad, auth  # noqa: F401 (auth is used by other modules through this one)


def route(server, sid, token, name, params=None, headers=None):
    body = {"route": name}
    if params is not None:
        body["params"] = params
    return server.request("POST", f"/v1/sessions/{sid}/routes", body, {**auth(token), **(headers or {})})


class EventStream:
    """Reads server-sent events from one instance on a background thread."""

    def __init__(self, server, sid, token):
        self.events = []
        self.done = False
        self.conn = http.client.HTTPConnection("127.0.0.1", server.port, timeout=30)
        self.conn.request("GET", f"/v1/sessions/{sid}/events?access_token={token}")
        self.response = self.conn.getresponse()
        assert self.response.status == 200
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self):
        event = {}
        try:
            while True:
                line = self.response.fp.readline()
                if not line:
                    break
                line = line.decode().rstrip("\n")
                if line.strip() == "0":
                    break  # the last chunk of the chunked body: the server ended the stream
                if line == "" and event:
                    self.events.append(event)
                    event = {}
                elif line.startswith("id: "):
                    event["id"] = int(line[4:])
                elif line.startswith("data: "):
                    event["data"] = json.loads(line[6:])
        except (OSError, ValueError, AttributeError):
            pass  # the stream was closed (by the test or the server)
        self.done = True

    def revisions(self):
        return [e["id"] for e in self.events]

    def close(self):
        self.conn.close()


def test_any_instance_serves_any_session(start_server, redis):
    a = start_server("--store", redis.url, "--log-level", "warn", name="a")
    b = start_server("--store", redis.url, "--log-level", "warn", name="b")
    sid, token = a.create_session({"onboarded": True}, user="a@b.c")

    status, headers, state = b.request("GET", f"/v1/sessions/{sid}", headers=auth(token))
    assert status == 200 and state["revision"] == 1 and headers["etag"] == '"1"'

    # An event stream held by B sees a change made through A.
    stream = EventStream(b, sid, token)
    wait_for(lambda: stream.revisions() == [1], 10, message="the first event on B")
    status, _, answer = b.request("POST", f"/v1/sessions/{sid}/tab", {"tab": "todos"}, auth(token))
    assert status == 200 and answer["state"]["revision"] == 2
    status, _, answer = route(a, sid, token, "addTodo")
    assert status == 200 and answer["state"]["revision"] == 3
    wait_for(lambda: stream.revisions() == [1, 2, 3], 10, message="events 2 and 3 on B")
    assert [s["name"] for s in stream.events[-1]["data"]["stack"]] == ["todoList", "todoAdd"]
    stream.close()

    # A retry that lands on the other instance is replayed, not applied twice.
    key = {"Idempotency-Key": "save-milk-1"}
    status, _, first = route(a, sid, token, "saveTodo", {"title": "Milk"}, key)
    assert status == 200 and first["state"]["revision"] == 4
    status, headers, replay = route(b, sid, token, "saveTodo", {"title": "Milk"}, key)
    assert status == 200 and headers.get("idempotent-replayed") == "true"
    assert replay == first
    status, _, reused = route(b, sid, token, "saveTodo", {"title": "Bread"}, key)
    assert status == 422 and reused["code"] == "idempotency_key_reused"

    # Kill A without warning: B serves every session at its last acknowledged revision.
    others = []
    for i in range(5):
        other, other_token = a.create_session({"onboarded": True})
        status, _, answer = route(a, other, other_token, "register")
        assert status == 200
        others.append((other, other_token, answer["state"]["revision"]))
    a.process.send_signal(signal.SIGKILL)
    a.process.wait(timeout=10)
    status, _, state = b.request("GET", f"/v1/sessions/{sid}", headers=auth(token))
    assert status == 200 and state["revision"] == 4
    assert [t["title"] for t in state["navigation"]["tabs"][1]["root"]["screens"][0]["components"][0]["items"]][-1] == "Milk"
    for other, other_token, revision in others:
        status, _, state = b.request("GET", f"/v1/sessions/{other}", headers=auth(other_token))
        assert status == 200 and state["revision"] == revision
        assert [s["name"] for s in state["stack"]] == ["login", "register"]


def test_concurrent_triggers_through_both_instances_lose_no_update(start_server, redis):
    a = start_server("--store", redis.url, "--log-level", "warn", name="a")
    b = start_server("--store", redis.url, "--log-level", "warn", name="b")
    sid, token = a.create_session({"onboarded": True}, user="a@b.c")
    applied = []
    failures = []
    lock = threading.Lock()

    def worker(n):
        server = a if n % 2 == 0 else b
        conn = server.connection()
        for i in range(25):
            # Tapping another tab always changes the state; tapping the selected one may not.
            tab = ["home", "todos", "profile"][(n + i) % 3]
            status, _, body = server.request("POST", f"/v1/sessions/{sid}/tab", {"tab": tab}, auth(token), connection=conn)
            with lock:
                if status == 200:
                    applied.append(bool(body["transitions"]))
                else:
                    failures.append((status, body))
        conn.close()

    threads = [threading.Thread(target=worker, args=(n,)) for n in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert failures == []
    status, _, state = b.request("GET", f"/v1/sessions/{sid}", headers=auth(token))
    assert status == 200
    assert state["revision"] == 1 + sum(applied)


def test_redis_outage_answers_503_and_heals(start_server, redis):
    a = start_server("--store", redis.url, "--log-level", "error", name="a")
    sid, token = a.create_session({"onboarded": True})
    status, _, answer = route(a, sid, token, "register")
    assert status == 200 and answer["state"]["revision"] == 2

    redis.kill()
    status, headers, problem = a.request("GET", f"/v1/sessions/{sid}", headers=auth(token))
    assert status == 503 and headers.get("retry-after") and problem["code"] == "service_unavailable"
    status, _, _ = route(a, sid, token, "signUp", {"name": "A", "email": "a@b.c", "password": "password1"})
    assert status == 503
    status, headers, _ = a.request("GET", "/readyz")
    assert status == 503 and headers.get("retry-after")
    status, _, _ = a.request("POST", "/v1/sessions", {})
    assert status == 503

    redis.start()
    wait_for(lambda: a.request("GET", "/readyz")[0] == 200, 15, interval=0.1, message="/readyz after Redis returned")
    status, _, state = a.request("GET", f"/v1/sessions/{sid}", headers=auth(token))
    assert status == 200 and state["revision"] == 2
    assert [s["name"] for s in state["stack"]] == ["login", "register"]
    status, _, answer = route(a, sid, token, "signUp", {"name": "A", "email": "a@b.c", "password": "password1"})
    assert status == 200 and answer["state"]["revision"] == 3


def test_redis_killed_and_restarted_under_load_answers_503_then_recovers_losing_nothing(start_server, redis):
    # Every write synced before Redis replies, so SIGKILL tests what was acknowledged, not the OS.
    port = redis.url.rsplit(":", 1)[1]
    subprocess.run(["redis-cli", "-p", port, "CONFIG", "SET", "appendfsync", "always"], check=True, capture_output=True)
    server = start_server("--store", redis.url, "--log-level", "error")
    with TabLoad(server) as load:
        load.wait_for_answers(200, 30, "answers before the outage")
        redis.kill()
        wait_for(lambda: load.count(503) >= 20, 30, message="503s while Redis is away")
        redis.start()
        subprocess.run(["redis-cli", "-p", port, "CONFIG", "SET", "appendfsync", "always"], check=True, capture_output=True)
        load.wait_for_answers(200, 60, "answers after Redis returned, without restarting wayfinder")
    assert set(load.statuses) <= {200, 503}, load.statuses
    assert load.lost() == []
