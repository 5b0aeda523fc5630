/**
 * The CEL environments policies are compiled in: one per policy for rules (typed by the policy's
 * facts and questions), one shared for event mappings.
 */
import { Environment, type Limits } from "@marcbachmann/cel-js";
import type { FactType } from "./policySchema.js";
import type { PolicyQuestion } from "./types.js";

/**
 * Structural limits for policy expressions: far above any sensible rule, far below what could
 * make one evaluation slow. CEL itself has no I/O and no unbounded loops.
 */
const POLICY_CEL_LIMITS: Partial<Limits> = {
  maxAstNodes: 2000,
  maxDepth: 48,
  maxListElements: 256,
  maxMapEntries: 256,
  maxCallArguments: 16,
};

/** CEL type of each fact type. JSON numbers are CEL doubles. */
const CEL_FACT_TYPES = {
  string: "string",
  number: "double",
  boolean: "bool",
  "string-list": "list<string>",
} as const;

/** CEL type of each question type's answer: a label, a level, yes/no. */
const CEL_ANSWER_TYPES = { choice: "string", score: "double", noul: "bool" } as const;

/** A declared name's kind as the rules see it; `dyn` for a declaration that did not parse. */
export type DeclaredKind<T extends string> = T | "dyn";

/**
 * The environment a policy's rules are checked and evaluated in. Variables (README "CEL"):
 * `facts` (declared facts), `answers` (current answers), `model` (the model's own answers),
 * `confidence` (calibrated probability of the model's answer) and `scores` (expected level of
 * each score question).
 *
 * @param facts fact name → type
 * @param questions question id → type
 */
export function ruleEnvironment(
  facts: Readonly<Record<string, DeclaredKind<FactType>>>,
  questions: Readonly<Record<string, DeclaredKind<PolicyQuestion["type"]>>>,
): Environment {
  const factSchema = mapValues(facts, (type) => (type === "dyn" ? "dyn" : CEL_FACT_TYPES[type]));
  const answerSchema = mapValues(questions, (type) => (type === "dyn" ? "dyn" : CEL_ANSWER_TYPES[type]));
  const confidenceSchema = mapValues(questions, () => "double");
  const scoreSchema = Object.fromEntries(
    Object.entries(questions)
      .filter(([, type]) => type === "score" || type === "dyn")
      .map(([id]) => [id, "double"]),
  );
  return new Environment({ limits: POLICY_CEL_LIMITS })
    .registerVariable({ name: "facts", schema: factSchema, description: "The work item's declared facts." })
    .registerVariable({ name: "answers", schema: answerSchema, description: "The answers as they stand." })
    .registerVariable({ name: "model", schema: answerSchema, description: "The model's own answers." })
    .registerVariable({ name: "confidence", schema: confidenceSchema, description: "P(model's answer)." })
    .registerVariable({
      name: "scores",
      schema: scoreSchema,
      description: "Expected level of score questions.",
    });
}

function mapValues<T, U>(record: Readonly<Record<string, T>>, map: (value: T) => U): Record<string, U> {
  return Object.fromEntries(Object.entries(record).map(([key, value]) => [key, map(value)]));
}

/**
 * The environment event mappings are checked and evaluated in: one variable, `event`, the
 * EventBridge event as a `map<string, dyn>`. Mixed literals are allowed so a mapping can build
 * `{"service": event.detail.service, "tags": event.detail.tags}`.
 */
export function eventEnvironment(): Environment {
  return new Environment({ limits: POLICY_CEL_LIMITS, homogeneousAggregateLiterals: false }).registerVariable(
    {
      name: "event",
      type: "map<string, dyn>",
      description: "The EventBridge event.",
    },
  );
}
