"""/metrics is valid Prometheus text (parsed by prometheus_client) and has the issue's metrics."""
import http.client

from prometheus_client.parser import text_string_to_metric_families

from conftest import wait_for


def scrape(server):
    status, heads, text = server.request("GET", "/metrics")
    assert status == 200
    assert heads["content-type"].startswith("text/plain"), heads["content-type"]
    families = {f.name: f for f in text_string_to_metric_families(text)}
    return families


def samples(family, name=None):
    return [s for s in family.samples if name is None or s.name == name]


def test_metrics_parse_and_cover_the_issue(start_server, tmp_path):
    server = start_server("--store", f"sqlite:{tmp_path / 'metrics.sqlite'}")
    sid, token = server.create_session({"onboarded": True}, user="a@b.c")
    auth = {"Authorization": f"Bearer {token}"}
    status, _, _ = server.request("POST", f"/v1/sessions/{sid}/tab", {"tab": "todos"}, headers=auth)
    assert status == 200
    status, _, body = server.request("POST", f"/v1/sessions/{sid}/routes", {"route": "addTodo"}, headers=auth)
    assert status == 200, body
    server.request("GET", f"/v1/sessions/{sid}", headers=auth)
    server.request("GET", "/v1/sessions/does-not-exist", headers=auth)  # a 404

    # Hold an event stream open so the gauge shows it.
    stream = http.client.HTTPConnection("127.0.0.1", server.port, timeout=5)
    stream.request("GET", f"/v1/sessions/{sid}/events", headers=auth)
    assert stream.getresponse().status == 200
    try:
        families = wait_for(lambda: (lambda f: f if f["wayfinder_event_streams_open"].samples[0].value >= 1 else None)(scrape(server)),
                            5, message="the event stream gauge")
    finally:
        stream.close()

    requests = families["wayfinder_http_requests"]  # the parser drops the _total suffix
    assert requests.type == "counter"
    by_route = {(s.labels["route"], s.labels["method"], s.labels["status"]): s.value for s in samples(requests, "wayfinder_http_requests_total")}
    templates = {route for route, _, _ in by_route}
    assert all(sid not in route for route in templates), f"a session id in a route label: {templates}"
    assert ("/v1/sessions", "POST", "201") in by_route, by_route
    assert any(r.endswith("/routes") and "{" in r and s == "200" for r, _, s in by_route), by_route
    assert any(s == "404" for _, _, s in by_route), by_route

    latency = families["wayfinder_http_request_duration_seconds"]
    assert latency.type == "histogram"
    buckets = samples(latency, "wayfinder_http_request_duration_seconds_bucket")
    assert any(s.labels["le"] == "+Inf" for s in buckets)
    counts = samples(latency, "wayfinder_http_request_duration_seconds_count")
    assert sum(s.value for s in counts) >= 5

    assert families["wayfinder_http_open_connections"].type == "gauge"
    assert families["wayfinder_http_open_connections"].samples[0].value >= 1
    assert families["wayfinder_sessions_active"].type == "gauge"
    assert families["wayfinder_sessions_active"].samples[0].value >= 1

    routes = families["wayfinder_routes_triggered"]
    assert routes.type == "counter"
    flows = {(s.labels["flow"], s.labels["route"]) for s in routes.samples if s.name.endswith("_total")}
    assert any(route == "addTodo" for _, route in flows), flows

    store = families["wayfinder_store_operation_duration_seconds"]
    assert store.type == "histogram"
    ops = {s.labels["op"] for s in store.samples}
    assert ops, "no store operation observed"

    assert families["wayfinder_event_streams_open"].type == "gauge"

    memory = families["process_resident_memory_bytes"]
    assert memory.type == "gauge"
    assert memory.samples[0].value > 1_000_000


def test_histogram_buckets_are_cumulative(start_server):
    server = start_server("--store", "memory")
    for _ in range(5):
        server.request("GET", "/v1/flows")
    families = scrape(server)
    latency = families["wayfinder_http_request_duration_seconds"]
    by_route = {}
    for s in samples(latency, "wayfinder_http_request_duration_seconds_bucket"):
        le = float("inf") if s.labels["le"] == "+Inf" else float(s.labels["le"])
        by_route.setdefault(s.labels["route"], []).append((le, s.value))
    assert by_route
    for route, buckets in by_route.items():
        values = [v for _, v in sorted(buckets)]
        assert values == sorted(values), f"{route}: buckets not cumulative {buckets}"
