"""Sign-in attacks on the sample app (issue 47, point 3): telling registered addresses from
unknown ones, guessing a password, mail to an address that is not the session's. Each gets the
answer the sample app documents (docs/api.md, "The sample app"), on the memory and SQLite stores.

The codes the app mails are read from its mail file (`WAYFINDER_DEMO_MAIL`), as its owner would
read them in a mailbox.
"""
import json
import re
import statistics
import time

import pytest

from conftest import MiB, ONBOARDED, attack

STORES = ["memory", "sqlite"]
REFUSED = "That email and password do not match."
THROTTLED = "Too many attempts. Wait a few seconds, then try again."
PASSWORD = "correct horse"


class App:
    """The sample app over HTTP, as a script (an attacker) drives it."""

    def __init__(self, server, mail):
        self.server, self.mail = server, mail

    def session(self):
        status, _, body = self.server.request("POST", "/v1/sessions", {"context": ONBOARDED})
        assert status == 201, body
        return body

    def route(self, session, name, params=None):
        status, _, body = self.server.request("POST", f"/v1/sessions/{session['id']}/routes", {"route": name, "params": params or {}},
                                              headers={"Authorization": f"Bearer {session['token']}"})
        assert status == 200, body
        return body

    def messages(self, to):
        try:
            lines = self.mail.read_text().splitlines()
        except FileNotFoundError:
            return []
        return [m for m in map(json.loads, filter(None, lines)) if m["to"] == to]

    def code(self, to):
        return re.search(r"\b\d{6}\b", self.messages(to)[-1]["body"]).group(0)

    def sign_up(self, email):
        s = self.session()
        self.route(s, "register")
        assert top(self.route(s, "signUp", {"name": "Owner", "email": email, "password": PASSWORD})) == "confirmSignUp"
        assert top(self.route(s, "confirmSignUp", {"code": self.code(email)})) == "dashboard"

    def login(self, email, password, session=None):
        return self.route(session or self.session(), "login", {"email": email, "password": password})


def top(answer):
    return answer["state"]["stack"][-1]["name"]


def notices(answer):
    return [c["text"] for c in answer["state"]["stack"][-1]["components"] if c["type"] == "notice"]


def context(answer):
    return answer["state"]["context"]


def server_for(start_server, tmp_path, kind):
    mail = tmp_path / "mail.jsonl"
    store = ["--store", "memory"] if kind == "memory" else ["--store", f"sqlite:{tmp_path}/attack.sqlite"]
    server = start_server(*store, env={"WAYFINDER_DEMO_MAIL": str(mail)})
    return server, App(server, mail)


@pytest.mark.parametrize("kind", STORES)
def test_an_unknown_address_is_refused_as_a_wrong_password_is_and_as_slowly(start_server, tmp_path, kind):
    server, app = server_for(start_server, tmp_path, kind)
    a = attack(server, rss_bound=24 * MiB)
    app.sign_up("owner@example.com")

    unknown = app.login("nobody@example.com", PASSWORD)
    wrong = app.login("owner@example.com", "not the password")
    assert top(unknown) == top(wrong) == "login"
    assert notices(unknown) == notices(wrong) == [REFUSED]
    assert unknown["transitions"] == wrong["transitions"]
    assert context(unknown).get("authenticated") is not True

    # Sign-up tells nothing either: the same screen for a taken and a free address.
    taken, free = app.session(), app.session()
    app.route(taken, "register")
    app.route(free, "register")
    taken = app.route(taken, "signUp", {"name": "Eve", "email": "owner@example.com", "password": PASSWORD})
    free = app.route(free, "signUp", {"name": "Eve", "email": "free@example.com", "password": PASSWORD})
    assert top(taken) == top(free) == "confirmSignUp"
    assert json.dumps(taken["state"]["stack"][-1]["components"]).replace("owner@", "free@") == json.dumps(free["state"]["stack"][-1]["components"])

    # Both are checked against a yescrypt hash (a dummy one for the unknown address): the
    # unknown address is not answered an order of magnitude sooner, as it was without a hash.
    def timed(email, password):
        start = time.monotonic()
        app.login(email, password)
        return time.monotonic() - start
    known_times = [timed("owner@example.com", f"wrong password {n}") for n in range(3)]
    unknown_times = [timed(f"nobody{n}@example.com", PASSWORD) for n in range(3)]
    print(f"median sign-in: registered {statistics.median(known_times) * 1000:.1f} ms, unknown {statistics.median(unknown_times) * 1000:.1f} ms")
    assert statistics.median(unknown_times) > statistics.median(known_times) / 3
    a.end()


@pytest.mark.parametrize("kind", STORES)
def test_guessing_is_throttled_then_locked_until_the_owner_enters_the_mailed_code(start_server, tmp_path, kind):
    server, app = server_for(start_server, tmp_path, kind)
    a = attack(server, rss_bound=24 * MiB)
    app.sign_up("victim@example.com")
    guesser = app.session()
    answers = [app.login("victim@example.com", f"guess number {n}", guesser) for n in range(10)]
    assert [notices(s) for s in answers[:5]] == [[REFUSED]] * 5
    assert all(notices(s) == [THROTTLED] for s in answers[5:9]), [notices(s) for s in answers]
    assert top(answers[9]) == "unlock", "the tenth failed attempt locks the address"

    # Locked: the right password, from a fresh session, does not get in.
    locked = app.login("victim@example.com", PASSWORD)
    assert top(locked) == "unlock" and context(locked).get("authenticated") is not True
    # A wrong code changes nothing; the owner's code from the mail lifts the lock and signs in.
    owner = app.session()
    app.login("victim@example.com", PASSWORD, owner)
    assert notices(app.route(owner, "unlock", {"code": "000000x", "password": PASSWORD})) == ["That code is not right, or it has expired."]
    assert top(app.route(owner, "unlock", {"code": app.code("victim@example.com"), "password": PASSWORD})) == "dashboard"
    a.end()


@pytest.mark.parametrize("kind", STORES)
def test_mail_goes_only_to_the_signed_in_address_and_not_too_often(start_server, tmp_path, kind):
    server, app = server_for(start_server, tmp_path, kind)
    a = attack(server, rss_bound=24 * MiB)
    app.sign_up("me@example.com")
    # Claiming another address is refused before any mail (the context's user is the server's).
    status, _, body = server.request("POST", "/v1/sessions", {"context": {**ONBOARDED, "authenticated": True, "user": "victim@example.com"}})
    assert (status, body["code"]) == (422, "context_not_settable"), body
    signed_out = app.session()
    with pytest.raises(AssertionError):
        app.route(signed_out, "emailTodos")  # no such route before signing in
    s = app.session()
    assert top(app.login("me@example.com", PASSWORD, s)) == "dashboard"
    server.request("POST", f"/v1/sessions/{s['id']}/tab", {"tab": "profile"}, headers={"Authorization": f"Bearer {s['token']}"})
    sent = [notices(app.route(s, "emailTodos")) for _ in range(25)]
    assert sent[:10] == [["Your to-dos (4 open) are on their way to me@example.com."]] * 10
    assert sent[10:] == [["You asked for your to-dos by mail often today: try again tomorrow."]] * 15
    todos = [m for m in app.messages("me@example.com") if m["subject"] == "Your to-dos"]
    assert len(todos) == 10
    assert app.messages("victim@example.com") == []
    a.end()
