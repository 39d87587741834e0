"""The app learns the board at set-up and never deadlocks there (B3, issue 9): a set-up board
it reads otherwise is shown to the players (``setup_checked``, not ok), and their ACCEPT lets
the table go on, learning the board as they confirmed it."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

from gpiozero.pins.mock import MockFactory

from tavli_pi.app import CALIBRATED_AT_KEY, CALIBRATION_KEY, TableApp
from tavli_pi.config import TableConfig, parse_config
from tavli_pi.referee.events import RollNeeded, SetupChecked
from tavli_pi.referee.inputs import Action, PlayerInput
from tavli_pi.rules.position import Position
from tavli_pi.sim.camera import SimCamera
from tavli_pi.sim.drive import drive
from tavli_pi.sim.render import render
from tavli_pi.sim.scene import Scene, scene_from_position
from tavli_pi.sim.script import Moment
from tavli_pi.setup_watch import SetupWatch
from tavli_pi.referee.evidence import spot_counts
from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.camera import Frame
from tavli_pi.vision.known import KnownBoard

from tests.test_app import config

#: the start with one White checker missing from the 13-point: what vision reads when it
#: cannot see one checker of a board the players did set up right
START = Position.start()
SHORT = Position.from_counts({24: 2, 13: 4, 8: 3, 6: 5}, {24: 2, 13: 5, 8: 3, 6: 5})


def corners_config(tmp_path: Path) -> str:
    """What an installation gives the app: the field's corners, no calibration file."""
    corners = " ".join(f"{x:.1f},{y:.1f}" for x, y in render(scene_from_position(Position.start())).truth.corners)
    return f"[camera]\ncorners = '{corners}'\n" + config(tmp_path)


def test_the_app_learns_a_clear_start_board_itself(tmp_path: Path) -> None:
    cfg = parse_config(corners_config(tmp_path), str(tmp_path / "t.toml"))
    cam = SimCamera([(scene_from_position(Position.start()), 4)], fps=10.0)
    with TableApp(cfg, camera=cam, pin_factory=MockFactory()) as app:
        app.run()
        assert [e.kind for e in app.events] == ["setup_checked", "game_started"]
        assert nth_ok(app) and app.referee.blind == ()
        # learnt from the first frame whose picture held still since the one before (a hand vision
        # misses in one frame is seldom at the same place in the next)
        assert any(w.startswith("calibrated on frame 1") for w in app.wired), app.wired


def next_frame(cam: SimCamera) -> Frame:
    frame = cam.read()
    assert frame is not None
    return frame


def nth_ok(app: TableApp) -> bool:
    return all(e.ok for e in app.events if isinstance(e, SetupChecked))


