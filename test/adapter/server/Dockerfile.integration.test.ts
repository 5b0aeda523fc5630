/**
 * The images cannot be built here (no Docker engine), so this checks what can be checked: bases
 * pinned by digest, multi-stage, non-root, only the llama.cpp binary variant each image needs,
 * every COPYed path present and inside the build context, and — by replaying the build stage on
 * exactly the COPYed files — that the entry point the image names exists in the build output and runs.
 */
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, symlinkSync } from "node:fs";
import { cp as copyTree } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { after, before, describe, it } from "node:test";
import { SERVER_SETTINGS } from "../../../adapter/server/config.js";
import {
  copyParts,
  type DockerInstruction as Instruction,
  inBuildContext as inContext,
  dockerInstructions as instructions,
  dockerStages as stages,
} from "../../support/imageFileSet.js";

const ROOT = new URL("../../../", import.meta.url).pathname;

/** ARG defaults, for resolving `FROM ${NODE_IMAGE}`. */
function argDefaults(list: readonly Instruction[]): Map<string, string> {
  const defaults = new Map<string, string>();
  for (const { keyword, args } of list) {
    const match = /^(\w+)=(\S+)$/.exec(args);
    if (keyword === "ARG" && match?.[1] !== undefined && match[2] !== undefined)
      defaults.set(match[1], match[2]);
  }
  return defaults;
}

const IMAGES = [
  { file: "adapter/Dockerfile", binaries: ["@node-llama-cpp/linux-x64"], gpuLayers: "0" },
  {
    file: "adapter/Dockerfile.gpu",
    binaries: ["@node-llama-cpp/linux-x64-cuda", "@node-llama-cpp/linux-x64-cuda-ext"],
    gpuLayers: "-1",
  },
];

for (const image of IMAGES) {
  describe(image.file, () => {
    const list = instructions(image.file);
    const defaults = argDefaults(list);
    const resolve = (value: string): string =>
      value.replace(/\$\{(\w+)\}/g, (_m, name: string) => defaults.get(name) ?? "");

    it("pins every base image by digest and has separate build and runtime stages", () => {
      const froms = list
        .filter((i) => i.keyword === "FROM")
        .map((i) => resolve(i.args.split(/\s+/)[0] ?? ""));
      assert.ok(froms.length >= 3, "build, deps and runtime stages");
      for (const from of froms) assert.match(from, /^[\w./-]+:[\w.-]+@sha256:[0-9a-f]{64}$/, from);
    });

    it("installs production dependencies without optional binaries, then only its llama.cpp variant at the pinned version", () => {
      const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")) as {
        dependencies: Record<string, string>;
      };
      assert.equal(defaults.get("NODE_LLAMA_CPP_VERSION"), pkg.dependencies["node-llama-cpp"]);
      const runs = list.filter((i) => i.keyword === "RUN").map((i) => i.args);
      assert.ok(runs.some((run) => /npm ci --omit=dev --omit=optional/.test(run)));
      const installed = runs.flatMap((run) =>
        [...run.matchAll(/"(@node-llama-cpp\/[\w-]+)@\$\{NODE_LLAMA_CPP_VERSION\}"/g)].map((m) => m[1]),
      );
      assert.deepEqual(installed, image.binaries);
    });

    it("copies only paths that exist and that .dockerignore keeps in the context", () => {
      const copies = list.filter((i) => i.keyword === "COPY" && !i.args.includes("--from="));
      assert.ok(copies.length > 0);
      for (const copy of copies) {
        const parts = copy.args.split(/\s+/);
        for (const source of parts.slice(0, -1)) {
          assert.ok(existsSync(join(ROOT, source)), `${source} exists`);
          assert.ok(inContext(source), `${source} is in the build context`);
        }
      }
      assert.equal(inContext(".cache/models/x.gguf"), false);
      assert.equal(inContext("node_modules/x"), false);
    });

    it("runs as a non-root user, binds 0.0.0.0:8080 and starts with `serve`", () => {
      const user = list.filter((i) => i.keyword === "USER").at(-1)?.args;
      assert.ok(user !== undefined && user !== "root" && user !== "0");
      const env = list.filter((i) => i.keyword === "ENV").flatMap((i) => i.args.split(/\s+/));
      assert.ok(env.includes("SEMIF_HOST=0.0.0.0"));
      assert.ok(env.includes("SAGEMAKER_BIND_TO_PORT=8080"));
      assert.ok(env.includes(`SEMIF_GPU_LAYERS=${image.gpuLayers}`));
      const known = new Set(SERVER_SETTINGS.flatMap((s) => s.env));
      for (const name of env.map((pair) => pair.split("=")[0] ?? "")) {
        assert.ok(
          // The MALLOC_ settings are glibc's (see local/services/startAdapterProcess.ts), read by the C library.
          known.has(name) || name === "NODE_ENV" || name.startsWith("MALLOC_") || name.startsWith("NVIDIA_"),
          `${name} is a setting the server reads`,
        );
      }
      assert.deepEqual(JSON.parse(list.find((i) => i.keyword === "ENTRYPOINT")?.args ?? "null"), [
        "node",
        "/app/bin/decisions.js",
      ]);
      assert.deepEqual(JSON.parse(list.find((i) => i.keyword === "CMD")?.args ?? "null"), ["serve"]);
      assert.ok(list.some((i) => i.keyword === "EXPOSE" && i.args === "8080"));
    });
  });
}

