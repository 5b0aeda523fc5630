/**
 * The ledger benchmark's entry: starts DynamoDB Local (in memory, on 127.0.0.1), runs
 * `measureLedger`, prints the table and writes `ledger-<timestamp>.json` into the results folder.
 *
 *     node --import tsx lab/bench/ledger/measureLedgerMain.ts [--writers 1,4,16,32] [--lines 600]
 *       [--shards 16] [--rounds 1] [--out lab/bench/results]
 */
import { mkdir, writeFile } from "node:fs/promises";
import { loadavg } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { startDynamoDbLocal } from "../../../local/services/startDynamoDbLocal.js";
import { formatLedgerReport, measureLedger } from "../measureLedger.js";

const { values } = parseArgs({
  options: {
    writers: { type: "string", default: "1,4,16,32" },
    lines: { type: "string", default: "600" },
    shards: { type: "string", default: "16" },
    rounds: { type: "string", default: "1" },
    out: { type: "string", default: "lab/bench/results" },
  },
});
const integers = (text: string, flag: string) =>
  text.split(",").map((part) => {
    const value = Number(part);
    if (!Number.isInteger(value) || value < 1)
      throw new RangeError(`${flag}: a positive integer list, got ${text}`);
    return value;
  });

const dynamo = await startDynamoDbLocal();
try {
  const report = await measureLedger(
    {
      endpoint: dynamo.endpoint,
      writers: integers(values.writers, "--writers"),
      lines: integers(values.lines, "--lines")[0] ?? 600,
      shards: integers(values.shards, "--shards"),
      rounds: integers(values.rounds, "--rounds")[0] ?? 1,
      onCell: (cell) =>
        process.stderr.write(
          `${cell.ledger}, ${cell.writers} writers: ${cell.lines_per_s} lines/s, ${cell.transactions.conflicts} conflicts, ${cell.retries} retries\n`,
        ),
    },
    loadavg,
  );
  await mkdir(values.out, { recursive: true });
  const file = join(values.out, `ledger-${report.started_at.replaceAll(":", "-").replaceAll(".", "-")}.json`);
  await writeFile(file, `${JSON.stringify(report, null, 2)}\n`);
  process.stdout.write(`${formatLedgerReport(report)}\n\n${file}\n`);
} finally {
  await dynamo.stop();
}
