"""A synthetic but well-formed event stream of a whole match, built from events.py types.

Each game is a short bear-off race (valid positions, B1): both sides start with
15 checkers in their home board and each turn bears off two. The stream also
carries a cube take, an illegal play that is corrected, a clear-view request
and clock readings, so every kind of alert the director shows appears.
"""

from __future__ import annotations

from tavli_pi.referee.events import (
    ClearViewNeeded,
    ClockReading,
    CubeOffered,
    CubeTaken,
    Event,
    GameOver,
    GameStarted,
    IllegalPlay,
    IllegalPlayResolved,
    MatchOver,
    OpeningRoll,
    PlayAccepted,
    RollAccepted,
    TableState,
)
from tavli_pi.rules.position import Position, Side

__all__ = ["match_events", "PLAYERS"]

PLAYERS = ("Eleni Papadaki", "Nikos Georgiou")
HOME = {6: 5, 5: 5, 4: 5}


def _bear_two(p: Position, side: Side) -> Position:
    """``side`` bears off two checkers from its highest points."""
    own = {pt: p.count(side, pt) for pt in range(1, 25) if p.count(side, pt)}
    for _ in range(2):
        top = max((pt for pt, n in own.items() if n), default=None)
        if top is None:
            break
        own[top] -= 1
    other = side.other
    theirs = {pt: p.count(other, pt) for pt in range(1, 25) if p.count(other, pt)}
    white, black = (own, theirs) if side is Side.WHITE else (theirs, own)
    return Position.from_counts(white, black, turn=other)


def match_events(match_length: int = 3, t0: float = 1000.0) -> list[Event]:
    """Every event of a match to ``match_length``; White wins each game but the second."""
    out: list[Event] = []
    t = t0
    score = [0, 0]
    clocks = [match_length * 120.0, match_length * 120.0]
    game = 0
    while max(score) < match_length:
        game += 1
        crawford = match_length - 1 in score and game > 1 and _first_reach(out, match_length)
        pos = Position.from_counts(HOME, HOME)
        cube = 1

        def st(phase: str, dice: tuple[int, ...] = (), verdict: str = "", wrong: tuple[int, ...] = ()) -> TableState:
            return TableState(
                phase=phase, position=pos, dice=dice, cube_value=cube, score=(score[0], score[1]),
                match_length=match_length, crawford=crawford, game_number=game, players=PLAYERS,
                last_verdict=verdict, wrong_points=wrong, clocks=(clocks[0], clocks[1]),
            )

        def tick() -> float:
            nonlocal t
            t += 7.5
            return t

        out.append(GameStarted(at=tick(), state=st("opening"), game_number=game, score=(score[0], score[1]),
                               crawford=crawford))
        winner_side = Side.BLACK if game == 2 else Side.WHITE
        first = winner_side
        out.append(OpeningRoll(at=tick(), state=st("rolled", (5, 3) if first is Side.WHITE else (3, 5)),
                               white_die=5 if first is Side.WHITE else 3,
                               black_die=3 if first is Side.WHITE else 5, winner=first, rule="E1"))
        pos = pos.with_turn(first)
        side = first
        turn = 0
        while pos.off[0] < 15 and pos.off[1] < 15:
            turn += 1
            if game == 1 and turn == 3 and not crawford:
                cube = 2
                out.append(CubeOffered(at=tick(), state=st("cube"), side=side, value=2, rule="C2"))
                out.append(CubeTaken(at=tick(), state=st("awaiting_roll"), side=side.other, value=2, rule="C3"))
            out.append(RollAccepted(at=tick(), state=st("rolled", (6, 5)), side=side, dice=(6, 5)))
            before = pos
            after = _bear_two(pos, side)
            if game == 1 and turn == 2:
                out.append(IllegalPlay(at=tick(), state=st("illegal", (6, 5), "illegal", (6, 19)), side=side,
                                       dice=(6, 5), before=before, observed=None, wrong_points=(6, 19),
                                       nearest=("6/off 5/off",), rule="M6", message="checker on the wrong point"))
                out.append(IllegalPlayResolved(at=tick(), state=st("rolled", (6, 5)), side=side, accepted=False,
                                               play="6/off 5/off", after=after, rule="E8"))
            if game == 1 and turn == 4:
                out.append(ClearViewNeeded(at=tick(), state=st("rolled", (6, 5)), reason="hand over the board"))
            pos = after
            out.append(PlayAccepted(at=tick(), state=st("awaiting_roll"), side=side, dice=(6, 5),
                                    play="6/off 5/off", before=before, after=after))
            clocks[side] -= 3.0
            out.append(ClockReading(at=tick(), state=st("awaiting_roll"), side=side,
                                    remaining=(clocks[0], clocks[1])))
            side = side.other
        won = Side.WHITE if pos.off[0] == 15 else Side.BLACK
        score[won] += cube
        out.append(GameOver(at=tick(), state=st("game_over"), winner=won, points=cube, result="single",
                            score=(score[0], score[1]), rule="S1"))
    won = Side.WHITE if score[0] >= match_length else Side.BLACK
    pos = pos.with_turn(Side.WHITE)
    out.append(MatchOver(at=t + 1, state=TableState(
        phase="match_over", position=pos, score=(score[0], score[1]), match_length=match_length,
        game_number=game, players=PLAYERS, clocks=(clocks[0], clocks[1])), winner=won, score=(score[0], score[1]),
        rule="S2"))
    return out


def _first_reach(events: list[Event], n: int) -> bool:
    """True when the game just ended was the one that first took a player to n-1 (S3)."""
    overs = [e for e in events if isinstance(e, GameOver)]
    if not overs:
        return False
    last = overs[-1].score
    before = overs[-2].score if len(overs) > 1 else (0, 0)
    return (n - 1 in last) and (n - 1 not in before) and max(last) < n
