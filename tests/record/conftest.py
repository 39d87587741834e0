"""Fixtures for the record tests: real matches built with the rules, real JPEG frames."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from tavli_pi.record.header import MatchHeader
from tavli_pi.record.synthetic import synthetic_match
from tavli_pi.referee.events import Event

HEADER = MatchHeader(players=("Alice", "Bob"), match_length=5, event="Club night", site="Thessaloniki",
                     date="2024-05-01", time="20:15")


@pytest.fixture(scope="session")
def header() -> MatchHeader:
    return HEADER


@pytest.fixture(scope="session")
def events() -> list[Event]:
    """A whole 5-point match as the referee logs it (seeded, legal)."""
    return synthetic_match(11, HEADER)


@pytest.fixture(scope="session")
def jpeg() -> bytes:
    """A real JPEG, encoded by OpenCV from a drawn board-like image."""
    img = np.zeros((240, 320, 3), np.uint8)
    img[:] = (30, 90, 40)
    for i in range(12):
        cv2.fillConvexPoly(img, np.array([[i * 26 + 4, 0], [i * 26 + 26, 0], [i * 26 + 15, 100]]),
                           (200, 200, 180) if i % 2 else (40, 40, 160))
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, 85])
    assert ok
    return buf.tobytes()
