import type { Outcome, StoredOutcome } from "../../contract/outcome/OutcomeSchema.js";
import { ConfigurationError, PipelineError, TransientError } from "../common/errors.js";
import { tableErrorHint } from "../common/tableErrorHint.js";

/**
 * An outcome for this (policy, id) exists already: the first one stands (a redelivered or
 * duplicate message). Carries the stored item, unmarshalled; `existing` is the raw item when it
 * does not match the outcome schema.
 */
export class OutcomeAlreadyRecordedError extends PipelineError {
  override name = "OutcomeAlreadyRecordedError";
  constructor(
    readonly policy: string,
    readonly id: string,
    /** The stored outcome. */
    readonly existing: Outcome | Record<string, unknown> | undefined,
    options?: { cause?: unknown },
  ) {
    super(`an outcome for ${policy}/${id} is already recorded`, options);
  }
}

/** DynamoDB could not take the write for now (throttling, 5xx, refused or reset connection, timeout). */
export class TransientOutcomeStoreError extends TransientError {
  override name = "TransientOutcomeStoreError";
  constructor(
    readonly tableName: string,
    /** The SDK error's name or the Node error code. */
    readonly errorName: string,
    options?: { cause?: unknown },
  ) {
    super(`the outcomes table ${tableName} is unavailable for now (${errorName})`, options);
  }
}

/**
 * DynamoDB refused the write for a reason retrying will not fix (validation, missing table, access).
 * Not retried; the record goes back to SQS, since no outcome could be written for it.
 */
export class OutcomeStoreError extends PipelineError {
  override name = "OutcomeStoreError";
  constructor(
    readonly tableName: string,
    readonly errorName: string,
    options?: { cause?: unknown },
  ) {
    super(`the outcomes table ${tableName} refused the write (${errorName})`, options);
  }
}

/**
 * The outcomes table cannot be written as the function is configured: it does not exist under
 * that name in this account and region (`ResourceNotFoundException`), or the role may not write
 * it (`AccessDeniedException`), or the credentials are refused. A {@link ConfigurationError}: the
 * record goes back, nothing is written, a person must fix the configuration.
 */
export class OutcomesTableConfigurationError extends ConfigurationError {
  override name = "OutcomesTableConfigurationError";
  constructor(
    readonly tableName: string,
    /** The SDK error's name. */
    readonly errorName: string,
    options?: { cause?: unknown },
  ) {
    super(
      `the outcomes table ${tableName} cannot be written as configured (${errorName})${detailOf(options?.cause)}`,
      "outcomes-table",
      tableName,
      `check that OUTCOMES_TABLE ("${tableName}") names an existing table in this account and region, and that the function's role may call dynamodb:PutItem on it`,
      options,
    );
  }
}

function detailOf(cause: unknown): string {
  const message = cause instanceof Error ? cause.message : "";
  return message === "" ? "" : `: ${message.length > 300 ? `${message.slice(0, 299)}…` : message}`;
}

/**
 * Base class of what a person's read or review of the outcomes table raises on purpose
 * (`decisions outcomes`, the review console): each carries its data as fields, and its message is
 * written to be printed as it is.
 */
export class OutcomesAccessError extends Error {
  override name = "OutcomesAccessError";
}

/** No outcome is stored for (policy, id). */
export class OutcomeNotFoundError extends OutcomesAccessError {
  override name = "OutcomeNotFoundError";
  constructor(
    readonly tableName: string,
    readonly policy: string,
    readonly id: string,
  ) {
    super(`no outcome for policy "${policy}" and id "${id}" in ${tableName}`);
  }
}

/** A stored item does not have the outcome schema's shape (written by something else, or damaged). */
export class MalformedOutcomeError extends OutcomesAccessError {
  override name = "MalformedOutcomeError";
  constructor(
    readonly tableName: string,
    /** The item's key, as far as it has one. */
    readonly key: { policy?: unknown; id?: unknown },
    /** What does not match, `path: message` each. */
    readonly problems: readonly string[],
    options?: { cause?: unknown },
  ) {
    super(
      `the item ${JSON.stringify(key)} in ${tableName} is not an outcome: ${problems.slice(0, 3).join("; ")}`,
      options,
    );
  }
}

/**
 * A shadow record that does not have the shadow record schema's shape: refused before it is written
 * (the decide function's input was wrong), or read from the table damaged.
 */
