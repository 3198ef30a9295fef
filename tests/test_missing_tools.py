"""The missing-tool rule of the tests (tests/missing_tools.py): fail under CI=true, skip elsewhere."""

import sys

import pytest

from missing_tools import import_or_missing, in_ci, missing


@pytest.mark.parametrize(("value", "ci"), [("true", True), ("1", False), ("false", False), ("", False)])
def test_only_ci_true_means_ci(monkeypatch, value, ci):
    monkeypatch.setenv("CI", value)
    assert in_ci() is ci


def test_a_missing_tool_fails_under_ci_and_skips_elsewhere(monkeypatch):
    monkeypatch.setenv("CI", "true")
    with pytest.raises(
        pytest.fail.Exception, match=r"no chromium \(CI=true makes a missing tool a failure\)"
    ):
        missing("no chromium")
    monkeypatch.delenv("CI")
    with pytest.raises(pytest.skip.Exception, match="no chromium"):
        missing("no chromium")


def test_a_module_that_cannot_be_imported_is_a_missing_tool(monkeypatch):
    monkeypatch.setitem(sys.modules, "torch", None)  # makes `import torch` raise ImportError
    monkeypatch.setattr(sys, "platform", "linux")
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="could not import 'torch'"):
        import_or_missing("torch")
    monkeypatch.delenv("CI")
    with pytest.raises(pytest.skip.Exception, match="could not import 'torch'"):
        import_or_missing("torch")
    assert import_or_missing("json").dumps([]) == "[]"
