import type { FunctionHostConfig } from "./FunctionHostConfig.js";
import type { RunState } from "./RunState.js";
import { type FunctionHost, startFunctionHost } from "./startFunctionHost.js";

/** Starts the function host with `config`, its events, record failures and re-queues counted in `run`. */
export async function startHost(config: FunctionHostConfig, run: RunState): Promise<FunctionHost> {
  return startFunctionHost({
    config,
    onEvent: (event) => run.onEvent(event),
    onRecordFailure: ({ messageId, reason, error }) => {
      run.recordFailures += 1;
      run.failureKinds.set(error, (run.failureKinds.get(error) ?? 0) + 1);
      run.failures.set(messageId, reason);
    },
    onRequeue: ({ messageId }) => run.onRequeue(messageId),
  });
}
