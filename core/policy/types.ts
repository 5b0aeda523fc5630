/**
 * Types shared by the policy module: a compiled policy's parts, the model answers `applyPolicy` reads,
 * and the decision it returns.
 */
import type { FactType } from "./policySchema.js";

/** An answer value: a choice label, a score level, or noul's yes (true) / no (false). */
export type AnswerValue = string | number | boolean;

/** The optional endpoint fields of a question: its prompt layout and option-order debiasing. */
export interface EndpointQuestionFields {
  layout?: "direct-options-v1" | "question-first-v1" | "auto";
  debias?: "cyclic";
  debias_rotations?: number;
}

/** A question as the policy asks it, with its threshold, fallback and temperature. */
export type PolicyQuestion = (
  | {
      id: string;
      type: "choice";
      instructions: string;
      criteria: Record<string, string | null> | string[];
      /** The labels offered, in order. */
      labels: string[];
      threshold: number;
      fallback: string;
      temperature?: number;
    }
  | {
      id: string;
      type: "score";
      instructions: string;
      criteria: string[];
      /** The levels as strings ("0", "1", …), in order. */
      labels: string[];
      threshold: number;
      fallback: number;
      temperature?: number;
    }
  | {
      id: string;
      type: "noul";
      instructions: string;
      criteria?: { true?: string; false?: string };
      /** Always `["true", "false"]`: the keys of a noul answer's distribution. */
      labels: string[];
      threshold: number;
      fallback: boolean;
      temperature?: number;
    }
) &
  EndpointQuestionFields;

/** A question in System One form, as sent to the endpoint (with the endpoint fields the policy sets). */
export type SystemOneQuestionForm = (
  | { type: "choice"; instructions: string; criteria: Record<string, string | null> | string[] }
  | { type: "score"; instructions: string; criteria: string[] }
  | { type: "noul"; instructions: string; criteria?: { true?: string; false?: string } }
) &
  EndpointQuestionFields;

/** A declared fact, normalised (the short form `name: string` becomes `{type: "string", required: false}`). */
export interface FactDeclaration {
  type: FactType;
  required: boolean;
  enum?: string[];
  default?: string | number | boolean | string[];
  description?: string;
}

/** A rule as compiled (its CEL kept inside the policy). */
export interface PolicyRule {
  name: string;
  description?: string;
  /** The CEL source of the condition. */
  when: string;
  effect: RuleEffect;
}

/** What a rule does when its condition holds. */
export type RuleEffect =
  | { kind: "set"; answers: Record<string, AnswerValue> }
  | { kind: "review"; reason: string }
  | { kind: "reject"; reason: string };

/** An EventBridge mapping as declared (CEL sources; compiled inside the policy). */
export interface PolicyEventMapping {
  source: string;
  detailType: string;
  description?: string;
  id: string;
  state: string;
  facts?: string;
}

/**
 * A model answer as the System One response gives it. Structurally the wire module's
 * `SystemOneAnswer`; `applyPolicy` reads only `probabilities` (choice, score) or `noul`, and recomputes
 * the chosen answer, confidence and expected score after the temperature.
 */
export type ModelAnswer =
  | { type: "choice"; choice?: string; confidence?: number; probabilities: Record<string, number> }
  | {
      type: "score";
      score?: number;
      confidence?: number;
      legend?: string[];
      probabilities: Record<string, number>;
    }
  | { type: "noul"; noul: number };

/** Where an outcome's answer came from. */
export type AnswerSource = "model" | "rule" | "fallback";

/** One question's answer in a decision. */
export interface DecidedAnswer {
  /** The answer that stands: label, level, or true/false. */
  answer: AnswerValue;
  /**
   * The calibrated probability of the model's own answer: the number compared with `threshold`
   * (for noul max(p, 1 − p)). It belongs to `model_answer` when a rule or the fallback replaced it.
   */
  probability: number;
  /** The full calibrated distribution: label, level ("0", …) or "true"/"false" → probability. */
  distribution: Record<string, number>;
  /** The question's threshold. */
  threshold: number;
  /** Score questions: the calibrated expected level Σ i·p_i. */
  score?: number;
  source: AnswerSource;
  /** The rule that set this answer or forced its fallback. */
  rule?: string;
  /** The model's own answer, kept when a rule or the fallback replaced it. */
  model_answer?: AnswerValue;
}

/** A rule whose condition held, in the order they fired. */
export interface RuleFired {
  name: string;
  effect: "set" | "review" | "reject";
  /** The review or reject reason. */
  reason?: string;
  /** The answers a set rule wrote. */
  set?: Record<string, AnswerValue>;
}

/** The status of a decision; see policies/README.md for the precedence. */
export type DecisionStatus = "decided" | "fallback" | "overridden" | "rejected";

/** What {@link applyPolicy} returns: one answer per question, the rules that fired, and a status. */
export interface PolicyDecision {
  status: DecisionStatus;
  /** Why, for `rejected` and `fallback`. */
  reason?: string;
  answers: Record<string, DecidedAnswer>;
  rules_fired: RuleFired[];
}

/** A JSON value (what a work item's state may be). */
export type JsonValue = string | number | boolean | null | JsonValue[] | { [key: string]: JsonValue };

/** A work item (the SQS message body, or what an event mapping produces). */
export interface WorkItem {
  id: string;
  policy: string;
  state: JsonValue;
  facts?: Record<string, JsonValue>;
  submitted_at?: string;
}

/** The result of {@link checkFacts}. */
export type FactsCheck =
  | { ok: true; facts: Record<string, unknown> }
  | {
      ok: false;
      /** Every mismatch, `path: message`, joined with "; ". */
      reason: string;
      /** The path of the first mismatch inside the facts. */
      path: (string | number)[];
      /** Every mismatch. */
      issues: { path: (string | number)[]; message: string }[];
    };

/** Where a problem is: a field path, and optionally its key (not value) or a character of a CEL value. */
export type ReportProblem = (
  path: (string | number)[],
  message: string,
  where?: { key?: boolean; celIndex?: number },
) => void;
