"""Dice on the table: when a roll has settled, and whether it stands (E1, E3, E6).

Die halves come from vision in the light player's seat: ``"right"`` is the
light player's right hand. Each player rolls into their own right-hand half,
so the light player's correct half is ``"right"`` and the dark player's is
``"left"``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from tavli_pi.referee.snapshot import restore_slots
from tavli_pi.rules.position import Position, Side
from tavli_pi.vision.observation import DieReading, Half

__all__ = ["DiceWatch", "opening_pair_of", "unreadable", "entered_dice", "of_the_roll", "REACH", "own_half", "void_reason",
           "opening_void_reason", "bearing_off_no_contact"]


def own_half(side: Side, light_is_white: bool = True) -> Half:
    """The half ``side`` rolls into (its right hand), from the light player's seat."""
    light = Side.WHITE if light_is_white else Side.BLACK
    return "right" if side is light else "left"


class DiceWatch:
    """Reports a roll once its dice lie still, then waits for them to go.

    ``feed`` returns the dice the first time ``need`` or more readable dice
    have looked the same for ``settle`` frames (frames with an unsure or unseen
    die are skipped, not counted); afterwards it is disarmed until
    a frame shows no dice or only moving dice (the dice were picked up or thrown
    again), so one throw is never judged twice. ``settle`` frames in a row with a
    die seen but not read make ``unread`` (the players enter that roll), and so do ``settle`` frames
    in a row of one die read and lying still where two are needed (the camera lost the other die:
    a roll that lies there is entered, never guessed), and so do ``settle`` frames in a row of two
    dice lying still with a value read under ``min_confidence``.

    A die read cocked where a die of its value was read lying flat on an earlier frame of this
    throw (since the watch was last armed) lies flat: a die at rest does not tip over by itself,
    and a roll is voided for a cocked die (E3) only on a lie never seen flat (a flat 3 of 15 px,
    read cocked on the two frames after it was read flat -- its outline skewed by a field found a
    few pixels off -- voided a recording's roll).

    The dice it reports carry, each, the best confidence their value was read at over the ``settle``
    frames that agreed (not the last frame's alone): a die lying still is read anew on every frame, and
    one frame reading it surely, none otherwise, is a die read surely (a recording's 5 read at 0.93,
    then at 0.90 on the frame the roll settled on, was taken as read under the 0.9 a call needs).

    A throw that lay still unread (``unread``) has come to rest: the first frame reading every die, each
    of ``unread``'s where it lay, reports it at once. Small dice are often read only on the clear frame
    after the play, with the dice still down, and then picked up: waiting for a second frame lost the
    roll (``bench_video.py --size 640``, tests/referee/test_read_at_rest.py).

    A disarmed watch also rearms once the dice it was disarmed on are gone from where they lay
    (``settle`` clear frames in a row, ``clear=True``: no hand, no motion) while something still lies
    on the board: what lies there then lay still through the pick-up, and a "die" that lay still
    through a throw and a pick-up is no die of the next throw. Those readings are the watch's marks
    (``marks``): a still reading where one lies (half a side) is left out of every throw until a frame
    shows no dice at all. Without this a board's lettering read as a die (a game joined in progress,
    no board learnt to vet it against) held the watch disarmed for the whole game: every roll unseen
    (``bench_video.py --size 640 --seed 10 --turns 10 --from-play 4 --rolled --hold 15 --think 15``,
    game 18: the "B" of "CLUB" read as a 1 or a 2 on every still frame).
    """

    __slots__ = ("settle", "min_confidence", "armed", "_sig", "_n", "unread", "_unread_sig", "_unread_n",
                 "_flat", "_best", "_held", "_gone_n", "marks")

    def __init__(self, settle: int = 2, min_confidence: float = 0.6, *, armed: bool = True) -> None:
        self.settle = settle
        self.min_confidence = min_confidence
        self.armed = armed
        self._sig: tuple[object, ...] | None = None
        self._n = 0
        #: a throw whose dice lie still where the camera sees them but cannot read their values
        #: (too small, :func:`unreadable`): the referee asks the players for the roll (E2)
        self.unread: tuple[DieReading, ...] | None = None
        self._unread_sig: tuple[DieReading, ...] | None = None  # the most dice one unread frame showed
        self._unread_n = 0
        #: the dice of this throw read lying flat at ``min_confidence`` or more (since the watch was armed)
        self._flat: tuple[DieReading, ...] = ()
        #: the best confidence of each die (in ``_sig``'s order) over the frames that agreed so far
        self._best: tuple[float, ...] = ()
        #: the still dice the watch was disarmed on (None: not seen yet; taken from the next frame fed)
        self._held: tuple[DieReading, ...] | None = None
        #: clear frames in a row since, with none of ``_held`` where it lay and something lying still
        self._gone_n = 0
        #: readings that lay still through a pick-up: left out of every throw (see the class)
        self.marks: tuple[DieReading, ...] = ()

    def disarm(self) -> None:
        self.armed = False
        self._sig, self._n, self._best = None, 0, ()
        self._clear_unread()
        self._flat = ()
        self._held, self._gone_n = None, 0

    def rearm(self) -> None:
        self.armed = True
        self._sig, self._n, self._best = None, 0, ()
        self._clear_unread()
        self._flat = ()

    def _clear_unread(self) -> None:
        self.unread, self._unread_sig, self._unread_n = None, None, 0

    def _unread_frame(self, sig: tuple[DieReading, ...], n: int, unread: tuple[DieReading, ...]) -> None:
        """One more frame of a throw seen but not read: ``sig`` the dice that say where it lies, ``n``
        such frames in a row so far; ``settle`` of them make ``unread`` (once: the first stands)."""
        self._unread_sig, self._unread_n = sig, n
        if n >= self.settle and self.unread is None:
            self.unread = unread

    def __setstate__(self, state: object) -> None:
        """Restore a snapshot (:mod:`~tavli_pi.referee.snapshot`): a watch from an older tavli-pi
        may lack the unread-throw fields; they start as a new watch's."""
        restore_slots(self, state, unread=None, _unread_sig=None, _unread_n=0, _flat=(), _best=(), _held=None,
                      _gone_n=0, marks=())

    def feed(self, dice: Sequence[DieReading], need: int = 2, *, clear: bool = False) -> tuple[DieReading, ...] | None:
        """One frame's dice; the roll once it lies still (see the class). ``clear``: the frame shows
        no hand and no motion (only such frames say the dice the watch was disarmed on are gone)."""
        if not dice:
            self.marks = ()  # nothing lies on the board: no mark either
        dice = [d for d in dice if d.moving or not any(_near(m, d, 0.5) for m in self.marks)]
        if not dice or all(d.moving for d in dice):
            self.rearm()
            return None
        if not self.armed and self._picked_up(dice, clear):
            return None
        if not self.armed or any(d.moving for d in dice):
            # one die "moving" beside still ones is a flicker of the reader (a new throw moves
            # them all): it neither counts nor resets
            return None
        dice = self._seen_flat(dice)
        if any(unreadable(d) for d in dice):
            # seen and still, but a value cannot be read (and a die that small is not always found:
            # one frame shows both, the next one): ``settle`` such frames in a row are a throw the
            # players must enter; the frame that showed the most dice says where they lie
            # (flatness is not judged on a die too small to read)
            best = self._unread_sig
            most = tuple(dice) if best is None or len(dice) > len(best) else best
            self._unread_frame(most, self._unread_n + 1, most[:need])
            return None
        if need == 2 and len(dice) == 1 and dice[0].value_confidence >= self.min_confidence:
            # one die read, the other not found: the same die lying still ``settle`` frames is a throw
            # whose other die the camera lost; the players enter it
            one = (dice[0].value, dice[0].half)
            best = self._unread_sig
            same = best is not None and len(best) == 1 and (best[0].value, best[0].half) == one
            self._unread_frame(tuple(dice), self._unread_n + 1 if same else 1,
                               (replace(dice[0], note="the camera finds one die only"),))
            return None
        if len(dice) == need == 2 and any(d.value_confidence < self.min_confidence for d in dice):
            # both dice found, still, a value read under ``min_confidence`` (a 5 read as a 4 at 0.12):
            # ``settle`` such frames in a row are a throw the players enter, as one too small to read
            # is (a single unsure frame among sure ones is a flicker: a sure frame resets this count)
            self._unread_frame(tuple(dice), self._unread_n + 1, tuple(
                d if d.value_confidence >= self.min_confidence
                else replace(d, note=d.note or "the dice cannot be read surely") for d in dice))
            return None
        self._unread_sig, self._unread_n = None, 0  # every die read: not an unread throw
        if len(dice) < need or any(d.value_confidence < self.min_confidence for d in dice):
            # a frame where a die is unsure or unseen says nothing: it neither counts nor resets
            # (a flicker of the reader must not lose a roll; a new throw shows moving dice)
            return None
        order = sorted(range(len(dice)), key=lambda i: (dice[i].value, dice[i].half, dice[i].flat, dice[i].on_checker))
        sig = tuple((dice[i].value, dice[i].half, dice[i].flat, dice[i].on_checker) for i in order)
        conf = tuple(dice[i].value_confidence for i in order)
        if sig == self._sig and len(self._best) == len(conf):
            self._n += 1
            self._best = tuple(max(a, b) for a, b in zip(self._best, conf))
        else:
            self._sig, self._n, self._best = sig, 1, conf
            if self._lay_unread(dice):
                # the throw lay still here, seen unread, for ``settle`` frames: it has come to rest, and
                # the frame that reads its values reads the throw (the player may pick it up next)
                self._n = self.settle
        if self._n >= self.settle:
            surest = dict(zip(order, self._best))
            self.disarm()
            self._held = tuple(dice)
            return tuple(replace(d, value_confidence=surest[i]) if surest[i] != d.value_confidence else d
                         for i, d in enumerate(dice))
        return None

    def _picked_up(self, dice: Sequence[DieReading], clear: bool) -> bool:
        """Disarmed, ``dice`` (no marks among them) seen: whether the dice the watch was disarmed on
        were picked up with others lying still (``settle`` clear frames without any of them within a
        side of where it lay); then the dice lying are marks and the watch is armed again."""
        still = tuple(d for d in dice if not d.moving)
        if self._held is None:
            self._held = still or None
            return False
        if not clear or len(still) < len(dice) or any(_near(h, d, 1.0) for h in self._held for d in still):
            self._gone_n = 0
            return False
        self._gone_n += 1
        if self._gone_n < self.settle:
            return False
        self.marks = (*self.marks, *still)
        self.rearm()
        return True

    def _lay_unread(self, dice: Sequence[DieReading]) -> bool:
        """Whether every die of the unread throw (``unread``: lying still ``settle`` frames, seen but not
        read) lies where it lay among ``dice``, a frame reading every die: the same throw, at rest."""
        return self.unread is not None and all(any(_near(u, d, 0.5) for d in dice) for u in self.unread)

    def _seen_flat(self, dice: Sequence[DieReading]) -> Sequence[DieReading]:
        """``dice``, each die read cocked where a die of its value was read lying flat on an earlier
        frame of this throw taken as lying flat; the dice read flat now are remembered."""
        out = list(dice)
        for i, d in enumerate(dice):
            if d.flat or not d.value or d.value_confidence < self.min_confidence:
                continue
            # the same die: read where it lay then (half a side: two dice never lie closer), and no
            # other die of this frame lies there
            if any(f.value == d.value and [_near(f, e, 0.5) for e in dice].count(True) == 1 and _near(f, d, 0.5)
                   for f in self._flat):
                out[i] = replace(d, flat=True)
        seen = tuple(d for d in dice if d.flat and d.value and d.value_confidence >= self.min_confidence)
        self._flat = (*self._flat, *seen)[-4:]
        return out


