"""Count likelihoods for every point's stack and the bar (the trays: ``trays.py``).

Each spot is a *chain* of slots traced from its base (``checkers.trace_chains``):
a point's base is the field edge, the bar's two halves start at the field's
middle (light checkers below it, dark above, as on a tournament board).

Up to about six checkers lie in a row, each fully visible: slot k is
occupied with probability ``p_k`` (a logistic in the slot's ring features,
fitted on simulated boards) and the count hypothesis n (with a colour c)
explains the slots as "first n occupied, the rest empty":

    log L(n, c) = sum_{k<n} [log p_k + log P(colour_k = c)] + sum_{k>=n} log (1 - p_k)

A taller stack is squeezed into the point, each checker overlapping the
last; only the base-side rim of each shows, evenly spaced between the first
and the last (fully visible) checker. For those, hypotheses n = 6..15 place
n rims between the two ends and are scored by how well rims sit at the
predicted places and not half-way between them. The two families are mixed
by how much the first slot looks like an overlapped checker. The last checker is the best ring
searched beyond the first, or the best one at least ``END_GAP`` beyond it: a last checker in a
band's shade rings less than the one it overlaps, and the stack counted to the wrong one is one
short, so the counts are read from either end (each end's hypotheses weighed by its ring, and an
end with a fully visible checker beyond it held unlikely).

A row of five touching checkers spans what a squeezed stack does, and a squeezed
9 or 13 puts rims where its checkers' rims are: where touching checkers of one
colour ring faintly (pearl on pearl), the slots fail and that harmonic won. The
row is scored as the squeezed stacks are, by contrast: every one of its rims
(the faintest) against the half-way places, with its first checker in slot 0.

With a learnt board (``Calibration.background``) each searched slot's p_k comes instead from the
slot model against the board learnt at set-up and its re-reads (``setup_slots.py``). Where the spots
stand and a slot's ring fit (``SLOTS``, ``spot_geometry``, ``slot_probability``): ``spot_slots.py``.

Likelihoods are tempered and floored: when the evidence is ambiguous the
probability spreads over the plausible counts instead of betting on one.
"""

from __future__ import annotations

import dataclasses

import cv2
import numpy as np

from tavli_pi.vision import captions
from tavli_pi.vision import checkers as ck
from tavli_pi.vision import setup_slots
from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.held_colours import held_pair
from tavli_pi.vision.layout import Layout
from tavli_pi.vision.lighting import slot_colours
from tavli_pi.vision.observation import MAX_COUNT, CountEvidence, SpotEvidence
from tavli_pi.vision.overhang import MEASURE, edge_offsets, edge_shifts, per_point
from tavli_pi.vision.pinned import pinned_loglik, posterior_with_pins
from tavli_pi.vision.ring_memo import RingMemo
from tavli_pi.vision.setup_slots import (CHANGE, HELD_OCCUPIED, STILL_MARGIN, TYPICAL, SetupView, _caption_seen_bgr,
                                         _held, _learnt_colour, _occupancy, known_slots, setup_view)
from tavli_pi.vision.spot_slots import SLOT_B, SLOT_W, SLOTS, slot_probability, spot_geometry
from tavli_pi.vision.straight_edges import flatten, learnt_edges
from tavli_pi.vision.tallstack import period_loglik

__all__ = [
    "spot_chains",
    "band_edges_learnt",
    "chain_evidence",
    "chain_loglik",
    "squeezed_loglik",
    "ROW_FIT",
    "posterior",
    "spread_evidence",
    "read_spots",
    "read_spots_pinned",
    "sureness",
    "chain_loglik_many",
    "posterior_many",
    "ZERO",
]


#: the floor added to every count probability before normalising
FLOOR = 1e-3
#: likelihood tempering (below 1 spreads probability over the plausible counts)
TEMPER = 0.7


def spread_evidence(n: float, sigma: float, floor: float = 0.002) -> CountEvidence:
    """A count distribution centred on a continuous estimate ``n``."""
    k = np.arange(MAX_COUNT + 1, dtype=np.float64)
    p = np.exp(-0.5 * ((k - n) / max(sigma, 1e-3)) ** 2) + floor
    p /= p.sum()
    return CountEvidence(tuple(float(v) for v in p))


def _evidence(p: np.ndarray) -> CountEvidence:
    p = np.asarray(p, np.float64) + FLOOR
    p /= p.sum()
    return CountEvidence(tuple(float(v) for v in p))


ZERO = _evidence(np.eye(MAX_COUNT + 1)[0])


def spot_chains(
    g: ck.Gradients,
    integral: np.ndarray,
    lay: Layout,
    cal: Calibration,
    slots: int = SLOTS,
    stop: bool = False,
    cols: np.ndarray | None = None,
    memo: RingMemo | None = None,
    shift: np.ndarray | None = None,
    moved: bool = False,
) -> ck.Chains:
    """The 26 chains (24 points, the bar's two halves) traced ``slots`` deep.

    ``stop``: leave a chain after two plainly empty slots in a row (see
    ``checkers.trace_chains``); what the reader does every frame.
    ``cols``: only these of the 26 chains, in this order (each is traced on its own).
    ``memo``: ring samples kept per spot (vision/ring_memo.py).
    ``shift`` (26,): each chain's slot-0 window reaches so many radii nearer the base (``moved``: is
    moved by them; ``checkers.trace_chains``).
    """
    x, base, sign, r = spot_geometry(lay, cal)
    if cols is not None:
        x, base, sign, r = x[cols], base[cols], sign[cols], r[cols]
        shift = None if shift is None else shift[cols]
    # points start at the field edge; the bar's halves at the middle (a checker may sit on it)
    return ck.trace_chains(g, integral, x, base, sign, r, slots, empty=_plainly_empty if stop else None,
                           memo=memo, ids=np.arange(26) if cols is None else np.asarray(cols), shift=shift,
                           moved=moved)


#: a slot whose occupancy logit is below this (p < 1 %) is plainly empty
EMPTY_LOGIT = -4.6


def _plainly_empty(feats: np.ndarray) -> np.ndarray:
    return np.asarray(feats @ SLOT_W + SLOT_B < EMPTY_LOGIT)


