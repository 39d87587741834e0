# The LED strip along the board: one LED per point, the bar and both trays.
#
# Logical LED numbers (used on the wire, PROTOCOL.md "SCENE"):
#   0-23  points 1-24 in White's numbering (point p is LED p - 1)
#   24    the bar
#   25    White's tray
#   26    Black's tray
# The strip itself runs (hardware/WIRING.md): White's tray, points 1-6, the
# bar, points 7-12, then back along the far side 13-18, 19-24, Black's tray.

N_LEDS = 27
BAR = 24
WHITE_TRAY = 25
BLACK_TRAY = 26

#: strip position -> logical LED
STRIP_ROUTE = (
    (WHITE_TRAY,) + tuple(range(0, 6)) + (BAR,) + tuple(range(6, 12))
    + tuple(range(12, 24)) + (BLACK_TRAY,)
)

# Roles, one byte per logical LED in a SCENE message
OFF = 0
LAST = 1  # part of the last play (points it left and reached)
ILLEGAL = 2  # a point where the play differs from every legal play: blinks
ATTENTION = 3  # look here (e.g. clear the view, reroll)

BLACK_RGB = (0, 0, 0)
COLOURS = {
    LAST: (0, 60, 0),
    ILLEGAL: (255, 0, 0),
    ATTENTION: (160, 90, 0),
}
TURN_COLOURS = ((90, 90, 90), (0, 0, 120))  # White's, Black's tray on turn
BLINK_MS = 250  # ILLEGAL LEDs: on 250 ms, off 250 ms


def render(roles, turn, now):
    """The strip's colours, in strip order, for ``roles`` (logical order) at
    ticks ``now``. The tray of the side on turn lights in that side's colour
    unless it has a role of its own."""
    blink_on = (now // BLINK_MS) % 2 == 0
    out = []
    for logical in STRIP_ROUTE:
        role = roles[logical] if logical < len(roles) else OFF
        if role == ILLEGAL:
            out.append(COLOURS[ILLEGAL] if blink_on else BLACK_RGB)
        elif role in COLOURS:
            out.append(COLOURS[role])
        elif turn == 0 and logical == WHITE_TRAY:
            out.append(TURN_COLOURS[0])
        elif turn == 1 and logical == BLACK_TRAY:
            out.append(TURN_COLOURS[1])
        else:
            out.append(BLACK_RGB)
    return out


def blank():
    return [BLACK_RGB] * len(STRIP_ROUTE)
