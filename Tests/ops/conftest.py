"""Shared helpers of the operations tests: start the real `wayfinder` binary and talk HTTP to it.

The binary comes from $WAYFINDER_BIN (default .build/debug/wayfinder, relative to the repo root).
Servers listen on a free loopback port and are ready when /healthz answers.
"""
import base64
import hashlib
import hmac
import http.client
import json
import os
import signal
import socket
import subprocess
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]


def binary() -> str:
    path = Path(os.environ.get("WAYFINDER_BIN", ".build/debug/wayfinder"))
    if not path.is_absolute():
        path = REPO / path
    if not path.exists():
        pytest.fail(f"no wayfinder binary at {path} (set WAYFINDER_BIN)")
    return str(path)


# The tests' identity provider: servers trust HS256 JWTs signed with this secret, and take this
# operator key (what a team configures with --jwt-* and WAYFINDER_OPERATOR_KEY).
JWT_ISSUER = "https://id.wayfinder.test"
JWT_AUDIENCE = "wayfinder-ops"
JWT_SECRET = b"the operations tests' HS256 secret, 32+ bytes"
OPERATOR_KEY = "operator-key-of-the-operations-tests-0123456789"


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def jwt_token(subject, email=None, lifetime=3600, audience=JWT_AUDIENCE, secret=JWT_SECRET, alg="HS256", claims=None):
    """A JWT as the identity provider signs it (`alg` "none" leaves the signature empty)."""
    now = int(time.time())
    body = {"iss": JWT_ISSUER, "aud": audience, "sub": subject, "iat": now - 5, "exp": now + lifetime}
    if email:
        body["email"] = email
    body.update(claims or {})
    signing_input = _b64(json.dumps({"alg": alg, "typ": "JWT"}).encode()) + "." + _b64(json.dumps(body).encode())
    signature = b"" if alg == "none" else hmac.new(secret, signing_input.encode(), hashlib.sha256).digest()
    return signing_input + "." + _b64(signature)


def identity_args(folder):
    """The flags that make a server trust `jwt_token`'s tokens (the secret written into `folder`)."""
    path = Path(folder) / "jwt-secret"
    path.write_bytes(JWT_SECRET)
    return ["--jwt-issuer", JWT_ISSUER, "--jwt-audience", JWT_AUDIENCE, "--jwt-secret-file", str(path)]


