"""The referee's cube and resignation handling (C2-C5, S4): offers that wait for an answer.

:class:`Offers` is the part of the :class:`~tavli_pi.referee.referee.Referee`
that takes DOUBLE / TAKE / PASS / BEAVER and RESIGN / ACCEPT_RESIGN /
REJECT_RESIGN, and turns the cube on a tied opening roll when automatic
doubles are on (C5). Its state is the plain :class:`OfferState`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

from tavli_pi.referee import events as ev
from tavli_pi.referee.events import IN_GAME, Phase
from tavli_pi.referee.inputs import Action, PlayerInput
from tavli_pi.rules.cube import CubeState, automatic_double
from tavli_pi.rules.position import Side
from tavli_pi.rules.scoring import GameValue, Resignation, outcome_passed

if TYPE_CHECKING:
    from tavli_pi.referee.game import GameRules
    from tavli_pi.referee.settings import RefereeSettings
    from tavli_pi.rules.games import GamePosition
    from tavli_pi.rules.match import MatchState
    from tavli_pi.rules.tavli_match import TavliMatch

__all__ = ["Offers", "OfferState", "OffersReferee"]


@dataclass(slots=True)
class OfferState:
    """The open offer, if any (plain values: a snapshot can store them)."""

    doubler: Side | None = None  # a double awaits take or pass (phase ``cube``)
    resign: Resignation | None = None  # a resignation awaits an answer (phase ``resign``)
    resume: Phase = Phase.AWAITING_ROLL  # the phase a rejected resignation returns to
    auto_doubles: int = 0  # automatic doubles (C5) in this game so far


class OffersReferee(Protocol):
    """What the offers use of their referee (:class:`~tavli_pi.referee.referee.Referee`)."""

    phase: Phase
    position: GamePosition
    cube: CubeState
    last_verdict: str

    @property
    def settings(self) -> RefereeSettings: ...
    @property
    def game(self) -> GameRules: ...
    @property
    def match(self) -> MatchState: ...
    @property
    def tavli(self) -> TavliMatch | None: ...
    @property
    def before(self) -> GamePosition: ...
    @property
    def either_may_roll(self) -> bool: ...
    def emit(self, cls: type[ev.Event], **kw: Any) -> None: ...
    def refuse(self, inp: PlayerInput, rule: str, message: str) -> None: ...
    def resolve_illegal(self, *, accepted: bool) -> bool: ...
    def game_over(self, winner: Side | None, points: int, result: str) -> None: ...


class Offers:
    """Cube and resignation handling of one referee (``ref``); see the module doc."""

    def __init__(self, ref: OffersReferee) -> None:
        self.ref = ref
        self.state = OfferState()

    def new_game(self) -> None:
        self.state = OfferState()

    def automatic_double(self) -> CubeState | None:
        """A tied opening roll (E1): the turned cube when automatic doubles apply (C5, C4), else None."""
        ref = self.ref
        if not ref.game.cube:
            return None  # V2, T3: no cube
        cube = automatic_double(ref.cube, self.state.auto_doubles, ref.settings.rules, match=ref.match)
        if cube == ref.cube:
            return None
        ref.cube = cube
        self.state.auto_doubles += 1
        return cube

    def double(self, inp: PlayerInput) -> None:
        ref = self.ref
        if not ref.game.cube:
            game = ref.game.variant.value.capitalize()
            ref.refuse(inp, "V2", f"there is no doubling cube in {game}" +
                       (" in a tavli match (T3)" if ref.tavli is not None else "") + " (V2): play on")
            return
        if ref.phase == Phase.ILLEGAL:
            # E8: the opponent doubling accepts the illegal play.
            doubler = ref.before.turn.other
            if inp.side not in (None, doubler):
                ref.refuse(inp, "C2", f"only {doubler.title} may double now")
                return
            if not ref.cube.can_double(doubler, match=ref.match, max_cube=ref.settings.rules.max_cube):
                ref.refuse(inp, "C2", self.why_no_double(doubler))
                return
            if ref.resolve_illegal(accepted=True):
                return  # the accepted play ended the game: there is nothing left to double
            self._offer(doubler)
            return
        if ref.phase != Phase.AWAITING_ROLL:
            ref.refuse(inp, "C2", "double on your turn, before rolling (C2)")
            return
        if ref.either_may_roll and inp.side is not None and inp.side is not ref.position.turn:
            ref.position = ref.position.with_turn(inp.side)  # after an adopted board: who acts first
        side = ref.position.turn
        if inp.side not in (None, side):
            ref.refuse(inp, "C2", f"only {side.title}, on roll, may double now (C2)")
            return
        if not ref.cube.can_double(side, match=ref.match, max_cube=ref.settings.rules.max_cube):
            ref.refuse(inp, "C2", self.why_no_double(side))
            return
        self._offer(side)

    def _offer(self, side: Side) -> None:
        ref = self.ref
        self.state.doubler = side
        ref.phase = Phase.CUBE
        ref.last_verdict = f"{side.title} doubles"
        ref.emit(ev.CubeOffered, side=side, value=ref.cube.value * 2, rule="C2",
                 message=f"{side.title} doubles to {ref.cube.value * 2}: {side.other.title}, take or pass.")

    def why_no_double(self, side: Side) -> str:
        ref = self.ref
        if not ref.match.cube_allowed:
            return "no cube in " + ("a 1-point match (S3)" if ref.match.length == 1 else "the Crawford game (S3)")
        if ref.cube.owner is not None and ref.cube.owner is not side:
            return f"{ref.cube.owner.title} owns the cube (C2)"
        return f"the cube never exceeds {ref.settings.rules.max_cube} (C4)"

    def answer_double(self, inp: PlayerInput) -> None:
        ref = self.ref
        if ref.phase != Phase.CUBE or self.state.doubler is None:
            ref.refuse(inp, "C3", "no double to answer")
            return
        doubler = self.state.doubler
        taker = doubler.other
        if inp.side not in (None, taker):
            ref.refuse(inp, "C3", f"{taker.title} answers the double (C3)")
            return
        if inp.action is Action.PASS:
            out = outcome_passed(doubler, ref.cube)
            ref.emit(ev.CubePassed, side=taker, value=ref.cube.value, rule="C3",
                     message=f"{taker.title} passes: {doubler.title} wins {ref.cube.value}.")
            ref.game_over(doubler, out.points, "pass")
            return
        rules = ref.settings.rules
        if inp.action is Action.BEAVER:
            if not ref.cube.can_beaver(taker, settings=rules, match=ref.match):
                ref.refuse(inp, "C5", "no beavers here (C5): take or pass")
                return
            ref.cube = ref.cube.beavered(taker, settings=rules, match=ref.match)
        else:
            ref.cube = ref.cube.doubled(taker, max_cube=rules.max_cube)
        ref.phase = Phase.AWAITING_ROLL
        self.state.doubler = None
        ref.last_verdict = f"{taker.title} takes"
        ref.emit(ev.CubeTaken, side=taker, value=ref.cube.value, rule="C3",
                 message=f"{taker.title} takes; the cube is at {ref.cube.value}.")

    def resign(self, inp: PlayerInput) -> None:
        ref = self.ref
        if ref.phase not in IN_GAME or inp.side is None:
            ref.refuse(inp, "S4", "resign during a game, naming the side that resigns (S4)")
            return
        if inp.level not in (1, 2, 3):
            ref.refuse(inp, "S4", "resign a single (1), gammon (2) or backgammon (3) game (S4)")
            return
        self.state.resign = Resignation(inp.side, GameValue(inp.level))
        self.state.resume = ref.phase
        ref.phase = Phase.RESIGN
        ref.emit(ev.Resigned, side=inp.side, level=inp.level, rule="S4",
                 message=f"{inp.side.title} resigns a {GameValue(inp.level).name.lower()}: "
                 f"{inp.side.other.title}, accept or play on.")

    def answer_resign(self, inp: PlayerInput) -> None:
        ref = self.ref
        r = self.state.resign
        if ref.phase != Phase.RESIGN or r is None:
            ref.refuse(inp, "S4", "no resignation to answer")
            return
        if inp.side not in (None, r.winner):
            ref.refuse(inp, "S4", f"{r.winner.title} answers the resignation (S4)")
            return
        accepted = inp.action is Action.ACCEPT_RESIGN
        self.state.resign = None
        ref.phase = self.state.resume
        ref.emit(ev.ResignationAnswered, side=r.winner, accepted=accepted, rule="S4",
                 message=f"{r.winner.title} " + ("accepts." if accepted else "plays on."))
        if accepted:
            pts = r.points(ref.cube, settings=ref.settings.rules, match=ref.match)
            ref.game_over(r.winner, pts, "resign")
