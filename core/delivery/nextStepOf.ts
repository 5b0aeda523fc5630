import type { LastAnswer } from "../../contract/delivery/DeliveryFailureSchema.js";
import type { DeliverySchedule } from "../../contract/delivery/deliverySchedule.js";
import type { AttemptResult } from "./attemptDelivery.js";
import { retryDelayMs } from "./retryDelayMs.js";

/** What follows an attempt. */
export type NextStep =
  | { kind: "delivered" }
  | { kind: "wait"; delayMs: number; answer: LastAnswer }
  | { kind: "give-up"; reason: string; answer: LastAnswer };

/**
 * What follows attempt number `attempt` (1 for the first) that came to `result`, by `schedule`:
 * delivered; a wait before the next attempt ({@link retryDelayMs}); or giving up — at once on a
 * refused answer, after the schedule's last attempt otherwise — with the reason the DLQ keeps.
 */
export function nextStepOf(
  result: AttemptResult,
  attempt: number,
  schedule: DeliverySchedule,
  random: () => number,
): NextStep {
  if (result.kind === "delivered") return { kind: "delivered" };
  if (result.kind === "refused") {
    const status = "status" in result.answer ? result.answer.status : 0;
    return {
      kind: "give-up",
      answer: result.answer,
      reason: `the receiver refused it with HTTP ${status}: another attempt would get the same (fix the receiver or the target, then redrive)`,
    };
  }
  if (attempt >= schedule.attempts) {
    const last = "status" in result.answer ? `HTTP ${result.answer.status}` : result.answer.error;
    return {
      kind: "give-up",
      answer: result.answer,
      reason: `no 2xx after ${attempt} attempts (the last: ${last}); redrive once the receiver answers`,
    };
  }
  return {
    kind: "wait",
    answer: result.answer,
    delayMs: retryDelayMs(attempt, schedule, random, result.retryAfterMs),
  };
}
