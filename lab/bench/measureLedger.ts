import { CreateTableCommand, DynamoDBClient } from "@aws-sdk/client-dynamodb";
import { DynamoDBDocumentClient } from "@aws-sdk/lib-dynamodb";
import type { Outcome } from "../../contract/outcome/OutcomeSchema.js";
import { Deadline } from "../../core/common/Deadline.js";
import { RetryPolicy } from "../../core/common/RetryPolicy.js";
import { JobLedger } from "../../core/jobs/JobLedger.js";
import { jobsTableDefinition } from "../../core/jobs/jobsTable.js";
import { outcomesTableDefinition } from "../../core/outcomes/outcomesTable.js";
import { LOCAL_CREDENTIALS } from "../../local/stack/createLocalClients.js";
import { type BenchMachine, describeMachine } from "./describeMachine.js";
import { SingleRecordLedger } from "./ledger/SingleRecordLedger.js";
import { TransactionObserver, type TransactionTally } from "./ledger/TransactionObserver.js";

/** Options of {@link measureLedger}. */
export interface MeasureLedgerOptions {
  /** DynamoDB Local's endpoint (`startDynamoDbLocal`); the tables `outcomes` and `jobs` are created there. */
  endpoint: string;
  /** Concurrent writers per run. Default [1, 4, 16, 32]. */
  writers?: readonly number[];
  /** Lines of each run's job. Default 600. */
  lines?: number;
  /** Counter items of the new ledger, one series each. Default [16] (`JOB_COUNTER_SHARDS`). */
  shards?: readonly number[];
  /** Rounds of every (ledger, writers) cell, ledgers alternating within a round. Default 1. */
  rounds?: number;
  /** Lines of one unrecorded job per ledger (4 writers) before the rounds, to warm both up. Default 50. */
  warmUpLines?: number;
  /** Told each cell as it ends. */
  onCell?: (cell: LedgerCell) => void;
}

/** One job counted by one ledger with N writers. */
export interface LedgerCell {
  /** `job record` (every line's count on the job record) or `counters K=<n>`. */
  ledger: string;
  writers: number;
  round: number;
  lines: number;
  seconds: number;
  /** Lines counted per second (each line: one committed transaction and one end check). */
  lines_per_s: number;
  /** Committed transactions per second. */
  transactions_per_s: number;
  transactions: TransactionTally;
  /** Retries the ledger's retry policy made (a `TransactionConflict` is retried). */
  retries: number;
  /** Exactly once: counted `ended` = lines, and the end set once. */
  ended: number;
  ends: number;
}

/** What {@link measureLedger} measured. */
export interface LedgerReport {
  machine: BenchMachine;
  load_before: number[];
  load_after: number[];
  started_at: string;
  cells: LedgerCell[];
}

const OUTCOMES = "outcomes";
const JOBS = "jobs";

function outcomeOf(jobId: string, line: number): Outcome {
  const at = new Date().toISOString();
  return {
    policy: "ticket-routing",
    id: `${jobId}-${line}`,
    policy_status: "ticket-routing#decided",
    status: "decided",
    answers: {
      queue: {
        answer: "billing",
        probability: 0.9,
        distribution: { billing: 0.9, legal: 0.1 },
        threshold: 0.5,
        source: "model",
      },
    },
    rules_fired: [],
    model: "bench",
    source: { kind: "sqs", message_id: `m-${line}`, job_id: jobId, line },
    created_at: at,
    updated_at: at,
  };
}

/**
 * Counts the lines of one job with N concurrent writers on DynamoDB Local, with the ledger before
 * counters (every line's count on the job record: {@link SingleRecordLedger}) and with the
 * `JobLedger` (the count on one of K counters), side by side in one run: lines/s, committed
 * transactions/s, `TransactionConflict` cancellations, retries, and the attempts that overlapped
 * another on the item they count on (what the service would cancel; DynamoDB Local runs one
 * transaction at a time and cancels none). Each run checks exactly once: `ended` = lines, one end.
 *
 * The writers are async loops in this process, sharing one client (the SDK's agent keeps up to 50
 * sockets); on AWS they are decide invocations in their own Lambda environments.
 */
export async function measureLedger(
  options: MeasureLedgerOptions,
  loadAverage: () => number[],
): Promise<LedgerReport> {
  const writersList = options.writers ?? [1, 4, 16, 32];
  const lines = options.lines ?? 600;
  const shardsList = options.shards ?? [16];
  const rounds = options.rounds ?? 1;
  const client = new DynamoDBClient({
    endpoint: options.endpoint,
    region: "us-east-1",
    credentials: LOCAL_CREDENTIALS,
    maxAttempts: 1,
  });
  const observer = new TransactionObserver();
  observer.observe(client);
  const documents = DynamoDBDocumentClient.from(client, { marshallOptions: { removeUndefinedValues: true } });
  // The decide function's defaults: 3 attempts would give up under a 32-writer hot key, so the
  // benchmark allows more, to count every retry rather than fail.
  const retry = new RetryPolicy({ maxAttempts: 50, baseDelayMs: 10, maxDelayMs: 200 });
  const report: LedgerReport = {
    machine: describeMachine(),
    load_before: loadAverage(),
    load_after: [],
    started_at: new Date().toISOString(),
    cells: [],
  };
  try {
    await client.send(new CreateTableCommand(outcomesTableDefinition(OUTCOMES)));
    await client.send(new CreateTableCommand(jobsTableDefinition(JOBS)));
    const ledgers = ["job record", ...shardsList.map((shards) => `counters K=${shards}`)];
    let jobNumber = 0;
    for (const ledger of ledgers) {
      jobNumber += 1;
      const lines = options.warmUpLines ?? 50;
      await runCell({ ledger, writers: 4, round: 0, lines, jobNumber, documents, retry, observer });
    }
    for (let round = 1; round <= rounds; round += 1) {
      for (const writers of writersList) {
        // Alternate which ledger goes first, so neither always meets a warmer or busier machine.
        const order = round % 2 === 1 ? ledgers : [...ledgers].reverse();
        for (const ledger of order) {
          jobNumber += 1;
          const cell = await runCell({
            ledger,
            writers,
            round,
            lines,
            jobNumber,
            documents,
            retry,
            observer,
          });
          report.cells.push(cell);
          options.onCell?.(cell);
        }
      }
    }
  } finally {
    client.destroy();
  }
  report.load_after = loadAverage();
  return report;
}

