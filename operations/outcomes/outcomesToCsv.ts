import type { StoredOutcome } from "../../core/outcomes/index.js";

const LEADING = ["policy", "id", "status", "updated_at", "created_at", "reason"] as const;
const TRAILING = [
  "model",
  "policy_version",
  "reviewed_by",
  "reviewed_at",
  "state_sha256",
  "state_preview",
] as const;

/**
 * Outcomes as CSV (RFC 4180: comma-separated, CRLF line ends, fields with a comma, quote or line
 * break quoted, quotes doubled), one row per outcome under a header. Columns: policy, id, status,
 * updated_at, created_at, reason; per question (in order of first appearance, `questionOrder`
 * first) `<q>`, `<q>.probability`, `<q>.source`, `<q>.model_answer`; then model, policy_version,
 * reviewed_by, reviewed_at, state_sha256, state_preview.
 *
 * Text cells are inert in a spreadsheet (OWASP's CSV-injection guidance): one that begins with
 * `=`, `+`, `-`, `@`, a tab or a carriage return — which Excel, LibreOffice and Google Sheets read
 * as a formula — is written with a leading `'` and quoted, so `=HYPERLINK("…")` opens as the text
 * `'=HYPERLINK("…")` and never as a link or a call. Numbers (probabilities) are written as they are.
 *
 * Hand-written: a dozen lines of quoting, and no CSV package is installed.
 */
export function outcomesToCsv(
  outcomes: readonly StoredOutcome[],
  questionOrder: readonly string[] = [],
): string {
  const questions = [...questionOrder];
  for (const outcome of outcomes) {
    for (const qid of Object.keys(outcome.answers ?? {})) if (!questions.includes(qid)) questions.push(qid);
  }
  const header = [
    ...LEADING,
    ...questions.flatMap((q) => [q, `${q}.probability`, `${q}.source`, `${q}.model_answer`]),
    ...TRAILING,
  ];
  const rows = outcomes.map((outcome) => [
    ...LEADING.map((field) => outcome[field]),
    ...questions.flatMap((q) => {
      const answer = outcome.answers?.[q];
      return [answer?.answer, answer?.probability, answer?.source, answer?.model_answer];
    }),
    outcome.model,
    outcome.policy_version,
    outcome.review?.by,
    outcome.review?.at,
    outcome.state_sha256,
    outcome.state_preview,
  ]);
  return [header, ...rows].map((row) => `${row.map(csvField).join(",")}\r\n`).join("");
}

/** A cell's first character that a spreadsheet takes as the start of a formula. */
const FORMULA_START = /^[=+\-@\t\r]/;

function csvField(value: string | number | boolean | undefined): string {
  if (value === undefined) return "";
  if (typeof value === "string" && FORMULA_START.test(value)) return `"'${value.replaceAll('"', '""')}"`;
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}
