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
  /** Rows shown per policy, and review items listed, before "… and N more". Default 20. */
  maxRowsPerPolicy?: number;
}

const STATUS_ORDER = ["decided", "overridden", "fallback", "rejected"] as const;
const ID_WIDTH = 22;
const CELL_WIDTH = 26;

/**
 * The demo's readable summary: per policy the counts by status and a compact table of outcomes
 * (each question's answer with its probability; `*` the fallback set it, `!` a rule did), then the
 * items sent to human review (status `fallback`), the rejected ones with their reasons, and the
 * dead-lettered messages.
 */
export function formatDemoSummary(outcomes: readonly Outcome[], context: DemoSummaryContext): string {
  const limit = context.maxRowsPerPolicy ?? 20;
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
    for (const item of answered.slice(0, limit)) {
      const answers = questions
        .map((question) => cell(formatAnswer(item.answers?.[question]), CELL_WIDTH))
        .join(" ");
      const rules = item.rules_fired.map((rule) => rule.name).join(", ");
      out.push(`  ${cell(item.id, ID_WIDTH)} ${cell(item.status, 11)} ${answers} ${rules}`.trimEnd());
    }
    if (answered.length > limit) out.push(`  … and ${answered.length - limit} more`);
  }
  const review = outcomes.filter((outcome) => outcome.status === "fallback").sort(byKey);
  out.push("", `Sent to human review (status fallback): ${review.length}`);
  for (const item of review.slice(0, limit)) out.push(listed(item, item.reason ?? "below threshold"));
  if (review.length > limit)
    out.push(`  … and ${review.length - limit} more (the by-status index lists them all)`);
  const rejected = outcomes.filter((outcome) => outcome.status === "rejected").sort(byKey);
  out.push("", `Rejected: ${rejected.length}`);
  for (const item of rejected) out.push(listed(item, item.reason ?? "(no reason recorded)"));
  out.push("", `Dead-lettered: ${context.deadLetters.length}`);
  for (const letter of context.deadLetters) {
    out.push(`  ${letter.messageId} (received ${letter.receiveCount} times): ${letter.preview}`);
  }
  return `${out.join("\n")}\n`;
}

function listed(item: Outcome, reason: string): string {
  return `  ${cell(`${item.policy}/${item.id}`, 40)} ${clip(reason, 110)}`;
}

function byKey(a: Outcome, b: Outcome): number {
  return a.policy.localeCompare(b.policy) || a.id.localeCompare(b.id);
}

function clip(text: string, width: number): string {
  return text.length > width ? `${text.slice(0, width - 1)}…` : text;
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
