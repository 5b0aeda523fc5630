import type { Outcome, OutcomeAnswer } from "../../core/outcomes/index.js";

/** A message the demo found in the dead-letter queue. */
export interface DeadLetter {
  messageId: string;
  /** The first characters of its body. */
  preview: string;
  /** ApproximateReceiveCount as the DLQ reports it. */
  receiveCount: string;
}

/** What the summary reports besides the outcomes. */
export interface DemoSummaryContext {
  /** Messages sent to the queue plus lines given to ingest. */
  sent: number;
  deadLetters: DeadLetter[];
  elapsedMs: number;
  /** The model, as a person reads it (`generated tiny-qwen3 (random weights)`). */
  model: string;
  /** Example rows shown per policy before "… and N more". Default {@link EXAMPLE_ROWS}. */
  maxRowsPerPolicy?: number;
  /** Reasons listed per section (review, rejected) and dead letters shown, before "… and N more". Default {@link LISTED_REASONS}. */
  maxReasons?: number;
}

/** Example rows of outcomes shown per policy by default. */
export const EXAMPLE_ROWS = 2;
/** Reasons (with their counts) listed per section by default. */
export const LISTED_REASONS = 3;

const STATUS_ORDER = ["decided", "overridden", "fallback", "rejected"] as const;
const ID_WIDTH = 22;
const CELL_WIDTH = 26;

/**
 * The demo's readable summary, short enough to read at once (about 40 lines whatever the number of
 * items): per policy the counts by status and a few example outcomes (each question's answer with
 * its probability; `*` the fallback set it, `!` a rule did); then the items sent to human review
 * (status `fallback`) and the rejected ones counted by reason — repeats of one reason (numbers
 * aside: the same check on another line or probability) are one line with their count, an example
 * item and the reason in full, never cut; then the dead-lettered messages. Each cut list says how
 * many it left out; the last line says where to read every item.
 */
export function formatDemoSummary(outcomes: readonly Outcome[], context: DemoSummaryContext): string {
  const limit = context.maxRowsPerPolicy ?? EXAMPLE_ROWS;
  const reasons = context.maxReasons ?? LISTED_REASONS;
  const seconds = (context.elapsedMs / 1000).toFixed(1);
  const out: string[] = [
    `Summary: ${context.sent} items sent, ${outcomes.length} outcomes, ${context.deadLetters.length} dead-lettered, ${seconds} s`,
    `Model: ${context.model}`,
    "Answers: label probability; * set by the fallback (below threshold), ! set by a rule.",
  ];
  const byPolicy = groupBy(outcomes, (outcome) => outcome.policy);
  for (const [policy, items] of [...byPolicy].sort(([a], [b]) => a.localeCompare(b))) {
    const counts = STATUS_ORDER.map((status) => ({
      status,
      count: items.filter((item) => item.status === status).length,
    }))
      .filter(({ count }) => count > 0)
      .map(({ status, count }) => `${count} ${status}`);
    out.push(
      "",
      `${policy} — ${items.length} ${items.length === 1 ? "item" : "items"}: ${counts.join(", ")}`,
    );
    const questions = [...new Set(items.flatMap((item) => Object.keys(item.answers ?? {})))];
    const answered = items.filter((item) => item.status !== "rejected").sort(byKey);
    if (answered.length === 0 || questions.length === 0) continue;
    const header = questions.map((question) => cell(question, CELL_WIDTH)).join(" ");
    out.push(`  ${cell("id", ID_WIDTH)} ${cell("status", 11)} ${header} rules`);
    const rows = answered.map((item) => {
      const answers = questions
        .map((question) => cell(formatAnswer(item.answers?.[question]), CELL_WIDTH))
        .join(" ");
      const rules = item.rules_fired.map((rule) => rule.name).join(", ");
      return { answers: `${cell(item.status, 11)} ${answers} ${rules}`, id: item.id };
    });
    // Examples that differ first: a batch repeats its rows, and three copies of one row show little.
    const distinct = rows.filter(
      (row, index) => rows.findIndex((other) => other.answers === row.answers) === index,
    );
    const examples = [...distinct, ...rows.filter((row) => !distinct.includes(row))].slice(0, limit);
    for (const row of examples) out.push(`  ${cell(row.id, ID_WIDTH)} ${row.answers}`.trimEnd());
    if (answered.length > limit) out.push(`  … and ${answered.length - limit} more answered`);
  }
  const review = outcomes.filter((outcome) => outcome.status === "fallback").sort(byKey);
  out.push(
    "",
    `Sent to human review (status fallback): ${review.length}${review.length > 0 ? ", by reason" : ""}`,
  );
  out.push(...byReason(review, "below threshold", reasons));
  const rejected = outcomes.filter((outcome) => outcome.status === "rejected").sort(byKey);
  out.push("", `Rejected: ${rejected.length}${rejected.length > 0 ? ", by reason" : ""}`);
  out.push(...byReason(rejected, "(no reason recorded)", reasons));
  out.push("", `Dead-lettered: ${context.deadLetters.length}`);
  for (const letter of context.deadLetters.slice(0, reasons)) {
    out.push(`  ${letter.messageId} (received ${letter.receiveCount} times): ${letter.preview}`);
  }
  if (context.deadLetters.length > reasons)
    out.push(`  … and ${context.deadLetters.length - reasons} more (decisions dlq list shows them all)`);
  return `${out.join("\n")}\n`;
}

/**
 * The items' reasons, one line per kind: the count, the first item and its reason in full. Two
 * reasons are of one kind when they differ only in their numbers (a line number, a probability).
 * The most frequent kinds first; past `limit` kinds, one line counts the rest.
 */
function byReason(items: readonly Outcome[], fallback: string, limit: number): string[] {
  const kinds = groupBy(
    items,
    (item) => `${item.policy}\n${(item.reason ?? fallback).replace(/\d+(?:\.\d+)?/g, "#")}`,
  );
  const sorted = [...kinds.values()].sort((a, b) => b.length - a.length);
  const lines = sorted.slice(0, limit).map((group) => {
    const first = group[0] as Outcome;
    const more = group.length > 1 ? ` and ${group.length - 1} like it` : "";
    return `  ${String(group.length).padStart(4)}× ${first.policy}/${first.id}${more}: ${first.reason ?? fallback}`;
  });
  const rest = sorted.slice(limit);
  if (rest.length > 0) {
    const count = rest.reduce((sum, group) => sum + group.length, 0);
    lines.push(`  … and ${count} more item(s) for ${rest.length} other reason(s)`);
  }
  return lines;
}

function byKey(a: Outcome, b: Outcome): number {
  return a.policy.localeCompare(b.policy) || a.id.localeCompare(b.id);
}

function formatAnswer(answer: OutcomeAnswer | undefined): string {
  if (answer === undefined) return "-";
  const mark = answer.source === "fallback" ? "*" : answer.source === "rule" ? "!" : "";
  const value = typeof answer.answer === "boolean" ? (answer.answer ? "yes" : "no") : String(answer.answer);
  return `${value}${mark} ${answer.probability.toFixed(2)}`;
}

function cell(text: string, width: number): string {
  return text.length > width ? `${text.slice(0, width - 1)}…` : text.padEnd(width);
}

function groupBy<T>(items: readonly T[], key: (item: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const item of items) {
    const name = key(item);
    const group = groups.get(name);
    if (group === undefined) groups.set(name, [item]);
    else group.push(item);
  }
  return groups;
}
