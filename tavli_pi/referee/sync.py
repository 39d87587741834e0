"""Is the board still the one the referee knows? (DESIGN.md, "rules-constrained reading")

The referee judges a play against the position before the roll. That is only
sound while the referee has followed every turn: if vision missed a roll, the
board carries turns the referee never judged, and judging the next play
against the stale position would call a legal play "illegal" (the worst
failure this product can have). So before any illegal verdict the referee
asks :func:`one_play_reason`: can the observed end be *one* play of the mover,
legal or not, from the position before the roll? If not, the referee has lost
track of the board: it says so (``board_out_of_sync``), never "illegal".

What one play (legal or illegal) can do, and nothing else:

- the opponent's checkers are unchanged, except blots hit and sent to the bar
  (only a point holding exactly one opponent checker can lose it);
- the mover's checkers never go to the bar, and borne-off checkers never
  come back;
- at most ``moves + 1`` of the mover's checkers leave their spot (``moves`` = 2,
  or 4 with doubles; one more for a checker nudged by mistake);
- the mover's pip count drops by at most the dice total plus one die (6): an
  illegal play may miscount or use a wrong die, not play a second roll; it may
  move a checker backwards, by at most the dice total.

The functions are pure (no I/O, no clock). :class:`BoardSync` is the
referee's part that runs the recovery: it announces the mismatch
(``board_out_of_sync``), watches for the board to be restored, and adopts the
board once both players confirm it; its state is the plain
:class:`SyncState`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Protocol

from tavli_pi.referee import events as ev
from tavli_pi.referee.events import Phase
from tavli_pi.referee.evidence import EvidenceTable, counts_to_position, reachable, read, spot_counts
from tavli_pi.referee.inputs import Action, PlayerInput
from tavli_pi.referee.snapshot import restore_slots
from tavli_pi.referee.unseen import roller_of, rolls_text
from tavli_pi.rules.moves import legal_results, wrong_points
from tavli_pi.rules.position import Position, Side
from tavli_pi.rules.games import GamePosition
from tavli_pi.vision.observation import Observation

if TYPE_CHECKING:
    from tavli_pi.referee.dice import DiceWatch
    from tavli_pi.referee.game import GameRules
    from tavli_pi.referee.roll_question import RollQuestion
    from tavli_pi.referee.settings import RefereeSettings
    from tavli_pi.referee.unseen import UnseenPlay
    from tavli_pi.rules.games import End

__all__ = [
    "one_play_reason", "broken_rule", "moved_sides", "turn_after", "differing_points", "PIP_SLACK",
    "BoardSync", "SyncState", "SyncReferee",
]

#: Pips a (mis)play may move beyond the dice total and still be one play: one die.
PIP_SLACK = 6


def _own_spots(pos: Position, side: Side) -> list[int]:
    """``side``'s checkers: [0] off, [1..24] its own points, [25] bar."""
    return [pos.off[side]] + [pos.count(side, p) for p in range(1, 25)] + [pos.bar[side]]


def _hit_only(before: Position, after: Position, side: Side) -> tuple[bool, int]:
    """Did ``side``'s checkers change only by blots being hit? (and how many were)."""
    b, a = _own_spots(before, side), _own_spots(after, side)
    hits = 0
    for p in range(1, 25):
        if a[p] == b[p]:
            continue
        if b[p] == 1 and a[p] == 0:
            hits += 1
            continue
        return False, 0
    if a[0] != b[0] or a[25] != b[25] + hits:
        return False, 0
    return True, hits


def one_play_reason(before: Position, observed: Position, dice: tuple[int, int]) -> str:
    """"" when ``observed`` can be the end of one play (legal or not) of ``before.turn``
    with ``dice``; otherwise why it cannot (the referee lost track of the board)."""
    mover = before.turn
    opp = mover.other
    moves = 4 if dice[0] == dice[1] else 2
    total = sum(dice) * (2 if dice[0] == dice[1] else 1)
    ok, hits = _hit_only(before, observed, opp)
    if not ok:
        return f"{opp.title}'s checkers moved, not only blots sent to the bar"
    if hits > moves:
        return f"{hits} blots hit by one roll"
    b, a = _own_spots(before, mover), _own_spots(observed, mover)
    if a[25] > b[25]:
        return f"{mover.title} has more checkers on the bar than before"
    if a[0] < b[0]:
        return f"{mover.title} has fewer checkers borne off than before"
    left = sum(max(0, b[p] - a[p]) for p in range(1, 26))
    if left > moves + 1:
        return f"{left} of {mover.title}'s checkers moved: more than one roll moves"
    pips = before.pip_count(mover) - observed.pip_count(mover)
    if pips > total + PIP_SLACK:
        return f"{mover.title} moved {pips} pips with {dice[0]}-{dice[1]}"
    if pips < -total:
        return f"{mover.title}'s checkers went {-pips} pips backwards"
    return ""


