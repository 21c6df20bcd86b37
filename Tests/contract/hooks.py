"""Schemathesis hooks: session-scoped operations get a real session and its bearer token.

Registered as an auth provider, so Schemathesis still sends requests without it when it
checks that auth is enforced. Each case gets a fresh session (created through the API
itself) in one of a few starting contexts, so cases cannot disturb each other and the
bodies of routes, back, tab and deeplinks reach the engine in different flows.
"""
import base64
import hashlib
import hmac
import itertools
import json
import os
import time
import urllib.request

import schemathesis

BASE = os.environ["WAYFINDER_URL"]

# The server trusts HS256 JWTs signed with this secret (scripts/contract-test configures it).
JWT_SECRET = os.environ["WAYFINDER_CONTRACT_JWT_SECRET"].encode()
OPERATOR_KEY = os.environ["WAYFINDER_OPERATOR_KEY"]

# (context, signed in as): signed-in sessions are made by the identity provider's token.
CONTEXTS = [
    ({}, None),
    ({"onboarded": True}, None),
    ({"onboarded": True}, "a@b.c"),
    ({"onboarded": True, "platform": "web"}, "a@b.c"),
]
_next_context = itertools.cycle(CONTEXTS)


def _b64(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def jwt_token(user):
    now = int(time.time())
    claims = {"iss": "https://id.contract.test", "aud": "wayfinder-contract", "sub": user, "email": user, "iat": now, "exp": now + 3600}
    signing_input = _b64(json.dumps({"alg": "HS256", "typ": "JWT"}).encode()) + "." + _b64(json.dumps(claims).encode())
    return signing_input + "." + _b64(hmac.new(JWT_SECRET, signing_input.encode(), hashlib.sha256).digest())


def new_session(launch):
    context, user = launch
    body = json.dumps({"context": context}).encode()
    headers = {"Content-Type": "application/json"}
    if user:
        headers["Authorization"] = "Bearer " + jwt_token(user)
    request = urllib.request.Request(BASE + "/v1/sessions", data=body, method="POST", headers=headers)
    with urllib.request.urlopen(request, timeout=10) as response:
        created = json.load(response)
    return created["id"], created["token"]


@schemathesis.auth(refresh_interval=None)
class FreshSession:
    def get(self, case, context):
        if case.operation.path.startswith("/v1/users/"):
            return "operator"
        if "{id}" not in case.operation.path:
            return None
        session = new_session(next(_next_context))
        # A signal is the team's backend's: a session's id, the operator key.
        return ("signal", session) if case.operation.path.endswith("/signals") else session

    def set(self, case, data, context):
        if data is None:
            return
        if data == "operator":
            case.headers = {**(case.headers or {}), "Authorization": "Bearer " + OPERATOR_KEY}
            return
        if data[0] == "signal":
            session, _ = data[1]
            case.path_parameters = {**(case.path_parameters or {}), "id": session}
            case.headers = {**(case.headers or {}), "Authorization": "Bearer " + OPERATOR_KEY}
            return
        session, token = data
        case.path_parameters = {**(case.path_parameters or {}), "id": session}
        case.headers = {**(case.headers or {}), "Authorization": "Bearer " + token}
