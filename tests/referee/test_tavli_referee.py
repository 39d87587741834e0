"""The referee in Plakoto, Fevga and the tavli match (RULES-TAVLI.md; E-rules of RULES.md)."""

from __future__ import annotations

import random

import pytest

from tavli_pi.referee.events import (
    ActionRefused,
    GameOver,
    GameStarted,
    IllegalPlay,
    IllegalPlayResolved,
    OpeningRoll,
    PlayAccepted,
    from_dict,
    to_dict,
)
from tavli_pi.referee.inputs import Action
from tavli_pi.referee.referee import Referee
from tavli_pi.referee.settings import RefereeSettings
from tavli_pi.rules.games import legal_ends
from tavli_pi.rules.position import Position, Side
from tavli_pi.rules.tavli_match import TavliMatch
from tavli_pi.rules.tavli_position import TavliPosition, parse_tavli_position
from tavli_pi.rules.tavli_settings import BlockCheck, MatchSettings, TavliSettings, Variant, settings_from_mapping

from .synth import Noise, Table, die, kinds, only, roll_dice
from .tavli_games import move_checker, play_random_tavli_game, tavli_table


def _pos(text: str, variant: Variant) -> TavliPosition:
    return parse_tavli_position(text, variant)


def _stacks(stacks: dict[int, str], turn: Side = Side.WHITE, off: tuple[int, int] = (0, 0)) -> TavliPosition:
    return TavliPosition.from_stacks(stacks, off, turn)


def _end(variant: Variant, pos: TavliPosition, dice: tuple[int, int], moves: str,
         settings: TavliSettings = TavliSettings()) -> TavliPosition:
    for e in legal_ends(variant, pos, dice, settings):
        if e.moves == moves:
            assert isinstance(e.position, TavliPosition)
            return e.position
    raise AssertionError(f"{moves} not among {[e.moves for e in legal_ends(variant, pos, dice)]}")


def _at(variant: Variant, pos: TavliPosition, **kw: object) -> Table:
    t = tavli_table(variant, start=pos, **kw)  # type: ignore[arg-type]
    t.setup(pos)
    assert t.referee.phase == "awaiting_roll", kinds(t.events)
    return t


def _turn(t: Table, before: TavliPosition, values: tuple[int, int], after: TavliPosition) -> list[str]:
    dice = roll_dice(before.turn, values)
    n = len(t.events)
    t.throw(before, dice)
    t.move_and_pick_up(before, after, dice, extra=10)
    return kinds(t.events[n:])


def test_V3_opening_single_dice_not_played_winner_rolls_both() -> None:
    t = tavli_table(Variant.PLAKOTO)
    start = TavliPosition.start(Variant.PLAKOTO)
    t.setup(start)
    assert t.referee.phase == "opening"
    assert any(isinstance(e, GameStarted) and "Plakoto" in e.message for e in t.events)
    t.throw(start, (die(5, "right"), die(2, "left")))
    op = only(t.events, OpeningRoll)
    assert op.winner is Side.WHITE and op.rule == "V3"
    assert t.referee.phase == "awaiting_roll" and t.referee.position.turn is Side.WHITE
    t.show(start, 3, dice=(die(5, "right"), die(2, "left")))  # the single dice still lie: no roll
    assert t.referee.phase == "awaiting_roll"
    t.show(start, dice=(), hand=True)
    t.throw(start, roll_dice(Side.WHITE, (6, 3)))
    assert t.referee.phase == "rolled" and t.referee.dice == (6, 3)


