"""The study the page shows beside a graph: the step texts with their numbers, the check, the limit."""

import json

from scratchgrad import Value
from scratchgrad.drawn_graph.study import study, to_json
from scratchgrad.stages import closures


def test_a_step_says_the_chain_rule_product_with_its_numbers():
    a, b = Value(2.0, label="a"), Value(-3.0, label="b")
    e = a * b
    e.label = "e"
    out = e * -2.0
    out.label = "L"
    result = study(out)
    texts = {result["nodes"][step["node"]]["name"]: step["text"] for step in result["steps"]}
    assert texts["L"] == ["e.grad += −2.0 × L.grad = −2.0 × 1.0 = −2.0"]
    assert texts["e"] == [
        "a.grad += b.data × e.grad = −3.0 × −2.0 = 6.0",
        "b.grad += a.data × e.grad = 2.0 × −2.0 = −4.0",
    ]
    assert texts["a"] == ["a is an input: nothing to pass on. a.grad = 6.0 is final."]


def test_steps_carry_the_gradients_after_each_visit():
    a = closures.Value(2.0, label="a")
    t = a.tanh()
    t.label = "t"
    result = study(t)
    [first, *_] = result["steps"]
    assert result["nodes"][first["node"]]["name"] == "t"
    [[child, grad]] = first["grads"]
    assert result["nodes"][child]["name"] == "a"
    assert 0 < grad < 1


def test_a_graph_over_the_limit_gets_a_note_naming_the_limit_and_no_steps():
    total = sum((Value(float(i)) for i in range(10)), Value(0.0))
    result = study(total, limit=5)
    assert result["count"] == 21
    assert "steps" not in result
    assert "21 Values, more than the 5" in result["note"]


def test_to_json_writes_non_finite_numbers_as_text():
    x = Value(0.0, label="x")
    out = x.relu()
    assert json.loads(to_json(out))["count"] == 2
    nan = Value(float("nan"), label="nan")
    assert '"nan"' in to_json(nan * 2.0)


def test_a_readers_plain_power_label_is_read_without_an_exponent_in_it():
    """A reader's engine may label x ** 2 as "**" alone: the study says ∂/∂ in symbols, and never crashes."""
    a = closures.Value(3.0, label="a")
    squared = a**2
    squared._op = "**"
    squared.label = "s"
    texts = [line for step in json.loads(to_json(squared * 2.0))["steps"] for line in step["text"]]
    assert any(line.startswith("a.grad += ∂s/∂a × s.grad") for line in texts)
