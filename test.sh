#!/usr/bin/env bash
# The tests: set up .venv if needed, then run pytest (arguments passed on).
set -euo pipefail
source "$(dirname "$0")/setup.sh"
exec "$PYTHON" -m pytest "$@"
