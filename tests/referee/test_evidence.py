"""Rules-constrained reading (referee/evidence.py): the reading that keeps 15 checkers a colour.

Traced real-like game 6 (seed 0, ``bench_reallike.py --only 6 --trace``): a planted illegal play
stood on a 640 px board whose reader missed two lone dark checkers at about 0.5 on every frame.
The per-spot reading then held 13 dark checkers, was no position, and the illegal play was never
called. The reading now keeps 15 and 15 (a checker or two missed go back where the evidence least
minds them) when the play is judged, so the board is read as the position it is; a call still needs
every spot where it differs from the legal plays to be read at ``illegal_confidence`` and the board
to be one play of the mover. Elsewhere (a board watched while no roll is known, set-up) the per-spot
reading stands as it was.
"""

from __future__ import annotations

import dataclasses
import itertools

import numpy as np

from tavli_pi.referee.evidence import EvidenceTable, best_conserving, conserving_counts, read
from tavli_pi.rules.moves import apply_play, legal_results, parse_play
from tavli_pi.rules.position import Position
from tavli_pi.vision.observation import MAX_COUNT, CountEvidence, DieReading, Observation

from .synth import Table, black_threw_4_2, kinds, observe


def _unsure(n: int, p_short: float) -> CountEvidence:
    """A stack of ``n`` the reader gives ``n - 1`` at ``p_short`` and ``n`` at the rest."""
    probs = [1e-6] * (MAX_COUNT + 1)
    probs[n - 1], probs[n] = p_short, 1.0 - p_short
    s = sum(probs)
    return CountEvidence(tuple(p / s for p in probs))


def _short_dark(obs: Observation, spot: int, n: int, p_short: float = 0.55) -> Observation:
    """``obs`` with the dark stack of ``n`` on ``spot`` (light numbering, 0-23) read one short."""
    pts = list(obs.points)
    pts[spot] = dataclasses.replace(pts[spot], dark=_unsure(n, p_short))
    return dataclasses.replace(obs, points=tuple(pts))


def _play_seen_short(t: Table, before: Position, after: Position, dice: tuple[DieReading, ...]) -> list:  # type: ignore[type-arg]
    """Black plays ``after`` with ``dice`` lying; Black's 6-point stack (light point 19) is read
    one short on every frame; the dice are picked up and the board stands for four frames."""
    out = []
    for pos, d, hand in [(before, dice, True), (after, dice, True), (after, dice, False), (after, dice, False),
                         (after, (), True)] + [(after, (), False)] * 4:
        t.index += 1
        obs = observe(pos, dice=d, hand=hand, frame_index=t.index)
        out += t.feed(_short_dark(obs, 18, 5))
    return out


def test_conserving_counts_is_the_best_count_keeping_the_total() -> None:
    rng = np.random.default_rng(0)
    for _ in range(50):
        table = np.log(rng.dirichlet(np.ones(4), size=4))
        brute = max(itertools.product(range(4), repeat=4),
                    key=lambda c: sum(table[i, c[i]] for i in range(4)) if sum(c) == 3 else -np.inf)
        got = conserving_counts(table, 3)
        assert int(got.sum()) == 3
        assert abs(sum(table[i, got[i]] for i in range(4)) - sum(table[i, brute[i]] for i in range(4))) < 1e-9
        assert abs(best_conserving(table, 3) - sum(table[i, got[i]] for i in range(4))) < 1e-9


def test_a_stack_read_one_short_is_read_as_the_position_it_is() -> None:
    before = Position.start()
    obs = _short_dark(observe(before), 18, 5)
    assert read(EvidenceTable([obs, obs]), [before]).free is None  # the per-spot reading: 14 dark
    r = read(EvidenceTable([obs, obs]), [before], conserve=True)
    assert r.free is not None and r.free.layout_key() == before.layout_key()
    assert r.differing == () and r.gap == 0.0



def test_an_illegal_play_is_called_though_a_stack_elsewhere_is_read_one_short() -> None:
    t, before, dice = black_threw_4_2()
    bad = apply_play(before, parse_play(before, "13/9 13/10"))  # a 4 and a 3 for 4-2 (M1)
    assert all(r.position.layout_key() != bad.layout_key() for r in legal_results(before, (4, 2)))
    ev = _play_seen_short(t, before, bad, dice)
    assert "illegal_play" in kinds(ev) and "play_accepted" not in kinds(ev)


def test_a_legal_play_beside_a_stack_read_one_short_is_accepted() -> None:
    t, before, dice = black_threw_4_2()
    good = apply_play(before, parse_play(before, "13/9 13/11"))
    ev = _play_seen_short(t, before, good, dice)
    assert kinds(ev) == ["play_accepted"]


def test_no_call_where_a_missed_checker_could_be_on_a_spot_the_play_changed() -> None:
    """A lone checker read at 0.5 on a spot where the legal and the illegal play differ: the call
    would rest on it, so none is made (the reading there is not sure)."""
    t, before, dice = black_threw_4_2()
    good = apply_play(before, parse_play(before, "13/9 13/11"))
    out = []
    for pos, d, hand in [(before, dice, True), (good, dice, True), (good, dice, False), (good, dice, False),
                         (good, (), True)] + [(good, (), False)] * 6:
        t.index += 1
        obs = observe(pos, dice=d, hand=hand, frame_index=t.index)
        pts = list(obs.points)
        pts[13] = dataclasses.replace(pts[13], dark=_unsure(1, 0.5))  # Black's 11 = light point 14
        out += t.feed(dataclasses.replace(obs, points=tuple(pts)))
    assert "illegal_play" not in kinds(out)
