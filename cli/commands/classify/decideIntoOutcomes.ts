/**
 * The run of `decisions classify`: every item decided by the engine in this process into the
 * resumable outcomes file, with a progress bar on stderr; an abort ends it with what is written.
 */
import { SingleBar } from "cli-progress";
import { Scorer } from "../../../adapter/engine/Scorer.js";
import type { WorkItemInput } from "../../../core/pipeline/index.js";
import type { Policy, PolicySet } from "../../../core/policy/index.js";
import {
  type ClassifyProgress,
  type ClassifySummary,
  classifyItems,
  InProcessEndpoint,
  ResultsFile,
  type ResumeState,
} from "../../../operations/classify/index.js";
import type { CliOutput } from "../../types.js";

/** Options of {@link decideIntoOutcomes}. */
export interface DecideIntoOutcomesOptions {
  /** The outcomes file: appended to, and what it holds is skipped. */
  readonly out: string;
  readonly items: readonly WorkItemInput[];
  /** The policy asked for. */
  readonly policy: Policy;
  /** Every loaded policy. */
  readonly policies: PolicySet;
  /** The model file and the engine's settings. */
  readonly modelPath: string;
  readonly threads: number;
  readonly contextSize: number;
  /** Stops the run (SIGINT): the outcomes so far stay, and the run can be resumed. */
  readonly signal: AbortSignal;
  /** Where the progress bar and the messages go. */
  readonly stderr: CliOutput["stderr"];
}

/** A run that decided every item: its summary and when it started. */
export interface DecidedItems {
  readonly summary: ClassifySummary;
  /** `performance.now()` at the start, for the rate. */
  readonly started: number;
  /** The wall-clock start, for the manifest. */
  readonly startedAt: Date;
}

/**
 * Opens the outcomes file (saying on stderr what an earlier run left there), loads the engine and
 * decides the items with a progress bar, then disposes of the engine and closes the file.
 *
 * @returns the run, or undefined when `signal` stopped it (having said so on stderr)
 * @throws what loading the engine or deciding throws, unless `signal` stopped the run
 */
export async function decideIntoOutcomes(
  options: DecideIntoOutcomesOptions,
): Promise<DecidedItems | undefined> {
  const { out, stderr } = options;
  const { file, resume } = await ResultsFile.open(out);
  const bar = new SingleBar({
    stream: stderr as NodeJS.WritableStream,
    noTTYOutput: true,
    notTTYSchedule: 5000,
    format: "classify [{bar}] {percentage}% | {value}/{total} items | {rate} items/s | ETA {eta_formatted}",
    hideCursor: stderr.isTTY === true,
  });
  const started = performance.now();
  const startedAt = new Date();
  try {
    reportResume(out, resume, stderr);
    const summary = await decideWithEngine(options, file, resume, progressOn(bar, started));
    return { summary, started, startedAt };
  } catch (error) {
    if (!options.signal.aborted) throw error;
    bar.stop();
    stderr.write(`interrupted: the outcomes so far are in ${out}; run the same command again to resume\n`);
    return undefined;
  } finally {
    bar.stop();
    await file.close();
  }
}

/** Says on stderr what an interrupted earlier run left in the outcomes file. */
function reportResume(out: string, resume: ResumeState, stderr: CliOutput["stderr"]): void {
  if (resume.truncatedBytes > 0) {
    stderr.write(
      `${out}: cut off an unfinished last line (${resume.truncatedBytes} bytes) of an interrupted run\n`,
    );
  }
  if (resume.lines > 0) stderr.write(`${out}: resuming, ${resume.lines} outcome(s) already there\n`);
}

/** Loads the engine, decides the items through it and disposes of it. */
async function decideWithEngine(
  options: DecideIntoOutcomesOptions,
  results: ResultsFile,
  resume: ResumeState,
  onProgress: (progress: ClassifyProgress) => void,
): Promise<ClassifySummary> {
  const { modelPath, threads, contextSize } = options;
  const engine = await Scorer.load({ modelPath, threads, contextSize });
  try {
    const endpoint = new InProcessEndpoint({ engine });
    const { items, policy, policies, signal } = options;
    return await classifyItems({ items, policy, policies, endpoint, results, resume, signal, onProgress });
  } finally {
    await engine.dispose();
  }
}

/** Moves the bar, started at the first progress; the rate counts the items this run decided, not those skipped. */
function progressOn(bar: SingleBar, started: number): (progress: ClassifyProgress) => void {
  let barStarted = false;
  return ({ done, total, skipped }) => {
    if (!barStarted) {
      barStarted = true;
      bar.start(total, 0, { rate: "0.0" });
    }
    const seconds = (performance.now() - started) / 1000;
    bar.update(done, { rate: ((done - skipped) / Math.max(seconds, 1e-3)).toFixed(1) });
  };
}
