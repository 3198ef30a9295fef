"""hooks/exercises.py: the ```exercise``` fence renders "Your turn" from the package, and refuses bad ones."""

from __future__ import annotations

import html
import importlib
import re
import sys
from pathlib import Path
from types import SimpleNamespace

import markdown
import pytest
from mkdocs.exceptions import PluginError
from pymdownx.superfences import SuperFencesException

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "hooks"))
exercises_hook = importlib.import_module("exercises")

from scratchgrad.exercises import EXERCISES  # noqa: E402
from scratchgrad.exercises.registry import ENGINE_PIECES, by_id  # noqa: E402


@pytest.fixture(autouse=True)
def scratchgrad_modules_kept():
    """on_pre_build forgets the scratchgrad modules (so `mkdocs serve` sees edits); the other test
    modules of this run hold the classes they imported, so the same module objects come back."""
    kept = {name: module for name, module in sys.modules.items() if name.partition(".")[0] == "scratchgrad"}
    yield
    for name in [name for name in sys.modules if name.partition(".")[0] == "scratchgrad"]:
        del sys.modules[name]
    sys.modules.update(kept)


def converter() -> markdown.Markdown:
    """A Markdown converter with the hook's fences, as on_config sets them up for MkDocs."""
    config = SimpleNamespace(markdown_extensions=["pymdownx.superfences"], mdx_configs={})
    exercises_hook.on_config(config)
    return markdown.Markdown(
        extensions=["pymdownx.highlight", "pymdownx.superfences"], extension_configs=config.mdx_configs
    )


def render(page: str, text: str) -> str:
    exercises_hook.on_pre_build(None)
    page_object = SimpleNamespace(file=SimpleNamespace(src_uri=f"{page}.md"))
    exercises_hook.on_page_markdown(text, page_object, None, None)
    try:
        return converter().convert(text)
    finally:
        exercises_hook.on_page_content("", page_object, None, None)


def fence(exercise_id: str) -> str:
    return f"```exercise\n{exercise_id}\n```\n"


def attribute(shown: str, name: str) -> str:
    return html.unescape(re.search(rf'{name}="([^"]*)"', shown).group(1))


def test_an_exercise_renders_the_contract_the_page_script_reads() -> None:
    exercise = by_id("slope")
    shown = render(exercise.chapter, fence("slope"))
    assert '<section class="sg-exercise" id="exercise-slope" data-sg-exercise="slope"' in shown
    assert attribute(shown, "data-sg-stub") == exercise.stub
    assert attribute(shown, "data-sg-solution") == exercise.solution
    assert attribute(shown, "data-sg-chapter") == exercise.chapter
    assert shown.count('<details class="sg-exercise__hint">') == len(exercise.hints)
    assert '<details class="sg-exercise__solution">' in shown
    assert "<details open" not in shown  # no hint and no solution in the first view


def test_without_javascript_the_stub_is_highlighted_code_to_read() -> None:
    shown = render("derivatives", fence("slope"))
    stub_view = re.search(r'<div class="sg-exercise__stub">(.*?)</div>\s*<details', shown, re.DOTALL).group(1)
    assert 'class="highlight"' in stub_view
    assert '<div class="sg-stand-in"><code>' in stub_view  # the editor's stand-in, not Material's block
    assert html.unescape(re.sub(r"<[^>]+>", "", stub_view)).strip() == by_id("slope").stub.strip()


def test_a_later_exercise_links_the_pieces_it_builds_on() -> None:
    later = next(each for each in EXERCISES if each.requires)
    shown = render(later.chapter, fence(later.id))
    earlier = attribute(shown, "data-sg-earlier").split()
    assert set(later.requires) <= set(earlier)
    for piece_id in earlier:
        piece = by_id(piece_id)
        assert f'href="../{piece.chapter}/#exercise-{piece_id}" data-sg-piece="{piece_id}"' in shown


def test_an_exercise_in_another_chapter_fails_the_build() -> None:
    wrong_place = "'slope' belongs in chapter 'derivatives', not in 'training'"
    with pytest.raises(SuperFencesException, match=wrong_place):
        render("training", fence("slope"))


def test_an_unknown_exercise_fails_the_build_and_names_the_known_ones() -> None:
    with pytest.raises(SuperFencesException, match=r"names 'slopes', which is not one of .*'slope'"):
        render("derivatives", fence("slopes"))


def test_an_exercise_placed_twice_fails_the_build() -> None:
    with pytest.raises(SuperFencesException, match="'slope' is placed twice"):
        render("derivatives", fence("slope") + "\n" + fence("slope"))


