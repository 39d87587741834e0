"""Match state (S2, S3) and the gnubg Match ID.

A match is played to ``length`` points (0 = a money session, no end). Gammons
always count in a match (S2). Crawford (S3): the game right after a player
first reaches ``length - 1`` is played without the cube; later games use it
again; a 1-point match has no cube at all.

The Match ID follows "A technical description of the Match ID", GNU
Backgammon manual section 11.7
(https://www.gnu.org/software/gnubg/manual/html_node/A-technical-description-of-the-Match-ID.html,
also /usr/share/doc/gnubg/gnubg.html): a 66-bit little-endian key, Base64
encoded in 12 characters. gnubg's player 0 is ``Side.WHITE`` here, player 1
``Side.BLACK``.

gnubg 1.07 also writes a 67th bit that the manual's 66-bit layout does not
list: 0 while the Jacoby rule is on, 1 otherwise. Found by experiment with the
real program (Debian gnubg 1.07): ``gnubg.matchid(cubeinfo, posinfo)`` with
``cubeinfo['jacoby']`` 0 and 1, and ``new session`` after ``set jacoby on``.
So the manual's own example ``QYkqASAAIAAA`` reads back with ``jacoby=True``.
"""

from __future__ import annotations

import base64
import binascii
from dataclasses import dataclass
from enum import IntEnum

from tavli_pi.errors import IllegalActionError, InvalidPositionError, PositionIdError
from tavli_pi.rules.cube import CubeState
from tavli_pi.rules.position import Side
from tavli_pi.rules.scoring import GameValue, Outcome, Resignation
from tavli_pi.rules.settings import Settings

__all__ = [
    "MatchState",
    "GameState",
    "MatchIdInfo",
    "match_id",
    "parse_match_id",
    "Settings",  # re-exported: the contract lists it with the match API
]


@dataclass(frozen=True, slots=True)
class MatchState:
    """Length, score and Crawford flags of a match, between or during games.

    ``score`` is indexed by ``Side``. ``crawford_game`` is True during the
    Crawford game itself; ``post_crawford`` once it has been played.
    ``crawford_rule=False`` plays the match without the Crawford rule.
    Scores past ``length`` are recorded as won (the match is over).

    >>> m = MatchState(5).after_game(Side.WHITE, 4)
    >>> m.score, m.crawford_game, m.cube_allowed
    ((4, 0), True, False)
    """

    length: int = 0
    score: tuple[int, int] = (0, 0)
    crawford_game: bool = False
    post_crawford: bool = False
    crawford_rule: bool = True
    games: int = 0

    def __post_init__(self) -> None:
        if self.length < 0 or min(self.score) < 0 or self.games < 0:
            raise InvalidPositionError(
                f"match length {self.length} and score {self.score} must not be negative (S2)"
            )
        if self.crawford_game and self.post_crawford:
            raise InvalidPositionError(
                "a game cannot be both the Crawford game and post-Crawford (S3)"
            )
        at_n1 = self.length >= 2 and max(self.score) == self.length - 1
        if self.crawford_rule and at_n1 and not (self.crawford_game or self.post_crawford):
            raise InvalidPositionError(
                f"a player is at {self.length - 1} of {self.length}: say whether this is "
                "the Crawford game (crawford_game=True) or later (post_crawford=True) (S3)"
            )
        if self.crawford_game or self.post_crawford:
            if not self.crawford_rule or self.length < 2 or max(self.score) != self.length - 1:
                raise InvalidPositionError(
                    "Crawford and post-Crawford games need the Crawford rule and a "
                    f"player at {self.length - 1} of {self.length} (S3)"
                )

    # -- queries --------------------------------------------------------
    @property
    def is_money(self) -> bool:
        return self.length == 0

    @property
    def is_over(self) -> Side | None:
        """The winner of the match (first to ``length``, S2), or None."""
        if self.length == 0:
            return None
        for side in Side:
            if self.score[side] >= self.length:
                return side
        return None

    @property
    def cube_allowed(self) -> bool:
        """False in a 1-point match and in the Crawford game (S3)."""
        return self.length != 1 and not self.crawford_game

    def away(self, side: Side) -> int:
        """Points ``side`` still needs (0 once it has won; 0 in money play)."""
        if self.length == 0:
            return 0
        return max(0, self.length - self.score[side])

    # -- transitions ------------------------------------------------------
    def after_game(self, winner: Side, points: int) -> MatchState:
        """The match after ``winner`` wins a game worth ``points`` (S2, S3)."""
        if self.is_over is not None:
            raise IllegalActionError(
                f"the match is over ({self.is_over.name.lower()} won {self.score}): "
                "start a new match (S2)"
            )
        if points < 1:
            raise IllegalActionError(f"a game is worth at least 1 point, got {points} (S1)")
        s = list(self.score)
        s[winner] += points
        score = (s[0], s[1])
        crawford_game = False
        post = self.post_crawford or self.crawford_game
        n = self.length
        won = n > 0 and max(score) >= n
        if self.crawford_rule and n >= 2 and not post and not won and max(score) == n - 1:
            # S3: a player has just reached n-1 for the first time.
            crawford_game = True
        return MatchState(
            n,
            score,
            crawford_game,
            post and not won and max(score) == n - 1,
            self.crawford_rule,
            self.games + 1,
        )

    def after(self, outcome: Outcome) -> MatchState:
        """``after_game`` from an ``Outcome``."""
        return self.after_game(outcome.winner, outcome.points)


