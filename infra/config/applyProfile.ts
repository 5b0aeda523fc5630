import type { InfraSettings } from "./InfraSettings.js";

/** Fewest instances of the `production` profile: SageMaker places a variant's instances in several AZs. */
const PRODUCTION_MIN_INSTANCES = 2;
/** The autoscaling ceiling `production` raises a lower `maxInstances` to. */
const PRODUCTION_MAX_INSTANCES = 4;

/**
 * `profile=production` raises the instance bounds to at least {@link PRODUCTION_MIN_INSTANCES} and
 * {@link PRODUCTION_MAX_INSTANCES} (cdk.json lists every knob at its default, so a value cannot be
 * told apart from one given with `-c`: the profile raises, never lowers).
 */
export function applyProfile(settings: InfraSettings): InfraSettings {
  if (settings.profile !== "production") return settings;
  return {
    ...settings,
    minInstances: Math.max(settings.minInstances, PRODUCTION_MIN_INSTANCES),
    maxInstances: Math.max(settings.maxInstances, PRODUCTION_MAX_INSTANCES),
  };
}
