import { modelNameOf } from "../../adapter/engine/model/modelNameOf.js";
import { answerSystemOne } from "../../adapter/engine/systemOne/SystemOne.js";
import type { SystemOneQuestion, SystemOneResponse } from "../../adapter/engine/systemOne/systemOneTypes.js";
import type { DecisionEngine } from "../../adapter/engine/types.js";
import { applyTemperature } from "../../core/policy/applyTemperature.js";
import type { Policy } from "../../core/policy/Policy.js";
import { readModelAnswer } from "../../core/policy/readModelAnswer.js";
import { countPromptVersions, DEFAULT_LAYOUT, type LayoutChoice } from "../layoutChoices.js";
import { LabelledDataError, type LabelledDataProblem } from "./errors.js";
import type { LabelledAnswer } from "./LabelledDecisionSchema.js";
import type { LabelledLine } from "./readLabelledDecisions.js";

/** Options of {@link scoreLabelledDecisions}. */
export interface ScoreLabelledOptions {
  /** The prompt layout every question is asked in. Default `direct-options-v1`, the engine's default. */
  layout?: LayoutChoice;
  /** Stops the run: the line in flight is aborted and the abort error thrown. */
  signal?: AbortSignal;
  /** Called after each line of the policy. Default none. */
  onLine?: (done: number, total: number) => void;
}

/** How the labelled states were scored again: what a calibration report says about it. */
export interface LabelledScoring {
  /** The model's name (as System One reports it) and its file's name. */
  model: string;
  model_file: string;
  /** The layout every question was asked in. */
  layout: LayoutChoice;
  /** Lines of the policy scored; those in `failed` are left out of the calibration. */
  lines: number;
  /** Lines the engine could not answer usably, with why (a prompt too long, say). */
  failed: { line: number; id: string; error: string }[];
  /** Per question: the `prompt_version` each answer was scored with → answers. */
  prompt_versions: Record<string, Record<string, number>>;
}

/** What {@link scoreLabelledDecisions} returns. */
export interface ScoredLabelledDecisions {
  /** The lines with the new distributions; other policies' lines as they were, failed lines left out. */
  lines: LabelledLine[];
  scoring: LabelledScoring;
}

/**
 * Scores the labelled work items of a policy again through the engine, in-process, so that a
 * calibration (and the comparison of layouts) rests on answers in a chosen prompt layout rather
 * than the ones recorded when the items were decided. Per line one System One request, as the
 * pipeline sends it: the line's `state` and all of the policy's questions, each asked in
 * `options.layout`. Each labelled question's distribution is replaced by the engine's with the
 * policy's current temperature applied (and `temperature` set to it), as the policy would
 * record it; the person's label stays.
 *
 * A line the engine fails on, or whose answer is not a distribution over the question's labels,
 * is left out and listed in `scoring.failed`; the run goes on. An abort stops it.
 *
 * @throws LabelledDataError, before anything is scored, listing every line of the policy that
 *   has no `state`
 */
export async function scoreLabelledDecisions(
  engine: DecisionEngine,
  policy: Policy,
  lines: readonly LabelledLine[],
  options: ScoreLabelledOptions = {},
): Promise<ScoredLabelledDecisions> {
  const layout = options.layout ?? DEFAULT_LAYOUT;
  const own = lines.filter(({ decision }) => decision.policy === policy.name);
  const problems: LabelledDataProblem[] = own
    .filter(({ decision }) => decision.state === undefined)
    .map(({ line }) => ({
      line,
      path: ["state"],
      message: "no state: scoring again needs the work item's state on every line",
    }));
  if (problems.length > 0) throw new LabelledDataError(problems);

  const questions: Record<string, SystemOneQuestion> = Object.fromEntries(
    Object.entries(policy.systemOneQuestions()).map(([id, question]) => [id, { ...question, layout }]),
  );
  const versions = new Map<string, (string | undefined)[]>(policy.questions.map((q) => [q.id, []]));
  const failed: LabelledScoring["failed"] = [];
  const scored = new Map<LabelledLine, LabelledLine>();
  for (const [index, entry] of own.entries()) {
    const { line, decision } = entry;
    const state = decision.state;
    let response: SystemOneResponse | undefined;
    let error: string | undefined;
    if (state !== undefined) {
      try {
        response = await answerSystemOne(engine, { state, questions }, { signal: options.signal });
      } catch (cause) {
        if (options.signal?.aborted === true) throw cause;
        error = cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
      }
    }
    if (response !== undefined) {
      for (const [id, answer] of Object.entries(response.answers))
        versions.get(id)?.push(answer.prompt_version);
      const rescored = rescoredAnswers(policy, decision.questions, response);
      if (rescored.ok) scored.set(entry, { line, decision: { ...decision, questions: rescored.questions } });
      else error = rescored.reason;
    }
    if (error !== undefined) failed.push({ line, id: decision.id, error });
    options.onLine?.(index + 1, own.length);
  }
  return {
    lines: lines.flatMap((entry) => {
      if (entry.decision.policy !== policy.name) return [entry];
      const rescored = scored.get(entry);
      return rescored === undefined ? [] : [rescored];
    }),
    scoring: {
      model: modelNameOf(engine.identity),
      model_file: engine.identity.file,
      layout,
      lines: own.length,
      failed,
      prompt_versions: Object.fromEntries(
        [...versions].map(([id, answered]) => [id, countPromptVersions(answered)]),
      ),
    },
  };
}

/** The labelled questions with the engine's distributions; a question the policy lacks is kept for `collectForecasts` to report. */
function rescoredAnswers(
  policy: Policy,
  labelled: Readonly<Record<string, LabelledAnswer>>,
  response: SystemOneResponse,
): { ok: true; questions: Record<string, LabelledAnswer> } | { ok: false; reason: string } {
  const questions: Record<string, LabelledAnswer> = {};
  for (const [id, answer] of Object.entries(labelled)) {
    const question = policy.question(id);
    if (question === undefined) {
      questions[id] = answer;
      continue;
    }
    const read = readModelAnswer(question, response.answers[id]);
    if (!read.ok) return { ok: false, reason: `question ${id}: ${read.reason}` };
    const temperature = question.temperature ?? 1;
    const probabilities = applyTemperature(read.probabilities, temperature);
    questions[id] = {
      distribution: Object.fromEntries(question.labels.map((label, k) => [label, probabilities[k] ?? 0])),
      label: answer.label,
      temperature,
    };
  }
  return { ok: true, questions };
}