def _near(a: DieReading, b: DieReading, sides: float) -> bool:
    """Whether ``a`` and ``b`` lie within ``sides`` die sides of each other (image px)."""
    side = max(a.size_px, b.size_px) or DIE_PX
    return (a.xy[0] - b.xy[0]) ** 2 + (a.xy[1] - b.xy[1]) ** 2 <= (sides * side) ** 2


def opening_pair_of(dice: Sequence[DieReading], lone: DieReading) -> bool:
    """Whether ``dice`` are two dice lying still one in each half, one of them where ``lone`` lay
    (within half a die side): ``lone`` and the die found beside it since, an opening throw."""
    if len(dice) != 2 or {d.half for d in dice} != {"left", "right"} or any(d.moving for d in dice):
        return False
    return any(d.half == lone.half and _near(d, lone, 0.5) for d in dice)


def unreadable(d: DieReading) -> bool:
    """A die vision sees but gives no value (too small to read: issue 9 says never guess one)."""
    return d.value == 0 or (d.note.startswith("too small") and d.value_confidence == 0.0)


def entered_dice(unread: Sequence[DieReading], values: tuple[int, int], *,
                 halves: tuple[Half, Half] | None = None) -> tuple[DieReading, ...]:
    """The two dice of a roll the players entered: ``values`` on the dice the camera saw but could
    not read, in order. A die it did not find lies in ``halves`` (the players vouch for the roll:
    at the opening roll the other half, else the half of the die it saw). Taken as flat and off
    the checkers: nothing about a die too small to read says otherwise."""
    seen = list(unread[:2])
    if not seen:
        raise ValueError("entered_dice needs the die or dice the camera saw")
    while len(seen) < 2:
        d = seen[0]
        seen.append(replace(d, half=halves[len(seen)] if halves else d.half))
    return tuple(replace(d, value=v, value_confidence=1.0, flat=True, on_checker=False, note="entered")
                 for d, v in zip(seen, values))


