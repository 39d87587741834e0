"""A hand or arm over the board in a single photo, with nothing learnt about the board.

Skin colour alone does not tell a hand from a red point or a wooden field. What
does: a hand over the board belongs to an arm, and the arm comes from outside
the field. So a hand here is a skin-coloured region that lies over the field
*and* runs on across the field's edge into the frame beyond it, on a side
where the frame itself is not skin-coloured (points end at the field's edge;
a wooden frame is skin-coloured all along and tells nothing). A board whose
frame is skin-coloured on every side needs its set-up calibration, where a
hand is a change from the learnt board instead.

An arm in a sleeve shows no skin over the frame: the hand ends at the
field's edge, the wrist at the frame. So a skin region also counts that
touches the field's edge beside a frame band that is not skin-coloured, is
solid (a hand, not the lattice of a pattern), meets that edge along
``WRIST`` point pitches in one run and spans at least ``BROAD`` pitches
both along the edge and into the field: nothing of the board does that --
a point's base is one pitch wide and skin-coloured points alternate with
points of another colour, a strip along the frame is thin, a skin-coloured
field is larger than ``MAX_IN``, and checkers are explained.

In the photo's own skin colour, a region that runs on into the frame must also be ``CORE``
point pitches across somewhere over the field: a palm or a forearm is, a point never is
(skin-coloured points may join a stretch of the frame that looks like skin, and cross into it as
an arm would). And it must cross the frame band in one run at least ``WRIST`` pitches wide along
it, as a wrist or forearm does: the field's skin-coloured margin running into streaks beyond the
field's edge (a picture's border filled with its own edge drawn out, the field running off the
picture) crosses it in broken runs under a pitch wide. Skin new since set-up needs no such test:
the points were learnt.

A bare forearm across a skin-coloured (wooden) frame joins the frame's skin, so the regions
above are the frame and all that touches it. Within the field alone, a region that meets
such a side along ``WRIST`` pitches, holds the ``CORE`` disc and meets no other side is a
hand reaching in (``over_skin_frame``): a skin-coloured field or band runs to other sides.
"""

from __future__ import annotations

import cv2
import numpy as np

from tavli_pi.vision.hands import SCALE, shrink, skin_view
from tavli_pi.vision.layout import Layout
from tavli_pi.vision.white_balance import balanced

__all__ = ["photo_hand", "across_frame", "over_skin_frame", "FRAME_SKIN"]

#: a frame band more skin-coloured than this (share of its pixels) is the board's own colour
FRAME_SKIN = 0.35
#: the least share of the field a hand covers
MIN_IN = 0.004
#: the most: a skin-coloured region over most of the field is the field (leather, wood)
MAX_IN = 0.45
#: the least share of a frame band the arm crossing it covers
MIN_OUT = 0.03
#: a hand whose arm is in a sleeve spans at least this many point pitches each way
BROAD = 2.0
#: and fills at least this share of its convex hull
SOLID = 0.7
#: and meets the field's edge (the wrist) along at least this many pitches in one run; in the
#: photo's own skin colour an arm crossing the frame crosses its band so wide in one run too (the
#: WTC arms 1.5-6 pitches; streaks of a field's edge drawn out beyond it 0.6-0.7)
WRIST = 1.25
#: a hand or arm over the field is this many point pitches across somewhere (the widest disc in
#: it: the WTC 2022 arms 1.1-2.5); a point is one pitch wide at its base and holds a disc of
#: about 0.9 (a wedge five times as long as wide), so skin-coloured points joined to a
#: skin-coloured stretch of the frame are never a hand
CORE = 1.0
#: a sleeve crossing the frame is this many point pitches wide there (least, most): at least a
#: wrist's (``WRIST``), wider than a point's base -- with corners given 40 px off the band lies on
#: the field, and a red point running in from it was taken for a sleeve (0.8: 4 false hands on the
#: real photos so)
SLEEVE = (1.25, 3.5)
#: a field more skin-coloured than this beside a region (share of its pixels) is skin-coloured
#: itself, and a region on it tells nothing: the points cover about half the field and at most
#: half of them (one colour) are skin-coloured
FIELD_SKIN = 0.25
#: quarter-scale pixels along the field's edges that may show the frame (the corners are rounded
#: to the quarter-scale grid): a region is judged on the field within them
EDGE_BLEED = 2
#: Lab distance (8-bit OpenCV Lab) from the frame's colour of something lying on the frame
FOREIGN_DE = 40.0
#: the sleeve goes on this many pitches into the field, straight in from the edge
REACH = 1.5
#: over at least this share of that strip, within FOREIGN_DE / 2 of its colour on the frame
SAME = 0.8


