import type { AccuracyEstimate, DecisionComparison, Share } from "../../core/shadow/index.js";

/** Names of the two sides in a printed comparison. */
export interface ComparisonSides {
  /** Default `a`. */
  a?: string;
  /** Default `b`. */
  b?: string;
  /** How to list more disagreeing items, said where a list is cut (`--listed <n>`). Default none said. */
  more?: string;
}

/**
 * A comparison as lines for a person: items compared, status changes and review load, rules that
 * fire on one side only, then per question agreement, moves to and from review, the confidence
 * histograms side by side, accuracy where people answered, and the first disagreements (a cut list
 * says how many it left out). Per question the agreement of the models' own answers comes before
 * that of the answers that stand, and how many of those stood on the fallback.
 * Ids and answers are printed as they are; the caller makes them inert for a terminal.
 */
export function formatComparison(report: DecisionComparison, sides: ComparisonSides = {}): string[] {
  const a = sides.a ?? "a";
  const b = sides.b ?? "b";
  const lines: string[] = [];
  lines.push(
    `${report.sampled} item(s) compared (${a} vs ${b})${report.only_a + report.only_b > 0 ? `; only in ${a}: ${report.only_a}, only in ${b}: ${report.only_b}` : ""}`,
  );
  if (report.sampled === 0) return lines;
  lines.push(
    `status changed on ${pct(report.status.changed)}: to review ${pct(report.status.to_review)}, to automated ${pct(report.status.to_automated)}`,
  );
  for (const [transition, count] of Object.entries(report.status.transitions))
    lines.push(`  ${transition}: ${count}`);
  lines.push(
    `review load (status fallback): ${a} ${pct(report.review_load.a)}, ${b} ${pct(report.review_load.b)}`,
  );
  const differing = report.rules.filter((rule) => rule.only_a + rule.only_b > 0);
  if (differing.length > 0) {
    lines.push("rules firing differently:");
    for (const rule of differing)
      lines.push(
        `  ${rule.name}: only ${a} ${rule.only_a}, only ${b} ${rule.only_b} (fired ${rule.a} / ${rule.b})`,
      );
  }
  for (const [qid, question] of Object.entries(report.questions)) {
    // The models' own answers first: when both sides fell back to one answer, the answers that
    // stand agree although the models agreed on nothing.
    const modelAgreed = Math.round(question.model_agreement * question.compared);
    const onFallback =
      question.review_load.a.count + question.review_load.b.count > 0
        ? `, ${a} ${question.review_load.a.count} and ${b} ${question.review_load.b.count} of them on the fallback`
        : "";
    lines.push(
      `question ${qid}: the models' own answers agree ${percent(question.model_agreement)} (${modelAgreed}/${question.compared}); the answers that stand (after rules and fallbacks) agree ${percent(question.agreement)} (${question.agreed}/${question.compared})${onFallback}`,
    );
    lines.push(
      `  to review ${pct(question.to_review)}, to automated ${pct(question.to_automated)}; review load ${a} ${pct(question.review_load.a)}, ${b} ${pct(question.review_load.b)}`,
    );
    lines.push(
      `  confidence mean ${question.confidence.mean_a.toFixed(3)} → ${question.confidence.mean_b.toFixed(3)}; per bin of ${(1 / question.confidence.bins).toFixed(1)}: ${a} [${question.confidence.a.join(" ")}], ${b} [${question.confidence.b.join(" ")}]`,
    );
    if (question.accuracy !== undefined)
      lines.push(
        `  accuracy on ${question.accuracy.labelled} item(s) a person answered: ${a} ${accuracy(question.accuracy.a)}, ${b} ${accuracy(question.accuracy.b)}`,
      );
    for (const item of question.disagreements)
      lines.push(`  differs: ${item.id}: ${String(item.a)} → ${String(item.b)}`);
    const differing = question.compared - question.agreed;
    if (differing > question.disagreements.length)
      lines.push(
        `  … and ${differing - question.disagreements.length} more differ (the first ${question.disagreements.length} of ${differing} listed${sides.more === undefined ? "" : `; ${sides.more}`})`,
      );
  }
  return lines;
}

function pct(value: Share): string {
  return `${percent(value.share)} (${value.count})`;
}

function percent(share: number): string {
  return `${(share * 100).toFixed(1)}%`;
}

function accuracy(estimate: AccuracyEstimate): string {
  return `${percent(estimate.accuracy)} [${percent(estimate.interval.lower)}, ${percent(estimate.interval.upper)}]`;
}
