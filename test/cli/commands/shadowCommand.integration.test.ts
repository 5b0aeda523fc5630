/**
 * `decisions shadow report` on DynamoDB Local (127.0.0.1): live outcomes of ticket-routing, one of
 * them reviewed by a person, and a candidate's shadow records of them (one failed); the report
 * prints agreement, status changes, the review load and the accuracy of both on the reviewed item.
 * And `decisions compare` on two results files built from the same decisions.
 */
import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import type { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import { createCompareCommand } from "../../../cli/commands/compareCommand.js";
import { createShadowCommand } from "../../../cli/commands/shadowCommand.js";
import { outcomesTableDefinition } from "../../../core/outcomes/index.js";
import { loadPolicies, type Policy } from "../../../core/policy/index.js";
import { ReviewApi } from "../../../core/review/ReviewApi.js";
import { routeReviewRequest } from "../../../core/review/routeReviewRequest.js";
import type { DynamoDbLocal } from "../../../local/index.js";
import { seedShadowScenario } from "../../support/seedShadowScenario.js";
import { type LocalTables, startLocalTables } from "../../support/startLocalTables.js";

const POLICIES = fileURLToPath(new URL("../../../policies/", import.meta.url));
const TABLE = "outcomes";
const POLICY = "ticket-routing";

describe("decisions shadow report and decisions compare (integration)", () => {
  let tables: LocalTables;
  let dynamo: DynamoDbLocal;
  let documents: DynamoDBDocumentClient;
  let policy: Policy;
  let folder: string;
  /** The scenario's live outcomes and the candidate's decisions, as results-file lines. */
  let liveOutcomes: Record<string, unknown>[] = [];
  let candidateOutcomes: Record<string, unknown>[] = [];

  async function run(
    command: "shadow" | "compare",
    args: string[],
  ): Promise<{ code: number; out: string; err: string }> {
    let out = "";
    let err = "";
    const io = {
      stdout: {
        write: (text: string) => {
          out += text;
          return true;
        },
      },
      stderr: {
        write: (text: string) => {
          err += text;
          return true;
        },
      },
    };
    const code = await (command === "shadow" ? createShadowCommand(io) : createCompareCommand(io)).run(args);
    return { code, out, err };
  }

  before(async () => {
    tables = await startLocalTables({ tables: [outcomesTableDefinition(TABLE)] });
    ({ dynamo, documents } = tables);
    policy = (await loadPolicies(POLICIES)).get(POLICY) as Policy;
    folder = await mkdtemp(join(tmpdir(), "shadow-report-"));

    ({ live: liveOutcomes, candidate: candidateOutcomes } = await seedShadowScenario({
      documents,
      tableName: TABLE,
      policy,
    }));
  });

  after(async () => {
    await tables?.stop();
    if (folder !== undefined) await rm(folder, { recursive: true, force: true });
  });

  const tableFlags = () => ["--policy", POLICY, "--endpoint-url", dynamo.endpoint, "--table", TABLE];

  it("prints one JSON object with sampled and, per question, agreement, status changes, review load and accuracy", async () => {
    const { code, out, err } = await run("shadow", ["report", ...tableFlags(), "--json"]);
    assert.equal(code, 0, err);
    const report = JSON.parse(out);
    assert.equal(report.records, 4);
    assert.equal(report.failed, 1);
    assert.equal(report.sampled, 3, "T-4's candidate failed: three items compared");
    assert.equal(report.candidate.name, "seed-7");
    assert.equal(report.questions.queue.agreement, 1 / 3, "only T-1 keeps its answer (T-3 was triage live)");
    assert.equal(report.questions.queue.model_agreement, 2 / 3);
    assert.deepEqual(report.questions.queue.to_automated, { count: 1, share: 1 / 3 });
    assert.deepEqual(report.status.transitions, { "fallback→decided": 1 });
    assert.deepEqual(report.review_load, { a: { count: 1, share: 1 / 3 }, b: { count: 0, share: 0 } });
    assert.equal(report.questions.queue.accuracy.labelled, 1, "T-3 was reviewed");
    assert.equal(report.questions.queue.accuracy.a.correct, 1, "the live model's answer under the fallback");
    assert.equal(report.questions.queue.accuracy.b.correct, 1);
    assert.equal(report.questions.priority.agreement, 1);
  });

  it("the console's GET /api/policies/{policy}/shadow answers the same report, with the first failures listed", async () => {
    const api = new ReviewApi({
      client: documents,
      tableName: TABLE,
      policies: await loadPolicies(POLICIES),
    });
    const cli = await run("shadow", ["report", ...tableFlags(), "--json"]);
    const since = "2026-12-01T10:00:02.500Z";
    const cliSince = await run("shadow", ["report", ...tableFlags(), "--since", since, "--json"]);

    const response = await routeReviewRequest(api, {
      method: "GET",
      path: `/api/policies/${POLICY}/shadow`,
      query: {},
    });
    const later = await routeReviewRequest(api, {
      method: "GET",
      path: `/api/policies/${POLICY}/shadow`,
      query: { since },
    });
    const wrongTime = await routeReviewRequest(api, {
      method: "GET",
      path: `/api/policies/${POLICY}/shadow`,
      query: { since: "yesterday" },
    });

    assert.equal(response.status, 200);
    const { failures, ...report } = JSON.parse(JSON.stringify(response.body));
    assert.deepEqual(report, JSON.parse(cli.out), "the CLI's --json object, field for field");
    assert.deepEqual(failures, [{ id: "T-4", error: "Error", reason: "candidate timed out" }]);
    const { failures: _later, ...reportSince } = JSON.parse(JSON.stringify(later.body));
    assert.deepEqual(reportSince, JSON.parse(cliSince.out));
    assert.equal(wrongTime.status, 400);
  });

  it("prints the comparison for a person, and only records since a time", async () => {
    const text = await run("shadow", ["report", ...tableFlags()]);
    assert.equal(text.code, 0, text.err);
    assert.match(text.out, /candidate seed-7 \(model cccccccccccc\), 4 record\(s\), 1 failed/);
    assert.match(
      text.out,
      /question queue: the models' own answers agree 66\.7% \(2\/3\); the answers that stand \(after rules and fallbacks\) agree 33\.3% \(1\/3\), live 1 and seed-7 0 of them on the fallback/,
    );
    assert.match(text.out, /differs: T-2: billing → technical_support/);
    assert.match(text.err, /candidate failed on T-4: Error: candidate timed out/);

    const later = await run("shadow", [
      "report",
      ...tableFlags(),
      "--since",
      "2026-12-01T10:00:02.500Z",
      "--json",
    ]);
    assert.equal(JSON.parse(later.out).records, 2, "T-3's and T-4's records only");
  });

  it("compares two results files of the same items with the same core", async () => {
    const a = join(folder, "cpu.jsonl");
    const b = join(folder, "gpu.jsonl");
    await writeFile(a, `${liveOutcomes.map((line) => JSON.stringify(line)).join("\n")}\n`);
    await writeFile(b, `${candidateOutcomes.map((line) => JSON.stringify(line)).join("\n")}\n`);
    const { code, out, err } = await run("compare", [a, b, "--json"]);
    assert.equal(code, 0, err);
    const report = JSON.parse(out);
    assert.equal(report.sampled, 3);
    assert.equal(report.only_a, 1, "T-4 is in the first file only");
    assert.equal(report.questions.queue.agreement, 1 / 3);
    assert.deepEqual(report.status.transitions, { "fallback→decided": 1 });

    const text = await run("compare", [a, b]);
    assert.match(text.out, /3 item\(s\) compared/);
    assert.match(text.out, /differs: ticket-routing\/T-2: billing → technical_support/);
    await writeFile(b, "not json\n");
    await assert.rejects(run("compare", [a, b]), /line 1 is not JSON/);
  });
});
