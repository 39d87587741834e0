"""DiceMemo keeps a candidate's reading exactly while the pixels it sampled stand, and no longer."""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Callable

import cv2
import numpy as np
import pytest

from tavli_pi.rules.position import Position
from tavli_pi.sim.render import render
from tavli_pi.sim.scene import DieSpec, scene_from_position
from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.dice import find_dice
from tavli_pi.vision import dice_memo
from tavli_pi.vision.dice_memo import DiceMemo
from tavli_pi.vision.hands import SCALE
from tavli_pi.vision.incremental import KERNEL, GateView, changed_pixels
from tavli_pi.vision.noise_level import LEAST, NoiseLevel


def _memo() -> tuple[DiceMemo, Calibration, np.ndarray]:
    r = render(scene_from_position(Position.start()), 0)
    cal = Calibration(r.truth.corners, home=r.truth.home)  # type: ignore[arg-type]
    w, h = cal.layout.size
    return DiceMemo(cal), cal, np.full((h // SCALE, w // SCALE, 3), 100, np.uint8)


def _noise(cal: Calibration, seed: int) -> np.ndarray:
    """A canonical-size grey image of uniform noise: every pixel differs from its neighbours."""
    w, h = cal.layout.size
    return np.random.default_rng(seed).integers(0, 255, (h, w), dtype=np.uint8)


def _dilate(img: np.ndarray) -> np.ndarray:
    """A local step: each pixel from those within 1 of it."""
    return np.asarray(cv2.dilate(img, np.ones((3, 3), np.uint8)))


def test_a_reading_is_kept_until_a_pixel_it_sampled_changes() -> None:
    memo, cal, view = _memo()
    w, h = cal.layout.size
    centre = np.asarray([[w * 0.3, h * 0.4]], np.float32)  # canonical px, well inside the view
    calls: list[int] = []

    def read(to_src: object) -> int:
        assert callable(to_src)
        to_src(centre + np.asarray([[-8, -8], [8, 8]], np.float32))  # it samples a 16 px box
        calls.append(1)
        return len(calls)

    memo.start(view)
    assert memo.sampled("die", cal.to_image, read) == 1
    # the next frame changed far away (the other half of the board): the reading stands
    far = view.copy()
    far[: 10, -10:] = 200
    memo.start(far)
    assert memo.sampled("die", cal.to_image, read) == 1
    # another candidate (other arguments) is read afresh
    assert memo.sampled("other die", cal.to_image, read) == 2
    # a change next to the sampled box (within the kernels' reach) drops it
    near = far.copy()
    qx, qy = int(w * 0.3 + 12) // SCALE, int(h * 0.4) // SCALE
    near[qy, qx] = 0
    memo.start(near)
    assert memo.sampled("die", cal.to_image, read) == 3
    assert (memo.hits, memo.misses) == (1, 3)


def test_a_reading_that_reached_off_the_view_is_never_kept() -> None:
    memo, cal, view = _memo()
    n = [0]

    def read() -> int:
        n[0] += 1
        return n[0]

    memo.start(view)
    memo.cropped("edge", (-5.0, 10.0, 20.0, 30.0), read)
    memo.start(view)
    assert memo.cropped("edge", (-5.0, 10.0, 20.0, 30.0), read) == 2
    memo.cropped("inside", (40.0, 40.0, 60.0, 60.0), read)
    memo.start(view)
    assert memo.cropped("inside", (40.0, 40.0, 60.0, 60.0), read) == 3
    memo.forget()
    memo.start(view)
    assert memo.cropped("inside", (40.0, 40.0, 60.0, 60.0), read) == 4


def test_find_dice_with_a_memo_reads_as_without() -> None:
    """The same frame twice through a memo: the second reading is kept, and equals a fresh one."""
    scene = dataclasses.replace(scene_from_position(Position.start()), dice=(DieSpec(value=5, u=0.25, v=0.5), DieSpec(value=3, u=0.33, v=0.55)))
    r = render(scene, 0)
    cal = Calibration(r.truth.corners, home=r.truth.home)  # type: ignore[arg-type]
    canon = cal.warp(r.image)
    view = GateView(cal)(r.image)
    memo = DiceMemo(cal)
    fresh = find_dice(canon, cal.layout, cal, [], None, r.image)
    assert sorted(d.value for d in fresh) == [3, 5]
    memo.start(view)
    assert find_dice(canon, cal.layout, cal, [], None, r.image, memo=memo) == fresh
    memo.start(view)
    hits = memo.hits
    assert find_dice(canon, cal.layout, cal, [], None, r.image, memo=memo) == fresh
    assert memo.hits > hits


def test_a_patched_array_is_made_again_only_where_the_view_changed() -> None:
    """``patched`` keeps a local step's output and makes it again round the changed cells only;
    the result is the step over the whole new input."""
    memo, cal, view = _memo()
    w, h = cal.layout.size
    gray = _noise(cal, 0)
    made: list[tuple[int, int, int, int]] = []

    def step(img: np.ndarray) -> np.ndarray:
        return _dilate(img)

    def part(img: np.ndarray) -> Callable[[tuple[int, int, int, int]], np.ndarray]:
        def run(r: tuple[int, int, int, int]) -> np.ndarray:
            made.append(r)
            y0, y1, x0, x1 = r
            cy0, cx0 = max(0, y0 - 1), max(0, x0 - 1)
            return step(img[cy0:y1 + 1, cx0:x1 + 1])[y0 - cy0:y1 - cy0, x0 - cx0:x1 - cx0]
        return run

    def ask(img: np.ndarray) -> np.ndarray:
        return memo.patched("dilated", lambda b: b, 1, lambda: step(img), part(img), img)

    memo.start(view)
    assert np.array_equal(ask(gray), step(gray))
    # a block changes, and the gate view sees it there
    new = gray.copy()
    new[200:230, 300:330] = 255
    moved = view.copy()
    moved[200 // SCALE:230 // SCALE, 300 // SCALE:330 // SCALE] = 200
    memo.start(moved)
    made.clear()
    assert np.array_equal(ask(new), step(new))
    assert made and sum((y1 - y0) * (x1 - x0) for y0, y1, x0, x1 in made) < 0.05 * w * h
    # the same view again: nothing is made again
    memo.start(moved)
    made.clear()
    assert np.array_equal(ask(new), step(new)) and not made
    # a change the gate view does not show is not seen (what keeps the rest is the view)
    hidden = new.copy()
    hidden[400:410, 100:110] = 0
    memo.start(moved)
    assert np.array_equal(ask(hidden), step(new))


def test_arrays_patched_in_the_same_frames_compare_the_view_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two arrays patched every frame share their last view: the new view is compared with it once
    a frame (issue 12), and each array is still its step over the whole new input."""
    memo, cal, view = _memo()
    w, h = cal.layout.size
    gray = _noise(cal, 1)
    compared: list[int] = []

    def counted(small: np.ndarray, ref: np.ndarray) -> np.ndarray:
        compared.append(1)
        return changed_pixels(small, ref)

    monkeypatch.setattr(dice_memo, "changed_pixels", counted)

    def ask(key: str, img: np.ndarray, op: int) -> np.ndarray:
        def step(a: np.ndarray) -> np.ndarray:
            return np.asarray(cv2.morphologyEx(a, op, np.ones((3, 3), np.uint8)))

        def part(r: tuple[int, int, int, int]) -> np.ndarray:
            y0, y1, x0, x1 = r
            cy0, cx0 = max(0, y0 - 1), max(0, x0 - 1)
            return step(img[cy0:y1 + 1, cx0:x1 + 1])[y0 - cy0:y1 - cy0, x0 - cx0:x1 - cx0]

        return memo.patched(key, lambda b: b, 1, lambda: step(img), part, img)

    memo.start(view)
    ask("dilated", gray, cv2.MORPH_DILATE)
    ask("eroded", gray, cv2.MORPH_ERODE)
    img, seen = gray, view
    for i in range(3):
        img = img.copy()
        img[100 + 40 * i:130 + 40 * i, 200:240] = 30 * i
        seen = seen.copy()
        seen[(100 + 40 * i) // SCALE:(130 + 40 * i) // SCALE, 200 // SCALE:240 // SCALE] = 10 + 60 * i
        memo.start(seen)
        compared.clear()
        dilated = ask("dilated", img, cv2.MORPH_DILATE).copy()
        eroded = ask("eroded", img, cv2.MORPH_ERODE)
        assert len(compared) == 1
        assert np.array_equal(dilated, cv2.dilate(img, np.ones((3, 3), np.uint8)))
        assert np.array_equal(eroded, cv2.erode(img, np.ones((3, 3), np.uint8)))


def test_a_change_that_reaches_only_a_dies_lettering_square_keeps_its_faces_and_outline() -> None:
    """A die's look (faces read, outline) and its lettering verdict (a square five of its lengths
    across) are kept apart: a change two die lengths off it asks the lettering again, not the look,
    and the reading is still the full one."""
    scene = dataclasses.replace(scene_from_position(Position.start()), dice=(DieSpec(value=2, u=0.25, v=0.5),))
    r = render(scene, 0)
    cal = Calibration(r.truth.corners, home=r.truth.home)  # type: ignore[arg-type]
    canon = cal.warp(r.image)
    view = GateView(cal)(r.image)
    fresh = find_dice(canon, cal.layout, cal, [], None, r.image)
    assert [d.value for d in fresh] == [2]
    memo = DiceMemo(cal)
    memo.start(view)
    assert find_dice(canon, cal.layout, cal, [], None, r.image, memo=memo) == fresh
    made = dict(memo.made)
    assert made.get("letters", 0) >= 1  # a two is asked whether it is a letter
    # the gate sees a change two die lengths to the die's right (the frame itself is the same)
    (cx, cy), = cal.to_canonical(np.asarray([fresh[0].xy], np.float32))
    side = 0.44 * cal.layout.pitch
    moved = view.copy()
    moved[int(cy) // SCALE, int(cx + 2.0 * side) // SCALE] = 0
    memo.start(moved)
    assert find_dice(canon, cal.layout, cal, [], None, r.image, memo=memo) == fresh
    assert memo.made["letters"] > made["letters"]  # its lettering square changed: asked again
    assert memo.made["look"] == made["look"] and memo.kept["look"] >= 1  # its own square did not


def test_windows_covering_the_array_are_copied_from_it_made_whole() -> None:
    """A camera whose every few cells change by noise (scattered changed cells, as a JPEG camera's)
    asks for windows that add up to more than the array: it is made whole once and each window
    copied from it (issue 12) -- the same array the windows give, the cells outside them kept."""
    memo, cal, view = _memo()
    w, h = cal.layout.size
    gray = _noise(cal, 2)
    parts: list[tuple[int, int, int, int]] = []
    wholes: list[int] = []

    def step(img: np.ndarray) -> np.ndarray:
        return _dilate(img)

    def ask(img: np.ndarray) -> np.ndarray:
        def part(r: tuple[int, int, int, int]) -> np.ndarray:
            parts.append(r)
            y0, y1, x0, x1 = r
            cy0, cx0 = max(0, y0 - 1), max(0, x0 - 1)
            return step(img[cy0:y1 + 1, cx0:x1 + 1])[y0 - cy0:y1 - cy0, x0 - cx0:x1 - cx0]

        def whole() -> np.ndarray:
            wholes.append(1)
            return step(img)

        return memo.patched("dilated", lambda b: b, 1, whole, part, img)

    memo.start(view)
    ask(gray)
    gh, gw = view.shape[:2]
    for sparse, expect_whole in ((False, False), (True, True)):
        new, seen = gray.copy(), view.copy()
        # one block, or a changed cell every fourth cell across and down (windows of ~26 px round
        # each: about 2.6 times the array's area in all); the frame also changes unseen elsewhere
        cells = [(8, 20)] if not sparse else [(y, x) for y in range(1, gh - 1, 4) for x in range(1, gw - 1, 4)]
        for y, x in cells:
            seen[y, x] = 200
            new[y * SCALE:(y + 1) * SCALE, x * SCALE:(x + 1) * SCALE] = 255
        new[2:6, 2:6] = 7  # unseen by the view: kept as it was wherever no window reaches
        memo.start(seen)
        parts.clear()
        wholes.clear()
        got = ask(new).copy()
        assert (len(wholes) == 1 and not parts) if expect_whole else (not wholes and parts)
        # what the windows alone would have made: the old array with each window made afresh
        ref = step(gray)
        for y, x in cells:
            y0, y1 = max(0, y * SCALE - KERNEL - 1), min(h, (y + 1) * SCALE + KERNEL + 2)
            x0, x1 = max(0, x * SCALE - KERNEL - 1), min(w, (x + 1) * SCALE + KERNEL + 2)
            ref[y0:y1, x0:x1] = step(new)[y0:y1, x0:x1]
        assert np.array_equal(got, ref)
        gray, view = new, seen


def test_an_array_made_whole_or_window_by_window_is_the_same_whatever_its_share() -> None:
    """Each kind of kept array says from what share of windows it is made whole (``whole_share``):
    below it the windows are made one by one, from it the array is made whole once and the windows
    copied from it through one mask (``_cover``) -- the step over the whole new input either way, and
    the cells outside the windows kept as they were."""
    memo, cal, view = _memo()
    gray = _noise(cal, 2)
    calls: dict[str, int] = {"whole": 0, "part": 0}

    def step(img: np.ndarray) -> np.ndarray:
        return _dilate(img)

    def ask(img: np.ndarray, share: float) -> np.ndarray:
        def whole() -> np.ndarray:
            calls["whole"] += 1
            return step(img)

        def part(r: tuple[int, int, int, int]) -> np.ndarray:
            calls["part"] += 1
            y0, y1, x0, x1 = r
            cy0, cx0 = max(0, y0 - 1), max(0, x0 - 1)
            return step(img[cy0:y1 + 1, cx0:x1 + 1])[y0 - cy0:y1 - cy0, x0 - cx0:x1 - cx0]

        return memo.patched(("dilated", share), lambda b: b, 1, whole, part, img, whole_share=share)

    for share in (0.0, 1e9):  # made whole from any window on; never made whole
        memo.start(view)
        first = ask(gray, share).copy()
        assert np.array_equal(first, step(gray))
        img, seen = gray.copy(), view.copy()
        for y, x in ((40, 60), (200, 300), (330, 90)):  # three changed blocks: three windows
            img[y:y + 20, x:x + 20] = 255
            seen[y // SCALE:(y + 20) // SCALE, x // SCALE:(x + 20) // SCALE] = 200
        calls.update(whole=0, part=0)
        memo.start(seen)
        assert np.array_equal(ask(img, share), step(img))
        assert calls == ({"whole": 1, "part": 0} if share == 0.0 else {"whole": 0, "part": 3})


def test_windows_copied_through_one_mask_write_each_window_and_nothing_else() -> None:
    """``_cover``: the mask of overlapping windows; ``cv2.copyTo`` through it gives what copying each
    window in turn gives (on 200 random sets of windows over a 3-channel and a 1-channel array)."""
    rng = np.random.default_rng(0)
    for trial in range(200):
        shape = (int(rng.integers(5, 120)), int(rng.integers(5, 120)))
        chans = (3,) if trial % 2 else ()
        old = rng.integers(0, 256, (*shape, *chans), dtype=np.uint8)
        new = rng.integers(0, 256, (*shape, *chans), dtype=np.uint8)
        rects = []
        for _ in range(int(rng.integers(1, 12))):
            y0, x0 = int(rng.integers(0, shape[0])), int(rng.integers(0, shape[1]))
            rects.append((y0, int(rng.integers(y0 + 1, shape[0] + 1)), x0, int(rng.integers(x0 + 1, shape[1] + 1))))
        want = old.copy()
        for y0, y1, x0, x1 in rects:
            want[y0:y1, x0:x1] = new[y0:y1, x0:x1]
        got = old.copy()
        cv2.copyTo(new, dice_memo._cover(np.asarray(rects, np.int64), shape), got)  # noqa: SLF001
        assert np.array_equal(got, want)


def test_windows_of_all_boxes_at_once_are_each_boxs_own() -> None:
    """``_windows`` places every box at once (numpy's float64 columns through ``place``) and gives,
    box for box and in order, the window each box alone gives in Python floats: floor and ceil of
    its placed corners grown by the reach, clipped, empty ones left out (issue 12). The places are
    the three the memo is given: the canonical view's, the half view's, the fine view's."""
    rng = np.random.default_rng(3)
    k, ox, oy = 1.5, 0.4999999403953552, 1.25

    def fine(b: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
        return b[0] * k + ox, b[1] * k + oy, b[2] * k + ox, b[3] * k + oy

    places: list[Callable[[tuple[float, float, float, float]], tuple[float, float, float, float]]] = [
        lambda b: b, lambda b: (b[0] / 2, b[1] / 2, b[2] / 2, b[3] / 2), fine]
    for trial in range(300):
        place = places[trial % 3]
        ah, aw = int(rng.integers(20, 900)), int(rng.integers(20, 1200))
        reach = int(rng.integers(0, 30))
        n = int(rng.integers(1, 2 * dice_memo.FEW_BOXES))  # (placed one by one up to FEW_BOXES, else all at once)
        gx, gy = rng.integers(-3, 200, n), rng.integers(-3, 150, n)
        cw, ch = rng.integers(1, 12, n), rng.integers(1, 12, n)
        boxes = [(int(x) * SCALE - KERNEL, int(y) * SCALE - KERNEL, (int(x) + int(w)) * SCALE + KERNEL,
                  (int(y) + int(h)) * SCALE + KERNEL) for x, y, w, h in zip(gx, gy, cw, ch)]
        if trial % 4 == 0:  # an edge strip, as the memo adds for a view's last columns
            boxes.insert(0, (float(aw - 7), 0.0, float(aw + 3), float(ah)))
        want = []
        for b in boxes:
            x0, y0, x1, y1 = place(b)
            r = (max(0, math.floor(y0) - reach), min(ah, math.ceil(y1) + reach + 1),
                 max(0, math.floor(x0) - reach), min(aw, math.ceil(x1) + reach + 1))
            if r[0] < r[1] and r[2] < r[3]:
                want.append(r)
        got = dice_memo._windows(np.asarray(boxes, np.float64), place, reach, ah, aw)  # noqa: SLF001
        assert got.tolist() == [list(r) for r in want]


def _noisy_stream(cal: Calibration, seed: int, sigma: float = 3.0) -> tuple[Callable[[], np.ndarray], NoiseLevel]:
    """Frames of a still gate view under fresh sensor noise every frame (``sigma`` levels: some of a
    die's cells pass ``REGION_CHANGE`` on every frame), and a noise level that learnt their floor."""
    w, h = cal.layout.size
    rng = np.random.default_rng(seed)
    base = rng.uniform(60, 190, (h // SCALE, w // SCALE, 3))

    def frame() -> np.ndarray:
        return np.clip(base + rng.normal(0, sigma, base.shape), 0, 255).round().astype(np.uint8)

    noise = NoiseLevel(base.size)
    for _ in range(LEAST + 2):
        noise(frame())
    assert noise.quiet
    return frame, noise


def _blocks(noise: NoiseLevel) -> Callable[[np.ndarray, np.ndarray], np.ndarray]:
    """The reader's test on a camera whose floor is learnt (``NoiseLevel.moved``)."""
    def moved(view: np.ndarray, ref: np.ndarray) -> np.ndarray:
        got = noise.moved(view, ref)
        assert got is not None
        return got
    return moved


def test_a_noisy_cameras_candidate_is_kept_while_no_block_of_it_moves_and_read_again_when_a_die_moves() -> None:
    memo, cal, _ = _memo()
    frame, noise = _noisy_stream(cal, 12)
    w, h = cal.layout.size
    centre = np.asarray([[w * 0.3, h * 0.4]], np.float32)
    calls: list[int] = []

    def read(to_src: object) -> int:
        assert callable(to_src)
        to_src(centre + np.asarray([[-8, -8], [8, 8]], np.float32))
        calls.append(1)
        return len(calls)

    first = frame()
    memo.start(first, _blocks(noise), _blocks(noise))
    assert memo.sampled("die", cal.to_image, read) == 1
    qx, qy = int(w * 0.3) // SCALE, int(h * 0.4) // SCALE
    box = (slice(qy - 5, qy + 6), slice(qx - 5, qx + 6))  # the cells the candidate's reading reaches
    for _ in range(3):
        still = frame()
        # the noise moves some cell of the candidate's box past REGION_CHANGE: by every pixel's change
        # it would be read again
        assert changed_pixels(still, first)[box].any()
        memo.start(still, _blocks(noise), _blocks(noise))
        assert memo.sampled("die", cal.to_image, read) == 1
    # a die moved onto it (a die's worth of cells, 40 levels brighter) under the same noise
    moved = frame()
    moved[qy - 1:qy + 2, qx - 1:qx + 2] = np.clip(moved[qy - 1:qy + 2, qx - 1:qx + 2].astype(int) + 40, 0, 255)
    memo.start(moved, _blocks(noise), _blocks(noise))
    assert memo.sampled("die", cal.to_image, read) == 2
    # by every pixel's change (a noise-free stream's test, the default) the noise alone drops it
    memo.start(frame())
    assert memo.sampled("die", cal.to_image, read) == 3
    assert (memo.hits, memo.misses) == (3, 3)


def test_a_noisy_cameras_patched_array_is_made_again_only_round_a_moved_block() -> None:
    memo, cal, _ = _memo()
    frame, noise = _noisy_stream(cal, 13)
    gray = _noise(cal, 3)
    made: list[tuple[int, int, int, int]] = []

    def part(r: tuple[int, int, int, int]) -> np.ndarray:
        made.append(r)
        y0, y1, x0, x1 = r
        return _dilate(gray)[y0:y1, x0:x1]

    def patched() -> np.ndarray:
        return memo.patched("d", lambda b: b, 1, lambda: _dilate(gray), part, gray, whole_share=2.0)

    memo.start(frame(), _blocks(noise), _blocks(noise))
    patched()
    memo.start(frame(), _blocks(noise), _blocks(noise))
    patched()
    assert made == []  # the noise alone: nothing made again
    w, h = cal.layout.size
    qx, qy = int(w * 0.6) // SCALE, int(h * 0.5) // SCALE
    moved = frame()
    moved[qy - 1:qy + 2, qx - 1:qx + 2] = np.clip(moved[qy - 1:qy + 2, qx - 1:qx + 2].astype(int) + 40, 0, 255)
    memo.start(moved, _blocks(noise), _blocks(noise))
    patched()
    assert made and all(y0 <= qy * SCALE < y1 and x0 <= qx * SCALE < x1 for y0, y1, x0, x1 in made)
    assert sum((y1 - y0) * (x1 - x0) for y0, y1, x0, x1 in made) < 0.05 * w * h