def test_a_board_read_otherwise_asks_the_players_and_accept_goes_on(tmp_path: Path) -> None:
    cfg = parse_config(corners_config(tmp_path), str(tmp_path / "t.toml"))
    cam = SimCamera([(scene_from_position(SHORT), 7)], fps=10.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # "calibration waits ...": the event says it to the players
        with TableApp(cfg, camera=cam, pin_factory=MockFactory()) as app:
            assert app.process(next_frame(cam)) == []  # no frame before it to say the picture is still
            first = app.process(next_frame(cam))
            asked = [e for e in first if isinstance(e, SetupChecked)]
            assert len(asked) == 1 and not asked[0].ok and "ACCEPT" in asked[0].message
            assert "point 13" in " ".join(asked[0].problems)
            assert app.referee.phase == "setup" and app.referee.state.setup_wrong
            assert app.process(next_frame(cam)) == []  # asked once, not on every frame
            app.submit(PlayerInput(Action.ACCEPT, None, source="touch"))
            got = app.process(next_frame(cam))
            assert [e.kind for e in got] == ["setup_checked", "game_started"]
            assert got[0].extra.get("confirmed") is True and app.referee.phase == "opening"
            assert any("confirmed by the players" in w for w in app.wired)


def test_scripted_players_confirm_the_set_up_when_asked(tmp_path: Path) -> None:
    cfg = parse_config(corners_config(tmp_path), str(tmp_path / "t.toml"))
    # the players set up the start (the script's truth); the camera sees one checker short
    moments = [Moment(START) for _ in range(4)]
    cam = SimCamera([(scene_from_position(SHORT), 4)], fps=10.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with TableApp(cfg, camera=cam, pin_factory=MockFactory()) as app:
            kinds = [k for s in drive(app, cam, moments, confirm_setup=True) for k in s.kinds]
    assert kinds == ["setup_checked", "setup_checked", "game_started"]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cam = SimCamera([(scene_from_position(SHORT), 4)], fps=10.0)
        cfg2 = parse_config(corners_config(tmp_path / "b"), str(tmp_path / "t2.toml"))
        (tmp_path / "b").mkdir()
        with TableApp(cfg2, camera=cam, pin_factory=MockFactory()) as app:
            kinds = [k for s in drive(app, cam, moments) for k in s.kinds]
    assert kinds == ["setup_checked"]  # nobody confirms: the referee keeps waiting, and says why once


def _run_set_up(cfg: TableConfig, scenes: list[Scene]) -> tuple[TableApp, list[str], list[SetupChecked]]:
    """The app run over ``scenes`` (a simulated camera at 10 fps): the app, its events' kinds, and the set-up
    checks that passed."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with TableApp(cfg, camera=SimCamera(scenes, fps=10.0), pin_factory=MockFactory()) as app:
            app.run()
    return app, [e.kind for e in app.events], [e for e in app.events if isinstance(e, SetupChecked) and e.ok]


def _opening_thrown(clear: int) -> list[Scene]:
    """``clear`` frames of the board one checker short (SHORT), then the opening 3-1 thrown into the halves
    and lying still four frames."""
    from tavli_pi.sim.script import ScriptDie
    from tavli_pi.sim.table import scene_of

    still = (ScriptDie(3, "right", 0), ScriptDie(1, "left", 1))
    thrown = tuple(ScriptDie(d.value, d.half, d.slot, moving=True) for d in still)
    return ([scene_of(Moment(SHORT))] * clear + [scene_of(Moment(SHORT, dice=thrown))]
            + [scene_of(Moment(SHORT, dice=still))] * 4)


def test_an_opening_roll_thrown_instead_of_an_answer_confirms_the_set_up(tmp_path: Path) -> None:
    """Asked about a board it reads otherwise (one checker short), the players roll the opening
    instead of pressing ACCEPT (a recorded video has nobody to press it): they take the board as
    set up; the board is learnt from the clear frame asked about, and the dice are the opening roll."""
    cfg = parse_config(corners_config(tmp_path), str(tmp_path / "t.toml"))
    app, kinds, done = _run_set_up(cfg, _opening_thrown(2))
    assert kinds == ["setup_checked", "setup_checked", "game_started", "opening_roll"], kinds
    assert done[0].extra.get("confirmed") is True and "opening roll was thrown" in done[0].message
    opening = [e for e in app.events if e.kind == "opening_roll"][0]
    assert (opening.white_die, opening.black_die) == (3, 1)  # type: ignore[attr-defined]


def test_a_die_lying_on_the_bar_neither_blocks_the_question_nor_hides_the_opening_roll(tmp_path: Path) -> None:
    """A board whose bar shows a die-like mark on every frame (hinge plates read as dice: ``bench_video.py
    --size 640 --seed 10``, game 5): the clear set-up frame read otherwise is still asked about, and the
    opening roll thrown into the halves beside the mark answers it -- a die on the bar is no thrown die."""
    from tavli_pi.sim.script import ScriptDie
    from tavli_pi.sim.table import scene_of

    cfg = parse_config(corners_config(tmp_path), str(tmp_path / "t.toml"))
    mark = ScriptDie(2, "bar", 0)
    still = (ScriptDie(3, "right", 0), ScriptDie(1, "left", 1))
    thrown = tuple(ScriptDie(d.value, d.half, d.slot, moving=True) for d in still)
    scenes = ([scene_of(Moment(SHORT, dice=(mark,)))] * 2 + [scene_of(Moment(SHORT, dice=(mark, *thrown)))]
              + [scene_of(Moment(SHORT, dice=(mark, *still)))] * 4)
    _, kinds, done = _run_set_up(cfg, scenes)
    assert kinds[:3] == ["setup_checked", "setup_checked", "game_started"], kinds
    assert done[0].extra.get("confirmed") is True and "opening roll was thrown" in done[0].message


def test_dice_lying_there_all_along_do_not_answer_the_set_up_question(tmp_path: Path) -> None:
    from tavli_pi.sim.script import ScriptDie
    from tavli_pi.sim.table import scene_of

    cfg = parse_config(corners_config(tmp_path), str(tmp_path / "t.toml"))
    still = (ScriptDie(3, "right", 0), ScriptDie(1, "left", 1))
    cam = SimCamera([scene_of(Moment(SHORT, dice=still))] * 6, fps=10.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with TableApp(cfg, camera=cam, pin_factory=MockFactory()) as app:
            app.run()
            assert app.referee.phase == "setup"
    assert [e.kind for e in app.events] == ["setup_checked"]


def test_a_recorded_video_is_unattended_and_its_set_up_goes_on_unanswered(tmp_path: Path) -> None:
    """A replay: source is a recording (nobody answers the referee) unless ``[table] attended``
    says otherwise; unattended, a set-up board read otherwise goes on unanswered."""
    text = corners_config(tmp_path)
    assert parse_config(text, str(tmp_path / "t.toml")).referee.attended  # a camera: players answer
    replay = text.replace("[camera]\n", f"[camera]\nsource = 'replay:{tmp_path}'\n", 1)
    assert not parse_config(replay, str(tmp_path / "t.toml")).referee.attended
    forced = replay.replace("[table]\n", "[table]\nattended = true\n", 1)
    assert parse_config(forced, str(tmp_path / "t.toml")).referee.attended
    unattended = text.replace("[table]\n", "[table]\nattended = false\n", 1)
    cfg = parse_config(unattended, str(tmp_path / "t.toml"))
    cam = SimCamera([(scene_from_position(SHORT), 14)], fps=10.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with TableApp(cfg, camera=cam, pin_factory=MockFactory()) as app:
            app.run()
            kinds = [e.kind for e in app.events]
            assert kinds == ["setup_checked", "setup_checked", "game_started"], kinds
            assert app.referee.phase == "opening"


def _hand_over(u: float) -> object:
    from tavli_pi.sim.scene import HandSpec

    return scene_from_position(START, hand=HandSpec(u=u, v=0.45, size=0.2, from_side="bottom"))


def _calibrated_on(text: str, scenes: list[tuple[object, int]], fps: float = 10.0) -> list[str]:
    cfg = parse_config(text, "t.toml")
    cam = SimCamera(scenes, fps=fps)  # type: ignore[arg-type]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with TableApp(cfg, camera=cam, pin_factory=MockFactory(), record=False) as app:
            app.run()
            return [w for w in app.wired if w.startswith("calibrated on frame")]


def test_an_unattended_picture_left_the_same_is_set_up_even_with_a_hand_seen(tmp_path: Path) -> None:
    """A recording whose board vision takes for a hand on every frame (a board's own colours, a
    hand resting still) never got past set-up: nobody answers. A picture that has not changed for
    ``[referee] unattended_wait`` seconds is the board as the players left it: taken as set up (B3)."""
    text = corners_config(tmp_path)
    unattended = text.replace("[table]\n", "[table]\nattended = false\n", 1)
    still = [(_hand_over(0.3), 14)]
    assert _calibrated_on(text, still) == []  # at a table the players are asked, and nobody is taken
    done = _calibrated_on(unattended, still)
    assert len(done) == 1 and int(done[0].split()[3]) >= 10, done  # after [referee] unattended_wait (1 s)
    # the wait is time, not frames: at 20 frames a second, 20 still frames
    assert _calibrated_on(unattended, [(_hand_over(0.3), 14)], fps=20.0) == []
    done = _calibrated_on(unattended, [(_hand_over(0.3), 24)], fps=20.0)
    assert len(done) == 1 and int(done[0].split()[3]) >= 20, done
    moving = [(_hand_over(0.2 + 0.05 * (i % 4)), 1) for i in range(14)]  # a hand at work: never taken
    assert _calibrated_on(unattended, moving) == []


def test_a_recording_that_starts_mid_game_is_followed_from_the_board_it_shows(tmp_path: Path) -> None:
    """A video that starts in the middle of a game (a referee started late, a broadcast clip): the
    board is clearly no misread start, so it is not learnt as a set-up board; the referee carries
    on from it, and the first roll's half says whose turn it is. The board is learnt from that position
    (as set-up learns from the start) and the game is read with it."""
    from tavli_pi.rules.position import Side
    from tavli_pi.sim.script import ScriptWriter
    from tavli_pi.sim.table import scenes_of

    midgame = Position.from_counts({24: 1, 16: 1, 13: 3, 8: 3, 7: 2, 6: 3, 5: 2},
                                   {24: 2, 13: 4, 8: 2, 7: 2, 6: 3, 4: 2})
    w = ScriptWriter()
    w.position = midgame.with_turn(Side.BLACK)
    w._add(1, hand=True)
    w._add(14)  # nobody answers: the board stays as it is
    w.play(w.roll((4, 2)))
    w.play(w.roll((5, 3)))
    text = corners_config(tmp_path).replace("[table]\n", "[table]\nattended = false\n", 1)
    cfg = parse_config(text, str(tmp_path / "t.toml"))
    cam = SimCamera(scenes_of(w.moments), fps=10.0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with TableApp(cfg, camera=cam, pin_factory=MockFactory(), record=False) as app:
            app.run()
            events = list(app.events)
            cal = app._calibration
            reader = app._reader
            wired = list(app.wired)
    kinds = [e.kind for e in events]
    joined = [e for e in events if e.kind == "board_adopted"]
    assert len(joined) == 1 and joined[0].extra.get("in_progress"), kinds
    # not learnt as the start position: learnt from the position joined, and read with it
    assert cal is not None and cal.source == "position" and cal.learnt, wired
    assert cal.position == KnownBoard.of_counts(*spot_counts(midgame)) and not cal.position.is_start
    assert reader is not None and reader.calibration is cal
    # unattended, learnt at set-up from the position the board reads as (vision/learn_consistent.py),
    # the position then joined: not learnt again, nor forgotten
    assert not any(w.startswith(("learnt the board", "forgot the board")) for w in wired), wired
    plays = [e for e in events if e.kind == "play_accepted"]
    assert [p.side for p in plays] == [Side.BLACK, Side.WHITE], kinds  # type: ignore[attr-defined]
    assert "illegal_play" not in kinds and "board_out_of_sync" not in kinds


def test_a_real_recording_of_a_game_in_progress_is_joined_at_its_board(tmp_path: Path, real_data: Path) -> None:
    """The WTC 2022 board in mid-game (frame0: White's 5-3 lying in White's half), replayed as a
    still recording, unattended: the referee joins the game at the board the label gives and takes
    the dice as White's roll."""
    board = real_data / "boards" / "wtc2022"
    label = json.loads((board / "labels.json").read_text())
    frames = label.get("frames", label)["frame0.jpg"]
    still = tmp_path / "video"
    still.mkdir()
    for i in range(25):
        (still / f"{i:03d}.jpg").symlink_to(board / "frame0.jpg")
    corners = " ".join(f"{x},{y}" for x, y in frames["corners"])
    text = (f"[camera]\nsource = 'replay:{still}'\ncorners = '{corners}'\n"
            f"[table]\nhome = '{frames['home']}'\nmatch_length = 5\n[record]\nlog = '{tmp_path / 'log.sqlite'}'\n")
    cfg = parse_config(text, str(tmp_path / "t.toml"))
    assert not cfg.referee.attended
    from tavli_pi.vision.camera import open_camera

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with TableApp(cfg, camera=open_camera(cfg.camera.source, fps=cfg.camera.fps), pin_factory=MockFactory()) as app:
            app.run()
            events = list(app.events)
            assert app.record is not None
            logged = app.record.log.meta(CALIBRATION_KEY)
            at = app.record.log.meta(CALIBRATED_AT_KEY)
            adopted_on = max(s.frame for s in [app.record.log.last_snapshot()] if s is not None)
    joined = [e for e in events if e.kind == "board_adopted"]
    assert len(joined) == 1 and joined[0].extra.get("in_progress"), [e.kind for e in events]
    want = Position.from_counts({int(p): n for p, n in frames["light"].items()},
                                {25 - int(p): n for p, n in frames["dark"].items()})
    assert joined[0].after.layout_key() == want.layout_key()  # type: ignore[attr-defined]
    # the log keeps the calibration read with (a resumed run reads on with it): learnt from the position
    # the board reads as (vision/learn_consistent.py), the position joined, with the dice lying on the
    # frame kept as places the learnt board does not know: they stay dice (the roll read below), not
    # part of the board, which would leave the unchanged board called an illegal "no play"
    assert logged is not None and at is not None
    kept = Calibration.from_dict(json.loads(logged))
    assert kept.position == KnownBoard.of_counts(*spot_counts(want)) and len(kept.setup_dice) == 2
    assert int(at) <= adopted_on
    rolls = [e for e in events if e.kind == "roll_accepted"]
    assert [(r.side.name, sorted(r.dice)) for r in rolls] == [("WHITE", [3, 5])]  # type: ignore[attr-defined]
    assert not [e for e in events if e.kind == "illegal_play"]  # the dice still lie: no play judged yet


def test_a_broadcast_whose_overlay_never_stops_leaves_set_up(tmp_path: Path, real_data: Path) -> None:
    """A 640x360 recording of the WTC 2022 board in mid-game, its field found in the picture, with a
    broadcast overlay beside the board that changes on every frame (a clock, a score, people round
    the table): the board holds still, so set-up goes on -- only the box round the field is watched
    for stillness -- and the referee joins the game at the labelled board. (Watching the whole
    picture, set-up waited for ever.)"""
    import cv2
    import numpy as np

    board = real_data / "boards" / "wtc2022"
    label = json.loads((board / "labels.json").read_text())
    frames = label.get("frames", label)["frame0.jpg"]
    img = cv2.imread(str(board / "frame0.jpg"))
    small = cv2.resize(img, (640, 360), interpolation=cv2.INTER_AREA)
    small = cv2.imdecode(cv2.imencode(".jpg", small)[1], cv2.IMREAD_COLOR)  # a recording's compression
    video = tmp_path / "video"
    video.mkdir()
    rng = np.random.default_rng(0)
    for i in range(20):
        f = small.copy()
        f[150:200, 500:600] = rng.integers(0, 256, (50, 100, 3), dtype=np.uint8)  # the overlay, off the field
        cv2.imwrite(str(video / f"{i:03d}.png"), f)
    text = (f"[camera]\nsource = 'replay:{video}'\n"
            f"[table]\nhome = '{frames['home']}'\nmatch_length = 5\n[record]\nlog = '{tmp_path / 'log.sqlite'}'\n")
    cfg = parse_config(text, str(tmp_path / "t.toml"))
    from tavli_pi.vision.camera import open_camera

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with TableApp(cfg, camera=open_camera(cfg.camera.source, fps=cfg.camera.fps), pin_factory=MockFactory()) as app:
            app.run()
            events = list(app.events)
    joined = [e for e in events if e.kind == "board_adopted"]
    assert len(joined) == 1 and joined[0].extra.get("in_progress"), [e.kind for e in events]
    want = Position.from_counts({int(p): n for p, n in frames["light"].items()},
                                {25 - int(p): n for p, n in frames["dark"].items()})
    assert joined[0].after.layout_key() == want.layout_key()  # type: ignore[attr-defined]
    assert not [e for e in events if e.kind == "illegal_play"]


def test_a_hand_vision_misses_on_one_frame_is_not_learnt_as_the_board(tmp_path: Path) -> None:
    """The board is learnt only from a picture that held still since the frame before: a set-up
    frame with a hand the reader did not flag, then the clear board, is learnt from the clear board."""
    cfg = parse_config(corners_config(tmp_path), str(tmp_path / "t.toml"))
    from tavli_pi.sim.scene import HandSpec

    hand = scene_from_position(START, hand=HandSpec(u=0.97, v=0.9, size=0.1, from_side="right"))
    cam = SimCamera([(hand, 1), (scene_from_position(START), 3)], fps=10.0)
    with TableApp(cfg, camera=cam, pin_factory=MockFactory(), record=False) as app:
        app.run()
        assert any(w.startswith("calibrated on frame 2") for w in app.wired), app.wired


class _Stop(Exception):
    """Ends a run right after a chosen frame's commit (as a kill there would)."""


def test_a_run_stopped_after_the_joined_board_is_learnt_resumes_with_that_board(tmp_path: Path) -> None:
    """The board learnt from a joined game is committed with the adoption (the calibration and the
    frame it was learnt on, in the same transaction): a run ended right after that commit resumes
    reading with the learnt board and logs exactly what an unbroken run logs."""
    from tavli_pi.record.store import MatchLog
    from tavli_pi.referee.events import to_dict
    from tavli_pi.rules.position import Side
    from tavli_pi.sim.script import ScriptWriter
    from tavli_pi.sim.table import scenes_of

    midgame = Position.from_counts({24: 1, 16: 1, 13: 3, 8: 3, 7: 2, 6: 3, 5: 2},
                                   {24: 2, 13: 4, 8: 2, 7: 2, 6: 3, 4: 2})
    w = ScriptWriter()
    w.position = midgame.with_turn(Side.BLACK)
    w._add(1, hand=True)
    w._add(14)
    w.play(w.roll((4, 2)))
    w.play(w.roll((5, 3)))

    def run(folder: Path, stop_after_adoption: bool) -> list[dict[str, object]]:
        folder.mkdir()
        text = corners_config(folder).replace("[table]\n", "[table]\nattended = false\n", 1)
        cfg = parse_config(text, str(folder / "t.toml"))

        def stop(frame: Frame, got: list[object]) -> None:
            if stop_after_adoption and any(getattr(e, "kind", "") == "board_adopted" for e in got):
                raise _Stop

        for attempt in range(2):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                with TableApp(cfg, camera=SimCamera(scenes_of(w.moments), fps=10.0), pin_factory=MockFactory()) as app:
                    if attempt == 1:
                        assert app._calibration is not None and app._calibration.source == "position"
                    try:
                        app.run(on_frame=stop if attempt == 0 else None)
                    except _Stop:
                        continue
            break
        with MatchLog.open(cfg.record.log, readonly=True) as log:
            assert json.loads(log.meta(CALIBRATION_KEY) or "{}").get("source") == "position"
            return [to_dict(e.event) for e in log.events()]

    whole = run(tmp_path / "whole", False)
    resumed = run(tmp_path / "resumed", True)
    assert [e["kind"] for e in whole].count("play_accepted") == 2
    assert resumed == whole


def test_a_smear_of_the_boards_print_seen_tumbling_does_not_hide_the_opening_roll(tmp_path: Path) -> None:
    """A recording of a low-contrast board at 640x360 (real-like table 5: a navy board with white and
    grey pearl checkers, its field found in the picture): a mark of the board's print is read as a die
    "tumbling" in every frame, though nothing moves. Set-up ends by the opening roll -- read as the
    start since stop 16's lighting; read otherwise before, the opening roll thrown after the question
    answered it (two dice lying still, one in each half) -- and the game goes on; before, the smear counted as dice on the board, so no set-up frame was
    clear of dice to be asked about, and it stood beside the opening roll as a die in flight, so the
    roll was never seen and set-up never ended."""
    from tavli_pi.sim.datasets import reallike_game_tables
    from tavli_pi.sim.script import random_game
    from tavli_pi.sim.table import scenes_of

    kw = reallike_game_tables(48, 0)[5]
    assert kw["width"] == 640
    moments = random_game(5, turns=2)[:9]  # set-up, the opening roll (5-3) lying, the play begun
    assert moments[3].note.startswith("opening roll")
    text = (f"[camera]\nsource = 'replay:{tmp_path}'\n[table]\nhome = '{kw['home']}'\nmatch_length = 5\n"
            f"[record]\nlog = '{tmp_path / 'log.sqlite'}'\n")
    cfg = parse_config(text, str(tmp_path / "t.toml"))
    assert not cfg.referee.attended
    seen: list[tuple[bool, bool]] = []  # per set-up reading: a die reported tumbling, the frame still
    orig = SetupWatch.read

    def setup_read(self: SetupWatch, cal: Calibration, frame: Frame) -> object:
        obs = orig(self, cal, frame)
        seen.append((any(d.moving for d in obs.dice), not obs.motion and all(d.moving for d in obs.dice)))
        return obs

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with TableApp(cfg, camera=SimCamera(scenes_of(moments, **kw), fps=10.0, seed=5),
                      pin_factory=MockFactory()) as app:
            app.setup.read = setup_read.__get__(app.setup)  # type: ignore[method-assign]
            app.run()
            kinds = [e.kind for e in app.events]
    # the premise: a smear reported tumbling on still set-up frames that show no die lying
    assert any(t and clear for t, clear in seen), seen
    assert "game_started" in kinds, kinds
    started = next(e for e in app.events if e.kind == "game_started")
    # set-up ends on the opening roll at the latest -- read as the start (stop 16: the checkers'
    # colours under the board's own light, vision/lighting.py) or confirmed when it reads otherwise
    ended = [e for e in app.events if isinstance(e, SetupChecked) and (e.ok or e.extra.get("confirmed"))]
    assert ended and started.at <= 0.65, (kinds, started.at)  # on the opening roll, not after it
    assert "illegal_play" not in kinds, kinds
    # the roll is read; or, where one die is at the edge of legibility (7-8 px at 640x360: a field found
    # a few px otherwise decides whether its pips are read), asked for as dice seen and not read --
    # never lost behind the smear as a die in flight
    asked = [e.reason for e in app.events if isinstance(e, RollNeeded)]
    assert kinds.count("opening_roll") == 1 or (asked and all("too small to read" in r or "sees the dice" in r for r in asked)), (kinds, asked)


def test_a_board_learnt_as_the_start_is_learnt_again_from_the_game_in_progress_it_joins(tmp_path: Path) -> None:
    """Unattended, a set-up board read unsurely is taken as the start and learnt as it; when the referee
    then finds it to be a game in progress (``board_adopted`` with ``in_progress``), the board never was
    the start, and what was learnt from it as the start (its checkers where the start has none taken
    as the empty board) is learnt again from the position joined, on a clear frame of it. A board
    adopted otherwise (the players confirming a board out of step) keeps what set-up learnt."""
    from tavli_pi.app import calibrate
    from tavli_pi.referee.evidence import spot_counts as counts_of
    from tavli_pi.rules.position import Side
    from tavli_pi.vision.reader import BoardReader
    from tavli_pi.vision.setup import learn_board

    midgame = Position.from_counts({24: 1, 16: 1, 13: 3, 8: 3, 7: 2, 6: 3, 5: 2},
                                   {24: 2, 13: 4, 8: 2, 7: 2, 6: 3, 4: 2}).with_turn(Side.BLACK)
    image = render(scene_from_position(midgame)).image
    text = corners_config(tmp_path).replace("[table]\n", "[table]\nattended = false\n", 1)
    cfg = parse_config(text, str(tmp_path / "t.toml"))
    with TableApp(cfg, camera=SimCamera([(scene_from_position(midgame), 1)], fps=10.0), pin_factory=MockFactory(),
                  record=False) as app:
        as_start = learn_board(image, calibrate(app.config, image))
        assert as_start.position == KnownBoard.start()
        app._calibration = as_start
        frame = Frame(image=image, index=7, t=0.7)
        obs = BoardReader(as_start).read(image, 7)
        assert not (obs.hand or obs.motion or obs.dice)
        app.referee._out = []
        app.referee.carry_on_from(midgame, START, "game in progress", "joined", extra={"in_progress": True})
        joined = list(app.referee._out)
        assert [e.kind for e in joined] == ["board_adopted"]
        learnt = app._learn_adopted(joined, frame, obs)
        assert learnt is not None and learnt.source == "position"
        assert learnt.position == KnownBoard.of_counts(*counts_of(midgame, True))
        # read with it, the frame is the position joined
        light, dark = BoardReader(learnt).read(image).best_counts()
        assert (light, dark) == tuple([int(x) for x in c[:24]] for c in counts_of(midgame, True))
        # adopted otherwise: what set-up learnt is kept
        app.referee._out = []
        app.referee.carry_on_from(midgame, START, "board adopted", "adopted")
        adopted = list(app.referee._out)
        assert [e.kind for e in adopted] == ["board_adopted"]
        assert app._learn_adopted(adopted, frame, obs) is None


def test_a_board_joined_again_on_a_frame_with_the_roll_lying_keeps_what_it_learnt_until_a_clear_frame(
        tmp_path: Path) -> None:
    """Unattended, a game joined in progress and learnt from the position joined; a play did not fit it and
    the referee joins the game again (``extra.rejoined``) on a frame with the next roll lying on it: that
    frame cannot be learnt from (the dice would become part of the board). The board learnt at the earlier
    join is kept -- the reader that read the board joined again -- never forgotten for one frame that was
    not clear: forgotten (``Calibration.unlearnt``), a 640 px beech board (held-out seed 8) read a hand on
    every later frame, and with the board in doubt and a hand seen it was never learnt again, nothing more
    was judged (5 plays followed -> 0). The position joined again is learnt on the next clear frame
    between turns once a play fitted it."""
    from tavli_pi.app import calibrate
    from tavli_pi.referee.evidence import spot_counts as counts_of
    from tavli_pi.referee.referee import Phase
    from tavli_pi.rules.position import Side
    from tavli_pi.sim.script import ScriptDie
    from tavli_pi.sim.table import die_spec
    from tavli_pi.vision.reader import BoardReader
    from tavli_pi.vision.setup import learn_board

    first = Position.from_counts({24: 1, 16: 1, 13: 3, 8: 3, 7: 2, 6: 3, 5: 2},
                                 {24: 2, 13: 4, 8: 2, 7: 2, 6: 3, 4: 2}).with_turn(Side.BLACK)
    # Black's 6-5 played 13/7 13/8: the game joined again there, White's roll lying
    again = Position.from_counts({24: 1, 16: 1, 13: 3, 8: 3, 7: 2, 6: 3, 5: 2},
                                 {24: 2, 13: 2, 8: 3, 7: 3, 6: 3, 4: 2}).with_turn(Side.WHITE)
    roll = tuple(die_spec(ScriptDie(v, "right", i)) for i, v in enumerate((4, 2)))
    image = render(scene_from_position(first)).image
    lying = render(scene_from_position(again, dice=roll)).image
    clear = render(scene_from_position(again)).image
    text = corners_config(tmp_path).replace("[table]\n", "[table]\nattended = false\n", 1)
    cfg = parse_config(text, str(tmp_path / "t.toml"))
    with TableApp(cfg, camera=SimCamera([(scene_from_position(first), 1)], fps=10.0), pin_factory=MockFactory(),
                  record=False) as app:
        joined_first = learn_board(image, calibrate(app.config, image), KnownBoard.of_counts(*counts_of(first, True)))
        assert joined_first.learnt
        app._calibration = joined_first
        obs = BoardReader(joined_first).read(lying, 7)
        assert obs.dice and not (obs.hand or obs.motion)
        app.referee._out = []
        app.referee.carry_on_from(again, first, "game in progress", "joined again",
                                  extra={"in_progress": True, "rejoined": True})
        app.referee.board_unsure = True
        rejoined = list(app.referee._out)
        assert [e.kind for e in rejoined] == ["board_adopted"]
        # not learnt from a frame with dice on it, and not forgotten either: read on as learnt
        assert app._learn_adopted(rejoined, Frame(image=lying, index=7, t=0.7), obs) is None
        assert app._calibration is joined_first
        # in doubt (no play has fitted the board joined again yet), nothing is learnt from it
        clear_obs = BoardReader(joined_first).read(clear, 8)
        assert not (clear_obs.hand or clear_obs.motion or clear_obs.dice)
        assert app.referee.phase is Phase.AWAITING_ROLL
        assert app._learn_in_play(Frame(image=clear, index=8, t=0.8), clear_obs) is None
        # a play fitted it: the position joined again is learnt on the next clear frame between turns
        app.referee.board_unsure = False
        app._learn_tried = None
        in_play = app._learn_in_play(Frame(image=clear, index=9, t=0.9), clear_obs)
        assert in_play is not None and in_play[0].kind == "board_learnt"
        assert in_play[1].position == KnownBoard.of_counts(*counts_of(again, True))


#: a game well on (light numbering): White's checkers home and on the start's dark points, Black's on the
#: start's light points -- learnt as the start the light and dark checkers' looks would come out swapped,
#: and set-up refuses it (``learn_board``); from the light player's side both colours count far fewer pips
FAR_ON = Position.from_counts({1: 2, 2: 2, 3: 2, 4: 2, 5: 2, 12: 2, 17: 1, 19: 2},
                              {25 - p: n for p, n in {6: 3, 8: 2, 13: 3, 20: 2, 21: 2, 22: 1, 23: 2}.items()})


def test_an_unattended_board_that_cannot_be_the_start_is_joined_before_the_first_play(tmp_path: Path) -> None:
    """A recording that opens on a game well on, the roll lying, played within a second: the board cannot
    be learnt as the start (its light and dark checkers stand the other way round), and nobody at an
    unattended table confirms it. It is joined at once as the position it reads as, so the first play is
    followed; waiting ``[referee] unattended_wait`` for it, the app lost that play
    (``bench_video.py --from-play 6 --rolled --seed 1``, game 0)."""
    from tavli_pi.rules.position import Side
    from tavli_pi.sim.script import ScriptWriter
    from tavli_pi.sim.table import scenes_of

    w = ScriptWriter()
    w.position = FAR_ON.with_turn(Side.WHITE)
    dice = w._dice(Side.WHITE, (3, 1))
    w._add(1, dice=dice, hand=True)
    w._add(4, dice=dice)  # the roll lies still 0.4 s, under the unattended wait
    w.play(dice)
    w.play(w.roll((5, 2)))
    text = corners_config(tmp_path).replace("[table]\n", "[table]\nattended = false\n", 1)
    cfg = parse_config(text, str(tmp_path / "t.toml"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with TableApp(cfg, camera=SimCamera(scenes_of(w.moments), fps=10.0), pin_factory=MockFactory(),
                      record=False) as app:
            app.run()
            events = list(app.events)
    kinds = [e.kind for e in events]
    joined = [e for e in events if e.kind == "board_adopted"]
    assert len(joined) == 1 and joined[0].after.layout_key() == FAR_ON.layout_key(), kinds  # type: ignore[attr-defined]
    plays = [e for e in events if e.kind == "play_accepted"]
    assert [p.side for p in plays] == [Side.WHITE, Side.BLACK], kinds  # type: ignore[attr-defined]
    assert "illegal_play" not in kinds and "board_out_of_sync" not in kinds


def test_a_board_with_checkers_borne_off_and_others_outside_home_is_no_game_to_join() -> None:
    """A board some checkers of which lie in a tray while others of that side stand outside its home board
    could not stand in a game (bearing off asks all fifteen home): a set-up in progress, its checkers waiting
    in a tray, is never joined at once as a game (``KnownBoard.could_be_played``, which the app's join asks)."""
    from tavli_pi.vision.known import KnownBoard

    def board(position: Position) -> KnownBoard:
        return KnownBoard.of_counts(*spot_counts(position, True))

    assert board(FAR_ON).could_be_played and board(START).could_be_played
    setting_up = Position.from_counts({6: 5, 8: 3}, {6: 5, 8: 3})  # the rest still in the trays
    assert not board(setting_up).could_be_played
    # both bearing off, all of each side's others home; then Black with checkers off and 5 on its 13-point
    assert board(Position.from_counts({6: 4, 5: 3, 1: 2}, {6: 5, 3: 5})).could_be_played
    assert not board(Position.from_counts({6: 4, 5: 3, 1: 2}, {6: 5, 13: 5})).could_be_played
