"""Where MkDocs puts a page (``use_directory_urls``): one rule for the hooks, the tests and the
page's JavaScript (the Playground's address reaches it through hooks/pyodide_runtime.py)."""

from __future__ import annotations


def page_url(source: str, base: str = "") -> str:
    """The URL of the page built from `source` below `base`: ``a/b.md`` → ``a/b/``, ``a/index.md`` → ``a/``.

    Example:
        >>> page_url("chain-rule.md", "../"), page_url("index.md")
        ('../chain-rule/', '')
    """
    stem = source.removesuffix(".md")
    if stem == "index" or stem.endswith("/index"):
        return base + stem.removesuffix("index")
    return f"{base}{stem}/"


def link_between(from_source: str, to_source: str) -> str:
    """A relative link from the page of `from_source` to the page of `to_source`.

    Example:
        >>> link_between("part/intro.md", "chain-rule.md")
        '../../chain-rule/'
    """
    up = "../" * page_url(from_source).count("/")
    return page_url(to_source, up)
