#!/usr/bin/env bash
# The tests: set up .venv if needed (with the optional Ray, cshogi, JAX and the peer's pgx and mctx,
# which the tests of the workers, full shogi, Keras on JAX and the peer benchmark need), then run
# pytest on every core, up to 4, an idle core taking tests queued for a busy one (arguments passed
# on: -m "not slow" is the quick tier, -n 0 runs them in one process).
set -euo pipefail
export WITH_RAY=1 WITH_SHOGI=1 WITH_JAX=1 WITH_PEER=1
source "$(dirname "$0")/setup.sh"
exec "$PYTHON" -m pytest -n auto --maxprocesses 4 --dist worksteal "$@"
