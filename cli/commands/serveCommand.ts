/**
 * `decisions serve`: the decision model behind the SageMaker real-time endpoint contract. The
 * container's entry point: SageMaker runs the image as `docker run <image> serve`.
 */
import { isModelKind, MODEL_KINDS, type ModelKind } from "../../adapter/models/modelKinds.js";
import { readServerConfig, SERVER_SETTINGS } from "../../adapter/server/config.js";
import { serve } from "../../adapter/server/serve.js";
import { ensureServedModel } from "../ensureServedModel.js";
import { UsageError } from "../errors.js";
import { parseCommandArgs } from "../parseCommandArgs.js";
import type { CliCommand, CliOutput } from "../types.js";

type StringFlag = { type: "string" };

/** The `util.parseArgs` options of every server setting's flag (all strings, validated by `readServerConfig`). */
export function settingFlags(): Record<string, StringFlag> {
  return Object.fromEntries(
    SERVER_SETTINGS.map((setting) => [setting.flag, { type: "string" } as StringFlag]),
  );
}

/** The setting values among parsed flags, by flag name (the flags of {@link settingFlags}). */
export function settingValues(values: object): Record<string, string | undefined> {
  const flags: Record<string, string | undefined> = {};
  for (const [flag, value] of Object.entries(values)) if (typeof value === "string") flags[flag] = value;
  return flags;
}

/** The options of every server setting, written from the settings table: flag, meaning, variables, default. */
export function settingsUsage(): string {
  const lines: string[] = [];
  for (const setting of SERVER_SETTINGS) {
    lines.push(`  --${setting.flag.padEnd(22)} ${setting.description.replaceAll("`", "")}`);
    lines.push(`  ${"".padEnd(24)} (${setting.env.join(" or ")}; default ${setting.defaultText})`);
  }
  return `${lines.join("\n")}\n`;
}

/** Usage text of `decisions serve`: every flag with its environment variable and default. */
export function serveUsage(): string {
  return [
    "usage: decisions serve [--model <file.gguf> | --generate <kind>] [options]",
    "",
    "Serves GET /ping, POST /invocations (SemIf, System One or OpenAI chat, by shape),",
    "POST /v1/systemone and POST /v1/chat/completions. Flags override the environment.",
    "",
    `  --generate <kind>        serve a generated model of that kind (${MODEL_KINDS.join(", ")}),`,
    "                           generated once into .cache/served/<kind>; random weights, real costs",
    "",
    "options (environment variables; default):",
    settingsUsage(),
  ].join("\n");
}

/** Parsed arguments of `decisions serve`. */
export interface ServeArgs {
  /** `--help` or `-h` was given. */
  help: boolean;
  /** The generated kind to serve (`--generate`), if any. */
  generate: ModelKind | undefined;
  /** Setting values by flag name (validated later, with the environment, by `readServerConfig`). */
  flags: Record<string, string | undefined>;
}

/**
 * Parses the arguments of `decisions serve` with `util.parseArgs`.
 * @throws UsageError for an unknown flag, a flag without its value, a positional argument, an
 *   unknown `--generate` kind, or `--generate` together with `--model`.
 */
export function parseServeArgs(args: readonly string[]): ServeArgs {
  const { values } = parseCommandArgs({
    args,
    options: {
      help: { type: "boolean", short: "h" },
      generate: { type: "string" },
      ...settingFlags(),
    },
    usage: serveUsage(),
  });
  const { help, generate, ...settings } = values;
  const flags = settingValues(settings);
  if (generate !== undefined && !isModelKind(generate)) {
    throw new UsageError(`--generate must be one of ${MODEL_KINDS.join(", ")}, got "${generate}"`);
  }
  if (generate !== undefined && flags.model !== undefined) {
    throw new UsageError("--generate and --model name two models: give one");
  }
  return { help: help === true, generate, flags };
}

/**
 * Serves with the given flag values (over the environment, read here once), first generating the
 * model of `generate` when one is named.
 * @returns the exit code of {@link serve}: 0 after a graceful shutdown, 1 when it cannot start.
 * @throws ServerConfigError naming every bad variable or flag.
 */
export async function serveWithFlags(
  flags: Readonly<Record<string, string | undefined>>,
  generate: ModelKind | undefined,
  output: Pick<CliOutput, "stderr"> = { stderr: process.stderr },
): Promise<number> {
  // Validated before generating: a typo in a flag should not cost a model generation first.
  const config = readServerConfig(process.env, flags);
  if (generate === undefined) return serve(config);
  return serve({ ...config, modelPath: await ensureServedModel(generate, output.stderr) });
}

/** The `serve` sub-command. Exit codes: 0 after a graceful shutdown, 1 when it cannot start, 2 on bad flags. */
export const serveCommand: CliCommand = {
  async run(args) {
    const { help, generate, flags } = parseServeArgs(args);
    if (help) {
      process.stdout.write(serveUsage());
      return 0;
    }
    return serveWithFlags(flags, generate);
  },
};
