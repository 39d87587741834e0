"""The whole app joining a game already in progress (issue 9: a recording that starts mid-game, filmed at
an unattended table). Nobody confirms the board, so the referee must find the position and the camera
must learn the board from it: learnt as the start, the board's checkers were read where the start puts
them, every roll voided as an opening roll in one half, or the game joined on a board wrong at a few
spots and out of step from the first play (``bench_video.py --from-play 6``: 10 of 23 plays followed)."""

from __future__ import annotations

import dataclasses
import json
import sqlite3
import warnings
from pathlib import Path

from gpiozero.pins.mock import MockFactory

from bench.bench_video import midgame
from tavli_pi.app import TableApp, calibrate
from tavli_pi.config import parse_config
from tavli_pi.referee.evidence import spot_counts
from tavli_pi.referee.events import BoardAdopted, BoardLearnt, Event, Phase, RollAccepted
from tavli_pi.rules.position import Position, Side
from tavli_pi.sim.camera import SimCamera
from tavli_pi.sim.datasets import reallike_game_tables
from tavli_pi.sim.render import render
from tavli_pi.sim.scene import scene_from_position
from tavli_pi.sim.script import Moment, random_game
from tavli_pi.sim.table import scenes_of
from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.camera import Frame
from tavli_pi.vision.known import KnownBoard
from tavli_pi.vision.observation import DieReading


def _clip(game: int, hold: int) -> tuple[list[Moment], dict[str, object]]:
    """Real-like table ``game``'s game from the board after its 6th play (as ``bench_video.py --turns 10
    --from-play 6 --hold HOLD``); (the moments, the table)."""
    kw = reallike_game_tables(48, 0)[game]
    return midgame(random_game(game, turns=10), 6, hold), kw