def test_an_exercise_left_out_of_its_chapter_fails_the_build() -> None:
    render("derivatives", fence("slope"))
    missing = next(each for each in EXERCISES if each.id != "slope")
    rendered = SimpleNamespace(page=SimpleNamespace(content="<p>the chapter</p>"))
    every_chapter = SimpleNamespace(get_file_from_path=lambda path: rendered)
    with pytest.raises(PluginError, match=rf"{missing.id} → {missing.chapter}\.md"):
        exercises_hook.on_env(None, None, every_chapter)


def test_a_rebuild_that_did_not_render_a_chapter_leaves_its_exercises_to_the_full_build() -> None:
    """`make serve` renders only the edited page (hooks/changed_pages.py): the others are not checked."""
    render("derivatives", fence("slope"))
    not_rendered = SimpleNamespace(page=SimpleNamespace(content=None))
    exercises_hook.on_env(None, None, SimpleNamespace(get_file_from_path=lambda path: not_rendered))


def test_the_engine_summary_lists_every_piece_in_story_order_with_a_link() -> None:
    shown = render("index", "```exercise-progress\n```\n")
    assert re.findall(r'data-sg-piece="([^"]+)"', shown) == [each.id for each in EXERCISES]
    first = EXERCISES[0]
    assert f'<a href="{first.chapter}/#exercise-{first.id}">' in shown
    assert f"<strong>0 of {len(ENGINE_PIECES)}</strong>" in shown
    assert f'data-sg-engine="{len(ENGINE_PIECES)}"' in shown


def test_a_command_line_exercise_is_listed_apart_and_says_how_to_check_it() -> None:
    shown = render("index", "```exercise-progress\n```\n")
    engine, apart = shown.split('<p class="sg-engine__apart">')
    assert re.findall(r'data-sg-piece="([^"]+)"', engine) == [each.id for each in ENGINE_PIECES]
    assert re.findall(r'data-sg-piece="([^"]+)"', apart) == ["torch-port"]
    assert '<span class="sg-progress">checked on the command line</span>' in apart
    block = render("what-pytorch-does", fence("torch-port"))
    assert "Your turn · on your own machine, with torch" in block
    assert 'data-sg-needs="torch"' in block
    assert "sg-exercise__offline" not in block
    command = "python -m scratchgrad.exercises check torch-port my_scratchgrad_engine.py"
    assert f"pip install torch\n{command}" in block
    assert f"Your turn · piece {len(ENGINE_PIECES)} of {len(ENGINE_PIECES)}" in render(
        "beyond-four-points", fence(ENGINE_PIECES[-1].id)
    )


# -- the book's version after each exercise ---------------------------------------------------------

SECTION = '<section class="sg-exercise" id="exercise-{0}" data-sg-exercise="{0}">…</section>'
BOOK = '<details class="sg-book"><summary>The book\'s version</summary>…</details>'


def test_each_books_version_is_tied_to_the_exercise_above_it():
    page = SECTION.format("topological-order") + "<p>text</p>" + BOOK + SECTION.format("backward") + BOOK
    tied = exercises_hook.tie_book_versions(page, "automatic-backward.md")
    assert re.findall(r'<details data-sg-book-for="([^"]+)" class="sg-book">', tied) == [
        "topological-order",
        "backward",
    ]
    assert (
        tied.replace('data-sg-book-for="topological-order" ', "").replace('data-sg-book-for="backward" ', "")
        == page
    )


def test_an_exercise_without_its_books_version_fails_the_build():
    with pytest.raises(PluginError, match="'slope' has no book's version"):
        exercises_hook.tie_book_versions(SECTION.format("slope") + "<p>the end</p>", "derivatives.md")
    with pytest.raises(PluginError, match="'topological-order' has no book's version"):
        exercises_hook.tie_book_versions(
            SECTION.format("topological-order") + SECTION.format("backward") + BOOK, "x.md"
        )


def test_a_books_version_with_no_exercise_above_it_fails_the_build():
    with pytest.raises(PluginError, match="no exercise of its own"):
        exercises_hook.tie_book_versions(BOOK + SECTION.format("slope") + BOOK, "derivatives.md")
    with pytest.raises(PluginError, match="no exercise of its own"):
        exercises_hook.tie_book_versions(SECTION.format("slope") + BOOK + BOOK, "derivatives.md")


def test_a_chapter_with_exercises_has_its_progress_line_under_the_title_from_the_build():
    page = '<h1 id="t">Title</h1>\n<p>Words.</p><section class="sg-exercise" id="exercise-slope"></section>'
    out = exercises_hook.with_progress_line(page)
    assert out.startswith(
        '<h1 id="t">Title</h1>\n<p class="sg-chapter-progress" role="status"></p>\n<p>Words.'
    )
    assert out.count("sg-chapter-progress") == 1


def test_a_page_without_exercises_gets_no_progress_line():
    page = '<h1 id="t">Title</h1>\n<p>Words.</p>'
    assert exercises_hook.with_progress_line(page) == page
