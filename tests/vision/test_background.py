"""The frame against the learnt board: ``median_of`` gives ``np.median``'s value to the bit."""

from __future__ import annotations

import cv2
import numpy as np

from tavli_pi.vision.background import MEDIAN_SAMPLED, median_of


def _arrays(rng: np.random.Generator) -> list[np.ndarray]:
    """Float32 arrays of the kinds a frame's change from the board gives: smooth (a blurred change),
    a few repeated levels (ties across the middle), mostly one value, odd and even sizes, and
    views cut from a larger array (as the field is cut from the half view)."""
    out = []
    for i in range(600):
        h, w = (int(v) for v in rng.integers(40, 300, 2))
        kind = i % 5
        if kind == 0:
            a = rng.random((h, w), np.float32) * 50
        elif kind == 1:
            a = cv2.GaussianBlur(rng.integers(0, 255, (h, w)).astype(np.float32), (3, 3), 0)
        elif kind == 2:
            a = np.round(rng.random((h, w)) * 5).astype(np.float32)  # six levels: ties at the middle
        elif kind == 3:
            a = np.zeros((h, w), np.float32)
            a[rng.random((h, w)) < rng.random()] = 7.25
        else:
            a = rng.standard_normal((h, w)).astype(np.float32) ** 2 * 3  # long-tailed
        pad = np.zeros((h + 10, w + 14), np.float32)
        pad[5:-5, 7:-7] = a
        out.append(pad[5:-5, 7:-7])
    return out


def test_median_of_is_numpys_median_to_the_bit() -> None:
    rng = np.random.default_rng(20)
    arrays = _arrays(rng)
    assert sum(a.size >= MEDIAN_SAMPLED for a in arrays) > 400  # the sampled path is the one tested
    assert any(a.size % 2 for a in arrays) and any(a.size % 2 == 0 for a in arrays)
    for a in arrays:
        got, want = median_of(a), float(np.median(a))
        assert np.float64(got).tobytes() == np.float64(want).tobytes()


def test_median_of_small_and_nan_arrays_fall_back_to_numpy() -> None:
    a = np.arange(11, dtype=np.float32)
    assert median_of(a) == 5.0
    b = np.ones((80, 80), np.float32)
    b[3, 3] = np.nan
    assert np.isnan(median_of(b))


def test_median_of_other_types_is_numpys_median() -> None:
    rng = np.random.default_rng(3)
    a = rng.random((120, 130))  # float64: np.median's own value, not a float32 copy's
    assert median_of(a) == float(np.median(a))


def _board_like(rng: np.random.Generator) -> np.ndarray:
    """A canonical view with sharp edges (a tray's end, points' sides) where a JPEG errs most."""
    img = np.full((360, 560, 3), 120, np.uint8)
    img[:, :40] = 30  # a dark tray
    img[170:190, :40] = 220  # its sharp end
    img[:, 520:] = 200
    for x in range(60, 500, 36):
        cv2.fillConvexPoly(img, np.array([[x, 0], [x + 30, 0], [x + 15, 150]], np.int32), (40, 60, 160))
    return np.clip(img + rng.normal(0, 4, img.shape), 0, 255).astype(np.uint8)


def test_a_background_keeps_its_margins_exact_and_its_field_as_jpeg() -> None:
    """The trays lie in the margins beyond the field's playing edges: there the stored background is the
    frame's half view to the bit, so an empty tray learnt reads empty on its own frame; the field is the
    JPEG's, as before, and a background stored before (JPEG only) decodes as it did."""
    from tavli_pi.vision.background import BG_SCALE, decode_background, encode_background

    canon = _board_like(np.random.default_rng(4))
    h, w = canon.shape[:2]
    half = cv2.resize(canon, (w // BG_SCALE, h // BG_SCALE), interpolation=cv2.INTER_AREA)
    plain = decode_background(encode_background(canon))
    kept = decode_background(encode_background(canon, (48.0, 512.0)))
    assert plain is not None and kept is not None and kept.shape == half.shape
    xa, xb = 48 // BG_SCALE, 512 // BG_SCALE
    assert np.array_equal(kept[:, :xa], half[:, :xa]) and np.array_equal(kept[:, xb:], half[:, xb:])
    assert np.array_equal(kept[:, xa:xb], plain[:, xa:xb])
    assert np.abs(plain[:, :xa].astype(int) - half[:, :xa]).max() >= 4  # what the JPEG alone loses there


def test_a_damaged_background_decodes_as_none() -> None:
    from tavli_pi.vision.background import decode_background, encode_background

    text = encode_background(_board_like(np.random.default_rng(5)), (48.0, 512.0))
    jpg, span, png = text.split("|")
    assert decode_background(f"{jpg}|x,y|{png}") is None
    assert decode_background(f"{jpg}|{span}|png:not base64!") is None
    assert decode_background(f"{jpg}|300,900|{png}") is None  # columns past the image
    assert decode_background("") is None
