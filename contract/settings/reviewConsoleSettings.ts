import type { Setting } from "./Setting.js";
import { nonEmptyTextSetting, textSetting } from "./settingSchemas.js";

/**
 * The deployed review console's API function's environment (`functions/reviewConsole/readReviewConsoleConfig.ts`
 * reads it at cold start; the CDK app's `ReviewConsoleApi` writes it).
 */
export const REVIEW_CONSOLE_SETTINGS = {
  outcomesTable: {
    env: ["OUTCOMES_TABLE"],
    schema: nonEmptyTextSetting,
    default: { required: true },
    doc: "the outcomes table the reviewers read and review",
  },
  policyDir: {
    env: ["POLICY_DIR"],
    schema: textSetting,
    default: { text: "the policies bundled beside the handler" },
    doc: "the folder of `*.yaml` policies whose outcomes are reviewed",
  },
} as const satisfies Record<string, Setting<unknown>>;