def test_P3_pin_and_P4_release_are_accepted_and_carried_in_the_state() -> None:
    # Black's lone checker on White's 18 (Black's own 7); White enters from its 24
    pos = _stacks({24: "w15", 1: "b14", 18: "b1"})
    t = _at(Variant.PLAKOTO, pos)
    pinned = _end(Variant.PLAKOTO, pos, (6, 1), "24/18* 24/23")
    assert pinned.pinned[17] == -1
    got = _turn(t, pos, (6, 1), pinned)
    assert "play_accepted" in got
    acc = only(t.events, PlayAccepted)
    assert acc.state.position.pinned[17] == -1  # type: ignore[union-attr]
    assert acc.state.variant == "plakoto"
    d = to_dict(acc)
    assert d["state"]["position"]["pinned"][17] == -1 and d["state"]["variant"] == "plakoto"
    back = from_dict(d)
    assert back.state.position == acc.state.position
    # Black cannot move the pinned checker (P4): a Black play, then White releases it
    bpos = t.referee.position
    assert isinstance(bpos, TavliPosition) and bpos.turn is Side.BLACK
    bend = legal_ends(Variant.PLAKOTO, bpos, (2, 1))[0].position
    assert isinstance(bend, TavliPosition) and bend.pinned[17] == -1
    assert "play_accepted" in _turn(t, bpos, (2, 1), bend)
    wpos = t.referee.position
    assert isinstance(wpos, TavliPosition)
    released = next(e.position for e in legal_ends(Variant.PLAKOTO, wpos, (6, 5))
                    if isinstance(e.position, TavliPosition) and e.position.pinned[17] == 0)
    assert isinstance(released, TavliPosition)
    assert "play_accepted" in _turn(t, wpos, (6, 5), released)
    assert t.referee.position.pinned[17] == 0  # type: ignore[union-attr]


def test_P4_moving_a_pinned_checker_is_called_illegal_with_its_rule() -> None:
    pos = _stacks({24: "w14", 18: "b1w1", 1: "b14"}, turn=Side.BLACK)
    t = _at(Variant.PLAKOTO, pos)
    legal = legal_ends(Variant.PLAKOTO, pos, (3, 1))[0].position
    assert isinstance(legal, TavliPosition)
    # Black slides its pinned checker out from under White's (7 -> Black own 4)
    bad = _stacks({24: "w14", 18: "w1", 21: "b1", 1: "b14"}, turn=Side.BLACK)
    got = _turn(t, pos, (3, 1), bad)
    assert "illegal_play" in got, got
    ill = only(t.events, IllegalPlay)
    assert ill.rule == "P4" and "(P4)" in ill.message
    t.show(legal, hand=True)
    t.show(legal, 4)
    res = only(t.events, IllegalPlayResolved)
    assert not res.accepted


@pytest.mark.parametrize("mother,points,over", [
    ("two-points-unless-own-mother", 2, True),
    ("two-points", 2, True),
    ("off", 0, False),
])
def test_P6_pinned_mother_ends_the_game_at_once(mother: str, points: int, over: bool) -> None:
    # Black's mother alone on its 24-point (White's 1); White's own 24-point is empty
    pos = _stacks({7: "w1", 6: "w14", 1: "b1", 20: "b14"})
    settings = settings_from_mapping({"plakoto.mother": mother})
    t = tavli_table(Variant.PLAKOTO, start=pos, settings=settings)
    t.setup(pos)
    # V6: the pin that decides the game ends the play; the 1 is void
    after = _end(Variant.PLAKOTO, pos, (6, 1), "7/1*" if over else "7/1* 6/5", settings)
    got = _turn(t, pos, (6, 1), after)
    if over:
        go = only(t.events, GameOver)
        assert go.rule == "P6" and go.winner is Side.WHITE and go.points == points and go.result == "mother"
        assert "(P6)" in go.message
        assert t.referee.phase == "match_over"
    else:
        assert "game_over" not in got and t.referee.phase == "awaiting_roll"


def test_P6_pinner_with_its_own_mother_free_plays_on() -> None:
    pos = _stacks({7: "w1", 24: "w1", 6: "w13", 1: "b1", 20: "b14"})
    t = _at(Variant.PLAKOTO, pos)
    after = _end(Variant.PLAKOTO, pos, (6, 1), "7/1* 6/5")
    got = _turn(t, pos, (6, 1), after)
    assert "game_over" not in got
    acc = only(t.events, PlayAccepted)
    assert "mother is pinned (P6)" in acc.message


