"""Small builders of referee events for the link tests."""

from __future__ import annotations

from typing import Any

from tavli_pi.referee import events as ev
from tavli_pi.rules.position import Position, Side

__all__ = ["state", "START", "AFTER_31"]

START = Position.start(Side.WHITE)
# White plays 3-1 as 8/5 6/5 (White's numbering: points 8 and 6 lose one, 5 gains two)
_pts = list(START.points)
_pts[7] -= 1
_pts[5] -= 1
_pts[4] += 2
AFTER_31 = Position(tuple(_pts), (0, 0), (0, 0), Side.BLACK)


def state(**kw: Any) -> ev.TableState:
    kw.setdefault("phase", "awaiting_roll")
    kw.setdefault("position", START)
    return ev.TableState(**kw)
