import type { JevBenchCase } from "./loadJevBench.js";

/** A JevBench case with the file of the public split it comes from (`easy`, `original`, `hard`). */
export interface JevBenchItem extends JevBenchCase {
  file: string;
}

/** What one case gave. */
export interface JevBenchRecord {
  id: string;
  file: string;
  family: string;
  group: string | null;
  /** Whether the answer is a valid distribution over exactly the case's labels (JevBench's check). */
  valid: boolean;
  /** Why it is not valid (an engine error or a malformed distribution). */
  error?: string;
  /** The argmax label (ties: alphabetically smallest); absent when not valid. */
  predicted?: string;
  /** Whether `predicted` is the expected label; false when not valid (an invalid answer counts as wrong). */
  correct: boolean;
  /** The expected label, as a string. */
  expected: string;
  /** The distribution, label → probability, when valid. */
  probabilities?: Record<string, number>;
  /** Wall time of the case, serially (ms). */
  latency_ms: number;
  /** Prompt tokens the engine evaluated, when it answered. */
  input_tokens?: number;
  /** The prompt layout the engine scored the case in (its `prompt_version`), when it answered. */
  prompt_version?: string;
}
