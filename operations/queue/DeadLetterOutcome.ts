/** The outcome already stored for a dead letter's item, as `decisions dlq list` shows it. */
export interface DeadLetterOutcome {
  /** The stored outcome's status (`decided`, `fallback`, `rejected`, `reviewed`, …). */
  status: string;
  /** The stored outcome's `updated_at`. */
  updatedAt: string;
}
