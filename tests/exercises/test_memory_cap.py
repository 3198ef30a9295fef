"""The memory ceiling of the processes that run the reader's code: a hoard stops with a MemoryError
at the reader's own line and a message about memory, where it used to fill the machine until the
time limit said "a loop that never ends"; and every book's solution still passes under it."""

from __future__ import annotations

import resource
import subprocess
import sys

from scratchgrad.exercises import export
from scratchgrad.exercises.cli import main
from scratchgrad.exercises.memory_cap import MEMORY_LIMIT_BYTES
from scratchgrad.exercises.registry import by_id

HOARD = """\
def slope(f, x, h=1e-6):
    hoard = []
    while True:
        hoard.append(bytearray(50_000_000))
"""


def test_a_hoard_is_told_it_ran_out_of_memory_at_its_own_line(tmp_path, capsys):
    work = tmp_path / "my_engine.py"
    work.write_text(export({"slope": HOARD}), encoding="utf-8")
    assert main(["check", "slope", str(work)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert any(line.startswith("FAILED: 4 of 4 checks failed") for line in out), out
    failures = [line for line in out if line.startswith("FAIL  ")]
    assert len(failures) == 4
    for line in failures:
        assert "raised MemoryError: ran out of memory: a check may use 2 GiB" in line, line
        assert line.endswith("(your code for 'slope', line 4)"), line


def test_the_ceiling_is_set_in_the_child_and_only_lowered():
    probe = (
        "import resource; from scratchgrad.exercises.memory_cap import cap_memory; cap_memory(); "
        "print(resource.getrlimit(resource.RLIMIT_DATA)[0])"
    )
    capped = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    assert int(capped.stdout) == MEMORY_LIMIT_BYTES
    lower = MEMORY_LIMIT_BYTES // 4
    _soft, hard = resource.getrlimit(resource.RLIMIT_DATA)
    kept = subprocess.run(
        [sys.executable, "-c", probe],
        capture_output=True, text=True, check=True,
        preexec_fn=lambda: resource.setrlimit(resource.RLIMIT_DATA, (lower, lower)),
    )  # fmt: skip
    assert int(kept.stdout) == lower
    assert resource.getrlimit(resource.RLIMIT_DATA) == (_soft, hard)  # this process: untouched


def test_the_book_s_solutions_pass_under_a_quarter_of_the_ceiling(tmp_path, capsys):
    chosen = ("slope", "value-graph", "topological-order", "backward", "mlp", "training", "diagnose")
    pieces = {exercise: by_id(exercise).solution for exercise in chosen}
    work = tmp_path / "my_engine.py"
    work.write_text(export(pieces), encoding="utf-8")
    script = (
        "import resource, sys; "
        f"resource.setrlimit(resource.RLIMIT_DATA, ({MEMORY_LIMIT_BYTES // 4}, resource.RLIM_INFINITY)); "
        "from scratchgrad.exercises.cli import main; sys.exit(main(['list', sys.argv[1]]))"
    )
    listed = subprocess.run([sys.executable, "-c", script, str(work)], capture_output=True, text=True)
    rows = [line for line in listed.stdout.splitlines() if line.split()[:1] and line.split()[0] in pieces]
    assert len(rows) == len(pieces), listed.stdout + listed.stderr
    assert all(row.endswith("passed") for row in rows), listed.stdout
