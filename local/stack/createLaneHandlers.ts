import { LANES, type Lane } from "../../contract/lanes/lanes.js";
import { PartStartError } from "../errors.js";
import type { SqsBatchHandler } from "../eventSource/SqsEventSourcePoller.js";
import type { StackHandlerContext } from "./StackHandlerContext.js";
import type { StartLocalStackOptions } from "./StartLocalStackOptions.js";

/**
 * Builds each lane's handler with that lane's context: bulk's first, interactive's last (a caller
 * that keeps the last context it was given keeps the interactive lane's; see
 * `StartLocalStackOptions.createHandler`).
 *
 * @throws {PartStartError} naming the lane when its handler cannot be built (the cause kept).
 */
export async function createLaneHandlers(
  createHandler: StartLocalStackOptions["createHandler"],
  contextOf: (lane: Lane) => StackHandlerContext,
): Promise<Record<Lane, SqsBatchHandler>> {
  const handlers = {} as Record<Lane, SqsBatchHandler>;
  for (const lane of [...LANES].reverse()) {
    handlers[lane] = await Promise.resolve()
      .then(() => createHandler(contextOf(lane)))
      .catch((error: unknown) => {
        const reason = error instanceof Error ? error.message : String(error);
        throw new PartStartError(`the ${lane} lane's decide function`, `could not be built: ${reason}`, "", {
          cause: error,
        });
      });
  }
  return handlers;
}
