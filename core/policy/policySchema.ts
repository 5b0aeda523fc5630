/**
 * The policy file format as a zod schema. The TypeScript types of a parsed document are inferred
 * from it, and `policies/policy.schema.json` is generated from it (see {@link policyJsonSchema}),
 * so the loader, the types and the editor's schema cannot drift apart.
 *
 * Shape checks live here; checks that need more than one section (a rule's `set` naming a
 * question, CEL compiled against the declared facts) are made by `compilePolicy`.
 */
import { z } from "zod";
import { DELIVERABLE_STATUSES } from "../../contract/delivery/DeliveryPayloadSchema.js";
import { LaneSchema } from "../../contract/lanes/lanes.js";
import { CANDIDATE_NAME_PATTERN } from "../../contract/outcome/ShadowRecordSchema.js";
import { isIntegerLikeKey } from "../../contract/wire/isIntegerLikeKey.js";

/**
 * CEL keywords and reserved words: a question or fact named like one could not be read as
 * `answers.<name>` or `facts.<name>` in a rule.
 */
const CEL_RESERVED = new Set([
  "true",
  "false",
  "null",
  "in",
  "as",
  "break",
  "const",
  "continue",
  "else",
  "for",
  "function",
  "if",
  "import",
  "let",
  "loop",
  "package",
  "namespace",
  "return",
  "var",
  "void",
  "while",
]);

/** The longest CEL expression a policy may hold (characters). */
const CEL_SOURCE_MAX = 4000;

/** A snake_case name usable as a CEL field (`answers.queue`, `facts.legal_hold`). */
export const IdentifierSchema = z
  .string()
  .regex(/^[a-z][a-z0-9_]{0,63}$/, {
    error: "must be snake_case: a lowercase letter, then lowercase letters, digits or _ (64 at most)",
  })
  .refine((name) => !CEL_RESERVED.has(name), { error: "is a CEL reserved word" });

const ProbabilitySchema = z
  .number()
  .min(0)
  .max(1)
  .describe(
    "Probability threshold: the model's (calibrated) probability of its own answer must be at least this, else the fallback answer is used and the item goes to human review.",
  );

const TemperatureSchema = z
  .number()
  .gt(0)
  .max(100)
  .optional()
  .describe(
    "Calibrated temperature T applied to the returned probabilities (p^(1/T), renormalised) before the threshold. 1 or absent: unchanged; above 1 flattens, below 1 sharpens.",
  );

const LayoutSchema = z
  .enum(["direct-options-v1", "question-first-v1", "auto"])
  .optional()
  .describe(
    "Prompt layout asked of the endpoint: direct-options-v1 (state first, the default), question-first-v1 (criterion and options first, shared by every item asked this question), or auto (the cheaper from token counts). Accuracy can differ between layouts: compare on labelled items before switching.",
  );

const DebiasSchema = z
  .literal("cyclic")
  .optional()
  .describe(
    "cyclic: the endpoint scores the question under cyclic rotations of its options and averages each option's probability (removes most option-position bias; costs one question part per rotation).",
  );

const DebiasRotationsSchema = z
  .int()
  .min(1)
  .max(255)
  .optional()
  .describe("With debias: how many rotations, evenly spaced, up to the number of options. Default: all.");

/** The optional per-question endpoint fields: prompt layout and option-order debiasing. */
const EndpointFields = {
  layout: LayoutSchema,
  debias: DebiasSchema,
  debias_rotations: DebiasRotationsSchema,
};

/** Adds the issues of `debias_rotations` that depend on the options: it needs `debias` and at most `count`. */
function checkDebias(
  question: { debias?: "cyclic"; debias_rotations?: number },
  count: number,
  context: z.RefinementCtx,
): void {
  if (question.debias_rotations === undefined) return;
  if (question.debias === undefined) {
    context.addIssue({ code: "custom", path: ["debias_rotations"], message: 'needs debias: "cyclic"' });
  } else if (question.debias_rotations > count) {
    context.addIssue({
      code: "custom",
      path: ["debias_rotations"],
      message: `must be at most the number of options (${count})`,
    });
  }
}

const InstructionsSchema = z.string().min(1).max(8000).describe("The question as the model reads it.");

