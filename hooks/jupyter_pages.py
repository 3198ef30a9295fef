"""MkDocs hook: keep notebook pages (mkdocs-jupyter) offline.

nbconvert's template writes two loaders into every notebook page: MathJax (a ``<script src>``, empty
when no URL is configured, plus its config) and Mermaid (a module script that imports from a CDN
when the notebook has a diagram). The site typesets formulas with KaTeX at build time
(hooks/formulas.py) and its notebooks hold no diagrams, so both go: no page asks another host.
Material's theme shows no download link for the ``.ipynb`` that mkdocs-jupyter copies beside the
page (``include_source``), so this hook adds Material's page-action button for it (top right).

mkdocs-jupyter executes a notebook on every build (its own cache, off in mkdocs.yml, would not see
an edit of the package the notebook imports). This hook keeps each rendered notebook in the
build's cache (`build_cache`), by the notebook's bytes, the package's sources, the plugin's
options and the build's code, so a build that changed none of them executes nothing.
"""

from __future__ import annotations

import html
import posixpath
import re
from pathlib import Path

import material
from helpers import build_cache
from mkdocs.exceptions import PluginError

DOWNLOAD_ICON = Path(material.__file__).parent / "templates" / ".icons" / "material" / "download.svg"
_MATHJAX = re.compile(r"<!-- Load mathjax -->.*?<!-- End of mathjax configuration -->", re.DOTALL)
_SCRIPT = re.compile(r"<script\b[^>]*>.*?</script>", re.DOTALL)
_REMOTE = re.compile(r"""https?://(?!www\.w3\.org/)""")


def on_pre_page(page, config, files):
    """Wrap mkdocs-jupyter's render of a notebook page (set by its own on_pre_page, which runs
    first: plugins before hooks) with the build's cache."""
    if not page.file.src_uri.endswith(".ipynb"):
        return page
    jupyter = config.plugins.get("mkdocs-jupyter")
    render = page.render
    digest = build_cache.key(
        page.file.src_uri, Path(page.file.abs_src_path).read_bytes(), sorted(jupyter.config.items()),
        build_cache.package_digest(), build_cache.build_code_digest(), build_cache.environment_digest(),
    )  # fmt: skip

    def cached_render(config, files):
        kept = build_cache.load("notebook-pages", digest)
        if kept is None:
            render(config, files)
            build_cache.store("notebook-pages", digest, (page.content, page.toc, page.title))
        else:
            page.content, page.toc, page.title = kept

    page.render = cached_render
    return page


def on_page_content(html_text, page, config, files):
    if not page.file.src_uri.endswith(".ipynb"):
        return html_text
    html_text = _MATHJAX.sub("", html_text)
    html_text = _SCRIPT.sub(lambda m: "" if "mermaid" in m.group(0) else m.group(0), html_text)
    for script in _SCRIPT.findall(html_text):
        if _REMOTE.search(script):
            raise PluginError(
                f"{page.file.src_uri}: a script of the rendered notebook refers to another host"
            )
    name = html.escape(posixpath.basename(page.file.src_uri))
    # Material's own page-action button (top right, like its "edit this page" icon).
    download = (
        f'<a class="md-content__button md-icon sg-download" href="{name}" download '
        f'title="Download {name}">{DOWNLOAD_ICON.read_text()}</a>'
    )
    return download + html_text