export class MalformedShadowRecordError extends OutcomesAccessError {
  override name = "MalformedShadowRecordError";
  /** What does not match, `path: message` each. */
  readonly problems: readonly string[];
  constructor(
    readonly tableName: string,
    /** The item's `<policy>/<id>`. */
    readonly key: string,
    issues: ReadonlyArray<{ path: PropertyKey[]; message: string }>,
    options?: { cause?: unknown },
  ) {
    const problems = issues.map(
      (issue) => `${issue.path.map(String).join(".") || "(record)"}: ${issue.message}`,
    );
    super(
      `the shadow record of ${key} in ${tableName} is not valid: ${problems.slice(0, 3).join("; ")}`,
      options,
    );
    this.problems = problems;
  }
}

/** The table could not be read or written (missing table, no access, DynamoDB down). */
export class OutcomesTableError extends OutcomesAccessError {
  override name = "OutcomesTableError";
  constructor(
    readonly tableName: string,
    /** The SDK error's name or the Node error code. */
    readonly errorName: string,
    options?: { cause?: unknown },
  ) {
    const detail = (options?.cause as Error | undefined)?.message ?? "";
    const hint = tableErrorHint(errorName, "table");
    super(
      `the outcomes table ${tableName}: ${hint ?? errorName}${detail === "" ? "" : ` (${errorName}: ${detail})`}`,
      options,
    );
  }
}

/** A reviewer's answer does not fit the policy's question, or names a question it does not ask. */
export class ReviewAnswerError extends OutcomesAccessError {
  override name = "ReviewAnswerError";
  constructor(
    /** The question id as given. */
    readonly question: string,
    /** Why it does not fit, for a person. */
    readonly reason: string,
  ) {
    super(`--set ${question}: ${reason}`);
  }
}

/** The outcome cannot be reviewed in its current state (rejected, or without answers). */
export class NotReviewableError extends OutcomesAccessError {
  override name = "NotReviewableError";
  constructor(
    readonly outcome: StoredOutcome,
    readonly reason: string,
  ) {
    super(`${outcome.policy}/${outcome.id} cannot be reviewed: ${reason}`);
  }
}

/**
 * The outcome changed between the moment it was read and the review's write (someone else
 * reviewed it, or it is not the version the reviewer saw). Carries what is stored now.
 */
export class ReviewConflictError extends OutcomesAccessError {
  override name = "ReviewConflictError";
  constructor(
    readonly policy: string,
    readonly id: string,
    /** The `updated_at` the review expected. */
    readonly expectedUpdatedAt: string,
    /** The outcome as stored now, when DynamoDB returned it. */
    readonly current: StoredOutcome | Record<string, unknown> | undefined,
    options?: { cause?: unknown },
  ) {
    const now = (current as { updated_at?: unknown } | undefined)?.updated_at;
    super(
      `${policy}/${id} changed since it was read (expected updated_at ${expectedUpdatedAt}, now ${typeof now === "string" ? now : "unknown"}): read it again and review that`,
      options,
    );
  }
}

/**
 * The review would change an answer a person gave (the outcome is `reviewed`, or a question it
 * answers has a person's answer) and was not given as an amendment (`--amend`, `amend: true`):
 * nothing is written. Carries the outcome and the questions a person had answered.
 */
export class AmendRequiredError extends OutcomesAccessError {
  override name = "AmendRequiredError";
  constructor(
    readonly outcome: StoredOutcome,
    /** The questions of the review whose standing answer a person gave. */
    readonly questions: readonly string[],
  ) {
    const by = outcome.review?.by;
    super(
      `${outcome.policy}/${outcome.id} ${outcome.status === "reviewed" ? "is reviewed" : `has a person's answer to ${questions.join(", ")}`}${by === undefined ? "" : ` (last by ${by})`}: changing a person's answer is an amendment; give --amend (amend: true) to record it as one`,
    );
  }
}

/**
 * The entries of the outcome's review history whose answers would stand after this review pass
 * `MAX_KEPT_REVIEWS_BYTES` of JSON on their own (superseded entries are dropped before this is
 * raised; it takes a policy of many questions or reviewer names of kilobytes): nothing is written.
 * Carries the outcome, the size the history would have and the bounds.
 */
export class ReviewHistoryFullError extends OutcomesAccessError {
  override name = "ReviewHistoryFullError";
  constructor(
    readonly outcome: StoredOutcome,
    /** Entries and JSON bytes `reviews` would have with this review. */
    readonly wouldHave: { entries: number; bytes: number },
    /** The bounds. */
    readonly limits: { entries: number; bytes: number },
  ) {
    super(
      `${outcome.policy}/${outcome.id}: its review history is full (this review would make it ${wouldHave.entries} entries, ${wouldHave.bytes} bytes, all holding answers that stand; at most ${limits.bytes} bytes are kept, and a standing answer is never dropped to make room): the review was not recorded; answer fewer questions at once, or a reviewer who reviewed it before may amend their own answer, which replaces their earlier entry`,
    );
  }
}
