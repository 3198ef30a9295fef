"""The capstone: the playground trains with the engine the reader wrote in the exercises."""

from __future__ import annotations

import contextlib
import gc
import io
import json
import math
import os
import random
import subprocess
import sys
import weakref
from pathlib import Path

import pytest

from scratchgrad import Value
from scratchgrad.exercises import export
from scratchgrad.exercises.registry import by_id
from scratchgrad.losses import accuracy, mse
from scratchgrad.optim import SGD
from scratchgrad.playground import PanelSession, Settings, from_query, generate_code, predict_all
from scratchgrad.playground.program import YOUR_MODULE
from scratchgrad.playground.your_engine import (
    ENGINE_PIECES,
    EngineNotReadyError,
    YourTrainer,
    collector_paused,
    load_your_engine,
    your_engine_installed,
)
from scratchgrad.train import Batches, Trainer

SRC = Path(__file__).resolve().parents[2] / "src"
XOR = "dataset=xor&hidden=4&lr=0.3&engine=yours"
MOONS_IN_BATCHES = "dataset=moons&points=30&test_fraction=0&hidden=4&lr=0.3&batch_size=7&seed=3&engine=yours"


def passing_work() -> dict[str, str]:
    """A reader who passed every piece with code that is theirs, not ours: the reference, renamed."""
    work = {piece.id: piece.solution for piece in ENGINE_PIECES}
    work["training"] = work["training"].replace("losses", "history_of_losses")
    return work


def configure(session: PanelSession, query: str, work: dict[str, str]) -> dict:
    return json.loads(session.configure(query, "", json.dumps(work)))


def test_the_engine_is_every_piece_the_training_loop_builds_on_in_story_order():
    ids = [piece.id for piece in ENGINE_PIECES]
    assert ids[0] == "value-graph"
    assert ids[-2:] == ["mlp", "training"]
    assert {"local-derivatives", "backward", "accumulate", "power-and-exp", "composed-ops"} <= set(ids)
    assert "softmax-cross-entropy" not in ids
    assert "slope" not in ids


def test_a_panel_trains_with_the_readers_engine_and_the_loss_falls():
    session = PanelSession()
    answer = configure(session, XOR, passing_work())
    assert answer["problems"] == {}
    assert set(answer["unused"]) >= {"activation", "loss", "optimizer"}
    first = answer["frame"]["loss"]
    frame = json.loads(session.step(60))
    assert frame["steps"] == 60
    assert frame["note"] is None
    assert frame["loss"] < first / 10
    assert frame["accuracy"] == 1.0
    assert [layer["activation"] for layer in frame["layers"]] == ["tanh", "tanh"]


@pytest.mark.parametrize("query", [XOR, MOONS_IN_BATCHES])
def test_each_step_is_one_call_of_the_readers_train_on_the_readers_model_and_the_steps_batch(query):
    engine = load_your_engine(passing_work())
    settings = from_query(query)
    with your_engine_installed(engine):
        namespace: dict = {}
        exec(generate_code(settings, 6), namespace)
    stepped = namespace["trainer"].history.loss
    random.seed(settings.seed)
    model = engine.MLP(settings.inputs, [4, 1])
    xs, ys = namespace["xs"], namespace["ys"]
    batches = Batches(len(xs), settings.batch_size, settings.seed)
    by_hand = []
    for _ in range(6):
        batch = batches.next()
        by_hand += engine.train(model, [xs[i] for i in batch], [ys[i] for i in batch], 1, settings.lr)
    # Equal but for the last bits: the reader's Value sums gradients in set order (by address).
    assert stepped == pytest.approx(by_hand, rel=1e-12)


