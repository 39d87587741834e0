"""Rules-constrained reading: score candidate positions against vision's evidence.

The referee never reads the board blind (DESIGN.md, "rules-constrained
reading"). It knows the position before the roll and the dice, so the board
after the play is one of a few legal successors. Each candidate gets the
log-likelihood of its per-spot checker counts under the Observation's
evidence; the best legal candidate is compared with the best *unconstrained*
reading (the per-spot argmax), which is never less likely than any candidate.

The gap is measured to the best reading that keeps 15 checkers of each colour
(conservation, B1: a checker vision misses is somewhere), which is the per-spot
argmax whenever that adds up: a blot vision misses at a fair confidence no longer
counts against every position there is, each frame again; a board that adds up
(an illegal play, a board out of step) is measured as before.

Spots are indexed in the Observation's (light player's) numbering:
0-23 the points 1-24, 24 the bar, 25 the trays.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, cast

import numpy as np

from tavli_pi.errors import InvalidPositionError
from tavli_pi.rules.position import CHECKERS, Position, Side
from tavli_pi.rules.tavli_settings import Variant
from tavli_pi.vision.known import DARK_HOME, LIGHT_HOME, outside_home
from tavli_pi.vision.observation import MAX_COUNT, Observation

if TYPE_CHECKING:
    from tavli_pi.referee.game import GameRules
    from tavli_pi.rules.games import GamePosition

__all__ = [
    "game_spot_counts",
    "SPOTS",
    "BAR",
    "OFF",
    "LOG_FLOOR",
    "EvidenceTable",
    "Reading",
    "spot_counts",
    "counts_to_position",
    "read",
    "best_conserving",
    "conserving_counts",
    "conserved_posterior",
    "misread_spots",
]

#: 24 points, the bar, the trays.
SPOTS = 26
#: the spot of the checkers on the bar, and of those borne off (0-23 the points, light numbering)
BAR, OFF = 24, 25
#: Log-probability given to a count the evidence says is impossible.
LOG_FLOOR = math.log(1e-6)
#: Checkers of a colour the per-spot reading may miss (or add) that conservation puts right
#: (:meth:`EvidenceTable.conserving`); a reading further off is not a checker or two missed.
CONSERVE_AT_MOST = 2


def spot_counts(pos: Position, light_is_white: bool = True) -> tuple[np.ndarray, np.ndarray]:
    """(light, dark) checker counts per spot of ``pos`` in the light player's numbering."""
    pts = np.asarray(pos.points, dtype=np.int64)
    light_side = Side.WHITE if light_is_white else Side.BLACK
    if not light_is_white:
        # light point i+1 is Black's own point i+1 = White's point 24-i.
        pts = -pts[::-1]
    light = np.empty(SPOTS, dtype=np.int64)
    dark = np.empty(SPOTS, dtype=np.int64)
    light[:24] = np.maximum(pts, 0)
    dark[:24] = np.maximum(-pts, 0)
    light[BAR], dark[BAR] = pos.bar[light_side], pos.bar[light_side.other]
    light[OFF], dark[OFF] = pos.off[light_side], pos.off[light_side.other]
    return light, dark


def counts_to_position(
    light: Sequence[int], dark: Sequence[int], turn: Side, light_is_white: bool = True
) -> Position | None:
    """The Position of a per-spot reading, or None when it is no position
    (both colours on one point, or not 15 and 15 checkers: B1)."""
    pts: list[int] = []
    for i in range(24):
        lc, dc = int(light[i]), int(dark[i])
        if lc and dc:
            return None
        pts.append(lc - dc)
    if not light_is_white:
        pts = [-v for v in reversed(pts)]
    ls = Side.WHITE if light_is_white else Side.BLACK
    bar = [0, 0]
    off = [0, 0]
    bar[ls], bar[ls.other] = int(light[BAR]), int(dark[BAR])
    off[ls], off[ls.other] = int(light[OFF]), int(dark[OFF])
    if sum(light) != CHECKERS or sum(dark) != CHECKERS:
        return None
    try:
        return Position(tuple(pts), (bar[0], bar[1]), (off[0], off[1]), turn)
    except InvalidPositionError:
        return None


