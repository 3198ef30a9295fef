"""Checks whose verdict the reader's code cannot reach: the checks run in this process and the
reader's code in a second Python, the "reader process", which holds nothing of the checker's.
The checks call the reader's functions through `RemoteFunction`s: each call goes over a pipe as
plain data (numbers, strings, None, lists, tuples, dicts, sets, and records, `types.SimpleNamespace`,
which come back as the very objects sent); any other object of the reader's (a Value, its class, a
closure) stays in the reader process and the checks hold it as a `RemoteObject`, whose every
attribute, call, operator and comparison is one named operation done there. An exception the
reader's code raised arrives as the built-in type it names where it can. A function the checks pass
(the f of ``slope(f, x)``) reaches the reader as a copy when it computes with numbers and `math`
only, else as a call-only handle, so the reader's code reaches nothing of the checker's; the reader's
Values it is called with reach it as `RemoteObject`s, and those it returns go back as the reader's
own (gradient-check's f). A list the reader's function changed in place is changed for the checks
too. What the reader's code writes on its pipe is at most an answer, judged here like any other: a
forged answer can only be a right one. Whether a piece is borrowed is judged here too, from plain
facts the reader process reports (`scratchgrad.exercises.borrowed.facts`). Only the exercises of
`ACROSS` are checked this way; the others still run whole in one child (`scratchgrad.exercises.isolated`).
"""

from __future__ import annotations

import base64
import builtins
import contextlib
import inspect
import json
import linecache
import marshal
import math
import operator
import os
import random
import select
import subprocess
import sys
import time
import types
from collections.abc import Callable, Iterator, Mapping
from functools import partial

from scratchgrad.exercises.borrowed import book_imports, facts, judged
from scratchgrad.exercises.child_clocks import child_clocks
from scratchgrad.exercises.exercise import Engine, Exercise, Fail
from scratchgrad.exercises.memory_cap import cap_memory
from scratchgrad.exercises.order import CountedChildren
from scratchgrad.exercises.reader_stack import recursing, told
from scratchgrad.exercises.registry import by_id
from scratchgrad.exercises.report import CheckLine, CodeError, PieceUse, Report
from scratchgrad.exercises.runner import (
    _code_error,
    _execute,
    _exited,
    _providers,
    _stopped,
    _verdict,
    earlier_pieces,
    load_pieces,
)
from scratchgrad.exercises.sandbox import WALL_FACTOR, Sandbox, TimeLimitExceeded, reader_filename

__all__ = [
    "ACROSS",
    "Opaque",
    "RemoteCallable",
    "RemoteFunction",
    "RemoteObject",
    "check_across",
    "check_all_across",
]

ACROSS = (
    "slope",
    "descent",
    "trace",
    "value-graph",
    "backprop-by-hand",
    "tanh-derivative",
    "local-derivatives",
    "topological-order",
    "backward",
    "fan-out",
    "accumulate",
    "power-and-exp",
    "composed-ops",
    "gradient-check",
)
"""The exercises checked across two processes: the story's beginning, in its order, so every piece
one of them builds on is checked across two processes too. Not yet here: the network and
the training loops (their checks' messages across two processes are not yet compared with one's), and
those built on them."""

STARTUP_SECONDS = 1.0  # CPU seconds for the reader process's start and import
_NO_REPLY = "did not finish: your code wrote something that is no answer on the pipe to the checks"


class Opaque:
    """What the reader's function returned when it is not plain data: its type's name and repr."""

    def __init__(self, kind: str, text: str) -> None:
        self.kind, self.text = kind, text

    def __repr__(self) -> str:
        return self.text

    __str__ = __repr__


class _Stopped(Exception):  # noqa: N818 (the run "stopped")
    """The reader process ended or overran; the message says how, in the reader's terms."""


class _Raised(Exception):  # noqa: N818 (the reader's code "raised")
    def __init__(self, error: CodeError) -> None:
        super().__init__(str(error))
        self.error = error


