"""The command line, end to end: the same lines and verdict as the page, and its exit codes."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

from missing_tools import import_or_missing
from scratchgrad.exercises import EXERCISES, export, parse
from scratchgrad.exercises.cli import main
from scratchgrad.exercises.exercise import Exercise
from scratchgrad.exercises.registry import ENGINE_PIECES, by_id

SRC = Path(__file__).resolve().parents[2] / "src"


@pytest.fixture
def work(tmp_path: Path) -> Path:
    pieces = {
        "value-graph": by_id("value-graph").solution,
        "topological-order": by_id("topological-order").wrong_source("node-before-children"),
        "backward": by_id("backward").solution,
        "slope": by_id("slope").stub,
    }
    path = tmp_path / "my_engine.py"
    path.write_text(export(pieces), encoding="utf-8")
    return path


def test_check_prints_the_lines_and_verdict_and_exits_0_on_a_pass(work, capsys):
    assert main(["check", "backward", str(work)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "uses  value-graph: Value — yours" in out
    assert "uses  topological-order: topological_order — the book's" in out
    assert out[-1] == "PASSED: all 5 checks passed"


def test_check_exits_1_on_a_fail_and_prints_how_to_check_the_same_cases_again(work, capsys):
    assert main(["check", "topological-order", str(work), "--seed", "12"]) == 1
    out = capsys.readouterr().out
    assert "FAIL  L = (a·b + c)·f: each node after its children: for L, your topological_order returns" in out
    assert out.splitlines()[-2:] == [
        "FAILED: 6 of 6 checks failed (seed 12)",
        f"the same cases again: python -m scratchgrad.exercises check topological-order {work} --seed 12",
    ]


def test_check_takes_a_plain_file_as_the_code_of_one_exercise(tmp_path, capsys):
    path = tmp_path / "slope.py"
    path.write_text("def slope(f, x, h=1e-6):\n    print('nudging')\n    return (f(x + h) - f(x)) / h\n")
    assert main(["check", "slope", str(path)]) == 0
    assert capsys.readouterr().out.endswith("your code printed:\n" + "nudging\n" * 14)  # one per case


def test_list_shows_every_exercise_and_its_state(work, capsys):
    assert main(["list", str(work)]) == 0
    lines = {line.split()[0]: line for line in capsys.readouterr().out.splitlines()}
    assert lines["backward"].endswith("passed")
    assert re.search(r"tried: 6 of 6 checks failed \(seed \d+\)$", lines["topological-order"])
    assert lines["slope"].endswith("not started")
    assert lines["mlp"].endswith("not started")
    assert lines["your"] == f"your engine: 2 of {len(ENGINE_PIECES)} pieces"
    assert lines["checked"] == (
        "checked on the command line only: torch-port (The training loop in PyTorch): not started"
    )


def test_list_counts_a_command_line_exercise_apart_from_the_engines_pieces(tmp_path, capsys):
    import_or_missing("torch")
    path = tmp_path / "my_engine.py"
    path.write_text(export({"torch-port": by_id("torch-port").solution, "slope": by_id("slope").solution}))
    assert main(["list", str(path)]) == 0
    lines = {line.split()[0]: line for line in capsys.readouterr().out.splitlines()}
    assert lines["torch-port"].endswith("passed")
    assert lines["your"] == f"your engine: 1 of {len(ENGINE_PIECES)} pieces"
    assert len(ENGINE_PIECES) == len(EXERCISES) - 1
    assert lines["checked"].endswith("torch-port (The training loop in PyTorch): passed")


def test_without_torch_the_torch_port_is_not_checked_and_says_how_to_get_it(tmp_path, capsys, monkeypatch):
    monkeypatch.setattr(Exercise, "missing_tools", lambda self: list(self.needs))
    path = tmp_path / "my_engine.py"
    path.write_text(export({"torch-port": by_id("torch-port").solution}))
    assert main(["check", "torch-port", str(path)]) == 2
    assert capsys.readouterr().err == (
        "error: exercise 'torch-port' is checked with torch, which this Python cannot import: "
        "pip install torch (then check again)\n"
    )
    assert main(["list", str(path)]) == 0
    lines = {line.split()[0]: line for line in capsys.readouterr().out.splitlines()}
    assert lines["torch-port"].endswith("not checked: needs torch (pip install torch)")
    assert lines["checked"].endswith("not checked: needs torch (pip install torch)")


def test_import_then_export_round_trips_through_a_folder(work, tmp_path, capsys):
    folder = tmp_path / "pieces"
    assert main(["import", str(work), str(folder)]) == 0
    assert sorted(path.name for path in folder.iterdir()) == [
        "backward.py",
        "slope.py",
        "topological-order.py",
        "value-graph.py",
    ]
    capsys.readouterr()
    assert main(["export", str(folder)]) == 0
    assert parse(capsys.readouterr().out) == parse(work.read_text())


def test_import_never_overwrites_different_code_without_force(work, tmp_path, capsys):
    folder = tmp_path / "pieces"
    folder.mkdir()
    (folder / "slope.py").write_text("# my own slope, not in the file\n")
    assert main(["import", str(work), str(folder)]) == 2
    assert "already has different code for slope; nothing written" in capsys.readouterr().err
    assert (folder / "slope.py").read_text() == "# my own slope, not in the file\n"
    assert not (folder / "backward.py").exists()


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["check", "nope", "x.py"], "error: no exercise 'nope'; the exercises are: slope,"),
        (["check", "mlp", "{work}"], "has no code for 'mlp' (sections found: slope, value-graph,"),
        (["check", "slope", "{missing}"], "does not exist"),
        (
            ["check", "slope", "{work}", "--time-limit", "0"],
            "--time-limit must be more than 0 seconds, got 0",
        ),
        (["export", "{missing}"], "is not a folder"),
    ],
)
def test_usage_errors_exit_2_and_say_what_is_wrong(argv, message, work, tmp_path, capsys):
    argv = [arg.format(work=work, missing=tmp_path / "missing.py") for arg in argv]
    assert main(argv) == 2
    assert message in capsys.readouterr().err


def test_stub_prints_the_code_an_exercise_starts_from(capsys):
    assert main(["stub", "backward"]) == 0
    assert capsys.readouterr().out == by_id("backward").stub


def test_python_dash_m_runs_the_cli_with_its_exit_codes(work):
    env = {**os.environ, "PYTHONPATH": str(SRC)}
    run = [sys.executable, "-m", "scratchgrad.exercises"]
    passed = subprocess.run([*run, "check", "backward", str(work)], capture_output=True, text=True, env=env)
    failed = subprocess.run(
        [*run, "check", "topological-order", str(work)], capture_output=True, text=True, env=env
    )
    usage = subprocess.run([*run, "check"], capture_output=True, text=True, env=env)
    assert (passed.returncode, failed.returncode, usage.returncode) == (0, 1, 2), (
        passed.stderr + failed.stderr
    )
    assert passed.stdout.splitlines()[-1] == "PASSED: all 5 checks passed"
    assert "the following arguments are required: exercise, work" in usage.stderr


ESCAPES = {
    "os-exit": "import os\n    os._exit(0)",
    "sys-exit": "import sys\n    sys.exit(0)",
    "c-level-loop": "import itertools\n    return sum(itertools.repeat(0))",
    "killed": "import os, signal\n    os.kill(os.getpid(), signal.SIGKILL)",
    "sleeps": "import time\n    time.sleep(3600)",
}


@pytest.mark.parametrize("body", ESCAPES.values(), ids=ESCAPES.keys())
def test_exiting_or_hanging_code_did_not_finish(body, tmp_path, capsys):
    path = tmp_path / "slope.py"
    path.write_text(f"def slope(f, x, h=1e-6):\n    {body}\n", encoding="utf-8")
    assert main(["check", "slope", str(path), "--time-limit", "1"]) == 1
    assert "did not finish" in capsys.readouterr().out


WRONG_SLOPE = "def slope(f, x, h=1e-6):\n    return 0.0\n"
FORGE = (
    "import json, sys\n"
    "def forge():\n"
    "    path = sys.argv[1]\n"  # where the child once wrote its record, with the nonce beside it
    "    data = json.load(open(path))\n"
    "    for report in data['reports'].values():\n"
    "        report['outcome'] = 'passed'\n"
    "        report['checks'] = [{**check, 'passed': True} for check in report['checks']]\n"
    "    json.dump(data, open(path, 'w'))\n"
)
FORGERS = {
    # after the checks, rewrite the record the child wrote: from an atexit handler, or from a thread
    # that outlives the checks
    "atexit": FORGE + "import atexit\natexit.register(forge)\n",
    "thread": FORGE
    + "import threading, time\nthreading.Thread(target=lambda: (time.sleep(0.3), forge())).start()\n",
    # the checker's own class, changed so that every report says passed
    "report-class": (
        "from scratchgrad.exercises.report import Report\n"
        "_real = Report.as_dict\n"
        "Report.as_dict = lambda self: {**_real(self), 'outcome': 'passed',"
        " 'checks': [{**c, 'passed': True} for c in _real(self)['checks']]}\n"
    ),
}


@pytest.mark.parametrize("forger", FORGERS.values(), ids=FORGERS.keys())
def test_a_wrong_slope_cannot_rewrite_its_own_verdict(forger, tmp_path, capsys):
    path = tmp_path / "slope.py"
    path.write_text(forger + WRONG_SLOPE, encoding="utf-8")
    assert main(["check", "slope", str(path), "--time-limit", "2"]) == 1
    out = capsys.readouterr().out
    assert "PASSED" not in out


def test_a_second_record_on_the_pipe_is_no_verdict():
    from scratchgrad.exercises.isolated import _one_record

    record = '{"nonce": "n", "reports": {}, "complete": true}'
    assert _one_record(record + "\n", "n") == {"nonce": "n", "reports": {}, "complete": True}
    assert _one_record(record + "\n" + record + "\n", "n") is None
    assert _one_record(record + "\n", "another nonce") is None
    assert _one_record(record.replace("true", "false") + "\n", "n") is None
