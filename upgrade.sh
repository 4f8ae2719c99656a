#!/usr/bin/env bash
# Move requirements.lock to the newest versions that pyproject.toml allows, on purpose: a fresh .venv
# of every CPU extra, unlocked, then the whole test suite; the new versions are written to the lock
# only when every test passes (commit it with the figures). A failure leaves the lock as it was.
set -euo pipefail
cd "$(dirname "$0")"
rm -rf .venv
export UNLOCKED=1 WITH_RAY=1 WITH_SHOGI=1 WITH_JAX=1
source ./setup.sh
"$PYTHON" -m pytest -n auto --maxprocesses 4
{ head -2 requirements.lock; "$PYTHON" -m pip freeze --exclude-editable; } > .requirements.lock.new
mv .requirements.lock.new requirements.lock
rm -f .venv/.requirements.sha256  # the next setup installs from the lock again
echo "upgrade: requirements.lock holds the versions the tests passed with" >&2
