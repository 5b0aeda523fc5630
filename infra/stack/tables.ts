import { RemovalPolicy } from "aws-cdk-lib";
import { JobsTable } from "../constructs/JobsTable.js";
import { OutcomesTable } from "../constructs/OutcomesTable.js";
import type { StackHost, StackInputs } from "./stackInputs.js";

/** The outcomes table (with its stream's bus) and the jobs table, under one removal policy. */
export function addTables(
  host: StackHost,
  { settings }: StackInputs,
): { outcomes: OutcomesTable; jobs: JobsTable } {
  const tableRemovalPolicy =
    settings.outcomesRemovalPolicy === "retain"
      ? RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE
      : RemovalPolicy.DESTROY;
  const outcomes = new OutcomesTable(host, "Outcomes", {
    removalPolicy: tableRemovalPolicy,
    busName: settings.outcomesBusName,
  });
  const jobs = new JobsTable(host, "Jobs", { removalPolicy: tableRemovalPolicy });
  return { outcomes, jobs };
}
