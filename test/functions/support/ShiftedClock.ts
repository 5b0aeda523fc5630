/** Real time plus an offset a test can move forward (to pass a deadline at a chosen moment). */
import { type Clock, systemClock } from "../../../core/common/Clock.js";

/** See the file comment. */
export class ShiftedClock implements Clock {
  offsetMs = 0;
  now(): number {
    return Date.now() + this.offsetMs;
  }
  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return systemClock.sleep(ms, signal);
  }
}
