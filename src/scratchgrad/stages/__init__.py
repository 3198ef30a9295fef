"""The engine as the tutorial builds it, one stage at a time, before the final `scratchgrad.engine`.

Each module is a complete, working step of the story, shown on the pages and tested like the rest:

1. `graph_only`: a Value that records how it was computed, no gradients yet
   (chapter "The Value object").
   `by_hand`: the same with a ``grad`` on every node and ``tanh``, gradients set by hand
   (chapter "Backprop by hand").
2. `overwrite_bug`: each operation attaches a `_backward` closure whose rule sets its
   children's gradients with ``=``, as "Local gradients and the chain rule" first writes them
   (right while each Value has one consumer); `backward()` calls them in reverse topological
   order, found by recursion (chapters "Local gradients and the chain rule", "Automating
   backward"). A Value used twice loses gradient: chapter "The += bug".
3. `closures`: the same with ``+=`` in every rule, the fix of "The += bug", and micrograd's
   design (the chapters from "The += bug" to "Training").
4. `composed_ops`: tanh and sigmoid built from exp, ``+``, ``*`` and ``**``: new
   operations with no new backward rule (chapter "More operations").
5. `textbook_nn`: the textbook ``Neuron``, ``Layer`` and ``MLP``, made of ``+``, ``*`` and
   ``tanh`` on the stage-2 Value (chapter "Neurons, layers and MLPs"; the notebook page
   "Build the engine, cell by cell").

The final engine keeps the same ideas but stores local derivatives as numbers and walks
the graph without recursion; its module docstring says why.
"""