def test_F3_second_checker_before_the_first_is_through_pointed_out_and_corrected() -> None:
    pos = TavliPosition.start(Variant.FEVGA)
    t = _at(Variant.FEVGA, pos)
    legal = _end(Variant.FEVGA, pos, (3, 2), "24/21/19")
    two = move_checker(move_checker(pos, Variant.FEVGA, Side.WHITE, 24, 21),  # type: ignore[arg-type]
                       Variant.FEVGA, Side.WHITE, 24, 22)
    assert two is not None
    got = _turn(t, pos, (3, 2), two)
    assert "illegal_play" in got
    ill = only(t.events, IllegalPlay)
    assert ill.rule == "F3" and "(F3)" in ill.message and "24/21/19" in ill.nearest
    t.show(legal, hand=True)
    t.show(legal, 4)
    res = only(t.events, IllegalPlayResolved)
    assert not res.accepted and res.play == "24/21/19"
    assert t.referee.phase == "awaiting_roll" and t.referee.position.turn is Side.BLACK


def test_F4_all_six_of_the_starting_quarter_is_illegal() -> None:
    pos = _stacks({24: "w10", 23: "w1", 22: "w1", 21: "w1", 20: "w1", 5: "w1", 12: "b15"})
    t = _at(Variant.FEVGA, pos)
    bad = move_checker(move_checker(pos, Variant.FEVGA, Side.WHITE, 24, 19),  # type: ignore[arg-type]
                       Variant.FEVGA, Side.WHITE, 5, 4)
    assert bad is not None
    got = _turn(t, pos, (5, 1), bad)
    assert "illegal_play" in got
    assert only(t.events, IllegalPlay).rule == "F4"


@pytest.mark.parametrize("block", list(BlockCheck))
def test_F5_a_prime_in_front_of_all_opposing_checkers_is_illegal(block: BlockCheck) -> None:
    # White's 20-24 and 1 are Black's 8-13; every Black checker is still on Black's 24
    pos = _stacks({24: "w9", 23: "w1", 22: "w1", 21: "w1", 20: "w1", 2: "w2", 12: "b15"})
    settings = TavliSettings(block_check=block)
    t = tavli_table(Variant.FEVGA, start=pos, settings=settings)
    t.setup(pos)
    bad = move_checker(move_checker(pos, Variant.FEVGA, Side.WHITE, 2, 1),  # type: ignore[arg-type]
                       Variant.FEVGA, Side.WHITE, 24, 22)
    assert bad is not None
    got = _turn(t, pos, (2, 1), bad)
    assert "illegal_play" in got
    assert only(t.events, IllegalPlay).rule == "F5"


def test_V2_no_cube_in_plakoto_or_fevga() -> None:
    for variant in (Variant.PLAKOTO, Variant.FEVGA):
        pos = TavliPosition.start(variant)
        t = _at(variant, pos)
        got = t.press(Action.DOUBLE, Side.WHITE)
        ref = only(got, ActionRefused)
        assert ref.rule == "V2" and "V2" in ref.message
        assert t.referee.phase == "awaiting_roll"


