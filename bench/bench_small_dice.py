"""Small dice read by face templates (issue 9, ``vision/dice_template.py``): right and wrong per margin band.

Run: .venv/bin/python bench/bench_small_dice.py [--scenes 3000] [--seed 0] [--under 12] [--factors 0.88,1,1.12]

Each real-like scene (``reallike_scenes``, rendered at 640x360 or 1280x720) is rendered; every true die
lying still and flat whose side is under ``--under`` px is read by ``dice_template.match_face`` at its
true centre moved up to ``--jitter`` px (a found die's centre is not exact) with the true side times each
of ``--factors`` (the table's learnt size is not exact either). The table counts, per margin band, the
dice read right and wrong, per factor and pooled, and for the reads whose polarity (pips darker or lighter)
led the other by ``SURE_LEAD``: a sure margin must have 0 wrong above it. ``--hands``: scenes with a hand too.

``--sides``: ``dice_small``'s rule instead -- each die read at each factor's side and at ``dice_small.SIDES``
of it too (one found centre), a value taken when the three agree with the table's true polarity, each
leading by a lead and a margin: right and wrong per lead and margin gate, and as ``small_faces`` takes them
(sure at the factor's side, or agreed at ``AGREED_LEAD``/``AGREED_MARGIN``).
"""

from __future__ import annotations

import argparse
import functools
import sys
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from tavli_pi.threads import pin_threads  # noqa: E402

pin_threads()

from tavli_pi.sim._boards import DESIGNS  # noqa: E402
from tavli_pi.sim.datasets import reallike_scenes  # noqa: E402
from tavli_pi.sim.render import render  # noqa: E402
from tavli_pi.vision.calibration import Calibration  # noqa: E402
import tavli_pi.vision.dice_template as dice_template  # noqa: E402
from tavli_pi.vision.dice_net import read_agreed  # noqa: E402
from tavli_pi.vision.dice_template import SURE_LEAD, SURE_MARGIN, face_axes, match_face  # noqa: E402

# every die here has its own side: keep more template sets than a stream (one table size) needs
dice_template._templates = functools.lru_cache(maxsize=256)(dice_template._templates.__wrapped__)  # type: ignore[assignment]

