/**
 * `decisions outcomes export`: every outcome of a policy (or of one status) as JSON Lines or CSV, or
 * the reviewed ones as labelled data for `decisions calibrate`, to --out or stdout.
 */
import { createWriteStream } from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import type { OutcomesReader } from "../../../core/outcomes/index.js";
import { defaultPolicyDir, loadNamedPolicy } from "../../../operations/common/index.js";
import { type ExportCounts, exportOutcomes } from "../../../operations/outcomes/index.js";
import { UsageError } from "../../errors.js";
import type { CliOutput } from "../../types.js";
import { readFormat, readStatus } from "./flagReaders.js";
import type { OutcomesValues } from "./flags.js";
import { OUTCOMES_USAGE as USAGE } from "./usage.js";

/**
 * Writes the export `values` asks for and a count of it on `stderr`; returns the exit code (0).
 * @throws UsageError when the flags contradict each other or one is malformed.
 */
export async function exportOutcomesTo(
  table: OutcomesReader,
  policy: string,
  values: OutcomesValues,
  stdout: CliOutput["stdout"],
  stderr: CliOutput["stderr"],
): Promise<number> {
  const status = readStatus(values.status);
  const format = readFormat(values.format, values.labelled === true);
  if (format === "labelled" && status !== undefined && status !== "reviewed") {
    throw new UsageError("--labelled exports the reviewed outcomes; leave out --status", { usage: USAGE });
  }
  const definition =
    format === "labelled" || format === "csv"
      ? await loadNamedPolicy(values.policies ?? defaultPolicyDir(), policy).catch((error: unknown) => {
          // CSV only orders its columns by the policy: without it, they follow the outcomes.
          if (format === "csv") return undefined;
          throw error;
        })
      : undefined;
  const counts: ExportCounts = { read: 0, written: 0 };
  const chunks = exportOutcomes(
    {
      table,
      policy,
      format,
      ...(status === undefined ? {} : { status }),
      ...(definition ? { definition } : {}),
    },
    counts,
  );
  if (values.out === undefined || values.out === "-") {
    for await (const chunk of chunks) stdout.write(chunk);
  } else {
    await pipeline(Readable.from(chunks), createWriteStream(values.out));
  }
  const what =
    format === "labelled" ? "labelled decision(s)" : format === "csv" ? "CSV row(s)" : "outcome(s)";
  stderr.write(
    `exported ${counts.written} ${what} of ${policy} (${counts.read} read)${values.out && values.out !== "-" ? ` to ${values.out}` : ""}\n`,
  );
  return 0;
}
