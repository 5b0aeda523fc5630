/** The outcome already stored for a dead letter's item, as `decisions dlq list` shows it. */
export interface DeadLetterOutcome {
  /** The stored outcome's status (`decided`, `fallback`, `rejected`, `reviewed`, …). */
  status: string;
  /** The stored outcome's `updated_at`. */
  updatedAt: string;
  /**
   * Why the letter is not safe to purge although its outcome is stored, when it is not: it is the
   * last line of a job whose end check has not run (its redelivery would run it), or a job line
   * whose job was not read.
   */
  held?: string;
}
