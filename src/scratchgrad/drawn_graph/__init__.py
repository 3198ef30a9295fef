"""The tools of a graph drawn on a page: its backward step by step, and every gradient checked.

The drawing itself is the library's (`scratchgrad.graph`); these modules study it for the page's
"Step through backward" and "Check gradients": `record` runs the graph's own ``backward()`` and
records each visit (the order, each child's share, the source line that ran), `check` measures
every node's gradient by central differences and names the op whose rule went wrong, and `study`
says both in words, as the JSON that follows each drawing to the page. Tutorial machinery: it
imports the library, never the reverse.
"""
