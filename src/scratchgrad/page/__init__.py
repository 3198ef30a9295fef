"""What a chapter's page runs: its runnable blocks and their break-it switches.

`blocks` says what a runnable block is for the site's build and the reader's browser alike (the
page's namespace and seed, a block's file name, the outcome of a run and its verdict, drawings);
`break_it` switches the bugs the story teaches into the engine for one run of a block;
`reader_engine` runs a page's blocks on the reader's own pieces; `numbers` writes a number in a
sentence, one way for every part of the tutorial. Tutorial machinery: it imports the library,
never the reverse.
"""