def _log(p: np.ndarray) -> np.ndarray:
    return np.asarray(np.log(np.clip(p, 1e-4, 1 - 1e-4)))


def chain_loglik(p_occ: np.ndarray, p_lt: np.ndarray) -> np.ndarray:
    """log L(n, colour) for n = 0..K slots of one chain: shape (2, K + 1), row 0 light, 1 dark.

    ``p_occ`` and ``p_lt`` are per slot: occupied, and light given occupied.
    n = 0 is counted once (in the light row; the dark row holds -inf).
    """
    K = len(p_occ)
    occ = np.concatenate([[0.0], np.cumsum(_log(p_occ))])
    emp = np.concatenate([np.cumsum(_log(1 - p_occ)[::-1])[::-1], [0.0]])
    cl = np.concatenate([[0.0], np.cumsum(_log(p_lt))])
    cd = np.concatenate([[0.0], np.cumsum(_log(1 - p_lt))])
    logl = np.stack([occ + emp + cl, occ + emp + cd])
    logl[1, 0] = -np.inf
    return logl


def posterior(logl: np.ndarray, counts: np.ndarray, temper: float = TEMPER) -> tuple[np.ndarray, np.ndarray]:
    """(light, dark) count distributions from log-likelihoods (2, H) of hypotheses with ``counts`` (H,)."""
    z = logl * temper
    z = z - z[np.isfinite(z)].max()
    post = np.exp(z)
    post /= post.sum()
    light = np.zeros(MAX_COUNT + 1)
    dark = np.zeros(MAX_COUNT + 1)
    c = np.minimum(counts, MAX_COUNT)
    np.add.at(light, c, post[0])
    np.add.at(dark, c, post[1])  # (its n = 0 entry is empty: "nothing here" is the light row's)
    # a light stack means no dark checker there, and the other way round
    light[0] += post[1].sum()
    dark[0] += post[0].sum()
    return light, dark


