"""The one exception tree of tavli-pi.

Every message says what went wrong *and what to do about it*. Leaves also
subclass the matching builtin (``ValueError``, ``OSError``) so callers that
know nothing of tavli-pi still catch them sensibly.
"""

from __future__ import annotations

__all__ = [
    "TavliError",
    "TavliWarning",
    "ConfigError",
    "RulesError",
    "InvalidPositionError",
    "InvalidDiceError",
    "InvalidPlayError",
    "PositionIdError",
    "IllegalActionError",
    "VisionError",
    "CalibrationError",
    "CameraError",
    "OutputFileError",
    "RecordError",
    "SnapshotError",
    "StoreError",
    "FormatError",
    "FeedError",
]


class TavliError(Exception):
    """Root of every error tavli-pi raises on purpose."""


class TavliWarning(UserWarning):
    """Root of the warnings for degraded operation (never a silent fallback)."""


class ConfigError(TavliError, ValueError):
    """A configuration file or key is missing or malformed."""


class RulesError(TavliError, ValueError):
    """Something breaks the rules model (RULES.md)."""


class InvalidPositionError(RulesError):
    """A position is not a backgammon position (wrong checker counts, ...)."""


class InvalidDiceError(RulesError):
    """Dice values outside 1-6, or the wrong number of dice."""


class InvalidPlayError(RulesError):
    """A play could not be parsed or does not fit the position."""


class PositionIdError(RulesError):
    """A gnubg Position ID, Match ID or XGID is malformed."""


class IllegalActionError(RulesError):
    """A cube action, resignation or match update the rules forbid (C2-C4, S2-S4, H2)."""


class VisionError(TavliError):
    """An image could not be read."""


class CalibrationError(VisionError, ValueError):
    """Board corners or markers could not be found or are inconsistent."""


class CameraError(VisionError, OSError):
    """A camera could not be opened or stopped delivering frames."""


class OutputFileError(TavliError, OSError):
    """A file the user asked for (an export, a marker sheet, a calibration) could not be written."""


class RecordError(TavliError):
    """The match record could not be written or read."""


class StoreError(RecordError, OSError):
    """The SQLite match log is missing, corrupt or foreign."""


class SnapshotError(RecordError, ValueError):
    """A referee snapshot in the match log cannot be restored (damaged, foreign or from another version)."""


class FormatError(RecordError, ValueError):
    """An export or import format (.mat, .sgf) is malformed."""


class FeedError(TavliError, OSError):
    """The tournament feed (MQTT) is misconfigured."""
