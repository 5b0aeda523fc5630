/**
 * Turns a policy document (already shape-checked section by section) into a {@link Policy}:
 * normalises questions and facts, checks what spans sections (a rule's `set` naming a question
 * and a valid answer, unique rule names and event keys), and compiles and type-checks every CEL
 * expression once.
 */
import type { Environment, ParseResult } from "@marcbachmann/cel-js";
import type { Lane } from "../../contract/lanes/lanes.js";
import { type DeclaredKind, eventEnvironment, ruleEnvironment } from "./celEnvironment.js";
import { compileShadow } from "./compileShadow.js";
import { factsSchemaOf } from "./factsSchemaOf.js";
import { findCostlyCel } from "./findCostlyCel.js";
import { findUnguardedFacts } from "./findUnguardedFacts.js";
import { guardCelProgram } from "./guardCelProgram.js";
import {
  type AuditStratum,
  type CelProgram,
  type CompiledEventMapping,
  type CompiledRule,
  Policy,
} from "./Policy.js";
import {
  EventMappingSchema,
  type FactDeclarationDocument,
  type FactType,
  FactTypeSchema,
  IdentifierSchema,
  PolicySections,
  type QuestionDocument,
  RuleSchema,
} from "./policySchema.js";
import type { AnswerValue, FactDeclaration, PolicyQuestion, ReportProblem, RuleEffect } from "./types.js";

/**
 * Compiles what parsed of `document`, reporting every cross-section and CEL problem. Sections
 * that failed their schema are skipped here (their problems come from the schema).
 *
 * @returns the policy, or `undefined` when a section it needs did not parse.
 */
export function compilePolicy(
  document: unknown,
  meta: { file: string; sha256: string },
  report: ReportProblem,
): Policy | undefined {
  const fields =
    typeof document === "object" && document !== null ? (document as Record<string, unknown>) : {};
  const header = readHeader(fields, report);
  const questionsDocument = PolicySections.questions.safeParse(fields.questions);
  const factsDocument = PolicySections.facts.safeParse(fields.facts);
  const questions = questionsDocument.success
    ? Object.entries(questionsDocument.data).map(toQuestion)
    : undefined;
  const facts = factsDocument.success ? normaliseFacts(factsDocument.data ?? {}) : undefined;
  const rules = compileRules(
    fields.rules,
    declaredQuestions(fields.questions, questions),
    declaredFacts(fields.facts),
    report,
  );
  const events = compileEvents(fields.events, report);
  const shadow = compileShadow(fields, meta, report, compilePolicy);
  const deliver = PolicySections.deliver.safeParse(fields.deliver);

  if (header === undefined || shadow === undefined || !deliver.success) return undefined;
  if (questions === undefined || facts === undefined || rules === undefined || events === undefined)
    return undefined;
  const { auditRate, auditStrata, lane, ...names } = header;
  return new Policy({
    ...names,
    file: meta.file,
    sha256: meta.sha256,
    questions,
    facts,
    factsSchema: factsSchemaOf(facts),
    rules,
    events,
    auditRate: auditRate ?? 0,
    ...(auditStrata === undefined ? {} : { auditStrata }),
    ...(lane === undefined ? {} : { lane }),
    ...shadow,
    ...(deliver.data === undefined ? {} : { deliver: deliver.data }),
  });
}

/** A policy's header: the sections that are plain values (name, version, description, audit, lane). */
interface PolicyHeader {
  name: string;
  version: string;
  description: string;
  auditRate: number | undefined;
  auditStrata: AuditStratum[] | undefined;
  lane: Lane | undefined;
}

/**
 * Reads the header sections with their schemas; reports giving both `audit_rate` and
 * `audit_strata`. `undefined` when a section failed its schema (its problems come from the
 * schema) or both audit sections are given.
 */
