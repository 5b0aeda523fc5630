import type { PolicyDriftReport } from "../../contract/outcome/driftReport.js";
import type { Clock } from "../../core/common/Clock.js";
import type { DriftOptions } from "../../core/drift/DriftOptions.js";
import { rollingWindows } from "../../core/drift/driftWindows.js";
import { measurePolicyDrift } from "../../core/drift/measurePolicyDrift.js";
import type { OutcomesReader } from "../../core/outcomes/OutcomesReader.js";

/** Options of a {@link DriftMonitor}. */
export interface DriftMonitorOptions {
  reader: OutcomesReader;
  clock: Clock;
  /** The policies checked, in this order. */
  policies: readonly string[];
  options: DriftOptions;
}

/**
 * The drift monitor's check: for each policy, the outcomes decided in the last window against the
 * baseline windows before it ({@link rollingWindows} at the clock's now), read through the
 * `by-status` index ({@link measurePolicyDrift}). Policies are read one after another (one
 * policy's reads at a time against the table).
 */
export class DriftMonitor {
  readonly #options: DriftMonitorOptions;

  constructor(options: DriftMonitorOptions) {
    this.#options = options;
  }

  /** @throws OutcomesTableError, MalformedOutcomeError as the table's reads do. */
  async check(): Promise<PolicyDriftReport[]> {
    const { reader, clock, policies, options } = this.#options;
    const windows = rollingWindows(clock.now(), options);
    const reports: PolicyDriftReport[] = [];
    for (const policy of policies)
      reports.push(await measurePolicyDrift({ reader, policy, windows, options }));
    return reports;
  }
}
