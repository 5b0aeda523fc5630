/**
 * The CPU image built and run for real, as SageMaker runs it: adapter/Dockerfile built with podman on
 * a locally made base (test/image/localBaseImage.ts), then `<image> serve` with a generated tiny-qwen3
 * model and its manifest mounted read-only at /opt/ml/model, port 8080 published on 127.0.0.1 only,
 * a read-only root file system with a tmpfs at /tmp, and the image's own non-root user. It answers a
 * SemIf decision, a shared `decisions` request and a System One request on /invocations (the only
 * path SageMaker calls), and stops on SIGTERM with exit 0 before podman's 30 s would kill it.
 * The container and the image are removed afterwards; the base image is kept for the next run.
 * Where podman or the means to make the base are missing, the test is reported as not run (skipped,
 * with the reason), unless DECISIONS_IMAGE_TEST=required (CI), where that fails it.
 * DECISIONS_IMAGE_LLAMA_BUILD=portable|native builds the source-build variant instead of the prebuilt
 * binary (`--build-arg LLAMA_BUILD`, ~10 more minutes on 2 cores; not in CI) and checks that the
 * server runs that build.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { chmod, copyFile, mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { setTimeout as sleep } from "node:timers/promises";
import { ensureGeneratedModel } from "../../adapter/models/generateModel.js";
import { writeModelManifest } from "../../adapter/models/modelManifest.js";
import { send, supportRouteDecision } from "../adapter/server/httpClient.js";
import { CommandFailedError } from "./errors.js";
import { imageTestPrerequisites } from "./imageTestPrerequisites.js";
import { ensureLocalBaseImage } from "./localBaseImage.js";
import { runCommand } from "./runCommand.js";

const ROOT = new URL("../../", import.meta.url).pathname;
const prerequisites = await imageTestPrerequisites(ROOT, process.env);
// CI sets DECISIONS_IMAGE_TEST=required (.ci/run): there a missing prerequisite fails the test.
const required = process.env.DECISIONS_IMAGE_TEST === "required";
const llamaBuild = process.env.DECISIONS_IMAGE_LLAMA_BUILD ?? "prebuilt";
if (!["prebuilt", "portable", "native"].includes(llamaBuild))
  throw new Error(`DECISIONS_IMAGE_LLAMA_BUILD must be prebuilt, portable or native, got "${llamaBuild}"`);

describe("the CPU image, built with podman and served as SageMaker runs it (integration)", () => {
  if (!prerequisites.ready) {
    // One skipped test with the reason, so that a run without podman counts and says what it left out.
    const { reason } = prerequisites;
    it("builds adapter/Dockerfile, serves it and stops it", {
      skip: required ? false : `image test not run: ${reason}`,
    }, () => {
      assert.fail(`DECISIONS_IMAGE_TEST=required, but ${reason}`);
    });
    return;
  }
  const { env } = prerequisites;
  const run = `${Date.now().toString(36)}-${randomUUID().slice(0, 8)}`;
  const image = `localhost/decisions-image-test:${run}`;
  const container = `decisions-image-test-${run}`;
  const podman = (args: readonly string[], timeoutMs?: number) =>
    runCommand("podman", args, { env, ...(timeoutMs === undefined ? {} : { timeoutMs }) });
  let folder: string;
  let port: number;
  // How long each step took, reported with the first test (a hook has no diagnostic of its own).
  const timings: string[] = [];

  before(async () => {
    let started = Date.now();
    const base = await ensureLocalBaseImage(prerequisites.base);
    timings.push(`base image ${base.name}: ${base.made ? "made" : "cached"} in ${seconds(started)}`);

    started = Date.now();
    // --layers=false: no intermediate images are left behind; --force-rm: nor containers on failure.
    // --jobs=2: the deps stage installs its packages while the build stage compiles.
    await podman(
      [
        "build",
        "--pull=never",
        "--layers=false",
        "--force-rm",
        "--jobs=2",
        "--build-arg",
        `BASE_IMAGE=${base.name}`,
        "--build-arg",
        `LLAMA_BUILD=${llamaBuild}`,
      ].concat(["-f", join(ROOT, "adapter/Dockerfile"), "-t", image, ROOT]),
      (llamaBuild === "prebuilt" ? 20 : 45) * 60_000,
    );
    timings.push(`image (LLAMA_BUILD=${llamaBuild}) built in ${seconds(started)}`);

    // The model archive's contents as SageMaker unpacks them (a folder of their own inside), readable
    // by the image's user.
    folder = await mkdtemp(join(tmpdir(), "decisions-image-model-"));
    await mkdir(join(folder, "tiny"));
    const gguf = join(folder, "tiny", "tiny-qwen3.gguf");
    await copyFile(await ensureGeneratedModel("tiny-qwen3"), gguf);
    await writeModelManifest(gguf, { source: "generated:tiny-qwen3", revision: "seed42" });
    for (const path of [folder, join(folder, "tiny")]) await chmod(path, 0o755);
    for (const file of [gguf, join(folder, "tiny", "model-manifest.json")]) await chmod(file, 0o644);

    started = Date.now();
    await podman([
      "run",
      "--detach",
      "--name",
      container,
      "--read-only",
      "--read-only-tmpfs=false",
      "--tmpfs",
      "/tmp",
      "--publish",
      "127.0.0.1::8080",
      "--volume",
      `${folder}:/opt/ml/model:ro`,
      image,
      "serve",
    ]);
    const published = await podman(["port", container, "8080/tcp"]);
    assert.match(published, /^127\.0\.0\.1:\d+$/, "published on loopback only");
    port = Number(published.split(":")[1]);
    await untilPingAnswers();
    timings.push(`container answered /ping ${seconds(started)} after start`);
  });

  after(async () => {
    // --ignore: after a failed build or start there may be nothing to remove.
    await podman(["rm", "--force", "--ignore", container]);
    await podman(["rmi", "--force", "--ignore", image]);
    if (folder !== undefined) await rm(folder, { recursive: true, force: true });
  });

  /** Polls /ping until it answers 200; fails with the container's log if the container stops first. */
  async function untilPingAnswers(): Promise<void> {
    for (let attempt = 0; attempt < 1_200; attempt++) {
      if ((await podman(["inspect", "--format", "{{.State.Running}}", container])) !== "true")
        assert.fail(`the container stopped before answering /ping:\n${await logs()}`);
      // Refused or reset while the server is still starting: try again.
      const ping = await send(port, { path: "/ping" }).catch(() => undefined);
      if (ping?.status === 200) return;
      await sleep(250);
    }
    assert.fail(`no answer on /ping after 1200 tries:\n${await logs()}`);
  }

  async function logs(): Promise<string> {
    return podman(["logs", container]).catch((error: unknown) => String(error));
  }

  it("runs as the image's non-root user, with nothing writable outside /tmp", async (t) => {
    for (const line of timings) t.diagnostic(line);
    assert.equal(await podman(["exec", container, "id", "-u"]), "1000");
    const write = await podman(["exec", container, "touch", "/app/written"]).catch((error: unknown) => error);
    assert.ok(write instanceof CommandFailedError, "writing into /app fails");
    assert.match(write.output, /Read-only file system/);
    await podman(["exec", container, "touch", "/tmp/written"]);
  });

  it("ships one llama.cpp binary variant and no Node.js package of its own", async () => {
    // `npm install` of the variant once re-added every optional package of the lock (1.1 GB).
    assert.equal(await podman(["exec", container, "ls", "/app/node_modules/@node-llama-cpp"]), "linux-x64");
    const nodePackages = await podman([
      "exec",
      container,
      "sh",
      "-c",
      "ls -d /app/node_modules/node-* || true",
    ]);
    assert.deepEqual(nodePackages.split("\n").sort(), [
      "/app/node_modules/node-addon-api",
      "/app/node_modules/node-api-headers",
      "/app/node_modules/node-llama-cpp",
    ]);
  });

  it("runs the llama.cpp build it was made with", async () => {
    const binding = (await logs())
      .split("\n")
      .filter((line) => line.includes('"event":"llama_binding"'))
      .map((line) => JSON.parse(line) as { build_type: string; requested: string });
    assert.equal(binding.length, 1, await logs());
    assert.equal(binding[0]?.requested, llamaBuild);
    assert.equal(binding[0]?.build_type, llamaBuild === "prebuilt" ? "prebuilt" : "localBuild");
  });

  it("answers a SemIf decision on /invocations", async () => {
    const response = await send(port, { body: { decision: supportRouteDecision() } });
    assert.equal(response.status, 200, response.text);
    const result = response.json.result;
    assert.equal(result.id, "support-route");
    assert.deepEqual(result.option_ids, ["billing", "technical", "sales"]);
    const total = (result.probabilities as number[]).reduce((a, b) => a + b, 0);
    assert.ok(Math.abs(total - 1) < 1e-9, `probabilities sum to ${total}`);
    assert.equal(result.prompt_version, "direct-options-v1");
    assert.match(result.prompt_sha256, /^[0-9a-f]{64}$/);
  });

  it("answers a shared decisions request like the single decisions", async () => {
    const route = supportRouteDecision();
    const refund = {
      id: "refund",
      state: route.state,
      question: "Does the customer ask for a refund?",
      options: [
        { id: "yes", description: "Yes" },
        { id: "no", description: "No" },
      ],
    };
    const shared = await send(port, { body: { decisions: [route, refund] } });
    assert.equal(shared.status, 200, shared.text);
    for (const [index, decision] of [route, refund].entries()) {
      const single = await send(port, { body: { decision } });
      assert.equal(single.status, 200, single.text);
      assert.deepEqual(shared.json.results[index].option_ids, single.json.result.option_ids);
      const together: number[] = shared.json.results[index].probabilities;
      for (const [i, p] of together.entries())
        assert.ok(Math.abs(p - (single.json.result.probabilities[i] ?? Number.NaN)) <= 1e-4);
    }
  });

  it("answers a System One request on /invocations", async () => {
    const response = await send(port, {
      body: {
        state: { ticket: "The checkout page fails for every customer.", customer: { tier: "enterprise" } },
        questions: {
          team: {
            type: "choice",
            instructions: "Which team owns this?",
            criteria: { web: "Web team", payments: null },
          },
          outage: { type: "noul", instructions: "Is this an outage?", criteria: { true: "Service is down" } },
        },
      },
    });
    assert.equal(response.status, 200, response.text);
    const { answers } = response.json;
    assert.deepEqual(Object.keys(answers.team.probabilities), ["web", "payments"]);
    assert.ok(answers.outage.noul >= 0 && answers.outage.noul <= 1);
  });

  it("stops on SIGTERM with exit 0 after a graceful shutdown, before podman would kill it", async () => {
    // `podman stop` sends SIGTERM and SIGKILLs after --time seconds: a kill would show as 137.
    await podman(["stop", "--time", "30", container], 120_000);
    assert.equal(await podman(["inspect", "--format", "{{.State.ExitCode}}", container]), "0");
    assert.match(await logs(), /"event":"stopped"/);
  });
});

function seconds(since: number): string {
  return `${((Date.now() - since) / 1000).toFixed(1)} s`;
}
