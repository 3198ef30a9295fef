"""Run a reader's code so that nothing it does can take the checker down with it: `Sandbox.run`
follows the reader's own code as it runs (``sys.monitoring`` where Python has it, else a trace
function) and raises `TimeLimitExceeded` in it once its `Budget` is spent, the same way as a
`KeyboardInterrupt` from Ctrl-C or the page's Stop button; sends its output to a `CappedOutput`
that keeps the first characters for the report and only counts the rest; and puts back after every
run what the reader might change (the builtins, the scratchgrad and checked standard modules in
``sys.modules``, the recursion limit, the trace function, the output streams). Pure Python, so it
works in CPython and Pyodide alike.
"""

from __future__ import annotations

import _thread
import builtins
import io
import sys
import time
from _thread import LockType
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from types import CodeType, FrameType, ModuleType
from typing import TypeVar

__all__ = [
    "CPU_CLOCK",
    "READER_FILE_PREFIX",
    "WALL_FACTOR",
    "Budget",
    "CappedOutput",
    "Sandbox",
    "TimeLimitExceeded",
    "queued_seconds",
    "reader_filename",
]

T = TypeVar("T")
READER_FILE_PREFIX = "<yours: "
# Standard modules whose functions the checks compute expected values with (math.tanh, say).
CHECKED_WITH = ("math", "cmath", "random", "operator", "statistics")
BOOK_FILE_PREFIX = "<reference: "
"""The file names the reader's code and a reference solution are compiled under: ``<yours: slope>``."""
OUTPUT_LIMIT = 20_000

CPU_CLOCK = sys.platform != "emscripten"
"""Whether the limit counts CPU time. CPython can ask how much CPU time this process has had
(`time.process_time`): a busy machine slows a check down in seconds on the clock, never in CPU
seconds, so correct code is not stopped because other programs run. WebAssembly has no such
clock (Pyodide's process_time is the wall clock): there the limit counts seconds on the clock."""

WALL_FACTOR = 3
"""Code that waits (``time.sleep`` in a loop) uses no CPU time: where the limit counts CPU, code is
also stopped once it has *waited* `WALL_FACTOR` times the limit — seconds on the clock, less the time
it spent queueing for a CPU on a busy machine where the system says so (`queued_seconds`)."""

LOOK_EVERY = 0.02  # seconds on the clock between two looks at the CPU clock (a look costs ~0.6 µs)


def reader_filename(exercise_id: str) -> str:
    """The file name the reader's code for `exercise_id` is compiled under (tracebacks show it)."""
    return f"{READER_FILE_PREFIX}{exercise_id}>"


class TimeLimitExceeded(BaseException):
    """The reader's code ran past the time limit. A BaseException: ``except Exception`` cannot hide it."""


class CappedOutput(io.TextIOBase):
    """A text stream that keeps the first `limit` characters written to it and counts the rest."""

    def __init__(self, limit: int = OUTPUT_LIMIT) -> None:
        self.limit = limit
        self._parts: list[str] = []
        self._kept = 0
        self.dropped = 0

    def writable(self) -> bool:
        return True

    def write(self, text: str) -> int:
        if not isinstance(text, str):
            raise TypeError(f"write() argument must be str, not {type(text).__name__}")
        room = self.limit - self._kept
        if room > 0:
            self._parts.append(text[:room])
            self._kept += min(room, len(text))
        self.dropped += max(0, len(text) - max(room, 0))
        return len(text)

    def getvalue(self) -> str:
        return "".join(self._parts)


def queued_seconds(pid: int | str = "self") -> float | None:
    """Seconds process `pid` has spent ready to run but waiting for a CPU (Linux's
    ``/proc/<pid>/schedstat``), or None where the system does not say."""
    try:
        with open(f"/proc/{pid}/schedstat", encoding="ascii") as file:
            return int(file.read().split()[1]) / 1e9
    except (OSError, ValueError, IndexError):
        return None


