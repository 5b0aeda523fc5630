import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { createPreflightCommand } from "../../../cli/commands/preflightCommand.js";

const RECORDED = join(import.meta.dirname, "recorded");
const recorded = (file: string) => readFileSync(join(RECORDED, file), "utf8");

/** What the loopback server answers: one world per test. */
interface World {
  bootstrap: "ready" | "missing";
  /** Bucket name → its region. */
  buckets: Record<string, string>;
  /** `bucket/key` → the object (body, and an S3 full-object SHA-256 as base64). */
  objects: Record<string, { body?: string; size?: number; sha256Base64?: string }>;
}

/**
 * A loopback server speaking the three services' wire protocols with recorded answers: the real
 * SDK clients (S3 REST, CloudFormation query, Service Quotas JSON 1.1) talk to it; nothing leaves
 * 127.0.0.1.
 */
class RecordedAws {
  world: World = { bootstrap: "ready", buckets: {}, objects: {} };
  readonly requests: string[] = [];
  private server: Server | undefined;
  url = "";

  async start(): Promise<void> {
    this.server = createServer((request, response) => {
      const chunks: Buffer[] = [];
      request.on("data", (chunk: Buffer) => chunks.push(chunk));
      request.on("end", () => this.answer(request, Buffer.concat(chunks).toString("utf8"), response));
    });
    await new Promise<void>((resolve) => this.server?.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  async stop(): Promise<void> {
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  private answer(request: IncomingMessage, body: string, response: ServerResponse): void {
    const target = request.headers["x-amz-target"];
    const path = decodeURIComponent((request.url ?? "/").split("?")[0] ?? "/");
    this.requests.push(`${request.method} ${typeof target === "string" ? target : path}`);
    if (target === "ServiceQuotasV20190624.ListServiceQuotas") {
      const page = (JSON.parse(body) as { NextToken?: string }).NextToken === "page-2" ? 2 : 1;
      response.writeHead(200, { "content-type": "application/x-amz-json-1.1" });
      response.end(recorded(`listServiceQuotas-page${page}.json`));
      return;
    }
    if (request.method === "POST" && body.includes("Action=DescribeStacks")) {
      const ready = this.world.bootstrap === "ready";
      response.writeHead(ready ? 200 : 400, { "content-type": "text/xml" });
      response.end(recorded(ready ? "describeStacks-CDKToolkit.xml" : "describeStacks-missing.xml"));
      return;
    }
    // S3, path-style: /<bucket> or /<bucket>/<key>
    const [, bucket = "", ...rest] = path.split("/");
    const key = rest.join("/");
    const region = this.world.buckets[bucket];
    if (region === undefined) {
      this.s3Missing(response, request.method);
      return;
    }
    if (key === "") {
      response.writeHead(200, { "x-amz-bucket-region": region });
      response.end();
      return;
    }
    const object = this.world.objects[`${bucket}/${key}`];
    if (object === undefined) {
      this.s3Missing(response, request.method);
      return;
    }
    const size = object.size ?? Buffer.byteLength(object.body ?? "");
    response.writeHead(200, {
      "content-length": String(size),
      "content-type": "application/octet-stream",
      etag: '"0123456789abcdef0123456789abcdef"',
      ...(object.sha256Base64 === undefined
        ? {}
        : { "x-amz-checksum-sha256": object.sha256Base64, "x-amz-checksum-type": "FULL_OBJECT" }),
    });
    response.end(request.method === "HEAD" ? undefined : (object.body ?? ""));
  }

  private s3Missing(response: ServerResponse, method: string | undefined): void {
    response.writeHead(404, { "content-type": "application/xml" });
    response.end(
      method === "HEAD"
        ? undefined
        : '<?xml version="1.0" encoding="UTF-8"?><Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>',
    );
  }
}

async function preflight(
  aws: RecordedAws,
  args: string[],
): Promise<{
  code: number;
  checks: Array<{ name: string; status: string; detail: string }>;
  stderr: string;
}> {
  let out = "";
  let err = "";
  const command = createPreflightCommand({
    stdout: { write: (text: string) => (out += text) },
    stderr: { write: (text: string) => (err += text) },
  });
  const code = await command.run(["--region", "us-east-1", "--endpoint-url", aws.url, "--json", ...args]);
  return {
    code,
    checks: out
      .trim()
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => JSON.parse(line) as { name: string; status: string; detail: string }),
    stderr: err,
  };
}

describe("decisions preflight against recorded AWS answers on loopback", () => {
  const aws = new RecordedAws();
  before(() => aws.start());
  after(() => aws.stop());

  it("passes a ready account: bootstrap, the model archive in the region, the CPU endpoint quota", async () => {
    aws.world = {
      bootstrap: "ready",
      buckets: { "decisions-models-111122223333-us-east-1": "us-east-1" },
      objects: { "decisions-models-111122223333-us-east-1/model.tar.gz": { size: 2_600_000_000 } },
    };
    const { code, checks } = await preflight(aws, []);

    assert.deepEqual(
      checks.map((check) => [check.name, check.status]),
      [
        ["bootstrap stack", "pass"],
        ["model bucket", "pass"],
        ["model data", "pass"],
        ["endpoint quota ml.c6i.8xlarge", "pass"],
      ],
    );
    assert.equal(code, 0);
    // The account came from the bootstrap stack's id; both quota pages were read.
    assert.ok(
      aws.requests.includes("HEAD /decisions-models-111122223333-us-east-1/model.tar.gz"),
      aws.requests.join("\n"),
    );
    assert.equal(aws.requests.filter((request) => request.endsWith("ListServiceQuotas")).length, 2);
  });

  it("counts each lane's copies with lanes-from-zero: twice maxInstances of the instance type", async () => {
    aws.world = {
      bootstrap: "ready",
      buckets: { "decisions-models-111122223333-us-east-1": "us-east-1" },
      objects: { "decisions-models-111122223333-us-east-1/model.tar.gz": { size: 2_600_000_000 } },
    };

    const shared = await preflight(aws, []);
    const fromZero = await preflight(aws, ["-c", "layout=lanes-from-zero"]);

    const quota = (checks: typeof shared.checks) =>
      checks.find((check) => check.name === "endpoint quota ml.c6i.8xlarge");
    assert.equal(quota(shared.checks)?.status, "pass");
    assert.equal(quota(fromZero.checks)?.status, "fail");
    assert.match(quota(fromZero.checks)?.detail ?? "", /is 2, the stack may run 4: request an increase/);
  });

  it("fails a fresh account on every point a first deploy would hit, each with what to do", async () => {
    aws.world = {
      bootstrap: "missing",
      buckets: { "decisions-models-111122223333-us-east-1": "eu-west-1" },
      objects: {},
    };
    const image = `763104351884.dkr.ecr.us-west-2.amazonaws.com/llama-cpp@sha256:${"ab".repeat(32)}`;
    const { code, checks, stderr } = await preflight(aws, [
      "--account",
      "111122223333",
      "-c",
      "accelerator=gpu",
      "-c",
      "standardEndpoint=true",
      "-c",
      `standardImage=${image}`,
    ]);
    const byName = Object.fromEntries(checks.map((check) => [check.name, check]));

    assert.equal(code, 1);
    assert.match(stderr, /check\(s\) failed/);
    assert.equal(byName["bootstrap stack"]?.status, "fail");
    assert.match(byName["bootstrap stack"]?.detail ?? "", /npx cdk bootstrap/);
    assert.equal(byName["model bucket"]?.status, "fail");
    assert.match(byName["model bucket"]?.detail ?? "", /is in eu-west-1, the stack deploys to us-east-1/);
    assert.equal(byName["model data"]?.status, "fail");
    assert.match(byName["model data"]?.detail ?? "", /does not exist: package the GGUF/);
    // Pools: g6e 0 of 2 (fails), g6 4, g5 2, c6i 2 + 1 for the standard endpoint on the same type.
    assert.equal(byName["endpoint quota ml.g6e.xlarge"]?.status, "fail");
    assert.match(
      byName["endpoint quota ml.g6e.xlarge"]?.detail ?? "",
      /is 0, the stack may run 2: request an increase/,
    );
    assert.equal(byName["endpoint quota ml.g6.xlarge"]?.status, "pass");
    assert.equal(byName["endpoint quota ml.g5.xlarge"]?.status, "pass");
    assert.equal(byName["endpoint quota ml.c6i.8xlarge"]?.status, "fail");
    assert.equal(byName["standard image region"]?.status, "fail");
    assert.match(byName["standard image region"]?.detail ?? "", /us-west-2, the stack deploys to us-east-1/);
  });

  it("checks unpacked model data against its manifest: the GGUF's size and S3's SHA-256", async () => {
    const digest = "9f".repeat(32);
    const manifest = JSON.stringify({
      file: "model.gguf",
      sha256: digest,
      size_bytes: 1234,
      source: null,
      revision: null,
      created_at: "2026-12-01T00:00:00.000Z",
    });
    const world = (sha256: string, size: number): World => ({
      bootstrap: "ready",
      buckets: { models: "us-east-1" },
      objects: {
        "models/qwen/model-manifest.json": { body: manifest },
        "models/qwen/model.gguf": { size, sha256Base64: Buffer.from(sha256, "hex").toString("base64") },
      },
    });
    const args = ["-c", "modelDataCompression=none", "-c", "modelDataUrl=s3://models/qwen/"];

    aws.world = world(digest, 1234);
    const good = await preflight(aws, args);
    assert.equal(good.code, 0, JSON.stringify(good.checks));
    assert.match(
      good.checks.find((check) => check.name === "model file")?.detail ?? "",
      /size and SHA-256 match/,
    );

    aws.world = world("00".repeat(32), 1234);
    const altered = await preflight(aws, args);
    assert.equal(altered.code, 1);
    assert.match(
      altered.checks.find((check) => check.name === "model file")?.detail ?? "",
      /the manifest says 9f9f/,
    );

    aws.world = world(digest, 999);
    const truncated = await preflight(aws, args);
    assert.match(
      truncated.checks.find((check) => check.name === "model file")?.detail ?? "",
      /is 999 bytes, the manifest says 1234/,
    );
  });

  it("refuses a context the app would refuse, naming the knob, before calling AWS", async () => {
    const before = aws.requests.length;
    await assert.rejects(
      preflight(aws, ["-c", "accelerator=gpu", "-c", "instanceProvisionTimeoutSeconds=120"]),
      /instanceProvisionTimeoutSeconds: must be an integer from 300 to 3600/,
    );
    assert.equal(aws.requests.length, before);
  });
});
