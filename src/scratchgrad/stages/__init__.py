"""The engine as the tutorial builds it, one working stage per step of the story, before the final
`scratchgrad.engine`: `graph_only` records how a Value was computed ("The Value object");
`by_hand` adds a ``grad`` filled in by hand ("Backprop by hand"); `overwrite_bug` gives each
operation a ``_backward`` rule that sets its children's gradients with ``=`` ("Local gradients and
the chain rule", "Automating backward"), which loses a share when a Value is used twice;
`closures` adds them with ``+=``, micrograd's design, from "The += bug" on; `composed_ops` builds
new functions from old operations with no new rule ("More operations"); and `textbook_nn` is the
textbook ``Neuron``, ``Layer`` and ``MLP`` on the closure stage ("Neurons, layers and MLPs").
Each is shown on the pages and tested like the rest.
"""
