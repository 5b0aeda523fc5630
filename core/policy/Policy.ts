import type { z } from "zod";
import type { Lane } from "../../contract/lanes/lanes.js";
import type { StoredOutcomeStatus } from "../../contract/outcome/OutcomeSchema.js";
import type {
  EndpointQuestionFields,
  FactDeclaration,
  PolicyEventMapping,
  PolicyQuestion,
  PolicyRule,
  SystemOneQuestionForm,
} from "./types.js";

/** A compiled CEL expression: evaluates over a context, throws on evaluation errors. */
export type CelProgram = (context: Record<string, unknown>) => unknown;

/** A rule with its compiled condition. */
export interface CompiledRule extends PolicyRule {
  condition: CelProgram;
}

/** An event mapping with its compiled expressions. */
export interface CompiledEventMapping extends PolicyEventMapping {
  program: { id: CelProgram; state: CelProgram; facts?: CelProgram };
}

/** What {@link Policy}'s constructor takes; `parsePolicy` builds it. */
export interface PolicyParts {
  name: string;
  version: string;
  description: string;
  /** The file the policy was read from, as given to the loader. */
  file: string;
  /** sha256 (hex) of the file's text (UTF-8). */
  sha256: string;
  questions: PolicyQuestion[];
  facts: Record<string, FactDeclaration>;
  factsSchema: z.ZodType<Record<string, unknown>>;
  rules: CompiledRule[];
  events: CompiledEventMapping[];
  /** `audit_rate`: the fraction of decided items also sent to review as audit items. Default 0. */
  auditRate?: number;
  /** `lane`: where its items go when the producer names none. Default: none declared. */
  lane?: Lane;
  /** `audit_strata`: audit rates by confidence bin (instead of `auditRate`). */
  auditStrata?: readonly AuditStratum[];
  /** The `shadow` section compiled: a candidate asked beside this policy. Default none. */
  shadow?: PolicyShadow;
  /** The `deliver` section: where its outcomes are delivered. Default none. */
  deliver?: readonly DeliveryTarget[];
}

/** One target of a policy's `deliver` section (docs/deliveries.md). */
export interface DeliveryTarget {
  /** The target's name, unique in the policy. */
  name: string;
  /** Where deliveries are POSTed (with `secret`), or undefined for a bus target. */
  url?: string;
  /** The signing secret as written: `env:NAME` or a literal `whsec_…` (url targets). */
  secret?: string;
  /** The EventBridge bus (name or ARN) deliveries are put on, or undefined for a url target. */
  bus?: string;
  /** The statuses whose arrival is delivered. */
  on: readonly StoredOutcomeStatus[];
}

/** One stratum of `audit_strata`: items whose confidence is below `below` (the last: the rest) audited at `rate`. */
export interface AuditStratum {
  below?: number;
  rate: number;
}

/** A policy's `shadow` section, compiled (`compileShadow`). */
export interface PolicyShadow {
  /** The candidate's name (shadow records carry it). */
  candidate: string;
  /** The fraction of items asked of the candidate too (`core/pipeline/shadow/shadowOf`). */
  rate: number;
  /** `candidate`: the deployment's candidate endpoint; `live`: the live model's answer (no second call). */
  endpoint: "candidate" | "live";
  /** The candidate version: this policy with the section's thresholds, temperatures, rules and version. */
  policy: Policy;
}

/**
 * A loaded, compiled decision policy: its questions in order, declared facts, rules (CEL compiled
 * and type-checked once) and event mappings. Immutable; obtain one from `parsePolicy`,
 * `loadPolicyFile` or `loadPolicies`, then pass it to `checkFacts` and `applyPolicy`.
 */
