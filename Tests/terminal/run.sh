#!/usr/bin/env bash
# The terminal client in a real terminal: tmux runs wayfinder-terminal against the real server;
# this script types keys into it and reads the screen back (capture-pane) through onboarding,
# a refused action, sign-in, adding a to-do, a change pushed from elsewhere, logging out, and
# resuming the session in a new run.
#
# Uses $WAYFINDER_BIN (default .build/debug/wayfinder) and the wayfinder-terminal beside it
# (or $WAYFINDER_TERMINAL_BIN). Needs tmux and python3 (scripts/install-deps test).
set -euo pipefail
cd "$(dirname "$0")/../.."
server_bin=${WAYFINDER_BIN:-.build/debug/wayfinder}
terminal_bin=${WAYFINDER_TERMINAL_BIN:-$(dirname "$server_bin")/wayfinder-terminal}
for bin in "$server_bin" "$terminal_bin"; do
    [ -x "$bin" ] || { echo "not built: $bin (swift build first)"; exit 1; }
done
command -v tmux >/dev/null || { echo "tmux is missing (scripts/install-deps test)"; exit 1; }

work=$(mktemp -d)
tmux_socket="$work/tmux.socket"
server_pid=
cleanup() {
    tmux -S "$tmux_socket" kill-server 2>/dev/null || true
    [ -n "$server_pid" ] && kill "$server_pid" 2>/dev/null && wait "$server_pid" 2>/dev/null
    rm -rf "$work"
}
trap cleanup EXIT

step() { printf '  %s\n' "$*"; }
fail() {
    {
        echo "FAILED: $*"
        echo "---- the terminal ----"
        tmux -S "$tmux_socket" capture-pane -p -t t 2>/dev/null || true
        echo "----------------------"
    } >&2
    exit 1
}

# ---- the command line ---------------------------------------------------------------------------
help=$("$terminal_bin" --help)
grep -q "Usage: wayfinder-terminal" <<<"$help" || fail "--help shows no usage"
status=0
"$terminal_bin" not-a-url >/dev/null 2>&1 || status=$?
[ "$status" = 2 ] || fail "a bad URL exits with $status, not 2"
step "--help and a bad URL"

# ---- the server, on a free port -----------------------------------------------------------------
WAYFINDER_DEMO_MAIL="$work/mail.jsonl" "$server_bin" --port 0 --store memory --log-level info >"$work/server.log" 2>&1 &
server_pid=$!
port=
for _ in $(seq 100); do
    port=$(grep -o '"event":"listening"[^}]*"port":[0-9]*' "$work/server.log" 2>/dev/null | grep -o '[0-9]*$' || true)
    [ -n "$port" ] && break
    sleep 0.1
done
[ -n "$port" ] || fail "the server did not start: $(cat "$work/server.log")"
server="http://127.0.0.1:$port"

# Ada's account, made as a user makes one: sign up, then the code the server mailed.
python3 - "$server" "$work/mail.jsonl" <<'PY' || fail "could not make Ada's account"
import json, re, sys, time, urllib.request
server, mail = sys.argv[1:]
def call(path, body, token=None):
    headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
    request = urllib.request.Request(server + path, data=json.dumps(body).encode(), method="POST", headers=headers)
    with urllib.request.urlopen(request, timeout=10) as answer:
        return json.load(answer)
session = call("/v1/sessions", {"context": {"onboarded": True}})
route = lambda name, params={}: call(f"/v1/sessions/{session['id']}/routes", {"route": name, "params": params}, session["token"])
route("register")
route("signUp", {"name": "Ada", "email": "ada@example.com", "password": "correct horse battery"})
for _ in range(200):
    try:
        sent = [json.loads(line) for line in open(mail) if line.strip()]
    except FileNotFoundError:
        sent = []
    codes = [re.search(r"\b\d{6}\b", m["body"]) for m in sent if m["to"] == "ada@example.com"]
    if codes and codes[-1]:
        break
    time.sleep(0.05)
else:
    sys.exit("no code was mailed")
route("confirmSignUp", {"code": codes[-1].group(0)})
PY

# ---- the terminal -------------------------------------------------------------------------------
tmux -S "$tmux_socket" -f /dev/null new-session -d -s t -x 110 -y 45 \
    "$terminal_bin --session-file $work/session.json $server; echo \"[exit \$?]\"; sleep 60"

screen() { tmux -S "$tmux_socket" capture-pane -p -t t; }
# Whether the screen matches the extended regular expression $1 (captured first: no pipe into
# grep -q, whose early exit would fail the pipeline).
shows() {
    local now
    now=$(screen)
    grep -Eq -- "$1" <<<"$now"
}

