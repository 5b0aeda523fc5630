import { z } from "zod";

/**
 * The pipeline's lanes: `interactive` for work a person or a system waits on (an incident, a ticket
 * sent one at a time), `bulk` for work nobody waits on item by item (every line of a batch job).
 * Each lane has its own queue, DLQ and event source; the decide function of a lane tells the
 * endpoint its lane on every call, and the adapter serves interactive calls before waiting bulk
 * calls and keeps waiting slots for them, so a batch job never delays an incident for longer than
 * the evaluation running when it arrives.
 */
export const LANES = ["interactive", "bulk"] as const;

/** One of {@link LANES}. */
export type Lane = (typeof LANES)[number];

/** A lane's name as written in a policy, a flag or a variable. */
export const LaneSchema = z.enum(LANES);

/**
 * The lane of a request that names none (a direct caller of the adapter's API, not the pipeline):
 * interactive, since someone is waiting on it. The pipeline always names its lane.
 */
export const DEFAULT_REQUEST_LANE: Lane = "interactive";

/** Where a producer's item goes when neither the producer nor its policy names a lane. */
export const DEFAULT_ITEM_LANE: Lane = "interactive";

/** The lane every line of a batch job travels in. */
export const JOB_LANE: Lane = "bulk";

/**
 * The key of the lane in SageMaker's `CustomAttributes` (`InvokeEndpoint` forwards the value to the
 * container as the `X-Amzn-SageMaker-Custom-Attributes` header, verbatim, at most 1,024 visible
 * US-ASCII characters): `lane=bulk`. Other `key=value` pairs, separated by `;` or `,`, may stand
 * beside it.
 */
export const LANE_ATTRIBUTE = "lane";

/** The header the container reads the custom attributes from (lower case, as Node gives it). */
export const CUSTOM_ATTRIBUTES_HEADER = "x-amzn-sagemaker-custom-attributes";

/** The `CustomAttributes` value that names `lane`. */
export function laneAttributeOf(lane: Lane): string {
  return `${LANE_ATTRIBUTE}=${lane}`;
}

/**
 * The lane a `CustomAttributes` value names, or `undefined` when it names none or one that is not a
 * lane (the caller then applies its default). Never throws: the header is the caller's text.
 */
export function laneOfAttributes(attributes: string | undefined): Lane | undefined {
  if (attributes === undefined) return undefined;
  for (const pair of attributes.split(/[;,]/)) {
    const at = pair.indexOf("=");
    if (at === -1 || pair.slice(0, at).trim() !== LANE_ATTRIBUTE) continue;
    const parsed = LaneSchema.safeParse(pair.slice(at + 1).trim());
    return parsed.success ? parsed.data : undefined;
  }
  return undefined;
}
