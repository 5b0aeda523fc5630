import type { PolicyDriftReport } from "../../contract/outcome/driftReport.js";
import type { OutcomesReader } from "../outcomes/OutcomesReader.js";
import type { DriftOptions } from "./DriftOptions.js";
import type { DriftWindows } from "./driftWindows.js";
import { type DeclaredQuestion, measureDrift } from "./measureDrift.js";
import { readDriftObservations } from "./readDriftObservations.js";

/**
 * Reads the outcomes of `policy` decided in the baseline and the window ({@link readDriftObservations})
 * and measures their drift ({@link measureDrift}).
 * @throws OutcomesTableError, MalformedOutcomeError as the reads do.
 */
export async function measurePolicyDrift(input: {
  reader: OutcomesReader;
  policy: string;
  windows: DriftWindows;
  options: DriftOptions;
  declared?: readonly DeclaredQuestion[];
}): Promise<PolicyDriftReport> {
  const { windows } = input;
  const read = await readDriftObservations(input.reader, input.policy, {
    since: Math.min(windows.baseline.since, windows.window.since),
    until: Math.max(windows.baseline.until, windows.window.until),
  });
  return {
    policy: input.policy,
    outcomes: { read: read.read, kept: read.kept },
    ...measureDrift(read.observations, windows, input.options, input.declared),
  };
}