# Waits (at most 10 s) until the screen matches the extended regular expression $1.
wait_for() {
    for _ in $(seq 100); do
        shows "$1" && return 0
        sleep 0.1
    done
    fail "the screen never showed /$1/"
}

# Types $1 and Enter.
type_line() {
    tmux -S "$tmux_socket" send-keys -t t -l -- "$1"
    tmux -S "$tmux_socket" send-keys -t t Enter
}

# The number on the screen's control whose line matches $1 ("[3] ( Sign in )" -> 3).
number_of() {
    local now n
    now=$(screen)
    n=$(grep -m 1 -E -- "^\[[0-9]+\] .*$1" <<<"$now" | sed -E 's/^\[([0-9]+)\].*/\1/' || true)
    [ -n "$n" ] || fail "no control matches /$1/"
    echo "$n"
}

# Presses the control matching $1.
press() {
    local n
    n=$(number_of "$1") || exit 1
    type_line "$n"
}

# Edits the field labelled $1 to $2.
fill() {
    press "$1:"
    wait_for "^$1:"
    tmux -S "$tmux_socket" send-keys -t t C-u
    type_line "$2"
}

# Selects the tab whose title matches $1 (by its t<n> in the tab bar).
tab() {
    local now n
    now=$(screen)
    n=$(grep -m 1 -E '^Tabs:' <<<"$now" | grep -oE "t[0-9]+ $1" | grep -m 1 -oE '^t[0-9]+' || true)
    [ -n "$n" ] || fail "no tab matches /$1/"
    type_line "$n"
}

# A change made by another client of the same session (python3: no curl needed).
push_from_elsewhere() {
    python3 - "$server" "$work/session.json" "$1" "$2" <<'PY'
import json, sys, urllib.request
server, file, path, body = sys.argv[1:]
session = json.load(open(file))
request = urllib.request.Request(
    f"{server}/v1/sessions/{session['id']}{path}", data=body.encode(), method="POST",
    headers={"Authorization": f"Bearer {session['token']}", "Content-Type": "application/json"})
with urllib.request.urlopen(request) as answer:
    assert answer.status == 200, answer.status
PY
}

wait_for "revision 1"
wait_for "^\[[0-9]+\] \( Skip \)"
step "the first screen: onboarding, numbered controls"

type_line b
wait_for "^! 422 nothing_to_pop"
step "a refusal is shown under the screen (back at a root screen)"

press "\( Skip \)"
wait_for "^\[[0-9]+\] Email: "
fill Email "ada@example.com"
wait_for "Email: ada@example.com"
fill Password "correct horse battery"
wait_for "Password: •+"
press "\( Sign in \)"
wait_for "^Tabs: "
step "signed in: the tab bar"

type_line "g wayfinder://nowhere"
wait_for "^! 422 unknown_deeplink"
step "a deep link the server does not know is refused"

tab "To-?dos"
wait_for "\[t[0-9]+ To-?dos\]"
press "\( Add"
wait_for "\[(sheet|fullScreen) "
fill Title "Buy bread from tmux"
press "\( Save \)"
wait_for "^\[[0-9]+\] ☐ Buy bread from tmux"
shows "\[(sheet|fullScreen) " && fail "the modal is still shown"
step "a to-do added in a modal over the to-dos tab"

push_from_elsewhere /deeplinks '{"url": "wayfinder://profile"}'
wait_for "\[t[0-9]+ Profile\]"
wait_for "Signed in as ada@example.com"
step "a change pushed from elsewhere shows up live (the profile tab)"

press "\( (Log out|Sign out) \)"
wait_for "^\[[0-9]+\] Email: "
shows "^Tabs: " && fail "the tab bar is still shown after logging out"
step "logged out: back on the sign-in screen"

now=$(screen)
revision=$(grep -m 1 -oE 'revision [0-9]+' <<<"$now")
type_line q
wait_for "^\[exit 0\]"
shows "left running; resume it with --session-file" || fail "no goodbye line"
step "q quits cleanly"

tmux -S "$tmux_socket" kill-session -t t
tmux -S "$tmux_socket" -f /dev/null new-session -d -s t -x 110 -y 45 "$terminal_bin --session-file $work/session.json $server"
wait_for "$revision\b"
wait_for "^\[[0-9]+\] Email: "
step "started again with the same --session-file: the same session ($revision)"
echo "terminal client: all steps passed"
