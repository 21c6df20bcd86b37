"""Identity attacks: claiming to be signed in, forged and stale tokens, a session token on another
session, the operator endpoints without their key. Each gets its documented status and code, and
leaves nothing in the store (the live-session count and the other sessions are unchanged).

Against the release binary (memory and SQLite), and the example shop's binary for the claim.
"""
import os
from pathlib import Path

import pytest

from conftest import MiB, ONBOARDED, REPO, attack, metric, ops, signed_in_headers

STORES = ["memory", "sqlite"]


def store_args(kind, tmp_path):
    return ["--store", "memory"] if kind == "memory" else ["--store", f"sqlite:{tmp_path}/attack.sqlite"]


def problem(answer, status, code):
    got, headers, body = answer
    assert got == status, body
    assert headers.get("content-type", "").startswith("application/problem+json"), headers
    assert body["code"] == code, body
    return headers, body


def sessions(server):
    return metric(server, "wayfinder_sessions_active")


@pytest.mark.parametrize("kind", STORES)
def test_a_client_claiming_to_be_signed_in_is_refused(start_server, tmp_path, kind):
    server = start_server(*store_args(kind, tmp_path))
    a = attack(server, rss_bound=16 * MiB)
    before = sessions(server)
    for context in ({"onboarded": True, "authenticated": True, "user": "admin@example.com"}, {"user": "admin@example.com"},
                    {"authenticated": True}, {"onboarded": True, "roles": ["admin"]}):
        headers, body = problem(server.request("POST", "/v1/sessions", {"context": context}), 422, "context_not_settable")
        assert body["param"].startswith("context."), body
        assert "location" not in headers
    assert sessions(server) == before
    a.end()


def test_the_shop_refuses_a_claimed_sign_in_too(start_server, tmp_path):
    shop = os.environ.get("SHOP_BIN")
    if not shop:
        pytest.skip("SHOP_BIN names no shop binary (scripts/test sets it)")
    server = start_server("--store", "memory", command=[str(REPO / shop) if not Path(shop).is_absolute() else shop])
    before = sessions(server)
    _, body = problem(server.request("POST", "/v1/sessions", {"context": {"signedIn": True, "email": "admin@example.com"}}),
                      422, "context_not_settable")
    assert body["param"] in ("context.email", "context.signedIn"), body
    assert sessions(server) == before
    # Signing in for real: the shop's provider vouches for the customer.
    status, _, created = server.request("POST", "/v1/sessions", {"context": {"platform": "web"}},
                                        headers=signed_in_headers("ada@example.com"))
    assert status == 201, created
    assert created["state"]["context"]["signedIn"] is True
    assert created["state"]["context"]["email"] == "ada@example.com"


@pytest.mark.parametrize("kind", STORES)
def test_forged_and_stale_tokens_are_refused(start_server, tmp_path, kind):
    server = start_server(*store_args(kind, tmp_path))
    a = attack(server, rss_bound=16 * MiB)
    before = sessions(server)
    cases = [
        (ops.jwt_token("ada", secret=b"another secret, as long as the real one is"), "token_signature_invalid"),
        (ops.jwt_token("ada", alg="none"), "token_algorithm_not_allowed"),
        (ops.jwt_token("ada", alg="none") + "c2lnbmVk", "token_algorithm_not_allowed"),
        (ops.jwt_token("ada", lifetime=-3600), "token_expired"),
        (ops.jwt_token("ada", audience="another-app"), "token_audience_mismatch"),
        (ops.jwt_token("ada", claims={"iss": "https://evil.example.com"}), "token_issuer_mismatch"),
        (ops.jwt_token("", email="ada@example.com"), "token_subject_missing"),
        ("a.b", "token_malformed"),
        ("x" * 9000, "token_too_large"),
    ]
    for token, code in cases:
        headers, _ = problem(server.request("POST", "/v1/sessions", {"context": ONBOARDED},
                                            headers={"Authorization": "Bearer " + token}), 401, code)
        assert headers["www-authenticate"].startswith('Bearer error="invalid_token"'), headers
    assert sessions(server) == before, "a refused token created a session"
    a.end()


@pytest.mark.parametrize("kind", STORES)
def test_a_session_token_opens_only_its_own_session(start_server, tmp_path, kind):
    server = start_server(*store_args(kind, tmp_path))
    a = attack(server, rss_bound=16 * MiB)
    mine, my_token = server.create_session(ONBOARDED, user="mallory@example.com")
    theirs, their_token = server.create_session(ONBOARDED, user="ada@example.com")
    steal = {"Authorization": f"Bearer {my_token}"}
    for method, path, body in [("GET", "", None), ("POST", "/tab", {"tab": "todos"}), ("GET", "/history", None),
                               ("DELETE", "", None), ("POST", "/rewind", {"revision": 1})]:
        problem(server.request(method, f"/v1/sessions/{theirs}{path}", body, headers=steal), 404, "not_found")
    status, headers, _ = server.request("GET", f"/v1/sessions/{theirs}", headers={"Authorization": f"Bearer {their_token}"})
    assert status == 200 and headers["etag"] == '"1"', "the other session changed"
    a.end()


@pytest.mark.parametrize("kind", STORES)
def test_operator_endpoints_need_the_operator_key(start_server, tmp_path, kind):
    server = start_server(*store_args(kind, tmp_path))
    a = attack(server, rss_bound=16 * MiB)
    sid, token = server.create_session(ONBOARDED, user="ada@example.com")
    before = sessions(server)
    wrong = ["", "Bearer " + "k" * 47, "Bearer " + ops.OPERATOR_KEY[:-1] + "x", "Bearer " + token, "Basic b3BlcmF0b3I6a2V5"]
    for value in wrong:
        headers = {"Authorization": value} if value else {}
        for method, path in [("GET", "/v1/users/ada%40example.com/sessions"), ("DELETE", "/v1/users/ada%40example.com/sessions")]:
            problem(server.request(method, path, headers=headers), 401, "operator_unauthorized")
        if value != "Bearer " + token:  # the session's own token reads its own history, of course
            problem(server.request("GET", f"/v1/sessions/{sid}/history", headers=headers),
                    404 if value.startswith("Bearer ") else 401, "not_found" if value.startswith("Bearer ") else "unauthorized")
    assert sessions(server) == before, "a refused operator request ended a session"
    # With the key: the user's session is listed.
    status, _, body = server.request("GET", "/v1/users/ada%40example.com/sessions",
                                     headers={"Authorization": "Bearer " + ops.OPERATOR_KEY})
    assert status == 200 and [s["id"] for s in body["sessions"]] == [sid], body
    a.end()


def test_operator_endpoints_are_off_without_a_key(start_server, tmp_path):
    server = start_server("--store", "memory", env={"WAYFINDER_OPERATOR_KEY": ""})
    problem(server.request("GET", "/v1/users/ada/sessions", headers={"Authorization": "Bearer " + ops.OPERATOR_KEY}),
            404, "not_found")
