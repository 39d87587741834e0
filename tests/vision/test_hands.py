"""vision/hands.py: the skin that is new since the board was learnt (``new_skin``)."""

from __future__ import annotations

import numpy as np

from tavli_pi.vision.hands import new_skin, skin_mask

SKIN = (118, 150, 205)  # BGR, a hand's colour in the simulator


def _board() -> np.ndarray:
    """A quarter-scale board: a wooden (skin-coloured) frame round a navy field."""
    img = np.full((90, 140, 3), (40, 90, 150), np.uint8)  # wood
    img[10:80, 10:130] = (90, 40, 30)  # navy field
    return img


def test_a_skin_coloured_board_unchanged_has_no_new_skin() -> None:
    board = _board()
    assert skin_mask(board).any()  # the frame is skin-coloured
    assert not new_skin(board, board).any()
    brighter = np.clip(board * 1.15, 0, 255).astype(np.uint8)  # the lamp turned up
    assert not new_skin(brighter, board).any()


def test_an_arm_over_the_frame_and_the_field_is_new_skin() -> None:
    board = _board()
    frame = board.copy()
    frame[40:55, 0:60] = SKIN  # an arm from the left, over the wooden frame onto the field
    new = new_skin(frame, board) > 0
    assert new[42:53, 2:8].all()  # over the frame too, though the frame is skin-coloured
    assert new[42:53, 20:58].all()
    assert not new[:35].any() and not new[60:].any()
