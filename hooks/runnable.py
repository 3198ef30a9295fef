"""MkDocs hook: ```python run``` blocks, executed at build time with their output shown under them.

A page's runnable blocks share one Python namespace and run in page order, like the cells of a
notebook. What they print, the error a must-fail block raises, and the graphs and figures they ask
for are written into the page, so every number a reader sees is the output of the code above it.
A block that raises unexpectedly, or a must-fail block that does not fail, fails the build.

What a block *is* — its namespace and seed, its file name in tracebacks, the outcome of a run and
the verdict on it — is defined once, in `scratchgrad.page.blocks`, which the browser's worker runs too;
this hook turns outcomes into HTML.

The HTML written here is the contract with the browser runtime (web/, which turns each block
into an editor), built by `format_block` and `render_block`::

    <div class="sg-runnable" id="sg-run-3" data-sg-page="chain-rule" data-sg-block="3"
         data-sg-filename="<chain-rule block 4>" data-sg-code="(the exact source, HTML-escaped)"
         [data-sg-expect="RecursionError"] [data-sg-hidden] [data-sg-browser="no"]
         [data-sg-engine="(JSON: the reader's pieces it runs on with "my engine",
         scratchgrad.page.reader_engine.describe)"]>
      <div class="sg-source">(the highlighted code as a stand-in for the editor, hooks/helpers/stand_in.py;
        Material's code block for browser="no"; empty for `hide`)</div>
      <div class="sg-result" data-sg-origin="build">
        [<pre class="sg-output">printed text[<span class="sg-error">Type: message</span>]</pre>]
        [<div class="sg-figure sg-graph" data-sg-graph="L"><svg>...</svg></div>]
        [<div class="sg-figure sg-plot" data-sg-figure="loss_curve(losses)"><svg>...</svg></div>]
        [<div class="sg-figure sg-curve" data-sg-curve="history" data-sg-points="(JSON)"><p>...</p></div>]
      </div>
    </div>

Fence syntax (options as for any SuperFences block)::

    ```python run expect="RecursionError" graph="L" figure="loss_curve(history.loss)" title="..."
    ```python run browser="no"      (built and shown, never run by the browser: needs e.g. torch)
    ```python run output="varies"   (prints measurements, e.g. timings: its text is never compared)
    ```python run curve="history"   (a training run's loss per step, drawn by the page as a chart)
    ```python run break="overwrite" (the page reruns it with a bug of scratchgrad.page.break_it)
    ```python run slider="lr 0.01 0.4 0.01" (a control for `lr = …` in the code: moving it reruns the block)

A break-it switch must change what its block does: the build runs the block with the bug too, and
a bug that changes nothing the block prints, raises or draws fails the build.
"""

from __future__ import annotations

import dataclasses
import html
import importlib
import json
import re
import time
from dataclasses import dataclass, field

import markdown
from helpers import blocks_ahead, build_cache, figures, ran_blocks
from helpers.block_slider import slider_attribute
from helpers.fresh_package import forget_scratchgrad
from helpers.stand_in import stand_in
from helpers.step_times import step
from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority
from pymdownx.superfences import SuperFencesException

from scratchgrad.page import blocks, break_it, reader_engine

OPTIONS = (
    "run", "expect", "graph", "figure", "curve", "title", "hide", "browser", "output", "break", "slider",
)  # fmt: skip

_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_SVG = re.compile(r"<svg\b.*?</svg>", re.DOTALL)  # Graphviz's and matplotlib's: never nested
_PLACEHOLDER = re.compile(r'<div class="sg-runnable" data-sg-uid="(\d+)"')


@dataclass
class PageSession:
    """The namespace that a page's blocks share, fresh and seeded for every page (scratchgrad.page.blocks)."""

    page: str
    namespace: dict = field(default_factory=lambda: blocks.new_namespace())
    blocks_run: int = 0
    sources: list[str] = field(default_factory=list)  # of the blocks run so far, in page order

    def run(
        self, source: str, graphs: list[str] | None = None, curves: list[str] | None = None
    ) -> blocks.Outcome:
        """Run the page's next block, capturing what it prints and the graphs and curves it asks for."""
        filename = blocks.block_filename(self.page, self.blocks_run)
        self.blocks_run += 1
        self.sources.append(source)
        return blocks.run_block(
            source, filename, self.namespace, graphs or [], capture=True, curves=curves or []
        )

    def run_with_bug(
        self, source: str, bug: str, graphs: list[str] | None = None, curves: list[str] | None = None
    ) -> blocks.Outcome:
        """Run the block just run again with `bug` switched on, as its break-it switch does
        (`scratchgrad.page.blocks.run_block`: later blocks see neither its names nor its random numbers)."""
        filename = blocks.block_filename(self.page, self.blocks_run - 1)
        return blocks.run_block(
            source, filename, self.namespace, graphs or [], capture=True, bug=bug, curves=curves or []
        )

    def evaluate(self, expression: str) -> object:
        """The value of a fence option's expression in the page namespace."""
        return eval(expression, {**figures.HELPERS, **self.namespace})


