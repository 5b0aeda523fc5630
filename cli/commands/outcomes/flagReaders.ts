/**
 * The readers of `decisions outcomes`' flag values: each checks one flag's text and returns it typed,
 * or throws a {@link UsageError} that names the flag, what it takes and what it got.
 */
import { isReviewOrder, REVIEW_ORDERS, type ReviewOrder } from "../../../contract/outcome/reviewOrder.js";
import { STORED_OUTCOME_STATUSES, type StoredOutcomeStatus } from "../../../core/outcomes/index.js";
import type { ExportFormat, RedecideSelector } from "../../../operations/outcomes/index.js";
import { UsageError } from "../../errors.js";
import { readTimeFlag } from "../../readTimeFlag.js";
import { DEFAULT_LIMIT } from "./constants.js";
import type { OutcomesValues } from "./flags.js";
import { OUTCOMES_USAGE as USAGE } from "./usage.js";

/**
 * An ISO-8601 time (--since, --until) within years 1970 to 9999, normalised to `toISOString()`
 * (`readTimeFlag`).
 * @throws UsageError when the flag is missing or its text is not such a time.
 */
export function readTime(text: string | undefined, flag: string): string {
  if (text === undefined) throw new UsageError(`${flag} is required`, { usage: USAGE });
  return readTimeFlag(flag, text, USAGE).iso;
}

/**
 * --wait: whole seconds from 1 to 3600.
 * @throws UsageError otherwise.
 */
export function readWait(text: string): number {
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < 1 || value > 3600)
    throw new UsageError(`--wait must be whole seconds from 1 to 3600, got "${text}"`, { usage: USAGE });
  return value;
}

/**
 * The answers of `review`'s --set flags (`<question>=<answer>`), by question id.
 * @throws UsageError when none is given, one has no question, or a question is given twice.
 */
export function readAnswers(sets: readonly string[]): Record<string, string> {
  if (sets.length === 0)
    throw new UsageError("give at least one --set <question>=<answer>", { usage: USAGE });
  const answers: Record<string, string> = {};
  for (const set of sets) {
    const equals = set.indexOf("=");
    if (equals <= 0) throw new UsageError(`--set wants <question>=<answer>, got "${set}"`, { usage: USAGE });
    const qid = set.slice(0, equals);
    if (Object.hasOwn(answers, qid)) throw new UsageError(`--set ${qid} is given twice`, { usage: USAGE });
    answers[qid] = set.slice(equals + 1);
  }
  return answers;
}

/**
 * --status: one of the stored outcome statuses, or undefined when not given.
 * @throws UsageError for any other text.
 */
export function readStatus(text: string | undefined): StoredOutcomeStatus | undefined {
  if (text === undefined) return undefined;
  if ((STORED_OUTCOME_STATUSES as readonly string[]).includes(text)) return text as StoredOutcomeStatus;
  throw new UsageError(`--status must be one of ${STORED_OUTCOME_STATUSES.join(", ")}, got "${text}"`, {
    usage: USAGE,
  });
}

/**
 * --limit: an integer from 1 to 10000; default {@link DEFAULT_LIMIT}.
 * @throws UsageError otherwise.
 */
export function readLimit(text: string | undefined): number {
  if (text === undefined) return DEFAULT_LIMIT;
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < 1 || value > 10_000) {
    throw new UsageError(`--limit must be an integer from 1 to 10000, got "${text}"`, { usage: USAGE });
  }
  return value;
}

/**
 * --order: one of the review orders; default `newest`.
 * @throws UsageError for any other text.
 */
export function readOrder(text: string | undefined): ReviewOrder {
  if (text === undefined) return "newest";
  if (!isReviewOrder(text))
    throw new UsageError(`--order takes ${REVIEW_ORDERS.join(", ")}; got "${text}"`, { usage: USAGE });
  return text;
}

/**
 * A count flag (--window): an integer from 1 to 100000, or undefined when not given.
 * @throws UsageError otherwise, naming `flag`.
 */
export function readPositive(flag: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const value = Number(text);
  if (!/^\d+$/.test(text) || value < 1 || value > 100_000)
    throw new UsageError(`${flag} must be an integer from 1 to 100000, got "${text}"`, { usage: USAGE });
  return value;
}

/**
 * `export`'s format: `labelled` with --labelled, else --format (`jsonl`, the default, or `csv`).
 * @throws UsageError for another format, or --labelled with --format other than jsonl.
 */
export function readFormat(text: string | undefined, labelled: boolean): ExportFormat {
  if (labelled) {
    if (text !== undefined && text !== "jsonl")
      throw new UsageError("--labelled writes JSON Lines", { usage: USAGE });
    return "labelled";
  }
  if (text === undefined || text === "jsonl" || text === "csv") return text ?? "jsonl";
  throw new UsageError(`--format must be jsonl or csv, got "${text}"`, { usage: USAGE });
}

/**
 * The model or policy version a redecide selects by, when --model-sha256 or --policy-version is
 * given (the model's hash in lower case); undefined when neither is.
 * @throws UsageError when --model-sha256 is not 64 hex digits or --policy-version is empty.
 */
export function selectorOf(values: OutcomesValues): RedecideSelector | undefined {
  const model = values["model-sha256"];
  const version = values["policy-version"];
  if (model === undefined && version === undefined) return undefined;
  if (model !== undefined && !/^[0-9a-fA-F]{64}$/.test(model))
    throw new UsageError(`--model-sha256 must be 64 hex digits, got "${model}"`, { usage: USAGE });
  if (version === "") throw new UsageError("--policy-version must not be empty", { usage: USAGE });
  return {
    ...(model === undefined ? {} : { modelSha256: model.toLowerCase() }),
    ...(version === undefined ? {} : { policyVersion: version }),
  };
}
