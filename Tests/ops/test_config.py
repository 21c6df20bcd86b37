"""Configuration: flags, WAYFINDER_* variables (flags win), bad values exit 2 with one line, --help."""
import re

import pytest

from conftest import REPO, run_binary


def declared_settings():
    """The option names declared in Sources/WayfinderServer/Settings.swift."""
    source = "".join((REPO / "Sources/WayfinderServer" / name).read_text() for name in ("Settings.swift", "Settings+Identity.swift"))
    names = re.findall(r'Option\(\s*name:\s*"([a-z0-9-]+)"', source)
    assert len(names) >= 10, names
    return names


def variable(name):
    return "WAYFINDER_" + name.upper().replace("-", "_")


BAD = [
    (["--port", "abc"], {}, "--port"),
    (["--port", "70000"], {}, "--port"),
    ([], {"WAYFINDER_PORT": "http"}, "WAYFINDER_PORT"),
    ([], {"WAYFINDER_SESSION_TTL": "-1"}, "WAYFINDER_SESSION_TTL"),
    (["--session-ttl", "soon"], {}, "--session-ttl"),
    (["--store", "nonsense"], {}, "--store"),
    ([], {"WAYFINDER_STORE": "postgres://x"}, "WAYFINDER_STORE"),
    (["--log-level", "loud"], {}, "--log-level"),
    ([], {"WAYFINDER_MAX_SESSIONS": "0"}, "WAYFINDER_MAX_SESSIONS"),
    (["--threads=zero"], {}, "--threads"),
    (["--no-such-setting", "1"], {}, "--no-such-setting"),
    (["--port"], {}, "--port"),
    (["--trusted-proxy", "10.0.0.1/8"], {}, "--trusted-proxy"),
    ([], {"WAYFINDER_MAX_CONNECTIONS_PER_ADDRESS": "-1"}, "WAYFINDER_MAX_CONNECTIONS_PER_ADDRESS"),
    (["--route-rate", "fast"], {}, "--route-rate"),
    (["--client-ip-header", "X-Real-IP"], {}, "--trusted-proxy"),
]


@pytest.mark.parametrize("args,env,name", BAD, ids=[n + ":" + " ".join(a) + ",".join(f"{k}={v}" for k, v in e.items()) for a, e, n in BAD])
def test_bad_setting_exits_2_with_one_line_naming_it(args, env, name):
    result = run_binary(args, env)
    assert result.returncode == 2, (result.returncode, result.stderr)
    lines = result.stderr.splitlines()
    assert len(lines) == 1, f"expected one stderr line, got: {result.stderr!r}"
    assert name in lines[0], lines[0]
    assert len(lines[0]) < 200 and lines[0].isprintable()
    assert result.stdout == "", "nothing on stdout when the start fails"


def test_bad_flag_is_reported_even_with_a_good_variable():
    result = run_binary(["--port", "abc"], {"WAYFINDER_PORT": "9000"})
    assert result.returncode == 2 and "--port" in result.stderr


def test_every_setting_has_a_variable_that_is_read():
    """A bad value in any WAYFINDER_* variable is noticed (so every variable is actually read)."""
    for name in declared_settings():
        if name in ("public", "openapi", "host"):
            result = run_binary([], {variable(name): ""}) if name == "host" else None
            if result is not None:
                assert result.returncode == 2 and variable(name) in result.stderr, (name, result.stderr)
            continue
        result = run_binary([], {variable(name): "\u00bfbad?"})
        assert result.returncode == 2, (name, result.returncode, result.stderr)
        assert variable(name) in result.stderr, (name, result.stderr)


def test_help_lists_every_setting_with_its_variable_and_default():
    result = run_binary(["--help"])
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    for name in declared_settings():
        line = next((l for l in lines if re.search(r"--" + re.escape(name) + r"\b(?!-)", l)), None)
        assert line, f"--help does not list --{name}"
        assert variable(name) in line, f"--help line of --{name} lacks {variable(name)}: {line}"
        assert re.search(r"\(default: [^)]+\)", line), f"--help line of --{name} lacks a default: {line}"
    host = next(l for l in lines if "--host" in l)
    assert "(default: 127.0.0.1)" in host, "the local default host is 127.0.0.1"


def test_flags_win_over_environment(start_server):
    # The variable asks for debug logs and a bad port would fail; the flags override both.
    server = start_server("--log-level", "warn", "--store", "memory",
                          env={"WAYFINDER_LOG_LEVEL": "debug", "WAYFINDER_STORE": "sqlite:/nonexistent/dir/x.sqlite",
                               "WAYFINDER_PORT": "1"})
    status, _, _ = server.request("GET", "/healthz")
    assert status == 200
    # --log-level warn from the flag: no request line is logged (info), unlike with the variable.
    server.request("GET", "/v1/flows")
    assert not [r for r in server.records() if r.get("event") == "request"]


def test_environment_is_used_without_flags(start_server):
    server = start_server("--store", "memory", env={"WAYFINDER_LOG_LEVEL": "warn"})
    server.request("GET", "/healthz")
    assert not [r for r in server.records() if r.get("event") == "request"], "WAYFINDER_LOG_LEVEL=warn was ignored"


def test_a_jwks_that_does_not_parse_stops_the_start_with_its_reason(tmp_path):
    jwks = tmp_path / "jwks.json"
    common = ["--jwt-issuer", "https://id.example.com", "--jwt-audience", "app", "--jwt-jwks-file", str(jwks)]
    for document, reason in [("not json", "not JSON"), ('{"keys": 3}', '"keys"'),
                             ('{"keys": [{"kty": "RSA", "kid": "a", "n": "AQAB", "e": "AQAB"}]}', "kid")]:
        jwks.write_text(document)
        result = run_binary(common)
        assert result.returncode == 2, (document, result.returncode, result.stderr)
        assert "cannot verify JWTs" in result.stderr and reason in result.stderr, (document, result.stderr)
    secret = tmp_path / "secret"
    secret.write_text("too short")
    result = run_binary(["--jwt-issuer", "https://id.example.com", "--jwt-audience", "app", "--jwt-secret-file", str(secret)])
    assert result.returncode == 2 and "32" in result.stderr, result.stderr
    result = run_binary(["--jwt-issuer", "https://id.example.com"])
    assert result.returncode == 2 and "--jwt-audience" in result.stderr, result.stderr
    key = tmp_path / "operator"
    key.write_text("short\n")
    result = run_binary(["--operator-key-file", str(key)])
    assert result.returncode == 2 and "operator key" in result.stderr, result.stderr