/** A choice label: any non-empty text; integer-like labels only in the list form (see below). */
const LabelSchema = z.string().min(1).max(200);

/** "0", "17": JSON objects move such keys to the front, which would reorder the options offered. */
const isIntegerLike = isIntegerLikeKey;

const ChoiceQuestionSchema = z
  .strictObject({
    type: z.literal("choice"),
    instructions: InstructionsSchema,
    criteria: z
      .union([z.record(LabelSchema, z.string().min(1).nullable()), z.array(LabelSchema).min(1).max(255)], {
        error: "criteria must map labels to descriptions, or list the labels",
      })
      .describe(
        "Label → description (null: the label speaks for itself), or a list of labels; 1–255, in order.",
      ),
    threshold: ProbabilitySchema,
    fallback: z.string().describe("The label used when the model's probability is below the threshold."),
    temperature: TemperatureSchema,
    ...EndpointFields,
  })
  .superRefine((question, context) => {
    const labels = Array.isArray(question.criteria) ? question.criteria : Object.keys(question.criteria);
    checkDebias(question, labels.length, context);
    if (labels.length === 0 || labels.length > 255) {
      context.addIssue({ code: "custom", path: ["criteria"], message: "a choice offers 1–255 labels" });
    }
    if (!Array.isArray(question.criteria)) {
      for (const label of labels.filter(isIntegerLike)) {
        context.addIssue({
          code: "custom",
          path: ["criteria", label],
          message: `label "${label}" is integer-like: JSON would move it to the front; list the labels instead`,
        });
      }
    }
    const seen = new Set<string>();
    labels.forEach((label, index) => {
      if (seen.has(label)) {
        context.addIssue({ code: "custom", path: ["criteria", index], message: `label "${label}" repeats` });
      }
      seen.add(label);
    });
    if (!labels.includes(question.fallback)) {
      context.addIssue({
        code: "custom",
        path: ["fallback"],
        message: `fallback "${question.fallback}" is not one of the labels (${labels.join(", ")})`,
      });
    }
  });

const ScoreQuestionSchema = z
  .strictObject({
    type: z.literal("score"),
    instructions: InstructionsSchema,
    criteria: z
      .array(z.string().min(1))
      .min(2)
      .max(255)
      .describe("Level descriptions; the index is the level (0, 1, …)."),
    threshold: ProbabilitySchema,
    fallback: z.int().min(0).describe("The level used when the model's probability is below the threshold."),
    temperature: TemperatureSchema,
    ...EndpointFields,
  })
  .superRefine((question, context) => {
    checkDebias(question, question.criteria.length, context);
    if (question.fallback >= question.criteria.length) {
      context.addIssue({
        code: "custom",
        path: ["fallback"],
        message: `fallback level ${question.fallback} is not a level (0–${question.criteria.length - 1})`,
      });
    }
  });

const NoulQuestionSchema = z
  .strictObject({
    type: z.literal("noul"),
    instructions: InstructionsSchema,
    criteria: z
      .strictObject({ true: z.string().min(1).optional(), false: z.string().min(1).optional() })
      .optional()
      .describe("What yes (true) and no (false) mean."),
    threshold: ProbabilitySchema,
    fallback: z.boolean().describe("The answer used when the model's probability is below the threshold."),
    temperature: TemperatureSchema,
    ...EndpointFields,
  })
  .superRefine((question, context) => checkDebias(question, 2, context));

/**
 * One question in System One form plus the policy's threshold, fallback and temperature, and the
 * optional endpoint fields `layout`, `debias`, `debias_rotations` (passed to the endpoint).
 */
export const QuestionSchema = z.discriminatedUnion("type", [
  ChoiceQuestionSchema,
  ScoreQuestionSchema,
  NoulQuestionSchema,
]);

/** The value types a fact may have. `string-list` is a list of strings (e.g. tags). */
export const FactTypeSchema = z.enum(["string", "number", "boolean", "string-list"]);

const FactValueSchema = z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]);

