import type { CreateTableCommandInput } from "@aws-sdk/client-dynamodb";
import { JOBS_LIST_INDEX, JOBS_TABLE_KEYS } from "../../contract/jobs/jobsTableKeys.js";
import { streamedTableDefinition } from "../common/streamedTableDefinition.js";

/**
 * The CreateTable input of the jobs table (PAY_PER_REQUEST, keys `job_id` S + `line` N, the sparse
 * {@link JOBS_LIST_INDEX}), used by tests and the local stack; the CDK table mirrors it.
 */
export function jobsTableDefinition(name: string): CreateTableCommandInput {
  return streamedTableDefinition(name, {
    keys: { ...JOBS_TABLE_KEYS, sortType: "N" },
    index: {
      ...JOBS_LIST_INDEX,
      projection: { ProjectionType: "INCLUDE", NonKeyAttributes: [...JOBS_LIST_INDEX.projected] },
    },
  });
}