def _portes(p: object) -> Position:
    if not isinstance(p, Position):
        raise InvalidPositionError("a Portes reading needs Portes positions (give the game's rules)")
    return p


def game_spot_counts(pos: GamePosition, light_is_white: bool, game: GameRules | None) -> tuple[np.ndarray, np.ndarray]:
    """:func:`spot_counts` of a position of ``game`` (None: Portes)."""
    if game is None:
        return spot_counts(_portes(pos), light_is_white)
    return game.spot_counts(pos, light_is_white)


class EvidenceTable:
    """Per-spot log-likelihood tables of one or more frames (summed: the
    frames are taken as independent looks at one still board), but where the reader is known to
    misread this board (``shared``), whose frames count as one look in a posterior."""

    __slots__ = (
        "light", "dark", "frames", "argmax_light", "argmax_dark", "conf_light", "conf_dark", "frame_argmax",
        "blind", "shared", "looks",
    )

    def __init__(self, observations: Sequence[Observation], blind: Collection[int] = (),
                 shared: Collection[int] = ()) -> None:
        """``blind``: spots (0-25) vision is known to misread on this board (the players confirmed a
        set-up it read otherwise): their evidence is flat, and :func:`read` takes their counts from
        the best candidate (the rules fill in what the camera cannot see).

        ``shared``: spots (0-25) where the frames read a position the referee knew (the set-up, an
        accepted play: :func:`misread_spots`) otherwise. The reader's misreads are systematic -- the
        same slot misread alike on every still frame (under a translucent broadcast band, a black
        checker on a black point), only the sensor noise differing -- so there the frames share their
        error: how sure a count is (``conf_light``, :meth:`posterior`, :meth:`sure_by_count`) is
        taken from one look, the frames' mean, not from their sum (three frames at 0.6 are no 0.9).
        The scores (:meth:`score`: gap, margin) are the sums everywhere."""
        if not observations:
            raise ValueError("an evidence table needs at least one observation")
        light = np.zeros((SPOTS, MAX_COUNT + 1))
        dark = np.zeros((SPOTS, MAX_COUNT + 1))
        per_frame: list[tuple[np.ndarray, np.ndarray]] = []
        for obs in observations:
            spots = (*obs.points, obs.bar, obs.off)
            pl = np.array([s.light.probs for s in spots], dtype=float)
            pd = np.array([s.dark.probs for s in spots], dtype=float)
            light += np.log(np.maximum(pl, 1e-6))
            dark += np.log(np.maximum(pd, 1e-6))
            per_frame.append((pl.argmax(axis=1), pd.argmax(axis=1)))
        self.frames = len(observations)
        #: each frame's own argmax (light, dark) per spot
        self.frame_argmax = per_frame
        self.shared = tuple(sorted(int(i) for i in shared if 0 <= i < SPOTS))
        #: per spot, the weight of the summed evidence in a posterior: one look on the ``shared`` spots
        self.looks = np.ones((SPOTS, 1))
        self.looks[list(self.shared)] = 1.0 / self.frames
        self._sums(np.maximum(light, LOG_FLOOR * len(observations)), np.maximum(dark, LOG_FLOOR * len(observations)),
                   blind)

    def _sums(self, light: np.ndarray, dark: np.ndarray, blind: Collection[int]) -> None:
        """Keep the summed tables, with ``blind``'s evidence made flat, and what follows from them."""
        self.light, self.dark = light, dark
        self.blind = tuple(sorted(int(i) for i in blind if 0 <= i < SPOTS))
        if self.blind:
            self.light[list(self.blind)] = 0.0
            self.dark[list(self.blind)] = 0.0
        self.argmax_light = self.light.argmax(axis=1)
        self.argmax_dark = self.dark.argmax(axis=1)
        #: the posterior probability of the argmax per spot, all frames together
        self.conf_light = _posterior_max(self.light * self.looks)
        self.conf_dark = _posterior_max(self.dark * self.looks)

    def blinded(self, spots: Collection[int]) -> EvidenceTable:
        """This table with ``spots`` (0-25) set aside as blind too, from the sums already made (no
        frame is read again); itself when they are blind already."""
        more = {int(i) for i in spots if 0 <= i < SPOTS} - set(self.blind)
        if not more:
            return self
        out = EvidenceTable.__new__(EvidenceTable)
        out.frames, out.frame_argmax, out.shared, out.looks = self.frames, self.frame_argmax, self.shared, self.looks
        out._sums(self.light.copy(), self.dark.copy(), (*self.blind, *more))
        return out

    def unsure(self, confidence: float) -> tuple[int, ...]:
        """The spots, not blind, whose count of either colour the frames together read at a posterior
        under ``confidence``."""
        sure = np.minimum(self.conf_light, self.conf_dark)
        return tuple(int(i) for i in np.flatnonzero(sure < confidence) if int(i) not in self.blind)

    def score(self, light: np.ndarray, dark: np.ndarray) -> np.ndarray:
        """Log-likelihood of candidates: ``light``/``dark`` are (K, 26) count arrays."""
        idx = np.arange(SPOTS)
        lc = np.clip(light, 0, MAX_COUNT)
        dc = np.clip(dark, 0, MAX_COUNT)
        s = self.light[idx, lc].sum(axis=-1) + self.dark[idx, dc].sum(axis=-1)
        # a count beyond what the evidence can express is impossible
        over = (light > MAX_COUNT).any(axis=-1) | (dark > MAX_COUNT).any(axis=-1)
        return cast(np.ndarray, np.where(over, s + LOG_FLOOR * self.frames, s))

    def unconstrained(self) -> float:
        return float(self.light.max(axis=1).sum() + self.dark.max(axis=1).sum())

    def sure_by_count(self, light: np.ndarray, dark: np.ndarray, spots: Sequence[int], confidence: float) -> bool:
        """Whether the counts ``light``/``dark`` (a reading keeping 15 checkers of each colour) are read
        at ``confidence`` on every one of ``spots``: each on its own evidence, but for at most one spot,
        which the count pins down (B1: the checkers of that colour add up to 15, so one that the sure
        spots show leaving lies there; :func:`conserved_posterior`, its posterior given the totals).
        Two or more doubtful spots are not pinned down so: a misread that shifts a checker between them
        adds up as well."""
        idx = np.asarray(spots, dtype=np.int64)
        if not len(idx):
            return True
        own = self.posterior(light, dark)[idx]
        doubt = idx[own < confidence]
        if len(doubt) > 1:
            return False
        if not len(doubt):
            return True
        sure = min(conserved_posterior(self._fixed(self.light, light) * self.looks, light)[doubt].min(),
                   conserved_posterior(self._fixed(self.dark, dark) * self.looks, dark)[doubt].min())
        return float(sure) >= confidence

    def posterior(self, light: np.ndarray, dark: np.ndarray) -> np.ndarray:
        """Per spot, the posterior probability of the counts ``light`` and ``dark`` (one of each a
        spot): the lower of the two colours', a ``shared`` spot's from one look."""
        own = np.minimum(_posterior(self.light * self.looks, light), _posterior(self.dark * self.looks, dark))
        return cast(np.ndarray, own)

    def _fixed(self, loglik: np.ndarray, counts: np.ndarray) -> np.ndarray:
        """``loglik`` with each blind spot's evidence (flat) made certain of its count in ``counts``
        (there the reading is the best candidate's: the rules fill in what the camera cannot see)."""
        if not self.blind:
            return loglik
        out = loglik.copy()
        for i in self.blind:
            out[i] = LOG_FLOOR * self.frames
            out[i, int(counts[i])] = 0.0
        return out

    def conserving(self) -> float:
        """The log-likelihood of the best reading with 15 checkers of each colour (each colour on
        its own: at most :meth:`unconstrained`, at least any position's score), for a colour whose
        per-spot reading is at most ``CONSERVE_AT_MOST`` checkers off 15; for a colour further off
        (a whole stack read in the other colour), its per-spot reading as it is."""
        out = 0.0
        for table in (self.light, self.dark):
            off = abs(int(table.argmax(axis=1).sum()) - CHECKERS)
            out += best_conserving(table) if off <= CONSERVE_AT_MOST else float(table.max(axis=1).sum())
        return out


