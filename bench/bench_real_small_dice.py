"""Real dice photos shrunk to small dice: the pip templates (small_faces' rule) vs dice_net (issue 9).

    .venv/bin/python bench/bench_real_small_dice.py [SIZES] [WEIGHTS] [OUT.pkl]

Each labelled die of ``dice/banachowicz`` (d6 classes, ivory with black pips) and ``dice/fudw`` (classes
0-4, blue with white pips) -- never trained on -- is cut round its box and shrunk (INTER_AREA) so its
side shows T px (SIZES, default 8,9,10,11; the side taken as the box's mean extent / RATIO), passed
through a JPEG 80, and read at side T (its centre moved up to 1 px) with its set's polarity: by the
templates as ``small_faces`` takes them (sure, or agreed at ``SIDES``), and by the model at the side and
at ``SIDES`` of it. A hard set (phone photos at a slant, side faces inside the box, the size guessed):
what matters is the wrong reads at the gate.
"""
import pickle, sys
from pathlib import Path
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
import cv2, numpy as np, functools
import tavli_pi.vision.dice_template as dt
dt._templates = functools.lru_cache(maxsize=256)(dt._templates.__wrapped__)
from tavli_pi.vision.dice_small import SIDES, agreeing, either_face
import tavli_pi.vision.dice_net as dn
RATIO = 1.15
SIZES = [float(x) for x in (sys.argv[1] if len(sys.argv) > 1 else "8,9,10,11").split(",")]
weights = sys.argv[2] if len(sys.argv) > 2 else str(dn.WEIGHTS)
with np.load(weights) as z:
    W = tuple(np.asarray(z[k], np.float32) for k in ("w1", "b1", "w2", "b2"))
from bench.bench_vision import REAL  # noqa: E402
from tests.vision._eval import real_dice_boxes  # noqa: E402
# (path, cx, cy, w, h, value, dark, set): banachowicz's dice have dark pips, fudw's light
boxes = [(*b[:6], b[6] == "banachowicz", b[6]) for b in real_dice_boxes(REAL / "dice")]
print(len(boxes), "dice", flush=True)
rng = np.random.default_rng(7)
cache = {}
rows = []
for path, cx, cy, w, h, v, dark, st in boxes:
    if path not in cache:
        cache.clear(); cache[path] = cv2.imread(path, cv2.IMREAD_GRAYSCALE)
    img = cache[path]
    ext = (w + h) / 2
    for T in SIZES:
        s = T * RATIO / ext
        half = int(1.6 * ext)
        x0, y0 = int(cx) - half, int(cy) - half
        if x0 < 0 or y0 < 0 or x0 + 2 * half >= img.shape[1] or y0 + 2 * half >= img.shape[0]:
            continue
        crop = img[y0:y0 + 2 * half, x0:x0 + 2 * half]
        n = max(int(round(2 * half * s)), 8)
        small = cv2.resize(crop, (n, n), interpolation=cv2.INTER_AREA)
        small = cv2.imdecode(cv2.imencode(".jpg", small, [cv2.IMWRITE_JPEG_QUALITY, 80])[1], cv2.IMREAD_GRAYSCALE)
        sc = n / (2 * half)
        xy = ((cx - x0 + 0.5) * sc - 0.5 + rng.uniform(-1, 1), (cy - y0 + 0.5) * sc - 0.5 + rng.uniform(-1, 1))
        ax = np.eye(2) * T
        ms = [dt.match_face(small, xy, ax * f) for f in (1.0, *SIDES)]
        tv = 0
        if all(m is not None for m in ms):
            m = ms[0]
            if m.dark == dark and (m.sure or all(agreeing(x, m) for x in ms)):
                tv = m.value
        fs = [dn.features(small, xy, ax * k, dark) for k in (1.0, *SIDES)]
        ps = [dn.probs(f[None], W)[0] if f is not None else np.zeros(6) for f in fs]
        rows.append(dict(set=st, T=T, true=v, tmpl=tv, tmpl_top=ms[0].value if ms[0] else 0,
                         tmpl_margin=ms[0].margin if ms[0] else 0, probs=ps[0], ps=ps, feat=fs[0]))
if len(sys.argv) > 3:
    pickle.dump(rows, open(sys.argv[3], "wb"))
for st in ("banachowicz", "fudw"):
    for T in SIZES:
        rs = [r for r in rows if r["set"] == st and r["T"] == T]
        tr = sum(r["tmpl"] == r["true"] for r in rs); tw = sum(r["tmpl"] and r["tmpl"] != r["true"] for r in rs)
        nv = [int(np.argmax(r["probs"])) + 1 for r in rs]; npv = [float(r["probs"].max()) for r in rs]
        cells = []
        for g in (0.9, 0.95, 0.99, 0.995):
            cells.append(f">={g}: {sum(p >= g and v == r['true'] for v, p, r in zip(nv, npv, rs))}/"
                         f"{sum(p >= g and v != r['true'] for v, p, r in zip(nv, npv, rs))}")
        agreed = []
        for r in rs:
            v = int(np.argmax(r["ps"][0])) + 1
            ok = all(int(np.argmax(q)) + 1 == v for q in r["ps"])
            agreed.append((v if ok else 0, min(float(q.max()) for q in r["ps"]) if ok else 0.0))
        both = [either_face(r["tmpl"], v if p >= dn.NET_SHARE else 0) for (v, p), r in zip(agreed, rs)]
        print(f"{st} {T:g}px: net alike at the sizes, share >= {dn.NET_SHARE}: right "
              f"{sum(v == r['true'] and p >= dn.NET_SHARE for (v, p), r in zip(agreed, rs))} wrong "
              f"{sum(v != r['true'] and p >= dn.NET_SHARE for (v, p), r in zip(agreed, rs))}; with the templates "
              f"(as small_faces): right {sum(b == r['true'] for b, r in zip(both, rs))} wrong "
              f"{sum(bool(b) and b != r['true'] for b, r in zip(both, rs))}")
        print(f"{st} {T:g}px: {len(rs)} dice; templates small_faces right/wrong {tr}/{tw} (top-1 "
              f"{sum(r['tmpl_top'] == r['true'] for r in rs)}); net top-1 {sum(v == r['true'] for v, r in zip(nv, rs))}; "
              f"net right/wrong " + "; ".join(cells), flush=True)
