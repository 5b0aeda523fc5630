/** Types of the pipeline core: its input, what it reads an input into, and how each input ends. */

import type { Outcome, PayloadSummary } from "../outcomes/index.js";
import type { Policy } from "../policy/index.js";

/**
 * Where a work item came from. It decides the outcome's `source` and, for a body that cannot be
 * read at all, the id its `rejected` outcome is stored under (`originId`).
 */
export type ItemOrigin =
  /** A message of the work queue, as the decide function receives it. */
  | {
      kind: "sqs";
      messageId: string;
      /** `ApproximateReceiveCount` (1 on first delivery). */
      receiveCount: number;
      /** `SentTimestamp`, epoch milliseconds, when known. */
      sentAt?: number;
      /**
       * The supersede marker the message carried (`SUPERSEDE_ATTRIBUTE`): the `updated_at` of the
       * outcome it may replace, or `*` for whichever stands. Absent: an outcome that stands stays.
       */
      supersede?: string;
      /** The job line the message came from (ingest's job attributes), when it did. */
      job?: { jobId: string; line: number };
    }
  /** A line of a work-item file (`decisions classify`). */
  | {
      kind: "file";
      /** 1-based line of the file. */
      line: number;
    };

/**
 * One work item as the core takes it, whatever carried it in: its text (a work item
 * `{id, policy, state, facts?, submitted_at?}` or an EventBridge event a policy maps) and its origin.
 */
export interface WorkItemInput {
  /** The text as it arrived: the state is cut out of it as written. */
  body: string;
  origin: ItemOrigin;
  /**
   * Set when the input's bytes could not be read as text (not valid UTF-8): the input is rejected
   * under `_unparsed` with this reason, whatever `body` holds.
   */
  unreadable?: string;
}

/** An input whose body holds a valid work item for a loaded policy, ready to be grouped. */
export interface ParsedItem {
  kind: "item";
  /** Position of its input in the call. */
  index: number;
  origin: ItemOrigin;
  policy: Policy;
  id: string;
  /** The state's JSON text exactly as the producer wrote it (a slice of the body). */
  stateText: string;
  /** Python's `json.dumps` of the state: what the adapter renders; items sharing it share a request. */
  renderedState: string;
  /** The facts with the policy's defaults applied. */
  facts: Record<string, unknown>;
  submittedAt?: string;
  /** Set for an item an EventBridge mapping made. */
  event?: { source: string; detailType: string };
  /** The input's text summarised: its payload hash, and the text when small enough to keep. */
  payload?: PayloadSummary;
}

/** An input that is permanently invalid: it becomes a `rejected` outcome at once. */
export interface RejectedItem {
  kind: "rejected";
  /** Position of its input in the call. */
  index: number;
  origin: ItemOrigin;
  /** The policy named (or `_unparsed`). */
  policyName: string;
  /** The work item id, or the origin's id (`originId`) when none could be read. */
  id: string;
  reason: string;
  reasonPath?: (string | number)[];
  /** The policy, when it is loaded (its version and hash go into the outcome). */
  policy?: Policy;
  stateText?: string;
  submittedAt?: string;
  event?: { source: string; detailType: string };
  /**
   * Set when the only thing wrong is that its policy is not loaded: during a rollout the core may
   * give such an item back instead (`DecideItemsOptions.unknownPolicyWaitMs`).
   */
  unknownPolicy?: true;
  /** The input's text summarised (see {@link ParsedItem.payload}). */
  payload?: PayloadSummary;
}

/** A read input. */
export type ReadWorkItem = ParsedItem | RejectedItem;

/** Items that share a policy and a rendered state: one endpoint request. */
export interface DecisionGroup {
  policy: Policy;
  /** The first item's state text, sent to the endpoint. */
  stateText: string;
  renderedState: string;
  items: ParsedItem[];
}

/**
 * How one input ended. `recorded` and `duplicate` are settled (the input is done with);
 * `failed` is not: no outcome was written, and the input must be given back to its source to be
 * tried again (an SQS record goes into `batchItemFailures`).
 */
export type ItemResult =
  /** An outcome was written (any status: decided, overridden, fallback or rejected). */
  | {
      status: "recorded";
      outcome: Outcome;
      /** Set when it replaced an outcome (a supersede): the `updated_at` of the one replaced. */
      superseded?: string;
    }
  /** An outcome for (policy, id) stood already (a redelivery or a repeated id): the first one stands. */
  | {
      status: "duplicate";
      policy: string;
      id: string;
      /** The outcome that stands, when the sink returned it. */
      existing?: Outcome | Record<string, unknown>;
      /** Set when its payload differed from the one that stands (recorded as a conflict). */
      conflict?: boolean;
      /** Set when a supersede was asked for and refused: why. */
      refused?: string;
    }
  /**
   * A transient failure, a deadline, or a configuration that does not work (`ConfigurationError`):
   * give the input back. `policy` and `id` name the item when it could be read.
   */
  | { status: "failed"; reason: unknown; policy?: string; id?: string };
