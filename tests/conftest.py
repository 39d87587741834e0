"""Shared fixtures. Paths to the real photographs live in ../shared/data/real."""

from __future__ import annotations

from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
SHARED_REAL = REPO.parent / "shared" / "data" / "real"


@pytest.fixture(scope="session")
def real_data() -> Path:
    if not SHARED_REAL.is_dir():
        pytest.skip(f"real photographs not found at {SHARED_REAL}")
    return SHARED_REAL
