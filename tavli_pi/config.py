"""One table's configuration, from one TOML file (see config/table.example.toml).

Each ``[section]`` becomes one typed, frozen dataclass (``[feed]`` ->
:class:`FeedConfig`, ``[display]`` -> :class:`DisplayConfig`, ...); the
``[referee]``, ``[rules]`` and ``[clock]`` sections become the referee's own
:class:`~tavli_pi.referee.settings.RefereeSettings`. The dataclasses' field
defaults are the only defaults. Optional text keys are ``None`` when absent or
``""``.

Every key is checked; a bad file raises ConfigError naming the file and the
key (``table.toml: referee.premature ...``) and what to write instead. Unknown
keys are errors too (a typo must not silently fall back to a default), and so
is a number that is not finite (``nan``, ``inf``).
"""

from __future__ import annotations

import math
import os
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from tavli_pi.errors import ConfigError
from tavli_pi.referee.match_clock import ClockSettings, Timeout
from tavli_pi.referee.settings import ILLEGAL_POLICIES, PREMATURE_POLICIES, RefereeSettings, check_clock_settings
from tavli_pi.rules.settings import Settings
from tavli_pi.rules.tavli_settings import (
    MatchSettings,
    TavliSettings,
    match_settings_from_mapping,
    settings_from_mapping,
)

__all__ = [
    "TableConfig", "TableSection", "CameraConfig", "SignalsConfig", "DisplayConfig", "RecordConfig",
    "LinkConfig", "FeedConfig", "GameConfig", "GAMES", "load_config", "parse_config",
]

#: ``[rules] game``: Portes alone, Plakoto or Fevga alone, or the tavli match of all three (T2)
GAMES = ("portes", "plakoto", "fevga", "tavli")


Home = Literal["bottom-right", "bottom-left", "auto"]
DEFAULT_TABLE_ID = "table-1"


@dataclass(frozen=True, slots=True)
class TableSection:
    """``[table]``: who plays what, where the board lies (B4)."""

    id: str = DEFAULT_TABLE_ID
    players: tuple[str, str] = ("White", "Black")  # White's first
    match_length: int = 0  # 0 = money session
    home: Home = "bottom-right"  # "auto": learnt from the set-up board
    light_is_white: bool = True
    #: players at the table answer the referee (confirm a set-up, a board): None = yes, except for
    #: a recorded video (``replay:`` source), which has nobody to answer
    attended: bool | None = None


@dataclass(frozen=True, slots=True)
class CameraConfig:
    """``[camera]``: the source (``picamera2``, ``opencv:0``, ``replay:PATH``, a registered scheme)."""

    source: str = "picamera2"
    fps: float = 10.0
    calibration: str | None = None  # a calibration JSON; None = the printed markers on the first frame
    corners: str | None = None  # "x,y x,y x,y x,y" instead of markers


@dataclass(frozen=True, slots=True)
class SignalsConfig:
    """``[signals]``: the GPIO LEDs, buzzer and buttons."""

    enabled: bool = False
    pinout: str | None = None  # None = hardware/pinout.toml
    pin_factory: Literal["mock"] | None = None  # None = gpiozero's default (the Pi's pins)


@dataclass(frozen=True, slots=True)
class DisplayConfig:
    """``[display]``: the table's web display."""

    enabled: bool = False
    host: str = "127.0.0.1"  # the one address it binds and prints; "0.0.0.0" for phones (docs/display.md)
    port: int = 8080
    pin: str | None = None  # needed (4+ digits) when enabled
    tls_cert: str | None = None  # PEM certificate and key: the page is served over HTTPS
    tls_key: str | None = None
    max_sockets: int = 16  # live pages at once, in all and per device
    max_sockets_per_client: int = 4
    allowed_origins: tuple[str, ...] = ()  # other origins allowed to post decisions (the page's own always is)
    lockout_attempts: int = 5  # wrong PINs in a row that lock out the device that sent them (never the table)
    lockout_seconds: float = 60.0  # the first lockout; each next one doubles, up to lockout_max_seconds
    lockout_max_seconds: float = 3600.0