const FactObjectSchema = z
  .strictObject({
    type: FactTypeSchema,
    required: z.boolean().optional().describe("A work item without this fact is rejected. Default false."),
    enum: z
      .array(z.string())
      .min(1)
      .optional()
      .describe("For string and string-list facts: the allowed values."),
    default: FactValueSchema.optional().describe(
      "The value an item without this fact gets (optional facts only).",
    ),
    description: z.string().optional(),
  })
  .superRefine((fact, context) => {
    if (fact.enum !== undefined && fact.type !== "string" && fact.type !== "string-list") {
      context.addIssue({
        code: "custom",
        path: ["enum"],
        message: `enum is for string facts, not ${fact.type}`,
      });
    }
    if (fact.default === undefined) return;
    if (fact.required === true) {
      context.addIssue({
        code: "custom",
        path: ["default"],
        message: "a required fact cannot have a default",
      });
    }
    if (!factValueMatches(fact.type, fact.default, fact.enum)) {
      context.addIssue({
        code: "custom",
        path: ["default"],
        message: `default does not match type ${fact.type}${fact.enum ? ` with enum [${fact.enum.join(", ")}]` : ""}`,
      });
    }
  });

/** A declared fact: its type name (optional, no default), or the full form. */
export const FactDeclarationSchema = z.union([FactTypeSchema, FactObjectSchema], {
  error: "a fact is a type (string, number, boolean, string-list) or {type, required?, enum?, default?}",
});

function factValueMatches(type: z.infer<typeof FactTypeSchema>, value: unknown, allowed?: string[]): boolean {
  const inEnum = (text: string) => allowed === undefined || allowed.includes(text);
  switch (type) {
    case "string":
      return typeof value === "string" && inEnum(value);
    case "number":
      return typeof value === "number";
    case "boolean":
      return typeof value === "boolean";
    case "string-list":
      return Array.isArray(value) && value.every((item) => typeof item === "string" && inEnum(item));
  }
}

/** A deterministic rule: a CEL condition and exactly one effect. */
export const RuleSchema = z
  .strictObject({
    name: IdentifierSchema.describe("Recorded in the outcome's rules_fired."),
    description: z.string().optional(),
    when: z
      .string()
      .min(1)
      .max(CEL_SOURCE_MAX)
      .describe("CEL condition over facts, answers, model, confidence and scores (see policies/README.md)."),
    set: z
      .record(IdentifierSchema, z.union([z.string(), z.number(), z.boolean()]))
      .optional()
      .describe("Effect: set these answers (question id → answer); status overridden."),
    review: z
      .string()
      .min(1)
      .optional()
      .describe(
        "Effect: send to human review with this reason (answers not set by a rule take their fallback).",
      ),
    reject: z
      .string()
      .min(1)
      .optional()
      .describe("Effect: reject the item with this reason; later rules do not run."),
  })
  .superRefine((rule, context) => {
    const effects = (["set", "review", "reject"] as const).filter((effect) => rule[effect] !== undefined);
    if (effects.length !== 1) {
      context.addIssue({
        code: "custom",
        path: effects.length > 1 ? [effects[1] ?? "set"] : [],
        message: `a rule has exactly one effect (set, review or reject); found ${effects.length === 0 ? "none" : effects.join(" and ")}`,
      });
    }
    if (rule.set !== undefined && Object.keys(rule.set).length === 0) {
      context.addIssue({ code: "custom", path: ["set"], message: "set names at least one question" });
    }
  });

/** An EventBridge event → work item mapping. */
export const EventMappingSchema = z.strictObject({
  source: z.string().min(1).describe("Matches the event's source exactly."),
  "detail-type": z.string().min(1).describe("Matches the event's detail-type exactly."),
  description: z.string().optional(),
  id: z
    .string()
    .min(1)
    .max(CEL_SOURCE_MAX)
    .describe("CEL over `event` giving the work item id (a non-empty string)."),
  state: z
    .string()
    .min(1)
    .max(CEL_SOURCE_MAX)
    .describe("CEL over `event` giving the state the model reads (any JSON value)."),
  facts: z
    .string()
    .min(1)
    .max(CEL_SOURCE_MAX)
    .optional()
    .describe("CEL over `event` giving the facts (a map)."),
});

/** Strata `audit_strata` may list, at most. */
export const MAX_AUDIT_STRATA = 10;

