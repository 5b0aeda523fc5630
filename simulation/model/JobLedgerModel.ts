/**
 * The job's ledger as a single server at `linesPerSecond` (0: no limit): every line's outcome is
 * counted in one transaction that adds to one of the job's 16 counter items (line − 1 mod 16). On
 * AWS one item sustains 1,000 write units a second and a transactional write of an item under 1 KB
 * takes 2 (see `AWS_CONSTANTS`): 500 lines a second per counter, 8,000 over the 16 — once the
 * job's items, which share one partition key, are spread over partitions by adaptive capacity.
 * Transaction conflicts on a counter are not modelled.
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
