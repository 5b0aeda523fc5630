/** Types shared by the queue operations (`decisions submit`, `decisions dlq`). */

/** One message read from an input file, ready to send. */
export interface MessageEntry {
  /** 1-based line of the input file where the message starts. */
  line: number;
  /** The message body: the JSON text exactly as written in the file. */
  body: string;
  /** The work item's (or EventBridge event's) `id`, when it has a string one. */
  id?: string;
}

/** A part of the input file that is not sent, and why. */
export interface RefusedEntry {
  line: number;
  id?: string;
  /** Why it is not sent (`InvalidJson`, `InvalidUtf8`, `MessageTooLong`). */
  code: string;
  message: string;
}

/** What an input file holds: the messages to send, in file order, and the entries refused. */
export interface MessageFile {
  messages: MessageEntry[];
  refused: RefusedEntry[];
}

/** One message that was not delivered to the queue. */
export interface FailedEntry {
  line: number;
  id?: string;
  /** SQS's error code of the entry, or the error's name when the whole call failed. */
  code: string;
  message: string;
  /** SQS's `SenderFault`: true when sending it again unchanged cannot succeed. */
  senderFault: boolean;
  /** Attempts made for it. */
  attempts: number;
  /** The queue it was sent to; absent for an entry the file refused (never sent). */
  queueUrl?: string;
}

/** One message that was delivered. */
export interface SentEntry {
  line: number;
  id?: string;
  /** The queue's message id. */
  messageId: string;
  attempts: number;
  /** The queue it was sent to. */
  queueUrl: string;
}

/** What {@link sendMessages} did. */
export interface SendReport {
  sent: SentEntry[];
  failed: FailedEntry[];
}
