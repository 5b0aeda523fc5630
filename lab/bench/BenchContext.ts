import type { Scorer } from "../../adapter/engine/Scorer.js";
import type { JevBenchCase } from "../../evaluation/jevbench/loadJevBench.js";
import type { RawFloor } from "./RawFloor.js";

/** What every measurement of `decisions bench` works with. */
export interface BenchContext {
  scorer: Scorer;
  /** node-llama-cpp used directly on the same model file: the floor. */
  floor: RawFloor;
  cases: readonly JevBenchCase[];
  /** Base URL of the adapter's HTTP server on loopback, when the HTTP figures are measured. */
  httpUrl: string | undefined;
  quick: boolean;
  /** Progress lines (stderr). */
  log: (line: string) => void;
}

/** One headline figure: the measured value next to its goal. */
export interface Figure {
  /** What the value is, with its unit. */
  label: string;
  value: number;
  goal: string;
  met: boolean;
  details: Record<string, unknown>;
}
