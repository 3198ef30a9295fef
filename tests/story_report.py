"""Which engine each chapter runs, read from the code: ``python tests/story_report.py`` prints it.

Per runnable page, in the order of the site: the book's stages its blocks import, how many of its
blocks run on the reader's engine with "my engine" (`scratchgrad.page.reader_engine.describe`, the
rule the build marks them by), and, for the pieces of that engine, which come from the reader (the
exercises' pieces, `pieces_on`) and which from the book: the stage's own additions around the
reader's pieces, and the operations grafted onto the reader's Value because no exercise asks for
them, as a complete learner's engine (tests/learner_engine) gets them.
"""

from __future__ import annotations

from docs_pages import page_fences, runnable_pages
from reader_work import LEARNER
from scratchgrad.page.reader_engine import STAGES, ReaderEngine, _stages_in, describe, pieces_on


def chapter_row(source: str) -> dict[str, object]:
    """One page's row: its stages, its blocks on the reader's engine, and whose pieces they run."""
    chapter = source.removesuffix(".md")
    codes = [fence.body for fence in page_fences(source) if fence.runnable]
    imported = {stage.module for code in codes for stage in _stages_in(code)}
    on_yours = sum(bool(describe(chapter, codes[: at + 1])) for at in range(len(codes)))
    engine = ReaderEngine.load(chapter, LEARNER)
    stand_ins = engine.stand_ins
    stages = [stage for stage in STAGES if stage.module in imported]
    readers = [piece.id for stage in stages for piece in pieces_on(chapter, stage)]
    additions = [
        f"{stage.adapt.__name__.strip('_').replace('_', ' ')} ({stage.module.rsplit('.', 1)[1]})"
        for stage, _ in stand_ins
        if stage.adapt and stage.module in imported
    ]
    return {
        "page": source,
        "stages": sorted(module.rsplit(".", 1)[1] for module in imported),
        "blocks": len(codes),
        "on_yours": on_yours,
        "reader": list(dict.fromkeys(readers)) if on_yours else [],
        "book": additions + sorted(engine.grafted) if on_yours else [],
    }


def report() -> str:
    """The rows as a Markdown table."""
    lines = [
        "| page | book's stages | blocks on \"my engine\" | pieces from the reader (passed, else the book's) "
        "| from the book: additions, operations grafted when used |",
        "| --- | --- | --- | --- | --- |",
    ]
    for row in map(chapter_row, runnable_pages()):
        lines.append(
            f"| {row['page']} | {', '.join(row['stages']) or 'package only'} "
            f"| {row['on_yours']} of {row['blocks']} | {', '.join(row['reader']) or '—'} "
            f"| {', '.join(row['book']) or '—'} |"
        )
    return "\n".join(lines)


if __name__ == "__main__":
    print(report())
