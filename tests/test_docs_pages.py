"""The tests' reading of the docs pages (tests/docs_pages.py): fences, runnable blocks, page URLs."""

from docs_pages import Fence, built_page, fenced_blocks, page_url


def test_fences_are_found_at_any_indentation_in_page_order():
    markdown = (
        '```python run\na = 1\n```\n\n!!! note\n\n    ```python run expect="KeyError"\n    {}[0]\n    ```\n'
    )
    assert fenced_blocks(markdown) == [
        Fence("python run", "a = 1"),
        Fence('python run expect="KeyError"', "{}[0]"),
    ]


def test_a_fence_inside_a_markdown_example_is_not_a_block():
    markdown = '````markdown\n```python run\nprint(1)\n```\n````\n\n```python run graph="L"\nL = 1\n```\n'
    assert [fence.info for fence in fenced_blocks(markdown)] == ["markdown", 'python run graph="L"']
    assert fenced_blocks(markdown)[0].body == "```python run\nprint(1)\n```"


def test_runnable_needs_python_and_the_bare_word_run():
    assert Fence('python run expect="ZeroDivisionError"', "").runnable
    assert Fence("{ .python run }", "").runnable
    assert not Fence("python", "").runnable
    assert not Fence('python title="run me"', "").runnable
    assert not Fence("text run", "").runnable
    assert Fence("{ .python run }", "").language == "python"


def test_page_urls_follow_mkdocs_directory_urls(tmp_path):
    assert page_url("http://h/", "index.md") == "http://h/"
    assert page_url("http://h/", "chain-rule.md") == "http://h/chain-rule/"
    assert page_url("http://h/", "part/index.md") == "http://h/part/"
    assert built_page(tmp_path, "index.md") == tmp_path / "index.html"
    assert built_page(tmp_path, "part/chain-rule.md") == tmp_path / "part" / "chain-rule" / "index.html"


def test_a_fence_in_a_collapsed_admonition_is_collapsed_and_one_in_an_open_one_is_not():
    markdown = (
        '??? sg-book "The book\'s version"\n\n    ```python run\n    a = 1\n    ```\n\n'
        "```python run\nb = a\n```\n\n"
        '???+ info "Open"\n\n    ```python run\n    c = 1\n    ```\n'
    )
    assert [fence.collapsed for fence in fenced_blocks(markdown)] == [True, False, False]
    assert fenced_blocks(markdown)[0].hidden_in == 1  # the line of its admonition