def broken_rule(before: Position, observed: Position, dice: tuple[int, int]) -> str:
    """The movement rule (RULES.md) an illegal end of one play most likely broke.

    M4: checkers moved while one stayed on the bar; M6: bore off with checkers
    outside the home board; M1: a checker went backwards, or moved further than
    the dice; M5: fewer pips played than a legal play uses (a die left unplayed);
    M2: the right distance but not a legal play (a blocked landing point).
    """
    mover = before.turn
    b, a = _own_spots(before, mover), _own_spots(observed, mover)
    if b[25] and a[25] and any(a[p] < b[p] for p in range(1, 25)):
        return "M4"
    if a[0] > b[0] and (b[25] or any(b[p] for p in range(7, 25))):
        return "M6"
    departed = [q for q in range(1, 26) if a[q] < b[q]]
    if any(all(q <= p for q in departed) for p in range(1, 25) if a[p] > b[p]):
        return "M1"  # a checker arrived where no departed checker lay behind it: backwards
    pips = before.pip_count(mover) - observed.pip_count(mover)
    legal = [before.pip_count(mover) - r.position.pip_count(mover) for r in legal_results(before, dice)] or [0]
    if pips < 0 or pips > max(legal):
        return "M1"
    if pips < max(legal):
        return "M5"
    return "M2"


def moved_sides(known: Position, observed: Position) -> tuple[Side, ...]:
    """The sides whose checkers changed otherwise than by being hit."""
    return tuple(s for s in Side if not _hit_only(known, observed, s)[0])


def turn_after(known: Position, observed: Position, *, roll_seen: bool) -> Side:
    """Who is most likely on roll with ``observed`` on the board.

    ``known.turn`` is the side that was to play from ``known``. After a judged
    roll (``roll_seen``) its turn is over. Otherwise: if exactly one side moved,
    the other is on roll; if both (or neither) moved, ``known.turn`` is on roll
    again. The referee also accepts the first roll after an adoption from
    either side (the half the dice land in says who rolled), so a wrong guess
    costs nothing.
    """
    if roll_seen:
        return known.turn.other
    moved = moved_sides(known, observed)
    if len(moved) == 1:
        return moved[0].other
    return known.turn


def differing_points(known: Position, observed: Position) -> tuple[int, ...]:
    """White-numbered spots where the two positions differ: 1-24, 0 = bar, 25 = trays."""
    return wrong_points(observed, known)


@dataclass(slots=True)
class SyncState:
    """What the referee knows while out of sync (plain values: a snapshot can store them)."""

    known: GamePosition | None = None  # the last position the referee knows
    roll_seen: bool = False  # lost while judging a seen roll (else: an unseen change)
    resume: Phase = Phase.AWAITING_ROLL  # the phase a restored board returns to
    seen: GamePosition | None = None  # the differing board as announced
    adoptable: GamePosition | None = None  # the latest reading confident on every spot
    confirmed: list[Side] = field(default_factory=list)  # the sides that confirmed ``seen``
    steady_s: float = 0.0  # seconds of clear frames in a row that read ``seen`` confidently (unattended)
    #: lost on a board joined in progress that no play had fitted yet: unattended, the board as it stands is
    #: joined again (only a board a game reaches), and stays unsure until a play fits it
    rejoin: bool = False

    def __setstate__(self, state: object) -> None:
        """Restore a snapshot: a state from an older tavli-pi may lack ``steady_s`` or ``rejoin`` (0, False)."""
        restore_slots(self, state, steady_s=0.0, rejoin=False)


