"""Random legal matches as the referee would log them (tests, benchmarks, crash tests).

Every play comes from :func:`tavli_pi.rules.moves.legal_results`, every cube
action from :class:`~tavli_pi.rules.cube.CubeState` and
:class:`~tavli_pi.rules.match.MatchState`, every game value from
:mod:`tavli_pi.rules.scoring`; only the dice and the players' choices are
random (seeded), so a seed always gives the same event stream.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from tavli_pi.record.header import MatchHeader
from tavli_pi.referee.events import (
    Phase,
    ClockReading,
    CubeOffered,
    CubePassed,
    CubeTaken,
    Event,
    GameOver,
    GameStarted,
    IllegalPlay,
    IllegalPlayResolved,
    MatchOver,
    NoLegalMove,
    OpeningRoll,
    PlayAccepted,
    Resigned,
    ResignationAnswered,
    RollAccepted,
    RollVoid,
    TableState,
)
from tavli_pi.rules.cube import CubeState
from tavli_pi.rules.match import MatchState
from tavli_pi.rules.moves import format_play, legal_results
from tavli_pi.rules.position import Position, Side
from tavli_pi.rules.scoring import GameValue, game_kind, game_winner, points_won
from tavli_pi.rules.settings import Settings

__all__ = ["Choices", "synthetic_match"]


@dataclass(frozen=True, slots=True)
class Choices:
    """How often the simulated players do the rarer things."""

    double: float = 0.04  # per turn, when the cube is available
    take: float = 0.7
    resign: float = 0.004  # per turn
    resign_accept: float = 0.6
    void_roll: float = 0.02
    illegal: float = 0.02  # an illegal play, then corrected (E8 legal-moves)
    clock: float = 0.1
    max_games: int = 12  # money sessions stop here


def synthetic_match(
    seed: int,
    header: MatchHeader | None = None,
    choices: Choices = Choices(),
    *,
    start_at: float = 1_700_000_000.0,
) -> list[Event]:
    """The event stream of one whole random match (or money session)."""
    rng = random.Random(seed)
    h = header or MatchHeader(players=("Alice", "Bob"), match_length=5)
    settings = Settings(jacoby=h.jacoby, crawford=h.crawford, max_cube=h.cube_limit)
    match = MatchState(h.match_length, crawford_rule=h.crawford)
    out: list[Event] = []
    clock = [start_at]
    clocks = [600.0, 600.0]
    game_no = 0

    def now() -> float:
        clock[0] += round(rng.uniform(0.5, 20.0), 3)
        return clock[0]

    while match.is_over is None and (h.match_length or game_no < choices.max_games):
        game_no += 1
        pos = Position.start()
        cube = CubeState()

        def st(phase: str, p: Position, dice: tuple[int, ...] = (), verdict: str = "") -> TableState:
            return TableState(
                phase=Phase(phase), position=p, dice=dice, cube_value=cube.value, cube_owner=cube.owner,
                score=match.score, match_length=h.match_length, crawford=match.crawford_game,
                game_number=game_no, players=h.players, last_verdict=verdict,
                clocks=(clocks[0], clocks[1]),
            )

        out.append(GameStarted(at=now(), state=st("opening", pos), game_number=game_no,
                               score=match.score, crawford=match.crawford_game))
        while True:
            w, b = rng.randint(1, 6), rng.randint(1, 6)
            if w != b:
                break
            out.append(OpeningRoll(at=now(), state=st("opening", pos), rule="E1",
                                   white_die=w, black_die=b, winner=None))
        side = Side.WHITE if w > b else Side.BLACK
        pos = pos.with_turn(side)
        out.append(OpeningRoll(at=now(), state=st("rolled", pos, (w, b)), rule="E1",
                               white_die=w, black_die=b, winner=side))
        dice: tuple[int, int] = (w, b)
        first = True
        ended = False
        while not ended:
            if not first:
                if rng.random() < choices.clock:
                    clocks[side] = max(0.0, clocks[side] - rng.uniform(1, 30))
                    out.append(ClockReading(at=now(), state=st("awaiting_roll", pos), side=side,
                                            remaining=(clocks[0], clocks[1])))
                if rng.random() < choices.resign:
                    level = rng.choice([1, 1, 2, 3])
                    out.append(Resigned(at=now(), state=st("awaiting_roll", pos), rule="S4",
                                        side=side, level=level))
                    if rng.random() < choices.resign_accept:
                        pts = points_won(GameValue(level), cube, settings=settings, match=match)
                        out.append(ResignationAnswered(at=now(), state=st("awaiting_roll", pos),
                                                       rule="S4", side=side.other, accepted=True))
                        match = _game_over(out, now(), pos, match, side.other, pts, "resign")
                        break
                    out.append(ResignationAnswered(at=now(), state=st("awaiting_roll", pos),
                                                   rule="S4", side=side.other, accepted=False))
                if cube.can_double(side, match=match, max_cube=settings.max_cube) \
                        and rng.random() < choices.double:
                    value = cube.value * 2
                    out.append(CubeOffered(at=now(), state=st("cube", pos), rule="C2",
                                           side=side, value=value))
                    if rng.random() < choices.take:
                        cube = cube.doubled(side.other, max_cube=settings.max_cube)
                        out.append(CubeTaken(at=now(), state=st("awaiting_roll", pos), rule="C3",
                                             side=side.other, value=value))
                    else:
                        out.append(CubePassed(at=now(), state=st("cube", pos), rule="C3",
                                              side=side.other, value=cube.value))
                        match = _game_over(out, now(), pos, match, side, cube.value, "pass")
                        break
                if rng.random() < choices.void_roll:
                    out.append(RollVoid(at=now(), state=st("awaiting_roll", pos), rule="E3",
                                        side=side, reason=rng.choice(["cocked", "left_half"])))
                dice = (rng.randint(1, 6), rng.randint(1, 6))
                out.append(RollAccepted(at=now(), state=st("rolled", pos, dice), side=side, dice=dice))
            first = False
            results = legal_results(pos, dice)
            if not results:
                nxt = pos.with_turn(side.other)
                out.append(NoLegalMove(at=now(), state=st("awaiting_roll", nxt), rule="E7",
                                       side=side, dice=dice))
                pos = nxt
                side = side.other
                continue
            chosen = rng.choice(results)
            text = format_play(chosen.plays[0])
            after = chosen.position
            if rng.random() < choices.illegal and len(results) > 1:
                wrong = rng.choice([r for r in results if r is not chosen])
                out.append(IllegalPlay(at=now(), state=st("illegal", pos, dice), rule="M5",
                                       side=side, dice=dice, before=pos, observed=wrong.position,
                                       wrong_points=(), nearest=(text,)))
                out.append(IllegalPlayResolved(at=now(), state=st("rolled", after, dice), rule="E8",
                                               side=side, accepted=False, play=text, after=after))
            winner = game_winner(after)
            nxt = after if winner is not None else after.with_turn(side.other)
            out.append(PlayAccepted(at=now(), state=st("awaiting_roll", nxt), side=side, dice=dice,
                                    play=text, before=pos, after=after))
            pos = nxt
            if winner is not None:
                kind = game_kind(after, winner)
                pts = points_won(kind, cube, settings=settings, match=match)
                match = _game_over(out, now(), pos, match, winner, pts, kind.name.lower())
                ended = True
            side = side.other
    if h.match_length and match.is_over is not None:
        last = out[-1].state
        out.append(MatchOver(at=clock[0] + 1, state=_replace_phase(last, "match_over"),
                             winner=match.is_over, score=match.score))
    return out


def _replace_phase(s: TableState, phase: str) -> TableState:
    return TableState(
        phase=Phase(phase), position=s.position, dice=s.dice, cube_value=s.cube_value,
        cube_owner=s.cube_owner, score=s.score, match_length=s.match_length, crawford=s.crawford,
        game_number=s.game_number, players=s.players, last_verdict=s.last_verdict,
        wrong_points=s.wrong_points, clocks=s.clocks,
    )


def _game_over(out: list[Event], at: float, pos: Position, match: MatchState,
               winner: Side, points: int, result: str) -> MatchState:
    new = match.after_game(winner, points)
    prev = out[-1].state
    state = TableState(
        phase=Phase.GAME_OVER, position=pos, cube_value=prev.cube_value, cube_owner=prev.cube_owner,
        score=new.score, match_length=prev.match_length, crawford=prev.crawford,
        game_number=prev.game_number, players=prev.players, clocks=prev.clocks,
    )
    rule = {"pass": "C3", "resign": "S4"}.get(result, "S1")
    out.append(GameOver(at=at, state=state, rule=rule, winner=winner, points=points,
                        result=result, score=new.score))
    return new
