import { SeededRandom } from "../../../core/common/SeededRandom.js";
import {
  createLocalDecideHandler,
  type LocalStack,
  type SqsBatchHandler,
  type StackHandlerContext,
  startLocalStack,
} from "../../../local/index.js";
import { FaultProxy, type ProxyExchange } from "../../chaos/FaultProxy.js";
import type { BacklogRig } from "./BacklogRig.js";
import { ADAPTER_ADMISSION, MAX_RECEIVE_COUNT } from "./constants.js";
import type { BacklogWorkload } from "./prepareBacklogWorkload.js";
import type { EndpointCall } from "./profileEndpointCalls.js";
import type { BacklogBenchSetup } from "./setupBacklogBench.js";
import type { BacklogBenchOptions } from "./types.js";

/**
 * Starts what the bench drives: the local stack with the bench's adapter, its own poller stopped,
 * a counting proxy between the gateway and the adapter, and `instances` decide handlers. What has
 * started is stopped again when a later part fails.
 */
export async function startBacklogRig(
  workload: BacklogWorkload,
  options: BacklogBenchOptions,
  setup: BacklogBenchSetup,
): Promise<BacklogRig> {
  const { stack, context } = await startBenchStack(workload.modelPath, options.threads, options.env, setup);
  const calls: EndpointCall[] = [];
  let proxy: FaultProxy | undefined;
  try {
    await stack.poller.stop();
    if (context === undefined) throw new Error("the stack built no handler context");
    proxy = await startCountingProxy(stack.adapterUrl, calls);
    stack.gateway.setEndpoint(stack.endpointName, proxy.url);
    const handlers = await createInstances(context, setup);
    const started = proxy;
    return {
      stack,
      handlers,
      parts: { adapter: stack.adapter.pid, "DynamoDB Local": stack.dynamodb.pid },
      calls,
      policies: workload.policies,
      setup,
      stop: async () => {
        await started.stop();
        await stack.stop();
      },
    };
  } catch (error) {
    await proxy?.stop();
    await stack.stop();
    throw error;
  }
}

/**
 * Starts the local stack with the bench's adapter (cache off, explicit admission) and a stand-in
 * handler: the bench runs its own function instances on the handler context the stack builds.
 */
async function startBenchStack(
  modelPath: string,
  threads: number | undefined,
  env: Readonly<NodeJS.ProcessEnv>,
  setup: BacklogBenchSetup,
): Promise<{ stack: LocalStack; context: StackHandlerContext | undefined }> {
  let context: StackHandlerContext | undefined;
  const stack = await startLocalStack({
    env,
    model: modelPath,
    adapterThreads: threads,
    adapterArgs: [
      "--cache-max-bytes",
      "0",
      "--max-in-flight",
      String(ADAPTER_ADMISSION.running),
      "--queue-depth",
      String(ADAPTER_ADMISSION.waiting),
    ],
    functionTimeoutMs: setup.functionTimeoutMs,
    visibilityTimeoutSeconds: setup.visibilityTimeoutSeconds,
    maxReceiveCount: MAX_RECEIVE_COUNT,
    log: setup.log,
    // This poller is stopped below: with a 1 s long poll the stop waits at most 1 s for its receive, which then cannot take what is sent later.
    poller: { waitTimeSeconds: 1 },
    createHandler: (handlerContext) => {
      context = handlerContext;
      return async () => {
        throw new Error("the bench runs its own function instances");
      };
    },
  });
  return { stack, context };
}

/** A proxy between the gateway and the adapter that records every endpoint call into `calls`. */
function startCountingProxy(adapterUrl: string, calls: EndpointCall[]): Promise<FaultProxy> {
  return FaultProxy.start({
    target: adapterUrl,
    random: new SeededRandom(1),
    onExchange: (exchange: ProxyExchange) => {
      const end = performance.now();
      calls.push({
        status: exchange.status,
        startMs: end - exchange.upstreamMs,
        endMs: end,
        body: exchange.body,
      });
    },
  });
}

/** `instances` decide handlers, each its own function instance with the bench's groups. */
function createInstances(context: StackHandlerContext, setup: BacklogBenchSetup): Promise<SqsBatchHandler[]> {
  return Promise.all(
    Array.from({ length: setup.instances }, () =>
      createLocalDecideHandler(context, {
        environment: { MAX_CONCURRENT_GROUPS: String(setup.maxConcurrentGroups) },
      }),
    ),
  );
}
