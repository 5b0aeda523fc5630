import fc from "fast-check";
import type { PolicySet } from "../../core/policy/index.js";
// The two property runs by their own files: reliability's index also holds the load runner (autocannon).
import { checkPolicyLoading } from "../reliability/checkPolicyLoading.js";
import { checkRecordParsing } from "../reliability/checkRecordParsing.js";
import type { ChaosWorkload } from "./buildChaosWorkload.js";
import type { PropertyChecks } from "./chaosRunTypes.js";

/** Poison the record parser itself must reject (the rest is refused by the adapter, then rejected). */
const PARSER_REJECTS = new Set<string>(["invalid-json", "wrong-types", "unknown-policy", "wrong-facts"]);

/**
 * The property runs of reliability/ (record parsing: never a crash nor a half outcome, only an item
 * or a clear rejection; policy loading: a policy or a load error naming file, line and field), with
 * this run's poison bodies among the generated ones. They throw fast-check's counterexample.
 */
export function runPropertyChecks(
  cases: number,
  policies: PolicySet,
  workload: ChaosWorkload,
  seed: number,
  log: (line: string) => void,
): PropertyChecks | undefined {
  if (cases <= 0) return undefined;
  const started = performance.now();
  const poison = workload.items.flatMap((item, index) =>
    item.kind === "poison"
      ? workload.messages
          .filter((message) => message.item === index)
          .map((message) => ({
            body: message.body,
            origin: `chaos poison ${item.origin}`,
            // An oversized state or chat-control text is a valid record: the adapter refuses it (4xx).
            ...(PARSER_REJECTS.has(item.origin) ? { mustReject: item.origin } : {}),
          }))
      : [],
  );
  const recordParsing = checkRecordParsing(policies, {
    numRuns: cases,
    seed,
    ...(poison.length > 0 ? { bodies: fc.constantFrom(...poison) } : {}),
  });
  const policyLoading = checkPolicyLoading({ numRuns: cases, seed });
  const durationS = (performance.now() - started) / 1000;
  log(
    `property checks: ${recordParsing.cases} record bodies (${recordParsing.rejected} rejected), ` +
      `${policyLoading.cases} policy files (${policyLoading.refused} refused) in ${durationS.toFixed(1)} s`,
  );
  return { recordParsing, policyLoading, durationS };
}