#: how far (in die sides) a die may lie from where one of the roll's dice lay and still be one of them
REACH = 3.0
#: a die's side in pixels when the camera did not measure it (a 1280 px frame's dice are 14-20 px)
DIE_PX = 16.0


def of_the_roll(die: DieReading, roll: Sequence[DieReading], confidence: float, *, gone: bool = False) -> bool:
    """Whether ``die``, lying in the roller's half after the roll was taken, may be one of the roll's
    dice ``roll`` (as they lay when it was taken; empty when none was seen): read (at ``confidence``),
    or lying within ``REACH`` die sides of one of them. A die the camera cannot read that lies where no
    die of the roll lay came after the roll (stop 18, real-like game 138: a "die" twice the roll's size
    found on a checker under the hand that played, seen all game): it is no die of the roll, and the roll
    is picked up (E5) once its own dice are gone. A die read surely is one of them unless it both lies
    where none of them lay and shows a value none of them shows: that die was thrown since (real-like
    game 145: White's 1, read at 0.91 a hand's width from the opening dice of 4-5, was taken for the
    opening roll's dice lying still, and the opening play was never judged). ``gone``: the roll's dice were not seen for as long as a
    pick-up takes; a die seen since where none of them lay is then a new throw's, whatever it reads."""
    if not roll:
        return True
    for d in roll:
        side = max(d.size_px, die.size_px) or DIE_PX
        if (d.xy[0] - die.xy[0]) ** 2 + (d.xy[1] - die.xy[1]) ** 2 <= (REACH * side) ** 2:
            return True
    return not gone and die.value_confidence >= confidence and any(d.value == die.value for d in roll)


