#!/usr/bin/env bash
# Operations tests: Dockerfile rules, configuration, JSON logs, /metrics, graceful shutdown.
# Uses the binary in $WAYFINDER_BIN (default .build/debug/wayfinder). Extra arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/../.."
python=${PYTHON:-python3}
need=()
for module in dockerfile:dockerfile prometheus_client:prometheus-client pytest:pytest; do
    "$python" -c "import ${module%%:*}" 2>/dev/null || need+=("${module#*:}")
done
if [ ${#need[@]} -gt 0 ]; then
    echo "installing Python packages: ${need[*]}"
    "$python" -m pip install -q --disable-pip-version-check "${need[@]}"
fi
# No third-party pytest plugins are needed (loading schemathesis/hypothesis plugins costs seconds).
export PYTEST_DISABLE_PLUGIN_AUTOLOAD=1
export WAYFINDER_BIN=${WAYFINDER_BIN:-.build/debug/wayfinder}
[ $# -gt 0 ] || set -- Tests/ops
exec "$python" -m pytest -q -p no:cacheprovider "$@"
