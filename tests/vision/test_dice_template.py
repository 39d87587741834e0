"""dice_template: a small die's face read by pip templates at the source resolution (issue 9)."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

import tavli_pi.sim._dice as sim_dice
from tavli_pi.vision.dice_template import SURE_LEAD, SURE_MARGIN, FaceMatch, face_axes, match_face

BODY = (235, 235, 235)
PIP = (20, 20, 20)
FELT = (40, 120, 40)


def _die_frame(side: float, value: int, angle: float, body: tuple[int, int, int] = BODY,
               pip: tuple[int, int, int] = PIP, squash: float = 1.0) -> tuple[np.ndarray, tuple[float, float]]:
    """A grey frame with one die of ``side`` px (drawn 8x and shrunk), its centre; ``squash``: the
    frame's height shrunk by this (a camera at a slant)."""
    big = np.full((400, 400, 3), FELT, np.uint8)
    sim_dice.draw_die(big, 200, 200, value, angle, 0.0, (2, 3, 4, 5), body, pip, side * 8 / sim_dice.L.DIE, 0)
    img = cv2.resize(big, (50, round(50 * squash)), interpolation=cv2.INTER_AREA)
    return cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), (24.5, 24.5 * squash + 0.5 * squash - 0.5)


@pytest.mark.parametrize("value", range(1, 7))
@pytest.mark.parametrize("side", [9.0, 10.0, 11.0])
def test_a_clean_small_face_is_read(value: int, side: float) -> None:
    for angle in (0.0, 25.0, 60.0):
        gray, xy = _die_frame(side, value, angle)
        m = match_face(gray, (xy[0] + 0.4, xy[1] - 0.3), np.eye(2) * side)
        assert m is not None
        assert m.value == value, (side, angle, m)
        assert m.margin > 0.05


def test_light_pips_on_a_dark_die_are_read_with_the_polarity_led() -> None:
    gray, xy = _die_frame(10.0, 5, 20.0, body=(60, 30, 20), pip=(240, 240, 240))
    m = match_face(gray, xy, np.eye(2) * 10.0)
    assert m is not None and m.value == 5
    assert m.lead > 0.0
    assert match_face(gray, xy, np.eye(2) * 10.0, dark=False) is not None


def test_a_die_seen_at_a_slant_is_read_rectified() -> None:
    # the frame squashed to 0.7 of its height: the die is 10 px across and 7 px down
    gray, xy = _die_frame(10.0, 4, 30.0, squash=0.7)
    axes = np.array([[10.0, 0.0], [0.0, 7.0]])
    m = match_face(gray, xy, axes)
    assert m is not None and m.value == 4


def test_face_axes_is_the_local_map_scaled_to_the_width() -> None:
    def to_image(p: np.ndarray) -> np.ndarray:
        p = np.asarray(p, np.float64).reshape(-1, 2)
        return np.stack([2.0 * p[:, 0] + 3.0, 1.5 * p[:, 1] + 0.5 * p[:, 0]], 1)

    axes = face_axes(to_image, (10.0, 20.0), 9.0)
    assert np.hypot(axes[0, 0], axes[1, 0]) == pytest.approx(9.0, abs=1e-4)
    # the die's sides keep the map's shape: down is 1.5 / |(2, 0.5)| of across
    assert np.hypot(axes[0, 1], axes[1, 1]) == pytest.approx(9.0 * 1.5 / np.hypot(2.0, 0.5), abs=1e-3)


def test_no_face_is_read_off_the_frame_nor_on_a_flat_patch_nor_too_small() -> None:
    gray, xy = _die_frame(10.0, 3, 0.0)
    assert match_face(gray, (2.0, 2.0), np.eye(2) * 10.0) is None
    assert match_face(np.full((40, 40), 128, np.uint8), (20.0, 20.0), np.eye(2) * 10.0) is None
    assert match_face(gray, xy, np.eye(2) * 3.0) is None


def test_sure_needs_both_the_polarity_lead_and_the_margin() -> None:
    scores = {1: 0.9, 2: 0.9 - SURE_MARGIN - 0.01, 3: 0.1, 4: 0.1, 5: 0.1, 6: 0.1}
    assert FaceMatch(scores, SURE_LEAD).sure
    assert not FaceMatch(scores, SURE_LEAD - 0.01).sure
    assert not FaceMatch({**scores, 2: 0.9 - SURE_MARGIN + 0.01}, SURE_LEAD).sure