@dataclass(frozen=True, slots=True)
class RecordConfig:
    """``[record]``: the SQLite match log."""

    # absent: default_log(table id), the state folder, never the cwd or the source tree
    log: str = field(default_factory=lambda: default_log(DEFAULT_TABLE_ID))
    save_frames: bool = True  # the proving frame of each verdict, as JPEG


@dataclass(frozen=True, slots=True)
class LinkConfig:
    """``[link]``: the serial table unit."""

    port: str | None = None  # a device ("/dev/ttyACM0") or a pyserial URL; None = no table unit


@dataclass(frozen=True, slots=True)
class FeedConfig:
    """``[feed]``: the tournament feed over MQTT."""

    broker: str | None = None  # host[:port]; None = no feed
    event: str | None = None  # the event's slug; None = "local"
    username: str | None = None
    password: str | None = None
    tls_ca: str | None = None  # CA file: TLS on
    outbox: str | None = None  # SQLite file keeping unacknowledged events across restarts


@dataclass(frozen=True, slots=True)
class GameConfig:
    """``[rules] game`` and ``[tavli]``: which game the table referees (RULES-TAVLI.md).

    ``game`` "portes" (default) is backgammon as always. "plakoto" or "fevga"
    plays that game only, every game of a match to ``match.match_length``;
    "tavli" is the tavli match, ``match.games`` in rotation (T2). ``settings``
    are the Plakoto/Fevga rule settings (P6, F3, F5, F7).
    """

    game: str = "portes"
    match: MatchSettings = field(default_factory=MatchSettings)
    settings: TavliSettings = field(default_factory=TavliSettings)

    @property
    def tavli(self) -> bool:
        """Refereed as a tavli match (any game but plain Portes)."""
        return self.game != "portes"


@dataclass(frozen=True, slots=True)
class TableConfig:
    """The whole file: one dataclass per section."""

    table: TableSection = field(default_factory=TableSection)
    camera: CameraConfig = field(default_factory=CameraConfig)
    referee: RefereeSettings = field(default_factory=RefereeSettings)  # [referee], [rules], [clock]
    signals: SignalsConfig = field(default_factory=SignalsConfig)
    display: DisplayConfig = field(default_factory=DisplayConfig)
    record: RecordConfig = field(default_factory=RecordConfig)
    link: LinkConfig = field(default_factory=LinkConfig)
    feed: FeedConfig = field(default_factory=FeedConfig)
    game: GameConfig = field(default_factory=GameConfig)  # [rules] game, [tavli]
    source: str = "config"  # the file it came from


_NUM = (int, float)
_SCHEMA: dict[str, dict[str, type | tuple[type, ...]]] = {
    "table": {"id": str, "players": list, "match_length": int, "home": str, "light_is_white": bool,
              "attended": bool},
    "camera": {"source": str, "fps": _NUM, "calibration": str, "corners": str},
    "referee": {
        "die_on_checker_void": bool, "premature": str, "illegal_policy": str, "settle_frames": int,
        "stable_frames": int, "accept_margin": _NUM, "accept_gap": _NUM,
        "illegal_gap": _NUM, "illegal_confidence": _NUM, "clear_view_after": int, "infer_unseen_rolls": bool, "in_progress_spots": int,
        "unattended_wait": _NUM,
    },
    "rules": {
        "jacoby": bool, "automatic_doubles": bool, "max_automatic": int, "beavers": bool,
        "backgammon_value": int, "max_cube": int, "crawford": bool, "game": str,
    },
    # [tavli]: the match keys of RULES-TAVLI.md without "tavli.", and the rule settings as
    # dotted keys (plakoto.mother = ..., fevga.first_checker = ...): checked by _game()
    "tavli": {
        "match_length": int, "games": list, "winner_starts": bool, "portes_backgammon": int,
        "plakoto": dict, "fevga": dict,
    },
    "signals": {"enabled": bool, "pinout": str, "pin_factory": str},
    "display": {
        "enabled": bool, "host": str, "port": int, "pin": str, "tls_cert": str, "tls_key": str,
        "max_sockets": int, "max_sockets_per_client": int, "allowed_origins": list, "lockout_attempts": int,
        "lockout_seconds": _NUM, "lockout_max_seconds": _NUM,
    },
    "record": {"log": str, "save_frames": bool},
    "link": {"port": str},
    "feed": {"broker": str, "event": str, "username": str, "password": str, "tls_ca": str, "outbox": str},
    "clock": {
        "enabled": bool, "per_point": _NUM, "per_point_scored": _NUM, "delay": _NUM,
        "on_timeout": str, "overtime": _NUM, "money_reserve": _NUM, "reset_each_game": bool,
    },
}
#: keys naming a file, read relative to the config file
_PATHS = {("camera", "calibration"), ("signals", "pinout"), ("record", "log"), ("feed", "tls_ca"),
          ("feed", "outbox"), ("display", "tls_cert"), ("display", "tls_key")}


