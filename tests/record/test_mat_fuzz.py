"""Fuzz the .mat parser: garbage never crashes with anything but FormatError."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tavli_pi.errors import FormatError
from tavli_pi.record.game_record import MatchRecord
from tavli_pi.record.mat import parse_mat

from .test_mat import EXPECTED

_LINES = EXPECTED.splitlines()
_ALPHABET = st.sampled_from(list(" \n0123456789/*:;()[]\"=>abDoubleTakesDropsWinspointmatchGame-\t"))
FUZZ = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _parse(text: str) -> None:
    try:
        rec = parse_mat(text)
    except FormatError:
        return
    assert isinstance(rec, MatchRecord)


@FUZZ
@given(st.text())
def test_any_text(text: str) -> None:
    _parse(text)


@FUZZ
@given(st.text(alphabet=_ALPHABET, max_size=400))
def test_format_like_text(text: str) -> None:
    _parse(" 5 point match\n Game 1\n" + text)


@FUZZ
@given(st.lists(st.sampled_from(_LINES), max_size=30))
def test_shuffled_real_lines(lines: list[str]) -> None:
    _parse("\n".join(lines))


@FUZZ
@given(st.integers(0, len(EXPECTED) - 1), st.integers(0, 40), st.text(alphabet=_ALPHABET, max_size=8))
def test_mutated_real_file(at: int, cut: int, insert: str) -> None:
    _parse(EXPECTED[:at] + insert + EXPECTED[at + cut:])


@FUZZ
@given(st.binary(max_size=300))
def test_random_bytes_decoded(data: bytes) -> None:
    _parse(data.decode("latin-1"))
