import type { Policy } from "../policy/index.js";

/**
 * The System One request body for one group, built as text so the producer's state text passes
 * unchanged (`JSON.parse` + `JSON.stringify` would move integer-like keys first and turn `2.0`
 * into `2`, changing the prompt): `{"state": <state text>, "questions": <the policy's questions>}`.
 *
 * @param stateText - a complete JSON value, as cut from the SQS body.
 */
export function buildSystemOneBody(policy: Policy, stateText: string): string {
  return `{"state": ${stateText}, "questions": ${JSON.stringify(policy.systemOneQuestions())}}`;
}
