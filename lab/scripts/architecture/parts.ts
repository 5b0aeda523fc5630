/**
 * The parts of this repository (its top-level folders) and which parts each one imports: the one
 * table docs/architecture.md's part table is written from (`writeArchitecturePage.ts`) and
 * test/architecture/partImports.test.ts holds the code to, both ways — an import the table does not
 * allow fails, and so does an allowance no import uses.
 */

/** One part another part imports. */
export interface PartImport {
  /** The imported part (a top-level folder). */
  readonly part: string;
  /**
   * The only files of the importing part that may import it (paths from the repository root).
   * Default: any file of the part.
   */
  readonly only?: readonly string[];
  /** Why the import is there, when the table would otherwise surprise a reader. */
  readonly why?: string;
  /**
   * Loaded at run time by path, not imported (`bin/` starts the built `cli/`), so no import in
   * the code shows it and the check leaves it out. Default false.
   */
  readonly atRunTime?: boolean;
}

/** A part: a top-level folder of the repository. */
export interface Part {
  /** The folder's name. */
  readonly name: string;
  /** What it holds, in a sentence; its sub-folders are listed from the tree. */
  readonly what: string;
  /** The parts it imports; `"any"` for `test/`, which may import every part. */
  readonly imports: readonly PartImport[] | "any";
  /** A rule beyond the parts it imports, and the test that holds it. */
  readonly note?: string;
  /** What the folders column says instead of listing the sub-folders (for `test/`, which mirrors the tree). */
  readonly folders?: string;
}

