/**
 * A small seeded pseudo-random generator (mulberry32), so a chaos run's workload, fault schedule
 * and per-request fault decisions are the same for the same seed. Written here because the only
 * seeded generator installed (fast-check's `pure-rand`) is a test dependency, not one of ours.
 *
 * @example
 * const random = new SeededRandom(7);
 * random.next(); // a number in [0, 1), the same sequence for seed 7 every time
 */
export class SeededRandom {
  #state: number;

  /** @param seed - any integer; only its low 32 bits count. */
  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  /** The next number, uniform in [0, 1). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  }

  /** A number uniform in [min, max). */
  between(min: number, max: number): number {
    return min + (max - min) * this.next();
  }

  /** An integer uniform in [0, count). */
  index(count: number): number {
    return Math.floor(this.next() * count);
  }

  /** True with probability `share`. */
  chance(share: number): boolean {
    return this.next() < share;
  }

  /** A copy of `items` in a random order (Fisher–Yates). */
  shuffle<T>(items: readonly T[]): T[] {
    const copy = [...items];
    for (let i = copy.length - 1; i > 0; i -= 1) {
      const j = this.index(i + 1);
      [copy[i], copy[j]] = [copy[j] as T, copy[i] as T];
    }
    return copy;
  }

  /** A new generator seeded from this one (independent streams for independent parts). */
  fork(): SeededRandom {
    return new SeededRandom(Math.floor(this.next() * 4_294_967_296));
  }
}
