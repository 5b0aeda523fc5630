import { DECIDE_SETTINGS } from "../../../contract/index.js";
import { integer, type KnobRule, setsVariable } from "./knobParsers.js";

/** The lanes' queues and decide functions: groups in flight, batches, timeouts, memory, receives, message size and retention. */
export const LANE_KNOBS: readonly KnobRule[] = [
  setsVariable(
    "maxConcurrentGroups",
    DECIDE_SETTINGS.maxConcurrentGroups,
    "`MAX_CONCURRENT_GROUPS` of the decide function: InvokeEndpoint calls one invocation has in flight",
  ),
  {
    name: "batchSize",
    defaultValue: 10,
    description:
      "most SQS messages per decide invocation of the bulk lane (more than 10 needs `batchingWindowSeconds` ≥ 1); the interactive lane takes at most its function's `MAX_CONCURRENT_GROUPS`, so no incident waits behind another in one invocation",
    parse: integer(1, 10_000),
  },
  {
    name: "batchingWindowSeconds",
    defaultValue: 1,
    description:
      "how long the event source gathers messages before invoking (larger batches, more shared groups)",
    parse: integer(0, 300),
  },
  {
    name: "functionTimeoutSeconds",
    defaultValue: 120,
    description:
      "timeout of the decide function; the work queue's visibility timeout is 6 × this + `batchingWindowSeconds`",
    parse: integer(75, 900),
  },
  {
    name: "functionMemoryMb",
    defaultValue: 1024,
    description: "memory of the decide and ingest functions (CPU share grows with it)",
    parse: integer(128, 10_240),
  },
  {
    name: "maxReceiveCount",
    defaultValue: 5,
    description:
      "receives of a message before SQS moves it to the DLQ (at least 5, so throttling alone never dead-letters)",
    parse: integer(5, 1000),
  },
  {
    name: "maxMessageBytes",
    defaultValue: 1_048_576,
    description: "largest work item (SQS message) in bytes; SQS allows up to 1 MiB",
    parse: integer(1024, 1_048_576),
  },
  {
    name: "queueRetentionDays",
    defaultValue: 4,
    description: "how long the work queue keeps a message (the DLQ keeps 14 days)",
    parse: integer(1, 14),
  },
];
