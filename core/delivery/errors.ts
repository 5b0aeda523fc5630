/** Errors of outcome delivery (docs/deliveries.md). */

/** Base class of the delivery library's errors. */
export class DeliveryError extends Error {
  override name = "DeliveryError";
}

/**
 * A target's secret cannot be used: its `env:` variable is not set, or its value is no Standard
 * Webhooks secret. Raised before any delivery is attempted, so the operator fixes it first.
 */
export class DeliverySecretError extends DeliveryError {
  override name = "DeliverySecretError";
  constructor(
    /** `<policy>/<target>`. */
    readonly target: string,
    message: string,
  ) {
    super(`delivery target ${target}: ${message}`);
  }
}

/** `decisions deliveries redrive` met a failure whose target no loaded policy declares any more. */
export class UnknownDeliveryTargetError extends DeliveryError {
  override name = "UnknownDeliveryTargetError";
  constructor(readonly target: string) {
    super(
      `no loaded policy has the delivery target ${target}: give --policies the folder whose policy declares it, or leave it in the DLQ`,
    );
  }
}
