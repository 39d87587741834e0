"""Learning a board at set-up (B3), and refusing a calibration made on another board."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from tavli_pi.errors import CalibrationError
from tavli_pi.rules.position import Position
from tavli_pi.sim.render import render
from tavli_pi.sim.scene import DieSpec, Look, scene_from_position
from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.reader import BoardReader
from tavli_pi.vision.refine import refine
from tavli_pi.vision.setup import FIT, check_fit, fit_of, learn_board, setup_agreement, without_dice
from tests.vision._eval import real_frames, score_real, spot_errors


def _learnt(board: str, seed: int = 2) -> tuple[Calibration, np.ndarray]:
    r = render(scene_from_position(Position.start(), look=Look(board=board)), seed=seed)
    cal = Calibration(r.truth.corners, home=r.truth.home)  # type: ignore[arg-type]
    return learn_board(r.image, cal), r.image


@pytest.mark.parametrize("board", ["tournament", "wood", "green"])
def test_the_learnt_board_reads_later_positions(board: str) -> None:
    cal, _ = _learnt(board)
    assert cal.source == "setup" and cal.background
    assert sum(cal.light_bgr) > sum(cal.dark_bgr) + 60  # each colour from where B3 puts it
    pos = Position.from_counts({1: 2, 4: 3, 6: 4, 8: 2, 13: 4}, {2: 2, 3: 3, 7: 5, 11: 2, 20: 3})
    r = render(scene_from_position(pos, look=Look(board=board, noise=2.0)), seed=9)
    assert (fit_of(cal, r.image) or 0.0) >= FIT
    obs = BoardReader(cal).read(r.image)
    t = r.truth
    errs = spot_errors(obs, {p + 1: n for p, n in enumerate(t.light)}, {p + 1: n for p, n in enumerate(t.dark)}, t.bar)
    assert not errs
    assert not obs.problems


def test_setup_agreement_says_where_the_set_up_board_differs() -> None:
    cal, img = _learnt("tournament")
    agree = setup_agreement(BoardReader(cal).read(img))
    assert agree.agrees and agree.fit > 0.5 and "set up to start" in agree.message()
    pos = Position.from_counts({6: 5, 8: 3, 13: 4, 24: 2, 5: 1}, {24: 2, 13: 5, 8: 3, 6: 5})
    r = render(scene_from_position(pos), seed=3)
    agree = setup_agreement(BoardReader(cal).read(r.image))
    assert not agree.agrees
    spots = {s for s, _, _ in agree.differences}
    assert spots == {"5", "13"}
    assert "confirm" in agree.message()


def test_a_calibration_from_another_board_does_not_fit() -> None:
    cal, _ = _learnt("tournament")
    other = render(scene_from_position(Position.start(), look=Look(board="green")), seed=5)
    with pytest.raises(CalibrationError, match="does not fit this board"):
        check_fit(cal, other.image)


def test_a_moved_camera_does_not_fit() -> None:
    cal, img = _learnt("wood")
    shifted = np.roll(img, 40, axis=1)
    with pytest.raises(CalibrationError, match="does not fit"):
        check_fit(cal, shifted)


def test_dice_on_the_set_up_frame_are_not_learnt_into_the_board() -> None:
    """A die lying on the frame the board is learnt from is painted out of the learnt background
    (``without_dice``): read with that board, the same frame still shows its dice (learnt in, they
    never stood out from it and ``vet_dice`` dropped them all)."""
    dice = (DieSpec(5, 0.3, 0.5, angle=20.0), DieSpec(3, 0.72, 0.48, angle=-10.0))
    r = render(scene_from_position(Position.start(), dice=dice), seed=4)
    cal = learn_board(r.image, Calibration(r.truth.corners, home=r.truth.home))  # type: ignore[arg-type]
    got = sorted(d.value for d in BoardReader(cal, still_photo=True).read(r.image).dice)
    assert got == [3, 5]


def test_a_board_with_no_dice_is_learnt_as_it_is() -> None:
    r = render(scene_from_position(Position.start()), seed=2)
    cal = Calibration(r.truth.corners, home=r.truth.home)  # type: ignore[arg-type]
    canon = cal.warp(r.image)
    assert without_dice(canon, cal, r.image) is canon


def test_the_rosewood_set_up_photo_read_with_the_board_learnt_from_it_shows_its_dice(real_data: Path) -> None:
    """bench_vision --real, calibrated: the rosewood board's set-up photo (bcv-hough-test12) learnt from
    itself read none of its legible dice (5, 6, 6); with them painted out of the learnt board, all
    three, and no die where none is."""
    f = next(g for g in real_frames(real_data) if g.name == "bcv-hough-test12.jpg")
    cal = learn_board(f.image, refine(Calibration(f.corners, home=f.label["home"]), f.image))
    obs = BoardReader(cal, still_photo=True).read(f.image)
    sc = score_real(f, obs, 0.025 * max(f.image.shape[:2]))
    assert (sc.dice_right, sc.dice_legible, sc.dice_false) == (3, 3, 0)


def test_a_body_with_no_face_read_is_not_painted_out(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only dice with a value read are painted out of the learnt board: a body with no face read may be
    a mark of the board's own (real-like game 110: painted out, it stood out from the learnt board on
    every later frame and the referee took no roll). The same place with a face read is painted."""
    import dataclasses

    from tavli_pi.vision import setup as setup_module
    from tavli_pi.vision.observation import DieReading

    r = render(scene_from_position(Position.start()), seed=2)
    cal = Calibration(r.truth.corners, home=r.truth.home)  # type: ignore[arg-type]
    canon = cal.warp(r.image)
    xy = tuple(float(v) for v in cal.to_image(np.asarray([[canon.shape[1] * 0.3, canon.shape[0] * 0.5]], np.float32))[0])
    read = BoardReader.read

    def reading(value: int) -> None:
        die = DieReading(xy=(xy[0], xy[1]), value=value, value_confidence=0.9 if value else 0.0, flat=True,
                         on_checker=False, half="left", size_px=20.0)
        monkeypatch.setattr(setup_module.BoardReader, "read",
                            lambda self, image, *a, **k: dataclasses.replace(read(self, image, *a, **k), dice=(die,)))

    reading(0)
    assert without_dice(canon, cal, r.image) is canon
    reading(4)
    assert without_dice(canon, cal, r.image) is not canon