def photo_hand(canon: np.ndarray, lay: Layout, small: np.ndarray | None = None, skin: np.ndarray | None = None,
               explained: np.ndarray | None = None) -> tuple[bool, float, np.ndarray]:
    """(hand over the board?, share of the field it covers, its quarter-scale mask).

    ``small``: ``shrink(canon)`` when the caller has made it already. ``skin``:
    the skin mask to look in (quarter scale; by default the photo's own skin
    colour, ``skin_view`` of ``small`` under its own light made neutral,
    ``white_balance.balanced``, as the sleeve tests' colours are); with a set-up calibration, the skin that is
    new since the board was learnt (``hands.new_skin``), so a skin-coloured
    frame, point or broadcast band that was there at set-up is never an arm.
    ``explained``: quarter-scale bool mask of what checkers explain
    (``hands_explained``): the region's part over the field counts outside it.
    """
    own = skin is None  # the photo's own skin colour: skin-coloured points look like skin too
    if skin is None:
        # once: the sleeve across the frame looks at it too; under the photo's own light made neutral
        # (a warm lamp makes a cream field skin-coloured, a dim room takes skin out of the range)
        small = balanced(shrink(canon) if small is None else small)
        skin = skin_view(small)
    skin = skin > 0
    h, w = skin.shape
    x0, y0, x1, y1 = _field_box(lay)
    by, bx = max(2, int(0.05 * (y1 - y0))), max(2, int(0.05 * (x1 - x0)))
    bands = {
        "top": (slice(max(0, y0 - by), max(0, y0 - 1)), slice(x0, x1)),
        "bottom": (slice(min(h, y1 + 1), min(h, y1 + by)), slice(x0, x1)),
        "left": (slice(y0, y1), slice(max(0, x0 - bx), max(0, x0 - 1))),
        "right": (slice(y0, y1), slice(min(w, x1 + 1), min(w, x1 + bx))),
    }
    n, labels = cv2.connectedComponents(skin.astype(np.uint8), connectivity=8)
    field = labels[y0:y1, x0:x1]
    if explained is not None and explained.shape == skin.shape:
        field = np.where(explained[y0:y1, x0:x1], 0, field)
    area = float(max(1, field.size))
    hand = np.zeros((h, w), bool)
    pitch = float(np.median([c.width for c in lay.columns])) / SCALE
    core = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (max(3, int(round(CORE * pitch)) | 1),) * 2)
    framed = _frame_regions(labels, bands)
    for name, (ys, xs) in bands.items():
        band = labels[ys, xs]
        if band.size == 0:
            continue
        ids, counts = np.unique(band[band > 0], return_counts=True)
        for i, c in zip(ids, counts):
            if int(i) in framed:
                continue
            inside = float((field == i).sum())
            others = float(((band > 0) & (band != i)).sum()) / band.size
            if MIN_IN * area <= inside <= MAX_IN * area and c >= MIN_OUT * band.size and others < FRAME_SKIN \
                    and c < (1.0 - FRAME_SKIN) * band.size \
                    and (not own or (_broad(field == i, core) and _crossing(band == i, name) >= WRIST * pitch)):
                hand |= labels == i
    for i in _sleeved(field, labels, bands, pitch, area):
        hand |= labels == i
    if own:
        assert small is not None
        lab = cv2.cvtColor(small, cv2.COLOR_BGR2LAB).astype(np.float32)  # once, for both tests
        hand |= across_frame(lab, lay, bands, pitch)
        b0, b1 = (int(v / SCALE) - x0 for v in lay.bar_x)
        hand[y0:y1, x0:x1] |= over_skin_frame(skin[y0:y1, x0:x1] & (field > 0), lab[y0:y1, x0:x1], labels, bands,
                                              pitch, core, (max(0, b0), max(0, b1 + 1)))
    share = float((hand[y0:y1, x0:x1] & (field > 0)).sum()) / area
    return bool(hand.any()), share, hand


def _frame_regions(labels: np.ndarray, bands: dict[str, tuple[slice, slice]]) -> set[int]:
    """Labels of the skin regions that are a skin-coloured (wooden) frame: each covers more than
    ``1 - FRAME_SKIN`` of some side's frame band. An arm crosses a band over a wrist's or a
    sleeve's width (``SLEEVE``), never along a whole side; a region that runs along one is the
    frame, and where it also touches a side that is not skin-coloured (a thin frame with the table
    beyond it) that tells nothing (a beech board's wood, frame, bar and field in one region, was a
    hand on every clear frame before set-up). A bare arm joined to such a frame is
    ``over_skin_frame``'s."""
    out: set[int] = set()
    for ys, xs in bands.values():
        band = labels[ys, xs]
        if band.size == 0:
            continue
        ids, counts = np.unique(band[band > 0], return_counts=True)
        out |= {int(i) for i, c in zip(ids, counts) if c >= (1.0 - FRAME_SKIN) * band.size}
    return out