# -- gnubg Match ID ------------------------------------------------------------


class GameState(IntEnum):
    """Bits 9-11 of the match key (gnubg manual 11.7)."""

    NONE = 0  # no game started
    PLAYING = 1
    OVER = 2
    RESIGNED = 3
    DROPPED = 4  # ended by a passed double


@dataclass(frozen=True, slots=True)
class MatchIdInfo:
    """Everything a gnubg Match ID holds.

    ``on_roll``: the player on roll or who did roll (bit 7, "dice owner").
    ``turn``: the player to decide now (bit 12): the opponent of the doubler
    while a double is offered, of the resigner while a resignation is.
    ``resignation``: the level offered (by ``turn.other``), or None.
    ``dice``: (0, 0) before the roll. ``jacoby``: the Jacoby rule is on
    (gnubg's extra 67th bit, stored inverted).
    """

    cube: CubeState = CubeState()
    on_roll: Side = Side.WHITE
    crawford: bool = False
    state: GameState = GameState.PLAYING
    turn: Side = Side.WHITE
    double_offered: bool = False
    resignation: GameValue | None = None
    dice: tuple[int, int] = (0, 0)
    length: int = 0
    score: tuple[int, int] = (0, 0)
    jacoby: bool = False

    def __post_init__(self) -> None:
        d1, d2 = self.dice
        if not (0 <= d1 <= 6 and 0 <= d2 <= 6) or (d1 == 0) != (d2 == 0):
            raise PositionIdError(f"dice must be both 1-6 or both 0 (not rolled), got {self.dice}")
        if not 0 <= self.length < 2**15 or not all(0 <= s < 2**15 for s in self.score):
            raise PositionIdError("match length and scores must be 0-32767 in a Match ID")

    @classmethod
    def from_state(
        cls,
        match: MatchState,
        cube: CubeState,
        on_roll: Side,
        *,
        dice: tuple[int, int] = (0, 0),
        state: GameState = GameState.PLAYING,
        double_offered: bool = False,
        resignation: Resignation | None = None,
        jacoby: bool = False,
    ) -> MatchIdInfo:
        """Describe a game in progress; ``turn`` follows from the offer pending."""
        turn = on_roll
        if double_offered:
            turn = on_roll.other
        level: GameValue | None = None
        if resignation is not None:
            turn = resignation.by.other
            level = resignation.level
        return cls(
            cube, on_roll, match.crawford_game, state, turn,
            double_offered, level, dice, match.length, match.score, jacoby,
        )

    def match_state(self, *, crawford_rule: bool = True) -> MatchState:
        """The ``MatchState`` this ID describes.

        A Match ID has no post-Crawford flag: a non-Crawford game with a
        player at ``length - 1`` is taken to be post-Crawford.
        """
        n = self.length
        at_n1 = crawford_rule and n >= 2 and max(self.score) == n - 1
        return MatchState(
            n, self.score, self.crawford and at_n1, at_n1 and not self.crawford, crawford_rule
        )

    @property
    def resignation_offer(self) -> Resignation | None:
        if self.resignation is None:
            return None
        return Resignation(self.turn.other, self.resignation)


