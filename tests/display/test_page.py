"""The table page in a real headless Chromium: shows the state, buttons work, players see what they expect.

Screenshots at kiosk (800x480, 1280x720) and phone (390x844) sizes go to
``$TAVLI_SCREENSHOTS`` if set, else to the test's temp dir.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from tavli_pi.display import DisplayServer
from tavli_pi.referee.events import PlayAccepted
from tavli_pi.referee.inputs import Action, PlayerInput
from tavli_pi.rules.ids import position_id

from .helpers import accepted, illegal, long_game, scripted_game

SIZES = {"kiosk-800x480": (800, 480), "kiosk-1280x720": (1280, 720), "phone-390x844": (390, 844)}
BAR_X = 40 + 6 * (1400 - 2 * 40 - 90 - 80) / 12 + 40  # the board's middle (app.js: M + 6 * COL_W + BAR / 2)


@pytest.fixture
def served() -> Iterator[tuple[DisplayServer, list[PlayerInput]]]:
    got: list[PlayerInput] = []
    srv = DisplayServer("127.0.0.1", 0, pin="2468", on_input=got.append).start()
    try:
        yield srv, got
    finally:
        srv.close()


@pytest.fixture
def viewport(browser: Any) -> Iterator[Any]:
    """Set the exact CSS viewport (and phone emulation); restored afterwards for the other tests."""

    def size(width: int, height: int) -> None:
        browser.execute_cdp_cmd(
            "Emulation.setDeviceMetricsOverride",
            {"width": width, "height": height, "deviceScaleFactor": 1, "mobile": width < 600},
        )

    yield size
    browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


@pytest.fixture
def shots(tmp_path: Path) -> Path:
    out = Path(os.environ.get("TAVLI_SCREENSHOTS") or tmp_path)
    out.mkdir(parents=True, exist_ok=True)
    return out


def _text(browser: Any, id_: str) -> str:
    return str(browser.find_element(By.ID, id_).text)


def _content(browser: Any, id_: str) -> str:
    return str(browser.find_element(By.ID, id_).get_attribute("textContent"))


def _attrs(browser: Any, css: str, attr: str) -> list[str]:
    """The ``attr`` of each element ``css`` selects, in page order, read in one script (as ``_dice``)."""
    got = browser.execute_script(
        "return Array.from(document.querySelectorAll(arguments[0])).map(e => e.getAttribute(arguments[1]));",
        css, attr)
    return [str(a) for a in got]


def _points(browser: Any, css: str) -> list[str]:
    return sorted(_attrs(browser, css, "data-point"))


def _dice(browser: Any) -> list[tuple[str, int, str]]:
    """Each drawn die: its side, value and the half of the board its box lies in. Read in one
    script: the page may draw the board again between two WebDriver calls (a die found by one and
    gone by the next was a stale element, a flaky failure in CI)."""
    drawn = browser.execute_script(
        "return Array.from(document.querySelectorAll('#board g.die')).map(g => {"
        " const b = g.getBBox(); return [g.getAttribute('class'), g.getAttribute('data-value'), b.x, b.x + b.width]; });")
    out = []
    for cls, value, x0, x1 in drawn:
        half = "left" if x1 < BAR_X else "right" if x0 > BAR_X else "across"
        side = "black" if "black" in cls else "white"
        out.append((side, int(value), half))
    return sorted(out)


def _rows(browser: Any) -> list[list[str]]:
    """The move list's rows, each cell's text, read in one script (as ``_dice``: the page drew the
    list again between WebDriver calls and a row found by one was stale in the next -- both sizes
    failed so in stop 20's CI run, Chromium 156)."""
    got = browser.execute_script(
        "return Array.from(document.querySelectorAll('#move-list tbody tr'))"
        ".map(r => Array.from(r.querySelectorAll('td')).map(td => td.textContent));")
    return [[str(c) for c in row] for row in got]


def _in_view(browser: Any, css: str) -> bool:
    return bool(browser.execute_script(
        "const r = document.querySelector(arguments[0]).getBoundingClientRect();"
        "return r.width > 0 && r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight + 1 && r.right <= innerWidth + 1;",
        css,
    ))


def _no_overlaps(browser: Any) -> None:
    """The board, facts, move list and buttons each keep their own space (nothing drawn over another)."""
    parts = ["#board", "#facts", "#moves", "#decisions", "#verdict"]
    boxes = browser.execute_script(
        "return arguments[0].map((c) => { const r = document.querySelector(c).getBoundingClientRect();"
        " return [r.left, r.top, r.right, r.bottom]; });", parts)
    for i, a in enumerate(boxes):
        for j in range(i + 1, len(boxes)):
            b = boxes[j]
            inter_w = min(a[2], b[2]) - max(a[0], b[0])
            inter_h = min(a[3], b[3]) - max(a[1], b[1])
            assert inter_w <= 1 or inter_h <= 1, f"{parts[i]} overlaps {parts[j]}: {a} {b}"


def test_page_shows_state_and_updates_live(browser: Any, served: Any) -> None:
    srv, _ = served
    srv.handle(accepted())
    browser.get(srv.url)
    wait = WebDriverWait(browser, 15)
    wait.until(lambda b: _text(b, "verdict") == "Play accepted")
    assert _text(browser, "score") == "1 – 0"
    assert _text(browser, "pips-white") == "163"
    assert _content(browser, "position-id") == position_id(accepted().state.position)
    assert browser.find_element(By.ID, "crawford").is_displayed() is False
    assert len(browser.find_elements(By.CSS_SELECTOR, "#board circle.checker")) == 30
    # a pushed illegal play arrives without reloading
    srv.handle(illegal())
    wait.until(lambda b: _text(b, "verdict").startswith("Illegal play"))
    assert "illegal" in browser.find_element(By.ID, "verdict").get_attribute("class")
    assert _text(browser, "rule") == "rule M2"
    assert browser.find_element(By.ID, "crawford").is_displayed()
    assert _points(browser, "#board polygon.wrong") == ["13", "18"]
    due = _attrs(browser, "#decisions button.due", "data-action")
    assert due == ["accept", "correct"]


def test_buttons_send_decisions_with_the_pin_and_the_pages_token(browser: Any, served: Any) -> None:
    srv, got = served
    srv.handle(illegal())
    browser.get(srv.url)
    wait = WebDriverWait(browser, 15)
    wait.until(lambda b: _text(b, "verdict").startswith("Illegal"))
    pin = browser.find_element(By.ID, "pin")
    pin.clear()
    pin.send_keys("1111")
    browser.find_element(By.CSS_SELECTOR, "button[data-action='correct']").click()
    wait.until(lambda b: "wrong table PIN" in _text(b, "input-status"))
    assert got == []
    pin.clear()
    pin.send_keys("0246")  # a leading zero survives: the page sends the PIN as a string
    browser.find_element(By.CSS_SELECTOR, "button[data-action='correct']").click()
    wait.until(lambda b: "wrong table PIN" in _text(b, "input-status") and got == [])
    pin.clear()
    pin.send_keys("2468")
    browser.find_element(By.CSS_SELECTOR, "button[data-action='correct']").click()
    wait.until(lambda b: _text(b, "input-status") == "sent: correct")
    assert got == [PlayerInput(Action.CORRECT, None, source="touch")]


def test_the_players_enter_a_roll_the_camera_cannot_read(browser: Any, served: Any) -> None:
    """roll_needed (dice too small to read, or read without certainty): the page offers two dice
    and sends the roll with the PIN as Action.ROLL; otherwise the dice pickers are hidden."""
    from tavli_pi.referee import events as E
    from tavli_pi.rules.position import Side

    from .helpers import state

    srv, got = served
    srv.handle(illegal())
    browser.get(srv.url)
    wait = WebDriverWait(browser, 15)
    wait.until(lambda b: _text(b, "verdict").startswith("Illegal"))
    assert not browser.find_element(By.ID, "roll-entry").is_displayed()
    srv.handle(E.RollNeeded(at=3.0, state=state(phase="awaiting_roll", last_verdict="enter the roll"),
                            side=Side.BLACK, reason="too small to read (8 px, need 12)",
                            message="The camera sees the dice but cannot read them: Black, enter your roll."))
    wait.until(lambda b: b.find_element(By.ID, "roll-entry").is_displayed())
    due = _attrs(browser, "#decisions button.due", "data-action")
    assert "roll" in due
    from selenium.webdriver.support.ui import Select

    Select(browser.find_element(By.ID, "die-a")).select_by_visible_text("5")
    Select(browser.find_element(By.ID, "die-b")).select_by_visible_text("3")
    pin = browser.find_element(By.ID, "pin")
    pin.clear()
    pin.send_keys("2468")
    browser.find_element(By.CSS_SELECTOR, "button[data-action='roll']").click()
    wait.until(lambda b: _text(b, "input-status") == "sent: roll")
    assert got == [PlayerInput(Action.ROLL, None, 53, source="touch")]


def test_a_page_of_another_origin_cannot_post_decisions(browser: Any, served: Any) -> None:
    """A page served from elsewhere (here 'localhost', a different origin) posts as an attacker would."""
    srv, got = served
    other = srv.url.replace("127.0.0.1", "localhost")  # the table as the attacker's page names it
    browser.get(srv.url + "static/style.css")  # the attacker's page: an origin of its own
    result = browser.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "fetch(arguments[0] + 'api/input', {method: 'POST', mode: 'no-cors', headers: {'Content-Type': 'text/plain'},"
        " body: JSON.stringify({action: 'take', pin: '2468'})}).then(() => done('sent'), (e) => done('blocked ' + e));",
        other,
    )
    assert result in ("sent", "blocked TypeError: Failed to fetch")
    assert got == []  # text/plain, no token, foreign Origin: refused whatever the browser let through


