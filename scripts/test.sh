#!/usr/bin/env bash
# Set up (system packages, .venv) and run the whole test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh test
.venv/bin/python -m mypy --strict tavli_pi/rules tavli_pi/record
.venv/bin/python -m pytest "$@"
