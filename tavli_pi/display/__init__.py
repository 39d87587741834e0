"""The table display: a web page pushed live from the referee's events."""

from .server import DisplayServer

__all__ = ["DisplayServer"]
