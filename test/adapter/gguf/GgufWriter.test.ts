import assert from "node:assert/strict";
import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm, stat } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { readGgufFileInfo } from "node-llama-cpp";
import {
  encodeF16,
  encodeF32,
  encodeQ8_0,
  GgufMetadataError,
  GgufTensorError,
  GgufWriter,
} from "../../../adapter/gguf/index.js";

let folder: string;

before(async () => {
  folder = await mkdtemp(join(tmpdir(), "gguf-writer-"));
});

after(async () => {
  await rm(folder, { recursive: true, force: true });
});

describe("GgufWriter", () => {
  it("writes metadata of every value type that readGgufFileInfo reads back as written", async () => {
    // prepare
    const writer = new GgufWriter();
    writer.setString("general.architecture", "llama");
    writer.set("test.u8", { type: "uint8", value: 200 });
    writer.set("test.i8", { type: "int8", value: -100 });
    writer.set("test.u16", { type: "uint16", value: 60_000 });
    writer.set("test.i16", { type: "int16", value: -30_000 });
    writer.setUint32("test.u32", 4_000_000_000);
    writer.setInt32("test.i32", -7);
    writer.setFloat32("test.f32", 0.25);
    writer.set("test.f64", { type: "float64", value: 1.125 });
    writer.setUint64("test.u64", 1n << 40n);
    writer.set("test.i64", { type: "int64", value: -(1n << 40n) });
    writer.setBool("test.bool", true);
    writer.setString("test.utf8", "▁héllo <|im_start|>");
    writer.setStringArray("test.strings", ["a", "ü", ""]);
    writer.setFloat32Array("test.floats", new Float32Array([0.5, -1]));
    writer.setInt32Array("test.ints", [3, -4]);
    const path = join(folder, "metadata.gguf");

    // act
    await writer.write(path);
    const info = await readGgufFileInfo(path, { logWarnings: false });

    // assert
    assert.equal(info.version, 3);
    assert.equal(info.metadata.general.architecture, "llama");
    assert.deepEqual((info.metadata as unknown as { test: unknown }).test, {
      u8: 200,
      i8: -100,
      u16: 60_000,
      i16: -30_000,
      u32: 4_000_000_000,
      i32: -7,
      f32: 0.25,
      f64: 1.125,
      u64: 1n << 40n,
      i64: -(1n << 40n),
      bool: true,
      utf8: "▁héllo <|im_start|>",
      strings: ["a", "ü", ""],
      floats: [0.5, -1],
      ints: [3, -4],
    });
  });

  it("lays out tensors aligned to 32 with the names, shapes and types given", async () => {
    // prepare
    const writer = new GgufWriter();
    writer.setString("general.architecture", "llama");
    writer.addTensor({ name: "q", shape: [32, 2], type: "Q8_0", data: new Float32Array(64).fill(0.5) });
    writer.addTensor({ name: "f", shape: [3], type: "F32", data: new Float32Array([1, 2, 3]) });
    writer.addTensor({ name: "h", shape: [5, 1, 1], type: "F16", data: new Float32Array(5) });
    const path = join(folder, "layout.gguf");

    // act
    const result = await writer.write(path);
    const info = await readGgufFileInfo(path, { logWarnings: false });

    // assert
    const tensors = (info.tensorInfo ?? []).map((t) => ({
      name: t.name,
      dimensions: t.dimensions.map(Number),
      type: t.ggmlType,
      offset: Number(t.offset),
    }));
    assert.deepEqual(tensors, [
      { name: "q", dimensions: [32, 2], type: 8, offset: 0 },
      { name: "f", dimensions: [3], type: 0, offset: 96 },
      { name: "h", dimensions: [5, 1, 1], type: 1, offset: 128 },
    ]);
    assert.equal(info.infoEndOffset, result.headerBytes);
    assert.equal(result.headerBytes % 32, 0);
    assert.equal(result.sizeBytes, result.headerBytes + 160);
    assert.equal((await stat(path)).size, result.sizeBytes);
    assert.equal(writer.fileSize, result.sizeBytes);
  });

  it("writes each tensor's encoded bytes at the offset it reports", async () => {
    // prepare
    const q8 = Float32Array.from({ length: 64 }, (_, i) => (i - 30) / 7);
    const f32 = new Float32Array([1.5, -2, 3.25]);
    const f16 = new Float32Array([0.1, 0.2, -0.3, 4, 5]);
    const writer = new GgufWriter();
    writer.addTensor({ name: "q", shape: [32, 2], type: "Q8_0", data: q8 });
    writer.addTensor({ name: "f", shape: [3], type: "F32", data: f32 });
    // chunks are encoded as they come
    writer.addTensor({
      name: "h",
      shape: [5],
      type: "F16",
      data: () => [f16.subarray(0, 2), f16.subarray(2)],
    });
    const path = join(folder, "bytes.gguf");

    // act
    const result = await writer.write(path);
    const file = await readFile(path);

    // assert
    const at = (offset: number, length: number): number[] => [
      ...file.subarray(result.headerBytes + offset, result.headerBytes + offset + length),
    ];
    assert.deepEqual(at(0, 68), [...encodeQ8_0(q8)]);
    assert.deepEqual(at(96, 12), [...encodeF32(f32)]);
    assert.deepEqual(at(128, 10), [...encodeF16(f16)]);
    assert.deepEqual(at(68, 28), new Array(28).fill(0));
  });

  it("reports the sha256 of the bytes it wrote", async () => {
    const writer = new GgufWriter();
    writer.setString("general.name", "hash");
    writer.addTensor({ name: "f", shape: [4], type: "F32", data: new Float32Array([1, 2, 3, 4]) });
    const path = join(folder, "hash.gguf");

    const result = await writer.write(path);

    const expected = createHash("sha256")
      .update(await readFile(path))
      .digest("hex");
    assert.equal(result.sha256, expected);
  });

  it("aligns to a custom alignment and records it as general.alignment", async () => {
    const writer = new GgufWriter({ alignment: 64 });
    writer.addTensor({ name: "a", shape: [3], type: "F32", data: new Float32Array(3) });
    writer.addTensor({ name: "b", shape: [3], type: "F32", data: new Float32Array(3) });
    const path = join(folder, "aligned.gguf");

    const result = await writer.write(path);
    const info = await readGgufFileInfo(path, { logWarnings: false });

    assert.equal(info.metadata.general.alignment, 64);
    assert.deepEqual(
      (info.tensorInfo ?? []).map((t) => Number(t.offset)),
      [0, 64],
    );
    assert.equal(result.headerBytes % 64, 0);
  });

  it("keeps keys in first-set order and replaces a value set twice", () => {
    const writer = new GgufWriter();
    writer.setUint32("b", 1);
    writer.setUint32("a", 2);
    writer.setUint32("b", 3);

    assert.deepEqual(writer.keys, ["b", "a"]);
    assert.deepEqual(writer.get("b"), { type: "uint32", value: 3 });
  });

  it("rejects a Q8_0 tensor whose first dimension is not a multiple of 32", () => {
    const writer = new GgufWriter();

    assert.throws(
      () => writer.addTensor({ name: "x", shape: [48, 2], type: "Q8_0", data: new Float32Array(96) }),
      (error: unknown) => error instanceof GgufTensorError && /multiple of 32/.test(error.message),
    );
  });

  it("rejects a tensor whose data length does not match its shape", () => {
    const writer = new GgufWriter();

    assert.throws(
      () => writer.addTensor({ name: "x", shape: [4, 2], type: "F32", data: new Float32Array(7) }),
      GgufTensorError,
    );
  });

  it("rejects at write time a chunked tensor that yields too few values", async () => {
    const writer = new GgufWriter();
    writer.addTensor({ name: "x", shape: [4, 2], type: "F32", data: () => [new Float32Array(4)] });

    await assert.rejects(writer.write(join(folder, "short.gguf")), GgufTensorError);
  });

  it("rejects a duplicate tensor name, a bad dimension and an over-long name", () => {
    const writer = new GgufWriter();
    writer.addTensor({ name: "x", shape: [1], type: "F32", data: new Float32Array(1) });

    assert.throws(
      () => writer.addTensor({ name: "x", shape: [1], type: "F32", data: new Float32Array(1) }),
      GgufTensorError,
    );
    assert.throws(
      () => writer.addTensor({ name: "y", shape: [0], type: "F32", data: new Float32Array(0) }),
      GgufTensorError,
    );
    assert.throws(
      () => writer.addTensor({ name: "z".repeat(64), shape: [1], type: "F32", data: new Float32Array(1) }),
      GgufTensorError,
    );
  });

  it("rejects a value out of range for its type", () => {
    const writer = new GgufWriter();

    assert.throws(() => writer.setUint32("k", -1), GgufMetadataError);
    assert.throws(() => writer.set("k", { type: "int8", value: 128 }), GgufMetadataError);
    assert.throws(() => writer.setInt32Array("k", [1, 2.5]), GgufMetadataError);
    assert.throws(() => writer.setUint32("", 1), GgufMetadataError);
  });

  it("rejects a general.alignment that differs from the layout's alignment", () => {
    const writer = new GgufWriter();

    assert.throws(() => writer.setUint32("general.alignment", 64), GgufMetadataError);
  });

  it("stops writing when its signal is aborted", async () => {
    const writer = new GgufWriter();
    writer.addTensor({ name: "x", shape: [4], type: "F32", data: new Float32Array(4) });
    const controller = new AbortController();
    controller.abort(new Error("stop"));

    await assert.rejects(writer.write(join(folder, "aborted.gguf"), { signal: controller.signal }), /stop/);
  });
});
