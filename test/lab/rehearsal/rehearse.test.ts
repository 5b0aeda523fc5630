/**
 * The rehearsal on templates edited by hand the way a deploy goes wrong: each finding named, the
 * command exiting 1 (every variant as synthesized: test/infra/rehearsedVariants.test.ts).
 */
import assert from "node:assert/strict";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { describe, it } from "node:test";
import { createRehearseCommand } from "../../../cli/commands/rehearseCommand.js";
import { rehearse } from "../../../lab/rehearsal/rehearse.js";
import {
  type CfnTemplate,
  deployTargetOf,
  TemplateResolver,
} from "../../../lab/rehearsal/TemplateResolver.js";
import { synthVariant, type VariantName } from "../../infra/synthVariant.js";

type Json = Record<string, unknown> & { Statement?: Json[] };

const templateOf = (variant: VariantName) =>
  structuredClone(synthVariant(variant).template.toJSON()) as CfnTemplate;
const rehearseTemplate = (template: CfnTemplate) =>
  rehearse({ template, target: deployTargetOf("Decisions") });

/** The logical id of the one resource of a type whose id starts with a prefix. */
function idOf(template: CfnTemplate, type: string, prefix: string): string {
  const ids = Object.entries(template.Resources)
    .filter(([id, resource]) => resource.Type === type && id.startsWith(prefix))
    .map(([id]) => id);
  assert.equal(ids.length, 1, `${type} ${prefix}*: ${ids}`);
  return ids[0] as string;
}

/** The statements of a function's default policy. */
function statementsOf(template: CfnTemplate, rolePrefix: string): Json[] {
  const policy = template.Resources[idOf(template, "AWS::IAM::Policy", `${rolePrefix}RoleDefaultPolicy`)];
  const document = policy?.Properties?.PolicyDocument as Json | undefined;
  assert.ok(document?.Statement !== undefined);
  return document.Statement;
}

const names = (statement: Json, action: string) => [statement.Action].flat().includes(action);

