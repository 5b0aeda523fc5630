import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { fileURLToPath } from "node:url";

/** One file of the console's static site. */
export interface ConsoleAsset {
  contentType: string;
  body: Buffer;
}

/** The content security policy of every console page: no inline script or style, nothing from elsewhere. */
export const CONSOLE_CONTENT_SECURITY_POLICY =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self' https://*.amazoncognito.com; base-uri 'none'; form-action 'self'; frame-ancestors 'none'";

/** The console's web sources, found from this module in the sources and in the build (`dist/console/`). */
export function consoleWebDir(): string {
  const sources = fileURLToPath(new URL("./web/", import.meta.url));
  return existsSync(`${sources}app.ts`)
    ? sources
    : fileURLToPath(new URL("../../console/web/", import.meta.url));
}

/**
 * The page's settings file, which the page reads first. These assets hold the local console's
 * (`{"api": ""}`: the API on the same origin, no sign-in), so `decisions up` answers it instead of
 * a 404 that every browser would log as an error; the deployed site leaves it out and gets the
 * deployment's own (the API's base and the sign-in settings) from the CDK app.
 */
export const CONSOLE_CONFIG_FILE = "config.json";

/**
 * Builds the console's static site in memory: `index.html`, `styles.css`, `app.js` (the Preact
 * app bundled by esbuild, minified, no source fetched at run time) and the local
 * {@link CONSOLE_CONFIG_FILE}. esbuild is a build tool (a dev dependency), so this runs where the
 * sources are: `decisions up` and the CDK synth.
 *
 * @throws Error from esbuild when the sources do not build.
 */
export async function buildConsoleAssets(): Promise<Map<string, ConsoleAsset>> {
  const dir = consoleWebDir();
  const { build } = await import("esbuild");
  const bundle = await build({
    entryPoints: [`${dir}app.ts`],
    bundle: true,
    format: "esm",
    target: "es2022",
    platform: "browser",
    minify: true,
    write: false,
    legalComments: "none",
    logLevel: "silent",
  });
  const script = bundle.outputFiles[0];
  if (script === undefined) throw new Error("esbuild produced no bundle for the review console");
  return new Map([
    ["index.html", { contentType: "text/html; charset=utf-8", body: await readFile(`${dir}index.html`) }],
    ["styles.css", { contentType: "text/css; charset=utf-8", body: await readFile(`${dir}styles.css`) }],
    ["app.js", { contentType: "text/javascript; charset=utf-8", body: Buffer.from(script.contents) }],
    [
      CONSOLE_CONFIG_FILE,
      {
        contentType: "application/json; charset=utf-8",
        body: Buffer.from(`${JSON.stringify({ api: "" })}\n`),
      },
    ],
  ]);
}
