import type { InfraKnob } from "./InfraSettings.js";
import { CAPACITY_KNOBS } from "./knobs/capacityKnobs.js";
import { ENDPOINT_KNOBS } from "./knobs/endpointKnobs.js";
import { INTAKE_KNOBS } from "./knobs/intakeKnobs.js";
import type { KnobRule } from "./knobs/knobParsers.js";
import { LANE_KNOBS } from "./knobs/laneKnobs.js";
import { MONITORING_KNOBS } from "./knobs/monitoringKnobs.js";
import { SECOND_ENDPOINT_KNOBS } from "./knobs/secondEndpointKnobs.js";

/**
 * Every knob with its parser, by concern, in the order `cdk.json`, the README's table and
 * docs/configuration.md list them (and problems are reported in).
 */
export const KNOB_RULES: readonly KnobRule[] = [
  ...ENDPOINT_KNOBS,
  ...CAPACITY_KNOBS,
  ...LANE_KNOBS,
  ...INTAKE_KNOBS,
  ...MONITORING_KNOBS,
  ...SECOND_ENDPOINT_KNOBS,
];

/** Every context knob with its default and meaning (the README table and `cdk.json` list the same). */
export const INFRA_KNOBS: readonly InfraKnob[] = KNOB_RULES.map(({ parse: _parse, ...knob }) => knob);