def _check(data: dict[str, Any], where: str) -> dict[str, dict[str, Any]]:
    out: dict[str, dict[str, Any]] = {}
    for section, body in data.items():
        if section not in _SCHEMA:
            raise ConfigError(f"{where}: unknown section [{section}]; known: {', '.join(_SCHEMA)}")
        if not isinstance(body, dict):
            raise ConfigError(f"{where}: {section} must be a table ([{section}])")
        for key, value in body.items():
            want = _SCHEMA[section].get(key)
            if section == "tavli" and "cube" in key.lower():
                raise ConfigError(f"{where}: tavli.{key}: there is no doubling cube in Plakoto, Fevga or a "
                                  "tavli match (V2, T3): remove the key")
            if want is None:
                raise ConfigError(f"{where}: unknown key {section}.{key}; known: {', '.join(_SCHEMA[section])}")
            wants = want if isinstance(want, tuple) else (want,)
            if isinstance(value, bool) and bool not in wants:
                raise ConfigError(f"{where}: {section}.{key} must be a number, not true/false")
            if not isinstance(value, want):
                names = " or ".join(t.__name__ for t in wants)
                raise ConfigError(f"{where}: {section}.{key} must be {names}, got {value!r}")
            if isinstance(value, float) and not math.isfinite(value):
                raise ConfigError(f"{where}: {section}.{key} must be a finite number, got {value!r}")
        out[section] = body
    return out


def _optional(body: dict[str, Any], section: str, base: Path) -> dict[str, Any]:
    """A section's keys for its dataclass: "" becomes None, file keys are made relative to the file."""
    out: dict[str, Any] = {}
    for key, value in body.items():
        if value == "" and _SCHEMA[section][key] is str:
            value = None
        elif (section, key) in _PATHS and isinstance(value, str):
            value = _path(base, value)
        out[key] = value
    return out


def default_log(table_id: str) -> str:
    """Where a table's match log goes when ``[record] log`` is not given: the service's state folder
    (systemd's ``$STATE_DIRECTORY``), else ``$XDG_STATE_HOME/tavli-pi`` (``~/.local/state/tavli-pi``),
    as ``<table id>.sqlite``; never the current folder or the source tree.

    >>> import os; os.environ["STATE_DIRECTORY"] = "/var/lib/tavli-pi"
    >>> default_log("table-3")
    '/var/lib/tavli-pi/table-3.sqlite'
    >>> del os.environ["STATE_DIRECTORY"]
    """
    state = os.environ.get("STATE_DIRECTORY", "").split(":")[0]
    if not state:
        xdg = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
        state = str(Path(xdg) / "tavli-pi")
    safe = "".join(c if c.isalnum() or c in "-_." else "_" for c in table_id) or "table"
    return str(Path(state) / f"{safe}.sqlite")


def _path(base: Path, p: str) -> str:
    return str(base / p) if not Path(p).is_absolute() and ":" not in p else p