def misread_spots(table: EvidenceTable, known: GamePosition, misread: Collection[int] = (),
                  light_is_white: bool = True, game: GameRules | None = None) -> tuple[int, ...]:
    """The spots (0-25, not blind) the reader misreads on this board, learnt again from ``table``'s
    frames of ``known`` -- a position the referee knows stands (the set-up, an accepted play): those
    of ``misread`` (learnt before) and those read otherwise on every frame (the frames together and
    each frame on its own read a count of either colour that is not ``known``'s), less those read
    right on every frame. A misread the frames repeat is the reader's on this board (a band, black on
    black) while the checkers there stay as they are, and it misreads alike on the next frames too
    (:class:`EvidenceTable`'s ``shared``); a misread of one frame (sensor noise) is not one."""
    light, dark = game_spot_counts(known, light_is_white, game)
    wrong = (table.argmax_light != light) | (table.argmax_dark != dark)
    right = ~wrong
    for fl, fd in table.frame_argmax:
        differs = (fl != light) | (fd != dark)
        wrong &= differs
        right &= ~differs
    out = ({int(i) for i in misread} - {int(i) for i in np.flatnonzero(right)}) | {
        int(i) for i in np.flatnonzero(wrong)}
    return tuple(sorted(i for i in out if 0 <= i < SPOTS and i not in table.blind))


