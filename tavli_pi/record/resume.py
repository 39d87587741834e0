"""What ``tavli-pi run`` needs to pick a match up where the log ends.

>>> import tempfile, pathlib
>>> p = pathlib.Path(tempfile.mkdtemp()) / "t.sqlite"
>>> log, info = open_for_resume(p, MatchHeader(players=("Ann", "Bob"), match_length=5))
>>> info.next_seq, info.state is None, info.finished
(1, True, False)
>>> log.close()
"""

from __future__ import annotations

import os
from dataclasses import dataclass

from tavli_pi.record.header import MatchHeader
from tavli_pi.record.store import LoggedEvent, MatchLog, Synchronous
from tavli_pi.referee.events import MatchOver, TableState
from tavli_pi.rules.games import GamePosition
from tavli_pi.rules.position import Position

__all__ = ["ResumeInfo", "BoardCheck", "resume_info", "open_for_resume", "check_board", "header_mismatch"]


@dataclass(frozen=True, slots=True)
class ResumeInfo:
    """The state of a log: where the match stands after its last committed event."""

    header: MatchHeader
    next_seq: int  # the seq the next event will get
    last: LoggedEvent | None  # the last committed event (None: empty log)
    state: TableState | None  # the table after it (None: nothing logged yet)
    finished: bool  # a MatchOver was logged

    @property
    def position(self) -> GamePosition | None:
        """The checkers the board must show to resume (None: set up the start)."""
        return None if self.state is None else self.state.position

    @property
    def empty(self) -> bool:
        return self.last is None


@dataclass(frozen=True, slots=True)
class BoardCheck:
    """How the board seen on resume compares with the logged position."""

    ok: bool
    wrong_points: tuple[int, ...]  # White's numbering 1-24; 0 = bar, 25 = trays
    message: str


def resume_info(log: MatchLog) -> ResumeInfo:
    """Read where the match in ``log`` stands."""
    last = log.last()
    finished = False
    if last is not None:
        finished = isinstance(last.event, MatchOver) or last.event.state.phase == "match_over"
    return ResumeInfo(
        header=log.header,
        next_seq=1 if last is None else last.seq + 1,
        last=last,
        state=None if last is None else last.event.state,
        finished=finished,
    )


def open_for_resume(
    path: str | os.PathLike[str],
    header: MatchHeader | None = None,
    *,
    synchronous: Synchronous = "FULL",
) -> tuple[MatchLog, ResumeInfo]:
    """Open (or create) the log for writing and say where to resume.

    The app keeps the returned log open and appends to it; a StoreError
    (corrupt or foreign file) stops the app before anything is written.
    """
    log = MatchLog.open(path, header, synchronous=synchronous)
    try:
        return log, resume_info(log)
    except BaseException:
        log.close()
        raise


def check_board(expected: Position, seen: Position) -> BoardCheck:
    """Compare the board the camera sees with the logged position (checkers only).

    >>> check_board(Position.start(), Position.start()).ok
    True
    """
    wrong: list[int] = [i + 1 for i in range(24) if expected.points[i] != seen.points[i]]
    if expected.bar != seen.bar:
        wrong.insert(0, 0)
    if expected.off != seen.off:
        wrong.append(25)
    if not wrong:
        return BoardCheck(True, (), "the board matches the log: resume")
    where = ", ".join("bar" if w == 0 else "trays" if w == 25 else str(w) for w in wrong)
    return BoardCheck(False, tuple(wrong),
                      f"the board differs from the logged position at {where}: "
                      "set those points as the log shows, then resume")


#: what makes two headers the same match (names, length and the rules that change the score)
_IDENTITY = ("players", "match_length", "crawford", "jacoby", "beavers", "cube_limit", "game", "rules")


def _describe(h: MatchHeader) -> str:
    length = "a money session" if h.match_length == 0 else f"a {h.match_length}-point match"
    if h.game != "portes":
        return f"{h.players[0]} v {h.players[1]}, {length} of {h.game} ({h.rules})"
    rules = [name for name in ("crawford", "jacoby", "beavers") if getattr(h, name)]
    return (f"{h.players[0]} v {h.players[1]}, {length}"
            + (f" ({', '.join(rules)}, cube to {h.cube_limit})" if rules else f" (cube to {h.cube_limit})"))


def header_mismatch(logged: MatchHeader, configured: MatchHeader) -> str | None:
    """Why a log cannot be resumed under this config, naming both matches; None when they agree.

    >>> a = MatchHeader(players=("Ann", "Bob"), match_length=5)
    >>> header_mismatch(a, a) is None
    True
    >>> print(header_mismatch(a, MatchHeader(players=("Cy", "Di"), match_length=3)))
    the log holds Ann v Bob, a 5-point match (crawford, cube to 64); the config says Cy v Di, a 3-point match (crawford, cube to 64)
    """
    if all(getattr(logged, k) == getattr(configured, k) for k in _IDENTITY):
        return None
    return f"the log holds {_describe(logged)}; the config says {_describe(configured)}"
