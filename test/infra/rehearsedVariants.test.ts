/**
 * `decisions rehearse` on every variant the infra tests synthesize (shared with them in one
 * process): no call denied, no route missing, no timeout finding, every function and route exercised.
 */
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { REVIEW_ROUTES } from "../../contract/index.js";
import { findingsOf, rehearse } from "../../lab/rehearsal/rehearse.js";
import { type CfnTemplate, deployTargetOf } from "../../lab/rehearsal/TemplateResolver.js";
import { synthVariant, VARIANTS, type VariantName } from "./synthVariant.js";

const templateOf = (variant: VariantName) =>
  structuredClone(synthVariant(variant).template.toJSON()) as CfnTemplate;
const rehearseTemplate = (template: CfnTemplate) =>
  rehearse({ template, target: deployTargetOf("Decisions") });

describe("the rehearsed deploy of each variant", () => {
  for (const variant of Object.keys(VARIANTS) as VariantName[]) {
    it(`finds nothing wrong with the ${variant} variant, and exercises every function and console route`, async () => {
      const report = await rehearseTemplate(templateOf(variant));

      assert.deepEqual(report.denied, []);
      assert.deepEqual(report.missing_routes, []);
      assert.deepEqual(report.timeouts, []);
      assert.equal(findingsOf(report), 0);
      assert.equal(report.exercised.functions.length, 10);
      assert.equal(report.calls.frontDoor?.["sqs:SendMessage"], 2, "the front door sends to both lanes");
      assert.deepEqual(
        [...report.exercised.routes].sort(),
        REVIEW_ROUTES.map((route) => `${route.method} ${route.path}`.replace(/\{[^}]+\}/g, "{}")).sort(),
      );
      assert.ok((report.calls["decide (bulk)"]?.["sagemaker:InvokeEndpoint"] ?? 0) >= 1);
    });
  }
});
