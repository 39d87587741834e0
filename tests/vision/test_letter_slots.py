"""Letter slots (vision/letter_slots.py): a letter unchanged since set-up against a checker laid on it."""

from __future__ import annotations

import cv2
import numpy as np

from tavli_pi.vision.letter_slots import slot_change


def _letters() -> np.ndarray:
    """A learnt board on the background's grid: a plain surface with a sharp white ring (a letter "O")."""
    bg = np.full((40, 40, 3), (40, 90, 150), np.uint8)
    cv2.circle(bg, (20, 20), 6, (235, 235, 235), 2)
    return bg.astype(np.float32)


def test_a_letter_seen_a_pixel_aside_is_no_change() -> None:
    bg = _letters()
    now = np.roll(bg, 1, axis=1)  # the same board, the camera's sampling a pixel aside
    plain = float(np.abs(now[12:29, 12:29] - bg[12:29, 12:29]).max(axis=2).mean())
    tolerant, shift = slot_change(now, bg, np.ones(3, np.float32), 20.0, 20.0, 8.0)
    assert plain > 20.0  # the letter's edges, compared pixel by pixel, change a lot
    assert tolerant < 1.0 and shift < 2.0


def test_a_checker_laid_on_the_letter_changes_the_slot() -> None:
    bg = _letters()
    now = bg.copy()
    cv2.circle(now, (20, 20), 8, (30, 30, 160), -1)  # a red checker over the letter
    tolerant, shift = slot_change(now, bg, np.ones(3, np.float32), 20.0, 20.0, 8.0)
    assert tolerant > 40.0 and shift > 40.0


def test_the_brightness_match_is_applied_before_comparing() -> None:
    bg = _letters()
    now = bg * 0.5  # the same board in half the light
    assert slot_change(now, bg, np.full(3, 2.0, np.float32), 20.0, 20.0, 8.0)[1] < 1.0
    assert slot_change(now, bg, np.ones(3, np.float32), 20.0, 20.0, 8.0)[1] > 40.0
