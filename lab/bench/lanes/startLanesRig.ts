import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { JobCompletedDetail } from "../../../contract/index.js";
import { JobsReader } from "../../../core/jobs/index.js";
import { createLocalDecideHandler, startLocalStack } from "../../../local/index.js";
import type { LanesWorkload } from "./buildLanesWorkload.js";
import { JOBS_TABLE } from "./constants.js";
import type { LanesRig } from "./LanesRig.js";

/** Starts the local stack with both lanes, ingest and jobs; collects completions and ingest errors. */
export async function startLanesRig(
  workload: LanesWorkload,
  modelPath: string,
  options: { env: Readonly<NodeJS.ProcessEnv>; threads?: number },
  stallMs: number,
  log: (line: string) => void,
): Promise<LanesRig> {
  const completed: JobCompletedDetail[] = [];
  const ingestErrors: unknown[] = [];
  const stack = await startLocalStack({
    env: options.env,
    model: modelPath,
    adapterThreads: options.threads,
    log,
    createHandler: (context) => createLocalDecideHandler(context, { laneGroups: true }),
    ingest: {
      onIngested: (report) => {
        if (report.error !== undefined) ingestErrors.push(report.error);
      },
    },
    jobs: { table: JOBS_TABLE, onCompleted: (detail) => completed.push(detail) },
  });
  const documents = DynamoDBDocumentClient.from(stack.clients.dynamodb);
  const jobs = new JobsReader({ client: documents, tableName: JOBS_TABLE });
  return { stack, documents, jobs, workload, completed, ingestErrors, stallMs, log };
}
