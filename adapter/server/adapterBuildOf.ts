import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { DecisionEngine } from "../engine/types.js";
import { packageRoot } from "../models/packageRoot.js";

let packageVersion: string | undefined;

/**
 * The adapter build an answer names (`adapter_build`, recorded in every outcome): this package's
 * version and, for the node-llama-cpp engine, the llama.cpp release and which binary runs it
 * (`prebuilt`, or a `localBuild` made by `decisions build-llama`), e.g.
 * `decisions 0.1.0 (llama.cpp b7314, prebuilt)`. The version is read once from the package.json
 * beside the code (the image ships it).
 */
export function adapterBuildOf(engine: DecisionEngine): string {
  packageVersion ??= readPackageVersion();
  const binding = (engine as { binding?: { buildType?: unknown; release?: unknown } }).binding;
  const llama =
    binding !== undefined && typeof binding.release === "string"
      ? ` (llama.cpp ${binding.release}, ${String(binding.buildType)})`
      : "";
  return `decisions ${packageVersion}${llama}`;
}

function readPackageVersion(): string {
  try {
    const { version } = JSON.parse(readFileSync(join(packageRoot(), "package.json"), "utf8")) as {
      version?: unknown;
    };
    return typeof version === "string" ? version : "unknown";
  } catch {
    return "unknown";
  }
}
