/**
 * The review console's page: `web/` holds it (Preact + htm, bundled by esbuild), `buildConsoleAssets`
 * bundles it for the local server of `decisions up` and for the deployed site. The API it calls is
 * `functions/reviewConsole`.
 */

export {
  buildConsoleAssets,
  CONSOLE_CONTENT_SECURITY_POLICY,
  type ConsoleAsset,
} from "./buildConsoleAssets.js";