/**
 * `audit_strata`: audit rates by confidence bin, in rising `below` order, the last without `below`
 * (it takes every confidence left). An item's confidence is the lowest probability among its
 * model answers; it falls in the first stratum whose `below` exceeds it.
 */
export const AuditStrataSchema = z
  .array(
    z.strictObject({
      below: z
        .number()
        .gt(0)
        .max(1)
        .optional()
        .describe("Upper bound (exclusive) of the stratum's confidence; absent on the last stratum only."),
      rate: z.number().min(0).max(1).describe("Fraction (0 to 1) of the stratum's decided items audited."),
    }),
  )
  .min(1)
  .max(MAX_AUDIT_STRATA)
  .superRefine((strata, context) => {
    strata.forEach((stratum, index) => {
      const last = index === strata.length - 1;
      if (last && stratum.below !== undefined)
        context.addIssue({
          code: "custom",
          path: [index, "below"],
          message: "the last stratum takes every confidence left: leave out its below",
        });
      if (!last && stratum.below === undefined)
        context.addIssue({
          code: "custom",
          path: [index, "below"],
          message: "only the last stratum may leave out below",
        });
      const previous = index > 0 ? strata[index - 1]?.below : undefined;
      if (stratum.below !== undefined && previous !== undefined && !(stratum.below > previous))
        context.addIssue({
          code: "custom",
          path: [index, "below"],
          message: `must be above the previous stratum's below (${previous})`,
        });
    });
  });
/**
 * The `shadow` section: a candidate — another model endpoint and/or a candidate version of this
 * policy — asked beside the live pipeline for a sampled share of items, its answers kept as shadow
 * records (docs/changing-models.md). The candidate version is this policy with the overrides given
 * here: thresholds, temperatures, and a rule list that replaces the live one.
 */
export const ShadowSectionSchema = z
  .strictObject({
    candidate: z
      .string()
      .regex(CANDIDATE_NAME_PATTERN, {
        error: "must be letters, digits, ., _ or - (64 at most), starting with a letter or digit",
      })
      .describe("The candidate's name: shadow records and `decisions shadow report --candidate` carry it."),
    rate: z
      .number()
      .min(0)
      .max(1)
      .describe(
        "Fraction (0 to 1) of items asked of the candidate as well, drawn by a hash of the policy and item id (salted apart from audit_rate's draw).",
      ),
    endpoint: z
      .enum(["candidate", "live"])
      .optional()
      .describe(
        "candidate (default): ask the deployment's candidate endpoint (SHADOW_ENDPOINT_NAME, `decisions up --shadow-model`), in the bulk lane; live: take the live model's answer (a policy-only candidate: no second call).",
      ),
    version: z
      .string()
      .min(1)
      .optional()
      .describe("The candidate version's label in its shadow records. Default: this policy's version."),
    thresholds: z
      .record(IdentifierSchema, ProbabilitySchema)
      .optional()
      .describe("Question id → the candidate's threshold."),
    temperatures: z
      .record(IdentifierSchema, z.number().gt(0).max(100))
      .optional()
      .describe("Question id → the candidate's calibrated temperature."),
    rules: z
      .array(RuleSchema)
      .optional()
      .describe("The candidate's rules, replacing the live ones (same form). Default: the live rules."),
  })
  .describe("A candidate shadowed beside this policy (docs/changing-models.md).");

/** A literal Standard Webhooks secret: `whsec_` and the base64 of 24 to 64 random bytes. */
const LITERAL_SECRET_PATTERN = /^whsec_([A-Za-z0-9+/]+={0,2})$/;

/** `env:NAME`: the secret is the value of the environment variable NAME where deliveries run. */
const SECRET_REFERENCE_PATTERN = /^env:([A-Z][A-Z0-9_]{0,127})$/;

/** Bytes a Standard Webhooks secret's key has, at least and at most. */
export const SECRET_KEY_BYTES = { min: 24, max: 64 } as const;

/**
 * Why `text` is not a usable Standard Webhooks secret (`whsec_` and the base64 of 24–64 bytes), or
 * `undefined` when it is. Shared by the policy check (literal secrets) and the places that resolve
 * an `env:` reference.
 */
