import { z } from "zod";
import type { Setting } from "./Setting.js";
import { integerSetting, nonEmptyTextSetting } from "./settingSchemas.js";

/**
 * A number in (`above`, `max`], written in decimal (`0.1`, `1`): the drift threshold's parser.
 * "1e-1", "0x1" and " " are refused.
 */
export function decimalSetting(above: number, max: number): z.ZodType<number> {
  return z.unknown().transform((value, context) => {
    const text = typeof value === "number" ? String(value) : typeof value === "string" ? value.trim() : "";
    const number = Number(text);
    if (!/^\d+(\.\d+)?$/.test(text) || !(number > above && number <= max)) {
      context.addIssue({
        code: "custom",
        message: `must be a decimal number above ${above} and at most ${max}, got ${JSON.stringify(value)}`,
      });
      return z.NEVER;
    }
    return number;
  });
}

/** Policy names separated by commas (`ticket-routing,incident-priority`), at least one. */
export const policyListSetting: z.ZodType<string[]> = z.unknown().transform((value, context) => {
  const names =
    typeof value === "string"
      ? value
          .split(",")
          .map((name) => name.trim())
          .filter((name) => name !== "")
      : [];
  if (names.length === 0) {
    context.addIssue({
      code: "custom",
      message: `must name at least one policy, got ${JSON.stringify(value)}`,
    });
    return z.NEVER;
  }
  return names;
});

/** The default alarm threshold of the drift distance (Jensen–Shannon divergence, bits). */
export const DEFAULT_DRIFT_THRESHOLD = 0.1;

/**
 * The drift monitor's environment (`functions/driftMonitor/readDriftMonitorConfig.ts` reads it at
 * cold start; the CDK app's `DriftMonitorFunction` writes it, `threshold` from the knob
 * `driftAlarmThreshold`, `policies` from the policy catalogue). The window and the baseline are those
 * of `decisions drift` (docs/drift.md).
 */
export const DRIFT_MONITOR_SETTINGS = {
  outcomesTable: {
    env: ["OUTCOMES_TABLE"],
    schema: nonEmptyTextSetting,
    default: { required: true },
    doc: "the outcomes table whose outcomes are compared",
  },
  policies: {
    env: ["DRIFT_POLICIES"],
    schema: policyListSetting,
    default: { required: true },
    doc: "the policies checked, separated by commas",
  },
  windowMinutes: {
    env: ["DRIFT_WINDOW_MINUTES"],
    schema: integerSetting(5, 10_080),
    default: { value: 60 },
    doc: "the window: outcomes decided in the last this many minutes are compared with the baseline",
  },
  baselineWindows: {
    env: ["DRIFT_BASELINE_WINDOWS"],
    schema: integerSetting(1, 720),
    default: { value: 24 },
    doc: "the baseline: the outcomes decided in this many windows before the window",
  },
  minOutcomes: {
    env: ["DRIFT_MIN_OUTCOMES"],
    schema: integerSetting(1, 1_000_000),
    default: { value: 50 },
    doc: "a question's distance is published only when the window and the baseline each hold this many answers",
  },
  threshold: {
    env: ["DRIFT_THRESHOLD"],
    schema: decimalSetting(0, 1),
    default: { value: DEFAULT_DRIFT_THRESHOLD },
    doc: "the alarm threshold of the distance (bits), named in the monitor's log when a question is over it",
  },
} as const satisfies Record<string, Setting<unknown>>;
