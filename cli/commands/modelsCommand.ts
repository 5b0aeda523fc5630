/**
 * `decisions models`: generated test models (list the kinds, generate one), GGUF files pulled from
 * a hub repository pinned to a commit, and the `model-manifest.json` that pins a GGUF (write or
 * verify) and the `model.tar.gz` that carries it.
 */
import type { GgufWriteProgress } from "../../adapter/gguf/index.js";
import {
  DEFAULT_MODEL_SEED,
  generateModel,
  type HubModelRef,
  hubModelRef,
  isHubModelUri,
  isModelKind,
  MODEL_KIND_SPECS,
  MODEL_KINDS,
  ModelHubError,
  ModelPackageError,
  modelManifestPath,
  packageModel,
  parseHubModelUri,
  pullHubModel,
  verifyModelManifest,
  writeModelManifest,
} from "../../adapter/models/index.js";
import { UsageError } from "../errors.js";
import { parseCommandArgs } from "../parseCommandArgs.js";
import type { CliCommand, CliOutput } from "../types.js";
import { createPullProgress } from "./pullProgress.js";
import { type HubEnvironment, hubClientFromEnv } from "./resolveServedModel.js";

const USAGE = `usage:
  decisions models list
  decisions models generate --kind <kind> --out <file.gguf> [--seed N]
  decisions models manifest <file.gguf> [--source S] [--revision R]
  decisions models manifest <file.gguf> --verify
  decisions models package <file.gguf> --out <model.tar.gz> [--source S] [--revision R]
  decisions models pull <owner>/<name> --file <file.gguf> [--revision <branch|tag|sha>] [--out <folder>]
  decisions models pull hf:<owner>/<name>/<file.gguf>[@<revision>] [--out <folder>]

pull: resolves the revision (default main) to its commit sha, downloads the file (resuming a cut
download), checks the sha256 the hub states and writes model-manifest.json (repo, file, commit,
sha256, size, license) beside it; default --out: the model cache, .cache/hub/<owner>--<name>/<commit>.
HF_ENDPOINT names another hub or a mirror; HF_TOKEN is sent for gated and private repositories.
`;

/** Where `decisions models` writes and the environment it reads (`HF_ENDPOINT`, `HF_TOKEN`). */
export interface ModelsCommandIo extends CliOutput {
  env: Readonly<HubEnvironment>;
}

/**
 * Builds the `decisions models` command with the given output streams (tests pass their own).
 * Sub-commands: `list` (kinds with a description), `generate` (writes a generated GGUF and prints its
 * path, size and sha256; progress on stderr), `manifest` (writes or, with `--verify`, checks the
 * `model-manifest.json` beside a GGUF), `package` (the model.tar.gz), `pull` (a GGUF from a hub
 * repository, pinned and verified).
 */
export function createModelsCommand(output: Partial<ModelsCommandIo> = {}): CliCommand {
  const stdout = output.stdout ?? process.stdout;
  const stderr = output.stderr ?? process.stderr;
  const env = output.env ?? process.env;
  return {
    async run(args: string[]): Promise<number> {
      const [sub, ...rest] = args;
      // Help after any sub-command (`models generate --help`) prints the usage, as for every command.
      if (sub !== undefined && rest.some((arg) => arg === "--help" || arg === "-h")) {
        stdout.write(USAGE);
        return 0;
      }
      switch (sub) {
        case "list":
          return list(rest, stdout);
        case "generate":
          return generate(rest, stdout, stderr);
        case "manifest":
          return manifest(rest, stdout);
        case "package":
          return packageArchive(rest, stdout);
        case "pull":
          return pull(rest, { stdout, stderr, env });
        case "help":
        case "--help":
        case "-h":
          stdout.write(USAGE);
          return 0;
        default:
          throw new UsageError(
            sub === undefined ? "a sub-command is needed" : `unknown sub-command "${sub}"`,
            { usage: USAGE },
          );
      }
    },
  };
}

/** The `decisions models` command, writing to the process's stdout and stderr. */
export const modelsCommand: CliCommand = createModelsCommand();