function readHeader(fields: Record<string, unknown>, report: ReportProblem): PolicyHeader | undefined {
  const name = PolicySections.name.safeParse(fields.name);
  const version = PolicySections.version.safeParse(fields.version);
  const description = PolicySections.description.safeParse(fields.description);
  const auditRate = PolicySections.audit_rate.safeParse(fields.audit_rate);
  const auditStrata = PolicySections.audit_strata.safeParse(fields.audit_strata);
  const bothAudits = fields.audit_rate !== undefined && fields.audit_strata !== undefined;
  if (bothAudits)
    report(
      ["audit_strata"],
      "give audit_rate or audit_strata, not both (a stratum without below is the rate of the rest)",
    );
  const lane = PolicySections.lane.safeParse(fields.lane);
  if (!name.success || !version.success || !description.success || !auditRate.success || !lane.success)
    return undefined;
  if (!auditStrata.success || bothAudits) return undefined;
  return {
    name: name.data,
    version: version.data,
    description: description.data,
    auditRate: auditRate.data,
    auditStrata: auditStrata.data,
    lane: lane.data,
  };
}

function toQuestion([id, question]: [string, QuestionDocument]): PolicyQuestion {
  const temperature = question.temperature === undefined ? {} : { temperature: question.temperature };
  switch (question.type) {
    case "choice": {
      const labels = Array.isArray(question.criteria)
        ? [...question.criteria]
        : Object.keys(question.criteria);
      return { id, ...question, ...temperature, labels };
    }
    case "score":
      return { id, ...question, ...temperature, labels: question.criteria.map((_, level) => String(level)) };
    case "noul":
      return { id, ...question, ...temperature, labels: ["true", "false"] };
  }
}

function normaliseFacts(facts: Record<string, FactDeclarationDocument>): Record<string, FactDeclaration> {
  return Object.fromEntries(
    Object.entries(facts).map(([name, fact]): [string, FactDeclaration] =>
      typeof fact === "string"
        ? [name, { type: fact, required: false }]
        : [name, { ...fact, required: fact.required ?? false }],
    ),
  );
}

/** The rules, or undefined when any did not parse or compile (problems reported). */
function compileRules(
  value: unknown,
  questions: DeclaredQuestions,
  facts: DeclaredFacts,
  report: ReportProblem,
): CompiledRule[] | undefined {
  if (value === undefined) return [];
  if (!Array.isArray(value)) return undefined;
  const environment = ruleEnvironment(facts.kinds, questions.kinds);
  const names = new Set<string>();
  const compiled: CompiledRule[] = [];
  let complete = true;
  value.forEach((item: unknown, index) => {
    // The condition is compiled even when the rest of the rule is malformed, so its problems come too.
    const { when, name } = (item ?? {}) as { when?: unknown; name?: unknown };
    if (typeof name === "string" && names.has(name))
      report(["rules", index, "name"], `rule name "${name}" repeats`);
    if (typeof name === "string") names.add(name);
    const condition =
      typeof when === "string" && when !== ""
        ? compileCondition(environment, when, ["rules", index, "when"], facts, report, name)
        : undefined;
    const parsed = RuleSchema.safeParse(item);
    if (!parsed.success) {
      complete = false;
      return;
    }
    const rule = parsed.data;
    const effect = effectOf(rule, index, questions, report);
    if (effect === undefined || condition === undefined) {
      complete = false;
      return;
    }
    compiled.push({
      name: rule.name,
      ...(rule.description === undefined ? {} : { description: rule.description }),
      when: rule.when,
      effect,
      condition: programOf(condition),
    });
  });
  return complete ? compiled : undefined;
}

/** A rule's condition: a bool, reading optional facts only under `has()`. */
function compileCondition(
  environment: Environment,
  source: string,
  path: (string | number)[],
  facts: DeclaredFacts,
  report: ReportProblem,
  name: unknown,
): ParseResult | undefined {
  const subject = typeof name === "string" ? `rule "${name}"` : undefined;
  const condition = compileCel(environment, source, path, report, "bool", subject);
  if (condition === undefined) return undefined;
  const unguarded = findUnguardedFacts(condition.ast, facts.optional);
  for (const read of unguarded) {
    report(
      path,
      `optional fact "${read.fact}" is read without has(facts.${read.fact}): items without it would be rejected; guard it (has(facts.${read.fact}) && …) or give it a default`,
      { celIndex: read.start },
    );
  }
  return unguarded.length === 0 ? condition : undefined;
}

