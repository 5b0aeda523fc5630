import type { Outcome } from "../../contract/outcome/OutcomeSchema.js";
import type { Deadline } from "../common/Deadline.js";
import type { RetryEvent } from "../common/RetryPolicy.js";

/**
 * Per-call settings of an outcome write ({@link OutcomeStore.record}, and every `OutcomeSink` of the
 * pipeline core).
 */
export interface RecordOptions {
  /** No attempt may start past it. */
  deadline: Deadline;
  /** To be called before each backoff of a writer that retries. */
  onRetry?: (event: RetryEvent) => void;
  /**
   * The work item's supersede marker (`SUPERSEDE_ATTRIBUTE`): the `updated_at` of the outcome it
   * may replace, or `*`; an outcome a person reviewed only behind `replace-reviews:`. A writer that
   * can replaces the outcome that stands when its `updated_at` is this one (or for `*`), keeping it
   * in the new one's history. Default none: an outcome that stands is never replaced.
   */
  supersede?: string;
}

/**
 * What an outcome write did ({@link OutcomeStore.record}, every `OutcomeSink`): wrote the outcome,
 * or found one standing for its (policy, id).
 */
export type RecordResult =
  | {
      recorded: true;
      outcome: Outcome;
      /** Set when it replaced an outcome (a supersede): the `updated_at` of the one replaced. */
      superseded?: string;
    }
  | {
      recorded: false;
      existing: Outcome | Record<string, unknown> | undefined;
      /** Set when the item came with another payload than the one that stands: recorded on it as a conflict. */
      conflict?: boolean;
      /** Set when a supersede was asked for and refused: why. */
      refused?: string;
    };
