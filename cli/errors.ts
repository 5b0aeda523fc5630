/** Errors of the `decisions` command. */

/**
 * Bad arguments: an unknown flag, a missing value, a value out of range. Printed without a stack
 * and answered with exit code 2. The command's own usage text travels in {@link UsageError.usage}.
 */
export class UsageError extends Error {
  override name = "UsageError";
  constructor(
    message: string,
    options?: ErrorOptions & {
      /** The usage text of the command that refused the arguments, printed after the message. */
      usage?: string;
    },
  ) {
    super(message, options);
    this.usage = options?.usage;
  }

  /** The usage text of the command that refused the arguments, when it was given. */
  readonly usage: string | undefined;
}

/**
 * A command is registered but this installation lacks what it needs (e.g. the SageMaker image ships
 * no `bench/`). Answered with exit code 2 and the names of the missing parts.
 */
export class CommandUnavailableError extends Error {
  override name = "CommandUnavailableError";
  constructor(
    /** The command's name. */
    readonly command: string,
    /** Top-level folders and packages the command needs that are not installed here. */
    readonly missing: readonly string[],
  ) {
    super(`"${command}" is not available in this installation: it needs ${missing.join(", ")}`);
  }
}

/** A command module does not export the command its registry entry names (a packaging defect). */
export class CommandModuleError extends Error {
  override name = "CommandModuleError";
  constructor(
    /** The command's name. */
    readonly command: string,
    /** The module the registry names. */
    readonly module: string,
    /** The export the registry names. */
    readonly exportName: string,
  ) {
    super(`the module ${module} of "${command}" exports no command named ${exportName}`);
  }
}
