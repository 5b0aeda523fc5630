import type { Setting } from "./Setting.js";
import { nonEmptyTextSetting, textSetting } from "./settingSchemas.js";

/**
 * The deliver function's environment (`functions/deliver/readDeliverConfig.ts` reads it at cold
 * start; the CDK app's `OutcomeDeliveries` writes it). A target's `env:NAME` secret is the variable
 * NAME, which the CDK app sets from the Secrets Manager secret NAME.
 */
export const DELIVER_SETTINGS = {
  dlqUrls: {
    env: ["DELIVERY_DLQ_URLS"],
    schema: nonEmptyTextSetting,
    default: { required: true },
    doc: "a JSON object: each delivery target (`<policy>/<name>`) → the URL of its delivery DLQ",
  },
  policyDir: {
    env: ["POLICY_DIR"],
    schema: textSetting,
    default: { text: "the policies bundled beside the handler" },
    doc: "the folder of `*.yaml` policies whose `deliver:` sections name the targets",
  },
} as const satisfies Record<string, Setting<unknown>>;
