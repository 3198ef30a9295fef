"""MkDocs hook: pages name the project's repository as ``{{ repo_url }}``, filled in from mkdocs.yml.

The repository's address is set once, as Material's ``repo_url`` (the header links to it too),
so a page that says ``git clone {{ repo_url }}`` always gives the address the site is
configured with. A page that uses it while ``repo_url`` is not set fails the build.
"""

from __future__ import annotations

from mkdocs.exceptions import PluginError

PLACEHOLDER = "{{ repo_url }}"


def on_page_markdown(markdown, page, config, files):
    if PLACEHOLDER not in markdown:
        return markdown
    if not config.repo_url:
        raise PluginError(f"{page.file.src_uri} uses {PLACEHOLDER} but mkdocs.yml sets no repo_url")
    return markdown.replace(PLACEHOLDER, config.repo_url)
