export { checkpointsOfEvent, UnknownIngestInputError } from "./checkpointsOfEvent.js";
export { createIngestDeps, type IngestParts } from "./createIngestDeps.js";
export { createIngestHandler, type IngestHandlerDeps } from "./createIngestHandler.js";
export { IngestLineError } from "./errors.js";
export type { IngestDeps } from "./IngestDeps.js";
export { ingestObject } from "./ingestObject.js";
export { lineId, prepareLine } from "./prepareLine.js";
export { MAX_LINE_BYTES } from "./prepareObjectLine.js";
export { type IngestConfig, readIngestConfig } from "./readIngestConfig.js";
export { splitLines } from "./splitLines.js";
export type { FailedLine, IngestCheckpoint, IngestResult, ObjectIngestResult } from "./types.js";
export {
  SEND_BATCH_BYTES,
  SEND_BATCH_ENTRIES,
  TransientWorkQueueError,
  WorkQueueError,
  WorkQueueSender,
} from "./WorkQueueSender.js";
