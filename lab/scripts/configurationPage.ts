import { SERVER_SETTINGS } from "../../adapter/server/config.js";
import {
  CAPACITY_CONTROLLER_SETTINGS,
  DECIDE_SETTINGS,
  DELIVER_SETTINGS,
  DRIFT_MONITOR_SETTINGS,
  defaultTextOf,
  INGEST_SETTINGS,
  JOBS_MONITOR_SETTINGS,
  RESULTS_WRITER_SETTINGS,
  REVIEW_CONSOLE_SETTINGS,
  type Setting,
} from "../../contract/index.js";
import { FRONT_DOOR_SETTINGS } from "../../contract/settings/frontDoorSettings.js";
import { INFRA_KNOBS } from "../../infra/config/infraKnobs.js";

/** A default in a table: a value as code, a rule in words (the settings kit's `text`). */
function defaultCell(text: string, literal: boolean): string {
  return literal ? `\`${text}\`` : text;
}

/** The variables of a setting as code, first set wins. */
function variablesCell(names: readonly string[]): string {
  return names.map((name) => `\`${name}\``).join(", ");
}

/** The table of a function's settings: variable, default, what it does. */
function functionTable(settings: Readonly<Record<string, Setting<unknown>>>): string[] {
  const rows = Object.values(settings).map((setting) => {
    const literal = "value" in setting.default;
    return `| ${variablesCell(setting.env)} | ${defaultCell(defaultTextOf(setting), literal)} | ${setting.doc} |`;
  });
  return ["| variable | default | what it does |", "| --- | --- | --- |", ...rows];
}

/** The server's table: flag, variables, default, what it does (as `decisions serve --help` lists them). */
function serverTable(): string[] {
  const rows = SERVER_SETTINGS.map(
    (setting) =>
      `| \`--${setting.flag}\` | ${variablesCell(setting.env)} | ${defaultCell(setting.defaultText, setting.literalDefault)} | ${setting.description} |`,
  );
  return ["| flag | variable | default | what it does |", "| --- | --- | --- | --- |", ...rows];
}

