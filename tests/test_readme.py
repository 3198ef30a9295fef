"""The README is the newcomer's first contact: its example must run and say what it claims."""

import contextlib
import io
import re
from pathlib import Path

from docs_pages import fenced_blocks

README = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")


def readme_python_example() -> str:
    examples = [fence.body for fence in fenced_blocks(README) if fence.language == "python"]
    assert len(examples) == 1, "the README has one Python example"
    return examples[0]


def test_readme_example_prints_the_gradients_its_comment_promises():
    code = readme_python_example()
    promised = re.search(r"print\(a\.grad, b\.grad, c\.grad\)\s*# (.+)", code).group(1).strip()
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(code, "README.md", "exec"), {"__name__": "__main__"})
    first_line, loss_line = printed.getvalue().splitlines()
    assert first_line == promised
    assert float(loss_line.rsplit(" ", 1)[1]) < 0.01


def test_readme_example_fits_in_fifteen_lines_of_code():
    lines = [line for line in readme_python_example().splitlines() if line.strip()]
    assert len(lines) <= 15


def test_readme_commands_are_makefile_targets():
    makefile = (Path(__file__).parents[1] / "Makefile").read_text(encoding="utf-8")
    for target in re.findall(r"^make ([\w-]+)", README, re.M):
        assert re.search(rf"^{target}:", makefile, re.M), f"make {target} is not a Makefile target"
