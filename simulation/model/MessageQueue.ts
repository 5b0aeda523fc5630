/**
 * Messages that travel together through the model: `count` lines with the same history. Bulk
 * lines travel in parts of many; an interactive item is a part of one (its send time matters).
 */
export interface MessagePart {
  count: number;
  /** Receives so far (SQS's ApproximateReceiveCount; a re-queued copy starts again at 0). */
  receives: number;
  /** Re-queues of these lines for capacity so far. */
  requeues: number;
  /** When the first copy was sent (seconds). */
  sentAt: number;
  interactive: boolean;
}

/**
 * An SQS standard queue's visible messages, oldest first (SQS does not promise the order; the
 * model keeps arrival order). Invisible messages are not here: a received message is the batch's
 * until it is deleted, re-queued as a copy or its visibility timeout ends (the caller puts it back).
 */
export class MessageQueue {
  readonly #parts: MessagePart[] = [];
  #head = 0;
  #visible = 0;

  /** Visible messages (SQS's ApproximateNumberOfMessagesVisible). */
  visible(): number {
    return this.#visible;
  }

  /** Makes `part` visible. */
  push(part: MessagePart): void {
    if (part.count <= 0) return;
    this.#parts.push(part);
    this.#visible += part.count;
  }

  /** Receives up to `limit` messages, oldest first; their receive count goes up by one. */
  take(limit: number): MessagePart[] {
    const taken: MessagePart[] = [];
    let left = limit;
    while (left > 0 && this.#head < this.#parts.length) {
      const part = this.#parts[this.#head] as MessagePart;
      const n = Math.min(left, part.count);
      taken.push({ ...part, count: n, receives: part.receives + 1 });
      part.count -= n;
      left -= n;
      this.#visible -= n;
      if (part.count === 0) this.#head += 1;
    }
    if (this.#head > 1024 && this.#head * 2 > this.#parts.length) {
      this.#parts.splice(0, this.#head);
      this.#head = 0;
    }
    return taken;
  }
}