def _raised(error: CodeError) -> _Raised:
    """`_Raised` for `error`, an instance of the built-in exception it names too (with its message
    only) where one can be: a check that catches the reader's TypeError catches it as in one process."""
    kind = getattr(builtins, error.type, None)
    if isinstance(kind, type) and issubclass(kind, Exception) and kind is not Exception:
        with contextlib.suppress(TypeError):  # a built-in whose layout admits no second base (OSError)
            both = type(error.type, (_Raised, kind), {"__str__": lambda self: error.message})
            return both(error)
    return _Raised(error)


class _Records:
    """The records (`types.SimpleNamespace`, the trace exercise's nodes) sent either way, numbered in
    the order they first crossed: each side keeps its own object for a number, so a record the reader's
    function returns comes back as the very object the checks sent, and one sent twice is one object
    there too. Both sides number in the same order, as they encode and decode the same messages.
    The reader process numbers its other objects the same way, for the checks' `RemoteObject`s."""

    def __init__(self) -> None:
        self.objects: list[types.SimpleNamespace] = []
        self._numbers: dict[int, int] = {}

    def number(self, record: types.SimpleNamespace) -> int | None:
        number = self._numbers.get(id(record))
        return number if number is not None and self.objects[number] is record else None

    def add(self, record: types.SimpleNamespace) -> int:
        self._numbers[id(record)] = len(self.objects)
        self.objects.append(record)
        return len(self.objects) - 1


def _encode(
    value: object, handles: list | None, records: _Records | None = None, refs: _Records | None = None
) -> object:
    """`value` as JSON-ready plain data. In the reader process `refs` numbers every other object
    (the reader's Values, classes, functions), which the checks then hold as `RemoteObject`s."""
    if records is not None and type(value) is types.SimpleNamespace:
        number = records.number(value)
        if number is not None:
            return {"record": number}
        number = records.add(value)
        fields = {str(name): _encode(field, handles, records, refs) for name, field in vars(value).items()}
        return {"record": number, "fields": fields}
    if isinstance(value, RemoteObject):
        return {"ref": object.__getattribute__(value, "_number")}
    if type(value) is CountedChildren:  # the checks' counter goes over as one, and stays there
        if refs is not None:
            number = refs.number(value)
            return {"ref": refs.add(value) if number is None else number, "callable": False}
        return {"counted": [_encode(item, handles, records, refs) for item in tuple.__iter__(value)]}
    if value is None or isinstance(value, bool):
        return {"v": value if value is None else bool(value)}
    if isinstance(value, int | str):  # as the plain type: a subclass's own methods stay behind
        return {"v": int.__int__(value) if isinstance(value, int) else str.__str__(value)}
    if isinstance(value, float):
        return {"f": float.__repr__(value)}
    if isinstance(value, list | tuple):
        kind = "list" if isinstance(value, list) else "tuple"
        return {kind: [_encode(item, handles, records, refs) for item in value]}
    if type(value) in (dict, set, frozenset) and (records is not None or refs is not None):
        if isinstance(value, dict):
            return {"dict": [[_encode(k, handles, records, refs), _encode(v, handles, records, refs)]
                             for k, v in value.items()]}  # fmt: skip
        return {type(value).__name__: [_encode(item, handles, records, refs) for item in value]}
    if handles is not None and callable(value):
        if copy := _copy_of(value):
            return copy
        handles.append(value)
        return {"handle": len(handles) - 1}
    if refs is not None:
        number = refs.number(value)
        return {"ref": refs.add(value) if number is None else number, "callable": callable(value)}
    return {"opaque": type(value).__name__, "repr": _safe_repr(value)}


def _copy_of(function: object) -> dict | None:
    """A function of the checks' as a copy for the reader process, when it computes with plain data
    and `math` only (math.sin; ``lambda x: a * (x - m) ** 2 + k``): a call there then costs no trip
    over the pipe, and the copy reaches nothing of this process. None for any other function."""
    if getattr(function, "__self__", None) is math:
        return {"math": function.__name__}
    code = getattr(function, "__code__", None)
    if not isinstance(function, types.FunctionType) or not set(code.co_names) <= _COPYABLE_NAMES:
        return None
    parts = [*(function.__defaults__ or ()), *(cell.cell_contents for cell in function.__closure__ or ())]
    if not all(_plain(part) for part in parts):
        return None
    return {
        "code": base64.b64encode(marshal.dumps(code)).decode("ascii"),
        "defaults": _encode(list(function.__defaults__ or ()), None),
        "cells": _encode([cell.cell_contents for cell in function.__closure__ or ()], None),
    }


