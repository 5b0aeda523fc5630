/**
 * The file set an image's Dockerfile produces, rebuilt in temporary folders without a container
 * engine: the build stage's COPYs from the context (honouring .dockerignore) and its compile, then
 * the runtime stage's COPYs from the context and the build stage, with a `node_modules` holding
 * only what the deps stage installs (production dependencies, no optional ones but the packages it
 * names) — so a module that needs anything else fails here as it would in the image.
 */
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { cp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";

/** The repository this checkout holds. */
export const REPO_ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** One Dockerfile instruction, continuation lines joined. */
export interface DockerInstruction {
  keyword: string;
  args: string;
}

/** The instructions of a Dockerfile, comments dropped. */
export function dockerInstructions(dockerfile: string): DockerInstruction[] {
  return readFileSync(join(REPO_ROOT, dockerfile), "utf8")
    .replace(/\\\n/g, " ")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"))
    .map((line) => {
      const [keyword = "", ...rest] = line.split(/\s+/);
      return { keyword: keyword.toUpperCase(), args: rest.join(" ") };
    });
}

/** The instructions of each stage, by stage name (`FROM … AS name`). */
export function dockerStages(list: readonly DockerInstruction[]): Map<string, DockerInstruction[]> {
  const byName = new Map<string, DockerInstruction[]>();
  let current: DockerInstruction[] = [];
  for (const instruction of list) {
    if (instruction.keyword === "FROM") {
      current = [];
      byName.set(/\bAS\s+(\S+)/i.exec(instruction.args)?.[1] ?? String(byName.size), current);
    } else {
      current.push(instruction);
    }
  }
  return byName;
}

/** A COPY's stage (`--from`), sources and destination. */
export function copyParts(args: string): {
  from: string | undefined;
  sources: string[];
  destination: string;
} {
  const parts = args.split(/\s+/);
  const from = parts[0]?.startsWith("--from=") ? parts.shift()?.slice("--from=".length) : undefined;
  const destination = parts.pop() ?? "";
  return { from, sources: parts, destination };
}

/**
 * Whether `.dockerignore` keeps a context path (Docker's rules: patterns in order, the last match
 * wins, `!` re-includes, `**` any depth). Written by hand: no dependency of this project implements
 * Docker's ignore rules.
 */
export function inBuildContext(path: string): boolean {
  const patterns = readFileSync(join(REPO_ROOT, ".dockerignore"), "utf8")
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line !== "" && !line.startsWith("#"));
  let included = true;
  for (const raw of patterns) {
    const negated = raw.startsWith("!");
    const pattern = (negated ? raw.slice(1) : raw).replace(/\/$/, "");
    const source = pattern
      .split("**")
      .map((part) =>
        part
          .replace(/[.+^${}()|[\]\\]/g, "\\$&")
          .replace(/\*/g, "[^/]*")
          .replace(/\?/g, "[^/]"),
      )
      .join(".*");
    if (new RegExp(`^${source}(/.*)?$`).test(path)) included = negated;
  }
  return included;
}

/** The rebuilt file set: `app` is the runtime stage's WORKDIR. */
export interface ImageFileSet {
  /** The build stage's folder (its WORKDIR), compiled. */
  build: string;
  /** The runtime stage's folder (its WORKDIR). */
  app: string;
  /** Removes both folders. */
  dispose(): void;
}

/**
 * Rebuilds the file set of `dockerfile` (stages named `build`, `deps` and `runtime`).
 * @throws Error when the build stage's compiler fails (its output in the message).
 */
export async function buildImageFileSet(dockerfile: string): Promise<ImageFileSet> {
  const stages = dockerStages(dockerInstructions(dockerfile));
  const build = mkdtempSync(join(tmpdir(), "image-build-"));
  const app = mkdtempSync(join(tmpdir(), "image-app-"));
  const dispose = (): void => {
    rmSync(build, { recursive: true, force: true });
    rmSync(app, { recursive: true, force: true });
  };
  try {
    const buildStage = stages.get("build") ?? [];
    for (const { args } of buildStage.filter((i) => i.keyword === "COPY")) {
      for (const source of copyParts(args).sources) await copyFromContext(source, join(build, source));
    }
    // The build stage installs every dependency (dev included) to compile: this checkout's stand in.
    symlinkSync(join(REPO_ROOT, "node_modules"), join(build, "node_modules"));
    if (!buildStage.some((i) => i.keyword === "RUN" && i.args === "npx tsc -p tsconfig.image.json")) {
      throw new Error(`${dockerfile}: the build stage no longer runs \`npx tsc -p tsconfig.json\``);
    }
    const tsc = spawnSync(
      process.execPath,
      [join(REPO_ROOT, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.image.json"],
      {
        cwd: build,
        encoding: "utf8",
      },
    );
    if (tsc.status !== 0) throw new Error(`the build stage does not compile:\n${tsc.stdout}${tsc.stderr}`);
    for (const { args } of (stages.get("runtime") ?? []).filter((i) => i.keyword === "COPY")) {
      const { from, sources, destination } = copyParts(args);
      for (const source of sources) {
        const target = join(
          app,
          destination.endsWith("/") || sources.length > 1 ? join(destination, source) : destination,
        );
        if (from === "deps") linkProductionModules(stages.get("deps") ?? [], target);
        else if (from === "build")
          await cp(join(build, source.replace(/^\/build\//, "")), target, { recursive: true });
        else await copyFromContext(source, target);
      }
    }
    return { build, app, dispose };
  } catch (error) {
    dispose();
    throw error;
  }
}

async function copyFromContext(source: string, target: string): Promise<void> {
  await cp(join(REPO_ROOT, source), target, {
    recursive: true,
    filter: (path) => inBuildContext(relative(REPO_ROOT, path) || "."),
  });
}

/**
 * A `node_modules` as the deps stage installs it (`npm ci --omit=dev --omit=optional`, then the
 * packages its `npm install` names), made of links to this checkout's packages: each top-level
 * package of the lock file that is neither dev-only nor optional, plus the named ones.
 */
function linkProductionModules(depsStage: readonly DockerInstruction[], target: string): void {
  const lock = JSON.parse(readFileSync(join(REPO_ROOT, "package-lock.json"), "utf8")) as {
    packages: Record<string, { dev?: boolean; optional?: boolean; devOptional?: boolean }>;
  };
  const named = new Set(
    depsStage
      .filter((i) => i.keyword === "RUN")
      .flatMap((i) => [...i.args.matchAll(/"((?:@[\w.-]+\/)?[\w.-]+)@\$\{\w+\}"/g)].map((m) => m[1] ?? "")),
  );
  mkdirSync(target, { recursive: true });
  for (const [key, entry] of Object.entries(lock.packages)) {
    const name = /^node_modules\/((?:@[^/]+\/)?[^/]+)$/.exec(key)?.[1];
    if (name === undefined) continue;
    const omitted = entry.dev === true || entry.optional === true || entry.devOptional === true;
    if (omitted && !named.has(name)) continue;
    const link = join(target, name);
    mkdirSync(dirname(link), { recursive: true });
    symlinkSync(join(REPO_ROOT, "node_modules", name), link);
  }
}
