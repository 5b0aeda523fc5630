/**
 * `decisions serve`: the decision model behind the SageMaker real-time endpoint contract. The
 * container's entry point: SageMaker runs the image as `docker run <image> serve`.
 */
import { parseArgs } from "node:util";
import { readServerConfig, SERVER_SETTINGS } from "../server/config.js";
import { serve } from "../server/serve.js";
import { type CliCommand, UsageError } from "./main.js";

/** Usage text of `decisions serve`: every flag with its environment variable and default. */
export function serveUsage(): string {
  const lines = [
    "usage: decisions serve [--model <file.gguf>] [--port 8080] [--host 127.0.0.1] [options]",
    "",
    "Serves GET /ping, POST /invocations (SemIf, System One or OpenAI chat, by shape),",
    "POST /v1/systemone and POST /v1/chat/completions. Flags override the environment.",
    "",
    "options (environment variable, default):",
  ];
  for (const setting of SERVER_SETTINGS) {
    lines.push(`  --${setting.flag.padEnd(22)} ${setting.description}`);
    lines.push(`  ${"".padEnd(24)} (${setting.env.join(" or ")}, default ${setting.defaultText})`);
  }
  return `${lines.join("\n")}\n`;
}

/**
 * Parses the flags of `decisions serve` into values by flag name (validated later, with the
 * environment, by `readServerConfig`).
 * @throws UsageError for an unknown flag, a flag without its value, or a positional argument.
 */
export function parseServeArgs(args: readonly string[]): {
  help: boolean;
  flags: Record<string, string | undefined>;
} {
  const options: Record<string, { type: "string" } | { type: "boolean"; short?: string }> = {
    help: { type: "boolean", short: "h" },
  };
  for (const setting of SERVER_SETTINGS) options[setting.flag] = { type: "string" };
  // `--gpu-layers -1`: parseArgs takes a value starting with "-" for a flag, so join negative numbers.
  const joined: string[] = [];
  for (const arg of args) {
    const previous = joined.at(-1);
    if (
      previous !== undefined &&
      /^-\d+$/.test(arg) &&
      options[previous.replace(/^--/, "")]?.type === "string"
    ) {
      joined[joined.length - 1] = `${previous}=${arg}`;
    } else {
      joined.push(arg);
    }
  }
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({ args: joined, options, strict: true, allowPositionals: false });
  } catch (error) {
    throw new UsageError(error instanceof Error ? error.message : String(error), { cause: error });
  }
  const flags: Record<string, string | undefined> = {};
  for (const setting of SERVER_SETTINGS) {
    const value = parsed.values[setting.flag];
    if (typeof value === "string") flags[setting.flag] = value;
  }
  return { help: parsed.values.help === true, flags };
}

/** The `serve` sub-command. Exit codes: 0 after a graceful shutdown, 1 when it cannot start, 2 on bad flags. */
export const serveCommand: CliCommand = {
  summary: "serve the decision model on the SageMaker contract (GET /ping, POST /invocations)",
  async run(args) {
    const { help, flags } = parseServeArgs(args);
    if (help) {
      process.stdout.write(serveUsage());
      return 0;
    }
    // The environment is read here, once; everything below receives the validated config.
    const config = readServerConfig(process.env, flags);
    return serve(config);
  },
};
