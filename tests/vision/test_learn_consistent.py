"""A board learnt from the position it reads as (vision/learn_consistent.py): a game in progress nobody
tells the referee the position of."""

from __future__ import annotations

import dataclasses

import pytest

from tavli_pi.errors import CalibrationError
from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.known import CHECKERS, KnownBoard
from tavli_pi.vision.learn_consistent import learn_as_read, learn_checked, learn_consistent, read_as
from tavli_pi.vision.observation import CountEvidence, SpotEvidence
from tavli_pi.vision.reader import BoardReader
from tavli_pi.vision.refine import refine
from tavli_pi.vision.setup import learn_board, setup_agreement
from tests.vision.test_known import _midgame_table


def _reading(index: int) -> tuple[KnownBoard, object, Calibration, object]:
    """(the position, its frame, the calibration refined on it, the frame read unlearnt) of real-like
    table ``index`` at a random position of a game in progress."""
    known, mid, _ = _midgame_table(index)
    cal = refine(Calibration(mid.truth.corners, home=mid.truth.home), mid.image)  # type: ignore[attr-defined]
    return known, mid, cal, BoardReader(cal).read(mid.image)  # type: ignore[attr-defined]


def test_a_whole_reading_is_the_position_it_reads_as() -> None:
    known, _, _, obs = _reading(0)
    assert not setup_agreement(obs, known).differences  # type: ignore[arg-type]
    assert read_as(obs) == known  # type: ignore[arg-type]


def test_a_reading_short_of_a_checker_is_made_whole_where_a_spot_gives_up_least() -> None:
    """The 24-point's light stack read one short, its evidence for one more nearly as strong: balanced,
    the checker goes back there, not onto a point whose reading is sure."""
    known, _, _, obs = _reading(0)
    i = next(i for i in range(24) if known.light[i] >= 2)
    n = known.light[i]
    probs = [0.0] * len(obs.points[i].light.probs)  # type: ignore[attr-defined]
    probs[n - 1], probs[n] = 0.55, 0.45
    short = dataclasses.replace(obs, points=tuple(  # type: ignore[call-overload]
        SpotEvidence(CountEvidence(tuple(probs)), p.dark) if j == i else p
        for j, p in enumerate(obs.points)))  # type: ignore[attr-defined]
    assert read_as(short) is None  # 14 light: not whole
    whole = read_as(short, balance=True)
    assert whole == known and sum(whole.light) == CHECKERS


@pytest.mark.parametrize("index", [0, 3])
def test_the_board_is_learnt_from_the_position_it_reads_back_as(index: int) -> None:
    """Table 0 read right unlearnt: learnt from its reading at once. Table 3 (1280 px) read unlearnt with
    a checker misplaced: learnt from that, the board reads the frame back right, and learnt again from
    the read-back it reads it as it was learnt from."""
    known, mid, cal, obs = _reading(index)
    first = read_as(obs, balance=True)  # type: ignore[arg-type]
    assert first is not None and (first == known) == (index == 0)
    found = learn_consistent(mid.image, cal, first)  # type: ignore[attr-defined]
    assert found is not None
    learnt, read_back = found
    assert learnt.position == known
    assert read_as(read_back) == known


def test_no_position_is_found_from_a_guess_nothing_learnt_from_it_reads_as() -> None:
    """A position the frame is far from (the start, for a game in progress): the board cannot be learnt
    from it, or what is learnt reads otherwise, and no learning settles in one step: None."""
    known, mid, cal, _ = _reading(0)
    assert learn_consistent(mid.image, cal, KnownBoard.start(), steps=1) is None  # type: ignore[attr-defined]


