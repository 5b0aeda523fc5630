/**
 * Encodings of tensor data, bit-compatible with ggml's reference implementations
 * (`ggml_compute_fp32_to_fp16`, `quantize_row_q8_0_ref`).
 */

import { GgufTensorError } from "./errors.js";
import type { GgmlTypeName } from "./types.js";

/** Number of values in one Q8_0 block. */
export const Q8_0_BLOCK_SIZE = 32;

/** Bytes of one Q8_0 block: an f16 scale followed by 32 int8 values. */
export const Q8_0_BLOCK_BYTES = 34;

const f32Scratch = new Float32Array(1);
const u32Scratch = new Uint32Array(f32Scratch.buffer);

/**
 * Converts a number to the bits of the nearest IEEE 754 half-precision value (rounding to nearest,
 * ties to even, after rounding to single precision first, as ggml does).
 * Overflow gives ±Infinity; NaN gives a quiet NaN.
 * @example float32ToFloat16Bits(1) === 0x3c00
 */
export function float32ToFloat16Bits(value: number): number {
  f32Scratch[0] = value;
  const x = u32Scratch[0] ?? 0;
  const sign = (x >>> 16) & 0x8000;
  const exponent = (x >>> 23) & 0xff;
  let mantissa = x & 0x7fffff;
  if (exponent === 0xff) return sign | 0x7c00 | (mantissa !== 0 ? 0x200 : 0);
  const halfExponent = exponent - 127 + 15;
  if (halfExponent >= 0x1f) return sign | 0x7c00;
  if (halfExponent <= 0) {
    if (halfExponent < -10) return sign;
    mantissa |= 0x800000;
    const shift = 14 - halfExponent;
    let half = mantissa >>> shift;
    const rest = mantissa & ((1 << shift) - 1);
    const halfway = 1 << (shift - 1);
    if (rest > halfway || (rest === halfway && (half & 1) === 1)) half += 1;
    return sign | half;
  }
  // A carry out of the mantissa correctly bumps the exponent (up to Infinity).
  let half = (halfExponent << 10) | (mantissa >>> 13);
  const rest = mantissa & 0x1fff;
  if (rest > 0x1000 || (rest === 0x1000 && (half & 1) === 1)) half += 1;
  return sign | half;
}

/**
 * Converts the bits of an IEEE 754 half-precision value to a number (exact).
 * @example float16BitsToFloat32(0x3c00) === 1
 */
export function float16BitsToFloat32(bits: number): number {
  const sign = bits & 0x8000 ? -1 : 1;
  const exponent = (bits >>> 10) & 0x1f;
  const mantissa = bits & 0x3ff;
  if (exponent === 0) return sign * mantissa * 2 ** -24;
  if (exponent === 0x1f) return mantissa === 0 ? sign * Number.POSITIVE_INFINITY : Number.NaN;
  return sign * (1 + mantissa / 1024) * 2 ** (exponent - 15);
}

/** Rounds half away from zero, like C's `roundf`. */
function roundHalfAwayFromZero(value: number): number {
  return value >= 0 ? Math.floor(value + 0.5) : -Math.floor(-value + 0.5);
}

function checkTarget(target: Uint8Array | undefined, size: number, type: GgmlTypeName): Uint8Array {
  if (target === undefined) return new Uint8Array(size);
  if (target.length < size) {
    throw new GgufTensorError(`${type} target holds ${target.length} bytes, ${size} needed`);
  }
  return target;
}

/**
 * Encodes values as little-endian F32.
 * @param target when given, the bytes are written into it (it must hold at least the returned size).
 * @returns `values.length * 4` bytes (the start of `target` when given).
 */
export function encodeF32(values: Float32Array, target?: Uint8Array): Uint8Array {
  const size = values.length * 4;
  const out = checkTarget(target, size, "F32");
  const view = new DataView(out.buffer, out.byteOffset, size);
  for (let i = 0; i < values.length; i++) view.setFloat32(i * 4, values[i] ?? 0, true);
  return out.subarray(0, size);
}

/**
 * Encodes values as little-endian F16 (round to nearest even).
 * @param target when given, the bytes are written into it (it must hold at least the returned size).
 * @returns `values.length * 2` bytes (the start of `target` when given).
 */
export function encodeF16(values: Float32Array, target?: Uint8Array): Uint8Array {
  const size = values.length * 2;
  const out = checkTarget(target, size, "F16");
  for (let i = 0; i < values.length; i++) {
    const bits = float32ToFloat16Bits(values[i] ?? 0);
    out[i * 2] = bits & 0xff;
    out[i * 2 + 1] = bits >>> 8;
  }
  return out.subarray(0, size);
}