_COPYABLE_NAMES = {"math", *dir(math), "abs", "min", "max", "sum", "pow", "float", "int", "round"}


def _plain(value: object) -> bool:
    if isinstance(value, list | tuple):
        return all(_plain(item) for item in value)
    return value is None or type(value) in (bool, int, float, str)


def _function_from(copy: dict) -> Callable:
    """In the reader process: the function `_copy_of` sent."""
    if "math" in copy:
        return getattr(math, str(copy["math"]))
    code = marshal.loads(base64.b64decode(copy["code"]))
    cells = tuple(types.CellType(item) for item in _decode(copy["cells"], None))
    defaults = tuple(_decode(copy["defaults"], None)) or None
    return types.FunctionType(code, {"__builtins__": builtins, "math": math}, code.co_name, defaults, cells)


def _decode(
    data: dict,
    call_back: Callable[[int], Callable] | None,
    records: _Records | None = None,
    refs: Callable[[dict], object] | None = None,
) -> object:
    """What `_encode` made; `refs` gives the object a ``{"ref": n}`` stands for (the reader process's
    own object, or the checks' `RemoteObject` for it)."""
    if refs is not None and "ref" in data:
        return refs(data)
    if "counted" in data:
        return CountedChildren(_decode(item, call_back, records, refs) for item in data["counted"])
    if "dict" in data and (records is not None or refs is not None):
        return {
            _decode(k, call_back, records, refs): _decode(v, call_back, records, refs)
            for k, v in data["dict"]
        }
    if ("set" in data or "frozenset" in data) and (records is not None or refs is not None):
        items = [_decode(item, call_back, records, refs) for item in data.get("set", data.get("frozenset"))]
        return set(items) if "set" in data else frozenset(items)
    if records is not None and "record" in data:
        if "fields" not in data:
            return records.objects[int(data["record"])]
        record = types.SimpleNamespace()
        records.add(record)
        for name, field in data["fields"].items():
            setattr(record, str(name), _decode(field, call_back, records, refs))
        return record
    if "v" in data:
        return data["v"]
    if "f" in data:
        return float(data["f"])
    if "list" in data or "tuple" in data:
        items = [_decode(item, call_back, records, refs) for item in data.get("list", data.get("tuple"))]
        return items if "list" in data else tuple(items)
    if call_back is not None and "handle" in data:
        return call_back(int(data["handle"]))
    if call_back is not None and ("math" in data or "code" in data):
        return _function_from(data)
    return Opaque(str(data.get("opaque", "?")), str(data.get("repr", "?")))


def _safe_repr(value: object) -> str:
    try:
        return repr(value)[:200]
    except BaseException:  # the reader's __repr__ may raise anything
        return f"<{type(value).__name__} object>"


