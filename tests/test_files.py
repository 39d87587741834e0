"""write_atomic: whole files, the usual permissions, a clear error for a bad path."""

from __future__ import annotations

import os
import stat
from pathlib import Path

import pytest

from tavli_pi.errors import OutputFileError
from tavli_pi.files import write_atomic


def test_writes_the_text_and_leaves_no_temp_file(tmp_path: Path) -> None:
    p = tmp_path / "match.mat"
    assert write_atomic(p, "line 1\nline 2\n") == p
    assert p.read_bytes() == b"line 1\nline 2\n"
    write_atomic(p, "short\n")  # replacing an existing file
    assert p.read_text() == "short\n"
    assert sorted(x.name for x in tmp_path.iterdir()) == ["match.mat"]


@pytest.mark.parametrize("umask", [0o022, 0o077])
def test_permissions_follow_the_umask_not_the_temp_file(tmp_path: Path, umask: int) -> None:
    old = os.umask(umask)
    try:
        p = write_atomic(tmp_path / "match.sgf", "(;)\n")
    finally:
        os.umask(old)
    assert stat.S_IMODE(p.stat().st_mode) == 0o666 & ~umask


def test_missing_folder_is_a_record_error_naming_it(tmp_path: Path) -> None:
    with pytest.raises(OutputFileError, match=r"folder .*nowhere exists"):
        write_atomic(tmp_path / "nowhere" / "match.mat", "x")


def test_a_folder_as_target_is_a_record_error_and_cleans_up(tmp_path: Path) -> None:
    (tmp_path / "out").mkdir()
    with pytest.raises(OutputFileError, match="writable file path"):
        write_atomic(tmp_path / "out", "x")
    assert sorted(x.name for x in tmp_path.iterdir()) == ["out"]
    assert list((tmp_path / "out").iterdir()) == []
