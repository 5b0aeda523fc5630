import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { SystemOneQuestion, SystemOneRequest } from "../../adapter/engine/systemOne/systemOneTypes.js";
import type { DecisionState } from "../../adapter/engine/types.js";
import { packageRoot } from "../../adapter/models/packageRoot.js";

/** One public JevBench decision case (github.com/fstandhartinger/jevbench, MIT). */
export interface JevBenchCase {
  id: string;
  family: string;
  /** Links paraphrase pairs; null when the case has none. */
  group: string | null;
  split: string;
  state: DecisionState;
  question: SystemOneQuestion;
  /** The allowed labels, in the benchmark's order. */
  labels: string[];
  /** The expected label (score cases give the level as a number). */
  expected: string | number;
}

/** The three files of the public split, in the order the seed article lists them. */
export const JEVBENCH_FILES = ["easy.jsonl", "original.jsonl", "hard.jsonl"] as const;

/** Folder of the copy of the public split shipped with this repository. */
export const JEVBENCH_DIR = join(packageRoot(), "evaluation", "jevbench", "cases");

/**
 * Reads the 231 public JevBench cases.
 * @param dir folder holding easy.jsonl, original.jsonl and hard.jsonl. Default: the bundled copy.
 * @param files the files to read, in this order. Default: all three, {@link JEVBENCH_FILES}.
 * @throws Error naming the file and line of a row that is not valid JSON.
 */
export async function loadJevBench(
  dir: string = JEVBENCH_DIR,
  files: readonly string[] = JEVBENCH_FILES,
): Promise<JevBenchCase[]> {
  const cases: JevBenchCase[] = [];
  for (const file of files) {
    const text = await readFile(join(dir, file), "utf8");
    for (const [index, line] of text.split("\n").entries()) {
      if (line.trim() === "") continue;
      try {
        cases.push(JSON.parse(line) as JevBenchCase);
      } catch (error) {
        throw new Error(`${file}:${index + 1}: not valid JSON`, { cause: error });
      }
    }
  }
  return cases;
}

/**
 * A JevBench case as a System One request with one question, id `q`. Choice criteria are laid out
 * in the case's `labels` order (the public files store object keys sorted, which would otherwise
 * reorder the options shown to the model).
 */
export function jevBenchToSystemOne(testCase: JevBenchCase): SystemOneRequest {
  const question = testCase.question;
  if (question.type === "choice" && !Array.isArray(question.criteria)) {
    const criteria = question.criteria;
    const ordered = Object.fromEntries(testCase.labels.map((label) => [label, criteria[label] ?? null]));
    return { state: testCase.state, questions: { q: { ...question, criteria: ordered } } };
  }
  return { state: testCase.state, questions: { q: question } };
}
