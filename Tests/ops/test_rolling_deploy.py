"""Rolling deploys (issue 16): version 1 and version 2 of one app (`notes-server 1|2`, built next to
the `wayfinder` binary) serve one store side by side, as during a deploy, with SQLite (two
processes on one file, `--sqlite-shared true`) and with Redis.

A user's session alternates between the two mid-flow. Version 2 migrates the session the first
time it loads it and saves it with its version; version 1 then answers `409 version_ahead` with
`Retry-After` and never changes it, and the client's retry reaches version 2. No answer is a 5xx
and nothing the user entered is lost.
"""
import signal
import sqlite3
from pathlib import Path

import pytest

from conftest import binary, wait_for
from test_redis_cluster import EventStream, auth


def notes_server():
    path = Path(binary()).parent / "notes-server"
    if not path.exists():
        pytest.fail(f"no notes-server next to {binary()} (swift build builds it)")
    return str(path)


class User:
    """One client app behind a load balancer that sends each request to the next instance in
    turn; a `409 version_ahead` is retried on the next one, as the answer says."""

    def __init__(self, instances):
        self.instances = instances
        self.turn = 0
        self.sid = self.token = None
        self.answers = []  # (instance, method, path, status)

    def call(self, method, path, body=None):
        for _ in range(3 * len(self.instances)):
            server = self.instances[self.turn % len(self.instances)]
            self.turn += 1
            headers = auth(self.token) if self.token else {}
            status, heads, answer = server.request(method, path, body, headers)
            self.answers.append((server, method, path, status))
            assert status < 500, f"{server.stdout_path.name}: {method} {path} answered {status}: {answer}"
            if status == 409 and answer.get("code") == "version_ahead":
                assert heads.get("retry-after") == "1", heads
                continue
            return status, answer
        raise AssertionError(f"no instance answered {method} {path}")

    def route(self, name, params=None):
        status, answer = self.call("POST", f"/v1/sessions/{self.sid}/routes", {"route": name, "params": params or {}})
        assert status == 200, answer
        return answer["state"]

    def state(self):
        status, state = self.call("GET", f"/v1/sessions/{self.sid}")
        assert status == 200, state
        return state


def names(state):
    return [screen["name"] for screen in state["stack"]]


def metric(server, line):
    _, _, text = server.request("GET", "/metrics")
    return line in text.splitlines()


def deploy(start_server, store, events_cross_instances):
    """A session started on version 1, then served by versions 1 and 2 in turn, then by 2 alone.
    With `events_cross_instances` (Redis), version 1's event stream ends as soon as version 2
    saved the session."""
    old = start_server(*store, "--log-level", "warn", name="v1", command=[notes_server(), "1"])
    user = User([old])
    status, created = user.call("POST", "/v1/sessions", {"context": {}})
    assert status == 201
    user.sid, user.token = created["id"], created["token"]
    assert names(user.route("signIn", {"mail": "ada@example.com"})) == ["list"]
    user.route("add", {"text": "Milk"})
    stream = EventStream(old, user.sid, user.token)

    # The deploy: version 2 starts beside version 1 and the balancer sends to both. The client is
    # still version 1's: it sends version 1's routes and params.
    new = start_server(*store, "--log-level", "warn", name="v2", command=[notes_server(), "2"])
    user.instances = [old, new]
    entered = ["Milk"]
    for text in ["Eggs", "Tea", "Jam", "Rice"]:
        user.route("add", {"text": text, "priority": 1})
        entered.append(text)
        assert user.state()["context"]["user"] == "ada@example.com"
    state = user.route("open", {"note": "2"})
    assert names(state) == ["notes", "detail"] and state["stack"][-1]["title"] == "Note 2"

    served = {(server.stdout_path.name, status) for server, _, _, status in user.answers}
    assert ("v1.stdout", 409) in served and ("v2.stdout", 200) in served, served
    assert metric(new, 'wayfinder_session_upgrades_total{outcome="migrated",reason=""} 1')
    assert any(line.startswith('wayfinder_session_upgrades_total{outcome="refused"')
               for line in old.request("GET", "/metrics")[2].splitlines())

    if events_cross_instances:
        wait_for(lambda: stream.done, 10, message="version 1's event stream to end")
    assert all(event["data"]["revision"] == event["id"] for event in stream.events)

    # The deploy ends: version 1 stops; everything the user entered is there.
    old.signal(signal.SIGTERM)
    assert old.wait(15) == 0
    stream.close()
    user.instances = [new]
    state = user.state()
    assert [item["title"] for item in state["stack"][0]["components"][0]["items"]] == entered
    return new, user


def test_a_session_alternating_between_versions_on_one_sqlite_file(start_server, tmp_path):
    database = tmp_path / "notes.sqlite"
    new, user = deploy(start_server, ["--store", f"sqlite:{database}", "--sqlite-shared", "true"], events_cross_instances=False)
    new.signal(signal.SIGTERM)
    assert new.wait(15) == 0
    with sqlite3.connect(database) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        (stored,) = db.execute("SELECT state FROM sessions WHERE id = ?", (user.sid,)).fetchone()
    assert bytes(stored).startswith(b'{"v":1,"app":"2",')


def test_a_session_alternating_between_versions_on_one_redis(start_server, redis):
    new, user = deploy(start_server, ["--store", redis.url], events_cross_instances=True)
    stream = EventStream(new, user.sid, user.token)
    wait_for(lambda: len(stream.events) == 1, 10, message="the first event on version 2")
    user.route("delete")
    wait_for(lambda: len(stream.events) == 2, 10, message="the change on version 2")
    assert names(stream.events[-1]["data"]) == ["notes"]
    stream.close()