class SyncReferee(Protocol):
    """What the recovery uses of its referee (:class:`~tavli_pi.referee.referee.Referee`)."""

    phase: Phase
    dice: tuple[int, int] | tuple[()]
    results: tuple[End, ...]
    last_verdict: str
    wrong_points: tuple[int, ...]
    board_unsure: bool

    @property
    def settings(self) -> RefereeSettings: ...
    @property
    def game(self) -> GameRules: ...
    @property
    def position(self) -> GamePosition: ...
    @property
    def before(self) -> GamePosition: ...
    @property
    def blind(self) -> tuple[int, ...]: ...
    @property
    def misread(self) -> tuple[int, ...]: ...
    @property
    def question(self) -> RollQuestion: ...
    @property
    def frames(self) -> list[Observation]: ...
    @property
    def frame_dt(self) -> float: ...
    @property
    def dice_watch(self) -> DiceWatch: ...
    @property
    def unseen_last(self) -> tuple[GamePosition, GamePosition, Side, bool] | None: ...
    def emit(self, cls: type[ev.Event], **kw: Any) -> None: ...
    def refuse(self, inp: PlayerInput, rule: str, message: str) -> None: ...
    def dice2(self) -> tuple[int, int]: ...
    def candidates(self) -> list[GamePosition]: ...
    def collect(self, obs: Observation) -> bool: ...
    def reset_view(self) -> None: ...
    def ask_clear_view(self, reason: str, *, now: bool = False) -> None: ...
    def lose_step(self) -> None: ...
    def accept_play(self, after: GamePosition) -> None: ...
    def finish_turn(self, over: bool) -> None: ...
    def carry_on_from(self, after: GamePosition, known: GamePosition, verdict: str, message: str,
                      extra: dict[str, Any] | None = None) -> None: ...
    def unseen_play(self, sides: tuple[Side, ...], *, opening: bool,
                    known: GamePosition | None = None) -> tuple[Side, UnseenPlay] | None: ...
    def take_unseen_play(self, side: Side, play: UnseenPlay, *, opening: bool, keep_dice: bool) -> None: ...
    def forget_unseen_last(self) -> None: ...


