import type { DeliveryFailure, LastAnswer } from "../../contract/delivery/DeliveryFailureSchema.js";
import type { DeliveryDlq } from "./DeliveryDlq.js";
import type { Delivery } from "./deliveriesOf.js";
import { UnknownDeliveryTargetError } from "./errors.js";
import type { ResolvedTarget } from "./resolveTargets.js";
import { type SendPorts, sendDelivery } from "./sendDelivery.js";

/** Which failures {@link redriveFailures} sends again. */
export interface RedriveSelection {
  /** Only these targets (`<policy>/<name>`, or a name matching any policy's). Default: all. */
  targets?: readonly string[];
  /** Only these delivery ids, or outcome ids. Default: all. */
  ids?: readonly string[];
  /** At most this many failures read. Default 1000. */
  max?: number;
}

/** How one failure's redrive went. */
export interface RedriveResult {
  failure: DeliveryFailure;
  delivered: boolean;
  /** The answer to the redrive's attempt, when it was not a 2xx. */
  answer?: LastAnswer;
}

/**
 * Sends the selected failures of a delivery DLQ again, one attempt each, freshly signed with the
 * target's current secret and the same `webhook-id`: a 2xx removes the failure from the DLQ;
 * anything else leaves it there, visible again, and is reported.
 *
 * @throws UnknownDeliveryTargetError when `targetOf` knows no target of a selected failure, and
 *   whatever `targetOf` throws (a secret that cannot be used); nothing is sent then.
 */
export async function redriveFailures(
  dlq: DeliveryDlq,
  targetOf: (key: string) => ResolvedTarget | undefined,
  selection: RedriveSelection,
  ports: SendPorts,
): Promise<RedriveResult[]> {
  const { failures: held } = await dlq.hold(selection.max ?? 1000);
  const chosen = held.filter(({ failure }) => selected(failure, selection));
  const skipped = held.filter((entry) => !chosen.includes(entry));
  await Promise.all(skipped.map((entry) => dlq.release(entry.receiptHandle)));
  let byKey: Map<string, ResolvedTarget>;
  try {
    byKey = new Map(
      [...new Set(chosen.map(({ failure }) => failure.target))].map((key) => {
        const target = targetOf(key);
        if (target === undefined) throw new UnknownDeliveryTargetError(key);
        return [key, target];
      }),
    );
  } catch (error) {
    await Promise.all(chosen.map((entry) => dlq.release(entry.receiptHandle)));
    throw error;
  }
  const results: RedriveResult[] = [];
  for (const { failure, receiptHandle } of chosen) {
    const target = byKey.get(failure.target) as ResolvedTarget;
    const delivery: Delivery = {
      target,
      deliveryId: failure.delivery_id,
      payload: failure.payload,
      body: JSON.stringify(failure.payload),
    };
    const result = await sendDelivery(delivery, ports);
    if (result.kind === "delivered") {
      await dlq.remove(receiptHandle);
      results.push({ failure, delivered: true });
    } else {
      await dlq.release(receiptHandle);
      results.push({ failure, delivered: false, answer: result.answer });
    }
  }
  return results;
}

function selected(failure: DeliveryFailure, selection: RedriveSelection): boolean {
  const name = failure.target.slice(failure.target.indexOf("/") + 1);
  const targetOk =
    selection.targets === undefined ||
    selection.targets.length === 0 ||
    selection.targets.some((target) => target === failure.target || target === name);
  const idOk =
    selection.ids === undefined ||
    selection.ids.length === 0 ||
    selection.ids.some((id) => id === failure.delivery_id || id === failure.payload.id);
  return targetOk && idOk;
}