def _run(tmp_path: Path, moments: list[Moment], kw: dict[str, object], seed: int = 3) -> list[Event]:
    """The events the app gives over the clip (sensor noise by ``seed``), unattended, with its log
    ``t.sqlite`` in ``tmp_path``."""
    text = (f"[table]\nhome = '{kw['home']}'\nmatch_length = 5\nattended = false\n"
            f"[record]\nlog = '{tmp_path / 't.sqlite'}'\n")
    cfg = parse_config(text, str(tmp_path / "t.toml"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        cam = SimCamera(scenes_of(moments, **kw), fps=10.0, seed=seed)
        with TableApp(cfg, camera=cam, pin_factory=MockFactory()) as app:
            app.run()
            return list(app.events)


def _known(moment: Moment) -> KnownBoard:
    return KnownBoard.of_counts(*spot_counts(moment.position, True))


def test_a_clip_that_starts_mid_game_is_joined_on_the_board_it_shows_and_the_board_learnt_from_it(
        tmp_path: Path) -> None:
    """Real-like table 1 (wood), read unlearnt 14 light and 19 dark (its trays as holding checkers):
    learnt as the start it still read otherwise at 11 spots, and the board is learnt from the position
    it reads as (vision/learn_consistent.py). The game is joined on the true board, and every play of
    the clip is followed."""
    moments, kw = _clip(1, hold=12)
    events = _run(tmp_path, moments, kw)
    adopted = [e for e in events if isinstance(e, BoardAdopted)]
    assert adopted and adopted[0].after.layout_key() == moments[0].position.layout_key()
    kinds = [e.kind for e in events]
    plays = sum(1 for m in moments if "play_accepted" in m.expect)
    assert kinds.count("play_accepted") == plays, kinds
    assert "board_out_of_sync" not in kinds and "illegal_play" not in kinds
    # the calibration kept in the log (a resumed match reads with it) was learnt from that board
    with sqlite3.connect(tmp_path / "t.sqlite") as db:
        saved = dict(db.execute("SELECT key, value FROM meta").fetchall())
    cal = Calibration.from_dict(json.loads(saved["calibration"]))
    assert cal.position == _known(moments[0])


#: a game in progress on the plain simulated board (as tests/test_app_setup.py's joins)
MIDGAME = Position.from_counts({24: 1, 16: 1, 13: 3, 8: 3, 7: 2, 6: 3, 5: 2},
                               {24: 2, 13: 4, 8: 2, 7: 2, 6: 3, 4: 2}).with_turn(Side.BLACK)


def test_a_board_joined_unlearnt_is_learnt_in_play_and_a_resumed_match_reads_with_it(tmp_path: Path) -> None:
    """A board the referee carries on from unlearnt (the join frame showed no position clearly: a roll
    lying on it, a hand) is learnt from the position in play on a later clear frame between turns, once;
    a ``board_learnt`` event commits what was learnt with that frame, and a match resumed from the log
    reads with it."""
    from tests.test_app_setup import corners_config

    text = corners_config(tmp_path).replace("[table]\n", "[table]\nattended = false\n", 1)
    cfg = parse_config(text, str(tmp_path / "t.toml"))
    image = render(scene_from_position(MIDGAME)).image
    known = KnownBoard.of_counts(*spot_counts(MIDGAME, True))
    with TableApp(cfg, camera=SimCamera([(scene_from_position(MIDGAME), 3)], fps=10.0),
                  pin_factory=MockFactory()) as app:
        app._calibration = calibrate(app.config, image)
        assert not app._calibration.learnt
        app.referee.carry_on_from(MIDGAME, Position.start(), "game in progress", "joined", extra={"in_progress": True})
        app.referee._out = []  # the join was said on a frame that showed no position clearly
        app.run()
        learnt = [e for e in app.events if isinstance(e, BoardLearnt)]
        assert len(learnt) == 1 and learnt[0].position == MIDGAME  # once, though three frames show it
        assert app._calibration.learnt and app._calibration.position == known
        at = app.events.index(learnt[0])
    with sqlite3.connect(tmp_path / "table.sqlite") as db:
        saved = dict(db.execute("SELECT key, value FROM meta").fetchall())
        kinds = [k for (k,) in db.execute("SELECT kind FROM events ORDER BY seq")]
    assert kinds[at] == "board_learnt"
    assert Calibration.from_dict(json.loads(saved["calibration"])).position == known
    # resumed from the log: the learnt board, no second learning
    with TableApp(cfg, camera=SimCamera([(scene_from_position(MIDGAME), 3)], fps=10.0),
                  pin_factory=MockFactory()) as again:
        assert again._calibration is not None and again._calibration.position == known
        again.run()
        assert not any(isinstance(e, BoardLearnt) for e in again.events)


def test_a_board_in_doubt_or_mid_turn_is_not_learnt_in_play(tmp_path: Path) -> None:
    """Not while the joined board is in doubt (``board_unsure``: no checked play has fitted it yet), nor
    during a turn (the referee does not await a roll), nor with a die lying on the frame."""
    from tests.test_app_setup import corners_config

    cfg = parse_config(corners_config(tmp_path), str(tmp_path / "t.toml"))
    image = render(scene_from_position(MIDGAME)).image
    with TableApp(cfg, camera=SimCamera([(scene_from_position(MIDGAME), 1)], fps=10.0),
                  pin_factory=MockFactory(), record=False) as app:
        app._calibration = calibrate(app.config, image)
        app.referee.carry_on_from(MIDGAME, Position.start(), "game in progress", "joined", extra={"in_progress": True})
        frame = Frame(image=image, index=3, t=0.3)
        from tavli_pi.vision.reader import BoardReader

        obs = BoardReader(app._calibration).read(image, 3)
        app.referee.board_unsure = True
        assert app._learn_in_play(frame, obs) is None
        app.referee.board_unsure = False
        app.referee.phase = Phase.ROLLED
        assert app._learn_in_play(frame, obs) is None
        app.referee.phase = Phase.AWAITING_ROLL
        die = DieReading(xy=(600.0, 300.0), value=3, value_confidence=0.9, flat=True, on_checker=False, half="left")
        assert app._learn_in_play(frame, dataclasses.replace(obs, dice=(die,))) is None
        said = app._learn_in_play(frame, obs)  # now it is learnt
        assert said is not None and said[0].kind == "board_learnt" and said[1].learnt


def test_a_clip_joined_with_the_roll_lying_unseen_follows_the_play_made_with_it(tmp_path: Path) -> None:
    """``bench_video.py --size 1280 --turns 10 --from-play 6 --rolled --hold 15 --think 15 --seed 1``
    game 1 (metal, 13 px dice): the clip starts with Black's 6-6 lying, which the board read unlearnt does
    not show (learnt into the board); the game is joined with White guessed on roll. Black plays, and
    White's roll lands in White's half: Black's play is taken as played with a roll unseen (not the
    board lost at Black's next play), and the game goes on in step."""
    from bench.bench_video import thinking

    kw = reallike_game_tables(48, 1)[1]
    moments = thinking(midgame(random_game(1001, turns=10), 6, 15, rolled=True), 15)
    events = _run(tmp_path, moments, kw, seed=1001)
    kinds = [e.kind for e in events]
    assert "board_out_of_sync" not in kinds and "illegal_play" not in kinds, kinds
    first = next(e for e in events if e.kind == "play_accepted")
    assert first.side is Side.BLACK and first.extra.get("roll_unseen") == ["66"]
    plays = sum(1 for m in moments if "play_accepted" in m.expect)
    assert kinds.count("play_accepted") == plays, kinds


def test_lone_checkers_a_start_learnt_board_took_for_bare_board_are_found_at_the_join(tmp_path: Path) -> None:
    """Real-like table 6 (beech, 1280 px) from play 6: three lone dark checkers stand on points the start
    leaves empty. Learnt as the start, the board took them for bare board and read the frame without them
    (and, against a JPEG of its trays, three dark checkers in the tray), and every learning from that
    reading echoed it: the game was joined on a board wrong at four spots. The unlearnt reading sees them,
    so it is taken where the start-learnt board only echoes the start, and of the positions the board
    settles on, the one the unlearnt reading makes likeliest is learnt; the trays, kept exactly, read
    empty on their own frame. The game is joined on the true board."""
    moments, kw = _clip(6, hold=12)
    events = _run_video(tmp_path, moments, kw, seed=6)
    adopted = [e for e in events if isinstance(e, BoardAdopted)]
    assert adopted and adopted[0].after.layout_key() == moments[0].position.layout_key()
    assert "illegal_play" not in [e.kind for e in events]


def _run_video(tmp_path: Path, moments: list[Moment], kw: dict[str, object], seed: int,
               corners: str = "") -> list[Event]:
    """The events the app gives over the clip recorded as an MP4 file (``bench_video.write_video``: each
    frame compressed, as a recording is; sensor noise by ``seed``), replayed unattended; ``corners``: the
    field's corners given (an installed table), else found in the picture."""
    from bench.bench_video import FPS, write_video

    video = tmp_path / "clip.mp4"
    write_video(video, moments, kw, seed, 1)
    given = f"corners = '{corners}'\n" if corners else ""
    text = (f"[camera]\nsource = 'replay:{video}'\nfps = {FPS}\n{given}"
            f"[table]\nhome = '{kw['home']}'\nmatch_length = 5\nattended = false\n"
            f"[record]\nlog = '{tmp_path / 't.sqlite'}'\n")
    cfg = parse_config(text, str(tmp_path / "t.toml"))
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with TableApp(cfg, pin_factory=MockFactory()) as app:
            app.run()
            return list(app.events)


def test_a_printed_mark_read_as_a_die_on_the_join_frame_goes_once_the_roll_is_picked_up(tmp_path: Path) -> None:
    """``bench_video.py --size 1280 --turns 10 --from-play 6 --rolled --hold 15 --think 15 --seed 1`` game 0
    (pinetti, corners given): the clip starts on White's 4-2 lying, and the board's printed gold ring is read
    as a die 1 at 0.92 beside it. Where a die lay on the frame the board was learnt from, the learnt board is
    not known, so the ring was never vetted as the board: every later throw was three dice, and no roll was
    ever read. Once the 4-2 is picked up, the ring's place still looks as learnt: it is the board's print,
    and White's next 4-2 is read."""
    from bench.bench_video import corners_arg, thinking

    kw = reallike_game_tables(48, 1)[0]
    moments = thinking(midgame(random_game(1000, turns=10, plant_illegal=2), 6, 15, rolled=True), 15)[:46]
    assert [d.value for d in moments[43].dice] == [2, 4] and moments[18].dice == ()
    events = _run_video(tmp_path, moments, kw, seed=1000, corners=corners_arg(moments, kw))
    rolls = [e for e in events if isinstance(e, RollAccepted)]
    assert [(e.side, sorted(e.dice)) for e in rolls] == [(Side.WHITE, [2, 4])], [e.kind for e in events]


def test_a_real_broadcast_frame_held_as_a_clip_is_joined_on_its_board_with_its_roll(tmp_path: Path,
                                                                                     real_data: Path) -> None:
    """The WTC 2022 broadcast's frame0 (a game in progress, White's 5-3 lying) held still as an MP4 clip, run
    unattended with the field found in the picture (``bench/bench_real_join.py``): the app joins the game on
    the labelled board and takes the 5-3 as the roll lying, as it must on a real video that starts mid-game."""
    import cv2

    from bench.bench_real_join import join, labelled_board, labelled_roll

    lab = json.loads((real_data / "boards" / "wtc2022" / "labels.json").read_text())["frames"]["frame0.jpg"]
    image = cv2.imread(str(real_data / "boards" / "wtc2022" / "frame0.jpg"))
    got = join(image, lab["home"], 20, 0, tmp_path)
    points, bar, off = labelled_board(lab)
    assert (got.how, got.board, got.bar, got.off) == ("adopted", points, bar, off)
    assert got.roll == labelled_roll(lab) == (3, 5)
