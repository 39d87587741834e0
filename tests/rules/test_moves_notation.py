"""format_play writes plays as gnubg does; parse_play reads both notations.

The reference is the real gnubg 1.07 program (/usr/games/gnubg, through the
same one-process harness as the differential test): for every play its hint
lists, the move text and the resulting Position ID. For each of our results
the text of ``format_play(result.plays[0])`` must be exactly gnubg's text for
the same resulting position.
"""

from __future__ import annotations

from collections import Counter

import pytest

from tavli_pi.errors import InvalidPlayError
from tavli_pi.rules.ids import position_id
from tavli_pi.rules.moves import Move, apply_play, format_play, legal_results, parse_play
from tavli_pi.rules.position import Position, Side
from tests.rules.gnubg_oracle import GNUBG, gnubg_plays, sample_pairs

START = Position.start()
W = Side.WHITE


@pytest.mark.timeout(300)
def test_format_play_matches_gnubg() -> None:
    if not GNUBG.exists():
        pytest.fail(f"{GNUBG} missing: run scripts/setup.sh (apt package gnubg)")
    pairs = sample_pairs(800, seed=99)
    answers = [{pid: text for text, pid in plays}
               for plays in gnubg_plays([(position_id(p), d[0], d[1]) for p, d in pairs], 300)]
    seen: Counter[str] = Counter()
    wrong = []
    for (pos, dice), theirs in zip(pairs, answers):
        for r in legal_results(pos, dice):
            text = format_play(r.plays[0])
            expected = theirs[position_id(r.position)]
            seen["plays"] += 1
            if text != expected:
                wrong.append((position_id(pos), dice, text, expected))
            # gnubg's text reads back to a play reaching the same position
            assert apply_play(pos, parse_play(pos, expected)) == r.position
            assert parse_play(pos, expected, dice) in r.plays
            seen.update(_features(text))
    assert not wrong, f"{len(wrong)} of {seen['plays']} differ from gnubg, first: {wrong[:5]}"
    # the sample really had every notation feature
    for feature in ("merged", "hit_on_the_way", "grouped", "bar", "off", "hit"):
        assert seen[feature] > 0, f"no {feature} play in the sample: {dict(seen)}"


def _features(text: str) -> set[str]:
    """Which notation features a play's text shows."""
    out = set()
    for tok in text.split():
        move = tok.split("(")[0]
        pts = [p.rstrip("*") for p in move.split("/")]
        if len(pts) > 2:  # an intermediate point is written only where it hit
            out.add("hit_on_the_way")
        if pts[0].isdigit() and pts[-1].isdigit() and int(pts[0]) - int(pts[-1]) > 6:
            out.add("merged")  # longer than one die: merged hops
        if "(" in tok:
            out.add("grouped")
        if pts[0] == "bar":
            out.add("bar")
        if pts[-1] == "off":
            out.add("off")
        if "*" in tok:
            out.add("hit")
    return out


# -- hand-written cases --------------------------------------------------------
def test_one_checker_hops_are_merged() -> None:
    assert format_play((Move(13, 10), Move(10, 8))) == "13/8"
    assert format_play((Move(24, 18, True), Move(18, 13))) == "24/18*/13"
    assert format_play((Move(13, 7), Move(7, 5, True))) == "13/5*"
    assert format_play((Move(13, 9), Move(9, 5), Move(5, 1))) == "13/1"


def test_identical_moves_grouped_highest_first() -> None:
    assert format_play((Move(6, 5), Move(8, 5), Move(8, 5), Move(6, 5))) == "8/5(2) 6/5(2)"
    assert format_play((Move(6, 0), Move(6, 0))) == "6/off(2)"
    assert format_play((Move(6, 4), Move(6, 4), Move(4, 2), Move(4, 2))) == "6/2(2)"
    assert format_play((Move(13, 8), Move(13, 11))) == "13/11 13/8"


def test_bar_off_and_first_hit_only() -> None:
    assert format_play((Move(25, 22), Move(6, 0))) == "bar/22 6/off"
    assert format_play((Move(25, 20, True), Move(20, 16))) == "bar/20*/16"
    # two checkers land on the blot's point: the first (in gnubg's order) hits
    assert format_play((Move(6, 5, True), Move(8, 5))) == "8/5* 6/5"
    assert format_play(()) == ""


