/** `decisions calibrate --model`: scores the labelled states again in-process before calibrating. */
import { availableParallelism } from "node:os";
import { Scorer } from "../../../adapter/engine/Scorer.js";
import type { Policy } from "../../../core/policy/Policy.js";
import type { LabelledLine } from "../../../evaluation/calibration/readLabelledDecisions.js";
import {
  type ScoredLabelledDecisions,
  scoreLabelledDecisions,
} from "../../../evaluation/calibration/scoreLabelledDecisions.js";
import type { CliOutput } from "../../types.js";
import type { CalibrateModel } from "./planCalibrate.js";

/** The context size items are scored again with, as `jevbench` runs its cases. */
const CONTEXT_SIZE = 8192;

/**
 * Loads the model, scores every labelled line of the policy again with all its questions in the
 * plan's layout (progress every 25 lines on stderr), disposes of the model, and names on stderr
 * each line left out.
 *
 * @returns the lines with the new distributions and how they were scored
 * @throws what loading the model throws; LabelledDataError when a line of the policy has no state
 */
export async function rescoreLabelled(
  model: CalibrateModel,
  policy: Policy,
  lines: readonly LabelledLine[],
  stderr: CliOutput["stderr"],
): Promise<ScoredLabelledDecisions> {
  stderr.write(`calibrate: scoring the labelled states again on ${model.path}, layout ${model.layout}\n`);
  const scorer = await Scorer.load({
    modelPath: model.path,
    threads: model.threads ?? availableParallelism(),
    contextSize: CONTEXT_SIZE,
  });
  let scored: ScoredLabelledDecisions;
  try {
    scored = await scoreLabelledDecisions(scorer, policy, lines, {
      layout: model.layout,
      onLine: (done, total) => {
        if (done % 25 === 0 || done === total) stderr.write(`calibrate: ${done}/${total} lines scored\n`);
      },
    });
  } finally {
    await scorer.dispose();
  }
  for (const failure of scored.scoring.failed) {
    stderr.write(`calibrate: line ${failure.line} (${failure.id}) left out: ${failure.error}\n`);
  }
  return scored;
}
