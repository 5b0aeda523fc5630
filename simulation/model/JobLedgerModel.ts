/**
 * The job's ledger: every line's outcome is counted in one transaction that also updates the job's
 * one record, so the record's item serializes the counts — a single server at `linesPerSecond`
 * (0: no limit). On AWS, one item sustains 1,000 write units a second and a transactional write of
 * an item under 1 KB takes 2 (see `AWS_CONSTANTS`): 500 lines a second. Transaction conflicts on
 * that item are not modelled.
 */
export class JobLedgerModel {
  readonly #secondsPerLine: number;
  #freeAt = 0;
  /** Seconds the ledger was writing. */
  busySeconds = 0;

  constructor(linesPerSecond: number) {
    this.#secondsPerLine = linesPerSecond > 0 ? 1 / linesPerSecond : 0;
  }

  /** Counts `lines` lines handed over at `now`; returns when the last is counted. */
  write(lines: number, now: number): number {
    if (this.#secondsPerLine === 0) return now;
    const cost = lines * this.#secondsPerLine;
    this.#freeAt = Math.max(now, this.#freeAt) + cost;
    this.busySeconds += cost;
    return this.#freeAt;
  }
}
