import { AbortedError } from "./errors.js";

/** Throws {@link AbortedError} (the signal's reason as its cause) when the signal has aborted. */
export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new AbortedError(undefined, { cause: signal.reason });
}
