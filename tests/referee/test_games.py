"""Whole games at the Observation level: no false "illegal", every planted fault caught.

Many random legal games with hands, noise and re-arranged stacks must never
produce an IllegalPlay; planted illegal plays and etiquette faults must be
flagged with the right rule id.
"""

from __future__ import annotations

import random

import pytest

from tavli_pi.referee.events import IllegalPlay, RollVoid
from tavli_pi.referee.inputs import Action
from tavli_pi.referee.referee import Referee
from tavli_pi.referee.settings import RefereeSettings
from tavli_pi.rules.moves import judge, legal_results
from tavli_pi.rules.position import Side

from .games import plant_illegal, play_random_game
from .synth import Noise, Table, die, kinds, nth, roll_dice

NOISES = {
    "certain": Noise(),
    "noisy": Noise(0.6, 0.15, 0.3),
    "hard": Noise(1.2, 0.35, 0.6),
}


@pytest.mark.parametrize("noise", list(NOISES), ids=list(NOISES))
@pytest.mark.parametrize("light_is_white", [True, False], ids=["light=white", "light=black"])
def test_random_legal_games_never_get_an_illegal_call(noise: str, light_is_white: bool) -> None:
    total_turns = wrong = clear = 0
    for g in range(6):
        rng = random.Random(1000 * g + len(noise))
        ref = Referee(RefereeSettings(light_is_white=light_is_white))
        t = Table(ref, rng=random.Random(g), noise=NOISES[noise], light_is_white=light_is_white)
        st = play_random_game(t, rng)
        assert st.illegal_calls == 0, f"false illegal call in game {g}: {st.events[-5:]}"
        assert ref.phase == "setup", f"game {g} did not end: {ref.phase}"  # next game's set-up
        assert "game_over" in kinds(t.events)
        total_turns += st.turns
        wrong += st.wrong_accepts
        clear += st.clear_view
    assert total_turns > 300
    # a legal play is never mistaken for another
    assert wrong == 0


def test_planted_illegal_plays_are_all_flagged_with_the_wrong_points() -> None:
    flagged = planted = 0
    for g in range(4):
        rng = random.Random(g)
        ref = Referee()
        t = Table(ref, rng=random.Random(50 + g), noise=NOISES["noisy"])
        t.setup()
        start = ref.position
        while ref.phase == "opening":
            t.throw(start, (die(rng.randint(1, 6), "right"), die(rng.randint(1, 6), "left")))
            t.show(start, hand=True)
        opening = True
        for turn in range(60):
            if ref.phase not in ("rolled", "awaiting_roll"):
                break
            if not opening:
                side = ref.position.turn
                dice = roll_dice(side, (rng.randint(1, 6), rng.randint(1, 6)))
                t.throw(ref.position, dice)
            else:
                dice = (die(ref.dice[0], "right"), die(ref.dice[1], "left"))
                if ref.position.turn is Side.BLACK:
                    dice = (die(ref.dice[0], "left"), die(ref.dice[1], "right"))
                if ref.dice[0] == ref.dice[1]:
                    break
            opening = False
            before = ref.before
            results = legal_results(before, ref.dice)
            if not results:
                t.move_and_pick_up(before, before, dice)
                continue
            after = rng.choice(results).position
            bad = plant_illegal(before, after, ref.dice, rng) if turn % 3 == 1 else None
            if bad is None:
                ev = t.move_and_pick_up(before, after, dice, extra=12)
                assert "illegal_play" not in kinds(ev)
                continue
            planted += 1
            ev = t.move_and_pick_up(before, bad, dice, extra=12)
            calls = [e for e in ev if isinstance(e, IllegalPlay)]
            assert calls, f"planted illegal play not flagged: {kinds(ev)}"
            flagged += 1
            assert calls[0].rule.startswith("M") and "(E8)" in calls[0].message  # the movement rule broken
            assert calls[0].wrong_points == judge(before, ref.dice, bad).wrong_points
            t.press(Action.CORRECT)
            t.show(bad, hand=True)
            ev = []
            for _ in range(12):
                ev += t.show(after)
                if "illegal_play_resolved" in kinds(ev):
                    break
            assert "illegal_play_resolved" in kinds(ev)
    assert planted >= 20 and flagged == planted


@pytest.mark.parametrize(
    ("fault", "reason", "rule"),
    [("left", "left_half", "E3"), ("cocked", "cocked", "E3"), ("on_checker", "on_checker", "E3"),
     ("premature", "premature", "E6")],
)
def test_planted_etiquette_faults_are_flagged(fault: str, reason: str, rule: str) -> None:
    hits = 0
    for g in range(5):
        rng = random.Random(g)
        ref = Referee()
        t = Table(ref, rng=random.Random(g), noise=NOISES["noisy"])
        t.setup()
        t.throw(ref.position, (die(5, "right"), die(2, "left")))
        dice = (die(5, "right"), die(2, "left"))
        for _ in range(6):
            before = ref.before
            after = rng.choice(legal_results(before, ref.dice)).position
            if fault == "premature" and len(legal_results(before, ref.dice)) > 1 and ref.dice[0] != 0:
                t.show(after, dice=dice, hand=True)
                t.show(after, 2, dice=dice)
                early = roll_dice(before.turn.other, (rng.randint(1, 6), rng.randint(1, 6)))
                if not ref._opening_turn:
                    ev = t.show(after, 2, dice=tuple(dice) + early)
                    voids = [e for e in ev if isinstance(e, RollVoid)]
                    assert voids and voids[0].reason == reason and voids[0].rule == rule
                    hits += 1
                    t.show(after, 2, dice=early)  # the victim picks up; the early dice lie void
                    t.show(after, hand=True)
                else:
                    t.move_and_pick_up(before, after, dice)
            else:
                t.move_and_pick_up(before, after, dice)
            if ref.phase != "awaiting_roll":
                break
            side = ref.position.turn
            good = roll_dice(side, (rng.randint(1, 6), rng.randint(1, 6)))
            if fault in ("left", "cocked", "on_checker"):
                wrong_half = "right" if side is Side.BLACK else "left"
                badd = (good[0], die(good[1].value, wrong_half if fault == "left" else good[1].half,
                                     flat=fault != "cocked", on_checker=fault == "on_checker"))
                ev = t.throw(ref.position, badd)
                assert kinds(ev) == ["roll_void"]
                assert nth(ev, 0, RollVoid).reason == reason and ev[0].rule == rule
                hits += 1
            ev = t.throw(ref.position, good)
            assert kinds(ev)[0] == "roll_accepted"
            dice = good
    assert hits >= 10
