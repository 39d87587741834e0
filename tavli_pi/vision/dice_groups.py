"""Pip spots grouped into candidate dice: spots of one shade within a die's reach of each other
(``clusters``), lone spots paired (``paired``), and groups too big for one die split in two
(``split_pairs``)."""

from __future__ import annotations

import cv2
import numpy as np

from tavli_pi.vision.dice_body import DIE_RANGE
from tavli_pi.vision.dice_spots import Spot

__all__ = ["PAIR_REACH", "PIP_SPAN", "REACH", "clusters", "paired", "size_and_span", "split_pairs"]

#: pips of one die lie closer than this (point pitches)
REACH = 0.36
#: ... but two lone pips as far as this are a big die's two, corner to corner
PAIR_REACH = 0.42


def clusters(spots: list[Spot], reach: float) -> list[list[Spot]]:
    """Single-linkage groups of same-shade spots closer than ``reach``."""
    out: list[list[Spot]] = []
    for bright in (True, False):
        pts = [s for s in spots if s[2] == bright]
        if not pts:
            continue
        xy = np.asarray([(s[0], s[1]) for s in pts], np.float64)
        near = np.hypot(xy[:, None, 0] - xy[None, :, 0], xy[:, None, 1] - xy[None, :, 1]) < reach
        seen = np.zeros(len(pts), bool)
        for i in range(len(pts)):
            if seen[i]:
                continue
            seen[i] = True
            members, todo = [i], [i]
            while todo:
                j = todo.pop()
                new = np.flatnonzero(near[j] & ~seen)
                seen[new] = True
                members.extend(new.tolist())
                todo.extend(new.tolist())
            out.append([pts[m] for m in members])
    return out


#: the span of a face's corner pips as a share of the die's side
PIP_SPAN = 0.55


def split_pairs(groups: list[list[Spot]], pitch: float) -> tuple[list[list[Spot]], dict[int, int]]:
    """Groups with more spots than one face has, or wider than one die, split in two: two dice
    side by side (their pips within a die's reach of each other) are two candidates. Returns the
    groups with the halves added, and each half's parent group (by identity): a half is a die only
    with a clear face. The halves must lie a die apart (two dice cannot be closer than one side):
    a cocked die's top and side face are closer, and stay one candidate."""
    out: list[list[Spot]] = []
    parent: dict[int, int] = {}
    for g in groups:
        pts = np.asarray([(x, y) for x, y, _ in g], np.float32)
        wide = len(g) >= 4 and float(np.ptp(pts, axis=0).max()) > DIE_RANGE[1] * pitch
        if not (7 <= len(g) <= 12 or wide):
            out.append(g)
            continue
        crit = (cv2.TERM_CRITERIA_EPS + cv2.TERM_CRITERIA_MAX_ITER, 20, 0.1)
        _, labels, _ = cv2.kmeans(pts, 2, np.zeros(len(g), np.int32), crit, 3, cv2.KMEANS_PP_CENTERS)
        lab = labels.ravel()
        halves = [[s for s, k in zip(g, lab) if k == j] for j in (0, 1)]
        if not all(halves):
            out.append(g)
            continue
        hp = [np.asarray([(x, y) for x, y, _ in h], np.float32) for h in halves]
        # a face's pips span about PIP_SPAN of its side (a 5's or 6's corner pips)
        side = max(float(np.ptp(p, axis=0).max()) for p in hp) / PIP_SPAN
        if float(np.hypot(*(hp[0].mean(axis=0) - hp[1].mean(axis=0)))) < 0.8 * side:
            out.append(g)
            continue
        for h in halves:
            if h:
                out.append(h)
                parent[id(h)] = id(g)
        out.append(g)  # the whole group too: one die's crowded pips stay one candidate
    return out, parent


def size_and_span(group: list[Spot]) -> tuple[int, float]:
    xs, ys = [s[0] for s in group], [s[1] for s in group]
    return len(group), max(max(xs) - min(xs), max(ys) - min(ys))


def paired(groups: list[list[Spot]], reach: float) -> list[list[Spot]]:
    """Lone spots of one shade closer than ``reach`` to exactly one other lone spot joined as a pair."""
    lone = [g[0] for g in groups if len(g) == 1]
    if len(lone) < 2:
        return groups
    out = [g for g in groups if len(g) > 1]
    xyb = np.asarray(lone, np.float64)
    near = (np.hypot(xyb[:, None, 0] - xyb[None, :, 0], xyb[:, None, 1] - xyb[None, :, 1]) < reach) & (
        xyb[:, None, 2] == xyb[None, :, 2]
    )
    np.fill_diagonal(near, False)
    count = near.sum(axis=1)
    mate = near.argmax(axis=1)
    for i, s in enumerate(lone):
        j = int(mate[i])
        if count[i] == 1 and count[j] == 1:
            if i < j:
                out.append([s, lone[j]])
        else:
            out.append([s])
    return out
