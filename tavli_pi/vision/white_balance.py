"""The board's view under a neutral light of a usual strength, as the skin test expects it.

The skin range (``hands.skin_mask``) is a fixed box of YCrCb chroma, made for pictures whose white
balance the camera has set. Under a lamp the camera did not correct for (tungsten: blue down,
red up) a cream field, a beige point and a light checker all fall in it; in a dim room the
chroma of real skin shrinks towards grey (it scales with the light) and falls out of it.

The light is read from the picture itself, white-patch (max-RGB) fashion: the brightest pixels
of the board's view (``WHITE_SHARE`` of them: the light checkers, a cream field, the
highlights on the frame) are taken to be white under the light, and each channel is scaled so
that they are grey (von Kries). A view whose white is dimmer than ``LEVEL`` is brought up to it
(a well-lit photo's white lies above it; the real photos' 178-255). A white within ``NEUTRAL`` of
grey is taken as the camera's own balance: a picture whose brightest parts are about neutral and
bright enough -- every real photo as it is, within 5 % a channel -- is left as it is.
"""

from __future__ import annotations

import numpy as np

__all__ = ["white_of", "balanced", "WHITE_SHARE", "LEVEL", "NEUTRAL", "MAX_GAIN"]

#: share of the view's pixels (the brightest, by their channels' mean) taken for white
WHITE_SHARE = 0.05
#: a view's white (mean of its channels, 8-bit) below this is brought up to it
LEVEL = 170.0
#: a white whose every channel lies within this of its mean (log) is taken as balanced by the camera,
#: which errs so much (the real photos' whites lie within 0.05 of grey, the warm lamp's 0.3 off on blue)
NEUTRAL = 0.06
#: no channel is scaled by more than this, or less than its inverse
MAX_GAIN = 2.5


def white_of(view: np.ndarray) -> np.ndarray:
    """The colour (BGR, float) of the brightest ``WHITE_SHARE`` of ``view``'s pixels (every other one
    each way): its light's white."""
    px = view[::2, ::2].reshape(-1, 3).astype(np.float32)  # every other pixel each way: enough to tell
    lum = px.mean(axis=1)
    k = max(1, int(round(WHITE_SHARE * len(lum))))
    top = np.argpartition(lum, len(lum) - k)[len(lum) - k:]
    white: np.ndarray = px[top].mean(axis=0)
    return white


def balanced(view: np.ndarray) -> np.ndarray:
    """``view`` (uint8 BGR) with its white (``white_of``) made grey, and brought up to ``LEVEL`` when
    dimmer: each channel times its own gain (at most ``MAX_GAIN`` either way)."""
    white = np.maximum(white_of(view), 1.0)
    level = float(white.mean())
    cast = np.log(level / white)
    # a camera's own white balance errs by a few per cent: a white that close to grey is taken as
    # balanced, and the view left as it is, to the bit
    if float(np.abs(cast).max()) <= NEUTRAL:
        cast = np.zeros(3)
    log_gain = cast + np.log(max(level, LEVEL) / level)
    if not log_gain.any():
        return view
    gain = np.clip(np.exp(log_gain), 1.0 / MAX_GAIN, MAX_GAIN)
    out: np.ndarray = np.clip(view.astype(np.float32) * gain, 0, 255).astype(np.uint8)
    return out
