import { InvalidDecisionError } from "../engine/errors.js";
import { systemOneToBatch } from "../engine/systemOne/SystemOne.js";
import type { DecisionBatch, DecisionEngine, PreparedBatch, PromptMeasure } from "../engine/types.js";
import { adoptTextStates } from "./adoptTextStates.js";
import { boundPromptWork, type PromptWorkBounds } from "./boundPromptWork.js";
import { checkTokenBudget } from "./checkTokenBudget.js";
import { classifyInvocation } from "./classifyInvocation.js";
import { type EngineFieldMap, engineFieldMapFor } from "./engineFieldMap.js";
import { BadRequestError } from "./errors.js";
import { engineProblems } from "./mapEngineError.js";
import type { JsonBody } from "./readJsonBody.js";
import type { Invocation, InvocationKind, Problem, RequestLimits } from "./types.js";
import { validateRequest } from "./validateRequest.js";

/** A request ready for the engine: validated, within its token budgets. */
export interface PreparedInvocation {
  invocation: Invocation;
  /** Names engine fields in the caller's wire format, for errors the engine raises later. */
  fields: EngineFieldMap;
  /** Token counts of its prompts (absent for chat, and for a System One request the model need not score). */
  measure: PromptMeasure | undefined;
  /** Its prompts, rendered and tokenized by the engine, for `scoreBatch`'s `prepared` (absent with `measure`). */
  prepared: PreparedBatch | undefined;
}

/**
 * Turns a parsed body into a {@link PreparedInvocation}: picks the wire format (`auto`: by the
 * body's shape, as `POST /invocations` does), validates it with the wire schemas, gives it the
 * states as the request's text wrote them, checks cheap lower bounds of its token counts
 * ({@link boundPromptWork}: no rendering, no tokenizing), then has the engine render and tokenize
 * its prompts (`engine.prepare`: on the engine's prompt worker, off the event loop, when it has one)
 * and checks the token budgets. The prompts are kept for scoring, which then tokenizes nothing.
 *
 * @throws BadRequestError listing every problem (repeated keys, shape, limits, reserved texts), or
 *   the token budget problems once the shape is valid.
 */
export async function prepareInvocation(
  body: JsonBody,
  accepts: InvocationKind | "auto",
  limits: RequestLimits,
  engine: Pick<DecisionEngine, "prepare">,
  bounds: PromptWorkBounds = { maxStateBytes: Number.POSITIVE_INFINITY },
  signal?: AbortSignal,
): Promise<PreparedInvocation> {
  let kind: InvocationKind;
  if (accepts === "auto") {
    const classification = classifyInvocation(body.value);
    if (!classification.ok)
      throw BadRequestError.fromProblems([...body.duplicateKeys, classification.problem]);
    kind = classification.kind;
  } else {
    kind = accepts;
  }
  const validation = validateRequest(kind, body.value, limits);
  const problems: Problem[] = [...body.duplicateKeys, ...(validation.ok ? [] : validation.problems)];
  if (!validation.ok || problems.length > 0) throw BadRequestError.fromProblems(problems);
  const adopted = adoptTextStates(validation.value, body);
  if (!adopted.ok) throw BadRequestError.fromProblems(adopted.problems);
  const invocation = adopted.value;
  let batch: DecisionBatch | undefined;
  let fields = engineFieldMapFor(invocation);
  try {
    if (invocation.kind === "semif") batch = invocation.batch;
    if (invocation.kind === "systemone") {
      batch = systemOneToBatch(invocation.request);
      fields = engineFieldMapFor(invocation, batch);
    }
    if (batch === undefined || batch.questions.length === 0)
      return { invocation, fields, measure: undefined, prepared: undefined };
    const cheap = boundPromptWork(batch, fields, limits, bounds);
    if (cheap.length > 0) throw BadRequestError.fromProblems(cheap);
    const prepared = await engine.prepare(batch, { signal });
    const budgetProblems = checkTokenBudget(prepared.measure, fields, limits);
    if (budgetProblems.length > 0) throw BadRequestError.fromProblems(budgetProblems);
    return { invocation, fields, measure: prepared.measure, prepared };
  } catch (error) {
    if (error instanceof InvalidDecisionError)
      throw BadRequestError.fromProblems(engineProblems(error, fields));
    throw error;
  }
}
