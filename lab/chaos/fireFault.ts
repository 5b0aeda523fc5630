import { setTimeout as sleep } from "node:timers/promises";
import { type DynamoDBClient, GetItemCommand } from "@aws-sdk/client-dynamodb";
import { LANES, type Lane } from "../../contract/lanes/lanes.js";
import { UNPARSED_POLICY } from "../../contract/outcome/outcomesTableKeys.js";
import { type AdapterProcess, startAdapterProcess } from "../../local/services/startAdapterProcess.js";
import { type DynamoDbLocal, startDynamoDbLocal } from "../../local/services/startDynamoDbLocal.js";
import type { LocalStack } from "../../local/stack/startLocalStack.js";
import type { ChaosOptions } from "./chaosRunTypes.js";
import { FaultInjectionError } from "./errors.js";
import type { FaultProxy } from "./FaultProxy.js";
import type { FunctionHostConfig } from "./FunctionHostConfig.js";
import type { PlannedFault } from "./planFaultSchedule.js";
import type { RunState } from "./RunState.js";
import { scanOutcomeRows } from "./readChaosEvidence.js";
import type { FunctionHost } from "./startFunctionHost.js";
import { startHost } from "./startHost.js";
import { waitFor } from "./waitFor.js";

/** The parts a fault acts on; restarted ones replace the originals here. */
export interface ChaosParts {
  stack: LocalStack;
  proxy: FaultProxy;
  adapter: AdapterProcess;
  dynamodb: DynamoDbLocal;
  host: FunctionHost;
  hostConfig: FunctionHostConfig;
  dataDir: string;
  options: ChaosOptions;
}

/** Injects one fault and undoes it; returns what it did. */
export async function fireFault(
  fault: PlannedFault,
  parts: ChaosParts,
  run: RunState,
): Promise<Record<string, number | string>> {
  const { proxy } = parts;
  switch (fault.kind) {
    case "adapter-errors":
    case "slow-answers": {
      const before = proxy.stats();
      proxy.inject(
        fault.kind === "adapter-errors"
          ? { kind: "error", status: fault.status, share: fault.share }
          : { kind: "slow", share: fault.share, delayMs: fault.delayMs },
      );
      await sleep(fault.durationMs);
      proxy.inject(undefined);
      const after = proxy.stats();
      const perLane: Record<string, number> = {};
      for (const lane of LANES) {
        const [was, is] = [before.byLane[lane], after.byLane[lane]];
        perLane[`${lane}_calls`] = is.requests - was.requests;
        perLane[`${lane}_hit`] =
          fault.kind === "adapter-errors" ? is.injectedErrors - was.injectedErrors : is.slowed - was.slowed;
      }
      return {
        calls: after.requests - before.requests,
        answered_error: after.injectedErrors - before.injectedErrors,
        held_back: after.slowed - before.slowed,
        ...perLane,
      };
    }
    case "adapter-kill": {
      const before = proxy.stats();
      await parts.adapter.kill();
      await sleep(fault.downMs);
      const restartStarted = performance.now();
      try {
        parts.adapter = await startAdapterProcess({
          modelPath: parts.stack.model.path,
          requireManifest: parts.stack.model.generated,
          threads: parts.options.adapterThreads,
          env: parts.options.env,
        });
      } catch (error) {
        throw new FaultInjectionError(fault.kind, "the adapter did not restart", { cause: error });
      }
      proxy.setTarget(parts.adapter.url);
      return {
        restart_ms: Math.round(performance.now() - restartStarted),
        calls_refused_while_down: proxy.stats().upstreamFailures - before.upstreamFailures,
      };
    }
    case "dynamodb-stop": {
      const { clients, table } = parts.stack;
      const port = parts.dynamodb.port;
      const itemsBefore = await countRows(clients.dynamodb, table);
      await parts.dynamodb.stop();
      await sleep(fault.downMs);
      try {
        parts.dynamodb = await startDynamoDbLocal({
          port,
          dataDir: parts.dataDir,
          java: parts.options.java,
          env: parts.options.env,
        });
      } catch (error) {
        throw new FaultInjectionError(fault.kind, `DynamoDB Local did not restart on port ${port}`, {
          cause: error,
        });
      }
      return {
        outcomes_before_stop: itemsBefore,
        outcomes_after_restart: await countRows(clients.dynamodb, table),
      };
    }
    case "poller-kill": {
      // Half of the answers are held back meanwhile, so the batch killed has some groups answered
      // and written and others still waiting: a half-written batch.
      proxy.inject({ kind: "slow", share: 0.5, delayMs: [1_500, 1_500] });
      const batch = await run.nextBatchStart(30_000);
      await sleep(fault.afterBatchStartMs);
      const halfWritten = await waitFor(
        async () => {
          const written = await countWritten(parts.stack, run, batch);
          return written > 0 && written < batch.length;
        },
        { timeoutMs: 5_000 },
      );
      await parts.host.kill();
      proxy.inject(undefined);
      const orphaned = [...run.inFlight.keys()];
      const orphanedIn = (lane: Lane) => [...run.inFlight.values()].filter((each) => each === lane).length;
      const inFlightByLane = { interactive: orphanedIn("interactive"), bulk: orphanedIn("bulk") };
      run.inFlight.clear();
      const written = await countWritten(parts.stack, run, orphaned);
      await sleep(fault.downMs);
      parts.host = await startHost(parts.hostConfig, run);
      return {
        mid_batch:
          batch.length === 0 ? "no batch started within 30 s" : halfWritten ? "yes" : "not seen half-written",
        records_in_flight_at_kill: orphaned.length,
        interactive_in_flight: inFlightByLane.interactive,
        bulk_in_flight: inFlightByLane.bulk,
        of_which_outcome_written: written,
      };
    }
  }
}

/** How many of these messages' items have an outcome already (a half-written batch has some, not all). */
async function countWritten(
  stack: LocalStack,
  run: RunState,
  messageIds: readonly string[],
): Promise<number> {
  let written = 0;
  for (const messageId of messageIds) {
    const sent = run.sent.find((message) => message.messageId === messageId);
    const item = sent === undefined ? undefined : run.workload.items[sent.item];
    if (item === undefined) continue;
    const key = item.key ?? { policy: UNPARSED_POLICY, id: messageId };
    const answer = await stack.clients.dynamodb.send(
      new GetItemCommand({
        TableName: stack.table,
        Key: { policy: { S: key.policy }, id: { S: key.id } },
        ConsistentRead: true,
        ProjectionExpression: "#id",
        ExpressionAttributeNames: { "#id": "id" },
      }),
    );
    if (answer.Item !== undefined) written += 1;
  }
  return written;
}

/** How many outcomes the table holds. */
async function countRows(dynamodb: DynamoDBClient, table: string): Promise<number> {
  return (await scanOutcomeRows(dynamodb, table)).length;
}
