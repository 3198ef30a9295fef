"""MkDocs hook: the "Your turn" exercises of `scratchgrad.exercises`, rendered where a chapter names them.

A chapter names an exercise with a fence that holds nothing but its id, at the point where the
chapter has taught the piece::

    ```exercise
    backward
    ```

The task, stub, hints and solution come from the package's registry, never from the Markdown,
so the page and the checks cannot drift apart. That its stub fails its checks and its reference
solution passes them is the package's to prove (tests/exercises/test_pieces.py, which `make test`
and the Pages workflow run before any build is published); the build does not run them again.
Every exercise of the registry must be placed exactly once, in its own chapter.

Below the exercise, the chapter shows the book's version of the piece in a collapsed deep dive of
its own kind, which this hook ties to the exercise above it (``data-sg-book-for="<id>"``)::

    ```exercise
    backward
    ```

    ??? sg-book "The book's version"

        ```python
        --8<-- "src/scratchgrad/engine.py:backward"
        ```

Nothing above an exercise may solve it (tests/test_exercise_order.py reads the built pages), so a
reader writes the piece before seeing ours. Every exercise must have its book's version before the
next exercise, and a book's version must follow an exercise (else the strict build fails);
web/page/book-version.js opens it once the reader's piece passes, or when the reader asks.

The home page shows the reader's engine with a second fence, ```` ```exercise-progress``` ````
(empty): every piece, in story order, with a link to its exercise.

The HTML is readable without JavaScript — task, the stub, each hint in a ``<details>``, the
solution in a closed ``<details>`` — and is the contract with web/exercises/exercise-block.js::

    <section class="sg-exercise" id="exercise-<id>" data-sg-exercise="<id>" data-sg-chapter="…"
             data-sg-stub="(stub source)" data-sg-solution="(solution source)"
             data-sg-earlier="id id …" (every piece it builds on, in story order)
             data-sg-provides="Value …" data-sg-title="…">
      <header class="sg-exercise__head">…</header>
      <div class="sg-exercise__task">…</div>
      <div class="sg-exercise__stub">(the highlighted stub as a stand-in, hooks/helpers/stand_in.py)</div>
      <details class="sg-exercise__hint">…</details> (one per hint)
      <details class="sg-exercise__solution">…</details>
    </section>
"""

from __future__ import annotations

import html
import importlib
import re
from dataclasses import dataclass, field

import markdown
from helpers.fresh_package import forget_scratchgrad
from helpers.site_urls import link_between
from helpers.stand_in import stand_in
from mkdocs.exceptions import PluginError
from pymdownx.superfences import SuperFencesException

EXERCISE_FENCE = "exercise"
BOOK_VERSION = "sg-book"
"""The admonition kind (``??? sg-book "The book's version"``) of the book's version of a piece."""
_SECTION_OR_BOOK = re.compile(
    r'<section class="sg-exercise" id="exercise-(?P<exercise>[^"]+)"|<details (?=class="'
    + BOOK_VERSION
    + r'[ "])'
)
PROGRESS_FENCE = "exercise-progress"


@dataclass
class Placement:
    """Which page is being rendered, and where every exercise has been placed so far."""

    page: str | None = None
    placed: dict[str, str] = field(default_factory=dict)


_state = Placement()


def registry():
    """The package's exercises module, imported afresh after `mkdocs serve` forgot it."""
    import scratchgrad.exercises

    return scratchgrad.exercises


# -- rendering --------------------------------------------------------------------------------


def inline_markdown(text: str) -> str:
    """A task or hint (Markdown with `code` and $math$) as HTML; formulas.py typesets the math."""
    converter = markdown.Markdown(
        extensions=["pymdownx.arithmatex", "pymdownx.inlinehilite", "pymdownx.superfences"],
        extension_configs={"pymdownx.arithmatex": {"generic": True}},
    )
    return converter.convert(text)


def highlighted(source: str, md) -> str:
    """`source` highlighted as the page's own Python code blocks are."""
    return md.preprocessors["fenced_code_block"].highlight(
        src=source, language="python", options={}, md=md, classes=[], id_value="", attrs={}
    )


def exercise_link(exercise: dict, from_page: str) -> str:
    """A relative link from `from_page` (a docs page stem) to an exercise's block."""
    page = link_between(f"{from_page or 'index'}.md", f"{exercise['chapter']}.md")
    return f"{page}#exercise-{exercise['id']}"


