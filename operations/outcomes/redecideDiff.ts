import type { StoredOutcome } from "../../core/outcomes/index.js";

/** An answer value as outcomes hold it. */
type AnswerValue = string | number | boolean;

/** One change a redecide made to an item. */
export interface RedecideChange {
  id: string;
  old: AnswerValue | string;
  new: AnswerValue | string;
}

/**
 * What a redecide changed: how many items it decided again, how many changed status or an answer,
 * and per question and for the status every change (id, old, new), so an owner can act on the items
 * that changed. Written by `decisions outcomes redecide --diff <file>`.
 */
export interface RedecideDiff {
  policy: string;
  /** What was re-decided: `{ model_sha256 }` or `{ policy_version }` (or a status range). */
  selected: Record<string, string>;
  /** Items sent to be decided again. */
  sent: number;
  /** Of them, those with a new outcome (read within the wait). */
  decided_again: number;
  /** Sent, but no new outcome read within the wait: their ids. */
  pending: string[];
  /** Items a person reviewed, kept as they were (not sent): their ids. */
  kept_reviewed: string[];
  /** Items decided again whose status changed, or at least one answer. */
  status_changed: number;
  answer_changed: number;
  /** Every status change. */
  status_changes: RedecideChange[];
  /** Per question: how many answers changed, and each change. */
  questions: Record<string, { changed: number; changes: RedecideChange[] }>;
  /** What decided the new outcomes (model and policy), as the first new outcome records it. */
  decided_by?: { model_sha256?: string; policy_version?: string | number; policy_sha256?: string };
}

/** Options of {@link diffRedecided}. */
export interface DiffRedecidedOptions {
  policy: string;
  selected: Record<string, string>;
  /** Each item sent: the outcome read before, and the new one (undefined when none came). */
  pairs: ReadonlyArray<{ before: StoredOutcome; after: StoredOutcome | undefined }>;
  /** Outcomes a person reviewed that were kept. */
  keptReviewed?: readonly StoredOutcome[];
}

/**
 * The diff of a redecide: the outcome each item had before against the one that replaced it,
 * status and answer by answer (answers compared as text: a level 3 and "3" are the same). Pure.
 */
export function diffRedecided(options: DiffRedecidedOptions): RedecideDiff {
  const diff: RedecideDiff = {
    policy: options.policy,
    selected: options.selected,
    sent: options.pairs.length,
    decided_again: 0,
    pending: [],
    kept_reviewed: (options.keptReviewed ?? []).map((outcome) => outcome.id),
    status_changed: 0,
    answer_changed: 0,
    status_changes: [],
    questions: {},
  };
  for (const { before, after } of options.pairs) {
    if (after === undefined) {
      diff.pending.push(before.id);
      continue;
    }
    diff.decided_again += 1;
    if (diff.decided_by === undefined)
      diff.decided_by = {
        ...(after.model_sha256 === undefined ? {} : { model_sha256: after.model_sha256 }),
        ...(after.policy_version === undefined ? {} : { policy_version: after.policy_version }),
        ...(after.policy_sha256 === undefined ? {} : { policy_sha256: after.policy_sha256 }),
      };
    if (before.status !== after.status) {
      diff.status_changed += 1;
      diff.status_changes.push({ id: before.id, old: before.status, new: after.status });
    }
    let changed = false;
    const qids = new Set([...Object.keys(before.answers ?? {}), ...Object.keys(after.answers ?? {})]);
    for (const qid of [...qids].sort()) {
      const old = before.answers?.[qid]?.answer;
      const now = after.answers?.[qid]?.answer;
      if (old !== undefined && now !== undefined && String(old) === String(now)) continue;
      changed = true;
      const question = diff.questions[qid] ?? { changed: 0, changes: [] };
      question.changed += 1;
      question.changes.push({ id: before.id, old: old ?? "(none)", new: now ?? "(none)" });
      diff.questions[qid] = question;
    }
    if (changed) diff.answer_changed += 1;
  }
  return diff;
}

/** The diff as lines for a person: the counts, then per question the changes (at most `listed` each). */
export function formatRedecideDiff(diff: RedecideDiff, listed = 20): string[] {
  const lines = [
    `decided again ${diff.decided_again} of ${diff.sent} sent (${Object.entries(diff.selected)
      .map(([key, value]) => `${key} ${value}`)
      .join(", ")}); ${diff.status_changed} changed status, ${diff.answer_changed} changed an answer` +
      (diff.kept_reviewed.length > 0 ? `; ${diff.kept_reviewed.length} reviewed by a person kept` : "") +
      (diff.pending.length > 0 ? `; ${diff.pending.length} not decided again yet` : ""),
  ];
  const show = (label: string, changes: readonly RedecideChange[]) => {
    for (const change of changes.slice(0, listed))
      lines.push(`  ${label} ${change.id}: ${String(change.old)} → ${String(change.new)}`);
    if (changes.length > listed) lines.push(`  … ${changes.length - listed} more in the diff file`);
  };
  if (diff.status_changes.length > 0) {
    lines.push(`status: ${diff.status_changed} changed`);
    show("status", diff.status_changes);
  }
  for (const [qid, question] of Object.entries(diff.questions)) {
    lines.push(`question ${qid}: ${question.changed} changed`);
    show(qid, question.changes);
  }
  return lines;
}
