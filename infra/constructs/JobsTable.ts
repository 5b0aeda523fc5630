import type { RemovalPolicy } from "aws-cdk-lib";
import { AttributeType, ProjectionType, type Table } from "aws-cdk-lib/aws-dynamodb";
import { Construct } from "constructs";
import { JOBS_LIST_INDEX, JOBS_TABLE_KEYS } from "../../contract/jobs/jobsTableKeys.js";
import { recordTable } from "./recordTable.js";

/** Props of {@link JobsTable}. */
export interface JobsTableProps {
  /** As the outcomes table's (the knob `outcomesRemovalPolicy`): jobs say where the results are. */
  removalPolicy: RemovalPolicy;
}

/**
 * The jobs table (keys and list index as `core/jobs/jobsTable.ts` defines them for the local
 * stack and the tests): one job record per ingested object version and one item per ended line.
 * A {@link recordTable} as the outcomes table is; its stream starts the results writer (a job's `ended_at` set) and carries
 * the completion event to the outcomes bus (a job's final status set).
 */
export class JobsTable extends Construct {
  readonly table: Table;
  /** The table's stream (a table with a stream always has one). */
  readonly streamArn: string;
  /** ARN of the `by-created` index (the job list). */
  readonly listIndexArn: string;

  constructor(scope: Construct, id: string, props: JobsTableProps) {
    super(scope, id);
    this.table = recordTable(this, "Table", {
      partitionKey: { name: JOBS_TABLE_KEYS.partition, type: AttributeType.STRING },
      sortKey: { name: JOBS_TABLE_KEYS.sort, type: AttributeType.NUMBER },
      removalPolicy: props.removalPolicy,
    });
    this.table.addGlobalSecondaryIndex({
      indexName: JOBS_LIST_INDEX.name,
      partitionKey: { name: JOBS_LIST_INDEX.partition, type: AttributeType.STRING },
      sortKey: { name: JOBS_LIST_INDEX.sort, type: AttributeType.STRING },
      projectionType: ProjectionType.INCLUDE,
      nonKeyAttributes: [...JOBS_LIST_INDEX.projected],
    });
    this.listIndexArn = `${this.table.tableArn}/index/${JOBS_LIST_INDEX.name}`;
    const streamArn = this.table.tableStreamArn;
    if (streamArn === undefined) throw new Error("JobsTable: the table has no stream");
    this.streamArn = streamArn;
  }
}
