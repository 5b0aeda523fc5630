/**
 * A seeded pseudo-random source (mulberry32): the same seed gives the same sequence on every
 * machine, so a simulation is reproducible. Not for anything secret.
 *
 * @example
 * const random = new SeededRandom(7);
 * random.next(); // in [0, 1)
 */
export class SeededRandom {
  #state: number;

  /** @param seed - any integer; it is folded to 32 bits. */
  constructor(seed: number) {
    this.#state = Math.trunc(seed) >>> 0;
  }

  /** A uniform number in [0, 1). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
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
