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

/** Why {@link ModelHubError} was raised. */
export type ModelHubFailure =
  /** The repository, file or revision given cannot be a hub name (checked before any request). */
  | "bad-reference"
  /** The repository does not exist at the endpoint, or is private and the token cannot read it. */
  | "repo-not-found"
  /** The repository has no such branch, tag or commit. */
  | "revision-not-found"
  /** The revision has no such file, or it is not a GGUF file name ({@link ModelHubError.ggufFiles} lists those it has). */
  | "file-not-found"
  /** The repository is gated: no token was given, or the token's account has not been granted access. */
  | "gated"
  /** The hub refused the request as unauthorized (no token where one is needed, or a rejected token). */
  | "unauthorized"
  /** The hub kept answering 429 (or 503) longer than the pull waits. */
  | "rate-limited"
  /** The hub's answer lacks what the protocol promises (a commit sha, a sha256, a size) or is malformed. */
  | "protocol"
  /** Another HTTP error status. */
  | "http"
  /** The network failed before the download started. */
  | "network"
  /** The bytes do not start with the GGUF magic: the file is not a GGUF model. */
  | "not-gguf"
  /** The connection broke during the download; the bytes received are kept and a new pull resumes. */
  | "interrupted"
  /** The model's folder or file could not be written (no space left, no permission). */
  | "write-failed"
  /** Another process is pulling the same file into the same folder. */
  | "busy";

/**
 * A pull from a model hub failed. `reason` says why, for callers that map it (never the message);
 * the message says what to do.
 */
export class ModelHubError extends ModelDownloadError {
  override name = "ModelHubError";
  /** Why the pull failed. */
  readonly reason: ModelHubFailure;
  /** For `file-not-found`: the GGUF files the revision has (possibly none). */
  readonly ggufFiles: readonly string[] | undefined;
  /** HTTP status of the answer that ended the pull, when one did. */
  readonly status: number | undefined;

  constructor(
    message: string,
    reason: ModelHubFailure,
    options?: ErrorOptions & { ggufFiles?: readonly string[]; status?: number },
  ) {
    super(message, options);
    this.reason = reason;
    this.ggufFiles = options?.ggufFiles;
    this.status = options?.status;
  }
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
