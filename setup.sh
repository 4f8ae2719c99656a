#!/usr/bin/env bash
# Create .venv and install pyproject.toml's dependencies into it at requirements.lock's exact versions,
# and the npm packages of package-lock.json into node_modules (onnxruntime-web for the browser page,
# playwright-core for its test): once, and again only when those files or the WITH_* switches change. Sourced by run.sh and test.sh; afterwards "$PYTHON" is the project's Python.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")"
PYTHON=.venv/bin/python
stamp=.venv/.requirements.sha256
# What to install: pyproject.toml's dependencies and its dev extra, with the optional ones asked for,
# at requirements.lock's versions (UNLOCKED=1, for upgrade.sh: the newest that pyproject.toml allows)
extras=(dev)
if [ "${WITH_RAY:-0}" = 1 ]; then extras+=(ray); fi      # optional: Ray workers
if [ "${WITH_JAX:-0}" = 1 ]; then extras+=(jax); fi      # optional: Keras on JAX
if [ "${WITH_GPU:-0}" = 1 ]; then extras+=(gpu); fi      # optional: NVIDIA GPU builds
if [ "${WITH_SHOGI:-0}" = 1 ]; then extras+=(shogi); fi  # optional: full shogi (cshogi, GPL)
if [ "${WITH_PEER:-0}" = 1 ]; then extras+=(peer); fi    # optional: pgx + mctx, bench/bench_peer.py's peer
lock=(-c requirements.lock)
if [ "${UNLOCKED:-0}" = 1 ]; then lock=(); fi
wanted=$( (cat pyproject.toml requirements.lock; echo "${extras[*]} ${lock[*]}") | sha256sum | cut -d' ' -f1)
if [ ! -x "$PYTHON" ]; then
    echo "setup: creating .venv" >&2
    python3 -m venv .venv
fi
if [ "$(cat "$stamp" 2>/dev/null)" != "$wanted" ]; then
    echo "setup: installing the dependencies (${extras[*]}) into .venv (a few minutes the first time)" >&2
    "$PYTHON" -m pip install --quiet --upgrade pip
    "$PYTHON" - "${extras[@]}" > .venv/requirements.txt <<'LIST'
import sys
import tomllib
with open('pyproject.toml', 'rb') as f:
    project = tomllib.load(f)['project']
print('\n'.join(project['dependencies'] + [d for extra in sys.argv[1:] for d in project['optional-dependencies'][extra]]))
LIST
    "$PYTHON" -m pip install --quiet "${lock[@]}" -r .venv/requirements.txt
    if [ "${WITH_GPU:-0}" = 1 ]; then  # onnxruntime-gpu replaces the CPU build, which provides the same module
        "$PYTHON" -m pip uninstall --quiet -y onnxruntime
        "$PYTHON" -m pip install --quiet --force-reinstall --no-deps "$(grep '^onnxruntime-gpu' .venv/requirements.txt)"
    fi
    echo "$wanted" > "$stamp"
fi
if command -v npm > /dev/null; then
    npm_stamp=node_modules/.package-lock.sha256
    npm_wanted=$(sha256sum package-lock.json | cut -d' ' -f1)
    if [ "$(cat "$npm_stamp" 2>/dev/null)" != "$npm_wanted" ]; then
        echo "setup: installing the npm packages (onnxruntime-web, playwright-core) into node_modules" >&2
        npm ci --no-audit --no-fund --loglevel=error
        echo "$npm_wanted" > "$npm_stamp"
    fi
else
    echo "setup: npm not found; the browser page (play_web.py) needs Node.js and npm" >&2
fi
export PYTHON