def best_conserving(loglik: np.ndarray, total: int = CHECKERS) -> float:
    """The largest sum of ``loglik[spot, count]`` over one count per spot with the counts adding to
    ``total`` (:func:`conserving_counts`)."""
    counts = conserving_counts(loglik, total)
    return float(loglik[np.arange(len(loglik)), counts].sum())


def conserving_counts(loglik: np.ndarray, total: int = CHECKERS) -> np.ndarray:
    """One count per spot, adding to ``total``, with the largest sum of ``loglik[spot, count]`` (a
    small dynamic programme over the spots; the per-spot argmax when that adds up already)."""
    argmax = loglik.argmax(axis=1)
    if int(argmax.sum()) == total:
        return cast(np.ndarray, argmax)
    n = min(loglik.shape[1] - 1, total)
    t = np.arange(total + 1)[:, None]
    c = np.arange(n + 1)[None, :]
    before = t - c  # the total before this spot, for a running total t and a count c here
    ok = before >= 0
    before = np.where(ok, before, 0)
    best = np.full(total + 1, -np.inf)
    best[0] = 0.0
    chosen = np.zeros((len(loglik), total + 1), dtype=np.int64)
    for i, row in enumerate(loglik):
        scores = np.where(ok, best[before] + row[: n + 1][None, :], -np.inf)
        chosen[i] = scores.argmax(axis=1)
        best = scores.max(axis=1)
    counts = np.zeros(len(loglik), dtype=np.int64)
    left = total
    for i in range(len(loglik) - 1, -1, -1):
        counts[i] = chosen[i, left]
        left -= int(counts[i])
    return counts


def _one_way_round(game: GameRules | None) -> bool:
    """Fevga: both sides move one way round, the dark player's home board elsewhere (no home board is kept
    to by ``reachable`` and ``read(playable=True)``)."""
    return game is not None and game.variant is Variant.FEVGA


def reachable(light: Sequence[int], dark: Sequence[int], game: GameRules | None = None) -> bool:
    """Whether per-spot counts (light numbering: points, bar, trays) are a board a game in progress reaches:
    no side has borne off all fifteen (that game is over), nor has checkers in its trays while others lie
    outside its home board (a player bears off once all fifteen checkers are in their home board, e.g. the
    USBGF rules; a hit after bearing off aside, as a join's :func:`_kept` reads). Fevga (both sides one way
    round) is taken as reached where its home boards differ."""
    if int(light[OFF]) >= CHECKERS or int(dark[OFF]) >= CHECKERS:
        return False
    if _one_way_round(game):
        return True
    return not (int(light[OFF]) and outside_home(light, light=True)) \
        and not (int(dark[OFF]) and outside_home(dark, light=False))


