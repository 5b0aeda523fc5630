import type { ItemOrigin } from "./types.js";

/** The id an input is stored under when its body gives none: the SQS message id, or `line-<n>`. */
export function originId(origin: ItemOrigin): string {
  return origin.kind === "sqs" ? origin.messageId : `line-${origin.line}`;
}
