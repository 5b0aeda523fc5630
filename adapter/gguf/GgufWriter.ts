import { createHash, type Hash } from "node:crypto";
import { type FileHandle, open } from "node:fs/promises";
import { GgufMetadataError, GgufTensorError } from "./errors.js";
import { encodeTensorValues, ggmlBlockSize, ggmlByteSize } from "./quantize.js";
import {
  GGUF_DEFAULT_ALIGNMENT,
  GGUF_MAGIC,
  GGUF_VERSION,
  GgmlType,
  type GgmlTypeName,
  type GgufScalarTypeName,
  type GgufValue,
  GgufValueType,
} from "./types.js";

/**
 * The values of a tensor, in ggml order (the first dimension is contiguous): either all at once, or
 * a function returning chunks (sync or async) so large tensors are generated and encoded a piece at
 * a time. Each chunk's length must be a multiple of the type's block size (32 for Q8_0). A chunk is
 * encoded before the next one is pulled, so a generator may refill and yield the same buffer.
 */
export type GgufTensorData = Float32Array | (() => Iterable<Float32Array> | AsyncIterable<Float32Array>);

/** A tensor to add to a {@link GgufWriter}. */
export interface GgufTensorInput {
  /** Tensor name as llama.cpp looks it up, e.g. `blk.0.attn_q.weight`; at most 63 bytes. */
  name: string;
  /** Dimensions in ggml order (contiguous dimension first), 1 to 4 of them, each ≥ 1. */
  shape: readonly number[];
  /** Element type written to the file. */
  type: GgmlTypeName;
  /** The values; they are read only when the file is written. */
  data: GgufTensorData;
}

/** A tensor as it will be laid out in the file. */
export interface GgufTensorLayout {
  name: string;
  shape: readonly number[];
  type: GgmlTypeName;
  /** Product of the dimensions. */
  elementCount: number;
  /** Bytes of encoded data. */
  byteSize: number;
  /** Offset of the data from the start of the tensor data section (a multiple of the alignment). */
  offset: number;
}

/** Options of {@link GgufWriter}. */
export interface GgufWriterOptions {
  /**
   * Alignment of the tensor data section and of each tensor, in bytes; a power of two.
   * Default 32 (GGUF's default). Any other value is also written as `general.alignment`.
   */
  alignment?: number;
}

/** Progress of {@link GgufWriter.write}, reported after each tensor. */
export interface GgufWriteProgress {
  /** Name of the tensor just written. */
  tensorName: string;
  tensorsWritten: number;
  tensorCount: number;
  bytesWritten: number;
  totalBytes: number;
}

/** Options of {@link GgufWriter.write}. */
export interface GgufWriteOptions {
  /** Called after each tensor is written. Default: none. */
  onProgress?: (progress: GgufWriteProgress) => void;
  /** Aborts the write between chunks; the partial file is left for the caller to remove. */
  signal?: AbortSignal;
}

/** What {@link GgufWriter.write} wrote. */
export interface GgufWriteResult {
  path: string;
  sizeBytes: number;
  /** Bytes before the tensor data section (header, metadata, tensor infos, padding). */
  headerBytes: number;
  tensorCount: number;
  /** SHA-256 of the file's bytes, lower-case hex, computed while writing. */
  sha256: string;
}

type TensorEntry = GgufTensorLayout & { data: GgufTensorData };

const MAX_TENSOR_NAME_BYTES = 63;
const MAX_DIMENSIONS = 4;
const STAGING_BYTES = 8 * 1024 * 1024;

/**
 * Builds a GGUF v3 file: metadata key/values of every GGUF type, tensor descriptors, and tensor data
 * encoded as F32, F16 or Q8_0, streamed to disk tensor by tensor.
 *
 * Keys keep the order they were first set in; setting a key again replaces its value in place.
 * Tensors are written in the order they were added, each aligned to {@link GgufWriterOptions.alignment}.
 * @example
 * ```ts
 * const writer = new GgufWriter();
 * writer.setString("general.architecture", "llama");
 * writer.setUint32("llama.block_count", 2);
 * writer.addTensor({ name: "output_norm.weight", shape: [64], type: "F32", data: new Float32Array(64).fill(1) });
 * await writer.write("/tmp/model.gguf");
 * ```
 */
