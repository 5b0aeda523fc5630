/** A clock for tests: time moves only when something sleeps on it (or the test advances it). */
import type { Clock } from "../../core/common/Clock.js";

/** See the file comment. Every sleep is recorded in `sleeps`. */
export class FakeClock implements Clock {
  readonly sleeps: number[] = [];
  constructor(public time = 1_700_000_000_000) {}
  now(): number {
    return this.time;
  }
  async sleep(ms: number): Promise<void> {
    this.sleeps.push(ms);
    this.time += ms;
  }
  advance(ms: number): void {
    this.time += ms;
  }
}
