import { ScanCommand } from "@aws-sdk/lib-dynamodb";
import type { LanesRig } from "./LanesRig.js";

/**
 * Outcome rows whose id ends with `suffix` and their `timings.endpoint_ms` (a scan: the local
 * table holds a few thousand rows).
 */
export async function readOutcomeRows(
  rig: LanesRig,
  suffix: string,
): Promise<{ rows: number; endpointMs: number[] }> {
  let rows = 0;
  const endpointMs: number[] = [];
  let start: Record<string, unknown> | undefined;
  do {
    const page = await rig.documents.send(
      new ScanCommand({
        TableName: rig.stack.table,
        ProjectionExpression: "id, timings",
        ExclusiveStartKey: start,
      }),
    );
    for (const item of page.Items ?? []) {
      if (typeof item.id !== "string" || !item.id.endsWith(suffix)) continue;
      rows += 1;
      const ms = (item.timings as { endpoint_ms?: unknown } | undefined)?.endpoint_ms;
      if (typeof ms === "number") endpointMs.push(ms);
    }
    start = page.LastEvaluatedKey;
  } while (start !== undefined);
  return { rows, endpointMs };
}
