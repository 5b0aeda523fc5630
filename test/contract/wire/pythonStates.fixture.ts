/** The committed Python outputs (fixtures/python-states.json; its README says how they were made). */
import { readFileSync } from "node:fs";

/** One state text with what Python printed for it and the SemIf prompt hash of a decision on it. */
export interface PythonStateCase {
  name: string;
  text: string;
  python_dumps: string;
  prompt_sha256: string;
}

/** The fixture file: the decision each hash was computed for, and the cases. */
export interface PythonStates {
  command: string;
  question: string;
  options: { id: string; description: string }[];
  labels: string[];
  cases: PythonStateCase[];
}

/** Reads the fixture file. */
export function loadPythonStates(): PythonStates {
  const url = new URL("./fixtures/python-states.json", import.meta.url);
  return JSON.parse(readFileSync(url, "utf8")) as PythonStates;
}