def void_reason(
    dice: Sequence[DieReading], side: Side, *, light_is_white: bool = True, die_on_checker_void: bool = True
) -> str:
    """Why ``side``'s roll is void (E3), or "" when it stands.

    Reasons: "outside" (frame, off the board), "bar", "left_half" (not in the
    roller's right-hand half), "cocked", "on_checker" (unless the setting is off).
    """
    half = own_half(side, light_is_white)
    for reason, bad in (
        ("outside", lambda d: d.half == "outside"),
        ("bar", lambda d: d.half == "bar"),
        ("left_half", lambda d: d.half != half),
        ("cocked", lambda d: not d.flat),
        ("on_checker", lambda d: die_on_checker_void and d.on_checker),
    ):
        if any(bad(d) for d in dice):
            return reason
    return ""


def opening_void_reason(
    dice: Sequence[DieReading], *, light_is_white: bool = True, die_on_checker_void: bool = True
) -> tuple[str, Side | None]:
    """Why an opening roll (one die each, one in each half: E1) is void, and whose die."""
    white_half = own_half(Side.WHITE, light_is_white)

    def owner(d: DieReading) -> Side | None:
        if d.half in ("left", "right"):
            return Side.WHITE if d.half == white_half else Side.BLACK
        return None

    for reason, bad in (
        ("outside", lambda d: d.half == "outside"),
        ("bar", lambda d: d.half == "bar"),
        ("cocked", lambda d: not d.flat),
        ("on_checker", lambda d: die_on_checker_void and d.on_checker),
    ):
        for d in dice:
            if bad(d):
                return reason, owner(d)
    halves = {d.half for d in dice}
    if len(dice) != 2 or halves != {"left", "right"}:
        return "same_half", None
    return "", None


def bearing_off_no_contact(pos: Position) -> bool:
    """Both sides bearing off with contact broken (E6's first exception):
    every checker of each side not borne off is in its home board."""
    if pos.bar != (0, 0):
        return False
    for i, v in enumerate(pos.points):
        point = i + 1
        if v > 0 and point > 6:
            return False
        if v < 0 and point < 19:
            return False
    return True
