#!/usr/bin/env bash
# Browser tests of the web client (Public/) against the real server.
#
#   Tests/browser/run.sh [pytest args...]
#
# Installs what is missing (Debian's chromium and chromium-driver; selenium and pytest in .venv),
# starts $WAYFINDER_BIN (default .build/debug/wayfinder; this script builds nothing) on a free
# loopback port with the in-memory store, waits for /healthz, runs pytest, stops the server.
# Screenshots go to artifacts/screenshots/, the server's log to artifacts/browser-server.log.
# The exit code is pytest's.
set -uo pipefail

cd "$(dirname "$0")/../.." || exit 2
ROOT=$PWD
WAYFINDER_BIN=${WAYFINDER_BIN:-.build/debug/wayfinder}
VENV=${BROWSER_TEST_VENV:-$ROOT/.venv}
export SCREENSHOT_DIR=${SCREENSHOT_DIR:-$ROOT/artifacts/screenshots}
export SE_OFFLINE=true   # Selenium Manager must never download a browser or a driver
SERVER_LOG=$ROOT/artifacts/browser-server.log

as_root() { if [ "$(id -u)" = 0 ]; then "$@"; else sudo "$@"; fi; }

# 1. Chromium and its driver, from Debian.
if ! [ -x /usr/bin/chromium ] || ! [ -x /usr/bin/chromedriver ]; then
  echo "run.sh: installing chromium and chromium-driver"
  as_root env DEBIAN_FRONTEND=noninteractive apt-get update -qq || exit 2
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium chromium-driver >/dev/null || exit 2
fi

# 2. selenium and pytest, in a virtual environment.
if ! "$VENV/bin/python" -c 'import selenium, pytest' 2>/dev/null; then
  echo "run.sh: installing selenium and pytest into $VENV"
  if ! python3 -m venv "$VENV" 2>/dev/null; then
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq python3-venv >/dev/null || exit 2
    python3 -m venv "$VENV" || exit 2
  fi
  "$VENV/bin/pip" install -q -r Tests/browser/requirements.txt || exit 2
fi

# 3. The server.
if ! [ -x "$WAYFINDER_BIN" ]; then
  echo "run.sh: no server binary at $WAYFINDER_BIN (build it with 'swift build', or set WAYFINDER_BIN)" >&2
  exit 2
fi
PORT=$("$VENV/bin/python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
mkdir -p "$ROOT/artifacts" "$SCREENSHOT_DIR"
# The sample app mails its codes (sign-up, reset, unlock) to these files; the tests read them.
export WAYFINDER_MAIL=$ROOT/artifacts/browser-mail.jsonl WAYFINDER_SLOW_MAIL=$ROOT/artifacts/browser-slow-mail.jsonl
rm -f "$WAYFINDER_MAIL" "$WAYFINDER_SLOW_MAIL"
WAYFINDER_DEMO_MAIL=$WAYFINDER_MAIL "$WAYFINDER_BIN" --host 127.0.0.1 --port "$PORT" --store memory --public Public >"$SERVER_LOG" 2>&1 &
SERVER_PID=$!
stop_server() {
  if kill -0 "$SERVER_PID" 2>/dev/null; then
    kill "$SERVER_PID" 2>/dev/null
    for _ in $(seq 1 50); do kill -0 "$SERVER_PID" 2>/dev/null || break; sleep 0.1; done
    kill -9 "$SERVER_PID" 2>/dev/null
  fi
  wait "$SERVER_PID" 2>/dev/null
}
# A second server whose account service takes 1.5 s, with a 200 ms effect wait: sign-in shows
# the busy screen, and its result is pushed (Tests/browser/test_effects.py).
SLOW_PORT=$("$VENV/bin/python" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
WAYFINDER_DEMO_MAIL=$WAYFINDER_SLOW_MAIL WAYFINDER_DEMO_SERVICE_DELAY=1.5 "$WAYFINDER_BIN" --host 127.0.0.1 --port "$SLOW_PORT" --store memory --public Public \
  --effect-wait 200ms >"$ROOT/artifacts/browser-slow-server.log" 2>&1 &
SLOW_PID=$!
stop_slow() { kill "$SLOW_PID" 2>/dev/null; wait "$SLOW_PID" 2>/dev/null; }
trap 'stop_server; stop_slow' EXIT
export WAYFINDER_SLOW_URL="http://127.0.0.1:$SLOW_PORT"

export WAYFINDER_URL="http://127.0.0.1:$PORT"
if ! "$VENV/bin/python" - "$WAYFINDER_URL/healthz" "$SERVER_PID" <<'PY'
import os, sys, time, urllib.request
url, pid = sys.argv[1], int(sys.argv[2])
deadline = time.monotonic() + 30
while time.monotonic() < deadline:
    try:
        os.kill(pid, 0)
    except OSError:
        sys.exit("the server exited before it was healthy")
    try:
        with urllib.request.urlopen(url, timeout=1) as r:
            if r.status == 200:
                sys.exit(0)
    except Exception:
        pass
    time.sleep(0.1)
sys.exit("the server was not healthy within 30 s")
PY
then
  echo "run.sh: server log:" >&2
  tail -n 40 "$SERVER_LOG" >&2
  exit 2
fi
echo "run.sh: server $WAYFINDER_BIN (pid $SERVER_PID) on $WAYFINDER_URL"

# 4. The tests.
"$VENV/bin/python" -m pytest Tests/browser -p no:cacheprovider -v "$@"
RC=$?
stop_server
stop_slow
trap - EXIT
echo "run.sh: screenshots in ${SCREENSHOT_DIR#$ROOT/}"
exit $RC
