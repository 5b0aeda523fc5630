import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { z } from "zod";
import { ConsoleSiteBuildError } from "./errors.js";

/**
 * The console side's entry that bundles the page with esbuild and writes it into a folder. Named by
 * path, not imported: infra/ imports only infra/ and contract/.
 */
const SITE_MAIN = fileURLToPath(new URL("../../console/writeConsoleSiteMain.ts", import.meta.url));

/** How long building the page may take (a child process of Node with tsx and esbuild). */
const SITE_TIMEOUT_MS = 120_000;

const SiteSchema = z.object({
  files: z.array(z.string().min(1)).min(1),
  contentSecurityPolicy: z.string().min(1),
});

/** The review console's static site as built at synth. */
export interface ConsoleSite {
  /** The folder holding the files (deployed as one asset). */
  folder: string;
  /** The file names, e.g. `index.html`, `app.js`, `styles.css`. */
  files: string[];
  /** The content security policy the console's pages are written for (the local server sends the same). */
  contentSecurityPolicy: string;
}

/**
 * Builds the review console's page (`console/web`, bundled by esbuild, nothing fetched at run
 * time) into a fresh temporary folder, in a child process running `console/writeConsoleSiteMain.ts`.
 *
 * @throws ConsoleSiteBuildError with esbuild's message when the page does not build.
 */
export function readConsoleSite(): ConsoleSite {
  const folder = mkdtempSync(join(tmpdir(), "review-console-site-"));
  let output: string;
  try {
    output = execFileSync(process.execPath, ["--import", import.meta.resolve("tsx"), SITE_MAIN, folder], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      timeout: SITE_TIMEOUT_MS,
    });
  } catch (error) {
    const stderr = (error as { stderr?: unknown }).stderr;
    const detail = typeof stderr === "string" && stderr.trim() !== "" ? stderr.trim() : String(error);
    throw new ConsoleSiteBuildError(detail, { cause: error });
  }
  const parsed = SiteSchema.safeParse(JSON.parse(output));
  if (!parsed.success) throw new ConsoleSiteBuildError(`malformed answer: ${parsed.error.message}`);
  return { folder, ...parsed.data };
}
