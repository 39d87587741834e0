"""Small images kept inside a calibration file as text: ``"png:<base64>"`` or ``"jpg:<base64>"``.

The calibration keeps the clear board (PNG, for hands on wood) and the background learnt at
set-up (JPEG, for dice and hands); both go through this one codec.

>>> import numpy as np
>>> img = np.full((4, 6, 3), 200, np.uint8)
>>> text = encode_image(img)
>>> text[:4], decode_image(text).shape
('png:', (4, 6, 3))
>>> decode_image("png:not base64!") is None, decode_image("") is None
(True, True)
"""

from __future__ import annotations

import base64
import binascii
from typing import Literal

import cv2
import numpy as np

__all__ = ["encode_image", "decode_image"]

Kind = Literal["png", "jpg"]


def encode_image(image: np.ndarray, kind: Kind = "png", *, quality: int = 92) -> str:
    """``"kind:base64"`` of a BGR image (PNG lossless, JPEG at ``quality``)."""
    params = [cv2.IMWRITE_JPEG_QUALITY, quality] if kind == "jpg" else []
    ok, buf = cv2.imencode(f".{kind}", image, params)
    if not ok:  # pragma: no cover - encoding a uint8 image does not fail
        raise ValueError(f"cannot encode the image as {kind}")
    return f"{kind}:" + base64.b64encode(buf.tobytes()).decode()


def decode_image(text: str, kind: Kind | None = None) -> np.ndarray | None:
    """The image ``encode_image`` stored (of ``kind``, when given), or None when ``text`` holds
    none or is damaged."""
    got, _, data = text.partition(":")
    if got not in ("png", "jpg") or (kind is not None and got != kind) or not data:
        return None
    try:
        raw = np.frombuffer(base64.b64decode(data, validate=True), np.uint8)
    except (ValueError, binascii.Error):
        return None
    img = cv2.imdecode(raw, cv2.IMREAD_COLOR)
    return img if isinstance(img, np.ndarray) and img.size else None