def _templates_over_every_pixel(side_q: int) -> tuple[np.ndarray, np.ndarray]:
    """``dice_template._templates`` as first written: every pip's distance to every sub-sample of the crop."""
    from tavli_pi.vision import dice_template as dt

    side = side_q / 4.0
    n = dt._crop_n(side)  # noqa: SLF001
    offs = np.arange(-dt.REACH, dt.REACH + 1e-6, dt.STEP)
    oxy = np.array([(dx, dy) for dy in offs for dx in offs])
    sub = (np.arange(dt.SUB) + 0.5) / dt.SUB - 0.5
    pix = np.arange(n) - (n - 1) / 2
    sx = (pix[None, :, None, None] + sub[None, None, None, :]) * np.ones((n, 1, dt.SUB, 1))
    sy = (pix[:, None, None, None] + sub[None, None, :, None]) * np.ones((1, n, 1, dt.SUB))
    pts = np.stack([sx.reshape(n * n, dt.SUB * dt.SUB), sy.reshape(n * n, dt.SUB * dt.SUB)], -1)
    px, py = np.meshgrid(pix, pix)
    masks = np.hypot(px.ravel()[None] - oxy[:, 0:1], py.ravel()[None] - oxy[:, 1:2]) < dt.FACE * side
    angles = np.radians(np.arange(0, 180, dt.TURN))
    out = np.zeros((len(oxy), 6, len(angles), n * n), np.float32)
    r2 = (dt.PIP_R * side) ** 2
    for v in range(1, 7):
        rel = np.array(dt._PIPS[v], float) * dt.PIP_AT * side  # noqa: SLF001
        ca, sa = np.cos(angles), np.sin(angles)
        rx = ca[:, None] * rel[None, :, 0] - sa[:, None] * rel[None, :, 1]
        ry = sa[:, None] * rel[None, :, 0] + ca[:, None] * rel[None, :, 1]
        for o, (dx, dy) in enumerate(oxy):
            ddx = pts[None, None, :, :, 0] - (rx + dx)[:, :, None, None]
            ddy = pts[None, None, :, :, 1] - (ry + dy)[:, :, None, None]
            out[o, v - 1] = dt.normalised(((ddx * ddx + ddy * ddy) < r2).any(1).mean(-1), masks[o])
    return masks, out


@pytest.mark.parametrize("side_q", [16, 17, 37, 44, 55])
def test_the_templates_are_those_of_every_pixel_to_the_bit(side_q: int) -> None:
    """Each pip's cover is worked out only over the pixels it can reach (``_covered``, issue 12):
    the masks and templates are those of every pixel's distances, bit for bit."""
    from tavli_pi.vision.dice_template import _templates

    masks, tpl = _templates.__wrapped__(side_q)
    want_masks, want = _templates_over_every_pixel(side_q)
    assert np.array_equal(masks, want_masks)
    assert tpl.dtype == want.dtype and tpl.shape == want.shape and tpl.tobytes() == want.tobytes()


@pytest.mark.parametrize("side", [9.0, 11.0])
def test_both_polarities_from_one_correlation_are_those_read_apart_to_the_bit(side: float) -> None:
    """``_best_both`` (issue 12: one correlation per offset for both polarities) gives what
    ``_best`` gives on the crop and on its negation, bit for bit, on dice and on noise."""
    from tavli_pi.vision import dice_template as dt

    side_q = int(round(side * 4))
    masks, tpl = dt._templates(side_q)  # noqa: SLF001
    n = dt._crop_n(side_q / 4.0)  # noqa: SLF001
    rng = np.random.default_rng(3)
    crops = [rng.normal(128, 40, n * n).astype(np.float32) for _ in range(3)]
    for value in (2, 5):
        gray, xy = _die_frame(side, value, 20.0)
        h = (n - 1) / 2
        crops.append(gray[round(xy[1] - h):round(xy[1] - h) + n, round(xy[0] - h):round(xy[0] - h) + n]
                     .astype(np.float32).ravel())
    crops.append(np.full(n * n, 7.0, np.float32))  # flat: no face either way

    def bits(m: FaceMatch | None) -> list[tuple[int, str]] | None:
        return None if m is None else [(v, s.hex()) for v, s in m.scores.items()]

    for crop in crops:
        light, dark = dt._best_both(crop, masks, tpl, n)  # noqa: SLF001
        assert bits(light) == bits(dt._best(crop, masks, tpl, n))  # noqa: SLF001
        assert bits(dark) == bits(dt._best(-crop, masks, tpl, n))  # noqa: SLF001
