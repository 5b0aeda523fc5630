import { createHash } from "node:crypto";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { join, relative } from "node:path";
import { packageRoot } from "../../adapter/models/packageRoot.js";
import { StackTemplateError } from "../errors.js";
import type { CfnTemplate } from "./cfnTemplate.js";

/** Options of {@link loadStackTemplate}. */
export interface LoadStackTemplateOptions {
  /** The checkout whose CDK app is synthesized. Default: this package's folder. */
  projectRoot?: string;
  /** Context overrides, as `cdk synth -c knob=value` gives them. Default none: cdk.json as it is. */
  overrides?: Readonly<Record<string, unknown>>;
  /** Where synthesized templates are kept. Default `<projectRoot>/.cache/stack-template` (git-ignored). */
  cacheDir?: string;
  /** Told whether the template came from the cache or was synthesized, and how long that took. Default: nothing. */
  log?: (line: string) => void;
  /** Synthesizes the template on a cache miss. Default: the CDK app (`synthesizeStackTemplate`, loaded only then). */
  synthesize?: (projectRoot: string, overrides: Readonly<Record<string, unknown>>) => Promise<CfnTemplate>;
}

/**
 * What the template is synthesized from, hashed: the CDK app (`infra/`), the contracts it reads
 * (`contract/`), the policies it deploys (`policies/`), its context (`cdk.json`), the locked
 * versions of aws-cdk-lib and the rest (`package-lock.json`), the synthesizer, and the overrides.
 */
const SOURCES = [
  "infra",
  "contract",
  "policies",
  "cdk.json",
  "package-lock.json",
  "local/stack/synthesizeStackTemplate.ts",
];

/**
 * The template `cdk deploy` would send for cdk.json's context (and the overrides), synthesized in
 * this process and kept in `cacheDir` under the hash of what it is synthesized from
 * ({@link SOURCES}), so that a second start reads it (milliseconds) instead of synthesizing again
 * (about 10 s of CPU). A cache that cannot be read or written is passed by, never a failure.
 *
 * @throws {StackTemplateError} when the CDK app cannot be loaded (its development dependencies,
 *   aws-cdk-lib among them, are not installed: run `npm ci`) or does not synthesize (its own error).
 */
export async function loadStackTemplate(options: LoadStackTemplateOptions = {}): Promise<CfnTemplate> {
  const projectRoot = options.projectRoot ?? packageRoot();
  const overrides = options.overrides ?? {};
  const cacheDir = options.cacheDir ?? join(projectRoot, ".cache", "stack-template");
  const log = options.log ?? (() => undefined);
  const file = join(cacheDir, `${sourcesHash(projectRoot, overrides)}.json`);
  const cached = readCached(file, log);
  if (cached !== undefined) {
    log(`the stack's template read from ${relative(projectRoot, file)}`);
    return cached;
  }
  const begin = performance.now();
  const template = await (options.synthesize ?? synthesize)(projectRoot, overrides);
  writeCached(file, template, log);
  log(
    `the stack's template synthesized (${((performance.now() - begin) / 1000).toFixed(1)} s), kept in ${relative(projectRoot, file)}`,
  );
  return template;
}

function sourcesHash(projectRoot: string, overrides: Readonly<Record<string, unknown>>): string {
  const hash = createHash("sha256").update(JSON.stringify(overrides));
  for (const source of SOURCES) {
    for (const path of filesOf(join(projectRoot, source))) {
      hash.update(relative(projectRoot, path)).update("\0").update(readFileSync(path)).update("\0");
    }
  }
  return hash.digest("hex").slice(0, 32);
}

function filesOf(path: string): string[] {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name))
    .sort();
}

function readCached(file: string, log: (line: string) => void): CfnTemplate | undefined {
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, "utf8")) as CfnTemplate;
  } catch (error) {
    log(
      `the cached template ${file} is not readable (${error instanceof Error ? error.message : error}): synthesizing again`,
    );
    return undefined;
  }
}

function writeCached(file: string, template: CfnTemplate, log: (line: string) => void): void {
  try {
    mkdirSync(join(file, ".."), { recursive: true });
    // Written beside, then renamed: starts running at once never read half a file.
    const partial = `${file}.${process.pid}.partial`;
    writeFileSync(partial, JSON.stringify(template));
    renameSync(partial, file);
  } catch (error) {
    log(
      `the template could not be cached in ${file} (${error instanceof Error ? error.message : error}): the next start synthesizes again`,
    );
  }
}

async function synthesize(
  projectRoot: string,
  overrides: Readonly<Record<string, unknown>>,
): Promise<CfnTemplate> {
  let module: typeof import("./synthesizeStackTemplate.js");
  try {
    module = await import("./synthesizeStackTemplate.js");
  } catch (error) {
    throw new StackTemplateError(
      `the CDK app could not be loaded to synthesize the template the local stack is built from (${error instanceof Error ? error.message : error}); install the development dependencies (npm ci, aws-cdk-lib among them)`,
      { cause: error },
    );
  }
  try {
    return module.synthesizeStackTemplate(projectRoot, overrides).template;
  } catch (error) {
    throw new StackTemplateError(
      `the CDK app did not synthesize: ${error instanceof Error ? error.message : error}; fix it (npx cdk synth shows the same error)`,
      { cause: error },
    );
  }
}
