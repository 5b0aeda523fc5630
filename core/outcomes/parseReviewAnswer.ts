import type { AnswerValue, PolicyQuestion } from "../policy/index.js";
import { ReviewAnswerError } from "./errors.js";

const YES = new Set(["true", "yes"]);
const NO = new Set(["false", "no"]);

/**
 * A reviewer's answer to one question, as typed on the command line, in the form outcomes store
 * it: a choice question's label (exactly as the policy declares it), a score question's level as
 * a number (`0` … levels − 1), a noul question's `true`/`yes` or `false`/`no` as a boolean.
 *
 * @throws ReviewAnswerError naming the question and what it accepts.
 */
export function parseReviewAnswer(question: PolicyQuestion, text: string): AnswerValue {
  switch (question.type) {
    case "choice":
      if (question.labels.includes(text)) return text;
      throw new ReviewAnswerError(question.id, `"${text}" is not one of ${question.labels.join(", ")}`);
    case "score": {
      if (/^\d+$/.test(text) && question.labels.includes(String(Number(text)))) return Number(text);
      throw new ReviewAnswerError(
        question.id,
        `"${text}" is not a level from 0 to ${question.labels.length - 1} of this score question`,
      );
    }
    case "noul": {
      const word = text.toLowerCase();
      if (YES.has(word)) return true;
      if (NO.has(word)) return false;
      throw new ReviewAnswerError(question.id, `"${text}" is not yes/true or no/false`);
    }
  }
}
