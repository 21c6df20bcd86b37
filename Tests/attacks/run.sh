#!/usr/bin/env bash
# Attack tests (issue 21): hostile clients against the RELEASE binary, each bounded in count and
# time, each checking the server's answers, that it lives on, that an ordinary client is answered
# as before, and that resident memory stayed within a stated bound. Builds the release binary into
# .build-bench (shared with Benchmarks/run) unless WAYFINDER_RELEASE_BIN names one. Extra
# arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/../.."
python=${PYTHON:-python3}
"$python" -c "import pytest" 2>/dev/null || "$python" -m pip install -q --disable-pip-version-check pytest
if [ -z "${WAYFINDER_RELEASE_BIN:-}" ]; then
    swift build -c release --scratch-path .build-bench --product wayfinder >&2
    WAYFINDER_RELEASE_BIN=.build-bench/release/wayfinder
fi
export WAYFINDER_BIN=$WAYFINDER_RELEASE_BIN
export PYTEST_DISABLE_PLUGIN_AUTOLOAD=1
[ $# -gt 0 ] || set -- Tests/attacks
exec "$python" -m pytest -q -p no:cacheprovider "$@"