/**
 * Encodes values as Q8_0 blocks, exactly as ggml's `quantize_row_q8_0_ref`: per block of 32 values,
 * `d = max|x| / 127` stored as f16, then `q[i] = roundf(x[i] / d)` as int8.
 * @param target when given, the blocks are written into it (it must hold at least the returned size).
 * @returns `values.length / 32 * 34` bytes (the start of `target` when given).
 * @throws {GgufTensorError} when `values.length` is not a multiple of 32.
 */
export function encodeQ8_0(values: Float32Array, target?: Uint8Array): Uint8Array {
  if (values.length % Q8_0_BLOCK_SIZE !== 0) {
    throw new GgufTensorError(`Q8_0 needs a multiple of ${Q8_0_BLOCK_SIZE} values, got ${values.length}`);
  }
  const blocks = values.length / Q8_0_BLOCK_SIZE;
  const out = checkTarget(target, blocks * Q8_0_BLOCK_BYTES, "Q8_0");
  for (let block = 0; block < blocks; block++) {
    const start = block * Q8_0_BLOCK_SIZE;
    let amax = 0;
    for (let i = 0; i < Q8_0_BLOCK_SIZE; i++) {
      const a = Math.abs(values[start + i] ?? 0);
      if (a > amax) amax = a;
    }
    const d = Math.fround(amax / 127);
    const id = d !== 0 ? Math.fround(1 / d) : 0;
    const bits = float32ToFloat16Bits(d);
    const at = block * Q8_0_BLOCK_BYTES;
    out[at] = bits & 0xff;
    out[at + 1] = bits >>> 8;
    for (let i = 0; i < Q8_0_BLOCK_SIZE; i++) {
      const q = roundHalfAwayFromZero(Math.fround((values[start + i] ?? 0) * id));
      out[at + 2 + i] = q & 0xff;
    }
  }
  return out.subarray(0, blocks * Q8_0_BLOCK_BYTES);
}

/**
 * Decodes Q8_0 blocks back to values (`d * q[i]`); the inverse of {@link encodeQ8_0} up to rounding.
 * @throws {GgufTensorError} when `bytes.length` is not a multiple of 34.
 */
export function decodeQ8_0(bytes: Uint8Array): Float32Array {
  if (bytes.length % Q8_0_BLOCK_BYTES !== 0) {
    throw new GgufTensorError(
      `Q8_0 data must be a multiple of ${Q8_0_BLOCK_BYTES} bytes, got ${bytes.length}`,
    );
  }
  const blocks = bytes.length / Q8_0_BLOCK_BYTES;
  const out = new Float32Array(blocks * Q8_0_BLOCK_SIZE);
  for (let block = 0; block < blocks; block++) {
    const at = block * Q8_0_BLOCK_BYTES;
    const d = float16BitsToFloat32((bytes[at] ?? 0) | ((bytes[at + 1] ?? 0) << 8));
    for (let i = 0; i < Q8_0_BLOCK_SIZE; i++) {
      const q = ((bytes[at + 2 + i] ?? 0) << 24) >> 24;
      out[block * Q8_0_BLOCK_SIZE + i] = d * q;
    }
  }
  return out;
}

/**
 * Encodes values with the given tensor element type.
 * @param target when given, the bytes are written into it (it must hold at least the returned size).
 * @throws {GgufTensorError} when the type needs blocks the length does not fill, or `target` is too small.
 */
export function encodeTensorValues(
  type: GgmlTypeName,
  values: Float32Array,
  target?: Uint8Array,
): Uint8Array {
  switch (type) {
    case "F32":
      return encodeF32(values, target);
    case "F16":
      return encodeF16(values, target);
    case "Q8_0":
      return encodeQ8_0(values, target);
  }
}

/**
 * Number of values that one encoding unit of the type covers: the first dimension of a tensor
 * must be a multiple of it.
 */
export function ggmlBlockSize(type: GgmlTypeName): number {
  return type === "Q8_0" ? Q8_0_BLOCK_SIZE : 1;
}

/**
 * Bytes taken by `elementCount` values of the given type.
 * @throws {GgufTensorError} when the count is not a multiple of the type's block size.
 */
export function ggmlByteSize(type: GgmlTypeName, elementCount: number): number {
  switch (type) {
    case "F32":
      return elementCount * 4;
    case "F16":
      return elementCount * 2;
    case "Q8_0":
      if (elementCount % Q8_0_BLOCK_SIZE !== 0) {
        throw new GgufTensorError(`Q8_0 needs a multiple of ${Q8_0_BLOCK_SIZE} values, got ${elementCount}`);
      }
      return (elementCount / Q8_0_BLOCK_SIZE) * Q8_0_BLOCK_BYTES;
  }
}
