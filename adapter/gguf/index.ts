/** Our own GGUF v3 writer: metadata, tensor layout, F32/F16/Q8_0 encodings and a seeded generator. */

export { GgufMetadataError, GgufTensorError, GgufWriterError } from "./errors.js";
export type {
  GgufTensorData,
  GgufTensorInput,
  GgufTensorLayout,
  GgufWriteOptions,
  GgufWriteProgress,
  GgufWriteResult,
  GgufWriterOptions,
} from "./GgufWriter.js";
export { GgufWriter } from "./GgufWriter.js";
export {
  decodeQ8_0,
  encodeF16,
  encodeF32,
  encodeQ8_0,
  encodeTensorValues,
  float16BitsToFloat32,
  float32ToFloat16Bits,
  ggmlBlockSize,
  ggmlByteSize,
  Q8_0_BLOCK_BYTES,
  Q8_0_BLOCK_SIZE,
} from "./quantize.js";
export { SeededRandom } from "./random.js";
export type {
  GgmlTypeName,
  GgufBigIntTypeName,
  GgufNumberTypeName,
  GgufScalarTypeName,
  GgufValue,
  LlamaFileTypeName,
} from "./types.js";
export {
  GGUF_DEFAULT_ALIGNMENT,
  GGUF_MAGIC,
  GGUF_VERSION,
  GgmlType,
  GgufValueType,
  LlamaFileType,
} from "./types.js";