class Budget:
    """A time limit of `limit` seconds, counted from now: CPU seconds where `CPU_CLOCK`, else
    seconds on the clock; where it counts CPU, at most `WALL_FACTOR` times as many seconds waited.

    `spent()` is cheap enough to ask at every line of the reader's code: it reads the cheap
    monotonic clock, and the CPU clock at most every `LOOK_EVERY` seconds.
    """

    def __init__(self, limit: float | None) -> None:
        self.limit = limit
        self.wait_limit = None if limit is None else limit * (WALL_FACTOR if CPU_CLOCK else 1)
        self._wall_start = time.monotonic()
        self._cpu_start = time.process_time()
        self._queued_start = queued_seconds() if CPU_CLOCK else None
        self._next_look = self._wall_start
        self._spent = False

    @property
    def used(self) -> float:
        """Seconds used so far: CPU seconds where `CPU_CLOCK`, else seconds on the clock."""
        return time.process_time() - self._cpu_start if CPU_CLOCK else self.waited

    @property
    def waited(self) -> float:
        """Seconds on the clock since the budget began, less those spent queueing for a CPU (when
        the system tells them)."""
        waited = time.monotonic() - self._wall_start
        queued = queued_seconds() if self._queued_start is not None else None
        return waited if queued is None else waited - (queued - self._queued_start)

    def spent(self, *, look_now: bool = False) -> bool:
        """True once the budget is used up (and from then on)."""
        if self._spent or self.limit is None:
            return self._spent
        now = time.monotonic()
        if now < self._next_look and not look_now:
            return False
        self._next_look = now + LOOK_EVERY
        self._spent = self.used > self.limit or (
            now - self._wall_start > self.wait_limit and self.waited > self.wait_limit
        )
        return self._spent


class Sandbox:
    """One shared time budget, output buffer and set of restorations for all calls of one check."""

    def __init__(self, time_limit: float | None = 5.0, output_limit: int = OUTPUT_LIMIT) -> None:
        if time_limit is not None and not time_limit > 0:
            raise ValueError(f"time_limit must be a number of seconds > 0 or None, got {time_limit!r}")
        self.time_limit = time_limit
        self.output = CappedOutput(output_limit)
        self.budget = Budget(time_limit)

    @property
    def elapsed(self) -> float:
        """The seconds counted against the limit so far (CPU seconds where `CPU_CLOCK`)."""
        return self.budget.used

    def run(self, function: Callable[..., T], *args: object) -> T:
        """``function(*args)``, guarded as the module docstring says; its exceptions pass through."""
        with self._restored_afterwards(), self._output_captured(), self._time_limited():
            return function(*args)

    @contextmanager
    def _time_limited(self) -> Iterator[None]:
        budget = self.budget
        if budget.limit is None:
            yield
            return
        if budget.spent(look_now=True):  # a spent budget stops the next call before it starts
            raise TimeLimitExceeded
        follow = _follow_with_monitoring if hasattr(sys, "monitoring") else _follow_with_trace
        with follow(budget.spent):
            yield

    @contextmanager
    def _output_captured(self) -> Iterator[None]:
        sys.stdout = sys.stderr = self.output
        yield

    @contextmanager
    def _restored_afterwards(self) -> Iterator[None]:
        # dict(...) copies in one step, under the GIL: another thread importing a module (a guard
        # of an earlier run, say) cannot change the dictionary while it is being read.
        saved_builtins = dict(builtins.__dict__)
        modules_now = dict(sys.modules)
        saved_modules = {
            name: m
            for name, m in modules_now.items()
            if name.split(".")[0] == "scratchgrad" or name in CHECKED_WITH
        }
        saved_dicts = {
            name: dict(m.__dict__) for name, m in saved_modules.items() if isinstance(m, ModuleType)
        }
        saved_classes = {
            cls: dict(cls.__dict__)
            for name, m in saved_modules.items()
            if name.startswith("scratchgrad.exercises") and isinstance(m, ModuleType)
            for cls in list(vars(m).values())
            if isinstance(cls, type) and cls.__module__ == name
        }
        saved_streams = sys.stdout, sys.stderr
        saved_limit = sys.getrecursionlimit()
        saved_trace = sys.gettrace()
        try:
            yield
        finally:
            sys.settrace(saved_trace)
            sys.stdout, sys.stderr = saved_streams
            sys.setrecursionlimit(saved_limit)
            _put_back(builtins.__dict__, saved_builtins)
            sys.modules.update(saved_modules)
            for name, saved in saved_dicts.items():
                _put_back(saved_modules[name].__dict__, saved)
            for cls, saved in saved_classes.items():  # the checker's own classes, as Report.as_dict
                for key, value in saved.items():
                    if cls.__dict__.get(key, _MISSING) is not value and key not in (
                        "__dict__",
                        "__weakref__",
                    ):
                        setattr(cls, key, value)


