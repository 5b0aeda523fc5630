import { runDemo } from "../../local/demo/runDemo.js";
import type { LocalIamOptions } from "../../local/iam/LocalIam.js";
import { type CfnTemplate, type DeployTarget, TemplateResolver } from "../../local/iam/TemplateResolver.js";
import type { LocalStack, StartLocalStackOptions } from "../../local/stack/startLocalStack.js";
import { driveLiveWorkload, type LiveWorkloadResult, liveWorkloadNames } from "./liveWorkload.js";
import type { LiveObservation } from "./rehearse.js";
import { templateAuthorizer } from "./templateAuthorizer.js";

/** Options of {@link rehearseLive}. */
export interface RehearseLiveOptions {
  template: CfnTemplate;
  target: DeployTarget;
  /** The environment DynamoDB Local and the adapter start from. */
  env: Readonly<NodeJS.ProcessEnv>;
  /** Where the demo's summary and the progress go (never stdout: `--json` prints one object there). */
  stderr: NodeJS.WritableStream & { isTTY?: boolean };
  /** Lines of the batch job. Default 20. */
  batchLines?: number;
  /** Incidents timed alone and during the job. Default 2. */
  incidents?: number;
  /** How long the demo's items may take to end. Default 600 s. */
  timeoutMs?: number;
  /** The sample events. Default `<repo>/events`. */
  eventsDir?: string;
  /** Stack settings (adapter threads, ports, java). */
  stack?: Omit<StartLocalStackOptions, "createHandler" | "model" | "log" | "ingest" | "jobs" | "env" | "iam">;
}

/**
 * The live part of `decisions rehearse`: the local stack started from the template with IAM
 * enforced (each function's calls authorized against its role in the template by
 * {@link templateAuthorizer}), the demo's workload through it (`runDemo`: the sample tickets,
 * incidents and EventBridge events, a batch job to its completion), then the rehearsal's own
 * ({@link driveLiveWorkload}: the console's routes with a review and an amendment, drift, the
 * shadow report, a redecide, the monitors' checks, the front door). Returns what the running
 * functions called, as the stack's IAM ledger counted it.
 */
export async function rehearseLive(options: RehearseLiveOptions): Promise<LiveObservation> {
  const iam: LocalIamOptions = {
    template: options.template,
    target: options.target,
    authorizer: templateAuthorizer(options.template, options.target),
    names: liveWorkloadNames(new TemplateResolver(options.template, options.target)),
  };
  let stack: LocalStack | undefined;
  let workload: LiveWorkloadResult = { routes: [], problems: [] };
  const note = (line: string) => options.stderr.write(`${line}\n`);
  const demo = await runDemo({
    env: options.env,
    batchLines: options.batchLines ?? 20,
    incidents: options.incidents ?? 2,
    timeoutMs: options.timeoutMs ?? 600_000,
    ...(options.eventsDir === undefined ? {} : { eventsDir: options.eventsDir }),
    // A refused call's record comes back every 10 s instead of the template's 721, so that its
    // item reaches the DLQ within a minute and the demo ends; the template's own visibility is the
    // timeouts check's (the poller's heartbeat keeps a running batch's records hidden meanwhile).
    stack: { visibilityTimeoutSeconds: 10, ...options.stack, iam },
    output: { stdout: options.stderr, stderr: options.stderr },
    beforeStop: async (running) => {
      stack = running;
      workload = await driveLiveWorkload({ stack: running, log: note });
    },
  });
  const calls = stack?.iam?.ledger.snapshot() ?? { allowed: {}, resources: {}, denied: [] };
  return {
    calls,
    routes: workload.routes,
    problems: [
      ...(demo.exitCode === 0
        ? []
        : [
            "the demo's items did not all end decided, rejected or dead-lettered, or its batch job did not complete",
          ]),
      ...workload.problems,
    ],
  };
}
