import assert from "node:assert/strict";
import { describe, it } from "node:test";
import {
  decodeQ8_0,
  encodeF16,
  encodeF32,
  encodeQ8_0,
  float16BitsToFloat32,
  float32ToFloat16Bits,
  GgufTensorError,
  ggmlByteSize,
} from "../../../adapter/gguf/index.js";

describe("float32ToFloat16Bits", () => {
  it("converts exact values, rounding ties to even, overflow and underflow like IEEE 754", () => {
    // prepare: [value, expected half bits], checked against numpy's float32 → float16 cast
    const cases: [number, number][] = [
      [1, 0x3c00],
      [-2, 0xc000],
      [0.5, 0x3800],
      [65504, 0x7bff],
      [65519, 0x7bff],
      [65520, 0x7c00],
      [2 ** -24, 0x0001],
      [2 ** -25, 0x0000],
      [2 ** -25 * 1.0001, 0x0001],
      [0.1, 0x2e66],
      [1 / 3, 0x3555],
      [1 + 2 ** -11, 0x3c00],
      [1 + 3 * 2 ** -11, 0x3c02],
      [6.1e-5, 0x03ff],
      [1e-8, 0x0000],
      [Number.POSITIVE_INFINITY, 0x7c00],
      [Number.NEGATIVE_INFINITY, 0xfc00],
    ];

    // act
    const actual = cases.map(([value]) => float32ToFloat16Bits(value));

    // assert
    assert.deepEqual(
      actual.map((bits) => bits.toString(16)),
      cases.map(([, bits]) => bits.toString(16)),
    );
  });

  it("maps NaN to a quiet NaN that decodes as NaN", () => {
    const bits = float32ToFloat16Bits(Number.NaN);

    assert.equal(bits, 0x7e00);
    assert.ok(Number.isNaN(float16BitsToFloat32(bits)));
  });

  it("decodes half bits back to the exact value", () => {
    assert.equal(float16BitsToFloat32(0x3c00), 1);
    assert.equal(float16BitsToFloat32(0xc000), -2);
    assert.equal(float16BitsToFloat32(0x0001), 2 ** -24);
    assert.equal(float16BitsToFloat32(0x7bff), 65504);
    assert.equal(float16BitsToFloat32(0x2e66), 0.0999755859375);
  });
});

describe("encodeF32 and encodeF16", () => {
  it("writes little-endian values", () => {
    const values = new Float32Array([1, -2]);

    const f32 = encodeF32(values);
    const f16 = encodeF16(values);

    assert.deepEqual([...f32], [0x00, 0x00, 0x80, 0x3f, 0x00, 0x00, 0x00, 0xc0]);
    assert.deepEqual([...f16], [0x00, 0x3c, 0x00, 0xc0]);
  });
});

describe("encodeQ8_0", () => {
  it("stores d = max|x| / 127 as f16 and rounds x / d half away from zero", () => {
    // prepare: max |x| = 127 makes d exactly 1, so q = roundf(x)
    const values = new Float32Array(32);
    values.set([127, -127, 0.5, -0.5, 1.5, -2.5, 2.49, -0.49, 126.6]);

    // act
    const bytes = encodeQ8_0(values);

    // assert
    assert.equal(bytes.length, 34);
    assert.deepEqual([bytes[0], bytes[1]], [0x00, 0x3c]);
    const q = [...bytes.subarray(2)].map((byte) => (byte << 24) >> 24);
    assert.deepEqual(q.slice(0, 9), [127, -127, 1, -1, 2, -3, 2, 0, 127]);
    assert.deepEqual(q.slice(9), new Array(23).fill(0));
  });

  it("scales each block on its own", () => {
    // prepare: block 1 has max 63.5 (d = 0.5), block 2 is all zeros (d = 0)
    const values = new Float32Array(64);
    values[0] = 63.5;
    values[1] = -10.25;

    // act
    const bytes = encodeQ8_0(values);

    // assert
    assert.deepEqual([bytes[0], bytes[1]], [0x00, 0x38]);
    assert.equal(((bytes[2] ?? 0) << 24) >> 24, 127);
    assert.equal(((bytes[3] ?? 0) << 24) >> 24, -21);
    assert.deepEqual([...bytes.subarray(34)], new Array(34).fill(0));
  });

  it("decodes to within about half a step of the input (d itself is rounded to f16)", () => {
    const values = Float32Array.from({ length: 96 }, (_, i) => Math.sin(i * 0.7) * (1 + (i % 5)));

    const decoded = decodeQ8_0(encodeQ8_0(values));

    for (let block = 0; block < 3; block++) {
      const slice = values.subarray(block * 32, block * 32 + 32);
      const step = Math.max(...slice.map(Math.abs)) / 127;
      for (let i = 0; i < 32; i++) {
        const index = block * 32 + i;
        assert.ok(Math.abs((decoded[index] ?? 0) - (values[index] ?? 0)) <= step * 0.6, `value ${index}`);
      }
    }
  });

  it("rejects a length that is not a multiple of 32", () => {
    assert.throws(() => encodeQ8_0(new Float32Array(33)), GgufTensorError);
    assert.throws(() => ggmlByteSize("Q8_0", 48), GgufTensorError);
  });

  it("rejects a target buffer that is too small", () => {
    assert.throws(() => encodeQ8_0(new Float32Array(32), new Uint8Array(33)), GgufTensorError);
  });
});
