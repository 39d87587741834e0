"""The set-up watch (``tavli_pi/setup_watch.py``): a clear, still start board is learnt on its own; a
board read otherwise is asked about, and the players' ``accept`` lets it be learnt as it is (B3). The
whole app's set-up runs are in ``tests/test_app_setup.py``."""

from __future__ import annotations

import warnings
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from tavli_pi.app import TableApp
from tavli_pi.config import parse_config
from tavli_pi.referee.events import SetupChecked
from tavli_pi.referee.inputs import Action, PlayerInput
from tavli_pi.sim.camera import SimCamera
from tavli_pi.sim.scene import scene_from_position
from tavli_pi.vision.known import KnownBoard
from tavli_pi.vision.observation import Observation

from tests.test_app_setup import SHORT, START, corners_config, next_frame


def test_a_clear_start_board_is_learnt_from_the_second_still_frame(tmp_path: Path) -> None:
    cfg = parse_config(corners_config(tmp_path), str(tmp_path / "t.toml"))
    cam = SimCamera([(scene_from_position(START), 3)], fps=10.0)
    with TableApp(cfg, camera=cam, pin_factory=MockFactory()) as app:
        watch = app.setup
        # the first frame only starts the still run: a hand missed on one frame is seldom at the same place next
        assert watch.calibrated(next_frame(cam)) is None
        made = watch.calibrated(next_frame(cam))
        assert made is not None
        cal, confirmed = made
        assert not confirmed and cal.learnt and cal.position == KnownBoard.start()
        assert watch.asked_events == [] and watch.held == []


