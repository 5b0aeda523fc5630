/**
 * docs/architecture.md's picture shows the system the CDK app deploys: every Lambda function of
 * ours, every queue, endpoint, table, state machine and HTTP API of the synthesized templates
 * (the shadow and standard variants, which hold every optional resource) is named in it by its
 * construct's name, so a resource added to the app without a place in the picture fails here.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { describe, it } from "node:test";
import { synthVariant, type VariantName } from "./synthVariant.js";

const PAGE = new URL("../../docs/architecture.md", import.meta.url);

/** The resource types the picture must show, and the suffix a construct's name carries for each. */
const SHOWN: Readonly<Record<string, RegExp>> = {
  "AWS::Lambda::Function": /(HandlerFunction|Function)$/,
  "AWS::SQS::Queue": /$/,
  "AWS::SageMaker::Endpoint": /$/,
  "AWS::DynamoDB::Table": /$/,
  "AWS::StepFunctions::StateMachine": /StateMachine$/,
  "AWS::ApiGatewayV2::Api": /$/,
};

/** Functions the CDK library adds for its own custom resources: not part of the design. */
const CDK_OWN = /^(BucketNotificationsHandler|CustomCDK|Custom|AWS)/;

/** The construct names of the shown resources of a variant: logical ids without CDK's hash suffix. */
function shownNames(variant: VariantName): string[] {
  const { Resources } = synthVariant(variant).template.toJSON() as {
    Resources: Record<string, { Type: string }>;
  };
  return Object.entries(Resources).flatMap(([id, resource]) => {
    const suffix = SHOWN[resource.Type];
    if (suffix === undefined || CDK_OWN.test(id)) return [];
    return [id.replace(/[0-9A-F]{8}$/, "").replace(suffix, "")];
  });
}

/** The page's first mermaid block. */
function picture(): string {
  const page = readFileSync(PAGE, "utf8");
  const match = /```mermaid\n([\s\S]*?)```/.exec(page);
  assert.ok(match?.[1] !== undefined, "docs/architecture.md has a mermaid picture");
  return match[1];
}

describe("docs/architecture.md's picture", () => {
  it("names every function, queue, endpoint, table, workflow and API the CDK app deploys", () => {
    const drawn = picture();
    const names = [...new Set([...shownNames("shadow"), ...shownNames("standard")])].sort();

    const missing = names.filter((name) => !new RegExp(`\\b${name}\\b`).test(drawn));

    assert.ok(
      names.includes("InteractiveDecide") && names.includes("BulkWorkQueueDeadLetters"),
      names.join(", "),
    );
    assert.deepEqual(missing, [], "draw these in docs/architecture.md's picture (by their construct's name)");
  });
});