function effectOf(
  rule: { set?: Record<string, AnswerValue>; review?: string; reject?: string },
  index: number,
  questions: DeclaredQuestions,
  report: ReportProblem,
): RuleEffect | undefined {
  if (rule.review !== undefined) return { kind: "review", reason: rule.review };
  if (rule.reject !== undefined) return { kind: "reject", reason: rule.reject };
  if (rule.set === undefined) return undefined;
  let valid = true;
  for (const [id, answer] of Object.entries(rule.set)) {
    if (!Object.hasOwn(questions.kinds, id)) {
      report(
        ["rules", index, "set", id],
        `"${id}" is not a question of this policy (${Object.keys(questions.kinds).join(", ")})`,
        { key: true },
      );
      valid = false;
      continue;
    }
    const question = questions.compiled?.find((candidate) => candidate.id === id);
    if (question === undefined) {
      valid = false;
      continue;
    }
    const problem = answerProblem(question, answer);
    if (problem !== undefined) {
      report(["rules", index, "set", id], problem);
      valid = false;
    }
  }
  return valid ? { kind: "set", answers: { ...rule.set } } : undefined;
}

/** The questions as rules see them: each id's type (dyn where its declaration is broken), and the compiled ones. */
interface DeclaredQuestions {
  kinds: Record<string, DeclaredKind<PolicyQuestion["type"]>>;
  compiled: PolicyQuestion[] | undefined;
}

/** The facts as rules see them: each name's type (dyn where broken), and which may be absent. */
interface DeclaredFacts {
  kinds: Record<string, DeclaredKind<FactType>>;
  optional: Set<string>;
}

/**
 * Reads the question ids and types from the raw section, so rules are still checked (and their
 * problems reported with the others) when one question is broken.
 */
function declaredQuestions(raw: unknown, compiled: PolicyQuestion[] | undefined): DeclaredQuestions {
  const kinds: Record<string, DeclaredKind<PolicyQuestion["type"]>> = {};
  for (const [id, question] of entriesOf(raw)) {
    if (!IdentifierSchema.safeParse(id).success) continue;
    const type = (question as { type?: unknown } | null)?.type;
    kinds[id] = type === "choice" || type === "score" || type === "noul" ? type : "dyn";
  }
  return { kinds, compiled };
}

/** Reads the fact names and types from the raw section (see {@link declaredQuestions}). */
function declaredFacts(raw: unknown): DeclaredFacts {
  const kinds: Record<string, DeclaredKind<FactType>> = {};
  const optional = new Set<string>();
  for (const [name, fact] of entriesOf(raw)) {
    if (!IdentifierSchema.safeParse(name).success) continue;
    const full = typeof fact === "object" && fact !== null ? (fact as Record<string, unknown>) : undefined;
    const type = FactTypeSchema.safeParse(full === undefined ? fact : full.type);
    kinds[name] = type.success ? type.data : "dyn";
    if (full?.required !== true && full?.default === undefined) optional.add(name);
  }
  return { kinds, optional };
}

function entriesOf(raw: unknown): [string, unknown][] {
  return typeof raw === "object" && raw !== null && !Array.isArray(raw) ? Object.entries(raw) : [];
}

/** Why `answer` is not an answer of `question`, if it is not. */
function answerProblem(question: PolicyQuestion, answer: AnswerValue): string | undefined {
  switch (question.type) {
    case "choice":
      return typeof answer === "string" && question.labels.includes(answer)
        ? undefined
        : `${JSON.stringify(answer)} is not a label of "${question.id}" (${question.labels.join(", ")})`;
    case "score":
      return Number.isInteger(answer) &&
        (answer as number) >= 0 &&
        (answer as number) < question.labels.length
        ? undefined
        : `${JSON.stringify(answer)} is not a level of "${question.id}" (0–${question.labels.length - 1})`;
    case "noul":
      return typeof answer === "boolean"
        ? undefined
        : `${JSON.stringify(answer)} is not an answer of "${question.id}" (true or false)`;
  }
}

