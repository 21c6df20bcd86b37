"""Effects on two `wayfinder` instances behind one Redis (issue 20): the instance that accepted
an action runs its effect; another instance that starts meanwhile finds the effect pending in
Redis, sees it claimed, and leaves it alone. The service is called once in all, counted by both
instances' `wayfinder_effect_calls_total`.
"""
import re

from conftest import wait_for
from test_redis_cluster import auth, route

# The sample app's mail service takes this long (seconds), so the second instance starts while
# the first one's call is still at work.
SERVICE_DELAY = "5"


def effect_calls(server):
    _, _, text = server.request("GET", "/metrics")
    return sum(int(n) for n in re.findall(r'^wayfinder_effect_calls_total\{flow="profile",[^}]*\} (\d+)$', text, re.M))


def test_two_instances_run_an_effect_once(start_server, redis):
    env = {"WAYFINDER_DEMO_SERVICE_DELAY": SERVICE_DELAY}
    args = ("--store", redis.url, "--log-level", "warn", "--effect-wait", "100ms")
    a = start_server(*args, env=env, name="a")
    sid, token = a.create_session({"onboarded": True}, user="a@b.c")
    status, _, _ = a.request("POST", f"/v1/sessions/{sid}/tab", {"tab": "profile"}, auth(token))
    assert status == 200
    status, _, accepted = route(a, sid, token, "emailTodos")
    assert status == 202, accepted
    revision = accepted["state"]["revision"]
    assert accepted["state"]["stack"][-1]["busy"] is True

    # B starts with the effect pending in Redis and A's call still running: its resume pass
    # finds the session, fails to claim the effect and leaves it.
    b = start_server("--store", redis.url, "--log-level", "debug", "--effect-wait", "100ms", env=env, name="b")
    passes = wait_for(lambda: [r for r in b.records() if r.get("event") == "effects_resume_pass"], 10,
                      message="B's first resume pass")
    status, _, state = b.request("GET", f"/v1/sessions/{sid}", headers=auth(token))
    assert status == 200 and state["revision"] == revision and state["stack"][-1]["busy"] is True, \
        "A's service answered before B's resume pass (raise SERVICE_DELAY on a slower machine)"
    assert passes[0]["pending"] == 1 and passes[0]["claimed"] == 0, passes

    headers = {**auth(token), "If-None-Match": f'"{revision}"', "Prefer": "wait=20"}
    status, _, state = b.request("GET", f"/v1/sessions/{sid}", headers=headers)
    assert status == 200 and state["revision"] == revision + 1
    notices = [c["text"] for c in state["stack"][-1]["components"] if c["type"] == "notice"]
    assert notices == ["Your to-dos (4 open) are on their way to a@b.c."]

    wait_for(lambda: effect_calls(a) == 1, 10, message="A's count of the call")
    assert effect_calls(b) == 0
