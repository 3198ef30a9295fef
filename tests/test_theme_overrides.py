"""The theme overrides (overrides/partials/) are Material's own partials with one change each.

Material's partials are copied, not wrapped (a partial cannot include the file it replaces), so
each copy must follow Material: a newer Material that changes one of these partials fails here
until the copy is made again from it.
"""

from pathlib import Path

import material
import pytest

MATERIAL_PARTIALS = Path(material.__file__).parent / "templates" / "partials"
OVERRIDES = Path(__file__).parents[1] / "overrides" / "partials"
GENERATED = "{#-\n  This file was automatically generated - do not edit\n-#}\n"
CHANGES = {
    "search.html": (
        'data-md-component="search" role="dialog">',
        'data-md-component="search" role="dialog" aria-label="{{ lang.t(\'search\') }}">',
    ),
    "progress.html": (
        '<div class="md-progress" data-md-component="progress" role="progressbar"></div>',
        '<div role="region" aria-label="Page loading"><div class="md-progress" data-md-component="progress" '
        'role="progressbar" aria-label="Loading the next page"></div></div>',
    ),
    "source.html": (' data-md-component="source">', ">"),
}


def test_every_override_is_listed_here():
    assert sorted(path.name for path in OVERRIDES.iterdir()) == sorted(CHANGES)


@pytest.mark.parametrize("name", sorted(CHANGES))
def test_override_is_materials_partial_with_its_one_change(name):
    original = (MATERIAL_PARTIALS / name).read_text(encoding="utf-8")
    assert original.startswith(GENERATED)
    old, new = CHANGES[name]
    assert original.count(old) == 1, f"Material's {name} changed: copy it again and redo the change"
    override = (OVERRIDES / name).read_text(encoding="utf-8")
    header, body = override.split("-#}\n", 1)
    assert header.startswith(f"{{#- Material 9.8.1's partials/{name}, one change:")
    assert body == original.removeprefix(GENERATED).replace(old, new)
