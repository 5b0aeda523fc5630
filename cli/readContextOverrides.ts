import { UsageError } from "./errors.js";

/** The `-c` / `--context` flag of the commands that read the CDK app's context, as `cdk synth` takes it (repeatable). */
export const CONTEXT_FLAG = { type: "string", short: "c", multiple: true } as const;

/**
 * The CDK context values given with `-c knob=value`, by knob; a later value of a knob wins. The
 * value is everything after the first `=` (it may hold more).
 * @throws UsageError, carrying `usage`, for an override with no knob before an `=`.
 * @example
 * readContextOverrides(["accelerator=gpu", "profile=production"], USAGE);
 * // → { accelerator: "gpu", profile: "production" }
 */
export function readContextOverrides(overrides: readonly string[], usage: string): Record<string, string> {
  const context: Record<string, string> = {};
  for (const override of overrides) {
    const equals = override.indexOf("=");
    if (equals <= 0) throw new UsageError(`-c takes knob=value, got "${override}"`, { usage });
    context[override.slice(0, equals)] = override.slice(equals + 1);
  }
  return context;
}
