#!/usr/bin/env python3
"""Bytes per answer over the to-dos story (issue 45): the same steps in one session per wire form,
each answer's body as sent, for every shape and coding given.

Usage: story_bytes.py --port PORT [--shapes 1,2] [--codings identity,gzip] [--todos N]
Prints one row a step (tab todos, addTodo, saveTodo, showTodo, back, and with --todos N a showTodo
push with N to-dos) and one column a form, e.g. `shape 2 gzip`."""
import argparse, http.client, json

ap = argparse.ArgumentParser()
ap.add_argument("--port", type=int, required=True)
ap.add_argument("--shapes", default="1,2")
ap.add_argument("--codings", default="identity,gzip")
ap.add_argument("--todos", type=int, default=50)
a = ap.parse_args()
conn = http.client.HTTPConnection("127.0.0.1", a.port, timeout=30)


def call(method, path, body=None, headers=None):
    conn.request(method, path, body=json.dumps(body) if body is not None else None,
                 headers={**({"Content-Type": "application/json"} if body is not None else {}), **(headers or {})})
    r = conn.getresponse()
    data = r.read()
    if not 200 <= r.status < 300:
        raise SystemExit(f"{method} {path} -> {r.status} {data[:200]!r}")
    return data


def story(shape, coding):
    """[(step, bytes)] for one session read in `shape`, coded with `coding`."""
    headers = {"Accept-Encoding": coding}
    if shape != 1:
        headers["Wayfinder-Shape"] = str(shape)
    created = json.loads(call("POST", "/v1/sessions", {"context": {"onboarded": True}}))
    base, auth = f"/v1/sessions/{created['id']}", {"Authorization": "Bearer " + created["token"]}
    # Signed in through the login screen (an address with no account signs in).
    call("POST", base + "/routes", {"route": "login", "params": {"email": "a@b.c", "password": "secret-1"}}, auth)
    h = {**headers, **auth}
    steps = []
    act = lambda name, path, body: steps.append((name, len(call("POST", base + path, body, h))))
    act("tab todos", "/tab", {"tab": "todos"})
    act("addTodo", "/routes", {"route": "addTodo"})
    act("saveTodo", "/routes", {"route": "saveTodo", "params": {"title": "Buy milk", "description": "two litres"}})
    act("showTodo", "/routes", {"route": "showTodo", "params": {"id": "1"}})
    act("back", "/back", {})
    for i in range(a.todos - 1):
        call("POST", base + "/routes", {"route": "addTodo"}, auth)
        call("POST", base + "/routes", {"route": "saveTodo", "params": {"title": f"To-do {i}", "description": "details"}}, auth)
    if a.todos > 1:
        act(f"showTodo ({a.todos} to-dos)", "/routes", {"route": "showTodo", "params": {"id": "1"}})
    return steps


forms = [(int(s), c) for s in a.shapes.split(",") for c in a.codings.split(",")]
results = {form: story(*form) for form in forms}
names = [name for name, _ in results[forms[0]]]
print("step".ljust(24) + "".join(f"shape {s} {c}".rjust(18) for s, c in forms))
for i, name in enumerate(names):
    print(name.ljust(24) + "".join(f"{results[f][i][1]:,} B".rjust(18) for f in forms))