def _sleeved(field: np.ndarray, labels: np.ndarray, bands: dict[str, tuple[slice, slice]], pitch: float,
             area: float) -> list[int]:
    """Labels of the skin regions that are a hand at the field's edge with its arm in a sleeve:
    meeting an edge whose frame band is not skin-coloured along ``WRIST`` pitches, solid, and
    ``BROAD`` pitches each way."""
    fh, fw = field.shape
    if fh == 0 or fw == 0:
        return []
    edges = {"top": field[0], "bottom": field[fh - 1], "left": field[:, 0], "right": field[:, fw - 1]}
    found: list[int] = []
    for i in np.unique(field[field > 0]):
        own = field == i
        inside = float(own.sum())
        if not MIN_IN * area <= inside <= MAX_IN * area:
            continue
        ys, xs = np.nonzero(own)
        if min(int(np.ptp(xs)), int(np.ptp(ys))) + 1 < BROAD * pitch:
            continue
        hull = cv2.contourArea(cv2.convexHull(np.column_stack([xs, ys]).astype(np.int32)))
        if inside < SOLID * hull:
            continue
        for name, edge in edges.items():
            band = labels[bands[name]]
            if band.size and _run(edge == i) >= WRIST * pitch and float((band > 0).mean()) < FRAME_SKIN:
                found.append(int(i))
                break
    return found


def _field_box(lay: Layout) -> tuple[int, int, int, int]:
    """The field's box on the quarter-scale view: x0, y0, x1, y1."""
    x0, y0 = int((lay.mx + lay.u0 * lay.field_w) / SCALE), int(lay.top_y / SCALE)
    x1, y1 = int((lay.mx + lay.u1 * lay.field_w) / SCALE), int(lay.bottom_y / SCALE)
    return x0, y0, x1, y1


def across_frame(lab: np.ndarray, lay: Layout, bands: dict[str, tuple[slice, slice]],
                 pitch: float) -> np.ndarray:
    """Quarter-scale mask of a sleeve lying across the frame into the field (empty: none).
    ``lab``: the quarter-scale view in 8-bit OpenCV Lab (float32).

    Along each side, the frame band's colour (the mean across the band at each place along it)
    is the frame's own (its median) but where something lies on it: a run ``SLEEVE`` pitches
    long of a colour ``FOREIGN_DE`` from the frame's, with the frame on both sides, and unlike
    every side's own colour (a tray's lining, the frame between two trays). It is an arm's sleeve when the same
    uniform colour goes on into the field ``REACH`` pitches straight in from the edge over the
    run's middle: a cup or a die on the frame is round and shorter, lettering is thin, a
    translucent broadcast band over the field shows the points through it, and checkers
    stand within the field and start no run on the frame."""
    h, w = lab.shape[:2]
    x0, y0, x1, y1 = _field_box(lay)
    reach = max(2, int(round(REACH * pitch)))
    out = np.zeros((h, w), bool)
    alongs = {name: (lab[ys, xs].mean(axis=0) if name in ("top", "bottom") else lab[ys, xs].mean(axis=1))
              for name, (ys, xs) in bands.items() if lab[ys, xs].size}
    frames = {name: np.median(along, axis=0) for name, along in alongs.items()}  # each side's own colour
    for name, along in alongs.items():
        ys, xs = bands[name]
        foreign = np.linalg.norm(along - frames[name], axis=1) > FOREIGN_DE
        start = xs.start if name in ("top", "bottom") else ys.start
        for a, b in _runs(foreign):
            # on the frame, with the frame on both sides of it (a shadow's or the table's edge at a
            # corner is not), and of no side's own colour (a frame's cross-piece between two trays)
            if not SLEEVE[0] * pitch <= b - a <= SLEEVE[1] * pitch or a == 0 or b == len(along):
                continue
            colour = along[a:b].mean(axis=0)
            if min(float(np.linalg.norm(colour - f)) for f in frames.values()) <= FOREIGN_DE:
                continue
            m0, m1 = start + a + (b - a) // 3, start + b - (b - a) // 3
            inside = {"top": (slice(y0, y0 + reach), slice(m0, m1)),
                      "bottom": (slice(y1 - reach, y1), slice(m0, m1)),
                      "left": (slice(m0, m1), slice(x0, x0 + reach)),
                      "right": (slice(m0, m1), slice(x1 - reach, x1))}[name]
            strip = lab[inside]
            if strip.size == 0:
                continue
            like = np.linalg.norm(strip - colour, axis=-1) < FOREIGN_DE / 2
            if float(like.mean()) >= SAME:
                along_slice = slice(start + a, start + b)
                out[(ys, along_slice) if name in ("top", "bottom") else (along_slice, xs)] = True
                out[inside] |= like
    return out


