"""Schemathesis hooks: session-scoped operations get a real session and its bearer token.

Registered as an auth provider, so Schemathesis still sends requests without it when it
checks that auth is enforced. Each case gets a fresh session (created through the API
itself) in one of a few starting contexts, so cases cannot disturb each other and the
bodies of routes, back, tab and deeplinks reach the engine in different flows.
"""
import itertools
import json
import os
import urllib.request

import schemathesis

BASE = os.environ["WAYFINDER_URL"]

CONTEXTS = [
    {},
    {"onboarded": True},
    {"onboarded": True, "authenticated": True, "user": "a@b.c"},
    {"onboarded": True, "authenticated": True, "user": "a@b.c", "platform": "web"},
]
_next_context = itertools.cycle(CONTEXTS)


def new_session(context):
    body = json.dumps({"context": context}).encode()
    request = urllib.request.Request(
        BASE + "/v1/sessions", data=body, method="POST", headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=10) as response:
        created = json.load(response)
    return created["id"], created["token"]


@schemathesis.auth(refresh_interval=None)
class FreshSession:
    def get(self, case, context):
        if "{id}" not in case.operation.path:
            return None
        return new_session(next(_next_context))

    def set(self, case, data, context):
        if data is None:
            return
        session, token = data
        case.path_parameters = {**(case.path_parameters or {}), "id": session}
        case.headers = {**(case.headers or {}), "Authorization": "Bearer " + token}
