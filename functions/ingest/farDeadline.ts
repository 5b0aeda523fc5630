import type { Clock } from "../../core/common/Clock.js";
import { Deadline } from "../../core/common/Deadline.js";

/**
 * The deadline of the writes that follow a read (a bad line's outcome, the job's start and line
 * count): a minute from now, past the batch deadline, because what they record is already read.
 */
export function farDeadline(clock: Clock): Deadline {
  return new Deadline(clock.now() + 60_000, clock);
}
