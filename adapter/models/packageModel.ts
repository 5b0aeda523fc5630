import { randomBytes } from "node:crypto";
import { createWriteStream } from "node:fs";
import { link, mkdtemp, open, rm, stat, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, dirname, join, resolve } from "node:path";
import { pipeline } from "node:stream/promises";
import { create as createTar } from "tar";
import { ModelPackageError } from "./errors.js";
import {
  hubFields,
  MODEL_MANIFEST_FILE_NAME,
  type ModelManifest,
  verifyModelManifest,
} from "./modelManifest.js";

/** Options of {@link packageModel}. */
export interface PackageModelOptions {
  /**
   * Where the GGUF came from, recorded in the manifest. Default: the `source` of a
   * `model-manifest.json` beside the GGUF, else null.
   */
  source?: string;
  /** The source's revision. Default: the `revision` of the manifest beside the GGUF, else null. */
  revision?: string;
}

/** What {@link packageModel} wrote. */
export interface PackagedModel {
  /** Absolute path of the archive. */
  path: string;
  /** Size of the archive in bytes. */
  archiveBytes: number;
  /** The `model-manifest.json` stored in the archive beside the GGUF. */
  manifest: ModelManifest;
}

const GGUF_MAGIC = Buffer.from("GGUF", "latin1");

/**
 * Writes the `model.tar.gz` a SageMaker model expects: the GGUF and its `model-manifest.json`
 * (file name, sha256, size, source, revision) at the archive root, so SageMaker unpacks both into
 * `/opt/ml/model` where the adapter finds them. The GGUF is streamed (multi-GB files never sit in
 * memory) and compressed with node:zlib through the `tar` package.
 *
 * A `model-manifest.json` already beside the GGUF must match it (else the GGUF is refused); its
 * source and revision are kept unless the options give others, and its hub fields (`repo`,
 * `commit`, `license` of a model `decisions models pull` wrote) are kept. The archive is written to a
 * temporary file beside `out` and linked into place, so an existing file is never replaced and a
 * failed run leaves nothing at `out`.
 *
 * @param ggufPath the model file (must start with the GGUF magic).
 * @param out where to write the archive, conventionally `model.tar.gz`.
 * @throws {ModelPackageError} `target-exists` when `out` exists; `not-a-gguf` when the input is not a
 * GGUF file; `write-failed` when the archive cannot be written.
 * @throws {ModelManifestMismatchError} when a manifest beside the GGUF describes another file.
 * @throws {ModelManifestError} when the GGUF or its manifest cannot be read.
 * @example
 * ```ts
 * await packageModel("Qwen3.5-4B-Q4_K_M.gguf", "model.tar.gz", { source: "hf:unsloth/Qwen3.5-4B-GGUF", revision: "main" });
 * // then: aws s3 cp model.tar.gz s3://<bucket>/model.tar.gz
 * ```
 */
export async function packageModel(
  ggufPath: string,
  out: string,
  options: PackageModelOptions = {},
): Promise<PackagedModel> {
  const gguf = resolve(ggufPath);
  const target = resolve(out);
  await refuseExisting(target);
  await requireGguf(gguf);

  const verified = await verifyModelManifest(gguf);
  const manifest: ModelManifest = {
    file: basename(gguf),
    sha256: verified.sha256,
    size_bytes: verified.sizeBytes,
    source: options.source ?? verified.manifest?.source ?? null,
    revision: options.revision ?? verified.manifest?.revision ?? null,
    created_at: new Date().toISOString(),
    // A pulled model's repository, commit and license describe these very bytes (the sha256 was
    // just checked against that manifest), so the archive keeps them.
    ...hubFields(verified.manifest ?? undefined),
  };

  // The archive's root is a staging folder: a link to the GGUF (followed, so its bytes are stored,
  // never copied on disk) and the manifest written for this archive.
  const staging = await mkdtemp(join(tmpdir(), "package-model-"));
  const partial = join(
    dirname(target),
    `.${basename(target)}.${process.pid}-${randomBytes(4).toString("hex")}.partial`,
  );
  try {
    await symlink(gguf, join(staging, manifest.file));
    await writeFile(join(staging, MODEL_MANIFEST_FILE_NAME), `${JSON.stringify(manifest, null, 2)}\n`);
    const archive = createTar({ gzip: true, cwd: staging, follow: true, portable: true }, [
      manifest.file,
      MODEL_MANIFEST_FILE_NAME,
    ]);
    await pipeline(archive, createWriteStream(partial, { flags: "wx" }));
    // link() fails when `target` exists: the check at the start may be stale by now.
    await link(partial, target);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") {
      throw new ModelPackageError(
        `${target} already exists; refusing to overwrite it`,
        "target-exists",
        target,
        { cause: error },
      );
    }
    throw new ModelPackageError(`cannot write ${target}`, "write-failed", target, { cause: error });
  } finally {
    await rm(partial, { force: true });
    await rm(staging, { recursive: true, force: true });
  }
  return { path: target, archiveBytes: (await stat(target)).size, manifest };
}

async function refuseExisting(target: string): Promise<void> {
  const existing = await stat(target).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw new ModelPackageError(`cannot check ${target}`, "write-failed", target, { cause: error });
  });
  if (existing !== undefined) {
    throw new ModelPackageError(
      `${target} already exists; refusing to overwrite it`,
      "target-exists",
      target,
    );
  }
}

async function requireGguf(gguf: string): Promise<void> {
  const magic = Buffer.alloc(GGUF_MAGIC.length);
  let bytesRead = 0;
  try {
    const handle = await open(gguf, "r");
    try {
      ({ bytesRead } = await handle.read(magic, 0, magic.length, 0));
    } finally {
      await handle.close();
    }
  } catch (error) {
    throw new ModelPackageError(`cannot read ${gguf}`, "not-a-gguf", gguf, { cause: error });
  }
  if (bytesRead < magic.length || !magic.equals(GGUF_MAGIC)) {
    throw new ModelPackageError(
      `${gguf} is not a GGUF file (it does not start with "GGUF")`,
      "not-a-gguf",
      gguf,
    );
  }
}
