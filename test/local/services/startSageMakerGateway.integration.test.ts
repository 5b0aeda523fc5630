/** The gateway in front of the real adapter on the generated tiny-qwen3 model, with the real SDK client. */
import assert from "node:assert/strict";
import { EventEmitter } from "node:events";
import { copyFile, mkdir, mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { InvokeEndpointCommand, ModelError, SageMakerRuntimeClient } from "@aws-sdk/client-sagemaker-runtime";
import { ensureGeneratedModel } from "../../../adapter/models/generateModel.js";
import { writeModelManifest } from "../../../adapter/models/modelManifest.js";
import { serve } from "../../../adapter/server/serve.js";
import {
  type SageMakerGateway,
  startSageMakerGateway,
} from "../../../local/services/startSageMakerGateway.js";
import { LOCAL_CREDENTIALS } from "../../../local/stack/createLocalClients.js";
import { CapturingLogger, testSettings } from "../../adapter/server/serverHarness.js";

describe("startSageMakerGateway in front of the real adapter (integration)", () => {
  let folder: string;
  const signals = new EventEmitter();
  let exitCode: Promise<number>;
  let gateway: SageMakerGateway;
  let client: SageMakerRuntimeClient;

  before(async () => {
    folder = await mkdtemp(join(tmpdir(), "gateway-adapter-"));
    const modelDir = join(folder, "model");
    await mkdir(modelDir, { recursive: true });
    const gguf = join(modelDir, "tiny-qwen3.gguf");
    await copyFile(await ensureGeneratedModel("tiny-qwen3"), gguf);
    await writeModelManifest(gguf, { source: "generated:tiny-qwen3", revision: "seed42" });
    const logger = new CapturingLogger();
    const port = await new Promise<number>((resolve) => {
      exitCode = serve(testSettings({ modelDir, threads: 2 }), {
        logger,
        signals,
        onReady: (server) => resolve(server.address.port),
      });
      void exitCode.then((code) => resolve(-code));
    });
    assert.ok(port > 0, `the adapter did not start: ${JSON.stringify(logger.events("startup_failed"))}`);
    gateway = await startSageMakerGateway({ endpoints: { decisions: `http://127.0.0.1:${port}` } });
    client = new SageMakerRuntimeClient({
      endpoint: gateway.url,
      region: "us-east-1",
      credentials: LOCAL_CREDENTIALS,
      maxAttempts: 1,
    });
  });

  after(async () => {
    client?.destroy();
    await gateway?.stop();
    signals.emit("SIGTERM");
    assert.equal(await exitCode, 0);
    await rm(folder, { recursive: true, force: true });
  });

  it("returns the adapter's System One answer through InvokeEndpoint, counted once", async () => {
    const body = JSON.stringify({
      state: { ticket: "My invoice is wrong", amount: 2 },
      questions: {
        team: { type: "choice", instructions: "Which team?", criteria: ["billing", "technical"] },
      },
    });
    const output = await client.send(
      new InvokeEndpointCommand({ EndpointName: "decisions", ContentType: "application/json", Body: body }),
    );
    const answer = JSON.parse(new TextDecoder().decode(output.Body));
    assert.equal(answer.answers.team.type, "choice");
    assert.deepEqual(Object.keys(answer.answers.team.probabilities).sort(), ["billing", "technical"]);
    assert.match(output.ContentType ?? "", /^application\/json/);
    assert.equal(output.InvokedProductionVariant, "AllTraffic");
    assert.equal(gateway.invocations("decisions"), 1);
  });

  it("surfaces the adapter's 400 for an invalid request as ModelError with the original status", async () => {
    await assert.rejects(
      client.send(
        new InvokeEndpointCommand({
          EndpointName: "decisions",
          ContentType: "application/json",
          Body: JSON.stringify({ state: "s", questions: {} }),
        }),
      ),
      (error: unknown) => {
        assert.ok(error instanceof ModelError, String(error));
        assert.equal(error.OriginalStatusCode, 400);
        assert.match(error.OriginalMessage ?? "", /questions/);
        return true;
      },
    );
    assert.equal(gateway.invocations("decisions"), 2);
  });
});
