"""From events to games: corrections, rejected resignations, passes, accepted illegal plays."""

from __future__ import annotations

from tavli_pi.record.game_record import CubeAction, Resignation, Turn, build_record
from tavli_pi.record.header import MatchHeader
from tavli_pi.record.sgf import format_sgf, sgf_point
from tavli_pi.referee.events import (
    Event,
    GameOver,
    GameStarted,
    IllegalPlay,
    IllegalPlayResolved,
    NoLegalMove,
    PlayAccepted,
    Resigned,
    ResignationAnswered,
    RollVoid,
    TableState,
)
from tavli_pi.rules.moves import Move, apply_play, legal_results, parse_play
from tavli_pi.rules.position import Position, Side

W, B = Side.WHITE, Side.BLACK
H = MatchHeader(players=("Ann", "Bob"), match_length=3)


def _st(pos: Position, phase: str = "rolled") -> TableState:
    return TableState(phase=phase, position=pos, match_length=3, players=H.players)


def _events() -> list[Event]:
    p0 = Position.start(W)
    good = parse_play(p0, "8/5 6/5")
    after = apply_play(p0, good)
    wrong = apply_play(p0, parse_play(p0, "13/9"))  # a 4 played with 3-1: illegal (M1)
    p1 = after.with_turn(B)
    illegal_text = "13/7 13/11"  # with 2-1: illegal, the opponent lets it stand (E8)
    illegal_after = apply_play(p1, parse_play(p1, illegal_text))
    return [
        GameStarted(at=1, state=_st(p0, "opening"), game_number=1, score=(0, 0), crawford=False),
        IllegalPlay(at=2, state=_st(p0, "illegal"), side=W, dice=(3, 1), before=p0, observed=wrong,
                    wrong_points=(9, 13), nearest=("8/5 6/5",)),
        IllegalPlayResolved(at=3, state=_st(after), side=W, accepted=False, play="8/5 6/5", after=after),
        PlayAccepted(at=4, state=_st(p1), side=W, dice=(3, 1), play="8/5 6/5", before=p0, after=after),
        RollVoid(at=5, state=_st(p1), side=B, reason="cocked"),
        PlayAccepted(at=6, state=_st(illegal_after), side=B, dice=(2, 1), play=illegal_text,
                     before=p1, after=illegal_after),
        Resigned(at=7, state=_st(illegal_after), side=W, level=1),
        ResignationAnswered(at=8, state=_st(illegal_after), side=B, accepted=False),
        NoLegalMove(at=9, state=_st(illegal_after.with_turn(B)), side=W, dice=(6, 6)),
        Resigned(at=10, state=_st(illegal_after), side=W, level=2),
        ResignationAnswered(at=11, state=_st(illegal_after), side=B, accepted=True),
        GameOver(at=12, state=_st(illegal_after, "game_over"), winner=B, points=2, result="resign",
                 score=(0, 2)),
    ]


def test_builder_keeps_what_the_formats_say() -> None:
    rec = build_record(H, _events())
    (g,) = rec.games
    a = g.actions
    assert len(a) == 4
    # the corrected play is recorded once, with per-die moves
    assert isinstance(a[0], Turn) and a[0].play == (Move(8, 5), Move(6, 5)) and a[0].legal
    # the accepted illegal play is kept as played and flagged
    assert isinstance(a[1], Turn) and not a[1].legal
    assert a[1].play == (Move(13, 7), Move(13, 11))
    # no legal move: the dice with an empty play, from the mover's position
    assert isinstance(a[2], Turn) and a[2].play == () and a[2].before is not None
    assert a[2].before.turn is W
    # only the accepted resignation remains
    assert a[3] == Resignation(W, 2)
    assert (g.winner, g.points, g.result, rec.score) == (B, 2, "resign", (0, 2))
    sgf = format_sgf(rec)
    assert "RE[B+2R]" in sgf and ";W[66]" in sgf and ";W[31hefe]" in sgf


def test_legal_play_uses_the_canonical_play_of_its_result() -> None:
    pos = Position.start(B)
    for r in legal_results(pos, (6, 4))[:5]:
        text = "garbage"  # the notation is not needed when the positions match a legal result
        ev = [PlayAccepted(at=1, state=_st(r.position), side=B, dice=(6, 4), play=text,
                           before=pos, after=r.position)]
        (g,) = build_record(H, ev).games
        (t,) = g.actions
        assert isinstance(t, Turn) and t.play == r.plays[0] and t.legal


def test_sgf_point_letters_follow_gnubg() -> None:
    # White (gnubg player 0): a = own 1-point; Black (player 1): x - (p - 1); y bar, z off
    assert [sgf_point(W, p) for p in (1, 24, 25, 0)] == ["a", "x", "y", "z"]
    assert [sgf_point(B, p) for p in (1, 24, 13, 6)] == ["x", "a", "l", "s"]


def test_cube_actions_in_order() -> None:
    from tavli_pi.referee.events import CubeOffered, CubePassed
    p = Position.start(W)
    ev: list[Event] = [
        CubeOffered(at=1, state=_st(p, "cube"), side=W, value=2),
        CubePassed(at=2, state=_st(p, "cube"), side=B, value=1),
        GameOver(at=3, state=_st(p, "game_over"), winner=W, points=1, result="pass", score=(1, 0)),
    ]
    (g,) = build_record(H, ev).games
    assert g.actions == (CubeAction(W, "double", 2), CubeAction(B, "drop", 2))
    assert "\n;W[double]\n;B[drop])" in format_sgf(build_record(H, ev))


def test_the_referees_shapes_pass_then_accepted_illegal_play() -> None:
    """As tavli_pi.referee emits them: NoLegalMove on the roll, then PlayAccepted("") when the
    dice are picked up; an illegal play let stand carries no notation, only the observed board."""
    p0 = Position.start(W)
    before = p0
    observed = apply_play(p0, parse_play(p0, "13/9 13/9"))  # 4-4 with only 3-1 rolled
    nxt = observed.with_turn(B)
    blocked_before = nxt
    ev: list[Event] = [
        IllegalPlay(at=1, state=_st(before, "illegal"), side=W, dice=(3, 1), before=before,
                    observed=observed, wrong_points=(9, 13), nearest=("8/5 6/5",)),
        IllegalPlayResolved(at=2, state=_st(nxt, "awaiting_roll"), side=W, accepted=True, play="",
                            after=observed),
        NoLegalMove(at=3, state=_st(blocked_before), side=B, dice=(6, 6)),
        PlayAccepted(at=4, state=_st(blocked_before.with_turn(W)), side=B, dice=(6, 6), play="",
                     before=blocked_before, after=blocked_before),
    ]
    (g,) = build_record(H, ev).games
    first = g.actions[0]
    assert isinstance(first, Turn) and not first.legal
    assert sorted((m.src, m.dst) for m in first.play) == [(13, 9), (13, 9)]
    assert len(g.actions) == 2  # NoLegalMove and its PlayAccepted are one turn
    second = g.actions[1]
    assert isinstance(second, Turn) and second.play == ()
    assert second.legal == (not legal_results(blocked_before, (6, 6)))
