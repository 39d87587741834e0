"""A small die the pip search leaves unsure, read again by its face's pip templates (issue 9).

Under ``dice_vet.NEED_PX`` the search (``dice.find_dice``) loses a small face's middle and corner pips,
and ``dice_vet`` then withholds the value ("too small to read") or the search gives one under the 0.9 a
play is called on. ``dice_template.match_face`` reads such a face at the table's die size
(``dice_table_size.DieSizes``), rectified to the board. Its value is taken only when it is sure
(``FaceMatch.sure``: above every wrong read ``bench/bench_small_dice.py`` found over thousands of
real-like dice) and its pips' polarity is the table's (``PipPolarity``: all of a table's dice are
alike, and the dice the search read show whether their pips are darker or lighter than their face),
at ``TEMPLATE_CONFIDENCE``; otherwise the die is left as the search read it (no value, or a value
under 0.9: the referee asks rather than calls).

A face read at the table's size alone is sure only at a wide margin (``SURE_MARGIN``, 0.30), and a
9-10 px five or three in a video is read right at 0.12-0.26 (stop 51, ``bench_video.py --size 640``
game 7: its 5 at 0.12-0.14 on every frame it lay). What made the wrong reads above that was mostly the
size: a template drawn a pixel too large or small fits another face (the measure's wrong reads came
from sides 12 % off the true one), and the table's learnt size can be that far off (a 10 px die learnt
as 8.4 px). The same face read at the table's size and at ``SIDES`` of it, each with the table's
polarity, leading by ``AGREED_LEAD`` and by ``AGREED_MARGIN``, is taken too: a face a wrong size
conjured does not survive the sizes either side of it (``bench/bench_small_dice.py --sides``).
Adding up a still die's scores over the frames it lay was measured and dropped: its wrong reads held
on every frame (the same die, the same wrong size), and the mean margin cleared no lower gate.

A die the templates leave is also given the face ``dice_net``'s learnt model reads at the table's size
and at ``SIDES`` of it, each at ``dice_net.NET_SHARE`` or more (``dice_net.read_agreed``): it reads the
8-10 px fives and threes the templates read by 0.1-0.2 (stop 52: held-out simulated, video and shrunk
real dice in ``bench/bench_small_dice.py --sides --net`` and the report). Where the templates and the
model each read a face and differ, neither is taken; and a face the templates read is taken only where
the model's best face at the table's size, however unsure, is the same (``_net_reads``).
"""

from __future__ import annotations

import dataclasses
from collections import deque
from collections.abc import Sequence

import numpy as np

from tavli_pi.vision.calibration import Calibration
from tavli_pi.vision.dice import CLEAR
from tavli_pi.vision.dice_net import NET_SHARE, agreed_from, read_face
from tavli_pi.vision.dice_template import FaceMatch, face_axes, match_face
from tavli_pi.vision.dice_vet import NEED_PX
from tavli_pi.vision.observation import DieReading

__all__ = ["AGREED_LEAD", "AGREED_MARGIN", "SIDES", "TEMPLATE_CONFIDENCE", "PipPolarity", "agreeing", "either_face",
           "small_faces"]

#: the confidence a face read surely by its templates is given
TEMPLATE_CONFIDENCE = 0.91
#: the table's dice must show under this side (image px): the measure covered dice under 12 px ...
TABLE_UNDER = 12.0
#: ... and down to this side (bench/bench_small_dice.py's real-like dice, the smallest 7.6 px): a table's
#: dice smaller than that are never given a value (issue 9: "too small to read")
TABLE_LEAST = 7.5
#: a die the search read at this confidence or more shows the table's polarity
VOTE_CONFIDENCE = 0.85
#: the polarity of the last this many such dice is kept; it is known once ``VOTES_LEAST`` were, and
#: ``VOTES_AGREE`` of them agree
VOTES_KEPT = 12
VOTES_LEAST = 4
VOTES_AGREE = 0.8
#: the face is read again at these shares of the table's size: a value every one of them reads (with the
#: share 1's) at ``AGREED_LEAD`` and ``AGREED_MARGIN`` is taken (bench/bench_small_dice.py --sides)
SIDES = (0.88, 1.12)
AGREED_LEAD = 0.15
AGREED_MARGIN = 0.15


class PipPolarity:
    """Whether a table's pips are darker than its dice's faces, learnt from the dice a stream read."""

    __slots__ = ("_votes",)

    def __init__(self) -> None:
        self._votes: deque[bool] = deque(maxlen=VOTES_KEPT)

    def add(self, dice: Sequence[DieReading], image: np.ndarray, cal: Calibration, table_px: float) -> None:
        """Each small still flat die of ``dice`` the search read at ``VOTE_CONFIDENCE`` votes for the
        polarity under which its templates score its value higher (at ``table_px``, as ``small_faces``)."""
        if not TABLE_LEAST <= table_px < TABLE_UNDER:
            return
        for d in dice:
            if d.value and d.value_confidence >= VOTE_CONFIDENCE and _small_and_lying(d):
                axes = _axes(d, cal, table_px)
                dark, light = match_face(image, d.xy, axes, True), match_face(image, d.xy, axes, False)
                if dark is not None and light is not None and dark.scores[d.value] != light.scores[d.value]:
                    self._votes.append(dark.scores[d.value] > light.scores[d.value])

    def dark(self) -> bool | None:
        """True: the pips are darker than the face; False: lighter; None: not known."""
        if len(self._votes) < VOTES_LEAST:
            return None
        share = sum(self._votes) / len(self._votes)
        return True if share >= VOTES_AGREE else False if share <= 1 - VOTES_AGREE else None


