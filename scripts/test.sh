#!/usr/bin/env bash
# Set up (system packages, .venv) and run every check: mypy --strict over the whole
# package, then the test suite with the package's doctests (pyproject: --doctest-modules), one
# worker a core (TAVLI_TEST_WORKERS=N to choose).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh test
.venv/bin/python -m mypy --strict tavli_pi
# One pytest worker a core (pytest-xdist): the suite is CPU-bound vision and rules work, and
# every test is independent (free ports, its own temporary folders and broker). The 15 slowest
# tests are listed at the end: the suite has to stay under 15 minutes on a 2-core machine.
.venv/bin/python -m pytest -n "${TAVLI_TEST_WORKERS:-auto}" --durations=15 "$@"