export function secretProblemOf(text: string): string | undefined {
  const match = LITERAL_SECRET_PATTERN.exec(text);
  if (match?.[1] === undefined || match[1].length % 4 !== 0)
    return "must be whsec_ followed by base64 (A–Z, a–z, 0–9, +, /, padded with =)";
  const bytes = (match[1].length / 4) * 3 - (match[1].endsWith("==") ? 2 : match[1].endsWith("=") ? 1 : 0);
  if (bytes < SECRET_KEY_BYTES.min || bytes > SECRET_KEY_BYTES.max)
    return `its key is ${bytes} bytes: give ${SECRET_KEY_BYTES.min} to ${SECRET_KEY_BYTES.max} random bytes (e.g. whsec_ + \`openssl rand -base64 32\`)`;
  return undefined;
}

/** A webhook secret as a policy names it: a literal `whsec_…`, or `env:NAME`. */
export const SecretSchema = z
  .string()
  .superRefine((text, context) => {
    if (SECRET_REFERENCE_PATTERN.test(text)) return;
    if (text.startsWith("env:")) {
      context.addIssue({
        code: "custom",
        message: "env: names an environment variable: an uppercase letter, then A–Z, 0–9 or _ (128 at most)",
      });
      return;
    }
    const problem = secretProblemOf(text);
    if (problem !== undefined)
      context.addIssue({
        code: "custom",
        message: `is no Standard Webhooks secret: ${problem}, or env:NAME`,
      });
  })
  .describe(
    "The Standard Webhooks signing secret: env:NAME (the environment variable NAME where deliveries run; on AWS the Secrets Manager secret NAME) or a literal whsec_… (keep real ones out of git).",
  );

/** A target's name: kebab-case, as policy names are. */
const TargetNameSchema = z.string().regex(/^[a-z][a-z0-9-]{0,63}$/, {
  error: "must be kebab-case: a lowercase letter, then lowercase letters, digits or - (64 at most)",
});

/** An EventBridge bus: its name, or its ARN (another account's or region's bus). */
const BusSchema = z
  .string()
  .regex(
    /^(arn:aws[a-z-]*:events:[a-z0-9-]+:\d{12}:event-bus\/[A-Za-z0-9._\-/]{1,256}|[A-Za-z0-9._\-/]{1,256})$/,
    {
      error:
        "must be an event bus name (letters, digits, . _ - /) or its ARN (arn:aws:events:<region>:<account>:event-bus/<name>)",
    },
  )
  .describe("An EventBridge event bus (name or ARN) the deliveries are put on as events.");

/** Whether `url` is on this machine (http is allowed only there: tests and the local stack). */
function isLoopback(url: URL): boolean {
  return url.hostname === "127.0.0.1" || url.hostname === "localhost" || url.hostname === "[::1]";
}

/** One target of the `deliver` section: a URL with its secret, or an EventBridge bus. */
export const DeliverTargetSchema = z
  .strictObject({
    name: TargetNameSchema.describe(
      "The target's name, unique in the policy: `decisions deliveries` and the AWS resources name it.",
    ),
    url: z
      .url({ protocol: /^https?$/, error: "must be an http(s) URL" })
      .optional()
      .describe("Where each delivery is POSTed (https; http only to 127.0.0.1 or localhost)."),
    secret: SecretSchema.optional(),
    bus: BusSchema.optional(),
    on: z
      .array(z.enum(DELIVERABLE_STATUSES, { error: `must be one of ${DELIVERABLE_STATUSES.join(", ")}` }))
      .min(1)
      .describe("The statuses whose arrival is delivered: a change to one of these sends one delivery."),
  })
  .superRefine((target, context) => {
    if ((target.url === undefined) === (target.bus === undefined))
      context.addIssue({ code: "custom", path: [], message: "a target has exactly one of url or bus" });
    if (target.url !== undefined && target.secret === undefined)
      context.addIssue({
        code: "custom",
        path: ["secret"],
        message: "a url target needs a secret (env:NAME, or whsec_…): every delivery is signed",
      });
    if (target.bus !== undefined && target.secret !== undefined)
      context.addIssue({ code: "custom", path: ["secret"], message: "a bus target takes no secret" });
    if (target.url !== undefined && URL.canParse(target.url)) {
      const url = new URL(target.url);
      if (url.protocol === "http:" && !isLoopback(url))
        context.addIssue({
          code: "custom",
          path: ["url"],
          message: "must be https (http only to 127.0.0.1 or localhost)",
        });
    }
    const seen = new Set<string>();
    target.on.forEach((status, index) => {
      if (seen.has(status))
        context.addIssue({ code: "custom", path: ["on", index], message: `${status} repeats` });
      seen.add(status);
    });
  });

