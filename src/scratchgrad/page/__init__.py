"""What a chapter's page runs: its runnable blocks and their break-it switches.

* `blocks` — what a runnable block is, for the site's build and the reader's browser alike: the
  page's namespace and seed, a block's file name, the outcome of a run and its verdict, drawings;
* `break_it` — the bugs the story teaches (``=`` for ``+=``, no ``zero_grad()``, a recursive
  sort, the wrong order), switched into the engine for one run of a block;
* `numbers` — how the tutorial writes a number in a sentence, for every part of it.

Part of the tutorial's machinery: it imports the library (`scratchgrad.engine`, …), never the
reverse.
"""