def _kept(loglik: np.ndarray, blind: list[int], candidate: np.ndarray, conserve: bool,
          home: slice | None = None) -> np.ndarray:
    """A colour's reading: the per-spot argmax, the ``blind`` spots taken from ``candidate``; with
    ``conserve``, when that is at most ``CONSERVE_AT_MOST`` checkers off 15, the best reading that keeps 15
    (:func:`conserving_counts` over the spots vision reads: a blot missed at a fair confidence is put
    back where the evidence least minds it, so a board that adds up is read as the position it is).
    ``home``: the colour's home board (spots): read as a board a game reaches, no checker of the colour is
    in its trays while it reads checkers outside its home board (a player bears off once all fifteen
    checkers are in their home board, e.g. the USBGF rules) -- the tray is read empty, and a checker missed
    is not put back there. An empty tray's evidence is weak (an insert, its lining), so a checker read
    there then is a checker missed on a point (``bench_video.py --seed 7 --from-play 4``, game 12: a dark
    checker read light on point 12, the 15th dark read in the tray, was joined as one borne off)."""
    evidence = loglik
    if home is not None and len(loglik) > OFF and OFF not in blind:
        outside = np.ones(len(loglik), bool)
        outside[home] = False
        outside[OFF] = False
        if int(loglik.argmax(axis=1)[outside].sum()) > 0:
            evidence = loglik.copy()
            evidence[OFF, 1:] = -np.inf
    counts = evidence.argmax(axis=1)
    counts[blind] = candidate[blind]
    seen = np.setdiff1d(np.arange(len(loglik)), np.asarray(blind, dtype=np.int64))
    want = CHECKERS - int(counts[blind].sum())
    if conserve and 0 < abs(int(counts.sum()) - CHECKERS) <= CONSERVE_AT_MOST and want >= 0 and len(seen):
        counts[seen] = conserving_counts(evidence[seen], want)
    return cast(np.ndarray, counts)


def conserved_posterior(loglik: np.ndarray, counts: np.ndarray, total: int = CHECKERS) -> np.ndarray:
    """Per spot, the posterior probability of ``counts[spot]`` given that the counts of all the spots
    add up to ``total`` (B1: a checker vision reads leaving one spot is somewhere), each spot's
    evidence taken on its own (as :class:`EvidenceTable` sums it): P(c_i) * P(the other spots add up
    to total - c_i) / P(all add up to total), by convolving the spots' posteriors. Zero everywhere
    when ``counts`` do not add up to ``total``."""
    n = len(loglik)
    if int(np.sum(counts)) != total:
        return np.zeros(n)
    z = loglik - loglik.max(axis=1, keepdims=True)
    p = np.exp(z)
    p = p[:, : total + 1] / p.sum(axis=1, keepdims=True)
    width = total + 1
    # prefix[i]: the distribution of the sum of spots 0..i-1; suffix[i]: of spots i..n-1 (cut at total)
    prefix = np.zeros((n + 1, width))
    suffix = np.zeros((n + 1, width))
    prefix[0, 0] = suffix[n, 0] = 1.0
    for i in range(n):
        prefix[i + 1] = np.convolve(prefix[i], p[i])[:width]
    for i in range(n - 1, -1, -1):
        suffix[i] = np.convolve(suffix[i + 1], p[i])[:width]
    whole = suffix[0][total]
    out = np.zeros(n)
    if whole <= 0.0:
        return out
    for i in range(n):
        rest = total - int(counts[i])
        others = float(np.dot(prefix[i][: rest + 1], suffix[i + 1][rest::-1]))
        out[i] = p[i, int(counts[i])] * others / whole
    return out


