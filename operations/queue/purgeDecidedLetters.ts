import type { Message, SQSClient } from "@aws-sdk/client-sqs";
import { decidedOutcomeOf, type JobEndLookup, type OutcomeLookup } from "./attachDecidedOutcomes.js";
import { deleteMessages } from "./deleteMessages.js";
import { type DeadLetter, deadLetterOf } from "./listDeadLetters.js";
import { receiveMessages } from "./receiveMessages.js";
import { releaseMessages } from "./releaseMessages.js";

/** Options of {@link purgeDecidedLetters}. */
export interface PurgeDecidedLettersOptions {
  /** The dead-letter queue. */
  dlqUrl: string;
  /** At most this many messages looked at. Default: all. */
  max?: number;
  /** Long-poll wait of each receive in seconds; an empty answer ends the purge. Default 1. */
  waitTimeSeconds?: number;
  /** How long a received message stays hidden while its outcome is read, in seconds. Default 60. */
  visibilityTimeoutSeconds?: number;
  /**
   * The jobs table, read for each decided letter that is a job's line: one whose job's end check
   * is outstanding is kept (its redelivery would run it). Without it, every job line is kept.
   */
  jobs?: JobEndLookup;
}

/** A dead letter the purge could not delete (it stays in the DLQ). */
export interface UndeletedLetter extends DeadLetter {
  code: string;
  message: string;
}

/** What {@link purgeDecidedLetters} did. */
export interface PurgeReport {
  /** Deleted: copies of items whose outcome is stored (each with `decided`). */
  purged: DeadLetter[];
  /**
   * Left in the DLQ: their item has no outcome, or they ask to replace it, or they name no item,
   * or their outcome is stored but they are `held` (`decided.held`: a job's end depends on them).
   */
  kept: DeadLetter[];
  /** Copies of decided items whose delete failed: still in the DLQ. */
  failed: UndeletedLetter[];
}

/**
 * Deletes from a dead-letter queue the copies of items that have already ended: a message whose
 * item's outcome is stored and that does not ask to replace it ({@link decidedOutcomeOf}), unless
 * it is a job's line whose job's end check is outstanding (or whose job cannot be read). Every
 * other message — its outcome absent, a supersede marker of `*`, a body naming no item — is left
 * where it was and made visible again at the end. Receives up to 10 at a time, reads each one's
 * outcome, then deletes the decided ones, until a receive brings nothing new or `max`.
 *
 * @throws what the outcome lookup throws (the table missing, no access): nothing more is deleted,
 *   and the messages not yet deleted are made visible again.
 */
export async function purgeDecidedLetters(
  sqs: Pick<SQSClient, "send">,
  lookup: OutcomeLookup,
  options: PurgeDecidedLettersOptions,
): Promise<PurgeReport> {
  const max = options.max ?? Number.POSITIVE_INFINITY;
  const report: PurgeReport = { purged: [], kept: [], failed: [] };
  const seen = new Set<string>();
  const keepHidden: string[] = [];
  try {
    for (;;) {
      const room = max - report.purged.length - report.kept.length - report.failed.length;
      if (room <= 0) break;
      const received = await receiveMessages(sqs, options.dlqUrl, {
        visibilityTimeoutSeconds: options.visibilityTimeoutSeconds ?? 60,
        waitTimeSeconds: options.waitTimeSeconds ?? 1,
      });
      const decided: { message: Message; letter: DeadLetter }[] = [];
      let fresh = 0;
      for (const [index, message] of received.entries()) {
        const id = message.MessageId ?? "";
        if (seen.has(id) || fresh >= room) {
          keepHidden.push(message.ReceiptHandle ?? "");
          continue;
        }
        seen.add(id);
        fresh += 1;
        const letter = deadLetterOf(message);
        let outcome: DeadLetter["decided"];
        try {
          outcome = await decidedOutcomeOf(letter, lookup, options.jobs);
        } catch (error) {
          // Nothing of this round is deleted: every message received is made visible again.
          const untouched = [...decided.map((entry) => entry.message), ...received.slice(index)];
          keepHidden.push(...untouched.map((each) => each.ReceiptHandle ?? ""));
          throw error;
        }
        if (outcome === undefined || outcome.held !== undefined) {
          report.kept.push(outcome === undefined ? letter : { ...letter, decided: outcome });
          keepHidden.push(message.ReceiptHandle ?? "");
        } else decided.push({ message, letter: { ...letter, decided: outcome } });
      }
      if (fresh === 0) break;
      await deleteLetters(sqs, options.dlqUrl, decided, report, keepHidden);
    }
  } finally {
    await releaseMessages(sqs, options.dlqUrl, keepHidden);
  }
  return report;
}

async function deleteLetters(
  sqs: Pick<SQSClient, "send">,
  dlqUrl: string,
  decided: readonly { message: Message; letter: DeadLetter }[],
  report: PurgeReport,
  keepHidden: string[],
): Promise<void> {
  const failures = await deleteMessages(
    sqs,
    dlqUrl,
    decided.map((entry) => entry.message),
  );
  decided.forEach((entry, index) => {
    const failure = failures[index];
    if (failure === undefined) report.purged.push(entry.letter);
    else {
      keepHidden.push(entry.message.ReceiptHandle ?? "");
      report.failed.push({ ...entry.letter, ...failure });
    }
  });
}
