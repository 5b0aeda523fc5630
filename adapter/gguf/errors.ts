/** Errors raised while building or writing a GGUF file. */

/** Base class of every error raised by the GGUF writer. */
export class GgufWriterError extends Error {
  override name = "GgufWriterError";
}

/**
 * A tensor cannot be written as described: a bad name or shape, a first dimension that the chosen
 * encoding cannot block (Q8_0 needs a multiple of 32), or data whose length does not match the shape.
 */
export class GgufTensorError extends GgufWriterError {
  override name = "GgufTensorError";
}

/** A metadata key or value cannot be encoded (empty key, value out of range for its type). */
export class GgufMetadataError extends GgufWriterError {
  override name = "GgufMetadataError";
}
