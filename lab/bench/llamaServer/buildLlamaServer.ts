import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { cpus } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { AMX_OFF_FLAGS } from "../../../adapter/engine/builds/llamaBuilds.js";
import { nodeLlamaCppRoot } from "../../../adapter/engine/builds/nodeLlamaCppRoot.js";
import type { CpuFeatures } from "../../../adapter/engine/builds/readCpuFeatures.js";

/** Options of {@link ensureLlamaServer}. */
export interface LlamaServerBuildOptions {
  /** Folder the source and builds are kept in (reused by later runs). */
  cacheDir: string;
  /** Build with OpenMP (llama.cpp's default) or without. Default true. */
  openmp?: boolean;
  /** This machine's CPU (`readCpuFeatures()`): decides whether AMX has to be taken out. */
  cpu: CpuFeatures;
  /**
   * Keep ggml's AMX kernels on a CPU with AMX (`-march=native` as it is). Default false: they are
   * left out ({@link AMX_OFF_FLAGS}), as in the engine's `native` build, because they crash on
   * some AMX hosts.
   */
  amx?: boolean;
  /** Progress lines. */
  log: (line: string) => void;
}

/** A llama-server binary and how it was built. */
export interface LlamaServerBinary {
  path: string;
  /** The source's commit, from the bundle node-llama-cpp ships. */
  commit: string;
  cmakeOptions: Readonly<Record<string, string>>;
  /** Seconds the build took now; 0 when a cached build was reused. */
  buildS: number;
  /** Whether ggml's AMX kernels may be in it (a CPU with AMX and `amx: true`). */
  amx: boolean;
  /** What was done about AMX and why, as logged. */
  amxChoice: string;
}

/** No compiler or CMake here: the llama-server figure cannot be measured. */
export class LlamaServerUnavailableError extends Error {
  override name = "LlamaServerUnavailableError";
}

/**
 * The llama-server of the same llama.cpp source the engine runs (node-llama-cpp's
 * `llama/gitRelease.bundle`), built once into `cacheDir` with CMake and reused while the bundle's
 * commit and options are the same: native CPU flags, OpenMP on or off, a static Release build with
 * no network features (no curl, no OpenSSL, no web UI download). Only the `llama-server` target is
 * compiled. On a CPU with AMX, the AMX kernels are left out unless `amx` says otherwise (the flags
 * are added only there: elsewhere they change nothing, and a cached build stays valid).
 *
 * @throws LlamaServerUnavailableError when git, cmake or a C++ compiler is missing.
 * @throws Error when a build step fails (its output was passed to `log`).
 */