export class GgufWriter {
  private readonly alignment: number;
  private readonly metadata = new Map<string, GgufValue>();
  private readonly tensorEntries: TensorEntry[] = [];
  private readonly tensorNames = new Set<string>();
  private dataSize = 0;

  /**
   * @throws {GgufMetadataError} when the alignment is not a power of two.
   */
  constructor(options: GgufWriterOptions = {}) {
    const alignment = options.alignment ?? GGUF_DEFAULT_ALIGNMENT;
    if (!Number.isInteger(alignment) || alignment < 1 || (alignment & (alignment - 1)) !== 0) {
      throw new GgufMetadataError(`alignment must be a power of two, got ${alignment}`);
    }
    this.alignment = alignment;
    if (alignment !== GGUF_DEFAULT_ALIGNMENT)
      this.set("general.alignment", { type: "uint32", value: alignment });
  }

  /**
   * Sets a metadata key to a typed value.
   * @throws {GgufMetadataError} for an empty key, a value out of range for its type, or a
   * `general.alignment` other than the writer's alignment option (the layout follows the option).
   */
  set(key: string, value: GgufValue): this {
    if (key.length === 0) throw new GgufMetadataError("metadata key must not be empty");
    if (key === "general.alignment" && !(value.type === "uint32" && value.value === this.alignment)) {
      throw new GgufMetadataError(
        "general.alignment must be a uint32 equal to the writer's alignment option",
      );
    }
    validateValue(key, value);
    this.metadata.set(key, value);
    return this;
  }

  /** Sets a string value. */
  setString(key: string, value: string): this {
    return this.set(key, { type: "string", value });
  }

  /** Sets an unsigned 32-bit integer value. */
  setUint32(key: string, value: number): this {
    return this.set(key, { type: "uint32", value });
  }

  /** Sets a signed 32-bit integer value. */
  setInt32(key: string, value: number): this {
    return this.set(key, { type: "int32", value });
  }

  /** Sets a 32-bit float value. */
  setFloat32(key: string, value: number): this {
    return this.set(key, { type: "float32", value });
  }

  /** Sets an unsigned 64-bit integer value. */
  setUint64(key: string, value: bigint): this {
    return this.set(key, { type: "uint64", value });
  }

  /** Sets a boolean value. */
  setBool(key: string, value: boolean): this {
    return this.set(key, { type: "bool", value });
  }

  /** Sets an array of strings. */
  setStringArray(key: string, value: ArrayLike<string>): this {
    return this.set(key, { type: "array", itemType: "string", value });
  }

  /** Sets an array of 32-bit floats. */
  setFloat32Array(key: string, value: ArrayLike<number>): this {
    return this.set(key, { type: "array", itemType: "float32", value });
  }

  /** Sets an array of signed 32-bit integers. */
  setInt32Array(key: string, value: ArrayLike<number>): this {
    return this.set(key, { type: "array", itemType: "int32", value });
  }

  /** The value of a key, if set. */
  get(key: string): GgufValue | undefined {
    return this.metadata.get(key);
  }

  /** The metadata keys in file order. */
  get keys(): readonly string[] {
    return [...this.metadata.keys()];
  }