def over_skin_frame(field: np.ndarray, lab: np.ndarray, labels: np.ndarray, bands: dict[str, tuple[slice, slice]],
                    pitch: float, core: np.ndarray, bar: tuple[int, int] = (0, 0)) -> np.ndarray:
    """Field-sized mask of a hand reaching in over a side whose frame is skin-coloured (empty: none).

    ``field``: the field's skin (quarter scale); ``lab``: the field's colours (8-bit Lab, same size).

    There the hand's skin joins the frame's, so the region the other tests look at is the frame
    and everything skin-coloured touching it. Within the field alone (``field``: its skin, what
    checkers explain left out) a hand is a region that meets that side's edge along ``WRIST``
    pitches in one run, holds the ``CORE`` disc (a palm; a point never does) and meets no other
    side: an arm comes from one side, while a skin-coloured field runs to every edge. The field
    beside it must not be skin-coloured itself (``FIELD_SKIN``): a skin-coloured field split by
    an overlay or a row of checkers leaves pieces meeting one side. ``bar``: the bar's columns
    (from, to; of ``field``): a region mostly there is the bar (wooden, broad, meeting the frame
    at both ends or, with a block across it, at one): a region there of the bar's own colour is
    the bar's wood."""
    out = np.zeros(field.shape, bool)
    m = EDGE_BLEED
    fh, fw = field.shape[0] - 2 * m, field.shape[1] - 2 * m
    if fh <= 0 or fw <= 0:
        return out
    off_bar = np.ones((fh, fw), bool)  # the field but the bar's columns
    off_bar[:, max(0, bar[0] - m):max(0, bar[1] - m)] = False
    n, own = cv2.connectedComponents(field[m:-m, m:-m].astype(np.uint8), connectivity=8)
    area = float(fh * fw)
    edges = {"top": own[0], "bottom": own[fh - 1], "left": own[:, 0], "right": own[:, fw - 1]}
    skin_sides = {name for name, (ys, xs) in bands.items()
                  if labels[ys, xs].size and float((labels[ys, xs] > 0).mean()) >= FRAME_SKIN}
    for i in range(1, n):
        region = own == i
        inside = float(region.sum())
        if not MIN_IN * area <= inside <= MAX_IN * area:
            continue
        met = [name for name, edge in edges.items() if _run(edge == i) >= 1]
        if len(met) != 1 or met[0] not in skin_sides or _run(edges[met[0]] == i) < WRIST * pitch:
            continue
        # the field beside it not skin-coloured itself, and the region not mostly the bar
        rest = float((own > 0).sum() - inside) / max(1.0, area - inside)
        if rest < FIELD_SKIN and _broad(region, core) and not _bar_coloured(lab[m:-m, m:-m], region, off_bar):
            out[m:-m, m:-m] |= region
    return out


def _bar_coloured(lab: np.ndarray, region: np.ndarray, off_bar: np.ndarray) -> bool:
    """Whether ``region``'s part on the bar is most of it and of the bar's own colour (within
    ``FOREIGN_DE`` of the median of the bar's pixels outside the region)."""
    on_bar = region & ~off_bar
    rest = ~off_bar & ~region
    if on_bar.sum() <= region.sum() / 2 or not rest.any():
        return False
    d = np.linalg.norm(np.median(lab[on_bar], axis=0) - np.median(lab[rest], axis=0))
    return bool(d <= FOREIGN_DE)


def _runs(on: np.ndarray) -> list[tuple[int, int]]:
    """(start, end) of each run of True in a 1-D bool array."""
    d = np.diff(np.concatenate([[0], on.astype(np.int8), [0]]))
    return list(zip(np.nonzero(d == 1)[0].tolist(), np.nonzero(d == -1)[0].tolist()))


def _broad(own: np.ndarray, core: np.ndarray) -> bool:
    """Whether the region ``own`` holds the disc ``core`` somewhere (``CORE`` point pitches
    across): a palm or a forearm does; a point, never wider than its base, does not."""
    return bool(cv2.erode(own.astype(np.uint8), core, borderType=cv2.BORDER_CONSTANT, borderValue=0).any())


def _crossing(own: np.ndarray, side: str) -> int:
    """How wide, along the frame band of ``side``, a region (``own``: its pixels in the band) crosses
    it in one run (band pixels): the longest run of places along the band where it lies on the band."""
    along: np.ndarray = np.any(own, axis=0 if side in ("top", "bottom") else 1)
    return _run(along)


def _run(on: np.ndarray) -> int:
    """Length of the longest run of True in a 1-D bool array."""
    best = cur = 0
    for v in on.tolist():
        cur = cur + 1 if v else 0
        best = max(best, cur)
    return best
