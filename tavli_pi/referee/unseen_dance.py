"""A pass the camera did not see: the side on roll danced unseen, and the dice in the other half were the next roll.

A player on the bar facing a closed board rolls, cannot enter, and picks the dice up at once (E7):
the camera, which needs the dice to settle for a few frames, can miss the whole turn. The board does
not change, so nothing shows it was played (:mod:`tavli_pi.referee.unseen` infers a missed roll from
the play it made; a pass makes none). The other player then throws in their own half, and the referee,
still waiting for the roll of the side that danced, takes those dice as that side's roll thrown into
the wrong half (E3: void, "roll again"). When the other player then plays with them, the board changes
by *their* checkers while the referee waits for the side that danced: out of step (stop 18-19,
real-like game 40: White danced with a 2-2 the camera missed, Black's 3-3 was voided as White's, and
Black's play -- an illegal one -- was lost as a board out of step, never judged).

What the referee sees then settles which it was. A roll voided for lying in the other player's half,
followed -- before any other roll is seen -- by a board that differs from the known one only by one play
(legal or not) of that other player with those dice, while the side on roll had a roll with no legal
move: the side on roll danced (the wrong-half thrower would have thrown again and played their own
checkers, not the other player's), and the voided dice were the other player's roll. The referee then
records the pass (``no_legal_move`` for the first roll with no legal move, the roll unseen, as an unseen
play records the first roll it fits; the game record takes it as the turn) and judges the play against the dice as any play is judged: a
legal play stands, an illegal one is called (E8) on its usual evidence.

With nobody at the table to enter rolls (a recording), the other player's roll may go unread too (dice
too small to read, one die found): then nothing is voided, and the board simply shows the other player's
checkers moved while the referee waits for the side on roll (stop 21, real-like game 78 replayed
unattended: White danced with an unseen 6-2, Black's unread 6-4 was played, and White's 5-1 was then
judged against the board from before both -- Black's two checkers gone from 1 and 14 read as blots White
hit -- and called illegal: a false call). :func:`take_unseen_dance_and_play` takes that board, when it is
clearly one legal play of the other player for some roll (narrowed by a die read of it, roll_seen.py)
from the known position and the side on roll had a roll with no legal move, as the pass (unseen) and
that play (not checked: its roll unseen). At an attended table the players enter the rolls instead.

Nothing else changes: a wrong-half throw followed by a throw in the right half is a roll as before; a
board the side on roll changed, or one that is no play of the other side with those dice, or a side on
roll that could move with every roll, is judged as before (out of step, or a question).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, Protocol

from tavli_pi.referee import events as ev
from tavli_pi.referee.events import Phase
from tavli_pi.referee.unseen import ROLLS, rolls_text

if TYPE_CHECKING:
    from tavli_pi.referee.game import GameRules
    from tavli_pi.referee.settings import RefereeSettings
    from tavli_pi.referee.unseen import UnseenPlay
    from tavli_pi.rules.games import GamePosition
    from tavli_pi.rules.position import Side
    from tavli_pi.vision.observation import DieReading, Observation

__all__ = ["DanceReferee", "dance_rolls", "played_after_dance", "take_unseen_dance", "take_unseen_dance_and_play"]


class DanceReferee(Protocol):
    """What the unseen dance uses of its referee (:class:`~tavli_pi.referee.referee.Referee`)."""

    phase: Phase
    last_verdict: str

    @property
    def settings(self) -> RefereeSettings: ...
    @property
    def game(self) -> GameRules: ...
    @property
    def position(self) -> GamePosition: ...
    @property
    def before(self) -> GamePosition: ...
    @property
    def frames(self) -> list[Observation]: ...
    def emit(self, cls: type[ev.Event], **kw: Any) -> None: ...
    def take_roll(self, dice: Sequence[DieReading]) -> None: ...
    def start_turn(self, dice: tuple[int, int], *, opening: bool) -> None: ...
    def dice2(self) -> tuple[int, int]: ...
    def commit(self, after: GamePosition) -> bool: ...
    def judge_final_play(self) -> None: ...
    def unseen_play(self, sides: tuple[Side, ...], *, opening: bool) -> tuple[Side, UnseenPlay] | None: ...
    def take_unseen_play(self, side: Side, play: UnseenPlay, *, opening: bool, keep_dice: bool) -> None: ...


def dance_rolls(game: GameRules, before: GamePosition) -> tuple[tuple[int, int], ...]:
    """The rolls (in ``ROLLS`` order) with which ``before.turn`` has no legal move (E7)."""
    return tuple(roll for roll in ROLLS if not game.ends(before, roll))


def played_after_dance(game: GameRules, known: GamePosition, board: GamePosition, roll: tuple[int, int]) -> bool:
    """Whether ``board`` is what the module doc describes: it differs from ``known`` by one play (legal
    or not) of the side not on roll with ``roll`` (so the side on roll's checkers are as they were, but
    for blots hit), and the side on roll had a roll with no legal move."""
    other = known.turn.other
    if board.layout_key() == known.layout_key():
        return False
    if game.one_play_reason(known.with_turn(other), board.with_turn(other), roll):
        return False
    return bool(dance_rolls(game, known))


def take_unseen_dance(ref: DanceReferee, board: GamePosition, dice: Sequence[DieReading]) -> bool:
    """When ``board`` (read clearly while ``ref`` waits for a roll, no die on the board) is the other
    side's play with ``dice`` (a roll ``ref`` voided for the other half) after an unseen dance
    (:func:`played_after_dance`): the pass is recorded, ``dice`` are taken as the other side's roll,
    picked up already (E5), and the play on the board is judged. True when so."""
    values = sorted((d.value for d in dice), reverse=True)
    if len(values) != 2 or min(values) < 1:
        return False
    roll = (values[0], values[1])
    known = ref.position
    if not played_after_dance(ref.game, known, board, roll):
        return False
    other = known.turn.other.title
    _record_pass(ref, dance_rolls(ref.game, known),
                 f"the dice in {other}'s half were {other}'s roll, and {other} has played.")
    ref.take_roll(dice)
    if ref.phase is not Phase.ROLLED:
        return True  # (the roll did not stand for the other side either: as the referee said)
    ref.judge_final_play()  # the dice were picked up before this frame (E5): the play is final
    return True


def take_unseen_dance_and_play(ref: DanceReferee) -> bool:
    """Unattended, no roll read (see the module doc): when the frames ``ref`` keeps show clearly one legal
    play of the side not on roll, for some roll, from the known position, and the side on roll had a roll
    with no legal move, the pass is recorded (``no_legal_move``, the roll unseen) and that play is taken as
    the other side's, not checked (``play_accepted`` with ``roll_unseen``). True when so."""
    if ref.settings.attended:
        return False
    known = ref.position
    other = known.turn.other
    dances = dance_rolls(ref.game, known)
    if not dances:
        return False
    found = ref.unseen_play((other,), opening=False)
    if found is None:
        return False
    # (the other side's throw, if one was seen unread, stays the evidence: the pass leaves it be)
    _record_pass(ref, dances, f"{other.title} has played since.")
    ref.take_unseen_play(other, found[1], opening=False, keep_dice=False)
    return True


def _record_pass(ref: DanceReferee, dances: tuple[tuple[int, int], ...], since: str) -> None:
    """The side on roll's pass with an unseen roll, the first of ``dances`` (the rolls it had no legal
    move with): ``no_legal_move`` (the roll unseen, ``since`` said after it) and the turn committed (a
    pass never ends the game). No ``play_accepted``: the board is the other side's play now, and the
    record takes the ``no_legal_move`` as the turn. The frames ``ref`` kept, of that play, go on to it
    (the pass resets the view)."""
    side = ref.position.turn
    frames = list(ref.frames)
    ref.start_turn(dances[0], opening=False)
    ref.emit(ev.NoLegalMove, side=side, dice=ref.dice2(), rule="E7",
             message=f"{side.title}'s roll was not seen, and {side.title} could not "
             f"move ({rolls_text(dances)} has no legal move): {since}",
             extra={"roll_unseen": [f"{a}{b}" for a, b in dances]})
    ref.last_verdict = "no legal move: pass"
    ref.commit(ref.before)
    ref.frames.extend(frames)
