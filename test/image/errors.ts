/** Errors of the image test's helpers. */

/** A command of the image test (podman, debootstrap, chroot, tar) that did not exit 0. */
export class CommandFailedError extends Error {
  override readonly name = "CommandFailedError";

  /**
   * @param command the program run
   * @param args its arguments
   * @param status its exit status, `null` when it did not start, was killed or timed out
   * @param output the end of what it wrote to standard error (and, for some, standard output)
   */
  constructor(
    readonly command: string,
    readonly args: readonly string[],
    readonly status: number | null,
    readonly output: string,
    options?: ErrorOptions,
  ) {
    super(
      `${[command, ...args.slice(0, 3)].join(" ")} … exited with ${status ?? "no status"}:\n${output}`,
      options,
    );
  }
}