def test_the_readers_train_gets_the_batches_the_books_trainer_takes_with_the_same_seed():
    seen_by_yours, seen_by_the_book = [], []
    weight = Value(0.5)

    def train(model, xs, ys, steps, learning_rate):
        seen_by_yours.append(xs)
        return [0.5]

    def book_model(x):
        seen_by_the_book[-1].append(x)
        return weight * x[0]

    xs, ys = [[float(i), -float(i)] for i in range(10)], [1.0, -1.0] * 5
    model = load_your_engine(passing_work()).MLP(2, [1])
    yours = YourTrainer(model, train, xs, ys, 0.1, batch_size=4, seed=5)
    book = Trainer(book_model, xs, ys, mse, SGD([weight], lr=0.1), batch_size=4, seed=5)
    for _ in range(5):  # an epoch and a half: batches of 4, 4, 2, 4, 4
        yours.step()
        seen_by_the_book.append([])
        book.step()
    assert seen_by_yours == seen_by_the_book
    assert [len(batch) for batch in seen_by_yours] == [4, 4, 2, 4, 4]


def test_a_batch_larger_than_the_examples_is_refused_with_the_trainers_name():
    with pytest.raises(ValueError, match=r"YourTrainer needs batch_size None or 1 … 2 .* got 3"):
        YourTrainer(None, None, [[0.0, 1.0], [1.0, 0.0]], [1.0, -1.0], 0.1, batch_size=3)


def test_a_batched_step_records_the_accuracy_of_its_batch_before_its_update():
    session = PanelSession()
    configure(session, MOONS_IN_BATCHES, passing_work())
    trainer = session.stepper.trainer
    batch = Batches(30, 7, 3).next()
    scores = predict_all(trainer.model, [trainer.xs[i] for i in batch])
    record = trainer.step()
    assert record.accuracy == accuracy(scores, [trainer.ys[i] for i in batch])


def test_batch_size_is_a_setting_of_your_engine_and_the_books_pace_steps_take_the_same_batches():
    assert "batch_size" not in Settings(engine="yours", batch_size=20).unused()
    session = PanelSession()
    answer = configure(session, MOONS_IN_BATCHES, passing_work())
    assert "batch_size" not in answer["unused"]
    assert "batch_size=7, seed=3" in session.code(10)
    yours, book = session.pace.yours.batches, session.pace.book.batches
    assert [yours.next() for _ in range(6)] == [book.next() for _ in range(6)]


def test_missing_pieces_are_named_with_their_chapters_instead_of_training():
    work = passing_work()
    del work["mlp"], work["backward"]
    answer = configure(PanelSession(), XOR, work)
    message = answer["problems"]["engine"]
    assert "2 of its 10 pieces" in message
    assert f"“{by_id('mlp').title}” (chapter neurons-layers-mlp)" in message
    assert f"“{by_id('backward').title}” (chapter automatic-backward)" in message
    assert "frame" not in answer


def test_a_piece_that_raises_when_loaded_is_named():
    work = passing_work()
    work["mlp"] = "raise RuntimeError('half-written')\n"
    expected = r"“Neuron, Layer, MLP” .* raised RuntimeError: half-written"
    with pytest.raises(EngineNotReadyError, match=expected):
        load_your_engine(work)


def test_a_train_that_returns_no_losses_is_told_what_it_should_return():
    engine = load_your_engine(passing_work())
    model = engine.MLP(2, [1])
    trainer = YourTrainer(model, lambda *args: None, [[0.0, 1.0]], [1.0], 0.1)
    with pytest.raises(TypeError, match=r"should return a list of one loss"):
        trainer.step()


def test_your_engine_cannot_train_the_three_class_spiral():
    answer = configure(PanelSession(), "dataset=spiral&points=99&engine=yours", passing_work())
    assert "two classes" in answer["problems"]["engine"]


def test_the_program_runs_in_python_next_to_the_exported_file(tmp_path):
    work = passing_work()
    (tmp_path / f"{YOUR_MODULE}.py").write_text(export(work))
    (tmp_path / "program.py").write_text(generate_code(from_query(XOR), 12))
    run = subprocess.run(
        [sys.executable, "program.py"],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(SRC)},
        capture_output=True,
        text=True,
        check=True,
    )
    session = PanelSession()
    configure(session, XOR, work)
    frame = json.loads(session.step(12))
    words = run.stdout.split()
    assert words[:3] == ["step", "12:", "loss"]
    assert float(words[-1]) == frame["accuracy"]
    # The reader's Value keeps its children in a set, ordered by memory address: the order in which
    # gradients are summed, so the last bits of the loss, differ from one process to the next.
    assert float(words[3].rstrip(",")) == pytest.approx(frame["loss"], rel=1e-12)