/** The `deliver` section: where the policy's outcomes go, and for which statuses. */
export const DeliverSectionSchema = z
  .array(DeliverTargetSchema)
  .min(1)
  .max(10)
  .superRefine((targets, context) => {
    const seen = new Set<string>();
    targets.forEach((target, index) => {
      if (seen.has(target.name))
        context.addIssue({ code: "custom", path: [index, "name"], message: `target ${target.name} repeats` });
      seen.add(target.name);
    });
  })
  .describe("Where the policy's outcomes are delivered (docs/deliveries.md): 1–10 targets.");

/** Policy names are file names: `policies/<name>.yaml`. */
export const PolicyNameSchema = z.string().regex(/^[a-z][a-z0-9-]{0,63}$/, {
  error: "must be kebab-case: a lowercase letter, then lowercase letters, digits or - (64 at most)",
});

/** The sections of a policy file, each checked on its own so one bad section does not hide the others' problems. */
export const PolicySections = {
  name: PolicyNameSchema.describe("The policy's name; work items name it, the file is <name>.yaml."),
  version: z.string().min(1).describe('Recorded with every outcome. A string: quote numbers ("3").'),
  description: z.string().min(1),
  questions: z
    .record(IdentifierSchema, QuestionSchema)
    .refine((questions) => Object.keys(questions).length > 0, {
      error: "a policy asks at least one question",
    })
    .describe("Question id → question, asked in this order."),
  facts: z.record(IdentifierSchema, FactDeclarationSchema).optional().describe("Fact name → declaration."),
  rules: z.array(RuleSchema).optional().describe("Applied in file order after thresholds and fallbacks."),
  audit_rate: z
    .number()
    .min(0)
    .max(1)
    .optional()
    .describe(
      "Fraction (0 to 1, default 0) of the items the model decided that are also sent to review as audit items, drawn by a hash of the policy and item id: unbiased labels for calibrate.",
    ),
  audit_strata: AuditStrataSchema.optional().describe(
    "Audit rates by confidence bin instead of one audit_rate (not both): e.g. [{below: 0.7, rate: 0.5}, {below: 0.9, rate: 0.1}, {rate: 0.02}]. An item's confidence is the lowest probability among its model answers; each audited item records its stratum's rate, and calibrate weighs its labels 1/rate.",
  ),
  events: z
    .array(EventMappingSchema)
    .optional()
    .describe("EventBridge events this policy turns into work items."),
  lane: LaneSchema.optional().describe(
    "The lane its items go to when the producer names none (`decisions submit` without --lane): `interactive` (decided first; the default) or `bulk` (work nobody waits on item by item). Batch-job lines always travel in bulk.",
  ),
  shadow: ShadowSectionSchema.optional(),
  deliver: DeliverSectionSchema.optional(),
};

/** A whole policy file. */
export const PolicySchema = z
  .strictObject(PolicySections)
  .describe("A decision policy (policies/README.md).");

/** A policy file as parsed (before compilation). */
export type PolicyDocument = z.infer<typeof PolicySchema>;
/** One question of a policy file. */
export type QuestionDocument = z.infer<typeof QuestionSchema>;
/** One rule of a policy file. */
export type RuleDocument = z.infer<typeof RuleSchema>;
/** The `shadow` section as written. */
export type ShadowSectionDocument = z.infer<typeof ShadowSectionSchema>;
/** One event mapping of a policy file. */
export type EventMappingDocument = z.infer<typeof EventMappingSchema>;
/** One target of the `deliver` section as written. */
export type DeliverTargetDocument = z.infer<typeof DeliverTargetSchema>;
/** A fact's type name. */
export type FactType = z.infer<typeof FactTypeSchema>;
/** A fact declaration as written (short or full form). */
export type FactDeclarationDocument = z.infer<typeof FactDeclarationSchema>;
