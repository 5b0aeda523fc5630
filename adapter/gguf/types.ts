/**
 * Constants and types of the GGUF v3 file format, as read by llama.cpp (`ggml/include/gguf.h`,
 * `ggml/include/ggml.h`, `include/llama.h`).
 */

/** The four bytes every GGUF file starts with. */
export const GGUF_MAGIC = "GGUF";

/** The GGUF format version this writer produces. */
export const GGUF_VERSION = 3;

/**
 * Alignment of the tensor data section and of each tensor in it, in bytes, when the file has no
 * `general.alignment` key.
 */
export const GGUF_DEFAULT_ALIGNMENT = 32;

/** Type codes of metadata values (`enum gguf_type`). */
export const GgufValueType = {
  uint8: 0,
  int8: 1,
  uint16: 2,
  int16: 3,
  uint32: 4,
  int32: 5,
  float32: 6,
  bool: 7,
  string: 8,
  array: 9,
  uint64: 10,
  int64: 11,
  float64: 12,
} as const;

/** Name of a metadata value type that is not an array. */
export type GgufScalarTypeName = Exclude<keyof typeof GgufValueType, "array">;

/** A numeric metadata type whose values fit a JavaScript number exactly. */
export type GgufNumberTypeName =
  | "uint8"
  | "int8"
  | "uint16"
  | "int16"
  | "uint32"
  | "int32"
  | "float32"
  | "float64";

/** A 64-bit integer metadata type, given as a `bigint`. */
export type GgufBigIntTypeName = "uint64" | "int64";

/**
 * One metadata value, tagged with its GGUF type.
 *
 * Arrays hold scalars only (GGUF allows nested arrays, llama.cpp never reads them).
 * @example
 * ```ts
 * const heads: GgufValue = { type: "uint32", value: 4 };
 * const tokens: GgufValue = { type: "array", itemType: "string", value: ["<unk>", "<s>"] };
 * ```
 */
export type GgufValue =
  | { type: GgufNumberTypeName; value: number }
  | { type: GgufBigIntTypeName; value: bigint }
  | { type: "bool"; value: boolean }
  | { type: "string"; value: string }
  | { type: "array"; itemType: GgufNumberTypeName; value: ArrayLike<number> }
  | { type: "array"; itemType: GgufBigIntTypeName; value: ArrayLike<bigint> }
  | { type: "array"; itemType: "bool"; value: ArrayLike<boolean> }
  | { type: "array"; itemType: "string"; value: ArrayLike<string> };

/** Tensor element types this writer can encode (`enum ggml_type`). */
export const GgmlType = {
  F32: 0,
  F16: 1,
  Q8_0: 8,
} as const;

/** Name of a tensor element type this writer can encode. */
export type GgmlTypeName = keyof typeof GgmlType;

/**
 * `general.file_type` values (`enum llama_ftype`): the dominant weight type of a model, which
 * llama.cpp reports as the model's quantization.
 */
export const LlamaFileType = {
  /** Every tensor is F32. */
  ALL_F32: 0,
  /** Matrices are F16; one-dimensional tensors (norms) stay F32. */
  MOSTLY_F16: 1,
  /** Matrices are Q8_0; one-dimensional tensors (norms) stay F32. */
  MOSTLY_Q8_0: 7,
} as const;

/** Name of a `general.file_type` value. */
export type LlamaFileTypeName = keyof typeof LlamaFileType;
