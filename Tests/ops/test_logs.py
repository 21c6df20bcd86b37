"""Logs: one JSON object per stdout line, a line per request and per lifecycle event, no secrets."""
import json
import re
import signal

from conftest import wait_for

PASSWORD = "correct-horse-battery-staple"
QUERY_SECRET = "q-secret-7f3a9c"


def drive(server):
    """A few requests that carry every kind of secret; returns (token, request ids sent)."""
    sid, token = server.create_session({"onboarded": True})
    auth = {"Authorization": f"Bearer {token}"}
    ids = []

    status, heads, _ = server.request("GET", f"/v1/sessions/{sid}?note={QUERY_SECRET}", headers={**auth, "X-Request-Id": "ops-read-1"})
    assert status == 200 and heads["x-request-id"] == "ops-read-1"
    ids.append("ops-read-1")

    status, heads, body = server.request(
        "POST", f"/v1/sessions/{sid}/routes", {"route": "login", "params": {"email": "ada@example.com", "password": PASSWORD}},
        headers={**auth, "X-Request-Id": "ops-login-1"})
    assert status == 200, body
    assert heads["x-request-id"] == "ops-login-1"
    ids.append("ops-login-1")

    # A wrong password (too short) is a 200 with a notice; it must not be logged either.
    sid2, token2 = server.create_session({"onboarded": True})
    status, _, _ = server.request("POST", f"/v1/sessions/{sid2}/routes", {"route": "login", "params": {"email": "x@y.z", "password": "short"}},
                                  headers={"Authorization": f"Bearer {token2}"})
    assert status == 200

    # The events endpoint with ?access_token= (EventSource cannot set headers): open, then hang up.
    conn = server.connection(timeout=5)
    conn.request("GET", f"/v1/sessions/{sid}/events?access_token={token}", headers={"X-Request-Id": "ops-events-1"})
    response = conn.getresponse()
    assert response.status == 200
    assert response.getheader("X-Request-Id") == "ops-events-1"
    conn.close()
    ids.append("ops-events-1")

    # A bearer token that is wrong (404) and a generated request id.
    status, heads, _ = server.request("GET", f"/v1/sessions/{sid}", headers={"Authorization": "Bearer not-the-token-5e1d"})
    assert status == 404
    generated = heads.get("x-request-id", "")
    assert re.fullmatch(r"[\x21-\x7e]{8,128}", generated), generated
    ids.append(generated)

    # An invalid client id (a space) is replaced by a fresh one.
    status, heads, _ = server.request("GET", "/healthz", headers={"X-Request-Id": "has space"})
    assert heads["x-request-id"] != "has space"
    return token, token2, ids


def test_logs_are_json_lines_with_the_request_fields_and_no_secrets(start_server):
    server = start_server("--store", "memory")
    token, token2, ids = drive(server)
    server.signal(signal.SIGTERM)
    assert server.wait(15) == 0

    out, err = server.stdout(), server.stderr()
    assert out.endswith("\n")
    records = []
    for number, line in enumerate(out.splitlines(), 1):
        try:
            record = json.loads(line)
        except ValueError as error:
            raise AssertionError(f"stdout line {number} is not JSON ({error}): {line!r}")
        assert isinstance(record, dict), line
        for field in ("time", "level", "event"):
            assert field in record, f"line {number} lacks {field}: {line}"
        assert re.match(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d", record["time"]), record["time"]
        records.append(record)

    requests = [r for r in records if r["event"] == "request"]
    assert len(requests) >= 7
    for r in requests:
        for field, kind in (("method", str), ("path", str), ("status", int), ("durationMicros", int),
                            ("bytes", int), ("requestId", str)):
            assert isinstance(r.get(field), kind), f"request line lacks {field}: {r}"
        assert "?" not in r["path"], f"query string logged: {r}"
        assert r["durationMicros"] >= 0 and r["bytes"] >= 0
        if r["path"].startswith("/v1/sessions/"):
            assert r.get("session") == r["path"].split("/")[3], f"session id missing: {r}"

    logged_ids = {r["requestId"] for r in requests}
    for request_id in ids:
        assert request_id in logged_ids, f"request id {request_id} not logged"

    events = [r["event"] for r in records]
    for lifecycle in ("listening", "shutting_down", "stopped"):
        assert lifecycle in events, f"no {lifecycle} line"
    assert events.index("listening") < events.index("shutting_down") < events.index("stopped")

    for secret in (token, token2, PASSWORD, "short\"", QUERY_SECRET, "not-the-token-5e1d", "access_token", "Bearer"):
        assert secret not in out, f"{secret!r} appears in stdout"
        assert secret not in err, f"{secret!r} appears in stderr"


def test_log_level_filters(start_server):
    server = start_server("--store", "memory", "--log-level", "error")
    server.request("GET", "/v1/flows")
    server.signal(signal.SIGTERM)
    assert server.wait(15) == 0
    assert server.stdout() == "", "nothing below error is logged at --log-level error"


def test_debug_level_still_keeps_secrets_out(start_server):
    server = start_server("--store", "memory", "--log-level", "debug")
    sid, token = server.create_session({"onboarded": True})
    server.request("POST", f"/v1/sessions/{sid}/routes", {"route": "login", "params": {"email": "a@b.c", "password": PASSWORD}},
                   headers={"Authorization": f"Bearer {token}"})
    wait_for(lambda: len([r for r in server.records() if r.get("event") == "request"]) >= 3, 5, message="request lines")
    text = server.stdout() + server.stderr()
    assert token not in text and PASSWORD not in text