def test_a_position_wrong_at_a_spot_is_not_learnt_where_the_learnt_board_reads_the_frame_otherwise() -> None:
    """A position with one checker moved to the next empty point is within ``KNOWN_MISFIT`` of the frame
    (a checker misplaced by the referee's join): learnt from it, the board reads the frame back as it
    is, so it is not learnt from it (the joined board is learnt later, once a play fits it); from the
    true position it is. Nor from a frame with a die on it."""
    known, mid, cal, obs = _reading(0)
    light = list(known.light)
    i = next(i for i in range(1, 23) if light[i] >= 2 and not light[i + 1] and not known.dark[i + 1])
    light[i], light[i + 1] = light[i] - 1, 1
    wrong = KnownBoard(tuple(light), known.dark)
    assert len(setup_agreement(obs, wrong).differences) == 2  # type: ignore[arg-type]
    assert learn_checked(mid.image, cal, wrong, obs) is None  # type: ignore[arg-type,attr-defined]
    learnt = learn_checked(mid.image, cal, known, obs)  # type: ignore[arg-type,attr-defined]
    assert learnt is not None and learnt.position == known
    _, _, _, with_die = _reading(3)
    assert with_die.dice  # type: ignore[attr-defined]
    assert learn_checked(mid.image, cal, known, dataclasses.replace(obs, dice=with_die.dice)) is None  # type: ignore[arg-type,attr-defined]


def test_a_stream_knows_no_board_where_the_roll_in_play_lay_when_the_board_was_learnt() -> None:
    """Where a die lay on the frame the board was learnt from, the learnt board shows the die. A photo
    vets dice there as with no learnt board; so does a stream when they were the roll in play
    (``Calibration.roll_lying``: a clip that starts on a roll lying, its roll must not vanish into the
    board). Otherwise a stream keeps them in the board: a "die" read on a clear set-up frame was as often
    the board's lettering (the tournament board's printed name, a die showing 1 on every frame, and no
    roll ever taken), and the roll flag survives the calibration file (a resumed match)."""
    known, mid, cal, _ = _reading(0)
    die = ((640.0, 360.0, 12.0),)
    learnt = dataclasses.replace(learn_board(mid.image, cal, known, dice=()), setup_dice=die)  # type: ignore[attr-defined]
    assert BoardReader(learnt)._unknown_dice == ()
    assert BoardReader(learnt, still_photo=True)._unknown_dice == die
    rolled = learnt.with_(roll_lying=True)
    assert BoardReader(rolled)._unknown_dice == die
    assert Calibration.from_dict(rolled.to_dict()).roll_lying and not rolled.unlearnt().roll_lying


def _reading_zero_at(obs: object, i: int) -> object:
    """``obs`` with point ``i`` read bare, surely."""
    bare = CountEvidence(tuple(1.0 if n == 0 else 0.0 for n in range(len(obs.points[i].light.probs))))  # type: ignore[attr-defined]
    return dataclasses.replace(obs, points=tuple(  # type: ignore[call-overload]
        SpotEvidence(bare, bare) if j == i else p for j, p in enumerate(obs.points)))  # type: ignore[attr-defined]


def test_where_a_board_learnt_as_the_start_echoes_it_the_unlearnt_reading_is_taken() -> None:
    """A board learnt as the start from a game in progress learnt a lone checker on a point the start
    leaves empty as bare board, and reads it bare: an echo of what it was taught, no evidence. The
    unlearnt reading of the same frame, which sees the checker, is taken there; a point the learnt board
    reads otherwise than the start keeps its own reading."""
    known, _, cal, obs = _reading(0)
    start = KnownBoard.start()
    i = next(i for i in range(24) if known.light[i] + known.dark[i] == 1 and not start.light[i] and not start.dark[i])
    echoed = _reading_zero_at(obs, i)
    taught = cal.with_(position=start)
    assert read_as(echoed) is None  # a checker short: not whole
    assert read_as(echoed, hidden_by=taught, unlearnt=obs) == known  # type: ignore[arg-type]
    # where the unlearnt reading is the one that echoes nothing, the learnt board's own reading stands
    assert read_as(obs, hidden_by=taught, unlearnt=echoed) == known  # type: ignore[arg-type]


