import type { RoutePlan } from "../../local/stack/LocalStackPlan.js";
import { loadStackTemplate } from "../../local/stack/loadStackTemplate.js";
import { readStackTemplate } from "../../local/stack/readStackTemplate.js";

/**
 * The review console's HTTP API routes as the default template declares them (the template
 * `loadStackTemplate` caches; synthesized when out of date), for a test that starts the local
 * console as `decisions up` does.
 */
export async function templateConsoleRoutes(): Promise<RoutePlan[]> {
  return readStackTemplate(await loadStackTemplate()).consoleRoutes;
}