function list(args: string[], stdout: CliOutput["stdout"]): number {
  parseCommandArgs({ args, options: {}, usage: USAGE });
  const width = Math.max(...MODEL_KINDS.map((kind) => kind.length));
  for (const kind of MODEL_KINDS)
    stdout.write(`${kind.padEnd(width)}  ${MODEL_KIND_SPECS[kind].description}\n`);
  return 0;
}

async function generate(
  args: string[],
  stdout: CliOutput["stdout"],
  stderr: CliOutput["stderr"],
): Promise<number> {
  const { values } = parseCommandArgs({
    args,
    options: { kind: { type: "string" }, out: { type: "string" }, seed: { type: "string" } },
    usage: USAGE,
  });
  const { kind, out } = values;
  if (kind === undefined || !isModelKind(kind)) {
    throw new UsageError(
      `--kind must be one of ${MODEL_KINDS.join(", ")}${kind === undefined ? "" : ` (got "${kind}")`}`,
    );
  }
  if (out === undefined || out.length === 0) throw new UsageError("--out <file.gguf> is required");
  const seed = values.seed === undefined ? DEFAULT_MODEL_SEED : Number(values.seed);
  if (!Number.isSafeInteger(seed) || seed < 0 || !/^\d+$/.test(values.seed ?? "0")) {
    throw new UsageError(`--seed must be a non-negative integer (got "${values.seed}")`);
  }
  const started = performance.now();
  const large = MODEL_KIND_SPECS[kind].large;
  if (large) stderr.write(`generating ${kind} (seed ${seed}) into ${out}\n`);
  const onProgress = large ? progressPrinter(stderr) : undefined;
  const result = await generateModel({ kind, out, seed, onProgress });
  const seconds = (performance.now() - started) / 1000;
  stdout.write(
    [
      `path    ${result.path}`,
      `kind    ${result.kind}`,
      `seed    ${result.seed}`,
      `size    ${result.sizeBytes} bytes (${formatMegabytes(result.sizeBytes)})`,
      `sha256  ${result.sha256}`,
      `time    ${seconds.toFixed(1)} s`,
      "",
    ].join("\n"),
  );
  return 0;
}

async function manifest(args: string[], stdout: CliOutput["stdout"]): Promise<number> {
  const { values, positionals } = parseCommandArgs({
    args,
    options: { source: { type: "string" }, revision: { type: "string" }, verify: { type: "boolean" } },
    allowPositionals: true,
    usage: USAGE,
  });
  const [gguf, ...extra] = positionals;
  if (gguf === undefined || extra.length > 0)
    throw new UsageError("exactly one GGUF path is needed", { usage: USAGE });
  if (values.verify === true) {
    if (values.source !== undefined || values.revision !== undefined) {
      throw new UsageError("--verify takes no --source or --revision");
    }
    const result = await verifyModelManifest(gguf);
    if (result.manifest === null) {
      stdout.write(`no ${modelManifestPath(gguf)}; sha256 ${result.sha256}, ${result.sizeBytes} bytes\n`);
      return 1;
    }
    stdout.write(`ok: ${gguf} matches ${modelManifestPath(gguf)} (sha256 ${result.sha256})\n`);
    return 0;
  }
  const written = await writeModelManifest(gguf, { source: values.source, revision: values.revision });
  stdout.write(`wrote ${modelManifestPath(gguf)}\n${JSON.stringify(written, null, 2)}\n`);
  return 0;
}

/** `models package`: the model.tar.gz SageMaker unpacks to /opt/ml/model (GGUF + manifest), never overwriting. */
async function packageArchive(args: string[], stdout: CliOutput["stdout"]): Promise<number> {
  const { values, positionals } = parseCommandArgs({
    args,
    options: { out: { type: "string" }, source: { type: "string" }, revision: { type: "string" } },
    allowPositionals: true,
    usage: USAGE,
  });
  const [gguf, ...extra] = positionals;
  if (gguf === undefined || extra.length > 0)
    throw new UsageError("exactly one GGUF path is needed", { usage: USAGE });
  if (values.out === undefined || values.out.length === 0)
    throw new UsageError("--out <model.tar.gz> is required", { usage: USAGE });
  try {
    const packaged = await packageModel(gguf, values.out, {
      source: values.source,
      revision: values.revision,
    });
    stdout.write(
      `wrote ${packaged.path} (${formatMegabytes(packaged.archiveBytes)})\n${JSON.stringify(packaged.manifest, null, 2)}\n`,
    );
    return 0;
  } catch (error) {
    if (error instanceof ModelPackageError && error.reason === "target-exists") {
      throw new UsageError(
        `${values.out} exists; it is never overwritten (remove it or choose another --out)`,
      );
    }
    throw error;
  }
}

