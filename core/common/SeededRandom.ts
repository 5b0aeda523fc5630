/**
 * A seeded pseudo-random source (mulberry32): the same seed gives the same sequence on every
 * machine, so a simulation, a chaos run, a benchmark's workload or a test's synthetic data is
 * reproducible. Not for anything secret. Written here, once, because the only seeded generator
 * installed (fast-check's `pure-rand`) is a test dependency, and the sequences of the seeds the
 * docs and tests quote must stay what they are.
 *
 * @example
 * const random = new SeededRandom(7);
 * random.next(); // in [0, 1), the same sequence for seed 7 every time
 */
export class SeededRandom {
  #state: number;

  /** @param seed - any number; it is folded to 32 bits (its integer part modulo 2³²). */
  constructor(seed: number) {
    this.#state = Math.trunc(seed) >>> 0;
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

  /** An exponentially distributed wait with the given rate (events per unit of time). */
  exponential(rate: number): number {
    return -Math.log(1 - this.next()) / rate;
  }

  /** A normally distributed number (Box–Muller) with mean 0 and standard deviation 1. */
  normal(): number {
    const u = 1 - this.next();
    const v = this.next();
    return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * v);
  }
}

/**
 * The uniform stream of a {@link SeededRandom} as a plain function, for code that takes
 * `() => number`.
 *
 * @example
 * const random = seededUniform(1);
 * random(); // in [0, 1)
 */
export function seededUniform(seed: number): () => number {
  const random = new SeededRandom(seed);
  return () => random.next();
}
