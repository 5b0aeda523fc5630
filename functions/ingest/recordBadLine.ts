import { truncateText } from "../../core/common/truncateText.js";
import type { Outcome } from "../../core/outcomes/index.js";
import { REASON_CHARS, summarizeState } from "../../core/outcomes/index.js";
import { farDeadline } from "./farDeadline.js";
import type { IngestDeps } from "./IngestDeps.js";
import { type BadLine, lineId } from "./prepareLine.js";
import type { IngestedObject } from "./types.js";

/**
 * Records a bad line as a `rejected` outcome (its id, or {@link lineId} when it has none; its
 * reason cut to `REASON_CHARS`; the line's text summarised as the state). A line already recorded
 * is logged, not an error.
 * @throws what the outcome store throws (its classes tell a transient failure from a lasting one).
 */
export async function recordBadLine(
  bad: BadLine,
  origin: IngestedObject & { line: number; jobId?: string },
  text: string,
  deps: Pick<IngestDeps, "clock" | "outcomes" | "logger">,
): Promise<void> {
  const at = new Date(deps.clock.now()).toISOString();
  const id = bad.id === "" ? lineId(origin) : bad.id;
  // Cut here by code points; the store bounds every field again (boundOutcomeSize).
  const outcome: Outcome = {
    policy: bad.policy,
    id,
    policy_status: `${bad.policy}#rejected`,
    status: "rejected",
    reason: truncateText(bad.reason, REASON_CHARS),
    ...(bad.path !== undefined ? { reason_path: bad.path } : {}),
    rules_fired: [],
    source: {
      kind: "s3",
      bucket: origin.bucket,
      key: origin.key,
      ...(origin.versionId !== undefined ? { version_id: origin.versionId } : {}),
      line: origin.line,
      ...(origin.jobId !== undefined ? { job_id: origin.jobId } : {}),
    },
    created_at: at,
    updated_at: at,
    ...(text !== "" ? summarizeState(text) : {}),
  };
  const recorded = await deps.outcomes.record(outcome, { deadline: farDeadline(deps.clock) });
  if (!recorded.recorded) deps.logger.info("bad line already recorded", { policy: bad.policy, id });
}
