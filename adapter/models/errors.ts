/** Errors of model generation, manifests and downloads. */

/** Base class of every error raised by `adapter/models`. */
export class ModelFileError extends Error {
  override name = "ModelFileError";
}

/** A model could not be generated: unknown kind, missing vocabulary, a failed write. */
export class ModelGenerationError extends ModelFileError {
  override name = "ModelGenerationError";
}

/** A `model-manifest.json` is missing a field, is not JSON, or cannot be read or written. */
export class ModelManifestError extends ModelFileError {
  override name = "ModelManifestError";
}

/** A GGUF does not match its `model-manifest.json` (sha256 or size): the model must not be served. */
export class ModelManifestMismatchError extends ModelManifestError {
  override name = "ModelManifestMismatchError";
}

/** A download failed (HTTP status, network, or a refused URL). */
export class ModelDownloadError extends ModelFileError {
  override name = "ModelDownloadError";
}

/** A downloaded file's sha256 differs from the pinned one; the file was discarded. */
export class ModelChecksumMismatchError extends ModelDownloadError {
  override name = "ModelChecksumMismatchError";
}

/** Why {@link ModelPackageError} was raised. */
export type ModelPackageFailure = "target-exists" | "not-a-gguf" | "write-failed";

/** A `model.tar.gz` could not be written: the target exists, the input is not a GGUF, or a write failed. */
export class ModelPackageError extends ModelFileError {
  override name = "ModelPackageError";
  /** What went wrong, for callers that map it (the CLI's exit code, for one). */
  readonly reason: ModelPackageFailure;
  /** The file concerned: the archive for `target-exists` and `write-failed`, the GGUF for `not-a-gguf`. */
  readonly path: string;

  constructor(message: string, reason: ModelPackageFailure, path: string, options?: ErrorOptions) {
    super(message, options);
    this.reason = reason;
    this.path = path;
  }
}
