"""The GPIO pins, read from ``hardware/pinout.toml`` (the single source, BCM numbering)."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tavli_pi.errors import ConfigError

__all__ = ["Pinout", "load_pinout", "DEFAULT_PINOUT"]

#: hardware/pinout.toml in a source checkout.
DEFAULT_PINOUT = Path(__file__).resolve().parents[2] / "hardware" / "pinout.toml"

_LEDS = ("green", "amber", "red")
_BUTTONS = ("accept", "correct", "double", "take", "pass")


@dataclass(frozen=True, slots=True)
class Pinout:
    leds: dict[str, int]  # green, amber, red
    buzzer: int
    buttons: dict[str, int]  # accept, correct, double, take, pass
    paddles: dict[str, int]  # white, black (optional)


def _pin(d: dict[str, Any], key: str, where: str, path: Path) -> int:
    v = d.get(key)
    if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v <= 27:
        raise ConfigError(f"{path}: [{where}] {key} must be a BCM pin number 0-27, got {v!r}")
    return v


def load_pinout(path: str | Path | None = None) -> Pinout:
    """Read the pinout; ConfigError names the key that is missing or wrong."""
    p = Path(path) if path is not None else DEFAULT_PINOUT
    try:
        data = tomllib.loads(p.read_text())
    except FileNotFoundError as exc:
        raise ConfigError(f"pinout file {p} not found: set signals.pinout in the config") from exc
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"pinout file {p} is not valid TOML: {exc}") from exc
    leds = data.get("leds", {})
    buttons = data.get("buttons", {})
    paddles = data.get("paddles", {})
    pinout = Pinout(
        leds={k: _pin(leds, k, "leds", p) for k in _LEDS},
        buzzer=_pin(data.get("buzzer", {}), "pin", "buzzer", p),
        buttons={k: _pin(buttons, k, "buttons", p) for k in _BUTTONS},
        paddles={k: _pin(paddles, k, "paddles", p) for k in ("white", "black") if k in paddles},
    )
    used = [*pinout.leds.values(), pinout.buzzer, *pinout.buttons.values(), *pinout.paddles.values()]
    if len(used) != len(set(used)):
        raise ConfigError(f"{p}: a GPIO pin is used twice: {sorted(used)}")
    return pinout
