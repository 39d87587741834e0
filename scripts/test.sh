#!/usr/bin/env bash
# Set up (system packages, .venv) and run every check: mypy --strict over the whole
# package, then the test suite with the package's doctests (pyproject: --doctest-modules).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh test
.venv/bin/python -m mypy --strict tavli_pi
.venv/bin/python -m pytest "$@"
