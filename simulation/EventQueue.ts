/** One scheduled event: what runs, and when. */
interface ScheduledEvent {
  at: number;
  order: number;
  run: () => void;
}

/**
 * The discrete-event loop's agenda: a binary heap of events by time, ties in the order they were
 * scheduled (so a run is deterministic). Time is simulated seconds; nothing reads a wall clock.
 */
export class EventQueue {
  readonly #heap: ScheduledEvent[] = [];
  #order = 0;
  #now = 0;

  /** The simulated time of the event running now (seconds). */
  get now(): number {
    return this.#now;
  }

  /** Events waiting. */
  get size(): number {
    return this.#heap.length;
  }

  /** Runs `run` at simulated time `at` (never before now). */
  at(at: number, run: () => void): void {
    const event = { at: Math.max(at, this.#now), order: this.#order++, run };
    const heap = this.#heap;
    heap.push(event);
    let index = heap.length - 1;
    while (index > 0) {
      const parent = (index - 1) >> 1;
      if (!before(event, heap[parent] as ScheduledEvent)) break;
      heap[index] = heap[parent] as ScheduledEvent;
      index = parent;
    }
    heap[index] = event;
  }

  /** Runs `run` after `delay` simulated seconds. */
  after(delay: number, run: () => void): void {
    this.at(this.#now + delay, run);
  }

  /**
   * Runs events in time order until none is left, `stop()` says so (checked after each), or the
   * next one lies past `until`. Returns the number of events run.
   */
  runUntil(until: number, stop: () => boolean): number {
    let ran = 0;
    const heap = this.#heap;
    while (heap.length > 0) {
      const first = heap[0] as ScheduledEvent;
      if (first.at > until) break;
      const last = heap.pop() as ScheduledEvent;
      if (heap.length > 0) {
        heap[0] = last;
        this.#siftDown();
      }
      this.#now = first.at;
      first.run();
      ran += 1;
      if (stop()) break;
    }
    return ran;
  }

  #siftDown(): void {
    const heap = this.#heap;
    const event = heap[0] as ScheduledEvent;
    let index = 0;
    for (;;) {
      const left = 2 * index + 1;
      if (left >= heap.length) break;
      const right = left + 1;
      const child =
        right < heap.length && before(heap[right] as ScheduledEvent, heap[left] as ScheduledEvent)
          ? right
          : left;
      if (!before(heap[child] as ScheduledEvent, event)) break;
      heap[index] = heap[child] as ScheduledEvent;
      index = child;
    }
    heap[index] = event;
  }
}

function before(a: ScheduledEvent, b: ScheduledEvent): boolean {
  return a.at < b.at || (a.at === b.at && a.order < b.order);
}