def test_parse_accepts_both_forms() -> None:
    pos = Position.from_counts({13: 2, 1: 13}, {15: 1, 19: 14})  # Black blot on White's 10
    merged = parse_play(pos, "13/10*/9")
    steps = parse_play(pos, "13/10* 10/9")
    assert steps == (Move(13, 10, True), Move(10, 9))
    assert apply_play(pos, merged) == apply_play(pos, steps)
    assert parse_play(pos, "13/10*/9", (3, 1)) == steps
    assert parse_play(pos, "13/9", (3, 1)) == (Move(13, 12), Move(12, 9))  # the quiet way
    assert parse_play(START, "13/9", (3, 1)) in {(Move(13, 10), Move(10, 9)), (Move(13, 12), Move(12, 9))}
    assert parse_play(START, "8/5(2) 6/3(2)", (3, 3)) == (Move(8, 5), Move(8, 5), Move(6, 3), Move(6, 3))


def test_parse_star_on_every_landing_of_a_hit_point() -> None:
    # gnubg writes "6/5*(2)": the star belongs to the point, the first lands the hit
    pos = Position.from_counts({6: 2, 1: 13}, {20: 1, 12: 14})  # Black blot on White's 5
    assert parse_play(pos, "6/5*(2)") == (Move(6, 5, True), Move(6, 5))


def test_parse_with_dice_rejects_illegal_plays() -> None:
    with pytest.raises(InvalidPlayError, match="not a legal play of 3-1"):
        parse_play(START, "24/20 6/5", (3, 1))
    with pytest.raises(InvalidPlayError, match="no blot"):
        parse_play(START, "13/10*")


# -- the fast paths write what the step-by-step rules write (issue 12) --------------
def _reference_format(play: tuple[Move, ...]) -> str:
    """format_play's rules done literally, one step each (the text before the fast paths)."""
    hit_points = {m.dst for m in play if m.hit}
    chains = [[m.src, m.dst] for m in sorted(play, key=lambda m: (m.src, m.dst), reverse=True)]
    merged = True
    while merged:
        merged = False
        for i, a in enumerate(chains):
            if a[-1] == 0:
                continue
            for j, c in enumerate(chains):
                if j != i and c[0] == a[-1]:
                    a.extend(c[1:])
                    del chains[j]
                    merged = True
                    break
            if merged:
                break
    starred: set[int] = set()
    groups: list[tuple[list[int], list[bool], int]] = []
    for c in chains:
        stars = []
        for p in c[1:]:
            first = p in hit_points and p not in starred
            if first:
                starred.add(p)
            stars.append(first)
        if groups and groups[-1][0] == c:
            prev = groups[-1]
            groups[-1] = (c, [x or y for x, y in zip(prev[1], stars)], prev[2] + 1)
        else:
            groups.append((c, stars, 1))

    def pt(n: int) -> str:
        return "bar" if n == 25 else "off" if n == 0 else str(n)

    out = []
    for c, stars, n in groups:
        text = pt(c[0])
        last = len(c) - 2
        for k, (p, star) in enumerate(zip(c[1:], stars)):
            if star or k == last:
                text += f"/{pt(p)}{'*' if star else ''}"
        out.append(text if n == 1 else f"{text}({n})")
    return " ".join(out)


def test_fast_format_equals_the_reference_on_every_play_in_any_order() -> None:
    import random

    from tavli_pi.rules.moves import canonical_play, canonical_text

    rng = random.Random(12)
    n = 0
    for pos, dice in sample_pairs(1500, seed=2612):
        for r in legal_results(pos, dice):
            assert canonical_play(r) == r.plays[0]
            assert canonical_text(r) == _reference_format(r.plays[0])
            for play in r.plays:
                shuffled = list(play)
                rng.shuffle(shuffled)
                for p in (play, tuple(reversed(play)), tuple(shuffled)):
                    assert format_play(p) == _reference_format(p), p
                    n += 1
    for _ in range(20000):  # any moves at all, as parse_play may build them
        moves = []
        for _ in range(rng.randint(1, 4)):
            s = rng.randint(1, 25)
            d = rng.randint(0, s - 1)
            moves.append(Move(s, d, d > 0 and rng.random() < 0.3))
        assert format_play(tuple(moves)) == _reference_format(tuple(moves)), moves
    assert n > 50000