def test_a_board_read_otherwise_is_asked_about_once_and_learnt_as_it_is_once_accepted(tmp_path: Path) -> None:
    cfg = parse_config(corners_config(tmp_path), str(tmp_path / "t.toml"))
    cam = SimCamera([(scene_from_position(SHORT), 6)], fps=10.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with TableApp(cfg, camera=cam, pin_factory=MockFactory()) as app:
            watch = app.setup
            assert [watch.calibrated(next_frame(cam)) for _ in range(3)] == [None, None, None]
            asked = [e for e in watch.asked_events if isinstance(e, SetupChecked)]
            assert len(asked) == 1 and not asked[0].ok  # asked once, not on every frame
            assert "point 13" in " ".join(asked[0].problems), asked[0].problems
            watch.hear(PlayerInput(Action.ACCEPT, None))
            watch.hear(PlayerInput(Action.ACCEPT, None))  # one confirmation is enough
            watch.hear(PlayerInput(Action.PAUSE, None))
            assert [i.action for i in watch.held] == [Action.ACCEPT, Action.PAUSE]
            made = watch.calibrated(next_frame(cam))
            assert made is not None
            cal, confirmed = made
            assert confirmed and cal.learnt  # learnt as the board shows it, the players' word for it


def test_a_die_reported_tumbling_on_a_still_frame_lies_nowhere() -> None:
    """``lying_dice``: on a frame the reader saw still, a die reported tumbling is no die lying there
    (a smear of the board's print); on a frame with motion it is a die in flight, and kept."""
    from tavli_pi.setup_watch import lying_dice
    from tavli_pi.vision.observation import DieReading

    from tests.referee.synth import observe

    lying = DieReading((300.0, 200.0), 5, 0.95, True, False, "right")
    smear = DieReading((400.0, 140.0), 0, 0.0, False, False, "right", moving=True)
    still = observe(START, dice=[lying, smear])
    assert lying_dice(still) == [lying]
    assert lying_dice(observe(START, dice=[smear])) == []
    assert lying_dice(observe(START, dice=[lying, smear], motion=True)) == [lying, smear]




def test_an_unattended_board_refused_as_the_start_is_taken_as_set_up_after_the_wait(tmp_path: Path,
                                                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    """A clear, still set-up board that ``learn_board`` refuses as the start on every frame (a field found
    too tall: its checkers "look the same") is asked about; at a table the players answer, but nobody
    answers a recording, which waited for ever (``bench_video.py --size 640 --seed 7``, game 6: set-up never
    done, all six rolls lost). Unattended, it is taken as set up after ``[referee] unattended_wait`` (1 s)
    of frame time, as a board read otherwise is (B3: set-up never deadlocks)."""
    from tavli_pi.errors import CalibrationError
    from tavli_pi.vision import setup as vsetup

    def refused(*args: object, **kwargs: object) -> None:
        raise CalibrationError("the light and dark checkers look the same on the board as the start position")

    monkeypatch.setattr(vsetup, "learn_board", refused)
    text = corners_config(tmp_path)
    for attended, frames in ((True, 24), (False, 24), (False, 8)):
        cfg = parse_config(text.replace("[table]\n", f"[table]\nattended = {str(attended).lower()}\n", 1),
                           str(tmp_path / "t.toml"))
        cam = SimCamera([(scene_from_position(START), frames + 1)], fps=10.0)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with TableApp(cfg, camera=cam, record=False, pin_factory=MockFactory()) as app:
                made = [app.setup.calibrated(next_frame(cam)) for _ in range(frames)]
                asked = [e for e in app.setup.asked_events if isinstance(e, SetupChecked)]
                assert len(asked) == 1 and not asked[0].ok  # asked once
                done = [i for i, m in enumerate(made) if m is not None]
                if attended or frames < 10:  # players asked answer; a recording waits 1 s of frames first
                    assert done == [], (attended, done)
                    if attended:  # the players' accept goes on with the board as it is
                        app.setup.hear(PlayerInput(Action.ACCEPT, None))
                        assert app.setup.calibrated(next_frame(cam)) is not None
                else:
                    assert done and 10 <= done[0] <= 13, done  # after 1 s of frames, not for ever
                    assert [i.source for i in app.setup.held] == ["unattended"]


def _reading(board: KnownBoard | tuple[list[int], list[int]]) -> Observation:
    """What a reader sure of every count reports for ``board`` (26 counts a colour: points 1-24, bar, off;
    as a pair of lists, not 15 a side maybe), with no dice, clear and still."""
    from tavli_pi.vision.observation import SpotEvidence, certain

    light, dark = (board.light, board.dark) if isinstance(board, KnownBoard) else board
    spots = [SpotEvidence(certain(light[i]), certain(dark[i])) for i in range(26)]
    return Observation(points=tuple(spots[:24]), bar=spots[24], off=spots[25])


def _counts(light: dict[int, int], dark: dict[int, int]) -> tuple[list[int], list[int]]:
    """26 counts a colour from {spot (1-24, 25 bar, 26 off): count}."""
    return [light.get(i, 0) for i in range(1, 27)], [dark.get(i, 0) for i in range(1, 27)]


def _board(light: dict[int, int], dark: dict[int, int]) -> KnownBoard:
    return KnownBoard.of_counts(*_counts(light, dark))


#: a game far on, from the light player's seat: light near its home (points 1-6), dark near its own (19-24)
FAR_ON = _board({1: 3, 2: 3, 3: 3, 4: 2, 5: 2, 8: 2}, {24: 3, 23: 3, 22: 3, 21: 2, 20: 2, 17: 2})


def test_steady_board_is_only_a_whole_position_a_game_reaches_seen_from_the_light_seat() -> None:
    """``steady_board``: the position a board refused as the start may be taken as, unattended -- a reading of
    15 checkers a side (points, bar and off) that a game reaches, not read from the other seat; else None."""
    from tavli_pi.setup_watch import steady_board
    from tavli_pi.vision.seat import turned_board

    assert steady_board(_reading(KnownBoard.start())) == KnownBoard.start()
    assert steady_board(_reading(FAR_ON)) == FAR_ON
    # one light checker missed (14 + 15: no whole position)
    short = _counts({1: 3, 2: 3, 3: 3, 4: 2, 5: 1, 8: 2}, dict(zip(range(1, 27), FAR_ON.dark)))
    assert steady_board(_reading(short)) is None
    # a light checker borne off while another stands outside light's home board: no game reaches it
    off_early = _board({1: 3, 2: 3, 3: 3, 4: 2, 5: 1, 8: 2, 26: 1}, dict(zip(range(1, 27), FAR_ON.dark)))
    assert steady_board(_reading(off_early)) is None
    # the game far on read from the other long side of the field (12 points round): not taken
    assert steady_board(_reading(turned_board(FAR_ON))) is None


def test_an_unattended_board_refused_as_the_start_waits_on_a_reading_that_is_no_steady_position(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A board ``learn_board`` refuses as the start, whose reading is no one steady position (here a start
    read now whole, now a checker short), is not taken as set up after ``[referee] unattended_wait``: nobody
    confirmed it, and the game would go on from a board the camera cannot read (``bench_video.py --size 640
    --seed 7 --from-play 4 --rolled --hold 15 --think 15``, game 6: its reading flickering, taken after the
    wait, the opening roll was asked 8 times). The watch keeps watching: once the reading holds still as one
    whole position for the wait it goes on, and the players' accept goes on at any time (never a deadlock).
    Frame times are the simulated camera's (10 fps): no sleep."""
    from tavli_pi.errors import CalibrationError
    from tavli_pi.setup_watch import SetupWatch
    from tavli_pi.vision import setup as vsetup

    def refused(*args: object, **kwargs: object) -> None:
        raise CalibrationError("where the start position (B3) puts the light checkers the board shows darker ones")

    whole = _reading(KnownBoard.start())
    short = _reading(_counts({24: 2, 13: 5, 8: 3, 6: 4}, {1: 2, 12: 5, 17: 3, 19: 5}))
    steady_from = 30
    monkeypatch.setattr(vsetup, "learn_board", refused)
    monkeypatch.setattr(SetupWatch, "read", lambda self, cal, frame: (
        whole if frame.index >= steady_from or frame.index % 2 else short))
    cfg = parse_config(corners_config(tmp_path).replace("[table]\n", "[table]\nattended = false\n", 1),
                       str(tmp_path / "t.toml"))
    for accept_at in (None, 20):
        cam = SimCamera([(scene_from_position(START), 50)], fps=10.0)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            with TableApp(cfg, camera=cam, record=False, pin_factory=MockFactory()) as app:
                done: list[int] = []
                for i in range(48):
                    if i == accept_at:
                        app.setup.hear(PlayerInput(Action.ACCEPT, None))
                    frame = next_frame(cam)
                    if app.setup.calibrated(frame) is not None:
                        done.append(frame.index)
                        break
                asked = [e for e in app.setup.asked_events if isinstance(e, SetupChecked)]
                assert len(asked) == 1 and not asked[0].ok  # asked once, and kept watching
                if accept_at is None:
                    # flickering for 3 s (30 frames): not taken; steady from frame 30: taken 1 s later
                    assert done and steady_from + 10 <= done[0] <= steady_from + 12, done
                    assert [i.source for i in app.setup.held] == ["unattended"]
                else:  # the players' accept goes on at once, whatever the camera reads
                    assert done == [accept_at], done
                    assert app.setup.confirmed
