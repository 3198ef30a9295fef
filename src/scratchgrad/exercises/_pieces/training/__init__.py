"""Training a network: forward, zero the gradients, backward, step against the gradient."""

from scratchgrad.exercises.exercise import Engine, Exercise, Fail
from scratchgrad.exercises.oracle import close
from scratchgrad.exercises.reference_loop import losses as chapter_losses
from scratchgrad.exercises.shares import line_in, line_of
from scratchgrad.writing.numbers import written

EXERCISE = Exercise.load(__name__)

XS = ([2.0, 3.0, -1.0], [3.0, -1.0, 0.5], [0.5, 1.0, 1.0], [1.0, 1.0, -1.0])
YS = (1.0, -1.0, -1.0, 1.0)
STEPS, RATE = 8, 0.1


def _zeroed_before_the_step(engine: Engine) -> str:
    """ ": your line N zeroes the gradients between backward() and the step …" when the reader's lines
    run in that order (the evidence, with parameters that never moved, that each step was by 0); or ""."""
    backward, zero = line_of(engine.train, ".backward()"), line_of(engine.train, ".grad = 0")
    step = line_of(engine.train, ".data -=") or line_of(engine.train, ".data +=")
    if not (backward and zero and step and backward[0] < zero[0] < step[0]):
        return ""
    return (
        f": your line {zero[0]} (`{zero[1]}`) zeroes the gradients after backward() (line {backward[0]}) and "
        f"before the step (line {step[0]}), so every step is learning_rate × 0. Zero them before backward()"
    )


def _chapter(steps: int, rate: float, xs: tuple = XS, ys: tuple = YS, **slip: float):
    """The chapter's loop (or, with `slip`, one of its classic bugs) as a function of the model."""
    return lambda model: chapter_losses(model, xs, ys, steps, rate, **slip)


def _run(model, weights: list[float], loop) -> list[float]:
    for p, w in zip(model.parameters(), weights, strict=False):
        p.data, p.grad = w, 0.0
    return loop(model)


@EXERCISE.check("one loss per step, each before its update")
def _shape(engine: Engine) -> str:
    model = engine.MLP(3, [4, 1])
    weights = [p.data for p in model.parameters()]
    before = (sum((model(x) - y) ** 2 for x, y in zip(XS, YS, strict=False)) / len(XS)).data
    losses = list(engine.train(model, list(XS), list(YS), STEPS, RATE))
    if len(losses) != STEPS or not all(isinstance(x, (int, float)) for x in losses):
        shown = repr(losses)[:200]
        raise Fail(f"train(…, steps={STEPS}, …) should return {STEPS} losses (loss.data); yours: {shown}")
    summed = close(losses[0], before * len(XS), 1e-9)  # the sum, not the mean: the next check says so
    if not close(losses[0], before, 1e-9) and not summed:
        found = (
            f"the first loss should be the model's mean squared error before any update, {written(before)}; "
            f"yours is {written(losses[0])}"
        )
        after = _run(model, weights, _chapter(2, RATE))[1]
        if close(losses[0], after, 1e-9):  # the evidence: exactly the loss one update later
            raise Fail(
                f"{found}, the loss after the first update{line_in(engine.train, '.append(')}: append the "
                "loss of the forward pass, measured before the step"
            )
        raise Fail(f"{found}{line_in(engine.train, 'loss =')}")
    return f"{STEPS} losses, from {written(losses[0])} to {written(losses[-1])}"