export class Policy {
  readonly name: string;
  readonly version: string;
  readonly description: string;
  readonly file: string;
  readonly sha256: string;
  /** The questions, in the order asked. */
  readonly questions: readonly PolicyQuestion[];
  /** Declared fact name → declaration (normalised). */
  readonly facts: Readonly<Record<string, FactDeclaration>>;
  /** The zod schema work-item facts are checked with (see `checkFacts`). */
  readonly factsSchema: z.ZodType<Record<string, unknown>>;
  /** The rules, in file order. */
  readonly rules: readonly CompiledRule[];
  /** The EventBridge mappings, in file order. */
  readonly events: readonly CompiledEventMapping[];
  /**
   * `audit_rate` (0 to 1): the fraction of the items the model decided that are sent to review
   * as audit items as well (`core/pipeline/auditOf`). 0 when the file sets none.
   */
  readonly auditRate: number;
  /**
   * `audit_strata`: audit rates by confidence bin, in rising `below` order (the last without),
   * used instead of `auditRate` when set (`core/pipeline/auditOf`).
   */
  readonly auditStrata: readonly AuditStratum[] | undefined;
  /** `lane`: the lane its items go to when the producer names none; undefined when the file declares none. */
  readonly lane: Lane | undefined;
  /** The candidate shadowed beside this policy (its `shadow` section), if any. */
  readonly shadow: PolicyShadow | undefined;
  /** Where its outcomes are delivered (its `deliver` section); empty when it has none. */
  readonly deliver: readonly DeliveryTarget[];
  readonly #byId: ReadonlyMap<string, PolicyQuestion>;

  constructor(parts: PolicyParts) {
    this.name = parts.name;
    this.version = parts.version;
    this.description = parts.description;
    this.file = parts.file;
    this.sha256 = parts.sha256;
    this.questions = Object.freeze([...parts.questions]);
    this.facts = Object.freeze({ ...parts.facts });
    this.factsSchema = parts.factsSchema;
    this.rules = Object.freeze([...parts.rules]);
    this.events = Object.freeze([...parts.events]);
    this.auditRate = parts.auditRate ?? 0;
    this.auditStrata =
      parts.auditStrata === undefined
        ? undefined
        : Object.freeze(parts.auditStrata.map((stratum) => Object.freeze({ ...stratum })));
    this.lane = parts.lane;
    this.shadow = parts.shadow;
    this.deliver = Object.freeze((parts.deliver ?? []).map((target) => Object.freeze({ ...target })));
    this.#byId = new Map(parts.questions.map((question) => [question.id, question]));
  }

  /** The question with this id, if the policy asks it. */
  question(id: string): PolicyQuestion | undefined {
    return this.#byId.get(id);
  }

  /**
   * The questions in System One form (`{qid: {type, instructions, criteria}}`, in order), the
   * `questions` of the request body sent to the endpoint. A fresh object each call.
   */
  systemOneQuestions(): Record<string, SystemOneQuestionForm> {
    return Object.fromEntries(this.questions.map((question) => [question.id, systemOneFormOf(question)]));
  }
}

/**
 * A question without the policy's parts (threshold, fallback, temperature), criteria copied, with
 * the endpoint fields (`layout`, `debias`, `debias_rotations`) it sets.
 */
function systemOneFormOf(question: PolicyQuestion): SystemOneQuestionForm {
  const { instructions } = question;
  const endpoint: EndpointQuestionFields = {};
  if (question.layout !== undefined) endpoint.layout = question.layout;
  if (question.debias !== undefined) endpoint.debias = question.debias;
  if (question.debias_rotations !== undefined) endpoint.debias_rotations = question.debias_rotations;
  switch (question.type) {
    case "choice":
      return { type: "choice", instructions, criteria: structuredClone(question.criteria), ...endpoint };
    case "score":
      return { type: "score", instructions, criteria: [...question.criteria], ...endpoint };
    case "noul":
      return question.criteria === undefined
        ? { type: "noul", instructions, ...endpoint }
        : { type: "noul", instructions, criteria: { ...question.criteria }, ...endpoint };
  }
}