class _Channel:
    """The checker's end: requests on the reader process's stdin, replies from its stdout, each one
    JSON line; waits for a reply at most `patience` CPU seconds of the reader's (or `WALL_FACTOR`
    times that on the clock, less queueing), counted from the run's start."""

    def __init__(self, child: subprocess.Popen, patience: float) -> None:
        self._child, self._patience, self._buffer = child, patience, b""
        self._clocks = child_clocks(child.pid)
        self._wall = patience * WALL_FACTOR if self._clocks else patience
        self._start = time.monotonic()
        self.handles: list[Callable] = []
        self.records = _Records()
        self._proxies: dict[int, RemoteObject] = {}

    def proxy(self, data: dict) -> RemoteObject:
        """The one `RemoteObject` for the reader's object number ``data["ref"]``."""
        number = int(data["ref"])
        if number not in self._proxies:
            kind = RemoteCallable if data.get("callable") else RemoteObject
            self._proxies[number] = kind(self, number)
        return self._proxies[number]

    def result(self, message: dict, arguments: tuple = ()) -> object:
        """Ask the reader process `message` (a call of the reader's code) and return its answer;
        `_raised` when the reader's code raised, `_Stopped` when its process ended or overran. A
        list among the call's `arguments` that the reader's code changed in place is changed here
        too, as the reader process says: the checks see what they would see in one process."""
        reply = self.ask(message)
        try:
            if "value" in reply:
                value = _decode(reply["value"], None, self.records, self.proxy)
                for index, after in reply.get("lists", {}).items():
                    if type(arguments[int(index)]) is list:
                        arguments[int(index)][:] = _decode(after, None, self.records, self.proxy)
                return value
            raised = CodeError(**reply["raised"]) if "raised" in reply else None
            stopped = "" if raised else str(reply["stopped"])
        except (TypeError, ValueError, KeyError, AttributeError, IndexError, RecursionError):
            raised, stopped = None, _NO_REPLY
        if raised is not None:
            raise _raised(raised)
        self.stop()
        raise _Stopped(stopped)

    def operation(self, name: str, *args: object, **kwargs: object) -> object:
        """``name(*args, **kwargs)`` done in the reader process (`_OPERATIONS`) on its objects."""
        return self.result(
            {
                "op": name,
                "args": [_encode(arg, self.handles, self.records) for arg in args],
                "kwargs": {key: _encode(arg, self.handles, self.records) for key, arg in kwargs.items()},
            }
        )

    def send(self, message: dict) -> None:
        try:
            self._child.stdin.write((json.dumps(message) + "\n").encode("utf-8"))
            self._child.stdin.flush()
        except (BrokenPipeError, OSError):
            raise _Stopped(self._ended()) from None

    def receive(self) -> dict:
        fd = self._child.stdout.fileno()
        while b"\n" not in self._buffer:
            ready, _, _ = select.select([fd], [], [], 0.05)
            if ready:
                chunk = os.read(fd, 65536)
                if not chunk:
                    raise _Stopped(self._ended())
                self._buffer += chunk
            else:
                self._overran()
        line, self._buffer = self._buffer.split(b"\n", 1)
        try:
            message = json.loads(line)
        except (ValueError, RecursionError):
            message = None
        if not isinstance(message, dict):
            self.stop()
            raise _Stopped(_NO_REPLY)
        return message

    def ask(self, message: dict) -> dict:
        """Send `message`; answer the reader's calls of the checker's functions until its reply."""
        self.send(message)
        while "callback" in (reply := self.receive()):
            try:
                handle = self.handles[int(reply["callback"])]
                args = [_decode(arg, None, self.records, self.proxy) for arg in reply.get("args", [])]
                with told(reply.get("recursing") is True):  # the reader process's stack, as it says
                    self.send({"value": _encode(handle(*args), None, self.records)})
            except Exception as error:  # the checker's function failed on the reader's arguments
                self.send({"error": type(error).__name__, "message": str(error)})
        return reply

    def _overran(self) -> None:
        used, queued = self._clocks() if self._clocks else (0.0, 0.0)
        waited = time.monotonic() - self._start - queued
        if self._clocks and used > self._patience:
            self.stop()
            raise _Stopped(
                f"did not finish: a check used more than {self._patience:g} s of CPU time and was stopped — "
                "is there a loop that never ends, perhaps inside one call such as sum(itertools.repeat(0))?"
            )
        if waited > self._wall:
            self.stop()
            raise _Stopped(
                f"did not finish: a check ran longer than {self._wall:g} s and was stopped — is there a loop "
                "that never ends, or does your code sleep or wait for something?"
            )

    def _ended(self) -> str:
        code = self._child.wait()
        how = f"exit code {code}" if code >= 0 else f"signal {-code}"
        return (
            f"did not finish: your code's process ended ({how}) before the checks did — does your code "
            "call os._exit() or exit the process some other way?"
        )

    def stop(self) -> None:
        if self._child.poll() is None:
            self._child.kill()
        self._child.wait()
        for pipe in (self._child.stdin, self._child.stdout):
            with contextlib.suppress(OSError):  # the reader process closed its end first
                pipe.close()


