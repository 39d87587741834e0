"""hardware/: the wiring tables agree with pinout.toml; firmware/pins.py is generated from it."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
HW = REPO / "hardware"
PINOUT = tomllib.loads((HW / "pinout.toml").read_text())
NOT_PINS = {"pico.strip_leds"}


def _toml_pins() -> dict[str, int]:
    out = {}
    for section, keys in PINOUT.items():
        for key, value in keys.items():
            if f"{section}.{key}" not in NOT_PINS:
                out[f"{section}.{key}"] = value
    return out


def _doc_rows() -> list[tuple[str, int, int]]:
    rows = []
    for line in (HW / "WIRING.md").read_text().splitlines():
        m = re.match(r"^\|[^|]+\|\s*([a-z_]+\.[a-z_]+)\s*\|\s*(\d+)\s*\|\s*(\d+)\s*\|$", line)
        if m:
            rows.append((m.group(1), int(m.group(2)), int(m.group(3))))
    return rows


def test_the_signal_engineers_keys_are_still_there() -> None:
    assert set(PINOUT["leds"]) >= {"green", "amber", "red"}
    assert "pin" in PINOUT["buzzer"]
    assert set(PINOUT["buttons"]) >= {"accept", "correct", "double", "take", "pass"}
    assert set(PINOUT["paddles"]) >= {"white", "black"}


def test_wiring_table_matches_pinout_toml() -> None:
    rows = _doc_rows()
    documented = {key: pin for key, pin, _ in rows}
    assert len(documented) == len(rows), "a key is documented twice"
    assert documented == _toml_pins()


def test_header_pins_are_the_right_physical_pins() -> None:
    # Pi 40-pin header: BCM -> physical pin (Raspberry Pi documentation, GPIO pinout)
    header = {2: 3, 3: 5, 4: 7, 17: 11, 27: 13, 22: 15, 10: 19, 9: 21, 11: 23, 5: 29, 6: 31, 13: 33, 19: 35,
              26: 37, 14: 8, 15: 10, 18: 12, 23: 16, 24: 18, 25: 22, 8: 24, 7: 26, 12: 32, 16: 36, 20: 38, 21: 40}
    # Pico: GPn -> physical pin (Raspberry Pi Pico datasheet pinout)
    pico = {0: 1, 1: 2, 2: 4, 3: 5, 4: 6, 5: 7, 6: 9, 7: 10, 8: 11, 9: 12, 10: 14, 11: 15, 12: 16, 13: 17,
            14: 19, 15: 20, 16: 21, 17: 22, 18: 24, 19: 25, 20: 26, 21: 27, 22: 29, 26: 31, 27: 32, 28: 34}
    for key, pin, physical in _doc_rows():
        table = pico if key.startswith("pico.") else header
        assert table[pin] == physical, f"{key}: GPIO {pin} is physical pin {table[pin]}, WIRING.md says {physical}"


def test_no_pin_used_twice_per_board() -> None:
    pins = _toml_pins()
    pi = [v for k, v in pins.items() if not k.startswith("pico.")]
    pico = [v for k, v in pins.items() if k.startswith("pico.")]
    assert len(pi) == len(set(pi)) and len(pico) == len(set(pico))


def test_firmware_pins_module_is_generated_from_the_toml() -> None:
    r = subprocess.run([sys.executable, str(HW / "gen_firmware_pins.py"), "--check"], capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    text = (REPO / "firmware" / "pins.py").read_text()
    for key, value in PINOUT["pico"].items():
        assert f"{key.upper()} = {value}\n" in text


def test_bom_names_the_parts() -> None:
    bom = (HW / "BOM.md").read_text()
    for part in ("Raspberry Pi 5", "Raspberry Pi 4", "Camera Module 3", "Camera Module 3 Wide", "Pico",
                 "WS2812B", "paddles", "TM1637", "mount", "$"):
        assert part in bom, part
