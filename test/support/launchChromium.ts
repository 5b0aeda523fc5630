/**
 * Debian's Chromium driven by playwright-core for browser tests (Playwright never downloads a
 * browser here). Root needs --no-sandbox; the background-networking flags keep Chromium from
 * calling out of a machine whose network is closed.
 */
import { existsSync } from "node:fs";
import { type Browser, chromium } from "playwright-core";

/** Where the system's Chromium is, or undefined. `CHROMIUM_PATH` overrides. */
export function chromiumPath(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const candidates = [env.CHROMIUM_PATH, "/usr/bin/chromium", "/usr/bin/chromium-browser"];
  return candidates.find((path): path is string => path !== undefined && path !== "" && existsSync(path));
}

/** Why a browser test cannot run here, or undefined when it can; `DECISIONS_BROWSER_TEST=required` makes absence an error. */
export function browserSkipReason(env: NodeJS.ProcessEnv = process.env): string | undefined {
  if (chromiumPath(env) !== undefined) return undefined;
  const why = "no Chromium (apt-get install chromium, or set CHROMIUM_PATH)";
  if (env.DECISIONS_BROWSER_TEST === "required") throw new Error(`browser tests are required but ${why}`);
  return why;
}

/** Launches headless Chromium on loopback only. */
export async function launchChromium(): Promise<Browser> {
  const executablePath = chromiumPath();
  if (executablePath === undefined) throw new Error("no Chromium found");
  return chromium.launch({
    executablePath,
    headless: true,
    args: [
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  });
}