class _CodeSpan:
    """Where a function of the reader's sits in their code, as a code object tells it: enough for
    `scratchgrad.exercises.shares.line_in` to quote the reader's line (the source is in linecache)."""

    def __init__(self, filename: str, first: int, lines: list[int]) -> None:
        self.co_filename, self.co_firstlineno, self._lines = filename, first, lines

    def co_lines(self) -> list[tuple[int, int, int]]:
        return [(0, 0, line) for line in self._lines]


class RemoteFunction:
    """A function of the reader's, called in the reader process: arguments and result as plain data."""

    def __init__(
        self, channel: _Channel, name: str, span: _CodeSpan | None = None, parameters: list | None = None
    ) -> None:
        self._channel, self.__name__ = channel, name
        if span is not None:
            self.__code__ = span
        if parameters is not None:  # for inspect.signature: the names and kinds, no default's value
            self.__signature__ = inspect.Signature(
                [
                    inspect.Parameter(str(name), inspect._ParameterKind(int(kind)))
                    if not has_default
                    else inspect.Parameter(
                        str(name), inspect._ParameterKind(int(kind)), default=Opaque("", "…")
                    )
                    for name, kind, has_default in parameters
                ]
            )

    def __call__(self, *args: object) -> object:
        return self._channel.result(
            {
                "call": self.__name__,
                "args": [_encode(arg, self._channel.handles, self._channel.records) for arg in args],
            },
            args,
        )

    def __repr__(self) -> str:
        return f"<your function {self.__name__}>"


def _operation(name: str, reflected: bool = False) -> Callable:
    def method(self: RemoteObject, *others: object) -> object:
        args = (*others, self) if reflected else (self, *others)
        return object.__getattribute__(self, "_channel").operation(name, *args)

    return method


class RemoteObject:
    """An object of the reader's (a Value, its class, a closure) as the checks hold it: every
    attribute read or written, call, operator, comparison, ``repr``, ``float``, iteration and
    ``isinstance`` with it is done in the reader process (`_OPERATIONS`), one trip over the pipe
    each; what comes back is plain data or another `RemoteObject`, the same one for the same object,
    so ``is`` and ``id`` tell the reader's objects apart as they do there."""

    __slots__ = ("_channel", "_number")

    def __init__(self, channel: _Channel, number: int) -> None:
        object.__setattr__(self, "_channel", channel)
        object.__setattr__(self, "_number", number)

    def __getattribute__(self, name: str) -> object:  # every name is the reader's: __pow__, __class__ too
        return object.__getattribute__(self, "_channel").operation("getattr", self, name)

    def __setattr__(self, name: str, value: object) -> None:
        object.__getattribute__(self, "_channel").operation("setattr", self, name, value)

    def __delattr__(self, name: str) -> None:
        object.__getattribute__(self, "_channel").operation("delattr", self, name)

    __hash__ = object.__hash__
    __repr__ = _operation("repr")
    __str__ = _operation("str")
    __format__ = _operation("format")
    __float__ = _operation("float")
    __int__ = _operation("int")
    __bool__ = _operation("bool")
    __len__ = _operation("len")
    __getitem__ = _operation("getitem")
    __contains__ = _operation("contains")
    __instancecheck__ = _operation("isinstance", reflected=True)
    __subclasscheck__ = _operation("issubclass", reflected=True)

    def __iter__(self) -> Iterator[object]:
        return iter(object.__getattribute__(self, "_channel").operation("list", self))

    for _name in ("add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul"):
        locals()[f"__{_name}__"] = _operation(_name)
        locals()[f"__r{_name}__"] = _operation(_name, reflected=True)
    for _name in ("neg", "pos", "abs", "eq", "ne", "lt", "le", "gt", "ge"):
        locals()[f"__{_name}__"] = _operation(_name)
    del _name


