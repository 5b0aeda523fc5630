import type { IncomingMessage } from "node:http";
import {
  CUSTOM_ATTRIBUTES_HEADER,
  DEFAULT_REQUEST_LANE,
  type Lane,
  laneOfAttributes,
} from "../../contract/lanes/lanes.js";

/**
 * The lane a request names in its `X-Amzn-SageMaker-Custom-Attributes` header (`lane=bulk`,
 * beside any other `key=value` pairs), else {@link DEFAULT_REQUEST_LANE}: when the header is
 * absent, names no lane or names one that is not a lane. Never throws: the header is the
 * caller's text, and a malformed one only loses its lane.
 *
 * @example
 * laneOfRequest(request); // "bulk" for `X-Amzn-SageMaker-Custom-Attributes: trace=1;lane=bulk`
 */
export function laneOfRequest(request: Pick<IncomingMessage, "headers">): Lane {
  const value = request.headers[CUSTOM_ATTRIBUTES_HEADER];
  // Node joins repeated unknown headers with ", "; an array is joined the same way.
  const attributes = Array.isArray(value) ? value.join(", ") : value;
  return laneOfAttributes(attributes) ?? DEFAULT_REQUEST_LANE;
}