def _posterior(loglik: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """Per spot, the posterior probability of ``counts`` (one count a spot) under ``loglik``."""
    z = loglik - loglik.max(axis=1, keepdims=True)
    e = np.exp(z)
    return cast(np.ndarray, e[np.arange(len(loglik)), counts] / e.sum(axis=1))


def _posterior_max(loglik: np.ndarray) -> np.ndarray:
    z = loglik - loglik.max(axis=1, keepdims=True)
    e = np.exp(z)
    return cast(np.ndarray, 1.0 / e.sum(axis=1))


@dataclass(frozen=True)
class Reading:
    """The evidence scored against a candidate set.

    ``best`` indexes the candidates; ``margin`` = best - second best
    log-likelihood (inf with one candidate); ``gap`` = the best reading keeping 15 checkers
    of each colour - best (>= 0; the unconstrained reading's when it adds up). ``free_light``/``free_dark`` is the unconstrained reading, and
    ``free`` its Position when it is one (15 + 15, one colour a point).
    ``differing`` are the spots (light numbering, 0-25) where the free
    reading differs from the best candidate, ``min_confidence`` the lowest
    posterior confidence of the free reading on those spots (1.0 when none
    differ), ``stable_frames`` how many of the latest frames, each on its own,
    read those spots exactly as the free reading does.
    """

    best: int
    scores: tuple[float, ...]
    margin: float
    gap: float
    free_light: tuple[int, ...]
    free_dark: tuple[int, ...]
    free: GamePosition | None
    differing: tuple[int, ...]
    min_confidence: float
    stable_frames: int


def read(
    table: EvidenceTable,
    candidates: Sequence[GamePosition],
    *,
    light_is_white: bool = True,
    turn: Side = Side.WHITE,
    game: GameRules | None = None,
    hints: Sequence[GamePosition] = (),
    conserve: bool = False,
    playable: bool = False,
) -> Reading:
    """Score ``candidates`` against ``table`` (see :class:`Reading`).

    ``game`` gives the per-spot counts of the game being played (Portes when
    None; a Plakoto point may hold both colours, P3); ``hints`` (and the best
    candidate) say which colour is pinned where the reading has one of each. ``conserve``: the free
    reading is the best one keeping 15 checkers a colour when the per-spot argmax is one or two off
    (a checker missed at a fair confidence); ``min_confidence`` is then the posterior of the counts
    kept, and a spot where one was put back is never sure. ``playable``: the free reading is one a game
    reaches: no checker in a side's trays while it reads checkers outside its home board (:func:`_kept`;
    a game joined in progress, ``setup_check``).
    """
    if not candidates:
        raise ValueError("read() needs at least one candidate position")
    pairs = [game_spot_counts(p, light_is_white, game) for p in candidates]
    light = np.stack([a for a, _ in pairs])
    dark = np.stack([b for _, b in pairs])
    scores = table.score(light, dark)
    order = np.argsort(-scores)
    best = int(order[0])
    margin = float(scores[best] - scores[order[1]]) if len(order) > 1 else math.inf
    gap = max(0.0, table.conserving() - float(scores[best]))
    blind = list(table.blind)
    # what vision cannot read is what the best candidate says
    homes = playable and not _one_way_round(game)
    free_l = _kept(table.light, blind, light[best], conserve, LIGHT_HOME if homes else None)
    free_d = _kept(table.dark, blind, dark[best], conserve, DARK_HOME if homes else None)
    fl = tuple(int(x) for x in free_l)
    fd = tuple(int(x) for x in free_d)
    diff_mask = (light[best] != free_l) | (dark[best] != free_d)
    differing = tuple(int(i) for i in np.flatnonzero(diff_mask))
    idx = np.asarray(differing, dtype=np.int64)
    conf = 1.0
    if differing:  # how sure the evidence is of the count read there (the argmax's posterior, or less)
        conf = float(table.posterior(free_l, free_d)[idx].min())
    stable = 0
    for fl_, fd_ in reversed(table.frame_argmax):
        if (fl_[idx] == free_l[idx]).all() and (fd_[idx] == free_d[idx]).all():
            stable += 1
        else:
            break
    return Reading(
        best=best,
        scores=tuple(float(s) for s in scores),
        margin=margin,
        gap=gap,
        free_light=fl,
        free_dark=fd,
        free=counts_to_position(fl, fd, turn, light_is_white) if game is None
        else game.counts_to_position(fl, fd, turn, light_is_white, (*hints, candidates[best])),
        differing=differing,
        min_confidence=conf,
        stable_frames=stable,
    )
