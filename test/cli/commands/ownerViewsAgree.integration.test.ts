/**
 * `decisions compare`, `decisions shadow report`, `decisions outcomes show` and the review console's
 * API read the same seeded facts on DynamoDB Local (127.0.0.1) and tell them alike: 18 items of
 * ticket-routing on which live and a candidate disagree in every model answer — 6 that both sent
 * to the fallback (triage: the answers that stand agree) and 12 each decided differently — and a
 * review amended by carol. The CLI is pointed at the tables with `--up-info`, as a person would.
 */
import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { fileURLToPath } from "node:url";
import { type DynamoDBDocumentClient, PutCommand } from "@aws-sdk/lib-dynamodb";
import { createCompareCommand } from "../../../cli/commands/compareCommand.js";
import { createOutcomesCommand } from "../../../cli/commands/outcomesCommand.js";
import { createShadowCommand } from "../../../cli/commands/shadowCommand.js";
import type { CliCommand, CliOutput } from "../../../cli/types.js";
import { describeReview } from "../../../contract/outcome/describeReview.js";
import type { OutcomeReview } from "../../../contract/outcome/OutcomeSchema.js";
import { outcomesTableDefinition, reviewOutcome, ShadowRecordStore } from "../../../core/outcomes/index.js";
import { loadPolicies, type Policy } from "../../../core/policy/index.js";
import { ReviewApi } from "../../../core/review/ReviewApi.js";
import { routeReviewRequest } from "../../../core/review/routeReviewRequest.js";
import {
  outcomeRow,
  SHADOW_SCENARIO_CANDIDATE,
  ticketRoutingResult,
} from "../../support/seedShadowScenario.js";
import { type LocalTables, startLocalTables } from "../../support/startLocalTables.js";

const POLICIES = fileURLToPath(new URL("../../../policies/", import.meta.url));
const TABLE = "outcomes";
const POLICY = "ticket-routing";

async function run(
  create: (output: Partial<CliOutput>) => CliCommand,
  args: string[],
): Promise<{ code: number; out: string; err: string }> {
  let out = "";
  let err = "";
  const code = await create({
    stdout: { write: (text: string) => (out += text) },
    stderr: { write: (text: string) => (err += text) },
  }).run(args);
  return { code, out, err };
}

