"""The README is the newcomer's first contact: its example must run and say what it claims."""

import contextlib
import io
import re
import subprocess
from pathlib import Path

from docs_pages import fenced_blocks

README = (Path(__file__).parents[1] / "README.md").read_text(encoding="utf-8")
ARCHITECTURE = (Path(__file__).parents[1] / "ARCHITECTURE.md").read_text(encoding="utf-8")


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


# -- "What is where" (README, a line a row) and "Every file, in a sentence" (ARCHITECTURE.md): ----
# every path they name exists, and the second names every module --------------------------------

ROOT = Path(__file__).parents[1]
TOP_LEVEL = {
    path.split("/", 1)[0]
    for path in subprocess.run(
        ["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.splitlines()
    if "/" in path
}
# Exercise content, not modules: the table names the folder (`_pieces/`), each piece is a folder of it.
CONTENT = ("src/scratchgrad/exercises/_pieces/",)
FILE_NAME = re.compile(r"^[\w.-]+(?:/[\w.-]+)*(?:/|\.(?:py|js|mjs|css|md|yml|json|toml|html))$")


def where_rows(readme: str) -> list[tuple[list[str], list[str]]]:
    """The table's rows: the paths of the first column and the file names in backticks of the second."""
    heading = "## What is where" if "## What is where" in readme else "## Every file, in a sentence"
    section = readme.split(heading, 1)[1].split("\n## ", 1)[0]
    rows = []
    for line in section.splitlines():
        cells = line.split(" | ")
        if line.startswith("| `") and len(cells) == 2:
            mentions = [m for m in re.findall(r"`([^`]+)`", cells[1]) if FILE_NAME.match(m)]
            rows.append((re.findall(r"`([^`]+)`", cells[0]), mentions))
    return rows


def folder_of(path: str) -> str:
    return path if path.endswith("/") else path.rpartition("/")[0] + "/"


def named_files(readme: str = README) -> tuple[set[str], list[str]]:
    """Every file and folder the table names (from the root, without a trailing ``/``), and the
    names it gives that do not exist.

    The first column holds paths from the root, each naming its top-level folder too; a bare
    name there (``losses.py`` after ``src/scratchgrad/nn.py``) is in the folder of the first. A
    file name in the second column is looked for in the row's folders, then from the root, then
    anywhere under the row's folders.
    """
    named, missing = set(), []
    for paths, mentions in where_rows(readme):
        folders = []
        for path in paths:
            relative = path if "/" in path or (ROOT / path).exists() else folder_of(paths[0]) + path
            if (ROOT / relative).exists():
                named |= {relative.rstrip("/"), relative.split("/", 1)[0]}  # and its top-level folder
            else:
                missing.append(relative)
            folders.append(folder_of(relative))
        for mention in mentions:
            found = [f"{folder}{mention}" for folder in folders if (ROOT / folder / mention).exists()]
            found = found or ([mention] if (ROOT / mention).exists() else [])
            found = found or [
                path.relative_to(ROOT).as_posix()
                for folder in folders
                for path in (ROOT / folder).rglob(mention)
            ]
            named.update(path.rstrip("/") for path in found)
            if not found:
                missing.append(mention)
    return named, missing


def modules_to_name() -> set[str]:
    """What the table must name: every top-level folder, every hook mkdocs.yml runs, and every
    module of src/ and web/ (a package's ``__init__.py`` and ``__main__.py`` are named by its folder)."""
    wanted = {folder for folder in TOP_LEVEL if (ROOT / folder).is_dir()}
    wanted |= set(re.findall(r"hooks/\w+\.py", (ROOT / "mkdocs.yml").read_text(encoding="utf-8")))
    for path in [*ROOT.joinpath("src").rglob("*.py"), *ROOT.joinpath("web").rglob("*.*")]:
        relative = path.relative_to(ROOT).as_posix()
        if path.name not in ("__init__.py", "__main__.py", "package.json") and not relative.startswith(
            CONTENT
        ):
            wanted.add(relative)
    return wanted


def test_every_path_the_tables_name_exists():
    assert named_files(README)[1] == []
    assert named_files(ARCHITECTURE)[1] == []


def test_each_row_of_the_readme_table_is_one_short_line():
    rows = [line for line in README.split("## What is where", 1)[1].split("\n## ", 1)[0].splitlines()]
    assert [row for row in rows if row.startswith("|") and len(row) > 240] == []


def test_the_architecture_table_names_every_top_level_folder_hook_and_module():
    assert sorted(modules_to_name() - named_files(ARCHITECTURE)[0]) == []


def test_the_table_check_finds_a_missing_row_and_a_wrong_path():
    table = ARCHITECTURE.replace("`run-notes.js`, ", "").replace(
        "`src/scratchgrad/fused.py`", "`src/scratchgrad/fusion.py`"
    )
    named, missing = named_files(table)
    assert "web/page/run-notes.js" in modules_to_name() - named
    assert missing == ["src/scratchgrad/fusion.py"]


def test_each_node_test_mirrors_a_module_of_web():
    for test in ROOT.joinpath("tests/web").rglob("*.test.mjs"):
        mirrored = test.relative_to(ROOT / "tests/web").as_posix().removesuffix(".test.mjs")
        assert (ROOT / "web" / f"{mirrored}.js").exists() or (
            ROOT / "tests/web" / f"{mirrored}.mjs"
        ).exists(), test


def same_named(paths: list[Path]) -> dict[str, list[str]]:
    """The file names that stand in more than one folder, with their folders."""
    folders: dict[str, list[str]] = {}
    for path in paths:
        folders.setdefault(path.name, []).append(path.parent.as_posix())
    return {name: where for name, where in folders.items() if len(where) > 1}


def test_no_two_test_modules_share_a_name():
    """pytest imports a test module by its name (tests/ has no packages): two of one name in one
    session stop it with an import-file mismatch, so `pytest tests` must never meet one."""
    assert same_named(sorted(ROOT.joinpath("tests").rglob("test_*.py"))) == {}


def test_the_name_check_finds_a_repeated_name():
    paths = [Path("tests/page/test_x.py"), Path("tests/browser/test_x.py"), Path("tests/test_y.py")]
    assert same_named(paths) == {"test_x.py": ["tests/page", "tests/browser"]}