def test_of_the_positions_a_board_settles_on_the_one_the_unlearnt_reading_makes_likeliest_is_learnt() -> None:
    """Table 14 of the mid-game set, learnt as the start: its read-back settles on no position, or on a
    wrong one it reads back more surely than the truth (``bench/probe_join_guesses.py``; a wrong fixed point
    until stop 62, none since stop 63's bare bases boxed over two slots and band edges). The unlearnt
    reading, taught nothing, settles on the truth, and makes it far likelier: the truth is learnt. (Table 9
    was the example until stop 50: learnt as the start, its light checkers' places show darker checkers
    than its dark ones', and ``learn_board`` now refuses it -- the next test.)"""
    known, mid, cal, obs = _reading(14)
    start = learn_board(mid.image, cal)  # type: ignore[attr-defined]
    back = BoardReader(start.with_(taught_ring=None)).read(mid.image)  # type: ignore[attr-defined]
    assert read_as(back, balance=True) != known  # type: ignore[arg-type]  # the start-learnt reading is wrong
    wrong = learn_consistent(mid.image, cal, read_as(back, balance=True))  # type: ignore[arg-type, attr-defined]
    assert wrong is None or wrong[0].position != known  # the start-learnt reading's fixed point, if any
    alone = learn_as_read(mid.image, cal, back)  # type: ignore[attr-defined]
    assert (alone is None) == (wrong is None)
    assert alone is None or wrong is None or alone[0].position == wrong[0].position
    learnt = learn_as_read(mid.image, cal, back, hidden_by=start, unlearnt=obs)  # type: ignore[arg-type, attr-defined]
    assert learnt is not None and learnt[0].position == known


def test_a_game_in_progress_learnt_as_the_start_with_its_colours_swapped_is_refused_and_learnt_as_read() -> None:
    """Table 9 of the mid-game set: where the start puts the light checkers this frame shows darker ones than
    where it puts the dark, so it is no view of the start (``learn_board`` refuses it: learnt, its colours
    were swapped); the unlearnt reading settles on the truth, and the truth is learnt."""
    known, mid, cal, obs = _reading(9)
    with pytest.raises(CalibrationError, match="darker ones than where it puts the dark"):
        learn_board(mid.image, cal)  # type: ignore[attr-defined]
    learnt = learn_as_read(mid.image, cal, obs)  # type: ignore[arg-type, attr-defined]
    assert learnt is not None and learnt[0].position == known


def test_a_reading_short_of_a_checker_is_never_made_whole_in_the_trays_of_a_side_outside_home() -> None:
    """A dark stack read one short, and the dark tray's weak evidence (an insert, its lining) nearly as
    ready to hold one: balanced, the checker goes back on the stack, not into the tray -- no side bears
    off while it has checkers outside its home board (a board no game reaches: ``bench_video.py --seed 7
    --from-play 4``, game 12, was learnt with a dark checker borne off)."""
    from tavli_pi.rules.position import Position
    from tests.referee.synth import observe

    mid = Position.from_counts({24: 1, 16: 1, 13: 3, 8: 3, 7: 2, 6: 3, 5: 2}, {24: 2, 13: 4, 8: 2, 7: 2, 6: 3, 4: 2})
    obs = observe(mid)
    known = read_as(obs)  # type: ignore[arg-type]
    assert known is not None and known.off == (0, 0) and known.dark[11] == 4 and not known.light[11]
    short = [0.0] * len(obs.points[11].dark.probs)
    short[3], short[4] = 0.6, 0.4
    tray = [0.0] * len(obs.off.dark.probs)
    tray[0], tray[1] = 0.55, 0.45
    read = dataclasses.replace(
        obs, points=tuple(SpotEvidence(p.light, CountEvidence(tuple(short))) if j == 11 else p
                          for j, p in enumerate(obs.points)),
        off=SpotEvidence(obs.off.light, CountEvidence(tuple(tray))))
    assert read_as(read) is None  # 14 dark: not whole  # type: ignore[arg-type]
    whole = read_as(read, balance=True, playable=True)  # type: ignore[arg-type]
    assert whole == known and whole.could_be_played
