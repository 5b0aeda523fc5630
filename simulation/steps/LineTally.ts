import type { LineEnd } from "../model/DecideFunctionModel.js";
import type { MessagePart } from "../model/MessageQueue.js";

/**
 * The counts a run reports about lines and interactive items: how many ended (decided or
 * dead-lettered), when the job's first and last lines ended, and each interactive item's latency
 * from its send to its decision. The decide functions report into it through {@link LineTally.ended}.
 */
export class LineTally {
  /** The job's (bulk) lines ended, decided or dead-lettered. */
  bulkEnded = 0;
  /** The job's lines decided. */
  decided = 0;
  /** The job's lines dead-lettered (their receives used up). */
  deadLettered = 0;
  /** When the job's first line ended (seconds); undefined before. */
  firstLineAt: number | undefined;
  /** When the job's last line so far ended (seconds). */
  lastLineAt = 0;
  /** Interactive items sent. */
  interactiveSent = 0;
  /** Interactive items ended, decided or dead-lettered. */
  interactiveEnded = 0;
  /** Seconds from send to decision of each decided interactive item, in the order they ended. */
  readonly interactiveLatencies: number[] = [];

  /** Counts `count` lines of `part` that ended `how` at `at` (the decide functions' sink). */
  ended(part: MessagePart, count: number, how: LineEnd, at: number): void {
    if (part.interactive) {
      this.interactiveEnded += count;
      if (how === "decided") this.interactiveLatencies.push(at - part.sentAt);
      return;
    }
    this.bulkEnded += count;
    if (how === "decided") this.decided += count;
    else this.deadLettered += count;
    this.firstLineAt ??= at;
    this.lastLineAt = at;
  }

  /** Whether all `lines` lines of the job have ended. */
  jobDone(lines: number): boolean {
    return this.bulkEnded >= lines;
  }
}
