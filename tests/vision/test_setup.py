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
from tavli_pi.vision.observation import MAX_COUNT, CountEvidence, Observation, SpotEvidence, certain
from tavli_pi.vision.setup import FIT, check_fit, fit_of, in_progress, learn_board, setup_agreement
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


def _with_dice(seed: int = 4) -> tuple[Calibration, np.ndarray]:
    """The start position with a 5 and a 3 lying on the field, and the board learnt from it."""
    dice = (DieSpec(5, 0.3, 0.5, angle=20.0), DieSpec(3, 0.72, 0.48, angle=-10.0))
    r = render(scene_from_position(Position.start(), dice=dice), seed=seed)
    return learn_board(r.image, Calibration(r.truth.corners, home=r.truth.home)), r.image  # type: ignore[arg-type]


def test_a_still_photo_reads_the_dice_lying_where_dice_lay_at_set_up() -> None:
    """Learnt from a frame with dice on it, the board has them in it: a die lying there later never
    stood out from it and ``vet_dice`` dropped it (the rosewood set-up photo read with the board
    learnt from it: none of its three dice). The calibration keeps where they lay
    (``setup_dice``) and a still photo's die there is vetted as with no learnt board."""
    cal, image = _with_dice()
    assert len(cal.setup_dice) == 2
    got = sorted(d.value for d in BoardReader(cal, still_photo=True).read(image).dice)
    assert got == [3, 5]


def test_a_set_up_die_that_never_moved_is_no_die_in_a_stream_and_nothing_is_painted_out() -> None:
    """``run`` sees a die appear only by motion (issue 9): dice lying still on the frame the board
    was learnt from stay part of the learnt board, as a mark of the board read as a die would (stop 25:
    painted out, such a mark stood out as a die on every frame of real-like games 23 and 57) -- the
    places are only noted, the background learnt is the frame as it is."""
    cal, image = _with_dice()
    assert cal.setup_dice
    reader = BoardReader(cal)
    for i in range(3):
        assert not [d for d in reader.read(image, i).dice if not d.moving]
    bare = learn_board(image, Calibration(cal.corners, home=cal.home), dice=())
    assert bare.setup_dice == () and bare.background == cal.background


def test_the_rosewood_set_up_photo_read_with_the_board_learnt_from_it(real_data: Path) -> None:
    """bench_vision --real, calibrated mode: bcv-hough-test12 learnt from itself read 0 of its 3
    legible dice (stop 25)."""
    f = next(g for g in real_frames(real_data) if g.name == "bcv-hough-test12.jpg")
    cal = learn_board(f.image, refine(Calibration(f.corners, home=f.label["home"]), f.image))
    obs = BoardReader(cal, still_photo=True).read(f.image)
    sc = score_real(f, obs, 0.025 * max(f.image.shape[:2]))
    assert sc.dice_false == 0 and sc.dice_right == sc.dice_legible == 3, obs.dice


def test_the_places_of_the_set_up_dice_are_saved_with_the_calibration() -> None:
    cal = Calibration(np.float32([[0, 0], [100, 0], [100, 80], [0, 80]]), setup_dice=((10.5, 20.0, 7.5),))
    assert Calibration.from_dict(cal.to_dict()).setup_dice == ((10.5, 20.0, 7.5),)
    old = {k: v for k, v in cal.to_dict().items() if k != "setup_dice"}  # a file saved before
    assert Calibration.from_dict(old).setup_dice == ()


def _read_as(light: dict[int, int], dark: dict[int, int], unsure: tuple[int, ...] = ()) -> Observation:
    """A reading of the points ``light``/``dark`` (point: checkers, light numbering), sure but for the
    light count of each point in ``unsure``, read at 0.6 (the rest on one checker fewer)."""
    spots = []
    for p in range(1, 25):
        n = light.get(p, 0)
        lc = certain(n)
        if p in unsure:
            lc = CountEvidence(tuple(0.6 if i == n else 0.4 if i == n - 1 else 0.0 for i in range(MAX_COUNT + 1)))
        spots.append(SpotEvidence(lc, certain(dark.get(p, 0))))
    empty = SpotEvidence(certain(0), certain(0))
    return Observation(points=tuple(spots), bar=empty, off=empty)


def test_a_game_in_progress_read_unsurely_at_a_few_spots() -> None:
    # a game some plays on (light numbering; dark counted on the light player's points): it differs from
    # the start at 11 points, 3 of them read unsurely
    light = {24: 1, 16: 1, 13: 3, 8: 3, 7: 2, 6: 3, 5: 2}
    dark = {1: 2, 12: 4, 17: 2, 18: 2, 19: 3, 21: 2}
    obs = _read_as(light, dark, unsure=(16, 7, 5))
    assert sum(light.values()) == sum(dark.values()) == 15
    assert len(setup_agreement(obs).differences) == 11
    assert not in_progress(obs, 4)  # every differing spot must be sure: an attended table's test
    assert in_progress(obs, 4, every=False)  # four of them sure is enough unattended
    assert in_progress(obs, 8, every=False) and not in_progress(obs, 9, every=False)  # 8 are sure
    assert in_progress(_read_as(light, dark), 4)


def test_a_position_with_its_colours_swapped_is_not_learnt() -> None:
    """The light checkers are the lighter ones by name: a position that puts them where the board shows
    the darker checkers is no view of that board (a clip joined mid-game, learnt as the start from the
    wrong long side, took pearl-white for dark and grey for light), and learning says so."""
    from tavli_pi.vision.known import KnownBoard

    r = render(scene_from_position(Position.start(), look=Look(board="wood")), seed=2)
    cal = Calibration(r.truth.corners, home=r.truth.home)  # type: ignore[arg-type]
    start = KnownBoard.start()
    assert learn_board(r.image, cal, start).position == start  # the same board, the colours as they are
    with pytest.raises(CalibrationError, match="darker ones than where it puts the dark"):
        learn_board(r.image, cal, KnownBoard(start.dark, start.light))