# (offset, width) of each field in the 66-bit key, bit 1 of the manual = bit 0 here.
_CUBE, _OWNER, _DICE_OWNER, _CRAWFORD = (0, 4), (4, 2), (6, 1), (7, 1)
_STATE, _TURN, _DOUBLE, _RESIGN = (8, 3), (11, 1), (12, 1), (13, 2)
_DIE1, _DIE2, _LENGTH, _SCORE0, _SCORE1 = (15, 3), (18, 3), (21, 15), (36, 15), (51, 15)
_NO_JACOBY = (66, 1)
_CENTRED = 3


def match_id(info: MatchIdInfo) -> str:
    """The 12-character gnubg Match ID of ``info``.

    >>> match_id(MatchIdInfo(CubeState(2, Side.WHITE), Side.BLACK, turn=Side.BLACK,
    ...                      dice=(5, 2), length=9, score=(2, 4)))
    'QYkqASAAIAAE'
    """
    owner = _CENTRED if info.cube.owner is None else int(info.cube.owner)
    fields = (
        (_CUBE, info.cube.value.bit_length() - 1),
        (_OWNER, owner),
        (_DICE_OWNER, int(info.on_roll)),
        (_CRAWFORD, int(info.crawford)),
        (_STATE, int(info.state)),
        (_TURN, int(info.turn)),
        (_DOUBLE, int(info.double_offered)),
        (_RESIGN, 0 if info.resignation is None else int(info.resignation)),
        (_DIE1, info.dice[0]),
        (_DIE2, info.dice[1]),
        (_LENGTH, info.length),
        (_SCORE0, info.score[0]),
        (_SCORE1, info.score[1]),
        (_NO_JACOBY, int(not info.jacoby)),
    )
    key = 0
    for (offset, _width), value in fields:
        key |= value << offset
    return base64.b64encode(key.to_bytes(9, "little")).decode("ascii")


def parse_match_id(s: str) -> MatchIdInfo:
    """Decode a gnubg Match ID; ``PositionIdError`` if it is not one."""
    text = s.strip()
    if len(text) != 12:
        raise PositionIdError(
            f"a gnubg Match ID has 12 characters, got {len(text)} in {s!r}: copy it whole"
        )
    try:
        raw = base64.b64decode(text, validate=True)
    except (binascii.Error, ValueError) as exc:
        raise PositionIdError(f"{s!r} is not Base64 (A-Z a-z 0-9 + /): not a Match ID") from exc
    key = int.from_bytes(raw, "little")
    if key >> 67:
        raise PositionIdError(f"{s!r} sets bits beyond the 67 of a Match ID")

    def get(field: tuple[int, int]) -> int:
        offset, width = field
        return (key >> offset) & ((1 << width) - 1)

    owner_bits = get(_OWNER)
    if owner_bits == 2:
        raise PositionIdError(f"{s!r}: cube owner bits 10 are not used by gnubg")
    state = get(_STATE)
    if state > GameState.DROPPED:
        raise PositionIdError(f"{s!r}: game state {state} is not 0-4")
    dice = (get(_DIE1), get(_DIE2))
    if max(dice) > 6:
        raise PositionIdError(f"{s!r}: dice {dice} are not 0-6")
    resign = get(_RESIGN)
    try:
        return MatchIdInfo(
            cube=CubeState(
                1 << get(_CUBE), None if owner_bits == _CENTRED else Side(owner_bits)
            ),
            on_roll=Side(get(_DICE_OWNER)),
            crawford=bool(get(_CRAWFORD)),
            state=GameState(state),
            turn=Side(get(_TURN)),
            double_offered=bool(get(_DOUBLE)),
            resignation=None if resign == 0 else GameValue(resign),
            dice=dice,
            length=get(_LENGTH),
            score=(get(_SCORE0), get(_SCORE1)),
            jacoby=not get(_NO_JACOBY),
        )
    except InvalidPositionError as exc:
        raise PositionIdError(f"{s!r} is not a valid Match ID: {exc}") from exc