class RemoteCallable(RemoteObject):
    """A `RemoteObject` the reader's code can call (a class, a function, a method): so is this."""

    __slots__ = ()

    def __call__(self, *args: object, **kwargs: object) -> object:
        return object.__getattribute__(self, "_channel").operation("call", self, *args, **kwargs)


_OPERATIONS: dict[str, Callable] = {
    "getattr": getattr, "setattr": setattr, "delattr": delattr,
    "call": lambda function, *args, **kwargs: function(*args, **kwargs),
    "repr": repr, "str": str, "format": format, "float": float, "int": int, "bool": bool, "len": len,
    "list": list, "isinstance": isinstance, "issubclass": issubclass,
    "getitem": operator.getitem, "contains": operator.contains,
    **{name: getattr(operator, name) for name in (
        "add", "sub", "mul", "truediv", "floordiv", "mod", "pow", "matmul",
        "neg", "pos", "abs", "eq", "ne", "lt", "le", "gt", "ge",
    )},
}  # fmt: skip
"""What the checks may do with the reader's objects, by name: each runs in the reader process, on
the reader's own objects, guarded by its sandbox like any call of the reader's code."""


def check_all_across(pieces: Mapping[str, str], *, time_limit: float, seed: int) -> dict[str, Report]:
    """Check every piece of `pieces` that is one of `ACROSS`, in story order, each on the passing
    ones before it (the reference for the others): a report per piece checked."""
    reports: dict[str, Report] = {}
    for exercise_id in ACROSS:
        if exercise_id in pieces:
            passing = {piece: pieces[piece] for piece, report in reports.items() if report.passed}
            reports[exercise_id] = check_across(
                exercise_id, pieces[exercise_id], passing, time_limit=time_limit, seed=seed
            )
    return reports