/** The mappings, or undefined when any did not parse or compile (problems reported). */
function compileEvents(value: unknown, report: ReportProblem): CompiledEventMapping[] | undefined {
  if (value === undefined) return [];
  if (!Array.isArray(value)) return undefined;
  const environment = eventEnvironment();
  const keys = new Set<string>();
  const compiled: CompiledEventMapping[] = [];
  let complete = true;
  value.forEach((item: unknown, index) => {
    const parsed = EventMappingSchema.safeParse(item);
    if (!parsed.success) {
      complete = false;
      return;
    }
    const mapping = parsed.data;
    const key = JSON.stringify([mapping.source, mapping["detail-type"]]);
    if (keys.has(key)) {
      report(
        ["events", index],
        `another mapping already matches source "${mapping.source}" and this detail-type`,
      );
    }
    keys.add(key);
    const id = compileCel(environment, mapping.id, ["events", index, "id"], report, "string");
    const state = compileCel(environment, mapping.state, ["events", index, "state"], report, "any");
    const facts =
      mapping.facts === undefined
        ? undefined
        : compileCel(environment, mapping.facts, ["events", index, "facts"], report, "map");
    if (id === undefined || state === undefined || (mapping.facts !== undefined && facts === undefined)) {
      complete = false;
      return;
    }
    compiled.push({
      source: mapping.source,
      detailType: mapping["detail-type"],
      ...(mapping.description === undefined ? {} : { description: mapping.description }),
      id: mapping.id,
      state: mapping.state,
      ...(mapping.facts === undefined ? {} : { facts: mapping.facts }),
      program: {
        id: programOf(id),
        state: programOf(state),
        ...(facts === undefined ? {} : { facts: programOf(facts) }),
      },
    });
  });
  return complete ? compiled : undefined;
}

/**
 * Parses and type-checks one expression. `expected`: the result type it must have (`dyn` is
 * accepted and checked at evaluation). `subject` (`rule "name"`) starts a cost problem's message,
 * so that it names the rule as well as the field.
 */
function compileCel(
  environment: Environment,
  source: string,
  path: (string | number)[],
  report: ReportProblem,
  expected: "bool" | "string" | "map" | "any",
  subject?: string,
): ParseResult | undefined {
  let parsed: ParseResult;
  try {
    parsed = environment.parse(source);
  } catch (error) {
    report(path, `CEL syntax error: ${celMessage(error)}`, { celIndex: celStart(error) });
    return undefined;
  }
  const checked = parsed.check();
  if (!checked.valid) {
    report(path, `CEL type error: ${celMessage(checked.error)}`, { celIndex: celStart(checked.error) });
    return undefined;
  }
  const costly = findCostlyCel(parsed.ast);
  for (const construct of costly) {
    const message = subject === undefined ? construct.message : `${subject}: ${construct.message}`;
    report(path, message, { celIndex: construct.start });
  }
  if (costly.length > 0) return undefined;
  const type = checked.type ?? "dyn";
  const fits =
    expected === "any" || type === "dyn" || (expected === "map" ? type.startsWith("map") : type === expected);
  if (!fits) {
    report(path, `CEL expression gives ${type}; it must give ${expected === "map" ? "a map" : expected}`);
    return undefined;
  }
  return parsed;
}

/** An expression as a program evaluated within the CEL budget (`guardCelProgram`). */
function programOf(parsed: ParseResult): CelProgram {
  return guardCelProgram(parsed);
}

/** The first line of a cel-js error (the rest is a source excerpt with a caret; we give line and column). */
function celMessage(error: unknown): string {
  const message = error instanceof Error ? error.message : String(error);
  return message.split("\n")[0] ?? message;
}

function celStart(error: unknown): number | undefined {
  const range = (error as { range?: { start?: unknown } } | undefined)?.range;
  return typeof range?.start === "number" ? range.start : undefined;
}
