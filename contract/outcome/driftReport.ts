/**
 * What drift finds (`core/drift`): per question of a policy, how far the answers of the last
 * window moved from the baseline. Built by the drift monitor, `decisions drift` and the review
 * console's `GET /api/policies/{policy}/drift`, and drawn by the console's page: written once here
 * so that the page (which imports it type-only) and the server cannot drift.
 */

/** An option the policy may need to change. */
export type OptionFlag =
  | {
      /** The model chose it for less than `rareShare` of the answers. */
      kind: "rare";
      option: string;
      /** Its share of the answers (0–1). */
      share: number;
      count: number;
    }
  | {
      /** Reviewers mostly answered `with` where the model answered `option`. */
      kind: "confused";
      option: string;
      with: string;
      /** Share of the reviewed items the model answered `option` that reviewers answered `with`. */
      share: number;
      /** Reviewed items the model answered `option`. */
      reviews: number;
    };

/** One option's share of the answers on each side. */
export interface OptionShare {
  option: string;
  /** Share of the baseline's answers (0–1). */
  baseline: number;
  /** Share of the window's answers (0–1). */
  window: number;
  /** window − baseline. */
  change: number;
}

/** How far one question's answers moved between the baseline and the window. */
export interface QuestionDrift {
  question: string;
  /** Answers on each side. */
  counts: { baseline: number; window: number };
  /** Both sides hold at least `minOutcomes` answers: only then is the distance published. */
  enough: boolean;
  /**
   * The larger of the two distances below (bits, 0–1); null when a side holds no answer. Given
   * even when not `enough`, for a person to look at; it then never counts as over the threshold.
   */
  distance: number | null;
  /** Jensen–Shannon divergence (bits) of the answer mix (the model's top label). */
  answer_distance: number | null;
  /** Jensen–Shannon divergence (bits) of the histogram of the model's top probability. */
  confidence_distance: number | null;
  /**
   * The distance expected from sampling alone at these counts (the larger of the two sides'
   * estimates, see `jensenShannonNoise`): a threshold close to it fires on noise.
   */
  noise: number | null;
  /** `enough` and the distance above the threshold. */
  over_threshold: boolean;
  /** Every option's share on both sides, by option. */
  answers: OptionShare[];
  /** Options whose share changed by at least `movedShare`, the largest change first. */
  moved: OptionShare[];
  /** The share of answers per confidence bin (bin i: [i/n, (i+1)/n), the last closed) on each side. */
  confidence: { baseline: number[]; window: number[] };
  /** Rarely chosen options and options reviewers keep replacing, over both sides. */
  flags: OptionFlag[];
}

/** What drift found for one policy. */
export interface DriftReport {
  window: { since: string; until: string };
  baseline: { since: string; until: string };
  /** The alarm threshold the questions were compared with (bits). */
  threshold: number;
  /** The largest distance of a question with `enough` answers; null when none has. */
  distance: number | null;
  /** Some question is over the threshold. */
  over_threshold: boolean;
  questions: QuestionDrift[];
}

/** A policy's drift report with what reading it took. */
export interface PolicyDriftReport extends DriftReport {
  policy: string;
  /** Outcomes read from the table, and those decided in the baseline or the window. */
  outcomes: { read: number; kept: number };
}
