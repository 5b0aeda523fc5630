import type { JobUsage } from "../../contract/jobs/JobManifestSchema.js";
import type { DecisionUsage } from "../../contract/outcome/DecisionUsageSchema.js";

/**
 * Sums what decisions cost at the endpoint: each decision adds its share of its request — the
 * request's tokens and endpoint time ÷ `group_size` — so a request shared by a group counts once
 * over the group, however its items are split among jobs or days. A decision without usage (no
 * model call) adds nothing. Evaluated and cached tokens count where the endpoint said them.
 *
 * @example
 * const tally = new UsageTally();
 * tally.add({ group_size: 2, input_tokens: 300, evaluated_tokens: 300, cached_tokens: 0, endpoint_ms: 400 });
 * tally.total(); // { decisions: 1, input_tokens: 150, evaluated_tokens: 150, cached_tokens: 0, endpoint_seconds: 0.2 }
 */
export class UsageTally {
  #decisions = 0;
  #input = 0;
  #evaluated = 0;
  #cached = 0;
  #endpointMs = 0;

  /** Adds one decision's share of its request; `undefined` (no model call) is left out. */
  add(usage: DecisionUsage | undefined): void {
    if (usage === undefined) return;
    const share = 1 / usage.group_size;
    this.#decisions += 1;
    this.#input += usage.input_tokens * share;
    this.#evaluated += (usage.evaluated_tokens ?? 0) * share;
    this.#cached += (usage.cached_tokens ?? 0) * share;
    this.#endpointMs += (usage.endpoint_ms ?? 0) * share;
  }

  /** Decisions added so far. */
  get decisions(): number {
    return this.#decisions;
  }

  /** The sums, tokens to 2 decimals (shares of a group's request are fractions), seconds to 3. */
  total(): JobUsage {
    const exact = this.exact();
    return {
      decisions: exact.decisions,
      input_tokens: round(exact.input_tokens, 2),
      evaluated_tokens: round(exact.evaluated_tokens, 2),
      cached_tokens: round(exact.cached_tokens, 2),
      endpoint_seconds: round(exact.endpoint_seconds, 3),
    };
  }

  /** The sums, not rounded (to divide further). */
  exact(): JobUsage {
    return {
      decisions: this.#decisions,
      input_tokens: this.#input,
      evaluated_tokens: this.#evaluated,
      cached_tokens: this.#cached,
      endpoint_seconds: this.#endpointMs / 1000,
    };
  }
}

function round(value: number, digits: number): number {
  const scale = 10 ** digits;
  return Math.round(value * scale) / scale;
}
