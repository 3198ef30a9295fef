"""The commit-message rule (.githooks/commit-msg): a subject of at most 72 characters."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

HOOK = Path(__file__).resolve().parent.parent / ".githooks" / "commit-msg"


def check(message: str, tmp_path: Path) -> subprocess.CompletedProcess:
    file = tmp_path / "COMMIT_EDITMSG"
    file.write_text(message)
    return subprocess.run([HOOK, file], capture_output=True, text=True)


@pytest.mark.parametrize("length", [1, 72])
def test_a_subject_of_at_most_72_characters_is_accepted(length: int, tmp_path: Path):
    assert check("s" * length + "\n\n" + "a long body line " * 20 + "\n", tmp_path).returncode == 0


def test_a_subject_of_73_characters_is_refused_with_its_length(tmp_path: Path):
    result = check("s" * 73 + "\n", tmp_path)
    assert result.returncode == 1
    assert "subject of 73 characters (at most 72)" in result.stdout


def test_git_comment_lines_are_not_the_subject(tmp_path: Path):
    assert check("# " + "c" * 80 + "\nshort subject\n", tmp_path).returncode == 0
