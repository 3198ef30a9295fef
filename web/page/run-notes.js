// What a block says about how its run ended: the notes under its output, and the one sentence a
// screen reader hears (the result area itself is not a live region).

const MISSING_NAME = /^NameError: name '([A-Za-z_][A-Za-z0-9_]*)' is not defined/;
const ANNOUNCED_OUTPUT_CHARS = 300;

/** The note under a block for each way a run can end early: [text, kind], given why Stop restarted. */
const OUTCOME_NOTES = {
  stopped: () => ["Stopped. Everything defined before the stop is still there.", "info"],
  reset: (why) => [
    `Stopped by restarting Python (${why}): the variables of the blocks above are gone. ` +
      "“Run from top” defines them again.",
    "warning",
  ],
  cancelled: () => ["Not run: stopped before its turn.", "info"],
};

/** Write under `output` (an OutputView) how the run `result` ended, given why Stop restarts Python. */
export function reportRun(output, result, whyStopRestarts) {
  if (result.traceback) output.error(result.traceback);
  if (result.outcome in OUTCOME_NOTES) output.note(...OUTCOME_NOTES[result.outcome](whyStopRestarts));
  if (result.outcome === "crashed") {
    output.note(`${result.message}. Python was restarted: the variables of the blocks above are gone.`, "error");
  }
  if (result.outcome === "unavailable") output.note(result.message, "error");
}

/** The name a NameError of the run `result` says is not defined, or undefined. */
export function missingName(result) {
  if (result.outcome !== "error") return undefined;
  return result.traceback.trimEnd().split("\n").at(-1).match(MISSING_NAME)?.[1];
}

/**
 * The sentence a screen reader hears when block `number` (counted from 1) has run: `result` is the
 * runtime's, `printed` what the block printed.
 */
export function announcement(result, { number, printed, whyStopRestarts }) {
  const what = `Block ${number}`;
  const lastLine = result.traceback?.trimEnd().split("\n").at(-1);
  let text;
  if (result.outcome === "ok") text = printed ? `${what} ran. Output: ${printed}` : `${what} ran, printing nothing.`;
  else if (result.outcome === "error" && result.asExpected) text = `${what} raised, as expected: ${lastLine}`;
  else if (result.outcome === "error") text = `${what} failed: ${lastLine}`;
  else {
    const note = OUTCOME_NOTES[result.outcome]?.(whyStopRestarts)[0];
    text = `${what}: ${note ?? result.message ?? result.outcome}`;
  }
  if (text.length <= ANNOUNCED_OUTPUT_CHARS) return text;
  return `${text.slice(0, ANNOUNCED_OUTPUT_CHARS)}… (more in the output)`;
}
