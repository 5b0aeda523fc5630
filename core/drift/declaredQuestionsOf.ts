import type { Policy } from "../policy/Policy.js";
import type { DeclaredQuestion } from "./measureDrift.js";

/** A policy's questions with their options as the model's distributions name them (labels; levels `0`…; `true`/`false`). */
export function declaredQuestionsOf(policy: Pick<Policy, "questions">): DeclaredQuestion[] {
  return policy.questions.map((question) => ({ id: question.id, options: [...question.labels] }));
}