@pytest.mark.parametrize("name", list(SIZES))
def test_players_see_dice_last_play_moves_and_cube(browser: Any, served: Any, viewport: Any, shots: Path,
                                                  name: str) -> None:
    srv, _ = served
    viewport(*SIZES[name])
    events = scripted_game()
    wait = WebDriverWait(browser, 15)
    srv.handle(events[0])
    srv.handle(events[1])  # the opening roll: one die in each half (E1)
    browser.get(srv.url)
    wait.until(lambda b: len(_dice(b)) == 2)
    assert _dice(browser) == [("black", 1, "left"), ("white", 3, "right")]
    assert _text(browser, "cube") == "centred"
    assert browser.find_element(By.ID, "cube-drawn").get_attribute("data-owner") == "centre"
    browser.save_screenshot(str(shots / f"{name}-opening.png"))
    for e in events[2:]:
        srv.handle(e)
    wait.until(lambda b: len(_rows(b)) == 3 and len(_dice(b)) == 2 and _dice(b)[0][1] == 3)
    # the dice where they lie: Black's 4-3 in Black's right-hand half (drawn left)
    assert _dice(browser) == [("black", 3, "left"), ("black", 4, "left")]
    # the last play, White's 13/11 13/7*: rings where checkers arrived, ghosts where they left
    assert _points(browser, "#board circle.last-to") == ["11", "7"]
    assert _points(browser, "#board circle.last-from") == ["13", "13"]
    assert _content(browser, "last-play") == "Anna 62: 13/11 13/7*"
    # the move list in gnubg notation, White (Anna) left, Black (Bora) right
    assert _rows(browser) == [
        ["1)", "31: 8/5 6/5", "64: 24/18 13/9"],
        ["2)", "Doubles => 2", "Takes"],
        ["3)", "62: 13/11 13/7*", ""],
    ]
    assert _content(browser, "ml-white") == "Anna" and _content(browser, "ml-black") == "Bora"
    # the cube as players say it, drawn on Black's side at 2
    assert _text(browser, "cube") == "Black owns 2"
    cube = browser.find_element(By.ID, "cube-drawn")
    assert cube.get_attribute("data-owner") == "black" and cube.get_attribute("data-face") == "2"
    for css in ("#board", "#verdict", "#move-list"):
        assert browser.find_element(By.CSS_SELECTOR, css).is_displayed()
    _no_overlaps(browser)
    if name.startswith("kiosk"):  # a kiosk never scrolls: the board, moves and buttons all in view
        for css in ("#board", "#move-scroll", "#decisions button[data-action='pass']", "#verdict"):
            assert _in_view(browser, css), f"{css} is off screen at {name}"
    else:  # the phone: the board fills the width
        width = browser.execute_script("return document.getElementById('board').getBoundingClientRect().width")
        assert width >= SIZES[name][0] - 20
    browser.save_screenshot(str(shots / f"{name}-game.png"))
    assert (shots / f"{name}-game.png").stat().st_size > 10_000


