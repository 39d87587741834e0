# What the two 4-digit 7-segment displays show (one per side): the side's
# clock, or its score. Pure formatting: text of 4 characters plus the colon.
# The TM1637 modules light segment bits gfedcba; bit 7 of the second digit is
# the colon on the common 4-digit clock modules.

FONT = {
    " ": 0x00, "-": 0x40, "_": 0x08,
    "0": 0x3F, "1": 0x06, "2": 0x5B, "3": 0x4F, "4": 0x66,
    "5": 0x6D, "6": 0x7D, "7": 0x07, "8": 0x7F, "9": 0x6F,
    "A": 0x77, "b": 0x7C, "C": 0x39, "d": 0x5E, "E": 0x79, "F": 0x71,
    "h": 0x74, "i": 0x10, "L": 0x38, "n": 0x54, "o": 0x5C, "P": 0x73,
    "r": 0x50, "t": 0x78, "u": 0x1C,
}

WAITING = ("----", False)  # no Pi yet
PI_SILENT = ("E-Pi", False)  # the Pi went silent: blanked, waiting for it
BAD_VERSION = ("E-Pr", False)  # the Pi speaks another protocol major version


def _rjust(text, width):
    return " " * (width - len(text)) + text


def clock_text(ms):
    """A clock reading: ' 9:05', '59:59', '1h40' for >= 100 min; seconds round up.

    Returns (four characters, colon lit).
    """
    if ms <= 0:
        return (" 000", True)
    secs = (ms + 999) // 1000
    mins = secs // 60
    secs = secs % 60
    if mins >= 100:
        hours = mins // 60
        if hours > 9:
            return ("9h59", False)
        m = mins % 60
        return (str(hours) + "h" + ("0" if m < 10 else "") + str(m), False)
    s = ("0" if secs < 10 else "") + str(secs)
    return (_rjust(str(mins), 2) + s, True)


def score_text(own, match_length):
    """A side's score: own score in the left pair, match length in the right
    pair with the colon between ('3' to 7 -> ' 3 7' + colon); a money session
    (length 0) shows the score alone, right-aligned."""
    own = min(own, 99 if match_length else 9999)
    if match_length == 0:
        return (_rjust(str(own), 4), False)
    return (_rjust(str(own), 2) + _rjust(str(min(match_length, 99)), 2), True)


def segments(text, colon):
    """The four segment bytes for ``text`` (unknown characters are blank)."""
    out = bytearray(4)
    for i in range(4):
        ch = text[i] if i < len(text) else " "
        out[i] = FONT.get(ch, 0)
    if colon:
        out[1] |= 0x80
    return bytes(out)
