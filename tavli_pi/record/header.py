"""The match header: who plays what, where. Stored once in the log, written by every format."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from typing import Any

from tavli_pi.errors import RecordError

__all__ = ["MatchHeader"]


@dataclass(frozen=True, slots=True)
class MatchHeader:
    """What the .mat header lines and the SGF root properties carry.

    ``players`` is indexed by Side (White first). ``match_length`` 0 is a money
    session. ``date`` is ISO ``YYYY-MM-DD``, ``time`` ``HH:MM`` (local time of
    the table). ``crawford`` follows S3, ``jacoby``/``beavers`` C5.
    """

    players: tuple[str, str] = ("White", "Black")
    match_length: int = 0
    event: str = ""
    round: str = ""
    site: str = ""
    date: str = ""
    time: str = ""
    match_id: str = ""
    crawford: bool = True
    jacoby: bool = False
    beavers: bool = False
    cube_limit: int = 64
    #: the game (RULES-TAVLI.md): "portes", or "plakoto" / "fevga" / "tavli" with ``rules`` (their settings,
    #: ``key=value`` joined by "; ") -- a Plakoto/Fevga match is exported as the tavli text record
    game: str = "portes"
    rules: str = ""

    def __post_init__(self) -> None:
        if len(self.players) != 2 or not all(isinstance(p, str) and p.strip() for p in self.players):
            raise RecordError(f"a match header needs two player names, got {self.players!r}")
        if self.match_length < 0:
            raise RecordError(f"match length must be 0 (money) or more, got {self.match_length}")

    def to_dict(self) -> dict[str, Any]:
        d = asdict(self)
        d["players"] = list(self.players)
        return d

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> MatchHeader:
        known = {f.name for f in fields(cls)}
        kw = {k: v for k, v in d.items() if k in known}
        if "players" in kw:
            p = kw["players"]
            kw["players"] = (str(p[0]), str(p[1]))
        return cls(**kw)
