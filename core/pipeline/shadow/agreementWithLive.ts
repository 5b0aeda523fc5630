import type { ShadowResult } from "../../../contract/outcome/ShadowRecordSchema.js";
import type { Outcome } from "../../outcomes/index.js";

/** How a candidate's result compares with the live outcome of the same item (the shadow metrics). */
export interface LiveAgreement {
  /** Questions both answered. */
  questions: number;
  /** Of those, the ones whose standing answers are equal. */
  agreed: number;
  /** Whether the candidate's status differs from the live outcome's. */
  statusChanged: boolean;
}

/**
 * Compares a candidate's result with the live outcome as it was written (before any review): per
 * question both answered, whether the standing answers are equal — as text, so that a level 3 and
 * "3", or true and "yes", are one answer, as `decisions shadow report` counts agreement — and
 * whether the status changed. Pure.
 */
export function agreementWithLive(
  live: Pick<Outcome, "status" | "answers">,
  result: ShadowResult,
): LiveAgreement {
  let questions = 0;
  let agreed = 0;
  for (const [qid, answer] of Object.entries(live.answers ?? {})) {
    const candidate = result.answers?.[qid];
    if (candidate === undefined) continue;
    questions += 1;
    if (asText(answer.answer) === asText(candidate.answer)) agreed += 1;
  }
  return { questions, agreed, statusChanged: live.status !== result.status };
}

function asText(value: string | number | boolean): string {
  if (value === true) return "yes";
  if (value === false) return "no";
  return String(value);
}
