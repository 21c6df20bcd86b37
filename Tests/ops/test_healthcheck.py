"""`wayfinder healthcheck` (the container's HEALTHCHECK): 0 when /healthz answers 200, else 1."""
import os
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


def test_healthcheck_takes_the_port_as_a_flag_over_the_environment(start_server):
    server = start_server("--store", "memory")
    result = run_binary(["healthcheck", "--port", str(server.port)], {"WAYFINDER_PORT": str(free_port())})
    assert result.returncode == 0, result.stderr
    refused = run_binary(["healthcheck", "--port", str(free_port())], {"WAYFINDER_PORT": str(server.port)})
    assert refused.returncode == 1 and "connect 127.0.0.1:" in refused.stderr


def test_healthcheck_help_and_bad_arguments():
    shown = run_binary(["healthcheck", "--help"])
    assert shown.returncode == 0 and shown.stdout.startswith("Usage: wayfinder healthcheck [--port PORT]")
    for args, reason in ((["--bogus"], "unknown argument '--bogus'"), (["--port"], "--port needs a value"),
                         (["--port", "0"], "--port '0' is not a port")):
        result = run_binary(["healthcheck", *args])
        assert result.returncode == (1 if args[0] == "--port" and len(args) == 2 else 2), (args, result)
        assert result.stderr.startswith(f"wayfinder healthcheck: {reason}"), result.stderr


def test_healthcheck_speaks_in_the_executables_name(tmp_path):
    import subprocess
    from conftest import binary, clean_environment
    renamed = tmp_path / "greeter"
    renamed.symlink_to(os.path.abspath(binary()))
    result = subprocess.run([str(renamed), "healthcheck", "--port", str(free_port())], env=clean_environment(None),
                            capture_output=True, text=True, timeout=10)
    assert result.returncode == 1
    assert result.stderr.startswith("greeter healthcheck: "), result.stderr
    shown = subprocess.run([str(renamed), "healthcheck", "--help"], env=clean_environment(None),
                           capture_output=True, text=True, timeout=10)
    assert shown.stdout.startswith("Usage: greeter healthcheck"), shown.stdout
