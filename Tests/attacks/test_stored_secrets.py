"""What a stolen store or a leaked URL gives away: nothing a guess can be checked against.

- Idempotency records keep a fingerprint of their request; it is an HMAC under the deployment's
  secret over the body without its secret params, so the SHA-256 of a guessed request (the old
  fingerprint) matches no record, and no record holds the password.
- The web client opens its event stream with a short-lived ticket: a forged, altered or another
  session's ticket is `401 stream_ticket_invalid`.

Against the release binary on SQLite (the store an attacker could copy).
"""
import hashlib
import json
import sqlite3

from conftest import MiB, ONBOARDED, attack


def canonical(value):
    return json.dumps(value, separators=(",", ":"), sort_keys=True, ensure_ascii=False)


def test_an_idempotency_record_cannot_be_checked_against_a_guessed_password(start_server, tmp_path):
    database = tmp_path / "attack.sqlite"
    server = start_server("--store", f"sqlite:{database}")
    a = attack(server, rss_bound=16 * MiB)
    session, token = server.create_session(ONBOARDED)
    path = f"/v1/sessions/{session}/routes"
    body = {"route": "login", "params": {"email": "victim@example.com", "password": "correct horse"}}
    status, _, _ = server.request("POST", path, body, headers={"Authorization": "Bearer " + token, "Idempotency-Key": "k1"})
    assert status == 200

    rows = sqlite3.connect(database).execute("SELECT fingerprint, body FROM idempotency WHERE key = 'k1'").fetchall()
    assert len(rows) == 1
    fingerprint, stored = rows[0]
    assert len(fingerprint) == 32
    assert b"correct horse" not in bytes(stored)
    for guess in ("correct horse", "wrong guess"):
        guessed = dict(body, params=dict(body["params"], password=guess))
        digest = hashlib.sha256(f"POST {path}\n{canonical(guessed)}".encode()).digest()
        assert digest != bytes(fingerprint), "the fingerprint is a plain digest of the request"
    a.end()


def test_forged_stream_tickets_open_nothing(start_server, tmp_path):
    server = start_server("--store", f"sqlite:{tmp_path}/attack.sqlite")
    a = attack(server, rss_bound=16 * MiB)
    session, token = server.create_session(ONBOARDED)
    other, other_token = server.create_session(ONBOARDED)
    status, headers, issued = server.request("POST", f"/v1/sessions/{session}/events", headers={"Authorization": "Bearer " + token})
    assert status == 200 and headers.get("cache-control") == "no-store", issued
    ticket = issued["ticket"]
    flipped = ticket[:-1] + ("A" if ticket[-1] != "A" else "B")
    for target, forged in ((other, ticket), (session, flipped), (session, "wft1." + "A" * 38), (session, other_token)):
        status, headers, body = server.request("GET", f"/v1/sessions/{target}/events?ticket={forged}")
        assert status == 401 and body["code"] == "stream_ticket_invalid", body
        assert headers.get("www-authenticate") == "Bearer"
    a.end()

