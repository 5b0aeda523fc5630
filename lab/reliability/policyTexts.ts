/**
 * Arbitrary and adversarial policy files: a valid policy with one field replaced (deep nesting,
 * huge strings, unicode and lone surrogates, chat-control text, wrong types), CEL injection
 * attempts in a rule, raw YAML spliced in (anchors, tags, duplicate keys), and arbitrary text.
 */
import fc from "fast-check";
import { parseDocument } from "yaml";
import { CHAT_CONTROL_TEXTS, HOSTILE_KEYS, hostileJson, hostileString } from "./adversarialValues.js";

/** A valid policy using every section: choice, score and noul questions, facts, rules, an event mapping. */
export const SEED_POLICY = `name: seed-policy
version: "1"
description: A policy the adversarial cases start from.
questions:
  route:
    type: choice
    instructions: Which team should handle it?
    criteria:
      billing: Payments and invoices.
      technical: Bugs and outages.
    threshold: 0.5
    fallback: technical
  level:
    type: score
    instructions: How urgent is it?
    criteria: [low, high]
    threshold: 0.4
    fallback: 1
  refund:
    type: noul
    instructions: Does the customer ask for a refund?
    criteria:
      true: A refund is asked for.
    threshold: 0.6
    fallback: false
facts:
  tier:
    type: string
    enum: [free, pro]
    default: free
  tags: string-list
rules:
  - name: pro_billing
    when: facts.tier == "pro" && answers.route == "billing"
    review: Pro billing tickets are reviewed.
events:
  - source: acme.tickets
    detail-type: Ticket Opened
    id: '"t-" + event.detail.id'
    state: event.detail.text
`;

/** Every path to a scalar of the seed (the fields an author writes), in document order. */
export const SEED_SCALAR_PATHS: readonly (string | number)[][] = scalarPaths(
  parseDocument(SEED_POLICY).toJS(),
);

function scalarPaths(value: unknown, path: (string | number)[] = []): (string | number)[][] {
  if (Array.isArray(value)) return value.flatMap((item, index) => scalarPaths(item, [...path, index]));
  if (typeof value === "object" && value !== null) {
    return Object.entries(value).flatMap(([key, item]) => scalarPaths(item, [...path, key]));
  }
  return [path];
}

/** CEL a hostile author might try: host objects, I/O, other variables, costly or deep expressions. */
export const CEL_INJECTIONS: readonly string[] = [
  "process.env.AWS_SECRET_ACCESS_KEY != ''",
  'require("fs").readFileSync("/etc/passwd") != ""',
  "globalThis.fetch('http://169.254.169.254') == null",
  "this.constructor.constructor('return process')() == null",
  "facts.__proto__.polluted == true",
  'facts["__proto__"] == null',
  "event.detail == null",
  "env == null",
  "import('node:child_process') == null",
  "facts.tags.all(a, facts.tags.all(b, facts.tags.all(c, a != b)))",
  "'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!'.matches('^(a+)+$')",
  `[${Array.from({ length: 300 }, (_, i) => i).join(", ")}].size() > 0`,
  `${"(".repeat(60)}true${")".repeat(60)}`,
  `${"!".repeat(500)}true`,
  Array.from({ length: 1200 }, () => "true").join(" && "),
  "dyn(facts).anything == 1",
  "answers.route == 'admin'",
  "answers.undeclared == 'x'",
  "<|im_start|>system",
  "true\u202E",
  "\ud800 == 1",
  "",
];

function withValue(path: (string | number)[], value: unknown): string {
  const document = parseDocument(SEED_POLICY);
  document.setIn(path, value);
  return document.toString();
}

/** One generated policy file, and the field the case targets when there is one. */
export interface PolicyCase {
  text: string;
  origin: string;
  /** The field made invalid, when the case makes one invalid for sure. */
  invalidAt?: (string | number)[];
  /** For a chat-control case: the field that must be named. */
  reservedAt?: (string | number)[];
}

function shown(policyCase: PolicyCase): PolicyCase {
  return Object.assign(policyCase, {
    [fc.toStringMethod]: () =>
      `${policyCase.origin}: ${JSON.stringify(policyCase.text.slice(0, 400))}${policyCase.text.length > 400 ? ` … (${policyCase.text.length} chars)` : ""}`,
  });
}

const path = fc.constantFrom(...SEED_SCALAR_PATHS);

const deepValue = fc.constantFrom(30, 200, 500).map((depth) => {
  let value: unknown = "leaf";
  for (let i = 0; i < depth; i++) value = i % 2 === 0 ? [value] : { k: value };
  return value;
});

/**
 * Every kind of policy file. Cases that target one field say so, so the check can ask that the
 * load error names it.
 */
export function policyCaseArbitrary(): fc.Arbitrary<PolicyCase> {
  return fc
    .oneof(
      fc.string({ unit: "binary", maxLength: 300 }).map((text): PolicyCase => ({ text, origin: "any text" })),
      fc
        .record({ at: path, value: fc.oneof(hostileJson(3), deepValue) })
        .map(
          ({ at, value }): PolicyCase => ({ text: withValue(at, value), origin: `value at ${at.join(".")}` }),
        ),
      fc
        .record({
          at: path,
          before: fc.string({ maxLength: 10 }),
          token: fc.constantFrom(...CHAT_CONTROL_TEXTS),
        })
        .map(
          ({ at, before, token }): PolicyCase => ({
            text: withValue(at, `${before}${token}`),
            origin: `chat-control text at ${at.join(".")}`,
            reservedAt: at,
          }),
        ),
      fc.record({ at: path, size: fc.constantFrom(10_000, 600_000, 1_100_000) }).map(
        ({ at, size }): PolicyCase => ({
          text: withValue(at, "y".repeat(size)),
          origin: `huge string at ${at.join(".")}`,
        }),
      ),
      fc.record({ when: fc.oneof(fc.constantFrom(...CEL_INJECTIONS), hostileString(60)) }).map(
        ({ when }): PolicyCase => ({
          text: withValue(["rules", 0, "when"], when),
          origin: "CEL injection in rules[0].when",
        }),
      ),
      fc.record({ key: fc.constantFrom(...HOSTILE_KEYS, "name", "questions"), value: hostileJson(2) }).map(
        ({ key, value }): PolicyCase => ({
          // Prepended as text: a key the file already has is then written twice.
          text: `${JSON.stringify(key)}: ${JSON.stringify(value ?? null)}\n${SEED_POLICY}`,
          origin: `top-level key ${JSON.stringify(key)}`,
        }),
      ),
      fc
        .constantFrom(
          "a: &a [x, x, x, x, x, x, x, x, x, x]\nb: &b [*a, *a, *a, *a, *a, *a, *a, *a, *a, *a]\nc: &c [*b, *b, *b, *b, *b, *b, *b, *b, *b, *b]\nd: [*c, *c, *c, *c, *c, *c, *c, *c, *c, *c]\n",
          "name: !!js/function 'function () { return process }'\n",
          "name: !!binary aGVsbG8=\n",
          '"\\ud800": 1\n',
          `name: ${"[".repeat(20_000)}${"]".repeat(20_000)}\n`,
          `${"- ".repeat(2000)}x\n`,
          "%YAML 1.1\n---\nname: a\n---\nname: b\n",
          "\uFEFFname: bom\n",
        )
        .map(
          (extra): PolicyCase => ({
            text: `${extra}${SEED_POLICY}`,
            origin: `raw YAML ${JSON.stringify(extra.slice(0, 30))}`,
          }),
        ),
    )
    .map(shown);
}
