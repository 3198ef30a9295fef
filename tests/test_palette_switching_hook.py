"""hooks/palette_switching.py: Material's palette stylesheet loses the rule that restyles every
element while the palette switches, and the build stops if Material's stylesheet changes shape."""

from __future__ import annotations

import sys
from pathlib import Path
from types import SimpleNamespace

import material
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "hooks"))

import palette_switching

SWITCHING = "[data-md-color-switching] *,[data-md-color-switching] :after{transition-duration:0s!important}"
SHEET = (
    "@media screen{[data-md-color-scheme=slate]{--md-hue:232}"
    + SWITCHING
    + "}[data-md-color-accent=red]{--x:1}"
)


def test_the_switching_rule_goes_and_every_other_rule_stays():
    assert palette_switching.without_switching_rule(SHEET) == (
        "@media screen{[data-md-color-scheme=slate]{--md-hue:232}}[data-md-color-accent=red]{--x:1}"
    )


@pytest.mark.parametrize(("sheet", "found"), [("[data-md-color-accent=red]{--x:1}", 0), (SWITCHING * 2, 2)])
def test_a_stylesheet_of_another_shape_is_refused(sheet, found):
    with pytest.raises(ValueError, match=f"found {found}"):
        palette_switching.without_switching_rule(sheet)


def test_the_installed_materials_palette_stylesheet_has_the_one_rule():
    """The contract with the Material version this project installs: one such rule, and nothing
    else in the sheet names the attribute."""
    (sheet,) = (Path(material.__file__).parent / "templates" / "assets" / "stylesheets").glob(
        "palette.*.min.css"
    )
    stripped = palette_switching.without_switching_rule(sheet.read_text(encoding="utf-8"))
    assert "data-md-color-switching" not in stripped


def site_and_theme(tmp_path, built: str) -> dict:
    """A built site whose palette sheet holds `built`, and a theme whose sheet is SHEET."""
    for folder, text in (("site", built), ("theme", SHEET)):
        sheets = tmp_path / folder / "assets" / "stylesheets"
        sheets.mkdir(parents=True)
        (sheets / "palette.0123abcd.min.css").write_text(text, encoding="utf-8")
    return {"site_dir": str(tmp_path / "site"), "theme": SimpleNamespace(dirs=[str(tmp_path / "theme")])}


def test_the_build_rewrites_the_sites_palette_stylesheet(tmp_path):
    palette_switching.on_post_build(site_and_theme(tmp_path, SHEET))
    built = tmp_path / "site" / "assets" / "stylesheets" / "palette.0123abcd.min.css"
    assert "switching" not in built.read_text(encoding="utf-8")


def test_a_rebuild_that_kept_the_stripped_sheet_strips_materials_own_again(tmp_path):
    """`make serve --dirty` does not copy an unchanged theme file again: the built one is stripped."""
    config = site_and_theme(tmp_path, palette_switching.without_switching_rule(SHEET))
    palette_switching.on_post_build(config)
    built = tmp_path / "site" / "assets" / "stylesheets" / "palette.0123abcd.min.css"
    assert built.read_text(encoding="utf-8") == palette_switching.without_switching_rule(SHEET)