/** `models pull`: one GGUF of a hub repository, pinned to its commit and verified, with its manifest. */
async function pull(args: string[], io: ModelsCommandIo): Promise<number> {
  const { values, positionals } = parseCommandArgs({
    args,
    options: { file: { type: "string" }, revision: { type: "string" }, out: { type: "string" } },
    allowPositionals: true,
    usage: USAGE,
  });
  const ref = readHubRef(positionals, values);
  const client = hubClientFromEnv(io.env);
  const progress = createPullProgress(io.stderr, ref.file);
  const pulled = await pullHubModel({
    ref,
    client,
    out: values.out,
    onProgress: progress.onProgress,
    onNote: (line) => io.stderr.write(`${line}\n`),
  }).finally(() => progress.stop());
  io.stdout.write(
    [
      pulled.downloaded
        ? `pulled${pulled.resumedFrom === undefined ? "" : ` (resumed at byte ${pulled.resumedFrom})`}`
        : "already there, verified; nothing downloaded",
      `path      ${pulled.path}`,
      `manifest  ${modelManifestPath(pulled.path)}`,
      `repo      ${pulled.repo} (${client.endpoint})`,
      `file      ${pulled.file}`,
      `revision  ${pulled.revision} = commit ${pulled.commit}`,
      `sha256    ${pulled.sha256}`,
      `size      ${pulled.sizeBytes} bytes (${formatMegabytes(pulled.sizeBytes)})`,
      `license   ${pulled.license ?? "none stated"}`,
      `next      decisions models package ${pulled.path} --out model.tar.gz`,
      "",
    ].join("\n"),
  );
  return 0;
}

/** The hub reference of `models pull`: `hf:…` alone, or `<owner>/<name>` with `--file` (and `--revision`). */
function readHubRef(
  positionals: string[],
  values: { file?: string | undefined; revision?: string | undefined },
): HubModelRef {
  const [first, ...extra] = positionals;
  if (first === undefined || extra.length > 0) {
    throw new UsageError("give one repository (<owner>/<name> with --file) or one hf: URI", { usage: USAGE });
  }
  try {
    if (isHubModelUri(first)) {
      if (values.file !== undefined || values.revision !== undefined) {
        throw new UsageError("an hf: URI names its file and revision: give no --file or --revision with it", {
          usage: USAGE,
        });
      }
      return parseHubModelUri(first);
    }
    if (values.file === undefined || values.file.length === 0) {
      throw new UsageError("--file <name.gguf> is required with <owner>/<name>", { usage: USAGE });
    }
    return hubModelRef({ repo: first, file: values.file, revision: values.revision });
  } catch (error) {
    if (error instanceof ModelHubError && error.reason === "bad-reference") {
      throw new UsageError(error.message, { usage: USAGE, cause: error });
    }
    throw error;
  }
}

function progressPrinter(stderr: CliOutput["stderr"]): (p: GgufWriteProgress) => void {
  let lastTenth = -1;
  return (progress) => {
    const fraction = progress.bytesWritten / progress.totalBytes;
    const line = `${(fraction * 100).toFixed(0).padStart(3)}%  ${formatMegabytes(progress.bytesWritten)} / ${formatMegabytes(progress.totalBytes)}  ${progress.tensorName}`;
    if (stderr.isTTY === true) {
      stderr.write(`\r${line.padEnd(79)}${progress.tensorsWritten === progress.tensorCount ? "\n" : ""}`);
      return;
    }
    const tenth = Math.floor(fraction * 10);
    if (tenth !== lastTenth) {
      lastTenth = tenth;
      stderr.write(`${line}\n`);
    }
  };
}

function formatMegabytes(bytes: number): string {
  return `${(bytes / 1e6).toFixed(1)} MB`;
}
