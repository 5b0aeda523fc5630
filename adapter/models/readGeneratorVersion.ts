import { open } from "node:fs/promises";
import { GGUF_MAGIC, GgufValueType } from "../gguf/index.js";
import { GENERATOR_VERSION_KEY } from "./modelMetadata.js";

/** Bytes read from the start of the file: the key sits among the first metadata entries. */
const HEAD_BYTES = 64 * 1024;

const SCALAR_SIZES: Partial<Record<number, number>> = {
  [GgufValueType.uint8]: 1,
  [GgufValueType.int8]: 1,
  [GgufValueType.bool]: 1,
  [GgufValueType.uint16]: 2,
  [GgufValueType.int16]: 2,
  [GgufValueType.uint32]: 4,
  [GgufValueType.int32]: 4,
  [GgufValueType.float32]: 4,
  [GgufValueType.uint64]: 8,
  [GgufValueType.int64]: 8,
  [GgufValueType.float64]: 8,
};

/**
 * Reads `decisions.generator_version` from a generated GGUF by scanning the leading scalar metadata
 * entries (no full header parse: a cache check must be cheap even for a 600 MB model).
 * @returns the version, or undefined when the file is not a GGUF or the key is not among the
 * scalar entries before the first array.
 * @throws the file system error when the file cannot be opened or read.
 */
export async function readGeneratorVersion(path: string): Promise<number | undefined> {
  const file = await open(path, "r");
  let head: Buffer;
  try {
    const buffer = Buffer.alloc(HEAD_BYTES);
    const { bytesRead } = await file.read(buffer, 0, HEAD_BYTES, 0);
    head = buffer.subarray(0, bytesRead);
  } finally {
    await file.close();
  }
  if (head.length < 24 || head.toString("latin1", 0, 4) !== GGUF_MAGIC) return undefined;
  const keyCount = Number(head.readBigUInt64LE(16));
  let at = 24;
  for (let i = 0; i < keyCount; i++) {
    if (at + 8 > head.length) return undefined;
    const keyLength = Number(head.readBigUInt64LE(at));
    at += 8;
    if (at + keyLength + 4 > head.length) return undefined;
    const key = head.toString("utf8", at, at + keyLength);
    at += keyLength;
    const type = head.readUInt32LE(at);
    at += 4;
    if (key === GENERATOR_VERSION_KEY) {
      return type === GgufValueType.uint32 && at + 4 <= head.length ? head.readUInt32LE(at) : undefined;
    }
    if (type === GgufValueType.string) {
      if (at + 8 > head.length) return undefined;
      at += 8 + Number(head.readBigUInt64LE(at));
      continue;
    }
    const size = SCALAR_SIZES[type];
    if (size === undefined) return undefined;
    at += size;
  }
  return undefined;
}
