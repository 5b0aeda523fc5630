/**
 * Fabricated model answers and small policies for the policy tests (no model involved).
 */

import type { ModelAnswer, Policy } from "../../../core/policy/index.js";
import { parsePolicy } from "../../../core/policy/index.js";

/** A choice answer with these probabilities (the most probable label as `choice`). */
export function choice(probabilities: Record<string, number>): ModelAnswer {
  const [best = ""] = Object.entries(probabilities).sort((a, b) => b[1] - a[1])[0] ?? [];
  return { type: "choice", choice: best, confidence: probabilities[best] ?? 0, probabilities };
}

/** A score answer from per-level probabilities. */
export function score(levels: number[]): ModelAnswer {
  const probabilities = Object.fromEntries(levels.map((p, level) => [String(level), p]));
  return {
    type: "score",
    score: levels.reduce((sum, p, level) => sum + level * p, 0),
    confidence: Math.max(...levels),
    legend: levels.map((_, level) => `level ${level}`),
    probabilities,
  };
}

/** A noul answer with P(yes) = p. */
export function noul(p: number): ModelAnswer {
  return { type: "noul", noul: p };
}

/** A distribution over `labels` giving `top` to `winner` and the rest spread evenly. */
export function peaked(labels: readonly string[], winner: string, top: number): Record<string, number> {
  const rest = (1 - top) / (labels.length - 1);
  return Object.fromEntries(labels.map((label) => [label, label === winner ? top : rest]));
}

/** A policy header and one choice question; `extra` appended as more YAML. */
export function policyText(extra = ""): string {
  return `name: test-policy
version: "1"
description: A policy for tests.
questions:
  route:
    type: choice
    instructions: Which team?
    criteria: [billing, technical, legal]
    threshold: 0.5
    fallback: technical
${extra}`;
}

/** {@link policyText} parsed. */
export function testPolicy(extra = ""): Policy {
  return parsePolicy(policyText(extra), "test-policy.yaml");
}