def parse_config(text: str, where: str = "config") -> TableConfig:
    try:
        raw = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{where} is not valid TOML: {exc}") from exc
    d = _check(raw, where)
    base = Path(where).parent if where != "config" else Path(".")
    sec = {name: _optional(d.get(name, {}), name, base) for name in _SCHEMA}
    t, c, s, di, fe = sec["table"], sec["camera"], sec["signals"], sec["display"], sec["feed"]
    players = t.pop("players", ["White", "Black"])
    if len(players) != 2 or not all(isinstance(p, str) and p.strip() for p in players):
        raise ConfigError(f"{where}: table.players must be two names, White's first")
    if t.get("match_length", 0) < 0:
        raise ConfigError(f"{where}: table.match_length must be 0 (money) or a number of points")
    if t.get("home", "bottom-right") not in ("bottom-right", "bottom-left", "auto"):
        raise ConfigError(
            f"{where}: table.home must be bottom-right, bottom-left or auto (learnt from the set-up board) (B4)"
        )
    table = TableSection(players=(players[0], players[1]), **t)
    r = d.get("referee", {})
    if r.get("premature", "void") not in PREMATURE_POLICIES:
        raise ConfigError(f"{where}: referee.premature must be one of {', '.join(PREMATURE_POLICIES)} (E6)")
    if r.get("illegal_policy", "responsible-moves") not in ILLEGAL_POLICIES:
        raise ConfigError(f"{where}: referee.illegal_policy must be one of {', '.join(ILLEGAL_POLICIES)} (E8)")
    if "fps" in c:
        c["fps"] = float(c["fps"])
        if c["fps"] <= 0:
            raise ConfigError(f"{where}: camera.fps must be a positive number of frames a second, e.g. 10")
    if s.get("pin_factory") not in (None, "mock"):
        raise ConfigError(f"{where}: signals.pin_factory must be \"\" (the real pins) or \"mock\"")
    origins = di.pop("allowed_origins", [])
    if not all(isinstance(o, str) and o.startswith(("http://", "https://")) for o in origins):
        raise ConfigError(f"{where}: display.allowed_origins must be a list of origins such as "
                          "\"https://table-1.local:8080\"")
    display = DisplayConfig(allowed_origins=tuple(origins), **di)
    if not 0 <= display.port <= 65535:
        raise ConfigError(f"{where}: display.port must be 0-65535")
    if display.host is None:
        raise ConfigError(f"{where}: display.host must name one address: 127.0.0.1 (this screen only) "
                          "or 0.0.0.0 (phones on the network too)")
    if (display.tls_cert is None) != (display.tls_key is None):
        raise ConfigError(f"{where}: display.tls_cert and display.tls_key go together (docs/display.md)")
    for key in ("max_sockets", "max_sockets_per_client", "lockout_attempts"):
        if getattr(display, key) < 1:
            raise ConfigError(f"{where}: display.{key} must be at least 1")
    if not 0 < display.lockout_seconds <= display.lockout_max_seconds:
        raise ConfigError(f"{where}: display.lockout_seconds must be positive and at most lockout_max_seconds")
    if display.enabled and not (display.pin is not None and display.pin.isdigit() and len(display.pin) >= 4):
        raise ConfigError(f"{where}: display.pin must be at least 4 digits when the display is enabled")
    feed = FeedConfig(**fe)
    if feed.broker is not None:
        from tavli_pi.errors import FeedError
        from tavli_pi.tournament.feed import parse_broker

        try:
            parse_broker(feed.broker)
        except FeedError as exc:
            raise ConfigError(f"{where}: feed.broker: {exc}") from exc
    if feed.password is not None and feed.username is None:
        raise ConfigError(f"{where}: feed.password needs feed.username")
    ck = d.get("clock", {})
    clock = _clock(ck, where)
    rules_raw = dict(d.get("rules", {}))
    game = _game(rules_raw, d.get("tavli", {}), t.get("match_length", 0), where)
    rules_raw.pop("game", None)
    try:
        rules = Settings(**rules_raw)
        attended = table.attended if table.attended is not None else not str(c.get("source", "")).startswith("replay:")
        referee = RefereeSettings(light_is_white=table.light_is_white, rules=rules, clock=clock,
                                  clock_reset_each_game=ck.get("reset_each_game", False), attended=attended, **r)
    except ConfigError as exc:
        raise ConfigError(f"{where}: {exc}") from exc
    return TableConfig(
        table=table, camera=CameraConfig(**c), referee=referee, signals=SignalsConfig(**s), display=display,
        record=RecordConfig(**{"log": default_log(table.id), **sec["record"]}), link=LinkConfig(**sec["link"]),
        feed=feed, game=game, source=where,
    )