class BoardSync:
    """The referee's out-of-sync recovery (phase ``out_of_sync``); see the module doc.

    It acts on its referee (``ref``): the phase, the position and the events it emits.
    """

    def __init__(self, ref: SyncReferee) -> None:
        self.ref = ref
        self.state = SyncState()

    def lose(self, observed: GamePosition, *, roll_seen: bool, why: str, held: bool = False,
             rejoin: bool = False) -> None:
        """The board is out of step with the position the referee knows. ``held``: an unseen change
        that is a legal play of some roll, though of none the die read of its roll allows (``why``
        says so: roll_seen.py); it is announced with that reason. ``rejoin``: the position known was a
        board joined in progress that no play had fitted yet (it may be the wrong one): at an attended
        table the players confirm the board as usual; unattended, the board as it stands is joined again
        (:meth:`_adopt`)."""
        ref = self.ref
        self.state.known = ref.before if roll_seen else ref.position
        self.state.roll_seen = roll_seen
        self.state.rejoin = rejoin
        self.state.resume = Phase.AWAITING_ROLL if roll_seen else ref.phase
        ref.lose_step()
        self.state.confirmed = []
        self.state.adoptable = None
        self._announce(observed, why, held=held)

    def _announce(self, observed: GamePosition, why: str = "", *, held: bool = False) -> None:
        ref = self.ref
        known = self.state.known
        assert known is not None
        self.state.seen = observed
        pts = ref.game.differing_points(known, observed)
        ref.wrong_points = pts
        ref.last_verdict = "board out of sync"
        where = ", ".join("bar" if p == 0 else "trays" if p == 25 else str(p) for p in pts)
        head = ""
        if self.state.roll_seen:
            side = known.turn
            head = f"{side.title}'s play with {'-'.join(map(str, ref.dice2()))} cannot be judged ({why}). "
        elif held:
            head = f"{why[0].upper()}{why[1:]}. "
        done = [x.title for x in self.state.confirmed]
        if done:
            todo = self.state.confirmed[0].other.title
            tail = f"{done[0]} confirmed the board as it stands; {todo}, press ACCEPT too, or restore it."
        else:
            tail = "restore it, or both players confirm the board as it stands (ACCEPT)."
        ref.emit(
            ev.BoardMismatch, known=known, observed=observed, points=pts,
            reason="not_one_play" if self.state.roll_seen else "unseen_change",
            confirmed=tuple(x.name.lower() for x in self.state.confirmed),
            extra={"held": why} if held else {},
            message=f"{head}The board differs from the last known position at point(s) {where}: {tail}",
        )

    def _targets(self) -> list[tuple[GamePosition, str]]:
        """Positions that put the referee back in step: (position, what it means)."""
        ref = self.ref
        known = self.state.known
        assert known is not None
        if not self.state.roll_seen:
            return [(known, "restored")]
        return [(p, "played") for p in ref.candidates()] + [(known, "unplayed")]

    def _confident_reading(self, table: EvidenceTable) -> GamePosition | None:
        """The board as read when every spot is confident and stable and it is a position (15 + 15)."""
        ref = self.ref
        s = ref.settings
        if table.frames < s.stable_frames:
            return None
        if float(min(table.conf_light.min(), table.conf_dark.min())) < s.illegal_confidence:
            return None
        for fl, fd in table.frame_argmax[-s.stable_frames:]:
            if (fl != table.argmax_light).any() or (fd != table.argmax_dark).any():
                return None
        known = self.state.known
        turn = known.turn if known is not None else ref.position.turn
        if isinstance(ref.position, Position):
            return counts_to_position(table.argmax_light, table.argmax_dark, turn, s.light_is_white)
        hints = () if known is None else (known,)
        return ref.game.counts_to_position(table.argmax_light, table.argmax_dark, turn, s.light_is_white, hints)

    def watch(self, obs: Observation) -> None:
        ref = self.ref
        s = ref.settings
        ref.dice_watch.feed(obs.dice, need=2)  # dice are not rolls now; a roll counts once back in step
        if not ref.collect(obs):
            self.state.adoptable = None  # a hand or motion: the board may be changing
            self.state.steady_s = 0.0
            return
        if len(ref.frames) < s.stable_frames:
            return
        table = EvidenceTable(ref.frames, ref.blind, ref.misread)
        targets = self._targets()
        known = self.state.known
        assert known is not None
        r = read(table, [p for p, _ in targets], light_is_white=s.light_is_white, turn=known.turn,
                 game=ref.game, hints=(known,))
        if r.margin >= s.accept_margin and r.gap <= s.accept_gap:
            self._resync(*targets[r.best])
            return
        if self._played_unseen(obs):
            return
        before = self.state.adoptable
        self.state.adoptable = self._confident_reading(table)
        fresh = (r.gap >= s.illegal_gap and r.free is not None and r.min_confidence >= s.illegal_confidence
                 and r.stable_frames >= s.stable_frames)
        seen = self.state.seen
        if fresh and r.free is not None and (seen is None or r.free.layout_key() != seen.layout_key()):
            self.state.confirmed = []  # a different board: confirmations were for the old one
            self.state.steady_s = 0.0
            self._announce(r.free, "the board changed again")
        if not s.attended:
            self._unattended(before)
        if len(self.state.confirmed) == 2:
            self._adopt()

    def _played_unseen(self, obs: Observation) -> bool:
        """Lost on a change no roll explained (the roll went unread, nobody entered it): the board
        clearly one legal play, for some roll, of the side that was on roll from the last known
        position -- by the margins any play is accepted with, and ahead of that position standing
        still (:meth:`Referee.unseen_play`) -- is that play, made with the roll the camera missed.
        The referee takes it and goes on (a recorded match has nobody to restore or confirm the
        board); dice lying in the next player's half are then their roll. At an attended table the
        players are first asked for the roll they played (:meth:`RollQuestion.ask <tavli_pi.referee.roll_question.RollQuestion.ask>`), and the
        play is judged against it. No call without that roll: a board no legal play explains stays
        out of sync. True when taken or asked about."""
        ref = self.ref
        known, resume = self.state.known, self.state.resume
        if (self.state.roll_seen or not ref.settings.infer_unseen_rolls or known is None
                or resume not in (Phase.AWAITING_ROLL, Phase.OPENING)):
            return False
        opening = resume is Phase.OPENING
        found = ref.unseen_play((), opening=opening)
        if found is None:
            return self._unseen_play_changed() or self.ask_roll_of_one_play()
        side, play = found
        keep_dice = roller_of(obs.dice, ref.settings.light_is_white) is side.other
        if not keep_dice and ref.question.ask(side, play, opening=opening):
            return True  # the players are asked for the roll first (roll_question.py)
        self._clear(keep_view=True)
        ref.phase = resume
        ref.emit(ev.BoardResynced, position=play.position,
                 message=f"The board is one legal play of {side.title}'s with a roll the camera did not "
                 "see: back in step.")
        ref.take_unseen_play(side, play, opening=opening, keep_dice=keep_dice)
        return True

    def ask_roll_of_one_play(self) -> bool:
        """Lost on a change no roll explained, and no legal play for any roll explains the board as
        announced, though it is one play (legal or not) of the side on roll (:func:`one_play_reason`
        with the most a roll moves, 6-6; at the opening, of either side): the players, at an attended
        table, are asked for the roll they played (:meth:`RollQuestion.ask <tavli_pi.referee.roll_question.RollQuestion.ask>`) -- the play is
        judged against it once entered, and called if illegal. Without that roll it is never called.
        True while asked (the board stays out of sync until they answer)."""
        ref = self.ref
        known, seen = self.state.known, self.state.seen
        if (known is None or seen is None or self.state.roll_seen or not ref.settings.attended
                or self.state.resume not in (Phase.AWAITING_ROLL, Phase.OPENING)):
            return False
        return ref.question.ask_of_one_play(known, seen, opening=self.state.resume is Phase.OPENING)

    def back_in_step(self) -> None:
        """The players entered the roll of the unseen play the board shows (``_played_unseen`` asked
        for it): the referee is back in step at the last known position, to judge that play; the
        frames kept are its evidence."""
        ref = self.ref
        ref.phase = self.state.resume
        self._clear(keep_view=True)
        ref.emit(ev.BoardResynced, position=ref.position,
                 message="The players entered the roll the camera did not see: back in step, the play is judged.")

    def _unseen_play_changed(self) -> bool:
        """Lost right after a play taken with a roll the camera did not see (nothing taken since):
        the players changed that play on the board -- it was illegal for their roll, which the
        referee could not know, and the opponent had it put right (E8). A board read clearly as
        another legal play of the same side, from the board before it, for some roll
        (:meth:`Referee.unseen_play`), is taken as the board in play: the referee carries on from
        it (``board_adopted``, as if the players confirmed it), the play it took standing in the log
        as it was. Never a call. True when taken."""
        ref = self.ref
        last, known = ref.unseen_last, self.state.known
        if last is None or known is None:
            return False
        before, after, side, opening = last
        if after.layout_key() != known.layout_key() or after.turn != known.turn:
            return False
        found = ref.unseen_play((side,), opening=opening, known=before)
        if found is None or found[1].position.layout_key() == after.layout_key():
            return False
        board = found[1].position.with_turn(side.other)
        self._clear(keep_view=True)
        ref.forget_unseen_last()
        ref.carry_on_from(board, known, "board adopted",
                          f"{side.title}'s last play, taken with a roll the camera did not see, was changed "
                          f"on the board to another legal play ({rolls_text(found[1].rolls)}): the referee "
                          "carries on from the board as it stands.")
        return True

    def _unattended(self, before: GamePosition | None) -> None:
        """Nobody at the table confirms (a recorded video): the board as announced, read confidently
        and alike in clear frames in a row for ``unattended_wait`` seconds, is confirmed for both sides."""
        board, seen = self.state.adoptable, self.state.seen
        alike = (board is not None and seen is not None and board.layout_key() == seen.layout_key()
                 and (before is None or before.layout_key() == board.layout_key()))
        self.state.steady_s = (self.state.steady_s + self.ref.frame_dt) if alike else 0.0
        if self.ref.settings.waited(self.state.steady_s):
            self.state.confirmed = [Side.WHITE, Side.BLACK]

    def _resync(self, pos: GamePosition, meaning: str) -> None:
        ref = self.ref
        known = self.state.known
        assert known is not None
        self._clear()
        if meaning == "played":
            ref.emit(ev.BoardResynced, position=pos,
                     message="The board matches a play of the roll again: back in step.")
            ref.accept_play(pos)
            return
        if meaning == "unplayed":
            ref.dice = ()
            ref.results = ()
            ref.phase = Phase.AWAITING_ROLL
            ref.last_verdict = "board restored"
            ref.emit(ev.BoardResynced, position=known,
                     message=f"The board is back at the position before the roll: {known.turn.title}, "
                     "roll again.")
            return
        ref.phase = self.state.resume
        ref.last_verdict = "board restored"
        ref.emit(ev.BoardResynced, position=known,
                 message="The board is back at the last known position: play on.")

    def _clear(self, *, keep_view: bool = False) -> None:
        ref = self.ref
        self.state.known = None
        self.state.seen = None
        self.state.adoptable = None
        self.state.confirmed = []
        self.state.steady_s = 0.0
        self.state.rejoin = False
        ref.wrong_points = ()
        if not keep_view:
            ref.reset_view()

    def confirm(self, inp: PlayerInput) -> None:
        """ACCEPT while out of sync: a player confirms the board as it stands.

        Two confirmations adopt it, one per side: a press naming its side counts
        for that side (again: refused); a press that cannot name its side (None:
        a shared button, the touch page) counts for the first side not yet confirmed.
        """
        ref = self.ref
        if inp.action is Action.CORRECT:
            ref.refuse(inp, "", "restore the board to the last known position, or both players press "
                       "ACCEPT to confirm the board as it stands")
            return
        if len(self.state.confirmed) == 2:
            ref.refuse(inp, "", "both players confirmed the board: the referee waits for a clear view "
                       "of every checker to adopt it")
            return
        side = inp.side
        if side is None:
            side = next(x for x in (Side.WHITE, Side.BLACK) if x not in self.state.confirmed)
        if side in self.state.confirmed:
            ref.refuse(inp, "", f"{side.title} already confirmed the board: {side.other.title} "
                       "confirms too, or restore the board")
            return
        self.state.confirmed.append(side)
        if len(self.state.confirmed) < 2:
            assert self.state.seen is not None
            self._announce(self.state.seen)
            return
        self._adopt()

    def _adopt(self) -> None:
        ref = self.ref
        known, seen, board = self.state.known, self.state.seen, self.state.adoptable
        assert known is not None and seen is not None
        if board is None or board.layout_key() != seen.layout_key():
            # confirmed, but the referee must see that board clearly to carry on from it
            ref.ask_clear_view("both players confirmed; the referee needs a clear view of every checker "
                               "to adopt the board", now=True)
            return
        rejoin = self.state.rejoin and not ref.settings.attended
        if rejoin and isinstance(board, Position):
            light, dark = spot_counts(board, ref.settings.light_is_white)
            if not reachable(list(light), list(dark), ref.game):
                # no game reaches that board (a checker off while its side is outside home): a misread, not
                # a board to join again; watched on until one a game reaches is read as steadily
                self.state.confirmed, self.state.steady_s = [], 0.0
                return
        if isinstance(known, Position) and isinstance(board, Position):
            turn = turn_after(known, board, roll_seen=self.state.roll_seen)
        else:
            turn = known.turn.other if self.state.roll_seen else known.turn
        after = board.with_turn(turn)
        self._clear()
        if rejoin:
            # nobody at the table: the board joined did not fit the play made on it, so it was the wrong
            # one; the game is joined again from the board as it stands, confirmed by nothing either
            ref.carry_on_from(after, known, "game in progress",
                              "The play did not fit the board joined in progress (it was misread): the referee "
                              f"joins the game again from the board as it stands. {turn.title} is expected to roll "
                              "(a roll in the other player's half is taken as theirs); no play is called against "
                              "this board until one fits it.", extra={"in_progress": True, "rejoined": True})
            ref.board_unsure = True
        else:
            ref.carry_on_from(after, known, "board adopted",
                              f"Both players confirmed the board: the referee carries on from it. {turn.title} is "
                              "expected to roll (a roll in the other player's half is taken as theirs).")
        if ref.game.finished(after):
            ref.finish_turn(True)