def test_a_diverging_run_of_the_readers_train_is_recorded_so_the_stepper_can_say_so():
    engine = load_your_engine(passing_work())
    trainer = YourTrainer(engine.MLP(2, [1]), lambda *args: [float("nan")], [[0.0, 1.0]], [1.0], 0.1)
    assert math.isnan(trainer.step().loss)


def test_the_collector_is_paused_during_the_readers_step_and_collects_its_cycles_after():
    class Node:
        pass

    with collector_paused():
        assert not gc.isenabled()
        node = Node()
        node.itself = node  # a cycle, as a closure-style engine makes one per Value
        alive = weakref.ref(node)
        del node
        assert alive() is not None  # a cycle outlives its last name while the collector sleeps
    assert gc.isenabled()
    assert alive() is None


def test_a_collector_paused_by_someone_else_stays_paused():
    gc.disable()
    try:
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_a_step_of_the_readers_engine_leaves_the_collector_running():
    work = {piece.id: piece.solution for piece in ENGINE_PIECES}
    engine = load_your_engine(work)
    model = engine.MLP(2, [3, 1])
    trainer = YourTrainer(model, engine.train, [[0.0, 1.0], [1.0, 0.0]], [1.0, -1.0], 0.1)
    trainer.step()
    assert gc.isenabled()


def test_the_frame_gives_the_readers_and_the_books_milliseconds_a_step_once_both_ran():
    session = PanelSession()
    answer = configure(session, XOR, passing_work())
    assert answer["frame"]["pace"] is None  # nothing measured yet
    pace = json.loads(session.step(1))["pace"]
    assert pace["yours_ms"] > 0
    assert pace["book_ms"] > 0
    book = session.pace.book
    assert [len(layer.neurons) for layer in book.model.layers] == [4, 1]  # the reader's network: 2-4-1
    assert {layer.activation for layer in book.model.layers} == {"tanh"}  # tanh everywhere, as the reader's
    assert book.loss.__name__ == "mse"


def test_the_books_steps_take_a_small_share_of_the_readers_time_after_the_first_ones():
    session = PanelSession()
    configure(session, XOR, passing_work())
    pace = session.pace
    for _ in range(pace.FIRST):
        pace.measure()  # its first steps, whatever the reader's time
    assert len(pace.book_seconds) == pace.FIRST
    pace.yours.step_seconds[:] = [1.0]
    pace.book_seconds[:] = [pace.SHARE / pace.FIRST + 0.001] * pace.FIRST  # just over 5 % of the reader's 1 s
    pace.measure()
    assert len(pace.book_seconds) == pace.FIRST  # no step: it would take more than its share
    pace.yours.step_seconds.append(1.0)
    pace.measure()
    assert len(pace.book_seconds) == pace.FIRST + 1  # the reader trained on: the book may time another


def test_the_book_engines_panel_has_no_pace_line():
    session = PanelSession()
    session.configure("dataset=xor&hidden=4", "", "{}")
    assert json.loads(session.step(1))["pace"] is None


def test_the_held_out_loss_of_your_engine_is_the_one_its_program_prints():
    query = "dataset=moons&points=30&test_fraction=0.3&hidden=4&lr=0.3&seed=2&engine=yours"
    session = PanelSession()
    configure(session, query, passing_work())
    frame = json.loads(session.step(5))
    engine = load_your_engine(passing_work())
    with your_engine_installed(engine):
        namespace: dict = {}
        printed = io.StringIO()
        with contextlib.redirect_stdout(printed):
            exec(generate_code(from_query(query), 5), namespace)
    words = printed.getvalue().splitlines()[-1].replace(",", "").split()
    assert words[0] == "test:"
    # Equal but for the last bits: the panel reads your network with plain floats (predict_all),
    # summing each neuron in the book's order; the program runs your Values.
    assert [float(words[2]), float(words[4])] == pytest.approx(frame["test"], rel=1e-12)
    assert len(frame["records"][0]) == 4
