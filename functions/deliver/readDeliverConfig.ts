import { DELIVER_SETTINGS } from "../../contract/index.js";
import { ConfigError } from "../../core/common/ConfigError.js";
import { parseEnvironment } from "../../core/common/envSchemas.js";

/** The deliver function's configuration, read once at cold start ({@link DELIVER_SETTINGS}). */
export interface DeliverConfig {
  /** `DELIVERY_DLQ_URLS`: each target (`<policy>/<name>`) → its delivery DLQ's URL. */
  dlqUrls: Record<string, string>;
  /** `POLICY_DIR`: the policies bundled beside the handler. */
  policyDir: string;
}

/**
 * Reads and validates the deliver function's environment.
 * @throws ConfigError naming every missing or invalid variable.
 */
export function readDeliverConfig(env: Readonly<Record<string, string | undefined>>): DeliverConfig {
  const { dlqUrls, policyDir } = parseEnvironment("deliver", DELIVER_SETTINGS, env);
  let parsed: unknown;
  try {
    parsed = JSON.parse(dlqUrls);
  } catch (error) {
    throw new ConfigError("deliver", [
      { variable: "DELIVERY_DLQ_URLS", message: `is not JSON (${(error as Error).message})` },
    ]);
  }
  const valid =
    typeof parsed === "object" &&
    parsed !== null &&
    Object.values(parsed).every((url) => typeof url === "string" && url !== "");
  if (!valid)
    throw new ConfigError("deliver", [
      { variable: "DELIVERY_DLQ_URLS", message: "must be a JSON object of target → DLQ URL" },
    ]);
  return {
    dlqUrls: parsed as Record<string, string>,
    policyDir: policyDir === undefined || policyDir === "" ? "/var/task/policies" : policyDir,
  };
}
