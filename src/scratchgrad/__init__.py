"""scratchgrad: a scalar autograd engine and a small neural-network library, built to be read."""

from scratchgrad.engine import Value
from scratchgrad.gradcheck import check_gradients
from scratchgrad.nn import MLP, Layer, Module, Neuron
from scratchgrad.optim import SGD, Adam
from scratchgrad.train import Trainer, fit

__all__ = ["MLP", "SGD", "Adam", "Layer", "Module", "Neuron", "Trainer", "Value", "check_gradients", "fit"]
__version__ = "0.1.0"