@contextmanager
def _follow_with_trace(spent: Callable[[], bool]) -> Iterator[None]:
    """Python 3.11: a trace function, line by line in the reader's code, silent elsewhere.

    3.11 makes no line event for a loop that stays on one line (``while True: pass``), so a
    guard thread watches the budget too (`_guard`). Leaving calls no Python function (the reader
    may have set the recursion limit low or deleted builtins; both are put back only after this).
    """

    def follow_lines(frame: FrameType, event: str, arg: object) -> Callable | None:
        if spent():
            with deciding:  # the guard must not stop this run a second time, later, in another run
                stopped.append(True)
            raise TimeLimitExceeded
        return follow_lines

    def on_call(frame: FrameType, event: str, arg: object) -> Callable | None:
        if frame.f_code.co_filename.startswith(READER_FILE_PREFIX):
            return follow_lines(frame, event, arg)
        return None

    import ctypes  # noqa: F401  (for `_guard`, imported here: a guard thread must not import, see there)

    inside = _thread.allocate_lock()  # held while the run is inside
    inside.acquire()
    deciding = _thread.allocate_lock()  # the guard decides, and the run leaves or stops, one at a time
    stopped: list[bool] = []  # the run stopped itself: the guard has nothing left to do
    _thread.start_new_thread(_guard, (spent, _thread.get_ident(), inside, deciding, stopped))
    sys.settrace(on_call)
    try:
        yield
    finally:
        sys.settrace(None)
        with deciding:
            # A call returning checks for pending work: an exception the guard raised just before
            # is delivered here, inside the run, never in the code after it. (It could not be taken
            # back instead: on 3.11 with a trace function, PyThreadState_SetAsyncExc(id, NULL)
            # leaves the thread spinning.)
            inside.release()


def _guard(
    spent: Callable[[], bool], running: int, inside: LockType, deciding: LockType, stopped: list[bool]
) -> None:
    """Ask the budget every few looks while the run is `inside`; once it is spent, raise
    `TimeLimitExceeded` in the thread `running` (``PyThreadState_SetAsyncExc``): the interpreter
    delivers it at the next jump back of whatever loop runs, on one line or not. (A loop inside
    one C call, such as ``sum(itertools.repeat(0))``, never gets there: the command line's child
    process is stopped from outside, `scratchgrad.exercises.isolated`.) ctypes was imported by
    the run's own thread: an import here would change `sys.modules` while a later run reads it."""
    import ctypes  # already in sys.modules (`_follow_with_trace`): this only looks it up

    while not inside.acquire(True, LOOK_EVERY * 5):
        with deciding:
            if inside.locked() and not stopped and spent():
                ctypes.pythonapi.PyThreadState_SetAsyncExc(
                    ctypes.c_ulong(running), ctypes.py_object(TimeLimitExceeded)
                )
                return
    inside.release()


@contextmanager
def _follow_with_monitoring(spent: Callable[[], bool]) -> Iterator[None]:
    """Python 3.12+ (Pyodide): `sys.monitoring` sees every jump and call of the reader's code only.

    Any other code is switched off the first time it starts (``DISABLE``), so it runs at full
    speed; a loop that never ends must jump back, and every jump in the reader's code asks the
    budget.
    """
    monitoring = sys.monitoring
    events = monitoring.events
    tool = _free_tool_id()

    def on_start(code: CodeType, offset: int) -> object:
        if not code.co_filename.startswith(READER_FILE_PREFIX):
            return monitoring.DISABLE
        monitoring.set_local_events(tool, code, events.JUMP)
        if spent():
            raise TimeLimitExceeded
        return None

    def on_jump(code: CodeType, offset: int, destination: int) -> None:
        if spent():
            raise TimeLimitExceeded

    monitoring.use_tool_id(tool, "scratchgrad exercises")
    try:
        monitoring.restart_events()
        monitoring.register_callback(tool, events.PY_START, on_start)
        monitoring.register_callback(tool, events.JUMP, on_jump)
        monitoring.set_events(tool, events.PY_START)
        yield
    finally:
        monitoring.set_events(tool, 0)
        monitoring.free_tool_id(tool)


def _free_tool_id() -> int:
    for tool in (5, 4, 3, 2, 1, 0):
        if sys.monitoring.get_tool(tool) is None:
            return tool
    raise RuntimeError("every sys.monitoring tool id is taken: the time limit cannot be enforced")


def _put_back(namespace: dict, saved: dict) -> None:
    """Give `namespace` every entry of `saved` again; entries added since are left alone."""
    for key, value in saved.items():
        if namespace.get(key, _MISSING) is not value:
            namespace[key] = value


_MISSING = object()