def check_switch(outcome: blocks.Outcome, with_bug: blocks.Outcome, where: str) -> None:
    """Raise PluginError if a break-it switch's bug changes nothing the block prints, raises or draws."""
    if with_bug == outcome:
        raise PluginError(
            f"{where}: break= switches on a bug that changes nothing the block prints, raises or draws "
            "(does the block use the Value, or the zero_grad(), that the bug replaces?)"
        )


def check_outcome(outcome: blocks.Outcome, expect: str | None, where: str) -> None:
    """Raise PluginError unless the block did what its `expect` option says (`Outcome.as_expected`)."""
    if outcome.as_expected(expect):
        return
    if outcome.raised is None:
        raise PluginError(f"{where}: expected {expect} but the block ran without an error")
    wanted = f"expected {expect}, got" if expect else "unexpected error"
    raise PluginError(
        f"{where}: {wanted} {outcome.raised.line}\n{outcome.raised.traceback.rstrip()}\n"
        f"printed before it:\n{outcome.printed}"
    )


def parse_options(inputs: dict[str, str]) -> dict[str, str] | None:
    """The fence options of a runnable block, None for an ordinary block; bad options raise."""
    if "run" not in inputs:
        return None
    unknown = sorted(set(inputs) - set(OPTIONS))
    if unknown:
        raise SuperFencesException(
            f"```python run: unknown option(s) {unknown}; allowed: {', '.join(OPTIONS)}"
        )
    expect = inputs.get("expect")
    if expect is not None and not _NAME.fullmatch(expect):
        raise SuperFencesException(f'```python run: expect="{expect}" must name an exception class')
    browser = inputs.get("browser")
    if browser is not None and browser != "no":
        raise SuperFencesException(
            f'```python run: browser="{browser}": the only value is "no" (a block that needs a package '
            "Pyodide does not have, such as torch)"
        )
    output = inputs.get("output")
    if output is not None and output != "varies":
        raise SuperFencesException(
            f'```python run: output="{output}": the only value is "varies" (a block that prints '
            "measurements, such as timings, which differ from run to run)"
        )
    for key in ("graph", "figure", "curve"):
        for expression in split_expressions(inputs.get(key, "")):
            try:
                compile(expression, f"{key} option", "eval")
            except SyntaxError as error:
                raise SuperFencesException(
                    f'```python run: {key}="{expression}" is not an expression: {error}'
                ) from error
    return dict(inputs)


def drawn_svgs(result_html: str) -> list[str]:
    """The SVG drawings in a block's result HTML (`render_block`), in page order: graphs, then figures."""
    return _SVG.findall(result_html)


def split_expressions(option: str) -> list[str]:
    return [part.strip() for part in option.split(";") if part.strip()]


# -- the SuperFences fence ---------------------------------------------------------------------

_session: PageSession | None = None
_pending: dict[int, tuple[str, dict[str, str]]] = {}


def validate(language, inputs, options, attrs, md) -> bool:
    parsed = parse_options(inputs)
    if parsed is None:
        return False  # an ordinary code block: SuperFences highlights it as usual
    options.update(parsed)
    return True


def format_block(source, language, class_name, options, md, **kwargs) -> str:
    """Highlight the source now; running it waits for `on_page_content`, which sees page order."""
    if _session is None:
        raise SuperFencesException("```python run blocks only work on MkDocs pages (no page session)")
    uid = len(_pending)
    _pending[uid] = (source, options)
    shown = ""
    if "hide" not in options:
        highlight_options = {"title": options["title"]} if "title" in options else {}
        shown = md.preprocessors["fenced_code_block"].highlight(
            src=source, language="python", options=highlight_options, md=md, classes=[], id_value="", attrs={}
        )
        if "browser" not in options:  # the page makes it an editor: Material need not mount it
            shown = stand_in(shown)
    return (
        f'<div class="sg-runnable" data-sg-uid="{uid}">'
        f'<div class="sg-source">{shown}</div>'
        f'<div class="sg-result" data-sg-origin="build"><!--sg-result-{uid}--></div></div>'
    )


