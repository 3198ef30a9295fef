"""The sandbox: time limit, capped output, and the checker's names put back."""

from __future__ import annotations

import _thread
import signal
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager

import pytest

import scratchgrad.exercises.oracle as oracle
from scratchgrad.exercises import check
from scratchgrad.exercises.sandbox import (
    CPU_CLOCK,
    LOOK_EVERY,
    WALL_FACTOR,
    Budget,
    CappedOutput,
    Sandbox,
    TimeLimitExceeded,
    reader_filename,
)


def readers_function(source: str, name: str = "f"):
    namespace: dict = {}
    exec(compile(source, reader_filename("test"), "exec"), namespace)
    return namespace[name]


def test_capped_output_keeps_the_start_and_counts_the_rest():
    stream = CappedOutput(limit=5)
    assert stream.write("abc") == 3
    assert stream.write("defgh") == 5
    assert (stream.getvalue(), stream.dropped) == ("abcde", 3)


def test_a_readers_endless_loop_is_stopped_at_the_limit():
    sandbox = Sandbox(time_limit=0.3)
    with pytest.raises(TimeLimitExceeded):
        sandbox.run(readers_function("def f():\n    while True:\n        pass\n"))
    assert 0.3 <= sandbox.elapsed < 5


@pytest.mark.parametrize(
    "loop",
    [
        "def f():\n    while True: pass\n",
        "import itertools\ndef f():\n    return [n for n in itertools.count()]\n",
        "def f():\n    return sum(1 for _ in iter(int, 1))\n",
    ],
    ids=["while-on-one-line", "comprehension", "generator"],
)
def test_a_loop_written_on_one_line_is_stopped_at_the_limit_too(loop):
    """Python 3.11 makes no line event for a loop that stays on its line (the guard thread's case).
    Should the sandbox miss it, an alarm ends the test instead of leaving it looping (where there
    are alarms: Pyodide has none, and its whole run has a time limit of its own)."""
    alarms = []

    def missed(signum, frame):
        alarms.append(signum)
        raise AssertionError("the sandbox did not stop the loop within 10 s")

    sandbox = Sandbox(time_limit=0.3)
    with alarm_in(10, missed), pytest.raises(TimeLimitExceeded):
        sandbox.run(readers_function(loop))
    assert alarms == [], "stopped only after the alarm"
    assert sandbox.elapsed >= 0.3


@contextmanager
def alarm_in(seconds: int, handler) -> Iterator[None]:
    if not hasattr(signal, "alarm"):
        yield
        return
    before = signal.signal(signal.SIGALRM, handler)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, before)


def test_runs_that_end_in_time_leave_no_guard_behind_and_nothing_raised_later():
    time.sleep(LOOK_EVERY * 10)  # the guards of earlier tests' runs end at their next look
    threads = _thread._count()
    sandbox = Sandbox(time_limit=0.05)
    square = readers_function("def f(x):\n    return x * x\n")
    ended_in_time = 0
    while True:  # quick runs until the budget runs out, one of them perhaps as the guard decides
        try:
            sandbox.run(square, 3)
            ended_in_time += 1
        except TimeLimitExceeded:
            break
    assert ended_in_time > 0
    assert sum(range(10)) == 45  # plain code after the runs: nothing pending was delivered here
    deadline = time.monotonic() + 100 * LOOK_EVERY  # a guard wakes at its next look and ends,
    while _thread._count() > threads and time.monotonic() < deadline:  # later on a busy machine
        time.sleep(LOOK_EVERY)
    assert _thread._count() == threads


def test_except_exception_cannot_swallow_the_time_limit():
    source = "def f():\n    while True:\n        try:\n            pass\n        except Exception:\n"
    source += "            pass\n"
    with pytest.raises(TimeLimitExceeded):
        Sandbox(time_limit=0.3).run(readers_function(source))


def test_code_that_is_not_the_readers_runs_unwatched():
    namespace: dict = {}
    exec("def f():\n    return sum(range(1000))\n", namespace)
    assert Sandbox(time_limit=0.3).run(namespace["f"]) == 499500


def test_no_time_limit_means_none():
    assert Sandbox(time_limit=None).run(readers_function("def f():\n    return 7\n")) == 7


def test_output_goes_to_the_sandbox_and_the_streams_come_back():
    streams = sys.stdout, sys.stderr
    sandbox = Sandbox()
    sandbox.run(
        readers_function("import sys\ndef f():\n    print('out')\n    print('err', file=sys.stderr)\n")
    )
    assert sandbox.output.getvalue() == "out\nerr\n"
    assert (sys.stdout, sys.stderr) == streams