  /**
   * Adds a tensor; its data is read when the file is written.
   * @returns where the tensor will sit in the data section.
   * @throws {GgufTensorError} for a duplicate or too long name, a bad shape, or a first dimension that
   * is not a multiple of the type's block size.
   */
  addTensor(input: GgufTensorInput): GgufTensorLayout {
    const { name, shape, type } = input;
    if (name.length === 0 || Buffer.byteLength(name) > MAX_TENSOR_NAME_BYTES) {
      throw new GgufTensorError(`tensor name must be 1 to ${MAX_TENSOR_NAME_BYTES} bytes: "${name}"`);
    }
    if (this.tensorNames.has(name)) throw new GgufTensorError(`tensor "${name}" was already added`);
    if (!(type in GgmlType)) throw new GgufTensorError(`tensor "${name}": unsupported type ${String(type)}`);
    if (shape.length < 1 || shape.length > MAX_DIMENSIONS) {
      throw new GgufTensorError(
        `tensor "${name}" must have 1 to ${MAX_DIMENSIONS} dimensions, got ${shape.length}`,
      );
    }
    for (const dimension of shape) {
      if (!Number.isSafeInteger(dimension) || dimension < 1) {
        throw new GgufTensorError(
          `tensor "${name}" has an invalid dimension ${dimension} in [${shape.join(", ")}]`,
        );
      }
    }
    const blockSize = ggmlBlockSize(type);
    const first = shape[0] ?? 0;
    if (first % blockSize !== 0) {
      throw new GgufTensorError(
        `tensor "${name}": ${type} needs the first dimension to be a multiple of ${blockSize}, got ${first}`,
      );
    }
    const elementCount = shape.reduce((product, dimension) => product * dimension, 1);
    if (!Number.isSafeInteger(elementCount)) throw new GgufTensorError(`tensor "${name}" is too large`);
    if (input.data instanceof Float32Array && input.data.length !== elementCount) {
      throw new GgufTensorError(
        `tensor "${name}" has ${input.data.length} values, its shape needs ${elementCount}`,
      );
    }
    const byteSize = ggmlByteSize(type, elementCount);
    const offset = alignUp(this.dataSize, this.alignment);
    const entry: TensorEntry = {
      name,
      shape: [...shape],
      type,
      elementCount,
      byteSize,
      offset,
      data: input.data,
    };
    this.tensorEntries.push(entry);
    this.tensorNames.add(name);
    this.dataSize = offset + byteSize;
    return layoutOf(entry);
  }

  /** The tensors in file order, with their offsets and sizes. */
  get tensors(): readonly GgufTensorLayout[] {
    return this.tensorEntries.map(layoutOf);
  }

  /**
   * Encodes everything before the tensor data: magic, version, counts, metadata, tensor infos and
   * the padding up to the alignment.
   */
  encodeHeader(): Uint8Array {
    const sink = new ByteSink();
    sink.bytes(Buffer.from(GGUF_MAGIC, "latin1"));
    sink.u32(GGUF_VERSION);
    sink.u64(BigInt(this.tensorEntries.length));
    sink.u64(BigInt(this.metadata.size));
    for (const [key, value] of this.metadata) {
      sink.string(key);
      writeValue(sink, value);
    }
    for (const tensor of this.tensorEntries) {
      sink.string(tensor.name);
      sink.u32(tensor.shape.length);
      for (const dimension of tensor.shape) sink.u64(BigInt(dimension));
      sink.u32(GgmlType[tensor.type]);
      sink.u64(BigInt(tensor.offset));
    }
    sink.pad(this.alignment);
    return sink.result();
  }

  /** Bytes of the tensor data section, the last tensor padded to the alignment like every other. */
  get dataSectionSize(): number {
    return alignUp(this.dataSize, this.alignment);
  }

  /** Size in bytes of the file {@link write} produces (encodes the header to measure it). */
  get fileSize(): number {
    return this.encodeHeader().length + this.dataSectionSize;
  }

  /**
   * Writes the file to `path` (created or truncated), streaming tensor data through a fixed buffer.
   * Not atomic: write to a temporary path and rename when readers may be watching.
   * @throws {GgufTensorError} when a tensor's data does not match its shape or block size.
   * @throws the signal's reason when aborted.
   */
  async write(path: string, options: GgufWriteOptions = {}): Promise<GgufWriteResult> {
    const { onProgress, signal } = options;
    signal?.throwIfAborted();
    const header = this.encodeHeader();
    const totalBytes = header.length + this.dataSectionSize;
    const file = await open(path, "w");
    try {
      const hash = createHash("sha256");
      const output = new StagedOutput(file, hash, STAGING_BYTES);
      await output.write(header);
      let position = 0;
      let tensorsWritten = 0;
      for (const tensor of this.tensorEntries) {
        await output.zeros(tensor.offset - position);
        await writeTensorData(output, tensor, signal);
        position = tensor.offset + tensor.byteSize;
        tensorsWritten += 1;
        onProgress?.({
          tensorName: tensor.name,
          tensorsWritten,
          tensorCount: this.tensorEntries.length,
          bytesWritten: header.length + position,
          totalBytes,
        });
      }
      await output.zeros(this.dataSectionSize - position);
      await output.flush();
      return {
        path,
        sizeBytes: totalBytes,
        headerBytes: header.length,
        tensorCount: this.tensorEntries.length,
        sha256: hash.digest("hex"),
      };
    } finally {
      await file.close();
    }
  }
}

