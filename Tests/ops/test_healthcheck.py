"""`wayfinder healthcheck` (the container's HEALTHCHECK): 0 when /healthz answers 200, else 1."""
import time

from conftest import free_port, run_binary, wait_for


def test_healthcheck_passes_against_a_running_server(start_server):
    server = start_server("--store", "memory")
    result = run_binary(["healthcheck"], {"WAYFINDER_PORT": str(server.port)})
    assert result.returncode == 0, result.stderr
    # Log lines are written by the server's log thread, a moment after the answer.
    wait_for(lambda: any(r.get("path") == "/healthz" and r.get("status") == 200 for r in server.records()), 5,
             message="the healthcheck's request line")


def test_healthcheck_fails_quickly_without_a_server():
    started = time.monotonic()
    result = run_binary(["healthcheck"], {"WAYFINDER_PORT": str(free_port())})
    assert result.returncode == 1
    assert time.monotonic() - started < 3
    assert len(result.stderr.splitlines()) == 1 and "healthcheck" in result.stderr


def test_healthcheck_times_out_on_a_silent_port():
    import socket
    with socket.socket() as silent:  # accepts (backlog) but never answers
        silent.bind(("127.0.0.1", 0))
        silent.listen(1)
        started = time.monotonic()
        result = run_binary(["healthcheck"], {"WAYFINDER_PORT": str(silent.getsockname()[1])})
        elapsed = time.monotonic() - started
    assert result.returncode == 1
    assert 1.5 < elapsed < 4, elapsed
