#!/usr/bin/env bash
# The main job: set up .venv if needed, then train (python train_cycle.py, flags passed on).
set -euo pipefail
source "$(dirname "$0")/setup.sh"
exec "$PYTHON" train_cycle.py "$@"
