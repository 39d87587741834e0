"""The homography from the canonical board image to the camera image.

A pinhole camera (focal length = the image width in pixels, about a 65 deg
horizontal field of view, like a Raspberry Pi camera module 3 wide-ish lens)
looks at the board plane. At ``height`` 1 and no tilt the field fills 82 % of
the image height. The board plane is tilted about an axis through the field's
centre (direction ``tilt_dir_deg``), then rotated in the image by
``rotation_deg`` and shifted by ``shift`` (fractions of the image size).
"""

from __future__ import annotations

import math

import numpy as np

from tavli_pi.sim import _layout as L
from tavli_pi.sim.scene import CameraPose

__all__ = ["homography", "project", "camera_centre", "FIELD_FILL"]

FIELD_FILL = 0.82


def _rz(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


def _rx(a: float) -> np.ndarray:
    c, s = math.cos(a), math.sin(a)
    return np.array([[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]])


def _rot_dist(pose: CameraPose, lay: L.Layout, width: int, height: int) -> tuple[np.ndarray, float]:
    """The camera's rotation (board axes -> camera axes) and its distance from the field's centre
    (canonical pixels)."""
    f = float(width)
    s0 = min(FIELD_FILL * height / L.FH, 0.75 * width / lay.fw)
    dist = f * pose.height / s0  # camera distance in canonical pixels
    d = math.radians(pose.tilt_dir_deg)
    rot = _rz(math.radians(pose.rotation_deg)) @ _rz(d) @ _rx(-math.radians(pose.tilt_deg)) @ _rz(-d)
    return rot, dist


def camera_centre(pose: CameraPose, lay: L.Layout, width: int, height: int) -> tuple[float, float, float]:
    """Where the pinhole camera of ``homography`` stands: its foot point on the board plane
    (canonical x, y) and its height above the plane (canonical pixels). A point ``z`` above the
    board at (x, y) lies on the camera's ray through the board-plane point
    ``foot + (p - foot) * height / (height - z)``."""
    rot, dist = _rot_dist(pose, lay, width, height)
    # board (X, Y, Z) -> camera: rot @ (X - fcx, Y - fcy, Z) + (0, 0, dist); the centre is where that is 0
    c = -dist * rot[2, :]
    fcx = lay.fx0 + lay.fw / 2
    fcy = lay.fy0 + L.FH / 2
    # the camera lies on the board's -Z side (rot[2, 2] = cos(tilt) > 0): its height is -c[2]
    return float(fcx + c[0]), float(fcy + c[1]), float(-c[2])


def homography(pose: CameraPose, lay: L.Layout, width: int, height: int) -> np.ndarray:
    """3x3 matrix mapping canonical pixels to image pixels."""
    f = float(width)
    rot, dist = _rot_dist(pose, lay, width, height)
    cx = width / 2 + pose.shift[0] * width
    cy = height / 2 + pose.shift[1] * height
    k = np.array([[f, 0, cx], [0, f, cy], [0, 0, 1.0]])
    # board plane (X, Y, 0) -> camera: rot @ (X, Y, 0) + (0, 0, dist)
    ext = np.column_stack([rot[:, 0], rot[:, 1], np.array([0.0, 0.0, dist])])
    fcx = lay.fx0 + lay.fw / 2
    fcy = lay.fy0 + L.FH / 2
    to_centre = np.array([[1.0, 0, -fcx], [0, 1.0, -fcy], [0, 0, 1.0]])
    h = k @ ext @ to_centre
    out: np.ndarray = h / h[2, 2]
    return out


def project(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Apply homography ``h`` to an (N, 2) array of points."""
    p = np.asarray(pts, np.float64).reshape(-1, 2)
    q = np.column_stack([p, np.ones(len(p))]) @ h.T
    out: np.ndarray = q[:, :2] / q[:, 2:3]
    return out
