"""Events to drive the display in tests (built from the real event types)."""

from __future__ import annotations

from typing import Any

from tavli_pi.referee import events as E
from tavli_pi.rules.moves import apply_play, end_turn, format_play, parse_play
from tavli_pi.rules.position import Position, Side


def state(**kw: object) -> E.TableState:
    base: dict[str, object] = dict(phase="awaiting_roll", position=Position.start(), match_length=3)
    base.update(kw)
    return E.TableState(**base)  # type: ignore[arg-type]


def accepted(at: float = 1.0) -> E.PlayAccepted:
    before = Position.start()
    after_pts = list(before.points)
    after_pts[7] -= 1  # White 8/5 6/5: the classic 3-1
    after_pts[5] -= 1
    after_pts[4] += 2
    after = Position(tuple(after_pts), (0, 0), (0, 0), Side.BLACK)
    st = state(phase="awaiting_roll", position=after, dice=(3, 1), score=(1, 0), last_verdict="Play accepted")
    return E.PlayAccepted(at=at, state=st, side=Side.WHITE, dice=(3, 1), play="8/5 6/5", before=before, after=after)


def illegal(at: float = 2.0) -> E.IllegalPlay:
    st = state(phase="illegal", dice=(6, 5), wrong_points=(13, 18), score=(1, 0), crawford=True,
               last_verdict="Illegal play: 13/7 13/8 was expected near 13/18")
    return E.IllegalPlay(at=at, state=st, rule="M2", side=Side.WHITE, dice=(6, 5), before=Position.start(),
                         observed=None, wrong_points=(13, 18), nearest=("24/13",))


def _play(pos: Position, dice: tuple[int, int], text: str) -> tuple[str, Position]:
    """gnubg notation of ``text`` as the referee writes it, and the position after it (turn kept)."""
    play = parse_play(pos, text, dice)
    return format_play(play), apply_play(pos, play)


def scripted_game(players: tuple[str, str] = ("Anna", "Bora")) -> list[E.Event]:
    """A short game through the real event types: the opening 3-1, a reply, a double taken, a hit.

    Ends with Black's 4-3 lying on the board, White's 13/7* 13/11 the last play
    and the cube on Black's side at 2.
    """
    def st(**kw: Any) -> E.TableState:
        return state(players=players, **kw)

    out: list[E.Event] = []
    p0 = Position.start()
    out.append(E.GameStarted(at=0.0, state=st(phase="opening", position=p0), game_number=1, score=(0, 0),
                             crawford=False))
    out.append(E.OpeningRoll(at=1.0, state=st(phase="rolled", position=p0, dice=(3, 1)), white_die=3, black_die=1,
                             winner=Side.WHITE, rule="E1", message="White starts with 3-1."))
    t1, a1 = _play(p0, (3, 1), "8/5 6/5")
    p1 = end_turn(a1)
    out.append(E.PlayAccepted(at=2.0, state=st(phase="awaiting_roll", position=p1), side=Side.WHITE, dice=(3, 1),
                              play=t1, before=p0, after=a1))
    out.append(E.RollAccepted(at=3.0, state=st(phase="rolled", position=p1, dice=(6, 4)), side=Side.BLACK,
                              dice=(6, 4)))
    t2, a2 = _play(p1, (6, 4), "24/18 13/9")
    p2 = end_turn(a2)
    out.append(E.PlayAccepted(at=4.0, state=st(phase="awaiting_roll", position=p2), side=Side.BLACK, dice=(6, 4),
                              play=t2, before=p1, after=a2))
    out.append(E.CubeOffered(at=5.0, state=st(phase="cube", position=p2), side=Side.WHITE, value=2))
    owned = dict(cube_value=2, cube_owner=Side.BLACK)
    out.append(E.CubeTaken(at=6.0, state=st(phase="awaiting_roll", position=p2, **owned), side=Side.BLACK, value=2))
    out.append(E.RollAccepted(at=7.0, state=st(phase="rolled", position=p2, dice=(6, 2), **owned), side=Side.WHITE,
                              dice=(6, 2)))
    t3, a3 = _play(p2, (6, 2), "13/7* 13/11")
    p3 = end_turn(a3)
    out.append(E.PlayAccepted(at=8.0, state=st(phase="awaiting_roll", position=p3, **owned), side=Side.WHITE,
                              dice=(6, 2), play=t3, before=p2, after=a3))
    out.append(E.RollAccepted(at=9.0, state=st(phase="rolled", position=p3, dice=(4, 3), **owned), side=Side.BLACK,
                              dice=(4, 3), rule="E2", message="Black rolled 4-3."))
    return out


def long_game(turns: int = 36) -> list[E.Event]:
    """``turns`` legal plays from the start (the first legal result of fixed dice): a long move list."""
    from tavli_pi.rules.moves import legal_results

    dice_seq = [(3, 1), (6, 4), (5, 2), (4, 4), (6, 5), (2, 1), (5, 3), (6, 6), (4, 2), (3, 3), (5, 5), (6, 3)]
    pos = Position.start()
    out: list[E.Event] = [E.GameStarted(at=0.0, state=state(phase="opening", position=pos), game_number=2,
                                        score=(1, 0), crawford=False)]
    for i in range(turns):
        dice = dice_seq[i % len(dice_seq)]
        results = legal_results(pos, dice)
        if not results:
            after, text = pos, ""
        else:
            after, text = results[0].position, format_play(results[0].plays[0])
        if after.off[pos.turn] == 15:
            break  # the game is over
        nxt = end_turn(after)
        out.append(E.PlayAccepted(at=float(i + 1), state=state(phase="awaiting_roll", position=nxt), side=pos.turn,
                                  dice=dice, play=text, before=pos, after=after))
        pos = nxt
    return out