def render_block(
    index: int, source: str, options: dict[str, str], outcome: blocks.Outcome, session: PageSession
) -> tuple[str, str]:
    """The opening tag's attributes and the result HTML of one block that has run."""
    expect = options.get("expect")
    where = f"{session.page}, runnable block {index}"
    attributes = [
        f'id="sg-run-{index}"',
        f'data-sg-page="{html.escape(session.page)}"',
        f'data-sg-block="{index}"',
        f'data-sg-filename="{html.escape(blocks.block_filename(session.page, index))}"',
        f'data-sg-code="{html.escape(source, quote=True)}"',
    ]
    if expect:
        attributes.append(f'data-sg-expect="{expect}"')
    if "hide" in options:
        attributes.append("data-sg-hidden")
    if "browser" in options:
        attributes.append('data-sg-browser="no"')
    if "output" in options:
        attributes.append('data-sg-output="varies"')
    if "break" in options:  # a break-it switch: the page reruns the block with this bug
        bug = break_it.BUGS.get(options["break"])
        if bug is None:
            known = ", ".join(break_it.BUGS)
            raise PluginError(f"{where}: break= names none of {known}")
        attributes.append(f'data-sg-break="{html.escape(options["break"])}"')
        attributes.append(f'data-sg-break-label="{html.escape(bug.label)}"')
    # "Run with: my engine" reaches a block that imports a stage, and the blocks below it, which use its names
    if pieces := reader_engine.describe(session.page, session.sources):
        attributes.append(f'data-sg-engine="{html.escape(json.dumps(pieces), quote=True)}"')
    if "slider" in options:
        spec = slider_attribute(options["slider"], source, where)
        attributes.append(f'data-sg-slider="{html.escape(spec, quote=True)}"')
    result = []
    if outcome.printed or outcome.raised is not None:
        text = html.escape(outcome.printed)
        if outcome.raised is not None:
            text += f'<span class="sg-error">{html.escape(outcome.raised.line)}</span>'
        result.append(f'<pre class="sg-output">{text}</pre>')
    graph_option = split_expressions(options.get("graph", ""))
    for drawing in outcome.drawings:
        if drawing.mime_type == blocks.CURVE_MIME_TYPE:
            result.append(curve_figure(drawing))
            continue
        if drawing.mime_type == blocks.STUDY_MIME_TYPE:  # the study of the graph drawn just before
            result[-1] = result[-1].replace(">", f' data-sg-study="{html.escape(drawing.data)}">', 1)
            continue
        svg = figures.graph_svg(drawing.data, where=f"{where}, graph {drawing.label!r}")
        # The graph option's expressions are what the browser draws again after a run.
        expression = f' data-sg-graph="{html.escape(drawing.label)}"' if drawing.label in graph_option else ""
        result.append(f'<div class="sg-figure sg-graph"{expression}>{svg}</div>')
    for n, expression in enumerate(split_expressions(options.get("figure", ""))):
        try:
            svg = figures.figure_svg(session.evaluate(expression), salt=f"{session.page}-{index}-{n}")
        except Exception as error:
            raise PluginError(f"{where}: figure={expression!r} failed: {error!r}") from error
        result.append(
            f'<div class="sg-figure sg-plot" data-sg-figure="{html.escape(expression)}">{svg}</div>'
        )
    return " ".join(attributes), "".join(result)


def curve_figure(drawing: blocks.Display) -> str:
    """A training curve's figure: its numbers for the page to draw (web/page/curve-figure.js), and
    in words for a reader without JavaScript."""
    losses = [
        ("not a number" if loss is None else f"{loss:.4g}") for loss in json.loads(drawing.data)["loss"]
    ]
    words = f"loss {losses[0]} at step 1, {losses[-1]} at step {len(losses)}" if losses else "no steps"
    return (
        f'<div class="sg-figure sg-curve" data-sg-curve="{html.escape(drawing.label)}" '
        f'data-sg-points="{html.escape(drawing.data)}"><p>Loss per step ({html.escape(words)}).</p></div>'
    )


# -- MkDocs events -----------------------------------------------------------------------------


def on_config(config):
    if "pymdownx.superfences" not in config.markdown_extensions:
        raise PluginError("hooks/runnable.py needs pymdownx.superfences in markdown_extensions")
    fences = config.mdx_configs.setdefault("pymdownx.superfences", {}).setdefault("custom_fences", [])
    fences[:] = [f for f in fences if f.get("class") != "sg-runnable"]
    fences.append({"name": "python", "class": "sg-runnable", "validator": validate, "format": format_block})
    return config


def on_pre_build(config) -> None:
    """Forget every imported scratchgrad module, so `mkdocs serve` runs the code as it is now."""
    global blocks
    forget_scratchgrad()
    blocks = importlib.import_module("scratchgrad.page.blocks")