def check_across(
    exercise_id: str, source: str, earlier: Mapping[str, str], *, time_limit: float, seed: int
) -> Report:
    """Check the reader's `source` for `exercise_id` (one of `ACROSS`) on the reader's passing pieces
    `earlier` (the reference for the others): the reader's code loaded and called in a reader
    process, the checks and the verdict here."""
    exercise = by_id(exercise_id)
    for piece, code in {**earlier, exercise.id: source}.items():  # for the quotes of the reader's lines
        linecache.cache[reader_filename(piece)] = (
            len(code),
            None,
            code.splitlines(keepends=True),
            reader_filename(piece),
        )
    child = subprocess.Popen(
        [sys.executable, "-m", "scratchgrad.exercises.remote"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    channel = _Channel(child, time_limit + STARTUP_SECONDS)
    try:
        return _check_on(channel, exercise, source, earlier, time_limit, seed)
    finally:
        channel.stop()


def _check_on(
    channel: _Channel,
    exercise: Exercise,
    source: str,
    earlier: Mapping[str, str],
    time_limit: float,
    seed: int,
) -> Report:
    report = Report(exercise.id, "passed", "", seed=seed)
    earlier_ids = [piece.id for piece in earlier_pieces(exercise)]
    try:
        loaded = channel.ask(
            {"load": source, "exercise": exercise.id, "time_limit": time_limit,
             "earlier": {piece: earlier[piece] for piece in earlier_ids if piece in earlier}}
        )  # fmt: skip
        report.pieces = _pieces(loaded.get("pieces"))
        if "raised" in loaded or "stopped" in loaded:
            outcome = "raised" if "raised" in loaded else "stopped"
            report.error = _code_error_from(loaded.get("error"))
            return _finish_across(report, channel, outcome, str(loaded.get("headline", "did not finish")))
        if borrowed := book_imports(source) or judged(exercise, loaded.get("borrowed"), source):
            report.checks.append(CheckLine("the piece is your own code", False, str(borrowed)))
            return _finish_across(
                report, channel, "failed", "your code takes the book's implementation instead of writing it"
            )
        namespace = _functions(channel, loaded.get("functions"))
    except _Stopped as stopped:
        return _finish_across(report, None, "stopped", str(stopped))
    for hidden in exercise.checks:
        engine = Engine(namespace, _providers(), random.Random(f"{seed}: {hidden.title}"))
        try:
            channel.ask({"seed": f"{seed}: {hidden.title}"})
            report.checks.append(CheckLine(hidden.title, True, hidden.run(engine)))
        except Fail as failure:
            report.checks.append(CheckLine(hidden.title, False, str(failure), failure.graph))
        except _Raised as raised:
            report.checks.append(CheckLine(hidden.title, False, f"raised {raised.error}"))
        except _Stopped as stopped:
            report.checks.append(CheckLine(hidden.title, False, str(stopped)))
            return _finish_across(report, None, "stopped", str(stopped))
        except Exception as error:  # a check's own arithmetic on what came back, as in one process
            report.checks.append(CheckLine(hidden.title, False, f"raised {_code_error(error, exercise.id)}"))
    return _finish_across(report, channel, *_verdict(report))


def _functions(channel: _Channel, functions: object) -> dict[str, object]:
    """The names the reader's code defined, as the reader process listed them: a function with its
    code's lines (a `RemoteFunction`), anything else as plain data or a `RemoteObject`."""
    try:
        return {
            str(name): _decode(span, None, channel.records, channel.proxy)
            if isinstance(span, dict)
            else RemoteFunction(
                channel,
                str(name),
                _CodeSpan(str(span[0]), int(span[1]), [int(n) for n in span[2]]) if span else None,
                span[3] if span and len(span) > 3 else None,
            )
            for name, span in functions.items()
        }
    except (AttributeError, TypeError, ValueError, IndexError, KeyError):
        channel.stop()
        raise _Stopped(_NO_REPLY) from None


def _code_error_from(error: object) -> CodeError | None:
    try:
        return CodeError(**error) if error else None
    except TypeError:
        return None  # written by the reader's code, not by this module


def _pieces(uses: object) -> list[PieceUse]:
    try:
        return [PieceUse(**dict(use, provides=tuple(use["provides"]))) for use in uses or []]
    except (TypeError, ValueError, KeyError):
        return []  # written by the reader's code, not by this module: no list of pieces to show


def _finish_across(report: Report, channel: _Channel | None, outcome: str, headline: str) -> Report:
    """`report` with its verdict, and what the reader's code printed and the seconds it used (nothing
    when its process has ended)."""
    report.outcome, report.headline = outcome, headline
    if channel is None:
        return report
    try:
        reply = channel.ask({"bye": True})
        report.output, report.output_dropped = str(reply.get("output", "")), int(reply.get("dropped", 0))
        report.seconds = round(float(reply.get("seconds", 0.0)), 3)
    except (_Stopped, ValueError, TypeError):
        pass  # the verdict stands; only the printout is lost
    return report


def _serve() -> None:
    """In the reader process: load the reader's code, then answer calls until "bye"."""
    cap_memory()
    # The pipes move off fds 0 and 1, which then lead nowhere: input(), or a write on sys.__stdout__,
    # cannot take a request or pass for an answer.
    requests, replies = os.fdopen(os.dup(0), "rb"), os.fdopen(os.dup(1), "wb")
    nowhere = os.open(os.devnull, os.O_RDWR)
    os.dup2(nowhere, 0)
    os.dup2(nowhere, 1)
    lines: Iterator[bytes] = iter(requests.readline, b"")

    def reply(message: dict) -> None:
        replies.write((json.dumps(message) + "\n").encode("utf-8"))
        replies.flush()

    def receive() -> dict:
        return json.loads(next(lines))

    def handle(number: int) -> Callable:
        def call(*args: object) -> object:
            arguments = [_encode(arg, None, records, refs) for arg in args]  # its Values as its own
            reply({"callback": number, "args": arguments, "recursing": recursing()})  # its stack, told
            while "value" not in (answer := receive()) and "error" not in answer:
                serve(answer, nested=True)  # the checker's function asked about the reader's objects
            if "value" in answer:
                return _decode(answer["value"], None, records, reference)
            error = getattr(builtins, str(answer.get("error")), None)
            if not (isinstance(error, type) and issubclass(error, Exception)):
                error = RuntimeError
            raise error(answer.get("message", ""))

        return call

    first = receive()
    records, refs = _Records(), _Records()

    def reference(data: dict) -> object:
        return refs.objects[int(data["ref"])]

    def serve(request: dict, nested: bool) -> None:
        """Answer one call or operation; a `nested` one (asked while the reader's code waits for a
        function of the checker's) runs inside the guard of the run that is waiting."""
        args = [_decode(arg, handle, records, reference) for arg in request.get("args", [])]
        kwargs = {
            str(k): _decode(arg, handle, records, reference) for k, arg in request.get("kwargs", {}).items()
        }
        function = _OPERATIONS[request["op"]] if "op" in request else namespace[request["call"]]
        try:
            result = function(*args, **kwargs) if nested else sandbox.run(partial(function, *args, **kwargs))
            value = _encode(result, None, records, refs)
            given = [] if "op" in request else list(enumerate(args))  # its lists, as the call left them
            lists = {str(i): _encode(arg, None, records, refs) for i, arg in given if type(arg) is list}
            reply({"value": value, "lists": lists})
        except (TimeLimitExceeded, KeyboardInterrupt):
            if nested:
                raise  # the run that waits stops, and says so
            reply({"stopped": _stopped(sandbox)})
        except SystemExit as error:
            if nested:
                raise
            reply({"stopped": _exited(_code_error(error, exercise.id))})
        except BaseException as error:
            reply({"raised": vars(_code_error(error, exercise.id))})

    exercise = by_id(first["exercise"])
    sandbox = Sandbox(first["time_limit"])
    namespace: dict = {"__name__": "__exercise__", "__builtins__": builtins}
    source, uses = first["load"], []
    try:
        uses = [
            vars(use) for use in load_pieces(earlier_pieces(exercise), first["earlier"], namespace, sandbox)
        ]
        _execute(source, reader_filename(exercise.id), namespace, sandbox)
    except (TimeLimitExceeded, KeyboardInterrupt):
        reply({"stopped": True, "headline": _stopped(sandbox), "pieces": uses})
    except SystemExit as error:
        code_error = _code_error(error, exercise.id)
        reply({"stopped": True, "error": vars(code_error), "headline": _exited(code_error), "pieces": uses})
    except BaseException as error:
        code_error = _code_error(error, exercise.id)
        reply(
            {
                "raised": True,
                "error": vars(code_error),
                "headline": f"your code raised {code_error}",
                "pieces": uses,
            }
        )
    else:
        borrowed = facts(exercise, namespace)  # what runs: only this process can look; the checks judge
        functions = {
            name: _span(value)
            if isinstance(value, types.FunctionType)
            else _encode(value, None, records, refs)
            for name, value in namespace.items()
            if not name.startswith("__")
        }
        reply({"borrowed": borrowed, "functions": functions, "pieces": uses})
    for request in map(json.loads, lines):
        if "bye" in request:
            reply(
                {
                    "output": sandbox.output.getvalue(),
                    "dropped": sandbox.output.dropped,
                    "seconds": sandbox.elapsed,
                }
            )
            break
        if "seed" in request:
            random.seed(request["seed"])  # the reader's own random draws, as in-process checks seed them
            reply({})
            continue
        serve(request, nested=False)
    os._exit(0)


def _span(function: object) -> list | None:
    """[file name, first line, every line, parameters] of a function's code, for `_CodeSpan` and the
    `RemoteFunction`'s signature (each parameter [name, kind, has a default]); None for no code."""
    code = getattr(function, "__code__", None)
    try:
        parameters = [
            [p.name, int(p.kind), p.default is not p.empty]
            for p in inspect.signature(function).parameters.values()
        ]
        return [
            code.co_filename,
            code.co_firstlineno,
            [line for _, _, line in code.co_lines() if line is not None],
            parameters,
        ]
    except (AttributeError, TypeError, ValueError):
        return None


if __name__ == "__main__":
    _serve()
