"""The playground's settings: a `Settings` holds what to train on, which network, loss and optimizer,
as typed values, and `Settings.problems` says what is wrong with them, one message per bad field,
each naming its field; `from_query` reads them from a URL query string (the panel keeps them in
the page's URL, so a link shares them) and turns every bad or unreadable value into such a message
instead of an exception deep in training.

Example:
    >>> settings = from_query("dataset=xor&hidden=4&lr=0.5")
    >>> settings.dataset, settings.hidden, settings.lr
    ('xor', (4,), 0.5)
    >>> for message in Settings(lr=0.0, hidden=(8, 0)).problems().values():
    ...     print(message)
    Hidden layers (hidden): layer 2 has 0 neurons; every layer needs at least 1
    Learning rate (lr): must be greater than 0, got 0.0
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import asdict, dataclass, fields, replace
from typing import Any
from urllib.parse import parse_qsl, urlencode

from scratchgrad._checks import is_number, is_whole_number
from scratchgrad.features import FEATURES
from scratchgrad.fused import ACTIVATIONS
from scratchgrad.playground import micrograd_demo

__all__ = [
    "DATASETS",
    "FIELDS",
    "LOSSES",
    "OPTIMIZERS",
    "PRESETS",
    "SCHEDULES",
    "YOUR_ENGINE_BATCH",
    "Field",
    "Settings",
    "SettingsError",
    "batch_note",
    "from_query",
    "is_drawn",
    "preset",
    "to_query",
]

DATASETS = ("four_points", "xor", "moons", "circles", "spiral", "drawn")
LOSSES = ("cross_entropy", "hinge", "mse")
OPTIMIZERS = ("sgd", "momentum", "adam")
SCHEDULES = ("inverse", "linear")
ENGINES = ("scratchgrad", "yours")
YOUR_ENGINE_FIXES = ("activation", "loss", "optimizer", "schedule", "decay", "l2")
"""The settings the reader's engine has no say in: its neurons are tanh, its loop plain MSE descent."""
YOUR_ENGINE_BATCH = 20
"""The batch the reader's engine takes when none is asked for: its own `train` on all 100 points of
the moons managed 5-14 steps a second in a browser, and a batch of 20 runs 3-7 times as many
(benchmarks/playground_speed.py ``--only-yours all 20``, side by side)."""

MAX_POINTS = 400
MIN_POINTS = 4
"""The fewest points a drawn data set may have."""
MAX_COORDINATE = 2.0
"""How far from the origin a drawn point may lie, in each coordinate: the square a panel draws on."""
DRAWN_PLANE = (-MAX_COORDINATE, MAX_COORDINATE, -MAX_COORDINATE, MAX_COORDINATE)
"""The plane of the drawn data set, (x_min, x_max, y_min, y_max): fixed, so points stay put as more come."""
MAX_LAYERS = 4
MAX_NEURONS = 32
MAX_LR = 10.0
MAX_SEED = 2**31 - 1
_TOO_SLOW = " (more would train too slowly in a browser)"


