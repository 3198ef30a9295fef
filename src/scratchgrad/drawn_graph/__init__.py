"""The tools of a graph drawn on a page: its backward step by step, and every gradient checked.

The drawing itself is the library's (`scratchgrad.graph`: ``to_dot``, ``draw_dot``); these
modules study the drawn graph for the page's "Step through backward" and "Check gradients":

* `record` — runs the graph's own ``backward()`` and records it: the order nodes are visited in,
  each child's share, the source line that ran;
* `check` — every node's gradient against central differences, and the op whose backward rule
  went wrong;
* `study` — both in words, as the JSON that follows each drawing to the page.

Part of the tutorial's machinery: it imports the library, never the reverse.
"""
