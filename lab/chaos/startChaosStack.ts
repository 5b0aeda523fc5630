import { type LocalStack, startLocalStack } from "../../local/stack/startLocalStack.js";
import type { ChaosOptions } from "./chaosRunTypes.js";
import type { ChaosPlan } from "./planChaosRun.js";

/**
 * Starts the local stack for a chaos run (DynamoDB Local on `dataDir`, fauxqs with each lane's
 * queue and DLQ, the adapter, the gateway) whose decide handlers refuse: each lane's decide
 * function runs in the function host instead, so that it can be killed, and the caller stops the
 * stack's own pollers before anything is sent.
 */
export async function startChaosStack(
  options: ChaosOptions,
  plan: ChaosPlan,
  dataDir: string,
  log: (line: string) => void,
): Promise<LocalStack> {
  return startLocalStack({
    env: options.env,
    model: options.model,
    dataDir,
    java: options.java,
    functionTimeoutMs: plan.functionTimeoutMs,
    visibilityTimeoutSeconds: plan.visibilityTimeoutSeconds,
    maxReceiveCount: options.maxReceiveCount ?? 5,
    adapterThreads: options.adapterThreads,
    log,
    // These pollers are stopped before sending: with a 1 s long poll the stop waits at most 1 s for its receive, which then cannot take what is sent later.
    poller: { waitTimeSeconds: 1 },
    // Each lane's decide function runs in the function host process (so it can be killed); the
    // stack's own pollers are stopped before anything is sent.
    createHandler: () => async () => {
      throw new Error("the chaos run's decide functions run in the function host");
    },
  });
}
