import { InvalidDecisionError, ReservedTokenError, TooManyOptionsError } from "../errors.js";
import type { DecisionBatch } from "../types.js";
import { findReservedToken } from "./findReservedToken.js";
import type { PromptVocabulary } from "./PromptVocabulary.js";
import { PROMPT_LAYOUTS } from "./renderPrompt.js";

const LAYOUT_CHOICES: readonly string[] = [...PROMPT_LAYOUTS, "auto"];

/**
 * Every reason a batch cannot be scored, in request order — the one place these checks live:
 * at least one question; unique question ids; per question 2 to `maxOptions` options with unique
 * ids; a temperature, when given, positive and finite; a layout, when given, one of the layouts
 * or `auto`; `debias`, when given, `cyclic`, and its rotations an integer from 1 to the number of
 * options (only with `debias`); no control text (asked of the vocabulary)
 * in the state, a question or an option description. Paths are in the engine's terms
 * (`["questions", 1, "options", 0, "id"]`).
 *
 * @param stateText the state as the prompt shows it (checked for control text).
 * @returns the problems found; empty when the batch can be scored.
 */
export function checkDecisionBatch(
  batch: DecisionBatch,
  stateText: string,
  vocabulary: PromptVocabulary,
  maxOptions: number,
): InvalidDecisionError[] {
  const problems: InvalidDecisionError[] = [];
  if (batch.questions.length === 0) {
    problems.push(new InvalidDecisionError(["questions"], "at least one question is needed"));
  }
  const stateToken = findReservedToken(vocabulary, stateText);
  if (stateToken !== undefined) problems.push(new ReservedTokenError(["state"], stateToken));
  const questionIds = new Set<string>();
  for (const [index, question] of batch.questions.entries()) {
    const path = ["questions", index] as const;
    if (questionIds.has(question.id)) {
      problems.push(new InvalidDecisionError([...path, "id"], `duplicate id ${JSON.stringify(question.id)}`));
    }
    questionIds.add(question.id);
    const count = question.options.length;
    if (count < 2) {
      problems.push(
        new InvalidDecisionError([...path, "options"], `at least 2 options are needed, got ${count}`),
      );
    } else if (count > maxOptions) {
      problems.push(new TooManyOptionsError([...path, "options"], count, maxOptions));
    }
    const optionIds = new Set<string>();
    for (const [optionIndex, option] of question.options.entries()) {
      const optionPath = [...path, "options", optionIndex] as const;
      if (optionIds.has(option.id)) {
        problems.push(
          new InvalidDecisionError([...optionPath, "id"], `duplicate id ${JSON.stringify(option.id)}`),
        );
      }
      optionIds.add(option.id);
      const token = findReservedToken(vocabulary, option.description);
      if (token !== undefined) problems.push(new ReservedTokenError([...optionPath, "description"], token));
    }
    const questionToken = findReservedToken(vocabulary, question.question);
    if (questionToken !== undefined)
      problems.push(new ReservedTokenError([...path, "question"], questionToken));
    const temperature = question.temperature ?? 1;
    if (!(temperature > 0) || !Number.isFinite(temperature)) {
      problems.push(
        new InvalidDecisionError(
          [...path, "temperature"],
          `must be a positive finite number, got ${temperature}`,
        ),
      );
    }
    if (question.layout !== undefined && !LAYOUT_CHOICES.includes(question.layout)) {
      problems.push(
        new InvalidDecisionError(
          [...path, "layout"],
          `must be one of ${LAYOUT_CHOICES.join(", ")}, got ${JSON.stringify(question.layout)}`,
        ),
      );
    }
    if (question.debias !== undefined && question.debias !== "cyclic") {
      problems.push(
        new InvalidDecisionError(
          [...path, "debias"],
          `must be "cyclic", got ${JSON.stringify(question.debias)}`,
        ),
      );
    }
    const rotations = question.debiasRotations;
    if (rotations !== undefined) {
      if (question.debias === undefined) {
        problems.push(new InvalidDecisionError([...path, "debiasRotations"], 'needs debias "cyclic"'));
      } else if (!Number.isInteger(rotations) || rotations < 1 || rotations > Math.max(count, 1)) {
        problems.push(
          new InvalidDecisionError(
            [...path, "debiasRotations"],
            `must be an integer from 1 to the number of options (${count}), got ${rotations}`,
          ),
        );
      }
    }
  }
  return problems;
}