export async function ensureLlamaServer(options: LlamaServerBuildOptions): Promise<LlamaServerBinary> {
  for (const tool of ["git", "cmake", "c++"]) {
    if (!(await succeeds(tool, ["--version"]))) {
      throw new LlamaServerUnavailableError(`${tool} is not installed: llama-server cannot be built here`);
    }
  }
  const bundle = join(nodeLlamaCppRoot(), "llama", "gitRelease.bundle");
  const commit = (await output("git", ["bundle", "list-heads", bundle])).trim().split(/\s+/)[0] ?? "unknown";
  const openmp = options.openmp ?? true;
  const amxOff = process.arch === "x64" && options.cpu.amx.length > 0 && options.amx !== true;
  const amxChoice =
    options.cpu.amx.length === 0
      ? "AMX: none on this CPU"
      : amxOff
        ? `AMX: left out (${AMX_OFF_FLAGS}); this CPU reports ${options.cpu.amx.join(", ")}, and ggml's AMX kernels crash on some AMX hosts (--llama-server-amx keeps them)`
        : `AMX: kept (-march=native as it is; this CPU reports ${options.cpu.amx.join(", ")})`;
  const cmakeOptions: Record<string, string> = {
    CMAKE_BUILD_TYPE: "Release",
    BUILD_SHARED_LIBS: "OFF",
    GGML_NATIVE: "ON",
    GGML_OPENMP: openmp ? "ON" : "OFF",
    LLAMA_BUILD_SERVER: "ON",
    LLAMA_BUILD_TESTS: "OFF",
    LLAMA_BUILD_EXAMPLES: "OFF",
    LLAMA_CURL: "OFF",
    LLAMA_OPENSSL: "OFF",
    LLAMA_BUILD_UI: "OFF",
    LLAMA_USE_PREBUILT_UI: "OFF",
  };
  if (amxOff) {
    // With GGML_NATIVE on, ggml ignores its GGML_AMX_* options: only the compiler flags take AMX out.
    cmakeOptions.CMAKE_C_FLAGS = AMX_OFF_FLAGS;
    cmakeOptions.CMAKE_CXX_FLAGS = AMX_OFF_FLAGS;
  }
  const amx = process.arch === "x64" && options.cpu.amx.length > 0 && !amxOff;
  options.log(`llama-server: ${amxChoice}`);
  const source = join(options.cacheDir, `src-${commit.slice(0, 12)}`);
  const buildDir = join(
    options.cacheDir,
    `build-${commit.slice(0, 12)}-${openmp ? "openmp" : "no-openmp"}${amxOff ? "-no-amx" : ""}`,
  );
  const binary = join(buildDir, "bin", "llama-server");
  const done = join(buildDir, "built.json");
  if (existsSync(binary) && (await builtWith(done)) === JSON.stringify(cmakeOptions)) {
    return { path: binary, commit, cmakeOptions, buildS: 0, amx, amxChoice };
  }

  const started = performance.now();
  await mkdir(options.cacheDir, { recursive: true });
  if (!existsSync(join(source, "CMakeLists.txt"))) {
    await rm(source, { recursive: true, force: true });
    options.log(`llama-server: cloning the bundled llama.cpp source (${commit.slice(0, 7)})`);
    await run("git", ["clone", "--quiet", bundle, source], options.log);
  }
  options.log(
    `llama-server: configuring (${openmp ? "OpenMP" : "no OpenMP"}, native${amxOff ? " without AMX" : ""})`,
  );
  await rm(buildDir, { recursive: true, force: true });
  const defines = Object.entries(cmakeOptions).map(([name, value]) => `-D${name}=${value}`);
  await run("cmake", ["-S", source, "-B", buildDir, ...defines], options.log);
  options.log(`llama-server: compiling on ${cpus().length} cores (several minutes)`);
  await run(
    "cmake",
    ["--build", buildDir, "--target", "llama-server", "-j", String(cpus().length)],
    options.log,
  );
  if (!existsSync(binary)) throw new Error(`the llama-server build finished without ${binary}`);
  const buildS = (performance.now() - started) / 1000;
  await writeFile(done, `${JSON.stringify({ commit, cmakeOptions, build_s: buildS }, null, 2)}\n`);
  return { path: binary, commit, cmakeOptions, buildS, amx, amxChoice };
}

/** The options a cached build was made with (its `built.json`), as JSON text; undefined when none. */
async function builtWith(done: string): Promise<string | undefined> {
  const text = await readFile(done, "utf8").catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT") return undefined;
    throw error;
  });
  if (text === undefined) return undefined;
  const record = JSON.parse(text) as { cmakeOptions?: unknown };
  return JSON.stringify(record.cmakeOptions);
}

const execFileAsync = promisify(execFile);

function succeeds(command: string, args: readonly string[]): Promise<boolean> {
  return execFileAsync(command, args).then(
    () => true,
    () => false,
  );
}

async function output(command: string, args: readonly string[]): Promise<string> {
  return (await execFileAsync(command, args)).stdout;
}

/** Runs a build step; the last 40 lines of its output are passed to `log` when it fails. */
async function run(command: string, args: readonly string[], log: (line: string) => void): Promise<void> {
  try {
    await execFileAsync(command, args, { maxBuffer: 256 * 1024 * 1024 });
  } catch (error) {
    const { stdout = "", stderr = "" } = error as { stdout?: string; stderr?: string };
    for (const line of `${stdout}${stderr}`.split("\n").slice(-40)) log(`  ${line}`);
    throw new Error(`${command} ${args.slice(0, 2).join(" ")} failed`, { cause: error });
  }
}
