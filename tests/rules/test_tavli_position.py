"""The RULES-TAVLI.md position notation: printed and parsed exactly; bad input named."""

from __future__ import annotations

import pytest

from tavli_pi.errors import InvalidPositionError
from tavli_pi.rules.position import Side
from tavli_pi.rules.tavli_position import (
    TavliPosition,
    format_tavli_position,
    own_to_physical,
    parse_tavli_position,
    physical_to_own,
)
from tavli_pi.rules.tavli_settings import Variant

PLAKOTO_START = "b15 " + "- " * 22 + "w15 0 0 white"
FEVGA_START = "- " * 11 + "b15 " + "- " * 11 + "w15 0 0 white"


def test_starts_print_as_the_rules_page_writes_them() -> None:
    assert format_tavli_position(TavliPosition.start(Variant.PLAKOTO)) == PLAKOTO_START
    assert format_tavli_position(TavliPosition.start(Variant.FEVGA)) == FEVGA_START
    assert parse_tavli_position(FEVGA_START) == TavliPosition.start(Variant.FEVGA)


def test_pinned_stacks_bottom_up() -> None:
    text = "b1w3 w1b2 " + "- " * 20 + "w11 b12 0 0 black"
    p = parse_tavli_position(text)
    assert p.stack(1) == (3, 1, -1)  # a black checker pinned under three white
    assert p.stack(2) == (1, 2, 1)  # a white checker pinned under two black
    assert p.pinned_side(1) is Side.BLACK and p.pinned_side(2) is Side.WHITE
    assert p.turn is Side.BLACK
    assert format_tavli_position(p) == text
    assert str(p) == text


def test_round_trip_with_trays() -> None:
    text = "b1w2 - w3 " + "- " * 18 + "b4 w5 - 5 10 white"
    assert format_tavli_position(parse_tavli_position(text)) == text


@pytest.mark.parametrize("text,words", [
    ("x15 " + "- " * 22 + "w15 0 0 white", ["point 1", "'x15'", "w/b"]),
    ("b " + "- " * 22 + "w15 0 0 white", ["point 1", "count"]),
    ("b2w3 " + "- " * 21 + "b13 w12 0 0 white", ["point 1", "'b2w3'", "one pinned checker", "P3"]),
    ("b1b3 " + "- " * 22 + "w15 0 0 white", ["point 1", "other colour"]),
    ("b1w1b1 " + "- " * 22 + "w15 0 0 white", ["point 1", "two colours"]),
    ("b14 " + "- " * 22 + "w15 0 0 white", ["black has 14", "15"]),
    ("b15 " + "- " * 22 + "w16 0 0 white", ["white has 16"]),
    ("b15 " + "- " * 22 + "w15 0 0 red", ["'red'", "white or black"]),
    ("b15 " + "- " * 22 + "w15 x 0 white", ["white off", "'x'", "0-15"]),
    ("b15 - w15 0 0 white", ["27 tokens", "got 6"]),
    ("b0 " + "- " * 22 + "w15 0 0 white", ["point 1", "'-'"]),
])
def test_errors_name_the_token_and_what_was_expected(text: str, words: list[str]) -> None:
    with pytest.raises(InvalidPositionError) as e:
        parse_tavli_position(text)
    for w in words:
        assert w in str(e.value)
    assert "\n" not in str(e.value)


def test_fevga_refuses_a_pinned_checker() -> None:
    text = "b1w1 " + "- " * 21 + "w14 b14 0 0 white"
    parse_tavli_position(text)  # fine for Plakoto
    with pytest.raises(InvalidPositionError, match="F2"):
        parse_tavli_position(text, Variant.FEVGA)


@pytest.mark.parametrize("variant", [Variant.PLAKOTO, Variant.FEVGA])
def test_own_numbering_round_trip(variant: Variant) -> None:
    for side in Side:
        seen = set()
        for own in range(1, 25):
            phys = own_to_physical(variant, side, own)
            assert physical_to_own(variant, side, phys) == own
            seen.add(phys)
        assert seen == set(range(1, 25))
    # F1: White's 24 is Black's 12 and Black's 24 is White's 12
    if variant is Variant.FEVGA:
        assert physical_to_own(variant, Side.BLACK, 24) == 12
        assert own_to_physical(variant, Side.BLACK, 24) == 12