def clean_environment(extra=None):
    """The test runner's environment without WAYFINDER_* settings, plus `extra`."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("WAYFINDER_")}
    env.update(extra or {})
    return env


def run_binary(args, env=None, timeout=10):
    return subprocess.run([binary(), *args], cwd=REPO, env=clean_environment(env),
                          capture_output=True, text=True, timeout=timeout)


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(condition, timeout, interval=0.02, message="condition"):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(interval)
    raise AssertionError(f"timed out after {timeout}s waiting for {message}")


class Server:
    """One running `wayfinder` (or `command`, a server built on the same library); stdout and
    stderr go to files so the pipes never fill up."""

    def __init__(self, tmp_path, args=(), env=None, name="server", preexec_fn=None, stdout=None, command=None):
        """`stdout`: where the server's stdout goes instead of its file (e.g. `subprocess.PIPE`)."""
        self.stdout_path = tmp_path / f"{name}.stdout"
        self.stderr_path = tmp_path / f"{name}.stderr"
        self._out = open(self.stdout_path, "wb")
        self._err = open(self.stderr_path, "wb")
        self.port = free_port()
        argv = [*(command or [binary()]), "--port", str(self.port), "--host", "127.0.0.1", "--public", str(REPO / "Public"),
                "--openapi", str(REPO / "openapi.yaml"), *identity_args(tmp_path), *args]
        environment = {"WAYFINDER_OPERATOR_KEY": OPERATOR_KEY, **(env or {})}
        self.process = subprocess.Popen(argv, cwd=tmp_path, env=clean_environment(environment),
                                        stdout=stdout or self._out, stderr=self._err, preexec_fn=preexec_fn)
        try:
            wait_for(self._healthy, 15, message=f"/healthz on port {self.port}")
        except BaseException:
            self.stop()
            raise

    def _healthy(self):
        if self.process.poll() is not None:
            raise AssertionError(f"server exited with {self.process.returncode}: {self.stderr()}")
        try:
            conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=2)
            conn.request("GET", "/healthz", headers={"X-Request-Id": "startup-probe"})
            return conn.getresponse().status == 200
        except OSError:
            return False
        finally:
            conn.close()

    def stdout(self) -> str:
        self._out.flush()
        return self.stdout_path.read_text(errors="replace")

    def stderr(self) -> str:
        self._err.flush()
        return self.stderr_path.read_text(errors="replace")

    def records(self, strict=True):
        out = []
        for line in self.stdout().splitlines(keepends=True):
            if not line.endswith("\n"):
                break  # still being written
            try:
                out.append(json.loads(line))
            except ValueError:
                if strict:
                    raise
        return out

    def connection(self, timeout=10):
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=timeout)

    def request(self, method, path, body=None, headers=None, connection=None):
        """One request; returns (status, headers dict (lower-case names), parsed JSON or text)."""
        own = connection is None
        conn = connection or self.connection()
        try:
            payload = None if body is None else json.dumps(body)
            all_headers = {"Content-Type": "application/json"} if body is not None else {}
            all_headers.update(headers or {})
            conn.request(method, path, body=payload, headers=all_headers)
            response = conn.getresponse()
            data = response.read()
            heads = {k.lower(): v for k, v in response.getheaders()}
            text = data.decode("utf-8", "replace")
            kind = heads.get("content-type", "")
            parsed = json.loads(text) if "json" in kind and text else text
            return response.status, heads, parsed
        finally:
            if own:
                conn.close()

    def create_session(self, context=None, user=None):
        """A new session; with `user`, signed in as them (a verified JWT, its email claim `user`)."""
        headers = {"Authorization": "Bearer " + jwt_token(user, email=user)} if user else {}
        status, _, body = self.request("POST", "/v1/sessions", {"context": context or {}}, headers=headers)
        assert status == 201, body
        return body["id"], body["token"]

    def signal(self, number=signal.SIGTERM):
        self.process.send_signal(number)

    def wait(self, timeout):
        try:
            return self.process.wait(timeout=timeout)
        finally:
            self._out.flush()
            self._err.flush()

    def stop(self):
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)
        if self.process.stdout:
            self.process.stdout.close()
        self._out.close()
        self._err.close()


@pytest.fixture
def start_server(tmp_path):
    servers = []

    def start(*args, env=None, name=None, preexec_fn=None, stdout=None, command=None):
        server = Server(tmp_path, args, env, name or f"server{len(servers)}", preexec_fn=preexec_fn, stdout=stdout,
                        command=command)
        servers.append(server)
        return server

    yield start
    for server in servers:
        server.stop()


REDIS = str(REPO / "scripts" / "redis")
# Tests kill Redis and count acknowledged writes: every write reaches the append-only file first.
REDIS_ENV = {**os.environ, "REDIS_APPENDFSYNC": "always"}


@pytest.fixture
def redis(tmp_path):
    """A throwaway redis-server (scripts/redis) with appendonly yes and appendfsync always, on a free
    loopback port."""
    port = free_port()
    data = tmp_path / "redis"
    subprocess.run([REDIS, "start", str(port), str(data)], check=True, capture_output=True, timeout=30,
                   env=REDIS_ENV)

    class Redis:
        url = f"redis://127.0.0.1:{port}"

        def kill(self):
            subprocess.run([REDIS, "kill", str(port), str(data)], check=True, capture_output=True, timeout=30)

        def start(self):
            subprocess.run([REDIS, "start", str(port), str(data)], check=True, capture_output=True, timeout=30,
                           env=REDIS_ENV)

    yield Redis()
    subprocess.run([REDIS, "stop", str(port), str(data)], capture_output=True, timeout=30)
