import type { Node } from "constructs";
import { applyProfile } from "./applyProfile.js";
import { crossChecks } from "./crossChecks.js";
import { InfraConfigError, type InfraConfigProblem } from "./errors.js";
import type { InfraSettings } from "./InfraSettings.js";
import { KNOB_RULES } from "./infraKnobs.js";

/** Context keys that look like ours (plain camelCase) but are none: a typo, refused. */
const OUR_KEY_SHAPE = /^[a-z][A-Za-z0-9]*$/;

/**
 * Reads and validates the CDK context (`cdk.json` "context", overridden by `-c knob=value`) into
 * {@link InfraSettings}. Defaults are applied here and nowhere else. Numbers and booleans may be
 * given as strings (as `-c` gives them), lists as JSON arrays or comma-separated strings.
 *
 * @param node the app's node (`app.node`), whose context is read.
 * @throws {InfraConfigError} naming every invalid or unknown knob at once.
 */
export function readInfraSettings(node: Node): InfraSettings {
  const problems: InfraConfigProblem[] = [];
  const parsed: Partial<Record<keyof InfraSettings, unknown>> = {};
  for (const rule of KNOB_RULES) {
    const raw: unknown = node.tryGetContext(rule.name) ?? rule.defaultValue;
    try {
      parsed[rule.name] = rule.parse(raw);
    } catch (error) {
      problems.push({ knob: rule.name, message: (error as Error).message });
    }
  }
  const known = new Set<string>(KNOB_RULES.map((rule) => rule.name));
  for (const key of Object.keys(node.getAllContext())) {
    if (OUR_KEY_SHAPE.test(key) && !known.has(key)) {
      problems.push({ knob: key, message: "is not a knob of this app (see the README's table of knobs)" });
    }
  }
  if (problems.length > 0) throw new InfraConfigError(problems);

  const settings = applyProfile(parsed as InfraSettings);
  problems.push(...crossChecks(settings));
  if (problems.length > 0) throw new InfraConfigError(problems);
  return settings;
}