@pytest.mark.parametrize("name", ["kiosk-800x480", "phone-390x844"])
def test_the_move_list_scrolls_to_the_newest_move(browser: Any, served: Any, viewport: Any, shots: Path,
                                                  name: str) -> None:
    srv, _ = served
    viewport(*SIZES[name])
    events = long_game()
    plays = len(events) - 1  # after the game start; White first, one row per exchange
    assert plays > 30
    for e in events:
        srv.handle(e)
    browser.get(srv.url)
    wait = WebDriverWait(browser, 15)
    wait.until(lambda b: len(_rows(b)) == (plays + 1) // 2)
    assert _content(browser, "game-number") == "2"
    box = browser.find_element(By.ID, "move-scroll")
    scroll_h, client_h, top = browser.execute_script(
        "const e = arguments[0]; return [e.scrollHeight, e.clientHeight, e.scrollTop];", box)
    assert scroll_h > client_h  # it scrolls ...
    assert top + client_h >= scroll_h - 2  # ... and shows the newest move
    last = browser.find_elements(By.CSS_SELECTOR, "#move-list tbody tr")[-1]
    last_box = browser.execute_script(
        "const a = arguments[0].getBoundingClientRect(), b = arguments[1].getBoundingClientRect();"
        "return a.top >= b.top - 1 && a.bottom <= b.bottom + 1;", last, box)
    assert last_box
    rows = _rows(browser)
    assert rows[0][1].startswith("31: ") and rows[0][2].startswith("64: ")
    last = events[-1]
    assert isinstance(last, PlayAccepted) and last.play == "4/2 4/off"  # White bears one off
    assert _points(browser, "#board rect.last-to") == ["off"]  # the checker that reached the tray
    assert _points(browser, "#board circle.last-from") == ["4", "4"] and _points(browser, "#board circle.last-to") == ["2"]
    _no_overlaps(browser)
    if name.startswith("kiosk"):
        assert _in_view(browser, "#decisions button[data-action='pass']")
    browser.save_screenshot(str(shots / f"{name}-long.png"))


def _plakoto_pin_events() -> list[Any]:
    """A tavli match's Plakoto game, refereed from synthetic frames: White pins a Black checker (P3)."""
    from tests.referee.synth import Table, roll_dice
    from tavli_pi.referee.referee import Referee
    from tavli_pi.referee.settings import RefereeSettings
    from tavli_pi.rules.games import legal_ends
    from tavli_pi.rules.position import Side
    from tavli_pi.rules.tavli_match import GameEntry, TavliMatch
    from tavli_pi.rules.tavli_position import TavliPosition
    from tavli_pi.rules.tavli_settings import MatchSettings, Variant

    m = TavliMatch(MatchSettings(match_length=3), (2, 0), (GameEntry(Variant.PORTES, Side.WHITE, 2),))
    pos = TavliPosition.from_stacks({24: "w15", 1: "b14", 18: "b1"})
    t = Table(Referee(RefereeSettings(), tavli=m, start=pos, players=("Anna", "Bora")))
    t.setup(pos)
    after = next(e.position for e in legal_ends(Variant.PLAKOTO, pos, (6, 1)) if e.moves == "24/18* 24/23")
    dice = roll_dice(Side.WHITE, (6, 1))
    t.throw(pos, dice)
    t.move_and_pick_up(pos, after, dice)
    assert any(e.kind == "play_accepted" for e in t.events)
    return t.events


def test_the_page_shows_the_game_pinned_checkers_and_the_tavli_score(browser: Any, served: Any, viewport: Any,
                                                                    shots: Path) -> None:
    srv, _ = served
    viewport(*SIZES["kiosk-1280x720"])
    for e in _plakoto_pin_events():
        srv.handle(e)
    browser.get(srv.url)
    wait = WebDriverWait(browser, 15)
    wait.until(lambda b: _content(b, "variant") == "Plakoto" and _points(b, "#board circle.pinned") == ["18"])
    pinned = browser.find_element(By.CSS_SELECTOR, "#board circle.pinned")
    assert pinned.get_attribute("data-side") == "black"  # Black's checker under White's (P3)
    assert browser.find_element(By.ID, "variant").is_displayed()
    assert _content(browser, "match-length") == "tavli to 3"
    assert _content(browser, "score") == "2 – 0"
    assert _content(browser, "tavli-games") == "Portes: White +2"
    assert _content(browser, "last-play").endswith("61: 24/18* 24/23")
    assert _content(browser, "xgid") == "" and _content(browser, "position-id").startswith("b14 ")
    # no cube in a tavli match (V2, T3): none drawn, none due
    assert not browser.find_elements(By.ID, "cube-drawn") and _content(browser, "cube") == "none (V2)"
    assert not browser.find_elements(By.CSS_SELECTOR, "#decisions button.due")
    _no_overlaps(browser)
    browser.save_screenshot(str(shots / "tavli-plakoto-pin.png"))