#: [rules] keys that ask for a doubling cube (C2-C5): refused outside Portes (V2, T3)
_CUBE_KEYS = {"jacoby": False, "automatic_doubles": False, "beavers": False}


def _game(rules: dict[str, Any], tavli: dict[str, Any], table_length: int, where: str) -> GameConfig:
    """``[rules] game`` and ``[tavli]`` as a :class:`GameConfig` (ConfigError naming the key)."""
    game = rules.get("game", "portes")
    if game not in GAMES:
        raise ConfigError(f"{where}: rules.game must be one of {', '.join(GAMES)} (RULES-TAVLI.md T2), "
                          f"got {game!r}")
    if game == "portes":
        if tavli:
            raise ConfigError(f"{where}: [tavli] is only read with rules.game = \"plakoto\", \"fevga\" or "
                              "\"tavli\": set rules.game or remove [tavli]")
        return GameConfig()
    for key, off in _CUBE_KEYS.items():
        if rules.get(key, off) != off:
            raise ConfigError(f"{where}: rules.{key} asks for the doubling cube, and there is none in "
                              f"Plakoto, Fevga or a tavli match (V2, T3): remove it or set it to false")
    if rules.get("crawford", False):
        raise ConfigError(f"{where}: rules.crawford: a tavli match has no Crawford rule (T4): remove it")
    for key in ("max_cube", "max_automatic"):
        if key in rules:
            raise ConfigError(f"{where}: rules.{key} is a cube setting, and there is no cube in Plakoto, "
                              f"Fevga or a tavli match (V2, T3): remove it")
    rule_keys: dict[str, object] = {}
    match_keys: dict[str, object] = {}
    for key, value in tavli.items():
        if isinstance(value, dict):
            for sub, v in value.items():
                rule_keys[f"{key}.{sub}"] = v
        else:
            match_keys[f"tavli.{key}"] = value
    if "tavli.match_length" not in match_keys and table_length > 0:
        match_keys["tavli.match_length"] = table_length
    if game != "tavli":
        if "tavli.games" in match_keys:
            raise ConfigError(f"{where}: tavli.games is for rules.game = \"tavli\"; with {game!r} every "
                              "game is " + game.capitalize())
        match_keys["tavli.games"] = [game]
    try:
        settings = settings_from_mapping(rule_keys)
        match = match_settings_from_mapping(match_keys)
    except ConfigError as exc:
        raise ConfigError(f"{where}: [tavli] {exc}") from exc
    return GameConfig(game, match, settings)


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
    """The config in ``path``; ConfigError (one line, naming the file and what to do) if it cannot be read."""
    p = Path(path)
    try:
        data = p.read_bytes()
    except FileNotFoundError as exc:
        raise ConfigError(f"config file {p} not found: copy config/table.example.toml and edit it") from exc
    except IsADirectoryError as exc:
        raise ConfigError(f"config file {p} is a folder: give the table's .toml file inside it") from exc
    except PermissionError as exc:
        raise ConfigError(f"config file {p} cannot be read (permission denied): "
                          f"make it readable by this user (chmod a+r {p})") from exc
    except OSError as exc:
        raise ConfigError(f"config file {p} cannot be read ({exc.strerror or exc}): "
                          "check the path and the disk") from exc
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(f"config file {p} is not a text (UTF-8 TOML) file: give the table's .toml "
                          "file (see config/table.example.toml)") from exc
    return parse_config(text, str(p))