async function runCell(context: {
  ledger: string;
  writers: number;
  round: number;
  lines: number;
  jobNumber: number;
  documents: DynamoDBDocumentClient;
  retry: RetryPolicy;
  observer: TransactionObserver;
}): Promise<LedgerCell> {
  const { documents, retry, lines } = context;
  let ends = 0;
  let retries = 0;
  const onRetry = () => {
    retries += 1;
  };
  const deadline = () => new Deadline(Date.now() + 600_000);
  let jobId: string;
  let write: (line: number) => Promise<void>;
  let read: () => Promise<number>;
  if (context.ledger === "job record") {
    const ledger = new SingleRecordLedger({
      client: documents,
      jobsTable: JOBS,
      outcomesTable: OUTCOMES,
      retry,
    });
    jobId = `bench-${context.jobNumber}`;
    await ledger.start(jobId, lines);
    write = async (line) => {
      if (await ledger.recordOutcome(outcomeOf(jobId, line), { deadline: deadline(), onRetry })) ends += 1;
    };
    read = async () =>
      (await new JobLedger({ client: documents, jobsTable: JOBS, retry }).get(jobId))?.counts.ended ?? 0;
  } else {
    const shards = Number(context.ledger.slice("counters K=".length));
    const ledger = new JobLedger({
      client: documents,
      jobsTable: JOBS,
      outcomesTable: OUTCOMES,
      retry,
      counterShards: shards,
      onEnded: async () => {
        ends += 1;
      },
    });
    const { job } = await ledger.start(
      { bucket: "bench", key: `bench-${context.jobNumber}.jsonl`, versionId: "v1" },
      { deadline: deadline() },
    );
    jobId = job.job_id;
    await ledger.markRead(jobId, lines, { deadline: deadline() });
    write = async (line) => {
      await ledger.recordOutcome(outcomeOf(jobId, line), { deadline: deadline(), onRetry });
    };
    read = async () => (await ledger.get(jobId))?.counts.ended ?? 0;
  }
  context.observer.take();
  let next = 1;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: context.writers }, async () => {
      for (let line = next++; line <= lines; line = next++) await write(line);
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const transactions = context.observer.take();
  return {
    ledger: context.ledger,
    writers: context.writers,
    round: context.round,
    lines,
    seconds: Math.round(seconds * 100) / 100,
    lines_per_s: Math.round((lines / seconds) * 10) / 10,
    transactions_per_s: Math.round((transactions.committed / seconds) * 10) / 10,
    transactions,
    retries,
    ended: await read(),
    ends,
  };
}

/** The median of some numbers (the mean of the middle two for an even count). */
function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** The report as Markdown: the medians over the rounds per (ledger, writers), then every cell. */
export function formatLedgerReport(report: LedgerReport): string {
  const groups = new Map<string, LedgerCell[]>();
  for (const cell of report.cells) {
    const key = `${cell.ledger} | ${cell.writers}`;
    groups.set(key, [...(groups.get(key) ?? []), cell]);
  }
  const medians = [...groups].map(([key, cells]) => {
    const sent = cells.reduce((sum, cell) => sum + cell.transactions.sent, 0);
    const overlapping = cells.reduce((sum, cell) => sum + cell.transactions.overlapping, 0);
    return `| ${key} | ${cells.length} | ${median(cells.map((cell) => cell.lines_per_s)).toFixed(1)} | ${median(cells.map((cell) => cell.transactions_per_s)).toFixed(1)} | ${cells.reduce((sum, cell) => sum + cell.transactions.conflicts, 0)} | ${cells.reduce((sum, cell) => sum + cell.retries, 0)} | ${Math.round((overlapping / Math.max(1, sent)) * 100)}% |`;
  });
  const rows = report.cells.map((cell) =>
    [
      cell.ledger,
      cell.writers,
      cell.round,
      cell.lines,
      cell.seconds,
      cell.lines_per_s,
      cell.transactions_per_s,
      cell.transactions.conflicts,
      cell.retries,
      `${cell.transactions.overlapping} (${Math.round((cell.transactions.overlapping / Math.max(1, cell.transactions.sent)) * 100)}%)`,
      cell.ended === cell.lines && cell.ends === 1 ? "yes" : `NO (ended ${cell.ended}, ends ${cell.ends})`,
    ].join(" | "),
  );
  return [
    `machine: ${report.machine.cpu}, ${report.machine.cores} cores, ${report.machine.memory_gib} GiB, Node ${report.machine.node}; load average before ${report.load_before.map((value) => value.toFixed(2)).join(" ")}, after ${report.load_after.map((value) => value.toFixed(2)).join(" ")}`,
    "",
    "| ledger | writers | rounds | lines/s (median) | transactions/s (median) | TransactionConflict (all rounds) | retries (all rounds) | overlapping attempts |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: |",
    ...medians,
    "",
    "| ledger | writers | round | lines | s | lines/s | transactions/s | TransactionConflict | retries | overlapping attempts | exactly once |",
    "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |",
    ...rows.map((row) => `| ${row} |`),
  ].join("\n");
}
