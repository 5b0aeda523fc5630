/** Coverage and error of a threshold on a set of decisions. */
export interface ThresholdOutcome {
  threshold: number;
  automated: number;
  /** Wrong decisions among the automated ones. */
  errors: number;
  coverage: number;
  error_rate: number;
  /** One-sided Wilson upper bound of the error rate (95 % at the default z = 1.645). */
  error_upper_bound: number;
}

/**
 * How a threshold chosen on the fit split fares against the error budget on the held-out split:
 * - `confirmed`: even the upper confidence bound of the held-out error rate is within the budget;
 * - `consistent`: the observed held-out error rate is within the budget, but its upper bound is
 *   not (too few held-out decisions to confirm it);
 * - `exceeded`: the observed held-out error rate is above the budget;
 * - `untested`: the threshold automates none of the held-out decisions.
 */
export type HeldOutVerdict = "confirmed" | "consistent" | "exceeded" | "untested";

/** What {@link judgeHeldOut} returns. */
export interface HeldOutJudgement {
  verdict: HeldOutVerdict;
  /** Whether `calibrate --write` writes this threshold without `--force` (not `exceeded` nor `untested`). */
  writable: boolean;
  /** For a person: what the held-out data says about the budget. */
  message: string;
}

/**
 * Judges a chosen threshold's held-out outcome against the error budget (see {@link HeldOutVerdict}).
 * `exceeded` and `untested` are not writable: the held-out data contradicts the budget, or says
 * nothing about it. `consistent` is writable but warned about: the point estimate keeps the budget.
 */
export function judgeHeldOut(outcome: ThresholdOutcome, errorBudget: number): HeldOutJudgement {
  const observed = `${round(outcome.error_rate)} (${outcome.errors} of ${outcome.automated})`;
  const bound = round(outcome.error_upper_bound);
  if (outcome.automated === 0) {
    return {
      verdict: "untested",
      writable: false,
      message: `threshold ${outcome.threshold} automates none of the held-out decisions: the budget ${errorBudget} is untested`,
    };
  }
  if (outcome.error_rate > errorBudget) {
    return {
      verdict: "exceeded",
      writable: false,
      message: `threshold ${outcome.threshold} errs on ${observed} of the held-out automated decisions, above the budget ${errorBudget} (upper bound ${bound})`,
    };
  }
  if (outcome.error_upper_bound > errorBudget) {
    return {
      verdict: "consistent",
      writable: true,
      message: `threshold ${outcome.threshold} errs on ${observed} held out, within the budget ${errorBudget}, but its upper bound ${bound} is not: too few held-out decisions to confirm it`,
    };
  }
  return {
    verdict: "confirmed",
    writable: true,
    message: `threshold ${outcome.threshold} errs on ${observed} held out; upper bound ${bound} within the budget ${errorBudget}`,
  };
}

function round(value: number): string {
  return Number(value.toFixed(4)).toString();
}