#: the margin bands of the table
BANDS = (0.0, 0.02, 0.04, 0.06, 0.08, 0.10, 0.12, 0.15, 0.20, 0.25, 0.30, 1.01)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    ap.add_argument("--scenes", type=int, default=3000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--under", type=float, default=12.0, help="dice under this side (px) only")
    ap.add_argument("--jitter", type=float, default=1.0, help="centre moved up to this (px) either way")
    ap.add_argument("--factors", default="0.88,1,1.12", help="the side read at: the true side times these")
    ap.add_argument("--hands", action="store_true", help="scenes with a hand over the board too (a die under it\n"
                    "is still in the truth, and a reader would not find it)")
    ap.add_argument("--polarity", choices=("free", "true"), default="free",
                    help="free: both polarities tried (FaceMatch.lead); true: the table's dice colours given, as a "
                    "stream learns them (pips darker than the body or not)")
    ap.add_argument("--sides", action="store_true", help="dice_small's rule: the value agreed at SIDES of the side too")
    ap.add_argument("--net", action="store_true", help="with --sides: dice_net's read of each too (agreed at SIDES, as "
                    "dice_small reads it), by its least share")
    ap.add_argument("--jpeg", type=int, default=0, help="each frame through a JPEG of this quality (0: none)")
    ap.add_argument("--noise", type=int, default=0, help="with --sides: each scene's frame k noise seeds on (0: render's)")
    args = ap.parse_args()
    if args.sides:
        sides_table(args)
        return
    factors = [float(f) for f in args.factors.split(",")]
    rng = np.random.default_rng([args.seed, 50])
    rows: dict[float, list[tuple[float, bool, int, float, float]]] = {f: [] for f in factors}
    dice = 0
    t0 = time.process_time()
    for i, scene in enumerate(reallike_scenes(args.scenes, args.seed)):
        if not scene.dice or (scene.hand is not None and not args.hands):
            continue
        r = render(scene, args.seed * 100003 + i)
        gray = cv2.cvtColor(r.image, cv2.COLOR_BGR2GRAY)
        cal = Calibration(r.truth.corners, home=scene.home)
        design = DESIGNS[scene.look.board]
        dark = sum(design.die_pip) < sum(design.die_body) if args.polarity == "true" else None
        for t in r.truth.dice:
            if t.moving or not t.flat or not t.value or t.size_px >= args.under:
                continue
            canon = cal.to_canonical(np.asarray([t.xy], np.float32)).reshape(2)
            unit = face_axes(cal.to_image, (float(canon[0]), float(canon[1])), 1.0)
            width = t.size_px / float(np.sqrt(abs(np.linalg.det(unit))))  # the true die's width across
            dice += 1
            xy = (t.xy[0] + rng.uniform(-args.jitter, args.jitter), t.xy[1] + rng.uniform(-args.jitter, args.jitter))
            for f in factors:
                m = match_face(gray, xy, unit * width * f, dark)
                if m is not None:
                    rows[f].append((m.margin, m.value == t.value, t.value, t.size_px, m.lead))
    if args.polarity == "true":  # the lead is not measured: every read counts as led
        for f in factors:
            rows[f] = [(*r[:4], 1.0) for r in rows[f]]
    print(f"{dice} still flat dice under {args.under} px in {args.scenes} scenes (seed {args.seed}, polarity "
          f"{args.polarity}), "
          f"{time.process_time() - t0:.0f} CPU-s")
    pooled = [r for f in factors for r in rows[f]]
    clear = [r for r in pooled if r[4] >= SURE_LEAD]
    sure = [r for r in pooled if r[4] >= SURE_LEAD and r[0] >= SURE_MARGIN]
    print(f"sure (polarity lead >= {SURE_LEAD}, margin >= {SURE_MARGIN}): {len(sure)} of {len(pooled)} reads, "
          f"right {sum(r[1] for r in sure)}, wrong {sum(not r[1] for r in sure)}")
    for name, rs in [*((f"side x{f:g}", rows[f]) for f in factors), ("pooled", pooled),
                     (f"pooled, polarity lead >= {SURE_LEAD}", clear)]:
        if not rs:
            continue
        mg = np.asarray([r[0] for r in rs])
        ok = np.asarray([r[1] for r in rs])
        cells = []
        for lo, hi in zip(BANDS[:-1], BANDS[1:]):
            sel = (mg >= lo) & (mg < hi)
            if sel.any():
                cells.append(f"[{lo:.2f},{min(hi, 1.0):.2f}) {int(ok[sel].sum())}/{int(sel.sum())}")
        top_wrong = float(mg[~ok].max()) if (~ok).any() else 0.0
        print(f"{name}: {len(rs)} read, right {int(ok.sum())}, wrong {int((~ok).sum())}; largest wrong margin "
              f"{top_wrong:.3f}; right above it {int((ok & (mg > top_wrong)).sum())}\n    " + "; ".join(cells))
        wrong = [r for r in rs if not r[1]]
        if wrong:
            byv: dict[int, int] = {}
            for r in wrong:
                byv[r[2]] = byv.get(r[2], 0) + 1
            print("    wrong by true value:", dict(sorted(byv.items())))


def sides_table(args: argparse.Namespace) -> None:
    """``--sides``: right and wrong of the value agreed at a factor's side and at ``SIDES`` of it."""
    from tavli_pi.vision.dice_small import AGREED_LEAD, AGREED_MARGIN, SIDES

    factors = [float(f) for f in args.factors.split(",")]
    rng = np.random.default_rng([args.seed, 50])
    # per read: (agreed value or 0, true value, least lead, least margin, sure alone at the factor's side,
    # the factor, the value read at its side)
    reads: list[tuple[int, int, float, float, bool, float, int]] = []
    # per read: the net's value and share (0, 0.0: none), the die's size (px)
    nets: list[tuple[int, float, float]] = []
    t0 = time.process_time()
    dice = 0
    for i, scene in enumerate(reallike_scenes(args.scenes, args.seed)):
        if not scene.dice or (scene.hand is not None and not args.hands):
            continue
        r = render(scene, args.seed * 100003 + i,
                   noise_seed=args.seed * 100003 + i + 7919 * args.noise if args.noise else None)
        gray = cv2.cvtColor(r.image, cv2.COLOR_BGR2GRAY)
        if args.jpeg:
            gray = cv2.imdecode(cv2.imencode(".jpg", gray, [cv2.IMWRITE_JPEG_QUALITY, args.jpeg])[1],
                                cv2.IMREAD_GRAYSCALE)
        cal = Calibration(r.truth.corners, home=scene.home)
        design = DESIGNS[scene.look.board]
        dark = sum(design.die_pip) < sum(design.die_body)
        for t in r.truth.dice:
            if t.moving or not t.flat or not t.value or t.size_px >= args.under:
                continue
            canon = cal.to_canonical(np.asarray([t.xy], np.float32)).reshape(2)
            unit = face_axes(cal.to_image, (float(canon[0]), float(canon[1])), 1.0)
            width = t.size_px / float(np.sqrt(abs(np.linalg.det(unit))))
            dice += 1
            xy = (t.xy[0] + rng.uniform(-args.jitter, args.jitter), t.xy[1] + rng.uniform(-args.jitter, args.jitter))
            for f in factors:
                ms = [match_face(gray, xy, unit * width * f * share) for share in (1.0, *SIDES)]
                if any(m is None for m in ms):
                    continue
                got = [m for m in ms if m is not None]
                same = all(m.value == got[0].value and m.dark == dark for m in got)
                reads.append((got[0].value if same else 0, t.value, min(m.lead for m in got),
                              min(m.margin for m in got), got[0].sure and got[0].dark == dark, f, got[0].value))
                if args.net:
                    nets.append((*read_agreed(gray, xy, unit * width * f, dark, SIDES), t.size_px))
    print(f"{dice} still flat dice under {args.under} px in {args.scenes} scenes (seed {args.seed}), sides x{SIDES} "
          f"of each of {factors}: {len(reads)} reads, {time.process_time() - t0:.0f} CPU-s")
    for lead in (0.1, 0.2, 0.3):
        cells = []
        for margin in (0.05, 0.08, 0.10, 0.12, 0.15, 0.20, 0.25):
            sel = [r for r in reads if r[0] and r[2] >= lead and r[3] >= margin]
            cells.append(f">={margin:.2f} {sum(r[0] == r[1] for r in sel)}/{sum(r[0] != r[1] for r in sel)}")
        print(f"  agreed, lead >= {lead}: right/wrong by least margin: " + "; ".join(cells))
    for name, rule in (("sure alone", lambda r: r[4]),
                       (f"small_faces (sure, or agreed at lead {AGREED_LEAD} margin {AGREED_MARGIN})",
                        lambda r: r[4] or (r[0] and r[2] >= AGREED_LEAD and r[3] >= AGREED_MARGIN))):
        for f in (*factors, None):
            sel = [r for r in reads if rule(r) and (f is None or r[5] == f)]
            right = sum((r[0] or r[6]) == r[1] for r in sel)
            print(f"  {name}, side x{f if f is not None else 'all'}: {len(sel)} taken, right {right}, "
                  f"wrong {len(sel) - right}")
    wrong = sorted((r for r in reads if r[0] and r[0] != r[1]), key=lambda r: -r[3])[:8]
    print("  agreed wrong (value, true, lead, margin, side):",
          [(r[0], r[1], round(r[2], 2), round(r[3], 3), r[5]) for r in wrong])
    if args.net:
        net_table(reads, nets, factors)


def net_table(reads: list[tuple[int, int, float, float, bool, float, int]], nets: list[tuple[int, float, float]],
              factors: list[float]) -> None:
    """``--net``: the model's reads of the same dice (the table's true polarity) by its share, beside the
    templates' as ``small_faces`` takes them."""
    from tavli_pi.vision.dice_net import NET_SHARE
    from tavli_pi.vision.dice_small import AGREED_LEAD, AGREED_MARGIN, either_face

    def tmpl(r: tuple[int, int, float, float, bool, float, int]) -> int:
        return (r[0] or r[6]) if r[4] or (r[0] and r[2] >= AGREED_LEAD and r[3] >= AGREED_MARGIN) else 0

    wrong = [n[1] for r, n in zip(reads, nets) if n[0] and n[0] != r[1]]
    print(f"  net: {len(nets)} reads, top-1 right {sum(n[0] == r[1] for r, n in zip(reads, nets))}, largest wrong "
          f"share {max(wrong, default=0.0):.4f}")
    for gate in sorted({0.9, 0.95, 0.98, 0.99, 0.995, 0.998, NET_SHARE}):
        for f in (*factors, None):
            sel = [(r, n) for r, n in zip(reads, nets) if n[1] >= gate and (f is None or r[5] == f)]
            print(f"  net share >= {gate}, side x{f if f is not None else 'all'}: {len(sel)} taken, "
                  f"right {sum(n[0] == r[1] for r, n in sel)}, wrong {sum(n[0] != r[1] for r, n in sel)}")
    both = [either_face(tmpl(r), n[0] if n[1] >= NET_SHARE else 0) for r, n in zip(reads, nets)]
    print(f"  small_faces with the net at {NET_SHARE} (the templates' value or the net's; neither where they "
          f"differ): right {sum(v == r[1] for v, r in zip(both, reads))}, wrong "
          f"{sum(v and v != r[1] for v, r in zip(both, reads))}; templates alone right "
          f"{sum(tmpl(r) == r[1] for r in reads)}, wrong {sum(tmpl(r) and tmpl(r) != r[1] for r in reads)}")
    for lo, hi in ((7, 8), (8, 9), (9, 10), (10, 11), (11, 12)):
        sel = [(r, n) for r, n in zip(reads, nets) if lo <= n[2] < hi]
        t = [tmpl(r) for r, _ in sel]
        nt = [n[0] if n[1] >= NET_SHARE else 0 for _, n in sel]
        print(f"  {lo}-{hi} px, {len(sel)} reads: templates (small_faces) right {sum(v == r[1] for v, (r, _) in zip(t, sel))}"
              f" wrong {sum(v and v != r[1] for v, (r, _) in zip(t, sel))}; net >= {NET_SHARE} right "
              f"{sum(v == r[1] for v, (r, _) in zip(nt, sel))} wrong {sum(v and v != r[1] for v, (r, _) in zip(nt, sel))}")


if __name__ == "__main__":
    main()
