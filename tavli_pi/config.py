"""One table's configuration, from one TOML file (see config/table.example.toml).

Every key is checked; a bad file raises ConfigError naming the key
(``referee.premature``) and what to write instead. Unknown keys are errors
too (a typo must not silently fall back to a default).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tavli_pi.errors import ConfigError
from tavli_pi.referee.settings import ILLEGAL_POLICIES, PREMATURE_POLICIES, RefereeSettings, check_clock_settings
from tavli_pi.rules.settings import Settings
from tavli_pi.referee.match_clock import ClockSettings, Timeout

__all__ = ["TableConfig", "load_config", "parse_config"]


@dataclass(frozen=True)
class TableConfig:
    table_id: str = "table-1"
    players: tuple[str, str] = ("White", "Black")
    match_length: int = 0
    home: str = "bottom-right"
    camera: str = "picamera2"
    fps: float = 10.0
    calibration: str = ""  # a calibration JSON; "" = the printed markers on the first frame
    corners: str = ""  # "x,y x,y x,y x,y" instead of markers
    referee: RefereeSettings = field(default_factory=RefereeSettings)
    signals: bool = False
    pinout: str = ""  # "" = hardware/pinout.toml
    pin_factory: str = ""  # "" = gpiozero's default; "mock" = MockFactory (no hardware)
    display: bool = False
    display_host: str = "127.0.0.1"
    display_port: int = 8080
    display_pin: str = ""
    log: str = "table.sqlite"
    save_frames: bool = True
    link_port: str = ""  # serial URL of the table unit; "" = none
    feed_broker: str = ""  # MQTT broker host[:port]; "" = no feed
    feed_event: str = ""
    feed_username: str = ""
    feed_password: str = ""
    feed_tls_ca: str = ""  # CA file: TLS on
    feed_outbox: str = ""  # SQLite file keeping unacknowledged events across restarts
    source: str = ""  # the file it came from


_SCHEMA: dict[str, dict[str, type | tuple[type, ...]]] = {
    "table": {"id": str, "players": list, "match_length": int, "home": str, "light_is_white": bool},
    "camera": {"source": str, "fps": (int, float), "calibration": str, "corners": str},
    "referee": {
        "die_on_checker_void": bool, "premature": str, "illegal_policy": str, "settle_frames": int,
        "stable_frames": int, "accept_margin": (int, float), "accept_gap": (int, float),
        "illegal_gap": (int, float), "illegal_confidence": (int, float), "clear_view_after": int,
    },
    "rules": {
        "jacoby": bool, "automatic_doubles": bool, "max_automatic": int, "beavers": bool,
        "backgammon_value": int, "max_cube": int, "crawford": bool,
    },
    "signals": {"enabled": bool, "pinout": str, "pin_factory": str},
    "display": {"enabled": bool, "host": str, "port": int, "pin": str},
    "record": {"log": str, "save_frames": bool},
    "link": {"port": str},
    "feed": {"broker": str, "event": str, "username": str, "password": str, "tls_ca": str, "outbox": str},
    "clock": {
        "enabled": bool, "per_point": (int, float), "per_point_scored": (int, float), "delay": (int, float),
        "on_timeout": str, "overtime": (int, float), "money_reserve": (int, float), "reset_each_game": bool,
    },
}


def _check(data: dict[str, Any], where: str) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for section, body in data.items():
        if section not in _SCHEMA:
            raise ConfigError(f"{where}: unknown section [{section}]; known: {', '.join(_SCHEMA)}")
        if not isinstance(body, dict):
            raise ConfigError(f"{where}: {section} must be a table ([{section}])")
        for key, value in body.items():
            want = _SCHEMA[section].get(key)
            if want is None:
                raise ConfigError(f"{where}: unknown key {section}.{key}; known: {', '.join(_SCHEMA[section])}")
            if isinstance(value, bool) and want is not bool and bool not in (want if isinstance(want, tuple) else (want,)):
                raise ConfigError(f"{where}: {section}.{key} must be a number, not true/false")
            if not isinstance(value, want):
                names = " or ".join(t.__name__ for t in (want if isinstance(want, tuple) else (want,)))
                raise ConfigError(f"{where}: {section}.{key} must be {names}, got {value!r}")
        out[section] = body
    return out


def parse_config(text: str, where: str = "config") -> TableConfig:
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{where} is not valid TOML: {exc}") from exc
    d = _check(raw, where)
    t, c, r, ru = d.get("table", {}), d.get("camera", {}), d.get("referee", {}), d.get("rules", {})
    s, di, rec = d.get("signals", {}), d.get("display", {}), d.get("record", {})
    players = t.get("players", ["White", "Black"])
    if len(players) != 2 or not all(isinstance(p, str) and p.strip() for p in players):
        raise ConfigError(f"{where}: table.players must be two names, White's first")
    if t.get("match_length", 0) < 0:
        raise ConfigError(f"{where}: table.match_length must be 0 (money) or a number of points")
    if t.get("home", "bottom-right") not in ("bottom-right", "bottom-left", "auto"):
        raise ConfigError(
            f"{where}: table.home must be bottom-right, bottom-left or auto (learnt from the set-up board) (B4)"
        )
    if r.get("premature", "void") not in PREMATURE_POLICIES:
        raise ConfigError(f"{where}: referee.premature must be one of {', '.join(PREMATURE_POLICIES)} (E6)")
    if r.get("illegal_policy", "responsible-moves") not in ILLEGAL_POLICIES:
        raise ConfigError(f"{where}: referee.illegal_policy must be one of {', '.join(ILLEGAL_POLICIES)} (E8)")
    if c.get("fps", 10.0) <= 0:
        raise ConfigError(f"{where}: camera.fps must be positive")
    if s.get("pin_factory", "") not in ("", "mock"):
        raise ConfigError(f"{where}: signals.pin_factory must be \"\" (the real pins) or \"mock\"")
    port = di.get("port", 8080)
    if not 0 <= port <= 65535:
        raise ConfigError(f"{where}: display.port must be 0-65535")
    if di.get("enabled", False) and not (di.get("pin", "").isdigit() and len(di.get("pin", "")) >= 4):
        raise ConfigError(f"{where}: display.pin must be at least 4 digits when the display is enabled")
    fe = d.get("feed", {})
    if fe.get("broker"):
        from tavli_pi.errors import FeedError
        from tavli_pi.tournament.feed import parse_broker

        try:
            parse_broker(fe["broker"])
        except FeedError as exc:
            raise ConfigError(f"{where}: feed.broker: {exc}") from exc
    if fe.get("password") and not fe.get("username"):
        raise ConfigError(f"{where}: feed.password needs feed.username")
    clock = _clock(d.get("clock", {}), where)
    try:
        rules = Settings(**ru)
        referee = RefereeSettings(light_is_white=t.get("light_is_white", True), rules=rules, clock=clock,
                                  clock_reset_each_game=d.get("clock", {}).get("reset_each_game", False), **r)
    except ConfigError as exc:
        raise ConfigError(f"{where}: {exc}") from exc
    base = Path(where).parent if where != "config" else Path(".")

    def path(p: str) -> str:
        return str(base / p) if p and not Path(p).is_absolute() and ":" not in p else p

    return TableConfig(
        table_id=t.get("id", "table-1"),
        players=(players[0], players[1]),
        match_length=t.get("match_length", 0),
        home=t.get("home", "bottom-right"),
        camera=c.get("source", "picamera2"),
        fps=float(c.get("fps", 10.0)),
        calibration=path(c.get("calibration", "")),
        corners=c.get("corners", ""),
        referee=referee,
        signals=s.get("enabled", False),
        pinout=path(s.get("pinout", "")),
        pin_factory=s.get("pin_factory", ""),
        display=di.get("enabled", False),
        display_host=di.get("host", "127.0.0.1"),
        display_port=port,
        display_pin=di.get("pin", ""),
        log=path(rec.get("log", "table.sqlite")),
        save_frames=rec.get("save_frames", True),
        link_port=d.get("link", {}).get("port", ""),
        feed_broker=d.get("feed", {}).get("broker", ""),
        feed_event=fe.get("event", ""),
        feed_username=fe.get("username", ""),
        feed_password=fe.get("password", ""),
        feed_tls_ca=path(fe.get("tls_ca", "")),
        feed_outbox=path(fe.get("outbox", "")),
        source=where,
    )


def _clock(c: dict[str, Any], where: str) -> ClockSettings | None:
    """``[clock]``: None unless ``enabled``; the other keys override the USBGF defaults (checked either way)."""
    timeouts = [t.value for t in Timeout]
    if c.get("on_timeout", "lose_match") not in timeouts:
        raise ConfigError(f"{where}: clock.on_timeout must be one of {', '.join(timeouts)}, "
                          f"got {c.get('on_timeout')!r}")
    kw: dict[str, Any] = {k: float(v) for k, v in c.items()
                          if k in ("per_point", "per_point_scored", "delay", "overtime", "money_reserve")}
    settings = ClockSettings(on_timeout=Timeout(c.get("on_timeout", "lose_match")), **kw)
    try:
        check_clock_settings(settings)
    except ConfigError as exc:
        raise ConfigError(f"{where}: {exc}") from exc
    return settings if c.get("enabled", False) else None


def load_config(path: str | Path) -> TableConfig:
    p = Path(path)
    try:
        text = p.read_text()
    except FileNotFoundError as exc:
        raise ConfigError(f"config file {p} not found: copy config/table.example.toml and edit it") from exc
    return parse_config(text, str(p))
