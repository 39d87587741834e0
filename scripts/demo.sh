#!/usr/bin/env bash
# Set up (system packages, .venv) and run the demo: a simulated table through
# the whole pipeline, display on http://localhost:8080/. Extra arguments go to
# `tavli-pi demo` (e.g. --no-serve --out out/).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh demo
exec .venv/bin/tavli-pi demo "$@"
