/**
 * `decisions rehearse`: the AWS deploy rehearsed on this machine, from the synthesized template —
 * every AWS call of each deployed function authorized against its role, the console's routes
 * against the table the code serves, the chain of timeouts. Development tooling: it needs the CDK
 * app and the IAM evaluator, both devDependencies.
 */
import { readFileSync, writeFileSync } from "node:fs";
import { packageRoot } from "../../adapter/models/packageRoot.js";
import { findingsOf, type RehearsalReport, rehearse } from "../../lab/rehearsal/rehearse.js";
import { type CfnTemplate, deployTargetOf } from "../../lab/rehearsal/TemplateResolver.js";
import { synthesizeStackTemplate } from "../../local/stack/synthesizeStackTemplate.js";
import { parseCommandArgs } from "../parseCommandArgs.js";
import { CONTEXT_FLAG, readContextOverrides } from "../readContextOverrides.js";
import type { CliCommand, CliOutput } from "../types.js";

const USAGE = `usage:
  decisions rehearse [-c knob=value ...] [--template <file>] [--write-template <file>] [--json]

Rehearses the AWS deploy on the template cdk synth makes (cdk.json's context, -c overrides) or on
the given one:
  IAM        every AWS call each deployed function's code makes, as AWS forms its resource (SageMaker
             names in lower case, index and event-source-mapping ARNs, dynamodb:LeadingKeys), is
             authorized against that function's role in the template
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
  --json                    one JSON object: calls, exercised, denied, missing_routes, timeouts
`;

const FLAGS = {
  context: CONTEXT_FLAG,
  template: { type: "string" },
  "write-template": { type: "string" },
  "stack-name": { type: "string" },
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
      const report = await rehearse({ template, target: deployTargetOf(stackName) });
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
  const calls = Object.values(report.calls).reduce(
    (sum, actions) => sum + Object.values(actions).reduce((total, count) => total + count, 0),
    0,
  );
  const lines = [
    `${calls} calls of ${report.exercised.functions.length} functions checked against their roles, ${report.exercised.routes.length} console routes declared`,
    ...report.denied.map(
      (denied) =>
        `DENIED  ${denied.function}: ${denied.action} on ${denied.resource}${denied.near_miss === undefined ? "" : `\n        near miss: ${JSON.stringify(denied.near_miss)}`}`,
    ),
    ...report.missing_routes.map(
      (route) => `MISSING ${route.method} ${route.path} (called by ${route.caller})`,
    ),
    ...report.timeouts.map((finding) => `TIMEOUT ${finding.check} ${finding.resource}: ${finding.detail}`),
  ];
  return `${lines.join("\n")}\n`;
}
