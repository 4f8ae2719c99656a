#!/usr/bin/env bash
# The tests: set up .venv if needed (with the optional Ray and cshogi, which the workers' and full
# shogi's tests need), then run pytest (arguments passed on).
set -euo pipefail
export WITH_RAY=1 WITH_SHOGI=1
source "$(dirname "$0")/setup.sh"
exec "$PYTHON" -m pytest "$@"
