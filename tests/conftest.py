"""Shared fixtures. Paths to the real photographs live in ../shared/data/real."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parent.parent
#: ``TAVLI_REAL_DATA`` points elsewhere (a git worktree one folder deeper than the checkout)
SHARED_REAL = Path(os.environ.get("TAVLI_REAL_DATA") or REPO.parent / "shared" / "data" / "real")


@pytest.fixture(scope="session")
def real_data() -> Path:
    if not SHARED_REAL.is_dir():
        if os.environ.get("CI", "").lower() == "true":
            pytest.fail(f"real photographs not found at {SHARED_REAL}: CI must have ../shared/data/real")
        pytest.skip(f"real photographs not found at {SHARED_REAL}")
    return SHARED_REAL


CHROMIUM = Path("/usr/bin/chromium")
CHROMEDRIVER = Path("/usr/bin/chromedriver")


@pytest.fixture(scope="session")
def browser():  # type: ignore[no-untyped-def]
    """A real headless Chromium driven by Selenium (Debian chromium + chromium-driver)."""
    if not (CHROMIUM.exists() and CHROMEDRIVER.exists()):
        pytest.fail("chromium/chromedriver missing: run scripts/test.sh, which installs them")
    import tempfile

    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    opts = webdriver.ChromeOptions()
    opts.binary_location = str(CHROMIUM)
    profile = tempfile.mkdtemp(prefix="tavli-chromium-")
    for flag in (
        "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
        "--disable-background-networking", "--disable-component-update", "--disable-sync",
        "--disable-dev-shm-usage", "--window-size=1280,800", f"--user-data-dir={profile}",
    ):
        opts.add_argument(flag)
    driver = webdriver.Chrome(service=Service(str(CHROMEDRIVER)), options=opts)
    try:
        yield driver
    finally:
        driver.quit()
