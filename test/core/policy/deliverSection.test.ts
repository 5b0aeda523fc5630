/**
 * A policy's `deliver` section: the targets it compiles to, and each malformed target refused at
 * load time (what `decisions policies check` reports) with the field and what to write instead.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { PolicyLoadError, type PolicyProblem, parsePolicy } from "../../../core/policy/index.js";
import { policyText } from "./fabricate.js";

const SECRET = `whsec_${Buffer.alloc(32, 1).toString("base64")}`;

function problemsOf(text: string): PolicyProblem[] {
  try {
    parsePolicy(text, "test-policy.yaml");
  } catch (error) {
    assert.ok(error instanceof PolicyLoadError, `expected PolicyLoadError, got ${String(error)}`);
    return [...error.problems];
  }
  assert.fail("parsePolicy accepted the text");
}

function deliver(target: string): string {
  return policyText(`deliver:\n  - ${target.trim().split("\n").join("\n    ")}\n`);
}

describe("the deliver section", () => {
  it("is empty unless written", () => {
    assert.deepEqual(parsePolicy(policyText(), "test-policy.yaml").deliver, []);
  });

  it("compiles url targets (literal or env: secret) and bus targets with their statuses", () => {
    const policy = parsePolicy(
      policyText(`deliver:
  - name: helpdesk
    url: https://helpdesk.example/hooks/decisions
    secret: env:HELPDESK_SECRET
    on: [decided, reviewed]
  - name: local
    url: http://127.0.0.1:8080/hooks
    secret: ${SECRET}
    on: [fallback]
  - name: audit
    bus: arn:aws:events:eu-west-1:123456789012:event-bus/audit
    on: [rejected, overridden]
`),
      "test-policy.yaml",
    );
    assert.deepEqual(
      policy.deliver.map((target) => [target.name, target.url ?? target.bus, target.secret, [...target.on]]),
      [
        [
          "helpdesk",
          "https://helpdesk.example/hooks/decisions",
          "env:HELPDESK_SECRET",
          ["decided", "reviewed"],
        ],
        ["local", "http://127.0.0.1:8080/hooks", SECRET, ["fallback"]],
        [
          "audit",
          "arn:aws:events:eu-west-1:123456789012:event-bus/audit",
          undefined,
          ["rejected", "overridden"],
        ],
      ],
    );
  });

  const refusals: [string, string, RegExp][] = [
    ["a url without a secret", "name: a\nurl: https://x.example/h\non: [decided]", /needs a secret/],
    [
      "a secret that is not whsec_",
      "name: a\nurl: https://x.example/h\nsecret: hunter2\non: [decided]",
      /no Standard Webhooks secret/,
    ],
    [
      "a whsec_ key too short",
      "name: a\nurl: https://x.example/h\nsecret: whsec_c2hvcnQ=\non: [decided]",
      /5 bytes: give 24 to 64/,
    ],
    [
      "an env: name in lower case",
      "name: a\nurl: https://x.example/h\nsecret: env:helpdesk\non: [decided]",
      /environment variable/,
    ],
    [
      "http to another host",
      `name: a\nurl: http://x.example/h\nsecret: ${SECRET}\non: [decided]`,
      /must be https/,
    ],
    [
      "both url and bus",
      `name: a\nurl: https://x.example/h\nbus: b\nsecret: ${SECRET}\non: [decided]`,
      /exactly one of url or bus/,
    ],
    ["a bus with a secret", `name: a\nbus: b\nsecret: ${SECRET}\non: [decided]`, /takes no secret/],
    [
      "an unknown status",
      `name: a\nbus: b\non: [approved]`,
      /must be one of decided, fallback, overridden, rejected, reviewed/,
    ],
    ["no status", `name: a\nbus: b\non: []`, /.+/],
    ["a bad bus ARN", `name: a\nbus: "arn:aws:events:x"\non: [decided]`, /event bus name/],
  ];
  for (const [what, target, message] of refusals) {
    it(`refuses ${what}, naming the field`, () => {
      const problems = problemsOf(deliver(target));
      assert.ok(
        problems.some((problem) => problem.path[0] === "deliver" && message.test(problem.message)),
        `problems: ${JSON.stringify(problems.map((problem) => [problem.path, problem.message]))}`,
      );
    });
  }

  it("refuses two targets of one name", () => {
    const problems = problemsOf(
      policyText(`deliver:
  - { name: a, bus: b, on: [decided] }
  - { name: a, bus: c, on: [decided] }
`),
    );
    assert.ok(problems.some((problem) => /target a repeats/.test(problem.message)));
  });
});
