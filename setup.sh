#!/usr/bin/env bash
# Create .venv and install requirements.txt into it, once (again only when requirements.txt changes).
# Sourced by run.sh and test.sh; afterwards "$PYTHON" is the project's Python.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
PYTHON=.venv/bin/python
stamp=.venv/.requirements.sha256
wanted=$(sha256sum requirements.txt | cut -d' ' -f1)
if [ ! -x "$PYTHON" ]; then
    echo "setup: creating .venv" >&2
    python3 -m venv .venv
fi
if [ "$(cat "$stamp" 2>/dev/null)" != "$wanted" ]; then
    echo "setup: installing requirements.txt into .venv (a few minutes the first time)" >&2
    "$PYTHON" -m pip install --quiet --upgrade pip
    "$PYTHON" -m pip install --quiet -r requirements.txt
    echo "$wanted" > "$stamp"
fi
export PYTHON
