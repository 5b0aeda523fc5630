/**
 * A small, fast, seeded pseudo-random generator for model weights: the same seed and stream label
 * give the same numbers on every platform (integer arithmetic only; normals come from a fixed
 * quantile table).
 */

/** Number of entries of the normal quantile table; one 16-bit draw picks one entry. */
const NORMAL_TABLE_SIZE = 65536;

let normalTable: Float32Array | undefined;

/**
 * Inverse of the standard normal CDF (Acklam's rational approximation, relative error < 1.2e-9).
 * Used once to build the quantile table.
 */
function inverseNormalCdf(p: number): number {
  const a = [
    -39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716,
    2.506628274631,
  ];
  const b = [
    -54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572,
  ];
  const c = [
    -0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968,
    2.938163982698783,
  ];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const [a0, a1, a2, a3, a4, a5] = a as [number, number, number, number, number, number];
  const [b0, b1, b2, b3, b4] = b as [number, number, number, number, number];
  const [c0, c1, c2, c3, c4, c5] = c as [number, number, number, number, number, number];
  const [d0, d1, d2, d3] = d as [number, number, number, number];
  const low = 0.02425;
  if (p < low) {
    const q = Math.sqrt(-2 * Math.log(p));
    return (
      (((((c0 * q + c1) * q + c2) * q + c3) * q + c4) * q + c5) /
      ((((d0 * q + d1) * q + d2) * q + d3) * q + 1)
    );
  }
  if (p > 1 - low) {
    const q = Math.sqrt(-2 * Math.log(1 - p));
    return (
      -(((((c0 * q + c1) * q + c2) * q + c3) * q + c4) * q + c5) /
      ((((d0 * q + d1) * q + d2) * q + d3) * q + 1)
    );
  }
  const q = p - 0.5;
  const r = q * q;
  return (
    ((((((a0 * r + a1) * r + a2) * r + a3) * r + a4) * r + a5) * q) /
    (((((b0 * r + b1) * r + b2) * r + b3) * r + b4) * r + 1)
  );
}

function getNormalTable(): Float32Array {
  if (normalTable === undefined) {
    const table = new Float32Array(NORMAL_TABLE_SIZE);
    for (let i = 0; i < NORMAL_TABLE_SIZE; i++) table[i] = inverseNormalCdf((i + 0.5) / NORMAL_TABLE_SIZE);
    normalTable = table;
  }
  return normalTable;
}

/** 32-bit FNV-1a hash of a string's UTF-16 code units. */
function hashLabel(label: string): number {
  let hash = 0x811c9dc5;
  for (let i = 0; i < label.length; i++) {
    hash ^= label.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return hash >>> 0;
}

/**
 * Seeded generator (xoshiro128**, seeded through splitmix32).
 *
 * Derive one independent stream per tensor with {@link SeededRandom.forStream} so that a tensor's
 * values depend only on the seed and its name, not on the order tensors are generated in.
 * @example
 * ```ts
 * const random = SeededRandom.forStream(42, "blk.0.attn_q.weight");
 * const weights = new Float32Array(64 * 64);
 * random.fillNormal(weights, 0.05);
 * ```
 */
export class SeededRandom {
  private s0: number;
  private s1: number;
  private s2: number;
  private s3: number;

  /**
   * @param seed any number; only its low 32 bits are used (fractions are truncated).
   */
  constructor(seed: number) {
    let state = Math.trunc(seed) >>> 0;
    const next = (): number => {
      state = (state + 0x9e3779b9) >>> 0;
      let z = state;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      return (z ^ (z >>> 16)) >>> 0;
    };
    this.s0 = next();
    this.s1 = next();
    this.s2 = next();
    this.s3 = next();
    if ((this.s0 | this.s1 | this.s2 | this.s3) === 0) this.s0 = 1;
  }

  /** A generator for the stream named `label` under `seed`: independent of every other label. */
  static forStream(seed: number, label: string): SeededRandom {
    return new SeededRandom(((Math.trunc(seed) >>> 0) ^ Math.imul(hashLabel(label), 0x9e3779b1)) >>> 0);
  }

  /** The next 32 random bits as an unsigned integer. */
  nextUint32(): number {
    const result = Math.imul(rotl(Math.imul(this.s1, 5), 7), 9) >>> 0;
    const t = this.s1 << 9;
    this.s2 ^= this.s0;
    this.s3 ^= this.s1;
    this.s1 ^= this.s2;
    this.s0 ^= this.s3;
    this.s2 ^= t;
    this.s3 = rotl(this.s3, 11);
    return result;
  }

  /** A uniform number in [0, 1) with 32 bits of resolution. */
  nextFloat(): number {
    return this.nextUint32() / 4294967296;
  }

  /** A uniform number in [min, max). */
  uniform(min: number, max: number): number {
    return min + (max - min) * this.nextFloat();
  }

  /**
   * Fills `target` with normal values of the given mean and standard deviation. Each value is one of
   * 65,536 normal quantiles (tails reach about ±4.3 standard deviations): normal-ish and fast.
   * @param std standard deviation (default 1).
   * @param mean mean (default 0).
   */
  fillNormal(target: Float32Array, std = 1, mean = 0): Float32Array {
    const table = getNormalTable();
    const n = target.length;
    let i = 0;
    for (; i + 1 < n; i += 2) {
      const bits = this.nextUint32();
      target[i] = mean + std * (table[bits & 0xffff] ?? 0);
      target[i + 1] = mean + std * (table[bits >>> 16] ?? 0);
    }
    if (i < n) target[i] = mean + std * (table[this.nextUint32() & 0xffff] ?? 0);
    return target;
  }

  /** Fills `target` with uniform values in [min, max). */
  fillUniform(target: Float32Array, min: number, max: number): Float32Array {
    for (let i = 0; i < target.length; i++) target[i] = this.uniform(min, max);
    return target;
  }
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}
