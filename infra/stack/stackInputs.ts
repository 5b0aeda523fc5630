import { Aws, Duration } from "aws-cdk-lib";
import type { RetentionDays } from "aws-cdk-lib/aws-logs";
import { LANES, type Lane } from "../../contract/lanes/lanes.js";
import type { InfraSettings } from "../config/InfraSettings.js";
import type { PolicyCatalogueEntry } from "../config/readPolicyCatalogue.js";

/** Where the stack finds the code it deploys. */
export interface DecisionsSources {
  /** The repository root (build context of the adapter images; `package-lock.json`; `policies/`). */
  projectRoot: string;
  /** The policies the functions bundle. Default: read from `<projectRoot>/policies`. */
  policies?: readonly PolicyCatalogueEntry[];
  /** Default `<projectRoot>/functions/decide/handler.ts`. */
  decideEntry?: string;
  /** Default `<projectRoot>/functions/ingest/handler.ts`. */
  ingestEntry?: string;
  /** Default `<projectRoot>/functions/results/handler.ts`. */
  resultsEntry?: string;
  /** Default `<projectRoot>/functions/jobEvents/handler.ts`. */
  jobEventsEntry?: string;
  /** Default `<projectRoot>/functions/jobsMonitor/handler.ts`. */
  jobsMonitorEntry?: string;
  /** Default `<projectRoot>/functions/capacityController/handler.ts`. */
  capacityControllerEntry?: string;
}

/** What the stack's steps share, derived once from its props. */
export interface StackInputs {
  settings: InfraSettings;
  sources: DecisionsSources;
  projectRoot: string;
  logRetention: RetentionDays;
  functionTimeout: Duration;
  batchingWindow: Duration;
  /** The model data URL with `{account}` and `{region}` resolved. */
  modelDataUrl: string;
}

export type { StackHost } from "./StackParts.js";

/** The stack's shared inputs, from its settings and sources. */
export function stackInputsOf({
  settings,
  sources,
}: {
  settings: InfraSettings;
  sources: DecisionsSources;
}): StackInputs {
  return {
    settings,
    sources,
    projectRoot: sources.projectRoot,
    logRetention: settings.logRetentionDays as RetentionDays,
    functionTimeout: Duration.seconds(settings.functionTimeoutSeconds),
    batchingWindow: Duration.seconds(settings.batchingWindowSeconds),
    modelDataUrl: resolvePlaceholders(settings.modelDataUrl),
  };
}

/** `lane`'s construct id of a part: `InteractiveWorkQueue`, `BulkDecide`. */
export function laneId(lane: Lane, part: string): string {
  return `${lane.charAt(0).toUpperCase()}${lane.slice(1)}${part}`;
}

/** One value per lane, built in `LANES` order (the template's resource order). */
export function perLane<T>(build: (lane: Lane) => T): Record<Lane, T> {
  return Object.fromEntries(LANES.map((lane) => [lane, build(lane)])) as Record<Lane, T>;
}

/** Replaces `{account}` and `{region}` with the deploying account and region. */
export function resolvePlaceholders(uri: string): string {
  return uri.replaceAll("{account}", Aws.ACCOUNT_ID).replaceAll("{region}", Aws.REGION);
}