def _small_and_lying(d: DieReading) -> bool:
    """Whether ``d`` is a small die (under ``NEED_PX``, measured) lying flat and still on the field."""
    return d.flat and not d.moving and not d.on_checker and 0 < d.size_px < NEED_PX


def _axes(d: DieReading, cal: Calibration, table_px: float) -> np.ndarray:
    canon = cal.to_canonical(np.asarray([d.xy], np.float32)).reshape(2)
    return face_axes(cal.to_image, (float(canon[0]), float(canon[1])), table_px)


def small_faces(dice: Sequence[DieReading], image: np.ndarray, cal: Calibration, table_px: float,
                dark: bool | None) -> list[DieReading]:
    """``dice`` (vetted, a stream's) with each small still flat die read under ``dice.CLEAR`` (at it a
    die is sure: the search's value stands) given its face's value where its templates read it surely,
    with the table's polarity. ``table_px``: the table's die size (image px across, ``DieSizes.typical``;
    0: not learnt, or outside the sizes measured, ``TABLE_LEAST``-``TABLE_UNDER``: nothing is read);
    ``dark``: the table's pips are darker than its faces (``PipPolarity.dark``; None: not known, and
    nothing is read)."""
    if not dice or not TABLE_LEAST <= table_px < TABLE_UNDER or dark is None:
        return list(dice)
    out: list[DieReading] = []
    for d in dice:
        if not _small_and_lying(d) or not d.lie_seen or d.value_confidence >= CLEAR:
            out.append(d)
            continue
        m = match_face(image, d.xy, _axes(d, cal, table_px))
        tmpl = m.value if m is not None and m.dark == dark and (m.sure or _agreed(m, d, image, cal, table_px)) else 0
        best, net = _net_reads(d, image, cal, table_px, dark)
        if tmpl and best != tmpl:
            tmpl = 0  # the model's best face at the table's size is another: the templates' is not sure
        value = either_face(tmpl, net)
        if value:
            d = dataclasses.replace(d, value=value, value_confidence=TEMPLATE_CONFIDENCE, note="")
        out.append(d)
    return out


def either_face(templates: int, net: int) -> int:
    """The face the templates read (``templates``) or the model (``net``; 0: none read), neither where both
    read one and they differ."""
    return 0 if templates and net and templates != net else templates or net


def _net_reads(d: DieReading, image: np.ndarray, cal: Calibration, table_px: float, dark: bool) -> tuple[int, int]:
    """What ``dice_net`` reads on ``d``: the face it reads best at the table's size, at any share (0: no
    read), and the value it reads there and at each of ``SIDES`` of it, each at ``NET_SHARE`` or more
    (0: not so read). The read at the table's size serves both (``dice_net.agreed_from``).

    A face the templates read, surely or alike at ``SIDES``, is taken only where the first is the same face:
    a real two (``dice/fudw``, blue with white pips) shrunk to 9 px was read a one by the templates at
    margin 0.34 (over ``SURE_MARGIN``), and a one at the sides either side, while the model read it a two
    (``bench/bench_real_small_dice.py``'s dice, stop 54). On those dice, 8-11 px, the test drops that one
    wrong read and 3 of 150 right ones on ``fudw`` (ones read alike at the sides, none read sure), none of
    84 on ``banachowicz``; the 200 real-like games and the 640 px clips: every game line unchanged."""
    axes = _axes(d, cal, table_px)
    first = read_face(image, d.xy, axes, dark)
    value, share = agreed_from(first, image, d.xy, axes, dark, SIDES)
    return (0 if first is None else first.value), (value if share >= NET_SHARE else 0)


def _agreed(m: FaceMatch, d: DieReading, image: np.ndarray, cal: Calibration, table_px: float) -> bool:
    """Whether ``m`` (``d``'s face at ``table_px``) and the face read at each of ``SIDES`` of it show
    one value, each with ``m``'s polarity, leading by ``AGREED_LEAD`` and ``AGREED_MARGIN``."""
    if not agreeing(m, m):
        return False
    for share in SIDES:
        other = match_face(image, d.xy, _axes(d, cal, table_px * share))
        if other is None or not agreeing(other, m):
            return False
    return True


def agreeing(got: FaceMatch, m: FaceMatch) -> bool:
    """Whether ``got`` shows ``m``'s value with its polarity, leading by ``AGREED_LEAD`` and ``AGREED_MARGIN``."""
    return (got.value == m.value and got.dark == m.dark and got.lead >= AGREED_LEAD
            and got.margin >= AGREED_MARGIN)
