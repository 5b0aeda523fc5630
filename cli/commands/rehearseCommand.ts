/**
 * `decisions rehearse`: the AWS deploy rehearsed on this machine, from the synthesized template —
 * the local stack started from it with IAM enforced and a workload driven through it (every call
 * the running functions make authorized against their roles), the calls that cannot run locally
 * checked from each function's declared list, the console's routes against the table the code
 * serves, the chain of timeouts. Development tooling: it needs the CDK app, the IAM evaluator and
 * the local stack's emulators, all devDependencies.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { packageRoot } from "../../adapter/models/packageRoot.js";
import {
  findingsOf,
  type LiveObservation,
  type RehearsalReport,
  rehearse,
} from "../../lab/rehearsal/rehearse.js";
import { rehearseLive } from "../../lab/rehearsal/rehearseLive.js";
import { type CfnTemplate, deployTargetOf } from "../../lab/rehearsal/TemplateResolver.js";
import { synthesizeStackTemplate } from "../../local/stack/synthesizeStackTemplate.js";
import { parseCommandArgs } from "../parseCommandArgs.js";
import { CONTEXT_FLAG, readContextOverrides } from "../readContextOverrides.js";
import { readNumberFlag } from "../readNumberFlag.js";
import type { CliCommand, CliOutput } from "../types.js";

const USAGE = `usage:
  decisions rehearse [-c knob=value ...] [--template <file>] [--write-template <file>] [--static]
                     [--threads <n>] [--json]

Rehearses the AWS deploy on the template cdk synth makes (cdk.json's context, -c overrides) or on
the given one:
  IAM        live (the default): the local stack starts from the template with IAM enforced and
             a workload goes through it (tickets, incidents, a batch job to completion, a review
             and an amendment through the console's routes, drift, the shadow report, a redecide,
             the monitors, the front door); every AWS call the running functions make, as AWS
             forms its resource (the deployed names, SageMaker's in lower case, index ARNs,
             dynamodb:LeadingKeys), is authorized against that function's role in the template and
             a refused one fails with AccessDeniedException. The calls that cannot run locally
             (the capacity controller, the event sources' stream reads, deliveries) are checked
             from each function's declared list. --static: every call from the declared lists,
             nothing started (seconds, no Java or model)
  routes     the console's HTTP API routes against the route table the code serves and the page calls
  timeouts   SageMaker's 60 s above the adapter's deadline with its margin; the decide functions'
             timeout; each queue's visibility >= 6 x the function's timeout + the batching window
Exit code 1 on any finding. Variants: -c accelerator=gpu, -c standardEndpoint=true -c standardImage=…,
-c shadowModelDataUrl=…, -c profile=production (docs/deploying.md).

options:
  -c, --context <k=v>       a CDK context value (repeatable)
  --template <file>         rehearse this template instead of synthesizing one
  --write-template <file>   save the template rehearsed
  --stack-name <name>       the stack's name with --template (default Decisions)
  --static                  check the declared calls only; start nothing
  --threads <n>             llama.cpp threads of the local adapter (live)
  --json                    one JSON object: mode, calls, observed, declared, exercised, denied,
                            missing_routes, timeouts, workload
`;

const FLAGS = {
  context: CONTEXT_FLAG,
  template: { type: "string" },
  "write-template": { type: "string" },
  "stack-name": { type: "string" },
  static: { type: "boolean" },
  threads: { type: "string" },
  json: { type: "boolean" },
  help: { type: "boolean", short: "h" },
} as const;

/** Builds the `decisions rehearse` command writing to the given streams (tests pass their own). */
export function createRehearseCommand(
  options: Partial<CliOutput> & { projectRoot?: string } = {},
): CliCommand {
  const stdout = options.stdout ?? process.stdout;
  const stderr = options.stderr ?? process.stderr;
  return {
    async run(args) {
      const { values } = parseCommandArgs({ args, options: FLAGS, usage: USAGE });
      if (values.help === true) {
        stdout.write(USAGE);
        return 0;
      }
      const context = readContextOverrides(values.context ?? [], USAGE);
      const { template, stackName } =
        values.template === undefined
          ? synthesizeStackTemplate(options.projectRoot ?? packageRoot(), context)
          : {
              template: JSON.parse(readFileSync(values.template, "utf8")) as CfnTemplate,
              stackName: values["stack-name"] ?? "Decisions",
            };
      if (values["write-template"] !== undefined)
        writeFileSync(values["write-template"], `${JSON.stringify(template, null, 1)}\n`);
      const target = deployTargetOf(stackName);
      const threads =
        values.threads === undefined
          ? undefined
          : readNumberFlag(
              "--threads",
              values.threads,
              { min: 1, max: 256, integer: true, unit: "threads" },
              USAGE,
            );
      let observed: LiveObservation | undefined;
      if (values.static !== true) {
        // The functions' metrics (EMF lines on stdout) would mix into the report.
        process.env.POWERTOOLS_METRICS_DISABLED = "true";
        observed = await rehearseLive({
          template,
          target,
          env: process.env,
          stderr: stderr as NodeJS.WritableStream,
          ...(threads === undefined ? {} : { stack: { adapterThreads: threads } }),
        });
      }
      const report = await rehearse({ template, target, ...(observed === undefined ? {} : { observed }) });
      stdout.write(values.json === true ? `${JSON.stringify(report)}\n` : formatReport(report));
      const findings = findingsOf(report);
      if (findings > 0)
        stderr.write(`${findings} finding(s): the deploy would not work as the code expects\n`);
      return findings > 0 ? 1 : 0;
    },
  };
}

/** The `decisions rehearse` command, writing to the process's stdout and stderr. */
export const rehearseCommand: CliCommand = createRehearseCommand();

function formatReport(report: RehearsalReport): string {
  const total = (counts: RehearsalReport["calls"]) =>
    Object.values(counts).reduce(
      (sum, actions) => sum + Object.values(actions).reduce((subtotal, count) => subtotal + count, 0),
      0,
    );
  const lines = [
    report.mode === "live"
      ? `${total(report.observed)} calls observed of ${report.exercised.functions.length} running functions (${report.exercised.functions.join(", ")}), ${total(report.declared)} declared calls of ${Object.keys(report.declared).length} functions checked against their roles; ${report.exercised.routes.length} console routes called`
      : `${total(report.calls)} declared calls of ${report.exercised.functions.length} functions checked against their roles, ${report.exercised.routes.length} console routes declared`,
    ...report.denied.map(
      (denied) =>
        `DENIED  ${denied.function}: ${denied.action} on ${denied.resource} (${denied.source}${denied.count === undefined ? "" : `, ${denied.count} time${denied.count === 1 ? "" : "s"}`})${denied.near_miss === undefined ? "" : `\n        near miss: ${JSON.stringify(denied.near_miss)}`}`,
    ),
    ...report.missing_routes.map(
      (route) => `MISSING ${route.method} ${route.path} (called by ${route.caller})`,
    ),
    ...report.timeouts.map((finding) => `TIMEOUT ${finding.check} ${finding.resource}: ${finding.detail}`),
    ...report.workload.map((problem) => `WORKLOAD ${problem}`),
  ];
  return `${lines.join("\n")}\n`;
}