def test_the_checkers_names_and_settings_are_put_back():
    source = """
import builtins, sys
import scratchgrad.exercises.oracle as oracle
from scratchgrad.exercises import check
def f():
    del builtins.len
    oracle.close = None
    sys.modules["scratchgrad"] = None
    sys.setrecursionlimit(60)
    builtins.added_by_the_reader = 1
"""
    limit = sys.getrecursionlimit()
    Sandbox().run(readers_function(source))
    assert len("ab") == 2
    assert oracle.close(1.0, 1.0)
    assert sys.modules["scratchgrad"].Value
    assert sys.getrecursionlimit() == limit
    import builtins

    assert builtins.added_by_the_reader == 1  # additions are left alone: only what was there comes back
    del builtins.added_by_the_reader


def test_a_spent_budget_stops_the_next_call_at_once():
    sandbox = Sandbox(time_limit=0.2)
    with pytest.raises(TimeLimitExceeded):
        sandbox.run(readers_function("def f():\n    while True:\n        pass\n"))
    with pytest.raises(TimeLimitExceeded):
        sandbox.run(len, "abc")


def test_the_limit_counts_cpu_time_where_python_has_a_cpu_clock():
    budget = Budget(0.3)
    time.sleep(0.4)  # no CPU used: as when a busy machine gives the CPU to others
    if CPU_CLOCK:  # CPython
        assert not budget.spent(look_now=True)
        assert budget.used < 0.3 < budget.waited
    else:  # WebAssembly has none: the limit is on the clock
        assert budget.spent(look_now=True)


def test_code_that_only_waits_is_stopped_once_it_waited_wall_factor_times_the_limit():
    sandbox = Sandbox(time_limit=0.05)
    with pytest.raises(TimeLimitExceeded):
        sandbox.run(readers_function("import time\ndef f():\n    while True:\n        time.sleep(0.01)\n"))
    waited_at_most = 0.05 * (WALL_FACTOR if CPU_CLOCK else 1)
    assert waited_at_most <= sandbox.budget.waited < 5
    assert sandbox.budget.used < waited_at_most or not CPU_CLOCK


def test_a_thread_importing_while_a_run_starts_cannot_break_the_run():
    """A guard of an earlier run (or any thread) may add to `sys.modules` while the next run reads
    it: the snapshot must not fail with "dictionary changed size during iteration"."""
    stop = False

    def churn() -> None:
        names = [f"_sandbox_churn_{i}" for i in range(50)]
        while not stop:
            for name in names:
                sys.modules[name] = sys
            for name in names:
                del sys.modules[name]

    _thread.start_new_thread(churn, ())
    sys.setswitchinterval(1e-6)  # hand the GIL over as often as the interpreter allows
    try:
        for _ in range(300):
            assert Sandbox(time_limit=5.0).run(lambda: 42) == 42
    finally:
        stop = True
        sys.setswitchinterval(0.005)
        time.sleep(0.05)


def test_reference_solutions_pass_while_another_process_takes_every_core():
    """200 checks of the exercises' reference solutions while another process spins: no spurious failure."""
    import multiprocessing

    from scratchgrad.exercises import EXERCISES, check

    spinners = [multiprocessing.Process(target=_spin, daemon=True) for _ in range(1)]
    for spinner in spinners:
        spinner.start()
    try:
        failures = []
        # The command line's exercises (torch-port) spend seconds in torch, not in the sandbox's clock.
        timed = [exercise for exercise in EXERCISES if not exercise.on_the_command_line_only]
        for round_ in range(200 // len(timed) + 1):
            for exercise in timed:
                report = check(exercise.id, exercise.solution, seed=round_)
                if not report.passed:
                    failures.append(report.text())
        assert failures == []
    finally:
        for spinner in spinners:
            spinner.terminate()


def _spin() -> None:
    while True:
        pass


def test_the_checkers_classes_are_put_back_after_a_run():
    from scratchgrad.exercises.report import Report

    real = Report.as_dict

    def replace_it() -> None:
        Report.as_dict = lambda self: {"outcome": "passed"}

    Sandbox(time_limit=5.0).run(replace_it)
    assert Report.as_dict is real


def test_a_patched_math_function_is_put_back_before_the_checks_compute_with_it():
    source = "import math\nmath.tanh = lambda x: 0.0\n\ndef tanh_derivative(x):\n    return 1.0\n"
    report = check("tanh-derivative", source)
    failures = " ".join(line.message for line in report.checks if not line.passed)
    assert "tanh'(0.0) should be 0.0" not in failures, report.text()
    assert "should be 0.5" in failures, report.text()
