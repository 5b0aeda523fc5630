import type { DynamoDBClient } from "@aws-sdk/client-dynamodb";

/** What a {@link TransactionObserver} saw of the transactions sent through its client. */
export interface TransactionTally {
  /** TransactWriteItems sent (every attempt). */
  sent: number;
  /** Of those, committed. */
  committed: number;
  /** Cancelled with a `TransactionConflict` reason. */
  conflicts: number;
  /** Cancelled or failed otherwise. */
  otherFailures: number;
  /**
   * Attempts that started while another attempt updating the same item was in flight (seen from
   * the client, so an upper bound of what overlapped on the server): those the service may cancel
   * with `TransactionConflict`.
   */
  overlapping: number;
}

/**
 * Counts the transactions sent through a DynamoDB client (a middleware on its stack, shared by the
 * document clients made from it): attempts, commits, `TransactionConflict` cancellations, and
 * attempts that overlapped another on an item both update.
 */
export class TransactionObserver {
  readonly #inFlight = new Map<string, number>();
  #tally: TransactionTally = { sent: 0, committed: 0, conflicts: 0, otherFailures: 0, overlapping: 0 };

  /** Adds the observing middleware to `client`. */
  observe(client: DynamoDBClient): void {
    client.middlewareStack.add(
      (next) => async (args) => {
        const items = (args.input as { TransactItems?: { Update?: { TableName?: string; Key?: unknown } }[] })
          .TransactItems;
        if (items === undefined) return next(args);
        const updated = items.flatMap((item) =>
          item.Update === undefined ? [] : [`${item.Update.TableName} ${JSON.stringify(item.Update.Key)}`],
        );
        this.#tally.sent += 1;
        if (updated.some((key) => (this.#inFlight.get(key) ?? 0) > 0)) this.#tally.overlapping += 1;
        for (const key of updated) this.#inFlight.set(key, (this.#inFlight.get(key) ?? 0) + 1);
        try {
          const result = await next(args);
          this.#tally.committed += 1;
          return result;
        } catch (error) {
          const reasons = (error as { CancellationReasons?: { Code?: string }[] }).CancellationReasons;
          if (reasons?.some((reason) => reason.Code === "TransactionConflict")) this.#tally.conflicts += 1;
          else this.#tally.otherFailures += 1;
          throw error;
        } finally {
          for (const key of updated) this.#inFlight.set(key, (this.#inFlight.get(key) ?? 1) - 1);
        }
      },
      { step: "initialize", name: "transactionObserver" },
    );
  }

  /** The tally since the last call, and a fresh one started. */
  take(): TransactionTally {
    const tally = this.#tally;
    this.#tally = { sent: 0, committed: 0, conflicts: 0, otherFailures: 0, overlapping: 0 };
    return tally;
  }
}