function layoutOf(entry: TensorEntry): GgufTensorLayout {
  const { name, shape, type, elementCount, byteSize, offset } = entry;
  return { name, shape, type, elementCount, byteSize, offset };
}

function alignUp(value: number, alignment: number): number {
  return Math.ceil(value / alignment) * alignment;
}

async function writeTensorData(
  output: StagedOutput,
  tensor: TensorEntry,
  signal?: AbortSignal,
): Promise<void> {
  const blockSize = ggmlBlockSize(tensor.type);
  let valuesWritten = 0;
  const chunks: Iterable<Float32Array> | AsyncIterable<Float32Array> =
    tensor.data instanceof Float32Array ? [tensor.data] : tensor.data();
  for await (const chunk of chunks) {
    signal?.throwIfAborted();
    if (chunk.length % blockSize !== 0) {
      throw new GgufTensorError(
        `tensor "${tensor.name}": a ${tensor.type} chunk must hold a multiple of ${blockSize} values, got ${chunk.length}`,
      );
    }
    valuesWritten += chunk.length;
    if (valuesWritten > tensor.elementCount) break;
    const size = ggmlByteSize(tensor.type, chunk.length);
    await output.encode(size, (target) => encodeTensorValues(tensor.type, chunk, target));
  }
  if (valuesWritten !== tensor.elementCount) {
    throw new GgufTensorError(
      `tensor "${tensor.name}" received ${valuesWritten > tensor.elementCount ? "more than " : ""}${valuesWritten} values, its shape [${tensor.shape.join(", ")}] needs ${tensor.elementCount}`,
    );
  }
}

function validateValue(key: string, value: GgufValue): void {
  if (value.type === "array") {
    for (let i = 0; i < value.value.length; i++) {
      validateScalar(`${key}[${i}]`, value.itemType, value.value[i]);
    }
    return;
  }
  validateScalar(key, value.type, value.value);
}

const integerRanges: Partial<Record<GgufScalarTypeName, [number, number]>> = {
  uint8: [0, 0xff],
  int8: [-0x80, 0x7f],
  uint16: [0, 0xffff],
  int16: [-0x8000, 0x7fff],
  uint32: [0, 0xffffffff],
  int32: [-0x80000000, 0x7fffffff],
};

function validateScalar(key: string, type: GgufScalarTypeName, value: unknown): void {
  const range = integerRanges[type];
  if (range !== undefined) {
    if (typeof value !== "number" || !Number.isInteger(value) || value < range[0] || value > range[1]) {
      throw new GgufMetadataError(`${key}: ${String(value)} is not a ${type}`);
    }
    return;
  }
  const ok =
    type === "float32" || type === "float64"
      ? typeof value === "number"
      : type === "uint64"
        ? typeof value === "bigint" && value >= 0n && value < 1n << 64n
        : type === "int64"
          ? typeof value === "bigint" && value >= -(1n << 63n) && value < 1n << 63n
          : type === "bool"
            ? typeof value === "boolean"
            : typeof value === "string";
  if (!ok) throw new GgufMetadataError(`${key}: ${String(value)} is not a ${type}`);
}

function writeValue(sink: ByteSink, value: GgufValue): void {
  sink.u32(GgufValueType[value.type]);
  if (value.type === "array") {
    sink.u32(GgufValueType[value.itemType]);
    sink.u64(BigInt(value.value.length));
    for (let i = 0; i < value.value.length; i++) writeScalar(sink, value.itemType, value.value[i]);
    return;
  }
  writeScalar(sink, value.type, value.value);
}

