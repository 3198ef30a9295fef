"""scratchgrad: a scalar autograd engine and a small neural-network library, built to be read.

The layout says what is what: **the library** is every module at the top of the package
(`engine`'s `Value`, `fused`, `nn`, `losses`, `optim`, `train`, `datasets`, `gradcheck`, `graph`),
importing nothing but itself and Python's standard library; **the tutorial's machinery** is every
subpackage, named for its job (`page`, `drawn_graph`, `stages`, `exercises`, `playground`), which
imports the library and never the reverse (``tests/test_layering.py``).
"""

import importlib
import warnings

from scratchgrad.engine import Value
from scratchgrad.gradcheck import check_gradients
from scratchgrad.nn import MLP, Layer, Module, Neuron
from scratchgrad.optim import SGD, Adam
from scratchgrad.train import Trainer, fit

__all__ = ["MLP", "SGD", "Adam", "Layer", "Module", "Neuron", "Trainer", "Value", "check_gradients", "fit"]
__version__ = "0.1.0"

MOVED = {
    "blocks": "scratchgrad.page.blocks",
    "bugs": "scratchgrad.page.break_it",
    "backward_steps": "scratchgrad.drawn_graph.record",
    "graph_check": "scratchgrad.drawn_graph.check",
    "graph_study": "scratchgrad.drawn_graph.study",
    "micrograd_demo": "scratchgrad.playground.micrograd_demo",
}
"""Modules that moved to the tutorial's subpackages: old name → new home."""


def __getattr__(name: str) -> object:
    """``from scratchgrad import micrograd_demo`` (an old name) still works, warning of the new home."""
    if name not in MOVED:
        raise AttributeError(f"module 'scratchgrad' has no attribute {name!r}")
    warnings.warn(
        f"scratchgrad.{name} moved to {MOVED[name]}: import it from there", DeprecationWarning, stacklevel=2
    )
    return importlib.import_module(MOVED[name])