describe("the CPU image's build replayed on the files it COPYs", () => {
  const byStage = stages(instructions("adapter/Dockerfile"));
  let build: string;
  let app: string;

  before(async () => {
    // Build stage: exactly its COPYed files, dependencies linked, then its RUN of the compiler.
    const buildStage = byStage.get("build") ?? [];
    build = mkdtempSync(join(tmpdir(), "image-build-"));
    for (const { args } of buildStage.filter((i) => i.keyword === "COPY")) {
      for (const source of copyParts(args).sources) {
        await copyTree(join(ROOT, source), join(build, source), {
          recursive: true,
          filter: (path) => !path.endsWith(".gguf"),
        });
      }
    }
    symlinkSync(join(ROOT, "node_modules"), join(build, "node_modules"));
    assert.ok(buildStage.some((i) => i.keyword === "RUN" && i.args === "npx tsc -p tsconfig.image.json"));
    const tsc = spawnSync(
      process.execPath,
      [join(ROOT, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.image.json"],
      {
        cwd: build,
        encoding: "utf8",
      },
    );
    assert.equal(tsc.status, 0, `the build stage compiles: ${tsc.stdout}${tsc.stderr}`);
    // Runtime stage (WORKDIR /app): its COPYs from the context and from the build stage; the deps
    // stage's node_modules is stood in for by this checkout's.
    app = mkdtempSync(join(tmpdir(), "image-app-"));
    for (const { args } of (byStage.get("runtime") ?? []).filter((i) => i.keyword === "COPY")) {
      const { from, sources, destination } = copyParts(args);
      for (const source of sources) {
        if (from === "deps") continue;
        const origin = from === "build" ? join(build, source.replace(/^\/build\//, "")) : join(ROOT, source);
        const target = join(
          app,
          destination.endsWith("/") || sources.length > 1 ? join(destination, source) : destination,
        );
        await copyTree(origin, target, { recursive: true });
      }
    }
    symlinkSync(join(ROOT, "node_modules"), join(app, "node_modules"));
  });

  after(() => {
    rmSync(build, { recursive: true, force: true });
    rmSync(app, { recursive: true, force: true });
  });

  it("puts the entry point's module in the build output", () => {
    assert.ok(existsSync(join(app, "bin", "decisions.js")));
    assert.ok(existsSync(join(app, "dist", "cli", "main.js")));
    assert.ok(existsSync(join(app, "dist", "cli", "commands", "serveCommand.js")));
  });

  it("runs the ENTRYPOINT with the CMD `serve` from the runtime layout", () => {
    const entry = join(app, "bin", "decisions.js");
    const help = spawnSync(process.execPath, [entry, "serve", "--help"], { encoding: "utf8" });
    assert.equal(help.status, 0, help.stderr);
    assert.match(help.stdout, /--model/);
    assert.match(help.stdout, /SEMIF_MODEL_DIR/);
    const noModel = spawnSync(process.execPath, [entry, "serve", "--port", "0"], {
      encoding: "utf8",
      env: { ...process.env, SEMIF_MODEL_DIR: join(app, "no-model-here"), SEMIF_HOST: "127.0.0.1" },
      timeout: 30_000,
    });
    assert.equal(noModel.status, 1);
    assert.match(noModel.stdout, /"event":"startup_failed"/);
    assert.match(noModel.stdout, /no-model-here/);
  });
});
