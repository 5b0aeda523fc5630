/**
 * Progress of a model pull on stderr: a cli-progress bar on a terminal, plain lines (every tenth of
 * the file) elsewhere, so a log or CI keeps a few readable lines instead of control characters.
 */
import { SingleBar } from "cli-progress";
import type { PullProgress } from "../../adapter/models/pullHubModel.js";
import type { CliOutput } from "../types.js";

/** What {@link createPullProgress} gives: the pull's `onProgress`, and `stop` once it has ended. */
export interface PullProgressPrinter {
  onProgress: (progress: PullProgress) => void;
  /** Ends the bar (on a terminal); call it whether the pull succeeded or not. */
  stop: () => void;
}

/**
 * A progress printer for the download of `name`.
 * @example
 * ```ts
 * const progress = createPullProgress(process.stderr, "model.gguf");
 * try { await pullHubModel({ …, onProgress: progress.onProgress }); } finally { progress.stop(); }
 * ```
 */
export function createPullProgress(stderr: CliOutput["stderr"], name: string): PullProgressPrinter {
  if (stderr.isTTY === true) {
    const bar = new SingleBar({
      stream: stderr as NodeJS.WritableStream,
      format: `${name} [{bar}] {percentage}% | {received}/{size} | {speed} | ETA {eta_formatted}`,
      hideCursor: true,
      etaBuffer: 50,
    });
    let started = false;
    const began = performance.now();
    let first = 0;
    return {
      onProgress({ bytesReceived, totalBytes, resumedFrom }) {
        const seconds = (performance.now() - began) / 1000;
        const payload = {
          received: megabytes(bytesReceived),
          size: megabytes(totalBytes),
          speed: seconds > 0 ? `${((bytesReceived - first) / 1e6 / seconds).toFixed(1)} MB/s` : "",
        };
        if (!started) {
          started = true;
          first = resumedFrom;
          bar.start(totalBytes, bytesReceived, payload);
        } else bar.update(bytesReceived, payload);
      },
      stop() {
        if (started) bar.stop();
        started = false;
      },
    };
  }
  let shownTenth = -1;
  return {
    onProgress({ bytesReceived, totalBytes, resumedFrom }) {
      const tenth = Math.floor((10 * bytesReceived) / Math.max(1, totalBytes));
      if (tenth === shownTenth) return;
      if (shownTenth === -1 && resumedFrom > 0) {
        stderr.write(`${name}: resuming at ${megabytes(resumedFrom)} of ${megabytes(totalBytes)}\n`);
      }
      shownTenth = tenth;
      stderr.write(
        `${name}: ${String(tenth * 10).padStart(3)}%  ${megabytes(bytesReceived)} / ${megabytes(totalBytes)}\n`,
      );
    },
    stop() {},
  };
}

function megabytes(bytes: number): string {
  return `${(bytes / 1e6).toFixed(1)} MB`;
}
