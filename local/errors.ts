/** Errors of the local stack: each names the part (DynamoDB Local, fauxqs, the gateway, …) it comes from. */

/** Base class of every error raised by `local/`: `part` names the local part that failed. */
export class LocalPartError extends Error {
  override name = "LocalPartError";
  /** The part that failed, as a person reads it: "DynamoDB Local", "fauxqs", "the adapter", … */
  readonly part: string;
  constructor(part: string, message: string, options?: ErrorOptions) {
    super(`${part}: ${message}`, options);
    this.part = part;
  }
}

/** Java (needed by DynamoDB Local) could not be run. */
export class JavaNotFoundError extends LocalPartError {
  override name = "JavaNotFoundError";
  /** The command that was tried. */
  readonly command: string;
  constructor(part: string, command: string, options?: ErrorOptions) {
    super(
      part,
      `Java is needed (17 or newer) but "${command}" could not be run; install a JDK (e.g. apt-get install openjdk-17-jdk-headless) or pass its path`,
      options,
    );
    this.command = command;
  }
}

/** A part could not listen because its port is taken. */
export class PortInUseError extends LocalPartError {
  override name = "PortInUseError";
  readonly host: string;
  readonly port: number;
  constructor(part: string, host: string, port: number, options?: ErrorOptions) {
    super(
      part,
      `port ${port} on ${host} is already in use; choose another port or stop what holds it`,
      options,
    );
    this.host = host;
    this.port = port;
  }
}

/** A part did not start (or did not become ready in time); `output` holds the end of what it printed. */
export class PartStartError extends LocalPartError {
  override name = "PartStartError";
  /** The last lines the part printed (stderr and stdout), for the person reading the error. */
  readonly output: string;
  constructor(part: string, message: string, output = "", options?: ErrorOptions) {
    super(part, output === "" ? message : `${message}\n${indent(output)}`, options);
    this.output = output;
  }
}

/**
 * The local ingest workflow ended before the object was read to its end: stopped (the stack was
 * stopping) or stalled (invocations kept ending where they started: the work queue or the table
 * kept failing). `pending` holds the checkpoints to resume from; putting the object again reads it
 * again from its start, and the lines already sent are absorbed by the outcomes' conditional write.
 */
export class IngestWorkflowError extends LocalPartError {
  override name = "IngestWorkflowError";
  readonly why: "stopped" | "stalled";
  readonly pending: readonly IngestCheckpointLike[];
  constructor(why: "stopped" | "stalled", pending: readonly IngestCheckpointLike[], options?: ErrorOptions) {
    const where = pending
      .map((checkpoint) => `s3://${checkpoint.bucket}/${checkpoint.key} from line ${checkpoint.line}`)
      .join(", ");
    super(
      "the ingest workflow",
      why === "stopped"
        ? `stopped before the end of ${where}; put the object again to read it again`
        : `made no progress at ${where} in several invocations (see the ingest function's log for SQS's or DynamoDB's error); put the object again once that is fixed`,
      options,
    );
    this.why = why;
    this.pending = pending;
  }
}

/** Where an ingest read resumes (the fields of the ingest function's checkpoint this names). */
interface IngestCheckpointLike {
  bucket: string;
  key: string;
  line: number;
}

function indent(text: string): string {
  return text
    .trimEnd()
    .split("\n")
    .map((line) => `    ${line}`)
    .join("\n");
}

/**
 * The local stack's settings could not be taken from the CDK app's template: it could not be
 * synthesized (the CDK app's own error, or its development dependencies are not installed), or the
 * template lacks a resource the local stack is built from (a lane's queue, its mapping, a table).
 */
export class StackTemplateError extends LocalPartError {
  override name = "StackTemplateError";
  constructor(message: string, options?: ErrorOptions) {
    super("the stack's template", message, options);
  }
}

/**
 * A template value that cannot be resolved to what AWS would put there (an intrinsic function
 * `TemplateResolver` does not model, or a logical id the template lacks): the template is not one
 * this CDK app synthesizes; synthesize it again, or extend `local/iam/TemplateResolver.ts` for the
 * new construct.
 */
export class TemplateResolveError extends StackTemplateError {
  override name = "TemplateResolveError";
}