def render_exercise(exercise: dict, md, page: str) -> str:
    """The HTML of one exercise (`describe()`'s dict; the contract in this module's docstring)."""
    described = {each["id"]: each for each in registry().describe()}
    pieces = [each for each in described if not described[each]["command_line_only"]]
    earlier = [described[piece] for piece in exercise["builds_on"]]
    exercise_id = exercise["id"]
    attributes = {
        "class": "sg-exercise",
        "id": f"exercise-{exercise_id}",
        "data-sg-exercise": exercise_id,
        "data-sg-chapter": exercise["chapter"],
        "data-sg-title": exercise["title"],
        "data-sg-stub": exercise["stub"],
        "data-sg-solution": exercise["solution"],
        "data-sg-earlier": " ".join(exercise["builds_on"]),
        "data-sg-provides": " ".join(exercise["provides"]),
        "aria-labelledby": f"exercise-{exercise_id}-title",
    }
    if exercise["command_line_only"]:
        attributes["data-sg-needs"] = " ".join(exercise["needs"])
        kicker = f"Your turn · on your own machine, with {' and '.join(exercise['needs'])}"
    else:
        kicker = f"Your turn · piece {pieces.index(exercise_id) + 1} of {len(pieces)}"
    opening = " ".join(f'{name}="{html.escape(value, quote=True)}"' for name, value in attributes.items())
    parts = [
        f"<section {opening}>",
        '<header class="sg-exercise__head">',
        f'<p class="sg-exercise__kicker">{kicker}</p>',
        f'<h3 class="sg-exercise__title" id="exercise-{exercise_id}-title">',
        f"{html.escape(exercise['title'])}</h3>",
        "</header>",
        f'<div class="sg-exercise__task">{inline_markdown(exercise["task"])}</div>',
    ]
    if earlier:
        links = ", ".join(
            f'<a href="{exercise_link(piece, page)}" data-sg-piece="{piece["id"]}">'
            f"{html.escape(piece['title'])}</a>"
            for piece in earlier
        )
        parts.append(f'<p class="sg-exercise__builds-on">Builds on: {links}.</p>')
    parts.append(f'<div class="sg-exercise__stub">{stand_in(highlighted(exercise["stub"], md))}</div>')
    hints = exercise["hints"]
    for n, hint in enumerate(hints, start=1):
        parts.append(
            f'<details class="sg-exercise__hint"><summary>Hint {n} of {len(hints)}</summary>'
            f"{inline_markdown(hint)}</details>"
        )
    parts += [
        '<details class="sg-exercise__solution"><summary>Solution (try the checks first)</summary>',
        highlighted(exercise["solution"], md),
        "</details>",
        where_checked(exercise, page),
        "</section>",
    ]
    return "".join(parts)


def where_checked(exercise: dict, page: str) -> str:
    """How the reader checks the piece: in the browser (a paragraph the page's script replaces with its
    Check button) or, for an exercise whose checks need a tool the browser's Python lacks, on their own
    machine (a paragraph that stays)."""
    command = f"python -m scratchgrad.exercises check {html.escape(exercise['id'])}"
    if not exercise["command_line_only"]:
        return (
            '<p class="sg-exercise__offline">With JavaScript on, the stub becomes an editor and '
            "<strong>Check</strong> runs the hidden checks in your browser. On your own machine: "
            f"<code>{command} my_engine.py</code></p>"
        )
    needs = " ".join(exercise["needs"])
    home = link_between(f"{page}.md", "index.md")
    exported = f"{importlib.import_module('scratchgrad.playground.program').YOUR_MODULE}.py"  # Export's name
    return (
        f'<div class="sg-exercise__command-line"><p>Your browser\'s Python has no <code>{needs}</code>, so '
        "this piece is checked on your own machine, and never counted as passed here. Your code is kept "
        f'in this browser; <strong>Export my engine</strong> on the <a href="{home}">home page</a> '
        "writes it to a file with your other pieces. Then:</p>"
        f"<pre><code>pip install {needs}\n{command} {exported}</code></pre></div>"
    )


def render_progress(page: str) -> str:
    """The reader's engine on the home page: every piece with a link; web/exercises/progress.js
    fills it in."""
    exercises = registry().describe()
    pieces = [each for each in exercises if not each["command_line_only"]]
    apart = [each for each in exercises if each["command_line_only"]]

    def items(listed: list[dict], progress: str) -> str:
        return "".join(
            f'<li data-sg-piece="{html.escape(each["id"])}"><a href="{exercise_link(each, page)}">'
            f'{html.escape(each["title"])}</a> <span class="sg-progress">{progress}</span></li>'
            for each in listed
        )

    command_line = (
        '<p class="sg-engine__apart">Checked on the command line only, where PyTorch runs '
        '(not counted above):</p><ul class="sg-engine__pieces">'
        f"{items(apart, 'checked on the command line')}</ul>"
        if apart
        else ""
    )
    return (
        f'<div class="sg-engine" data-sg-engine="{len(pieces)}">'
        f'<p class="sg-engine__summary">Your engine: <strong>0 of {len(pieces)}</strong> pieces '
        "(progress is kept in this browser).</p>"
        f'<ol class="sg-engine__pieces">{items(pieces, "not started")}</ol>{command_line}</div>'
    )