def chain_evidence(p_occ: np.ndarray, p_lt: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """(light, dark) count distributions over 0..MAX_COUNT for one chain alone."""
    return posterior(chain_loglik(p_occ, p_lt), np.arange(len(p_occ) + 1))


#: the checkers of a row that spans what a squeezed stack does (first to last fully visible
#: checker, 4 diameters): its rims, one a diameter, stand out from the half-way places where a
#: squeezed stack of 9 or 13 puts rims too, so the touching row is told from its harmonics
ROW_FIT = 5


def squeezed_loglik(
    g: ck.Gradients,
    integral: np.ndarray,
    ch: ck.Chains,
    base: np.ndarray,
    sign: np.ndarray,
    r: np.ndarray,
    light_bgr: tuple[float, float, float],
    dark_bgr: tuple[float, float, float],
    memo: RingMemo | None = None,
    ids: np.ndarray | None = None,
    held: np.ndarray | None = None,
    rims: ck.Gradients | None = None,
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Rim contrast for squeezed stacks n = 6..15 on each column (ENDS, C, 10), the last checker's
    ring logit (ENDS, C), its distance from the base (ENDS, C) and the rim contrast of a row of five
    touching checkers between slot 0 and the first end (C,; see ``ROW_FIT``).

    The first checker is the chain's slot 0; the last (fully visible) one is
    searched 6-10 radii further on; n checkers lie evenly between them, and
    the base-side rim of each must show at its place and not half-way to the next.
    Two ends are kept (``ENDS``): the best ring in the search, and the best one at least ``END_GAP``
    beyond it (a last checker in a band's shadow rings less than the one it overlaps, whose tip
    side it hides: which of the two ends the stack is the counts say, each n-1 or n; ring logit
    -30 where there is none). A ring before the best one is no end: it is a checker of the stack.
    ``memo`` and ``ids`` (each column's spot): see ``checkers.ring_features``.
    ``held`` (C,): columns whose first slot is read occupied (against the board learnt at set-up)
    are looked at even where the chain stopped early: a squeezed stack's first checker is half
    hidden by the second, so its ring and the next slot's can both look plainly empty at a row's
    pitch (pearl checkers, a club board).
    ``rims``: the gradients the rims between the ends are read from (a band's straight edges taken
    out, ``straight_edges.flatten``; sampled afresh, not kept in ``memo``), else ``g``.
    """
    C = len(base)
    out = np.full((ENDS, C, 10), -1.0)
    row = np.full(C, -1.0)
    lz = np.full((ENDS, C), -30.0, np.float32)
    d_last = np.zeros((ENDS, C), np.float32)
    # a chain that stopped after two plainly empty slots holds nothing, squeezed or not
    look = np.arange(C) if ch.searched is None else np.flatnonzero(
        (ch.searched[:C] > 2) | (False if held is None else held[:C]))
    if len(look) == 0:
        return out, lz, d_last, row
    n_look = len(look)
    bl, sl, rl = base[look], sign[look], r[look]
    down = (sl > 0)[:, None, None]
    x0, fy = ch.x[look, 0], ch.y[look, 0]
    d0 = (fy - bl) * sl
    dd = np.linspace(6.0, 10.0, 25, dtype=np.float32)
    offs = np.linspace(-0.3, 0.3, 3, dtype=np.float32)
    d = d0[:, None] + dd[None, :] * rl[:, None]
    cy = np.broadcast_to((bl[:, None] + sl[:, None] * d)[:, :, None], (n_look, len(dd), 3))
    cx = np.broadcast_to((x0[:, None] + offs[None, :] * rl[:, None])[:, None, :], cy.shape)
    rr = np.broadcast_to(rl[:, None, None], cy.shape)
    f = ck.ring_features(g, cx, cy, rr, down, memo, None if ids is None else ids[look])
    z_last = f @ SLOT_W + SLOT_B
    ci = np.arange(n_look)
    first = -1
    for e in range(ENDS):
        if e:  # the other end: the best ring at least END_GAP beyond the first along the stack (a ring
            # before the best one is a checker inside the stack: the best one, fully seen, lies beyond it)
            z_last = np.where((dd[None, :] - dd[first][:, None])[:, :, None] >= END_GAP, z_last, -np.inf)
        flat = z_last.reshape(n_look, -1).argmax(axis=1)
        iy, ix = np.unravel_index(flat, z_last.shape[1:])
        first = iy if e == 0 else first
        lx, ly = cx[ci, iy, ix], cy[ci, iy, ix]
        lz[e, look] = np.maximum(z_last.reshape(n_look, -1)[ci, flat], -30.0)
        d_last[e, look] = (ly - bl) * sl
        # only columns with a far, fully visible checker can hold a squeezed stack
        keep = np.flatnonzero(lz[e, look] > -3.0)
        if len(keep) == 0:
            continue
        live = look[keep]
        # a squeezed stack's first checker is half hidden by the second, so the chain's slot 0 places it
        # loosely: where it lies along the stack (FIRST_SLIDE, each as likely, within FIRST_REACH of the
        # base) is summed out of the rims' likelihood (a contrast whose likelihood is the mean over the
        # places)
        acc = np.full((len(keep), 10), -np.inf)
        places = np.zeros(len(keep))
        for slide in FIRST_SLIDE:
            inside = (d0[keep] / rl[keep] + slide <= FIRST_REACH) | (slide == 0.0)
            if not inside.any():
                continue  # (no column's first checker can lie this far: its rims are not sampled)
            at, row_s = _rim_contrast(g if rims is None else rims, x0[keep], fy[keep] + sl[keep] * slide * rl[keep],
                                      lx[keep], ly[keep], rl[keep], down[keep, :, 0], memo if rims is None else None,
                                      None if ids is None or rims is not None else ids[live])
            if slide == 0.0:
                row_e = row_s
            acc = np.where(inside[:, None], np.logaddexp(acc, RIM_GAIN * at), acc)
            places += inside
        out[e, live] = (acc - np.log(places)[:, None]) / RIM_GAIN
        if e == 0:
            row[live] = row_e
    return out, lz, d_last, row


#: where a squeezed stack's first checker may lie, in radii along the stack from the chain's slot 0
#: (see squeezed_loglik): the slot lies up to a third of a radius short of a half-hidden first checker
#: (real-like game 152: 0.75 r from the base, the checker at 1.05 r), and on real-like squeezed
#: stacks of six the rims fit best with the first 0.3-0.6 r beyond slot 0 (1.3-1.5 r from the base;
#: 0.6 r beside 0.3 r: seed 0 58 spots wrong and 1649 right at >= 0.9 against 60 / 1590)
FIRST_SLIDE = (0.0, 0.3, 0.6)
#: but no further than this from the base, in radii: the first checker lies against the field's edge
#: (its centre ~1 r in; slot 0 is searched 0.75-1.6 r in). A place beyond it is no first checker: on
#: the WTC board (frame0, point 13) a row of four separate metal-rimmed checkers, its weakly ringed
#: first one found at 1.29 r, fitted a squeezed six from 1.89 r (the board read 17 dark checkers)
FIRST_REACH = 1.7
#: squeezed stacks' ends kept per column (see squeezed_loglik)
ENDS = 2
#: the least distance, in radii, between the two ends kept (rims of a squeezed 15 lie 0.57 r apart,
#: of a 6 1.6 r: the second end is another checker, not the same ring found again)
END_GAP = 1.0


def _rim_contrast(
    g: ck.Gradients, x0: np.ndarray, fy: np.ndarray, lx: np.ndarray, ly: np.ndarray, r: np.ndarray,
    down: np.ndarray, memo: RingMemo | None, ids: np.ndarray | None,
) -> tuple[np.ndarray, np.ndarray]:
    """(L, 10) rim contrast of n = 6..15 checkers between each column's first checker (x0, fy) and a
    last one (lx, ly), and (L,) that of a row of ``ROW_FIT`` touching checkers between the same ends."""
    # rims: n = 5..15 -> fractions k/(n-1) (k = 1..n-2) and midpoints (k + 0.5)/(n-1),
    # all hypotheses' places sampled in one go
    # (each distinct place once: ``_RIM_PLACES``, spread back to every hypothesis' by ``_RIM_OF`` into a
    # C-ordered array, as ``ring_features`` makes it: the means below add up in the same order)
    px = x0[:, None] + (lx - x0)[:, None] * _RIM_PLACES[None, :]
    py = fy[:, None] + (ly - fy)[:, None] * _RIM_PLACES[None, :]
    f = np.take(ck.ring_features(g, px, py, np.broadcast_to(r[:, None], px.shape), down, memo, ids), _RIM_OF, axis=1)
    # a row of ROW_FIT touching checkers between the same two ends: every one of its rims (the
    # faintest) against its half-way places (two checkers and a far disc are no row)
    at = 2 * ROW_FIT - 3
    h = f[:, :at, 3]
    a, b = h[:, : ROW_FIT - 2].min(axis=1), _row_means(h[:, ROW_FIT - 2 :])
    row = (a - b) / (a + b + 0.05)
    out = np.full((len(x0), 10), -1.0)
    for j, n in enumerate(range(6, 16)):
        fj = f[:, at : at + 2 * n - 3]
        at += 2 * n - 3
        h = fj[..., 3]
        rims, mids = h[:, : n - 2], h[:, n - 2 :]
        # rims must stand out from the half-way places (contrast, so faint rims count too),
        # and each checker's tip side must be hidden (a row of separate checkers shows it)
        a, b = _row_means(rims), _row_means(mids)
        t = _row_means(fj[:, : n - 2, 4])
        out[:, j] = np.minimum((a - b) / (a + b + 0.05), (a - t) / (a + t + 0.05))
    return out, row


def _row_means(a: np.ndarray) -> np.ndarray:
    """``a.mean(axis=1)`` of a 2-D float array, the same values without ``mean``'s dispatch (issue 12):
    numpy's mean is the same sum (``np.add.reduce``) over the count, an ``intp`` it divides float32
    sums by in float64 into float32; here a float32 sum over a Python int is divided in float32. The
    two agree: a float64 quotient rounded again to float32 is the correctly rounded float32 one."""
    out: np.ndarray = np.add.reduce(a, axis=1) / a.shape[1]
    return out


#: per count n: the rims' places k/(n-1) (k = 1..n-2), then the midpoints (k + 0.5)/(n-1)
#: (n = 5: the row of five touching checkers; 6..15: squeezed stacks)
_RIM_FRACTIONS = {n: np.r_[np.arange(1, n - 1), np.arange(n - 1) + 0.5] / (n - 1) for n in range(ROW_FIT, 16)}
#: the distinct fractions of every count's (``_RIM_FRACTIONS``, n = ``ROW_FIT``..15, in turn), and where
#: each of those lies among them: ``_rim_contrast`` samples a place once however many counts share it
#: (187 places, 127 distinct; issue 12). The same place to the bit: a fraction is a quotient of whole
#: or half numbers, correctly rounded, so two of one value (2/4 and 3/6) are one float64, which
#: ``np.unique`` merges, and a place's ring features are its own, whatever is sampled beside it
_RIM_PLACES, _RIM_OF = np.unique(np.concatenate([_RIM_FRACTIONS[n] for n in range(ROW_FIT, 16)]),
                                 return_inverse=True)


#: log-likelihood per unit of rim contrast (see squeezed_loglik)
RIM_GAIN = 16.0
#: log prior of a squeezed stack against a row of separate checkers
SQUEEZE_PRIOR = -8.0


def read_spots(
    canon: np.ndarray, g: ck.Gradients, lay: Layout, cal: Calibration, integral: np.ndarray | None = None
) -> tuple[list[SpotEvidence], SpotEvidence, list[tuple[float, float, float]]]:
    """Evidence for the 24 points (light numbering) and the bar, and the checkers' discs (x, y, r)."""
    points, bar, sites, _pins = read_spots_pinned(canon, g, lay, cal, integral)
    return points, bar, sites


#: whether a band's straight edges learnt at set-up are taken out of the rings (read_spots_pinned)
BAND_EDGES = True
#: ... a point's first slot's ring read from the gradients without them (kept at the lesser ring), where
#: the learnt position filled that slot (``_first_rings_from``)
BAND_FIRST = True
#: ... and a squeezed stack's rims (off: on real-like seed 0 frames it put 174 p6 right and read
#: 166 p14's six dark checkers as one and a phantom on 174 p4, as leaving out a caption's letters did)
BAND_RIMS = False


def read_spots_pinned(
    canon: np.ndarray, g: ck.Gradients, lay: Layout, cal: Calibration, integral: np.ndarray | None = None,
    only: set[int] | None = None, site_columns: list[int] | None = None, setup: SetupView | None = None,
    rings: list[float] | None = None, memo: RingMemo | None = None,
) -> tuple[list[SpotEvidence], SpotEvidence, list[tuple[float, float, float]], tuple[int, ...]]:
    """:func:`read_spots` and, per point, the pinned checker's colour (+1 light, -1 dark, 0 none; P3).

    Evidence for the 24 points (light numbering) and the bar, and the checkers' discs (x, y, r).

    All 24 points are scored at once (arrays over points x hypotheses);
    ``integral`` (cv2.integral of ``canon``) may be passed in when already made.

    ``only`` (the incremental reader, vision/incremental.py): read just these points (0-23) and the
    bar; points, sites and pins then follow ``sorted(only)``. Each point is read on its own, so
    a point's reading is the same read alone or with the others. ``site_columns``, when given, is
    filled with each site's spot (0-23 a point, 24-25 the bar's halves). ``setup``: this frame's
    ``setup_view``, when the caller has made it. ``rings``, when given, is filled with each point's
    first-slot ring in the order of ``points`` (what ``doubt.first_rings`` gives: slot 0 of a chain
    is searched alike however deep the chain is traced). ``memo``: ring samples kept per spot
    (vision/ring_memo.py; the reader's).

    An edge whose first checkers overhang the field's edge (``vision/overhang.py``) has its points'
    slot-0 window reach nearer the base by the overhang (``checkers.trace_chains``): the overhang
    learnt at set-up (``Calibration.overhang``), else this photo's, measured from its sure first
    checkers. The window reaches further than it did without the overhang and the places it searched
    stay, so a checker seated where the geometry puts it is found as before. A point on such an edge
    still read unsure is read again with the window moved by the overhang, and the surer of its two
    readings kept.

    A broadcast band's straight edges across the field, found in the board learnt at set-up
    (``straight_edges.learnt_edges``), ring no more where a band's edge is taken for a rim: the
    first slot of a point the learnt position filled is read from the gradients with the gradient
    across them taken out (``straight_edges.flatten``; ``BAND_EDGES``, ``BAND_FIRST``). The chains
    are traced as before (a checker's rim along the edge keeps what else of it rings).
    """
    if integral is None:
        integral = cv2_integral(canon)
    band: ck.Gradients | None = None
    if BAND_EDGES and cal.background and band_edges_learnt(cal):
        r = float(np.median(spot_geometry(lay, cal)[3][:24]))
        edges = list(learnt_edges(cal.background, lay, r, canon.shape[:2]))
        band = flatten(g, edges, r) if edges else None
    cols: list[int] = []
    ring: list[float] = []
    shift = (learnt_shifts(lay, cal, cal.overhang) if cal.overhang is not None
             else overhang_shifts(g, integral, lay, cal))
    points, bar, sites, pins = _read_spots_once(canon, g, lay, cal, integral, only, cols, setup, ring, memo,
                                                shift, band=band)
    which = list(range(24)) if only is None else sorted(only)
    # a point still unsure is read again with its window moved by the overhang (its places too): a
    # stack whose first checker rang a little nearer the base in the reaching window may have had its
    # next slot searched past the checker; the surer of the two readings is kept
    again = {p for p, ev in zip(which, points) if sureness(ev) < UNSURE and shift[p] != 0.0}
    if again:
        cols2: list[int] = []
        ring2: list[float] = []
        got, _bar, got_sites, got_pins = _read_spots_once(canon, g, lay, cal, integral, again, cols2, setup, ring2,
                                                          memo, shift, moved=True)
        pins_l = list(pins)
        for q, p in enumerate(sorted(again)):
            i = which.index(p)
            if sureness(got[q]) <= sureness(points[i]):
                continue
            points[i], pins_l[i], ring[i] = got[q], got_pins[q], ring2[q]
            keep = [k for k, c in enumerate(cols) if c != p]
            sites = [sites[k] for k in keep] + [st for st, c in zip(got_sites, cols2) if c == p]
            cols = [cols[k] for k in keep] + [c for c in cols2 if c == p]
        pins = tuple(pins_l)
    if site_columns is not None:
        site_columns[:] = cols
    if rings is not None:
        rings[:] = ring
    return points, bar, sites, pins


#: a point read with its likelier colour's count below this confidence is read again with its
#: edge's slot-0 window moved by the overhang (vision/overhang.py)
UNSURE = 0.9


def sureness(ev: SpotEvidence) -> float:
    """How sure a spot's reading is (a point's, the trays'): the lower of its two colours' confidences."""
    return min(ev.light.confidence, ev.dark.confidence)


#: the first slots' measuring window searched at so many offsets of its steps (``_first_slots``)
MEASURE_SUB = 3


def _first_slots(g: ck.Gradients, integral: np.ndarray, lay: Layout, cal: Calibration
                 ) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The 24 points' first slots searched in the wide ``overhang.MEASURE`` window: where each was
    found (radii from the base), how likely it holds a checker, and whether its edge is the top one."""
    x, base, sign, r = (a[:24] for a in spot_geometry(lay, cal))
    best_d = best_p = best_s = np.zeros(0)
    for k in range(MEASURE_SUB):
        # the window's steps offset by a share of a step: a finer search, so an edge's offset moves
        # smoothly with the field rather than in whole steps
        o = (MEASURE[1] - MEASURE[0]) / 11 * k / MEASURE_SUB
        ch = ck.trace_chains(g, integral, x, base, sign, r, 1, first=(MEASURE[0] + o, MEASURE[1] + o))
        score = ck.place_score(ch.feats[:, 0])  # as trace_chains chooses
        d, p = (ch.y[:, 0] - base) * sign / r, slot_probability(ch)[:, 0]
        if k == 0:
            best_d, best_p, best_s = d, p, score
            continue
        better = score > best_s
        best_d, best_p, best_s = np.where(better, d, best_d), np.where(better, p, best_p), np.maximum(score, best_s)
    return best_d, best_p, sign > 0


def overhang_shifts(g: ck.Gradients, integral: np.ndarray, lay: Layout, cal: Calibration) -> np.ndarray:
    """(26,) radii each spot's slot-0 window moves by: each edge's offset learnt from this frame's sure
    first checkers (``overhang.edge_shifts``); the bar's halves never move."""
    return np.concatenate([edge_shifts(*_first_slots(g, integral, lay, cal)), np.zeros(2, np.float32)])


def learnt_shifts(lay: Layout, cal: Calibration, overhang: tuple[float, float]) -> np.ndarray:
    """(26,) radii each spot's slot-0 window reaches nearer the base with a learnt ``Calibration.overhang``."""
    sign = spot_geometry(lay, cal)[2][:24]
    return np.concatenate([per_point(overhang, sign > 0), np.zeros(2, np.float32)])


def edge_overhang(canon: np.ndarray, lay: Layout, cal: Calibration, occupied: np.ndarray) -> tuple[float, float]:
    """The (top edge, bottom edge) offsets of ``Calibration.overhang``, learnt from ``canon``, a view of
    a known position whose points ``occupied`` (24,) hold checkers (``setup.learn_board``): only their
    first slots count."""
    d, p, top = _first_slots(ck.gradients(canon), cv2_integral(canon), lay, cal)
    a, b = edge_offsets(d, np.where(occupied, p, 0.0), top)
    return round(a, 3), round(b, 3)


def band_edges_learnt(cal: Calibration) -> bool:
    """Whether a band's straight edges may be learnt from ``cal``'s board: only from a board learnt as
    the start position (``cal.position`` None or the start). ``straight_edges.find_edges`` cannot tell
    a band's edge from a row of checkers touching at one height across neighbouring points, which the
    start has none of; a board joined mid-game is learnt with its checkers in it (``setup.learn_board``),
    and its rows rang as edges (``bench_video.py --seed 7 --size 640 --from-play 4 --rolled``, game 2:
    the tangents of the first checkers on points 1-6, learnt as a band's edge across them; with the
    first slots read without it, point 21 emptied read a light checker and black's play was lost)."""
    return cal.position is None or cal.position.is_start


def _first_rings_from(band: ck.Gradients, ch: ck.Chains, lay: Layout, cal: Calibration, cols: np.ndarray) -> ck.Chains:
    """``ch`` with each point's first slot's ring read again from ``band`` (the gradients with a
    band's straight edges taken out) where the learnt position filled it: the bare base of a point
    between a band's edge, the frame and the point's sides rings like a rim no more (real-like
    frames 199 point 19, 106 point 8). A point the learnt position left bare, and the bar, keep
    their ring (see below)."""
    _x, _base, sign, r = (a[cols] for a in spot_geometry(lay, cal))
    feats = ch.feats.copy()
    flat = ck.ring_features(band, ch.x[:, 0], ch.y[:, 0], r, sign > 0)
    # only ever less of a ring: a straight crossing taken out leaves the rest of the ring more even
    # (its 25th / 75th percentile ratio higher), which on a bare point rang a phantom (frame 88 p19)
    lower = flat @ SLOT_W + SLOT_B < feats[:, 0] @ SLOT_W + SLOT_B
    # only where the learnt position filled the first slot: where it was bare the set-up view holds
    # the band's edge across the bare point and judges the slot against it (setup_slots), and the
    # line taken out there only lost a checker's rim along it (real-like frame 79 points 2, 5: a
    # checker under the band, its rim tangent to the edge); nor on the bar's halves, whose first
    # checkers' rims run along a band across the field's middle (frames 45, 50, 149: bars missed)
    lower &= known_slots(cal)[cols, 0] & (cols < 24)
    feats[:, 0] = np.where(lower[:, None], flat, feats[:, 0])
    return dataclasses.replace(ch, feats=feats)


def _read_spots_once(
    canon: np.ndarray, g: ck.Gradients, lay: Layout, cal: Calibration, integral: np.ndarray,
    only: set[int] | None, site_columns: list[int], setup: SetupView | None, rings: list[float],
    memo: RingMemo | None, shift: np.ndarray | None = None, moved: bool = False, band: ck.Gradients | None = None,
) -> tuple[list[SpotEvidence], SpotEvidence, list[tuple[float, float, float]], tuple[int, ...]]:
    """One reading of ``read_spots_pinned`` with each spot's slot-0 window reaching ``shift`` (26,)
    radii nearer the base (None: not at all; ``moved``: moved by them). ``band``: ``g`` with a band's
    straight edges taken out, the first slots' rings and the squeezed stacks' rims read from it."""
    cols = np.arange(26) if only is None else np.r_[np.asarray(sorted(only), np.int64), 24, 25]
    P = len(cols) - 2  # points read
    ch = spot_chains(g, integral, lay, cal, stop=True, cols=None if only is None else cols, memo=memo, shift=shift,
                     moved=moved)
    if band is not None and BAND_FIRST:
        ch = _first_rings_from(band, ch, lay, cal, cols)
    # (``setup_slots.SETUP_W`` read at the call: a bench or a test that zeroes it reads by the rings alone)
    view = (setup if setup is not None else setup_view(canon, lay, cal)) if setup_slots.SETUP_W.any() else None
    p_occ, feats = _occupancy(canon, g, lay, cal, ch, cols, only is None, view)
    if feats is not None:
        # a chain stopped after two slots that rang plainly empty, its last one read holding a checker
        # against the board learnt at set-up: traced on to its end and read again (``ON_STOPPED``)
        on = _stopped_short(ch, p_occ, P)
        if len(on):
            ch = _traced_on(ch, g, integral, lay, cal, cols, on, memo, shift, moved)
            if band is not None and BAND_FIRST:  # the chains traced again, their first slots too
                ch = _first_rings_from(band, ch, lay, cal, cols)
            p_occ, feats = _occupancy(canon, g, lay, cal, ch, cols, only is None, view)
    # each slot's two checker colours where it lies: the board's lighting as learnt (vision/lighting.py);
    # a slot the learnt position filled, against that checker as the set-up view shows it
    # (vision/held_colours.py)
    x, base, sign, r = (a[cols] for a in spot_geometry(lay, cal))
    known_held = _held(cal, cols, ch.x.shape[1]) if view is not None else None
    held = None
    if known_held is not None:
        # only a slot that now looks like a checker is read against the checker seen there: under a
        # broadcast band a checker of either colour looks much like the learnt one did (real-like seed
        # 0 frame 96: a dark checker under a band where a light one stood, read at 0.09, was read light)
        held = np.where(p_occ >= HELD_OCCUPIED, known_held, 0).astype(np.int8)
    if view is not None and held is not None:  # (mypy: a held colour is known only with a view)
        # the bar's slots (the last two columns read), read against the pair as lit there, under a
        # caption's letters: by what they leave seen (every slot so read: the frame set's points lost
        # 3 spots, 95 -> 98 wrong, bench_reallike.py --frames 200)
        on_bar = np.zeros(held.shape, bool)
        on_bar[-2:] = True
        # -- but only against a light reading (captions.lift_undone: real-like game 139)
        pair = held_pair(*slot_colours(cal, ch.x, ch.y), _learnt_colour(cal, view, ch.x, ch.y, r[:, None]), held)
        p_lt = ck.p_light(ch.bgr, *pair)
        bgr = _caption_seen_bgr(cal, view, ch, cols, on_bar & (held == 0))
        if bgr is not ch.bgr:
            p_lt = captions.lift_undone(p_lt, ck.p_light(bgr, *pair))
    else:
        p_lt = ck.p_light(ch.bgr, *slot_colours(cal, ch.x, ch.y))
    sq_ends, lz_ends, d_ends, row = squeezed_loglik(g, integral, ch, base[:P], sign[:P], r[:P], cal.light_bgr,
                                                    cal.dark_bgr, memo, cols[:P], held=p_occ[:P, 0] > 0.1,
                                                    rims=band if BAND_RIMS else None)
    if view is not None and feats is not None:
        # judged only where the board is as it was at set-up there (a stack grown since, squeezed past
        # where its chain's slots were traced, is left to its rings)
        changed = feats[:, : p_occ.shape[1], CHANGE] - feats[:, : p_occ.shape[1], TYPICAL] >= STILL_MARGIN
        lz_ends = _ends_judged(lz_ends, d_ends, ch, p_occ, known_slots(cal)[cols][:, : p_occ.shape[1]] | changed,
                               base, sign, r, P)
    # the first end (the best ring) serves the chain, the row and the colour; the squeezed counts are
    # read from either end (below)
    lz, d_last = lz_ends[0], d_ends[0]
    counts = np.r_[np.arange(SLOTS + 1), np.arange(6, 16), ROW_FIT]
    p_ends = 1.0 / (1.0 + np.exp(-np.clip(lz_ends, -30, 30)))
    p_last = p_ends[0]
    last_xy = _last_xy(ch, base, sign, d_last)
    if view is not None and known_held is not None:
        # the last checker lies in a slot the learnt position filled when its stack reached it then
        k_last = np.clip(np.rint((d_last / r[:P] - 1.0) / 2.0).astype(np.int64), 0, known_held.shape[1] - 1)
        held_last = np.where(p_last >= HELD_OCCUPIED, known_held[np.arange(P), k_last], 0)
        lt_last = ck.p_light(ck.box_means(integral, *last_xy, 0.42 * r[:P]),
                             *held_pair(*slot_colours(cal, *last_xy),
                                        _learnt_colour(cal, view, *last_xy, r[:P]), held_last))
    else:
        lt_last = ck.p_light(ck.box_means(integral, *last_xy, 0.42 * r[:P]), *slot_colours(cal, *last_xy))
    chain = chain_loglik_many(p_occ[:P], p_lt[:P])  # (P, 2, SLOTS + 1)
    # a row of n separate checkers leaves a far, fully visible checker unexplained
    d_chain = np.concatenate([np.zeros((P, 1)), (ch.y[:P] - base[:P, None]) * sign[:P, None]], axis=1)
    far = d_last[:, None] > d_chain + 1.5 * r[:P, None]
    chain += np.where(far, _log(1 - p_last)[:, None], 0.0)[:, None, :]
    colour = np.stack(
        [_log(lt_last) + _log(p_lt[:P, 0]), _log(1 - lt_last) + _log(1 - p_lt[:P, 0])], axis=1
    )  # (P, 2)
    # the first checker lies against the field's edge: its centre one radius in
    y_first = base[:P] + sign[:P] * r[:P]
    fams = []
    for e in range(ENDS):
        # tall stacks (13-15): the rims' period along the stack (vision/tallstack.py)
        lx, ly = _last_xy(ch, base, sign, d_ends[e])
        tall = (lz_ends[e] > -3.0) & (d_ends[e] >= 5.0 * r[:P])
        period = period_loglik(canon, ch.x[:P, 0], y_first, lx, ly, tall)
        # a stack ends at its last checker: the chain's slots beyond it are empty, and no fully
        # visible checker (the other end) lies beyond it
        ends_e = _log(1 - p_occ[:P]) * (d_chain[:, 1:] > d_ends[e][:, None] + 1.5 * r[:P, None])
        beyond_e = ends_e.sum(axis=1) + sum(
            np.where((lz_ends[o] > -3.0) & (d_ends[o] > d_ends[e]), _log(1 - p_ends[o]), 0.0)
            for o in range(ENDS) if o != e)
        if e == 0:
            beyond = beyond_e
        fams.append(RIM_GAIN * sq_ends[e][:, None, :] + period[:, None, :]
                    + (_log(p_ends[e]) + SQUEEZE_PRIOR + beyond_e)[:, None, None] + colour[:, :, None])
    # either end may be the stack's (each is a hypothesis of its own; an end not found weighs nothing)
    fam = np.stack(fams)
    squeezed = np.logaddexp.reduce(fam, axis=0)
    end_of = np.argmax(fam.max(axis=(2, 3)), axis=0)  # (P,) the end the likelier counts use
    # a row of ROW_FIT touching checkers from the first (the chain's slot 0) to the last: the checkers
    # between them by their rims' contrast, as a squeezed stack's (faint rims of touching checkers of
    # one colour count too), no surer than slots read occupied (a log-likelihood of at most 0)
    between = np.minimum(RIM_GAIN * row + SQUEEZE_PRIOR, 0.0)
    touching = (between + _log(p_occ[:P, 0]) + _log(p_last) + beyond)[:, None, None] + colour[:, :, None]
    # Plakoto: a pinned checker under the other colour's (vision/pinned.py, RULES-TAVLI.md P3)
    pin_l = pinned_loglik(p_occ[:P], p_lt[:P]) + np.where(far, _log(1 - p_last)[:, None], 0.0)[:, None, :]
    lt, dk, pins = posterior_with_pins(np.concatenate([chain, squeezed, touching], axis=2), counts, pin_l, TEMPER)
    points = [SpotEvidence(a, b) for a, b in zip(_evidence_many(lt), _evidence_many(dk))]
    # bar: light below the middle, dark above (either colour allowed in either half)
    blt, bdk = posterior_many(chain_loglik_many(p_occ[P:], p_lt[P:]), np.arange(SLOTS + 1))
    bar = SpotEvidence(
        _evidence(np.convolve(blt[0], blt[1])[: MAX_COUNT + 1]),
        _evidence(np.convolve(bdk[0], bdk[1])[: MAX_COUNT + 1]),
    )
    ii, kk = np.nonzero(p_occ > 0.5)
    sites = [(float(ch.x[i, k]), float(ch.y[i, k]), float(r[i])) for i, k in zip(ii, kk)]
    squeezed_at: list[int] = []
    ends = np.arange(P)
    sites += _squeezed_sites(points, ch, base, sign, r, lz_ends[end_of, ends], d_ends[end_of, ends], squeezed_at)
    site_columns[:] = [int(cols[i]) for i in (*ii, *squeezed_at)]
    rings[:] = ch.full[:P, 0].tolist()
    return points, bar, sites, tuple(int(v) for v in pins)


#: a point's chain stops after two slots in a row that ring plainly empty (``_plainly_empty``); with a
#: board learnt at set-up, one whose last slot searched the set-up slot model reads at least this
#: likely to hold a checker is traced on (``_traced_on``): dark checkers on a black point ring faintly,
#: and the model read them (real-like seed 0 frame 184, beech at 1280 px: point 3's four dark checkers,
#: slots 1 and 2 read at 0.84 and 0.67 by the model and plainly empty by their ring, the fourth never
#: searched: read three, and the board balanced against its trays put the fourth on an empty point)
ON_STOPPED = 0.5


def _stopped_short(ch: ck.Chains, p_occ: np.ndarray, P: int) -> np.ndarray:
    """The rows among the first ``P`` (the points read) whose chain stopped before its last slot, the last
    slot it searched read holding a checker (``ON_STOPPED``)."""
    if ch.searched is None:
        return np.zeros(0, np.int64)
    depth = np.asarray(ch.searched[:P], np.int64)
    short = depth < ch.x.shape[1]
    last = p_occ[np.arange(P), np.maximum(depth - 1, 0)]
    return np.flatnonzero(short & (depth > 0) & (last >= ON_STOPPED))


def _traced_on(ch: ck.Chains, g: ck.Gradients, integral: np.ndarray, lay: Layout, cal: Calibration,
               cols: np.ndarray, rows: np.ndarray, memo: RingMemo | None, shift: np.ndarray | None,
               moved: bool) -> ck.Chains:
    """``ch`` with the chains of ``rows`` (of spots ``cols``) traced again to their end, not stopped: the
    slots searched before are found again where they were (each slot is searched from the one before it),
    the later ones searched too."""
    again = spot_chains(g, integral, lay, cal, stop=False, cols=np.asarray(cols)[rows], memo=memo,
                        shift=shift, moved=moved)
    x, y, feats, bgr = ch.x.copy(), ch.y.copy(), ch.feats.copy(), ch.bgr.copy()
    x[rows], y[rows], feats[rows], bgr[rows] = again.x, again.y, again.feats, again.bgr
    searched = None if ch.searched is None else ch.searched.copy()
    if searched is not None:
        searched[rows] = ch.x.shape[1]
    return ck.Chains(x, y, feats, bgr, searched)


def _ends_judged(lz_ends: np.ndarray, d_ends: np.ndarray, ch: ck.Chains, p_occ: np.ndarray, filled: np.ndarray,
                 base: np.ndarray, sign: np.ndarray, r: np.ndarray, P: int) -> np.ndarray:
    """``lz_ends`` (ENDS, P) with each end that lies within a radius of searched slots the learnt
    position left empty no likelier than the set-up slot model holds the likeliest of them: a ring
    there that rang alike on the set-up board (a print, a caption's loop) and has not changed is the
    board's, not a last checker (real-like seed 1 table 36, the set-up board seen again: point 8's
    light 3 read 5, a ring on the empty board beyond it taken for the stack's fully visible end).
    ``filled``: the slots not to judge by (filled at set-up, or changed since)."""
    K = p_occ.shape[1]
    depth = ch.searched[:P] if ch.searched is not None else np.full(P, K)
    d_slot = (ch.y[:P] - base[:P, None]) * sign[:P, None]
    empty = (np.arange(K)[None, :] < depth[:, None]) & ~filled[:P, :K]
    out = lz_ends.copy()
    for e in range(len(lz_ends)):
        within = np.abs(d_slot - d_ends[e][:, None]) <= r[:P, None]
        near = empty & within
        # a slot filled at set-up (or changed since) near the end: leave the end to its ring
        near_filled = within & filled[:P, :K]
        judged = near.any(axis=1) & ~near_filled.any(axis=1)
        p_near = np.clip(np.where(near, p_occ[:P], 0.0).max(axis=1), 1e-6, 1 - 1e-6)
        out[e] = np.where(judged, np.minimum(lz_ends[e], np.log(p_near / (1 - p_near))), lz_ends[e])
    return out


def _squeezed_sites(
    points: list[SpotEvidence],
    ch: ck.Chains,
    base: np.ndarray,
    sign: np.ndarray,
    r: np.ndarray,
    lz: np.ndarray,
    d_last: np.ndarray,
    columns: list[int] | None = None,
) -> list[tuple[float, float, float]]:
    """Discs of the checkers in stacks read as squeezed (n >= 6): evenly from the first to the last.

    The chain's slots do not sit on a squeezed stack's checkers, so without
    these the dice finder would take the overlapped checkers for dice.
    """
    out: list[tuple[float, float, float]] = []
    lx, ly = _last_xy(ch, base, sign, d_last)
    for i, ev in enumerate(points):
        n = max(ev.light.best, ev.dark.best)
        if n < 6 or lz[i] <= -3.0:
            continue
        x0, y0 = float(ch.x[i, 0]), float(ch.y[i, 0])
        for k in range(n):
            t = k / (n - 1)
            out.append((x0 + (float(lx[i]) - x0) * t, y0 + (float(ly[i]) - y0) * t, float(r[i])))
            if columns is not None:
                columns.append(i)
    return out


def chain_loglik_many(p_occ: np.ndarray, p_lt: np.ndarray) -> np.ndarray:
    """``chain_loglik`` for C chains at once: (C, K) slot probabilities -> (C, 2, K + 1)."""
    C = p_occ.shape[0]
    z = np.zeros((C, 1))
    occ = np.concatenate([z, np.cumsum(_log(p_occ), axis=1)], axis=1)
    emp = np.concatenate([np.cumsum(_log(1 - p_occ)[:, ::-1], axis=1)[:, ::-1], z], axis=1)
    cl = np.concatenate([z, np.cumsum(_log(p_lt), axis=1)], axis=1)
    cd = np.concatenate([z, np.cumsum(_log(1 - p_lt), axis=1)], axis=1)
    logl = np.stack([occ + emp + cl, occ + emp + cd], axis=1)
    logl[:, 1, 0] = -np.inf
    return logl


def posterior_many(logl: np.ndarray, counts: np.ndarray, temper: float = TEMPER) -> tuple[np.ndarray, np.ndarray]:
    """``posterior`` for C spots at once: (C, 2, H) -> (light, dark), each (C, MAX_COUNT + 1)."""
    z = logl * temper
    top = np.where(np.isfinite(z), z, -np.inf).max(axis=(1, 2))
    post = np.exp(z - top[:, None, None])
    post /= post.sum(axis=(1, 2))[:, None, None]
    onehot = np.zeros((len(counts), MAX_COUNT + 1))
    onehot[np.arange(len(counts)), np.minimum(counts, MAX_COUNT)] = 1.0
    light = post[:, 0] @ onehot
    dark = post[:, 1] @ onehot  # (its n = 0 entry is empty: "nothing here" is the light row's)
    # a light stack means no dark checker there, and the other way round
    light[:, 0] += post[:, 1].sum(axis=1)
    dark[:, 0] += post[:, 0].sum(axis=1)
    return light, dark


def _evidence_many(p: np.ndarray) -> list[CountEvidence]:
    q = np.asarray(p, np.float64) + FLOOR
    q /= q.sum(axis=1, keepdims=True)
    return [CountEvidence(tuple(row)) for row in q.tolist()]


def _last_xy(ch: ck.Chains, base: np.ndarray, sign: np.ndarray, d_last: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    C = len(d_last)
    return ch.x[:C, 0], base[:C] + sign[:C] * d_last


def cv2_integral(canon: np.ndarray) -> np.ndarray:
    """The colour integral image for fast box means (``checkers.box_means``): OpenCV's own int32 sums
    of a uint8 image while no sum can overflow them (any canonical view), else float64. Box sums of
    whole numbers are exact either way, so the means are the same."""
    if canon.dtype == np.uint8 and canon.shape[0] * canon.shape[1] * 255 < 2**31 // 4:
        return np.asarray(cv2.integral(canon))
    return np.asarray(cv2.integral(canon), np.float64)