describe("compare, shadow report, outcomes show and the console agree (integration)", () => {
  let tables: LocalTables;
  let documents: DynamoDBDocumentClient;
  let policy: Policy;
  let folder: string;
  let upInfo: string;
  let api: ReviewApi;
  let candidateFile: string;

  before(async () => {
    tables = await startLocalTables({ tables: [outcomesTableDefinition(TABLE)] });
    documents = tables.documents;
    const policies = await loadPolicies(POLICIES);
    policy = policies.get(POLICY) as Policy;
    api = new ReviewApi({ client: documents, tableName: TABLE, policies });
    folder = await mkdtemp(join(tmpdir(), "owner-views-"));
    upInfo = join(folder, "up.json");
    await writeFile(
      upInfo,
      `${JSON.stringify({ region: "us-east-1", dynamodb_endpoint: tables.dynamo.endpoint, table: TABLE })}\n`,
    );

    const shadows = new ShadowRecordStore({ client: documents, tableName: TABLE });
    const candidateRows: Record<string, unknown>[] = [];
    const seed = async (id: string, live: number, candidate: number, queue: [string, string]) => {
      await documents.send(
        new PutCommand({
          TableName: TABLE,
          Item: outcomeRow(id, ticketRoutingResult(policy, queue[0], live)),
        }),
      );
      const result = ticketRoutingResult(policy, queue[1], candidate);
      await shadows.put({ policy: POLICY, id, candidate: SHADOW_SCENARIO_CANDIDATE, result });
      candidateRows.push(outcomeRow(id, result));
    };
    // Both models unsure, of different answers: both sides stand on the fallback (triage).
    for (let index = 1; index <= 6; index += 1)
      await seed(`F-${index}`, 0.3, 0.3, ["billing", "technical_support"]);
    // Both sure, of different answers.
    for (let index = 1; index <= 12; index += 1)
      await seed(`D-${String(index).padStart(2, "0")}`, 0.95, 0.9, ["billing", "technical_support"]);
    await reviewOutcome({
      client: documents,
      tableName: TABLE,
      policy,
      id: "F-1",
      answers: { queue: "billing" },
      by: "alice",
    });
    await reviewOutcome({
      client: documents,
      tableName: TABLE,
      policy,
      id: "F-1",
      answers: { queue: "sales" },
      by: "carol",
      amend: true,
    });
    candidateFile = join(folder, "candidate.jsonl");
    await writeFile(candidateFile, candidateRows.map((row) => `${JSON.stringify(row)}\n`).join(""));
  });

  after(async () => {
    await tables?.stop();
    if (folder !== undefined) await rm(folder, { recursive: true, force: true });
  });

  it("shadow report and compare put the models' own agreement first, beside the agreement after fallbacks", async () => {
    const shadow = await run(createShadowCommand, ["report", "--policy", POLICY, "--up-info", upInfo]);
    const liveFile = join(folder, "live.jsonl");
    const exported = await run(createOutcomesCommand, [
      "export",
      "--policy",
      POLICY,
      "--up-info",
      upInfo,
      "--out",
      liveFile,
    ]);
    assert.equal(exported.code, 0, exported.err);
    const compare = await run(createCompareCommand, [liveFile, candidateFile]);

    assert.equal(shadow.code, 0, shadow.err);
    assert.equal(compare.code, 0, compare.err);
    const facts =
      "the models' own answers agree 0.0% (0/18); the answers that stand (after rules and fallbacks) agree 33.3% (6/18)";
    assert.match(
      shadow.out,
      new RegExp(
        `^question queue: ${escapeRegExp(facts)}, live 6 and seed-7 6 of them on the fallback$`,
        "m",
      ),
    );
    assert.match(
      compare.out,
      new RegExp(
        `^question queue: ${escapeRegExp(facts)}, ${escapeRegExp(liveFile)} 6 and ${escapeRegExp(candidateFile)} 6 of them on the fallback$`,
        "m",
      ),
    );
    assert.equal((await readFile(liveFile, "utf8")).trim().split("\n").length, 18);
  });

  it("says where a list of differing items is cut, and --listed shows the rest", async () => {
    const shadow = await run(createShadowCommand, ["report", "--policy", POLICY, "--up-info", upInfo]);
    const longer = await run(createShadowCommand, [
      "report",
      "--policy",
      POLICY,
      "--up-info",
      upInfo,
      "--listed",
      "20",
    ]);

    assert.equal(shadow.out.match(/^ {2}differs: D-\d\d: billing → technical_support$/gm)?.length, 10);
    assert.match(
      shadow.out,
      /^ {2}… and 2 more differ \(the first 10 of 12 listed; --listed <n> lists up to n \(now 10\)\)$/m,
    );
    assert.equal(longer.out.match(/^ {2}differs: /gm)?.length, 12);
    assert.doesNotMatch(longer.out, /more differ/);
  });

  it("the console's shadow JSON is the CLI's, field for field", async () => {
    const cli = await run(createShadowCommand, ["report", "--policy", POLICY, "--up-info", upInfo, "--json"]);
    const response = await routeReviewRequest(api, {
      method: "GET",
      path: `/api/policies/${POLICY}/shadow`,
      query: {},
    });

    assert.equal(response.status, 200);
    const { failures: _failures, ...report } = JSON.parse(JSON.stringify(response.body));
    assert.deepEqual(report, JSON.parse(cli.out));
    assert.equal(report.questions.queue.model_agreement, 0);
    assert.equal(report.questions.queue.agreed, 6);
  });

  it("the console's ?since= is read as the CLI's --since: a far-future or far-past time is refused, naming the range", async () => {
    for (const [picture, since] of [
      ["shadow", "+275760-09-13T00:00:00.000Z"],
      ["drift", "-271821-04-20T00:00:00Z"],
    ]) {
      const response = await routeReviewRequest(api, {
        method: "GET",
        path: `/api/policies/${POLICY}/${picture}`,
        query: { since },
      });
      assert.equal(response.status, 400, picture);
      assert.match(
        JSON.stringify(response.body),
        /outside the times taken, from 1970-01-01 to 9999-12-31/,
        picture,
      );
    }
  });

  it("outcomes show words each review as the console's history does: amended by carol (was billing)", async () => {
    const show = await run(createOutcomesCommand, ["show", "F-1", "--policy", POLICY, "--up-info", upInfo]);
    const item = await routeReviewRequest(api, {
      method: "GET",
      path: `/api/items/${POLICY}/F-1`,
      query: {},
    });

    assert.equal(show.code, 0, show.err);
    assert.equal(item.status, 200);
    const history = (item.body as { history: OutcomeReview[] }).history;
    assert.equal(history.length, 2);
    const lines = show.err.split("\n").filter((line) => /^ {2}\d{4}-/.test(line));
    assert.equal(lines.length, 3, show.err);
    for (const [index, review] of history.entries()) {
      assert.ok(
        (lines[index + 1] ?? "").includes(describeReview(review)),
        `${lines[index + 1]} / ${describeReview(review)}`,
      );
    }
    assert.match(lines[2] ?? "", /amended by carol: queue=sales \(was billing\)/);
    assert.match(
      describeReview(history[0] as OutcomeReview),
      /^reviewed by alice: queue=billing \(was triage\)/,
    );
  });
});

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
