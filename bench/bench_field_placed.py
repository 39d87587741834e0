"""What placing the found field's edges (``fieldfit.placed``) changes on the real photos: the field and the reading.

``locate_field`` finds the field by the points' fit, which comes out a few % too tall on the
recordings (``bench_field_corners.py``); ``fieldfit.placed`` moves its top and bottom edges onto the
points' bases. This bench reads each labelled real photo (and, with ``--variants``, the same photos
as other cameras take them, ``tests/vision/_variants.py``) twice, as ``tavli-pi read IMAGE`` does
(``read_photo.photo_calibration`` and ``read_observation``): with the field ``locate_field`` returns
and with that field placed. Per photo where anything differs: each field's corners against the
labelled ones (worst / mean px, ``bench_field_corners.corner_errors``), the reading's score
(``score_real``: wrong spots, hand, dice), the calibration's source (a start position learnt, or
not), and the set-up margin: the spots where the start position read by the checkers' rings alone
(``calibrate.shows_start``'s reading) differs from the start, against ``setup.KNOWN_MISFIT`` -- the
photo is learnt from only within it. Totals per set as ``bench_vision.py --real`` prints them.

Run it where ``locate_field`` does not place (main): the "found" field is then the finder's own.

    .venv/bin/python bench/bench_field_placed.py [--variants "turned round,slanted"] [--only bcv-test3.jpg]
"""

from __future__ import annotations

import argparse
import contextlib
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bench_field_corners import corner_errors  # noqa: E402
from bench.bench_vision import REAL  # noqa: E402


@contextlib.contextmanager
def field_given(corners: np.ndarray) -> Iterator[None]:
    """``calibrate.locate_field`` returns ``corners`` (source "found") while inside: the photo is
    calibrated and read exactly as with a field found there."""
    from tavli_pi.vision import calibrate

    keep = calibrate.locate_field
    calibrate.locate_field = lambda image: (np.asarray(corners, np.float32), "found")  # type: ignore[assignment]
    try:
        yield
    finally:
        calibrate.locate_field = keep  # type: ignore[assignment]


def setup_misfits(image: np.ndarray, corners: np.ndarray) -> int | None:
    """The spots (points and bar) where the start position, learnt from ``image`` at ``corners``
    and read by the rings alone as ``calibrate.shows_start`` reads it, differs from the start;
    None where the picture does not read as the start (no home side learnt, or no board)."""
    from tavli_pi.errors import CalibrationError
    from tavli_pi.vision.home import learn_home
    from tavli_pi.vision.reader import BoardReader
    from tavli_pi.vision.setup import learn_board, setup_agreement

    try:
        learnt = learn_board(image, learn_home(np.asarray(corners, np.float32), image, source="found"))
    except CalibrationError:
        return None
    obs = BoardReader(learnt.with_(background=""), still_photo=True, hide=False).read(image)
    return sum(spot != "off" for spot, _, _ in setup_agreement(obs).differences)


def reading(frame: Any, corners: np.ndarray) -> dict[str, Any]:
    from tavli_pi.commands.read_photo import photo_calibration, read_observation
    from tests.vision._eval import score_real

    with field_given(corners):
        cal, learnt = photo_calibration(frame.image)
    obs = read_observation(frame.image, cal, learnt)
    sc = score_real(frame, obs, 0.025 * max(frame.image.shape[:2]))
    worst, mean = corner_errors(corners, np.asarray(frame.label["corners"], np.float64))
    return {"sc": sc, "hand": obs.hand, "source": cal.source, "worst": worst, "mean": mean,
            "misfits": setup_misfits(frame.image, corners)}


def _line(r: dict[str, Any], truth_hand: bool) -> str:
    sc = r["sc"]
    errs = f"{sc.spot_errors[:3]}{' ...' if len(sc.spot_errors) > 3 else ''}"
    start = "" if r["misfits"] is None else f"; start misfits {r['misfits']}"
    return (f"corners {r['worst']:.1f}/{r['mean']:.1f} px; errors {errs} hand {r['hand']}/{truth_hand} "
            f"dice {sc.dice_right}/{sc.dice_legible} false {sc.dice_false}; {r['source']}{start}")


def run(frames: list[Any], tag: str) -> None:
    from tavli_pi.errors import CalibrationError
    from tavli_pi.vision.calibrate import locate_field
    from tavli_pi.vision.fieldfit import placed
    from tavli_pi.vision.setup import KNOWN_MISFIT

    tot = {k: {"perfect": 0, "complete": 0, "wrong": 0, "sure": 0, "hand": 0, "dice": 0, "legible": 0, "false": 0,
               "worst": []} for k in ("found", "placed")}
    lines = []
    for f in frames:
        try:
            found, _ = locate_field(f.image)
        except CalibrationError:
            lines.append(f"  {f.name}: no board found")
            continue
        fields = {"found": found, "placed": placed(f.image, found)}
        rs = {k: reading(f, q) for k, q in fields.items()}
        for k, r in rs.items():
            sc, t = r["sc"], tot[k]
            t["perfect"] += bool(sc.perfect)
            t["complete"] += sc.perfect is not None
            t["wrong"] += len(sc.spot_errors)
            t["sure"] += sc.confident_wrong
            t["hand"] += r["hand"] == f.label["hand"]
            t["dice"] += sc.dice_right
            t["legible"] += sc.dice_legible
            t["false"] += sc.dice_false
            t["worst"].append(r["worst"])
        a, b = (_line(rs[k], f.label["hand"]) for k in ("found", "placed"))
        lines.append(f"  {f.name}: found  {a}")
        lines.append(f"  {' ' * len(f.name)}  placed {b}" if b.split(";", 1)[1] != a.split(";", 1)[1]
                     else f"  {' ' * len(f.name)}  placed corners {rs['placed']['worst']:.1f}/{rs['placed']['mean']:.1f} px; reads alike")
    print(f"real boards{tag} (start misfits tolerated: {KNOWN_MISFIT})")
    print("\n".join(lines))
    for k, t in tot.items():
        w = np.asarray(t["worst"]) if t["worst"] else np.zeros(1)
        print(f"  {k}: perfect {t['perfect']}/{t['complete']}; wrong spots {t['wrong']} (sure {t['sure']}); "
              f"hand right {t['hand']}/{len(t['worst'])}; dice {t['dice']}/{t['legible']}, false {t['false']}; "
              f"worst corner median {np.median(w):.1f} px, largest {w.max():.1f} px")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--variants", default="", help="variant names, comma-separated ('as is': the photos themselves)")
    ap.add_argument("--only", default="", help="photo names, comma-separated")
    a = ap.parse_args()
    cv2.setNumThreads(1)
    from tests.vision._eval import real_frames
    from tests.vision._variants import variant_frames

    frames = real_frames(REAL)
    if a.only:
        frames = [f for f in frames if f.name in a.only.split(",")]
    for name in [n.strip() for n in (a.variants or "as is").split(",") if n.strip()]:
        run(frames if name == "as is" else variant_frames(frames, name), "" if name == "as is" else f" [{name}]")


if __name__ == "__main__":
    main()