def test_tavli_match_rotates_games_and_the_winner_starts_T2_V3() -> None:
    # a Portes game near its end: White bears off its last checker (T3: no cube, gammon 2)
    m = TavliMatch(MatchSettings(match_length=3))
    start = Position((1,) + (0,) * 22 + (-15,), (0, 0), (14, 0), Side.WHITE)
    ref = Referee(RefereeSettings(), tavli=m, start=start)
    t = Table(ref)
    t.setup(start)
    got = t.press(Action.DOUBLE, Side.WHITE)
    assert only(got, ActionRefused).rule == "V2"  # T3: no cube in the Portes game of a tavli match
    t.throw(start, roll_dice(Side.WHITE, (6, 5)))
    after = Position((0,) * 23 + (-15,), (0, 0), (15, 0), Side.WHITE)
    t.move_and_pick_up(start, after, roll_dice(Side.WHITE, (6, 5)))
    go = only(t.events, GameOver)
    assert go.winner is Side.WHITE and go.points == 2 and go.rule == "T3"
    assert ref.phase == "setup" and ref.state.variant == "plakoto" and ref.state.tavli is not None
    assert ref.state.score == (2, 0) and ref.state.match_length == 3
    plakoto = TavliPosition.start(Variant.PLAKOTO)
    t.setup(plakoto)
    # V3: the winner of the last game starts by rolling both dice, no opening roll
    assert ref.phase == "awaiting_roll" and ref.position.turn is Side.WHITE
    started = [e for e in t.events if isinstance(e, GameStarted)]
    assert started and "Plakoto" in started[-1].message and "V3" in started[-1].message


@pytest.mark.parametrize("variant", [Variant.PLAKOTO, Variant.FEVGA])
def test_random_games_no_illegal_call_on_legal_play(variant: Variant) -> None:
    rng = random.Random(11)
    for g in range(3):
        t = tavli_table(variant, seed=g, noise=Noise(level=0.3, flip=0.02))
        st = play_random_tavli_game(t, variant, rng)
        assert st.illegal_calls == 0 and st.wrong_accepts == 0
        assert st.over is not None, (st.turns, kinds(t.events)[-6:])


@pytest.mark.parametrize("variant", [Variant.PLAKOTO, Variant.FEVGA])
def test_random_games_every_planted_illegal_play_is_caught(variant: Variant) -> None:
    rng = random.Random(5)
    planted = caught = corrected = 0
    rules: set[str] = set()
    for g in range(2):
        t = tavli_table(variant, seed=100 + g)
        st = play_random_tavli_game(t, variant, rng, plant=0.3)
        planted += st.planted
        caught += st.caught
        corrected += st.corrected
        rules |= set(st.caught_rules)
        assert st.illegal_calls == 0
    assert planted >= 10 and caught == planted and corrected == planted
    if variant is Variant.FEVGA:
        assert "F3" in rules


@pytest.mark.parametrize("rule", ["F4", "F5"])
def test_random_block_breaks_are_caught_with_their_rule(rule: str) -> None:
    from .tavli_games import block_scenario

    rng = random.Random(7)
    done = 0
    while done < 5:
        sc = block_scenario(rng, rule)
        if sc is None:
            continue
        pos, values, bad = sc
        t = tavli_table(Variant.FEVGA, start=pos, seed=done, noise=Noise(level=0.3))
        t.setup(pos)
        got = _turn(t, pos, values, bad)
        assert "illegal_play" in got, (str(pos), values, str(bad), got)
        assert only(t.events, IllegalPlay).rule == rule
        done += 1


def test_a_tavli_referee_snapshots_and_resumes_exactly() -> None:
    from tavli_pi.referee import snapshot

    pos = _stacks({24: "w15", 1: "b14", 18: "b1"})
    t = _at(Variant.PLAKOTO, pos)
    after = _end(Variant.PLAKOTO, pos, (6, 1), "24/18* 24/23")
    _turn(t, pos, (6, 1), after)
    ref = t.referee
    back = snapshot.loads(snapshot.dumps(ref))
    assert back.state == ref.state and back.game.variant is Variant.PLAKOTO and back.tavli == ref.tavli
    # from the last logged TableState alone (the log's fallback): the same game and match
    again = Referee.from_state(from_dict(to_dict(only(t.events, PlayAccepted))).state)
    assert again.game.variant is Variant.PLAKOTO and again.tavli == ref.tavli
    assert again.position == ref.position and again.phase == "setup"  # the board is checked first (B3)
    t2 = Table(again)
    t2.setup(ref.position)  # the pin read back from the board as it lies
    assert again.phase == "awaiting_roll" and again.position == ref.position
    assert not any(e.kind == "board_out_of_sync" for e in t2.events)
