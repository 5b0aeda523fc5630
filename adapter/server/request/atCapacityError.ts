import type { Lane } from "../../../contract/lanes/lanes.js";
import type { AdmissionGate } from "../AdmissionGate.js";
import { ServiceUnavailableError } from "../errors.js";

/**
 * The 503 for a request of `lane` that `gate` has no room for; a bulk one refused while the
 * interactive reserve still has room says so.
 */
export function atCapacityError(
  gate: AdmissionGate,
  lane: Lane,
  retryAfterSeconds: number,
): ServiceUnavailableError {
  const reserve = gate.interactiveReserve;
  if (lane === "bulk" && reserve > 0 && gate.hasRoomFor("interactive")) {
    return new ServiceUnavailableError(
      `the server is at capacity for bulk calls (its last ${reserve} waiting places are kept for interactive calls); retry the request`,
      retryAfterSeconds,
    );
  }
  return new ServiceUnavailableError("the server is at capacity; retry the request", retryAfterSeconds);
}
