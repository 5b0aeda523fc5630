/** Types shared by the decide function's units. */

import type { Outcome } from "../outcomes/index.js";
import type { Policy } from "../policy/index.js";

/** What the decide function knows about the SQS record an item came in. */
export interface RecordInfo {
  /** Position in the batch. */
  index: number;
  messageId: string;
  /** `ApproximateReceiveCount` (1 on first delivery). */
  receiveCount: number;
  /** `SentTimestamp`, epoch milliseconds, when present. */
  sentAt?: number;
}

/** A record that holds a valid work item for a loaded policy, ready to be grouped. */
export interface ParsedItem {
  kind: "item";
  record: RecordInfo;
  policy: Policy;
  id: string;
  /** The state's JSON text exactly as the producer wrote it (a slice of the SQS body). */
  stateText: string;
  /** Python's `json.dumps` of the state: what the adapter renders; items sharing it share a request. */
  renderedState: string;
  /** The facts with the policy's defaults applied. */
  facts: Record<string, unknown>;
  submittedAt?: string;
  /** Set for an item an EventBridge mapping made. */
  event?: { source: string; detailType: string };
}

/** A record that is permanently invalid: it becomes a `rejected` outcome at once. */
export interface RejectedRecord {
  kind: "rejected";
  record: RecordInfo;
  /** The policy named (or `_unparsed`). */
  policyName: string;
  /** The work item id, or the message id when none could be read. */
  id: string;
  reason: string;
  reasonPath?: (string | number)[];
  /** The policy, when it is loaded (its version and hash go into the outcome). */
  policy?: Policy;
  stateText?: string;
  submittedAt?: string;
  event?: { source: string; detailType: string };
}

/** A parsed SQS record. */
export type ParsedRecord = ParsedItem | RejectedRecord;

/** Items that share a policy and a rendered state: one endpoint request. */
export interface DecisionGroup {
  policy: Policy;
  /** The first item's state text, sent to the endpoint. */
  stateText: string;
  renderedState: string;
  items: ParsedItem[];
}

/** How one record ended, as the handler's settled result. */
export type RecordResult =
  | { status: "recorded"; outcome: Outcome }
  /** An outcome existed already (a redelivery or duplicate): the first stands. */
  | { status: "duplicate"; policy: string; id: string };
