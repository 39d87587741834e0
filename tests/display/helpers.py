"""Events to drive the display in tests (built from the real event types)."""

from __future__ import annotations

from tavli_pi.referee import events as E
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
