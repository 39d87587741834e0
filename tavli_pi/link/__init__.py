"""The serial link to the table unit (Pico firmware in firmware/): LED strip,
clock displays, buzzer, clock paddles. See firmware/PROTOCOL.md."""

from tavli_pi.link.fake import FakeLink
from tavli_pi.link.mapping import Command, EventMapper, UnitView
from tavli_pi.link.protocol import Buzz, ClockSet, Scene, ScoreSet
from tavli_pi.link.table_link import LinkStats, LinkTiming, TableLink, open_url

__all__ = [
    "TableLink",
    "LinkTiming",
    "LinkStats",
    "open_url",
    "FakeLink",
    "EventMapper",
    "UnitView",
    "Command",
    "Scene",
    "ClockSet",
    "ScoreSet",
    "Buzz",
]