@EXERCISE.check("the losses of the chapter's loop, from the same weights, at three learning rates")
def _same_as_chapter(engine: Engine) -> str:
    model = engine.MLP(3, [4, 1])
    weights = [p.data for p in model.parameters()]
    xs, ys = [list(x) for x in XS], list(YS)
    for steps, rate in ((STEPS, RATE), (5, 0.03), (3, 0.5)):
        yours = list(_run(model, weights, lambda m, s=steps, r=rate: engine.train(m, xs, ys, s, r)))
        if xs != [list(x) for x in XS] or ys != list(YS):
            raise Fail("train() changed the xs or ys it was given: read the examples, never write them")
        right = _run(model, weights, _chapter(steps, rate))
        if len(yours) != steps:
            raise Fail(
                f"train(…, steps={steps}, …) should return {steps} losses; yours returned {len(yours)}"
            )
        if all(close(a, b, 1e-9) for a, b in zip(yours, right, strict=True)):
            continue
        step = next(i for i, (a, b) in enumerate(zip(yours, right, strict=True)) if not close(a, b, 1e-9))
        found = (
            f"with learning_rate={rate:g}, at step {step} the loss should be {written(right[step])}; "
            f"yours is {written(yours[step])}"
        )
        if close(yours[0], 4 * right[0], 1e-9):
            raise Fail(f"{found} — four times the mean: divide the sum of squared errors by len(xs)")
        for zero, sign, diagnosis in (
            (
                False,
                1.0,
                "your loop never zeroes the gradients: they pile up across steps. Set param.grad = 0.0 "
                "before backward()",
            ),
            (
                True,
                -1.0,
                "your loop moves uphill: step against the gradient, param.data -= learning_rate * param.grad",
            ),
        ):
            buggy = _run(model, weights, _chapter(steps, rate, zero=zero, sign=sign))
            if all(close(a, b, 1e-9) for a, b in zip(yours, buggy, strict=True)):
                raise Fail(f"{found} — {diagnosis}")
        for other in (0.1, 0.01, 0.05, 1.0):
            fixed = _run(model, weights, _chapter(steps, other))
            if other != rate and all(close(a, b, 1e-9) for a, b in zip(yours, fixed, strict=True)):
                raise Fail(f"{found} — your loop steps with {other:g}: use the learning_rate it is given")
        if all(loss == yours[0] for loss in yours):  # the evidence: not one step changed the model
            still = "your losses never change, so no step changed the model"
            raise Fail(f"{found} — {still}{_zeroed_before_the_step(engine)}")
        raise Fail(found)
    xs3, ys3 = XS[:3], YS[:3]  # another number of examples: the mean divides by len(xs), not by 4
    given = [list(x) for x in xs3], list(ys3)
    yours = list(_run(model, weights, lambda m: engine.train(m, *given, 3, RATE)))
    right = _run(model, weights, _chapter(3, RATE, xs3, ys3))
    if len(yours) != 3 or not all(close(a, b, 1e-9) for a, b in zip(yours, right, strict=True)):
        found = (
            f"on the first 3 examples only, the losses should be {[written(x) for x in right]}; yours: "
            f"{[written(x) for x in yours]}"
        )
        fixed = yours and close(yours[0], right[0] * 3 / 4, 1e-9)  # the evidence: a sum divided by 4
        hint = " — divide by len(xs), the number of examples given, not 4" if fixed else ""
        raise Fail(f"{found}{hint}")
    return "step for step at learning rates 0.1, 0.03 and 0.5, and on 3 examples"


@EXERCISE.check("training moves the model's own parameters, and the loss falls")
def _learns(engine: Engine) -> str:
    model = engine.MLP(3, [4, 1])
    before = [p.data for p in model.parameters()]
    losses = list(engine.train(model, list(XS), list(YS), 30, 0.1))
    moved = sum(a != p.data for a, p in zip(before, model.parameters(), strict=False))
    if not moved:
        still = "after train() every parameter has its old value"
        if all(p.grad == 0 for p in model.parameters()):  # the step read gradients of 0, or none at all
            raise Fail(f"{still}, and every p.grad is 0.0{_zeroed_before_the_step(engine)}")
        raise Fail(f"{still}, though their gradients are not 0: update p.data in place")
    if not losses or not losses[-1] < losses[0]:
        raise Fail(
            "after 30 steps at learning rate 0.1 the loss should fall; yours went from "
            f"{written(losses[0] if losses else None)} "
            f"to {written(losses[-1] if losses else None)}"
        )
    return f"{moved} parameters moved; loss {written(losses[0])} → {written(losses[-1])}"