function writeScalar(sink: ByteSink, type: GgufScalarTypeName, value: unknown): void {
  switch (type) {
    case "uint8":
      sink.fixed(1, (view) => view.setUint8(0, value as number));
      break;
    case "int8":
      sink.fixed(1, (view) => view.setInt8(0, value as number));
      break;
    case "uint16":
      sink.fixed(2, (view) => view.setUint16(0, value as number, true));
      break;
    case "int16":
      sink.fixed(2, (view) => view.setInt16(0, value as number, true));
      break;
    case "uint32":
      sink.u32(value as number);
      break;
    case "int32":
      sink.fixed(4, (view) => view.setInt32(0, value as number, true));
      break;
    case "float32":
      sink.fixed(4, (view) => view.setFloat32(0, value as number, true));
      break;
    case "float64":
      sink.fixed(8, (view) => view.setFloat64(0, value as number, true));
      break;
    case "uint64":
      sink.u64(value as bigint);
      break;
    case "int64":
      sink.fixed(8, (view) => view.setBigInt64(0, value as bigint, true));
      break;
    case "bool":
      sink.fixed(1, (view) => view.setUint8(0, value ? 1 : 0));
      break;
    case "string":
      sink.string(value as string);
      break;
  }
}

/** A growable little-endian byte buffer for the header. */
class ByteSink {
  private buffer = Buffer.alloc(64 * 1024);
  private length = 0;

  private reserve(size: number): void {
    if (this.length + size <= this.buffer.length) return;
    const next = Buffer.alloc(Math.max(this.buffer.length * 2, this.length + size));
    this.buffer.copy(next, 0, 0, this.length);
    this.buffer = next;
  }

  fixed(size: number, put: (view: DataView) => void): void {
    this.reserve(size);
    put(new DataView(this.buffer.buffer, this.buffer.byteOffset + this.length, size));
    this.length += size;
  }

  u32(value: number): void {
    this.reserve(4);
    this.buffer.writeUInt32LE(value, this.length);
    this.length += 4;
  }

  u64(value: bigint): void {
    this.reserve(8);
    this.buffer.writeBigUInt64LE(value, this.length);
    this.length += 8;
  }

  bytes(value: Uint8Array): void {
    this.reserve(value.length);
    this.buffer.set(value, this.length);
    this.length += value.length;
  }

  string(value: string): void {
    const size = Buffer.byteLength(value, "utf8");
    this.u64(BigInt(size));
    this.reserve(size);
    this.buffer.write(value, this.length, size, "utf8");
    this.length += size;
  }

  pad(alignment: number): void {
    const padding = alignUp(this.length, alignment) - this.length;
    this.reserve(padding);
    this.buffer.fill(0, this.length, this.length + padding);
    this.length += padding;
  }

  result(): Uint8Array {
    return this.buffer.subarray(0, this.length);
  }
}

/** Batches small writes into one buffer so the file gets few, large writes; hashes what it writes. */
class StagedOutput {
  private readonly staging: Uint8Array;
  private used = 0;

  constructor(
    private readonly file: FileHandle,
    private readonly hash: Hash,
    capacity: number,
  ) {
    this.staging = new Uint8Array(capacity);
  }

  async write(bytes: Uint8Array): Promise<void> {
    if (this.used + bytes.length > this.staging.length) await this.flush();
    if (bytes.length > this.staging.length) {
      await this.writeThrough(bytes);
      return;
    }
    this.staging.set(bytes, this.used);
    this.used += bytes.length;
  }

  /** Lets `encode` write `size` bytes straight into the staging buffer. */
  async encode(size: number, encode: (target: Uint8Array) => Uint8Array): Promise<void> {
    if (this.used + size > this.staging.length) await this.flush();
    if (size > this.staging.length) {
      await this.writeThrough(encode(new Uint8Array(size)));
      return;
    }
    encode(this.staging.subarray(this.used, this.used + size));
    this.used += size;
  }

  async zeros(count: number): Promise<void> {
    if (count > 0) await this.write(new Uint8Array(count));
  }

  async flush(): Promise<void> {
    if (this.used === 0) return;
    await this.writeThrough(this.staging.subarray(0, this.used));
    this.used = 0;
  }

  private async writeThrough(bytes: Uint8Array): Promise<void> {
    this.hash.update(bytes);
    await writeAll(this.file, bytes);
  }
}

async function writeAll(file: FileHandle, bytes: Uint8Array): Promise<void> {
  let offset = 0;
  while (offset < bytes.length) {
    const { bytesWritten } = await file.write(bytes, offset, bytes.length - offset);
    offset += bytesWritten;
  }
}