/** The CDK app's knobs: name, default as in cdk.json, the variable it sets, what it does. */
function knobTable(): string[] {
  const rows = INFRA_KNOBS.map((knob) => {
    const fallback = Array.isArray(knob.defaultValue)
      ? knob.defaultValue.join(",")
      : String(knob.defaultValue);
    const sets = knob.variable === undefined ? "" : `\`${knob.variable}\``;
    return `| \`${knob.name}\` | ${fallback === "" ? "(empty)" : `\`${fallback}\``} | ${sets} | ${knob.description} |`;
  });
  return ["| knob | default | sets | what it does |", "| --- | --- | --- | --- |", ...rows];
}

/**
 * docs/configuration.md, written from the settings kit (`contract/settings`), the server's table
 * (`adapter/server/config.ts`) and the CDK app's knobs (`infra/config/readInfraSettings.ts`).
 * `lab/scripts/writeConfigurationPage.ts` writes it; a test fails while the committed page differs.
 */
export function configurationPage(): string {
  return [
    "# Configuration",
    "",
    "<!-- Written by `node --import tsx lab/scripts/writeConfigurationPage.ts` from the settings kit",
    "(contract/settings), adapter/server/config.ts and infra/config/readInfraSettings.ts; do not edit",
    "by hand: test/lab/scripts/configurationPage.test.ts fails while this page is stale. -->",
    "",
    "Every setting is one entry of the settings kit in `contract/settings`: its environment variable,",
    "its parser, its default and what it does. Each entry point reads its environment once at start,",
    "validates it and names every bad variable at once; a variable that is empty or only whitespace",
    "counts as unset. Where the CDK app sets a variable of a function or of the adapter, its knob is",
    "parsed by that variable's own entry, so the app accepts exactly what the reader accepts.",
    "",
    "## The server (`decisions serve`)",
    "",
    "`decisions serve` (the adapter image's entry point) reads these; flags override variables, and",
    "among several variables of one setting the first set wins. The images set `SEMIF_HOST=0.0.0.0`.",
    "`decisions serve --help` lists the same table.",
    "",
    ...serverTable(),
    "",
    "## The decide function",
    "",
    "`functions/decide/handler.ts`, read at cold start (`functions/decide/readDecideConfig.ts`). The",
    "AWS SDK clients read their own standard variables (`AWS_REGION`, `AWS_ENDPOINT_URL_SAGEMAKER_RUNTIME`,",
    "`AWS_ENDPOINT_URL_DYNAMODB`, …) and Powertools its (`POWERTOOLS_SERVICE_NAME`,",
    "`POWERTOOLS_METRICS_NAMESPACE`, `POWERTOOLS_LOG_LEVEL`).",
    "",
    ...functionTable(DECIDE_SETTINGS),
    "",
    "## The ingest function",
    "",
    "`functions/ingest/handler.ts`, read at cold start (`functions/ingest/readIngestConfig.ts`); the",
    "SDK clients read their standard variables (`AWS_REGION`, `AWS_ENDPOINT_URL_S3`, `AWS_ENDPOINT_URL_SQS`, …).",
    "",
    ...functionTable(INGEST_SETTINGS),
    "",
    "## The results writer",
    "",
    "`functions/results/handler.ts` (batch jobs; the jobs table's stream invokes it), read at cold start",
    "(`functions/results/readResultsWriterConfig.ts`); the SDK clients read their standard variables.",
    "",
    ...functionTable(RESULTS_WRITER_SETTINGS),
    "",
    "## The deliver function",
    "",
    "`functions/deliver/handler.ts` (each delivery target's queue invokes it; [deliveries.md](deliveries.md)), read at",
    "cold start (`functions/deliver/readDeliverConfig.ts`); the CDK app writes every variable, and a target's",
    "`env:NAME` secret is the variable NAME, set from the Secrets Manager secret NAME.",
    "",
    ...functionTable(DELIVER_SETTINGS),
    "",
    "## The jobs monitor",
    "",
    "`functions/jobsMonitor/handler.ts` (batch jobs; a schedule invokes it every 5 minutes), read at cold",
    "start (`functions/jobsMonitor/readJobsMonitorConfig.ts`).",
    "",
    ...functionTable(JOBS_MONITOR_SETTINGS),
    "",
    "## The drift monitor",
    "",
    "`functions/driftMonitor/handler.ts` (a schedule invokes it every hour; [drift.md](drift.md)), read at",
    "cold start (`functions/driftMonitor/readDriftMonitorConfig.ts`).",
    "",
    ...functionTable(DRIFT_MONITOR_SETTINGS),
    "",
    "## The capacity controller",
    "",
    "`functions/capacityController/handler.ts` (a schedule invokes it every minute; see",
    "[flow-control.md](flow-control.md#capacity-follows-the-backlog)), read at cold start",
    "(`functions/capacityController/readCapacityControllerConfig.ts`); the CDK app writes every variable.",
    "",
    ...functionTable(CAPACITY_CONTROLLER_SETTINGS),
    "",
    "## The review console's API function",
    "",
    "`functions/reviewConsole/handler.ts` (deployed console only), read at cold start",
    "(`functions/reviewConsole/readReviewConsoleConfig.ts`); the DynamoDB client reads `AWS_REGION` and",
    "`AWS_ENDPOINT_URL_DYNAMODB`.",
    "",
    ...functionTable(REVIEW_CONSOLE_SETTINGS),
    "",
    "## The front door function",
    "",
    "`functions/frontDoor/handler.ts` (work items over HTTPS; see [integrations.md](integrations.md)), read",
    "at cold start (`functions/frontDoor/readFrontDoorConfig.ts`); the CDK app writes every variable. The",
    "webhook senders' secret itself is never in the environment: the function reads it from Secrets",
    "Manager at cold start through the AWS Parameters and Secrets Lambda Extension. Locally, `decisions up`",
    "serves the same router with `--webhook-secret`.",
    "",
    ...functionTable(FRONT_DOOR_SETTINGS),
    "",
    "## The CDK app's context knobs",
    "",
    '`cdk.json` "context", overridden by `-c knob=value`, validated at synth with an error naming every',
    "bad or unknown knob. Numbers and booleans may be given as strings, lists as JSON arrays or",
    'comma-separated. "sets" names the variable a knob writes into a function or the adapter\'s',
    "containers. The concurrency formula and the alarms: [infra/README.md](../infra/README.md).",
    "",
    ...knobTable(),
    "",
  ].join("\n");
}
