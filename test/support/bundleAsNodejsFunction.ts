/**
 * A handler bundled as CDK's NodejsFunction bundles it for ESM (esbuild: bundle, platform node,
 * format esm, node22), so tests can check what the deployed bundle holds and that it starts.
 */
import { build, type Metafile } from "esbuild";

/** Bundles `entry` into `outfile`; returns esbuild's metafile (the inputs the bundle holds). */
export async function bundleAsNodejsFunction(entry: string, outfile: string): Promise<Metafile> {
  const result = await build({
    entryPoints: [entry],
    outfile,
    bundle: true,
    platform: "node",
    format: "esm",
    target: "node22",
    metafile: true,
    logLevel: "silent",
    // As CDK's NodejsFunction does for ESM: CommonJS dependencies get a `require`.
    banner: {
      js: "import { createRequire } from 'node:module'; const require = createRequire(import.meta.url);",
    },
  });
  return result.metafile;
}
