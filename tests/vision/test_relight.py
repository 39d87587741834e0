"""vision/relight.py: a shadow or a lamp over part of the board is measured against the clear board
and undone; the picture's gain as a whole, moved checkers and hands are no light to undo."""

from __future__ import annotations

import cv2
import numpy as np

from tavli_pi.sim._photo import shadow
from tavli_pi.vision.relight import LIGHT_STEP, light_field, relit


def _board(h: int = 96, w: int = 144) -> np.ndarray:
    """A quarter-scale board: wood of two tones in point-wide stripes, a grain of noise."""
    rng = np.random.default_rng(3)
    img = np.zeros((h, w, 3), np.float32)
    for i in range(12):
        img[:, i * w // 12:(i + 1) * w // 12] = (90, 140, 190) if i % 2 else (140, 190, 225)
    img += rng.normal(0, 3, img.shape)
    return np.clip(img, 0, 255).astype(np.uint8)


def _scaled(img: np.ndarray, gain: tuple[float, float, float]) -> np.ndarray:
    return np.clip(img.astype(np.float32) * np.float32(gain), 0, 255).astype(np.uint8)


def test_a_steady_picture_and_a_gain_of_the_whole_picture_are_no_light_to_undo() -> None:
    clear = _board()
    assert light_field(clear, clear.copy()) is None
    assert light_field(clear, _scaled(clear, (0.85, 0.85, 0.85))) is None  # exposure
    assert light_field(clear, _scaled(clear, (0.98, 1.0, 1.02))) is None  # a white balance as good as steady


def test_a_drifted_white_balance_is_undone_and_its_brightness_left() -> None:
    clear = _board()
    warm = _scaled(clear, (0.8, 0.95, 1.1))
    grid = light_field(clear, warm)
    assert grid is not None
    assert float(np.ptp(grid[..., 0])) == 0.0  # the same over the whole picture
    back = relit(warm, grid).astype(np.float32)
    # the colour undone, the brightness as a whole left: each channel over green as on the clear board
    ratio = (back + 1) / (clear.astype(np.float32) + 1)
    assert np.allclose(ratio.mean(axis=(0, 1)) / ratio.mean(axis=(0, 1))[1], 1.0, atol=0.02)
    assert abs(float(ratio.mean()) - 0.95) < 0.03


def _spread(a: np.ndarray, b: np.ndarray) -> float:
    """How unevenly ``a`` is lit over ``b``: the spread of their log ratio's grey, in the middle rows."""
    r = np.log(a[20:76].astype(np.float32) + 1) - np.log(b[20:76].astype(np.float32) + 1)
    return float(np.std(r.mean(axis=2)))


def test_a_soft_shadow_over_part_of_the_board_is_measured_and_undone() -> None:
    """The light measured beyond the picture's as a whole (the median: here the lit part): the left
    cells about half as lit; the view relit is evenly lit again (its gain as a whole left to the
    readers that match one already)."""
    clear = _board()
    dark = shadow(clear, (-0.1, 0.05, 0.5, 0.95), 0.5, 0.0)
    grid = light_field(clear, dark)
    assert grid is not None
    assert float(grid[3:5, -3:].mean() - grid[3:5, :3].mean()) > 0.6  # log 2: half the light
    assert _spread(relit(dark, grid), clear) < 0.3 * _spread(dark, clear)


def test_checkers_moved_and_a_hand_are_no_light() -> None:
    clear = _board()
    moved = clear.copy()
    for x in range(8, 144, 24):  # light checkers where the board was empty
        cv2.circle(moved, (x, 80), 5, (215, 227, 231), -1)
        cv2.circle(moved, (x, 70), 5, (215, 227, 231), -1)
    assert light_field(clear, moved) is None
    hand = clear.copy()
    cv2.ellipse(hand, (40, 30), (26, 18), 20, 0, 360, (120, 150, 215), -1)  # skin over the wood
    assert light_field(clear, hand) is None


def test_checkers_moved_under_a_shadow_take_the_shadow_of_the_cells_round_them() -> None:
    clear = _board()
    moved = clear.copy()
    cv2.circle(moved, (30, 48), 6, (215, 227, 231), -1)
    dark = shadow(moved, (-0.2, -0.1, 0.6, 1.1), 0.5, 0.0)
    grid = light_field(clear, dark)
    assert grid is not None
    # the checker's cell told no light of its own: it takes its neighbours' (a shadow, not unlit)
    row, col = 48 * grid.shape[0] // 96, 30 * grid.shape[1] // 144
    assert abs(float(grid[row, col, 1] - grid[row, 0, 1])) < LIGHT_STEP
    assert float(grid[row, -1, 1] - grid[row, col, 1]) > 0.6