# -- the SuperFences fences ---------------------------------------------------------------------


def validate(language, inputs, options, attrs, md) -> bool:
    return True


def format_exercise(source, language, class_name, options, md, **kwargs) -> str:
    exercise_id = source.strip()
    described = {each["id"]: each for each in registry().describe()}
    if exercise_id not in described:
        raise SuperFencesException(
            f"```exercise names {exercise_id!r}, which is not one of {list(described)}"
        )
    exercise = described[exercise_id]
    page = _state.page
    if page is None:
        raise SuperFencesException("```exercise blocks only work on MkDocs pages")
    if exercise["chapter"] != page:
        raise SuperFencesException(
            f"```exercise {exercise_id!r} belongs in chapter {exercise['chapter']!r}, not in {page!r}"
        )
    if exercise_id in _state.placed:
        raise SuperFencesException(f"```exercise {exercise_id!r} is placed twice")
    _state.placed[exercise_id] = page
    return render_exercise(exercise, md, page)


def format_progress(source, language, class_name, options, md, **kwargs) -> str:
    if source.strip():
        raise SuperFencesException("```exercise-progress takes no content")
    return render_progress(_state.page or "index")


# -- MkDocs events ------------------------------------------------------------------------------


def on_config(config):
    if "pymdownx.superfences" not in config.markdown_extensions:
        raise PluginError("hooks/exercises.py needs pymdownx.superfences in markdown_extensions")
    fences = config.mdx_configs.setdefault("pymdownx.superfences", {}).setdefault("custom_fences", [])
    fences[:] = [f for f in fences if f.get("name") not in (EXERCISE_FENCE, PROGRESS_FENCE)]
    for name, class_name, render in (
        (EXERCISE_FENCE, "sg-exercise", format_exercise),
        (PROGRESS_FENCE, "sg-engine", format_progress),
    ):
        fences.append({"name": name, "class": class_name, "validator": validate, "format": render})
    return config


def on_pre_build(config) -> None:
    """Start a build with no exercise placed; forget the package so `mkdocs serve` sees edits."""
    _state.placed.clear()
    forget_scratchgrad()


def on_page_markdown(markdown_text, page, config, files):
    _state.page = page.file.src_uri.removesuffix(".md")
    return markdown_text


def tie_book_versions(html_text: str, page: str) -> str:
    """Mark each book's version with the exercise it answers: the exercise just above it.

    PluginError for an exercise with no book's version before the next one, and for a book's
    version with no exercise of its own above it."""
    pending: str | None = None
    pieces: list[str] = []
    end = 0
    for match in _SECTION_OR_BOOK.finditer(html_text):
        if match["exercise"]:
            if pending:
                raise PluginError(
                    f"{page}: exercise {pending!r} has no book's version (??? {BOOK_VERSION}) after it"
                )
            pending = match["exercise"]
            continue
        if pending is None:
            raise PluginError(
                f"{page}: a book's version (??? {BOOK_VERSION}) with no exercise of its own above it"
            )
        pieces += [html_text[end : match.end()], f'data-sg-book-for="{html.escape(pending, quote=True)}" ']
        end = match.end()
        pending = None
    if pending:
        raise PluginError(f"{page}: exercise {pending!r} has no book's version (??? {BOOK_VERSION}) after it")
    return "".join(pieces) + html_text[end:]


def with_progress_line(html_text: str) -> str:
    """A chapter with exercises gets, under its title, the empty line that says how far the reader
    got (web/exercises/progress.js fills it): written by the build, so that it takes its place in
    the first layout and pushes nothing down when the page's script arrives."""
    if 'class="sg-exercise"' not in html_text:
        return html_text
    return html_text.replace("</h1>", '</h1>\n<p class="sg-chapter-progress" role="status"></p>', 1)


def on_page_content(html_text, page, config, files):
    _state.page = None
    return with_progress_line(tie_book_versions(html_text, page.file.src_uri))


def on_env(env, config, files):
    """Every exercise of the registry is on its chapter's page (the pages are rendered by now);
    a site built without that chapter (a one-page test site) has nowhere to place it, and a
    rebuild that did not render it (``make serve``'s, hooks/changed_pages.py) cannot tell."""
    missing = [
        f"{each['id']} → {each['chapter']}.md"
        for each in registry().describe()
        if each["id"] not in _state.placed and _rendered(files.get_file_from_path(f"{each['chapter']}.md"))
    ]
    if missing:
        raise PluginError(
            "exercises not placed in their chapters (add ```exercise\\n<id>\\n``` where the chapter "
            f"teaches the piece): {', '.join(missing)}"
        )
    return env


def _rendered(file) -> bool:
    return file is not None and file.page is not None and file.page.content is not None