@dataclass(frozen=True)
class Settings:
    """Everything that decides a training run; the defaults train two moons in a few seconds.

    Attributes:
        dataset: one of `DATASETS`. ``four_points`` (3 inputs) and ``xor`` are fixed
            sets of 4 points: they ignore `noise` and `points`.
        noise: the standard deviation of the noise added to the points.
        points: how many points to draw (the spiral: a multiple of 3, a third per arm).
        test_fraction: the share of the points held out to test on (`scratchgrad.datasets.split`,
            seeded by `seed`), never trained on; 0 trains on all. Not for the 4-point sets or drawn points.
        features: what the network is given of each point of the plane (`scratchgrad.features`):
            ``("x1", "x2")``, its coordinates, by default; not for the 3-D four points.
        hidden: neurons per hidden layer, e.g. ``(16, 16)``; ``()`` is a linear model.
        activation: the hidden layers' activation (the output layer is linear: raw scores).
        loss: ``cross_entropy`` (binary, or softmax for the 3-class spiral), ``hinge`` or ``mse``.
        optimizer: ``sgd``, ``momentum`` (SGD with momentum 0.9) or ``adam``.
        lr: the learning rate of the first step.
        schedule: how the rate falls with `decay`: ``inverse``, step t uses
            ``lr / (1 + decay·t)``; ``linear``, ``lr·(1 − decay·t)`` down to 0
            (micrograd's demo: lr 1.0, decay 0.009).
        decay: how fast the learning rate falls; 0 keeps it at `lr`. SGD and momentum only.
        l2: the weight of the penalty ``l2·Σθ²`` added to the loss.
        batch_size: examples per step; None trains on every point at every step.
        seed: seeds the data, the initial weights and the batch shuffling.
        drawn: the reader's own points for ``dataset="drawn"``, each ``(x₁, x₂, class)`` with
            class 0 or 1; in a URL ``x₁,x₂,class`` joined by ``;``.
        engine: ``scratchgrad``, or ``yours``: the engine the reader built in the exercises
            (their Value, MLP and ``train``: tanh neurons, mean squared error, plain gradient
            descent on each step's batch), which makes activation, loss, optimizer, schedule,
            decay and l2 mean nothing (see `scratchgrad.playground.your_engine`).
    """

    dataset: str = "moons"
    noise: float = 0.1
    points: int = 100
    test_fraction: float = 0.3
    features: tuple[str, ...] = ("x1", "x2")
    hidden: tuple[int, ...] = (8, 8)
    activation: str = "tanh"
    loss: str = "cross_entropy"
    optimizer: str = "adam"
    lr: float = 0.05
    schedule: str = "inverse"
    decay: float = 0.0
    l2: float = 0.0
    batch_size: int | None = None
    seed: int = 0
    engine: str = "scratchgrad"
    drawn: tuple[tuple[float, float, int], ...] = ()

    @property
    def inputs(self) -> int:
        """How many numbers the network is given per point: 3 for the four points, else one per feature."""
        return 3 if self.dataset == "four_points" else len(self.features)

    @property
    def classes(self) -> int:
        """How many classes the data has: 3 for the spiral, else 2."""
        return 3 if self.dataset == "spiral" else 2

    @property
    def point_count(self) -> int:
        """How many points the data set has (4 for the fixed sets; whole arms for the spiral)."""
        if self.dataset in ("four_points", "xor"):
            return 4
        if self.dataset == "spiral":
            return 3 * (self.points // 3)
        if self.dataset == "drawn":
            return len(self.drawn)
        return self.points

    @property
    def held_out(self) -> bool:
        """Whether some points are held out to test on (never for the 4-point sets, nor drawn points)."""
        return bool(self.test_fraction) and self.dataset not in ("four_points", "xor", "drawn")

    @property
    def train_count(self) -> int:
        """How many points are trained on: all of them, or those `held_out` leaves (as `split` counts)."""
        count = self.point_count
        if not self.held_out or not is_number(self.test_fraction) or not 0 < self.test_fraction < 1:
            return count
        return count - min(max(round(self.test_fraction * count), 1), count - 1)

    def unused(self) -> tuple[str, ...]:
        """The fields that change nothing for these settings (a panel can grey them out).

        Example:
            >>> Settings(dataset="xor", hidden=()).unused()
            ('noise', 'points', 'test_fraction', 'activation', 'schedule')
        """
        fixed = (
            ("noise", "points", "test_fraction") if self.dataset in ("four_points", "xor", "drawn") else ()
        )
        fixed += ("features",) if self.dataset == "four_points" else ()
        if self.engine == "yours":
            return fixed + YOUR_ENGINE_FIXES
        return fixed + (() if self.hidden else ("activation",)) + (() if self.decay else ("schedule",))

    def problems(self) -> dict[str, str]:
        """One message per bad field (field name → message that names it); empty when all is well."""
        found: dict[str, str] = {}
        for spec in FIELDS:
            message = spec.check(getattr(self, spec.name))
            if message:
                found[spec.name] = f"{spec.title}: {message}"
        for name, message in self._conflicts().items():
            found.setdefault(name, f"{_FIELDS_BY_NAME[name].title}: {message}")
        return found

    def _conflicts(self) -> dict[str, str]:
        """Problems of a field that only show next to another field's value."""
        found = {}
        if self.engine == "yours" and self.dataset == "spiral":
            found["engine"] = (
                "your engine trains two classes (targets ±1) with mean squared error; the spiral has 3: "
                "pick another data set, or engine scratchgrad"
            )
        elif self.dataset == "spiral" and self.loss != "cross_entropy":
            found["loss"] = (
                f"the spiral has 3 classes: use cross_entropy ({self.loss} here scores two classes, ±1)"
            )
        if self.dataset == "drawn" and is_drawn(self.drawn):
            if len(self.drawn) < MIN_POINTS:
                found["drawn"] = f"draw at least {MIN_POINTS} points to train on, got {len(self.drawn)}"
            elif len({cls for _, _, cls in self.drawn}) < 2:
                found["drawn"] = "draw points of both classes, 0 and 1: one class alone has nothing to learn"
        if self.optimizer == "adam" and self.decay:
            found["decay"] = "Adam sizes its own steps: set decay to 0, or pick sgd or momentum"
        batch, count = self.batch_size, self.train_count
        if is_whole_number(batch) and batch > count > 0:
            kept = " kept to train on" if self.held_out else ""
            found["batch_size"] = f"{batch} is more than the {count} points of this data set{kept}"
        points = self.points
        if self.dataset == "spiral" and is_whole_number(points) and points % 3:
            below, above = points - points % 3, points - points % 3 + 3
            found["points"] = (
                f"the spiral has 3 arms of equal size: use a multiple of 3, such as {below} or {above}"
            )
        return found


class SettingsError(ValueError):
    """Settings that cannot be used; `problems` maps each bad field to its message."""

    def __init__(self, problems: Mapping[str, str]) -> None:
        self.problems = dict(problems)
        super().__init__("bad playground settings:\n" + "\n".join(self.problems.values()))


@dataclass(frozen=True)
class Field:
    """One setting: how to read it from text, what values it accepts, how to label its control.

    Attributes:
        name: the `Settings` attribute and the URL query key.
        label: a short label for the control.
        kind: ``choice``, ``float``, ``int``, ``layers``, ``batch``, ``features`` (several of
            `choices`, comma-separated) or ``points``.
        choices: the allowed names (``choice`` and ``features`` fields).
        written: how each of `choices` is written for a reader (``features``: x₁², …).
        low: the smallest allowed number (inclusive unless `above_low`).
        high: the largest allowed number (inclusive).
        above_low: True when the number must be strictly greater than `low`.
        why_high: why numbers above `high` are refused.
        help: one sentence for the control's tooltip.
        clears: the fields a change of this one gives back to their default (the form then leaves
            them out of its query, and `from_query` chooses them again).
    """

    name: str
    label: str
    kind: str
    choices: tuple[str, ...] = ()
    written: tuple[str, ...] = ()
    low: float | None = None
    high: float | None = None
    above_low: bool = False
    why_high: str = ""
    help: str = ""
    clears: tuple[str, ...] = ()

    @property
    def title(self) -> str:
        """How a message names this field: its label, and its URL key when that reads differently."""
        same = self.label.lower() == self.name.replace("_", " ")
        return self.label if same else f"{self.label} ({self.name})"

    def parse(self, text: str) -> Any:
        """The value written as `text` (as in a URL), or a ValueError saying why it cannot be read."""
        text = text.strip()
        if self.kind == "choice":
            return text
        if self.kind == "float":
            try:
                return float(text)
            except ValueError:
                raise ValueError(f"{text!r} is not a number") from None
        if self.kind == "int" or (self.kind == "batch" and text != "all"):
            return _whole_number(text)
        if self.kind == "batch":
            return None
        if self.kind == "features":
            return tuple(part.strip() for part in text.split(",")) if text else ()
        if self.kind == "points":
            return _parse_drawn(text)
        return tuple(_whole_number(part) for part in text.split(",")) if text else ()

    def format(self, value: Any) -> str:
        """`value` as text that `parse` reads back to the same value."""
        if self.kind in ("layers", "features"):
            return ",".join(map(str, value))
        if self.kind == "points":
            return ";".join(f"{_number(x1)},{_number(x2)},{cls}" for x1, x2, cls in value)
        if self.kind == "batch" and value is None:
            return "all"
        return str(value)

    def check(self, value: Any) -> str | None:
        """What is wrong with `value` for this field (without the field's name), or None."""
        if self.kind == "choice":
            if value not in self.choices:
                return f"unknown {self.label.lower()} {value!r}; choose one of {', '.join(self.choices)}"
            return None
        if self.kind == "layers":
            return _check_layers(value)
        if self.kind == "features":
            return _check_features(value, self.choices)
        if self.kind == "points":
            return _check_drawn(value)
        if self.kind == "batch" and value is None:
            return None
        return self._check_number(value)

    def _check_number(self, value: Any) -> str | None:
        whole = self.kind in ("int", "batch")
        if not (is_whole_number(value) if whole else is_number(value)):
            return f"must be a {'whole number' if whole else 'number'}, got {value!r}"
        if not math.isfinite(value):
            return f"must be a finite number, got {value!r}"
        if self.low is not None and (value <= self.low if self.above_low else value < self.low):
            relation = "greater than" if self.above_low else "at least"
            return f"must be {relation} {_number(self.low)}, got {value!r}"
        if self.high is not None and value > self.high:
            return f"must be at most {_number(self.high)}{self.why_high}, got {value!r}"
        return None

    def describe(self) -> dict[str, Any]:
        """This field as plain data (JSON-ready), for the browser panel that builds its controls."""
        return {key: value for key, value in asdict(self).items() if value not in ((), None, "")}


def _whole_number(text: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise ValueError(f"{text!r} is not a whole number") from None


def _number(x: float) -> str:
    return str(int(x)) if float(x).is_integer() else str(x)


def _parse_drawn(text: str) -> tuple[tuple[float, float, int], ...]:
    """Points written ``x₁,x₂,class`` and joined by ``;``; a ValueError names the first one unreadable."""
    if len(text) > MAX_POINTS * 40:
        raise ValueError(f"{len(text)} characters is more than {MAX_POINTS} points can take")
    points = []
    for position, part in enumerate(filter(None, text.split(";")), start=1):
        numbers = part.split(",")
        if len(numbers) != 3:
            raise ValueError(f"point {position} {part!r} is not x₁,x₂,class (three numbers)")
        try:
            points.append((float(numbers[0]), float(numbers[1]), int(numbers[2])))
        except ValueError:
            raise ValueError(f"point {position} {part!r} is not x₁,x₂,class (three numbers)") from None
    return tuple(points)


def is_drawn(points: Any) -> bool:
    """True when `points` has the shape of drawn points (a tuple of (x₁, x₂, class) tuples)."""
    return isinstance(points, tuple) and all(
        isinstance(p, tuple) and len(p) == 3 and is_number(p[0]) and is_number(p[1]) and is_whole_number(p[2])
        for p in points
    )


def _check_drawn(points: Any) -> str | None:
    if not is_drawn(points):
        return f"must be points (x₁, x₂, class), got {points!r}"
    if len(points) > MAX_POINTS:
        return f"at most {MAX_POINTS} points{_TOO_SLOW}, got {len(points)}"
    for position, (x1, x2, cls) in enumerate(points, start=1):
        if not (math.isfinite(x1) and math.isfinite(x2)) or max(abs(x1), abs(x2)) > MAX_COORDINATE:
            edge = _number(MAX_COORDINATE)
            return f"point {position} ({x1}, {x2}) is off the plane: each coordinate from -{edge} to {edge}"
        if cls not in (0, 1):
            return f"point {position} has class {cls}; a drawn point is class 0 or 1"
    return None


def _check_layers(layers: Any) -> str | None:
    if not isinstance(layers, tuple) or not all(map(is_whole_number, layers)):
        return f"must be whole numbers of neurons separated by commas, got {layers!r}"
    if len(layers) > MAX_LAYERS:
        return f"at most {MAX_LAYERS} hidden layers{_TOO_SLOW}, got {len(layers)}"
    for position, neurons in enumerate(layers, start=1):
        if neurons < 1:
            return f"layer {position} has {neurons} neurons; every layer needs at least 1"
        if neurons > MAX_NEURONS:
            return f"layer {position} has {neurons} neurons; at most {MAX_NEURONS} per layer{_TOO_SLOW}"
    return None


def _check_features(names: Any, choices: tuple[str, ...]) -> str | None:
    if not isinstance(names, tuple) or not names:
        return f"pick at least one feature from {', '.join(choices)}, got {names!r}"
    unknown = [name for name in names if name not in choices]
    if unknown:
        return f"unknown feature {unknown[0]!r}; choose from {', '.join(choices)}"
    twice = [name for index, name in enumerate(names) if name in names[:index]]
    if twice:
        return f"{twice[0]} is given twice"
    return None


FIELDS: tuple[Field, ...] = (
    Field("dataset", "Data set", "choice", DATASETS, help="The points to classify."),
    Field(
        "noise", "Noise", "float", low=0.0, high=1.0, help="How far the points scatter (not 4-point sets).",
    ),
    Field(
        "points", "Points", "int", low=MIN_POINTS, high=MAX_POINTS, why_high=_TOO_SLOW,
        help="How many points to draw (not for 4-point sets).",
    ),
    Field(
        "test_fraction", "Test fraction", "float", low=0.0, high=0.8,
        help="Share of the points held out to test on, never trained on (hollow); 0 trains on all.",
    ),
    Field(
        "features", "Features", "features", tuple(FEATURES), tuple(text for text, _ in FEATURES.values()),
        help="What the network is given of each point: its coordinates x₁, x₂, and more if you pick them.",
    ),
    Field("hidden", "Hidden layers", "layers", help="Neurons per hidden layer, e.g. 8, 8; empty for none."),
    Field("activation", "Activation", "choice", tuple(ACTIVATIONS), help="The hidden neurons' nonlinearity."),
    Field("loss", "Loss", "choice", LOSSES, help="How wrong the scores are, as one number."),
    Field("optimizer", "Optimizer", "choice", OPTIMIZERS, help="How a gradient becomes a step."),
    Field(
        "lr", "Learning rate", "float", low=0.0, above_low=True, high=MAX_LR,
        why_high=" (steps that large only diverge)", help="The size of each step.",
    ),
    Field(
        "schedule", "Schedule", "choice", SCHEDULES,
        help="How the rate falls: inverse, lr / (1 + decay·t); linear, lr·(1 − decay·t) down to 0.",
    ),
    Field("decay", "Decay", "float", low=0.0, high=1.0, help="How fast the rate falls; 0 keeps it at lr."),
    Field("l2", "L2", "float", low=0.0, high=1.0, help="Weight of the penalty l2·Σθ² on large parameters."),
    Field("batch_size", "Batch size", "batch", low=1, help="Points per step; all for every point."),
    Field("seed", "Seed", "int", low=0, high=MAX_SEED, help="Seeds the data, the weights and the shuffling."),
    Field(
        "engine", "Engine", "choice", ENGINES,
        help="scratchgrad, or yours: the Value, MLP and training loop you wrote in the Your turn exercises.",
        clears=("batch_size",),
    ),
    Field(
        "drawn", "Drawn points", "points",
        help="Your own points for the data set drawn: x₁,x₂,class (0 or 1), separated by ;.",
    ),
)  # fmt: skip
"""The fields in the order the panel shows them (and a URL lists them)."""

_FIELDS_BY_NAME = {spec.name: spec for spec in FIELDS}
assert list(_FIELDS_BY_NAME) == [f.name for f in fields(Settings)], "FIELDS must follow Settings"


def _from_values(values: Mapping[str, str], base: Settings | None) -> Settings:
    """Settings from text values (field name → text); fields not given keep `base`'s value."""
    changes, problems = {}, {}
    for name, text in values.items():
        spec = _FIELDS_BY_NAME[name]
        try:
            changes[name] = spec.parse(text)
        except ValueError as error:
            problems[name] = f"{spec.title}: {error}"
    settings = _fitted_to_dataset(replace(base or Settings(), **changes))
    if "batch_size" not in values:
        settings = _lively_for_your_engine(settings)
    problems = {**settings.problems(), **problems}
    if problems:
        raise SettingsError({name: problems[name] for name in _FIELDS_BY_NAME if name in problems})
    return settings


def _fitted_to_dataset(settings: Settings) -> Settings:
    """`settings` with a point count its data set can draw: the spiral's three equal arms take the
    nearest multiple of 3 (100 becomes 99), so that choosing the spiral never leaves the panel stuck.
    `Settings` itself still refuses such a count, with the reason (`Settings.problems`)."""
    points = settings.points
    if settings.dataset == "spiral" and is_whole_number(points) and points % 3 and points >= MIN_POINTS:
        return replace(settings, points=max(2 * 3, 3 * round(points / 3)))  # two points an arm at least
    return settings


def _lively_for_your_engine(settings: Settings) -> Settings:
    """`settings` with the reader's engine on `YOUR_ENGINE_BATCH` points a step when no batch was asked
    for and the data set has more; every point stays one setting away (``batch_size=all``)."""
    more = settings.train_count > YOUR_ENGINE_BATCH
    if settings.engine == "yours" and settings.batch_size is None and more:
        return replace(settings, batch_size=YOUR_ENGINE_BATCH)
    return settings


def batch_note(settings: Settings) -> str:
    """The sentence a panel shows about the reader's engine's batch ("" for the book's engine, and for
    data sets of no more points than `YOUR_ENGINE_BATCH`, which it trains on whole)."""
    count = settings.train_count
    if settings.engine != "yours" or count <= YOUR_ENGINE_BATCH:
        return ""
    if settings.batch_size is None or settings.batch_size >= count:
        return (
            f"Your engine trains on all {count} training points a step; a batch of {YOUR_ENGINE_BATCH} "
            "takes fewer points a step and keeps training lively."
        )
    return (
        f"Your engine trains on a batch of {settings.batch_size} of the {count} training points a step, "
        "so that it keeps training lively (every point makes each step slower)."
    )


def from_query(query: str, base: Settings | None = None) -> Settings:
    """Settings from a URL query string such as ``"dataset=spiral&hidden=16,16"``.

    Keys that are not settings are ignored (a page URL may carry others, e.g.
    the search highlight ``h=``); a setting given twice is an error. Missing
    settings keep `base`'s value (the defaults when None), except that the
    reader's engine without a batch given takes `YOUR_ENGINE_BATCH` points a step.

    Raises:
        SettingsError: one message per bad setting.
    """
    values: dict[str, str] = {}
    twice = {}
    for key, text in parse_qsl(query.removeprefix("?"), keep_blank_values=True):
        if key in _FIELDS_BY_NAME:
            if key in values:
                twice[key] = f"{_FIELDS_BY_NAME[key].title}: given twice in the URL"
            values[key] = text
    if twice:
        raise SettingsError(twice)
    return _from_values(values, base)


def to_query(settings: Settings) -> str:
    """`settings` as a URL query string (every field in `FIELDS` order, but no empty drawn points);
    `from_query` reads it back."""
    pairs = [(spec.name, spec.format(getattr(settings, spec.name))) for spec in FIELDS]
    return urlencode([(name, text) for name, text in pairs if name != "drawn" or text], safe=",;")


PRESETS: dict[str, Settings] = {
    "four_points": Settings(
        dataset="four_points", hidden=(4, 4), activation="tanh", loss="mse", optimizer="sgd", lr=0.05
    ),
    "xor": Settings(dataset="xor", hidden=(4,), activation="tanh", loss="cross_entropy", lr=0.1),
    "moons": Settings(),
    "circles": Settings(dataset="circles", hidden=(8, 8), activation="tanh"),
    "spiral": Settings(
        dataset="spiral", points=120, noise=0.2, hidden=(12, 12), activation="tanh", lr=0.03, batch_size=20
    ),
    "overfitting": Settings(
        dataset="moons", points=40, noise=0.35, test_fraction=0.5, hidden=(24, 24), lr=0.05, seed=1
    ),
    "micrograd_demo": Settings(
        dataset="moons", noise=micrograd_demo.NOISE, points=micrograd_demo.POINTS,
        hidden=micrograd_demo.HIDDEN, activation=micrograd_demo.ACTIVATION, loss="hinge", optimizer="sgd",
        lr=micrograd_demo.LEARNING_RATE, schedule="linear", decay=micrograd_demo.DECAY, l2=micrograd_demo.L2,
        seed=micrograd_demo.DATA_SEED, test_fraction=0.0,
    ),
}  # fmt: skip
"""Named starting points: one per data set; ``overfitting``, few noisy points and a large network, whose
held-out loss climbs while its training loss falls; and micrograd's demo
(`scratchgrad.playground.micrograd_demo`), which trains on all its points, as micrograd does."""


def preset(name: str) -> Settings:
    """The preset called `name`, or a SettingsError that lists the presets there are."""
    if name not in PRESETS:
        raise SettingsError(
            {"preset": f"preset: unknown preset {name!r}; choose one of {', '.join(PRESETS)}"}
        )
    return PRESETS[name]