def on_files(files, config):
    """Start the pages' blocks in worker processes, costliest first (helpers/blocks_ahead.py), each
    page's Markdown with its snippets put in, as pymdownx.snippets will."""
    snippets = markdown.Markdown(
        extensions=["pymdownx.snippets"],
        extension_configs={"pymdownx.snippets": config.mdx_configs.get("pymdownx.snippets", {})},
    ).preprocessors["snippet"]
    pages = {}
    for file in files.documentation_pages():
        if file.src_uri.endswith(".md") and "python run" in (text := file.content_string):
            try:
                pages[file.src_uri.removesuffix(".md")] = "\n".join(snippets.run(text.split("\n")))
            except Exception:
                continue
    blocks_ahead.start(pages)
    return files


def on_nav(nav, config, files):
    """Give the workers every page's blocks, and render the pages that wait for one last, so that
    the build renders the others meanwhile (helpers/blocks_ahead.py)."""
    blocks_ahead.submit_planned()
    blocks_ahead.defer_waiting_pages(files)
    return nav


@event_priority(100)  # before any plugin's on_env: the pages are back in order for all that follows
def on_env(env, config, files):
    blocks_ahead.restore_page_order(files)
    return env


def on_post_build(config) -> None:
    blocks_ahead.stop()


def on_build_error(error) -> None:
    blocks_ahead.stop()


def on_page_markdown(markdown, page, config, files):
    global _session
    _session = PageSession(page.file.src_uri.removesuffix(".md"))
    _pending.clear()
    ran_blocks.record(_session.page, [])  # until its blocks have run (a rebuild under `mkdocs serve`)
    return markdown


def on_page_content(html_text, page, config, files):
    """Run the page's blocks in document order and write their results into the page."""
    global _session
    session, pending = _session, dict(_pending)
    _session = None
    _pending.clear()
    if session is None or not pending:
        return html_text
    matches = list(_PLACEHOLDER.finditer(html_text))
    in_order = [pending.pop(int(match.group(1))) for match in matches]
    if pending:
        raise PluginError(
            f"{session.page}: runnable blocks {sorted(pending)} vanished from the rendered page"
        )
    digest = blocks_ahead.digest(session.page, in_order)
    job = blocks_ahead.page_job(session.page)
    kept = blocks_ahead.take(job, digest, "python run blocks")
    if kept is not None:  # run by a worker: kept for the next build as if run here
        build_cache.store("blocks", digest, kept)
    else:
        kept = build_cache.load("blocks", digest)
    if kept is None:
        began = time.perf_counter()
        with step("python run blocks", page.file.src_uri):
            rendered = run_blocks(session, in_order)
        blocks_ahead.remember_seconds(job, time.perf_counter() - began)
        # Plain data: a new build imports the package afresh, so its classes are other objects.
        build_cache.store("blocks", digest, [(a, r, dataclasses.astuple(ran)) for a, r, ran in rendered])
    else:
        rendered = [(a, r, ran_block(*ran)) for a, r, ran in kept]
    pieces, last = [], 0
    for match, (attributes, result, _) in zip(matches, rendered, strict=True):
        marker = f"<!--sg-result-{match.group(1)}-->"
        end = html_text.index(marker, match.end())
        pieces += [html_text[last : match.start()], f'<div class="sg-runnable" {attributes}']
        pieces += [html_text[match.end() : end], result]
        last = end + len(marker)
    pieces.append(html_text[last:])
    ran_blocks.record(session.page, [ran for _, _, ran in rendered])
    return "".join(pieces)


def ran_block(
    source: str, options: dict[str, str], outcome: tuple, pictures: list[str]
) -> ran_blocks.RanBlock:
    """A block's record from the plain data the build's cache keeps (`dataclasses.astuple` of it)."""
    printed, raised, drawings = outcome
    return ran_blocks.RanBlock(
        source,
        options,
        blocks.Outcome(
            printed,
            None if raised is None else blocks.Raised(*raised),
            [blocks.Display(*drawing) for drawing in drawings],
        ),
        pictures,
    )


def run_blocks(
    session: PageSession, in_order: list[tuple[str, dict[str, str]]]
) -> list[tuple[str, str, ran_blocks.RanBlock]]:
    """Run a page's blocks in page order: for each, its opening tag's attributes, its result HTML,
    and the record of its run; a block that does not do what its options say fails the build."""
    rendered = []
    for index, (source, options) in enumerate(in_order):
        drawn = [split_expressions(options.get(key, "")) for key in ("graph", "curve")]
        where = f"{session.page}, runnable block {index}"
        outcome = session.run(source, *drawn)
        check_outcome(outcome, options.get("expect"), where)
        if "break" in options:
            check_switch(outcome, session.run_with_bug(source, options["break"], *drawn), where)
        attributes, result = render_block(index, source, options, outcome, session)
        ran = ran_blocks.RanBlock(source, options, outcome, drawn_svgs(result))
        rendered.append((attributes, result, ran))
    return rendered