describe("decisions rehearse", () => {
  it("names a call whose statement was removed from the role: function, action, resource", async () => {
    const template = templateOf("cpu");
    const statements = statementsOf(template, "BulkDecideHandler");
    statements.splice(
      statements.findIndex((statement) => names(statement, "s3:PutObject")),
      1,
    );

    const report = await rehearseTemplate(template);

    assert.deepEqual(
      report.denied.map((denied) => [
        denied.function,
        denied.action,
        denied.resource.split(":::")[1]?.split("/")[1],
      ]),
      [["decide (bulk)", "s3:PutObject", "review-states"]],
    );
  });

  it("names a call whose grant has the resource ARN in another case, with the statement that nearly allowed it", async () => {
    const template = templateOf("cpu");
    const endpointId = idOf(template, "AWS::SageMaker::Endpoint", "DecisionEndpoint");
    const grant = statementsOf(template, "CapacityControllerHandler").find((statement) =>
      names(statement, "sagemaker:DescribeEndpoint"),
    ) as Json;
    const name = template.Resources[endpointId]?.Properties?.EndpointName as string;
    grant.Resource = `arn:aws:sagemaker:us-east-1:111122223333:endpoint/${name.toUpperCase()}`;

    const report = await rehearseTemplate(template);

    assert.equal(report.denied.length, 1);
    const [denied] = report.denied;
    assert.equal(denied?.function, "capacityController");
    assert.equal(denied?.action, "sagemaker:DescribeEndpoint");
    assert.equal(denied?.resource, `arn:aws:sagemaker:us-east-1:111122223333:endpoint/${name}`);
    assert.deepEqual(denied?.near_miss?.Resource, grant.Resource, JSON.stringify(denied));
  });

  it("names a route the template lacks, with the page file that calls it", async () => {
    const template = templateOf("cpu");
    const routeId = Object.entries(template.Resources).find(
      ([, resource]) =>
        resource.Type === "AWS::ApiGatewayV2::Route" &&
        resource.Properties?.RouteKey === "GET /api/policies/{policy}/drift",
    )?.[0] as string;
    delete template.Resources[routeId];

    const report = await rehearseTemplate(template);

    assert.deepEqual(report.missing_routes, [
      { method: "GET", path: "/api/policies/{}/drift", caller: "console/web/drift.ts" },
    ]);
  });

  it("names an adapter deadline raised to SageMaker's 60 s", async () => {
    const template = templateOf("cpu");
    const modelId = idOf(template, "AWS::SageMaker::Model", "DecisionEndpointCpuModel");
    const container = template.Resources[modelId]?.Properties?.PrimaryContainer as {
      Environment: Record<string, string>;
    };
    container.Environment.SEMIF_REQUEST_TIMEOUT_MS = "60000";

    const report = await rehearseTemplate(template);

    assert.deepEqual(
      report.timeouts.map((finding) => [finding.check, finding.resource]),
      [["adapter-deadline", modelId]],
    );
  });

  it("merges what the running stack called: observed calls and refusals, the declared list only for what did not run", async () => {
    const template = templateOf("cpu");
    const resolver = new TemplateResolver(template, deployTargetOf("Decisions"));
    const outcomes = resolver.arnOf(idOf(template, "AWS::DynamoDB::Table", "OutcomesTable"));
    const endpoint = resolver.arnOf(idOf(template, "AWS::SageMaker::Endpoint", "DecisionEndpoint"));

    const report = await rehearse({
      template,
      target: deployTargetOf("Decisions"),
      observed: {
        calls: {
          allowed: { "decide (interactive)": { "dynamodb:PutItem": 7 } },
          resources: { "decide (interactive)": { "dynamodb:PutItem": [outcomes] } },
          denied: [
            {
              function: "decide (interactive)",
              action: "sagemaker:InvokeEndpoint",
              resource: endpoint,
              near_miss: { Action: "sagemaker:InvokeEndpoint" },
              count: 3,
            },
          ],
        },
        routes: [{ method: "GET", route: "/api/policies/{policy}/drift", status: 200 }],
        problems: [],
      },
    });

    assert.equal(report.mode, "live");
    assert.deepEqual(report.exercised.functions, ["decide (interactive)"]);
    assert.deepEqual(report.exercised.routes, ["GET /api/policies/{}/drift"]);
    assert.deepEqual(report.observed["decide (interactive)"], {
      "dynamodb:PutItem": 7,
      "sagemaker:InvokeEndpoint": 3,
    });
    // The observed calls are not checked again (the PutItem on the outcomes table, the refused
    // InvokeEndpoint); the PutItem on the jobs table, which did not run, is.
    assert.equal(report.declared["decide (interactive)"]?.["dynamodb:PutItem"], 1);
    assert.equal(report.declared["decide (interactive)"]?.["sagemaker:InvokeEndpoint"], undefined);
    assert.ok((report.declared.capacityController?.["sagemaker:DescribeEndpoint"] ?? 0) > 0);
    assert.deepEqual(
      report.denied.map((denied) => [denied.function, denied.action, denied.source, denied.count]),
      [["decide (interactive)", "sagemaker:InvokeEndpoint", "observed", 3]],
    );
  });

  it("prints one JSON object and exits 1 on a finding, 0 on the template as synthesized (--static)", async () => {
    const folder = mkdtempSync(join(tmpdir(), "rehearse-"));
    try {
      const good = join(folder, "good.json");
      const bad = join(folder, "bad.json");
      const written = join(folder, "written.json");
      const template = templateOf("cpu");
      writeFileSync(good, JSON.stringify(template));
      const edited = structuredClone(template);
      const statements = statementsOf(edited, "InteractiveDecideHandler");
      statements.splice(
        statements.findIndex((statement) => names(statement, "sagemaker:InvokeEndpoint")),
        1,
      );
      writeFileSync(bad, JSON.stringify(edited));
      const run = async (args: string[]) => {
        let out = "";
        const stdout = new Writable({
          write(chunk, _encoding, done) {
            out += String(chunk);
            done();
          },
        });
        const stderr = new Writable({ write: (_chunk, _encoding, done) => done() });
        const code = await createRehearseCommand({ stdout, stderr }).run(args);
        return { code, report: JSON.parse(out) as Record<string, unknown[]> & { mode?: string } };
      };

      const passed = await run(["--template", good, "--static", "--json", "--write-template", written]);
      const failed = await run(["--template", bad, "--static", "--json"]);

      assert.equal(passed.code, 0);
      assert.deepEqual(Object.keys(passed.report).sort(), [
        "calls",
        "declared",
        "denied",
        "exercised",
        "missing_routes",
        "mode",
        "observed",
        "timeouts",
        "workload",
      ]);
      assert.equal(passed.report.mode, "static");
      assert.equal(failed.code, 1);
      assert.deepEqual(
        (failed.report.denied as { function: string; action: string }[]).map((denied) => [
          denied.function,
          denied.action,
        ]),
        [["decide (interactive)", "sagemaker:InvokeEndpoint"]],
      );
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
