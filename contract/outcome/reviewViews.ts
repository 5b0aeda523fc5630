/**
 * What the review console's API answers (`core/review`), as the server builds it
 * and the page (`console/web`) reads it: written once here so that the two cannot drift. Types
 * only: the page imports them with `import type`, so its bundle takes nothing from the server.
 */
import type { PolicyDriftReport } from "./driftReport.js";
import type { StoredOutcome } from "./OutcomeSchema.js";
import type { ReviewOrder } from "./reviewOrder.js";

/** One row of the queue page (`GET /api/queue`). */
export interface QueueItem {
  policy: string;
  id: string;
  updated_at: string;
  created_at: string;
  /** The questions standing on their fallback. */
  open_questions: string[];
  rules: string[];
  reason?: string;
  state_preview?: string;
  /** An audit item (decided automatically, sent to review for an unbiased label). */
  audit?: boolean;
  /** Under a worth order: the item's worth (`margin`: distance to the threshold; `entropy`: minus the normalised entropy). */
  worth?: number;
}

/** The window a worth-ordered page was ordered within: the bound of the order. */
export interface WorthWindow {
  /** Index entries in the window (before filters); its pages each read about as many. */
  entries: number;
  /** Its newest and oldest `updated_at`. */
  newest?: string;
  oldest?: string;
  /** The window is the whole queue (as of the listing's first page): the order is exact, not windowed. */
  complete: boolean;
}

/** One page of the queue (`GET /api/queue`). */
export interface QueuePage {
  items: QueueItem[];
  /** The `before` of the next page; absent once every waiting item was listed. */
  next?: string;
  /** Index entries this request read. */
  read: number;
  /** The read bound (or, under a worth order, the window's end) stopped this page before it was full: more may match after `next`. */
  cut?: true;
  /** The order the page is listed in. */
  order: ReviewOrder;
  /** Under a worth order: the window of waiting entries the order was computed over (its bound). */
  window?: WorthWindow;
}

/** How many items wait for review (`GET /api/queue/count?policy=`), before any other filter. */
export interface WaitingCount {
  /** Waiting items counted: on their fallback (a partial review keeps them there) or audit items. */
  waiting: number;
  /** Counting stopped at its bound: at least `waiting` items wait. */
  more?: true;
  /** The policies counted (the one asked for, or all). */
  policies: string[];
}

/** Everything the item page shows (`GET /api/items/{policy}/{id}`). */
export interface ItemView {
  outcome: StoredOutcome;
  policy: {
    name: string;
    version: string;
    description: string;
    /** The policy's questions in its own order (the order of the policy file). */
    questions: {
      id: string;
      type: string;
      instructions: string;
      threshold: number;
      fallback: string | number | boolean;
      /** The options in order, each with its description (the policy's `criteria`) where it gives one. */
      options: { label: string; description?: string }[];
    }[];
    rules: { name: string; description?: string; effect: string }[];
  };
  /** The questions a reviewer must answer: those standing on their fallback, in the policy's order. */
  open_questions: string[];
  state: { text: string; complete: boolean; bytes?: number };
  /** Every review of the item, oldest first. */
  history: NonNullable<StoredOutcome["review"]>[];
}

/** What the console draws for one policy (`GET /api/policies/{policy}/stats`). */
export interface PolicyStats {
  policy: string;
  /** Outcomes read (the newest first, at most the limit asked). */
  outcomes: number;
  /** Per UTC day of `created_at`: outcomes, and those sent to review (fallback, or reviewed after one). */
  fallbackByDay: { day: string; total: number; fallback: number }[];
  questions: QuestionStats[];
}

/** One question's pictures. */
export interface QuestionStats {
  id: string;
  threshold: number;
  /** Counts of the model's top probability in equal bins over [0, 1] (`CONFIDENCE_BINS` of them). */
  confidence: number[];
  /**
   * From reviewed items whose reviewer answered this question: per bin of the model's top
   * probability, how many, the mean predicted probability and the share the reviewer agreed with.
   */
  reliability: { count: number; predicted: number; observed: number }[];
  /** Reviewed items that label this question. */
  labelled: number;
}

/** The policy page's drift (`GET /api/policies/{policy}/drift`): the report and what it was measured with. */
export interface ConsoleDriftReport extends PolicyDriftReport {
  settings: {
    /** Answers the window and the baseline must each hold before a distance counts. */
    min_outcomes: number;
    /** An option whose share changed by at least this much (0–1) is listed as moved. */
    moved_share: number;
  };
}