/** The parts, bottom up; every top-level folder has a row (checked). */
export const PARTS: readonly Part[] = [
  {
    name: "contract",
    what: "what the parts agree on, as zod schemas and constants: the wire formats and their published JSON Schemas, the work item, the outcome and its table's keys, failure records, batch jobs and their lanes, metric names, the settings kit (every variable's name, parser, default and doc), the policy catalogue the CDK app reads",
    imports: [],
    note: "imports zod and nothing else (`test/contract/contractImports.test.ts`)",
  },
  {
    name: "adapter",
    what: "the SageMaker container: the scorer on node-llama-cpp (`engine/`), the HTTP server with validation, admission and configuration (`server/`), the GGUF writer, generated model kinds and manifests (`gguf/`, `models/`), the Dockerfiles",
    imports: [{ part: "contract" }],
  },
  {
    name: "core",
    what: "the libraries the deployed functions share, one folder per concern, named for what it owns: the pipeline core `decideItems(inputs, ports)` (`pipeline/`), the homes of the two tables (`outcomes/`: the outcomes table's keys, its one write-once put — alone or as the job ledger's transaction item —, supersede, reads and a person's review; `jobs/`: the job ledger, the jobs table's one reader and the results writer), failure records (`failures/`), the state archive (`states/`), policies (`policy/`), flow control (`flow/`), the capacity plans the controller and the simulation share (`capacity/`), the endpoint client (`endpoint/`), drift (`drift/`), shadow comparison (`shadow/`), the review console's operations (`review/`), the front door's steps (`intake/`: work items over HTTPS, validated, verified, once per key), sending to the work queues (`queue/`) and common helpers (`common/`); used alike by the functions, the operators' commands and the local stack ([core/README.md](../core/README.md))",
    imports: [{ part: "contract" }],
    note: "never `adapter/engine`: node-llama-cpp stays out of the Lambda bundle (`test/functions/decide/handlerBundle.integration.test.ts`)",
  },
  {
    name: "functions",
    what: "the deployed Lambda functions and nothing else: each folder is one function, its `handler.ts` a thin entry over its wiring (`create<Name>Deps`, `create<Name>Handler`, its configuration reader) and the units only it runs ([functions/README.md](../functions/README.md))",
    imports: [{ part: "contract" }, { part: "core" }],
    note: "every folder holds a `handler.ts` that the CDK app deploys (`test/architecture/deployedFunctions.test.ts`)",
  },
  {
    name: "policies",
    what: "the decision policies (YAML) and their JSON Schema: data, read by `core/policy`",
    imports: [],
  },
  {
    name: "infra",
    what: "the CDK app, one construct per architectural task, its context knobs and the capacity formula",
    imports: [{ part: "contract" }],
    note: "the handlers and policy files it deploys are named by path and bundled by esbuild, not imported (`test/infra/infraImports.test.ts`)",
  },
  {
    name: "operations",
    what: "what the operators' commands do: send work items (to a queue, or signed through the front door), the DLQ, outcomes and reviews, jobs, what decisions cost, offline classification, the preflight checks",
    imports: [{ part: "adapter" }, { part: "contract" }, { part: "core" }],
  },
  {
    name: "evaluation",
    what: "what the owners of the decisions do with labelled data: metrics, calibration, thresholds, charts, the JevBench runner and its cases",
    imports: [{ part: "adapter" }, { part: "contract" }, { part: "core" }],
  },
  {
    name: "console",
    what: "the review console's web page (Preact + htm) and the esbuild step that bundles it, for the local server of `decisions up` and the deployed site; the API it calls is `functions/reviewConsole`",
    imports: [
      {
        part: "contract",
        only: ["console/web/types.ts", "console/web/ItemHistory.ts"],
        why: "the page reads the API's answers with the server's own view types (`contract/outcome/reviewViews.ts`), imported as types only, and words an item's history as `decisions outcomes show` does (`contract/outcome/reviewHistory.ts`, which imports types only)",
      },
    ],
  },
  {
    name: "local",
    what: "the pipeline on one machine: the services it starts on loopback (`services/`: DynamoDB Local, fauxqs for SQS and S3, the adapter as a child process, the SageMaker runtime gateway, the review console's server), the side of Lambda's SQS event source (`eventSource/`: the poller, the visibility heartbeat, SQS records, queue creation), the stack that wires them with the functions per lane (`stack/`), IAM enforced on the functions' calls when asked (`iam/`: each SDK call as the IAM request AWS evaluates, with the template's ARNs, put to a caller's evaluator), the S3 ingest trigger and workflow (`ingest/`), the demo (`demo/`)",
    imports: [
      { part: "adapter" },
      { part: "console" },
      { part: "contract" },
      { part: "core" },
      { part: "functions" },
      {
        part: "infra",
        only: ["local/stack/synthesizeStackTemplate.ts"],
        why: "the local stack is built from the CDK app's synthesized template (loaded only when the cached one is out of date; the rehearsal synthesizes with it too)",
      },
    ],
  },
  {
    name: "lab",
    what: "what serves development and measurement: the engine, pipeline, backlog and llama-server benchmarks and their results, the fault-injected pipeline and its checker, property checks and the load runner, the rehearsal of the AWS deploy on the synthesized template (the local stack run from it with IAM enforced by a development-only evaluator), the scripts that write generated files",
    imports: [
      { part: "adapter" },
      { part: "contract" },
      { part: "core" },
      { part: "evaluation" },
      { part: "functions" },
      {
        part: "infra",
        only: ["lab/bench/backlog/setupBacklogBench.ts", "lab/scripts/configurationPage.ts"],
        why: "the backlog benchmark sizes the event source with the CDK app's own formula, and docs/configuration.md lists the app's knobs",
      },
      { part: "local" },
    ],
  },
  {
    name: "simulation",
    what: "a discrete-event model of the deployed pipeline on simulated time (SQS and its event sources, the decide functions' flow control, the endpoint's instances and autoscaling, the job ledger), seeded, for `decisions simulate` and docs/sizing.md",
    imports: [
      {
        part: "core",
        why: "it runs the pipeline's own pure units (RetryBudget, RetryPolicy's backoff, CallLatencyEstimate) and the capacity controller's own plans (`planLaneConcurrency`, `planGoalCapacity`) instead of copies",
      },
      {
        part: "infra",
        why: "the decide function is sized with the CDK app's own formula (`deriveDecideCapacity`)",
      },
    ],
    note: "no AWS SDK and no clock: the same inputs give the same result (`test/simulation/simulatePipeline.test.ts`)",
  },
  {
    name: "cli",
    what: "the `decisions` command: `main.ts`, the command registry, one module per command in `cli/commands`, each loaded only when run; a module parses its command's flags, calls the part that does the work and formats what comes back",
    imports: [
      { part: "adapter" },
      { part: "contract" },
      { part: "core" },
      { part: "evaluation" },
      { part: "functions" },
      {
        part: "infra",
        only: ["cli/commands/preflightCommand.ts"],
        why: "`decisions preflight` reads the CDK app's context with the app's own reader, so it accepts exactly what `cdk synth` accepts",
      },
      { part: "lab" },
      { part: "local" },
      { part: "operations" },
      { part: "simulation" },
    ],
    note: "the CLI's modules import each other without a cycle and `main.ts` loads no command module (`test/cli/importGraph.test.ts`); each command's registry entry names the parts it reaches (`test/cli/commandRegistry.test.ts`)",
  },
  {
    name: "bin",
    what: "the command's entry point, plain JavaScript: it checks the Node.js version before anything loads",
    imports: [{ part: "cli", atRunTime: true, why: "it starts the built command, `dist/cli/main.js`" }],
  },
  {
    name: "events",
    what: "sample SQS, EventBridge and S3 events and work-item JSONL",
    imports: [],
  },
  {
    name: "test",
    what: "mirrors the source tree; `test/support` holds the fakes and local parts the tests share",
    imports: "any",
    folders: "those of the source tree, and `support/`",
  },
  {
    name: "docs",
    what: "these pages; the part table, the floors and the entry points of this page are written from the code",
    imports: [],
  },
];
