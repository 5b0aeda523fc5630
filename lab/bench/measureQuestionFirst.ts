import type {
  DecisionQuestion,
  DecisionResult,
  DecisionState,
  PromptLayout,
} from "../../adapter/engine/types.js";
import { sum, timed } from "../../evaluation/metrics/statistics.js";
import type { BenchContext, Figure } from "./BenchContext.js";

/** A single-question routing policy with 20 options: the batch-classification case. */
export const ROUTING_QUESTION: DecisionQuestion = {
  id: "queue",
  question: "Which support queue should handle this item? Pick the single best match.",
  options: [
    "Billing: charges, refunds, invoices and payment methods",
    "Accounts: sign-in, passwords, two-factor authentication and profile data",
    "Orders: placing, changing or cancelling an order",
    "Shipping: delivery dates, carriers, tracking and lost parcels",
    "Returns: return labels, exchanges and refund status after a return",
    "Technical support: crashes, errors and the app not working",
    "Performance: slowness, timeouts and outages",
    "Security: suspicious activity, phishing and compromised accounts",
    "Privacy: data export, deletion requests and consent",
    "Legal: contracts, terms of service and legal notices",
    "Sales: pricing questions, quotes and upgrades",
    "Partnerships: resellers, affiliates and integrations",
    "Product feedback: feature requests and suggestions",
    "Accessibility: assistive technology and accessibility problems",
    "Localisation: translations, languages and regional settings",
    "Enterprise: single sign-on, provisioning and enterprise contracts",
    "Developer support: API keys, webhooks and SDKs",
    "Compliance: audits, certifications and regulatory questions",
    "Human resources: jobs, applications and employment",
    "Other: anything that fits no queue above",
  ].map((description, index) => ({ id: `queue-${index + 1}`, description })),
};

/**
 * P8: one question with 20 options asked of many items (a single-question batch-classification
 * policy), in `question-first-v1` ÷ `direct-options-v1`: time and evaluated tokens per item, side by
 * side in one run. Each layout scores all items in a block of its own, after a warm-up item, so
 * that each runs in its steady state (question-first: the question prefix cached; state-first: the
 * preamble cached); blocks alternate over `rounds`.
 */
export async function measureQuestionFirst(
  context: BenchContext,
  states: readonly DecisionState[],
  rounds: number,
): Promise<Figure> {
  const { scorer } = context;
  const layouts: PromptLayout[] = ["direct-options-v1", "question-first-v1"];
  const ms: Record<PromptLayout, number[]> = { "direct-options-v1": [], "question-first-v1": [] };
  const evaluated: Record<PromptLayout, number[]> = { "direct-options-v1": [], "question-first-v1": [] };
  const answers: Record<PromptLayout, string[]> = { "direct-options-v1": [], "question-first-v1": [] };
  for (let round = 0; round < rounds; round += 1) {
    for (const layout of round % 2 === 0 ? layouts : [...layouts].reverse()) {
      const question = { ...ROUTING_QUESTION, layout };
      await scorer.clearCache();
      // Warm-up: the preamble (state first) or the question prefix (question first) becomes cached.
      await scorer.scoreBatch({ state: "warm-up item", questions: [question] });
      for (const state of states) {
        const { value, ms: elapsed } = await timed(() => scorer.scoreBatch({ state, questions: [question] }));
        const result = value.results[0] as DecisionResult;
        ms[layout].push(elapsed);
        evaluated[layout].push(result.evaluated_tokens);
        if (round === 0) answers[layout].push(result.option_ids[argmax(result.probabilities)] ?? "");
      }
      context.log(
        `P8 round ${round + 1} ${layout}: ${(sum(ms[layout].slice(-states.length)) / states.length).toFixed(0)} ms per item`,
      );
    }
  }
  const ratio = sum(ms["question-first-v1"]) / sum(ms["direct-options-v1"]);
  const tokensPerItem = (layout: PromptLayout): number => sum(evaluated[layout]) / evaluated[layout].length;
  const tokenRatio = tokensPerItem("direct-options-v1") / tokensPerItem("question-first-v1");
  const agreement =
    answers["question-first-v1"].filter((answer, index) => answer === answers["direct-options-v1"][index])
      .length / states.length;
  return {
    label: "per-item time, question-first ÷ state-first (one 20-option question)",
    value: ratio,
    goal: "≤ 0.4 (≥ 2.5× less time) and ≥ 3× fewer tokens",
    met: ratio <= 0.4 && tokenRatio >= 3,
    details: {
      items: states.length,
      rounds,
      state_first_ms_per_item: sum(ms["direct-options-v1"]) / ms["direct-options-v1"].length,
      question_first_ms_per_item: sum(ms["question-first-v1"]) / ms["question-first-v1"].length,
      state_first_tokens_per_item: tokensPerItem("direct-options-v1"),
      question_first_tokens_per_item: tokensPerItem("question-first-v1"),
      fewer_tokens: tokenRatio,
      same_answer_share: agreement,
      state_first_ms: ms["direct-options-v1"],
      question_first_ms: ms["question-first-v1"],
    },
  };
}

/**
 * Debiasing cost: one question on a cached state answered with `debias: "cyclic"` over all its
 * rotations ÷ the same question once; time and evaluated tokens, interleaved over `rounds`.
 */
export async function measureDebiasCost(
  context: BenchContext,
  state: DecisionState,
  question: DecisionQuestion,
  rounds: number,
): Promise<Figure> {
  const { scorer } = context;
  const plainMs: number[] = [];
  const debiasedMs: number[] = [];
  let plainTokens = 0;
  let debiasedTokens = 0;
  let sensitivity = 0;
  const rotations = question.options.length;
  for (let round = 0; round < rounds; round += 1) {
    await scorer.clearCache();
    await scorer.scoreBatch({ state, questions: [{ ...question, id: "warm-up" }] });
    const plain = await timed(() => scorer.scoreBatch({ state, questions: [question] }));
    const debiased = await timed(() =>
      scorer.scoreBatch({ state, questions: [{ ...question, debias: "cyclic" }] }),
    );
    plainMs.push(plain.ms);
    debiasedMs.push(debiased.ms);
    plainTokens = (plain.value.results[0] as DecisionResult).evaluated_tokens;
    const result = debiased.value.results[0] as DecisionResult;
    debiasedTokens = result.evaluated_tokens;
    sensitivity = result.debias?.order_sensitivity ?? 0;
    context.log(
      `debias round ${round + 1}: plain ${plain.ms.toFixed(0)} ms, ${rotations} rotations ${debiased.ms.toFixed(0)} ms`,
    );
  }
  const ratio = sum(debiasedMs) / sum(plainMs);
  return {
    label: `${rotations} cyclic rotations ÷ one, per question on a cached state`,
    value: ratio,
    goal: `≈ ${rotations} (k question parts, the state not evaluated again)`,
    met: ratio <= rotations * 1.15,
    details: {
      rotations,
      plain_ms: plainMs,
      debiased_ms: debiasedMs,
      plain_evaluated_tokens: plainTokens,
      debiased_evaluated_tokens: debiasedTokens,
      token_ratio: debiasedTokens / plainTokens,
      order_sensitivity: sensitivity,
    },
  };
}

function argmax(values: readonly number[]): number {
  let best = 0;
  for (let index = 1; index < values.length; index += 1) {
    if ((values[index] ?? 0) > (values[best] ?? 0)) best = index;
  }
  return best;
}
